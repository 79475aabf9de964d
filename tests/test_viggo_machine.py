"""Viggo: whole matches (rounds until someone reaches the losing total) by random legal play and
random mistakes, for two, three and four players and every house rule and reading, with the
invariants asserted after every step."""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar

import pytest
from action_space import PathsOnEachState
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from strategies import whole_options
from strength import machine_settings

from regelverk.engine import Event, is_allowed, with_options
from regelverk.registry import default_registry
from regelverk.viggo import GAME, Keep, Pass, Phase, Play, ViggoState, beats, classify
from regelverk.viggo.options import LossThresholdRule, ViggoOptions

REGISTRY = default_registry()
KNOWN = {c.id for c in REGISTRY.clauses()}
NAMES = ("P1", "P2", "P3", "P4")

VARIANTS: dict[str, dict[str, Any]] = {
    "preset": {},
    "club-three": {"club_three_on_top": "club-three-on-top"},
    "club-three-others": {
        "club_three_on_top": "club-three-on-top",
        "club_three_others": "others-still-beat",
    },
    "club-four": {"club_four_starts": True, "club_four_opening": "must-include"},
    "club-four-first": {"club_four_starts": True, "club_four_scope": "first-round-only"},
    "same-rank-once": {"same_rank_once": True, "equal_rank_reply": "equal-allowed"},
    "same-rank-over-club-three": {
        "same_rank_once": True,
        "club_three_on_top": "club-three-on-top",
        "club_three_same_rank": "same-rank-forbids",
    },
    "must-beat": {"pass_when_able": "must-beat", "pass_is_final": "final"},
    "most-cards": {"most_cards_deal": True, "most_cards_tie": "lots-among-tied"},
    "most-cards-deal-only": {"most_cards_deal": True, "most_cards_lead": "deal-only"},
    "readings-a": {
        "pass_is_final": "final",
        "sequence_wrap": "wrap",
        "three_in_combination": "three-trumps",
        "lead_after_tie": "first-to-play",
        "direction": "counter-clockwise",
        "three_player_deal": "seventeen-each-one-aside",
        "draft_discards": "under-stock",
    },
    "readings-b": {
        "example_trick_end": "one-lap",
        "grouped_ranks": "equal-within-row",
        "equal_rank_reply": "equal-allowed",
        "three_beats_three": "singles-only",
        "three_player_deal": "deal-all-uneven",
        "draft_look_both": "every-turn",
        "next_dealer": "dealer-rotates",
        "first_leader": "club-four-holder",
        "simultaneous_loss": "all-over-lose",
        "game_winner": "lowest-total-wins",
    },
    "readings-c": {
        "simultaneous_loss": "first-in-turn-order",
        "loss_threshold_rule": "exactly",
        "loss_points": 30,
    },
}

MAX_STEPS = 6000


def sound(state: ViggoState, events: tuple[Event, ...] = ()) -> None:
    """The issue's invariants: every card in one place, one type per trick, every reply
    beating what it covers, the scores consistent (all in ``problems``), and known clauses."""
    assert GAME.problems(state) == ()
    combos = [classify(laid.cards, state.options) for laid in state.trick]
    assert len({c.kind for c in combos if c is not None}) <= 1
    for old, new in itertools.pairwise(combos):
        assert old is not None and new is not None
        assert beats(new, old, state.options).allowed
    assert sum(state.scores) == sum(sum(row) for row in state.history)
    for row in state.history:
        assert row.count(0) >= 1
    for event in events:
        assert event.clauses and set(event.clauses) <= KNOWN, event


class ViggoMatch(RuleBasedStateMachine):
    """One whole match under one set of options."""

    players = 4
    variant: dict[str, Any] = {}  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.options = with_options(GAME.options("viggo"), self.variant)
        self.state: ViggoState | None = None
        self.paths = PathsOnEachState(GAME)
        self.steps = 0

    @property
    def current(self) -> ViggoState:
        assert self.state is not None
        return self.state

    def _apply(self, action: Any) -> None:
        outcome = GAME.apply(self.current, action)
        sound(outcome.state, outcome.events)
        self.state = outcome.state
        self.steps += 1

    def _apply_listed(self, action: Any) -> None:
        GAME.check(self.current, action)  # apply trusts its own listing; check judges afresh
        self._apply(action)

    @precondition(lambda self: self.state is None)
    @rule(seed=st.integers(0, 2**16))
    def deal(self, seed: int) -> None:
        self.state = GAME.deal(self.options, NAMES[: self.players], seed)
        self.rng = random.Random(seed)
        sound(self.state)

    @precondition(lambda self: self.state is not None and not GAME.is_over(self.state))
    @rule(count=st.integers(1, 400))
    def play_on(self, count: int) -> None:
        """Random legal moves, the invariants checked after each."""
        for _ in range(count):
            if GAME.is_over(self.current):
                return
            self._apply_listed(self.rng.choice(GAME.legal_actions(self.current)))

    @precondition(lambda self: self.state is not None and not GAME.is_over(self.state))
    @rule(data=st.data())
    def attempt(self, data: st.DataObject) -> None:
        """A random attempt, mistakes included: the checker and the legal moves agree."""
        state = self.current
        legal = GAME.legal_actions(state)
        if state.phase is Phase.DRAFT:
            action: Any = Keep(card=data.draw(st.sampled_from(state.stock[:4])))
        else:
            hand = state.hands[state.turn]
            size = data.draw(st.integers(0, min(5, len(hand))))
            if size == 0:
                action = Pass()
            else:
                cards = data.draw(st.permutations(hand))[:size]
                action = Play(cards=tuple(cards))
        allowed = is_allowed(GAME, state, action)
        if isinstance(action, Play):
            canonical = {frozenset(a.cards) for a in legal if isinstance(a, Play)}
            assert allowed == (frozenset(action.cards) in canonical)
        else:
            assert allowed == (action in legal)
        if allowed:
            self._apply(action)

    @precondition(lambda self: self.state is not None and GAME.is_over(self.state))
    @rule()
    def game_over(self) -> None:
        """A match that is over (it may end before the steps run out) lists no move and
        refuses every action, naming the losing rule."""
        assert GAME.legal_actions(self.current) == ()
        assert not is_allowed(GAME, self.current, Pass())

    @invariant()
    def paths_agree(self) -> None:
        """``legal_actions`` and ``check`` agree on the current state (tests/action_space.py)."""
        self.paths(self.state)

    @invariant()
    def still_sound(self) -> None:
        if self.state is not None:
            sound(self.state)

    def teardown(self) -> None:
        """Play the match to its end, so that every example is a whole match."""
        if self.state is None:
            return
        while not GAME.is_over(self.current) and self.steps < MAX_STEPS:
            self._apply_listed(self.rng.choice(GAME.legal_actions(self.current)))
        if self.options.loss_threshold_rule is LossThresholdRule.AT_LEAST:
            assert GAME.is_over(self.current), "the match did not end"
            assert self.current.losers


@pytest.mark.clause(
    "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    "VG-PLAY-NO-TYPE-SWITCH",
    "VG-SCORE-CUMULATIVE",
    "VG-LOSS-FIRST-TO-53",
)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_matches(players: int, variant: str) -> None:
    machine = type(
        f"ViggoMatch{players}{variant}",
        (ViggoMatch,),
        {"players": players, "variant": VARIANTS[variant]},
    )
    run_state_machine_as_test(
        machine,
        settings=machine_settings(1, 6),
    )


class DrawnViggoMatch(ViggoMatch):
    """A whole match under whole drawn options: every field from its domain
    (:func:`strategies.whole_options`)."""

    steps_taken: ClassVar[int] = 0

    @precondition(lambda self: self.state is None)
    @rule(seed=st.integers(0, 2**16), options=whole_options("viggo"))
    def deal(self, seed: int, options: ViggoOptions) -> None:
        self.options = options
        super().deal(seed)

    def _apply(self, action: Any) -> None:
        super()._apply(action)
        DrawnViggoMatch.steps_taken += 1


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-LOSS-FIRST-TO-53")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_matches_under_drawn_options(players: int) -> None:
    machine = type(f"DrawnViggoMatch{players}", (DrawnViggoMatch,), {"players": players})
    before = DrawnViggoMatch.steps_taken
    run_state_machine_as_test(machine, settings=machine_settings(8, 6))
    assert DrawnViggoMatch.steps_taken - before >= 100  # the drawn matches are played
