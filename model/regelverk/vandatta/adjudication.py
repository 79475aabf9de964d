"""``apply``: check, then carry out an action. :func:`_perform` is the unchecked step that
``apply`` runs after the check; it is private and must only ever see an action that
:func:`~regelverk.vandatta.checks.check` has accepted.
"""

from __future__ import annotations

from regelverk.engine import Outcome
from regelverk.marks import implements
from regelverk.records import builder
from regelverk.vandatta import checks, drawing, listing, playing, turns
from regelverk.vandatta.conduct import perform_conduct
from regelverk.vandatta.early import resolve_early
from regelverk.vandatta.join import perform_join, perform_joining, seat_in
from regelverk.vandatta.misdeal import perform_misdeal
from regelverk.vandatta.options import AbsentTurn
from regelverk.vandatta.rules import RESTART_NONE, drawn_deal_clauses
from regelverk.vandatta.scoring import champions_at_leap_day, end_match, finish_deal
from regelverk.vandatta.setup import (
    deal_hands,
    play_deal,
    start_ace_choice,
    start_suit,
    turn_start_card,
)
from regelverk.vandatta.state import (
    Action,
    Back,
    Complete,
    Deal,
    Draw,
    ExtraCard,
    Join,
    LeapDay,
    NameSuit,
    Pass,
    Phase,
    Play,
    Redeal,
    ReturnSurplus,
    SayUtgang,
    Stall,
    State,
    StayOut,
    StepAway,
    StepIn,
    Withdrawn,
)
from regelverk.vandatta.table import Table

__all__ = ["apply"]

# The readings and state members these rules ask for, bound once (see rules.py).
PLAY = Phase.PLAY
START_ACE = Phase.START_ACE
START_SUIT = Phase.START_SUIT


def apply(state: State, action: Action) -> Outcome[State]:
    """Check ``action``, then carry it out: the next state and the events, with their clauses.

    An action object :func:`legal_actions` has just listed for this state object has been
    judged already (:class:`~regelverk.engine.Listed`); any other action is checked now."""
    if not listing._LISTED.listed(state, action):
        checks.check(state, action)
    return _perform(state, action)


def _perform(state: State, action: Action) -> Outcome[State]:  # noqa: PLR0912
    """Carry out an action that :func:`check` has accepted (unchecked: private)."""
    kind = type(action)
    if (
        (kind is Play or kind is Draw or kind is Pass)
        and state.phase is PLAY
        and (not action.call or action.word is None)  # type: ignore[union-attr]
    ):
        return _perform_move(state, action)  # type: ignore[arg-type]
    if isinstance(action, Join):
        state = seat_in(state, action)
    table = Table.of(state)
    if isinstance(action, Withdrawn):
        action = checks._uncalled(action.action)
        table.say(
            "withdrawn",
            f"{table.name(action.player)} takes back his utgång in the same breath: no penalty",
            ("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING"),
            action.player,
        )
    if isinstance(action, Deal):
        play_deal(table)
    elif isinstance(action, NameSuit):
        start_suit(table, action.suit)
        if table.early:
            resolve_early(table, playing._play, _fits)
    elif isinstance(action, LeapDay):
        _leap_day(table)
    elif isinstance(action, Draw | Pass) and state.phase is START_ACE:
        start_ace_choice(table, isinstance(action, Draw))
    elif isinstance(action, Play | Draw | Pass) and checks._heard(state, action) is not action:
        _perform_unheard(table, action)
    elif isinstance(action, Play):
        playing._play(table, action)
    elif isinstance(action, Draw):
        drawing._draw(table, action)
    elif isinstance(action, Pass):
        drawing._pass(table, action)
    elif isinstance(action, Join):
        perform_join(table, action)
    elif isinstance(action, StepIn | StayOut):
        perform_joining(table, action, turns._pass_on)
    elif isinstance(action, ReturnSurplus | Complete | Redeal):
        perform_misdeal(table, action, turn_start_card, deal_hands)
    elif isinstance(action, Stall):
        _choice_lapses(table, action)
    elif not isinstance(action, ExtraCard | SayUtgang):  # never allowed, never carried out
        perform_conduct(table, action)
        if isinstance(action, StepAway) and action.player == state.turn:
            _away_mid_turn(table, action.player)
        elif isinstance(action, Back) and table.phase is PLAY and table.turn in table.away:
            _turn_to_the_returner(table, action.player)
    _end_if_drawn(table)
    return Outcome(state=table.freeze(), events=tuple(table.events))


@implements("V8-START-EIGHT-NO-STALLING", "V8-START-EIGHT-DEFAULT-SUIT")
def _choice_lapses(table: Table, stall: Stall) -> None:
    """stalling = table-limit: the dealer has kept the table waiting the agreed limit or longer,
    so his choice of suit lapses and the start eight is treated as if he had named no suit
    (start_eight_no_choice decides what förhand may then lay)."""
    limit = table.options.stalling_limit_seconds
    table.say(
        "stalled",
        f"{table.name(stall.player)} has kept the table waiting {stall.seconds} s, the table's "
        f"limit being {limit} s: his choice of suit lapses",
        ("V8-START-EIGHT-NO-STALLING",),
        stall.player,
    )
    start_suit(table, None)
    if table.early:
        resolve_early(table, playing._play, _fits)


def _perform_move(state: State, action: Play | Draw | Pass) -> Outcome[State]:
    """:func:`_perform` for a move of play in a deal in progress, heard as said (no call, or
    the text's own word): what most actions of a deal are, without asking what else it is."""
    table = Table.of(state)
    if isinstance(action, Play):
        playing._play(table, action)
    elif isinstance(action, Draw):
        drawing._draw(table, action)
    else:
        drawing._pass(table, action)
    _end_if_drawn(table)
    return _OUTCOME(state=table.freeze(), events=tuple(table.events))


_OUTCOME = builder(Outcome)
"""Builds an :class:`~regelverk.engine.Outcome` from the state and the events."""


def _end_if_drawn(table: Table) -> None:
    """A deal still in play whose talon has been gone through the limit number of times ends
    drawn (the clauses :func:`drawn_deal_clauses` names for these options)."""
    if table.drawn_deal and table.phase in (PLAY, START_SUIT):
        finish_deal(
            table,
            None,
            "The talon has been gone through the limit number of times: the deal is drawn",
            drawn_deal_clauses(table.options),
        )


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-CALL-FORFEITED-IF-ABSENT")
def _away_mid_turn(table: Table, seat: int) -> None:
    """step_away_own_turn = ends-turn (V8-AMB-STEP-AWAY-OWN-TURN): the spelförare who steps
    away ends his turn there, draws or no draws; a standing utgång of his is forfeited."""
    clauses: tuple[str, ...] = ("V8-PRESENCE-ABSENT-TURN-SKIPPED",)
    text = f"{table.name(seat)} steps away in his own turn: the turn ends there"
    if seat in table.calls:
        table.calls = table.calls - {seat}
        clauses += ("V8-CALL-FORFEITED-IF-ABSENT",)
        text += " and his utgång is forfeited"
    table.say("away-mid-turn", text, clauses, seat)
    turns._end_turn(table, seat, call=False, laid=table.base.restart is not RESTART_NONE)


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN")
def _turn_to_the_returner(table: Table, seat: int) -> None:
    """The turn rests with an absent player only when nobody who takes part was left at the
    table to pass it to (under absent_turn = skip; the last spelförare there stepped away and
    his turn ended, under step_away_own_turn = ends-turn). The first player to come back is
    then the next present player: the turn passes over the absent ones to him."""
    if table.options.absent_turn is AbsentTurn.WAIT:
        return
    holder = table.turn
    turns._skip_absent(table, holder, seat)
    table.say(
        "turn",
        f"{table.name(seat)} is the first back at the table: the turn passes to him",
        ("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN"),
        seat,
    )
    table.turn, table.draws, table.restart = seat, 0, RESTART_NONE


def _perform_unheard(table: Table, action: Play | Draw | Pass) -> None:
    """A call said with a word that is no call at this table: the action without it."""
    table.say(
        "no-call",
        f"{table.name(action.player)} says {action.word!r}, which is no going-out call at this "
        "table: no call is made",
        ("V8-CALL-ALTERNATIVE-WORDS",),
        action.player,
    )
    inner = checks._uncalled(action)
    if isinstance(inner, Play):
        playing._play(table, inner)
    elif isinstance(inner, Draw):
        drawing._draw(table, inner)
    else:
        drawing._pass(table, inner)


def _leap_day(table: Table) -> None:
    champions = champions_at_leap_day(table.record, table.options.scoring)
    names = " and ".join(table.name(s) for s in champions)
    end_match(
        table,
        champions,
        f"Leap day: the scoring closes; champion: {names}",
        ("V8-SESSION-LEAP-DAY-CHAMPION", "V8-SCORING-WIN-LOSS-TALLY"),
    )


def _fits(state: State, play: Play) -> bool:
    return checks._error(state, play) is None
