"""Forms of the warm-up: an answer, a reason, a re-check for chosen students."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import DECK_CHOICES, DEFAULT_DECK


class AnswerForm(forms.Form):
    """The card the student chose for item number `item` (the service checks both)."""

    item = forms.IntegerField(min_value=1, max_value=1000)
    choice = forms.CharField(max_length=12)


class ReasonForm(forms.Form):
    """The reason the student gave (empty: skipped; the service checks the code)."""

    reason = forms.CharField(max_length=16, required=False)


class RecheckForm(forms.Form):
    """Ask chosen students of a class for a warm-up round (the service checks everything)."""

    students = forms.TypedMultipleChoiceField(
        label=_("Students"), coerce=int, choices=(), widget=forms.CheckboxSelectMultiple
    )
    deck = forms.ChoiceField(label=_("Deck"), choices=DECK_CHOICES, initial=DEFAULT_DECK)
    due_on = forms.DateField(
        label=_("Answer before (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    practice = forms.BooleanField(
        label=_("A warm-up for everyone chosen, not a re-check"), required=False
    )

    def __init__(self, *args: object, students: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["students"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = students
