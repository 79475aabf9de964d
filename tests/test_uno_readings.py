"""UNO: the register's entries found on the second reading of text 004, each played out in the
entry's own situation under its default reading and under the other one.

Four players sit Anna (the dealer), Bo, Cia, Dan unless a test says otherwise; play goes to the
left (up the list). Positions are in card notation, the top of the discard pile last.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from regelverk.cards import Colour, UnoCard, UnoValue
from regelverk.engine import IllegalActionError, Outcome, is_allowed, with_options
from regelverk.registry import default_registry
from regelverk.uno import (
    GAME,
    Catch,
    Challenge,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno.position import position_from_data
from regelverk.uno.rules import card_points, hand_points, value_clauses
from regelverk.uno.scenario import position, stacked_deal
from regelverk.uno.state import Action

REGISTRY = default_registry()
CLAUSE_IDS = frozenset(c.id for c in REGISTRY.clauses())
OPTIONS = GAME.options("uno")
C = UnoCard.parse


def opts(**changes: Any) -> UnoOptions:
    return with_options(OPTIONS, changes)


def apply(state: UnoState, action: Action) -> Outcome[UnoState]:
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    for event in outcome.events:
        assert event.clauses and set(event.clauses) <= CLAUSE_IDS, event
    return outcome


def cited(outcome: Outcome[UnoState]) -> set[str]:
    return {c for e in outcome.events for c in e.clauses}


def hand(state: UnoState, name: str) -> tuple[UnoCard, ...]:
    return state.hands[state.players.index(name)]


def turn(state: UnoState) -> str:
    return state.players[state.turn]


def _reading(entry: str, name: str) -> str:
    ambiguity = next(a for a in REGISTRY.rulebook("uno").ambiguities if a.id == entry)
    assert name in {r.name for r in ambiguity.readings}
    return name


# --- UNO-AMB-FIRST-WD4-AS-DEALER-PLAY ----------------------------------------------------------

LAID_BY_DEALER = opts(
    first_wild_draw_four=_reading("UNO-AMB-FIRST-WD4-AS-DEALER-PLAY", "as-dealer-play")
)


@pytest.mark.clause("UNO-FIRST-CARD-WD4-REDRAW")
def test_a_first_wild_draw_four_goes_back_into_the_pack_by_default() -> None:
    out = stacked_deal("W+4", seed=1)
    state = out.state
    assert state.top != C("W+4") and C("W+4") in state.draw_pile
    assert "UNO-FIRST-CARD-WD4-REDRAW" in cited(out)
    assert state.top.value.is_number, "the seed turns up a number card in its place"
    assert len(hand(state, "Bo")) == 7 and turn(state) == "Bo"


@pytest.mark.clause("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-EFFECT", "UNO-WD4-NAME-COLOUR")
def test_a_first_wild_draw_four_laid_by_the_dealer_hits_the_first_player() -> None:
    out = stacked_deal("W+4", options=LAID_BY_DEALER)
    state = out.state
    assert state.discard == (C("W+4"),) and state.colour is None
    assert len(hand(state, "Bo")) == 11
    assert state.phase is Phase.NAME_COLOUR and turn(state) == "Anna"
    assert {"UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-EFFECT"} <= cited(out)
    with pytest.raises(IllegalActionError):
        GAME.check(state, NameColour(player="Bo", colour=Colour.RED))
    named = apply(state, NameColour(player="Anna", colour=Colour.GREEN))
    assert named.state.colour is Colour.GREEN and turn(named.state) == "Cia"
    assert "UNO-WD4-NAME-COLOUR" in cited(named)


@pytest.mark.clause("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-CHALLENGE-WHEN")
def test_a_first_wild_draw_four_laid_by_the_dealer_cannot_be_challenged() -> None:
    state = stacked_deal("W+4", options=LAID_BY_DEALER).state
    assert not any(isinstance(a, Challenge) for a in GAME.legal_actions(state))
    for who in ("Bo", "Cia"):
        with pytest.raises(IllegalActionError) as caught:
            GAME.check(state, Challenge(player=who))
        assert "UNO-FIRST-CARD-AS-DEALER-PLAY" in caught.value.clauses
        assert "counts as having laid it" in str(caught.value)
    named = GAME.apply(state, NameColour(player="Anna", colour=Colour.GREEN)).state
    assert not is_allowed(GAME, named, Challenge(player="Cia"))


@pytest.mark.clause("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-TWO-PLAYER-DRAW-CARDS")
def test_with_two_players_the_dealer_plays_first_after_his_first_wild_draw_four() -> None:
    state = stacked_deal("W+4", players=("Anna", "Bo"), options=LAID_BY_DEALER).state
    assert len(hand(state, "Bo")) == 11 and turn(state) == "Anna"
    named = apply(state, NameColour(player="Anna", colour=Colour.BLUE)).state
    assert turn(named) == "Anna" and named.colour is Colour.BLUE


@pytest.mark.clause("UNO-FIRST-CARD-AS-DEALER-PLAY")
def test_a_position_waiting_for_the_dealers_colour_skips_the_first_player() -> None:
    data = {
        "players": ["Anna", "Bo", "Cia"],
        "hands": {"Anna": ["R1"], "Bo": ["G1", "G2"], "Cia": ["Y1"]},
        "discard": ["W+4"],
        "turn": "Anna",
        "phase": "name-colour",
    }
    state = position_from_data(data, LAID_BY_DEALER)
    assert state.after == 2 and GAME.problems(state) == ()


# --- UNO-AMB-BLANK-WILD-POINTS -----------------------------------------------------------------


def _blank_wild_hand(options: UnoOptions) -> Outcome[UnoState]:
    state = position(
        {"Anna": "R5", "Bo": "WX G3", "Cia": "Y4"},
        discard="R3",
        turn="Anna",
        options=options,
        scores={"Anna": 450},
    )
    return apply(state, Play(player="Anna", card=C("R5")))


@pytest.mark.clause("UNO-SCORE-NEW-WILDS-40", "UNO-BLANK-WILD-PLAIN")
def test_a_blank_wild_left_in_hand_counts_forty_by_default() -> None:
    out = _blank_wild_hand(opts(deck=112))
    assert out.state.scores[0] == 497 and not GAME.is_over(out.state)
    score = next(e for e in out.events if e.kind == "score")
    assert "UNO-SCORE-NEW-WILDS-40" in score.clauses
    assert card_points(C("WX")) == card_points(C("WX"), OPTIONS) == 40


@pytest.mark.clause("UNO-SCORE-WILD-50")
def test_a_blank_wild_left_in_hand_counts_fifty_as_a_wild_card() -> None:
    fifty = opts(deck=112, blank_wild_points=_reading("UNO-AMB-BLANK-WILD-POINTS", "fifty"))
    out = _blank_wild_hand(fifty)
    assert out.state.scores[0] == 507 and GAME.is_over(out.state)
    assert out.state.winners == (0,)
    score = next(e for e in out.events if e.kind == "score")
    assert "UNO-SCORE-WILD-50" in score.clauses
    assert card_points(C("WX"), fifty) == 50 and hand_points([C("WX"), C("WSH")], fifty) == 90
    assert value_clauses(C("WX"), fifty) == ("UNO-SCORE-WILD-50",)
    assert card_points(C("WSH"), fifty) == 40, "Shuffle Hands is no wild card in 004"


# --- UNO-AMB-FAILED-CHALLENGE-COUNT ------------------------------------------------------------


def _failed_challenge(options: UnoOptions) -> Outcome[UnoState]:
    state = position(
        {"Anna": "W+4 B2", "Bo": "G4 Y6 B8 G1 Y2", "Cia": "Y3 Y4"},
        discard="R5",
        turn="Anna",
        options=options,
    )
    laid = apply(state, Play(player="Anna", card=C("W+4"), colour=Colour.BLUE, uno=True))
    return apply(laid.state, Challenge(player="Bo"))


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS")
def test_a_failed_challenger_draws_six_in_all_by_default() -> None:
    out = _failed_challenge(OPTIONS)
    assert len(hand(out.state, "Bo")) == 11 and turn(out.state) == "Cia"
    assert "UNO-WD4-CHALLENGE-FAILED-SIX" in cited(out)


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS")
def test_a_failed_challenger_draws_six_more_besides_the_four() -> None:
    more = opts(failed_challenge_draw=_reading("UNO-AMB-FAILED-CHALLENGE-COUNT", "six-more"))
    out = _failed_challenge(more)
    assert len(hand(out.state, "Bo")) == 15 and turn(out.state) == "Cia"
    drawn = next(e for e in out.events if e.kind == "draw")
    assert len(drawn.cards) == 10


def test_the_new_options_default_to_the_registers_defaults() -> None:
    assert OPTIONS.first_wild_draw_four.value == "redraw"
    assert OPTIONS.blank_wild_points.value == "forty"
    assert OPTIONS.failed_challenge_draw.value == "six-in-all"
    assert UnoValue.BLANK_WILD.is_wild


# --- UNO-AMB-KEEP-DRAWN-CARD -------------------------------------------------------------------


def _drawn_red_eight(options: UnoOptions, drawn: str = "R8", bo: str = "B1 G2") -> UnoState:
    state = position(
        {"Anna": "G5 G6", "Bo": bo, "Cia": "Y3 Y4"}, discard="R5", turn="Bo", options=options
    )
    pile = list(state.draw_pile)
    pile.remove(C(drawn))
    state = dataclasses.replace(state, draw_pile=(C(drawn), *pile))
    after = apply(state, Draw(player="Bo")).state
    assert after.phase is Phase.DRAWN and after.drawn == C(drawn)
    return after


@pytest.mark.clause("UNO-DRAW-PLAY-DRAWN", "UNO-DRAW-TURN-PASSES")
def test_a_drawn_card_that_fits_may_be_kept_by_default() -> None:
    state = _drawn_red_eight(OPTIONS)
    assert Pass(player="Bo") in GAME.legal_actions(state)
    kept = apply(state, Pass(player="Bo")).state
    assert turn(kept) == "Cia" and C("R8") in hand(kept, "Bo") and kept.top == C("R5")


@pytest.mark.clause("UNO-DRAW-PLAY-DRAWN")
def test_a_drawn_card_that_fits_must_be_laid_under_must_lay() -> None:
    must = opts(keep_drawn_card=_reading("UNO-AMB-KEEP-DRAWN-CARD", "must-lay"))
    state = _drawn_red_eight(must)
    assert Pass(player="Bo") not in GAME.legal_actions(state)
    with pytest.raises(IllegalActionError) as caught:
        GAME.check(state, Pass(player="Bo"))
    assert "UNO-DRAW-PLAY-DRAWN" in caught.value.clauses and "must lay it" in str(caught.value)
    laid = apply(state, Play(player="Bo", card=C("R8"))).state
    assert laid.top == C("R8") and turn(laid) == "Cia"


@pytest.mark.clause("UNO-DRAW-PLAY-DRAWN", "UNO-WD4-CONDITION")
def test_under_must_lay_a_drawn_wild_draw_four_the_hand_forbids_may_be_kept() -> None:
    must = opts(keep_drawn_card="must-lay")
    forbidden = _drawn_red_eight(must, drawn="W+4", bo="R1 G2")
    assert is_allowed(GAME, forbidden, Pass(player="Bo"))
    allowed = _drawn_red_eight(must, drawn="W+4", bo="B1 G2")
    assert not is_allowed(GAME, allowed, Pass(player="Bo"))


# --- Found on the second reading and fixed in the engine ----------------------------------------


@pytest.mark.clause("UNO-CALL-PENALTY", "UNO-SHUFFLE-HANDS-NAME-COLOUR")
def test_naming_the_colour_after_shuffle_hands_does_not_end_the_catch_window() -> None:
    """Anna lays Shuffle Hands as her next-to-last card without calling UNO and is dealt one
    card back: her own naming of the colour is no start of Bo's turn, so Cia may still catch
    her until Bo acts."""
    state = position(
        {"Anna": "WSH G1", "Bo": "B1", "Cia": "Y1"},
        discard="R3",
        turn="Anna",
        options=opts(deck=112),
    )
    shuffled = apply(state, Play(player="Anna", card=C("WSH"))).state
    assert len(hand(shuffled, "Anna")) == 1 and shuffled.exposed == 0
    named = apply(shuffled, NameColour(player="Anna", colour=Colour.RED)).state
    assert named.exposed == 0 and turn(named) == "Bo"
    caught = apply(named, Catch(player="Cia", target="Anna")).state
    assert len(hand(caught, "Anna")) == 3


@pytest.mark.clause("UNO-FIRST-CARD-DRAW-TWO", "UNO-TWO-PLAYER-DRAW-CARDS")
def test_a_first_draw_two_skips_the_first_player_even_when_two_players_draw_and_play() -> None:
    other = opts(two_player_draw_cards="opponent-plays")
    state = stacked_deal("B+2", players=("Anna", "Bo"), options=other).state
    assert len(hand(state, "Bo")) == 9 and turn(state) == "Anna"
    laid = two_player_draw_two(other)
    assert turn(laid) == "Bo", "a Draw Two a player lays still lets the opponent play"


def two_player_draw_two(options: UnoOptions) -> UnoState:
    state = position({"Anna": "R+2 R6", "Bo": "B1"}, discard="R3", turn="Anna", options=options)
    return apply(state, Play(player="Anna", card=C("R+2"), uno=True)).state
