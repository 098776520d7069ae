"""The words the check's script shows, translated on the server (the page carries them).

Placeholders in braces ({host}, {seconds}…) are filled in by static/js/network-check.js.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def page_words() -> dict[str, str]:
    """Return the script's texts in the active language."""
    return {
        "testing": _("Testing…"),
        "waiting": _("Waiting for the other checks…"),
        "works": _("Works"),
        "fails": _("Does not work"),
        "not_tested": _("Not tested"),
        "echo_ms": _("{ms} ms (median of {count} echoes)"),
        "held": _("Stayed open {seconds} s"),
        "cut": _("Cut after {seconds} s"),
        "holding": _("Open for {seconds} s so far…"),
        "no_open": _("Could not open (refused, blocked or no answer within {seconds} s)"),
        "buffered": _(
            "Opened, but nothing arrived: a proxy or antivirus may be holding the stream back"
        ),
        "no_echo": _("Opened, but the echoes did not come back"),
        "started": _("The check has started: it takes about {seconds} seconds."),
        "quick_done": _(
            "First results: {socket_word} for the WebSocket, {fallback_word} for the fallback. "
            "The minute-long check goes on."
        ),
        "verdict_socket": _(
            "The class will play over the WebSocket, the fastest link. Nothing to ask the IT "
            "service."
        ),
        "verdict_fallback": _(
            "The class can play, over the fallback link (slower: each move takes an HTTP "
            "request). For the fastest link, ask the IT service to let WebSockets through "
            "(below)."
        ),
        "verdict_fallback_cut": _(
            "The class can play over the fallback link, but the network cuts it after "
            "{seconds} s: play resumes by itself after each cut, with a pause. Ask the IT "
            "service to let long connections through (below)."
        ),
        "verdict_nothing": _(
            "The class cannot play from this browser: neither link works. Ask the IT service "
            "to open what is listed below, then run this check again."
        ),
        "ticket": _(
            "Hello,\n\n"
            "Our classes use unoclass, a maths card game played in the browser, served by "
            "{origin} (host {host}, port {port}). Its network check, run on {date} from a "
            "classroom computer, says: WebSocket: {socket_result}; fallback link (event "
            "stream): {fallback_result}.\n\n"
            "Please allow, from the pupils' computers and tablets:\n"
            "1. WebSocket connections to {socket_url} (the Upgrade and Connection headers "
            "forwarded, without TLS inspection if possible), kept open for at least an hour;\n"
            "2. responses of type text/event-stream from {origin}/ passed at once, without "
            "buffering or compression, kept open for at least an hour.\n\n"
            "The server loads nothing from any other site.\n\nThank you."
        ),
        "copied": _("The text is copied: paste it into the IT ticket."),
        "copy_failed": _("Select the text and copy it (Ctrl+C)."),
    }
