"""Drawing from the talon and passing: when a player may or must draw or pass, and what
happens when he does.
"""

from __future__ import annotations

import enum

from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta import calling, citing, talon, turns
from regelverk.vandatta.options import (
    AfterThreeDraws,
    DrawnCard,
    GoOutCall,
    LappenPenalty,
    PlayAfterThirdDraw,
    VoluntaryDraw,
)
from regelverk.vandatta.rules import (
    LAPPEN,
    RESTART_NONE,
    can_draw_any,
    draws_left,
    first_fits,
    has_play,
    is_ace,
    is_eight,
    stuck,
)
from regelverk.vandatta.state import Draw, Pass, State
from regelverk.vandatta.table import Table

__all__: list[str] = []

# The readings and state members these rules ask for, bound once (see rules.py).
PASS_FREE_LEAD = AfterThreeDraws.PASS_FREE_LEAD
MAY_KEEP = DrawnCard.MAY_KEEP
UTGANG = GoOutCall.UTGANG
DRAW_THEN_PENALTY = LappenPenalty.DRAW_THEN_PENALTY
PENALTY_THEN_PLAY = LappenPenalty.PENALTY_THEN_PLAY
THIRD_DRAW_ENDS_TURN = PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
ONLY_WHEN_STUCK = VoluntaryDraw.ONLY_WHEN_STUCK


class _DrawFault(enum.Enum):
    """Why a draw may not be made (:func:`_draw_fault`); :func:`_draw_error` says it in words."""

    NO_DRAWS_LEFT = "no-draws-left"
    NO_STOCK = "no-stock"
    NOT_STUCK = "not-stuck"
    CALL_BEFORE_TURN_ENDS = "call-before-turn-ends"


CALL_BEFORE_TURN_ENDS = _DrawFault.CALL_BEFORE_TURN_ENDS


NOT_STUCK = _DrawFault.NOT_STUCK


NO_DRAWS_LEFT = _DrawFault.NO_DRAWS_LEFT


NO_STOCK = _DrawFault.NO_STOCK


@implements("V8-DRAW-MAX-THREE", "VA-DRAW-MAX-THREE", "VA-DRAW-WHEN-STUCK")
def _draw_fault(
    state: State, draw: Draw, is_stuck: bool | None = None
) -> _DrawFault | calling._CallFault | None:
    """At most three draws a turn, and (vandatta) only when no card can be laid (``is_stuck``:
    :func:`stuck` for this state, if known already); a call said with the draw is judged on the
    hand with the card drawn."""
    if draws_left(state) <= 0:
        return NO_DRAWS_LEFT
    if not can_draw_any(state):
        return NO_STOCK
    if not (stuck(state) if is_stuck is None else is_stuck):
        return NOT_STUCK
    if draw.call:
        if not _draw_ends_turn(state):
            return CALL_BEFORE_TURN_ENDS
        return calling._call_fault(state, (*state.hands[draw.player], state.stock[-1]))
    return None


def _draw_error(state: State, draw: Draw) -> IllegalActionError | None:
    """What is wrong with a draw (:func:`_draw_fault`), in words and clauses; None if nothing."""
    fault = _draw_fault(state, draw)
    if fault is None:
        return None
    name = state.players[draw.player]
    if fault is NO_DRAWS_LEFT:
        return citing._refuse(
            f"{name} has drawn three cards: he may draw no more this turn",
            citing._cite(state, ("V8-DRAW-MAX-THREE",), ("VA-DRAW-MAX-THREE",)),
        )
    if fault is NO_STOCK:
        return citing._refuse(
            "the stock is empty and no new stock can be made",
            citing._cite(state, ("V8-TALON-REBUILD-DURING-ANY-DRAW",), ("VA-DRAW-STOCK-REBUILD",)),
        )
    if fault is NOT_STUCK:
        return citing._refuse(
            f"{name} can lay a card, so he may not draw", _not_stuck_clauses(state, draw.player)
        )
    if fault is CALL_BEFORE_TURN_ENDS:
        return citing._refuse(
            "the call is made as the turn ends, and this draw does not end it",
            citing._cite(state, ("V8-CALL-TIMING",), ("VA-CALL-LAPPEN",)),
        )
    return calling._call_error(state, (*state.hands[draw.player], state.stock[-1]))


def _not_stuck_clauses(state: State, seat: int) -> tuple[str, ...]:
    """The clauses of a draw refused because a card can be laid, with the rule that lets the
    card laid be played again on (an ace, an eight) where one of those is what fits."""
    clauses: tuple[str, ...] = ("VA-DRAW-WHEN-STUCK", "VA-EIGHT-WHEN-STUCK", "VA-DRAW-PLAY-DRAWN")
    fits = [c for c in state.hands[seat] if first_fits(state, c)]
    if any(is_ace(c) for c in fits):
        clauses += ("VA-ACE-SAME-PLAYER-AGAIN",)
    if any(is_eight(c) for c in fits):
        clauses += ("VA-EIGHT-SAME-PLAYER-RESTARTS",)
    return clauses


def _stuck_with_an_ace(state: State, seat: int) -> bool:
    """vandatta: the player holds an ace he may not lay here (VA-ACE-SAME-SUIT), so that the
    ace rule is what leaves him to draw or pass."""
    return any(is_ace(c) and not first_fits(state, c) for c in state.hands[seat])


def _draw_ends_turn(state: State) -> bool:
    return (
        state.options.play_after_third_draw is THIRD_DRAW_ENDS_TURN
        and draws_left(state) == 1
        and bool(state.stock)
    )


@implements("V8-DRAW-STOP-WHEN-PLAYING", "VA-DRAW-PLAY-DRAWN")
def _may_pass(state: State, is_stuck: bool | None = None) -> bool:
    """The turn passes without a card laid only after the draws: a player draws until he can
    and will play (vvv8), or until a drawn card can be laid, which he then lays (vandatta).
    ``is_stuck``: :func:`stuck` for this state, if known already."""
    if state.options.voluntary_draw is ONLY_WHEN_STUCK:
        if state.options.drawn_card is MAY_KEEP and state.draws > 0:
            return True
        if not (stuck(state) if is_stuck is None else is_stuck):
            return False
    return draws_left(state) <= 0 or not can_draw_any(state)


@implements(
    "V8-TURN-PASS-AFTER-THREE-DRAWS",
    "VA-DRAW-PASS-AFTER-THREE",
    "V8-DRAW-WHEN-NOT-PLAYING",
    "VA-TURN-RESTART-FALLBACK",
)
def _pass_error(state: State, action: Pass) -> IllegalActionError | None:
    name = state.players[action.player]
    if not _may_pass(state):
        if stuck(state):
            return citing._refuse(
                f"{name} must draw (up to three cards) before the turn passes",
                citing._cite(
                    state,
                    (
                        "V8-DRAW-WHEN-NOT-PLAYING",
                        "V8-DRAW-STOP-WHEN-PLAYING",
                        "V8-TURN-PASS-AFTER-THREE-DRAWS",
                    ),
                    ("VA-DRAW-WHEN-STUCK", "VA-DRAW-PASS-AFTER-THREE", "VA-DRAW-MAX-THREE"),
                ),
            )
        return citing._refuse(
            f"{name} can lay a card and must lay it",
            ("VA-DRAW-PLAY-DRAWN", "VA-EIGHT-WHEN-STUCK", "VA-DRAW-WHEN-STUCK"),
        )
    if action.call:
        return calling._call_error(state, state.hands[action.player])
    return None


def _draw(table: Table, draw: Draw) -> None:
    seat = draw.player
    state = table.base
    if (
        seat in table.calls
        and table.options.go_out_call is LAPPEN
        and table.options.lappen_penalty is not DRAW_THEN_PENALTY
        and state.restart is RESTART_NONE
        and state.draws == 0
    ):
        calling._lappen_penalty(table, seat)
        if table.options.lappen_penalty is PENALTY_THEN_PLAY:
            _penalty_then_play(table, seat)
            return
        turns._end_turn(table, seat, call=False, laid=False)
        return
    card = talon.draw_one(table, seat, own=True)
    table.draws += 1
    table.idle = 0
    utgang = table.options.go_out_call is UTGANG
    clauses: tuple[str, ...] = (
        ("V8-DRAW-WHEN-NOT-PLAYING", "V8-DRAW-MAX-THREE", "V8-DRAW-NOT-OBLIGED-TO-PLAY")
        if (utgang)
        else ("VA-DRAW-WHEN-STUCK", "VA-DRAW-MAX-THREE")
    )
    if state.restart is not RESTART_NONE and not utgang:
        clauses += ("VA-TURN-RESTART-FALLBACK",)
    if not utgang:
        if _stuck_with_an_ace(state, seat):
            clauses += ("VA-ACE-SAME-SUIT",)
        if len(table.hands[seat]) == table.options.varning_cards:
            clauses += ("VA-CALL-VARNING",)  # a count varning_trigger may call varning at
    table.say(
        "draw",
        f"{table.name(seat)} draws a card ({table.draws} this turn)",
        clauses,
        seat,
        (card,) if card is not None else (),
    )
    if table.draws >= table.options.max_draws and _draw_ends_turn(state) and not table.drawn_deal:
        dead = table.options.after_three_draws is PASS_FREE_LEAD and not has_play(table.freeze())
        turns._end_turn(table, seat, call=draw.call, laid=False, dead=dead)
        return
    calling._varning_reached(table, [seat])


@implements("VA-PENALTY-LAPPEN-FAILED", "VA-DRAW-MAX-THREE")
def _penalty_then_play(table: Table, seat: int) -> None:
    """VA-AMB-LAPPEN-PENALTY-DRAW = penalty-then-play: the penalty cards stand for his draws
    (none are left), and the turn goes on: he may lay a card that fits, by the ordinary rules of
    a player who has drawn all he may (under drawn_card = must-play a card that can be laid is
    laid), or else the turn passes."""
    table.draws = table.options.max_draws
    table.idle = 0
    table.say(
        "penalty-then-play",
        f"{table.name(seat)} may now lay one of his penalty cards if it fits",
        ("VA-PENALTY-LAPPEN-FAILED", "VA-DRAW-MAX-THREE"),
        seat,
    )
    calling._varning_reached(table, [seat])


def _pass(table: Table, action: Pass) -> None:
    seat = action.player
    state = table.base
    laid = state.restart is not RESTART_NONE
    if state.draws == 0 and not laid:
        table.idle += 1
    utgang = table.options.go_out_call is UTGANG
    clauses: tuple[str, ...] = (
        ("V8-TURN-PASS-AFTER-THREE-DRAWS",) if utgang else ("VA-DRAW-PASS-AFTER-THREE",)
    )
    if laid and not utgang:
        clauses += ("VA-TURN-RESTART-FALLBACK",)
    if not utgang:
        clauses += _vandatta_pass_clauses(state, seat)
    table.say("pass", f"{table.name(seat)} ends his turn without laying a card", clauses, seat)
    dead = (
        table.options.after_three_draws is PASS_FREE_LEAD
        and state.draws >= table.options.max_draws
        and not has_play(state)
    )
    turns._end_turn(table, seat, call=action.call, laid=laid, dead=dead)


def _vandatta_pass_clauses(state: State, seat: int) -> tuple[str, ...]:
    """What else decides a vandatta pass: the draws he had (VA-DRAW-MAX-THREE), an ace he may
    not lay (VA-ACE-SAME-SUIT), a stock that can give nothing (VA-DRAW-STOCK-REBUILD), and a
    pass before the last draw with a drawn card kept (drawn_card = may-keep)."""
    clauses: tuple[str, ...] = ("VA-DRAW-MAX-THREE",)
    if _stuck_with_an_ace(state, seat):
        clauses += ("VA-ACE-SAME-SUIT",)
    if not can_draw_any(state):
        clauses += ("VA-DRAW-STOCK-REBUILD",)
    if state.options.drawn_card is MAY_KEEP and 0 < state.draws < state.options.max_draws:
        clauses += ("VA-DRAW-PLAY-DRAWN", "VA-DRAW-WHEN-STUCK")
    return clauses
