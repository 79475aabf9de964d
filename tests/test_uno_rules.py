"""UNO: one scenario per clause of spec/uno.toml, named after the clause id.

Four players sit Anna (the dealer), Bo, Cia, Dan, play going to the left (up the list) unless a
test says otherwise. Positions are written in card notation, the top of the discard pile last.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from regelverk.cards import Colour, UnoCard, UnoValue, parse_uno_cards
from regelverk.engine import IllegalActionError, Outcome, PositionError, is_allowed, with_options
from regelverk.referee import play
from regelverk.registry import default_registry
from regelverk.uno import (
    GAME,
    CallUno,
    Catch,
    Challenge,
    Direction,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno.actions import choose_dealer
from regelverk.uno.rules import card_points, deck_for, value_clauses
from regelverk.uno.scenario import position, stacked_deal
from regelverk.uno.state import Action
from regelverk.uno.table import shuffle

REGISTRY = default_registry()
CLAUSE_IDS = frozenset(c.id for c in REGISTRY.clauses())
OPTIONS = GAME.options("uno")
C = UnoCard.parse
RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


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


def refused(state: UnoState, action: Action, clause: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        GAME.check(state, action)
    assert clause in caught.value.clauses, caught.value
    assert not is_allowed(GAME, state, action)
    return str(caught.value)


def four(
    anna: str = "G1 G2",
    bo: str = "B1 B2",
    cia: str = "Y1 Y2",
    dan: str = "Y3 Y4",
    *,
    discard: str = "R3",
    turn: str = "Anna",
    options: UnoOptions = OPTIONS,
    **extra: Any,
) -> UnoState:
    hands = {"Anna": anna, "Bo": bo, "Cia": cia, "Dan": dan}
    return position(hands, discard=discard, turn=turn, options=options, **extra)


def two(anna: str, bo: str, *, discard: str = "R3", options: UnoOptions = OPTIONS) -> UnoState:
    return position({"Anna": anna, "Bo": bo}, discard=discard, turn="Anna", options=options)


# --- Skip --------------------------------------------------------------------------------------


@pytest.mark.clause("UNO-SKIP-EFFECT")
def test_UNO_SKIP_EFFECT() -> None:
    out = apply(four(anna="RS G2"), Play(player="Anna", card=C("RS")))
    assert turn(out.state) == "Cia" and "UNO-SKIP-EFFECT" in cited(out)


@pytest.mark.clause("UNO-SKIP-WHEN-PLAYABLE")
def test_UNO_SKIP_WHEN_PLAYABLE() -> None:
    assert is_allowed(GAME, four(anna="BS G2", discard="R3 GS"), Play(player="Anna", card=C("BS")))
    assert is_allowed(GAME, four(anna="RS G2", discard="R3"), Play(player="Anna", card=C("RS")))
    refused(four(anna="BS G2", discard="R3"), Play(player="Anna", card=C("BS")), "UNO-PLAY-MATCH")


@pytest.mark.clause("UNO-TWO-PLAYER-SKIP")
def test_UNO_TWO_PLAYER_SKIP() -> None:
    out = apply(two("RS G2", "B1"), Play(player="Anna", card=C("RS")))
    assert turn(out.state) == "Anna" and "UNO-TWO-PLAYER-SKIP" in cited(out)


# --- Reverse -----------------------------------------------------------------------------------


@pytest.mark.clause("UNO-REVERSE-EFFECT", "UNO-TURN-DIRECTION")
def test_UNO_REVERSE_EFFECT() -> None:
    state = four(anna="RR G2", dan="R7 Y4")
    assert state.direction is Direction.LEFT
    out = apply(state, Play(player="Anna", card=C("RR")))
    assert out.state.direction is Direction.RIGHT and turn(out.state) == "Dan"
    out = apply(out.state, Play(player="Dan", card=C("R7")))
    assert turn(out.state) == "Cia"


@pytest.mark.clause("UNO-REVERSE-WHEN-PLAYABLE")
def test_UNO_REVERSE_WHEN_PLAYABLE() -> None:
    assert is_allowed(GAME, four(anna="BR G2", discard="GR"), Play(player="Anna", card=C("BR")))
    strict = opts(action_symbol_match="same-colour-only")
    state = four(anna="BR G2", discard="GR", options=strict)
    refused(state, Play(player="Anna", card=C("BR")), "UNO-PLAY-MATCH")


@pytest.mark.clause("UNO-TWO-PLAYER-REVERSE")
def test_UNO_TWO_PLAYER_REVERSE() -> None:
    out = apply(two("RR G2", "B1"), Play(player="Anna", card=C("RR")))
    assert turn(out.state) == "Anna" and "UNO-TWO-PLAYER-REVERSE" in cited(out)


# --- Draw Two ----------------------------------------------------------------------------------


@pytest.mark.clause("UNO-DRAW-TWO-EFFECT")
def test_UNO_DRAW_TWO_EFFECT() -> None:
    out = apply(four(anna="R+2 G2"), Play(player="Anna", card=C("R+2")))
    assert len(hand(out.state, "Bo")) == 4 and turn(out.state) == "Cia"


@pytest.mark.clause("UNO-DRAW-TWO-WHEN-PLAYABLE")
def test_UNO_DRAW_TWO_WHEN_PLAYABLE() -> None:
    assert is_allowed(GAME, four(anna="B+2 G2", discard="G+2"), Play(player="Anna", card=C("B+2")))
    refused(four(anna="B+2 G2"), Play(player="Anna", card=C("B+2")), "UNO-PLAY-MATCH")


@pytest.mark.clause("UNO-DRAW-TWO-NO-STACKING")
def test_UNO_DRAW_TWO_NO_STACKING() -> None:
    out = apply(four(anna="R+2 G2", bo="B+2 B1"), Play(player="Anna", card=C("R+2")))
    assert out.state.phase is Phase.PLAY and turn(out.state) == "Cia"
    assert "UNO-DRAW-TWO-NO-STACKING" in cited(out)


@pytest.mark.clause("UNO-VARIANT-STACKING")
def test_UNO_VARIANT_STACKING() -> None:
    stacking = opts(stack_draw_two=True)
    state = four(anna="R+2 G2", bo="B+2 B1", options=stacking)
    out = apply(state, Play(player="Anna", card=C("R+2")))
    assert out.state.phase is Phase.STACK and turn(out.state) == "Bo"
    refused(out.state, Play(player="Bo", card=C("B1")), "UNO-VARIANT-STACKING")
    out = apply(out.state, Play(player="Bo", card=C("B+2")))
    assert out.state.pending_draw == 4 and turn(out.state) == "Cia"
    out = apply(out.state, Draw(player="Cia"))
    assert len(hand(out.state, "Cia")) == 6 and turn(out.state) == "Dan"
    assert out.state.phase is Phase.PLAY


# --- Wild --------------------------------------------------------------------------------------


@pytest.mark.clause("UNO-WILD-PLAY-ANYTIME", "UNO-WILD-NAME-COLOUR")
def test_UNO_WILD_PLAY_ANYTIME() -> None:
    state = four(anna="W G2", discard="B+2 BS")
    refused(state, Play(player="Anna", card=C("W")), "UNO-WILD-NAME-COLOUR")
    out = apply(state, Play(player="Anna", card=C("W"), colour=GREEN))
    assert out.state.colour is GREEN and "UNO-WILD-PLAY-ANYTIME" in cited(out)


@pytest.mark.clause("UNO-WILD-NAME-COLOUR")
def test_UNO_WILD_NAME_COLOUR() -> None:
    out = apply(four(anna="W G2"), Play(player="Anna", card=C("W"), colour=BLUE))
    assert out.state.colour is BLUE and "UNO-WILD-NAME-COLOUR" in cited(out)


@pytest.mark.clause("UNO-WILD-EVEN-WITH-PLAYABLE")
def test_UNO_WILD_EVEN_WITH_PLAYABLE() -> None:
    out = apply(four(anna="W R9 G2"), Play(player="Anna", card=C("W"), colour=GREEN))
    assert "UNO-WILD-EVEN-WITH-PLAYABLE" in cited(out)


@pytest.mark.clause("UNO-WILD-NAMED-COLOUR-GOVERNS")
def test_UNO_WILD_NAMED_COLOUR_GOVERNS() -> None:
    state = four(bo="GS B1", discard="R3 W", colour="green", turn="Bo")
    out = apply(state, Play(player="Bo", card=C("GS")))
    assert turn(out.state) == "Dan"
    refused(
        four(bo="BS B1", discard="R3 W", colour="green", turn="Bo"),
        Play(player="Bo", card=C("BS")),
        "UNO-PLAY-MATCH",
    )
    printed = four(
        bo="GS B1",
        discard="R3 W",
        colour="green",
        turn="Bo",
        options=opts(current_colour="printed-colour"),
    )
    refused(printed, Play(player="Bo", card=C("GS")), "UNO-PLAY-MATCH")


# --- Wild Draw Four ----------------------------------------------------------------------------


@pytest.mark.clause("UNO-WD4-NAME-COLOUR", "UNO-WD4-EFFECT")
def test_UNO_WD4_EFFECT() -> None:
    out = apply(four(anna="W+4 G2"), Play(player="Anna", card=C("W+4"), colour=GREEN))
    assert out.state.phase is Phase.CHALLENGE and turn(out.state) == "Bo"
    assert out.state.colour is GREEN and "UNO-WD4-NAME-COLOUR" in cited(out)
    out = apply(out.state, Draw(player="Bo"))
    assert len(hand(out.state, "Bo")) == 6 and turn(out.state) == "Cia"
    assert "UNO-WD4-EFFECT" in cited(out)


@pytest.mark.clause("UNO-WD4-NAME-COLOUR")
def test_UNO_WD4_NAME_COLOUR() -> None:
    refused(four(anna="W+4 G2"), Play(player="Anna", card=C("W+4")), "UNO-WILD-NAME-COLOUR")


@pytest.mark.clause("UNO-WD4-CONDITION")
def test_UNO_WD4_CONDITION() -> None:
    bluff = four(anna="W+4 R9 G2")
    out = apply(bluff, Play(player="Anna", card=C("W+4"), colour=BLUE))
    assert "UNO-WD4-CONDITION" in cited(out) and any(e.kind == "bluff" for e in out.events)
    strict = four(anna="W+4 R9 G2", options=opts(illegal_wd4="refused"))
    message = refused(strict, Play(player="Anna", card=C("W+4"), colour=BLUE), "UNO-WD4-CONDITION")
    assert "red" in message
    # any card of the colour in force counts, an action card as much as a number
    for held in ("RS", "RR", "R+2"):
        action_card = four(anna=f"W+4 {held} G2", options=opts(illegal_wd4="refused"))
        refused(action_card, Play(player="Anna", card=C("W+4"), colour=BLUE), "UNO-WD4-CONDITION")
        guilty = apply(
            apply(
                four(anna=f"W+4 {held} G2"), Play(player="Anna", card=C("W+4"), colour=BLUE)
            ).state,
            Challenge(player="Bo"),
        )
        assert "UNO-WD4-CHALLENGE-SUCCESS" in cited(guilty)


@pytest.mark.clause("UNO-WD4-COLOUR-ONLY-COUNTS")
def test_UNO_WD4_COLOUR_ONLY_COUNTS() -> None:
    strict = opts(illegal_wd4="refused")
    state = four(anna="W+4 B3 GS W", discard="R3", options=strict)
    assert is_allowed(GAME, state, Play(player="Anna", card=C("W+4"), colour=BLUE))
    counting = opts(illegal_wd4="refused", wd4_wild_counts="wilds-count")
    state = four(anna="W+4 B3 GS W", discard="R3", options=counting)
    assert not is_allowed(GAME, state, Play(player="Anna", card=C("W+4"), colour=BLUE))


def _hit_by(anna: str, options: UnoOptions = OPTIONS, **extra: Any) -> UnoState:
    state = four(anna=anna, discard="G4", options=options, **extra)
    return apply(state, Play(player="Anna", card=C("W+4"), colour=BLUE)).state


@pytest.mark.clause("UNO-WD4-CHALLENGE-EXISTS", "UNO-WD4-CHALLENGE-WHEN")
def test_UNO_WD4_CHALLENGE_EXISTS() -> None:
    state = _hit_by("W+4 G2 R1")
    assert Challenge(player="Bo") in GAME.legal_actions(state)
    assert Draw(player="Bo") in GAME.legal_actions(state)


@pytest.mark.clause("UNO-WD4-CHALLENGE-WHEN")
def test_UNO_WD4_CHALLENGE_WHEN() -> None:
    state = _hit_by("W+4 G2 R1")
    after = apply(state, Draw(player="Bo")).state
    refused(after, Challenge(player="Cia"), "UNO-WD4-CHALLENGE-ONLY-VICTIM")


@pytest.mark.clause("UNO-WD4-CHALLENGE-SHOW-HAND")
def test_UNO_WD4_CHALLENGE_SHOW_HAND() -> None:
    out = apply(_hit_by("W+4 G2 R1"), Challenge(player="Bo"))
    shown = [e for e in out.events if e.kind == "show-hand"]
    assert shown and shown[0].cards == ("G2", "R1") and "only him" in shown[0].text


@pytest.mark.clause("UNO-WD4-CHALLENGE-ONLY-VICTIM")
def test_UNO_WD4_CHALLENGE_ONLY_VICTIM() -> None:
    state = _hit_by("W+4 G2 R1")
    refused(state, Challenge(player="Cia"), "UNO-WD4-CHALLENGE-ONLY-VICTIM")
    refused(state, Challenge(player="Anna"), "UNO-WD4-CHALLENGE-ONLY-VICTIM")
    refused(four(), Challenge(player="Anna"), "UNO-WD4-CHALLENGE-ONLY-VICTIM")
    with pytest.raises(IllegalActionError, match="only Bo, whom the Wild Draw Four hits"):
        GAME.check(state, Challenge(player="Cia"))


@pytest.mark.clause("UNO-WD4-CHALLENGE-SUCCESS")
def test_UNO_WD4_CHALLENGE_SUCCESS() -> None:
    out = apply(_hit_by("W+4 G2 R1"), Challenge(player="Bo"))
    state = out.state
    assert len(hand(state, "Anna")) == 6 and len(hand(state, "Bo")) == 2
    assert turn(state) == "Bo" and state.colour is BLUE and state.top == C("W+4")
    assert "UNO-WD4-CHALLENGE-SUCCESS" in cited(out)


def test_challenge_success_readings() -> None:
    six = apply(
        _hit_by("W+4 G2 R1", opts(challenge_success_penalty="guilty-draws-six")),
        Challenge(player="Bo"),
    )
    assert len(hand(six.state, "Anna")) == 8
    skipped = apply(
        _hit_by("W+4 G2 R1", opts(challenge_success_turn="challenger-skipped")),
        Challenge(player="Bo"),
    )
    assert turn(skipped.state) == "Cia"
    back = apply(
        _hit_by("W+4 G2 R1", opts(challenge_success_card="card-returns")), Challenge(player="Bo")
    )
    assert back.state.top == C("G4") and back.state.colour is GREEN
    assert C("W+4") in hand(back.state, "Anna") and len(hand(back.state, "Anna")) == 7


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS")
def test_UNO_WD4_CHALLENGE_FAILED_SIX() -> None:
    out = apply(_hit_by("W+4 B2 R1"), Challenge(player="Bo"))
    assert len(hand(out.state, "Bo")) == 8 and turn(out.state) == "Cia"
    assert {"UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS"} <= cited(out)


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-STANDS")
def test_UNO_WD4_CHALLENGE_FAILED_STANDS() -> None:
    out = apply(_hit_by("W+4 B2 R1"), Challenge(player="Bo"))
    assert out.state.top == C("W+4") and out.state.colour is BLUE
    plays = opts(failed_challenge_turn="plays-after-drawing")
    out = apply(_hit_by("W+4 B2 R1", plays), Challenge(player="Bo"))
    assert turn(out.state) == "Bo" and len(hand(out.state, "Bo")) == 8


def test_holding_a_wild_and_the_challenge() -> None:
    out = apply(_hit_by("W+4 W B3"), Challenge(player="Bo"))
    assert len(hand(out.state, "Bo")) == 8
    counting = opts(wd4_wild_counts="wilds-count")
    out = apply(_hit_by("W+4 W B3", counting), Challenge(player="Bo"))
    assert len(hand(out.state, "Anna")) == 6


# --- The first card ----------------------------------------------------------------------------


@pytest.mark.clause("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-SETUP-DISCARD-PILE")
def test_UNO_FIRST_CARD_AS_DEALER_PLAY() -> None:
    out = stacked_deal("G5")
    assert out.state.top == C("G5") and out.state.colour is GREEN and turn(out.state) == "Bo"
    assert {"UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-SETUP-DISCARD-PILE"} <= cited(out) | {
        "UNO-FIRST-CARD-AS-DEALER-PLAY"
    }
    right = stacked_deal("GR", options=opts(first_reverse_start="dealer-right-first"))
    assert turn(right.state) == "Dan" and "UNO-FIRST-CARD-AS-DEALER-PLAY" in cited(right)


@pytest.mark.clause("UNO-FIRST-CARD-SKIP")
def test_UNO_FIRST_CARD_SKIP() -> None:
    out = stacked_deal("YS")
    assert turn(out.state) == "Cia" and "UNO-FIRST-CARD-SKIP" in cited(out)


@pytest.mark.clause("UNO-FIRST-CARD-REVERSE")
def test_UNO_FIRST_CARD_REVERSE() -> None:
    out = stacked_deal("YR")
    assert turn(out.state) == "Anna" and out.state.direction is Direction.RIGHT
    assert "UNO-FIRST-CARD-REVERSE" in cited(out)
    played = apply(out.state, GAME.legal_actions(out.state)[0]).state
    assert turn(played) in {"Dan", "Anna"}


def test_two_players_first_reverse() -> None:
    dealer = stacked_deal("YR", players=("Anna", "Bo"))
    assert turn(dealer.state) == "Anna"
    other = stacked_deal(
        "YR", players=("Anna", "Bo"), options=opts(two_player_first_reverse="non-dealer-first")
    )
    assert turn(other.state) == "Bo"


@pytest.mark.clause("UNO-FIRST-CARD-DRAW-TWO")
def test_UNO_FIRST_CARD_DRAW_TWO() -> None:
    out = stacked_deal("B+2")
    assert len(hand(out.state, "Bo")) == 9 and turn(out.state) == "Cia"
    assert "UNO-FIRST-CARD-DRAW-TWO" in cited(out)


@pytest.mark.clause("UNO-FIRST-CARD-DRAW-TWO", "UNO-VARIANT-STACKING")
def test_a_first_card_draw_two_under_stacking_is_drawn_unless_it_may_be_passed_on() -> None:
    drawn = stacked_deal("B+2", options=opts(stack_draw_two=True)).state
    assert len(hand(drawn, "Bo")) == 9 and turn(drawn) == "Cia"
    owed = stacked_deal(
        "B+2", options=opts(stack_draw_two=True, first_draw_two_stacking="may-pass-on")
    ).state
    assert owed.phase is Phase.STACK and owed.pending_draw == 2
    assert turn(owed) == "Bo" and len(hand(owed, "Bo")) == 7
    assert GAME.problems(owed) == ()
    paid = apply(owed, Draw(player="Bo")).state
    assert len(hand(paid, "Bo")) == 9 and turn(paid) == "Cia"


@pytest.mark.clause("UNO-FIRST-CARD-WILD")
def test_UNO_FIRST_CARD_WILD() -> None:
    out = stacked_deal("W")
    state = out.state
    assert state.phase is Phase.NAME_COLOUR and turn(state) == "Bo" and state.colour is None
    refused(state, Draw(player="Bo"), "UNO-FIRST-CARD-WILD")
    named = apply(state, NameColour(player="Bo", colour=YELLOW))
    assert turn(named.state) == "Bo" and named.state.colour is YELLOW
    dealer = stacked_deal("W", options=opts(first_wild_chooser="dealer")).state
    assert turn(dealer) == "Anna" and dealer.phase is Phase.NAME_COLOUR
    assert turn(apply(dealer, NameColour(player="Anna", colour=RED)).state) == "Bo"
    free = stacked_deal("W", options=opts(first_wild_play="play-without-naming")).state
    assert free.phase is Phase.PLAY and free.colour is None and turn(free) == "Bo"
    assert all(isinstance(a, Play | Draw) for a in GAME.legal_actions(free))


@pytest.mark.clause("UNO-FIRST-CARD-WD4-REDRAW")
def test_UNO_FIRST_CARD_WD4_REDRAW() -> None:
    out = stacked_deal("W+4")
    assert out.state.top != C("W+4") and C("W+4") in out.state.draw_pile
    assert "UNO-FIRST-CARD-WD4-REDRAW" in cited(out)


@pytest.mark.clause("UNO-SHUFFLE-HANDS-FIRST-CARD-AS-WILD")
def test_UNO_SHUFFLE_HANDS_FIRST_CARD_AS_WILD() -> None:
    big = opts(deck=112)
    out = stacked_deal("WSH", options=big, hands="R1 R2 R3")
    assert out.state.phase is Phase.NAME_COLOUR and turn(out.state) == "Bo"
    assert hand(out.state, "Bo")[0] == C("R1")
    assert "UNO-SHUFFLE-HANDS-FIRST-CARD-AS-WILD" in cited(out)
    dealer = stacked_deal("WSH", options=opts(deck=112, first_shuffle_hands="as-dealer-play"))
    assert turn(dealer.state) == "Anna" and any(e.kind == "shuffle-hands" for e in dealer.events)
    redraw = stacked_deal("WX", options=opts(deck=112, first_shuffle_hands="redraw"))
    assert redraw.state.top.value is not UnoValue.BLANK_WILD


# --- The 112-card deck -------------------------------------------------------------------------


@pytest.mark.clause("UNO-DECK-112", "UNO-DECK-NEW-CARDS-OPTIONAL", "UNO-DECK-108")
def test_UNO_DECK_112() -> None:
    assert len(deck_for(opts(deck=112))) == 112 and len(deck_for(OPTIONS)) == 108
    assert OPTIONS.deck == 108
    state = GAME.deal(opts(deck=112), ["Anna", "Bo"], seed=1)
    assert sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard) == 112


@pytest.mark.clause("UNO-DECK-NEW-CARDS-OPTIONAL")
def test_UNO_DECK_NEW_CARDS_OPTIONAL() -> None:
    with pytest.raises(ValueError, match="108"):
        UnoOptions(deck=110)
    with pytest.raises(PositionError, match="WSH"):
        position({"Anna": "WSH R1", "Bo": "B1"}, discard="R3", turn="Anna")


@pytest.mark.clause("UNO-DECK-108")
def test_UNO_DECK_108() -> None:
    deck = deck_for(OPTIONS)
    assert len(deck) == 108 and deck.count(C("R0")) == 1 and deck.count(C("R5")) == 2
    assert deck.count(C("W")) == 4 and deck.count(C("W+4")) == 4 and deck.count(C("GS")) == 2


@pytest.mark.clause("UNO-SHUFFLE-HANDS-EFFECT", "UNO-SHUFFLE-HANDS-DEAL-ORDER")
def test_UNO_SHUFFLE_HANDS_EFFECT() -> None:
    big = opts(deck=112)
    state = four(anna="WSH G1 G2", bo="B1 B2 B3 B4 B5 B6", cia="Y1 Y2 Y3", dan="Y4", options=big)
    out = apply(state, Play(player="Anna", card=C("WSH")))
    sizes = [len(h) for h in out.state.hands]
    assert sum(sizes) == 12 and sizes == [3, 3, 3, 3]
    assert out.state.phase is Phase.NAME_COLOUR and turn(out.state) == "Anna"
    assert {"UNO-SHUFFLE-HANDS-EFFECT", "UNO-SHUFFLE-HANDS-DEAL-ORDER"} <= cited(out)


@pytest.mark.clause("UNO-SHUFFLE-HANDS-DEAL-ORDER", "UNO-SHUFFLE-HANDS-EXTRA-CARDS")
def test_UNO_SHUFFLE_HANDS_EXTRA_CARDS() -> None:
    big = opts(deck=112)
    hands = {"Anna": "WSH G1", "Bo": "B1 B2 B3 B4 B5 B6", "Cia": "Y1 Y2 Y3"}
    out = apply(
        position(hands, discard="R3", turn="Anna", options=big), Play(player="Anna", card=C("WSH"))
    )
    assert [len(h) for h in out.state.hands] == [3, 4, 3]
    assert "UNO-SHUFFLE-HANDS-EXTRA-CARDS" in cited(out)
    keep = opts(deck=112, shuffle_hands_deal="keep-counts")
    out = apply(
        position(hands, discard="R3", turn="Anna", options=keep), Play(player="Anna", card=C("WSH"))
    )
    assert [len(h) for h in out.state.hands] == [1, 6, 3]


@pytest.mark.clause("UNO-SHUFFLE-HANDS-NAME-COLOUR")
def test_UNO_SHUFFLE_HANDS_NAME_COLOUR() -> None:
    big = opts(deck=112)
    state = apply(four(anna="WSH G1 G2", options=big), Play(player="Anna", card=C("WSH"))).state
    refused(
        state, Play(player="Anna", card=hand(state, "Anna")[0]), "UNO-SHUFFLE-HANDS-NAME-COLOUR"
    )
    out = apply(state, NameColour(player="Anna", colour=YELLOW))
    assert out.state.colour is YELLOW and turn(out.state) == "Bo"
    assert "UNO-SHUFFLE-HANDS-NAME-COLOUR" in cited(out)


@pytest.mark.clause("UNO-SHUFFLE-HANDS-ANYTIME")
def test_UNO_SHUFFLE_HANDS_ANYTIME() -> None:
    big = opts(deck=112)
    state = four(anna="WSH R1 G2", discard="B+2 BS", options=big)
    assert is_allowed(GAME, state, Play(player="Anna", card=C("WSH")))
    refused(state, Play(player="Anna", card=C("WSH"), colour=RED), "UNO-SHUFFLE-HANDS-NAME-COLOUR")


def test_shuffle_hands_as_the_last_card() -> None:
    big = opts(deck=112)
    hands = {"Anna": "WSH", "Bo": "B1 B2 B3 B4", "Cia": "Y1 Y2 Y3 Y4 Y5"}
    out = apply(
        position(hands, discard="R3", turn="Anna", options=big), Play(player="Anna", card=C("WSH"))
    )
    assert [len(h) for h in out.state.hands] == [3, 3, 3] and out.state.hand_number == 1
    out_opts = opts(deck=112, shuffle_hands_last_card="goes-out")
    out = apply(
        position(hands, discard="R3", turn="Anna", options=out_opts),
        Play(player="Anna", card=C("WSH")),
    )
    assert out.state.hand_number == 2 and out.state.scores[0] == 10 + 15


@pytest.mark.clause("UNO-BLANK-WILD-PLAIN")
def test_UNO_BLANK_WILD_PLAIN() -> None:
    big = opts(deck=112)
    state = four(anna="WX G2", discard="B+2 BS", options=big)
    assert is_allowed(GAME, state, Play(player="Anna", card=C("WX"), colour=RED))
    out = apply(state, Play(player="Anna", card=C("WX"), colour=RED))
    assert out.state.colour is RED and "UNO-BLANK-WILD-PLAIN" in cited(out)
    dead = four(anna="WX G2", discard="B+2 BS", options=opts(deck=112, blank_wild="dead-card"))
    refused(dead, Play(player="Anna", card=C("WX"), colour=RED), "UNO-BLANK-WILD-PLAIN")


@pytest.mark.clause("UNO-SCORE-NEW-WILDS-40")
def test_UNO_SCORE_NEW_WILDS_40() -> None:
    assert card_points(C("WSH")) == 40 and card_points(C("WX")) == 40
    big = opts(deck=112)
    state = four(anna="R1", bo="WSH WX", options=big)
    out = apply(state, Play(player="Anna", card=C("R1")))
    assert out.state.results[-1][0] == 80 + 3 + 7


# --- Setting up --------------------------------------------------------------------------------


@pytest.mark.clause("UNO-SETUP-PLAYERS")
def test_UNO_SETUP_PLAYERS() -> None:
    for count in (2, 10):
        assert GAME.problems(GAME.deal(OPTIONS, [f"P{i}" for i in range(count)], 1)) == ()
    for count in (1, 11):
        with pytest.raises(PositionError, match="2 to 10"):
            GAME.deal(OPTIONS, [f"P{i}" for i in range(count)], 1)


@pytest.mark.clause("UNO-DEAL-CHOOSE-DEALER")
def test_UNO_DEAL_CHOOSE_DEALER() -> None:
    for seed in range(20):
        dealer, rounds = choose_dealer(OPTIONS, 4, random.Random(seed))
        last = dict(rounds[-1])
        rank = {s: int(c.value.value) if c.value.is_number else 0 for s, c in last.items()}
        assert rank[dealer] == max(rank.values())
        assert sum(r == rank[dealer] for r in rank.values()) == 1


@pytest.mark.clause("UNO-DEALER-TIE-REDRAW")
def test_UNO_DEALER_TIE_REDRAW() -> None:
    ties = 0
    for seed in range(200):
        _, rounds = choose_dealer(OPTIONS, 10, random.Random(seed))
        for before, after in itertools.pairwise(rounds):
            ranks = {s: int(c.value.value) if c.value.is_number else 0 for s, c in before}
            best = max(ranks.values())
            assert {s for s, _ in after} == {s for s, r in ranks.items() if r == best}
            ties += 1
        _, rounds = choose_dealer(opts(dealer_tie="all-redraw"), 10, random.Random(seed))
        assert all(len(r) == 10 for r in rounds)
    assert ties > 0


def test_shuffle_is_the_shuffle_of_random() -> None:
    """The engine's shuffle is ``random.Random.shuffle`` written out: the same order, and the
    generator left in the same state."""
    for seed in range(40):
        for size in (0, 1, 2, 3, 7, 108, 112):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, other = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(other)
            assert mine == other
            assert ours.random() == theirs.random()


@pytest.mark.clause("UNO-DEAL-CHOOSE-DEALER", "UNO-DEALER-TIE-REDRAW")
def test_choose_dealer_takes_the_cards_of_whole_shuffles() -> None:
    """The dealer's pack, shuffled only as far as cards are taken, gives the cards a pack
    shuffled whole gives, round by round, and a new whole pack's once it runs short."""
    rounds_seen = 0
    for tie in ("tied-redraw", "all-redraw"):
        options = opts(dealer_tie=tie)
        for seed in range(300):
            _, rounds = choose_dealer(options, 10, random.Random(seed))
            rng = random.Random(seed)
            pack = list(deck_for(options))
            rng.shuffle(pack)
            for draws in rounds:
                if len(pack) < len(draws):
                    pack = list(deck_for(options))
                    rng.shuffle(pack)
                assert [c for _, c in draws] == [pack.pop() for _ in draws]
                rounds_seen += 1
    assert rounds_seen > 600


@pytest.mark.clause("UNO-DEAL-SEVEN", "UNO-SETUP-DRAW-PILE")
def test_UNO_DEAL_SEVEN() -> None:
    state = GAME.deal(OPTIONS, ["Anna", "Bo", "Cia"], seed=5)
    sizes = sorted(len(h) for h in state.hands)
    assert sizes[:2] == [7, 7] and sizes[2] in (7, 9)


@pytest.mark.clause("UNO-SETUP-DRAW-PILE")
def test_UNO_SETUP_DRAW_PILE() -> None:
    out = stacked_deal("G5")
    assert len(out.state.draw_pile) == 108 - 28 - 1


@pytest.mark.clause("UNO-TURN-FIRST-PLAYER")
def test_UNO_TURN_FIRST_PLAYER() -> None:
    out = stacked_deal("G5", players=("Anna", "Bo", "Cia"))
    assert turn(out.state) == "Bo" and "UNO-TURN-FIRST-PLAYER" in cited(out)


@pytest.mark.clause("UNO-TURN-DIRECTION")
def test_UNO_TURN_DIRECTION() -> None:
    state = four(anna="R5 G2")
    out = apply(state, Play(player="Anna", card=C("R5")))
    assert turn(out.state) == "Bo"
    refused(out.state, Draw(player="Cia"), "UNO-TURN-DIRECTION")


# --- Playing and drawing -----------------------------------------------------------------------


@pytest.mark.clause("UNO-PLAY-MATCH")
def test_UNO_PLAY_MATCH() -> None:
    state = four(anna="R9 B3 G5 Y7", discard="R3")
    for card in ("R9", "B3"):
        assert is_allowed(GAME, state, Play(player="Anna", card=C(card)))
    refused(state, Play(player="Anna", card=C("G5")), "UNO-PLAY-MATCH")
    refused(state, Play(player="Anna", card=C("B9")), "UNO-PLAY-MATCH")
    strict = four(anna="R9 B3 G5 Y7", discard="R3", options=opts(number_match="colour-only"))
    refused(strict, Play(player="Anna", card=C("B3")), "UNO-PLAY-MATCH")


@pytest.mark.clause("UNO-DRAW-CANNOT-PLAY")
def test_UNO_DRAW_CANNOT_PLAY() -> None:
    state = four(anna="G1 G2")
    assert GAME.legal_actions(state) == (Draw(player="Anna"),)
    out = apply(state, Draw(player="Anna"))
    assert len(hand(out.state, "Anna")) == 3 and "UNO-DRAW-CANNOT-PLAY" in cited(out)


@pytest.mark.clause("UNO-DRAW-BY-CHOICE")
def test_UNO_DRAW_BY_CHOICE() -> None:
    state = four(anna="RS G2")
    out = apply(state, Draw(player="Anna"))
    assert "UNO-DRAW-BY-CHOICE" in cited(out)
    strict = four(anna="RS G2", options=opts(draw_when_able="must-play"))
    refused(strict, Draw(player="Anna"), "UNO-DRAW-BY-CHOICE")


def _drawing(first: str, anna: str = "G1 G2") -> UnoState:
    deck = list(deck_for(OPTIONS))
    for card in parse_uno_cards(f"{anna} B1 B2 Y1 Y2 Y3 Y4 R3 {first}"):
        deck.remove(card)
    pile = [first, *(c.code for c in deck)]
    return four(anna=anna, draw_pile=pile)


@pytest.mark.clause("UNO-DRAW-PLAY-DRAWN")
def test_UNO_DRAW_PLAY_DRAWN() -> None:
    state = apply(_drawing("R7", anna="G1 R2"), Draw(player="Anna")).state
    assert state.phase is Phase.DRAWN and state.drawn == C("R7")
    refused(state, Play(player="Anna", card=C("R2")), "UNO-DRAW-PLAY-DRAWN")
    refused(state, Draw(player="Anna"), "UNO-DRAW-PLAY-DRAWN")
    out = apply(state, Play(player="Anna", card=C("R7")))
    assert turn(out.state) == "Bo" and out.state.top == C("R7")


@pytest.mark.clause("UNO-DRAW-TURN-PASSES")
def test_UNO_DRAW_TURN_PASSES() -> None:
    out = apply(_drawing("B7"), Draw(player="Anna"))
    assert turn(out.state) == "Bo" and "UNO-DRAW-TURN-PASSES" in cited(out)
    drawn = apply(_drawing("R7"), Draw(player="Anna")).state
    kept = apply(drawn, Pass(player="Anna"))
    assert turn(kept.state) == "Bo" and C("R7") in hand(kept.state, "Anna")
    refused(four(), Pass(player="Anna"), "UNO-DRAW-TURN-PASSES")


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD")
def test_UNO_DRAW_PILE_REBUILD() -> None:
    deck = list(deck_for(OPTIONS))
    hands = {"Anna": "G1 G2", "Bo": "B1", "Cia": "Y1", "Dan": "Y2"}
    for card in parse_uno_cards("G1 G2 B1 Y1 Y2 R3"):
        deck.remove(card)
    discard = [c.code for c in deck] + ["R3"]
    state = position(hands, discard=" ".join(discard), turn="Anna", draw_pile=[])
    out = apply(state, Draw(player="Anna"))
    assert out.state.discard == (C("R3"),) and "UNO-DRAW-PILE-REBUILD" in cited(out)
    assert len(out.state.draw_pile) == len(discard) - 2


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW")
def test_UNO_PILES_EXHAUSTED_NO_DRAW() -> None:
    deck = list(deck_for(OPTIONS))
    deck.remove(C("R3"))
    anna = " ".join(c.code for c in deck if c.colour in (Colour.BLUE, Colour.GREEN))
    bo = " ".join(c.code for c in deck if c.colour in (None, Colour.RED, Colour.YELLOW))
    hands = {"Anna": anna, "Bo": bo}
    state = position(hands, discard="R3", turn="Anna", draw_pile=[])
    out = apply(state, Draw(player="Anna"))
    assert "UNO-PILES-EXHAUSTED-NO-DRAW" in cited(out) and turn(out.state) == "Bo"
    assert out.state.hands == state.hands
    void = position(
        hands, discard="R3", turn="Anna", draw_pile=[], options=opts(empty_piles="hand-void")
    )
    out = apply(void, Draw(player="Anna"))
    assert out.state.hand_number == 2 and out.state.results == ((0, 0),)


# --- The UNO call ------------------------------------------------------------------------------


@pytest.mark.clause("UNO-CALL-UNO")
def test_UNO_CALL_UNO() -> None:
    state = four(anna="R5 G2")
    assert Play(player="Anna", card=C("R5"), uno=True) in GAME.legal_actions(state)
    out = apply(state, Play(player="Anna", card=C("R5"), uno=True))
    assert out.state.exposed is None and "UNO-CALL-UNO" in cited(out)
    refused(four(anna="R5 G2 G3"), Play(player="Anna", card=C("R5"), uno=True), "UNO-CALL-UNO")
    # nor with the last card: the call goes with the next-to-last one only
    last = four(anna="R5")
    refused(last, Play(player="Anna", card=C("R5"), uno=True), "UNO-CALL-UNO")
    assert Play(player="Anna", card=C("R5"), uno=True) not in GAME.legal_actions(last)
    silent = apply(state, Play(player="Anna", card=C("R5"))).state
    late = apply(silent, CallUno(player="Anna"))
    assert late.state.exposed is None
    refused(late.state, Catch(player="Cia", target="Anna"), "UNO-CALL-PENALTY")
    strict = four(anna="R5 G2", options=opts(uno_call_window="with-the-card"))
    silent = apply(strict, Play(player="Anna", card=C("R5"))).state
    refused(silent, CallUno(player="Anna"), "UNO-CALL-UNO")


@pytest.mark.clause("UNO-CALL-PENALTY")
def test_UNO_CALL_PENALTY() -> None:
    silent = apply(four(anna="R5 G2"), Play(player="Anna", card=C("R5"))).state
    assert silent.exposed == 0
    refused(silent, Catch(player="Anna", target="Anna"), "UNO-CALL-PENALTY")
    out = apply(silent, Catch(player="Cia", target="Anna"))
    assert len(hand(out.state, "Anna")) == 3 and "UNO-CALL-PENALTY" in cited(out)
    assert turn(out.state) == "Bo"
    begun = apply(silent, Draw(player="Bo")).state
    refused(begun, Catch(player="Cia", target="Anna"), "UNO-CALL-PENALTY")


# --- Going out and scoring ---------------------------------------------------------------------


@pytest.mark.clause("UNO-WIN-HAND-GO-OUT", "UNO-DEAL-ROTATE")
def test_UNO_WIN_HAND_GO_OUT() -> None:
    out = apply(four(anna="R5"), Play(player="Anna", card=C("R5")))
    state = out.state
    assert state.hand_number == 2 and state.dealer == 1 and all(len(h) >= 7 for h in state.hands)
    assert state.scores == (3 + 3 + 7, 0, 0, 0)
    assert {"UNO-WIN-HAND-GO-OUT", "UNO-DEAL-ROTATE"} <= cited(out)


@pytest.mark.clause("UNO-DEAL-ROTATE")
def test_UNO_DEAL_ROTATE() -> None:
    state = four(anna="G1 G2", bo="B5", turn="Bo", discard="B3")
    assert apply(state, Play(player="Bo", card=C("B5"))).state.dealer == 1
    winner = four(
        anna="G1 G2", cia="Y5", turn="Cia", discard="Y3", options=opts(next_dealer="winner-deals")
    )
    assert apply(winner, Play(player="Cia", card=C("Y5"))).state.dealer == 2


@pytest.mark.clause("UNO-WIN-LAST-CARD-DRAW")
def test_UNO_WIN_LAST_CARD_DRAW() -> None:
    out = apply(four(anna="R+2", bo="B1 B2"), Play(player="Anna", card=C("R+2")))
    assert out.state.scores[0] > 3 + 3 + 7 and "UNO-WIN-LAST-CARD-DRAW" in cited(out)
    at_once = four(anna="R+2", bo="B1 B2", options=opts(last_card_draw="hand-ends-at-once"))
    assert apply(at_once, Play(player="Anna", card=C("R+2"))).state.scores[0] == 3 + 3 + 7
    four_last = apply(four(anna="W+4"), Play(player="Anna", card=C("W+4"), colour=RED)).state
    assert four_last.phase is Phase.CHALLENGE and not hand(four_last, "Anna")
    failed = apply(four_last, Challenge(player="Bo"))
    assert failed.state.hand_number == 2 and failed.state.results[-1][0] > 20 + 14


@pytest.mark.clause("UNO-SCORE-WINNER-COLLECTS", "UNO-SCORE-NUMBER-FACE")
def test_UNO_SCORE_WINNER_COLLECTS() -> None:
    state = four(anna="R5", bo="B9 B0", cia="Y1", dan="Y7", discard="R3")
    out = apply(state, Play(player="Anna", card=C("R5")))
    assert out.state.results == ((17, 0, 0, 0),)


@pytest.mark.clause("UNO-SCORE-NUMBER-FACE")
def test_UNO_SCORE_NUMBER_FACE() -> None:
    assert [card_points(C(f"G{n}")) for n in range(10)] == list(range(10))


@pytest.mark.clause("UNO-SCORE-ACTION-20")
def test_UNO_SCORE_ACTION_20() -> None:
    assert {card_points(C(c)) for c in ("RS", "YR", "G+2")} == {20}


@pytest.mark.clause("UNO-SCORE-WILDS-50", "UNO-SCORE-WILD-50")
def test_UNO_SCORE_WILDS_50() -> None:
    assert card_points(C("W")) == 50 and card_points(C("W+4")) == 50


@pytest.mark.clause("UNO-SCORE-WILD-50")
def test_UNO_SCORE_WILD_50() -> None:
    state = four(anna="R5", bo="W", discard="R3", scores={"Anna": 300, "Bo": 460, "Cia": 200})
    out = apply(state, Play(player="Anna", card=C("R5")))
    assert out.state.scores[0] == 300 + 50 + 3 + 7
    tally = four(
        anna="R5",
        bo="W",
        discard="R3",
        scores={"Anna": 300, "Bo": 460, "Cia": 200},
        options=opts(scoring="holder-tally"),
    )
    over = apply(tally, Play(player="Anna", card=C("R5"))).state
    assert over.phase is Phase.GAME_OVER and over.scores[1] == 510 and over.winners == (3,)


@pytest.mark.clause("UNO-WIN-GAME-500")
def test_UNO_WIN_GAME_500() -> None:
    state = four(anna="R5", bo="W", discard="R3", scores={"Anna": 470})
    out = apply(state, Play(player="Anna", card=C("R5")))
    assert GAME.is_over(out.state) and out.state.winners == (0,)
    assert GAME.legal_actions(out.state) == ()
    refused(out.state, Draw(player="Bo"), "UNO-WIN-GAME-500")


@pytest.mark.clause("UNO-TWO-PLAYER-DRAW-CARDS")
def test_UNO_TWO_PLAYER_DRAW_CARDS() -> None:
    out = apply(two("R+2 R6", "B1"), Play(player="Anna", card=C("R+2"), uno=True))
    assert turn(out.state) == "Anna" and len(hand(out.state, "Bo")) == 3
    assert "UNO-TWO-PLAYER-DRAW-CARDS" in cited(out)
    other = two("R+2 R6", "B1", options=opts(two_player_draw_cards="opponent-plays"))
    assert turn(apply(other, Play(player="Anna", card=C("R+2"), uno=True)).state) == "Bo"


# --- Options and the register ------------------------------------------------------------------


def test_every_ambiguity_option_is_a_field_with_the_default_reading() -> None:
    book = REGISTRY.rulebook("uno")
    fields = {name: getattr(OPTIONS, name) for name in UnoOptions.__dataclass_fields__}
    for ambiguity in book.ambiguities:
        assert ambiguity.option in fields, ambiguity.option
        value = fields[ambiguity.option]
        assert value.value == ambiguity.default, ambiguity.id
        assert {m.value for m in type(value)} == {r.name for r in ambiguity.readings}


def test_option_docstrings_cite_their_clause_or_ambiguity() -> None:
    import inspect

    from regelverk.uno import options as module

    source = inspect.getsource(module.UnoOptions)
    for name in UnoOptions.__dataclass_fields__:
        after = source.split(f"    {name}:", 1)[1].split('"""', 2)[1]
        assert "UNO-" in after, name


def test_bad_options_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="target_score"):
        UnoOptions(target_score=0)
    with pytest.raises(ValueError, match="scoring takes"):
        UnoOptions(scoring="winner-collects")  # type: ignore[arg-type]


@pytest.mark.clause(
    "UNO-SCORE-NUMBER-FACE",
    "UNO-SCORE-ACTION-20",
    "UNO-SCORE-WILDS-50",
    "UNO-SCORE-WILD-50",
    "UNO-SCORE-NEW-WILDS-40",
)
def test_a_score_cites_the_value_of_each_kind_of_card_it_counts() -> None:
    assert value_clauses(C("R7")) == ("UNO-SCORE-NUMBER-FACE",)
    assert value_clauses(C("BS")) == ("UNO-SCORE-ACTION-20",)
    assert value_clauses(C("W")) == ("UNO-SCORE-WILDS-50", "UNO-SCORE-WILD-50")
    assert value_clauses(C("W+4")) == ("UNO-SCORE-WILDS-50",)
    assert value_clauses(C("WSH")) == ("UNO-SCORE-NEW-WILDS-40",)
    cited: set[str] = set()
    for seed in range(8):
        for _, events in play("uno", 4, seed).log:
            for event in events:
                if event.kind == "score":
                    assert "UNO-SCORE-NUMBER-FACE" in event.clauses or "UNO-SCORE-ACTION-20" in (
                        event.clauses
                    )
                    cited |= set(event.clauses)
    assert {"UNO-SCORE-WILD-50", "UNO-SCORE-WILDS-50"} <= cited


def test_games_of_the_same_players_share_one_seating_and_its_actions() -> None:
    """Every game of the same names in the same seats gets the same players' tuple, so the
    actions built for that table serve every game they play; other names or seats get their
    own."""
    names = ["Anna", "Bo", "Cia"]
    first = GAME.deal(OPTIONS, names, seed=1)
    second = GAME.deal(opts(target_score=1), tuple(names), seed=2)
    assert first.players is second.players == ("Anna", "Bo", "Cia")
    other = GAME.deal(OPTIONS, ["Bo", "Anna", "Cia"], seed=1)
    assert other.players == ("Bo", "Anna", "Cia") and other.players is not first.players
    assert first.phase is second.phase is Phase.PLAY
    draws = [next(a for a in GAME.legal_actions(s) if isinstance(a, Draw)) for s in (first, second)]
    assert draws[0] is draws[1]
    for seed in range(300):  # the seatings kept are bounded: 300 others push this one out
        GAME.deal(OPTIONS, ["Anna", "Bo", f"guest {seed}"], seed=seed)
    later = GAME.deal(OPTIONS, names, seed=3).players
    assert later == first.players and later is not first.players
