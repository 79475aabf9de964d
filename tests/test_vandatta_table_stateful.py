"""vvv8 at a real table: random legal play mixed with absences, returns, remarks, looks back,
vetoes and random mistakes, every ruling going through ``GAME.attempt``; the invariants (penalty
cards included) are checked after every step, and that ``legal_actions`` and ``check`` agree on
every second state."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from action_space import PathsOnEachState
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import whole_options
from strength import machine_settings

from regelverk.cards import french_deck
from regelverk.engine import Ruling, with_options
from regelverk.registry import default_registry
from regelverk.vandatta import GAME
from regelverk.vandatta.invariants import step_problems
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.setup import player_limit
from regelverk.vandatta.state import (
    Back,
    Draw,
    ExtraCard,
    Join,
    LookBack,
    Pass,
    Phase,
    Play,
    Remark,
    RemarkKind,
    State,
    StepAway,
    Veto,
)

CLAUSES = {c.id for c in default_registry().clauses()}
SETTINGS = machine_settings(12, 100)

PATHS_EVERY = 2
"""``paths_agree`` judges every second new state this machine reaches. Under multi_card_play =
chain a hand grown large by penalty cards has tens of thousands of chains of several ranks for
``check`` to judge (up to :data:`action_space.CHAIN_BOUND` cards): judging every state added up
to 8 s of CPU to some random runs, and every second state halves that."""

MISDEAL_OPTIONS: list[dict[str, Any]] = [
    {},
    {"surplus_return": "must-return", "all_short_completion": "full-rounds"},
    {"redeal_window": "any-time-in-deal"},
]


class TableMatch(RuleBasedStateMachine):
    """A vvv8 match at a table where people step away and make mistakes."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None
        self.mistakes = 0
        self.paths = PathsOnEachState(GAME, every=PATHS_EVERY)

    steps_taken: ClassVar[int] = 0

    @initialize(
        options=whole_options("vvv8"),
        players=st.integers(min_value=3, max_value=5),
        seed=st.integers(min_value=0, max_value=10_000),
    )
    def start(self, options: VandattaOptions, players: int, seed: int) -> None:
        """A vvv8 table under options with every field drawn (the preset first when shrunk)."""
        players = min(players, player_limit(options)[0])  # a table the options seat
        self.state = GAME.deal(options, [f"P{n}" for n in range(1, players + 1)], seed)

    def _rule(self, action: Any) -> Ruling[State]:
        assert self.state is not None
        ruling = GAME.attempt(self.state, action)
        for event in ruling.events:
            assert set(event.clauses) <= CLAUSES, event
        assert set(ruling.clauses) <= CLAUSES
        assert step_problems(self.state, ruling.state) == ()
        if not ruling.allowed and ruling.state is not self.state:
            self.mistakes += 1
        TableMatch.steps_taken += 1
        self.state = ruling.state
        return ruling

    def _live(self) -> bool:
        return self.state is not None and not GAME.is_over(self.state)

    @precondition(lambda self: self._live())
    @rule(pick=st.integers(min_value=0, max_value=10_000))
    def legal_move(self, pick: int) -> None:
        assert self.state is not None
        legal = GAME.legal_actions(self.state)
        assert legal
        assert self._rule(legal[pick % len(legal)]).allowed

    @precondition(lambda self: self._live() and self.state.phase is Phase.PLAY)
    @rule(seat=st.integers(min_value=0, max_value=4), back=st.booleans())
    def presence(self, seat: int, back: bool) -> None:
        assert self.state is not None
        seat %= len(self.state.players)
        self._rule(Back(player=seat) if back else StepAway(player=seat))

    @precondition(lambda self: self._live() and self.state.phase is Phase.PLAY)
    @rule(
        seat=st.integers(min_value=0, max_value=4),
        index=st.integers(min_value=0, max_value=30),
        kind=st.sampled_from(["play", "draw", "pass", "call"]),
    )
    def mistake(self, seat: int, index: int, kind: str) -> None:
        assert self.state is not None
        seat %= len(self.state.players)
        hand = self.state.hands[seat]
        action: Play | Draw | Pass
        if kind == "play" and hand:
            card = hand[index % len(hand)]
            suit = self.state.top.suit if card.rank.value == 8 and self.state.top else None
            action = Play(player=seat, cards=(card,), suit=suit, call=index % 3 == 0)
        elif kind == "pass":
            action = Pass(player=seat, call=index % 2 == 0)
        else:
            action = Draw(player=seat, call=kind == "call")
        self._rule(action)

    @precondition(lambda self: self._live() and self.state.phase is Phase.PLAY)
    @rule(
        seat=st.integers(min_value=0, max_value=4),
        kind=st.sampled_from(list(RemarkKind)),
        depth=st.integers(min_value=0, max_value=4),
    )
    def talk(self, seat: int, kind: RemarkKind, depth: int) -> None:
        assert self.state is not None
        seat %= len(self.state.players)
        if depth % 2:
            self._rule(Remark(player=seat, kind=kind))
        else:
            self._rule(LookBack(player=seat, cards=depth, latest_play=1 + depth % 3))

    @precondition(lambda self: self._live() and self.state.phase is Phase.PLAY)
    @rule(seat=st.integers(min_value=0, max_value=5))
    def late_joiner(self, seat: int) -> None:
        assert self.state is not None
        self._rule(Join(name=f"J{len(self.state.players)}", seat=seat))

    @precondition(lambda self: self._live() and self.state.phase is Phase.PLAY)
    @rule(seat=st.integers(min_value=0, max_value=4))
    def card_too_many(self, seat: int) -> None:
        assert self.state is not None
        self._rule(ExtraCard(player=seat % len(self.state.players)))

    @precondition(lambda self: self._live() and self.state.phase is Phase.START_SUIT)
    @rule(index=st.integers(min_value=0, max_value=30))
    def early_on_start_eight(self, index: int) -> None:
        assert self.state is not None
        hand = self.state.hands[self.state.turn]
        if hand:
            self._rule(Play(player=self.state.turn, cards=(hand[index % len(hand)],)))

    @precondition(lambda self: self._live() and self.state.vetoable is not None)
    @rule()
    def veto(self) -> None:
        assert self.state is not None
        callers = sorted(self.state.calls)
        if callers:
            self._rule(Veto(player=callers[0]))

    @precondition(lambda self: self.state is not None and GAME.is_over(self.state))
    @rule()
    def match_over(self) -> None:
        assert self.state is not None
        assert GAME.legal_actions(self.state) == ()

    @invariant()
    def paths_agree(self) -> None:
        """``legal_actions`` and ``check`` agree (tests/action_space.py), at a real table too."""
        self.paths(self.state)

    @invariant()
    def sound(self) -> None:
        if self.state is not None:
            assert GAME.problems(self.state) == ()


TableMatch.TestCase.settings = SETTINGS


@pytest.mark.clause(
    "V8-PEN-STANDARD-THREE-CARDS",
    "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
    "V8-PRESENCE-ABSENT-TURN-SKIPPED",
    "V8-PRESENCE-MAY-RETURN",
    "V8-JOIN-LATE-TAKE-FREE-SEAT",
    "V8-PEN-OVERDRAW-ANY-DRAW",
    "V8-START-EIGHT-FORHAND-EARLY-PENALTY",
)
def test_vvv8_table_with_absences_and_mistakes() -> None:
    before = TableMatch.steps_taken
    TableMatch.TestCase().runTest()
    assert TableMatch.steps_taken - before >= 100  # the runs under drawn options take steps


def test_the_table_machine_makes_mistakes() -> None:
    machine = TableMatch()
    machine.start(GAME.options("vvv8"), 3, 7)
    for step in range(60):
        if not machine._live():
            break
        machine.mistake(step % 3, step, "play")
        machine.sound()
        if machine._live():
            machine.legal_move(step)
            machine.sound()
    assert machine.mistakes > 0


@pytest.mark.clause("V8-MISDEAL-TOO-FEW-COMPLETE", "V8-MISDEAL-TOO-MANY-RETURN")
@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=4, max_value=9), min_size=3, max_size=5),
    turned=st.booleans(),
    overrides=st.sampled_from(MISDEAL_OPTIONS),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=12, max_size=12),
)
def test_misdeals_are_put_right(
    sizes: list[int], turned: bool, overrides: dict[str, Any], picks: list[int]
) -> None:
    """Any misdeal, put right by random legal actions, reaches play with every card in place."""
    options = with_options(GAME.options("vvv8"), overrides)
    players = [f"P{n}" for n in range(1, len(sizes) + 1)]
    deck = list(french_deck(2 if len(sizes) >= 4 else 1))
    hands: dict[str, list[str]] = {}
    for name, size in zip(players, sizes, strict=True):
        hands[name] = [deck.pop().code for _ in range(size)]
    data: dict[str, Any] = {
        "players": players,
        "phase": "misdeal",
        "dealer": players[-1],
        "turn": players[0],
        "hands": hands,
        "pile": [deck.pop().code] if turned else [],
    }
    state = GAME.position_from_data(data, options)
    assert GAME.problems(state) == ()
    for pick in picks:
        if state.phase is not Phase.MISDEAL:
            break
        legal = GAME.legal_actions(state)
        assert legal
        state = GAME.apply(state, legal[pick % len(legal)]).state
        assert GAME.problems(state) == ()
    assert state.phase in (Phase.PLAY, Phase.START_SUIT, Phase.MISDEAL)
    if state.phase is not Phase.MISDEAL:
        assert all(len(h) >= 7 for h in state.hands)
