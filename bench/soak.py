"""Random play at scale through the public API, with every invariant checked after every step.

Usage: ``python bench/soak.py RULEBOOK GAMES PLAYERS [MAX_STEPS]``. Prints the games, steps and
states with problems (with the first few problems in words), and the time taken. Not run in CI.
"""

from __future__ import annotations

import random
import sys
import time

from regelverk.games import game_for


def soak(rulebook: str, games: int, players: int, max_steps: int = 3000) -> int:
    """Play ``games`` seeded games by random legal moves; return how many broke an invariant."""
    game = game_for(rulebook)
    options = game.options(rulebook)
    names = [f"P{n}" for n in range(1, players + 1)]
    started, steps, broken = time.perf_counter(), 0, 0
    for seed in range(games):
        state = game.deal(options, names, seed)
        chooser = random.Random(seed)
        for _ in range(max_steps):
            if game.is_over(state):
                break
            legal = game.legal_actions(state)
            if not legal:
                break
            state = game.apply(state, chooser.choice(legal)).state
            steps += 1
            problems = game.problems(state)
            if problems:
                broken += 1
                if broken <= 5:
                    print(f"  seed {seed}: {'; '.join(problems)}")
                break
    seconds = time.perf_counter() - started
    print(
        f"{rulebook} {players} players: {games} games, {steps} steps, "
        f"{broken} with problems, {seconds:.0f} s"
    )
    return broken


if __name__ == "__main__":
    book, count, seats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 3000
    sys.exit(1 if soak(book, count, seats, limit) else 0)
