"""Practising alone: a question made from a seeded search, graded at once (``/class/practice``, served by
``app.classroom``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.step import step_traces
from engine.core.errors import PuzzleError
from engine.domains.graph import GraphDomain
from engine.domains.tiles.problem import SlidingTileProblem
from engine.search import questions
from engine.search.domain import Domain

#: Which searches each kind of question is asked about (the kinds whose answer a search's record makes interesting).
PRACTICE_PLAN = {"next": ("bfs", "ucs", "greedy", "astar"), "f": ("astar", "idastar"), "frontier": ("bfs", "astar"),
                 "bound": ("idastar",), "optimal": ("dfs", "bfs", "greedy", "astar")}
PRACTICE_SHOWN = 20  # expanded nodes listed (the latest): enough to see the order, short enough to read
PRACTICE_TRIES = 12  # problems tried for one question before giving up on that seed


@dataclass
class Practice:
    question: questions.Question
    problem: Domain
    trace: dict
    data: dict


def practice_question(seed: int) -> Practice:
    """The question a practice seed stands for: a random kind, search and problem (an 8-puzzle scramble, or a path
    on the seed's graph), at a random step where the question has an answer. The same seed gives the same question,
    so grading needs nothing stored."""
    rng = random.Random(seed)
    for _ in range(PRACTICE_TRIES):
        kind = rng.choice(sorted(PRACTICE_PLAN))
        algorithm = rng.choice(PRACTICE_PLAN[kind])
        if kind == "bound" or rng.random() < 0.6:
            data = {"problem": "tiles", "size": "3x3", "scramble": rng.randint(5, 9), "seed": rng.randrange(10**6)}
        else:
            start, goal = rng.sample(range(7), 2)
            data = {"problem": "numbered-graph", "start": start, "goal": goal}
        data["algorithms"] = [algorithm]
        problem, _, traces = step_traces(data)
        trace = traces[0]
        steps = range(len(trace["steps"]) + 1)
        candidates = [len(trace["steps"])] if kind == "optimal" else [
            n for n in steps if kind in questions.available(trace, n)]
        if candidates:
            question = questions.ask(kind, trace, rng.choice(candidates), problem, rng)
            if question is not None:
                return Practice(question, problem, trace, data)
    raise PuzzleError("no question could be made from this practice number; start a new run")


def practice_context(practice: Practice) -> dict:
    """What a student needs on the page to answer: the start (a board, or the graph's edges), what the search has
    done so far, and the node a question is about."""
    trace, step = practice.trace, practice.question.step
    done = trace["steps"][:step]
    expanded = [questions.node_label(trace, s["node"]) for s in done if s["event"] == "expand"]
    replay = questions.Replay(trace, step)
    nodes = trace["nodes"]
    cut = [f"{questions.node_label(trace, s['node'])} "
           f"(f = {questions.figure(nodes[s['node']]['g'] + nodes[s['node']]['h'])})"
           for s in done[replay.iteration_start:] if s["event"] == "prune"] if trace["cutoff"] == "f" else []
    context = {"title": trace["title"], "heuristic": trace["heuristic"] if trace["uses_h"] else "",
               "expanded": expanded[-PRACTICE_SHOWN:], "earlier": max(0, len(expanded) - PRACTICE_SHOWN),
               "bound": replay.bound, "cut": cut, "step": step, "steps": len(trace["steps"]),
               "path": trace["result"]["moves"] if practice.question.kind == "optimal" else ""}
    problem = practice.problem
    if isinstance(problem, SlidingTileProblem):
        context["board"] = {"cols": problem.initial.cols, "cells": list(problem.initial.cells)}
        node = practice.question.node
        if node is not None:
            context["node_board"] = {"cols": problem.initial.cols, "cells": trace["nodes"][node]["state"]}
    elif isinstance(problem, GraphDomain):  # the numbered graph
        context["edges"] = [f"{a}–{b} costs {cost}" for a, b, cost in problem.graph.edges()]
        context["ends"] = (problem.initial, problem.goal)
        if trace["uses_h"]:
            context["h"] = [problem.h(v) for v in problem.graph.names]
    return context


def practice_numbers(values) -> tuple[int, int, int]:
    """(seed, score, asked) from a practice form or link, each a small whole number (garbage starts afresh)."""
    def read(name: str, top: int) -> int:
        text = str(values.get(name, ""))
        return int(text) if text.isdigit() and int(text) <= top else -1
    return read("seed", 10**9), max(0, read("score", 10**6)), max(0, read("asked", 10**6))

