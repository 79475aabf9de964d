"""The end of a turn: who plays next, and what falls due as the turn passes (owed cards taken,
penalties released, absent players passed over, calls judged).
"""

from __future__ import annotations

import dataclasses

from regelverk.marks import implements
from regelverk.vandatta import calling
from regelverk.vandatta.conduct import wait_for_absent
from regelverk.vandatta.options import AfterThreeDraws, EightSuitPersistence, GoOutCall
from regelverk.vandatta.penalty import penalise
from regelverk.vandatta.rules import LAPPEN, RESTART_NONE, next_seat
from regelverk.vandatta.scoring import end_blocked_deal
from regelverk.vandatta.state import PenaltySet
from regelverk.vandatta.table import Table

__all__: list[str] = []

# The readings and state members these rules ask for, bound once (see rules.py).
PASS_FREE_LEAD = AfterThreeDraws.PASS_FREE_LEAD
NEXT_PLAYER_ONLY = EightSuitPersistence.NEXT_PLAYER_ONLY
UTGANG = GoOutCall.UTGANG


@implements("V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL")
def _take_owed(table: Table, seat: int) -> None:
    """A player who failed to go out takes his three extra cards as he hands the turn on (after
    the others' draws for his ace, if he failed on one): the standard penalty, drawn now, while
    he is still spelförare, so they join his hand as this turn ends (under the standard timing)
    and he has cards he does not know when the turn passes, and no call."""
    sets = table.penalties[seat]
    if not any(p.owed for p in sets):
        return
    table.penalties[seat] = tuple(p for p in sets if not p.owed)
    penalise(
        table,
        seat,
        1,
        f"{table.name(seat)} hands the turn on after a failed going out",
        ("V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE", "V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL"),
    )


@implements("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE", "V8-PEN-OVERDRAW-KEEP-LOCKED")
def _release_penalties(table: Table, seat: int) -> None:
    """Face-down cards whose time has come join the hand as the owner's turn ends."""
    sets = table.penalties[seat]
    if not sets:
        return
    keep: list[PenaltySet] = []
    for item in sets:
        if item.release_after <= 1:
            table.hands[seat] = (*table.hands[seat], *item.cards)
        else:
            keep.append(dataclasses.replace(item, release_after=item.release_after - 1))
    table.penalties[seat] = tuple(keep)


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-CALL-FORFEITED-IF-ABSENT")
def _skip_absent(table: Table, seat: int, following: int) -> None:
    """The turn passes over absent players; a caller away when his turn comes loses that
    chance of going out."""
    count = len(table.players)
    step = (seat + 1) % count
    while step not in (following, seat):
        if step in table.away:
            clauses: tuple[str, ...] = ("V8-PRESENCE-ABSENT-TURN-SKIPPED",)
            text = f"{table.name(step)} is away: his turn is passed over"
            if step in table.calls:
                table.calls = table.calls - {step}
                clauses += ("V8-CALL-FORFEITED-IF-ABSENT",)
                text += " and his utgång is forfeited"
            table.say("skipped", text, clauses, step)
        step = (step + 1) % count


def _release_at_turn_start(table: Table, seat: int) -> None:
    """Penalty cards usable from the start of the owner's next turn (release_after 0)."""
    sets = table.penalties[seat]
    due = [p for p in sets if p.release_after <= 0]
    if not due:
        return
    table.penalties[seat] = tuple(p for p in sets if p.release_after > 0)
    table.hands[seat] = (*table.hands[seat], *(c for p in due for c in p.cards))
    table.say(
        "penalty-usable",
        f"{table.name(seat)}'s penalty cards join his hand as his turn begins",
        ("V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",),
        seat,
    )


def _pass_on(table: Table, seat: int) -> None:
    """A late joiner's turn passes on without a play or a call."""
    _end_turn(table, seat, call=False, laid=False)


@implements(
    "V8-TURN-PASS-AFTER-PLAY",
    "VA-TURN-NEXT-PLAYER",
    "VA-WIN-BLOCKED-DEAL-VOID",
    "V8-WIN-BLOCKED-DEAL-VOID",
)
def _end_turn(
    table: Table, seat: int, *, call: bool, laid: bool, eight: bool = False, dead: bool = False
) -> None:
    """The turn passes to the next player; calls are settled as the turn ends. ``dead``: the
    turn ended after all its draws with nothing to lay, so under after_three_draws =
    pass-free-lead (VA-AMB-AFTER-THREE-DRAWS) the next player may start with any card."""
    options = table.options
    table.free_lead = False
    told = len(table.events)
    if table.penalties[seat]:
        _take_owed(table, seat)
    calling._false_call_lapses(table, seat)
    if options.go_out_call is LAPPEN:
        calling._vandatta_calls(table, seat, call=call, laid=laid)
    else:
        calling._utgang_calls(table, seat, call=call)
    if table.penalties[seat]:
        _release_penalties(table, seat)
    if (
        table.named_suit is not None
        and not eight
        and options.eight_suit_persistence is NEXT_PLAYER_ONLY
        and table.pile  # a turned pile leaves no eight to count as ordinary: the suit holds
    ):
        table.named_suit = None
    if table.drawn_deal:
        return
    following = next_seat(table, seat)
    if table.away:
        _skip_absent(table, seat, following)
        if following in table.away:  # absent_turn = wait
            wait_for_absent(table, following)
    table.previous, table.turn, table.draws, table.restart = seat, following, 0, RESTART_NONE
    table.vetoed = frozenset()  # veto_limit = once-per-offender-turn counts per turn
    # a penalty drawn as the turn ended may have rebuilt the talon onto a new start card
    # (rebuild_reference = fresh-start-card): nobody has yet failed to follow that one, so it
    # grants no free lead, as it ends one that stands (V8-TALON-REBUILD-REFERENCE-CARD)
    fresh = any(e.kind == "fresh-start-card" for e in table.events[told:])
    if dead and options.after_three_draws is PASS_FREE_LEAD and not fresh:
        table.free_lead = True
        table.say(
            "free-lead",
            f"Nobody could follow the pile: {table.name(following)} may start with any card",
            ("VA-DRAW-PASS-AFTER-THREE", "VA-DRAW-MAX-THREE"),
            following,
        )
    if table.penalties[following]:
        _release_at_turn_start(table, following)
    utgang = options.go_out_call is UTGANG
    clauses = ("V8-TURN-PASS-AFTER-PLAY", "V8-TURN-NEXT-BECOMES-SPELFORARE", "V8-TURN-CLOCKWISE")
    table.say(
        "turn",
        f"The turn passes to {table.name(following)}",
        clauses
        if utgang
        else (
            "VA-TURN-NEXT-PLAYER",
            "VA-TURN-CLOCKWISE",
            *calling._calls_not_due(table, seat, told),
        ),
        following,
    )
    if table.idle >= table.active() > 0:  # nobody at the table: it waits for a return
        end_blocked_deal(
            table, ("V8-WIN-BLOCKED-DEAL-VOID",) if utgang else ("VA-WIN-BLOCKED-DEAL-VOID",)
        )
