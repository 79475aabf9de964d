"""Both action paths agree, on every rulebook: one suite, parametrised over the four.

Each run walks seeded random legal play with options drawn at random (every enum and bool
field of the family's options type drawn from its values; a combination the options type
refuses is drawn again) at player counts across the rulebook's range, and on every state it
visits asserts, with :func:`action_space.assert_paths_agree`, that every listed action passes
``check`` and ``is_allowed``, that every action of the independent action space that ``check``
accepts is listed, that nothing is listed twice, and that a listed action object and an equal
copy rebuilt from plain data give the same outcome.

The default run plays a few short games per rulebook (a few seconds each). A longer run::

    REGELVERK_CONFORMANCE_GAMES=200 REGELVERK_CONFORMANCE_STEPS=400 \\
        pytest -q tests/test_conformance.py

``REGELVERK_CONFORMANCE_GAMES`` sets the games per rulebook, ``REGELVERK_CONFORMANCE_STEPS``
the most steps walked in each game.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import random
from typing import Any

import pytest
from action_space import VIGGO_MOST_CARDS, action_space, assert_paths_agree
from hypothesis import given, settings
from hypothesis import strategies as st

from regelverk.engine import IllegalActionError, PositionError, opening
from regelverk.games import game_for
from regelverk.viggo import state as vg

GAMES = int(os.environ.get("REGELVERK_CONFORMANCE_GAMES", "6"))
"""Games walked per rulebook."""
STEPS = int(os.environ.get("REGELVERK_CONFORMANCE_STEPS", "120"))
"""The most steps walked in one game."""

PLAYERS = {"vvv8": (2, 6), "vandatta": (2, 6), "viggo": (2, 4), "uno": (2, 10)}
"""The player counts drawn from, per rulebook (the engines' own ranges, UNO's up to ten)."""

RULEBOOKS = tuple(PLAYERS)


def _draw_options(game: Any, rulebook: str, rng: random.Random) -> Any:
    """A whole options object: the rulebook's preset with every enum and bool field drawn from
    its values; a combination the options type refuses on construction is drawn again."""
    base = game.options(rulebook)
    for _ in range(200):
        changes: dict[str, Any] = {}
        for field in dataclasses.fields(base):
            value = getattr(base, field.name)
            if isinstance(value, bool):
                changes[field.name] = rng.random() < 0.5
            elif isinstance(value, enum.Enum):
                changes[field.name] = rng.choice(list(type(value)))
        try:
            return dataclasses.replace(base, **changes)
        except (ValueError, TypeError):
            continue
    raise AssertionError(f"no {rulebook} options drawn in 200 tries")


def _new_game(rulebook: str, seed: int) -> tuple[Any, Any, Any]:
    """A game, its drawn options and the opening state; a player count the drawn options cannot
    seat is drawn again."""
    game = game_for(rulebook)
    rng = random.Random(f"{rulebook}-{seed}")
    low, high = PLAYERS[rulebook]
    for _ in range(50):
        options = _draw_options(game, rulebook, rng)
        count = rng.randint(low, high)
        players = [f"P{i + 1}" for i in range(count)]
        try:
            state = opening(game, options, players, seed).state
        except (PositionError, IllegalActionError):
            continue
        return game, options, state
    raise AssertionError(f"no {rulebook} game dealt in 50 tries")


def _walk(rulebook: str, seed: int, steps: int) -> tuple[int, int]:
    """Walk one game by random legal moves, asserting that the paths agree on every state;
    the states visited and the actions judged."""
    game, _options, state = _new_game(rulebook, seed)
    rng = random.Random(seed)
    visited = judged = 0
    for _ in range(steps):
        judged += assert_paths_agree(game, state)
        visited += 1
        if game.is_over(state):
            break
        listed = game.legal_actions(state)
        assert listed, f"nothing is listed in a game that is not over: {state!r}"
        assert game.problems(state) == ()
        state = game.apply(state, rng.choice(listed)).state
    return visited, judged


@pytest.mark.clause("V8-TURN-SAME-RULES-FOR-ALL", "VA-PLAY-MATCH-RANK-OR-SUIT")
@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS", "UNO-PLAY-MATCH")
@pytest.mark.parametrize("rulebook", RULEBOOKS)
@pytest.mark.parametrize("seed", range(GAMES))
def test_check_and_legal_actions_agree_on_every_state_visited(rulebook: str, seed: int) -> None:
    visited, judged = _walk(rulebook, seed, STEPS)
    assert visited >= 1 and judged >= visited


@settings(max_examples=8)
@given(rulebook=st.sampled_from(RULEBOOKS), seed=st.integers(1000, 10**6))
def test_paths_agree_on_random_games_drawn_by_hypothesis(rulebook: str, seed: int) -> None:
    _walk(rulebook, seed, 40)


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS")
@pytest.mark.parametrize("seed", range(3))
def test_viggo_check_reads_a_combination_in_any_order_and_no_larger(seed: int) -> None:
    """What :func:`action_space.viggo_space` leaves out: a play in another order than the
    hand's is judged as the same play, and more than five cards are never a combination."""
    game, _options, state = _new_game("viggo", seed)
    rng = random.Random(seed)
    for _ in range(30):
        if game.is_over(state):
            break
        hand = state.hands[state.turn]
        if state.phase is vg.Phase.PLAY and len(hand) > VIGGO_MOST_CARDS:
            with pytest.raises(IllegalActionError):
                game.check(state, vg.Play(cards=hand[: VIGGO_MOST_CARDS + 1]))
            for action in action_space(game, state):
                if isinstance(action, vg.Play) and action.player is None and len(action.cards) > 1:
                    turned = vg.Play(cards=tuple(reversed(action.cards)))
                    assert _allowed(game, state, turned) == _allowed(game, state, action)
        state = game.apply(state, rng.choice(game.legal_actions(state))).state


def _allowed(game: Any, state: Any, action: Any) -> bool:
    try:
        game.check(state, action)
    except IllegalActionError:
        return False
    return True
