"""``uno.never-ending-game``: Z3 looks for a lasso, a position and a loop of legal actions
that comes back to it with nobody out, in a count-level encoding of the engine.

The state of the encoding is what the engine's drawing and laying change: the size of each
hand, of the draw pile and of the discard pile below its top card, whose turn it is, how many
shuffles the game has had (the engine's ``shuffles``: every rebuilt draw pile is one) and the
hand number (a void hand deals the next). The actions are a draw on one's turn (the engine's
``_draw_on_turn`` with ``_take``) and laying a card that leaves at least one in hand. A loop must
come back to the same counts, shuffles and hand number, since the engine's state records them.
"""

from __future__ import annotations

from dataclasses import dataclass

from regelverk.cards import UnoCard
from regelverk.uno.options import UnoOptions
from regelverk.uno.rules import deck_for
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.uno_cards import NO_ANSWER, every_table
from regelverk_proofs.z3api import Int, Solver, Verdict, all_of, false, implies, ite

__all__ = ["MUST_PLAY_NEVER_REPEATS", "NEVER_ENDING", "Lasso", "find_lasso", "lasso_hands"]

PLAYERS = ("Anna", "Bo", "Cia", "Dan")
TOP = UnoCard.parse("R3")
"""The top card of the witness (any card would do; the counts do not see faces)."""

DRAW, LAY = 0, 1


@dataclass(frozen=True, slots=True)
class Lasso:
    """A loop found by Z3: the players, their hand sizes, the piles and the actions."""

    players: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile: int
    discard_below_top: int
    actions: tuple[tuple[str, str], ...]
    """(player, "draw" or "lay") in order; the loop then starts again."""


@dataclass(frozen=True, slots=True)
class _Counts:
    hands: tuple[Int, ...]
    pile: Int
    rest: Int
    turn: Int
    shuffles: Int
    hand_number: Int

    @classmethod
    def fresh(cls, name: str, n: int) -> _Counts:
        return cls(
            tuple(Int.var(f"{name}.hand.{h}") for h in range(n)),
            Int.var(f"{name}.pile"),
            Int.var(f"{name}.rest"),
            Int.var(f"{name}.turn"),
            Int.var(f"{name}.shuffles"),
            Int.var(f"{name}.hand_number"),
        )

    def same(self, other: _Counts) -> list:  # type: ignore[type-arg]
        return [
            *(a.eq(b) for a, b in zip(self.hands, other.hands, strict=True)),
            self.pile.eq(other.pile),
            self.rest.eq(other.rest),
            self.turn.eq(other.turn),
            self.shuffles.eq(other.shuffles),
            self.hand_number.eq(other.hand_number),
        ]


def _step(b: _Counts, a: _Counts, act: Int, n: int, weaken: frozenset[str]) -> list:  # type: ignore[type-arg]
    """One action of the player in turn, as the engine counts it (direction left)."""
    rules = [a.turn.eq((b.turn + 1).mod(n)), act.between(DRAW, LAY)]
    from_pile = b.pile >= 1
    rebuilt = ~from_pile & (b.rest >= 1)  # UNO-DRAW-PILE-REBUILD
    empty = ~from_pile & ~rebuilt  # UNO-PILES-EXHAUSTED-NO-DRAW
    void = empty if "UNO-PILES-EXHAUSTED-NO-DRAW" in weaken else false()
    draws = act.eq(DRAW)
    for h in range(n):
        mine = b.turn.eq(h)
        gain = ite(draws & mine & (from_pile | rebuilt), 1, 0)
        loss = ite(~draws & mine, 1, 0)
        rules.append(a.hands[h].eq(b.hands[h] + gain - loss))
        rules.append(a.hands[h] >= 1)  # nobody goes out
    rules += [
        a.pile.eq(ite(draws & from_pile, b.pile - 1, ite(draws & rebuilt, b.rest - 1, b.pile))),
        a.rest.eq(ite(draws & rebuilt, 0, ite(draws, b.rest, b.rest + 1))),
        a.shuffles.eq(b.shuffles + ite(draws & rebuilt, 1, 0)),
        a.hand_number.eq(b.hand_number + ite(draws & void, 1, 0)),
    ]
    return rules


def find_lasso(
    weaken: frozenset[str] = frozenset(), players: int = 2, longest: int = 4
) -> Lasso | str | None:
    """A loop of at most ``longest`` actions, None if there is none, or Z3's reason for giving
    no answer."""
    deck = len(deck_for(UnoOptions()))
    n = players
    for length in range(1, longest + 1):
        states = [_Counts.fresh(f"s{i}", n) for i in range(length + 1)]
        acts = [Int.var(f"act{i}") for i in range(length)]
        solver = Solver(10_000)
        first = states[0]
        solver.add((sum(first.hands, Int.const(0)) + first.pile + first.rest + 1).eq(deck))
        solver.add(all_of([first.pile >= 0, first.rest >= 0, first.turn.eq(0)]))
        solver.add(all_of([first.shuffles.eq(0), first.hand_number.eq(1)]))
        solver.add(all_of(h >= 1 for h in first.hands))
        for i in range(length):
            solver.add(all_of(_step(states[i], states[i + 1], acts[i], n, weaken)))
        solver.add(all_of(states[-1].same(first)))
        verdict = solver.check()
        if verdict is Verdict.UNKNOWN:
            return solver.reason_unknown()
        if verdict is Verdict.SAT:
            model = solver.model()
            actions = tuple(
                (
                    PLAYERS[model.int(states[i].turn)],
                    "draw" if model.int(acts[i]) == DRAW else "lay",
                )
                for i in range(length)
            )
            return Lasso(
                players=PLAYERS[:n],
                hand_sizes=tuple(model.int(h) for h in first.hands),
                draw_pile=model.int(first.pile),
                discard_below_top=model.int(first.rest),
                actions=actions,
            )
    return None


def lasso_hands(lasso: Lasso) -> dict[str, str]:
    """Concrete hands for a lasso with both piles empty: the pack but the top card, dealt in
    pack order by the hand sizes."""
    rest = list(deck_for(UnoOptions()))
    rest.remove(TOP)
    hands, at = {}, 0
    for name, size in zip(lasso.players, lasso.hand_sizes, strict=True):
        hands[name] = " ".join(c.code for c in rest[at : at + size])
        at += size
    return hands


def _render(lasso: Lasso) -> str:
    sizes = ", ".join(
        f"{p} {s} card{'' if s == 1 else 's'}"
        for p, s in zip(lasso.players, lasso.hand_sizes, strict=True)
    )
    steps = "; ".join(
        f"{p} draws: there is nothing to draw, and the turn passes" if a == "draw" else f"{p} lays"
        for p, a in lasso.actions
    )
    return (
        f"{len(lasso.players)} players; top card {TOP}; hands: {sizes}; draw pile "
        f"{lasso.draw_pile} cards, discard pile below the top {lasso.discard_below_top}. "
        f"{steps}; and the position is back where it started, for ever"
    )


def _check(weaken: frozenset[str]) -> Finding:
    cases = 0
    for players in (2, 3):
        cases += 4
        found = find_lasso(weaken, players)
        if isinstance(found, str):
            return Finding(Outcome.UNKNOWN, found, cases)
        if found is not None:
            return Finding(Outcome.WITNESSED, _render(found), cases)
    return Finding(
        Outcome.NO_WITNESS,
        "no loop of at most 4 actions for 2 or 3 players: a draw from empty piles voids the "
        "hand (the hand number goes up), a rebuilt draw pile counts a shuffle, and a laid card "
        "never comes back without one",
        cases,
    )


NEVER_ENDING = Theorem(
    name="uno.never-ending-game",
    rulebooks=("uno",),
    title="Under the default readings a game can go on for ever",
    statement=(
        "There is a position and a loop of legal actions that leads back to exactly that "
        "position, with nobody going out: when every card but the top one is held, a player may "
        "draw although he could lay a card (reading may-draw of UNO-AMB-DRAW-WHEN-ABLE), draws "
        "nothing because both piles are used up, and his turn passes (reading "
        "draw-what-there-is of UNO-AMB-PILES-EXHAUSTED). The encoding counts cards (hand sizes, "
        "draw pile, discard pile below its top, shuffles, hand number); the loop it finds is "
        "replayed in the engine by the tests. Under must-play or hand-void this search is not "
        "a termination proof: it only looks at loops of up to four actions."
    ),
    clauses=("UNO-DRAW-BY-CHOICE", "UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-PILE-REBUILD"),
    check=_check,
    weakenings=(
        Weakening(
            "UNO-PILES-EXHAUSTED-NO-DRAW",
            "read as hand-void: a draw from two empty piles voids the hand and the next is "
            "dealt, so the hand number goes up and no position comes back",
        ),
    ),
    kind=Kind.EXISTS,
)


# --- uno.must-play-never-repeats -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tally:
    """How often each kind of event happens in one pass round a loop (a Parikh count)."""

    laid: Int
    from_pile: Int
    rebuilt_cards: Int
    rebuilds: Int
    taken_back: Int
    shuffle_hands: Int
    deals: Int
    empty_draws: Int
    drawn_phase: Int
    challenge_phase: Int
    stack_phase: Int
    name_phase: Int
    catches_and_calls: Int

    @classmethod
    def fresh(cls) -> _Tally:
        return cls(*(Int.var(f"tally.{f}") for f in cls.__dataclass_fields__))

    def counts(self) -> tuple[Int, ...]:
        return tuple(getattr(self, f) for f in self.__dataclass_fields__)


def _repeat_case(n: int, deck: int, weaken: frozenset[str]) -> str | None:
    """Can a loop of the engine come back to the same state under must-play? None if not."""
    t = _Tally.fresh()
    wilds = [Int.var(f"wilds.{s}") for s in range(n)]
    top_wild = Int.var("top-is-a-wild")
    solver = Solver(10_000)
    solver.add(all_of(c >= 0 for c in t.counts()))
    # the state's records come back: shuffles (each rebuild, Shuffle Hands and deal shuffles),
    # the hand number, the draw pile, the discard pile and the hands' total
    solver.add((t.rebuilds + t.shuffle_hands + t.deals).eq(0))
    solver.add(t.rebuilt_cards <= t.rebuilds * deck)  # UNO-DRAW-PILE-REBUILD
    solver.add((t.rebuilt_cards - t.from_pile).eq(0))
    solver.add((t.laid - t.taken_back - t.rebuilt_cards).eq(0))
    solver.add((t.from_pile - t.laid + t.taken_back).eq(0))
    if "UNO-WD4-CHALLENGE-SUCCESS" in weaken:
        solver.add(t.taken_back <= t.challenge_phase)  # reading card-returns
    else:
        solver.add(t.taken_back.eq(0))  # the card stays on the pile
    # every phase but PLAY is entered by a card laid (or, for DRAWN, a card drawn), and left
    # by one action of the player in turn; a player is exposed only by laying a card
    solver.add(t.drawn_phase <= t.from_pile)
    solver.add((t.challenge_phase + t.stack_phase + t.name_phase) <= t.laid)
    solver.add(t.catches_and_calls <= t.laid)
    others = t.laid + t.from_pile + t.drawn_phase + t.challenge_phase + t.stack_phase
    others = others + t.name_phase + t.catches_and_calls
    solver.add((others + t.empty_draws) >= 1)
    # a loop of nothing but empty draws goes round the table: every seat draws, holding no
    # card he could lay (UNO-DRAW-CANNOT-PLAY under must-play); a Wild can always be laid
    solver.add(top_wild.between(0, 1))
    solver.add(all_of(w.between(0, 4) for w in wilds))
    solver.add((sum(wilds, Int.const(0)) + top_wild).eq(4))  # UNO-DECK-108: four Wilds
    only_empty = others.eq(0)
    solver.add(implies(only_empty, t.empty_draws.mod(n).eq(0)))
    if "UNO-DRAW-BY-CHOICE" not in weaken:
        solver.add(implies(only_empty, all_of(w.eq(0) for w in wilds)))
    verdict = solver.check()
    if verdict is Verdict.UNSAT:
        return None
    if verdict is Verdict.UNKNOWN:
        return f"{NO_ANSWER}: {solver.reason_unknown()}"
    model = solver.model()
    held = ", ".join(f"{PLAYERS_ALL[s]} {model.int(wilds[s])}" for s in range(n))
    if model.int(t.laid) == 0:
        return (
            f"{n} players, {deck}-card pack, both piles used up: the Wilds are held ({held}); "
            f"{model.int(t.empty_draws)} draws of nothing go round the table and the position "
            "comes back"
        )
    return (
        f"{n} players, {deck}-card pack, both piles used up: cards laid {model.int(t.laid)}, "
        f"each a Wild Draw Four challenged with success and taken back "
        f"({model.int(t.taken_back)}); the penalty draws lapse, and the position comes back"
    )


PLAYERS_ALL = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")


def _check_repeat(weaken: frozenset[str]) -> Finding:
    return every_table(
        _repeat_case,
        weaken,
        "no loop of any length comes back to the position it started from, for 2 to 10 "
        "players and both packs, under must-play and card-stays; this does not show that every "
        "game ends",
    )


MUST_PLAY_NEVER_REPEATS = Theorem(
    name="uno.must-play-never-repeats",
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
    check=_check_repeat,
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
)
