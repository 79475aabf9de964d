"""Random full deals per second for vvv8 and vandatta, beside OpenSpiel's crazy_eights.

A deal is played by choosing uniformly among ``legal_actions`` and calling the checked ``apply``
(immutable states, every event citing its clauses), from the Deal action to the end of the deal.
With the optional ``bench`` extra (open-spiel) installed, OpenSpiel's ``crazy_eights`` game is
driven the same way from a Python loop (``new_initial_state``, then the deal through its chance
nodes and the play through ``legal_actions`` and ``apply_action`` until ``is_terminal``), which
is OpenSpiel's own game driver, not an environment wrapper.

The contenders run interleaved in one process: round after round, each plays for the same
number of seconds of this process's CPU time in turn (A B C, A B C, ...), and each figure printed
is the median over the rounds, so that a machine busy with something else for a while slows all
of them alike. Figures, labelled:

* ``public API``: ``GAME.legal_actions`` and the checked ``GAME.apply`` at every step;
* ``fast path``: the private, unchecked ``regelverk.vandatta._fast._random_deal_from_start``
  (the deal through the public ``apply``, the play on integer-coded cards, the end of the deal
  through the public scoring), which ``tests/test_vandatta_fast.py`` holds to the very same
  games as the public loop. It is a benchmark driver, not a referee;
* ``OpenSpiel``: crazy_eights games per second at the same number of players.

The goals of the public API against OpenSpiel (vandatta at four players at least as fast, vvv8
at four players at least half as fast) are printed with the ratios; they are goals, not tests.

Run: ``.venv/bin/python bench/vandatta.py [SECONDS_PER_TURN] [ROUNDS]`` (defaults 1 and 5).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from regelverk.vandatta import GAME
from regelverk.vandatta._fast import _random_deal_from_start
from regelverk.vandatta.state import Phase

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
GOALS = {("vandatta", 4): 1.0, ("vvv8", 4): 0.5}
"""The public API's goal, as a ratio to OpenSpiel crazy_eights at the same player count."""

Contender = Callable[[float], float]
"""Plays for about the seconds given; returns games (deals) per second."""


def public_api(book: str, players: int) -> Contender:
    """Random deals through ``GAME.legal_actions`` and the checked ``GAME.apply``."""
    options = GAME.options(book)
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def run(seconds: float) -> float:
        deals, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = GAME.deal(options, names, next(seeds))
            state = GAME.apply(state, GAME.legal_actions(state)[0]).state
            while state.phase in (Phase.PLAY, Phase.START_SUIT):
                state = GAME.apply(state, chooser.choice(GAME.legal_actions(state))).state
            deals += 1
        return deals / (time.process_time() - start)

    return run


def fast_path(book: str, players: int) -> Contender:
    """Random deals on the private fast path, the same games as the public loop plays."""
    options = GAME.options(book)
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def run(seconds: float) -> float:
        deals, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            _random_deal_from_start(GAME.deal(options, names, next(seeds)), chooser)
            deals += 1
        return deals / (time.process_time() - start)

    return run


def openspiel(players: int) -> Contender | None:
    """OpenSpiel crazy_eights games with a uniform random policy, or None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players})
    chooser = random.Random(3)

    def run(seconds: float) -> float:
        games, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(chooser.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(chooser.choice(state.legal_actions()))
            games += 1
        return games / (time.process_time() - start)

    return run


def interleaved(contenders: dict[str, Contender]) -> dict[str, float]:
    """Each contender's median rate over ``ROUNDS`` rounds, the contenders taking turns."""
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for run in contenders.values():  # one short warm-up each: imports, caches
        run(min(SECONDS, 0.2))
    for _ in range(ROUNDS):
        for name, run in contenders.items():
            rates[name].append(run(SECONDS))
    return {name: statistics.median(values) for name, values in rates.items()}


def main() -> None:
    """Print the figures."""
    print(
        f"random full deals per CPU second, one core; medians of {ROUNDS} interleaved rounds of "
        f"{SECONDS:g} s per contender"
    )
    missing = False
    for book, players in (("vandatta", 4), ("vvv8", 4), ("vandatta", 3), ("vandatta", 5)):
        contenders: dict[str, Contender] = {
            "public API": public_api(book, players),
            "fast path": fast_path(book, players),
        }
        peer = openspiel(players)
        if peer is not None:
            contenders["OpenSpiel"] = peer
        rates = interleaved(contenders)
        line = f"  {book:8} {players} players: " + ", ".join(
            f"{name} {rate:7.0f}/s" for name, rate in rates.items()
        )
        print(line)
        if peer is None:
            missing = True
            continue
        public, fast, theirs = rates["public API"], rates["fast path"], rates["OpenSpiel"]
        goal = GOALS.get((book, players))
        verdict = (
            ""
            if goal is None
            else f"  goal {goal:.1f}: {'met' if public >= goal * theirs else 'not met'}"
        )
        print(
            f"    ratio to OpenSpiel crazy_eights: public API {public / theirs:.3f}, "
            f"fast path {fast / theirs:.3f}{verdict}"
        )
    if missing:
        print("  OpenSpiel not installed (pip install -e '.[bench]'): comparison skipped")


if __name__ == "__main__":
    main()
