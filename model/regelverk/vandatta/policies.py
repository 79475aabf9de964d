"""The players of simulated Vändåtta games (:mod:`regelverk.policies`).

``keen`` lays a card whenever one may be laid (uniformly among the plays), else takes any other
legal action uniformly. ``sensible`` plays as a plain player does: it lays cards whenever it
may, as many at once as it may, an eight only when nothing else fits, and otherwise the cards
worth most (the points a hand is counted by); it names the suit it holds most, says utgång
whenever the rules let it, deals the next deal, and else draws or passes as the rules require.
Between deals of a vvv8 session it closes the scoring on a leap day with chance
:data:`LEAP_DAY_CHANCE`, so a session lasts ten deals on average where a random or keen player
stops after about two.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from regelverk.cards import Suit
from regelverk.engine import best_of
from regelverk.vandatta.rules import is_eight
from regelverk.vandatta.scoring import card_points
from regelverk.vandatta.state import Deal, LeapDay, NameSuit, Play, State

__all__ = ["LEAP_DAY_CHANCE", "POLICIES", "keen", "sensible"]

LEAP_DAY_CHANCE = 0.1
"""The chance that the sensible player closes a vvv8 session when a leap day may come."""


def keen(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """A card whenever one may be laid, else any legal action."""
    plays = [action for action in legal if type(action) is Play]
    return chooser.choice(plays or legal)


def _kept(state: State, seat: int, suit: Suit | None, laid: tuple[Any, ...]) -> int:
    """How many cards of ``suit`` the seat keeps after laying ``laid``."""
    return sum(card.suit is suit for card in state.hands[seat] if card not in laid)


def sensible(state: Any, legal: Sequence[Any], chooser: random.Random) -> Any:
    """The best play (see the module), else the next deal, else what the rules leave."""
    if any(type(action) is LeapDay for action in legal) and chooser.random() < LEAP_DAY_CHANCE:
        return next(action for action in legal if type(action) is LeapDay)

    def worth(action: Any) -> tuple[int, ...]:
        kind = type(action)
        if kind is Play:
            cards = action.cards
            named = 0 if action.suit is None else _kept(state, action.player, action.suit, cards)
            plain = not any(is_eight(card) for card in cards)
            return (3, len(cards), plain, action.call, named, card_points(cards))
        if kind is NameSuit:
            return (3, 0, 0, 0, _kept(state, action.player, action.suit, ()) + 1)
        if kind is Deal:
            return (3,)
        if kind is LeapDay:
            return (0,)
        return (2, getattr(action, "call", False))  # a draw or a pass, calling where it may

    return best_of(legal, worth, chooser)


POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {
    "keen": keen,
    "sensible": sensible,
}
"""The family's own players, by the names of :data:`regelverk.policies.POLICIES`."""
