"""Questions about a recorded search, made from its trace and graded by the engine, for a class or a student alone.

A question is asked about the view a class sees at step ``n`` of a trace (``engine.search.trace``): the search after
its first ``n`` events. Each kind reads the replayed state (which node is where) and the algorithm's own record
(what its frontier is ordered by, what cuts a branch off) and states its answer with the reason in words:

* ``next``: which frontier node is expanded next (a queue takes its oldest node, a priority queue its least key);
* ``f``: what f = g + h of a node is;
* ``frontier``: which of these nodes is on the frontier;
* ``bound``: at the end of an IDA* iteration, what the next bound is (the least f that was cut off);
* ``optimal``: once a path is found, whether it is a cheapest one (against uniform-cost search on the problem).

``available(trace, n)`` lists the kinds that make sense at a step; ``ask(kind, trace, n, ...)`` makes one, or returns
None when the step has no such question. Choices are labelled by a node's path (a tile search's moves, a graph's
nodes), which stays the same however the page draws the tree.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from engine.search.domain import Domain
from engine.search.trace import trace_search

KINDS = {
    "next": "Which node is expanded next?",
    "f": "What is f of this node?",
    "frontier": "Which of these is on the frontier?",
    "bound": "What will IDA*'s next bound be?",
    "optimal": "Is this path optimal?",
}
LOOK_AHEAD = 200  # steps ``first_step`` looks on for a question: an expansion has at most a few dozen children
MAX_CHOICES = 6  # what a phone shows without scrolling past the question


@dataclass(frozen=True)
class Question:
    kind: str
    prompt: str
    choices: tuple[str, ...]
    answer: int  # the index of the right choice
    reason: str
    step: int
    node: int | None = None  # the trace node the question is about (f of which node), for drawing it

    def to_dict(self, reveal: bool = True) -> dict:
        """The question as JSON; without ``reveal`` (what students get before the answer is shown) no answer."""
        data = asdict(self)
        data["choices"] = list(self.choices)
        if not reveal:
            del data["answer"], data["reason"]
        return data


class Replay:
    """The search after the first ``n`` events of ``trace``: each node's status, the order nodes joined the frontier,
    the current IDA*/IDS bound and the step each iteration started at. The same rules the step-through's script
    replays (static/js/step.js), so a question is about what the class sees."""

    def __init__(self, trace: dict, n: int):
        self.trace = trace
        self.nodes = trace["nodes"]
        roots = [node["id"] for node in self.nodes if node["parent"] is None]
        self.status = {r: "frontier" for r in roots}
        self.seq = {r: -1 for r in roots}
        self.bound = None
        self.iteration_start = 0
        steps = trace["steps"][:n]
        for index, step in enumerate(steps):
            event = step["event"]
            if event == "bound":
                self.bound, self.iteration_start = step["bound"], index + 1
                self.status = {r: "frontier" for r in roots}
                continue
            node = step["node"]
            if event == "generate":
                self.status[node] = "frontier"
                self.seq[node] = index
            else:
                self.status[node] = {"expand": "expanded", "prune": "pruned", "duplicate": "duplicate",
                                     "stale": "stale", "goal": "goal"}[event]

    def key(self, node_id: int) -> int | None:
        """The node's priority under its algorithm (g, h or f), None when h is unknown."""
        node = self.nodes[node_id]
        if node["h"] is None and self.trace["priority"] != "g":
            return None
        return {"g": node["g"], "h": node["h"], "f": node["g"] + (node["h"] or 0)}[self.trace["priority"] or "f"]

    def live_frontier(self) -> list[int]:
        """Frontier nodes a best-first search will really expand: an entry whose state has since been reached by a
        cheaper path is stale (dropped when popped), so it is left out."""
        frontier = [i for i, s in self.status.items() if s == "frontier"]
        if self.trace["frontier_kind"] != "priority":
            return sorted(frontier, key=lambda i: self.seq[i])
        cheapest: dict = {}
        for i in self.status:
            if self.status[i] in ("frontier", "expanded", "goal"):
                state = _state_key(self.nodes[i])
                cheapest[state] = min(cheapest.get(state, self.nodes[i]["g"]), self.nodes[i]["g"])
        return [i for i in frontier if self.nodes[i]["g"] <= cheapest[_state_key(self.nodes[i])]]


def _state_key(node: dict):
    state = node["state"]
    return tuple(state) if isinstance(state, list) else state


def node_label(trace: dict, node_id: int) -> str:
    """A node by its path: a tile search's moves from the start ("start" for the root), a graph's nodes in order."""
    nodes = trace["nodes"]
    chain = []
    at: int | None = node_id
    while at is not None:
        chain.append(nodes[at])
        at = nodes[at]["parent"]
    chain.reverse()
    if isinstance(chain[0]["state"], list):
        moves = "".join(str(n["action"]) for n in chain[1:])
        label = moves or "start"
    else:
        label = " → ".join(str(n["state"]) for n in chain)
    return label + (" (from the goal)" if chain[0]["side"] == "backward" else "")


def figure(value: float) -> str:
    """A g, h, f, bound or cost as the board writes it (``figure`` in static/js/step/captions.js): at most three
    decimals and no trailing zeros, so a typed graph's 75.0 reads 75, as on the board, and 0.1 + 0.2 reads 0.3."""
    rounded = round(float(value), 3)
    return str(int(rounded)) if rounded.is_integer() else repr(rounded)


def _numbers(trace: dict, node_id: int) -> str:
    node = trace["nodes"][node_id]
    if node["h"] is None or not trace["uses_h"]:
        return f"g = {figure(node['g'])}"
    return f"g = {figure(node['g'])}, h = {figure(node['h'])}, f = {figure(node['g'] + node['h'])}"


def _takes_next(trace: dict, n: int) -> bool:
    """Whether step ``n`` takes a node off the frontier: the node being expanded has all its children queued, so
    "which next" is decided by the frontier the class sees (mid-expansion, children still to come could win)."""
    steps = trace["steps"]
    taken = ("expand", "goal", "stale") if trace["frontier_kind"] == "priority" else ("expand",)
    return n < len(steps) and steps[n]["event"] in taken


def _iteration_ends_at(trace: dict, n: int) -> bool:
    steps = trace["steps"]
    return trace["cutoff"] == "f" and 0 < n < len(steps) and steps[n]["event"] == "bound" and \
        steps[n]["previous"] is not None


def available(trace: dict, n: int, problem: Domain | None = None) -> list[str]:
    """The kinds of question that have an answer at step ``n`` of ``trace``."""
    kinds = []
    replay = Replay(trace, n)
    frontier = replay.live_frontier()
    best_first = trace["frontier_kind"] in ("queue", "priority")
    if best_first and len(frontier) >= 2 and _takes_next(trace, n):
        kinds.append("next")
    if trace["uses_h"] and _f_candidates(replay):
        kinds.append("f")
    if best_first and frontier and len(_off_frontier(replay)) >= 2:
        kinds.append("frontier")
    if _iteration_ends_at(trace, n):
        kinds.append("bound")
    if problem is not None and n >= len(trace["steps"]) and trace["result"]["status"] == "solved":
        kinds.append("optimal")
    return kinds


def first_step(kind: str, trace: dict, n: int, problem: Domain | None = None) -> int | None:
    """The first step from ``n`` on with a question of ``kind`` (a class asked mid-expansion moves on to where the
    question is decided), None if there is none."""
    last = min(len(trace["steps"]), n + LOOK_AHEAD)
    return next((m for m in range(n, last + 1) if kind in available(trace, m, problem)), None)


def ask(kind: str, trace: dict, n: int, problem: Domain | None = None,
        rng: random.Random | None = None) -> Question | None:
    """A question of ``kind`` about step ``n`` of ``trace`` (``problem`` for "optimal"), or None if it has none."""
    n = max(0, min(n, len(trace["steps"])))
    if kind not in KINDS or kind not in available(trace, n, problem):
        return None
    rng = rng or random.Random()
    make = {"next": _next, "f": _f, "frontier": _frontier, "bound": _bound, "optimal": _optimal}[kind]
    return make(trace, n, rng, problem)


def _shuffled(rng: random.Random, right, wrong: list) -> tuple[list, int]:
    choices = [right] + wrong
    rng.shuffle(choices)
    return choices, choices.index(right)


def _next(trace: dict, n: int, rng: random.Random, problem) -> Question:
    replay = Replay(trace, n)
    frontier = replay.live_frontier()
    if trace["frontier_kind"] == "queue":
        chosen = frontier[0]  # the oldest: live_frontier keeps joining order
        reason = (f"{trace['title']} keeps its frontier in a first-in, first-out queue: {node_label(trace, chosen)} "
                  f"joined it first of the {len(frontier)} nodes waiting, so it is expanded next.")
    else:
        priority = trace["priority"]
        nodes = trace["nodes"]
        chosen = min(frontier, key=lambda i: (replay.key(i), -nodes[i]["g"], replay.seq[i]))
        tied = [i for i in frontier if replay.key(i) == replay.key(chosen)]
        reason = (f"{trace['title']} expands the frontier node with the least {priority}: {node_label(trace, chosen)} "
                  f"has {_numbers(trace, chosen)}.")
        if len(tied) > 1:
            reason += (f" {len(tied)} nodes share {priority} = {figure(replay.key(chosen) or 0)}; ties go to the "
                       "larger g (deeper), then to the node that joined first.")
    others = [i for i in frontier if i != chosen]
    rng.shuffle(others)
    ids, answer = _shuffled(rng, chosen, others[:MAX_CHOICES - 1])
    labels = [node_label(trace, i) + (f" ({_numbers(trace, i)})" if trace["frontier_kind"] == "priority" else "")
              for i in ids]
    return Question("next", f"Which node does {trace['title']} expand next?", tuple(labels), answer, reason, n)


def _f_candidates(replay: Replay) -> list[int]:
    """Nodes the view shows with their h: on the frontier, cut off, or expanded (not the root, whose g is 0)."""
    return [i for i, s in replay.status.items() if replay.nodes[i]["h"] is not None and replay.nodes[i]["parent"]
            is not None and s in ("frontier", "pruned", "expanded")]


def _f(trace: dict, n: int, rng: random.Random, problem) -> Question:
    replay = Replay(trace, n)
    node_id = rng.choice(_f_candidates(replay))
    node = trace["nodes"][node_id]
    g, h = node["g"], node["h"]
    f = g + h
    wrong = [v for v in dict.fromkeys([g, h, f + 1, f - 1, f + 2, f - 2]) if v != f and v >= 0][:3]
    choices, answer = _shuffled(rng, f, wrong)
    measure = "number of moves" if trace["unit_costs"] else "cost"
    reason = (f"f = g + h = {figure(g)} + {figure(h)} = {figure(f)}: g is the {measure} on the path from the start "
              f"to {node_label(trace, node_id)} ({figure(g)}), h the {trace['heuristic'] or 'heuristic'} estimate of "
              f"what is left from there ({figure(h)}).")
    return Question("f", f"What is f of the node {node_label(trace, node_id)} ({trace['title']})?",
                    tuple(map(figure, choices)), answer, reason, n, node_id)


def _off_frontier(replay: Replay) -> list[int]:
    return [i for i, s in replay.status.items() if s in ("expanded", "duplicate", "stale")]


def _frontier(trace: dict, n: int, rng: random.Random, problem) -> Question:
    replay = Replay(trace, n)
    right = rng.choice(replay.live_frontier())
    wrong = _off_frontier(replay)
    rng.shuffle(wrong)
    wrong = wrong[:3]
    ids, answer = _shuffled(rng, right, wrong)
    why = {"expanded": "was already expanded", "duplicate": "was dropped: its state had been reached already",
           "stale": "was dropped: a cheaper path to its state replaced it"}
    reason = f"{node_label(trace, right)} has been generated and is waiting to be expanded. " + " ".join(
        f"{node_label(trace, i)} {why[replay.status[i]]}." for i in wrong)
    return Question("frontier", f"Which of these is on {trace['title']}'s frontier?",
                    tuple(node_label(trace, i) for i in ids), answer, reason, n)


def _bound(trace: dict, n: int, rng: random.Random, problem) -> Question:
    replay = Replay(trace, n)
    nodes = trace["nodes"]
    cut = [step["node"] for step in trace["steps"][replay.iteration_start:n] if step["event"] == "prune"]
    values = {nodes[i]["g"] + nodes[i]["h"] for i in cut}
    least = min(values)
    example = next(i for i in cut if nodes[i]["g"] + nodes[i]["h"] == least)
    bound = replay.bound
    assert bound is not None, "an iteration ends only after its bound was set"
    wrong = [v for v in dict.fromkeys(sorted(values - {least}) + [bound, bound + 1, least + 1, least + 2])
             if v != least][:3]
    choices, answer = _shuffled(rng, least, wrong)
    reason = (f"This iteration cut off {len(cut)} node{'s' if len(cut) != 1 else ''} whose f was above the bound "
              f"{figure(bound)}. The least of their f values is {figure(least)} (for example "
              f"{node_label(trace, example)}: {_numbers(trace, example)}), so the next iteration searches up to "
              f"f = {figure(least)}: no node with a smaller f was left unexplored.")
    return Question("bound", f"What will IDA*'s next bound be? (This iteration's bound is {figure(bound)}.)",
                    tuple(map(figure, choices)), answer, reason, n)


def cheapest_cost(problem: Domain) -> int | None:
    """The cost of a cheapest path (uniform-cost search, within the step-through's budget), None if none found."""
    traced = trace_search(problem, "ucs")
    return traced["result"].get("cost") if traced["result"]["status"] == "solved" else None


def _optimal(trace: dict, n: int, rng: random.Random, problem: Domain | None) -> Question | None:
    if problem is None:  # whether a path is optimal is known only by searching the problem again
        return None
    found = trace["result"]["cost"]
    best = cheapest_cost(problem)
    if best is None:
        return None
    optimal = found == best

    def amount(value: int) -> str:
        return f"{figure(value)} move{'s' if value != 1 else ''}" if trace["unit_costs"] else f"cost {figure(value)}"

    title = trace["title"]
    reason = (f"{title}'s path takes {amount(found)}; uniform-cost search, which always finds a cheapest path, "
              f"finds one of {amount(best)}. ")
    reason += "So this path is optimal." if optimal else f"So this path is {figure(found - best)} more than it need be."
    if optimal and not (trace["cheapest"] if not trace["unit_costs"] else trace["optimal"]):
        reason += f" {title} does not promise that; here it happened to find one."
    return Question("optimal", f"{title} found a path of {amount(found)}. Is it optimal?", ("Yes", "No"),
                    0 if optimal else 1, reason, n)
