"""The Viggo proofs tied to the engine: the encodings agree with ``regelverk.viggo`` on what is
allowed and on where every step leads; every theorem fails when a clause it cites is weakened;
the scenarios answer as expected; the witnesses replay in the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regelverk.cards import Card
from regelverk.engine import IllegalActionError
from regelverk.viggo import GAME, Keep, Pass, Phase, Play, ViggoOptions, classify
from regelverk.viggo import beats as engine_beats
from regelverk.viggo.combos import CARD_OF
from regelverk.viggo.options import (
    ClubFourOpening,
    ClubThree,
    DraftDiscards,
    EqualRankReply,
    ExampleTrickEnd,
    LeadAfterTie,
    LossThresholdRule,
    PassIsFinal,
    SequenceWrap,
    ThreeInCombination,
    ThreePlayerDeal,
)
from regelverk.viggo.state import ViggoAction, ViggoState
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Theorem, Weakening
from regelverk_proofs.viggo import (
    EXACT_OVERSHOOT,
    SCENARIOS,
    THEOREMS,
    TRICK_STEP,
)
from regelverk_proofs.viggo_beats import (
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
from regelverk_proofs.viggo_enc import (
    BeatsOptions,
    Counts,
    Readings,
    Shuffle,
    Table,
    beats,
    card_combo,
    count_pass_step,
    count_play_step,
    keep_step,
    legal_play,
    pass_step,
    play_step,
)
from regelverk_proofs.z3api import Bool, Int, Solver, Verdict

NAMES = ("P1", "P2", "P3", "P4")
NONE: frozenset[str] = frozenset()


def _holds(term: Bool) -> bool:
    """Whether a closed term (constants only) is true."""
    solver = Solver()
    solver.add(term)
    return solver.check() is Verdict.SAT


def _cards(cards: tuple[Card, ...]) -> tuple[Bool, ...]:
    held = set(cards)
    return tuple(Bool.const(c in held) for c in CARD_OF)


# ---------------------------------------------------------------------------------------------
# (a) combinations and "beats": engine against encoding
# ---------------------------------------------------------------------------------------------


@st.composite
def card_sets(draw: st.DrawFn) -> tuple[Card, ...]:
    """Mostly combinations (sets of one rank, runs of five), sometimes any one to six cards."""
    shape = draw(st.sampled_from(["set", "set", "run", "run", "any"]))
    if shape == "set":
        rank = draw(st.integers(0, 12))
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
        return tuple(CARD_OF[4 * rank + s] for s in suits)
    if shape == "run":
        start = draw(st.integers(0, 12))
        return tuple(CARD_OF[4 * ((start + i) % 13) + draw(st.integers(0, 3))] for i in range(5))
    picks = draw(st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True))
    return tuple(CARD_OF[i] for i in picks)


OPTION_SETS = beats_option_sets()


def _abstract(cards: tuple[Card, ...]) -> tuple[int, int, bool]:
    """The abstract combination of a card set the engine classifies (kind, position, 3♣)."""
    from regelverk.viggo.combos import position

    positions = sorted({position(c) for c in cards})
    club = any(c.code == "3C" for c in cards)
    if len(cards) < 5:
        return len(cards) - 1, positions[0], club
    start = next(s for s in range(13) if {(s + i) % 13 for i in range(5)} == set(positions))
    return 4, start, club


@pytest.mark.clause(
    "VG-COMBO-SINGLE",
    "VG-COMBO-SEQUENCE-OF-FIVE",
    "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    "VG-PLAY-NO-TYPE-SWITCH",
    "VG-RANK-THREE-BEATS-THREE",
    "VG-VAR-CLUB-THREE-HIGHEST-SINGLE",
    "VG-PLAY-THREE-COMBINATION-BEATS",
)
@settings(max_examples=50)
@given(card_sets(), card_sets(), st.sampled_from(OPTION_SETS))
def test_encoded_beats_agrees_with_engine(
    new_cards: tuple[Card, ...], old_cards: tuple[Card, ...], options: ViggoOptions
) -> None:
    """classify and beats of the engine against the card-level and the abstract encodings."""
    new, old = classify(new_cards, options), classify(old_cards, options)
    x = card_combo(_cards(new_cards), options, NONE)
    assert _holds(x.valid) == (new is not None)
    if new is None or old is None:
        return
    y = card_combo(_cards(old_cards), options, NONE)
    verdict = engine_beats(new, old, options)
    reply = beats(x, y, options)
    assert _holds(reply.allowed) == verdict.allowed
    if verdict.allowed:
        assert _holds(reply.equal_only) == (not verdict.strict)
    o = BeatsOptions.of(options)
    a = Chosen.const(_abstract(new_cards), o)
    b = Chosen.const(_abstract(old_cards), o)
    assert _holds(a.exists & b.exists)
    assert _holds(beats(a.combo, b.combo, o).allowed) == verdict.allowed


# ---------------------------------------------------------------------------------------------
# (b) the engine's moves against the transition relation
# ---------------------------------------------------------------------------------------------

VARIANTS = (
    ViggoOptions(),
    ViggoOptions(
        pass_is_final=PassIsFinal.FINAL,
        example_trick_end=ExampleTrickEnd.ONE_LAP,
        draft_discards=DraftDiscards.UNDER_STOCK,
    ),
    ViggoOptions(
        equal_rank_reply=EqualRankReply.EQUAL_ALLOWED,
        lead_after_tie=LeadAfterTie.FIRST_TO_PLAY,
        club_three_on_top=ClubThree.CLUB_THREE_ON_TOP,
        three_player_deal=ThreePlayerDeal.DEAL_ALL_UNEVEN,
    ),
    ViggoOptions(
        sequence_wrap=SequenceWrap.WRAP,
        three_in_combination=ThreeInCombination.THREE_TRUMPS,
        pass_is_final=PassIsFinal.FINAL,
        three_player_deal=ThreePlayerDeal.SEVENTEEN_EACH_ONE_ASIDE,
        club_four_starts=True,
        club_four_opening=ClubFourOpening.MUST_INCLUDE,
        loss_points=8,
    ),
)


def _allowed(state: ViggoState, action: ViggoAction) -> bool:
    try:
        GAME.check(state, action)
    except IllegalActionError:
        return False
    return True


def _encoded(state: ViggoState, action: ViggoAction, after: ViggoState | None) -> Bool:
    """The encoding's legality of ``action`` and, given the engine's next state, the step."""
    pre = Table.of_state(state)
    post = Table.of_state(after) if after is not None else Table.fresh("post", state.count)
    o, readings = state.options, Readings.of(state.options)
    if isinstance(action, Keep):
        legal, step = keep_step(pre, _cards((action.card,)), post, o, NONE)
    elif isinstance(action, Pass):
        legal, step = pass_step(pre, post, o, readings, NONE)
    elif after is None:
        legal, _ = legal_play(pre, _cards(action.cards), o, state.round)
        return legal
    else:
        redealt = after.round != state.round
        legal, step = play_step(
            pre,
            _cards(action.cards),
            post,
            o,
            readings=readings,
            round_no=state.round,
            shuffle=Shuffle.witness(after) if redealt else None,
            weaken=NONE,
        )
    return legal if after is None else legal & step


def _counted(state: ViggoState, action: ViggoAction, after: ViggoState) -> Bool:
    """The count-level step of a pass or play that stays within the round."""
    pre, post = Counts.of_state(state), Counts.of_state(after)
    readings = Readings.of(state.options)
    if isinstance(action, Pass):
        legal, _, step = count_pass_step(pre, post, state.options, readings, NONE)
        return legal & step
    assert isinstance(action, Play)
    laid = Int.const(len(action.cards))
    legal, _closes, out, step = count_play_step(
        pre, laid, post, state.options, readings=readings, weaken=NONE
    )
    # a closing step's next leader is not tracked by counts; the cards are
    return legal & ~out & step


def _candidates(state: ViggoState, rng: random.Random) -> list[ViggoAction]:
    """A legal action, a random set of cards from the hand (or a random card to keep), a pass."""
    found: list[ViggoAction] = [rng.choice(GAME.legal_actions(state))]
    if state.phase is Phase.DRAFT:
        found.append(Keep(card=rng.choice(state.stock[:4] or CARD_OF)))
        return found
    hand = state.hands[state.turn]
    found.append(Play(cards=tuple(rng.sample(hand, rng.randint(1, min(5, len(hand)))))))
    found.append(Pass())
    return found


@pytest.mark.clause(
    "VG-PLAY-REPLY-OR-PASS",
    "VG-PLAY-PASS-NOT-FINAL",
    "VG-PLAY-TRICK-SET-ASIDE",
    "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    "VG-DRAFT-TAKE-TWO-SEE-ONE",
    "VG-DEAL-ROUND-THE-TABLE",
    "VG-SCORE-POINT-PER-CARD",
)
@settings(max_examples=20)
@given(
    st.sampled_from((2, 3, 4)),
    st.sampled_from(range(len(VARIANTS))),
    st.integers(0, 10_000),
    st.integers(0, 90),
)
def test_engine_steps_satisfy_the_encoding(count: int, variant: int, seed: int, steps: int) -> None:
    """Random legal play; then legal and illegal candidates: the engine and the encoding agree
    on allowed-or-not, and each allowed step's result satisfies the card-level relation (and,
    within a round, the count-level one)."""
    rng = random.Random(seed)
    state = GAME.deal(VARIANTS[variant], NAMES[:count], seed)
    for _ in range(steps):
        if GAME.is_over(state):
            return
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state))).state
    if GAME.is_over(state):
        return
    for action in _candidates(state, rng):
        allowed = _allowed(state, action)
        assert _holds(_encoded(state, action, None)) == allowed, action
        if not allowed:
            continue
        after = GAME.apply(state, action).state
        assert _holds(_encoded(state, action, after)), action
        if state.phase is Phase.PLAY and after.round == state.round and after.phase is Phase.PLAY:
            assert _holds(_counted(state, action, after)), action


@pytest.mark.clause(
    "VG-WIN-ROUND-ENDS-AT-FIRST-OUT",
    "VG-SCORE-POINT-PER-CARD",
    "VG-SCORE-CUMULATIVE",
    "VG-LOSS-FIRST-TO-53",
)
@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("loss_points", [53, 3])
def test_round_ending_play_satisfies_the_encoding(count: int, loss_points: int) -> None:
    """The play that ends a round (scored, then re-dealt or the game over, as the loss total
    says) satisfies the card-level relation, and the encoding allows it."""
    options = ViggoOptions(loss_points=loss_points)
    rng = random.Random(count * 100 + loss_points)
    state = GAME.deal(options, NAMES[:count], count)
    ended = 0
    while ended < 2 and not GAME.is_over(state):
        action = rng.choice(GAME.legal_actions(state))
        after = GAME.apply(state, action).state
        if after.round != state.round or after.phase is Phase.OVER:
            assert _holds(_encoded(state, action, after)), action
            ended += 1
        state = after
    assert ended == 2 or GAME.is_over(state)


@pytest.mark.clause(
    "VG-DEAL-THIRTEEN-EACH", "VG-DEAL-ROUND-THE-TABLE", "VG-DRAFT-NO-DEAL-TWO-PLAYERS"
)
@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("reading", list(ThreePlayerDeal))
def test_engine_deal_satisfies_the_deal_relation(count: int, reading: ThreePlayerDeal) -> None:
    """A fresh game's cards satisfy the deal relation, hand sizes included."""
    from regelverk_proofs.viggo_enc import deal

    options = ViggoOptions(three_player_deal=reading)
    state = GAME.deal(options, NAMES[:count], 7)
    assert _holds(deal(Table.of_state(state), options, Shuffle.witness(state)))


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
    [t for t in THEOREMS if t.name.startswith("viggo.beats") or t.name == "viggo.legal-ending"],
    ids=lambda t: t.name,
)
def test_theorem_holds(theorem: Theorem) -> None:
    """The fast theorems hold unweakened (the others run in ``regelverk prove``)."""
    finding = theorem.check(NONE)
    assert theorem.holds(finding), finding.detail


@pytest.mark.clause("VG-VAR-SAME-RANK-ONCE", "VG-VAR-CLUB-THREE-HIGHEST-SINGLE")
def test_option_set_predicates_match_their_terms() -> None:
    """The readings named in the theorems' statements select 32 and 112 option sets, and the
    Python predicates agree with the terms the checks use."""
    irreflexive = [o for o in OPTION_SETS if irreflexive_reading(o)]
    asymmetric = [o for o in OPTION_SETS if asymmetric_reading(o)]
    assert (len(OPTION_SETS), len(irreflexive), len(asymmetric)) == (192, 32, 112)
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
        assert (verdict is Verdict.SAT) == fails
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
