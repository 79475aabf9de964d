"""UNO: readings of the matching rules that the one-scenario-per-clause tests leave open.

Each test names the clause it checks and asserts on what the engine allows (``is_allowed``) and
what it lists (``legal_actions``), so a wrong ruling fails an assertion rather than raising.
Four players sit Anna, Bo, Cia, Dan; the top of the discard pile is written last.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import Colour, UnoCard
from regelverk.engine import is_allowed, with_options
from regelverk.uno import GAME, Play, UnoOptions, UnoState
from regelverk.uno.scenario import position

OPTIONS = GAME.options("uno")
C = UnoCard.parse


def opts(**changes: Any) -> UnoOptions:
    return with_options(OPTIONS, changes)


def anna_to_play(anna: str, discard: str, options: UnoOptions) -> UnoState:
    hands = {"Anna": anna, "Bo": "B1 B2", "Cia": "Y1 Y2", "Dan": "Y3 Y4"}
    state = position(hands, discard=discard, turn="Anna", options=options)
    assert GAME.problems(state) == ()
    return state


def listed_cards(state: UnoState) -> set[str]:
    return {str(a.card) for a in GAME.legal_actions(state) if isinstance(a, Play)}


@pytest.mark.clause("UNO-SKIP-WHEN-PLAYABLE", "UNO-REVERSE-WHEN-PLAYABLE")
def test_UNO_SKIP_WHEN_PLAYABLE_on_a_skip_of_another_colour_under_same_colour_only() -> None:
    """action_symbol_match = same-colour-only is about Reverse and Draw Two: a Skip still goes
    on a Skip of another colour, while a Reverse no longer goes on a Reverse."""
    strict = opts(action_symbol_match="same-colour-only")
    skip = anna_to_play("BS G2", "R3 GS", strict)
    assert is_allowed(GAME, skip, Play(player="Anna", card=C("BS")))
    assert str(C("BS")) in listed_cards(skip)
    reverse = anna_to_play("BR G2", "R3 GR", strict)
    assert not is_allowed(GAME, reverse, Play(player="Anna", card=C("BR")))
    assert str(C("BR")) not in listed_cards(reverse)


@pytest.mark.clause("UNO-BLANK-WILD-PLAIN", "UNO-WILD-PLAY-ANYTIME")
def test_UNO_BLANK_WILD_PLAIN_is_listed_as_a_wild_unless_a_dead_card() -> None:
    """In the 112-card pack a blank wild is played as a plain Wild, on anything and with a
    colour named, and is listed so; under blank_wild = dead-card it fits nowhere."""
    plain = anna_to_play("WX G2", "B+2 BS", opts(deck=112))
    for colour in Colour:
        play = Play(player="Anna", card=C("WX"), colour=colour)
        assert is_allowed(GAME, plain, play)
        assert play in GAME.legal_actions(plain)
    dead = anna_to_play("WX G2", "B+2 BS", opts(deck=112, blank_wild="dead-card"))
    assert not is_allowed(GAME, dead, Play(player="Anna", card=C("WX"), colour=Colour.RED))
    assert str(C("WX")) not in listed_cards(dead)
