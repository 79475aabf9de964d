"""The private, unchecked fast path for random Vändåtta deals against the public, checked API.

``_random_deal_fast`` promises to end a deal, from a :class:`random.Random` in the same state, in
the very state the public API reaches when each step takes
``rng.choice(GAME.legal_actions(state))``. These tests drive both with the same seeds for three,
four and five players under both presets, deal by deal through whole matches, and compare the
hands, pile, stock, turned cards, turn, calls, winner, loser, record (wins, losses, points) and
every other field of the state, and the random generators' states afterwards.
"""

from __future__ import annotations

import random

import pytest

from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta._fast import _random_deal_fast, _random_deal_from_start
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import Deal, Phase, State

NAMES = ("P1", "P2", "P3", "P4", "P5")


def _public_deal(state: State, rng: random.Random) -> State:
    """Deal and play one deal through the public API by random legal choice."""
    state = GAME.apply(state, Deal()).state
    while state.phase in (Phase.PLAY, Phase.START_SUIT):
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
    return state


def _assert_same(public: State, fast: State) -> None:
    for name in ("hands", "pile", "stock", "turned", "turn", "calls", "winner", "loser"):
        assert getattr(fast, name) == getattr(public, name), name
    assert fast.record == public.record
    assert fast == public


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("preset", [VANDATTA, VVV8], ids=["vandatta", "vvv8"])
def test_fast_deal_matches_public_api(preset: VandattaOptions, players: int) -> None:
    """Many single deals from fresh matches: the same end state and the same random state."""
    for seed in range(60):
        start = GAME.deal(preset, NAMES[:players], seed)
        public_rng, fast_rng = random.Random(seed), random.Random(seed)
        public = _public_deal(start, public_rng)
        fast = _random_deal_from_start(start, fast_rng)
        _assert_same(public, fast)
        assert public_rng.getstate() == fast_rng.getstate()


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("preset", [VANDATTA, VVV8], ids=["vandatta", "vvv8"])
def test_fast_deals_match_through_a_match(preset: VandattaOptions, players: int) -> None:
    """Deal after deal of one match (points, seats dropping out, next dealers, leap-day-free
    vvv8 tallies): each deal ends alike from the same state."""
    for seed in range(3):
        state = GAME.deal(preset, NAMES[:players], 1000 + seed)
        rng = random.Random(seed)
        for _ in range(12):
            if GAME.is_over(state):
                break
            twin = random.Random()
            twin.setstate(rng.getstate())
            public = _public_deal(state, rng)
            fast = _random_deal_from_start(state, twin)
            _assert_same(public, fast)
            state = public


def test_fast_path_refuses_what_it_does_not_serve() -> None:
    """Other options, or a state outside the play phase, are refused rather than misplayed."""
    start = GAME.deal(VANDATTA, NAMES[:4], 1)
    with pytest.raises(ValueError, match="deal in progress"):
        _random_deal_fast(start, random.Random(0))
    other = GAME.deal(VandattaOptions(deck_setup=VANDATTA.deck_setup, max_players=5), NAMES[:4], 1)
    in_play = GAME.apply(other, Deal()).state
    assert in_play.phase is Phase.PLAY
    with pytest.raises(ValueError, match="presets"):
        _random_deal_fast(in_play, random.Random(0))
