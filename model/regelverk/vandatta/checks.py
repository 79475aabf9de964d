"""``check``: whether an action is allowed now, and the rule it breaks if not (in words and by
clause id); the topics' own checks are in :mod:`.playing`, :mod:`.drawing` and
:mod:`.calling`.
"""

from __future__ import annotations

from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta import citing, drawing, playing
from regelverk.vandatta.conduct import conduct_error, paused, waiting_for_absent
from regelverk.vandatta.join import join_error
from regelverk.vandatta.misdeal import misdeal_error
from regelverk.vandatta.options import GameEnd, GoOutCall, SameBreathWindow
from regelverk.vandatta.rules import call_heard
from regelverk.vandatta.state import (
    Action,
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
    State,
    StayOut,
    StepIn,
    Withdrawn,
)

__all__ = ["check", "withdrawn_too_late"]

# The readings and state members these rules ask for, bound once (see rules.py).
LEAP_DAY = GameEnd.LEAP_DAY
UTGANG = GoOutCall.UTGANG
DEAL_OVER = Phase.DEAL_OVER
PLAY = Phase.PLAY
READY = Phase.READY
START_ACE = Phase.START_ACE
START_SUIT = Phase.START_SUIT
BEFORE_TURN_PASSES = SameBreathWindow.BEFORE_TURN_PASSES


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless the rules allow ``action`` now."""
    error = _error(state, action)
    if error is not None:
        raise error


def _error(state: State, action: Action) -> IllegalActionError | None:  # noqa: PLR0911
    phase = state.phase
    if isinstance(action, Withdrawn):
        return _withdrawn_error(state, action)
    if isinstance(action, Join | StepIn | StayOut):
        return join_error(state, action)
    if isinstance(action, ReturnSurplus | Complete | Redeal):
        return misdeal_error(state, action)
    if isinstance(action, ExtraCard):
        return citing._refuse(
            "a player draws exactly the cards he is due: one card too many is a mistake",
            ("V8-PEN-OVERDRAW-ANY-DRAW",),
        )
    if not isinstance(action, Deal | LeapDay | NameSuit | Play | Draw | Pass):
        return conduct_error(state, action)
    if isinstance(action, Deal):
        if phase in (READY, DEAL_OVER):
            return None
        return citing._refuse(
            "a new deal is dealt only when the last one is over",
            citing._cite(state, ("V8-DEAL-SEVEN-ROUNDS",), ("VA-DEAL-SEVEN-CARDS",)),
        )
    if isinstance(action, LeapDay):
        if phase is DEAL_OVER and state.options.game_end is LEAP_DAY:
            return None
        return citing._refuse(
            "the scoring closes on a leap day between deals", ("V8-SESSION-LEAP-DAY-CHAMPION",)
        )
    if isinstance(action, NameSuit):
        if phase is START_SUIT and action.player == state.dealer:
            return None
        return citing._refuse(
            "only the dealer names the starting suit, on a start eight",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
        )
    if phase is START_ACE:
        return _start_ace_error(state, action)
    return _turn_error(state, _heard(state, action))


@implements("VA-START-ACE-ALL-DRAW")
def _start_ace_error(state: State, action: Play | Draw | Pass) -> IllegalActionError | None:
    """start_ace_take = may-decline (VA-AMB-START-ACE-TAKE): before play begins, the player
    whose choice it is takes his extra card (Draw) or declines it (Pass), with no call."""
    name = state.players[state.turn]
    if isinstance(action, Play) or action.call or action.player != state.turn:
        return citing._refuse(
            f"play waits until every player has taken or declined his extra card for the start "
            f"ace; it is {name}'s choice now (Draw takes it, Pass declines it)",
            ("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON"),
        )
    return None


@implements("V8-CALL-ALTERNATIVE-WORDS")
def _heard(state: State, action: Play | Draw | Pass) -> Play | Draw | Pass:
    """The action as the table hears it: a call said with a word that is no call at this table
    (accepted_calls, agreed_calls) is no call at all, and the action stands without it."""
    if (
        not action.call
        or action.word is None
        or state.options.go_out_call is not UTGANG
        or call_heard(state.options, action.word)
    ):
        return action
    return _uncalled(action)


@implements("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-SAME-BREATH-MEANING")
def _withdrawn_error(state: State, withdrawn: Withdrawn) -> IllegalActionError | None:
    """A call taken back in the same breath, before anyone has reacted, is as if never made:
    the action stands as made without it."""
    inner = withdrawn.action
    if state.options.go_out_call is not UTGANG or not inner.call:
        return citing._refuse("only an utgång call made with the action can be taken back", ())
    error = _error(state, _uncalled(inner))
    if error is None and withdrawn_too_late(state, withdrawn):
        return citing._refuse(
            f"{state.players[inner.player]} takes back his utgång only with the action that "
            "passed the turn on: too late to escape the three cards",
            ("V8-PEN-FALSE-CALL-SAME-BREATH", "V8-PEN-FALSE-CALL-SELF-REPORT"),
        )
    return error


@implements("V8-PEN-FALSE-CALL-SAME-BREATH")
def withdrawn_too_late(state: State, withdrawn: Withdrawn) -> bool:
    """Under same_breath_window = before-turn-passes (V8-AMB-SAME-BREATH-WINDOW) a false call
    taken back with the action that ends the turn comes too late: the turn has passed with it.
    (A call that had a real chance costs nothing to take back.)"""
    inner = withdrawn.action
    return (
        state.options.same_breath_window is BEFORE_TURN_PASSES and _error(state, inner) is not None
    )


def _uncalled(action: Play | Draw | Pass) -> Play | Draw | Pass:
    if isinstance(action, Play):
        return Play(player=action.player, cards=action.cards, suit=action.suit, leave=action.leave)
    if isinstance(action, Draw):
        return Draw(player=action.player)
    return Pass(player=action.player)


def _turn_error(state: State, action: Play | Draw | Pass) -> IllegalActionError | None:  # noqa: PLR0911
    if state.phase is START_SUIT:
        return citing._refuse(
            f"{state.players[state.turn]} must wait for the dealer to name the starting suit",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-FORHAND-EARLY-PENALTY"),
        )
    if state.phase is not PLAY:
        return citing._refuse(
            "nobody plays: the deal is not in progress",
            citing._cite(state, ("V8-WIN-FIRST-OUT-WINS",), ("VA-WIN-DEAL-OVER",)),
        )
    if state.away and paused(state):
        return citing._refuse(
            "fewer than two players are at the table: play pauses until someone comes back",
            ("V8-PRESENCE-PAUSE-BELOW-TWO",),
        )
    if state.away and waiting_for_absent(state):
        return citing._refuse(
            f"{state.players[state.turn]} is away: the table waits for him to come back and "
            "take his turn",
            ("V8-PRESENCE-MAY-RETURN", "V8-PRESENCE-ABSENT-NOT-ACTIVE"),
        )
    if action.player == state.turn and action.player in state.joining:
        return citing._refuse(
            f"{state.players[action.player]} has just sat down: he first takes his cards, "
            "or lets the turn go and waits for the next deal",
            ("V8-JOIN-LATE-CARDS-MOST-PLUS-ONE", "V8-JOIN-LATE-MISSED-TURN-WAIT"),
        )
    if action.player != state.turn:
        who = state.players[action.player] if 0 <= action.player < len(state.players) else "?"
        return citing._refuse(
            f"it is {state.players[state.turn]}'s turn, not {who}'s",
            citing._cite(
                state,
                ("V8-TURN-NEXT-BECOMES-SPELFORARE", "V8-TURN-CLOCKWISE"),
                ("VA-TURN-NEXT-PLAYER", "VA-TURN-CLOCKWISE"),
            ),
        )
    if isinstance(action, Play):
        return playing._play_error(state, action)
    if isinstance(action, Draw):
        return drawing._draw_error(state, action)
    return drawing._pass_error(state, action)
