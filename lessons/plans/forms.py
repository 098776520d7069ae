"""The teacher's form of a group plan: the activity, the children, the days (services check)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.names import by_name
from lessons.models import Classroom, GroupPlan
from lessons.plans.activities import ACTIVITIES

DATE_WIDGET = {"widget": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}


class PlanForm(forms.Form):
    """Parse a plan; lessons.plans.services checks every value against the class and the days."""

    activity = forms.ChoiceField(label=_("Activity with the group (15-20 min)"), choices=())
    students = forms.TypedMultipleChoiceField(
        label=_("Children"), coerce=int, choices=(), widget=forms.CheckboxSelectMultiple
    )
    game1_on = forms.DateField(label=_("First game"), **DATE_WIDGET)  # type: ignore[arg-type]
    game2_on = forms.DateField(label=_("Second game"), **DATE_WIDGET)  # type: ignore[arg-type]
    game3_on = forms.DateField(label=_("Third game"), **DATE_WIDGET)  # type: ignore[arg-type]
    recheck_on = forms.DateField(
        label=_("Re-check (a week after the last game or later)"),
        **DATE_WIDGET,  # type: ignore[arg-type]
    )

    def __init__(self, *args: Any, classroom: Classroom, lang: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        activity = self.fields["activity"]
        assert isinstance(activity, forms.ChoiceField)
        activity.choices = [
            (key, str(item.text(lang)["title"])) for key, item in ACTIVITIES.items()
        ]
        students = self.fields["students"]
        assert isinstance(students, forms.TypedMultipleChoiceField)
        present = by_name(classroom.students.filter(pseudonymised_at__isnull=True))
        students.choices = [(s.pk, s.display_name) for s in present]

    @staticmethod
    def initial_of(plan: GroupPlan) -> dict[str, Any]:
        """Return the form's values for an existing plan."""
        return {
            "activity": plan.activity,
            "students": list(plan.memberships.values_list("student_id", flat=True)),
            "game1_on": plan.game1_on,
            "game2_on": plan.game2_on,
            "game3_on": plan.game3_on,
            "recheck_on": plan.recheck_on,
        }

    def games(self) -> list[Any]:
        """Return the three game days entered."""
        return [self.cleaned_data[f"game{n}_on"] for n in (1, 2, 3)]


class DoneForm(forms.Form):
    """The day the activity was done with the group (empty: today)."""

    on = forms.DateField(label=_("Done on"), required=False, **DATE_WIDGET)  # type: ignore[arg-type]


# Which field shows a service's refusal.
ERROR_FIELDS = {
    "unknown_activity": "activity",
    "no_members": "students",
    "not_in_class": "students",
    "bad_dates": "game1_on",
    "past": None,
    "too_far": None,
    "recheck_too_soon": "recheck_on",
}
