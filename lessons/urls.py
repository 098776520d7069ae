"""URLs of the lessons app (not namespaced: settings refer to `home` and `login`)."""

from __future__ import annotations

from django.urls import path

from lessons import session_views, views
from lessons.reporting.urls import urlpatterns as reporting_urlpatterns

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
    path("classrooms/<int:classroom_id>/", views.classroom_detail, name="classroom_detail"),
    path("classrooms/<int:classroom_id>/roster/", views.classroom_roster, name="classroom_roster"),
    path("classrooms/<int:classroom_id>/cards/", views.classroom_cards, name="classroom_cards"),
    path("students/<int:student_id>/reset-pin/", views.student_reset_pin, name="student_reset_pin"),
    path("students/<int:student_id>/unlock/", views.student_unlock, name="student_unlock"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_name, name="join_name"),
    path("join/<str:code>/<int:student_id>/", views.join_pin, name="join_pin"),
    # Class sessions (lessons.session_views) and the "how we diagnose" page.
    path(
        "classrooms/<int:classroom_id>/sessions/new/",
        session_views.session_new,
        name="session_new",
    ),
    path("sessions/<int:session_id>/", session_views.session_detail, name="session_overview"),
    path("sessions/<int:session_id>/pause/", session_views.session_pause, name="session_pause"),
    path("sessions/<int:session_id>/end/", session_views.session_end, name="session_end"),
    path("sessions/<int:session_id>/seat/", session_views.session_seat, name="session_seat"),
    path("sessions/<int:session_id>/move/", session_views.session_move, name="session_move"),
    path("sessions/<int:session_id>/play/", session_views.session_play, name="session_play"),
    path("diagnosis/", session_views.diagnosis, name="diagnosis"),
]

urlpatterns += reporting_urlpatterns
