"""YAML alias bombs (issue 13, point 1): what aliases expand to is measured on the composed node
graph, before anything is built, validated or cached; past the file size limit the file is refused.

The hostile files are built here: nine aliases nested eight deep (43 million strings from 500 bytes),
an alias that contains itself, and, with Hypothesis, every width / depth / scalar of that shape.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from glossary import GlossaryError, load_glossary
from glossary.yamlio import MB, YamlTooLarge, load_yaml, load_yaml_cached
from tests.factories import user_entry
from tests.test_glossary_loader import document, write_yaml

REPO = Path(__file__).resolve().parents[1]


def nested_aliases(width: int, depth: int, scalar: str = "lol") -> str:
    """``a0: &a0 "lol"``, ``a1: &a1 [*a0 x width]``, … ``depth`` levels, then an empty glossary."""
    lines = [f"a0: &a0 {json.dumps(scalar)}"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, depth + 1)]
    return "\n".join([*lines, "document: bomb.yaml", "title_hi: bomb", "entries: []", ""])


def test_the_billion_laughs_file_is_refused_before_it_is_expanded(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(nested_aliases(9, 8), encoding="utf-8")
    assert bomb.stat().st_size < 600
    parsed = tmp_path / "parsed"
    with pytest.raises(GlossaryError) as caught:
        load_glossary([bomb], parse_cache=parsed)
    assert str(caught.value).startswith(f"{bomb}: YAML aliases expand this file to more than 20 MB")
    assert "setting max_glossary_mb" in str(caught.value)
    assert not list(parsed.rglob("*.json")), "nothing of the bomb may reach the parse cache"


def test_the_limit_is_the_glossary_size_setting(tmp_path):
    """A file whose aliases expand to ~1 MB loads under the default limit and is refused under 0.5 MB."""
    path = write_yaml(tmp_path / "g.yaml", document(user_entry("alpha", paraphrases="ALIASED")))
    many = f"[&kb {'n' * 1000}, " + ", ".join(["*kb"] * 999) + "]"
    path.write_text(path.read_text(encoding="utf-8").replace("ALIASED", many), encoding="utf-8")
    assert path.stat().st_size < 10_000
    assert len(load_glossary([path], max_file_mb=20).entries[0].paraphrases) == 1000
    with pytest.raises(GlossaryError, match=r"expand this file to more than 0\.5 MB"):
        load_glossary([path], max_file_mb=0.5)


def test_an_alias_inside_itself_is_refused():
    with pytest.raises(YamlTooLarge, match="refers to a node that contains it"):
        load_yaml("a: &x [1, [2, *x]]")


def test_shared_aliases_within_the_limit_still_load():
    assert load_yaml("a: &x {k: [1, 2]}\nb: *x\nc: [*x, *x]") == {
        "a": {"k": [1, 2]},
        "b": {"k": [1, 2]},
        "c": [{"k": [1, 2]}, {"k": [1, 2]}],
    }


def _compact_json_size(width: int, depth: int, scalar: str) -> int:
    """Bytes of ``[level0, level1, …]`` as compact JSON, where level i is ``width`` copies of level i-1."""
    level = len(json.dumps(scalar, ensure_ascii=False).encode())
    total = level
    for _ in range(depth):
        level = 2 + width * level + (width - 1)
        total += level
    return 2 + total + depth


@settings(max_examples=60, deadline=None)
@example(width=4, depth=6, scalar='00"¡', limit_kb=48)  # a quote is two bytes written out: 52,786 accepted
@given(
    width=st.integers(1, 12),
    depth=st.integers(0, 12),
    scalar=st.text(st.characters(categories=("L", "M", "N", "P")), max_size=20),
    limit_kb=st.integers(1, 64),
)
def test_accepted_yaml_never_expands_past_the_limit(width, depth, scalar, limit_kb):
    """Whatever the shape, accepted data stays within the limit, and data well inside it is accepted."""
    anchors = [f"&a0 {json.dumps(scalar, ensure_ascii=False)}"]
    anchors += [f"&a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, depth + 1)]
    text = "[" + ", ".join(anchors) + "]"
    limit = limit_kb * 1024
    true_size = _compact_json_size(width, depth, scalar)
    try:
        data = load_yaml(text, max_mb=limit / MB)
    except YamlTooLarge:
        assert true_size > limit // 4, f"refused {true_size} bytes under a {limit}-byte limit"
        return
    assert len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()) == true_size
    assert true_size <= limit


def test_the_parse_cache_refuses_the_bomb_too(tmp_path):
    with pytest.raises(YamlTooLarge):
        load_yaml_cached(nested_aliases(9, 8), tmp_path)
    assert not list(tmp_path.rglob("*.json"))


def test_cli_refuses_the_bomb_with_exit_3_and_one_line(tmp_path):
    """The reported reproduction: ``glossary-bot --glossary bomb.yaml ask x`` (was 28-36 s and 4.5 GB)."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(nested_aliases(9, 8), encoding="utf-8")
    cache = tmp_path / "cache"
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "--cache-dir", str(cache), "--glossary", str(bomb), "ask", "x"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert "YAML aliases expand this file" in result.stderr
    assert not list(cache.rglob("parsed.json"))
