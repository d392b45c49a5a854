"""Text encoders: the protocol (``base``), one module per backend, and the ``registry`` naming them.

``from index.encoders import Encoder, CachedEncoder, make_encoder`` keeps working; the names are
imported on first use so that ``index.encoders.registry`` (read by settings and the CLI to name and
validate backends) stays light: importing it runs this file, which must not load numpy.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index.encoders.base import CachedEncoder, Encoder
    from index.encoders.registry import BACKENDS, make_encoder

__all__ = ["BACKENDS", "CachedEncoder", "Encoder", "make_encoder"]


def __getattr__(name: str) -> object:
    if name in ("BACKENDS", "make_encoder"):
        from index.encoders import registry

        return getattr(registry, name)
    if name in ("CachedEncoder", "Encoder"):
        from index.encoders import base

        return getattr(base, name)
    raise AttributeError(f"module 'index.encoders' has no attribute {name!r}")
