"""A Vändåtta position carries all the history the rules read: written out and read back, every
state reached by play and by mistakes is the same state (shuffles so far, idle passes, every
set of face-down cards with its timing, calls, presence, restarts and draws)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from strategies import playable

from regelverk.engine import OptionError, with_options
from regelverk.vandatta import GAME
from regelverk.vandatta.options import DealerWithoutLoser
from regelverk.vandatta.state import Back, ExtraCard, Play, State, StepAway

ROUND_TRIPS = 30


def _same_after_writing(state: State) -> None:
    data = json.loads(json.dumps(GAME.position_to_data(state)))
    back = GAME.position_from_data(data, state.options)
    differing = [name for name in State.__slots__ if getattr(back, name) != getattr(state, name)]
    assert back == state, differing


def _mistake(state: State, rng: random.Random) -> Any:
    seat = rng.randrange(len(state.players))
    hand = state.hands[seat]
    kind = rng.randrange(4)
    if kind == 0 or not hand:
        return ExtraCard(player=seat)
    if kind == 1:
        return Play(player=seat, cards=(rng.choice(hand),))
    return StepAway(player=seat) if kind == 2 else Back(player=seat)


def _options(rulebook: str, rng: random.Random) -> Any:
    table = playable(rulebook)
    changes = {name: rng.choice(table[name]) for name in rng.sample(sorted(table), 4)}
    try:
        return with_options(GAME.options(rulebook), {"presence": True, **changes})
    except OptionError:  # a combination the engine refuses: play the preset
        return with_options(GAME.options(rulebook), {"presence": True})


@pytest.mark.clause(
    "V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",
    "V8-PEN-OVERDRAW-KEEP-LOCKED",
    "V8-WIN-BLOCKED-DEAL-VOID",
    "V8-TALON-REBUILD-TOP-ASIDE",
)
@pytest.mark.parametrize("rulebook", ["vvv8", "vandatta"])
def test_every_state_reached_reads_back_from_its_position(rulebook: str) -> None:
    rng = random.Random(f"positions-{rulebook}")
    checked = 0
    for game_number in range(ROUND_TRIPS):
        options = _options(rulebook, rng)
        players = [f"P{n}" for n in range(1, 4 + game_number % 2)]
        state = GAME.deal(options, players, game_number)
        for _ in range(250):
            if GAME.is_over(state):
                break
            legal = GAME.legal_actions(state)
            if rulebook == "vvv8" and rng.random() < 0.2:
                state = GAME.attempt(state, _mistake(state, rng)).state
            elif legal:
                state = GAME.apply(state, rng.choice(legal)).state
            else:
                break
            _same_after_writing(state)
            checked += 1
    assert checked > 1000


@pytest.mark.clause("V8-PEN-OVERDRAW-KEEP-LOCKED", "V8-PEN-STANDARD-THREE-CARDS")
def test_several_face_down_sets_keep_their_timing_in_a_position() -> None:
    options = with_options(
        GAME.options("vvv8"), {"dealer_draw": False, "overdraw_other_draws": "standard-penalty"}
    )
    state = GAME.deal(options, ["P1", "P2", "P3"], 80)
    state = GAME.attempt(state, GAME.legal_actions(state)[0]).state
    for _ in range(2):
        state = GAME.attempt(state, ExtraCard(player=0)).state
    written = GAME.position_to_data(state)["penalties"]["P1"]
    assert isinstance(written, list) and all(isinstance(item, dict) for item in written)
    assert {item["release_after"] for item in written} <= {0, 1, 2}
    _same_after_writing(state)
    plain = GAME.position_from_data(
        {"players": ["A", "B", "C"], "pile": ["9H"], "penalties": {"A": ["4S", "5S"]}}, options
    )
    assert GAME.position_to_data(plain)["penalties"] == {"A": ["4S", "5S"]}


@pytest.mark.clause("V8-DEALER-DRAW-HELD")
def test_a_dealer_left_to_a_draw_is_refused_where_nobody_draws_for_the_deal() -> None:
    """'dealer': null leaves the dealer to vvv8's draw for the deal; common Vändåtta holds no
    such draw, so its position must name the dealer instead of borrowing vvv8's."""
    data: dict[str, Any] = {"players": ["Ann", "Bo", "Cy"], "phase": "ready", "dealer": None}
    with pytest.raises(ValueError, match="do not hold"):
        GAME.position_from_data(data, GAME.options("vandatta"))
    drawn = GAME.position_from_data(data, GAME.options("vvv8"))
    assert drawn.dealer is None
    dealt = GAME.apply(drawn, GAME.legal_actions(drawn)[0])
    assert any("V8-DEALER-DRAW-HELD" in e.clauses for e in dealt.events)


@pytest.mark.clause("V8-DEALER-DRAW-HELD")
def test_a_dealer_left_to_a_new_draw_after_no_loser_is_read_back() -> None:
    """Under dealer_without_loser = new-draw (V8-AMB-DEALER-AFTER-NO-LOSER) a deal without an
    official loser leaves the next dealer to a fresh draw even where the first deal's dealer is
    not drawn (dealer_draw off): the engine writes such a position with 'dealer': null, and the
    reader must take it back (a random state-machine run found the refusal)."""
    options = dataclasses.replace(
        GAME.options("vandatta"), dealer_without_loser=DealerWithoutLoser.NEW_DRAW
    )
    assert not options.dealer_draw
    for phase in ("ready", "deal-over"):
        data: dict[str, Any] = {"players": ["Ann", "Bo", "Cy"], "phase": phase, "dealer": None}
        state = GAME.position_from_data(data, options)
        assert state.dealer is None
        written = GAME.position_to_data(state)
        assert written["dealer"] is None
        assert GAME.position_to_data(GAME.position_from_data(written, options)) == written
