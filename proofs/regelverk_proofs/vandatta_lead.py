"""A free lead stands only in an ordinary turn of play (Vändåtta, vvv8 and vandatta).

Under the pass-free-lead reading of VA-AMB-AFTER-THREE-DRAWS, a turn that ends after all its
draws with nothing the spelförare may lay leaves the pile dead: the next player may start with
any card (VA-DRAW-PASS-AFTER-THREE). The engine carries that leave in ``State.free_lead``, and
its invariant check holds it to an ordinary turn of play: no restart pending (after one's own
ace or vandatta's eight) and a deal in play, not one waiting to be dealt, put right after a
misdeal, or waiting for the dealer to name a start suit.

The encoding speaks of four flags of a position and nothing else: the phase, the restart, the
free lead, and whether a named suit stands. It says how each step that can touch them changes
them, from the options' readings and the clauses, never from the engine:

* a **draw** by the spelförare. When the talon is empty it is rebuilt first; the card kept face
  up is the card to play on (V8-TALON-REBUILD-REFERENCE-CARD), and under rebuild_reference =
  fresh-start-card (V8-AMB-REBUILD-REFERENCE-STATUS) it counts as a new start card: a suit
  named before no longer binds, nor does a free lead, since play starts afresh on the new
  card. A new start eight goes back into the stock (start_eight = back-into-stock,
  VA-START-EIGHT-RETURNED) or waits for the dealer to name a suit (dealer-names-suit,
  V8-START-EIGHT-DEALER-NAMES-SUIT), the spelförare keeping his turn and his draws. A new start
  ace makes the players draw (V8-START-ACE-ALL-DRAW, V8-START-ACE-ONLY-WITH-VIGGO,
  VA-START-ACE-ALL-DRAW) but moves neither the turn nor a restart, whatever start_ace says: the
  deal is under way and nobody else is to play first. A draw that does not rebuild changes
  nothing, unless it is the last one and play_after_third_draw = third-draw-ends-turn makes it
  end the turn;
* the **end of a turn** after the draws (a pass, or such a last draw): the turn goes to the
  next player as an ordinary turn (VA-TURN-NEXT-PLAYER, V8-TURN-NEXT-BECOMES-SPELFORARE), with
  a free lead exactly when the rules grant one (pass-free-lead, every draw made, nothing to
  lay), and a named suit lapsing under eight_suit_persistence = next-player-only. Penalty
  cards taken as the turn ends (a LAPPEN caller who did not go out, under every reading of
  lappen_penalty and lappen_failure that leaves them to the end of the turn; a forgotten
  varning under varning_omission = three-cards or LAPPEN under lappen_omission = no-go-out;
  vvv8's three extra cards owed for a failed going out, taken as the turn is handed on) can
  find the talon empty and rebuild it; the card kept face up is then the top of the pile as
  the turn ends, and under rebuild_reference = fresh-start-card it is a new start card as at a
  draw: a named suit lapses, a new start eight the dealer must name a suit for
  (start_eight = dealer-names-suit) stops play until he has, and the next player is granted no
  free lead, whatever the new start card is: nobody has yet failed to follow it, and a new
  start card ends a free lead that stands, as at a draw;
* a **play**: the first card laid uses the free lead up. An ace makes its player restart on it
  (V8-ACE-SAME-PLAYER-AGAIN, VA-ACE-SAME-PLAYER-AGAIN), an eight names a suit and either ends
  the turn (V8-EIGHT-ENDS-TURN) or turns the pile away and restarts its player
  (VA-EIGHT-SAME-PLAYER-RESTARTS), any other card ends the turn, and a play that empties the
  player's hands ends the deal;
* the dealer **naming the start suit** (or none), which lets play begin.

The theorem ``vandatta.free-lead`` proves, for every reading at once, that no step starting
from a position where the free lead is where it may be leaves it anywhere else. What the
encoding takes as given, the binding (:mod:`regelverk_proofs.vandatta_lead_bind`) measures on
the engine's positions: whether the spelförare holds a card he may lay, the kind of the card
kept or laid, whether a play empties his hands.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from regelverk.vandatta.options import (
    AfterEight,
    AfterThreeDraws,
    EightSuitPersistence,
    GoOutCall,
    PlayAfterThirdDraw,
    RebuildReference,
    StartEight,
    VandattaOptions,
)
from regelverk.vandatta.state import Phase, Restart
from regelverk_proofs.binding import Binding, Comparison
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Outcome, Theorem, Weakening
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    false,
    implies,
    ite,
    ite_bool,
    true,
)

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

EIGHT, ACE, PLAIN = 0, 1, 2
"""The kinds of card the encoding tells apart: the card kept face up at a rebuild, the first
card of a play."""
CARD_KINDS = ("an eight", "an ace", "a plain card")


def code(member: enum.Enum) -> int:
    """A reading (or a phase, a restart) as the encoding numbers it: its place in its enum."""
    return list(type(member)).index(member)


PLAY_PHASE = code(Phase.PLAY)
START_SUIT = code(Phase.START_SUIT)
DEAL_OVER = code(Phase.DEAL_OVER)
NOT_IN_PLAY = tuple(code(p) for p in (Phase.READY, Phase.MISDEAL, Phase.START_SUIT))
"""Phases in which no turn of play is going on, so no free lead may stand."""
NO_RESTART = code(Restart.NONE)
ACE_RESTART = code(Restart.ACE)
EIGHT_RESTART = code(Restart.EIGHT)

READ: tuple[tuple[str, type[enum.Enum]], ...] = (
    ("rebuild_reference", RebuildReference),
    ("start_eight", StartEight),
    ("after_three_draws", AfterThreeDraws),
    ("play_after_third_draw", PlayAfterThirdDraw),
    ("after_eight", AfterEight),
    ("eight_suit_persistence", EightSuitPersistence),
    ("go_out_call", GoOutCall),
)
"""The options the flags depend on, and their readings. start_ace, start_ace_draw and
viggo_present are not among them: at a rebuild a new start ace moves neither the turn nor a
restart under any of their readings (the binding plays every combination of them; it leaves
start_ace_take at its default)."""


@dataclass(frozen=True, slots=True)
class Flags:
    """The four flags of a position the theorem speaks of."""

    phase: Int
    restart: Int
    free: Bool
    named: Bool

    @classmethod
    def var(cls, tag: str) -> Flags:
        """Unknown flags called ``tag.*``."""
        return cls(
            Int.var(f"{tag}.phase"),
            Int.var(f"{tag}.restart"),
            Bool.var(f"{tag}.free"),
            Bool.var(f"{tag}.named"),
        )

    def terms(self) -> tuple[Int, Int, Bool, Bool]:
        """The flags in the order the binding reads them."""
        return self.phase, self.restart, self.free, self.named

    def shape(self) -> Bool:
        """A phase and a restart the engine has."""
        return self.phase.between(0, len(Phase) - 1) & self.restart.between(0, len(Restart) - 1)

    def ordinary(self) -> Bool:
        """The statement: a free lead stands only in an ordinary turn of play (no restart, a
        deal neither waiting to be dealt, being put right after a misdeal, nor waiting for the
        dealer to name a start suit)."""
        out_of_play = [self.phase.ne(p) for p in NOT_IN_PLAY]
        return implies(self.free, self.restart.eq(NO_RESTART) & all_of(out_of_play))


def _choose(condition: Bool, then: Flags, otherwise: Flags) -> Flags:
    return Flags(
        ite(condition, then.phase, otherwise.phase),
        ite(condition, then.restart, otherwise.restart),
        ite_bool(condition, then.free, otherwise.free),
        ite_bool(condition, then.named, otherwise.named),
    )


@dataclass(frozen=True, slots=True)
class Readings:
    """The reading of each option of :data:`READ`, numbered as :func:`code` numbers it."""

    values: tuple[Int, ...]

    @classmethod
    def var(cls, tag: str) -> Readings:
        """Unknown readings called ``tag.<option>``."""
        return cls(tuple(Int.var(f"{tag}.{name}") for name, _ in READ))

    def terms(self) -> tuple[Int, ...]:
        """The readings in the order of :data:`READ`."""
        return self.values

    def shape(self) -> Bool:
        """Each reading one the option has."""
        return all_of(
            v.between(0, len(kind) - 1) for v, (_, kind) in zip(self.values, READ, strict=True)
        )

    def reads(self, reading: enum.Enum) -> Bool:
        """Whether the table reads its option so."""
        place = next(i for i, (_, kind) in enumerate(READ) if kind is type(reading))
        return self.values[place].eq(code(reading))

    @staticmethod
    def of(options: VandattaOptions) -> tuple[int, ...]:
        """The codes of a table's readings, in the order of :data:`READ`."""
        found = []
        for name, _ in READ:
            value = getattr(options, name)
            assert isinstance(value, enum.Enum)
            found.append(code(value))
        return tuple(found)


@dataclass(frozen=True, slots=True)
class DrawInputs:
    """What a draw depends on besides the flags and readings: whether the talon had a card
    (``stocked``; if not it is rebuilt first), whether this is the last draw the turn allows,
    whether a pile lies face up (a vandatta eight can have turned it away), the kind of its top
    card (the card kept at a rebuild), whether the spelförare, with the card drawn, holds
    nothing he may lay, and (where the draw ends the turn) whether penalty cards taken as it
    ends find the talon empty and rebuild it (``refill``), keeping the same top card."""

    stocked: Bool
    last: Bool
    piled: Bool
    kept: Int
    dead: Bool
    refill: Bool

    @classmethod
    def var(cls, tag: str) -> DrawInputs:
        return cls(
            Bool.var(f"{tag}.stocked"),
            Bool.var(f"{tag}.last"),
            Bool.var(f"{tag}.piled"),
            Int.var(f"{tag}.kept"),
            Bool.var(f"{tag}.dead"),
            Bool.var(f"{tag}.refill"),
        )

    def terms(self) -> tuple[Bool | Int, ...]:
        return self.stocked, self.last, self.piled, self.kept, self.dead, self.refill

    def shape(self) -> Bool:
        return self.kept.between(EIGHT, PLAIN)


@dataclass(frozen=True, slots=True)
class PassInputs:
    """What ending the turn without laying depends on: whether every draw the turn allows has
    been made, whether the spelförare holds nothing he may lay, whether a pile lies face up,
    whether penalty cards taken as the turn ends find the talon empty and rebuild it
    (``refill``), and the kind of the top of the pile (the card kept at that rebuild)."""

    spent: Bool
    dead: Bool
    piled: Bool
    refill: Bool
    top: Int

    @classmethod
    def var(cls, tag: str) -> PassInputs:
        return cls(
            Bool.var(f"{tag}.spent"),
            Bool.var(f"{tag}.dead"),
            Bool.var(f"{tag}.piled"),
            Bool.var(f"{tag}.refill"),
            Int.var(f"{tag}.top"),
        )

    def terms(self) -> tuple[Bool | Int, ...]:
        return self.spent, self.dead, self.piled, self.refill, self.top

    def shape(self) -> Bool:
        return self.top.between(EIGHT, PLAIN)


@dataclass(frozen=True, slots=True)
class PlayInputs:
    """What a play depends on: the kind of its first card, whether it holds an ace, whether it
    leaves its player holding nothing, the kind of its last card (the top of the pile as the
    turn ends), and whether penalty cards taken as the turn ends find the talon empty and
    rebuild it (``refill``)."""

    first: Int
    aces: Bool
    out: Bool
    last: Int
    refill: Bool

    @classmethod
    def var(cls, tag: str) -> PlayInputs:
        return cls(
            Int.var(f"{tag}.first"),
            Bool.var(f"{tag}.aces"),
            Bool.var(f"{tag}.out"),
            Int.var(f"{tag}.last"),
            Bool.var(f"{tag}.refill"),
        )

    def terms(self) -> tuple[Bool | Int, ...]:
        return self.first, self.aces, self.out, self.last, self.refill

    def shape(self) -> Bool:
        kinds = self.first.between(EIGHT, PLAIN) & self.last.between(EIGHT, PLAIN)
        return kinds & implies(self.first.eq(ACE) | self.last.eq(ACE), self.aces)


@dataclass(frozen=True, slots=True)
class SuitInputs:
    """What the dealer's naming depends on: whether he names a suit (or none)."""

    chosen: Bool

    @classmethod
    def var(cls, tag: str) -> SuitInputs:
        return cls(Bool.var(f"{tag}.chosen"))

    def terms(self) -> tuple[Bool | Int, ...]:
        return (self.chosen,)

    def shape(self) -> Bool:
        return true()


Inputs = DrawInputs | PassInputs | PlayInputs | SuitInputs


def _end_turn(
    before: Flags,
    r: Readings,
    weaken: frozenset[str],
    *,
    dead: Bool,
    spent: Bool,
    eight: Bool,
    piled: Bool,
    refill: Bool,
    turned: Int,
) -> Flags:
    """The turn passes to the next player (VA-TURN-NEXT-PLAYER, V8-TURN-NEXT-BECOMES-SPELFORARE):
    his is an ordinary turn, no restart pending. He may start with any card only under
    after_three_draws = pass-free-lead, when the turn ended after every draw it allows with
    nothing to lay (VA-DRAW-PASS-AFTER-THREE, VA-DRAW-MAX-THREE). A named suit lapses under
    eight_suit_persistence = next-player-only, unless the eight itself ended the turn or the
    pile has been turned away (nothing then stands for the eight).

    Penalty cards taken as the turn ends may find the talon empty (``refill``): it is rebuilt,
    the top of the pile (of kind ``turned``) kept face up (V8-TALON-REBUILD-REFERENCE-CARD).
    Under rebuild_reference = fresh-start-card it is a new start card: a named suit lapses, and
    a new start eight under start_eight = dealer-names-suit makes play wait for the dealer
    (V8-START-EIGHT-DEALER-NAMES-SUIT), and no free lead is granted on any new start card."""
    fresh = refill & piled & r.reads(RebuildReference.FRESH_START_CARD)
    waits = fresh & turned.eq(EIGHT) & r.reads(StartEight.DEALER_NAMES_SUIT)
    restart = Int.const(NO_RESTART)
    if "VA-TURN-NEXT-PLAYER" in weaken:  # a vandatta table's next player inherits the restart
        restart = ite(r.reads(GoOutCall.LAPPEN), before.restart, restart)
    if "V8-TURN-NEXT-BECOMES-SPELFORARE" in weaken:  # so does a vvv8 table's
        restart = ite(r.reads(GoOutCall.UTGANG), before.restart, restart)
    granted = r.reads(AfterThreeDraws.PASS_FREE_LEAD) & spent & dead
    free = granted & ~fresh
    if "V8-START-EIGHT-DEALER-NAMES-SUIT" in weaken:  # granted while the dealer is to name
        free = granted & (~fresh | waits)
    lapses = r.reads(EightSuitPersistence.NEXT_PLAYER_ONLY) & ~eight & piled
    phase = ite(waits, START_SUIT, before.phase)
    return Flags(phase, restart, free, before.named & ~lapses & ~fresh)


def draw(before: Flags, r: Readings, d: DrawInputs, weaken: frozenset[str]) -> Flags:
    """The spelförare draws a card (see the module's docstring)."""
    fresh = ~d.stocked & d.piled & r.reads(RebuildReference.FRESH_START_CARD)
    dealer_names = fresh & d.kept.eq(EIGHT) & r.reads(StartEight.DEALER_NAMES_SUIT)
    free = before.free & ~fresh
    if "V8-TALON-REBUILD-REFERENCE-CARD" in weaken:  # the new start card leaves a free lead
        free = before.free
    rebuilt = Flags(
        ite(dealer_names, START_SUIT, before.phase), before.restart, free, before.named & ~fresh
    )
    ends = d.stocked & d.last & r.reads(PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN)
    passed = _end_turn(
        rebuilt,
        r,
        weaken,
        dead=d.dead,
        spent=true(),
        eight=false(),
        piled=d.piled,
        refill=d.refill,
        turned=d.kept,
    )
    return _choose(ends, passed, rebuilt)


def pass_turn(before: Flags, r: Readings, p: PassInputs, weaken: frozenset[str]) -> Flags:
    """The spelförare ends his turn without laying a card."""
    return _end_turn(
        before,
        r,
        weaken,
        dead=p.dead,
        spent=p.spent,
        eight=false(),
        piled=p.piled,
        refill=p.refill,
        turned=p.top,
    )


def play(before: Flags, r: Readings, p: PlayInputs, weaken: frozenset[str]) -> Flags:
    """The spelförare lays one or more cards (see the module's docstring)."""
    kept = false()  # the card laid uses the free lead up
    if "VA-DRAW-PASS-AFTER-THREE" in weaken:  # it lasts as long as the same player plays
        kept = before.free
    eight = p.first.eq(EIGHT)
    laid = Flags(before.phase, before.restart, kept, eight)
    won = Flags(Int.const(DEAL_OVER), before.restart, kept, false())
    restarts = Flags(before.phase, Int.const(EIGHT_RESTART), kept, true())
    again = Flags(before.phase, Int.const(ACE_RESTART), kept, false())

    def passes(by_eight: Bool) -> Flags:
        return _end_turn(
            laid,
            r,
            weaken,
            dead=false(),
            spent=false(),
            eight=by_eight,
            piled=true(),
            refill=p.refill,
            turned=p.last,
        )

    on_eight = _choose(r.reads(AfterEight.PILE_TURNED_SAME_PLAYER), restarts, passes(true()))
    return _choose(p.out, won, _choose(eight, on_eight, _choose(p.aces, again, passes(false()))))


def name_suit(before: Flags, r: Readings, p: SuitInputs, weaken: frozenset[str]) -> Flags:
    """The dealer names the start suit, or none, and play begins (no early card waiting)."""
    del r, weaken
    return Flags(Int.const(PLAY_PHASE), before.restart, before.free, p.chosen)


@dataclass(frozen=True, slots=True)
class Step:
    """One kind of step: its name, the phase it happens in, and its unknown inputs."""

    name: str
    phase: Phase
    what: str
    inputs: Callable[[str], Inputs] = field(repr=False)


STEPS: tuple[Step, ...] = (
    Step("draw", Phase.PLAY, "a draw (rebuilding the talon first if it is empty)", DrawInputs.var),
    Step("pass", Phase.PLAY, "the end of a turn without a card laid", PassInputs.var),
    Step("play", Phase.PLAY, "a play", PlayInputs.var),
    Step("name-suit", Phase.START_SUIT, "the dealer naming the start suit", SuitInputs.var),
)


def step(before: Flags, r: Readings, p: Inputs, weaken: frozenset[str]) -> Flags:
    """The flags after the step whose inputs ``p`` are, from ``before`` under readings ``r``."""
    if isinstance(p, DrawInputs):
        return draw(before, r, p, weaken)
    if isinstance(p, PassInputs):
        return pass_turn(before, r, p, weaken)
    if isinstance(p, PlayInputs):
        return play(before, r, p, weaken)
    return name_suit(before, r, p, weaken)


# --- the theorem -------------------------------------------------------------------------------


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


def _bound() -> Iterable[Comparison]:
    from regelverk_proofs.vandatta_lead_bind import compare

    return compare()


KINDS: tuple[str, ...] = (
    "rebuild-continue",
    "fresh-eight-dealer-names",
    "fresh-eight-returned",
    "fresh-ace",
    "fresh-plain",
    "rebuild-in-restart",
    "draw",
    "third-draw-ends-turn",
    "pass",
    "penalty-no-rebuild",
    "penalty-rebuild-continue",
    "penalty-fresh-eight-dealer-names",
    "penalty-fresh-eight-returned",
    "penalty-fresh-ace",
    "penalty-fresh-plain",
    "free-lead-granted",
    "free-lead-after-restart",
    "play",
    "play-eight",
    "ace-restart",
    "out",
    "name-suit",
)
"""What the binding compares (see :mod:`regelverk_proofs.vandatta_lead_bind`)."""

FREE_LEAD_STEPS = Binding(
    name="vandatta.free-lead.steps",
    statement=(
        "On three-player positions built from data, every one problem-free, under both presets "
        "and every combination of the readings each step depends on: a free lead (or an ace "
        "restart) in front of a draw that rebuilds an empty talon, the card kept an eight (with "
        "a suit named or not), an ace or a plain card, as the first or the last draw of the "
        "turn, under every reading of rebuild_reference, start_eight, start_ace_draw, "
        "viggo_present, start_ace and play_after_third_draw; a free lead in front of plays of a "
        "plain card, an eight and an ace, of a going out, of draws and of the pass after every "
        "draw, and positions with nothing to lay after every draw (an ordinary turn, a suit "
        "named, a restart after one's own ace or eight) in front of the pass and the third "
        "draw, under every reading of after_three_draws, play_after_third_draw, "
        "eight_suit_persistence, after_eight and voluntary_draw; positions whose turn ends "
        "with penalty cards taken from an empty talon (a LAPPEN caller who did not go out "
        "under every reading of lappen_penalty and lappen_failure, a forgotten varning under "
        "every reading of varning_omission, a forgotten LAPPEN under every reading of "
        "lappen_omission, vvv8's cards owed for a failed going out), by the pass after every "
        "draw, the last draw under third-draw-ends-turn or a play, the top of the pile an "
        "eight, an ace or a plain card, under every reading of rebuild_reference, start_eight "
        "and talon_empty_mid_draw; and every start-suit position a rebuild leads to, where "
        "under vvv8 the dealer's choice is also left to lapse (stalling = table-limit, read as "
        "naming no suit). Every action the engine lists there is applied, and the phase, "
        "restart, free lead and named suit it leads to are the ones the encoding's step gives "
        "for the position's flags, the table's readings and the inputs measured on the "
        "position (the kind of card kept or laid, whether the spelförare then holds a card the "
        "engine lets him lay, whether the play empties his hands, whether the cards he takes "
        "as the turn ends outnumber those left in the talon)."
    ),
    kinds=KINDS,
    compare=_bound,
    claims=5503,
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
