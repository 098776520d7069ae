# Copied into the CAS server's own settings directory (it runs in .venv-cas, not in the app):
# django-cas-server's authentication class for the test users of tests/support/cas/users.py.
from cas_server.auth import AuthUser
from django.conf import settings


class TestUsers(AuthUser):
    """Users from settings.UNOCLASS_CAS_USERS: one password for all, attributes per user."""

    def test_password(self, password):
        return (
            self.username in settings.UNOCLASS_CAS_USERS
            and password == settings.UNOCLASS_CAS_PASSWORD
        )

    def attributs(self):
        return dict(settings.UNOCLASS_CAS_USERS.get(self.username, {}))
