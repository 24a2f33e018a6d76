"""The one place that loads every subject's solvers, heuristics, domains and job kinds, and warms their kernels.

Each domain (``engine/domains/<name>/``) and subject (``engine/subjects/<name>/``) registers its own entries when its
modules are imported: solvers with ``engine.search.solve.register_solver``, heuristics with
``engine.domains.tiles.heuristics.register_heuristic``, domains with ``engine.search.domain.register_domain``, job
kinds with ``@engine.serving.jobs.job_kind``, and the function that compiles (or loads) its kernels with
``@warms_up``. ``load_all()`` imports every package in those two folders (a package may register in its
``__init__``), its modules named as ``CONVENTIONAL`` says (``solvers``, ``jobs``), and any other module that
registers, which the package names in ``REGISTERS`` in its ``__init__.py``; it imports the conventional modules of
``engine.search`` too (``engine.search.jobs``: the jobs solving any domain's problem). So the web app, the CLI, a Dask
worker and a notebook see the same entries, and a new domain, subject or jobs module is loaded by being there: there
is no list to edit. The lookups (``solvers()``, ``heuristics()``,
``job_kinds()``, ``domain_kinds()``) call it themselves.

This module imports no subject at its top, so any module may import it. The modules loaded here import no numba at
their top either (their kernels load when work runs): loading the registry is quick, and a CLI command that needs no
kernel (``check``, ``jobs``, ``--help``) never compiles one.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from engine.core.errors import PuzzleError

#: the folders whose packages register entries: the domains first, so that the tile solvers lead every list
PACKAGE_FOLDERS = ("engine.domains", "engine.subjects")
#: the layer below them, whose modules register entries of every domain's (the jobs solving any domain's problem)
SEARCH_LAYER = "engine.search"
#: the modules that register by their name, in every package above and in the search layer
CONVENTIONAL = ("solvers", "jobs")


def _conventional(package) -> list[str]:
    present = {info.name for info in pkgutil.iter_modules(package.__path__)}
    return [f"{package.__name__}.{name}" for name in CONVENTIONAL if name in present]


def registering_modules() -> list[str]:
    """Every module ``load_all`` imports: the search layer's conventional modules, then each package of
    ``PACKAGE_FOLDERS``, the modules its ``REGISTERS`` names (first: they may have to register before its jobs) and
    its conventional modules."""
    found = _conventional(importlib.import_module(SEARCH_LAYER))
    for folder in PACKAGE_FOLDERS:
        parent = importlib.import_module(folder)
        for info in sorted(pkgutil.iter_modules(parent.__path__), key=lambda info: info.name):
            if info.ispkg:
                package = importlib.import_module(f"{folder}.{info.name}")
                found.append(package.__name__)
                found += [f"{package.__name__}.{name}" for name in getattr(package, "REGISTERS", ())]
                found += _conventional(package)
    return list(dict.fromkeys(found))  # a package may still name a conventional module in its REGISTERS


_loaded = False
_load_lock = threading.RLock()


def load_all() -> None:
    """Import every subject module once (cheap after the first call)."""
    global _loaded
    if _loaded:
        return
    with _load_lock:  # re-entrant: a subject's import may look something up
        if not _loaded:
            for name in registering_modules():
                importlib.import_module(name)
            _loaded = True


Entry = TypeVar("Entry")


class Registry(Mapping[str, Entry], Generic[Entry]):
    """The entries of one kind, by name: solvers, heuristics, job kinds, domains, step-through algorithms.

    A name is taken once: another entry under it is refused, since it would silently replace the first. Reading it
    first loads every subject (``loads``), so whoever asks sees every subject's entries; the step-through's
    algorithms are all in one package and need no loading.
    """

    def __init__(self, what: str, *, loads: bool = True, asked_as: str | None = None,
                 order: Callable[[Entry], int | str] | None = None) -> None:
        self.what = what
        self.asked_as = asked_as or what  # the word a user's request uses for it ("problem" for a domain)
        self._loads = loads
        self._order = order  # the entries' sort key (None: the order they were registered in)
        self._entries: dict[str, Entry] = {}

    def add(self, entry: Entry) -> Entry:
        """Register ``entry`` under its ``name``; returns it, so that this works as a decorator too."""
        name = entry.name  # type: ignore[attr-defined]
        if name in self._entries:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self._entries[name] = entry
        order = self._order
        if order is not None:  # sorted is stable: entries of one key keep their registration order
            self._entries = dict(sorted(self._entries.items(), key=lambda item: order(item[1])))
        return entry

    def forget(self, name: str) -> None:
        """Remove an entry (a test's own, once it is done)."""
        self._entries.pop(name, None)

    def _read(self) -> dict[str, Entry]:
        if self._loads:
            load_all()
        return self._entries

    def __getitem__(self, name: str) -> Entry:
        return self._read()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._read()

    def __iter__(self) -> Iterator[str]:
        return iter(dict(self._read()))

    def __len__(self) -> int:
        return len(self._read())

    def named(self, name: object) -> Entry:
        """The entry a request names, or a PuzzleError that lists the choices."""
        entries = self._read()
        if not isinstance(name, str) or name not in entries:
            shown = repr(name) if isinstance(name, str) and len(name) <= 40 else "that"
            raise PuzzleError(f"unknown {self.asked_as} {shown}: choose one of {', '.join(entries)}")
        return entries[name]

    def all(self) -> dict[str, Entry]:
        """A copy of every entry, in registration order."""
        return dict(self._read())


_warm_ups: list[Callable[[], None]] = []
_warm_lock = threading.Lock()
_warm = False


def warms_up(function: Callable[[], None]) -> Callable[[], None]:
    """Decorator: ``function`` compiles or loads a subject's kernels (tiny inputs, no table built)."""
    _warm_ups.append(function)
    return function


def warm_up() -> float:
    """Load (or, on a fresh install, compile) every subject's kernels once, so no timed search pays for loading code;
    returns the seconds this call spent doing so (0.0 once warm), which callers show apart from their timings.

    Idempotent and thread-safe: a second caller waits for the first to finish, later callers return at once.
    """
    global _warm
    if _warm:
        return 0.0
    with _warm_lock:
        if _warm:
            return 0.0
        started = time.perf_counter()
        load_all()
        for function in _warm_ups:
            function()
        _warm = True
        return time.perf_counter() - started
