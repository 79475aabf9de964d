"""Scenario tests for 000 (vvv8) §1: late joiners at a free seat, one situation per clause."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, PositionError, Ruling, is_allowed, with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.state import Phase, State

FOUR = ["Ann", "Bo", "Cy", "Di"]
STOCK = ["9S", "3S", "4S", "5S", "6S", "7S", "10S", "JS", "QS", "KS"]
HANDS = {"Ann": ["9H", "5C"], "Bo": ["AH", "3C", "4C"], "Cy": ["4D", "6D"], "Di": ["JC"]}


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data: dict[str, Any] = {"players": FOUR, "stock": STOCK, "hands": HANDS, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def act(state: State, **action: Any) -> State:
    after = GAME.apply(state, GAME.action_from_data(action, state)).state
    assert GAME.problems(after) == ()
    return after


def rule(state: State, **action: Any) -> Ruling[State]:
    ruling = GAME.attempt(state, GAME.action_from_data(action, state))
    assert GAME.problems(ruling.state) == ()
    return ruling


def eve_at_turn(options: dict[str, Any] | None = None, **fields: Any) -> State:
    """Eve sits down between Ann and Bo; Ann lays 9H, and the turn reaches Eve."""
    state = act(position(options, pile=["KH"], **fields), action="join", name="Eve", seat=1)
    state = act(state, action="play", player="Ann", cards=["9H"])
    assert state.players[state.turn] == "Eve"
    return state


@pytest.mark.clause("V8-JOIN-DRAW-GIVES-EQUAL-TERMS")
def test_V8_JOIN_DRAW_GIVES_EQUAL_TERMS() -> None:
    state = act(position(pile=["KH"]), action="join", name="Eve", seat=1)
    assert state.players == ("Ann", "Eve", "Bo", "Cy", "Di")
    assert state.hands[1] == () and 1 in state.joining
    # not on the same terms: he holds no cards, draws none for an ace, and cannot play yet
    assert GAME.legal_actions(state)[0].player == 0  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="no free seat"):
        GAME.check(state, GAME.action_from_data({"action": "join", "name": "Fay"}, state))


@pytest.mark.clause("V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-JOIN-LATE-NO-SECOND-DECK")
def test_V8_JOIN_LATE_TAKE_FREE_SEAT() -> None:
    three = GAME.position_from_data(
        {"players": FOUR[:3], "hands": {"Ann": ["9H"], "Bo": ["2C"], "Cy": ["3C"]}, "pile": ["KH"]},
        VVV8,
    )
    ruling = rule(three, action="join", name="Eve", seat=1)
    assert not ruling.allowed and "another deck" in ruling.message
    assert "V8-JOIN-LATE-NO-SECOND-DECK" in ruling.clauses
    state = eve_at_turn()
    assert [type(a).__name__ for a in GAME.legal_actions(state)] == ["StepIn", "StayOut"]
    refused = rule(state, action="draw", player="Eve")
    assert not refused.allowed and "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE" in refused.clauses


@pytest.mark.clause("V8-JOIN-LATE-CARDS-MOST-PLUS-ONE")
def test_V8_JOIN_LATE_CARDS_MOST_PLUS_ONE() -> None:
    state = act(eve_at_turn(), action="step-in", player="Eve")
    assert len(state.hands[1]) == 4  # Bo holds most, three, plus one
    assert state.turn == 1 and not state.joining and not state.benched
    # plays-on-arrival: he is spelförare at once
    after = act(state, action="play", player="Eve", cards=["9S"])
    assert after.players[after.turn] == "Bo"
    later = act(
        eve_at_turn({"late_joiner_first_turn": "cards-then-next-round"}),
        action="step-in",
        player="Eve",
    )
    assert len(later.hands[1]) == 4 and later.players[later.turn] == "Bo"


@pytest.mark.clause("V8-JOIN-LATE-CARDS-FROM-TALON")
def test_V8_JOIN_LATE_CARDS_FROM_TALON() -> None:
    penalties = {"Cy": ["8C", "8D"]}
    state = act(eve_at_turn(penalties=penalties), action="step-in", player="Eve")
    # Cy holds 2 in hand and 2 face down: 4, the most; the cards are the talon's top five
    assert [c.code for c in state.hands[1]] == ["9S", "3S", "4S", "5S", "6S"]
    only = act(
        eve_at_turn({"late_joiner_count": "hand-only"}, penalties=penalties),
        action="step-in",
        player="Eve",
    )
    assert len(only.hands[1]) == 4


@pytest.mark.clause("V8-JOIN-LATE-MISSED-TURN-WAIT")
def test_V8_JOIN_LATE_MISSED_TURN_WAIT() -> None:
    state = act(eve_at_turn(), action="stay-out", player="Eve")
    assert state.players[state.turn] == "Bo" and 1 in state.benched and not state.joining
    refused = rule(state, action="step-in", player="Eve")
    assert not refused.allowed
    # an ace: Eve, outside the deal, draws nothing
    ace = act(state, action="play", player="Bo", cards=["AH"])
    assert ace.hands[1] == () and len(ace.hands[0]) == 2
    data = GAME.position_to_data(state)
    assert data["waiting"] == ["Eve"]
    assert GAME.position_from_data(data, VVV8) == state
    over = GAME.position_from_data({**data, "phase": "deal-over"}, VVV8)
    dealt = act(over, action="deal")
    assert dealt.phase in (Phase.PLAY, Phase.START_SUIT)
    assert len(dealt.hands[1]) == 7 and not dealt.benched


# --- misdeals (000 §1 ¶5-¶6) -------------------------------------------------------------------

SEVEN = {
    "Ann": ["2C", "3C", "4C", "5C", "6C", "7C", "9C"],
    "Bo": ["2D", "3D", "4D", "5D", "6D", "7D", "9D"],
    "Cy": ["2H", "3H", "4H", "5H", "6H", "7H", "9H"],
}


def misdeal(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data: dict[str, Any] = {
        "players": FOUR[:3],
        "phase": "misdeal",
        "dealer": "Cy",
        "turn": "Ann",
        "hands": SEVEN,
        "stock": ["JS", "QS", "KS", "10S", "9S"],
        **fields,
    }
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def short(**cuts: int) -> dict[str, list[str]]:
    return {name: cards[: 7 - cuts.get(name, 0)] for name, cards in SEVEN.items()}


@pytest.mark.clause("V8-MISDEAL-TOO-MANY-RETURN")
def test_V8_MISDEAL_TOO_MANY_RETURN() -> None:
    state = misdeal(hands={**SEVEN, "Bo": [*SEVEN["Bo"], "KD"]}, pile=["10H"])
    returns = [a for a in GAME.legal_actions(state) if type(a).__name__ == "ReturnSurplus"]
    assert len(returns) == 8  # any one of his eight cards
    wrong = rule(state, action="return-surplus", player="Bo", cards=["KD", "2D"])
    assert not wrong.allowed and "exactly" in wrong.message
    # may-keep: he may also keep it, and the dealer starts play
    kept = act(state, action="complete", player="Cy")
    assert len(kept.hands[1]) == 8 and kept.phase is Phase.PLAY
    must = misdeal({"surplus_return": "must-return"}, hands={**SEVEN, "Bo": [*SEVEN["Bo"], "KD"]})
    refused = rule(must, action="complete", player="Cy")
    assert not refused.allowed and "V8-MISDEAL-TOO-MANY-RETURN" in refused.clauses


@pytest.mark.clause("V8-MISDEAL-TOO-MANY-DEALER-KEEPS")
def test_V8_MISDEAL_TOO_MANY_DEALER_KEEPS() -> None:
    state = misdeal(hands={**SEVEN, "Bo": [*SEVEN["Bo"], "KD"]}, pile=["10H"])
    after = act(state, action="return-surplus", player="Bo", cards=["2D"])
    assert len(after.hands[1]) == 7 and len(after.hands[2]) == 8
    assert after.hands[2][-1].code == "2D"
    started = act(after, action="complete", player="Cy")
    assert started.phase is Phase.PLAY and started.pile[-1].code == "10H"
    assert started.players[started.turn] == "Ann"


@pytest.mark.clause("V8-MISDEAL-TOO-FEW-COMPLETE")
def test_V8_MISDEAL_TOO_FEW_COMPLETE() -> None:
    state = misdeal(hands=short(Bo=1), pile=["10H"])
    after = act(state, action="complete", player="Cy")
    assert [len(h) for h in after.hands] == [7, 7, 7]
    assert after.hands[1][-1].code == "JS" and after.short_deal
    refused = rule(state, action="complete", player="Bo")
    assert not refused.allowed


@pytest.mark.clause("V8-MISDEAL-TOO-FEW-COMPLETE")
def test_a_misdeal_position_holds_at_most_the_start_card_on_the_pile() -> None:
    """A misdeal is put right before play starts: a position claiming two cards on the pile
    cannot occur, and completing it would lose the lower card, so the reader refuses it."""
    with pytest.raises(PositionError, match="at most the start card, not 2 cards"):
        misdeal(hands=short(Bo=1), pile=["KH", "QH"])


@pytest.mark.clause("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT")
def test_V8_MISDEAL_TOO_FEW_REDEAL_RIGHT() -> None:
    state = misdeal(hands=short(Bo=1), pile=["10H"])
    again = act(state, action="redeal", player="Ann")
    assert [len(h) for h in again.hands] == [7, 7, 7]
    assert again.dealer == 2 and again.phase in (Phase.PLAY, Phase.START_SUIT)
    full = misdeal(pile=["10H"])
    assert not rule(full, action="redeal", player="Ann").allowed


@pytest.mark.clause("V8-MISDEAL-ALL-SHORT-NO-REDEAL")
def test_V8_MISDEAL_ALL_SHORT_NO_REDEAL() -> None:
    state = misdeal(hands=short(Ann=1, Bo=1, Cy=1))
    refused = rule(state, action="redeal", player="Bo")
    assert not refused.allowed and "V8-MISDEAL-ALL-SHORT-NO-REDEAL" in refused.clauses
    # with the start card turned, a new deal may be demanded
    turned = misdeal(hands=short(Ann=1, Bo=1, Cy=1), pile=["10H"])
    assert rule(turned, action="redeal", player="Bo").allowed


@pytest.mark.clause("V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS")
def test_V8_MISDEAL_ALL_SHORT_EXTRA_ROUNDS() -> None:
    state = misdeal(hands=short(Ann=1, Bo=1, Cy=1))
    after = act(state, action="complete", player="Cy")
    assert [c.code for h in after.hands for c in h[-1:]] == ["JS", "QS", "KS"]
    assert after.pile[-1].code == "10S" and after.phase is Phase.PLAY


@pytest.mark.clause("V8-MISDEAL-ALL-SHORT-TOP-UP")
def test_V8_MISDEAL_ALL_SHORT_TOP_UP() -> None:
    state = misdeal(hands=short(Ann=1, Bo=2, Cy=1))
    after = act(state, action="complete", player="Cy")
    assert [len(h) for h in after.hands] == [7, 7, 7]
    rounds = act(
        misdeal({"all_short_completion": "full-rounds"}, hands=short(Ann=1, Bo=2, Cy=1)),
        action="complete",
        player="Cy",
    )
    assert [len(h) for h in rounds.hands] == [8, 7, 8] and rounds.phase is Phase.MISDEAL
    back = act(rounds, action="return-surplus", player="Ann", cards=["JS"])
    assert [len(h) for h in back.hands] == [7, 7, 9]
    assert act(back, action="complete", player="Cy").phase is Phase.PLAY


@pytest.mark.clause("V8-MISDEAL-REDEAL-BEFORE-PLAY")
def test_V8_MISDEAL_REDEAL_BEFORE_PLAY() -> None:
    started = act(misdeal(hands=short(Bo=1), pile=["10H"]), action="complete", player="Cy")
    assert rule(started, action="redeal", player="Cy").allowed
    played = act(started, action="draw", player="Ann")
    late = rule(played, action="redeal", player="Cy")
    assert not late.allowed and "V8-MISDEAL-REDEAL-BEFORE-PLAY" in late.clauses
    anytime = act(
        misdeal({"redeal_window": "any-time-in-deal"}, hands=short(Bo=1), pile=["10H"]),
        action="complete",
        player="Cy",
    )
    assert rule(act(anytime, action="draw", player="Ann"), action="redeal", player="Bo").allowed


# --- a start eight played on too early (000 §1 ¶9), a card too many in any draw (§3 ¶7) --------


def start_eight(options: dict[str, Any] | None = None) -> State:
    data: dict[str, Any] = {
        "players": FOUR[:3],
        "phase": "start-suit",
        "dealer": "Cy",
        "turn": "Ann",
        "hands": {"Ann": ["5S", "9D"], "Bo": ["2C", "KD"], "Cy": ["3C"]},
        "pile": ["8H"],
        "stock": ["4D", "6D", "7D"],
    }
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    early = rule(state, action="play", player="Ann", cards=["5S"])
    assert not early.allowed and [c.code for c in early.state.early] == ["5S"]
    assert "V8-START-EIGHT-FORHAND-EARLY-PENALTY" in early.clauses
    return early.state


@pytest.mark.clause("V8-START-EIGHT-FORHAND-EARLY-PENALTY")
def test_V8_START_EIGHT_FORHAND_EARLY_PENALTY() -> None:
    # the dealer names spades, the suit of Ann's card: no penalty, the play stands
    same = act(start_eight(), action="name-suit", player="Cy", suit="S")
    assert same.pile[-1].code == "5S" and same.penalties[0] == ()
    assert same.players[same.turn] == "Bo"
    # under other-than-eight-suit, spades differs from the eight's hearts: three cards
    other = act(
        start_eight({"start_eight_other_suit": "other-than-eight-suit"}),
        action="name-suit",
        player="Cy",
        suit="S",
    )
    assert [c.code for p in other.penalties[0] for c in p.cards] == ["4D", "6D", "7D"]


@pytest.mark.clause("V8-START-EIGHT-EARLY-CARD-RETURNED")
def test_V8_START_EIGHT_EARLY_CARD_RETURNED() -> None:
    back = act(start_eight(), action="name-suit", player="Cy", suit="D")
    assert [c.code for c in back.hands[0]] == ["9D", "5S"] and back.turn == 0
    assert back.pile[-1].code == "8H" and not back.early
    played = act(back, action="play", player="Ann", cards=["9D"])
    assert played.pile[-1].code == "9D" and played.players[played.turn] == "Bo"
    stands = act(
        start_eight({"start_eight_early_card": "stands"}), action="name-suit", player="Cy", suit="D"
    )
    assert stands.pile[-1].code == "5S" and stands.named_suit is None
    # the penalty cards were locked only through his turn, which the standing card ended
    assert [c.code for c in stands.hands[0]] == ["9D", "4D", "6D", "7D"]


@pytest.mark.clause("V8-PEN-OVERDRAW-ANY-DRAW")
def test_V8_PEN_OVERDRAW_ANY_DRAW() -> None:
    state = position(pile=["KH"])
    ruling = rule(state, action="extra-card", player="Cy")
    assert not ruling.allowed and "V8-PEN-OVERDRAW-ANY-DRAW" in ruling.clauses
    assert [c.code for p in ruling.state.penalties[2] for c in p.cards] == ["9S"]
    assert ruling.state.hands[2] == state.hands[2]
    strict = rule(
        position({"overdraw_other_draws": "standard-penalty"}, pile=["KH"]),
        action="extra-card",
        player="Cy",
    )
    assert len([c for p in strict.state.penalties[2] for c in p.cards]) == 4
    put = position({"overdraw_other_draws": "put-back"}, pile=["KH"])
    back = rule(put, action="extra-card", player="Cy")
    assert not back.allowed and back.state is put and "goes back" in back.message
    assert not is_allowed(GAME, state, GAME.action_from_data({"action": "extra-card"}, state))


@pytest.mark.clause("V8-PRESENCE-PAUSE-BELOW-TWO", "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE")
def test_V8_PRESENCE_PAUSE_BELOW_TWO_holds_a_late_joiner_too() -> None:
    """While play pauses, coming back is all that can happen: the late joiner whose turn it is
    neither steps in nor stays out until someone comes back (found by the table machine: the
    listing offered only Back while check accepted his step-in)."""
    state = eve_at_turn()
    for name in ("Ann", "Bo", "Cy"):  # Di is left, alone: Eve is not yet in the deal
        state = rule(state, action="step-away", player=name).state
    assert {type(a).__name__ for a in GAME.legal_actions(state)} == {"Back"}
    for kind in ("step-in", "stay-out"):
        refused = rule(state, action=kind, player="Eve")
        assert not refused.allowed and refused.state is state
        assert "V8-PRESENCE-PAUSE-BELOW-TWO" in refused.clauses
        assert "pauses" in refused.message
    back = rule(state, action="back", player="Bo").state
    assert [type(a).__name__ for a in GAME.legal_actions(back)] == ["StepIn", "StayOut"]
    assert act(back, action="step-in", player="Eve").hands[1]


@pytest.mark.clause("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN")
def test_V8_PRESENCE_ABSENT_TURN_SKIPPED_when_everyone_has_stepped_away() -> None:
    """Under step_away_own_turn = ends-turn and blocked_deal = play-on, each spelförare steps
    away in turn until nobody is left: the turn rests with the last, there being nobody to pass
    it to, and the first to come back takes it (found by the table machine: the turn stayed
    with an absent player after someone came back)."""
    options = {"step_away_own_turn": "ends-turn", "blocked_deal": "play-on"}
    three = {"Ann": ["9H", "5C"], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"]}
    state = GAME.position_from_data(
        {"players": FOUR[:3], "stock": STOCK, "hands": three, "pile": ["KH"]},
        with_options(VVV8, options),
    )
    for name in ("Ann", "Bo", "Cy"):
        assert state.players[state.turn] == name
        state = rule(state, action="step-away", player=name).state
    assert state.away == {0, 1, 2} and state.players[state.turn] == "Cy"
    assert {type(a).__name__ for a in GAME.legal_actions(state)} == {"Back"}
    back = rule(state, action="back", player="Bo")
    assert back.state.players[back.state.turn] == "Bo"
    assert "V8-PRESENCE-ABSENT-TURN-SKIPPED" in back.clauses
    assert "Ann is away: his turn is passed over" in back.message
    # alone at a paused table Bo may only wait; with Ann back he plays
    assert {type(a).__name__ for a in GAME.legal_actions(back.state)} == {"Back"}
    both = act(back.state, action="back", player="Ann")
    assert both.players[both.turn] == "Bo"
    assert any(type(a).__name__ == "Play" for a in GAME.legal_actions(both))


@pytest.mark.clause("V8-WIN-BLOCKED-DEAL-VOID", "V8-PRESENCE-ABSENT-TURN-SKIPPED")
def test_V8_WIN_BLOCKED_DEAL_VOID_not_when_everyone_has_stepped_away() -> None:
    """Under step_away_own_turn = ends-turn (blocked_deal = void, the preset), Bo and Cy are
    away and Ann, spelförare, steps away too. Nobody passed and the talon holds cards: the deal
    is not blocked, it waits for the first to come back (it was declared void: with nobody
    active, no passes at all counted as every active player having passed)."""
    three = {"Ann": ["9H", "5C"], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"]}
    state = GAME.position_from_data(
        {"players": FOUR[:3], "stock": STOCK, "hands": three, "pile": ["KH"], "away": ["Bo", "Cy"]},
        with_options(VVV8, {"step_away_own_turn": "ends-turn"}),
    )
    ruling = rule(state, action="step-away", player="Ann")
    assert ruling.allowed, ruling.message
    assert "Nobody can lay a card or draw one" not in ruling.message
    assert ruling.state.phase is Phase.PLAY and ruling.state.away == {0, 1, 2}
    back = rule(ruling.state, action="back", player="Cy")
    assert back.state.phase is Phase.PLAY and back.state.players[back.state.turn] == "Cy"
