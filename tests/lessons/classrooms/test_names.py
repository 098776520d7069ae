"""Names sort as a French reader expects (lessons/classrooms/names.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from lessons.classrooms.names import by_name, name_key


def test_accents_do_not_send_names_last() -> None:
    names = ["Zoé", "Lucas", "Léo", "émile", "Éloïse", "Léa"]
    assert sorted(names, key=name_key) == ["Éloïse", "émile", "Léa", "Léo", "Lucas", "Zoé"]
    # Python's own order, the bug: accented capitals after Z.
    assert sorted(names)[-2:] == ["Éloïse", "émile"]


def test_ties_break_plain_before_accented_and_lower_before_upper() -> None:
    names = ["Émile", "emile", "Emile", "émile", "Lea", "Léa", "lea"]
    assert sorted(names, key=name_key) == ["emile", "Emile", "émile", "Émile", "lea", "Lea", "Léa"]


def test_the_order_is_total_and_does_not_depend_on_the_input_order() -> None:
    names = ["Zoé", "Lucas", "Léo", "émile", "Éloïse", "Léa", "Lea", "LEA", "Œdipe", "Oscar", "Ana"]
    expected = sorted(names, key=name_key)
    for seed in range(20):
        shuffled = names[:]
        random.Random(seed).shuffle(shuffled)
        assert sorted(shuffled, key=name_key) == expected


@dataclass
class Person:
    display_name: str
    pk: int


def test_by_name_sorts_people_then_by_id() -> None:
    people = [Person("Léa", 3), Person("Lucas", 1), Person("Léa", 2), Person("Éloïse", 4)]
    assert [(p.display_name, p.pk) for p in by_name(people)] == [
        ("Éloïse", 4),
        ("Léa", 2),
        ("Léa", 3),
        ("Lucas", 1),
    ]
