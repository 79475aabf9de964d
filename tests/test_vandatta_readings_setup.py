"""Scenario tests for the readings of setup, the draw for the deal, start cards, late joiners
and presence: each builds its register entry's own situation and states the outcome under the
reading and under the register's default.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import Card, french_deck
from regelverk.engine import IllegalActionError, with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.options import MOST_PLAYERS_ADDING_DECKS, VandattaOptions
from regelverk.vandatta.state import Back, Deal, Join, NameSuit, Phase, Play, Restart, State

FREE_TIME = {"session": "free-time"}


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


# --- V8-AMB-MANY-PLAYERS ----------------------------------------------------------------------


FIFTEEN = [f"P{n}" for n in range(1, 16)]


@pytest.mark.clause(
    "V8-SETUP-FREE-TIME-NO-CAP",
    "V8-SETUP-FREE-TIME-PLAYER-LIMIT",
    "V8-SETUP-TWO-DECKS-FOUR-PLUS",
    "V8-DEAL-SEVEN-ROUNDS",
)
def test_fifteen_players_after_hours_need_a_third_deck() -> None:
    """After working hours fifteen want to play: two decks hold 104 cards, fifteen hands of
    seven and a start card need 106."""
    capacity = options(VVV8, **FREE_TIME)
    with pytest.raises(IllegalActionError, match="at most 14 players") as error:
        GAME.deal(capacity, FIFTEEN, 1)
    assert "V8-SETUP-FREE-TIME-PLAYER-LIMIT" in error.value.clauses
    more = options(VVV8, **FREE_TIME, max_players_free_time="add-decks")
    state, _, _ = apply(GAME.deal(more, FIFTEEN, 1), Deal())
    assert state.decks == 3 and state.phase in (Phase.PLAY, Phase.START_SUIT)
    assert all(len(hand) == 7 for hand in state.hands)
    assert len(state.stock) + len(state.pile) == 3 * 52 - 15 * 7
    data = GAME.position_to_data(state)
    assert GAME.position_to_data(GAME.position_from_data(data, more)) == data
    # the coffee break keeps its cap of five whatever the decks
    with pytest.raises(IllegalActionError, match="coffee break"):
        GAME.deal(options(VVV8, max_players_free_time="add-decks"), FIFTEEN[:6], 1)


@pytest.mark.clause("V8-SETUP-FREE-TIME-NO-CAP")
def test_adding_decks_stops_at_the_models_bound() -> None:
    more = options(VVV8, **FREE_TIME, max_players_free_time="add-decks")
    names = [f"P{n}" for n in range(1, MOST_PLAYERS_ADDING_DECKS + 2)]
    state, _, _ = apply(GAME.deal(more, names[:-1], 2), Deal())
    assert state.decks == 5 and GAME.problems(state) == ()
    with pytest.raises(IllegalActionError, match=f"at most {MOST_PLAYERS_ADDING_DECKS} players"):
        GAME.deal(more, names, 2)


def test_a_position_with_three_decks_needs_the_reading_that_adds_them() -> None:
    hands = {"P1": ["5H"], "P2": ["9D"]}
    data = {"players": FIFTEEN, "decks": 3, "hands": hands, "pile": ["KH"]}
    with pytest.raises(Exception, match="'decks' must be 1 or 2"):
        GAME.position_from_data(data, options(VVV8, **FREE_TIME))
    state = build(data, options(VVV8, **FREE_TIME, max_players_free_time="add-decks"))
    assert len(state.stock) == 3 * 52 - 3


# --- V8-AMB-DRAW-TIE-SCOPE --------------------------------------------------------------------


FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]
TIE_SEED = 98
"""Five players, two decks: Ann and Eve both draw 10♥, Di draws 2♠, the lowest; in the redraw
Eve draws 2♥, lower still (as in the register's situation)."""


@pytest.mark.clause(
    "V8-DEALER-DRAW-REDRAW-IDENTICAL",
    "V8-DEALER-DRAW-LOWEST-SHUFFLES",
    "V8-DEALER-DRAW-ACE-HIGH",
    "V8-DEALER-DRAW-SUIT-ORDER",
)
def test_identical_cards_that_are_not_lowest_are_drawn_again_only_under_any_identical() -> None:
    def draw(scope: str) -> tuple[State, list[str]]:
        table = options(VVV8, draw_tie_scope=scope)
        outcome = GAME.apply(GAME.deal(table, FIVE, TIE_SEED), Deal())
        assert GAME.problems(outcome.state) == ()
        texts = [e.text for e in outcome.events if e.kind in ("draw-for-deal", "redraw")]
        return outcome.state, texts

    lowest, texts = draw("lowest-only")
    assert texts == ["Draw for the deal: Ann 10♥, Bo 10♠, Cy 5♠, Di 2♠, Eve 10♥"]
    assert lowest.players[lowest.dealer or 0] == "Di"
    every, texts = draw("any-identical")
    assert texts[1] == "Identical cards: drawn again: Ann 7♠, Eve 2♥"
    assert every.players[every.dealer or 0] == "Eve"


# --- V8-AMB-DEALER-AFTER-NO-LOSER -------------------------------------------------------------


def drawn_deal_position(table: VandattaOptions) -> State:
    """Three players, one deck, a coffee break: the talon has run out twice and holds one card;
    Ann's draw empties it a third time, and the deal is drawn. Cy dealt."""
    held = {"Ann": ["5H", "6S"], "Bo": ["9D"], "Cy": ["JC"]}
    used = {c for hand in held.values() for c in hand} | {"2S", "KH"}
    pile = [c.code for c in french_deck() if c.code not in used] + ["KH"]
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "dealer": "Cy",
        "turn": "Ann",
        "hands": held,
        "pile": pile,
        "stock": ["2S"],
        "talon_passes": 2,
    }
    return build(data, table)


@pytest.mark.clause(
    "V8-SESSION-DEALER-WITHOUT-LOSER",
    "V8-SESSION-LOSER-DEALS-NEXT",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-DEALER-DRAW-HELD",
)
def test_after_a_drawn_deal_the_same_dealer_deals_or_a_fresh_draw_decides() -> None:
    same = drawn_deal_position(VVV8)
    over, clauses, _ = apply(same, GAME.action_from_data({"action": "draw"}, same))
    assert over.phase is Phase.DEAL_OVER and over.winner is None and over.dealer == 2
    assert "V8-SESSION-DEALER-WITHOUT-LOSER" in clauses
    _, _, kinds = apply(over, Deal())
    assert "draw-for-deal" not in kinds
    fresh = drawn_deal_position(options(VVV8, dealer_without_loser="new-draw"))
    over, _, kinds = apply(fresh, GAME.action_from_data({"action": "draw"}, fresh))
    assert over.phase is Phase.DEAL_OVER and over.dealer is None
    assert GAME.position_from_data(GAME.position_to_data(over), over.options) == over
    dealt, clauses, kinds = apply(over, Deal())
    assert "draw-for-deal" in kinds and dealt.dealer is not None
    assert "V8-DEALER-DRAW-HELD" in clauses


# --- V8-AMB-START-EIGHT-NO-CHOICE -------------------------------------------------------------


def start_eight(table: VandattaOptions) -> State:
    """The start card is 8D; Cy deals and names no suit; Ann holds 5D and 5S."""
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "phase": "start-suit",
        "dealer": "Cy",
        "turn": "Ann",
        "hands": {"Ann": ["5D", "5S", "KC"], "Bo": ["2C", "3C"], "Cy": ["4H", "6H"]},
        "pile": ["8D"],
    }
    return build(data, table)


@pytest.mark.clause(
    "V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-DEFAULT-SUIT", "V8-PLAY-FORHAND-FIRST"
)
def test_a_start_eight_with_no_suit_named_binds_its_suit_or_takes_any_card() -> None:
    own = apply(start_eight(VVV8), NameSuit(player=2, suit=None))[0]
    assert GAME.legal_actions(own) and Play(player=0, cards=cards("5D")) in GAME.legal_actions(own)
    assert "V8-PLAY-MATCH-SUIT" in refusal(own, Play(player=0, cards=cards("5S"))).clauses
    free_table = options(VVV8, start_eight_no_choice="any-suit")
    free, clauses, _ = apply(start_eight(free_table), NameSuit(player=2, suit=None))
    assert "V8-START-EIGHT-DEFAULT-SUIT" not in clauses
    for card in ("5S", "5D", "KC"):
        assert Play(player=0, cards=cards(card)) in GAME.legal_actions(free)
    after, _, _ = apply(free, Play(player=0, cards=cards("5S")))
    assert after.top == Card.parse("5S") and after.players[after.turn] == "Bo"


@pytest.mark.clause("V8-START-EIGHT-FORHAND-EARLY-PENALTY", "V8-START-EIGHT-DEALER-NAMES-SUIT")
def test_an_early_card_stands_without_penalty_when_no_suit_is_named_under_any_suit() -> None:
    def early_then_no_suit(table: VandattaOptions) -> State:
        ruling = GAME.attempt(start_eight(table), Play(player=0, cards=cards("5S")))
        assert not ruling.allowed and ruling.state.early == cards("5S")
        return apply(ruling.state, NameSuit(player=2, suit=None))[0]

    own = early_then_no_suit(VVV8)  # the eight's suit counts: 5S is of another suit
    assert own.top == Card.parse("8D") and own.penalties[0]
    free = early_then_no_suit(options(VVV8, start_eight_no_choice="any-suit"))
    assert free.top == Card.parse("5S") and not free.penalties[0]
    assert free.players[free.turn] == "Bo"


# --- VA-AMB-START-ACE -------------------------------------------------------------------------


def start_ace_deal(table: VandattaOptions) -> State:
    """Four players, P4 deals: the start card is A♣; the dealer holds 7♣, P1 holds K♣."""
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
    state = build(data, table)
    return apply(state, Deal())[0]


@pytest.mark.clause(
    "VA-START-ACE-ALL-DRAW",
    "VA-START-ACE-PLAY-ON",
    "VA-ACE-OTHERS-DRAW",
    "VA-ACE-SAME-PLAYER-AGAIN",
    "VA-ACE-FOLLOW-ACE-SUIT",
)
def test_a_start_ace_lets_the_first_player_open_or_counts_as_the_dealers() -> None:
    first = start_ace_deal(VANDATTA)
    assert first.top == Card.parse("AC") and [len(h) for h in first.hands] == [8, 8, 8, 8]
    assert first.turn == 0 and first.restart is Restart.NONE
    assert Play(player=0, cards=cards("KC")) in GAME.legal_actions(first)
    dealers = start_ace_deal(options(VANDATTA, start_ace="as-dealers-ace"))
    assert [len(h) for h in dealers.hands] == [8, 8, 8, 7]
    assert dealers.turn == 3 and dealers.restart is Restart.ACE
    assert "VA-TURN-CLOCKWISE" in refusal(dealers, Play(player=0, cards=cards("KC"))).clauses
    assert "VA-ACE-FOLLOW-ACE-SUIT" in refusal(dealers, Play(player=3, cards=cards("9H"))).clauses
    after, clauses, _ = apply(dealers, Play(player=3, cards=cards("7C")))
    assert len(after.hands[3]) == 6 and after.turn == 0 and after.top == Card.parse("7C")
    assert "VA-ACE-SAME-PLAYER-AGAIN" in clauses
    assert Play(player=0, cards=cards("KC")) in GAME.legal_actions(after)


# --- V8-AMB-LATE-JOINER-SECOND-DECK -----------------------------------------------------------


def three_at_one_deck(table: VandattaOptions) -> State:
    """Ann, Bo and Cy play with one deck, Ann to play."""
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": ["9S", "5H"], "Bo": ["2C", "3C", "4C"], "Cy": ["3D"]},
        "pile": ["KH"],
        "turn": "Ann",
    }
    return build(data, table)


@pytest.mark.clause(
    "V8-JOIN-LATE-NO-SECOND-DECK",
    "V8-JOIN-LATE-TAKE-FREE-SEAT",
    "V8-SETUP-TWO-DECKS-FOUR-PLUS",
    "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE",
)
def test_a_fourth_player_arriving_mid_deal_waits_or_brings_the_second_deck() -> None:
    eve = Join(name="Eve", seat=1)
    refused = refusal(three_at_one_deck(VVV8), eve)
    assert "V8-JOIN-LATE-NO-SECOND-DECK" in refused.clauses
    added = three_at_one_deck(options(VVV8, late_joiner_second_deck="add-deck"))
    before = len(added.stock)
    seated, clauses, kinds = apply(added, eve)
    assert seated.decks == 2 and seated.players[1] == "Eve" and 1 in seated.joining
    assert len(seated.stock) == before + 52 and "add-deck" in kinds
    assert "V8-SETUP-TWO-DECKS-FOUR-PLUS" in clauses
    turn, _, _ = apply(seated, Play(player=0, cards=cards("5H")))
    stepped, _, _ = apply(turn, GAME.action_from_data({"action": "step-in"}, turn))
    assert len(stepped.hands[1]) == 4 and len(stepped.stock) == before + 52 - 4


# --- V8-AMB-ABSENT-PLAYER-TURN ----------------------------------------------------------------


def phone_call(table: VandattaOptions, **fields: Any) -> State:
    """B ends his turn while C is on the phone; D is next after C."""
    data = {
        "players": ["A", "B", "C", "D"],
        "hands": {"A": ["2C", "3C"], "B": ["5H", "6S"], "C": ["9H", "9S"], "D": ["JC", "4D"]},
        "pile": ["KH"],
        "turn": "B",
        "previous": "A",
        "away": ["C"],
        **fields,
    }
    return build(data, table)


@pytest.mark.clause(
    "V8-PRESENCE-ABSENT-TURN-SKIPPED",
    "V8-PRESENCE-MAY-RETURN",
    "V8-CALL-FORFEITED-IF-ABSENT",
    "V8-TURN-NEXT-BECOMES-SPELFORARE",
)
def test_an_absent_players_turn_is_passed_over_or_waited_for() -> None:
    lay = Play(player=1, cards=cards("5H"))
    skipped, clauses, _ = apply(phone_call(VVV8), lay)
    assert skipped.players[skipped.turn] == "D" and "V8-PRESENCE-ABSENT-TURN-SKIPPED" in clauses
    waiting_table = options(VVV8, absent_turn="wait")
    waiting, clauses, kinds = apply(phone_call(waiting_table), lay)
    assert waiting.players[waiting.turn] == "C" and "waiting" in kinds
    assert GAME.legal_actions(waiting) == (Back(player=2),)
    assert "V8-PRESENCE-MAY-RETURN" in refusal(waiting, Play(player=2, cards=cards("9S"))).clauses
    refusal(waiting, Play(player=3, cards=cards("JC")))
    back, _, _ = apply(waiting, Back(player=2))
    assert back.turn == 2 and not back.away
    played, _, _ = apply(back, Play(player=2, cards=cards("9H")))
    assert played.players[played.turn] == "D"


@pytest.mark.clause("V8-CALL-FORFEITED-IF-ABSENT", "V8-PRESENCE-MAY-RETURN")
def test_a_caller_waited_for_still_loses_his_chance_of_going_out() -> None:
    state = phone_call(options(VVV8, absent_turn="wait"), calls=["C"])
    waiting, clauses, _ = apply(state, Play(player=1, cards=cards("5H")))
    assert waiting.turn == 2 and 2 not in waiting.calls
    assert "V8-CALL-FORFEITED-IF-ABSENT" in clauses
