"""Scenario tests for the readings of the end of a deal and of the match (group "endings").

Each test builds the situation of its register entry and states what happens under the reading
and under the register's default: a blocked deal (VA-AMB-BLOCKED-DEAL, V8-AMB-BLOCKED-DEAL),
players at 100 (VA-AMB-OVER-100), nobody left alone below 100 (VA-AMB-NOBODY-UNDER-100), a deal
that could go on for ever (VA-AMB-ENDLESS-DEAL) and the talon running out in the middle of a
penalty (V8-AMB-TALON-EXHAUSTED-MIDDRAW).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from regelverk.cards import Suit, french_deck
from regelverk.engine import is_allowed, with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import Draw, Pass, Phase, Play, Remark, RemarkKind, State


def position(
    base: VandattaOptions,
    options: dict[str, Any],
    players: list[str],
    hands: dict[str, str],
    top: str,
    *,
    stock: int = 0,
    penalties: dict[str, str] | None = None,
    **fields: Any,
) -> State:
    """A position in play: the hands (and face-down penalty cards) as given, ``top`` on the
    pile, ``stock`` cards in the talon and every other card of the deck below the pile's top."""
    opts = with_options(base, options)
    held = {name: cards.split() for name, cards in hands.items()}
    locked = {name: cards.split() for name, cards in (penalties or {}).items()}
    state = GAME.position_from_data({"players": players, "hands": held}, opts)
    placed = Counter(c for cards in [*held.values(), *locked.values()] for c in cards)
    placed[top] += 1
    rest = sorted((Counter(c.code for c in french_deck(state.decks)) - placed).elements())
    data = {
        "players": players,
        "hands": held,
        "penalties": locked,
        "pile": [*rest[stock:], top],
        "stock": rest[:stock],
        **fields,
    }
    state = GAME.position_from_data(data, opts)
    assert GAME.problems(state) == ()
    return state


def pass_round(state: State, count: int) -> tuple[State, set[str]]:
    """``count`` players pass in turn; the clauses the passes cite."""
    cited: set[str] = set()
    for _ in range(count):
        assert is_allowed(GAME, state, Pass(player=state.turn)), GAME.legal_actions(state)
        outcome = GAME.apply(state, Pass(player=state.turn))
        state = outcome.state
        assert GAME.problems(state) == ()
        cited |= {c for e in outcome.events for c in e.clauses}
    return state, cited


# --- VA-AMB-BLOCKED-DEAL -------------------------------------------------------------------

SIX = ["A", "B", "C", "D", "E", "F"]
BLOCKED_HANDS = {
    "A": "KS QS 2S 3S",  # 30 points: the cheapest hand
    "B": "KC QC 10C 2C",  # 35
    "C": "KD QD 10D 3D",  # 35
    "D": "JS 10S AS",  # 35
    "E": "JC AC 3C 4C",  # 35
    "F": "JD AD 2D 4D",  # 35
}
"""Nothing in a hand fits 9♥ (no hearts, nines or eights; an ace only by suit)."""
BLOCKED_TOTALS = {"A": 80, "B": 40, "C": 50, "D": 55, "E": 30, "F": 20}


def blocked(reading: str, hands: dict[str, str] = BLOCKED_HANDS, dealer: str = "F") -> State:
    """Six players, the stock empty and not rebuilt (empty_stock = no-rebuild), nobody able to
    lay on 9♥; A 80, B 40 and the others below 60 before the deal."""
    return position(
        VANDATTA,
        {"blocked_deal": reading, "empty_stock": "no-rebuild"},
        SIX,
        hands,
        "9H",
        dealer=dealer,
        record={"points": BLOCKED_TOTALS, "deals": 2},
    )


@pytest.mark.clause("VA-WIN-BLOCKED-DEAL-VOID", "VA-SCORING-WINNER-ZERO", "VA-SCORING-OTHERS-COUNT")
def test_a_blocked_deal_is_won_by_the_cheapest_hand_under_fewest_points_wins() -> None:
    after, cited = pass_round(blocked("fewest-points-wins"), 6)
    assert after.phase is Phase.DEAL_OVER and after.winner == 0
    assert after.record.points == (80, 75, 85, 90, 65, 55)  # A scores nothing, B goes to 75
    assert after.record.out == frozenset() and after.dealer == 0  # A deals next (rotate-left)
    assert {"VA-WIN-BLOCKED-DEAL-VOID", "VA-SCORING-OTHERS-COUNT"} <= cited
    # the default: void, nothing scored, the same dealer again
    void, _ = pass_round(blocked("void"), 6)
    assert void.phase is Phase.DEAL_OVER and void.winner is None
    assert void.record.points == (80, 40, 50, 55, 30, 20) and void.dealer == 5
    # count-hands: A goes to 110 and is out
    counted, _ = pass_round(blocked("count-hands"), 6)
    assert counted.record.points[:2] == (110, 75) and counted.record.out == {0}


@pytest.mark.clause("VA-WIN-BLOCKED-DEAL-VOID", "VA-SCORING-OTHERS-COUNT")
def test_equal_cheapest_hands_go_to_the_first_from_the_dealers_left() -> None:
    tied = {**BLOCKED_HANDS, "D": "JS 10S 4S 5S"}  # 30, like A
    after, _ = pass_round(blocked("fewest-points-wins", tied), 6)
    assert after.winner == 0  # F deals: A comes before D
    after, _ = pass_round(blocked("fewest-points-wins", tied, dealer="B"), 6)
    assert after.winner == 3  # B deals: C, D, E, F, A, B, so D comes first
    assert after.record.points[3] == 55 and after.record.points[0] == 110


# --- V8-AMB-BLOCKED-DEAL -------------------------------------------------------------------

_CLUBS_FOURS_EIGHTS = " ".join(
    c.code
    for c in french_deck(1)
    if c.code != "4C" and (c.suit.value == "C" or c.rank.value in (4, 8))
)


def vvv8_blocked(reading: str) -> State:
    """Free time, three players: the talon empty, the pile 4♣ alone, every other club, four and
    eight among A's locked penalty cards, which come free at the end of his turn."""
    fitting = set(_CLUBS_FOURS_EIGHTS.split())
    plain = [c.code for c in french_deck(1) if c.code not in fitting and c.code != "4C"]
    hands = {"A": " ".join(plain[0::3]), "B": " ".join(plain[1::3]), "C": " ".join(plain[2::3])}
    opts = with_options(VVV8, {"session": "free-time", "blocked_deal": reading})
    state = GAME.position_from_data(
        {
            "players": ["A", "B", "C"],
            "hands": {k: v.split() for k, v in hands.items()},
            "penalties": {"A": sorted(fitting)},
            "pile": ["4C"],
            "stock": [],
        },
        opts,
    )
    assert GAME.problems(state) == ()
    return state


@pytest.mark.clause("V8-WIN-BLOCKED-DEAL-VOID", "V8-TURN-PASS-AFTER-THREE-DRAWS")
def test_a_blocked_vvv8_deal_goes_on_under_play_on() -> None:
    after, _ = pass_round(vvv8_blocked("play-on"), 3)
    assert after.phase is Phase.PLAY and after.turn == 0 and after.winner is None
    plays = [a for a in GAME.legal_actions(after) if isinstance(a, Play)]
    assert plays and all(
        p.cards[0].suit.value == "C" or p.cards[0].rank.value in (4, 8) for p in plays
    )
    # nothing ends it: the players may pass round after round, and can always act
    later, _ = pass_round(after, 9)
    assert later.phase is Phase.PLAY and GAME.legal_actions(later)
    # the default: void after C's pass, although A now holds clubs
    void, cited = pass_round(vvv8_blocked("void"), 3)
    assert void.phase is Phase.DEAL_OVER and void.winner is None
    assert "V8-WIN-BLOCKED-DEAL-VOID" in cited


@pytest.mark.clause(
    "V8-LOSS-PLAYER-BEFORE-WINNER", "V8-WIN-BLOCKED-DEAL-VOID", "V8-SCORING-WIN-LOSS-TALLY"
)
@pytest.mark.parametrize("loser_rule", ["last-turn-before", "seat-before"])
def test_the_cheapest_hand_of_a_blocked_deal_never_loses_it_too(loser_rule: str) -> None:
    """Three options together (V8-AMB-BLOCKED-DEAL = fewest-points-wins, no rebuilt talon,
    V8-AMB-LOSER-WHO-IS-BEFORE = last-turn-before): C passes last and holds the cheapest hand.
    The deal has no winning turn, so the last spelförare is C himself; the loser is B, seated
    before him, and C is not both winner and loser."""
    hands = {"A": "KS QS 2S 3S", "B": "KC QC 10C 2C", "C": "2D 3D 4D"}
    options = {
        "session": "free-time",
        "blocked_deal": "fewest-points-wins",
        "empty_stock": "no-rebuild",
        "loser_rule": loser_rule,
    }
    after, cited = pass_round(position(VVV8, options, ["A", "B", "C"], hands, "9H"), 3)
    assert after.phase is Phase.DEAL_OVER and after.previous == 2 and after.winner == 2
    assert after.record.wins == (0, 0, 1) and after.record.losses == (0, 1, 0)
    assert "V8-LOSS-PLAYER-BEFORE-WINNER" in cited


# --- VA-AMB-OVER-100 -----------------------------------------------------------------------

FOUR = ["A", "B", "C", "D"]


@pytest.mark.clause("VA-SCORING-GAME-WINNER", "VA-SCORING-WINNER-ZERO", "VA-SCORING-OTHERS-COUNT")
def test_players_at_the_limit_play_on_under_play_on() -> None:
    totals = {"A": 40, "B": 85, "C": 104, "D": 60}
    state = position(
        VANDATTA,
        {"over_limit": "play-on"},
        FOUR,
        {"A": "2C 3C", "B": "KC 10D", "C": "9S", "D": "4C"},
        "9H",
        stock=10,
        turn="C",
        record={"points": totals},
    )
    after = GAME.apply(state, Play(player=2, cards=(state.hands[2][0],))).state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.DEAL_OVER and after.winner == 2
    assert after.record.points == (50, 105, 104, 65)  # C scores nothing, B is pushed over 100
    assert after.record.out == frozenset()  # nobody drops out: all are dealt the next deal
    dealt = GAME.apply(after, GAME.legal_actions(after)[0]).state
    assert all(len(h) >= 7 for h in dealt.hands)
    # the default: C, at 104, is out and is not dealt in
    ready = GAME.position_from_data(
        {"players": FOUR, "phase": "ready", "deal": 3, "record": {"points": totals, "out": ["C"]}},
        VANDATTA,
    )
    dealt = GAME.apply(ready, GAME.legal_actions(ready)[0]).state
    assert dealt.hands[2] == () and all(len(dealt.hands[s]) >= 7 for s in (0, 1, 3))


@pytest.mark.clause("VA-SCORING-GAME-WINNER")
def test_a_player_over_the_limit_cannot_win_the_match_under_play_on() -> None:
    state = position(
        VANDATTA,
        {"over_limit": "play-on"},
        FOUR,
        {"A": "2C", "B": "KC 10D", "C": "9S", "D": "4C"},
        "9H",
        stock=10,
        turn="C",
        record={"points": {"A": 40, "B": 85, "C": 104, "D": 98}},
    )
    after = GAME.apply(state, Play(player=2, cards=(state.hands[2][0],))).state
    assert after.phase is Phase.MATCH_OVER and after.record.champions == (0,)  # A alone below


# --- VA-AMB-NOBODY-UNDER-100 ---------------------------------------------------------------


def nobody_alone(reading: str) -> State:
    """Players over 100 play on; only B (95) and D (90) are below 100; C (110) goes out first,
    B scores 15 and D 25."""
    return position(
        VANDATTA,
        {"over_limit": "play-on", "nobody_alone": reading},
        FOUR,
        {"A": "2C", "B": "10S 3S", "C": "9S", "D": "KD 10D 5D"},
        "9H",
        stock=10,
        turn="C",
        dealer="A",
        record={"points": {"A": 120, "B": 95, "C": 110, "D": 90}, "deals": 5},
    )


@pytest.mark.clause("VA-SESSION-NOBODY-ALONE", "VA-SCORING-GAME-WINNER")
def test_nobody_alone_below_the_limit_replays_the_deal_under_replay_deal() -> None:
    state = nobody_alone("replay-deal")
    outcome = GAME.apply(state, Play(player=2, cards=(state.hands[2][0],)))
    after = outcome.state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.DEAL_OVER and after.winner is None
    assert after.record.points == (120, 95, 110, 90)  # the deal's points are taken back
    assert after.record.out == {0, 2} and after.record.deals == 6
    assert after.dealer == 1  # A, who dealt, was not below 100: B, on his left, deals
    assert any("VA-SESSION-NOBODY-ALONE" in e.clauses for e in outcome.events)
    replay = GAME.apply(after, GAME.legal_actions(after)[0]).state
    assert replay.hands[0] == replay.hands[2] == ()
    assert len(replay.hands[1]) >= 7 and len(replay.hands[3]) >= 7
    # the default: the lowest total of those below 100 before the deal wins
    won = GAME.apply(nobody_alone("lowest-total"), Play(player=2, cards=(state.hands[2][0],))).state
    assert won.phase is Phase.MATCH_OVER and won.record.champions == (1,)  # B 110, D 115
    assert won.record.points == (125, 110, 110, 115)


# --- VA-AMB-ENDLESS-DEAL -------------------------------------------------------------------


def last_card(reading: str, passes: int) -> State:
    """Two players; Ann cannot lay on 9♥ and draws the talon's last card, the stock having run
    out ``passes`` times before."""
    return position(
        VANDATTA,
        {"endless_deal": reading},
        ["Ann", "Bo"],
        {"Ann": "2C 3C 4C", "Bo": "KS QS JS"},
        "9H",
        stock=1,
        talon_passes=passes,
    )


@pytest.mark.clause("VA-DRAW-STOCK-REBUILD", "VA-DRAW-WHEN-STUCK", "VA-TURN-PLAY-UNTIL-OUT")
def test_a_deal_is_drawn_after_three_stock_passes_under_drawn_after_passes() -> None:
    state = last_card("drawn-after-passes", 2)
    draw = Draw(player=0)
    outcome = GAME.apply(state, draw)
    after = outcome.state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.DEAL_OVER and after.winner is None
    assert after.record.points == (0, 0)  # nobody scores
    assert any(
        "VA-DRAW-STOCK-REBUILD" in e.clauses for e in outcome.events if e.kind == "deal-over"
    )
    # one pass fewer: the deal goes on
    early = GAME.apply(last_card("drawn-after-passes", 1), draw).state
    assert early.phase is Phase.PLAY and early.talon_passes == 2
    # the default: the deal goes on whatever the count
    goes_on = GAME.apply(last_card("play-on", 2), draw).state
    assert goes_on.phase is Phase.PLAY and goes_on.talon_passes == 3


# --- V8-AMB-TALON-EXHAUSTED-MIDDRAW --------------------------------------------------------


def penalty_with_one_card_left(reading: str) -> State:
    """vvv8, four players: one card left in the talon, twelve on the pile; C will take the
    standard penalty of three cards."""
    opts = with_options(VVV8, {"talon_empty_mid_draw": reading})
    data = {
        "players": FOUR,
        "hands": {"A": ["2C", "3C"], "B": ["4C", "5C"], "C": ["6C", "7C"], "D": ["9C", "10C"]},
        "turn": "A",
    }
    state = GAME.position_from_data(data, opts)
    stock = [c.code for c in state.stock]
    data["stock"] = stock[-1:]  # the top card stays; the others go to the pile or the hands
    data["pile"] = stock[:12]
    spare = stock[12:-1]
    for n, name in enumerate(FOUR):
        data["hands"][name] += spare[n::4]  # type: ignore[index]
    state = GAME.position_from_data(data, opts)
    assert len(state.stock) == 1 and len(state.pile) == 12 and GAME.problems(state) == ()
    return state


@pytest.mark.clause("V8-PEN-STANDARD-THREE-CARDS", "V8-TALON-REBUILD-DURING-ANY-DRAW")
def test_a_penalty_takes_only_what_is_left_under_draw_what_is_there() -> None:
    remark = Remark(player=2, kind=RemarkKind.OTHER_HAND)
    state = penalty_with_one_card_left("draw-what-is-there")
    ruling = GAME.attempt(state, remark)
    after = ruling.state
    assert GAME.problems(after) == ()
    taken = sum(len(p.cards) for p in after.penalties[2])
    assert taken == 1 and after.stock == () and len(after.pile) == 12  # no rebuild
    # the spelförare's own draw then rebuilds the talon
    drawn = GAME.apply(after, Draw(player=after.turn))
    assert len(drawn.state.pile) == 1 and any(e.kind == "rebuild" for e in drawn.events)
    # the default: rebuild at once and finish the draw
    full = GAME.attempt(penalty_with_one_card_left("rebuild-and-continue"), remark).state
    assert sum(len(p.cards) for p in full.penalties[2]) == 3 and len(full.pile) == 1


# --- V8-AMB-REBUILD-REFERENCE-STATUS -------------------------------------------------------


def rebuild_on(reading: str, top: str, **fields: Any) -> State:
    """vvv8, Viggo playing, three players: the talon is empty, the pile holds 20 cards under
    ``top``; A is spelförare and holds nothing that fits."""
    return position(
        VVV8,
        {"rebuild_reference": reading, "viggo_present": True},
        ["A", "B", "C"],
        {"A": "2C 3C", "B": "4C 5C", "C": "6C 7C"},
        top,
        stock=0,
        **fields,
    )


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "V8-START-ACE-ALL-DRAW")
def test_the_kept_ace_is_a_fresh_start_ace_under_fresh_start_card() -> None:
    state = rebuild_on("fresh-start-card", "AS")
    outcome = GAME.apply(state, Draw(player=0))
    after = outcome.state
    assert GAME.problems(after) == ()
    assert [len(h) for h in after.hands] == [4, 3, 3]  # all drew one for AS, A his own card too
    assert after.pile == (state.pile[-1],) and after.phase is Phase.PLAY and after.turn == 0
    assert any("V8-START-ACE-ALL-DRAW" in e.clauses for e in outcome.events)
    # the default: the kept ace keeps its standing; nobody draws for it
    kept = GAME.apply(rebuild_on("continue", "AS"), Draw(player=0)).state
    assert [len(h) for h in kept.hands] == [3, 2, 2]


@pytest.mark.clause("V8-TALON-REBUILD-REFERENCE-CARD", "V8-START-EIGHT-DEALER-NAMES-SUIT")
def test_the_dealer_names_a_new_suit_on_a_kept_eight_under_fresh_start_card() -> None:
    state = rebuild_on("fresh-start-card", "8D", named_suit="C", dealer="C")
    after = GAME.apply(state, Draw(player=0)).state
    assert GAME.problems(after) == ()
    assert after.phase is Phase.START_SUIT and after.named_suit is None and after.turn == 0
    named = GAME.apply(after, GAME.action_from_data({"action": "name-suit", "suit": "H"}, after))
    resumed = named.state
    assert resumed.phase is Phase.PLAY and resumed.named_suit is Suit.HEARTS
    assert resumed.turn == 0 and resumed.draws == 1  # A goes on with his turn
    # the default: clubs still bind on 8D
    kept = GAME.apply(rebuild_on("continue", "8D", named_suit="C", dealer="C"), Draw(player=0))
    assert kept.state.phase is Phase.PLAY and kept.state.named_suit is Suit.CLUBS


@pytest.mark.clause("VA-START-EIGHT-RETURNED", "VA-DRAW-STOCK-REBUILD")
def test_a_kept_eight_goes_back_into_the_stock_under_fresh_start_card_in_vandatta() -> None:
    def state(reading: str) -> State:
        return position(
            VANDATTA,
            {"rebuild_reference": reading, "after_eight": "turn-passes"},
            ["A", "B"],
            {"A": "2C 3C", "B": "4C 5C"},
            "8D",
            stock=0,
            named_suit="S",
        )

    after = GAME.apply(state("fresh-start-card"), Draw(player=0)).state
    assert GAME.problems(after) == ()
    assert after.pile[-1].rank.value != 8 and after.named_suit is None
    assert any(c.code == "8D" for c in after.stock) or "8D" in {c.code for c in after.hands[0]}
    kept = GAME.apply(state("continue"), Draw(player=0)).state
    assert kept.pile[-1].code == "8D" and kept.named_suit is Suit.SPADES
