"""URLs of the way in: home, teacher accounts, the class page, the pupils' code, PIN and ENT."""

from __future__ import annotations

from django.urls import path

from lessons.home import class_page, ent_views, views

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
    path("classrooms/<int:classroom_id>/", class_page.classroom_detail, name="classroom_detail"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_name, name="join_name"),
    path("join/<str:code>/<int:student_id>/", views.join_pin, name="join_pin"),
    path("ent/<int:connector_id>/login/", ent_views.ent_login, name="ent_login"),
    path("ent/<int:connector_id>/callback/", ent_views.ent_callback, name="ent_callback"),
    path("ent/<int:connector_id>/logout/", ent_views.ent_logout, name="ent_logout"),
    path("ent/link/", ent_views.ent_link, name="ent_link"),
]
