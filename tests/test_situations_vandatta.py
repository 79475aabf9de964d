"""Vändåtta (vvv8 and vandatta): situations at the edges of the rules, built as positions.

Each verdict comes from text 000 (vvv8) or 001 (vandatta) and the clauses of spec/, never from
what the engine happens to do. Seats are listed in turn order (clockwise); unless a test says
otherwise the dealer is the seat before the player in turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from regelverk.cards import french_deck
from regelverk.engine import IllegalActionError, Outcome, with_options
from regelverk.registry import default_registry
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import Action, Phase, State

REGISTRY = default_registry()
CLAUSE_IDS = frozenset(c.id for c in REGISTRY.clauses())
FIVE = ["A", "B", "C", "D", "E"]


def position(
    base: VandattaOptions = VVV8, options: dict[str, Any] | None = None, **fields: Any
) -> State:
    state = GAME.position_from_data(fields, with_options(base, options or {}))
    assert GAME.problems(state) == ()
    return state


CONDUCT = frozenset({"step-away", "back"})
"""Table conduct, not moves of play: ``legal_actions`` does not list them (its docstring)."""


def act(state: State, **action: Any) -> Outcome[State]:
    """Apply an action that both paths allow: ``check`` passes and ``legal_actions`` lists it
    (a move of play; table conduct is only checked)."""
    move: Action = GAME.action_from_data(action, state)
    GAME.check(state, move)
    if action["action"] not in CONDUCT:
        assert move in GAME.legal_actions(state), move
    outcome = GAME.apply(state, move)
    assert GAME.problems(outcome.state) == ()
    for event in outcome.events:
        assert set(event.clauses) <= CLAUSE_IDS, event
    return outcome


def cited(outcome: Outcome[State]) -> set[str]:
    return {c for e in outcome.events for c in e.clauses}


def hands(**cards: str) -> dict[str, list[str]]:
    return {name: text.split() for name, text in cards.items()}


# --- An official result (vvv8): three active players at the start and at the going out ------


def going_out(
    players: list[str],
    *,
    away: tuple[str, ...] = (),
    waiting: tuple[str, ...] = (),
    joining: tuple[str, ...] = (),
    start: int,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> Outcome[State]:
    """A, who called utgång last turn, goes out with 5H on 5S; every other seat dealt in holds
    one card; ``start`` players were active when the deal began."""
    dealt = [p for p in players if p not in waiting and p not in joining]
    held = {p: ["3C", "2D", "4D", "6D", "7D"][k] for k, p in enumerate(dealt[1:])}
    state = position(
        VVV8,
        options,
        players=players,
        turn="A",
        calls=["A"],
        pile=["5S"],
        hands={"A": ["5H"], **{p: [c] for p, c in held.items()}},
        away=list(away),
        waiting=list(waiting),
        joining=list(joining),
        active_at_start=start,
        **fields,
    )
    out = act(state, action="play", cards=["5H"])
    assert out.state.phase is Phase.DEAL_OVER and out.state.winner == 0
    return out


def official(out: Outcome[State]) -> bool:
    return out.state.record.official == 1


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_late_joiner_waiting_nobody_away() -> None:
    """Four dealt in, E waits for the next deal in the seat before A, nobody is away: four are
    active, the result is official. E holds no cards and takes no part: the loser is D."""
    out = going_out(FIVE, waiting=("E",), start=4)
    assert official(out)
    assert out.state.loser == 3
    assert out.state.record.wins[0] == 1 and out.state.record.losses == (0, 0, 0, 1, 0)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_joiner_waiting_and_one_away() -> None:
    """Four dealt in, D away, E waiting: three are active at the going out, and four were at the
    start: official. The loser is C, the nearest seat before A who takes part and is present."""
    out = going_out(FIVE, away=("D",), waiting=("E",), start=4)
    assert official(out) and out.state.loser == 2


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_joiner_waiting_and_two_away() -> None:
    """Four dealt in, C and D away, E waiting: two active at the going out: no official result."""
    out = going_out(FIVE, away=("C", "D"), waiting=("E",), start=4)
    assert not official(out)
    assert out.state.record.wins == (0,) * 5 and out.state.record.losses == (0,) * 5
    assert "V8-LOSS-OFFICIAL-NEEDS-THREE" in cited(out)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_exactly_three_active() -> None:
    out = going_out(["A", "B", "C"], start=3)
    assert official(out) and out.state.loser == 2


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-JOIN-LATE-TAKE-FREE-SEAT")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_two_active_and_a_joiner_still_to_step_in() -> None:
    """A, B and C were dealt in; C is away; D sat down late (a second deck added, reading
    add-deck) and has not stepped in yet: two active players, no official result."""
    out = going_out(
        ["A", "B", "C", "D"],
        away=("C",),
        joining=("D",),
        start=3,
        options={"late_joiner_second_deck": "add-deck"},
        decks=2,
    )
    assert not official(out)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_two_at_the_start_three_at_the_going_out() -> None:
    """Only two were active when the deal began (C came back since): three at the going out is
    not enough, the rule asks for three at both moments."""
    out = going_out(["A", "B", "C"], start=2)
    assert not official(out)


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-JOIN-LATE-CARDS-MOST-PLUS-ONE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_a_joiner_who_stepped_in_is_active() -> None:
    """A, B, C were dealt in, C is now away; D stepped in during the deal and plays: with D,
    three are active at the going out and three were at the start: official."""
    out = going_out(
        ["A", "B", "C", "D"],
        away=("C",),
        start=3,
        options={"late_joiner_second_deck": "add-deck"},
        decks=2,
    )
    assert official(out) and out.state.loser == 3


# --- Who deals after a step-away under dealer_without_loser = new-draw (vvv8) ---------------

NEW_DRAW = {"dealer_without_loser": "new-draw"}


@pytest.mark.clause("V8-SESSION-LOSER-DEALS-NEXT", "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER")
def test_V8_SESSION_LOSER_DEALS_NEXT_after_a_step_away_with_an_official_result() -> None:
    """Four dealt in; D, seated before A, has stepped away. A goes out: three are active, so
    the result is official and its loser, C, deals the next deal, under new-draw too."""
    for options in (None, NEW_DRAW):
        out = going_out(["A", "B", "C", "D"], away=("D",), start=4, options=options)
        assert official(out) and out.state.loser == 2 and out.state.dealer == 2


@pytest.mark.clause("V8-SESSION-DEALER-WITHOUT-LOSER", "V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_V8_SESSION_DEALER_WITHOUT_LOSER_new_draw_after_a_step_away() -> None:
    """Three dealt in; C, seated before A, has stepped away. A goes out with two active: no
    official loser. Under new-draw a fresh draw for the deal settles the next dealer; by
    default the would-be loser, B (the nearest present seat before A), deals."""
    drawn = going_out(["A", "B", "C"], away=("C",), start=3, options=NEW_DRAW)
    assert not official(drawn)
    assert drawn.state.dealer is None
    assert "V8-LOSS-OFFICIAL-NEEDS-THREE" in cited(drawn)
    dealt = act(drawn.state, action="deal")
    assert "V8-DEALER-DRAW-HELD" in cited(dealt) and dealt.state.dealer is not None
    same = going_out(["A", "B", "C"], away=("C",), start=3)
    assert not official(same) and same.state.dealer == 1


# --- Who leads at three players --------------------------------------------------------------


def _dealt(base: VandattaOptions, options: dict[str, Any] | None = None) -> State:
    """Three players, C dealing: a ready position whose stock deals seven cards each and turns
    9S (neither an ace nor an eight) as the start card."""
    players = ["A", "B", "C"]
    suits = "CDH"
    order = [[f"{r}{suits[k]}" for r in "2345679"] for k in range(3)]
    top = [order[k % 3][k // 3] for k in range(21)]
    ready = position(
        base, options, players=players, phase="ready", deal=0, dealer="C", stock=[*top, "9S"]
    )
    out = act(ready, action="deal")
    assert out.state.phase is Phase.PLAY and out.state.pile[-1].code == "9S"
    return out.state


@pytest.mark.clause("V8-DEAL-FORHAND", "VA-TURN-FIRST-PLAYER")
@pytest.mark.parametrize("base", [VVV8, VANDATTA], ids=["vvv8", "vandatta"])
def test_first_player_at_three_players_is_left_of_the_dealer(base: VandattaOptions) -> None:
    """Vändåtta has no club-four rule: förhand, on the dealer's left (A when C deals), leads;
    under first_player = dealer-first (VA-AMB-FIRST-PLAYER) the dealer does."""
    assert _dealt(base).turn == 0
    assert _dealt(base, {"first_player": "dealer-first"}).turn == 2


# --- More boundaries: the 100-point limit, player counts, draws, the talon -----------------


def _scored(before: dict[str, int]) -> State:
    """vandatta: B goes out with 5H on 5S (the last card after LAPPEN); A keeps 3C (5 points)
    and C keeps 2D (5 points)."""
    state = position(
        VANDATTA,
        players=["A", "B", "C"],
        turn="B",
        calls=["B"],
        pile=["5S"],
        hands=hands(A="3C", B="5H", C="2D"),
        record={"points": before, "deals": 3},
    )
    return act(state, action="play", cards=["5H"]).state


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SCORING-OTHERS-COUNT")
@pytest.mark.parametrize(("a", "out"), [(94, False), (95, True), (96, True)])
def test_VA_SCORING_GAME_WINNER_a_total_of_100_is_not_under_100(a: int, out: bool) -> None:
    """Only a total under 100 keeps a player in: A at 94 + 5 stays in, at 95 + 5 = 100 he is out;
    C (40 + 5) is then the one other player under 100 besides B."""
    after = _scored({"A": a, "B": 40, "C": 40})
    assert after.record.points == (a + 5, 40, 45)
    assert (0 in after.record.out) is out
    assert after.phase is Phase.DEAL_OVER


@pytest.mark.clause("VA-SCORING-GAME-WINNER")
def test_VA_SCORING_GAME_WINNER_alone_under_100_wins() -> None:
    """A reaches exactly 100 and C 100: B alone is under 100 and wins the game."""
    after = _scored({"A": 95, "B": 40, "C": 95})
    assert after.record.out == {0, 2}
    assert after.phase is Phase.MATCH_OVER and after.record.champions == (1,)


@pytest.mark.clause(
    "V8-SETUP-COFFEE-BREAK-MAX-FIVE",
    "V8-SETUP-TWO-DECKS-FOUR-PLUS",
    "V8-SETUP-ONE-DECK-TWO-OR-THREE",
)
def test_V8_SETUP_player_counts_and_decks_at_their_bounds() -> None:
    """In a coffee break five may play and six may not; three play with one deck, four with
    two."""
    assert len(GAME.deal(VVV8, FIVE, seed=1).players) == 5
    with pytest.raises(IllegalActionError) as caught:
        GAME.deal(VVV8, [*FIVE, "F"], seed=1)
    assert "V8-SETUP-COFFEE-BREAK-MAX-FIVE" in caught.value.clauses
    assert GAME.deal(VVV8, FIVE[:3], seed=1).decks == 1
    assert GAME.deal(VVV8, FIVE[:4], seed=1).decks == 2


@pytest.mark.clause("V8-DRAW-MAX-THREE", "V8-TURN-PASS-AFTER-PLAY")
def test_V8_DRAW_MAX_THREE_the_third_draw_ends_the_turn() -> None:
    """A cannot lay on 5S and draws: after one or two cards he may draw again; after the third,
    none of which fits, a fourth draw is refused and he can only hand the turn on to B (a pass,
    with which he could still say utgång)."""
    state = position(
        VVV8,
        players=["A", "B", "C"],
        turn="A",
        pile=["5S"],
        stock=["2C", "3C", "4C", "KD"],
        hands=hands(A="9H", B="3D", C="2D"),
    )
    for drawn in range(1, 4):
        state = act(state, action="draw").state
        assert state.turn == 0 and state.draws == drawn
    with pytest.raises(IllegalActionError) as caught:
        GAME.check(state, GAME.action_from_data({"action": "draw"}, state))
    assert "V8-DRAW-MAX-THREE" in caught.value.clauses
    assert {type(a).__name__ for a in GAME.legal_actions(state)} == {"Pass"}
    after = act(state, action="pass").state
    assert after.turn == 1 and len(after.hands[0]) == 4


def _last_talon_card(players: list[str], passes: int, decks: int, **options: Any) -> State:
    """A, in turn, cannot lay 9H on 5S; the talon holds one card (2C), every other card lies in
    the pile, and it has run out ``passes`` times before in this deal."""
    held = {p: [c] for p, c in zip(players, ["9H", "3D", "2D", "4D"], strict=False)}
    placed = Counter(c for cards in held.values() for c in cards)
    placed.update(["5S", "2C"])
    rest = sorted((Counter(c.code for c in french_deck(decks)) - placed).elements())
    return position(
        VVV8,
        options,
        players=players,
        turn="A",
        hands=held,
        pile=[*rest, "5S"],
        stock=["2C"],
        talon_passes=passes,
        decks=decks,
    )


@pytest.mark.clause("V8-TALON-DRAWN-ONE-DECK", "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK")
@pytest.mark.parametrize(("passes", "drawn"), [(1, False), (2, True)])
def test_V8_TALON_DRAWN_ONE_DECK_the_third_time_through_draws_the_deal(
    passes: int, drawn: bool
) -> None:
    """One deck in a coffee break: A draws the talon's last card. The second time through the
    deal goes on; the third time through it is drawn, and (by default) the same dealer, C,
    deals again."""
    out = act(_last_talon_card(["A", "B", "C"], passes, 1), action="draw")
    assert out.state.talon_passes == passes + 1
    assert (out.state.phase is Phase.DEAL_OVER) is drawn
    if drawn:
        assert out.state.winner is None and out.state.record.official == 0
        assert out.state.dealer == 2
        assert "V8-TALON-DRAWN-ONE-DECK" in cited(out)


@pytest.mark.clause("V8-TALON-DRAWN-TWO-DECKS")
@pytest.mark.parametrize(("passes", "drawn"), [(0, False), (1, True)])
def test_V8_TALON_DRAWN_TWO_DECKS_the_second_time_through_draws_the_deal(
    passes: int, drawn: bool
) -> None:
    out = act(_last_talon_card(["A", "B", "C", "D"], passes, 2), action="draw")
    assert (out.state.phase is Phase.DEAL_OVER) is drawn
    if drawn:
        assert "V8-TALON-DRAWN-TWO-DECKS" in cited(out)


@pytest.mark.clause("V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK")
def test_V8_TALON_DRAWN_ONLY_IN_COFFEE_BREAK_free_time_plays_on() -> None:
    """Outside working hours there is no limit: the third time through the deal goes on."""
    out = act(_last_talon_card(["A", "B", "C"], 2, 1, session="free-time"), action="draw")
    assert out.state.phase is Phase.PLAY and out.state.talon_passes == 3


@pytest.mark.clause("V8-SESSION-DEALER-WITHOUT-LOSER", "V8-TALON-DRAWN-ONE-DECK")
def test_V8_SESSION_DEALER_WITHOUT_LOSER_new_draw_after_a_drawn_deal() -> None:
    out = act(_last_talon_card(["A", "B", "C"], 2, 1, **NEW_DRAW), action="draw")
    assert out.state.phase is Phase.DEAL_OVER and out.state.dealer is None


# --- A standing utgång and a step-away (vvv8) ----------------------------------------------


def _called_b(**fields: Any) -> State:
    """B called utgång last turn and holds 6H; C is spelförare on 5S, A holds 6D."""
    return position(
        VVV8,
        players=["A", "B", "C"],
        turn="C",
        calls=["B"],
        pile=["5S"],
        hands=hands(A="3C 6D", B="6H", C="6S 7H"),
        **fields,
    )


@pytest.mark.clause("V8-CALL-FORFEITED-IF-ABSENT", "V8-PRESENCE-MAY-RETURN")
def test_V8_CALL_FORFEITED_IF_ABSENT_back_before_his_turn_keeps_the_call() -> None:
    """B steps away during C's turn and is back before his own: his utgång stands, and he goes
    out with 6H on A's 6D."""
    state = act(_called_b(), action="step-away", player="B").state
    state = act(state, action="back", player="B").state
    state = act(state, action="play", cards=["6S"]).state
    state = act(state, action="play", cards=["6D"]).state
    assert state.turn == 1 and 1 in state.calls
    out = act(state, action="play", cards=["6H"]).state
    assert out.phase is Phase.DEAL_OVER and out.winner == 1


@pytest.mark.clause("V8-CALL-FORFEITED-IF-ABSENT", "V8-PRESENCE-ABSENT-TURN-SKIPPED")
def test_V8_CALL_FORFEITED_IF_ABSENT_away_when_his_turn_comes() -> None:
    """B is still away when A's turn ends: his turn is passed over, his utgång is lost, and back
    at the table he cannot go out next time without calling again."""
    state = act(_called_b(), action="step-away", player="B").state
    state = act(state, action="play", cards=["6S"]).state
    after_a = act(state, action="play", cards=["6D"])
    assert after_a.state.turn == 2 and 1 not in after_a.state.calls
    assert "V8-CALL-FORFEITED-IF-ABSENT" in cited(after_a)


# --- varning! at exactly its count (vandatta) ----------------------------------------------


def _varning(held: str, **options: Any) -> Outcome[State]:
    """vandatta: A lays 5H on 5S from ``held``."""
    state = position(
        VANDATTA,
        options,
        players=["A", "B", "C"],
        turn="A",
        pile=["5S"],
        hands=hands(A=held, B="3D 4D", C="2D 6D"),
    )
    return act(state, action="play", cards=["5H"])


@pytest.mark.clause("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT")
@pytest.mark.parametrize(
    ("held", "due"),
    [("5H 2C 3C 6C 7C", False), ("5H 2C 3C 4C", True), ("5H 2C 3C", False)],
)
def test_VA_CALL_VARNING_due_at_exactly_three_cards(held: str, due: bool) -> None:
    """varning! is called when a player has three cards left: leaving four or two, it is not."""
    out = _varning(held)
    assert any(e.kind == "varning" or "varning" in e.text for e in out.events) is due


@pytest.mark.clause("VA-CALL-VARNING-AGREED-COUNT")
@pytest.mark.parametrize(("held", "due"), [("5H 2C 3C 4C", False), ("5H 2C 3C", True)])
def test_VA_CALL_VARNING_AGREED_COUNT_two_cards(held: str, due: bool) -> None:
    """A table may agree on two cards instead: then leaving three is no varning, leaving two is."""
    out = _varning(held, varning_cards=2)
    assert any("varning" in e.text for e in out.events) is due


@pytest.mark.clause("V8-LOSS-OFFICIAL-NEEDS-THREE", "V8-PRESENCE-ABSENT-NOT-ACTIVE")
def test_V8_LOSS_OFFICIAL_NEEDS_THREE_two_dealt_in_and_one_waiting_nobody_away() -> None:
    """A and B were dealt in, E waits for the next deal, nobody is away: E is no active player,
    so two are active at the going out and the result is not official."""
    out = going_out(["A", "B", "E"], waiting=("E",), start=2)
    assert not official(out)
    assert "V8-LOSS-OFFICIAL-NEEDS-THREE" in cited(out)
