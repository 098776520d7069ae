"""lessons.classrooms.sign_in_limit's buckets, one rule at a time (issue 32 §3): what locks,
when, for whom, and for how long. The raw-HTTP runs of the same rules (cookies, pages) are
tests/e2e/security/test_sign_in_lockouts.py; these name each rule's edge.
"""

from __future__ import annotations

import pytest

from lessons.classrooms import sign_in_limit
from lessons.classrooms.sign_in_limit import Client, Device

SCHOOL = "192.0.2.10"
ACCOUNT = sign_in_limit.account_for_teacher("victimprof")
LIMIT = sign_in_limit.RULES["password"].device_limit


def _device(ident: str, *, trusted: tuple[str, ...] = (), address: str = SCHOOL) -> Client:
    """Return a client whose device came with its cookie (its own bucket)."""
    device = Device(ident=ident, from_cookie=True)
    device.trust(trusted)
    return Client(address=address, device=device)


def _fail(client: Client, times: int, kind: sign_in_limit.Kind = "password") -> None:
    for _ in range(times):
        sign_in_limit.failure(kind, client, ACCOUNT)


def test_a_device_locks_at_its_limit_not_before() -> None:
    guesser = _device("guesser")
    _fail(guesser, LIMIT - 1)
    assert sign_in_limit.refusal("password", guesser, ACCOUNT) is None
    _fail(guesser, 1)
    assert sign_in_limit.refusal("password", guesser, ACCOUNT) == "device"


def test_one_devices_lock_is_its_own_at_a_shared_address() -> None:
    _fail(_device("guesser"), LIMIT)
    other = _device("classmate")
    assert sign_in_limit.refusal("password", other, sign_in_limit.account_for_teacher("x")) is None


def test_clients_without_a_cookie_share_their_addresss_bucket() -> None:
    first = Client(address=SCHOOL, device=Device(ident="made-up-1"))
    second = Client(address=SCHOOL, device=Device(ident="made-up-2"))
    _fail(first, LIMIT)
    assert sign_in_limit.refusal("password", second, sign_in_limit.account_for_teacher("x")) == (
        "device"
    )
    elsewhere = Client(address="198.51.100.7", device=Device(ident="made-up-3"))
    assert (
        sign_in_limit.refusal("password", elsewhere, sign_in_limit.account_for_teacher("x")) is None
    )


def test_the_kinds_count_apart() -> None:
    guesser = _device("guesser")
    _fail(guesser, LIMIT, kind="ent")
    assert sign_in_limit.refusal("ent", guesser) == "device"
    assert sign_in_limit.refusal("password", guesser, ACCOUNT) is None
    assert sign_in_limit.refusal("code", guesser) is None


def test_the_accounts_lock_stops_new_devices_and_not_the_teachers_own() -> None:
    # Ten strangers from ten addresses, one guess each: no device or address is locked.
    for number in range(LIMIT):
        _fail(_device(f"stranger-{number}", address=f"203.0.113.{number}"), 1)
    newcomer = _device("newcomer", address="198.51.100.7")
    assert sign_in_limit.refusal("password", newcomer, ACCOUNT) == "account"
    own = _device("own", trusted=(ACCOUNT,), address="198.51.100.7")
    assert sign_in_limit.refusal("password", own, ACCOUNT) is None


def test_a_trusted_device_is_stopped_by_its_own_bucket_only() -> None:
    own = _device("own", trusted=(ACCOUNT,))
    _fail(own, LIMIT)
    assert sign_in_limit.refusal("password", own, ACCOUNT) == "device"
    # Its mistakes locked neither the school's address nor the account for anyone else.
    assert sign_in_limit.lock_left_seconds("password", "address", SCHOOL) == 0
    assert sign_in_limit.lock_left_seconds("password", "account", ACCOUNT) == 0
    assert sign_in_limit.refusal("password", _device("colleague"), ACCOUNT) is None


def test_a_full_device_trusts_its_newest_accounts() -> None:
    tablet = Device(ident="tablet", from_cookie=True)
    pupils = [sign_in_limit.account_for_pupil(pk) for pk in range(sign_in_limit.TRUSTED_MAX + 1)]
    tablet.trust(pupils)
    assert tablet.trusts(pupils[-1])
    assert not tablet.trusts(pupils[0])
    assert len(tablet.trusted) == sign_in_limit.TRUSTED_MAX


def test_each_lock_lasts_twice_the_last_until_forgotten() -> None:
    pupil = sign_in_limit.account_for_pupil(7)
    first = sign_in_limit.RULES["pin"].first_lock_seconds
    lengths = [sign_in_limit.account_lock_seconds("pin", pupil) for _ in range(3)]
    assert lengths == [first, 2 * first, 4 * first]
    assert sign_in_limit.account_next_lock_seconds("pin", pupil) == 8 * first
    sign_in_limit.account_strikes_forget("pin", pupil)
    assert sign_in_limit.account_next_lock_seconds("pin", pupil) == first


@pytest.mark.parametrize("strikes", [12, 17, 40])
def test_no_lock_lasts_more_than_a_day(strikes: int) -> None:
    pupil = sign_in_limit.account_for_pupil(8)
    lengths = [sign_in_limit.account_lock_seconds("pin", pupil) for _ in range(strikes)]
    assert max(lengths) == sign_in_limit.DAY_SECONDS
