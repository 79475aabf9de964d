"""Theorems on how Vändåtta deals and matches end (``vvv8``, ``vandatta``): legal going out,
official results, vandatta's points and the end of its match, the coffee break's drawn deal,
and a never-ending vvv8 game in free time.

The encodings are in :mod:`regelverk_proofs.vandatta.encoding.end` (the engine's transitions, in
counts) and :mod:`regelverk_proofs.vandatta.encoding.end_lasso` (the never-ending game). Each
theorem states its property in the rulebook's terms (its constants read from the clauses in spec/)
and checks it against the engine's transitions; the bindings of
:mod:`regelverk_proofs.vandatta.binding.end`, checked before each theorem, tie the encodings to the
engine.

Not covered here: whether a vandatta deal always ends (it need not:
:mod:`regelverk_proofs.vandatta.theorems.endless` exhibits a never-ending deal), card-level
legality of plays (the card encoding's own theorems), the misdeal phase and the start eight.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.engine import with_options
from regelverk.registry import parameter
from regelverk.vandatta.options import VANDATTA, VVV8
from regelverk_proofs.query import Fact, Scenario, Situation
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.vandatta.binding.end import (
    BLOCKED,
    GOING_OUT,
    GOING_OUT_VARIANTS,
    LASSO,
    LATE_JOINERS,
    OFFICIAL,
    SCORES,
    STEPS,
    TEXT_TABLES,
)
from regelverk_proofs.vandatta.encoding.end import (
    CLASSES,
    GUARD_CLAUSES,
    Deck,
    GoingOut,
    Guards,
    Heap,
    PlayVars,
    Rules,
    Seats,
    around,
    cheapest_hand,
    deal_scores,
    draw_one,
    draw_step,
    draws_summary,
    end_own_turn,
    going_out,
    guards,
    heap_invariant,
    lex_less,
    next_dealer,
    official_result,
    pass_step,
    plain_play_step,
    ranking,
    seat_at,
    seat_free,
    skip_absent,
    step_in_allowed,
    talon_limit,
    turn_after_return,
)
from regelverk_proofs.vandatta.encoding.end_lasso import find_lasso
from regelverk_proofs.vandatta.text import deck_count
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    any_of,
    implies,
    ite,
    sum_of,
)

__all__ = [
    "COFFEE_BREAK_ENDS",
    "FREE_TIME_ENDLESS",
    "LATE_JOINERS_AND_RETURNS",
    "LEGAL_ENDING",
    "LEGAL_GOING_OUT",
    "OFFICIAL_NEEDS_THREE",
    "SCENARIOS",
    "THEOREMS",
    "going_out_finding",
]

VVV8_RULES = Rules.of(VVV8)
NEW_DRAW_RULES = Rules.of(with_options(VVV8, {"dealer_without_loser": "new-draw"}))
"""vvv8 under dealer_without_loser = new-draw (V8-AMB-DEALER-AFTER-NO-LOSER)."""
CHEAPEST_UP_TO = 6
"""The cheapest hand of a blocked deal is proved for up to this many seats."""
ONE_DECK = len(french_deck(1))
VANDATTA_RULES = Rules.of(VANDATTA)
SCORING_READINGS: tuple[tuple[str, Rules], ...] = (
    ("the vandatta preset", VANDATTA_RULES),
    ("over_limit = play-on", Rules.of(with_options(VANDATTA, {"over_limit": "play-on"}))),
    (
        "nobody_alone = replay-deal",
        Rules.of(with_options(VANDATTA, {"nobody_alone": "replay-deal"})),
    ),
    (
        "over_limit = play-on, nobody_alone = replay-deal",
        Rules.of(with_options(VANDATTA, {"over_limit": "play-on", "nobody_alone": "replay-deal"})),
    ),
)
"""The readings of VA-AMB-OVER-100 and VA-AMB-NOBODY-UNDER-100 the scoring theorem is proved
for: the preset's, and every other combination."""
NAMES = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12", "P13", "P14")


def _verdict_finding(
    solver: Solver, render: Callable[[Model], str], what: str
) -> tuple[Outcome, str] | None:
    """``None`` when the negation is unsatisfiable, else the outcome and its detail."""
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.SAT:
        return Outcome.COUNTEREXAMPLE, f"{what}: {render(solver.model())}"
    return Outcome.UNKNOWN, f"{what}: {solver.reason_unknown()}"


def _card(rank_class: str, suit: Suit = Suit.HEARTS) -> str:
    rank = {"ace": Rank.ACE, "eight": Rank.EIGHT, "other": Rank.SEVEN}[rank_class]
    return str(Card(rank, suit))


# --- 1. vvv8.legal-going-out ------------------------------------------------------------------


class _Calls:
    """The utgång bookkeeping of the player who goes out: the engine's standing call, and the
    history the rulebook speaks of (what his previous turn as spelförare ended with, and
    whether a turn of his came while he was away since)."""

    def __init__(self, tag: str) -> None:
        self.called = Bool.var(f"{tag}.called")
        self.declared = Bool.var(f"{tag}.declared")
        self.skipped = Bool.var(f"{tag}.skipped")

    def invariant(self) -> Bool:
        return implies(self.called, self.declared & ~self.skipped)


def _render_play(model: Model, v: PlayVars, calls: _Calls, result: GoingOut) -> str:
    last = "ace" if model.bool(v.last_ace) else "eight" if model.bool(v.last_eight) else "other"
    first = "eight" if model.bool(v.first_eight) else last
    cards = [_card(first)] + [_card(last, Suit.SPADES)] * (model.int(v.k) - 1)
    held = model.int(v.hand)
    penalty = model.int(v.pen)
    previous = "with utgång" if model.bool(calls.declared) else "without a call"
    away = (
        ", and a turn of his passed over him while he was away" if model.bool(calls.skipped) else ""
    )
    few = ", with too few players active for an official result" if model.bool(v.short) else ""
    return (
        f"P1 holds {held} card(s) in hand and {penalty} face-down penalty card(s){few}; his "
        f"previous turn ended {previous}{away}; his call stands: {model.bool(v.called)}; he lays "
        f"{' '.join(cards)} (the last is {cards[-1]}; allowed as tried: "
        f"{model.bool(result.legal)}) and the deal ends with P1 the winner, holding "
        f"{model.int(result.hand_after)} card(s) in hand and {model.int(result.pen_after)} face "
        f"down"
    )


def _going_out_cases(weaken: frozenset[str], rules: Rules) -> tuple[Finding, ...]:
    """The invariant on calls at a new deal and across every transition that touches it, and
    the end condition at the play that wins."""
    found: list[Finding] = []
    before, after = _Calls("before"), _Calls("after")
    say = Bool.var("say")
    transitions = {
        "a new deal (no call, no previous turn)": all_of(
            [~after.called, ~after.declared, ~after.skipped]
        ),
        "the end of his own turn": all_of(
            [
                after.called.eq(end_own_turn(before.called, say, weaken)),
                after.declared.eq(say),
                ~after.skipped,
            ]
        ),
        "his turn passed over while he is away": all_of(
            [
                after.called.eq(skip_absent(before.called, weaken)),
                after.declared.eq(before.declared),
                after.skipped,
            ]
        ),
        "anyone else's action": all_of(
            [
                after.called.eq(before.called),
                after.declared.eq(before.declared),
                after.skipped.eq(before.skipped),
            ]
        ),
    }
    for what, step in transitions.items():
        solver = Solver()
        solver.add(before.invariant())
        solver.add(step)
        solver.add(~after.invariant())

        def render(model: Model, what: str = what) -> str:
            return (
                f"after {what}, P1's call stands ({model.bool(after.called)}) although his "
                f"previous turn ended {'with' if model.bool(after.declared) else 'without'} "
                f"utgång{' and he has since been passed over' if model.bool(after.skipped) else ''}"
                f"; he may then go out"
            )

        bad = _verdict_finding(solver, render, "the standing call")
        if bad is not None:
            return (Finding(bad[0], bad[1]),)
        found.append(Finding(Outcome.PROVED, what))
    v = PlayVars.fresh("play")
    calls = _Calls("play")
    solver = Solver()
    solver.add(v.shape(rules))
    solver.add(v.called.eq(calls.called))
    solver.add(calls.invariant())
    result = going_out(v, rules, weaken)
    solver.add(result.wins)
    end = all_of(
        [
            result.hand_after.eq(0),
            result.pen_after.eq(0),
            ~v.last_ace,
            ~v.last_eight,
            calls.declared,
            ~calls.skipped,
            implies(Bool.const(rules.held_back), ~v.short),
        ]
    )
    solver.add(~end)
    bad = _verdict_finding(solver, lambda m: _render_play(m, v, calls, result), "a going out")
    if bad is not None:
        return (Finding(bad[0], bad[1]),)
    found.append(Finding(Outcome.PROVED, "the winning play"))
    return tuple(found)


def going_out_finding(rules: Rules) -> Finding:
    """The going-out theorem's cases under other option values (the theorem itself covers the
    vvv8 preset)."""
    cases = _going_out_cases(frozenset(), rules)
    failed = [c for c in cases if c.outcome is not Outcome.PROVED]
    return failed[0] if failed else Finding(Outcome.PROVED, "proved", len(cases))


def _check_going_out(weaken: frozenset[str]) -> Finding:
    count = 0
    for name, values in GOING_OUT_VARIANTS:
        cases = _going_out_cases(weaken, Rules.of(with_options(VVV8, values)))
        count += len(cases)
        failed = [c for c in cases if c.outcome is not Outcome.PROVED]
        if failed:
            return Finding(failed[0].outcome, f"{failed[0].detail} ({name})", count)
    return Finding(
        Outcome.PROVED,
        "proved for a new deal, the end of the caller's own turn, a turn passed over in his "
        "absence, every other action, and the winning play, legal or ruled as a failed going out, "
        f"under the vvv8 preset and the {len(GOING_OUT_VARIANTS) - 1} other combinations of the "
        "readings of penalty_cards_usable and out_without_call, failed_out_card (card-returns) "
        "and last_hand_card_locked (treated-as-going-out), and out_below_three (held-back)",
        count,
    )


LEGAL_GOING_OUT = Theorem(
    name="vvv8.legal-going-out",
    states=(
        "V8-WIN-FIRST-OUT-WINS",
        "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
        "V8-CALL-REQUIRED-TO-WIN",
        "V8-CALL-VALID-NEXT-TURN-ONLY",
        "V8-CALL-FORFEITED-IF-ABSENT",
        "V8-PEN-CARDS-COUNT-AS-HELD",
        "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
        "V8-WIN-NO-CALL-NOT-OUT",
        "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
    ),
    rulebooks=("vvv8",),
    title="Every vvv8 deal ends with a legal going out",
    statement=(
        "Whenever a vvv8 deal ends with a winner, the winner holds no card at all afterwards "
        "(neither in hand nor face down), the last card he laid is neither an ace nor an eight, "
        "and his previous turn as spelförare ended with an utgång call, with no turn of his "
        "passed over in his absence since; under out_below_three = held-back, enough players "
        "were active for an official result (or the deal began with too few). Checked over the "
        "play that wins (allowed as tried, or "
        "ruled as a failed going out under Brott och straff) and over every transition that "
        "changes the standing call; the fit of the cards is the card encoding's business and an "
        "input here."
    ),
    clauses=(
        "V8-WIN-FIRST-OUT-WINS",
        "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
        "V8-CALL-REQUIRED-TO-WIN",
        "V8-CALL-VALID-NEXT-TURN-ONLY",
        "V8-CALL-FORFEITED-IF-ABSENT",
        "V8-PEN-CARDS-COUNT-AS-HELD",
        "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
        "V8-WIN-NO-CALL-NOT-OUT",
        "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
    ),
    check=_check_going_out,
    bindings=(GOING_OUT,),
    weakenings=(
        Weakening(
            "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
            "the guard no longer bars an ace or an eight as the last card",
        ),
        Weakening("V8-CALL-REQUIRED-TO-WIN", "the guard no longer asks for a standing call"),
        Weakening(
            "V8-CALL-VALID-NEXT-TURN-ONLY",
            "a call is not used up when the caller's turn ends: it stands until he calls again",
        ),
        Weakening(
            "V8-CALL-FORFEITED-IF-ABSENT",
            "a caller passed over while away keeps his call",
        ),
        Weakening(
            "V8-PEN-CARDS-COUNT-AS-HELD",
            "face-down penalty cards no longer count: emptying the hand is going out",
        ),
        Weakening(
            "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL",
            "under out_below_three = held-back a going out no longer waits for enough players",
        ),
    ),
)


# --- 2. vandatta.legal-ending -----------------------------------------------------------------

RULEBOOK_POINTS = {
    "tens": parameter("VA-SCORING-TEN", "ten_points"),
    "aces": parameter("VA-SCORING-ACE", "ace_points"),
    "courts": parameter("VA-SCORING-COURT", "court_points"),
    "eights": parameter("VA-SCORING-EIGHT", "eight_points"),
    "others": parameter("VA-SCORING-OTHER", "other_points"),
}
"""The rulebook's table (VA-SCORING-TEN, -ACE, -COURT, -EIGHT, -OTHER) as the clauses in
spec/ fix it: the statement's side, read from the spec and not from the engine, whose own table
the encoding uses."""

RULEBOOK_LIMIT = parameter("VA-SCORING-GAME-WINNER", "score_limit")
"""The total that puts a player out of the match, as VA-SCORING-GAME-WINNER fixes it (the
encoding uses the engine's option)."""

RULEBOOK_WINNER_POINTS = parameter("VA-SCORING-WINNER-ZERO", "winner_points")
"""What the winner of a deal scores (VA-SCORING-WINNER-ZERO)."""

RULEBOOK_MIN_ACTIVE = parameter("V8-LOSS-OFFICIAL-NEEDS-THREE", "min_active_players")
"""The active players an official vvv8 result needs, as V8-LOSS-OFFICIAL-NEEDS-THREE fixes it
(the encoding uses the engine's option)."""


def _render_scores(
    model: Model,
    *,
    seats: int,
    points: Sequence[Int],
    counts: Sequence[dict[str, Int]],
    winner: Int,
    after: Sequence[Int],
    over: Bool,
) -> str:
    w = model.int(winner)
    parts = []
    for s in range(seats):
        held = ", ".join(
            f"{model.int(counts[s][name])} {name}"
            for name, _ in CLASSES
            if model.int(counts[s][name])
        )
        role = " (winner)" if s == w else f" holding {held or 'nothing'}"
        parts.append(f"{NAMES[s]} {model.int(points[s])} -> {model.int(after[s])}{role}")
    end = "the match ends" if model.bool(over) else "the match goes on"
    return "; ".join(parts) + f"; {end}"


def _scores_case(
    seats: int, weaken: frozenset[str], void: bool, rules: Rules = VANDATTA_RULES
) -> tuple[Outcome, str] | None:
    limit = RULEBOOK_LIMIT
    solver = Solver()
    points = [Int.var(f"points{s}") for s in range(seats)]
    out = [Bool.var(f"out{s}") for s in range(seats)]
    counts = [{name: Int.var(f"{name}{s}") for name, _ in CLASSES} for s in range(seats)]
    winner = Int.var("winner")
    # before the deal: those out are at or over the limit; under eliminated every other player
    # is below it, under play-on at least two are (else the match would be over)
    before_below = [~out[s] & (points[s] < limit) for s in range(seats)]
    for s in range(seats):
        solver.add(points[s] >= 0)
        solver.add(implies(out[s], points[s] >= limit))
        if rules.eliminated:
            solver.add(implies(~out[s], points[s] < limit))
        for name, _ in CLASSES:
            solver.add(counts[s][name] >= 0)
    solver.add(sum_of(before_below) >= 2)
    if void:
        solver.add(winner.eq(-1))
    else:
        solver.add(winner.between(0, seats - 1) & ~seat_at(out, winner))
        for s in range(seats):
            solver.add(implies(winner.eq(s), all_of([c.eq(0) for c in counts[s].values()])))
    counted = Bool.const(not void)
    result = deal_scores(
        points, out, counts, winner=winner, counted=counted, rules=rules, weaken=weaken
    )
    in_deal = [~o for o in out]
    expected = [
        ~in_deal[s]
        | winner.eq(s)
        | Bool.const(void)
        | result.scored[s].eq(
            sum_of([counts[s][name] * RULEBOOK_POINTS[name] for name, _ in CLASSES])
        )
        for s in range(seats)
    ]
    unchanged = [
        implies(~in_deal[s] | Bool.const(void), result.points[s].eq(points[s]))
        for s in range(seats)
    ] + [
        implies(
            in_deal[s] & winner.eq(s) & Bool.const(not void),
            result.points[s].eq(points[s] + RULEBOOK_WINNER_POINTS),
        )
        for s in range(seats)
    ]
    # what the deal's scores make of the match: the players below the limit after it
    after = [points[s] + result.scored[s] for s in range(seats)]
    below = [in_deal[s] & (after[s] < limit) for s in range(seats)]
    alone = sum_of(below)
    played = Bool.const(not void)
    replayed = played & alone.eq(0) & Bool.const(rules.replay)
    ends_exactly = result.over.eq(played & (alone <= 1) & ~replayed)
    champion_right = all_of(
        [implies(alone.eq(1) & played, result.champion[s].eq(below[s])) for s in range(seats)]
        + [
            implies(
                alone.eq(0) & played & ~replayed & result.champion[s],
                before_below[s]
                & all_of([~before_below[r] | (after[s] <= after[r]) for r in range(seats)]),
            )
            for s in range(seats)
        ]
    )
    kept = [
        implies(~replayed, result.points[s].eq(after[s]))
        & implies(replayed, result.points[s].eq(points[s]) & result.out[s].eq(~before_below[s]))
        for s in range(seats)
    ]
    stays_below = all_of(
        [implies(~result.out[s], result.points[s] < limit) for s in range(seats)]
        if rules.eliminated
        else [
            implies(result.out[s], result.points[s] >= limit)
            & implies(~replayed, result.out[s].eq(out[s]))
            for s in range(seats)
        ]
    )
    statement = all_of(
        [
            *expected,
            *kept,
            ends_exactly,
            champion_right,
            stays_below,
        ]
        + [implies(~replayed, u) for u in unchanged]
    )
    solver.add(~statement)
    what = f"{seats} players, a {'void deal' if void else 'deal won'}"
    return _verdict_finding(
        solver,
        lambda m: _render_scores(
            m,
            seats=seats,
            points=points,
            counts=counts,
            winner=winner,
            after=result.points,
            over=result.over,
        ),
        what,
    )


def _next_dealer_case(seats: int) -> tuple[Outcome, str] | None:
    """VA-SESSION-NEXT-DEALER under the vandatta preset's rotate-left, whoever dealt and whoever
    is out of the match after the deal (at least one player still in): after a deal won, the
    first player on the dealer's left who is still in the match deals next (the dealer himself
    only if nobody else is); after a void deal the same dealer deals again, or, if he is out of
    the match, the first player on his left still in it."""
    solver = Solver()
    out = [Bool.var(f"out{s}") for s in range(seats)]
    dealer, winner = Int.var("dealer"), Int.var("winner")
    solver.add(dealer.between(0, seats - 1))
    solver.add(winner.between(-1, seats - 1))
    solver.add(any_of(~o for o in out))
    dealing = next_dealer(
        seats,
        out,
        dealer=dealer,
        winner=winner,
        loser=Int.const(-1),
        official=Bool.const(True),
        rules=VANDATTA_RULES,
    )
    seat = [dealer if d == seats else around(dealer, d, seats) for d in range(seats + 1)]
    first_in = any_of(
        dealing.eq(seat[d])
        & ~seat_at(out, seat[d])
        & all_of([seat_at(out, seat[j]) for j in range(1, d)])
        for d in range(1, seats + 1)
    )
    stays = ~seat_at(out, dealer)
    solver.add(
        ~(
            implies(winner.ne(-1), first_in)
            & implies(winner.eq(-1) & stays, dealing.eq(dealer))
            & implies(winner.eq(-1) & ~stays, first_in)
        )
    )

    def render(model: Model) -> str:
        gone = [NAMES[s] for s in range(seats) if model.bool(out[s])]
        return (
            f"{NAMES[model.int(dealer)]} dealt, winner seat {model.int(winner)}, out of the "
            f"match {gone or 'nobody'}: seat {model.int(dealing)} deals next"
        )

    return _verdict_finding(solver, render, f"{seats} players, the next dealer")


def _check_scores(weaken: frozenset[str]) -> Finding:
    cases = 0
    for label, rules in SCORING_READINGS:
        for seats in range(2, VANDATTA.max_players + 1):
            for void in (False, True):
                cases += 1
                bad = _scores_case(seats, weaken, void, rules)
                if bad is not None:
                    return Finding(bad[0], f"{label}: {bad[1]}", cases)
    for seats in range(2, VANDATTA.max_players + 1):
        cases += 1
        bad = _next_dealer_case(seats)
        if bad is not None:
            return Finding(bad[0], bad[1], cases)
    return Finding(
        Outcome.PROVED,
        f"proved for 2 to {VANDATTA.max_players} players, for a deal won and a void deal, "
        f"under {'; '.join(label for label, _ in SCORING_READINGS)}; the next dealer for 2 "
        f"to {VANDATTA.max_players} players, every dealer and everyone out of the match or not",
        cases,
    )


LEGAL_ENDING = Theorem(
    name="vandatta.legal-ending",
    states=(
        "VA-SCORING-WINNER-ZERO",
        "VA-SCORING-OTHERS-COUNT",
        "VA-SCORING-TEN",
        "VA-SCORING-ACE",
        "VA-SCORING-COURT",
        "VA-SCORING-EIGHT",
        "VA-SCORING-OTHER",
        "VA-SCORING-GAME-WINNER",
        "VA-SESSION-NOBODY-ALONE",
        "VA-SESSION-NEXT-DEALER",
    ),
    rulebooks=("vandatta",),
    title="vandatta scores a deal by the table and ends the match at 100",
    statement=(
        "When a vandatta deal is won, the winner scores nothing and every other player still in "
        "the match scores the cards he holds by the rulebook's table (tens and court cards 10, "
        "aces 15, eights 25, every other card 5); a void deal scores nothing. Players whose "
        "total reaches 100 drop out, so everyone left stays below 100. The match ends exactly "
        "when at most one player of the deal is below 100 afterwards, and not before: a lone "
        "player below 100 is the champion, and if nobody is below 100 the lowest total wins "
        "(of those below 100 before the deal). Proved too for the other readings of "
        "VA-AMB-OVER-100 and VA-AMB-NOBODY-UNDER-100 and their combinations: under over_limit "
        "= play-on nobody drops out, players at 100 or more play on but are never the lone "
        "champion, and only players at 100 or more are ever out; under nobody_alone = "
        "replay-deal a deal that leaves nobody below 100 ends no match: its points are taken "
        "back and exactly the players who were below 100 before it stay in the match. While "
        "the match goes on, the player on the last dealer's left deals next, passing over "
        "players out of the match; after a void deal the same dealer deals again."
    ),
    clauses=(
        "VA-SCORING-WINNER-ZERO",
        "VA-SCORING-OTHERS-COUNT",
        "VA-SCORING-TEN",
        "VA-SCORING-ACE",
        "VA-SCORING-COURT",
        "VA-SCORING-EIGHT",
        "VA-SCORING-OTHER",
        "VA-SCORING-GAME-WINNER",
        "VA-SESSION-NOBODY-ALONE",
        "VA-WIN-BLOCKED-DEAL-VOID",
        "VA-SESSION-NEXT-DEALER",
    ),
    check=_check_scores,
    bindings=(SCORES, GOING_OUT, TEXT_TABLES),
    weakenings=(
        Weakening("VA-SCORING-EIGHT", "an eight left in hand scores like any other card, 5"),
        Weakening(
            "VA-SCORING-GAME-WINNER",
            "a total of exactly 100 counts as below the limit: the player stays in",
        ),
    ),
)


# --- 3. vvv8.official-result-needs-three ------------------------------------------------------


def _render_official(
    model: Model,
    *,
    seats: int,
    away: Sequence[Bool],
    benched: Sequence[Bool],
    w: int,
    at_start: Int,
    loser: Int,
    recorded: Bool,
) -> str:
    def who(s: int) -> str:
        status = " (away)" if model.bool(away[s]) else ""
        status += " (outside the deal)" if model.bool(benched[s]) else ""
        return NAMES[s] + status

    table = ", ".join(who(s) for s in range(seats))
    lost = model.int(loser)
    result = (
        f"the result is recorded: a win for {NAMES[w]}, a loss for {NAMES[lost]}"
        if model.bool(recorded)
        else "no official result is recorded"
    )
    return (
        f"seats in order {table}; {model.int(at_start)} active when the deal began; "
        f"{NAMES[w]} goes out; {result}"
    )


def _official_case(seats: int, seat: int, weaken: frozenset[str]) -> tuple[Outcome, str] | None:
    rules = VVV8_RULES
    solver = Solver()
    away = [Bool.var(f"away{s}") for s in range(seats)]
    benched = [Bool.var(f"benched{s}") for s in range(seats)]
    out = [Bool.var(f"out{s}") for s in range(seats)]
    at_start = Int.var("at_start")
    for s in range(seats):
        solver.add(~out[s])
    solver.add(~away[seat] & ~benched[seat])
    solver.add(at_start.between(0, seats))
    verdict = official_result(
        seats, away, benched, out, winner=seat, at_start=at_start, rules=rules, weaken=weaken
    )
    active = [~away[s] & ~benched[s] & ~out[s] for s in range(seats)]
    active_now = sum_of(active)
    nearest = any_of(
        verdict.loser.eq((seat - d) % seats)
        & active[(seat - d) % seats]
        & all_of([~active[(seat - j) % seats] for j in range(1, d)])
        for d in range(1, seats)
    )
    need = RULEBOOK_MIN_ACTIVE
    should = (at_start >= need) & (active_now >= need) & Bool.const(not rules.slagpase)
    statement = all_of(
        [
            verdict.recorded.eq(should),
            implies(verdict.recorded, nearest),
        ]
    )
    solver.add(~statement)
    return _verdict_finding(
        solver,
        lambda m: _render_official(
            m,
            seats=seats,
            away=away,
            benched=benched,
            w=seat,
            at_start=at_start,
            loser=verdict.loser,
            recorded=verdict.recorded,
        ),
        f"{seats} seats",
    )


def _loser_deals_case(seats: int) -> tuple[Outcome, str] | None:
    """V8-SESSION-LOSER-DEALS-NEXT and V8-SESSION-DEALER-WITHOUT-LOSER, whoever dealt, won and
    lost: a loser in the match deals the next deal, official result or not; under
    dealer_without_loser = new-draw only after an official result, and a deal without one is
    followed by a fresh draw for the deal."""
    solver = Solver()
    out = [Bool.var(f"out{s}") for s in range(seats)]
    dealer, winner, loser = Int.var("dealer"), Int.var("winner"), Int.var("loser")
    official = Bool.var("official")
    solver.add(dealer.between(0, seats - 1))
    solver.add(winner.between(0, seats - 1) & loser.between(0, seats - 1) & loser.ne(winner))
    solver.add(~seat_at(out, winner) & ~seat_at(out, loser))
    dealing = {
        name: next_dealer(
            seats,
            out,
            dealer=dealer,
            winner=winner,
            loser=loser,
            official=official,
            rules=readings,
        )
        for name, readings in (("preset", VVV8_RULES), ("new-draw", NEW_DRAW_RULES))
    }
    solver.add(
        ~(
            dealing["preset"].eq(loser)
            & implies(official, dealing["new-draw"].eq(loser))
            & implies(~official, dealing["new-draw"].eq(-1))
        )
    )

    def render(model: Model) -> str:
        return (
            f"{NAMES[model.int(dealer)]} dealt, {NAMES[model.int(winner)]} won, "
            f"{NAMES[model.int(loser)]} lost, official {model.bool(official)}: the next dealer "
            f"is seat {model.int(dealing['preset'])} (new-draw: {model.int(dealing['new-draw'])})"
        )

    return _verdict_finding(solver, render, f"{seats} seats, the next dealer")


def _cheapest_case(seats: int, dealer: int) -> tuple[Outcome, str] | None:
    """blocked_deal = fewest-points-wins: the winner of a blocked deal holds cards worth no
    more than anyone's, by the rulebook's table, and is the first such from the dealer's left."""
    solver = Solver()
    counts = [{name: Int.var(f"{name}{s}") for name, _ in CLASSES} for s in range(seats)]
    for s in range(seats):
        for name, _ in CLASSES:
            solver.add(counts[s][name] >= 0)
    winner, _ = cheapest_hand(counts, (True,) * seats, dealer)
    worth = [sum_of([counts[s][n] * RULEBOOK_POINTS[n] for n, _ in CLASSES]) for s in range(seats)]
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    first = any_of(
        winner.eq(order[i])
        & all_of([worth[order[i]] <= worth[s] for s in range(seats)])
        & all_of([worth[order[j]] > worth[order[i]] for j in range(i)])
        for i in range(seats)
    )
    solver.add(~first)

    def render(model: Model) -> str:
        held = "; ".join(
            f"{NAMES[s]} " + ", ".join(f"{model.int(counts[s][n])} {n}" for n, _ in CLASSES)
            for s in range(seats)
        )
        return f"{held}; {NAMES[dealer]} dealt; the winner is seat {model.int(winner)}"

    return _verdict_finding(solver, render, f"{seats} seats, a blocked deal")


def _check_official(weaken: frozenset[str]) -> Finding:
    most = VVV8.max_players
    cases = 0
    for seats in range(2, most + 1):
        for seat in range(seats):
            cases += 1
            bad = _official_case(seats, seat, weaken)
            if bad is not None:
                return Finding(bad[0], bad[1], cases)
    for seats in range(2, most + 1):
        cases += 1
        bad = _loser_deals_case(seats)
        if bad is not None:
            return Finding(bad[0], bad[1], cases)
    for seats in range(2, CHEAPEST_UP_TO + 1):
        for dealer in range(seats):
            cases += 1
            bad = _cheapest_case(seats, dealer)
            if bad is not None:
                return Finding(bad[0], bad[1], cases)
    return Finding(
        Outcome.PROVED,
        f"proved for every number of seats vvv8 allows, 2 to {most} (free time; the coffee "
        f"break allows 2 to {VVV8.coffee_break_max_players}) and every winner's seat; the next "
        f"dealer for every dealer, winner and loser; the cheapest hand for 2 to "
        f"{CHEAPEST_UP_TO} seats and every dealer",
        cases,
    )


OFFICIAL_NEEDS_THREE = Theorem(
    name="vvv8.official-result-needs-three",
    states=(
        "V8-LOSS-OFFICIAL-NEEDS-THREE",
        "V8-PRESENCE-ABSENT-NOT-ACTIVE",
        "V8-LOSS-PLAYER-BEFORE-WINNER",
        "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
        "V8-SCORING-WIN-LOSS-TALLY",
        "V8-SESSION-LOSER-DEALS-NEXT",
        "V8-SESSION-DEALER-WITHOUT-LOSER",
    ),
    rulebooks=("vvv8",),
    title="An official vvv8 result needs three active players; the loser sits before the winner",
    statement=(
        "When a vvv8 deal is won, one win and one loss are recorded exactly when at least three "
        "players were active when the deal began and at least three are active at the going out "
        "(active: present and taking part in the deal), and no slagpåse plays; the loss goes to "
        "the nearest active player seated before the winner (counter-clockwise, passing over "
        "players who are away). That loser deals the next deal, official result or not; under "
        "the other reading of V8-AMB-DEALER-AFTER-NO-LOSER (dealer_without_loser = new-draw) "
        "a deal without an official result is followed by a fresh draw for the deal instead. "
        "Checked for every number of seats from 2 to 14. Under blocked_deal = "
        "fewest-points-wins (V8-AMB-BLOCKED-DEAL) a deal nobody can finish is won by a player "
        "whose cards, in hand and face down, are worth least by the points table, the first "
        "such from the dealer's left (2 to 6 seats)."
    ),
    clauses=(
        "V8-LOSS-OFFICIAL-NEEDS-THREE",
        "V8-PRESENCE-ABSENT-NOT-ACTIVE",
        "V8-LOSS-PLAYER-BEFORE-WINNER",
        "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
        "V8-SCORING-WIN-LOSS-TALLY",
        "V8-SESSION-LOSER-DEALS-NEXT",
        "V8-SESSION-DEALER-WITHOUT-LOSER",
    ),
    check=_check_official,
    bindings=(OFFICIAL, BLOCKED),
    weakenings=(
        Weakening("V8-LOSS-OFFICIAL-NEEDS-THREE", "two active players are enough"),
        Weakening("V8-PRESENCE-ABSENT-NOT-ACTIVE", "players away from the table count as active"),
        Weakening(
            "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
            "the loser is looked for among absent players too",
        ),
        Weakening(
            "V8-LOSS-PLAYER-BEFORE-WINNER",
            "the loser is looked for clockwise, after the winner",
        ),
    ),
)


# --- 4. vvv8.coffee-break-deal-ends -----------------------------------------------------------


def _render_heap(model: Model, before: Heap, after: Heap, deck: Deck, what: str) -> str:
    def show(h: Heap) -> str:
        return (
            f"talon {model.int(h.stock)}, pile {model.int(h.pile)}, held {model.int(h.held)}, "
            f"talon passes {model.int(h.passes)}, draws {model.int(h.draws)}, restart "
            f"{model.bool(h.restart)}, idle passes {model.int(h.idle)}, players "
            f"{model.int(h.players)} ({model.int(h.active)} active), late joiners "
            f"{model.int(h.joining)}"
        )

    def rank(h: Heap) -> str:
        return ", ".join(str(model.int(c)) for c in ranking(h, deck))

    return (
        f"{what} from ({show(before)}) to ({show(after)}), the deal still in play; ranking "
        f"({rank(before)}) to ({rank(after)}), which must stay at or above zero and fall"
    )


RANKING_READINGS: tuple[tuple[str, Rules], ...] = (
    ("the vvv8 preset", VVV8_RULES),
    (
        "talon_empty_mid_draw = draw-what-is-there",
        Rules.of(with_options(VVV8, {"talon_empty_mid_draw": "draw-what-is-there"})),
    ),
)
"""The readings the coffee-break ranking is proved for: both readings of
V8-AMB-TALON-EXHAUSTED-MIDDRAW (a draw that is not the spelförare's own rebuilds the talon, or
takes only what is left)."""


def _deck(seats: int, rules: Rules = VVV8_RULES) -> Deck:
    if not rules.blocked_ends:
        raise ValueError(
            "the coffee-break ranking rests on a blocked deal ending; blocked_deal = play-on "
            "(V8-AMB-BLOCKED-DEAL) is not encoded"
        )
    if rules.fresh_start:
        raise ValueError("rebuild_reference = fresh-start-card is not encoded in the heap")
    decks = deck_count(VVV8, seats)
    cap = VVV8.coffee_break_max_players or VVV8.max_players
    total = len(french_deck(decks))
    return Deck(total=total, cap=cap, limit=talon_limit(rules, decks), rules=rules)


def _draw_one_lemma(solver: Solver, before: Heap, deck: Deck, weaken: frozenset[str]) -> Heap:
    """Each card drawn lowers (talon passes left, talon) and keeps the cards: asserts the
    negation, for :func:`draws_summary`."""
    nxt, came, _ = draw_one(before, deck, weaken, Int.const(0))
    pair_after = (deck.limit - nxt.passes, ite(nxt.stock > 0, nxt.stock, deck.total))
    pair_before = (deck.limit - before.passes, ite(before.stock > 0, before.stock, deck.total))
    lemma = all_of(
        [
            lex_less(pair_after, pair_before),
            (nxt.stock + nxt.pile + nxt.held).eq(before.stock + before.pile + before.held),
            nxt.held > before.held,
            nxt.stock >= 0,
            nxt.pile >= 1,
            nxt.passes >= before.passes,
        ]
    )
    solver.add(came)
    solver.add(~lemma)
    return nxt


def _drawing(
    solver: Solver, before: Heap, deck: Deck, weaken: frozenset[str], *, ace: bool
) -> tuple[Bool, Heap]:
    """A play with aces (the others' draws summarised) or a penalty that finds a card."""
    played = before
    allowed = before.stock >= 0
    if ace:
        k, own, aces, others = (Int.var(n) for n in ("k", "own", "aces", "others"))
        allowed = all_of([k >= 1, k < own, own <= before.held, aces.between(1, k), others >= 1])
        played = before.with_(held=before.held - k, pile=before.pile + k, idle=Int.const(0))
    drawn = Heap.fresh("drawn")
    solver.add(draws_summary(played, drawn, deck, at_least_one=not ace))
    limited = deck.rules.coffee_limit and not _limit_weakened(weaken, deck.total == ONE_DECK)
    over = drawn.passes >= deck.limit if limited else Bool.const(False)
    after = played.with_(
        stock=drawn.stock, pile=drawn.pile, held=drawn.held, passes=drawn.passes, over=over
    )
    if ace:
        after = after.with_(restart=Bool.const(True), draws=Int.const(0))
    return allowed, after


def _joining(
    solver: Solver, before: Heap, deck: Deck, weaken: frozenset[str], *, sits_down: bool
) -> tuple[Bool, Heap]:
    """A late joiner sits down, or (dealt cards from the talon, or not) takes his turn's
    decision; the counts below the joiners' may change as the deal allows."""
    after = Heap.fresh("after")
    if sits_down:
        solver.add(after.passes.eq(before.passes))
        capped = "V8-SETUP-COFFEE-BREAK-MAX-FIVE" not in weaken
        allowed = before.players < deck.cap if capped else before.players >= 2
        solver.add(after.players.eq(before.players + 1))
        solver.add(after.joining.eq(before.joining + 1))
        for name in ("stock", "pile", "held", "draws", "idle", "active"):
            solver.add(getattr(after, name).eq(getattr(before, name)))
        solver.add(after.restart.eq(before.restart))
        return allowed, after
    solver.add(after.players.eq(before.players))
    solver.add(after.joining.eq(before.joining - 1))
    solver.add((after.stock + after.pile + after.held).eq(before.stock + before.pile + before.held))
    solver.add(after.stock >= 0)
    solver.add(after.pile >= 1)
    solver.add(after.held >= before.held)
    solver.add(after.passes >= before.passes)
    solver.add(after.active.between(before.active, before.players))
    solver.add(after.draws.eq(0) & ~after.restart & after.idle.eq(before.idle))
    return before.joining >= 1, after.with_(over=after.passes >= deck.limit)


def _transition(
    solver: Solver, step: str, before: Heap, deck: Deck, weaken: frozenset[str]
) -> tuple[Bool, Heap]:
    if step == "draw":
        return draw_step(before, deck, weaken)
    if step == "pass":
        return pass_step(before, deck, weaken)
    if step == "play":
        k, own = Int.var("k"), Int.var("own")
        eight, won = Bool.var("eight"), Bool.var("won")
        return plain_play_step(before, deck, weaken, k, own, eight=eight, won=won)
    if step in ("ace", "penalty"):
        return _drawing(solver, before, deck, weaken, ace=step == "ace")
    return _joining(solver, before, deck, weaken, sits_down=step == "join")


def _ranking_case(
    seats: int, weaken: frozenset[str], step: str, rules: Rules = VVV8_RULES
) -> tuple[Outcome, str] | None:
    deck = _deck(seats, rules)
    before = Heap.fresh("before")
    solver = Solver()
    solver.add(before.players.eq(seats))
    solver.add(heap_invariant(before, deck, weaken, deck.total == ONE_DECK))
    what = f"{seats} players, a {step}"
    if step == "draw-one":
        nxt = _draw_one_lemma(solver, before, deck, weaken)
        return _verdict_finding(
            solver, lambda m: _render_heap(m, before, nxt, deck, "one card drawn"), what
        )
    allowed, after = _transition(solver, step, before, deck, weaken)
    solver.add(allowed)
    low = ranking(before, deck)
    high = ranking(after, deck)
    progress = after.over | all_of(
        [
            heap_invariant(after, deck, weaken, deck.total == ONE_DECK),
            lex_less(high, low),
            *(c >= 0 for c in high),
        ]
    )
    solver.add(~(all_of([c >= 0 for c in low]) & progress))
    return _verdict_finding(solver, lambda m: _render_heap(m, before, after, deck, what), what)


RANKED_STEPS = (
    "draw-one",
    "draw",
    "pass",
    "play",
    "ace",
    "penalty",
    "join",
    "step-in-or-stay-out",
)


def _limit_weakened(weaken: frozenset[str], one_deck: bool) -> bool:
    return ("V8-TALON-DRAWN-ONE-DECK" if one_deck else "V8-TALON-DRAWN-TWO-DECKS") in weaken


def _check_ranking(weaken: frozenset[str]) -> Finding:
    cap = VVV8.coffee_break_max_players or VVV8.max_players
    cases = 0
    for label, rules in RANKING_READINGS:
        for seats in range(2, cap + 1):
            for step in RANKED_STEPS:
                cases += 1
                bad = _ranking_case(seats, weaken, step, rules)
                if bad is not None:
                    return Finding(bad[0], f"{label}: {bad[1]}", cases)
    return Finding(
        Outcome.PROVED,
        f"the ranking is bounded below and strictly decreases on every move of play, for 2 to "
        f"{cap} players ({', '.join(RANKED_STEPS)}), under "
        f"{'; '.join(label for label, _ in RANKING_READINGS)}",
        cases,
    )


COFFEE_BREAK_ENDS = Theorem(
    name="vvv8.coffee-break-deal-ends",
    states=(),
    rulebooks=("vvv8",),
    title="A vvv8 deal in the coffee break always ends",
    statement=(
        "In a coffee-break deal of vvv8 the tuple (talon passes left before the deal is drawn, "
        "free seats, late joiners yet to take their cards, cards in the talon (an empty talon "
        "counting as a whole deck), cards held in hands and face down, a restart after one's own "
        "ace, draws this turn, players minus consecutive idle passes) is bounded below and "
        "strictly decreases, lexicographically, on every move of play: a draw (rebuilding the "
        "talon if need be), a pass, a play with or without aces (the others' draws for the ace "
        "included), a standard penalty that finds at least one card, a late joiner sitting "
        "down, stepping in or staying out. So no deal goes on for ever with moves of play. The "
        "table's other actions are not moves of play and leave the tuple as it is or undo a "
        "step: allowed remarks and looks back change nothing, stepping away and coming back "
        "change only who is present (under step_away_own_turn = ends-turn, which no bound option "
        "set uses, a spelförare stepping away also ends his turn, which only clears his draws "
        "and restart: like coming back and stepping away again it can be repeated without "
        "end, and it is not a move of play), a penalty that finds no card adds an empty "
        "penalty set, and "
        "a veto puts penalty cards back on the talon (so mistakes vetoed again and again can "
        "stall a deal for ever: V8-AMB-VETO-REPEATED; under its reading veto_limit = "
        "once-per-offender-turn a turn holds at most one veto per offender, a further penalty "
        "is a standard penalty like any other). Termination when every active player "
        "passes without a draw rests on the deal being declared void (V8-WIN-BLOCKED-DEAL-VOID, "
        "a model decision for the gap V8-AMB-BLOCKED-DEAL): under that gap's other reading, "
        "blocked_deal = play-on, the theorem does not hold and the encoding refuses the reading "
        "(what play-on costs is the counterexample of the weakening of V8-WIN-BLOCKED-DEAL-VOID, "
        "which is that reading: idle passes without end). Proved under both readings of "
        "V8-AMB-TALON-EXHAUSTED-MIDDRAW: a draw that is not the spelförare's own rebuilds the "
        "talon, or (draw-what-is-there) takes only what is left. Not encoded, and refused by "
        "the encoding: rebuild_reference = fresh-start-card (V8-AMB-REBUILD-REFERENCE-STATUS), "
        "whose rebuild may bring start-ace draws or a new starting suit within a draw; "
        "late_joiner_second_deck = add-deck (V8-AMB-LATE-JOINER-SECOND-DECK), whose late "
        "joiner brings a second deck into the talon mid-deal (the heap keeps the deal's decks), "
        "and tables of three or more decks (max_players_free_time = add-decks)."
    ),
    clauses=(
        "V8-TALON-DRAWN-ONE-DECK",
        "V8-TALON-DRAWN-TWO-DECKS",
        "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
        "V8-TALON-REBUILD-DURING-ANY-DRAW",
        "V8-DRAW-MAX-THREE",
        "V8-TURN-PASS-AFTER-THREE-DRAWS",
        "V8-ACE-OTHERS-DRAW-ONE",
        "V8-SETUP-COFFEE-BREAK-MAX-FIVE",
        "V8-WIN-BLOCKED-DEAL-VOID",
    ),
    check=_check_ranking,
    bindings=(STEPS, TEXT_TABLES),
    weakenings=(
        Weakening(
            "V8-WIN-BLOCKED-DEAL-VOID",
            "the deal is no longer void when every active player has passed without drawing: "
            "idle passes are unbounded",
        ),
        Weakening(
            "V8-TALON-DRAWN-ONE-DECK",
            "with one deck the deal is not drawn after three talon passes",
        ),
        Weakening(
            "V8-TALON-DRAWN-TWO-DECKS",
            "with two decks the deal is not drawn after two talon passes",
        ),
        Weakening(
            "V8-SETUP-COFFEE-BREAK-MAX-FIVE",
            "late joiners may sit down beyond five players",
        ),
    ),
)


# --- 5. vvv8.free-time-endless ----------------------------------------------------------------


def _check_endless(weaken: frozenset[str]) -> Finding:
    verdict, witness = find_lasso(weaken)
    if witness is not None:
        return Finding(Outcome.WITNESSED, witness.text, 1)
    if verdict is Verdict.UNSAT:
        return Finding(
            Outcome.NO_WITNESS,
            "no lasso of four actions: with the talon limit applying, every lap counts talon "
            "passes towards a drawn deal, so the position never comes back",
            1,
        )
    return Finding(Outcome.UNKNOWN, "the lasso search gave no answer in time", 1)


FREE_TIME_ENDLESS = Theorem(
    name="vvv8.free-time-endless",
    states=(
        "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
        "V8-TALON-REBUILD-UNSHUFFLED",
        "V8-TALON-REBUILD-DURING-ANY-DRAW",
    ),
    rulebooks=("vvv8",),
    title="A vvv8 deal in free time can go on for ever",
    statement=(
        "Outside the coffee break a vvv8 deal need not end: there is a position and a sequence "
        "of legal actions (draw, lay, draw, lay) that brings it back to itself with nobody out, "
        "and so can be repeated for ever. The talon runs out on every draw and is rebuilt, "
        "unshuffled, from the pile below its top card; the passes are counted but, outside the "
        "coffee break, never draw the deal."
    ),
    clauses=(
        "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
        "V8-TALON-REBUILD-UNSHUFFLED",
        "V8-TALON-REBUILD-DURING-ANY-DRAW",
        "V8-DRAW-NOT-OBLIGED-TO-PLAY",
        "V8-PLAY-MATCH-SUIT",
    ),
    check=_check_endless,
    bindings=(LASSO, TEXT_TABLES),
    weakenings=(
        Weakening(
            "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
            "the coffee break's talon limit applies in free time too (three passes with one "
            "deck), so the count of passes is part of the position and every lap of the lasso "
            "adds to it: no position comes back, and the third pass draws the deal",
        ),
    ),
    kind=Kind.EXISTS,
)

# --- 6. vvv8.late-joiners-and-returns -------------------------------------------------------

RULEBOOK_HAND = parameter("V8-DEAL-SEVEN-ROUNDS", "hand_size")
"""The cards of a hand, as V8-DEAL-SEVEN-ROUNDS fixes it (the encoding uses the option)."""
RULEBOOK_PACK = parameter("V8-SETUP-NO-JOKERS", "cards_per_deck")
"""The cards of a deck, as V8-SETUP-NO-JOKERS fixes it."""


def _seat_readings() -> tuple[tuple[str, Seats], ...]:
    """vvv8 under every combination of session, deck_setup, max_players_free_time and
    late_joiner_second_deck."""
    from regelverk.vandatta.options import (
        DeckSetup,
        LateJoinerSecondDeck,
        MaxPlayersFreeTime,
        Session,
    )

    found = []
    for session, setup, most, second in itertools.product(
        Session, DeckSetup, MaxPlayersFreeTime, LateJoinerSecondDeck
    ):
        values = {
            "session": session.value,
            "deck_setup": setup.value,
            "max_players_free_time": most.value,
            "late_joiner_second_deck": second.value,
        }
        label = ", ".join(f"{k} = {v}" for k, v in values.items())
        found.append((label, Seats.of(with_options(VVV8, values))))
    return tuple(found)


def _seat_case(label: str, seats: Seats, weaken: frozenset[str]) -> tuple[Outcome, str] | None:
    """A newcomer seated at a deal of ``count`` players: the next deal can deal the larger
    table a hand each and a start card from the decks it then uses."""
    solver = Solver()
    count = Int.var("count")
    decks: Int = Int.const(0)
    larger: Int = Int.const(0)
    for n, d in enumerate(seats.decks_for):
        decks = ite(count.eq(n), d, decks)
        larger = ite((count + 1).eq(n), d, larger)
    solver.add(count.between(2, seats.most))
    solver.add(seat_free(count, decks, seats, weaken))
    pack = ite(larger > decks, larger, decks) * RULEBOOK_PACK
    solver.add((count + 1) * RULEBOOK_HAND + 1 > pack)
    return _verdict_finding(
        solver,
        lambda m: f"{m.int(count)} players with {m.int(decks)} deck(s): a newcomer is seated",
        label,
    )


def _pause_case(seats: Seats, weaken: frozenset[str]) -> tuple[Outcome, str] | None:
    """Under below_two_active = pause nobody steps in or stays out while fewer than two
    players are active and someone is away."""
    solver = Solver()
    turn, away, active = Bool.var("turn"), Bool.var("away"), Int.var("active")
    solver.add(active >= 0)
    solver.add(step_in_allowed(turn, away, active, seats, weaken))
    solver.add(away & (active < 2))
    return _verdict_finding(
        solver,
        lambda m: f"{m.int(active)} active with someone away: the late joiner steps in",
        "below_two_active = pause",
    )


def _return_case(seats: Seats, players: int, weaken: frozenset[str]) -> tuple[Outcome, str] | None:
    """Under absent_turn = skip, after a player comes back during play the spelförare is at the
    table."""
    solver = Solver()
    away = [Bool.var(f"away{s}") for s in range(players)]
    turn, returner = Int.var("turn"), Int.var("returner")
    solver.add(turn.between(0, players - 1) & returner.between(0, players - 1))
    solver.add(seat_at(away, returner))
    after = turn_after_return(turn, seat_at(away, turn), returner, seats, weaken)
    still_away = [a & returner.ne(s) for s, a in enumerate(away)]
    solver.add(seat_at(still_away, after))

    def render(m: Model) -> str:
        gone = [NAMES[s] for s in range(players) if m.bool(away[s])]
        return (
            f"turn at {NAMES[m.int(turn)]}, away {gone}, {NAMES[m.int(returner)]} comes back: "
            f"the turn is at {NAMES[m.int(after)]}, who is still away"
        )

    return _verdict_finding(solver, render, f"{players} players, absent_turn = skip")


def _check_late_joiners(weaken: frozenset[str]) -> Finding:
    cases = 0
    for label, seats in _seat_readings():
        cases += 1
        bad = _seat_case(label, seats, weaken)
        if bad is not None:
            return Finding(bad[0], bad[1], cases)
    presence = Seats.of(VVV8)
    cases += 1
    bad = _pause_case(presence, weaken)
    if bad is not None:
        return Finding(bad[0], bad[1], cases)
    for players in range(2, VVV8.max_players + 1):
        cases += 1
        bad = _return_case(presence, players, weaken)
        if bad is not None:
            return Finding(bad[0], bad[1], cases)
    return Finding(
        Outcome.PROVED,
        f"proved for tables of 2 players up to each limit under the {cases - 1 - 13} "
        "combinations of session, deck_setup, max_players_free_time and "
        "late_joiner_second_deck; the pause and the return under the vvv8 preset, 2 to "
        f"{VVV8.max_players} players",
        cases,
    )


LATE_JOINERS_AND_RETURNS = Theorem(
    name="vvv8.late-joiners-and-returns",
    states=(
        "V8-JOIN-LATE-TAKE-FREE-SEAT",
        "V8-DEAL-SEVEN-ROUNDS",
        "V8-PRESENCE-PAUSE-BELOW-TWO",
        "V8-PRESENCE-ABSENT-TURN-SKIPPED",
        "V8-PRESENCE-MAY-RETURN",
    ),
    rulebooks=("vvv8",),
    title="A late joiner's seat can be dealt; nobody steps in during a pause; the turn comes back",
    statement=(
        "A newcomer takes a free seat during a vvv8 deal only where the next deal can still "
        "give every player, him included, seven cards and turn a start card from the decks "
        "the larger table uses (52 cards a deck), under every combination of session, "
        "deck_setup, max_players_free_time and late_joiner_second_deck; a late joiner whose "
        "turn it is neither steps in nor stays out while play pauses because someone is away "
        "and fewer than two players are active; and when a player comes back to the table "
        "during play, the turn is with a player at the table (under absent_turn = skip, the "
        "vvv8 preset: a turn resting with an absent player passes to the first one back)."
    ),
    clauses=(
        "V8-JOIN-LATE-TAKE-FREE-SEAT",
        "V8-DEAL-SEVEN-ROUNDS",
        "V8-SETUP-NO-JOKERS",
        "V8-PRESENCE-PAUSE-BELOW-TWO",
        "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE",
        "V8-PRESENCE-ABSENT-TURN-SKIPPED",
        "V8-PRESENCE-MAY-RETURN",
    ),
    check=_check_late_joiners,
    bindings=(LATE_JOINERS,),
    weakenings=(
        Weakening(
            "V8-DEAL-SEVEN-ROUNDS",
            "a seat is free whether or not the next deal can deal every player a hand",
        ),
        Weakening(
            "V8-PRESENCE-PAUSE-BELOW-TWO",
            "a late joiner steps in or stays out while play pauses",
        ),
        Weakening(
            "V8-PRESENCE-ABSENT-TURN-SKIPPED",
            "the turn stays with the absent spelförare when someone else comes back",
        ),
    ),
)


THEOREMS: tuple[Theorem, ...] = (
    LEGAL_GOING_OUT,
    LEGAL_ENDING,
    OFFICIAL_NEEDS_THREE,
    COFFEE_BREAK_ENDS,
    FREE_TIME_ENDLESS,
    LATE_JOINERS_AND_RETURNS,
)


# --- scenarios --------------------------------------------------------------------------------

RANK_OF = {"ace": 14, "eight": 8}


def _going_out_scenario(rulebook: str, rules: Rules) -> Callable[[Solver], Situation]:
    """A play by the spelförare, allowed as tried or ruled as a mistake; facts about whether it
    ends the deal with him the winner, the rank of his last card, his call. Each guard of the
    engine's judgement is asserted under the clause it rests on."""

    def build(solver: Solver) -> Situation:
        v = PlayVars.fresh("scene")
        last_rank = Int.var("scene.last_rank")
        solver.add(v.shape(rules))
        solver.add(last_rank.between(2, 14))
        solver.add(v.last_ace.eq(last_rank.eq(14)))
        solver.add(v.last_eight.eq(last_rank.eq(8)))
        computed = guards(v, rules, frozenset())
        named = Guards(
            goes_out=Bool.var("scene.goes_out"),
            barred=Bool.var("scene.barred"),
            stands=Bool.var("scene.stands"),
            eight_passes=Bool.var("scene.eight_passes"),
            emptied=Bool.var("scene.emptied"),
        )
        for field, clause in GUARD_CLAUSES[rulebook].items():
            solver.add(getattr(named, field).eq(getattr(computed, field)), clause=clause)
        result = going_out(v, rules, frozenset(), named)
        facts = (
            Fact(
                "goes-out",
                "the play is allowed as tried and lays the last cards he holds",
                result.legal & result.goes_out,
            ),
            Fact("wins", "the play ends the deal with the player the winner", result.wins),
            Fact("allowed", "the play is allowed as tried", result.legal),
            Fact("last-rank", "rank of the last card laid (ace 14, eight 8)", last_rank),
            Fact("first-eight", "the play begins with an eight", v.first_eight),
            Fact("cards-laid", "cards laid in the play", v.k),
            Fact("hand", "cards in his hand before the play", v.hand),
            Fact("penalty-cards", "face-down penalty cards before the play", v.pen),
            Fact("call-stands", "his going-out call from his previous turn stands", v.called),
            Fact("calls-now", "he calls with this play", v.say),
        )

        def render(model: Model) -> str:
            return (
                f"P1 holds {model.int(v.hand)} in hand and {model.int(v.pen)} face down, call "
                f"stands {model.bool(v.called)}, lays {model.int(v.k)} card(s) ending on rank "
                f"{model.int(last_rank)}; allowed {model.bool(result.legal)}; wins "
                f"{model.bool(result.wins)}"
            )

        return Situation(facts=facts, render=render)

    return build


def _official_scenario(solver: Solver) -> Situation:
    """A vvv8 going out: seats, who is away, who is outside the deal, active players at the
    start; the official result and the loser as the engine decides them."""
    seats = 5
    rules = VVV8_RULES
    players = Int.var("official.players")
    away = [Bool.var(f"official.away{s}") for s in range(seats)]
    benched = [Bool.var(f"official.benched{s}") for s in range(seats)]
    out = [Bool.var(f"official.out{s}") for s in range(seats)]
    winner = Int.var("official.winner")
    at_start = Int.var("official.at_start")
    solver.add(players.between(2, seats))
    for s in range(seats):
        solver.add(~out[s])
        solver.add(implies(players <= s, benched[s] & ~away[s]))
    solver.add(winner.between(0, seats - 1) & (winner < players))
    solver.add(~seat_at(away, winner) & ~seat_at(benched, winner))
    solver.add(at_start.between(0, players))
    verdict = official_result(
        seats, away, benched, out, winner=winner, at_start=at_start, rules=rules, weaken=frozenset()
    )
    active = Int.var("official.active")
    official = Bool.var("official.official")
    recorded = Bool.var("official.recorded")
    loser = Int.var("official.loser")
    solver.add(active.eq(verdict.active), clause="V8-PRESENCE-ABSENT-NOT-ACTIVE")
    solver.add(
        official.eq((at_start >= rules.min_active) & (active >= rules.min_active)),
        clause="V8-LOSS-OFFICIAL-NEEDS-THREE",
    )
    solver.add(loser.eq(verdict.loser), clause="V8-LOSS-PLAYER-BEFORE-WINNER")
    solver.add(
        recorded.eq(official & Bool.const(not rules.slagpase) & loser.ne(-1)),
        clause="V8-SCORING-WIN-LOSS-TALLY",
    )
    facts = (
        Fact("official", "the result is official (a winner and a loser named)", official),
        Fact("recorded", "a win and a loss are recorded", recorded),
        Fact("players", "players seated", players),
        Fact("active-players", "players active at the going out", active),
        Fact("active-at-start", "players active when the deal began", at_start),
        Fact("away", "players away at the going out", sum_of(away)),
        Fact("winner", "the winner's seat (0 first)", winner),
        Fact("loser", "the loser's seat (-1 none)", loser),
    )

    def render(model: Model) -> str:
        return (
            f"{model.int(players)} seated, {model.int(active)} active now, "
            f"{model.int(at_start)} at the start; winner seat {model.int(winner)}, loser seat "
            f"{model.int(loser)}; official {model.bool(official)}"
        )

    return Situation(facts=facts, render=render)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        name="going-out",
        rulebook="vvv8",
        description=(
            "The spelförare lays cards that would leave him holding nothing; the play is "
            "allowed as tried or ruled as a failed going out."
        ),
        build=_going_out_scenario("vvv8", VVV8_RULES),
        constants=RANK_OF,
    ),
    Scenario(
        name="going-out",
        rulebook="vandatta",
        description=(
            "The player lays cards that would leave him holding nothing; vandatta needs no "
            "call under the register default, and refuses every mistake."
        ),
        build=_going_out_scenario("vandatta", VANDATTA_RULES),
        constants=RANK_OF,
    ),
    Scenario(
        name="official-result",
        rulebook="vvv8",
        description=(
            "A vvv8 deal is won with up to five seats taken; some players may be away or "
            "outside the deal."
        ),
        build=_official_scenario,
    ),
)
