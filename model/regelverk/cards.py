"""Playing cards: the French-suited 52-card deck (one or two of them) and the UNO decks.

Notation (see the rulebook's notation page):

* French cards parse from ASCII, case-insensitively, rank then suit: ``10H``, ``AS``, ``8D``,
  ``QC``; the suit may also be a symbol (``♣ ♦ ♥ ♠``). They print with the symbol: ``10♥``.
* UNO cards are a colour letter (``R`` red, ``Y`` yellow, ``G`` green, ``B`` blue) and a value:
  a digit, ``S`` (Skip), ``R`` (Reverse) or ``+2`` (Draw Two; ``D2`` is accepted too); the wild
  cards have no colour: ``W`` (Wild), ``W+4`` (Wild Draw Four), ``WSH`` (Shuffle Hands) and
  ``WX`` (a blank, customisable wild). They print the same way: ``R5``, ``BS``, ``G+2``, ``W+4``.

A deck is a tuple of cards in a fixed order; two physical cards of the same face compare equal,
so "every physical card in exactly one place" is checked as equality of multisets
(:func:`missing_and_extra`).
"""

from __future__ import annotations

import enum
import itertools
import operator
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from regelverk.errors import CardError, DeckError
from regelverk.marks import implements

__all__ = [
    "Card",
    "Colour",
    "Rank",
    "Suit",
    "UnoCard",
    "UnoValue",
    "french_deck",
    "missing_and_extra",
    "parse_card",
    "parse_cards",
    "parse_uno_card",
    "parse_uno_cards",
    "uno_card_keys",
    "uno_deck",
]


class Suit(enum.Enum):
    """The four French suits, in bridge order from lowest to highest (clubs low, spades high)."""

    CLUBS = "C"
    """Klöver (♣), the lowest suit in bridge order."""
    DIAMONDS = "D"
    """Ruter (♦)."""
    HEARTS = "H"
    """Hjärter (♥)."""
    SPADES = "S"
    """Spader (♠), the highest suit in bridge order."""

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def bridge_order(self) -> int:
        """0 for clubs up to 3 for spades: the order used when the deal is drawn for."""
        return _SUIT_ORDER.index(self)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}


class Rank(enum.IntEnum):
    """The thirteen ranks; the value is the rank's number with the ace high (14).

    The value is only a name for the rank: each game says how ranks compare (the ace counts 14 in
    vvv8's draw for the deal; Viggo ranks 4 lowest and 3 highest).
    """

    TWO = 2
    """Two."""
    THREE = 3
    """Three."""
    FOUR = 4
    """Four."""
    FIVE = 5
    """Five."""
    SIX = 6
    """Six."""
    SEVEN = 7
    """Seven."""
    EIGHT = 8
    """Eight: the åtta of Vändåtta."""
    NINE = 9
    """Nine."""
    TEN = 10
    """Ten."""
    JACK = 11
    """Jack (knekt)."""
    QUEEN = 12
    """Queen (dam/dame)."""
    KING = 13
    """King (kung/konge)."""
    ACE = 14
    """Ace (ess)."""

    @property
    def text(self) -> str:
        """The rank as written in card notation: 2–10, J, Q, K, A."""
        return _RANK_TEXT.get(self, str(int(self)))

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


T = TypeVar("T")

_RANK_TEXT = {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"}
_RANK_BY_TEXT = {r.text: r for r in Rank} | {"T": Rank.TEN}


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """A French-suited card: a rank and a suit.

    There is one object per face: ``Card(rank, suit)`` returns the same object every time (two
    physical cards of one face, in a two-deck game, are the same value, as everywhere in the
    model). So equality is identity, which Python's containers test without calling back into
    Python code, and every engine compares cards on its hottest paths. Cards hash and order by
    one small integer (rank, then suit in bridge order, clubs lowest), the same in every run.

    >>> Card.parse("10h")
    Card.parse('10H')
    >>> str(Card(Rank.ACE, Suit.SPADES))
    'A♠'
    >>> Card(Rank.ACE, Suit.SPADES) is Card.parse("AS")
    True
    >>> sorted(parse_cards("2H 2C AS"))
    [Card.parse('2C'), Card.parse('2H'), Card.parse('AS')]
    """

    rank: Rank
    suit: Suit
    code: str = field(init=False, repr=False, compare=False)
    """The card's ASCII notation, e.g. ``10H``: stored with the face, as the engines read it
    for every card an event names."""
    _key: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if rank.__class__ is Rank and suit.__class__ is Suit:
            known = _FACES.get((rank, suit))
            if known is not None:
                return known
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise CardError(f"a card needs a Rank and a Suit, not {rank!r} and {suit!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "_key", int(rank) * 4 + _SUIT_ORDER.index(suit))
        object.__setattr__(card, "code", f"{rank.text}{suit.value}")
        object.__setattr__(card, "_text", f"{rank.text}{suit.symbol}")
        return _FACES.setdefault((rank, suit), card)

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    def __hash__(self) -> int:
        return self._key

    def __lt__(self, other: Card) -> bool:
        return self._key < other._key

    def __le__(self, other: Card) -> bool:
        return self._key <= other._key

    def __gt__(self, other: Card) -> bool:
        return self._key > other._key

    def __ge__(self, other: Card) -> bool:
        return self._key >= other._key

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card; raises :class:`~regelverk.errors.CardError` on bad input."""
        return parse_card(text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


_FACES: dict[tuple[Rank, Suit], Card] = {}
"""The one object of each face, filled as faces are first made."""


def parse_card(text: str) -> Card:
    """Parse a French card from notation such as ``10H``, ``as``, ``8♦``.

    >>> parse_card(" qc ")
    Card.parse('QC')
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be written as text such as '10H', not {text!r}")
    known = _PARSED.get(text)
    if known is not None:
        return known
    raw = text.strip()
    if len(raw) < 2:
        raise CardError(f"{text!r} is not a card: write rank then suit, such as '10H' or 'AS'")
    rank_text, suit_text = raw[:-1].upper(), raw[-1].upper()
    suit = _SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        raise CardError(
            f"{text!r} is not a card: its suit {raw[-1]!r} is none of C, D, H, S (♣ ♦ ♥ ♠)"
        )
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise CardError(
            f"{text!r} is not a card: its rank {raw[:-1]!r} is none of 2-10, J, Q, K, A"
        )
    card = Card(rank, suit)
    if len(_PARSED) < _PARSED_MOST:
        _PARSED[text] = card
    return card


_PARSED: dict[str, Card] = {}
"""The card each text already read stands for (a card is immutable, so one object serves):
positions are read from the same few spellings again and again."""
_PARSED_MOST = 4096
"""No more spellings than this are kept, whatever a caller sends."""


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards, separated by spaces or commas, or given as an iterable.

    The error names the position (1-based) of the first bad card.

    >>> parse_cards("9H, 9S 10s")
    (Card.parse('9H'), Card.parse('9S'), Card.parse('10S'))
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = []
    for position, item in enumerate(items, start=1):
        try:
            cards.append(parse_card(item))
        except CardError as error:
            raise CardError(f"card {position}: {error}") from None
    return tuple(cards)


@implements("VG-SETUP-DECK-52-NO-JOKERS")
def french_deck(decks: int = 1) -> tuple[Card, ...]:
    """One or two 52-card French decks without jokers, in a fixed order (suit, then rank).

    vvv8 uses two decks from four players on; Viggo and vandatta one deck.

    >>> len(french_deck()), len(french_deck(2))
    (52, 104)
    """
    if decks not in (1, 2):
        raise DeckError(f"regelverk's games use one or two French decks, not {decks}")
    return _DECKS[decks]


_DECKS = {n: tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in Rank) * n for n in (1, 2)}
"""One deck and two, made once (a tuple of cards is immutable)."""


class Colour(enum.Enum):
    """The four UNO colours."""

    RED = "R"
    """Red."""
    YELLOW = "Y"
    """Yellow."""
    GREEN = "G"
    """Green."""
    BLUE = "B"
    """Blue."""

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


_COLOUR_BY_TEXT = {c.value: c for c in Colour}


class UnoValue(enum.Enum):
    """What an UNO card is: a number, an action or a kind of wild card."""

    ZERO = "0"
    """Number 0."""
    ONE = "1"
    """Number 1."""
    TWO = "2"
    """Number 2."""
    THREE = "3"
    """Number 3."""
    FOUR = "4"
    """Number 4."""
    FIVE = "5"
    """Number 5."""
    SIX = "6"
    """Number 6."""
    SEVEN = "7"
    """Number 7."""
    EIGHT = "8"
    """Number 8."""
    NINE = "9"
    """Number 9."""
    SKIP = "S"
    """Skip (Hoppa över)."""
    REVERSE = "R"
    """Reverse (Byt riktning)."""
    DRAW_TWO = "+2"
    """Draw Two (Dra två)."""
    WILD = "W"
    """Wild (Vilt kort)."""
    WILD_DRAW_FOUR = "W+4"
    """Wild Draw Four (Vilt dra fyra)."""
    SHUFFLE_HANDS = "WSH"
    """Shuffle Hands (Blanda händer), a wild card of the 112-card deck."""
    BLANK_WILD = "WX"
    """A blank wild card of the 112-card deck, on which a table may write its own rule."""

    @property
    def is_wild(self) -> bool:
        """Whether the card has no colour (the wild cards)."""
        return self in _WILDS

    @property
    def is_number(self) -> bool:
        """Whether the card is a number card, 0 to 9."""
        return self.value.isdigit()

    def __repr__(self) -> str:
        return f"UnoValue.{self.name}"


_WILDS = frozenset(
    {UnoValue.WILD, UnoValue.WILD_DRAW_FOUR, UnoValue.SHUFFLE_HANDS, UnoValue.BLANK_WILD}
)
_COLOURS = tuple(Colour)
_VALUES = tuple(UnoValue)
_COLOURED_BY_TEXT = {v.value: v for v in UnoValue if not v.is_wild} | {"D2": UnoValue.DRAW_TWO}
_WILD_BY_TEXT = {v.value: v for v in _WILDS}


@dataclass(frozen=True, slots=True, eq=False)
class UnoCard:
    """An UNO card: a colour (``None`` for the wild cards) and a value.

    Equality and hash go through one small integer computed once.

    >>> UnoCard.parse("g+2")
    UnoCard.parse('G+2')
    >>> UnoCard.parse("W+4").colour is None
    True
    """

    colour: Colour | None
    value: UnoValue
    _key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.value, UnoValue):
            raise CardError(f"an UNO card's value must be an UnoValue, not {self.value!r}")
        if self.value.is_wild and self.colour is not None:
            raise CardError(f"a {self.value.name} card has no colour; got {self.colour.name}")
        if not self.value.is_wild and self.colour is None:
            raise CardError(f"a {self.value.name} card needs a colour (R, Y, G or B)")
        colour = 0 if self.colour is None else 1 + _COLOURS.index(self.colour)
        object.__setattr__(self, "_key", colour * 32 + _VALUES.index(self.value))

    def __hash__(self) -> int:
        return self._key

    def __eq__(self, other: object) -> bool:
        if other.__class__ is UnoCard:
            return self._key == other._key
        return NotImplemented

    @classmethod
    def parse(cls, text: str) -> UnoCard:
        """Parse one UNO card; raises :class:`~regelverk.errors.CardError` on bad input."""
        return parse_uno_card(text)

    @property
    def code(self) -> str:
        """The card's notation, e.g. ``R5`` or ``W+4``."""
        return (self.colour.value if self.colour else "") + self.value.value

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"UnoCard.parse({self.code!r})"


def parse_uno_card(text: str) -> UnoCard:
    """Parse an UNO card from notation such as ``R5``, ``bs``, ``G+2``, ``W+4``.

    >>> parse_uno_card("yr")
    UnoCard.parse('YR')
    """
    if not isinstance(text, str):
        raise CardError(f"an UNO card must be written as text such as 'R5', not {text!r}")
    raw = text.strip().upper()
    if raw in _WILD_BY_TEXT:
        return UnoCard(None, _WILD_BY_TEXT[raw])
    if not raw:
        raise CardError("an empty text is not an UNO card")
    colour = _COLOUR_BY_TEXT.get(raw[0])
    if colour is None:
        raise CardError(
            f"{text!r} is not an UNO card: it must start with a colour R, Y, G or B, "
            "or be a wild card W, W+4, WSH or WX"
        )
    value = _COLOURED_BY_TEXT.get(raw[1:])
    if value is None:
        raise CardError(
            f"{text!r} is not an UNO card: after the colour comes 0-9, S (Skip), "
            "R (Reverse) or +2 (Draw Two)"
        )
    return UnoCard(colour, value)


def parse_uno_cards(text: str | Iterable[str]) -> tuple[UnoCard, ...]:
    """Parse several UNO cards, separated by spaces or commas, or given as an iterable."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = []
    for position, item in enumerate(items, start=1):
        try:
            cards.append(parse_uno_card(item))
        except CardError as error:
            raise CardError(f"card {position}: {error}") from None
    return tuple(cards)


@implements("UNO-DECK-108", "UNO-DECK-112")
def uno_deck(*, shuffle_hands: bool = False, blank_wilds: int = 0) -> tuple[UnoCard, ...]:
    """The classic 108-card UNO deck, optionally with the cards of the 112-card deck.

    Per colour: one 0, two each of 1–9, Skip, Reverse and Draw Two; then four Wild and four Wild
    Draw Four. The 112-card deck adds one Shuffle Hands and three blank wild cards, each
    optional (``shuffle_hands=True, blank_wilds=3``).

    >>> len(uno_deck()), len(uno_deck(shuffle_hands=True, blank_wilds=3))
    (108, 112)
    """
    if not 0 <= blank_wilds <= 3:
        raise DeckError(f"the 112-card deck has three blank wild cards at most, not {blank_wilds}")
    cards: list[UnoCard] = []
    for colour in Colour:
        cards.append(UnoCard(colour, UnoValue.ZERO))
        for value in UnoValue:
            if value is not UnoValue.ZERO and not value.is_wild:
                cards += [UnoCard(colour, value)] * 2
    cards += [UnoCard(None, UnoValue.WILD)] * 4 + [UnoCard(None, UnoValue.WILD_DRAW_FOUR)] * 4
    if shuffle_hands:
        cards.append(UnoCard(None, UnoValue.SHUFFLE_HANDS))
    cards += [UnoCard(None, UnoValue.BLANK_WILD)] * blank_wilds
    return tuple(cards)


def missing_and_extra(
    deck: Iterable[T], zones: Iterable[Iterable[T]]
) -> tuple[Counter[T], Counter[T]]:
    """Compare the cards in ``zones`` with ``deck`` as multisets.

    Returns the cards missing from the zones and the cards the zones hold beyond the deck; both
    empty means every physical card is in exactly one place.

    >>> missing_and_extra(parse_cards("AS 8D"), [parse_cards("8D"), parse_cards("8D")])
    (Counter({Card.parse('AS'): 1}), Counter({Card.parse('8D'): 1}))
    """
    expected = Counter(deck)
    found: Counter[T] = Counter()
    for zone in zones:
        found.update(zone)
    return expected - found, found - expected


_UNO_KEY = operator.attrgetter("_key")


def uno_card_keys(zones: Iterable[Iterable[UnoCard]]) -> list[int]:
    """The small integer keying each UNO card of ``zones`` (its hash), sorted: two sets of zones
    hold the same cards, counted with repeats, exactly when these lists are equal. Comparing them
    is the quick test of card conservation, about five times quicker than counting the cards.

    >>> uno_card_keys([[UnoCard.parse("R5")], [UnoCard.parse("W"), UnoCard.parse("R5")]])
    [13, 37, 37]
    """
    return sorted(map(_UNO_KEY, itertools.chain.from_iterable(zones)))
