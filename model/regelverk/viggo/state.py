"""Viggo's state and actions: frozen records of tuples, compared by value.

Seats are numbered 0, 1, … in the order the players are given, which is clockwise round the
table; ``options.direction`` says which way play goes. Cards in a hand are kept in rank order
(4 lowest, 3 highest), suits in bridge order within a rank.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from regelverk.cards import Card, parse_cards
from regelverk.viggo.options import ViggoOptions

__all__ = ["Keep", "Laid", "Pass", "Phase", "Play", "ViggoAction", "ViggoState"]


class Phase(enum.Enum):
    """Where a Viggo game stands."""

    DRAFT = "draft"
    """Two players build their hands from the stock (VG-DRAFT-NO-DEAL-TWO-PLAYERS)."""
    PLAY = "play"
    """Tricks are played until someone runs out of cards."""
    OVER = "over"
    """Someone has reached the losing total (VG-LOSS-FIRST-TO-53)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """Lay a combination: the lead of a trick, or a reply to it.

    >>> Play.of("5C 5D")
    Play(cards=(Card.parse('5C'), Card.parse('5D')), player=None)
    """

    cards: tuple[Card, ...]
    player: str | None = None
    """Who lays it; ``None`` for the player whose turn it is."""

    @classmethod
    def of(cls, text: str, player: str | None = None) -> Play:
        """A play from card notation."""
        return cls(cards=parse_cards(text), player=player)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Say pass instead of answering (VG-PLAY-REPLY-OR-PASS)."""

    player: str | None = None
    """Who passes; ``None`` for the player whose turn it is."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Keep:
    """In the two-player draft, keep ``card``, one of the two just drawn; the other is put away.

    Keeping the card looked at is VG-DRAFT-KEEP-SEEN-CARD; keeping the other is turning the seen
    card down (VG-DRAFT-REJECT-SEEN-TAKE-OTHER).
    """

    card: Card
    player: str | None = None
    """Who keeps it; ``None`` for the player whose turn it is."""


ViggoAction = Play | Pass | Keep
"""Every Viggo action."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Laid:
    """A combination laid in the current trick, and by whom."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ViggoState:
    """A whole Viggo game at one moment (not checked here: see ``problems``).

    ``trick`` holds the combinations laid in the trick being played, in order; ``passed`` the
    seats that have passed since the last play (or, when a pass is final, in the trick);
    ``highest`` the seat that laid highest in it (-1 before the lead). ``history`` holds each
    finished round's points, and ``scores`` their sums.
    """

    options: ViggoOptions
    players: tuple[str, ...]
    seed: int
    round: int
    phase: Phase
    dealer: int
    first_hand: int
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    put_away: tuple[Card, ...] = ()
    trick: tuple[Laid, ...] = ()
    passed: frozenset[int] = frozenset()
    highest: int = -1
    replies: int = 0
    set_aside: tuple[Card, ...] = ()
    scores: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    round_winner: int = -1
    losers: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def player(self) -> str:
        """The name of the player to act."""
        return self.players[self.turn]
