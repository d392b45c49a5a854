"""Where the cache goes by default: a Space's persistent storage (/data) when it can be written."""

from __future__ import annotations

from bot import settings as settings_module
from bot.settings import Settings


def test_the_cache_goes_to_persistent_storage_when_it_is_writable(tmp_path, monkeypatch):
    monkeypatch.delenv("GLOSSARY_BOT_CACHE_DIR", raising=False)
    monkeypatch.setattr(settings_module, "PERSISTENT_DIR", tmp_path)
    assert Settings().cache_dir == tmp_path / "glossary-bot"


def test_without_persistent_storage_the_cache_is_the_users(tmp_path, monkeypatch):
    monkeypatch.delenv("GLOSSARY_BOT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(settings_module, "PERSISTENT_DIR", tmp_path / "missing")
    assert Settings().cache_dir == tmp_path / "xdg" / "glossary-bot"
