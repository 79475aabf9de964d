"""vvv8's standard penalty (000 §3): three cards from the talon, face down in front of the
offender, locked until he has used up his turn as spelförare; the utgång callers' veto."""

from __future__ import annotations

import dataclasses

from regelverk.cards import Card
from regelverk.marks import implements
from regelverk.vandatta import talon
from regelverk.vandatta.options import (
    PenaltyCardsUsable,
    PenaltySetsTiming,
    PenaltyStacking,
    TalonEmptyMidDraw,
    VetoCallers,
    VetoLimit,
    VetoScope,
)
from regelverk.vandatta.state import PenaltySet, Phase
from regelverk.vandatta.table import Table

__all__ = ["STANDARD", "penalise"]

STANDARD = (
    "V8-PEN-FOR-MISTAKES-ONLY",
    "V8-PEN-STANDARD-THREE-CARDS",
    "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
    "V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",
    "V8-PEN-CARDS-COUNT-AS-HELD",
)


# --- the standard penalty ---------------------------------------------------------------------


@implements(
    "V8-PEN-FOR-MISTAKES-ONLY",
    "V8-PEN-STANDARD-THREE-CARDS",
    "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
    "V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",
    "V8-PEN-CARDS-COUNT-AS-HELD",
    "V8-PEN-VETO-CONDITION",
)
def _without(hand: tuple[Card, ...], drawn: list[Card]) -> tuple[Card, ...]:
    """``hand`` without the penalty cards ``drawn`` into it, each taken out where it lies (its
    last copy): a talon rebuilt in the middle of the penalty can give the offender another
    card after them (a fresh start ace's draw, V8-TALON-REBUILD-REFERENCE-CARD), so they are
    not always the hand's last cards."""
    kept = list(hand)
    for card in drawn:
        del kept[len(kept) - 1 - kept[::-1].index(card)]
    return tuple(kept)


def penalise(table: Table, seat: int, offences: int, why: str, clauses: tuple[str, ...]) -> None:
    """The standard penalty: three cards from the talon (per offence under penalty_stacking =
    per-offence) face down in front of the offender, locked until he has used up his turn as
    spelförare (this one if he is spelförare, else his next one; penalty_cards_usable). They
    count as his: he cannot go out while he has them. Utgång callers may veto the draw."""
    options = table.options
    count = options.penalty_cards * (
        offences if options.penalty_stacking is PenaltyStacking.PER_OFFENCE else 1
    )
    drawn: list[Card] = []
    for _ in range(count):
        card = talon.draw_one(table, seat)
        if card is None:
            break
        drawn.append(card)
        if table.drawn_deal:
            break
    table.hands[seat] = _without(table.hands[seat], drawn)
    cards = tuple(drawn)
    spelforare = table.phase is Phase.PLAY and table.turn == seat
    usable = options.penalty_cards_usable
    if usable is PenaltyCardsUsable.AT_NEXT_TURN_START and spelforare and cards:
        # A penalty that finds no card is recorded as an empty face-down set, as under the
        # other readings: it keeps a failed going out from counting as one.
        table.hands[seat] = (*table.hands[seat], *cards)
        when = "usable at once, as he is spelförare"
    else:
        release = 1 if usable is PenaltyCardsUsable.AFTER_EXHAUSTING_TURN else 0
        when = (
            "unusable until his turn as spelförare is over"
            if spelforare and release
            else "unusable until his next turn as spelförare is over"
            if release
            else "usable from the start of his next turn"
        )
        sets = (*table.penalties[seat], PenaltySet(cards=cards, release_after=release))
        if options.penalty_sets_timing is PenaltySetsTiming.MERGED and len(sets) > 1:
            latest = max(p.release_after for p in sets)
            sets = tuple(dataclasses.replace(p, release_after=latest) for p in sets)
            when += " (all his face-down cards together)"
        table.penalties[seat] = sets
    shown = " ".join(str(c) for c in cards)
    clauses += STANDARD
    if len(cards) < count and not table.drawn_deal:
        when += f"; the other {count - len(cards)} cannot be drawn and lapse"
        clauses += _short_talon(table)
    table.say(
        "penalty",
        f"{why}: {table.name(seat)} takes {len(cards)} penalty cards face down ({shown}), {when}",
        clauses,
        seat,
        cards,
    )
    callers = _vetoers(table, seat)
    if callers and cards:
        table.vetoable = (seat, cards)
        table.may_veto = frozenset(callers)
        table.say(
            "veto-right",
            _veto_right_text(table, callers),
            _veto_right_clauses(table, callers),
            callers[0],
        )
    elif cards and seat in table.vetoed and any(c != seat for c in table.calls):
        table.say(
            "veto-used",
            f"{table.name(seat)}'s penalty was vetoed once this turn already: no veto now",
            ("V8-PEN-VETO-RIGHT",),
            seat,
        )


@implements("V8-TALON-REBUILD-DURING-ANY-DRAW")
def _short_talon(table: Table) -> tuple[str, ...]:
    """Why a penalty came up short: under talon_empty_mid_draw = rebuild-and-continue the talon
    was rebuilt as far as it could be and the draws it still cannot serve lapse
    (V8-TALON-REBUILD-DURING-ANY-DRAW); under draw-what-is-there the penalty simply takes what
    is left, and that model clause does not apply."""
    if table.options.talon_empty_mid_draw is TalonEmptyMidDraw.REBUILD_AND_CONTINUE:
        return ("V8-TALON-REBUILD-DURING-ANY-DRAW",)
    return ()


def _veto_right_text(table: Table, callers: list[int]) -> str:
    """Who may veto, and whether one veto is enough (veto_callers)."""
    names = " and ".join(table.name(c) for c in callers)
    text = f"{names}, who called utgång, may veto these penalty cards"
    if len(callers) > 1 and table.options.veto_callers is VetoCallers.ALL_CALLERS:
        text += ": they go back only if every one of them vetoes"
    return text


def _veto_right_clauses(table: Table, callers: list[int]) -> tuple[str, ...]:
    """The veto's clauses, and the model clause deciding several callers' vetoes when more than
    one may veto (V8-AMB-VETO-SEVERAL-CALLERS)."""
    if len(callers) > 1:
        return ("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT", "V8-PEN-VETO-SEVERAL-CALLERS")
    return ("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT")


@implements("V8-PEN-VETO-CONDITION", "V8-PEN-VETO-RIGHT")
def _vetoers(table: Table, seat: int) -> list[int]:
    """Callers who may veto a penalty draw by ``seat`` (veto_scope); under veto_limit =
    once-per-offender-turn nobody may once a penalty of his has been vetoed this turn."""
    if table.options.veto_limit is VetoLimit.ONCE_PER_OFFENDER_TURN and seat in table.vetoed:
        return []
    callers = [c for c in sorted(table.calls) if c != seat]
    if table.options.veto_scope is VetoScope.ANY_DRAW_WHILE_CALLED or table.talon_passes > 0:
        return callers
    count = len(table.players)
    turn = table.turn

    def distance(s: int) -> int:
        return (s - turn) % count

    return [c for c in callers if distance(seat) < distance(c)]
