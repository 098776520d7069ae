"""The blocks of docs/deploy.md that tests run, by the name of their `deploy-test` marker."""

from __future__ import annotations

import re

from tests.support.live import BASE_DIR

GUIDE = BASE_DIR / "docs" / "deploy.md"


def guide_blocks() -> dict[str, str]:
    """Return the guide's marked blocks by name."""
    text = GUIDE.read_text()
    found = re.findall(r"<!-- deploy-test: ([\w-]+) -->\n```\w*\n(.*?)\n```", text, flags=re.S)
    return dict(found)
