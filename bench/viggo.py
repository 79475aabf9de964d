"""Viggo: random full rounds per second at 2, 3 and 4 players, legal-move generation timed on
its own, and the nearest public climbing games side by side (OpenSpiel ``dou_dizhu`` driven from
a Python loop, RLCard ``doudizhu``) when the ``bench`` extra is installed.

Run with ``python bench/viggo.py [seconds]``. Never run in CI.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from regelverk.viggo import GAME, ViggoState
from regelverk.viggo.state import Play

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
NAMES = ("P1", "P2", "P3", "P4")


def rate(work: Callable[[], int]) -> float:
    """Units of ``work`` per second over about ``SECONDS``."""
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        done += work()
    return done / (time.perf_counter() - start)


def viggo_rounds(players: int) -> Callable[[], int]:
    """One random full round (deal, draft for two, tricks until someone is out) per call."""
    options = GAME.options("viggo")
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one() -> int:
        state = GAME.deal(options, NAMES[:players], next(seeds))
        while state.round == 1 and not GAME.is_over(state):
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
        return 1

    return one


def sample_states(players: int, count: int = 400) -> list[ViggoState]:
    """States met in random play where a player must lead or reply."""
    rng = random.Random(2)
    found: list[ViggoState] = []
    seed = 0
    while len(found) < count:
        state = GAME.deal(GAME.options("viggo"), NAMES[:players], seed)
        seed += 1
        while state.round == 1 and len(found) < count:
            legal = GAME.legal_actions(state)
            if any(isinstance(a, Play) for a in legal):
                found.append(state)
            state = GAME.apply(state, rng.choice(legal)).state
    return found


def legal_moves(players: int) -> Callable[[], int]:
    """Legal-move generation alone, over sampled leads and replies."""
    states = sample_states(players)

    def gen() -> int:
        for state in states:
            GAME.legal_actions(state)
        return len(states)

    return gen


def openspiel() -> Callable[[], int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
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


def rlcard_doudizhu() -> Callable[[], int] | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)

    def one() -> int:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
        return 1

    return one


def main() -> None:
    print(f"Viggo benchmark ({SECONDS:g} s per figure)")
    rounds = {}
    for players in (2, 3, 4):
        rounds[players] = rate(viggo_rounds(players))
        moves = rate(legal_moves(players))
        print(
            f"  {players} players: {rounds[players]:8.1f} random full rounds/s, "
            f"legal-move generation {moves:9.0f} positions/s ({1e6 / moves:.1f} µs each)"
        )
    for name, make in (("OpenSpiel dou_dizhu", openspiel), ("RLCard doudizhu", rlcard_doudizhu)):
        work = make()
        if work is None:
            print(f"  {name}: not installed (pip install -e '.[bench]'); skipped")
            continue
        games = rate(work)
        ratio = rounds[4] / games
        print(f"  {name}: {games:8.1f} games/s; Viggo 4-player rounds / it = {ratio:.2f}")


if __name__ == "__main__":
    main()
