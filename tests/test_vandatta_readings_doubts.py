"""The register's own situations for three doubts of a second reading of vvv8: how many cards of
a rank a multi-card play takes (V8-AMB-SAME-RANK-ALL), how late a false utgång may be taken
back (V8-AMB-SAME-BREATH-WINDOW) and stepping away during one's own turn
(V8-AMB-STEP-AWAY-OWN-TURN), each under the new reading and under the default. Every attempt is
ruled by ``GAME.attempt``; every state reached keeps the invariants and round-trips through its
data."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, Ruling, with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.state import Play, State

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
STOCK = ["2S", "3S", "4S", "5S", "6S", "10S", "JS", "QS", "9D"]
"""The talon's top cards, top first: the first penalty is always 2♠ 3♠ 4♠."""

ANN, BO, CY, DI = 0, 1, 2, 3


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data: dict[str, Any] = {"players": PLAYERS, "stock": STOCK, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def rule(state: State, *, sets: int = 1, **action: Any) -> Ruling[State]:
    """The ruling on an attempt; the state reached round-trips through its data, also when it
    holds ``sets`` sets of face-down cards for a seat."""
    ruling = GAME.attempt(state, GAME.action_from_data(action, state))
    after = ruling.state
    assert GAME.problems(after) == ()
    again = GAME.position_from_data(GAME.position_to_data(after), after.options)
    assert again == after
    assert max(len(p) for p in after.penalties) >= sets or sets == 1
    return ruling


def hand(state: State, seat: int) -> list[str]:
    return [c.code for c in state.hands[seat]]


def pile(state: State) -> list[str]:
    return [c.code for c in state.pile]


# --- V8-AMB-SAME-RANK-ALL -------------------------------------------------------------------

FOURS: dict[str, Any] = {
    "turn": "Bo",
    "pile": ["9H"],
    "hands": {"Ann": ["2C", "3C"], "Bo": ["4H", "4S", "4C", "KD"], "Cy": ["5C"], "Di": ["6C"]},
}


@pytest.mark.clause("V8-PLAY-SUIT-THEN-SAME-RANK", "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER")
def test_a_same_rank_play_may_keep_cards_of_the_rank_back() -> None:
    played = rule(position(**FOURS), action="play", cards=["4H", "4S"])
    assert played.allowed
    assert hand(played.state, BO) == ["4C", "KD"] and pile(played.state) == ["9H", "4H", "4S"]
    assert played.state.turn == CY


@pytest.mark.clause("V8-PLAY-SUIT-THEN-SAME-RANK", "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER")
def test_laying_more_than_one_card_of_a_rank_means_laying_them_all() -> None:
    state = position({"same_rank_group": "all-or-one"}, **FOURS)
    for call in (False, True):
        kept = rule(state, action="play", cards=["4H", "4S"], call=call)
        assert not kept.allowed and kept.state == state  # refused, no penalty: each card fits
        assert "V8-PLAY-SUIT-THEN-SAME-RANK" in kept.clauses
    with pytest.raises(IllegalActionError, match="keeps 1 of that rank back"):
        GAME.apply(state, Play(player=BO, cards=(state.hands[BO][0], state.hands[BO][1])))
    plays = [a.cards for a in GAME.legal_actions(state) if isinstance(a, Play)]
    assert all(len(cards) in (1, 3) for cards in plays)
    alone = rule(state, action="play", cards=["4H"])
    assert alone.allowed and hand(alone.state, BO) == ["4S", "4C", "KD"]
    every = rule(state, action="play", cards=["4H", "4C", "4S"])
    assert every.allowed and hand(every.state, BO) == ["KD"]
    assert pile(every.state)[-1] == "4S"


# --- V8-AMB-SAME-BREATH-WINDOW --------------------------------------------------------------

BREATH: dict[str, Any] = {
    "turn": "Bo",
    "pile": ["9C"],
    "hands": {"Ann": ["2C", "3C"], "Bo": ["9D", "5H", "6H"], "Cy": ["5C"], "Di": ["6C"]},
}


@pytest.mark.clause("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING")
def test_a_call_taken_back_with_the_play_costs_nothing() -> None:
    ruling = rule(position(**BREATH), action="play", cards=["9D"], call=True, withdrawn=True)
    assert ruling.allowed and "V8-PEN-FALSE-CALL-SAME-BREATH" in ruling.clauses
    assert hand(ruling.state, BO) == ["5H", "6H"] and not ruling.state.penalties[BO]
    assert ruling.state.turn == CY and BO not in ruling.state.calls


@pytest.mark.clause(
    "V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT", "V8-CALL-TIMING"
)
def test_a_call_taken_back_only_as_the_turn_passes_is_owned_up_to() -> None:
    options = {"same_breath_window": "before-turn-passes"}
    state = position(options, **BREATH)
    late = rule(state, action="play", cards=["9D"], call=True, withdrawn=True)
    assert not late.allowed
    assert {"V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT"} <= set(late.clauses)
    assert hand(late.state, BO) == ["5H", "6H", "2S", "3S", "4S"]  # usable once his turn is over
    assert pile(late.state) == ["9C", "9D"] and late.state.turn == CY
    assert BO not in late.state.calls
    with pytest.raises(IllegalActionError, match="too late"):
        GAME.apply(
            state,
            GAME.action_from_data(
                {"action": "play", "cards": ["9D"], "call": True, "withdrawn": True}, state
            ),
        )
    # so owned up, it costs three cards even where a false call is punished only when revealed
    revealed = position({**options, "false_call_detection": "when-revealed"}, **BREATH)
    owned = rule(revealed, action="play", cards=["9D"], call=True, withdrawn=True)
    assert len(owned.state.hands[BO]) == 5 and not owned.state.false_calls
    # a call that had a real chance is taken back at no cost
    sound = position(options, **{**BREATH, "hands": {**BREATH["hands"], "Bo": ["9D", "5H", "5S"]}})
    free = rule(sound, action="play", cards=["9D"], call=True, withdrawn=True)
    assert free.allowed and hand(free.state, BO) == ["5H", "5S"]
    assert not free.state.penalties[BO] and BO not in free.state.calls


# --- V8-AMB-STEP-AWAY-OWN-TURN --------------------------------------------------------------

PHONE: dict[str, Any] = {
    "turn": "Ann",
    "pile": ["7H"],
    "hands": {"Ann": ["2C", "3D"], "Bo": ["9C", "KC"], "Cy": ["5C"], "Di": ["6C"]},
}


@pytest.mark.clause("V8-PRESENCE-ABSENT-TURN-SKIPPED")
def test_the_spelforare_finishes_his_turn_before_stepping_away() -> None:
    drawn = rule(position(**PHONE), action="draw")
    assert drawn.allowed and hand(drawn.state, ANN) == ["2C", "3D", "2S"]
    refused = rule(drawn.state, action="step-away", player="Ann")
    assert not refused.allowed and refused.state == drawn.state
    assert "V8-PRESENCE-ABSENT-TURN-SKIPPED" in refused.clauses


@pytest.mark.clause(
    "V8-PRESENCE-ABSENT-TURN-SKIPPED",
    "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
    "V8-CALL-FORFEITED-IF-ABSENT",
)
def test_stepping_away_in_ones_own_turn_ends_it() -> None:
    options = {"step_away_own_turn": "ends-turn"}
    drawn = rule(position(options, **PHONE), action="draw").state
    away = rule(drawn, action="step-away", player="Ann")
    assert away.allowed and "V8-PRESENCE-ABSENT-TURN-SKIPPED" in away.clauses
    assert away.state.turn == BO and away.state.away == {ANN}
    assert hand(away.state, ANN) == ["2C", "3D", "2S"] and away.state.draws == 0
    # a standing utgång is forfeited with the turn
    called = rule(position(options, calls=["Ann"], **PHONE), action="step-away", player="Ann")
    assert called.allowed and ANN not in called.state.calls
    assert "V8-CALL-FORFEITED-IF-ABSENT" in called.clauses
    # back at the table, he plays again when the turn comes round
    back = rule(away.state, action="back", player="Ann")
    assert back.allowed and back.state.away == frozenset() and back.state.turn == BO


# --- V8-AMB-OVERDRAW-COULD-PLAY -------------------------------------------------------------

KEEPER: dict[str, Any] = {
    "turn": "Bo",
    "pile": ["7H"],
    "stock": ["2S", "KD", "4C", "JS", "3C", "5D", "6D", "9S"],
    "hands": {"Ann": ["2C", "3D"], "Bo": ["7C", "10D"], "Cy": ["5C"], "Di": ["6C"]},
}


def _three_draws(state: State) -> State:
    for _ in range(3):
        drawn = rule(state, action="draw")
        assert drawn.allowed
        state = drawn.state
    return state


@pytest.mark.clause("V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-DRAW-NOT-OBLIGED-TO-PLAY")
def test_a_card_too_many_is_kept_locked_even_by_one_who_could_play() -> None:
    state = _three_draws(position(**KEEPER))
    over = rule(state, action="draw")
    assert not over.allowed and "V8-PEN-OVERDRAW-KEEP-LOCKED" in over.clauses
    assert [c.code for p in over.state.penalties[BO] for c in p.cards] == ["JS"]
    assert hand(over.state, BO) == ["7C", "10D", "2S", "KD", "4C"]
    laid = rule(over.state, action="play", cards=["7C"])
    assert laid.allowed and laid.state.turn == CY


@pytest.mark.clause(
    "V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-DRAW-NOT-OBLIGED-TO-PLAY", "V8-PEN-STANDARD-THREE-CARDS"
)
def test_a_card_too_many_by_one_who_could_play_is_an_ordinary_mistake() -> None:
    options = {"overdraw_could_play": "standard-penalty"}
    state = _three_draws(position(options, **KEEPER))
    over = rule(state, action="draw", sets=2)  # the locked card and the penalty cards
    assert not over.allowed and "V8-PEN-STANDARD-THREE-CARDS" in over.clauses
    locked = [c.code for p in over.state.penalties[BO] for c in p.cards]
    assert locked == ["JS", "3C", "5D", "6D"]
    assert hand(over.state, BO) == ["7C", "10D", "2S", "KD", "4C"] and over.state.turn == BO
    # with nothing to lay, the mild rule alone applies
    stuck = {**KEEPER, "hands": {**KEEPER["hands"], "Bo": ["9C", "10D"]}}
    mild = rule(_three_draws(position(options, **stuck)), action="draw")
    assert [c.code for p in mild.state.penalties[BO] for c in p.cards] == ["JS"]
