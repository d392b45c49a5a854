"""Where a glossary's calibration is kept between starts: published beside its index, keyed by the
index's vectors, and kept across an edit that changes few entries (``bot.search.fit_basis``).

Fitting (``bot.search.calibration``) asks a few hundred pseudo-questions, most of a first build's
time after encoding; a start over an unchanged index reads this file instead.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import ValidationError

from bot.search.calibration import VERSION, Calibration, fit
from bot.search.fit_basis import BASIS_FILE, REFIT_SHARE, Basis
from bot.search.retrieval import Retriever
from glossary import pruning
from glossary.files import Artifact, load_or_publish
from index.store import INDEX_DIR, INDEX_NAME

log = logging.getLogger(__name__)

#: The file a published calibration folder holds.
CALIBRATION_FILE = "calibration.json"
pruning.register("calibrations", INDEX_DIR, rf"{INDEX_NAME}\.calibration-v\d+")


def calibration_artifact(folder: Path, index_key: str, vectors_sha256: str) -> Artifact:
    """Where the calibration of one index is published (beside the index, same key); it is stale
    when the index's vectors are not those it was fitted on."""
    return Artifact(
        path=folder / f"{index_key}.calibration-v{VERSION}",
        meta={"version": VERSION, "index": index_key, "vectors": vectors_sha256},
        required=(CALIBRATION_FILE,),
    )


def load_or_fit(folder: Path, index_key: str, retriever: Retriever, progress: bool = False) -> Calibration:
    """The published calibration for this index; or the fit of a glossary that differs from this one
    by at most ``REFIT_SHARE`` of its entries (``bot.search.fit_basis``); or a new fit. Published for the next
    start (or, in a cache that cannot be written, used without keeping it)."""
    basis = Basis.of(retriever.entries, retriever.encoder.id, retriever.vectors.manifest.recipe)

    def build(path: Path, notes: dict[str, object]) -> Calibration:
        kept = _nearest_fit(folder, basis)
        if kept is not None and kept[2] <= REFIT_SHARE:
            fitted, fitted_on, share = kept
            notes["kept_fit"] = {"changed_share": share}
            log.info("calibration kept: %.1f %% of the entries changed since it was fitted", 100 * share)
        else:
            fitted, fitted_on = fit(retriever, progress), basis
        (path / CALIBRATION_FILE).write_text(fitted.model_dump_json(indent=1), encoding="utf-8")
        (path / BASIS_FILE).write_text(fitted_on.model_dump_json(), encoding="utf-8")
        notes["questions"] = fitted.questions
        return fitted

    artifact = calibration_artifact(folder, index_key, retriever.vectors.manifest.faiss_sha256)
    return load_or_publish(artifact, _read, build, fallback=True)


def _read(path: Path) -> Calibration | None:
    try:
        return Calibration.model_validate_json((path / CALIBRATION_FILE).read_bytes())
    except (OSError, ValidationError):
        return None


def _nearest_fit(folder: Path, basis: Basis) -> tuple[Calibration, Basis, float] | None:
    """The published fit whose basis is closest to ``basis`` (with its basis and the changed share)."""
    best: tuple[Calibration, Basis, float] | None = None
    for published in folder.glob(f"index-*.calibration-v{VERSION}"):
        try:
            fitted_on = Basis.model_validate_json((published / BASIS_FILE).read_bytes())
        except (OSError, ValidationError):
            continue
        share = fitted_on.changed_share(basis)
        if (best is None or share < best[2]) and (fitted := _read(published)) is not None:
            best = (fitted, fitted_on, share)
    return best
