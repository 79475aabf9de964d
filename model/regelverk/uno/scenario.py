"""Short-hand positions for examples, questions and tests.

>>> from regelverk.uno.scenario import position
>>> state = position({"Anna": "R5 W", "Bo": "B7 G2"}, discard="R3", turn="Anna")
>>> state.top, state.players[state.turn]
(UnoCard.parse('R3'), 'Anna')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regelverk.cards import parse_uno_cards
from regelverk.engine import Outcome, PositionError
from regelverk.uno.actions import deal_hand
from regelverk.uno.invariants import problems
from regelverk.uno.options import UnoOptions, uno_options
from regelverk.uno.position import position_from_data
from regelverk.uno.rules import deck_for
from regelverk.uno.state import UnoState

__all__ = ["position", "stacked_deal"]


def position(
    hands: Mapping[str, str],
    *,
    discard: str,
    turn: str,
    options: UnoOptions | None = None,
    **extra: Any,
) -> UnoState:
    """A position from hands and a discard pile in card notation (top card last).

    The players sit in the order of ``hands``; the first one dealt. The rest of the pack is the
    draw pile. Further fields of the position format go in ``extra``. Raises
    :class:`~regelverk.engine.PositionError` for a position that cannot occur.
    """
    data = {
        "players": list(hands),
        "hands": {p: cards.split() for p, cards in hands.items()},
        "discard": discard.split(),
        "turn": turn,
        **extra,
    }
    state = position_from_data(data, options or uno_options())
    broken = problems(state)
    if broken:
        raise PositionError("the position cannot occur: " + "; ".join(broken))
    return state


def stacked_deal(
    first: str,
    *,
    players: Sequence[str] = ("Anna", "Bo", "Cia", "Dan"),
    options: UnoOptions | None = None,
    hands: str = "",
    seed: int = 0,
) -> Outcome[UnoState]:
    """The first player deals, and the first card turned up is ``first``.

    The cards ``hands`` are dealt first (one at a time from the dealer's left), then number
    cards, then the rest; the card after the deal is ``first``.
    """
    opts = options or uno_options()
    pack = list(deck_for(opts))
    top = parse_uno_cards(first)[0]
    wanted = list(parse_uno_cards(hands)) if hands else []
    for card in (*wanted, top):
        pack.remove(card)
    ordered = wanted + sorted(pack, key=lambda c: not c.value.is_number)
    size = 7 * len(players)
    return deal_hand(
        opts, players, dealer=0, pack=[*ordered[:size], top, *ordered[size:]], seed=seed
    )
