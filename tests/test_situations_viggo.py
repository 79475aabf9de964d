"""Viggo: situations at the edges of the rules, built as deals or positions and played out.

Each verdict comes from text 003 and the clauses of spec/viggo.toml. Seats are P1..P4 in turn
order (to the left); in a new game P1 is first hand and the seat before him deals.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import Card
from regelverk.engine import IllegalActionError, Outcome, PositionError, with_options
from regelverk.registry import default_registry
from regelverk.viggo import GAME, Pass, Phase, Play, ViggoOptions, ViggoState
from regelverk.viggo.state import ViggoAction

NAMES = ("P1", "P2", "P3", "P4")
REGISTRY = default_registry()
CLAUSE_IDS = frozenset(c.id for c in REGISTRY.clauses())
FOUR_CLUBS = Card.parse("4C")
PASS = Pass()


def opts(**overrides: Any) -> ViggoOptions:
    return with_options(GAME.options("viggo"), overrides)


def pos(
    hands: dict[str, str],
    *,
    turn: str = "P1",
    players: int = 4,
    extra: dict[str, Any] | None = None,
    **overrides: Any,
) -> ViggoState:
    data: dict[str, Any] = {
        "players": list(NAMES[:players]),
        "turn": turn,
        "hands": {name: cards.split() for name, cards in hands.items()},
        **(extra or {}),
    }
    state = GAME.position_from_data(data, opts(**overrides))
    assert GAME.problems(state) == ()
    return state


def ok(state: ViggoState, action: ViggoAction) -> Outcome[ViggoState]:
    """Apply an action both paths allow: ``check`` passes and ``legal_actions`` lists it."""
    GAME.check(state, action)
    assert action in GAME.legal_actions(state), action
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    for event in outcome.events:
        assert set(event.clauses) <= CLAUSE_IDS, event
    return outcome


def play(text: str) -> Play:
    return Play.of(text, None)


def holder(state: ViggoState) -> int | None:
    """The seat holding the 4♣, or ``None`` when it is out of play."""
    for seat, hand in enumerate(state.hands):
        if FOUR_CLUBS in hand:
            return seat
    return None


def deal_with_four_of_clubs(options: ViggoOptions, players: int, seat: int | None) -> ViggoState:
    """The first seeded deal (of the first 200 seeds) in which ``seat`` holds the 4♣ (``None``:
    it is out of play)."""
    for seed in range(200):
        state = GAME.deal(options, NAMES[:players], seed)
        if holder(state) == seat:
            return state
    raise AssertionError(f"no seed of 200 puts the 4C with seat {seat}")  # pragma: no cover


# --- Who leads with three players under the club-four rule ---------------------------------


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS", "VG-PLAY-FIRST-HAND-LEADS-FREE")
@pytest.mark.parametrize("seat", [1, 2, None])
def test_VG_VAR_CLUB_FOUR_STARTS_three_players_first_hand_leads(seat: int | None) -> None:
    """The house rule names four players: with three, first hand (P1) opens, wherever the 4♣
    is, in a hand or among the thirteen cards out of play (VG-AMB-CLUB-FOUR-SCOPE)."""
    state = deal_with_four_of_clubs(opts(club_four_starts=True), 3, seat)
    assert state.phase is Phase.PLAY and state.first_hand == 0
    assert state.turn == 0


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS", "VG-PLAY-FIRST-HAND-LEADS-FREE")
@pytest.mark.parametrize("deal", ["seventeen-each-one-aside", "deal-all-uneven"])
def test_VG_VAR_CLUB_FOUR_STARTS_three_players_other_deals_first_hand_leads(deal: str) -> None:
    options = opts(club_four_starts=True, three_player_deal=deal)
    state = deal_with_four_of_clubs(options, 3, 2)
    assert state.turn == 0


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS")
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_VG_VAR_CLUB_FOUR_STARTS_four_players_holder_leads(seat: int) -> None:
    state = deal_with_four_of_clubs(opts(club_four_starts=True), 4, seat)
    assert state.turn == seat


@pytest.mark.clause("VG-PLAY-FIRST-HAND-LEADS-FREE", "VG-SETUP-FIRST-DEALER")
@pytest.mark.parametrize(("seat", "leads"), [(1, 1), (2, 2), (None, 0)])
def test_VG_PLAY_FIRST_HAND_LEADS_FREE_club_four_holder_reading_three_players(
    seat: int | None, leads: int
) -> None:
    """Under first_leader = club-four-holder (VG-AMB-FIRST-ROUND-LEADER) the 4♣ holder opens
    the first round at any table; when it is out of play the seat after the dealer opens."""
    state = deal_with_four_of_clubs(opts(first_leader="club-four-holder"), 3, seat)
    assert state.turn == leads


def _round_two(players: int, seed: int = 0, **overrides: Any) -> ViggoState:
    """P1 goes out with his last card in round 1; the next round is dealt (by ``seed``)."""
    hands = {"P1": "AS", "P2": "5C 5D", "P3": "6C 6D", "P4": "7C 7D"}
    hands = {p: h for p, h in hands.items() if p in NAMES[:players]}
    start = pos(hands, players=players, extra={"seed": seed}, **overrides)
    state = ok(start, play("AS")).state
    assert state.round == 2 and state.phase is Phase.PLAY
    return state


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS", "VG-TURN-WINNER-LEADS-NEXT-ROUND")
def test_VG_VAR_CLUB_FOUR_STARTS_later_rounds() -> None:
    """At four players the 4♣ holder opens round 2 by default (every-round), the winner under
    first-round-only; at three players the winner opens round 2 either way."""
    every = _round_two(4, club_four_starts=True)
    assert holder(every) not in (0, None)  # the deal tells the readings apart
    assert every.turn == holder(every)
    only_first = _round_two(4, club_four_starts=True, club_four_scope="first-round-only")
    assert only_first.turn == 0 and holder(only_first) == holder(every)
    threes = [_round_two(3, seed, club_four_starts=True) for seed in range(12)]
    assert {holder(s) for s in threes} >= {1, 2, None}  # every place the 4C can be
    assert all(s.turn == 0 for s in threes)


# --- The game's end at 53 ------------------------------------------------------------------


def _round_end(scores: dict[str, int], **overrides: Any) -> ViggoState:
    """P1 leads his last card; P2, P3, P4 are left with 4, 6 and 2 cards."""
    hands = {"P1": "AS", "P2": "4C 4D 5C 5D", "P3": "6C 6D 7C 7D 8C 8D", "P4": "9C 9D"}
    return ok(pos(hands, extra={"scores": scores}, **overrides), play("AS")).state


@pytest.mark.clause("VG-LOSS-FIRST-TO-53", "VG-SCORE-POINT-PER-CARD")
@pytest.mark.parametrize(
    ("before", "total", "over"), [(48, 52, False), (49, 53, True), (50, 54, True)]
)
def test_VG_LOSS_FIRST_TO_53_at_below_and_above(before: int, total: int, over: bool) -> None:
    state = _round_end({"P2": before})
    assert state.scores[1] == total
    assert (state.phase is Phase.OVER) is over
    assert state.losers == ((1,) if over else ())
    assert (GAME.legal_actions(state) == ()) is over


@pytest.mark.clause("VG-LOSS-FIRST-TO-53")
@pytest.mark.parametrize(("before", "over"), [(48, False), (49, True), (50, False)])
def test_VG_LOSS_FIRST_TO_53_exactly_reading(before: int, over: bool) -> None:
    """Under loss_threshold_rule = exactly (VG-AMB-LOSS-THRESHOLD) only 53 itself loses."""
    state = _round_end({"P2": before}, loss_threshold_rule="exactly")
    assert (state.phase is Phase.OVER) is over


@pytest.mark.clause("VG-LOSS-FIRST-TO-53", "VG-LOSS-TIE-HIGHEST-TOTAL")
def test_VG_LOSS_TIE_HIGHEST_TOTAL_two_reach_53_exactly_together() -> None:
    """P2 (49 + 4) and P4 (51 + 2) both reach exactly 53: equal totals lose together."""
    state = _round_end({"P2": 49, "P4": 51})
    assert state.scores == (0, 53, 6, 53)
    assert state.phase is Phase.OVER and state.losers == (1, 3)


@pytest.mark.clause("VG-LOSS-FIRST-TO-53")
@pytest.mark.parametrize(("before", "over"), [(15, False), (16, True)])
def test_VG_LOSS_FIRST_TO_53_a_chosen_limit_is_met_exactly(before: int, over: bool) -> None:
    """The losing total is an option (loss_points); reaching it exactly loses."""
    state = _round_end({"P2": before}, loss_points=20)
    assert (state.phase is Phase.OVER) is over


# --- More boundaries ----------------------------------------------------------------------


@pytest.mark.clause("VG-SETUP-TWO-TO-FOUR-PLAYERS")
def test_VG_SETUP_TWO_TO_FOUR_PLAYERS_bounds() -> None:
    for count in (2, 4):
        assert GAME.deal(GAME.options("viggo"), NAMES[:count], 0).count == count
    for names in (("P1",), (*NAMES, "P5")):
        with pytest.raises(PositionError, match="VG-SETUP-TWO-TO-FOUR-PLAYERS"):
            GAME.deal(GAME.options("viggo"), names, 0)


@pytest.mark.clause("VG-SEQ-NO-WRAP-COMPARE-TOP", "VG-COMBO-SEQUENCE-OF-FIVE")
def test_VG_SEQ_NO_WRAP_COMPARE_TOP_lowest_and_highest_runs() -> None:
    """4-5-6-7-8 is the lowest run and Q-K-A-2-3 the highest; K-A-2-3-4 is no run."""
    state = pos(
        {"P1": "4C 5D 6H 7S 8C 2S", "P2": "QC KD AH 2D 3C 9S", "P3": "KC AD 2H 3D 4D 10S"},
        players=3,
    )
    led = ok(state, play("4C 5D 6H 7S 8C")).state
    topped = ok(led, play("QC KD AH 2D 3C")).state
    with pytest.raises(IllegalActionError):
        GAME.check(topped, play("KC AD 2H 3D 4D"))
    assert all(not (isinstance(a, Play) and len(a.cards) == 5) for a in GAME.legal_actions(topped))


@pytest.mark.clause("VG-WIN-ROUND-ENDS-AT-FIRST-OUT", "VG-SCORE-POINT-PER-CARD")
def test_VG_WIN_ROUND_ENDS_AT_FIRST_OUT_on_a_reply() -> None:
    """P2 answers with his last card, a pair: the round ends at once, without the passes that
    would close the trick, and each other player scores a point per card left."""
    state = pos({"P1": "5C 5D 9H", "P2": "8C 8D", "P3": "6C 6D 10H", "P4": "7C"}, players=4)
    led = ok(state, play("5C 5D")).state
    out = ok(led, play("8C 8D"))
    assert out.state.round == 2 and out.state.scores == (1, 0, 3, 1)


@pytest.mark.clause("VG-PLAY-NEXT-LEAD-AFTER-HIGHEST", "VG-PLAY-TRICK-SET-ASIDE")
def test_VG_PLAY_NEXT_LEAD_AFTER_HIGHEST_two_players() -> None:
    """With two players one pass ends the trick, and the player after the highest, the one who
    passed, leads the next."""
    state = pos({"P1": "9C 5D", "P2": "6C 7D"}, players=2)
    led = ok(state, play("9C")).state
    assert led.player == "P2"
    after = ok(led, PASS).state
    assert after.trick == () and after.player == "P2"


@pytest.mark.clause("VG-PLAY-NEXT-LEAD-AFTER-HIGHEST", "VG-PLAY-TRICK-SET-ASIDE")
def test_VG_PLAY_NEXT_LEAD_AFTER_HIGHEST_wraps_past_the_last_seat() -> None:
    """P4 laid highest and the three others pass: P1, the seat after P4, leads."""
    state = pos({"P1": "5C 9D", "P2": "6C 9H", "P3": "7C 9S", "P4": "8C 10D"}, players=4, turn="P4")
    led = ok(state, play("8C")).state
    for _ in range(3):
        led = ok(led, PASS).state
    assert led.trick == () and led.player == "P1"


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS", "VG-DRAFT-NO-DEAL-TWO-PLAYERS")
def test_VG_VAR_CLUB_FOUR_STARTS_two_players_after_the_draft() -> None:
    """Two players draft their hands; the club-four rule names four players, so first hand
    (P1) opens even when P2 drafted the 4♣; under first_leader = club-four-holder P2 opens."""

    def drafted(options: ViggoOptions) -> ViggoState:
        for seed in range(40):
            state = GAME.deal(options, NAMES[:2], seed)
            while state.phase is Phase.DRAFT:
                state = ok(state, GAME.legal_actions(state)[0]).state
            if holder(state) == 1:
                return state
        raise AssertionError("no seed of 40 drafts the 4C to P2")  # pragma: no cover

    assert drafted(opts(club_four_starts=True)).turn == 0
    assert drafted(opts(first_leader="club-four-holder")).turn == 1
