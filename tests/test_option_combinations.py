"""Engine bugs found by playing whole option combinations (the covering-array soak and the state
machines drawing whole options objects), each pinned by the situation that showed it."""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.state import Join, Play, State

PLAYERS = ["Ann", "Bo", "Cy"]
STOCK = ["2S", "3S", "4S", "5S", "6S", "10S", "JS", "QS", "9D"]


def _vvv8(options: dict[str, Any], **fields: Any) -> State:
    data: dict[str, Any] = {"players": PLAYERS, "stock": STOCK, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options))
    assert GAME.problems(state) == ()
    return state


@pytest.mark.clause(
    "V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT"
)
def test_a_late_joiner_seated_before_a_false_caller_leaves_the_false_call_with_him() -> None:
    """false_call_detection = when-revealed: Ann's false utgång waits to be caught; Dag sits
    down at seat 0, so Ann moves to seat 1, and the waiting false call moves with her (it used
    to stay at seat 0, now Dag's, who never called)."""
    state = _vvv8(
        {"false_call_detection": "when-revealed", "late_joiner_second_deck": "add-deck"},
        hands={"Ann": ["5C", "5H", "6H"], "Bo": ["2C", "KD"], "Cy": ["3C", "KC"]},
        pile=["5D"],
    )
    noted = GAME.attempt(state, Play(player=0, cards=(state.hands[0][0],), call=True)).state
    assert noted.false_calls == {0}
    joined = GAME.attempt(noted, Join(name="Dag", seat=0))
    assert joined.allowed, joined.events
    after = joined.state
    assert after.players[1] == "Ann"
    assert after.false_calls == {1}
    assert GAME.problems(after) == ()
    caught = GAME.attempt(
        after,
        GAME.action_from_data({"action": "reveal-call", "player": "Bo", "caller": "Ann"}, after),
    )
    assert caught.allowed and "V8-PEN-FALSE-CALL-CAUGHT" in caught.clauses
    assert caught.state.false_calls == frozenset()
