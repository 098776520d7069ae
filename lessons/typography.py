"""French typography: a narrow no-break space (U+202F) before ":", ";", "!" and "?", and the
typographic apostrophe (U+2019) in elisions ("l’élève", "n’est").

Applied when the French catalogue is compiled (`manage.py compiletranslations`), so every
translated string follows it, an entry added tomorrow included, while the catalogue keeps the
ordinary space and apostrophe translators type. Pure text: no Django.
"""

from __future__ import annotations

import re
from typing import Final

NNBSP: Final = "\u202f"
APOSTROPHE: Final = "\u2019"
# A space (or a no-break space) that a translator put before the mark: the narrow no-break
# space replaces it. A mark written without a space (an address, a time) is left alone.
_SPACED_MARK = re.compile(r"[ \u00a0\u202f]+([:;!?])")
# A straight quote between a letter and a letter (or a placeholder: "d'%(name)s") is an
# apostrophe; one beside a space, "=" or ">" is a quote of markup (class='x') and stays.
_STRAIGHT_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_]|%\(|\{)")


def french_spacing(text: str) -> str:
    """Return `text` with a narrow no-break space before each spaced ":", ";", "!" and "?"."""
    return _SPACED_MARK.sub(NNBSP + r"\1", text)


def french_apostrophes(text: str) -> str:
    """Return `text` with each straight apostrophe between letters made typographic (’)."""
    return _STRAIGHT_APOSTROPHE.sub(APOSTROPHE, text)


def french_typography(text: str) -> str:
    """Return `text` with French spacing and apostrophes."""
    return french_apostrophes(french_spacing(text))
