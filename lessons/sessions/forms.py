"""Forms of class sessions: the teacher's settings, and moving a student."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import DECK_CHOICES, DEFAULT_DECK, RULESET_CHOICES
from lessons.sessions.services import MAX_TURN_TIMER


class SessionStartForm(forms.Form):
    """Choose the game, the table size and the main options of a class session.

    The form only parses; lessons.sessions.services.session_start checks every value.
    """

    ruleset = forms.ChoiceField(label=_("Game"), choices=RULESET_CHOICES, initial="fractions")
    table_size = forms.IntegerField(
        label=_("Players per table"),
        initial=4,
        help_text=_("Uno Fractions: 2 to 5. Classic UNO and Family Quick: 2 to 10."),
    )
    turn_timer = forms.IntegerField(
        label=_("Turn timer (seconds, 0 = none)"),
        initial=0,
        min_value=0,
        max_value=MAX_TURN_TIMER,
    )
    accessible = forms.BooleanField(
        label=_("Accessible mode (screen reader, no time limit)"), required=False
    )
    animations_off = forms.BooleanField(
        label=_("Animations off (no card moves on the students' screens)"), required=False
    )
    mute = forms.BooleanField(label=_("No sound at the tables"), required=False)
    wrong_attempt_penalty = forms.IntegerField(
        label=_("Cards drawn after a wrong fraction (Uno Fractions, 0 = the card just comes back)"),
        initial=0,
        min_value=0,
        max_value=10,
        required=False,
    )
    ask_reason = forms.BooleanField(
        label=_('Ask "why did you think they were equal?" after a wrong fraction (Uno Fractions)'),
        initial=True,
        required=False,
    )
    warmup = forms.BooleanField(
        label=_("Start with a warm-up round (Uno Fractions)"),
        help_text=_(
            "Each student first answers a few cards on their own device (3 to 5 minutes, no "
            "score). You then see the class picture and seat the tables, by need if you wish."
        ),
        initial=True,
        required=False,
    )
    deck = forms.ChoiceField(
        label=_("Deck (Uno Fractions)"), choices=DECK_CHOICES, initial=DEFAULT_DECK, required=False
    )
    stacking = forms.BooleanField(label=_("Stacking +2 and +4 (classic)"), required=False)
    seven_o = forms.BooleanField(label=_("7-0: swap and pass hands (classic)"), required=False)
    jump_in = forms.BooleanField(label=_("Jump-in (classic)"), required=False)

    def common_fields(self) -> list[forms.BoundField]:
        """Return the fields every game has, in order (any field not one game's own)."""
        own = {name for names in GAME_FIELDS.values() for name in names}
        return [self[name] for name in self.fields if name not in own]

    def game_fields(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """Return each game's own options: (ruleset, its name, its fields)."""
        names = dict(RULESET_CHOICES)
        return [
            (ruleset, str(names[ruleset]), [self[name] for name in fields])
            for ruleset, fields in GAME_FIELDS.items()
        ]

    def options(self) -> dict[str, Any]:
        """Return the rule options the teacher set for the chosen game."""
        data = self.cleaned_data
        if data["ruleset"] == "fractions":
            penalty = data.get("wrong_attempt_penalty") or 0
            deck = data.get("deck") or DEFAULT_DECK
            options = {"wrong_attempt_penalty": penalty} if penalty else {}
            return options | ({"deck": deck} if deck != DEFAULT_DECK else {})
        if data["ruleset"] == "classic":
            return {key: True for key in ("stacking", "seven_o", "jump_in") if data.get(key)}
        return {}


# The options that belong to one game: the page shows only the chosen game's (all of them,
# each under its game's name, without JavaScript).
GAME_FIELDS: dict[str, tuple[str, ...]] = {
    "fractions": ("deck", "wrong_attempt_penalty", "ask_reason"),
    "classic": ("stacking", "seven_o", "jump_in"),
}


class MoveForm(forms.Form):
    """Move a student to a table number, or back to the waiting list (empty table)."""

    student = forms.IntegerField(label=_("Student"), min_value=1)
    table = forms.IntegerField(label=_("Table"), min_value=1, required=False)
