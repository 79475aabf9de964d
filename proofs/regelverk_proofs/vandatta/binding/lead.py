"""The binding of ``vandatta.free-lead`` to the engine.

The theorem decides over the flags' transition of :mod:`regelverk_proofs.vandatta.encoding.lead`.
:func:`compare` holds that transition to the engine on positions built from data
(``GAME.position_from_data``), three players A, B and C, C dealing and A the spelförare, each
checked problem-free before use. The universe is enumerated, not sampled:

* **rebuilds**: a free lead in front of a draw from an empty talon (every card in no hand lies
  on the pile), the card kept face up an eight (with a suit named or not), an ace or a plain
  card, and an ace restart in front of one; the draw the first of the turn under
  play_after_third_draw = may-play or the last under third-draw-ends-turn; under both presets
  and every combination of the readings of rebuild_reference, start_eight, start_ace_draw,
  viggo_present and start_ace. Every start-suit position a rebuild leads to is played on too:
  the dealer's every naming;
* **plays**: a free lead in front of plays of plain cards, an eight and an ace, of a going out
  (a call standing), of the draws, and of the pass after every draw, with a suit named or not;
  under both presets and every combination of the readings of after_eight, voluntary_draw and
  eight_suit_persistence;
* **ends of turns**: nothing to lay after every draw, in an ordinary turn, under a named suit,
  in a restart after one's own ace or (where the pile is turned away) eight, in front of the
  pass; the last draw, bringing up a card that fits or one that does not, after a free lead, an
  ordinary turn or an ace restart; under both presets and every combination of the readings of
  after_three_draws, play_after_third_draw, eight_suit_persistence, voluntary_draw and
  after_eight;
* **penalties as a turn ends**: the spelförare's turn ends with penalty cards taken from an
  empty talon, which they rebuild onto the top of the pile, an eight, an ace or a plain card:
  a LAPPEN caller who did not go out (with one card or two, under every reading of
  lappen_penalty and lappen_failure), a forgotten varning (every reading of varning_omission,
  the pass and the last draw said with and without the call), a forgotten LAPPEN (every reading
  of lappen_omission), vvv8's three cards owed for a failed going out (and, with three cards in
  the talon, owed cards that need no rebuild); ended by the pass after every draw, or by the
  last draw under play_after_third_draw = third-draw-ends-turn (the draw taking the talon's
  last card), and a varning forgotten with a play on a free lead (the last card laid kept face
  up), under every reading of after_eight; each under every reading of rebuild_reference and
  start_eight, nothing to lay after the draws, after_three_draws = pass-free-lead.

On each position every action the engine lists is applied, and the engine's phase, restart,
free lead and named suit after it must be those the encoding's step gives from the position's
flags, the table's readings and inputs measured on the position: the kind of card kept (the top
of the pile) or laid, whether the play empties the player's hands, whether every draw is made,
whether the spelförare holds a card he may lay (a play the engine lists, in the position
where the turn ends), and whether the penalty cards he takes as his turn ends needed a rebuilt
talon: his cards (in hand and face down) after the step, less those before, plus those laid,
less the one drawn, outnumber the cards the talon held as the turn ended. An engine that
raises counts as a disagreement.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

from regelverk.cards import Card, Rank, french_deck
from regelverk.engine import with_options
from regelverk.vandatta import GAME, VANDATTA, VVV8
from regelverk.vandatta.options import (
    AfterEight,
    AfterThreeDraws,
    EightSuitPersistence,
    GoOutCall,
    LappenFailure,
    LappenOmission,
    LappenPenalty,
    Penalties,
    PlayAfterThirdDraw,
    RebuildReference,
    StartAce,
    StartAceDraw,
    StartEight,
    VandattaOptions,
    VarningOmission,
    VoluntaryDraw,
)
from regelverk.vandatta.state import (
    Action,
    Draw,
    NameSuit,
    Pass,
    Phase,
    Play,
    Restart,
    Stall,
    State,
)
from regelverk_proofs.binding import Binding, Comparison
from regelverk_proofs.evaluate import Compiled
from regelverk_proofs.vandatta.encoding.lead import (
    ACE,
    EIGHT,
    PLAIN,
    STEPS,
    Flags,
    Readings,
    code,
    step,
)

__all__ = ["FREE_LEAD_STEPS", "KINDS", "compare", "engine_flags", "positions"]

PLAYERS = ["A", "B", "C"]
OTHERS = {"B": ["4C", "5D"], "C": ["6C", "7D"]}
"""The hands of the players who are not to play: nobody near going out."""
STUCK = ["2C", "3D"]
"""A hand that fits none of the tops used (9♥, 8♥ with spades named, A♠, an empty pile with
hearts named), nor an ace of spades by rank."""
BELOW = ["10S", "JS"]
"""The cards under the top of a pile that is not the whole of the played cards."""
BOOKS = (("vvv8", VVV8), ("vandatta", VANDATTA))

Position = tuple[str, State]
"""A position and the words that say how it was built."""

KINDS: tuple[str, ...] = (
    "rebuild-continue",
    "fresh-eight-dealer-names",
    "fresh-eight-returned",
    "fresh-ace",
    "fresh-plain",
    "rebuild-in-restart",
    "draw",
    "third-draw-ends-turn",
    "pass",
    "penalty-no-rebuild",
    "penalty-rebuild-continue",
    "penalty-fresh-eight-dealer-names",
    "penalty-fresh-eight-returned",
    "penalty-fresh-ace",
    "penalty-fresh-plain",
    "free-lead-granted",
    "free-lead-after-restart",
    "play",
    "play-eight",
    "ace-restart",
    "out",
    "name-suit",
)
"""What the binding compares: every kind of case :func:`compare` yields."""


def _kind(card: Card) -> int:
    if card.rank is Rank.EIGHT:
        return EIGHT
    return ACE if card.rank is Rank.ACE else PLAIN


def engine_flags(state: State) -> tuple[int, int, bool, bool]:
    """The engine's phase, restart, free lead and named suit, as the encoding numbers them."""
    return code(state.phase), code(state.restart), state.free_lead, state.named_suit is not None


def _build(
    options: VandattaOptions,
    hand: list[str],
    top: str | None,
    *,
    empty: bool = False,
    stock: tuple[str, ...] = (),
    **fields: Any,
) -> State:
    """A position in play: A to play on ``top`` (none: the pile is turned away) holding
    ``hand``; with ``empty`` every card in no hand lies on the pile and the talon is empty,
    else the pile is :data:`BELOW` under ``top`` and ``stock`` lies on top of the talon."""
    hands = {"A": hand, **OTHERS}
    held = Counter(c for cards in hands.values() for c in cards)
    pile = [] if top is None else [top]
    if empty:
        placed = held + Counter(pile) + Counter(stock)
        rest = Counter(c.code for c in french_deck(1)) - placed
        pile = [c.code for c in french_deck(1) if rest[c.code]] + pile
    elif top is not None:
        pile = BELOW + pile
    data: dict[str, Any] = {
        "players": PLAYERS,
        "dealer": "C",
        "turn": "A",
        "previous": "C",
        "hands": hands,
        "pile": pile,
        "stock": list(stock),
        **fields,
    }
    state = GAME.position_from_data(data, options)
    problems = GAME.problems(state)
    if problems:
        raise ValueError(f"the binding built a position with problems: {'; '.join(problems)}")
    return state


def _rebuild_positions() -> Iterator[Position]:
    """A free lead (or an ace restart) in front of a draw from an empty talon."""
    readings = itertools.product(
        BOOKS,
        RebuildReference,
        StartEight,
        StartAceDraw,
        (False, True),
        StartAce,
        ((PlayAfterThirdDraw.MAY_PLAY, False), (PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN, True)),
    )
    for (book, base), reference, eight, ace_draw, viggo, ace, (third, last) in readings:
        options = with_options(
            base,
            {
                "after_three_draws": AfterThreeDraws.PASS_FREE_LEAD,
                "voluntary_draw": VoluntaryDraw.NEVER_OBLIGED,
                "rebuild_reference": reference,
                "start_eight": eight,
                "start_ace_draw": ace_draw,
                "viggo_present": viggo,
                "start_ace": ace,
                "play_after_third_draw": third,
            },
        )
        made = options.max_draws - 1 if last else 0  # the first draw, or the last
        where = (
            f"{book}, {reference.value}, {eight.value}, start ace {ace_draw.value}"
            f"{' (Viggo plays)' if viggo else ''}, {ace.value}, {third.value}, {made} drawn, "
            "the talon empty"
        )
        for top, named in (("8H", None), ("8H", "S"), ("AS", None), ("9D", None)):
            shown = f"{top}{' (spades named)' if named else ''}"
            state = _build(
                options, STUCK, top, empty=True, free_lead=True, named_suit=named, draws=made
            )
            yield f"{where}: a free lead on {shown}", state
        state = _build(options, STUCK, "AS", empty=True, restart="ace", draws=made)
        yield f"{where}: restarting on his own AS", state


def _play_positions() -> Iterator[Position]:
    """A free lead in front of plays, draws, a going out and the pass after every draw."""
    readings = itertools.product(BOOKS, AfterEight, VoluntaryDraw, EightSuitPersistence)
    for (book, base), after_eight, voluntary, persistence in readings:
        options = with_options(
            base,
            {
                "after_three_draws": AfterThreeDraws.PASS_FREE_LEAD,
                "after_eight": after_eight,
                "voluntary_draw": voluntary,
                "eight_suit_persistence": persistence,
            },
        )
        where = f"{book}, {after_eight.value}, {voluntary.value}, {persistence.value}"
        spent = options.max_draws
        utgang = options.go_out_call is GoOutCall.UTGANG
        cases: tuple[tuple[str, State], ...] = (
            (
                "a free lead on 9D, holding an eight, an ace, a pair",
                _build(options, ["2C", "2D", "8S", "AH", "KC"], "9D", free_lead=True),
            ),
            (
                "a free lead on 8H, spades named",
                _build(options, STUCK, "8H", free_lead=True, named_suit="S"),
            ),
            (
                "a free lead on 9H after every draw",
                _build(options, STUCK, "9H", free_lead=True, draws=spent),
            ),
            (
                "a free lead on 9D, one card left (vvv8: his utgång standing)",
                _build(options, ["5H"], "9D", free_lead=True, calls=["A"] if utgang else []),
            ),
        )
        for label, state in cases:
            yield f"{where}: {label}", state


def _end_positions() -> Iterator[Position]:
    """Nothing to lay after every draw, and the last draw, in front of the end of the turn."""
    readings = itertools.product(
        BOOKS,
        AfterThreeDraws,
        PlayAfterThirdDraw,
        EightSuitPersistence,
        VoluntaryDraw,
        AfterEight,
    )
    for (book, base), after_three, third, persistence, voluntary, after_eight in readings:
        options = with_options(
            base,
            {
                "after_three_draws": after_three,
                "play_after_third_draw": third,
                "eight_suit_persistence": persistence,
                "voluntary_draw": voluntary,
                "after_eight": after_eight,
            },
        )
        where = (
            f"{book}, {after_three.value}, {third.value}, {persistence.value}, "
            f"{voluntary.value}, {after_eight.value}"
        )
        spent, last = options.max_draws, options.max_draws - 1
        cases: list[tuple[str, State]] = [
            ("nothing fits 9H after every draw", _build(options, STUCK, "9H", draws=spent)),
            (
                "nothing fits 8H, spades named, after every draw",
                _build(options, STUCK, "8H", named_suit="S", draws=spent),
            ),
            (
                "nothing fits his own AS after every draw",
                _build(options, STUCK, "AS", restart="ace", draws=spent),
            ),
            (
                "the last draw brings up 5C, which does not fit 9H",
                _build(options, STUCK, "9H", draws=last, stock=("5C",)),
            ),
            (
                "the last draw brings up 9C, which fits 9H",
                _build(options, STUCK, "9H", draws=last, stock=("9C",)),
            ),
            (
                "a free lead on 9H, the last draw bringing up 5C",
                _build(options, STUCK, "9H", draws=last, stock=("5C",), free_lead=True),
            ),
            (
                "his own AS, the last draw bringing up 5C",
                _build(options, STUCK, "AS", restart="ace", draws=last, stock=("5C",)),
            ),
        ]
        if after_eight is AfterEight.PILE_TURNED_SAME_PLAYER:
            cases.append(
                (
                    "the pile turned away, hearts named, nothing to lay after every draw",
                    _build(
                        options,
                        STUCK,
                        None,
                        turned=[*BELOW, "8S"],
                        named_suit="H",
                        restart="eight",
                        draws=spent,
                    ),
                )
            )
        for label, state in cases:
            yield f"{where}: {label}", state


Debtor = tuple[str, str, dict[str, Any], dict[str, Any], list[str], list[str] | None]
"""A spelförare whose turn ends with penalty cards: words, rulebook, readings, fields of the
position, his hand for the pass after every draw, and for the last draw (None: none owes)."""

PENALTY_TOPS = ("8H", "AS", "9H")
"""Tops of the pile the penalty's rebuild keeps: an eight (no suit named), an ace, a plain
card; none of them takes a card of :data:`STUCK`, ``3C`` or ``5C``."""


def _debtors() -> Iterator[Debtor]:
    """Every spelförare of the penalty part of the universe (see the module's docstring)."""
    for penalty, failure in itertools.product(LappenPenalty, LappenFailure):
        readings = {"lappen_penalty": penalty, "lappen_failure": failure}
        words = f"LAPPEN standing, {penalty.value}, {failure.value}"
        yield words, "vandatta", readings, {"calls": ["A"]}, ["2C"], None
        yield words, "vandatta", readings, {"calls": ["A"]}, STUCK, STUCK
    for varning in VarningOmission:
        words = f"varning owed, {varning.value}"
        yield words, "vandatta", {"varning_omission": varning}, {}, [*STUCK, "3C"], STUCK
    for lappen in LappenOmission:
        words = f"LAPPEN owed, {lappen.value}"
        yield words, "vandatta", {"lappen_omission": lappen}, {}, ["2C"], None
    owed = {"penalties": {"A": [{"cards": [], "owed": 3}]}}
    yield "three cards owed for a failed going out", "vvv8", {}, owed, STUCK, STUCK


def _penalty_positions() -> Iterator[Position]:
    """Turns that end with penalty cards taken from an empty talon (and, for vvv8's owed cards,
    from a talon that holds them), by a pass, a last draw or a play."""
    books = dict(BOOKS)
    for reference, eight in itertools.product(RebuildReference, StartEight):
        common = {
            "after_three_draws": AfterThreeDraws.PASS_FREE_LEAD,
            "rebuild_reference": reference,
            "start_eight": eight,
        }
        where = f"{reference.value}, {eight.value}"
        for words, book, readings, fields, hand, drawing in _debtors():
            options = with_options(books[book], {**common, **readings})
            ending = with_options(
                options, {"play_after_third_draw": PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN}
            )
            spent, last = options.max_draws, options.max_draws - 1
            for top in PENALTY_TOPS:
                at = f"{book}, {where}, {words}, on {top}, the talon empty"
                yield (
                    f"{at}: nothing to lay after every draw",
                    _build(options, hand, top, empty=True, draws=spent, **fields),
                )
                if drawing is not None:
                    yield (
                        f"{at} but for 5C: the last draw ends the turn",
                        _build(
                            ending, drawing, top, empty=True, draws=last, stock=("5C",), **fields
                        ),
                    )
            if book == "vvv8":
                yield (
                    f"{book}, {where}, {words}, on 9H, three cards in the talon",
                    _build(options, hand, "9H", draws=spent, stock=("5C", "6H", "7C"), **fields),
                )
        for after_eight, varning in itertools.product(AfterEight, VarningOmission):
            options = with_options(
                VANDATTA, {**common, "after_eight": after_eight, "varning_omission": varning}
            )
            yield (
                f"vandatta, {where}, {after_eight.value}, varning owed, {varning.value}, the "
                "talon empty: a free lead on 9H, holding 9C, 8C and two more",
                _build(options, ["9C", "8C", *STUCK], "9H", empty=True, free_lead=True),
            )


def positions() -> Iterator[Position]:
    """Every position of the universe (see the module's docstring)."""
    yield from _rebuild_positions()
    yield from _play_positions()
    yield from _end_positions()
    yield from _penalty_positions()


@cache
def _transitions() -> dict[str, tuple[Compiled, Compiled, Compiled, Compiled]]:
    """Each step's four flags after it, as Python functions of (flags before, readings,
    inputs)."""
    found = {}
    for which in STEPS:
        before, r, p = Flags.var("before"), Readings.var("read"), which.inputs("step")
        after = step(before, r, p, frozenset())
        inputs = [*before.terms(), *r.terms(), *p.terms()]
        found[which.name] = (
            Compiled(after.phase, inputs),
            Compiled(after.restart, inputs),
            Compiled(after.free, inputs),
            Compiled(after.named, inputs),
        )
    return found


def _dead(state: State) -> bool:
    """Whether the spelförare holds no card the engine lets him lay."""
    return not any(isinstance(a, Play) for a in GAME.legal_actions(state))


def _drawn(state: State) -> State:
    """The position as the draw ends the turn: the top of the talon in the spelförare's hand,
    one draw more made."""
    seat = state.turn
    hands = list(state.hands)
    hands[seat] = (*hands[seat], state.stock[-1])
    return dataclasses.replace(
        state, hands=tuple(hands), stock=state.stock[:-1], draws=state.draws + 1
    )


def _held(state: State, seat: int) -> int:
    """The cards a player holds, in hand and face down in front of him."""
    return len(state.hands[seat]) + sum(len(p.cards) for p in state.penalties[seat])


def _penalty_kind(options: VandattaOptions, refill: bool, turned: int) -> str:
    """The kind of a turn's end with penalty cards taken: whether they rebuilt the talon, and
    onto what."""
    if not refill:
        return "penalty-no-rebuild"
    if options.rebuild_reference is RebuildReference.CONTINUE:
        return "penalty-rebuild-continue"
    if turned == EIGHT:
        dealer = options.start_eight is StartEight.DEALER_NAMES_SUIT
        return "penalty-fresh-eight-dealer-names" if dealer else "penalty-fresh-eight-returned"
    return "penalty-fresh-ace" if turned == ACE else "penalty-fresh-plain"


Measured = tuple[str, str, tuple[int | bool, ...]]
"""The step an action is, its kind of case, and the inputs measured for it."""


def _inputs(state: State, action: Action, after: State) -> Measured:
    """The step the action is, its kind of case, and the inputs measured on the position (and,
    for the penalty cards taken as the turn ends, on the cards the spelförare holds after it:
    ``gained``, those he holds after less those before)."""
    if isinstance(action, NameSuit):
        return "name-suit", "name-suit", (action.suit is not None,)
    if isinstance(action, Stall):  # stalling = table-limit: the choice lapses, no suit named
        return "name-suit", "name-suit", (False,)
    seat = state.turn
    gained = _held(after, seat) - _held(state, seat)
    if isinstance(action, Play):
        return _play_inputs(state, action, gained, ended=after.turn != seat)
    if isinstance(action, Pass):
        return _pass_inputs(state, gained)
    assert isinstance(action, Draw), action
    return _draw_inputs(state, gained)


def _play_inputs(state: State, action: Play, gained: int, *, ended: bool) -> Measured:
    seat = state.turn
    first = _kind(action.cards[0])
    final = _kind(action.cards[-1])
    aces = any(c.rank is Rank.ACE for c in action.cards)
    out = len(action.cards) == len(state.hands[seat]) and not state.penalties[seat]
    taken = gained + len(action.cards)
    refill = taken > len(state.stock)
    if out:
        kind = "out"
    elif ended and taken > 0:
        kind = _penalty_kind(state.options, refill, final)
    elif first == EIGHT:
        kind = "play-eight"
    else:
        kind = "ace-restart" if aces else "play"
    return "play", kind, (first, aces, out, final, refill)


def _pass_inputs(state: State, gained: int) -> Measured:
    options = state.options
    piled = bool(state.pile)
    top = _kind(state.pile[-1]) if piled else PLAIN
    spent = state.draws >= options.max_draws
    dead = _dead(state)
    granted = options.after_three_draws is AfterThreeDraws.PASS_FREE_LEAD and spent and dead
    refill = gained > len(state.stock)
    kind = "pass"
    if gained > 0:
        kind = _penalty_kind(options, refill, top)
    elif granted:
        restarted = state.restart is not Restart.NONE
        kind = "free-lead-after-restart" if restarted else "free-lead-granted"
    return "pass", kind, (spent, dead, piled, refill, top)


def _draw_inputs(state: State, gained: int) -> Measured:
    options = state.options
    piled = bool(state.pile)
    stocked = bool(state.stock)
    last = state.draws == options.max_draws - 1
    kept = _kind(state.pile[-1]) if piled else PLAIN
    ends = stocked and last
    ends &= options.play_after_third_draw is PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
    dead = _dead(_drawn(state)) if ends else False
    refill = ends and gained - 1 > len(state.stock) - 1  # less the card the draw itself took
    if ends and gained > 1:
        kind = _penalty_kind(options, refill, kept)
    elif stocked:
        kind = "third-draw-ends-turn" if ends else "draw"
    elif state.restart is not Restart.NONE:
        kind = "rebuild-in-restart"
    elif options.rebuild_reference is RebuildReference.CONTINUE:
        kind = "rebuild-continue"
    elif kept == EIGHT:
        dealer = options.start_eight is StartEight.DEALER_NAMES_SUIT
        kind = "fresh-eight-dealer-names" if dealer else "fresh-eight-returned"
    else:
        kind = "fresh-ace" if kept == ACE else "fresh-plain"
    return "draw", kind, (stocked, last, piled, kept, dead, refill)


def _flags_text(flags: tuple[int | bool, ...]) -> str:
    phase, restart, free, named = flags
    return (
        f"phase {list(Phase)[int(phase)].value}, restart {list(Restart)[int(restart)].value}, "
        f"{'a free lead' if free else 'no free lead'}, "
        f"{'a suit named' if named else 'no suit named'}"
    )


def _compare_action(label: str, state: State, action: Action) -> tuple[Comparison, State]:
    after = GAME.apply(state, action).state
    name, kind, measured = _inputs(state, action, after)
    values = [*engine_flags(state), *Readings.of(state.options), *measured]
    expected = tuple(f(values) for f in _transitions()[name])
    found = engine_flags(after)
    agrees = tuple(int(v) for v in expected) == tuple(int(v) for v in found)
    detail = (
        f"{label}: {action!r} leads the engine to {_flags_text(found)}, the encoding's "
        f"{name} to {_flags_text(expected)} (from {_flags_text(engine_flags(state))})"
    )
    return Comparison(kind, agrees, "" if agrees else detail), after


def _cases() -> Iterator[Comparison]:
    for label, state in positions():
        for action in GAME.legal_actions(state):
            found, after = _compare_action(label, state, action)
            yield found
            if after.phase is Phase.START_SUIT:  # the dealer names a suit for the new start card
                for naming in GAME.legal_actions(after):
                    yield _compare_action(f"{label}, then {action!r}", after, naming)[0]
                if after.options.penalties is Penalties.BROTT_OCH_STRAFF:  # vvv8's own rule
                    yield _lapsed(f"{label}, then {action!r}", after)


def _lapsed(label: str, state: State) -> Comparison:
    """The same choice of suit left to lapse under stalling = table-limit: the dealer keeps the
    table waiting the limit (V8-AMB-STALLING-LIMIT), which the encoding reads as naming none."""
    options = with_options(state.options, {"stalling": "table-limit"})
    waiting = dataclasses.replace(state, options=options)
    assert waiting.dealer is not None
    stall = Stall(player=waiting.dealer, seconds=options.stalling_limit_seconds)
    return _compare_action(f"{label}, the choice left to lapse", waiting, stall)[0]


def compare() -> Iterator[Comparison]:
    """Every case of the binding (see the module's docstring)."""
    try:
        yield from _cases()
    except Exception as error:  # an engine that raises disagrees with every encoding
        yield Comparison(KINDS[0], False, f"the engine (or the position) raised {error!r}")


FREE_LEAD_STEPS = Binding(
    name="vandatta.free-lead.steps",
    statement=(
        "On three-player positions built from data, every one problem-free, under both presets "
        "and every combination of the readings each step depends on: a free lead (or an ace "
        "restart) in front of a draw that rebuilds an empty talon, the card kept an eight (with "
        "a suit named or not), an ace or a plain card, as the first or the last draw of the "
        "turn, under every reading of rebuild_reference, start_eight, start_ace_draw, "
        "viggo_present, start_ace and play_after_third_draw; a free lead in front of plays of a "
        "plain card, an eight and an ace, of a going out, of draws and of the pass after every "
        "draw, and positions with nothing to lay after every draw (an ordinary turn, a suit "
        "named, a restart after one's own ace or eight) in front of the pass and the third "
        "draw, under every reading of after_three_draws, play_after_third_draw, "
        "eight_suit_persistence, after_eight and voluntary_draw; positions whose turn ends "
        "with penalty cards taken from an empty talon (a LAPPEN caller who did not go out "
        "under every reading of lappen_penalty and lappen_failure, a forgotten varning under "
        "every reading of varning_omission, a forgotten LAPPEN under every reading of "
        "lappen_omission, vvv8's cards owed for a failed going out), by the pass after every "
        "draw, the last draw under third-draw-ends-turn or a play, the top of the pile an "
        "eight, an ace or a plain card, under every reading of rebuild_reference, start_eight "
        "and talon_empty_mid_draw; and every start-suit position a rebuild leads to, where "
        "under vvv8 the dealer's choice is also left to lapse (stalling = table-limit, read as "
        "naming no suit). Every action the engine lists there is applied, and the phase, "
        "restart, free lead and named suit it leads to are the ones the encoding's step gives "
        "for the position's flags, the table's readings and the inputs measured on the "
        "position (the kind of card kept or laid, whether the spelförare then holds a card the "
        "engine lets him lay, whether the play empties his hands, whether the cards he takes "
        "as the turn ends outnumber those left in the talon)."
    ),
    kinds=KINDS,
    compare=compare,
    claims=5503,
)
