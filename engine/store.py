"""Where large artefacts (pattern databases, distance tables, learned tables) live: ``.npy`` files, built once.

The directory is ``$PUZZLE_DATA_DIR`` if set, else ``~/.cache/puzzle-playground``; the web app points it at its
instance folder, next to the job database (DESIGN.md).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from pathlib import Path
from typing import Callable

import numpy as np

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
_data_dir: Path | None = None


def set_data_dir(path: str | os.PathLike) -> None:
    global _data_dir
    _data_dir = Path(path)


def data_dir() -> Path:
    path = _data_dir or Path(os.environ.get("PUZZLE_DATA_DIR") or Path.home() / ".cache" / "puzzle-playground")
    path.mkdir(parents=True, exist_ok=True)
    return path


def artefact_name(kind: str, *parts: object) -> str:
    """A file name that identifies an artefact by its kind and the parameters that define it."""
    digest = hashlib.sha1(repr(parts).encode()).hexdigest()[:12]
    return f"{kind}-{digest}.npy"


def load_or_build(name: str, build: Callable[[], np.ndarray]) -> np.ndarray:
    """Load ``name`` if it exists, else build, save atomically and return it. One builder at a time per name."""
    with _locks_guard:
        lock = _locks.setdefault(name, threading.Lock())
    with lock:
        path = data_dir() / name
        if path.exists():
            try:
                return np.load(path, mmap_mode=None)
            except (EOFError, ValueError, OSError):
                pass  # a truncated file (a crash of an older version, a full disk): build it again
        array = build()
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:  # writing to a file object keeps np.save from renaming the file
            np.save(out, array)
        os.replace(tmp, path)
        return array


def exists(name: str) -> bool:
    return (data_dir() / name).exists()
