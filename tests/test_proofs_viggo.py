"""The Viggo proofs tied to the engine: the encodings agree with ``regelverk.viggo`` on what is
allowed and on where every step leads; every theorem fails when a clause it cites is weakened;
the scenarios answer as expected; the witnesses replay in the engine."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from regelverk.viggo import GAME, ViggoOptions, classify
from regelverk.viggo import beats as engine_beats
from regelverk.viggo.combos import CARD_OF, Combo, Kind, Verdict
from regelverk.viggo.options import (
    LossThresholdRule,
)
from regelverk.viggo.state import ViggoState
from regelverk_proofs.binding import Binding, Comparison, check
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Theorem, Weakening
from regelverk_proofs.viggo.binding.rules import (
    BEATS,
    CARD_STEPS,
    COUNT_STEPS,
    ENDING,
    LEGAL_PLAYS,
    SEATS,
    TEXT_TABLES,
)
from regelverk_proofs.viggo.encoding.rules import BeatsOptions, Shuffle, Table, beats
from regelverk_proofs.viggo.theorems.beats import (
    BEATS_SCENARIO,
    MUTUAL,
    SELF,
    Chosen,
    asymmetric_reading,
    asymmetric_term,
    beats_option_sets,
    irreflexive_reading,
    irreflexive_term,
    realize,
)
from regelverk_proofs.viggo.theorems.rules import (
    EXACT_OVERSHOOT,
    SCENARIOS,
    THEOREMS,
    TRICK_STEP,
)
from regelverk_proofs.z3api import Bool, Solver
from regelverk_proofs.z3api import Verdict as Z3Verdict

NAMES = ("P1", "P2", "P3", "P4")
NONE: frozenset[str] = frozenset()


def _holds(term: Bool) -> bool:
    """Whether a closed term (constants only) is true."""
    solver = Solver()
    solver.add(term)
    return solver.check() is Z3Verdict.SAT


# ---------------------------------------------------------------------------------------------
# (a) the bindings: they agree, cover their kinds, and disagree when the engine is broken
# ---------------------------------------------------------------------------------------------

OPTION_SETS = beats_option_sets()
BINDINGS = (BEATS, LEGAL_PLAYS, CARD_STEPS, COUNT_STEPS, ENDING, TEXT_TABLES, SEATS)


@pytest.mark.clause(
    "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    "VG-PLAY-REPLY-OR-PASS",
    "VG-PLAY-TRICK-SET-ASIDE",
    "VG-DRAFT-TAKE-TWO-SEE-ONE",
    "VG-SCORE-POINT-PER-CARD",
    "VG-LOSS-FIRST-TO-53",
)
@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: b.name)
def test_binding_agrees_and_covers_its_kinds(binding: Binding) -> None:
    """Each binding compares every kind of case it names, and engine and encoding agree."""
    report = check(binding)
    assert report.agrees, report.summary()
    assert {k for k, n in report.counts if n} == set(binding.kinds)


def _first_disagreement(binding: Binding) -> Comparison | None:
    return next((c for c in binding.compare() if not c.agrees), None)


@pytest.mark.clause("VG-RANK-THREE-BEATS-THREE", "VG-PLAY-BEAT-SAME-TYPE-HIGHER")
def test_beats_binding_sees_a_broken_beats(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the engine's equal-rank judgement letting every equal rank through, the binding
    ``viggo.beats`` disagrees."""
    from regelverk.viggo import combos

    allowed = Verdict(allowed=True, reason="broken", clauses=(), strict=False)
    monkeypatch.setattr(combos, "_equal_reply", lambda new, old, options: allowed)
    found = _first_disagreement(BEATS)
    assert found is not None and found.kind == "same-kind"


@pytest.mark.clause("VG-PLAY-NO-TYPE-SWITCH", "VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
def test_legal_plays_binding_sees_a_pair_on_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the engine's judgement of replies letting a pair answer a run, the binding
    ``viggo.legal-plays`` disagrees on a pair laid on a run."""
    from regelverk.viggo import play

    judged = play._reply_verdict

    def broken(new: Combo, old: Combo, options: ViggoOptions) -> Verdict:
        if new.kind is Kind.PAIR and old.kind is Kind.SEQUENCE:
            return Verdict(allowed=True, reason="broken", clauses=())
        return judged(new, old, options)

    monkeypatch.setattr(play, "_reply_verdict", broken)
    found = _first_disagreement(LEGAL_PLAYS)
    assert found is not None and found.kind == "pair-on-run"


@pytest.mark.clause("VG-PLAY-NEXT-LEAD-AFTER-HIGHEST", "VG-PLAY-REPLY-OR-PASS")
def test_legal_plays_binding_sees_a_pass_on_a_later_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the engine's check letting a player pass on a lead after the round's first
    trick, the binding ``viggo.legal-plays`` disagrees on that pass (and does not crash on
    applying it)."""
    from regelverk.viggo import play

    judged = play._check_pass

    def broken(state: ViggoState) -> None:
        if not state.trick and state.set_aside:
            return
        judged(state)

    monkeypatch.setattr(play, "_check_pass", broken)
    found = _first_disagreement(LEGAL_PLAYS)
    assert found is not None and found.kind == "pass", found


@pytest.mark.clause("VG-VAR-CLUB-FOUR-FREE-OPENING", "VG-VAR-CLUB-FOUR-STARTS")
def test_legal_plays_binding_sees_the_club_four_in_every_lead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine making the 4♣ holder lead it in every trick of the round under the
    must-include reading (not only the opening), the binding disagrees on a later lead."""
    from regelverk.viggo import play, rounds
    from regelverk.viggo.options import ClubFourOpening

    def broken(state: ViggoState) -> bool:
        return (
            state.options.club_four_opening is ClubFourOpening.MUST_INCLUDE
            and not state.trick
            and rounds.club_four_opens(state.options, state.count, state.round)
            and rounds.CLUB_FOUR in state.hands[state.turn]
        )

    monkeypatch.setattr(play, "_club_four_must_lead", broken)
    found = _first_disagreement(LEGAL_PLAYS)
    assert found is not None and found.kind == "club-four-later-lead", found


@pytest.mark.clause("VG-SETUP-FIRST-DEALER")
def test_seats_binding_sees_the_dealer_lead_the_first_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine making the first round's dealer first hand, ``viggo.seats`` disagrees."""
    from regelverk.viggo import rounds

    chosen = rounds._first_hand

    def broken(
        options: ViggoOptions, count: int, round_no: int, dealer: int, winner: int
    ) -> tuple[int, tuple[str, ...]]:
        if round_no == 1:
            return dealer, ("VG-SETUP-FIRST-DEALER",)
        return chosen(options, count, round_no, dealer, winner)

    monkeypatch.setattr(rounds, "_first_hand", broken)
    found = _first_disagreement(SEATS)
    assert found is not None and found.kind == "first-round", found


@pytest.mark.clause("VG-VAR-MOST-CARDS-TIE-BREAK", "VG-VAR-MOST-CARDS-DEAL")
def test_seats_binding_sees_a_tie_for_most_cards_go_to_the_last_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a tie for most cards going to the highest-numbered tied seat rather than the first
    tied seat after the winner, ``viggo.seats`` disagrees on a tie."""
    from regelverk.cards import Card
    from regelverk.viggo import rounds

    dealer = rounds.next_dealer

    def broken(state: ViggoState, winner: int, hands: tuple[tuple[Card, ...], ...]) -> int:
        if not state.options.most_cards_deal:
            return dealer(state, winner, hands)
        most = max(len(h) for h in hands)
        return max(s for s, h in enumerate(hands) if len(h) == most)

    monkeypatch.setattr(rounds, "next_dealer", broken)
    found = _first_disagreement(SEATS)
    assert found is not None and found.kind == "most-cards-tie", found


@pytest.mark.clause("VG-DEAL-THIRTEEN-EACH", "VG-DEAL-WHOLE-DECK-THREE-OR-FOUR")
def test_text_tables_binding_sees_a_wrong_three_player_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine dealing eighteen to first hand under seventeen-each-one-aside, the
    encoding (whose sizes come from spec/, not from the engine) disagrees."""
    from regelverk.viggo import rounds

    sizes = rounds.hand_sizes

    def broken(options: ViggoOptions, count: int) -> tuple[int, ...]:
        if count == 3 and options.three_player_deal.value == "seventeen-each-one-aside":
            return (18, 17, 17)
        return sizes(options, count)

    monkeypatch.setattr(rounds, "hand_sizes", broken)
    found = _first_disagreement(TEXT_TABLES)
    assert found is not None and found.kind == "hand-sizes"


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS")
def test_text_tables_binding_sees_the_club_four_rule_at_three_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine's club-four house rule applying at three players too (the rule names a
    four-player game), the binding disagrees on who opens."""
    from regelverk.viggo import rounds

    opens = rounds.club_four_opens

    def broken(options: ViggoOptions, count: int, round_no: int) -> bool:
        if options.club_four_starts and count == 3:
            return True
        return opens(options, count, round_no)

    monkeypatch.setattr(rounds, "club_four_opens", broken)
    found = _first_disagreement(TEXT_TABLES)
    assert found is not None and found.kind == "club-four-opens"


def test_no_viggo_encoding_takes_a_table_from_the_engine() -> None:
    """The encoding's tables are its own: the modules the theorems decide over import no
    rule function or constant of the engine (only data types and options)."""
    import ast
    import inspect

    from regelverk_proofs.viggo import text as viggo_text
    from regelverk_proofs.viggo.encoding import rules as viggo_enc
    from regelverk_proofs.viggo.theorems import beats as viggo_beats
    from regelverk_proofs.viggo.theorems import rules as viggo

    for module in (viggo, viggo_beats, viggo_enc, viggo_text):
        tree = ast.parse(inspect.getsource(module))
        taken = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and node.module is not None
            and node.module.startswith("regelverk.viggo")
        }
        assert taken <= {"regelverk.viggo.options", "regelverk.viggo.state"}, module.__name__


@pytest.mark.clause("VG-TURN-ROUND-THE-TABLE", "VG-PLAY-REPLY-OR-PASS")
@pytest.mark.parametrize("binding", [CARD_STEPS, COUNT_STEPS], ids=lambda b: b.name)
def test_step_bindings_see_a_wrong_next_player(
    binding: Binding, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With play going to the seat two on instead of the next, the step bindings disagree."""
    from regelverk.viggo import play

    monkeypatch.setattr(play, "_next_to_act", lambda state, seat, passed: (seat + 2) % state.count)
    assert _first_disagreement(binding) is not None


@pytest.mark.clause("VG-SCORE-POINT-PER-CARD")
def test_ending_binding_sees_two_points_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """With each card left scoring two points in the engine, ``viggo.ending`` disagrees."""
    from regelverk.viggo import rounds

    monkeypatch.setattr(rounds, "POINTS_PER_CARD", 2)
    found = _first_disagreement(ENDING)
    assert found is not None and found.kind == "score"


@pytest.mark.clause("VG-LOSS-FIRST-TO-53")
def test_ending_binding_sees_a_game_ending_above_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine's losers found only above the losing total, ``viggo.ending``
    disagrees at the boundary."""
    from regelverk.viggo import rounds

    real = rounds.losers

    def above(options: ViggoOptions, scores: tuple[int, ...], winner: int) -> tuple[int, ...]:
        return real(replace(options, loss_points=options.loss_points + 1), scores, winner)

    monkeypatch.setattr(rounds, "losers", above)
    found = _first_disagreement(ENDING)
    assert found is not None and found.kind in ("game-over", "game-on", "losers")


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-DEAL-ROUND-THE-TABLE")
def test_compiled_terms_agree_with_z3() -> None:
    """The Python form of a term that the bindings evaluate gives what Z3 gives, on the beats
    relation under sampled option sets and pairs, and on the deal of a game."""
    from regelverk_proofs.viggo.binding.rules import (
        _abstract_cards,
        _beats_term,
        _deal_fn,
        _option_values,
        _shuffle_values,
        _table_values,
    )
    from regelverk_proofs.viggo.encoding.rules import deal

    _, allowed, _, _ = _beats_term()
    rng = random.Random(5)
    for options in OPTION_SETS[::17]:
        o = BeatsOptions.of(options)
        for _ in range(6):
            a = (rng.randrange(5), rng.randrange(9), False)
            b = (a[0], rng.randrange(9), False)
            term = beats(Chosen.const(a, o).combo, Chosen.const(b, o).combo, o).allowed
            assert bool(allowed([*_option_values(options), *a, *b])) == _holds(term)
            assert _abstract_cards(a)
    options = ViggoOptions()
    state = GAME.deal(options, NAMES[:4], 3)
    values = _table_values(state) + _shuffle_values(state, 4)
    assert bool(_deal_fn(options, 4)(values)) == _holds(
        deal(Table.of_state(state), options, Shuffle.witness(state))
    )


# ---------------------------------------------------------------------------------------------
# (b, c) the theorems: they hold, and every weakening breaks them
# ---------------------------------------------------------------------------------------------

WEAKENED = [(t, w) for t in THEOREMS for w in t.weakenings]


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-PLAY-REPLY-OR-PASS", "VG-SCORE-CUMULATIVE")
@pytest.mark.parametrize(
    ("theorem", "weakening"), WEAKENED, ids=[f"{t.name}-{w.clause}" for t, w in WEAKENED]
)
def test_each_weakening_breaks_its_theorem(theorem: Theorem, weakening: Weakening) -> None:
    """Non-vacuity: with one cited clause weakened the theorem fails, with a readable case."""
    finding = theorem.check(frozenset({weakening.clause}))
    assert finding.outcome is theorem.failure, finding
    assert finding.detail


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-PLAY-REPLY-OR-PASS", "VG-LOSS-FIRST-TO-53")
@pytest.mark.parametrize(
    "theorem",
    [
        t
        for t in THEOREMS
        if t.name.startswith("viggo.beats") or t.name in ("viggo.legal-ending", "viggo.seats")
    ],
    ids=lambda t: t.name,
)
def test_theorem_holds(theorem: Theorem) -> None:
    """The fast theorems hold unweakened (the others run in ``regelverk prove``)."""
    finding = theorem.check(NONE)
    assert theorem.holds(finding), finding.detail


@pytest.mark.clause("VG-VAR-SAME-RANK-ONCE", "VG-VAR-CLUB-THREE-HIGHEST-SINGLE")
def test_option_set_predicates_match_their_terms() -> None:
    """The readings named in the theorems' statements select 96 and 176 of the 256 option sets
    (64 of them under the same-rank-forbids reading of VG-AMB-CLUB-THREE-SAME-RANK), and the
    Python predicates agree with the terms the checks use."""
    irreflexive = [o for o in OPTION_SETS if irreflexive_reading(o)]
    asymmetric = [o for o in OPTION_SETS if asymmetric_reading(o)]
    assert (len(OPTION_SETS), len(irreflexive), len(asymmetric)) == (256, 96, 176)
    forbids = [o for o in OPTION_SETS if o.club_three_same_rank.value == "same-rank-forbids"]
    assert len(forbids) == 64 and all(o in irreflexive for o in forbids)
    for o in OPTION_SETS[::7]:
        terms = BeatsOptions.of(o)
        assert _holds(irreflexive_term(terms)) == irreflexive_reading(o)
        assert _holds(asymmetric_term(terms)) == asymmetric_reading(o)


# ---------------------------------------------------------------------------------------------
# (e) witnesses replayed in the engine
# ---------------------------------------------------------------------------------------------


@pytest.mark.clause(
    "VG-RANK-THREE-BEATS-THREE", "VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-VAR-SAME-RANK-ONCE"
)
@pytest.mark.parametrize("options", OPTION_SETS[::23], ids=lambda o: str(OPTION_SETS.index(o)))
def test_beats_witnesses_replay_in_the_engine(options: ViggoOptions) -> None:
    """Under sampled option sets, a combination beating itself and two beating each other exist
    exactly where the theorems say, and the cards Z3 found do so in the engine too."""
    o = BeatsOptions.of(options)
    for prop, fails in (
        (SELF, not irreflexive_reading(options)),
        (MUTUAL, not asymmetric_reading(options)),
    ):
        chosen = [Chosen.fresh(f"w{i}", o) for i in range(prop.arity)]
        solver = Solver()
        solver.add(prop.violated(chosen, o, NONE))
        verdict = solver.check()
        assert (verdict is Z3Verdict.SAT) == fails
        if not fails:
            continue
        model = solver.model()
        combos = [
            tuple(CARD_OF[i] for i in cards) for cards in realize([c.read(model) for c in chosen])
        ]
        if len(combos) == 1:
            combos = combos * 2
        else:
            assert not set(combos[0]) & set(combos[1])
        first, second = (classify(c, options) for c in combos)
        assert first is not None and second is not None
        assert engine_beats(first, second, options).allowed
        assert engine_beats(second, first, options).allowed


@pytest.mark.clause("VG-LOSS-FIRST-TO-53", "VG-SCORE-CUMULATIVE")
def test_exactly_53_overshoot_replays_in_the_engine() -> None:
    """The witness of viggo.exactly-53-can-run-forever, replayed: from totals 54 and 54 under
    the exactly reading (a position read through the engine's position reader), three more
    rounds of random play leave the game on, every total still past 53."""
    finding = EXACT_OVERSHOOT.check(NONE)
    assert finding.outcome is EXACT_OVERSHOOT.success
    assert "P1 54, P2 54" in finding.detail
    options = ViggoOptions(loss_threshold_rule=LossThresholdRule.EXACTLY)
    data = GAME.position_to_data(GAME.deal(options, NAMES[:2], 11))
    data["scores"] = {"P1": 54, "P2": 54}
    data["history"] = [[54, 54]]
    state = GAME.position_from_data(data, options)
    rng = random.Random(11)
    while state.round < 5:
        assert not GAME.is_over(state)
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
    assert not GAME.is_over(state)
    assert min(state.scores) > 53


# ---------------------------------------------------------------------------------------------
# (d) scenarios
# ---------------------------------------------------------------------------------------------


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS", "VG-PLAY-PASS-NOT-FINAL", "VG-COMBO-SINGLE")
def test_no_trick_step_keeps_the_ranking() -> None:
    """ "Can a Viggo trick go on for ever?" No: no step stays in the trick without lowering the
    ranking, for the clauses of passing, the trick invariant and non-empty combinations."""
    answer = ask(TRICK_STEP, "stays-in-trick and not ranking-lowered")
    assert answer.possible is False
    assert answer.forbidding == (
        "VG-COMBO-SINGLE",
        "VG-PLAY-PASS-NOT-FINAL",
        "VG-PLAY-REPLY-OR-PASS",
    )


@pytest.mark.clause("VG-PLAY-TRICK-SET-ASIDE")
def test_a_pass_can_end_a_four_player_trick() -> None:
    """A pass can end a trick of four players; a step can leave a one-lap trick open."""
    assert ask(TRICK_STEP, "trick-ends and passes and players = 4").possible is True
    open_lap = ask(TRICK_STEP, "stays-in-trick and final-pass and one-lap and players = 3")
    assert open_lap.possible is True


@pytest.mark.clause("VG-PLAY-NO-TYPE-SWITCH", "VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
def test_a_pair_never_beats_a_run() -> None:
    """Can a pair beat a run? No, by the no-switching rule, under every option set."""
    answer = ask(BEATS_SCENARIO, "beats and new-kind = pair and old-kind = sequence")
    assert answer.possible is False
    assert answer.forbidding == ("VG-PLAY-NO-TYPE-SWITCH",)


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "VG-PLAY-EIGHTS-BEAT-FIVES")
def test_beats_scenario_ranks() -> None:
    """Eights beat fives; a lower rank beats only under three-trumps or grouped rows; an equal
    rank beats without the equal reading or the club-three rule (a three on a three)."""
    assert ask(
        BEATS_SCENARIO,
        "beats and new-kind = pair and old-kind = pair and new-rank = eight and old-rank = five",
    ).possible
    lower = ask(BEATS_SCENARIO, "beats and rank-gap < 0 and not three-trumps and not grouped-rows")
    assert lower.possible is False
    assert lower.forbidding == ("VG-PLAY-BEAT-SAME-TYPE-HIGHER",)
    tie = ask(
        BEATS_SCENARIO, "beats and rank-gap = 0 and not equal-allowed and not club-three-rule"
    )
    assert tie.possible is True
    assert "3" in tie.witness


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS")
def test_scenarios_are_listed() -> None:
    """Both scenarios belong to the viggo rulebook."""
    assert {s.name for s in SCENARIOS} == {"trick-step", "beats"}
    assert {s.rulebook for s in SCENARIOS} == {"viggo"}


@pytest.mark.clause("VG-LOSS-FIRST-TO-53", "VG-DEAL-THIRTEEN-EACH", "VG-SCORE-POINT-PER-CARD")
def test_constants_come_from_the_spec() -> None:
    """The losing total, the hand size and the points of a card are the spec's parameters, read
    by the engine (the encodings read them from the engine)."""
    from regelverk.registry import parameter
    from regelverk.viggo import rounds

    assert ViggoOptions().loss_points == parameter("VG-LOSS-FIRST-TO-53", "loss_threshold")
    assert parameter("VG-DEAL-THIRTEEN-EACH", "hand_size") == rounds.HAND_SIZE
    assert parameter("VG-SCORE-POINT-PER-CARD", "points_per_card") == rounds.POINTS_PER_CARD
    assert parameter("VG-SCORE-WINNER-ZERO", "winner_points") == rounds.WINNER_POINTS
