"""Bots for empty seats: random, heuristic and a student-like fractions player.

Every bot is pure and seeded: it reads ``game.view(seat)`` (its ``acting`` names the seat the
game waits on) and ``game.legal_actions(seat)``, takes a ``random.Random`` and returns an
action dict, or None when that seat lets others act.
The student bot may return a *wrong* fraction play on purpose: ``play_bot_step`` applies a
move, records such an attempt (the engine raises ``IllegalAction``, or returns a
``wrong_attempt`` event under ``wrong_attempt_penalty``) and then plays a correct move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .cards import COLOUR, COLOURS, DEN, KIND, NUM, POINTS
from .errors import IllegalAction
from .fractions import FractionValue, parse_fraction

Action = dict[str, Any]
View = dict[str, Any]
ErrorProfile = Mapping[str, float]

BOT_KINDS = ("random", "heuristic", "student")
# Out of turn, the random bot acts (catch, jump in, call UNO, Quickos) this often.
RANDOM_INTERRUPT_RATE = 0.25
# The heuristic bot challenges a +4 whose player held at least this many cards before it:
# with that many cards, holding one of the current colour (a bluff) is likely.
CHALLENGE_MIN_CARDS = 5


class EngineGame(Protocol):
    """Describe the part of ``games.engine.Game`` that bots use."""

    def view(self, seat: int | None) -> View: ...

    def legal_actions(self, seat: int) -> list[Action]: ...

    def apply(self, seat: int, action: Action) -> list[dict[str, Any]]: ...


# --- misconceptions ----------------------------------------------------------------------------

MisconceptionRule = Callable[[int, int, int, int], bool]


def _m5(a: int, b: int, c: int, d: int) -> bool:
    """Different factors on top and bottom (either direction)."""

    def scaled(a: int, b: int, c: int, d: int) -> bool:
        return a >= 2 and c % a == 0 and d % b == 0 and c // a != d // b > 1 and c // a > 1

    return scaled(a, b, c, d) or scaled(c, d, a, b)


# For a reference a/b and a card c/d that is NOT equal to it: does the pair fit the
# misconception? (Detection rules of the research notes, on the cards as printed.)
MISCONCEPTIONS: dict[str, MisconceptionRule] = {
    "M1": lambda a, b, c, d: c - a == d - b != 0,  # additive / gap thinking
    "M2": lambda a, b, c, d: a == c and b != d,  # same numerator
    "M2a": lambda a, b, c, d: a == c and b != d and (d % b == 0 or b % d == 0),
    "M3": lambda a, b, c, d: b == d and a != c,  # same denominator claimed "equal"
    "M4": lambda a, b, c, d: d % b == 0 and c == d // b and d // b >= 2 and a >= 2,
    "M5": _m5,
    "M6": lambda a, b, c, d: a * d + b * c == b * d,  # complement
    "M7": lambda a, b, c, d: c * (b - a) == a * d or a * (d - c) == c * b,  # part-part
}
MISS = "miss"  # draws although a fraction equal to the reference is in hand


def validate_profile(profile: ErrorProfile | None) -> dict[str, float]:
    """Return a clean error profile, or raise ValueError naming the bad entry."""
    clean: dict[str, float] = {}
    for key, p in (profile or {}).items():
        if key != MISS and key not in MISCONCEPTIONS:
            known = ", ".join([*MISCONCEPTIONS, MISS])
            raise ValueError(f"unknown error type {key!r} (known: {known})")
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
            raise ValueError(f"the probability of {key!r} must be a number in [0, 1], not {p!r}")
        clean[key] = float(p)
    if sum(clean.values()) > 1 + 1e-9:
        raise ValueError("the probabilities of an error profile add up to more than 1")
    return clean


# --- reading views ---------------------------------------------------------------------------


def _of_type(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a["type"] == kind]


def _reference(view: View) -> FractionValue | None:
    """Return the reference fraction of a fractions view, if one is in force."""
    reference = view.get("reference")
    return parse_fraction(reference) if reference is not None else None


# --- random bot --------------------------------------------------------------------------------


def random_move(game: EngineGame, seat: int, rng: random.Random) -> Action | None:
    """Pick a uniformly random legal action; out of turn, act only now and then."""
    legal = game.legal_actions(seat)
    if not legal:
        return None
    view = game.view(None)
    out_of_turn = view["acting"] != seat and not view["round_over"]
    if out_of_turn and rng.random() >= RANDOM_INTERRUPT_RATE:
        return None
    return dict(rng.choice(legal))


# --- heuristic bot -----------------------------------------------------------------------------


def _colour_counts(hand: Sequence[str]) -> Counter[str]:
    return Counter(c for c in (COLOUR[code] for code in hand) if c is not None)


def _best_colour(hand: Sequence[str]) -> str:
    """Return the colour held most (ties: the first in r, j, v, b)."""
    counts = _colour_counts(hand)
    return max(COLOURS, key=lambda c: (counts[c], -COLOURS.index(c)))


def _best_denominator(hand: Sequence[str]) -> int | None:
    """Return the denominator held most (ties: the smallest), None without fractions."""
    counts = Counter(DEN[c] for c in hand if KIND[c] == "frac")
    if not counts:
        return None
    return min(counts, key=lambda d: (-counts[d], d))


def _card_rank(code: str, colour_counts: Counter[str]) -> tuple[int, int, int]:
    """Rank a playable card: keep wilds for later, shed the colour held most, then points."""
    kind = KIND[code]
    keep = 2 if kind == "+4" else 1 if kind in ("wild", "quickos") else 0
    colour = COLOUR[code]
    return (
        -keep,
        colour_counts[colour] if colour else 0,
        max(POINTS[r].get(code, 0) for r in POINTS),
    )


def _previous_seat(view: View, seat: int) -> int:
    """Return the active seat before ``seat`` in the current direction."""
    n, out = view["players"], set(view["eliminated"])
    prev = (seat - view["direction"]) % n
    while prev in out and prev != seat:
        prev = (prev - view["direction"]) % n
    return int(prev)


def _choose_play(plays: Sequence[Action], view: View, seat: int) -> Action:
    """Choose the best card, then the colour, denominator, function and target for it."""
    hand: list[str] = view["hand"]
    counts = _colour_counts(hand)
    by_card: dict[str, list[Action]] = {}
    for a in plays:
        by_card.setdefault(a["card"], []).append(a)
    card = max(by_card, key=lambda code: (_card_rank(code, counts), code))
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    colour = _best_colour(rest)
    den = _best_denominator(rest)
    sizes = view["hand_sizes"]
    others = [s for s in range(len(sizes)) if s != seat and s not in view["eliminated"]]
    smallest = min(others, key=lambda s: (sizes[s], s)) if others else None
    # Swapping hands pays only when the other hand is clearly smaller than ours after playing.
    swap_pays = smallest is not None and sizes[smallest] < len(rest) - 1
    functions = {"+2": 4, "stop": 3, "swap": 5 if swap_pays else 0, "rev": 1}

    def score(a: Action) -> tuple[int, int, int, int]:
        return (
            1 if a.get("colour") == colour else 0,
            1 if a.get("denominator") == den else 0,
            functions.get(str(a.get("function")), 0),
            1 if a.get("target") == smallest else 0,
        )

    best: Action = max(by_card[card], key=score)
    action = dict(best)
    if view["ruleset"] == "fractions" and KIND[card] == "frac":
        action["claim"] = _claim(view, card)
    return action


def _claim(view: View, card: str) -> str:
    """Say which rule a legal fraction play uses, as a student would ("equal" first)."""
    ref = _reference(view)
    if ref is not None and NUM[card] * ref[1] == ref[0] * DEN[card]:
        return "equal"
    return "denominator"


def heuristic_move(game: EngineGame, seat: int, rng: random.Random) -> Action | None:
    """Play sensibly: catch, call UNO, answer what is awaited, match before drawing.

    Out of turn it catches, calls its own UNO, plays Quickos and jumps in; otherwise None.
    """
    legal = game.legal_actions(seat)
    if not legal:
        return None
    for kind in ("next_round", "catch", "uno", "quickos"):
        found = _of_type(legal, kind)
        if found:
            return dict(found[0])
    view = game.view(seat)
    plays = _of_type(legal, "play")
    if view["acting"] != seat:
        # Jumping in with an identical card sheds a card at no cost; wilds are kept (a +4
        # jumped in as a bluff comes back after a challenge, and the loop could go on).
        jumps = [a for a in plays if COLOUR[a["card"]] is not None]
        return _choose_play(jumps, view, seat) if jumps else None
    awaiting = view["awaiting"]
    if awaiting is not None and awaiting["seat"] == seat and awaiting["kind"] == "challenge":
        prev = _previous_seat(view, seat)
        # The +4's player has already laid it: they held one card more.
        bluff_likely = view["hand_sizes"][prev] + 1 >= CHALLENGE_MIN_CARDS
        return {"type": "challenge" if bluff_likely else "accept"}
    if plays:
        # Aimed practice: lay the reference of a trap the next (aimed) seat holds, if legal.
        traps = getattr(game, "trap_cards", None)
        if traps is not None:
            chosen = traps(seat)
            aimed = [a for a in plays if a["card"] in chosen] if chosen else []
            if aimed:
                return _choose_play(aimed, view, seat)
        return _choose_play(plays, view, seat)
    for kind in ("accept", "pass", "draw"):
        found = _of_type(legal, kind)
        if found:
            return dict(found[0])
    return dict(rng.choice(legal))


# --- student-like fractions bot --------------------------------------------------------------


def _wrong_candidates(view: View, rule: str) -> list[str]:
    """List hand cards whose pair with the reference fits ``rule`` yet is refused by the claim
    "equal" (M3: a same-denominator card, legal only under the other claim)."""
    ref = _reference(view)
    if ref is None:
        return []
    a, b = ref
    den = view.get("denominator")
    test = MISCONCEPTIONS[rule]
    out = []
    for code in view["hand"]:
        if KIND[code] != "frac":
            continue
        c, d = NUM[code], DEN[code]
        if a * d == b * c:
            continue  # equal: not a mistake
        if d == den and rule != "M3":
            continue  # fits by denominator, so the engine could not tell the mistake
        if test(a, b, c, d):
            out.append(code)
    return sorted(set(out))


def _holds_equal(view: View) -> bool:
    ref = _reference(view)
    if ref is None:
        return False
    a, b = ref
    return any(KIND[c] == "frac" and NUM[c] * b == a * DEN[c] for c in view["hand"])


def student_intent(
    game: EngineGame, seat: int, rng: random.Random, profile: ErrorProfile | None
) -> tuple[Action | None, str | None]:
    """Return the student's move and the error type it stands for (None: a correct move)."""
    clean = validate_profile(profile)
    view = game.view(seat)
    if view["ruleset"] != "fractions" or view["acting"] != seat or view["awaiting"]:
        return heuristic_move(game, seat, rng), None
    legal = game.legal_actions(seat)
    just_drew = view["drawn"] is not None  # only the drawn card may go down now
    if clean and not just_drew and not _of_type(legal, "uno"):
        roll = rng.random()
        acc = 0.0
        for error, p in clean.items():
            acc += p
            if roll >= acc:
                continue
            if error == MISS:
                if _holds_equal(view) and _of_type(legal, "draw"):
                    return {"type": "draw"}, MISS
            else:
                candidates = _wrong_candidates(view, error)
                if candidates:
                    card = rng.choice(candidates)
                    return {"type": "play", "card": card, "claim": "equal"}, error
            break
    return heuristic_move(game, seat, rng), None


def student_move(
    game: EngineGame, seat: int, rng: random.Random, profile: ErrorProfile | None = None
) -> Action | None:
    """Play like a student: with the profile's odds, make a typical mistake.

    ``profile`` maps error types to probabilities, e.g. {"M1": 0.2, "M2": 0.1, "miss": 0.1}.
    M1…M7 try a card whose pair with the reference fits that misconception, claiming "equal"
    (when the hand holds one); "miss" draws while a fraction equal to the reference is in hand.
    Otherwise the bot plays like the heuristic bot and claims the rule its play uses.
    """
    return student_intent(game, seat, rng, profile)[0]


# --- one entry point ---------------------------------------------------------------------------


def bot_move(
    game: EngineGame,
    seat: int,
    kind: str,
    rng: random.Random,
    profile: ErrorProfile | None = None,
) -> Action | None:
    """Return the action a bot of ``kind`` takes for ``seat`` now, or None to let others act."""
    if kind == "random":
        return random_move(game, seat, rng)
    if kind == "heuristic":
        return heuristic_move(game, seat, rng)
    if kind == "student":
        return student_move(game, seat, rng, profile)
    raise ValueError(f"unknown bot kind {kind!r} (known: {', '.join(BOT_KINDS)})")


@dataclass
class WrongAttempt:
    """Record a refused (or penalised) play: the action, the engine's code and details."""

    seat: int
    action: Action
    code: str
    error_type: str | None  # the mistake the student bot meant to make ("M1", "miss", ...)
    details: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class BotStep:
    """Hold what one bot step did: the action applied, its events and any wrong attempt.

    The engine saw the wrong attempts first (each with its own events: a penalty draw, or
    none when it was refused), then ``action``; ``events`` are those of ``action`` only.
    """

    seat: int
    action: Action
    events: list[dict[str, Any]]
    wrong: list[WrongAttempt] = field(default_factory=list)
    error_type: str | None = None  # "miss" when the applied action is a missed equivalence


def play_bot_step(
    game: EngineGame,
    seat: int,
    kind: str,
    rng: random.Random,
    profile: ErrorProfile | None = None,
) -> BotStep | None:
    """Let a bot act for ``seat`` and apply it; after a wrong attempt, play a correct move.

    Returns None when the bot chooses not to act. A wrong attempt is recorded in
    ``BotStep.wrong`` (with the engine's error code and details) and is followed by a correct
    move chosen afresh, since a penalty draw may have changed the hand.
    """
    error: str | None = None
    if kind == "student":
        action, error = student_intent(game, seat, rng, profile)
    else:
        action = bot_move(game, seat, kind, rng, profile)
    if action is None:
        return None
    if error is None or error == MISS:
        return BotStep(seat, action, game.apply(seat, action), error_type=error)
    try:
        events = game.apply(seat, action)
    except IllegalAction as exc:
        wrong = WrongAttempt(seat, action, exc.code, error, dict(exc.details))
    else:
        if not events or events[0].get("type") != "wrong_attempt":
            return BotStep(seat, action, events)  # the "mistake" happened to be legal
        first = events[0]
        wrong = WrongAttempt(seat, action, first["code"], error, dict(first["details"]), events)
    fallback = heuristic_move(game, seat, rng)
    if fallback is None:  # cannot happen while the turn stays with the student; kept total
        return BotStep(seat, action, wrong.events, error_type=error)
    return BotStep(seat, fallback, game.apply(seat, fallback), [wrong])


def next_bot_step(
    game: EngineGame,
    kinds: Sequence[str],
    rng: random.Random,
    profiles: Sequence[ErrorProfile | None] | None = None,
) -> BotStep | None:
    """Play one step of an all-bot table: out-of-turn moves first, then the seat awaited.

    Returns None when nobody acts (the game is over).
    """
    view = game.view(None)
    if view["winner"] is not None:
        return None
    actor = view["acting"]
    n = len(kinds)
    if actor is None or _interrupts_possible(view):
        start = rng.randrange(n)
        for i in range(n):
            seat = (start + i) % n
            if seat == actor:
                continue
            step = play_bot_step(game, seat, kinds[seat], rng, profiles[seat] if profiles else None)
            if step is not None:
                return step
    if actor is None:
        return None
    return play_bot_step(game, actor, kinds[actor], rng, profiles[actor] if profiles else None)


def _interrupts_possible(view: View) -> bool:
    """Tell whether a seat other than the actor may act now (spares n legal_actions calls)."""
    awaiting = view["awaiting"]
    return bool(
        view["round_over"]
        or view["options"].get("jump_in")
        or (awaiting is not None and awaiting["kind"] in ("uno", "quickos"))
    )
