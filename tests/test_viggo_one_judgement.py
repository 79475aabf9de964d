"""One judgement of a Viggo reply: what ``legal_actions`` lists is exactly what ``check`` and
``apply`` accept, so that no move can be refused by one and played by the other."""

from __future__ import annotations

import itertools
import random

import pytest

from regelverk.engine import IllegalActionError
from regelverk.viggo import GAME, Kind, Phase, Play, ViggoOptions, ViggoState, classify
from regelverk.viggo.options import SequenceWrap, ThreeInCombination

NAMES = ("P1", "P2", "P3", "P4")


def _run_on_top(options: ViggoOptions, seed: int) -> ViggoState:
    """A position of a seeded four-player game with a run on top and a pair in the hand of the
    player to act."""
    rng = random.Random(seed)
    state = GAME.deal(options, NAMES, seed)
    for _ in range(2000):
        if state.phase is Phase.OVER:
            state = GAME.deal(options, NAMES, rng.randrange(10_000))
        top = classify(state.trick[-1].cards, options) if state.trick else None
        hand = state.hands[state.turn]
        pairs = [p for p in itertools.combinations(hand, 2) if p[0].rank == p[1].rank]
        if top is not None and top.kind is Kind.SEQUENCE and pairs:
            return state
        moves = GAME.legal_actions(state)
        runs = [m for m in moves if isinstance(m, Play) and len(m.cards) == 5]
        state = GAME.apply(state, rng.choice(runs or moves)).state
    raise AssertionError("no run on top found")


@pytest.mark.clause("VG-PLAY-NO-TYPE-SWITCH", "VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
@pytest.mark.parametrize(
    "options",
    [
        ViggoOptions(),
        ViggoOptions(
            sequence_wrap=SequenceWrap.WRAP,
            three_in_combination=ThreeInCombination.THREE_TRUMPS,
        ),
    ],
    ids=["preset", "wrap-three-trumps"],
)
def test_VG_PLAY_NO_TYPE_SWITCH_no_pair_on_a_run_one_judgement(options: ViggoOptions) -> None:
    """With a run on top, apply refuses every pair of the hand, naming the no-switching rule;
    and of all one to five cards of the hand apply plays exactly those legal_actions lists."""
    state = _run_on_top(options, 4)
    hand = state.hands[state.turn]
    for pair in (p for p in itertools.combinations(hand, 2) if p[0].rank == p[1].rank):
        with pytest.raises(IllegalActionError) as refused:
            GAME.apply(state, Play(cards=pair))
        assert "VG-PLAY-NO-TYPE-SWITCH" in refused.value.clauses
    listed = {frozenset(m.cards) for m in GAME.legal_actions(state) if isinstance(m, Play)}
    for size in range(1, 6):
        for cards in itertools.combinations(hand, size):
            try:
                GAME.apply(state, Play(cards=cards))
                played = True
            except IllegalActionError:
                played = False
            assert played == (frozenset(cards) in listed), cards
