"""URLs of classrooms: home, teacher accounts, classes and rosters, the students' way in."""

from __future__ import annotations

from django.urls import path

from lessons.classrooms import (
    school_file_views,
    sharing_views,
    student_views,
    views,
    year_views,
)

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.TeacherLoginView.as_view(), name="login"),
    path("logout/", views.TeacherLogoutView.as_view(), name="logout"),
    path("password/", views.TeacherPasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        views.TeacherPasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("classrooms/new/", views.classroom_create, name="classroom_create"),
    path("classrooms/archived/", year_views.classrooms_archived, name="classrooms_archived"),
    path(
        "classrooms/<int:classroom_id>/archive/",
        year_views.classroom_archive_view,
        name="classroom_archive",
    ),
    path(
        "classrooms/<int:classroom_id>/new-year/",
        year_views.classroom_new_year_view,
        name="classroom_new_year",
    ),
    path(
        "classrooms/<int:classroom_id>/co-teachers/add/",
        sharing_views.co_teacher_add_view,
        name="co_teacher_add",
    ),
    path(
        "classrooms/<int:classroom_id>/co-teachers/remove/",
        sharing_views.co_teacher_remove_view,
        name="co_teacher_remove",
    ),
    path(
        "classrooms/<int:classroom_id>/transfer/",
        sharing_views.classroom_transfer_view,
        name="classroom_transfer",
    ),
    path("classrooms/<int:classroom_id>/", views.classroom_detail, name="classroom_detail"),
    path("classrooms/<int:classroom_id>/roster/", views.classroom_roster, name="classroom_roster"),
    path("classrooms/<int:classroom_id>/cards/", views.classroom_cards, name="classroom_cards"),
    path(
        "classrooms/<int:classroom_id>/import/",
        student_views.classroom_import,
        name="classroom_import",
    ),
    path(
        "classrooms/<int:classroom_id>/import/classes/",
        school_file_views.classroom_import_classes,
        name="classroom_import_classes",
    ),
    path(
        "classrooms/<int:classroom_id>/import/confirm/",
        student_views.classroom_import_confirm,
        name="classroom_import_confirm",
    ),
    path("students/<int:student_id>/", student_views.student_manage, name="student_manage"),
    path(
        "students/<int:student_id>/rename/",
        student_views.student_rename_view,
        name="student_rename",
    ),
    path("students/<int:student_id>/move/", student_views.student_move_view, name="student_move"),
    path(
        "students/<int:student_id>/remove/",
        student_views.student_remove_view,
        name="student_remove",
    ),
    path("students/<int:student_id>/reset-pin/", views.student_reset_pin, name="student_reset_pin"),
    path("students/<int:student_id>/unlock/", views.student_unlock, name="student_unlock"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_name, name="join_name"),
    path("join/<str:code>/<int:student_id>/", views.join_pin, name="join_pin"),
]
