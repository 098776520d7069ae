"""The `unoclass` command."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Run the command."""
    return 0
