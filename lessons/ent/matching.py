"""Propose which ENT pupil is which pupil of a class list, for the teacher to confirm.

Pure Python (no Django): the matching screen and the CSV import feed it plain values.

An ENT gives a pupil's name as it keeps it ("MARTIN Léa", "Léa MARTIN", "DE LA FONTAINE
Jean-Baptiste"); the teacher typed the class list as a child reads it ("Léa M.", "Jean-Baptiste",
"Ines"). Two names match:

- **exactly** when they are the same words once case, accents, hyphens, apostrophes, dots and
  word order are set aside ("MARTIN Léa" = "Léa Martin", "Inès" = "Ines");
- **nearly** when one word has one typo (a letter added, dropped, changed or two swapped, in a
  word of four letters or more), when the list abbreviates a word the ENT spells out ("Léa M."
  for "Léa MARTIN", "J.-B." for "Jean-Baptiste"), or when the list keeps only some of the ENT's
  words ("Maël" for "Maël DUPONT") and no other name of the list has those words too.

An exact match outranks a near one: a pupil with an exact match is not offered near ones. A
match is proposed only when neither side has another candidate; otherwise the pupils involved
form a **homonym** group that the teacher settles by hand. A homonym is never proposed, so never
linked without the teacher's choice.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

# Letters NFKD does not split (ligatures written as one letter in French names).
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O"})
# Word separators inside a name besides white space: hyphens, dots, underscores, commas.
_SEPARATORS = "-‐‑‒–—._,;/"
# Apostrophes join ("N'Diaye" = "Ndiaye"): a lone "N" would read as an abbreviation.
_APOSTROPHES = "'’ʼ`"
# A typo is looked for only in words this long: "Léa" and "Léo" are two children.
_TYPO_MIN_LENGTH = 4
# Beyond this many words the pairing tries only the sorted order (a name is rarely this long).
_PERMUTATION_LIMIT = 6

R = TypeVar("R", bound=Hashable)


class Kind(Enum):
    """How sure a proposal is: an exact one is pre-ticked, a near one waits for a tick."""

    EXACT = "exact"
    NEAR = "near"


class Reason(Enum):
    """Why two names match."""

    SAME_NAME = "same_name"
    TYPO = "typo"
    ABBREVIATED = "abbreviated"
    FEWER_WORDS = "fewer_words"


@dataclass(frozen=True)
class EntPupil:
    """A pupil as the ENT vouched for them: opaque id, name as the ENT writes it, classes."""

    ent_id: str
    display_name: str
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RosterPupil(Generic[R]):
    """A pupil of the class list: the app's key for them and the name the teacher typed."""

    key: R
    display_name: str


@dataclass(frozen=True)
class Proposal(Generic[R]):
    """One ENT pupil proposed as one pupil of the list."""

    ent_id: str
    key: R
    kind: Kind
    reason: Reason


@dataclass(frozen=True)
class Homonyms(Generic[R]):
    """ENT pupils and list pupils whose names match more than one of the other side."""

    ent_ids: tuple[str, ...]
    keys: tuple[R, ...]


@dataclass(frozen=True)
class Matching(Generic[R]):
    """What the matching screen shows: proposals, homonym groups, and who matched nobody."""

    proposals: tuple[Proposal[R], ...] = ()
    homonyms: tuple[Homonyms[R], ...] = ()
    ent_unmatched: tuple[str, ...] = ()
    roster_unmatched: tuple[R, ...] = field(default=())


@dataclass(frozen=True)
class _Word:
    text: str
    abbreviated: bool


def fold(name: str) -> str:
    """Return the name without case, accents, ligatures or separators, words in their order."""
    return " ".join(word.text for word in _words(name))


def name_key(name: str) -> str:
    """Return what two names share when they match exactly: folded words in sorted order."""
    return " ".join(sorted(fold(name).split()))


def _fold_letters(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    # casefold turns "ß" into "ss"; NFKD again in case folding made a composed letter.
    folded = unicodedata.normalize("NFKD", bare.casefold())
    return "".join(c for c in folded if c.isalnum())


def _words(name: str) -> list[_Word]:
    """Split a name into folded words, marking abbreviations ("M.", "J.-B.", a lone letter)."""
    spaced = name
    for apostrophe in _APOSTROPHES:
        spaced = spaced.replace(apostrophe, "")
    for separator in _SEPARATORS:
        # A dot closes an abbreviation: keep it on its word until the word is read.
        spaced = spaced.replace(separator, "." if separator == "." else " ")
    words: list[_Word] = []
    for raw in spaced.replace(".", ". ").split():
        text = _fold_letters(raw)
        if text:
            words.append(_Word(text, raw.endswith(".") or len(text) == 1))
    return words


def class_name_fits(ent_classes: Iterable[str], class_names: Iterable[str]) -> bool:
    """Return whether one of the ENT's class names names one of the app's classes.

    ENTs decorate class names: Édifice writes "0123456X$CM2 B", the GAR "CM2B##CM2 B". Each
    part is compared folded, spaces and separators set aside ("CM2-B" = "cm2 b").
    """
    wanted = {_class_fold(name) for name in class_names} - {""}
    for raw in ent_classes:
        parts = [raw, *raw.replace("##", "$").split("$")]
        if wanted & {_class_fold(part) for part in parts}:
            return True
    return False


def _class_fold(name: str) -> str:
    return "".join(fold(name).split())


def _distance_at_most_one(a: str, b: str) -> bool:
    """Return whether one edit (insert, delete, change, swap of neighbours) turns a into b."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def _pairings(ent: Sequence[str], count: int) -> Iterable[Sequence[str]]:
    if len(ent) > _PERMUTATION_LIMIT:
        return [sorted(ent)[:count]]
    return itertools.permutations(ent, count)


def _one_typo(roster: Sequence[_Word], ent: Sequence[str]) -> bool:
    """Return whether the words pair up with exactly one typo in a long enough word."""
    if len(roster) != len(ent) or any(word.abbreviated for word in roster):
        return False
    texts = [word.text for word in roster]
    for order in _pairings(ent, len(ent)):
        differing = [(r, e) for r, e in zip(texts, order, strict=True) if r != e]
        if len(differing) == 1:
            r, e = differing[0]
            if min(len(r), len(e)) >= _TYPO_MIN_LENGTH and _distance_at_most_one(r, e):
                return True
    return False


def _covers(roster: Sequence[_Word], ent: Sequence[str], *, abbreviations: bool) -> bool:
    """Return whether each roster word is a distinct ENT word (or its start, if abbreviated)."""
    if len(roster) > len(ent) or not any(not word.abbreviated for word in roster):
        return False
    for order in _pairings(ent, len(roster)):
        if all(
            (word.abbreviated and abbreviations and e.startswith(word.text)) or word.text == e
            for word, e in zip(roster, order, strict=True)
        ):
            return True
    return False


def _near_reason(roster: Sequence[_Word], ent: Sequence[str]) -> Reason | None:
    if any(word.abbreviated for word in roster):
        return Reason.ABBREVIATED if _covers(roster, ent, abbreviations=True) else None
    if _one_typo(roster, ent):
        return Reason.TYPO
    if len(roster) < len(ent) and _covers(roster, ent, abbreviations=False):
        return Reason.FEWER_WORDS
    return None


def _words_shared(key: str, others: Iterable[str]) -> bool:
    """Return whether another list name holds all the words of `key` (then it is not unique)."""
    words = key.split()
    for other in others:
        pool = other.split()
        if all(pool.count(word) >= words.count(word) for word in words):
            return True
    return False


Edges = dict[tuple[str, R], Reason]


def _exact_edges(ent_keys: dict[str, str], roster_keys: dict[R, str]) -> Edges[R]:
    """Return the pairs whose names are the same words."""
    return {
        (ent_id, key): Reason.SAME_NAME
        for ent_id, ent_key in ent_keys.items()
        for key, roster_key in roster_keys.items()
        if ent_key and ent_key == roster_key
    }


def _near_edges(
    ent_keys: dict[str, str], roster: Sequence[RosterPupil[R]], exact: Edges[R]
) -> Edges[R]:
    """Return the near pairs among those with no exact match on either side."""
    roster_keys = {pupil.key: name_key(pupil.display_name) for pupil in roster}
    taken_ents = {ent_id for ent_id, _key in exact}
    taken_keys = {key for _ent_id, key in exact}
    near: Edges[R] = {}
    for pupil in roster:
        words = _words(pupil.display_name)
        if pupil.key in taken_keys or not words:
            continue
        others = [roster_keys[key] for key in roster_keys if key != pupil.key]
        for ent_id, ent_key in ent_keys.items():
            reason = None if ent_id in taken_ents else _near_reason(words, ent_key.split())
            # A first name alone matches only when no other name of the list holds it too.
            if reason is Reason.FEWER_WORDS and _words_shared(roster_keys[pupil.key], others):
                reason = None
            if reason is not None:
                near[(ent_id, pupil.key)] = reason
    return near


def match(ent_pupils: Sequence[EntPupil], roster: Sequence[RosterPupil[R]]) -> Matching[R]:
    """Return the proposals and homonym groups for ENT pupils against a class list.

    ENT pupils are taken once each (by ent_id, the first seen wins) and list pupils once each
    (by key). The result lists everyone: each ENT pupil and each list pupil is in exactly one
    of a proposal, a homonym group or the unmatched.
    """
    ents = list(_first_each(ent_pupils, lambda pupil: pupil.ent_id))
    pupils = list(_first_each(roster, lambda pupil: pupil.key))
    ent_keys = {e.ent_id: name_key(e.display_name) for e in ents}
    exact = _exact_edges(ent_keys, {p.key: name_key(p.display_name) for p in pupils})
    edges = {**_near_edges(ent_keys, pupils, exact), **exact}
    ent_degree = Counter(ent_id for ent_id, _key in edges)
    key_degree = Counter(key for _ent_id, key in edges)

    proposals: list[Proposal[R]] = []
    tangled: list[tuple[str, R]] = []
    for (ent_id, key), reason in edges.items():
        if ent_degree[ent_id] == 1 and key_degree[key] == 1:
            kind = Kind.EXACT if (ent_id, key) in exact else Kind.NEAR
            proposals.append(Proposal(ent_id, key, kind, reason))
        else:
            tangled.append((ent_id, key))

    ent_order = {e.ent_id: i for i, e in enumerate(ents)}
    key_order = {p.key: i for i, p in enumerate(pupils)}
    proposals.sort(key=lambda proposal: ent_order[proposal.ent_id])
    return Matching(
        proposals=tuple(proposals),
        homonyms=_groups(tangled, ent_order, key_order),
        ent_unmatched=tuple(e.ent_id for e in ents if e.ent_id not in ent_degree),
        roster_unmatched=tuple(p.key for p in pupils if p.key not in key_degree),
    )


T = TypeVar("T")


def _first_each(items: Iterable[T], key: Callable[[T], Hashable]) -> Iterable[T]:
    """Yield the items, each key's first only."""
    seen: set[Hashable] = set()
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            yield item


def _groups(
    edges: Sequence[tuple[str, R]], ent_order: dict[str, int], key_order: dict[R, int]
) -> tuple[Homonyms[R], ...]:
    """Return the connected groups of the tangled edges, in the order the pupils came."""
    remaining = list(edges)
    groups: list[Homonyms[R]] = []
    while remaining:
        ent_ids, keys = {remaining[0][0]}, {remaining[0][1]}
        grown = True
        while grown:
            grown = False
            for ent_id, key in remaining:
                touches = ent_id in ent_ids or key in keys
                if touches and not (ent_id in ent_ids and key in keys):
                    ent_ids.add(ent_id)
                    keys.add(key)
                    grown = True
        remaining = [(e, k) for e, k in remaining if e not in ent_ids]
        groups.append(
            Homonyms(
                ent_ids=tuple(sorted(ent_ids, key=ent_order.__getitem__)),
                keys=tuple(sorted(keys, key=key_order.__getitem__)),
            )
        )
    groups.sort(key=lambda group: ent_order[group.ent_ids[0]])
    return tuple(groups)
