"""The import contracts of pyproject.toml hold, and they would catch a planted bad import.

`make test` runs lint-imports too; these tests keep the contracts checked when only pytest
runs, and prove the contracts are not vacuous (a contract that names a module nobody imports,
or a typo in a module name, would pass forever).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("unoclass", "games", "lessons")


def _lint_imports(cwd: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """Run lint-imports on the tree at `cwd`, with its pyproject.toml, and no cache."""
    args = [str(LINT_IMPORTS), "--no-cache"]
    for contract in contracts:
        args += ["--contract", contract]
    # The tree at cwd comes first on the path, before the editable install of the real one.
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def _contract_ids() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {contract["id"] for contract in config["tool"]["importlinter"]["contracts"]}


def test_the_contracts_are_declared() -> None:
    assert _contract_ids() == {
        "apps-layers",
        "lessons-layers",
        "engine-pure",
        "diagnosis-pure",
        "diagnosis-simulation-apart",
        "ent-matching-pure",
        "print-worker-pure",
        "move-storage",
    }


def test_the_tree_keeps_every_import_contract() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "8 kept, 0 broken" in result.stdout


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copy the product's packages and pyproject.toml to a scratch directory."""
    copy = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


# (contract, file planted in the copy, its import, what lint-imports must report; third-party
# packages show as their top-level name)
PLANTED = [
    ("engine-pure", "games/engine/planted.py", "import django.conf", "-> django"),
    ("engine-pure", "games/engine/planted.py", "import channels.layers", "channels"),
    ("engine-pure", "games/engine/planted.py", "from games import models", "games.models"),
    ("apps-layers", "games/planted.py", "from lessons import models", "lessons.models"),
    ("apps-layers", "lessons/planted.py", "import unoclass.urls", "unoclass.urls"),
    ("diagnosis-pure", "lessons/diagnosis/planted.py", "from lessons import models", "lessons"),
    ("diagnosis-pure", "lessons/diagnosis/planted.py", "import games.models", "games.models"),
    ("diagnosis-pure", "lessons/diagnosis/planted.py", "from django.db import models", "django"),
    # Indirectly: through a helper that is itself allowed, Django still counts.
    ("diagnosis-pure", "lessons/diagnosis/planted.py", "import games.selectors", "django"),
    # The simulations stay off the runtime path, also for the diagnosis's own modules.
    (
        "diagnosis-simulation-apart",
        "lessons/reporting/planted.py",
        "from lessons.diagnosis.simulation import calibration",
        "lessons.diagnosis.simulation.calibration",
    ),
    (
        "diagnosis-simulation-apart",
        "lessons/diagnosis/planted.py",
        "import lessons.diagnosis.simulation.reference",
        "lessons.diagnosis.simulation.reference",
    ),
    ("move-storage", "lessons/planted.py", "from games.store import Insert", "games.store"),
    # A room importing one above it, even a function-level import, breaks the lessons layers.
    ("lessons-layers", "lessons/classrooms/planted.py", "import lessons.home.views", "home"),
    ("lessons-layers", "lessons/warmup/planted.py", "import lessons.sessions.services", "sessions"),
    ("lessons-layers", "lessons/models/planted.py", "import lessons.classrooms.names", "names"),
    # The imports that once made cycles (issue 33 §2): each room now sits below its readers.
    ("lessons-layers", "lessons/plans/planted.py", "import lessons.reporting.pdf", "reporting"),
    ("lessons-layers", "lessons/warmup/planted.py", "import lessons.practice.views", "practice"),
    ("lessons-layers", "lessons/aiming/planted.py", "import lessons.attempts.hooks", "attempts"),
    ("lessons-layers", "lessons/evidence/planted.py", "import lessons.aiming.rules", "aiming"),
    ("lessons-layers", "lessons/printing/planted.py", "import lessons.plans.views", "plans"),
    # "|" siblings never import each other.
    ("lessons-layers", "lessons/pupils/planted.py", "import lessons.home.landing", "lessons.home"),
    ("lessons-layers", "lessons/practice/planted.py", "import lessons.sessions.views", "sessions"),
    ("lessons-layers", "lessons/evidence/planted.py", "import lessons.classrooms.names", "names"),
]


def _lessons_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers: list[str] = next(c["layers"] for c in contracts if c["id"] == "lessons-layers")
    return layers


def test_every_lessons_room_has_one_layer_and_no_sibling_imports_another() -> None:
    # A room left out of the contract could import any room; ":" would let siblings import
    # each other (the cycles issue 33 §2 removed).
    layers = _lessons_layers()
    assert not [layer for layer in layers if ":" in layer]
    placed = [room.strip() for layer in layers for room in layer.split("|")]
    rooms = [
        path.parent.name
        for path in (ROOT / "lessons").glob("*/__init__.py")
        if path.parent.name != "migrations"
    ]
    assert sorted(placed) == sorted(rooms)


@pytest.mark.parametrize(("contract", "planted", "statement", "reported"), PLANTED)
def test_a_planted_import_breaks_its_contract(
    tree_copy: Path, contract: str, planted: str, statement: str, reported: str
) -> None:
    target = tree_copy / planted
    target.write_text(f'"""Planted by the contract test."""\n\n{statement}\n', encoding="utf-8")
    try:
        result = _lint_imports(tree_copy, contract)
    finally:
        target.unlink()
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "BROKEN" in output, output
    module = planted.removesuffix(".py").replace("/", ".")
    assert module in output and reported in output, output


@pytest.mark.parametrize(
    ("statement", "reported"),
    [("from django.db import models", "django"), ("import lessons.models", "lessons.models")],
)
def test_django_in_the_ent_matching_module_breaks_its_contract(
    tree_copy: Path, statement: str, reported: str
) -> None:
    # lessons.ent.matching is a module, not a package: the import goes into the module itself.
    target = tree_copy / "lessons/ent/matching.py"
    original = target.read_text(encoding="utf-8")
    target.write_text(f"{original}\n{statement}\n", encoding="utf-8")
    try:
        result = _lint_imports(tree_copy, "ent-matching-pure")
    finally:
        target.write_text(original, encoding="utf-8")
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "BROKEN" in output, output
    assert "lessons.ent.matching" in output and reported in output, output


@pytest.mark.parametrize(
    ("module", "statement"),
    [
        ("lessons/printing/pdf_merge.py", "import django.conf"),
        # Indirectly: the printing module reads the cache and the models.
        ("lessons/printing/pdf_render.py", "from lessons.printing import printing"),
    ],
)
def test_a_django_import_in_a_print_worker_module_breaks_its_contract(
    tree_copy: Path, module: str, statement: str
) -> None:
    target = tree_copy / module
    original = target.read_text(encoding="utf-8")
    target.write_text(f"{original}\n{statement}  # planted\n", encoding="utf-8")
    try:
        result = _lint_imports(tree_copy, "print-worker-pure")
    finally:
        target.write_text(original, encoding="utf-8")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "BROKEN" in output, output
    assert module.removesuffix(".py").replace("/", ".") in output and "django" in output, output


def test_the_copy_without_a_planted_import_keeps_the_contracts(tree_copy: Path) -> None:
    # So the planted failures above come from the planted line, not from the copying.
    result = _lint_imports(tree_copy)
    assert result.returncode == 0, result.stdout + result.stderr
