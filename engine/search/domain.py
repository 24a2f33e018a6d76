"""The domain contract: what a search problem provides so that every search in the project runs on it.

A *domain* is a kind of problem (sliding tiles, a graph given as data, a grid map, the pancake puzzle); a *problem*
is one instance of it (a start, a goal, the map). A domain lives in one folder, ``engine/domains/<name>/``, and
its problems are instances of ``Domain`` below, with the members described here; how a page draws them is apart,
in its kind's ``drawing`` (``engine.search.view.Drawing``), as a search never reads it. The readable searches
(``engine.search.algorithms``), the step-through (``engine.search.trace``, ``/api/step``) and the compiled
best-first search (``engine.search.compiled``) read nothing else, so a new domain written to this contract gets all
of them (ARCHITECTURE.md, "A new domain", is the checklist; ``tests/support/domain_contract.py`` checks a domain
against it).

States and moves
    ``initial``: the start state. ``goal``: the one goal state when there is exactly one, else None
    (bidirectional search and the compiled search need it). States are hashable and compared with ``==``.
    ``actions(state)``: the moves from ``state``, in a fixed order (searches generate children in this order, so
    node counts are reproducible). ``result(state, action)``: the state a move leads to.
    ``is_goal(state)``: the goal test.

Costs
    ``cost(state, action)``: what the move costs, a positive finite number (an int or a float). Uniform-cost
    search, greedy best-first search, A* and IDA* add costs up as g (the path cost, never the depth); the
    breadth-first and depth-first families count moves. ``unit_costs``: True when every move costs 1 (then the two
    agree, and "fewest moves" means "cheapest").

Inverse moves
    ``inverse(state, action)``: the move that leads from ``result(state, action)`` back to ``state``, or None when
    there is none (a one-way edge). The depth-first family uses it never to undo the move just made; bidirectional
    search walks backward from the goal with ``actions`` and turns each backward step into a forward move with it,
    so it needs ``reversible`` = True (every move has an inverse costing the same) and is refused otherwise.

Heuristics
    ``h(state)``: an estimate of the cost still to pay, never negative; ``heuristic_name`` names it. A* and IDA*
    return cheapest paths when h is admissible (never above the true cost), A* without reopening states when it is
    also consistent (h(s) ≤ cost(s, a) + h(result(s, a)) for every move). A domain says which heuristics it offers
    (``DomainKind.heuristics``) and picks one by name when a problem is built.

Paths
    ``format_path(actions)``: a path of moves as the result's move string.

Compiled search (optional)
    ``compiled()``: None, or a ``CompiledDomain``: the problem's states numbered 0 … ``states`` − 1 and two numba
    hooks (its children with their costs, its h) from which ``engine.search.compiled`` builds a compiled A* and
    ``engine.search.compiled_ida`` a compiled IDA*. The numbering must follow ``actions``' order, no state may be
    listed twice among one state's children, and the hooks must compute exactly what ``cost`` and ``h`` compute, so
    the compiled searches expand the same nodes as the readable ones (a test per domain holds them equal).

Kinds
    A domain registers a ``DomainKind`` (its name, title, heuristics and the function that builds a problem from a
    request's JSON, raising ``PuzzleError`` with a sentence on bad input: the problem's own JSON under the kind's
    name, ``{"graph": G}``, ``{"grid": {...}}``, ``{"tiles": [...], "size": "3x3"}``, and optionally ``heuristic``);
    ``/api/step``, ``/api/solve``, ``/api/compare``, their jobs and the CLI look kinds up here.
    ``engine.core.registry`` imports the domain packages, so the lookups see every kind; a problem's class sets
    ``name`` to its kind's name, by which its drawing is found. A kind may carry solvers
    of its own (``solvers``: ``KindSolver``s, as the sliding tiles' pattern databases and beam search), which
    ``engine.search.solve.solve`` offers beside the generic ones, and its own reading of the solve and compare
    jobs' parameters (``jobs``: ``engine.search.jobs.KindJobs``, as the tiles' board, size and goal).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.errors import PuzzleError
from engine.core.registry import Registry

if TYPE_CHECKING:
    from engine.core.result import SolveResult
    from engine.search.jobs import KindJobs


class Domain(ABC):
    """One problem of a domain, as every search reads it (the module docstring is the contract). A domain's problem
    class inherits this: the members it must write are abstract (a class missing one cannot be instantiated), and
    every optional member has its default here, so no search guesses one with ``getattr``."""

    #: the domain's name, as its ``DomainKind`` registers it
    name: str = "problem"
    #: the start state, and the one goal state (None: several, or only a goal test)
    initial: Hashable
    goal: Hashable | None = None
    #: every move costs 1 (then fewest moves is cheapest)
    unit_costs: bool = False
    #: every move has an inverse costing the same (bidirectional search needs it); claimed only by a domain that knows
    reversible: bool = False
    #: h never overestimates (A* and IDA* then prove the cheapest path); a domain whose h may be given by a person
    #: checks it per problem (``GraphDomain.admissible``)
    admissible: bool = True
    heuristic_name: str = "zero"

    @abstractmethod
    def actions(self, state: Hashable) -> Iterable:
        """The moves from ``state``, in a fixed order."""

    @abstractmethod
    def result(self, state: Hashable, action) -> Hashable:
        """The state a move leads to."""

    @abstractmethod
    def is_goal(self, state: Hashable) -> bool:
        """The goal test."""

    @abstractmethod
    def cost(self, state: Hashable, action) -> float:
        """What the move costs: a positive finite int or float."""

    def h(self, state: Hashable) -> float:
        """The estimate of the cost still to pay, never negative; 0 by default."""
        return 0

    def inverse(self, state: Hashable, action) -> object | None:
        """The move from ``result(state, action)`` back to ``state``, or None (a one-way move, the default)."""
        return None

    def format_path(self, path: tuple) -> str:
        """A path of moves as the result's move string."""
        return " ".join(map(str, path))

    def compiled(self) -> CompiledDomain | None:
        """The states numbered and the two numba hooks of the compiled searches, or None (no compiled search)."""
        return None

    @classmethod
    def has_compiled(cls) -> bool:
        """Whether the domain offers the compiled searches (without building its hooks)."""
        return cls.compiled is not Domain.compiled


@dataclass(frozen=True)
class CompiledDomain:
    """A problem as the compiled searches read it.

    ``children(aux, state, out_states, out_costs) -> count`` writes a state's children and their move costs in
    ``actions`` order; ``h(aux, state) -> float``; both are ``engine.search.compiled.hook`` functions, module-level
    (each pair's kernels are compiled once and cached by numba under their names). ``aux`` is a tuple of arrays the
    hooks read; ``states`` how many states there are (the A* keeps one g and one parent per state); ``max_children``
    the most children a state has; ``decode(number)`` the domain's state of a number. ``decode_path(numbers)``,
    optional, turns the numbers of a path's states (an array, start to goal) into the states as JSON and the moves
    between them at once (without it each state is decoded and its move found through ``actions``).

    The types the kernels call the hooks with, and what they must give back (``check_domain`` in
    ``tests/support/domain_contract.py`` calls the hooks with them and checks each):

    * ``state``: an int64, 0 ≤ state < ``states``; ``start`` and ``goal`` are such numbers (Python ints);
    * ``out_states``: a 1-d C-contiguous int64 array of ``max_children`` entries, written with the children's
      numbers from index 0; ``out_costs``: the same of float64, each move's cost (what ``cost`` gives, > 0);
    * the count returned: an int, 0 ≤ count ≤ ``max_children``, no child written twice;
    * ``aux``: a tuple (numba reads it as a tuple of its items' types: arrays, ints, floats), the same object every
      call; hooks may use an array in it as scratch space;
    * ``h(aux, state)``: a float64 (a count is returned as ``1.0 * count``; the kernels keep f and g as float64),
      equal to the readable ``h`` of ``decode(state)``.
    """

    children: Callable
    h: Callable
    aux: tuple
    states: int
    start: int
    goal: int
    max_children: int
    decode: Callable[[int], Hashable]
    decode_path: Callable | None = None


def walk(problem: Domain, actions: Iterable) -> tuple[list[Hashable], float]:
    """The states a path of moves visits from the start (start included) and what the moves cost altogether."""
    state, states = problem.initial, [problem.initial]
    cost: float = 0
    for action in actions:
        cost += problem.cost(state, action)
        state = problem.result(state, action)
        states.append(state)
    return states, cost


def actions_between(problem: Domain, states: list[Hashable]) -> tuple:
    """The moves that take a path of states from one to the next (for a search that returns states)."""
    moves = []
    for state, following in zip(states, states[1:], strict=False):
        moves.append(next(a for a in problem.actions(state) if problem.result(state, a) == following))
    return tuple(moves)


class KindSolver(ABC):
    """A solver a domain kind carries for its own problems, beside the generic ones (``engine.search.solve``): its
    ``name`` and ``label``, whether it is ``optimal``, and the four steps of a solve."""

    name: str
    label: str
    optimal: bool

    def offered_for(self, problem: Domain) -> bool:
        """Whether it is offered for this problem (listed among its solvers); True by default."""
        return True

    @abstractmethod
    def check(self, problem: Domain) -> str:
        """The heuristic it will use on ``problem`` ("" for none), or a ``PuzzleError`` saying why it cannot."""

    def load(self, problem: Domain, heuristic: str) -> float:
        """Load what the solve runs (kernels, tables) before its clock starts; the seconds it took (0.0 by default)."""
        return 0.0

    @abstractmethod
    def run(self, problem: Domain, heuristic: str, watch) -> SolveResult:
        """The search itself, under ``watch`` (budget, cancel, progress); a found path in ``actions``."""

    def proves(self, heuristic: str) -> bool:
        """Whether an answer it calls optimal with ``heuristic`` is proven so (False for an inadmissible h)."""
        return True


@dataclass(frozen=True)
class DomainKind:
    """A domain as the app and the CLI know it: ``build(data)`` makes a problem from a request's JSON (raising
    ``PuzzleError`` with a sentence on anything malformed); ``examples`` are requests for a few small problems of the
    kind, each with a reachable goal (the conformance check, ``tests/support/domain_contract.py``, runs every search
    on them). ``solvers()``: the kind's own solvers by name (None: only the generic ones); ``jobs``: how the solve
    and compare jobs read its parameters (None: the problem's JSON under the kind's name,
    ``engine.search.jobs.JSON_JOBS``); ``view``: how the step-through's query names one of its problems (None: its
    JSON in ``data``; the interface is written in ``app/step_view.py``); ``drawing``: how a page draws its problems
    (an ``engine.search.view.Drawing`` subclass, made with the problem; None: the default ``Drawing``, a state that
    is JSON already, nothing drawn of its own); ``default``: the kind a request naming no
    ``problem`` is of (one kind says so: the sliding tiles, whose requests predate the other domains)."""

    name: str
    title: str
    build: Callable[[dict], Domain]
    heuristics: tuple[str, ...]
    examples: tuple[dict, ...] = ()
    #: the heuristics' names for people, in the page's menus (one without a label is shown by its name)
    heuristic_labels: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    solvers: Callable[[], Mapping[str, KindSolver]] | None = None
    jobs: KindJobs | None = None
    view: object | None = None
    drawing: type | None = None
    default: bool = False


#: by name, whichever package a process happened to import first (a test importing the grid before the registry loads)
DOMAINS: Registry[DomainKind] = Registry("domain", asked_as="problem", order=lambda kind: kind.name)
register_domain = DOMAINS.add


def domain_kinds() -> dict[str, DomainKind]:
    return DOMAINS.all()


def domain_kind(name: object) -> DomainKind:
    return DOMAINS.named(name)


def default_kind() -> DomainKind | None:
    """The kind that says it is the default (``DomainKind.default``): a request naming no ``problem`` is of it."""
    return next((kind for kind in domain_kinds().values() if kind.default), None)


def requested_kind(data: dict) -> DomainKind:
    """The kind a request or job names by ``problem``; without one, the default kind (``default_kind``)."""
    name = data.get("problem")
    if name is None:
        default = default_kind()
        if default is not None:
            return default
    kinds = domain_kinds()
    if not isinstance(name, str) or name not in kinds:
        shown = repr(name) if isinstance(name, str) and len(name) <= 40 else "that"
        raise PuzzleError(f"problem must be one of {', '.join(map(repr, kinds))} (not {shown})")
    return kinds[name]
