"""docs/deploy.md states the limits the code enforces (issue 32 §3, §5): the stream caps, the
network check's places and the sign-in limits' table. An administrator sizes `LimitNOFILE` and
reads the daily guessing budget from these figures: a changed constant must change the guide.
"""

from __future__ import annotations

import re
from pathlib import Path

from games.realtime.stream_caps import PER_PLACE, PER_SIGNIN
from lessons.classrooms import sign_in_limit
from lessons.classrooms.services import LOCK_AFTER_FAILURES
from unoclass.network_check.capacity import MAX_OPEN, MAX_OPEN_PER_ADDRESS

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def _guide() -> str:
    # One line per paragraph: the guide wraps its sentences anywhere.
    return re.sub(r"\s+", " ", GUIDE.read_text(encoding="utf-8"))


def _figures(pattern: str) -> tuple[int, ...]:
    found = re.search(pattern, _guide())
    assert found is not None, f"docs/deploy.md no longer says {pattern!r}"
    return tuple(int(group.replace(",", "")) for group in found.groups())


def test_the_guide_states_the_stream_caps() -> None:
    stated = _figures(
        r"\*\*Event streams\*\*: (\d+) per sign-in .*?, and (\d+) per user at one link"
    )
    assert stated == (PER_SIGNIN, PER_PLACE)


def test_the_guide_states_the_network_checks_places() -> None:
    stated = _figures(
        r"\*\*The network check\*\* \(section 7\): (\d+) links per process, of which (\d+)"
    )
    assert stated == (MAX_OPEN, MAX_OPEN_PER_ADDRESS)


def test_the_guide_states_the_sign_in_limits() -> None:
    device, address = _figures(
        r"\| the device .*? \| (\d+) failures \|.*?\| the address .*? \| (\d+) failures \|"
    )
    passwords, pins = _figures(r"\| the account: .*? \| (\d+) passwords / (\d+) PINs \|")
    kept = _figures(r"fingerprints of them \((\d+) at most\)")
    rules = sign_in_limit.RULES
    assert {rule.device_limit for rule in rules.values()} == {device}
    assert {rule.address_limit for rule in rules.values()} == {address}
    assert (rules["password"].account_limit, LOCK_AFTER_FAILURES) == (passwords, pins)
    assert kept == (sign_in_limit.TRUSTED_MAX,)
    first = _figures(r"\| (\d+) min \(passwords, ENT\), (\d+) min \(codes\), (\d+) min \(PINs\) \|")
    minutes = {kind: rule.first_lock_seconds // 60 for kind, rule in rules.items()}
    assert minutes == dict(zip(("password", "code", "pin"), first, strict=True)) | {"ent": first[0]}
