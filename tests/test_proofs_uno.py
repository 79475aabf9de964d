"""The UNO theorems and questions: each holds, each fails when a clause it cites is weakened,
each binding agrees with the engine and covers its kinds of step, and each binding disagrees
when an engine rule function is broken on purpose."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from regelverk.cards import Colour, UnoCard
from regelverk.engine import with_options
from regelverk.memo import by_identity
from regelverk.uno import (
    GAME,
    Catch,
    Challenge,
    Draw,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno import actions as engine_actions
from regelverk.uno import rules as engine_rules
from regelverk.uno import table as engine_table
from regelverk.uno.rules import deck_for
from regelverk.uno.scenario import position
from regelverk.uno.table import Table
from regelverk_proofs import binding
from regelverk_proofs.binding import Binding
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Outcome, Theorem, decide
from regelverk_proofs.uno.binding import rules as uno_bind
from regelverk_proofs.uno.binding.steps import moves_allow
from regelverk_proofs.uno.encoding.lasso import TOP, find_lasso, lasso_hands
from regelverk_proofs.uno.theorems.rules import SCENARIOS, THEOREMS

_BY_NAME = {t.name: t for t in THEOREMS}
_NAMES = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")
_WEAKENINGS = [(t, w.clause) for t in THEOREMS for w in t.weakenings]

# --- the theorems ----------------------------------------------------------------------------


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD", "UNO-WD4-CONDITION", "UNO-TWO-PLAYER-REVERSE")
@pytest.mark.parametrize(
    "name",
    [
        "uno.card-conservation",
        "uno.never-ending-game",
        "uno.must-play-never-repeats",
        "uno.challenge-matches-wild-draw-four-condition",
        "uno.two-player-reverse-is-skip",
    ],
)
def test_the_uno_theorem_holds(name: str) -> None:
    theorem = _BY_NAME[name]
    finding = theorem.check(frozenset())
    assert theorem.holds(finding), finding.detail
    assert finding.cases >= 1


@pytest.mark.clause("UNO-PLAY-MATCH", "UNO-SCORE-ACTION-20", "UNO-PILES-EXHAUSTED-NO-DRAW")
@pytest.mark.parametrize(
    ("theorem", "clause"), _WEAKENINGS, ids=[f"{t.name}-{c}" for t, c in _WEAKENINGS]
)
def test_each_uno_theorem_fails_when_a_clause_it_cites_is_weakened(
    theorem: Theorem, clause: str
) -> None:
    finding = theorem.check(frozenset({clause}))
    assert finding.outcome is theorem.failure, finding.detail
    assert finding.detail


@pytest.mark.clause("UNO-PLAY-MATCH")
def test_a_conservation_counterexample_names_the_card_and_its_places() -> None:
    finding = _BY_NAME["uno.card-conservation"].check(frozenset({"UNO-PLAY-MATCH"}))
    assert "R5" in finding.detail
    assert "discard pile" in finding.detail


@pytest.mark.clause("UNO-WIN-GAME-500")
def test_the_ending_counterexample_stops_at_exactly_500() -> None:
    finding = _BY_NAME["uno.legal-ending"].check(frozenset({"UNO-WIN-GAME-500"}))
    assert finding.outcome is Outcome.COUNTEREXAMPLE
    assert "ends the game" in finding.detail


# --- the never-ending game, replayed ---------------------------------------------------------


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW")
def test_under_hand_void_the_same_loop_does_not_come_back() -> None:
    lasso = find_lasso()
    assert lasso is not None and not isinstance(lasso, str)
    options = with_options(UnoOptions(), {"empty_piles": "hand-void"})
    start = position(
        lasso_hands(lasso),
        discard=TOP.code,
        turn=lasso.actions[0][0],
        draw_pile=[],
        options=options,
    )
    after = GAME.apply(start, Draw(player=lasso.actions[0][0])).state
    assert after.hand_number == start.hand_number + 1
    assert find_lasso(frozenset({"UNO-PILES-EXHAUSTED-NO-DRAW"})) is None


def _wd4_loop_start(options: UnoOptions) -> UnoState:
    """Every card held but R3 on top; each player holds a red card and, last, two Wild Draw
    Fours (so one laid and taken back leaves the hand as it was)."""
    deck = list(deck_for(options))
    deck.remove(UnoCard.parse("R3"))
    anna = [c for c in deck if c.colour in (Colour.RED, Colour.YELLOW)]
    anna.remove(UnoCard.parse("R4"))
    bo = [c for c in deck if c.colour in (Colour.GREEN, Colour.BLUE)]
    bo += [UnoCard.parse("W")] * 4 + [UnoCard.parse("R4")]
    wd4 = ["W+4", "W+4"]
    hands = {
        "Anna": " ".join([*(c.code for c in anna), *wd4]),
        "Bo": " ".join([*(c.code for c in bo), *wd4]),
    }
    return position(hands, discard="R3", turn="Anna", draw_pile=[], options=options)


_WD4_LOOP = (
    Play(player="Anna", card=UnoCard.parse("W+4"), colour=Colour.BLUE),
    Challenge(player="Bo"),
    Play(player="Bo", card=UnoCard.parse("W+4"), colour=Colour.GREEN),
    Challenge(player="Anna"),
)


@pytest.mark.clause(
    "UNO-WD4-CHALLENGE-SUCCESS", "UNO-DRAW-BY-CHOICE", "UNO-PILES-EXHAUSTED-NO-DRAW"
)
def test_under_must_play_a_returned_wild_draw_four_loops_for_ever() -> None:
    """The weakening card-returns of uno.must-play-never-repeats, replayed: two bluffed Wild
    Draw Fours, each challenged and taken back, and the position is back."""
    changes = {"draw_when_able": "must-play", "challenge_success_card": "card-returns"}
    start = _wd4_loop_start(with_options(UnoOptions(), changes))
    state = start
    for action in _WD4_LOOP:
        state = GAME.apply(state, action).state
    assert state == start
    stays = _wd4_loop_start(with_options(UnoOptions(), {"draw_when_able": "must-play"}))
    for action in _WD4_LOOP[:2]:
        stays = GAME.apply(stays, action).state
    assert stays.top == UnoCard.parse("W+4")


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-BY-CHOICE")
def test_under_hand_void_drawing_alone_voids_hand_after_hand() -> None:
    """Not a loop (the hand number grows), but no game need end: everyone just draws."""
    options = with_options(UnoOptions(), {"empty_piles": "hand-void"})
    state = GAME.deal(options, _NAMES[:4], 11)
    for hand in (1, 2, 3):
        while state.hand_number == hand:
            action = next(a for a in GAME.legal_actions(state) if isinstance(a, Draw | Pass))
            state = GAME.apply(state, action).state
    assert state.hand_number == 4
    assert state.scores == (0, 0, 0, 0)


# --- the scenario ----------------------------------------------------------------------------

_WD4 = SCENARIOS[0]


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-EFFECT")
def test_a_bluffed_wild_draw_four_unchallenged_costs_nothing() -> None:
    answer = ask(_WD4, "holds-current-colour and not challenged and layer-draws = 0")
    assert answer.possible is True
    assert "does not challenge" in answer.witness


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-SUCCESS")
def test_a_bluffed_wild_draw_four_challenged_always_costs() -> None:
    answer = ask(_WD4, "holds-current-colour and challenged and layer-draws = 0")
    assert answer.possible is False
    assert answer.forbidding == ("UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CONDITION")


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX")
def test_a_failed_challenge_costs_the_challenger_six() -> None:
    assert ask(_WD4, "challenged and not holds-current-colour and victim-draws = 6").possible
    answer = ask(_WD4, "challenged and not holds-current-colour and victim-draws < 6")
    assert answer.possible is False
    assert "UNO-WD4-CHALLENGE-FAILED-SIX" in answer.forbidding


# --- the bindings -----------------------------------------------------------------------------

_BINDINGS = {b.name: b for t in THEOREMS for b in t.bindings}


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Bindings are checked once per process: forget the reports before and after. The
    engine's readings of an options object (what fits on what, worked out once per object)
    start empty too, and the old ones come back afterwards, so that an engine rule broken on
    purpose leaves no table behind for the tests after it."""
    fresh_readings = by_identity(engine_rules.Readings, limit=64)
    monkeypatch.setattr(engine_rules, "readings", fresh_readings)
    monkeypatch.setattr(engine_table, "readings", fresh_readings)
    binding.clear()
    yield
    binding.clear()


@pytest.mark.clause("UNO-PLAY-MATCH", "UNO-WIN-GAME-500", "UNO-WD4-CONDITION")
def test_every_uno_theorem_names_a_binding() -> None:
    assert all(t.bindings for t in THEOREMS)
    assert set(_BINDINGS) == {
        "uno.legality",
        "uno.card-moves",
        "uno.hand-end",
        "uno.challenges",
        "uno.turn-order",
        "uno.draw-counts",
        "uno.must-play-steps",
        "uno.text-tables",
    }


@pytest.mark.clause(
    "UNO-PLAY-MATCH",
    "UNO-DRAW-PILE-REBUILD",
    "UNO-WD4-CHALLENGE-SUCCESS",
    "UNO-SHUFFLE-HANDS-EFFECT",
    "UNO-CALL-PENALTY",
    "UNO-WIN-GAME-500",
    "UNO-TWO-PLAYER-REVERSE",
)
@pytest.mark.parametrize("name", sorted(_BINDINGS))
def test_each_uno_binding_agrees_with_the_engine_and_covers_its_kinds(name: str) -> None:
    report = binding.check(_BINDINGS[name])
    assert report.disagreement is None, report.summary()
    assert report.missing == (), report.summary()
    assert {kind for kind, _ in report.counts} == set(_BINDINGS[name].kinds)
    assert report.cases >= _BINDINGS[name].claims, report.summary()
    assert report.agrees


@pytest.mark.clause("UNO-DECK-108", "UNO-DECK-112")
@pytest.mark.usefixtures("fresh")
def test_the_text_tables_binding_notices_a_pack_short_of_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The encodings' pack comes from spec/: an engine pack missing one Wild Draw Four (an
    engine mistake the encodings no longer share) makes uno.text-tables disagree."""
    from regelverk.uno import rules

    packs = dict(rules._DECKS)
    short = list(packs[108])
    short.remove(UnoCard.parse("W+4"))
    packs[108] = tuple(short)
    found = _broken(monkeypatch, rules, "_DECKS", packs, _BINDINGS["uno.text-tables"])
    assert found.startswith("pack: the 108-card pack: 4 of W+4")


@pytest.mark.clause("UNO-PLAY-MATCH", "UNO-DRAW-TWO-EFFECT")
def test_the_card_moves_binding_compares_every_step_at_every_player_count() -> None:
    """uno.card-moves names a kind per player count its statement gives (2 to 5), so a run
    that skipped a count would fail for a kind never compared; and it claims every step."""
    bound = _BINDINGS["uno.card-moves"]
    assert {"step-2-players", "step-3-players", "step-4-players", "step-5-players"} <= set(
        bound.kinds
    )
    assert "2, 3, 4 and 5 players" in bound.statement


def _broken(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str, value: object, bound: Binding
) -> str:
    """Break one engine rule (``module.name = value``) and check ``bound``: its summary, which
    must report a disagreement."""
    monkeypatch.setattr(module, name, value)
    report = binding.check(bound)
    assert not report.agrees, report.summary()
    assert report.disagreement is not None
    return report.disagreement


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-SCORE-WILDS-50", "UNO-SCORE-WINNER-COLLECTS")
def test_the_hand_end_binding_notices_a_wrong_score(monkeypatch: pytest.MonkeyPatch) -> None:
    def short(hand: object, options: object = None) -> int:
        return engine_rules.hand_points(hand, options) - 1  # type: ignore[arg-type]

    found = _broken(monkeypatch, engine_actions, "hand_points", short, uno_bind.HAND_END)
    assert "credits" in found


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-SCORE-WILDS-50")
def test_the_hand_end_binding_notices_a_wrong_card_value(monkeypatch: pytest.MonkeyPatch) -> None:
    def points(card: UnoCard, options: object = None) -> int:
        return 40 if card.value.is_wild else engine_rules.ACTION_POINTS.get(card.value, 1)

    found = _broken(monkeypatch, uno_bind, "card_points", points, uno_bind.HAND_END)
    assert found.startswith("card-value")


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-WIN-GAME-500")
def test_a_theorem_whose_engine_ends_late_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine ending the game only above the target: uno.legal-ending fails."""
    real = engine_actions._end_hand

    def late(t: Table, winner: int) -> None:
        t.options = with_options(t.options, {"target_score": t.options.target_score + 1})
        real(t, winner)

    monkeypatch.setattr(engine_actions, "_end_hand", late)
    result = decide(_BY_NAME["uno.legal-ending"])
    assert result.finding.outcome is Outcome.DISAGREES, result.finding.detail
    assert "at-target" in result.finding.detail


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-PLAY-MATCH", "UNO-DRAW-BY-CHOICE")
def test_the_legality_binding_notices_a_card_that_fits_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _broken(monkeypatch, engine_rules, "fits", lambda *_: True, uno_bind.LEGALITY)


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-CALL-PENALTY")
def test_the_card_moves_binding_notices_a_wrong_penalty_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = _broken(monkeypatch, engine_actions, "CALL_PENALTY_DRAW", 1, uno_bind.CARD_MOVES)
    assert found.startswith("catch")


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX")
def test_the_challenge_binding_notices_a_failed_challenge_costing_four(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _broken(monkeypatch, engine_actions, "CHALLENGE_FAILED_DRAW", 4, uno_bind.CHALLENGES)


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-SKIP-EFFECT")
def test_the_turn_order_binding_notices_a_skip_that_does_not_skip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_skip(t: Table, seat: int) -> None:
        t.turn = engine_actions.seat_after(t, seat)

    found = _broken(monkeypatch, engine_actions, "_skip", no_skip, uno_bind.TURN_ORDER)
    assert "skip" in found


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-DRAW-CANNOT-PLAY")
def test_the_draw_counts_binding_notices_a_turn_drawing_two(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _broken(monkeypatch, engine_actions, "TURN_DRAW", 2, uno_bind.DRAW_COUNTS)


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-DRAW-BY-CHOICE", "UNO-WILD-PLAY-ANYTIME")
def test_the_must_play_binding_notices_a_draw_while_holding_a_wild(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = _broken(
        monkeypatch, engine_rules, "_can_play_any", lambda *_: False, uno_bind.MUST_PLAY_STEPS
    )
    assert found.startswith("empty-draw")


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD")
def test_the_card_encoding_refuses_a_step_the_engine_did_not_take() -> None:
    state = GAME.deal(UnoOptions(), _NAMES[:3], 7)
    while state.phase is not Phase.PLAY:
        state = GAME.apply(state, GAME.legal_actions(state)[0]).state
    draw = Draw(player=state.players[state.turn])
    after = GAME.apply(state, draw).state
    assert moves_allow(state, draw, after) is True
    other = state.players[(state.turn + 1) % 3]
    catch = Catch(player=other, target=state.players[state.turn])
    assert moves_allow(state, catch, after) is False


@pytest.mark.clause("UNO-TWO-PLAYER-DRAW-CARDS", "UNO-DRAW-TWO-EFFECT")
@pytest.mark.usefixtures("fresh")
def test_the_turn_order_binding_notices_opponent_plays_at_three_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine letting a Draw Two's victim play after drawing at any table size under
    opponent-plays (a two-player reading), uno.turn-order disagrees at three players."""
    from regelverk.uno import actions

    def lose_turn(t: Any, victim: int, clauses: Any) -> None:
        if t.rules.opponent_plays:
            t.turn = victim
            return
        t.turn = engine_actions.seat_after(t, victim)

    found = _broken(monkeypatch, actions, "_lose_turn", lose_turn, _BINDINGS["uno.turn-order"])
    assert found.startswith("draw-two: 3 players under two_player_draw_cards = opponent-plays")


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-CALL-PENALTY", "UNO-CALL-UNO")
@pytest.mark.parametrize("rule", ["_check_catch", "_check_late_call"])
def test_the_legality_binding_notices_a_call_or_catch_by_anyone_while_someone_is_exposed(
    monkeypatch: pytest.MonkeyPatch, rule: str
) -> None:
    """With the engine's check letting anyone catch anyone (or make good anyone's late call)
    while some player is exposed, uno.legality disagrees on its prepared four-seat positions,
    where the catch and the call are asked of seats the engine does not list."""
    real = getattr(engine_rules, rule)

    def loose(state: UnoState, action: Any) -> None:
        if state.exposed is None:
            real(state, action)

    found = _broken(monkeypatch, engine_rules, rule, loose, uno_bind.LEGALITY)
    assert found.startswith("allowed-other: "), found
    assert "check True, legal_actions False" in found
    assert "exposed Dan" in found or "exposed Cia" in found


@pytest.mark.clause("UNO-WIN-LAST-CARD-DRAW", "UNO-VARIANT-STACKING")
def test_the_card_encoding_makes_the_next_player_take_the_whole_stack_after_going_out() -> None:
    """A Draw Two laid as the last card on two owed (stacking) makes the next player take four;
    a table where he took two is refused."""
    kind, before, action = next(uno_bind._going_out())
    assert kind == "stacked-draw-two-out"
    assert before.pending_draw == 2
    after = GAME.apply(before, action).state
    bo = after.players.index("Bo")
    assert len(after.hands[bo]) == len(before.hands[bo]) + 4
    assert moves_allow(before, action, after) is True
    hands = list(after.hands)
    hands[bo], back = hands[bo][:-2], hands[bo][-2:]
    short = dataclasses.replace(after, hands=tuple(hands), draw_pile=back + after.draw_pile)
    assert moves_allow(before, action, short) is False


@pytest.mark.usefixtures("fresh")
@pytest.mark.clause("UNO-DEAL-ROTATE")
def test_the_card_moves_binding_notices_the_deal_passing_to_the_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the engine passing the deal to the dealer's right-hand neighbour, uno.card-moves
    disagrees on a new hand at three or more seats."""
    real = engine_actions._next_hand

    def to_the_right(t: Any, winner: int | None) -> None:
        t.dealer = (t.dealer - 2) % t.n
        real(t, winner)

    found = _broken(monkeypatch, engine_actions, "_next_hand", to_the_right, uno_bind.CARD_MOVES)
    assert found.startswith(("new-hand: ", "next-dealer: ")), found
