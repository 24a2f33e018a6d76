"""Where large artefacts (pattern databases, distance tables, learned tables) live: ``.npy`` files, built once.

The directory is ``$PUZZLE_DATA_DIR`` if set, else ``~/.cache/puzzle-playground``; the web app points it at its
instance folder, next to the job database (ARCHITECTURE.md, contracts).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

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


def path_of(name: str) -> Path:
    return data_dir() / name


def save(name: str, array: np.ndarray, meta: dict | None = None) -> None:
    """Write ``name`` atomically (a reader never sees half a file), and ``meta`` beside it as JSON."""
    path = path_of(name)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as out:  # writing to a file object keeps np.save from renaming the file
        np.save(out, array)
    if meta is not None:
        path.with_suffix(".json").write_text(json.dumps(meta))
    os.replace(tmp, path)


def load(name: str, mmap: bool = False) -> np.ndarray | None:
    """The stored array, memory-mapped read-only if ``mmap`` (pages shared between processes); None if missing or
    unreadable."""
    try:
        return np.load(path_of(name), mmap_mode="r" if mmap else None)
    except (FileNotFoundError, EOFError, ValueError, OSError):
        return None


def meta(name: str) -> dict:
    """What ``save`` recorded beside the array (build seconds, peak memory, when), or {}."""
    try:
        return json.loads(path_of(name).with_suffix(".json").read_text())
    except (OSError, ValueError):
        return {}


def load_or_build(name: str, build: Callable[[], np.ndarray]) -> np.ndarray:
    """Load ``name`` if it exists, else build, save atomically and return it. One builder at a time per name."""
    with _locks_guard:
        lock = _locks.setdefault(name, threading.Lock())
    with lock:
        array = load(name)  # a truncated file (a crash, a full disk) reads as missing and is built again
        if array is not None:
            return array
        array = build()
        save(name, array)
        return array


def exists(name: str) -> bool:
    return path_of(name).exists()
