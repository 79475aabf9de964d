"""Scenario tests for readings found on a second reading of text 001 (vandatta): each builds its
register entry's own situation and states the outcome under the reading and under the
register's default.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import Card
from regelverk.engine import IllegalActionError, with_options
from regelverk.vandatta import GAME, VANDATTA
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import Deal, Draw, Pass, Phase, Play, State


def options(base: VandattaOptions, **values: Any) -> VandattaOptions:
    return with_options(base, values)


def build(data: dict[str, Any], table: VandattaOptions) -> State:
    state = GAME.position_from_data(data, table)
    assert GAME.problems(state) == ()
    return state


def apply(state: State, action: Any) -> tuple[State, set[str], list[str]]:
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    clauses = {c for e in outcome.events for c in e.clauses}
    return outcome.state, clauses, [e.kind for e in outcome.events]


def refusal(state: State, action: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as error:
        GAME.apply(state, action)
    return error.value


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


# --- VA-AMB-START-ACE-TAKE --------------------------------------------------------------------


def start_ace_deal(table: VandattaOptions) -> State:
    """Four players, P4 deals: the start card is A♣; P1 holds K♣ and six hearts."""
    players = ["P1", "P2", "P3", "P4"]
    hands = {
        "P1": "KC 2H 3H 4H 5H 6H 7H",
        "P2": "2D 3D 4D 5D 6D 7D 9D",
        "P3": "2S 3S 4S 5S 6S 7S 9S",
        "P4": "7C 9H 10H JH QH KH 10D",
    }
    dealt = [hands[p].split()[k] for k in range(7) for p in players]
    data = {
        "players": players,
        "phase": "ready",
        "deal": 0,
        "dealer": "P4",
        "stock": [*dealt, "AC", "JD", "QD", "KD", "10S"],
    }
    return apply(build(data, table), Deal())[0]


@pytest.mark.clause("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON", "VA-TURN-FIRST-PLAYER")
def test_the_extra_card_for_a_start_ace_is_compulsory_or_may_be_declined() -> None:
    forced = start_ace_deal(VANDATTA)
    assert forced.phase is Phase.PLAY and [len(h) for h in forced.hands] == [8, 8, 8, 8]
    after, _, _ = apply(forced, Play(player=0, cards=cards("KC")))
    assert len(after.hands[0]) == 7

    table = options(VANDATTA, start_ace_take="may-decline")
    offered = start_ace_deal(table)
    assert offered.phase is Phase.START_ACE and offered.turn == 0
    assert set(GAME.legal_actions(offered)) == {Draw(player=0), Pass(player=0)}
    refused = refusal(offered, Play(player=0, cards=cards("KC")))
    assert "VA-START-ACE-PLAY-ON" in refused.clauses
    assert "VA-START-ACE-ALL-DRAW" in refusal(offered, Draw(player=1)).clauses
    stock = len(offered.stock)
    state, clauses, _ = apply(offered, Pass(player=0))  # P1 declines
    assert state.turn == 1 and len(state.hands[0]) == 7 and len(state.stock) == stock
    assert "VA-START-ACE-ALL-DRAW" in clauses
    for seat in (1, 2, 3):  # the others take theirs
        state, clauses, _ = apply(state, Draw(player=seat))
    assert [len(h) for h in state.hands] == [7, 8, 8, 8] and len(state.stock) == stock - 3
    assert state.phase is Phase.PLAY and state.turn == 0 and "VA-START-ACE-PLAY-ON" in clauses
    assert state.top == Card.parse("AC")
    after, _, _ = apply(state, Play(player=0, cards=cards("KC")))
    assert len(after.hands[0]) == 6 and after.turn == 1


# --- VA-AMB-EIGHT-ON-OWN-ACE ------------------------------------------------------------------


def own_ace(table: VandattaOptions) -> State:
    """9♥ on top; P2 holds A♥, 5♥, 8♣ and K♠, lays A♥ and the others draw."""
    data = {
        "players": ["P1", "P2", "P3", "P4"],
        "dealer": "P4",
        "turn": "P2",
        "hands": {
            "P1": ["2C", "3C", "4C"],
            "P2": ["AH", "5H", "8C", "KS"],
            "P3": ["2D", "3D", "4D"],
            "P4": ["2S", "3S", "4S"],
        },
        "pile": ["9H"],
    }
    state, _, _ = apply(build(data, table), Play(player=1, cards=cards("AH")))
    assert state.turn == 1 and [len(h) for h in state.hands] == [4, 3, 4, 4]
    return state


@pytest.mark.clause("VA-ACE-FOLLOW-ACE-SUIT", "VA-EIGHT-BY-CHOICE", "VA-ACE-SAME-PLAYER-AGAIN")
def test_an_eight_by_choice_on_ones_own_ace_is_allowed_or_waits_for_the_aces_suit() -> None:
    free = own_ace(VANDATTA)
    eight = Play(player=1, cards=cards("8C"), suit=Card.parse("KS").suit)
    assert eight in GAME.legal_actions(free)
    turned, _, _ = apply(free, eight)
    out, _, _ = apply(turned, Play(player=1, cards=cards("KS"), call=True))
    assert out.hands[1] == cards("5H") and 1 in out.calls

    strict = own_ace(options(VANDATTA, eight_on_own_ace="only-without-suit"))
    assert eight not in GAME.legal_actions(strict)
    assert "VA-ACE-FOLLOW-ACE-SUIT" in refusal(strict, eight).clauses
    after, _, _ = apply(strict, Play(player=1, cards=cards("5H")))
    assert after.hands[1] == cards("8C KS") and after.turn == 2


# --- VA-AMB-POINTS-OR-ONE-DEAL ----------------------------------------------------------------


def last_card(table: VandattaOptions) -> State:
    """P2, who called LAPPEN, is about to go out on 5♥; P1 holds 40 points, P3 25, P4 60."""
    data = {
        "players": ["P1", "P2", "P3", "P4"],
        "dealer": "P4",
        "turn": "P2",
        "calls": ["P2"],
        "hands": {
            "P1": ["KC", "QC", "JD", "10S"],
            "P2": ["5H"],
            "P3": ["KD", "2S", "3S", "4D"],
            "P4": ["8C", "8D", "QS"],
        },
        "pile": ["9H"],
    }
    return build(data, table)


@pytest.mark.clause("VA-SCORING-OPTIONAL", "VA-WIN-OUT-AFTER-LAPPEN", "VA-SCORING-GAME-WINNER")
def test_the_first_deal_won_ends_a_game_not_played_for_points() -> None:
    scored, _, _ = apply(last_card(VANDATTA), Play(player=1, cards=cards("5H")))
    assert scored.phase is Phase.DEAL_OVER and scored.winner == 1
    assert scored.record.points == (40, 0, 25, 60) and not scored.record.champions
    assert GAME.legal_actions(scored) == (Deal(),)

    one = options(VANDATTA, game_end="single-deal")
    ended, clauses, kinds = apply(last_card(one), Play(player=1, cards=cards("5H")))
    assert ended.phase is Phase.MATCH_OVER and ended.record.champions == (1,)
    assert set(ended.record.points) <= {0} and "match-over" in kinds
    assert "VA-SCORING-OPTIONAL" in clauses and GAME.is_over(ended)
