"""The end of an UNO hand in Z3: the official table of card values and the target score
(``uno.legal-ending``).

:func:`ending` gives, for hands as counts of each face and the totals before the hand, what the
engine's model credits the player going out and whether the game is over, beside what the rules
give. The theorem leaves the counts and totals open; the binding
(:data:`regelverk_proofs.uno.binding.rules.HAND_END`) feeds it the hands and totals of positions the
engine really scores and compares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from regelverk.cards import UnoCard, UnoValue
from regelverk.registry import parameter
from regelverk.uno.options import BlankWildPoints, UnoOptions
from regelverk.uno.rules import card_points
from regelverk_proofs.z3api import Bool, Int, any_of, sum_of

__all__ = ["Ending", "ending", "official_points"]

_ROWS: tuple[tuple[str, frozenset[UnoValue]], ...] = (
    ("UNO-SCORE-ACTION-20", frozenset({UnoValue.SKIP, UnoValue.REVERSE, UnoValue.DRAW_TWO})),
    ("UNO-SCORE-WILDS-50", frozenset({UnoValue.WILD, UnoValue.WILD_DRAW_FOUR})),
    ("UNO-SCORE-NEW-WILDS-40", frozenset({UnoValue.SHUFFLE_HANDS, UnoValue.BLANK_WILD})),
)
"""The rows of the official table of card values, by the clause that gives each; a number
counts its face (UNO-SCORE-NUMBER-FACE)."""

_ROW_POINTS = {
    "UNO-SCORE-ACTION-20": {
        UnoValue.SKIP: parameter("UNO-SCORE-ACTION-20", "skip_points"),
        UnoValue.REVERSE: parameter("UNO-SCORE-ACTION-20", "reverse_points"),
        UnoValue.DRAW_TWO: parameter("UNO-SCORE-ACTION-20", "draw_two_points"),
    },
    "UNO-SCORE-WILDS-50": {
        UnoValue.WILD: parameter("UNO-SCORE-WILDS-50", "wild_points"),
        UnoValue.WILD_DRAW_FOUR: parameter("UNO-SCORE-WILDS-50", "wild_draw_four_points"),
    },
    "UNO-SCORE-NEW-WILDS-40": {
        UnoValue.SHUFFLE_HANDS: parameter("UNO-SCORE-NEW-WILDS-40", "shuffle_hands_points"),
        UnoValue.BLANK_WILD: parameter("UNO-SCORE-NEW-WILDS-40", "blank_wild_points"),
    },
}
"""The values each row gives, read from the spec's parameters of its clause (not from the
engine's tables)."""


def official_points(
    card: UnoCard, weaken: frozenset[str] = frozenset(), options: UnoOptions | None = None
) -> Int:
    """What the official table says ``card`` is worth, row by row from the clauses (not from
    the engine's :func:`~regelverk.uno.rules.card_points`); a weakened clause's row is an
    unknown. Under ``blank_wild_points = fifty`` (UNO-AMB-BLANK-WILD-POINTS) a blank wild takes
    the value text 004 gives a wild card in a hand (UNO-SCORE-WILD-50)."""
    value = card.value
    fifty = options is not None and options.blank_wild_points is BlankWildPoints.FIFTY
    if value.is_number:
        row, points = "UNO-SCORE-NUMBER-FACE", int(value.value)
    elif value is UnoValue.BLANK_WILD and fifty:
        row, points = "UNO-SCORE-WILD-50", parameter("UNO-SCORE-WILD-50", "wild_points")
    else:
        row = next(clause for clause, values in _ROWS if value in values)
        points = _ROW_POINTS[row][value]
    if row in weaken:
        return Int.var(f"points.{card.code}")
    return Int.const(points)


@dataclass(frozen=True, slots=True)
class Ending:
    """The end of a hand in the encoding: what the engine's model credits (``collected``, the
    sum of :func:`~regelverk.uno.rules.card_points` over every hand) and whether it ends the
    game (``over``: a total at or above the target), against what the rules give
    (``official``, the opponents' cards by :func:`official_points`) and whether they end it
    (``reached``)."""

    collected: Int
    over: Bool
    official: Int
    reached: Bool
    new: tuple[Int, ...]
    totals: tuple[Int, ...]


def ending(  # noqa: PLR0917 - the parts of one hand's end
    held: Callable[[UnoCard, int], Int],
    faces: Sequence[UnoCard],
    scores: Sequence[Int],
    winner: int,
    target: int,
    weaken: frozenset[str] = frozenset(),
    options: UnoOptions | None = None,
) -> Ending:
    """The hand's end when seat ``winner`` goes out, the others holding ``held(face, seat)``
    cards of each face, with the totals ``scores`` before it and the target score ``target``
    (UNO-SCORE-WINNER-COLLECTS, UNO-WIN-GAME-500), card values read under ``options``."""
    n = len(scores)
    everyone = [held(f, h) * card_points(f, options) for f in faces for h in range(n)]
    collected = sum_of(everyone)
    new = tuple(s + (collected if h == winner else 0) for h, s in enumerate(scores))
    over = any_of(s >= target for s in new)
    official = sum_of(
        held(f, h) * official_points(f, weaken, options)
        for f in faces
        for h in range(n)
        if h != winner
    )
    totals = tuple(s + (official if h == winner else 0) for h, s in enumerate(scores))
    if "UNO-WIN-GAME-500" in weaken:
        reached = any_of(t > target for t in totals)
    else:
        reached = any_of(t >= target for t in totals)
    return Ending(collected, over, official, reached, new, totals)
