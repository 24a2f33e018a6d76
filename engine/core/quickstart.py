"""A short-lived process's start, made cheaper: what a command line run pays before its first kernel.

numba, on its first compiled call in a process (a cache hit included), checks that SciPy's BLAS is there with
``import scipy.linalg.cython_blas``; importing that submodule imports the whole ``scipy.linalg`` package first
(``scipy._lib``, ``numpy.f2py``, ``numpy.testing``...): about 0.25 s of CPU here, a quarter of a cold
``python -m engine solve``, for functions no kernel of this project calls. ``load_blas_alone`` loads the one
extension module under its own name, without its package: numba's check, and its BLAS calls (``np.dot`` in a
kernel), find it in ``sys.modules``; a later ``import scipy.linalg`` imports the package as usual and
``import scipy.linalg.cython_blas`` finds the same module.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

BLAS = "scipy.linalg.cython_blas"


def load_blas_alone() -> None:
    """Load ``scipy.linalg.cython_blas`` without ``scipy.linalg`` before numba's first call; nothing when numba or
    SciPy's linear algebra is loaded already, or SciPy is not found (numba then checks as it always does)."""
    if BLAS in sys.modules or "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    scipy = importlib.util.find_spec("scipy")  # finds the package without running it
    if scipy is None or not scipy.submodule_search_locations:
        return
    for folder in scipy.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / "linalg" / f"cython_blas{suffix}"
            if path.is_file():
                spec = importlib.util.spec_from_file_location(BLAS, path)
                if spec is None or spec.loader is None:
                    return
                module = importlib.util.module_from_spec(spec)
                sys.modules[BLAS] = module
                try:
                    spec.loader.exec_module(module)
                except ImportError:
                    del sys.modules[BLAS]
                return
