"""Read one student's turns (plain data) into the evidence stream the status model weighs.

A turn is one go of the student: the reference (top card) and denominator in force, the
fraction cards held before acting, the judged plays in order (refused ones first) and whether
the student drew. What counts:

- Only the **first claim of a turn** is evidence, and accuracy is measured on it. A student
  whose wrong tries cost nothing may try card after card in one turn: later tries are probes,
  shaped by the refusals before them, so they are counted apart (`probes`) and never weigh in
  a status. A card refused and tried again in the same turn therefore counts once.
- A claim left out (None) is inferred as the play page infers it: "equal" for a card of
  another denominator than the one in force (the only rule it could be played by, so the
  inference is sound), otherwise "denominator".
- The student's wrong options on a turn are the cards held that would be a wrong "equal"
  claim on the reference: every card of another value, same-denominator cards included, as the
  page asks for the rule whenever both could apply. A rule's chance rate p0 on that turn is the
  share of those options that fit it; a rule has an *opportunity* when some option fits it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from games.engine.cards import DECKS, FRACTION
from games.engine.fractions import parse_fraction

from .classifier import CLAIM_DENOMINATOR, CLAIM_EQUAL, infer_claim, judge_claim, tags_for
from .reasons import REASONS

Card = tuple[int, int]

# The fraction values of the default 116-card deck (23 values, four copies each), from the engine.
DEFAULT_DECK_VALUES: Final[tuple[str, ...]] = tuple(
    sorted(
        {FRACTION[code] for code in DECKS["fractions"] if code in FRACTION},
        key=lambda value: parse_fraction(value)[1] * 1000 + parse_fraction(value)[0],
    )
)

TURN_KEYS: Final[tuple[str, ...]] = ("turn", "reference", "denominator", "hand", "attempts", "drew")
# A turn may say where it comes from: a game (the default) or a warm-up item ("probe").
SOURCE_GAME: Final = "game"
SOURCE_PROBE: Final = "probe"
SOURCES: Final = (SOURCE_GAME, SOURCE_PROBE)
# A warm-up item shows 2 to 6 cards (the page shows four as a rule).
PROBE_MIN_OPTIONS: Final = 2
PROBE_MAX_OPTIONS: Final = 6
ATTEMPT_KEYS: Final[tuple[str, ...]] = ("played", "claim", "asked", "reason")


@dataclass(frozen=True, slots=True)
class Play:
    """One judged play of a turn, its claim made explicit."""

    played: Card
    claim: str
    asked: bool
    reason: str | None
    correct: bool
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """One checked turn."""

    number: int
    reference: Card | None
    denominator: int
    hand: tuple[Card, ...]
    plays: tuple[Play, ...]
    drew: bool
    probe: bool = False  # a warm-up item: its options are the hand, one answer
    round: str | int | None = None  # the warm-up round a probe turn belongs to, if named
    at: datetime | None = None  # when the claim was made ("at", ISO 8601 with its offset)

    @property
    def first(self) -> Play | None:
        """Return the turn's first claim (the evidence), or None if the student only drew."""
        return self.plays[0] if self.plays else None


@dataclass(frozen=True, slots=True)
class TurnEvidence:
    """What one turn tells each rule."""

    reference: Card | None
    first: Play | None
    p0: Mapping[str, float]
    opportunities: frozenset[str]
    probe_tags: tuple[tuple[str, ...], ...]

    @property
    def wrong_equal(self) -> bool:
        """Tell whether the first claim is a wrong "equal" claim on a reference (evidence)."""
        first = self.first
        return (
            first is not None
            and self.reference is not None
            and first.claim == CLAIM_EQUAL
            and not first.correct
        )


def deck_values(deck: object = None) -> frozenset[Card]:
    """Return the checked fraction values of a deck ("a/b" list; None: the default deck)."""
    if deck is None:
        return _default_deck()
    values = deck
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ValueError(f"deck must be a list of 'a/b' values, not {deck!r}")
    cards = frozenset(_fraction(value, "deck") for value in values)
    if not cards:
        raise ValueError("deck has no fraction value")
    return cards


@lru_cache(maxsize=1)
def _default_deck() -> frozenset[Card]:
    return frozenset(_fraction(value, "deck") for value in DEFAULT_DECK_VALUES)


@lru_cache(maxsize=1 << 12)
def _parsed(value: str) -> Card:
    # A deck has a few dozen values and a class's log repeats them thousands of times.
    return parse_fraction(value)


def _fraction(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{where}: fraction {value!r} must be a string 'a/b'")
    try:
        return _parsed(value)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _known(value: object, deck: frozenset[Card], where: str) -> Card:
    card = _fraction(value, where)
    if card not in deck:
        raise ValueError(f"{where}: {value!r} is not a fraction of the deck in use")
    return card


def _fields(data: object, keys: tuple[str, ...], where: str) -> list[object]:
    """Return the values of `keys` (a dict and every key required, else ValueError)."""
    # type() first: isinstance against an ABC costs more than the rest of a turn's checks.
    if type(data) is not dict and not isinstance(data, Mapping):
        raise ValueError(f"{where} must be a dict, not {type(data).__name__}")
    for key in keys:
        if key not in data:
            raise ValueError(f"{where}: missing key {key!r}")
    return [data[key] for key in keys]


class _Irregular(Exception):
    """A turn the plain reading does not take; the checked reading says what is wrong."""


def read_turn(data: object, deck: frozenset[Card], index: int = 0) -> Turn:
    """Check one turn dict and return it as a Turn; bad input raises ValueError."""
    turn = _read_turn(data, deck, index)
    # type() first: isinstance against an ABC costs more than the rest of a turn's checks.
    stamp = data.get("at") if type(data) is dict or isinstance(data, Mapping) else None
    if stamp is None:
        return turn
    at = instant(stamp, f"turn #{index}")
    # Built directly, not with dataclasses.replace(): half the cost, on every timed turn.
    return Turn(
        number=turn.number,
        reference=turn.reference,
        denominator=turn.denominator,
        hand=turn.hand,
        plays=turn.plays,
        drew=turn.drew,
        probe=turn.probe,
        round=turn.round,
        at=at,
    )


def _read_turn(data: object, deck: frozenset[Card], index: int) -> Turn:
    # A game turn may say "source": "game" (the stored log's rows do): read as any game turn.
    if type(data) is dict or isinstance(data, Mapping):
        source = data.get("source")
        if source is not None and source != SOURCE_GAME:
            if source != SOURCE_PROBE:
                raise ValueError(
                    f"turn #{index}: unknown source {source!r}; expected one of {SOURCES}"
                )
            return _probe_turn(data, index)
    try:
        return _plain_turn(data, deck)
    except (_Irregular, LookupError, TypeError, ValueError):
        # Whatever the plain reading does not take, the checked one reads again: it raises
        # the ValueError that names the fault (or reads an unusual but valid turn).
        return _checked_turn(data, deck, index)


# The longest ISO 8601 time with its offset (2026-12-02T16:05:09.123456+01:00 has 32
# characters): anything longer is refused before parsing, and never cached or echoed whole.
INSTANT_MAX_CHARS: Final = 40


def instant(value: object, where: str = "at") -> datetime:
    """Return a turn's "at" (ISO 8601 with its offset) as an aware datetime; else ValueError."""
    short = isinstance(value, str) and len(value) <= INSTANT_MAX_CHARS
    moment = _instant(value) if short and isinstance(value, str) else None
    if moment is None:
        shown = repr(value) if short or not isinstance(value, str) else f"{value[:20]!r}…"
        # Without its offset a time cannot be compared with another one: 7 days are 168 hours.
        raise ValueError(
            f"{where}: 'at' must be an ISO 8601 time with its offset (+01:00 or Z), "
            f"not {shown[:60]}"
        )
    return moment


@lru_cache(maxsize=1 << 12)
def _instant(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.utcoffset() is not None else None


def _plain_turn(data: object, deck: frozenset[Card]) -> Turn:
    """Read a turn of plain types (dict, str, int, bool, list) with its checks cached.

    A class dashboard reads thousands of turns whose hands and plays repeat: each hand and
    each play is checked once per deck (_plain_hand, _plain_play) rather than value by value,
    and no error text is formatted. It takes exactly what _checked_turn takes; anything
    else raises (then _checked_turn reads the turn again).
    """
    if type(data) is not dict:
        raise _Irregular
    number = data["turn"]
    hand_value = data["hand"]
    attempts_value = data["attempts"]
    drew = data["drew"]
    if type(number) is not int or type(drew) is not bool:
        raise _Irregular
    reference, denominator = _plain_reference(data["reference"], data["denominator"], deck)
    if type(hand_value) is not list and type(hand_value) is not tuple:
        raise _Irregular
    hand = _plain_hand(tuple(hand_value), deck)
    if type(attempts_value) is not list and type(attempts_value) is not tuple:
        raise _Irregular
    plays = [_plain_attempt(attempt, reference, denominator, deck) for attempt in attempts_value]
    for play in plays[:-1]:
        if play.correct:
            raise _Irregular
    return Turn(number, reference, denominator, hand, tuple(plays), drew)


def _plain_reference(
    reference_value: object, named: object, deck: frozenset[Card]
) -> tuple[Card | None, int]:
    """Return a plain turn's reference card (None after a named denominator) and denominator."""
    if reference_value is None:
        if type(named) is not int or named <= 0:
            raise _Irregular
        return None, named
    reference = _plain_card(reference_value, deck)
    denominator = reference[1]
    if named is not None and (type(named) is not int or named <= 0 or named != denominator):
        raise _Irregular
    return reference, denominator


def _plain_attempt(
    attempt: object, reference: Card | None, denominator: int, deck: frozenset[Card]
) -> Play:
    """Return one plain attempt of a turn as a Play (its checks cached by _plain_play)."""
    if type(attempt) is not dict:
        raise _Irregular
    played, claim, asked, reason = (
        attempt["played"],
        attempt["claim"],
        attempt["asked"],
        attempt["reason"],
    )
    # Exact types only: the cache below must not take 1 for True or a list for a str.
    if (
        type(played) is not str
        or type(asked) is not bool
        or (claim is not None and type(claim) is not str)
        or (reason is not None and type(reason) is not str)
    ):
        raise _Irregular
    return _plain_play(played, claim, asked, reason, reference, denominator, deck)


@lru_cache(maxsize=1 << 12)
def _plain_card(value: object, deck: frozenset[Card]) -> Card:
    card = parse_fraction(value) if type(value) is str else None
    if card is None or card not in deck:
        raise _Irregular
    return card


@lru_cache(maxsize=1 << 14)
def _plain_hand(values: tuple[object, ...], deck: frozenset[Card]) -> tuple[Card, ...]:
    # Hands repeat across a class's turns and across page views.
    return tuple([_plain_card(value, deck) for value in values])


@lru_cache(maxsize=1 << 14)
def _plain_play(
    played_value: str,
    claim: str | None,
    asked: bool,
    reason: str | None,
    reference: Card | None,
    denominator: int,
    deck: frozenset[Card],
) -> Play:
    played = _plain_card(played_value, deck)
    if claim is None:
        claim = infer_claim(reference, denominator, played)
    elif claim != CLAIM_EQUAL and claim != CLAIM_DENOMINATOR:
        raise _Irregular
    correct, tags = judge_claim(reference, denominator, played, claim)
    if reason is not None and (
        reason not in REASONS or correct or claim != CLAIM_EQUAL or reference is None
    ):
        raise _Irregular
    return Play(played, claim, asked, reason, correct, tags)


def _turn_number(value: object, index: int) -> tuple[int, str]:
    """Return a turn's number and how errors name it ("turn 12"); a bad one: ValueError."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"turn #{index}: 'turn' must be an int, not {value!r}")
    return value, f"turn {value}"


def _checked_turn(data: object, deck: frozenset[Card], index: int) -> Turn:
    """Check one turn dict value by value and return it as a Turn; bad input: ValueError."""
    number_value, reference_value, named, hand_value, attempts_value, drew = _fields(
        data, TURN_KEYS, f"turn #{index}"
    )
    number, where = _turn_number(number_value, index)
    reference = None if reference_value is None else _known(reference_value, deck, where)
    denominator = _denominator(named, reference, where)
    if not isinstance(hand_value, list | tuple):
        raise ValueError(f"{where}: 'hand' must be a list of 'a/b' values")
    hand_where = f"{where} hand"
    hand = tuple([_known(value, deck, hand_where) for value in hand_value])
    if not isinstance(drew, bool):
        raise ValueError(f"{where}: 'drew' must be true or false, not {drew!r}")
    if not isinstance(attempts_value, list | tuple):
        raise ValueError(f"{where}: 'attempts' must be a list")
    plays = tuple(
        _play(attempt, reference, denominator, deck, f"{where} attempt {i}")
        for i, attempt in enumerate(attempts_value)
    )
    if any(play.correct for play in plays[:-1]):
        raise ValueError(f"{where}: an accepted play ends the turn; it must be the last attempt")
    return Turn(number, reference, denominator, hand, plays, drew)


def _probe_turn(data: Mapping[str, object], index: int) -> Turn:
    """Check a warm-up item's turn: its options (any fractions) and one "equal" answer.

    Its fractions need not be in the deck: the options shown are the hand, so they give the
    item's chance rates. The warm-up asks a reason after every answer; a right answer's reason
    is dropped (only the reasons of wrong answers weigh).
    """
    number_value, reference_value, named, hand_value, attempts_value, drew = _fields(
        data, TURN_KEYS, f"turn #{index}"
    )
    number, where = _turn_number(number_value, index)
    if reference_value is None:
        raise ValueError(f"{where}: a warm-up item needs a reference")
    reference = _fraction(reference_value, where)
    denominator = _denominator(named, reference, where)
    if not isinstance(hand_value, list | tuple):
        raise ValueError(f"{where}: 'hand' must be a list of 'a/b' values")
    hand = tuple(_fraction(value, f"{where} hand") for value in hand_value)
    if not PROBE_MIN_OPTIONS <= len(set(hand)) == len(hand) <= PROBE_MAX_OPTIONS:
        raise ValueError(
            f"{where}: a warm-up item shows {PROBE_MIN_OPTIONS} to {PROBE_MAX_OPTIONS} "
            "different cards"
        )
    if drew is not False:
        raise ValueError(f"{where}: a warm-up item has no draw ('drew' must be false)")
    round_id = data.get("round")
    if isinstance(round_id, bool) or not isinstance(round_id, str | int | None):
        raise ValueError(f"{where}: 'round' must be a string, an int or None")
    if not isinstance(attempts_value, list | tuple) or len(attempts_value) != 1:
        raise ValueError(f"{where}: a warm-up item has exactly one answer")
    answer_where = f"{where} attempt 0"
    played_value, claim, asked, reason = _fields(attempts_value[0], ATTEMPT_KEYS, answer_where)
    played = _fraction(played_value, answer_where)
    if played not in hand:
        raise ValueError(f"{answer_where}: {played_value!r} is not one of the options shown")
    if claim not in (None, CLAIM_EQUAL):
        raise ValueError(f"{answer_where}: a warm-up answer claims 'equal', not {claim!r}")
    if not isinstance(asked, bool):
        raise ValueError(f"{answer_where}: 'asked' must be true or false, not {asked!r}")
    if reason is not None and (not isinstance(reason, str) or reason not in REASONS):
        raise ValueError(
            f"{answer_where}: unknown reason {reason!r}; expected one of {list(REASONS)}"
        )
    tags = tags_for(*reference, *played, CLAIM_EQUAL)
    correct = not tags
    play = Play(played, CLAIM_EQUAL, asked, None if correct else reason, correct, tags)
    return Turn(number, reference, denominator, hand, (play,), False, True, round_id)


def _denominator(named: object, reference: Card | None, where: str) -> int:
    if named is None:
        if reference is None:
            raise ValueError(f"{where}: a turn needs a reference or a denominator")
        return reference[1]
    if not isinstance(named, int) or isinstance(named, bool) or named <= 0:
        raise ValueError(f"{where}: 'denominator' must be a positive int or None, not {named!r}")
    if reference is not None and named != reference[1]:
        raise ValueError(f"{where}: denominator {named} is not the reference's ({reference[1]})")
    return named


def _play(
    data: object, reference: Card | None, denominator: int, deck: frozenset[Card], where: str
) -> Play:
    played_value, claim, asked, reason = _fields(data, ATTEMPT_KEYS, where)
    played = _known(played_value, deck, where)
    if claim is None:
        claim = infer_claim(reference, denominator, played)
    elif claim not in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
        raise ValueError(
            f"{where}: unknown claim {claim!r}; expected 'equal', 'denominator' or None"
        )
    if not isinstance(asked, bool):
        raise ValueError(f"{where}: 'asked' must be true or false, not {asked!r}")
    correct, tags = judge_claim(reference, denominator, played, str(claim))
    if reason is not None:
        if not isinstance(reason, str) or reason not in REASONS:  # a list: ValueError too
            raise ValueError(f"{where}: unknown reason {reason!r}; expected one of {list(REASONS)}")
        if correct or claim != CLAIM_EQUAL or reference is None:
            raise ValueError(f"{where}: a reason is only asked after a wrong 'equal' claim")
    return Play(played, str(claim), asked, reason, correct, tags)


def turn_evidence(turn: Turn) -> TurnEvidence:
    """Return the first claim of a turn with each rule's chance rate and opportunity."""
    reference, first = turn.reference, turn.first
    p0: Mapping[str, float] = _NO_RATES
    opportunities: frozenset[str] = frozenset()
    if reference is not None:
        cards = turn.hand
        if first is not None and first.played not in cards:
            # A card drawn during the turn, or a snapshot taken after the play: it was an option.
            cards = (*cards, first.played)
        p0, opportunities = chance_rates_of(reference, cards)
    probes = tuple(play.tags for play in turn.plays[1:] if not play.correct)
    return TurnEvidence(reference, first, p0, opportunities, probes)


_NO_RATES: Final[Mapping[str, float]] = MappingProxyType({})


@lru_cache(maxsize=1 << 14)
def chance_rates_of(
    reference: Card, cards: tuple[Card, ...]
) -> tuple[Mapping[str, float], frozenset[str]]:
    """Return each rule's chance rate p0 on `reference` with `cards` held, and its rules.

    The share of the wrong "equal" options (the cards of another value) that fit the rule.
    Cached (the rates are read only): the same hands come back on every page view.
    """
    a, b = reference
    counts: dict[str, int] = {}
    options = 0
    for c, d in cards:
        if a * d != b * c:
            options += 1
            for rule in tags_for(a, b, c, d, CLAIM_EQUAL):
                counts[rule] = counts.get(rule, 0) + 1
    rates = MappingProxyType({rule: count / options for rule, count in counts.items()})
    return rates, frozenset(counts)


def read_turns(turns: object, deck: frozenset[Card]) -> list[Turn]:
    """Check a list of turn dicts (oldest first); bad input raises ValueError."""
    if isinstance(turns, str | bytes | Mapping) or not isinstance(turns, Sequence):
        raise ValueError("turns must be a list of turn dicts, oldest first")
    return [read_turn(data, deck, index) for index, data in enumerate(turns)]


def first_claim_accuracy(turns: object, deck: object = None) -> tuple[int, int]:
    """Return (right first claims, turns with a claim): accuracy on the first claim of a turn."""
    checked = read_turns(turns, deck_values(deck))
    claims = [turn.first for turn in checked if turn.first is not None]
    return sum(1 for play in claims if play.correct), len(claims)


__all__ = [
    "DEFAULT_DECK_VALUES",
    "PROBE_MAX_OPTIONS",
    "PROBE_MIN_OPTIONS",
    "SOURCES",
    "SOURCE_GAME",
    "SOURCE_PROBE",
    "Play",
    "Turn",
    "TurnEvidence",
    "deck_values",
    "first_claim_accuracy",
    "instant",
    "read_turn",
    "read_turns",
    "turn_evidence",
]
