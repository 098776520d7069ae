"""French typography: a narrow no-break space (U+202F) before ":", ";", "!" and "?".

Applied when the French catalogue is compiled (`manage.py compiletranslations`), so every
translated string follows it, an entry added tomorrow included, while the catalogue keeps the
ordinary space translators type. Pure text: no Django.
"""

from __future__ import annotations

import re
from typing import Final

NNBSP: Final = "\u202f"
# A space (or a no-break space) that a translator put before the mark: the narrow no-break
# space replaces it. A mark written without a space (an address, a time) is left alone.
_SPACED_MARK = re.compile(r"[ \u00a0\u202f]+([:;!?])")


def french_spacing(text: str) -> str:
    """Return `text` with a narrow no-break space before each spaced ":", ";", "!" and "?"."""
    return _SPACED_MARK.sub(NNBSP + r"\1", text)
