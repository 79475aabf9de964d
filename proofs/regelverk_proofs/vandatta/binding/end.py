"""Bindings of the Vändåtta ending theorems to the engine (``vvv8``, ``vandatta``).

Each binding runs the engine's own rule functions (``GAME.attempt``, ``GAME.apply``,
``GAME.legal_actions``, the scoring and deal-ending code they call) on concrete positions built
through the position reader, and asks the encoding of :mod:`regelverk_proofs.vandatta.encoding.end`
(fed the same values) whether it allows and computes exactly what the engine did:

* :data:`GOING_OUT`: the spelförare's last-card plays of every rank, aces and eights included,
  with and without a standing call, with and without a call said, with face-down penalty cards,
  fitting or not, under the vvv8 preset and every reading of ``penalty_cards_usable`` and
  ``out_without_call``, and under the vandatta preset; then the utgång bookkeeping at the end
  of the caller's own turn and when his turn is passed over while he is away
  (V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT, V8-CALL-REQUIRED-TO-WIN, V8-CALL-VALID-NEXT-TURN-ONLY,
  V8-CALL-FORFEITED-IF-ABSENT, V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT, V8-WIN-NO-CALL-NOT-OUT).
* :data:`SCORES`: vandatta deals won with the losers holding cards of every points class and
  running totals one below, at and one above the limit, and deals declared void, and who
  deals next (VA-SCORING-*, VA-SESSION-NOBODY-ALONE, VA-WIN-BLOCKED-DEAL-VOID,
  VA-SESSION-NEXT-DEALER).
* :data:`OFFICIAL`: vvv8 going outs with 2 to 14 seats, players away or waiting outside the deal,
  every winner's seat, and the players active when the deal began, and who deals next
  (V8-LOSS-OFFICIAL-NEEDS-THREE, V8-LOSS-PLAYER-BEFORE-WINNER, V8-PRESENCE-ABSENT-NOT-ACTIVE,
  V8-SESSION-LOSER-DEALS-NEXT).
* :data:`BLOCKED`: vvv8 deals nobody can finish, won by the cheapest hand with face-down
  penalty cards held, under the readings of who loses, who deals after a deal without an
  official loser and how a deal is scored together (V8-AMB-BLOCKED-DEAL,
  V8-PEN-CARDS-COUNT-AS-HELD, V8-AMB-LOSER-WHO-IS-BEFORE, V8-AMB-DEALER-AFTER-NO-LOSER).
* :data:`STEPS`: seeded coffee-break deals of vvv8 played near their end (draws that rebuild
  the talon, passes, plays with and without aces and eights, going outs, penalties, drawn and
  void deals); each move of play against the encoded step and the ranking
  (V8-TALON-DRAWN-ONE-DECK, V8-TALON-DRAWN-TWO-DECKS, V8-WIN-BLOCKED-DEAL-VOID).
* :data:`LASSO`: the never-ending free-time game replayed in the engine lap by lap, and the same
  actions in a coffee break, where the talon limit draws the deal
  (V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK, V8-TALON-REBUILD-UNSHUFFLED).

Every universe is bounded and deterministic (seeded ``random.Random``); an encoding that gives no
answer for a case counts as a disagreement, never as agreement.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from itertools import product
from typing import Any

from regelverk.cards import Card, Rank, Suit, french_deck
from regelverk.engine import Ruling, with_options
from regelverk.vandatta import GAME
from regelverk.vandatta.calling import _call_error
from regelverk.vandatta.conduct import active_seats, paused
from regelverk.vandatta.options import (
    VANDATTA,
    VVV8,
    LateJoinerSecondDeck,
    LoserRule,
    NextDealer,
    Scoring,
    VandattaOptions,
    WrongCardTakeBack,
)
from regelverk.vandatta.playing import _after, _first_error, _group_error
from regelverk.vandatta.rules import seats_after
from regelverk.vandatta.setup import deck_count
from regelverk.vandatta.state import (
    Action,
    Back,
    Draw,
    Join,
    Pass,
    Phase,
    Play,
    Restart,
    SayUtgang,
    State,
    StayOut,
    StepAway,
    StepIn,
)
from regelverk_proofs.binding import Binding, Comparison, full
from regelverk_proofs.evaluate import Compiled, Term
from regelverk_proofs.vandatta.encoding.end import (
    CLASSES,
    Deck,
    Heap,
    PlayVars,
    Rules,
    Seats,
    ace_play_step,
    cheapest_hand,
    class_of,
    class_points,
    deal_blocked,
    deal_scores,
    decide,
    draw_step,
    end_own_turn,
    going_out,
    lex_less,
    next_dealer,
    official_result,
    pass_step,
    plain_play_step,
    ranking,
    seat_free,
    skip_absent,
    step_in_allowed,
    talon_limit,
    turn_after_return,
)
from regelverk_proofs.vandatta.encoding.end_lasso import find_lasso
from regelverk_proofs.vandatta.text import card_points as text_card_points
from regelverk_proofs.z3api import Bool, Int

__all__ = [
    "BLOCKED",
    "GOING_OUT",
    "GOING_OUT_VARIANTS",
    "LASSO",
    "LATE_JOINERS",
    "OFFICIAL",
    "SCORES",
    "STEPS",
    "TEXT_TABLES",
    "deck_of",
    "heap_values",
]

NOTHING: frozenset[str] = frozenset()
NO_ANSWER = "the encoding gave no answer for these values (unknown is never agreement)"

GOING_OUT_VARIANTS: tuple[tuple[str, dict[str, str]], ...] = (
    tuple(
        (
            f"penalty_cards_usable = {usable}, out_without_call = {without}",
            {"penalty_cards_usable": usable, "out_without_call": without},
        )
        for usable in ("after-exhausting-turn", "at-next-turn-start")
        for without in ("not-out-three-cards", "refused-no-penalty", "wrong-card-penalty")
    )
    + tuple(
        (
            f"penalty_cards_usable = {usable}, failed_out_card = card-returns, "
            "last_hand_card_locked = treated-as-going-out",
            {
                "penalty_cards_usable": usable,
                "failed_out_card": "card-returns",
                "last_hand_card_locked": "treated-as-going-out",
            },
        )
        for usable in ("after-exhausting-turn", "at-next-turn-start")
    )
    + (("out_below_three = held-back", {"out_below_three": "held-back"}),)
)
"""The readings that change how a vvv8 going out is ruled: when penalty cards become usable,
what a going out without a call costs, whether the ace or eight of a failed going out stays
laid, and whether emptying the hand with penalty cards locked is a going out (the vvv8 preset is
the first)."""


def _names(count: int) -> list[str]:
    return [f"P{n}" for n in range(1, count + 1)]


def _position(
    options: VandattaOptions,
    names: Sequence[str],
    hands: Mapping[str, Sequence[str]],
    top: str,
    *,
    stock: int,
    penalties: Mapping[str, Sequence[str]] | None = None,
    release_after: int = 1,
    owed: Mapping[str, int] | None = None,
    **extra: Any,
) -> State:
    """A position in play: the hands and penalty cards as given (the penalty cards joining the
    hand after ``release_after`` of their owner's turns), ``top`` on the pile, ``stock`` cards
    in the talon and every other card of the deck below the pile's top card."""
    decks = deck_count(options, len(names))
    placed = Counter(c for hand in hands.values() for c in hand)
    placed.update(c for cards in (penalties or {}).values() for c in cards)
    placed[top] += 1
    rest = sorted((Counter(c.code for c in french_deck(decks)) - placed).elements())
    data: dict[str, Any] = {
        "players": list(names),
        "hands": {name: list(cards) for name, cards in hands.items()},
        "pile": [*rest[stock:], top],
        "stock": rest[:stock],
        **extra,
    }
    if penalties:
        data["penalties"] = {
            name: [{"cards": list(cards), "release_after": release_after}]
            for name, cards in penalties.items()
        }
    for name, count in (owed or {}).items():  # a failed going out's extra cards, still owed
        data.setdefault("penalties", {}).setdefault(name, []).append({"cards": [], "owed": count})
    return GAME.position_from_data(data, options)


def _held(state: State, seat: int) -> int:
    return len(state.hands[seat]) + sum(len(p.cards) for p in state.penalties[seat])


def _over(state: State) -> bool:
    return state.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER)


# --- going out ----------------------------------------------------------------------------------


def play_values(state: State, play: Play) -> dict[str, int | bool]:
    """The inputs of the going-out encoding, read off the engine state and the play (the fit of
    the cards and the real-chance test are the engine's, an input here)."""
    seat, cards = play.player, play.cards
    fits = _first_error(state, play) is None and _group_error(state, play) is None
    chance = _call_error(state, _after(state, play), play.cards) is None if play.call else False
    spare = max(0, len(state.pile) + len(cards) - 1)  # a rebuild as he hands on, cards laid
    return {
        "hand": len(state.hands[seat]),
        "pen": sum(len(p.cards) for p in state.penalties[seat]),
        "sets": bool(state.penalties[seat]),
        "k": len(cards),
        "first_eight": cards[0].rank is Rank.EIGHT,
        "last_ace": cards[-1].rank is Rank.ACE,
        "last_eight": cards[-1].rank is Rank.EIGHT,
        "any_ace": any(c.rank is Rank.ACE for c in cards),
        "fits": fits,
        "called": seat in state.calls,
        "say": play.call,
        "chance": chance,
        "avail": min(state.options.penalty_cards, len(state.stock) + spare),
        "owes": any(p.owed for p in state.penalties[seat]),
        "short": _short(state),
    }


def _short(state: State) -> bool:
    """Fewer players active (neither away, nor outside the deal, nor out of the game) than an
    official result needs, in a deal that began with enough (V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    need = state.options.min_active_for_result
    gone = state.away | state.benched | state.record.out
    return state.active_at_start >= need and len(state.players) - len(gone) < need


_PLAY_FIELDS = tuple(f.name for f in dataclasses.fields(PlayVars))


@cache
def _going_out_fns(rules: Rules) -> tuple[Compiled, tuple[Compiled, ...]]:
    """:func:`going_out` under ``rules`` as Python functions of a play's values (in the order
    of :class:`PlayVars`' fields): the shape every play has, and the four answers compared
    (allowed as tried, wins the deal, fails to go out, cards held after). Every unknown of
    these terms is an input, so each answer is a function of the play (a term with another
    unknown could not be compiled): the value Z3 would give with the inputs fixed, without a
    solver per play."""
    v = PlayVars.fresh("bind")
    result = going_out(v, rules, NOTHING)
    inputs: list[Term] = [getattr(v, name) for name in _PLAY_FIELDS]
    wanted: list[Term] = [
        result.legal,
        result.wins,
        result.failed_out,
        result.hand_after + result.pen_after,
    ]
    return Compiled(v.shape(rules), inputs), tuple(Compiled(t, inputs) for t in wanted)


def compare_play(state: State, play: Play, ruling: Ruling[State]) -> Iterator[Comparison]:
    """The encoding's ruling on ``play`` (allowed as tried, wins the deal, cards held after a
    failed going out) against the engine's ``ruling``; the first comparison's kind is the last
    card's class, the second's the engine's outcome."""
    rules = Rules.of(state.options)
    values = play_values(state, play)
    shape, answers = _going_out_fns(rules)
    row = [values[name] for name in _PLAY_FIELDS]
    got = tuple(answer(row) for answer in answers) if shape(row) else None
    last = play.cards[-1].rank
    kind = "last-ace" if last is Rank.ACE else "last-eight" if last is Rank.EIGHT else "last-other"
    shown = f"{' '.join(str(c) for c in play.cards)} (call {play.call}) in {values}"
    if got is None:
        yield Comparison(kind, False, f"{shown}: {NO_ANSWER}")
        return
    legal, wins, failed, held_after = got
    listed = play in GAME.legal_actions(state)
    yield Comparison(
        kind,
        legal == ruling.allowed == listed,
        f"{shown}: encoding allows {legal}, engine's attempt {ruling.allowed}, "
        f"legal_actions {listed}: {ruling.message}",
    )
    after = ruling.state
    won = _over(after) and after.winner == play.player
    kinds = {e.kind for e in ruling.events}
    # laid: on top of the pile, or laid and then taken into a talon rebuilt for the extra cards
    laid = (
        tuple(after.pile[-len(play.cards) :]) == tuple(play.cards) or {"play", "rebuild"} <= kinds
    )
    returned = rules.card_returns and "V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT" in ruling.clauses
    engine_failed = not ruling.allowed and after != state and (laid or returned)
    if won:
        outcome = "won"
    elif engine_failed or failed:
        outcome = "failed-out"
    elif ruling.allowed:
        outcome = "played-on"
    elif after == state:
        outcome = "refused"
    else:
        outcome = "wrong-card"
    agrees = wins == won and failed == engine_failed
    if failed and agrees and not won:
        agrees = held_after == _held(after, play.player)
    yield Comparison(
        outcome,
        agrees,
        f"{shown}: encoding wins {wins}, failed going out {failed}, holds {held_after} after; "
        f"engine wins {won}, failed going out {engine_failed}, holds "
        f"{_held(after, play.player)}: {ruling.message}",
    )


_OTHERS = {"P2": ["9D", "10D", "JD"], "P3": ["9C", "10C", "JC"]}

OWED = "owed"
"""A penalty-zone case of the last-card plays: an owed set of a failed going out, no cards."""


_CLASS_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.ACE)
"""One rank of each class the going-out rules tell apart."""


def _last_card_cases(
    options: VandattaOptions, *, every_rank: bool, away: bool = False
) -> Iterator[Comparison]:
    """P1 to play his last card(s) (or all his hand, face-down penalty cards left) on a top card
    of the same suit, or of neither suit nor rank: every combination of one card or two of a
    rank, with and without a standing call, a call said, penalty cards (under Brott och
    straff), a fitting top card, and an empty talon (in CI exactly when penalty cards are
    held); every rank (``every_rank``, or under REGELVERK_BINDINGS=full) or one of each
    class, and two cards of one of each class only (every rank under the full bound). With
    ``away`` P3 is on the phone, leaving two players active."""
    brott = options.penalties.value == "brott-och-straff"
    pens: tuple[bool | str, ...] = (False, True, OWED) if brott else (False,)
    for rank in Rank if every_rank or full() else _CLASS_RANKS:
        for count in (1, 2):
            if count == 2 and rank not in _CLASS_RANKS and not full():
                continue
            for called, say, pen, fit, empty in product(
                (False, True),
                (False, True),
                pens,
                (True, False),
                (False, True),
            ):
                if pen == OWED and say:
                    # a call said while owing is a false call, ruled by the false-call rules
                    # this encoding leaves out; vvv8.cards.listing judges whether it may be said
                    continue
                if empty != bool(pen) and not full():
                    continue
                yield from _last_card_case(
                    options,
                    rank,
                    count=count,
                    called=called,
                    say=say,
                    pen=pen,
                    fit=fit,
                    empty=empty,
                    away=away,
                )


def _last_card_case(
    options: VandattaOptions,
    rank: Rank,
    *,
    count: int,
    called: bool,
    say: bool,
    pen: bool | str,
    fit: bool,
    empty: bool,
    away: bool = False,
) -> Iterator[Comparison]:
    cards = [Card(rank, Suit.HEARTS), Card(rank, Suit.SPADES)][:count]
    top_rank = "6" if rank is Rank.FOUR else "4"
    top = f"{top_rank}{'H' if fit else 'C'}"
    hands = {"P1": [c.code for c in cards], **_OTHERS}
    penalty = {"P1": ["3D" if rank is Rank.TWO else "2D"]} if pen is True else None
    state = _position(
        options,
        ["P1", "P2", "P3"],
        hands,
        top,
        stock=0 if empty else 10,
        penalties=penalty,
        owed={"P1": options.penalty_cards} if pen == OWED else None,
        turn="P1",
        previous="P3",
        calls=["P1"] if called else [],
        away=["P3"] if away else [],
    )
    suit = Suit.CLUBS if rank is Rank.EIGHT else None
    play = Play(player=0, cards=tuple(cards), suit=suit, call=say)
    yield from compare_play(state, play, GAME.attempt(state, play))


def _call_cases() -> Iterator[Comparison]:
    """The utgång bookkeeping: a call is used up with the caller's own turn and a new one holds
    for the next turn only; a caller passed over while away loses his call; nobody else's
    action touches it."""
    called_var, say_var = Bool.var("bind.called"), Bool.var("bind.say")
    for called in (False, True):
        for say in (False, True):
            state = _position(
                VVV8,
                ["P1", "P2", "P3"],
                {"P1": ["5H", "5S", "5D"], **_OTHERS},
                "4H",
                stock=10,
                turn="P1",
                previous="P3",
                calls=["P1"] if called else [],
            )
            play = Play(player=0, cards=(Card.parse("5H"),), call=say)
            ruling = GAME.attempt(state, play)
            if not ruling.allowed:
                yield Comparison("call-lapses", False, f"{play} was refused: {ruling.message}")
                continue
            got = decide(
                [],
                {"c": (called_var, called), "s": (say_var, say)},
                [end_own_turn(called_var, say_var, NOTHING)],
            )
            stands = 0 in ruling.state.calls
            kind = "call-renewed" if say else "call-lapses"
            yield Comparison(
                kind,
                got is not None and got[0] == stands,
                f"P1's call stood {called}, he calls {say}: encoding {got}, engine {stands}",
            )
    waiting = with_options(VVV8, {"absent_turn": "wait"})  # the turn waits for him instead
    for options in (VVV8, waiting):
        for away, called in itertools.product((False, True), (False, True)):
            state = _position(
                options,
                ["P1", "P2", "P3", "P4"],
                {"P1": ["5H", "5S", "5D"], "P2": ["9D"], "P3": ["9C", "10C"], "P4": ["JC"]},
                "4H",
                stock=10,
                turn="P1",
                previous="P4",
                calls=["P2"] if called else [],
                away=["P2"] if away else [],
            )
            ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("5H"),)))
            got = decide(
                [],
                {"c": (called_var, called)},
                [skip_absent(called_var, NOTHING) if away else called_var],
            )
            stands = 1 in ruling.state.calls
            yield Comparison(
                "call-forfeited-away" if away else "call-kept-by-others",
                ruling.allowed and got is not None and got[0] == stands,
                f"P2 away {away} ({options.absent_turn.value}), his call {called}: "
                f"encoding {got}, engine {stands}",
            )


def _said_alone_cases() -> Iterator[Comparison]:
    """Utgång said on its own by P2 (his standing call or none), with P1's ace just laid (P2
    has drawn for it) or not: never a call, so his standing call is what it was, as for
    anyone's action but his own turn's end (V8-CALL-TIMING, V8-CALL-ACE-DRAW-NOT-SPELFORARE)."""
    called_var = Bool.var("bind.alone")
    for called, ace in itertools.product((False, True), (False, True)):
        state = _position(
            VVV8,
            ["P1", "P2", "P3"],
            {"P1": ["AH", "5S", "5D"], "P2": ["9D", "10D"], "P3": ["9C", "10C", "JC"]},
            "4H",
            stock=10,
            turn="P1",
            previous="P3",
            calls=["P2"] if called else [],
        )
        if ace:
            state = GAME.apply(state, Play(player=0, cards=(Card.parse("AH"),))).state
        ruling = GAME.attempt(state, SayUtgang(player=1))
        got = decide([], {"c": (called_var, called)}, [called_var])
        stands = 1 in ruling.state.calls
        yield Comparison(
            "call-said-alone",
            not ruling.allowed and got is not None and got[0] == stands,
            f"P2 says utgång on its own (his call {called}, an ace just laid {ace}): engine "
            f"{'allows' if ruling.allowed else 'refuses'} it, his call {stands}, encoding {got}: "
            f"{ruling.message}",
        )


def _compare_going_out() -> Iterator[Comparison]:
    for n, (_, values) in enumerate(GOING_OUT_VARIANTS):
        options = with_options(VVV8, values)
        yield from _last_card_cases(options, every_rank=n == 0)
        if n == 0 or "out_below_three" in values:  # two active: may he go out?
            yield from _last_card_cases(options, every_rank=False, away=True)
    yield from _last_card_cases(VANDATTA, every_rank=True)
    yield from _call_cases()
    yield from _said_alone_cases()


GOING_OUT = Binding(
    name="vandatta-end.going-out",
    statement=(
        "The engine's ruling (attempt and legal_actions) on a last-card play, in every "
        "combination of: with and without a standing call, a call said, face-down penalty "
        "cards (the talon empty exactly when they are held), fitting or not; one card of every "
        "rank under the vvv8 and vandatta presets and of one rank of each class otherwise, two "
        "cards of one rank of each class (under REGELVERK_BINDINGS=full: every rank, one card "
        "or two, the talon empty or not, under every option set); under every vvv8 reading of "
        "penalty_cards_usable and out_without_call, under "
        "failed_out_card = card-returns with last_hand_card_locked = treated-as-going-out, "
        "under out_below_three = held-back and the vvv8 preset with a third player away (one "
        "rank of each class), and under the vandatta preset, is the encoding's going_out; the "
        "utgång bookkeeping at a turn's end and over an absent caller (his turn passed over, or "
        "waited for under absent_turn = wait) is end_own_turn and skip_absent, and utgång said "
        "on its own by another player (after the spelförare's ace or not) is refused and leaves "
        "his call as it was."
    ),
    kinds=(
        "last-ace",
        "last-eight",
        "last-other",
        "won",
        "failed-out",
        "played-on",
        "refused",
        "wrong-card",
        "call-lapses",
        "call-renewed",
        "call-forfeited-away",
        "call-kept-by-others",
        "call-said-alone",
    ),
    compare=_compare_going_out,
    claims=23728 if full() else 3312,
)


# --- vandatta's points --------------------------------------------------------------------------

_POOLS = {
    "tens": ("10C", "10D", "10S", "10H"),
    "aces": ("AC", "AD", "AS", "AH"),
    "courts": ("JC", "QD", "KS", "QC", "KD", "JS"),
    "eights": ("8C", "8D", "8S", "8H"),
    "others": ("2C", "7D", "9S", "2D", "7S"),
}
"""Cards of each points class for the losers' hands (P1 goes out on 5♥, the top is 6♥, and
every loser also holds a three or a four)."""

_SPARE = ("3C", "3D", "3S", "4C", "4D", "4S")


def compare_scores(
    before: State, after: State, kind: str | None = None, *, went_out: int | None = None
) -> Iterator[Comparison]:
    """The encoding's deal_scores (points, players out, the end of the match, its champions)
    against the engine's record after the deal ended; ``kind`` names the case, else the
    engine's outcome does. ``went_out``: the seat that went out of a deal the engine then
    cancelled (nobody_alone = replay-deal), which names no winner."""
    seats = len(after.players)
    rules = Rules.of(after.options)
    points = [Int.var(f"bind.points{s}") for s in range(seats)]
    out = [Bool.var(f"bind.out{s}") for s in range(seats)]
    counts = [{name: Int.var(f"bind.{name}{s}") for name, _ in CLASSES} for s in range(seats)]
    winner = Int.var("bind.winner")
    won = after.winner if went_out is None else went_out
    counted = won is not None or rules.void_counted
    result = deal_scores(
        points,
        out,
        counts,
        winner=winner,
        counted=Bool.const(counted),
        rules=rules,
        weaken=NOTHING,
    )
    fixed: dict[str, tuple[Int | Bool, int | bool]] = {
        "winner": (winner, -1 if won is None else won)
    }
    for s in range(seats):
        fixed[f"points{s}"] = (points[s], before.record.points[s])
        fixed[f"out{s}"] = (out[s], s in before.record.out)
        held = after.hands[s] + tuple(c for p in after.penalties[s] for c in p.cards)
        for name, _ in CLASSES:
            fixed[f"{name}{s}"] = (counts[s][name], sum(1 for c in held if class_of(c) == name))
    wanted: list[Int | Bool] = [*result.points, *result.out, result.over, *result.champion]
    got = decide([], fixed, wanted)
    engine_over = after.phase is Phase.MATCH_OVER
    below = [s for s in before.in_deal if s not in after.record.out]
    if kind is None:
        if not counted:
            kind = "void"
        elif not engine_over:
            kind = "match-goes-on"
        else:
            kind = "match-over-alone" if len(below) == 1 else "match-over-nobody-below"
    if got is None:
        yield Comparison(kind, False, NO_ANSWER)
        return
    over = bool(got[2 * seats])
    champions = {s for s in range(seats) if got[2 * seats + 1 + s]} if over else set()
    agrees = (
        list(got[:seats]) == list(after.record.points)
        and {s for s in range(seats) if got[seats + s]} == set(after.record.out)
        and over == engine_over
        and champions == (set(after.record.champions) if engine_over else set())
    )
    yield Comparison(
        kind,
        agrees,
        f"points {list(before.record.points)} (out {sorted(before.record.out)}) -> engine "
        f"{list(after.record.points)}, out {sorted(after.record.out)}, over {engine_over}, "
        f"champions {list(after.record.champions)}; encoding points {list(got[:seats])}, out "
        f"{[s for s in range(seats) if got[seats + s]]}, over {over}, champions "
        f"{sorted(champions)}",
    )
    if (
        agrees
        and after.phase is Phase.DEAL_OVER
        and went_out is None
        and rules.next_dealer is not NextDealer.LOSER_DEALS
    ):
        yield compare_next_dealer(before, after, loser=None, official=True)


def _won_deal(
    seats: int,
    classes: Sequence[str],
    totals: Sequence[int],
    out: Sequence[bool],
    kind: str | None = None,
    *,
    options: VandattaOptions = VANDATTA,
) -> Iterator[Comparison]:
    """P1 goes out on 5♥; every other player still in the match holds one card of the class
    given him and a three or a four; the running totals as given (under ``options``)."""
    names = _names(seats)
    pools = {name: list(cards) for name, cards in _POOLS.items()}
    hands: dict[str, list[str]] = {"P1": ["5H"]}
    for s in range(1, seats):
        pool = pools[classes[s]] or pools["others"]
        hands[names[s]] = [pool.pop(0), _SPARE[s]]
    state = _position(
        options,
        names,
        hands,
        "6H",
        stock=10,
        turn="P1",
        record={
            "points": {names[s]: totals[s] for s in range(seats) if totals[s]},
            "out": [names[s] for s in range(seats) if out[s]],
        },
    )
    play = Play(player=0, cards=(Card.parse("5H"),))
    ruling = GAME.attempt(state, play)
    if not ruling.allowed or not _over(ruling.state):
        yield Comparison(kind or "match-goes-on", False, f"P1 did not go out: {ruling.message}")
        return
    went_out = 0 if ruling.state.winner is None else None
    yield from compare_scores(state, ruling.state, kind, went_out=went_out)


def _void_deal(
    seats: int, totals: Sequence[int], *, counted: bool = False, reading: str | None = None
) -> Iterator[Comparison]:
    """No card can be laid nor drawn (the talon is empty and, under empty_stock = no-rebuild,
    not rebuilt): every player passes in turn and the deal is void, scoring nothing (or, under
    blocked_deal = count-hands, every hand; under fewest-points-wins, given as ``reading``, the
    cheapest hand wins the deal)."""
    values = {"empty_stock": "no-rebuild"}
    if counted:
        values["blocked_deal"] = "count-hands"
    if reading is not None:
        values["blocked_deal"] = reading
    options = with_options(VANDATTA, values)
    names = _names(seats)
    hands = {names[s]: [_SPARE[s]] for s in range(seats)}
    if reading is not None:  # a court card for every other player: P2 and P4 cheapest
        for s in range(0, seats, 2):
            hands[names[s]].append(("KC", "QD", "JS")[s // 2])
    state = _position(
        options,
        names,
        hands,
        "9H",
        stock=0,
        turn="P1",
        record={"points": {names[s]: totals[s] for s in range(seats) if totals[s]}},
    )
    before = state
    for _ in range(seats + 1):
        if state.phase is not Phase.PLAY:
            break
        passes = [a for a in GAME.legal_actions(state) if isinstance(a, Pass)]
        if not passes:
            yield Comparison("void", False, f"{state.players[state.turn]} may not pass")
            return
        state = GAME.apply(state, passes[0]).state
    if reading is not None:
        cheapest = min(
            before.in_deal,
            key=lambda s: (
                text_card_points(tuple(c.rank for c in before.hands[s])),
                (s - (before.dealer or 0) - 1) % seats,
            ),
        )
        yield Comparison(
            "blocked-cheapest-wins",
            _over(state) and state.winner == cheapest,
            f"the blocked deal was won by {state.winner}, not the cheapest hand {cheapest}",
        )
        yield from compare_scores(before, state, "blocked-cheapest-wins")
        return
    if not _over(state) or state.winner is not None:
        yield Comparison("void", False, f"the blocked deal did not end void ({state.phase})")
        return
    yield from compare_scores(before, state, None if counted else "void")


def _compare_scores() -> Iterator[Comparison]:
    rng = random.Random(100)
    limit = VANDATTA.score_limit
    names = [name for name, _ in CLASSES]
    values = class_points()
    for seats in range(2, VANDATTA.max_players + 1):
        for first in range(len(names)):
            classes = [names[(first + s) % len(names)] for s in range(seats)]
            yield from _won_deal(seats, classes, [0] * seats, [False] * seats)
        for _ in range(6):
            classes = [rng.choice(names) for _ in range(seats)]
            totals = [rng.randrange(0, limit) for _ in range(seats)]
            out = [False] * seats
            if seats > 3 and rng.random() < 0.5:
                out[seats - 1] = True
                totals[seats - 1] = limit + rng.randrange(0, 20)
            yield from _won_deal(seats, classes, totals, out)
        yield from _void_deal(seats, [rng.randrange(0, limit) for _ in range(seats)])
        near = [limit - rng.choice((1, 5, 6, 10)) for _ in range(seats)]
        yield from _void_deal(seats, near, counted=True)
        yield from _void_deal(seats, near, reading="fewest-points-wins")
        yield from _other_readings(seats, rng)
    for name in names:
        for delta, kind in (
            (-1, "total-below-limit"),
            (0, "total-at-limit"),
            (1, "total-above-limit"),
        ):
            for seats in (2, 3, 4):
                scored = values[name] + values["others"]
                totals = [rng.randrange(0, limit // 2) for _ in range(seats)]
                totals[1] = limit + delta - scored
                if seats > 2:
                    totals[2] = limit + delta - scored - rng.choice((0, 1))
                classes = [name] * seats
                yield from _won_deal(seats, classes, totals, [False] * seats, kind)
    yield from _class_values()
    yield from _limit_grid()


_GRID_SEATS = (2, 3, 4)
"""Table sizes whose every arrangement of totals round the limit is built."""


def _grid_options() -> tuple[VandattaOptions, ...]:
    """The vandatta preset under every combination of over_limit and nobody_alone."""
    from regelverk.vandatta.options import NobodyAlone, OverLimit

    return tuple(
        with_options(VANDATTA, {"over_limit": over.value, "nobody_alone": alone.value})
        for over in OverLimit
        for alone in NobodyAlone
    )


def _limit_grid() -> Iterator[Comparison]:
    """Every arrangement, up to four seats, of the losers' totals one below, at and one above
    the total that their ten points (an 'other' card and a spare) bring to the limit, under
    every combination of over_limit and nobody_alone; the winner at nought, and under play-on
    also above the limit."""
    from regelverk.vandatta.options import OverLimit

    limit = VANDATTA.score_limit
    edge = limit - 2 * class_points()["others"]
    for options in _grid_options():
        winners = (0, limit + 5) if options.over_limit is OverLimit.PLAY_ON else (0,)
        for seats in _GRID_SEATS:
            for first in winners:
                for rest in product((edge - 1, edge, edge + 1), repeat=seats - 1):
                    yield from _won_deal(
                        seats, ["others"] * seats, [first, *rest], [False] * seats, options=options
                    )


_PLAY_ON = with_options(VANDATTA, {"over_limit": "play-on"})
_REPLAY = with_options(VANDATTA, {"over_limit": "play-on", "nobody_alone": "replay-deal"})


def _other_readings(seats: int, rng: random.Random) -> Iterator[Comparison]:
    """Deals won under over_limit = play-on (players at the limit still dealt in, the winner
    among them or not) and under play-on with nobody_alone = replay-deal, with totals close to
    the limit so that the match goes on, ends with one below it, or leaves nobody below it."""
    limit = VANDATTA.score_limit
    names = [name for name, _ in CLASSES]
    for _ in range(3):
        classes = [rng.choice(names) for _ in range(seats)]
        totals = [rng.randrange(limit // 2, limit + 20) for _ in range(seats)]
        totals[0] = rng.choice((limit + 5, 10))  # the winner over the limit, or not
        for s in (1, 2) if seats > 2 else (1,):
            totals[s] = min(totals[s], limit - 1)
        if seats == 2:
            totals[0] = min(totals[0], limit - 1)
        yield from _won_deal(seats, classes, totals, [False] * seats, options=_PLAY_ON)
    if seats > 2:
        classes = ["eights"] * seats
        totals = [limit + 10] + [limit - 1] * (seats - 1)  # everyone below goes over
        yield from _won_deal(seats, classes, totals, [False] * seats, "replayed", options=_REPLAY)
        yield from _won_deal(seats, classes, totals, [False] * seats, options=_PLAY_ON)


def _class_values() -> Iterator[Comparison]:
    """Each rank alone in a loser's hand, and the points it adds."""
    for rank in Rank:
        card = Card(rank, Suit.CLUBS)
        state = _position(
            VANDATTA, ["P1", "P2"], {"P1": ["5H"], "P2": [card.code]}, "6H", stock=10, turn="P1"
        )
        ruling = GAME.attempt(state, Play(player=0, cards=(Card.parse("5H"),)))
        yield from compare_scores(state, ruling.state, f"class-{class_of(card)}")


SCORES = Binding(
    name="vandatta-end.scores",
    statement=(
        "The engine's end of a vandatta deal (the winner's going out, or a blocked deal declared "
        "void, through its real scoring and match-ending code) gives the points, drop-outs, end "
        "of match and champions of the encoding's deal_scores, for 2 to 6 players holding cards "
        "of every class and running totals one below, at and one above the limit; also under "
        "blocked_deal = fewest-points-wins (the cheapest hand, first from the dealer's left, "
        "wins the blocked deal), over_limit = play-on, and play-on with nobody_alone = "
        "replay-deal (a deal leaving nobody below the limit, cancelled); and, for 2 to 4 "
        "players under every combination of over_limit and nobody_alone, every arrangement of "
        "the losers' totals one below, at and one above the limit after the deal (the "
        "winner at nought, and under play-on also above the limit). Where the match goes on "
        "the engine's next dealer is the encoding's next_dealer."
    ),
    kinds=(
        "class-tens",
        "class-aces",
        "class-courts",
        "class-eights",
        "class-others",
        "total-below-limit",
        "total-at-limit",
        "total-above-limit",
        "match-goes-on",
        "match-over-alone",
        "match-over-nobody-below",
        "void",
        "blocked-cheapest-wins",
        "replayed",
        "next-dealer",
    ),
    compare=_compare_scores,
    claims=620,
)


@cache
def _next_dealer_fn(seats: int, rules: Rules) -> Compiled:
    """The encoding's next dealer for ``seats`` seats, as a Python function of (out per seat,
    dealer, winner, loser, official)."""
    out = [Bool.var(f"bind.next.out{s}") for s in range(seats)]
    dealer, winner, loser = (Int.var(f"bind.next.{n}") for n in ("dealer", "winner", "loser"))
    official = Bool.var("bind.next.official")
    term = next_dealer(
        seats, out, dealer=dealer, winner=winner, loser=loser, official=official, rules=rules
    )
    return Compiled(term, [*out, dealer, winner, loser, official])


def compare_next_dealer(
    before: State,
    after: State,
    *,
    loser: int | None,
    official: bool,
    kind: str = "next-dealer",
    new_draw_kind: str | None = None,
) -> Comparison:
    """The encoding's next_dealer against the dealer the engine named after a deal that did not
    end the match (-1: a fresh draw for the deal); ``loser`` and ``official`` are the
    encoding's own (official_result), fed in. The comparison's kind is ``new_draw_kind``, if
    given, where the encoding calls for a fresh draw, else ``kind``."""
    seats = len(after.players)
    rules = Rules.of(after.options)
    values: list[int | bool] = [s in after.record.out for s in range(seats)]
    values += [
        0 if before.dealer is None else before.dealer,
        -1 if after.winner is None else after.winner,
        -1 if loser is None else loser,
        official,
    ]
    encoded = _next_dealer_fn(seats, rules)(values)
    engine = -1 if after.dealer is None else after.dealer
    if new_draw_kind is not None and encoded == -1:
        kind = new_draw_kind
    return Comparison(
        kind,
        encoded == engine,
        f"{seats} seats, dealer {before.dealer}, winner {after.winner}, loser {loser}, official "
        f"{official}, out {sorted(after.record.out)}, next_dealer {rules.next_dealer.value}, "
        f"new draw {rules.new_draw}: the engine's next dealer {engine}, the encoding's {encoded}",
    )


# --- vvv8's official result ---------------------------------------------------------------------


@cache
def _official_fns(seats: int, winner: int, rules: Rules) -> tuple[Compiled, Compiled, Compiled]:
    """The encoding's loser, "recorded" and "official" for ``seats`` seats and this winner, as
    Python functions of (away, benched, out per seat, active at the start, previous
    spelförare)."""
    away = [Bool.var(f"bind.away{s}") for s in range(seats)]
    benched = [Bool.var(f"bind.benched{s}") for s in range(seats)]
    out = [Bool.var(f"bind.out{s}") for s in range(seats)]
    at_start = Int.var("bind.at_start")
    previous = Int.var("bind.previous")
    verdict = official_result(
        seats,
        away,
        benched,
        out,
        winner=winner,
        at_start=at_start,
        rules=rules,
        weaken=NOTHING,
        previous=previous,
    )
    inputs: list[Term] = [*away, *benched, *out, at_start, previous]
    return (
        Compiled(verdict.loser, inputs),
        Compiled(verdict.recorded, inputs),
        Compiled(verdict.official, inputs),
    )


def official_values(before: State, after: State, previous: int | None) -> tuple[int, bool, bool]:
    """The encoding's official_result (loser, -1 for none; recorded; official) for the deal
    that ``after`` ended, read off the table ``before`` it ended and the last spelförare
    before the winning turn, ``previous``."""
    seats = len(after.players)
    assert after.winner is not None
    loser_fn, recorded_fn, official_fn = _official_fns(seats, after.winner, Rules.of(after.options))
    values: list[int | bool] = [s in before.away for s in range(seats)]
    values += [s in before.benched for s in range(seats)]
    values += [s in before.record.out for s in range(seats)]
    values += [before.active_at_start, -1 if previous is None else previous]
    return int(loser_fn(values)), bool(recorded_fn(values)), bool(official_fn(values))


def compare_official(
    before: State, after: State, kind: str, *, previous: int | None = None
) -> Comparison:
    """The encoding's official_result (loser, recorded) against the engine's end of the deal;
    ``previous``: the last spelförare before it ended, if not ``before``'s."""
    seats = len(after.players)
    rules = Rules.of(after.options)
    winner = after.winner
    if winner is None:
        return Comparison(kind, False, "the deal ended without a winner")
    last = before.previous if previous is None else previous
    loser, recorded, _ = official_values(before, after, last)
    engine_loser = -1 if after.loser is None else after.loser
    engine_recorded = after.record.official == before.record.official + 1
    agrees = loser == engine_loser and recorded == engine_recorded
    if agrees and recorded:
        agrees = (
            after.record.wins[winner] == before.record.wins[winner] + 1
            and after.record.losses[engine_loser] == before.record.losses[engine_loser] + 1
            and sum(after.record.wins) == sum(before.record.wins) + 1
            and sum(after.record.losses) == sum(before.record.losses) + 1
        )
    if agrees and not recorded:
        agrees = after.record.wins == before.record.wins and (
            after.record.losses == before.record.losses
        )
    names = after.players
    return Comparison(
        kind,
        agrees,
        f"{seats} seats, away {sorted(names[s] for s in before.away)}, waiting "
        f"{sorted(names[s] for s in before.benched)}, {before.active_at_start} active at the "
        f"start, last spelförare {last}, {names[winner]} wins, loser_rule "
        f"{rules.loser_rule.value}, slagpase {rules.slagpase}: engine loser {engine_loser}, "
        f"recorded {engine_recorded}; encoding loser {loser}, recorded {recorded}",
    )


_PLAIN = tuple(c.code for c in french_deck(1) if c.suit is not Suit.HEARTS)
"""One card for each seat that is not the winner's (the winner holds 5♥, the top is 6♥)."""

_ALL_ARRANGEMENTS_UP_TO = 6 if full() else 5
"""Up to this many seats every arrangement of active, waiting and away seats is built, for
every winner; above it (up to 14 seats) every arrangement of the seats
:data:`_NEAR_WINNER` around the winner, every other seat active, for the winners
:func:`_winners` names."""
_NEAR_WINNER = (-3, -2, -1, 1) if full() else (-2, -1, 1)
"""The seats, relative to the winner, whose arrangement is enumerated above that bound: the
seats before him, where the loser is looked for, and the seat after him."""


def _winners(seats: int) -> tuple[int, ...]:
    """The winner's seats: every seat up to :data:`_ALL_ARRANGEMENTS_UP_TO` seats (and in the
    full bound); above it the first seat (the seat before him wraps round the table) and the
    last."""
    if full() or seats <= _ALL_ARRANGEMENTS_UP_TO:
        return tuple(range(seats))
    return (0, seats - 1)


_ROLES = ("active", "waiting", "away")
_AT_TABLE = 2
"""Play pauses below two players at the table (V8-PRESENCE-PAUSE-BELOW-TWO): no going out to
compare there."""

_OFFICIAL_OPTIONS: tuple[tuple[str, VandattaOptions], ...] = tuple(
    (
        f"loser_rule = {rule.value}, slagpase = {str(slag).lower()}",
        with_options(VVV8, {"loser_rule": rule.value, "slagpase": slag}),
    )
    for rule in LoserRule
    for slag in (False, True)
)
"""Every combination of the options the official result reads besides the table (who loses,
and whether a slagpåse plays), on the vvv8 preset; the preset is the first."""


def _arrangements(seats: int, winner: int) -> Iterator[tuple[frozenset[int], frozenset[int]]]:
    """Every (away, waiting) the bound enumerates for this table and winner."""
    if seats <= _ALL_ARRANGEMENTS_UP_TO:
        varied = [s for s in range(seats) if s != winner]
    else:
        varied = [(winner + d) % seats for d in _NEAR_WINNER]
    for roles in product(_ROLES, repeat=len(varied)):
        away = frozenset(s for s, r in zip(varied, roles, strict=True) if r == "away")
        waiting = frozenset(s for s, r in zip(varied, roles, strict=True) if r == "waiting")
        if seats - len(away | waiting) >= _AT_TABLE:
            yield away, waiting


def _starts(seats: int, need: int) -> tuple[int, ...]:
    """The counts of players active when the deal began: one short of an official result,
    just enough, and the whole table."""
    return tuple(sorted({a for a in (need - 1, need, seats) if 0 <= a <= seats}))


def _official_universe() -> int:
    """How many comparisons :func:`_compare_official` makes: two for each going out it builds
    (the official result, then who deals next), counted from the same enumeration without
    building them."""
    need = VVV8.min_active_for_result
    total = 0
    for k in range(len(_OFFICIAL_OPTIONS)):
        for seats in range(2, VVV8.max_players + 1):
            if k and seats > _OTHER_OPTIONS_UP_TO:
                break
            for winner in _winners(seats):
                lasts = len(_previous_choices(seats, winner)) if k else 1
                tables = sum(1 for _ in _arrangements(seats, winner))
                total += tables * len(_starts(seats, need)) * lasts
    return 2 * total


_OTHER_OPTIONS_UP_TO = 5 if full() else 4
"""The other option combinations are enumerated up to this many seats (every arrangement,
winner, start count and last spelförare)."""


def _previous_choices(seats: int, winner: int) -> tuple[int, ...]:
    """The last spelförare before the winning turn: the seat before the winner (the usual
    order of play) or any other seat but the winner's (play passed round in another order,
    or the seat before was passed over)."""
    return tuple((winner - d) % seats for d in range(1, seats))


def _official_case(
    options: VandattaOptions,
    *,
    seats: int,
    winner: int,
    away: frozenset[int],
    waiting: frozenset[int],
    at_start: int,
    previous: int,
) -> tuple[Comparison, Comparison | None]:
    """The official result of the going out, and (where it agrees) who deals next."""
    names = _names(seats)
    hands = {
        names[s]: [] if s in waiting else ["5H"] if s == winner else [_PLAIN[s]]
        for s in range(seats)
    }
    state = _position(
        options,
        names,
        hands,
        "6H",
        stock=12,
        turn=names[winner],
        previous=names[previous],
        calls=[names[winner]],
        away=[names[s] for s in sorted(away)],
        waiting=[names[s] for s in sorted(waiting)],
        active_at_start=at_start,
    )
    ruling = GAME.attempt(state, Play(player=winner, cards=(Card.parse("5H"),)))
    active = seats - len(away | waiting)
    if not ruling.allowed or not _over(ruling.state):
        refused = f"the going out was refused: {ruling.message}"
        return Comparison("unofficial-now", False, refused), None
    need = options.min_active_for_result
    if at_start < need:
        kind = "unofficial-at-start"
    elif active < need:
        kind = "unofficial-now"
    elif waiting and not away:
        kind = "official-while-waiting"
    else:
        kind = "official"
    if options.slagpase or options.loser_rule is not LoserRule.SEAT_BEFORE:
        kind = f"{kind}-other-options"
    case = compare_official(state, ruling.state, kind)
    if not case.agrees:
        return case, None
    loser, _, official = official_values(state, ruling.state, state.previous)
    return case, compare_next_dealer(
        state, ruling.state, loser=None if loser < 0 else loser, official=official
    )


def _compare_official() -> Iterator[Comparison]:
    need = VVV8.min_active_for_result
    for label, options in _OFFICIAL_OPTIONS:
        preset = label == _OFFICIAL_OPTIONS[0][0]
        for seats in range(2, VVV8.max_players + 1):
            if not preset and seats > _OTHER_OPTIONS_UP_TO:
                break
            table = (
                options
                if seats <= (VVV8.coffee_break_max_players or seats)
                else with_options(options, {"session": "free-time"})
            )
            for winner in _winners(seats):
                before = (winner - 1) % seats
                previous = (before,) if preset else _previous_choices(seats, winner)
                for away, waiting in _arrangements(seats, winner):
                    for at_start in _starts(seats, need):
                        for last in previous:
                            case, dealing = _official_case(
                                table,
                                seats=seats,
                                winner=winner,
                                away=away,
                                waiting=waiting,
                                at_start=at_start,
                                previous=last,
                            )
                            yield case
                            if dealing is not None:
                                yield dealing
                            if preset and case.kind == "official" and before in away | waiting:
                                yield Comparison(
                                    "loser-skips-absent",
                                    case.agrees,
                                    f"{case.detail}: the seat before the winner is away or "
                                    "waiting, and the loser must be another",
                                )


OFFICIAL = Binding(
    name="vandatta-end.official",
    statement=(
        "The engine's going out in vvv8 (loser_of, tally) names the loser and records a result "
        "exactly as the encoding's official_result. Under the vvv8 preset: for every number "
        f"of seats from 2 to 14; up to {_ALL_ARRANGEMENTS_UP_TO} seats every winner's seat and "
        "every arrangement of the other seats as active, waiting to join (a late joiner) or "
        f"away (at least two at the table), above that the {len(_NEAR_WINNER) - 1} seats "
        "before the winner and the one after him in every arrangement, the winner in the "
        "first and the last seat (every seat under REGELVERK_BINDINGS=full, which also "
        "raises the bounds to 6 seats, 3 seats before the winner and, for the other options, "
        "5 seats); one short of three, three, and all players active when the deal began. "
        "Under every other combination of loser_rule "
        "(seat-before, last-turn-before, none) and slagpase: the same, up to "
        f"{_OTHER_OPTIONS_UP_TO} seats, with every other seat as the last spelförare before "
        "the winning turn. Among them the case an official result while a late joiner waits "
        "and nobody is away, and the loser passing over a seat before the winner that is away "
        "or waiting. After each going out the engine's next dealer is the encoding's "
        "next_dealer, fed the encoding's loser (the loser deals, official result or not)."
    ),
    kinds=(
        "next-dealer",
        "official",
        "official-while-waiting",
        "unofficial-at-start",
        "unofficial-now",
        "loser-skips-absent",
        "official-other-options",
        "official-while-waiting-other-options",
        "unofficial-at-start-other-options",
        "unofficial-now-other-options",
    ),
    compare=_compare_official,
    claims=_official_universe(),
)


# --- vvv8's blocked deals won by the cheapest hand ----------------------------------------------

_BLOCKED_OPTIONS: tuple[tuple[str, VandattaOptions], ...] = tuple(
    (
        f"loser_rule = {rule}, dealer_without_loser = {dealer}, scoring = {scoring}",
        with_options(
            VVV8,
            {
                "blocked_deal": "fewest-points-wins",
                "empty_stock": "no-rebuild",
                "loser_rule": rule,
                "dealer_without_loser": dealer,
                "scoring": scoring,
            },
        ),
    )
    for rule, dealer, scoring in (
        ("last-turn-before", "new-draw", "card-points"),
        ("seat-before", "would-be-loser-else-same", "win-loss-tally"),
    )
)
"""vvv8 with blocked_deal = fewest-points-wins (and no rebuild of the talon, so that nobody can
draw): once with the other readings of who loses, who deals after a deal without an official
loser and how the deal is scored all together, once with the preset's."""

_BLOCKED_COURTS = ("KC", "QD", "JS", "KD")
_BLOCKED_OTHERS = ("2C", "3D", "4S", "5C")
_FACE_DOWN = {"eights": "8H", "others": "7H"}
"""The face-down penalty card of the penalised seat: an eight (worth more than any hand here)
or a card of the cheapest class."""


@cache
def _cheapest_fn(seats: int, dealer: int, taking_part: tuple[bool, ...]) -> tuple[Compiled, ...]:
    """The encoding's cheapest hand and its worth, as Python functions of the cards held per
    seat and points class."""
    counts = [{name: Int.var(f"bind.cheap.{name}{s}") for name, _ in CLASSES} for s in range(seats)]
    seat, worth = cheapest_hand(counts, taking_part, dealer)
    inputs: list[Term] = [counts[s][name] for s in range(seats) for name, _ in CLASSES]
    return Compiled(seat, inputs), Compiled(worth, inputs)


def _class_counts(state: State) -> list[int]:
    """Every seat's cards, in hand and face down, counted by points class."""
    values: list[int] = []
    for s in range(len(state.players)):
        held = state.hands[s] + tuple(c for p in state.penalties[s] for c in p.cards)
        values += [sum(1 for c in held if class_of(c) == name) for name, _ in CLASSES]
    return values


def _blocked_case(
    options: VandattaOptions,
    *,
    seats: int,
    cheap: int,
    penalised: int | None,
    face_down: str,
    at_start: int,
    away: int | None,
) -> Iterator[Comparison]:
    """Every player holds a court card and a plain card, the ``cheap`` seat the plain card
    only; the ``penalised`` seat also holds one card face down; the top card is 9♥, which
    nothing in hand fits, and the talon is empty. Everyone at the table passes in turn (P1
    first, the dealer last), and the cheapest hand wins the blocked deal."""
    names = _names(seats)
    hands = {
        names[s]: [_BLOCKED_OTHERS[s]] if s == cheap else [_BLOCKED_COURTS[s], _BLOCKED_OTHERS[s]]
        for s in range(seats)
    }
    state = _position(
        options,
        names,
        hands,
        "9H",
        stock=0,
        penalties=None if penalised is None else {names[penalised]: [_FACE_DOWN[face_down]]},
        release_after=2,
        turn="P1",
        active_at_start=at_start,
        away=[] if away is None else [names[away]],
    )
    before, last = state, state
    for _ in range(seats):
        if _over(state):
            break
        passes = [a for a in GAME.legal_actions(state) if isinstance(a, Pass) and not a.call]
        if not passes:
            yield Comparison("blocked-winner", False, f"{names[state.turn]} may not pass")
            return
        last = state
        state = GAME.apply(state, passes[0]).state
    if not _over(state) or state.winner is None:
        yield Comparison("blocked-winner", False, "the blocked deal was not won")
        return
    assert before.dealer is not None
    taking_part = tuple(
        s not in before.benched and s not in before.record.out for s in range(seats)
    )
    seat_fn, worth_fn = _cheapest_fn(seats, before.dealer, taking_part)
    counts = _class_counts(before)
    encoded = seat_fn(counts)
    yield Comparison(
        "blocked-winner",
        encoded == state.winner,
        f"{seats} seats, hands {GAME.position_to_data(before)['hands']}, face down "
        f"{GAME.position_to_data(before).get('penalties')}: the engine's winner {state.winner}, "
        f"the encoding's cheapest hand {encoded} ({worth_fn(counts)} points)",
    )
    previous = last.turn
    kind = "blocked-official" if penalised is None else "blocked-official-face-down"
    case = compare_official(before, state, kind, previous=previous)
    yield case
    if not case.agrees:
        return
    if options.scoring is Scoring.CARD_POINTS:
        yield from compare_scores(before, state, "blocked-points")
    if state.phase is Phase.DEAL_OVER:
        loser, _, official = official_values(before, state, previous)
        yield compare_next_dealer(
            before,
            state,
            loser=None if loser < 0 else loser,
            official=official,
            kind="blocked-next-dealer",
            new_draw_kind="blocked-new-draw",
        )


def _blocked_universe() -> Iterator[tuple[VandattaOptions, dict[str, Any]]]:
    """Every blocked deal :func:`_compare_blocked` builds."""
    need = VVV8.min_active_for_result
    for _, options in _BLOCKED_OPTIONS:
        for seats in (3, 4):
            faces = [(None, "others")] + [
                (p, face) for p in range(seats) for face in sorted(_FACE_DOWN)
            ]
            for away in (None, 1) if seats == 4 else (None,):
                for cheap in range(seats):
                    if cheap == away:
                        continue
                    for penalised, face in faces:
                        for at_start in (need - 1, seats):
                            yield (
                                options,
                                {
                                    "seats": seats,
                                    "cheap": cheap,
                                    "penalised": penalised,
                                    "face_down": face,
                                    "at_start": at_start,
                                    "away": away,
                                },
                            )


def _compare_blocked() -> Iterator[Comparison]:
    for options, case in _blocked_universe():
        yield from _blocked_case(options, **case)


BLOCKED = Binding(
    name="vandatta-end.blocked-deals",
    statement=(
        "vvv8 deals that nobody can finish (no card in hand fits the top card and the talon "
        "is empty and not rebuilt), under blocked_deal = fewest-points-wins with loser_rule = "
        "last-turn-before, dealer_without_loser = new-draw and scoring = card-points together, "
        "and with the preset's readings of those three: 3 and 4 seats, every seat holding the "
        "cheapest hand, no face-down penalty card or one (an eight or a plain card) held by "
        "any seat, a player away or none (4 seats), two and all players active when the deal "
        "began. Everyone at the table passes in turn; the engine's winner is the encoding's "
        "cheapest_hand (face-down cards counted), its loser and record the encoding's "
        "official_result with the last passer as the last spelförare (who may be the winner), "
        "its points (card-points) the encoding's deal_scores, and its next dealer (or fresh "
        "draw) the encoding's next_dealer."
    ),
    kinds=(
        "blocked-winner",
        "blocked-official",
        "blocked-official-face-down",
        "blocked-points",
        "blocked-next-dealer",
        "blocked-new-draw",
    ),
    compare=_compare_blocked,
    claims=sum(3 + (o.scoring is Scoring.CARD_POINTS) for o, _ in _blocked_universe()),
)


# --- vvv8's late joiners ------------------------------------------------------------------------


def _seat_options() -> Iterator[tuple[str, VandattaOptions]]:
    """vvv8 under every combination of session, deck_setup, max_players_free_time and
    late_joiner_second_deck."""
    from regelverk.vandatta.options import DeckSetup, MaxPlayersFreeTime, Session

    for session, setup, most, second in product(
        Session, DeckSetup, MaxPlayersFreeTime, LateJoinerSecondDeck
    ):
        values = {
            "session": session.value,
            "deck_setup": setup.value,
            "max_players_free_time": most.value,
            "late_joiner_second_deck": second.value,
        }
        yield ", ".join(f"{k} = {v}" for k, v in values.items()), with_options(VVV8, values)


_SEAT_COUNTS = range(2, 17)
"""Table sizes a newcomer tries to join: up to one past the free-time limit of 14 (and, under
add-decks, the sizes where a third deck comes in)."""
_ONE_EACH = tuple(
    c.code for c in french_deck(1) if c.suit is not Suit.HEARTS and c.rank is not Rank.EIGHT
)


def _dealt(options: VandattaOptions, seats: Seats, count: int) -> bool:
    """Whether a deal of ``count`` players is built: within the limit, dealt from one deck or
    two (positions of three decks and more are not built here), with a hand for each and a
    start card."""
    if count > seats.most:
        return False
    decks = seats.decks_for[count]
    return decks <= 2 and seats.hand_size * count + 1 <= 52 * decks


def _join_cases() -> Iterator[Comparison]:
    """A newcomer sits down at seat 1 of a deal of each size the position reader accepts under
    each option set: the engine's ruling (attempt and legal listing) against seat_free."""
    count_var, decks_var = Int.var("bind.seat.count"), Int.var("bind.seat.decks")
    for label, options in _seat_options():
        seats = Seats.of(options)
        free = Compiled(seat_free(count_var, decks_var, seats), [count_var, decks_var])
        for count in _SEAT_COUNTS:
            if count > seats.most:
                break
            if not _dealt(options, seats, count):
                continue
            names = _names(count)
            state = _position(
                options,
                names,
                {name: [_ONE_EACH[n]] for n, name in enumerate(names)},
                "KH",
                stock=5,
                turn="P1",
            )
            join = Join(name="New", seat=1)
            allowed = GAME.attempt(state, join).allowed
            encoded = bool(free([count, state.decks]))
            pack = 52 * max(state.decks, seats.decks_for[count + 1])
            short = seats.hand_size * (count + 1) + 1 > pack
            kind = "seat-free" if encoded else "pack-short" if short else "no-seat"
            yield Comparison(
                kind,
                encoded == allowed,
                f"{label}: {count} players with {state.decks} decks, a newcomer sits down: "
                f"engine {allowed}, encoding {encoded}",
            )


def _step_in_cases() -> Iterator[Comparison]:
    """A late joiner in the first seat of four players when the turn reaches him, or not, with
    nobody, one, two or three of the others away, under both readings of below_two_active: the
    engine's ruling on his stepping in and staying out (attempt) against step_in_allowed."""
    turn_var, away_var, active_var = (
        Bool.var("bind.join.turn"),
        Bool.var("bind.join.away"),
        Int.var("bind.join.active"),
    )
    names = _names(4)
    for reading in ("pause", "continue-alone"):
        options = with_options(VVV8, {"below_two_active": reading})
        allowed_fn = Compiled(
            step_in_allowed(turn_var, away_var, active_var, Seats.of(options)),
            [turn_var, away_var, active_var],
        )
        for turn, away_count in product(("P1", "P3"), range(4)):
            away = [n for n in names if n not in ("P1", turn)][:away_count]
            if turn != "P1" and away_count == 3:
                continue  # the spelförare is at the table
            state = _position(
                options,
                names,
                {"P1": [], "P2": ["2C", "3C"], "P3": ["4C"], "P4": ["5C", "6C", "7C"]},
                "KH",
                stock=10,
                turn=turn,
                joining=["P1"],
                away=away,
            )
            encoded = bool(allowed_fn([state.turn == 0, bool(state.away), active_seats(state)]))
            for action in (StepIn(player=0), StayOut(player=0)):
                ruling = GAME.attempt(state, action)
                listed = action in GAME.legal_actions(state)
                if state.turn != 0:
                    kind = "not-his-turn"
                elif encoded:
                    kind = "steps-in" if isinstance(action, StepIn) else "stays-out"
                else:
                    kind = "paused"
                yield Comparison(
                    kind,
                    encoded == ruling.allowed == listed,
                    f"below_two_active = {reading}, {action} with the turn at {turn}, away "
                    f"{away}: engine {ruling.allowed} (listed {listed}), encoding {encoded}: "
                    f"{ruling.message}",
                )


_RETURN_OPTIONS = tuple(
    with_options(VVV8, {"step_away_own_turn": "ends-turn", "absent_turn": turn})
    for turn in ("skip", "wait")
)
"""vvv8 where the spelförare may step away in his own turn (ending it), his turn passed over
or waited for while he is away."""


def _last_one_away(options: VandattaOptions, state: State) -> tuple[Comparison, State]:
    """The spelförare alone at the table steps away in his own turn (attempt): nobody passed,
    so the deal goes on exactly when the encoding's deal_blocked says it is not blocked; the
    state reached (everyone away) is returned for the returns."""
    idle_var, active_var = Int.var("bind.away.idle"), Int.var("bind.away.active")
    blocked = Compiled(deal_blocked(idle_var, active_var, NOTHING), [idle_var, active_var])
    ruling = GAME.attempt(state, StepAway(player=state.turn))
    after = ruling.state
    encoded = bool(blocked([after.idle, active_seats(after)]))
    ended = after.phase is not Phase.PLAY
    return (
        Comparison(
            "last-steps-away",
            ruling.allowed and encoded == ended,
            f"absent_turn = {options.absent_turn.value}, {len(state.players)} players, the "
            f"spelförare alone at the table steps away: engine allows {ruling.allowed}, deal "
            f"ended {ended} ({ruling.message}); encoding blocked {encoded}",
        ),
        after,
    )


def _return_cases() -> Iterator[Comparison]:
    """Three and four players: everyone away with the turn resting at each seat, the spelförare
    alone at the table, or everyone away by the engine's own way (that spelförare stepping away
    in his own turn under step_away_own_turn = ends-turn, :func:`_last_one_away`); then each
    absent player comes back (attempt): the engine's next spelförare against
    turn_after_return."""
    turn_var, away_var, back_var = (
        Int.var("bind.back.turn"),
        Bool.var("bind.back.away"),
        Int.var("bind.back.returner"),
    )
    for options in _RETURN_OPTIONS:
        seats_rules = Seats.of(options)
        after_fn = Compiled(
            turn_after_return(turn_var, away_var, back_var, seats_rules),
            [turn_var, away_var, back_var],
        )
        for count in (3, 4):
            names = _names(count)
            hands = {name: [_ONE_EACH[n], _ONE_EACH[n + 10]] for n, name in enumerate(names)}
            starts: list[State] = []
            for holder in range(count):
                starts.append(
                    _position(options, names, hands, "KH", stock=10, turn=names[holder], away=names)
                )
            alone = _position(options, names, hands, "KH", stock=10, turn="P1", away=names[1:])
            stepped, everyone_away = _last_one_away(options, alone)
            yield stepped
            starts += [alone, everyone_away]
            for state in starts:
                for seat in sorted(state.away):
                    ruling = GAME.attempt(state, Back(player=seat))
                    holder_away = state.turn in state.away
                    encoded = after_fn([state.turn, holder_away, seat])
                    if not holder_away:
                        kind = "return-turn-stays"
                    elif seat == state.turn:
                        kind = "return-own-turn"
                    elif seats_rules.skip:
                        kind = "return-takes-turn"
                    else:
                        kind = "return-turn-waits"
                    yield Comparison(
                        kind,
                        ruling.allowed and encoded == ruling.state.turn,
                        f"absent_turn = {options.absent_turn.value}, {count} players, turn at "
                        f"{names[state.turn]}, away {[names[s] for s in sorted(state.away)]}, "
                        f"{names[seat]} comes back: engine allows {ruling.allowed}, turn at "
                        f"{names[ruling.state.turn]}; encoding turn at {names[int(encoded)]}",
                    )


def _compare_late_joiners() -> Iterator[Comparison]:
    yield from _join_cases()
    yield from _step_in_cases()
    yield from _return_cases()


def _seat_universe() -> int:
    """How many comparisons :func:`_compare_late_joiners` makes: every table size up to the
    limit whose deal the position reader accepts (the deal's cards for every player and a
    start card fit the decks), and the fourteen positions of the stepping in, twice each."""
    total = 0
    for _, options in _seat_options():
        seats = Seats.of(options)
        total += sum(1 for count in _SEAT_COUNTS if _dealt(options, seats, count))
    stepping = 2 * 7  # both readings, the turn at him (nobody to three away) or at P3
    # both readings; for 3 and 4 players: every holder with all away (each of them comes back),
    # P1 present with the others away (each of those comes back), P1 stepping away then (one
    # comparison) and everyone away so (each comes back)
    returns = 2 * sum(n * n + (n - 1) + 1 + n for n in (3, 4))
    return total + 2 * stepping + returns


LATE_JOINERS = Binding(
    name="vandatta-end.late-joiners",
    statement=(
        "A newcomer sitting down during a vvv8 deal of 2 to 16 players (up to the limit, "
        "dealt from one deck or two) is seated by the engine (attempt) exactly when "
        "the encoding's seat_free says a seat is free, under every combination of session, "
        "deck_setup, max_players_free_time and late_joiner_second_deck; among them seats "
        "refused because the next deal could not give every player a hand and a start card. "
        "A late joiner of a four-player table steps in or stays out (attempt and legal_actions) "
        "exactly when step_in_allowed says so: with the turn at him or not, nobody to three "
        "players away, under both readings of below_two_active. Under step_away_own_turn = "
        "ends-turn and both readings of absent_turn, at three and four players, the spelförare "
        "alone at the table stepping away in his own turn ends the deal exactly when the "
        "encoding's deal_blocked says so, and each absent player coming back (everyone away "
        "with the turn at each seat; the spelförare alone at the table; everyone away after he "
        "stepped away) leaves the turn where the encoding's turn_after_return puts it."
    ),
    kinds=(
        "seat-free",
        "no-seat",
        "pack-short",
        "not-his-turn",
        "steps-in",
        "stays-out",
        "paused",
        "last-steps-away",
        "return-takes-turn",
        "return-own-turn",
        "return-turn-waits",
        "return-turn-stays",
    ),
    compare=_compare_late_joiners,
    claims=_seat_universe(),
)


# --- the coffee break's moves of play -----------------------------------------------------------


def heap_values(state: State) -> dict[str, int | bool]:
    """The counts of the coffee-break encoding, read off an engine state."""
    return {
        "stock": len(state.stock),
        "pile": len(state.pile),
        "held": sum(_held(state, s) for s in range(len(state.players))),
        "passes": state.talon_passes,
        "draws": state.draws,
        "restart": state.restart is Restart.ACE,
        "idle": state.idle,
        "players": len(state.players),
        "active": active_seats(state),
        "joining": len(state.joining),
    }


COMPARED = ("stock", "pile", "held", "passes", "draws", "restart", "idle")


def deck_of(state: State) -> Deck:
    """The encoding's fixed quantities for the state's deal: cards in play, the seat cap, the
    talon passes that draw the deal (all read from the engine). The ranking rests on a blocked
    deal ending: blocked_deal = play-on is refused (``ValueError``), not compared."""
    rules = Rules.of(state.options)
    if not rules.blocked_ends:
        raise ValueError("blocked_deal = play-on is not encoded: a blocked deal never ends")
    if rules.fresh_start:
        raise ValueError("rebuild_reference = fresh-start-card is not encoded in the heap")
    if state.options.late_joiner_second_deck is not LateJoinerSecondDeck.REFUSE:
        raise ValueError(
            "late_joiner_second_deck = add-deck is not encoded: the heap keeps the deal's decks"
        )
    if state.decks not in (1, 2):
        raise ValueError(f"{state.decks} decks (max_players_free_time = add-decks) are not encoded")
    cap = state.options.coffee_break_max_players or state.options.max_players
    return Deck(
        total=len(french_deck(state.decks)),
        cap=cap,
        limit=talon_limit(rules, state.decks),
        rules=rules,
    )


def _step_kind(before: State, action: Action, after: State) -> str:
    if _over(after):
        if after.winner is not None:
            return "going-out"
        return "drawn-deal" if after.talon_passes > before.talon_passes else "void-deal"
    if isinstance(action, Draw):
        return "rebuild" if not before.stock else "draw"
    if isinstance(action, Pass):
        return "pass"
    assert isinstance(action, Play)
    if any(c.rank is Rank.ACE for c in action.cards):
        return "ace"
    return "eight" if action.cards[0].rank is Rank.EIGHT else "play"


def compare_step(before: State, action: Action, after: State) -> Comparison:
    """The encoding's transition for a legal draw, pass or play allows it and gives the engine's
    next state in counts (and ends the deal exactly when the engine does)."""
    deck = deck_of(before)
    heap = Heap.fresh("pre")
    k, own, aces, others = (Int.var(f"bind.{n}") for n in ("k", "own", "aces", "others"))
    eight, won = Bool.var("bind.eight"), Bool.var("bind.won")
    fixed = {name: (heap.values()[name], value) for name, value in heap_values(before).items()}
    seat = before.turn
    if isinstance(action, Draw):
        allowed, post = draw_step(heap, deck, NOTHING)
    elif isinstance(action, Pass):
        allowed, post = pass_step(heap, deck, NOTHING)
    else:
        assert isinstance(action, Play)
        count = sum(1 for c in action.cards if c.rank is Rank.ACE)
        fixed["k"] = (k, len(action.cards))
        fixed["own"] = (own, _held(before, seat))
        if count and not (_over(after) and after.winner == seat):
            skip = before.record.out | before.benched
            fixed["aces"] = (aces, count)
            fixed["others"] = (others, len(seats_after(len(before.players), seat, skip)))
            allowed, post = ace_play_step(
                heap,
                deck,
                NOTHING,
                k=k,
                own=own,
                aces=aces,
                others=others,
                max_aces=4 * before.decks,
                max_others=len(before.players) - 1,
            )
        else:
            fixed["eight"] = (eight, action.cards[0].rank is Rank.EIGHT)
            fixed["won"] = (won, after.winner == seat and _over(after))
            allowed, post = plain_play_step(heap, deck, NOTHING, k, own, eight=eight, won=won)
    kind = _step_kind(before, action, after)
    wanted = [allowed, post.over, *(post.values()[name] for name in COMPARED)]
    got = decide([], fixed, wanted)
    if got is None:
        return Comparison(kind, False, f"{action}: {NO_ANSWER}")
    engine = heap_values(after)
    encoded = dict(zip(COMPARED, got[2:], strict=True))
    agrees = got[0] is True and got[1] == _over(after)
    if agrees and not _over(after):
        agrees = encoded == {n: engine[n] for n in COMPARED}
    return Comparison(
        kind,
        agrees,
        f"{action} from {heap_values(before)}: encoding allows {got[0]}, ends the deal "
        f"{got[1]}, gives {encoded}; engine ends the deal {_over(after)}, gives "
        f"{ {n: engine[n] for n in COMPARED} }",
    )


def ranking_falls(before: State, after: State) -> bool | None:
    """The coffee-break ranking, evaluated through the encoding, is at or above zero before and
    falls (``None``: no answer, or a negative component)."""
    deck = deck_of(before)
    pre, post = Heap.fresh("a"), Heap.fresh("b")
    fixed = {f"a.{n}": (pre.values()[n], v) for n, v in heap_values(before).items()}
    fixed |= {f"b.{n}": (post.values()[n], v) for n, v in heap_values(after).items()}
    low, high = ranking(pre, deck), ranking(post, deck)
    got = decide([], fixed, [lex_less(high, low), *(c >= 0 for c in low)])
    if got is None or not all(got[1:]):
        return None
    return bool(got[0])


def _near_end(state: State, rng: random.Random) -> State:
    """Cut a fresh deal down to a few cards a hand (some matching the top card), with going-out
    calls standing, some players away, face-down penalty cards, a talon of a few cards and
    some talon passes already counted, so that deals end within the binding's steps."""
    data = GAME.position_to_data(state)
    names = list(state.players)
    turn = data["turn"]
    top = state.top
    for name in names:
        hand = sorted(
            data["hands"][name],
            key=lambda c: top is None or not (c[-1] == top.code[-1] or c[:-1] == top.code[:-1]),
        )
        data["hands"][name] = hand[: rng.choice((1, 1, 2, 3))]
    data["calls"] = [name for name in names if rng.random() < 0.6]
    data["away"] = [n for n in names if n != turn and rng.random() < 0.15]
    data["active_at_start"] = len(names)
    if rng.random() < 0.3:
        penalised = rng.choice(names)
        if data["hands"][penalised][1:]:
            data["penalties"] = {penalised: data["hands"][penalised][:1]}
            data["hands"][penalised] = data["hands"][penalised][1:]
    placed = Counter(c for hand in data["hands"].values() for c in hand)
    placed.update(c for cards in data.get("penalties", {}).values() for c in cards)
    placed.update(data["pile"])
    rest = sorted((Counter(c.code for c in french_deck(state.decks)) - placed).elements())
    rng.shuffle(rest)
    small = rng.choice((0, 1, 2, 4, 7))
    spare = rng.choice((0, 1, 3, len(rest)))
    data["pile"] = rest[small : small + spare] + data["pile"]
    data["stock"] = rest[:small]
    unplaced = rest[small + spare :]
    if unplaced:
        # what is neither talon nor pile goes to the hands, round the table
        for n, card in enumerate(unplaced):
            data["hands"][names[n % len(names)]].append(card)
    limit = talon_limit(Rules.of(state.options), state.decks)
    data["talon_passes"] = rng.choice((0, limit - 1, limit - 1))
    return GAME.position_from_data(data, state.options)


def _pick(state: State, rng: random.Random) -> Action:
    """A legal action (going out and calls favoured), or now and then a mistake."""
    legal = GAME.legal_actions(state)
    seat = state.turn
    roll = rng.random()
    if roll < 0.15 and state.hands[seat]:
        card = rng.choice(state.hands[seat])
        suit = state.top.suit if card.rank is Rank.EIGHT and state.top else None
        call = rng.random() < 0.3
        if state.options.wrong_card_take_back is WrongCardTakeBack.MAY_LEAVE:
            return Play(player=seat, cards=(card,), suit=suit, call=call, leave=rng.random() < 0.5)
        return Play(player=seat, cards=(card,), suit=suit, call=call)
    draws = [a for a in legal if isinstance(a, Draw)]
    if draws and not state.stock and roll < 0.6:
        return draws[0]
    plays = [a for a in legal if isinstance(a, Play) and a.player == seat]
    finishing = [a for a in plays if _held(state, seat) == len(a.cards)]
    if finishing and roll < 0.7:
        return rng.choice(finishing)
    if plays and roll < 0.85:
        return rng.choice(plays)
    return rng.choice(legal)


def _blocked(players: int) -> State:
    """A vvv8 coffee-break position nobody can move in: the talon is empty, the pile is its top
    card 9♥, and every card that would fit it lies face down in the last player's penalty set."""
    names = _names(players)
    fitting = {
        c.code for c in french_deck(1) if c.suit is Suit.HEARTS or c.rank in (Rank.NINE, Rank.EIGHT)
    }
    fitting.discard("9H")
    plain = [c.code for c in french_deck(1) if c.code not in fitting and c.code != "9H"]
    hands = {name: plain[n::players] for n, name in enumerate(names)}
    return GAME.position_from_data(
        {
            "players": names,
            "hands": hands,
            "penalties": {names[-1]: sorted(fitting)},
            "pile": ["9H"],
            "stock": [],
            "turn": names[0],
        },
        VVV8,
    )


def _step_comparisons(state: State, action: Action, ruling: Ruling[State]) -> Iterator[Comparison]:
    """A move of play against its encoded step; a move of play or a penalty that finds a card
    against the ranking."""
    after = ruling.state
    mine = isinstance(action, Play | Draw | Pass) and action.player == state.turn
    if mine and ruling.allowed:
        yield compare_step(state, action, after)
    if _over(after) or after.deal_number != state.deal_number:
        return
    if not ruling.allowed and after != state and heap_values(after) != heap_values(state):
        falls = ranking_falls(state, after)
        yield Comparison(
            "penalty", falls is True, f"{action}: the penalty did not lower the ranking ({falls})"
        )
    elif ruling.allowed and isinstance(action, Play | Draw | Pass):
        falls = ranking_falls(state, after)
        yield Comparison(
            "ranking-falls",
            falls is True,
            f"{action} from {heap_values(state)} to {heap_values(after)}: the ranking did not "
            f"fall ({falls})",
        )


_MIDDRAW = with_options(VVV8, {"talon_empty_mid_draw": "draw-what-is-there"})
"""vvv8 where a draw that is not the spelförare's own takes only what is left in the talon."""

_PENALTY_READINGS = with_options(
    VVV8,
    {
        "wrong_card_take_back": "may-leave",
        "false_call_detection": "when-revealed",
        "failed_out_card": "card-returns",
        "last_hand_card_locked": "treated-as-going-out",
        "eight_in_hand_when": "at-call",
        "veto_limit": "once-per-offender-turn",
    },
)
"""vvv8 with the other readings of the mistakes at the table: wrong cards left on the pile,
false calls noted for later, a failed going out's card back in hand, an emptied hand as a
going out, an eight barring the call as it is said, one veto per offender and turn."""


def _compare_steps() -> Iterator[Comparison]:
    for players in (2, 3):
        state = _blocked(players)
        for _ in range(players):
            passing = Pass(player=state.turn)
            ruling = GAME.attempt(state, passing)
            if not ruling.allowed:
                yield Comparison("void-deal", False, f"{passing} refused: {ruling.message}")
                break
            yield compare_step(state, passing, ruling.state)
            state = ruling.state
    for options in (VVV8, _MIDDRAW):  # an ace with one card left in the talon
        state = _position(
            options,
            ["P1", "P2", "P3"],
            {"P1": ["AH", "5S"], "P2": ["9C", "10C"], "P3": ["JC", "QC"]},
            "6H",
            stock=1,
        )
        ace = Play(player=0, cards=(Card.parse("AH"),))
        yield from _step_comparisons(state, ace, GAME.attempt(state, ace))
    rng = random.Random(1800)
    for game in range(30):
        players = 2 + game % 4
        options = VVV8 if game < 18 else _MIDDRAW if game < 24 else _PENALTY_READINGS
        state = GAME.deal(options, _names(players), rng.randrange(10_000))
        steps = 0
        while steps < 30 and not GAME.is_over(state):
            if state.phase is not Phase.PLAY:
                state = GAME.apply(state, GAME.legal_actions(state)[0]).state
                if state.phase is Phase.PLAY:
                    state = _near_end(state, rng)
                steps += 1
                continue
            if paused(state):
                break
            action = _pick(state, rng)
            ruling = GAME.attempt(state, action)
            after = ruling.state
            steps += 1
            yield from _step_comparisons(state, action, ruling)
            if _over(after):
                break
            state = after


STEPS = Binding(
    name="vandatta-end.coffee-break-steps",
    statement=(
        "Every move of play the engine makes in seeded vvv8 coffee-break deals played near "
        "their end, under the preset, under talon_empty_mid_draw = draw-what-is-there and "
        "under the other readings of vvv8's mistakes at the table (wrong cards left, failed "
        "going out's card back, false calls noted, an emptied hand as a going out) "
        "(a draw, one that rebuilds the talon, a pass, plays with and without aces "
        "and eights, a going out, a drawn deal at the talon limit, a void deal) is allowed by "
        "the encoded step and leads to the engine's next state in counts; every such move and "
        "every penalty that finds a card lowers the encoded ranking."
    ),
    kinds=(
        "draw",
        "rebuild",
        "pass",
        "play",
        "ace",
        "eight",
        "going-out",
        "drawn-deal",
        "void-deal",
        "penalty",
        "ranking-falls",
    ),
    compare=_compare_steps,
    claims=711,
)


# --- the never-ending free-time game ------------------------------------------------------------


def _comparable(state: State) -> dict[str, Any]:
    data = GAME.position_to_data(state)
    data.pop("talon_passes")
    data["hands"] = {name: sorted(cards) for name, cards in data["hands"].items()}
    return data


def _compare_lasso() -> Iterator[Comparison]:
    verdict, witness = find_lasso(NOTHING)
    if witness is None:
        yield Comparison("lap", False, f"the lasso search found no witness ({verdict.value})")
        return
    free = with_options(VVV8, {"session": "free-time"})
    start = GAME.position_from_data(witness.position, free)
    state = start
    for lap in range(3):
        for data in witness.actions:
            action = GAME.action_from_data(data, state)
            allowed = GAME.attempt(state, action).allowed and action in GAME.legal_actions(state)
            state = GAME.apply(state, action).state if allowed else state
            yield Comparison(
                "step",
                allowed and state.phase is Phase.PLAY and all(state.hands),
                f"lap {lap + 1}, {data}: allowed {allowed}, phase {state.phase.value}",
            )
        yield Comparison(
            "lap",
            _comparable(state) == _comparable(start),
            f"after lap {lap + 1} the position is not the one it began with",
        )
    state = GAME.position_from_data(witness.position, VVV8)
    for step in range(10 * len(witness.actions)):
        if state.phase is not Phase.PLAY:
            break
        data = witness.actions[step % len(witness.actions)]
        state = GAME.apply(state, GAME.action_from_data(data, state)).state
    yield Comparison(
        "coffee-break-drawn",
        state.phase is Phase.DEAL_OVER
        and state.winner is None
        and state.talon_passes >= talon_limit(Rules.of(VVV8), state.decks),
        f"in a coffee break the same actions end in phase {state.phase.value} with "
        f"{state.talon_passes} talon passes and winner {state.winner}",
    )


LASSO = Binding(
    name="vandatta-end.free-time-lasso",
    statement=(
        "The lasso the encoding finds replays in the engine: in free time each action is legal "
        "(attempt and legal_actions), nobody runs out of cards, and after each of three laps "
        "the position is the one it began with (talon passes aside); in a coffee break the "
        "same actions draw the deal at the engine's talon limit."
    ),
    kinds=("step", "lap", "coffee-break-drawn"),
    compare=_compare_lasso,
    claims=16,
)


# --- the encodings' own tables against the engine's ---------------------------------------------

_SAID = (
    None,
    "utgång",
    "Utgång!",
    "utgang",
    "varning",
    " Varning! ",
    "LAPPEN.",
    "lappen",
    "sista kortet",
    "last card!",
    "uno",
    "",
)
"""Words said as the going-out call: the text's, respelt, the table's agreed word, others."""
_AGREED: tuple[tuple[str, ...], ...] = ((), ("Sista kortet",))
_DECK_PLAYERS = range(2, 31)
"""Table sizes for the deck count: 2 up to 30, the most the add-decks reading seats."""


def _compare_text_tables() -> Iterator[Comparison]:
    from regelverk.vandatta import join
    from regelverk.vandatta import rules as engine_rules
    from regelverk.vandatta import scoring as engine_scoring
    from regelverk.vandatta import setup as engine_setup
    from regelverk.vandatta.options import (
        AcceptedCalls,
        DeckSetup,
        GoOutCall,
        MaxPlayersFreeTime,
        TalonPassCount,
    )
    from regelverk_proofs.vandatta import text

    for count in TalonPassCount:
        options = with_options(VVV8, {"talon_pass_count": count.value})
        for decks in (1, 2):
            ours, theirs = (
                text.drawn_deal_passes(options, decks),
                engine_rules.drawn_deal_passes(options, decks),
            )
            yield Comparison(
                "drawn-after",
                ours == theirs,
                f"{decks} decks, talon_pass_count = {count.value}: {ours} passes from spec/, "
                f"{theirs} in the engine",
            )
    for call in GoOutCall:
        options = with_options(VVV8, {"go_out_call": call.value})
        ours_c, theirs_c = (
            text.drawn_deal_clauses(options),
            engine_rules.drawn_deal_clauses(options),
        )
        yield Comparison("drawn-clauses", ours_c == theirs_c, f"{call.value}: {ours_c} {theirs_c}")
    for accepted in AcceptedCalls:
        for agreed in _AGREED:
            options = with_options(VVV8, {"accepted_calls": accepted.value, "agreed_calls": agreed})
            for word in _SAID:
                ours_h = text.call_heard(options, word)
                theirs_h = engine_rules.call_heard(options, word)
                yield Comparison(
                    "call-heard",
                    ours_h == theirs_h,
                    f"{word!r} under accepted_calls = {accepted.value}, agreed {agreed}: "
                    f"heard {ours_h} by the text, {theirs_h} by the engine",
                )
    for setup in DeckSetup:
        for most in MaxPlayersFreeTime:
            options = with_options(
                VVV8, {"deck_setup": setup.value, "max_players_free_time": most.value}
            )
            for players in _DECK_PLAYERS:
                ours_d = text.deck_count(options, players)
                theirs_d = engine_setup.deck_count(options, players)
                yield Comparison(
                    "deck-count",
                    ours_d == theirs_d,
                    f"{players} players, deck_setup = {setup.value}, max_players_free_time = "
                    f"{most.value}: {ours_d} decks by the text, {theirs_d} by the engine",
                )
    for card in french_deck(1):
        ours_p = text.card_points((card.rank,))
        theirs_p = engine_scoring.card_points((card,))
        yield Comparison(
            "card-points", ours_p == theirs_p, f"{card}: {ours_p} from spec/, {theirs_p}"
        )
    for name, ours_n, theirs_n in (
        ("EXTRA_CARDS", text.EXTRA_CARDS, join.EXTRA_CARDS),
        ("WINNER_POINTS", text.WINNER_POINTS, engine_scoring.WINNER_POINTS),
    ):
        yield Comparison("constant", ours_n == theirs_n, f"{name}: {ours_n} and {theirs_n}")


TEXT_TABLES = Binding(
    name="vandatta.text-tables",
    statement=(
        "The encodings' own tables (regelverk_proofs.vandatta.text, from the clause parameters "
        "of spec/, never from the engine) equal the engine's rule functions everywhere: the "
        "talon passes that draw a deal, for one deck and two under both readings of "
        "talon_pass_count; the clauses a drawn deal cites under both going-out calls; whether "
        f"each of {len(_SAID)} words counts as the going-out call, under both readings of "
        "accepted_calls, with and without a word the table agreed; the decks for 2 to 30 "
        "players under every combination of deck_setup and max_players_free_time; the points "
        "of each of the 52 cards; a late joiner's extra card and the winner's points."
    ),
    kinds=("drawn-after", "drawn-clauses", "call-heard", "deck-count", "card-points", "constant"),
    compare=_compare_text_tables,
    claims=4 + 2 + 2 * len(_AGREED) * len(_SAID) + 3 * 2 * len(_DECK_PLAYERS) + 52 + 2,
)
