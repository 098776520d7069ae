"""The teacher's form to assign practice: how many games, which deck, until when, for whom."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import DECK_CHOICES, DEFAULT_DECK, PICTURE_CHOICES, PICTURES_LABEL
from lessons.classrooms.names import by_name
from lessons.models import Classroom
from lessons.practice.services import MAX_GAMES, today

# A week from today: the form's first date.
DEFAULT_DAYS = 7


class AssignmentForm(forms.Form):
    """Parse an assignment; lessons.practice.services.assignment_create checks every value."""

    games = forms.IntegerField(
        label=_("Games against robots"), initial=3, min_value=1, max_value=MAX_GAMES
    )
    deck = forms.ChoiceField(label=_("Deck"), choices=DECK_CHOICES, initial=DEFAULT_DECK)
    due_on = forms.DateField(
        label=_("Last day to play them"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    warmup = forms.BooleanField(
        label=_("A warm-up round before the first game (“warm-up before Friday”)"),
        required=False,
    )
    pictures = forms.ChoiceField(
        label=PICTURES_LABEL, choices=PICTURE_CHOICES, initial="", required=False
    )
    students = forms.MultipleChoiceField(
        label=_("Students (none ticked: the whole class)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, classroom: Classroom, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classroom = classroom
        self.present = {
            str(s.pk): s for s in by_name(classroom.students.filter(pseudonymised_at__isnull=True))
        }
        field = self.fields["students"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(pk, s.display_name) for pk, s in self.present.items()]
        self.fields["due_on"].initial = today() + timedelta(days=DEFAULT_DAYS)

    def chosen_students(self) -> list[Any]:
        """Return the ticked students (the choices are the class's present students)."""
        return [self.present[pk] for pk in self.cleaned_data.get("students") or []]
