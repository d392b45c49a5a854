"""Writing files so that a reader never sees half of one, and a crash never leaves one half-written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write to a temp file in the same folder, flush it to disk, then rename it over ``path``.

    ``mode``: permissions of the result (mkstemp creates 0600 files; source files must be readable).
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
