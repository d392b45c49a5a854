"""Settings as people type them in an environment variable: parsed here before pydantic checks them."""

from __future__ import annotations

import json
import os
from typing import Any

from glossary.columns import ColumnError, parse_overrides


def paths_as_typed(value: Any) -> Any:
    """A path as people type it: one, several (os.pathsep or commas), or a JSON list."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except ValueError as exc:
            raise ValueError(f"not a JSON list of paths ({exc}); or give paths separated by commas") from None
    parts = [p.strip() for chunk in text.split(os.pathsep) for p in chunk.split(",")]
    return [p for p in parts if p]


def columns_as_typed(value: Any) -> Any:
    """``term=Word,definition=Meaning`` or a JSON object."""
    if not isinstance(value, str):
        return value
    if value.strip().startswith("{"):
        try:
            return json.loads(value)
        except ValueError as exc:
            raise ValueError(f"not a JSON object ({exc}); or write term=Word,definition=Meaning") from None
    try:
        return parse_overrides(value)
    except ColumnError as exc:
        raise ValueError(str(exc)) from None
