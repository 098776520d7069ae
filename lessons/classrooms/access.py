"""View decorators that let only teachers or only students through.

Anonymous visitors are sent to the sign-in page; a signed-in user with the wrong role gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

View = Callable[..., HttpResponse]


def _role_required(role_check: str) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not getattr(request.user, role_check, False):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


teacher_required = _role_required("is_teacher")
teacher_required.__doc__ = "Let only signed-in teachers reach the view."
student_required = _role_required("is_student")
student_required.__doc__ = "Let only signed-in students reach the view."
