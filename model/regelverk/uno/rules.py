"""The rules that decide what may be laid, what a card is worth, and which actions are legal.

These functions read a state (or parts of one) and never change it; what actions do to the
table is in :mod:`regelverk.uno.actions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from regelverk.cards import Colour, UnoCard, UnoValue, uno_deck
from regelverk.engine import IllegalActionError, Listed
from regelverk.marks import implements
from regelverk.memo import by_identity
from regelverk.registry import parameter
from regelverk.uno.options import (
    ActionSymbolMatch,
    BlankWild,
    BlankWildPoints,
    CurrentColour,
    DrawWhenAble,
    FailedChallengeDraw,
    IllegalWd4,
    KeepDrawnCard,
    NumberMatch,
    TwoPlayerDrawCards,
    UnoCallWindow,
    UnoOptions,
    Wd4WildCounts,
)
from regelverk.uno.state import (
    Action,
    CallUno,
    Catch,
    Challenge,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoState,
)

__all__ = [
    "ACTION_POINTS",
    "CALL_PENALTY_DRAW",
    "CHALLENGE_FAILED_DRAW",
    "CHALLENGE_GUILTY_DRAW",
    "CODES",
    "COLOUR_NAMES",
    "DRAW_TWO_DRAW",
    "FIRST_DRAW_TWO_DRAW",
    "HAND_SIZE",
    "LISTED",
    "NEW_WILD_POINTS",
    "TURN_DRAW",
    "WD4_DRAW",
    "WILD_POINTS",
    "Readings",
    "card_points",
    "check",
    "condition_colour",
    "deck_for",
    "failed_challenge_draw",
    "fit_clauses",
    "fits",
    "hand_points",
    "legal_actions",
    "may_keep_drawn",
    "may_lay",
    "naming_clauses",
    "needs_colour",
    "playable_clauses",
    "readings",
    "seating",
    "unfit_clauses",
    "wd4_condition_met",
]

COLOUR_NAMES = {
    Colour.RED: "red",
    Colour.YELLOW: "yellow",
    Colour.GREEN: "green",
    Colour.BLUE: "blue",
}
"""The colours in words, for messages."""

HAND_SIZE = parameter("UNO-DEAL-SEVEN", "hand_size")
"""UNO-DEAL-SEVEN: the cards dealt to each player."""
TURN_DRAW = parameter("UNO-DRAW-CANNOT-PLAY", "draw")
"""UNO-DRAW-CANNOT-PLAY, UNO-DRAW-BY-CHOICE: the cards drawn on a turn."""
DRAW_TWO_DRAW = parameter("UNO-DRAW-TWO-EFFECT", "draw")
"""UNO-DRAW-TWO-EFFECT: the cards a Draw Two makes the next player draw."""
FIRST_DRAW_TWO_DRAW = parameter("UNO-FIRST-CARD-DRAW-TWO", "draw")
"""UNO-FIRST-CARD-DRAW-TWO: the cards a first-card Draw Two makes the first player draw."""
WD4_DRAW = parameter("UNO-WD4-EFFECT", "draw")
"""UNO-WD4-EFFECT: the cards a Wild Draw Four makes the next player draw."""
CHALLENGE_FAILED_DRAW = parameter("UNO-WD4-CHALLENGE-FAILED-SIX", "failed_challenge_draw")
"""UNO-WD4-CHALLENGE-FAILED-SIX: the cards a failed challenger draws (and, by the reading
guilty-draws-six of UNO-AMB-CHALLENGE-SUCCESS-PENALTY, the guilty player of a successful one)."""
CHALLENGE_GUILTY_DRAW = parameter("UNO-WD4-CHALLENGE-SUCCESS", "guilty_draw")
"""UNO-WD4-CHALLENGE-SUCCESS: the cards the guilty player draws (reading guilty-draws-four)."""
CALL_PENALTY_DRAW = parameter("UNO-CALL-PENALTY", "penalty_draw")
"""UNO-CALL-PENALTY: the cards a player caught without UNO called draws."""
ACTION_POINTS = {
    UnoValue.SKIP: parameter("UNO-SCORE-ACTION-20", "skip_points"),
    UnoValue.REVERSE: parameter("UNO-SCORE-ACTION-20", "reverse_points"),
    UnoValue.DRAW_TWO: parameter("UNO-SCORE-ACTION-20", "draw_two_points"),
}
"""UNO-SCORE-ACTION-20: what a Skip, Reverse or Draw Two left in a hand is worth."""
WILD_POINTS = {
    UnoValue.WILD: parameter("UNO-SCORE-WILDS-50", "wild_points"),
    UnoValue.WILD_DRAW_FOUR: parameter("UNO-SCORE-WILDS-50", "wild_draw_four_points"),
}
"""UNO-SCORE-WILDS-50: what a Wild or Wild Draw Four left in a hand is worth."""
NEW_WILD_POINTS = {
    UnoValue.SHUFFLE_HANDS: parameter("UNO-SCORE-NEW-WILDS-40", "shuffle_hands_points"),
    UnoValue.BLANK_WILD: parameter("UNO-SCORE-NEW-WILDS-40", "blank_wild_points"),
}
"""UNO-SCORE-NEW-WILDS-40: what Shuffle Hands or a blank wild left in a hand is worth."""

# The readings and the members of the state's enums that the rules below ask for, bound once
# as module constants, each named as the member (tests/test_naming.py): read off its enum class
# on Python 3.11 a member goes through EnumType.__getattr__, about ten times the cost of a
# module constant; binding them was among the measures that together took 12-22% off a step
# (bench/README.md, "Where the ratios stand"). They are the same objects.
PLAY, DRAWN, NAME_COLOUR = Phase.PLAY, Phase.DRAWN, Phase.NAME_COLOUR
CHALLENGE, STACK, GAME_OVER = Phase.CHALLENGE, Phase.STACK, Phase.GAME_OVER

DRAW_TWO, WILD, WILD_DRAW_FOUR, SHUFFLE_HANDS, BLANK_WILD = (
    UnoValue.DRAW_TWO,
    UnoValue.WILD,
    UnoValue.WILD_DRAW_FOUR,
    UnoValue.SHUFFLE_HANDS,
    UnoValue.BLANK_WILD,
)
PRINTED_COLOUR = CurrentColour.PRINTED_COLOUR
WILDS_COUNT = Wd4WildCounts.WILDS_COUNT
FIFTY = BlankWildPoints.FIFTY
_WHEN_PLAYABLE = {
    UnoValue.SKIP: "UNO-SKIP-WHEN-PLAYABLE",
    UnoValue.REVERSE: "UNO-REVERSE-WHEN-PLAYABLE",
    UnoValue.DRAW_TWO: "UNO-DRAW-TWO-WHEN-PLAYABLE",
}
_NUMBER_IDS = frozenset(id(v) for v in UnoValue if v.is_number)
"""The number values, by identity (enum members are singletons; a lookup by ``id`` skips the
Python-level enum hash on the hot path)."""
_COLOUR_KEY = {id(None): 0} | {id(c): n for n, c in enumerate(Colour, 1)}
_VALUE_KEY = {id(v): n * 5 for n, v in enumerate(UnoValue)}
_POINTS = {
    id(v): int(v.value)
    if v.is_number
    else WILD_POINTS[v]
    if v in (UnoValue.WILD, WILD_DRAW_FOUR)
    else NEW_WILD_POINTS[v]
    if v in (SHUFFLE_HANDS, BLANK_WILD)
    else ACTION_POINTS[v]
    for v in UnoValue
}
_POINTS_FIFTY = _POINTS | {id(BLANK_WILD): WILD_POINTS[UnoValue.WILD]}
"""The same table under ``blank_wild_points = fifty`` (UNO-AMB-BLANK-WILD-POINTS): a blank
wild is worth what a Wild is."""
_DECKS: dict[int, tuple[UnoCard, ...]] = {
    108: uno_deck(),
    112: uno_deck(shuffle_hands=True, blank_wilds=3),
}


@implements("UNO-DECK-NEW-CARDS-OPTIONAL", "UNO-DECK-108", "UNO-DECK-112")
def deck_for(options: UnoOptions) -> tuple[UnoCard, ...]:
    """The pack the options choose: the classic 108 cards, or 112 with the new wild cards.

    >>> len(deck_for(UnoOptions(deck=112)))
    112
    """
    return _DECKS[options.deck]


@implements(
    "UNO-SCORE-NUMBER-FACE",
    "UNO-SCORE-ACTION-20",
    "UNO-SCORE-WILDS-50",
    "UNO-SCORE-WILD-50",
    "UNO-SCORE-NEW-WILDS-40",
)
def card_points(card: UnoCard, options: UnoOptions | None = None) -> int:
    """What a card left in a hand is worth: face value, 20 for actions, 50 or 40 for wilds.

    A blank wild is worth 40, or a Wild's 50 under ``blank_wild_points = fifty``
    (UNO-AMB-BLANK-WILD-POINTS); without ``options``, the defaults.

    >>> [card_points(UnoCard.parse(c)) for c in ("R7", "BS", "G+2", "W", "W+4", "WSH", "WX")]
    [7, 20, 20, 50, 50, 40, 40]
    >>> card_points(UnoCard.parse("WX"), UnoOptions(blank_wild_points=BlankWildPoints.FIFTY))
    50
    """
    value = card.value
    if value.is_number:
        return int(value.value)
    if value in (WILD, WILD_DRAW_FOUR):
        return WILD_POINTS[value]
    if value is BLANK_WILD and _blank_is_fifty(options):
        return WILD_POINTS[WILD]
    if value in (SHUFFLE_HANDS, BLANK_WILD):
        return NEW_WILD_POINTS[value]
    return ACTION_POINTS[value]


def _blank_is_fifty(options: UnoOptions | None) -> bool:
    return options is not None and options.blank_wild_points is FIFTY


def value_clauses(card: UnoCard, options: UnoOptions | None = None) -> tuple[str, ...]:
    """The clauses that give ``card`` its value in a hand: the official table's line, and for a
    Wild also text 004's own word on it (UNO-SCORE-WILD-50), for the new wild cards 004's 40
    (for a blank wild under ``blank_wild_points = fifty``, 004's 50 for a wild card)."""
    value = card.value
    if id(value) in _NUMBER_IDS:
        return ("UNO-SCORE-NUMBER-FACE",)
    if value is WILD:
        return ("UNO-SCORE-WILDS-50", "UNO-SCORE-WILD-50")
    if value is WILD_DRAW_FOUR:
        return ("UNO-SCORE-WILDS-50",)
    if value is BLANK_WILD and _blank_is_fifty(options):
        return ("UNO-SCORE-WILD-50",)
    if value in (SHUFFLE_HANDS, BLANK_WILD):
        return ("UNO-SCORE-NEW-WILDS-40",)
    return ("UNO-SCORE-ACTION-20",)


def hand_points(hand: Iterable[UnoCard], options: UnoOptions | None = None) -> int:
    """The points of a hand (UNO-SCORE-WINNER-COLLECTS counts them for the player who went out);
    each card is worth :func:`card_points` under ``options``, read from a table of the same
    values."""
    points = _POINTS_FIFTY if _blank_is_fifty(options) else _POINTS
    return sum(points[id(c.value)] for c in hand)


@implements("UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS")
def failed_challenge_draw(options: UnoOptions) -> int:
    """The cards a failed challenger draws: six in all (the four and two more), or by reading
    six-more of UNO-AMB-FAILED-CHALLENGE-COUNT six besides the card's four.

    >>> failed_challenge_draw(UnoOptions())
    6
    >>> failed_challenge_draw(UnoOptions(failed_challenge_draw=FailedChallengeDraw.SIX_MORE))
    10
    """
    if options.failed_challenge_draw is FailedChallengeDraw.SIX_MORE:
        return CHALLENGE_FAILED_DRAW + WD4_DRAW
    return CHALLENGE_FAILED_DRAW


def card_key(card: UnoCard) -> int:
    """A small number that equal cards share and unequal cards do not (a private helper of the
    hot path: it reads the colour and value by identity instead of hashing the card)."""
    return _COLOUR_KEY.get(id(card.colour), -1000) + _VALUE_KEY.get(id(card.value), -100_000)


def card_code(card: UnoCard) -> str:
    """The card's notation, as :attr:`UnoCard.code <regelverk.cards.UnoCard.code>` gives it."""
    colour = card.colour
    code: str = card.value._value_ if colour is None else colour._value_ + card.value._value_
    return code


def index_in(hand: Sequence[UnoCard], card: UnoCard) -> int:
    """The position of the first card of ``hand`` equal to ``card`` (as ``hand.index(card)``),
    or -1; colours and values are enum singletons, so equality is identity of both."""
    colour, value = card.colour, card.value
    for i, c in enumerate(hand):
        if c.value is value and c.colour is colour:
            return i
    return -1


def needs_colour(card: UnoCard) -> bool:
    """Whether the player names the colour as he lays the card (Wild, Wild Draw Four, blank)."""
    return card.value in (WILD, WILD_DRAW_FOUR, BLANK_WILD)


@implements(
    "UNO-PLAY-MATCH",
    "UNO-SKIP-WHEN-PLAYABLE",
    "UNO-REVERSE-WHEN-PLAYABLE",
    "UNO-DRAW-TWO-WHEN-PLAYABLE",
    "UNO-WILD-NAMED-COLOUR-GOVERNS",
    "UNO-WILD-PLAY-ANYTIME",
    "UNO-SHUFFLE-HANDS-ANYTIME",
    "UNO-BLANK-WILD-PLAIN",
)
def fit_clauses(  # noqa: PLR0911 - one return per row of the matching rules
    options: UnoOptions, card: UnoCard, top: UnoCard, colour: Colour | None
) -> tuple[str, ...] | None:
    """The clauses that let ``card`` go on ``top`` with ``colour`` in force, or ``None``.

    The Wild Draw Four always fits here; its condition is :func:`wd4_condition_met`.

    >>> o = UnoOptions()
    >>> fit_clauses(o, UnoCard.parse("BS"), UnoCard.parse("RS"), Colour.RED)
    ('UNO-SKIP-WHEN-PLAYABLE',)
    >>> fit_clauses(o, UnoCard.parse("B7"), UnoCard.parse("R5"), Colour.RED) is None
    True
    """
    value = card.value
    if card.colour is None:
        return _wild_fit(options, value)
    own = _WHEN_PLAYABLE.get(value)
    if options.current_colour is CurrentColour.PRINTED_COLOUR:
        colour = top.colour
        if colour is None:
            return None
    elif colour is None:
        return ("UNO-PLAY-MATCH",)
    if card.colour is colour:
        named = ("UNO-WILD-NAMED-COLOUR-GOVERNS",) if top.colour is None else ()
        return ("UNO-PLAY-MATCH", *named, *((own,) if own else ()))
    if value is not top.value:
        return None
    if value.is_number:
        return ("UNO-PLAY-MATCH",) if options.number_match is NumberMatch.NUMBER_MATCHES else None
    if value is UnoValue.SKIP or options.action_symbol_match is ActionSymbolMatch.ANY_COLOUR:
        return (own,) if own else None
    return None


def fits(  # noqa: PLR0911 - one return per row of the matching rules
    options: UnoOptions, card: UnoCard, top: UnoCard, colour: Colour | None
) -> bool:
    """Whether ``fit_clauses(options, card, top, colour) is not None``, without building the
    clause tuple: the same rows of the matching rules, for legal-move generation.

    >>> fits(UnoOptions(), UnoCard.parse("BS"), UnoCard.parse("RS"), Colour.RED)
    True
    """
    value = card.value
    own = card.colour
    if own is None:
        return value is not BLANK_WILD or options.blank_wild is not BlankWild.DEAD_CARD
    if options.current_colour is CurrentColour.PRINTED_COLOUR:
        colour = top.colour
        if colour is None:
            return False
    elif colour is None:
        return True
    if own is colour:
        return True
    if value is not top.value:
        return False
    if id(value) in _NUMBER_IDS:
        return options.number_match is NumberMatch.NUMBER_MATCHES
    return value is UnoValue.SKIP or options.action_symbol_match is ActionSymbolMatch.ANY_COLOUR


def _wild_fit(options: UnoOptions, value: UnoValue) -> tuple[str, ...] | None:
    if value is BLANK_WILD:
        if options.blank_wild is BlankWild.DEAD_CARD:
            return None
        return ("UNO-BLANK-WILD-PLAIN", "UNO-WILD-PLAY-ANYTIME")
    if value is SHUFFLE_HANDS:
        return ("UNO-SHUFFLE-HANDS-ANYTIME",)
    if value is WILD_DRAW_FOUR:
        return ("UNO-WD4-CONDITION",)
    return ("UNO-WILD-PLAY-ANYTIME",)


def condition_colour(options: UnoOptions, colour: Colour | None, top: UnoCard) -> Colour | None:
    """The current colour the Wild Draw Four condition looks at (named or printed, by option)."""
    if options.current_colour is PRINTED_COLOUR:
        return top.colour
    return colour


@implements("UNO-WD4-CONDITION", "UNO-WD4-COLOUR-ONLY-COUNTS")
def wd4_condition_met(options: UnoOptions, held: Iterable[UnoCard], colour: Colour | None) -> bool:
    """Whether a Wild Draw Four may be laid by a player left holding ``held``.

    Only the current colour counts: numbers and actions of other colours do not
    (UNO-WD4-COLOUR-ONLY-COUNTS); wild cards count only under ``wd4_wild_counts = wilds-count``.

    >>> o = UnoOptions()
    >>> wd4_condition_met(o, [UnoCard.parse("B7"), UnoCard.parse("W")], Colour.RED)
    True
    >>> wd4_condition_met(o, [UnoCard.parse("R1")], Colour.RED)
    False
    """
    if colour is None:
        return True
    wilds_count = options.wd4_wild_counts is WILDS_COUNT
    return not any(c.colour is colour or (wilds_count and c.colour is None) for c in held)


def _without(hand: Sequence[UnoCard], card: UnoCard) -> list[UnoCard]:
    rest = list(hand)
    del rest[index_in(rest, card)]
    return rest


def may_lay(
    options: UnoOptions,
    hand: Sequence[UnoCard],
    card: UnoCard,
    top: UnoCard,
    colour: Colour | None,
) -> bool:
    """Whether ``card`` from ``hand`` may be laid now (the Wild Draw Four by ``illegal_wd4``)."""
    if not fits(options, card, top, colour):
        return False
    if card.value is WILD_DRAW_FOUR and options.illegal_wd4 is IllegalWd4.REFUSED:
        return wd4_condition_met(
            options, _without(hand, card), condition_colour(options, colour, top)
        )
    return True


@implements("UNO-DRAW-PLAY-DRAWN", "UNO-DRAW-TURN-PASSES")
def may_keep_drawn(state: UnoState) -> bool:
    """Whether the player who has drawn a card he could lay may keep it (phase DRAWN): always
    by default; under ``keep_drawn_card = must-lay`` (UNO-AMB-KEEP-DRAWN-CARD) only a Wild
    Draw Four whose condition his hand does not meet, since no rule makes him break it."""
    options, card = state.options, state.drawn
    if readings(options).may_keep or card is None:
        return True
    if card.value is not WILD_DRAW_FOUR:
        return False
    hand = state.hands[state.turn]
    colour = condition_colour(options, state.colour, state.top)
    return not wd4_condition_met(options, _without(hand, card), colour)


def _name(state: UnoState, seat: int) -> str:
    return state.players[seat]


def _can_play_any(state: UnoState, seat: int) -> bool:
    hand = state.hands[seat]
    return any(may_lay(state.options, hand, c, state.top, state.colour) for c in hand)


def _stack_fits(state: UnoState, card: UnoCard) -> bool:
    return card.value is DRAW_TWO and fits(state.options, card, state.top, state.colour)


_EVERY_CARD = tuple({c._key: c for c in uno_deck(shuffle_hands=True, blank_wilds=3)}.values())
"""One card of each kind there is, in either pack."""


class Readings:
    """The rules as one options object reads them, worked out once: for each top card and
    colour in force, the kinds of card that fit and the clauses that let a card go on it, and
    the readings the hot paths ask about on every action.

    The tables are filled, as they are first needed, by :func:`fits` and :func:`fit_clauses`
    themselves: they are those rules' answers remembered, not a second statement of them. A card
    kind is its ``_key`` (the small number :class:`~regelverk.cards.UnoCard` hashes by).
    Use :func:`matching` to get the one for an options object.
    """

    __slots__ = (
        "_fitting",
        "_why",
        "late_call",
        "may_draw",
        "may_keep",
        "opponent_plays",
        "options",
        "refuses_wd4",
    )

    def __init__(self, options: UnoOptions) -> None:
        self.options = options
        self.refuses_wd4 = options.illegal_wd4 is IllegalWd4.REFUSED
        """Whether a Wild Draw Four that breaks its condition is refused (``illegal_wd4``)."""
        self.may_draw = options.draw_when_able is DrawWhenAble.MAY_DRAW
        """Whether a player may draw though he could lay a card (``draw_when_able``)."""
        self.may_keep = options.keep_drawn_card is KeepDrawnCard.MAY_KEEP
        """Whether a drawn card that fits may be kept (``keep_drawn_card``)."""
        self.late_call = options.uno_call_window is UnoCallWindow.UNTIL_NEXT_TURN
        """Whether UNO may be called after the card, until the next turn (``uno_call_window``)."""
        self.opponent_plays = options.two_player_draw_cards is TwoPlayerDrawCards.OPPONENT_PLAYS
        """Whether with two players the victim of a Draw Two or Wild Draw Four plays after
        drawing (``two_player_draw_cards``)."""
        self._fitting: dict[int, frozenset[int]] = {}
        self._why: dict[int, tuple[str, ...] | None] = {}

    def fitting(self, top: UnoCard, colour: Colour | None) -> frozenset[int]:
        """The kinds of card that fit on ``top`` with ``colour`` in force (:func:`fits`)."""
        key = top._key * 8 + _COLOUR_KEY[id(colour)]
        found = self._fitting.get(key)
        if found is None:
            options = self.options
            found = frozenset(c._key for c in _EVERY_CARD if fits(options, c, top, colour))
            self._fitting[key] = found
        return found

    def why(self, card: UnoCard, top: UnoCard, colour: Colour | None) -> tuple[str, ...] | None:
        """:func:`fit_clauses` of ``card`` on ``top`` with ``colour`` in force."""
        key = (card._key * 256 + top._key) * 8 + _COLOUR_KEY[id(colour)]
        if key in self._why:
            return self._why[key]
        found = self._why[key] = fit_clauses(self.options, card, top, colour)
        return found

    def playable(
        self, hand: Sequence[UnoCard], top: UnoCard, colour: Colour | None
    ) -> list[UnoCard]:
        """The cards of ``hand`` that :func:`may_lay` lets be laid, in hand order."""
        fitting = self.fitting(top, colour)
        found = [c for c in hand if c._key in fitting]
        if self.refuses_wd4 and found:
            options = self.options
            found = [
                c
                for c in found
                if c.value is not WILD_DRAW_FOUR or may_lay(options, hand, c, top, colour)
            ]
        return found

    def may_lay(
        self, hand: Sequence[UnoCard], card: UnoCard, top: UnoCard, colour: Colour | None
    ) -> bool:
        """:func:`may_lay` under these options."""
        if card._key not in self.fitting(top, colour):
            return False
        if self.refuses_wd4 and card.value is WILD_DRAW_FOUR:
            return may_lay(self.options, hand, card, top, colour)
        return True


CODES = {c._key: card_code(c) for c in _EVERY_CARD}
"""Each kind of card's notation (:func:`card_code`), by its ``_key``: for the events of the hot
paths."""

readings = by_identity(Readings, limit=64)
"""The :class:`Readings` of an options object, made once per options object."""


_COLOURS = tuple(Colour)
_ALL_COLOURS: tuple[Colour | None, ...] = _COLOURS
_NO_COLOUR: tuple[Colour | None, ...] = (None,)
_NAMING_IDS = frozenset(id(v) for v in (UnoValue.WILD, WILD_DRAW_FOUR, BLANK_WILD))


class _Seats:
    """The actions of one table of players, built once and then shared by every listing that
    has them: actions are immutable and compare by value, so any listing may hand out the same
    objects. Use :func:`_seats`."""

    __slots__ = ("calls", "catches", "challenges", "draws", "namings", "passes", "players", "plays")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.draws: tuple[Action, ...] = tuple(Draw(player=p) for p in players)
        self.passes: tuple[Action, ...] = tuple(Pass(player=p) for p in players)
        self.challenges: tuple[Action, ...] = tuple(Challenge(player=p) for p in players)
        self.calls: tuple[Action, ...] = tuple(CallUno(player=p) for p in players)
        self.namings = tuple(
            tuple(NameColour(player=p, colour=c) for c in _COLOURS) for p in players
        )
        """Naming each colour, by each player."""
        self.catches = tuple(
            tuple(Catch(player=p, target=target) for p in players if p != target)
            for target in players
        )
        """Every other player's catch of each player."""
        self.plays: tuple[dict[int, tuple[Action, ...]], ...] = tuple({} for _ in players)
        """Each player's plays of a kind of card (``_key`` twice, plus one on the next-to-last
        card), filled as they are first needed."""

    def plays_of(self, seat: int, cards: Iterable[UnoCard], last_but_one: bool) -> list[Action]:
        """One play per distinct card (in hand order), per colour it may name, with and without
        the UNO call when it is the next-to-last card."""
        built = self.plays[seat]
        found: list[Action] = []
        extra = 1 if last_but_one else 0
        # one card of each kind, in the order of its first copy (cards of a kind are equal)
        for card in {c._key: c for c in cards}.values():
            key = card._key * 2 + extra
            plays = built.get(key)
            if plays is None:
                plays = built[key] = self.card_plays(seat, card, last_but_one)
            found += plays
        return found

    def card_plays(self, seat: int, card: UnoCard, last_but_one: bool) -> tuple[Action, ...]:
        """The plays of ``card`` by ``seat``: per colour it may name, with and without the UNO
        call when it is the next-to-last card."""
        who = self.players[seat]
        plays: list[Action] = []
        for colour in _ALL_COLOURS if id(card.value) in _NAMING_IDS else _NO_COLOUR:
            plays.append(Play(player=who, card=card, colour=colour))
            if last_but_one:
                plays.append(Play(player=who, card=card, colour=colour, uno=True))
        return tuple(plays)


_seats = by_identity(_Seats, limit=256)
"""The :class:`_Seats` of a table of players, by the identity of its tuple (every state of a
game shares its players' tuple, and every game of the same names the same tuple: see
:func:`seating`), made once."""


def seating(players: Iterable[str]) -> tuple[str, ...]:
    """The players' tuple of a new table: one tuple object for every table of the same names in
    the same seats (of the last 256 seatings met), so that the actions built for a table
    (:class:`_Seats`, found by the tuple's identity) serve every game and hand those players play.

    >>> seating(["Anna", "Bo"]) is seating(("Anna", "Bo"))
    True
    """
    return _one_tuple(tuple(players))


@lru_cache(maxsize=256)
def _one_tuple(names: tuple[str, ...]) -> tuple[str, ...]:
    """The first of the equal tuples ``names`` met (of the last 256 kept)."""
    return names


def _playable(state: UnoState, hand: Sequence[UnoCard]) -> list[UnoCard]:
    """The cards of ``hand`` that may be laid now, in hand order (as :func:`may_lay` says)."""
    return readings(state.options).playable(hand, state.discard[-1], state.colour)


LISTED: Listed[UnoState, Action] = Listed()
"""The last listing, so that :meth:`UnoGame.apply <regelverk.uno.UnoGame.apply>` need not judge
again an action it lists (see :class:`~regelverk.engine.Listed`)."""


def legal_actions(state: UnoState) -> tuple[Action, ...]:
    """Every action the rules allow now, catches and late UNO calls included (kept in
    :data:`LISTED` as the last listing)."""
    phase = state.phase
    if phase is GAME_OVER:
        return LISTED.remember(state, ())
    options, players, seat = state.options, state.players, state.turn
    rules, seats = readings(options), _seats(players)
    found: list[Action]
    if phase is PLAY and not rules.refuses_wd4:
        # the cards that fit, one play per kind of card in the order of its first copy, as
        # plays_of gives them (inline: this is the hottest loop of random play)
        hand = state.hands[seat]
        fitting = rules.fitting(state.discard[-1], state.colour)
        built = seats.plays[seat]
        extra = 1 if len(hand) == 2 else 0
        found = []
        seen: set[int] = set()
        for card in hand:
            key = card._key
            if key in fitting and key not in seen:
                seen.add(key)
                plays = built.get(key * 2 + extra)
                if plays is None:
                    plays = built[key * 2 + extra] = seats.card_plays(seat, card, extra == 1)
                found += plays
        if not found or rules.may_draw:
            found.append(seats.draws[seat])
    else:
        found = _phase_actions(state, rules, seats)
    exposed = state.exposed
    if exposed is not None:
        if rules.late_call:
            found.append(seats.calls[exposed])
        found += seats.catches[exposed]
    return LISTED.remember(state, tuple(found))


def _phase_actions(state: UnoState, rules: Readings, seats: _Seats) -> list[Action]:
    """The actions of the player in turn, but for catches and late calls, in every phase but
    the game's end (and the plain play phase without ``illegal_wd4 = refused``, which
    :func:`legal_actions` lists itself)."""
    phase, seat = state.phase, state.turn
    hand = state.hands[seat]
    found: list[Action]
    if phase is PLAY:
        playable = rules.playable(hand, state.discard[-1], state.colour)
        found = seats.plays_of(seat, playable, len(hand) == 2)
        if not playable or rules.may_draw:
            found.append(seats.draws[seat])
    elif phase is DRAWN:
        assert state.drawn is not None
        found = seats.plays_of(seat, (state.drawn,), len(hand) == 2)
        if rules.may_keep or may_keep_drawn(state):
            found.append(seats.passes[seat])
    elif phase is NAME_COLOUR:
        found = list(seats.namings[seat])
    elif phase is CHALLENGE:
        found = [seats.challenges[seat], seats.draws[seat]]
    else:
        fitting = rules.fitting(state.discard[-1], state.colour)
        stackable = [c for c in hand if c.value is DRAW_TWO and c._key in fitting]
        found = [*seats.plays_of(seat, stackable, len(hand) == 2), seats.draws[seat]]
    return found


def _refuse(message: str, *clauses: str) -> IllegalActionError:
    return IllegalActionError(message, clauses)


def check(state: UnoState, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless the rules allow ``action`` now."""
    names = [action.player] + ([action.target] if isinstance(action, Catch) else [])
    for name in names:
        if name not in state.players:
            raise _refuse(f"{name!r} is not playing", "UNO-SETUP-PLAYERS")
    if state.phase is GAME_OVER:
        winners = " and ".join(_name(state, w) for w in state.winners)
        raise _refuse(f"the game is over: {winners} won it", "UNO-WIN-GAME-500")
    if isinstance(action, Catch):
        _check_catch(state, action)
    elif isinstance(action, CallUno):
        _check_late_call(state, action)
    else:
        _check_turn_action(state, action)


@implements("UNO-CALL-PENALTY")
def _check_catch(state: UnoState, action: Catch) -> None:
    """A player can be caught only in the window UNO-CALL-PENALTY gives, and not by himself."""
    catcher, target = action.player, action.target
    if catcher == target:
        raise _refuse(f"{catcher} cannot catch himself", "UNO-CALL-PENALTY")
    if state.exposed != state.players.index(target):
        raise _refuse(
            f"{catcher} cannot catch {target}: only a player who left himself one card without "
            "calling UNO can be caught, and only before the next player begins his turn",
            "UNO-CALL-PENALTY",
            "UNO-CALL-UNO",
        )


def _check_late_call(state: UnoState, action: CallUno) -> None:
    who = action.player
    if state.exposed != state.players.index(who):
        raise _refuse(
            f"{who} has nothing to call: UNO is called on laying the next-to-last card, and "
            "only a player who has not yet called it may make it good",
            "UNO-CALL-UNO",
        )
    if state.options.uno_call_window is UnoCallWindow.WITH_THE_CARD:
        raise _refuse(
            f"{who} calls too late: the call must come as the card is laid", "UNO-CALL-UNO"
        )


def _check_turn_action(state: UnoState, action: Action) -> None:
    who = action.player
    seat = state.players.index(who)
    if (
        isinstance(action, Challenge)
        and len(state.discard) == 1
        and state.top.value is WILD_DRAW_FOUR
    ):
        _refuse_first_card_challenge(state, who)
    if isinstance(action, Challenge) and seat != state.turn:
        _refuse_bystander_challenge(state, who)
    if seat != state.turn:
        raise _refuse(f"it is {_name(state, state.turn)}'s turn, not {who}'s", "UNO-TURN-DIRECTION")
    if isinstance(action, Play):
        _check_play(state, action)
    elif isinstance(action, Draw):
        _check_draw(state, who)
    elif isinstance(action, Pass):
        if state.phase is not DRAWN:
            raise _refuse(
                f"{who} cannot pass: a player keeps a card only after drawing one that fits",
                "UNO-DRAW-TURN-PASSES",
                "UNO-DRAW-CANNOT-PLAY",
            )
        if not may_keep_drawn(state):
            raise _refuse(
                f"{who} has drawn {state.drawn}, which he can lay: he must lay it, not keep it",
                "UNO-DRAW-PLAY-DRAWN",
            )
    elif isinstance(action, Challenge):
        if state.phase is not CHALLENGE:
            raise _refuse(
                f"{who} has no Wild Draw Four to challenge: only the player a Wild Draw Four "
                "hits may challenge it, at once, before drawing",
                "UNO-WD4-CHALLENGE-ONLY-VICTIM",
            )
    elif isinstance(action, NameColour):
        _check_name_colour(state, action)
    else:  # pragma: no cover - the Action union is closed
        raise _refuse(f"{action!r} is not an UNO action")


def _refuse_first_card_challenge(state: UnoState, who: str) -> None:
    """A Wild Draw Four turned up first, which the dealer counts as having laid (reading
    as-dealer-play of UNO-AMB-FIRST-WD4-AS-DEALER-PLAY), cannot be challenged."""
    raise _refuse(
        f"{who} cannot challenge the Wild Draw Four turned up as the first card: the dealer "
        f"{_name(state, state.dealer)} counts as having laid it, and with no colour in force "
        "before it, it cannot have broken its condition",
        "UNO-FIRST-CARD-AS-DEALER-PLAY",
        "UNO-WD4-CONDITION",
    )


@implements("UNO-WD4-CHALLENGE-ONLY-VICTIM")
def _refuse_bystander_challenge(state: UnoState, who: str) -> None:
    """A challenge by anyone but the player the Wild Draw Four hits is refused by the rule that
    only he may challenge, whether or not a Wild Draw Four is waiting."""
    if state.phase is CHALLENGE:
        victim = _name(state, state.turn)
        raise _refuse(
            f"{who} may not challenge: only {victim}, whom the Wild Draw Four hits, may "
            "challenge it",
            "UNO-WD4-CHALLENGE-ONLY-VICTIM",
        )
    raise _refuse(
        f"{who} has no Wild Draw Four to challenge: only the player a Wild Draw Four hits may "
        "challenge it, at once, before drawing",
        "UNO-WD4-CHALLENGE-ONLY-VICTIM",
    )


def _check_draw(state: UnoState, who: str) -> None:
    phase = state.phase
    if phase is DRAWN:
        raise _refuse(
            f"{who} has drawn already: he may lay the card drawn or keep it",
            "UNO-DRAW-PLAY-DRAWN",
        )
    if phase is NAME_COLOUR:
        raise _refuse(f"{who} must name the colour first", *_colour_clauses(state))
    if (
        phase is PLAY
        and state.options.draw_when_able is DrawWhenAble.MUST_PLAY
        and _can_play_any(state, state.turn)
    ):
        raise _refuse(
            f"{who} holds a card he can lay, and must lay one instead of drawing",
            "UNO-DRAW-BY-CHOICE",
            *playable_clauses(state),
        )


def _check_name_colour(state: UnoState, action: NameColour) -> None:
    if state.phase is not NAME_COLOUR:
        raise _refuse(
            f"{action.player} has no colour to name now: a colour is named with a wild card as "
            "it is laid",
            "UNO-WILD-NAME-COLOUR",
        )
    if not isinstance(action.colour, Colour):
        raise _refuse(f"{action.colour!r} is not a colour", "UNO-WILD-NAMED-COLOUR-GOVERNS")


def _colour_clauses(state: UnoState) -> tuple[str, ...]:
    return naming_clauses(state.discard)


def naming_clauses(discard: Sequence[UnoCard]) -> tuple[str, ...]:
    """The clauses by which a colour is to be named (phase NAME_COLOUR): a first-card Wild (or
    new wild card), a first Wild Draw Four the dealer counts as having laid (reading
    as-dealer-play of UNO-AMB-FIRST-WD4-AS-DEALER-PLAY), or Shuffle Hands."""
    if len(discard) != 1:
        return ("UNO-SHUFFLE-HANDS-NAME-COLOUR",)
    if discard[0].value is WILD_DRAW_FOUR:
        return ("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-NAME-COLOUR")
    return ("UNO-FIRST-CARD-WILD",)


def _check_play(state: UnoState, action: Play) -> None:
    who, card, phase, options = action.player, action.card, state.phase, state.options
    hand = state.hands[state.turn]
    if phase is NAME_COLOUR:
        raise _refuse(f"{who} must name the colour first", *_colour_clauses(state))
    if phase is CHALLENGE:
        raise _refuse(
            f"{who} has been hit by a Wild Draw Four: he may challenge it or draw its four "
            "cards, and loses his turn",
            "UNO-WD4-EFFECT",
            "UNO-WD4-CHALLENGE-WHEN",
        )
    if not isinstance(card, UnoCard) or index_in(hand, card) < 0:
        raise _refuse(f"{who} does not hold {card}", "UNO-PLAY-MATCH")
    if phase is DRAWN and card != state.drawn:
        raise _refuse(
            f"{who} has drawn {state.drawn}: after drawing he may lay only that card",
            "UNO-DRAW-PLAY-DRAWN",
        )
    if phase is STACK and not _stack_fits(state, card):
        raise _refuse(
            f"{who} owes {state.pending_draw} cards: he may only pass them on with a Draw Two "
            "that fits, or draw them",
            "UNO-VARIANT-STACKING",
            "UNO-DRAW-TWO-EFFECT",
        )
    if not fits(options, card, state.top, state.colour):
        _refuse_misfit(state, who, card)
    if card.value is WILD_DRAW_FOUR and options.illegal_wd4 is IllegalWd4.REFUSED:
        colour = condition_colour(options, state.colour, state.top)
        if not wd4_condition_met(options, _without(hand, card), colour):
            shown = COLOUR_NAMES[colour] if colour else "the current colour"
            raise _refuse(
                f"{who} may not lay a Wild Draw Four while holding a {shown} card "
                "(or, by option, a wild card)",
                "UNO-WD4-CONDITION",
            )
    _check_play_words(state, action, who, len(hand))


def _refuse_misfit(state: UnoState, who: str, card: UnoCard) -> None:
    options, top = state.options, state.top
    if card.value is BLANK_WILD:
        raise _refuse(
            f"{who} cannot lay a blank wild with no rule written on it", "UNO-BLANK-WILD-PLAIN"
        )
    colour = top.colour if options.current_colour is CurrentColour.PRINTED_COLOUR else state.colour
    shown = COLOUR_NAMES[colour] if colour else "no printed colour"
    raise _refuse(
        f"{who} cannot lay {card} on {top} ({shown}): it matches neither the colour nor the "
        "number or symbol",
        *unfit_clauses(card, top),
    )


def unfit_clauses(card: UnoCard, top: UnoCard) -> tuple[str, ...]:
    """The clauses by which ``card`` may not be laid on ``top`` when :func:`may_lay` says so:
    for a blank wild, the rule that makes it a plain Wild (or, by option, a dead card); for a
    Wild Draw Four, its condition; for any other card the matching rule, its own card's rule of
    when it may be laid, and on a wild card the rule of the colour named for it."""
    value = card.value
    if value is BLANK_WILD:
        return ("UNO-BLANK-WILD-PLAIN",)
    if value is WILD_DRAW_FOUR:
        return ("UNO-WD4-CONDITION",)
    own = _WHEN_PLAYABLE.get(value)
    named = ("UNO-WILD-NAMED-COLOUR-GOVERNS",) if top.colour is None else ()
    return ("UNO-PLAY-MATCH", *((own,) if own else ()), *named)


def playable_clauses(state: UnoState) -> tuple[str, ...]:
    """The clauses that let the player in turn lay each card of his hand he may lay now (the
    clauses of :func:`fit_clauses`, the Wild Draw Four's condition among them)."""
    rules, top, colour = readings(state.options), state.top, state.colour
    found: list[str] = []
    for card in rules.playable(state.hands[state.turn], top, colour):
        found += rules.why(card, top, colour) or ()
    return tuple(dict.fromkeys(found))


def _check_play_words(state: UnoState, action: Play, who: str, held: int) -> None:
    card = action.card
    if needs_colour(card):
        if not isinstance(action.colour, Colour):
            raise _refuse(f"{who} must name a colour with {card}", "UNO-WILD-NAME-COLOUR")
    elif action.colour is not None:
        clause = (
            "UNO-SHUFFLE-HANDS-NAME-COLOUR" if card.value is SHUFFLE_HANDS else "UNO-PLAY-MATCH"
        )
        raise _refuse(f"{who} names no colour with {card}", clause)
    if action.uno and held != 2:
        raise _refuse(
            f"{who} cannot call UNO with {card}: the call goes with the next-to-last card",
            "UNO-CALL-UNO",
        )
