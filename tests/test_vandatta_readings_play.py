"""The register's own situations for the readings of play and of the vandatta calls, each under
the new reading and under the default (group "play")."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, with_options
from regelverk.vandatta import GAME, VANDATTA
from regelverk.vandatta.state import Play, State

PLAYERS = ["P1", "P2", "P3", "P4"]


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data = {"players": PLAYERS, **fields}
    state = GAME.position_from_data(data, with_options(VANDATTA, options or {}))
    assert GAME.problems(state) == ()
    assert GAME.position_from_data(GAME.position_to_data(state), state.options) == state
    return state


def act(state: State, **action: Any) -> tuple[State, set[str], list[str]]:
    outcome = GAME.apply(state, GAME.action_from_data(action, state))
    assert GAME.problems(outcome.state) == ()
    again = GAME.position_from_data(GAME.position_to_data(outcome.state), state.options)
    assert again == outcome.state
    clauses = {c for e in outcome.events for c in e.clauses}
    return outcome.state, clauses, [e.kind for e in outcome.events]


def refused(state: State, **action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalActionError) as error:
        GAME.apply(state, GAME.action_from_data(action, state))
    return error.value.clauses


def hands(**cards: str) -> dict[str, list[str]]:
    return {name: text.split() for name, text in cards.items()}


# --- VA-AMB-RESTART-WITHOUT-SUIT ---------------------------------------------------------------


@pytest.mark.clause(
    "VA-TURN-RESTART-FALLBACK", "VA-ACE-FOLLOW-ACE-SUIT", "VA-EIGHT-LEAD-NAMED-SUIT"
)
def test_an_ace_needs_a_card_to_follow_it() -> None:
    table: dict[str, Any] = {
        "turn": "P2",
        "pile": ["9S"],
        "stock": ["2C", "3C", "4C", "5C"],
        "hands": hands(P1="2H", P2="AS 3D KC", P3="4D", P4="3H"),
    }
    strict = position({"restart_fallback": "ace-needs-follow"}, **table)
    cited = refused(strict, action="play", cards=["AS"])
    assert {"VA-ACE-FOLLOW-ACE-SUIT", "VA-TURN-RESTART-FALLBACK"} <= set(cited)
    assert not any(isinstance(a, Play) for a in GAME.legal_actions(strict))
    drawn, _, _ = act(strict, action="draw")  # no other play on 9S: he draws
    assert len(drawn.hands[1]) == 4
    default = position(**table)
    after, _, _ = act(default, action="play", cards=["AS"])
    assert after.restart.value == "ace" and after.turn == 1
    # an eight: only a suit he keeps may be named with it
    eight = position(
        {"restart_fallback": "ace-needs-follow"},
        turn="P2",
        pile=["9S"],
        hands=hands(P1="2H", P2="8C 3D KC", P3="4D", P4="3H"),
    )
    assert "VA-EIGHT-LEAD-NAMED-SUIT" in refused(eight, action="play", cards=["8C"], suit="H")
    turned, _, _ = act(eight, action="play", cards=["8C"], suit="D")
    assert turned.named_suit is not None and turned.turn == 1


# --- VA-AMB-PILE-TURNED-AWAY ---------------------------------------------------------------------


@pytest.mark.clause("VA-EIGHT-TURNS-PILE", "VA-DRAW-STOCK-REBUILD", "VA-ACE-OTHERS-DRAW")
def test_a_turned_pile_goes_under_the_stock() -> None:
    pile = ["2H", "3H", "4H", "5H", "6H", "7H", "9H", "10H", "JH", "QH", "KH", "2D", "3D"]
    table: dict[str, Any] = {
        "turn": "P1",
        "pile": pile,
        "stock": ["4C", "5C"],
        "hands": hands(P1="8D AC 6C 9C", P2="2S", P3="3S", P4="4S"),
    }
    under = position({"turned_pile": "under-stock"}, **table)
    stock = len(under.stock)
    after, cited, _ = act(under, action="play", cards=["8D"], suit="C")
    assert "VA-EIGHT-TURNS-PILE" in cited
    assert after.turned == () and after.pile == () and len(after.stock) == stock + 14
    assert after.stock[0].code == "8D" and after.stock[-1].code == "4C"
    assert [c.code for c in after.stock[:14]] == ["8D", *reversed(pile)]
    drew, cited, _ = act(after, action="play", cards=["AC"])
    assert [len(h) for h in drew.hands[1:]] == [2, 2, 2] and "VA-DRAW-STOCK-REBUILD" not in cited
    assert [c.code for c in drew.hands[1][1:] + drew.hands[2][1:]] == ["4C", "5C"]
    aside = position(**table)
    after, _, _ = act(aside, action="play", cards=["8D"], suit="C")
    assert len(after.turned) == 14 and len(after.stock) == stock
    assert after.turned[-1].code == "8D"


# --- VA-AMB-SEVERAL-EIGHTS -----------------------------------------------------------------------


@pytest.mark.clause(
    "VA-PLAY-SEVERAL-SAME-RANK", "VA-EIGHT-TURNS-PILE", "VA-EIGHT-SAME-PLAYER-RESTARTS"
)
def test_eights_go_down_together() -> None:
    table: dict[str, Any] = {
        "turn": "P3",
        "pile": ["10S"],
        "hands": hands(P1="2S", P2="3S", P3="8C 8D 5H", P4="4S"),
    }
    together = position({"several_eights": "together"}, **table)
    assert Play(player=2, cards=together.hands[2][:2], suit=together.hands[2][2].suit) in (
        GAME.legal_actions(together)
    )
    after, cited, kinds = act(together, action="play", cards=["8C", "8D"], suit="H")
    assert "VA-EIGHT-TURNS-PILE" in cited and kinds.count("name-suit") == 1
    assert len(after.turned) == 3 and after.turn == 2
    out, _, _ = act(after, action="play", cards=["5H"])
    assert out.winner == 2
    one = position(**table)
    assert "VA-PLAY-SEVERAL-SAME-RANK" in refused(one, action="play", cards=["8C", "8D"], suit="H")
    after, _, _ = act(one, action="play", cards=["8C"], suit="D")
    after, _, _ = act(after, action="play", cards=["8D"], suit="H")
    out, _, _ = act(after, action="play", cards=["5H"])
    assert out.winner == 2
    mixed = position({"several_eights": "together"}, **table)
    assert refused(mixed, action="play", cards=["8C", "5H"], suit="H")


# --- VA-AMB-AFTER-THREE-DRAWS --------------------------------------------------------------------


@pytest.mark.clause("VA-DRAW-MAX-THREE", "VA-DRAW-PASS-AFTER-THREE")
def test_after_three_useless_draws_the_next_player_leads_freely() -> None:
    table: dict[str, Any] = {
        "turn": "P4",
        "pile": ["JD"],
        "stock": ["2C", "3C", "4C"],
        "hands": hands(P1="7C 4D", P2="2S", P3="3S", P4="5S"),
    }
    free = position({"after_three_draws": "pass-free-lead"}, **table)
    for _ in range(3):
        free, _, _ = act(free, action="draw")
    passed, cited, kinds = act(free, action="pass")
    assert passed.turn == 0 and passed.free_lead and "free-lead" in kinds
    assert "VA-DRAW-PASS-AFTER-THREE" in cited
    led, _, _ = act(passed, action="play", cards=["7C"])
    assert not led.free_lead and led.pile[-1].code == "7C"
    same = position(**table)
    for _ in range(3):
        same, _, _ = act(same, action="draw")
    passed, _, _ = act(same, action="pass")
    assert not passed.free_lead
    assert "VA-PLAY-MATCH-RANK-OR-SUIT" in refused(passed, action="play", cards=["7C"])
    led, _, _ = act(passed, action="play", cards=["4D"])
    assert led.pile[-1].code == "4D"


# --- VA-AMB-LAPPEN-PENALTY-DRAW ------------------------------------------------------------------


@pytest.mark.clause("VA-PENALTY-LAPPEN-FAILED", "VA-DRAW-WHEN-STUCK", "VA-DRAW-MAX-THREE")
def test_the_lappen_penalty_then_a_play() -> None:
    table: dict[str, Any] = {
        "turn": "P1",
        "pile": ["9H"],
        "calls": ["P1"],
        "stock": ["2S", "5H", "3S"],
        "hands": hands(P1="6C", P2="2D", P3="4D", P4="3D"),
    }
    then_play = position({"lappen_penalty": "penalty-then-play"}, **table)
    after, cited, _ = act(then_play, action="draw")
    assert "VA-PENALTY-LAPPEN-FAILED" in cited
    assert len(after.hands[0]) == 4 and after.turn == 0 and after.calls == frozenset()
    assert "VA-DRAW-MAX-THREE" in refused(after, action="draw")
    laid, _, _ = act(after, action="play", cards=["5H"])
    assert len(laid.hands[0]) == 3 and laid.turn == 1
    instead = position(**table)
    after, _, _ = act(instead, action="draw")
    assert len(after.hands[0]) == 4 and after.turn == 1
    none_fit = position(
        {"lappen_penalty": "penalty-then-play"}, **{**table, "stock": ["2S", "3S", "4S"]}
    )
    after, _, _ = act(none_fit, action="draw")
    passed, _, _ = act(after, action="pass")
    assert passed.turn == 1 and len(passed.hands[0]) == 4


# --- VA-AMB-VARNING-WHEN -------------------------------------------------------------------------


@pytest.mark.clause("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-ACE-OTHERS-DRAW")
def test_varning_whenever_a_hand_reaches_the_count() -> None:
    table: dict[str, Any] = {
        "turn": "P1",
        "pile": ["9S"],
        "stock": ["2C", "3C", "4C"],
        "hands": hands(P1="AS 9D 9H 9C 5S", P2="2D 3D", P3="4D 5D 6D 7D", P4="3H 4H 5H 6H"),
    }
    whenever = position({"varning_trigger": "whenever-exactly"}, **table)
    ace = GAME.action_from_data({"action": "play", "cards": ["AS"]}, whenever)
    outcome = GAME.apply(whenever, ace)
    callers = [e.player for e in outcome.events if e.kind == "varning"]
    assert callers == ["P2"]  # 2 -> 3 by the ace's draw; P3 and P4 go from 4 to 5
    after, _, kinds = act(outcome.state, action="play", cards=["5S"])
    assert "varning" in kinds and len(after.hands[0]) == 3  # P1: 4 -> 3 as his turn ends
    default = position(**table)
    outcome = GAME.apply(default, ace)
    assert [e for e in outcome.events if e.kind == "varning"] == []


# --- VA-AMB-VARNING-FORGOTTEN --------------------------------------------------------------------


@pytest.mark.clause("VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED", "VA-PENALTY-LAPPEN-FAILED")
def test_a_forgotten_varning_costs_three_cards() -> None:
    table: dict[str, Any] = {
        "turn": "P2",
        "pile": ["9H"],
        "stock": ["2S", "3S", "4S"],
        "hands": hands(P1="2D", P2="9S 3C 4C 5C", P3="4D", P4="3D"),
    }
    strict = position({"varning_omission": "three-cards"}, **table)
    assert Play(player=1, cards=strict.hands[1][:1], call=True) in GAME.legal_actions(strict)
    forgot, cited, kinds = act(strict, action="play", cards=["9S"])
    assert "varning-forgotten" in kinds and "VA-CALL-VARNING" in cited
    assert len(forgot.hands[1]) == 6
    called, _, kinds = act(strict, action="play", cards=["9S"], call=True)
    assert "varning" in kinds and len(called.hands[1]) == 3
    default = position(**table)
    enforced, cited, kinds = act(default, action="play", cards=["9S"])
    assert "varning" in kinds and "VA-CALL-VARNING-ENFORCED" in cited
    assert len(enforced.hands[1]) == 3


# --- VA-AMB-LAPPEN-FORGOTTEN ---------------------------------------------------------------------


@pytest.mark.clause(
    "VA-CALL-LAPPEN-MANDATORY", "VA-CALL-LAPPEN-ENFORCED", "VA-WIN-OUT-AFTER-LAPPEN"
)
def test_a_forgotten_lappen() -> None:
    table: dict[str, Any] = {
        "turn": "P1",
        "pile": ["9H"],
        "stock": ["2S", "3S", "4S", "KC"],
        "hands": hands(P1="9C 6C", P2="2D", P3="4D", P4="3D"),
    }
    # default: the engine makes the call; P1 goes out on 6C next turn
    default = position(**table)
    after, cited, _ = act(default, action="play", cards=["9C"])
    assert after.calls == {0} and "VA-CALL-LAPPEN-ENFORCED" in cited
    # no-go-out: without the call he may not go out: he takes three cards at once
    strict = position({"lappen_omission": "no-go-out"}, **table)
    assert Play(player=0, cards=strict.hands[0][:1], call=True) in GAME.legal_actions(strict)
    forgot, cited, kinds = act(strict, action="play", cards=["9C"])
    assert "lappen-forgotten" in kinds and "VA-CALL-LAPPEN-MANDATORY" in cited
    assert forgot.calls == frozenset() and len(forgot.hands[0]) == 4
    called, _, _ = act(strict, action="play", cards=["9C"], call=True)
    assert called.calls == {0} and len(called.hands[0]) == 1
    # win-stands: no call, no consequence; he goes out on 6C next turn and wins
    loose = position({"lappen_omission": "win-stands"}, **table)
    quiet, _, kinds = act(loose, action="play", cards=["9C"])
    assert quiet.calls == frozenset() and len(quiet.hands[0]) == 1 and "lappen" not in kinds
    back = position(
        {"lappen_omission": "win-stands"},
        turn="P1",
        pile=["KC"],
        hands=hands(P1="6C", P2="2D", P3="4D", P4="3D"),
    )
    won, _, _ = act(back, action="play", cards=["6C"])
    assert won.winner == 0
