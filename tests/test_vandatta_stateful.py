"""Random legal play over whole matches of both presets, every invariant checked after every step.

The machine picks among the legal actions by index; every legal action must pass ``check``, every
event must cite clauses that exist, and ``problems(state)`` must stay empty, terminal states
included. A second rule tries an arbitrary card from the hand and checks that the engine's
verdict agrees with the list of legal actions.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import option_sets

from regelverk.engine import IllegalActionError, is_allowed, with_options
from regelverk.registry import default_registry
from regelverk.vandatta import GAME
from regelverk.vandatta.state import Phase, Play, State

REGISTRY = default_registry()
CLAUSES = {c.id for c in REGISTRY.clauses()}
SETTINGS = settings(max_examples=30, stateful_step_count=150, deadline=None)

OPTION_SETS = [
    ("vandatta", {}),
    ("vandatta", {"varning_cards": 2, "ace_off_suit": "allowed", "multi_card": "first-card-rank"}),
    (
        "vandatta",
        {"eight_or_draw": "may-draw", "drawn_card": "may-keep", "empty_stock": "no-rebuild"},
    ),
    ("vvv8", {}),
    ("vvv8", {"session": "free-time", "viggo_present": True}),
    ("vvv8", {"play_after_third_draw": "third-draw-ends-turn", "ace_batch_draws": "per-play"}),
]


RANDOM_SETS = st.sampled_from(["vandatta", "vvv8"]).flatmap(
    lambda book: st.tuples(st.just(book), option_sets(book))
)
"""Either preset with a few options changed to any value the engine plays."""


class VandattaMatch(RuleBasedStateMachine):
    """A match of random legal play."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None
        self.steps = 0

    @initialize(
        choice=st.sampled_from(OPTION_SETS) | RANDOM_SETS,
        players=st.integers(min_value=2, max_value=5),
        seed=st.integers(min_value=0, max_value=10_000),
    )
    def start(self, choice: tuple[str, dict[str, object]], players: int, seed: int) -> None:
        book, overrides = choice
        options = with_options(GAME.options(book), overrides)
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
        self.state = outcome.state
        self.steps += 1

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
