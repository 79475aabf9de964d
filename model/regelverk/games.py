"""Which engine serves which rulebook: vvv8 and vandatta share the Vändåtta engine.

Each game family is a subpackage exposing ``GAME``, an object following
:class:`regelverk.engine.Game`. They are imported only when asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from regelverk.engine import Game
from regelverk.errors import RegelverkError, UnknownRulebookError
from regelverk.registry import RULEBOOKS

__all__ = ["FAMILIES", "EngineMissingError", "game_for"]

FAMILIES: dict[str, str] = {
    "vvv8": "regelverk.vandatta",
    "vandatta": "regelverk.vandatta",
    "viggo": "regelverk.viggo",
    "uno": "regelverk.uno",
}
"""The module of the engine of each rulebook."""


class EngineMissingError(RegelverkError):
    """A rulebook whose engine has not been built yet."""


def game_for(rulebook: str) -> Game[Any, Any, Any]:
    """The engine of a rulebook; :class:`EngineMissingError` while it has not landed."""
    if rulebook not in FAMILIES:
        raise UnknownRulebookError(rulebook, RULEBOOKS)
    name = FAMILIES[rulebook]
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise EngineMissingError(
            f"the {rulebook} engine ({name}) has not been built yet: its clauses are pending"
        ) from None
    game: Game[Any, Any, Any] = module.GAME
    return game
