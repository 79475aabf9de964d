"""The register's own situations for vvv8's calls, mistakes and penalties at the table, each
under the new reading and under the default (group "penalties"). Every attempt is ruled by
``GAME.attempt``; every state reached keeps the invariants and round-trips through its data."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import Card, Suit
from regelverk.engine import OptionError, Ruling, with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.state import Play, State

PLAYERS = ["Ann", "Bo", "Cy"]
STOCK = ["2S", "3S", "4S", "5S", "6S", "10S", "JS", "QS", "9D"]
"""The talon's top cards, top first: the first penalty is always 2♠ 3♠ 4♠."""


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data: dict[str, Any] = {"players": PLAYERS, "stock": STOCK, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def rule(state: State, **action: Any) -> Ruling[State]:
    ruling = GAME.attempt(state, GAME.action_from_data(action, state))
    after = ruling.state
    assert GAME.problems(after) == ()
    assert GAME.position_from_data(GAME.position_to_data(after), after.options) == after
    return ruling


def hand(state: State, seat: int) -> list[str]:
    return [c.code for c in state.hands[seat]]


def locked(state: State, seat: int) -> list[str]:
    return [c.code for p in state.penalties[seat] for c in p.cards]


def pile(state: State) -> list[str]:
    return [c.code for c in state.pile]


ANN, BO, CY = 0, 1, 2


# --- V8-AMB-WRONG-CARD-TAKE-BACK ------------------------------------------------------------


@pytest.mark.clause("V8-PEN-WRONG-CARD-TAKE-BACK", "V8-PEN-LEX-LARS", "V8-PEN-WRONG-CARD-THREE")
def test_wrong_cards_may_be_left_on_the_pile() -> None:
    # Ann, who called utgång, tries to go out on 7♥ with 9♠ then 9♥ (Lex Lars)
    table: dict[str, Any] = {
        "hands": {"Ann": ["9S", "9H"], "Bo": ["9C", "KD"], "Cy": ["3C", "KC"]},
        "pile": ["7H"],
        "calls": ["Ann"],
    }
    back = rule(position(**table), action="play", cards=["9S", "9H"], leave=True)
    assert not back.allowed and "V8-PEN-LEX-LARS" in back.clauses
    assert hand(back.state, ANN) == ["9S", "9H"] and locked(back.state, ANN) == ["2S", "3S", "4S"]
    assert pile(back.state) == ["7H"] and back.state.turn == ANN
    again = rule(back.state, action="play", cards=["9H", "9S"])
    assert again.allowed and again.state.winner is None  # the penalty cards keep him in

    left = rule(
        position({"wrong_card_take_back": "may-leave"}, **table),
        action="play",
        cards=["9S", "9H"],
        leave=True,
    )
    assert not left.allowed and "V8-PEN-WRONG-CARD-TAKE-BACK" in left.clauses
    assert pile(left.state) == ["7H", "9S", "9H"]
    assert left.state.turn == BO and ANN not in left.state.calls
    assert hand(left.state, ANN) == ["2S", "3S", "4S"] and locked(left.state, ANN) == []
    # Bo plays on the top card, 9♥
    assert rule(left.state, action="play", player="Bo", cards=["9C"]).allowed
    assert not rule(left.state, action="play", player="Bo", cards=["KD"]).allowed
    taken = rule(
        position({"wrong_card_take_back": "may-leave"}, **table), action="play", cards=["9S", "9H"]
    )
    assert hand(taken.state, ANN) == ["9S", "9H"]  # without 'leave' he takes them back


# --- V8-AMB-FALSE-CALL-DETECTION -----------------------------------------------------------


FALSE_CALL: dict[str, Any] = {
    "hands": {"Ann": ["5C", "5H", "6H"], "Bo": ["2C", "KD"], "Cy": ["3C", "KC"]},
    "pile": ["5D"],
}


@pytest.mark.clause(
    "V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT", "V8-CALL-ONLY-WITH-REAL-CHANCE"
)
def test_a_false_call_is_punished_as_made_or_when_caught() -> None:
    # Ann calls utgång keeping 5♥ and 6♥: no real chance
    at_call = rule(position(**FALSE_CALL), action="play", cards=["5C"], call=True)
    assert "V8-PEN-FALSE-CALL-CAUGHT" in at_call.clauses
    assert hand(at_call.state, ANN) == ["5H", "6H", "2S", "3S", "4S"]
    assert at_call.state.false_calls == frozenset()

    options = {"false_call_detection": "when-revealed"}
    noted = rule(position(options, **FALSE_CALL), action="play", cards=["5C"], call=True)
    assert not noted.allowed and noted.state.turn == BO
    assert hand(noted.state, ANN) == ["5H", "6H"] and locked(noted.state, ANN) == []
    assert noted.state.false_calls == {ANN} and ANN not in noted.state.calls
    caught = rule(noted.state, action="reveal-call", player="Bo", caller="Ann")
    assert caught.allowed and "V8-PEN-FALSE-CALL-CAUGHT" in caught.clauses
    assert locked(caught.state, ANN) == ["2S", "3S", "4S"] and caught.state.false_calls == set()
    owned = rule(noted.state, action="reveal-call", player="Ann", caller="Ann")
    assert "V8-PEN-FALSE-CALL-SELF-REPORT" in owned.clauses and len(locked(owned.state, ANN)) == 3
    twice = rule(caught.state, action="reveal-call", player="Cy", caller="Ann")
    assert not twice.allowed and twice.state is caught.state
    assert not rule(at_call.state, action="reveal-call", player="Bo", caller="Ann").allowed

    # nobody notices: at his next turn Ann draws three and passes, and is never penalised
    state = noted.state
    for seat in (BO, CY):
        for _ in range(3):
            state = rule(state, action="draw", player=PLAYERS[seat]).state
        state = rule(state, action="pass", player=PLAYERS[seat]).state
    assert state.turn == ANN and state.false_calls == {ANN}
    for _ in range(3):
        state = rule(state, action="draw").state
    end = rule(state, action="pass")
    assert end.allowed and end.state.false_calls == frozenset()
    assert "false-call-lapses" in [e.kind for e in end.events]
    assert locked(end.state, ANN) == [] and len(end.state.hands[ANN]) == 5
    assert not rule(end.state, action="reveal-call", player="Bo", caller="Ann").allowed


# --- V8-AMB-OUT-OF-TURN-CARD ----------------------------------------------------------------


@pytest.mark.clause("V8-PEN-OUT-OF-TURN", "V8-PEN-OUT-OF-TURN-CARD-RETURNED")
def test_a_card_out_of_turn_returns_or_stands() -> None:
    # during Ann's turn, with 7♠ on top, Cy plays 7♥
    table: dict[str, Any] = {
        "hands": {"Ann": ["9C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]},
        "pile": ["7S"],
    }
    back = rule(position(**table), action="play", player="Cy", cards=["7H"])
    assert "V8-PEN-OUT-OF-TURN-CARD-RETURNED" in back.clauses
    assert hand(back.state, CY) == ["7H", "KC"] and len(locked(back.state, CY)) == 3
    assert pile(back.state) == ["7S"] and back.state.turn == ANN

    stands = rule(
        position({"out_of_turn_card": "stands"}, **table), action="play", player="Cy", cards=["7H"]
    )
    assert not stands.allowed and "V8-PEN-OUT-OF-TURN" in stands.clauses
    assert "V8-PEN-OUT-OF-TURN-CARD-RETURNED" not in stands.clauses
    assert hand(stands.state, CY) == ["KC"] and len(locked(stands.state, CY)) == 3
    assert pile(stands.state) == ["7S", "7H"] and stands.state.turn == ANN
    assert rule(stands.state, action="play", cards=["5H"]).allowed  # Ann plays on 7♥
    assert not rule(back.state, action="play", cards=["5H"]).allowed


# --- V8-AMB-FAILED-OUT-CARD -----------------------------------------------------------------


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT", "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE")
def test_the_eight_of_a_failed_going_out_stays_or_returns() -> None:
    # Ann, who called utgång, holds only 8♣; the top card is 4♣
    table: dict[str, Any] = {
        "hands": {"Ann": ["8C"], "Bo": ["2C", "KD"], "Cy": ["3C", "KC"]},
        "pile": ["4C"],
        "calls": ["Ann"],
    }
    stays = rule(position(**table), action="play", cards=["8C"], suit="H")
    assert "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT" in stays.clauses
    assert pile(stays.state) == ["4C", "8C"] and stays.state.named_suit is not None
    assert stays.state.turn == BO and hand(stays.state, ANN) == ["2S", "3S", "4S"]

    returns = rule(
        position({"failed_out_card": "card-returns"}, **table),
        action="play",
        cards=["8C"],
        suit="H",
    )
    assert not returns.allowed and "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE" in returns.clauses
    assert pile(returns.state) == ["4C"] and returns.state.turn == ANN
    assert hand(returns.state, ANN) == ["8C"] and locked(returns.state, ANN) == []
    assert [p.owed for p in returns.state.penalties[ANN]] == [3]  # taken as he hands on
    state = returns.state
    for _ in range(3):
        state = rule(state, action="draw").state
    handed = rule(state, action="pass")
    assert handed.allowed and handed.state.turn == BO
    assert len(handed.state.hands[ANN]) == 7  # 8♣, three drawn, three penalty cards


# --- V8-AMB-VETO-REPEATED -------------------------------------------------------------------


@pytest.mark.clause("V8-PEN-VETO-RIGHT", "V8-PEN-COMMENT-THREE", "V8-PEN-VETO-CONDITION")
def test_a_veto_may_be_limited_to_once_per_offender_and_turn() -> None:
    # Bo has called utgång; before his turn Cy makes a forbidden remark, Bo vetoes, Cy repeats
    table: dict[str, Any] = {
        "hands": {"Ann": ["7C", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]},
        "pile": ["7S"],
        "calls": ["Bo"],
    }
    for options, vetoable in (({}, True), ({"veto_limit": "once-per-offender-turn"}, False)):
        first = rule(position(options, **table), action="remark", player="Cy", kind="other-hand")
        assert first.state.vetoable is not None
        vetoed = rule(first.state, action="veto", player="Bo")
        assert vetoed.allowed and locked(vetoed.state, CY) == []
        second = rule(vetoed.state, action="remark", player="Cy", kind="other-hand")
        assert (second.state.vetoable is not None) is vetoable
        assert rule(second.state, action="veto", player="Bo").allowed is vetoable
        assert locked(second.state, CY) == ["2S", "3S", "4S"]
    # the limit counts per turn: once the turn has passed, a veto is open again
    limited = position({"veto_limit": "once-per-offender-turn"}, vetoed=["Cy"], **table)
    moved = rule(limited, action="play", cards=["7C"])
    assert moved.allowed and moved.state.turn == BO and moved.state.vetoed == frozenset()
    later = rule(moved.state, action="remark", player="Cy", kind="other-hand")
    assert later.state.vetoable is not None


# --- V8-AMB-CALL-WORDS ----------------------------------------------------------------------


@pytest.mark.clause("V8-CALL-ALTERNATIVE-WORDS", "V8-CALL-REQUIRED-TO-WIN")
def test_which_words_count_as_the_call() -> None:
    # Ann, before releasing her last card of the turn, says 'last card!' instead of utgång
    table: dict[str, Any] = {
        "hands": {"Ann": ["5H", "5C"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]},
        "pile": ["5D"],
    }

    listed = rule(position(**table), action="play", cards=["5H"], call="last card!")
    assert listed.allowed and listed.state.calls == frozenset()
    assert "V8-CALL-ALTERNATIVE-WORDS" in listed.clauses
    # next turn, with no call standing, Ann does not win by laying 5♣
    out = position(**{**table, "hands": {"Ann": ["5C"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]}})
    assert rule(out, action="play", cards=["5C"]).state.winner is None

    for options in ({"accepted_calls": "any-clear-warning"}, {"agreed_calls": ("Last card",)}):
        heard = rule(position(options, **table), action="play", cards=["5H"], call="last card!")
        assert heard.allowed and heard.state.calls == {ANN}
        after = {**table, "hands": {"Ann": ["5C"], "Bo": ["2C"], "Cy": ["7H"]}, "calls": ["Ann"]}
        won = rule(position(options, **after), action="play", cards=["5C"])
        assert won.state.winner == ANN
    assert rule(position(**table), action="play", cards=["5H"], call="varning").state.calls == {ANN}
    with pytest.raises(OptionError):
        with_options(VVV8, {"agreed_calls": ("",)})


# --- V8-AMB-EIGHT-IN-HAND-WHEN --------------------------------------------------------------


@pytest.mark.clause("V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-TIMING", "V8-CALL-CHANCE-TEST")
def test_an_eight_being_played_bars_the_call_only_at_call() -> None:
    # the top card is 9♠; Ann holds 8♠ and 5♥, plays 8♠ naming hearts, and calls
    table: dict[str, Any] = {
        "hands": {"Ann": ["8S", "5H"], "Bo": ["2C", "KD"], "Cy": ["7H", "KC"]},
        "pile": ["9S"],
    }
    called = Play(player=ANN, cards=(Card.parse("8S"),), suit=Suit.HEARTS, call=True)
    remaining = rule(position(**table), action="play", cards=["8S"], suit="H", call=True)
    assert remaining.allowed and remaining.state.calls == {ANN}
    assert called in GAME.legal_actions(position(**table))

    strict = position({"eight_in_hand_when": "at-call"}, **table)
    assert called not in GAME.legal_actions(strict)
    at_call = rule(strict, action="play", cards=["8S"], suit="H", call=True)
    assert not at_call.allowed and "V8-CALL-NEVER-WITH-EIGHT" in at_call.clauses
    assert "V8-PEN-FALSE-CALL-CAUGHT" in at_call.clauses
    assert at_call.state.calls == frozenset() and at_call.state.turn == BO
    assert hand(at_call.state, ANN) == ["5H", "2S", "3S", "4S"]


# --- V8-AMB-CARD-COUNT-SCOPE ----------------------------------------------------------------


@pytest.mark.clause("V8-CALL-CARD-COUNT-ON-DEMAND", "V8-CALL-CARD-COUNT-ALL-HELD")
def test_a_callers_card_count_on_demand() -> None:
    # Bo called utgång holding one card and three face-down penalty cards; Cy asks
    table: dict[str, Any] = {
        "hands": {"Ann": ["9C", "5H"], "Bo": ["5C"], "Cy": ["7H", "KC"]},
        "penalties": {"Bo": ["2D", "3D", "4D"]},
        "pile": ["7S"],
        "calls": ["Bo"],
    }
    for options, told in (({}, "4 in all"), ({"card_count_scope": "hand-only"}, "1 in hand")):
        state = position(options, **table)
        asked = rule(state, action="ask-count", player="Cy", caller="Bo")
        assert asked.allowed and asked.state == state
        assert told in asked.message and "V8-CALL-CARD-COUNT-ON-DEMAND" in asked.clauses
        assert not rule(state, action="ask-count", player="Bo", caller="Ann").allowed


# --- V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS ---------------------------------------------------


@pytest.mark.clause(
    "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
    "V8-PEN-CARDS-COUNT-AS-HELD",
    "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
)
def test_the_last_hand_card_with_penalty_cards_locked() -> None:
    # Bo has only 8♥ in hand and three locked penalty cards; the top card is 3♣
    table: dict[str, Any] = {
        "hands": {"Ann": ["9C", "5H"], "Bo": ["8H"], "Cy": ["7H", "KC"]},
        "penalties": {"Bo": ["2D", "3D", "4D"]},
        "pile": ["3C"],
        "turn": "Bo",
    }
    allowed = rule(position(**table), action="play", cards=["8H"], suit="S")
    assert allowed.allowed and allowed.state.winner is None and allowed.state.turn == CY
    assert hand(allowed.state, BO) == ["2D", "3D", "4D"]

    options = {"last_hand_card_locked": "treated-as-going-out"}
    strict = position(options, **table)
    assert not any(isinstance(a, Play) for a in GAME.legal_actions(strict))
    failed = rule(strict, action="play", cards=["8H"], suit="S")
    assert not failed.allowed and "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS" in failed.clauses
    assert pile(failed.state) == ["3C", "8H"] and failed.state.turn == CY
    assert hand(failed.state, BO) == ["2D", "3D", "4D", "2S", "3S", "4S"]
    plain = position(options, **{**table, "hands": {**table["hands"], "Bo": ["3H"]}})
    assert rule(plain, action="play", cards=["3H"]).allowed  # only an ace or an eight is barred


def test_the_new_actions_round_trip_through_data() -> None:
    state = position(**FALSE_CALL)
    for data in (
        {"action": "reveal-call", "player": "Bo", "caller": "Ann"},
        {"action": "ask-count", "player": "Cy", "caller": "Ann"},
        {"action": "play", "player": 0, "cards": ["5C"], "leave": True},
        {"action": "play", "player": 0, "cards": ["5C"], "call": "sista kortet"},
    ):
        action = GAME.action_from_data(data, state)
        assert GAME.action_from_data(GAME.action_to_data(action), state) == action
    plain = GAME.action_from_data({"action": "pass", "call": "Utgång"}, state)
    assert plain == GAME.action_from_data({"action": "pass", "call": True}, state)
