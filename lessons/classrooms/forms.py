"""Forms: field checks and translated error messages; business rules live in services."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.core.validators import RegexValidator
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.pins import PIN_LENGTH
from lessons.classrooms.services import JOIN_PIN_MALFORMED, ROSTER_MAX_LINES
from lessons.models import Classroom, User

ROSTER_MAX_CHARS = 10_000


class TeacherSignUpForm(UserCreationForm[User]):
    """Sign-up for teachers: a username and a password typed twice."""

    # Spelled out rather than inherited from UserCreationForm.Meta, which the stubs do not
    # declare; the same three settings Django's own Meta has, with our User model.
    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}


class ClassroomForm(forms.ModelForm[Classroom]):
    """Name, grade and language of a new classroom."""

    class Meta:
        model = Classroom
        fields = ("name", "grade", "language")
        help_texts = {
            "grade": _("For example CM1, CM2 or 6e."),
            "language": _("Students see the app in this language when they sign in."),
        }


class RosterForm(forms.Form):
    """A pasted list of student names, one a line."""

    names = forms.CharField(
        label=_("Student names"),
        help_text=lazy(
            lambda: (
                _("One name per line, at most %(limit)d at a time.") % {"limit": ROSTER_MAX_LINES}
            ),
            str,
        )(),
        max_length=ROSTER_MAX_CHARS,
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "autocomplete": "off", "spellcheck": "false"}),
    )


class JoinCodeForm(forms.Form):
    """The class code a student copies from the board."""

    code = forms.CharField(
        label=_("Class code"),
        max_length=12,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "input-code",
            }
        ),
    )


class PinForm(forms.Form):
    """A student's 4-digit PIN."""

    # One message in one tone for every malformed PIN (empty, short, long, letters): the regex
    # checks the length too, so no length validator adds Django's "Ensure this value…".
    pin = forms.CharField(
        label=_("Your PIN"),
        error_messages={"required": JOIN_PIN_MALFORMED},
        validators=[RegexValidator(r"^[0-9]{4}\Z", JOIN_PIN_MALFORMED)],
        widget=forms.PasswordInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "pattern": "[0-9]{4}",
                "maxlength": str(PIN_LENGTH),
                "class": "input-pin",
            }
        ),
    )
