"""Engine bugs found by playing whole option combinations (the covering-array soak and the state
machines drawing whole options objects), each pinned by the situation that showed it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from regelverk.cards import Card, french_deck
from regelverk.engine import with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.state import (
    Draw,
    ExtraCard,
    Join,
    LookBack,
    Phase,
    Play,
    Remark,
    RemarkKind,
    State,
)

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


# --- engine bugs the vvv8 table machine's paths_agree invariant found ---------------------

TABLE_HANDS = {"Ann": ["9H", "5C"], "Bo": ["AH", "3C"], "Cy": ["4D", "6D"], "Di": ["JC", "2C"]}
TABLE_STOCK = ["9S", "3S", "4S", "5S", "6S", "7S", "10S", "JS", "QS", "KS"]
NINE = Card.parse("9H")
"""Ann's 9H, which fits the KH on the pile."""


def _table(
    players: int,
    overrides: dict[str, Any],
    hands: dict[str, list[str]] | None = None,
    **fields: Any,
) -> State:
    """The first ``players`` of Ann, Bo, Cy and Di at a vvv8 table under ``overrides``, KH on
    the pile, Ann to play; ``hands`` replaces some of their hands, ``fields`` other fields of
    the position."""
    names = list(TABLE_HANDS)[:players]
    data: dict[str, Any] = {
        "players": names,
        "hands": {name: TABLE_HANDS[name] for name in names} | (hands or {}),
        "stock": TABLE_STOCK,
        "pile": ["KH"],
        **fields,
    }
    state = GAME.position_from_data(data, with_options(GAME.options("vvv8"), overrides))
    assert GAME.problems(state) == ()
    return state


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT", "V8-CALL-TIMING", "V8-CALL-VALID-NEXT-TURN-ONLY")
def test_V8_PEN_FALSE_CALL_CAUGHT_a_void_call_beside_a_standing_one() -> None:
    """false_call_detection = when-revealed: Ann's utgång from her last turn stands as her turn
    comes, and she draws saying utgång again, out of time. The new call is void and waits to be
    caught, as it would cost her three cards at once under as-made detection; her standing
    call still holds for this turn. Both end with her turn, as she lays 9H."""
    state = _table(3, {"false_call_detection": "when-revealed"}, calls=["Ann"])
    ruling = GAME.attempt(state, Draw(player=0, call=True))
    assert not ruling.allowed and "V8-PEN-FALSE-CALL-CAUGHT" in ruling.clauses
    drew = ruling.state
    assert drew.calls == {0} and drew.false_calls == {0}
    assert GAME.problems(drew) == ()
    passed = GAME.attempt(drew, Play(player=0, cards=(NINE,)))
    assert passed.allowed, passed.message
    assert passed.state.calls == frozenset() and passed.state.false_calls == frozenset()
    assert "false-call-lapses" in [e.kind for e in passed.events]
    assert GAME.problems(passed.state) == ()


@pytest.mark.clause("V8-PEN-FALSE-CALL-CAUGHT", "V8-CALL-VALID-NEXT-TURN-ONLY", "VA-CALL-LAPPEN")
def test_V8_CALL_VALID_NEXT_TURN_ONLY_a_false_call_lapses_under_lappen_too() -> None:
    """Under go_out_call = lappen a false call of Ann's waits to be caught as her turn comes;
    she lays 9H, keeping one card, and the engine calls LAPPEN for her. Her turn is over, so the
    false call lapses, never caught, as it does under utgång: a false call is never left
    waiting beside the standing call of a player whose turn it is not."""
    options = {"false_call_detection": "when-revealed", "go_out_call": "lappen"}
    state = _table(3, options, false_calls=["Ann"])
    ruling = GAME.attempt(state, Play(player=0, cards=(NINE,)))
    assert ruling.allowed, ruling.message
    assert "false-call-lapses" in [e.kind for e in ruling.events]
    assert ruling.state.calls == {0} and ruling.state.false_calls == frozenset()
    assert GAME.problems(ruling.state) == ()


@pytest.mark.clause(
    "VA-SCORING-GAME-WINNER",
    "V8-PEN-OVERDRAW-ANY-DRAW",
    "V8-PEN-COMMENT-HISTORY-FORBIDDEN",
    "V8-PEN-LOOK-BACK",
)
@pytest.mark.parametrize(
    "mistake",
    [
        ExtraCard(player=0),
        Remark(player=0, kind=RemarkKind.HISTORY),
        LookBack(player=0, cards=2, latest_play=1),
    ],
    ids=["extra-card", "remark", "look-back"],
)
def test_VA_SCORING_GAME_WINNER_a_player_out_of_the_game_takes_no_penalty_cards(
    mistake: ExtraCard | Remark | LookBack,
) -> None:
    """Ann's total passed the limit of 20 in the first deal, so she is out of the game
    (scoring = card-points, over_limit = eliminated) and holds no cards. Whatever she does at
    the table, she takes no cards: a player out of the game holds none, as ``problems``
    holds."""
    options = {"scoring": "card-points", "over_limit": "eliminated", "score_limit": 20}
    state = _table(
        4,
        options,
        hands={"Ann": []},
        turn="Bo",
        pile=["2H", "3H", "KH"],
        record={"deals": 1, "points": {"Ann": 25}, "out": ["Ann"]},
    )
    ruling = GAME.attempt(state, mistake)
    assert not ruling.allowed and "out of the game" in ruling.message
    assert "VA-SCORING-GAME-WINNER" in ruling.clauses
    assert ruling.state is state, "a player out of the game took cards"
    assert GAME.problems(ruling.state) == ()


@pytest.mark.clause("V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS", "VA-DRAW-WHEN-STUCK")
@pytest.mark.parametrize(
    "hands", [{"Ann": ["8S"]}, {"Ann": ["AH"], "Bo": ["2H", "3C"]}], ids=["eight", "ace"]
)
def test_V8_PEN_LAST_HAND_CARD_WITH_LOCKED_CARDS_a_lone_ace_or_eight_leaves_a_draw(
    hands: dict[str, list[str]],
) -> None:
    """Ann, spelförare on KH, holds only 8S (or AH) and must draw: she may not go out on an
    eight or an ace. Then she draws a card too many, which she keeps face down, locked. Laying
    her card is still a going-out attempt on an eight or an ace (last_hand_card_locked =
    treated-as-going-out), so she cannot lay a card: she must still be able to draw, and
    someone must be able to act."""
    options = {
        "voluntary_draw": "only-when-stuck",
        "last_hand_card_locked": "treated-as-going-out",
    }
    state = _table(3, options, hands=hands)
    assert GAME.legal_actions(state) == (Draw(player=0),)
    ruling = GAME.attempt(state, ExtraCard(player=0))
    locked = ruling.state
    assert locked.penalties[0] and len(locked.hands[0]) == 1
    assert GAME.problems(locked) == ()
    assert GAME.legal_actions(locked) == (Draw(player=0),)
    assert GAME.attempt(locked, Draw(player=0)).allowed


@pytest.mark.clause(
    "V8-TALON-REBUILD-REFERENCE-CARD", "V8-PEN-OUT-OF-TURN", "V8-START-EIGHT-DEALER-NAMES-SUIT"
)
def test_V8_TALON_REBUILD_REFERENCE_CARD_a_card_out_of_turn_over_a_fresh_start_eight() -> None:
    """8D (clubs named) is on top of the pile, which holds every card but the hands and two
    in the talon; it is Bo's turn. Ann lays 5C out of turn: it stays on the pile
    (out_of_turn_card = stands) and she takes three penalty cards, for which the talon is
    rebuilt, 8D kept face up as a fresh start card (rebuild_reference = fresh-start-card).
    The card lies on the pile before the penalty is dealt, so 5C is the card kept face up, a
    plain start card, and Bo plays on it; it used to be rebuilt under 8D, a fresh start eight
    whose suit nobody should name with 5C on top of it."""
    held = {card for name in ("Ann", "Bo", "Cy") for card in TABLE_HANDS[name]}
    talon = ["9S", "3S"]
    pile = [c.code for c in french_deck(1) if c.code not in {*held, *talon, "8D"}]
    options = {"rebuild_reference": "fresh-start-card", "out_of_turn_card": "stands"}
    state = _table(3, options, turn="Bo", pile=[*pile, "8D"], named_suit="C", stock=talon)
    ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("5C"),)))
    assert not ruling.allowed and "V8-PEN-OUT-OF-TURN" in ruling.clauses
    after = ruling.state
    assert after.pile == (Card.parse("5C"),), "the card laid out of turn is the one kept face up"
    assert after.phase is Phase.PLAY and after.named_suit is None
    assert after.players[after.turn] == "Bo"
    assert GAME.problems(after) == ()


@pytest.mark.clause(
    "V8-PEN-OVERDRAW-ANY-DRAW", "V8-TALON-REBUILD-REFERENCE-CARD", "V8-START-ACE-ALL-DRAW"
)
@pytest.mark.parametrize("usable", ["after-exhausting-turn", "at-next-turn-start"])
def test_V8_TALON_REBUILD_REFERENCE_CARD_a_fresh_start_ace_in_the_middle_of_a_penalty(
    usable: str,
) -> None:
    """Bo, spelförare, draws a card too many (10D) and takes three penalty cards
    (overdraw_other_draws = standard-penalty); the talon runs out after two of them and is
    rebuilt under AS, a fresh start card (rebuild_reference = fresh-start-card) and an ace, for
    which every player draws one (a Viggo at the table), Bo too. The penalty's third card comes
    after that. Every card stays in one place, and the card Bo drew for the ace stays in his
    hand (the penalty's cards were taken to be the hand's last three, which doubled one card and
    lost another; found by the table machine)."""
    options = {
        "rebuild_reference": "fresh-start-card",
        "overdraw_other_draws": "standard-penalty",
        "viggo_present": True,
        "penalty_cards_usable": usable,
    }
    held = {card for name in ("Ann", "Bo", "Cy") for card in TABLE_HANDS[name]}
    talon = ["10D", "8S", "QD"]
    below = [c.code for c in french_deck(1) if c.code not in {*held, *talon, "AS"}]
    state = _table(3, options, turn="Bo", pile=[*below, "AS"], stock=talon)
    ruling = GAME.attempt(state, ExtraCard(player=1))
    after = ruling.state
    assert GAME.problems(after) == ()
    kinds = [e.kind for e in ruling.events]
    assert kinds.index("rebuild") < kinds.index("start-ace") < kinds.index("penalty")
    penalty = [Card.parse(code) for e in ruling.events if e.kind == "penalty" for code in e.cards]
    assert penalty[:2] == [Card.parse("8S"), Card.parse("QD")] and len(penalty) == 3
    locked = [c for s in after.penalties[1] for c in s.cards]
    holding = Counter([*after.hands[1], *locked])
    known = Counter([*state.hands[1], Card.parse("10D"), *penalty])
    assert known <= holding and holding.total() == known.total() + 1, "Bo's card for the ace"
    (for_the_ace,) = (holding - known).elements()
    assert for_the_ace in after.hands[1]
