"""Viggo: one scenario test per clause, named after it, and the text's worked example replayed."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import pytest

from regelverk.cards import french_deck, parse_cards
from regelverk.engine import IllegalActionError, Outcome, PositionError, is_allowed, with_options
from regelverk.registry import default_registry
from regelverk.viggo import GAME, Kind, Pass, Phase, Play, ViggoOptions, ViggoState, classify
from regelverk.viggo.combos import beats, position, run_starts
from regelverk.viggo.play import draft_sees_both
from regelverk.viggo.state import Keep, ViggoAction

NAMES = ("P1", "P2", "P3", "P4")
REGISTRY = default_registry()
PASS = Pass()


def opts(**overrides: Any) -> ViggoOptions:
    return with_options(GAME.options("viggo"), overrides)


def pos(
    hands: dict[str, str],
    *,
    turn: str = "P1",
    trick: tuple[tuple[str, str], ...] = (),
    passed: tuple[str, ...] = (),
    players: int = 4,
    extra: dict[str, Any] | None = None,
    **overrides: Any,
) -> ViggoState:
    data: dict[str, Any] = {
        "players": list(NAMES[:players]),
        "turn": turn,
        "hands": {name: cards.split() for name, cards in hands.items()},
        "trick": [{"player": p, "cards": c.split()} for p, c in trick],
        "passed": list(passed),
        **(extra or {}),
    }
    state = GAME.position_from_data(data, opts(**overrides))
    assert GAME.problems(state) == ()
    return state


def play(text: str, player: str | None = None) -> Play:
    return Play.of(text, player)


def ok(state: ViggoState, action: ViggoAction) -> Outcome[ViggoState]:
    assert is_allowed(GAME, state, action), action
    if action.player is None:
        assert action in GAME.legal_actions(state)
    outcome = GAME.apply(state, action)
    assert GAME.problems(outcome.state) == ()
    return outcome


def no(state: ViggoState, action: ViggoAction, *clauses: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        GAME.apply(state, action)
    assert set(clauses) <= set(caught.value.clauses), caught.value
    assert action not in GAME.legal_actions(state)
    return caught.value


def cited(outcome: Outcome[ViggoState]) -> set[str]:
    return {c for e in outcome.events for c in e.clauses}


def combo(text: str, **overrides: Any) -> Any:
    return classify(parse_cards(text), opts(**overrides))


def beat(new: str, old: str, **overrides: Any) -> bool:
    a, b = combo(new, **overrides), combo(old, **overrides)
    assert a is not None and b is not None
    return beats(a, b, opts(**overrides)).allowed


FOUR = {"P1": "5C 5D 9C", "P2": "8H 8S KD", "P3": "5S 6C 7D 8D 9H", "P4": "JC QC"}


def round_end(scores: dict[str, int] | None = None, **overrides: Any) -> Outcome[ViggoState]:
    """P1 leads his last card; P2, P3, P4 are left with 4, 6 and 2 cards."""
    hands = {"P1": "AS", "P2": "4C 4D 5C 5D", "P3": "6C 6D 7C 7D 8C 8D", "P4": "9C 9D"}
    extra = {"scores": scores} if scores else None
    return ok(pos(hands, extra=extra, **overrides), play("AS"))


# --- setup and deal ---------------------------------------------------------------------------


@pytest.mark.clause("VG-SETUP-DECK-52-NO-JOKERS")
def test_VG_SETUP_DECK_52_NO_JOKERS() -> None:
    state = GAME.deal(GAME.options("viggo"), NAMES, 1)
    cards = [c for hand in state.hands for c in hand]
    assert set(cards) == set(french_deck()) and len(cards) == 52


@pytest.mark.clause("VG-DEAL-THIRTEEN-EACH")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_VG_DEAL_THIRTEEN_EACH(players: int) -> None:
    state = GAME.deal(GAME.options("viggo"), NAMES[:players], 5)
    while state.phase is Phase.DRAFT:
        state = ok(state, GAME.legal_actions(state)[0]).state
    assert [len(h) for h in state.hands] == [13] * players


@pytest.mark.clause("VG-SETUP-TWO-TO-FOUR-PLAYERS")
def test_VG_SETUP_TWO_TO_FOUR_PLAYERS() -> None:
    for names in (("P1",), ("A", "B", "C", "D", "E")):
        with pytest.raises(PositionError, match="two to four"):
            GAME.deal(GAME.options("viggo"), names, 1)
    with pytest.raises(PositionError, match="two to four"):
        GAME.position_from_data({"players": ["A"], "turn": "A", "hands": {}}, opts())


@pytest.mark.clause("VG-DEAL-WHOLE-DECK-THREE-OR-FOUR")
def test_VG_DEAL_WHOLE_DECK_THREE_OR_FOUR() -> None:
    four = GAME.deal(opts(), NAMES, 2)
    assert four.put_away == ()
    three = GAME.deal(opts(), NAMES[:3], 2)
    assert [len(h) for h in three.hands] == [13, 13, 13] and len(three.put_away) == 13
    seventeen = GAME.deal(opts(three_player_deal="seventeen-each-one-aside"), NAMES[:3], 2)
    assert [len(h) for h in seventeen.hands] == [17, 17, 17] and len(seventeen.put_away) == 1
    uneven = GAME.deal(opts(three_player_deal="deal-all-uneven"), NAMES[:3], 2)
    assert [len(h) for h in uneven.hands] == [18, 17, 17] and uneven.put_away == ()


@pytest.mark.clause("VG-DEAL-ROUND-THE-TABLE")
def test_VG_DEAL_ROUND_THE_TABLE() -> None:
    from regelverk.viggo.rounds import _shuffled

    state = GAME.deal(opts(), NAMES, 9)
    deck = _shuffled(9, 1)
    for seat in range(4):
        assert set(state.hands[seat]) == set(deck[seat::4])
    right = GAME.deal(opts(direction="counter-clockwise"), NAMES, 9)
    assert set(right.hands[3]) == set(deck[1::4])


@pytest.mark.clause("VG-TURN-ROUND-THE-TABLE")
def test_VG_TURN_ROUND_THE_TABLE() -> None:
    state = pos(FOUR)
    after = ok(state, play("5C")).state
    assert after.player == "P2"
    error = no(after, Pass(player="P3"), "VG-TURN-ROUND-THE-TABLE")
    assert "P2's turn" in str(error)


@pytest.mark.clause("VG-TURN-CLOCKWISE")
def test_VG_TURN_CLOCKWISE() -> None:
    assert ok(pos(FOUR), play("5C")).state.player == "P2"
    assert ok(pos(FOUR, direction="counter-clockwise"), play("5C")).state.player == "P4"


@pytest.mark.clause("VG-PLAY-FIRST-HAND-LEADS-FREE")
def test_VG_PLAY_FIRST_HAND_LEADS_FREE() -> None:
    state = GAME.deal(opts(), NAMES, 3)
    assert state.player == "P1" and state.first_hand == 0
    kinds = {classify(a.cards, state.options).kind for a in GAME.legal_actions(state)}  # type: ignore[union-attr]
    assert Kind.SINGLE in kinds and Kind.PAIR in kinds
    no(state, PASS, "VG-PLAY-FIRST-HAND-LEADS-FREE")


@pytest.mark.clause("VG-SETUP-FIRST-DEALER")
def test_VG_SETUP_FIRST_DEALER() -> None:
    state = GAME.deal(opts(), NAMES, 3)
    assert state.dealer == 3 and state.first_hand == 0 and state.player == "P1"
    two = GAME.deal(opts(), NAMES[:2], 3)
    assert two.turn == two.first_hand == 0


@pytest.mark.clause("VG-WIN-AIM-FIRST-OUT")
def test_VG_WIN_AIM_FIRST_OUT() -> None:
    outcome = round_end()
    assert "VG-WIN-ROUND-FIRST-OUT" in cited(outcome)
    assert outcome.state.round == 2 and outcome.state.history[-1][0] == 0


# --- the draft ---------------------------------------------------------------------------------


def draft(**overrides: Any) -> ViggoState:
    return GAME.deal(opts(**overrides), NAMES[:2], 4)


@pytest.mark.clause("VG-DRAFT-NO-DEAL-TWO-PLAYERS")
def test_VG_DRAFT_NO_DEAL_TWO_PLAYERS() -> None:
    state = draft()
    assert state.phase is Phase.DRAFT and state.hands == ((), ()) and len(state.stock) == 52
    no(state, play(str(state.stock[0].code)), "VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN")


@pytest.mark.clause("VG-DRAFT-ALTERNATE-UNTIL-THIRTEEN")
def test_VG_DRAFT_ALTERNATE_UNTIL_THIRTEEN() -> None:
    state = draft()
    turns = []
    while state.phase is Phase.DRAFT:
        turns.append(state.turn)
        state = ok(state, GAME.legal_actions(state)[-1]).state
    assert turns == [0, 1] * 13
    assert state.stock == () and len(state.put_away) == 26 and state.player == "P1"


@pytest.mark.clause("VG-DRAFT-TAKE-TWO-SEE-ONE")
def test_VG_DRAFT_TAKE_TWO_SEE_ONE() -> None:
    state = draft()
    assert GAME.legal_actions(state) == tuple(Keep(card=c) for c in state.stock[:2])
    no(state, Keep(card=state.stock[2]), "VG-DRAFT-TAKE-TWO-SEE-ONE")


def second_turn_of_first_hand() -> ViggoState:
    state = draft()
    for _ in range(2):
        state = ok(state, GAME.legal_actions(state)[0]).state
    assert state.turn == 0 and not draft_sees_both(state)
    return state


@pytest.mark.clause("VG-DRAFT-KEEP-SEEN-CARD")
def test_VG_DRAFT_KEEP_SEEN_CARD() -> None:
    state = second_turn_of_first_hand()
    seen, other = state.stock[:2]
    outcome = ok(state, Keep(card=seen))
    assert seen in outcome.state.hands[0] and outcome.state.put_away[-1] == other
    assert "VG-DRAFT-KEEP-SEEN-CARD" in cited(outcome)


@pytest.mark.clause("VG-DRAFT-REJECT-SEEN-TAKE-OTHER")
def test_VG_DRAFT_REJECT_SEEN_TAKE_OTHER() -> None:
    state = second_turn_of_first_hand()
    seen, other = state.stock[:2]
    outcome = ok(state, GAME.action_from_data({"action": "keep", "which": "other"}, state))
    assert other in outcome.state.hands[0] and outcome.state.put_away[-1] == seen
    assert "VG-DRAFT-REJECT-SEEN-TAKE-OTHER" in cited(outcome)


@pytest.mark.clause("VG-DRAFT-FIRST-HAND-SEES-BOTH-FIRST-TURN")
def test_VG_DRAFT_FIRST_HAND_SEES_BOTH_FIRST_TURN() -> None:
    state = draft()
    assert draft_sees_both(state)
    assert "VG-DRAFT-FIRST-HAND-SEES-BOTH-FIRST-TURN" in cited(ok(state, Keep(card=state.stock[1])))
    later = second_turn_of_first_hand()
    assert draft_sees_both(dataclasses.replace(later, options=opts(draft_look_both="every-turn")))


@pytest.mark.clause("VG-DRAFT-SECOND-PLAYER-SEES-BOTH-LAST-TURN")
def test_VG_DRAFT_SECOND_PLAYER_SEES_BOTH_LAST_TURN() -> None:
    state = draft()
    seen = []
    while state.phase is Phase.DRAFT:
        if state.turn == 1:
            seen.append(draft_sees_both(state))
        state = ok(state, GAME.legal_actions(state)[0]).state
    assert seen == [False] * 12 + [True]


@pytest.mark.clause("VG-DRAFT-PUT-AWAY-OUT-OF-PLAY")
def test_VG_DRAFT_PUT_AWAY_OUT_OF_PLAY() -> None:
    for reading, stock, away in (("out-of-play", 0, 26), ("under-stock", 26, 0)):
        state = draft(draft_discards=reading)
        while state.phase is Phase.DRAFT:
            state = ok(state, GAME.legal_actions(state)[0]).state
        assert (len(state.stock), len(state.put_away)) == (stock, away)


# --- combinations ------------------------------------------------------------------------------


@pytest.mark.clause("VG-COMBO-SINGLE")
def test_VG_COMBO_SINGLE() -> None:
    assert combo("7H").kind is Kind.SINGLE


@pytest.mark.clause("VG-COMBO-PAIR")
def test_VG_COMBO_PAIR() -> None:
    assert combo("7H 7S").kind is Kind.PAIR and combo("7H 8H") is None


@pytest.mark.clause("VG-COMBO-THREE-OF-A-KIND")
def test_VG_COMBO_THREE_OF_A_KIND() -> None:
    assert combo("QH QS QC").kind is Kind.THREE_OF_A_KIND and combo("QH QS KC") is None


@pytest.mark.clause("VG-COMBO-FOUR-OF-A-KIND")
def test_VG_COMBO_FOUR_OF_A_KIND() -> None:
    assert combo("2H 2S 2C 2D").kind is Kind.FOUR_OF_A_KIND


@pytest.mark.clause("VG-COMBO-SEQUENCE-OF-FIVE")
def test_VG_COMBO_SEQUENCE_OF_FIVE() -> None:
    assert combo("5S 6C 7D 8D 9H").kind is Kind.SEQUENCE
    assert combo("5S 6C 7D 8D") is None and combo("5S 6C 7D 8D 10H") is None
    state = pos({"P1": "5S 6C 7D 8D 10H", "P2": "KC", "P3": "QC", "P4": "JC"})
    no(state, play("5S 6C 7D 8D 10H"), "VG-COMBO-SEQUENCE-OF-FIVE")


# --- replies, passes, tricks ------------------------------------------------------------------


@pytest.mark.clause("VG-PLAY-BEAT-SAME-TYPE-HIGHER")
def test_VG_PLAY_BEAT_SAME_TYPE_HIGHER() -> None:
    state = pos(
        {"P1": "KC", "P2": "7C 9C", "P3": "QC", "P4": "JC"}, turn="P2", trick=(("P1", "8C"),)
    )
    ok(state, play("9C"))
    no(state, play("7C"), "VG-PLAY-BEAT-SAME-TYPE-HIGHER")


@pytest.mark.clause("VG-PLAY-REPLY-OR-PASS")
def test_VG_PLAY_REPLY_OR_PASS() -> None:
    state = pos(
        {"P1": "KC", "P2": "9C 10C", "P3": "QC", "P4": "JC"}, turn="P2", trick=(("P1", "8C"),)
    )
    assert PASS in GAME.legal_actions(state) and play("9C") in GAME.legal_actions(state)
    assert ok(state, PASS).state.player == "P3"


def pass_final_situation(**overrides: Any) -> ViggoState:
    state = pos({"P1": "6C KD", "P2": "AC", "P3": "9C QD", "P4": "KC JD"}, **overrides)
    for action in (play("6C"), PASS, play("9C"), play("KC"), PASS):
        state = ok(state, action).state
    return state


@pytest.mark.clause("VG-PLAY-PASS-NOT-FINAL")
def test_VG_PLAY_PASS_NOT_FINAL() -> None:
    state = pass_final_situation()
    assert state.player == "P2"
    assert ok(state, play("AC")).state.round == 2
    final = pass_final_situation(pass_is_final="final")
    assert final.player == "P3"
    no(final, play("AC", "P2"), "VG-PLAY-PASS-NOT-FINAL")
    closed = ok(final, PASS).state
    assert closed.trick == () and closed.player == "P1"


@pytest.mark.clause("VG-PLAY-TRICK-SET-ASIDE")
def test_VG_PLAY_TRICK_SET_ASIDE() -> None:
    state = pos(FOUR)
    for action in (play("5C 5D"), play("8H 8S"), PASS, PASS):
        state = ok(state, action).state
    outcome = ok(state, PASS)
    assert outcome.state.trick == () and "VG-PLAY-TRICK-SET-ASIDE" in cited(outcome)
    assert set(parse_cards("5C 5D 8H 8S")) <= set(outcome.state.set_aside)
    lap = pos(FOUR, example_trick_end="one-lap")
    for action in (play("5C 5D"), play("8H 8S"), PASS):
        lap = ok(lap, action).state
    assert ok(lap, PASS).state.trick == ()


@pytest.mark.clause("VG-PLAY-NEXT-LEAD-AFTER-HIGHEST")
def test_VG_PLAY_NEXT_LEAD_AFTER_HIGHEST() -> None:
    state = pos({"P1": "2C 4D", "P2": "3H 5D", "P3": "3D 6D", "P4": "7D 8D"})
    for action in (play("2C"), play("3H"), play("3D"), PASS, PASS):
        state = ok(state, action).state
    assert ok(state, PASS).state.player == "P4"
    tie = pos(
        {"P1": "2C 4D", "P2": "3H 5D", "P3": "3D 6D", "P4": "7D 8D"}, lead_after_tie="first-to-play"
    )
    for action in (play("2C"), play("3H"), play("3D"), PASS, PASS):
        tie = ok(tie, action).state
    assert ok(tie, PASS).state.player == "P3"


@pytest.mark.clause("VG-PLAY-NO-TYPE-SWITCH")
def test_VG_PLAY_NO_TYPE_SWITCH() -> None:
    state = pos(
        {"P1": "KC", "P2": "2C 2D AS", "P3": "QC", "P4": "JC"}, turn="P2", trick=(("P1", "8C"),)
    )
    no(state, play("2C 2D"), "VG-PLAY-NO-TYPE-SWITCH")


@pytest.mark.clause("VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
def test_VG_PLAY_PAIR_LEAD_PAIRS_ONLY() -> None:
    state = pos(
        {"P1": "KC", "P2": "9C 9D 9H AS", "P3": "QC", "P4": "JC"},
        turn="P2",
        trick=(("P1", "5C 5D"),),
    )
    no(state, play("AS"), "VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
    no(state, play("9C 9D 9H"), "VG-PLAY-PAIR-LEAD-PAIRS-ONLY")
    replies = [a for a in GAME.legal_actions(state) if isinstance(a, Play)]
    assert replies and all(len(a.cards) == 2 for a in replies)


@pytest.mark.clause("VG-PLAY-EIGHTS-BEAT-FIVES")
def test_VG_PLAY_EIGHTS_BEAT_FIVES() -> None:
    assert beat("8H 8S", "5C 5D") and not beat("5C 5D", "8H 8S")
    assert not beat("8H 8S", "5C 5D", grouped_ranks="equal-within-row")


@pytest.mark.clause("VG-SEQ-JACK-TO-TWO-BEATS-FIVE-TO-NINE")
def test_VG_SEQ_JACK_TO_TWO_BEATS_FIVE_TO_NINE() -> None:
    assert combo("JC QD KH AS 2C").kind is Kind.SEQUENCE
    assert beat("JC QD KH AS 2C", "5S 6C 7D 8D 9H")


@pytest.mark.clause("VG-SEQ-RANK-ORDER")
def test_VG_SEQ_RANK_ORDER() -> None:
    assert combo("QC KD AH 2S 3C") is not None and combo("10C JD QH KS AC") is not None
    assert combo("AC 2D 3H 4S 5C") is None
    assert beat("QC KD AH 2S 3C", "JC QD KH AS 2C")


@pytest.mark.clause("VG-SEQ-NO-WRAP-COMPARE-TOP")
def test_VG_SEQ_NO_WRAP_COMPARE_TOP() -> None:
    assert len(run_starts(opts())) == 9 and len(run_starts(opts(sequence_wrap="wrap"))) == 13
    assert combo("KC AD 2H 3S 4C") is None
    assert combo("KC AD 2H 3S 4C", sequence_wrap="wrap") is not None
    assert beat("6C 7D 8H 9S 10C", "5S 6C 7D 8D 9H")


@pytest.mark.clause("VG-PLAY-THREE-COMBINATION-BEATS")
def test_VG_PLAY_THREE_COMBINATION_BEATS() -> None:
    assert beat("QC KD AH 2S 3C", "JC QD KH AS 2C")
    wrap = {"sequence_wrap": "wrap"}
    assert not beat("3C 4D 5H 6S 7C", "JC QD KH AS 2C", **wrap)
    assert beat("3C 4D 5H 6S 7C", "JC QD KH AS 2C", three_in_combination="three-trumps", **wrap)
    assert beat("KC AD 2H 3S 4C", "JC QD KH AS 2D", three_in_combination="three-trumps", **wrap)


@pytest.mark.clause("VG-RANK-SUITS-IGNORED")
def test_VG_RANK_SUITS_IGNORED() -> None:
    assert not beat("8S", "8C") and not beat("8C", "8S")
    assert combo("5S 6C 7D 8D 9H") is not None


# --- ranks -------------------------------------------------------------------------------------


def ranks_of(text: str) -> list[int]:
    return [position(c) for c in parse_cards(text)]


@pytest.mark.clause("VG-RANK-THREE-HIGHEST")
def test_VG_RANK_THREE_HIGHEST() -> None:
    assert ranks_of("3C") == [12] and all(beat("3D", c) for c in ("2C", "AC", "4C"))


@pytest.mark.clause("VG-RANK-TWO-SECOND")
def test_VG_RANK_TWO_SECOND() -> None:
    assert beat("2C", "AC") and not beat("2C", "3D")


@pytest.mark.clause("VG-RANK-ACE-THIRD")
def test_VG_RANK_ACE_THIRD() -> None:
    assert beat("AC", "KC") and not beat("AC", "2D")


@pytest.mark.clause("VG-RANK-KING-QUEEN-JACK")
def test_VG_RANK_KING_QUEEN_JACK() -> None:
    assert beat("KC", "QC") and beat("QC", "JC") and beat("JC", "10C")
    assert not beat("QC", "JD", grouped_ranks="equal-within-row")
    assert beat("QC", "JD", grouped_ranks="equal-within-row", equal_rank_reply="equal-allowed")


@pytest.mark.clause("VG-RANK-TEN-TO-FIVE")
def test_VG_RANK_TEN_TO_FIVE() -> None:
    assert ranks_of("5C 6C 7C 8C 9C 10C") == [1, 2, 3, 4, 5, 6]
    assert beat("10C", "9C") and not beat("10C", "9C", grouped_ranks="equal-within-row")


@pytest.mark.clause("VG-RANK-FOUR-LOWEST")
def test_VG_RANK_FOUR_LOWEST() -> None:
    assert ranks_of("4H") == [0] and beat("5C", "4C") and not beat("4C", "5C")


@pytest.mark.clause("VG-RANK-ORDER")
def test_VG_RANK_ORDER() -> None:
    assert ranks_of("4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 3C") == list(range(13))


@pytest.mark.clause("VG-RANK-THREE-BEATS-THREE")
def test_VG_RANK_THREE_BEATS_THREE() -> None:
    assert beat("3H", "3D") and beat("3C 3D", "3H 3S")
    assert not beat("3C 3D", "3H 3S", three_beats_three="singles-only")
    assert beat("3H", "3D", three_beats_three="singles-only")
    assert not beat("7C 7D", "7H 7S")
    assert beat("7C 7D", "7H 7S", equal_rank_reply="equal-allowed")


# --- the club three ----------------------------------------------------------------------------

CLUB: dict[str, Any] = {"club_three_on_top": "club-three-on-top"}


@pytest.mark.clause("VG-VAR-CLUB-THREE-HIGHEST-SINGLE")
def test_VG_VAR_CLUB_THREE_HIGHEST_SINGLE() -> None:
    assert beat("3C", "3H", **CLUB) and not beat("3H", "3C", **CLUB)
    assert not beat("3S", "3D", **CLUB)
    assert beat("3S", "3D", club_three_others="others-still-beat", **CLUB)
    state = pos(
        {"P1": "KC", "P2": "3H", "P3": "QC", "P4": "JC"}, turn="P2", trick=(("P1", "3C"),), **CLUB
    )
    no(state, play("3H"), "VG-VAR-CLUB-THREE-HIGHEST-SINGLE")


@pytest.mark.clause("VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES")
def test_VG_VAR_CLUB_THREE_PAIRS_AND_SEQUENCES() -> None:
    assert beat("3C 3D", "3H 3S", **CLUB) and not beat("3H 3S", "3C 3D", **CLUB)
    assert beat("QC KD AH 2S 3C", "QD KC AS 2H 3H", **CLUB)
    assert not beat("QD KC AS 2H 3H", "QC KD AH 2S 3C", **CLUB)


@pytest.mark.clause("VG-VAR-CLUB-THREE-IS-USUAL-HOUSE-RULE")
def test_VG_VAR_CLUB_THREE_IS_USUAL_HOUSE_RULE() -> None:
    assert GAME.options("viggo").club_three_on_top.value == "main-rule"
    assert beat("3H", "3C") and not beat("3H", "3C", **CLUB)


@pytest.mark.clause("VG-VAR-CLUB-THREE-SEQUENCES-CLIMB")
def test_VG_VAR_CLUB_THREE_SEQUENCES_CLIMB() -> None:
    five_nine = "5S 6C 7D 8D 9H"
    assert not beat("5C 6D 7H 8S 9C", five_nine, **CLUB)
    assert beat("6C 7D 8H 9S 10C", five_nine, **CLUB)
    state = pos(
        {"P1": "KC", "P2": "5C 6D 7H 8S 9C", "P3": "QC", "P4": "JC"},
        turn="P2",
        trick=(("P1", five_nine),),
        **CLUB,
    )
    no(state, play("5C 6D 7H 8S 9C"), "VG-VAR-CLUB-THREE-SEQUENCES-CLIMB")


# --- winning, scoring, losing ------------------------------------------------------------------


@pytest.mark.clause("VG-WIN-ROUND-FIRST-OUT")
def test_VG_WIN_ROUND_FIRST_OUT() -> None:
    state = pos(
        {"P1": "KC QD", "P2": "AC", "P3": "QC", "P4": "JC"}, turn="P2", trick=(("P1", "8C"),)
    )
    outcome = ok(state, play("AC"))
    assert "VG-WIN-ROUND-FIRST-OUT" in cited(outcome) and outcome.state.history[-1][1] == 0


@pytest.mark.clause("VG-WIN-ROUND-ENDS-AT-FIRST-OUT")
def test_VG_WIN_ROUND_ENDS_AT_FIRST_OUT() -> None:
    outcome = round_end()
    assert outcome.state.round == 2 and outcome.state.trick == ()
    assert [len(h) for h in outcome.state.hands] == [13] * 4


@pytest.mark.clause("VG-SCORE-POINT-PER-CARD")
def test_VG_SCORE_POINT_PER_CARD() -> None:
    assert round_end().state.scores == (0, 4, 6, 2)


@pytest.mark.clause("VG-SCORE-WINNER-ZERO")
def test_VG_SCORE_WINNER_ZERO() -> None:
    assert round_end().state.history == ((0, 4, 6, 2),)


@pytest.mark.clause("VG-SCORE-CUMULATIVE")
def test_VG_SCORE_CUMULATIVE() -> None:
    outcome = round_end({"P1": 3, "P2": 10, "P3": 20, "P4": 0})
    assert outcome.state.scores == (3, 14, 26, 2)


@pytest.mark.clause("VG-LOSS-FIRST-TO-53")
def test_VG_LOSS_FIRST_TO_53() -> None:
    outcome = round_end({"P2": 50})
    assert outcome.state.phase is Phase.OVER and outcome.state.losers == (1,)
    assert GAME.is_over(outcome.state) and GAME.legal_actions(outcome.state) == ()
    no(outcome.state, PASS, "VG-LOSS-FIRST-TO-53")
    assert round_end({"P2": 50}, loss_threshold_rule="exactly").state.phase is Phase.PLAY
    assert round_end({"P2": 49}, loss_threshold_rule="exactly").state.losers == (1,)


@pytest.mark.clause("VG-LOSS-TIE-HIGHEST-TOTAL")
def test_VG_LOSS_TIE_HIGHEST_TOTAL() -> None:
    scores = {"P2": 50, "P3": 49}
    assert round_end(scores).state.losers == (2,)
    assert round_end(scores, simultaneous_loss="all-over-lose").state.losers == (1, 2)
    assert round_end(scores, simultaneous_loss="first-in-turn-order").state.losers == (1,)


@pytest.mark.clause("VG-WIN-GAME-LOSER-ONLY")
def test_VG_WIN_GAME_LOSER_ONLY() -> None:
    assert round_end({"P2": 50}).state.winners == ()
    assert round_end({"P2": 50}, game_winner="lowest-total-wins").state.winners == (0,)


@pytest.mark.clause("VG-TURN-WINNER-LEADS-NEXT-ROUND")
def test_VG_TURN_WINNER_LEADS_NEXT_ROUND() -> None:
    state = pos(
        {"P1": "KC QD", "P2": "4C", "P3": "AC", "P4": "JC"}, turn="P3", trick=(("P2", "8C"),)
    )
    after = ok(state, play("AC")).state
    assert after.player == "P3" and after.dealer == 1
    rotates = dataclasses.replace(state, options=opts(next_dealer="dealer-rotates"))
    after = ok(rotates, play("AC")).state
    assert after.player == "P3" and after.dealer == 0


# --- house rules -------------------------------------------------------------------------------


@pytest.mark.clause("VG-VAR-CLUB-FOUR-STARTS")
def test_VG_VAR_CLUB_FOUR_STARTS() -> None:
    from regelverk.viggo.rounds import CLUB_FOUR

    for seed in range(6):
        state = GAME.deal(opts(club_four_starts=True), NAMES, seed)
        assert CLUB_FOUR in state.hands[state.turn]
    three = GAME.deal(opts(club_four_starts=True), NAMES[:3], 0)
    assert three.turn == 0


@pytest.mark.clause("VG-VAR-CLUB-FOUR-FREE-OPENING")
def test_VG_VAR_CLUB_FOUR_FREE_OPENING() -> None:
    hands = {"P1": "4C KD KS", "P2": "8H", "P3": "9H", "P4": "10H"}
    opening: dict[str, Any] = {"set_aside": []}
    ok(pos(hands, club_four_starts=True, extra=opening), play("KD KS"))
    strict = pos(hands, club_four_starts=True, club_four_opening="must-include", extra=opening)
    no(strict, play("KD KS"), "VG-VAR-CLUB-FOUR-FREE-OPENING")
    ok(strict, play("4C"))


@pytest.mark.clause("VG-VAR-SAME-RANK-ONCE")
def test_VG_VAR_SAME_RANK_ONCE() -> None:
    assert not beat("4C 4D", "4H 4S", same_rank_once=True, equal_rank_reply="equal-allowed")
    assert not beat("3C", "3D", same_rank_once=True) and beat("3C", "2D", same_rank_once=True)


def most_cards(**overrides: Any) -> ViggoState:
    hands = {"P1": "AS", "P2": "4C 4D 5C 5D", "P3": "6C 6D 7C 7D", "P4": "9C 9D"}
    return ok(pos(hands, most_cards_deal=True, **overrides), play("AS")).state


@pytest.mark.clause("VG-VAR-MOST-CARDS-DEAL")
def test_VG_VAR_MOST_CARDS_DEAL() -> None:
    hands = {"P1": "AS", "P2": "4C 4D 5C 5D", "P3": "6C 6D 7C 7D 8C", "P4": "9C 9D"}
    assert ok(pos(hands, most_cards_deal=True), play("AS")).state.dealer == 2


@pytest.mark.clause("VG-VAR-MOST-CARDS-REPLACES-WINNER-LEAD")
def test_VG_VAR_MOST_CARDS_REPLACES_WINNER_LEAD() -> None:
    assert most_cards().player == "P3"
    assert most_cards(most_cards_lead="deal-only").player == "P1"


@pytest.mark.clause("VG-VAR-MOST-CARDS-TIE-BREAK")
def test_VG_VAR_MOST_CARDS_TIE_BREAK() -> None:
    assert most_cards().dealer == 1
    assert most_cards(most_cards_tie="lots-among-tied").dealer in {1, 2}


# --- options and the worked example -----------------------------------------------------------


def test_every_ambiguity_option_is_a_field_with_its_readings_and_default() -> None:
    preset = GAME.options("viggo")
    names = {f.name for f in dataclasses.fields(preset)}
    book = REGISTRY.rulebook("viggo")
    for ambiguity in book.ambiguities:
        assert ambiguity.option in names, ambiguity.id
        value = getattr(preset, ambiguity.option)
        assert isinstance(value, enum.Enum)
        assert value.value == ambiguity.default, ambiguity.id
        assert {m.value for m in type(value)} == {r.name for r in ambiguity.readings}


def test_bad_options_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="direction must be one of"):
        ViggoOptions(direction="left")  # type: ignore[arg-type]


EXAMPLE = REGISTRY.entry("VG-EX-PAIRS-THEN-RUN")


@pytest.mark.clause(
    "VG-PLAY-FIRST-HAND-LEADS-FREE",
    "VG-PLAY-EIGHTS-BEAT-FIVES",
    "VG-PLAY-PASS-NOT-FINAL",
    "VG-PLAY-TRICK-SET-ASIDE",
    "VG-PLAY-NEXT-LEAD-AFTER-HIGHEST",
)
@pytest.mark.parametrize("reading", ["all-others-pass", "one-lap", "three-players"])
def test_VG_EX_PAIRS_THEN_RUN(reading: str) -> None:
    """The example step by step; the per-register step (P1's pass) exists only under the
    default reading; under one-lap the trick closes after P4's pass, and as a three-player
    game P1 is one of the two who pass."""
    from regelverk.registry import Example

    assert isinstance(EXAMPLE, Example)
    players = 3 if reading == "three-players" else 4
    hands = {"P1": "5C 5D 10C 10D", "P2": "8H 8S KD", "P3": "5S 6C 7D 8D 9H JS"}
    if players == 4:
        hands["P4"] = "JC QC"
    state = pos(hands, players=players, example_trick_end=reading)
    seat = {"P1": "P1", "P2": "P2", "P3": "P3", "P4": "P4" if players == 4 else "P1"}
    for step in EXAMPLE.steps:
        if step.action in ("lead", "play"):
            outcome = ok(state, Play(cards=parse_cards(step.cards), player=seat[step.actor]))
            assert set(step.clauses) & cited(outcome) or step.action == "lead", step
        elif step.action == "pass":
            if step.verdict == "per-register" and reading != "all-others-pass":
                continue
            if players == 3 and step.actor == "P1" and state.trick == ():
                continue
            outcome = ok(state, Pass(player=seat[step.actor]))
        elif step.action == "set-aside":
            assert state.trick == () and set(parse_cards(step.cards)) <= set(state.set_aside)
            assert state.player == "P3"
            continue
        else:
            continue
        state = outcome.state
    assert state.trick[-1].cards == parse_cards("5S 6C 7D 8D 9H")
