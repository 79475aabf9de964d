"""The end-of-deal theorems of Vändåtta (``regelverk_proofs.vandatta.theorems.end``): every theorem
holds, every weakening breaks it, an unknown answer never counts as holding, the scenarios answer
as the rulebooks say, every binding of :mod:`regelverk_proofs.vandatta.binding.end` agrees with the
engine and covers its kinds, and each binding disagrees when an engine rule it compares is
broken."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from regelverk.cards import Card, french_deck
from regelverk.engine import with_options
from regelverk.registry import parameter
from regelverk.vandatta import (
    GAME,
    VANDATTA,
    VVV8,
    adjudication,
    attempts,
    calling,
    join,
    playing,
    scoring,
    talon,
)
from regelverk.vandatta.rules import drawn_deal_passes
from regelverk.vandatta.scoring import card_points, reaches_limit
from regelverk.vandatta.state import Phase, Play, Remark, RemarkKind, State, Veto
from regelverk.vandatta.table import Table
from regelverk_proofs.binding import Binding, check, clear
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Outcome
from regelverk_proofs.vandatta.binding.end import (
    BLOCKED,
    GOING_OUT,
    LASSO,
    LATE_JOINERS,
    OFFICIAL,
    SCORES,
    STEPS,
    TEXT_TABLES,
    compare_scores,
    ranking_falls,
)
from regelverk_proofs.vandatta.encoding.end import Rules, talon_limit
from regelverk_proofs.vandatta.theorems.end import (
    LEGAL_GOING_OUT,
    OFFICIAL_NEEDS_THREE,
    SCENARIOS,
    THEOREMS,
    going_out_finding,
)
from regelverk_proofs.z3api import Solver, Verdict

NOTHING: frozenset[str] = frozenset()
BINDINGS = (GOING_OUT, SCORES, OFFICIAL, BLOCKED, LATE_JOINERS, STEPS, LASSO, TEXT_TABLES)

# --- the theorems and their weakenings --------------------------------------------------------


@pytest.mark.clause(
    "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "VA-SCORING-GAME-WINNER",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
)
@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
def test_theorem_holds_unweakened(theorem: Any) -> None:
    finding = theorem.check(NOTHING)
    assert theorem.holds(finding), finding.detail
    assert finding.cases >= 1


WEAKENINGS = [(t, w) for t in THEOREMS for w in t.weakenings]


@pytest.mark.clause(
    "V8-CALL-REQUIRED-TO-WIN",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-PRESENCE-ABSENT-NOT-ACTIVE",
    "VA-SCORING-EIGHT",
    "V8-WIN-BLOCKED-DEAL-VOID",
)
@pytest.mark.parametrize(
    ("theorem", "weakening"), WEAKENINGS, ids=[f"{t.name}-{w.clause}" for t, w in WEAKENINGS]
)
def test_every_weakening_breaks_its_theorem(theorem: Any, weakening: Any) -> None:
    finding = theorem.check(frozenset({weakening.clause}))
    assert finding.outcome is theorem.failure, finding.detail
    assert finding.detail.strip()


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_going_out_counterexample_names_the_ace() -> None:
    finding = LEGAL_GOING_OUT.check(frozenset({"V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT"}))
    assert "A♠" in finding.detail or "A♥" in finding.detail or "8♥" in finding.detail


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_official_counterexample_has_two_active_players() -> None:
    finding = OFFICIAL_NEEDS_THREE.check(frozenset({"V8-LOSS-OFFICIAL-NEEDS-THREE"}))
    assert "2 seats" in finding.detail and "recorded" in finding.detail


# --- scenarios --------------------------------------------------------------------------------


def _scenario(rulebook: str, name: str) -> Any:
    return next(s for s in SCENARIOS if s.rulebook == rulebook and s.name == name)


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_vvv8_nobody_goes_out_on_an_eight() -> None:
    answer = ask(_scenario("vvv8", "going-out"), "goes-out and last-rank = eight")
    assert answer.possible is False
    assert answer.forbidding == ("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",)


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-EIGHT-ENDS-TURN")
def test_vvv8_no_eight_wins_a_deal_even_as_a_mistake() -> None:
    answer = ask(_scenario("vvv8", "going-out"), "wins and last-rank = eight")
    assert answer.possible is False
    assert set(answer.forbidding) & {"V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-EIGHT-ENDS-TURN"}


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "V8-CALL-REQUIRED-TO-WIN")
def test_vvv8_going_out_on_an_ace_or_without_a_call() -> None:
    scenario = _scenario("vvv8", "going-out")
    ace = ask(scenario, "goes-out and last-rank = ace")
    assert ace.possible is False and "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT" in ace.forbidding
    uncalled = ask(scenario, "wins and not call-stands")
    assert uncalled.possible is False and "V8-CALL-REQUIRED-TO-WIN" in uncalled.forbidding
    plain = ask(scenario, "wins and last-rank = 7")
    assert plain.possible is True and plain.witness


@pytest.mark.clause("VA-WIN-NOT-ON-ACE-OR-EIGHT", "VA-WIN-FIRST-EMPTY-HAND")
def test_vandatta_nobody_goes_out_on_an_eight_but_needs_no_call() -> None:
    scenario = _scenario("vandatta", "going-out")
    eight = ask(scenario, "goes-out and last-rank = eight")
    assert eight.possible is False
    assert eight.forbidding == ("VA-WIN-NOT-ON-ACE-OR-EIGHT",)
    assert ask(scenario, "wins and not call-stands").possible is True


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_vvv8_no_official_result_with_two_active_players() -> None:
    scenario = _scenario("vvv8", "official-result")
    two = ask(scenario, "official and active-players = 2")
    assert two.possible is False
    assert two.forbidding == ("V8-LOSS-OFFICIAL-NEEDS-THREE",)
    seated = ask(scenario, "official and players = 2")
    assert seated.possible is False and seated.forbidding == ("V8-LOSS-OFFICIAL-NEEDS-THREE",)
    assert ask(scenario, "recorded and away >= 1").possible is True


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT", "VA-SCORING-GAME-WINNER")
@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
def test_an_unknown_answer_never_holds(theorem: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the solver answering unknown to everything, no theorem is proved or witnessed (the
    standing-call checks once counted an unknown as proved)."""
    monkeypatch.setattr(Solver, "check", lambda self: Verdict.UNKNOWN)
    monkeypatch.setattr(Solver, "reason_unknown", lambda self: "timeout (forced)")
    finding = theorem.check(NOTHING)
    assert not theorem.holds(finding), finding.detail
    assert finding.outcome is Outcome.UNKNOWN


# --- constants from the spec ------------------------------------------------------------------


@pytest.mark.clause(
    "VA-SCORING-TEN",
    "VA-SCORING-ACE",
    "VA-SCORING-COURT",
    "VA-SCORING-EIGHT",
    "VA-SCORING-OTHER",
    "VA-SCORING-GAME-WINNER",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "VA-DEAL-SEVEN-CARDS",
    "V8-DEAL-SEVEN-ROUNDS",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-TWO-DECKS",
)
def test_the_engine_takes_its_ending_constants_from_the_spec() -> None:
    assert card_points(tuple(Card.parse(c) for c in ("10H", "AS", "KD", "8C", "3S"))) == sum(
        parameter(clause, name)
        for clause, name in (
            ("VA-SCORING-TEN", "ten_points"),
            ("VA-SCORING-ACE", "ace_points"),
            ("VA-SCORING-COURT", "court_points"),
            ("VA-SCORING-EIGHT", "eight_points"),
            ("VA-SCORING-OTHER", "other_points"),
        )
    )
    assert VANDATTA.score_limit == parameter("VA-SCORING-GAME-WINNER", "score_limit")
    assert VVV8.min_active_for_result == parameter(
        "V8-LOSS-OFFICIAL-NEEDS-THREE", "min_active_players"
    )
    assert VANDATTA.hand_size == parameter("VA-DEAL-SEVEN-CARDS", "hand_size")
    assert VVV8.hand_size == parameter("V8-DEAL-SEVEN-ROUNDS", "hand_size")
    assert drawn_deal_passes(VVV8, 1) == parameter("V8-TALON-DRAWN-ONE-DECK", "talon_passes")
    assert drawn_deal_passes(VVV8, 2) == parameter("V8-TALON-DRAWN-TWO-DECKS", "talon_passes")
    assert talon_limit(Rules.of(VVV8), 1) == drawn_deal_passes(VVV8, 1)


@pytest.mark.clause("VA-SCORING-GAME-WINNER")
def test_a_total_at_the_limit_is_not_below_it() -> None:
    limit = VANDATTA.score_limit
    assert [reaches_limit(t, limit) for t in (limit - 1, limit, limit + 1)] == [False, True, True]


# --- the bindings -----------------------------------------------------------------------------


@pytest.fixture
def fresh() -> Iterator[None]:
    """Forget the binding reports before and after a test (a broken engine must be compared
    afresh, and must not leave its report behind)."""
    clear()
    yield
    clear()


@pytest.mark.clause(
    "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT",
    "V8-CALL-REQUIRED-TO-WIN",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-CALL-FORFEITED-IF-ABSENT",
    "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT",
    "VA-SCORING-OTHERS-COUNT",
    "VA-SCORING-GAME-WINNER",
    "VA-SESSION-NOBODY-ALONE",
    "VA-WIN-BLOCKED-DEAL-VOID",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-LOSS-PLAYER-BEFORE-WINNER",
    "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-TWO-DECKS",
    "V8-WIN-BLOCKED-DEAL-VOID",
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
    "V8-TALON-REBUILD-UNSHUFFLED",
)
@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: b.name)
def test_binding_agrees_and_covers_its_kinds(binding: Binding) -> None:
    report = check(binding)
    assert report.disagreement is None, report.summary()
    assert not report.missing, report.summary()
    assert {kind for kind, _ in report.counts} == set(binding.kinds)
    assert report.agrees


def test_every_theorem_is_bound() -> None:
    for theorem in THEOREMS:
        assert theorem.bindings, theorem.name


def _disagrees(binding: Binding) -> str:
    clear()
    report = check(binding)
    assert report.disagreement is not None, report.summary()
    return report.disagreement


def _bar_eights_only(options: Any, cards: tuple[Card, ...], onto: Card | None) -> bool:
    return cards[-1].rank.value == 8


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_going_out_binding_sees_an_ace_allowed(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(playing, "last_card_barred", _bar_eights_only)
    monkeypatch.setattr(attempts, "last_card_barred", _bar_eights_only)
    assert "last-ace" in _disagrees(GOING_OUT)


@pytest.mark.clause("V8-CALL-VALID-NEXT-TURN-ONLY")
def test_going_out_binding_sees_a_call_that_never_lapses(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def keep(table: Table, seat: int, *, call: bool) -> None:
        if call:
            table.calls = table.calls | {seat}

    monkeypatch.setattr(calling, "_utgang_calls", keep)
    assert _disagrees(GOING_OUT)


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT")
def test_going_out_binding_sees_a_failed_going_out_unpunished(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(attempts, "_failed_out", lambda state, play, error, no_call: None)
    assert _disagrees(GOING_OUT)


@pytest.mark.clause("VA-SCORING-GAME-WINNER")
def test_scores_binding_sees_the_match_end_above_the_limit(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(scoring, "reaches_limit", lambda total, limit: total > limit)
    assert _disagrees(SCORES)


@pytest.mark.clause("VA-SCORING-EIGHT")
def test_scores_binding_sees_another_points_table(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(scoring, "card_points", lambda cards: 5 * len(cards))
    assert _disagrees(SCORES)


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
def test_official_binding_sees_the_wrong_neighbour_lose(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(
        scoring, "loser_of", lambda table, winner: (winner + 1) % len(table.players)
    )
    assert _disagrees(OFFICIAL)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_official_binding_sees_a_result_recorded_with_two(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    original = scoring.tally

    def lenient(table: Table, winner: int, loser: int) -> None:
        table.active_at_start = max(table.active_at_start, 3)
        original(table, winner, loser)

    monkeypatch.setattr(scoring, "tally", lenient)
    assert "unofficial" in _disagrees(OFFICIAL)


@pytest.mark.clause("VA-SESSION-NEXT-DEALER")
def test_scores_binding_sees_the_deal_pass_two_seats_on(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def skipping(table: Table, winner: int | None, loser: int | None) -> None:
        dealer = table.dealer if table.dealer is not None else 0
        table.dealer = (dealer + 2) % len(table.players)

    monkeypatch.setattr(scoring, "next_dealer", skipping)
    assert "next-dealer" in _disagrees(SCORES)


@pytest.mark.clause("V8-SESSION-LOSER-DEALS-NEXT")
def test_official_binding_sees_the_winner_deal_next(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def winner_deals(table: Table, winner: int | None, loser: int | None) -> None:
        table.dealer = winner

    monkeypatch.setattr(scoring, "next_dealer", winner_deals)
    assert "next-dealer" in _disagrees(OFFICIAL)


@pytest.mark.clause("V8-PEN-CARDS-COUNT-AS-HELD", "V8-WIN-BLOCKED-DEAL-VOID")
def test_blocked_binding_sees_face_down_cards_left_out(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def hand_only(table: Table) -> tuple[int, int]:
        count = len(table.players)
        dealer = table.dealer if table.dealer is not None else count - 1
        order = [(dealer + k) % count for k in range(1, count + 1)]
        order = [s for s in order if s not in table.record.out | table.benched]
        worth = {s: card_points(table.hands[s]) for s in order}
        low = min(worth.values())
        return next(s for s in order if worth[s] == low), low

    monkeypatch.setattr(scoring, "cheapest_hand", hand_only)
    assert "blocked-winner" in _disagrees(BLOCKED)


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER")
def test_blocked_binding_sees_the_winner_lose_too(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    original = scoring.loser_of

    def last_passer(table: Table, winner: int) -> int | None:
        if table.options.loser_rule.value == "last-turn-before" and table.previous is not None:
            return table.previous
        return original(table, winner)

    monkeypatch.setattr(scoring, "loser_of", last_passer)
    assert "blocked-official" in _disagrees(BLOCKED)


@pytest.mark.clause("V8-SESSION-DEALER-WITHOUT-LOSER", "V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_blocked_binding_sees_a_new_draw_skipped(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(
        scoring, "_new_draw_due", lambda table, winner, loser: winner is None or loser is None
    )
    assert "blocked-new-draw" in _disagrees(BLOCKED)


@pytest.mark.clause("V8-DEAL-SEVEN-ROUNDS", "V8-JOIN-LATE-TAKE-FREE-SEAT")
def test_late_joiner_binding_sees_a_seat_the_pack_cannot_deal(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(join, "_pack_error", lambda state, count: None)
    assert "pack-short" in _disagrees(LATE_JOINERS)


@pytest.mark.clause("V8-PRESENCE-PAUSE-BELOW-TWO")
def test_late_joiner_binding_sees_a_step_in_during_a_pause(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(join, "paused", lambda state: False)
    assert "paused" in _disagrees(LATE_JOINERS)


@pytest.mark.clause("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN")
def test_late_joiner_binding_sees_the_turn_left_with_the_absent(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(adjudication, "_turn_to_the_returner", lambda table, seat: None)
    assert "return-takes-turn" in _disagrees(LATE_JOINERS)


@pytest.mark.clause("V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-TWO-DECKS")
def test_steps_binding_sees_a_deal_never_drawn(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def count_only(table: Table) -> None:
        table.talon_passes += 1

    monkeypatch.setattr(talon, "count_pass", count_only)
    assert _disagrees(STEPS)


@pytest.mark.clause("V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK")
def test_lasso_binding_sees_free_time_deals_drawn(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def always(table: Table) -> None:
        table.talon_passes += 1
        if table.talon_passes >= 3:
            table.drawn_deal = True

    monkeypatch.setattr(talon, "count_pass", always)
    assert _disagrees(LASSO)


# --- findings -----------------------------------------------------------------------------------


@pytest.mark.clause("V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT", "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_a_failed_going_out_does_not_win_when_usable_penalty_finds_no_card() -> None:
    """Under penalty_cards_usable = at-next-turn-start a spelförare's penalty cards go straight
    to his hand. When the talon is empty and cannot be rebuilt the penalty finds no card; the
    ace he laid as his last card stands, but he is not out. (The encoding first found the
    engine letting him win here; the engine now records an empty face-down set, as under the
    other readings, and the theorem holds under both readings.)"""
    options = with_options(VVV8, {"penalty_cards_usable": "at-next-turn-start"})
    assert going_out_finding(Rules.of(options)).outcome is Outcome.PROVED
    assert going_out_finding(Rules.of(VVV8)).outcome is Outcome.PROVED
    deck = [c.code for c in french_deck(1)]
    rest = [c for c in deck if c not in ("5H", "AH")]
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": ["AH"], "Bo": rest[:25], "Cy": rest[25:]},
        "pile": ["5H"],
        "stock": [],
        "turn": "Ann",
        "previous": "Cy",
        "calls": ["Ann"],
    }
    state = GAME.position_from_data(data, options)
    ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("AH"),)))
    assert ruling.allowed is False
    assert ruling.state.winner is None and ruling.state.phase is Phase.PLAY
    assert not ruling.state.hands[0]


def _falls(before: State, after: State) -> bool:
    falls = ranking_falls(before, after)
    assert falls is not None
    return falls


@pytest.mark.clause("V8-PEN-VETO-RIGHT", "V8-PEN-COMMENT-THREE", "V8-TALON-DRAWN-ONE-DECK")
def test_finding_vetoed_penalties_can_stall_a_coffee_break_deal() -> None:
    """Outside the ranking theorem's moves of play: a forbidden remark costs three cards, a
    caller vetoes them back onto the talon, and the position is exactly as before; repeated, the
    coffee-break deal never ends although no move of play is made."""
    data = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": ["9S", "5H", "KD"], "Bo": ["7C"], "Cy": ["2D", "3D", "4D"]},
        "pile": ["KH"],
        "stock": ["4C", "6D", "7D", "9D"],
        "turn": "Ann",
        "previous": "Cy",
        "calls": ["Bo"],
    }
    start = GAME.position_from_data(data, VVV8)
    state = start
    for _ in range(3):
        ruling = GAME.attempt(state, Remark(player=2, kind=RemarkKind.OTHER_HAND))
        assert not ruling.allowed and _falls(state, ruling.state)
        vetoed = GAME.attempt(ruling.state, Veto(player=1))
        assert vetoed.allowed
        state = vetoed.state
    assert state == start


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SESSION-NOBODY-ALONE")
@pytest.mark.parametrize(
    ("points", "over"), [((99, 99, 99), True), ((10, 99, 70), True), ((10, 20, 99), False)]
)
def test_vandatta_match_ends_when_at_most_one_is_below_100(
    points: tuple[int, int, int], over: bool
) -> None:
    """A deal won by P1 with every other player holding an eight: the encoding and the engine
    agree on points, drop-outs and the end of the match."""
    data = {
        "players": ["P1", "P2", "P3"],
        "hands": {"P1": ["5H"], "P2": ["8C", "2D"], "P3": ["8D", "3S"]},
        "pile": ["6H"],
        "turn": "P1",
        "record": {"points": {"P1": points[0], "P2": points[1], "P3": points[2]}},
    }
    state = GAME.position_from_data(data, VANDATTA)
    ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("5H"),)))
    assert ruling.allowed
    assert all(c.agrees for c in compare_scores(state, ruling.state))
    below = [s for s in range(3) if s not in ruling.state.record.out]
    assert (ruling.state.phase is Phase.MATCH_OVER) is over
    assert (len(below) <= 1) is over


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SESSION-NOBODY-ALONE")
def test_scores_binding_sees_players_at_the_limit_dropping_out_under_play_on(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """Broken on purpose: an engine that ignores over_limit = play-on (everyone at the limit
    drops out) disagrees with the encoding."""
    original = scoring.score_points

    def eliminate(table: Table, winner: int | None) -> tuple[int | None, bool]:
        kept = table.options
        table.options = with_options(kept, {"over_limit": "eliminated"})
        try:
            return original(table, winner)
        finally:
            table.options = kept

    monkeypatch.setattr(scoring, "score_points", eliminate)
    assert _disagrees(SCORES)


@pytest.mark.clause("VA-WIN-BLOCKED-DEAL-VOID")
def test_scores_binding_sees_a_blocked_deal_won_by_the_wrong_hand(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """Broken on purpose: under blocked_deal = fewest-points-wins the dearest hand wins."""
    monkeypatch.setattr(scoring, "cheapest_hand", lambda table: (0, 0))
    assert "cheapest" in _disagrees(SCORES)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_official_binding_sees_a_waiting_joiner_counted_active(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """With the engine's count of active players taking its shortcut whenever nobody is away
    or out (forgetting a late joiner who waits), the binding disagrees: it builds an official
    result while a late joiner waits and nobody is away."""

    def active(self: Any) -> int:
        if not self.away and not self.record.out:
            return len(self.players)
        return sum(
            1
            for s in range(len(self.players))
            if s not in self.record.out and s not in self.away and s not in self.benched
        )

    monkeypatch.setattr(Table, "active", active)
    found = _disagrees(OFFICIAL)
    assert "away [], waiting ['P" in found


@pytest.mark.clause("V8-LOSS-PLAYER-BEFORE-WINNER", "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER")
def test_official_binding_sees_an_absent_last_spelforare_lose(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """With the engine's last-turn-before loser chosen even when that spelförare has stepped
    away, the binding (which enumerates loser_rule with every last spelförare) disagrees."""
    from regelverk.vandatta.options import LoserRule

    loser_of = scoring.loser_of

    def careless(table: Any, winner: int) -> int | None:
        if table.options.loser_rule is LoserRule.LAST_TURN_BEFORE and table.previous is not None:
            return int(table.previous)
        return loser_of(table, winner)

    monkeypatch.setattr(scoring, "loser_of", careless)
    found = _disagrees(OFFICIAL)
    assert "last-turn-before" in found


@pytest.mark.clause("V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-TWO-DECKS")
def test_text_tables_binding_sees_a_wrong_talon_limit(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """The encodings' talon limit comes from spec/: an engine drawing a two-deck deal after
    three passes (the one-deck limit) makes vandatta.text-tables disagree."""
    from regelverk.vandatta import rules

    monkeypatch.setattr(rules, "_DRAWN_AFTER", (3, 3))
    assert _disagrees(TEXT_TABLES).startswith("drawn-after: 2 decks")


@pytest.mark.clause("V8-CALL-ALTERNATIVE-WORDS")
def test_text_tables_binding_sees_a_call_word_lost(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """An engine that no longer hears 'lappen' as the going-out call disagrees with the
    encodings' words, read from V8-CALL-ALTERNATIVE-WORDS."""
    from regelverk.vandatta import rules

    monkeypatch.setattr(rules, "CALL_WORDS", ("utgång", "varning"))
    assert _disagrees(TEXT_TABLES).startswith("call-heard: 'LAPPEN.'")
