"""Random full deals per second for vvv8 and vandatta at 3, 4 and 5 players.

A deal is played by choosing uniformly among ``legal_actions`` and calling the checked ``apply``
(immutable states, every event citing its clauses), from the Deal action to the end of the deal.
With the optional ``bench`` extra (open-spiel) installed, OpenSpiel's ``crazy_eights`` is driven
the same way from a Python loop in the same run and the ratio is printed.

Two figures per preset and player count, labelled:

* ``public API``: ``GAME.legal_actions`` and the checked ``GAME.apply`` at every step;
* ``fast path``: the private, unchecked ``regelverk.vandatta._fast._random_deal_from_start``
  (the deal through the public ``apply``, the play on integer-coded cards, the end of the deal
  through the public scoring), which ``tests/test_vandatta_fast.py`` holds to the very same
  games as the public loop. It is a benchmark driver, not a referee.

Run: ``.venv/bin/python bench/vandatta.py [SECONDS]``.
"""

from __future__ import annotations

import random
import sys
import time

from regelverk.vandatta import GAME
from regelverk.vandatta._fast import _random_deal_from_start
from regelverk.vandatta.state import Phase

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0


def deals_per_second(book: str, players: int) -> tuple[float, float]:
    """Deals per second and actions per deal, for random legal play."""
    options = GAME.options(book)
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(1)
    deals = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < SECONDS:
        seed += 1
        state = GAME.deal(options, names, seed)
        state = GAME.apply(state, GAME.legal_actions(state)[0]).state
        while state.phase in (Phase.PLAY, Phase.START_SUIT):
            state = GAME.apply(state, chooser.choice(GAME.legal_actions(state))).state
            actions += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, actions / deals


def fast_deals_per_second(book: str, players: int) -> float:
    """Deals per second on the private fast path, the same random games as the public loop."""
    options = GAME.options(book)
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(1)
    deals = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < SECONDS:
        seed += 1
        _random_deal_from_start(GAME.deal(options, names, seed), chooser)
        deals += 1
    return deals / (time.perf_counter() - start)


def matches_per_second(players: int) -> float:
    """Whole vandatta games to 100 points per second."""
    options = GAME.options("vandatta")
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(2)
    matches, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        state = GAME.deal(options, names, matches)
        while not GAME.is_over(state):
            state = GAME.apply(state, chooser.choice(GAME.legal_actions(state))).state
        matches += 1
    return matches / (time.perf_counter() - start)


def openspiel_per_second(players: int) -> float | None:
    """OpenSpiel crazy_eights games per second with a uniform random policy, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players})
    chooser = random.Random(3)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(chooser.choice(outcomes)[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    """Print the figures."""
    print(f"random full deals per second ({SECONDS:g} s each, one core)")
    figures: dict[tuple[str, int], tuple[float, float]] = {}
    for book in ("vandatta", "vvv8"):
        for players in (3, 4, 5):
            rate, length = deals_per_second(book, players)
            fast = fast_deals_per_second(book, players)
            figures[book, players] = rate, fast
            print(
                f"  {book:8} {players} players: public API {rate:8.0f} deals/s, "
                f"fast path {fast:8.0f} deals/s  ({length:.0f} actions/deal)"
            )
    for players in (3, 4, 5):
        print(f"  vandatta {players} players: {matches_per_second(players):8.1f} games to 100/s")
    for players in (3, 4, 5):
        theirs = openspiel_per_second(players)
        if theirs is None:
            print("  OpenSpiel not installed (pip install -e '.[bench]'): comparison skipped")
            break
        public, fast = figures["vandatta", players]
        print(
            f"  OpenSpiel crazy_eights {players} players: {theirs:8.0f} games/s; "
            f"vandatta/OpenSpiel: public API {public / theirs:.2f}, fast path {fast / theirs:.2f}"
        )


if __name__ == "__main__":
    main()
