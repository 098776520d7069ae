"""Forms of the roster file import, of one student's page and of a new school year."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from lessons.classrooms.roster_files import KIND_AUTO, KIND_CSV, KIND_ONDE, KIND_SIECLE
from lessons.models import (
    CLASSROOM_NAME_MAX_LENGTH,
    DISPLAY_NAME_MAX_LENGTH,
    GRADE_MAX_LENGTH,
    Classroom,
    EntConnector,
)


class RosterFileForm(forms.Form):
    """A class list exported from a spreadsheet or the school's information system."""

    file = forms.FileField(
        label=_("Class list (CSV file)"),
        help_text=_(
            "A “Prénom” column (and “Nom”, to tell apart two pupils with the same first name); "
            "separated by ; or , in UTF-8 or Windows encoding."
        ),
        widget=forms.ClearableFileInput(
            attrs={"accept": ".csv,.txt,.zip,.xml,text/csv,text/plain,application/zip"}
        ),
    )
    kind = forms.ChoiceField(
        label=_("Kind of file"),
        choices=[
            (KIND_AUTO, _("Find out from the file")),
            (KIND_CSV, _("A class list (CSV) from a spreadsheet")),
            (KIND_ONDE, _("ONDE export (école): CSVExtraction.csv")),
            (KIND_SIECLE, _("SIECLE export (collège): ExportXML_ElevesSansAdresses.zip")),
        ],
        initial=KIND_AUTO,
        required=False,
    )
    last_names = forms.ChoiceField(
        label=_("Names from an ONDE or SIECLE export"),
        choices=[
            ("initial", _("First name and initial of the last name (Zoé M.)")),
            ("whole", _("First name and whole last name (Zoé MARTIN)")),
        ],
        initial="initial",
        required=False,
        widget=forms.RadioSelect,
        help_text=_("The INE, the date of birth and the other columns are never kept."),
    )

    def __init__(self, *args: Any, connectors: Sequence[EntConnector] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # With several ENTs, an "identifiant ENT" column needs to say which ENT it is from.
        if len(connectors) > 1:
            self.fields["ent"] = forms.ModelChoiceField(
                queryset=EntConnector.objects.filter(pk__in=[c.pk for c in connectors]),
                required=False,
                label=_("ENT of the file's ENT ids"),
                help_text=_("Only if the file has an “identifiant ENT” column."),
            )


class SchoolClassesForm(forms.Form):
    """The classes to take from a school export (a whole school in one file)."""

    classes = forms.MultipleChoiceField(
        label=_("Classes to import"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one class.")},
    )

    def __init__(self, *args: Any, counts: Sequence[tuple[str, int]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["classes"]
        assert isinstance(field, forms.MultipleChoiceField)
        # Classes are chosen by their place in the file's list: a label may be empty or long.
        field.choices = [
            (
                str(index),
                ngettext("%(label)s (%(count)d pupil)", "%(label)s (%(count)d pupils)", count)
                % {"label": label or _("No class"), "count": count},
            )
            for index, (label, count) in enumerate(counts)
        ]
        if len(counts) == 1:
            self.initial.setdefault("classes", ["0"])


class StudentRenameForm(forms.Form):
    """A student's new display name."""

    name = forms.CharField(
        label=_("New name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class StudentMoveForm(forms.Form):
    """Another class of the same teacher."""

    to = forms.ModelChoiceField(
        label=_("Move to the class"), queryset=Classroom.objects.none(), empty_label=None
    )

    def __init__(
        self, *args: object, classrooms: QuerySet[Classroom] | None = None, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["to"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = classrooms if classrooms is not None else Classroom.objects.none()


class StudentRemoveForm(forms.Form):
    """What happens to a removed student's data."""

    mode = forms.ChoiceField(
        label=_("Their data"),
        widget=forms.RadioSelect,
        choices=[
            (
                "erase",
                _(
                    "Erase everything: the name, the PIN and every play. The class's "
                    "statistics no longer count this student."
                ),
            ),
            (
                "pseudonymise",
                _(
                    "Keep the plays for the class's statistics under a pseudonym "
                    "(“Élève retiré 1”): the name, the PIN and the sign-in are erased."
                ),
            ),
        ],
    )


class NewYearForm(forms.Form):
    """The name and grade of the new year's class."""

    name = forms.CharField(label=_("Name of the new class"), max_length=CLASSROOM_NAME_MAX_LENGTH)
    grade = forms.CharField(
        label=_("Grade"),
        max_length=GRADE_MAX_LENGTH,
        required=False,
        help_text=_("For example CM1, CM2 or 6e."),
    )
