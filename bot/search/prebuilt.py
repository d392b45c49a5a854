"""The index and calibration shipped for the bundled glossary, so that a fresh machine answers at once.

A free Hugging Face Space starts on an empty disk after every restart or wake-up; building the
bundled glossary's index and calibration there takes most of a minute on 2 cores. So the repository
ships them (``bot/data/prebuilt/``, ~3.3 MB) and a start serves them, but only when they are exactly
what a build would make here: ``provenance.json`` names the glossary's content hash, the encoder id
(which carries the checksum of the model weights), the index recipe and the calibration version; the
index manifest must describe exactly the current passages, and the FAISS file must match its
checksum. Anything else (a user glossary, an edited bundled one, another backend or model, other
``ann_threshold``) builds as before. ``glossary-bot prebuild`` (``make prebuilt``) writes them
again; tests/test_prebuilt.py rebuilds them from scratch with the real model and compares.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import BaseModel, ValidationError

from bot.search.calibration import VERSION, Calibration
from bot.search.sentences import SENTENCE_RECIPE
from bot.settings import Settings
from glossary.files import atomic_write
from index.encoders.base import Encoder
from index.passages import RECIPE
from index.store import Passage, VectorIndex, Wanted

log = logging.getLogger(__name__)

FOLDER = Path(__file__).parents[1] / "data" / "prebuilt"
PROVENANCE_FILE = "provenance.json"
CALIBRATION_FILE = "calibration.json"
#: The sentence index (``bot.search.sentences``) ships in a folder of its own inside FOLDER.
SENTENCES_DIR = "sentences"


class Provenance(BaseModel):
    """What the shipped index and calibration were built from."""

    glossary_hash: str
    encoder_id: str
    recipe: str
    calibration_version: int
    #: The FAISS file's checksum: the calibration was fitted on exactly these vectors.
    vectors_sha256: str
    #: The sentence index's FAISS checksum (None: none shipped, it is built at the first start).
    sentences_sha256: str | None = None

    def describes(self, glossary_hash: str, encoder_id: str) -> bool:
        return (
            self.glossary_hash == glossary_hash
            and self.encoder_id == encoder_id
            and self.recipe == RECIPE
            and self.calibration_version == VERSION
        )


def _provenance(folder: Path, glossary_hash: str, encoder: Encoder) -> Provenance | None:
    """The shipped provenance when it describes this glossary and encoder."""
    try:
        provenance = Provenance.model_validate_json((folder / PROVENANCE_FILE).read_bytes())
    except (OSError, ValidationError):
        return None
    return provenance if provenance.describes(glossary_hash, encoder.id) else None


def load(
    glossary_hash: str,
    encoder: Encoder,
    passages: list[Passage],
    settings: Settings,
    folder: Path | None = None,
) -> tuple[VectorIndex, Calibration] | None:
    """The shipped index and calibration (in ``folder``, default ``FOLDER``) if they are this
    glossary's with this encoder; else None."""
    folder = folder or FOLDER
    provenance = _provenance(folder, glossary_hash, encoder)
    if provenance is None:
        return None  # another glossary or encoder: nothing to say, it is built as usual
    wanted = Wanted.of(passages, glossary_hash, encoder, RECIPE, settings.ann_threshold, settings.ann_nprobe)
    vectors = wanted.load(folder)
    if vectors is None or vectors.manifest.faiss_sha256 != provenance.vectors_sha256:
        log.warning("the prebuilt index in %s does not verify; building the index instead", folder)
        return None
    try:
        calibration = Calibration.model_validate_json((folder / CALIBRATION_FILE).read_bytes())
    except (OSError, ValidationError) as exc:
        log.warning("the prebuilt calibration in %s is unreadable (%s); building instead", folder, exc)
        return None
    log.info("serving the prebuilt index of the bundled glossary (%s)", folder)
    return vectors, calibration


def load_sentences(
    glossary_hash: str,
    encoder: Encoder,
    passages: list[Passage],
    settings: Settings,
    folder: Path | None = None,
) -> VectorIndex | None:
    """The shipped sentence index (``bot.search.sentences``) if it is this glossary's with this
    encoder and verifies; else None."""
    folder = folder or FOLDER
    provenance = _provenance(folder, glossary_hash, encoder)
    if provenance is None or provenance.sentences_sha256 is None:
        return None
    wanted = Wanted.of(
        passages, glossary_hash, encoder, SENTENCE_RECIPE, settings.ann_threshold, settings.ann_nprobe
    )
    vectors = wanted.load(folder / SENTENCES_DIR)
    if vectors is None or vectors.manifest.faiss_sha256 != provenance.sentences_sha256:
        log.warning("the prebuilt sentence index in %s does not verify; building it instead", folder)
        return None
    return vectors


def write(
    vectors: VectorIndex,
    calibration: Calibration,
    folder: Path | None = None,
    sentences: VectorIndex | None = None,
) -> Provenance:
    """Ship ``vectors`` and the ``calibration`` fitted on them (from a fresh build) in ``folder``
    (default ``FOLDER``), and the ``sentences`` index when given."""
    folder = folder or FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    vectors.save(folder)
    if sentences is not None:
        (folder / SENTENCES_DIR).mkdir(exist_ok=True)
        sentences.save(folder / SENTENCES_DIR)
    manifest = vectors.manifest
    atomic_write(folder / CALIBRATION_FILE, calibration.model_dump_json(indent=1).encode(), mode=0o644)
    provenance = Provenance(
        glossary_hash=manifest.glossary_hash,
        encoder_id=manifest.encoder_id,
        recipe=manifest.recipe,
        calibration_version=calibration.version,
        vectors_sha256=manifest.faiss_sha256,
        sentences_sha256=None if sentences is None else sentences.manifest.faiss_sha256,
    )
    atomic_write(folder / PROVENANCE_FILE, provenance.model_dump_json(indent=1).encode(), mode=0o644)
    return provenance
