"""The pages an ENT sign-in can end on when it is refused: one clear reason, a way back."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from lessons.models import EntConnector, EntIdentity

# Each reason: what the reader is told. None names an account or says more than needed.
REASONS = {
    "disabled": _("Signing in with this ENT is turned off. Ask your school."),
    "no_ticket": _("The ENT sent no sign-in ticket. Try again from the ENT."),
    "replayed": _(
        "This sign-in link was already used: a link from the ENT works once. "
        "Sign in with the ENT again."
    ),
    "refused": _("The ENT did not confirm this sign-in. Sign in with the ENT again."),
    "blocked": _("Too many failed sign-ins on this device or from this network. Try again later."),
    "no_id": _("The ENT did not send an account id. Ask your ENT administrator."),
    "other_school": _("This ENT account belongs to another school."),
    "role": _("Only teachers and pupils can sign in to unoclass with the ENT."),
    "wrong_role": _("This ENT account is linked to an account of another kind. Ask your school."),
    "inactive": _("This account is deactivated. Ask your school."),
    "insecure": _("This ENT's server is not reached over HTTPS. Ask your school."),
    "expired": _("The ENT sign-in took too long. Sign in with the ENT again."),
    "state": _(
        "This ENT sign-in was not started in this browser, was already used or took too long. "
        "If someone sent you this link, do not use it: sign in with the ENT button yourself."
    ),
    "ambiguous_role": _(
        "The ENT says this account is both a teacher and a pupil: unoclass cannot tell which. "
        "Ask your ENT administrator."
    ),
}

STATUS = {"blocked": 429, "no_ticket": 400, "replayed": 400, "state": 400}


def ent_refusal(
    request: HttpRequest, reason: str, connector: EntConnector | None = None
) -> HttpResponse:
    """Render the refusal page for a reason (403 unless it says otherwise)."""
    return render(
        request,
        "ent/refused.html",
        {"message": REASONS[reason], "reason": reason, "connector": connector},
        status=STATUS.get(reason, 403),
    )


def linked_user_refusal(
    request: HttpRequest, connector: EntConnector, identity: EntIdentity, *, teacher: bool
) -> HttpResponse | None:
    """Refuse a linked account of the other kind than the ENT's role, or a deactivated one."""
    user = identity.user
    if user.is_teacher != teacher:
        return ent_refusal(request, "wrong_role", connector)
    if not user.is_active:
        return ent_refusal(request, "inactive", connector)
    return None
