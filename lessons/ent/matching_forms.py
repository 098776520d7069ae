"""Forms of a class's ENT matching screen: confirm links, unlink a pupil, name the ENT classes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from lessons.ent.matching import Kind
from lessons.ent.matching_screen import WaitingRow
from lessons.models import Student

CHOOSE_A_PUPIL = _("Choose the pupil of the list for %(name)s, or untick it.")
ROWS_CHANGED = _("The list of ENT pupils waiting has changed. Check it again and confirm.")
NOTHING_TICKED = _("Tick at least one ENT pupil to link.")


class LinkForm(forms.Form):
    """One row per ENT pupil waiting: a tick box and the pupil of the list it is."""

    rows = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, waiting: list[WaitingRow], unlinked: list[Student], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.waiting = waiting
        self.by_pk = {student.pk: student for student in unlinked}
        choices = [("", _("— choose —")), *[(str(s.pk), s.display_name) for s in unlinked]]
        self.fields["rows"].initial = ",".join(str(row.seen.pk) for row in waiting)
        for row in waiting:
            pk = row.seen.pk
            self.fields[f"link_{pk}"] = forms.BooleanField(
                required=False,
                label=_("Link"),
                initial=row.kind is Kind.EXACT,  # only an exact match is pre-ticked
            )
            self.fields[f"pupil_{pk}"] = forms.ChoiceField(
                required=False,
                label=_("Pupil of the list"),
                choices=choices,
                initial=str(row.proposed.pk) if row.proposed else "",
            )

    def row_fields(self) -> list[tuple[WaitingRow, forms.BoundField, forms.BoundField]]:
        """Return each waiting row with its tick box and its choice of pupil."""
        return [
            (row, self[f"link_{row.seen.pk}"], self[f"pupil_{row.seen.pk}"]) for row in self.waiting
        ]

    def clean(self) -> dict[str, Any]:
        """Refuse a stale page, a tick without a pupil, and an empty confirmation."""
        data = super().clean()
        if data is None:
            data = self.cleaned_data
        if data.get("rows") != self.fields["rows"].initial:
            raise forms.ValidationError(ROWS_CHANGED, code="rows_changed")
        choices: dict[int, Student] = {}
        for row in self.waiting:
            if not data.get(f"link_{row.seen.pk}"):
                continue
            chosen = data.get(f"pupil_{row.seen.pk}")
            if not chosen:
                self.add_error(
                    f"pupil_{row.seen.pk}",
                    forms.ValidationError(
                        CHOOSE_A_PUPIL, code="no_pupil", params={"name": row.seen.display_name}
                    ),
                )
                continue
            choices[row.seen.pk] = self.by_pk[int(chosen)]
        if not choices and not self.errors:
            raise forms.ValidationError(NOTHING_TICKED, code="nothing")
        data["choices"] = choices
        return data


class UnlinkForm(forms.Form):
    """The pupil whose ENT link goes."""

    student = forms.TypedChoiceField(coerce=int, label=_("Pupil"))

    def __init__(self, *args: Any, linked: list[Student], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by_pk = {student.pk: student for student in linked}
        field = self.fields["student"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(str(s.pk), s.display_name) for s in linked]


class ClassNamesForm(forms.Form):
    """The ENT class names that are this class (besides its own name)."""

    names = forms.MultipleChoiceField(
        required=False,
        label=_("ENT classes of the pupils waiting"),
        help_text=_(
            "ENT pupils of the ticked ENT classes wait on this page. An ENT class named like "
            "this class is always taken."
        ),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["names"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(name, name) for name in names]
