"""Forms of the games app: starting a practice table against bots."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.options import PLAYER_LIMITS

RULESET_CHOICES = [
    ("fractions", _("Uno Fractions")),
    ("classic", _("Classic UNO")),
    ("family_quick", _("UNO Family Quick")),
]
BOT_CHOICES = [("heuristic", _("Sensible bots")), ("random", _("Random bots"))]
# The fractions deck levels (engine option "deck", games/engine/cards.py), easiest first.
DECK_CHOICES = [
    ("sixths", _("Denominators 2, 3 and 6")),
    ("twelfths", _("Denominators up to 12")),
    ("full", _("Denominators 2 to 48 (the full deck)")),
    ("improper", _("Up to 12, with fractions greater than one")),
]
DEFAULT_DECK = "full"
# Pictures of the fractions under the card values at a practice table (docs/protocol.md,
# `pictures`), none by default; never at a class session's table.
PICTURES_LABEL = _("With pictures (a bar or the number line)")
PICTURE_CHOICES = [
    ("", _("No pictures")),
    ("bar", _("A bar cut into equal parts")),
    ("line", _("The number line")),
]
TOO_MANY_PLAYERS = _("%(ruleset)s is played by %(low)d to %(high)d players.")


class PracticeForm(forms.Form):
    """Choose a ruleset, the number of bots and a few table settings."""

    ruleset = forms.ChoiceField(label=_("Game"), choices=RULESET_CHOICES, initial="fractions")
    bots = forms.IntegerField(label=_("Number of bots"), min_value=1, max_value=9, initial=3)
    bot = forms.ChoiceField(label=_("Bots"), choices=BOT_CHOICES, initial="heuristic")
    deck = forms.ChoiceField(
        label=_("Deck (Uno Fractions)"), choices=DECK_CHOICES, initial=DEFAULT_DECK, required=False
    )
    pictures = forms.ChoiceField(
        label=PICTURES_LABEL, choices=PICTURE_CHOICES, initial="", required=False
    )
    accessible = forms.BooleanField(
        label=_("Accessible mode (screen reader, no time limit)"), required=False
    )
    highlight_playable = forms.BooleanField(
        label=_("Highlight playable cards (classic UNO only)"), required=False
    )
    stacking = forms.BooleanField(label=_("Stacking +2 and +4 (classic)"), required=False)
    seven_o = forms.BooleanField(label=_("7-0: swap and pass hands (classic)"), required=False)
    jump_in = forms.BooleanField(label=_("Jump-in (classic)"), required=False)

    MAIN_FIELDS = ("ruleset", "deck", "bots")

    def main_fields(self) -> list[forms.BoundField]:
        """Return the fields every child sets: the game, its deck, how many robots."""
        return [self[name] for name in self.MAIN_FIELDS]

    def more_fields(self) -> list[forms.BoundField]:
        """Return the other fields (the robots' kind, the modes, classic UNO's variants)."""
        return [self[name] for name in self.fields if name not in self.MAIN_FIELDS]

    def more_open(self) -> bool:
        """Tell whether "More options" opens by itself: one of its fields has an error."""
        return any(field.errors for field in self.more_fields())

    def clean(self) -> dict[str, Any]:
        """Check the player count against the ruleset's limits."""
        data = super().clean() or {}
        ruleset, bots = data.get("ruleset"), data.get("bots")
        if ruleset in PLAYER_LIMITS and bots is not None:
            low, high = PLAYER_LIMITS[ruleset]
            if not low <= bots + 1 <= high:
                label = dict(RULESET_CHOICES)[ruleset]
                raise forms.ValidationError(
                    TOO_MANY_PLAYERS, params={"ruleset": label, "low": low, "high": high}
                )
        return data

    def engine_options(self) -> dict[str, Any]:
        """Return the engine options the form asked for (the deck level, classic variants)."""
        if self.cleaned_data["ruleset"] == "fractions":
            deck = self.cleaned_data.get("deck") or DEFAULT_DECK
            return {"deck": deck} if deck != DEFAULT_DECK else {}
        if self.cleaned_data["ruleset"] != "classic":
            return {}
        return {
            key: True for key in ("stacking", "seven_o", "jump_in") if self.cleaned_data.get(key)
        }
