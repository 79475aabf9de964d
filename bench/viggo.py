"""Viggo: random full rounds per second at 2, 3 and 4 players, legal-move generation timed on
its own, and the nearest public climbing games side by side (OpenSpiel ``dou_dizhu`` driven from
a Python loop, RLCard ``doudizhu``) when the ``bench`` extra is installed.

The Viggo figure is the public, checked API (``GAME.legal_actions`` and ``GAME.apply``, events
and all), the one implementation of the game. A round runs from the deal (the draft, for two)
until someone runs out of cards, and is scored. Like for like: the public figure plays a game of
one round (``loss_points = 1``, so the round that ends it is scored and no next round is dealt,
as the peers deal once per game).

The peers are driven through their game drivers, not their environment wrappers: OpenSpiel's
``dou_dizhu`` state from a Python loop (chance nodes dealt by a uniform random choice among
``chance_outcomes``, then a uniform random legal action; the deal, the bidding and the play),
and RLCard's ``DoudizhuGame`` (``init_game``, then a uniform random choice among the state's
``actions`` and ``step``, which also builds RLCard's state dict).

Timing (``bench/interleave.py``): every figure runs in turn for a short slice, round after
round, in one process; a figure is the median of its rounds and a ratio the median of the
rounds' ratios. The goal, printed beside each ratio and never asserted: the public API at least
as fast as the OpenSpiel ``dou_dizhu`` Python loop (rounds per second over games per second).

Run with ``python bench/viggo.py [seconds]``. Never run in CI.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time

from interleave import Work, goal_line, interleaved

from regelverk.viggo import GAME, ViggoState
from regelverk.viggo.state import Pass, Play

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
"""Seconds of timing per figure, over all rounds."""
ROUNDS = 7
NAMES = ("P1", "P2", "P3", "P4")
GOALS = {"OpenSpiel dou_dizhu": 1.0}
"""Public API rounds per second over the peer's games per second."""


def viggo_rounds(players: int) -> Work:
    """One random full round (a game of one round: deal, draft for two, tricks until someone
    is out, the score) per call on the public API."""
    options = dataclasses.replace(GAME.options("viggo"), loss_points=1)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one() -> int:
        state = GAME.deal(options, NAMES[:players], next(seeds))
        while not GAME.is_over(state):
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
        return 1

    return one


def kind_of(state: ViggoState) -> str:
    """Which kind of position ``state`` is for legal-move generation."""
    if not state.trick:
        return "leads"
    return "run replies" if len(state.trick[-1].cards) == 5 else "set replies"


def legal_move_report(players: int) -> str:
    """Public legal-move generation per position as met in random play (so the move caches
    help exactly as much as they do in play), overall and by kind of position, in CPU time."""
    options = dataclasses.replace(GAME.options("viggo"), loss_points=1)
    rng = random.Random(2)
    spent: dict[str, float] = {"leads": 0.0, "set replies": 0.0, "run replies": 0.0}
    seen = dict.fromkeys(spent, 0)
    clock = time.process_time
    start = clock()
    seed = 0
    while clock() - start < SECONDS / 3:
        state = GAME.deal(options, NAMES[:players], seed)
        seed += 1
        while not GAME.is_over(state):
            kind = kind_of(state)
            before = clock()
            legal = GAME.legal_actions(state)
            took = clock() - before
            if isinstance(legal[0], Play | Pass):
                spent[kind] += took
                seen[kind] += 1
            state = GAME.apply(state, rng.choice(legal)).state
    total = sum(seen.values())
    parts = ", ".join(f"{k} {1e6 * spent[k] / seen[k]:.1f} µs ({seen[k]})" for k in seen if seen[k])
    return f"{1e6 * sum(spent.values()) / total:.1f} µs per position ({parts})"


def openspiel() -> Work | None:
    """One random game of OpenSpiel's dou_dizhu per call, or None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(0)

    def one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return one


def rlcard_doudizhu() -> Work | None:
    """One random game of RLCard's doudizhu game driver per call, or None without RLCard."""
    try:
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError:
        return None
    game = DoudizhuGame()
    game.np_random.seed(0)
    rng = random.Random(0)

    def one() -> int:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(state["actions"]))
        return 1

    return one


def main() -> None:
    """Print the figures."""
    print(f"Viggo benchmark ({SECONDS:g} s per figure, {ROUNDS} interleaved rounds, medians)")
    peers = {"OpenSpiel dou_dizhu": openspiel(), "RLCard doudizhu": rlcard_doudizhu()}
    for players in (2, 3, 4):
        contenders: dict[str, Work] = {"public": viggo_rounds(players)}
        contenders.update({name: work for name, work in peers.items() if work is not None})
        timings = interleaved(contenders, SECONDS, ROUNDS)
        print(
            f"  {players} players: public API {timings.median('public'):8.1f} rounds/s\n"
            f"             public legal-move generation {legal_move_report(players)}"
        )
        for name, work in peers.items():
            if work is None:
                print(f"    {name}: not installed (pip install -e '.[bench]'); skipped")
                continue
            public = timings.ratio("public", name)
            shown = goal_line(public, GOALS[name]) if name in GOALS else f"{public:5.2f}x"
            print(f"    {name}: {timings.median(name):8.1f} games/s")
            print(f"      Viggo public API / {name}: {shown}")


if __name__ == "__main__":
    main()
