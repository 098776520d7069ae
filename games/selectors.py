"""Read operations on tables: who may see which table, and what they see."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _

from games import hooks
from games.errors import TableError
from games.models import Seat, Table

NO_ACCESS = _("You cannot open this table.")


@dataclass(frozen=True)
class TableAccess:
    """A user's place at a table: a seat index, or None for a watching teacher."""

    table: Table
    seat: int | None


def table_access(*, table_id: int, user: AbstractBaseUser | AnonymousUser) -> TableAccess:
    """Return the user's access to a table; raise TableError when they have none.

    A student reaches only their own seat; a teacher watches the tables of their classes.
    """
    if not user.is_authenticated:
        raise TableError("not_signed_in", NO_ACCESS)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("table_not_found", NO_ACCESS)
    seat = Seat.objects.filter(table=table, user_id=user.pk).values_list("index", flat=True)
    if seat:
        return TableAccess(table, seat[0])
    if hooks.may_watch(user, table):
        return TableAccess(table, None)
    raise TableError("no_access", NO_ACCESS)
