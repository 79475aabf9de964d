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

import dataclasses
from dataclasses import dataclass

from regelverk.cards import UnoCard, UnoValue
from regelverk.uno.options import UnoOptions
from regelverk_proofs.theorem import Finding, Outcome
from regelverk_proofs.uno.encoding.cards import NO_ANSWER, every_table
from regelverk_proofs.uno.text import deck_for
from regelverk_proofs.z3api import Bool, Int, Solver, Verdict, all_of, false, implies, ite

__all__ = [
    "Change",
    "Counts",
    "Lasso",
    "Tally",
    "accounting",
    "check_never_ending",
    "check_repeat",
    "count_step",
    "find_lasso",
    "lasso_hands",
]

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
class Counts:
    hands: tuple[Int, ...]
    pile: Int
    rest: Int
    turn: Int
    shuffles: Int
    hand_number: Int

    @classmethod
    def fresh(cls, name: str, n: int) -> Counts:
        return cls(
            tuple(Int.var(f"{name}.hand.{h}") for h in range(n)),
            Int.var(f"{name}.pile"),
            Int.var(f"{name}.rest"),
            Int.var(f"{name}.turn"),
            Int.var(f"{name}.shuffles"),
            Int.var(f"{name}.hand_number"),
        )

    def same(self, other: Counts) -> list:  # type: ignore[type-arg]
        return [
            *(a.eq(b) for a, b in zip(self.hands, other.hands, strict=True)),
            self.pile.eq(other.pile),
            self.rest.eq(other.rest),
            self.turn.eq(other.turn),
            self.shuffles.eq(other.shuffles),
            self.hand_number.eq(other.hand_number),
        ]


def count_step(b: Counts, a: Counts, act: Int, n: int, weaken: frozenset[str]) -> list:  # type: ignore[type-arg]
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
        states = [Counts.fresh(f"s{i}", n) for i in range(length + 1)]
        acts = [Int.var(f"act{i}") for i in range(length)]
        solver = Solver(10_000)
        first = states[0]
        solver.add((sum(first.hands, Int.const(0)) + first.pile + first.rest + 1).eq(deck))
        solver.add(all_of([first.pile >= 0, first.rest >= 0, first.turn.eq(0)]))
        solver.add(all_of([first.shuffles.eq(0), first.hand_number.eq(1)]))
        solver.add(all_of(h >= 1 for h in first.hands))
        for i in range(length):
            solver.add(all_of(count_step(states[i], states[i + 1], acts[i], n, weaken)))
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


def check_never_ending(weaken: frozenset[str]) -> Finding:
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


# --- uno.must-play-never-repeats -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """How often each kind of event happens in one step, or in one pass round a loop (a
    Parikh count: the loop's tally is the sum of its steps')."""

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
    cleared: Int

    @classmethod
    def fresh(cls, name: str = "tally") -> Tally:
        return cls(*(Int.var(f"{name}.{f}") for f in cls.__dataclass_fields__))

    @classmethod
    def of(cls, **counts: int) -> Tally:
        """A tally of known counts (those not named are 0)."""
        return cls(*(Int.const(counts.pop(f, 0)) for f in cls.__dataclass_fields__))

    def counts(self) -> tuple[Int, ...]:
        return tuple(getattr(self, f) for f in self.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class Change:
    """What one step (or a loop: all zero) changes in the engine's state: the shuffles, the
    hand number, the sizes of the draw pile, the discard pile and all hands together, whether
    the player in turn faces a drawn card (``drawn_phase``) or a challenge, stack or colour to
    name (``special_phase``), and whether someone can be caught (``exposed``); for an empty
    draw, the Wilds the drawer held, how many seats on the turn moved and the direction's
    change."""

    shuffles: Int
    hand_number: Int
    pile: Int
    discard: Int
    held: Int
    drawn_phase: Int
    special_phase: Int
    exposed: Int
    drawer_wilds: Int
    turn_moves: Int
    direction: Int

    @classmethod
    def of(cls, **changes: int) -> Change:
        """A change of known sizes (those not named are 0)."""
        return cls(*(Int.const(changes.pop(f, 0)) for f in cls.__dataclass_fields__))


def accounting(t: Tally, d: Change, deck: int, weaken: frozenset[str]) -> list[Bool]:
    """What one step of the engine under must-play does, in counts (linear, so a loop's sum
    obeys it too, with every change zero).

    Every rebuilt draw pile, Shuffle Hands and new hand is a shuffle; within a hand the cards
    drawn come off the draw pile, the cards laid go on the discard pile, a rebuild moves cards
    back (UNO-DRAW-PILE-REBUILD) and, under card-stays, no card returns from the discard pile
    (UNO-WD4-CHALLENGE-SUCCESS); a drawn card to decide on comes only from a draw, a challenge,
    a stack or a colour to name only from a card laid, and an UNO call or catch only after a
    card laid; every step does something; a draw of nothing (UNO-PILES-EXHAUSTED-NO-DRAW)
    passes the turn one seat on and is open only to a player holding no Wild
    (UNO-DRAW-BY-CHOICE under must-play, UNO-WILD-PLAY-ANYTIME).
    """
    in_hand = t.deals.eq(0)
    others = t.laid + t.from_pile + t.drawn_phase + t.challenge_phase + t.stack_phase
    others = others + t.name_phase + t.catches_and_calls
    empty = t.empty_draws >= 1
    rules = [
        *(c >= 0 for c in t.counts()),
        d.shuffles >= t.rebuilds + t.shuffle_hands + t.deals,
        d.hand_number.eq(t.deals),
        t.rebuilt_cards <= t.rebuilds * deck,
        implies(in_hand, d.pile.eq(t.rebuilt_cards - t.from_pile)),
        implies(in_hand, d.discard.eq(t.laid - t.taken_back - t.rebuilt_cards)),
        implies(in_hand, d.held.eq(t.from_pile - t.laid + t.taken_back)),
        implies(in_hand, d.drawn_phase + t.drawn_phase <= t.from_pile),
        implies(
            in_hand,
            d.special_phase + t.challenge_phase + t.stack_phase + t.name_phase <= t.laid,
        ),
        t.catches_and_calls <= t.cleared,
        implies(in_hand, d.exposed + t.cleared <= t.laid),
        (others + t.empty_draws + t.deals) >= 1,
        implies(empty, d.turn_moves.eq(t.empty_draws) & d.direction.eq(0)),
    ]
    if "UNO-WD4-CHALLENGE-SUCCESS" in weaken:
        rules.append(t.taken_back <= t.challenge_phase)  # reading card-returns
    else:
        rules.append(t.taken_back.eq(0))  # the card stays on the pile
    if "UNO-DRAW-BY-CHOICE" not in weaken:
        rules.append(implies(empty, d.drawer_wilds.eq(0)))
    return rules


def _repeat_case(n: int, deck: int, weaken: frozenset[str]) -> str | None:
    """Can a loop of the engine come back to the same state under must-play? None if not."""
    t = Tally.fresh()
    wilds = [Int.var(f"wilds.{s}") for s in range(n)]
    top_wild = Int.var("top-is-a-wild")
    solver = Solver(10_000)
    # a loop: the sum of its steps' tallies obeys each step's accounting with nothing changed
    # (the state's records come back); its empty draws are the steps' empty draws
    # (the turn comes back modulo the seats, so the seats it moved are a multiple of n; the
    # Wilds the drawers held are summed over the empty draws)
    loop = dataclasses.replace(
        Change.of(), turn_moves=Int.var("loop.turn-moves"), drawer_wilds=Int.var("loop.wilds")
    )
    solver.add(loop.turn_moves.mod(n).eq(0))
    solver.add(all_of(accounting(t, loop, deck, weaken)))
    others = t.laid + t.from_pile + t.drawn_phase + t.challenge_phase + t.stack_phase
    others = others + t.name_phase + t.catches_and_calls
    # a loop of nothing but empty draws goes round the table (each moves the turn one seat on,
    # the direction unchanged): every seat draws, holding no Wild (each step's accounting); a
    # Wild held or on top: the four of the pack (UNO-DECK-108)
    four = sum(1 for c in deck_for(UnoOptions(deck=deck)) if c.value is UnoValue.WILD)
    solver.add(top_wild.between(0, 1))
    solver.add(all_of(w.between(0, four) for w in wilds))
    solver.add((sum(wilds, Int.const(0)) + top_wild).eq(four))  # the pack's Wilds
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


def check_repeat(weaken: frozenset[str]) -> Finding:
    return every_table(
        _repeat_case,
        weaken,
        "no loop of any length comes back to the position it started from, for 2 to 10 "
        "players and both packs, under must-play and card-stays; this does not show that every "
        "game ends",
    )
