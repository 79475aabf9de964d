"""UNO as a Hypothesis state machine: whole games, 2 to 10 players, under whole drawn options
(every field from its domain in regelverk.optionspace: both packs, stacking on and off, every
reading of the register, the stated target scores), random mistakes; the invariants after every
step.

Also here: the finding that the rules admit a never-ending game (a position that repeats).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest
from action_space import PathsOnEachState
from hypothesis import HealthCheck, settings
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

from regelverk.cards import Colour, UnoCard
from regelverk.engine import IllegalActionError
from regelverk.registry import default_registry
from regelverk.uno import (
    GAME,
    CallUno,
    Catch,
    Challenge,
    Direction,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno.rules import deck_for
from regelverk.uno.scenario import position
from regelverk.uno.state import Action

CLAUSE_IDS = frozenset(c.id for c in default_registry().clauses())
NAMES = ("Anna", "Bo", "Cia", "Dan", "Eva", "Fia", "Gus", "Hed", "Ida", "Jon")
ALL_CARDS = sorted(set(deck_for(UnoOptions(deck=112))), key=lambda c: c.code)

pytestmark = pytest.mark.clause(
    "UNO-WIN-GAME-500", "UNO-DRAW-PILE-REBUILD", "UNO-SETUP-PLAYERS", "UNO-VARIANT-STACKING"
)


def _actions(players: int) -> st.SearchStrategy[Action]:
    names = st.sampled_from(NAMES[:players])
    colours = st.sampled_from(list(Colour))
    cards = st.sampled_from(ALL_CARDS)
    return st.one_of(
        st.builds(Play, player=names, card=cards, colour=st.none() | colours, uno=st.booleans()),
        st.builds(Draw, player=names),
        st.builds(Pass, player=names),
        st.builds(Challenge, player=names),
        st.builds(NameColour, player=names, colour=colours),
        st.builds(CallUno, player=names),
        st.builds(Catch, player=names, target=names),
    )


def _keen(state: UnoState, chooser: random.Random) -> Action:
    """A random player who mostly lays a card when he can, so that hands end."""
    legal = GAME.legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play | NameColour)]
    if plays and chooser.random() < 0.85:
        return chooser.choice(plays)
    return chooser.choice(legal)


class UnoGames(RuleBasedStateMachine):
    """Random legal play and random attempts at anything, over whole games."""

    steps_taken: ClassVar[int] = 0
    games_finished: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        self.state: UnoState | None = None
        self.paths = PathsOnEachState(GAME)

    @initialize(
        players=st.integers(min_value=2, max_value=10),
        options=whole_options("uno"),
        seed=st.integers(min_value=0, max_value=2**20),
    )
    def deal(self, players: int, options: UnoOptions, seed: int) -> None:
        self.state = GAME.deal(options, NAMES[:players], seed)

    def _advance(self, action: Action) -> None:
        assert self.state is not None
        outcome = GAME.apply(self.state, action)
        for event in outcome.events:
            assert event.clauses and set(event.clauses) <= CLAUSE_IDS, event
        assert GAME.problems(outcome.state) == (), (action, GAME.problems(outcome.state))
        self.state = outcome.state
        UnoGames.steps_taken += 1
        if GAME.is_over(self.state):
            UnoGames.games_finished += 1

    def _playing(self) -> bool:
        return self.state is not None and not GAME.is_over(self.state)

    @precondition(_playing)
    @rule(pick=st.integers(min_value=0, max_value=10**6))
    def legal_move(self, pick: int) -> None:
        assert self.state is not None
        legal = GAME.legal_actions(self.state)
        action = legal[pick % len(legal)]
        GAME.check(self.state, action)  # apply trusts its own listing; check judges afresh
        self._advance(action)

    @precondition(_playing)
    @rule(data=st.data())
    def attempt(self, data: st.DataObject) -> None:
        assert self.state is not None
        action = data.draw(_actions(len(self.state.players)))
        legal = action in GAME.legal_actions(self.state)
        refusal: IllegalActionError | None = None
        try:
            GAME.check(self.state, action)
        except IllegalActionError as error:
            refusal = error
        if refusal is not None:
            assert not legal, (action, refusal)
            assert refusal.clauses and set(refusal.clauses) <= CLAUSE_IDS
            return
        assert legal, action
        self._advance(action)

    @precondition(_playing)
    @rule(seed=st.integers(min_value=0, max_value=2**20))
    def burst(self, seed: int) -> None:
        chooser = random.Random(seed)
        for _ in range(400):
            if not self._playing():
                break
            assert self.state is not None
            action = _keen(self.state, chooser)
            GAME.check(self.state, action)  # apply trusts its own listing; check judges afresh
            self._advance(action)

    @precondition(lambda self: self.state is not None and GAME.is_over(self.state))
    @rule(seed=st.integers(min_value=0, max_value=2**20))
    def next_game(self, seed: int) -> None:
        assert self.state is not None
        self.state = GAME.deal(self.state.options, self.state.players, seed)

    @invariant()
    def paths_agree(self) -> None:
        """``legal_actions`` and ``check`` agree on the current state (tests/action_space.py)."""
        self.paths(self.state)

    @invariant()
    def sound(self) -> None:
        if self.state is None:
            return
        state = self.state
        assert GAME.problems(state) == ()
        assert state.direction in (Direction.LEFT, Direction.RIGHT)
        assert bool(GAME.legal_actions(state)) != GAME.is_over(state)
        if state.colour is not None:
            assert state.colour in Colour
        if state.phase is not Phase.GAME_OVER:
            assert max(state.scores) < state.options.target_score


def test_whole_games_keep_every_invariant() -> None:
    UnoGames.steps_taken = UnoGames.games_finished = 0
    run_state_machine_as_test(
        UnoGames,
        settings=settings(
            machine_settings(30, 30),
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    assert UnoGames.steps_taken > 1000
    assert UnoGames.games_finished > 0


def _all_cards_held() -> UnoState:
    deck = list(deck_for(UnoOptions()))
    deck.remove(UnoCard.parse("R3"))
    hands = {
        "Anna": " ".join(c.code for c in deck if c.colour in (Colour.BLUE, Colour.GREEN)),
        "Bo": " ".join(c.code for c in deck if c.colour in (None, Colour.RED, Colour.YELLOW)),
    }
    return position(hands, discard="R3", turn="Anna", draw_pile=[])


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-BY-CHOICE")
def test_the_default_rules_admit_a_never_ending_game() -> None:
    """Both piles used up and nobody willing to play: each draws nothing and passes, forever.

    The position repeats exactly, so the game can go on for ever under the default readings
    (``draw_when_able = may-draw``, ``empty_piles = draw-what-there-is``). Random play still
    ends, and ``regelverk play`` stops after a bound and says so.
    """
    start = _all_cards_held()
    state = GAME.apply(start, Draw(player="Anna")).state
    state = GAME.apply(state, Draw(player="Bo")).state
    assert state == start
    for changes in ({"draw_when_able": "must-play"}, {"empty_piles": "hand-void"}):
        other = GAME.position_from_data(GAME.position_to_data(start), _with(changes))
        try:
            after = GAME.apply(other, Draw(player="Anna")).state
        except IllegalActionError:
            continue
        assert after != other


def _with(changes: dict[str, Any]) -> UnoOptions:
    from regelverk.engine import with_options

    return with_options(UnoOptions(), changes)
