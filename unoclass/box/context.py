"""The pupils' address on the box's pages: what `unoclass serve --lan` prints, and its QR code."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from unoclass.box.qr import qr_data_uri


def pupil_address(request: HttpRequest) -> dict[str, str]:
    """Give the templates `pupil_url` and `pupil_qr` (a data URI) when the box serves a LAN."""
    url = str(getattr(settings, "BOX_PUPIL_URL", ""))
    if not url:
        return {}
    return {"pupil_url": url, "pupil_qr": qr_data_uri(url)}
