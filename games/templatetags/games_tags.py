"""Template tags of the games pages."""

from __future__ import annotations

from django import template

from games.models import Table
from games.replay import replay_url

register = template.Library()


@register.simple_tag
def play_again_url(table: Table) -> str | None:
    """Return where the player of a practice table asks for another game (None: nowhere)."""
    return replay_url(table)
