"""Every lesson slide says only what its board shows: each claim checked against the engine's own trace."""

import re

import pytest

from app.lessons import LESSONS, opening_step
from app.step_search import step_traces
from engine.core.errors import PuzzleError
from engine.domains.graph import GraphDomain
from engine.search import breadth_first_search

SLIDES = [(lesson, number, slide) for lesson in LESSONS for number, slide in enumerate(lesson.slides, 1)]
KNOWN_CLAIMS = {"step", "iteration", "bound", "expanded", "frontier", "length", "moves", "fewer_expanded", "shortest",
                "same_problem_as", "bfs_order"}
#: Numbers a slide may write without a claim: the puzzles' names (8-puzzle, 15-puzzle) and "limits 0, 1, 2, …".
NAMES = {0, 1, 2, 8, 15}


def shown_counts(trace: dict, step: int) -> dict:
    """The counters the view shows after ``step`` steps: the last recorded ones, the result's once it is done."""
    counts = {}
    for event in trace["steps"][:step]:
        counts.update((k, event[k]) for k in ("expanded", "generated", "frontier") if k in event)
    if step >= len(trace["steps"]) and trace["result"]["status"] == "solved":
        counts.update(expanded=trace["result"]["nodes_expanded"], generated=trace["result"]["nodes_generated"])
    return counts


def shortest_length(problem) -> int:
    moves = breadth_first_search(problem).moves
    return len(moves.split()) if isinstance(problem, GraphDomain) else len(moves)


def claim_numbers(value) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        return {int(n) for n in re.findall(r"\d+", value)}
    if isinstance(value, dict):
        return set().union(*map(claim_numbers, value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*map(claim_numbers, value))
    return set()


@pytest.mark.parametrize("lesson,number,slide", SLIDES, ids=[f"{lesson.slug}/{number}" for lesson, number, _ in SLIDES])
def test_every_claim_of_the_slide_holds_in_the_trace(lesson, number, slide):
    claims = slide.claims
    assert set(claims) <= KNOWN_CLAIMS, set(claims) - KNOWN_CLAIMS
    assert slide.shows, "every slide names the step it shows"
    problem, _, traces = step_traces(dict(slide.request))
    by_name = dict(zip(slide.request["algorithms"], traces, strict=True))
    assert all(t["result"]["status"] == "solved" for t in traces)
    step = opening_step(slide.step, traces)
    total = max(len(t["steps"]) for t in traces)
    if "step" in claims:
        assert step == claims["step"]
    if slide.step == "end":
        assert step == total and "end" in slide.shows
    bounds = [s for s in traces[0]["steps"][:step] if s["event"] == "bound"]
    if "iteration" in claims:
        assert len(bounds) == claims["iteration"]
        assert f"iteration {claims['iteration']}" in slide.shows
    if "bound" in claims:
        assert bounds[-1]["bound"] == claims["bound"]
        assert str(claims["bound"]) in slide.shows
    for key in ("expanded", "frontier"):
        for name, count in claims.get(key, {}).items():
            assert shown_counts(by_name[name], step)[key] == count, (name, key)
    for name, length in claims.get("length", {}).items():
        assert by_name[name]["result"]["length"] == length, name
    for name, moves in claims.get("moves", {}).items():  # a graph path, from the start node
        assert f"{getattr(problem, 'initial', '')} {by_name[name]['result']['moves']}" == moves, name
    if "fewer_expanded" in claims:
        fewer, more = claims["fewer_expanded"]
        assert by_name[fewer]["result"]["nodes_expanded"] < by_name[more]["result"]["nodes_expanded"]
    for name in claims.get("shortest", ()):  # the fewest moves (on a graph with costs, the fewest edges)
        assert by_name[name]["result"]["length"] == shortest_length(problem), name
        assert by_name[name]["result"]["optimal"] or not problem.unit_costs, name
    if "same_problem_as" in claims:
        other = lesson.slides[claims["same_problem_as"] - 1]
        other_problem, _, _ = step_traces(dict(other.request))
        assert (other_problem.initial, other_problem.goal) == (problem.initial, problem.goal)
    if "bfs_order" in claims:
        bfs = step_traces({**slide.request, "algorithms": ["bfs"]})[2][0]
        order = [n for n in (s["node"] for s in by_name[claims["bfs_order"]]["steps"] if s["event"] == "expand")]
        states = [by_name[claims["bfs_order"]]["nodes"][n]["state"] for n in order]
        bfs_states = [bfs["nodes"][s["node"]]["state"] for s in bfs["steps"] if s["event"] == "expand"]
        assert states[:len(bfs_states)] == bfs_states
    # a number in the text is a claim (or the scramble it is about), so the test above has checked it
    written = {int(n) for n in re.findall(r"(?<![\w-])\d+(?![\w-]*puzzle)", " ".join(slide.text))}
    allowed = claim_numbers(claims) | NAMES | {slide.request.get("scramble"), slide.request.get("depth_limit")}
    assert written <= allowed, written - allowed


def test_the_slides_of_a_lesson_move_forward():
    """A lesson on one search does not step back: IDA*'s iteration slides open in the order they are shown."""
    idastar = next(lesson for lesson in LESSONS if lesson.slug == "idastar")
    steps = [opening_step(slide.step, step_traces(dict(slide.request))[2]) for slide in idastar.slides[1:3]]
    assert steps[0] < steps[1]


def test_opening_steps():
    traces = [{"steps": [{"event": "bound"}, {"event": "expand"}, {"event": "bound"}, {"event": "prune"}]}]
    assert opening_step("end", traces) == 4 and opening_step(2, traces) == 2 and opening_step(99, traces) == 4
    assert opening_step({"event": "bound", "nth": 2}, traces) == 3
    assert opening_step({"event": "bound", "nth": 2, "offset": -1}, traces) == 2
    assert opening_step({"event": "goal", "nth": 1}, traces) == 4
    for bad in ("start", {"event": "bound"}, {"event": "bound", "nth": "2"}, None):
        with pytest.raises(PuzzleError):
            opening_step(bad, traces)
