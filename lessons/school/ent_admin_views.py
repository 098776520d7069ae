"""The school admin's ENT connectors (/school/ent/…): add, edit, turn on or off; and the ENT
classes: which class takes each (the school admin gives a contested one to a single class).

No code change adds a school's ENT: a connector is a row, and its service URL (shown on /school/)
is what the ENT's administrator registers.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lessons.ent.client import service_url
from lessons.ent.forms import EntConnectorForm
from lessons.ent.links import (
    CLASS_NAME_GIVE_UNKNOWN,
    class_name_give,
    class_name_takers,
    seen_class_names,
)
from lessons.models import Classroom, EntClassName, EntConnector
from lessons.school.admin_views import school_admin_required


def _form_page(request: HttpRequest, form: EntConnectorForm, status: int = 200) -> HttpResponse:
    connector = form.instance if form.instance.pk else None
    return render(
        request,
        "school/ent_connector.html",
        {
            "form": form,
            "connector": connector,
            "service_url": service_url(connector) if connector else "",
        },
        status=status,
    )


@school_admin_required
@require_http_methods(["GET", "POST"])
def school_ent_new(request: HttpRequest) -> HttpResponse:
    """Add a connector."""
    form = EntConnectorForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            return _form_page(request, form, status=400)
        connector = form.save()
        messages.success(
            request,
            _("Connector added. Give the ENT's administrator its service URL: %(url)s")
            % {"url": service_url(connector)},
        )
        return redirect("school_admin")
    return _form_page(request, form)


@school_admin_required
@require_http_methods(["GET", "POST"])
def school_ent_edit(request: HttpRequest, connector_id: int) -> HttpResponse:
    """Edit a connector (its links to accounts stay)."""
    connector = get_object_or_404(EntConnector, pk=connector_id)
    form = EntConnectorForm(request.POST or None, instance=connector)
    if request.method == "POST":
        if not form.is_valid():
            return _form_page(request, form, status=400)
        form.save()
        messages.success(request, _("The connector was saved."))
        return redirect("school_admin")
    return _form_page(request, form)


@school_admin_required
@require_POST
def school_ent_enabled(request: HttpRequest, connector_id: int) -> HttpResponse:
    """Turn a connector on or off: off, nobody signs in through it (links are kept)."""
    connector = get_object_or_404(EntConnector, pk=connector_id)
    enabled = request.POST.get("enabled")
    if enabled not in {"0", "1"}:
        messages.error(request, _("Choose on or off."))
        return redirect("school_admin")
    connector.enabled = enabled == "1"
    connector.save(update_fields=["enabled"])
    messages.success(
        request,
        (
            _("%(name)s: ENT sign-in is on.")
            if connector.enabled
            else _("%(name)s: ENT sign-in is off.")
        )
        % {"name": connector.name},
    )
    return redirect("school_admin")


@school_admin_required
@require_safe
def school_ent_classes(request: HttpRequest) -> HttpResponse:
    """List the ENT classes seen, the classes that take each, and who gave it."""
    return _classes_page(request)


def _classes_page(request: HttpRequest, status: int = 200) -> HttpResponse:
    rows = []
    for name in sorted(
        set(seen_class_names())
        | set(EntClassName.objects.filter(granted=True).values_list("name", flat=True))
    ):
        takers, granted = class_name_takers(name)
        rows.append({"name": name, "takers": takers, "granted": granted})
    classrooms = Classroom.objects.filter(archived_at__isnull=True).select_related("teacher")
    return render(
        request,
        "ent/school_classes.html",
        {"rows": rows, "classrooms": classrooms.order_by("name", "id")},
        status=status,
    )


@school_admin_required
@require_POST
def school_ent_class_give(request: HttpRequest) -> HttpResponse:
    """Give an ENT class to one class in use, or take the decision back (classroom empty)."""
    name = request.POST.get("name", "")
    raw = request.POST.get("classroom", "")
    classroom = None
    if raw:
        classroom = (
            Classroom.objects.filter(pk=int(raw), archived_at__isnull=True).first()
            if raw.isdigit()
            else None
        )
        if classroom is None:
            messages.error(request, str(CLASS_NAME_GIVE_UNKNOWN))
            return _classes_page(request, status=400)
    try:
        class_name_give(name=name, classroom=classroom, by=request.user)  # type: ignore[arg-type]
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return _classes_page(request, status=400)
    if classroom is None:
        messages.success(
            request, _("%(name)s: the school's decision is taken back.") % {"name": name}
        )
    else:
        messages.success(
            request,
            _("%(name)s is given to the class %(class)s: only its teachers see its pupils.")
            % {"name": name, "class": classroom.name},
        )
    return redirect("school_ent_classes")
