"""games.services is the only writer of tables, seats and table events.

A static check over the product's code (not the tests, which build situations by hand, nor the
migrations): outside the games/services/ package, nothing may save, delete, update or create a
Table, a Seat or a TableEvent, through an instance, a manager, a queryset or a related manager
(`table.seats`, `table.events`), nor lock a table row (`select_for_update`).

What it reads: the names imported from games.models (aliases too, or `models.Table` after
`from games import models`), the chains of calls that start from them or from `.seats` /
`.events`, and, inside one function, the variables bound from such a chain, annotated with a
model, or made by its constructor. It cannot see through a service's return value or raw SQL:
it is a guard against the plain mistakes, the review does the rest.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
WRITER = Path("games/services")  # the package: one module per job
MODELS = {"Table", "Seat", "TableEvent"}
RELATED = {"seats", "events"}  # Table.seats, Table.events, User.seats
WRITES = {
    "save",
    "delete",
    "update",
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
    "select_for_update",
}
RELATED_WRITES = WRITES | {"add", "remove", "clear", "set"}
INSTANCE_WRITES = {"save", "delete"}
SKIPPED_DIRS = {"tests", "migrations", "node_modules", "static", "templates", "docs", "locale"}


def _model_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Return the local names of the models, and of the games.models module itself."""
    models: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "games.models":
            models |= {a.asname or a.name for a in node.names if a.name in MODELS}
        elif isinstance(node, ast.ImportFrom) and node.module == "games":
            modules |= {a.asname or a.name for a in node.names if a.name == "models"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == "games.models" and a.asname}
    return models, modules


class _Finder:
    """Find the writes of games models in one module's syntax tree."""

    def __init__(self, tree: ast.AST) -> None:
        self.tree = tree
        self.models, self.modules = _model_names(tree)

    def _is_model(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.models
        if isinstance(node, ast.Attribute) and node.attr in MODELS:
            base = node.value
            return (isinstance(base, ast.Name) and base.id in self.modules) or (
                isinstance(base, ast.Attribute) and base.attr == "models"
            )
        return False

    def _chain(self, node: ast.AST) -> Iterator[ast.AST]:
        """Walk down a call chain: a.b(...).c(...) yields the c-call's receiver, ..., a."""
        while True:
            yield node
            if isinstance(node, ast.Call):
                node = node.func
            elif isinstance(node, ast.Attribute | ast.Subscript):
                node = node.value
            else:
                return

    def _from_models(self, node: ast.AST, tainted: set[str]) -> bool:
        """Tell whether an expression is a model, its manager, a queryset or an instance."""
        for link in self._chain(node):
            if self._is_model(link):
                return True
            if isinstance(link, ast.Attribute) and link.attr in RELATED:
                return True
            if isinstance(link, ast.Name) and link.id in tainted:
                return True
        return False

    def _names_a_model(self, annotation: ast.expr) -> bool:
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return False
        return any(self._is_model(n) for n in ast.walk(annotation))

    def _holds_models(self, value: ast.expr, tainted: set[str]) -> bool:
        """Tell whether an assigned value is a model instance or queryset (`next(...)` too)."""
        if self._from_models(value, tainted):
            return True
        # seat = next((s for s in table.seats.all() if ...), None)
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "next"
            and bool(value.args)
            and self._from_models_anywhere(value.args[0], tainted)
        )

    def _from_models_anywhere(self, node: ast.AST, tainted: set[str]) -> bool:
        return any(
            self._is_model(n)
            or (isinstance(n, ast.Attribute) and n.attr in RELATED)
            or (isinstance(n, ast.Name) and n.id in tainted)
            for n in ast.walk(node)
        )

    def _tainted(self, scope: ast.AST) -> set[str]:
        """Name the variables of a scope that hold a model instance or queryset."""
        tainted: set[str] = set()
        for _round in range(3):  # a few rounds: b = a.first() after a = Table.objects...
            for node in ast.walk(scope):
                if isinstance(node, ast.arg) and node.annotation is not None:
                    if self._names_a_model(node.annotation):
                        tainted.add(node.arg)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    if self._names_a_model(node.annotation) or (
                        node.value is not None and self._holds_models(node.value, tainted)
                    ):
                        tainted.add(node.target.id)
                elif isinstance(node, ast.Assign | ast.NamedExpr):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if self._holds_models(node.value, tainted):
                        tainted |= _names(targets)
                elif isinstance(
                    node, ast.For | ast.AsyncFor | ast.comprehension
                ) and self._from_models(node.iter, tainted):
                    tainted |= _names([node.target])
        return tainted

    def writes(self) -> list[tuple[int, str]]:
        """Return (line, code) of every write found."""
        found: set[tuple[int, str]] = set()
        scopes = [self.tree] + [
            n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        for scope in scopes:
            tainted = self._tainted(scope) if scope is not self.tree else set()
            for node in ast.walk(scope):
                if not isinstance(node, ast.Call):
                    continue
                if self._is_model(node.func):
                    found.add((node.lineno, ast.unparse(node)))
                    continue
                if not isinstance(node.func, ast.Attribute):
                    continue
                method, receiver = node.func.attr, node.func.value
                hit = (
                    (method in WRITES and self._from_models(receiver, set()))
                    or (method in RELATED_WRITES and _has_related(receiver))
                    or (method in INSTANCE_WRITES and self._from_models(receiver, tainted))
                )
                if hit:
                    found.add((node.lineno, ast.unparse(node)))
        return sorted(found)


def _names(targets: list[ast.expr]) -> set[str]:
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _has_related(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in RELATED for n in ast.walk(node))


def find_writes(source: str) -> list[tuple[int, str]]:
    """Return (line, code) of every write of a Table, Seat or TableEvent in `source`."""
    return _Finder(ast.parse(source)).writes()


def _product_modules() -> Iterator[Path]:
    for path in sorted(BASE_DIR.rglob("*.py")):
        relative = path.relative_to(BASE_DIR)
        parts = relative.parts[:-1]
        if any(p.startswith(".") or p.endswith(".egg-info") or p in SKIPPED_DIRS for p in parts):
            continue
        yield relative


def test_only_games_services_writes_tables_seats_and_events() -> None:
    modules = list(_product_modules())
    assert Path("lessons/sessions/services.py") in modules  # the scan sees the product
    offences = {
        str(path): writes
        for path in modules
        if path.parent != WRITER and (writes := find_writes((BASE_DIR / path).read_text()))
    }
    assert offences == {}, (
        f"Only games/services/ may write tables, seats and table events: {offences}. "
        "Add or call a service function there."
    )


def test_the_check_sees_the_writes_of_games_services() -> None:
    found = {
        code
        for module in sorted((BASE_DIR / WRITER).glob("*.py"))
        for _line, code in find_writes(module.read_text())
    }
    assert any("Table.objects.create(" in code for code in found)
    assert any("select_for_update()" in code for code in found)
    assert any(code.startswith("seat.save(") for code in found)
    assert any(code.startswith("table.save(") for code in found)


@pytest.mark.parametrize(
    "source",
    [
        "from games.models import Table\nTable.objects.filter(pk=1).update(status='finished')\n",
        "from games.models import Table\n"
        "def f(pk):\n    t = Table.objects.select_for_update().get(pk=pk)\n",
        "from games.models import Table\n"
        "def f(pk):\n    t = Table.objects.get(pk=pk)\n    t.save(update_fields=['status'])\n",
        "from games.models import Seat\ndef f(seat: Seat) -> None:\n    seat.save()\n",
        "from games.models import Seat\ndef f(seat: 'Seat | None') -> None:\n    seat.delete()\n",
        "def f(table):\n    table.seats.filter(index=0).update(name='x')\n",
        "def f(table):\n    for seat in table.seats.all():\n        seat.save()\n",
        "def f(table):\n    seat = next(s for s in table.seats.all() if s.index == 0)\n"
        "    seat.save()\n",
        "def f(table):\n    table.events.create(seq=1)\n",
        "from games.models import TableEvent as Event\nEvent.objects.bulk_create([])\n",
        "from games import models\nmodels.Seat.objects.get_or_create(index=0)\n",
        "import games.models as gm\ngm.Table.objects.all().delete()\n",
        "from games.models import Table\nTable(ruleset='fractions')\n",
        "from games.models import Seat\nSeat.objects.bulk_update([], ['name'])\n",
    ],
)
def test_the_check_notices_a_planted_write(source: str) -> None:
    assert find_writes(source), source


@pytest.mark.parametrize(
    "source",
    [
        "from games.models import Table\nTable.objects.filter(pk=1).values_list('status')\n",
        "from games.models import Seat\nBOT = Seat.Bot.HEURISTIC\n",
        "from games.models import Table\ndef f(t: Table) -> str:\n    return t.status\n",
        "def f(member):\n    member.save(update_fields=['table'])\n",
        "from lessons.models import SessionTable\nSessionTable.objects.create(number=1)\n",
        "from games.services import table_finish\ntable_finish(table_id=1)\n",
        "def f(events: dict) -> None:\n    events.update({})\n",
    ],
)
def test_the_check_leaves_reads_and_other_models_alone(source: str) -> None:
    assert find_writes(source) == []
