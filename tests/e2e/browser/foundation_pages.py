"""The foundation pages the browser walks visit, by who looks at them (None: a visitor)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.conftest import ClassWorld


def foundation_pages(
    world: ClassWorld, *, visitor_more: tuple[str, ...] = (), teacher_more: tuple[str, ...] = ()
) -> dict[Any, list[str]]:
    """Map each viewer to the pages to walk; `*_more` name extra url names without arguments.

    The teacher's extra pages come right after the home page, the visitor's at the end.
    """
    code = world.classroom.join_code
    classroom = [world.classroom.pk]
    return {
        None: [
            reverse("home"),
            reverse("join"),
            reverse("join_name", args=[code]),
            reverse("join_pin", args=[code, world.student.student.pk]),
            reverse("login"),
            reverse("signup"),
            *(reverse(name) for name in visitor_more),
        ],
        world.teacher: [
            reverse("home"),
            *(reverse(name) for name in teacher_more),
            reverse("classroom_detail", args=classroom),
            reverse("classroom_roster", args=classroom),
            reverse("classroom_cards", args=classroom),
            reverse("password_change"),
        ],
        world.student.user: [reverse("home")],
    }
