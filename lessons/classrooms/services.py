"""Write operations on teachers, classrooms and students (the only path that changes them).

Every function takes keyword-only arguments and raises ValidationError with a translated
message when the input is refused; a refused call changes nothing.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.realtime.signout import tell_sign_ins_changed, tell_signed_out
from lessons.classrooms import sign_in_limit
from lessons.classrooms.name_rule import (
    TOO_LONG,
    UNPRINTABLE,
    classroom_lock,
    name_clean,
    name_fault,
    names_repeated,
    names_taken,
)
from lessons.classrooms.pins import PIN_LENGTH, pin_generate, pin_hash, pin_matches
from lessons.models import (
    DISPLAY_NAME_MAX_LENGTH,
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    Classroom,
    Student,
    User,
)

ROSTER_MAX_LINES = 60
CLASSROOM_MAX_STUDENTS = 100
LOCK_AFTER_FAILURES = 5
# The first lock of a pupil; each next one (within a day) lasts twice as long (sign_in_limit).
LOCK_DURATION = timedelta(seconds=sign_in_limit.RULES["pin"].first_lock_seconds)
# One classroom usually shares one public address, so the per-address limit must let a whole
# school mistype codes and PINs and still stop a script trying thousands; a device's own limit
# is far lower (sign_in_limit). Wrong codes and wrong PINs count apart.
ADDRESS_FAILURE_LIMIT = sign_in_limit.RULES["pin"].address_limit
DEVICE_FAILURE_LIMIT = sign_in_limit.RULES["pin"].device_limit

ROSTER_EMPTY = _("Paste at least one name, one name per line.")
ROSTER_TOO_MANY_LINES = _("Paste at most %(limit)d names at a time (you pasted %(count)d).")
ROSTER_CLASS_FULL = _(
    "A class holds at most %(limit)d students: it has %(existing)d, you pasted %(count)d."
)
ROSTER_NAME_TOO_LONG = _("Line %(line)d is longer than %(limit)d characters.")
ROSTER_NAME_UNPRINTABLE = _("Line %(line)d contains characters that cannot be shown.")
ROSTER_DUPLICATE_IN_PASTE = _("“%(name)s” appears more than once in the list.")
ROSTER_DUPLICATE_IN_CLASS = _("“%(name)s” is already in this class.")
CLASSROOM_ARCHIVED = _("This class is archived: it can be read but not changed.")
JOIN_CODE_UNKNOWN = _("No class has this code. Check the code on the board and try again.")
JOIN_STUDENT_UNKNOWN = _("This name is not in this class. Pick your name in the list.")
JOIN_PIN_MALFORMED = _("Your PIN has exactly 4 digits.")
JOIN_ADDRESS_BLOCKED = _("Too many failed attempts from this network. Wait a few minutes.")
JOIN_PIN_WRONG_TRUSTED = _("Wrong PIN. Try again.")
JOIN_DEVICE_BLOCKED = _("Too many failed attempts on this device. Ask your teacher, or wait.")
JOIN_STUDENT_LOCKED = _("Too many wrong PINs. Ask your teacher, or try again in a few minutes.")
# The pause is the pupil's next lock: 5 minutes, twice as long each time within a day.
JOIN_PIN_WRONG = ngettext_lazy(
    "Wrong PIN. %(left)d try left before a %(minutes)d-minute pause.",
    "Wrong PIN. %(left)d tries left before a %(minutes)d-minute pause.",
    "left",
)
JOIN_CODE_GENERATION_FAILED = "Could not find a free join code."


@dataclass(frozen=True)
class StudentWithPin:
    """A student together with the plain PIN just given to them (shown once to the teacher)."""

    student: Student
    pin: str


def teacher_create(*, username: str, password: str) -> User:
    """Create a teacher account (the form has already validated the password)."""
    user = User(username=username, role=User.Role.TEACHER)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:
        # A sign-up racing this one took the name after the check (PostgreSQL: both checks
        # ran before either insert committed): the same refusal as the check's.
        unique = User._meta.get_field("username").error_messages["unique"]
        raise ValidationError({"username": [unique]}, code="unique") from error
    return user


def join_code_generate() -> str:
    """Return a random join code from the unambiguous alphabet."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _position in range(JOIN_CODE_LENGTH))


def join_code_normalise(code: str) -> str:
    """Return a typed code in canonical form: upper case, without spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch not in " -\t")


def classroom_create(*, teacher: User, name: str, grade: str, language: str) -> Classroom:
    """Create a classroom with a fresh unique join code."""
    if not teacher.is_teacher:
        raise ValidationError(_("Only a teacher can create a class."), code="not_teacher")
    classroom = Classroom(
        teacher=teacher, name=name.strip(), grade=grade.strip(), language=language
    )
    for _attempt in range(20):
        classroom.join_code = join_code_generate()
        classroom.full_clean(exclude=["join_code"])
        if Classroom.objects.filter(join_code=classroom.join_code).exists():
            continue
        try:
            with transaction.atomic():
                classroom.save()
        except IntegrityError:
            # Another request took the same code between the check and the insert.
            continue
        return classroom
    raise RuntimeError(JOIN_CODE_GENERATION_FAILED)


def roster_parse(*, text: str) -> list[str]:
    """Split a pasted roster into clean display names, or raise every problem found."""
    names: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        name = name_clean(raw)
        if name:
            names.append((number, name))
    if not names:
        raise ValidationError(ROSTER_EMPTY, code="empty")
    if len(names) > ROSTER_MAX_LINES:
        raise ValidationError(
            ROSTER_TOO_MANY_LINES,
            code="too_many_lines",
            params={"limit": ROSTER_MAX_LINES, "count": len(names)},
        )
    errors: list[ValidationError] = []
    for number, name in names:
        fault = name_fault(name)
        if fault == TOO_LONG:
            errors.append(
                ValidationError(
                    ROSTER_NAME_TOO_LONG,
                    code="too_long",
                    params={"line": number, "limit": DISPLAY_NAME_MAX_LENGTH},
                )
            )
        elif fault == UNPRINTABLE:
            errors.append(
                ValidationError(
                    ROSTER_NAME_UNPRINTABLE, code="unprintable", params={"line": number}
                )
            )
    errors += _repeats_refused([name for _number, name in names])
    if errors:
        raise ValidationError(errors)
    return [name for _number, name in names]


def _repeats_refused(names: list[str]) -> list[ValidationError]:
    return [
        ValidationError(ROSTER_DUPLICATE_IN_PASTE, code="duplicate", params={"name": name})
        for name in names_repeated(names)
    ]


def _student_user_create() -> User:
    user = User(username=f"student-{uuid.uuid4().hex[:16]}", role=User.Role.STUDENT)
    user.set_unusable_password()
    user.save()
    return user


def roster_add(*, classroom: Classroom, text: str) -> list[StudentWithPin]:
    """Add every name of a pasted roster to a classroom, each with a new PIN; all or nothing."""
    return roster_add_names(classroom=classroom, names=roster_parse(text=text))


def roster_add_names(*, classroom: Classroom, names: list[str]) -> list[StudentWithPin]:
    """Add checked names to a classroom, each with a new PIN; all or nothing."""
    if classroom.archived_at is not None:
        raise ValidationError(CLASSROOM_ARCHIVED, code="archived")
    repeats = _repeats_refused(names)
    if repeats:
        raise ValidationError(repeats)
    with transaction.atomic():
        # Lock the classroom so two pastes at once cannot pass the size or name checks together.
        if classroom_lock(classroom).archived_at is not None:
            raise ValidationError(CLASSROOM_ARCHIVED, code="archived")
        existing = list(classroom.students.values_list("display_name", flat=True))
        if len(existing) + len(names) > CLASSROOM_MAX_STUDENTS:
            raise ValidationError(
                ROSTER_CLASS_FULL,
                code="class_full",
                params={
                    "limit": CLASSROOM_MAX_STUDENTS,
                    "existing": len(existing),
                    "count": len(names),
                },
            )
        clashes = names_taken(classroom, names)
        if clashes:
            raise ValidationError(
                [
                    ValidationError(ROSTER_DUPLICATE_IN_CLASS, code="taken", params={"name": name})
                    for name in clashes
                ]
            )
        created: list[StudentWithPin] = []
        for name in names:
            pin = pin_generate()
            student = Student.objects.create(
                user=_student_user_create(),
                classroom=classroom,
                display_name=name,
                pin_hash=pin_hash(pin),
            )
            created.append(StudentWithPin(student=student, pin=pin))
    return created


def pupils_sign_out(users: Iterable[User]) -> None:
    """End every sign-in of these pupils' accounts and close their links once committed.

    A pupil's account has no usable password; a new unusable one changes the account's session
    hash, so every session it signed in with stops signing it in (Django checks the hash on
    each request, the sockets and streams with each action), and the links open now close.
    """
    for user in users:
        user.set_unusable_password()
        user.save(update_fields=["password"])
        tell_signed_out(user.pk, None)


def other_sign_ins_end(*, user: User) -> None:
    """After a password change, close the live links of the user's other sign-ins.

    Their pages stop at once (the session hash they carry is stale); the sockets and streams
    each check their own session once the change has committed, and the changing device's
    (renewed) one stays.
    """
    tell_sign_ins_changed(user.pk)


def student_reset_pin(*, student: Student) -> str:
    """Give a student a new PIN, clear their lock, end their sign-ins, and return the PIN.

    A new PIN is how a teacher takes a sign-in back (a classmate saw the card): every device
    signed in with the old one, by PIN or ENT, signs in again.
    """
    pin = pin_generate()
    student.pin_hash = pin_hash(pin)
    student.failed_attempts = 0
    student.locked_until = None
    student.save(update_fields=["pin_hash", "failed_attempts", "locked_until"])
    pupils_sign_out([student.user])
    return pin


def classroom_reset_all_pins(*, classroom: Classroom) -> list[StudentWithPin]:
    """Give every student of a classroom a new PIN (for a fresh set of login cards)."""
    with transaction.atomic():
        present = classroom.students.filter(pseudonymised_at__isnull=True)
        students = list(
            present.select_related("user")
            .select_for_update(of=("self",))
            .order_by("display_name", "id")
        )
        return [StudentWithPin(student=s, pin=student_reset_pin(student=s)) for s in students]


def student_unlock(*, student: Student) -> None:
    """Let a locked student try their PIN again at once (their next lock is a first one)."""
    student.failed_attempts = 0
    student.locked_until = None
    student.save(update_fields=["failed_attempts", "locked_until"])
    sign_in_limit.account_strikes_forget("pin", sign_in_limit.account_for_pupil(student.pk))


def _refuse(bucket: sign_in_limit.Bucket) -> ValidationError:
    if bucket == "device":
        return ValidationError(JOIN_DEVICE_BLOCKED, code="device_blocked")
    return ValidationError(JOIN_ADDRESS_BLOCKED, code="address_blocked")


def join_classroom_find(
    *, code: str, address: str = "", client: sign_in_limit.Client | None = None
) -> Classroom:
    """Return the classroom with this join code, counting a wrong code against the client.

    A device that typed this class's code before keeps finding it while the address is
    locked (a stranger's wrong codes do not lock a class out of its own tablets).
    """
    client = client or sign_in_limit.Client.from_address(address)
    if (bucket := sign_in_limit.refusal("code", client)) == "device":
        raise _refuse(bucket)
    # An archived class's code no longer lets anyone in.
    classroom = Classroom.objects.filter(
        join_code=join_code_normalise(code), archived_at__isnull=True
    ).first()
    known = classroom is not None and client.device.trusts(
        sign_in_limit.account_for_class(classroom.pk)
    )
    if bucket is not None and not known:
        raise _refuse(bucket)  # found or not: a locked address learns nothing
    if classroom is None:
        sign_in_limit.failure("code", client)
        raise ValidationError(JOIN_CODE_UNKNOWN, code="unknown_code")
    client.device.trust([sign_in_limit.account_for_class(classroom.pk)])
    return classroom


def student_sign_in_check(
    *,
    classroom: Classroom,
    student_id: int,
    pin: str,
    address: str = "",
    client: sign_in_limit.Client | None = None,
) -> Student:
    """Check a student's PIN, counting failures and locking after five; return the student.

    The pupil's lock (on their row, where the teacher sees and lifts it) stops only devices
    they never signed in on; each lock within a day lasts twice the one before.
    """
    client = client or sign_in_limit.Client.from_address(address)
    account = sign_in_limit.account_for_pupil(student_id)
    if (bucket := sign_in_limit.refusal("pin", client, account)) is not None:
        raise _refuse(bucket)
    if len(pin) != PIN_LENGTH or not pin.isdigit() or not pin.isascii():
        raise ValidationError(JOIN_PIN_MALFORMED, code="malformed_pin")
    trusted = client.device.trusts(account)
    with transaction.atomic():
        student = (
            Student.objects.select_for_update()
            .select_related("user", "classroom")
            .filter(classroom=classroom, pk=student_id, pseudonymised_at__isnull=True)
            .first()
        )
        if student is None:
            refusal = ValidationError(JOIN_STUDENT_UNKNOWN, code="unknown_student")
        elif student.is_locked() and not trusted:
            refusal = ValidationError(JOIN_STUDENT_LOCKED, code="locked")
        elif pin_matches(pin, student.pin_hash):
            if student.failed_attempts:
                student.failed_attempts = 0
                student.save(update_fields=["failed_attempts"])
            client.device.trust([account, sign_in_limit.account_for_class(classroom.pk)])
            return student
        elif trusted:
            # The pupil's own device: its own bucket stops it, the pupil's row is not touched.
            left = 0
            refusal = ValidationError(JOIN_PIN_WRONG_TRUSTED, code="wrong_pin")
        else:
            student.failed_attempts += 1
            left = LOCK_AFTER_FAILURES - student.failed_attempts
            if left <= 0:
                student.failed_attempts = 0
                seconds = sign_in_limit.account_lock_seconds("pin", account)
                student.locked_until = timezone.now() + timedelta(seconds=seconds)
                refusal = ValidationError(JOIN_STUDENT_LOCKED, code="locked")
            else:
                minutes = sign_in_limit.account_next_lock_seconds("pin", account) // 60
                refusal = ValidationError(
                    JOIN_PIN_WRONG, code="wrong_pin", params={"left": left, "minutes": minutes}
                )
            student.save(update_fields=["failed_attempts", "locked_until"])
    sign_in_limit.failure("pin", client, account)
    raise refusal
