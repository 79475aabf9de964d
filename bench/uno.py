"""UNO: random full hands per second at 2 and 4 players, beside RLCard's UNO game driver.

Run with ``python bench/uno.py``. Two random players are timed on regelverk's engine, each
move through the checked ``GAME.apply``:

* ``uniform``: any legal action at random, catches, late UNO calls, challenges and drawing by
  choice included (the official rules let a player draw instead of playing, so hands run long);
* ``keen``: lays a card whenever one fits (random among them), otherwise does what is left
  (draw, challenge or not); this is the policy RLCard's random agent plays, since RLCard only
  offers "draw" when no card fits.

A hand runs from the deal until somebody goes out. With the ``bench`` extra installed
(``pip install -e '.[bench]'``), RLCard's ``UnoGame`` is driven the same way (state, legal
actions, random choice, step) in the same run, and the ratio is printed; without it, that part
is skipped with a message. RLCard's UNO has no Wild Draw Four challenge, no UNO call, no
scoring and no two-player rules; regelverk models all of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from regelverk.uno import GAME, Play, UnoState
from regelverk.uno.state import Action, Catch

SECONDS = 3.0

Policy = Callable[[UnoState, random.Random], Action]


def uniform(state: UnoState, chooser: random.Random) -> Action:
    """Any legal action."""
    return chooser.choice(GAME.legal_actions(state))


def keen(state: UnoState, chooser: random.Random) -> Action:
    """A card whenever one fits, else whatever else is legal (no catches)."""
    legal = GAME.legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return chooser.choice(plays)
    rest = [a for a in legal if not isinstance(a, Catch)]
    return chooser.choice(rest or legal)


def our_hands(players: int, policy: Policy, seconds: float = SECONDS) -> tuple[float, float]:
    """Hands and actions per second on regelverk's engine."""
    options = GAME.options("uno")
    names = [f"P{n}" for n in range(players)]
    chooser = random.Random(1)
    hands = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        state = GAME.deal(options, names, seed)
        while state.hand_number == 1 and not GAME.is_over(state):
            state = GAME.apply(state, policy(state, chooser)).state
            actions += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / elapsed


def rlcard_hands(players: int, seconds: float = SECONDS) -> tuple[float, float] | None:
    """Hands and actions per second on RLCard's UnoGame, or None without RLCard."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    game.np_random.seed(1)
    chooser = random.Random(1)
    hands = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(chooser.choice(legal))
            actions += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / elapsed


def main() -> None:
    """Print the figures."""
    for players in (2, 4):
        print(f"{players} players")
        keen_rate = None
        for name, policy in (("keen", keen), ("uniform", uniform)):
            hands, actions = our_hands(players, policy)
            if name == "keen":
                keen_rate = hands
            print(f"  regelverk, {name:<8} {hands:9.1f} hands/s  {actions:10.0f} actions/s")
        theirs = rlcard_hands(players)
        if theirs is None:
            print("  RLCard: not installed (pip install -e '.[bench]'); comparison skipped")
            continue
        print(f"  RLCard UnoGame   {theirs[0]:9.1f} hands/s  {theirs[1]:10.0f} actions/s")
        assert keen_rate is not None
        print(f"  ratio regelverk (keen) / RLCard: {keen_rate / theirs[0]:.2f}")


if __name__ == "__main__":
    main()
