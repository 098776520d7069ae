"""Settings of unoclass on one machine (`unoclass serve`): a teacher's laptop or a school box.

The ordinary settings (unoclass/settings.py) with the embedded defaults: SQLite in WAL mode in
the data folder (UNOCLASS_DATA, else the platform's usual place: unoclass/box/data_folder.py),
the in-memory channel layer and the local-memory cache (no REDIS_URL), DEBUG off with a secret
key generated once and kept in the data folder, plain http (a classroom's Wi-Fi has no
certificate), teachers signing up by invitation only (the first one through the set-up link
`unoclass serve` prints). ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS come from the addresses the
command serves (unoclass/box/addresses.py), UNOCLASS_PUPIL_URL is the address pupils join at.
"""

import os
from pathlib import Path

from unoclass.box.data_folder import database_path, folder_ready, secret_key

DATA_DIR = folder_ready(
    Path(os.environ["UNOCLASS_DATA"]) if os.environ.get("UNOCLASS_DATA") else None
)

# Forced, not defaults: a developer's DEBUG=1 or DATABASE_URL must not leak into the box.
os.environ["DEBUG"] = "0"
os.environ["SECRET_KEY"] = secret_key(DATA_DIR)
os.environ["DATABASE_URL"] = f"sqlite:///{database_path(DATA_DIR)}"
os.environ["STATIC_ROOT"] = str(DATA_DIR / "static")
os.environ.pop("REDIS_URL", None)
for _plain_http in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
    os.environ[_plain_http] = "0"
os.environ["SECURE_HSTS_SECONDS"] = "0"
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("TEACHER_SIGNUP", "invitation")

from unoclass.settings import *  # noqa: E402,F403

# Whoever reaches the box over plain http on the school's network: no HSTS preload either.
SECURE_HSTS_INCLUDE_SUBDOMAINS = False
SECURE_HSTS_PRELOAD = False
# The pupils' address and its QR code on the teacher's home and live session pages.
BOX_PUPIL_URL = os.environ.get("UNOCLASS_PUPIL_URL", "")
TEMPLATES[0]["OPTIONS"]["context_processors"] = [  # type: ignore[index]  # noqa: F405
    *TEMPLATES[0]["OPTIONS"]["context_processors"],  # type: ignore[index]  # noqa: F405
    "unoclass.box.context.pupil_address",
]
