"""Card conservation in the Vändåtta engine (``vvv8`` and ``vandatta``), card by card, and the
moves of play, in Z3.

The state is encoded card by card (:mod:`regelverk_proofs.vandatta.encoding.zones`): for every
physical card of the one or two decks and every place of the engine's
:class:`~regelverk.vandatta.state.State` (each hand, each seat's face-down penalty cards, stock,
pile, early zone, turned piles) a Boolean says whether the card lies there. Each card movement
of the engine is a step, mirroring the engine function named:

========================  ==================================================================
step                      engine function
========================  ==================================================================
``deal-card``             ``setup.deal_hands``
``start-card``            ``setup.turn_start_card``
``start-eight-back``      ``rules.return_start_eight`` (vandatta's start eight)
``start-ace-draw``        ``setup.start_ace``
``lay``                   ``playing._play`` (one card or several), ``early.resolve_early``
``draw``                  ``drawing._draw`` -> ``talon.draw_one``
``ace-draw``              ``talon.ace_draws`` (absent players' cards included)
``rebuild``               ``talon.rebuild`` (top card kept; turned piles when set aside)
``turn-away``             ``talon.turn_pile_away`` (vandatta's eight)
``lappen-draw``           ``calling._lappen_penalty``
``penalty-draw``          ``penalty.penalise`` (cards face down in front of the offender)
``penalty-usable``        ``penalty.penalise`` (usable at once by the spelförare)
``overdraw``              ``attempts._overdraw``, ``attempts._extra_card``
``release``               ``turns._release_penalties``, ``_release_at_turn_start``
``veto``                  ``conduct._veto``
``lay-early``             ``early.early_play`` (förhand's early card on a start eight)
``early-back``            ``early.resolve_early``
``join-deal``             ``join._step_in``
``surplus``               ``misdeal._return_surplus``
``top-up``                ``misdeal._top_up``, ``misdeal._extra_rounds``
``unturn-start``          ``misdeal._complete``
``redeal``                ``misdeal._redeal``
``new-pack``              ``setup.play_deal`` (second and later deals)
``cut``                   ``setup.cut`` (no card changes place; the stock's top changes)
``no-move``               absences and returns (``conduct.perform_conduct``), naming a suit,
                          remarks, looking back, passes, calls, ``join._stay_out``
(seat change)             ``join.seat_in`` (a late joiner's seat is added)
========================  ==================================================================

Every engine action is a sequence of these steps (an ace: ``lay`` then ``ace-draw`` for each
other seat, each possibly preceded by ``rebuild``; a penalty: ``penalty-draw`` three times; a
deal: ``new-pack``, ``deal-card`` seven rounds, ``start-card`` …), so a property every step
keeps, every action keeps. The theorems ``vvv8.card-conservation`` and
``vandatta.card-conservation`` check that every step keeps "every card in exactly one place";
the moves of play (what may be laid, drawing, passing) are encoded in
:mod:`regelverk_proofs.vandatta.encoding.play`, and the bindings of
:mod:`regelverk_proofs.vandatta.binding.cards` and
:mod:`regelverk_proofs.vandatta.binding.cards_listing` (the whole action space of moves of play
of built positions) hold both to the engine before each theorem is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.vandatta.binding.cards import (
    VANDATTA_MOVES,
    VANDATTA_STEPS,
    VVV8_MOVES,
    VVV8_STEPS,
)
from regelverk_proofs.vandatta.binding.cards_listing import VANDATTA_LISTING, VVV8_LISTING
from regelverk_proofs.vandatta.binding.end import TEXT_TABLES
from regelverk_proofs.vandatta.encoding.play import PLAY_SCENARIOS
from regelverk_proofs.vandatta.encoding.zones import (
    STEPS,
    Layout,
    Places,
    Step,
    StepArgs,
    fresh,
    render_places,
    seat_in,
    tops,
    well_placed,
)
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    any_of,
    implies,
)

__all__ = ["SCENARIOS", "THEOREMS", "conservation", "layouts", "step_case"]

SEATS = range(2, 15)
"""Two to fourteen players: vvv8's free time allows fourteen (two decks), its coffee break five;
vandatta's table allows up to fourteen with two decks (deck_setup)."""


SAMPLE = 4
"""Cards in the pack the theorems check (see :func:`layouts`)."""


def layouts() -> tuple[Layout, ...]:
    """One table per player count, with a pack of :data:`SAMPLE` physical cards.

    No step looks at a card's face, nor at how many cards the pack has: a card moves because of
    where it lies, whether it is the top of the pile or of the stock, and whether it is among
    the chosen cards. So if some step left a card of a full pack (one deck or two) in no place
    or in two, the same step would do so in the pack made of that card, the top of the pile,
    the top of the stock and one chosen card (every precondition of a step, such as an empty
    stock before a rebuild or a single card on the pile, survives taking the other cards away);
    and a four-card counterexample becomes one of a full pack by dealing the other cards into a
    hand the step leaves alone. Four cards therefore decide the statement for 52 and for 104."""
    return tuple(Layout(seats=n, decks=1, sample=SAMPLE) for n in SEATS)


def _steps(rulebook: str) -> tuple[Step, ...]:
    """vvv8: every step of every option set. vandatta: the steps its own readings reach (the
    vvv8-only rules, penalties, misdeals, late joiners and the early card, are switched on only
    by the other rulebook's values of the options)."""
    if rulebook == "vvv8":
        return STEPS
    return tuple(s for s in STEPS if s.vandatta is not None or s.name == "no-move")


def _clause(step: Step, rulebook: str) -> str | None:
    return step.vvv8 if rulebook == "vvv8" else step.vandatta


def _early_empty(layout: Layout, state: Places) -> Bool:
    early = layout.zone("early")
    return ~any_of(row[early] for row in state.at)


@dataclass(frozen=True, slots=True)
class _Case:
    solver: Solver
    before: Places
    after: Places
    kind: Int
    args: StepArgs


def step_case(
    layout: Layout, rulebook: str, weaken: frozenset[str], steps: Sequence[Step]
) -> _Case:
    """One case: a state where every card is in one place (vandatta: and nothing early), any
    step of ``steps``, and the question whether some card is then in none or two places.

    Seat 0 acts and seat 1 is the other seat (the dealer a surplus goes to): no step treats one
    seat differently from another, so renumbering the seats brings any acting seat and any
    other seat to these two, while the remaining seats' places stay in the case."""
    solver = Solver(timeout_ms=60_000)
    before, after = fresh(layout, "before"), fresh(layout, "after")
    track = bool(weaken)
    seat, other = 0, 1
    kind = Int.var("step")
    chosen = tuple(Bool.var(f"chosen.{c}") for c in range(len(layout.cards)))
    solver.add(kind.between(0, len(steps) - 1))
    solver.add(well_placed(layout, before) & tops(layout, before))
    vandatta = rulebook == "vandatta"
    if vandatta:
        solver.add(_early_empty(layout, before))
    spare = Bool.var("spare")
    for index, step in enumerate(steps):
        clause = _clause(step, rulebook)
        args = StepArgs(seat, other, chosen, spare, weak=clause in weaken)
        term = implies(kind.eq(index), step.relation(layout, before, after, args))
        solver.add(term, clause=clause if track else None)
    held = well_placed(layout, after)
    if vandatta:
        held = held & _early_empty(layout, after)
    solver.add(~held)
    return _Case(solver, before, after, kind, StepArgs(seat, other, chosen, spare, weak=False))


def _render(layout: Layout, case: _Case, step: Step, model: Model) -> str:
    odd = [
        c
        for c, row in enumerate(case.after.at)
        if sum(model.bool(b) for b in row) != 1 or model.bool(row[layout.zone("early")])
    ]
    odd = odd[:3]
    moved = [c for c, b in enumerate(case.args.chosen) if model.bool(b)][:4]
    seat, other = case.args.seat, case.args.other
    lines = [
        f"{layout.seats} players: step {step.name} ({step.mirrors}), seat {seat}"
        + (f", dealer {other}" if step.name == "surplus" else ""),
        f"  before: {render_places(layout, model, case.before, odd)}",
        f"  after:  {render_places(layout, model, case.after, odd)}",
    ]
    if moved and step.name in ("lay", "release", "veto", "lay-early", "surplus"):
        lines.insert(1, f"  cards chosen: {render_places(layout, model, case.before, moved)}")
    return "\n".join(lines)


def conservation(
    rulebook: str, weaken: frozenset[str], counts: Sequence[int] | None = None
) -> Finding:
    """Check every step for each player count (``counts``: only those)."""
    steps = _steps(rulebook)
    failing: dict[str, str] = {}
    cases = 0
    for layout in layouts():
        if counts is not None and layout.seats not in counts:
            continue
        case = step_case(layout, rulebook, weaken, steps)
        for index, step in enumerate(steps):
            if step.name in failing:
                case.solver.add(case.kind.ne(index))
        cases += len(steps)
        while True:
            verdict = case.solver.check()
            if verdict is Verdict.UNKNOWN:
                return Finding(Outcome.UNKNOWN, f"{layout}: {case.solver.reason_unknown()}", cases)
            if verdict is Verdict.UNSAT:
                break
            model = case.solver.model()
            index = model.int(case.kind)
            failing[steps[index].name] = _render(layout, case, steps[index], model)
            case.solver.add(case.kind.ne(index))
        if weaken and failing:
            break  # a weakened check stops at the first player count that breaks it
    if rulebook == "vvv8" and not (weaken and failing):
        cases += _seat_in_cases(failing, counts)
    if failing:
        shown = "\n".join(
            f"[{name}] {text}" + (f"\n  {_NOTES[name]}" if name in _NOTES and not weaken else "")
            for name, text in failing.items()
        )
        return Finding(Outcome.COUNTEREXAMPLE, shown, cases)
    names = ", ".join(s.name for s in steps)
    return Finding(
        Outcome.PROVED,
        "every step keeps every card in exactly one place, for 2-14 players (a four-card "
        f"pack decides it for one deck and for two): {names}"
        + ("; and a late joiner's new seat" if rulebook == "vvv8" else ""),
        cases,
    )


_NOTES = {
    "new-pack": (
        "This happens in the engine: förhand lays a card early on a start eight, a new deal "
        "is demanded after a short deal (misdeal._redeal gathers every zone but the early "
        "one), the new start card is no eight, and the card still lies in the early zone when "
        "the next deal's new pack is made: the pack holds it a second time."
    ),
}


def _seat_in_cases(failing: dict[str, str], counts: Sequence[int] | None) -> int:
    """``join.seat_in`` adds a seat (a free seat exists only while the decks stay the same)."""
    cases = 0
    for small in layouts():
        if small.seats >= max(SEATS) or (counts is not None and small.seats not in counts):
            continue
        large = Layout(seats=small.seats + 1, decks=small.decks, sample=small.sample)
        solver = Solver(timeout_ms=60_000)
        before, after = fresh(small, "before"), fresh(large, "after")
        solver.add(well_placed(small, before) & tops(small, before))
        at = Int.var("at")
        solver.add(at.between(0, small.seats))
        for seat in range(small.seats + 1):
            moved = implies(at.eq(seat), seat_in(small, large, before, after, seat))
            solver.add(moved)
        solver.add(~well_placed(large, after))
        cases += 1
        if solver.check() is not Verdict.UNSAT:
            failing["seat-in"] = f"{small.seats} players, {small.decks} deck(s): a new seat"
    return cases


def _check_vvv8(weaken: frozenset[str]) -> Finding:
    return conservation("vvv8", weaken)


def _check_vandatta(weaken: frozenset[str]) -> Finding:
    return conservation("vandatta", weaken)


VVV8_CONSERVATION = Theorem(
    name="vvv8.card-conservation",
    states=(),
    rulebooks=("vvv8",),
    title="Every card stays in exactly one place (vvv8, every option set)",
    statement=(
        "For 2 to 14 players, one deck or two (not covered, and refused by the bindings: "
        "tables of three or more decks under max_players_free_time = add-decks, and a late "
        "joiner whose seat shuffles another deck into the talon under "
        "late_joiner_second_deck = add-deck, and the steps of a draw under rebuild_reference "
        "= fresh-start-card, whose rebuild may bring start-ace draws or a start eight's return "
        "within the draw, refused by the step plans except where the rebuild falls is known: "
        "draws off the stock of the state before, with no card laid first, that rebuild it "
        "under a kept card other than an eight, with the start ace's draws): if every physical "
        "card lies in exactly one "
        "place (a hand, a seat's face-down penalty cards, the talon, the pile, the early "
        "zone, the turned piles), it still does after any card movement the engine makes "
        "under any option set: the union of the steps of every option set is checked (deals, "
        "start card, plays of one or several cards, draws, draws for aces by every other "
        "seat, absent ones included, talon rebuilds keeping the top card, penalty cards and "
        "their release, overdraws, vetoes, förhand's early card and its return, late joiners "
        "dealt in and their new seat, misdeal corrections: surplus, completion, redeal, and "
        "a new pack for the next deal). Steps that only vandatta's readings reach are "
        "included but rest on no vvv8 clause (vandatta.card-conservation binds them to the "
        "engine). Decided on a pack of four physical cards, which decides it for 52 and 104 "
        "(see layouts). The order of the stock is not encoded, only which card is on top of "
        "the stock and of the pile. Bound to the engine: seeded vvv8 games under the preset "
        "and three sets of other readings (mistakes, penalties, absences, late joiners, a "
        "stock cut down to force rebuilds; cards laid out of turn or wrongly that stay on the "
        "pile, a failed going out's card back in hand, false calls caught later) and built "
        "positions (early cards, vetoes, misdeals, a start ace, the next deal, the register's "
        "situations of those penalty readings; a card out of turn that stands laid as the "
        "penalty rebuilds the talon, which keeps it face up; a false call under go_out_call = "
        "lappen caught in its turn, and no longer once that turn has ended; mistakes of a "
        "player out of the game under over_limit = eliminated, which move no card; a card "
        "drawn too many whose penalty rebuilds the talon under an ace kept as a fresh start "
        "card (rebuild_reference = fresh-start-card, a Viggo at the table), every player's "
        "draw for it coming between the penalty cards, under both penalty_cards_usable): every "
        "action follows by the encoded steps, and every "
        "candidate move of play is allowed by the engine exactly when the encoding allows it; "
        "and in built positions (four cards of one rank, a chain, a last card onto an ace or an "
        "eight under both readings of go_out_on, a last draw said with utgång, a lone ace or "
        "eight with penalty cards locked under voluntary_draw = only-when-stuck and "
        "last_hand_card_locked = treated-as-going-out, which leaves only the draw) every move of "
        "play, in every order of the cards and with and without the call, is allowed by check "
        "exactly when the encoding allows it, and legal_actions lists exactly those "
        "(no bound option set uses same_rank_group = all-or-one, which only refuses plays and so "
        "moves no card, nor step_away_own_turn = ends-turn, whose ending of the turn moves cards "
        "only by the encoded release of penalty cards, nor same_breath_window = "
        "before-turn-passes, whose late withdrawal is the encoded standard penalty followed by "
        "the play or pass, nor overdraw_could_play = standard-penalty, whose overdraw is "
        "followed by the encoded standard penalty)."
    ),
    clauses=(
        "V8-DEAL-SEVEN-ROUNDS",
        "V8-START-CARD-FACE-UP",
        "V8-START-ACE-ALL-DRAW",
        "V8-PLAY-MATCH-SUIT",
        "V8-DRAW-WHEN-NOT-PLAYING",
        "V8-ACE-OTHERS-DRAW-ONE",
        "V8-TALON-REBUILD-TOP-ASIDE",
        "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
        "V8-PEN-STANDARD-THREE-CARDS",
        "V8-PEN-OVERDRAW-KEEP-LOCKED",
        "V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",
        "V8-PEN-VETO-RIGHT",
        "V8-START-EIGHT-FORHAND-EARLY-PENALTY",
        "V8-START-EIGHT-EARLY-CARD-RETURNED",
        "V8-JOIN-LATE-CARDS-FROM-TALON",
        "V8-JOIN-LATE-TAKE-FREE-SEAT",
        "V8-MISDEAL-TOO-MANY-RETURN",
        "V8-MISDEAL-TOO-FEW-COMPLETE",
        "V8-MISDEAL-TOO-FEW-REDEAL-RIGHT",
    ),
    check=_check_vvv8,
    bindings=(VVV8_MOVES, VVV8_LISTING, VVV8_STEPS, TEXT_TABLES),
    weakenings=(
        Weakening("V8-DRAW-WHEN-NOT-PLAYING", "the drawn card is not taken off the talon"),
        Weakening(
            "V8-TALON-REBUILD-TOP-ASIDE",
            "the rebuild takes the top card into the new talon too, while the pile keeps it",
        ),
        Weakening(
            "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
            "the penalty card is laid face down but not taken off the talon",
        ),
        Weakening("V8-PLAY-MATCH-SUIT", "the cards laid go on the pile but stay in the hand"),
        Weakening(
            "V8-MISDEAL-TOO-MANY-RETURN", "the surplus goes to the dealer but stays with the player"
        ),
    ),
    kind=Kind.FORALL,
)

VANDATTA_CONSERVATION = Theorem(
    name="vandatta.card-conservation",
    states=(),
    rulebooks=("vandatta",),
    title="Every card stays in exactly one place (vandatta, its own readings)",
    statement=(
        "For 2 to 14 players, one deck or two (deck_setup; three or more decks, under "
        "max_players_free_time = add-decks, are not covered and the bindings refuse them): "
        "if every physical card lies in "
        "exactly one place and the early zone is empty, both still hold after any card "
        "movement the engine makes under vandatta's own readings of its options (the union "
        "of them): the deal, the start card and a start eight returned to the stock, draws "
        "for a start ace (by every player, or by all but the dealer under start_ace = "
        "as-dealers-ace), plays of one or several cards, draws, draws for aces by every other "
        "player, the pile turned away by an eight (set aside, or put under the stock under "
        "turned_pile = under-stock), the stock rebuilt from the pile keeping "
        "its top card (with or without the turned piles), the LAPPEN penalty draws, and a new "
        "pack for the next deal. The vvv8-only movements are covered by "
        "vvv8.card-conservation. Decided on a pack of four physical cards, which decides it "
        "for 52 and 104 (see layouts). Bound to the engine: seeded vandatta games under the "
        "preset and three sets of other readings (a stock cut down to force rebuilds) and "
        "built deals (start eights, a start ace, the next deal): every action follows by the "
        "encoded steps, and every candidate move of play is allowed by the engine exactly "
        "when the encoding allows it; and in built positions (four cards of one rank, LAPPEN "
        "made for the player and left to him, varning said by the player under "
        "varning_omission = three-cards and every varning_trigger, down to an empty hand) every "
        "move of play, in every order of the cards and with and without the call, is allowed "
        "by check exactly when the encoding allows it, and legal_actions lists exactly those "
        "(not the calls the engine makes for the player). Not covered, and refused by the "
        "encoding rather than skipped: the moves of play under restart_fallback = "
        "ace-needs-follow, several_eights = together and after_three_draws = pass-free-lead, "
        "and the penalty draws for a forgotten call (varning_omission = three-cards, "
        "lappen_omission = no-go-out), the steps of a draw under rebuild_reference = "
        "fresh-start-card, and the choice to take or decline the start ace's extra card under "
        "start_ace_take = may-decline (not encoded; no bound option set uses it, and a "
        "declined card simply stays in the stock), and the moves of play under "
        "eight_on_own_ace = only-without-suit (no bound option set uses it; it only forbids "
        "some eights, so it moves no card the covered readings do not)."
    ),
    clauses=(
        "VA-DEAL-SEVEN-CARDS",
        "VA-DEAL-SHUFFLE",
        "VA-START-CARD-TURN",
        "VA-START-EIGHT-RETURNED",
        "VA-START-ACE-ALL-DRAW",
        "VA-PLAY-MATCH-RANK-OR-SUIT",
        "VA-DRAW-WHEN-STUCK",
        "VA-ACE-OTHERS-DRAW",
        "VA-DRAW-STOCK-REBUILD",
        "VA-EIGHT-TURNS-PILE",
        "VA-PENALTY-LAPPEN-FAILED",
    ),
    check=_check_vandatta,
    bindings=(VANDATTA_MOVES, VANDATTA_LISTING, VANDATTA_STEPS, TEXT_TABLES),
    weakenings=(
        Weakening("VA-DRAW-WHEN-STUCK", "the drawn card is not taken off the stock"),
        Weakening(
            "VA-DRAW-STOCK-REBUILD",
            "the rebuild takes the top card into the new stock too, while the pile keeps it",
        ),
        Weakening("VA-EIGHT-TURNS-PILE", "the turned pile is set aside but the pile keeps it"),
        Weakening("VA-DEAL-SHUFFLE", "the new pack is made but the turned piles are not emptied"),
    ),
    kind=Kind.FORALL,
)

THEOREMS: tuple[Theorem, ...] = (VVV8_CONSERVATION, VANDATTA_CONSERVATION)
SCENARIOS: tuple[Scenario, ...] = PLAY_SCENARIOS
