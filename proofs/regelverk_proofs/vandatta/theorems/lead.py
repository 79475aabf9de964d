"""A free lead stands only in an ordinary turn of play (Vändåtta, vvv8 and vandatta).

Under the pass-free-lead reading of VA-AMB-AFTER-THREE-DRAWS, a turn that ends after all its
draws with nothing the spelförare may lay leaves the pile dead: the next player may start with
any card (VA-DRAW-PASS-AFTER-THREE). The engine carries that leave in ``State.free_lead``, and
its invariant check holds it to an ordinary turn of play: no restart pending (after one's own
ace or vandatta's eight) and a deal in play, not one waiting to be dealt, put right after a
misdeal, or waiting for the dealer to name a start suit.

The encoding (:mod:`regelverk_proofs.vandatta.encoding.lead`, whose names are importable from here
too) speaks of four flags of a position and nothing else: the phase, the restart, the free lead,
and whether a named suit stands, and says how each step that can touch them changes them (a
draw, the end of a turn, a play, the dealer's naming of the start suit), from the options'
readings and the clauses, never from the engine.

The theorem ``vandatta.free-lead`` proves, for every reading at once, that no step starting
from a position where the free lead is where it may be leaves it anywhere else. What the
encoding takes as given, the binding (:mod:`regelverk_proofs.vandatta.binding.lead`) measures on
the engine's positions: whether the spelförare holds a card he may lay, the kind of the card
kept or laid, whether a play empties his hands.
"""

from __future__ import annotations

from regelverk.vandatta.state import Phase, Restart
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Outcome, Theorem, Weakening
from regelverk_proofs.vandatta.binding.lead import FREE_LEAD_STEPS, KINDS
from regelverk_proofs.vandatta.encoding.lead import (
    ACE,
    CARD_KINDS,
    EIGHT,
    PLAIN,
    READ,
    STEPS,
    DrawInputs,
    Flags,
    Inputs,
    PassInputs,
    PlayInputs,
    Readings,
    Step,
    SuitInputs,
    code,
    draw,
    name_suit,
    pass_turn,
    play,
    step,
)
from regelverk_proofs.z3api import Bool, Int, Model, Solver, Verdict

__all__ = [
    "ACE",
    "CARD_KINDS",
    "EIGHT",
    "FREE_LEAD",
    "FREE_LEAD_STEPS",
    "KINDS",
    "PLAIN",
    "READ",
    "SCENARIOS",
    "STEPS",
    "THEOREMS",
    "DrawInputs",
    "Flags",
    "PassInputs",
    "PlayInputs",
    "Readings",
    "Step",
    "SuitInputs",
    "code",
    "draw",
    "name_suit",
    "pass_turn",
    "play",
    "step",
]


def _flags_text(model: Model, flags: Flags) -> str:
    phase = list(Phase)[model.int(flags.phase)].value
    restart = list(Restart)[model.int(flags.restart)].value
    free = "a free lead" if model.bool(flags.free) else "no free lead"
    named = "a suit named" if model.bool(flags.named) else "no suit named"
    return f"phase {phase}, restart {restart}, {free}, {named}"


def _readings_text(model: Model, r: Readings) -> str:
    return ", ".join(
        f"{name} = {list(kind)[model.int(v)].value}"
        for v, (name, kind) in zip(r.values, READ, strict=True)
    )


def _refill_text(model: Model, refill: Bool, turned: Int) -> str:
    if not model.bool(refill):
        return ""
    return (
        "; penalty cards taken as the turn ends rebuild the empty talon, the card kept face up "
        f"{CARD_KINDS[model.int(turned)]}"
    )


def _inputs_text(model: Model, p: Inputs) -> str:
    if isinstance(p, DrawInputs):
        if model.bool(p.stocked):
            last = "the last draw of the turn" if model.bool(p.last) else "not the last draw"
            dead = "nothing" if model.bool(p.dead) else "a card"
            refill = _refill_text(model, p.refill, p.kept)
            return f"the talon has a card; {last}; with it he holds {dead} he may lay{refill}"
        kept = (
            f"the card kept face up is {CARD_KINDS[model.int(p.kept)]}"
            if model.bool(p.piled)
            else "no pile lies face up"
        )
        return f"the talon is empty and rebuilt; {kept}"
    if isinstance(p, PassInputs):
        spent = "every draw made" if model.bool(p.spent) else "draws left but none possible"
        dead = "nothing to lay" if model.bool(p.dead) else "a card he may lay"
        return f"{spent}, {dead}{_refill_text(model, p.refill, p.top)}"
    if isinstance(p, PlayInputs):
        aces = ", an ace among the cards" if model.bool(p.aces) else ""
        out = ", emptying his hands" if model.bool(p.out) else ""
        refill = _refill_text(model, p.refill, p.last)
        return f"the first card laid is {CARD_KINDS[model.int(p.first)]}{aces}{out}{refill}"
    return "he names a suit" if model.bool(p.chosen) else "he names none"


def _case(which: Step, weaken: frozenset[str]) -> tuple[Outcome, str] | None:
    """``None`` when no step of this kind can leave a free lead outside an ordinary turn from
    a position where it stood only inside one; else the outcome and a case."""
    before, r, p = Flags.var("before"), Readings.var("read"), which.inputs("step")
    after = step(before, r, p, weaken)
    solver = Solver(cores=False)
    solver.add(before.shape() & r.shape() & p.shape())
    solver.add(before.phase.eq(code(which.phase)))
    solver.add(before.ordinary())
    solver.add(~after.ordinary())
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return Outcome.UNKNOWN, f"{which.what}: {solver.reason_unknown()}"
    m = solver.model()
    return Outcome.COUNTEREXAMPLE, (
        f"{which.what} under {_readings_text(m, r)}: from {_flags_text(m, before)} "
        f"({_inputs_text(m, p)}) it leads to {_flags_text(m, after)}"
    )


def _check(weaken: frozenset[str]) -> Finding:
    for count, which in enumerate(STEPS, 1):
        bad = _case(which, weaken)
        if bad is not None:
            return Finding(bad[0], bad[1], count)
    return Finding(
        Outcome.PROVED,
        "proved for a draw (with the talon rebuilt or not, the card kept an eight, an ace or a "
        "plain card), the end of a turn (penalty cards taken as it ends rebuilding the talon or "
        "not), a play and the dealer's naming of the start suit, under every reading of "
        + ", ".join(name for name, _ in READ),
        len(STEPS),
    )


FREE_LEAD = Theorem(
    name="vandatta.free-lead",
    states=("VA-DRAW-PASS-AFTER-THREE", "V8-TALON-REBUILD-REFERENCE-CARD"),
    rulebooks=("vvv8", "vandatta"),
    title="A free lead stands only in an ordinary turn of play",
    statement=(
        "Under every reading of rebuild_reference, start_eight, after_three_draws, "
        "play_after_third_draw, after_eight, eight_suit_persistence and go_out_call: if before "
        "a step a free lead (after_three_draws = pass-free-lead) stands only in an ordinary "
        "turn of play (no restart pending after one's own ace or eight; the deal neither "
        "waiting to be dealt, nor put right after a misdeal, nor waiting for the dealer to name "
        "a start suit), it does so after the step too, for a draw (the talon rebuilt first or "
        "not; the card kept face up at a rebuild an eight, an ace or a plain card, and under "
        "fresh-start-card a new start card, whose start-eight and start-ace rules apply), the "
        "end of a turn after the draws (penalty cards taken as it ends included: a LAPPEN "
        "caller who did not go out, a forgotten varning or LAPPEN, vvv8's cards owed for a "
        "failed going out, which can rebuild an empty talon onto a new start card), a play (an "
        "ace restart and an eight included) and the dealer's naming of the start suit. In "
        "particular a card kept at a rebuild that the dealer must name a suit for ends the free "
        "lead, and keeps a turn that ends with nothing to lay from granting one. The encoding "
        "is the flags' transition (phase, restart, free lead, named suit), which the binding "
        "vandatta.free-lead.steps ties to the engine's apply."
    ),
    clauses=(
        "VA-DRAW-PASS-AFTER-THREE",
        "VA-DRAW-MAX-THREE",
        "V8-TALON-REBUILD-REFERENCE-CARD",
        "V8-START-EIGHT-DEALER-NAMES-SUIT",
        "VA-START-EIGHT-RETURNED",
        "V8-START-ACE-ALL-DRAW",
        "V8-START-ACE-ONLY-WITH-VIGGO",
        "VA-START-ACE-ALL-DRAW",
        "V8-ACE-SAME-PLAYER-AGAIN",
        "VA-ACE-SAME-PLAYER-AGAIN",
        "V8-EIGHT-ENDS-TURN",
        "VA-EIGHT-SAME-PLAYER-RESTARTS",
        "VA-TURN-NEXT-PLAYER",
        "V8-TURN-NEXT-BECOMES-SPELFORARE",
    ),
    check=_check,
    bindings=(FREE_LEAD_STEPS,),
    weakenings=(
        Weakening(
            "V8-TALON-REBUILD-REFERENCE-CARD",
            "the card kept at a rebuild counts as a new start card but leaves a free lead standing",
        ),
        Weakening(
            "V8-START-EIGHT-DEALER-NAMES-SUIT",
            "a turn that ends with nothing to lay grants a free lead even when the penalty cards "
            "taken as it ends turned up a new start eight for the dealer to name",
        ),
        Weakening(
            "VA-DRAW-PASS-AFTER-THREE",
            "the card laid does not use the free lead up: it lasts while the same player plays",
        ),
        Weakening(
            "VA-TURN-NEXT-PLAYER",
            "on a vandatta table the next player takes over the restart of the last",
        ),
        Weakening(
            "V8-TURN-NEXT-BECOMES-SPELFORARE",
            "on a vvv8 table the next player takes over the restart of the last",
        ),
    ),
)

THEOREMS: tuple[Theorem, ...] = (FREE_LEAD,)

SCENARIOS: tuple[Scenario, ...] = ()
