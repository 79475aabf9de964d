"""Scenario tests for the clauses of 001 (vandatta), one situation per rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from regelverk.engine import IllegalActionError, with_options
from regelverk.referee import ask
from regelverk.vandatta import GAME, VANDATTA
from regelverk.vandatta.state import Phase, State

PLAYERS = ["P1", "P2", "P3", "P4"]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "vandatta"


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data = {"players": PLAYERS, **fields}
    state = GAME.position_from_data(data, with_options(VANDATTA, options or {}))
    assert GAME.problems(state) == ()
    return state


def act(state: State, **action: Any) -> tuple[State, set[str]]:
    outcome = GAME.apply(state, GAME.action_from_data(action, state))
    assert GAME.problems(outcome.state) == ()
    return outcome.state, {c for e in outcome.events for c in e.clauses}


def refused(state: State, **action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalActionError) as error:
        GAME.apply(state, GAME.action_from_data(action, state))
    return error.value.clauses


def hands(**cards: str) -> dict[str, list[str]]:
    return {name: text.split() for name, text in cards.items()}


def dealt(
    start: list[str],
    hands_in_order: list[list[str]],
    options: dict[str, Any] | None = None,
    players: list[str] = PLAYERS,
) -> State:
    """A ready position whose deal gives these hands (clockwise from the dealer's left)."""
    order = hands_in_order[1:] + hands_in_order[:1]  # the last player deals
    top = [order[k % len(order)][k // len(order)] for k in range(7 * len(order))]
    data = {
        "players": players,
        "phase": "ready",
        "deal": 0,
        "dealer": players[-1],
        "stock": top + start,
    }
    return GAME.position_from_data(data, with_options(VANDATTA, options or {}))


FOUR_HANDS = [
    ["2S", "3S", "4S", "5S", "6S", "7S", "9S"],
    ["2D", "3D", "4D", "5D", "6D", "7D", "9D"],
    ["2C", "3C", "4C", "5C", "6C", "7C", "9C"],
    ["2H", "3H", "4H", "5H", "6H", "7H", "JH"],
]


@pytest.mark.clause("VA-SETUP-DECK-AND-PLAYERS")
def test_VA_SETUP_DECK_AND_PLAYERS() -> None:
    state = GAME.deal(VANDATTA, [f"P{n}" for n in range(6)], 1)
    assert state.decks == 1 and len(state.stock) == 52
    with pytest.raises(IllegalActionError, match="at most 6"):
        GAME.deal(VANDATTA, [f"P{n}" for n in range(7)], 1)


@pytest.mark.clause(
    "VA-DEAL-SHUFFLE",
    "VA-DEAL-CLOCKWISE",
    "VA-DEAL-SEVEN-CARDS",
    "VA-SETUP-STOCK",
    "VA-START-CARD-TURN",
    "VA-START-CARD-SETS-MATCH",
    "VA-TURN-FIRST-PLAYER",
    "VA-TURN-FIRST-PLAYS-ON-START",
)
def test_VA_DEAL_CLOCKWISE() -> None:
    state = dealt(["10H"], [FOUR_HANDS[3], *FOUR_HANDS[:3]])
    state, cited = act(state, action="deal")
    assert all(len(h) == 7 for h in state.hands) and len(state.stock) == 52 - 29
    assert state.pile[-1].code == "10H" and state.turn == 0
    assert {"VA-DEAL-SEVEN-CARDS", "VA-SETUP-STOCK", "VA-TURN-FIRST-PLAYER"} <= cited
    # the start card fixes the match: a heart or a ten
    misfit = next(c for c in state.hands[0] if c.suit.value != "H" and c.rank != 10)
    assert "VA-PLAY-MATCH-RANK-OR-SUIT" in refused(state, action="play", cards=[misfit.code])


@pytest.mark.clause("VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN")
def test_VA_START_EIGHT_RETURNED() -> None:
    state = dealt(["8H", "10H"], FOUR_HANDS)
    state, cited = act(state, action="deal")
    assert state.pile[-1].code == "10H" and state.pile[-1:] and len(state.pile) == 1
    assert any(c.code == "8H" for c in state.stock)
    assert {"VA-START-EIGHT-RETURNED", "VA-START-EIGHT-TURN-AGAIN"} <= cited


@pytest.mark.clause("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON")
def test_VA_START_ACE_ALL_DRAW() -> None:
    state = dealt(["AC", "KC", "QC", "JC", "10C"], FOUR_HANDS)
    state, cited = act(state, action="deal")
    assert [len(h) for h in state.hands] == [8, 8, 8, 8] and state.turn == 0
    assert {"VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON"} <= cited


@pytest.mark.clause(
    "VA-PLAY-MATCH-RANK-OR-SUIT",
    "VA-PLAY-RANK-CHANGES-SUIT",
    "VA-TURN-NEXT-PLAYER",
    "VA-TURN-CLOCKWISE",
)
def test_VA_PLAY_MATCH_RANK_OR_SUIT() -> None:
    state = position(turn="P1", pile=["9H"], hands=hands(P1="9S 3C 4H", P2="10S", P3="2D", P4="3D"))
    assert "VA-PLAY-MATCH-RANK-OR-SUIT" in refused(state, action="play", cards=["3C"])
    after, cited = act(state, action="play", cards=["9S"])
    assert after.turn == 1 and {"VA-PLAY-RANK-CHANGES-SUIT", "VA-TURN-NEXT-PLAYER"} <= cited
    act(state, action="play", cards=["4H"])


@pytest.mark.clause("VA-PLAY-SEVERAL-SAME-RANK")
def test_VA_PLAY_SEVERAL_SAME_RANK() -> None:
    state = position(
        turn="P2", pile=["9D"], hands=hands(P1="2S", P2="9S 9C 2D 5H", P3="4C", P4="3D")
    )
    after, cited = act(state, action="play", cards=["9S", "9C"])
    assert after.pile[-1].code == "9C" and "VA-PLAY-SEVERAL-SAME-RANK" in cited
    other = position(
        turn="P2", pile=["5H"], hands=hands(P1="2S", P2="9H 9S 9C 2D", P3="4C", P4="3D")
    )
    assert "VA-PLAY-SEVERAL-SAME-RANK" in refused(other, action="play", cards=["9H", "9S"])


@pytest.mark.clause("VA-ACE-SAME-SUIT")
def test_VA_ACE_SAME_SUIT() -> None:
    state = position(turn="P1", pile=["9S"], hands=hands(P1="AH AS 3C", P2="2D", P3="4C", P4="3D"))
    assert "VA-ACE-SAME-SUIT" in refused(state, action="play", cards=["AH"])
    on_ace = position(turn="P1", pile=["AS"], hands=hands(P1="AD 3C", P2="2D", P3="4C", P4="3D"))
    assert "VA-ACE-SAME-SUIT" in refused(on_ace, action="play", cards=["AD"])


@pytest.mark.clause("VA-ACE-OTHERS-DRAW", "VA-ACE-SAME-PLAYER-AGAIN", "VA-ACE-FOLLOW-ACE-SUIT")
def test_VA_ACE_OTHERS_DRAW() -> None:
    state = position(
        turn="P2",
        pile=["9S"],
        stock=["2C", "3C", "4C"],
        hands=hands(P1="2S", P2="AS 5S 5H", P3="4D", P4="3D"),
    )
    after, cited = act(state, action="play", cards=["AS"])
    assert [len(h) for h in after.hands] == [2, 2, 2, 2] and after.turn == 1
    assert {"VA-ACE-OTHERS-DRAW", "VA-ACE-SAME-PLAYER-AGAIN"} <= cited
    assert "VA-ACE-FOLLOW-ACE-SUIT" in refused(after, action="play", cards=["5H"])
    done, _ = act(after, action="play", cards=["5S"])
    assert done.turn == 2


@pytest.mark.clause("VA-TURN-RESTART-FALLBACK")
def test_VA_TURN_RESTART_FALLBACK() -> None:
    state = position(
        turn="P2",
        pile=["AS"],
        restart="ace",
        stock=["2C", "3C", "4C"],
        hands=hands(P1="2S", P2="3D KC", P3="4D", P4="3H"),
    )
    for _ in range(3):
        state, cited = act(state, action="draw")
    assert "VA-TURN-RESTART-FALLBACK" in cited
    state, _ = act(state, action="pass")
    assert state.turn == 2 and state.pile[-1].code == "AS"


@pytest.mark.clause(
    "VA-EIGHT-WHEN-STUCK",
    "VA-EIGHT-BY-CHOICE",
    "VA-EIGHT-TURNS-PILE",
    "VA-EIGHT-NAMES-SUIT",
    "VA-EIGHT-SAME-PLAYER-RESTARTS",
    "VA-EIGHT-LEAD-NAMED-SUIT",
)
def test_VA_EIGHT_TURNS_PILE() -> None:
    state = position(
        turn="P3", pile=["9S", "10S"], hands=hands(P1="2S", P2="3S", P3="8C JD 5S", P4="4H")
    )
    after, cited = act(state, action="play", cards=["8C"], suit="D")  # by choice: 5S would fit
    assert after.pile == () and after.turned[-1].code == "8C" and after.turn == 2
    assert {
        "VA-EIGHT-TURNS-PILE",
        "VA-EIGHT-NAMES-SUIT",
        "VA-EIGHT-SAME-PLAYER-RESTARTS",
        "VA-EIGHT-BY-CHOICE",
    } <= cited
    assert "VA-EIGHT-LEAD-NAMED-SUIT" in refused(after, action="play", cards=["5S"])
    led, cited = act(after, action="play", cards=["JD"])
    assert led.turn == 3 and "VA-EIGHT-LEAD-NAMED-SUIT" in cited
    stuck = position(turn="P3", pile=["10S"], hands=hands(P1="2S", P2="3S", P3="8C 4H KC", P4="4D"))
    assert "VA-EIGHT-WHEN-STUCK" in refused(stuck, action="draw")


@pytest.mark.clause(
    "VA-DRAW-WHEN-STUCK", "VA-DRAW-MAX-THREE", "VA-DRAW-PLAY-DRAWN", "VA-DRAW-PASS-AFTER-THREE"
)
def test_VA_DRAW_WHEN_STUCK() -> None:
    base = {"turn": "P4", "pile": ["JD"], "hands": hands(P1="2S", P2="3S", P3="4S", P4="4H 6S")}
    state = position(**base, stock=["5D", "2C", "3C", "4C"])  # type: ignore[arg-type]
    state, cited = act(state, action="draw")
    assert "VA-DRAW-WHEN-STUCK" in cited
    assert "VA-DRAW-PLAY-DRAWN" in refused(state, action="pass")
    assert "VA-DRAW-WHEN-STUCK" in refused(state, action="draw")
    useless = position(**base, stock=["2C", "3C", "4C", "5C"])  # type: ignore[arg-type]
    for _ in range(3):
        useless, _ = act(useless, action="draw")
    assert "VA-DRAW-MAX-THREE" in refused(useless, action="draw")
    passed, cited = act(useless, action="pass")
    assert passed.turn == 0 and passed.pile[-1].code == "JD" and "VA-DRAW-PASS-AFTER-THREE" in cited
    playable = position(turn="P1", pile=["9H"], hands=hands(P1="9S", P2="3S", P3="4S", P4="5S"))
    assert "VA-DRAW-WHEN-STUCK" in refused(playable, action="draw")


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD")
def test_VA_DRAW_STOCK_REBUILD() -> None:
    hands_: dict[str, list[str]] = {"P1": ["9H"], "P2": []}
    data = {
        "players": ["P1", "P2"],
        "turn": "P1",
        "pile": ["2C", "3C", "4C", "5C"],
        "hands": hands_,
    }
    full = GAME.position_from_data(data, VANDATTA)
    hands_["P2"] = [c.code for c in reversed(full.stock)]  # the stock is empty
    state = GAME.position_from_data(data, VANDATTA)
    assert state.stock == ()
    after, cited = act(state, action="draw")
    assert "VA-DRAW-STOCK-REBUILD" in cited and after.pile[-1].code == "5C"
    assert len(after.stock) == 2 and len(after.hands[0]) == 2


@pytest.mark.clause("VA-WIN-BLOCKED-DEAL-VOID")
def test_VA_WIN_BLOCKED_DEAL_VOID() -> None:
    from regelverk.cards import french_deck

    dead = [c.code for c in french_deck() if c.suit.value == "C" or c.rank in (2, 8)]
    live = [c.code for c in french_deck() if c.code not in dead]
    data = {
        "players": ["P1", "P2"],
        "turn": "P1",
        "pile": ["2C"],
        "dealer": "P2",
        "hands": {"P1": live[:15], "P2": live[15:]},
        "turned": [c for c in dead if c != "2C"],
    }
    state = GAME.position_from_data(data, with_options(VANDATTA, {"empty_stock": "no-rebuild"}))
    assert GAME.problems(state) == () and state.stock == ()
    state, _ = act(state, action="pass")
    state, cited = act(state, action="pass")
    assert state.phase is Phase.DEAL_OVER and state.winner is None
    assert "VA-WIN-BLOCKED-DEAL-VOID" in cited and state.record.points == (0, 0)


@pytest.mark.clause(
    "VA-CALL-VARNING",
    "VA-CALL-VARNING-AGREED-COUNT",
    "VA-CALL-VARNING-USUAL-THREE",
    "VA-CALL-VARNING-ENFORCED",
)
def test_VA_CALL_VARNING() -> None:
    assert VANDATTA.varning_cards == 3
    state = position(
        turn="P1", pile=["9H"], hands=hands(P1="9S 3C 4C 5C", P2="2D", P3="4D", P4="3D")
    )
    _, cited = act(state, action="play", cards=["9S"])
    assert {"VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED"} <= cited
    two = position(
        {"varning_cards": 2},
        turn="P1",
        pile=["9H"],
        hands=hands(P1="9S 3C 4C 5C", P2="2D", P3="4D", P4="3D"),
    )
    outcome = GAME.apply(two, GAME.action_from_data({"action": "play", "cards": ["9S"]}, two))
    assert not any(e.kind == "varning" for e in outcome.events)  # three cards: none is due
    turn = next(e for e in outcome.events if e.kind == "turn")
    assert "VA-CALL-VARNING-AGREED-COUNT" in turn.clauses  # the agreed count decided that
    assert "VA-CALL-VARNING-ENFORCED" not in {c for e in outcome.events for c in e.clauses}


@pytest.mark.clause(
    "VA-CALL-LAPPEN",
    "VA-CALL-LAPPEN-MANDATORY",
    "VA-CALL-LAPPEN-ENFORCED",
    "VA-WIN-OUT-AFTER-LAPPEN",
)
def test_VA_CALL_LAPPEN() -> None:
    state = position(turn="P1", pile=["9H"], hands=hands(P1="9S 6C", P2="2D", P3="4D", P4="3D"))
    after, cited = act(state, action="play", cards=["9S"])
    assert after.calls == {0} and {"VA-CALL-LAPPEN", "VA-CALL-LAPPEN-ENFORCED"} <= cited
    eight = position(turn="P1", pile=["9H"], hands=hands(P1="9S 8C", P2="2D", P3="4D", P4="3D"))
    assert act(eight, action="play", cards=["9S"])[0].calls == frozenset()
    back = position(
        turn="P1", pile=["KC"], calls=["P1"], hands=hands(P1="6C", P2="2D", P3="4D", P4="3D")
    )
    won, cited = act(back, action="play", cards=["6C"])
    assert won.winner == 0 and "VA-WIN-OUT-AFTER-LAPPEN" in cited


@pytest.mark.clause("VA-PENALTY-LAPPEN-FAILED")
def test_VA_PENALTY_LAPPEN_FAILED() -> None:
    state = position(
        turn="P1",
        pile=["9H"],
        calls=["P1"],
        stock=["2S", "3S", "4S"],
        hands=hands(P1="6C", P2="2D", P3="4D", P4="3D"),
    )
    after, cited = act(state, action="draw")
    assert len(after.hands[0]) == 4 and after.turn == 1 and after.calls == frozenset()
    assert "VA-PENALTY-LAPPEN-FAILED" in cited


@pytest.mark.clause("VA-WIN-NOT-ON-ACE-OR-EIGHT")
def test_VA_WIN_NOT_ON_ACE_OR_EIGHT() -> None:
    state = position(turn="P1", pile=["9H"], hands=hands(P1="AH", P2="2D", P3="4D", P4="3D"))
    assert "VA-WIN-NOT-ON-ACE-OR-EIGHT" in refused(state, action="play", cards=["AH"])
    eight = position(turn="P1", pile=["9H"], hands=hands(P1="8H", P2="2D", P3="4D", P4="3D"))
    assert "VA-WIN-NOT-ON-ACE-OR-EIGHT" in refused(eight, action="play", cards=["8H"], suit="C")


@pytest.mark.clause(
    "VA-WIN-FIRST-EMPTY-HAND",
    "VA-WIN-DEAL-OVER",
    "VA-TURN-PLAY-UNTIL-OUT",
    "VA-SCORING-OPTIONAL",
    "VA-SCORING-WINNER-ZERO",
    "VA-SCORING-OTHERS-COUNT",
    "VA-SCORING-TEN",
    "VA-SCORING-ACE",
    "VA-SCORING-COURT",
    "VA-SCORING-EIGHT",
    "VA-SCORING-OTHER",
    "VA-SESSION-NEXT-DEALER",
)
def test_VA_WIN_FIRST_EMPTY_HAND() -> None:
    state = position(
        turn="P2", dealer="P4", pile=["9H"], hands=hands(P1="10S AC", P2="9S", P3="KD 8C", P4="3D")
    )
    after, cited = act(state, action="play", cards=["9S"])
    assert after.phase is Phase.DEAL_OVER and after.winner == 1
    assert after.record.points == (25, 0, 35, 5)
    assert after.dealer == 0  # the deal passes to the left of P4
    assert {"VA-WIN-FIRST-EMPTY-HAND", "VA-SCORING-WINNER-ZERO", "VA-SESSION-NEXT-DEALER"} <= cited


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SESSION-NOBODY-ALONE")
def test_VA_SCORING_GAME_WINNER() -> None:
    record = {"points": {"P1": 90, "P2": 40, "P3": 95, "P4": 99}, "deals": 3}
    state = position(
        turn="P2", pile=["9H"], record=record, hands=hands(P1="10S", P2="9S", P3="KD", P4="3D")
    )
    after, cited = act(state, action="play", cards=["9S"])
    assert after.phase is Phase.MATCH_OVER and after.record.champions == (1,)
    assert after.record.out == {0, 2, 3} and "VA-SCORING-GAME-WINNER" in cited
    blocked = position(
        {"blocked_deal": "count-hands", "empty_stock": "no-rebuild"},
        turn="P1",
        pile=["9H"],
        record=record,
        hands=hands(P1="KS", P2="KC QC JC 10C 2C 3C 4C 5C 6C 7C", P3="3S", P4="4S"),
    )
    blocked = GAME.position_from_data(
        {**GAME.position_to_data(blocked), "stock": [], "turned": [c.code for c in blocked.stock]},
        blocked.options,
    )
    for _ in range(4):
        blocked, cited = act(blocked, action="pass")
    assert blocked.phase is Phase.MATCH_OVER and "VA-SESSION-NOBODY-ALONE" in cited
    assert blocked.record.champions == (0, 2)


@pytest.mark.clause("VA-CALL-VARNING", "VA-CALL-LAPPEN", "VA-CALL-VARNING-ENFORCED")
def test_a_call_that_is_not_due_names_the_varning_readings() -> None:
    question = json.loads((EXAMPLES / "varning-not-due.json").read_text(encoding="utf-8"))
    answer = ask(question)
    assert not answer["allowed"]
    assert "he keeps 4" in answer["message"] and "exactly 3 cards" in answer["message"]
    assert "referee calls it for him" in answer["message"]
    readings = {(r["option"], r["reading"]): r["summary"] for r in answer["readings"]}
    assert "no more than 3 cards" in readings["varning_trigger", "at-or-below"]
    own = ask({**question, "options": {"varning_omission": "three-cards"}})
    assert not own["allowed"] and "referee calls it" not in own["message"]
