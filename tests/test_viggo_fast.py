"""The private, unchecked fast path for random Viggo rounds against the public, checked API.

``_random_round_fast`` promises to play, from a :class:`random.Random` in the same state, the very
round the public API plays when each step takes ``rng.choice(GAME.legal_actions(state))``. These
tests drive both with the same seeds for two, three and four players under the preset, under
every value of every option one at a time, and under random mixtures of all of them, and
compare the hands, the keeps of the draft, every play and pass, the tricks set aside, the
winner, the points and the losers.
"""

from __future__ import annotations

import enum
import random
from dataclasses import fields
from typing import Any

import pytest

from regelverk.cards import Card
from regelverk.viggo import GAME, Keep, Pass, Phase, Play, ViggoOptions
from regelverk.viggo._fast import _FastRound, _random_round_fast
from regelverk.viggo.combos import card_index

NAMES = ("P1", "P2", "P3", "P4")


def _public_round(options: ViggoOptions, count: int, seed: int, rng: random.Random) -> _FastRound:
    """The first round through the public API, recorded as the fast path records it."""
    state = GAME.deal(options, NAMES[:count], seed)
    hands = None if state.phase is Phase.DRAFT else state.hands
    leader = state.turn
    keeps: list[int] = []
    moves: list[tuple[int, tuple[int, ...] | None]] = []
    tricks: list[tuple[int, ...]] = []
    winner = -1
    while state.round == 1 and state.phase is not Phase.OVER:
        action = rng.choice(GAME.legal_actions(state))
        seat = state.turn
        outcome = GAME.apply(state, action)
        if isinstance(action, Keep):
            keeps.append(card_index(action.card))
        elif isinstance(action, Pass):
            moves.append((seat, None))
        else:
            assert isinstance(action, Play)
            moves.append((seat, tuple(card_index(c) for c in action.cards)))
        for event in outcome.events:
            if event.kind == "trick":
                tricks.append(tuple(card_index(Card.parse(c)) for c in event.cards))
            elif event.kind == "round-won":
                assert event.player is not None
                winner = NAMES.index(event.player)
        state = outcome.state
        if hands is None and state.phase is Phase.PLAY:
            hands, leader = state.hands, state.turn
    assert hands is not None
    return _FastRound(
        hands=tuple(tuple(card_index(c) for c in h) for h in hands),
        leader=leader,
        keeps=tuple(keeps),
        moves=tuple(moves),
        tricks=tuple(tricks),
        winner=winner,
        points=state.history[0],
        losers=state.losers,
    )


def _one_at_a_time() -> list[dict[str, Any]]:
    """The preset, then every other value of every option field on its own."""
    found: list[dict[str, Any]] = [{}]
    for field in fields(ViggoOptions):
        default = field.default
        if isinstance(default, enum.Enum):
            found += [{field.name: v} for v in type(default) if v is not default]
        elif isinstance(default, bool):
            found.append({field.name: True})
    found.append({"loss_points": 6})
    return found


def _mixed(count: int) -> list[dict[str, Any]]:
    """Random mixtures of every option field (seeded)."""
    rng = random.Random(5)
    found = []
    for _ in range(count):
        chosen: dict[str, Any] = {}
        for field in fields(ViggoOptions):
            default = field.default
            if isinstance(default, enum.Enum):
                chosen[field.name] = rng.choice(list(type(default)))
            elif isinstance(default, bool):
                chosen[field.name] = rng.random() < 0.5
        chosen["loss_points"] = rng.choice((5, 20, 53))
        found.append(chosen)
    return found


def _same(options: ViggoOptions, count: int, seeds: range) -> None:
    for seed in seeds:
        public = _public_round(options, count, seed, random.Random(seed * 7 + 1))
        fast = _random_round_fast(options, count, seed, random.Random(seed * 7 + 1))
        assert fast == public, f"{options!r}, {count} players, seed {seed}"


@pytest.mark.parametrize("count", [2, 3, 4])
def test_fast_path_plays_the_public_rounds_under_the_preset(count: int) -> None:
    _same(ViggoOptions(), count, range(50))


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("changes", _one_at_a_time(), ids=repr)
def test_fast_path_plays_the_public_rounds_under_each_option(
    changes: dict[str, Any], count: int
) -> None:
    _same(ViggoOptions(**changes), count, range(5))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_fast_path_plays_the_public_rounds_under_mixed_options(count: int) -> None:
    for number, changes in enumerate(_mixed(25)):
        _same(ViggoOptions(**changes), count, range(number * 3, number * 3 + 3))


def test_fast_path_rounds_end_with_a_winner_and_consistent_points() -> None:
    done = _random_round_fast(ViggoOptions(), 4, 11, random.Random(0))
    assert done.points[done.winner] == 0
    laid = sum(len(cards) for _, cards in done.moves if cards is not None)
    assert laid + sum(done.points) == 52
