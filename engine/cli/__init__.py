"""Command line: ``python -m engine solve|scramble|random|check|research|learned|tables|jobs|grid|solve-problem ...``.
Errors go to stderr, exit status 2.

Building the parser loads the registry (solver names, heuristics) but no kernel; a command imports the computations
it runs when it runs, so ``check``, ``scramble``, ``random``, ``jobs``, ``tables list`` and ``--help`` never import
numba (tests/engine/test_architecture.py holds that).

Each subject's commands live in a module of this package (``tiles``, ``research``, ``learned``, ``tables``,
``grid``, ``problem``, ``jobs``) with an ``add_commands(sub)`` that adds its sub-parsers: every module here that has
one is a module of commands, in the order of their names (``command_modules``); a new one is found by being here.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from types import ModuleType

from engine.core.errors import PuzzleError
from engine.core.quickstart import load_blas_alone


def command_modules() -> list[ModuleType]:
    """Every module of this package that adds commands (has ``add_commands``), by name."""
    modules = [importlib.import_module(f"{__name__}.{info.name}") for info in
               sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)]
    return [module for module in modules if hasattr(module, "add_commands")]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Puzzle Playground engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in command_modules():
        module.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    load_blas_alone()  # a command that runs a kernel does not pay for all of scipy.linalg (engine.core.quickstart)
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except PuzzleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
