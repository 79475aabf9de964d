"""UNO-SHUFFLE-HANDS-ANYTIME: Shuffle Hands may be laid on any turn, also by a player who holds
other cards he could lay (the one scenario test beside the clause holds none)."""

from __future__ import annotations

import pytest

from regelverk.cards import UnoCard
from regelverk.engine import is_allowed, with_options
from regelverk.uno import GAME, Play, UnoState
from regelverk.uno.scenario import position

C = UnoCard.parse
BIG = with_options(GAME.options("uno"), {"deck": 112})


def _table(anna: str, discard: str) -> UnoState:
    hands = {"Anna": anna, "Bo": "B1 B2", "Cia": "Y1 Y2", "Dan": "Y3 Y4"}
    return position(hands, discard=discard, turn="Anna", options=BIG)


@pytest.mark.clause("UNO-SHUFFLE-HANDS-ANYTIME")
@pytest.mark.parametrize(
    ("anna", "discard", "also"),
    [
        ("WSH R1 G2", "B5 R3", "R1"),  # a card of the colour in force
        ("WSH B3 G2", "R5 R3", "B3"),  # a card of the same number
        ("WSH W Y2", "B5 R3", "W"),  # a Wild, which goes on anything
    ],
)
def test_shuffle_hands_is_laid_though_another_card_fits(anna: str, discard: str, also: str) -> None:
    state = _table(anna, discard)
    listed = GAME.legal_actions(state)
    assert any(a.card == C(also) for a in listed if isinstance(a, Play)), "no other card fits"
    shuffle = Play(player="Anna", card=C("WSH"))
    assert shuffle in listed
    assert is_allowed(GAME, state, shuffle)
    GAME.check(state, shuffle)
