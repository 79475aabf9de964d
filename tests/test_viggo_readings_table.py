"""Viggo: the register entries a second reading of text 003 added, each played from its own
situation under the default reading and under the other one.

* VG-AMB-PASS-WHEN-ABLE: may a player pass while he holds a combination that beats?
* VG-AMB-CLUB-THREE-SAME-RANK: with the club-three and the same-rank house rules both on, may
  the 3♣ be laid on another three?
"""

from __future__ import annotations

from typing import Any

import pytest

from regelverk.engine import IllegalActionError, Outcome, with_options
from regelverk.registry import default_registry
from regelverk.viggo import GAME, Pass, Phase, Play, ViggoState
from regelverk.viggo.state import ViggoAction

NAMES = ("P1", "P2", "P3", "P4")
PASS = Pass()
REGISTRY = default_registry()


def pos(
    hands: dict[str, str],
    *,
    turn: str = "P1",
    trick: tuple[tuple[str, str], ...] = (),
    **overrides: Any,
) -> ViggoState:
    data: dict[str, Any] = {
        "players": list(NAMES),
        "turn": turn,
        "hands": {name: cards.split() for name, cards in hands.items()},
        "trick": [{"player": p, "cards": c.split()} for p, c in trick],
    }
    state = GAME.position_from_data(data, with_options(GAME.options("viggo"), overrides))
    assert GAME.problems(state) == ()
    return state


def ok(state: ViggoState, action: ViggoAction) -> Outcome[ViggoState]:
    assert action in GAME.legal_actions(state)
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    return outcome


def no(state: ViggoState, action: ViggoAction, *clauses: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        GAME.apply(state, action)
    assert set(clauses) <= set(caught.value.clauses), caught.value
    assert action not in GAME.legal_actions(state)
    return caught.value


def test_the_new_entries_are_in_the_register_with_their_options() -> None:
    book = REGISTRY.rulebook("viggo")
    entries = {a.id: a for a in book.ambiguities}
    preset = GAME.options("viggo")
    for entry, option in (
        ("VG-AMB-PASS-WHEN-ABLE", "pass_when_able"),
        ("VG-AMB-CLUB-THREE-SAME-RANK", "club_three_same_rank"),
    ):
        assert entries[entry].option == option
        assert getattr(preset, option).value == entries[entry].default


# --- VG-AMB-PASS-WHEN-ABLE ---------------------------------------------------------------------

KING_KEPT = {"P1": "9C 6H", "P2": "KD 4S", "P3": "5H 7H", "P4": "8H 10H"}
"""The entry's situation: P1 leads the 9C; P2 holds the KD and would rather keep it."""


def nine_led(**overrides: Any) -> ViggoState:
    return ok(pos(KING_KEPT, **overrides), Play.of("9C")).state


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS")
def test_VG_PLAY_REPLY_OR_PASS_pass_is_free_by_default() -> None:
    state = nine_led()
    assert state.player == "P2" and PASS in GAME.legal_actions(state)
    assert ok(state, PASS).state.player == "P3"


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-BEAT-SAME-TYPE-HIGHER")
def test_VG_PLAY_REPLY_OR_PASS_must_beat_when_able() -> None:
    state = nine_led(pass_when_able="must-beat")
    error = no(state, PASS, "VG-PLAY-REPLY-OR-PASS", "VG-PLAY-BEAT-SAME-TYPE-HIGHER")
    assert "P2 may not pass" in str(error) and "K♦" in str(error)
    assert GAME.legal_actions(state) == (Play.of("KD"),)
    assert ok(state, Play.of("KD")).state.player == "P3"


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-TRICK-SET-ASIDE")
def test_VG_PLAY_TRICK_SET_ASIDE_must_beat_only_those_who_cannot_pass() -> None:
    """Under must-beat a player who cannot beat still passes, and the trick closes as usual
    when no one can beat the top."""
    state = ok(nine_led(pass_when_able="must-beat"), Play.of("KD")).state
    for seat in ("P3", "P4", "P1"):
        assert state.player == seat and GAME.legal_actions(state) == (PASS,)
        state = ok(state, PASS).state
    assert state.trick == () and state.player == "P3"


@pytest.mark.clause("VG-PLAY-PAIR-LEAD-PAIRS-ONLY", "VG-PLAY-REPLY-OR-PASS")
def test_VG_PLAY_PAIR_LEAD_PAIRS_ONLY_must_beat_with_a_pair() -> None:
    """A pair on top: a player holding a higher pair must lay it under must-beat; a higher
    single card does not oblige him."""
    hands = {"P1": "5C 5D KC", "P2": "8H 8S AS", "P3": "6H 7H", "P4": "9H 10H"}
    free = ok(pos(hands), Play.of("5C 5D")).state
    assert PASS in GAME.legal_actions(free)
    must = ok(pos(hands, pass_when_able="must-beat"), Play.of("5C 5D")).state
    no(must, PASS, "VG-PLAY-REPLY-OR-PASS")
    assert GAME.legal_actions(must) == (Play.of("8H 8S"),)
    only_singles = {"P1": "5C 5D KC", "P2": "AS 2S", "P3": "6H 7H", "P4": "9H 10H"}
    lone = ok(pos(only_singles, pass_when_able="must-beat"), Play.of("5C 5D")).state
    assert GAME.legal_actions(lone) == (PASS,)


# --- VG-AMB-CLUB-THREE-SAME-RANK ---------------------------------------------------------------

BOTH: dict[str, Any] = {"club_three_on_top": "club-three-on-top", "same_rank_once": True}
CLUB_LAST = {"P1": "3H 6H", "P2": "3C", "P3": "5H 7H", "P4": "8H 10H"}
"""The entry's situation: P1 leads the 3H; P2's last card is the 3C."""


@pytest.mark.clause("VG-VAR-CLUB-THREE-HIGHEST-SINGLE", "VG-VAR-SAME-RANK-ONCE")
def test_VG_VAR_CLUB_THREE_HIGHEST_SINGLE_beats_a_three_under_the_same_rank_rule() -> None:
    state = ok(pos(CLUB_LAST, **BOTH), Play.of("3H")).state
    outcome = ok(state, Play.of("3C"))
    assert outcome.state.round == 2 and outcome.state.history[-1][1] == 0


@pytest.mark.clause("VG-VAR-SAME-RANK-ONCE", "VG-VAR-CLUB-THREE-HIGHEST-SINGLE")
def test_VG_VAR_SAME_RANK_ONCE_forbids_the_club_three_on_a_three() -> None:
    state = ok(pos(CLUB_LAST, club_three_same_rank="same-rank-forbids", **BOTH), Play.of("3H"))
    error = no(state.state, Play.of("3C"), "VG-VAR-SAME-RANK-ONCE")
    assert "3♣" in str(error)
    assert GAME.legal_actions(state.state) == (PASS,)
    after = ok(state.state, PASS).state
    assert after.phase is Phase.PLAY and after.round == 1 and len(after.hands[1]) == 1


@pytest.mark.clause("VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES", "VG-VAR-SAME-RANK-ONCE")
def test_VG_VAR_CLUB_THREE_PAIRS_AND_SEQUENCES_under_the_same_rank_rule() -> None:
    """A pair holding the 3♣ on a pair of other threes: allowed by default, refused when the
    same-rank rule wins; on a pair of twos it is allowed under both readings, and nothing is
    laid on the 3♣ under either."""
    hands = {"P1": "3H 3S 2C 2D", "P2": "3C 3D 6C", "P3": "5H 7H", "P4": "8H 10H"}
    for reading, allowed in (("club-three-beats-threes", True), ("same-rank-forbids", False)):
        threes = ok(pos(hands, club_three_same_rank=reading, **BOTH), Play.of("3H 3S")).state
        assert (Play.of("3C 3D") in GAME.legal_actions(threes)) is allowed, reading
        if not allowed:
            no(threes, Play.of("3C 3D"), "VG-VAR-SAME-RANK-ONCE")
        twos = ok(pos(hands, club_three_same_rank=reading, **BOTH), Play.of("2C 2D")).state
        assert Play.of("3C 3D") in GAME.legal_actions(twos), reading
    on_top = {"P1": "3C 6H", "P2": "3H 4D", "P3": "5H 7H", "P4": "8H 10H"}
    for reading in ("club-three-beats-threes", "same-rank-forbids"):
        state = ok(pos(on_top, club_three_same_rank=reading, **BOTH), Play.of("3C")).state
        no(state, Play.of("3H"))


@pytest.mark.clause("VG-VAR-SAME-RANK-ONCE")
def test_VG_VAR_SAME_RANK_ONCE_reading_matters_only_with_both_house_rules() -> None:
    """Without the same-rank rule the reading changes nothing: the 3♣ beats the 3H under the
    club-three rule, and a three beats a three under the main rule."""
    choices: tuple[dict[str, Any], ...] = ({"club_three_on_top": "club-three-on-top"}, {})
    for others in choices:
        state = ok(
            pos(CLUB_LAST, club_three_same_rank="same-rank-forbids", **others), Play.of("3H")
        ).state
        assert ok(state, Play.of("3C")).state.round == 2
