"""Theorems and questions about UNO (rulebook ``uno``), decided by Z3.

* ``uno.card-conservation``: every move the engine makes keeps every card in exactly one place
  (card-level encoding of :mod:`regelverk_proofs.uno_cards`).
* ``uno.legal-ending``: a hand scores the official card values, and the game ends exactly when
  someone reaches the target score.
* ``uno.never-ending-game``: under the default readings a game can go on for ever; Z3 finds the
  loop (a lasso) and it is replayed in the engine by the tests.
* ``uno.challenge-matches-wild-draw-four-condition``: the challenge outcome follows the Wild
  Draw Four condition.
* ``uno.two-player-reverse-is-skip``: with two players a Reverse does what a Skip does.

The scenario ``wild-draw-four`` answers questions about laying and challenging a Wild Draw Four.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from regelverk.cards import UnoCard, UnoValue
from regelverk.uno.options import UnoOptions
from regelverk.uno.rules import card_points, deck_for
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Theorem, Weakening
from regelverk_proofs.uno_cards import (
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
from regelverk_proofs.uno_lasso import MUST_PLAY_NEVER_REPEATS, NEVER_ENDING
from regelverk_proofs.uno_rules import CHALLENGE, SCENARIOS_WD4, TWO_PLAYER_REVERSE
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Solver,
    Verdict,
    all_of,
    any_of,
    implies,
    ite,
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
        "Wild Draw Four; four or six after a challenge; a stacked Draw Two's total), with the "
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
    rulebooks=("uno",),
    title="Every card is always in exactly one place",
    statement=(
        "Whatever a player does, every physical card of the pack (108 cards, or 112 with "
        "Shuffle Hands and the blank wilds) lies afterwards in exactly one place: one hand, the "
        "draw pile or the discard pile, if it did before. The encoding has one boolean per card "
        "and place and covers every card move the engine makes: laying a card; drawing one, "
        "two, four or six cards, a missed UNO call's two, a stacked total, with the draw pile "
        "rebuilt from the discard pile (its top card kept, and the card under a waiting Wild "
        "Draw Four) and any shortfall lapsing; taking a Wild Draw Four back; Shuffle Hands in "
        "both dealing readings; dealing a new hand, turning up the first card and sending it "
        "back. Every action of the engine, under every option set, is a sequence of these "
        "moves (the union of the moves is checked, so no option set needs its own case). How "
        "many cards a move takes is left open, which makes the statement stronger; and as the "
        "moves treat every card alike (a card's face only decides whether a player may name "
        "it), one card stands for each card of the pack."
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
)


# --- uno.legal-ending ----------------------------------------------------------------------

_OFFICIAL = {
    "number": "UNO-SCORE-NUMBER-FACE",
    "action": "UNO-SCORE-ACTION-20",
    "wild": "UNO-SCORE-WILDS-50",
    "new": "UNO-SCORE-NEW-WILDS-40",
}


def _official_points(card: UnoCard, weaken: frozenset[str]) -> Int:
    """The table of the rules, written from the clauses (not from the engine); a weakened
    clause's row is an unknown."""
    value = card.value
    if value.is_number:
        row, points = "number", int(value.value)
    elif value in (UnoValue.SKIP, UnoValue.REVERSE, UnoValue.DRAW_TWO):
        row, points = "action", 20
    elif value in (UnoValue.WILD, UnoValue.WILD_DRAW_FOUR):
        row, points = "wild", 50
    else:
        row, points = "new", 40
    if _OFFICIAL[row] in weaken:
        return Int.var(f"points.{card.code}")
    return Int.const(points)


def _ending_case(n: int, deck: int, weaken: frozenset[str]) -> str | None:
    """The engine's end of a hand against the rules, for ``n`` players and one pack: each hand
    is a count of each face (at most the copies the pack has)."""
    pack = deck_for(UnoOptions(deck=deck))
    faces = sorted(set(pack), key=lambda c: c.code)
    held = {(f.code, h): Int.var(f"held.{f.code}.{h}") for f in faces for h in range(n)}
    scores = [Int.var(f"score.{h}") for h in range(n)]
    # the seats are alike (the engine scores by seat number only), so the winner is seat 0
    winner = Int.const(0)
    target = 500
    solver = Solver(20_000)
    for face in faces:
        copies = sum(1 for c in pack if c == face)
        counts = [held[face.code, h] for h in range(n)]
        solver.add(all_of(c >= 0 for c in counts))
        solver.add(sum(counts, Int.const(0)) <= copies)
    for s in scores:
        solver.add(s.between(0, target - 1))

    def in_hand(face: UnoCard, owner: Int) -> Int:
        return sum((ite(owner.eq(h), held[face.code, h], 0) for h in range(n)), Int.const(0))

    if "UNO-WIN-HAND-GO-OUT" not in weaken:
        solver.add(all_of(in_hand(f, winner).eq(0) for f in faces))
    # the engine: the winner collects the points of every hand (its table of card values)
    everyone = [held[f.code, h] * card_points(f) for f in faces for h in range(n)]
    collected = sum(everyone, Int.const(0))
    new = [s + ite(winner.eq(h), collected, 0) for h, s in enumerate(scores)]
    over = any_of(s >= target for s in new)
    # the rules: the points of the cards in the opponents' hands, by the official table
    official = sum(
        (
            (held[f.code, h] - ite(winner.eq(h), held[f.code, h], 0)) * _official_points(f, weaken)
            for f in faces
            for h in range(n)
        ),
        Int.const(0),
    )
    totals = [s + ite(winner.eq(h), official, 0) for h, s in enumerate(scores)]
    if "UNO-WIN-GAME-500" in weaken:
        reached = any_of(t > target for t in totals)
    else:
        reached = any_of(t >= target for t in totals)
    solver.add(~(collected.eq(official) & over.eq(reached)))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER} for {n} players: {solver.reason_unknown()}"
    model = solver.model()
    w = model.int(winner)
    hands = []
    for h in range(n):
        cards = [f.code for f in faces for _ in range(model.int(held[f.code, h]))]
        shown = " ".join(cards[:12]) + (" …" if len(cards) > 12 else "")
        hands.append(f"{PLAYERS[h]} (score {model.int(scores[h])}): {shown or '-'}")
    return (
        f"{n} players, {deck}-card pack; {PLAYERS[w]} goes out. "
        + "; ".join(hands)
        + f". The engine credits the winner {model.int(collected)} (total {model.int(new[w])}) and "
        + ("ends" if model.bool(over) else "continues")
        + f" the game; the rules give {model.int(official)} (total {model.int(totals[w])}) and "
        + ("end" if model.bool(reached) else "continue")
        + " it"
    )


def _check_ending(weaken: frozenset[str]) -> Finding:
    return every_table(
        _ending_case,
        weaken,
        "the engine's hand score equals the official table's sum over the opponents' cards, "
        "and the game ends exactly at 500, for 2 to 10 players and both packs",
    )


LEGAL_ENDING = Theorem(
    name="uno.legal-ending",
    rulebooks=("uno",),
    title="A hand scores the official values, and the game ends at 500 and not before",
    statement=(
        "When a player goes out, the engine credits him with exactly the points the official "
        "table gives for the cards left in his opponents' hands (face value for a number, 20 "
        "for a Skip, Reverse or Draw Two, 50 for a Wild or Wild Draw Four, 40 for Shuffle "
        "Hands or a blank wild), and the game is over after that hand exactly when some "
        "player's total has reached 500; with every total still under 500 it goes on. The "
        "engine adds up every hand, the winner's included: this agrees because the winner "
        "holds no card. Covered: the default reading winner-collects (holder-tally is not "
        "encoded), 2 to 10 players, both packs, any hands (each a count of each face, at most "
        "the copies the pack has) and scores below 500; as the seats are alike, the first seat "
        "is the one going out."
    ),
    clauses=(
        "UNO-WIN-HAND-GO-OUT",
        "UNO-SCORE-WINNER-COLLECTS",
        "UNO-SCORE-NUMBER-FACE",
        "UNO-SCORE-ACTION-20",
        "UNO-SCORE-WILDS-50",
        "UNO-SCORE-NEW-WILDS-40",
        "UNO-WIN-GAME-500",
    ),
    check=_check_ending,
    weakenings=(
        Weakening("UNO-SCORE-ACTION-20", "the rules' value of a Skip, Reverse or Draw Two is open"),
        Weakening("UNO-WIN-GAME-500", "the game ends only above 500, not at 500"),
        Weakening("UNO-WIN-HAND-GO-OUT", "the winner may still hold cards when the hand ends"),
    ),
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
