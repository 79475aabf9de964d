"""Theorems and scenarios of the Viggo rulebook (``viggo``), over the encodings of
:mod:`regelverk_proofs.viggo.encoding.rules`.

* ``viggo.card-conservation``: every card in exactly one place, through every transition.
* ``viggo.legal-ending``: the points of a round and the end of the game at the losing total
  (53, read from the engine's options), against a characterisation written from the rules.
* ``viggo.trick-ends`` and ``viggo.round-ends``: ranking functions that fall on every step.
* the "beats" relation under every option set (:mod:`regelverk_proofs.viggo.theorems.beats`).

Every theorem names the bindings of :mod:`regelverk_proofs.viggo.binding.rules` that tie its
encoding to the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import replace

from regelverk.viggo.options import (
    Direction,
    DraftDiscards,
    ExampleTrickEnd,
    LossThresholdRule,
    MostCardsTie,
    NextDealer,
    PassIsFinal,
    SimultaneousLoss,
    ViggoOptions,
)
from regelverk_proofs.query import Fact, Scenario, Situation
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.viggo.binding.rules import (
    CARD_STEPS,
    COUNT_STEPS,
    ENDING,
    LEGAL_PLAYS,
    SEATS,
    TEXT_TABLES,
    seat_option_sets,
    seat_options_text,
)
from regelverk_proofs.viggo.encoding.rules import (
    Counts,
    Readings,
    Shuffle,
    Table,
    card_text,
    cards_text,
    count_pass_step,
    count_play_step,
    deal,
    first_hand,
    game_lost,
    keep_step,
    next_dealers,
    pass_step,
    play_step,
    score_round,
    trick_invariant,
)
from regelverk_proofs.viggo.encoding.rules import losers as enc_losers
from regelverk_proofs.viggo.text import (
    CARDS,
    CLUB_FOUR_INDEX,
    CLUB_THREE_INDEX,
    HAND_SIZE,
    POINTS_PER_CARD,
)
from regelverk_proofs.viggo.theorems.beats import BEATS_SCENARIO, BEATS_THEOREMS
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
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

__all__ = ["SCENARIOS", "THEOREMS"]

PRESET = ViggoOptions()
_Case = Callable[[frozenset[str]], tuple[Verdict, str]]


def _decide(
    cases: Sequence[_Case],
    weaken: frozenset[str],
    covered: str,
    touches: Callable[[int], frozenset[str]] = lambda i: frozenset(),
) -> Finding:
    """Run the cases of a FORALL theorem, stopping at the first counterexample; the cases
    that encode a weakened clause (``touches``) go first."""
    order = sorted(range(len(cases)), key=lambda i: not touches(i) & weaken)
    for case in (cases[i] for i in order):
        verdict, detail = case(weaken)
        if verdict is Verdict.SAT:
            return Finding(Outcome.COUNTEREXAMPLE, detail, len(cases))
        if verdict is Verdict.UNKNOWN:
            return Finding(Outcome.UNKNOWN, detail, len(cases))
    return Finding(Outcome.PROVED, covered, len(cases))


def _name(seat: int) -> str:
    return f"P{seat + 1}"


# ---------------------------------------------------------------------------------------------
# viggo.card-conservation
# ---------------------------------------------------------------------------------------------


def _one_place(places: Sequence[Bool]) -> Bool:
    """Exactly one of ``places``, written out propositionally (at least one, no two)."""
    pairs = [~(a & b) for i, a in enumerate(places) for b in places[i + 1 :]]
    return any_of(places) & all_of(pairs)


CHECKED = (CLUB_THREE_INDEX, CLUB_FOUR_INDEX)
"""The cards whose place is checked after a step: the 3♣ and the 4♣, the only cards a rule
names. No transition's card movement names a card (a card moves by the places it is in and by
being laid, kept, drawn or dealt), so by symmetry the check covers every card; checking all 52
at once takes Z3 ten times as long."""


def _each_card_once(table: Table, cards: Sequence[int] = range(CARDS)) -> Bool:
    return all_of(_one_place([b for _, b in table.places(c)]) for c in cards)


def _lost_card(model: Model, table: Table) -> int:
    for c in range(CARDS):
        if sum(model.bool(b) for _, b in table.places(c)) != 1:
            return c
    return 0


def _members(model: Model, cards: Sequence[Bool]) -> list[int]:
    return [c for c in range(CARDS) if model.bool(cards[c])]


def _deal_case(count: int, options: ViggoOptions) -> _Case:
    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        post, shuffle = Table.fresh("after", count), Shuffle.fresh("deck", count)
        solver = Solver()
        dealt = deal(post, options, shuffle, weaken, sizes=False)
        solver.add(dealt, clause="VG-DEAL-ROUND-THE-TABLE")
        solver.add(~_each_card_once(post, CHECKED))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        model = solver.model()
        card = _lost_card(model, post)
        reading = options.three_player_deal.value if count == 3 else "thirteen each"
        return verdict, (
            f"the deal to {count} players ({reading}, {options.direction.value}): "
            f"{card_text(card)}, {'dealt' if model.bool(shuffle.dealt[card]) else 'not dealt'}, "
            f"ends up in {post.where(model, card)}"
        )

    return case


def _keep_case(options: ViggoOptions) -> _Case:
    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        pre, post = Table.fresh("before", 2), Table.fresh("after", 2)
        kept = tuple(Bool.var(f"kept{c}") for c in range(CARDS))
        legal, moved = keep_step(pre, kept, post, options, weaken)
        solver = Solver()
        solver.add(_each_card_once(pre) & pre.turn.between(0, 1))
        top_two = [pre.stock[c] & (pre.order[c] < 2) for c in range(CARDS)]
        solver.add(sum_of(top_two).eq(2))  # the stock's order puts two cards on top
        solver.add(legal, clause="VG-DRAFT-TAKE-TWO-SEE-ONE")
        solver.add(moved, clause="VG-DRAFT-PUT-AWAY-OUT-OF-PLAY")
        solver.add(~_each_card_once(post, CHECKED))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        model = solver.model()
        card = _lost_card(model, post)
        drawn = [
            c for c in range(CARDS) if model.bool(pre.stock[c]) and model.int(pre.order[c]) < 2
        ]
        return verdict, (
            f"the draft ({options.draft_discards.value}): {_name(model.int(pre.turn))} draws "
            f"{cards_text(drawn)} and keeps {cards_text(_members(model, kept))}; "
            f"{card_text(card)} was in {pre.where(model, card)} and is now in "
            f"{post.where(model, card)}"
        )

    return case


def _trick_case(count: int, options: ViggoOptions, playing: bool) -> _Case:
    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        pre, post = Table.fresh("before", count), Table.fresh("after", count)
        readings = Readings.free("reading")
        laid = tuple(Bool.var(f"laid{c}") for c in range(CARDS))
        if playing:
            legal, moved = play_step(
                pre,
                laid,
                post,
                options,
                readings=readings,
                round_no=1,
                shuffle=Shuffle.fresh("deck", count),
                weaken=weaken,
                loose=True,
            )
        else:
            legal, moved = pass_step(pre, post, options, readings, weaken, loose=True)
        solver = Solver()
        solver.add(_each_card_once(pre) & pre.turn.between(0, count - 1))
        solver.add(legal, clause="VG-PLAY-REPLY-OR-PASS")
        solver.add(moved, clause="VG-PLAY-TRICK-SET-ASIDE")
        solver.add(~_each_card_once(post, CHECKED))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        model = solver.model()
        card = _lost_card(model, post)
        seat = _name(model.int(pre.turn))
        move = (
            f"{seat} lays {cards_text(_members(model, laid))}"
            if playing
            else f"{seat} passes on {cards_text(_members(model, pre.top))}"
        )
        return verdict, (
            f"{count} players, trick {cards_text(_members(model, pre.trick))}: {move}; "
            f"{card_text(card)} was in {pre.where(model, card)} and is now in "
            f"{post.where(model, card)}"
        )

    return case


def _conservation_cases() -> tuple[_Case, ...]:
    directions = tuple(Direction)
    deals: list[_Case] = [_deal_case(2, PRESET)]
    deals += [_deal_case(n, replace(PRESET, direction=d)) for n in (3, 4) for d in directions]
    keeps = [_keep_case(replace(PRESET, draft_discards=r)) for r in DraftDiscards]
    plays = [_trick_case(n, PRESET, playing=True) for n in (2, 3, 4)]
    passes = [_trick_case(n, PRESET, playing=False) for n in (2, 3, 4)]
    return (*keeps, *plays, *passes, *deals)


_DRAFT = frozenset({"VG-DRAFT-PUT-AWAY-OUT-OF-PLAY", "VG-DRAFT-TAKE-TWO-SEE-ONE"})
_TRICK = frozenset({"VG-PLAY-FIRST-HAND-LEADS-FREE", "VG-PLAY-TRICK-SET-ASIDE"})
_DEAL = frozenset({"VG-DEAL-THIRTEEN-EACH"})


def _conservation_touches(i: int) -> frozenset[str]:
    """The clauses case ``i`` of :func:`_conservation_cases` encodes that a weakening loosens."""
    return _DRAFT if i < 2 else _TRICK if i < 8 else _DEAL


def _check_conservation(weaken: frozenset[str]) -> Finding:
    return _decide(
        _conservation_cases(),
        weaken,
        "each card in exactly one place after: the deal (2, 3 under all three readings, and 4 "
        "players, both directions), a keep in the draft (both readings of the put-away), a "
        "lead, reply, trick-closing play or round-ending play (2-4 players; every reading of "
        "pass-final, trick end and lead-after-tie at once; game over or re-deal), and a pass "
        "that leaves the trick open or closes it",
        _conservation_touches,
    )


CARD_CONSERVATION = Theorem(
    name="viggo.card-conservation",
    states=(),
    rulebooks=("viggo",),
    title="Every card is in exactly one place",
    statement=(
        "Take any table on which each of the 52 cards lies in exactly one place (a hand, the "
        "stock, out of play, the trick, set aside). After any transition the engine makes "
        "from it, each card is again in exactly one place: the deal for two (all to the "
        "stock), three (every reading of the three-player deal) and four players, either "
        "direction; a keep in the two-player draft (the other card out of play or under the "
        "stock); a lead or a reply (the cards leave the player's hand for the trick); a pass; "
        "the trick being set aside when it ends (by a pass or by the last reply of a lap); and "
        "a round-ending play, after which the game is over or the next round is dealt. The "
        "places are Booleans per card and place, so 'exactly one' is checked, not assumed. "
        "The check loosens what does not move cards, so that it covers every outcome of it: "
        "whether the laid cards form an allowed combination (only 'from his own hand' is "
        "kept), whether a pass is refused to a player who can beat (the must-beat reading of "
        "VG-AMB-PASS-WHEN-ABLE: every pass on a reply is let through), whether the trick "
        "closes, whether the game is lost, and how many cards each "
        "seat is dealt (only where each dealt card goes). After the step it checks the 3♣ and "
        "the 4♣, the two cards rules name; no card movement names a card, so by symmetry the "
        "result holds for every card."
    ),
    clauses=(
        "VG-SETUP-DECK-52-NO-JOKERS",
        "VG-DEAL-THIRTEEN-EACH",
        "VG-DEAL-ROUND-THE-TABLE",
        "VG-DRAFT-NO-DEAL-TWO-PLAYERS",
        "VG-DRAFT-TAKE-TWO-SEE-ONE",
        "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
        "VG-PLAY-FIRST-HAND-LEADS-FREE",
        "VG-PLAY-REPLY-OR-PASS",
        "VG-PLAY-TRICK-SET-ASIDE",
        "VG-WIN-ROUND-ENDS-AT-FIRST-OUT",
    ),
    check=_check_conservation,
    bindings=(CARD_STEPS, LEGAL_PLAYS, TEXT_TABLES),
    weakenings=(
        Weakening(
            "VG-PLAY-FIRST-HAND-LEADS-FREE",
            "a player may lay cards that are not in his hand",
        ),
        Weakening(
            "VG-PLAY-TRICK-SET-ASIDE",
            "a finished trick is cleared from the table but its cards are not set aside",
        ),
        Weakening(
            "VG-DRAFT-PUT-AWAY-OUT-OF-PLAY",
            "the card not kept in the draft is put nowhere",
        ),
        Weakening(
            "VG-DRAFT-TAKE-TWO-SEE-ONE",
            "the drafter may keep any card of the stock, not only one of the two drawn",
        ),
        Weakening(
            "VG-DEAL-THIRTEEN-EACH",
            "the cards left over after the deal are not put out of play",
        ),
    ),
)


# ---------------------------------------------------------------------------------------------
# viggo.legal-ending
# ---------------------------------------------------------------------------------------------


def _ending_case(count: int, options: ViggoOptions) -> _Case:
    """One player count and reading: the encoding's terms (``score_round``, ``game_lost``,
    ``losers``: tied to the engine's ``rounds`` functions by the binding ``viggo.ending``)
    against a characterisation written from the rules, not from those terms."""

    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        winner = Int.var("winner")
        before = [Int.var(f"total{s}") for s in range(count)]
        left = [Int.var(f"left{s}") for s in range(count)]
        after = [Int.var(f"new{s}") for s in range(count)]
        limit = options.loss_points
        exact = options.loss_threshold_rule is LossThresholdRule.EXACTLY
        solver = Solver()
        solver.add(winner.between(0, count - 1))
        for s in range(count):
            # a game still on: nobody has lost yet; the winner has laid his last card
            solver.add(
                before[s].between(0, 200) & (before[s].ne(limit) if exact else before[s] < limit)
            )
            solver.add(left[s].between(0, 17) & implies(winner.eq(s), left[s].eq(0)))
            solver.add(implies(winner.ne(s), left[s] >= 1))
        solver.add(
            score_round(winner, before, left, after, weaken), clause="VG-SCORE-POINT-PER-CARD"
        )
        over = game_lost(options, after, weaken)
        lost = enc_losers(options, winner, after)
        # the rules' own words: totals only grow, the winner's not at all, and together by
        # the points of the cards left; the game is over once a total has reached the limit
        reached = [
            ~(after[s] < limit) & ~(after[s] > limit) if exact else ~(after[s] <= limit - 1)
            for s in range(count)
        ]
        grown = sum_of(after) - sum_of(before)
        parts = [grown.eq(POINTS_PER_CARD * sum_of(left))]
        parts += [after[s] >= before[s] + POINTS_PER_CARD * left[s] for s in range(count)]
        parts += [implies(winner.eq(s), after[s].eq(before[s])) for s in range(count)]
        parts += [over.eq(~all_of(~r for r in reached)), over.eq(any_of(lost))]
        parts += [implies(lost[s], reached[s]) for s in range(count)]
        rule = options.simultaneous_loss
        for s, o in itertools.product(range(count), repeat=2):
            if rule is SimultaneousLoss.HIGHEST_TOTAL_LOSES:
                # no one who reached the limit has more than a loser; equal totals lose together
                parts.append(implies(lost[s] & reached[o], after[o] <= after[s]))
                parts.append(implies(lost[s] & reached[o] & after[o].eq(after[s]), lost[o]))
            elif rule is SimultaneousLoss.ALL_OVER_LOSE:
                parts.append(implies(reached[o], lost[o]))
            elif s != o:
                parts.append(~(lost[s] & lost[o]))  # one loser only
        solver.add(~all_of(parts))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        m = solver.model()
        rows = ", ".join(
            f"{_name(s)} {m.int(before[s])} + {m.int(left[s])} cards -> {m.int(after[s])}"
            for s in range(count)
        )
        losers = [_name(s) for s in range(count) if m.bool(lost[s])] or ["nobody"]
        return verdict, (
            f"{count} players ({options.loss_threshold_rule.value}, "
            f"{options.simultaneous_loss.value}); {_name(m.int(winner))} goes out: {rows}; "
            f"the encoding's game is {'over' if m.bool(over) else 'not over'}, losers "
            f"{', '.join(losers)}"
        )

    return case


def _check_ending(weaken: frozenset[str]) -> Finding:
    cases = [
        _ending_case(n, replace(PRESET, loss_threshold_rule=t, simultaneous_loss=r))
        for n in (2, 3, 4)
        for t in LossThresholdRule
        for r in SimultaneousLoss
    ]
    return _decide(
        cases,
        weaken,
        "2-4 players, both loss-threshold readings, all three simultaneous-loss readings",
    )


LEGAL_ENDING = Theorem(
    name="viggo.legal-ending",
    states=(
        "VG-SCORE-POINT-PER-CARD",
        "VG-SCORE-WINNER-ZERO",
        "VG-SCORE-CUMULATIVE",
        "VG-LOSS-FIRST-TO-53",
        "VG-LOSS-TIE-HIGHEST-TOTAL",
    ),
    rulebooks=("viggo",),
    title="A round scores a point per card left, and the game ends at 53",
    statement=(
        "When a player lays his last card in a game still on, no total falls, the winner's "
        "stays, and together the totals rise by the points of the cards left (one a card, each "
        "player at least his own); the game is over exactly when some total has reached the "
        "losing total of the engine's options (53): 53 or more under the at-least reading, "
        "exactly 53 under the exactly reading. Then someone is named loser, and every loser "
        "has reached 53; of several who reached it, no one has more than a loser and equal "
        "totals lose together (highest-total reading), all lose (all-over reading), or one "
        "alone loses (first-in-turn-order reading). The terms checked are the encoding's, "
        "which the binding viggo.ending ties to the engine's round_points, add_points, losers "
        "and game_winners at totals round 53, and viggo.card-steps to the engine's "
        "round-ending plays; the statement is written from the rules, not from those terms."
    ),
    clauses=(
        "VG-SCORE-POINT-PER-CARD",
        "VG-SCORE-WINNER-ZERO",
        "VG-SCORE-CUMULATIVE",
        "VG-LOSS-FIRST-TO-53",
        "VG-LOSS-TIE-HIGHEST-TOTAL",
    ),
    check=_check_ending,
    bindings=(ENDING, CARD_STEPS, TEXT_TABLES),
    weakenings=(
        Weakening("VG-SCORE-CUMULATIVE", "a round's points replace the total instead of adding"),
        Weakening("VG-SCORE-POINT-PER-CARD", "one card in hand goes unscored"),
        Weakening("VG-LOSS-FIRST-TO-53", "the game ends only above 53, not at 53"),
    ),
)


def _check_exact_overshoot(weaken: frozenset[str]) -> Finding:
    """Find totals past 53 under the exactly reading from which no round can end the game."""
    options = replace(PRESET, loss_threshold_rule=LossThresholdRule.EXACTLY)
    count = 2
    totals = [Int.var(f"total{s}") for s in range(count)]
    solver = Solver()
    limit = options.loss_points
    # a game still on after a round in which every total passed 53 without landing on it
    solver.add(all_of(t.between(limit + 1, limit + 20) for t in totals))
    solver.add(~game_lost(options, totals, weaken), clause="VG-LOSS-FIRST-TO-53")
    if solver.check() is not Verdict.SAT:
        return Finding(Outcome.NO_WITNESS, "no total past 53 leaves the game on")
    found = [solver.model().int(t) for t in totals]
    # no later round ends it: totals only grow (a point per card left, the winner none)
    later = Solver()
    winner = Int.var("winner")
    left = [Int.var(f"left{s}") for s in range(count)]
    after = [Int.var(f"new{s}") for s in range(count)]
    later.add(winner.between(0, count - 1))
    later.add(all_of(n.between(0, 18) for n in left))
    before = [Int.const(t) for t in found]
    later.add(score_round(winner, before, left, after, weaken), clause="VG-SCORE-CUMULATIVE")
    later.add(game_lost(options, after, weaken), clause="VG-LOSS-FIRST-TO-53")
    verdict = later.check()
    shown = ", ".join(f"{_name(s)} {t}" for s, t in enumerate(found))
    if verdict is Verdict.UNSAT:
        return Finding(
            Outcome.WITNESSED,
            f"two players, exactly reading: totals {shown}; every later round only adds "
            "points, so no total ever equals 53 again and the game never ends",
        )
    return Finding(Outcome.NO_WITNESS, f"from totals {shown} a later round can still end it")


EXACT_OVERSHOOT = Theorem(
    name="viggo.exactly-53-can-run-forever",
    states=(),
    rulebooks=("viggo",),
    title="Under the exactly-53 reading a game can go on for ever",
    statement=(
        "Under the reading that only a total of exactly 53 loses (VG-AMB-LOSS-THRESHOLD), "
        "there are totals, every one past 53, at which the game is still on and from which "
        "no later round can end it: totals never fall, so none can come back to 53. Nothing "
        "else ends a Viggo game, so such a game has no end. Under the at-least reading this "
        "cannot happen (viggo.legal-ending)."
    ),
    clauses=("VG-LOSS-FIRST-TO-53", "VG-SCORE-CUMULATIVE", "VG-SCORE-POINT-PER-CARD"),
    check=_check_exact_overshoot,
    bindings=(ENDING,),
    weakenings=(
        Weakening(
            "VG-LOSS-FIRST-TO-53",
            "passing 53 loses too, whichever reading of the threshold",
        ),
    ),
    kind=Kind.EXISTS,
)


# ---------------------------------------------------------------------------------------------
# viggo.trick-ends and viggo.round-ends
# ---------------------------------------------------------------------------------------------


def trick_rank(table: Counts) -> Int:
    """The trick's ranking: ten per card in the hands, plus the seats that have not passed."""
    return 10 * table.in_hands() + table.waiting()


def round_rank(table: Counts) -> Int:
    """The round's ranking: ten per card in the hands, five per card in the trick, plus the
    seats that have not passed."""
    return 10 * table.in_hands() + 5 * table.trick + table.waiting()


def _fresh_trick(table: Counts) -> Bool:
    n = table.count
    return all_of(
        [table.trick.eq(0), table.replies.eq(0), table.turn.between(0, n - 1)]
        + [table.top_seat.eq(-1)]
        + [~p for p in table.passed]
        + [h.between(1, 18) for h in table.held]
    )


def _termination_case(count: int, options: ViggoOptions, whole_round: bool) -> _Case:
    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        pre, post = Counts.fresh("before", count), Counts.fresh("after", count)
        readings = Readings.of(options)
        laid, passing = Int.var("laid"), Bool.var("passing")
        pass_ok, pass_closes, passed = count_pass_step(pre, post, options, readings, weaken)
        play_ok, play_closes, goes_out, played = count_play_step(
            pre, laid, post, options, readings=readings, weaken=weaken
        )
        solver = Solver()
        solver.add(pre.trick.between(0, 52))
        leading = _fresh_trick(pre)
        during = trick_invariant(options, readings, pre)
        solver.add(leading | during, clause="VG-PLAY-PASS-NOT-FINAL")
        solver.add(implies(passing, pass_ok & passed), clause="VG-PLAY-REPLY-OR-PASS")
        solver.add(implies(~passing, play_ok & played & ~goes_out), clause="VG-COMBO-SINGLE")
        closes = (passing & pass_closes) | (~passing & play_closes)
        rank = round_rank if whole_round else trick_rank
        if whole_round:
            kept = (closes & _fresh_trick(post)) | (
                ~closes & trick_invariant(options, readings, post)
            )
            solver.add(~(kept & (rank(post) < rank(pre)) & (rank(post) >= 0)))
        else:
            solver.add(~closes)
            kept = trick_invariant(options, readings, post)
            solver.add(~(kept & (leading | (rank(post) < rank(pre))) & (rank(post) >= 0)))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        return verdict, _render_step(
            solver.model(),
            options=options,
            pre=pre,
            post=post,
            laid=laid,
            passing=passing,
            rank=rank,
        )

    return case


def _render_step(
    m: Model,
    *,
    options: ViggoOptions,
    pre: Counts,
    post: Counts,
    laid: Int,
    passing: Bool,
    rank: Callable[[Counts], Int],
) -> str:
    def show(t: Counts) -> str:
        hands = ", ".join(f"{_name(s)} {m.int(h)}" for s, h in enumerate(t.held))
        passed = [_name(s) for s, p in enumerate(t.passed) if m.bool(p)] or ["nobody"]
        return (
            f"hands {hands}; {m.int(t.trick)} cards in the trick; passed: {', '.join(passed)}; "
            f"{_name(m.int(t.turn)) if m.int(t.turn) >= 0 else 'nobody'} to act; "
            f"{_name(m.int(t.top_seat)) if m.int(t.top_seat) >= 0 else 'nobody'} on top; "
            f"{m.int(t.replies)} replies; ranking {m.int(rank(t))}"
        )

    move = "passes" if m.bool(passing) else f"lays {m.int(laid)} card(s)"
    return (
        f"{pre.count} players ({options.pass_is_final.value}, "
        f"{options.example_trick_end.value}, {options.direction.value}): before: {show(pre)}; "
        f"{_name(m.int(pre.turn))} {move}; after: {show(post)}"
    )


def _termination_options() -> list[ViggoOptions]:
    return [
        replace(PRESET, pass_is_final=p, example_trick_end=e, direction=d)
        for p in PassIsFinal
        for e in ExampleTrickEnd
        for d in Direction
    ]


def _check_termination(whole_round: bool) -> Callable[[frozenset[str]], Finding]:
    def check(weaken: frozenset[str]) -> Finding:
        cases = [
            _termination_case(n, o, whole_round) for o in _termination_options() for n in (2, 3, 4)
        ]
        if whole_round:
            cases.append(_draft_case)
        return _decide(
            cases,
            weaken,
            "2-4 players; both pass readings x three trick-end readings x both directions; "
            "every pass and every play of 1-5 cards"
            + ("; and the 26 keeps of the two-player draft" if whole_round else ""),
        )

    return check


def _draft_case(weaken: frozenset[str]) -> tuple[Verdict, str]:
    """The draft: each keep adds one card to a hand; it stops when both hold thirteen."""
    held = [Int.var("first"), Int.var("second")]
    turn = Int.var("turn")
    solver = Solver()
    solver.add(all_of(h.between(0, HAND_SIZE) for h in held) & turn.between(0, 1))
    solver.add(~(held[0].eq(HAND_SIZE) & held[1].eq(HAND_SIZE)))
    kept = 0 if "VG-COMBO-SINGLE" in weaken else 1
    new = [ite(turn.eq(s), h + kept, h) for s, h in enumerate(held)]
    rank_before = 2 * HAND_SIZE - held[0] - held[1]
    rank_after = 2 * HAND_SIZE - new[0] - new[1]
    solver.add(~((rank_after < rank_before) & (rank_after >= 0)))
    verdict = solver.check()
    return (
        verdict,
        "the draft: a keep that adds no card to the hand" if verdict is Verdict.SAT else "",
    )


TRICK_ENDS = Theorem(
    name="viggo.trick-ends",
    states=(),
    rulebooks=("viggo",),
    title="No trick goes on for ever",
    statement=(
        "Ten times the cards in all hands plus the number of players who have not passed is "
        "never negative, and it falls strictly with every pass and every play that leaves the "
        "trick open, under both readings of a pass (final or not) and all three readings of "
        "when a trick ends, for two to four players and both directions of play. A pass marks "
        "one more player as passed; a play lays at least one card (and may clear the passes, "
        "which costs at most four). Alongside, the engine's trick invariant is shown to hold "
        "after every lead and to be kept by every step: the player to act and the one on top "
        "have not passed, and when all others must pass the turn never comes back to the top "
        "seat before they have. Under the must-beat reading of VG-AMB-PASS-WHEN-ABLE the "
        "engine refuses the passes of a player who can beat (viggo.legal-plays binds that "
        "refusal); the check lets every pass on a reply through, so it covers that reading "
        "too. So every trick ends."
    ),
    clauses=(
        "VG-PLAY-REPLY-OR-PASS",
        "VG-PLAY-PASS-NOT-FINAL",
        "VG-PLAY-TRICK-SET-ASIDE",
        "VG-TURN-ROUND-THE-TABLE",
        "VG-COMBO-SINGLE",
    ),
    check=_check_termination(whole_round=False),
    bindings=(COUNT_STEPS, CARD_STEPS),
    weakenings=(
        Weakening("VG-PLAY-REPLY-OR-PASS", "a pass is not recorded against the passer"),
        Weakening("VG-PLAY-TRICK-SET-ASIDE", "a trick never ends, whoever has passed"),
        Weakening("VG-COMBO-SINGLE", "a combination may hold no card at all"),
    ),
)

ROUND_ENDS = Theorem(
    name="viggo.round-ends",
    states=("VG-WIN-ROUND-ENDS-AT-FIRST-OUT",),
    rulebooks=("viggo",),
    title="No round goes on for ever",
    statement=(
        "Ten times the cards in all hands, plus five times the cards in the trick, plus the "
        "players who have not passed, is never negative and falls strictly with every step "
        "of a round that does not end it: every pass (also the one that sets the trick "
        "aside), every lead, every reply (also one that closes a lap), under every reading "
        "of passing and of the end of a trick, for two to four players; the two-player draft "
        "before it is 26 keeps, each adding one card. Every pass on a reply is let through, so "
        "the must-beat reading of VG-AMB-PASS-WHEN-ABLE, which refuses some, is covered. So "
        "every round ends, and since a round "
        "ends only when someone lays his last card, someone always goes out."
    ),
    clauses=(
        "VG-PLAY-REPLY-OR-PASS",
        "VG-PLAY-PASS-NOT-FINAL",
        "VG-PLAY-TRICK-SET-ASIDE",
        "VG-WIN-ROUND-ENDS-AT-FIRST-OUT",
        "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN",
        "VG-COMBO-SINGLE",
    ),
    check=_check_termination(whole_round=True),
    bindings=(COUNT_STEPS, CARD_STEPS),
    weakenings=(
        Weakening("VG-PLAY-REPLY-OR-PASS", "a pass is not recorded against the passer"),
        Weakening("VG-COMBO-SINGLE", "a combination (or a keep) may hold no card at all"),
    ),
)


# ---------------------------------------------------------------------------------------------
# viggo.seats
# ---------------------------------------------------------------------------------------------


def _seats_case(count: int, options: ViggoOptions) -> _Case:
    """One table size and option set: any dealer, any round winner, any cards left (none for
    the winner, one to a hand's worth for every other seat)."""

    def case(weaken: frozenset[str]) -> tuple[Verdict, str]:
        dealer, winner, new_dealer = Int.var("dealer"), Int.var("winner"), Int.var("new-dealer")
        held = [Int.var(f"held{s}") for s in range(count)]
        solver = Solver()
        solver.add(dealer.between(0, count - 1) & winner.between(0, count - 1))
        for s, n in enumerate(held):
            solver.add(ite_bool(winner.eq(s), n.eq(0), n.between(1, HAND_SIZE)))
        first = first_hand(options, count, 1, dealer, winner, weaken=weaken)
        may = next_dealers(options, count, dealer, winner, held, weaken=weaken)
        solver.add(new_dealer.between(0, count - 1))
        solver.add(any_of(m & new_dealer.eq(s) for s, m in enumerate(may)))
        later = first_hand(options, count, 2, new_dealer, winner, weaken=weaken)
        first_ok = first.between(0, count - 1) & first.ne(dealer)
        one = sum_of(may).eq(1)
        lots = options.most_cards_deal and options.most_cards_tie is MostCardsTie.LOTS_AMONG_TIED
        deals = sum_of(may) >= 1 if lots else one
        most = all_of(implies(m, all_of(held[s] >= h for h in held)) for s, m in enumerate(may))
        rotates = not options.most_cards_deal and (options.next_dealer is NextDealer.DEALER_ROTATES)
        later_ok = later.between(0, count - 1)
        if not rotates:
            later_ok = later_ok & later.ne(new_dealer)
        holds_most = most if options.most_cards_deal else true()
        solver.add(~(first_ok & deals & holds_most & later_ok))
        verdict = solver.check()
        if verdict is not Verdict.SAT:
            return verdict, ""
        m = solver.model()
        left = ", ".join(f"{_name(s)} {m.int(h)}" for s, h in enumerate(held))
        allowed = [_name(s) for s, t in enumerate(may) if m.bool(t)] or ["nobody"]
        return verdict, (
            f"{count} players under {seat_options_text(options)}: "
            f"{_name(m.int(dealer))} deals round 1 and "
            f"{_name(m.int(first))} is first hand; {_name(m.int(winner))} goes out with "
            f"{left} left; {', '.join(allowed)} may deal next, and with "
            f"{_name(m.int(new_dealer))} dealing {_name(m.int(later))} is first hand"
        )

    return case


def _check_seats(weaken: frozenset[str]) -> Finding:
    cases = [_seats_case(n, o) for o in seat_option_sets() for n in (2, 3, 4)]
    return _decide(
        cases,
        weaken,
        "2-4 players, both directions, both readings of the next dealer, the most-cards rule "
        "off and on with every reading of its tie and its lead",
    )


SEATS_THEOREM = Theorem(
    name="viggo.seats",
    states=("VG-VAR-MOST-CARDS-DEAL",),
    rulebooks=("viggo",),
    title="Every round has one dealer and a first hand who is not the dealer",
    statement=(
        "For two to four players, either direction, both readings of who deals next, and the "
        "most-cards house rule off and on under every reading of its tie and of its lead, "
        "with any dealer, any round winner and any cards left in the other hands: the first "
        "round's first hand is a seat at the table other than the dealer; exactly one seat "
        "deals the next round (under the lots reading of a tie for most cards, at least one, "
        "each of them tied); under the most-cards rule no seat holds more cards than the next "
        "dealer, so the winner, who holds none, never deals; and the next round's first hand "
        "is a seat at the table and, except where the deal simply rotates, not its dealer. "
        "The terms checked are the encoding's first_hand and next_dealers, which the binding "
        "viggo.seats ties to the engine's start_round and finish_round."
    ),
    clauses=(
        "VG-SETUP-FIRST-DEALER",
        "VG-TURN-WINNER-LEADS-NEXT-ROUND",
        "VG-VAR-MOST-CARDS-DEAL",
        "VG-VAR-MOST-CARDS-TIE-BREAK",
        "VG-VAR-MOST-CARDS-REPLACES-WINNER-LEAD",
    ),
    check=_check_seats,
    bindings=(SEATS,),
    weakenings=(
        Weakening("VG-SETUP-FIRST-DEALER", "the first round's dealer is first hand himself"),
        Weakening("VG-VAR-MOST-CARDS-DEAL", "the most-cards rule does not move the deal"),
        Weakening("VG-TURN-WINNER-LEADS-NEXT-ROUND", "a later round's dealer leads it"),
    ),
)


# ---------------------------------------------------------------------------------------------
# The trick-step scenario
# ---------------------------------------------------------------------------------------------


def _build_trick_step(solver: Solver) -> Situation:
    """One step of a trick, for 2-4 players and every reading of passing and of the trick's end:
    the rules of the step and the engine's trick invariant, each under its clause."""
    players = Int.var("players")
    final, one_lap = Bool.var("final-pass"), Bool.var("one-lap")
    passing, laid = Bool.var("passing"), Int.var("laid")
    stays, lowered, ends = Bool.var("stays"), Bool.var("lowered"), Bool.var("ends")
    pres: dict[int, Counts] = {}
    solver.add(players.between(2, 4))
    for n in (2, 3, 4):
        pre, post = Counts.fresh(f"b{n}", n), Counts.fresh(f"a{n}", n)
        pres[n] = pre
        readings = Readings(final=final, one_lap=one_lap, first_to_play=false())
        options = PRESET
        pass_ok, pass_closes, passed = count_pass_step(pre, post, options, readings, frozenset())
        play_ok, play_closes, out, played = count_play_step(
            pre, laid, post, options, readings=readings, weaken=frozenset()
        )
        here = players.eq(n)
        closes = (passing & pass_closes) | (~passing & play_closes)
        solver.add(
            implies(here, trick_invariant(options, readings, pre)), clause="VG-PLAY-PASS-NOT-FINAL"
        )
        solver.add(implies(here & passing, pass_ok & passed), clause="VG-PLAY-REPLY-OR-PASS")
        solver.add(implies(here & ~passing, play_ok & played), clause="VG-COMBO-SINGLE")
        solver.add(implies(here, stays.eq(~closes & ~(~passing & out))))
        solver.add(implies(here, ends.eq(closes)))
        solver.add(implies(here, lowered.eq(trick_rank(post) < trick_rank(pre))))

    def render(m: Model) -> str:
        n = m.int(players)
        pre = pres[n]
        hands = ", ".join(f"{_name(s)} {m.int(h)}" for s, h in enumerate(pre.held))
        move = "passes" if m.bool(passing) else f"lays {m.int(laid)} card(s)"
        return (
            f"{n} players, pass {'final' if m.bool(final) else 'not final'}, "
            f"{'one lap' if m.bool(one_lap) else 'all others pass'}; hands {hands}; "
            f"{_name(m.int(pre.turn))} {move}; the trick "
            f"{'ends' if m.bool(ends) else 'goes on'}"
        )

    facts = (
        Fact("stays-in-trick", "the step leaves the trick open and nobody goes out", stays),
        Fact("ranking-lowered", "ten per card in hand plus the players not passed falls", lowered),
        Fact("trick-ends", "the step ends the trick", ends),
        Fact("passes", "the step is a pass", passing),
        Fact("cards-laid", "cards laid in the step (0 for a pass)", laid),
        Fact("players", "the number of players", players),
        Fact("final-pass", "a pass is final for the trick (VG-AMB-PASS-FINAL)", final),
        Fact("one-lap", "the trick ends after one lap (VG-AMB-EXAMPLE-TRICK-END)", one_lap),
    )
    solver.add(implies(passing, laid.eq(0)))
    return Situation(facts=facts, render=render)


TRICK_STEP = Scenario(
    name="trick-step",
    rulebook="viggo",
    description=(
        "One step of a Viggo trick (a pass or a play) for two to four players under every "
        "reading of passing and of the trick's end. 'stays-in-trick and not ranking-lowered' "
        "asks whether a trick could go on for ever."
    ),
    build=_build_trick_step,
)


THEOREMS: tuple[Theorem, ...] = (
    CARD_CONSERVATION,
    LEGAL_ENDING,
    EXACT_OVERSHOOT,
    TRICK_ENDS,
    ROUND_ENDS,
    SEATS_THEOREM,
    *BEATS_THEOREMS,
)
"""The theorems of the ``viggo`` rulebook."""

SCENARIOS: tuple[Scenario, ...] = (TRICK_STEP, BEATS_SCENARIO)
"""The scenarios of the ``viggo`` rulebook."""
