"""Viggo: random full rounds per second at 2, 3 and 4 players, legal-move generation timed on
its own, and the nearest public climbing games side by side (OpenSpiel ``dou_dizhu`` driven from
a Python loop, RLCard ``doudizhu``) when the ``bench`` extra is installed.

Two Viggo figures, labelled apart: the public, checked API (``GAME.legal_actions`` and
``GAME.apply``, events and all), and the private, unchecked fast path
``regelverk.viggo._fast._random_round_fast`` (integer cards, no events, no checks; it plays the
same rounds as the public API, which ``tests/test_viggo_fast.py`` asserts). A round ends when
someone runs out of cards; the public figure also deals the next round, as ``apply`` does.

Run with ``python bench/viggo.py [seconds]``. Never run in CI.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from regelverk.viggo import GAME, ViggoState
from regelverk.viggo._fast import _random_round_fast
from regelverk.viggo.state import Pass, Play

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


def fast_rounds(players: int) -> Callable[[], int]:
    """The same random rounds through the private, unchecked fast path."""
    options = GAME.options("viggo")
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one() -> int:
        _random_round_fast(options, players, next(seeds), rng)
        return 1

    return one


def kind_of(state: ViggoState) -> str:
    """Which kind of position ``state`` is for legal-move generation."""
    if not state.trick:
        return "leads"
    return "run replies" if len(state.trick[-1].cards) == 5 else "set replies"


def legal_move_report(players: int) -> str:
    """Public legal-move generation per position as met in random play (so the move caches
    help exactly as much as they do in play), overall and by kind of position."""
    options = GAME.options("viggo")
    rng = random.Random(2)
    spent: dict[str, float] = {"leads": 0.0, "set replies": 0.0, "run replies": 0.0}
    seen = dict.fromkeys(spent, 0)
    clock = time.perf_counter
    start = clock()
    seed = 0
    while clock() - start < SECONDS:
        state = GAME.deal(options, NAMES[:players], seed)
        seed += 1
        while state.round == 1 and not GAME.is_over(state):
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
    public: dict[int, float] = {}
    fast: dict[int, float] = {}
    for players in (2, 3, 4):
        public[players] = rate(viggo_rounds(players))
        fast[players] = rate(fast_rounds(players))
        print(
            f"  {players} players: public API {public[players]:8.1f} rounds/s, "
            f"private fast path {fast[players]:8.1f} rounds/s\n"
            f"             public legal-move generation {legal_move_report(players)}"
        )
    targets = {"OpenSpiel dou_dizhu": 0.5, "RLCard doudizhu": 5.0}
    for name, make in (("OpenSpiel dou_dizhu", openspiel), ("RLCard doudizhu", rlcard_doudizhu)):
        work = make()
        if work is None:
            print(f"  {name}: not installed (pip install -e '.[bench]'); skipped")
            continue
        games = rate(work)
        print(f"  {name}: {games:8.1f} games/s (target: Viggo at least {targets[name]:g}x)")
        for label, figures in (("public API", public), ("fast path", fast)):
            ratios = ", ".join(f"{p}p {figures[p] / games:.2f}x" for p in (2, 3, 4))
            print(f"    Viggo {label} / {name}: {ratios}")


if __name__ == "__main__":
    main()
