"""Calibration benchmark of the diagnosis: simulated students through the status model.

Seeded; about a minute on two cores. Students (lessons.diagnosis.calibration) play turns taken
from real games of the 116-card fractions deck and are diagnosed after every turn by the model
lessons.diagnosis.diagnose() runs:

(a) no misconception: a random wrong play whenever one exists, 60 turns (also: with a random
    reason after every refused "equal" claim; and drawing only among cards of another
    denominator, a departure from the chance model);
(b) one habit each of M1, M2, M3 at 30% of the turns where a fitting card is held, otherwise a
    right play or a draw, 150 turns;
(c) the same with a reason after every refused "equal" claim (the habit's own 75% of the time);
(d) aimed dealing (issue 13): the same habit students, no reasons, their turns taken from games
    dealt aimed at their habit (games/engine/aim.py) and from ordinary games, up to 500 turns:
    both medians of turns to "likely", PASS when aimed dealing is at least twice as fast; and
    students without a misconception in games aimed at M1 (the chance model must still hold).

Prints one PASS/FAIL line per goal, then information lines. Run by hand:

    .venv/bin/python bench/diagnosis.py [--students 2000] [--habit-students 500] [--jobs 2]

Not part of the test suite (tests/lessons/diagnosis/test_calibration.py pins small samples).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lessons.diagnosis import calibration as cal  # noqa: E402
from lessons.diagnosis.calibration import Outcome, Student  # noqa: E402

HABITS = ("M1", "M2", "M3")
NULL_TURNS = 60
HABIT_TURNS = 150
RECOVERY_TURNS = 100
AIM_TURNS = 500
AIM_SPEED_UP = 2.0


def _run(job: tuple[Student, int, int, int]) -> list[Outcome]:
    student, first, count, turns = job
    return cal.run_students(student, range(first, first + count), turns)


def simulate(
    pool: ProcessPoolExecutor, student: Student, count: int, turns: int, seed: int
) -> list[Outcome]:
    """Run `count` students in chunks over the pool (seeds seed .. seed + count - 1)."""
    chunk = max(1, count // 8)
    jobs = [(student, seed + i, min(chunk, count - i), turns) for i in range(0, count, chunk)]
    return [outcome for part in pool.map(_run, jobs) for outcome in part]


def line(ok: bool, text: str) -> str:
    return f"{'PASS' if ok else 'FAIL'}  {text}"


def aimed_dealing(
    pool: ProcessPoolExecutor, students: int, null_students: int
) -> tuple[list[str], list[str]]:
    """Compare the habit students' turns to "likely" with aimed and with ordinary dealing."""
    lines: list[str] = []
    info: list[str] = []
    plain_held = cal.fitting_card_share(HABITS)
    aimed_held = cal.fitting_card_share(HABITS, aimed=True)
    for i, rule in enumerate(HABITS):
        seed = (20 + i) * 10**6
        medians = []
        for aim in (None, rule):
            student = Student(habit=rule, aim=aim, until_likely=True)
            found = simulate(pool, student, students, AIM_TURNS, seed)
            medians.append(cal.median_turns(found, rule))
        ordinary, aimed = medians
        speed_up = ordinary / aimed if aimed else float("inf")
        lines.append(
            line(
                speed_up >= AIM_SPEED_UP,
                f"{rule} habit median turns to 'likely': aimed dealing {aimed:g}, ordinary "
                f"{ordinary:g} ({speed_up:.2f} times as fast, >= {AIM_SPEED_UP:g})",
            )
        )
        info.append(
            f"info  {rule}: turns with a fitting card held, ordinary {plain_held[rule]:.1%}, "
            f"aimed {aimed_held[rule]:.1%}"
        )
    plain = simulate(pool, Student(aim="M1"), null_students, NULL_TURNS, 30 * 10**6)
    rate = cal.false_likely(plain, NULL_TURNS)
    lines.append(
        line(
            rate <= 0.02,
            f"false 'likely', no misconception, games aimed at M1, 60 turns: {rate:.2%} (<= 2%)",
        )
    )
    return lines, info


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=2000, help="per no-misconception case")
    parser.add_argument("--habit-students", type=int, default=500, help="per habit and case")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.monotonic()
    cal.situations()  # built once before the workers fork
    for rule in HABITS:
        cal.aimed_situations(rule)
    lines: list[str] = []
    info: list[str] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        n = args.students
        plain = simulate(pool, Student(), n, NULL_TURNS, 0)
        reasons = simulate(pool, Student(reasons=True), n, NULL_TURNS, 10**6)
        other = simulate(pool, Student(different_denominators=True), n, NULL_TURNS, 2 * 10**6)
        rate = cal.false_likely(plain, NULL_TURNS)
        lines.append(
            line(rate <= 0.02, f"false 'likely', no misconception, 60 turns: {rate:.2%} (<= 2%)")
        )
        rate = cal.false_likely(reasons, NULL_TURNS)
        lines.append(
            line(rate <= 0.02, f"false 'likely', random reasons, 60 turns: {rate:.2%} (<= 2%)")
        )
        info.append(
            f"info  false 'likely', wrong plays among other denominators only: "
            f"{cal.false_likely(other, NULL_TURNS):.2%}"
        )
        info.append(
            f"info  'emerging' for some rule after 60 turns, no misconception: "
            f"{cal.false_emerging(plain):.2%}"
        )
        held = cal.fitting_card_share(HABITS)
        info.append(
            "info  turns with a fitting card held: "
            + ", ".join(f"{rule} {held[rule]:.1%}" for rule in HABITS)
        )
        for rule in HABITS:
            shows = held[rule] * cal.HABIT_RATE
            info.append(
                f"limit {rule}: a 30% habit shows {shows * 60:.1f} times in 60 turns, "
                f"{shows * 150:.1f} in 150; each fit has chance p0 of about 1/3, and beating "
                "chance at the stated error rate takes about 6 fits without reasons"
            )
        for with_reasons in (False, True):
            label = "with reasons" if with_reasons else "no reasons"
            target = 45 if with_reasons else 60
            for i, rule in enumerate(HABITS):
                student = Student(habit=rule, reasons=with_reasons)
                seed = (3 + i + 3 * with_reasons) * 10**6
                found = simulate(pool, student, args.habit_students, HABIT_TURNS, seed)
                share = cal.found(found, rule, HABIT_TURNS)
                median = cal.median_turns(found, rule)
                resolved = cal.false_resolved(found, rule)
                lines.append(
                    line(
                        share >= 0.9,
                        f"{rule} habit ({label}) 'likely' within 150 turns: {share:.1%} (>= 90%)",
                    )
                )
                lines.append(
                    line(
                        median <= target,
                        f"{rule} habit ({label}) median turns to 'likely': "
                        f"{median:g} (<= {target})",
                    )
                )
                lines.append(
                    line(
                        resolved <= 0.02,
                        f"{rule} habit ({label}) false 'resolved' while it "
                        f"persists, 150 turns: {resolved:.2%} (<= 2%)",
                    )
                )
                info.append(
                    f"info  {rule} habit ({label}): an unrelated rule 'likely': "
                    f"{cal.other_likely(found, rule):.2%}"
                )
                if not with_reasons:
                    stop = Student(habit=rule, stop_after_likely=True)
                    after = simulate(
                        pool, stop, args.habit_students // 2, HABIT_TURNS + RECOVERY_TURNS, seed + 1
                    )
                    share, median = cal.recovery(after, rule, RECOVERY_TURNS)
                    info.append(
                        f"info  {rule} habit stopped once 'likely': 'resolved' within "
                        f"{RECOVERY_TURNS} turns {share:.1%}, median {median:g} turns"
                    )
        aimed_lines, aimed_info = aimed_dealing(pool, args.habit_students, n)
        lines += aimed_lines
        info += aimed_info
    print("\n".join(lines + info))
    print(f"info  {time.monotonic() - started:.0f} s, {args.jobs} processes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
