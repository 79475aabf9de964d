"""The players of simulated UNO games (:mod:`regelverk.policies`).

``keen`` lays a card whenever one may be laid (uniformly among the plays), else takes any other
legal action uniformly. ``sensible`` plays as a plain player does: it makes every call that is
due and catches a player who forgot his, lays a card whenever one fits, a coloured card before
a wild one and the card worth most first, names the colour it holds most, plays a card just
drawn if it can, and never challenges a Wild Draw Four (it cannot see the hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from regelverk.cards import Colour, UnoCard
from regelverk.engine import best_of
from regelverk.uno.rules import card_points
from regelverk.uno.state import CallUno, Catch, Challenge, NameColour, Play, UnoState

__all__ = ["POLICIES", "keen", "sensible"]


def keen(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """A card whenever one may be laid, else any legal action."""
    plays = [action for action in legal if type(action) is Play]
    return chooser.choice(plays or legal)


def _held(state: UnoState, player: str, colour: Colour | None, laid: UnoCard | None) -> int:
    """How many cards of ``colour`` the player keeps after laying ``laid``."""
    hand = state.hands[state.players.index(player)]
    return sum(card.colour is colour for card in hand) - (
        laid is not None and laid.colour is colour
    )


def sensible(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """Calls and catches first, then the best card to lay, then a draw or a pass; a
    challenge only when nothing else is legal."""

    def worth(action: Any) -> tuple[int, ...]:
        kind = type(action)
        if kind is CallUno or kind is Catch:
            return (4,)
        if kind is Play:
            card = action.card
            named = 0 if action.colour is None else _held(state, action.player, action.colour, card)
            wild = card.colour is None
            return (3, action.uno, not wild, named, card_points(card, state.options))
        if kind is NameColour:
            return (3, 0, 0, _held(state, action.player, action.colour, None))
        if kind is Challenge:
            return (1,)
        return (2,)  # a draw (or taking the cards owed), or keeping the card just drawn

    return best_of(legal, worth, chooser)


POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {
    "keen": keen,
    "sensible": sensible,
}
"""The family's own players, by the names of :data:`regelverk.policies.POLICIES`."""
