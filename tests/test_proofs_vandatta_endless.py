"""The never-ending vandatta deal: Z3's witness replayed in the engine, the encoding checked
against the engine step by step, and the weakening that removes the witness."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from regelverk.cards import Card
from regelverk.vandatta import GAME, drawing, listing, talon
from regelverk.vandatta.options import EmptyStock
from regelverk.vandatta.state import Draw, State
from regelverk.vandatta.table import Table
from regelverk_proofs.binding import check, clear
from regelverk_proofs.vandatta.binding.endless import _hand_built as hand_built
from regelverk_proofs.vandatta.binding.endless import compare
from regelverk_proofs.vandatta.theorems.endless import (
    CARDS,
    DRAW,
    LIVE,
    LOOP,
    NEVER_ENDING,
    PLAYERS,
    Lasso,
    Step,
    abstract,
    deal_position,
    decide_step,
    first_drawn_unshuffled,
    render,
    stem,
    witness,
)
from regelverk_proofs.z3api import Verdict

OPTIONS = GAME.options("vandatta")
LIVE_CARDS = tuple(CARDS[c] for c in LIVE)
OTHER_CARDS = tuple(c for c in CARDS if c not in LIVE_CARDS)
LOOP_CLAUSES = (
    "VA-DRAW-STOCK-REBUILD",
    "VA-DRAW-WHEN-STUCK",
    "VA-DRAW-PLAY-DRAWN",
    "VA-EIGHT-TURNS-PILE",
    "VA-ACE-OTHERS-DRAW",
    "VA-TURN-RESTART-FALLBACK",
)

IGNORED = ("talon_passes", "shuffles")
"""Compared positions leave out the count of times the stock ran out (under the vandatta preset
no rule reads it: the talon-pass limit is vvv8's coffee-break rule) and the count of shuffles
the seed has served: both only grow, and the loop stands for the shuffles' outcomes, entered as
the witness chose them, not for the seed's."""


@pytest.fixture(scope="module")
def lasso() -> Lasso:
    verdict, found, _, _ = witness()
    assert verdict is Verdict.SAT
    assert found is not None
    return found


def _loop_start() -> State:
    """The engine's position where the loop starts: the deal, then the stem."""
    state = GAME.position_from_data(deal_position(), OPTIONS)
    for data in stem():
        state = GAME.apply(state, GAME.action_from_data(data, state)).state
    return state


def _comparable(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    return {k: v for k, v in data.items() if k not in IGNORED}


def _reshuffled(after: State, seat: int, order: tuple[Card, ...]) -> State:
    """``after`` (the engine's draw, which rebuilt the stock with its own seeded shuffle) with the
    stock in ``order`` instead: the shuffle's chance outcome the witness chose. The cards of the
    new stock must be exactly the engine's."""
    engine_cards = Counter((*after.stock, after.hands[seat][-1]))
    assert engine_cards == Counter(order)
    assert len(after.pile) <= 1  # only the top card stays
    assert after.turned == ()
    data = GAME.position_to_data(after)
    name = PLAYERS[seat]
    data["hands"][name] = [*data["hands"][name][:-1], order[0].code]
    data["stock"] = [c.code for c in order[1:]]
    return GAME.position_from_data(data, OPTIONS)


def _replay_step(state: State, step: Step) -> State:
    """One witness step in the engine (the draw's card and the rebuild's order checked)."""
    action = GAME.action_from_data(step.data(), state)
    GAME.check(state, action)
    after = GAME.apply(state, action).state
    if step.kind == DRAW:
        if step.rebuild is not None:
            after = _reshuffled(after, state.turn, step.rebuild)
        assert after.hands[state.turn][-1] == step.card
    if step.extra is not None:
        other = 1 - state.turn
        if step.rebuild is not None:
            after = _reshuffled(after, other, step.rebuild)
        assert after.hands[other][-1] == step.extra
    return after


@pytest.mark.clause("VA-DEAL-SEVEN-CARDS", "VA-EIGHT-BY-CHOICE", "VA-DRAW-PASS-AFTER-THREE")
def test_loop_start_is_reached_from_a_deal(lasso: Lasso) -> None:
    """The stem leads from seven cards each to the position where Z3's loop starts."""
    dealt = GAME.position_from_data(deal_position(), OPTIONS)
    assert [len(h) for h in dealt.hands] == [7, 7]
    assert len(dealt.pile) == 1
    start = _loop_start()
    zones, top, turn, draws, restart, named, idle, over = abstract(start)
    assert dict(zip(LIVE_CARDS, zones, strict=True)) == lasso.zones
    assert CARDS[top] == lasso.top
    assert (turn, draws, restart, named, idle, over) == (1, 0, 0, -1, 0, False)
    assert not start.stock


@pytest.mark.clause(*LOOP_CLAUSES)
def test_never_ending_deal_replays_in_the_engine(lasso: Lasso) -> None:
    """Z3's loop, played in the engine from the loop start, comes back to the same position.

    At each rebuild the engine shuffles with its own seeded generator; the position is then
    entered again through the position reader with the stock in the order the witness chose,
    which stands for the shuffle's chance outcome (any order can come up). Positions are
    compared in every field the position writer gives but the talon-pass count (IGNORED).
    """
    # so the ignored talon-pass count is read by no rule
    assert not OPTIONS.talon_pass_limit and OPTIONS.endless_deal.value == "play-on"
    start = _loop_start()
    state = start
    for step in lasso.steps:
        assert state.turn == step.player
        state = _replay_step(state, step)
        assert all(len(h) >= 2 for h in state.hands)
    assert len(lasso.steps) == LOOP
    assert _comparable(state) == _comparable(start)


@pytest.mark.clause(*LOOP_CLAUSES)
def test_each_witness_step_is_allowed_by_engine_and_encoding(lasso: Lasso) -> None:
    """Differential on the witness: the engine accepts every step, and the encoding, started
    from the engine's position, allows it and reaches the engine's next position."""
    state = _loop_start()
    for step in lasso.steps:
        GAME.check(state, GAME.action_from_data(step.data(), state))
        after = _replay_step(state, step)
        ruling = decide_step(state, step.kind, step.card, suit=step.suit, extra=step.extra)
        assert ruling == abstract(after)
        state = after


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD")
def test_no_witness_without_rebuilt_stock() -> None:
    """Non-vacuity: with the stock never made again there is no loop."""
    for weakening in NEVER_ENDING.weakenings:
        finding = NEVER_ENDING.check(frozenset({weakening.clause}))
        assert finding.outcome is NEVER_ENDING.failure
        assert finding.detail


@pytest.mark.clause(*LOOP_CLAUSES)
def test_witness_is_rendered(lasso: Lasso) -> None:
    """The theorem's detail names the hands, every action and every shuffle's order."""
    text = render(lasso)
    assert text.count("shuffled again") == 2
    assert "Bo lays A♥; Ann draws 4♥ for the ace" in text


# --- the binding: engine against the lasso's step relation ----------------------------------


@pytest.mark.clause(
    "VA-PLAY-MATCH-RANK-OR-SUIT",
    "VA-ACE-SAME-SUIT",
    "VA-ACE-FOLLOW-ACE-SUIT",
    "VA-EIGHT-LEAD-NAMED-SUIT",
    "VA-EIGHT-WHEN-STUCK",
    "VA-DRAW-WHEN-STUCK",
    "VA-DRAW-MAX-THREE",
    "VA-DRAW-PASS-AFTER-THREE",
    "VA-DRAW-STOCK-REBUILD",
    "VA-TURN-RESTART-FALLBACK",
    "VA-WIN-BLOCKED-DEAL-VOID",
)
def test_binding_agrees_and_covers_every_kind() -> None:
    """On the seeded positions, the edge positions and the witness replayed in the engine,
    engine and step relation agree on every action (allowed or not, and the position after),
    and every kind (rebuilds, restarts, a void deal, the loop closing) was compared."""
    binding = NEVER_ENDING.bindings[0]
    clear()
    report = check(binding)
    assert report.agrees, report.summary()
    assert {k for k, _ in report.counts} == set(binding.kinds)


@pytest.mark.clause("VA-DRAW-WHEN-STUCK")
def test_binding_disagrees_when_a_player_who_can_lay_may_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Broken on purpose: an engine that lets a player draw while he holds a card that fits is
    caught."""
    monkeypatch.setattr(drawing, "stuck", lambda state: True)
    monkeypatch.setattr(listing, "stuck", lambda state: True)
    found = next((c for c in compare() if not c.agrees), None)
    assert found is not None


@pytest.mark.clause("VA-ACE-OTHERS-DRAW")
def test_binding_disagrees_when_an_ace_makes_nobody_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: an ace after which the other player does not draw is caught."""
    monkeypatch.setattr(talon, "ace_draws", lambda table, seat, aces: None)
    found = next((c for c in compare() if not c.agrees), None)
    assert found is not None


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD")
def test_weakened_rebuild_comes_up_as_the_unshuffled_engine_draws() -> None:
    """The weakening reads the rebuild as unshuffled; the weakened encoding then lets only the
    card the engine's unshuffled rebuild (vvv8's reading) would bring up be drawn."""
    others = [c.code for c in LIVE_CARDS if c.code not in ("8C", "9H", "2H", "7H")]
    laid = [Card.parse(c) for c in ("8C", "9H", *others, "2H", "7H")]
    state = hand_built(turn=PLAYERS[1], turned=["8C", "9H", *others], pile=["2H", "7H"], stock=[])
    unshuffled = dataclasses.replace(OPTIONS, empty_stock=EmptyStock.REBUILD_UNSHUFFLED)
    engine = GAME.apply(dataclasses.replace(state, options=unshuffled), Draw(player=1)).state
    assert first_drawn_unshuffled(state, laid) == (engine.hands[1][-1],)


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD", "VA-TURN-PLAY-UNTIL-OUT")
def test_binding_disagrees_when_drawn_after_passes_never_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Broken on purpose: an engine that counts the stock's passes but never draws the deal
    under endless_deal = drawn-after-passes lets the witness's loop go on, and is caught."""

    def count_only(table: Table) -> None:
        table.talon_passes += 1

    monkeypatch.setattr(talon, "count_pass", count_only)
    found = [c for c in compare() if c.kind == "drawn-after-passes"]
    assert found and not found[0].agrees
