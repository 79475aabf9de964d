"""Scenario tests for 000 (vvv8) §3 "Brott och straff" and the presence rules: every attempt is
ruled by ``GAME.attempt``, one situation per clause."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, Ruling, with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.state import ExtraCard, State

FOUR = ["Ann", "Bo", "Cy", "Di"]
STOCK = ["2S", "3S", "4S", "5S", "6S", "7S", "10S"]


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data: dict[str, Any] = {"players": FOUR[:3], "stock": STOCK, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def rule(state: State, **action: Any) -> Ruling[State]:
    ruling = GAME.attempt(state, GAME.action_from_data(action, state))
    assert GAME.problems(ruling.state) == ()
    return ruling


def locked(state: State, seat: int) -> list[str]:
    return [c.code for p in state.penalties[seat] for c in p.cards]


def hand(state: State, seat: int) -> list[str]:
    return [c.code for c in state.hands[seat]]


HANDS = {"Ann": ["9C", "5H", "KD"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"]}


@pytest.mark.clause(
    "V8-PEN-STANDARD-THREE-CARDS",
    "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
    "V8-PEN-WRONG-CARD-OFFENCE",
    "V8-PEN-WRONG-CARD-THREE",
    "V8-PEN-WRONG-CARD-TAKE-BACK",
    "V8-PEN-FOR-MISTAKES-ONLY",
)
def test_V8_PEN_WRONG_CARD_THREE() -> None:
    state = position(hands=HANDS, pile=["KH"])
    ruling = rule(state, action="play", cards=["9C"])
    assert not ruling.allowed
    assert {"V8-PEN-WRONG-CARD-OFFENCE", "V8-PEN-WRONG-CARD-TAKE-BACK"} <= set(ruling.clauses)
    assert locked(ruling.state, 0) == ["2S", "3S", "4S"]
    assert hand(ruling.state, 0) == ["9C", "5H", "KD"]
    assert ruling.state.turn == 0
    again = rule(ruling.state, action="play", cards=["5H"])
    assert again.allowed
    assert hand(again.state, 0) == ["9C", "KD", "2S", "3S", "4S"]


@pytest.mark.clause("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE", "V8-PEN-CARDS-COUNT-AS-HELD")
def test_V8_PEN_CARDS_LOCKED_UNTIL_TURN_DONE() -> None:
    state = position(
        hands={"Ann": ["5H"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["9H", "9D", "KH"], calls=["Ann"]
    )
    wrong = rule(state, action="play", cards=["5H", "5H"])  # not held: simply refused
    assert wrong.state is state
    ruling = rule(state, action="remark", player="Bo", kind="other-hand")
    assert locked(ruling.state, 1) == ["2S", "3S", "4S"]
    # Ann may not go out while she holds locked cards of her own
    own = rule(state, action="look-back", player="Ann", cards=2, latest_play=1)
    assert locked(own.state, 0)
    out = rule(own.state, action="play", cards=["5H"])
    assert out.state.winner is None and out.state.phase.value == "play"


@pytest.mark.clause("V8-PEN-LEX-LARS", "V8-PEN-WRONG-CARD-EACH-FITS-BELOW")
def test_V8_PEN_LEX_LARS() -> None:
    state = position(
        hands={"Ann": ["5H", "5C"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["KC"], calls=["Ann"]
    )
    ruling = rule(state, action="play", cards=["5H", "5C"])
    assert "V8-PEN-LEX-LARS" in ruling.clauses
    assert hand(ruling.state, 0) == ["5H", "5C"] and len(locked(ruling.state, 0)) == 3
    assert rule(state, action="play", cards=["5C", "5H"]).state.winner == 0


@pytest.mark.clause("V8-PEN-OUT-OF-TURN", "V8-PEN-OUT-OF-TURN-CARD-RETURNED")
def test_V8_PEN_OUT_OF_TURN() -> None:
    state = position(hands=HANDS, pile=["KC"])
    ruling = rule(state, action="play", player="Bo", cards=["2C"])
    assert "V8-PEN-OUT-OF-TURN" in ruling.clauses
    assert hand(ruling.state, 1) == ["2C", "3C"] and len(locked(ruling.state, 1)) == 3
    assert ruling.state.pile == state.pile and ruling.state.turn == 0
    six = rule(
        position({"penalty_stacking": "per-offence"}, hands=HANDS, pile=["KH"]),
        action="play",
        player="Bo",
        cards=["2C"],
    )
    assert len(locked(six.state, 1)) == 6
    drew = rule(state, action="draw", player="Bo")  # no penalty for drawing: stopped
    assert drew.state == state and "V8-DRAW-OUT-OF-TURN-STOPPED" in drew.clauses


@pytest.mark.clause(
    "V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT", "V8-PEN-NEXT-ROUND-CALL-RISK"
)
def test_V8_PEN_FALSE_CALL_CAUGHT() -> None:
    state = position(hands={"Ann": ["5H", "6C", "9D"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"])
    ruling = rule(state, action="play", cards=["5H"], call=True)
    assert "V8-PEN-FALSE-CALL-CAUGHT" in ruling.clauses
    assert ruling.state.turn == 1 and 0 not in ruling.state.calls
    assert hand(ruling.state, 0) == ["6C", "9D", "2S", "3S", "4S"]


@pytest.mark.clause("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING")
def test_V8_PEN_FALSE_CALL_SAME_BREATH() -> None:
    state = position(hands={"Ann": ["5H", "6C", "9D"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"])
    ruling = rule(state, action="play", cards=["5H"], call=True, withdrawn=True)
    assert ruling.allowed and "V8-PEN-FALSE-CALL-SAME-BREATH" in ruling.clauses
    assert not ruling.state.penalties[0] and ruling.state.turn == 1


@pytest.mark.clause(
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE",
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL",
)
def test_V8_PEN_OUT_ON_EIGHT_OR_ACE_THREE() -> None:
    state = position(hands={"Ann": ["8D"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"], calls=["Ann"])
    ruling = rule(state, action="play", cards=["8D"], suit="S")
    assert "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE" in ruling.clauses
    assert ruling.state.winner is None and ruling.state.turn == 1
    assert hand(ruling.state, 0) == ["2S", "3S", "4S"] and 0 not in ruling.state.calls
    assert ruling.state.named_suit is not None


@pytest.mark.clause("V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS")
def test_V8_PEN_LAST_HAND_CARD_WITH_LOCKED_CARDS() -> None:
    """With penalty cards locked, the last hand card may be an ace: he is not out, the others
    draw for the ace, and he plays again on it (drawing, as he has no usable card)."""
    state = position(
        hands={"Ann": ["AD"], "Bo": ["2C"], "Cy": ["3C"]},
        pile=["5D"],
        penalties={"Ann": ["JC", "QC", "KC"]},
    )
    ruling = rule(state, action="play", cards=["AD"])
    assert ruling.allowed and ruling.state.winner is None
    assert ruling.state.turn == 0 and ruling.state.restart.value == "ace"
    assert locked(ruling.state, 0) == ["JC", "QC", "KC"] and not ruling.state.hands[0]
    assert hand(ruling.state, 1) == ["2C", "2S"] and hand(ruling.state, 2) == ["3C", "3S"]


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT")
def test_V8_PEN_OUT_ON_EIGHT_OR_ACE_THREE_are_taken_as_he_hands_the_turn_on() -> None:
    """000 §3 ¶8: the three extra cards are taken as the turn is handed on, so the others draw
    for the ace first: Bo and Cy get the talon's top two cards, Ann the next ones."""
    state = position(hands={"Ann": ["AD"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"], calls=["Ann"])
    ruling = rule(state, action="play", cards=["AD"])
    assert not ruling.allowed and "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE" in ruling.clauses
    after = ruling.state
    assert after.turn == 0 and after.restart.value == "ace" and not after.hands[0]
    assert hand(after, 1) == ["2C", "2S"] and hand(after, 2) == ["3C", "3S"]
    assert locked(after, 0) == [] and [p.owed for p in after.penalties[0]] == [3]
    drawn = rule(after, action="draw")  # 4S: no diamond and no ace on the A♦
    assert drawn.allowed and hand(drawn.state, 0) == ["4S"]
    state = drawn.state
    for _ in range(2):
        state = rule(state, action="draw").state
    with pytest.raises(IllegalActionError) as calling:
        GAME.check(state, GAME.action_from_data({"action": "pass", "call": True}, state))
    assert "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL" in calling.value.clauses
    handed = rule(state, action="pass")
    assert handed.allowed and handed.state.turn == 1 and handed.state.winner is None
    assert hand(handed.state, 0)[:5] == ["4S", "5S", "6S", "7S", "10S"]
    taken = [e for e in handed.events if "failed going out" in e.text]
    assert len(taken) == 1 and "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE" in taken[0].clauses
    assert len(handed.state.hands[0]) == 3 + 3 and not handed.state.penalties[0]
    assert 0 not in handed.state.calls


@pytest.mark.clause("V8-WIN-NO-CALL-NOT-OUT")
def test_V8_WIN_NO_CALL_NOT_OUT() -> None:
    state = position(hands={"Ann": ["5H"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["5D"])
    ruling = rule(state, action="play", cards=["5H"])
    assert "V8-WIN-NO-CALL-NOT-OUT" in ruling.clauses
    assert ruling.state.winner is None and hand(ruling.state, 0) == ["2S", "3S", "4S"]
    refused = rule(
        position({"out_without_call": "refused-no-penalty"}, **_fields(state)),
        action="play",
        cards=["5H"],
    )
    assert not refused.events


def _fields(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    return {k: v for k, v in data.items() if k in ("hands", "pile", "calls")}


@pytest.mark.clause(
    "V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-PEN-OVERDRAW-NO-OUT", "V8-PEN-OVERDRAW-MAY-CALL"
)
def test_V8_PEN_OVERDRAW_KEEP_LOCKED() -> None:
    state = position(hands={"Ann": ["5H", "5C"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["QD"], draws=3)
    ruling = rule(state, action="draw")
    assert "V8-PEN-OVERDRAW-KEEP-LOCKED" in ruling.clauses
    assert locked(ruling.state, 0) == ["2S"] and ruling.state.turn == 0
    call = rule(ruling.state, action="pass", call=True)
    assert call.allowed is False  # 5H 5C 2S is no real chance
    state = position(hands={"Ann": ["5H", "5C"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["QD"], draws=3)
    fine = rule(
        position(
            hands={"Ann": ["5H", "5C"], "Bo": ["2C"], "Cy": ["3C"]},
            pile=["QD"],
            draws=3,
            stock=["5D"],
        ),
        action="draw",
    )
    passed = rule(fine.state, action="pass", call=True)
    assert passed.allowed and 0 in passed.state.calls
    assert hand(passed.state, 0) == ["5H", "5C", "5D"]


@pytest.mark.clause(
    "V8-PEN-COMMENT-OFFENCE",
    "V8-PEN-COMMENT-THREE",
    "V8-PEN-COMMENT-TRUTH-IRRELEVANT",
    "V8-PEN-COMMENT-OBVIOUS-ALLOWED",
    "V8-PEN-COMMENT-AFTER-TURN-FORBIDDEN",
    "V8-PEN-COMMENT-HISTORY-FORBIDDEN",
    "V8-PEN-COMMENT-CARDS-GONE-FORBIDDEN",
)
def test_V8_PEN_COMMENT_THREE() -> None:
    state = position(hands=HANDS, pile=["QD"])
    assert rule(state, action="remark", player="Cy", kind="obvious").allowed
    assert rule(state, action="remark", player="Cy", kind="neutral").allowed
    for kind, clause in (
        ("other-hand", "V8-PEN-COMMENT-OFFENCE"),
        ("obvious-late", "V8-PEN-COMMENT-AFTER-TURN-FORBIDDEN"),
        ("history", "V8-PEN-COMMENT-HISTORY-FORBIDDEN"),
        ("cards-gone", "V8-PEN-COMMENT-CARDS-GONE-FORBIDDEN"),
    ):
        ruling = rule(state, action="remark", player="Cy", kind=kind, truthful=False)
        assert clause in ruling.clauses and "V8-PEN-COMMENT-TRUTH-IRRELEVANT" in ruling.clauses
        assert len(locked(ruling.state, 2)) == 3
    own = {"comment_own_hand": "others-only"}
    assert rule(position(own, hands=HANDS, pile=["QD"]), action="remark", kind="own-hand").allowed
    assert not rule(state, action="remark", kind="own-hand").allowed


@pytest.mark.clause(
    "V8-PEN-LOOK-BACK",
    "V8-PEN-LOOK-BACK-PREVIOUS-PLAYER-ALLOWED",
    "V8-PEN-LOOK-BACK-CHECK-BUNDLE-EXEMPT",
    "V8-PLAY-HIDDEN-BUNDLE-NO-OWN-PENALTY",
    "V8-PLAY-NO-HIDDEN-BUNDLE",
)
def test_V8_PEN_LOOK_BACK() -> None:
    state = position(hands=HANDS, pile=["2H", "9H", "9D", "9S"])
    assert rule(state, action="look-back", player="Bo", cards=3, latest_play=3).allowed
    too_far = rule(state, action="look-back", player="Bo", cards=3, latest_play=1)
    assert "V8-PEN-LOOK-BACK" in too_far.clauses and len(locked(too_far.state, 1)) == 3
    assert rule(state, action="look-back", cards=3, checking_bundle=True).allowed
    one = position({"look_back_depth": "one-card"}, hands=HANDS, pile=["2H", "9H", "9D", "9S"])
    assert not rule(one, action="look-back", cards=2, latest_play=3).allowed
    hidden = rule(state, action="hide-bundle")
    assert not hidden.allowed and hidden.state is state
    assert "V8-PLAY-HIDDEN-BUNDLE-NO-OWN-PENALTY" in hidden.clauses
    strict = position({"hidden_bundle_penalty": "standard-penalty"}, hands=HANDS, pile=["QD"])
    assert len(locked(rule(strict, action="hide-bundle").state, 0)) == 3


@pytest.mark.clause("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT")
def test_V8_PEN_VETO_RIGHT() -> None:
    state = position(hands=HANDS, pile=["QD"], calls=["Cy"])
    ruling = rule(state, action="remark", player="Bo", kind="history")
    assert "V8-PEN-VETO-RIGHT" in ruling.clauses and ruling.state.vetoable is not None
    vetoed = rule(ruling.state, action="veto", player="Cy")
    assert vetoed.allowed and not vetoed.state.penalties[1]
    assert vetoed.state.stock == state.stock
    assert not rule(ruling.state, action="veto", player="Ann").allowed
    narrow = {"veto_scope": "turned-talon-or-before-caller"}
    late = position(narrow, hands=HANDS, pile=["QD"], calls=["Bo"])
    assert rule(late, action="remark", player="Cy", kind="history").state.vetoable is None


@pytest.mark.clause(
    "V8-PRESENCE-ABSENT-TURN-SKIPPED",
    "V8-PRESENCE-MAY-RETURN",
    "V8-CALL-FORFEITED-IF-ABSENT",
    "V8-ACE-NEXT-GIVES-ABSENT-CARD",
    "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN",
)
def test_V8_PRESENCE_ABSENT_TURN_SKIPPED() -> None:
    state = position(hands=HANDS, pile=["QD"], calls=["Bo"])
    assert not rule(state, action="step-away", player="Ann").allowed  # spelförare
    away = rule(state, action="step-away", player="Bo")
    assert away.allowed and away.state.away == {1}
    played = rule(away.state, action="play", cards=["KD"])
    assert played.state.turn == 2 and 1 not in played.state.calls
    assert "V8-CALL-FORFEITED-IF-ABSENT" in played.clauses
    ace = position(
        hands={"Ann": ["AD", "5D", "6C"], "Bo": ["2C"], "Cy": ["3C"]}, pile=["QD"], away=["Bo"]
    )
    aced = rule(ace, action="play", cards=["AD"])
    assert len(aced.state.hands[1]) == 2 and "V8-ACE-NEXT-GIVES-ABSENT-CARD" in aced.clauses
    forgot = rule(aced.state, action="forget-absent-card", player="Cy", absent="Bo")
    assert "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN" in forgot.clauses
    back = rule(away.state, action="back", player="Bo")
    assert back.allowed and not back.state.away


@pytest.mark.clause("V8-PRESENCE-MAY-DROP-TO-TWO", "V8-PRESENCE-PAUSE-BELOW-TWO")
def test_V8_PRESENCE_PAUSE_BELOW_TWO() -> None:
    state = position(hands=HANDS, pile=["QD"])
    two = rule(state, action="step-away", player="Bo")
    assert "V8-PRESENCE-MAY-DROP-TO-TWO" in two.clauses
    one = rule(two.state, action="step-away", player="Cy")
    assert "V8-PRESENCE-PAUSE-BELOW-TWO" in one.clauses
    assert not rule(one.state, action="play", cards=["KD"]).allowed
    assert {type(a).__name__ for a in GAME.legal_actions(one.state)} == {"Back"}
    alone = position({"below_two_active": "continue-alone"}, hands=HANDS, pile=["QD"])
    for name in ("Bo", "Cy"):
        alone = rule(alone, action="step-away", player=name).state
    assert rule(alone, action="play", cards=["KD"]).state.turn == 0


def test_vandatta_refuses_mistakes_without_penalty() -> None:
    data = {"players": FOUR[:3], "hands": HANDS, "pile": ["KH"]}
    state = GAME.position_from_data(data, VANDATTA)
    ruling = GAME.attempt(state, GAME.action_from_data({"action": "play", "cards": ["9C"]}, state))
    assert not ruling.allowed and ruling.state is state
    step = GAME.action_from_data({"action": "step-away", "player": "Bo"}, state)
    assert GAME.attempt(state, step).state is state


def test_attempt_actions_round_trip_through_data() -> None:
    state = position(hands=HANDS, pile=["QD"])
    for data in (
        {"action": "remark", "player": 1, "kind": "history", "truthful": False},
        {"action": "look-back", "player": 2, "cards": 1, "latest_play": 2, "checking_bundle": True},
        {"action": "forget-absent-card", "player": 2, "absent": 1},
        {"action": "step-away", "player": 1},
        {"action": "play", "player": 0, "cards": ["KD"], "call": True, "withdrawn": True},
    ):
        action = GAME.action_from_data(data, state)
        assert GAME.action_from_data(GAME.action_to_data(action), state) == action


@pytest.mark.clause("V8-PEN-OVERDRAW-ANY-DRAW", "V8-PEN-STANDARD-THREE-CARDS")
def test_a_penalty_the_talon_cannot_serve_is_an_empty_set_and_a_sound_state() -> None:
    # Found by the table state machine: repeated extra cards under overdraw_other_draws =
    # standard-penalty empty the talon until a penalty finds nothing to draw.
    options = with_options(
        GAME.options("vvv8"), {"dealer_draw": False, "overdraw_other_draws": "standard-penalty"}
    )
    state = GAME.deal(options, ["P1", "P2", "P3"], 80)
    for _ in range(2):
        state = GAME.attempt(state, GAME.legal_actions(state)[0]).state
        for _ in range(4):
            state = GAME.attempt(state, ExtraCard(player=0)).state
            assert GAME.problems(state) == ()
    assert state.stock == ()
    assert [len(p.cards) for p in state.penalties[0]][-2:] == [1, 0]


# --- V8-AMB-TWO-EIGHTS-TOGETHER, V8-AMB-DRAW-OUT-OF-TURN -------------------------------------

EIGHTS = {"Ann": ["8H", "8S", "5C"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"]}


@pytest.mark.clause("V8-PEN-TWO-EIGHTS-TOGETHER", "V8-EIGHT-ONE-PER-PLAY")
def test_V8_PEN_TWO_EIGHTS_TOGETHER_is_the_standard_penalty_not_a_wrong_card() -> None:
    """Two eights together break one eight at a time (§2 ¶7), which names no sanction; each
    eight fits the one beneath by rank, so it is not a wrong card (§3 ¶3)."""
    state = position(hands=EIGHTS, pile=["KH"])
    ruling = rule(state, action="play", cards=["8H", "8S"], suit="C")
    assert not ruling.allowed
    assert "V8-PEN-TWO-EIGHTS-TOGETHER" in ruling.clauses
    assert "V8-PEN-STANDARD-THREE-CARDS" in ruling.clauses
    assert "V8-PEN-WRONG-CARD-OFFENCE" not in ruling.clauses
    assert hand(ruling.state, 0) == ["8H", "8S", "5C"] and locked(ruling.state, 0) == [
        "2S",
        "3S",
        "4S",
    ]
    assert ruling.state.turn == 0 and [c.code for c in ruling.state.pile] == ["KH"]


@pytest.mark.clause("V8-PEN-TWO-EIGHTS-TOGETHER")
def test_two_eights_under_each_reading() -> None:
    back = rule(
        position({"two_eights": "taken-back"}, hands=EIGHTS, pile=["KH"]),
        action="play",
        cards=["8H", "8S"],
        suit="C",
    )
    assert not back.allowed and "V8-PEN-TWO-EIGHTS-TOGETHER" in back.clauses
    assert hand(back.state, 0) == ["8H", "8S", "5C"] and not back.state.penalties[0]
    assert back.state.turn == 0
    first = rule(
        position({"two_eights": "first-stands"}, hands=EIGHTS, pile=["KH"]),
        action="play",
        cards=["8H", "8S"],
        suit="C",
    )
    assert not first.allowed and not first.state.penalties[0]
    assert [c.code for c in first.state.pile] == ["KH", "8H"] and hand(first.state, 0) == [
        "8S",
        "5C",
    ]
    assert first.state.turn == 1 and first.state.named_suit is not None
    assert first.state.named_suit.value == "C"


@pytest.mark.clause("V8-DRAW-OUT-OF-TURN-STOPPED")
def test_V8_DRAW_OUT_OF_TURN_STOPPED_undoes_the_draw_unpunished() -> None:
    """§3 ¶5 punishes a card laid out of turn; a draw out of turn is stopped, and recorded."""
    state = position(hands=HANDS, pile=["QD"])
    ruling = rule(state, action="draw", player="Bo")
    assert not ruling.allowed and "V8-DRAW-OUT-OF-TURN-STOPPED" in ruling.clauses
    assert ruling.state == state
    assert "goes back on the talon unseen" in ruling.message


@pytest.mark.clause("V8-DRAW-OUT-OF-TURN-STOPPED")
def test_a_draw_out_of_turn_under_each_reading() -> None:
    penalised = rule(
        position({"draw_out_of_turn": "standard-penalty"}, hands=HANDS, pile=["QD"]),
        action="draw",
        player="Bo",
    )
    assert "V8-PEN-STANDARD-THREE-CARDS" in penalised.clauses
    assert hand(penalised.state, 1) == ["2C", "3C"] and locked(penalised.state, 1) == [
        "2S",
        "3S",
        "4S",
    ]
    assert penalised.state.turn == 0
    kept = rule(
        position({"draw_out_of_turn": "kept-locked"}, hands=HANDS, pile=["QD"]),
        action="draw",
        player="Bo",
    )
    assert hand(kept.state, 1) == ["2C", "3C"] and locked(kept.state, 1) == ["2S"]
    assert [p.release_after for p in kept.state.penalties[1]] == [0]
    after = rule(kept.state, action="play", cards=["KD"])  # Bo's turn begins with the card
    assert after.state.turn == 1 and hand(after.state, 1) == ["2C", "3C", "2S"]


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT", "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS")
def test_one_who_failed_to_go_out_cannot_try_again_in_that_turn() -> None:
    """Ann failed on an ace and owes her three extra cards; having drawn another ace, she lays
    it as her last hand card: a plain ace, allowed and listed, not a second failed going out."""
    state = position(
        hands={"Ann": ["AH"], "Bo": ["2C"], "Cy": ["3C"]},
        pile=["5D", "AD"],
        calls=["Ann"],
        restart="ace",
        penalties={"Ann": [{"cards": [], "owed": 3}]},
    )
    play = GAME.action_from_data({"action": "play", "cards": ["AH"]}, state)
    assert play in GAME.legal_actions(state)
    ruling = rule(state, action="play", cards=["AH"])
    assert ruling.allowed and ruling.state.winner is None
    assert "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT" not in ruling.clauses
    assert [p.owed for p in ruling.state.penalties[0]] == [3] and ruling.state.turn == 0
    assert hand(ruling.state, 1) == ["2C", "2S"] and hand(ruling.state, 2) == ["3C", "3S"]


# --- who may be blamed, which clause refuses ---------------------------------------------------

ACE_AWAY = {"Ann": ["9C", "5H"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"], "Di": ["QC"]}


@pytest.mark.clause("V8-ACE-NEXT-GIVES-ABSENT-CARD", "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN")
def test_V8_ACE_NEXT_GIVES_ABSENT_CARD_blames_only_the_drawer_after_the_absent() -> None:
    """Ann has laid AH and Cy is away: Di, whose draw follows Cy's, had to take Cy's card. Bo,
    who draws before Cy, cannot have forgotten it, nor can anyone when no ace lies on top: such
    a 'forgetting' is refused, without penalty."""
    aced = position(players=FOUR, away=["Cy"], hands=ACE_AWAY, pile=["KH", "AH"])
    blamed = rule(aced, action="forget-absent-card", player="Di", absent="Cy")
    assert not blamed.allowed and locked(blamed.state, 3) == ["2S", "3S", "4S"]
    assert "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN" in blamed.clauses
    before = rule(aced, action="forget-absent-card", player="Bo", absent="Cy")
    assert not before.allowed and before.state is aced
    assert before.clauses == ("V8-ACE-NEXT-GIVES-ABSENT-CARD",)
    assert "draw follows his" in before.message
    no_ace = position(players=FOUR, away=["Cy"], hands=ACE_AWAY, pile=["KH"])
    nothing = rule(no_ace, action="forget-absent-card", player="Di", absent="Cy")
    assert not nothing.allowed and nothing.state is no_ace and not locked(nothing.state, 3)
    assert nothing.clauses == ("V8-ACE-NEXT-GIVES-ABSENT-CARD",)
    assert "no ace" in nothing.message
    # Bo laid the ace and Cy and Di are both away: the draws go Cy, Di, Ann, so Ann takes
    # both their cards; Bo, who laid the ace, draws none and is not to blame
    both = position(players=FOUR, turn="Bo", away=["Cy", "Di"], hands=ACE_AWAY, pile=["KH", "AH"])
    ann = rule(both, action="forget-absent-card", player="Ann", absent="Cy")
    assert locked(ann.state, 0) == ["2S", "3S", "4S"]
    assert rule(both, action="forget-absent-card", player="Bo", absent="Cy").state is both


@pytest.mark.clause("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE")
def test_V8_PEN_CARDS_LOCKED_UNTIL_TURN_DONE_a_locked_card_is_refused_by_its_clause() -> None:
    state = position(
        hands={"Ann": ["9C", "KS"], "Bo": ["2C"], "Cy": ["3C"]},
        penalties={"Ann": ["2H", "3H", "4H"]},
        pile=["KH"],
    )
    ruling = rule(state, action="play", cards=["2H"])
    assert not ruling.allowed and ruling.state is state
    assert ruling.clauses == ("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",)
    assert "locked" in ruling.message
    # a card neither in his hand nor among his penalty cards is simply not held
    other = rule(state, action="play", cards=["5H"])
    assert other.clauses == () and "does not hold" in other.message


@pytest.mark.clause("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT")
def test_V8_PEN_VETO_CONDITION_no_caller_vetoes_his_own_penalty() -> None:
    state = position(
        turn="Bo", calls=["Ann", "Cy"], hands=HANDS, pile=["KH"], stock=["9S", "10S", "JS", "QS"]
    )
    penalised = rule(state, action="remark", player="Cy", kind="other-hand").state
    assert penalised.vetoable is not None and penalised.vetoable[0] == 2
    own = rule(penalised, action="veto", player="Cy")
    assert not own.allowed and "V8-PEN-VETO-CONDITION" in own.clauses
    assert "another player's mistake" in own.message and "has not called" not in own.message


@pytest.mark.clause("V8-PEN-CARDS-COUNT-AS-HELD", "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS")
def test_V8_PEN_CARDS_COUNT_AS_HELD_is_cited_when_the_hand_empties() -> None:
    for reading in ("allowed-not-out", "treated-as-going-out"):
        state = position(
            {"last_hand_card_locked": reading},
            turn="Bo",
            calls=["Bo"],
            hands={"Ann": ["3C", "4C"], "Bo": ["5H"], "Cy": ["2D", "3D"]},
            penalties={"Bo": ["JS", "QS", "KS"]},
            pile=["9S", "5S"],
            stock=["2S", "3S", "4S"],
        )
        ruling = rule(state, action="play", cards=["5H"])
        assert ruling.allowed and ruling.state.winner is None
        assert {
            "V8-PEN-CARDS-COUNT-AS-HELD",
            "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS",
        } <= set(ruling.clauses)
    # with a card left in hand the clauses have nothing to decide
    kept = position(
        turn="Bo",
        hands={"Ann": ["3C"], "Bo": ["5H", "KD"], "Cy": ["2D"]},
        penalties={"Bo": ["JS", "QS", "KS"]},
        pile=["5S"],
        stock=["2S", "3S", "4S"],
    )
    assert (
        "V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS"
        not in rule(kept, action="play", cards=["5H"]).clauses
    )


@pytest.mark.clause("V8-TALON-REBUILD-DURING-ANY-DRAW", "V8-PEN-STANDARD-THREE-CARDS")
def test_V8_TALON_REBUILD_DURING_ANY_DRAW_explains_a_short_penalty() -> None:
    """One card is left in the talon and the pile holds only its top card: every other card of
    the deck is in a hand, so no rebuild can find a card."""
    deck = [f"{r}{s}" for s in "CDHS" for r in (*"23456789", "10", "J", "Q", "K", "A")]
    rest = [c for c in deck if c not in ("AH", "9S")]
    full = {"Ann": rest[0::3], "Bo": rest[1::3], "Cy": rest[2::3]}

    def thin(reading: str) -> Ruling[State]:
        state = position({"talon_empty_mid_draw": reading}, hands=full, pile=["AH"], stock=["9S"])
        return rule(state, action="remark", player="Cy", kind="other-hand")

    short = thin("rebuild-and-continue")
    assert locked(short.state, 2) == ["9S"]
    assert "V8-TALON-REBUILD-DURING-ANY-DRAW" in short.clauses and "lapse" in short.message
    other = thin("draw-what-is-there")
    assert locked(other.state, 2) == ["9S"]
    assert "V8-TALON-REBUILD-DURING-ANY-DRAW" not in other.clauses
    plenty = rule(position(hands=HANDS, pile=["KH"]), action="remark", player="Cy", kind="history")
    assert len(locked(plenty.state, 2)) == 3
    assert "V8-TALON-REBUILD-DURING-ANY-DRAW" not in plenty.clauses


@pytest.mark.clause("V8-PEN-VETO-SEVERAL-CALLERS", "V8-PEN-VETO-RIGHT", "V8-PEN-VETO-CONDITION")
def test_V8_PEN_VETO_SEVERAL_CALLERS() -> None:
    """Bo and Di have both called; Cy makes a remark and takes three penalty cards; Bo vetoes
    (V8-AMB-VETO-SEVERAL-CALLERS)."""

    def penalised(reading: str) -> tuple[State, State]:
        state = position(
            {"veto_callers": reading},
            players=FOUR,
            calls=["Bo", "Di"],
            hands={**HANDS, "Di": ["6D", "7D"]},
            pile=["KH"],
        )
        ruling = rule(state, action="remark", player="Cy", kind="history")
        assert ruling.state.may_veto == {1, 3}
        assert "V8-PEN-VETO-SEVERAL-CALLERS" in ruling.clauses
        return state, ruling.state

    before, after = penalised("any-caller")
    one = rule(after, action="veto", player="Bo")
    assert one.allowed and not one.state.penalties[2] and one.state.vetoable is None
    assert "V8-PEN-VETO-SEVERAL-CALLERS" in one.clauses and one.state.stock == before.stock
    before, both = penalised("all-callers")
    first = rule(both, action="veto", player="Bo")
    assert first.allowed and locked(first.state, 2) == ["2S", "3S", "4S"]
    assert first.state.may_veto == {3} and first.state.vetoable == both.vetoable
    assert "Di" in first.message and "V8-PEN-VETO-SEVERAL-CALLERS" in first.clauses
    again = rule(first.state, action="veto", player="Bo")
    assert not again.allowed and "already" in again.message
    second = rule(first.state, action="veto", player="Di")
    assert second.allowed and not second.state.penalties[2] and second.state.vetoable is None
    assert second.state.stock == before.stock
    # with a single caller the readings agree, and the model clause decides nothing
    lone = position({"veto_callers": "all-callers"}, hands=HANDS, pile=["QD"], calls=["Cy"])
    taken = rule(lone, action="remark", player="Bo", kind="history")
    assert "V8-PEN-VETO-SEVERAL-CALLERS" not in taken.clauses
    assert not rule(taken.state, action="veto", player="Cy").state.penalties[1]


def test_V8_PEN_VETO_CONDITION_only_placed_callers_may_veto() -> None:
    """Under veto_scope = turned-talon-or-before-caller a caller whose turn comes before the
    offender's has no veto, even when another caller has one (V8-AMB-VETO-INFLUENCE)."""
    state = position(
        {"veto_scope": "turned-talon-or-before-caller"},
        players=FOUR,
        calls=["Bo", "Di"],
        hands={**HANDS, "Di": ["6D", "7D"]},
        pile=["KH"],
    )
    taken = rule(state, action="remark", player="Cy", kind="history")
    assert taken.state.may_veto == {3}
    refused = rule(taken.state, action="veto", player="Bo")
    assert not refused.allowed and "V8-PEN-VETO-CONDITION" in refused.clauses
    assert "only Di may veto" in refused.message


def test_V8_PEN_VETO_RIGHT_who_may_veto_round_trips_in_position_files() -> None:
    state = position(
        {"veto_callers": "all-callers"},
        players=FOUR,
        calls=["Bo", "Di"],
        hands={**HANDS, "Di": ["6D", "7D"]},
        pile=["KH"],
    )
    first = rule(
        rule(state, action="remark", player="Cy", kind="history").state, action="veto", player="Bo"
    ).state
    data = GAME.position_to_data(first)
    assert data["vetoable"]["may_veto"] == ["Di"]
    assert GAME.position_from_data(data, first.options) == first
    bad = {**data, "vetoable": {**data["vetoable"], "may_veto": ["Ann"]}}
    with pytest.raises(ValueError, match="has not called utgång"):
        GAME.position_from_data(bad, first.options)


@pytest.mark.clause(
    "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-PRESENCE-MAY-DROP-TO-TWO",
)
def test_V8_WIN_OUT_BELOW_THREE_ENDS_DEAL() -> None:
    """Bo is on the phone; Ann has called and her last card fits (V8-AMB-OUT-BELOW-THREE)."""

    def table(reading: str, **fields: Any) -> State:
        data: dict[str, Any] = {
            "calls": ["Ann"],
            "away": ["Bo"],
            "hands": {"Ann": ["5H"], "Bo": ["3C"], "Cy": ["2D"]},
            "pile": ["9H"],
            **fields,
        }
        return position({"out_below_three": reading}, **data)

    out = rule(table("unofficial"), action="play", cards=["5H"])
    assert out.allowed and out.state.winner == 0 and out.state.record.official == 0
    assert "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL" in out.clauses
    held = table("held-back")
    refused = rule(held, action="play", cards=["5H"])
    assert not refused.allowed and refused.state == held
    assert {"V8-WIN-OUT-BELOW-THREE-ENDS-DEAL", "V8-LOSS-OFFICIAL-NEEDS-THREE"} <= set(
        refused.clauses
    )
    assert not any(getattr(a, "cards", ()) == held.hands[0] for a in GAME.legal_actions(held))
    back = rule(held, action="back", player="Bo")
    won = rule(back.state, action="play", cards=["5H"])
    assert won.allowed and won.state.winner == 0 and won.state.record.official == 1
    assert "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL" not in won.clauses
    # a deal that began with two active could never end officially: nothing to wait for
    two = rule(table("held-back", active_at_start=2), action="play", cards=["5H"])
    assert two.allowed and two.state.winner == 0
    assert "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL" not in two.clauses
    # a failed going out is ruled as always: an eight as the last card costs its extra cards
    eight = table("held-back", hands={"Ann": ["8H"], "Bo": ["3C"], "Cy": ["2D"]})
    failed = rule(eight, action="play", cards=["8H"], suit="S")
    assert "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT" in failed.clauses and failed.state != eight


@pytest.mark.clause("V8-CALL-ACE-DRAW-NOT-SPELFORARE", "V8-CALL-TIMING")
def test_V8_CALL_ACE_DRAW_NOT_SPELFORARE_a_call_said_while_drawing_for_an_ace() -> None:
    """Ann lays an ace, Bo and Cy draw for it, and Bo says utgång as he draws: no call."""
    state = position(
        hands={"Ann": ["AH", "5H", "KD"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"]}, pile=["QH"]
    )
    aced = rule(state, action="play", cards=["AH"]).state
    said = rule(aced, action="call", player="Bo")
    assert not said.allowed and said.state == aced
    assert {"V8-CALL-TIMING", "V8-CALL-ACE-DRAW-NOT-SPELFORARE"} <= set(said.clauses)
    assert "no call" in said.message and 1 not in said.state.calls
    own = rule(aced, action="call", player="Ann")
    assert not own.allowed and "V8-CALL-ACE-DRAW-NOT-SPELFORARE" not in own.clauses
    assert "with the play or pass" in own.message
    # with no ace on the pile the word is still no call, and no ace draw is cited
    plain = rule(state, action="call", player="Cy")
    assert not plain.allowed and plain.clauses == ("V8-CALL-TIMING",)
    assert GAME.action_to_data(
        GAME.action_from_data({"action": "call", "player": "Bo"}, state)
    ) == {
        "action": "call",
        "player": 1,
    }


START_EIGHT = {
    "players": ["Ann", "Bo", "Cy"],
    "phase": "start-suit",
    "dealer": "Cy",
    "turn": "Ann",
    "hands": {
        "Ann": ["5H", "2C", "3C", "4C", "6C", "7C", "9C"],
        "Bo": ["2D", "3D", "4D", "5D", "6D", "7D", "9D"],
        "Cy": ["2H", "3H", "4H", "10H", "6H", "7H", "9H"],
    },
    "pile": ["8H"],
}


@pytest.mark.clause(
    "V8-START-EIGHT-NO-STALLING", "V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-DEFAULT-SUIT"
)
def test_V8_START_EIGHT_NO_STALLING() -> None:
    """Cy, the dealer, keeps the table waiting over the suit of the start eight 8H
    (V8-AMB-STALLING-LIMIT)."""
    state = GAME.position_from_data(START_EIGHT, VVV8)
    slow = rule(state, action="stall", player="Cy", seconds=600)
    assert not slow.allowed and slow.state == state
    assert "V8-START-EIGHT-NO-STALLING" in slow.clauses and "no time limit" in slow.message
    limited = GAME.position_from_data(
        START_EIGHT, with_options(VVV8, {"stalling": "table-limit", "stalling_limit_seconds": 90})
    )
    early = rule(limited, action="stall", player="Cy", seconds=89)
    assert not early.allowed and early.state == limited and "90 s" in early.message
    lapsed = rule(limited, action="stall", player="Cy", seconds=90)
    assert lapsed.allowed and lapsed.state.phase.value == "play"
    assert lapsed.state.named_suit is None and lapsed.state.turn == 0
    assert {"V8-START-EIGHT-NO-STALLING", "V8-START-EIGHT-DEFAULT-SUIT"} <= set(lapsed.clauses)
    assert rule(lapsed.state, action="play", cards=["5H"]).allowed  # the eight's own suit
    not_dealer = rule(state, action="stall", player="Bo", seconds=600)
    assert not not_dealer.allowed and "not the dealer" in not_dealer.message
    in_play = rule(lapsed.state, action="stall", player="Cy", seconds=600)
    assert not in_play.allowed and "nobody is waiting" in in_play.message
    with pytest.raises(ValueError, match="seconds"):
        GAME.action_from_data({"action": "stall", "player": "Cy"}, state)
    with pytest.raises(ValueError, match="stalling_limit_seconds"):
        with_options(VVV8, {"stalling_limit_seconds": 0})


@pytest.mark.clause("V8-EIGHT-ENDS-TURN", "V8-PLAY-SUIT-THEN-SAME-RANK", "V8-EIGHT-ONE-PER-PLAY")
def test_V8_EIGHT_ENDS_TURN_an_eight_goes_down_alone() -> None:
    """One eight laid with another card breaks no 'one eight at a time': it is refused for
    what it breaks, under both readings of multi_card_play."""
    for reading in ("same-rank-only", "chain"):
        state = position(
            {"multi_card_play": reading},
            hands={"Ann": ["5H", "8H", "KD"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"]},
            pile=["9H"],
        )
        after = rule(state, action="play", cards=["5H", "8H"])
        assert not after.allowed and "V8-PLAY-SUIT-THEN-SAME-RANK" in after.clauses
        assert (
            "V8-EIGHT-ONE-PER-PLAY" not in after.clauses and "8♥ may not go on 5♥" in after.message
        )
        first = rule(state, action="play", cards=["8H", "5H"], suit="H")
        assert not first.allowed and "V8-EIGHT-ENDS-TURN" in first.clauses
        assert "V8-EIGHT-ONE-PER-PLAY" not in first.clauses


@pytest.mark.clause("V8-PEN-NEXT-ROUND-CALL-RISK", "V8-PEN-OVERDRAW-MAY-CALL")
def test_V8_PEN_NEXT_ROUND_CALL_RISK() -> None:
    """Ann's three locked cards join her hand as her turn ends: they count in the real-chance
    test as they are, so a call with them is false; without them it would stand."""
    hands = {"Ann": ["5H", "KD"], "Bo": ["2C", "3C"], "Cy": ["4C", "JD"]}
    locked = position(hands=hands, penalties={"Ann": ["2D", "3D", "9D"]}, pile=["9H"])
    called = rule(locked, action="play", cards=["5H"], call=True)
    assert not called.allowed and "V8-PEN-NEXT-ROUND-CALL-RISK" in called.clauses
    assert "face-down cards count" in called.message
    free = rule(position(hands=hands, pile=["9H"]), action="play", cards=["5H"], call=True)
    assert free.allowed and "V8-PEN-NEXT-ROUND-CALL-RISK" not in free.clauses
