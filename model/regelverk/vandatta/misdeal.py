"""vvv8's misdeals (000 §1 ¶5-¶6): hands of the wrong size after the deal.

A misdeal is a position in the ``misdeal`` phase: the cards are dealt, some hands are not seven,
and the start card is turned (the pile holds it) or not yet (the pile is empty). Players dealt
too many may hand the surplus of their choice to the dealer; the dealer then completes the
short hands (or, when everyone is short and no start card is turned, deals further rounds) and
play starts; after a short deal anyone may demand a new deal instead.

>>> from regelverk.vandatta import GAME, VVV8
>>> from regelverk.vandatta.state import Complete
>>> state = GAME.position_from_data(
...     {"players": ["Ann", "Bo", "Cy"], "phase": "misdeal", "dealer": "Cy", "turn": "Ann",
...      "hands": {"Ann": ["2C", "3C", "4C", "5C", "6C", "7C"], "Bo": ["2D", "3D", "4D", "5D",
...      "6D", "7D"], "Cy": ["2H", "3H", "4H", "5H", "6H"]}, "stock": ["9S", "10S", "JS", "QS",
...      "KS"]}, VVV8)
>>> after = GAME.apply(state, Complete(player=2)).state
>>> [len(h) for h in after.hands], after.pile[-1].code
([7, 7, 7], 'KS')
"""

from __future__ import annotations

from collections.abc import Callable

from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta.options import AllShortCompletion, RedealWindow, SurplusReturn
from regelverk.vandatta.rules import seats_after
from regelverk.vandatta.state import Complete, Phase, Redeal, ReturnSurplus, State
from regelverk.vandatta.table import Table

__all__ = ["Misdeal", "misdeal_error", "perform_misdeal", "redeal_open"]

Misdeal = ReturnSurplus | Complete | Redeal
"""The actions of this module."""


def _refuse(message: str, clauses: tuple[str, ...]) -> IllegalActionError:
    return IllegalActionError(message, clauses)


def _seats(state: State | Table) -> list[int]:
    return [s for s in range(len(state.players)) if s not in state.record.out]


def _short(state: State | Table) -> list[int]:
    size = state.options.hand_size
    return [s for s in _seats(state) if len(state.hands[s]) < size]


def _over(state: State | Table) -> list[int]:
    size = state.options.hand_size
    return [s for s in _seats(state) if len(state.hands[s]) > size and s != state.dealer]


def _all_short(state: State | Table) -> bool:
    return not state.pile and len(_short(state)) == len(_seats(state))


def misdeal_error(state: State, action: Misdeal) -> IllegalActionError | None:  # noqa: PLR0911
    """What is wrong with a misdeal action, if anything."""
    if not state.options.misdeal_rules:
        return _refuse("this rulebook has no rules for misdeals", ())
    if not 0 <= action.player < len(state.players):
        return _refuse(f"there is no seat {action.player}", ())
    if isinstance(action, Redeal):
        return _redeal_error(state, action)
    if state.phase is not Phase.MISDEAL:
        return _refuse("there is no misdeal to put right", ("V8-MISDEAL-TOO-FEW-COMPLETE",))
    if isinstance(action, ReturnSurplus):
        return _surplus_error(state, action)
    if action.player != state.dealer:
        return _refuse("only the dealer completes a misdeal", ("V8-MISDEAL-TOO-FEW-COMPLETE",))
    if state.options.surplus_return is SurplusReturn.MUST_RETURN and _over(state):
        names = ", ".join(state.players[s] for s in _over(state))
        return _refuse(
            f"{names} must first hand the surplus to the dealer",
            ("V8-MISDEAL-TOO-MANY-RETURN",),
        )
    return None


@implements("V8-MISDEAL-TOO-MANY-RETURN")
def _surplus_error(state: State, action: ReturnSurplus) -> IllegalActionError | None:
    """A player dealt too many may hand exactly the surplus, cards of his choice, to the
    dealer."""
    name = state.players[action.player]
    hand = list(state.hands[action.player])
    surplus = len(hand) - state.options.hand_size
    if action.player == state.dealer or surplus <= 0:
        return _refuse(
            f"{name} has no surplus to hand to the dealer", ("V8-MISDEAL-TOO-MANY-RETURN",)
        )
    if len(action.cards) != surplus:
        return _refuse(
            f"{name} holds {surplus} card(s) too many and hands exactly that many to the dealer",
            ("V8-MISDEAL-TOO-MANY-RETURN",),
        )
    for card in action.cards:
        if card not in hand:
            return _refuse(f"{name} does not hold {card}", ("V8-MISDEAL-TOO-MANY-RETURN",))
        hand.remove(card)
    return None


@implements(
    "V8-MISDEAL-TOO-FEW-REDEAL-RIGHT",
    "V8-MISDEAL-ALL-SHORT-NO-REDEAL",
    "V8-MISDEAL-REDEAL-BEFORE-PLAY",
)
def _redeal_error(state: State, action: Redeal) -> IllegalActionError | None:
    """After a short deal anyone may demand a new deal, except when everyone is short and the
    start card is not turned; the right lasts until förhand's first play or draw
    (redeal_window)."""
    if state.phase is Phase.MISDEAL:
        if _all_short(state):
            return _refuse(
                "everyone is short and no start card is turned: the dealer deals further "
                "rounds instead of a new deal",
                ("V8-MISDEAL-ALL-SHORT-NO-REDEAL", "V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS"),
            )
        if not _short(state):
            return _refuse(
                "only a deal with too few cards gives the right to a new deal",
                ("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT",),
            )
        return None
    if not redeal_open(state):
        return _refuse(
            "a new deal may be demanded only after a short deal, before förhand's first play "
            "or draw",
            ("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT", "V8-MISDEAL-REDEAL-BEFORE-PLAY"),
        )
    return None


def redeal_open(state: State) -> bool:
    """Whether a new deal may still be demanded in the deal in progress."""
    if not state.short_deal or state.phase not in (Phase.PLAY, Phase.START_SUIT):
        return False
    if state.options.redeal_window is RedealWindow.ANY_TIME_IN_DEAL:
        return True
    return state.previous is None and state.draws == 0 and len(state.pile) == 1


Start = Callable[[Table, int], None]
"""Turns the start card and starts play (:func:`regelverk.vandatta.setup.turn_start_card`)."""
DealAll = Callable[[Table, int], None]
"""Deals seven cards each (:func:`regelverk.vandatta.setup.deal_hands`)."""


def perform_misdeal(table: Table, action: Misdeal, start: Start, deal: DealAll) -> None:
    """Carry out a checked misdeal action."""
    if isinstance(action, ReturnSurplus):
        _return_surplus(table, action)
    elif isinstance(action, Complete):
        _complete(table, start)
    else:
        _redeal(table, action.player, start, deal)


@implements("V8-MISDEAL-TOO-MANY-RETURN", "V8-MISDEAL-TOO-MANY-DEALER-KEEPS")
def _return_surplus(table: Table, action: ReturnSurplus) -> None:
    """The surplus goes to the dealer, who plays with that many more cards."""
    dealer = table.dealer
    assert dealer is not None
    table.take_from_hand(action.player, action.cards)
    table.hands[dealer] = (*table.hands[dealer], *action.cards)
    table.say(
        "surplus",
        f"{table.name(action.player)} hands {len(action.cards)} surplus card(s) to "
        f"{table.name(dealer)}, who plays with them",
        ("V8-MISDEAL-TOO-MANY-RETURN", "V8-MISDEAL-TOO-MANY-DEALER-KEEPS"),
        action.player,
        action.cards,
    )


def _complete(table: Table, start: Start) -> None:
    dealer = table.dealer
    assert dealer is not None
    _surplus_kept(table)
    if _short(table):
        table.short_deal = True
        if _all_short(table):
            _extra_rounds(table, dealer)
            if (
                _over(table)
                and table.options.all_short_completion is AllShortCompletion.FULL_ROUNDS
            ):
                return  # the surplus of the full rounds may now be handed back
        else:
            _top_up(table, dealer)
    if table.pile:
        table.stock.append(table.pile.pop())  # the start card is turned again as it lay
    start(table, dealer)


@implements("V8-MISDEAL-TOO-MANY-RETURN")
def _surplus_kept(table: Table) -> None:
    """Players still holding too many as the dealer completes the deal keep their surplus:
    handing it over is their right, not their duty (surplus_return = may-keep; under
    must-return the completion is refused until they have)."""
    over = _over(table)
    if not over:
        return
    names = ", ".join(table.name(s) for s in over)
    table.say(
        "surplus-kept",
        f"{names} {'keeps' if len(over) == 1 else 'keep'} the surplus: handing it to the "
        "dealer is a right, not a duty",
        ("V8-MISDEAL-TOO-MANY-RETURN",),
        over[0],
    )


@implements("V8-MISDEAL-TOO-FEW-COMPLETE")
def _top_up(table: Table, dealer: int) -> None:
    """The dealer tops up every short hand to seven from the talon."""
    size = table.options.hand_size
    short = _short(table)
    for seat in short:
        while len(table.hands[seat]) < size and table.stock:
            table.hands[seat] = (*table.hands[seat], table.stock.pop())
    names = ", ".join(table.name(s) for s in short)
    table.say(
        "complete",
        f"{table.name(dealer)} completes the short hands ({names}) to {size} cards",
        ("V8-MISDEAL-TOO-FEW-COMPLETE",),
        dealer,
    )


@implements(
    "V8-MISDEAL-ALL-SHORT-NO-REDEAL",
    "V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS",
    "V8-MISDEAL-ALL-SHORT-TOP-UP",
)
def _extra_rounds(table: Table, dealer: int) -> None:
    """Everyone short, no start card yet: the dealer deals further rounds clockwise from
    förhand, skipping those who have seven (all_short_completion = top-up-each) or in full
    rounds until nobody is short (full-rounds)."""
    size = table.options.hand_size
    order = [*seats_after(len(table.players), dealer, table.record.out), dealer]
    full = table.options.all_short_completion is AllShortCompletion.FULL_ROUNDS
    rounds = 0
    while _short(table) and table.stock:
        rounds += 1
        for seat in order:
            if (full or len(table.hands[seat]) < size) and table.stock:
                table.hands[seat] = (*table.hands[seat], table.stock.pop())
    how = "in full rounds" if full else "skipping those who have seven"
    table.say(
        "extra-rounds",
        f"Everyone is short and no start card is turned: {table.name(dealer)} deals "
        f"{rounds} further round(s), {how}",
        (
            "V8-MISDEAL-ALL-SHORT-NO-REDEAL",
            "V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS",
            "V8-MISDEAL-ALL-SHORT-TOP-UP",
        ),
        dealer,
    )


@implements("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT", "V8-MISDEAL-REDEAL-BEFORE-PLAY")
def _redeal(table: Table, seat: int, start: Start, deal: DealAll) -> None:
    """A new deal: every card is gathered and shuffled (förhand's early cards on a start eight
    too), and the same dealer deals again."""
    dealer = table.dealer
    assert dealer is not None
    cards = [
        *(c for h in table.hands for c in h),
        *(c for sets in table.penalties for p in sets for c in p.cards),
        *table.stock,
        *table.pile,
        *table.turned,
        *table.early,
    ]
    table.rng("redeal").shuffle(cards)
    table.new_deal_fields()
    table.stock, table.pile, table.turned, table.early = cards, [], [], ()
    table.hands = [() for _ in table.players]
    table.penalties = [() for _ in table.players]
    table.benched = table.joining = frozenset()
    table.say(
        "redeal",
        f"{table.name(seat)} demands a new deal; {table.name(dealer)} deals again",
        ("V8-MISDEAL-TOO-FEW-REDEAL-RIGHT", "V8-MISDEAL-REDEAL-BEFORE-PLAY"),
        seat,
    )
    deal(table, dealer)
    start(table, dealer)
