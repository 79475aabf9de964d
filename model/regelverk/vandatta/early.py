"""vvv8's start eight laid on too early (000 §1 ¶9): förhand plays before the dealer has named
the starting suit. His cards wait in a zone of their own until the dealer names a suit; if the
dealer names another suit (start_eight_other_suit) förhand takes three penalty cards, and his
cards go back to his hand (start_eight_early_card = take-back) or stay as played (stands).

>>> from regelverk.cards import parse_cards
>>> from regelverk.cards import Suit
>>> from regelverk.vandatta import GAME, VVV8
>>> from regelverk.vandatta.state import NameSuit, Play
>>> state = GAME.position_from_data(
...     {"players": ["Ann", "Bo", "Cy"], "phase": "start-suit", "dealer": "Cy", "turn": "Ann",
...      "hands": {"Ann": ["5S", "9D"], "Bo": ["2C"], "Cy": ["3C"]}, "pile": ["8H"],
...      "stock": ["4D", "6D", "7D"]}, VVV8)
>>> early = GAME.attempt(state, Play(player=0, cards=parse_cards("5S")))
>>> early.allowed, [c.code for c in early.state.early]
(False, ['5S'])
>>> named = GAME.apply(early.state, NameSuit(player=2, suit=Suit.DIAMONDS)).state
>>> [c.code for c in named.hands[0]], [c.code for p in named.penalties[0] for c in p.cards]
(['9D', '5S'], ['4D', '6D', '7D'])
"""

from __future__ import annotations

from collections.abc import Callable

from regelverk.cards import Suit
from regelverk.engine import IllegalActionError, Ruling
from regelverk.marks import implements
from regelverk.vandatta.options import (
    StartEightEarlyCard,
    StartEightNoChoice,
    StartEightOtherSuit,
)
from regelverk.vandatta.penalty import penalise
from regelverk.vandatta.rules import is_eight
from regelverk.vandatta.setup import suit_name
from regelverk.vandatta.state import Phase, Play, State
from regelverk.vandatta.table import Table

__all__ = ["early_play", "resolve_early"]

_EARLY = ("V8-START-EIGHT-FORHAND-EARLY-PENALTY", "V8-START-EIGHT-DEALER-NAMES-SUIT")


def early_play(state: State, play: Play, error: IllegalActionError) -> Ruling[State] | None:
    """Förhand lays cards on the start eight before the dealer's choice: they wait, face up,
    for it (eights, which would name a suit of their own, are simply refused)."""
    if state.phase is not Phase.START_SUIT or play.player != state.turn or state.early:
        return None
    if not play.cards or any(is_eight(c) for c in play.cards) or play.call:
        return None
    hand = list(state.hands[play.player])
    for card in play.cards:
        if card not in hand:
            return None
        hand.remove(card)
    table = Table.of(state)
    table.hands[play.player] = tuple(hand)
    table.early = play.cards
    table.say(
        "early",
        f"{table.name(play.player)} lays {' '.join(str(c) for c in play.cards)} before the "
        "dealer has named the starting suit: the cards wait for his choice",
        _EARLY,
        play.player,
        play.cards,
    )
    events = tuple(table.events)
    return Ruling(
        allowed=False,
        message=f"{error}; " + events[0].text,
        clauses=tuple(dict.fromkeys((*error.clauses, *_EARLY))),
        events=events,
        state=table.freeze(),
    )


@implements("V8-START-EIGHT-FORHAND-EARLY-PENALTY")
def _no_penalty(table: Table, seat: int, against: Suit, *, free: bool) -> None:
    """The suit the dealer chose is not 'another suit' (start_eight_other_suit says than
    what), so förhand's early play costs no penalty."""
    if free:
        why = "the dealer named no suit, so no other suit"
    elif table.options.start_eight_other_suit is StartEightOtherSuit.OTHER_THAN_FORHAND_CARD:
        why = f"{suit_name(against)} is the suit of his early card, not another suit"
    else:
        why = f"{suit_name(against)} is the start eight's own suit, not another suit"
    table.say(
        "early-no-penalty",
        f"{table.name(seat)} played before the dealer's choice, but {why}: no penalty",
        ("V8-START-EIGHT-FORHAND-EARLY-PENALTY",),
        seat,
    )


Lay = Callable[[Table, Play], None]
"""Carries out a play on the table (:mod:`regelverk.vandatta.adjudication`)."""
Fits = Callable[[State, Play], bool]
"""Whether a play is legal in a state."""


@implements("V8-START-EIGHT-FORHAND-EARLY-PENALTY", "V8-START-EIGHT-EARLY-CARD-RETURNED")
def resolve_early(table: Table, lay: Lay, fits: Fits) -> None:
    """Once the suit is named: if it is another suit, förhand takes three penalty cards and his
    cards go back to his hand (or stand, the named suit never taking effect); otherwise his
    play stands if it fits the named suit, and else simply goes back. Under
    start_eight_no_choice = any-suit a dealer who names no suit names no other suit: no
    penalty, and the early cards stand, since any card fits (V8-AMB-START-EIGHT-NO-CHOICE)."""
    cards, table.early = table.early, ()
    seat = table.turn
    table.hands[seat] = (*table.hands[seat], *cards)
    play = Play(player=seat, cards=cards)
    eight = table.pile[-1]
    named = table.named_suit or eight.suit
    options = table.options
    against = (
        cards[0].suit
        if options.start_eight_other_suit is StartEightOtherSuit.OTHER_THAN_FORHAND_CARD
        else eight.suit
    )
    free = table.named_suit is None and options.start_eight_no_choice is StartEightNoChoice.ANY_SUIT
    if named == against or free:
        _no_penalty(table, seat, against, free=free)
        if fits(table.freeze(), play):
            lay(table, play)
        else:
            table.say(
                "early-back",
                f"{table.name(seat)}'s early cards do not fit: they go back to his hand",
                ("V8-START-EIGHT-EARLY-CARD-RETURNED",),
                seat,
            )
        return
    penalise(
        table,
        seat,
        1,
        f"{table.name(seat)} played before the dealer's choice, and another suit was named",
        ("V8-START-EIGHT-FORHAND-EARLY-PENALTY",),
    )
    if options.start_eight_early_card is StartEightEarlyCard.STANDS:
        table.named_suit = None
        lay(table, play)
        return
    table.say(
        "early-back",
        f"{table.name(seat)} takes his early cards back and plays to the named suit or draws",
        ("V8-START-EIGHT-EARLY-CARD-RETURNED", "V8-PEN-WRONG-CARD-TAKE-BACK"),
        seat,
        cards,
    )
