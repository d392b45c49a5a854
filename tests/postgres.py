"""A throwaway PostgreSQL server for tests and benchmarks: Debian's binaries, a temp folder, a free port.

The cluster lives in a fresh folder under the system temp dir, listens on 127.0.0.1 and on a unix
socket in that folder only, trusts local connections (nothing else can reach it) and is stopped
and removed at the end. initdb refuses to run as root, so as root (CI) the server runs as the
``postgres`` user that Debian's package creates. ``make test`` installs the package when missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import free_port

#: Where Debian puts each PostgreSQL version's server programs.
BIN_GLOB = "/usr/lib/postgresql/*/bin"
SERVER_USER = "postgres"
START_TIMEOUT_S = 60


class NoPostgres(RuntimeError):
    """PostgreSQL's server programs are not installed."""


def bindir() -> Path:
    """The newest installed PostgreSQL's bin folder."""
    found = sorted(glob.glob(BIN_GLOB), key=lambda p: int(Path(p).parent.name))
    if not found:
        raise NoPostgres(f"no PostgreSQL server in {BIN_GLOB}: install Debian's postgresql (make test does)")
    return Path(found[-1])


def _as_server_user() -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--"] if os.geteuid() == 0 else []


@contextmanager
def postgres_server(database: str = "glossary") -> Iterator[str]:
    """A running server with an empty ``database``; yields its SQLAlchemy URL (TCP on 127.0.0.1)."""
    bin_ = bindir()
    folder = Path(tempfile.mkdtemp(prefix="glossary-bot-pg-"))
    data, port = folder / "data", free_port()
    if os.geteuid() == 0:
        shutil.chown(folder, SERVER_USER)
    run = _as_server_user()
    try:
        subprocess.run(
            [*run, str(bin_ / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"],
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        start = [*run, str(bin_ / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log")]
        subprocess.run([*start, "-w", "-t", str(START_TIMEOUT_S), "start"], check=True, capture_output=True)
        try:
            subprocess.run(
                [str(bin_ / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", database],
                check=True,
                capture_output=True,
            )
            yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/{database}"
        finally:
            subprocess.run(
                [*run, str(bin_ / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], capture_output=True
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
