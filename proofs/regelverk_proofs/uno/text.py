"""UNO's tables as the encodings read them: derived from ``spec/uno.toml``, never taken from
the engine.

The UNO encodings need the pack (which cards, how many of each), the sizes of the deal and of
every draw, and the points of each card. The engine has its own (``uno.rules.deck_for``,
``HAND_SIZE``, ``TURN_DRAW`` …); an encoding that imported them would share any mistake in
them, so these are built from the clause parameters (``UNO-DECK-108``, ``UNO-DECK-112``,
``UNO-DEAL-SEVEN``, the draw clauses), and the binding ``uno.text-tables`` (in
:mod:`regelverk_proofs.uno.binding.rules`) compares each with the engine's.
"""

from __future__ import annotations

from regelverk.cards import Colour, UnoCard, UnoValue
from regelverk.registry import parameter, registry_for
from regelverk.uno.options import UnoOptions

__all__ = [
    "CALL_PENALTY_DRAW",
    "CHALLENGE_FAILED_DRAW",
    "CHALLENGE_GUILTY_DRAW",
    "DRAW_TWO_DRAW",
    "FIRST_DRAW_TWO_DRAW",
    "HAND_SIZE",
    "TURN_DRAW",
    "WD4_DRAW",
    "deck_for",
]

HAND_SIZE = parameter("UNO-DEAL-SEVEN", "hand_size")
"""Cards dealt to each player (UNO-DEAL-SEVEN)."""
TURN_DRAW = parameter("UNO-DRAW-CANNOT-PLAY", "draw")
"""Cards drawn on a turn (UNO-DRAW-CANNOT-PLAY)."""
DRAW_TWO_DRAW = parameter("UNO-DRAW-TWO-EFFECT", "draw")
"""Cards a Draw Two makes the next player draw (UNO-DRAW-TWO-EFFECT)."""
FIRST_DRAW_TWO_DRAW = parameter("UNO-FIRST-CARD-DRAW-TWO", "draw")
"""Cards a Draw Two turned up first makes the first player draw (UNO-FIRST-CARD-DRAW-TWO)."""
WD4_DRAW = parameter("UNO-WD4-EFFECT", "draw")
"""Cards a Wild Draw Four makes the next player draw (UNO-WD4-EFFECT)."""
CHALLENGE_FAILED_DRAW = parameter("UNO-WD4-CHALLENGE-FAILED-SIX", "failed_challenge_draw")
"""Cards a failed challenger draws (UNO-WD4-CHALLENGE-FAILED-SIX)."""
CHALLENGE_GUILTY_DRAW = parameter("UNO-WD4-CHALLENGE-SUCCESS", "guilty_draw")
"""Cards the guilty player of a successful challenge draws (UNO-WD4-CHALLENGE-SUCCESS)."""
CALL_PENALTY_DRAW = parameter("UNO-CALL-PENALTY", "penalty_draw")
"""Cards a player caught without having called UNO draws (UNO-CALL-PENALTY)."""

_COLOUR_NAMES = {"red": Colour.RED, "yellow": Colour.YELLOW, "green": Colour.GREEN}
_COLOUR_NAMES["blue"] = Colour.BLUE
_NUMBERS = (
    UnoValue.ONE,
    UnoValue.TWO,
    UnoValue.THREE,
    UnoValue.FOUR,
    UnoValue.FIVE,
    UnoValue.SIX,
    UnoValue.SEVEN,
    UnoValue.EIGHT,
    UnoValue.NINE,
)


def _classic() -> tuple[UnoCard, ...]:
    """UNO-DECK-108's pack: per colour its zeros, two of each of 1-9, and its Skips, Reverses
    and Draw Twos; then the Wilds and Wild Draw Fours; as many of each as the clause's
    parameters say, and checked against its total."""
    p = dict(registry_for("UNO-DECK-108").clause("UNO-DECK-108").parameters)
    colours = p["colours"]
    assert isinstance(colours, tuple)
    cards: list[UnoCard] = []
    for name in colours:
        colour = _COLOUR_NAMES[str(name)]
        cards += [UnoCard(colour, UnoValue.ZERO)] * _int(p["zeros_per_colour"])
        for value in _NUMBERS:
            cards += [UnoCard(colour, value)] * _int(p["copies_of_1_to_9"])
        cards += [UnoCard(colour, UnoValue.SKIP)] * _int(p["skips_per_colour"])
        cards += [UnoCard(colour, UnoValue.REVERSE)] * _int(p["reverses_per_colour"])
        cards += [UnoCard(colour, UnoValue.DRAW_TWO)] * _int(p["draw_twos_per_colour"])
    cards += [UnoCard(None, UnoValue.WILD)] * _int(p["wilds"])
    cards += [UnoCard(None, UnoValue.WILD_DRAW_FOUR)] * _int(p["wild_draw_fours"])
    if len(cards) != _int(p["total"]):
        raise ValueError(f"UNO-DECK-108's parameters give {len(cards)} cards, not {p['total']}")
    return tuple(cards)


def _new() -> tuple[UnoCard, ...]:
    """UNO-DECK-112's pack: the classic one with its Shuffle Hands and blank wild cards."""
    p = dict(registry_for("UNO-DECK-112").clause("UNO-DECK-112").parameters)
    cards = list(_classic())
    cards += [UnoCard(None, UnoValue.SHUFFLE_HANDS)] * _int(p["shuffle_hands"])
    cards += [UnoCard(None, UnoValue.BLANK_WILD)] * _int(p["blank_wilds"])
    if len(cards) != _int(p["total"]):
        raise ValueError(f"UNO-DECK-112's parameters give {len(cards)} cards, not {p['total']}")
    return tuple(cards)


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


_PACKS = {
    parameter("UNO-DECK-108", "total"): _classic(),
    parameter("UNO-DECK-112", "total"): _new(),
}


def deck_for(options: UnoOptions) -> tuple[UnoCard, ...]:
    """The pack ``options.deck`` names (UNO-DECK-NEW-CARDS-OPTIONAL): 108 or 112 cards."""
    return _PACKS[options.deck]
