"""The rules of laying and challenging in Z3: which UNO actions are allowed, the Wild Draw Four
challenge, and the Reverse with two players.

:func:`allowed` encodes :func:`regelverk.uno.rules.check` over an unknown position (the hand of
the player in turn by faces, the top card, the colour in force, the phase, …) for a given action;
the binding ``uno.legality`` fixes the position to engine states and compares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from regelverk.cards import Colour, UnoCard, UnoValue
from regelverk.uno.options import (
    ActionSymbolMatch,
    BlankWild,
    ChallengeSuccessPenalty,
    CurrentColour,
    DrawWhenAble,
    FailedChallengeDraw,
    IllegalWd4,
    KeepDrawnCard,
    NumberMatch,
    UnoCallWindow,
    UnoOptions,
    Wd4WildCounts,
)
from regelverk.uno.state import (
    Action,
    CallUno,
    Catch,
    Challenge,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoState,
)
from regelverk_proofs.query import Fact, Scenario, Situation
from regelverk_proofs.theorem import Finding, Outcome
from regelverk_proofs.uno.encoding.cards import (
    NO_ANSWER,
    broken_finding,
    card_colour,
    card_value,
    colour_code,
)
from regelverk_proofs.uno.text import CHALLENGE_FAILED_DRAW, CHALLENGE_GUILTY_DRAW, WD4_DRAW
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    any_of,
    false,
    implies,
    ite,
    sum_of,
    true,
)

__all__ = [
    "CHALLENGE_OPTIONS",
    "PHASES",
    "SCENARIOS_WD4",
    "ChallengeTerms",
    "Position",
    "after_reverse",
    "after_skip",
    "allowed",
    "challenge_fails",
    "challenge_terms",
    "check_challenge",
    "check_reverse",
    "decide",
    "faces",
    "failed_draw",
    "fix",
]

PHASES: tuple[Phase, ...] = tuple(Phase)
"""A phase as a number: its index here."""

_V = UnoValue
_S, _R, _D2, _W, _WD4, _SH, _BLANK = (
    card_value(UnoCard.parse(c)) for c in ("RS", "RR", "R+2", "W", "W+4", "WSH", "WX")
)
_NAMING = (_W, _WD4, _BLANK)


def faces() -> tuple[UnoCard, ...]:
    """Every face of the 112-card pack, once."""
    found: list[UnoCard] = []
    for value in UnoValue:
        if value.is_wild:
            found.append(UnoCard(None, value))
        else:
            found += [UnoCard(c, value) for c in Colour]
    return tuple(found)


_FACES = faces()


@dataclass(frozen=True, slots=True)
class Position:
    """What :func:`allowed` reads of a position, as unknowns.

    ``hand[f]`` counts the cards of face ``_FACES[f]`` the player in turn holds; ``exposed``
    is -1 when nobody can be caught; ``drawn`` the face number of the card just drawn or -1.
    """

    n: int
    hand: tuple[Int, ...]
    top_colour: Int
    top_value: Int
    colour: Int
    phase: Int
    turn: Int
    exposed: Int
    drawn: Int

    @classmethod
    def fresh(cls, n: int) -> Position:
        """The position's unknowns for ``n`` players (named terms: built once per ``n``)."""
        return _fresh(n)

    @classmethod
    def _build(cls, n: int) -> Position:
        return cls(
            n,
            tuple(Int.var(f"hand.{f.code}") for f in _FACES),
            Int.var("top.colour"),
            Int.var("top.value"),
            Int.var("colour"),
            Int.var("phase"),
            Int.var("turn"),
            Int.var("exposed"),
            Int.var("drawn"),
        )

    def in_phase(self, phase: Phase) -> Bool:
        return self.phase.eq(PHASES.index(phase))

    def size(self) -> Int:
        return sum_of(self.hand)


@cache
def _fresh(n: int) -> Position:
    return Position._build(n)


def fix(position: Position, state: UnoState) -> Bool:
    """The position is the engine's ``state`` (for the binding ``uno.legality``)."""
    hand = state.hands[state.turn]
    drawn = -1 if state.drawn is None else _FACES.index(state.drawn)
    return all_of(
        [
            *(position.hand[i].eq(sum(1 for c in hand if c == f)) for i, f in enumerate(_FACES)),
            position.top_colour.eq(card_colour(state.top)),
            position.top_value.eq(card_value(state.top)),
            position.colour.eq(colour_code(state.colour)),
            position.phase.eq(PHASES.index(state.phase)),
            position.turn.eq(state.turn),
            position.exposed.eq(-1 if state.exposed is None else state.exposed),
            position.drawn.eq(drawn),
        ]
    )


def _fits(options: UnoOptions, card: UnoCard, p: Position) -> Bool:
    """``card`` fits on the top card with the colour in force (UNO-PLAY-MATCH and the
    when-playable clauses; the engine's ``fits``)."""
    value = card_value(card)
    if card.colour is None:
        dead = card.value is _V.BLANK_WILD and options.blank_wild is BlankWild.DEAD_CARD
        return false() if dead else true()
    own = card_colour(card)
    if options.current_colour is CurrentColour.PRINTED_COLOUR:
        colour, none_fits = p.top_colour, false()
    else:
        colour, none_fits = p.colour, true()
    if card.value.is_number:
        by_value = true() if options.number_match is NumberMatch.NUMBER_MATCHES else false()
    elif card.value is _V.SKIP or options.action_symbol_match is ActionSymbolMatch.ANY_COLOUR:
        by_value = true()
    else:
        by_value = false()
    return colour.eq(0) & none_fits | (
        colour.ne(0) & (colour.eq(own) | (p.top_value.eq(value) & by_value))
    )


def _condition_met(options: UnoOptions, p: Position, laid: UnoCard | None) -> Bool:
    """The Wild Draw Four condition on the hand left after laying ``laid`` (UNO-WD4-CONDITION,
    UNO-WD4-COLOUR-ONLY-COUNTS, reading of UNO-AMB-WD4-HOLDING-WILD)."""
    colour = p.top_colour if options.current_colour is CurrentColour.PRINTED_COLOUR else p.colour
    wilds = options.wd4_wild_counts is Wd4WildCounts.WILDS_COUNT
    blockers = []
    for i, face in enumerate(_FACES):
        left = p.hand[i] - (1 if face == laid else 0)
        if face.colour is None:
            if wilds:
                blockers.append(left >= 1)
        else:
            blockers.append(colour.eq(card_colour(face)) & (left >= 1))
    return colour.eq(0) | ~any_of(blockers)


def _may_lay(options: UnoOptions, card: UnoCard, p: Position) -> Bool:
    fits = _fits(options, card, p)
    if card.value is _V.WILD_DRAW_FOUR and options.illegal_wd4 is IllegalWd4.REFUSED:
        return fits & _condition_met(options, p, card)
    return fits


def _may_keep(options: UnoOptions, p: Position) -> Bool:
    """Keeping the card just drawn (UNO-DRAW-TURN-PASSES): always by default; by reading
    must-lay of UNO-AMB-KEEP-DRAWN-CARD only a Wild Draw Four the hand left does not allow
    (UNO-WD4-CONDITION)."""
    if options.keep_drawn_card is KeepDrawnCard.MAY_KEEP:
        return true()
    laid = UnoCard(None, _V.WILD_DRAW_FOUR)
    return p.drawn.eq(_FACES.index(laid)) & ~_condition_met(options, p, laid)


def _play(options: UnoOptions, action: Play, seat: int, p: Position) -> Bool:
    card = action.card
    i = _FACES.index(card)
    rules = [
        p.turn.eq(seat),
        ~p.in_phase(Phase.NAME_COLOUR),
        ~p.in_phase(Phase.CHALLENGE),
        p.hand[i] >= 1,
        implies(p.in_phase(Phase.DRAWN), p.drawn.eq(i)),
        implies(p.in_phase(Phase.STACK), true() if card.value is _V.DRAW_TWO else false()),
        _may_lay(options, card, p),
    ]
    naming = card_value(card) in _NAMING
    rules.append(true() if naming == (action.colour is not None) else false())
    if action.uno:
        rules.append(p.size().eq(2))
    return all_of(rules)


def _draw(options: UnoOptions, seat: int, p: Position) -> Bool:
    able = any_of((p.hand[i] >= 1) & _may_lay(options, f, p) for i, f in enumerate(_FACES))
    must_play = options.draw_when_able is DrawWhenAble.MUST_PLAY
    return all_of(
        [
            p.turn.eq(seat),
            ~p.in_phase(Phase.DRAWN),
            ~p.in_phase(Phase.NAME_COLOUR),
            implies(p.in_phase(Phase.PLAY), ~able) if must_play else true(),
        ]
    )


def allowed(options: UnoOptions, players: Sequence[str], action: Action, p: Position) -> Bool:
    """Whether the rules allow ``action`` in the position ``p`` (the engine's ``check``)."""
    names = [action.player] + ([action.target] if isinstance(action, Catch) else [])
    if any(name not in players for name in names):
        return false()
    over = p.in_phase(Phase.GAME_OVER)
    seat = list(players).index(action.player)
    if isinstance(action, Catch):
        target = list(players).index(action.target)
        rule = (true() if seat != target else false()) & p.exposed.eq(target)
    elif isinstance(action, CallUno):
        late = options.uno_call_window is UnoCallWindow.UNTIL_NEXT_TURN
        rule = p.exposed.eq(seat) & (true() if late else false())
    elif isinstance(action, Play):
        rule = _play(options, action, seat, p)
    elif isinstance(action, Draw):
        rule = _draw(options, seat, p)
    elif isinstance(action, Pass):
        rule = p.turn.eq(seat) & p.in_phase(Phase.DRAWN) & _may_keep(options, p)
    elif isinstance(action, Challenge):
        rule = p.turn.eq(seat) & p.in_phase(Phase.CHALLENGE)
    elif isinstance(action, NameColour):
        rule = p.turn.eq(seat) & p.in_phase(Phase.NAME_COLOUR)
    else:  # pragma: no cover - the Action union is closed
        rule = false()
    return ~over & rule


@lru_cache(maxsize=16)
def _fixed(state: UnoState) -> Bool:
    """:func:`fix` over the unknowns of :meth:`Position.fresh` (asked for every candidate
    action in one position, so built once per position)."""
    return fix(Position.fresh(len(state.players)), state)


@lru_cache(maxsize=4096)
def _allowed_over_unknowns(options: UnoOptions, players: tuple[str, ...], action: Action) -> Bool:
    """:func:`allowed` over the unknowns of :meth:`Position.fresh` (the same terms for every
    position with as many players, so built once per options, players and action)."""
    return allowed(options, players, action, Position.fresh(len(players)))


def decide(options: UnoOptions, state: UnoState, action: Action) -> bool | None:
    """What the encoding says of ``action`` in the engine's ``state``: allowed or not."""
    with Solver.scratch(10_000) as solver:
        solver.add(_fixed(state))
        solver.add(_allowed_over_unknowns(options, state.players, action))
        verdict = solver.check()
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.SAT


def challenge_fails(options: UnoOptions, state: UnoState) -> bool | None:
    """What the encoding of the condition says of the Wild Draw Four waiting in ``state``
    (phase CHALLENGE): True when it was laid legally, so a challenge fails."""
    wd4 = state.wild_draw_four
    if wd4 is None:
        raise ValueError("no Wild Draw Four is waiting for an answer")
    laid = UnoCard(None, _V.WILD_DRAW_FOUR)
    p = Position.fresh(len(state.players))
    solver = Solver(10_000)
    for i, face in enumerate(_FACES):
        held = sum(1 for c in wd4.held if c == face) + (1 if face == laid else 0)
        solver.add(p.hand[i].eq(held))
    solver.add(p.colour.eq(colour_code(wd4.colour_before)))
    solver.add(p.top_colour.eq(card_colour(state.discard[-2])))
    solver.add(~_condition_met(options, p, laid))
    verdict = solver.check()
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.UNSAT


# --- uno.challenge-matches-wild-draw-four-condition ------------------------------------------


CHALLENGE_OPTIONS = tuple(
    UnoOptions(
        current_colour=cc,
        wd4_wild_counts=wc,
        challenge_success_penalty=pen,
        failed_challenge_draw=fd,
    )
    for cc in CurrentColour
    for wc in Wd4WildCounts
    for pen in ChallengeSuccessPenalty
    for fd in FailedChallengeDraw
)


def failed_draw(options: UnoOptions) -> int:
    """What the rules make a failed challenger draw, from the clauses' parameters: six in all
    (UNO-WD4-CHALLENGE-FAILED-SIX, UNO-WD4-CHALLENGE-FAILED-STANDS), or by reading six-more of
    UNO-AMB-FAILED-CHALLENGE-COUNT those six besides the Wild Draw Four's four
    (UNO-WD4-EFFECT)."""
    if options.failed_challenge_draw is FailedChallengeDraw.SIX_MORE:
        return CHALLENGE_FAILED_DRAW + WD4_DRAW
    return CHALLENGE_FAILED_DRAW


@dataclass(frozen=True, slots=True)
class ChallengeTerms:
    """What the challenge encoding says of one position (:func:`challenge_terms`): the
    engine's reading of the condition and the cards each side draws, and the rules' own
    reading (did the layer hold a card of the colour in play?) with the statement."""

    met: Bool
    layer: Int
    challenger: Int
    guilty: Bool
    statement: Bool


def challenge_terms(options: UnoOptions, p: Position, weaken: frozenset[str]) -> ChallengeTerms:
    """The challenge of a Wild Draw Four laid from the hand ``p`` (the Wild Draw Four
    included) with ``p.colour`` in force and ``p.top_colour`` printed on the card under it.

    The engine's side: the condition (UNO-WD4-CONDITION, :func:`_condition_met`) decides; the
    guilty player draws :data:`~regelverk.uno.rules.CHALLENGE_GUILTY_DRAW` (or
    :data:`~regelverk.uno.rules.CHALLENGE_FAILED_DRAW` by reading guilty-draws-six), a failed
    challenger :func:`failed_draw` (six, or ten by reading six-more). The rules' side reads the
    condition again from the clauses: a card printed in the colour in play other than the laid
    Wild Draw Four, or by reading wilds-count a wild card (UNO-WD4-COLOUR-ONLY-COUNTS).
    """
    wd4 = _FACES.index(UnoCard(None, _V.WILD_DRAW_FOUR))
    met = _condition_met(options, p, UnoCard(None, _V.WILD_DRAW_FOUR))
    if "UNO-WD4-CONDITION" in weaken:
        met = true()
    six = options.challenge_success_penalty is ChallengeSuccessPenalty.GUILTY_DRAWS_SIX
    owed = CHALLENGE_FAILED_DRAW if six else CHALLENGE_GUILTY_DRAW
    failed = failed_draw(options)
    if "UNO-WD4-CHALLENGE-FAILED-SIX" in weaken:
        failed = WD4_DRAW
    layer = ite(met, 0, owed)
    challenger = ite(met, failed, 0)
    in_play = p.top_colour if options.current_colour is CurrentColour.PRINTED_COLOUR else p.colour
    others = []
    for i, face in enumerate(_FACES):
        count = p.hand[i] - (1 if i == wd4 else 0)
        if face.colour is not None:
            others.append(in_play.eq(card_colour(face)) & (count >= 1))
        elif options.wd4_wild_counts is Wd4WildCounts.WILDS_COUNT:
            others.append(in_play.ne(0) & (count >= 1))
    guilty = any_of(others)
    statement = guilty & layer.eq(owed) & challenger.eq(0) | (
        ~guilty & layer.eq(0) & challenger.eq(failed_draw(options))
    )
    return ChallengeTerms(met, layer, challenger, guilty, statement)


def _challenge_case(options: UnoOptions, weaken: frozenset[str]) -> str | None:
    """The engine's challenge against the statement, for one option set."""
    p = Position.fresh(2)
    wd4 = _FACES.index(UnoCard(None, _V.WILD_DRAW_FOUR))
    solver = Solver(10_000)
    solver.add(all_of(h.between(0, 4) for h in p.hand))
    solver.add(p.hand[wd4] >= 1)
    solver.add(p.colour.between(1, 4))
    solver.add(p.top_colour.between(0, 4))
    solver.add(implies(p.top_colour.ne(0), p.colour.eq(p.top_colour)))
    terms = challenge_terms(options, p, weaken)
    solver.add(~terms.statement)
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER}: {solver.reason_unknown()}"
    return _render_challenge(solver.model(), p, options, terms.layer, terms.challenger)


_COLOUR_WORDS = ("no colour", "red", "yellow", "green", "blue")


def _render_challenge(
    model: Model, p: Position, options: UnoOptions, layer: Int, challenger: Int
) -> str:
    hand = " ".join(
        " ".join([f.code] * model.int(p.hand[i]))
        for i, f in enumerate(_FACES)
        if model.int(p.hand[i])
    )
    return (
        f"options current_colour={options.current_colour.value}, "
        f"wd4_wild_counts={options.wd4_wild_counts.value}, "
        f"failed_challenge_draw={options.failed_challenge_draw.value}: Anna holds {hand} and "
        "lays W+4 with "
        f"{_COLOUR_WORDS[model.int(p.colour)]} in force (top card printed "
        f"{_COLOUR_WORDS[model.int(p.top_colour)]}); Bo challenges; the engine has Anna draw "
        f"{model.int(layer)} and Bo {model.int(challenger)}"
    )


def check_challenge(weaken: frozenset[str]) -> Finding:
    for count, options in enumerate(CHALLENGE_OPTIONS, 1):
        broken = _challenge_case(options, weaken)
        if broken is not None:
            return broken_finding(broken, count)
    return Finding(
        Outcome.PROVED,
        "the challenge succeeds exactly when the layer held a card of the colour in play, for "
        "both readings of the current colour, of wild cards in hand, of the penalty and of "
        "the failed challenger's draw",
        len(CHALLENGE_OPTIONS),
    )


# --- uno.two-player-reverse-is-skip --------------------------------------------------------


def after_reverse(n: int, seat: Int, direction: Int, weaken: frozenset[str]) -> tuple[Int, Int]:
    """The engine's ``_reverse``: the direction turns; with two players the turn comes back."""
    turned = -direction
    if n == 2 and "UNO-TWO-PLAYER-REVERSE" not in weaken:
        return seat, turned
    return (seat + turned).mod(n), turned


def after_skip(n: int, seat: Int, direction: Int) -> tuple[Int, Int]:
    """The engine's ``_skip``: the next player loses his turn."""
    return (seat + direction * 2).mod(n), direction


def after_draw_two(n: int, seat: Int, direction: Int, opponent_plays: bool) -> tuple[Int, Int]:
    """After a Draw Two (no stacking): the next player draws and loses his turn
    (UNO-DRAW-TWO-EFFECT), so the turn goes two seats on; only with two players under the
    opponent-plays reading of UNO-AMB-TWO-PLAYER-DRAW-CARDS does the opponent, having drawn,
    take his turn. At three or more players that reading changes nothing."""
    if n == 2 and opponent_plays:
        return (seat + direction).mod(n), direction
    return (seat + direction * 2).mod(n), direction


def _reverse_case(n: int, weaken: frozenset[str]) -> str | None:
    seat, direction = Int.var("seat"), Int.var("direction")
    solver = Solver(10_000)
    solver.add(seat.between(0, n - 1) & (direction.eq(1) | direction.eq(-1)))
    r_turn, r_dir = after_reverse(n, seat, direction, weaken)
    s_turn, s_dir = after_skip(n, seat, direction)
    # the same player next, and every later turn the same whatever the direction
    later = [(r_turn + r_dir * k).mod(n).eq((s_turn + s_dir * k).mod(n)) for k in range(1, n + 1)]
    solver.add(~(r_turn.eq(s_turn) & all_of(later)))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER}: {solver.reason_unknown()}"
    model = solver.model()
    who, way = PLAYERS_2[model.int(seat)], model.int(direction)
    card = "RR"
    return (
        f"{n} players, play going {'left' if way == 1 else 'right'}: {who} lays {card}; after "
        f"the Reverse {PLAYERS_2[model.int(r_turn)]} plays, after a Skip "
        f"{PLAYERS_2[model.int(s_turn)]} would"
    )


PLAYERS_2 = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")


def check_reverse(weaken: frozenset[str]) -> Finding:
    broken = _reverse_case(2, weaken)
    if broken is not None:
        return broken_finding(broken, 1)
    differ = [n for n in range(3, 11) if _reverse_case(n, frozenset()) is not None]
    return Finding(
        Outcome.PROVED,
        "with two players a Reverse gives the turn to the same player as a Skip (its own "
        "player) and every later turn is the same in either direction; with "
        + ", ".join(map(str, differ))
        + " players Z3 finds a seat where the turns after a Reverse and after a Skip part "
        "(with three only from the second turn on)",
        1 + len(differ),
    )


# --- the scenario "wild-draw-four" ---------------------------------------------------------

_SLOTS = 6


def _build_wd4(solver: Solver) -> Situation:
    """Anna holds up to six other cards and lays a Wild Draw Four; Bo may challenge."""
    colours = [Int.var(f"card.{i}") for i in range(_SLOTS)]
    size = Int.var("anna-other-cards")
    in_force = Int.var("colour-in-force")
    challenged = Bool.var("challenged")
    layer, victim = Int.var("layer-draws"), Int.var("victim-draws")
    holds = any_of((size > i) & colours[i].eq(in_force) for i in range(_SLOTS))
    solver.add(size.between(0, _SLOTS))
    solver.add(in_force.between(1, 4))
    solver.add(all_of(c.between(0, 4) for c in colours))
    met = Bool.var("condition-met")
    solver.add(met.eq(~holds), clause="UNO-WD4-CONDITION")
    solver.add(implies(~challenged, layer.eq(0) & victim.eq(WD4_DRAW)), clause="UNO-WD4-EFFECT")
    solver.add(
        implies(challenged & ~met, layer.eq(CHALLENGE_GUILTY_DRAW) & victim.eq(0)),
        clause="UNO-WD4-CHALLENGE-SUCCESS",
    )
    solver.add(
        implies(challenged & met, layer.eq(0) & victim.eq(CHALLENGE_FAILED_DRAW)),
        clause="UNO-WD4-CHALLENGE-FAILED-SIX",
    )

    def render(model: Model) -> str:
        shown = [
            f"a {_COLOUR_WORDS[model.int(colours[i])]} card" if model.int(colours[i]) else "a Wild"
            for i in range(model.int(size))
        ]
        return (
            f"{_COLOUR_WORDS[model.int(in_force)]} in force; Anna also holds "
            f"{', '.join(shown) or 'nothing'} and lays W+4; Bo "
            + ("challenges" if model.bool(challenged) else "does not challenge")
            + f"; Anna draws {model.int(layer)}, Bo {model.int(victim)}"
        )

    facts = (
        Fact("holds-current-colour", "Anna held a card of the colour in force", holds),
        Fact("challenged", "Bo challenged the Wild Draw Four", challenged),
        Fact("layer-draws", "cards Anna, who laid it, must draw", layer),
        Fact("victim-draws", "cards Bo, the player it hit, must draw", victim),
        Fact("other-cards", "how many other cards Anna held", size),
    )
    return Situation(facts=facts, render=render)


SCENARIOS_WD4: tuple[Scenario, ...] = (
    Scenario(
        name="wild-draw-four",
        rulebook="uno",
        description=(
            "Anna lays a Wild Draw Four (holding up to six other cards) and Bo, whom it hits, "
            "may challenge it"
        ),
        build=_build_wd4,
        constants={"red": 1, "yellow": 2, "green": 3, "blue": 4},
    ),
)
