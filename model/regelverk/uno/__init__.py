"""UNO: text 004's action cards and the official rules it presupposes, as one engine.

:data:`GAME` follows :class:`regelverk.engine.Game`; the ``uno`` rulebook is the preset
:func:`~regelverk.uno.options.uno_options`. Cards use the notation of :mod:`regelverk.cards`
(``R5``, ``BS``, ``YR``, ``G+2``, ``W``, ``W+4``, ``WSH``, ``WX``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regelverk.lazy import exports

if TYPE_CHECKING:
    from regelverk.uno.game import GAME, UnoGame
    from regelverk.uno.options import UnoOptions, uno_options
    from regelverk.uno.state import (
        Action,
        CallUno,
        Catch,
        Challenge,
        Direction,
        Draw,
        NameColour,
        Pass,
        Phase,
        Play,
        UnoState,
        WildDrawFour,
    )

__all__ = [
    "GAME",
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
    "UnoGame",
    "UnoOptions",
    "UnoState",
    "WildDrawFour",
    "uno_options",
]

__getattr__ = exports(
    __name__,
    {
        "GAME": "game",
        "UnoGame": "game",
        "UnoOptions": "options",
        "uno_options": "options",
        "Action": "state",
        "CallUno": "state",
        "Catch": "state",
        "Challenge": "state",
        "Direction": "state",
        "Draw": "state",
        "NameColour": "state",
        "Pass": "state",
        "Phase": "state",
        "Play": "state",
        "UnoState": "state",
        "WildDrawFour": "state",
    },
)
