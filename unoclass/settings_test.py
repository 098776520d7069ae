"""Settings for the test suite: the ordinary settings with test-only defaults."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-0123456789")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from unoclass.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not SQLite's shared in-memory database: only a file honours the busy timeout
    # that lets two connections wait for each other, as the concurrency tests need.
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"unoclass-test-{os.getpid()}.sqlite3")
    }
