"""001's worked example (VA-EX-NINE-OF-HEARTS) replayed move by move with the model's verdicts.

The text leaves most cards unknown; the hands below fill them in so that every stated fact holds
(P2 has 10♠ and no nine; P3 has an eight, no ten and no spade; P4 has nothing to lay on J♦).
The ace step breaks 001's own ace rule: by the register's default (VA-AMB-EXAMPLE-ACE-OFF-SUIT,
``ace_off_suit = "forbidden"``) it is refused; the rest is replayed with ``"allowed"``.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, with_options
from regelverk.registry import default_registry
from regelverk.vandatta import GAME, VANDATTA, VandattaOptions
from regelverk.vandatta.state import State

REGISTRY = default_registry()
EXAMPLE = next(e for e in REGISTRY.rulebook("vandatta").examples if e.id == "VA-EX-NINE-OF-HEARTS")
HANDS = {
    "P1": ["9S", "3C", "4C", "5C", "6C", "7C", "KC"],
    "P2": ["10S", "2D", "3D", "4D", "5D", "6D", "7D"],
    "P3": ["8C", "JD", "2H", "3H", "5H", "6H", "7H"],
    "P4": ["4H", "2S", "3S", "4S", "5S", "6S", "7S"],
}
ORDER = ["P1", "P2", "P3", "P4"]
DEALT = [HANDS[p][k] for k in range(7) for p in ORDER]
STOCK_TOP = [*DEALT, "9H", "2C", "AH", "KH", "QS", "QH"]


def ready(options: VandattaOptions) -> State:
    """The position before the deal: the cards lie so that the deal gives the hands above."""
    data = {"players": ORDER, "phase": "ready", "deal": 0, "dealer": "P4", "stock": STOCK_TOP}
    return GAME.position_from_data(data, options)


def step(state: State, data: dict[str, Any]) -> tuple[State, set[str]]:
    outcome = GAME.apply(state, GAME.action_from_data(data, state))
    assert GAME.problems(outcome.state) == ()
    return outcome.state, {c for e in outcome.events for c in e.clauses}


def replay_to_ace(options: VandattaOptions) -> tuple[State, set[str]]:
    state, cited = ready(options), set()
    for data in (
        {"action": "deal"},
        {"action": "play", "cards": ["9S"]},
        {"action": "play", "cards": ["10S"]},
        {"action": "play", "cards": ["8C"], "suit": "D"},
        {"action": "play", "cards": ["JD"]},
        {"action": "draw"},
        {"action": "draw"},
    ):
        state, new = step(state, data)
        cited |= new
    return state, cited


@pytest.mark.clause(*dict.fromkeys(c for s in EXAMPLE.steps for c in s.clauses))
def test_VA_EX_NINE_OF_HEARTS_replayed_move_by_move() -> None:
    state, cited = replay_to_ace(VANDATTA)
    assert [c.code for c in state.hands[3]][-2:] == ["2C", "AH"]
    assert state.pile[-1].code == "JD" and state.turned[-1].code == "8C"
    for entry in EXAMPLE.steps[:-3]:
        assert set(entry.clauses) <= cited, entry.says
    # the ace step: per-register, refused by default
    ace_step = EXAMPLE.steps[-3]
    assert (
        ace_step.verdict == "per-register" and ace_step.ambiguity == "VA-AMB-EXAMPLE-ACE-OFF-SUIT"
    )
    ace = GAME.action_from_data({"action": "play", "cards": ["AH"]}, state)
    with pytest.raises(IllegalActionError) as refused:
        GAME.apply(state, ace)
    assert "VA-ACE-SAME-SUIT" in refused.value.clauses
    # by default P4, still unable to lay, draws his third card instead
    third, _ = step(state, {"action": "draw"})
    assert third.draws == 3


@pytest.mark.clause("VA-ACE-OTHERS-DRAW", "VA-ACE-SAME-PLAYER-AGAIN", "VA-ACE-FOLLOW-ACE-SUIT")
def test_VA_EX_NINE_OF_HEARTS_ace_step_under_the_examples_reading() -> None:
    options = with_options(VANDATTA, {"ace_off_suit": "allowed"})
    state, _ = replay_to_ace(options)
    state, cited = step(state, {"action": "play", "cards": ["AH"]})
    ace_step, draw_step, heart_step = EXAMPLE.steps[-3:]
    assert set(ace_step.clauses) | set(draw_step.clauses) <= cited
    assert [len(h) for h in state.hands] == [7, 7, 6, 8]  # P1-P3 drew one each
    with pytest.raises(IllegalActionError, match="heart"):
        GAME.apply(state, GAME.action_from_data({"action": "play", "cards": ["4S"]}, state))
    state, cited = step(state, {"action": "play", "cards": ["4H"]})
    assert set(heart_step.clauses) <= cited
    assert state.turn == 0 and state.pile[-1].code == "4H"


def test_the_ace_step_is_adjudicated_with_both_readings() -> None:
    from regelverk.referee import ask

    state, _ = replay_to_ace(VANDATTA)
    answer = ask(
        {
            "rulebook": "vandatta",
            "position": GAME.position_to_data(state),
            "action": {"action": "play", "cards": ["AH"]},
        }
    )
    assert answer["allowed"] is False and "VA-ACE-SAME-SUIT" in answer["clauses"]
    readings = {
        r["reading"]: r["allowed"]
        for r in answer["readings"]
        if r["ambiguity"] == "VA-AMB-EXAMPLE-ACE-OFF-SUIT"
    }
    assert readings == {"forbidden": False, "allowed": True}
