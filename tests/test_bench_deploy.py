"""How a recorded deployment run names its command: what the README quotes beside its figures."""

from __future__ import annotations

import os

from benchmarks.deploy import command_line
from bot.settings import ENV_PREFIX


def test_a_recorded_command_names_the_settings_set_in_its_environment(monkeypatch):
    """A run with a setting in its environment is reproduced only with it (its children read it)."""
    for name in [k for k in os.environ if k.startswith(ENV_PREFIX)]:
        monkeypatch.delenv(name)
    assert (
        command_line("benchmarks.deploy", ["--sections", "big"])
        == "python -m benchmarks.deploy --sections big"
    )
    monkeypatch.setenv("GLOSSARY_BOT_FIRST_PASS_MIN_TEXTS", "2000")
    monkeypatch.setenv("UNRELATED", "x")
    assert command_line("benchmarks.deploy", ["--sections", "big"]) == (
        "GLOSSARY_BOT_FIRST_PASS_MIN_TEXTS=2000 python -m benchmarks.deploy --sections big"
    )
