"""Output files written all at once: an interrupted run never leaves one half written."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> int:
    """Write `data` (text as UTF-8) to `path` at once: into a temporary file beside it, then
    renamed over it, so that a signal, a full disk or SIGKILL leaves `path` as it was. A path
    that exists and is not a regular file (/dev/null, a FIFO) is written in place. An existing
    file's mode is kept; a new one gets the umask's. The bytes written; OSError when it cannot."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(target, "wb") as out:
            out.write(raw)
        return len(raw)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(raw)


def _umask() -> int:
    """The process's file creation mask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
