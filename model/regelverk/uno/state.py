"""The state of a game of UNO and the actions players take, as frozen records.

A state is the referee's view of the table: every hand, the draw pile in order (its first card
is the next one drawn), the discard pile (its last card is on top), the colour in force, the
direction, whose decision it is and what kind of decision (:class:`Phase`), the scores, and the
seed from which every later shuffle is derived.

Players are seat numbers ``0 .. n-1``; seat ``i + 1`` sits on seat ``i``'s left, and play to
the left (clockwise) goes up the seat numbers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from regelverk.cards import Colour, UnoCard
from regelverk.uno.options import UnoOptions

__all__ = [
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "Direction",
    "Draw",
    "NameColour",
    "Pass",
    "Phase",
    "Play",
    "UnoState",
    "WildDrawFour",
]


class Direction(enum.IntEnum):
    """The direction of play (UNO-TURN-DIRECTION, UNO-REVERSE-EFFECT)."""

    LEFT = 1
    """Clockwise, to the left: up the seat numbers. Every hand starts this way."""
    RIGHT = -1
    """Counter-clockwise, to the right: down the seat numbers."""

    def __repr__(self) -> str:
        return f"Direction.{self.name}"


class Phase(enum.Enum):
    """What kind of decision the player in turn faces."""

    PLAY = "play"
    """Lay a card that fits, or draw one."""
    DRAWN = "drawn"
    """He has drawn a card that fits: lay it or keep it (UNO-DRAW-PLAY-DRAWN)."""
    NAME_COLOUR = "name-colour"
    """Name the colour: a first-card Wild, or after Shuffle Hands."""
    CHALLENGE = "challenge"
    """Hit by a Wild Draw Four: challenge it or draw the four cards (UNO-WD4-CHALLENGE-WHEN)."""
    STACK = "stack"
    """Stacking house rule: pass the draw on with a Draw Two, or draw it (UNO-VARIANT-STACKING)."""
    GAME_OVER = "game-over"
    """Somebody has reached the target score (UNO-WIN-GAME-500)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class WildDrawFour:
    """A Wild Draw Four waiting for its victim's answer, and what a challenge would reveal."""

    player: int
    """The seat of the player who laid it."""
    held: tuple[UnoCard, ...]
    """His hand as it was the moment after he laid it: the hand a challenge shows."""
    colour_before: Colour | None
    """The colour in force when it was laid (the colour of the condition)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnoState:
    """A moment of a game of UNO, from the referee's side of the table.

    Not checked on construction: :func:`regelverk.uno.invariants.problems` lists every invariant a
    state breaks.
    """

    options: UnoOptions
    players: tuple[str, ...]
    dealer: int
    hands: tuple[tuple[UnoCard, ...], ...]
    draw_pile: tuple[UnoCard, ...]
    """The draw pile, its first card on top (drawn next)."""
    discard: tuple[UnoCard, ...]
    """The discard pile, its last card on top."""
    colour: Colour | None
    """The current colour; ``None`` only while a colour is still to be named."""
    turn: int
    """The seat of the player who must act now."""
    direction: Direction = Direction.LEFT
    phase: Phase = Phase.PLAY
    after: int | None = None
    """In :attr:`Phase.NAME_COLOUR`: who acts once the colour is named."""
    pending_draw: int = 0
    """In :attr:`Phase.STACK`: the cards owed by the player in turn."""
    drawn: UnoCard | None = None
    """In :attr:`Phase.DRAWN`: the card just drawn, the only one he may lay."""
    wild_draw_four: WildDrawFour | None = None
    """In :attr:`Phase.CHALLENGE`: the card waiting for the victim's answer."""
    exposed: int | None = None
    """A player who left himself one card without calling UNO and can still be caught."""
    scores: tuple[int, ...]
    results: tuple[tuple[int, ...], ...] = ()
    """The points each player got in each hand played; ``scores`` are their sums."""
    winners: tuple[int, ...] = ()
    """The winners of the game, once it is over."""
    hand_number: int = 1
    seed: int = 0
    shuffles: int = 0
    """How many shuffles the game has had: shuffle ``k`` is seeded from ``(seed, k)``."""

    @property
    def top(self) -> UnoCard:
        """The top card of the discard pile."""
        return self.discard[-1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """Lay ``card``; ``colour`` names the colour for a Wild, Wild Draw Four or blank wild.

    ``uno`` is the call of "UNO" made with the card (UNO-CALL-UNO); it is only allowed with the
    next-to-last card.
    """

    player: str
    card: UnoCard
    colour: Colour | None = None
    uno: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """Draw: one card on a turn, the cards owed by a Draw Two, or a Wild Draw Four accepted."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Keep the card just drawn and end the turn (UNO-DRAW-TURN-PASSES)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge:
    """Challenge the Wild Draw Four just laid on you (UNO-WD4-CHALLENGE-WHEN)."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NameColour:
    """Name the colour: after a first-card Wild or a Shuffle Hands."""

    player: str
    colour: Colour


@dataclass(frozen=True, slots=True, kw_only=True)
class CallUno:
    """Call "UNO" after laying the next-to-last card, before the next player begins."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Catch:
    """``player`` points out that ``target`` has not called UNO (UNO-CALL-PENALTY)."""

    player: str
    target: str


Action = Play | Draw | Pass | Challenge | NameColour | CallUno | Catch
"""Every kind of action in UNO; players are named as in :attr:`UnoState.players`."""
