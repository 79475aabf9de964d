"""Random full deals per second for vvv8 and vandatta, beside OpenSpiel's crazy_eights.

A deal is played by choosing uniformly among ``legal_actions`` and calling the checked ``apply``
(immutable states, every event citing its clauses), from the Deal action to the end of the deal.
With the optional ``bench`` extra (open-spiel) installed, OpenSpiel's ``crazy_eights`` game is
driven the same way from a Python loop (``new_initial_state``, then the deal through its chance
nodes and the play through ``legal_actions`` and ``apply_action`` until ``is_terminal``), which
is OpenSpiel's own game driver, not an environment wrapper.

The contenders run interleaved in one process (``bench/interleave.py``): round after round, each
plays for the same slice of this process's CPU time in turn, and each figure printed is the
median over the rounds, each ratio the median of the rounds' ratios. Figures, labelled:

* ``public API``: ``GAME.legal_actions`` and the checked ``GAME.apply`` at every step;
* ``OpenSpiel``: crazy_eights games per second at the same number of players.

The goals of the public API against OpenSpiel (vandatta at four players at least as fast, vvv8
at four players at least half as fast) are printed with the ratios; they are goals, not tests.

Run: ``.venv/bin/python bench/vandatta.py [SECONDS] [ROUNDS]`` (defaults: 6 CPU seconds per
contender and table, spread over 7 rounds).
"""

from __future__ import annotations

import random
import sys

from interleave import Work, goal_line, interleaved

from regelverk.vandatta import GAME
from regelverk.vandatta.state import Phase

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
GOALS = {("vandatta", 4): 1.0, ("vvv8", 4): 0.5}
"""The public API's goal, as a ratio to OpenSpiel crazy_eights at the same player count."""


def public_api(book: str, players: int) -> Work:
    """One random deal through ``GAME.legal_actions`` and the checked ``GAME.apply``."""
    options = GAME.options(book)
    names = [f"P{n}" for n in range(1, players + 1)]
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def deal() -> int:
        state = GAME.deal(options, names, next(seeds))
        state = GAME.apply(state, GAME.legal_actions(state)[0]).state
        while state.phase in (Phase.PLAY, Phase.START_SUIT):
            state = GAME.apply(state, chooser.choice(GAME.legal_actions(state))).state
        return 1

    return deal


def openspiel(players: int) -> Work | None:
    """One OpenSpiel crazy_eights game with a uniform random policy, or None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players})
    chooser = random.Random(3)

    def play() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chooser.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
        return 1

    return play


def main() -> None:
    """Print the figures."""
    print(
        f"random full deals per CPU second, one core; interleaved, {SECONDS:g} s per contender "
        f"over {ROUNDS} rounds, medians"
    )
    missing = False
    for book, players in (("vandatta", 4), ("vvv8", 4), ("vandatta", 3), ("vandatta", 5)):
        contenders: dict[str, Work] = {
            "public API": public_api(book, players),
        }
        peer = openspiel(players)
        if peer is not None:
            contenders["OpenSpiel"] = peer
        timings = interleaved(contenders, SECONDS, ROUNDS)
        print(
            f"  {book:8} {players} players: "
            + ", ".join(f"{name} {timings.median(name):7.0f}/s" for name in contenders)
        )
        if peer is None:
            missing = True
            continue
        ratio = timings.ratio("public API", "OpenSpiel")
        goal = GOALS.get((book, players))
        shown = f"{ratio:5.3f}x" if goal is None else goal_line(ratio, goal)
        print(f"    public API / OpenSpiel crazy_eights: {shown}")
    if missing:
        print("  OpenSpiel not installed (pip install -e '.[bench]'): comparison skipped")


if __name__ == "__main__":
    main()
