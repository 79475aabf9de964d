"""``engine.Listed``: apply skips its check only for the very action object just listed for the
very state object; anything else is judged as before. And the reverse of the shortcut: what
``check`` accepts of a hand-built action is what ``legal_actions`` lists (the issue's two
examples, a catch and a draw; ``tests/test_conformance.py`` holds it on every state)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from action_space import assert_paths_agree

from regelverk.engine import IllegalActionError, Listed, is_allowed, with_options
from regelverk.uno import GAME as UNO
from regelverk.uno.state import Catch, UnoState
from regelverk.uno.state import Draw as UnoDraw
from regelverk.vandatta import GAME, checks
from regelverk.vandatta.state import Action, Pass, Phase, State


def _in_play(seed: int = 3) -> State:
    state = GAME.deal(GAME.options("vandatta"), ["Ann", "Bo", "Cy", "Di"], seed)
    state = GAME.apply(state, GAME.legal_actions(state)[0]).state
    assert state.phase is Phase.PLAY
    return state


def _counting_checks(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Record every action ``apply`` hands to ``check``."""
    judged: list[Action] = []
    real = checks.check

    def check(state: State, action: Action) -> None:
        judged.append(action)
        real(state, action)

    monkeypatch.setattr(checks, "check", check)
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


# --- the reverse direction: what check accepts is what legal_actions lists ---------------------


def _uno_states(overrides: dict[str, str], players: int, seeds: range) -> Iterator[UnoState]:
    """Every state of seeded random UNO games under ``overrides``."""
    options = with_options(UNO.options("uno"), overrides)
    for seed in seeds:
        rng = random.Random(seed)
        state = UNO.deal(options, [f"P{i}" for i in range(players)], seed)
        for _ in range(150):
            yield state
            if UNO.is_over(state):
                break
            state = UNO.apply(state, rng.choice(UNO.legal_actions(state))).state


@pytest.mark.clause("UNO-CALL-PENALTY", "UNO-CALL-UNO")
def test_uno_only_the_player_who_failed_to_call_can_be_caught() -> None:
    """With one player exposed (one card left, no UNO called), a catch of anyone else is refused
    by ``check`` and not listed, whoever makes it; the exposed player's catches are listed."""
    seen = 0
    for state in _uno_states({}, 4, range(6)):
        if state.exposed is None:
            continue
        seen += 1
        exposed = state.players[state.exposed]
        listed = UNO.legal_actions(state)
        for catcher in state.players:
            for target in state.players:
                catch = Catch(player=catcher, target=target)
                allowed = is_allowed(UNO, state, catch)
                assert allowed == (target == exposed != catcher)
                assert (catch in listed) == allowed
        assert_paths_agree(UNO, state, outcomes=False)
    assert seen > 0


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-DRAW-BY-CHOICE")
def test_uno_draw_is_listed_whenever_check_allows_it_under_illegal_wd4_refused() -> None:
    """Under illegal_wd4 = refused the listing takes another road; the draw ``check`` allows
    must still be listed, on every state of the games walked."""
    draws = 0
    for state in _uno_states({"illegal_wd4": "refused"}, 3, range(4)):
        if UNO.is_over(state):
            continue
        mover = state.players[state.turn]
        draw = UnoDraw(player=mover)
        allowed = is_allowed(UNO, state, draw)
        assert allowed == (draw in UNO.legal_actions(state))
        draws += allowed
    assert draws > 0
