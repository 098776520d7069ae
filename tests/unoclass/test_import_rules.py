"""Import rules import-linter cannot express, checked on the source (AST).

- No module of games/ or lessons/ imports a private name (leading underscore), or from a
  private module, of another module tree. A tree is a top-level sub-package
  (games.engine, lessons.sessions…) or a top-level module (games.services): inside a tree,
  private helpers may be shared; across trees, what is used must be public.
- Views are entry points: only URL modules import them (so no views module imports another).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "lessons")


@dataclass(frozen=True)
class Imported:
    """One imported module or name, as written in a module of ours."""

    importer: str
    line: int
    module: str  # absolute module imported from
    name: str | None  # the name imported from it (None for `import module`)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """Return the absolute module of a `from … import`, relative ones included."""
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: Path, source: str | None = None) -> Iterator[Imported]:
    """Yield every import of a module, at any depth (imports inside functions count too)."""
    importer = _module_name(path)
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(importer, node.lineno, alias.name, None)
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(importer, _is_package(path), node)
            for alias in node.names:
                yield Imported(importer, node.lineno, module, alias.name)


def tree_of(module: str) -> str:
    """Return a module's tree: its first two dotted parts (games.engine, games.services)."""
    return ".".join(module.split(".")[:2])


def _ours(module: str) -> bool:
    return module.split(".")[0] in (*APPS, "unoclass")


def _is_views(module: str) -> bool:
    return "views" in module.split(".")


def _is_urls(module: str) -> bool:
    return module.split(".")[-1] == "urls"


def private_imports(imported: Imported) -> list[str]:
    """Describe why an import reaches into another tree's private parts (empty: it does not)."""
    full = imported.module if imported.name is None else f"{imported.module}.{imported.name}"
    if not _ours(full) or tree_of(full) == tree_of(imported.importer):
        return []
    parts = full.split(".")
    private = [part for part in parts if part.startswith("_") and not part.startswith("__")]
    if not private:
        return []
    return [f"{imported.importer}:{imported.line} imports {full} ({', '.join(private)})"]


def views_imports(imported: Imported) -> list[str]:
    """Describe an import of a views module by anything but a URL module (empty: fine)."""
    targets = [imported.module]
    if imported.name is not None:
        # `from lessons.sessions import views` imports the module lessons.sessions.views.
        targets.append(f"{imported.module}.{imported.name}")
    hit = [t for t in targets if _ours(t) and _is_views(t) and (ROOT / _path_of(t)).exists()]
    if not hit or _is_urls(imported.importer):
        return []
    # A views package's own modules (views/__init__ gathering views/*.py) count as one module.
    same_views = imported.importer.split(".views")[0] == hit[0].split(".views")[0]
    if _is_views(imported.importer) and same_views:
        return []
    return [f"{imported.importer}:{imported.line} imports the views module {hit[0]}"]


def _path_of(module: str) -> Path:
    path = Path(*module.split("."))
    return path / "__init__.py" if (ROOT / path).is_dir() else path.with_suffix(".py")


def _sources() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_the_sources_are_found() -> None:
    names = {_module_name(path) for path in _sources()}
    assert {"games.engine.game", "games.views", "lessons.sessions.views"} <= names


def test_no_module_imports_a_private_name_of_another_tree() -> None:
    problems = [
        problem
        for path in _sources()
        for imported in imports_of(path)
        for problem in private_imports(imported)
    ]
    assert not problems, "\n".join(problems)


def test_only_url_modules_import_views() -> None:
    problems = [
        problem
        for path in _sources()
        for imported in imports_of(path)
        for problem in views_imports(imported)
    ]
    assert not problems, "\n".join(problems)


# The checks themselves, on planted sources: a check that never fires proves nothing.
@pytest.mark.parametrize(
    ("path", "source", "caught"),
    [
        ("lessons/sessions/consumers.py", "from games.consumers import _language_of", True),
        ("lessons/sessions/consumers.py", "from games.engine._deal import x", True),
        ("lessons/sessions/consumers.py", "import games.engine._deal", True),
        ("games/views.py", "def f():\n    from games.services import _seat\n", True),
        ("games/engine/game.py", "from ._helpers import shuffle", False),
        ("games/engine/game.py", "from games.engine.deal import _cut", False),
        ("games/views.py", "from games.engine import card_name", False),
        ("games/views.py", "from django.utils import _os", False),
        ("games/views.py", "from games import __version__", False),
    ],
)
def test_the_private_check_catches_a_planted_import(path: str, source: str, caught: bool) -> None:
    problems = [p for i in imports_of(ROOT / path, source) for p in private_imports(i)]
    assert bool(problems) is caught, problems


@pytest.mark.parametrize(
    ("path", "source", "caught"),
    [
        ("lessons/sessions/consumers.py", "from lessons.sessions import views", True),
        ("lessons/sessions/consumers.py", "from lessons.sessions.views import overview", True),
        ("lessons/reporting/views.py", "from lessons.classrooms.views import home", True),
        ("lessons/sessions/views.py", "from lessons.classrooms import views", True),
        ("games/views.py", "def f():\n    from lessons.reporting.views import export\n", True),
        ("lessons/sessions/services.py", "import games.views", True),
        ("lessons/sessions/urls.py", "from lessons.sessions import views", False),
        ("games/urls.py", "from . import views", False),
        ("games/views.py", "from django.contrib.auth import views as auth_views", False),
        ("games/views.py", "from django.views.decorators.http import require_POST", False),
    ],
)
def test_the_views_check_catches_a_planted_import(path: str, source: str, caught: bool) -> None:
    problems = [p for i in imports_of(ROOT / path, source) for p in views_imports(i)]
    assert bool(problems) is caught, problems
