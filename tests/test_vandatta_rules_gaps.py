"""Vändåtta (vvv8 and vandatta): situations at the edges of single rules that the other scenario
tests leave open, built as positions.

Each test names the clause it checks and asserts on what the engine allows (``is_allowed``),
what it lists (``legal_actions``) and what a deal's end records, so a wrong ruling fails an
assertion rather than raising. Seats are listed clockwise; unless a test says otherwise the
dealer is the seat before the player in turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from test_situations_vandatta import going_out

from regelverk.cards import french_deck, parse_cards
from regelverk.engine import Outcome, is_allowed, with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import Action, Draw, Pass, Phase, Play, Redeal, State

FOUR = ["P1", "P2", "P3", "P4"]
THREE = ["A", "B", "C"]


def position(base: VandattaOptions, options: dict[str, Any], **fields: Any) -> State:
    state = GAME.position_from_data(fields, with_options(base, options))
    assert GAME.problems(state) == ()
    return state


def exhausted(
    base: VandattaOptions,
    options: dict[str, Any],
    hands: dict[str, str],
    top: str,
    *,
    penalties: dict[str, list[dict[str, Any]]] | None = None,
    **fields: Any,
) -> State:
    """A position in play with the talon empty: the hands and face-down penalty sets as given,
    ``top`` on the pile and every other card of one deck beneath it."""
    held = {name: cards.split() for name, cards in hands.items()}
    sets = penalties or {}
    placed = Counter(c for cards in held.values() for c in cards)
    placed.update(c for found in sets.values() for s in found for c in s["cards"])
    placed[top] += 1
    rest = sorted((Counter(c.code for c in french_deck(1)) - placed).elements())
    return position(
        base,
        options,
        hands=held,
        penalties=sets,
        pile=[*rest, top],
        stock=[],
        **fields,
    )


def move(state: State, action: Action) -> Outcome[State]:
    """An action both paths allow, played: ``check`` passes and ``legal_actions`` lists it."""
    assert is_allowed(GAME, state, action), action
    assert action in GAME.legal_actions(state), action
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    return outcome


def passes(state: State, count: int) -> State:
    for _ in range(count):
        state = move(state, Pass(player=state.turn)).state
    return state


def kinds(outcome: Outcome[State]) -> list[str]:
    return [e.kind for e in outcome.events]


# --- several cards in one play ----------------------------------------------------------------


@pytest.mark.clause("VA-PLAY-SEVERAL-SAME-RANK", "V8-PLAY-SUIT-THEN-SAME-RANK")
@pytest.mark.parametrize("base", [VANDATTA, VVV8], ids=["vandatta", "vvv8"])
def test_VA_PLAY_SEVERAL_SAME_RANK_not_several_of_one_suit(base: VandattaOptions) -> None:
    """The cards laid together share a rank: 9♥ and 9♣ go on 9♦ in one play, 9♥ and 10♥ (one
    suit, two ranks) do not."""
    state = position(
        base,
        {},
        players=FOUR,
        turn="P2",
        pile=["9D"],
        hands={"P1": ["2S"], "P2": ["9H", "10H", "9C"], "P3": ["4C"], "P4": ["3D"]},
    )
    assert is_allowed(GAME, state, Play(player=1, cards=parse_cards("9H 9C")))
    suited = Play(player=1, cards=parse_cards("9H 10H"))
    assert not is_allowed(GAME, state, suited)
    assert suited not in GAME.legal_actions(state)


# --- drawing from an empty talon --------------------------------------------------------------


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD", "V8-TALON-REBUILD-DURING-ANY-DRAW")
@pytest.mark.parametrize("base", [VANDATTA, VVV8], ids=["vandatta", "vvv8"])
def test_VA_DRAW_STOCK_REBUILD_not_from_the_top_card_alone(base: VandattaOptions) -> None:
    """A new talon is made from the pile under its top card, which stays: with the talon empty
    and only the top card on the pile there is nothing to draw, so the turn can only pass."""
    rest = [c.code for c in french_deck(1) if c.code not in ("9D", "2C", "3C")]
    state = position(
        base,
        {},
        players=THREE,
        turn="A",
        pile=["9D"],
        stock=[],
        hands={"A": ["2C", "3C"], "B": rest[:25], "C": rest[25:]},
    )
    assert state.stock == () and len(state.pile) == 1
    assert not is_allowed(GAME, state, Draw(player=0))
    assert [a for a in GAME.legal_actions(state) if not isinstance(a, Play)] == [Pass(player=0)]


# --- going out onto an ace --------------------------------------------------------------------


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_V8_WIN_LAST_CARD_NOT_ACE_OR_EIGHT_nor_a_single_card_onto_an_ace() -> None:
    """Under go_out_on = with-or-onto a last card laid alone onto an ace does not go out (the
    ace on the pile is what it is laid onto); under the default, with, it does."""
    for reading, allowed in (("with", True), ("with-or-onto", False)):
        state = position(
            VVV8,
            {"go_out_on": reading},
            players=THREE,
            turn="A",
            calls=["A"],
            pile=["9S", "AH"],
            hands={"A": ["5H"], "B": ["2C"], "C": ["3C"]},
        )
        out = Play(player=0, cards=parse_cards("5H"))
        assert is_allowed(GAME, state, out) is allowed, reading
        assert (out in GAME.legal_actions(state)) is allowed, reading


# --- varning ----------------------------------------------------------------------------------


@pytest.mark.clause("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT")
def test_VA_CALL_VARNING_at_or_below_is_never_due_with_no_cards_in_hand() -> None:
    """Under varning_trigger = at-or-below varning is due at three cards or fewer, but not at
    none: P1 lays his last hand card with a face-down penalty card still locked (so he is not
    out), and owes no varning as his turn ends; neither may he say it (varning_omission =
    three-cards). The locked card comes into his hand only after that."""
    fields: dict[str, Any] = {
        "players": FOUR,
        "turn": "P1",
        "pile": ["9H"],
        "penalties": {"P1": ["2C"]},
    }
    base = {"varning_trigger": "at-or-below", "penalties": "brott-och-straff"}
    last = position(
        VANDATTA, base, hands={"P1": ["9S"], "P2": ["2D"], "P3": ["4D"], "P4": ["3D"]}, **fields
    )
    done = move(last, Play(player=0, cards=parse_cards("9S")))
    assert done.state.phase is Phase.PLAY and done.state.winner is None
    assert "varning" not in kinds(done)
    assert done.state.hands[0] == parse_cards("2C")  # the penalty card, freed as the turn ends
    # the rule itself: two cards left is at or below three
    two = position(
        VANDATTA,
        base,
        hands={"P1": ["9S", "5C", "6C"], "P2": ["2D"], "P3": ["4D"], "P4": ["3D"]},
        **fields,
    )
    assert "varning" in kinds(move(two, Play(player=0, cards=parse_cards("9S"))))
    own = position(
        VANDATTA,
        {**base, "varning_omission": "three-cards"},
        hands={"P1": ["9S"], "P2": ["2D"], "P3": ["4D"], "P4": ["3D"]},
        **fields,
    )
    silent = move(own, Play(player=0, cards=parse_cards("9S")))
    assert silent.state.hands[0] == parse_cards("2C") and "varning" not in kinds(silent)
    said = Play(player=0, cards=parse_cards("9S"), call=True)
    assert not is_allowed(GAME, own, said) and said not in GAME.legal_actions(own)


# --- a redeal with förhand's early card -------------------------------------------------------


@pytest.mark.clause("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT", "V8-START-EIGHT-FORHAND-EARLY-PENALTY")
def test_V8_MISDEAL_TOO_FEW_REDEAL_RIGHT_gathers_the_early_card() -> None:
    """Förhand lays 5♠ early on a start eight after a short deal; B then demands a new deal. The
    new deal is made from every card, 5♠ included: nothing is lost."""
    state = position(
        VVV8,
        {},
        players=THREE,
        phase="start-suit",
        dealer="C",
        turn="A",
        hands={
            "A": ["5S", "9D", "2D", "3D", "4D", "6D", "7D"],
            "B": ["2C", "3C", "4C", "5C", "6C", "7C", "9C"],
            "C": ["2H", "3H", "4H", "5H", "6H", "7H", "9H"],
        },
        pile=["8H"],
        short_deal=True,
    )
    early = GAME.attempt(state, Play(player=0, cards=parse_cards("5S"))).state
    assert [c.code for c in early.early] == ["5S"]
    assert is_allowed(GAME, early, Redeal(player=1))
    redealt = GAME.apply(early, Redeal(player=1)).state
    assert redealt.early == () and GAME.problems(redealt) == ()
    zones = [*redealt.hands, redealt.stock, redealt.pile, redealt.turned]
    assert Counter(c for zone in zones for c in zone) == Counter(french_deck(1))


# --- the face-down penalty cards at the end of a deal -----------------------------------------


@pytest.mark.clause("V8-PEN-CARDS-COUNT-AS-HELD", "V8-WIN-BLOCKED-DEAL-VOID")
def test_V8_PEN_CARDS_COUNT_AS_HELD_in_the_cheapest_hand_of_a_blocked_deal() -> None:
    """blocked_deal = fewest-points-wins: nothing fits 9♥ and the talon cannot be rebuilt. C's
    hand alone (2♣) is the cheapest, but with his locked penalty cards (K♣ Q♣) it is the
    dearest; B's three small diamonds win."""
    state = exhausted(
        VVV8,
        {
            "session": "free-time",
            "blocked_deal": "fewest-points-wins",
            "empty_stock": "no-rebuild",
        },
        {"A": "KS QS", "B": "3D 4D 5D", "C": "2C"},
        "9H",
        penalties={"C": [{"cards": ["KC", "QC"], "release_after": 2}]},
        players=THREE,
        turn="A",
        dealer="C",
    )
    over = passes(state, 3)
    assert over.phase is Phase.DEAL_OVER and over.winner == 1
    assert over.record.wins == (0, 1, 0)


@pytest.mark.clause("V8-PEN-CARDS-COUNT-AS-HELD", "VA-SCORING-OTHERS-COUNT")
def test_V8_PEN_CARDS_COUNT_AS_HELD_in_card_points() -> None:
    """scoring = card-points at a vvv8 table: A goes out; B scores his hand (3♦) and his
    face-down penalty cards (K♣ Q♣) alike, C his hand."""
    state = exhausted(
        VVV8,
        {"scoring": "card-points"},
        {"A": "5H", "B": "3D", "C": "2C"},
        "5S",
        penalties={"B": [{"cards": ["KC", "QC"], "release_after": 2}]},
        players=THREE,
        turn="A",
        dealer="C",
        calls=["A"],
    )
    over = move(state, Play(player=0, cards=parse_cards("5H"))).state
    assert over.phase is Phase.DEAL_OVER and over.winner == 0
    assert over.record.points == (0, 5 + 10 + 10, 5)


# --- who is active --------------------------------------------------------------------------


@pytest.mark.clause("V8-SESSION-DEALER-WITHOUT-LOSER", "V8-LOSS-OFFICIAL-NEEDS-THREE")
def test_V8_SESSION_DEALER_WITHOUT_LOSER_new_draw_when_two_began_the_deal() -> None:
    """dealer_without_loser = new-draw: only two were active when the deal began (C came back
    since), so three at the going out make no official loser and a fresh draw settles the
    next dealer; had three begun the deal, the loser (C) would deal."""
    new_draw = {"dealer_without_loser": "new-draw"}
    fresh = going_out(THREE, start=2, options=new_draw).state
    assert fresh.record.official == 0 and fresh.dealer is None
    official = going_out(THREE, start=3, options=new_draw).state
    assert official.record.official == 1 and official.loser == 2 and official.dealer == 2


@pytest.mark.clause("V8-PRESENCE-ABSENT-NOT-ACTIVE", "V8-WIN-BLOCKED-DEAL-VOID")
def test_V8_PRESENCE_ABSENT_NOT_ACTIVE_a_waiting_joiner_makes_no_pass() -> None:
    """Four at the table, E a late joiner waiting for the next deal, nobody away: three are
    active. Nothing fits 4♣ and nothing can be drawn, so the deal is blocked (void) once the
    three have passed in turn: E, who holds no cards, is not waited for."""
    deck = [c.code for c in french_deck(2)]
    fits = [c for c in deck if c.endswith("C") or c[:-1] in ("4", "8")]
    plain = [c for c in deck if c not in fits]
    fits.remove("4C")
    state = position(
        VVV8,
        {},
        players=["A", "B", "C", "E"],
        waiting=["E"],
        turn="A",
        hands={"A": plain[0::3], "B": plain[1::3], "C": plain[2::3]},
        penalties={"A": fits},
        pile=["4C"],
        stock=[],
        active_at_start=3,
    )
    assert state.decks == 2 and state.benched == {3} and not state.away
    over = passes(state, 3)
    assert over.phase is Phase.DEAL_OVER and over.winner is None


def _talon_gone(
    options: dict[str, Any], hands: dict[str, list[str]], top: str, **fields: Any
) -> State:
    """A vandatta position with an empty talon: every card not in a hand lies on the pile,
    ``top`` on top, so the next draw rebuilds the talon."""
    held = {top, *(c for cards in hands.values() for c in cards)}
    pile = [c.code for c in french_deck() if c.code not in held]
    return position(
        VANDATTA,
        options,
        players=THREE,
        dealer="C",
        turn="A",
        hands=hands,
        pile=[*pile, top],
        stock=[],
        **fields,
    )


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "VA-DRAW-PASS-AFTER-THREE")
def test_a_fresh_start_card_ends_a_free_lead() -> None:
    """Found by the long soak (vandatta, 5 players, seed 1002 of a strength-3 row): a free lead
    (after_three_draws = pass-free-lead) outlived a rebuild whose kept card, an eight, became a
    new start card for the dealer to name (rebuild_reference = fresh-start-card), leaving a
    free lead in the dealer's suit choice. The new start card ends the free lead, as it ends a
    suit named before."""
    options = {
        "after_three_draws": "pass-free-lead",
        "rebuild_reference": "fresh-start-card",
        "start_eight": "dealer-names-suit",
        "empty_stock": "rebuild-unshuffled",
        "voluntary_draw": "never-obliged",
    }
    hands = {"A": ["2C", "3D"], "B": ["4C", "5D"], "C": ["6C", "7D"]}
    state = _talon_gone(options, hands, "8H", free_lead=True)
    assert not state.stock
    after = GAME.apply(state, Draw(player=0)).state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.START_SUIT and not after.free_lead


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "VA-DRAW-PASS-AFTER-THREE")
def test_a_penalty_that_turns_up_a_new_start_card_grants_no_free_lead() -> None:
    """Found by the binding of vandatta.free-lead: a LAPPEN caller who drew his three cards in
    vain takes his penalty as the turn ends (lappen_penalty = draw-then-penalty); the talon is
    empty, so the penalty rebuilds it, and the kept 8♥ becomes a new start eight for the dealer
    to name. The turn passes to a player who must wait for that suit: no free lead."""
    options = {
        "after_three_draws": "pass-free-lead",
        "rebuild_reference": "fresh-start-card",
        "start_eight": "dealer-names-suit",
        "lappen_penalty": "draw-then-penalty",
        "empty_stock": "rebuild-unshuffled",
    }
    hands = {"A": ["2C", "3D", "4D", "5D"], "B": ["4C", "5C"], "C": ["6C", "7D"]}
    state = _talon_gone(options, hands, "8H", named_suit="S", draws=3, calls=["A"])
    after = GAME.apply(state, Pass(player=0)).state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.START_SUIT and not after.free_lead


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "VA-DRAW-PASS-AFTER-THREE")
def test_a_penalty_that_turns_up_any_new_start_card_grants_no_free_lead() -> None:
    """The same with a plain new start card (9♥): nobody has yet failed to follow it, so the
    next player plays on it, as a new start card ends a free lead that stands."""
    options = {
        "after_three_draws": "pass-free-lead",
        "rebuild_reference": "fresh-start-card",
        "empty_stock": "rebuild-unshuffled",
    }
    hands = {"A": ["2C"], "B": ["4C", "5C"], "C": ["6C", "7D"]}
    state = _talon_gone(options, hands, "9H", draws=3, calls=["A"])
    after = GAME.apply(state, Pass(player=0)).state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.PLAY and after.turn == 1 and not after.free_lead
