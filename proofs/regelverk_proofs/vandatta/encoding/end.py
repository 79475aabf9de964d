"""Z3 encodings of how a Vändåtta deal ends, as the engine computes it (``vvv8``, ``vandatta``).

Four encodings, each at the granularity its theorem needs:

* :func:`going_out`: one play by the spelförare, in counts (cards in hand, face-down penalty
  cards, cards laid), the rank class of the first and last card, the standing call and the call
  said with the play; the engine's guard (``_going_out_error``), its effect (``_play``, ``_out``)
  and vvv8's ruling on a failed going out (``attempts._failed_out``). The bookkeeping of utgång
  calls between turns is :func:`end_own_turn` and :func:`skip_absent`.
* :func:`official_result`: the loser and whether the result is official (``scoring.loser_of``,
  ``scoring.tally``), seat by seat for a fixed number of seats; :func:`next_dealer`, who deals
  the next deal (``scoring.next_dealer``).
* :func:`deal_scores`: vandatta's points at the end of a deal and the end of the match
  (``scoring.score_points``), for a fixed number of seats, in cards counted by points class;
  :func:`cheapest_hand`, the winner of a blocked deal under blocked_deal = fewest-points-wins
  (``scoring.cheapest_hand``).
* :class:`Heap` and the ``*_step`` functions: a vvv8 deal in counts (stock, pile, cards held,
  talon passes, draws, idle passes …) and every transition the engine has during play, for the
  ranking function of the coffee break.

The constants are read from spec/ (the points table, the talon passes that draw a deal:
:mod:`regelverk_proofs.vandatta.text`, which the binding vandatta.text-tables compares with the
engine) and the option values from the preset, never from the engine's rule functions; the
theorems in :mod:`regelverk_proofs.vandatta.theorems.end` state their properties in the rulebook's
terms.

The ``*_inputs`` functions read the same quantities off engine states, for the differential
tests that tie the encodings to the running engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.vandatta.options import (
    MOST_PLAYERS_ADDING_DECKS,
    AbsentTurn,
    AceAgainDraws,
    AceBatchDraws,
    AfterEight,
    BelowTwoActive,
    BlockedDeal,
    DealerWithoutLoser,
    EmptyStock,
    EndlessDeal,
    FailedOutCard,
    GoOutOn,
    GoOutWithoutLappen,
    LastHandCardLocked,
    LateJoinerSecondDeck,
    LoserRule,
    MaxPlayersFreeTime,
    NextDealer,
    NobodyAlone,
    OutBelowThree,
    OutWithoutCall,
    OverLimit,
    Penalties,
    PenaltyCardsUsable,
    PlayAfterThirdDraw,
    RebuildReference,
    Session,
    TalonEmptyMidDraw,
    TalonPassCount,
    VandattaOptions,
)
from regelverk_proofs.vandatta.text import (
    WINNER_POINTS,
    deck_count,
    drawn_deal_passes,
    rank_points,
)
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Solver,
    Verdict,
    all_of,
    any_of,
    false,
    implies,
    ite,
    ite_bool,
    sum_of,
    true,
)

__all__ = [
    "CLASSES",
    "GUARD_CLAUSES",
    "GoingOut",
    "Guards",
    "Heap",
    "PlayVars",
    "Rules",
    "Scores",
    "Seats",
    "ace_play_step",
    "around",
    "cheapest_hand",
    "class_points",
    "deal_blocked",
    "deal_scores",
    "decide",
    "draw_one",
    "draw_step",
    "draws_summary",
    "end_own_turn",
    "going_out",
    "guards",
    "heap_invariant",
    "lex_less",
    "next_dealer",
    "official_result",
    "pass_step",
    "penalty_step",
    "plain_play_step",
    "ranking",
    "seat_at",
    "seat_free",
    "skip_absent",
    "step_in_allowed",
    "talon_limit",
    "turn_after_return",
]

# --- reading values back ----------------------------------------------------------------------


def decide(
    facts: Sequence[Bool],
    fixed: Mapping[str, tuple[Int | Bool, int | bool]],
    wanted: Sequence[Int | Bool],
) -> tuple[int | bool, ...] | None:
    """Fix the named unknowns to the given values, assert ``facts`` and read ``wanted`` back
    (``None`` if the facts do not hold for those values)."""
    with Solver.scratch(timeout_ms=10_000) as solver:
        for fact in facts:
            solver.add(fact)
        for term, value in fixed.values():
            if isinstance(term, Bool):
                solver.add(term.eq(bool(value)))
            else:
                solver.add(term.eq(int(value)))
        if solver.check() is not Verdict.SAT:
            return None
        model = solver.model()
        return tuple(model.bool(t) if isinstance(t, Bool) else model.int(t) for t in wanted)


# --- rules read from the options --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """The option values the end-of-deal encodings depend on, read from a preset."""

    call_required: bool
    """go_out_without_lappen = lappen-required (vvv8's utgång, V8-CALL-REQUIRED-TO-WIN)."""
    not_out_three: bool
    """out_without_call = not-out-three-cards: a going out without a call is a failed going
    out, ruled like one on an ace or an eight (V8-WIN-NO-CALL-NOT-OUT)."""
    brott: bool
    """Mistakes are ruled with penalties (vvv8's Brott och straff)."""
    usable_at_once: bool
    """penalty_cards_usable = at-next-turn-start: a spelförare's penalty cards go to his hand."""
    card_returns: bool
    """failed_out_card = card-returns: the ace or eight of a failed going out goes back to the
    hand instead of staying laid (V8-AMB-FAILED-OUT-CARD)."""
    emptying_is_going_out: bool
    """last_hand_card_locked = treated-as-going-out: emptying the hand while face-down cards are
    held is a going out attempt, so an ace or an eight as its last card is a failed going out
    (V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS)."""
    eight_passes_turn: bool
    """after_eight = turn-passes (V8-EIGHT-ENDS-TURN)."""
    held_back: bool
    """out_below_three = held-back (V8-AMB-OUT-BELOW-THREE): nobody may go out while too few
    are active in a deal that began with enough."""
    penalty_cards: int
    """Cards of the standard penalty (V8-PEN-STANDARD-THREE-CARDS)."""
    max_draws: int
    """Draws a turn (V8-DRAW-MAX-THREE)."""
    third_draw_ends_turn: bool
    """play_after_third_draw = third-draw-ends-turn."""
    fresh_draws_after_ace: bool
    """ace_again_draws = fresh-three."""
    per_ace: bool
    """ace_batch_draws = per-ace."""
    rebuild: bool
    """A new talon is made from the pile when the talon runs out."""
    coffee_limit: bool
    """Deals are drawn after talon passes (talon_pass_limit in a coffee break, or anywhere under
    endless_deal = drawn-after-passes, VA-AMB-ENDLESS-DEAL)."""
    rebuild_mid_draw: bool
    """talon_empty_mid_draw = rebuild-and-continue: a draw that is not the spelförare's own
    rebuilds an empty talon too (V8-AMB-TALON-EXHAUSTED-MIDDRAW)."""
    blocked_ends: bool
    """A deal in which every active player has passed in turn without drawing ends (every
    reading of blocked_deal but vvv8's play-on, V8-AMB-BLOCKED-DEAL)."""
    eliminated: bool
    """over_limit = eliminated: players at the limit drop out (VA-AMB-OVER-100); under play-on
    they play on and can no longer win."""
    replay: bool
    """nobody_alone = replay-deal (VA-AMB-NOBODY-UNDER-100): with nobody left below the limit
    the deal is cancelled and replayed among those below it before."""
    fresh_start: bool
    """rebuild_reference = fresh-start-card (V8-AMB-REBUILD-REFERENCE-STATUS): a rebuild may
    bring start-ace draws or a dealer's new suit within a draw (not in the heap's steps)."""
    rebuilds_only: bool
    """talon_pass_count = rebuilds: the original talon does not count."""
    min_active: int
    """Active players an official result needs (V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    loser_rule: LoserRule
    """Who loses a deal (V8-AMB-LOSER-WHO-IS-BEFORE): the nearest present seat before the
    winner, the last spelförare before the winning turn, or nobody (vandatta)."""
    slagpase: bool
    """Nothing is recorded (V8-SCORING-NO-POINTS-SLAGPASE)."""
    score_limit: int
    """vandatta's points limit (VA-SCORING-GAME-WINNER)."""
    drawn_after: tuple[int, int]
    """The talon passes that draw a coffee-break deal with one deck and with two, as the
    clauses give them (V8-TALON-DRAWN-ONE-DECK, -TWO-DECKS; regelverk_proofs.vandatta.text)."""
    void_counted: bool
    """blocked_deal = count-hands: a deal nobody can finish scores every hand
    (VA-AMB-BLOCKED-DEAL); the default declares it void and scores nothing."""
    next_dealer: NextDealer
    """Who deals the next deal (VA-AMB-NEXT-DEALER, V8-SESSION-LOSER-DEALS-NEXT)."""
    new_draw: bool
    """dealer_without_loser = new-draw (V8-AMB-DEALER-AFTER-NO-LOSER): where the loser would
    deal but the deal has no official loser, a fresh draw for the deal decides."""

    @classmethod
    def of(cls, options: VandattaOptions) -> Rules:
        """The rules of a preset; readings the encodings do not cover raise ``ValueError``."""
        if options.go_out_on is not GoOutOn.WITH:
            raise ValueError("the encoding covers go_out_on = with only")
        return cls(
            call_required=options.go_out_without_lappen is GoOutWithoutLappen.LAPPEN_REQUIRED,
            not_out_three=options.out_without_call is OutWithoutCall.NOT_OUT_THREE_CARDS,
            brott=options.penalties is Penalties.BROTT_OCH_STRAFF,
            usable_at_once=options.penalty_cards_usable is PenaltyCardsUsable.AT_NEXT_TURN_START,
            card_returns=options.failed_out_card is FailedOutCard.CARD_RETURNS,
            emptying_is_going_out=(
                options.last_hand_card_locked is LastHandCardLocked.TREATED_AS_GOING_OUT
            ),
            eight_passes_turn=options.after_eight is AfterEight.TURN_PASSES,
            held_back=options.out_below_three is OutBelowThree.HELD_BACK,
            penalty_cards=options.penalty_cards,
            max_draws=options.max_draws,
            third_draw_ends_turn=(
                options.play_after_third_draw is PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
            ),
            fresh_draws_after_ace=options.ace_again_draws is AceAgainDraws.FRESH_THREE,
            per_ace=options.ace_batch_draws is AceBatchDraws.PER_ACE,
            rebuild=options.empty_stock is not EmptyStock.NO_REBUILD,
            coffee_limit=(options.talon_pass_limit and options.session is Session.COFFEE_BREAK)
            or options.endless_deal is EndlessDeal.DRAWN_AFTER_PASSES,
            rebuild_mid_draw=options.talon_empty_mid_draw is TalonEmptyMidDraw.REBUILD_AND_CONTINUE,
            blocked_ends=options.blocked_deal is not BlockedDeal.PLAY_ON,
            eliminated=options.over_limit is OverLimit.ELIMINATED,
            replay=options.nobody_alone is NobodyAlone.REPLAY_DEAL,
            fresh_start=options.rebuild_reference is RebuildReference.FRESH_START_CARD,
            rebuilds_only=options.talon_pass_count is TalonPassCount.REBUILDS,
            min_active=options.min_active_for_result,
            loser_rule=options.loser_rule,
            slagpase=options.slagpase,
            score_limit=options.score_limit,
            void_counted=options.blocked_deal is BlockedDeal.COUNT_HANDS,
            next_dealer=options.next_dealer,
            new_draw=options.dealer_without_loser is DealerWithoutLoser.NEW_DRAW,
            drawn_after=(drawn_deal_passes(options, 1), drawn_deal_passes(options, 2)),
        )


def talon_limit(rules: Rules, decks: int) -> int:
    """The talon passes that draw a coffee-break deal (V8-TALON-DRAWN-ONE-DECK, -TWO-DECKS), as
    ``count_pass`` computes them (from the clauses, regelverk_proofs.vandatta.text)."""
    return rules.drawn_after[0 if decks == 1 else 1]


# --- going out --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayVars:
    """One play by the spelförare, in counts and rank classes."""

    hand: Int
    pen: Int
    """Face-down penalty cards."""
    sets: Bool
    """Whether his penalty zone holds any set (possibly of no cards: a penalty that found no
    card to draw leaves an empty set)."""
    k: Int
    first_eight: Bool
    last_ace: Bool
    last_eight: Bool
    any_ace: Bool
    fits: Bool
    """The cards fit (first card and each further card): card-level legality, decided by the
    engine's matching rules, an input here."""
    called: Bool
    """His going-out call stands (seat in ``calls``)."""
    say: Bool
    """He calls with this play."""
    chance: Bool
    """The call would pass the real-chance test (or LAPPEN is due)."""
    avail: Int
    """Cards the penalty draw of a failed going out can find as he hands the turn on, the play
    laid (at most the penalty's size)."""
    owes: Bool
    """He failed to go out earlier this turn and owes its extra cards, to be taken as he hands
    the turn on (an owed set in his penalty zone): he cannot go out again this turn."""
    short: Bool
    """Fewer players are active than an official result needs, in a deal that began with
    enough (V8-LOSS-OFFICIAL-NEEDS-THREE): under out_below_three = held-back nobody may go
    out (V8-WIN-OUT-BELOW-THREE-ENDS-DEAL)."""

    @classmethod
    def fresh(cls, tag: str) -> PlayVars:
        """Fresh unknowns named after ``tag``."""
        return cls(
            hand=Int.var(f"{tag}.hand"),
            pen=Int.var(f"{tag}.pen"),
            sets=Bool.var(f"{tag}.sets"),
            k=Int.var(f"{tag}.k"),
            first_eight=Bool.var(f"{tag}.first_eight"),
            last_ace=Bool.var(f"{tag}.last_ace"),
            last_eight=Bool.var(f"{tag}.last_eight"),
            any_ace=Bool.var(f"{tag}.any_ace"),
            fits=Bool.var(f"{tag}.fits"),
            called=Bool.var(f"{tag}.called"),
            say=Bool.var(f"{tag}.say"),
            chance=Bool.var(f"{tag}.chance"),
            avail=Int.var(f"{tag}.avail"),
            owes=Bool.var(f"{tag}.owes"),
            short=Bool.var(f"{tag}.short"),
        )

    def shape(self, rules: Rules) -> Bool:
        """What every play looks like: counts in range, a single eight is both first and last
        card, an eight never goes with other cards in a play that fits, an ace last is an ace
        laid."""
        one = self.k.eq(1)
        return all_of(
            [
                self.hand >= 0,
                self.pen >= 0,
                implies(self.pen > 0, self.sets),
                implies(self.owes, self.sets & Bool.const(rules.brott)),
                self.k >= 1,
                self.k <= self.hand,
                ~(self.last_ace & self.last_eight),
                implies(self.last_ace, self.any_ace),
                implies(one, self.first_eight.eq(self.last_eight)),
                implies(one & self.first_eight, ~self.any_ace),
                implies(self.fits & ~one, ~self.first_eight & ~self.last_eight),
                self.avail.between(0, rules.penalty_cards),
            ]
        )

    def fixed(self, values: Mapping[str, int | bool]) -> dict[str, tuple[Int | Bool, int | bool]]:
        """The unknowns paired with engine values, by field name."""
        return {name: (getattr(self, name), value) for name, value in values.items()}


@dataclass(frozen=True, slots=True)
class GoingOut:
    """What the engine makes of a play: allowed as tried, whether it wins the deal, and what the
    player holds afterwards (hand, face-down)."""

    goes_out: Bool
    legal: Bool
    wins: Bool
    failed_out: Bool
    hand_after: Int
    pen_after: Int


@dataclass(frozen=True, slots=True)
class Guards:
    """The parts of the engine's judgement of a going out, each resting on one clause."""

    goes_out: Bool
    """Laying the cards leaves nothing held, face-down penalty cards counted
    (V8-PEN-CARDS-COUNT-AS-HELD, VA-WIN-FIRST-EMPTY-HAND), and he owes no extra cards for a
    failed going out this turn (V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT)."""
    barred: Bool
    """The last card is an ace or an eight (V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT,
    VA-WIN-NOT-ON-ACE-OR-EIGHT)."""
    stands: Bool
    """The call that going out needs stands (V8-CALL-REQUIRED-TO-WIN; vandatta's default needs
    none, VA-WIN-FIRST-EMPTY-HAND)."""
    eight_passes: Bool
    """The play begins with an eight, which passes the turn (V8-EIGHT-ENDS-TURN) or restarts it
    on the named suit (VA-EIGHT-SAME-PLAYER-RESTARTS): no going out on it."""
    emptied: Bool
    """Nothing is left in hand nor in the penalty zone once the cards are laid
    (V8-WIN-FIRST-OUT-WINS, VA-WIN-FIRST-EMPTY-HAND)."""


GUARD_CLAUSES = {
    "vvv8": {
        "goes_out": "V8-PEN-CARDS-COUNT-AS-HELD",
        "barred": "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
        "stands": "V8-CALL-REQUIRED-TO-WIN",
        "eight_passes": "V8-EIGHT-ENDS-TURN",
        "emptied": "V8-WIN-FIRST-OUT-WINS",
    },
    "vandatta": {
        "goes_out": "VA-WIN-FIRST-EMPTY-HAND",
        "barred": "VA-WIN-NOT-ON-ACE-OR-EIGHT",
        "stands": "VA-WIN-FIRST-EMPTY-HAND",
        "eight_passes": "VA-EIGHT-SAME-PLAYER-RESTARTS",
        "emptied": "VA-WIN-FIRST-EMPTY-HAND",
    },
}
"""The clause each guard rests on, per rulebook."""


def guards(v: PlayVars, rules: Rules, weaken: frozenset[str]) -> Guards:
    """The engine's guards (``goes_out``, ``last_card_barred``, ``call_stands``, the eight's
    branch of ``_play``, ``_play``'s test for an empty holding), weakened as asked."""
    counted = "V8-PEN-CARDS-COUNT-AS-HELD" in weaken
    barred = (
        false()
        if {"V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "VA-WIN-NOT-ON-ACE-OR-EIGHT"} & weaken
        else v.last_ace | v.last_eight
    )
    retry = "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT" in weaken
    held = v.hand.eq(v.k) if counted else (v.hand + v.pen).eq(v.k)
    return Guards(
        goes_out=held if retry else held & ~v.owes,
        barred=barred,
        stands=(
            v.called if rules.call_required and "V8-CALL-REQUIRED-TO-WIN" not in weaken else true()
        ),
        eight_passes=false() if "V8-EIGHT-ENDS-TURN" in weaken else v.first_eight,
        emptied=(v.hand - v.k).eq(0) if counted else (v.hand - v.k).eq(0) & ~v.sets,
    )


def going_out(
    v: PlayVars, rules: Rules, weaken: frozenset[str], given: Guards | None = None
) -> GoingOut:
    """The engine's guard on a play that would empty the player's holding, its effect, and (vvv8)
    the ruling on a failed going out (``_going_out_error``, ``_play``, ``_out``,
    ``attempts._failed_out``): a going out must not end on an ace or an eight, needs a standing
    call (vvv8), and says no call of its own (V8-CALL-TIMING); the player wins if, the cards
    laid, he holds nothing, unless the play began with an eight; a failed going out (vvv8) owes
    the standard penalty, taken only as he hands the turn on (V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE),
    so for now his penalty zone holds a set with no cards, and the play stands. ``given``
    replaces the guards (a scenario ties them to its clauses)."""
    g = given if given is not None else guards(v, rules, weaken)
    ends_turn = ite_bool(v.first_eight, Bool.const(rules.eight_passes_turn), ~v.any_ace)
    # last_hand_card_locked = treated-as-going-out: the hand emptied with face-down cards held
    emptying = (
        Bool.const(rules.emptying_is_going_out) & ~g.goes_out & v.hand.eq(v.k) & g.barred & ~v.owes
    )
    # out_below_three = held-back: a going out waits while too few are active
    waits = v.short & Bool.const(
        rules.held_back and "V8-WIN-OUT-BELOW-THREE-ENDS-DEAL" not in weaken
    )
    legal = all_of(
        [
            v.fits,
            implies(g.goes_out, ~g.barred & g.stands & ~v.say & ~waits),
            ~emptying,
            implies(v.say & ~g.goes_out, ends_turn & v.chance),
        ]
    )
    wins_legal = legal & ~g.eight_passes & g.emptied
    failed = all_of(
        [
            Bool.const(rules.brott),
            v.fits,
            ~legal,
            (g.goes_out & (g.barred | (~g.stands & Bool.const(rules.not_out_three)))) | emptying,
        ]
    )
    counted = "V8-PEN-CARDS-COUNT-AS-HELD" in weaken
    # failed_out_card = card-returns: an ace or an eight of a failed going out is not laid
    kept = ite(Bool.const(rules.card_returns) & g.barred, v.hand, v.hand - v.k)
    # The extra cards are owed until he hands the turn on: an owed set (no cards) stands in his
    # penalty zone meanwhile, which keeps the emptied hand from counting as a going out. If the
    # play itself ends his turn (it is laid, and it is no ace, or an eight that passes the
    # turn), he takes them within the ruling: what the talon can serve then (``avail``).
    owes = "V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE" not in weaken
    handed_on = ~(Bool.const(rules.card_returns) & g.barred) & ends_turn
    hand2 = ite(handed_on, kept + v.avail, kept)
    sets2, pen2 = Bool.const(owes) | v.sets, v.pen
    emptied2 = hand2.eq(0) if counted else hand2.eq(0) & ~sets2
    wins_failed = failed & ~g.eight_passes & emptied2
    return GoingOut(
        goes_out=g.goes_out,
        legal=legal,
        wins=wins_legal | wins_failed,
        failed_out=failed,
        hand_after=ite(legal, v.hand - v.k, ite(failed, hand2, v.hand)),
        pen_after=ite(legal, v.pen, ite(failed, pen2, v.pen)),
    )


def end_own_turn(called: Bool, say: Bool, weaken: frozenset[str]) -> Bool:
    """The standing call after the caller's own turn ends (``_utgang_calls``): a call is used up
    with the turn it was made for, and a new one holds for the next turn only
    (V8-CALL-VALID-NEXT-TURN-ONLY)."""
    if "V8-CALL-VALID-NEXT-TURN-ONLY" in weaken:
        return called | say
    return say


def skip_absent(called: Bool, weaken: frozenset[str]) -> Bool:
    """The standing call of a caller whose turn is passed over while he is away
    (``_skip_absent``, V8-CALL-FORFEITED-IF-ABSENT)."""
    return called if "V8-CALL-FORFEITED-IF-ABSENT" in weaken else false()


# --- the official result (vvv8) ---------------------------------------------------------------


def around(seat: Int, step: int, seats: int) -> Int:
    """The seat ``step`` places clockwise from ``seat`` (negative: counter-clockwise), for a
    seat in range and ``abs(step) < seats``."""
    moved = seat + step
    if step < 0:
        return ite(moved < 0, moved + seats, moved)
    return ite(moved >= seats, moved - seats, moved)


def seat_at(values: Sequence[Bool], index: Int) -> Bool:
    """``values[index]`` for a symbolic index."""
    return any_of(index.eq(j) & value for j, value in enumerate(values))


@dataclass(frozen=True, slots=True)
class Official:
    """The engine's verdict at a going out: active players now, official or not, recorded or not,
    and the loser (-1: none)."""

    active: Int
    official: Bool
    recorded: Bool
    loser: Int


def official_result(
    seats: int,
    away: Sequence[Bool],
    benched: Sequence[Bool],
    out: Sequence[Bool],
    *,
    winner: Int | int,
    at_start: Int,
    rules: Rules,
    weaken: frozenset[str],
    previous: Int | None = None,
) -> Official:
    """``loser_of`` and ``tally`` for ``seats`` seats: official with at least ``min_active``
    active players when the deal began and now (V8-LOSS-OFFICIAL-NEEDS-THREE), and no slagpåse.
    The loser, by ``rules.loser_rule`` (V8-AMB-LOSER-WHO-IS-BEFORE): the nearest seat
    counter-clockwise from the winner that is neither away, out of the match, nor outside the
    deal (seat-before); under last-turn-before the last spelförare before the winning turn
    (``previous``, -1 for none) when he is someone other than the winner and such a seat,
    otherwise the seat-before loser; under none nobody. A deal with no loser records nothing."""
    present = [
        (~a if "V8-PRESENCE-ABSENT-NOT-ACTIVE" not in weaken else true()) & ~b & ~o
        for a, b, o in zip(away, benched, out, strict=True)
    ]
    eligible = [
        (~a if "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER" not in weaken else true()) & ~b & ~o
        for a, b, o in zip(away, benched, out, strict=True)
    ]
    active = sum_of(present)
    need = 2 if "V8-LOSS-OFFICIAL-NEEDS-THREE" in weaken else rules.min_active
    official = (at_start >= need) & (active >= need)
    direction = 1 if "V8-LOSS-PLAYER-BEFORE-WINNER" in weaken else -1
    loser: Int = Int.const(-1)
    for step in range(seats - 1, 0, -1):
        if isinstance(winner, int):
            fixed = (winner + direction * step) % seats
            loser = ite(eligible[fixed], fixed, loser)
        else:
            seat = around(winner, direction * step, seats)
            loser = ite(seat_at(eligible, seat), seat, loser)
    match rules.loser_rule:
        case LoserRule.SEAT_BEFORE:
            pass
        case LoserRule.LAST_TURN_BEFORE:
            last = Int.const(-1) if previous is None else previous
            for s in range(seats):
                other = Bool.const(s != winner) if isinstance(winner, int) else winner.ne(s)
                loser = ite(last.eq(s) & other & eligible[s], s, loser)
        case LoserRule.NONE:
            loser = Int.const(-1)
        case _:
            assert_never(rules.loser_rule)
    recorded = official & Bool.const(not rules.slagpase) & loser.ne(-1)
    return Official(active=active, official=official, recorded=recorded, loser=loser)


def next_dealer(
    seats: int,
    out: Sequence[Bool],
    *,
    dealer: Int,
    winner: Int,
    loser: Int,
    official: Bool,
    rules: Rules,
) -> Int:
    """``scoring.next_dealer`` for ``seats`` seats, after a deal that did not end the match: the
    seat that deals next, -1 for a fresh draw for the deal. ``out`` is who is out of the match
    after the deal's scores, ``winner`` and ``loser`` are -1 for none, ``official`` whether the
    deal had enough active players for an official result (V8-LOSS-OFFICIAL-NEEDS-THREE).

    After a deal without a winner the same dealer deals again (V8-SESSION-DEALER-WITHOUT-LOSER,
    VA-WIN-BLOCKED-DEAL-VOID); otherwise the loser (loser-deals, V8-SESSION-LOSER-DEALS-NEXT),
    the winner (winner-deals) or nobody in particular (rotate-left, VA-SESSION-NEXT-DEALER).
    Nobody chosen, or a choice out of the match, passes the deal to the first player on the
    dealer's left still in the match, the dealer himself last. Under dealer_without_loser =
    new-draw a deal that the loser would deal but that has no official loser (no winner, no
    loser, or too few active players at its start or its end) ends in a fresh draw.

    Under loser-deals with card points and no single loser (vandatta's loser_rule = none) the
    engine's loser is the player who scored most: not encoded here, ``loser`` is its input."""
    fallback: Int = Int.const(-1)
    for step in range(seats, 0, -1):
        seat = dealer if step == seats else around(dealer, step, seats)
        fallback = ite(~seat_at(out, seat), seat, fallback)
    nobody = winner.eq(-1)
    choice: Int
    match rules.next_dealer:
        case NextDealer.LOSER_DEALS:
            choice = ite(nobody, dealer, loser)
        case NextDealer.WINNER_DEALS:
            choice = ite(nobody, dealer, winner)
        case NextDealer.ROTATE_LEFT:
            choice = ite(nobody, dealer, Int.const(-1))
        case _:
            assert_never(rules.next_dealer)
    chosen = ite(choice.eq(-1) | seat_at(out, choice), fallback, choice)
    if rules.next_dealer is NextDealer.LOSER_DEALS and rules.new_draw:
        return ite(nobody | loser.eq(-1) | ~official, Int.const(-1), chosen)
    return chosen


# --- vandatta's points ------------------------------------------------------------------------

CLASSES: tuple[tuple[str, Rank], ...] = (
    ("tens", Rank.TEN),
    ("aces", Rank.ACE),
    ("courts", Rank.KING),
    ("eights", Rank.EIGHT),
    ("others", Rank.FIVE),
)
"""The points classes of a hand, each with a rank that stands for it."""

COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


def class_of(card: Card) -> str:
    """The points class of a card."""
    if card.rank in COURTS:
        return "courts"
    for name, rank in CLASSES:
        if card.rank is rank:
            return name
    return "others"


def class_points() -> dict[str, int]:
    """What one card of each class scores, by the scoring table's clauses (read from spec/,
    not from the engine's ``card_points``); each class's cards must all score alike, which is
    checked here."""
    found: dict[str, int] = {}
    for rank in Rank:
        card = Card(rank, Suit.HEARTS)
        value = rank_points(rank)
        name = class_of(card)
        if found.setdefault(name, value) != value:
            raise ValueError(f"the engine scores the {name} class unevenly")
    return found


@dataclass(frozen=True, slots=True)
class Scores:
    """Points after the deal, who is out of the match, whether it is over, its champions."""

    scored: tuple[Int, ...]
    points: tuple[Int, ...]
    out: tuple[Bool, ...]
    left: Int
    over: Bool
    champion: tuple[Bool, ...]


def deal_scores(
    points: Sequence[Int],
    out: Sequence[Bool],
    counts: Sequence[Mapping[str, Int]],
    *,
    winner: Int,
    counted: Bool,
    rules: Rules,
    weaken: frozenset[str],
) -> Scores:
    """``score_points`` for a deal that ends with ``winner`` (-1: none; ``counted`` says whether
    a deal without a winner is scored): every player of the deal but the winner scores his cards
    by the engine's table; those at the limit or over drop out (over_limit = eliminated) or play
    on unable to win (play-on); one left below it wins the match; none left gives it to the
    lowest total of those below it before the deal (nobody_alone = lowest-total), or cancels the
    deal, its points taken back and only those players kept in the match (replay-deal)."""
    values = class_points()
    if "VA-SCORING-EIGHT" in weaken:
        values["eights"] = values["others"]
    seats = range(len(points))
    scored = tuple(
        ite(
            counted & ~out[s] & winner.ne(s),
            sum_of([counts[s][name] * values[name] for name, _ in CLASSES]),
            ite(counted & ~out[s], WINNER_POINTS, 0),
        )
        for s in seats
    )
    after = tuple(points[s] + scored[s] for s in seats)
    limit = rules.score_limit
    reach = [
        (after[s] > limit) if "VA-SCORING-GAME-WINNER" in weaken else (after[s] >= limit)
        for s in seats
    ]
    drops = Bool.const(rules.eliminated)
    now_out = tuple(out[s] | (counted & drops & reach[s]) for s in seats)
    below = [~now_out[s] & ~reach[s] for s in seats]
    left = sum_of(below)
    contender = [~out[s] & (points[s] < limit) for s in seats]
    low = _minimum([ite(contender[s], after[s], 10**6) for s in seats])
    replayed = counted & left.eq(0) & Bool.const(rules.replay)
    champion = tuple(
        counted
        & ~replayed
        & ~out[s]
        & ((left.eq(1) & below[s]) | (left.eq(0) & contender[s] & after[s].eq(low)))
        for s in seats
    )
    over = counted & (left <= 1) & ~replayed
    final = tuple(ite(replayed, points[s], after[s]) for s in seats)
    final_out = tuple(ite_bool(replayed, ~contender[s], now_out[s]) for s in seats)
    return Scores(scored, final, final_out, left, over, champion)


def cheapest_hand(
    counts: Sequence[Mapping[str, Int]], taking_part: Sequence[bool], dealer: int
) -> tuple[Int, Int]:
    """``scoring.cheapest_hand`` (blocked_deal = fewest-points-wins, VA-AMB-BLOCKED-DEAL and
    V8-AMB-BLOCKED-DEAL): the seat, among those ``taking_part`` in the deal, whose cards (every
    card held, in hand and face down: V8-PEN-CARDS-COUNT-AS-HELD; ``counts`` by points class)
    are worth least by the points table, and that worth; equal worths go to the first of them
    in the order of play from the dealer's left, the dealer last."""
    values = class_points()
    seats = len(counts)
    worth = [sum_of([counts[s][name] * values[name] for name, _ in CLASSES]) for s in range(seats)]
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    order = [s for s in order if taking_part[s]]
    low = _minimum([worth[s] for s in order])
    seat: Int = Int.const(-1)
    for s in reversed(order):
        seat = ite(worth[s].eq(low), s, seat)
    return seat, low


def _minimum(terms: Sequence[Int]) -> Int:
    best = terms[0]
    for term in terms[1:]:
        best = ite(term < best, term, best)
    return best


# --- a vvv8 deal in counts, for the ranking ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heap:
    """A vvv8 deal in progress, in counts: the talon, the pile, every card held (hands and
    face-down), the talon passes, the spelförare's draws and restart, consecutive idle passes,
    players, players present, late joiners still to step in."""

    stock: Int
    pile: Int
    held: Int
    passes: Int
    draws: Int
    restart: Bool
    idle: Int
    players: Int
    active: Int
    joining: Int
    over: Bool
    """The step ended the deal (a drawn deal, a void deal, a going out)."""

    @classmethod
    def fresh(cls, tag: str) -> Heap:
        """Fresh unknowns named after ``tag``."""
        return cls(
            stock=Int.var(f"{tag}.stock"),
            pile=Int.var(f"{tag}.pile"),
            held=Int.var(f"{tag}.held"),
            passes=Int.var(f"{tag}.passes"),
            draws=Int.var(f"{tag}.draws"),
            restart=Bool.var(f"{tag}.restart"),
            idle=Int.var(f"{tag}.idle"),
            players=Int.var(f"{tag}.players"),
            active=Int.var(f"{tag}.active"),
            joining=Int.var(f"{tag}.joining"),
            over=false(),
        )

    def with_(self, **changes: Int | Bool) -> Heap:
        """A copy with some fields replaced."""
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        fields.update(changes)
        return Heap(**fields)

    def values(self) -> dict[str, Int | Bool]:
        """The fields by name."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class Deck:
    """What is fixed for a deal: cards in play, the seat cap, the talon limit."""

    total: int
    cap: int
    limit: int
    rules: Rules


BLOCKED_DEAL_VOID = frozenset({"V8-WIN-BLOCKED-DEAL-VOID", "VA-WIN-BLOCKED-DEAL-VOID"})
"""The model decision that voids a deal nobody can move (vvv8's and vandatta's statement of it):
weakening either drops it."""


def heap_invariant(h: Heap, deck: Deck, weaken: frozenset[str], one_deck: bool) -> Bool:
    """What holds in every state of a coffee-break deal in play: cards conserved (the card
    conservation theorem), fewer talon passes than the limit (V8-TALON-DRAWN-ONE-DECK or
    -TWO-DECKS, unless weakened), at most the cap of players (V8-SETUP-COFFEE-BREAK-MAX-FIVE),
    fewer consecutive idle passes than players (V8-WIN-BLOCKED-DEAL-VOID), draws within the
    allowance (V8-DRAW-MAX-THREE)."""
    limit_clause = "V8-TALON-DRAWN-ONE-DECK" if one_deck else "V8-TALON-DRAWN-TWO-DECKS"
    facts = [
        h.stock >= 0,
        h.pile >= 1,
        h.held >= 0,
        (h.stock + h.pile + h.held) <= deck.total,
        h.passes >= 0,
        h.draws.between(0, deck.rules.max_draws),
        h.idle >= 0,
        h.players >= 2,
        h.active.between(1, h.players),
        h.joining.between(0, h.players),
    ]
    if limit_clause not in weaken:
        facts.append(h.passes < deck.limit)
    if "V8-SETUP-COFFEE-BREAK-MAX-FIVE" not in weaken:
        facts.append(h.players <= deck.cap)
    if not weaken & BLOCKED_DEAL_VOID:
        facts.append(h.idle < h.players)
    return all_of(facts)


def ranking(h: Heap, deck: Deck) -> tuple[Int, ...]:
    """The ranking, compared lexicographically: talon passes left, free seats, late joiners yet
    to step in, the talon (an empty talon counts as a full deck: the next draw rebuilds it, and
    the pass it used up has already been counted), cards held, a restart after one's own ace,
    draws this turn, and players minus consecutive idle passes."""
    return (
        deck.limit - h.passes,
        deck.cap - h.players,
        h.joining,
        ite(h.stock > 0, h.stock, deck.total),
        h.held,
        ite(h.restart, 1, 0),
        h.draws,
        h.players - h.idle,
    )


def lex_less(after: Sequence[Int], before: Sequence[Int]) -> Bool:
    """``after`` is lexicographically below ``before``."""
    result = false()
    for index in range(len(after) - 1, -1, -1):
        result = (after[index] < before[index]) | (after[index].eq(before[index]) & result)
    return result


def draw_one(
    h: Heap, deck: Deck, weaken: frozenset[str], got: Int, *, own: bool = False
) -> tuple[Heap, Bool, Int]:
    """``talon.draw_one`` in counts: one card from the talon, rebuilding it from the pile below
    its top card if empty (V8-TALON-REBUILD-DURING-ANY-DRAW; a draw not ``own`` by the spelförare
    only under talon_empty_mid_draw = rebuild-and-continue); a talon that runs out counts a pass
    and in a coffee break the limit draws the deal. Returns the heap, whether a card came, and
    the running count of cards drawn."""
    rules = deck.rules
    rebuilds = rules.rebuild and (own or rules.rebuild_mid_draw)
    can = (h.stock > 0) | (Bool.const(rebuilds) & (h.pile > 1))
    stock_mid = ite(h.stock > 0, h.stock, h.pile - 1)
    pile_mid = ite(h.stock > 0, h.pile, 1)
    stock = ite(can, stock_mid - 1, h.stock)
    emptied = can & stock.eq(0)
    passes = ite(emptied, h.passes + 1, h.passes)
    limited = rules.coffee_limit
    drawn = Bool.const(limited) & (passes >= deck.limit) if limited else false()
    drawn = drawn if not _limit_dropped(deck, weaken) else false()
    after = h.with_(
        stock=stock,
        pile=ite(can, pile_mid, h.pile),
        held=ite(can, h.held + 1, h.held),
        passes=passes,
        over=h.over | drawn,
    )
    return after, can, got + ite(can, 1, 0)


def draws_summary(before: Heap, after: Heap, deck: Deck, *, at_least_one: bool) -> Bool:
    """What any run of :func:`draw_one` does, as the theorem uses it (each draw that finds a card
    lowers (talon passes left, talon) lexicographically and moves one card from the talon or
    the pile below its top into someone's holding, which the lemma case of the ranking theorem
    proves): no card drawn and nothing changed, or the pair strictly lower, the cards conserved,
    and the deal drawn once the passes reach the limit."""
    top = (deck.limit - after.passes, ite(after.stock > 0, after.stock, deck.total))
    low = (deck.limit - before.passes, ite(before.stock > 0, before.stock, deck.total))
    unchanged = all_of(
        [
            after.stock.eq(before.stock),
            after.pile.eq(before.pile),
            after.held.eq(before.held),
            after.passes.eq(before.passes),
        ]
    )
    moved = all_of(
        [
            lex_less(top, low),
            (after.stock + after.pile + after.held).eq(before.stock + before.pile + before.held),
            after.held > before.held,
            after.stock >= 0,
            after.pile >= 1,
            after.passes >= before.passes,
        ]
    )
    return moved if at_least_one else unchanged | moved


def _limit_dropped(deck: Deck, weaken: frozenset[str]) -> bool:
    one_deck = deck.total == len(french_deck(1))
    clause = "V8-TALON-DRAWN-ONE-DECK" if one_deck else "V8-TALON-DRAWN-TWO-DECKS"
    return clause in weaken


def deal_blocked(idle: Int, active: Int, weaken: frozenset[str]) -> Bool:
    """Whether a turn's end voids the deal (VA-WIN-BLOCKED-DEAL-VOID, V8-WIN-BLOCKED-DEAL-VOID):
    every active player has passed in a row without drawing. With nobody active (every player
    stepped away) nobody has passed: the deal waits for the first to come back."""
    if weaken & BLOCKED_DEAL_VOID:
        return false()
    return (idle >= active) & (active >= 1)


def _end_turn(h: Heap, weaken: frozenset[str]) -> Heap:
    """``_end_turn`` in counts: draws and restart reset; the deal is void once every active
    player has passed in a row without drawing (:func:`deal_blocked`)."""
    void = deal_blocked(h.idle, h.active, weaken)
    return h.with_(draws=Int.const(0), restart=false(), over=h.over | void)


def draw_step(h: Heap, deck: Deck, weaken: frozenset[str]) -> tuple[Bool, Heap]:
    """The spelförare draws (``_draw_error``, ``_draw``): allowed within the draw allowance when a
    card can be had; the idle count resets."""
    rules = deck.rules
    allowed = (h.draws < rules.max_draws) & (
        (h.stock > 0) | (Bool.const(rules.rebuild) & (h.pile > 1))
    )
    after, _, _ = draw_one(h, deck, weaken, Int.const(0), own=True)
    after = after.with_(draws=h.draws + 1, idle=Int.const(0))
    if rules.third_draw_ends_turn:
        ends = after.draws >= rules.max_draws
        ended = _end_turn(after, weaken)
        after = after.with_(
            draws=ite(ends, ended.draws, after.draws),
            restart=ite_bool(ends, ended.restart, after.restart),
        )
    return allowed, after


def pass_step(h: Heap, deck: Deck, weaken: frozenset[str]) -> tuple[Bool, Heap]:
    """The spelförare passes (``_may_pass``, ``_pass``): only with no draw left or none to be
    had (V8-TURN-PASS-AFTER-THREE-DRAWS); a pass without a draw and not after one's own ace
    counts as idle."""
    rules = deck.rules
    can_draw = (h.stock > 0) | (Bool.const(rules.rebuild) & (h.pile > 1))
    allowed = (h.draws >= rules.max_draws) | ~can_draw
    if "V8-TURN-PASS-AFTER-THREE-DRAWS" in weaken:
        allowed = true()
    idle = ite(h.draws.eq(0) & ~h.restart, h.idle + 1, h.idle)
    return allowed, _end_turn(h.with_(idle=idle), weaken)


def plain_play_step(
    h: Heap, deck: Deck, weaken: frozenset[str], k: Int, own: Int, *, eight: Bool, won: Bool
) -> tuple[Bool, Heap]:
    """A play of ``k`` cards without an ace by a spelförare holding ``own`` cards: the cards go
    on the pile and the turn passes (an eight passes it too, V8-EIGHT-ENDS-TURN); ``won`` (a
    going out, possible only when he lays all he holds) ends the deal."""
    allowed = all_of(
        [k >= 1, k <= own, own <= h.held, implies(eight, k.eq(1)), implies(won, k.eq(own))]
    )
    after = h.with_(held=h.held - k, pile=h.pile + k, idle=Int.const(0))
    ended = _end_turn(after, weaken)
    return allowed, ended.with_(over=ended.over | won)


def ace_play_step(
    h: Heap,
    deck: Deck,
    weaken: frozenset[str],
    *,
    k: Int,
    own: Int,
    aces: Int,
    others: Int,
    max_aces: int,
    max_others: int,
) -> tuple[Bool, Heap]:
    """A play of ``k`` cards with ``aces`` aces, not going out: every other player of the deal,
    absent ones too, draws one card per ace in turn (V8-ACE-OTHERS-DRAW-ONE,
    V8-ACE-ABSENT-ALSO-DRAWS; ``talon.ace_draws``), then the same player plays again on his ace
    (V8-ACE-SAME-PLAYER-AGAIN) with a fresh allowance of draws."""
    rules = deck.rules
    allowed = all_of(
        [
            k >= 1,
            k < own,
            own <= h.held,
            aces.between(1, k),
            aces <= max_aces,
            others.between(1, max_others),
            others <= h.players - 1,
        ]
    )
    cur = h.with_(held=h.held - k, pile=h.pile + k, idle=Int.const(0))
    got: Int = Int.const(0)
    rounds = max_aces if rules.per_ace else 1
    for round_ in range(rounds):
        going = Int.const(round_) < aces if rules.per_ace else true()
        for other in range(max_others):
            wanted = going & (Int.const(other) < others) & ~cur.over
            nxt, came, got2 = draw_one(cur, deck, weaken, got)
            cur = _choose(wanted, nxt, cur)
            got = ite(wanted, got2, got)
            going = going & ~(wanted & ~came) & ~(wanted & nxt.over)
    draws = Int.const(0) if rules.fresh_draws_after_ace else h.draws
    return allowed, cur.with_(restart=true(), draws=draws)


def _choose(condition: Bool, then: Heap, otherwise: Heap) -> Heap:
    fields: dict[str, Int | Bool] = {}
    for name, value in then.values().items():
        other = otherwise.values()[name]
        if isinstance(value, Bool) and isinstance(other, Bool):
            fields[name] = ite_bool(condition, value, other)
        elif isinstance(value, Int) and isinstance(other, Int):
            fields[name] = ite(condition, value, other)
    return Heap(**fields)  # type: ignore[arg-type]


def penalty_step(h: Heap, deck: Deck, weaken: frozenset[str], cards: int) -> tuple[Bool, Heap]:
    """A mistake's penalty that finds at least one card: up to ``cards`` cards drawn in turn from
    the talon (rebuilding it if need be) into the offender's penalty zone (``penalise``,
    ``_overdraw``, ``_extra_card``); the position is otherwise as before."""
    cur = h
    got: Int = Int.const(0)
    going = true()
    for _ in range(cards):
        nxt, came, got2 = draw_one(cur, deck, weaken, got)
        wanted = going & ~cur.over
        cur = _choose(wanted, nxt, cur)
        got = ite(wanted, got2, got)
        going = going & came
    return got >= 1, cur


# --- vvv8's late joiners ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seats:
    """What a late joiner's seat and his stepping in depend on, read from the options (the
    decks a table of each size uses from the clauses, :mod:`regelverk_proofs.vandatta.text`)."""

    most: int
    """The most players at the table: the coffee break's cap (V8-SETUP-COFFEE-BREAK-MAX-FIVE),
    the model's bound under max_players_free_time = add-decks, else the free-time limit."""
    add_deck: bool
    """late_joiner_second_deck = add-deck: the decks a larger table needs are added mid-deal
    (V8-AMB-LATE-JOINER-SECOND-DECK); refuse keeps the deal's decks."""
    hand_size: int
    """Cards a hand is dealt (V8-DEAL-SEVEN-ROUNDS)."""
    decks_for: tuple[int, ...]
    """The decks a table of each size uses, from 0 players up to one more than :attr:`most`."""
    pause: bool
    """below_two_active = pause: play pauses while fewer than two players are active
    (V8-PRESENCE-PAUSE-BELOW-TWO)."""
    skip: bool
    """absent_turn = skip: an absent player's turn passes over him (V8-AMB-ABSENT-PLAYER-TURN);
    wait keeps it with him."""

    @classmethod
    def of(cls, options: VandattaOptions) -> Seats:
        """The seat rules of a preset."""
        coffee = options.session is Session.COFFEE_BREAK
        if coffee and options.coffee_break_max_players is not None:
            most = options.coffee_break_max_players
        elif options.max_players_free_time is MaxPlayersFreeTime.ADD_DECKS:
            most = MOST_PLAYERS_ADDING_DECKS
        else:
            most = options.max_players
        return cls(
            most=most,
            add_deck=options.late_joiner_second_deck is LateJoinerSecondDeck.ADD_DECK,
            hand_size=options.hand_size,
            decks_for=tuple(deck_count(options, n) for n in range(most + 2)),
            pause=options.below_two_active is BelowTwoActive.PAUSE,
            skip=options.absent_turn is AbsentTurn.SKIP,
        )


def seat_free(count: Int, decks: Int, seats: Seats, weaken: frozenset[str] = frozenset()) -> Bool:
    """``join.join_error`` for a newcomer sitting down during a deal of ``count`` players played
    with ``decks`` decks: the larger table stays within :attr:`Seats.most`, needs no more decks
    than the deal's (unless they are added, add-deck), and the next deal can still deal every
    player a hand and turn a start card from the decks it will use (V8-JOIN-LATE-TAKE-FREE-SEAT,
    V8-DEAL-SEVEN-ROUNDS; weakening the latter drops the last test)."""
    larger = count + 1
    needs: Int = Int.const(0)
    for n, d in enumerate(seats.decks_for):
        needs = ite(larger.eq(n), d, needs)
    after = ite(needs > decks, needs, decks)
    pack = len(french_deck(1))
    fits = (
        Bool.const(True)
        if "V8-DEAL-SEVEN-ROUNDS" in weaken
        else larger * seats.hand_size + 1 <= after * pack
    )
    return (larger <= seats.most) & (Bool.const(seats.add_deck) | needs.eq(decks)) & fits


def step_in_allowed(
    turn_reached: Bool,
    anyone_away: Bool,
    active: Int,
    seats: Seats,
    weaken: frozenset[str] = frozenset(),
) -> Bool:
    """``join.join_error`` for a late joiner stepping in or staying out: only when the turn
    reaches his seat, and not while play pauses for want of two active players (someone away
    and fewer than two active, under below_two_active = pause: V8-PRESENCE-PAUSE-BELOW-TWO)."""
    if "V8-PRESENCE-PAUSE-BELOW-TWO" in weaken:
        return turn_reached
    paused = Bool.const(seats.pause) & anyone_away & (active < 2)
    return turn_reached & ~paused


def turn_after_return(
    turn: Int,
    holder_away: Bool,
    returner: Int,
    seats: Seats,
    weaken: frozenset[str] = frozenset(),
) -> Int:
    """``adjudication._turn_to_the_returner``: the spelförare after ``returner`` comes back to
    the table during play. The turn rests with an absent player only when nobody taking part
    was left at the table; under absent_turn = skip the first player back then takes it, the
    absent ones passed over (V8-PRESENCE-ABSENT-TURN-SKIPPED, V8-PRESENCE-MAY-RETURN); under
    wait it stays with the absent spelförare until he comes back himself. Weakening
    V8-PRESENCE-ABSENT-TURN-SKIPPED leaves it with him under skip too."""
    skip = seats.skip and "V8-PRESENCE-ABSENT-TURN-SKIPPED" not in weaken
    return ite(Bool.const(skip) & holder_away, returner, turn)
