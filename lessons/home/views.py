"""The way in: the home page, teacher sign-up and sign-in, the pupils' class code and PIN."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse, reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from lessons.classrooms import selectors, services
from lessons.classrooms.access import teacher_required
from lessons.classrooms.forms import (
    JoinCodeForm,
    PinForm,
    TeacherSignUpForm,
)
from lessons.classrooms.login_limit import LimitedAuthenticationForm
from lessons.classrooms.sign_in_limit import client_of, with_device
from lessons.ent.pupils import pupil_connectors
from lessons.home.landing import (
    STUDENT_BACKEND,
    STUDENT_DEVICE_COOKIE,
    STUDENT_DEVICE_SECONDS,
    student_land,
)
from lessons.models import Classroom, EntConnector
from lessons.practice.home import practice_next
from lessons.school.signup import signup_closed_page, signup_invitation_use, signup_refusal
from lessons.sessions.selectors import session_card_for_student
from lessons.warmup.selectors import open_rounds_for_student


def _practice_url() -> str | None:
    # Live play adds `games:practice`; until then the student home shows the entry unlinked.
    try:
        return reverse("games:practice")
    except NoReverseMatch:
        return None


def home(request: HttpRequest) -> HttpResponse:
    """Show the landing page, the teacher's classrooms, or the student's class (a read)."""
    user = request.user
    if not user.is_authenticated:
        return render(request, "lessons/home_visitor.html")
    if getattr(user, "is_student", False):
        student = selectors.student_for_user(user=user)
        return render(
            request,
            "lessons/home_student.html",
            {
                "student": student,
                "practice_url": _practice_url(),
                **practice_next(student=student),
                **session_card_for_student(student=student),
                "warmups": list(open_rounds_for_student(student=student)),
            },
        )
    classrooms = selectors.classrooms_for_teacher(teacher=user)
    return render(request, "lessons/home_teacher.html", {"classrooms": classrooms})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create a teacher account and sign the teacher in."""
    if request.user.is_authenticated:
        return redirect("home")
    if (refusal := signup_refusal(request)) is not None:  # TEACHER_SIGNUP = "invitation"
        return refusal
    form = TeacherSignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = services.teacher_create(
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                signup_invitation_use(request, user)
        except ValidationError as error:
            # Both roll the new account back: another sign-up used the invitation first, or
            # took the username between the form's check and the insert.
            if getattr(error, "code", None) == "invitation":
                return signup_closed_page(request)
            form.add_error(None, error)
            return render(request, "lessons/signup.html", {"form": form})
        login(request, user, backend=STUDENT_BACKEND)
        messages.success(request, _("Welcome! Create your first class."))
        return redirect("classroom_create")
    return render(request, "lessons/signup.html", {"form": form})


@method_decorator(with_device, name="dispatch")  # the device cookie of the sign-in limits
class TeacherLoginView(auth_views.LoginView):
    """Sign a teacher in with username and password."""

    template_name = "lessons/login.html"
    redirect_authenticated_user = True
    authentication_form = LimitedAuthenticationForm  # failed sign-ins limited (login_limit)

    def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        """Send a student's device from a guarded page (`next`) to /join; else show the form.

        A teacher on that device still reaches the form from the menu's "Teacher sign-in".
        """
        if request.COOKIES.get(STUDENT_DEVICE_COOKIE) and request.GET.get("next"):
            return redirect("join")
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        """Add one "Sign in with the ENT" button per enabled connector."""
        context = super().get_context_data(**kwargs)
        context["ent_connectors"] = EntConnector.objects.filter(enabled=True)
        return context

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        """Sign the teacher in; the device is no longer a student's."""
        response = super().form_valid(form)
        if STUDENT_DEVICE_COOKIE in self.request.COOKIES:
            _set_student_device(response, forget=True)
        return response


class TeacherLogoutView(auth_views.LogoutView):
    """Sign anyone out (POST only); a student lands on the class code page, /join.

    Signing out closes the session's sockets too (games.realtime.signout).
    """

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        """Sign out; a student goes to /join, and their device is remembered as a student's."""
        was_student = bool(getattr(request.user, "is_student", False))
        response = super().post(request, *args, **kwargs)
        if not was_student:
            return response
        response = redirect("join")
        _set_student_device(response)
        return response


def _set_student_device(response: HttpResponse, *, forget: bool = False) -> None:
    """Remember (or forget) that this device is a student's: Secure like the session cookie."""
    response.set_cookie(
        STUDENT_DEVICE_COOKIE,
        "" if forget else "1",
        max_age=0 if forget else STUDENT_DEVICE_SECONDS,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
    )


@method_decorator(teacher_required, name="dispatch")
class TeacherPasswordChangeView(auth_views.PasswordChangeView):
    """Let a teacher change their password."""

    template_name = "lessons/password_change.html"
    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form: Any) -> HttpResponse:
        """Change the password; every other device's sign-in ends, its live links too."""
        response = super().form_valid(form)  # keeps this device's session (a new hash)
        services.other_sign_ins_end(user=form.user)
        return response


@method_decorator(teacher_required, name="dispatch")
class TeacherPasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    """Confirm a password change."""

    template_name = "lessons/password_change_done.html"


@with_device
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """Step 1 of student sign-in: the class code."""
    form = JoinCodeForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        try:
            classroom = services.join_classroom_find(
                code=form.cleaned_data["code"], client=client_of(request)
            )
        except ValidationError as error:
            form.add_error("code", error)
        else:
            return redirect("join_name", code=classroom.join_code)
    return render(
        request, "lessons/join_code.html", {"form": form, "ent_connectors": pupil_connectors()}
    )


def _join_classroom(request: HttpRequest, code: str) -> Classroom:
    # A code in the URL counts like a typed one, so guessing codes by URL is rate-limited too.
    try:
        return services.join_classroom_find(code=code, client=client_of(request))
    except ValidationError as error:
        if error.code in {"address_blocked", "device_blocked"}:
            raise PermissionDenied(error.messages[0]) from error
        raise Http404 from error


@with_device
def join_name(request: HttpRequest, code: str) -> HttpResponse:
    """Step 2 of student sign-in: pick your name."""
    classroom = _join_classroom(request, code)
    students = selectors.students_of_classroom(classroom=classroom)
    return render(request, "lessons/join_name.html", {"classroom": classroom, "students": students})


@with_device
@require_http_methods(["GET", "POST"])
def join_pin(request: HttpRequest, code: str, student_id: int) -> HttpResponse:
    """Step 3 of student sign-in: the PIN; success signs the student in, in the class language.

    Signing in also joins the class's session in progress, if any (the student then waits).
    """
    classroom = _join_classroom(request, code)
    # A removed (pseudonymised) pupil has no PIN and no sign-in: no page to try one on.
    student = classroom.students.filter(pk=student_id, pseudonymised_at__isnull=True).first()
    if student is None:
        raise Http404
    form = PinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            student = services.student_sign_in_check(
                classroom=classroom,
                student_id=student_id,
                pin=form.cleaned_data["pin"],
                client=client_of(request),
            )
        except ValidationError as error:
            form.add_error("pin", error)
        else:
            return student_land(request, student)
    return render(
        request, "lessons/join_pin.html", {"classroom": classroom, "student": student, "form": form}
    )
