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


@pytest.mark.clause(
    "VA-SESSION-NOBODY-ALONE", "V8-SCORING-WIN-LOSS-TALLY", "VA-SCORING-GAME-WINNER"
)
def test_a_deal_cancelled_because_nobody_is_left_below_the_limit_has_no_official_result() -> None:
    """nobody_alone = replay-deal with a win-and-loss tally (loser_rule = seat-before) and card
    points: Cy, already at the limit (play-on), goes out; Ann and Bo both reach it, so the deal
    is cancelled and replayed between them.
    The tally's win for Cy and loss for Bo went with it only in part: the points were taken back
    but the official result stayed, recorded for a deal that never counted."""
    options = {
        "loser_rule": "seat-before",
        "nobody_alone": "replay-deal",
        "over_limit": "play-on",
        "score_limit": 20,
    }
    data: dict[str, Any] = {
        "players": PLAYERS,
        "stock": STOCK,
        "hands": {"Ann": ["KD", "QD"], "Bo": ["KH", "QH"], "Cy": ["9C"]},
        "pile": ["9H"],
        "turn": "Cy",
        "record": {"deals": 1, "points": {"Ann": 5, "Bo": 5, "Cy": 20}},
    }
    from regelverk.vandatta import VANDATTA

    state = GAME.position_from_data(data, with_options(VANDATTA, options))
    assert GAME.problems(state) == ()
    outcome = GAME.apply(state, Play(player=2, cards=(state.hands[2][0],)))
    kinds = [event.kind for event in outcome.events]
    assert "tally" in kinds and "replay" in kinds
    record = outcome.state.record
    assert record.official == 0 and record.wins == (0, 0, 0) and record.losses == (0, 0, 0)
    assert record.points == (5, 5, 20) and record.out == {2}
    assert GAME.problems(outcome.state) == ()


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-SCORING-WIN-LOSS-TALLY")
def test_step_problems_names_an_official_result_the_rules_do_not_give() -> None:
    """The laws of one step: an official result needs enough active players and gives one win
    to the winner and one loss to another player."""
    import dataclasses

    from regelverk.vandatta.invariants import step_problems
    from regelverk.vandatta.state import Phase

    before = _vvv8({}, hands={"Ann": ["5C"], "Bo": ["2C", "KD"], "Cy": ["3C", "KC"]}, pile=["5D"])
    record = dataclasses.replace(before.record, official=1, wins=(1, 0, 0), losses=(0, 0, 1))
    good = dataclasses.replace(
        before, phase=Phase.DEAL_OVER, winner=0, loser=2, record=record, active_at_start=3
    )
    assert step_problems(before, good) == ()
    away = dataclasses.replace(before, away=frozenset({1}))
    assert any("fewer than 3" in p for p in step_problems(away, good))
    same = dataclasses.replace(good, loser=0)
    assert step_problems(before, same) == (
        "an official result without a winner and a different loser",
    )
    wrong = dataclasses.replace(good, loser=1)
    assert any("loss went elsewhere" in p for p in step_problems(before, wrong))


@pytest.mark.clause("VG-WIN-GAME-LOSER-ONLY", "VG-LOSS-FIRST-TO-53")
def test_under_exactly_the_limit_the_loser_with_the_lowest_total_does_not_also_win() -> None:
    """loss_threshold_rule = exactly with game_winner = lowest-total-wins: P1 lands on exactly
    10 and loses; P2 and P3 have passed 10 without landing on it. The lowest total, P1's, used
    to win as well; the win goes to the lowest total among those who did not lose."""
    import dataclasses

    from regelverk.viggo import GAME as VIGGO
    from regelverk.viggo.rounds import game_winners

    options = with_options(
        VIGGO.options("viggo"),
        {"loss_points": 10, "loss_threshold_rule": "exactly", "game_winner": "lowest-total-wins"},
    )
    assert game_winners(options, (10, 14, 12), (0,)) == (2,)
    assert game_winners(options, (10, 12, 12), (0,)) == (1, 2)
    start = VIGGO.deal(options, ["P1", "P2", "P3"], 0)
    over = dataclasses.replace(
        start,
        phase=type(start.phase).OVER,
        scores=(10, 14, 12),
        history=((10, 14, 12),),
        losers=(0,),
        winners=(0,),
    )
    assert "P1 both won and lost the game" in VIGGO.problems(over)
    assert not any(
        "won and lost" in p for p in VIGGO.problems(dataclasses.replace(over, winners=(2,)))
    )
