"""Viggo: the climbing game of text 003, for two to four players, as an immutable state machine.

>>> from regelverk.viggo import GAME
>>> state = GAME.deal(GAME.options("viggo"), ("P1", "P2", "P3", "P4"), seed=3)
>>> [len(hand) for hand in state.hands], state.player
([13, 13, 13, 13], 'P1')
>>> GAME.problems(state)
()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regelverk.lazy import exports

if TYPE_CHECKING:
    from regelverk.viggo.combos import Combo, Kind, Verdict, beats, classify
    from regelverk.viggo.game import GAME, ViggoGame
    from regelverk.viggo.options import ViggoOptions
    from regelverk.viggo.state import Keep, Laid, Pass, Phase, Play, ViggoAction, ViggoState

__all__ = [
    "GAME",
    "Combo",
    "Keep",
    "Kind",
    "Laid",
    "Pass",
    "Phase",
    "Play",
    "Verdict",
    "ViggoAction",
    "ViggoGame",
    "ViggoOptions",
    "ViggoState",
    "beats",
    "classify",
]

__getattr__ = exports(
    __name__,
    {
        "GAME": "game",
        "ViggoGame": "game",
        "Combo": "combos",
        "Kind": "combos",
        "Verdict": "combos",
        "beats": "combos",
        "classify": "combos",
        "ViggoOptions": "options",
        "Keep": "state",
        "Laid": "state",
        "Pass": "state",
        "Phase": "state",
        "Play": "state",
        "ViggoAction": "state",
        "ViggoState": "state",
    },
)
