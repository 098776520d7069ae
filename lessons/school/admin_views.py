"""The school admin's pages: teachers (deactivate, invite) and the retention period."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from lessons.classrooms.access import is_school_admin
from lessons.ent.client import service_url
from lessons.models import EntConnector, TeacherInvitation, User
from lessons.reporting.learning import learning_context, school_curves
from lessons.reporting.reader import reader_lang
from lessons.school import admin_services as services
from lessons.school.retention import school_policy


class PolicyForm(forms.Form):
    """The retention period and what happens to the plays when it ends."""

    months = forms.IntegerField(
        label=gettext_lazy(
            "Months pupils' data are kept after a class is archived or its school year ends"
        ),
        min_value=1,
        max_value=services.RETENTION_MONTHS_MAX,
    )
    keep_pseudonymised = forms.BooleanField(
        label=gettext_lazy(
            "Keep the plays under a pseudonym for research (names and PINs still go)"
        ),
        required=False,
    )


class InvitationForm(forms.Form):
    """Whom an invitation is for (a note for the admin only)."""

    note = forms.CharField(label=gettext_lazy("For whom"), max_length=80, required=False)


def school_admin_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let only signed-in school admins reach the view; others get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_school_admin(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


def _page(
    request: HttpRequest, *, policy: PolicyForm | None = None, status: int = 200
) -> HttpResponse:
    current = school_policy()
    now_invitations = TeacherInvitation.objects.filter(
        used_at__isnull=True, expires_at__gt=timezone.now()
    )[:20]
    signup_url = request.build_absolute_uri(reverse("signup"))
    context = {
        "teachers": services.teachers_of_school(),
        "to_transfer": services.classes_to_transfer(),
        "policy_form": policy
        or PolicyForm(
            initial={"months": current.months, "keep_pseudonymised": current.keep_pseudonymised}
        ),
        "invitation_form": InvitationForm(),
        "invitations": [
            (invitation, f"{signup_url}?{urlencode({'invite': invitation.token})}")
            for invitation in now_invitations
        ],
        "signup_by_invitation": services.signup_needs_invitation(),
        "ent_connectors": [
            (connector, service_url(connector)) for connector in EntConnector.objects.all()
        ],
        **learning_context(school_curves(), reader_lang()),
    }
    return render(request, "school/admin.html", context, status=status)


@school_admin_required
@require_safe
def school_admin(request: HttpRequest) -> HttpResponse:
    """Show the teachers, the invitations and the retention period."""
    return _page(request)


@school_admin_required
@require_POST
def school_teacher_active(request: HttpRequest, teacher_id: int) -> HttpResponse:
    """Deactivate or reactivate a teacher."""
    teacher = get_object_or_404(User, pk=teacher_id, role=User.Role.TEACHER)
    active = request.POST.get("active") == "1"
    try:
        services.teacher_set_active(admin=request.user, teacher=teacher, active=active)  # type: ignore[arg-type]
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            (_("%(name)s can sign in again.") if active else _("%(name)s can no longer sign in."))
            % {"name": teacher.username},
        )
    return redirect("school_admin")


@school_admin_required
@require_POST
def school_invite(request: HttpRequest) -> HttpResponse:
    """Make a one-use sign-up link for a new teacher."""
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The note has at most 80 characters."))
        return redirect("school_admin")
    services.invitation_create(admin=request.user, note=form.cleaned_data["note"])  # type: ignore[arg-type]
    messages.success(request, _("Invitation made: give the new teacher its link below."))
    return redirect("school_admin")


@school_admin_required
@require_POST
def school_policy_set(request: HttpRequest) -> HttpResponse:
    """Set the retention period."""
    form = PolicyForm(request.POST)
    if not form.is_valid():
        return _page(request, policy=form)
    services.policy_set(
        months=form.cleaned_data["months"],
        keep_pseudonymised=form.cleaned_data["keep_pseudonymised"],
    )
    messages.success(request, _("The retention period was saved."))
    return redirect("school_admin")
