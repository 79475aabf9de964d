"""UNO: situations at the edges of the rules, built as positions and played one action at a time.

Each verdict comes from text 004 or the official rules the clause names, never from what the
engine happens to do. Players sit in the order given, the first one dealt, and play goes up the
list (to the left) unless a test says otherwise. Cards in the draw pile are listed top first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from regelverk.cards import Colour, UnoCard
from regelverk.engine import IllegalActionError, Outcome, with_options
from regelverk.registry import default_registry
from regelverk.uno import GAME, Catch, Challenge, Draw, Phase, Play, UnoOptions, UnoState
from regelverk.uno.rules import deck_for
from regelverk.uno.scenario import position
from regelverk.uno.state import Action

REGISTRY = default_registry()
CLAUSE_IDS = frozenset(c.id for c in REGISTRY.clauses())
OPTIONS = GAME.options("uno")
C = UnoCard.parse
NAMES = ("Anna", "Bo", "Cia", "Dan", "Eva", "Finn", "Gun", "Hugo", "Ida", "Jon")
OPPONENT_PLAYS = {"two_player_draw_cards": "opponent-plays"}


def opts(**changes: Any) -> UnoOptions:
    return with_options(OPTIONS, changes)


def apply(state: UnoState, action: Action) -> Outcome[UnoState]:
    """Apply ``action`` after ``check`` allowed it and ``legal_actions`` listed it; the new state
    must break no invariant and every event must cite clauses that exist."""
    GAME.check(state, action)
    assert action in GAME.legal_actions(state), action
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    for event in outcome.events:
        assert event.clauses and set(event.clauses) <= CLAUSE_IDS, event
    return outcome


def cited(outcome: Outcome[UnoState]) -> set[str]:
    return {c for e in outcome.events for c in e.clauses}


def table(
    hands: list[str],
    *,
    discard: str = "R3",
    options: UnoOptions = OPTIONS,
    top: str | None = None,
    **extra: Any,
) -> UnoState:
    """A position with ``len(hands)`` players from :data:`NAMES`, Anna dealt and in turn; with
    ``top``, those cards lie on top of the draw pile (top first) and the rest of the pack below."""
    named = dict(zip(NAMES, hands, strict=False))
    extra.setdefault("turn", "Anna")
    if top is not None:
        extra["draw_pile"] = [*top.split(), *_rest_of_pack(hands, discard, top, options)]
    return position(named, discard=discard, options=options, **extra)


def _rest_of_pack(hands: list[str], discard: str, top: str, options: UnoOptions) -> list[str]:
    rest = Counter(c.code for c in deck_for(options))
    rest.subtract(" ".join([*hands, discard, top]).split())
    assert min(rest.values()) >= 0, rest
    return sorted(rest.elements())


OTHERS = ("B1 B2", "Y1 Y2", "Y3 Y4", "B5 B6", "B7 B8", "G5 G6", "G7 G8", "Y5 Y6", "Y7 Y8")
"""Hands for the players after Anna: no card of one is in another."""


def size(state: UnoState, name: str) -> int:
    return len(state.hands[state.players.index(name)])


def turn(state: UnoState) -> str:
    return state.players[state.turn]


# --- A Draw Two or Wild Draw Four at three players and more ---------------------------------


@pytest.mark.clause("UNO-DRAW-TWO-EFFECT", "UNO-TWO-PLAYER-DRAW-CARDS")
@pytest.mark.parametrize("players", [3, 4, 5, 10])
def test_UNO_DRAW_TWO_EFFECT_victim_loses_turn_beyond_two_players_under_opponent_plays(
    players: int,
) -> None:
    """opponent-plays is a reading of the two-player game only: with three players or more the
    Draw Two's victim draws two and loses his turn, and the player after him plays."""
    hands = ["R+2 G2", *OTHERS[: players - 1]]
    state = table(hands, options=opts(**OPPONENT_PLAYS))
    out = apply(state, Play(player="Anna", card=C("R+2")))
    assert size(out.state, "Bo") == 4
    assert turn(out.state) == "Cia"
    assert "UNO-TWO-PLAYER-DRAW-CARDS" not in cited(out)
    assert "UNO-DRAW-TWO-EFFECT" in cited(out)


@pytest.mark.clause("UNO-DRAW-TWO-EFFECT", "UNO-TURN-DIRECTION")
def test_UNO_DRAW_TWO_EFFECT_victim_on_the_right_after_a_reverse_under_opponent_plays() -> None:
    """Play going to the right: the victim is the player on the right, and the one after him
    (two seats to the right) plays next."""
    state = table(
        ["R+2 G2", "B1 B2", "Y1 Y2", "Y3 Y4"],
        options=opts(**OPPONENT_PLAYS),
        direction="right",
    )
    out = apply(state, Play(player="Anna", card=C("R+2")))
    assert size(out.state, "Dan") == 4 and turn(out.state) == "Cia"


@pytest.mark.clause("UNO-WD4-EFFECT", "UNO-TWO-PLAYER-DRAW-CARDS")
@pytest.mark.parametrize("players", [3, 4])
def test_UNO_WD4_EFFECT_victim_loses_turn_beyond_two_players_under_opponent_plays(
    players: int,
) -> None:
    hands = ["W+4 G2", *OTHERS[: players - 1]]
    state = table(hands, options=opts(**OPPONENT_PLAYS))
    hit = apply(state, Play(player="Anna", card=C("W+4"), colour=Colour.GREEN)).state
    assert hit.phase is Phase.CHALLENGE and turn(hit) == "Bo"
    out = apply(hit, Draw(player="Bo"))
    assert size(out.state, "Bo") == 6 and turn(out.state) == "Cia"
    assert "UNO-TWO-PLAYER-DRAW-CARDS" not in cited(out)


@pytest.mark.clause("UNO-DRAW-TWO-EFFECT", "UNO-TWO-PLAYER-DRAW-CARDS")
def test_UNO_TWO_PLAYER_DRAW_CARDS_the_reading_decides_only_at_two() -> None:
    """At two players the same Draw Two gives the turn back to its player by default, and to
    the victim under opponent-plays (UNO-AMB-TWO-PLAYER-DRAW-CARDS)."""
    default = apply(table(["R+2 G2", "B1 B2"]), Play(player="Anna", card=C("R+2")))
    assert turn(default.state) == "Anna" and size(default.state, "Bo") == 4
    other = table(["R+2 G2", "B1 B2"], options=opts(**OPPONENT_PLAYS))
    out = apply(other, Play(player="Anna", card=C("R+2")))
    assert turn(out.state) == "Bo" and size(out.state, "Bo") == 4


# --- Going out on a stacked Draw Two --------------------------------------------------------


def _stacked(**changes: Any) -> UnoState:
    """Anna has laid a Draw Two; Bo owes two and holds one Draw Two, his last card."""
    state = table(
        ["R+2 G2", "B+2", "Y1 Y2", "Y3 Y4"],
        options=opts(stack_draw_two=True, **changes),
        top="R5 R2 R7 R8 G9",
    )
    out = apply(state, Play(player="Anna", card=C("R+2")))
    assert out.state.phase is Phase.STACK and turn(out.state) == "Bo"
    assert out.state.pending_draw == 2
    return out.state


@pytest.mark.clause("UNO-VARIANT-STACKING", "UNO-WIN-LAST-CARD-DRAW", "UNO-WIN-HAND-GO-OUT")
def test_UNO_VARIANT_STACKING_going_out_on_a_stacked_draw_two_makes_the_next_draw_all() -> None:
    """Bo passes the two on with his last card: he has gone out, and Cia draws all four owed
    (the two passed on and his own two); by the official rule those cards count for Bo."""
    owed = _stacked()
    out = apply(owed, Play(player="Bo", card=C("B+2")))
    assert out.state.hand_number == 2
    left = 2 + 1 + 2 + 3 + 4  # face values (UNO-SCORE-NUMBER-FACE)
    drawn = 5 + 2 + 7 + 8
    assert out.state.results[-1] == (0, left + drawn, 0, 0)
    assert {"UNO-WIN-LAST-CARD-DRAW", "UNO-WIN-HAND-GO-OUT"} <= cited(out)
    draws = [e for e in out.events if e.kind == "draw"]
    assert [e.cards for e in draws] == [("R5", "R2", "R7", "R8")]
    assert draws[0].player == "Cia"


@pytest.mark.clause("UNO-VARIANT-STACKING", "UNO-WIN-HAND-GO-OUT")
def test_UNO_VARIANT_STACKING_going_out_on_a_stacked_draw_two_ends_at_once_by_option() -> None:
    """Under hand-ends-at-once (UNO-AMB-LAST-CARD-DRAW) nobody draws the four: the hand ends
    when Bo's last card lands and he scores only what the others hold."""
    owed = _stacked(last_card_draw="hand-ends-at-once")
    out = apply(owed, Play(player="Bo", card=C("B+2")))
    left = 2 + 1 + 2 + 3 + 4  # face values (UNO-SCORE-NUMBER-FACE)
    assert out.state.results[-1] == (0, left, 0, 0)
    assert not [e for e in out.events if e.kind == "draw" and e.player == "Cia"]


@pytest.mark.clause("UNO-VARIANT-STACKING", "UNO-DRAW-TWO-EFFECT")
def test_UNO_VARIANT_STACKING_drawing_the_stack_loses_the_turn_under_opponent_plays() -> None:
    """At four players a victim who draws the stack loses his turn whatever the two-player
    reading says."""
    owed = _stacked(**OPPONENT_PLAYS)
    out = apply(owed, Draw(player="Bo"))
    assert size(out.state, "Bo") == 3 and turn(out.state) == "Cia"


# --- The game's end at its target -----------------------------------------------------------

# Anna goes out with R5 on R3; Bo, Cia and Dan keep 1+2, 1+2 and 3+4: 13 points.
LEFT_OVER = 13


def _last_hand(anna: int, *, target: int | None = None, **changes: Any) -> UnoState:
    options = opts(**changes) if target is None else opts(target_score=target, **changes)
    state = table(
        ["R5", "B1 B2", "Y1 Y2", "Y3 Y4"], options=options, scores={"Anna": anna, "Bo": 20}
    )
    return apply(state, Play(player="Anna", card=C("R5"))).state


@pytest.mark.clause("UNO-WIN-GAME-500", "UNO-SCORE-WINNER-COLLECTS")
def test_UNO_WIN_GAME_500_exactly_500_ends_the_game() -> None:
    over = _last_hand(500 - LEFT_OVER)
    assert over.scores[0] == 500
    assert over.phase is Phase.GAME_OVER and over.winners == (0,)
    assert GAME.legal_actions(over) == ()


@pytest.mark.clause("UNO-WIN-GAME-500")
def test_UNO_WIN_GAME_500_one_point_short_deals_again() -> None:
    going = _last_hand(499 - LEFT_OVER)
    assert going.scores[0] == 499
    assert going.phase is not Phase.GAME_OVER and going.winners == ()
    assert going.hand_number == 2 and GAME.legal_actions(going)


@pytest.mark.clause("UNO-WIN-GAME-500")
def test_UNO_WIN_GAME_500_one_point_over_ends_the_game() -> None:
    over = _last_hand(501 - LEFT_OVER)
    assert over.scores[0] == 501 and over.winners == (0,)
    assert over.phase is Phase.GAME_OVER


@pytest.mark.clause("UNO-WIN-GAME-500")
@pytest.mark.parametrize(("before", "over"), [(86, False), (87, True), (88, True)])
def test_UNO_WIN_GAME_500_a_chosen_target_is_met_exactly(before: int, over: bool) -> None:
    """The target is an option (target_score); reaching it exactly ends the game."""
    state = _last_hand(before, target=100)
    assert (state.phase is Phase.GAME_OVER) is over
    assert state.winners == ((0,) if over else ())


@pytest.mark.clause("UNO-WIN-GAME-500", "UNO-WIN-LAST-CARD-DRAW")
def test_UNO_WIN_GAME_500_reached_exactly_by_the_cards_a_last_draw_two_makes_drawn() -> None:
    """Anna goes out on a Draw Two: Bo's two drawn cards (5 and 2) count, and they bring her
    from 480 to exactly 500."""
    state = table(["R+2", "B1 B2", "Y1 Y2", "Y3 Y4"], scores={"Anna": 480}, top="R5 R2 G9 G8")
    over = apply(state, Play(player="Anna", card=C("R+2"))).state
    assert over.scores[0] == 480 + LEFT_OVER + 7 == 500
    assert over.phase is Phase.GAME_OVER and over.winners == (0,)
    short = table(["R+2", "B1 B2", "Y1 Y2", "Y3 Y4"], scores={"Anna": 480}, top="R5 R1 G9 G8")
    going = apply(short, Play(player="Anna", card=C("R+2"))).state
    assert going.scores[0] == 499 and going.phase is not Phase.GAME_OVER


@pytest.mark.clause("UNO-WIN-GAME-500")
@pytest.mark.parametrize(("bo", "over"), [(496, False), (497, True), (498, True)])
def test_UNO_WIN_GAME_500_holder_tally_ends_when_a_tally_reaches_500(bo: int, over: bool) -> None:
    """Under holder-tally (UNO-AMB-WHO-SCORES-LEFTOVERS) Bo adds his own 3 points: at exactly
    500 the game ends and the lowest tally wins."""
    state = table(
        ["R5", "B1 B2", "Y1 Y2", "Y3 Y4"],
        options=opts(scoring="holder-tally"),
        scores={"Bo": bo, "Cia": 40, "Dan": 30},
        results=[[0, bo, 40, 30]],
    )
    after = apply(state, Play(player="Anna", card=C("R5"))).state
    assert after.scores == (0, bo + 3, 43, 37)
    assert (after.phase is Phase.GAME_OVER) is over
    assert after.winners == ((0,) if over else ())


# --- More boundaries: seats, piles and the last card ---------------------------------------


@pytest.mark.clause("UNO-SETUP-PLAYERS", "UNO-TURN-DIRECTION", "UNO-SKIP-EFFECT")
def test_UNO_SKIP_EFFECT_at_ten_players_wraps_past_the_first_seat() -> None:
    """With the largest table (ten players) Jon, in the last seat, skips Anna: Bo plays."""
    state = table(["G1 G2", *OTHERS[:8], "RS Y9"], turn="Jon")
    out = apply(state, Play(player="Jon", card=C("RS")))
    assert turn(out.state) == "Bo"


@pytest.mark.clause("UNO-SETUP-PLAYERS")
def test_UNO_SETUP_PLAYERS_two_to_ten() -> None:
    """One player, or eleven, is no game of UNO; two and ten are."""
    for count in (2, 10):
        assert len(GAME.deal(OPTIONS, NAMES[:count], seed=1).players) == count
    for names in (NAMES[:1], (*NAMES, "Kim")):
        with pytest.raises(ValueError, match="UNO-SETUP-PLAYERS"):
            GAME.deal(OPTIONS, names, seed=1)


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD", "UNO-DRAW-TWO-EFFECT")
def test_UNO_DRAW_PILE_REBUILD_mid_draw_two() -> None:
    """One card left in the draw pile and a Draw Two to draw: the victim takes it, the discard
    pile below its top card becomes the new draw pile, and he takes the second card from it."""
    hands = ["R+2 G2", "B1 B2", "Y1 Y2"]
    below = _rest_of_pack(hands, "R3", "B9", OPTIONS)
    discard = " ".join([*below, "R3"])
    state = table(hands, discard=discard, draw_pile=["B9"])
    out = apply(state, Play(player="Anna", card=C("R+2")))
    bo = out.state.hands[1]
    assert len(bo) == 4 and bo[2] == C("B9")
    assert bo[3].code in {*below, "R3"}
    assert out.state.discard == (C("R+2"),) and "UNO-DRAW-PILE-REBUILD" in cited(out)
    assert len(out.state.draw_pile) == len(below) + 1 - 1
    assert turn(out.state) == "Cia"


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-TWO-EFFECT")
def test_UNO_PILES_EXHAUSTED_NO_DRAW_the_rest_of_a_draw_two_lapses() -> None:
    """Nothing to draw at all (only the Draw Two on the discard pile): the victim draws what
    there is, nothing, and still loses his turn."""
    cia = " ".join(_rest_of_pack(["R+2 G2", "B1 B2"], "R3", "", OPTIONS))
    state = table(["R+2 G2", "B1 B2", cia], discard="R3", draw_pile=[])
    out = apply(state, Play(player="Anna", card=C("R+2")))
    assert size(out.state, "Bo") == 3 and turn(out.state) == "Cia"
    assert "UNO-PILES-EXHAUSTED-NO-DRAW" in cited(out)


@pytest.mark.clause("UNO-CALL-UNO")
def test_UNO_CALL_UNO_only_with_the_next_to_last_card() -> None:
    """The call goes with the card that leaves one: with three cards it is refused, with two it
    is heard."""
    three = table(["R5 G2 G3", "B1 B2", "Y1 Y2"])
    with pytest.raises(IllegalActionError) as caught:
        GAME.check(three, Play(player="Anna", card=C("R5"), uno=True))
    assert "UNO-CALL-UNO" in caught.value.clauses
    two = table(["R5 G2", "B1 B2", "Y1 Y2"])
    out = apply(two, Play(player="Anna", card=C("R5"), uno=True))
    assert out.state.exposed is None and any(e.kind == "uno" for e in out.events)


@pytest.mark.clause("UNO-WD4-EFFECT", "UNO-WIN-LAST-CARD-DRAW", "UNO-WD4-CHALLENGE-WHEN")
def test_UNO_WIN_LAST_CARD_DRAW_last_wild_draw_four_at_three_players_under_opponent_plays() -> None:
    """Anna goes out on a Wild Draw Four at three players: Bo draws four (his challenge could only
    fail: she held nothing else) and the four count for Anna; the hand is over."""
    state = table(["W+4", "B1 B2", "Y1 Y2"], options=opts(**OPPONENT_PLAYS), top="R5 R2 R7 R8 G9")
    hit = apply(state, Play(player="Anna", card=C("W+4"), colour=Colour.RED)).state
    assert hit.phase is Phase.CHALLENGE and turn(hit) == "Bo"
    out = apply(hit, Draw(player="Bo"))
    assert out.state.hand_number == 2
    assert out.state.results[-1][0] == 1 + 2 + 1 + 2 + 5 + 2 + 7 + 8
    failed = apply(hit, Challenge(player="Bo"))
    assert failed.state.hand_number == 2 and failed.state.results[-1][0] > 1 + 2 + 1 + 2


@pytest.mark.clause("UNO-WIN-LAST-CARD-DRAW", "UNO-TWO-PLAYER-DRAW-CARDS", "UNO-WD4-EFFECT")
def test_UNO_WIN_LAST_CARD_DRAW_last_wild_draw_four_at_two_players() -> None:
    """Two players: Anna goes out on a Wild Draw Four. Bo draws the four (9, 8, 7, 6), which
    count with his 1 and 2 for Anna: 33. Had he challenged, the challenge fails (she held no
    other card) and he draws six, the two more being 5 and 20 (a Draw Two): 58."""
    state = table(["W+4", "B1 B2"], top="R9 R8 R7 R6 G5 G+2")
    hit = apply(state, Play(player="Anna", card=C("W+4"), colour=Colour.RED)).state
    assert hit.phase is Phase.CHALLENGE and turn(hit) == "Bo"
    drew = apply(hit, Draw(player="Bo")).state
    assert drew.results[-1] == (1 + 2 + 9 + 8 + 7 + 6, 0) and drew.hand_number == 2
    failed = apply(hit, Challenge(player="Bo")).state
    assert failed.results[-1] == (1 + 2 + 9 + 8 + 7 + 6 + 5 + 20, 0)


@pytest.mark.clause("UNO-VARIANT-STACKING", "UNO-TWO-PLAYER-DRAW-CARDS")
def test_UNO_VARIANT_STACKING_two_players_drawing_the_stack() -> None:
    """Two players, stacking on: Anna lays a Draw Two, Bo passes it on with his own, Anna draws
    all four and loses her turn, so Bo plays again; under opponent-plays Anna plays after
    drawing."""
    for changes, next_player in (({}, "Bo"), (OPPONENT_PLAYS, "Anna")):
        state = table(["R+2 G2 G3", "B+2 B1 B2"], options=opts(stack_draw_two=True, **changes))
        state = apply(state, Play(player="Anna", card=C("R+2"))).state
        state = apply(state, Play(player="Bo", card=C("B+2"))).state
        assert state.phase is Phase.STACK and state.pending_draw == 4 and turn(state) == "Anna"
        after = apply(state, Draw(player="Anna")).state
        assert size(after, "Anna") == 6 and turn(after) == next_player


@pytest.mark.clause("UNO-CALL-PENALTY", "UNO-SKIP-EFFECT", "UNO-DRAW-TWO-EFFECT")
@pytest.mark.parametrize("card", ["RS", "R+2"])
def test_UNO_CALL_PENALTY_window_after_a_skip_or_draw_two(card: str) -> None:
    """Anna lays her next-to-last card, a Skip or a Draw Two, without calling UNO. Bo loses his
    turn, so he never begins one: the next player to begin a turn is Cia, and until she does,
    anyone may catch Anna (two cards); once Cia has played, it is too late."""
    state = table([f"{card} G2", "B1 B2", "R1 Y2", "Y3 Y4"])
    hit = apply(state, Play(player="Anna", card=C(card))).state
    assert turn(hit) == "Cia" and hit.exposed == 0
    caught = apply(hit, Catch(player="Dan", target="Anna")).state
    assert size(caught, "Anna") == 3
    late = apply(hit, Play(player="Cia", card=C("R1"))).state
    with pytest.raises(IllegalActionError) as error:
        GAME.check(late, Catch(player="Dan", target="Anna"))
    assert "UNO-CALL-PENALTY" in error.value.clauses
