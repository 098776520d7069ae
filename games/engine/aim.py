"""Aimed dealing: more turns where one seat meets a trap and a right card at once (fractions).

A diagnosis (lessons.diagnosis) that suspects a misconception passes the table option
``aim_pairs``: [reference, trap] fraction values ("a/b") where playing the trap on the
reference, claiming "equal", fits that misconception. The engine knows no misconception: which
pairs fit a rule is the classifier's one truth, and the engine only checks that the values are
fractions of the deck in use and that a trap is not equal to its reference. ``aim_seat`` is the
student's seat.

A pair is *set up* for the aimed seat when its hand holds a card of the trap's value and a right
card for the reference (a card of the reference's value in another form, else a card of the
reference's denominator; never that trap card). A trap that is a right card itself (M3: the
reference's denominator) is set up alone: the seat already chooses between two claims for it.
Three moments are aimed, each only reordering cards the aimed seat cannot see:

- **the deal**: the aimed hand is given up to AIM_DEAL_PAIRS set-up pairs, and the seat before
  it a card of each of those references, by swapping cards of those hands with seeded cards of
  the draw pile (other hands are not touched);
- **draws**: before a card is drawn, the wanted card nearest the top of the draw pile is moved
  to the top: the aimed seat gets a trap for the reference on the pile that is a legal card
  itself (it meets the choice at once: a drawn card may be played), else a right card (an equal
  value) for a trap it holds alone, else the trap of a pair it does not hold yet, one whose
  reference the seat before holds first; the seat before gets a reference of a pair set up in
  the aimed hand, one it may lay at once first;
- **robot plays**: ``trap_cards(seat)`` lists the cards of the seat before the aimed seat that
  would lay such a reference; the heuristic bot plays one of them when one is legal
  (games/engine/bots.py).

Fairness: the deck's composition never changes and no view shows the pile's order or another
hand, so every engine invariant and the hidden-hand guarantees hold; only which hidden card
comes when is chosen. Without ``aim_pairs`` (the default) nothing here runs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from .cards import DEN, FRACTION, NUM

if TYPE_CHECKING:
    from .deal import Dealing

Value = tuple[int, int]
Pair = tuple[str, str, Value]  # reference "a/b", trap "c/d", reference as numbers

AIM_DEAL_PAIRS = 3


@lru_cache(maxsize=256)
def _parsed(pairs: tuple[tuple[str, str], ...]) -> tuple[Pair, ...]:
    out = []
    for reference, trap in pairs:
        num, den = reference.split("/")
        out.append((reference, trap, (int(num), int(den))))
    return tuple(out)


def aim_pairs(g: Dealing) -> tuple[Pair, ...]:
    """Return the game's aim pairs (empty when it does not aim)."""
    raw = g.opts.get("aim_pairs") if g.ruleset == "fractions" else None
    if not raw:
        return ()
    return _parsed(tuple((str(r), str(t)) for r, t in raw))


def _is_right(reference: Value, card: str) -> bool:
    """Tell whether a fraction card is a right play on the reference (equal, or same bottom)."""
    return NUM[card] * reference[1] == reference[0] * DEN[card] or DEN[card] == reference[1]


def _right_rank(reference: Value, card: str) -> int:
    """Rank right cards: an equal value in another form first (the choice that teaches)."""
    equal = NUM[card] * reference[1] == reference[0] * DEN[card]
    return 2 if equal and DEN[card] != reference[1] else 1 if _is_right(reference, card) else 0


def set_up(hand: list[str], pair: Pair) -> bool:
    """Tell whether the hand holds the pair's trap and, besides it, a right card."""
    _, trap, reference = pair
    traps = [c for c in hand if FRACTION.get(c) == trap]
    if not traps:
        return False
    if _is_right(reference, traps[0]):
        return True  # the trap is a right card itself (same bottom): a choice of claims
    return any(c in FRACTION and _is_right(reference, c) for c in hand)


def aimed_seat(g: Dealing) -> int | None:
    """Return the aimed seat if the game aims and that seat still plays."""
    if not aim_pairs(g):
        return None
    seat = int(g.opts.get("aim_seat", 0))
    return None if g.out[seat] else seat


def seat_before(g: Dealing, seat: int) -> int:
    """Return the active seat that plays just before ``seat`` in the current direction."""
    prev = (seat - g.direction) % g.n
    while g.out[prev] and prev != seat:
        prev = (prev - g.direction) % g.n
    return prev


def aim_deal(g: Dealing, rng: random.Random) -> None:
    """Give the aimed hand set-up pairs and the seat before it their references (after a deal)."""
    seat = aimed_seat(g)
    if seat is None:
        return
    before = seat_before(g, seat)
    kept: set[int] = set()  # positions in the aimed hand already holding a wanted card
    kept_before: set[int] = set()
    pairs = list(aim_pairs(g))
    rng.shuffle(pairs)
    done = 0
    for reference, trap, value in pairs:
        if done == AIM_DEAL_PAIRS:
            break
        hand, pile, trial_kept = list(g.hands[seat]), list(g.pile), set(kept)
        if _bring(hand, pile, _is_value(trap), trial_kept, rng) is None:
            continue
        right_at = _bring(hand, pile, _is_right_card(value, 2), trial_kept, rng)
        if right_at is None:
            right_at = _bring(hand, pile, _is_right_card(value, 1), trial_kept, rng)
        if right_at is None:
            continue
        g.hands[seat][:], g.pile[:] = hand, pile
        kept = trial_kept
        if before != seat:
            _bring(g.hands[before], g.pile, _is_value(reference), kept_before, rng)
        done += 1


Wanted = Callable[[str], bool]


def _is_value(value: str) -> Wanted:
    return lambda card: FRACTION.get(card) == value


def _is_right_card(reference: Value, rank: int) -> Wanted:
    # The trap's own position is already kept, so it is never taken as its right card.
    return lambda card: card in FRACTION and _right_rank(reference, card) == rank


def _bring(
    hand: list[str], pile: list[str], wanted: Wanted, kept: set[int], rng: random.Random
) -> int | None:
    """Make the hand hold a wanted card: keep one it has, else swap one in from the pile.

    Return the card's position in the hand, or None when neither holds one.
    """
    for i, card in enumerate(hand):
        if i not in kept and wanted(card):
            kept.add(i)
            return i
    found = [j for j, card in enumerate(pile) if wanted(card)]
    free = [i for i in range(len(hand)) if i not in kept]
    if not found or not free:
        return None
    j, i = found[rng.randrange(len(found))], free[rng.randrange(len(free))]
    hand[i], pile[j] = pile[j], hand[i]
    kept.add(i)
    return i


def aim_draw(g: Dealing, seat: int) -> None:
    """Move the first card of the draw pile that ``seat`` needs to the top (before a draw)."""
    aimed = aimed_seat(g)
    if aimed is None or not g.pile:
        return
    if seat == aimed:
        _aim_for_aimed(g, seat)
    elif seat == seat_before(g, aimed):
        _aim_for_setter(g, seat, aimed)


def _aim_for_aimed(g: Dealing, seat: int) -> None:
    """Bring the aimed seat a trap, or the right card for a trap it holds alone."""
    pile, pairs, hand = g.pile, aim_pairs(g), g.hands[seat]
    if _trap_for_the_top(g, pairs):
        return
    held = [p for p in pairs if any(FRACTION.get(c) == p[1] for c in hand)]
    lacking = [p[2] for p in held if not set_up(hand, p)]
    # A right card for a trap held alone first, else the trap of another pair.
    if lacking and _to_top(
        pile, lambda c: c in FRACTION and any(_right_rank(r, c) == 2 for r in lacking)
    ):
        return
    traps = {p[1] for p in pairs} - {p[1] for p in held}
    # The trap of a pair whose reference the seat before holds first: it can lay it next.
    before = seat_before(g, seat)
    layable = {FRACTION.get(c) for c in g.hands[before]} if before != seat else set()
    soon = {p[1] for p in pairs if p[0] in layable} & traps
    if soon and _to_top(pile, lambda c: FRACTION.get(c) in soon):
        return
    _to_top(pile, lambda c: FRACTION.get(c) in traps)


def _trap_for_the_top(g: Dealing, pairs: tuple[Pair, ...]) -> bool:
    """Bring a trap for the reference on the pile that is a legal card itself (M3: same bottom).

    So the seat meets the choice of claims at once with the card it draws.
    """
    now = [p for p in pairs if p[0] == g.ref]
    return bool(now) and _to_top(
        g.pile, lambda c: any(FRACTION.get(c) == p[1] and _is_right(p[2], c) for p in now)
    )


def _aim_for_setter(g: Dealing, seat: int, aimed: int) -> None:
    """Bring the seat before the aimed one a reference whose trap the aimed seat holds."""
    pile = g.pile
    ready = {p[0] for p in aim_pairs(g) if set_up(g.hands[aimed], p)}
    if not ready:
        return
    # A reference that may go down at once first (a drawn card may be played).
    if _to_top(pile, lambda c: FRACTION.get(c) in ready and g._fits(c)):
        return
    if any(FRACTION.get(c) in ready for c in g.hands[seat]):
        return
    _to_top(pile, lambda c: FRACTION.get(c) in ready)


def _to_top(pile: list[str], wanted: Wanted) -> bool:
    """Move the wanted card nearest the top of the pile to the top; tell whether one was found."""
    for j in range(len(pile) - 1, -1, -1):
        if wanted(pile[j]):
            pile.append(pile.pop(j))
            return True
    return False


def trap_cards(g: Dealing, seat: int) -> frozenset[str]:
    """Return the cards of ``seat`` that would lay, for the aimed seat next, a set-up reference."""
    aimed = aimed_seat(g)
    if aimed is None or seat == aimed or seat_before(g, aimed) != seat:
        return frozenset()
    ready = {p[0] for p in aim_pairs(g) if set_up(g.hands[aimed], p)}
    return frozenset(c for c in g.hands[seat] if FRACTION.get(c) in ready)
