"""Sign-in through the school's ENT (CAS) and its pupils' links: see lessons/ent/."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models.accounts import User
from lessons.models.classrooms import Classroom, Student

ENT_ATTRIBUTE_MAX_LENGTH = 64
ENT_EXTERNAL_ID_MAX_LENGTH = 255


class EntConnector(models.Model):
    """One CAS server of an ENT the school admin added on /school/ (one per ENT, several allowed).

    The attribute names and role values say how this ENT's answer reads: the presets fill them
    for the Édifice/ONE shape and the GAR's shape, and "custom" lets the admin write them.
    """

    class Protocol(models.IntegerChoices):
        CAS2 = 2, _("CAS 2.0")
        CAS3 = 3, _("CAS 3.0")

    class Preset(models.TextChoices):
        EDIFICE = "edifice", _("Édifice / ONE / Open ENT NG")
        GAR = "gar", _("GAR (CAS 3.0)")
        CUSTOM = "custom", _("Custom")

    name = models.CharField(_("name"), max_length=80)
    # The CAS server's base URL (…/cas/): login, serviceValidate and logout hang under it.
    server_url = models.URLField(_("CAS server URL"), max_length=200)
    protocol = models.PositiveSmallIntegerField(
        _("CAS protocol"), choices=Protocol.choices, default=Protocol.CAS3
    )
    preset = models.CharField(
        _("preset"), max_length=10, choices=Preset.choices, default=Preset.EDIFICE
    )
    id_attribute = models.CharField(_("id attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH)
    name_attribute = models.CharField(
        _("display name attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    role_attribute = models.CharField(_("role attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH)
    classes_attribute = models.CharField(
        _("classes attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    school_attribute = models.CharField(
        _("school (UAI) attribute"), max_length=ENT_ATTRIBUTE_MAX_LENGTH
    )
    # Comma-separated role values: an ENT user whose role is in neither list is refused.
    teacher_roles = models.CharField(_("role values of teachers"), max_length=200)
    pupil_roles = models.CharField(_("role values of pupils"), max_length=200)
    # The school's UAI: when set, a user of another school on the same ENT is refused.
    school_uai = models.CharField(_("school UAI"), max_length=8, blank=True)
    # The admin's choice: may an ENT teacher with no unoclass account get a new one?
    creates_teachers = models.BooleanField(
        _("create an account for an unknown ENT teacher"), default=False
    )
    enabled = models.BooleanField(_("enabled"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("ENT connector")
        verbose_name_plural = _("ENT connectors")

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def split_roles(text: str) -> frozenset[str]:
        """Return the role values of a comma-separated list, blanks dropped."""
        return frozenset(part.strip() for part in text.split(",") if part.strip())

    @property
    def teacher_role_values(self) -> frozenset[str]:
        """Return the role values that make an ENT user a teacher here."""
        return self.split_roles(self.teacher_roles)

    @property
    def pupil_role_values(self) -> frozenset[str]:
        """Return the role values that make an ENT user a pupil here."""
        return self.split_roles(self.pupil_roles)


class EntIdentity(models.Model):
    """The link of one ENT account (its opaque id on one connector) to one unoclass user.

    Only the id is kept: the ENT's name, classes and role are read at each sign-in and never
    stored for a linked user. Erasing the user erases the link (CASCADE).
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="identities")
    external_id = models.CharField(_("ENT id"), max_length=ENT_EXTERNAL_ID_MAX_LENGTH)
    user = models.OneToOneField(
        User, on_delete=models.CASCADE, related_name="ent_identity", verbose_name=_("user")
    )
    linked_at = models.DateTimeField(_("linked at"), default=timezone.now)
    # The teacher who matched a pupil; None when the user linked themself (password once).
    linked_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("linked by"),
    )

    class Meta:
        verbose_name = _("ENT link")
        verbose_name_plural = _("ENT links")
        constraints = [
            models.UniqueConstraint(
                fields=["connector", "external_id"], name="ent_identity_unique_per_connector"
            )
        ]


class EntSeenPupil(models.Model):
    """A pupil who signed in through the ENT but is linked to no pupil yet: what the teacher's
    matching screen shows. Kept ENT_SEEN_RETENTION_DAYS after the last sign-in, then purged;
    deleted as soon as the pupil is linked.
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="seen")
    external_id = models.CharField(_("ENT id"), max_length=ENT_EXTERNAL_ID_MAX_LENGTH)
    display_name = models.CharField(_("name in the ENT"), max_length=150)
    # The ENT's class names, as a list of strings.
    classes = models.JSONField(_("classes in the ENT"), default=list, blank=True)
    seen_at = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        ordering = ["display_name", "id"]
        verbose_name = _("ENT pupil not yet linked")
        verbose_name_plural = _("ENT pupils not yet linked")
        constraints = [
            models.UniqueConstraint(
                fields=["connector", "external_id"], name="ent_seen_unique_per_connector"
            )
        ]


ENT_SEEN_RETENTION_DAYS = 30


class EntSignIn(models.Model):
    """One service ticket used to sign in: refused if used again, and mapped to the Django
    session it opened, so that the ENT's single sign-out can end that session.

    Only a SHA-256 of the ticket is kept; rows older than SESSION_COOKIE_AGE are purged.
    """

    connector = models.ForeignKey(EntConnector, on_delete=models.CASCADE, related_name="+")
    ticket_hash = models.CharField(_("ticket (SHA-256)"), max_length=64, unique=True)
    user = models.ForeignKey(
        User, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    session_key = models.CharField(_("session key"), max_length=40, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("ENT sign-in")
        verbose_name_plural = _("ENT sign-ins")
        indexes = [models.Index(fields=["created_at"], name="ent_signin_time")]


ENT_CLASS_NAME_MAX_LENGTH = 100


class EntClassName(models.Model):
    """An ENT class name a teacher said is this class, or the school admin gave it: its
    unlinked ENT pupils are offered on the class's matching screen (besides the ENT classes
    named like the class itself), unless another teacher's class takes it too.
    """

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="ent_class_names"
    )
    name = models.CharField(_("class name in the ENT"), max_length=ENT_CLASS_NAME_MAX_LENGTH)
    # Set when the school admin gave this ENT class to this class: then only the classes it
    # was given to take it, whatever other classes are named or chose (lessons.ent.claims).
    granted = models.BooleanField(_("given by the school admin"), default=False)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("ENT class name")
        verbose_name_plural = _("ENT class names")
        constraints = [
            models.UniqueConstraint(fields=["classroom", "name"], name="ent_class_name_unique")
        ]


class EntLinkEvent(models.Model):
    """Who linked or unlinked a pupil's ENT account, and when (the matching screen's audit).
    An ELSEWHERE event is a notice on another class: a pupil seen in its ENT classes was
    linked in `student`'s class (its teachers see it on their matching screen).

    Holds no ENT id or ENT name: erasing the pupil erases their events (CASCADE).
    """

    class Action(models.TextChoices):
        LINKED = "linked", _("linked")
        IMPORTED = "imported", _("linked by a class list file")
        CARRIED = "carried", _("carried over from last year's class")
        UNLINKED = "unlinked", _("unlinked")
        # A notice on a class whose ENT classes the pupil was seen in: another class linked them.
        ELSEWHERE = "elsewhere", _("linked to a pupil of another class")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="ent_events")
    by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("ENT link event")
        verbose_name_plural = _("ENT link events")
