"""URLs of the lessons app (not namespaced: settings refer to `home` and `login`)."""

from __future__ import annotations

from lessons.classrooms.urls import urlpatterns as classroom_urls
from lessons.ent.pupil_urls import urlpatterns as ent_pupil_urls
from lessons.home.urls import urlpatterns as home_urls
from lessons.notices.urls import urlpatterns as notice_urls
from lessons.plans.urls import urlpatterns as plan_urls
from lessons.practice.urls import urlpatterns as practice_urls
from lessons.pupils.urls import urlpatterns as pupil_urls
from lessons.reporting.urls import urlpatterns as reporting_urls
from lessons.school.urls import urlpatterns as school_urls
from lessons.sessions.urls import urlpatterns as session_urls
from lessons.warmup.urls import urlpatterns as warmup_urls

urlpatterns = (
    home_urls
    + classroom_urls
    + pupil_urls
    + session_urls
    + reporting_urls
    + notice_urls
    + school_urls
    + practice_urls
    + warmup_urls
    + plan_urls
    + ent_pupil_urls
)
