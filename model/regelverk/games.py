"""Which engine serves which rulebook: the family its descriptor names (vvv8 and vandatta share
the Vändåtta engine).

Each game family is a subpackage whose module ``game`` holds ``GAME``, an object following
:class:`regelverk.engine.Game`. Engines are imported only when asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from regelverk.books import rulebook as described
from regelverk.engine import Game
from regelverk.errors import RegelverkError

__all__ = ["ENGINE", "EngineMissingError", "game_for"]

ENGINE = "regelverk.{family}.game"
"""The module holding a family's ``GAME``."""


class EngineMissingError(RegelverkError):
    """A rulebook whose engine has not been built yet."""


def game_for(rulebook: str) -> Game[Any, Any, Any]:
    """The engine of a rulebook; :class:`EngineMissingError` while it has not landed."""
    name = ENGINE.format(family=described(rulebook).family)
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
