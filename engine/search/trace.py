"""Record a search as a tree and a list of steps, for the step-through teaching view.

The events come from the algorithms in ``engine.search.algorithms`` (the same code the tests compare with the numba
solvers), through their ``trace`` callback. A tree node is identified by its side (bidirectional search grows a
second tree from the goal) and its path from that side's root (a tuple of actions), so the iterations of IDS and
IDA* revisit the same nodes of one tree instead of drawing it again. Each step says what
happened to which node; the browser replays the steps forward and backward and draws the frontier and the tree.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.core.result import Budget, Watch
from engine.core.status import Status
from engine.search.domain import Domain, walk
from engine.search.record import ALGORITHMS  # filled by engine.search.algorithms, which the package imports first
from engine.search.view import drawing_of

MAX_EXPANSIONS = 2000  # enough for any 8-puzzle teaching example; the view says when the recording stopped
#: depth-first search's depth limit when a request names none (``/step``'s "DFS limit" field, 1 to 40): a goal deeper
#: than it is not found by depth-first search, which then answers "no solution within 12 moves"
DEPTH_LIMIT = 12


class _Recorder:
    def __init__(self, encode, picture, lines: dict[str, int], cost):
        self.encode = encode
        self.picture = picture  # the domain's picture of a state (None: nothing of its own)
        self.lines = lines
        self.cost = cost  # problem.cost: a node's g is its parent's plus the action's cost
        self.states: list[Hashable] = []
        self.ids: dict[tuple, int] = {}
        self.nodes: list[dict] = []
        self.steps: list[dict] = []
        self.cut = 0  # cut-offs since the last bound, for saying why the next bound is what it is
        self.goal_node: int | None = None
        self.meets_node: int | None = None  # bidirectional search: the other side's node where the two met

    def node(self, side: str, path: tuple, state: Hashable, h: float | None) -> int:
        key = (side, path)
        if key not in self.ids:
            parent: int | None = None
            g: float = 0
            if path:
                parent = self.ids[(side, path[:-1])]  # a search reports a node before its children
                g = self.nodes[parent]["g"] + self.cost(self.states[parent], path[-1])
            self.ids[key] = len(self.nodes)
            self.nodes.append({"id": len(self.nodes), "parent": parent, "action": path[-1] if path else None,
                               "g": g, "depth": len(path), "h": h, "state": self.encode(state),
                               "side": side})
            if (picture := self.picture(state)) is not None:
                self.nodes[-1]["picture"] = picture
            self.states.append(state)
        node = self.nodes[self.ids[key]]
        if h is not None and node["h"] is None:
            node["h"] = h
        return node["id"]

    def __call__(self, event: str, data: dict) -> None:
        step = {"event": event, "line": self.lines.get(event)}
        step.update((k, data[k]) for k in ("expanded", "generated", "frontier") if k in data)
        if event == "bound":
            step.update(bound=data["bound"], previous=data["previous"], cut=self.cut)
            self.cut = 0
        else:
            side = data.get("side", "forward")
            step["node"] = node = self.node(side, data["path"], data["state"], data.get("h"))
            self.cut += event == "prune"
            if event == "goal":
                self.goal_node = node
                if "other" in data:
                    other = "backward" if side == "forward" else "forward"
                    step["meets"] = self.meets_node = self.node(other, data["other"], data["state"], None)
        self.steps.append(step)

    def chain(self, node: int) -> tuple[list[Hashable], tuple]:
        """The states and the actions from a node's root down to it."""
        states, actions = [self.states[node]], []
        while self.nodes[node]["parent"] is not None:
            actions.append(self.nodes[node]["action"])
            node = self.nodes[node]["parent"]
            states.append(self.states[node])
        return states[::-1], tuple(actions[::-1])

    def solution(self, problem: Domain) -> tuple | None:
        """The moves of the path found, start to goal (a bidirectional search's two halves joined), or None."""
        if self.goal_node is None:
            return None
        ends = [self.goal_node] + ([self.meets_node] if self.meets_node is not None else [])
        halves = {self.nodes[n]["side"]: self.chain(n) for n in ends}
        actions = halves["forward"][1]
        if "backward" in halves:  # walked from the goal: undo those steps in reverse
            states, back = halves["backward"]
            actions += tuple(problem.inverse(s, a) for s, a in zip(states[::-1][1:], back[::-1], strict=True))
        return actions


def trace_search(problem: Domain, algorithm: str, depth_limit: int = DEPTH_LIMIT,
                 max_expansions: int = MAX_EXPANSIONS) -> dict:
    """Run one algorithm on ``problem`` and record it: every node with its state (its drawing's ``encode``) and
    picture, every step, and the answer (its ``path`` of states, start to goal, and its ``cost``)."""
    spec = ALGORITHMS.named(algorithm)
    lines = spec.lines
    drawing = drawing_of(problem)
    record = _Recorder(drawing.encode, drawing.picture, lines, problem.cost)
    budget = Budget(max_nodes=max_expansions, max_seconds=5)  # a web request: bounded well under 10 s
    result = spec.search(problem, Watch(budget), record, depth_limit)
    record.node("forward", (), problem.initial, problem.h(problem.initial))  # the root, even when it is the goal
    if spec.frontier == "two-queues":
        record.node("backward", (), problem.goal, problem.h(problem.goal))
    answer = result.to_dict()
    actions = record.solution(problem)
    if actions is not None:
        states, cost = walk(problem, actions)
        answer["length"] = len(actions)  # a graph's move string lists nodes, not one letter per move
        answer["cost"] = cost
        answer["path"] = [drawing.encode(state) for state in states]
    if not problem.unit_costs:  # the fewest actions is not the cheapest path: only some searches promise that
        answer["optimal"] = answer["optimal"] and spec.cheapest
    # A* and IDA* promise cheapest paths only under an admissible h; a domain that checks its h exactly (a graph's
    # given table) says when it is not, and then nothing is proven
    h_admissible = not spec.uses_h or bool(problem.admissible)
    if not h_admissible:
        answer["optimal"] = False
    return {"algorithm": algorithm, "title": spec.title, "frontier_kind": spec.frontier, "priority": spec.priority,
            "cutoff": spec.cutoff, "uses_h": spec.uses_h, "optimal": spec.optimal, "cheapest": spec.cheapest,
            "unit_costs": problem.unit_costs, "h_admissible": h_admissible,
            "heuristic": problem.heuristic_name,
            "scene": drawing.scene(),
            "pseudocode": [line for line, _ in spec.pseudocode], "start_line": lines.get("start", 0),
            "nodes": record.nodes, "steps": record.steps, "result": answer,
            "recording_stopped": result.status == Status.BUDGET_EXHAUSTED}
