"""Fusion and abstention mechanics with a tiny fake encoder (no quality claims here)."""

import numpy as np

from bot.search.retrieval import MISSING, RetrievalOptions, Retriever, Signals, _z, fuse
from glossary import GlossaryEntry, load_glossary
from index.passages import entry_passages, glossary_passages
from index.store import VectorIndex
from tests.factories import user_entry


class OneHotEncoder:
    """Every text maps to the same unit vector, so the dense branch cannot separate entries."""

    id = "onehot"
    dim = 4

    def _encode(self, texts):
        out = np.zeros((len(texts), 4), dtype=np.float32)
        out[:, 0] = 1
        return out

    encode_queries = encode_passages = _encode


def _retriever(**options) -> Retriever:
    entries = list(load_glossary().entries)
    enc = OneHotEncoder()
    vectors = VectorIndex.build(glossary_passages(entries), enc, "h", "r")
    return Retriever(entries, enc, vectors, RetrievalOptions(**options))


def test_z_scores():
    z = _z(np.array([1.0, 2.0, 3.0]))
    assert np.isclose(z.mean(), 0) and np.isclose(z.std(), 1)
    assert (_z(np.ones(3)) == 0).all()


def test_lexical_signals_decide_when_dense_is_flat():
    r = _retriever()
    ranking = r.rank("gradient clipping")
    assert r.entries[ranking.top].id == "gradient-clipping"
    assert ranking.name[ranking.top] >= 0.99


def test_weights_switch_signals_off():
    r = _retriever(bm25=0.0, name=0.0)
    ranking = r.rank("gradient clipping")
    assert np.allclose(ranking.fused, 0)  # dense is flat and the lexical weights are zero


def test_hinglish_glosses_reach_the_lexical_branch():
    r = _retriever()
    words, _, _ = r.words("loss kyu badhta hai", hinglish=True)
    assert "loss" in words and "increase" in words


def test_a_fully_typed_name_counts_by_the_share_of_the_question_it_makes_up():
    r = _retriever()
    alone = r.rank("gradient clipping")
    inside = r.rank("why would anyone limit huge updates with gradient clipping during long runs")
    top = alone.top
    assert alone.name_cover[top] == 1.0
    assert 0 < inside.name_cover[top] < 0.5


class MarkerEncoder:
    """A text holding the marker word points one way, every other text another: only a sentence
    (or a whole field) that says the marker is close to a question that says it."""

    id = "marker"
    dim = 4
    marker = "zebra"

    def _encode(self, texts):
        out = np.zeros((len(texts), 4), dtype=np.float32)
        for row, text in zip(out, texts, strict=True):
            row[1 if self.marker in text else 0] = 1
        return out

    encode_queries = encode_passages = _encode


def _entries_with_a_marked_sentence(bilingual: bool = False):
    """Two entries whose whole fields are alike (their names and definitions alike, embedded as one
    vector each) but for one sentence of their cautions, which only the second says with the marker
    (the second: a tie would put the first first). English only, unless ``bilingual``."""
    hindi = {} if bilingual else {"definition_hi": None, "term_hi": None}
    return [
        GlossaryEntry.model_validate(
            user_entry(entry_id, term_en="Stripes", notes_en=[f"Seen on a {animal}."], **hindi)
        )
        for entry_id, animal in (("cat", "tiger"), ("horse", "zebra"))
    ]


def test_every_sentence_is_a_passage_row_named_for_its_field():
    english = {"term_en": "A", "term_hi": None, "definition_hi": None}
    entry = GlossaryEntry.model_validate(
        user_entry("a", definition_en="One. Two.", notes_en=["Three."], **english)
    )
    rows = [p for p in glossary_passages([entry]) if p.kind == "sentence"]
    assert [(p.field, p.text) for p in rows] == [
        ("notes_en", "A: Three."),
        ("definition_en", "A: One."),
        ("definition_en", "A: Two."),
    ]
    assert {p.prompt for p in rows} == {"passage"}


def test_a_one_sentence_field_is_embedded_once_and_a_bilingual_glossary_embeds_no_sentences():
    entry = GlossaryEntry.model_validate(user_entry("a", definition_en="One. Two."))
    assert not [p for p in glossary_passages([entry]) if p.kind == "sentence"]
    rows = entry_passages(entry, sentences=True)
    whole = {p.text for p in rows if p.kind == "field" and p.prompt == "passage"}
    assert [p.text in whole for p in rows if p.kind == "sentence"] == [False, False, True]  # "शब्द: परिभाषा।"


def _first(entries, **options):
    enc = MarkerEncoder()
    vectors = VectorIndex.build(glossary_passages(entries), enc, "h", "r")
    ranking = Retriever(entries, enc, vectors, RetrievalOptions(bm25=0.0, **options)).rank("zebra stripes")
    return entries[ranking.top].id, ranking


def test_a_description_meets_the_one_sentence_that_says_it():
    entries = _entries_with_a_marked_sentence()
    assert _first(entries)[0] == "horse"
    top, ranking = _first(entries, sentence=0.0)
    assert top == "cat"
    assert np.isclose(ranking.fused[0], ranking.fused[1])  # whole fields alone cannot tell them apart


def test_a_bilingual_glossary_ranks_by_its_fields_alone():
    """Where every entry is defined in both languages, the asker's own language's fields meet the
    question and the sentences are not weighed (``Signals.one_language`` is 0)."""
    top, ranking = _first(_entries_with_a_marked_sentence(bilingual=True))
    assert top == "cat" and np.isclose(ranking.fused[0], ranking.fused[1])


def test_a_view_that_hides_a_field_hides_its_sentences_but_weighs_them_as_its_glossary_does():
    entries = _entries_with_a_marked_sentence()
    enc = MarkerEncoder()
    vectors = VectorIndex.build(glossary_passages(entries), enc, "h", "r")
    hidden = np.array([not (r.entry_id == "horse" and r.field == "notes_en") for r in vectors.manifest.rows])
    view = Retriever(entries, enc, vectors, RetrievalOptions(bm25=0.0), row_mask=hidden)
    ranking = view.rank("zebra stripes")
    assert np.isclose(ranking.fused[0], ranking.fused[1])
    no_definition = np.array([r.field != "definition_en" for r in vectors.manifest.rows])
    assert view.one_language == Retriever(entries, enc, vectors, row_mask=no_definition).one_language == 1.0


def _signals(dense: list[float], bm25: list[float], out_of_reach: float) -> Signals:
    n = len(dense)
    none = np.full(n, MISSING, dtype=np.float32)
    return Signals(
        fields=np.array(dense, dtype=np.float32)[:, None],
        sentence=none,
        one_language=1.0,
        paraphrase=none,
        bm25=np.array(bm25, dtype=np.float32),
        name=np.zeros(n, dtype=np.float32),
        name_cover=np.zeros(n, dtype=np.float32),
        unknown_share=0.0,
        foreign_share=out_of_reach,
        out_of_reach=out_of_reach,
        words=(),
        vector=None,
    )


def test_bm25_weighs_less_in_a_question_it_cannot_read():
    """Entry 0 matches one loanword of a question written in a script the glossary lacks; entry 1
    is closer by meaning. Read in full, BM25 would put entry 0 first; the order discounts it, and the
    decisions still read the score undiscounted (what the calibration was fitted on)."""
    w = RetrievalOptions(dense=1.0, bm25=0.3, dense_fields=1)
    dense, bm25 = [0.80, 0.82, 0.70], [3.0, 0.0, 0.0]
    across = fuse(_signals(dense, bm25, out_of_reach=1.0), w)
    assert across.top == 1
    assert fuse(_signals(dense, bm25, 1.0), w.model_copy(update={"foreign_discount": 0.0})).top == 0
    assert fuse(_signals(dense, bm25, out_of_reach=0.0), w).top == 0  # its own script: read in full
    assert np.allclose(across.decisive, fuse(_signals(dense, bm25, 0.0), w).decisive)


def test_only_words_bm25_cannot_meet_are_out_of_its_reach():
    """On a Hindi-only glossary an English question is out of BM25's reach; a Hinglish one is not
    (its Latin words meet the Hindi through the romanized view); on a bilingual one neither is."""
    hindi = [
        GlossaryEntry.model_validate(user_entry(i, term=t, term_en=None, term_hi=t, definition_en=None))
        for i, t in (("badlav", "बदलाव"), ("seekhna", "सीखना"))
    ]
    enc = OneHotEncoder()
    r = Retriever(hindi, enc, VectorIndex.build(glossary_passages(hindi), enc, "h", "r"))
    english, hinglish = r.signals("what is a change"), r.signals("badlav kya hota hai")
    assert english.foreign_share == english.out_of_reach == 1.0
    assert hinglish.foreign_share == 1.0 and hinglish.out_of_reach == 0.0
    assert _retriever().signals("what is a change").out_of_reach == 0.0
