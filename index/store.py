"""The FAISS vector index and its on-disk form.

An index is only as good as the promise that its vectors belong to the
current glossary and encoder, so every saved index carries a manifest with
both hashes, the row layout and the checksum of the FAISS file. A manifest
that does not match, or a FAISS file whose checksum differs, means rebuild.
Each saved index is a folder of its own in the cache, published whole by
glossary.files.load_or_publish (built under a temp name, renamed into place,
one builder at a time), so a half-written pair can never be served.

Up to ``ann_threshold`` rows the FAISS index is exact; from there on it is
approximate (IVF, see index/ann.py). The manifest records which, and a saved
index of the other kind (the threshold changed) is rebuilt.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import faiss
import numpy as np
from pydantic import BaseModel, ValidationError

from glossary import pruning
from glossary.files import Artifact, atomic_path, atomic_write, load_or_publish
from index import ann
from index.earlier import DIGEST_BYTES, DIGESTS_FILE, CountsTaken, Earlier, index_vectors, text_digests
from index.encoders.base import Encoder, encode_into
from index.errors import IndexStoreError
from index.rows import PROMPTS, Passage, Row, rows_of

log = logging.getLogger(__name__)

#: 2: manifests record ``index_kind`` (exact "flat" or approximate "ivf").
#: 3: a folder per index (FAISS_FILE + MANIFEST_FILE), published by glossary.files.
FORMAT_VERSION = 3
FAISS_FILE = "index.faiss"
MANIFEST_FILE = "index.json"
#: An IVF index's trained cells (``ann.Cells``), beside it: what a rebuild after an edit reuses.
CELLS_FILE = "cells.npy"
#: Where saved indexes live in the cache folder (calibrations are published beside them).
INDEX_DIR = "indexes"
KEY_HEX_DIGITS = 20
#: The folder name of a saved index (``index_key``).
INDEX_NAME = f"index-[0-9a-f]{{{KEY_HEX_DIGITS}}}"
_INDEXES = pruning.register("indexes", INDEX_DIR, INDEX_NAME)
#: Saved indexes looked at for trained IVF cells to reuse, most recently used first.
RECENT_SCANNED = 3


class Manifest(BaseModel):
    format_version: int
    glossary_hash: str
    encoder_id: str
    recipe: str
    dim: int
    index_kind: ann.Kind = "flat"
    entry_ids: list[str]
    rows: list[Row]
    faiss_sha256: str
    #: Of ``CELLS_FILE``, for an IVF index (none before that file was written).
    cells_sha256: str | None = None
    #: Of ``DIGESTS_FILE`` (none for an index saved before it was written, or loaded, not built).
    digests_sha256: str | None = None
    created_at: datetime

    def matches(self, glossary_hash: str, encoder_id: str, recipe: str) -> bool:
        return (
            self.format_version == FORMAT_VERSION
            and self.glossary_hash == glossary_hash
            and self.encoder_id == encoder_id
            and self.recipe == recipe
        )


class VectorIndex:
    """Inner-product search over L2-normalised passage vectors (cosine)."""

    def __init__(
        self,
        index: faiss.Index,
        manifest: Manifest,
        nprobe: int = ann.DEFAULT_NPROBE,
        digests: np.ndarray | None = None,
    ) -> None:
        """``digests``: the rows' ``text_digests``, which a built index saves for the next rebuild."""
        if index.ntotal != len(manifest.rows) or index.d != manifest.dim:
            raise IndexStoreError(
                f"index holds {index.ntotal}x{index.d} vectors but its manifest describes "
                f"{len(manifest.rows)}x{manifest.dim}"
            )
        if ann.kind_of(index) != manifest.index_kind:
            raise IndexStoreError(
                f"index is {ann.kind_of(index)} but its manifest says {manifest.index_kind}"
            )
        ann.configure(index, nprobe)
        self.faiss_index = index
        self.manifest = manifest
        self.digests = digests

    @classmethod
    def build(
        cls,
        passages: Sequence[Passage],
        encoder: Encoder,
        glossary_hash: str,
        recipe: str,
        ann_threshold: int = ann.DEFAULT_THRESHOLD,
        nprobe: int = ann.DEFAULT_NPROBE,
        earlier: Earlier | None = None,
        rows: list[Row] | None = None,
    ) -> VectorIndex:
        """Encode every passage (one call per prompt: a build encoder batches, stores and reports)
        but those whose vectors ``earlier`` (the last index's) holds, and may reuse its IVF cells
        (``ann.make_index``); ``rows``: the passages' ``rows_of``, when the caller has them already."""
        digests = text_digests(passages)
        earlier = earlier or Earlier.cells_only(None, encoder.dim)
        vectors, known = earlier.take(digests, encoder.dim)
        earlier.forget()
        if isinstance(encoder, CountsTaken):
            encoder.taken(int(np.count_nonzero(known)))
        for prompt in PROMPTS:
            # In the passages' order: the build encoder sorts what it must encode by length itself.
            slots = [i for i, p in enumerate(passages) if p.prompt == prompt and not known[i]]
            if slots:
                encode_into(encoder, prompt, [passages[i].text for i in slots], vectors, np.array(slots))
        index = ann.make_index(vectors, ann_threshold, nprobe, earlier.cells, consume=True)
        manifest = Manifest(
            format_version=FORMAT_VERSION,
            glossary_hash=glossary_hash,
            encoder_id=encoder.id,
            recipe=recipe,
            dim=encoder.dim,
            index_kind=ann.kind_of(index),
            entry_ids=list(dict.fromkeys(p.entry_id for p in passages)),
            rows=rows_of(passages) if rows is None else rows,
            faiss_sha256="",
            created_at=datetime.now(UTC),
        )
        return cls(index, manifest, nprobe, digests)

    def scores(self, query_vectors: np.ndarray) -> np.ndarray:
        """Cosine of each query against every row: (n_queries, n_rows).

        Exact for a flat index; an approximate one scores its best ``ann.CANDIDATES`` rows, others -1.
        """
        return ann.all_scores(self.faiss_index, query_vectors)

    def search(self, query_vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Best ``k`` rows per query: (cosines, row numbers), best first; row -1 pads a short answer."""
        return ann.top_k(self.faiss_index, query_vectors, k)

    def save(self, folder: Path) -> None:
        """Write the FAISS file, an IVF index's cells, a built one's digests, and the manifest that
        vouches for them all."""
        update: dict[str, str | None] = {"faiss_sha256": _write_faiss(self.faiss_index, folder / FAISS_FILE)}
        if self.manifest.index_kind == "ivf":
            update["cells_sha256"] = _write_npy(folder / CELLS_FILE, ann.Cells.of(self.faiss_index).centroids)
        if self.digests is not None:
            update["digests_sha256"] = _write_npy(folder / DIGESTS_FILE, self.digests)
        manifest = self.manifest.model_copy(update=update)
        atomic_write(folder / MANIFEST_FILE, manifest.model_dump_json(indent=1).encode())
        self.manifest = manifest

    @classmethod
    def load(cls, folder: Path, nprobe: int = ann.DEFAULT_NPROBE) -> VectorIndex:
        """Load a saved index; raise IndexStoreError if anything about it is off."""
        try:
            manifest = Manifest.model_validate_json((folder / MANIFEST_FILE).read_bytes())
        except (OSError, ValidationError) as exc:
            raise IndexStoreError(f"cannot read saved index {folder}: {exc}") from exc
        return cls(read_faiss(folder, manifest.faiss_sha256), manifest, nprobe)


def _write_npy(path: Path, array: np.ndarray) -> str:
    """Write ``array`` to ``path`` atomically; the file's sha256."""
    out = io.BytesIO()
    np.save(out, array, allow_pickle=False)
    atomic_write(path, out.getvalue())
    return hashlib.sha256(out.getvalue()).hexdigest()


def _write_faiss(index: faiss.Index, path: Path) -> str:
    """Write ``index`` to ``path`` (``atomic_path``) and return the file's sha256. FAISS writes the
    file itself: serialized to memory first, a 5,000-entry glossary's 96 MB were copied twice before
    they were written (0.3 s of each index's save)."""
    with atomic_path(path) as tmp:
        try:
            faiss.write_index(index, str(tmp))
        except RuntimeError as exc:  # FAISS says a full disk or a lost folder so
            raise OSError(f"cannot write {path}: {exc}") from exc
        with open(tmp, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()


def read_faiss(folder: Path, sha256: str) -> faiss.Index:
    """The FAISS file of a saved index, if it is the one its manifest vouches for (``sha256``)."""
    try:
        blob = (folder / FAISS_FILE).read_bytes()
    except OSError as exc:
        raise IndexStoreError(f"cannot read saved index {folder}: {exc}") from exc
    if hashlib.sha256(blob).hexdigest() != sha256:
        raise IndexStoreError(f"{folder / FAISS_FILE} does not match its manifest checksum")
    try:
        return faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
    except RuntimeError as exc:
        raise IndexStoreError(f"{folder / FAISS_FILE} is corrupt: {exc}") from exc


def index_key(glossary_hash: str, encoder_id: str, recipe: str) -> str:
    """File stem for one (glossary, encoder, recipe) combination, so several can coexist."""
    digest = hashlib.sha256(f"{glossary_hash}|{encoder_id}|{recipe}".encode()).hexdigest()
    return f"index-{digest[:KEY_HEX_DIGITS]}"


def load_or_build(
    folder: Path,
    passages: Sequence[Passage],
    encoder: Encoder,
    glossary_hash: str,
    recipe: str,
    rebuild: bool = False,
    ann_threshold: int = ann.DEFAULT_THRESHOLD,
    nprobe: int = ann.DEFAULT_NPROBE,
) -> VectorIndex:
    """Serve the saved index when its manifest matches; otherwise build and save it.

    Concurrent builders of one index build it once; a cache that cannot be written only costs a
    rebuild next start. ``ann_threshold`` and ``nprobe``: see index/ann.py.
    """
    want = Wanted.of(passages, glossary_hash, encoder, recipe, ann_threshold, nprobe)

    def build(work: Path, notes: dict[str, object]) -> VectorIndex:
        earlier = _earlier(folder, encoder.id, recipe, encoder.dim, artifact.path, want.kind == "ivf")
        built = VectorIndex.build(
            passages, encoder, glossary_hash, recipe, ann_threshold, nprobe, earlier, want.rows
        )
        built.save(work)
        return built

    artifact = _artifact(folder, glossary_hash, encoder.id, recipe)
    return load_or_publish(artifact, want.load, build, rebuild=rebuild, fallback=True)


def is_saved(folder: Path, glossary_hash: str, encoder_id: str, recipe: str) -> bool:
    """Whether a complete index of this combination is saved (its files as its manifest vouches):
    one that ``load_or_build`` would most likely load rather than build."""
    return _artifact(folder, glossary_hash, encoder_id, recipe).is_complete()


def _artifact(folder: Path, glossary_hash: str, encoder_id: str, recipe: str) -> Artifact:
    return Artifact(
        folder / index_key(glossary_hash, encoder_id, recipe),
        {"format_version": FORMAT_VERSION},
        (FAISS_FILE, MANIFEST_FILE),
    )


def _earlier(folder: Path, encoder_id: str, recipe: str, dim: int, replacing: Path, ivf: bool) -> Earlier:
    """What the most recently used saved indexes of this encoder and recipe lend a new build, each
    manifest read once (as plain JSON, not validated row by row): the cells of the newest IVF one
    whose cells file checks out, if the build is IVF (``ivf``), and the vectors of the newest one
    whose digests and FAISS file check out, never those of the index being replaced (it failed its
    checks, or a rebuild was asked for)."""
    cells: ann.Cells | None = None
    by_digest: tuple[np.ndarray, np.ndarray] | None = None
    for candidate in _INDEXES.newest_first(folder)[:RECENT_SCANNED]:
        if (cells is not None or not ivf) and by_digest is not None:
            break
        try:
            manifest = json.loads((candidate / MANIFEST_FILE).read_bytes())
            if (manifest.get("encoder_id"), manifest.get("recipe")) != (encoder_id, recipe):
                continue
        except (OSError, ValueError, AttributeError):
            continue
        if ivf and cells is None:
            cells = _read_cells(candidate, manifest)
        if by_digest is None and candidate != replacing:
            by_digest = _by_digest(candidate, manifest, dim)
    if by_digest is None:
        return Earlier.cells_only(cells, dim)
    return Earlier(cells, *by_digest)


def _by_digest(folder: Path, manifest: dict, dim: int) -> tuple[np.ndarray, np.ndarray] | None:
    """A saved index's row digests and vectors, if its digests file and FAISS file are the ones
    its manifest vouches for."""
    try:
        digests = _read_npy(folder / DIGESTS_FILE, manifest.get("digests_sha256"))
        rows = (len(manifest["rows"]), DIGEST_BYTES)
        if digests is None or digests.dtype != np.uint8 or digests.shape != rows:
            return None
        vectors = index_vectors(read_faiss(folder, manifest["faiss_sha256"]))
    except (OSError, ValueError, KeyError, TypeError, IndexStoreError):
        return None
    return (digests, vectors) if vectors.shape == (len(digests), dim) else None


def _read_cells(folder: Path, manifest: dict) -> ann.Cells | None:
    """A saved IVF index's cells, if its cells file is the one its manifest vouches for."""
    if manifest.get("index_kind") != "ivf":
        return None
    try:
        centroids = _read_npy(folder / CELLS_FILE, manifest.get("cells_sha256"))
        if centroids is None or centroids.ndim != 2 or centroids.dtype != np.float32:
            return None
        return ann.Cells(centroids, len(manifest["rows"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _read_npy(path: Path, sha256: object) -> np.ndarray | None:
    """The array in ``path`` if the file is the one ``sha256`` vouches for; None if there is none."""
    if not isinstance(sha256, str):
        return None
    blob = path.read_bytes()
    if hashlib.sha256(blob).hexdigest() != sha256:
        return None
    return np.load(io.BytesIO(blob), allow_pickle=False)


@dataclass(frozen=True)
class Wanted:
    """What a saved index must describe to be served (from the cache, or shipped: bot/search/prebuilt.py)."""

    glossary_hash: str
    encoder_id: str
    dim: int
    recipe: str
    kind: ann.Kind
    nprobe: int
    rows: list[Row]

    @classmethod
    def of(
        cls,
        passages: Sequence[Passage],
        glossary_hash: str,
        encoder: Encoder,
        recipe: str,
        ann_threshold: int,
        nprobe: int,
    ) -> Wanted:
        kind = ann.kind_for(len(passages), ann_threshold)
        return cls(glossary_hash, encoder.id, encoder.dim, recipe, kind, nprobe, rows_of(passages))

    def load(self, folder: Path) -> VectorIndex | None:
        """The saved index in ``folder`` if it is the one wanted; None (and why, logged) if not."""
        try:
            loaded = VectorIndex.load(folder, self.nprobe)
        except IndexStoreError as exc:
            log.warning("rebuilding index: %s", exc)
            return None
        problem = self._mismatch(loaded.manifest)
        if problem is not None:
            log.info("rebuilding index: %s", problem)
            return None
        return loaded

    def _mismatch(self, manifest: Manifest) -> str | None:
        """The first field of the saved manifest that differs from what is wanted, said for the log."""
        checks = (
            (
                manifest.matches(self.glossary_hash, self.encoder_id, self.recipe),
                "manifest does not match the current glossary or encoder",
            ),
            (manifest.rows == self.rows, "its rows do not describe the current passages"),
            (
                manifest.entry_ids == list(dict.fromkeys(row.entry_id for row in self.rows)),
                "its entry ids do not match its rows",
            ),
            # a query of another width would be read past its end by FAISS (a crash, not an error)
            (
                manifest.dim == self.dim,
                f"its vectors have {manifest.dim} dimensions, the encoder's {self.dim}",
            ),
            (
                manifest.index_kind == self.kind,
                f"it is {manifest.index_kind}, the ann_threshold setting asks for {self.kind}",
            ),
        )
        return next((why for ok, why in checks if not ok), None)
