"""vvv8 at a real table: players stepping away and coming back, remarks, looking back through
the pile, forgotten ace cards for absent players, hidden bundles and the callers' veto.

``conduct_error`` says what is wrong with such an action (``None``: it is allowed);
``perform_conduct`` carries out an allowed one on a scratch table. The penalties for the ones
that are mistakes are given by :mod:`regelverk.vandatta.attempts`.
"""

from __future__ import annotations

import dataclasses

from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta.options import (
    AbsentTurn,
    BelowTwoActive,
    CommentOwnHand,
    FalseCallDetection,
    LookBackDepth,
    Penalties,
    Stalling,
    StepAwayOwnTurn,
    VetoCallers,
    VetoLimit,
    VetoScope,
)
from regelverk.vandatta.penalty import penalise
from regelverk.vandatta.rules import card_count, is_ace, seats_after
from regelverk.vandatta.state import (
    AskCount,
    Back,
    ForgetAbsentCard,
    HideBundle,
    LookBack,
    Phase,
    Remark,
    RemarkKind,
    RevealCall,
    SayUtgang,
    Stall,
    State,
    StepAway,
    Veto,
)
from regelverk.vandatta.table import Table

__all__ = [
    "Conduct",
    "absent_card_taker",
    "active_seats",
    "conduct_error",
    "forgetting_possible",
    "paused",
    "perform_conduct",
    "wait_for_absent",
    "waiting_for_absent",
]

Conduct = (
    StepAway
    | Back
    | Remark
    | LookBack
    | ForgetAbsentCard
    | HideBundle
    | Veto
    | RevealCall
    | AskCount
    | SayUtgang
    | Stall
)
"""The actions of this module."""


def active_seats(state: State) -> int:
    """Players taking part and present (V8-PRESENCE-ABSENT-NOT-ACTIVE)."""
    return sum(
        1
        for s in range(len(state.players))
        if s not in state.record.out and s not in state.away and s not in state.benched
    )


@implements("V8-PRESENCE-PAUSE-BELOW-TWO", "V8-PRESENCE-MAY-DROP-TO-TWO")
def paused(state: State) -> bool:
    """Play pauses while fewer than two players are active (below_two_active = pause); down to
    two it goes on."""
    return (
        state.phase is Phase.PLAY
        and bool(state.away)
        and state.options.below_two_active is BelowTwoActive.PAUSE
        and active_seats(state) < 2
    )


def _refuse(message: str, clauses: tuple[str, ...]) -> IllegalActionError:
    return IllegalActionError(message, clauses)


def waiting_for_absent(state: State) -> bool:
    """absent_turn = wait (V8-AMB-ABSENT-PLAYER-TURN): the turn is with a player who is away,
    and the table waits for him; the only thing that can happen meanwhile is a player coming
    back (the spelförare himself, or anyone else who is away)."""
    return (
        state.phase is Phase.PLAY
        and state.options.absent_turn is AbsentTurn.WAIT
        and state.turn in state.away
    )


@implements("V8-CALL-FORFEITED-IF-ABSENT", "V8-PRESENCE-MAY-RETURN")
def wait_for_absent(table: Table, seat: int) -> None:
    """absent_turn = wait: the turn has reached ``seat``, who is away; the table waits for him
    to come back and take his turn. A standing call of his is lost all the same, since he was
    away when his turn as spelförare came (V8-CALL-FORFEITED-IF-ABSENT)."""
    clauses: tuple[str, ...] = ("V8-PRESENCE-MAY-RETURN",)
    text = f"{table.name(seat)} is away: the table waits for him to come back and play"
    if seat in table.calls:
        table.calls = table.calls - {seat}
        clauses += ("V8-CALL-FORFEITED-IF-ABSENT",)
        text += "; his utgång is forfeited"
    table.say("waiting", text, clauses, seat)


def conduct_error(state: State, action: Conduct) -> IllegalActionError | None:  # noqa: PLR0911
    """What is wrong with ``action``, if anything."""
    if not 0 <= action.player < len(state.players):
        return _refuse(f"there is no seat {action.player}", ())
    if action.player in state.benched:
        return _refuse(
            f"{state.players[action.player]} sat down late and takes no part in this deal yet",
            ("V8-JOIN-DRAW-GIVES-EQUAL-TERMS",),
        )
    if isinstance(action, StepAway | Back):
        return _presence_error(state, action)
    if state.options.penalties is not Penalties.BROTT_OCH_STRAFF:
        return _refuse(
            "this rulebook has no rules on remarks, looking back, vetoes, utgång said on its "
            "own or a slow choice of suit at the table",
            (),
        )
    if isinstance(action, SayUtgang):
        return _say_utgang_error(state, action)
    if isinstance(action, Stall):
        return _stall_error(state, action)
    if isinstance(action, Remark):
        return _remark_error(state, action)
    if isinstance(action, LookBack):
        return _look_back_error(state, action)
    if isinstance(action, ForgetAbsentCard):
        return _forgotten_error(state, action)
    if isinstance(action, HideBundle):
        return _refuse(
            f"{state.players[action.player]} must show every card he lays, not only the top one",
            ("V8-PLAY-NO-HIDDEN-BUNDLE", "V8-PLAY-SHOW-EVERY-CARD"),
        )
    if isinstance(action, RevealCall):
        return _reveal_error(state, action)
    if isinstance(action, AskCount):
        return _ask_error(state, action)
    return _veto_error(state, action)


@implements("V8-CALL-TIMING", "V8-CALL-ACE-DRAW-NOT-SPELFORARE")
def _say_utgang_error(state: State, say: SayUtgang) -> IllegalActionError:
    """Utgång said on its own is never a call: the spelförare says it with the play, draw or
    pass that ends his turn (V8-CALL-TIMING); anyone else is not spelförare, not even while he
    draws a card for another's ace (V8-CALL-ACE-DRAW-NOT-SPELFORARE). The text names no
    penalty for it: the word simply does not count."""
    name = state.players[say.player]
    if state.phase is not Phase.PLAY:
        return _refuse(f"{name} says utgång, but no deal is being played", ("V8-CALL-TIMING",))
    if say.player == state.turn:
        return _refuse(
            f"{name} says utgång on its own: the call is said with the play or pass that ends "
            "his turn as spelförare, and counts only then",
            ("V8-CALL-TIMING",),
        )
    spelforare = state.players[state.turn]
    text = (
        f"{name}'s utgång is no call: only the spelförare calls, as his turn ends, and the "
        f"turn is {spelforare}'s"
    )
    clauses: tuple[str, ...] = ("V8-CALL-TIMING",)
    if state.pile and is_ace(state.pile[-1]):
        text += f"; drawing a card for {spelforare}'s ace does not make {name} spelförare"
        clauses += ("V8-CALL-ACE-DRAW-NOT-SPELFORARE",)
    return _refuse(f"{text}. His next turn needs a call of its own", clauses)


@implements("V8-START-EIGHT-NO-STALLING")
def _stall_error(state: State, stall: Stall) -> IllegalActionError | None:
    """The dealer ought not to delay his choice of suit unsportingly; the text sets no limit
    and no sanction, so the choice stays his however long he takes (stalling = no-limit).
    Under stalling = table-limit a wait of the table's limit or longer is allowed to end the
    choice: it lapses as if he had named no suit (carried out with the start suit)."""
    name = state.players[stall.player]
    if state.phase is not Phase.START_SUIT:
        return _refuse(
            f"nobody is waiting for a choice of suit: {name} cannot stall one",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
        )
    if stall.player != state.dealer:
        return _refuse(
            f"{name} is not the dealer: only the dealer chooses the starting suit",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
        )
    options = state.options
    limit = options.stalling_limit_seconds
    if options.stalling is Stalling.TABLE_LIMIT and stall.seconds >= limit:
        return None
    text = (
        f"{name} has kept the table waiting {stall.seconds} s for the starting suit: the "
        "dealer ought not to delay his choice unsportingly, but "
    )
    if options.stalling is Stalling.TABLE_LIMIT:
        text += f"the table's limit of {limit} s has not passed"
    else:
        text += "the text sets no time limit and no sanction"
    forhand = state.players[state.turn]
    return _refuse(
        f"{text}; the choice is still his, and {forhand} must wait for it",
        (
            "V8-START-EIGHT-NO-STALLING",
            "V8-START-EIGHT-DEALER-NAMES-SUIT",
            "V8-START-EIGHT-FORHAND-EARLY-PENALTY",
        ),
    )


def _other_seat_error(state: State, seat: int, what: str) -> IllegalActionError | None:
    if not 0 <= seat < len(state.players):
        return _refuse(f"there is no seat {seat} to {what}", ())
    if state.phase is not Phase.PLAY:
        return _refuse(f"a player {what} only while a deal is being played", ())
    return None


@implements("V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT")
def _reveal_error(state: State, reveal: RevealCall) -> IllegalActionError | None:
    """Under false_call_detection = when-revealed a false utgång not yet punished may be caught
    by anyone at the table, or owned up to by the caller, until it lapses."""
    error = _other_seat_error(state, reveal.caller, "catch out")
    if error is not None:
        return error
    if state.options.false_call_detection is not FalseCallDetection.WHEN_REVEALED:
        return _refuse(
            "at this table a false utgång is penalised as it is made: there is none to catch",
            ("V8-PEN-FALSE-CALL-CAUGHT",),
        )
    if reveal.player in state.away:
        return _refuse(f"{state.players[reveal.player]} is away from the table", ())
    if reveal.caller not in state.false_calls:
        return _refuse(
            f"{state.players[reveal.caller]} has no unpunished utgång made without a real "
            "chance of going out",
            ("V8-PEN-FALSE-CALL-CAUGHT", "V8-CALL-ONLY-WITH-REAL-CHANCE"),
        )
    return None


@implements("V8-CALL-CARD-COUNT-ON-DEMAND")
def _ask_error(state: State, ask: AskCount) -> IllegalActionError | None:
    """Anyone may ask a player whose utgång stands how many cards he has left."""
    error = _other_seat_error(state, ask.caller, "ask")
    if error is not None:
        return error
    if ask.caller not in state.calls:
        return _refuse(
            f"{state.players[ask.caller]} has no standing utgång: only a caller owes his count",
            ("V8-CALL-CARD-COUNT-ON-DEMAND",),
        )
    return None


@implements("V8-PRESENCE-ABSENT-TURN-SKIPPED", "V8-PRESENCE-MAY-RETURN")
def _presence_error(state: State, action: StepAway | Back) -> IllegalActionError | None:  # noqa: PLR0911
    """Anyone but the spelförare may step away during play; an absent player may come back."""
    name = state.players[action.player]
    if not state.options.presence:
        return _refuse("this rulebook has no rules for players stepping away", ())
    if isinstance(action, Back):
        if action.player in state.away:
            return None
        return _refuse(f"{name} is not away", ("V8-PRESENCE-MAY-RETURN",))
    if state.phase is not Phase.PLAY:
        return _refuse(
            "players step away during the play of a deal", ("V8-PRESENCE-ABSENT-TURN-SKIPPED",)
        )
    if action.player in state.away or action.player in state.record.out:
        return _refuse(f"{name} is not at the table", ("V8-PRESENCE-ABSENT-TURN-SKIPPED",))
    if (
        action.player == state.turn
        and state.options.step_away_own_turn is StepAwayOwnTurn.FORBIDDEN
    ):
        return _refuse(
            f"{name} is spelförare: nobody steps away in the middle of his own turn",
            ("V8-PRESENCE-ABSENT-TURN-SKIPPED",),
        )
    return None


@implements(
    "V8-PEN-COMMENT-OFFENCE",
    "V8-PEN-COMMENT-OBVIOUS-ALLOWED",
    "V8-PEN-COMMENT-TRUTH-IRRELEVANT",
    "V8-PEN-COMMENT-AFTER-TURN-FORBIDDEN",
    "V8-PEN-COMMENT-HISTORY-FORBIDDEN",
    "V8-PEN-COMMENT-CARDS-GONE-FORBIDDEN",
)
def _remark_error(state: State, remark: Remark) -> IllegalActionError | None:
    """Remarks that may tell anyone about a hand, the spelförare's past or the cards gone are
    offences, true or not; the obvious said during its own turn, and remarks that tell nothing,
    are not (comment_own_hand decides remarks on one's own hand)."""
    kind, name = remark.kind, state.players[remark.player]
    truth = ("V8-PEN-COMMENT-TRUTH-IRRELEVANT",)
    if kind is RemarkKind.NEUTRAL:
        return None
    if kind is RemarkKind.OBVIOUS:
        return None
    if kind is RemarkKind.OWN_HAND and (
        state.options.comment_own_hand is CommentOwnHand.OTHERS_ONLY
    ):
        return None
    what = {
        RemarkKind.OBVIOUS_LATE: (
            "once the turn has passed on, no remark may tell anything about a hand",
            ("V8-PEN-COMMENT-AFTER-TURN-FORBIDDEN", "V8-PEN-COMMENT-OFFENCE"),
        ),
        RemarkKind.OTHER_HAND: (
            "a remark may not tell what another player holds or lacks",
            ("V8-PEN-COMMENT-OFFENCE",),
        ),
        RemarkKind.OWN_HAND: (
            "a remark may not tell what a player holds, his own hand included",
            ("V8-PEN-COMMENT-OFFENCE",),
        ),
        RemarkKind.HISTORY: (
            "a remark may not tell about the spelförare's past turns",
            ("V8-PEN-COMMENT-HISTORY-FORBIDDEN",),
        ),
        RemarkKind.CARDS_GONE: (
            "a remark may not tell which cards have gone",
            ("V8-PEN-COMMENT-CARDS-GONE-FORBIDDEN",),
        ),
    }
    text, clauses = what[kind]
    return _refuse(f"{name}'s remark is forbidden: {text}, true or not", clauses + truth)


@implements(
    "V8-PEN-LOOK-BACK",
    "V8-PEN-LOOK-BACK-PREVIOUS-PLAYER-ALLOWED",
    "V8-PEN-LOOK-BACK-CHECK-BUNDLE-EXEMPT",
    "V8-PLAY-HIDDEN-BUNDLE-NO-OWN-PENALTY",
)
def _look_back_error(state: State, look: LookBack) -> IllegalActionError | None:
    """Looking back through the pile is an offence, except down to the top card of the player
    before (look_back_depth) and when checking a bundle laid with only its top card shown."""
    name = state.players[look.player]
    if look.cards < 0 or look.latest_play < 1:
        return _refuse("a look back sees zero or more cards of a play of one or more", ())
    if look.cards >= len(state.pile):
        return _refuse(f"the pile has only {len(state.pile)} cards", ())
    if look.checking_bundle:
        return None
    allowed = 1 if state.options.look_back_depth is LookBackDepth.ONE_CARD else look.latest_play
    if look.cards <= allowed:
        return None
    return _refuse(
        f"{name} may look back {allowed} card(s), to the top card of the player before, "
        f"not {look.cards}",
        ("V8-PEN-LOOK-BACK", "V8-PEN-LOOK-BACK-PREVIOUS-PLAYER-ALLOWED"),
    )


def absent_card_taker(state: State, absent: int) -> int | None:
    """The player who had to take ``absent``'s card for the ace on top of the pile: the first
    present player whose draw follows the absent one's, the draws starting on the left of the
    spelförare, who laid the ace and plays again on it. ``None`` when no ace lies on top (no
    card is owed to anyone) or nobody present draws after him."""
    top = state.top
    if state.phase is not Phase.PLAY or top is None or not is_ace(top):
        return None
    others = seats_after(len(state.players), state.turn, state.record.out | state.benched)
    if absent not in others:
        return None
    after = others[others.index(absent) + 1 :]
    return next((o for o in after if o not in state.away), None)


@implements("V8-ACE-NEXT-GIVES-ABSENT-CARD", "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN")
def _forgotten_error(state: State, forgot: ForgetAbsentCard) -> IllegalActionError | None:
    """Forgetting an absent player's card for an ace is a mistake only of the player whose draw
    follows the absent one's, and only while an ace's draws are what was just done; any other
    forgetting cannot have happened and is simply refused."""
    if forgot.absent not in state.away:
        return _refuse(
            f"{state.players[forgot.absent] if 0 <= forgot.absent < len(state.players) else '?'}"
            " is not away",
            ("V8-ACE-NEXT-GIVES-ABSENT-CARD",),
        )
    if not forgetting_possible(state, forgot):
        top = state.top
        why = (
            "no ace has been laid, so no card is owed to him"
            if state.phase is not Phase.PLAY or top is None or not is_ace(top)
            else "only the player whose draw follows his takes his card for the ace"
        )
        return _refuse(
            f"{state.players[forgot.player]} cannot have forgotten "
            f"{state.players[forgot.absent]}'s card: {why}",
            ("V8-ACE-NEXT-GIVES-ABSENT-CARD",),
        )
    return _refuse(
        f"{state.players[forgot.player]} had to take {state.players[forgot.absent]}'s card for "
        "the ace while he is away",
        ("V8-ACE-NEXT-GIVES-ABSENT-CARD", "V8-PEN-ABSENT-ACE-CARD-FORGOTTEN"),
    )


def forgetting_possible(state: State, forgot: ForgetAbsentCard) -> bool:
    """Whether ``forgot.player`` is the one who had to take the absent player's card for the
    ace just laid (V8-ACE-NEXT-GIVES-ABSENT-CARD), so that his forgetting it is a mistake."""
    return forgot.absent in state.away and absent_card_taker(state, forgot.absent) == forgot.player


@implements("V8-PEN-VETO-RIGHT", "V8-PEN-VETO-CONDITION")
def _veto_error(state: State, veto: Veto) -> IllegalActionError | None:
    """A player with a standing utgång call may veto penalty cards just taken by another
    (which ones penalise.penalise offers: veto_scope, veto_limit); never his own."""
    name = state.players[veto.player]
    if state.vetoable is None:
        return _refuse("no penalty cards have just been taken that a veto could stop", ())
    if veto.player == state.vetoable[0]:
        return _refuse(
            f"{name} cannot veto his own penalty cards: a veto is against another player's mistake",
            ("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT"),
        )
    if veto.player not in state.calls:
        return _refuse(
            f"{name} has not called utgång: only callers may veto", ("V8-PEN-VETO-RIGHT",)
        )
    if veto.player not in state.may_veto:
        return _refuse(_no_veto_reason(state, veto.player), ("V8-PEN-VETO-CONDITION",))
    return None


def _no_veto_reason(state: State, caller: int) -> str:
    """Why a caller who is not among those who may still veto this penalty cannot: under
    veto_callers = all-callers he may have vetoed it already (V8-AMB-VETO-SEVERAL-CALLERS);
    under veto_scope = turned-talon-or-before-caller the offender may not be placed to sway
    his going out (V8-AMB-VETO-INFLUENCE)."""
    name = state.players[caller]
    still = " and ".join(state.players[c] for c in sorted(state.may_veto)) or "nobody"
    options = state.options
    if options.veto_scope is VetoScope.ANY_DRAW_WHILE_CALLED:
        # every other caller was entitled when the cards were taken: he has used his veto
        return f"{name} has vetoed these penalty cards already; {still} must veto them too"
    if options.veto_callers is VetoCallers.ALL_CALLERS:
        return (
            f"{name} may not veto now: only {still} may still veto these penalty cards (he has "
            "vetoed them already, or the offender was not placed to sway his going out)"
        )
    return (
        f"{name} may not veto: only {still} may veto these penalty cards, the offender not being "
        "placed to sway his going out (the talon unturned and his turn not before the caller's)"
    )


def _veto_clauses(table: Table) -> tuple[str, ...]:
    """The clauses of a veto that sends the cards back: with the model clause on several
    callers when more than one caller held the right (V8-AMB-VETO-SEVERAL-CALLERS)."""
    clauses = ("V8-PEN-VETO-RIGHT", "V8-PEN-VETO-CONDITION")
    if len(table.base.may_veto) > 1 or table.options.veto_callers is VetoCallers.ALL_CALLERS:
        return (*clauses, "V8-PEN-VETO-SEVERAL-CALLERS")
    return clauses


def perform_conduct(table: Table, action: Conduct) -> None:
    """Carry out an allowed action of this module (unchecked: the caller has checked it)."""
    seat = action.player
    name = table.name(seat)
    if isinstance(action, StepAway):
        table.away = table.away | {seat}
        active = table.active()
        clauses: tuple[str, ...] = ("V8-PRESENCE-ABSENT-NOT-ACTIVE",)
        text = f"{name} steps away from the table ({active} active)"
        if active == 2:
            clauses += ("V8-PRESENCE-MAY-DROP-TO-TWO",)
        elif active < 2:
            clauses += ("V8-PRESENCE-PAUSE-BELOW-TWO",)
            if table.options.below_two_active is BelowTwoActive.PAUSE:
                text += ": play pauses until someone comes back"
        table.say("away", text, clauses, seat)
    elif isinstance(action, Back):
        table.away = table.away - {seat}
        text = f"{name} comes back to the table"
        if table.phase is Phase.PLAY and table.turn == seat:
            text += " and takes his turn"
        table.say("back", text, ("V8-PRESENCE-MAY-RETURN",), seat)
    elif isinstance(action, Remark):
        clauses = (
            ("V8-PEN-COMMENT-OBVIOUS-ALLOWED",)
            if action.kind is RemarkKind.OBVIOUS
            else ("V8-PEN-COMMENT-OFFENCE",)
        )
        table.say("remark", f"{name}'s remark is allowed: no penalty", clauses, seat)
    elif isinstance(action, LookBack):
        clauses = (
            ("V8-PEN-LOOK-BACK-CHECK-BUNDLE-EXEMPT", "V8-PLAY-HIDDEN-BUNDLE-NO-OWN-PENALTY")
            if action.checking_bundle
            else ("V8-PEN-LOOK-BACK-PREVIOUS-PLAYER-ALLOWED",)
        )
        table.say("look-back", f"{name} may look back so far: no penalty", clauses, seat)
    elif isinstance(action, Veto):
        _veto(table, action)
    elif isinstance(action, RevealCall):
        _reveal(table, action)
    elif isinstance(action, AskCount):
        _count(table, action)


@implements("V8-PEN-FALSE-CALL-CAUGHT", "V8-PEN-FALSE-CALL-SELF-REPORT")
def _reveal(table: Table, reveal: RevealCall) -> None:
    """The false call comes to light: the caller takes the standard penalty now."""
    caller = reveal.caller
    table.false_calls = table.false_calls - {caller}
    if reveal.player == caller:
        why = f"{table.name(caller)} owns up to an utgång made without a real chance"
        clauses: tuple[str, ...] = ("V8-PEN-FALSE-CALL-SELF-REPORT", "V8-PEN-FALSE-CALL-CAUGHT")
    else:
        why = (
            f"{table.name(reveal.player)} catches {table.name(caller)}'s utgång made without "
            "a real chance"
        )
        clauses = ("V8-PEN-FALSE-CALL-CAUGHT",)
    penalise(table, caller, 1, why, clauses)


@implements("V8-CALL-CARD-COUNT-ON-DEMAND", "V8-CALL-CARD-COUNT-ALL-HELD")
def _count(table: Table, ask: AskCount) -> None:
    """The caller tells how many cards he has left (card_count_scope)."""
    count = card_count(table.base, ask.caller)
    scope = "in hand" if len(table.base.hands[ask.caller]) == count else "in all"
    table.say(
        "card-count",
        f"{table.name(ask.player)} asks {table.name(ask.caller)}, who called utgång, how many "
        f"cards he has left: {count} {scope}",
        ("V8-CALL-CARD-COUNT-ON-DEMAND", "V8-CALL-CARD-COUNT-ALL-HELD"),
        ask.caller,
    )


@implements("V8-PEN-VETO-RIGHT", "V8-PEN-VETO-CONDITION")
@implements("V8-PEN-VETO-SEVERAL-CALLERS")
def _veto(table: Table, veto: Veto) -> None:
    """The vetoed penalty cards go back on top of the talon, in the order they came off; under
    veto_callers = all-callers only at the last veto of those who may veto them, the others
    waiting (V8-PEN-VETO-SEVERAL-CALLERS)."""
    assert table.base.vetoable is not None
    offender, cards = table.base.vetoable
    waiting = table.base.may_veto - {veto.player}
    if waiting and table.options.veto_callers is VetoCallers.ALL_CALLERS:
        table.vetoable, table.may_veto = table.base.vetoable, waiting
        names = " and ".join(table.name(c) for c in sorted(waiting))
        table.say(
            "veto",
            f"{table.name(veto.player)}, who called utgång, vetoes {table.name(offender)}'s "
            f"{len(cards)} penalty cards: they stay with him unless {names} veto them too",
            ("V8-PEN-VETO-RIGHT", "V8-PEN-VETO-SEVERAL-CALLERS"),
            veto.player,
        )
        return
    left = list(cards)
    sets = []
    for item in table.penalties[offender]:
        kept = []
        for card in item.cards:
            if card in left:
                left.remove(card)
            else:
                kept.append(card)
        if kept or item.owed:
            sets.append(dataclasses.replace(item, cards=tuple(kept)))
    table.penalties[offender] = tuple(sets)
    if left:
        table.take_from_hand(offender, tuple(left))
    table.stock.extend(reversed(cards))
    if table.options.veto_limit is VetoLimit.ONCE_PER_OFFENDER_TURN:
        table.vetoed = table.vetoed | {offender}
    table.say(
        "veto",
        f"{table.name(veto.player)}, who called utgång, vetoes {table.name(offender)}'s "
        f"{len(cards)} penalty cards: they go back on the talon",
        _veto_clauses(table),
        veto.player,
    )
