"""Where the app's shared files are: the checkout's folders, or an installed wheel's copies.

Templates, static files and translations live at the checkout's top (templates/, static/,
locale/); the wheel carries them in unoclass/_share/ (setup.py). Pure: no Django, so the
`unoclass` command reads its translations before any settings load.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
CHECKOUT_DIR = PACKAGE_DIR.parent
_WHEEL_SHARE = PACKAGE_DIR / "_share"
SHARE_DIR = _WHEEL_SHARE if _WHEEL_SHARE.is_dir() else CHECKOUT_DIR
