"""What actions do to the table: laying, drawing, the action cards, the challenge, the deal.

:func:`_apply_unchecked` applies an action that :func:`regelverk.uno.rules.check` has accepted,
on a scratch record of the state (:class:`~regelverk.uno.table.Table`, mechanics only) that
lives only inside one call and is frozen into a new :class:`UnoState` at the end. Each rule is
a function of the record, citing its clauses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from regelverk.cards import Colour, UnoCard, UnoValue, uno_deck
from regelverk.engine import Outcome
from regelverk.marks import implements
from regelverk.records import builder
from regelverk.uno.options import (
    ChallengeSuccessCard,
    ChallengeSuccessPenalty,
    ChallengeSuccessTurn,
    DealerTie,
    EmptyPiles,
    FailedChallengeTurn,
    FirstDrawTwoStacking,
    FirstReverseStart,
    FirstShuffleHands,
    FirstWildChooser,
    FirstWildDrawFour,
    FirstWildPlay,
    LastCardDraw,
    NextDealer,
    Scoring,
    ShuffleHandsDeal,
    ShuffleHandsLastCard,
    TwoPlayerFirstReverse,
    UnoOptions,
)
from regelverk.uno.rules import (
    CALL_PENALTY_DRAW,
    CHALLENGE_FAILED_DRAW,
    CHALLENGE_GUILTY_DRAW,
    CODES,
    COLOUR_NAMES,
    DRAW_TWO_DRAW,
    FIRST_DRAW_TWO_DRAW,
    HAND_SIZE,
    TURN_DRAW,
    WD4_DRAW,
    condition_colour,
    deck_for,
    failed_challenge_draw,
    hand_points,
    index_in,
    naming_clauses,
    seating,
    unfit_clauses,
    value_clauses,
    wd4_condition_met,
)
from regelverk.uno.state import (
    Action,
    CallUno,
    Catch,
    Direction,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoState,
    WildDrawFour,
)
from regelverk.uno.table import Table, build_event, shuffle, table_of, taken

__all__ = ["choose_dealer", "deal_hand", "new_game", "opening", "seat_after"]

_V = UnoValue

# The readings and the members of the state's enums that the rules below ask for, bound once
# as module constants, each named as the member (tests/test_naming.py): read off its enum class
# on Python 3.11 a member goes through EnumType.__getattr__, about ten times the cost of a
# module constant; binding them was among the measures that together took 12-22% off a step
# (bench/README.md, "Where the ratios stand"). They are the same objects.
PLAY, DRAWN, NAME_COLOUR = Phase.PLAY, Phase.DRAWN, Phase.NAME_COLOUR
CHALLENGE, STACK, GAME_OVER = Phase.CHALLENGE, Phase.STACK, Phase.GAME_OVER
SKIP, REVERSE, DRAW_TWO = UnoValue.SKIP, UnoValue.REVERSE, UnoValue.DRAW_TWO
WILD, WILD_DRAW_FOUR = UnoValue.WILD, UnoValue.WILD_DRAW_FOUR
SHUFFLE_HANDS, BLANK_WILD = UnoValue.SHUFFLE_HANDS, UnoValue.BLANK_WILD
LEFT, RIGHT = Direction.LEFT, Direction.RIGHT


class _HandEnded(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside one action once the hand has ended and the next one is dealt."""


_build_outcome = builder(Outcome)


@implements("UNO-TURN-DIRECTION")
def seat_after(t: Table, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places on in the direction of play (left until a Reverse)."""
    return (seat + steps * t.direction) % t.n


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


# --- drawing -------------------------------------------------------------------------------


@implements("UNO-DRAW-PILE-REBUILD")
def _rebuild(t: Table) -> None:
    """The discard pile below its top card is shuffled into a new draw pile.

    While a Wild Draw Four waits for its victim's answer, the card under it stays too: a
    challenge may need it (``challenge_success_card = card-returns``, ``current_colour =
    printed-colour``).
    """
    keep = 2 if t.wd4 is not None else 1
    if len(t.discard) <= keep:
        return
    rest = list(t.discard[:-keep])
    shuffle(t.rng(), rest)
    t.pile = tuple(reversed(rest))
    t.discard = t.discard[-keep:]
    t.say(
        "rebuild",
        f"the draw pile is used up: {_cards(len(rest))} of the discard pile are shuffled into a "
        "new one",
        ["UNO-DRAW-PILE-REBUILD"],
    )


@implements("UNO-PILES-EXHAUSTED-NO-DRAW")
def _take(t: Table, seat: int, count: int, clauses: Sequence[str]) -> tuple[UnoCard, ...]:
    """``seat`` takes ``count`` cards; when both piles are empty the rest lapses (or, by
    option, the hand is void)."""
    got: tuple[UnoCard, ...] = ()
    need = count
    while need:
        if not t.pile:
            _rebuild(t)
        pile = t.pile
        if not pile:
            # the discard pile has no card left to rebuild the draw pile from
            if t.options.empty_piles is EmptyPiles.HAND_VOID:
                _void_hand(t)
            t.say(
                "lapse",
                f"no card is left to draw: {t.name(seat)} draws {len(got)} of {count}; the "
                "rest lapses",
                [*clauses, "UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-PILE-REBUILD"],
                seat,
            )
            break
        taken = pile[:need]
        t.pile = pile[need:]
        got += taken
        need -= len(taken)
    t.hands[seat] += got
    if got:
        t.say("draw", f"{t.players[seat]} draws {_cards(len(got))}", clauses, seat, got)
    return got


def _hit(t: Table, victim: int, count: int, clauses: Sequence[str]) -> None:
    """The victim of a Draw Two or Wild Draw Four draws and loses his turn."""
    _take(t, victim, count, clauses)
    t.phase = PLAY
    _lose_turn(t, victim, clauses)


@implements("UNO-TWO-PLAYER-DRAW-CARDS")
def _lose_turn(t: Table, victim: int, clauses: Sequence[str]) -> None:
    """The victim loses his turn; with two players the card's player plays again, unless the
    option ``two_player_draw_cards = opponent-plays`` lets the victim play after drawing."""
    if t.n == 2 and t.rules.opponent_plays:
        t.turn = victim
        t.say(
            "turn",
            f"with two players {t.name(victim)} plays after drawing",
            [*clauses, "UNO-TWO-PLAYER-DRAW-CARDS"],
            victim,
        )
        return
    t.turn = seat_after(t, victim)
    extra = ["UNO-TWO-PLAYER-DRAW-CARDS"] if t.n == 2 else []
    t.say(
        "skip",
        f"{t.name(victim)} loses his turn; {t.name(t.turn)} plays next",
        [*clauses, *extra],
        victim,
    )


# --- laying a card -------------------------------------------------------------------------


@implements("UNO-WILD-NAME-COLOUR", "UNO-WILD-EVEN-WITH-PLAYABLE")
def _lay(t: Table, seat: int, action: Play) -> None:
    """The card goes on the discard pile; a wild card's player names the colour with it (even
    when he held other cards he could have laid)."""
    card = action.card
    top = t.discard[-1]
    rules = t.rules
    why = rules.why(card, top, t.colour) or ("UNO-PLAY-MATCH",)
    hand = t.hands[seat]
    at = index_in(hand, card)
    t.hands[seat] = hand = hand[:at] + hand[at + 1 :]
    t.discard += (card,)
    code = CODES[card._key]
    words = f"{t.players[seat]} lays {code}"
    if action.colour is not None:
        words += f" and names {COLOUR_NAMES[action.colour]}"
        why = (
            *why,
            "UNO-WD4-NAME-COLOUR" if card.value is WILD_DRAW_FOUR else "UNO-WILD-NAME-COLOUR",
        )
    wild = card.colour is None and card.value is not WILD_DRAW_FOUR
    if wild and rules.playable(hand, top, t.colour):
        why = (*why, "UNO-WILD-EVEN-WITH-PLAYABLE")
    if t.phase is STACK:
        why = (*why, "UNO-VARIANT-STACKING")
    # the clauses of fit_clauses are distinct, and so are those added to them here
    t.events.append(
        build_event(kind="play", text=words, clauses=why, player=t.players[seat], cards=(code,))
    )
    t.colour = card.colour if card.colour is not None else action.colour


@implements("UNO-CALL-UNO")
def _uno_call(t: Table, seat: int, called: bool) -> None:
    """A player left with one card calls UNO; if he does not, he can be caught."""
    if len(t.hands[seat]) != 1:
        return
    if called:
        t.say("uno", f"{t.name(seat)} calls UNO", ["UNO-CALL-UNO"], seat)
    else:
        t.exposed = seat
        t.say(
            "no-uno",
            f"{t.name(seat)} has one card left and has not called UNO",
            ["UNO-CALL-UNO", "UNO-CALL-PENALTY"],
            seat,
        )


def _play(t: Table, seat: int, action: Play) -> None:
    card = action.card
    colour_before = t.colour
    was_stack = t.phase is STACK
    t.drawn = None
    _lay(t, seat, action)
    if len(t.hands[seat]) == 1:
        _uno_call(t, seat, action.uno)
    t.phase = PLAY
    value = card.value
    redeal_own = (
        value is SHUFFLE_HANDS
        and t.options.shuffle_hands_last_card is ShuffleHandsLastCard.REDEAL_INCLUDES_PLAYER
    )
    if not t.hands[seat] and not redeal_own:
        _going_out(t, seat, card, colour_before)
        return
    if not was_stack:
        t.pending_draw = 0
    if value is SKIP:
        _skip(t, seat)
    elif value is REVERSE:
        _reverse(t, seat)
    elif value is DRAW_TWO:
        _draw_two(t, seat)
    elif value is WILD_DRAW_FOUR:
        _wild_draw_four(t, seat, colour_before)
    elif value is SHUFFLE_HANDS:
        _shuffle_hands_played(t, seat)
    else:
        t.turn = seat_after(t, seat)


@implements("UNO-SKIP-EFFECT", "UNO-TWO-PLAYER-SKIP")
def _skip(t: Table, seat: int) -> None:
    """The next player loses his turn; with two players the Skip's player plays again."""
    victim = seat_after(t, seat)
    t.turn = seat_after(t, seat, 2)
    if t.n == 2:
        t.say(
            "skip",
            f"{t.name(victim)} is skipped: with two players {t.name(seat)} plays again",
            ["UNO-SKIP-EFFECT", "UNO-TWO-PLAYER-SKIP"],
            victim,
        )
    else:
        t.say(
            "skip",
            f"{t.name(victim)} is skipped; {t.name(t.turn)} plays next",
            ["UNO-SKIP-EFFECT"],
            victim,
        )


@implements("UNO-REVERSE-EFFECT", "UNO-TWO-PLAYER-REVERSE")
def _reverse(t: Table, seat: int) -> None:
    """The direction turns; with exactly two players the Reverse works like a Skip."""
    t.direction = RIGHT if t.direction is LEFT else LEFT
    way = "clockwise" if t.direction is LEFT else "counter-clockwise"
    if t.n == 2:
        t.turn = seat
        t.say(
            "reverse",
            f"play turns {way}; with two players the turn comes straight back to {t.name(seat)}",
            ["UNO-REVERSE-EFFECT", "UNO-TWO-PLAYER-REVERSE"],
            seat,
        )
        return
    t.turn = seat_after(t, seat)
    t.say(
        "reverse",
        f"play turns {way}; {t.name(t.turn)} plays next",
        ["UNO-REVERSE-EFFECT"],
        seat,
    )


@implements("UNO-DRAW-TWO-EFFECT", "UNO-DRAW-TWO-NO-STACKING", "UNO-VARIANT-STACKING")
def _draw_two(t: Table, seat: int) -> None:
    """The next player draws two and loses his turn; with stacking on he may pass them on."""
    victim = seat_after(t, seat)
    if t.options.stack_draw_two:
        t.pending_draw += DRAW_TWO_DRAW
        t.phase = STACK
        t.turn = victim
        t.say(
            "stack",
            f"{t.name(victim)} owes {_cards(t.pending_draw)}: he may pass them on with a Draw "
            "Two or draw them",
            ["UNO-VARIANT-STACKING", "UNO-DRAW-TWO-EFFECT"],
            victim,
        )
        return
    _hit(t, victim, DRAW_TWO_DRAW, ["UNO-DRAW-TWO-EFFECT", "UNO-DRAW-TWO-NO-STACKING"])


@implements("UNO-WD4-EFFECT", "UNO-WD4-NAME-COLOUR", "UNO-WD4-CHALLENGE-WHEN")
def _wild_draw_four(t: Table, seat: int, colour_before: Colour | None) -> None:
    """The next player is hit; before he draws he may challenge (UNO-WD4-CHALLENGE-WHEN)."""
    held = t.hands[seat]
    t.wd4 = WildDrawFour(player=seat, held=held, colour_before=colour_before)
    t.phase = CHALLENGE
    t.turn = seat_after(t, seat)
    colour = condition_colour(t.options, colour_before, t.discard[-2])
    if not wd4_condition_met(t.options, held, colour):
        t.say(
            "bluff",
            f"{t.name(seat)} holds a card of the current colour: the Wild Draw Four breaks its "
            "condition and stands only if nobody challenges it",
            ["UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-EXISTS"],
            seat,
        )
    t.say(
        "hit",
        f"{t.name(t.turn)} must draw four and lose his turn, or challenge",
        ["UNO-WD4-EFFECT", "UNO-WD4-CHALLENGE-WHEN"],
        t.turn,
    )


@implements(
    "UNO-SHUFFLE-HANDS-EFFECT", "UNO-SHUFFLE-HANDS-DEAL-ORDER", "UNO-SHUFFLE-HANDS-EXTRA-CARDS"
)
def _shuffle_hands(t: Table, seat: int) -> None:
    """Every hand is gathered, shuffled and dealt out again from the left of ``seat``."""
    counts = [len(h) for h in t.hands]
    gathered = [c for h in t.hands for c in h]
    shuffle(t.rng(), gathered)
    order = [(seat + k) % t.n for k in range(1, t.n + 1)]
    hands: list[list[UnoCard]] = [[] for _ in range(t.n)]
    if t.options.shuffle_hands_deal is ShuffleHandsDeal.DEAL_ROUND:
        for k, card in enumerate(gathered):
            hands[order[k % t.n]].append(card)
        clauses = ["UNO-SHUFFLE-HANDS-EFFECT", "UNO-SHUFFLE-HANDS-DEAL-ORDER"]
        if len(gathered) % t.n:
            clauses.append("UNO-SHUFFLE-HANDS-EXTRA-CARDS")
    else:
        for s in order:
            hands[s] = [gathered.pop() for _ in range(counts[s])]
        clauses = ["UNO-SHUFFLE-HANDS-EFFECT"]
    t.hands = [tuple(h) for h in hands]
    if t.exposed is not None and len(t.hands[t.exposed]) != 1:
        t.exposed = None
    sizes = ", ".join(f"{t.name(s)} {len(t.hands[s])}" for s in order)
    t.say("shuffle-hands", f"all hands are shuffled and dealt out again: {sizes}", clauses, seat)


@implements("UNO-SHUFFLE-HANDS-NAME-COLOUR")
def _shuffle_hands_played(t: Table, seat: int) -> None:
    """After the hands are dealt again, the Shuffle Hands player names the colour."""
    _shuffle_hands(t, seat)
    if not t.hands[seat]:
        t.say(
            "out",
            f"{t.name(seat)} is dealt no card back: he has gone out",
            ["UNO-WIN-HAND-GO-OUT", "UNO-SHUFFLE-HANDS-EXTRA-CARDS"],
            seat,
        )
        _end_hand(t, seat)
    t.phase = NAME_COLOUR
    t.turn = seat
    t.after = seat_after(t, seat)
    t.colour = None


# --- going out, scoring, the next hand -------------------------------------------------------


@implements("UNO-WIN-HAND-GO-OUT", "UNO-WIN-LAST-CARD-DRAW")
def _going_out(t: Table, seat: int, card: UnoCard, colour_before: Colour | None) -> None:
    """The hand ends; a last Draw Two or Wild Draw Four still strikes (by default)."""
    t.say("out", f"{t.name(seat)} has no cards left", ["UNO-WIN-HAND-GO-OUT"], seat)
    if t.options.last_card_draw is LastCardDraw.DRAW_AND_COUNT:
        victim = seat_after(t, seat)
        if card.value is DRAW_TWO:
            owed = t.pending_draw + DRAW_TWO_DRAW
            t.pending_draw = 0
            _take(t, victim, owed, ["UNO-WIN-LAST-CARD-DRAW", "UNO-DRAW-TWO-EFFECT"])
        elif card.value is WILD_DRAW_FOUR:
            _wild_draw_four(t, seat, colour_before)
            return
    _end_hand(t, seat)


@implements("UNO-SCORE-WINNER-COLLECTS", "UNO-WIN-GAME-500")
def _end_hand(t: Table, winner: int) -> None:
    """Score the hand; the game ends at the target score, else the next hand is dealt."""
    options = t.options
    points = [hand_points(h, options) for h in t.hands]
    if options.scoring is Scoring.WINNER_COLLECTS:
        row = [0] * t.n
        row[winner] = sum(points)
        text = f"{t.name(winner)} wins the hand and scores {row[winner]}"
        clauses = ["UNO-SCORE-WINNER-COLLECTS"]
    else:
        row = points
        text = f"{t.name(winner)} wins the hand; each player adds the points left in his hand"
        clauses = ["UNO-SCORE-WILD-50"]
    t.scores = tuple(s + r for s, r in zip(t.scores, row, strict=True))
    t.results = (*t.results, tuple(row))
    counted = [c for hand in t.hands for card in hand for c in value_clauses(card, options)]
    # the totals are held against the target score whether or not the game ends here
    t.say("score", text, [*clauses, *counted, "UNO-WIN-HAND-GO-OUT", "UNO-WIN-GAME-500"], winner)
    _reset_hand_state(t)
    if max(t.scores) >= options.target_score:
        if options.scoring is Scoring.WINNER_COLLECTS:
            t.winners = (winner,)
        else:
            low = min(t.scores)
            t.winners = tuple(s for s in range(t.n) if t.scores[s] == low)
        t.phase = GAME_OVER
        t.turn = t.winners[0]
        names = " and ".join(t.name(w) for w in t.winners)
        t.say("game", f"{names} won the game", ["UNO-WIN-GAME-500"], t.winners[0])
        raise _HandEnded
    _next_hand(t, winner)


def _reset_hand_state(t: Table) -> None:
    t.phase = PLAY
    t.after = None
    t.pending_draw = 0
    t.drawn = None
    t.wd4 = None
    t.exposed = None


def _void_hand(t: Table) -> None:
    """UNO-AMB-PILES-EXHAUSTED, reading ``hand-void``: the hand is dealt again without score."""
    t.results = (*t.results, (0,) * t.n)
    t.say("void", "no card is left to draw: the hand is void", ["UNO-PILES-EXHAUSTED-NO-DRAW"])
    _reset_hand_state(t)
    _next_hand(t, None)


@implements("UNO-DEAL-ROTATE")
def _next_hand(t: Table, winner: int | None) -> None:
    """The next dealer (by default the previous dealer's left-hand neighbour) deals."""
    rule = t.options.next_dealer
    if rule is NextDealer.DRAW_AGAIN:
        dealer = _choose_dealer(t)
    elif rule is NextDealer.WINNER_DEALS and winner is not None:
        dealer = winner
    else:
        dealer = (t.dealer + 1) % t.n
    t.hand_number += 1
    t.say("deal", f"hand {t.hand_number}: {t.name(dealer)} deals", ["UNO-DEAL-ROTATE"], dealer)
    _deal(t, dealer)
    raise _HandEnded


def _dealer_rank(card: UnoCard) -> int:
    return _DEALER_RANKS[card._key]


_DEALER_RANKS = {
    card._key: int(card.value.value) if card.value.is_number else 0
    for card in uno_deck(shuffle_hands=True, blank_wilds=3)
}
"""What each kind of card counts when the dealer is chosen: a number its face, any other card
nothing (UNO-DEAL-CHOOSE-DEALER), read once for every kind (an enum member's ``value`` and
``is_number`` are properties, slow to read card by card)."""


@implements("UNO-DEAL-CHOOSE-DEALER", "UNO-DEALER-TIE-REDRAW")
def choose_dealer(
    options: UnoOptions, n: int, rng: random.Random
) -> tuple[int, tuple[tuple[tuple[int, UnoCard], ...], ...]]:
    """Each player takes a card; the highest number deals (actions and wilds count zero).

    On a tie only the tied players draw again (or everyone, by option ``dealer_tie``). Returns
    the dealer and every round of cards taken. The cards are those a pack shuffled by
    :func:`shuffle` gives from its top (and, once it runs short, a new pack's); ``rng`` is asked
    only for the bits of the cards taken.

    >>> dealer, rounds = choose_dealer(UnoOptions(), 4, random.Random(1))
    >>> 0 <= dealer < 4 and len(rounds[0]) == 4
    True
    """
    deck = deck_for(options)
    # the shuffled pack, shuffled only as far as cards are taken from it (see taken)
    pack, left = taken(rng, deck), len(deck)
    drawing = list(range(n))
    rounds: list[tuple[tuple[int, UnoCard], ...]] = []
    while True:
        if left < len(drawing):
            for _ in pack:  # the rest of the old shuffle draws its bits, then a new one
                pass
            pack, left = taken(rng, deck), len(deck)
        draws = tuple((seat, next(pack)) for seat in drawing)
        left -= len(drawing)
        rounds.append(draws)
        best = max(_dealer_rank(c) for _, c in draws)
        tied = [seat for seat, c in draws if _dealer_rank(c) == best]
        if len(tied) == 1:
            return tied[0], tuple(rounds)
        drawing = tied if options.dealer_tie is DealerTie.TIED_REDRAW else list(range(n))


def _choose_dealer(t: Table) -> int:
    dealer, rounds = choose_dealer(t.options, t.n, t.rng())
    for draws in rounds:
        shown = ", ".join(f"{t.players[s]} {CODES[c._key]}" for s, c in draws)
        t.say("dealer-draw", f"cards for the deal: {shown}", ["UNO-DEAL-CHOOSE-DEALER"])
    clauses = ["UNO-DEAL-CHOOSE-DEALER"] + (["UNO-DEALER-TIE-REDRAW"] if len(rounds) > 1 else [])
    t.say("dealer", f"{t.name(dealer)} deals", clauses, dealer)
    return dealer


@implements("UNO-DEAL-SEVEN", "UNO-SETUP-DRAW-PILE", "UNO-SETUP-DISCARD-PILE")
def _deal(t: Table, dealer: int, stacked: Sequence[UnoCard] | None = None) -> None:
    """Shuffle, deal seven each from the dealer's left, the rest is the draw pile; turn one up.

    ``stacked`` (top card first) replaces the shuffle, for tests and questions.
    """
    if stacked is None:
        pack = list(deck_for(t.options))
        shuffle(t.rng(), pack)
    else:
        pack = list(reversed(stacked))
    hands: list[list[UnoCard]] = [[] for _ in range(t.n)]
    for _ in range(HAND_SIZE):
        for k in range(1, t.n + 1):
            hands[(dealer + k) % t.n].append(pack.pop())
    t.hands = [tuple(h) for h in hands]
    t.discard = ()
    t.dealer = dealer
    t.direction = LEFT
    _reset_hand_state(t)
    t.say("deal", f"{t.name(dealer)} deals seven cards each", _DEAL_CLAUSES[t.options.deck], dealer)
    _first_card(t, pack)


_DEAL_CLAUSES = {
    108: ("UNO-DEAL-SEVEN", "UNO-DECK-108"),
    112: ("UNO-DEAL-SEVEN", "UNO-DECK-112", "UNO-DECK-NEW-CARDS-OPTIONAL"),
}
"""What a deal cites: seven cards each, from the pack the options choose."""


# --- the first card ------------------------------------------------------------------------


def _redrawn(options: UnoOptions, card: UnoCard) -> bool:
    if card.value is WILD_DRAW_FOUR:
        return options.first_wild_draw_four is FirstWildDrawFour.REDRAW
    new_wild = card.value in (SHUFFLE_HANDS, BLANK_WILD)
    return new_wild and options.first_shuffle_hands is FirstShuffleHands.REDRAW


@implements("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-FIRST-CARD-WD4-REDRAW", "UNO-TURN-FIRST-PLAYER")
def _first_card(t: Table, pile: list[UnoCard]) -> None:
    """The top card is turned up and acts as though the dealer had laid it (004's table).

    ``pile`` is the rest of the pack, its last card on top.
    """
    while True:
        card = pile.pop()
        if not _redrawn(t.options, card):
            break
        pile.append(card)
        shuffle(t.rng(), pile)
        t.say(
            "redraw",
            f"{CODES[card._key]} may not start the hand: it is shuffled back and another card "
            "turned",
            ["UNO-FIRST-CARD-WD4-REDRAW"]
            if card.value is WILD_DRAW_FOUR
            else ["UNO-SHUFFLE-HANDS-FIRST-CARD-AS-WILD"],
            cards=[card],
        )
    t.pile = tuple(reversed(pile))
    t.discard = (card,)
    t.colour = card.colour
    left = seat_after(t, t.dealer)
    code = CODES[card._key]
    t.say("first-card", f"{code} is turned up", ["UNO-SETUP-DISCARD-PILE"], cards=[card])
    value = card.value
    if value is SKIP:
        _first_skip(t)
    elif value is REVERSE:
        _first_reverse(t)
    elif value is DRAW_TWO:
        _first_draw_two(t)
    elif value is WILD:
        _first_wild(t, ["UNO-FIRST-CARD-WILD"])
    elif value is WILD_DRAW_FOUR:
        _first_wild_draw_four(t)
    elif value in (SHUFFLE_HANDS, BLANK_WILD):
        _first_new_wild(t, card)
    else:
        t.turn = left
        t.say("turn", f"{t.name(left)} plays first", ["UNO-TURN-FIRST-PLAYER"], left)


@implements("UNO-FIRST-CARD-SKIP")
def _first_skip(t: Table) -> None:
    """The player on the dealer's left is skipped; the one after him begins."""
    left = seat_after(t, t.dealer)
    t.turn = seat_after(t, t.dealer, 2)
    t.say(
        "skip",
        f"{t.name(left)} is skipped; {t.name(t.turn)} plays first",
        ["UNO-FIRST-CARD-SKIP", "UNO-SKIP-EFFECT"],
        left,
    )


@implements("UNO-FIRST-CARD-REVERSE")
def _first_reverse(t: Table) -> None:
    """The dealer plays first and play runs to his right (with options for the readings)."""
    t.direction = Direction.RIGHT
    options = t.options
    if t.n == 2:
        if options.two_player_first_reverse is TwoPlayerFirstReverse.DEALER_FIRST:
            t.turn = t.dealer
        else:
            t.turn = seat_after(t, t.dealer)
        clauses = ["UNO-FIRST-CARD-REVERSE", "UNO-TWO-PLAYER-REVERSE"]
    elif options.first_reverse_start is FirstReverseStart.DEALER_FIRST:
        t.turn = t.dealer
        clauses = ["UNO-FIRST-CARD-REVERSE"]
    else:
        t.turn = seat_after(t, t.dealer)
        clauses = ["UNO-FIRST-CARD-REVERSE", "UNO-FIRST-CARD-AS-DEALER-PLAY"]
    t.say(
        "reverse",
        f"play runs to the right; {t.name(t.turn)} plays first",
        [*clauses, "UNO-REVERSE-EFFECT"],
        t.turn,
    )


@implements("UNO-FIRST-CARD-DRAW-TWO")
def _first_draw_two(t: Table) -> None:
    """The first player draws two and is skipped; with stacking on and the reading
    may-pass-on (UNO-AMB-FIRST-DRAW-TWO-STACKING) he owes them and may pass them on. Row 3
    skips him in so many words, so with two players the reading opponent-plays of
    UNO-AMB-TWO-PLAYER-DRAW-CARDS (about cards a player lays) does not let him play."""
    first = seat_after(t, t.dealer)
    if (
        t.options.stack_draw_two
        and t.options.first_draw_two_stacking is FirstDrawTwoStacking.MAY_PASS_ON
    ):
        t.pending_draw, t.phase, t.turn = FIRST_DRAW_TWO_DRAW, STACK, first
        t.say(
            "stack",
            f"{t.name(first)} owes {_cards(FIRST_DRAW_TWO_DRAW)} for the first card: he may "
            "pass them on with a Draw Two or draw them",
            ["UNO-FIRST-CARD-DRAW-TWO", "UNO-VARIANT-STACKING"],
            first,
        )
        return
    clauses = ["UNO-FIRST-CARD-DRAW-TWO", "UNO-DRAW-TWO-EFFECT"]
    _take(t, first, FIRST_DRAW_TWO_DRAW, clauses)
    t.turn = seat_after(t, first)
    t.say("skip", f"{t.name(first)} is skipped; {t.name(t.turn)} plays first", clauses, first)


@implements("UNO-FIRST-CARD-WILD")
def _first_wild(t: Table, clauses: Sequence[str]) -> None:
    """The first player names the starting colour and plays (or, by option, the dealer names
    it, or the first player lays any card without naming one)."""
    left = seat_after(t, t.dealer)
    t.colour = None
    if t.options.first_wild_chooser is FirstWildChooser.DEALER:
        t.phase, t.turn, t.after = NAME_COLOUR, t.dealer, left
        t.say("name", f"{t.name(t.dealer)} names the colour", clauses, t.dealer)
    elif t.options.first_wild_play is FirstWildPlay.PLAY_WITHOUT_NAMING:
        t.turn = left
        t.say("turn", f"{t.name(left)} plays first, on any card", clauses, left)
    else:
        t.phase, t.turn, t.after = NAME_COLOUR, left, left
        t.say("name", f"{t.name(left)} names the colour and plays first", clauses, left)


@implements("UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-EFFECT", "UNO-WD4-NAME-COLOUR")
def _first_wild_draw_four(t: Table) -> None:
    """UNO-AMB-FIRST-WD4-AS-DEALER-PLAY, reading ``as-dealer-play``: the dealer counts as having
    laid the Wild Draw Four turned up first. The player on his left draws four and loses his
    turn; the dealer names the colour. No challenge: with no colour in force before the first
    card, and nothing chosen by the dealer, the card cannot have broken its condition."""
    clauses = ["UNO-FIRST-CARD-AS-DEALER-PLAY", "UNO-WD4-EFFECT"]
    _hit(t, seat_after(t, t.dealer), WD4_DRAW, clauses)
    t.colour = None
    t.phase, t.after, t.turn = NAME_COLOUR, t.turn, t.dealer
    t.say(
        "name",
        f"{t.name(t.dealer)}, deemed to have laid it, names the colour; nobody may challenge it",
        [*clauses, "UNO-WD4-NAME-COLOUR"],
        t.dealer,
    )


@implements("UNO-SHUFFLE-HANDS-FIRST-CARD-AS-WILD")
def _first_new_wild(t: Table, card: UnoCard) -> None:
    """Shuffle Hands or a blank wild turned up first: like a first-card Wild by default."""
    if t.options.first_shuffle_hands is FirstShuffleHands.AS_WILD:
        _first_wild(t, ["UNO-SHUFFLE-HANDS-FIRST-CARD-AS-WILD", "UNO-FIRST-CARD-WILD"])
        return
    if card.value is SHUFFLE_HANDS:
        _shuffle_hands(t, t.dealer)
    t.colour = None
    t.phase, t.turn, t.after = NAME_COLOUR, t.dealer, seat_after(t, t.dealer)
    t.say(
        "name", f"{t.name(t.dealer)} names the colour", ["UNO-FIRST-CARD-AS-DEALER-PLAY"], t.dealer
    )


# --- the other actions ---------------------------------------------------------------------


def _draw(t: Table, seat: int) -> None:
    if t.phase is CHALLENGE:
        _accept_wd4(t, seat)
    elif t.phase is STACK:
        owed, t.pending_draw = t.pending_draw, 0
        _hit(t, seat, owed, ["UNO-VARIANT-STACKING", "UNO-DRAW-TWO-EFFECT"])
    else:
        _draw_on_turn(t, seat)


@implements("UNO-DRAW-CANNOT-PLAY", "UNO-DRAW-BY-CHOICE", "UNO-DRAW-PLAY-DRAWN")
def _draw_on_turn(t: Table, seat: int) -> None:
    """Draw one card (forced, or by choice); a drawn card that fits may be laid at once."""
    top, hand = t.discard[-1], t.hands[seat]
    rules = t.rules
    able = bool(rules.playable(hand, top, t.colour))
    clauses = ["UNO-DRAW-BY-CHOICE" if able else "UNO-DRAW-CANNOT-PLAY"]
    if not able and not rules.may_draw:
        # drawing is allowed only because no card of his may be laid (must-play reading)
        clauses += [c for card in hand for c in unfit_clauses(card, top)]
    got = _take(t, seat, TURN_DRAW, clauses)
    if got and rules.may_lay(t.hands[seat], got[0], top, t.colour):
        card = got[0]
        t.phase = DRAWN
        t.drawn = card
        words = f"{t.players[seat]} may lay {CODES[card._key]} or keep it"
        t.say(
            "drawn", words, ("UNO-DRAW-PLAY-DRAWN", *(rules.why(card, top, t.colour) or ())), seat
        )
        return
    _turn_passes(t, seat, bool(got), unfit_clauses(got[0], top) if got else ())


@implements("UNO-DRAW-TURN-PASSES")
def _turn_passes(t: Table, seat: int, drew: bool, why: Sequence[str] = ()) -> None:
    """After drawing a card that does not fit, or keeping it, the turn passes; ``why`` are the
    clauses by which the card drawn may not be laid."""
    t.phase = PLAY
    t.drawn = None
    t.turn = seat_after(t, seat)
    clauses = ["UNO-DRAW-TURN-PASSES"] if drew else ["UNO-PILES-EXHAUSTED-NO-DRAW"]
    words = f"{t.players[seat]}'s turn passes to {t.players[t.turn]}"
    t.say("pass", words, [*clauses, *why], seat)


def _accept_wd4(t: Table, seat: int) -> None:
    wd4 = t.wd4
    assert wd4 is not None
    _take(t, seat, WD4_DRAW, ["UNO-WD4-EFFECT"])
    t.wd4 = None
    t.phase = PLAY
    _lose_turn(t, seat, ["UNO-WD4-EFFECT"])
    if not t.hands[wd4.player]:
        _end_hand(t, wd4.player)


@implements(
    "UNO-WD4-CHALLENGE-EXISTS",
    "UNO-WD4-CHALLENGE-WHEN",
    "UNO-WD4-CHALLENGE-ONLY-VICTIM",
    "UNO-WD4-CHALLENGE-SHOW-HAND",
)
def _challenge(t: Table, seat: int) -> None:
    """The victim challenges: the card's player shows him his hand, and the condition decides."""
    wd4 = t.wd4
    assert wd4 is not None
    guilty = wd4.player
    t.say(
        "show-hand",
        f"{t.name(seat)} challenges; {t.name(guilty)} shows him (and only him) his hand",
        ["UNO-WD4-CHALLENGE-WHEN", "UNO-WD4-CHALLENGE-SHOW-HAND"],
        guilty,
        wd4.held,
    )
    colour = condition_colour(t.options, wd4.colour_before, t.discard[-2])
    # t.wd4 stays set while cards are drawn, so that a rebuilt draw pile leaves the card under
    # the Wild Draw Four in place (see _rebuild)
    if wd4_condition_met(t.options, wd4.held, colour):
        _challenge_fails(t, seat)
    else:
        _challenge_succeeds(t, seat, wd4)
    if not t.hands[guilty]:
        _end_hand(t, guilty)


@implements("UNO-WD4-CHALLENGE-SUCCESS")
def _challenge_succeeds(t: Table, seat: int, wd4: WildDrawFour) -> None:
    """The guilty player draws the four cards instead; the challenger draws none."""
    options, guilty = t.options, wd4.player
    six = options.challenge_success_penalty is ChallengeSuccessPenalty.GUILTY_DRAWS_SIX
    t.say(
        "challenge-won",
        f"the challenge succeeds: {t.name(guilty)} held a card of the current colour",
        ["UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CONDITION"],
        seat,
    )
    owed = CHALLENGE_FAILED_DRAW if six else CHALLENGE_GUILTY_DRAW
    _take(t, guilty, owed, ["UNO-WD4-CHALLENGE-SUCCESS"])
    t.wd4 = None
    if options.challenge_success_card is ChallengeSuccessCard.CARD_RETURNS:
        card = t.discard[-1]
        t.discard = t.discard[:-1]
        t.hands[guilty] += (card,)
        t.colour = wd4.colour_before
        t.say(
            "take-back",
            f"{t.name(guilty)} takes {card} back; {t.discard[-1]} is on top again",
            ["UNO-WD4-CHALLENGE-SUCCESS"],
            guilty,
            [card],
        )
    t.phase = PLAY
    if options.challenge_success_turn is ChallengeSuccessTurn.CHALLENGER_PLAYS:
        t.turn = seat
        t.say("turn", f"{t.name(seat)} plays", ["UNO-WD4-CHALLENGE-SUCCESS"], seat)
    else:
        # the challenger-skipped reading: the card's skip still strikes him
        _lose_turn(t, seat, ["UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-EFFECT"])


@implements("UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS")
def _challenge_fails(t: Table, seat: int) -> None:
    """The card was legal: the challenger draws six and, being its victim, loses his turn."""
    t.say(
        "challenge-lost",
        "the challenge fails: the Wild Draw Four was legal",
        ["UNO-WD4-CHALLENGE-FAILED-STANDS", "UNO-WD4-CONDITION"],
        seat,
    )
    owed = failed_challenge_draw(t.options)
    _take(
        t,
        seat,
        owed,
        ["UNO-WD4-CHALLENGE-FAILED-SIX", "UNO-WD4-CHALLENGE-FAILED-STANDS"],
    )
    t.wd4 = None
    t.phase = PLAY
    if t.options.failed_challenge_turn is FailedChallengeTurn.LOSES_TURN:
        # the card stands, and with it its effect: its victim loses his turn
        _lose_turn(t, seat, ["UNO-WD4-CHALLENGE-FAILED-STANDS", "UNO-WD4-EFFECT"])
    else:
        t.turn = seat
        t.say("turn", f"{t.name(seat)} plays after drawing", ["UNO-WD4-CHALLENGE-FAILED-SIX"], seat)


def _name_colour(t: Table, seat: int, action: NameColour) -> None:
    colour = action.colour
    clauses = list(naming_clauses(t.discard))
    t.colour = colour
    t.phase = PLAY
    assert t.after is not None
    t.turn, t.after = t.after, None
    t.say(
        "colour",
        f"{t.name(seat)} names {COLOUR_NAMES[colour]}; {t.name(t.turn)} plays",
        [*clauses, "UNO-WILD-NAMED-COLOUR-GOVERNS"],
        seat,
    )


@implements("UNO-CALL-PENALTY")
def _catch(t: Table, action: Catch) -> None:
    """A player caught without having called UNO draws two cards."""
    t.exposed = None
    t.say(
        "catch",
        f"{action.player} catches {action.target} without UNO called",
        ["UNO-CALL-PENALTY"],
        t.players.index(action.player),
    )
    _take(t, t.players.index(action.target), CALL_PENALTY_DRAW, ["UNO-CALL-PENALTY"])


def _late_call(t: Table, action: CallUno) -> None:
    t.exposed = None
    t.say(
        "uno",
        f"{action.player} calls UNO before the next player begins",
        ["UNO-CALL-UNO"],
        t.players.index(action.player),
    )


def _apply_unchecked(state: UnoState, action: Action) -> Outcome[UnoState]:
    """Apply an action WITHOUT checking it: only for actions :func:`regelverk.uno.rules.check`
    has accepted, or that :func:`~regelverk.uno.rules.legal_actions` has just listed for this
    state (:meth:`UnoGame.apply` sees to it; nothing else should call this)."""
    t = table_of(state)
    try:
        # every action but a catch, a late call and naming a colour starts a turn, and ends
        # the window for catching a player without UNO called (UNO-CALL-PENALTY)
        if isinstance(action, Play):
            t.exposed = None
            _play(t, t.turn, action)
        elif isinstance(action, Draw):
            t.exposed = None
            _draw(t, t.turn)
        elif isinstance(action, Catch):
            _catch(t, action)
        elif isinstance(action, CallUno):
            _late_call(t, action)
        elif isinstance(action, NameColour):
            _name_colour(t, t.turn, action)
        else:
            t.exposed = None
            if isinstance(action, Pass):
                _turn_passes(t, t.turn, True)
            else:
                _challenge(t, t.turn)
    except _HandEnded:
        pass
    return _build_outcome(state=t.freeze(), events=tuple(t.events))


def new_game(options: UnoOptions, players: Sequence[str], seed: int) -> UnoState:
    """A new game: the dealer chosen by drawing cards, seven dealt each, the first card up."""
    return opening(options, players, seed).state


def _empty_table(options: UnoOptions, players: Sequence[str], dealer: int, seed: int) -> Table:
    """A table seated and not yet dealt: no cards anywhere, no scores."""
    n = len(players)
    return table_of(
        UnoState(
            options=options,
            players=seating(players),
            dealer=dealer,
            hands=((),) * n,
            draw_pile=(),
            discard=(),
            colour=None,
            turn=0,
            scores=(0,) * n,
            seed=seed,
        )
    )


def opening(options: UnoOptions, players: Sequence[str], seed: int) -> Outcome[UnoState]:
    """The new game :func:`new_game` gives, with the events of choosing the dealer, dealing and
    turning up the first card."""
    t = _empty_table(options, players, 0, seed)
    _deal(t, _choose_dealer(t))
    return Outcome(state=t.freeze(), events=tuple(t.events))


def deal_hand(
    options: UnoOptions,
    players: Sequence[str],
    *,
    dealer: int,
    pack: Sequence[UnoCard],
    seed: int = 0,
) -> Outcome[UnoState]:
    """Deal a first hand from ``pack`` as stacked (its first card is dealt first), no shuffle.

    The deal goes one card at a time from the dealer's left; the card after the hands is turned
    up. Later shuffles (a Wild Draw Four sent back, a used-up draw pile) are seeded by ``seed``.
    """
    t = _empty_table(options, players, dealer, seed)
    _deal(t, dealer, pack)
    return Outcome(state=t.freeze(), events=tuple(t.events))
