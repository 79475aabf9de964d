"""The options of the UNO engine: the deck, the stacking house rule and one field per ambiguity.

Every field that selects a reading of an ambiguity of the register is named like that
ambiguity's ``option`` and takes its reading names as values; the preset of the ``uno`` rulebook
(:func:`uno_options`) takes every ambiguity's default.

>>> uno_options().deck, uno_options().stack_draw_two
(108, False)
>>> uno_options().scoring
Scoring.WINNER_COLLECTS
"""

from __future__ import annotations

import enum
from dataclasses import field

from regelverk.engine import Reading
from regelverk.records import record
from regelverk.registry import parameter

__all__ = [
    "ActionSymbolMatch",
    "BlankWild",
    "BlankWildPoints",
    "ChallengeSuccessCard",
    "ChallengeSuccessPenalty",
    "ChallengeSuccessTurn",
    "CurrentColour",
    "DealerTie",
    "DrawWhenAble",
    "EmptyPiles",
    "FailedChallengeDraw",
    "FailedChallengeTurn",
    "FirstDrawTwoStacking",
    "FirstReverseStart",
    "FirstShuffleHands",
    "FirstWildChooser",
    "FirstWildDrawFour",
    "FirstWildPlay",
    "IllegalWd4",
    "KeepDrawnCard",
    "LastCardDraw",
    "NextDealer",
    "NumberMatch",
    "Scoring",
    "ShuffleHandsDeal",
    "ShuffleHandsLastCard",
    "TwoPlayerDrawCards",
    "TwoPlayerFirstReverse",
    "UnoCallWindow",
    "UnoOptions",
    "Wd4WildCounts",
    "uno_options",
]


class FirstReverseStart(Reading):
    """UNO-AMB-FIRST-REVERSE-WHO-STARTS: who plays first after a first-card Reverse."""

    DEALER_FIRST = "dealer-first"
    """Row 2 of the table: the dealer plays first, then play runs to his right."""
    DEALER_RIGHT_FIRST = "dealer-right-first"
    """The dealer counts as having played it: the player on his right begins."""


class FirstWildChooser(Reading):
    """UNO-AMB-FIRST-WILD-WHO-NAMES: who names the colour of a first-card Wild."""

    FIRST_PLAYER = "first-player"
    """Row 4 of the table: the player on the dealer's left names it."""
    DEALER = "dealer"
    """The dealer, deemed to have played the Wild, names it."""


class FirstWildDrawFour(Reading):
    """UNO-AMB-FIRST-WD4-AS-DEALER-PLAY: a Wild Draw Four turned up as the first card."""

    REDRAW = "redraw"
    """Row 5 of the table: it goes back into the pack and another card is turned up."""
    AS_DEALER_PLAY = "as-dealer-play"
    """The dealer counts as having laid it: he names the colour, the first player draws four
    and loses his turn, and there is nothing to challenge."""


class FirstWildPlay(Reading):
    """UNO-AMB-FIRST-WILD-WHAT-TO-PLAY: must a colour be named before the first play?"""

    NAME_THEN_PLAY = "name-then-play"
    """The first player names a colour, then plays to it like any turn."""
    PLAY_WITHOUT_NAMING = "play-without-naming"
    """The first player lays any card at once; no colour is in force until then."""


class CurrentColour(Reading):
    """UNO-AMB-CURRENT-COLOUR-AFTER-WILD: the colour to match when a wild card is on top."""

    NAMED_COLOUR = "named-colour"
    """The colour named for the wild card is the current colour."""
    PRINTED_COLOUR = "printed-colour"
    """Only printed colours count: on a wild card only another wild card can be laid."""


class ActionSymbolMatch(Reading):
    """UNO-AMB-SAME-SYMBOL-OTHER-COLOUR: Reverse on Reverse, Draw Two on Draw Two."""

    ANY_COLOUR = "any-colour"
    """They match by symbol whatever the colours, like the Skip."""
    SAME_COLOUR_ONLY = "same-colour-only"
    """Only a same-coloured Reverse or Draw Two may follow."""


class NumberMatch(Reading):
    """UNO-AMB-NUMBER-ACROSS-COLOURS: may a number go on the same number of another colour?"""

    NUMBER_MATCHES = "number-matches"
    """Yes: a number matches the same number in any colour."""
    COLOUR_ONLY = "colour-only"
    """No: number cards follow colour only."""


class TwoPlayerFirstReverse(Reading):
    """UNO-AMB-TWO-PLAYER-FIRST-REVERSE: two players and a first-card Reverse."""

    DEALER_FIRST = "dealer-first"
    """The dealer plays first."""
    NON_DEALER_FIRST = "non-dealer-first"
    """The Reverse changes nothing: the dealer's opponent plays first."""


class ChallengeSuccessPenalty(Reading):
    """UNO-AMB-CHALLENGE-SUCCESS-PENALTY: what a successful challenge costs the guilty player."""

    GUILTY_DRAWS_FOUR = "guilty-draws-four"
    """The guilty player draws the four cards instead."""
    GUILTY_DRAWS_SIX = "guilty-draws-six"
    """The guilty player draws six."""


class ChallengeSuccessTurn(Reading):
    """UNO-AMB-CHALLENGE-SUCCESS-TURN: does a successful challenger still lose his turn?"""

    CHALLENGER_PLAYS = "challenger-plays"
    """No: he takes his turn on the colour named."""
    CHALLENGER_SKIPPED = "challenger-skipped"
    """Yes: the skip still strikes him."""


class ChallengeSuccessCard(Reading):
    """UNO-AMB-CHALLENGE-SUCCESS-CARD: does the illegal Wild Draw Four stay on the pile?"""

    CARD_STAYS = "card-stays"
    """It stays, and the colour named stands."""
    CARD_RETURNS = "card-returns"
    """Its player takes it back; the card under it and its colour are in force again."""


class FailedChallengeTurn(Reading):
    """UNO-AMB-FAILED-CHALLENGE-TURN: does a failed challenger also lose his turn?"""

    LOSES_TURN = "loses-turn"
    """Yes: six cards and the turn."""
    PLAYS_AFTER_DRAWING = "plays-after-drawing"
    """No: he draws six and then plays."""


class FailedChallengeDraw(Reading):
    """UNO-AMB-FAILED-CHALLENGE-COUNT: how many cards a failed challenger draws."""

    SIX_IN_ALL = "six-in-all"
    """Six altogether: the Wild Draw Four's four and two more."""
    SIX_MORE = "six-more"
    """Six for the failed challenge besides the card's four: ten."""


class Wd4WildCounts(Reading):
    """UNO-AMB-WD4-HOLDING-WILD: does a wild card in hand count as the current colour?"""

    WILDS_DO_NOT_COUNT = "wilds-do-not-count"
    """No: only cards printed in the current colour count."""
    WILDS_COUNT = "wilds-count"
    """Yes: a wild card in hand forbids the Wild Draw Four."""


class IllegalWd4(Reading):
    """UNO-AMB-ILLEGAL-WD4-REMEDY: is a Wild Draw Four against the condition refused?"""

    CHALLENGE_ONLY = "challenge-only"
    """It stands unless the victim challenges it."""
    REFUSED = "refused"
    """The referee refuses it outright."""


class DrawWhenAble(Reading):
    """UNO-AMB-DRAW-WHEN-ABLE: may a player draw while holding a playable card?"""

    MAY_DRAW = "may-draw"
    """Yes, always."""
    MUST_PLAY = "must-play"
    """No: drawing is only for a player who cannot play."""


class KeepDrawnCard(Reading):
    """UNO-AMB-KEEP-DRAWN-CARD: may a player keep a card he has drawn and could lay?"""

    MAY_KEEP = "may-keep"
    """Yes: he may lay it or keep it, and his turn passes."""
    MUST_LAY = "must-lay"
    """No: he must lay it, unless it is a Wild Draw Four his hand does not allow."""


class UnoCallWindow(Reading):
    """UNO-AMB-UNO-CALL-WINDOW: is a late UNO call, before the next turn begins, in time?"""

    UNTIL_NEXT_TURN = "until-next-turn"
    """Yes: until the next player lays or draws, a call makes him safe."""
    WITH_THE_CARD = "with-the-card"
    """No: the call must come with the card; a late call does not protect him."""


class LastCardDraw(Reading):
    """UNO-AMB-LAST-CARD-DRAW: going out on a Draw Two or Wild Draw Four."""

    DRAW_AND_COUNT = "draw-and-count"
    """The next player still draws, and the cards count in the score."""
    HAND_ENDS_AT_ONCE = "hand-ends-at-once"
    """The hand is over when the last card lands."""


class EmptyPiles(Reading):
    """UNO-AMB-PILES-EXHAUSTED: a draw when both piles are used up."""

    DRAW_WHAT_THERE_IS = "draw-what-there-is"
    """Draw what exists (maybe nothing); the turn passes; the rest of the draw lapses."""
    HAND_VOID = "hand-void"
    """The hand is abandoned without score and dealt again."""


class BlankWild(Reading):
    """UNO-AMB-BLANK-WILD-RULE: what a blank wild card with nothing written on it does."""

    PLAIN_WILD = "plain-wild"
    """It is an ordinary Wild."""
    DEAD_CARD = "dead-card"
    """It cannot be played; it only scores."""


class BlankWildPoints(Reading):
    """UNO-AMB-BLANK-WILD-POINTS: what a blank wild left in a hand is worth."""

    FORTY = "forty"
    """40, the value 004 gives both new kinds of card."""
    FIFTY = "fifty"
    """50, the value 004 gives a wild card left in a hand."""


class FirstShuffleHands(Reading):
    """UNO-AMB-SHUFFLE-HANDS-FIRST-CARD: Shuffle Hands or a blank wild as the first card."""

    AS_WILD = "as-wild"
    """Like a first-card Wild."""
    AS_DEALER_PLAY = "as-dealer-play"
    """As if the dealer had played it: hands reshuffled, the dealer names the colour."""
    REDRAW = "redraw"
    """Like the Wild Draw Four: shuffled back, another card turned."""


class ShuffleHandsLastCard(Reading):
    """UNO-AMB-SHUFFLE-HANDS-LAST-CARD: Shuffle Hands as a player's last card."""

    REDEAL_INCLUDES_PLAYER = "redeal-includes-player"
    """The effect happens and its player is dealt cards again."""
    GOES_OUT = "goes-out"
    """He has gone out; the card has no effect."""


class ShuffleHandsDeal(Reading):
    """UNO-AMB-SHUFFLE-HANDS-UNEVEN: how the gathered cards are dealt out again."""

    DEAL_ROUND = "deal-round"
    """One at a time from the player's left until the cards run out."""
    KEEP_COUNTS = "keep-counts"
    """Each player gets as many as he held before."""


class TwoPlayerDrawCards(Reading):
    """UNO-AMB-TWO-PLAYER-DRAW-CARDS: two players, Draw Two and Wild Draw Four."""

    PLAYS_AGAIN = "plays-again"
    """The opponent draws and loses his turn: the card's player plays again."""
    OPPONENT_PLAYS = "opponent-plays"
    """The opponent draws and then takes his turn."""


class FirstDrawTwoStacking(Reading):
    """UNO-AMB-FIRST-DRAW-TWO-STACKING: a first-card Draw Two when stacking is on."""

    DRAWN = "drawn"
    """The first player draws two and is skipped, as the first-card table says."""
    MAY_PASS_ON = "may-pass-on"
    """The first player owes the two as if the dealer had laid the card, and may pass them on."""


class Scoring(Reading):
    """UNO-AMB-WHO-SCORES-LEFTOVERS: who the leftover points count for."""

    WINNER_COLLECTS = "winner-collects"
    """The player who goes out scores them; the first to the target wins."""
    HOLDER_TALLY = "holder-tally"
    """Each player tallies his own; at the target, the lowest total wins."""


class DealerTie(Reading):
    """UNO-AMB-DEALER-TIE: a tie for the highest card when choosing the dealer."""

    TIED_REDRAW = "tied-redraw"
    """Only the tied players draw again."""
    ALL_REDRAW = "all-redraw"
    """Everyone draws again."""


class NextDealer(Reading):
    """UNO-AMB-NEXT-DEALER: who deals the hands after the first."""

    ROTATE_LEFT = "rotate-left"
    """The player on the previous dealer's left."""
    WINNER_DEALS = "winner-deals"
    """The player who went out (after a void hand: the player on the dealer's left)."""
    DRAW_AGAIN = "draw-again"
    """A fresh draw for the deal before every hand."""


@record
class UnoOptions:
    """Every choice the UNO engine makes: the pack, the house rule, and the register's readings.

    >>> UnoOptions(deck=110)
    Traceback (most recent call last):
    ...
    ValueError: deck must be 108 (the classic pack) or 112 (with Shuffle Hands and three blank wilds), not 110.
    """  # noqa: E501

    deck: int = 108
    """UNO-DECK-NEW-CARDS-OPTIONAL: 108 (UNO-DECK-108) or 112 (UNO-DECK-112)."""
    stack_draw_two: bool = False
    """UNO-VARIANT-STACKING: the house rule letting a Draw Two pass on a Draw Two's draw."""
    target_score: int = field(default_factory=lambda: parameter("UNO-WIN-GAME-500", "target"))
    """UNO-WIN-GAME-500: the score that ends the game (by default the spec's parameter
    ``target``)."""
    first_reverse_start: FirstReverseStart = FirstReverseStart.DEALER_FIRST
    """UNO-AMB-FIRST-REVERSE-WHO-STARTS."""
    first_wild_chooser: FirstWildChooser = FirstWildChooser.FIRST_PLAYER
    """UNO-AMB-FIRST-WILD-WHO-NAMES."""
    first_wild_play: FirstWildPlay = FirstWildPlay.NAME_THEN_PLAY
    """UNO-AMB-FIRST-WILD-WHAT-TO-PLAY."""
    first_wild_draw_four: FirstWildDrawFour = FirstWildDrawFour.REDRAW
    """UNO-AMB-FIRST-WD4-AS-DEALER-PLAY."""
    current_colour: CurrentColour = CurrentColour.NAMED_COLOUR
    """UNO-AMB-CURRENT-COLOUR-AFTER-WILD."""
    action_symbol_match: ActionSymbolMatch = ActionSymbolMatch.ANY_COLOUR
    """UNO-AMB-SAME-SYMBOL-OTHER-COLOUR."""
    number_match: NumberMatch = NumberMatch.NUMBER_MATCHES
    """UNO-AMB-NUMBER-ACROSS-COLOURS."""
    two_player_first_reverse: TwoPlayerFirstReverse = TwoPlayerFirstReverse.DEALER_FIRST
    """UNO-AMB-TWO-PLAYER-FIRST-REVERSE."""
    challenge_success_penalty: ChallengeSuccessPenalty = ChallengeSuccessPenalty.GUILTY_DRAWS_FOUR
    """UNO-AMB-CHALLENGE-SUCCESS-PENALTY."""
    challenge_success_turn: ChallengeSuccessTurn = ChallengeSuccessTurn.CHALLENGER_PLAYS
    """UNO-AMB-CHALLENGE-SUCCESS-TURN."""
    challenge_success_card: ChallengeSuccessCard = ChallengeSuccessCard.CARD_STAYS
    """UNO-AMB-CHALLENGE-SUCCESS-CARD."""
    failed_challenge_turn: FailedChallengeTurn = FailedChallengeTurn.LOSES_TURN
    """UNO-AMB-FAILED-CHALLENGE-TURN."""
    failed_challenge_draw: FailedChallengeDraw = FailedChallengeDraw.SIX_IN_ALL
    """UNO-AMB-FAILED-CHALLENGE-COUNT."""
    wd4_wild_counts: Wd4WildCounts = Wd4WildCounts.WILDS_DO_NOT_COUNT
    """UNO-AMB-WD4-HOLDING-WILD."""
    illegal_wd4: IllegalWd4 = IllegalWd4.CHALLENGE_ONLY
    """UNO-AMB-ILLEGAL-WD4-REMEDY."""
    draw_when_able: DrawWhenAble = DrawWhenAble.MAY_DRAW
    """UNO-AMB-DRAW-WHEN-ABLE."""
    keep_drawn_card: KeepDrawnCard = KeepDrawnCard.MAY_KEEP
    """UNO-AMB-KEEP-DRAWN-CARD."""
    uno_call_window: UnoCallWindow = UnoCallWindow.UNTIL_NEXT_TURN
    """UNO-AMB-UNO-CALL-WINDOW."""
    last_card_draw: LastCardDraw = LastCardDraw.DRAW_AND_COUNT
    """UNO-AMB-LAST-CARD-DRAW."""
    empty_piles: EmptyPiles = EmptyPiles.DRAW_WHAT_THERE_IS
    """UNO-AMB-PILES-EXHAUSTED."""
    blank_wild: BlankWild = BlankWild.PLAIN_WILD
    """UNO-AMB-BLANK-WILD-RULE (and UNO-BLANK-WILD-PLAIN)."""
    blank_wild_points: BlankWildPoints = BlankWildPoints.FORTY
    """UNO-AMB-BLANK-WILD-POINTS."""
    first_shuffle_hands: FirstShuffleHands = FirstShuffleHands.AS_WILD
    """UNO-AMB-SHUFFLE-HANDS-FIRST-CARD."""
    shuffle_hands_last_card: ShuffleHandsLastCard = ShuffleHandsLastCard.REDEAL_INCLUDES_PLAYER
    """UNO-AMB-SHUFFLE-HANDS-LAST-CARD."""
    shuffle_hands_deal: ShuffleHandsDeal = ShuffleHandsDeal.DEAL_ROUND
    """UNO-AMB-SHUFFLE-HANDS-UNEVEN."""
    two_player_draw_cards: TwoPlayerDrawCards = TwoPlayerDrawCards.PLAYS_AGAIN
    """UNO-AMB-TWO-PLAYER-DRAW-CARDS."""
    first_draw_two_stacking: FirstDrawTwoStacking = FirstDrawTwoStacking.DRAWN
    """UNO-AMB-FIRST-DRAW-TWO-STACKING (matters only with stack_draw_two)."""
    scoring: Scoring = Scoring.WINNER_COLLECTS
    """UNO-AMB-WHO-SCORES-LEFTOVERS."""
    dealer_tie: DealerTie = DealerTie.TIED_REDRAW
    """UNO-AMB-DEALER-TIE."""
    next_dealer: NextDealer = NextDealer.ROTATE_LEFT
    """UNO-AMB-NEXT-DEALER."""

    def __post_init__(self) -> None:
        if self.deck not in (108, 112):
            raise ValueError(
                "deck must be 108 (the classic pack) or 112 (with Shuffle Hands and three "
                f"blank wilds), not {self.deck}."
            )
        if isinstance(self.target_score, bool) or self.target_score < 1:
            raise ValueError(
                f"target_score must be a positive number of points, not {self.target_score!r}."
            )
        for name, kind in _ENUM_FIELDS.items():
            if not isinstance(getattr(self, name), kind):
                allowed = ", ".join(repr(m.value) for m in kind)
                raise ValueError(f"{name} takes {allowed}, not {getattr(self, name)!r}.")


_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "first_reverse_start": FirstReverseStart,
    "first_wild_chooser": FirstWildChooser,
    "first_wild_play": FirstWildPlay,
    "first_wild_draw_four": FirstWildDrawFour,
    "current_colour": CurrentColour,
    "action_symbol_match": ActionSymbolMatch,
    "number_match": NumberMatch,
    "two_player_first_reverse": TwoPlayerFirstReverse,
    "challenge_success_penalty": ChallengeSuccessPenalty,
    "challenge_success_turn": ChallengeSuccessTurn,
    "challenge_success_card": ChallengeSuccessCard,
    "failed_challenge_turn": FailedChallengeTurn,
    "failed_challenge_draw": FailedChallengeDraw,
    "wd4_wild_counts": Wd4WildCounts,
    "illegal_wd4": IllegalWd4,
    "draw_when_able": DrawWhenAble,
    "keep_drawn_card": KeepDrawnCard,
    "uno_call_window": UnoCallWindow,
    "last_card_draw": LastCardDraw,
    "empty_piles": EmptyPiles,
    "blank_wild": BlankWild,
    "blank_wild_points": BlankWildPoints,
    "first_shuffle_hands": FirstShuffleHands,
    "shuffle_hands_last_card": ShuffleHandsLastCard,
    "shuffle_hands_deal": ShuffleHandsDeal,
    "two_player_draw_cards": TwoPlayerDrawCards,
    "first_draw_two_stacking": FirstDrawTwoStacking,
    "scoring": Scoring,
    "dealer_tie": DealerTie,
    "next_dealer": NextDealer,
}


def uno_options() -> UnoOptions:
    """The preset of the ``uno`` rulebook: the classic pack, no stacking, every default reading."""
    return UnoOptions()
