"""Viggo's ranks, its five kinds of combination, and the relation "this reply beats that one".

The rank order runs 4 (lowest) up to 3 (highest); a card's *position* is its place in that order
(4 is 0, 3 is 12). Suits count for nothing except under the club-three house rule.

>>> from regelverk.cards import parse_cards
>>> from regelverk.viggo.options import ViggoOptions
>>> o = ViggoOptions()
>>> five = classify(parse_cards("5C 5D"), o)
>>> eight = classify(parse_cards("8H 8S"), o)
>>> five is not None and eight is not None and beats(eight, five, o).allowed
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from regelverk.cards import Card, Rank, french_deck
from regelverk.marks import implements
from regelverk.viggo.options import (
    ClubThree,
    ClubThreeOthers,
    ClubThreeSameRank,
    EqualRankReply,
    GroupedRanks,
    SequenceWrap,
    ThreeBeatsThree,
    ThreeInCombination,
    ViggoOptions,
)

__all__ = [
    "RANK_ORDER",
    "Combo",
    "Kind",
    "Verdict",
    "beats",
    "classify",
    "describe",
    "position",
    "rank_class",
    "run_starts",
]

RANK_ORDER: tuple[Rank, ...] = (
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
    Rank.TWO,
    Rank.THREE,
)
"""The ranks from lowest to highest (VG-RANK-ORDER)."""

_POS: list[int] = [0] * 15
for _i, _r in enumerate(RANK_ORDER):
    _POS[_r] = _i
THREE_POS = 12
"""The position of the three, the highest rank."""
_SUIT_N = {"C": 0, "D": 1, "H": 2, "S": 3}
"""Suit letters in bridge order (the letters, not the members: hashing a plain enum member runs
Python code, hashing a short string does not)."""


def card_index(card: Card) -> int:
    """A card as a number 0-51: its position times four plus its suit in bridge order, so that
    numbers sort as hands are sorted (a private helper of the hot path; not a rule).

    >>> card_index(Card.parse("4C")), card_index(Card.parse("3S"))
    (0, 51)
    """
    return _POS[card.rank] * 4 + _SUIT_N[card.suit._value_]


CARD_OF: tuple[Card, ...] = tuple(sorted(french_deck(), key=card_index))
"""The card numbered ``i`` by :func:`card_index`."""
CLUB_THREE_INDEX = 48
"""The number of the 3♣."""
BIT_OF_KEY: tuple[int, ...] = tuple(
    sum(1 << i for i, c in enumerate(CARD_OF) if c._key == key) for key in range(64)
)
"""``1 << card_index(card)`` by the card's own small integer (its hash), read straight from
its slot: the private helpers below run on every move listed and played."""
INDEX_OF_KEY: tuple[int, ...] = tuple(bit.bit_length() - 1 for bit in BIT_OF_KEY)
""":func:`card_index` by the card's own small integer, as :data:`BIT_OF_KEY` (-1 for no card)."""


def card_mask(cards: Sequence[Card]) -> int:
    """The set of ``cards`` as a bit mask of their :func:`card_index` numbers."""
    bits = BIT_OF_KEY
    mask = 0
    for c in cards:
        mask |= bits[c._key]
    return mask


def sorted_mask(cards: Sequence[Card]) -> int:
    """:func:`card_mask` of ``cards`` when they are in hand order (each card once, sorted as
    :func:`card_index` numbers them); otherwise -1."""
    bits = BIT_OF_KEY
    mask = 0
    last = 0
    for c in cards:
        bit = bits[c._key]
        if bit <= last:
            return -1
        mask |= bit
        last = bit
    return mask


def without(cards: Sequence[Card], gone: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` in their order, less every card equal to one of ``gone`` (cards are one object
    per face, so equal is identical, which ``in`` tests without calling back into Python)."""
    return tuple([c for c in cards if c not in gone])


def codes(cards: Sequence[Card]) -> tuple[str, ...]:
    """The cards' ASCII notation, as events carry it."""
    return tuple([c.code for c in cards])


_ROW_CLASS = (0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5)
"""The rank class of each position when the table's rows are read as equal ranks."""
_ORDERED_CLASS = tuple(range(13))
_ALL_STARTS = tuple(range(13))
_NINE_STARTS = tuple(range(9))


@implements(
    "VG-RANK-ORDER",
    "VG-RANK-THREE-HIGHEST",
    "VG-RANK-TWO-SECOND",
    "VG-RANK-ACE-THIRD",
    "VG-RANK-KING-QUEEN-JACK",
    "VG-RANK-TEN-TO-FIVE",
    "VG-RANK-FOUR-LOWEST",
)
def position(card: Card) -> int:
    """A card's place in the rank order: 4 is 0, then 5 … 10, J, Q, K, A, 2, and 3 is 12.

    >>> from regelverk.cards import Card
    >>> position(Card.parse("4C")), position(Card.parse("AS")), position(Card.parse("3H"))
    (0, 10, 12)
    """
    return _POS[card.rank]


@implements("VG-RANK-ORDER", "VG-RANK-KING-QUEEN-JACK", "VG-RANK-TEN-TO-FIVE")
def rank_class(options: ViggoOptions) -> tuple[int, ...]:
    """The strength of each position: the position itself, or, when the table's grouped rows
    are read as equal (VG-AMB-GROUPED-RANK-ROWS), one class for 5-10 and one for J-Q-K."""
    if options.grouped_ranks is GroupedRanks.EQUAL_WITHIN_ROW:
        return _ROW_CLASS
    return _ORDERED_CLASS


@implements("VG-SEQ-RANK-ORDER", "VG-SEQ-NO-WRAP-COMPARE-TOP")
def run_starts(options: ViggoOptions) -> tuple[int, ...]:
    """The positions a five-card run may start at: 4 up to Q (nine runs, 4-5-6-7-8 to
    Q-K-A-2-3), or every position when runs wrap (VG-AMB-SEQUENCE-WRAP)."""
    return _ALL_STARTS if options.sequence_wrap is SequenceWrap.WRAP else _NINE_STARTS


class Kind(enum.Enum):
    """The five types of combination."""

    SINGLE = "single"
    """One card (VG-COMBO-SINGLE)."""
    PAIR = "pair"
    """Two cards of one rank (VG-COMBO-PAIR)."""
    THREE_OF_A_KIND = "three of a kind"
    """Three cards of one rank (VG-COMBO-THREE-OF-A-KIND)."""
    FOUR_OF_A_KIND = "four of a kind"
    """All four cards of one rank (VG-COMBO-FOUR-OF-A-KIND)."""
    SEQUENCE = "sequence"
    """Five cards of consecutive ranks, any suits (VG-COMBO-SEQUENCE-OF-FIVE)."""

    def __repr__(self) -> str:
        return f"Kind.{self.name}"


SET_KINDS: dict[int, Kind] = {
    1: Kind.SINGLE,
    2: Kind.PAIR,
    3: Kind.THREE_OF_A_KIND,
    4: Kind.FOUR_OF_A_KIND,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Combo:
    """A combination read under a set of options.

    ``key`` is its strength (the rank class of its rank, or of a run's top card in run order);
    ``top_is_three`` says that the card deciding ``key`` is a three.
    """

    kind: Kind
    cards: tuple[Card, ...]
    key: int
    top_is_three: bool
    has_three: bool
    has_club_three: bool


@implements(
    "VG-COMBO-SINGLE",
    "VG-COMBO-PAIR",
    "VG-COMBO-THREE-OF-A-KIND",
    "VG-COMBO-FOUR-OF-A-KIND",
    "VG-COMBO-SEQUENCE-OF-FIVE",
    "VG-RANK-SUITS-IGNORED",
)
def classify(cards: Sequence[Card], options: ViggoOptions) -> Combo | None:
    """The combination ``cards`` form, or ``None``: a single, a pair, three or four of a kind
    (one rank), or a run of five consecutive ranks in the rank order; suits never matter."""
    count = len(cards)
    if count == 0 or count > 5:
        return None
    classes = rank_class(options)
    starts = run_starts(options)
    mask = sorted_mask(cards)
    if mask >= 0:  # cards in hand order, as every play listed by legal_actions is
        return _sorted_combo(mask, count, classes, starts)
    shape = _shape(card_mask(cards), count, classes, starts)
    if shape is None:
        return None
    kind, key, top_is_three, has_three, has_club_three = shape
    return Combo(
        kind=kind,
        cards=tuple(cards),
        key=key,
        top_is_three=top_is_three,
        has_three=has_three,
        has_club_three=has_club_three,
    )


@lru_cache(maxsize=8192)
def _sorted_combo(
    mask: int, count: int, classes: tuple[int, ...], starts: tuple[int, ...]
) -> Combo | None:
    """:func:`classify` of the cards of ``mask`` in hand order: a pure function of hashable
    values, cached; the combination is immutable, so every caller may share it."""
    shape = _shape(mask, count, classes, starts)
    if shape is None:
        return None
    kind, key, top_is_three, has_three, has_club_three = shape
    return Combo(
        kind=kind,
        cards=tuple(CARD_OF[i] for i in range(52) if mask >> i & 1),
        key=key,
        top_is_three=top_is_three,
        has_three=has_three,
        has_club_three=has_club_three,
    )


def combo_reader(options: ViggoOptions) -> Callable[[int, int], Combo | None]:
    """A function ``read(mask, count)`` giving what :func:`classify` gives for the ``count``
    cards whose :func:`card_mask` is ``mask`` (but for the order of the combination's
    ``cards``, which is the hand's), remembered mask by mask: a private helper of legal-move
    generation, which judges the same few thousand combinations again and again."""
    return _reader(rank_class(options), run_starts(options))


@lru_cache(maxsize=16)
def _reader(
    classes: tuple[int, ...], starts: tuple[int, ...]
) -> Callable[[int, int], Combo | None]:
    read: dict[int, Combo | None] = {}

    def combo(mask: int, count: int) -> Combo | None:
        key = mask << 3 | count
        found = read.get(key, _UNREAD)
        if found is _UNREAD:
            found = read[key] = _sorted_combo(mask, count, classes, starts)
        return found  # type: ignore[return-value]

    return combo


_UNREAD = object()


@lru_cache(maxsize=8192)
def _shape(
    mask: int, count: int, classes: tuple[int, ...], starts: tuple[int, ...]
) -> tuple[Kind, int, bool, bool, bool] | None:
    """What :func:`classify` derives from a set of cards: kind, key, top is a three, holds a
    three, holds the 3♣; ``None`` for no combination (a card named twice included). A pure
    function of hashable values, cached."""
    if mask.bit_count() != count:
        return None
    positions = [i >> 2 for i in range(52) if mask >> i & 1]
    club_three = bool(mask >> CLUB_THREE_INDEX & 1)
    if count < 5:
        first = positions[0]
        if any(p != first for p in positions):
            return None
        three = first == THREE_POS
        return SET_KINDS[count], classes[first], three, three, club_three
    top = _run_top(frozenset(positions), starts)
    if top is None:
        return None
    has_three = THREE_POS in positions
    return Kind.SEQUENCE, classes[top], top == THREE_POS, has_three, club_three


def _run_top(positions: frozenset[int], starts: tuple[int, ...]) -> int | None:
    for start in starts:
        if positions == frozenset((start + i) % 13 for i in range(5)):
            return (start + 4) % 13
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """Whether a reply beats the combination it covers, why, and by which clauses.

    ``strict`` is false for a reply that only matches the rank it covers (a three on a three,
    or an equal rank where that is allowed): see VG-AMB-LEAD-AFTER-HIGHEST-TIE.
    """

    allowed: bool
    reason: str
    clauses: tuple[str, ...]
    strict: bool = True


def describe(cards: Sequence[Card]) -> str:
    """Cards as printed at the table: ``5♣ 5♦``."""
    return " ".join([c._text for c in cards])


_HIGHER = ("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-RANK-ORDER")
_RANKED = {
    (higher, run, three): Verdict(
        allowed=higher,
        reason="it ranks higher" if higher else "it ranks lower",
        clauses=_HIGHER
        + (("VG-SEQ-NO-WRAP-COMPARE-TOP",) if run else ())
        + (("VG-RANK-THREE-HIGHEST",) if three else ()),
    )
    for higher in (True, False)
    for run in (True, False)
    for three in (True, False)
}
"""The verdicts on a reply of another rank, by: it ranks higher, the two are runs, a three
decides the rank of either. Each cites the clauses that ranked them: the rank order; for runs,
that a run ranks by its top card (VG-SEQ-NO-WRAP-COMPARE-TOP); where a three is the deciding
card, that the three ranks highest (VG-RANK-THREE-HIGHEST), the clause the three-trumps reading
of VG-AMB-THREE-IN-COMBINATION reads otherwise."""


@implements(
    "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    "VG-PLAY-NO-TYPE-SWITCH",
    "VG-PLAY-PAIR-LEAD-PAIRS-ONLY",
    "VG-PLAY-EIGHTS-BEAT-FIVES",
    "VG-SEQ-JACK-TO-TWO-BEATS-FIVE-TO-NINE",
    "VG-PLAY-THREE-COMBINATION-BEATS",
)
def beats(new: Combo, old: Combo, options: ViggoOptions) -> Verdict:
    """Whether ``new`` may be laid on ``old``: the same type (no switching in a trick), and a
    higher rank; equal ranks are settled by :func:`_equal_reply`. Under the three-trumps reading
    of VG-AMB-THREE-IN-COMBINATION a combination holding a three beats one without first."""
    if new.kind is not old.kind:
        clauses: tuple[str, ...] = ("VG-PLAY-NO-TYPE-SWITCH", "VG-PLAY-BEAT-SAME-TYPE-HIGHER")
        if old.kind is Kind.PAIR:
            clauses += ("VG-PLAY-PAIR-LEAD-PAIRS-ONLY",)
        return Verdict(
            allowed=False,
            reason=f"the trick is one of {old.kind.value}s, and no one may switch type in it",
            clauses=clauses,
        )
    if (
        options.three_in_combination is ThreeInCombination.THREE_TRUMPS
        and new.has_three != old.has_three
    ):
        return Verdict(
            allowed=new.has_three,
            reason=(
                "a combination holding a three beats one of its type without"
                if new.has_three
                else "a combination without a three cannot beat one holding a three"
            ),
            clauses=("VG-PLAY-THREE-COMBINATION-BEATS",)
            + (("VG-COMBO-SEQUENCE-OF-FIVE",) if new.kind is Kind.SEQUENCE else ()),
        )
    if new.key != old.key:
        return _RANKED[
            new.key > old.key, new.kind is Kind.SEQUENCE, new.top_is_three or old.top_is_three
        ]
    return _equal_reply(new, old, options)


@implements(
    "VG-VAR-CLUB-THREE-HIGHEST-SINGLE",
    "VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES",
    "VG-VAR-CLUB-THREE-IS-USUAL-HOUSE-RULE",
)
def _club_three_reply(new: Combo, old: Combo, options: ViggoOptions) -> Verdict | None:
    """The club-three house rule on equal ranks: the 3♣ beats the other threes, in singles, sets
    and runs; nothing beats it; and by default plain threes no longer beat one another."""
    if options.club_three_on_top is not ClubThree.CLUB_THREE_ON_TOP:
        return None
    clauses: tuple[str, ...] = (
        "VG-VAR-CLUB-THREE-HIGHEST-SINGLE"
        if new.kind is Kind.SINGLE
        else "VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES",
    )
    if new.has_club_three and old.has_three:
        return Verdict(
            allowed=True, reason="the 3♣ beats the other threes (club-three rule)", clauses=clauses
        )
    if old.has_club_three:
        return Verdict(
            allowed=False, reason="nothing beats the 3♣ (club-three rule)", clauses=clauses
        )
    if (
        new.top_is_three
        and old.top_is_three
        and options.club_three_others is ClubThreeOthers.ONLY_CLUB_BEATS_THREES
    ):
        return Verdict(
            allowed=False,
            reason="under the club-three rule only the 3♣ beats a three",
            clauses=(*clauses, "VG-RANK-THREE-BEATS-THREE"),
        )
    return None


@implements(
    "VG-RANK-THREE-BEATS-THREE",
    "VG-VAR-SAME-RANK-ONCE",
    "VG-VAR-CLUB-THREE-SEQUENCES-CLIMB",
)
def _equal_reply(new: Combo, old: Combo, options: ViggoOptions) -> Verdict:
    """An answer of the same rank: the club-three rule first (unless, with the same-rank house
    rule on too, that rule comes first: VG-AMB-CLUB-THREE-SAME-RANK); then the same-rank house
    rule forbids it; a three may beat a three (VG-AMB-THREE-BEATS-THREE-REACH says which types);
    otherwise only the equal-allowed reading of VG-AMB-EQUAL-RANK-REPLY lets it through."""
    once_first = (
        options.same_rank_once
        and options.club_three_same_rank is ClubThreeSameRank.SAME_RANK_FORBIDS
    )
    club = None if once_first else _club_three_reply(new, old, options)
    if club is not None:
        return club
    if options.same_rank_once:
        if (
            once_first
            and new.has_club_three
            and old.has_three
            and options.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP
        ):
            return Verdict(
                allowed=False,
                reason="the same rank may not be laid twice in a row, not even the 3♣ on a "
                "three (same-rank house rule, same-rank-forbids reading)",
                clauses=("VG-VAR-SAME-RANK-ONCE", "VG-VAR-CLUB-THREE-HIGHEST-SINGLE"),
            )
        return Verdict(
            allowed=False,
            reason="the same rank may not be laid twice in a row (same-rank house rule)",
            clauses=("VG-VAR-SAME-RANK-ONCE",),
        )
    if (
        new.top_is_three
        and old.top_is_three
        and (options.three_beats_three is ThreeBeatsThree.ALL_TYPES or new.kind is Kind.SINGLE)
    ):
        return Verdict(
            allowed=True,
            reason="a three may beat a three",
            clauses=("VG-RANK-THREE-BEATS-THREE",),
            strict=False,
        )
    if options.equal_rank_reply is EqualRankReply.EQUAL_ALLOWED:
        return Verdict(
            allowed=True,
            reason="an equal rank may answer (equal-allowed reading)",
            clauses=("VG-PLAY-BEAT-SAME-TYPE-HIGHER",),
            strict=False,
        )
    clauses: tuple[str, ...] = ("VG-PLAY-BEAT-SAME-TYPE-HIGHER",)
    if new.top_is_three:
        clauses += ("VG-RANK-THREE-BEATS-THREE",)
    if new.kind is Kind.SEQUENCE and options.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP:
        clauses += ("VG-VAR-CLUB-THREE-SEQUENCES-CLIMB",)
    return Verdict(
        allowed=False,
        reason="it does not rank higher",
        clauses=clauses,
    )
