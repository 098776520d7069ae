"""The school admin's connector form: a preset fills the attribute names the admin leaves empty;
the server is https (http only where ENT_ALLOW_HTTP, under DEBUG); names are plain XML names.
And the teacher's link form: the password once, with a tick naming the ENT account linked.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.login_limit import LimitedAuthenticationForm
from lessons.ent.presets import PRESETS, PresetValues
from lessons.models import EntConnector

ATTRIBUTE_FIELDS = (
    "id_attribute",
    "name_attribute",
    "role_attribute",
    "classes_attribute",
    "school_attribute",
)
ROLE_FIELDS = ("teacher_roles", "pupil_roles")
# An attribute is an XML element name in the CAS answer (cas:externalId, cas:IDO).
ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
# A UAI (school number): seven digits and a letter.
UAI = re.compile(r"^[0-9]{7}[A-Z]$")


def _filled(name: str, value: str, preset: PresetValues | None, before: PresetValues | None) -> str:
    """Return the field's value: the preset's when empty, or when the old preset had filled it."""
    if preset is None:
        return value
    preset_value = str(preset[name])  # type: ignore[literal-required]
    if not value or (before is not None and value == str(before[name])):  # type: ignore[literal-required]
        return preset_value
    return value


EMPTY_ATTRIBUTE = _("Give the attribute's name, or choose a preset that fills it.")


class EntConnectorForm(forms.ModelForm[EntConnector]):
    """Add or edit a connector to an ENT's CAS server."""

    server_url = forms.URLField(
        label=_("CAS server URL"),
        max_length=200,
        assume_scheme="https",
        help_text=_("The CAS server's address, e.g. https://ent.example.fr/cas/"),
    )
    protocol = forms.TypedChoiceField(
        label=_("CAS protocol"), choices=EntConnector.Protocol.choices, coerce=int
    )

    class Meta:
        model = EntConnector
        fields = [
            "name",
            "server_url",
            "protocol",
            "preset",
            *ATTRIBUTE_FIELDS,
            *ROLE_FIELDS,
            "school_uai",
            "creates_teachers",
            "enabled",
        ]
        help_texts = {
            "preset": _("Fills the attribute names and roles you leave empty."),
            "teacher_roles": _("Comma-separated, e.g. Teacher"),
            "pupil_roles": _("Comma-separated, e.g. Student"),
            "school_uai": _("When given, users of another school on this ENT are refused."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Let the preset fill the attribute names and roles: they may be left empty."""
        super().__init__(*args, **kwargs)
        for name in (*ATTRIBUTE_FIELDS, *ROLE_FIELDS):
            self.fields[name].required = False

    def clean_server_url(self) -> str:
        """Require https (http only where the settings allow it), no query or fragment."""
        url = str(self.cleaned_data["server_url"]).strip()
        allow_http = bool(getattr(settings, "ENT_ALLOW_HTTP", False))
        if not (url.lower().startswith("https://") or (allow_http and url.startswith("http://"))):
            raise forms.ValidationError(_("The CAS server's address must start with https://."))
        if "?" in url or "#" in url:
            raise forms.ValidationError(_("The address has no query (?) or fragment (#)."))
        return url

    def clean_school_uai(self) -> str:
        """Normalise the UAI to upper case and check its shape."""
        uai = str(self.cleaned_data.get("school_uai") or "").strip().upper()
        if uai and not UAI.match(uai):
            raise forms.ValidationError(_("A UAI is seven digits and a letter, e.g. 0751234A."))
        return uai

    def clean(self) -> dict[str, Any]:
        """Fill empty names from the preset; check names and roles."""
        data = super().clean() or {}
        preset = PRESETS.get(str(data.get("preset") or ""))
        # Editing: a name the old preset had filled follows a change of preset.
        before = PRESETS.get(str(self.initial.get("preset") or "")) if self.instance.pk else None
        for name in (*ATTRIBUTE_FIELDS, *ROLE_FIELDS):
            value = _filled(name, str(data.get(name) or "").strip(), preset, before)
            data[name] = value
            if not value or (name in ROLE_FIELDS and not EntConnector.split_roles(value)):
                self.add_error(name, EMPTY_ATTRIBUTE)
            elif name in ATTRIBUTE_FIELDS and not ATTRIBUTE_NAME.match(value):
                self.add_error(name, _("An attribute name has letters, digits, _ . - only."))
        teacher = EntConnector.split_roles(str(data.get("teacher_roles", "")))
        pupil = EntConnector.split_roles(str(data.get("pupil_roles", "")))
        if teacher & pupil:
            self.add_error("pupil_roles", _("A role value cannot mean both teacher and pupil."))
        return data


CONFIRM_LINK = _(
    "Link the unoclass account whose password I type here to the ENT account “%(id)s” "
    "(%(name)s, %(ent)s): from now on, that ENT account signs in to it without a password."
)
CONFIRM_MISSING = _("Tick the box to confirm which ENT account is linked to your account.")


class EntLinkForm(LimitedAuthenticationForm):
    """The teacher's password once, and a tick naming the ENT account that will be linked."""

    confirm = forms.BooleanField(
        required=True, error_messages={"required": CONFIRM_MISSING}, label=""
    )

    def __init__(self, *args: Any, ent_id: str, ent_name: str, ent: str, **kwargs: Any) -> None:
        """Name the ENT account in the tick's label."""
        super().__init__(*args, **kwargs)
        self.fields["confirm"].label = CONFIRM_LINK % {
            "id": ent_id,
            "name": ent_name or "—",
            "ent": ent,
        }

    def clean(self) -> dict[str, Any]:
        """Check no password until the link is confirmed (a wrong one still counts)."""
        if "confirm" in self.errors:
            return self.cleaned_data
        return super().clean()
