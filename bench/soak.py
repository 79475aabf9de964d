"""Random play at scale through the public API, under every option value of every family, with
every invariant checked after every step.

Usage: ``python bench/soak.py [--rulebook R ...] [--games N] [--steps M]``. For each rulebook
it plays the preset, then the preset with each option set in turn to each of its values (every
reading of every ambiguity, both values of every switch); each setting plays ``--games`` seeded
games at every player count from the rulebook's smallest to four. It prints a line per rulebook
(settings, games, steps, time), one line per game that broke an invariant (the setting, the
seed, the problems in words), and the settings the rulebook refuses with the reason. Exits 1 if
any game broke an invariant. Not run in CI: the tests run a small sample of the same loop
(``tests/test_soak.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from regelverk.engine import OptionError, with_options
from regelverk.games import game_for
from regelverk.registry import RULEBOOKS

SMALLEST = {"vvv8": 3, "vandatta": 2, "viggo": 2, "uno": 2}
"""The fewest players each rulebook is played with here."""


def settings(rulebook: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The preset, then every option at every value other than the preset's: a name and the
    overrides."""
    preset = game_for(rulebook).options(rulebook)
    yield "preset", {}
    for field in dataclasses.fields(preset):
        current = getattr(preset, field.name)
        if isinstance(current, bool):
            yield f"{field.name}={not current}", {field.name: not current}
        elif isinstance(current, enum.Enum):
            for value in type(current):
                if value is not current:
                    yield f"{field.name}={value.value}", {field.name: value.value}


def play_one(
    rulebook: str, options: Any, players: int, seed: int, steps: int
) -> tuple[int, list[str]]:
    """One seeded game by random legal moves: the steps taken, and the problems of the first
    broken state, if any."""
    game = game_for(rulebook)
    state = game.deal(options, [f"P{n}" for n in range(1, players + 1)], seed)
    chooser = random.Random(seed)
    for taken in range(steps):
        if game.is_over(state):
            return taken, []
        legal = game.legal_actions(state)
        if not legal:
            return taken, []
        state = game.apply(state, chooser.choice(legal)).state
        problems = list(game.problems(state))
        if problems:
            return taken + 1, problems
    return steps, []


def soak(rulebook: str, games: int, steps: int) -> tuple[int, int, int, list[str]]:
    """Play every setting of ``rulebook``; return (settings, games, steps, lines about broken
    games)."""
    preset = game_for(rulebook).options(rulebook)
    played, tried, stepped, broken = 0, 0, 0, []
    for name, overrides in settings(rulebook):
        try:
            options = with_options(preset, overrides)
        except OptionError as error:
            print(f"  {rulebook} {name}: refused: {error}")
            continue
        tried += 1
        for players in range(SMALLEST[rulebook], 5):
            for seed in range(games):
                played += 1
                taken, problems = play_one(rulebook, options, players, seed, steps)
                stepped += taken
                if problems:
                    broken.append(f"{rulebook} {name}, {players} players, seed {seed}: {problems}")
                    print(f"  BROKEN {broken[-1]}", flush=True)
    return tried, played, stepped, broken


def main(argv: list[str]) -> int:
    """Run the soak as the arguments say; exit status 1 if any game broke an invariant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", action="append", choices=RULEBOOKS, default=[])
    parser.add_argument("--games", type=int, default=3, help="seeds per setting and player count")
    parser.add_argument("--steps", type=int, default=3000, help="the longest game played")
    args = parser.parse_args(argv)
    failed = 0
    for rulebook in args.rulebook or RULEBOOKS:
        start = time.perf_counter()
        tried, played, stepped, broken = soak(rulebook, args.games, args.steps)
        failed += len(broken)
        print(
            f"{rulebook}: {tried} settings, {played} games, {stepped:,} steps, "
            f"{len(broken)} broke an invariant, "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
