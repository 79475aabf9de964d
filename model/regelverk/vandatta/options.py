"""The options of the Vändåtta engine: one frozen type, two named presets (``vvv8``, ``vandatta``).

Every field cites the clause or the ambiguity it comes from. A field that selects a reading of an
ambiguity of the register is named exactly like the ambiguity's ``option`` and its values are the
reading names; a few such fields take one value more, the rule of the *other* rulebook, which the
field's docstring names. Each row of the vvv8/vandatta comparison table names the field that
captures its difference: the engine never branches on a rulebook's name.

>>> VVV8.go_out_call, VANDATTA.go_out_call
(GoOutCall.UTGANG, GoOutCall.LAPPEN)
>>> VANDATTA.varning_cards
3
"""

from __future__ import annotations

import dataclasses

from regelverk.engine import OptionError, Reading
from regelverk.marks import implements
from regelverk.records import record
from regelverk.registry import parameter

__all__ = [
    "MOST_PLAYERS_ADDING_DECKS",
    "VANDATTA",
    "VVV8",
    "AbsentTurn",
    "AcceptedCalls",
    "AceAgainDraws",
    "AceAgainScope",
    "AceBatchDraws",
    "AceFollow",
    "AceRule",
    "AfterEight",
    "AfterThreeDraws",
    "AllShortCompletion",
    "BelowTwoActive",
    "BlockedDeal",
    "CardCountScope",
    "CommentOwnHand",
    "CommentPenaltyText",
    "DealerWithoutLoser",
    "DeckSetup",
    "DrawOutOfTurn",
    "DrawTieScope",
    "DrawnCard",
    "EightInHandWhen",
    "EightMatching",
    "EightOnOwnAce",
    "EightOrDraw",
    "EightOwnSuit",
    "EightSuitPersistence",
    "EmptyStock",
    "EndlessDeal",
    "ExceptionBelow",
    "FailedCallPenalty",
    "FailedOutCard",
    "FalseCallDetection",
    "FirstPlayer",
    "GameEnd",
    "GoOutCall",
    "GoOutOn",
    "GoOutWithoutLappen",
    "HiddenBundlePenalty",
    "LappenCondition",
    "LappenFailure",
    "LappenOmission",
    "LappenPenalty",
    "LastHandCardLocked",
    "LateJoinerCount",
    "LateJoinerFirstTurn",
    "LateJoinerSecondDeck",
    "LookBackDepth",
    "LoserRule",
    "MaxPlayersFreeTime",
    "MultiCard",
    "MultiCardPlay",
    "NextDealer",
    "NobodyAlone",
    "OutBelowThree",
    "OutOfTurnCard",
    "OutWithoutCall",
    "OverLimit",
    "OverdrawCouldPlay",
    "OverdrawOtherDraws",
    "OverdrawRelease",
    "Penalties",
    "PenaltyCardsUsable",
    "PenaltySetsTiming",
    "PenaltyStacking",
    "PlayAfterThirdDraw",
    "RealChanceTest",
    "RebuildReference",
    "RedealWindow",
    "RestartFallback",
    "SameBreathWindow",
    "SameRankGroup",
    "Scoring",
    "Session",
    "SeveralEights",
    "Stalling",
    "StartAce",
    "StartAceDraw",
    "StartAceTake",
    "StartEight",
    "StartEightEarlyCard",
    "StartEightNoChoice",
    "StartEightOtherSuit",
    "StartEightPlace",
    "StepAwayOwnTurn",
    "SurplusReturn",
    "TalonEmptyMidDraw",
    "TalonPassCount",
    "TurnedPile",
    "TwoEightsLaid",
    "VandattaOptions",
    "VarningOmission",
    "VarningTrigger",
    "VetoCallers",
    "VetoLimit",
    "VetoScope",
    "VoluntaryDraw",
    "WrongCardTakeBack",
]


# --- decks, players, the session -----------------------------------------------------------


class DeckSetup(Reading):
    """How many decks (VA-AMB-PLAYERS-AND-DECKS, plus vvv8's rule V8-SETUP-TWO-DECKS-FOUR-PLUS)."""

    ONE_DECK = "one-deck"
    """One 52-card deck whatever the number of players (vandatta's default)."""
    TWO_DECKS_FOR_MANY = "two-decks-for-many"
    """One deck for two to four players, two from five players up."""
    TWO_FROM_FOUR = "two-from-four"
    """vvv8's rule: one deck for two or three players, two decks from four players up."""


class MaxPlayersFreeTime(Reading):
    """How many may play outside the coffee break (V8-AMB-MANY-PLAYERS)."""

    DECK_CAPACITY = "deck-capacity"
    """Two decks at most: seven cards each plus the start card, so fourteen players."""
    ADD_DECKS = "add-decks"
    """No cap from the decks: outside a coffee break up to :data:`MOST_PLAYERS_ADDING_DECKS`
    players (the model's own bound), and a third deck and more are shuffled in as the hands
    and the start card need (:func:`~regelverk.vandatta.setup.deck_count`). With three decks
    or more a coffee-break deal is drawn after two talon passes, as with two decks."""


MOST_PLAYERS_ADDING_DECKS = 30
"""The most players at one table under max_players_free_time = add-decks (V8-AMB-MANY-PLAYERS):
the text sets no cap outside the coffee break; the model stops at thirty players, whom five decks
serve with hands of seven."""


class Session(Reading):
    """The kind of playing session (V8-SETUP-COFFEE-BREAK-MAX-FIVE, V8-SETUP-FREE-TIME-NO-CAP)."""

    COFFEE_BREAK = "coffee-break"
    """The regular coffee break: at most five players, and drawn deals after talon passes."""
    FREE_TIME = "free-time"
    """Time enough (outside working hours): neither limit applies."""


class FirstPlayer(Reading):
    """Who plays first (VA-AMB-FIRST-PLAYER)."""

    LEFT_OF_DEALER = "left-of-dealer"
    """Förhand, the player on the dealer's left, plays first; the turn goes clockwise."""
    DEALER_FIRST = "dealer-first"
    """The dealer plays first; the turn goes clockwise."""


class NextDealer(Reading):
    """Who deals the next deal (VA-AMB-NEXT-DEALER; vvv8's V8-SESSION-LOSER-DEALS-NEXT)."""

    ROTATE_LEFT = "rotate-left"
    """The player on the last dealer's left."""
    WINNER_DEALS = "winner-deals"
    """The winner of the last deal."""
    LOSER_DEALS = "loser-deals"
    """The loser of the last deal: under card points the player who scored most, under vvv8's
    tally the player seated before the winner (V8-SESSION-LOSER-DEALS-NEXT)."""


class DealerWithoutLoser(Reading):
    """Who deals after a deal without an official loser (V8-AMB-DEALER-AFTER-NO-LOSER)."""

    WOULD_BE_LOSER_ELSE_SAME = "would-be-loser-else-same"
    """The would-be loser deals; after a drawn deal the same dealer deals again."""
    NEW_DRAW = "new-draw"
    """Where the loser would deal (next_dealer = loser-deals) but there is no official loser (a
    drawn or void deal, no loser found, or too few active players), the next deal begins with
    a fresh draw for the deal, held as for the first deal of a session."""


class DrawTieScope(Reading):
    """Which identical cards of the draw for the deal are drawn again (V8-AMB-DRAW-TIE-SCOPE)."""

    LOWEST_ONLY = "lowest-only"
    """Only players tied for the lowest card draw again."""
    ANY_IDENTICAL = "any-identical"
    """Every player whose card another also drew draws again, lowest or not, and the new cards
    take part in the comparison, until no two players hold the same card; the lowest deals."""


# --- the start card ---------------------------------------------------------------------------


class StartEight(Reading):
    """What a start eight does (V8-START-EIGHT-DEALER-NAMES-SUIT, VA-START-EIGHT-RETURNED)."""

    DEALER_NAMES_SUIT = "dealer-names-suit"
    """vvv8: the eight stays and the dealer names the starting suit after seeing his hand."""
    BACK_INTO_STOCK = "back-into-stock"
    """vandatta: the eight goes back into the stock and a new start card is turned."""


class StartEightOtherSuit(Reading):
    """ "Another suit" in the start-eight penalty (V8-AMB-START-EIGHT-OTHER-SUIT)."""

    OTHER_THAN_FORHAND_CARD = "other-than-forhand-card"
    """A penalty only if the named suit differs from that of förhand's card."""
    OTHER_THAN_EIGHT_SUIT = "other-than-eight-suit"
    """A penalty if the dealer names any suit but the eight's own."""


class StartEightEarlyCard(Reading):
    """Förhand's early card after another suit is named (V8-AMB-START-EIGHT-EARLY-CARD)."""

    TAKE_BACK = "take-back"
    """It goes back to his hand; he plays to the named suit or draws."""
    STANDS = "stands"
    """It stays as played; the named suit never takes effect."""


class StartEightPlace(Reading):
    """Where a start eight goes back into the stock (VA-AMB-START-EIGHT-PLACE)."""

    RANDOM_PLACE = "random-place"
    """At a random depth, drawn from the game's seed."""
    BOTTOM = "bottom"
    """At the bottom of the stock."""
    RESHUFFLE = "reshuffle"
    """The whole stock is shuffled again with the eight in it."""


class StartEightNoChoice(Reading):
    """A start eight when the dealer names no suit (V8-AMB-START-EIGHT-NO-CHOICE)."""

    EIGHT_SUIT = "eight-suit"
    """The eight's own suit applies."""
    ANY_SUIT = "any-suit"
    """Förhand may lay any card on the eight in his first turn (an early card stands, without
    penalty); if he lets that turn go without laying, the eight's own suit applies after him."""


class StartAceDraw(Reading):
    """When a start ace makes the players draw (V8-AMB-START-ACE-WITHOUT-VIGGO)."""

    ONLY_WITH_VIGGO = "only-with-viggo"
    """Only when the person Viggo is at the table (vvv8's default)."""
    ALWAYS = "always"
    """On every start ace (vandatta's rule VA-START-ACE-ALL-DRAW)."""
    NEVER = "never"
    """Never."""


class StartAceTake(Reading):
    """Whether the extra card for a start ace may be declined (VA-AMB-START-ACE-TAKE)."""

    COMPULSORY = "compulsory"
    """Every player due an extra card for the start ace takes it."""
    MAY_DECLINE = "may-decline"
    """Each player due the extra card chooses, in turn from the first player, to take it (a
    Draw) or to leave it in the stock (a Pass) before play begins. Only the draws of
    start_ace = all-draw-first-player at the start of a deal are optional: a start ace counted
    as the dealer's forces the others to draw like any ace, and the draws for a new start card
    at a rebuild (rebuild_reference = fresh-start-card) stay compulsory."""


class StartAce(Reading):
    """Who draws for a start ace and who plays next (VA-AMB-START-ACE)."""

    ALL_DRAW_FIRST_PLAYER = "all-draw-first-player"
    """Everyone, dealer included, draws one; then the first player plays on the ace."""
    AS_DEALERS_ACE = "as-dealers-ace"
    """As if the dealer had laid it: every other player draws one card, the dealer none, and the
    dealer plays again on the ace as on his own ace before the turn passes to his left. Where
    start_ace_draw makes nobody draw for the start ace, it has no effect either way."""


# --- matching, aces, eights ------------------------------------------------------------------


class AceRule(Reading):
    """Readings ``forbidden``/``allowed`` (VA-AMB-ACE-BY-RANK, VA-AMB-EXAMPLE-ACE-OFF-SUIT)."""

    FORBIDDEN = "forbidden"
    """The play is not allowed."""
    ALLOWED = "allowed"
    """The play is allowed."""


class AceFollow(Reading):
    """What the ace's player may lay on his own ace (comparison row 'What follows an ace')."""

    ANY_LEGAL = "any-legal"
    """vvv8 (V8-ACE-SAME-PLAYER-AGAIN): a normal turn on the ace as the card to play on."""
    ACE_SUIT = "ace-suit"
    """vandatta (VA-ACE-FOLLOW-ACE-SUIT): a card of the ace's suit."""


class AceAgainScope(Reading):
    """What the ace player may do when he plays again (V8-AMB-ACE-AGAIN-SCOPE)."""

    ANY_LEGAL = "any-legal"
    """Any legal play, another ace or an eight included, or drawing."""
    ORDINARY_ONLY = "ordinary-only"
    """No second ace and no eight in the renewed turn."""


class AceBatchDraws(Reading):
    """Several aces in one play (V8-AMB-ACE-BATCH-DRAWS)."""

    PER_ACE = "per-ace"
    """Every other player draws one card for each ace."""
    PER_PLAY = "per-play"
    """Every other player draws one card for the whole play."""


class AceAgainDraws(Reading):
    """Draws allowed in the renewed turn after an ace (V8-AMB-ACE-AGAIN-DRAW-ALLOWANCE)."""

    FRESH_THREE = "fresh-three"
    """A fresh allowance of three draws."""
    REMAINING = "remaining"
    """What is left of the turn's three draws."""


class RestartFallback(Reading):
    """A restart with no card of the required suit (VA-AMB-RESTART-WITHOUT-SUIT)."""

    EIGHT_OR_DRAW = "eight-or-draw"
    """He may lay an eight, otherwise draws up to three; if still stuck the turn passes."""
    ANY_CARD = "any-card"
    """The restart is free: any card may be laid on the ace or after the eight."""
    ACE_NEEDS_FOLLOW = "ace-needs-follow"
    """An ace or eight that makes him restart may be laid only if he keeps a card to restart
    with: one of the (last) ace's suit, or of the suit named with the eight; another eight
    counts too. Where that card cannot be laid after all (as a barred last card), the restart
    falls back on eight-or-draw."""


class AfterEight(Reading):
    """What follows an eight (comparison row 'What follows an eight')."""

    TURN_PASSES = "turn-passes"
    """vvv8 (V8-EIGHT-ENDS-TURN): the suit is named and the turn passes; the pile stays."""
    PILE_TURNED_SAME_PLAYER = "pile-turned-same-player"
    """vandatta (VA-EIGHT-TURNS-PILE): the pile is turned away and the same player restarts."""


class EightSuitPersistence(Reading):
    """How long a named suit binds (V8-AMB-EIGHT-SUIT-PERSISTENCE)."""

    UNTIL_CHANGED = "until-changed"
    """Until a card is played on the eight."""
    NEXT_PLAYER_ONLY = "next-player-only"
    """Only the next player; after him the eight counts as an ordinary card."""


class EightOwnSuit(Reading):
    """Whether the eight's own suit still counts after a suit is named (V8-AMB-EIGHT-OWN-SUIT)."""

    NAMED_ONLY = "named-only"
    """Only the named suit (or an eight)."""
    NAMED_OR_OWN = "named-or-own"
    """The named suit or the eight's own suit."""


class EightMatching(Reading):
    """Must an eight match the card it covers (VA-AMB-EIGHT-MATCH)."""

    ANY_CARD = "any-card"
    """An eight may be laid on any card."""
    MUST_MATCH = "must-match"
    """An eight must share the suit or rank of the top card."""


class EightOnOwnAce(Reading):
    """An eight laid by choice on one's own ace (VA-AMB-EIGHT-ON-OWN-ACE)."""

    ANY_TIME = "any-time"
    """The eight may always be laid on one's own ace, like on any card."""
    ONLY_WITHOUT_SUIT = "only-without-suit"
    """Only a player who holds no other card of the ace's suit may lay an eight on his own ace
    (where ace_follow = ace-suit)."""


class EightOrDraw(Reading):
    """Lay an eight or draw (VA-AMB-EIGHT-OR-DRAW)."""

    EIGHT_FIRST = "eight-first"
    """A held eight (not the last card) is a card he can lay, so he may not draw."""
    MAY_DRAW = "may-draw"
    """A player whose only playable cards are eights may draw instead."""


class TurnedPile(Reading):
    """What turning away the pile does with its cards (VA-AMB-PILE-TURNED-AWAY)."""

    SET_ASIDE = "set-aside"
    """Set aside face down until a new stock is needed."""
    UNDER_STOCK = "under-stock"
    """Turned face down and put under the stock at once, the eight becoming its bottom card;
    nothing is set aside."""
    OUT_OF_DEAL = "out-of-deal"
    """Dead for the rest of the deal."""


class SeveralEights(Reading):
    """Several eights at once (VA-AMB-SEVERAL-EIGHTS)."""

    ONE_AT_A_TIME = "one-at-a-time"
    """Each eight is its own play."""
    TOGETHER = "together"
    """A play of eights only goes down wherever its first eight may: one turn of the pile (or,
    under after_eight = turn-passes, one end of turn) and one named suit. Eights never mix with
    other cards in a play."""


class MultiCard(Reading):
    """Which cards may be laid together (VA-AMB-MULTI-CARD)."""

    TOP_RANK_ONLY = "top-rank-only"
    """Several cards only when every one has the rank of the top card (vandatta's default)."""
    FIRST_CARD_RANK = "first-card-rank"
    """The first card by suit or rank, then further cards of its rank (vvv8's rule,
    V8-PLAY-SUIT-THEN-SAME-RANK and V8-PLAY-RANK-THEN-SAME-RANK-FREE-ORDER)."""


class MultiCardPlay(Reading):
    """Same rank only or any chain (V8-AMB-MULTI-CARD-CHAIN)."""

    SAME_RANK_ONLY = "same-rank-only"
    """All cards after the first share its rank."""
    CHAIN = "chain"
    """Any sequence where each card fits the one beneath (checked; ``legal_actions`` lists the
    same-rank plays only)."""


class SameRankGroup(Reading):
    """How many of the cards of one rank a multi-card play must take (V8-AMB-SAME-RANK-ALL)."""

    ANY_NUMBER = "any-number"
    """He lays as many of them as he likes: one, some or all."""
    ALL_OR_ONE = "all-or-one"
    """Laying more than one card of a rank, he lays every card of that rank in his hand; he
    may still lay the first card alone. Plays whose cards do not all share one rank (a chain
    under multi_card_play = chain) and plays of eights are not concerned."""


class ExceptionBelow(Reading):
    """The exception 'below' that the text never states (V8-AMB-EXCEPTION-BELOW)."""

    FREE_ORDER = "free-order"
    """Cards of the start card's rank may all go down together in any order."""
    EIGHTS = "eights"
    """It refers to the one-eight rule; nothing else changes."""
    SINGLE_CARD = "single-card"
    """Only one card of the start card's rank may go on the start card."""


# --- drawing ----------------------------------------------------------------------------------


class VoluntaryDraw(Reading):
    """Whether a player may draw when he could play (comparison row 'Being obliged to play')."""

    NEVER_OBLIGED = "never-obliged"
    """vvv8 (V8-DRAW-NOT-OBLIGED-TO-PLAY): he may always draw instead of playing."""
    ONLY_WHEN_STUCK = "only-when-stuck"
    """vandatta (VA-DRAW-WHEN-STUCK): only a player who cannot lay draws."""


class DrawnCard(Reading):
    """Must a playable drawn card be laid (VA-AMB-DRAWN-CARD)."""

    MUST_PLAY = "must-play"
    """The first drawn card that can be laid is laid."""
    MAY_KEEP = "may-keep"
    """He may keep it: under vandatta he may then end his turn; under vvv8 he goes on drawing
    (up to three) and the turn passes after the third (V8-DRAW-STOP-WHEN-PLAYING)."""


class PlayAfterThirdDraw(Reading):
    """May a player play after his third draw (V8-AMB-PLAY-AFTER-THIRD-DRAW)."""

    MAY_PLAY = "may-play"
    """Yes; the turn passes only if he does not."""
    THIRD_DRAW_ENDS_TURN = "third-draw-ends-turn"
    """The third draw ends the turn at once."""


class AfterThreeDraws(Reading):
    """After three draws with nothing to lay (VA-AMB-AFTER-THREE-DRAWS)."""

    PASS_SAME_TOP = "pass-same-top"
    """The next player follows the same top card."""
    PASS_FREE_LEAD = "pass-free-lead"
    """A turn that ends after all its draws (a restart included) with no card in hand that fits
    leaves a dead pile: the next player may start with any card, as on an empty pile (a
    single card, or a group where multi_card allows one without a top card to match);
    ``State.free_lead`` carries this until he lays a card or his turn ends."""


class EmptyStock(Reading):
    """When the stock runs out (VA-AMB-STOCK-EMPTY; vvv8's V8-TALON-REBUILD-UNSHUFFLED)."""

    RESHUFFLE = "reshuffle"
    """Every played card but the top card is shuffled into a new stock (vandatta's default)."""
    REBUILD_UNSHUFFLED = "rebuild-unshuffled"
    """The pile below its top card is turned over without shuffling (vvv8's rule)."""
    NO_REBUILD = "no-rebuild"
    """No new stock: draws from an empty stock are skipped."""


class TalonEmptyMidDraw(Reading):
    """The talon runs out in the middle of a draw (V8-AMB-TALON-EXHAUSTED-MIDDRAW)."""

    REBUILD_AND_CONTINUE = "rebuild-and-continue"
    """Rebuild at once and finish the draw."""
    DRAW_WHAT_IS_THERE = "draw-what-is-there"
    """A draw that is not the spelförare's own (a penalty, the others' draws for an ace or a
    start ace, a LAPPEN penalty, a late joiner's cards) takes only what is left in the talon;
    the talon is rebuilt only when a spelförare draws from an empty talon."""


class RebuildReference(Reading):
    """Is the card kept at a rebuild a new start card (V8-AMB-REBUILD-REFERENCE-STATUS)."""

    CONTINUE = "continue"
    """No: it keeps its standing."""
    FRESH_START_CARD = "fresh-start-card"
    """Yes: a named suit lapses and the start-card rules apply to it (start_eight,
    start_ace_draw), the spelförare keeping his turn (``talon.fresh_start_card``)."""


class TalonPassCount(Reading):
    """Counting the passes through the talon (V8-AMB-TALON-PASS-COUNT)."""

    EXHAUSTIONS = "exhaustions"
    """Every time the talon runs out counts, the original one included."""
    REBUILDS = "rebuilds"
    """Only rebuilt talons count."""


class BlockedDeal(Reading):
    """A deal that cannot finish (VA-AMB-BLOCKED-DEAL)."""

    VOID = "void"
    """Cancelled without scores; the same dealer deals again."""
    COUNT_HANDS = "count-hands"
    """No winner; every player scores his hand."""
    FEWEST_POINTS_WINS = "fewest-points-wins"
    """The player whose hand (with any face-down penalty cards) is worth least by the points
    table wins the deal and scores nothing; the others score their hands. Equal cheapest hands:
    the first of them in the order of play, from the dealer's left, wins (a deal needs one
    winner for the next dealer and the loser; seat order is the texts' own tie-breaker for
    turns, and it is what a table can apply at once)."""
    PLAY_ON = "play-on"
    """vvv8's other reading (V8-AMB-BLOCKED-DEAL): nothing ends the deal; the players pass in
    turn until someone can lay or draw again (for ever if nobody can)."""


class EndlessDeal(Reading):
    """A deal that could go round for ever (VA-AMB-ENDLESS-DEAL)."""

    PLAY_ON = "play-on"
    """The deal goes on until someone goes out, however long it takes."""
    DRAWN_AFTER_PASSES = "drawn-after-passes"
    """vvv8's coffee-break limit applied: the deal is drawn, nobody scoring, when the stock has
    run out as many times as V8-TALON-DRAWN-ONE-DECK / -TWO-DECKS fix (three with one deck, two
    with two, counted as talon_pass_count says), whatever the session."""


# --- calls, going out -------------------------------------------------------------------------


class GoOutCall(Reading):
    """The call announcing a going out (comparison row 'Calls announcing a going out')."""

    UTGANG = "utgang"
    """vvv8 (V8-CALL-REQUIRED-TO-WIN): 'utgång', said as spelförare the turn before."""
    LAPPEN = "lappen"
    """vandatta (VA-CALL-LAPPEN): 'LAPPEN!' at one card, made as part of the turn."""


class RealChanceTest(Reading):
    """What a real chance of going out is (V8-AMB-REAL-CHANCE-TEST)."""

    ONE_TURN_PLAYABLE = "one-turn-playable"
    """The cards held next turn can all be played in one turn."""
    LENIENT = "lenient"
    """Any hand without an eight and not only aces."""


class LappenCondition(Reading):
    """When LAPPEN is owed (VA-AMB-LAPPEN-CONDITION)."""

    GOABLE_CARD_ONLY = "goable-card-only"
    """Only when the single card is neither an ace nor an eight."""
    ANY_SINGLE_CARD = "any-single-card"
    """For any single card."""


class LappenFailure(Reading):
    """When a LAPPEN caller is penalised (VA-AMB-LAPPEN-NEXT-ROUND)."""

    NEXT_TURN_ANY_CAUSE = "next-turn-any-cause"
    """Whenever he does not go out on his next turn."""
    SINGLE_CARD_ONLY = "single-card-only"
    """Only when he still holds just the called card and cannot lay it."""


class LappenOmission(Reading):
    """A forgotten LAPPEN (VA-AMB-LAPPEN-FORGOTTEN)."""

    ENFORCE_NO_PENALTY = "enforce-no-penalty"
    """The call is made as part of the turn; no penalty."""
    NO_GO_OUT = "no-go-out"
    """The call is the player's (``call`` said with the turn's last action): one who leaves it
    out counts at once as a caller who failed and takes the penalty cards as his turn ends."""
    WIN_STANDS = "win-stands"
    """The call is the player's; leaving it out has no consequence (and, with no standing
    call, no LAPPEN penalty can follow)."""


class LappenPenalty(Reading):
    """The LAPPEN penalty and the ordinary draw (VA-AMB-LAPPEN-PENALTY-DRAW)."""

    PENALTY_INSTEAD = "penalty-instead"
    """Three penalty cards instead of the ordinary draw; the turn ends."""
    DRAW_THEN_PENALTY = "draw-then-penalty"
    """He draws as usual, then takes the three cards at the end of the turn."""
    PENALTY_THEN_PLAY = "penalty-then-play"
    """The penalty cards stand for his draws; then he may lay a card that fits (by the
    ordinary rules of a player who has drawn all he may), or the turn passes."""


class VarningTrigger(Reading):
    """When varning is due (VA-AMB-VARNING-WHEN)."""

    EXACTLY_AFTER_OWN_TURN = "exactly-after-own-turn"
    """When his own turn leaves him with exactly the agreed number."""
    AT_OR_BELOW = "at-or-below"
    """The first time a turn leaves him at or below the agreed number."""
    WHENEVER_EXACTLY = "whenever-exactly"
    """Whenever an action brings his hand to exactly the agreed number from another count: as
    his turn ends, or at once when a draw does (his own draw in the turn, a draw for another's
    ace, penalty cards); the engine makes the calls due outside his own turn's end."""


class VarningOmission(Reading):
    """A forgotten varning (VA-AMB-VARNING-FORGOTTEN)."""

    ENFORCE_NO_PENALTY = "enforce-no-penalty"
    """The call is made as part of the turn; no penalty."""
    THREE_CARDS = "three-cards"
    """The call due as his turn ends is his (``call`` said with the turn's last action); a
    turn that ends without it costs the penalty cards at once. Calls due outside his own
    turn's end (varning_trigger = whenever-exactly) are made by the engine."""
    IGNORE = "ignore"
    """The call is a courtesy; the engine makes it all the same, without effect."""


class FailedCallPenalty(Reading):
    """What a call costs when it fails (comparison row 'A call that does not come true')."""

    FALSE_CALL_THREE = "false-call-three"
    """vvv8: a failed sound call costs nothing; a call without a real chance costs three
    penalty cards (V8-PEN-FALSE-CALL-CAUGHT, a mistake ruled in the next issue)."""
    LAPPEN_FAILED_THREE = "lappen-failed-three"
    """vandatta (VA-PENALTY-LAPPEN-FAILED): a LAPPEN caller who does not go out takes three."""


class GoOutWithoutLappen(Reading):
    """Going out without the call (VA-AMB-DIRECT-GO-OUT; vvv8's V8-CALL-REQUIRED-TO-WIN)."""

    FIRST_EMPTY_WINS = "first-empty-wins"
    """Whoever first has no cards wins, with or without a call."""
    LAPPEN_REQUIRED = "lappen-required"
    """Only a player whose going-out call (LAPPEN, or vvv8's utgång) stands may go out."""


class OutWithoutCall(Reading):
    """Playing the last card without a valid call (V8-AMB-OUT-WITHOUT-CALL)."""

    NOT_OUT_THREE_CARDS = "not-out-three-cards"
    """A mistake: not out, three penalty cards as the turn passes (ruled by ``attempt``)."""
    REFUSED_NO_PENALTY = "refused-no-penalty"
    """The play is simply not allowed."""
    WRONG_CARD_PENALTY = "wrong-card-penalty"
    """A wrong card: taken back, three penalty cards (ruled by ``attempt``)."""


class GoOutOn(Reading):
    """Going out 'on' an ace or an eight (VA-AMB-GO-OUT-ON-ACE-EIGHT)."""

    WITH = "with"
    """Only the last card itself may not be an ace or an eight."""
    WITH_OR_ONTO = "with-or-onto"
    """Nor may it be laid onto an ace or an eight."""


# --- the loser, scoring, the match ------------------------------------------------------------


class LoserRule(Reading):
    """Who loses a deal (V8-AMB-LOSER-WHO-IS-BEFORE, plus vandatta's 'no single loser')."""

    SEAT_BEFORE = "seat-before"
    """The nearest present player seated before the winner."""
    LAST_TURN_BEFORE = "last-turn-before"
    """The last player who was spelförare before the winner's winning turn."""
    NONE = "none"
    """vandatta: no single loser; every player but the winner scores his cards."""


class Scoring(Reading):
    """What is scored (V8-AMB-SCORING-UNDEFINED, plus vandatta's card points)."""

    WIN_LOSS_TALLY = "win-loss-tally"
    """Official wins and losses; most wins, then fewest losses, is champion."""
    NET_SCORE = "net-score"
    """A win +1, a loss -1; the best net score is champion."""
    LOSS_COUNT = "loss-count"
    """Only losses count; the fewest is champion."""
    CARD_POINTS = "card-points"
    """vandatta (VA-SCORING-OTHERS-COUNT): the cards left in hand, by the points table."""


class GameEnd(Reading):
    """When the match ends (comparison row 'End of the game')."""

    LEAP_DAY = "leap-day"
    """vvv8 (V8-SESSION-LEAP-DAY-CHAMPION): on a leap day the scoring closes."""
    LAST_UNDER_LIMIT = "last-under-limit"
    """vandatta (VA-SCORING-GAME-WINNER): when one player alone is below the limit."""
    SINGLE_DEAL = "single-deal"
    """The game is not played for points (VA-AMB-POINTS-OR-ONE-DEAL): the winner of the first
    deal that has one wins the game, and nothing is scored."""


class OverLimit(Reading):
    """Do players at the limit drop out (VA-AMB-OVER-100)."""

    ELIMINATED = "eliminated"
    """Yes: they take no further part."""
    PLAY_ON = "play-on"
    """No: everyone keeps playing the deals and scoring; a player at the limit can no longer
    win the match, which ends when at most one player is below the limit."""


class NobodyAlone(Reading):
    """Nobody left alone under the limit (VA-AMB-NOBODY-UNDER-100)."""

    LOWEST_TOTAL = "lowest-total"
    """The lowest total wins; ties share."""
    REPLAY_DEAL = "replay-deal"
    """The deal is cancelled (its points are taken back) and the same dealer, or if he was not
    below the limit the next player on his left who was, deals it again to the players who
    were below the limit before it; the others take no further part in the match."""


class Penalties(Reading):
    """How mistakes are handled (comparison row 'Penalties for mistakes')."""

    BROTT_OCH_STRAFF = "brott-och-straff"
    """vvv8's §3: mistakes are ruled on with their penalties (three cards and the rest)."""
    REFUSE = "refuse"
    """vandatta: an illegal attempt is refused, citing the clause that forbids it."""


# --- presence and "Brott och straff" (vvv8 §2-§3) -------------------------------------------


class AbsentTurn(Reading):
    """The turn of a temporarily absent player (V8-AMB-ABSENT-PLAYER-TURN)."""

    SKIP = "skip"
    """The turn passes over him; nobody steps away while spelförare."""
    WAIT = "wait"
    """The turn comes to him all the same and the table waits: while he is away the only thing
    that can happen is a player coming back; he then takes his turn. A standing utgång of his is
    lost as the turn reaches him away (V8-CALL-FORFEITED-IF-ABSENT). Nobody steps away while
    spelförare under either reading (unless step_away_own_turn allows it)."""


class StepAwayOwnTurn(Reading):
    """May the spelförare step away in the middle of his turn (V8-AMB-STEP-AWAY-OWN-TURN)."""

    FORBIDDEN = "forbidden"
    """No: only a player who is not spelförare may leave the table."""
    ENDS_TURN = "ends-turn"
    """Yes: his turn ends there, as if he had passed (whatever draws he had left), a standing
    utgång of his is forfeited, and he is away like anyone else who stepped out."""


class SurplusReturn(Reading):
    """A player dealt too many cards (V8-AMB-MISDEAL-TOO-MANY-OPTIONAL)."""

    MAY_KEEP = "may-keep"
    """Handing the surplus to the dealer is his choice."""
    MUST_RETURN = "must-return"
    """He must hand it over; only which cards is his choice."""


class RedealWindow(Reading):
    """Until when a new deal may be demanded (V8-AMB-MISDEAL-REDEAL-WINDOW)."""

    BEFORE_FIRST_PLAY = "before-first-play"
    """Only until förhand's first play or draw; the same dealer deals again."""
    ANY_TIME_IN_DEAL = "any-time-in-deal"
    """For the whole deal."""


class AllShortCompletion(Reading):
    """Extra rounds when every player is short (V8-AMB-MISDEAL-ALL-SHORT-UNEVEN)."""

    TOP_UP_EACH = "top-up-each"
    """Deal on clockwise from förhand, skipping those who already have seven."""
    FULL_ROUNDS = "full-rounds"
    """Deal whole rounds until nobody is short; any surplus is then handed back."""


class OverdrawCouldPlay(Reading):
    """Drawing too many when a card could have been laid (V8-AMB-OVERDRAW-COULD-PLAY)."""

    SAME_AS_OVERDRAW = "same-as-overdraw"
    """The overdraw rule all the same: the extra card is kept, locked."""
    STANDARD_PENALTY = "standard-penalty"
    """The overdraw rule is only for a player with nothing to lay: one who could have laid a
    card keeps the extra card locked and takes three penalty cards as well."""


class OverdrawOtherDraws(Reading):
    """Drawing too many outside one's own turn (V8-AMB-OVERDRAW-OUTSIDE-TURN)."""

    SAME_AS_OVERDRAW = "same-as-overdraw"
    """The extra card is kept and locked until the player's next turn."""
    STANDARD_PENALTY = "standard-penalty"
    """It is an ordinary mistake: he keeps it and takes three penalty cards as well."""
    PUT_BACK = "put-back"
    """The extra card goes back on top of the talon; no penalty."""


class LateJoinerFirstTurn(Reading):
    """When a late joiner first plays (V8-AMB-LATE-JOINER-TURN)."""

    PLAYS_ON_ARRIVAL = "plays-on-arrival"
    """He takes his cards when play reaches his seat and is spelförare in that turn."""
    CARDS_THEN_NEXT_ROUND = "cards-then-next-round"
    """He takes his cards when play reaches his seat; the turn passes on, he plays next round."""


class LateJoinerCount(Reading):
    """What counts as the most cards for a late joiner (V8-AMB-LATE-JOINER-CARDS)."""

    ALL_HELD = "all-held"
    """Every card held counts, face-down penalty and locked cards included."""
    HAND_ONLY = "hand-only"
    """Only the cards in hand count."""


class LateJoinerSecondDeck(Reading):
    """A late joiner who would need another deck (V8-AMB-LATE-JOINER-SECOND-DECK)."""

    REFUSE = "refuse"
    """No seat is free while the deal is played with fewer decks than the larger table needs
    (V8-JOIN-LATE-NO-SECOND-DECK): he waits for the next deal."""
    ADD_DECK = "add-deck"
    """He sits down as any other late joiner, and the deck the larger table needs (a second one
    at a fourth player; under max_players_free_time = add-decks a third or more as needed) is
    shuffled into the talon at once, talon and new deck together, by the game's seed."""


class BelowTwoActive(Reading):
    """Fewer than two active players (V8-AMB-FEWER-THAN-TWO-ACTIVE)."""

    PAUSE = "pause"
    """Play pauses until someone comes back."""
    CONTINUE_ALONE = "continue-alone"
    """The one active player keeps taking turns."""


class PenaltyStacking(Reading):
    """One act breaking several rules (V8-AMB-PENALTY-STACKING)."""

    ONE_PER_ACT = "one-per-act"
    """One standard penalty per act."""
    PER_OFFENCE = "per-offence"
    """Three cards for every rule broken."""


class PenaltyCardsUsable(Reading):
    """When penalty cards become usable (V8-AMB-PENALTY-CARDS-USABLE)."""

    AFTER_EXHAUSTING_TURN = "after-exhausting-turn"
    """Locked through the current turn (spelförare) or through his next turn (others)."""
    AT_NEXT_TURN_START = "at-next-turn-start"
    """Usable at once by a spelförare, at the start of his next turn by others."""


class PenaltySetsTiming(Reading):
    """Several penalty sets of one player (V8-AMB-PENALTY-SETS-TIMING)."""

    EACH_OWN_CLOCK = "each-own-clock"
    """Every set is released on its own schedule."""
    MERGED = "merged"
    """All sets are released together, at the latest release."""


class WrongCardTakeBack(Reading):
    """The wrongly laid cards (V8-AMB-WRONG-CARD-TAKE-BACK)."""

    ALWAYS_BACK = "always-back"
    """They go back to the offender's hand; he then plays correctly or draws."""
    MAY_LEAVE = "may-leave"
    """He may leave them where they lie (a wrong play made with ``leave``): they stay on the
    pile as plain cards (an ace makes nobody draw, an eight names no suit, a suit named before
    is cleared), and his turn ends as after a play; the next player plays on the top one.
    Cards that would leave him holding nothing at all go back all the same."""


class FalseCallDetection(Reading):
    """When a false utgång is punished (V8-AMB-FALSE-CALL-DETECTION)."""

    AT_CALL = "at-call"
    """As it is made, unless withdrawn in the same breath."""
    WHEN_REVEALED = "when-revealed"
    """Only once caught or admitted: the referee notes the false call without a penalty (the
    call is void for going out all the same and gives no veto); until the end of the caller's
    next turn as spelförare anyone may catch it, or he may own up (``RevealCall``), and the
    three cards fall then."""


class SameBreathWindow(Reading):
    """How late a false utgång may be taken back without penalty (V8-AMB-SAME-BREATH-WINDOW)."""

    WITH_THE_ACTION = "with-the-action"
    """Taken back together with the play or pass that carries it (``Withdrawn``), before the
    next player does anything, it costs nothing."""
    BEFORE_TURN_PASSES = "before-turn-passes"
    """Only before the play or pass that ends the turn: a call said with that action can no
    longer be taken back in time, so a ``Withdrawn`` false call costs three cards as if owned
    up to (and a withdrawn call that had a real chance simply lapses)."""


class OutOfTurnCard(Reading):
    """A card laid out of turn (V8-AMB-OUT-OF-TURN-CARD)."""

    RETURNED = "returned"
    """It goes back to the offender's hand."""
    STANDS = "stands"
    """It stays on the pile as a plain card to play on (an ace makes nobody draw, an eight
    names no suit, a suit named before is cleared); the spelförare keeps his turn. Cards that
    would empty the offender's hand go back all the same."""


class TwoEightsLaid(Reading):
    """Eights laid together where only one may go at a time (V8-AMB-TWO-EIGHTS-TOGETHER)."""

    STANDARD_PENALTY = "standard-penalty"
    """A mistake: he takes the eights back and plays again, and takes the three cards of the
    standard penalty."""
    TAKEN_BACK = "taken-back"
    """No sanction is named: he takes the eights back and plays again, unpunished."""
    FIRST_STANDS = "first-stands"
    """The first eight stands with the suit he names and ends his turn; the others go back to
    his hand, unpunished."""


class DrawOutOfTurn(Reading):
    """A card drawn from the talon out of turn (V8-AMB-DRAW-OUT-OF-TURN)."""

    STOPPED = "stopped"
    """Not an offence the text lists: the draw is undone (the card goes back on the talon
    unseen) and nothing else happens."""
    STANDARD_PENALTY = "standard-penalty"
    """A mistake like a card laid out of turn: the card goes back on the talon, and he takes
    the three cards of the standard penalty."""
    KEPT_LOCKED = "kept-locked"
    """Like cards drawn too many: he keeps the card face down, and it joins his hand as his
    next turn begins."""


class LookBackDepth(Reading):
    """How far back anyone may look through the pile (V8-AMB-LOOK-BACK-DEPTH)."""

    LATEST_PLAY = "latest-play"
    """Through the latest play, down to the top card of the player before it."""
    ONE_CARD = "one-card"
    """Only the card directly beneath the top card."""


class OverdrawRelease(Reading):
    """When cards drawn too many become usable (V8-AMB-OVERDRAW-NEXT-ROUND)."""

    NEXT_OWN_TURN = "next-own-turn"
    """At the player's next turn."""
    AFTER_NEXT_TURN = "after-next-turn"
    """Only after his next turn as well."""


class FailedOutCard(Reading):
    """The ace or eight laid as a last card (V8-AMB-FAILED-OUT-CARD)."""

    CARD_STAYS = "card-stays"
    """It stays with its normal effect; three penalty cards as the turn passes."""
    CARD_RETURNS = "card-returns"
    """It goes back to his hand; he takes the three cards, locked through this turn as under
    card-stays, and finishes his turn by the normal rules (play, draw, pass)."""


class CommentOwnHand(Reading):
    """Remarks about one's own hand (V8-AMB-COMMENT-OWN-HAND)."""

    INCLUDES_OWN_HAND = "includes-own-hand"
    """They are offences too."""
    OTHERS_ONLY = "others-only"
    """Only remarks about other players' hands are offences."""


class CommentPenaltyText(Reading):
    """The remark penalty's sentence ends in a comma (V8-AMB-COMMENT-TRUNCATED)."""

    THREE_CARDS = "three-cards"
    """Three penalty cards, complete as written."""
    UNFINISHED = "unfinished"
    """Three penalty cards, and the rest is reported as undefined."""


class VetoScope(Reading):
    """When utgång callers may veto a penalty draw (V8-AMB-VETO-INFLUENCE)."""

    ANY_DRAW_WHILE_CALLED = "any-draw-while-called"
    """While any call stands, every caller may veto any standard three-card penalty."""
    TURNED_TALON_OR_BEFORE_CALLER = "turned-talon-or-before-caller"
    """Only once the talon has been turned, or when the offender plays before the caller."""


class VetoLimit(Reading):
    """How often a penalty may be vetoed (V8-AMB-VETO-REPEATED)."""

    UNLIMITED = "unlimited"
    """Every penalty the callers may veto can be vetoed, however often the mistake comes."""
    ONCE_PER_OFFENDER_TURN = "once-per-offender-turn"
    """One penalty of each offender per turn of play can be vetoed (by any caller); a second
    penalty of his in the same turn cannot, and costs its cards."""


class OutBelowThree(Reading):
    """A going out while fewer players are active than an official result needs
    (V8-AMB-OUT-BELOW-THREE)."""

    UNOFFICIAL = "unofficial"
    """The going out stands and ends the deal, without an official winner or loser."""
    HELD_BACK = "held-back"
    """Nobody may go out while too few are active in a deal that began with enough: the last
    card waits until enough players are back, so that the deal can still end officially."""


class Stalling(Reading):
    """How long the dealer may take over the starting suit (V8-AMB-STALLING-LIMIT)."""

    NO_LIMIT = "no-limit"
    """The text's plea only: no time limit and no sanction; the choice stays the dealer's."""
    TABLE_LIMIT = "table-limit"
    """The table's agreed limit (stalling_limit_seconds): once it has passed, the dealer's
    choice lapses as if he had named no suit."""


class VetoCallers(Reading):
    """Whose veto stops a penalty when several players have called (V8-AMB-VETO-SEVERAL-CALLERS)."""

    ANY_CALLER = "any-caller"
    """One caller's veto suffices: each caller holds the right on his own."""
    ALL_CALLERS = "all-callers"
    """The cards go back only once every caller who may veto them has vetoed."""


class AcceptedCalls(Reading):
    """Which words count as the going-out call (V8-AMB-CALL-WORDS)."""

    LISTED_AND_AGREED = "listed-and-agreed"
    """The text's three words (utgång, varning, lappen) and the table's ``agreed_calls``; any
    other word is no call: the action stands as made without one."""
    ANY_CLEAR_WARNING = "any-clear-warning"
    """Any word said as the call counts (the model takes every word said as the call to be a
    warning all the players understand)."""


class EightInHandWhen(Reading):
    """When an eight in hand bars utgång (V8-AMB-EIGHT-IN-HAND-WHEN)."""

    REMAINING_HAND = "remaining-hand"
    """Only the cards kept after the play the call goes with count."""
    AT_CALL = "at-call"
    """An eight in the play the call goes with bars the call too."""


class CardCountScope(Reading):
    """What a caller's card count on demand includes (V8-AMB-CARD-COUNT-SCOPE)."""

    ALL_HELD = "all-held"
    """Hand and face-down cards."""
    HAND_ONLY = "hand-only"
    """The cards in hand only."""


class LastHandCardLocked(Reading):
    """Emptying the hand while penalty cards are locked (V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS)."""

    ALLOWED_NOT_OUT = "allowed-not-out"
    """Any card may be the last hand card; he is not out, and no penalty follows."""
    TREATED_AS_GOING_OUT = "treated-as-going-out"
    """Emptying the hand is a going out attempt: an ace or an eight as its last card is a
    failed going out, ruled as in §3 ¶8 (three more penalty cards; failed_out_card applies)."""


class HiddenBundlePenalty(Reading):
    """Laying a bundle with only its top card showing (V8-AMB-HIDDEN-BUNDLE-PENALTY)."""

    NO_OWN_PENALTY = "no-own-penalty"
    """No penalty of its own; others may look through it freely."""
    STANDARD_PENALTY = "standard-penalty"
    """A mistake like any other: three penalty cards."""


@implements("VA-CALL-VARNING-AGREED-COUNT", "VA-CALL-VARNING-USUAL-THREE", "V8-DRAW-MAX-THREE")
@record
class VandattaOptions:
    """The rules of one Vändåtta table; :data:`VVV8` and :data:`VANDATTA` are the presets."""

    # decks, players, session
    deck_setup: DeckSetup
    """Decks by number of players (VA-AMB-PLAYERS-AND-DECKS, V8-SETUP-TWO-DECKS-FOUR-PLUS)."""
    max_players: int
    """Most players the decks serve (V8-SETUP-FREE-TIME-PLAYER-LIMIT, VA-SETUP-DECK-AND-PLAYERS);
    at most fourteen, what two decks serve. Under max_players_free_time = add-decks it does not
    bound a table outside the coffee break (:data:`MOST_PLAYERS_ADDING_DECKS` does)."""
    max_players_free_time: MaxPlayersFreeTime = MaxPlayersFreeTime.DECK_CAPACITY
    """Players outside the coffee break (V8-AMB-MANY-PLAYERS)."""
    session: Session = Session.FREE_TIME
    """The session (V8-SETUP-COFFEE-BREAK-MAX-FIVE, V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK)."""
    coffee_break_max_players: int | None = None
    """The cap in a coffee break, ``None`` for none (V8-SETUP-COFFEE-BREAK-MAX-FIVE)."""
    hand_size: int = dataclasses.field(
        default_factory=lambda: parameter("VA-DEAL-SEVEN-CARDS", "hand_size")
    )
    """Cards dealt to each player (V8-DEAL-SEVEN-ROUNDS, VA-DEAL-SEVEN-CARDS)."""
    dealer_draw: bool = False
    """A draw for the first deal of a session (V8-DEALER-DRAW-HELD)."""
    draw_tie_scope: DrawTieScope = DrawTieScope.LOWEST_ONLY
    """Redraws in the draw for the deal (V8-AMB-DRAW-TIE-SCOPE)."""
    first_player: FirstPlayer = FirstPlayer.LEFT_OF_DEALER
    """Who plays first (VA-AMB-FIRST-PLAYER; V8-PLAY-FORHAND-FIRST)."""
    next_dealer: NextDealer = NextDealer.ROTATE_LEFT
    """Who deals the next deal (VA-AMB-NEXT-DEALER; V8-SESSION-LOSER-DEALS-NEXT)."""
    dealer_without_loser: DealerWithoutLoser = DealerWithoutLoser.WOULD_BE_LOSER_ELSE_SAME
    """The dealer after a deal without an official loser (V8-AMB-DEALER-AFTER-NO-LOSER)."""
    misdeal_rules: bool = False
    """Misdeal remedies apply (V8-MISDEAL-TOO-MANY-RETURN and the rest of §1; next issue)."""
    presence: bool = False
    """Players may step away and come back (V8-PRESENCE-ABSENT-TURN-SKIPPED)."""

    # start card
    start_eight: StartEight = StartEight.BACK_INTO_STOCK
    """A start eight (V8-START-EIGHT-DEALER-NAMES-SUIT against VA-START-EIGHT-RETURNED)."""
    start_eight_other_suit: StartEightOtherSuit = StartEightOtherSuit.OTHER_THAN_FORHAND_CARD
    """Which suit counts as another (V8-AMB-START-EIGHT-OTHER-SUIT,
    V8-START-EIGHT-FORHAND-EARLY-PENALTY)."""
    start_eight_early_card: StartEightEarlyCard = StartEightEarlyCard.TAKE_BACK
    """Förhand's early card (V8-AMB-START-EIGHT-EARLY-CARD, V8-START-EIGHT-EARLY-CARD-RETURNED)."""
    start_eight_place: StartEightPlace = StartEightPlace.RANDOM_PLACE
    """Where a start eight goes back (VA-AMB-START-EIGHT-PLACE)."""
    start_eight_no_choice: StartEightNoChoice = StartEightNoChoice.EIGHT_SUIT
    """A start eight with no suit named (V8-AMB-START-EIGHT-NO-CHOICE)."""
    start_ace_draw: StartAceDraw = StartAceDraw.ALWAYS
    """When a start ace makes all draw (V8-AMB-START-ACE-WITHOUT-VIGGO; VA-START-ACE-ALL-DRAW)."""
    viggo_present: bool = False
    """The person Viggo plays (V8-START-ACE-ONLY-WITH-VIGGO); a player named Viggo counts too."""
    start_ace: StartAce = StartAce.ALL_DRAW_FIRST_PLAYER
    """Who draws for a start ace, who plays next (VA-AMB-START-ACE)."""
    start_ace_take: StartAceTake = StartAceTake.COMPULSORY
    """Whether the start ace's extra card may be declined (VA-AMB-START-ACE-TAKE)."""

    # matching, aces, eights
    ace_by_rank: AceRule = AceRule.FORBIDDEN
    """May an ace go on an ace of another suit (VA-AMB-ACE-BY-RANK)."""
    ace_off_suit: AceRule = AceRule.FORBIDDEN
    """May an ace go on a card of another suit and rank (VA-AMB-EXAMPLE-ACE-OFF-SUIT)."""
    ace_follow: AceFollow = AceFollow.ACE_SUIT
    """The card on one's own ace (V8-ACE-SAME-PLAYER-AGAIN against VA-ACE-FOLLOW-ACE-SUIT)."""
    ace_again_scope: AceAgainScope = AceAgainScope.ANY_LEGAL
    """The renewed turn after an ace (V8-AMB-ACE-AGAIN-SCOPE)."""
    ace_batch_draws: AceBatchDraws = AceBatchDraws.PER_ACE
    """Draws for several aces in one play (V8-AMB-ACE-BATCH-DRAWS)."""
    ace_again_draws: AceAgainDraws = AceAgainDraws.FRESH_THREE
    """Draws in the renewed turn (V8-AMB-ACE-AGAIN-DRAW-ALLOWANCE)."""
    restart_fallback: RestartFallback = RestartFallback.EIGHT_OR_DRAW
    """A restart with no card of the suit (VA-AMB-RESTART-WITHOUT-SUIT)."""
    after_eight: AfterEight = AfterEight.PILE_TURNED_SAME_PLAYER
    """What follows an eight (V8-EIGHT-ENDS-TURN against VA-EIGHT-TURNS-PILE)."""
    eight_suit_persistence: EightSuitPersistence = EightSuitPersistence.UNTIL_CHANGED
    """How long a named suit binds (V8-AMB-EIGHT-SUIT-PERSISTENCE)."""
    eight_own_suit: EightOwnSuit = EightOwnSuit.NAMED_ONLY
    """The eight's own suit after naming (V8-AMB-EIGHT-OWN-SUIT)."""
    eight_matching: EightMatching = EightMatching.ANY_CARD
    """Must an eight match (VA-AMB-EIGHT-MATCH)."""
    eight_or_draw: EightOrDraw = EightOrDraw.EIGHT_FIRST
    """Lay an eight or draw (VA-AMB-EIGHT-OR-DRAW)."""
    eight_on_own_ace: EightOnOwnAce = EightOnOwnAce.ANY_TIME
    """An eight by choice on one's own ace (VA-AMB-EIGHT-ON-OWN-ACE)."""
    turned_pile: TurnedPile = TurnedPile.SET_ASIDE
    """Where a turned-away pile goes (VA-AMB-PILE-TURNED-AWAY)."""
    several_eights: SeveralEights = SeveralEights.ONE_AT_A_TIME
    """Several eights at once (VA-AMB-SEVERAL-EIGHTS; V8-EIGHT-ONE-PER-PLAY)."""
    multi_card: MultiCard = MultiCard.TOP_RANK_ONLY
    """Which cards go down together (VA-AMB-MULTI-CARD; V8-PLAY-SUIT-THEN-SAME-RANK)."""
    multi_card_play: MultiCardPlay = MultiCardPlay.SAME_RANK_ONLY
    """Same rank only or chains (V8-AMB-MULTI-CARD-CHAIN)."""
    same_rank_group: SameRankGroup = SameRankGroup.ANY_NUMBER
    """Some or all the cards of a rank in one play (V8-AMB-SAME-RANK-ALL)."""
    exception_below: ExceptionBelow = ExceptionBelow.FREE_ORDER
    """Cards of the start card's rank on the start card (V8-AMB-EXCEPTION-BELOW)."""

    # drawing
    voluntary_draw: VoluntaryDraw = VoluntaryDraw.ONLY_WHEN_STUCK
    """Whether one may draw instead of playing (V8-DRAW-NOT-OBLIGED-TO-PLAY, VA-DRAW-WHEN-STUCK)."""
    max_draws: int = dataclasses.field(
        default_factory=lambda: parameter("VA-DRAW-MAX-THREE", "max_draws")
    )
    """Most cards drawn in one turn (V8-DRAW-MAX-THREE, VA-DRAW-MAX-THREE)."""
    drawn_card: DrawnCard = DrawnCard.MUST_PLAY
    """Must a playable drawn card be laid (VA-AMB-DRAWN-CARD)."""
    play_after_third_draw: PlayAfterThirdDraw = PlayAfterThirdDraw.MAY_PLAY
    """Playing after the third draw (V8-AMB-PLAY-AFTER-THIRD-DRAW)."""
    after_three_draws: AfterThreeDraws = AfterThreeDraws.PASS_SAME_TOP
    """After three useless draws (VA-AMB-AFTER-THREE-DRAWS)."""
    empty_stock: EmptyStock = EmptyStock.RESHUFFLE
    """When the stock runs out (VA-AMB-STOCK-EMPTY; V8-TALON-REBUILD-UNSHUFFLED)."""
    talon_empty_mid_draw: TalonEmptyMidDraw = TalonEmptyMidDraw.REBUILD_AND_CONTINUE
    """The talon running out mid-draw (V8-AMB-TALON-EXHAUSTED-MIDDRAW)."""
    rebuild_reference: RebuildReference = RebuildReference.CONTINUE
    """The card kept at a rebuild (V8-AMB-REBUILD-REFERENCE-STATUS)."""
    talon_pass_limit: bool = False
    """Drawn deals after talon passes in a coffee break (V8-TALON-DRAWN-ONE-DECK, -TWO-DECKS)."""
    talon_pass_count: TalonPassCount = TalonPassCount.EXHAUSTIONS
    """Counting talon passes (V8-AMB-TALON-PASS-COUNT)."""
    blocked_deal: BlockedDeal = BlockedDeal.VOID
    """A deal nobody can finish (VA-AMB-BLOCKED-DEAL, V8-AMB-BLOCKED-DEAL)."""
    endless_deal: EndlessDeal = EndlessDeal.PLAY_ON
    """A deal that could go round for ever: drawn after stock passes or not (VA-AMB-ENDLESS-DEAL,
    with the limits of V8-TALON-DRAWN-ONE-DECK and V8-TALON-DRAWN-TWO-DECKS)."""

    # calls and going out
    go_out_call: GoOutCall = GoOutCall.LAPPEN
    """The going-out call (V8-CALL-REQUIRED-TO-WIN against VA-CALL-LAPPEN, whose table also
    calls varning: VA-CALL-VARNING)."""
    real_chance_test: RealChanceTest = RealChanceTest.ONE_TURN_PLAYABLE
    """A real chance of going out (V8-AMB-REAL-CHANCE-TEST)."""
    varning_cards: int | None = 3
    """Hand size calling for 'varning!', ``None``: no such call (VA-CALL-VARNING-AGREED-COUNT)."""
    varning_trigger: VarningTrigger = VarningTrigger.EXACTLY_AFTER_OWN_TURN
    """When varning is due (VA-AMB-VARNING-WHEN)."""
    varning_omission: VarningOmission = VarningOmission.ENFORCE_NO_PENALTY
    """A forgotten varning (VA-AMB-VARNING-FORGOTTEN)."""
    lappen_condition: LappenCondition = LappenCondition.GOABLE_CARD_ONLY
    """When LAPPEN is owed (VA-AMB-LAPPEN-CONDITION)."""
    lappen_omission: LappenOmission = LappenOmission.ENFORCE_NO_PENALTY
    """A forgotten LAPPEN (VA-AMB-LAPPEN-FORGOTTEN)."""
    lappen_failure: LappenFailure = LappenFailure.NEXT_TURN_ANY_CAUSE
    """When a LAPPEN caller is penalised (VA-AMB-LAPPEN-NEXT-ROUND)."""
    lappen_penalty: LappenPenalty = LappenPenalty.PENALTY_INSTEAD
    """The LAPPEN penalty and the draw (VA-AMB-LAPPEN-PENALTY-DRAW)."""
    failed_call_penalty: FailedCallPenalty = FailedCallPenalty.LAPPEN_FAILED_THREE
    """What a failed call costs (V8-PEN-FALSE-CALL-CAUGHT against VA-PENALTY-LAPPEN-FAILED)."""
    penalty_cards: int = dataclasses.field(
        default_factory=lambda: parameter("VA-PENALTY-LAPPEN-FAILED", "lappen_penalty_cards")
    )
    """Cards of a penalty (V8-PEN-STANDARD-THREE-CARDS, VA-PENALTY-LAPPEN-FAILED)."""
    go_out_without_lappen: GoOutWithoutLappen = GoOutWithoutLappen.FIRST_EMPTY_WINS
    """Going out without a standing call (VA-AMB-DIRECT-GO-OUT; V8-CALL-REQUIRED-TO-WIN)."""
    out_without_call: OutWithoutCall = OutWithoutCall.REFUSED_NO_PENALTY
    """The last card played without a call (V8-AMB-OUT-WITHOUT-CALL)."""
    go_out_on: GoOutOn = GoOutOn.WITH
    """Going out on an ace or an eight (VA-AMB-GO-OUT-ON-ACE-EIGHT)."""

    # loser, scoring, match
    loser_rule: LoserRule = LoserRule.NONE
    """Who loses a deal (V8-AMB-LOSER-WHO-IS-BEFORE)."""
    min_active_for_result: int = 0
    """Active players needed for an official result (V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    slagpase: bool = False
    """A game with a slagpåse: nothing is scored (V8-SCORING-NO-POINTS-SLAGPASE)."""
    scoring: Scoring = Scoring.CARD_POINTS
    """What is scored (V8-AMB-SCORING-UNDEFINED; VA-SCORING-OTHERS-COUNT)."""
    game_end: GameEnd = GameEnd.LAST_UNDER_LIMIT
    """When the match ends (V8-SESSION-LEAP-DAY-CHAMPION, VA-SCORING-GAME-WINNER,
    VA-AMB-POINTS-OR-ONE-DEAL)."""
    score_limit: int = dataclasses.field(
        default_factory=lambda: parameter("VA-SCORING-GAME-WINNER", "score_limit")
    )
    """The points limit of the match (VA-SCORING-GAME-WINNER)."""
    over_limit: OverLimit = OverLimit.ELIMINATED
    """Players at the limit (VA-AMB-OVER-100)."""
    nobody_alone: NobodyAlone = NobodyAlone.LOWEST_TOTAL
    """Nobody alone under the limit (VA-AMB-NOBODY-UNDER-100)."""
    penalties: Penalties = Penalties.REFUSE
    """How mistakes are handled (V8-PEN-STANDARD-THREE-CARDS)."""
    absent_turn: AbsentTurn = AbsentTurn.SKIP
    """An absent player's turn (V8-AMB-ABSENT-PLAYER-TURN, V8-PRESENCE-ABSENT-TURN-SKIPPED)."""
    step_away_own_turn: StepAwayOwnTurn = StepAwayOwnTurn.FORBIDDEN
    """Stepping away as spelförare (V8-AMB-STEP-AWAY-OWN-TURN, V8-PRESENCE-ABSENT-TURN-SKIPPED)."""
    below_two_active: BelowTwoActive = BelowTwoActive.PAUSE
    """Fewer than two active players (V8-AMB-FEWER-THAN-TWO-ACTIVE)."""
    surplus_return: SurplusReturn = SurplusReturn.MAY_KEEP
    """Surplus cards from a misdeal (V8-AMB-MISDEAL-TOO-MANY-OPTIONAL,
    V8-MISDEAL-TOO-MANY-RETURN)."""
    redeal_window: RedealWindow = RedealWindow.BEFORE_FIRST_PLAY
    """How long a new deal may be demanded (V8-AMB-MISDEAL-REDEAL-WINDOW,
    V8-MISDEAL-TOO-FEW-REDEAL-RIGHT)."""
    all_short_completion: AllShortCompletion = AllShortCompletion.TOP_UP_EACH
    """Extra rounds when all are short (V8-AMB-MISDEAL-ALL-SHORT-UNEVEN,
    V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS)."""
    overdraw_other_draws: OverdrawOtherDraws = OverdrawOtherDraws.SAME_AS_OVERDRAW
    """A card too many in another draw (V8-AMB-OVERDRAW-OUTSIDE-TURN, V8-PEN-OVERDRAW-ANY-DRAW)."""
    overdraw_could_play: OverdrawCouldPlay = OverdrawCouldPlay.SAME_AS_OVERDRAW
    """A card too many by a player who could lay one (V8-AMB-OVERDRAW-COULD-PLAY,
    V8-PEN-OVERDRAW-KEEP-LOCKED)."""
    late_joiner_first_turn: LateJoinerFirstTurn = LateJoinerFirstTurn.PLAYS_ON_ARRIVAL
    """When a late joiner first plays (V8-AMB-LATE-JOINER-TURN, V8-JOIN-LATE-TAKE-FREE-SEAT)."""
    late_joiner_count: LateJoinerCount = LateJoinerCount.ALL_HELD
    """The largest holding a late joiner is matched to (V8-AMB-LATE-JOINER-CARDS,
    V8-JOIN-LATE-CARDS-MOST-PLUS-ONE)."""
    late_joiner_second_deck: LateJoinerSecondDeck = LateJoinerSecondDeck.REFUSE
    """A late joiner whose seat would need another deck (V8-AMB-LATE-JOINER-SECOND-DECK,
    V8-JOIN-LATE-NO-SECOND-DECK)."""
    penalty_stacking: PenaltyStacking = PenaltyStacking.ONE_PER_ACT
    """One act, several offences (V8-AMB-PENALTY-STACKING)."""
    penalty_cards_usable: PenaltyCardsUsable = PenaltyCardsUsable.AFTER_EXHAUSTING_TURN
    """When penalty cards become usable (V8-AMB-PENALTY-CARDS-USABLE)."""
    penalty_sets_timing: PenaltySetsTiming = PenaltySetsTiming.EACH_OWN_CLOCK
    """Several penalty sets of one player (V8-AMB-PENALTY-SETS-TIMING)."""
    wrong_card_take_back: WrongCardTakeBack = WrongCardTakeBack.ALWAYS_BACK
    """The wrongly laid cards (V8-AMB-WRONG-CARD-TAKE-BACK)."""
    false_call_detection: FalseCallDetection = FalseCallDetection.AT_CALL
    """When a false utgång costs its cards (V8-AMB-FALSE-CALL-DETECTION)."""
    same_breath_window: SameBreathWindow = SameBreathWindow.WITH_THE_ACTION
    """How late a false utgång may be taken back (V8-AMB-SAME-BREATH-WINDOW,
    V8-PEN-FALSE-CALL-SAME-BREATH)."""
    out_of_turn_card: OutOfTurnCard = OutOfTurnCard.RETURNED
    """A card laid out of turn (V8-AMB-OUT-OF-TURN-CARD)."""
    draw_out_of_turn: DrawOutOfTurn = DrawOutOfTurn.STOPPED
    """A card drawn from the talon out of turn (V8-AMB-DRAW-OUT-OF-TURN)."""
    two_eights: TwoEightsLaid = TwoEightsLaid.STANDARD_PENALTY
    """Eights laid together against one eight at a time (V8-AMB-TWO-EIGHTS-TOGETHER)."""
    look_back_depth: LookBackDepth = LookBackDepth.LATEST_PLAY
    """How far back the pile may be looked through (V8-AMB-LOOK-BACK-DEPTH)."""
    overdraw_release: OverdrawRelease = OverdrawRelease.NEXT_OWN_TURN
    """Cards drawn too many (V8-AMB-OVERDRAW-NEXT-ROUND)."""
    failed_out_card: FailedOutCard = FailedOutCard.CARD_STAYS
    """The ace or eight laid as a last card (V8-AMB-FAILED-OUT-CARD)."""
    comment_own_hand: CommentOwnHand = CommentOwnHand.INCLUDES_OWN_HAND
    """Remarks about one's own hand (V8-AMB-COMMENT-OWN-HAND)."""
    comment_penalty_text: CommentPenaltyText = CommentPenaltyText.THREE_CARDS
    """The remark penalty's unfinished sentence (V8-AMB-COMMENT-TRUNCATED)."""
    veto_scope: VetoScope = VetoScope.ANY_DRAW_WHILE_CALLED
    """When callers may veto a penalty draw (V8-AMB-VETO-INFLUENCE)."""
    hidden_bundle_penalty: HiddenBundlePenalty = HiddenBundlePenalty.NO_OWN_PENALTY
    """A bundle laid with only its top card showing (V8-AMB-HIDDEN-BUNDLE-PENALTY)."""
    veto_limit: VetoLimit = VetoLimit.UNLIMITED
    """How often one offender's penalties may be vetoed (V8-AMB-VETO-REPEATED)."""
    veto_callers: VetoCallers = VetoCallers.ANY_CALLER
    """Whose veto stops a penalty when several have called (V8-AMB-VETO-SEVERAL-CALLERS)."""
    out_below_three: OutBelowThree = OutBelowThree.UNOFFICIAL
    """A going out while too few are active (V8-AMB-OUT-BELOW-THREE)."""
    stalling: Stalling = Stalling.NO_LIMIT
    """How long the dealer may take over the starting suit (V8-AMB-STALLING-LIMIT)."""
    stalling_limit_seconds: int = 120
    """Under stalling = table-limit, the seconds after which the dealer's choice lapses
    (V8-AMB-STALLING-LIMIT)."""
    accepted_calls: AcceptedCalls = AcceptedCalls.LISTED_AND_AGREED
    """Which words count as utgång (V8-AMB-CALL-WORDS, V8-CALL-ALTERNATIVE-WORDS)."""
    agreed_calls: tuple[str, ...] = ()
    """Further going-out words the table has agreed on beforehand, known to every player
    (V8-AMB-CALL-WORDS, V8-CALL-ALTERNATIVE-WORDS)."""
    eight_in_hand_when: EightInHandWhen = EightInHandWhen.REMAINING_HAND
    """When an eight bars the call (V8-AMB-EIGHT-IN-HAND-WHEN, V8-CALL-NEVER-WITH-EIGHT)."""
    card_count_scope: CardCountScope = CardCountScope.ALL_HELD
    """The caller's card count on demand (V8-AMB-CARD-COUNT-SCOPE, V8-CALL-CARD-COUNT-ALL-HELD)."""
    last_hand_card_locked: LastHandCardLocked = LastHandCardLocked.ALLOWED_NOT_OUT
    """The last hand card with penalty cards locked (V8-AMB-EMPTY-HAND-WITH-PENALTY-CARDS,
    V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS)."""

    def __post_init__(self) -> None:
        if self.varning_cards not in (None, 2, 3, 4):
            raise OptionError(
                f"varning_cards must be 2, 3 or 4 (or None), not {self.varning_cards!r} "
                "(VA-CALL-VARNING-AGREED-COUNT)"
            )
        if not 2 <= self.max_players <= 14:
            raise OptionError(
                f"max_players must be between 2 and 14 (two decks serve fourteen), "
                f"not {self.max_players!r}"
            )
        if self.max_draws < 1 or self.hand_size < 1 or self.penalty_cards < 0:
            raise OptionError(
                "max_draws and hand_size must be positive, penalty_cards not negative"
            )
        if self.score_limit < 1:
            raise OptionError(f"score_limit must be positive, not {self.score_limit!r}")
        if self.stalling_limit_seconds < 1:
            raise OptionError(
                f"stalling_limit_seconds must be positive, not {self.stalling_limit_seconds!r} "
                "(V8-AMB-STALLING-LIMIT)"
            )
        if self.coffee_break_max_players is not None and not (
            2 <= self.coffee_break_max_players <= self.max_players
        ):
            raise OptionError(
                f"coffee_break_max_players must be None or from 2 to max_players "
                f"({self.max_players}), not {self.coffee_break_max_players!r}: a coffee break "
                "seats at least two and never more than the decks serve "
                "(V8-SETUP-COFFEE-BREAK-MAX-FIVE)"
            )
        if not 0 <= self.min_active_for_result <= MOST_PLAYERS_ADDING_DECKS:
            raise OptionError(
                f"min_active_for_result must be from 0 to {MOST_PLAYERS_ADDING_DECKS}, not "
                f"{self.min_active_for_result!r} (V8-LOSS-OFFICIAL-NEEDS-THREE)"
            )
        if not isinstance(self.agreed_calls, tuple) or not all(
            isinstance(w, str) and w.strip() for w in self.agreed_calls
        ):
            raise OptionError(
                f"agreed_calls must be a tuple of words, not {self.agreed_calls!r} "
                "(V8-CALL-ALTERNATIVE-WORDS)"
            )


VANDATTA = VandattaOptions(deck_setup=DeckSetup.ONE_DECK, max_players=6)
"""The common Vändåtta rules (001), every ambiguity at its register default."""

VVV8 = VandattaOptions(
    deck_setup=DeckSetup.TWO_FROM_FOUR,
    max_players=14,
    session=Session.COFFEE_BREAK,
    coffee_break_max_players=5,
    hand_size=parameter("V8-DEAL-SEVEN-ROUNDS", "hand_size"),
    max_draws=parameter("V8-DRAW-MAX-THREE", "max_draws"),
    penalty_cards=parameter("V8-PEN-STANDARD-THREE-CARDS", "penalty_cards"),
    dealer_draw=True,
    next_dealer=NextDealer.LOSER_DEALS,
    misdeal_rules=True,
    presence=True,
    start_eight=StartEight.DEALER_NAMES_SUIT,
    start_ace_draw=StartAceDraw.ONLY_WITH_VIGGO,
    ace_by_rank=AceRule.ALLOWED,
    ace_follow=AceFollow.ANY_LEGAL,
    after_eight=AfterEight.TURN_PASSES,
    multi_card=MultiCard.FIRST_CARD_RANK,
    voluntary_draw=VoluntaryDraw.NEVER_OBLIGED,
    drawn_card=DrawnCard.MAY_KEEP,
    empty_stock=EmptyStock.REBUILD_UNSHUFFLED,
    talon_pass_limit=True,
    go_out_call=GoOutCall.UTGANG,
    varning_cards=None,
    failed_call_penalty=FailedCallPenalty.FALSE_CALL_THREE,
    go_out_without_lappen=GoOutWithoutLappen.LAPPEN_REQUIRED,
    out_without_call=OutWithoutCall.NOT_OUT_THREE_CARDS,
    loser_rule=LoserRule.SEAT_BEFORE,
    min_active_for_result=parameter("V8-LOSS-OFFICIAL-NEEDS-THREE", "min_active_players"),
    scoring=Scoring.WIN_LOSS_TALLY,
    game_end=GameEnd.LEAP_DAY,
    penalties=Penalties.BROTT_OCH_STRAFF,
)
"""VVVänd8 (000) in a coffee break, every ambiguity at its register default."""

PRESETS: dict[str, VandattaOptions] = {"vvv8": VVV8, "vandatta": VANDATTA}
"""The rulebooks this engine serves, by id."""
