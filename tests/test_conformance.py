"""Both action paths agree, on every rulebook: one suite, parametrised over the four.

Each run walks seeded random legal play with options drawn at random (every enum and bool
field of the family's options type drawn from its values; a combination the options type
refuses is drawn again) at player counts across the rulebook's range, and on every state it
visits asserts, with :func:`action_space.assert_paths_agree`, that every listed action passes
``check`` and ``is_allowed``, that every action of the independent action space that ``check``
accepts is listed, that nothing is listed twice, and that a listed action object and an equal
copy rebuilt from plain data give the same outcome. At a Vändåtta table the walk now and then
takes a step of table conduct that is never listed (stepping away, coming back, sitting down
late), so that states with absent players and late joiners are visited too.

The default run plays a few short games per rulebook (a few seconds each). A longer run::

    REGELVERK_CONFORMANCE_GAMES=200 REGELVERK_CONFORMANCE_STEPS=400 \\
        pytest -q tests/test_conformance.py

``REGELVERK_CONFORMANCE_GAMES`` sets the games per rulebook, ``REGELVERK_CONFORMANCE_STEPS``
the most steps walked in each game. Under ``REGELVERK_STRENGTH=full`` (``scripts/invariants.sh``)
the default games and the Hypothesis examples are scaled as :mod:`strength` says.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from action_space import VIGGO_MOST_CARDS, action_space, assert_paths_agree
from hypothesis import given, settings
from hypothesis import strategies as st
from strength import scaled

from regelverk.engine import IllegalActionError, PositionError, is_allowed, opening
from regelverk.games import game_for
from regelverk.vandatta import state as va
from regelverk.viggo import state as vg

GAMES = int(os.environ.get("REGELVERK_CONFORMANCE_GAMES", str(scaled(8))))
"""Games walked per rulebook."""
STEPS = int(os.environ.get("REGELVERK_CONFORMANCE_STEPS", "160"))
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


def _states(rulebook: str, seed: int, steps: int) -> Iterator[tuple[Any, Any]]:
    """The game and each state of one seeded walk by random legal moves (and, at a Vändåtta
    table, now and then a step of table conduct: :func:`_conduct`)."""
    game, _options, state = _new_game(rulebook, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        yield game, state
        if game.is_over(state):
            return
        listed = game.legal_actions(state)
        assert listed, f"nothing is listed in a game that is not over: {state!r}"
        assert game.problems(state) == ()
        conduct = _conduct(game, state, rng)
        state = game.apply(state, conduct or rng.choice(listed)).state


def _walk(rulebook: str, seed: int, steps: int) -> tuple[int, int]:
    """Walk one game, asserting that the paths agree on every state; the states visited and
    the actions judged."""
    visited = judged = 0
    for game, state in _states(rulebook, seed, steps):
        judged += assert_paths_agree(game, state)
        visited += 1
    return visited, judged


def _conduct(game: Any, state: Any, rng: random.Random) -> Any:
    """Now and then at a Vändåtta table, something that is no move of play and is never
    listed: a player steps away or comes back, or a newcomer sits down, where ``check`` allows
    it; so that the walk also visits states with absent players and late joiners (where coming
    back, stepping in and staying out are listed)."""
    if game.family != "vandatta" or rng.random() >= 0.08:
        return None
    seats = len(state.players)
    action = rng.choice(
        [
            va.StepAway(player=rng.randrange(seats)),
            va.Back(player=rng.randrange(seats)),
            va.Join(name=f"N{seats + 1}", seat=rng.randrange(seats + 1)),
        ]
    )
    return action if is_allowed(game, state, action) else None


@pytest.mark.clause("V8-TURN-SAME-RULES-FOR-ALL", "VA-PLAY-MATCH-RANK-OR-SUIT")
@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS", "UNO-PLAY-MATCH")
@pytest.mark.parametrize("rulebook", RULEBOOKS)
@pytest.mark.parametrize("seed", range(GAMES))
def test_check_and_legal_actions_agree_on_every_state_visited(rulebook: str, seed: int) -> None:
    visited, judged = _walk(rulebook, seed, STEPS)
    assert visited >= 1 and judged >= visited


def _features(state: Any) -> set[str]:
    """What a state shows of the situations the suite claims to reach."""
    found = {f"phase {state.phase.value}"}
    for name in ("away", "joining", "calls", "exposed"):
        value = getattr(state, name, None)
        if value not in (None, frozenset()):
            found.add(name)
    return found


CLAIMED = {
    "vvv8": {"phase play", "phase deal-over", "away", "joining", "calls"},
    "vandatta": {"phase play", "phase deal-over", "away", "joining", "calls"},
    "viggo": {"phase draft", "phase play"},
    "uno": {"phase play", "phase drawn", "phase challenge", "phase stack", "exposed"},
}
"""Situations the default walks of each rulebook must visit between them."""


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_the_default_walks_visit_the_situations_claimed(rulebook: str) -> None:
    """The walks of the default run reach absent players, late joiners and standing calls
    (Vändåtta), the draft (Viggo), a drawn card, a Wild Draw Four to answer, a stacked Draw Two
    and a player who forgot UNO (UNO): the states the suite judges include these."""
    seen: set[str] = set()
    for seed in range(GAMES):
        for _game, state in _states(rulebook, seed, STEPS):
            seen |= _features(state)
    assert CLAIMED[rulebook] <= seen, f"never visited: {CLAIMED[rulebook] - seen}"


@settings(max_examples=scaled(8))
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
