"""The bindings of the UNO theorems: the engine's own rule functions against the encodings.

Each binding walks a bounded, seeded universe of engine positions (games played by a seeded
``random.Random`` under several option sets and player counts, and positions prepared to reach
the rare steps: a used-up draw pile, a Wild Draw Four waiting over a rebuilt pile, a last card,
a stacked first card) and compares what the public engine does (:data:`regelverk.uno.GAME`:
``legal_actions``, ``check``, ``apply``, the scoring and game-end code it runs) with what the
encoding of the theorem says, fed the concrete values:

* :data:`LEGALITY`: :func:`regelverk_proofs.uno.encoding.rules.allowed` against ``legal_actions``,
  ``check`` and ``apply``, on legal and illegal candidate actions.
* :data:`CARD_MOVES`: :func:`regelverk_proofs.uno.binding.steps.moves_allow` (and ``deal_allows``)
  against every kind of card move the engine makes, and against a step it did not make.
* :data:`HAND_END`: :func:`regelverk_proofs.uno.encoding.score.ending` against the engine's end of a
  hand, for every face of the pack and totals one under, at and one over the target.
* :data:`CHALLENGES`: :func:`regelverk_proofs.uno.encoding.rules.challenge_terms` against the
  engine's challenge, under every reading the theorem covers.
* :data:`TURN_ORDER`: the encoded Reverse and Skip against the engine's turn and direction.
* :data:`DRAW_COUNTS`: the count-level step of ``uno.never-ending-game`` against the engine's
  draws and lays, and the lasso Z3 finds replayed in the engine.
* :data:`MUST_PLAY_STEPS`: the per-step accounting of ``uno.must-play-never-repeats`` against
  every step of games under must-play.

A comparison that Z3 cannot decide counts as a disagreement: no answer is never agreement.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache

from regelverk.cards import Colour, UnoCard, UnoValue
from regelverk.engine import IllegalActionError, Outcome, with_options
from regelverk.uno import (
    GAME,
    Action,
    CallUno,
    Catch,
    Challenge,
    Direction,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno.options import ChallengeSuccessCard, DrawWhenAble, TwoPlayerDrawCards
from regelverk.uno.rules import card_points, deck_for, hand_points
from regelverk.uno.scenario import position, stacked_deal
from regelverk_proofs.binding import Binding, Comparison, full
from regelverk_proofs.uno.binding.steps import deal_allows, moves_allow
from regelverk_proofs.uno.encoding.cards import card_colour, colour_code
from regelverk_proofs.uno.encoding.lasso import (
    TOP,
    Change,
    Counts,
    Tally,
    accounting,
    count_step,
    find_lasso,
    lasso_hands,
)
from regelverk_proofs.uno.encoding.rules import (
    CHALLENGE_OPTIONS,
    ChallengeTerms,
    Position,
    after_draw_two,
    after_reverse,
    after_skip,
    challenge_terms,
    decide,
    faces,
)
from regelverk_proofs.uno.encoding.score import ending, official_points
from regelverk_proofs.uno.text import deck_for as text_deck_for
from regelverk_proofs.z3api import Bool, Int, Solver, Verdict, all_of, ite

__all__ = [
    "CARD_MOVES",
    "CHALLENGES",
    "DRAW_COUNTS",
    "HAND_END",
    "LEGALITY",
    "MUST_PLAY_STEPS",
    "OPTION_SETS",
    "TEXT_TABLES",
    "TURN_ORDER",
]

NAMES = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")
"""The seats' names."""

OPTION_SETS: tuple[tuple[str, UnoOptions], ...] = tuple(
    (name, with_options(UnoOptions(), changes))
    for name, changes in (
        ("default", {}),
        (
            "stacking",
            {"deck": 112, "stack_draw_two": True, "first_draw_two_stacking": "may-pass-on"},
        ),
        (
            "card-returns",
            {
                "deck": 112,
                "shuffle_hands_deal": "keep-counts",
                "challenge_success_card": "card-returns",
                "challenge_success_turn": "challenger-skipped",
                "first_shuffle_hands": "as-dealer-play",
                "first_wild_draw_four": "as-dealer-play",
                "blank_wild_points": "fifty",
            },
        ),
        (
            "must-play",
            {
                "draw_when_able": "must-play",
                "illegal_wd4": "refused",
                "current_colour": "printed-colour",
                "challenge_success_penalty": "guilty-draws-six",
                "failed_challenge_turn": "plays-after-drawing",
                "failed_challenge_draw": "six-more",
                "keep_drawn_card": "must-lay",
            },
        ),
        (
            "strict",
            {
                "deck": 112,
                "uno_call_window": "with-the-card",
                "wd4_wild_counts": "wilds-count",
                "number_match": "colour-only",
                "action_symbol_match": "same-colour-only",
                "blank_wild": "dead-card",
                "last_card_draw": "hand-ends-at-once",
                "two_player_draw_cards": "opponent-plays",
                "shuffle_hands_last_card": "goes-out",
            },
        ),
        (
            "hand-void",
            {
                "empty_piles": "hand-void",
                "first_wild_chooser": "dealer",
                "next_dealer": "winner-deals",
            },
        ),
    )
)
"""The option sets the bindings play under (every reading the encodings read is in one)."""


# --- shared: Z3 on ground terms, seeded games, prepared positions ----------------------------


def _guarded(
    kind: str, compare: Callable[[], Iterator[Comparison]]
) -> Callable[[], Iterator[Comparison]]:
    """``compare``, with an engine that fails on the way (an exception where a rule should
    decide) reported as a disagreement of kind ``kind`` instead of breaking the proof run."""

    def guarded() -> Iterator[Comparison]:
        try:
            yield from compare()
        except Exception as error:  # any failure of the engine is a finding
            yield Comparison(kind, False, f"the engine failed on the way: {error!r}")

    return guarded


def _truth(term: Bool) -> bool | None:
    """The value of a term without unknowns (None when Z3 gives no answer)."""
    if term.value is not None:
        return term.value
    with Solver.scratch(10_000) as solver:
        solver.add(term)
        verdict = solver.check()
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.SAT


def _number(term: Int) -> int | None:
    """The value of an integer term without unknowns (None when Z3 gives no answer)."""
    if term.value is not None:
        return term.value
    with Solver.scratch(10_000) as solver:
        value = Int.var("binding.value")
        solver.add(value.eq(term))
        if solver.check() is not Verdict.SAT:
            return None
        return solver.model().int(value)


def _keen(state: UnoState, rng: random.Random) -> Action:
    """A random legal action, preferring challenges, catches and laying over drawing."""
    actions = GAME.legal_actions(state)
    keen = [a for a in actions if isinstance(a, Challenge | Catch | Play)]
    if keen and rng.random() < 0.8:
        return rng.choice(keen)
    return rng.choice(actions)


def _walk(
    options: UnoOptions, players: int, seed: int, steps: int
) -> Iterator[tuple[UnoState, Action, Outcome[UnoState]]]:
    """The steps of a seeded game: each position, the action taken and what it led to."""
    rng = random.Random(seed)
    state = GAME.deal(options, NAMES[:players], seed)
    for _ in range(steps):
        if GAME.is_over(state):
            return
        action = _keen(state, rng)
        outcome = GAME.apply(state, action)
        yield state, action, outcome
        state = outcome.state


def _pile_under(state: UnoState) -> UnoState:
    """The draw pile put under the discard pile: the next card drawn rebuilds the pile."""
    return dataclasses.replace(
        state, draw_pile=(), discard=tuple(reversed(state.draw_pile)) + state.discard
    )


def _used_up(state: UnoState, holder: int) -> UnoState:
    """Both piles used up: the draw pile and the discard pile below its top (and below the
    card under a waiting Wild Draw Four) go into the hand of ``holder``."""
    keep = 2 if state.wild_draw_four is not None else 1
    hands = list(state.hands)
    hands[holder] += state.draw_pile + state.discard[:-keep]
    return dataclasses.replace(
        state, hands=tuple(hands), draw_pile=(), discard=state.discard[-keep:]
    )


def _rest_of_pack(options: UnoOptions, *taken: str) -> str:
    """The pack without the cards named (one copy each), in card notation."""
    pack = list(deck_for(options))
    for code in " ".join(taken).split():
        pack.remove(UnoCard.parse(code))
    return " ".join(c.code for c in pack)


def _engine_allows(state: UnoState, action: Action) -> bool:
    try:
        GAME.check(state, action)
    except IllegalActionError:
        return False
    return True


def _shown(state: UnoState) -> str:
    hands = "; ".join(
        f"{p}: {' '.join(c.code for c in h)}"
        for p, h in zip(state.players, state.hands, strict=True)
    )
    exposed = "nobody" if state.exposed is None else state.players[state.exposed]
    return (
        f"[{hands}; top {state.top.code}, colour {state.colour}, phase {state.phase.value}, "
        f"draw pile {len(state.draw_pile)}, discard {len(state.discard)}, exposed {exposed}]"
    )


# --- LEGALITY: uno_rules.allowed against legal_actions, check and apply ------------------------


def _action_space(state: UnoState) -> list[Action]:
    """Every well-formed action of the seat in turn and of the next seat: each card in the
    hand laid with every colour it may name (a wild: each colour or none; another card: none)
    with and without the UNO call; a Wild Draw Four, a Wild without a colour and a card the
    seat does not hold; drawing, passing, challenging, naming each colour, calling UNO; and
    catching every other seat. The next seat (not in turn) tries the same moves of the
    table's own."""
    n = len(state.players)
    who = state.players[state.turn]
    other = state.players[(state.turn + 1) % n]
    found: list[Action] = []
    for card in sorted(set(state.hands[state.turn]), key=lambda c: c.code):
        colours: tuple[Colour | None, ...] = (None, *Colour) if card.colour is None else (None,)
        for colour in colours:
            found += [Play(player=who, card=card, colour=colour, uno=u) for u in (False, True)]
    found += [
        Play(player=who, card=UnoCard.parse("W+4"), colour=Colour.BLUE),
        Play(player=who, card=UnoCard.parse("W"), colour=None),
        Play(player=other, card=UnoCard.parse("R5")),
    ]
    for player in (who, other):
        found += [Draw(player=player), Pass(player=player), Challenge(player=player)]
        found += [NameColour(player=player, colour=c) for c in Colour]
        found.append(CallUno(player=player))
    found += [Catch(player=who, target=t) for t in state.players if t != who]
    found.append(Catch(player=other, target=who))
    return found


def _legal_kind(action: Action, allowed: bool, state: UnoState) -> str:
    if isinstance(action, Play):
        held = action.card in state.hands[state.turn]
        wd4 = action.card.value is UnoValue.WILD_DRAW_FOUR and action.colour is not None
        if wd4 and held and not allowed and state.phase is Phase.PLAY:
            return "refused-wild-draw-four"
        return "allowed-play" if allowed else "refused-play"
    if isinstance(action, Draw):
        return "allowed-draw" if allowed else "refused-draw"
    return "allowed-other" if allowed else "refused-other"


def _judge(state: UnoState) -> Iterator[Comparison]:
    """Every action of :func:`_action_space`: the encoding's verdict against legal_actions,
    check and apply."""
    legal = set(GAME.legal_actions(state))
    for action in _action_space(state):
        encoded = decide(state.options, state, action)
        checked = _engine_allows(state, action)
        listed = action in legal
        try:
            GAME.apply(state, action)
            applied = True
        except IllegalActionError:
            applied = False
        agrees = encoded is not None and encoded == checked == listed == applied
        yield Comparison(
            _legal_kind(action, checked, state),
            agrees,
            f"{action!r}: the encoding says {encoded} (None: no answer), check {checked}, "
            f"legal_actions {listed}, apply {applied}, in {_shown(state)}",
        )


_JUDGED_STEPS = (3, 18)
"""The positions of each seeded game judged in the CI bound (every one of its 30 under
REGELVERK_BINDINGS=full)."""


def _legality() -> Iterator[Comparison]:
    for k, (_, options) in enumerate(OPTION_SETS):
        for players in (2, 4, 7):
            for step, (state, _, _) in enumerate(_walk(options, players, 100 * k + players, 30)):
                if full() or step in _JUDGED_STEPS:
                    yield from _judge(state)
    # must-play, piles used up: a Wild in hand forbids the draw; and a Wild Draw Four refused
    # while its player holds the colour in force
    options = dict(OPTION_SETS)["must-play"]
    for anna in ("B5 W", "B5 G7", "W+4 R2 B7", "W+4 B5 G7"):
        state = position(
            {"Anna": anna, "Bo": _rest_of_pack(options, anna, "R3")},
            discard="R3",
            turn="Anna",
            draw_pile=[],
            options=options,
        )
        yield from _judge(state)
    # must-lay (UNO-AMB-KEEP-DRAWN-CARD): a card just drawn that fits may not be kept, unless it
    # is a Wild Draw Four the hand forbids (under challenge-only, where such a one is drawn)
    bluffing = with_options(options, {"illegal_wd4": "challenge-only"})
    for held, drawn, rules in (("B1 G2 R8", "R8", options), ("R1 W+4", "W+4", bluffing)):
        rest = _rest_of_pack(rules, held, "R5", "G4 G5")
        state = position(
            {"Anna": held, "Bo": "G4 G5", "Cia": rest},
            discard="R5",
            turn="Anna",
            phase="drawn",
            drawn=drawn,
            draw_pile=[],
            options=rules,
        )
        yield from _judge(state)
    for state in _call_positions():
        yield from _judge(state)


_CALL_HANDS = ("R5", "R5 B7", "R5 B7 G2")
"""The hands of the seat in turn in :func:`_call_positions`: the last card, the next-to-last
(the one the UNO call goes with) and one more; R5 fits the top card R3, B7 and G2 do not."""
_CALL_EXPOSED = (None, "Dan", "Cia")
"""Who is exposed in :func:`_call_positions`: nobody, the previous seat, the seat before it
(after a Skip)."""


_CALL_CLAIM = 9 * sum(2 * len(hand.split()) for hand in _CALL_HANDS) + 27 * 23
"""The cases of :func:`_call_positions`: in each of the 27 positions, two plays of each card
held (with and without the call) and 23 more (three plays of a card misnamed or not held,
five moves and four namings for each of two seats, three catches by the seat in turn and one
by the next)."""


def _call_options() -> tuple[UnoOptions, ...]:
    """The option sets of :func:`_call_positions`: the defaults (a late call until the next
    turn), the call only with the card (UNO-AMB-UNO-CALL-WINDOW), and a Wild Draw Four refused
    against its condition under may-draw (the listing then takes its other path)."""
    base = dict(OPTION_SETS)
    return (
        base["default"],
        with_options(base["default"], {"uno_call_window": "with-the-card"}),
        with_options(base["default"], {"illegal_wd4": "refused"}),
    )


def _call_positions() -> Iterator[UnoState]:
    """Four seats, Anna in turn (top R3) with each hand of :data:`_CALL_HANDS`, Cia and Dan
    with one card each and each of :data:`_CALL_EXPOSED` exposed, under each option set of
    :func:`_call_options`: where the UNO call, the late call and the catch are decided
    (UNO-CALL-UNO, UNO-CALL-PENALTY), and drawing although a card fits (UNO-DRAW-BY-CHOICE)."""
    for options in _call_options():
        for anna in _CALL_HANDS:
            for exposed in _CALL_EXPOSED:
                yield position(
                    {"Anna": anna, "Bo": "B1 B2", "Cia": "Y4", "Dan": "G9"},
                    discard="R3",
                    turn="Anna",
                    exposed=exposed,
                    options=options,
                )


LEGALITY = Binding(
    name="uno.legality",
    statement=(
        "On positions of seeded games under six option sets with 2, 4 and 7 players (the "
        "4th and 19th position of each game; every one of its first 30 under "
        "REGELVERK_BINDINGS=full), on prepared must-play positions (a Wild in hand, a "
        "card just drawn under must-lay), and on 27 prepared four-seat positions where the "
        "UNO call and the catch are decided (the seat in turn holding one, two or three "
        "cards, nobody, the previous seat or the one before it exposed, under the defaults, "
        "the call only with the card, and a Wild Draw Four refused under may-draw), the "
        "encoding of the rules (uno_rules.allowed) "
        "allows an action exactly when the engine's check allows it, legal_actions lists it "
        "and apply plays it, for every well-formed action of the seat in turn and of the "
        "next seat (every card of the hand with every colour it may name, with and without "
        "the UNO call; an unheld card; drawing, passing, challenging, naming each colour, "
        "calling UNO, catching each other seat): legal and illegal alike."
    ),
    kinds=(
        "allowed-play",
        "refused-play",
        "allowed-draw",
        "refused-draw",
        "refused-wild-draw-four",
        "allowed-other",
        "refused-other",
    ),
    compare=_guarded("allowed-play", _legality),
    claims=(21804 if full() else 1694) + _CALL_CLAIM,
)


# --- CARD_MOVES: uno_steps.moves_allow against every card move --------------------------------

_MOVE_KINDS = (
    "play",
    "draw-two",
    "draw",
    "rebuild",
    "rebuild-under-wild-draw-four",
    "lapse",
    "shuffle-hands",
    "challenge-won",
    "challenge-lost",
    "take-back",
    "catch",
    "new-hand",
    "deal",
    "first-card-sent-back",
    "first-draw-two",
    "first-shuffle-hands",
    "first-wild-draw-four-laid",
    "stacked-draw-two-out",
    "next-dealer",
    "refused",
)


def _move_kind(before: UnoState, action: Action, outcome: Outcome[UnoState]) -> str:
    """The rarest card move a step makes (a step may make several)."""
    kinds = {e.kind for e in outcome.events}
    if outcome.state.hand_number != before.hand_number:
        return "new-hand"
    if "rebuild" in kinds:
        return "rebuild-under-wild-draw-four" if before.wild_draw_four else "rebuild"
    for kind in ("take-back", "challenge-won", "challenge-lost", "shuffle-hands", "lapse"):
        if kind in kinds:
            return kind
    if isinstance(action, Catch):
        return "catch"
    if isinstance(action, Play):
        return "draw-two" if action.card.value is UnoValue.DRAW_TWO else "play"
    return "draw" if isinstance(action, Draw) else "no-move"


def _misplaced(state: UnoState, seat: int) -> UnoState:
    """``state`` with the top card of the draw pile moved into the hand of ``seat``: a table
    no step led to."""
    hands = list(state.hands)
    hands[seat] += state.draw_pile[:1]
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=state.draw_pile[1:])


def _move_steps() -> Iterator[tuple[UnoState, Action, Outcome[UnoState]]]:
    """Steps of seeded games, then steps from prepared positions (a pile to rebuild, a Wild
    Draw Four waiting over it, used-up piles, a last card)."""
    for k, (_, options) in enumerate(OPTION_SETS):
        for players in (2, 3, 4, 5):
            yield from _walk(options, players, 7 * k + players, 120)
    for k, (_, options) in enumerate(OPTION_SETS):
        for players in (2, 3):
            rng = random.Random(k)
            for state, _, _ in _walk(options, players, 50 + k, 200):
                if state.phase is Phase.CHALLENGE and state.draw_pile:
                    for prepared in (_pile_under(state), _used_up(state, state.turn)):
                        accept = Draw(player=state.players[state.turn])
                        yield prepared, accept, GAME.apply(prepared, accept)
                        challenge = Challenge(player=state.players[state.turn])
                        yield prepared, challenge, GAME.apply(prepared, challenge)
                    break
            for state, _, _ in _walk(options, players, 60 + k, 40):
                if state.phase is Phase.PLAY and len(state.hands[state.turn]) > 1:
                    prepared = _pile_under(state)
                    draw = Draw(player=state.players[state.turn])
                    if _engine_allows(prepared, draw):
                        yield prepared, draw, GAME.apply(prepared, draw)
                    last = _last_card(state)
                    if last is not None:
                        out = _keen(last, rng)
                        yield last, out, GAME.apply(last, out)
                    break


def _last_card(state: UnoState) -> UnoState | None:
    """The player in turn left with one card he may lay (the rest of his hand put at the
    bottom of the draw pile), or None."""
    seat = state.turn
    hand = state.hands[seat]
    playable = [
        a.card for a in GAME.legal_actions(state) if isinstance(a, Play) and a.player == NAMES[seat]
    ]
    if not playable:
        return None
    card = playable[0]
    rest = list(hand)
    rest.remove(card)
    hands = list(state.hands)
    hands[seat] = (card,)
    return dataclasses.replace(
        state, hands=tuple(hands), draw_pile=state.draw_pile + tuple(rest), exposed=None
    )


_CAPS = {
    "challenge-lost": 2,
    "challenge-won": 2,
    "take-back": 2,
    "rebuild-under-wild-draw-four": 2,
}
"""How many steps of each kind are compared (one, unless named here): a comparison costs
about half a second, most of it building the terms."""

_FIRST_CARDS: tuple[tuple[str, str, str, int], ...] = (
    ("deal", "R5", "default", 2),
    ("first-card-sent-back", "W+4", "default", 2),
    ("first-draw-two", "G+2", "default", 3),
    ("deal", "G+2", "stacking", 2),
    ("first-shuffle-hands", "WSH", "card-returns", 2),
    ("first-wild-draw-four-laid", "W+4", "card-returns", 3),
)


_EVERY_STEP_PLAYERS = (2, 3, 4, 5)
"""The player counts whose games are compared at every step (2 and 3 for the two-player rules
and the smallest table, 4 and 5 for larger tables where the turn passes over several seats)."""
_EVERY_STEP_CI = 10
"""Steps compared from the deal of each game in the CI bound (one game per player count, the
option sets taken in turn); the full bound compares every step of a game up to
:data:`_EVERY_STEP_FULL` under every option set at every player count."""
_EVERY_STEP_FULL = 60


def _every_step_games() -> Iterator[tuple[int, str, UnoOptions, int]]:
    """The games compared at every step: (players, option set name, options, steps)."""
    if full():
        for players in _EVERY_STEP_PLAYERS:
            for name, options in OPTION_SETS:
                yield players, name, options, _EVERY_STEP_FULL
        return
    for k, players in enumerate(_EVERY_STEP_PLAYERS):
        name, options = OPTION_SETS[k % len(OPTION_SETS)]
        yield players, name, options, _EVERY_STEP_CI


def _every_step_claim() -> int:
    """The steps :func:`_every_step_games` compares (each game runs that long: a UNO hand
    ends with a new hand dealt, and the game goes on to 500 points)."""
    return sum(steps for _, _, _, steps in _every_step_games())


def _every_step() -> Iterator[Comparison]:
    """Every step of the games of :func:`_every_step_games`, whatever it moves."""
    for players, name, options, steps in _every_step_games():
        walk = _walk(options, players, 900 + players, steps)
        for taken, (before, action, outcome) in enumerate(walk, start=1):
            allowed = moves_allow(before, action, outcome.state)
            yield Comparison(
                f"step-{players}-players",
                allowed is True,
                f"step {taken} of a {players}-player game under {name}: {action!r} moved the "
                f"cards in a way the card moves do not allow ({allowed}); before "
                f"{_shown(before)}, after {_shown(outcome.state)}",
            )


def _card_moves() -> Iterator[Comparison]:
    yield from _every_step()
    seen: Counter[str] = Counter()
    refused = 0
    for before, action, outcome in _move_steps():
        kind = _move_kind(before, action, outcome)
        if kind == "no-move" or seen[kind] >= _CAPS.get(kind, 1):
            continue
        seen[kind] += 1
        after = outcome.state
        allowed = moves_allow(before, action, after)
        yield Comparison(
            kind,
            allowed is True,
            f"{action!r} moved the cards in a way the card moves do not allow "
            f"(None: no answer: {allowed}); before {_shown(before)}, after {_shown(after)}",
        )
        if refused < 2 and after.draw_pile and after.phase is not Phase.GAME_OVER:
            refused += 1
            wrong = _misplaced(after, (before.turn + 1) % len(before.players))
            verdict = moves_allow(before, action, wrong)
            yield Comparison(
                "refused",
                verdict is False,
                f"{action!r}: the card moves allow a table no step leads to (a card drawn "
                f"from nowhere): {verdict}; before {_shown(before)}",
            )
    for kind, first, named, players in _FIRST_CARDS:
        options = dict(OPTION_SETS)[named]
        dealt = stacked_deal(first, players=NAMES[:players], options=options, seed=5).state
        allowed = deal_allows(dealt)
        yield Comparison(
            kind,
            allowed is True,
            f"a new hand with {first} turned up first dealt a table the moves do not allow "
            f"({allowed}): {_shown(dealt)}",
        )
    for kind, before, action in _going_out():
        after = GAME.apply(before, action).state
        allowed = moves_allow(before, action, after)
        yield Comparison(
            kind,
            allowed is True,
            f"{action!r} (dealer {before.players[before.dealer]}) moved the cards or passed "
            f"the deal in a way the moves do not allow ({allowed}); before {_shown(before)}, "
            f"after {_shown(after)}, dealt by {after.players[after.dealer]}",
        )


_GOING_OUT: tuple[tuple[str, str, dict[str, str], str, str, dict[str, object]], ...] = (
    (
        "stacked-draw-two-out",
        "stacking",
        {"Anna": "B+2", "Bo": "G1 G2", "Cia": "Y1 Y2"},
        "Y5 R+2",
        "Anna",
        {"phase": "stack", "scores": {"Anna": 499}},
    ),
    (
        "next-dealer",
        "default",
        {"Anna": "R5", "Bo": "G1", "Cia": "Y1", "Dan": "B1"},
        "R3",
        "Cia",
        {},
    ),
    ("next-dealer", "default", {"Anna": "G1", "Bo": "R5", "Cia": "Y1"}, "R3", "Cia", {}),
    ("next-dealer", "hand-void", {"Anna": "B1", "Bo": "Y1", "Cia": "R5"}, "R3", "Anna", {}),
)
"""Prepared positions where the seat in turn lays his last card: (kind, option set, hands with
the seat in turn's last card, discard pile, dealer, further fields). A Draw Two laid on two
owed (stacking) that wins the game, so that the cards the next player takes (the whole
stack: UNO-WIN-LAST-CARD-DRAW) stay in view and are not gathered for a new deal; and R5 laid
where a new hand is dealt: by the left-hand neighbour of Cia at four seats and at three
(round to the first seat), and under winner-deals (the hand-void set) by the player who went
out."""


def _going_out() -> Iterator[tuple[str, UnoState, Action]]:
    """The steps of :data:`_GOING_OUT`: the seat holding R5 or B+2 lays it."""
    for kind, named, hands, discard, dealer, extra in _GOING_OUT:
        options = dict(OPTION_SETS)[named]
        turn = next(p for p, h in hands.items() if h in ("R5", "B+2"))
        state = position(hands, discard=discard, turn=turn, dealer=dealer, options=options, **extra)
        yield kind, state, Play(player=turn, card=UnoCard.parse(hands[turn]))


_RARE_CLAIM = (
    sum(_CAPS.get(k, 1) for k in _MOVE_KINDS if k not in ("refused", "next-dealer"))
    + sum(1 for kind, *_ in _GOING_OUT if kind == "next-dealer")
    + 2
)
"""The steps of rare kinds compared (one of each, two of the kinds in :data:`_CAPS`, two
refusals): the first of each met in seeded games and prepared positions, at 2 to 5 players."""

CARD_MOVES = Binding(
    name="uno.card-moves",
    statement=(
        "Every step of seeded games at 2, 3, 4 and 5 players leads to a table the card moves "
        "of uno_steps allow: in the CI bound the first "
        f"{_EVERY_STEP_CI} steps of one game per player count (the option sets in turn), in "
        f"the full bound (REGELVERK_BINDINGS=full) the first {_EVERY_STEP_FULL} steps of a "
        "game under each of the six option sets at each player count. So does every kind of "
        "card move, rare ones included, taken from longer seeded games (2 to 5 players, six "
        "option sets) and from prepared positions (a draw pile to rebuild, a Wild Draw Four "
        "waiting over it, used-up piles, a last card): the first one or two of each kind; and "
        "new hands dealt from stacked packs (a plain first card, a Wild Draw Four sent back, a "
        "Draw Two drawn or passed on, Shuffle Hands or a Wild Draw Four as the dealer's play); "
        "and prepared last cards that end the hand (a Draw Two laid on a stack, whose next "
        "player takes the whole stack; a plain card at three and four seats and under "
        "winner-deals), after which the new hand is dealt by the seat UNO-DEAL-ROTATE names "
        "(every new hand compared is: the previous dealer's left-hand neighbour, or the "
        "player who went out under winner-deals). A table with one card drawn from nowhere "
        "is refused."
    ),
    kinds=_MOVE_KINDS + tuple(f"step-{n}-players" for n in _EVERY_STEP_PLAYERS),
    compare=_guarded("play", _card_moves),
    claims=_every_step_claim() + _RARE_CLAIM,
)


# --- HAND_END: uno_score.ending against the engine's end of a hand ----------------------------


def _scored(state: UnoState, scores: dict[str, int]) -> UnoState:
    row = tuple(scores.get(p, 0) for p in state.players)
    return dataclasses.replace(state, scores=row, results=(row,))


def _card_value(options: UnoOptions, face: UnoCard) -> Comparison:
    engine = card_points(face, options)
    held = hand_points([face], options)
    official = _number(official_points(face, options=options))
    return Comparison(
        "card-value",
        engine == held == official,
        f"{face.code} ({options.blank_wild_points.value}): card_points {engine}, hand_points "
        f"{held}, the official table {official}",
    )


def _hand_end() -> Iterator[Comparison]:
    options = UnoOptions(deck=112)
    target = options.target_score
    pack_faces = sorted(set(text_deck_for(options)), key=lambda c: c.code)
    for face in pack_faces:
        yield _card_value(options, face)
        for step in (-1, 0, 1):
            for three in (False, True):
                yield _one_end(options, target, face, step, three)
    # the last card a Draw Two: the next player draws two first, and they count
    for step in (-1, 0, 1):
        yield _one_end(options, target, UnoCard.parse("B4"), step, False, last="R+2")
    # ... and under stacking, the next player holding a Draw Two he may not stack on it
    stacking = with_options(options, {"stack_draw_two": True})
    for step in (-1, 0, 1):
        yield _one_end(stacking, target, UnoCard.parse("G+2"), step, True, last="R+2")
    # a blank wild worth a Wild's 50 (reading fifty of UNO-AMB-BLANK-WILD-POINTS)
    fifty = with_options(options, {"blank_wild_points": "fifty"})
    for face in pack_faces:
        yield _card_value(fifty, face)
    for step in (-1, 0, 1):
        yield _one_end(fifty, target, UnoCard.parse("WX"), step, True)


def _one_end(  # noqa: PLR0917 - one case of a boundary table
    options: UnoOptions,
    target: int,
    face: UnoCard,
    step: int,
    three: bool,
    last: str = "R1",
) -> Comparison:
    """Anna goes out with ``last`` on R3, Bo holding ``face`` and G9 (Cia Y7), Anna's total
    then ``target + step`` by the official table; the engine's score and game end against
    :func:`~regelverk_proofs.uno.encoding.score.ending`."""
    hands = {"Anna": last, "Bo": f"{face.code} G9"} | ({"Cia": "Y7"} if three else {})
    state = position(hands, discard="R3", turn="Anna", options=options)
    drawn = state.draw_pile[:2] if last == "R+2" else ()
    held = [list(h) for h in state.hands]
    held[0] = []
    held[1] += drawn
    n = len(state.players)
    faces_all = sorted({c for h in held for c in h}, key=lambda c: c.code)
    counts = {(f, h): sum(1 for c in held[h] if c == f) for f in faces_all for h in range(n)}
    official = sum(
        counts[f, h] * (_number(official_points(f, options=options)) or 0)
        for f in faces_all
        for h in range(1, n)
    )
    scores = {"Anna": target + step - official, "Bo": target - 1}
    state = _scored(state, scores)
    end = ending(
        lambda f, h: Int.const(counts[f, h]),
        faces_all,
        [Int.const(s) for s in state.scores],
        0,
        target,
        options=options,
    )
    outcome = GAME.apply(state, Play(player="Anna", card=UnoCard.parse(last)))
    after = outcome.state
    got = after.results[-1][0] if len(after.results) > 1 else None
    over = after.phase is Phase.GAME_OVER
    encoded = (
        _number(end.collected),
        _number(end.official),
        _truth(end.over),
        _truth(end.reached),
    )
    kind = {-1: "under-target", 0: "at-target", 1: "over-target"}[step]
    if last != "R1":
        kind = "last-draw-two"
    return Comparison(
        kind,
        encoded == (got, got, over, over),
        f"Anna (total {state.scores[0]}) goes out with {last}; Bo holds {face.code} G9"
        + (" and Cia Y7" if three else "")
        + f"; the engine credits {got} and {'ends' if over else 'continues'} the game "
        f"(target {target}); the encoding: engine model {encoded[0]} / {encoded[2]}, rules "
        f"{encoded[1]} / {encoded[3]}",
    )


HAND_END = Binding(
    name="uno.hand-end",
    statement=(
        "For every face of the 112-card pack, under both readings of a blank wild's value, the "
        "engine's card_points and hand_points equal the official table of the encoding; and "
        "the engine's own end of a hand (a player "
        "going out on a number card or, drawing counted, on a Draw Two, with an opponent "
        "holding that face, a blank wild under the reading fifty too) credits the points and "
        "ends or continues the game exactly as the "
        "encoding's model of the engine and the rules say, at totals one under, at and one "
        "over the target score read from the options, for every face of the pack held by the "
        "opponent, at two players and at three; and going out on a Draw Two, also under "
        "stack_draw_two with the next player holding a Draw Two."
    ),
    kinds=("card-value", "under-target", "at-target", "over-target", "last-draw-two"),
    compare=_guarded("card-value", _hand_end),
    claims=56 + 56 * 3 * 2 + 3 + 3 + 56 + 3,
)


# --- CHALLENGES: uno_rules.challenge_terms against the engine's challenge ---------------------

_LAYER_HANDS: tuple[tuple[str, str, str, str], ...] = (
    # (kind, Anna's hand, discard, colour in force)
    ("guilty", "W+4 R2 B7", "R5", "red"),
    ("guilty", "W+4 RS B7", "R5", "red"),
    ("number-elsewhere", "W+4 B5 G7", "R5", "red"),
    ("wild-held", "W+4 W B7", "R5", "red"),
    ("wild-draw-four-held", "W+4 W+4 B7", "R5", "red"),
    ("named-on-wild", "W+4 B1 G2", "G3 W", "blue"),
    ("named-on-wild", "W+4 Y1 G2", "G3 W", "blue"),
)


def _challenge_position(options: UnoOptions, anna: str, discard: str, colour: str) -> UnoState:
    return position(
        {"Anna": anna, "Bo": "G4 Y6 B8", "Cia": "Y3 Y4"},
        discard=discard,
        turn="Anna",
        colour=colour,
        options=options,
    )


@cache
def _terms(options: UnoOptions, n: int) -> ChallengeTerms:
    """The challenge encoding over the unknowns of an ``n``-player position (built once per
    option set: its terms do not depend on the position)."""
    return challenge_terms(options, Position.fresh(n), frozenset())


def _one_challenge(kind: str, state: UnoState) -> Comparison:
    """Bo challenges the Wild Draw Four waiting in ``state``: the cards each side draws and
    the outcome against the encoding."""
    wd4 = state.wild_draw_four
    assert wd4 is not None
    options = state.options
    layer, victim = wd4.player, state.turn
    p = Position.fresh(len(state.players))
    laid = UnoCard(None, UnoValue.WILD_DRAW_FOUR)
    pinned = all_of(
        [
            *(
                p.hand[i].eq(sum(1 for c in wd4.held if c == f) + (1 if f == laid else 0))
                for i, f in enumerate(faces())
            ),
            p.colour.eq(colour_code(wd4.colour_before)),
            p.top_colour.eq(card_colour(state.discard[-2])),
        ]
    )
    terms = _terms(options, len(state.players))
    encoded: tuple[int, int, int] | None = None
    with Solver.scratch(10_000) as solver:
        solver.add(pinned)
        solver.add(Int.var("binding.layer").eq(terms.layer))
        solver.add(Int.var("binding.challenger").eq(terms.challenger))
        solver.add(Int.var("binding.met").eq(ite(terms.met, 1, 0)))
        if solver.check() is Verdict.SAT:
            model = solver.model()
            encoded = (
                model.int(Int.var("binding.layer")),
                model.int(Int.var("binding.challenger")),
                model.int(Int.var("binding.met")),
            )
    outcome = GAME.apply(state, Challenge(player=state.players[victim]))
    after = outcome.state
    returned = (
        1
        if any(e.kind == "take-back" for e in outcome.events)
        and options.challenge_success_card is ChallengeSuccessCard.CARD_RETURNS
        else 0
    )
    drew_layer = len(after.hands[layer]) - len(state.hands[layer]) - returned
    drew_victim = len(after.hands[victim]) - len(state.hands[victim])
    lost = any(e.kind == "challenge-lost" for e in outcome.events)
    engine = (drew_layer, drew_victim, int(lost))
    return Comparison(
        kind,
        encoded == engine,
        f"{options.current_colour.value}, {options.wd4_wild_counts.value}, "
        f"{options.challenge_success_penalty.value}: Anna held "
        f"{' '.join(c.code for c in wd4.held)} over {state.discard[-2].code} "
        f"({wd4.colour_before}); the engine: Anna draws {drew_layer}, Bo {drew_victim}, "
        f"challenge {'lost' if lost else 'won'}; the encoding (layer, challenger, condition "
        f"met): {encoded}",
    )


def _challenges() -> Iterator[Comparison]:
    for options in CHALLENGE_OPTIONS:
        for kind, anna, discard, colour in _LAYER_HANDS:
            state = _challenge_position(options, anna, discard, colour)
            laid = Play(player="Anna", card=UnoCard.parse("W+4"), colour=Colour.YELLOW)
            yield _one_challenge(kind, GAME.apply(state, laid).state)
    # challenges in seeded games, under the other readings too
    for k, (_, options) in enumerate(OPTION_SETS):
        found = 0
        for state, _, _ in _walk(options, 3, 300 + k, 300):
            spare = len(state.draw_pile) + len(state.discard) - 2
            if state.phase is Phase.CHALLENGE and found < 2 and spare >= 10:
                found += 1
                yield _one_challenge("in-game", state)


CHALLENGES = Binding(
    name="uno.challenges",
    statement=(
        "Under every combination of the readings of the current colour, of a wild card in "
        "hand, of the penalty and of the failed challenger's draw (and at the first two "
        "challenges of a seeded three-player game under each of six option sets), a "
        "challenged Wild Draw Four laid from hands holding the colour in force, only the same "
        "number in another colour, a Wild, another Wild Draw Four, or over a named Wild: the "
        "cards the engine makes each side draw and whether the challenge fails are what the "
        "encoding (challenge_terms, challenge_fails) says."
    ),
    kinds=(
        "guilty",
        "number-elsewhere",
        "wild-held",
        "wild-draw-four-held",
        "named-on-wild",
        "in-game",
    ),
    compare=_guarded("guilty", _challenges),
    claims=124,
)


# --- TURN_ORDER: the encoded Reverse and Skip against the engine's turns ----------------------


def _turn_order() -> Iterator[Comparison]:
    for n in range(2, 6):
        names = NAMES[:n]
        for seat in range(n):
            for way in (Direction.LEFT, Direction.RIGHT):
                hands = {name: f"B{k} G{k} Y{k}" for k, name in enumerate(names, 1)}
                hands[names[seat]] = "RR RS R7"
                for code in ("RR", "RS"):
                    state = position(
                        hands,
                        discard="R5",
                        turn=names[seat],
                        direction="left" if way is Direction.LEFT else "right",
                    )
                    after = GAME.apply(state, Play(player=names[seat], card=UnoCard.parse(code)))
                    s, d = Int.const(seat), Int.const(int(way))
                    turn, direction = (
                        after_reverse(n, s, d, frozenset()) if code == "RR" else after_skip(n, s, d)
                    )
                    encoded = (_number(turn), _number(direction))
                    engine = (after.state.turn, int(after.state.direction))
                    kind = ("two-player-" if n == 2 else "") + (
                        "reverse" if code == "RR" else "skip"
                    )
                    yield Comparison(
                        kind,
                        encoded == engine,
                        f"{n} players, {names[seat]} lays {code} going {way.name.lower()}: the "
                        f"engine gives the turn to seat {engine[0]} (direction {engine[1]}), "
                        f"the encoding to seat {encoded[0]} (direction {encoded[1]})",
                    )
                yield from _draw_two_turns(names, seat, way, hands)


def _draw_two_turns(
    names: tuple[str, ...], seat: int, way: Direction, hands: dict[str, str]
) -> Iterator[Comparison]:
    """A Draw Two laid by ``seat`` under both readings of two_player_draw_cards: who is to
    play next, by the engine and by the encoded turn."""
    n = len(names)
    for reading in TwoPlayerDrawCards:
        options = with_options(UnoOptions(), {"two_player_draw_cards": reading.value})
        laid = {**hands, names[seat]: "R+2 RS R7"}
        state = position(
            laid,
            discard="R5",
            turn=names[seat],
            direction="left" if way is Direction.LEFT else "right",
            options=options,
        )
        after = GAME.apply(state, Play(player=names[seat], card=UnoCard.parse("R+2"))).state
        turn, direction = after_draw_two(
            n, Int.const(seat), Int.const(int(way)), reading is TwoPlayerDrawCards.OPPONENT_PLAYS
        )
        encoded = (_number(turn), _number(direction))
        engine = (after.turn, int(after.direction))
        victim = (seat + int(way)) % n
        drew = len(after.hands[victim]) == len(state.hands[victim]) + 2
        yield Comparison(
            ("two-player-" if n == 2 else "") + "draw-two",
            encoded == engine and drew,
            f"{n} players under two_player_draw_cards = {reading.value}, {names[seat]} lays "
            f"R+2 going {way.name.lower()}: the engine gives the turn to seat {engine[0]}, the "
            f"encoding to seat {encoded[0]}; the victim drew two: {drew}",
        )


TURN_ORDER = Binding(
    name="uno.turn-order",
    statement=(
        "For 2 to 5 players, every seat and both directions, the seat to play and the "
        "direction after the engine applies a Reverse and a Skip are what the encoded Reverse "
        "and Skip (after_reverse, after_skip) give; and after a Draw Two, under both readings "
        "of two_player_draw_cards (opponent-plays changes the turn only at two players), what "
        "after_draw_two gives, the victim having drawn two."
    ),
    kinds=(
        "reverse",
        "skip",
        "two-player-reverse",
        "two-player-skip",
        "draw-two",
        "two-player-draw-two",
    ),
    compare=_guarded("reverse", _turn_order),
    claims=112,
)


# --- DRAW_COUNTS: the lasso's count-level step against the engine ------------------------------


def _counts(state: UnoState) -> Counts:
    return Counts(
        tuple(Int.const(len(h)) for h in state.hands),
        Int.const(len(state.draw_pile)),
        Int.const(len(state.discard) - 1),
        Int.const(state.turn),
        Int.const(state.shuffles),
        Int.const(state.hand_number),
    )


def _count_kind(  # noqa: PLR0911 - one return per kind of step
    before: UnoState, action: Action, outcome: Outcome[UnoState]
) -> str | None:
    """Which step of the count encoding an engine step is, or None for a step it leaves out
    (action cards, wild cards, a hand going out, a new hand, play to the right)."""
    after = outcome.state
    if before.phase is not Phase.PLAY or before.direction is not Direction.LEFT:
        return None
    if after.hand_number != before.hand_number or after.phase is Phase.GAME_OVER:
        return None
    if isinstance(action, Play):
        plain = action.card.value.is_number and not any(
            e.kind in {"no-uno", "uno"} for e in outcome.events
        )
        return "lay" if plain and after.hands[before.turn] else None
    if not isinstance(action, Draw):
        return None
    kinds = {e.kind for e in outcome.events}
    if "rebuild" in kinds:
        return "rebuild"
    if "draw" not in kinds:
        return "empty"
    return "draw-and-keep" if after.phase is Phase.DRAWN else "draw"


def _one_count(
    kind: str, before: UnoState, action: Action, outcome: Outcome[UnoState]
) -> Comparison:
    after = outcome.state
    if after.phase is Phase.DRAWN:  # keeping the card drawn is part of the encoded draw
        after = GAME.apply(after, Pass(player=before.players[before.turn])).state
    act = Int.const(0 if isinstance(action, Draw) else 1)
    rule = all_of(
        count_step(_counts(before), _counts(after), act, len(before.players), frozenset())
    )
    holds = _truth(rule)
    return Comparison(
        kind,
        holds is True,
        f"{action!r}: the engine goes from hands {[len(h) for h in before.hands]}, draw pile "
        f"{len(before.draw_pile)}, discard {len(before.discard)}, turn {before.turn} to "
        f"{[len(h) for h in after.hands]}, {len(after.draw_pile)}, {len(after.discard)}, turn "
        f"{after.turn}; the count step says {holds}",
    )


def _replay_lasso() -> Comparison:
    lasso = find_lasso()
    if lasso is None or isinstance(lasso, str):
        return Comparison("lasso", False, f"Z3 found no lasso to replay: {lasso}")
    start = position(lasso_hands(lasso), discard=TOP.code, turn=lasso.actions[0][0], draw_pile=[])
    state, legal = start, True
    for player, kind in lasso.actions:
        action = Draw(player=player)
        legal = legal and action in GAME.legal_actions(state) and kind == "draw"
        if not legal:
            break
        state = GAME.apply(state, action).state
    return Comparison(
        "lasso",
        legal and state == start and all(state.hands),
        f"the lasso {lasso.actions} from hands of {lasso.hand_sizes} cards: every action legal "
        f"{legal}, back at the start {state == start}",
    )


def _draw_counts() -> Iterator[Comparison]:
    options = UnoOptions()
    steps: list[tuple[UnoState, Action, Outcome[UnoState]]] = []
    for players in (2, 3, 4):
        steps += list(_walk(options, players, 900 + players, 60))
        for state, _, _ in _walk(options, players, 910 + players, 30):
            if state.phase is Phase.PLAY and state.direction is Direction.LEFT:
                for prepared in (_pile_under(state), _used_up(state, (state.turn + 1) % players)):
                    draw = Draw(player=state.players[state.turn])
                    steps.append((prepared, draw, GAME.apply(prepared, draw)))
    for before, action, outcome in steps:
        kind = _count_kind(before, action, outcome)
        if kind is None:
            continue
        yield _one_count(kind, before, action, outcome)
    yield _replay_lasso()


DRAW_COUNTS = Binding(
    name="uno.draw-counts",
    statement=(
        "Under the default readings, with 2 to 4 players, every draw and lay of seeded games "
        "(60 steps at each player count) and of prepared positions: the engine's draws "
        "(from the pile, kept after drawing, over a rebuilt pile, from used-up piles) and "
        "plain lays change the hand sizes, the piles, the turn, the shuffles and the hand "
        "number as the count step of uno.never-ending-game says; and the lasso Z3 finds is "
        "replayed in the engine: every action legal, and the position comes back."
    ),
    kinds=("draw", "draw-and-keep", "rebuild", "empty", "lay", "lasso"),
    compare=_guarded("draw", _draw_counts),
    claims=215,
)


# --- MUST_PLAY_STEPS: the per-step accounting against the engine under must-play ---------------

_SPECIAL = (Phase.CHALLENGE, Phase.STACK, Phase.NAME_COLOUR)


def _tally(before: UnoState, action: Action, outcome: Outcome[UnoState]) -> tuple[Tally, Change]:
    """What one engine step counts and changes, read from its events and the two states."""
    after = outcome.state
    events = [e.kind for e in outcome.events]
    drawn = sum(len(e.cards) for e in outcome.events if e.kind == "draw")
    deals = (
        sum(1 for k in events if k in ("score", "void"))
        if after.phase is not Phase.GAME_OVER
        else 0
    )
    laid = 1 if isinstance(action, Play) else 0
    taken_back = events.count("take-back")
    rebuilds = events.count("rebuild")
    rebuilt = len(before.discard) + laid - taken_back - len(after.discard) if rebuilds else 0
    held_before = sum(len(h) for h in before.hands)
    held_after = sum(len(h) for h in after.hands)
    cleared = int(before.exposed is not None and after.exposed != before.exposed)
    empty = int(isinstance(action, Draw) and before.phase is Phase.PLAY and drawn == 0)
    n = len(before.players)
    wilds = sum(1 for c in before.hands[before.turn] if c.value is UnoValue.WILD)
    # the phase counts steps of the player in turn; a catch or a late call is nobody's turn
    phase = None if isinstance(action, Catch | CallUno) else before.phase
    tally = Tally.of(
        laid=laid,
        from_pile=drawn,
        rebuilt_cards=rebuilt,
        rebuilds=rebuilds,
        taken_back=taken_back,
        shuffle_hands=events.count("shuffle-hands"),
        deals=deals,
        empty_draws=empty,
        drawn_phase=int(phase is Phase.DRAWN),
        challenge_phase=int(phase is Phase.CHALLENGE),
        stack_phase=int(phase is Phase.STACK),
        name_phase=int(phase is Phase.NAME_COLOUR),
        catches_and_calls=int(isinstance(action, Catch | CallUno)),
        cleared=cleared,
    )
    change = Change.of(
        shuffles=after.shuffles - before.shuffles,
        hand_number=after.hand_number - before.hand_number,
        pile=len(after.draw_pile) - len(before.draw_pile),
        discard=len(after.discard) - len(before.discard),
        held=held_after - held_before,
        drawn_phase=int(after.phase is Phase.DRAWN) - int(before.phase is Phase.DRAWN),
        special_phase=int(after.phase in _SPECIAL) - int(before.phase in _SPECIAL),
        exposed=int(after.exposed is not None) - int(before.exposed is not None),
        drawer_wilds=wilds if empty else 0,
        turn_moves=((after.turn - before.turn) * int(before.direction)) % n,
        direction=int(after.direction) - int(before.direction),
    )
    return tally, change


def _step_kind(before: UnoState, action: Action, tally_events: Outcome[UnoState]) -> str:
    after = tally_events.state
    kinds = {e.kind for e in tally_events.events}
    if after.hand_number != before.hand_number:
        return "new-hand"
    if "rebuild" in kinds:
        return "rebuild"
    if isinstance(action, Catch | CallUno):
        return "catch-or-call"
    phase = {
        Phase.DRAWN: "drawn-phase",
        Phase.CHALLENGE: "challenge-phase",
        Phase.STACK: "stack-phase",
        Phase.NAME_COLOUR: "name-phase",
    }.get(before.phase)
    if phase is not None:
        return phase
    if isinstance(action, Play):
        return "lay"
    return "draw" if "draw" in kinds else "empty-draw"


_MUST_PLAY_STEPS = 60
"""Steps of each seeded game under must-play, every one compared."""


def _must_play_steps() -> Iterator[Comparison]:
    base = dict(OPTION_SETS)
    sets = [
        with_options(base[name], {"draw_when_able": "must-play"})
        for name in ("default", "stacking", "card-returns", "must-play")
    ]
    sets[2] = with_options(sets[2], {"challenge_success_card": "card-stays"})
    steps: list[tuple[UnoState, Action, Outcome[UnoState]]] = []
    for k, options in enumerate(sets):
        for players in (2, 3, 6):
            steps += list(_walk(options, players, 500 + 10 * k + players, _MUST_PLAY_STEPS))
        for state, _, _ in _walk(options, 3, 520 + k, 20):
            if state.phase is Phase.PLAY:
                prepared = _pile_under(state)
                draw = Draw(player=state.players[state.turn])
                if _engine_allows(prepared, draw):
                    steps.append((prepared, draw, GAME.apply(prepared, draw)))
                break
    options = sets[0]
    assert options.draw_when_able is DrawWhenAble.MUST_PLAY
    for anna in ("B5 G7", "B5 W"):
        state = position(
            {"Anna": anna, "Bo": _rest_of_pack(options, anna, "R3")},
            discard="R3",
            turn="Anna",
            draw_pile=[],
            options=options,
        )
        draw = Draw(player="Anna")
        if _engine_allows(state, draw):
            steps.append((state, draw, GAME.apply(state, draw)))
    for before, action, outcome in steps:
        kind = _step_kind(before, action, outcome)
        tally, change = _tally(before, action, outcome)
        deck = len(deck_for(before.options))
        holds = _truth(all_of(accounting(tally, change, deck, frozenset())))
        detail = ""
        if holds is not True:
            counted = [_number(c) for c in tally.counts()]
            changed = [_number(getattr(change, f)) for f in Change.__dataclass_fields__]
            detail = (
                f"{action!r} in {_shown(before)}: counted {counted} "
                f"({', '.join(Tally.__dataclass_fields__)}), changed {changed} "
                f"({', '.join(Change.__dataclass_fields__)}); the accounting says {holds}"
            )
        yield Comparison(kind, holds is True, detail)


MUST_PLAY_STEPS = Binding(
    name="uno.must-play-steps",
    statement=(
        f"Every step (the first {_MUST_PLAY_STEPS} of each game) of seeded games under "
        "must-play (with four option sets and 2, 3 and 6 players, and from prepared "
        "positions: a pile to rebuild, used-up piles with and "
        "without a Wild in hand) obeys the per-step accounting whose sum over a loop "
        "uno.must-play-never-repeats refutes: the cards drawn, laid, rebuilt and taken back "
        "against the piles and hands, the shuffles and hand number, the phases entered, the "
        "exposures, and a draw of nothing only without a Wild."
    ),
    kinds=(
        "lay",
        "draw",
        "rebuild",
        "empty-draw",
        "drawn-phase",
        "challenge-phase",
        "stack-phase",
        "name-phase",
        "catch-or-call",
        "new-hand",
    ),
    compare=_guarded("lay", _must_play_steps),
    claims=721,
)


# --- TEXT_TABLES: the encodings' pack and counts against the engine's ---------------------------


def _text_tables() -> Iterator[Comparison]:
    from regelverk.uno import rules as engine
    from regelverk_proofs.uno import text

    for deck in (108, 112):
        options = UnoOptions(deck=deck)
        ours, theirs = Counter(text.deck_for(options)), Counter(engine.deck_for(options))
        for face in sorted(set(ours) | set(theirs), key=lambda c: c.code):
            yield Comparison(
                "pack",
                ours[face] == theirs[face],
                f"the {deck}-card pack: {ours[face]} of {face.code} from spec/, "
                f"{theirs[face]} in the engine's deck_for",
            )
    for name in text.__all__:
        if name == "deck_for":
            continue
        ours_n, theirs_n = getattr(text, name), getattr(engine, name)
        yield Comparison(
            "count",
            ours_n == theirs_n,
            f"{name}: {ours_n} from spec/, {theirs_n} in the engine",
        )


_TEXT_CLAIM = 54 + 56 + 8
"""Faces compared: 54 in the 108-card pack, 56 in the 112-card one; and eight counts."""

TEXT_TABLES = Binding(
    name="uno.text-tables",
    statement=(
        "The encodings' pack and counts (regelverk_proofs.uno.text, built from the parameters "
        "of UNO-DECK-108, UNO-DECK-112, UNO-DEAL-SEVEN and the draw clauses, never from the "
        "engine) equal the engine's: every face of both packs in the same number, the hand "
        "size, and every draw count (a turn's draw, Draw Two, a first Draw Two, Wild Draw "
        "Four, a failed and a successful challenge, the UNO call penalty)."
    ),
    kinds=("pack", "count"),
    compare=_text_tables,
    claims=_TEXT_CLAIM,
)
