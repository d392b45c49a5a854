"""What search finds for one understood question: its ranking, and the other evidence a reply may need.

:func:`retrieve` ranks the entries and decides whether the glossary covers the question (for a
comparison, the entry each side names goes first). :class:`Evidence` holds that and the rest the
router may ask about (the entry a question names outright, the opposite's entry, a topic's entries,
the FAQ item, the entries whose text addresses a problem), each looked up only when first asked and
then kept: a greeting is never ranked, a term question never encodes the FAQ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.search.calibration import SURE
from bot.search.lexical import script_of
from bot.search.loading import Loaded
from bot.search.memo import memoized
from bot.search.names import antonym, named_entry, names_entry, sounded_entry
from bot.search.other_term import (
    defines_other_term,
    is_only_name,
    names_another,
    names_other_term,
    only_part_of_name,
    prefixes_name,
)
from bot.search.remedies import Remedy, remedies
from bot.search.retrieval import Hit, Ranking, Retriever
from bot.search.topics import entries_about
from bot.settings import Settings
from bot.understand.query import Query, Reading
from bot.understand.text import Lang
from glossary import FaqItem, GlossaryEntry

#: How much of an entry's name (IDF-weighted) a short text (a comparison's side, the X of "the
#: opposite of X") must spell out to name that entry.
SIDE_NAME_MATCH = 0.5
#: The lexical ranking's first entries a short text (a comparison's side) may name outright.
SIDE_CANDIDATES = 10
#: Most sides a comparison sets side by side ("X vs Y vs Z vs W"); a phone still shows the table.
MAX_COMPARED = 4
#: Hits ranked at least, whatever ``k``: a comparison's two sides plus one to fall back on.
MIN_RANKED = 3
#: The confidence in the entry a question names outright: the question is its whole name (or alias),
#: and no other entry has that name (``named_entry``).
NAMED_CONFIDENCE = 1.0
#: The least confidence stated in the entry whose name a question's topic sounds like
#: (:func:`sounded_entry`): ``SURE``, so that it is answered. Not 1.0: it is not the name as written.
SOUNDED_CONFIDENCE = SURE
#: The first entries of the ranking whose names are compared with the asked topic by sound (an
#: entry sounding like it ranks among them: its name's words are matched by sound too).
SOUND_CANDIDATES = 10


@dataclass(frozen=True)
class Retrieval:
    query: Query
    hits: list[Hit]
    abstained: bool
    comparison: bool
    #: Probability that the first hit is the right entry (``bot.search.calibration``); 0 for no words.
    confidence: float
    #: A comparison's sides: how many of the first hits they are, and the sides that name no entry.
    sides: int = 0
    missing: tuple[str, ...] = ()
    #: The question's ranking (None for a question with no words): its matched words and vector.
    ranking: Ranking | None = None
    #: Declined because the question asks for a term the glossary has no entry for
    #: (:func:`asks_another_term`), not for being out of scope: the reply says "no entry for X".
    no_entry: bool = False


def retrieve(
    loaded: Loaded,
    query: Query,
    k: int,
    settings: Settings,
    comparisons: bool = True,
    named: GlossaryEntry | None = None,
    earlier: tuple[str, ...] = (),
) -> Retrieval:
    """Rank entries for ``query`` and decide whether the glossary covers it. ``named``: the entry the
    question names outright (:func:`named_entry`), put first wherever it ranked and answered with
    ``NAMED_CONFIDENCE``: what the ranking thinks of its own first entry says nothing of it. Else the
    entry whose name the question sounds like (:func:`sounded_by`) goes first, answered with at least
    ``SOUNDED_CONFIDENCE``. With ``comparisons``, "X vs Y" puts the entry each side names first;
    ``earlier``: the entries a comparison that refers back stands for (``Query.compares_earlier``).
    A question that asks for a term the glossary has no entry for is declined as the reply declines
    it, with ``no_entry`` saying why (:func:`asks_another_term`).
    """
    if not query.reading.has_words:
        return Retrieval(query, [], True, False, 0.0)
    retriever, calibration = loaded.retriever, loaded.calibration
    ranking = retriever.rank(query.reading)
    # the first entries' names, read for the question's sound and for a comparison side's
    heard = [retriever.entries[i] for i in ranking.order[:SOUND_CANDIDATES]]
    sounded = None if named is not None else sounded_by(retriever, heard, query.reading)
    first = named or sounded
    hits = retriever.hits(ranking, max(k, MIN_RANKED), first.id if first else None)
    # An entry's whole name ("Difference", should a glossary have it) is asked about, not compared.
    back = [retriever.hits(ranking, 1, i)[0] for i in earlier] if named is None else []
    pair, missing = compared_of(retriever, query, back, heard) if comparisons else (None, ())
    if pair:
        rest = [h for h in hits if h.entry.id not in {p.entry.id for p in pair}]
        hits = [h.model_copy(update={"rank": i}) for i, h in enumerate(pair + rest, start=1)]
    threshold = settings.min_answer_probability
    if threshold is None:
        threshold = calibration.threshold
    # A question whose only words are numbers or scaffolding ("12345", "what is it?") names no topic.
    topical = query.reading.topical
    if named is not None:
        answers, confidence = True, NAMED_CONFIDENCE
    else:
        answers, confidence = calibration.judge(ranking, threshold)
    if sounded is not None:
        answers, confidence = True, max(confidence, SOUNDED_CONFIDENCE)
    declined = not topical or not answers
    # a sure ranking declined as out of scope may still be a term the glossary lacks: then the reply
    # says so and offers the closest entries, as it did when a sure ranking was answered
    judged = topical and (answers or confidence >= SURE)
    no_entry = (
        judged
        and first is None
        and retriever.options.other_term
        and asks_another_term(query.reading, hits[0].entry, confidence)
    )
    if pair is None:
        return Retrieval(
            query, hits[:k], declined or no_entry, False, confidence, ranking=ranking, no_entry=no_entry
        )
    return Retrieval(query, hits[: max(k, len(pair))], False, True, confidence, len(pair), missing, ranking)


def asks_another_term(reading: Reading, entry: GlossaryEntry, confidence: float) -> bool:
    """A bare term the glossary has no entry for, whatever the ranking put first: only part of
    ``entry``'s longer name ("what is attention" ranks FlashAttention first), or words that are not its
    name ("what is batch normalization": Batch).

    The not-its-name check reads words, so it yields to a ``SURE`` confidence ("What does PEFT stand
    for" is not a name, but PEFT is what it asks); the part-of-a-name check does not, since the
    confidence is high exactly there ("what is attention": FlashAttention at 0.99 on the bundled
    glossary), nor does a definition question's three-word term (:func:`defines_other_term`) or a
    prefix hyphened to a name's word (:func:`prefixes_name`: "what is semi-dropout")."""
    if (
        only_part_of_name(reading, entry)
        or defines_other_term(reading, entry)
        or prefixes_name(reading, entry)
    ):
        return True
    return confidence < SURE and names_other_term(reading, entry)


def sounded_by(
    retriever: Retriever, heard: Sequence[GlossaryEntry], reading: Reading
) -> GlossaryEntry | None:
    """The entry among the ranking's first (``heard``) whose name ``reading``'s topic sounds like, if
    one does. A prefix hyphened to the name is no typo of it: "non-overfitting" is 88 % like
    "overfitting", but names another term (:func:`prefixes_name`)."""
    if not retriever.options.sounded_names:
        return None
    found = sounded_entry(reading, heard)
    return None if found is not None and prefixes_name(reading, found) else found


def named_by(retriever: Retriever, text: Reading, heard: Sequence[GlossaryEntry] = ()) -> Hit | None:
    """The entry a short text names (matched lexically, no encoder call), or None: first one of the
    lexical ranking's first entries that the text names outright (:func:`names_entry`: a name, a
    part of a bracketed one, a plural) or sounds like in another script (:func:`sounded_entry`: "वेट
    डिके" names Weight decay), else the first if the text spells out enough of its name and is no
    other term (:func:`names_another`: "batch normalization" does not name Batch). A
    Hindi file's "संस्करण नियंत्रण (Version Control)" is what "संस्करण नियंत्रण" names, though it
    spells out 0.43 of it; "सीखने की दर" names Learning rate, not "परत-वार सीखने की दर क्षय"."""
    ranking = retriever.rank(text, use_dense=False)
    candidates = [retriever.entries[i] for i in ranking.order[:SIDE_CANDIDATES]]
    named = next((e for e in candidates if names_entry(text, e)), None)
    if named is None and retriever.options.sounded_names:
        ids = {e.id for e in candidates}
        named = sounded_entry(text, [*candidates, *(e for e in heard if e.id not in ids)])
    if named is None and (
        ranking.name[ranking.top] < SIDE_NAME_MATCH or names_another(text, retriever.entries[ranking.top])
    ):
        return None
    return retriever.hits(ranking, 1, None if named is None else named.id)[0]


def compared_of(
    retriever: Retriever, query: Query, earlier: Sequence[Hit], heard: Sequence[GlossaryEntry] = ()
) -> tuple[list[Hit] | None, tuple[str, ...]]:
    """:func:`compared` for the question's sides, or its first other split (``Query.other_sides``)
    whose every side names an entry. ``heard``: the whole question's first entries, whose names a
    side may sound like in another script, where its own lexical ranking finds nothing ("weight
    decay" of a Hindi-only file's वेट डिके: no word is long enough to be matched by sound)."""
    pair, missing = compared(retriever, query.sides, query.choice, earlier, heard)
    if pair is not None and not missing:
        return pair, missing
    for sides in query.other_sides:
        other, unnamed = compared(retriever, sides, query.choice, earlier, heard)
        if other is not None and not unnamed:
            return other, unnamed
    return pair, missing


def compared(
    retriever: Retriever,
    sides: tuple[Reading | None, ...] | None,
    choice: bool = False,
    earlier: Sequence[Hit] = (),
    heard: Sequence[GlossaryEntry] = (),
) -> tuple[list[Hit] | None, tuple[str, ...]]:
    """For "X vs Y (vs Z)" questions, the entry each side names (None if not a comparison), and
    the sides that name no entry (said in the answer, never dropped silently: "X vs Y" with no Y in
    the glossary shows X alone, saying so, not the ranking's guess at the whole). A ``choice`` ("X or
    Y", "kam ya zyada") is a comparison only when every side is an entry's name and nothing more.
    ``earlier``: what a comparison that refers back stands for, the entry of a side that is a
    pronoun (``None``) or, with no sides at all ("difference?"), every entry compared."""
    if sides is None:
        return None, ()
    found: list[tuple[Reading | None, Hit]] = [(None, hit) for hit in earlier] if not sides else []
    unfound: list[Reading] = []
    for side in sides:
        if side is None:
            # A pronoun with no earlier answer to stand for ("how is it different from Y", asked first).
            best = earlier[0] if earlier else None
        else:
            best = named_by(retriever, side, heard)
            if choice and (best is None or not is_only_name(side, best.entry)):
                return None, ()
        if best is not None:
            found.append((side, best))
        elif side is not None:
            unfound.append(side)
    picked, unnamed = _distinct(found)
    if choice and unnamed:  # a choice's every side must be a name: "GPU, TTPU, NPU" is one name typed
        return None, ()
    missing = [*unfound, *unnamed]
    told = all(_in_its_scripts(retriever, side) for side in missing)  # each surely no entry
    if len(picked) < 2 and not (picked and missing and told):
        return None, ()
    said = (*(side.text for side in missing), *(h.entry.term for h in picked[MAX_COMPARED:]))
    return picked[:MAX_COMPARED], said


def _in_its_scripts(retriever: Retriever, side: Reading) -> bool:
    """Every word of ``side`` is in a script of the glossary's languages, where its names can say
    that it has no entry for it. Across scripts they cannot: a Hindi-only file's वितरित प्रशिक्षण is
    what "distributed training" asks for, and no letter of either says so. Then "X vs Y" with only X
    named is answered as a question, not as X alone with "no entry for Y"."""
    return {script_of(word) for word in side.words} <= retriever.lexical.scripts


def _distinct(found: Sequence[tuple[Reading | None, Hit]]) -> tuple[list[Hit], list[Reading]]:
    """The entries the sides name, each once, and the sides that name no entry after all: one that
    only comes close to the name another side says outright ("LoRA vs QLoRA": QLoRA is one letter
    from LoRA, but no one compares a name with its own typo)."""
    exact = [side is not None and names_entry(side, hit.entry) for side, hit in found]
    said = {hit.entry.id for (_, hit), named in zip(found, exact, strict=True) if named}
    picked: list[Hit] = []
    unnamed: list[Reading] = []
    for (side, hit), named in zip(found, exact, strict=True):
        if side is not None and hit.entry.id in said and not named:
            unnamed.append(side)
        elif all(hit.entry.id != p.entry.id for p in picked):
            picked.append(hit)
    return picked, unnamed


@dataclass(eq=False)
class Evidence:
    """Everything search can say about one question answered in ``lang``, each part found on first
    use and kept; ``k``: the hits a reply reads at most; ``comparisons``: whether "X vs Y" is
    answered side by side (ablations switch it off)."""

    loaded: Loaded
    query: Query
    lang: Lang
    settings: Settings
    comparisons: bool
    k: int
    #: The entries a comparison that refers back stands for, read from the chat history
    #: (``bot.understand.dialogue.compared_before``).
    earlier: tuple[str, ...] = ()

    @memoized
    def opposite(self) -> tuple[GlossaryEntry, GlossaryEntry | None] | None:
        """For "the opposite of X": X's entry and the one the glossary gives as its opposite (None
        when it gives none); None when no entry is named X, or the question asks no opposite."""
        if self.query.opposite is None:
            return None
        named = named_by(self.loaded.retriever, self.query.opposite)
        return None if named is None else (named.entry, antonym(named.entry, self.loaded.glossary))

    @memoized
    def listed(self) -> list[GlossaryEntry]:
        """For "types of X" or "terms related to X": the entries whose names or category hold X;
        empty for any other question."""
        if self.query.topic is None:
            return []
        return entries_about(self.query.topic, self.loaded.glossary)

    @memoized
    def faq(self) -> FaqItem | None:
        """The FAQ item that answers a how-to or problem question, if one does ("batch or epoch?"
        and "how does LoRA differ from PEFT" compare two entries instead)."""
        if not self.query.how_to or (self.query.sides is not None and self.found.comparison):
            return None
        return self.loaded.faq.match(self.query.text, self.loaded.retriever.encoder)

    @memoized
    def named(self) -> GlossaryEntry | None:
        """The entry whose whole name the question is: answered even when it ranks second."""
        if not self.loaded.retriever.options.whole_names:
            return None
        return named_entry(self.query.reading, self.loaded.glossary)

    @memoized
    def found(self) -> Retrieval:
        """The question's ranking, with the entry it names outright first."""
        return retrieve(
            self.loaded, self.query, self.k, self.settings, self.comparisons, self.named, self.earlier
        )

    @memoized
    def remedies(self) -> list[Remedy]:
        """For a how-to or problem question, the entries whose own text addresses it (their
        sentences in the answer's language); empty for any other question."""
        vector = self.question_vector
        index = self.loaded.sentences
        if not self.query.how_to or vector is None or index is None:
            return []
        return remedies(vector, index, self.loaded.glossary, self.lang)

    @memoized
    def question_vector(self) -> np.ndarray | None:
        """The question's query vector, as its ranking made it (None for a question with no words)."""
        ranking = self.found.ranking
        if ranking is None:
            return None
        if ranking.vector is not None:
            return ranking.vector
        return self.loaded.retriever.encode([self.query.reading])[0]
