"""The Vändåtta engine: ``vvv8`` (000, VVVänd8) and ``vandatta`` (001) as two presets of one
immutable state machine.

>>> from regelverk.vandatta import GAME
>>> state = GAME.deal(GAME.options("vandatta"), ["Ann", "Bo", "Cy", "Di"], seed=3)
>>> outcome = GAME.apply(state, GAME.legal_actions(state)[0])
>>> [len(hand) for hand in outcome.state.hands]
[7, 7, 7, 7]
>>> GAME.problems(outcome.state)
()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regelverk.lazy import exports

if TYPE_CHECKING:
    from regelverk.vandatta.game import GAME, VandattaGame
    from regelverk.vandatta.options import VANDATTA, VVV8, VandattaOptions

__all__ = ["GAME", "VANDATTA", "VVV8", "VandattaGame", "VandattaOptions"]

__getattr__ = exports(
    __name__,
    {
        "GAME": "game",
        "VandattaGame": "game",
        "VANDATTA": "options",
        "VVV8": "options",
        "VandattaOptions": "options",
    },
)
