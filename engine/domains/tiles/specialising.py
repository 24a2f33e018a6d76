"""How one numba template becomes a compiled kernel per heuristic: the hooks a template calls are its globals.

numba compiles a function's globals as constants, and inlines a called function decorated ``inline="always"`` into
the caller's IR. A template (``ida_iteration.iteration_template``, ``whole_search.whole_template``,
``astar._astar_run``) calls its heuristic through module globals that hold None (``child_h``, ``board_h``, ...);
``specialised`` copies the template's code with those globals bound to one heuristic's hooks, so each heuristic gets a
compiled copy of its own with its hooks inlined: the counters stay in registers and there is no branch per heuristic
(bench/engine_speed.py). A helper the template calls is compiled with its own module's globals, not the copy's: only
the template itself may call a hook.

Why globals and not closure variables: numba's cache key pickles a kernel's closure, and a dispatcher pickles
differently in every process (each process would compile the kernel again); globals are constants to numba and
outside the key. numba keeps one cache index per function name: named after its heuristic, each copy has its own, so
loading one never unpickles the others' signatures (which would import their modules, a test's too), and two
processes compiling different heuristics never overwrite each other's entries. numba keys the cache by the template's
source file only: after editing a hook kept elsewhere, touch the template's file.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType

from numba import njit

#: The decorator of a heuristic's hooks: numba inlines them into the kernel in its own IR, where the loads they share
#: with the loop are merged (compiled apart and called, a pattern-database node took 70 ns instead of 45 with a table
#: in the cache; ``register_jitable(inline="always")`` took 260).
hook = njit(inline="always", nogil=True)


def specialised(template: FunctionType, hooks: dict[str, Callable], name: str, **options) -> Callable:
    """``template`` compiled by numba with ``hooks`` in place of its module's globals of those names (numba inlines
    them), cached under ``name``; ``options`` go to ``njit``."""
    run = FunctionType(template.__code__, {**template.__globals__, **hooks}, "run")
    run.__qualname__ = name
    return njit(cache=True, nogil=True, **options)(run)


def hook_name(function: Callable) -> str:
    """What a specialised kernel is named after: its hook's dotted name (``ida_kernel[module.hook]``)."""
    return f"{function.__module__}.{function.__qualname__}"
