"""The CAS flow's views: off to the ENT, back with a ticket, the ENT's single sign-out, and the
teacher's one-time link. Thin: the work is in client, tickets, teachers and pupils.
"""

from __future__ import annotations

import logging

from cas import SingleLogoutMixin
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lessons.classrooms import sign_in_limit
from lessons.classrooms.sign_in_limit import with_device
from lessons.ent import client, teachers
from lessons.ent.forms import EntLinkForm
from lessons.ent.pages import ent_refusal
from lessons.ent.profile import profile_from_answer
from lessons.ent.states import STATE_PARAMETER, state_start, state_take
from lessons.ent.tickets import (
    TICKET_MAX_LENGTH,
    single_sign_out,
    ticket_claim,
    ticket_remember_session,
)
from lessons.home.ent_pupils import sign_in_pupil
from lessons.models import EntConnector, EntIdentity, User

logger = logging.getLogger(__name__)

# A logoutRequest is a few hundred bytes; anything much larger is not one.
LOGOUT_REQUEST_MAX_BYTES = 16 * 1024


def safe_next(candidate: str | None) -> str:
    """Return `next` if it is a local path of this site, else "" (no open redirect)."""
    if not candidate:
        return ""
    if url_has_allowed_host_and_scheme(candidate, allowed_hosts=set()) and candidate.startswith(
        "/"
    ):
        return candidate
    return ""


@with_device
@require_safe
def ent_login(request: HttpRequest, connector_id: int) -> HttpResponse:
    """Send the browser to the ENT's CAS sign-in page; keep a safe local `next` for after."""
    connector = get_object_or_404(EntConnector, pk=connector_id)
    if not connector.enabled:
        return ent_refusal(request, "disabled", connector)
    if not client.server_is_secure(connector):
        return ent_refusal(request, "insecure", connector)
    state = state_start(request, connector.pk, safe_next(request.GET.get("next")))
    return redirect(client.login_url(connector, state))


@csrf_exempt  # the ENT's server POSTs single sign-out here (CAS posts to the service URL)
@with_device
@require_http_methods(["GET", "POST"])
def ent_callback(request: HttpRequest, connector_id: int) -> HttpResponse:
    """Validate the ticket with the connector's server, once, then sign the user in by role."""
    connector = get_object_or_404(EntConnector, pk=connector_id)
    if request.method == "POST":
        return _logout_request(request, connector)
    if not connector.enabled:
        return ent_refusal(request, "disabled", connector)
    if not client.server_is_secure(connector):
        return ent_refusal(request, "insecure", connector)
    ticket = request.GET.get("ticket", "")
    if not ticket or len(ticket) > TICKET_MAX_LENGTH:
        return ent_refusal(request, "no_ticket", connector)
    # Before the ticket is claimed or sent to the ENT: a callback this browser did not start
    # (someone else's ticket URL, an old or a reused one) changes nothing (lessons.ent.states).
    state = request.GET.get(STATE_PARAMETER, "")
    started = state_take(request, connector.pk, state)
    if started is None:
        return ent_refusal(request, "state", connector)
    # Refused tickets count apart from passwords (kind "ent"): a device that signed in with
    # this ENT before is stopped only by its own count, not by the school address's.
    attempt = sign_in_limit.client_of(request)
    trust = sign_in_limit.account_for_ent(connector.pk)
    if sign_in_limit.refusal("ent", attempt, trust) is not None:
        return ent_refusal(request, "blocked", connector)
    sign_in = ticket_claim(connector, ticket)
    if sign_in is None:
        sign_in_limit.failure("ent", attempt, trust)
        return ent_refusal(request, "replayed", connector)
    answer = client.validate_ticket(connector, ticket, state)
    if answer is None:
        sign_in_limit.failure("ent", attempt, trust)
        return ent_refusal(request, "refused", connector)
    attempt.device.trust([trust])
    profile = profile_from_answer(connector, *answer)
    if profile is None:
        return ent_refusal(request, "no_id", connector)
    if connector.school_uai and connector.school_uai.upper() not in {
        school.upper() for school in profile.schools
    }:
        return ent_refusal(request, "other_school", connector)
    if profile.role_ambiguous:
        return ent_refusal(request, "ambiguous_role", connector)
    if profile.role is None:
        return ent_refusal(request, "role", connector)
    next_url = safe_next(started["next"])
    if request.user.is_authenticated:
        logout(request)  # the ENT now vouches for someone: the previous sign-in ends here
    identity = (
        EntIdentity.objects.select_related("user")
        .filter(connector=connector, external_id=profile.external_id)
        .first()
    )
    if profile.role == "teacher":
        response = teachers.sign_in_teacher(
            request,
            connector=connector,
            profile=profile,
            identity=identity,
            sign_in=sign_in,
            next_url=next_url,
        )
    else:
        response = sign_in_pupil(request, connector=connector, profile=profile, identity=identity)
    ticket_remember_session(sign_in, request)
    return response


def _logout_request(request: HttpRequest, connector: EntConnector) -> HttpResponse:
    """End the session of the ticket a CAS logoutRequest names; always answer 200 to the ENT.

    Only from the connector's CAS server (client.logout_sender_allowed), and only a ticket of
    this connector: a used ticket in anyone else's hands signs nobody out.
    """
    body = request.POST.get("logoutRequest", "")
    sender = str(request.META.get("REMOTE_ADDR") or "")
    if not client.logout_sender_allowed(connector, sender):
        logger.warning("ENT single sign-out refused: not from the connector's CAS server")
        return HttpResponse(status=200)
    if body and len(body) <= LOGOUT_REQUEST_MAX_BYTES:
        indexes = SingleLogoutMixin.get_saml_slos(body.encode("utf-8")) or []
        for index in indexes[:1]:
            ticket = (index.text or "").strip()
            if (
                ticket
                and len(ticket) <= TICKET_MAX_LENGTH
                and single_sign_out(ticket, connector=connector)
            ):
                logger.info("ENT single sign-out ended a session")
    return HttpResponse(status=200)


@csrf_exempt  # a server-to-server POST from the ENT: no browser, no CSRF token
@require_POST
def ent_logout(request: HttpRequest, connector_id: int) -> HttpResponse:
    """Receive the ENT's single sign-out (a SAML logoutRequest naming the ticket)."""
    return _logout_request(request, get_object_or_404(EntConnector, pk=connector_id))


@with_device  # its password form counts in the sign-in limits
@require_http_methods(["GET", "POST"])
def ent_link(request: HttpRequest) -> HttpResponse:
    """Link the ENT account to an existing teacher account (password once), or create one."""
    pending = teachers.pending_link(request)
    if pending is None:
        return ent_refusal(request, "expired")
    connector = EntConnector.objects.get(pk=pending["connector"])
    form = EntLinkForm(
        request,
        data=request.POST or None,
        ent_id=str(pending["external_id"]),
        ent_name=str(pending.get("display_name", "")),
        ent=connector.name,
    )
    if request.method == "POST" and request.POST.get("action") == "create":
        if not connector.creates_teachers:
            return ent_refusal(request, "disabled", connector)
        user = teachers.teacher_create_from_ent(pending=pending)
        return teachers.finish_link(request, user, pending)
    if request.method == "POST" and form.is_valid():
        user = form.get_user()
        if not isinstance(user, User) or not user.is_teacher:
            form.add_error(None, teachers.NOT_A_TEACHER)
        else:
            try:
                teachers.link_create(pending=pending, user=user)
            except teachers.AlreadyLinked:
                form.add_error(None, teachers.ALREADY_LINKED)
            else:
                return teachers.finish_link(request, user, pending)
    return render(
        request,
        "ent/link.html",
        {
            "form": form,
            "connector": connector,
            "display_name": pending.get("display_name", ""),
            "external_id": pending["external_id"],
        },
    )
