"""Calibration benchmark of the diagnosis: simulated students through the status model.

Seeded; about a minute on two cores for the game part; the held part (f) alone takes about
14 minutes on two cores with its default 300 pupils a rule (--held-pupils). Students
(lessons.diagnosis.simulation.calibration) play turns taken from real games of the 116-card
fractions deck and are diagnosed after every turn by the model lessons.diagnosis.diagnose() runs:

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
    (lessons.diagnosis.simulation.warmup_calibration): pupils without a misconception answering
    40% wrong at random with random reasons; a 50% habit of M1, M2, M3 with and without
    reasons; a 30% habit with reasons; competent pupils (5% wrong at random); a re-check round
    after a 50% habit was found, the habit stopped (a competent pupil then) or persisting (30%
    and 50%); a 30% habit with random slips besides (right 90% of the time otherwise: issue 31 §8's
    outside simulation, >= 92%);
    and a warm-up followed by 60 game turns (no misconception, random reasons: the error rate
    over both kinds of evidence together); these on the `full` level, and information lines for
    the other levels (a fifth of the pupils);
(f) "held" (issue 31), timed courses of warm-up rounds (warmup_calibration.run_course), the
    habit going and coming back between rounds as bugs did in VanLehn's retests: a 50% habit
    found, then re-checked on day 1 and on day 8 with the habit stopped (a competent pupil),
    come back at 30% after day 1, or still there at 5, 10, 15 or 20% (information lines,
    beside the model's own figures: lessons.diagnosis.residual_pass_rates); a 30% habit that
    never goes away, re-checked on days 1, 8 and 15; and re-checks 167 h 59 min and then 168 h
    after the resolving one, to show "held" never comes before HELD_MIN_DAYS;
(g) beside (d)'s exposure ratio and detection speed-up, the robust-evaluation matrix (issue 31
    §9, lessons.diagnosis.simulation.learners): median turns until a 30% habit is removed,
    ordinary and aimed, under four learner models, and the smallest removal speed-up (what a
    claim about practice may state at most);
(h) learning curves (lessons.diagnosis.learning_curve): groups of CURVE_PUPILS pupils, each
    meeting a rule's trap CURVE_ENCOUNTERS times in real game situations; a habit unlearning
    15% (of itself) per refused trap from CURVE_START must read "baisse" for >= 80% of groups,
    a constant habit at most 5%.

Prints one PASS/FAIL line per goal, then information lines. Run by hand:

    .venv/bin/python bench/diagnosis.py [--students 2000] [--habit-students 500] [--jobs 2]
        [--pupils 1000] [--held-pupils 300] [--groups 500]
        [--part all|game|warmup|held|learning]

Not part of the test suite (tests/lessons/diagnosis/test_calibration.py pins small samples).
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.fractions import parse_fraction  # noqa: E402
from lessons.diagnosis import diagnose  # noqa: E402
from lessons.diagnosis.classifier import CLAIM_EQUAL, tags_for  # noqa: E402
from lessons.diagnosis.evidence import STATUS_HELD, STATUS_LIKELY, STATUS_RESOLVED  # noqa: E402
from lessons.diagnosis.learning_curve import (  # noqa: E402
    CURVE_ENCOUNTERS,
    TREND_DOWN,
    encounters,
    learning_curve,
)
from lessons.diagnosis.model import (  # noqa: E402
    ALPHA_LIKELY,
    ALPHA_LIKELY_REASONS,
    HELD_MIN_DAYS,
    REASON_CHANCE,
)
from lessons.diagnosis.probe import ROUND_CAP, WarmUp  # noqa: E402
from lessons.diagnosis.residual import residual_pass_rates  # noqa: E402
from lessons.diagnosis.simulation import calibration as cal  # noqa: E402
from lessons.diagnosis.simulation import learners  # noqa: E402
from lessons.diagnosis.simulation import warmup_calibration as wc  # noqa: E402
from lessons.diagnosis.simulation.calibration import Outcome, Student  # noqa: E402
from lessons.diagnosis.simulation.warmup_calibration import Pupil, RoundOutcome  # noqa: E402
from lessons.diagnosis.stream import chance_rates_of  # noqa: E402

HABITS = ("M1", "M2", "M3")
NULL_TURNS = 60
HABIT_TURNS = 150
RECOVERY_TURNS = 100
AIM_TURNS = 500
AIM_SPEED_UP = 2.0
HABIT30_GOAL = 0.92


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
                share >= HABIT30_GOAL,
                f"warm-up: {rule} 30% habit (with reasons) 'likely' by the end of the round: "
                f"{share:.1%} (>= {HABIT30_GOAL:.0%})",
            )
        )
        # The outside simulation of issue 31 §8: right 90% of the time besides the habit.
        slips = Pupil(habit=rule, rate=0.3, wrong=0.1, reasons=True)
        found_slips = _rounds(
            simulate_warm_up(pool, "round", slips, habit_pupils, (55 + i) * 10**6)
        )
        lengths += wc.round_lengths(found_slips)
        share = wc.found(found_slips, rule)
        lines.append(
            line(
                share >= HABIT30_GOAL,
                f"warm-up: {rule} 30% habit, 10% random slips besides (with reasons) 'likely' "
                f"by the end of the round: {share:.1%} (>= {HABIT30_GOAL:.0%}, {len(found_slips)} "
                "pupils)",
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


DAY = 24.0
RESIDUALS = (0.05, 0.10, 0.15, 0.20)
HeldJob = tuple[str, int, int]


def held_course(rule: str, seed: int) -> dict[str, bool]:
    """Run one pupil's timed courses for `rule` (branches share the rounds before them)."""
    out: dict[str, bool] = {}
    habit = wc.Pupil(habit=rule, rate=0.5, reasons=True)
    competent = wc.Pupil(wrong=0.05, reasons=True)
    back = wc.Pupil(habit=rule, rate=0.3, reasons=True)
    early_flags: list[bool] = []

    def branch(
        rng: random.Random,
        warm_up: WarmUp,
        done: list[str],
        hours: list[float],
        plan: list[tuple[float, wc.Pupil]],
    ) -> list[str]:
        rng, warm_up = copy.deepcopy(rng), copy.deepcopy(warm_up)
        statuses = done + wc.run_course(rng, warm_up, rule, plan)
        early_flags.append(wc.held_too_early(statuses, hours + [at for at, _ in plan]))
        return statuses

    rng, warm_up = random.Random(seed), WarmUp(seed=seed)
    found = wc.run_course(rng, warm_up, rule, [(0.0, habit)])
    out["found"] = found[-1] == STATUS_LIKELY
    if out["found"]:
        day1 = found + wc.run_course(rng, warm_up, rule, [(DAY, competent)])
        out["resolved_day1"] = day1[-1] == STATUS_RESOLVED
        hours = [0.0, DAY]
        out["stopped"] = branch(rng, warm_up, day1, hours, [(8 * DAY, competent)])[-1] == (
            STATUS_HELD
        )
        came_back = branch(rng, warm_up, day1, hours, [(8 * DAY, back)])
        out["came_back"] = came_back[-1] == STATUS_HELD
        early = branch(
            rng, warm_up, day1, hours, [(DAY + 167 + 59 / 60, competent), (DAY + 168, competent)]
        )
        out["early"] = early[-2] == STATUS_HELD
        out["week"] = early[-1] == STATUS_HELD
        for rate in RESIDUALS:
            weak = wc.Pupil(habit=rule, rate=rate, reasons=True)
            residual = branch(rng, warm_up, found, [0.0], [(DAY, weak), (8 * DAY, weak)])
            out[f"resolved_{rate:g}"] = residual[-2] == STATUS_RESOLVED
            out[f"held_{rate:g}"] = residual[-1] == STATUS_HELD
    persisting = wc.Pupil(habit=rule, rate=0.3, reasons=True)
    rng, warm_up = random.Random(f"persisting:{seed}"), WarmUp(seed=seed)
    first = wc.run_course(rng, warm_up, rule, [(0.0, persisting)])
    out["found30"] = first[-1] == STATUS_LIKELY
    if out["found30"]:
        plan = [(DAY, persisting), (8 * DAY, persisting), (15 * DAY, persisting)]
        statuses = branch(rng, warm_up, first, [0.0], plan)
        out["persisting"] = STATUS_HELD in statuses
    out["too_early"] = any(early_flags)
    return out


def _run_held(job: HeldJob) -> list[dict[str, bool]]:
    rule, first, count = job
    return [held_course(rule, seed) for seed in range(first, first + count)]


def _rate(courses: list[dict[str, bool]], key: str, given: str) -> tuple[float, int]:
    """Return the share of `key` among the courses where `given` holds, and their number."""
    chosen = [c[key] for c in courses if c.get(given) and key in c]
    return wc.share(chosen), len(chosen)


def held(pool: ProcessPoolExecutor, pupils: int) -> tuple[list[str], list[str]]:
    """Measure the goals of "held" (issue 31 §1)."""
    lines: list[str] = []
    info: list[str] = []
    model = residual_pass_rates()
    for i, rule in enumerate(HABITS):
        chunk = max(1, pupils // 8)
        seed = (200 + 10 * i) * 10**6
        jobs = [(rule, seed + j, min(chunk, pupils - j)) for j in range(0, pupils, chunk)]
        courses = [c for part in pool.map(_run_held, jobs) for c in part]
        rate, n = _rate(courses, "persisting", "found30")
        lines.append(
            line(
                rate <= 0.005,
                f"held: {rule} 30% habit never gone, re-checked on days 1, 8 and 15, shown "
                f"'held': {rate:.2%} (<= 0.5%, {n} pupils found 'likely' first)",
            )
        )
        rate, n = _rate(courses, "stopped", "found")
        lines.append(
            line(
                rate >= 0.85,
                f"held: {rule} habit stopped after it was found, re-checked on days 1 and 8, "
                f"'held': {rate:.1%} (>= 85%, {n} pupils)",
            )
        )
        rate, n = _rate(courses, "came_back", "resolved_day1")
        lines.append(
            line(
                1 - rate >= 0.95,
                f"held: {rule} habit gone on day 1, back at 30% by day 8, caught (not 'held'): "
                f"{1 - rate:.1%} (>= 95%, {n} pupils resolved on day 1)",
            )
        )
        early, n = _rate(courses, "early", "resolved_day1")
        too_early = any(c["too_early"] for c in courses)
        lines.append(
            line(
                early == 0 and not too_early,
                f"held: {rule} never earlier than {HELD_MIN_DAYS} days: a clean re-check "
                f"167 h 59 min after the resolving one 'held' {early:.2%} (0, {n} pupils), "
                f"and no course 'held' sooner",
            )
        )
        week, n = _rate(courses, "week", "resolved_day1")
        info.append(
            f"info  held: {rule} then one more clean re-check at 168 h: 'held' {week:.1%} "
            f"({n} pupils)"
        )
        for rate in RESIDUALS:
            once, n = _rate(courses, f"resolved_{rate:g}", "found")
            twice, _n = _rate(courses, f"held_{rate:g}", "found")
            one, two = model[rate]
            info.append(
                f"info  held: {rule} residual habit {rate:.0%} after it was found: 'resolved' on "
                f"day 1 {once:.1%}, 'held' on day 8 {twice:.1%} ({n} pupils; the model, a trap "
                f"on every item: {one:.1%} and {two:.1%})"
            )
    return lines, info


def removal_matrix(pupils: int) -> list[str]:
    """Print the robust-evaluation matrix of aimed practice (issue 31 §9)."""
    info = [
        "info  exposure ratio (turns with a fitting card held, aimed / ordinary): "
        + ", ".join(f"{rule} {learners.exposure_ratio(rule):.2f}" for rule in HABITS)
    ]
    cells = learners.removal_matrix(HABITS, pupils)
    for cell in cells:
        bound = ">= " if cell.lower_bound else ""
        info.append(
            f"info  removal, {cell.model}: {cell.rule} median turns until a "
            f"{learners.START_RATE:.0%} habit is under {learners.REMOVED_BELOW:.0%}, ordinary "
            f"{cell.ordinary:g}, aimed {cell.aimed:g}: removal speed-up {bound}"
            f"{cell.speed_up:.2f}"
        )
    info.append(
        f"info  minimum removal speed-up over {len(learners.LEARNER_MODELS)} learner models: "
        f"{learners.minimum_speed_up(cells):.2f} (claims about practice state exposure and "
        "detection only, never a removal speed-up above this)"
    )
    return info


CURVE_PUPILS = 30
CURVE_START = 0.6
CURVE_STEP = 0.15
CurveJob = tuple[str, float, float, int, int]


def encounter_turn(
    rng: random.Random, rule: str, taken: bool, number: int, pool: list[cal.Situation]
) -> dict[str, object]:
    """Return a game turn where a card fitting `rule` is held: played (taken) or a right card."""
    reference, _, hand = pool[rng.randrange(len(pool))]
    assert reference is not None
    fits, right = _fitting_and_right(reference, hand, rule)
    card = rng.choice(fits if taken else right)
    den = parse_fraction(reference)[1]
    attempt = cal._attempt(reference, den, card, mistaken=taken)
    return cal._as_turn(number, reference, den, list(hand), [attempt], drew=False)


@lru_cache(maxsize=4)
def encounter_pool(rule: str) -> list[cal.Situation]:
    """Return the game situations holding a card fitting `rule` and a right card."""
    pool: list[cal.Situation] = []
    for reference, den, hand in cal.situations():
        if reference is None:
            continue
        fits, right = _fitting_and_right(reference, hand, rule)
        if fits and right:
            pool.append((reference, den, hand))
    return pool


def _fitting_and_right(
    reference: str, hand: tuple[str, ...], rule: str
) -> tuple[list[str], list[str]]:
    """Return the cards of `hand` fitting `rule` on `reference`, and the right plays."""
    a, b = parse_fraction(reference)
    fits = [c for c in hand if rule in tags_for(a, b, *parse_fraction(c), CLAIM_EQUAL)]
    right = [
        c
        for c in hand
        if c not in fits
        and (a * parse_fraction(c)[1] == b * parse_fraction(c)[0] or parse_fraction(c)[1] == b)
    ]
    return fits, right


def curve_group(rule: str, start: float, step: float, seed: int) -> str:
    """Simulate one group's encounters through game turns; return the curve's reading."""
    rng = random.Random(f"curve:{rule}:{seed}")
    pool = encounter_pool(rule)
    pupils = []
    for _ in range(CURVE_PUPILS):
        rate, turns = start, []
        for number in range(CURVE_ENCOUNTERS):
            taken = rng.random() < rate
            turns.append(encounter_turn(rng, rule, taken, number, pool))
            if taken:
                rate *= 1 - step
        pupils.append(encounters(turns, rule))
    return learning_curve(rule, pupils).trend


def _run_curves(job: CurveJob) -> list[str]:
    rule, start, step, first, count = job
    return [curve_group(rule, start, step, seed) for seed in range(first, first + count)]


def learning_curves(pool: ProcessPoolExecutor, groups: int) -> tuple[list[str], list[str]]:
    """Measure the learning curve's trend test (issue 31 §9)."""
    lines: list[str] = []
    info: list[str] = []
    cases = [(CURVE_START, CURVE_STEP, True), (CURVE_START, 0.0, True)]
    cases += [(start, CURVE_STEP, False) for start in (0.3, 0.5)]
    for i, rule in enumerate(HABITS):
        for j, (start, step, goal) in enumerate(cases):
            chunk = max(1, groups // 8)
            seed = (300 + 10 * i + j) * 10**6
            jobs = [
                (rule, start, step, seed + k, min(chunk, groups - k))
                for k in range(0, groups, chunk)
            ]
            trends = [t for part in pool.map(_run_curves, jobs) for t in part]
            down = wc.share([t == TREND_DOWN for t in trends])
            group = f"{CURVE_PUPILS} pupils x {CURVE_ENCOUNTERS} encounters"
            if step and goal:
                lines.append(
                    line(
                        down >= 0.8,
                        f"learning curve: {rule} habit from {start:.0%} unlearning "
                        f"{step:.0%} per refused trap, {group}: 'baisse' {down:.1%} (>= 80%, "
                        f"{groups} groups)",
                    )
                )
            elif goal:
                lines.append(
                    line(
                        down <= 0.05,
                        f"learning curve: {rule} constant {start:.0%} habit, {group}: 'baisse' "
                        f"{down:.1%} (<= 5%, {groups} groups)",
                    )
                )
            else:
                info.append(
                    f"info  learning curve: {rule} habit from {start:.0%} unlearning "
                    f"{step:.0%} per refused trap, {group}: 'baisse' {down:.1%}"
                )
    return lines, info


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
    info += removal_matrix(students)
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
    parser.add_argument("--held-pupils", type=int, default=300, help="per rule (held part)")
    parser.add_argument("--groups", type=int, default=500, help="per rule and case (learning)")
    parser.add_argument(
        "--part", choices=("all", "game", "warmup", "held", "learning"), default="all"
    )
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
        if args.part in ("all", "held"):
            held_lines, held_info = held(pool, args.held_pupils)
            lines += held_lines
            info += held_info
        if args.part in ("all", "learning"):
            curve_lines, curve_info = learning_curves(pool, args.groups)
            lines += curve_lines
            info += curve_info
        if args.part in ("all", "game"):
            game_lines, game_info = game_turns(pool, args)
            lines += game_lines
            info += game_info
    print("\n".join(lines + info))
    print(f"info  {time.monotonic() - started:.0f} s, {args.jobs} processes")
    return 0 if all(text.startswith("PASS") for text in lines) else 1


# The level "likely" needs without reasons, per habit (the default deck's shares).
LEVELS: dict[str, float] = {rule: diagnose([])[rule]["alpha"] for rule in HABITS}  # type: ignore[misc]


def fits_ceiling(
    rule: str, turns: int, students: int, *, reasons: bool = False, level: float | None = None
) -> tuple[float, float]:
    """Return a fit's typical chance rate p0 in real games (geometric mean over the turns
    holding a fitting card) and the most a test of the card played could find in `turns`.

    The second: the share of `students` 30% habit students (seeded) whose fits' p0 multiply
    to `level` (the rule's level without reasons by default) or less within `turns` turns.
    Such a student errs only by the habit, so every wrong claim fits and the chance of a score
    that high is that product: no test reading which card was played finds the habit sooner
    at that level. With `reasons`, each fit also gives a reason, the habit's own at the
    simulation's rate (honest, else a random answer): under chance a reason names the rule
    with REASON_CHANCE, so a fit counts p0 * REASON_CHANCE with the rule's reason and
    p0 * (1 - REASON_CHANCE) with another, the most a test reading fit and reason can get.
    """
    rates = []
    for reference, _, hand in cal.situations():
        p0 = 0.0
        if reference is not None:
            cards = tuple(map(parse_fraction, hand))
            p0 = chance_rates_of(parse_fraction(reference), cards)[0].get(rule, 0.0)
        rates.append(p0)
    fitting = [math.log(p0) for p0 in rates if p0]
    typical = math.exp(sum(fitting) / len(fitting))
    rng = random.Random(f"ceiling:{rule}:reasons" if reasons else f"ceiling:{rule}")
    log_level = math.log(LEVELS[rule] if level is None else level)
    named = cal.HONEST_REASONS + (1 - cal.HONEST_REASONS) * REASON_CHANCE
    found = 0
    for _ in range(students):
        score = 0.0
        for _ in range(turns):
            p0 = rates[rng.randrange(len(rates))]
            if p0 and rng.random() < cal.HABIT_RATE:
                score += math.log(p0)
                if reasons:
                    own = rng.random() < named
                    score += math.log(REASON_CHANCE if own else 1 - REASON_CHANCE)
                if score <= log_level:
                    found += 1
                    break
    return typical, found / students


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
        typical, ceiling = fits_ceiling(rule, HABIT_TURNS, args.habit_students)
        needed = math.ceil(math.log(LEVELS[rule]) / math.log(typical))
        info.append(
            f"limit {rule}: a 30% habit shows {shows * 60:.1f} times in 60 turns, "
            f"{shows * 150:.1f} in 150; a fit's chance p0 is {typical:.2f} (geometric mean), so "
            f"beating chance at p <= {LEVELS[rule]:g} takes about {needed} fits without reasons; "
            f"the most any test of the card played could find within {HABIT_TURNS} turns at that "
            f"level: {ceiling:.1%} (every wrong claim fits: the p-value is the fits' p0 multiplied)"
        )
    for rule in HABITS:
        level = LEVELS[rule] * ALPHA_LIKELY_REASONS / ALPHA_LIKELY
        _, ceiling = fits_ceiling(rule, HABIT_TURNS, args.habit_students, reasons=True, level=level)
        _, loose = fits_ceiling(rule, HABIT_TURNS, args.habit_students, reasons=True)
        info.append(
            f"limit {rule} with reasons: the most any test of the card played and the reason "
            f"given could find within {HABIT_TURNS} turns at p <= {level:g} (each of the two "
            f"tests while reasons weigh): {ceiling:.1%}; at the level without reasons "
            f"(p <= {LEVELS[rule]:g}): {loose:.1%} (the habit's reason {cal.HONEST_REASONS:.0%} "
            "of the time, else a random answer)"
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
