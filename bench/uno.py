"""UNO: random full hands per second at 2 and 4 players, beside RLCard's UNO game driver.

Run with ``python bench/uno.py [seconds]``. Never run in CI. Three regelverk figures, labelled
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
* ``fast path, keen``: the private, unchecked ``regelverk.uno._fast._random_hand_fast`` (integer
  cards, no checks, no events, no state after the deal), playing the same keen policy. It plays
  exactly the hands the public API plays with the same seeds and random choices, which
  ``tests/test_uno_fast.py`` asserts.

A hand runs from the deal (dealer chosen by drawing, seven cards each, the first card turned)
until somebody goes out. The public figure also scores the hand and deals the next one, as
``apply`` does; the fast path stops at the score. With the ``bench`` extra installed (``pip
install -e '.[bench]'``), RLCard's ``UnoGame`` is driven in the same run (``init_game``; then
``get_legal_actions``, a uniform random choice, ``step``, which also builds RLCard's state
dict) and the ratios are printed; without it, that part is skipped with a message. RLCard's UNO
has no Wild Draw Four challenge (its Wild Draw Four is legal only when nothing else fits), no
UNO call, no scoring, no two-player rules, and a drawn card that fits is laid automatically;
regelverk models all of the official rules.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from regelverk.uno import GAME, UnoState
from regelverk.uno._fast import _keen_choice, _random_hand_fast
from regelverk.uno.state import Action

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0

Policy = Callable[[UnoState, random.Random], Action]


def uniform(state: UnoState, chooser: random.Random) -> Action:
    """Any legal action."""
    return chooser.choice(GAME.legal_actions(state))


def keen(state: UnoState, chooser: random.Random) -> Action:
    """A card whenever one fits, else whatever else is legal (no catches)."""
    return _keen_choice(GAME.legal_actions(state), chooser)


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


def fast_hands(players: int, seconds: float = SECONDS) -> float:
    """Hands per second on the private, unchecked fast path (keen policy)."""
    options = GAME.options("uno")
    names = [f"P{n}" for n in range(players)]
    chooser = random.Random(1)
    hands = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        _random_hand_fast(options, names, seed, chooser)
        hands += 1
    return hands / (time.perf_counter() - start)


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
        public, actions = our_hands(players, keen)
        print(f"  regelverk public API, keen     {public:9.1f} hands/s  {actions:10.0f} actions/s")
        hands, actions = our_hands(players, uniform)
        print(f"  regelverk public API, uniform  {hands:9.1f} hands/s  {actions:10.0f} actions/s")
        fast = fast_hands(players)
        print(f"  regelverk fast path, keen      {fast:9.1f} hands/s  (private, unchecked)")
        theirs = rlcard_hands(players)
        if theirs is None:
            print("  RLCard: not installed (pip install -e '.[bench]'); comparison skipped")
            continue
        rate = f"{theirs[0]:9.1f} hands/s  {theirs[1]:10.0f} actions/s"
        print(f"  RLCard UnoGame, random         {rate}")
        print(f"  ratio public API (keen) / RLCard: {public / theirs[0]:.2f}")
        print(f"  ratio fast path (keen) / RLCard:  {fast / theirs[0]:.2f}")


if __name__ == "__main__":
    main()
