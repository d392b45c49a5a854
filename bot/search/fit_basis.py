"""What a calibration was fitted on, so that an edit of a few entries keeps the fit instead of refitting.

Fitting a calibration asks the glossary a few hundred pseudo-questions against several views of it
(``bot.search.pseudo``): at 5,000 entries that is most of a one-entry rebuild, while the fit it gives
moves little when a few entries change (weights, threshold and confidence are fitted on features of
whole rankings, not on any one entry). So each published fit records the entries it was fitted on
(``BASIS_FILE``: entry id -> checksum of its content, with the encoder and index recipe), and a
glossary that differs from such a basis by at most ``REFIT_SHARE`` of its entries is served with that
fit. Drift cannot accumulate unnoticed: a kept fit carries the basis it was fitted on, not the
glossary it was kept for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pydantic import BaseModel

from glossary import GlossaryEntry

#: Share of entries (new, edited or removed since the fit) up to which a fit is kept. A chosen bound,
#: not yet a measured one: how far a kept fit's confidence drifts at this share is still to be measured.
REFIT_SHARE = 0.1
#: The file beside a published calibration that names what it was fitted on.
BASIS_FILE = "fitted_on.json"


class Basis(BaseModel):
    """The glossary (as entry checksums), encoder and index recipe a calibration was fitted on."""

    encoder_id: str
    recipe: str
    entries: dict[str, str]

    @classmethod
    def of(cls, entries: Sequence[GlossaryEntry], encoder_id: str, recipe: str) -> Basis:
        return cls(
            encoder_id=encoder_id,
            recipe=recipe,
            entries={e.id: hashlib.sha256(e.model_dump_json().encode()).hexdigest() for e in entries},
        )

    def changed_share(self, now: Basis) -> float:
        """Entries of ``now`` that are new or edited since this basis, and entries it no longer has,
        as a share of ``now``'s entries; 1.0 (everything) for another encoder or recipe."""
        if (self.encoder_id, self.recipe) != (now.encoder_id, now.recipe):
            return 1.0
        changed = sum(1 for i, d in now.entries.items() if self.entries.get(i) != d)
        removed = sum(1 for i in self.entries if i not in now.entries)
        return min(1.0, (changed + removed) / max(len(now.entries), 1))
