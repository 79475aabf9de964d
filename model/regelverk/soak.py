"""The covering-array soak: random legal play under every pair or triple of option values.

For each rulebook, :func:`regelverk.optionspace.combinations` gives the rows of a covering array
over the values of every option (strength 2: every pair of values of any two options appears in
some row; strength 3: every triple). Each row is played at every player count of the
rulebook's :attr:`~regelverk.books.Rulebook.seats` with ``--seeds`` seeded games of random legal
moves, and after every step ``problems(state)`` must be empty (every invariant the engine knows:
cards conserved, the turn with a player who may act, legal endings, nobody both winner and loser),
and so must the family's ``step_problems(before, after)`` where it has one (Vändåtta: an
official result only with enough active players, one win to the winner, one loss to another
player). A listed action the engine then fails to apply, or a game that is not over yet offers
no action, breaks the soak too.

The full run, every triple of every rulebook (a few minutes on one core)::

    python -m regelverk.soak --strength 3

It prints, per rulebook, the size of the array, the games and steps played, the rows the
options refuse (with the reason: a combination the rules cannot serve) and the deals refused
(a player count the options do not seat), and one line per broken game naming the combination,
the player count, the seed and the problem. It exits 1 if any game broke, else 0. The normal
test run plays every row of the pairwise array in short games (``tests/test_soak.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.engine import Game, OptionError
from regelverk.errors import RegelverkError
from regelverk.games import game_for
from regelverk.optionspace import build, combinations

__all__ = ["Plan", "Report", "main", "play_one", "soak", "step_checker"]


def play_one(
    game: Game[Any, Any, Any], options: Any, players: int, seed: int, steps: int
) -> tuple[int, list[str]]:
    """One seeded game by random legal moves, at most ``steps`` of them: the steps taken, and
    what broke (the first broken state's problems, or the action that could not be applied).
    :class:`~regelverk.errors.RegelverkError` from the deal propagates (a count not seated)."""
    state = game.deal(options, [f"P{n}" for n in range(1, players + 1)], seed)
    across = step_checker(game)
    found = list(game.problems(state))
    if found:
        return 0, found
    chooser = random.Random(seed)
    for taken in range(steps):
        if game.is_over(state):
            return taken, []
        legal = game.legal_actions(state)
        if not legal:
            return taken, ["the game is not over, yet no action is legal"]
        action = chooser.choice(legal)
        before = state
        try:
            state = game.apply(state, action).state
        except Exception as error:  # any failure of a listed action is a finding
            return taken, [f"the listed action {action!r} failed: {type(error).__name__}: {error}"]
        found = list(game.problems(state))
        if across is not None:
            found += across(before, state)
        if found:
            return taken + 1, found
    return steps, []


def step_checker(game: Game[Any, Any, Any]) -> Callable[[Any, Any], tuple[str, ...]] | None:
    """The family's ``step_problems(before, after)``, the laws of one step that no single state
    shows (Vändåtta's official results), if it has one."""
    try:
        module = importlib.import_module(f"regelverk.{game.family}.invariants")
    except ModuleNotFoundError:
        return None
    checker: Callable[[Any, Any], tuple[str, ...]] | None = getattr(module, "step_problems", None)
    return checker


@dataclass(slots=True)
class Report:
    """What a soak of one rulebook played and found."""

    rulebook: str
    strength: int
    rows: int = 0
    options: int = 0
    games: int = 0
    steps: int = 0
    finished: int = 0
    refused: list[str] = field(default_factory=list)
    """One line per row the options refuse: the row and the reason."""
    unseated: Counter[str] = field(default_factory=Counter)
    """Each reason a deal was refused (a player count the options do not seat), how often."""
    broken: list[str] = field(default_factory=list)
    """One line per broken game: the combination, the players, the seed, what broke."""

    def summary(self) -> str:
        """One line: the array's size and what was played."""
        return (
            f"{self.rulebook}: strength {self.strength}: {self.rows} rows over {self.options} "
            f"options, {self.games} games ({self.finished} played to the end), "
            f"{self.steps:,} steps, {len(self.refused)} rows refused, "
            f"{sum(self.unseated.values())} deals refused, {len(self.broken)} broken"
        )


def _play_row(
    report: Report, game: Game[Any, Any, Any], row: dict[str, Any], options: Any, plan: Plan
) -> None:
    """Play one row at every player count and seed of the plan, into ``report``."""
    for players in plan.counts or described(report.rulebook).seats:
        for extra in range(plan.seeds):
            seed = plan.first_seed + extra
            try:
                taken, problems = play_one(game, options, players, seed, plan.steps)
            except RegelverkError as error:
                report.unseated[f"{players} players: {error}"] += 1
                continue
            report.games += 1
            report.steps += taken
            report.finished += taken < plan.steps and not problems
            if problems:
                report.broken.append(
                    f"{report.rulebook} {row}, {players} players, seed {seed}: {problems}"
                )


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """How much to play: the array's strength, steps per game, seeds per row and count."""

    strength: int = 3
    steps: int = 1500
    seeds: int = 1
    first_seed: int = 0
    counts: tuple[int, ...] = ()
    """Player counts to play; empty: every count of the rulebook's
    :attr:`~regelverk.books.Rulebook.seats`."""


def soak(rulebook: str, plan: Plan, echo: bool = False) -> Report:
    """Play every row of ``rulebook``'s covering array as ``plan`` says."""
    game = game_for(rulebook)
    preset = game.options(rulebook)
    rows = combinations(preset, plan.strength)
    report = Report(rulebook, plan.strength, rows=len(rows), options=len(_fields(preset)))
    for row in rows:
        try:
            options = build(preset, row)
        except OptionError as error:
            report.refused.append(f"{rulebook} {row}: {error}")
            continue
        before = len(report.broken)
        _play_row(report, game, row, options, plan)
        if echo:
            for line in report.broken[before:]:
                print(f"  BROKEN {line}", flush=True)
    return report


def _fields(options: Any) -> tuple[str, ...]:
    """The names of an options object's fields."""
    return tuple(f.name for f in dataclasses.fields(options))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak as the arguments say; exit status 1 if any game broke an invariant."""
    parser = argparse.ArgumentParser(
        prog="python -m regelverk.soak", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--rulebook", action="append", choices=RULEBOOKS, default=[])
    parser.add_argument("--strength", type=int, choices=(1, 2, 3), default=3)
    parser.add_argument("--steps", type=int, default=1500, help="the most steps of one game")
    parser.add_argument("--seeds", type=int, default=1, help="games per row and player count")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    plan = Plan(
        strength=args.strength, steps=args.steps, seeds=args.seeds, first_seed=args.first_seed
    )
    broken = 0
    for rulebook in args.rulebook or RULEBOOKS:
        start = time.perf_counter()
        report = soak(rulebook, plan, echo=True)
        broken += len(report.broken)
        for line in report.refused:
            print(f"  refused {line}")
        for reason, count in sorted(report.unseated.items()):
            print(f"  not dealt ({count}x): {reason}")
        print(f"{report.summary()}, {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
