"""UNO: random full hands per second at 2 and 4 players, beside RLCard's UNO game driver.

Run with ``python bench/uno.py [seconds]``. Never run in CI. Two regelverk figures, labelled
apart:

* ``public, keen``: the public, checked API (``GAME.legal_actions``, then ``GAME.apply``, which
  checks the action and records every event with its clauses). The player lays a card whenever
  one fits, uniformly among the plays the engine lists (one per distinct card, per colour a wild
  card may name, with and without the UNO call on the next-to-last card), otherwise takes
  uniformly any other legal action except a catch (draw, challenge or not, name a colour, a late
  UNO call). This is the policy class of RLCard's random driver, which picks uniformly among
  its legal actions and offers "draw" only when no card fits.
* ``public, uniform``: the public API, any legal action at random, catches, late UNO calls and
  drawing by choice included (the official rules let a player draw instead of playing, so hands
  run long). For reference only: RLCard has no such player.

A hand runs from the deal (dealer chosen by drawing, seven cards each, the first card turned)
until somebody goes out, and is scored. Like for like: the public figures play a game of one
hand (``target_score = 1``, so the hand that ends it is scored and no next hand is dealt, as
RLCard's driver deals once per hand in ``init_game``).

With the ``bench`` extra installed (``pip install -e '.[bench]'``), RLCard's ``UnoGame`` (its
game driver, not the env wrapper) is driven in the same run: ``init_game``; then a uniform
random choice among the legal actions of the state dict the last call returned, and ``step``,
which builds the next state dict with its legal actions (asking ``get_legal_actions`` as well
would make RLCard work them out twice per step). Without it, that part is skipped with a
message. RLCard's UNO has no Wild Draw Four challenge (its Wild Draw Four is legal only when
nothing else fits), no UNO call, no scoring, no two-player rules, and a drawn card that fits is
laid automatically; regelverk models all of the official rules.

Timing (``bench/interleave.py``): every figure runs in turn for a short slice, round after
round, in one process; a figure is the median of its rounds and a ratio the median of the
rounds' ratios. The goal, printed beside the ratio and never asserted: the public API at least
as fast as RLCard's driver in hands per second.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable

from interleave import Work, goal_line, interleaved

from regelverk.uno import GAME, UnoState
from regelverk.uno.state import Action, Catch, Play

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
"""Seconds of timing per figure, over all rounds."""
ROUNDS = 7
GOAL = 1.0
"""Public API hands per second over RLCard's."""

Policy = Callable[[UnoState, random.Random], Action]


def uniform(state: UnoState, chooser: random.Random) -> Action:
    """Any legal action."""
    return chooser.choice(GAME.legal_actions(state))


def keen(state: UnoState, chooser: random.Random) -> Action:
    """A card whenever one fits, else whatever else is legal (no catches)."""
    legal = GAME.legal_actions(state)
    plays = [action for action in legal if isinstance(action, Play)]
    if plays:
        return chooser.choice(plays)
    rest = [action for action in legal if not isinstance(action, Catch)]
    return chooser.choice(rest or legal)


def our_hands(players: int, policy: Policy, actions: list[int]) -> Work:
    """One hand (a game of one hand: dealt, played out and scored) per call on the public API;
    adds the actions taken to ``actions[0]``."""
    options = dataclasses.replace(GAME.options("uno"), target_score=1)
    names = [f"P{n}" for n in range(players)]
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def one() -> int:
        state = GAME.deal(options, names, next(seeds))
        taken = 0
        while not GAME.is_over(state):
            state = GAME.apply(state, policy(state, chooser)).state
            taken += 1
        actions[0] += taken
        return 1

    return one


def rlcard_hands(players: int, actions: list[int]) -> Work | None:
    """One hand per call on RLCard's UnoGame driver, or None without RLCard."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    game.np_random.seed(1)
    chooser = random.Random(1)

    def one() -> int:
        state, _ = game.init_game()
        taken = 0
        while not game.is_over():
            # the legal actions of the state each step returns: RLCard works them out there,
            # so asking get_legal_actions() again would make it do so twice per step
            state, _ = game.step(chooser.choice(state["legal_actions"]))
            taken += 1
        actions[0] += taken
        return 1

    return one


def main() -> None:
    """Print the figures."""
    print(f"UNO benchmark ({SECONDS:g} s per figure, {ROUNDS} interleaved rounds, medians)")
    for players in (2, 4):
        counts = {name: [0] for name in ("keen", "uniform", "rlcard")}
        contenders = {
            "keen": our_hands(players, keen, counts["keen"]),
            "uniform": our_hands(players, uniform, counts["uniform"]),
        }
        theirs = rlcard_hands(players, counts["rlcard"])
        if theirs is not None:
            contenders["rlcard"] = theirs
        timings = interleaved(contenders, SECONDS, ROUNDS)
        print(f"{players} players")
        labels = {
            "keen": "regelverk public API, keen",
            "uniform": "regelverk public API, uniform",
            "rlcard": "RLCard UnoGame driver, random",
        }
        for name in contenders:
            rate = timings.median(name)
            done = timings.done[name]
            per = f"  {counts[name][0] / done:7.1f} actions/hand" if name in counts else ""
            print(f"  {labels[name]:32} {rate:9.1f} hands/s{per}")
        if theirs is None:
            print("  RLCard: not installed (pip install -e '.[bench]'); comparison skipped")
            continue
        ratio = timings.ratio("keen", "rlcard")
        print(f"  ratio public API (keen) / RLCard: {goal_line(ratio, GOAL)}")


if __name__ == "__main__":
    main()
