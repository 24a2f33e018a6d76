"""Where large artefacts (pattern databases, distance tables, learned tables) live: ``.npy`` files, built once.

The directory is ``$PUZZLE_DATA_DIR`` if set, else ``~/.cache/puzzle-playground``; the web app points it at its
instance folder, next to the job database (ARCHITECTURE.md, contracts).

A table proves itself: ``save`` writes the CRC-32 of the whole file beside it (``<name>.crc32``), and ``load``
checks it (once per process and file version: 0.55 s for the 577 MB 7-8 database) before anything reads the
table. A file that fails (altered, truncated, unreadable) is refused, deleted so that the next build makes it again,
and the reason is kept (``refused``) for the message of whoever falls back. CRC-32 catches damage, not an attacker
who can write the data folder (who could change the code as well). A file without its checksum is unproven, and
refused alike: it is built again (a file from before checksums existed, once).

Small tables read again and again (the distance tables a hint reads) are kept in memory between uses
(``load_or_build_kept``): bounded in bytes, the least recently used dropped first, and used again only while their
file is the one loaded (``check``'s ``stat``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
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


_CHUNK = 1 << 24
#: Why each refused artefact was refused (until it is saved again).
_refused: dict[str, str] = {}
#: Files whose checksum this process has checked: path → (size, modification time).
_checked: dict[Path, tuple[int, int]] = {}


def checksum_path(path: Path) -> Path:
    return path.with_name(path.name + ".crc32")


def file_checksum(path: Path) -> int:
    crc, buffer = 0, bytearray(_CHUNK)
    with open(path, "rb") as data:
        while read := data.readinto(buffer):
            crc = zlib.crc32(memoryview(buffer)[:read], crc)
    return crc


def save(name: str, array: np.ndarray, meta: dict | None = None) -> None:
    """Write ``name`` atomically (a reader never sees half a file), its checksum beside it, and ``meta`` as JSON."""
    path = path_of(name)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:  # writing to a file object keeps np.save from renaming the file
            np.save(out, array)
        if meta is not None:
            path.with_suffix(".json").write_text(json.dumps(meta))
        size = os.path.getsize(tmp)
        _write_checksum(path, {"crc32": file_checksum(Path(tmp)), "bytes": size})
        os.replace(tmp, path)
        _refused.pop(name, None)
    except BaseException:  # a full disk, a cancel: no half-written file is left to fill it further
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_checksum(path: Path, record: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(record))
    os.replace(tmp, checksum_path(path))


def verify(name: str) -> str | None:
    """Why the stored file fails its checksum (or has none), or None when it passes."""
    path = path_of(name)
    stat = path.stat()
    version = (stat.st_size, stat.st_mtime_ns)
    if _checked.get(path) == version:
        return None
    try:
        record = json.loads(checksum_path(path).read_text())
    except FileNotFoundError:
        record = None
    except (OSError, ValueError):
        return "its checksum file cannot be read"
    if record is None:  # nothing proves it is what was built: a checksum made now would bless whatever it holds
        return "it has no checksum, so nothing shows it is the table that was built"
    if record.get("bytes") != stat.st_size:
        return f"it holds {stat.st_size:,} bytes where {record.get('bytes'):,} were written (truncated or damaged)"
    elif record.get("crc32") != file_checksum(path):
        return "its checksum does not match what was written (the file was altered or damaged)"
    _checked[path] = version
    return None


def refused(name: str) -> str | None:
    """Why ``name`` was refused when last loaded in this process (it has been deleted since), or None."""
    return _refused.get(name)


def _refuse(name: str, why: str) -> None:
    path = path_of(name)
    log.error("refusing %s: %s; it is deleted so that it is built again", path, why)
    _refused[name] = why
    _checked.pop(path, None)
    for part in (path, checksum_path(path)):
        part.unlink(missing_ok=True)


def check(name: str) -> bool:
    """Whether the stored file is there and passes its checksum; one that fails is refused. Costs a ``stat`` when
    the file has not changed since it was last checked, so a table kept loaded can be checked before each use."""
    try:
        problem = verify(name)
    except FileNotFoundError:
        return False
    except OSError as error:
        problem = f"it cannot be read ({error})"
    if problem is not None:
        _refuse(name, problem)
    return problem is None


def load(name: str, mmap: bool = False) -> np.ndarray | None:
    """The stored array, memory-mapped read-only if ``mmap`` (pages shared between processes), once its checksum
    has passed; None if it is missing, or refused (deleted, the reason kept: ``refused``)."""
    if not check(name):
        return None
    try:
        return np.load(path_of(name), mmap_mode="r" if mmap else None)
    except FileNotFoundError:
        return None
    except (EOFError, ValueError, OSError) as error:
        _refuse(name, f"it cannot be read ({error})")
        return None


def meta(name: str) -> dict:
    """What ``save`` recorded beside the array (build seconds, peak memory, when), or {}."""
    try:
        return json.loads(path_of(name).with_suffix(".json").read_text())
    except (OSError, ValueError):
        return {}


def load_or_build(name: str, build: Callable[[], np.ndarray]) -> np.ndarray:
    """Load ``name`` if it exists, else build, save atomically and return it. One builder at a time per name. The
    file only spares the next build: on a disk that cannot take it (full, read-only) the built array is returned all
    the same, and the next caller builds it again."""
    with _locks_guard:
        lock = _locks.setdefault(name, threading.Lock())
    with lock:
        array = load(name)  # a truncated file (a crash, a full disk) reads as missing and is built again
        if array is not None:
            return array
        array = build()
        try:
            save(name, array)
        except OSError as error:
            log.warning("%s was built but cannot be saved (%s): used without saving", path_of(name), error)
        return array


def exists(name: str) -> bool:
    return path_of(name).exists()


#: At most this many bytes of arrays kept by ``load_or_build_kept`` (a 2×5 board's distance table is 1.8 MB).
KEPT_BYTES = 64 << 20
#: path → (the file's version when loaded: size, modification time; the array), least recently used first
_kept: OrderedDict[Path, tuple[tuple[int, int], np.ndarray]] = OrderedDict()
_kept_guard = threading.Lock()


def load_or_build_kept(name: str, build: Callable[[], np.ndarray]) -> np.ndarray:
    """``load_or_build``, with the array kept in memory and handed out again (read-only) while its file passes
    ``check`` unchanged, which costs a ``stat``; a file rebuilt, replaced, deleted or refused since is read again
    (or built). At most ``KEPT_BYTES`` are kept, the least recently used dropped first."""
    path = path_of(name)
    with _kept_guard:
        held = _kept.get(path)
    if held is not None and check(name) and _checked.get(path) == held[0]:
        with _kept_guard:
            if path in _kept:
                _kept.move_to_end(path)
        return held[1]
    array = load_or_build(name, build)
    array.flags.writeable = False
    version = _checked.get(path) if check(name) else None  # None: never handed out again without loading
    with _kept_guard:
        _kept.pop(path, None)
        if version is not None and array.nbytes <= KEPT_BYTES:
            _kept[path] = (version, array)
            while sum(a.nbytes for _, a in _kept.values()) > KEPT_BYTES:
                _kept.popitem(last=False)
    return array
