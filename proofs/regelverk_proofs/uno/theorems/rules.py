"""Theorems and questions about UNO (rulebook ``uno``), decided by Z3.

* ``uno.card-conservation``: every move the engine makes keeps every card in exactly one place
  (card-level encoding of :mod:`regelverk_proofs.uno.encoding.cards`).
* ``uno.legal-ending``: a hand scores the official card values, and the game ends exactly when
  someone reaches the target score.
* ``uno.never-ending-game``: under the default readings a game can go on for ever; Z3 finds the
  loop (a lasso) and its binding replays it in the engine.
* ``uno.challenge-matches-wild-draw-four-condition``: the challenge outcome follows the Wild
  Draw Four condition.
* ``uno.two-player-reverse-is-skip``: with two players a Reverse does what a Skip does.

Every theorem names the bindings of :mod:`regelverk_proofs.uno.binding.rules` that compare its
encoding with the engine. The scenario ``wild-draw-four`` answers questions about laying and
challenging a Wild Draw Four.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from regelverk.cards import UnoCard
from regelverk.uno.options import BlankWildPoints, UnoOptions
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Kind, Theorem, Weakening
from regelverk_proofs.uno.binding.rules import (
    CARD_MOVES,
    CHALLENGES,
    DRAW_COUNTS,
    HAND_END,
    LEGALITY,
    MUST_PLAY_STEPS,
    TEXT_TABLES,
    TURN_ORDER,
)
from regelverk_proofs.uno.encoding.cards import (
    NO_ANSWER,
    Table,
    deal,
    every_table,
    lay,
    send_back,
    shuffle_hands,
    take,
    take_back,
    turn_up,
)
from regelverk_proofs.uno.encoding.lasso import check_never_ending, check_repeat
from regelverk_proofs.uno.encoding.rules import SCENARIOS_WD4, check_challenge, check_reverse
from regelverk_proofs.uno.encoding.score import ending
from regelverk_proofs.uno.text import deck_for
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Solver,
    Verdict,
    all_of,
    implies,
    sum_of,
)

__all__ = ["SCENARIOS", "THEOREMS", "move_names"]

PLAYERS = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")
"""The names the findings give the seats."""

_PLACE_WORDS = ("the draw pile", "the discard pile")


def _place(n: int, z: int) -> str:
    return f"{PLAYERS[z]}'s hand" if z < n else _PLACE_WORDS[z - n]


# --- uno.card-conservation -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Move:
    name: str
    build: Callable[[Table, Table, Int, frozenset[str]], Bool]


def _lay(b: Table, a: Table, seat: Int, weaken: frozenset[str]) -> Bool:
    return lay(b, a, seat, Int.var(f"{a.name}.colour"), Int.var(f"{a.name}.value"), weaken=weaken)


def _take(b: Table, a: Table, seat: Int, weaken: frozenset[str]) -> Bool:
    owed = Int.var(f"{a.name}.owed")
    keep = Bool.var(f"{a.name}.keep")
    return (owed >= 1) & take(b, a, seat, owed, keep, weaken=weaken, counts=False).rule


_MOVES = (
    _Move("a card laid on the discard pile", _lay),
    _Move(
        "cards drawn (one on a turn; two for a Draw Two or a missed UNO call; four for a "
        "Wild Draw Four, one turned up first included; four, six or ten after a challenge; a "
        "stacked Draw Two's total), with the "
        "draw pile rebuilt from the discard pile when it runs short",
        _take,
    ),
    _Move("a Wild Draw Four taken back after a successful challenge", take_back),
    _Move(
        "Shuffle Hands, dealt round the table",
        lambda b, a, s, w: shuffle_hands(b, a, s, True, w, counts=False),
    ),
    _Move(
        "Shuffle Hands, each keeping his hand's size",
        lambda b, a, s, w: shuffle_hands(b, a, s, False, w, counts=False),
    ),
    _Move("a new hand dealt", lambda b, a, s, w: deal(b, a, w, counts=False)),
    _Move("the first card turned up", lambda b, a, s, w: turn_up(b, a)[0]),
    _Move("a first card sent back into the draw pile", lambda b, a, s, w: send_back(b, a)),
)


def move_names() -> tuple[str, ...]:
    """The card moves ``uno.card-conservation`` covers, in words."""
    return tuple(m.name for m in _MOVES)


_WITNESS_CARD = UnoCard.parse("R5")


def _conservation_case(n: int, deck: int, weaken: frozenset[str]) -> str | None:
    """None when every move keeps the card in one place; else the broken move in words."""
    cards = (_WITNESS_CARD,)
    before = Table.of("before", cards, n)
    seat = Int.var("seat")
    step = Int.var("move")
    afters = [Table.of(f"after{i}", cards, n) for i in range(len(_MOVES))]
    solver = Solver(20_000)
    solver.add(before.conserved())
    solver.add(before.locally_ordered())
    solver.add(seat.between(0, n - 1))
    solver.add(step.between(0, len(_MOVES) - 1))
    for i, move in enumerate(_MOVES):
        solver.add(implies(step.eq(i), move.build(before, afters[i], seat, weaken)))
        solver.add(implies(step.eq(i), ~afters[i].conserved()))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER} for {n} players and the {deck}-card pack: {solver.reason_unknown()}"
    model = solver.model()
    i = model.int(step)
    after = afters[i]

    def where(table: Table) -> str:
        places = [_place(n, z) for z in table.places() if model.bool(table.at[0][z])]
        return " and ".join(places) if places else "nowhere"

    who = PLAYERS[model.int(seat)]
    return (
        f"{n} players, {deck}-card pack, move: {_MOVES[i].name} (seat {who}): "
        f"{_WITNESS_CARD} lay in {where(before)} and afterwards lies in {where(after)}"
    )


def _check_conservation(weaken: frozenset[str]) -> Finding:
    return every_table(
        _conservation_case,
        weaken,
        f"each of the {len(_MOVES)} card moves keeps a card that lay in one place in exactly one "
        "place, for 2 to 10 players and both packs; the engine's actions are sequences of "
        "these moves",
        per_table=len(_MOVES),
    )


CARD_CONSERVATION = Theorem(
    name="uno.card-conservation",
    states=(),
    rulebooks=("uno",),
    title="Every card is always in exactly one place",
    statement=(
        "Whatever a player does, every physical card of the pack (108 cards, or 112 with "
        "Shuffle Hands and the blank wilds) lies afterwards in exactly one place: one hand, the "
        "draw pile or the discard pile, if it did before. The encoding has one boolean per card "
        "and place and covers every card move the engine makes: laying a card; drawing one, "
        "two, four, six or ten cards, a missed UNO call's two, a stacked total, with the draw "
        "pile "
        "rebuilt from the discard pile (its top card kept, and the card under a waiting Wild "
        "Draw Four) and any shortfall lapsing; taking a Wild Draw Four back; Shuffle Hands in "
        "both dealing readings; dealing a new hand, turning up the first card and sending it "
        "back (or keeping a Wild Draw Four up and making the first player take four, by "
        "reading as-dealer-play of UNO-AMB-FIRST-WD4-AS-DEALER-PLAY). Every action of the "
        "engine, under every option set, is a sequence of these "
        "moves (the union of the moves is checked, so no option set needs its own case). How "
        "many cards a move takes is left open, which makes the statement stronger (the "
        "binding uno.card-moves holds the engine to the exact counts: two for a Draw Two, a "
        "first-card Draw Two or a catch, four for a first-card Wild Draw Four laid by the "
        "dealer, four, six or ten for a challenge, the whole stack for a Draw Two laid as the "
        "last card; and it holds each hand dealt after another to the dealer UNO-DEAL-ROTATE "
        "names); and as the moves treat every card alike (a card's face only decides whether "
        "a player may name it), one card stands for each card of the pack."
    ),
    clauses=(
        "UNO-DECK-108",
        "UNO-DECK-112",
        "UNO-PLAY-MATCH",
        "UNO-DRAW-PILE-REBUILD",
        "UNO-PILES-EXHAUSTED-NO-DRAW",
        "UNO-WD4-CHALLENGE-SUCCESS",
        "UNO-SHUFFLE-HANDS-EFFECT",
        "UNO-SHUFFLE-HANDS-DEAL-ORDER",
        "UNO-DEAL-SEVEN",
        "UNO-SETUP-DRAW-PILE",
        "UNO-SETUP-DISCARD-PILE",
        "UNO-FIRST-CARD-WD4-REDRAW",
        "UNO-FIRST-CARD-AS-DEALER-PLAY",
        "UNO-FIRST-CARD-DRAW-TWO",
        "UNO-DRAW-TWO-EFFECT",
        "UNO-CALL-PENALTY",
        "UNO-WD4-CHALLENGE-FAILED-SIX",
    ),
    check=_check_conservation,
    weakenings=(
        Weakening("UNO-PLAY-MATCH", "the laid card goes on the discard pile but stays in the hand"),
        Weakening(
            "UNO-DRAW-PILE-REBUILD",
            "the cards shuffled into the new draw pile are not taken off the discard pile",
        ),
        Weakening(
            "UNO-SHUFFLE-HANDS-EFFECT", "the cards dealt out again also stay in their old hands"
        ),
        Weakening(
            "UNO-WD4-CHALLENGE-SUCCESS",
            "the Wild Draw Four taken back into the hand also stays on the discard pile",
        ),
        Weakening(
            "UNO-SETUP-DRAW-PILE",
            "nothing says which cards form the draw pile after the deal",
        ),
    ),
    bindings=(CARD_MOVES, TEXT_TABLES),
)


# --- uno.legal-ending ----------------------------------------------------------------------


def _ending_case(n: int, deck: int, weaken: frozenset[str]) -> str | None:
    """The engine's end of a hand against the rules, for ``n`` players and one pack, under
    both readings of a blank wild's value (UNO-AMB-BLANK-WILD-POINTS) when the pack has
    blank wilds."""
    readings = tuple(BlankWildPoints) if deck == 112 else (BlankWildPoints.FORTY,)
    for reading in readings:
        broken = _ending_one(n, UnoOptions(deck=deck, blank_wild_points=reading), weaken)
        if broken is not None:
            return broken
    return None


def _ending_one(n: int, options: UnoOptions, weaken: frozenset[str]) -> str | None:
    """The engine's end of a hand against the rules, for ``n`` players and one option set:
    each hand is a count of each face (at most the copies the pack has)."""
    deck = options.deck
    pack = deck_for(options)
    faces = sorted(set(pack), key=lambda c: c.code)
    held = {(f.code, h): Int.var(f"held.{f.code}.{h}") for f in faces for h in range(n)}
    scores = [Int.var(f"score.{h}") for h in range(n)]
    # the seats are alike (the engine scores by seat number only), so the winner is seat 0
    winner = 0
    target = options.target_score
    solver = Solver(20_000)
    for face in faces:
        copies = sum(1 for c in pack if c == face)
        counts = [held[face.code, h] for h in range(n)]
        solver.add(all_of(c >= 0 for c in counts))
        solver.add(sum_of(counts) <= copies)
    for s in scores:
        solver.add(s.between(0, target - 1))
    if "UNO-WIN-HAND-GO-OUT" not in weaken:
        solver.add(all_of(held[f.code, winner].eq(0) for f in faces))
    end = ending(lambda f, h: held[f.code, h], faces, scores, winner, target, weaken, options)
    solver.add(~(end.collected.eq(end.official) & end.over.eq(end.reached)))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER} for {n} players: {solver.reason_unknown()}"
    model = solver.model()
    hands = []
    for h in range(n):
        cards = [f.code for f in faces for _ in range(model.int(held[f.code, h]))]
        shown = " ".join(cards[:12]) + (" …" if len(cards) > 12 else "")
        hands.append(f"{PLAYERS[h]} (score {model.int(scores[h])}): {shown or '-'}")
    return (
        f"{n} players, {deck}-card pack, blank_wild_points={options.blank_wild_points.value}; "
        f"{PLAYERS[winner]} goes out. "
        + "; ".join(hands)
        + f". The engine credits the winner {model.int(end.collected)} (total "
        + f"{model.int(end.new[winner])}) and "
        + ("ends" if model.bool(end.over) else "continues")
        + f" the game; the rules give {model.int(end.official)} (total "
        + f"{model.int(end.totals[winner])}) and "
        + ("end" if model.bool(end.reached) else "continue")
        + " it"
    )


def _check_ending(weaken: frozenset[str]) -> Finding:
    return every_table(
        _ending_case,
        weaken,
        "the engine's hand score equals the official table's sum over the opponents' cards, "
        "and the game ends exactly at the target score, for 2 to 10 players and both packs "
        "(the 112-card pack under both readings of a blank wild's value)",
    )


LEGAL_ENDING = Theorem(
    name="uno.legal-ending",
    states=(
        "UNO-WIN-HAND-GO-OUT",
        "UNO-SCORE-WINNER-COLLECTS",
        "UNO-SCORE-NUMBER-FACE",
        "UNO-SCORE-ACTION-20",
        "UNO-SCORE-WILDS-50",
        "UNO-SCORE-NEW-WILDS-40",
        "UNO-SCORE-WILD-50",
        "UNO-WIN-GAME-500",
    ),
    rulebooks=("uno",),
    title="A hand scores the official values, and the game ends at the target and not before",
    statement=(
        "When a player goes out, the engine credits him with exactly the points the official "
        "table gives for the cards left in his opponents' hands (face value for a number; for "
        "a Skip, Reverse or Draw Two, a Wild or Wild Draw Four, Shuffle Hands or a blank wild "
        "the values the spec's scoring clauses fix; a blank wild 40, or by reading fifty of "
        "UNO-AMB-BLANK-WILD-POINTS the 50 of UNO-SCORE-WILD-50), and the game is over after "
        "that hand "
        "exactly when some player's total has reached the target score (UNO-WIN-GAME-500's "
        "parameter, the engine's default); with every total still under it the game goes on. "
        "The engine adds up every hand, the winner's included: this agrees because the winner "
        "holds no card. Covered: the default reading winner-collects (holder-tally is not "
        "encoded), both readings of a blank wild's value, 2 to 10 players, both packs, any "
        "hands (each a count of each face, at most "
        "the copies the pack has) and scores below the target; as the seats are alike, the "
        "first seat is the one going out. The binding runs the engine's own end of a hand "
        "(its scoring and game-end code) on every face of the pack and on totals one under, "
        "at and one over the target."
    ),
    clauses=(
        "UNO-WIN-HAND-GO-OUT",
        "UNO-SCORE-WINNER-COLLECTS",
        "UNO-SCORE-NUMBER-FACE",
        "UNO-SCORE-ACTION-20",
        "UNO-SCORE-WILDS-50",
        "UNO-SCORE-NEW-WILDS-40",
        "UNO-SCORE-WILD-50",
        "UNO-WIN-GAME-500",
    ),
    check=_check_ending,
    weakenings=(
        Weakening("UNO-SCORE-ACTION-20", "the rules' value of a Skip, Reverse or Draw Two is open"),
        Weakening("UNO-WIN-GAME-500", "the game ends only above the target, not at it"),
        Weakening("UNO-WIN-HAND-GO-OUT", "the winner may still hold cards when the hand ends"),
    ),
    bindings=(HAND_END,),
)


# --- the lasso theorems, the challenge and the Reverse (encodings in uno_lasso, uno_rules) --

NEVER_ENDING = Theorem(
    name="uno.never-ending-game",
    states=("UNO-DRAW-BY-CHOICE", "UNO-PILES-EXHAUSTED-NO-DRAW"),
    rulebooks=("uno",),
    title="Under the default readings a game can go on for ever",
    statement=(
        "There is a position and a loop of legal actions that leads back to exactly that "
        "position, with nobody going out: when every card but the top one is held, a player may "
        "draw although he could lay a card (reading may-draw of UNO-AMB-DRAW-WHEN-ABLE), draws "
        "nothing because both piles are used up, and his turn passes (reading "
        "draw-what-there-is of UNO-AMB-PILES-EXHAUSTED). The encoding counts cards (hand sizes, "
        "draw pile, discard pile below its top, shuffles, hand number); the loop it finds is "
        "replayed in the engine by its binding. Under must-play or hand-void this search is not "
        "a termination proof: it only looks at loops of up to four actions."
    ),
    clauses=("UNO-DRAW-BY-CHOICE", "UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-PILE-REBUILD"),
    check=check_never_ending,
    weakenings=(
        Weakening(
            "UNO-PILES-EXHAUSTED-NO-DRAW",
            "read as hand-void: a draw from two empty piles voids the hand and the next is "
            "dealt, so the hand number goes up and no position comes back",
        ),
    ),
    kind=Kind.EXISTS,
    bindings=(DRAW_COUNTS,),
)


MUST_PLAY_NEVER_REPEATS = Theorem(
    name="uno.must-play-never-repeats",
    states=(),
    rulebooks=("uno",),
    title="Under must-play no position comes back",
    statement=(
        "Under the reading must-play of UNO-AMB-DRAW-WHEN-ABLE (and the default card-stays of "
        "UNO-AMB-CHALLENGE-SUCCESS-CARD) no sequence of legal actions, of any length, leads "
        "back to exactly the position it started from. The argument counts what one pass "
        "round a loop does (a Parikh count): the shuffles and the hand number must come back, "
        "so no draw pile is rebuilt and no hand dealt; then nothing can be drawn from the draw "
        "pile, so no card can be laid either (a laid card never returns to a hand), so every "
        "action is a draw of nothing; such a loop goes round the whole table, yet with both "
        "piles used up the Wilds are held and a Wild can always be laid. This is NOT a proof "
        "that every game ends: a game may still go on for ever without repeating a position "
        "(each rebuilt draw pile is a new shuffle); that question is open. Under the reading "
        "card-returns a loop does exist: two players take turns laying a Wild Draw Four "
        "against its condition, each is challenged, draws nothing from the empty piles and "
        "takes the card back (the tests replay it)."
    ),
    clauses=(
        "UNO-DRAW-BY-CHOICE",
        "UNO-DRAW-CANNOT-PLAY",
        "UNO-WILD-PLAY-ANYTIME",
        "UNO-DECK-108",
        "UNO-DRAW-PILE-REBUILD",
        "UNO-PILES-EXHAUSTED-NO-DRAW",
        "UNO-WD4-CHALLENGE-SUCCESS",
    ),
    check=check_repeat,
    weakenings=(
        Weakening(
            "UNO-DRAW-BY-CHOICE",
            "read as may-draw: a player may draw although he holds a card he could lay",
        ),
        Weakening(
            "UNO-WD4-CHALLENGE-SUCCESS",
            "read as card-returns: after a successful challenge the Wild Draw Four goes back "
            "into its player's hand",
        ),
    ),
    bindings=(MUST_PLAY_STEPS, LEGALITY),
)


CHALLENGE = Theorem(
    name="uno.challenge-matches-wild-draw-four-condition",
    states=(
        "UNO-WD4-CONDITION",
        "UNO-WD4-COLOUR-ONLY-COUNTS",
        "UNO-WD4-CHALLENGE-SUCCESS",
        "UNO-WD4-CHALLENGE-FAILED-SIX",
        "UNO-WD4-CHALLENGE-FAILED-STANDS",
    ),
    rulebooks=("uno",),
    title="A challenge succeeds exactly when the Wild Draw Four broke its condition",
    statement=(
        "When the player hit by a Wild Draw Four challenges it, the engine's outcome follows "
        "the card's condition: if the player who laid it still held a card of the colour in "
        "play when he laid it (the named colour, or by reading printed-colour the colour "
        "printed on the card under it; a wild card in hand counts only by reading wilds-count; "
        "other numbers and symbols never count), the challenge succeeds, he owes the four "
        "cards (six by reading guilty-draws-six) and the challenger none; otherwise the "
        "challenger owes six in all (ten, the card's four and six more, by reading six-more of "
        "UNO-AMB-FAILED-CHALLENGE-COUNT) and the layer none. The counts are what is owed: with "
        "both piles "
        "used up, the part that cannot be drawn lapses (UNO-PILES-EXHAUSTED-NO-DRAW)."
    ),
    clauses=(
        "UNO-WD4-CONDITION",
        "UNO-WD4-COLOUR-ONLY-COUNTS",
        "UNO-WD4-CHALLENGE-SUCCESS",
        "UNO-WD4-CHALLENGE-FAILED-SIX",
        "UNO-WD4-CHALLENGE-FAILED-STANDS",
    ),
    check=check_challenge,
    weakenings=(
        Weakening("UNO-WD4-CONDITION", "the engine no longer checks the condition on a challenge"),
        Weakening("UNO-WD4-CHALLENGE-FAILED-SIX", "a failed challenger draws four, not six"),
    ),
    bindings=(CHALLENGES, LEGALITY),
)


TWO_PLAYER_REVERSE = Theorem(
    name="uno.two-player-reverse-is-skip",
    states=("UNO-TWO-PLAYER-REVERSE", "UNO-TWO-PLAYER-SKIP", "UNO-REVERSE-EFFECT"),
    rulebooks=("uno",),
    title="With two players a Reverse is a Skip",
    statement=(
        "With two players, after a Reverse the next turn is the same as after a Skip laid by "
        "the same player: he plays again; and every later turn is the same too, since with two "
        "seats the direction of play makes no difference. With three players the next player "
        "is still the same (the player on the other side is the one after next), but the "
        "turns after it run the other way; from four players on the next player differs too."
    ),
    clauses=(
        "UNO-TWO-PLAYER-REVERSE",
        "UNO-TWO-PLAYER-SKIP",
        "UNO-REVERSE-EFFECT",
        "UNO-SKIP-EFFECT",
        "UNO-TURN-DIRECTION",
    ),
    check=check_reverse,
    weakenings=(
        Weakening(
            "UNO-TWO-PLAYER-REVERSE",
            "with two players the Reverse passes the turn on in the new direction, as with more",
        ),
    ),
    bindings=(TURN_ORDER,),
)


THEOREMS: tuple[Theorem, ...] = (
    CARD_CONSERVATION,
    LEGAL_ENDING,
    NEVER_ENDING,
    MUST_PLAY_NEVER_REPEATS,
    CHALLENGE,
    TWO_PLAYER_REVERSE,
)
"""The UNO theorems."""

SCENARIOS: tuple[Scenario, ...] = SCENARIOS_WD4
"""The UNO scenarios."""
