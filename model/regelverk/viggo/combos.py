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
from collections.abc import Sequence
from dataclasses import dataclass

from regelverk.cards import Card, Rank, Suit
from regelverk.trace import implements
from regelverk.viggo.options import (
    ClubThree,
    ClubThreeOthers,
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

_ROW_CLASS = (0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5)
"""The rank class of each position when the table's rows are read as equal ranks."""
_ORDERED_CLASS = tuple(range(13))


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
    return tuple(range(13)) if options.sequence_wrap is SequenceWrap.WRAP else tuple(range(9))


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


def _club_three(cards: Sequence[Card]) -> bool:
    return any(c.rank is Rank.THREE and c.suit is Suit.CLUBS for c in cards)


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
    if count == 0 or count > 5 or len(set(cards)) != count:
        return None
    classes = rank_class(options)
    positions = [_POS[c.rank] for c in cards]
    if count < 5:
        first = positions[0]
        if any(p != first for p in positions):
            return None
        three = first == THREE_POS
        return Combo(
            kind=SET_KINDS[count],
            cards=tuple(cards),
            key=classes[first],
            top_is_three=three,
            has_three=three,
            has_club_three=three and _club_three(cards),
        )
    top = _run_top(frozenset(positions), options)
    if top is None:
        return None
    has_three = THREE_POS in positions
    return Combo(
        kind=Kind.SEQUENCE,
        cards=tuple(cards),
        key=classes[top],
        top_is_three=top == THREE_POS,
        has_three=has_three,
        has_club_three=has_three and _club_three(cards),
    )


def _run_top(positions: frozenset[int], options: ViggoOptions) -> int | None:
    for start in run_starts(options):
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
    return " ".join(str(c) for c in cards)


_HIGHER = ("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-RANK-ORDER")


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
            clauses=("VG-PLAY-THREE-COMBINATION-BEATS",),
        )
    if new.key != old.key:
        higher = new.key > old.key
        return Verdict(
            allowed=higher,
            reason="it ranks higher" if higher else "it ranks lower",
            clauses=_HIGHER,
        )
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
    """An answer of the same rank: the club-three rule first; then the same-rank house rule
    forbids it; a three may beat a three (VG-AMB-THREE-BEATS-THREE-REACH says which types);
    otherwise only the equal-allowed reading of VG-AMB-EQUAL-RANK-REPLY lets it through."""
    club = _club_three_reply(new, old, options)
    if club is not None:
        return club
    if options.same_rank_once:
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
