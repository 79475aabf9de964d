"""The players of simulated Viggo games (:mod:`regelverk.policies`).

``keen`` lays a card whenever one may be laid (uniformly among the plays), else takes any other
legal action uniformly. ``sensible`` plays as a plain player does: it answers a trick whenever
it can, with the lowest combination that beats it, and leads as many cards as it may, lowest
first, so its high cards are kept for the tricks it must win; in the two-player draft it keeps
the higher card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from regelverk.engine import best_of
from regelverk.viggo.combos import position
from regelverk.viggo.state import Keep, Play

__all__ = ["POLICIES", "keen", "sensible"]


def keen(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """A card whenever one may be laid, else any legal action."""
    plays = [action for action in legal if type(action) is Play]
    return chooser.choice(plays or legal)


def sensible(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """The longest, then lowest, combination it may lay; else a pass."""

    def worth(action: Any) -> tuple[int, ...]:
        kind = type(action)
        if kind is Play:
            return (2, len(action.cards), -max(position(card) for card in action.cards))
        if kind is Keep:
            return (2, 1, position(action.card))
        return (1,)  # a pass

    return best_of(legal, worth, chooser)


POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {
    "keen": keen,
    "sensible": sensible,
}
"""The family's own players, by the names of :data:`regelverk.policies.POLICIES`."""
