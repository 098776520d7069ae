"""View decorators that let only teachers or only students through.

Anonymous visitors are sent to the sign-in page; a signed-in user with the wrong role gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, cast

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from lessons.models import User

P = ParamSpec("P")


class SignedInRequest(HttpRequest):
    """A request whose user is signed in: what the decorators below hand their view."""

    user: User


Guarded = Callable[Concatenate[SignedInRequest, P], HttpResponseBase]
Open = Callable[Concatenate[HttpRequest, P], HttpResponseBase]


def _role_required(role_check: str) -> Callable[[Guarded[P]], Open[P]]:
    def decorator(view: Guarded[P]) -> Open[P]:
        @wraps(view)
        def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not getattr(request.user, role_check, False):
                raise PermissionDenied
            # Checked just above: the user is signed in, so it is one of our Users.
            return view(cast(SignedInRequest, request), *args, **kwargs)

        return wrapper

    return decorator


teacher_required = _role_required("is_teacher")
teacher_required.__doc__ = "Let only signed-in teachers reach the view."
student_required = _role_required("is_student")
student_required.__doc__ = "Let only signed-in students reach the view."


def is_school_admin(user: object) -> bool:
    """Tell whether the user is an active teacher with the school admin role."""
    return bool(
        getattr(user, "is_teacher", False)
        and getattr(user, "is_staff", False)
        and getattr(user, "is_active", False)
    )
