"""``engine.Listed``: apply skips its check only for the very action object just listed for the
very state object; anything else is judged as before."""

from __future__ import annotations

import dataclasses

import pytest

from regelverk.engine import IllegalActionError, Listed
from regelverk.vandatta import GAME, adjudication
from regelverk.vandatta.state import Action, Pass, Phase, State


def _in_play(seed: int = 3) -> State:
    state = GAME.deal(GAME.options("vandatta"), ["Ann", "Bo", "Cy", "Di"], seed)
    state = GAME.apply(state, GAME.legal_actions(state)[0]).state
    assert state.phase is Phase.PLAY
    return state


def _counting_checks(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Record every action ``apply`` hands to ``check``."""
    judged: list[Action] = []
    real = adjudication.check

    def check(state: State, action: Action) -> None:
        judged.append(action)
        real(state, action)

    monkeypatch.setattr(adjudication, "check", check)
    return judged


def test_only_the_listed_object_for_the_listed_state_counts() -> None:
    memo: Listed[str, object] = Listed()
    first, second = object(), object()
    assert memo.remember("state", (first, second)) == (first, second)
    assert memo.listed("state", first) and memo.listed("state", second)
    assert not memo.listed("state", object())
    assert not memo.listed("another state", first)
    memo.remember("another state", ())
    assert not memo.listed("state", first)


def test_a_listed_action_is_not_judged_again_but_an_equal_one_built_anew_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _in_play()
    listed = GAME.legal_actions(state)
    judged = _counting_checks(monkeypatch)
    through_listing = GAME.apply(state, listed[0])
    assert judged == []
    anew = dataclasses.replace(listed[0])
    assert anew == listed[0] and anew is not listed[0]
    assert GAME.apply(state, anew) == through_listing
    assert judged == [anew]


def test_a_listing_for_an_equal_state_object_vouches_for_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _in_play()
    twin = dataclasses.replace(state)
    assert twin == state and twin is not state
    listed = GAME.legal_actions(twin)
    judged = _counting_checks(monkeypatch)
    GAME.apply(state, listed[0])
    assert judged == [listed[0]]
    with pytest.raises(IllegalActionError, match="turn"):
        GAME.apply(state, Pass(player=(state.turn + 1) % 4))
