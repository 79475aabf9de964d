"""The free-lead theorem tied to the engine: the binding agrees with ``regelverk.vandatta`` on
every step it plays and covers every kind it names, it notices an engine broken on purpose,
the theorem holds, every weakening breaks it, and the fast form of the transition the binding
evaluates gives what Z3 gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from regelverk.vandatta.state import Phase, Restart, State
from regelverk_proofs.binding import Comparison, check
from regelverk_proofs.theorem import Outcome, Weakening
from regelverk_proofs.vandatta.theorems.lead import (
    FREE_LEAD,
    FREE_LEAD_STEPS,
    READ,
    STEPS,
    Flags,
    Readings,
    Step,
    step,
)
from regelverk_proofs.z3api import Bool, Int, Solver, Verdict

NONE: frozenset[str] = frozenset()


def _first_disagreement() -> Comparison | None:
    return next((c for c in FREE_LEAD_STEPS.compare() if not c.agrees), None)


# ---------------------------------------------------------------------------------------------
# the binding: it agrees, covers its kinds, and disagrees when the engine is broken
# ---------------------------------------------------------------------------------------------


@pytest.mark.clause(
    "VA-DRAW-PASS-AFTER-THREE",
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "V8-START-EIGHT-DEALER-NAMES-SUIT",
    "VA-START-EIGHT-RETURNED",
    "V8-START-ACE-ALL-DRAW",
    "VA-ACE-SAME-PLAYER-AGAIN",
)
def test_binding_agrees_and_covers_its_kinds() -> None:
    """Every kind of step the binding names is compared, and engine and encoding agree on all
    the cases it claims."""
    report = check(FREE_LEAD_STEPS)
    assert report.agrees, report.summary()
    assert {k for k, n in report.counts if n} == set(FREE_LEAD_STEPS.kinds)
    assert report.cases >= FREE_LEAD_STEPS.claims


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "VA-DRAW-PASS-AFTER-THREE")
def test_binding_sees_a_free_lead_outlive_a_fresh_start_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine's new start card at a rebuild leaving a free lead standing (the bug the
    long soak found, and the mutant vandatta-free-lead-outlives-a-fresh-start-card), the binding
    disagrees on a rebuild under rebuild_reference = fresh-start-card."""
    from regelverk.vandatta import talon

    fresh = talon.fresh_start_card

    def broken(table: Any) -> None:
        free = table.free_lead
        fresh(table)
        table.free_lead = free

    monkeypatch.setattr(talon, "fresh_start_card", broken)
    found = _first_disagreement()
    assert found is not None and found.kind.startswith("fresh-"), found
    assert "a free lead" in found.detail


@pytest.mark.clause("VA-DRAW-PASS-AFTER-THREE", "VA-DRAW-MAX-THREE")
def test_binding_sees_a_free_lead_granted_to_a_turn_with_a_card_to_lay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine judging every turn that ends after its draws as one with nothing to lay,
    the binding disagrees on the end of a turn where the spelförare could have laid a card."""
    from regelverk.vandatta import drawing

    monkeypatch.setattr(drawing, "has_play", lambda state, **_: False)
    found = _first_disagreement()
    assert found is not None and found.kind in ("pass", "third-draw-ends-turn"), found


@pytest.mark.clause(
    "V8-START-EIGHT-DEALER-NAMES-SUIT",
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "VA-DRAW-PASS-AFTER-THREE",
)
def test_binding_sees_a_free_lead_granted_on_a_new_start_eight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine granting the free lead of a turn that ends with nothing to lay even when
    the penalty cards taken as it ends rebuilt the talon onto a new start eight for the dealer
    to name (the bug fixed in ``_end_turn``, and the mutant
    vandatta-free-lead-granted-on-a-new-start-eight), the binding disagrees on such a turn."""
    from regelverk.vandatta import turns
    from regelverk.vandatta.options import AfterThreeDraws

    end_turn = turns._end_turn

    def broken(
        table: Any, seat: int, *, call: bool, laid: bool, eight: bool = False, dead: bool = False
    ) -> None:
        end_turn(table, seat, call=call, laid=laid, eight=eight, dead=dead)
        granted = dead and table.options.after_three_draws is AfterThreeDraws.PASS_FREE_LEAD
        if granted and not table.drawn_deal:  # whatever the phase
            table.free_lead = True

    monkeypatch.setattr(turns, "_end_turn", broken)
    found = _first_disagreement()
    assert found is not None and found.kind == "penalty-fresh-eight-dealer-names", found
    assert "leads the engine to phase start-suit, restart none, a free lead" in found.detail


@pytest.mark.clause("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-TALON-REBUILD-REFERENCE-CARD")
def test_binding_positions_take_every_penalty_at_the_end_of_a_turn() -> None:
    """The penalty part of the universe ends turns with penalty cards that rebuild an empty
    talon for every debtor it names (a LAPPEN caller under every lappen_penalty reading, a
    forgotten varning, a forgotten LAPPEN, vvv8's owed cards), by a pass and by a last draw,
    and under fresh-start-card some of them wait for the dealer to name a suit."""
    from regelverk.vandatta import GAME
    from regelverk_proofs.vandatta.binding.lead import _inputs, _penalty_positions

    rebuilt: set[tuple[str, str]] = set()
    for label, state in _penalty_positions():
        for action in GAME.legal_actions(state):
            after = GAME.apply(state, action).state
            name, kind, _ = _inputs(state, action, after)
            if kind == "penalty-fresh-eight-dealer-names":
                assert after.phase is Phase.START_SUIT and not after.free_lead, label
                rebuilt.add((label.split(", on ")[0].split(", ", 3)[-1], name))
    debtors = {d for d, _ in rebuilt}
    assert {n for _, n in rebuilt} == {"pass", "draw", "play"}
    for words in ("penalty-instead", "draw-then-penalty", "penalty-then-play"):
        assert any(words in d for d in debtors), words
    for words in ("varning owed, three-cards", "LAPPEN owed, no-go-out", "failed going out"):
        assert any(words in d for d in debtors), words


@pytest.mark.clause("VA-ACE-SAME-PLAYER-AGAIN", "V8-ACE-SAME-PLAYER-AGAIN")
def test_binding_sees_a_free_lead_kept_through_an_ace_restart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine's ace restart handing the free lead back to the player who laid the ace,
    the binding disagrees on the ace restart."""
    from regelverk.vandatta import playing

    ace = playing._ace

    def broken(table: Any, seat: int, aces: int) -> None:
        ace(table, seat, aces)
        table.free_lead = table.base.free_lead

    monkeypatch.setattr(playing, "_ace", broken)
    found = _first_disagreement()
    assert found is not None and found.kind == "ace-restart", found


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "V8-START-EIGHT-DEALER-NAMES-SUIT")
def test_binding_positions_are_problem_free_and_play_the_soak_case() -> None:
    """The universe holds the soak's case (a free lead on an eight kept at a rebuild, the dealer
    to name the suit): every position the binding builds is one the engine's invariant check
    accepts."""
    from regelverk.vandatta import GAME
    from regelverk_proofs.vandatta.binding.lead import positions

    soak: list[State] = []
    for label, state in positions():
        assert GAME.problems(state) == (), label
        options = state.options
        if (
            state.free_lead
            and not state.stock
            and state.pile[-1].code == "8H"
            and options.rebuild_reference.value == "fresh-start-card"
            and options.start_eight.value == "dealer-names-suit"
        ):
            soak.append(state)
    assert soak


# ---------------------------------------------------------------------------------------------
# the theorem: it holds, and every weakening breaks it
# ---------------------------------------------------------------------------------------------


@pytest.mark.clause("VA-DRAW-PASS-AFTER-THREE", "V8-TALON-REBUILD-REFERENCE-CARD")
def test_theorem_holds() -> None:
    finding = FREE_LEAD.check(NONE)
    assert FREE_LEAD.holds(finding), finding.detail
    assert finding.cases == len(STEPS)


@pytest.mark.clause("VA-DRAW-PASS-AFTER-THREE", "V8-TALON-REBUILD-REFERENCE-CARD")
@pytest.mark.parametrize("weakening", FREE_LEAD.weakenings, ids=lambda w: w.clause)
def test_each_weakening_breaks_the_theorem(weakening: Weakening) -> None:
    """Non-vacuity: with one cited clause weakened the theorem fails, with a readable case."""
    finding = FREE_LEAD.check(frozenset({weakening.clause}))
    assert finding.outcome is Outcome.COUNTEREXAMPLE, finding
    assert "a free lead" in finding.detail


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "V8-START-EIGHT-DEALER-NAMES-SUIT")
def test_the_weakened_rebuild_gives_the_soak_case() -> None:
    """The new start card that leaves a free lead standing breaks the theorem where the soak
    found the engine broken: a kept eight the dealer must name a suit for."""
    finding = FREE_LEAD.check(frozenset({"V8-TALON-REBUILD-REFERENCE-CARD"}))
    assert "rebuild_reference = fresh-start-card" in finding.detail
    assert "start_eight = dealer-names-suit" in finding.detail
    assert "the card kept face up is an eight" in finding.detail
    assert "phase start-suit, restart none, a free lead" in finding.detail


@pytest.mark.clause("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-TALON-REBUILD-REFERENCE-CARD")
def test_the_weakened_grant_gives_a_penalty_onto_a_start_eight() -> None:
    """A free lead granted whatever the penalty taken as the turn ends turned up breaks the
    theorem where the mutant breaks the engine: an empty talon rebuilt onto an eight the dealer
    must name a suit for."""
    finding = FREE_LEAD.check(frozenset({"V8-START-EIGHT-DEALER-NAMES-SUIT"}))
    assert "rebuild_reference = fresh-start-card" in finding.detail
    assert "start_eight = dealer-names-suit" in finding.detail
    assert "penalty cards taken as the turn ends rebuild the empty talon" in finding.detail
    assert "the card kept face up an eight" in finding.detail
    assert "leads to phase start-suit, restart none, a free lead" in finding.detail


# ---------------------------------------------------------------------------------------------
# the fast form of the transition agrees with Z3
# ---------------------------------------------------------------------------------------------


def _sample(term: Bool | Int, rng: random.Random, high: int) -> int | bool:
    if isinstance(term, Bool):
        return rng.random() < 0.5
    return rng.randint(0, high)


def _fix(term: Bool | Int, value: int | bool) -> Bool:
    if isinstance(term, Bool):
        return term.eq(bool(value))
    return term.eq(int(value))


@pytest.mark.clause("VA-DRAW-PASS-AFTER-THREE", "V8-TALON-REBUILD-REFERENCE-CARD")
@pytest.mark.parametrize("which", STEPS, ids=lambda s: s.name)
def test_compiled_transitions_agree_with_z3(which: Step) -> None:
    """On sampled flags, readings and inputs, the Python form of each step (what the binding
    evaluates) gives the flags Z3 finds for the same constants."""
    from regelverk_proofs.vandatta.binding.lead import _transitions

    compiled = _transitions()[which.name]
    rng = random.Random(which.name)
    before, r, p = Flags.var("b"), Readings.var("r"), which.inputs("p")
    after = step(before, r, p, NONE)
    unknowns = [*before.terms(), *r.terms(), *p.terms()]
    highs = [len(Phase) - 1, len(Restart) - 1, 1, 1, *(len(kind) - 1 for _, kind in READ)]
    compared = 0
    for _ in range(60):
        values = [
            _sample(term, rng, highs[k] if k < len(highs) else 2) for k, term in enumerate(unknowns)
        ]
        solver = Solver(cores=False)
        for term, value in zip(unknowns, values, strict=True):
            solver.add(_fix(term, value))
        solver.add(before.shape() & r.shape() & p.shape())
        if solver.check() is Verdict.UNSAT:
            continue  # out of shape (a play whose first card is an ace but holds no ace)
        model = solver.model()
        expected = (
            model.int(after.phase),
            model.int(after.restart),
            model.bool(after.free),
            model.bool(after.named),
        )
        assert tuple(int(f(values)) for f in compiled) == tuple(int(v) for v in expected)
        compared += 1
    assert compared >= 30
