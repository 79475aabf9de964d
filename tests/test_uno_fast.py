"""The private, unchecked fast path for random UNO hands against the public, checked API.

``_random_hand_fast`` promises to play, from a :class:`random.Random` in the same state, the very
first hand the public API plays from ``GAME.deal`` when each step takes ``_keen_choice`` of
``GAME.legal_actions`` (the benchmark's player). These tests drive both with the same seeds for
2 to 10 players, both decks, stacking on and off, and random mixtures of every other option,
and compare every card laid, the winner, the points and the number of actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from regelverk.cards import UnoCard
from regelverk.uno import GAME, UnoOptions
from regelverk.uno._fast import _FastHand, _keen_choice, _random_hand_fast
from regelverk.uno.options import _ENUM_FIELDS
from regelverk.uno.rules import card_key

LIMIT = 2_000
"""Actions after which a hand is cut off (every card held and nobody able to lay one can make a
hand run for ever); both sides stop at the same count."""


def _public_hand(options: UnoOptions, players: int, seed: int, rng: random.Random) -> _FastHand:
    """The first hand through the public API, recorded as the fast path records it."""
    names = [f"P{n}" for n in range(players)]
    state = GAME.deal(options, names, seed)
    actions = 0
    laid: list[int] = []
    winner: int | None = None
    while state.hand_number == 1 and not GAME.is_over(state):
        if actions == LIMIT:
            return _FastHand(winner=None, points=(), actions=actions, laid=tuple(laid))
        outcome = GAME.apply(state, _keen_choice(GAME.legal_actions(state), rng))
        actions += 1
        for event in outcome.events:
            if event.kind == "play":
                laid.append(card_key(UnoCard.parse(event.cards[0])))
            elif event.kind == "score":
                assert event.player is not None
                winner = names.index(event.player)
        state = outcome.state
    return _FastHand(winner=winner, points=state.results[0], actions=actions, laid=tuple(laid))


def _fast_hand(options: UnoOptions, players: int, seed: int, rng: random.Random) -> _FastHand:
    names = [f"P{n}" for n in range(players)]
    return _random_hand_fast(options, names, seed, rng, LIMIT)


def _same(options: UnoOptions, players: int, seed: int) -> None:
    public = _public_hand(options, players, seed, random.Random(seed))
    fast = _fast_hand(options, players, seed, random.Random(seed))
    assert fast == public, (options, players, seed)


@pytest.mark.parametrize("deck", [108, 112])
@pytest.mark.parametrize("stacking", [False, True])
def test_fast_path_plays_the_public_hands(deck: int, stacking: bool) -> None:
    options = UnoOptions(deck=deck, stack_draw_two=stacking)
    for seed in range(45):
        _same(options, 2 + seed % 9, seed)


def test_fast_path_plays_the_public_hands_under_every_option() -> None:
    for seed in range(150):
        chooser = random.Random(seed)
        changes: dict[str, Any] = {
            name: chooser.choice(list(kind)) for name, kind in _ENUM_FIELDS.items()
        }
        changes |= {
            "deck": chooser.choice((108, 112)),
            "stack_draw_two": chooser.random() < 0.5,
            "target_score": chooser.choice((1, 500)),
        }
        _same(UnoOptions(**changes), chooser.randint(2, 10), seed)


def test_fast_path_hands_end_with_a_winner_and_points() -> None:
    hand = _fast_hand(UnoOptions(), 4, 7, random.Random(7))
    assert hand.winner is not None and hand.points[hand.winner] > 0 and hand.laid
