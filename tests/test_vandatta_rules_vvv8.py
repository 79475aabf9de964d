"""Scenario tests for the clauses of 000 (vvv8) §1–§2, one situation per rule.

The clauses of §3 ("Brott och straff") and presence are tested in
``test_vandatta_penalties_vvv8.py``; late joiners, misdeals and the start eight laid on too
early in ``test_vandatta_table_vvv8.py``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from regelverk.engine import ActionError, IllegalActionError, with_options
from regelverk.vandatta import GAME, VVV8
from regelverk.vandatta.setup import _draw_key
from regelverk.vandatta.state import Phase, State

THREE = ["Ann", "Bo", "Cy"]


def position(options: dict[str, Any] | None = None, **fields: Any) -> State:
    data = {"players": THREE, **fields}
    state = GAME.position_from_data(data, with_options(VVV8, options or {}))
    assert GAME.problems(state) == ()
    return state


def act(state: State, **action: Any) -> tuple[State, set[str]]:
    outcome = GAME.apply(state, GAME.action_from_data(action, state))
    assert GAME.problems(outcome.state) == ()
    return outcome.state, {c for e in outcome.events for c in e.clauses}


def refused(state: State, **action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalActionError) as error:
        GAME.apply(state, GAME.action_from_data(action, state))
    return error.value.clauses


def hands(**cards: str) -> dict[str, list[str]]:
    return {name: text.split() for name, text in cards.items()}


def ready(start: list[str], players: list[str] = THREE, **options: Any) -> State:
    """A ready position, Cy dealing, whose stock deals Ann 2C.., Bo 2D.., Cy 2H.. and turns the
    cards of ``start``."""
    suits = "CDH"
    order = [[f"{r}{suits[k]}" for r in "2345679"] for k in range(len(players))]
    top = [order[k % len(players)][k // len(players)] for k in range(7 * len(players))]
    data = {
        "players": players,
        "phase": "ready",
        "deal": 0,
        "dealer": players[-1],
        "stock": top + start,
    }
    return GAME.position_from_data(data, with_options(VVV8, options))


@pytest.mark.clause(
    "V8-SETUP-NO-JOKERS", "V8-SETUP-TWO-DECKS-FOUR-PLUS", "V8-SETUP-ONE-DECK-TWO-OR-THREE"
)
def test_V8_SETUP_TWO_DECKS_FOUR_PLUS() -> None:
    assert GAME.deal(VVV8, THREE, 1).decks == 1 and len(GAME.deal(VVV8, THREE, 1).stock) == 52
    four = GAME.deal(VVV8, [*THREE, "Di"], 1)
    assert four.decks == 2 and len(four.stock) == 104


@pytest.mark.clause(
    "V8-SETUP-COFFEE-BREAK-MAX-FIVE", "V8-SETUP-FREE-TIME-NO-CAP", "V8-SETUP-FREE-TIME-PLAYER-LIMIT"
)
def test_V8_SETUP_COFFEE_BREAK_MAX_FIVE() -> None:
    six = [f"P{n}" for n in range(6)]
    with pytest.raises(IllegalActionError, match="coffee break"):
        GAME.deal(VVV8, six, 1)
    free = with_options(VVV8, {"session": "free-time"})
    assert GAME.deal(free, six, 1).decks == 2
    with pytest.raises(IllegalActionError, match="at most 14"):
        GAME.deal(free, [f"P{n}" for n in range(15)], 1)


@pytest.mark.clause(
    "V8-DEALER-DRAW-HELD",
    "V8-DEALER-DRAW-SHUFFLE-CUT",
    "V8-DEALER-DRAW-ONE-CARD-EACH",
    "V8-DEALER-DRAW-LOWEST-SHUFFLES",
    "V8-DEALER-DRAW-RIGHT-CUTS",
    "V8-DEALER-DRAW-CUT-FOUR",
    "V8-DEALER-DRAW-SHUFFLER-DEALS",
    "V8-DEALER-DRAW-ACE-HIGH",
    "V8-DEALER-DRAW-SUIT-ORDER",
    "V8-SESSION-DRAW-FIRST-DEAL-ONLY",
)
def test_V8_DEALER_DRAW_HELD() -> None:
    from regelverk.cards import parse_card

    assert _draw_key(parse_card("AS")) > _draw_key(parse_card("KS"))
    assert _draw_key(parse_card("2S")) > _draw_key(parse_card("2H")) > _draw_key(parse_card("2C"))
    state = GAME.deal(VVV8, THREE, 5)
    assert state.dealer is None
    after, cited = act(state, action="deal")
    assert after.dealer is not None and after.turn == (after.dealer + 1) % 3
    assert {
        "V8-DEALER-DRAW-HELD",
        "V8-DEALER-DRAW-LOWEST-SHUFFLES",
        "V8-DEALER-DRAW-RIGHT-CUTS",
        "V8-DEALER-DRAW-CUT-FOUR",
        "V8-DEALER-DRAW-SHUFFLER-DEALS",
    } <= cited


@pytest.mark.clause("V8-DEALER-DRAW-REDRAW-IDENTICAL")
def test_V8_DEALER_DRAW_REDRAW_IDENTICAL() -> None:
    players = ["Ann", "Bo", "Cy", "Di", "Ed"]
    for seed in range(3000):
        outcome = GAME.apply(
            GAME.deal(VVV8, players, seed), GAME.legal_actions(GAME.deal(VVV8, players, seed))[0]
        )
        if any(e.kind == "redraw" for e in outcome.events):
            assert "V8-DEALER-DRAW-REDRAW-IDENTICAL" in {
                c for e in outcome.events for c in e.clauses
            }
            return
    pytest.fail("no seed produced identical lowest cards")


@pytest.mark.clause(
    "V8-DEAL-FORHAND",
    "V8-DEAL-ONE-AT-A-TIME-CLOCKWISE",
    "V8-DEAL-FACE-DOWN",
    "V8-DEAL-SEVEN-ROUNDS",
    "V8-START-CARD-FACE-UP",
    "V8-START-REST-IS-TALON",
    "V8-PLAY-FORHAND-FIRST",
)
def test_V8_DEAL_ONE_AT_A_TIME_CLOCKWISE() -> None:
    state, cited = act(ready(["10S"]), action="deal")
    assert [h[0].code for h in state.hands] == ["2C", "2D", "2H"]
    assert all(len(h) == 7 for h in state.hands) and len(state.stock) == 52 - 22
    assert state.pile[-1].code == "10S" and state.turn == 0  # Ann, left of the dealer Cy
    assert {"V8-DEAL-SEVEN-ROUNDS", "V8-START-CARD-FACE-UP", "V8-PLAY-FORHAND-FIRST"} <= cited


@pytest.mark.clause("V8-START-ACE-ALL-DRAW", "V8-START-ACE-ONLY-WITH-VIGGO")
def test_V8_START_ACE_ALL_DRAW() -> None:
    without, cited = act(ready(["AS"]), action="deal")
    assert [len(h) for h in without.hands] == [7, 7, 7]
    assert "V8-START-ACE-ONLY-WITH-VIGGO" in cited
    viggo, cited = act(ready(["AS"], ["Ann", "Viggo", "Cy"]), action="deal")
    assert [len(h) for h in viggo.hands] == [8, 8, 8] and "V8-START-ACE-ALL-DRAW" in cited


@pytest.mark.clause("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-DEFAULT-SUIT")
def test_V8_START_EIGHT_DEALER_NAMES_SUIT() -> None:
    state, _ = act(ready(["8S"]), action="deal")
    assert state.phase is Phase.START_SUIT
    assert "V8-START-EIGHT-DEALER-NAMES-SUIT" in refused(state, action="play", cards=["2C"])
    named, cited = act(state, action="name-suit", suit="C")
    assert named.named_suit is not None and "V8-START-EIGHT-DEALER-NAMES-SUIT" in cited
    act(named, action="play", cards=["2C"])
    none, cited = act(state, action="name-suit", suit=None)
    assert "V8-START-EIGHT-DEFAULT-SUIT" in cited
    assert "V8-PLAY-MATCH-SUIT" in refused(none, action="play", cards=["2C"])


@pytest.mark.clause(
    "V8-WIN-AIM-SHED-CARDS",
    "V8-WIN-FIRST-OUT-WINS",
    "V8-WIN-FIRST-TO-PLAY-LAST-CARD",
    "V8-LOSS-PLAYER-BEFORE-WINNER",
    "V8-SCORING-WIN-LOSS-TALLY",
    "V8-LOSS-OFFICIAL-NEEDS-THREE",
    "V8-SESSION-LOSER-DEALS-NEXT",
    "V8-CALL-REQUIRED-TO-WIN",
)
def test_V8_WIN_FIRST_OUT_WINS() -> None:
    state = position(
        turn="Bo",
        dealer="Cy",
        calls=["Bo"],
        pile=["9S", "5S"],
        hands=hands(Ann="3C 4C KS", Bo="5H 5C", Cy="2D 3D"),
    )
    after, cited = act(state, action="play", cards=["5H", "5C"])
    assert after.phase is Phase.DEAL_OVER and after.winner == 1 and after.loser == 0
    assert after.record.wins == (0, 1, 0) and after.record.losses == (1, 0, 0)
    assert after.dealer == 0
    assert {
        "V8-WIN-FIRST-OUT-WINS",
        "V8-LOSS-PLAYER-BEFORE-WINNER",
        "V8-SESSION-LOSER-DEALS-NEXT",
    } <= cited
    nocall = position(turn="Bo", pile=["9S", "5S"], hands=hands(Ann="3C", Bo="5H", Cy="2D"))
    assert "V8-CALL-REQUIRED-TO-WIN" in refused(nocall, action="play", cards=["5H"])
    redeal, cited = act(after, action="deal")
    assert redeal.dealer == 0 and "V8-DEALER-DRAW-HELD" not in cited


@pytest.mark.clause(
    "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER",
    "V8-PRESENCE-ABSENT-NOT-ACTIVE",
    "V8-ACE-ABSENT-ALSO-DRAWS",
)
def test_V8_PRESENCE_ABSENT_NOT_COUNTED_FOR_LOSER() -> None:
    four = ["Ann", "Bo", "Cy", "Di"]
    state = GAME.position_from_data(
        {
            "players": four,
            "turn": "Bo",
            "calls": ["Bo"],
            "away": ["Ann"],
            "pile": ["5S"],
            "stock": ["2S", "3S", "4S"],
            "hands": {"Ann": ["3C"], "Bo": ["AS", "7S"], "Cy": ["2D"], "Di": ["4D"]},
        },
        VVV8,
    )
    after, _ = act(state, action="play", cards=["AS"])
    assert [len(h) for h in after.hands] == [2, 1, 2, 2]  # Ann, away, also gets a card
    won, _ = act(after, action="play", cards=["7S"])
    assert won.loser == 3  # Di: Ann, seated before Bo, is away
    three = position(
        turn="Bo", calls=["Bo"], away=["Ann"], pile=["5S"], hands=hands(Ann="3C", Bo="5H", Cy="2D")
    )
    won, cited = act(three, action="play", cards=["5H"])
    assert won.record.official == 0 and "V8-PRESENCE-ABSENT-NOT-ACTIVE" in cited


@pytest.mark.clause("V8-SCORING-NO-POINTS-SLAGPASE")
def test_V8_SCORING_NO_POINTS_SLAGPASE() -> None:
    state = position(
        {"slagpase": True},
        turn="Bo",
        calls=["Bo"],
        pile=["5S"],
        hands=hands(Ann="3C", Bo="5H", Cy="2D"),
    )
    won, cited = act(state, action="play", cards=["5H"])
    assert won.record.official == 0 and "V8-SCORING-NO-POINTS-SLAGPASE" in cited


@pytest.mark.clause(
    "V8-PLAY-MATCH-SUIT",
    "V8-PLAY-MATCH-RANK",
    "V8-TURN-SAME-RULES-FOR-ALL",
    "V8-TURN-PASS-AFTER-PLAY",
    "V8-TURN-NEXT-BECOMES-SPELFORARE",
    "V8-TURN-CLOCKWISE",
)
def test_V8_PLAY_MATCH_SUIT() -> None:
    state = position(
        turn="Cy", previous="Bo", pile=["7H", "9H"], hands=hands(Ann="3C", Bo="5H", Cy="2H 9C 4S")
    )
    act(state, action="play", cards=["2H"])
    after, cited = act(state, action="play", cards=["9C"])
    assert after.turn == 0 and {"V8-PLAY-MATCH-RANK", "V8-TURN-PASS-AFTER-PLAY"} <= cited
    assert "V8-PLAY-MATCH-SUIT" in refused(state, action="play", cards=["4S"])


@pytest.mark.clause(
    "V8-PLAY-SUIT-THEN-SAME-RANK",
    "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER",
    "V8-PLAY-EXCEPTION-SAME-RANK-AS-START",
    "V8-PEN-WRONG-CARD-EACH-FITS-BELOW",
    "V8-PLAY-SHOW-EVERY-CARD",
)
def test_V8_PLAY_SUIT_THEN_SAME_RANK() -> None:
    state = position(turn="Bo", pile=["7H"], hands=hands(Ann="3C", Bo="9H 9S 9C 4S", Cy="2D"))
    after, cited = act(state, action="play", cards=["9H", "9S", "9C"])
    assert after.pile[-1].code == "9C" and "V8-PLAY-SUIT-THEN-SAME-RANK" in cited
    assert refused(state, action="play", cards=["9S", "9H"])
    assert "V8-PEN-WRONG-CARD-EACH-FITS-BELOW" in refused(
        state, action="play", cards=["9H", "9S", "4S"]
    )
    start = position(turn="Ann", pile=["5H"], hands=hands(Ann="5S 5C 3D", Bo="2C", Cy="2D"))
    act(start, action="play", cards=["5S", "5C"])
    act(start, action="play", cards=["5C", "5S"])


@pytest.mark.clause(
    "V8-ACE-OTHERS-DRAW-ONE",
    "V8-ACE-SAME-PLAYER-AGAIN",
    "V8-DRAW-ACE-AFTER-DRAWING",
    "V8-CALL-ACE-DRAW-NOT-SPELFORARE",
)
def test_V8_ACE_OTHERS_DRAW_ONE() -> None:
    state = position(
        turn="Bo",
        pile=["4H"],
        stock=["9C", "AH", "2S", "3S"],
        hands=hands(Ann="3C", Bo="5D 6D", Cy="2D"),
    )
    state, _ = act(state, action="draw")
    state, _ = act(state, action="draw")
    state, cited = act(state, action="play", cards=["AH"])
    assert state.turn == 1 and state.draws == 0 and [len(h) for h in state.hands] == [2, 3, 2]
    assert {"V8-ACE-OTHERS-DRAW-ONE", "V8-ACE-SAME-PLAYER-AGAIN"} <= cited
    assert "V8-DRAW-ACE-AFTER-DRAWING" in cited


@pytest.mark.clause(
    "V8-EIGHT-ON-ANY-CARD",
    "V8-EIGHT-ONE-PER-PLAY",
    "V8-EIGHT-ENDS-TURN",
    "V8-EIGHT-NAMES-SUIT",
    "V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED",
)
def test_V8_EIGHT_ENDS_TURN() -> None:
    state = position(turn="Ann", pile=["4H"], hands=hands(Ann="8C 8D 3C", Bo="3S 4D", Cy="2D 5S"))
    assert "V8-EIGHT-ONE-PER-PLAY" in refused(state, action="play", cards=["8C", "8D"], suit="S")
    after, cited = act(state, action="play", cards=["8C"], suit="D")
    assert after.turn == 1 and {"V8-EIGHT-ENDS-TURN", "V8-EIGHT-NAMES-SUIT"} <= cited
    assert "V8-EIGHT-SUIT-HOLDS-UNTIL-CHANGED" in refused(after, action="play", cards=["3S"])
    act(after, action="play", cards=["4D"])


@pytest.mark.clause(
    "V8-DRAW-NOT-OBLIGED-TO-PLAY",
    "V8-DRAW-WHEN-NOT-PLAYING",
    "V8-DRAW-STOP-WHEN-PLAYING",
    "V8-DRAW-MAX-THREE",
    "V8-TURN-PASS-AFTER-THREE-DRAWS",
)
def test_V8_DRAW_NOT_OBLIGED_TO_PLAY() -> None:
    state = position(
        turn="Ann",
        pile=["4H"],
        stock=["2S", "3S", "4S"],
        hands=hands(Ann="5H 6C", Bo="3C", Cy="2D"),
    )
    assert "V8-DRAW-WHEN-NOT-PLAYING" in refused(state, action="pass")
    state, cited = act(state, action="draw")  # 5H would fit: he need not play it
    assert "V8-DRAW-NOT-OBLIGED-TO-PLAY" in cited
    act(state, action="play", cards=["5H"])
    state, _ = act(state, action="draw")
    state, _ = act(state, action="draw")
    assert "V8-DRAW-MAX-THREE" in refused(state, action="draw")
    after, cited = act(state, action="pass")
    assert after.turn == 1 and "V8-TURN-PASS-AFTER-THREE-DRAWS" in cited


@pytest.mark.clause("V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT")
def test_V8_WIN_LAST_CARD_NOT_ACE_OR_EIGHT() -> None:
    state = position(turn="Bo", calls=["Bo"], pile=["5D"], hands=hands(Ann="3C", Bo="AD", Cy="2D"))
    assert "V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT" in refused(state, action="play", cards=["AD"])


@pytest.mark.clause(
    "V8-CALL-TIMING",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT",
    "V8-CALL-CARD-COUNT-ON-DEMAND",
    "V8-CALL-CARD-COUNT-ALL-HELD",
)
def test_V8_CALL_VALID_NEXT_TURN_ONLY() -> None:
    assert "V8-CALL-TIMING" in refused(
        position(turn="Ann", pile=["4H"], hands=hands(Ann="AH 5H 5S", Bo="3C", Cy="2D")),
        action="play",
        cards=["AH"],
        call=True,
    )
    state = position(
        turn="Ann",
        pile=["4H"],
        stock=["2S", "3S", "4S", "JC", "QC", "KC"],
        hands=hands(Ann="5H 5S 9H", Bo="3C", Cy="2D"),
    )
    called, cited = act(state, action="play", cards=["9H"], call=True)
    assert called.calls == {0} and "V8-CALL-TIMING" in cited
    for _ in range(2):  # Bo and Cy draw three and pass
        for _ in range(3):
            called, _ = act(called, action="draw")
        called, _ = act(called, action="pass")
    assert called.turn == 0 and 0 in called.calls
    for _ in range(3):
        called, _ = act(called, action="draw")
    lapsed, cited = act(called, action="pass")
    assert lapsed.calls == frozenset() and "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT" in cited


@pytest.mark.clause(
    "V8-CALL-ONLY-WITH-REAL-CHANCE", "V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-CHANCE-TEST"
)
def test_V8_CALL_ONLY_WITH_REAL_CHANCE() -> None:
    two_ranks = position(turn="Ann", pile=["4H"], hands=hands(Ann="9H 5H 6H", Bo="3C", Cy="2D"))
    assert "V8-CALL-ONLY-WITH-REAL-CHANCE" in refused(
        two_ranks, action="play", cards=["9H"], call=True
    )
    eight = position(turn="Ann", pile=["4H"], hands=hands(Ann="9H 5H 8C", Bo="3C", Cy="2D"))
    assert "V8-CALL-NEVER-WITH-EIGHT" in refused(eight, action="play", cards=["9H"], call=True)
    lenient = position(
        {"real_chance_test": "lenient"},
        turn="Ann",
        pile=["4H"],
        hands=hands(Ann="9H 5H 6H", Bo="3C", Cy="2D"),
    )
    act(lenient, action="play", cards=["9H"], call=True)


@pytest.mark.clause(
    "V8-TALON-REBUILD-TOP-ASIDE",
    "V8-TALON-REBUILD-UNSHUFFLED",
    "V8-TALON-REBUILD-REFERENCE-CARD",
    "V8-TALON-REBUILD-DURING-ANY-DRAW",
)
def test_V8_TALON_REBUILD_UNSHUFFLED() -> None:
    from regelverk.cards import french_deck

    pile = ["2C", "3C", "4C", "5C"]
    rest = [c.code for c in french_deck() if c.code not in pile]
    state = position(
        {"session": "free-time"},
        turn="Ann",
        pile=pile,
        hands={"Ann": rest[:16], "Bo": rest[16:32], "Cy": rest[32:]},
    )
    assert state.stock == ()
    after, cited = act(state, action="draw")
    assert after.hands[0][-1].code == "2C"  # the oldest card played comes first
    assert [c.code for c in after.pile] == ["5C"] and [c.code for c in after.stock] == ["4C", "3C"]
    assert {"V8-TALON-REBUILD-UNSHUFFLED", "V8-TALON-REBUILD-REFERENCE-CARD"} <= cited


@pytest.mark.clause(
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-TWO-DECKS",
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
    "V8-SESSION-DEALER-WITHOUT-LOSER",
)
def test_V8_TALON_DRAWN_ONE_DECK() -> None:
    from regelverk.cards import french_deck

    pile = ["2C", "3C", "4C", "5C"]
    rest = [c.code for c in french_deck() if c.code not in [*pile, "KD"]]
    fields = {
        "turn": "Ann",
        "dealer": "Cy",
        "pile": pile,
        "stock": ["KD"],
        "talon_passes": 2,
        "hands": {"Ann": rest[:16], "Bo": rest[16:32], "Cy": rest[32:]},
    }
    state = position(**fields)  # type: ignore[arg-type]
    drawn, cited = act(state, action="draw")
    assert drawn.phase is Phase.DEAL_OVER and drawn.winner is None and drawn.dealer == 2
    assert "V8-TALON-DRAWN-ONE-DECK" in cited and "V8-SESSION-DEALER-WITHOUT-LOSER" in cited
    free = position({"session": "free-time"}, **fields)
    assert act(free, action="draw")[0].phase is Phase.PLAY


@pytest.mark.clause("V8-SESSION-LEAP-DAY-CHAMPION")
def test_V8_SESSION_LEAP_DAY_CHAMPION() -> None:
    record = {
        "wins": {"Ann": 10, "Bo": 6},
        "losses": {"Ann": 8, "Bo": 2, "Cy": 6},
        "deals": 20,
        "official": 16,
    }
    state = position(
        phase="deal-over", pile=["5C"], record=record, hands=hands(Ann="3C", Bo="4C", Cy="2D")
    )
    after, cited = act(state, action="leap-day")
    assert after.phase is Phase.MATCH_OVER and after.record.champions == (0,)
    assert "V8-SESSION-LEAP-DAY-CHAMPION" in cited
    net = GAME.position_from_data(
        GAME.position_to_data(state), with_options(VVV8, {"scoring": "net-score"})
    )
    assert act(net, action="leap-day")[0].record.champions == (1,)


@pytest.mark.clause("V8-CALL-ALTERNATIVE-WORDS")
def test_V8_CALL_ALTERNATIVE_WORDS() -> None:
    state = position(turn="Ann", pile=["4H"], hands=hands(Ann="9H 5H 5S", Bo="3C", Cy="2D"))
    for word in ("utgång", "Varning", "LAPPEN"):
        action = GAME.action_from_data({"action": "play", "cards": ["9H"], "call": word}, state)
        assert GAME.apply(state, action).state.calls == {0}
    # any other word is no call at this table (accepted_calls = listed-and-agreed) ...
    other = GAME.action_from_data(
        {"action": "play", "cards": ["9H"], "call": "sista kortet"}, state
    )
    assert GAME.apply(state, other).state.calls == frozenset()
    # ... unless the table has agreed on it beforehand
    agreed = with_options(state.options, {"agreed_calls": ("sista kortet",)})
    assert GAME.apply(dataclasses.replace(state, options=agreed), other).state.calls == {0}
    with pytest.raises(ActionError, match="'call'"):
        GAME.action_from_data({"action": "play", "cards": ["9H"], "call": 3}, state)


@pytest.mark.clause("V8-WIN-BLOCKED-DEAL-VOID", "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK")
def test_V8_WIN_BLOCKED_DEAL_VOID() -> None:
    """Free time: the talon is empty, the pile is its top card 4♣ alone, and every card that
    would fit lies among locked penalty cards; each player passes in turn and the deal is void,
    without a winner or a loser (V8-AMB-BLOCKED-DEAL's situation)."""
    from regelverk.cards import french_deck

    fits = {c.code for c in french_deck() if c.suit.value == "C" or c.rank in (4, 8)} - {"4C"}
    rest = [c.code for c in french_deck() if c.code not in fits and c.code != "4C"]
    locked = sorted(fits)
    options = with_options(VVV8, {"session": "free-time"})
    state = GAME.position_from_data(
        {
            "players": ["A", "B", "C"],
            "dealer": "C",
            "turn": "A",
            "pile": ["4C"],
            "hands": {"A": rest[:12], "B": rest[12:24], "C": rest[24:]},
            "penalties": {"A": locked[:6], "B": locked[6:12], "C": locked[12:]},
        },
        options,
    )
    assert GAME.problems(state) == () and state.stock == ()
    state, _ = act(state, action="pass")
    state, _ = act(state, action="pass")
    assert state.phase is Phase.PLAY
    state, cited = act(state, action="pass")
    assert state.phase is Phase.DEAL_OVER and state.winner is None
    assert "V8-WIN-BLOCKED-DEAL-VOID" in cited


@pytest.mark.clause("V8-CALL-TIMING", "V8-DRAW-MAX-THREE")
def test_V8_CALL_TIMING_with_a_third_draw_that_ends_the_turn_is_listed() -> None:
    """Under play_after_third_draw = third-draw-ends-turn the third draw is the last action of
    the turn, so utgång may be said with it (before the turn is handed on): ``check`` accepted
    the call, and the listing now offers it too (it used to leave every called draw out under
    utgång, so a client building the action and random play disagreed)."""
    from regelverk.vandatta.state import Draw

    state = position(
        {"play_after_third_draw": "third-draw-ends-turn"},
        dealer="Cy",
        turn="Ann",
        draws=2,
        pile=["9C"],
        stock=["5S", "2C", "3C", "4C"],
        hands=hands(Ann="5H 5D", Bo="KD QD", Cy="JD 10D"),
    )
    called = Draw(player=0, call=True)
    GAME.check(state, called)
    assert called in GAME.legal_actions(state)
    after, cited = act(state, action="draw", call=True)
    assert after.turn == 1 and 0 in after.calls and "V8-CALL-TIMING" in cited


@pytest.mark.clause("V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER", "V8-PLAY-SUIT-THEN-SAME-RANK")
def test_V8_PLAY_RANK_THEN_SAME_RANK_FREE_ORDER_every_order_is_listed() -> None:
    """Four of a rank laid together may go down in any order after the first card: each order
    is a play of its own (the pile keeps it), ``check`` accepts each, and the listing now lists
    each (it used to list one order of the cards between the first and the top)."""
    from itertools import permutations

    from regelverk.cards import parse_cards
    from regelverk.vandatta.state import Play

    state = position(
        dealer="Cy",
        turn="Ann",
        pile=["9C"],
        stock=["2C", "3C", "4C"],
        hands=hands(Ann="5C 5D 5H 5S KD", Bo="KH QD", Cy="JD 10D"),
    )
    listed = GAME.legal_actions(state)
    first, *rest = parse_cards("5C 5D 5H 5S")
    for order in permutations(rest):
        play = Play(player=0, cards=(first, *order))
        GAME.check(state, play)
        assert play in listed


@pytest.mark.clause("V8-JOIN-LATE-TAKE-FREE-SEAT", "V8-DEAL-SEVEN-ROUNDS")
def test_V8_JOIN_LATE_TAKE_FREE_SEAT_only_while_the_next_deal_can_be_dealt() -> None:
    """Under deck_setup = one-deck, seven players and a start card take 50 of the 52 cards: an
    eighth would need 57, so there is no free seat for a late joiner (``check`` used to seat
    him, and the next deal then crashed on an empty stock)."""
    from regelverk.vandatta.state import Join

    seven = ["A", "B", "C", "D", "E", "F", "G"]
    options = with_options(VVV8, {"deck_setup": "one-deck", "session": "free-time"})

    def in_play(players: list[str]) -> State:
        state = GAME.deal(options, players, seed=5)
        while state.phase is not Phase.PLAY:
            state = GAME.apply(state, GAME.legal_actions(state)[0]).state
        return state

    with pytest.raises(IllegalActionError, match=r"no free seat.*57 cards") as error:
        GAME.check(in_play(seven), Join(name="H", seat=3))
    assert "V8-DEAL-SEVEN-ROUNDS" in error.value.clauses
    GAME.check(in_play(seven[:6]), Join(name="G", seat=3))


# --- the clause that decided the ruling is cited ----------------------------------------------


@pytest.mark.clause("V8-MISDEAL-TOO-MANY-RETURN")
def test_V8_MISDEAL_TOO_MANY_RETURN_a_kept_surplus_is_cited() -> None:
    def misdeal(bo: str, **options: Any) -> State:
        return position(
            options,
            phase="misdeal",
            dealer="Cy",
            turn="Ann",
            pile=["10H"],
            hands=hands(Ann="2C 3C 4C 5C 6C 7C 9C", Bo=bo, Cy="2H 3H 4H 5H 6H 7H 9H"),
        )

    kept, cited = act(misdeal("2D 3D 4D 5D 6D 8D 8S 9D"), action="complete", player="Cy")
    assert len(kept.hands[1]) == 8 and "V8-MISDEAL-TOO-MANY-RETURN" in cited
    strict = misdeal("2D 3D 4D 5D 6D 8D 8S 9D", surplus_return="must-return")
    assert "V8-MISDEAL-TOO-MANY-RETURN" in refused(strict, action="complete", player="Cy")
    # nobody dealt too many: the clause has nothing to say
    _, plain = act(misdeal("2D 3D 4D 5D 6D 8D 9D"), action="complete", player="Cy")
    assert "V8-MISDEAL-TOO-MANY-RETURN" not in plain


@pytest.mark.clause("V8-START-EIGHT-FORHAND-EARLY-PENALTY", "V8-START-EIGHT-DEALER-NAMES-SUIT")
def test_V8_START_EIGHT_FORHAND_EARLY_PENALTY_is_cited_when_it_spares_him() -> None:
    def named(suit: str, reading: str) -> tuple[State, set[str]]:
        state = position(
            {"start_eight_other_suit": reading},
            phase="start-suit",
            dealer="Cy",
            turn="Ann",
            early=["5S"],
            pile=["8H"],
            stock=["2S", "3S", "4S"],
            hands=hands(Ann="2C 3C 4C 6C 7C 9C", Bo="2D 3D 4D", Cy="2H 3H 4H"),
        )
        return act(state, action="name-suit", player="Cy", suit=suit)

    spared, cited = named("S", "other-than-forhand-card")
    assert spared.pile[-1].code == "5S" and not spared.penalties[0]
    assert "V8-START-EIGHT-FORHAND-EARLY-PENALTY" in cited
    eights, cited = named("H", "other-than-eight-suit")
    assert not eights.penalties[0] and "V8-START-EIGHT-FORHAND-EARLY-PENALTY" in cited
    penalised, cited = named("S", "other-than-eight-suit")
    assert penalised.penalties[0] and "V8-START-EIGHT-FORHAND-EARLY-PENALTY" in cited


@pytest.mark.clause("V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER", "V8-LOSS-PLAYER-BEFORE-WINNER")
def test_V8_PRESENCE_ABSENT_NOT_COUNTED_FOR_LOSER_is_cited_on_the_loser() -> None:
    def won(away: list[str], reading: str = "seat-before") -> tuple[State, set[str]]:
        state = GAME.position_from_data(
            {
                "players": ["Ann", "Bo", "Cy", "Di"],
                "turn": "Ann",
                "calls": ["Ann"],
                "away": away,
                "pile": ["5S"],
                "hands": {"Ann": ["5H"], "Bo": ["2D"], "Cy": ["3C"], "Di": ["6D"]},
            },
            with_options(VVV8, {"loser_rule": reading}),
        )
        return act(state, action="play", cards=["5H"])

    for reading in ("seat-before", "last-turn-before"):
        passed, cited = won(["Di"], reading)
        assert passed.loser == 2 and "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER" in cited
        present, cited = won([], reading)
        assert present.loser == 3 and "V8-LOSS-PLAYER-BEFORE-WINNER" in cited
        assert "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER" not in cited
    # someone away who does not sit between the loser and the winner is not passed over
    elsewhere, cited = won(["Bo"])
    assert elsewhere.loser == 3 and "V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER" not in cited


@pytest.mark.clause("V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER", "V8-PLAY-SUIT-THEN-SAME-RANK")
def test_V8_PLAY_RANK_THEN_SAME_RANK_FREE_ORDER_is_cited_for_a_rank_opening() -> None:
    state = position(pile=["7H"], hands=hands(Ann="7C 7S 7D 2C 4H 4S", Bo="2D", Cy="5D"))
    _, by_rank = act(state, action="play", cards=["7C", "7S", "7D"])
    assert "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER" in by_rank
    assert "V8-PLAY-SUIT-THEN-SAME-RANK" not in by_rank
    _, by_suit = act(state, action="play", cards=["4H", "4S"])
    assert "V8-PLAY-SUIT-THEN-SAME-RANK" in by_suit
    assert "V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER" not in by_suit
