"""The encoding of ``vandatta.free-lead``: the flags a free lead touches, as Z3 terms, and how
every step that can touch them changes them (Vändåtta, vvv8 and vandatta).

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

The theorem ``vandatta.free-lead`` (:mod:`regelverk_proofs.vandatta.theorems.lead`) decides over
this encoding. What the encoding takes as given, the binding
(:mod:`regelverk_proofs.vandatta.binding.lead`) measures on the engine's positions: whether the
spelförare holds a card he may lay, the kind of the card kept or laid, whether a play empties
his hands.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
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
from regelverk_proofs.z3api import (
    Bool,
    Int,
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
    "PLAIN",
    "READ",
    "STEPS",
    "DrawInputs",
    "Flags",
    "Inputs",
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
RESTART_NONE = code(Restart.NONE)
RESTART_ACE = code(Restart.ACE)
RESTART_EIGHT = code(Restart.EIGHT)

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
        return implies(self.free, self.restart.eq(RESTART_NONE) & all_of(out_of_play))


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
    restart = Int.const(RESTART_NONE)
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
    restarts = Flags(before.phase, Int.const(RESTART_EIGHT), kept, true())
    again = Flags(before.phase, Int.const(RESTART_ACE), kept, false())

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
