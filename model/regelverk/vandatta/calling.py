"""The calls: vvv8's utgång and vandatta's LAPPEN and varning, when they are due, what a
forgotten or false call costs, and checking a call said with an action.
"""

from __future__ import annotations

import enum

from regelverk.cards import Card
from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta import citing, talon
from regelverk.vandatta.options import (
    EightInHandWhen,
    GoOutCall,
    LappenFailure,
    LappenOmission,
    VarningOmission,
    VarningTrigger,
)
from regelverk.vandatta.rules import (
    AT_OR_BELOW,
    LAPPEN,
    WHENEVER_EXACTLY,
    is_eight,
    lappen_due,
    owed,
    real_chance,
    varning_due,
)
from regelverk.vandatta.state import State
from regelverk.vandatta.table import Table

__all__: list[str] = []

# The readings and state members these rules ask for, bound once (see rules.py).
AT_CALL = EightInHandWhen.AT_CALL
UTGANG = GoOutCall.UTGANG
SINGLE_CARD_ONLY = LappenFailure.SINGLE_CARD_ONLY
ENFORCE_NO_PENALTY = LappenOmission.ENFORCE_NO_PENALTY
WIN_STANDS = LappenOmission.WIN_STANDS
THREE_CARDS = VarningOmission.THREE_CARDS
EXACTLY_AFTER_OWN_TURN = VarningTrigger.EXACTLY_AFTER_OWN_TURN


class _CallFault(enum.Enum):
    """Why a call may not be made (:func:`_call_fault`); :func:`_call_error` says it in words."""

    EIGHT_BEING_LAID = "eight-being-laid"
    NO_REAL_CHANCE = "no-real-chance"
    OWES_UNKNOWN_CARDS = "owes-unknown-cards"
    NOT_DUE = "not-due"


EIGHT_BEING_LAID = _CallFault.EIGHT_BEING_LAID


NOT_DUE = _CallFault.NOT_DUE


NO_REAL_CHANCE = _CallFault.NO_REAL_CHANCE


OWES_UNKNOWN_CARDS = _CallFault.OWES_UNKNOWN_CARDS


@implements("V8-PEN-OVERDRAW-MAY-CALL", "V8-PEN-NEXT-ROUND-CALL-RISK", "V8-CALL-NEVER-WITH-EIGHT")
def _call_fault(
    state: State, cards: tuple[Card, ...], laid: tuple[Card, ...] = ()
) -> _CallFault | None:
    """The call is judged on the cards held next turn: the hand, and locked cards that join it
    as this turn ends (a player with cards drawn too many may still call; penalty cards count as
    they are, which all but rules the call out). ``laid``: the cards of the play the call goes
    with, still in hand as the word is said, where an eight among them bars the call too
    (eight_in_hand_when = at-call)."""
    if state.options.go_out_call is UTGANG:
        if state.options.eight_in_hand_when is AT_CALL and any(is_eight(c) for c in laid):
            return EIGHT_BEING_LAID
        if owed(state, state.turn):
            return OWES_UNKNOWN_CARDS
        if state.penalties[state.turn]:
            cards = cards + tuple(
                c for p in state.penalties[state.turn] if p.release_after <= 1 for c in p.cards
            )
        if real_chance(state.options, cards):
            return None
        return NO_REAL_CHANCE
    if lappen_due(state.options, cards) or _varning_callable(state, cards):
        return None
    return NOT_DUE


def _call_error(
    state: State, cards: tuple[Card, ...], laid: tuple[Card, ...] = ()
) -> IllegalActionError | None:
    """What is wrong with a call kept with ``cards`` and said with ``laid``
    (:func:`_call_fault`), in words and clauses; None if nothing."""
    fault = _call_fault(state, cards, laid)
    if fault is None:
        return None
    if fault is EIGHT_BEING_LAID:
        return citing._refuse(
            "utgång may never be called with an eight in hand, and the eight being played "
            "is still in his hand as he calls",
            ("V8-CALL-NEVER-WITH-EIGHT", "V8-CALL-TIMING", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
        )
    if fault is OWES_UNKNOWN_CARDS:
        return citing._refuse(
            f"{state.players[state.turn]} must take three unknown extra cards for his failed "
            "going out as he hands the turn on, so he has no real chance of going out to call "
            "utgång on",
            ("V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
        )
    if fault is NO_REAL_CHANCE:
        clauses: tuple[str, ...] = (
            "V8-CALL-ONLY-WITH-REAL-CHANCE",
            "V8-CALL-NEVER-WITH-EIGHT",
            "V8-CALL-CHANCE-TEST",
        )
        text = (
            "utgång may be called only with a real chance of going out next turn (never with an "
            "eight in hand)"
        )
        if any(p.release_after <= 1 and p.cards for p in state.penalties[state.turn]):
            # his locked cards join his hand as the turn ends: they count, as they are
            text += "; his face-down cards count as they are, joining his hand as this turn ends"
            clauses += ("V8-PEN-NEXT-ROUND-CALL-RISK", "V8-PEN-OVERDRAW-MAY-CALL")
        return citing._refuse(text, clauses)
    return _call_not_due(state, len(cards))


@implements("VA-CALL-LAPPEN", "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED")
def _call_not_due(state: State, kept: int) -> IllegalActionError:
    """A vandatta call that is not due: neither LAPPEN (one card he can go out on) nor, where
    the player makes it himself, varning!, which says how many cards owe it and under which
    readings (VA-AMB-VARNING-WHEN, VA-AMB-VARNING-FORGOTTEN)."""
    options = state.options
    lappen = (
        f"LAPPEN is called by a player left with one card he can go out on, and he keeps {kept}"
    )
    if options.varning_cards is None:
        return citing._refuse(f"{lappen}; this table plays without varning!", ("VA-CALL-LAPPEN",))
    when = {
        EXACTLY_AFTER_OWN_TURN: "when his turn leaves him exactly",
        AT_OR_BELOW: "when his turn leaves him no more than",
        WHENEVER_EXACTLY: "when his hand comes to exactly",
    }[options.varning_trigger]
    count = options.varning_cards
    varning = (
        f"varning! is due {when} {count} card{'' if count == 1 else 's'} "
        f"(varning_trigger = {options.varning_trigger.value})"
    )
    if options.varning_omission is not THREE_CARDS:
        varning += (
            ", and the referee calls it for him then, not he himself "
            f"(varning_omission = {options.varning_omission.value})"
        )
    return citing._refuse(
        f"the call is not due: {lappen}; {varning}",
        ("VA-CALL-LAPPEN", "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED"),
    )


def _varning_callable(state: State, cards: tuple[Card, ...]) -> bool:
    """Under varning_omission = three-cards the call said with a turn's last action is the
    player's varning (VA-AMB-VARNING-FORGOTTEN): allowed where the cards he keeps owe it."""
    return state.options.varning_omission is THREE_CARDS and varning_due(
        state.options, len(state.hands[state.turn]), len(cards)
    )


def _player_calls(state: State) -> bool:
    """Whether the engine leaves vandatta's calls to the player, so that a turn's last action
    is listed with and without the call: LAPPEN under lappen_omission = no-go-out or
    win-stands, varning under varning_omission = three-cards."""
    options = state.options
    return options.go_out_call is LAPPEN and (
        options.lappen_omission is not ENFORCE_NO_PENALTY or options.varning_omission is THREE_CARDS
    )


@implements("VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED")
def _varning_reached(table: Table, seats: list[int]) -> None:
    """varning_trigger = whenever-exactly (VA-AMB-VARNING-WHEN): a hand that a draw brings to
    exactly the agreed count owes varning at once, outside the end of its own turn too (a draw
    for an ace, a draw in the middle of a turn). The engine makes that call for the player, as
    it makes every call it enforces, with or without varning_omission = three-cards (which
    judges only the call due as one's own turn ends)."""
    options = table.options
    if options.varning_trigger is not WHENEVER_EXACTLY:
        return
    for other in seats:
        count = len(table.hands[other])
        if varning_due(options, len(table.base.hands[other]), count):
            table.say(
                "varning",
                f"{table.name(other)} calls varning! ({citing._left(count)})",
                ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-CALL-VARNING-ENFORCED"),
                other,
            )


@implements("VA-PENALTY-LAPPEN-FAILED")
def _lappen_penalty(table: Table, seat: int) -> None:
    """A LAPPEN caller who does not go out on his next turn takes three cards from the stock."""
    table.calls = table.calls - {seat}
    for _ in range(table.options.penalty_cards):
        if talon.draw_one(table, seat) is None or table.drawn_deal:
            break
    table.say(
        "lappen-penalty",
        f"{table.name(seat)} called LAPPEN but did not go out: he takes "
        f"{table.options.penalty_cards} cards",
        ("VA-PENALTY-LAPPEN-FAILED", "VA-CALL-LAPPEN"),
        seat,
    )


@implements(
    "VA-CALL-VARNING", "VA-CALL-VARNING-ENFORCED", "VA-CALL-LAPPEN-ENFORCED", "VA-CALL-LAPPEN"
)
def _vandatta_calls(table: Table, seat: int, *, call: bool, laid: bool) -> None:
    """At the end of his turn: the LAPPEN penalty if due, then varning and LAPPEN if due (the
    engine makes a forgotten call for the player, without penalty)."""
    options = table.options
    if seat in table.calls:
        single = options.lappen_failure is SINGLE_CARD_ONLY
        if not single or (not laid and len(table.hands[seat]) == 1):
            _lappen_penalty(table, seat)
        table.calls = table.calls - {seat}
    hand = table.hands[seat]
    count = len(hand)
    if varning_due(options, len(table.base.hands[seat]), count):
        if options.varning_omission is THREE_CARDS and not call:
            _varning_forgotten(table, seat)
        else:
            table.say(
                "varning",
                f"{table.name(seat)} calls varning! ({citing._left(count)})",
                ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-CALL-VARNING-ENFORCED"),
                seat,
            )
    if lappen_due(options, hand):
        if not call and options.lappen_omission is not ENFORCE_NO_PENALTY:
            _lappen_forgotten(table, seat)
            return
        table.calls = table.calls | {seat}
        clauses: tuple[str, ...] = ("VA-CALL-LAPPEN", "VA-CALL-LAPPEN-MANDATORY")
        if not call:
            clauses += ("VA-CALL-LAPPEN-ENFORCED",)
        table.say("lappen", f"{table.name(seat)} calls LAPPEN!", clauses, seat)


@implements("VA-CALL-VARNING", "VA-PENALTY-LAPPEN-FAILED")
def _varning_forgotten(table: Table, seat: int) -> None:
    """varning_omission = three-cards (VA-AMB-VARNING-FORGOTTEN): a turn that ends owing
    varning without the call (``call`` not said with its last action) costs the penalty
    cards of a failed LAPPEN, drawn from the stock into the hand at once."""
    for _ in range(table.options.penalty_cards):
        if talon.draw_one(table, seat) is None or table.drawn_deal:
            break
    table.say(
        "varning-forgotten",
        f"{table.name(seat)} did not call varning: he takes {table.options.penalty_cards} cards",
        ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT", "VA-PENALTY-LAPPEN-FAILED"),
        seat,
    )


@implements("VA-CALL-LAPPEN-MANDATORY", "VA-WIN-OUT-AFTER-LAPPEN", "VA-PENALTY-LAPPEN-FAILED")
def _lappen_forgotten(table: Table, seat: int) -> None:
    """A turn that ends owing LAPPEN without the call (VA-AMB-LAPPEN-FORGOTTEN).

    no-go-out: only a caller may go out, so he counts at once as a caller who failed and
    takes the penalty cards from the stock now, as his turn ends (if the stock cannot give
    them all, what it gives). win-stands: nothing happens; he holds no standing call, so
    no LAPPEN penalty can follow, and he may go out on his next turn as the options allow
    (go_out_without_lappen = lappen-required still wants a call)."""
    if table.options.lappen_omission is WIN_STANDS:
        table.say(
            "lappen-omitted",
            f"{table.name(seat)} does not call LAPPEN: no consequence",
            ("VA-CALL-LAPPEN-MANDATORY",),
            seat,
        )
        return
    for _ in range(table.options.penalty_cards):
        if talon.draw_one(table, seat) is None or table.drawn_deal:
            break
    table.say(
        "lappen-forgotten",
        f"{table.name(seat)} did not call LAPPEN: he may not go out and takes "
        f"{table.options.penalty_cards} cards",
        ("VA-CALL-LAPPEN-MANDATORY", "VA-WIN-OUT-AFTER-LAPPEN", "VA-PENALTY-LAPPEN-FAILED"),
        seat,
    )


def _calls_not_due(table: Table, seat: int, told: int) -> tuple[str, ...]:
    """vandatta: the call rules that found no call due as ``seat``'s turn ended (events from
    ``told`` on are this turn end's): a hand of one to four cards owed no varning at the count
    agreed (VA-CALL-VARNING, -AGREED-COUNT); a last card that is an ace or an eight owes no
    LAPPEN, for nobody goes out on it (VA-CALL-LAPPEN)."""
    said = {e.kind for e in table.events[told:]}
    hand = table.hands[seat]
    clauses: tuple[str, ...] = ()
    if 0 < len(hand) <= 4 and not said & {"varning", "varning-forgotten"}:
        clauses += ("VA-CALL-VARNING", "VA-CALL-VARNING-AGREED-COUNT")
    if len(hand) == 1 and not said & {"lappen", "lappen-forgotten", "lappen-omitted"}:
        clauses += ("VA-CALL-LAPPEN",)
    return clauses


@implements("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-PEN-FALSE-CALL-CAUGHT")
def _false_call_lapses(table: Table, seat: int) -> None:
    """A false call waiting to be caught (false_call_detection = when-revealed) lapses, never
    caught, as the turn it was made for ends, whatever the table's call (utgång or LAPPEN): a
    call holds for the caller's next turn only."""
    if seat not in table.false_calls:
        return
    table.false_calls = table.false_calls - {seat}
    table.say(
        "false-call-lapses",
        f"{table.name(seat)}'s call made without a real chance lapses with his turn, never caught",
        ("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-PEN-FALSE-CALL-CAUGHT"),
        seat,
    )


@implements(
    "V8-CALL-TIMING",
    "V8-CALL-VALID-NEXT-TURN-ONLY",
    "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT",
    "V8-CALL-CARD-COUNT-ON-DEMAND",
)
def _utgang_calls(table: Table, seat: int, *, call: bool) -> None:
    """vvv8: a standing call is used up with this turn; a new one holds for the next turn only.
    The caller's card count is public in the state (hands), as the duty to tell it requires."""
    had = seat in table.calls
    table.calls = table.calls - {seat}
    if call:
        table.calls = table.calls | {seat}
        table.say(
            "utgang",
            f"{table.name(seat)} calls utgång ({citing._left(len(table.hands[seat]))})",
            ("V8-CALL-TIMING", "V8-CALL-VALID-NEXT-TURN-ONLY", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
            seat,
        )
    elif had:
        table.say(
            "call-lapses",
            f"{table.name(seat)} did not go out: his call lapses",
            ("V8-CALL-VALID-NEXT-TURN-ONLY", "V8-CALL-REPEAT-AFTER-FAILED-ATTEMPT"),
            seat,
        )
