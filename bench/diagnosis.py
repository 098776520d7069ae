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
    students without a misconception in games aimed at M1 (the chance model must still hold);
(e) the warm-up (issue 20), items from probe_next's model, answers read by diagnose()'s
    (lessons.diagnosis.warmup_calibration): pupils without a misconception answering 40% wrong
    at random with random reasons; a 50% habit of M1, M2, M3 with and without reasons; a 30%
    habit with reasons; competent pupils (5% wrong at random); a re-check round after a 50%
    habit was found, the habit stopped (a competent pupil then) or persisting (30% and 50%);
    and a warm-up followed by 60 game turns (no misconception, random reasons: the error rate
    over both kinds of evidence together); these on the `full` level, and information lines for
    the other levels (a fifth of the pupils).

Prints one PASS/FAIL line per goal, then information lines. Run by hand:

    .venv/bin/python bench/diagnosis.py [--students 2000] [--habit-students 500] [--jobs 2]
        [--pupils 1000] [--part all|game|warmup]

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
from lessons.diagnosis import warmup_calibration as wc  # noqa: E402
from lessons.diagnosis.calibration import Outcome, Student  # noqa: E402
from lessons.diagnosis.probe import ROUND_CAP  # noqa: E402
from lessons.diagnosis.warmup_calibration import Pupil, RoundOutcome  # noqa: E402

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


WarmUpJob = tuple[str, Pupil, Pupil | None, int, int]


def _run_warm_up(job: WarmUpJob) -> list[RoundOutcome | bool | None]:
    kind, pupil, later, first, count = job
    seeds = range(first, first + count)
    out: list[RoundOutcome | bool | None] = []
    student = Student(reasons=pupil.reasons)
    for seed in seeds:
        if kind == "round":
            out.append(wc.run_pupil(pupil, seed))
        elif kind == "recheck":
            assert later is not None
            out.append(wc.run_recheck(pupil, later, seed))
        else:
            out.append(wc.run_then_game(pupil, student, seed, NULL_TURNS))
    return out


def simulate_warm_up(
    pool: ProcessPoolExecutor,
    kind: str,
    pupil: Pupil,
    count: int,
    seed: int,
    later: Pupil | None = None,
) -> list[RoundOutcome | bool | None]:
    """Run `count` pupils' warm-ups in chunks over the pool (seeds seed .. seed + count - 1)."""
    chunk = max(1, count // 8)
    jobs = [(kind, pupil, later, seed + i, min(chunk, count - i)) for i in range(0, count, chunk)]
    return [outcome for part in pool.map(_run_warm_up, jobs) for outcome in part]


def _rounds(results: list[RoundOutcome | bool | None]) -> list[RoundOutcome]:
    return [r for r in results if isinstance(r, RoundOutcome)]


def warm_up(pool: ProcessPoolExecutor, pupils: int) -> tuple[list[str], list[str]]:
    """Measure the warm-up's goals (issue 20)."""
    lines: list[str] = []
    info: list[str] = []
    lengths: list[int] = []
    null = _rounds(simulate_warm_up(pool, "round", Pupil(wrong=0.4, reasons=True), pupils, 0))
    lengths += wc.round_lengths(null)
    rate = wc.false_likely(null)
    lines.append(
        line(
            rate <= 0.02,
            f"warm-up: false 'likely', no misconception, 40% wrong at random, random reasons: "
            f"{rate:.2%} (<= 2%)",
        )
    )
    info.append(
        f"info  warm-up: that pupil's median round {wc.median(wc.round_lengths(null)):g} items"
    )
    competent = _rounds(simulate_warm_up(pool, "round", Pupil(wrong=0.05), pupils, 10**6))
    lengths += wc.round_lengths(competent)
    middle = wc.median(wc.round_lengths(competent))
    lines.append(
        line(
            middle <= 12,
            f"warm-up: competent pupil (5% wrong) median round {middle:g} items (<= 12)",
        )
    )
    info.append(f"info  warm-up: competent pupil false 'likely' {wc.false_likely(competent):.2%}")
    habit_pupils = max(1, pupils // 2)
    for i, rule in enumerate(HABITS):
        for reasons, rate_goal in ((True, 0.95), (False, 0.9)):
            label = "with reasons" if reasons else "no reasons"
            pupil = Pupil(habit=rule, rate=0.5, reasons=reasons)
            seed = (40 + i + 3 * reasons) * 10**6
            found = _rounds(simulate_warm_up(pool, "round", pupil, habit_pupils, seed))
            lengths += wc.round_lengths(found)
            share = wc.found(found, rule)
            median = wc.items_to_likely(found, rule)
            lines.append(
                line(
                    share >= rate_goal,
                    f"warm-up: {rule} 50% habit ({label}) 'likely' by the end of the round: "
                    f"{share:.1%} (>= {rate_goal:.0%})",
                )
            )
            if reasons:
                lines.append(
                    line(
                        median <= 8,
                        f"warm-up: {rule} 50% habit (with reasons) median items to 'likely': "
                        f"{median:g} (<= 8)",
                    )
                )
            else:
                info.append(f"info  warm-up: {rule} 50% habit (no reasons) median items {median:g}")
        pupil = Pupil(habit=rule, rate=0.3, reasons=True)
        found = _rounds(simulate_warm_up(pool, "round", pupil, habit_pupils, (50 + i) * 10**6))
        lengths += wc.round_lengths(found)
        share = wc.found(found, rule)
        lines.append(
            line(
                share >= 0.9,
                f"warm-up: {rule} 30% habit (with reasons) 'likely' by the end of the round: "
                f"{share:.1%} (>= 90%)",
            )
        )
        info.append(
            f"info  warm-up: {rule} 30% habit median items to 'likely' "
            f"{wc.items_to_likely(found, rule):g}"
        )
        habit = Pupil(habit=rule, rate=0.5, reasons=True)
        stopped = _rounds(
            simulate_warm_up(
                pool,
                "recheck",
                habit,
                habit_pupils,
                (60 + i) * 10**6,
                Pupil(wrong=0.05, reasons=True),
            )
        )
        lengths += wc.round_lengths(stopped)
        share = wc.share([o.resolved for o in stopped])
        lines.append(
            line(
                share >= 0.8,
                f"warm-up: {rule} habit stopped, 'resolved' by one re-check: {share:.1%} (>= 80%, "
                f"{len(stopped)} pupils found 'likely' first)",
            )
        )
        for rate in (0.3, 0.5):
            habit = Pupil(habit=rule, rate=rate, reasons=True)
            persisting = _rounds(
                simulate_warm_up(pool, "recheck", habit, habit_pupils, (70 + i) * 10**6, habit)
            )
            lengths += wc.round_lengths(persisting)
            share = wc.share([o.resolved for o in persisting])
            lines.append(
                line(
                    share <= 0.02,
                    f"warm-up: {rule} {rate:.0%} habit persisting, 'resolved' by a re-check: "
                    f"{share:.2%} (<= 2%, {len(persisting)} pupils)",
                )
            )
    longest = max(lengths)
    lines.append(
        line(
            longest <= ROUND_CAP,
            f"warm-up: longest round {longest} items over {len(lengths)} rounds (<= {ROUND_CAP})",
        )
    )
    info += other_levels(pool, max(1, pupils // 5))
    flags = simulate_warm_up(pool, "game", Pupil(wrong=0.4, reasons=True), pupils, 80 * 10**6)
    rate = wc.share([bool(flag) for flag in flags])
    lines.append(
        line(
            rate <= 0.02,
            f"warm-up then {NULL_TURNS} game turns: false 'likely', no misconception, random "
            f"reasons: {rate:.2%} (<= 2%)",
        )
    )
    return lines, info


def other_levels(pool: ProcessPoolExecutor, pupils: int) -> list[str]:
    """Measure the main warm-up figures on the other deck levels (information)."""
    info: list[str] = []
    for j, level in enumerate(("sixths", "twelfths", "improper")):
        seed = (90 + 10 * j) * 10**6
        null = _rounds(
            simulate_warm_up(
                pool, "round", Pupil(wrong=0.4, reasons=True, level=level), pupils, seed
            )
        )
        competent = _rounds(
            simulate_warm_up(pool, "round", Pupil(wrong=0.05, level=level), pupils, seed + 10**6)
        )
        found = []
        for i, rule in enumerate(HABITS):
            pupil = Pupil(habit=rule, rate=0.3, reasons=True, level=level)
            outcomes = _rounds(
                simulate_warm_up(pool, "round", pupil, pupils, seed + (2 + i) * 10**6)
            )
            found.append(f"{rule} {wc.found(outcomes, rule):.1%}")
        info.append(
            f"info  warm-up, level {level} ({pupils} pupils a case): false 'likely' "
            f"{wc.false_likely(null):.2%}, competent median round "
            f"{wc.median(wc.round_lengths(competent)):g} items, 30% habit found " + ", ".join(found)
        )
    return info


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=2000, help="per no-misconception case")
    parser.add_argument("--habit-students", type=int, default=500, help="per habit and case")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pupils", type=int, default=1000, help="per warm-up case (habits: half)")
    parser.add_argument("--part", choices=("all", "game", "warmup"), default="all")
    args = parser.parse_args(argv)
    started = time.monotonic()
    cal.situations()  # built once before the workers fork
    lines: list[str] = []
    info: list[str] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.part in ("all", "warmup"):
            warm_lines, warm_info = warm_up(pool, args.pupils)
            lines += warm_lines
            info += warm_info
        if args.part in ("all", "game"):
            game_lines, game_info = game_turns(pool, args)
            lines += game_lines
            info += game_info
    print("\n".join(lines + info))
    print(f"info  {time.monotonic() - started:.0f} s, {args.jobs} processes")
    return 0 if all(text.startswith("PASS") for text in lines) else 1


def game_turns(pool: ProcessPoolExecutor, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """Measure the game's goals (a) to (d)."""
    for rule in HABITS:
        cal.aimed_situations(rule)
    lines: list[str] = []
    info: list[str] = []
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
                    f"{rule} habit ({label}) median turns to 'likely': {median:g} (<= {target})",
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
                    f"info  {rule} habit stopped once 'likely': 'resolved' by game turns alone "
                    f"within {RECOVERY_TURNS} turns {share:.1%} (a warm-up re-check is needed)"
                )
    aimed_lines, aimed_info = aimed_dealing(pool, args.habit_students, n)
    lines += aimed_lines
    info += aimed_info
    return lines, info


if __name__ == "__main__":
    raise SystemExit(main())
