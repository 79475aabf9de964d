"""Viggo: readings of the trick's end and of the club-four opening that the one-scenario-per-clause
tests leave open.

Each test names the clause it checks and asserts on what the engine allows (``is_allowed``),
what it lists (``legal_actions``) and the trick on the table, so a wrong ruling fails an
assertion rather than raising. Four players P1-P4 play in seat order.
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.cards import parse_cards
from regelverk.engine import is_allowed, with_options
from regelverk.viggo import GAME, Pass, Play, ViggoState
from regelverk.viggo.state import ViggoAction

NAMES = ("P1", "P2", "P3", "P4")
CLUB_FOUR_HANDS = {"P1": "4C KD KS", "P2": "8H", "P3": "9H", "P4": "10H"}
"""P1 holds the 4♣ and a pair of kings that leaves it out."""


def pos(hands: dict[str, str], extra: dict[str, Any] | None = None, **options: Any) -> ViggoState:
    data: dict[str, Any] = {
        "players": list(NAMES),
        "turn": "P1",
        "hands": {name: cards.split() for name, cards in hands.items()},
        **(extra or {}),
    }
    state = GAME.position_from_data(data, with_options(GAME.options("viggo"), options))
    assert GAME.problems(state) == ()
    return state


def step(state: ViggoState, action: ViggoAction) -> ViggoState:
    assert is_allowed(GAME, state, action), action
    assert action in GAME.legal_actions(state), action
    after = GAME.apply(state, action).state
    assert GAME.problems(after) == ()
    return after


@pytest.mark.clause("VG-PLAY-TRICK-SET-ASIDE", "VG-PLAY-PASS-NOT-FINAL")
def test_VG_PLAY_TRICK_SET_ASIDE_one_lap_waits_for_every_other_player() -> None:
    """Under example_trick_end = one-lap the trick is set aside once every other player has had
    one turn after the lead: with four players, after the third reply, not after the second."""
    state = pos(
        {"P1": "5C 5D 9C", "P2": "8H 8S KD", "P3": "5S 6C 7D 8D 9H", "P4": "JC QC"},
        example_trick_end="one-lap",
    )
    for action in (Play.of("5C 5D"), Play.of("8H 8S"), Pass()):
        state = step(state, action)
    assert [laid.cards for laid in state.trick] == [parse_cards("5C 5D"), parse_cards("8H 8S")]
    assert state.player == "P4" and Pass() in GAME.legal_actions(state)
    closed = step(state, Pass())
    assert closed.trick == ()
    assert set(parse_cards("5C 5D 8H 8S")) <= set(closed.set_aside)


@pytest.mark.clause("VG-VAR-CLUB-FOUR-FREE-OPENING", "VG-VAR-CLUB-FOUR-STARTS")
def test_VG_VAR_CLUB_FOUR_FREE_OPENING_binds_only_the_opening_of_the_round() -> None:
    """Under club_four_opening = must-include only the round's opening must hold the 4♣: once a
    trick of the round has been set aside, the 4♣ holder leads as he likes."""
    opening = pos(
        CLUB_FOUR_HANDS,
        extra={"set_aside": []},
        club_four_starts=True,
        club_four_opening="must-include",
    )
    kings = Play.of("KD KS")
    assert not is_allowed(GAME, opening, kings) and kings not in GAME.legal_actions(opening)
    later = pos(
        CLUB_FOUR_HANDS,
        extra={"set_aside": ["2C", "2D", "2H", "2S"]},
        club_four_starts=True,
        club_four_opening="must-include",
    )
    assert later.set_aside and later.trick == ()
    assert is_allowed(GAME, later, kings) and kings in GAME.legal_actions(later)


@pytest.mark.clause("VG-VAR-CLUB-FOUR-FREE-OPENING", "VG-VAR-CLUB-FOUR-STARTS")
def test_VG_VAR_CLUB_FOUR_FREE_OPENING_by_default_the_opening_is_free() -> None:
    """By default (club_four_opening = free) the 4♣ holder opens the round but may open with any
    combination, with or without the 4♣."""
    opening = pos(CLUB_FOUR_HANDS, extra={"set_aside": []}, club_four_starts=True)
    for text in ("KD KS", "KD", "4C"):
        assert is_allowed(GAME, opening, Play.of(text)), text
        assert Play.of(text) in GAME.legal_actions(opening), text
