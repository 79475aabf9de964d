"""Viggo's tables as the encoding reads them: derived from ``spec/`` and written from the text,
never taken from the engine.

The Viggo encoding (:mod:`regelverk_proofs.viggo.encoding.rules`) needs a few small tables: how the
ranks are ordered, how the cards are numbered, which positions a run may start at, how strong each
rank counts under the grouped-rows reading, how many cards each seat is dealt and when the 4♣
opens a round. The engine has its own functions for each (``combos.rank_class``,
``combos.run_starts``, ``rounds.hand_sizes``, ``rounds.club_four_opens``, ``combos.card_index``);
were the encoding to import them, a wrong engine function would make the encoding wrong in the
same way and no binding could see it. So each table here is derived from the clause parameters of
``spec/viggo.toml`` or written out from the text's own table, and the binding
``viggo.text-tables`` (in :mod:`regelverk_proofs.viggo.binding.rules`) compares each with the
engine's function for every option value and player count that changes it.
"""

from __future__ import annotations

from typing import assert_never

from regelverk.cards import Card, Rank, Suit
from regelverk.registry import parameter, registry_for
from regelverk.viggo.options import (
    ClubFourScope,
    FirstLeader,
    GroupedRanks,
    SequenceWrap,
    ThreePlayerDeal,
    ViggoOptions,
)

__all__ = [
    "CARDS",
    "CARD_OF",
    "CLUB_FOUR_INDEX",
    "CLUB_THREE_INDEX",
    "HAND_SIZE",
    "POINTS_PER_CARD",
    "RANK_ORDER",
    "RUN_LENGTH",
    "THREE_POS",
    "WINNER_POINTS",
    "card_number",
    "club_four_opens",
    "hand_sizes",
    "rank_class",
    "run_starts",
]


def _rank_order() -> tuple[Rank, ...]:
    """VG-RANK-ORDER's parameter ``rank_order`` (low to high) as ranks."""
    clause = registry_for("VG-RANK-ORDER").clause("VG-RANK-ORDER")
    names = dict(clause.parameters)["rank_order"]
    assert isinstance(names, tuple)
    by_name = {r.text: r for r in Rank}
    return tuple(by_name[str(n)] for n in names)


RANK_ORDER: tuple[Rank, ...] = _rank_order()
"""The ranks from lowest to highest, as VG-RANK-ORDER's parameter lists them."""
SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""Suits in bridge order: they only number the cards (suits count for nothing in Viggo,
VG-RANK-SUITS-IGNORED, except for the 3♣ and 4♣ the house rules name)."""
CARDS = parameter("VG-SETUP-DECK-52-NO-JOKERS", "deck_size")
"""The cards in the pack (VG-SETUP-DECK-52-NO-JOKERS)."""
HAND_SIZE = parameter("VG-DEAL-THIRTEEN-EACH", "hand_size")
"""The cards each player starts a round with (VG-DEAL-THIRTEEN-EACH)."""
POINTS_PER_CARD = parameter("VG-SCORE-POINT-PER-CARD", "points_per_card")
"""Points for each card left in hand at a round's end (VG-SCORE-POINT-PER-CARD)."""
WINNER_POINTS = parameter("VG-SCORE-WINNER-ZERO", "winner_points")
"""What the round's winner scores (VG-SCORE-WINNER-ZERO)."""
CLUB_FOUR_PLAYERS = parameter("VG-VAR-CLUB-FOUR-STARTS", "players")
"""The table size at which the club-four house rule applies (VG-VAR-CLUB-FOUR-STARTS)."""
RUN_LENGTH = 5
"""Cards in a sequence (VG-COMBO-SEQUENCE-OF-FIVE)."""
THREE_POS = RANK_ORDER.index(Rank.THREE)
"""The position of the three, the highest rank (VG-RANK-THREE-HIGHEST)."""


_RANK_PLACE = {id(rank): place * len(SUIT_ORDER) for place, rank in enumerate(RANK_ORDER)}
_SUIT_PLACE = {id(suit): place for place, suit in enumerate(SUIT_ORDER)}
# ranks and suits are enum singletons, looked up by identity (quicker than an enum's hash)


def card_number(card: Card) -> int:
    """The encoding's number of ``card``, 0-51: its rank's position in :data:`RANK_ORDER`
    times four plus its suit's place in :data:`SUIT_ORDER` (so 4♣ is 0 and 3♠ is 51)."""
    return _RANK_PLACE[id(card.rank)] + _SUIT_PLACE[id(card.suit)]


CARD_OF: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANK_ORDER for suit in SUIT_ORDER)
"""The card the encoding numbers ``i`` (the inverse of :func:`card_number`)."""
CLUB_THREE_INDEX = card_number(Card(Rank.THREE, Suit.CLUBS))
"""The number of the 3♣ (the club-three house rule's card)."""
CLUB_FOUR_INDEX = card_number(Card(Rank.FOUR, Suit.CLUBS))
"""The number of the 4♣ (the club-four house rule's card)."""

_ROWS: tuple[tuple[Rank, ...], ...] = (
    (Rank.FOUR,),
    (Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE),
    (Rank.KING, Rank.QUEEN, Rank.JACK),
    (Rank.ACE,),
    (Rank.TWO,),
    (Rank.THREE,),
)
"""The rows of the text's rank table (§4 ¶1), lowest row first: 4; 10 down to 5; K Q J; A; 2;
3 (VG-RANK-FOUR-LOWEST, VG-RANK-TEN-TO-FIVE, VG-RANK-KING-QUEEN-JACK, VG-RANK-ACE-THIRD,
VG-RANK-TWO-SECOND, VG-RANK-THREE-HIGHEST)."""


def rank_class(options: ViggoOptions) -> tuple[int, ...]:
    """The strength of each position: the position itself under the ordered reading of
    VG-AMB-GROUPED-RANK-ROWS, or the number of its row in the text's table under the
    equal-within-row reading."""
    match options.grouped_ranks:
        case GroupedRanks.ORDERED:
            return tuple(range(len(RANK_ORDER)))
        case GroupedRanks.EQUAL_WITHIN_ROW:
            row_of = {rank: i for i, row in enumerate(_ROWS) for rank in row}
            return tuple(row_of[rank] for rank in RANK_ORDER)
        case _:
            assert_never(options.grouped_ranks)


def run_starts(options: ViggoOptions) -> tuple[int, ...]:
    """The positions a five-card run may start at: a run never wraps past the 3 under the
    no-wrap reading of VG-AMB-SEQUENCE-WRAP, so it starts from the 4 up to the position whose
    run ends on the 3 (Q-K-A-2-3, VG-SEQ-RANK-ORDER); under the wrap reading anywhere."""
    match options.sequence_wrap:
        case SequenceWrap.NO_WRAP:
            return tuple(range(len(RANK_ORDER) - RUN_LENGTH + 1))
        case SequenceWrap.WRAP:
            return tuple(range(len(RANK_ORDER)))
        case _:
            assert_never(options.sequence_wrap)


def hand_sizes(options: ViggoOptions, count: int) -> tuple[int, ...]:
    """Cards dealt to each seat, first hand first: :data:`HAND_SIZE` each (VG-DEAL-THIRTEEN-EACH;
    for two players the draft ends at the same count), except at three players under the
    other readings of VG-AMB-THREE-PLAYER-DEAL: the pack dealt as far as it goes evenly (one
    card aside), or dealt out whole (the first hand takes the odd card)."""
    if count != 3:
        return (HAND_SIZE,) * count
    match options.three_player_deal:
        case ThreePlayerDeal.THIRTEEN_EACH:
            return (HAND_SIZE,) * count
        case ThreePlayerDeal.SEVENTEEN_EACH_ONE_ASIDE:
            return (CARDS // count,) * count
        case ThreePlayerDeal.DEAL_ALL_UNEVEN:
            even = CARDS // count
            extra = CARDS - even * count
            return tuple(even + (1 if seat < extra else 0) for seat in range(count))
        case _:
            assert_never(options.three_player_deal)


def club_four_opens(options: ViggoOptions, count: int, round_no: int) -> bool:
    """Whether the 4♣'s holder opens round ``round_no``: under the house rule
    VG-VAR-CLUB-FOUR-STARTS at its table size, in every round or the first only
    (VG-AMB-CLUB-FOUR-SCOPE); or in the first round under the club-four-holder reading of
    VG-AMB-FIRST-ROUND-LEADER."""
    house = options.club_four_starts and count == CLUB_FOUR_PLAYERS
    match options.club_four_scope:
        case ClubFourScope.EVERY_ROUND:
            in_scope = True
        case ClubFourScope.FIRST_ROUND_ONLY:
            in_scope = round_no == 1
        case _:
            assert_never(options.club_four_scope)
    match options.first_leader:
        case FirstLeader.CLUB_FOUR_HOLDER:
            first = round_no == 1
        case FirstLeader.PLAYER_AFTER_DEALER:
            first = False
        case _:
            assert_never(options.first_leader)
    return (house and in_scope) or first
