"""diagnose() made faster gives what the straightforward model gave, figure for figure.

The reference below is the model as it was before the speed-up (a new distribution list per
claim, every reason term added one by one, every turn checked and weighed from scratch, no
cache). It is compared with lessons.diagnosis on random histories: simulated students of
lessons.diagnosis.calibration (habits, reasons, probes, aimed dealing) and free-form histories
(claims left out or given, cards played from outside the hand, named denominators, reasons on
any wrong "equal" claim, decks of improper fractions), read after every turn as the
calibration bench reads them, and on bad input (same ValueError message).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.engine.fractions import parse_fraction
from lessons.diagnosis import (
    DEFAULT_DECK_VALUES,
    RULE_IDS,
    Diagnosis,
    calibration,
    diagnose,
    stream,
)
from lessons.diagnosis.chance import ChanceScore
from lessons.diagnosis.classifier import CLAIM_DENOMINATOR, CLAIM_EQUAL, tags_for
from lessons.diagnosis.model import (
    ALPHA_EMERGING,
    ALPHA_LIKELY,
    ALPHA_LIKELY_REASONS,
    ALPHA_SHARES,
    EMERGING_MIN_MATCHES,
    LIKELY_MIN_REFERENCES,
    REASON_CHANCE,
    REASON_WEIGHT,
    RESOLVED_MIN_CLEAN,
    TESTED_RULES,
)
from lessons.diagnosis.reasons import REASON_FOR_RULE, REASONS

Card = tuple[int, int]
TOLERANCE = 1e-12
FIRST_REASON = next(iter(REASONS))


# ---------------------------------------------------------------- the reference (old) model


class RefScore:
    def __init__(self) -> None:
        self.probs = [1.0]

    def add(self, p: float) -> None:
        old, q = self.probs, 1.0 - p
        self.probs = [x * q + y * p for x, y in zip([*old, 0.0], [0.0, *old], strict=True)]

    def add_with_reason(self, p: float, reason_chance: float, weight: int) -> None:
        old = self.probs
        fit_only, fit_reason = p * (1.0 - reason_chance), p * reason_chance
        size = len(old) + 1 + weight
        new = [x * (1.0 - p) for x in old] + [0.0] * (1 + weight)
        for i, x in enumerate(old):
            if x:
                new[i + 1] += x * fit_only
                new[i + 1 + weight] += x * fit_reason
        self.probs = new[:size]

    def tail(self, score: int) -> float:
        return 1.0 if score <= 0 else min(1.0, sum(self.probs[score:]))


def ref_deck(deck: object) -> frozenset[Card]:
    values = DEFAULT_DECK_VALUES if deck is None else deck
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ValueError(f"deck must be a list of 'a/b' values, not {deck!r}")
    cards = frozenset(ref_fraction(value, "deck") for value in values)
    if not cards:
        raise ValueError("deck has no fraction value")
    return cards


def ref_fraction(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{where}: fraction {value!r} must be a string 'a/b'")
    try:
        return parse_fraction(value)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def ref_known(value: object, deck: frozenset[Card], where: str) -> Card:
    card = ref_fraction(value, where)
    if card not in deck:
        raise ValueError(f"{where}: {value!r} is not a fraction of the deck in use")
    return card


def ref_fields(data: object, keys: tuple[str, ...], where: str) -> list[Any]:
    if not isinstance(data, Mapping):
        raise ValueError(f"{where} must be a dict, not {type(data).__name__}")
    for key in keys:
        if key not in data:
            raise ValueError(f"{where}: missing key {key!r}")
    return [data[key] for key in keys]


def ref_play(data: object, reference: Card | None, denominator: int, deck: Any, where: str):
    played_value, claim, asked, reason = ref_fields(
        data, ("played", "claim", "asked", "reason"), where
    )
    played = ref_known(played_value, deck, where)
    if claim is None:
        claim = (
            CLAIM_EQUAL if reference is not None and played[1] != denominator else CLAIM_DENOMINATOR
        )
    elif claim not in (CLAIM_EQUAL, CLAIM_DENOMINATOR):
        raise ValueError(
            f"{where}: unknown claim {claim!r}; expected 'equal', 'denominator' or None"
        )
    if not isinstance(asked, bool):
        raise ValueError(f"{where}: 'asked' must be true or false, not {asked!r}")
    if reference is None:
        correct = claim == CLAIM_DENOMINATOR and played[1] == denominator
        tags: tuple[str, ...] = () if correct else ("D1",) if claim == CLAIM_DENOMINATOR else ()
    else:
        tags = tags_for(*reference, *played, claim)
        correct = not tags
    if reason is not None:
        if not isinstance(reason, str) or reason not in REASONS:
            raise ValueError(f"{where}: unknown reason {reason!r}; expected one of {list(REASONS)}")
        if correct or claim != CLAIM_EQUAL or reference is None:
            raise ValueError(f"{where}: a reason is only asked after a wrong 'equal' claim")
    return {"played": played, "claim": claim, "reason": reason, "correct": correct, "tags": tags}


def ref_read_turn(data: object, deck: frozenset[Card], index: int) -> dict[str, Any]:
    where = f"turn #{index}"
    number, reference_value, named, hand_value, attempts_value, drew = ref_fields(
        data, ("turn", "reference", "denominator", "hand", "attempts", "drew"), where
    )
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"{where}: 'turn' must be an int, not {number!r}")
    where = f"turn {number}"
    reference = None if reference_value is None else ref_known(reference_value, deck, where)
    if named is None:
        if reference is None:
            raise ValueError(f"{where}: a turn needs a reference or a denominator")
        denominator = reference[1]
    else:
        if not isinstance(named, int) or isinstance(named, bool) or named <= 0:
            raise ValueError(
                f"{where}: 'denominator' must be a positive int or None, not {named!r}"
            )
        if reference is not None and named != reference[1]:
            raise ValueError(
                f"{where}: denominator {named} is not the reference's ({reference[1]})"
            )
        denominator = named
    if not isinstance(hand_value, list | tuple):
        raise ValueError(f"{where}: 'hand' must be a list of 'a/b' values")
    hand = [ref_known(value, deck, f"{where} hand") for value in hand_value]
    if not isinstance(drew, bool):
        raise ValueError(f"{where}: 'drew' must be true or false, not {drew!r}")
    if not isinstance(attempts_value, list | tuple):
        raise ValueError(f"{where}: 'attempts' must be a list")
    plays = [
        ref_play(attempt, reference, denominator, deck, f"{where} attempt {i}")
        for i, attempt in enumerate(attempts_value)
    ]
    if any(play["correct"] for play in plays[:-1]):
        raise ValueError(f"{where}: an accepted play ends the turn; it must be the last attempt")
    return {"reference": reference, "hand": hand, "plays": plays}


def ref_evidence(turn: dict[str, Any]) -> tuple[dict[str, float], frozenset[str], list[Any]]:
    reference, plays = turn["reference"], turn["plays"]
    first = plays[0] if plays else None
    p0: dict[str, float] = {}
    if reference is not None:
        cards = list(turn["hand"])
        if first is not None and first["played"] not in cards:
            cards.append(first["played"])
        a, b = reference
        options = [tags_for(a, b, c, d, CLAIM_EQUAL) for c, d in cards if a * d != b * c]
        counts: dict[str, int] = {}
        for tags in options:
            for rule in tags:
                counts[rule] = counts.get(rule, 0) + 1
        p0 = {rule: count / len(options) for rule, count in counts.items()}
    probes = [play["tags"] for play in plays[1:] if not play["correct"]]
    return p0, frozenset(p0), probes


class RefTrack:
    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.k = self.score = 0
        self.expected = 0.0
        self.references: set[Card] = set()
        self.without_reasons, self.with_reasons = RefScore(), RefScore()
        self.fitting_reasons = self.contradicting_reasons = self.other_reasons = 0
        self.reasons_seen = self.opportunities = self.clean = self.clean_run = self.probes = 0
        self.likely_at: int | None = None

    def weigh(self) -> bool:
        return (
            self.reasons_seen > 0
            and self.contradicting_reasons <= REASON_CHANCE * self.other_reasons + 1
        )

    def level(self, alpha: float) -> float:
        return alpha * ALPHA_LIKELY_REASONS / ALPHA_LIKELY if self.weigh() else alpha

    def p_value(self) -> float:
        if self.weigh():
            return self.with_reasons.tail(self.score)
        return self.without_reasons.tail(self.k)

    def clean_needed(self) -> int | None:
        # No warm-up turns in these histories: a re-check would need its offers, none taken.
        return None if self.likely_at is None else RESOLVED_MIN_CLEAN


class RefDiagnosis:
    """The model before the speed-up, as plainly as it was written."""

    def __init__(self, deck: object = None) -> None:
        self.deck = ref_deck(deck)
        values = sorted(self.deck)
        self.possible = {
            rule
            for a, b in values
            for c, d in values
            if (a, b) != (c, d)
            for claim in (CLAIM_EQUAL, CLAIM_DENOMINATOR)
            for rule in tags_for(a, b, c, d, claim)
        }
        self.tested = tuple(r for r in TESTED_RULES if r in self.possible)
        shares = {rule: ALPHA_SHARES.get(rule, 1) for rule in self.tested}
        total = sum(shares.values()) or 1
        self.alpha = {rule: ALPHA_LIKELY * share / total for rule, share in shares.items()}
        self.tracks = {rule: RefTrack(rule) for rule in RULE_IDS}
        self.turns = self.wrong_equal = self.wrong_first = 0

    def add(self, data: object) -> None:
        turn = ref_read_turn(data, self.deck, self.turns)
        p0, opportunities, probes = ref_evidence(turn)
        plays, reference = turn["plays"], turn["reference"]
        first = plays[0] if plays else None
        self.turns += 1
        for tags in probes:
            for rule in tags:
                self.tracks[rule].probes += 1
        if first is None:
            return
        if not first["correct"]:
            self.wrong_first += 1
            if first["claim"] == CLAIM_DENOMINATOR:
                self.tracks["D1"].k += 1
                self.tracks["D1"].expected += 1.0
        wrong_equal = reference is not None and first["claim"] == CLAIM_EQUAL
        wrong_equal = wrong_equal and not first["correct"]
        fitted = first["tags"] if wrong_equal else ()
        if wrong_equal:
            self.wrong_equal += 1
            for rule, p in p0.items():
                self.weigh(self.tracks[rule], p, rule in fitted, first["reason"], reference)
        for rule in opportunities:
            track = self.tracks[rule]
            track.opportunities += 1
            if rule in fitted:
                track.clean_run = 0
            elif first["correct"]:
                track.clean += 1
                track.clean_run += 1

    def weigh(self, track: RefTrack, p: float, fits: bool, reason: Any, reference: Any) -> None:
        track.expected += p
        track.without_reasons.add(p)
        code = REASON_FOR_RULE.get(track.rule)
        if reason is not None and code is not None:
            track.with_reasons.add_with_reason(p, REASON_CHANCE, REASON_WEIGHT)
            track.reasons_seen += 1
            if fits and reason == code:
                track.fitting_reasons += 1
            elif not fits:
                track.other_reasons += 1
                track.contradicting_reasons += reason == code
        else:
            track.with_reasons.add(p)
        if not fits:
            return
        track.k += 1
        track.score += 1 + (REASON_WEIGHT if reason == code and code is not None else 0)
        if reference is not None:
            track.references.add(reference)
        if (
            track.likely_at is None
            and track.rule in self.alpha
            and len(track.references) >= LIKELY_MIN_REFERENCES
            and track.p_value() <= track.level(self.alpha[track.rule])
        ):
            track.likely_at = self.turns - 1

    def status(self, rule: str) -> str:
        if rule not in self.possible:
            return "not_possible"
        if rule not in self.tested:
            return "none"
        track = self.tracks[rule]
        if track.likely_at is not None:
            # Game turns alone never resolve a rule (a warm-up re-check is needed): these
            # histories have no warm-up turns.
            return "likely"
        if track.k >= EMERGING_MIN_MATCHES and track.p_value() <= ALPHA_EMERGING:
            return "emerging"
        return "none"

    def result(self) -> dict[str, dict[str, Any]]:
        out = {}
        for rule in RULE_IDS:
            track = self.tracks[rule]
            n = self.wrong_first if rule == "D1" else self.wrong_equal
            p_value = None if rule == "D1" or not n else track.p_value()
            out[rule] = {
                "status": self.status(rule),
                "k": track.k,
                "expected": round(track.expected, 6),
                "n": n,
                "p_value": p_value,
                "alpha": track.level(self.alpha[rule]) if rule in self.alpha else None,
                "references": len(track.references),
                "reasons": track.fitting_reasons if track.weigh() else 0,
                "opportunities": track.opportunities,
                "clean_run": track.clean_run,
                "clean_needed": track.clean_needed(),
                "likely_at_turn": track.likely_at,
                "probes": track.probes,
                "recheck_offers": 0,
                "recheck_taken": 0,
                "rechecked_at_turn": None,
            }
        return out


def ref_diagnose(turns: list[Any], deck: object = None) -> dict[str, dict[str, Any]]:
    diagnosis = RefDiagnosis(deck)
    for data in turns:
        diagnosis.add(data)
    return diagnosis.result()


# ---------------------------------------------------------------- comparing


def assert_same(new: dict[str, dict[str, Any]], old: dict[str, dict[str, Any]]) -> None:
    assert list(new) == list(old)
    for rule, figures in old.items():
        got = new[rule]
        assert got.keys() == figures.keys(), rule
        for key, want in figures.items():
            if key in ("p_value", "alpha", "expected") and want is not None:
                assert got[key] is not None, (rule, key)
                assert abs(got[key] - want) <= TOLERANCE, (rule, key, got[key], want)
            else:
                assert got[key] == want, (rule, key, got[key], want)


def test_chance_scores_are_bit_for_bit_the_reference():
    """The distributions (so the p-values) are the same floats, not merely close ones."""
    rng = random.Random(5)
    for _ in range(200):
        new, old = ChanceScore(), RefScore()
        for _ in range(rng.randrange(1, 200)):
            p = rng.choice([rng.random(), 0.0, 1.0, 0.5, 1 / 3])
            if rng.random() < 0.4:
                weight, chance = rng.choice([0, 1, 2, 3]), rng.random()
                new.add_with_reason(p, chance, weight)
                old.add_with_reason(p, chance, weight)
            else:
                new.add(p)
                old.add(p)
            assert new.probs == old.probs
            score = rng.randrange(0, len(old.probs) + 2)
            assert new.tail(score) == old.tail(score)


def assert_same_stream(turns: list[Any], deck: object = None) -> None:
    """Compare after every turn (statuses, as the calibration bench reads them) and at the end."""
    new, old = Diagnosis(deck), RefDiagnosis(deck)
    for data in turns:
        new.add(data)
        old.add(data)
        for rule in RULE_IDS:
            assert new.status(rule) == old.status(rule), (rule, new.turns)
            assert new.tracks[rule].likely_at == old.tracks[rule].likely_at, rule
    assert_same(new.result(), old.result())
    assert_same(diagnose(turns, deck), old.result())


IMPROPER_DECK = [f"{n}/{d}" for d in (2, 3, 4, 6, 12) for n in range(1, 2 * d + 1) if n != d]


def random_history(rng: random.Random, deck: list[str], turns: int) -> list[dict[str, Any]]:
    """Return free-form (well-formed) turns: any claim, reasons, probes, named denominators."""
    history: list[dict[str, Any]] = []
    habit = rng.choice(["M1", "M2", "M3", "M6", None])
    for number in range(turns):
        hand = rng.sample(deck, rng.randrange(0, min(10, len(deck))))
        if rng.random() < 0.1:
            denominator = parse_fraction(rng.choice(deck))[1]
            history.append(named_turn(rng, number, denominator, deck, hand))
            continue
        reference = rng.choice(deck)
        a, b = parse_fraction(reference)
        pool = hand if hand and rng.random() < 0.85 else deck
        attempts: list[dict[str, Any]] = []
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
            card = rng.choice(pool)
            if habit and rng.random() < 0.4:
                fitting = [c for c in pool if habit in tags_for(a, b, *parse_fraction(c), "equal")]
                card = rng.choice(fitting) if fitting else card
            claim = rng.choice([None, None, CLAIM_EQUAL, CLAIM_DENOMINATOR])
            made = claim or (CLAIM_EQUAL if parse_fraction(card)[1] != b else CLAIM_DENOMINATOR)
            wrong = bool(tags_for(a, b, *parse_fraction(card), made))
            reason = None
            if wrong and made == CLAIM_EQUAL and rng.random() < 0.5:
                reason = rng.choice(list(REASONS))
                if habit in REASON_FOR_RULE and rng.random() < 0.5:
                    reason = REASON_FOR_RULE[habit]
            attempts.append(
                {"played": card, "claim": claim, "asked": rng.random() < 0.5, "reason": reason}
            )
            if not wrong:
                break
        history.append(
            {
                "turn": number,
                "reference": reference,
                "denominator": b if rng.random() < 0.3 else None,
                "hand": hand,
                "attempts": attempts,
                "drew": rng.random() < 0.3,
            }
        )
    return history


def named_turn(rng: random.Random, number: int, denominator: int, deck: list[str], hand: list[str]):
    card = rng.choice(hand or deck)
    claim = rng.choice([None, CLAIM_DENOMINATOR, CLAIM_EQUAL])
    return {
        "turn": number,
        "reference": None,
        "denominator": denominator,
        "hand": hand,
        "attempts": [{"played": card, "claim": claim, "asked": False, "reason": None}],
        "drew": False,
    }


@pytest.mark.parametrize("seed", range(40))
def test_free_form_histories_give_the_reference_figures(seed):
    rng = random.Random(seed)
    deck = list(DEFAULT_DECK_VALUES) if seed % 4 else IMPROPER_DECK
    history = random_history(rng, deck, rng.choice([5, 60, 200, 450]))
    assert_same_stream(history, None if seed % 4 else deck)


STUDENTS = [
    calibration.Student(),
    calibration.Student(reasons=True),
    calibration.Student(different_denominators=True),
    calibration.Student(habit="M1", reasons=True),
    calibration.Student(habit="M2"),
    calibration.Student(habit="M3", reasons=True, stop_after_likely=True),
    calibration.Student(habit="M2", aim="M2", reasons=True),
]


@pytest.mark.parametrize("student", STUDENTS, ids=repr)
def test_simulated_students_give_the_reference_figures(student):
    for seed in range(6):
        rng = random.Random(1000 + seed)
        habit_on = True
        history = []
        for number in range(300):
            history.append(calibration._turn(rng, student, number, habit_on))
            # A habit that stops half-way exercises "resolved".
            habit_on = not (student.stop_after_likely and number > 150)
        assert_same_stream(history)


def test_simulated_outcomes_are_unchanged_by_the_speed_up():
    """run_student (what bench/diagnosis.py counts) reads the same turns as the reference."""
    student = calibration.Student(habit="M1", reasons=True, stop_after_likely=True)
    outcome = calibration.run_student(student, 7, 120)
    rng = random.Random(7)
    reference = RefDiagnosis()
    habit_on = True
    for number in range(120):
        reference.add(calibration._turn(rng, student, number, habit_on))
        if student.stop_after_likely and habit_on and reference.tracks["M1"].likely_at is not None:
            habit_on = False
    assert outcome.final == {rule: reference.status(rule) for rule in reference.tested}
    assert outcome.likely_at == {
        rule: reference.tracks[rule].likely_at
        for rule in reference.tested
        if reference.tracks[rule].likely_at is not None
    }


def test_repeated_calls_give_the_same_figures_as_the_first():
    """Caches must not carry anything from one student (or call) to the next."""
    rng = random.Random(99)
    histories = [random_history(rng, list(DEFAULT_DECK_VALUES), 80) for _ in range(5)]
    first = [diagnose(history) for history in histories]
    again = [diagnose(history) for history in reversed(histories)][::-1]
    assert first == again
    for history, result in zip(histories, first, strict=True):
        assert_same(result, ref_diagnose(history))


def _good_turn() -> dict[str, Any]:
    return {
        "turn": 3,
        "reference": "1/2",
        "denominator": None,
        "hand": ["1/3", "3/6"],
        "attempts": [{"played": "1/3", "claim": "equal", "asked": True, "reason": None}],
        "drew": False,
    }


def _bad_turns() -> list[Any]:
    changes: list[tuple[str, Any]] = [
        ("turn", "3"),
        ("turn", True),
        ("turn", 3.0),
        ("reference", "9/7"),
        ("reference", 0.5),
        ("reference", "x"),
        ("reference", ["1/2"]),
        ("reference", "2/4"),
        ("denominator", 3),
        ("denominator", 6),
        ("denominator", -2),
        ("denominator", 0),
        ("denominator", True),
        ("hand", "1/3"),
        ("hand", ["1/3", "9/7"]),
        ("hand", ["1/3", 2]),
        ("hand", [["1/3"]]),
        ("hand", ["1/0"]),
        ("drew", 1),
        ("drew", None),
        ("attempts", "x"),
        ("attempts", [1]),
        ("attempts", [{"played": "1/3"}]),
        ("attempts", [{"played": "1/3", "claim": "same", "asked": True, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": ["x"], "asked": True, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": 1, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": True, "reason": "zzz"}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": True, "reason": ["a"]}]),
        (
            "attempts",
            [{"played": "3/6", "claim": "equal", "asked": True, "reason": next(iter(REASONS))}],
        ),
        ("attempts", [{"played": 1, "claim": "equal", "asked": True, "reason": None}]),
        ("attempts", [{"played": "9/7", "claim": "equal", "asked": True, "reason": None}]),
        (
            "attempts",
            [
                {"played": "3/6", "claim": "equal", "asked": True, "reason": None},
                {"played": "1/3", "claim": "equal", "asked": True, "reason": None},
            ],
        ),
    ]
    bad: list[Any] = [[1], ["turn"], [{"turn": 1}], "turns", {"turn": 1}]
    for key, value in changes:
        turn = _good_turn()
        turn[key] = value
        bad.append([_good_turn(), turn])
    bad.append([{**_good_turn(), "reference": None, "denominator": None}])
    named = {**_good_turn(), "reference": None, "denominator": 3}
    bad.append([{**named, "denominator": 0}])
    bad.append([{**named, "denominator": 3.0}])
    bad.append([{**named, "attempts": [{**_good_turn()["attempts"][0], "reason": FIRST_REASON}]}])
    return bad


def test_the_good_turn_is_read_by_the_plain_reading():
    """The bad-input cases change one thing in a turn the fast reading takes."""
    deck = stream.deck_values(None)
    turn = _good_turn()
    assert stream._plain_turn(turn, deck) == stream._checked_turn(turn, deck, 0)
    named = {**turn, "reference": None, "denominator": 3}
    assert stream._plain_turn(named, deck) == stream._checked_turn(named, deck, 0)


@pytest.mark.parametrize("turns", [t for t in _bad_turns() if isinstance(t, list)], ids=repr)
def test_the_plain_reading_refuses_every_bad_turn(turns):
    """The fast reading never takes a turn the checked reading refuses."""
    deck = stream.deck_values(None)
    for index, data in enumerate(turns):
        try:
            stream._checked_turn(data, deck, index)
        except ValueError:
            with pytest.raises((stream._Irregular, LookupError, TypeError, ValueError)):
                stream._plain_turn(data, deck)


@pytest.mark.parametrize("turns", _bad_turns(), ids=repr)
def test_bad_input_raises_the_reference_message(turns):
    with pytest.raises(ValueError) as new:
        diagnose(turns)
    if isinstance(turns, list):
        with pytest.raises(ValueError) as old:
            ref_diagnose(turns)
        assert str(new.value) == str(old.value)
    # The same input once more: a cache must not have kept a half-read turn.
    with pytest.raises(ValueError) as again:
        diagnose(turns)
    assert str(again.value) == str(new.value)
