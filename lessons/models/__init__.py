"""The lessons app's models, one module a room; imported here so Django finds them."""

from lessons.models.accounts import (
    User,
)
from lessons.models.attempts import (
    Attempt,
    MissedEquivalence,
    SeatStudent,
)
from lessons.models.classrooms import (
    CLASSROOM_NAME_MAX_LENGTH,
    DISPLAY_NAME_MAX_LENGTH,
    GRADE_MAX_LENGTH,
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    Classroom,
    Student,
)
from lessons.models.compare import (
    CompareAnswer,
)
from lessons.models.ent import (
    ENT_ATTRIBUTE_MAX_LENGTH,
    ENT_CLASS_NAME_MAX_LENGTH,
    ENT_EXTERNAL_ID_MAX_LENGTH,
    ENT_SEEN_RETENTION_DAYS,
    EntClassName,
    EntConnector,
    EntIdentity,
    EntLinkEvent,
    EntSeenPupil,
    EntSignIn,
)
from lessons.models.plans import (
    GroupPlan,
    PlanMember,
)
from lessons.models.practice import (
    PracticeAssignment,
    PracticeTable,
)
from lessons.models.school import (
    SchoolPolicy,
    TeacherInvitation,
)
from lessons.models.sessions import (
    ClassSession,
    SessionMember,
    SessionTable,
)
from lessons.models.warmup import (
    WarmupRound,
)

__all__ = [
    "Attempt",
    "CLASSROOM_NAME_MAX_LENGTH",
    "ClassSession",
    "Classroom",
    "CompareAnswer",
    "DISPLAY_NAME_MAX_LENGTH",
    "ENT_ATTRIBUTE_MAX_LENGTH",
    "ENT_CLASS_NAME_MAX_LENGTH",
    "ENT_EXTERNAL_ID_MAX_LENGTH",
    "ENT_SEEN_RETENTION_DAYS",
    "EntClassName",
    "EntConnector",
    "EntIdentity",
    "EntLinkEvent",
    "EntSeenPupil",
    "EntSignIn",
    "GRADE_MAX_LENGTH",
    "GroupPlan",
    "JOIN_CODE_ALPHABET",
    "JOIN_CODE_LENGTH",
    "MissedEquivalence",
    "PlanMember",
    "PracticeAssignment",
    "PracticeTable",
    "SchoolPolicy",
    "SeatStudent",
    "SessionMember",
    "SessionTable",
    "Student",
    "TeacherInvitation",
    "User",
    "WarmupRound",
]
