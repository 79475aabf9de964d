"""Where Vändåtta's listing of legal moves spends its time in ``regelverk simulate``'s games, and
how much of it a listing worked out from the one before could save.

For each rulebook (vandatta, vvv8) and player (random, keen) the script plays the games
``simulate`` plays (:func:`regelverk.simulate.play_one`, 4 players, every state held to the
invariants, seeds from 0), then lists the legal moves again, by ``GAME.legal_actions``, in every
position those games met, and prints three shares of the games' CPU time: every listing; the
listings right after the spelförare drew a card and kept the turn; and of those, the ones whose
listing before the draw held a play at all. Only there can plays be taken over from the listing
before the draw: where the last listing held none (the player drew because nothing fitted), the
plays after the draw are those of the drawn card, to be judged anyway.

The games and the listings are timed apart (CPU time, the better of ``ROUNDS`` runs), so no
clock is read inside a game. A game of ``simulate`` lists every position twice (the invariants
ask whether the player to act has a move, then the player chooses among the moves), so each
position's listing counts twice in the shares.

Run: ``.venv/bin/python bench/listing.py [GAMES] [ROUNDS]`` (defaults: 30 games, 3 rounds).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from regelverk.engine import opening
from regelverk.policies import policy_for
from regelverk.simulate import play_one
from regelverk.vandatta import GAME
from regelverk.vandatta.state import Draw, Play, State

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 30
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
NAMES = ("P1", "P2", "P3", "P4")


def positions(book: str, policy: str, seeds: range) -> tuple[list[State], list[State], list[State]]:
    """Every position of the games ``play_one`` plays for ``seeds`` where a move is listed; those
    right after the spelförare's own draw; and of those, the ones whose listing before the
    draw held a play."""
    every: list[State] = []
    after: list[State] = []
    after_plays: list[State] = []
    choose = policy_for(book, policy)
    for seed in seeds:
        state = opening(GAME, GAME.options(book), NAMES, seed).state
        chooser = random.Random(f"regelverk-play-{seed}")
        drew = False
        had_plays = False
        while not GAME.is_over(state) and len(every) < 10**7:
            legal = GAME.legal_actions(state)
            if not legal:
                break
            every.append(state)
            if drew:
                after.append(state)
                if had_plays:
                    after_plays.append(state)
            action = choose(state, legal, chooser)
            following = GAME.apply(state, action).state
            drew = (
                type(action) is Draw
                and following.turn == state.turn
                and following.phase is state.phase
            )
            had_plays = any(type(a) is Play for a in legal)
            state = following
    return every, after, after_plays


def best(work: Callable[[], object]) -> float:
    """The least CPU time of ``ROUNDS`` runs of ``work``."""
    times = []
    for _ in range(ROUNDS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def listing_time(states: Sequence[State]) -> float:
    """CPU seconds to list the legal moves of every one of ``states``."""

    def run() -> None:
        for state in states:
            GAME.legal_actions(state)

    return best(run)


def games_time(book: str, policy: str, seeds: range) -> float:
    """CPU seconds of ``simulate``'s games for ``seeds``."""

    def run() -> None:
        for seed in seeds:
            play_one(book, {}, 4, seed, policy=policy)

    return best(run)


def main() -> None:
    seeds = range(GAMES)
    print(f"{GAMES} games of `simulate` per rulebook and player, 4 players; CPU shares of a game")
    for book in ("vandatta", "vvv8"):
        for policy in ("random", "keen"):
            games = games_time(book, policy, seeds)
            every, after, after_plays = positions(book, policy, seeds)
            whole, own, reusable = (2 * listing_time(s) for s in (every, after, after_plays))
            print(
                f"  {book:8} {policy:6} listing {whole / games:5.1%} of the games; right after "
                f"the spelförare's draw {own / games:5.1%} ({own / whole:.0%} of listing, "
                f"{len(after)} of {len(every)} listings); after a draw from a listing with "
                f"plays {reusable / games:5.1%}"
            )


if __name__ == "__main__":
    main()
