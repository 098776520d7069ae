"""WSGI entry point (management tools only; the app is served by daphne over ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoclass.settings")
application = get_wsgi_application()
