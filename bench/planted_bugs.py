"""Measure how many planted bugs the non-end-to-end suite notices (issue 22, "Tests that notice").

Reads bench/planted_bugs.toml: a list of plausible bugs, each a file, an exact snippet of its
text (found exactly once), a replacement and a one-line description. For each bug, in a scratch
git worktree of the committed HEAD (never in your own tree):

1. applies the change;
2. runs the targeted tests (the tests/ directories that match the module, or the bug's own
   `targets`) with `-x`;
3. only if they all pass, runs the whole suite without tests/e2e to confirm survival (the
   bug's own package first, so that -x stops sooner);
4. resets the scratch tree (`git checkout -- .`).

Caught = some test failed or errored with the bug in. The first failing test is then run alone,
on the clean tree and with the bug in again: if it fails on the clean tree, or passes with the
bug, the bug is reported FLAKY and not counted as caught.
Prints one line per bug and a final line `caught N of M (P%): PASS|FAIL (goal >= 95%)`.
Run by hand (it takes a while; not part of `make test`):

    /work/main/.venv/bin/python bench/planted_bugs.py [--set SET] [--only ID ...] [--targeted-only]

`--set i32` judges only issue 32's set (the ids starting with `i32-`).

`--targeted-only` skips step 3 (a quick look; the figure is then a lower bound), and
`--suite-only --only ID ...` runs step 3 alone for the bugs such a run left standing: the two
together cost what one full run costs, and the second can start while the first goes on.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "planted_bugs.toml"
SCRATCH = Path(os.environ.get("PLANTED_SCRATCH", "/work/wt/mutant-scratch"))
PYTHON = os.environ.get("PLANTED_PYTHON", "/work/main/.venv/bin/python")
GOAL = 95.0
PYTEST = ["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-rfE"]
# "FAILED tests/x.py::test_y[a b] - AssertionError": a parametrized id may hold spaces.
FAILED_LINE = re.compile(r"^(FAILED|ERROR) (.+?)(?: - .*)?$", re.MULTILINE)


@dataclass(frozen=True)
class Bug:
    """One planted bug: where, what it replaces, with what, and what it breaks."""

    id: str
    file: str
    original: str
    replacement: str
    description: str
    targets: tuple[str, ...] = field(default_factory=tuple)


def load_bugs(path: Path = DATA) -> list[Bug]:
    """Read the bugs of the data file, refusing duplicates and no-op changes."""
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["bug"]
    bugs = [
        Bug(
            id=row["id"],
            file=row["file"],
            original=row["original"],
            replacement=row["replacement"],
            description=row["description"],
            targets=tuple(row.get("targets", ())),
        )
        for row in rows
    ]
    ids = [bug.id for bug in bugs]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate bug ids in the data file")
    for bug in bugs:
        if bug.original == bug.replacement:
            raise SystemExit(f"{bug.id}: the replacement is the original")
    return bugs


def targets_of(bug: Bug) -> list[str]:
    """Name the tests/ directories that match the bug's module (or the bug's own targets)."""
    if bug.targets:
        return list(bug.targets)
    parts = Path(bug.file).with_suffix("").parts
    if parts[:2] == ("games", "engine"):
        return ["tests/engine"]
    if parts[0] == "games":
        return ["tests/games"]
    if parts[0] == "lessons" and len(parts) > 2:
        return [f"tests/lessons/{parts[1]}"]
    return ["tests"]


# The whole suite but tests/e2e (tests/support holds no tests).
SUITE = ("tests/engine", "tests/games", "tests/lessons", "tests/unoclass")


def suite_of(bug: Bug) -> list[str]:
    """Name the whole non-e2e suite, the bug's own package first (-x stops sooner)."""
    first = [part for part in SUITE if any(t.startswith(part) for t in targets_of(bug))]
    return [*first, *(part for part in SUITE if part not in first)]


def git(*args: str, cwd: Path = SCRATCH) -> str:
    """Run git in the scratch tree and return its output."""
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def prepare_scratch(commit: str = "HEAD") -> str:
    """Put the scratch worktree at a commit of this tree (HEAD), translations compiled."""
    head = git("rev-parse", commit, cwd=ROOT).strip()
    if not SCRATCH.exists():
        git("worktree", "add", "--detach", str(SCRATCH), head, cwd=ROOT)
    git("checkout", "--detach", "--force", head)
    git("checkout", "--", ".")
    subprocess.run(
        [PYTHON, "manage.py", "compiletranslations"],
        cwd=SCRATCH,
        env=environment(),
        check=True,
        capture_output=True,
    )
    return head


def environment() -> dict[str, str]:
    """Give the scratch tree's processes the project's test environment."""
    return {**os.environ, "PYTHONPATH": str(SCRATCH), "DEBUG": "1"}


def pytest(args: list[str]) -> tuple[int, str]:
    """Run pytest in the scratch tree; return its exit code and its output."""
    done = subprocess.run(
        [PYTHON, *PYTEST, *args],
        cwd=SCRATCH,
        env=environment(),
        capture_output=True,
        text=True,
    )
    return done.returncode, done.stdout + done.stderr


def first_failure(output: str) -> str:
    """Name the first failed or errored test of a pytest output."""
    found = FAILED_LINE.search(output)
    if found:
        return found.group(2)
    for line in output.splitlines():
        if "rror" in line and "tests/" in line:
            return line.strip()[:120]
    return "(no test named: see the output)"


def plant(bug: Bug) -> None:
    """Apply the bug to the scratch tree, refusing a snippet that is not there exactly once."""
    path = SCRATCH / bug.file
    text = path.read_text(encoding="utf-8")
    count = text.count(bug.original)
    if count != 1:
        raise ValueError(f"{bug.id}: the original snippet occurs {count} times in {bug.file}")
    path.write_text(text.replace(bug.original, bug.replacement), encoding="utf-8")


def judge(bug: Bug, targeted_only: bool, suite_only: bool = False) -> tuple[str, str]:
    """Plant one bug, run the tests, reset; return the verdict and the test that caught it."""
    plant(bug)
    try:
        code, output, stage = 0, "", "targeted"
        if not suite_only:
            code, output = pytest(targets_of(bug))
        if code == 0 and not targeted_only:
            code, output = pytest(suite_of(bug))
            stage = "suite"
    finally:
        git("checkout", "--", ".")
    if code == 0:
        return "SURVIVED", stage
    if code == 5:
        return "ERROR", "no tests collected"
    catcher = first_failure(output)
    if "::" in catcher:
        clean_code, _ = pytest([catcher])
        if clean_code != 0:
            return "FLAKY", f"{catcher} fails on the clean tree too"
        # A test that failed by chance (a loaded machine) passes when run again with the bug in.
        plant(bug)
        try:
            again_code, _ = pytest([catcher])
        finally:
            git("checkout", "--", ".")
        if again_code == 0:
            return "FLAKY", f"{catcher} passes with the bug in when run again"
    return "caught", f"{catcher} ({stage})"


def check(bugs: list[Bug]) -> int:
    """Check that every bug's snippet is in this tree exactly once; return 1 if one is not."""
    bad = 0
    for bug in bugs:
        count = (ROOT / bug.file).read_text(encoding="utf-8").count(bug.original)
        if count != 1:
            bad += 1
            print(f"{bug.id}: the original snippet occurs {count} times in {bug.file}")
    print(f"{len(bugs) - bad} of {len(bugs)} bugs apply")
    return 1 if bad else 0


def main() -> int:
    """Judge every bug of the data file and print the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="judge only these bug ids")
    parser.add_argument(
        "--set",
        dest="bug_set",
        help="judge only the bugs of one set: ids starting with SET- (i32: issue 32's)",
    )
    parser.add_argument("--targeted-only", action="store_true", help="skip the whole-suite run")
    parser.add_argument(
        "--suite-only",
        action="store_true",
        help="skip the targeted tests (for the bugs a --targeted-only run left standing)",
    )
    parser.add_argument("--commit", default="HEAD", help="measure this commit (default HEAD)")
    parser.add_argument("--check", action="store_true", help="only check every snippet applies")
    options = parser.parse_args()
    bugs = load_bugs()
    if options.bug_set:
        bugs = [bug for bug in bugs if bug.id.startswith(f"{options.bug_set}-")]
    if options.only:
        bugs = [bug for bug in bugs if bug.id in set(options.only)]
    if options.check:
        return check(bugs)
    head = prepare_scratch(options.commit)
    print(f"planted bugs: {len(bugs)} at {head[:12]} in {SCRATCH}", flush=True)
    caught = 0
    for bug in bugs:
        started = time.monotonic()
        try:
            verdict, detail = judge(bug, options.targeted_only, options.suite_only)
        except ValueError as error:
            verdict, detail = "ERROR", str(error)
        caught += verdict == "caught"
        seconds = time.monotonic() - started
        line = f"{bug.id:<40} {verdict:<8} {detail}  [{seconds:.0f} s] {bug.description}"
        print(line, flush=True)
    share = 100.0 * caught / len(bugs) if bugs else 0.0
    verdict = "PASS" if share >= GOAL else "FAIL"
    print(f"caught {caught} of {len(bugs)} ({share:.1f}%): {verdict} (goal >= {GOAL:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
