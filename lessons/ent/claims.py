"""Which classes take an ENT class, and so who sees its pupils waiting (issue 32 §2).

An active class takes an ENT class when it is named like it or its teacher chose it (an
EntClassName); once the school admin gave an ENT class to some classes, only those take it.
A teacher sees, and links, the waiting pupils of an ENT class only in a class that takes it,
and only when every active class that takes it is one they teach: two teachers whose classes
both take an ENT class see none of its pupils until the school admin gives it to one class.
A teacher cannot choose an ENT class another teacher's class takes (the school admin can).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lessons.ent.matching import class_name_fits
from lessons.models import Classroom, EntClassName, User


@dataclass
class Claims:
    """The active classes' ENT class names, grants and teachers, read once for a page."""

    names: dict[int, list[str]]
    granted: dict[int, list[str]]
    teachers: dict[int, set[int]]
    labels: dict[int, Classroom]
    _cache: dict[str, frozenset[int]] = field(default_factory=dict)

    def takers(self, ent_name: str) -> frozenset[int]:
        """Return the ids of the classes that take the ENT class (the granted ones, if any)."""
        if ent_name not in self._cache:
            granted = {
                pk for pk, names in self.granted.items() if class_name_fits([ent_name], names)
            }
            named = {pk for pk, names in self.names.items() if class_name_fits([ent_name], names)}
            self._cache[ent_name] = frozenset(granted or named)
        return self._cache[ent_name]

    def is_granted(self, ent_name: str) -> bool:
        """Tell whether the school admin gave the ENT class to a class."""
        return any(class_name_fits([ent_name], names) for names in self.granted.values())

    def named(self, ent_name: str) -> frozenset[int]:
        """Return the ids of the classes named like the ENT class, or that chose it."""
        return frozenset(
            pk for pk, names in self.names.items() if class_name_fits([ent_name], names)
        )

    def teaches_all(self, teacher: User, classroom_ids: Iterable[int]) -> bool:
        """Tell whether the teacher teaches every one of the classes."""
        return all(teacher.pk in self.teachers.get(pk, set()) for pk in classroom_ids)

    def visible(self, ent_name: str, classroom: Classroom, teacher: User) -> bool:
        """Tell whether the teacher sees the ENT class's pupils waiting in this class."""
        takers = self.takers(ent_name)
        return classroom.pk in takers and self.teaches_all(teacher, takers)

    def contested(self, ent_name: str, classroom: Classroom, teacher: User) -> bool:
        """Tell whether the class takes the ENT class but a class the teacher does not teach
        takes it too (its pupils are hidden until the school admin gives it to one class).
        """
        takers = self.takers(ent_name)
        return classroom.pk in takers and not self.teaches_all(teacher, takers)

    def taken_by_others(self, ent_name: str, classroom: Classroom, teacher: User) -> bool:
        """Tell whether a class other than this one, that the teacher does not teach, takes
        the ENT class (then the teacher cannot choose it for this class).
        """
        others = self.takers(ent_name) - {classroom.pk}
        return not self.teaches_all(teacher, others)


def claims_read(*, including: Classroom | None = None) -> Claims:
    """Read the claims of the active classes (and of `including`, archived or not)."""
    classrooms = Classroom.objects.filter(archived_at__isnull=True)
    rows = list(classrooms.prefetch_related("co_teachers"))
    if including is not None and all(row.pk != including.pk for row in rows):
        rows.append(Classroom.objects.prefetch_related("co_teachers").get(pk=including.pk))
    names: dict[int, list[str]] = {row.pk: [row.name] for row in rows}
    granted: dict[int, list[str]] = {}
    for chosen in EntClassName.objects.filter(classroom_id__in=list(names)):
        names[chosen.classroom_id].append(chosen.name)
        if chosen.granted:
            granted.setdefault(chosen.classroom_id, []).append(chosen.name)
    teachers = {
        row.pk: {row.teacher_id, *(user.pk for user in row.co_teachers.all())} for row in rows
    }
    return Claims(names, granted, teachers, {row.pk: row for row in rows})
