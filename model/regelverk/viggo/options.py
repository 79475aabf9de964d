"""Viggo's options: the four house rules and one field for every ambiguity of the register.

A field that selects a reading of an ambiguity has the ambiguity's ``option`` name and takes an
enum whose values are the reading names; the ``viggo`` preset takes every ambiguity's default.

>>> ViggoOptions().three_player_deal
ThreePlayerDeal.THIRTEEN_EACH
>>> ViggoOptions(same_rank_once=True).same_rank_once
True
"""

from __future__ import annotations

import enum
from dataclasses import field, fields

from regelverk.engine import Reading
from regelverk.records import record
from regelverk.registry import parameter

__all__ = [
    "ClubFourOpening",
    "ClubFourScope",
    "ClubThree",
    "ClubThreeOthers",
    "ClubThreeSameRank",
    "Direction",
    "DraftDiscards",
    "DraftLookBoth",
    "EqualRankReply",
    "ExampleTrickEnd",
    "FirstLeader",
    "GameWinner",
    "GroupedRanks",
    "LeadAfterTie",
    "LossThresholdRule",
    "MostCardsLead",
    "MostCardsTie",
    "NextDealer",
    "PassIsFinal",
    "PassWhenAble",
    "SequenceWrap",
    "SimultaneousLoss",
    "ThreeBeatsThree",
    "ThreeInCombination",
    "ThreePlayerDeal",
    "ViggoOptions",
]


class ThreePlayerDeal(Reading):
    """VG-AMB-THREE-PLAYER-DEAL: how three players are dealt from 52 cards."""

    THIRTEEN_EACH = "thirteen-each"
    """Thirteen each; thirteen cards stay face down out of play (the default)."""
    SEVENTEEN_EACH_ONE_ASIDE = "seventeen-each-one-aside"
    """Seventeen each; the one card left over is put aside unseen."""
    DEAL_ALL_UNEVEN = "deal-all-uneven"
    """Every card is dealt: the first to receive gets eighteen, the others seventeen."""


class EqualRankReply(Reading):
    """VG-AMB-EQUAL-RANK-REPLY: may a combination be answered by one of the same rank?"""

    STRICTLY_HIGHER = "strictly-higher"
    """A reply must rank strictly higher; a three on a three is the one exception (default)."""
    EQUAL_ALLOWED = "equal-allowed"
    """An equal rank may answer; only the same-rank house rule forbids it."""


class GroupedRanks(Reading):
    """VG-AMB-GROUPED-RANK-ROWS: do the ranks on one row of the rank table rank equal?"""

    ORDERED = "ordered"
    """Within a row the ranks go in the order listed (default)."""
    EQUAL_WITHIN_ROW = "equal-within-row"
    """Each row is one rank class: 5 to 10 are equal, and J, Q, K are equal."""


class ThreeBeatsThree(Reading):
    """VG-AMB-THREE-BEATS-THREE-REACH: which types may answer threes with threes."""

    ALL_TYPES = "all-types"
    """Every type made of threes (or topped by a three) may answer its like (default)."""
    SINGLES_ONLY = "singles-only"
    """Only a single three may answer a single three."""


class ClubThree(Reading):
    """VG-AMB-CLUB-THREE-DEFAULT, the club-three house rule (VG-VAR-CLUB-THREE-HIGHEST-SINGLE)."""

    MAIN_RULE = "main-rule"
    """Suits never count; any three may beat any three (default)."""
    CLUB_THREE_ON_TOP = "club-three-on-top"
    """The three of clubs is the top card, in singles, sets and runs alike."""


class ClubThreeOthers(Reading):
    """VG-AMB-CLUB-THREE-OTHER-THREES: under the club-three rule, do threes still beat threes?"""

    ONLY_CLUB_BEATS_THREES = "only-club-beats-threes"
    """Only a combination holding the 3♣ beats its like made of other threes (default)."""
    OTHERS_STILL_BEAT = "others-still-beat"
    """The plain threes still beat one another; the 3♣ beats them all."""


class ClubThreeSameRank(Reading):
    """VG-AMB-CLUB-THREE-SAME-RANK: both the club-three and the same-rank house rules are on;
    may the 3♣ still be laid on another three?"""

    CLUB_THREE_BEATS_THREES = "club-three-beats-threes"
    """Yes: the club-three rule is the more particular one, and the 3♣ beats the other threes
    even where no rank may follow itself (default)."""
    SAME_RANK_FORBIDS = "same-rank-forbids"
    """No: no rank may follow itself, the 3♣ on a three included; the 3♣ then only stands
    unbeaten, like any three laid on a lower card."""


class SequenceWrap(Reading):
    """VG-AMB-SEQUENCE-WRAP: may a run wrap from the three round to the four?"""

    NO_WRAP = "no-wrap"
    """Nine runs, 4-5-6-7-8 up to Q-K-A-2-3, ranked by the top card (default)."""
    WRAP = "wrap"
    """Thirteen runs; a run ranks by its last card in run order."""


class ThreeInCombination(Reading):
    """VG-AMB-THREE-IN-COMBINATION: does any combination holding a three beat one without?"""

    RESTATES_RANK = "restates-rank"
    """No: the sentence restates that threes rank highest (default)."""
    THREE_TRUMPS = "three-trumps"
    """Yes: holding a three beats the same type holding none, wherever the three sits."""


class PassIsFinal(Reading):
    """VG-AMB-PASS-FINAL: is a pass final for the trick?"""

    MAY_RETURN = "may-return"
    """A pass covers one turn; the passer may play again after someone else has (default)."""
    FINAL = "final"
    """A player who passed is skipped until the trick ends."""


class PassWhenAble(Reading):
    """VG-AMB-PASS-WHEN-ABLE: may a player pass when he holds a combination that beats?"""

    ALLOWED = "allowed"
    """Yes: passing is always a free choice during a trick (default)."""
    MUST_BEAT = "must-beat"
    """No: a player who holds a combination that beats the one on top must lay one (any of
    them, his choice); only a player who cannot beat may pass."""


class ExampleTrickEnd(Reading):
    """VG-AMB-EXAMPLE-TRICK-END: when a trick ends, read from the worked example."""

    ALL_OTHERS_PASS = "all-others-pass"
    """The trick ends when everyone but the player who laid highest has passed (default)."""
    ONE_LAP = "one-lap"
    """Every player but the leader gets one turn after the lead; then the trick ends."""
    THREE_PLAYERS = "three-players"
    """The example is a three-player game; the rule of play is that of all-others-pass."""


class LeadAfterTie(Reading):
    """VG-AMB-LEAD-AFTER-HIGHEST-TIE: who laid highest when the top was matched."""

    LAST_TO_PLAY = "last-to-play"
    """The last combination laid is the highest (default)."""
    FIRST_TO_PLAY = "first-to-play"
    """An equal combination only matches; the first to reach that rank laid highest."""


class LossThresholdRule(Reading):
    """VG-AMB-LOSS-THRESHOLD: reaching 53, or hitting it exactly."""

    AT_LEAST = "at-least"
    """53 points or more loses (default)."""
    EXACTLY = "exactly"
    """Only a total of exactly 53 loses."""


class SimultaneousLoss(Reading):
    """VG-AMB-SIMULTANEOUS-53: several players reach 53 in the same round."""

    HIGHEST_TOTAL_LOSES = "highest-total-loses"
    """The highest total loses; equal totals lose together (default)."""
    ALL_OVER_LOSE = "all-over-lose"
    """Everyone who reached 53 loses."""
    FIRST_IN_TURN_ORDER = "first-in-turn-order"
    """The first of them in turn order after the round winner loses."""


class GameWinner(Reading):
    """VG-AMB-GAME-WINNER: is anyone named winner of the game?"""

    LOSER_ONLY = "loser-only"
    """The game names its loser only (default)."""
    LOWEST_TOTAL_WINS = "lowest-total-wins"
    """The lowest total wins when the game ends."""


class FirstLeader(Reading):
    """VG-AMB-FIRST-ROUND-LEADER: who leads the first round."""

    PLAYER_AFTER_DEALER = "player-after-dealer"
    """The seat after the agreed dealer (default)."""
    CLUB_FOUR_HOLDER = "club-four-holder"
    """The holder of the 4♣ (the seat after the dealer when no one holds it)."""


class NextDealer(Reading):
    """VG-AMB-NEXT-DEALER: who deals the next round."""

    DEALER_BEFORE_WINNER = "dealer-before-winner"
    """The seat before the round winner, so that the winner is first hand (default)."""
    DEALER_ROTATES = "dealer-rotates"
    """The deal passes one seat on each round."""


class Direction(Reading):
    """VG-AMB-DIRECTION: which way round the table."""

    CLOCKWISE = "clockwise"
    """To the left: seat order P1, P2, P3, P4 (default)."""
    COUNTER_CLOCKWISE = "counter-clockwise"
    """To the right: seat order P1, P4, P3, P2."""


class DraftDiscards(Reading):
    """VG-AMB-DRAFT-PUT-AWAY: where the cards not kept in the two-player draft go."""

    OUT_OF_PLAY = "out-of-play"
    """Face down out of play for the round (default)."""
    UNDER_STOCK = "under-stock"
    """To the bottom of the stock, to be drawn again."""


class DraftLookBoth(Reading):
    """VG-AMB-DRAFT-LOOK-BOTH-LATER: when the first hand sees both drawn cards."""

    FIRST_TURN_ONLY = "first-turn-only"
    """On his first draft turn only (default)."""
    EVERY_TURN = "every-turn"
    """On every draft turn."""


class MostCardsTie(Reading):
    """VG-AMB-MOST-CARDS-TIE: most-cards house rule, a tie for the most cards."""

    FIRST_TIED_AFTER_WINNER = "first-tied-after-winner"
    """The first tied player in turn order after the winner deals (default)."""
    LOTS_AMONG_TIED = "lots-among-tied"
    """The tied players cut for it (drawn from the game's seed)."""


class MostCardsLead(Reading):
    """VG-AMB-MOST-CARDS-LEAD: most-cards house rule, who leads."""

    REPLACES_WINNER_LEAD = "replaces-winner-lead"
    """The new dealer's next seat leads (default)."""
    DEAL_ONLY = "deal-only"
    """Only the deal moves; the round winner still leads."""


class ClubFourScope(Reading):
    """VG-AMB-CLUB-FOUR-SCOPE: club-four house rule, which rounds."""

    EVERY_ROUND = "every-round"
    """The 4♣ holder opens every round of a four-player game (default)."""
    FIRST_ROUND_ONLY = "first-round-only"
    """The 4♣ holder opens the first round only."""


class ClubFourOpening(Reading):
    """VG-AMB-CLUB-FOUR-MUST-INCLUDE: must the 4♣ holder's opening hold the 4♣?"""

    FREE = "free"
    """Any allowed combination (default)."""
    MUST_INCLUDE = "must-include"
    """The opening combination must contain the 4♣."""


@record
class ViggoOptions:
    """Every choice the Viggo engine offers; ``ViggoOptions()`` is the ``viggo`` preset.

    >>> ViggoOptions(loss_points=0)
    Traceback (most recent call last):
    ...
    ValueError: loss_points must be a positive whole number of points, not 0.
    """

    club_three_on_top: ClubThree = ClubThree.MAIN_RULE
    """House rule: the 3♣ on top, also in pairs and runs (VG-VAR-CLUB-THREE-HIGHEST-SINGLE,
    VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES; VG-AMB-CLUB-THREE-DEFAULT)."""
    club_four_starts: bool = False
    """House rule: with four players the holder of the 4♣ opens (VG-VAR-CLUB-FOUR-STARTS)."""
    same_rank_once: bool = False
    """House rule: a combination may not be answered by one of the same rank
    (VG-VAR-SAME-RANK-ONCE)."""
    most_cards_deal: bool = False
    """House rule: the player with most cards left deals the next round
    (VG-VAR-MOST-CARDS-DEAL)."""
    loss_points: int = field(
        default_factory=lambda: parameter("VG-LOSS-FIRST-TO-53", "loss_threshold")
    )
    """The total that loses the game: the clause's ``loss_threshold``, 53 (VG-LOSS-FIRST-TO-53)."""

    three_player_deal: ThreePlayerDeal = ThreePlayerDeal.THIRTEEN_EACH
    """Three players' hands (VG-AMB-THREE-PLAYER-DEAL; VG-DEAL-THIRTEEN-EACH)."""
    equal_rank_reply: EqualRankReply = EqualRankReply.STRICTLY_HIGHER
    """Equal-rank replies under the main rule (VG-AMB-EQUAL-RANK-REPLY)."""
    grouped_ranks: GroupedRanks = GroupedRanks.ORDERED
    """The rank table's grouped rows (VG-AMB-GROUPED-RANK-ROWS; VG-RANK-ORDER)."""
    three_beats_three: ThreeBeatsThree = ThreeBeatsThree.ALL_TYPES
    """The reach of three-on-three (VG-AMB-THREE-BEATS-THREE-REACH)."""
    club_three_others: ClubThreeOthers = ClubThreeOthers.ONLY_CLUB_BEATS_THREES
    """Plain threes under the club-three rule (VG-AMB-CLUB-THREE-OTHER-THREES)."""
    club_three_same_rank: ClubThreeSameRank = ClubThreeSameRank.CLUB_THREE_BEATS_THREES
    """The 3♣ on a three when the same-rank house rule is on too (VG-AMB-CLUB-THREE-SAME-RANK;
    VG-VAR-SAME-RANK-ONCE, VG-VAR-CLUB-THREE-HIGHEST-SINGLE)."""
    sequence_wrap: SequenceWrap = SequenceWrap.NO_WRAP
    """Which runs exist (VG-AMB-SEQUENCE-WRAP; VG-SEQ-NO-WRAP-COMPARE-TOP)."""
    three_in_combination: ThreeInCombination = ThreeInCombination.RESTATES_RANK
    """A three inside a combination (VG-AMB-THREE-IN-COMBINATION)."""
    pass_is_final: PassIsFinal = PassIsFinal.MAY_RETURN
    """Passing (VG-AMB-PASS-FINAL; VG-PLAY-PASS-NOT-FINAL)."""
    pass_when_able: PassWhenAble = PassWhenAble.ALLOWED
    """Passing with a beating combination in hand (VG-AMB-PASS-WHEN-ABLE;
    VG-PLAY-REPLY-OR-PASS)."""
    example_trick_end: ExampleTrickEnd = ExampleTrickEnd.ALL_OTHERS_PASS
    """When a trick ends (VG-AMB-EXAMPLE-TRICK-END; VG-PLAY-TRICK-SET-ASIDE)."""
    lead_after_tie: LeadAfterTie = LeadAfterTie.LAST_TO_PLAY
    """Who laid highest after an equal reply (VG-AMB-LEAD-AFTER-HIGHEST-TIE)."""
    loss_threshold_rule: LossThresholdRule = LossThresholdRule.AT_LEAST
    """Reaching the loss total (VG-AMB-LOSS-THRESHOLD)."""
    simultaneous_loss: SimultaneousLoss = SimultaneousLoss.HIGHEST_TOTAL_LOSES
    """Several reaching it in one round (VG-AMB-SIMULTANEOUS-53; VG-LOSS-TIE-HIGHEST-TOTAL)."""
    game_winner: GameWinner = GameWinner.LOSER_ONLY
    """A winner of the game (VG-AMB-GAME-WINNER; VG-WIN-GAME-LOSER-ONLY)."""
    first_leader: FirstLeader = FirstLeader.PLAYER_AFTER_DEALER
    """The first round's leader (VG-AMB-FIRST-ROUND-LEADER; VG-SETUP-FIRST-DEALER)."""
    next_dealer: NextDealer = NextDealer.DEALER_BEFORE_WINNER
    """The next round's dealer (VG-AMB-NEXT-DEALER; VG-DEAL-ROUND-THE-TABLE)."""
    direction: Direction = Direction.CLOCKWISE
    """Which way dealing and play go (VG-AMB-DIRECTION; VG-TURN-CLOCKWISE)."""
    draft_discards: DraftDiscards = DraftDiscards.OUT_OF_PLAY
    """Cards not kept in the draft (VG-AMB-DRAFT-PUT-AWAY; VG-DRAFT-PUT-AWAY-OUT-OF-PLAY)."""
    draft_look_both: DraftLookBoth = DraftLookBoth.FIRST_TURN_ONLY
    """The first hand's look at both cards (VG-AMB-DRAFT-LOOK-BOTH-LATER)."""
    most_cards_tie: MostCardsTie = MostCardsTie.FIRST_TIED_AFTER_WINNER
    """A tie under the most-cards rule (VG-AMB-MOST-CARDS-TIE; VG-VAR-MOST-CARDS-TIE-BREAK)."""
    most_cards_lead: MostCardsLead = MostCardsLead.REPLACES_WINNER_LEAD
    """The lead under the most-cards rule (VG-AMB-MOST-CARDS-LEAD)."""
    club_four_scope: ClubFourScope = ClubFourScope.EVERY_ROUND
    """The rounds the club-four rule covers (VG-AMB-CLUB-FOUR-SCOPE)."""
    club_four_opening: ClubFourOpening = ClubFourOpening.FREE
    """The club-four opener's combination (VG-AMB-CLUB-FOUR-MUST-INCLUDE;
    VG-VAR-CLUB-FOUR-FREE-OPENING)."""

    def __post_init__(self) -> None:
        for known in fields(self):
            value = getattr(self, known.name)
            default = known.default
            if isinstance(default, enum.Enum) and not isinstance(value, type(default)):
                allowed = ", ".join(repr(m.value) for m in type(default))
                raise ValueError(f"{known.name} must be one of {allowed}, not {value!r}.")
            if isinstance(default, bool) and not isinstance(value, bool):
                raise ValueError(f"{known.name} must be True or False, not {value!r}.")
        if (
            not isinstance(self.loss_points, int)
            or isinstance(self.loss_points, bool)
            or self.loss_points < 1
        ):
            raise ValueError(
                f"loss_points must be a positive whole number of points, not {self.loss_points!r}."
            )
