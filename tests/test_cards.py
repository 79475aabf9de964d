"""Cards and decks: notation both ways, precise errors, and the decks' composition."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelverk.cards import (
    Card,
    Colour,
    Rank,
    Suit,
    UnoCard,
    UnoValue,
    french_deck,
    missing_and_extra,
    parse_card,
    parse_cards,
    parse_uno_card,
    parse_uno_cards,
    uno_deck,
)
from regelverk.errors import CardError, DeckError
from regelverk.registry import default_registry

REGISTRY = default_registry()

french_cards = st.builds(Card, st.sampled_from(Rank), st.sampled_from(Suit))
uno_cards = st.sampled_from(sorted(set(uno_deck(shuffle_hands=True, blank_wilds=3)), key=str))


@given(french_cards)
def test_french_card_notation_round_trips(card: Card) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.code.lower()) == card
    assert parse_card(f"{card.rank.text}{card.suit.symbol}") == card
    assert eval(repr(card), {"Card": Card}) == card


@given(uno_cards)
def test_uno_card_notation_round_trips(card: UnoCard) -> None:
    assert parse_uno_card(card.code) == card
    assert parse_uno_card(card.code.lower()) == card
    assert eval(repr(card), {"UnoCard": UnoCard}) == card


def test_french_cards_print_with_the_suit_symbol() -> None:
    assert str(parse_card("10h")) == "10♥"
    assert str(parse_card("ac")) == "A♣"
    assert parse_card("TD") == parse_card("10D")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "write rank then suit"),
        ("10", "its suit '0' is none of"),
        ("1H", "its rank '1' is none of"),
        ("11S", "its rank '11' is none of"),
        ("AX", "its suit 'X' is none of"),
    ],
)
def test_bad_french_cards_are_refused_with_the_reason(text: str, complaint: str) -> None:
    with pytest.raises(CardError, match=complaint):
        parse_card(text)


def test_a_bad_card_in_a_list_is_named_by_position() -> None:
    assert parse_cards("9H, 9S 10s") == (parse_card("9H"), parse_card("9S"), parse_card("10S"))
    with pytest.raises(CardError, match="card 3: 'ZZ' is not a card"):
        parse_cards(["9H", "9S", "ZZ"])


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "empty"),
        ("X5", "must start with a colour"),
        ("R10", "after the colour comes"),
        ("RW", "after the colour comes"),
        ("W+2", "must start with a colour"),
    ],
)
def test_bad_uno_cards_are_refused_with_the_reason(text: str, complaint: str) -> None:
    with pytest.raises(CardError, match=complaint):
        parse_uno_card(text)


def test_uno_cards_cannot_be_built_inconsistent() -> None:
    with pytest.raises(CardError, match="has no colour"):
        UnoCard(Colour.RED, UnoValue.WILD)
    with pytest.raises(CardError, match="needs a colour"):
        UnoCard(None, UnoValue.SKIP)
    with pytest.raises(CardError, match="card 2"):
        parse_uno_cards("R5 R10")


def test_draw_two_is_read_as_plus_two_or_d2() -> None:
    assert (
        parse_uno_card("gd2") == parse_uno_card("G+2") == UnoCard(Colour.GREEN, UnoValue.DRAW_TWO)
    )
    assert str(parse_uno_card("gd2")) == "G+2"


@pytest.mark.clause("VG-SETUP-DECK-52-NO-JOKERS")
def test_french_deck_has_52_distinct_cards_and_two_decks_twice_each() -> None:
    one, two = french_deck(), french_deck(2)
    assert len(one) == 52 and len(set(one)) == 52
    assert Counter(two) == Counter(dict.fromkeys(one, 2))
    assert all(isinstance(card, Card) for card in one)
    with pytest.raises(DeckError, match="one or two French decks"):
        french_deck(3)


@pytest.mark.clause("UNO-DECK-108")
def test_uno_108_deck_composition() -> None:
    deck = Counter(uno_deck())
    assert sum(deck.values()) == 108
    for colour in Colour:
        assert deck[UnoCard(colour, UnoValue.ZERO)] == 1
        for value in UnoValue:
            if value is not UnoValue.ZERO and not value.is_wild:
                assert deck[UnoCard(colour, value)] == 2
    assert deck[UnoCard(None, UnoValue.WILD)] == 4
    assert deck[UnoCard(None, UnoValue.WILD_DRAW_FOUR)] == 4
    assert deck[UnoCard(None, UnoValue.SHUFFLE_HANDS)] == 0


@pytest.mark.clause("UNO-DECK-108", "UNO-DECK-112", "VG-SETUP-DECK-52-NO-JOKERS")
def test_the_decks_match_the_values_their_clauses_fix() -> None:
    classic = dict(REGISTRY.clause("UNO-DECK-108").parameters)
    deck = Counter(uno_deck())
    assert sum(deck.values()) == classic["total"]
    assert deck[UnoCard(None, UnoValue.WILD)] == classic["wilds"]
    assert deck[UnoCard(None, UnoValue.WILD_DRAW_FOUR)] == classic["wild_draw_fours"]
    assert len(classic["colours"]) == len(Colour)
    for colour in Colour:
        assert sum(n for c, n in deck.items() if c.colour is colour) == classic["cards_per_colour"]
        assert deck[UnoCard(colour, UnoValue.ZERO)] == classic["zeros_per_colour"]
        assert deck[UnoCard(colour, UnoValue.SKIP)] == classic["skips_per_colour"]
        assert deck[UnoCard(colour, UnoValue.REVERSE)] == classic["reverses_per_colour"]
        assert deck[UnoCard(colour, UnoValue.DRAW_TWO)] == classic["draw_twos_per_colour"]
        assert deck[UnoCard(colour, UnoValue.SEVEN)] == classic["copies_of_1_to_9"]
    extended = dict(REGISTRY.clause("UNO-DECK-112").parameters)
    full = Counter(uno_deck(shuffle_hands=True, blank_wilds=extended["blank_wilds"]))
    assert sum(full.values()) == extended["total"]
    assert full[UnoCard(None, UnoValue.SHUFFLE_HANDS)] == extended["shuffle_hands"]
    viggo = dict(REGISTRY.clause("VG-SETUP-DECK-52-NO-JOKERS").parameters)
    assert len(french_deck(viggo["decks"])) == viggo["deck_size"]


@pytest.mark.clause("UNO-DECK-112")
def test_uno_112_deck_adds_shuffle_hands_and_three_blank_wilds() -> None:
    full = Counter(uno_deck(shuffle_hands=True, blank_wilds=3))
    assert sum(full.values()) == 112
    assert full - Counter(uno_deck()) == Counter(
        {UnoCard(None, UnoValue.SHUFFLE_HANDS): 1, UnoCard(None, UnoValue.BLANK_WILD): 3}
    )
    with pytest.raises(DeckError, match="three blank wild cards at most"):
        uno_deck(blank_wilds=4)


def test_missing_and_extra_finds_lost_and_duplicated_cards() -> None:
    deck = french_deck()
    assert missing_and_extra(deck, [deck[:10], deck[10:]]) == (Counter(), Counter())
    missing, extra = missing_and_extra(deck, [deck[1:], deck[5:6]])
    assert missing == Counter({deck[0]: 1})
    assert extra == Counter({deck[5]: 1})


def test_suits_in_bridge_order_and_aces_high() -> None:
    assert [s.bridge_order for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)] == [
        0,
        1,
        2,
        3,
    ]
    assert Rank.ACE > Rank.KING > Rank.TWO


@given(french_cards, french_cards)
def test_cards_order_by_rank_then_suit_in_bridge_order(a: Card, b: Card) -> None:
    key = (a.rank, a.suit.bridge_order) < (b.rank, b.suit.bridge_order)
    assert (a < b) == key
    assert (a == b) == (a.rank is b.rank and a.suit is b.suit)
    assert (hash(a) == hash(b)) == (a == b)
    code: object = a.code
    assert a != code


def test_each_face_is_one_object_through_parsing_copying_and_pickling() -> None:
    ace = Card(Rank.ACE, Suit.SPADES)
    assert Card.parse("as") is ace and parse_card("A♠") is ace
    assert pickle.loads(pickle.dumps(ace)) is ace and copy.deepcopy(ace) is ace
    assert dataclasses.replace(ace, suit=Suit.HEARTS) is Card.parse("AH")
    assert ace == Card.parse("AS") and ace != Card.parse("AH")
    assert len({*french_deck(2)}) == 52


def test_a_card_of_no_rank_or_suit_is_refused_and_leaves_the_faces_alone() -> None:
    with pytest.raises(CardError, match="a card needs a Rank and a Suit"):
        Card(14, Suit.SPADES)  # type: ignore[arg-type]
    assert Card(Rank.ACE, Suit.SPADES).rank is Rank.ACE
