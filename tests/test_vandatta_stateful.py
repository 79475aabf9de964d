"""Random legal play over whole matches under whole drawn options (every field of either preset
drawn from its domain), every invariant checked after every step.

The machine picks among the legal actions by index; every legal action must pass ``check``, every
event must cite clauses that exist, and ``problems(state)`` must stay empty, terminal states
included. A second rule tries an arbitrary card from the hand and checks that the engine's
verdict agrees with the list of legal actions.
"""

from __future__ import annotations

from typing import ClassVar

import pytest
from action_space import PathsOnEachState
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from strategies import whole_options
from strength import machine_settings

from regelverk.engine import IllegalActionError, is_allowed
from regelverk.registry import default_registry
from regelverk.vandatta import GAME
from regelverk.vandatta.invariants import step_problems
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.setup import player_limit
from regelverk.vandatta.state import Phase, Play, State

REGISTRY = default_registry()
CLAUSES = {c.id for c in REGISTRY.clauses()}
SETTINGS = machine_settings(30, 150)

WHOLE_OPTIONS = st.sampled_from(["vandatta", "vvv8"]).flatmap(whole_options)
"""Either preset's options with every field drawn from its domain (regelverk.optionspace)."""


class VandattaMatch(RuleBasedStateMachine):
    """A match of random legal play."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None
        self.paths = PathsOnEachState(GAME)
        self.steps = 0

    steps_taken: ClassVar[int] = 0

    @initialize(
        options=WHOLE_OPTIONS,
        players=st.integers(min_value=2, max_value=6),
        seed=st.integers(min_value=0, max_value=10_000),
    )
    def start(self, options: VandattaOptions, players: int, seed: int) -> None:
        players = min(players, player_limit(options)[0])  # a table the options seat
        self.state = GAME.deal(options, [f"P{n}" for n in range(1, players + 1)], seed)

    @precondition(lambda self: self.state is not None and not GAME.is_over(self.state))
    @rule(pick=st.integers(min_value=0, max_value=10_000))
    def legal_move(self, pick: int) -> None:
        assert self.state is not None
        legal = GAME.legal_actions(self.state)
        assert legal, "a state that is not over must offer an action"
        action = legal[pick % len(legal)]
        GAME.check(self.state, action)  # apply trusts its own listing; check judges afresh
        outcome = GAME.apply(self.state, action)
        for event in outcome.events:
            assert set(event.clauses) <= CLAUSES, event
        assert step_problems(self.state, outcome.state) == ()
        self.state = outcome.state
        self.steps += 1
        VandattaMatch.steps_taken += 1

    @precondition(lambda self: self.state is not None and self.state.phase is Phase.PLAY)
    @rule(index=st.integers(min_value=0, max_value=50), named=st.booleans())
    def any_single_card_is_judged_as_listed(self, index: int, named: bool) -> None:
        assert self.state is not None
        seat = self.state.turn
        hand = self.state.hands[seat]
        if not hand:
            return
        card = hand[index % len(hand)]
        suit = card.suit if named else None
        attempt = Play(player=seat, cards=(card,), suit=suit)
        listed = attempt in GAME.legal_actions(self.state)
        assert is_allowed(GAME, self.state, attempt) == listed
        if not listed:
            with pytest.raises(IllegalActionError) as error:
                GAME.apply(self.state, attempt)
            assert set(error.value.clauses) <= CLAUSES

    @rule()
    def position_round_trips(self) -> None:
        if self.state is not None:
            data = GAME.position_to_data(self.state)
            again = GAME.position_from_data(data, self.state.options)
            assert GAME.position_to_data(again) == data

    @invariant()
    def paths_agree(self) -> None:
        """``legal_actions`` and ``check`` agree on the current state (tests/action_space.py)."""
        self.paths(self.state)

    @invariant()
    def sound(self) -> None:
        if self.state is not None:
            assert GAME.problems(self.state) == ()

    @invariant()
    def record_consistent(self) -> None:
        if self.state is None:
            return
        record = self.state.record
        assert sum(record.wins) == sum(record.losses) == record.official <= record.deals


VandattaMatch.TestCase.settings = SETTINGS
TestVandattaMatch = VandattaMatch.TestCase


def test_the_machine_takes_steps_under_drawn_options() -> None:
    """The machine above plays: its runs under whole drawn options take legal steps."""
    before = VandattaMatch.steps_taken
    run_state_machine_as_test(
        VandattaMatch,
        settings=settings(max_examples=10, stateful_step_count=40, deadline=None, derandomize=True),
    )
    assert VandattaMatch.steps_taken - before > 0


def test_whole_matches_end_with_every_invariant_kept() -> None:
    """Seeded random matches to the end, 2 to 6 players (5 in vvv8's coffee break)."""
    import random

    for book, limit in (("vandatta", 6), ("vvv8", 5)):
        for seed in range(limit - 1):
            players = [f"P{n}" for n in range(1, seed + 3)]
            state = GAME.deal(GAME.options(book), players, seed)
            chooser = random.Random(seed)
            for _ in range(20_000):
                if GAME.is_over(state):
                    break
                state = GAME.apply(state, chooser.choice(GAME.legal_actions(state))).state
                assert GAME.problems(state) == ()
            assert GAME.is_over(state)
            assert state.record.champions
