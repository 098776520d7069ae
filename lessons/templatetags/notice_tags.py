"""The footer's accessibility status, computed from the self-assessment (lessons.notices.rgaa)."""

from __future__ import annotations

from django import template

from lessons.notices.statement import status_label

register = template.Library()


@register.simple_tag
def accessibility_status() -> str:
    """Return "Accessibility: partially compliant" (or the status in force), translated."""
    return status_label()
