"""The Vändåtta state card by card, and the card movements of the engine, in Z3.

Every physical card of the pack (52 cards, or 104 when two decks are used: copies of a face are
told apart by their index) is in one of the places a :class:`~regelverk.vandatta.state.State`
has: each seat's hand, each seat's face-down penalty cards (every ``PenaltySet`` of the seat
together), the stock (talon), the pile, the early zone (förhand's cards laid on a start eight
before the dealer's choice) and the turned zone (piles turned away by vandatta's eights).
"Card ``c`` lies in place ``z``" is a Boolean of its own, so that *exactly one place per card*
is a property a transition may keep or break, not a fact of the encoding.

A :class:`Step` is one card movement of the engine, written as the engine performs it: the cards
that move are taken off their source (``pop``, ``remove``, a slice) and added to their
destination (``append``, ``extend``); a step that rebuilds a zone from scratch (a new pack, the
start card) overwrites the zone as the engine does. :data:`STEPS` lists them with the engine
function each one mirrors; an action of the engine is a sequence of steps (a play with an ace is
a ``lay`` followed by ``ace-draw`` steps, each possibly preceded by a ``rebuild``), which is how
the bindings (:mod:`regelverk_proofs.vandatta.binding.cards`) check the engine's resulting states.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from regelverk.cards import Card, french_deck, parse_cards
from regelverk.vandatta.state import State
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    all_of,
    any_of,
    exactly_one,
    false,
    implies,
    sum_of,
)

__all__ = [
    "NO_MOVE",
    "STEP",
    "STEPS",
    "Layout",
    "Move",
    "Places",
    "Step",
    "StepArgs",
    "concrete",
    "follows",
    "fresh",
    "known_places",
    "layout_of",
    "render_card",
    "seat_in",
    "tops",
    "well_placed",
]

ZONES = ("stock", "pile", "early", "turned")
"""The shared places, after the seats' hands and penalty zones."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The places of a table of ``seats`` players using ``decks`` decks."""

    seats: int
    decks: int
    sample: int = 0
    """0: every physical card of the decks; otherwise only that many of them (the theorems,
    whose steps treat every card alike, see :mod:`regelverk_proofs.vandatta.theorems.cards`)."""
    faces: tuple[Card, ...] = ()
    """When not empty: only these physical cards (every copy of a face the decks hold twice
    listed twice), the projection a binding compares an engine step on."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The physical cards; two copies of a face (two decks) are told apart by index."""
        return self.faces or _pack(self.decks, self.sample)

    @property
    def places(self) -> int:
        """How many places: a hand and a penalty zone per seat, then the shared zones."""
        return 2 * self.seats + len(ZONES)

    def hand(self, seat: int) -> int:
        """The index of a seat's hand."""
        return seat

    def penalty(self, seat: int) -> int:
        """The index of a seat's face-down penalty cards."""
        return self.seats + seat

    def zone(self, name: str) -> int:
        """The index of a shared zone (``stock``, ``pile``, ``early``, ``turned``)."""
        return 2 * self.seats + ZONES.index(name)

    def name(self, place: int) -> str:
        """A place in words."""
        if place < self.seats:
            return f"hand {place}"
        if place < 2 * self.seats:
            return f"penalty cards {place - self.seats}"
        return ZONES[place - 2 * self.seats]


SAMPLE_FACES = parse_cards("10H 7C KS 3D 9H AS")
"""The faces of a sampled pack, in order."""


@cache
def _pack(decks: int, sample: int) -> tuple[Card, ...]:
    if sample:
        return SAMPLE_FACES[:sample]
    return french_deck(decks)


@dataclass(frozen=True, slots=True)
class Places:
    """One card-level state: ``at[c][z]`` (card ``c`` lies in place ``z``), and which card is
    the top of the pile and the top of the stock."""

    at: tuple[tuple[Bool, ...], ...]
    pile_top: tuple[Bool, ...]
    stock_top: tuple[Bool, ...]


def fresh(layout: Layout, prefix: str) -> Places:
    """A state of unknowns; each top marker is "the card numbered so-and-so" (-1: none), so a
    zone has at most one top card by construction."""
    cards = range(len(layout.cards))
    pile, stock = Int.var(f"{prefix}.pile_top"), Int.var(f"{prefix}.stock_top")
    return Places(
        at=tuple(
            tuple(Bool.var(f"{prefix}.at.{c}.{z}") for z in range(layout.places)) for c in cards
        ),
        pile_top=tuple(pile.eq(c) for c in cards),
        stock_top=tuple(stock.eq(c) for c in cards),
    )


def well_placed(layout: Layout, state: Places) -> Bool:
    """The property: every physical card lies in exactly one place."""
    del layout
    return all_of(exactly_one(row) for row in state.at)


def tops(layout: Layout, state: Places) -> Bool:
    """The top markers: each marks a card of its zone, and one card if the zone has any."""
    found = []
    for marks, zone in ((state.pile_top, "pile"), (state.stock_top, "stock")):
        z = layout.zone(zone)
        cards = range(len(layout.cards))
        found.append(all_of(implies(marks[c], state.at[c][z]) for c in cards))
        found.append(implies(any_of(state.at[c][z] for c in cards), any_of(marks)))
    return all_of(found)


def layout_of(state: State) -> Layout:
    """The layout of an engine state. The encoding knows one deck or two: a table of three or
    more (max_players_free_time = add-decks) is refused, never silently taken for two."""
    if state.decks not in (1, 2):
        raise ValueError(
            f"the card encoding covers one or two decks, not {state.decks} "
            "(max_players_free_time = add-decks is outside the card-conservation theorems)"
        )
    return Layout(seats=len(state.players), decks=state.decks)


def _engine_zones(state: State) -> list[tuple[int, tuple[Card, ...]]]:
    layout = layout_of(state)
    zones: list[tuple[int, tuple[Card, ...]]] = []
    for seat, hand in enumerate(state.hands):
        zones.append((layout.hand(seat), hand))
    for seat, sets in enumerate(state.penalties):
        zones.append((layout.penalty(seat), tuple(c for p in sets for c in p.cards)))
    zones += [
        (layout.zone("stock"), state.stock),
        (layout.zone("pile"), state.pile),
        (layout.zone("early"), state.early),
        (layout.zone("turned"), state.turned),
    ]
    return zones


def concrete(layout: Layout, places: Places, state: State) -> Bool:
    """``places`` encodes the engine's ``state``: for every face, the copies in each place
    number as the engine's zone holds (so which copy of a twice-present face lies where is left
    open), and the top markers sit on the faces of the engine's top cards."""
    cards = layout.cards
    copies: dict[Card, list[int]] = {}
    for index, card in enumerate(cards):
        copies.setdefault(card, []).append(index)
    facts = []
    for place, zone in _engine_zones(state):
        counted = Counter(zone)
        for face, indices in copies.items():
            if len(indices) == 1:
                facts.append(places.at[indices[0]][place].eq(counted[face] == 1))
            else:
                facts.append(sum_of(places.at[c][place] for c in indices).eq(counted[face]))
    for marks, zone in ((places.pile_top, state.pile), (places.stock_top, state.stock)):
        for face, indices in copies.items():
            on_top = bool(zone) and zone[-1] == face
            facts.append(any_of(marks[c] for c in indices).eq(on_top))
    return all_of(facts)


def render_card(layout: Layout, index: int) -> str:
    """A physical card in the project's notation (with its deck copy when two decks are used)."""
    card = layout.cards[index]
    if layout.decks == 1 or layout.sample:
        return str(card)
    return f"{card} (copy {1 + sum(1 for c in layout.cards[:index] if c == card)})"


def render_places(layout: Layout, model: Model, state: Places, cards: Sequence[int]) -> str:
    """Where each of ``cards`` lies in a model, in words."""
    parts = []
    for c in cards:
        where = [layout.name(z) for z in range(layout.places) if model.bool(state.at[c][z])]
        marks = [
            name
            for name, marked in (
                ("top of the pile", state.pile_top),
                ("top of the stock", state.stock_top),
            )
            if model.bool(marked[c])
        ]
        shown = " and ".join(where) or "no place"
        parts.append(
            f"{render_card(layout, c)} in {shown}" + (f" ({', '.join(marks)})" if marks else "")
        )
    return "; ".join(parts)


# --- the steps ----------------------------------------------------------------------------


Flag = Bool | bool
"""A truth value that may be known in Python already (a fixed seat selects a fixed place)."""


@cache
def _constants() -> tuple[Bool, Bool]:
    """The constants true and false, made once: a state whose every fact is known is written
    with these very objects, so that the steps fold them in Python (:func:`_known`)."""
    return Bool.const(True), Bool.const(False)


def _known(term: Flag) -> Flag:
    """``term`` as a Python truth value when it is a constant."""
    if isinstance(term, bool):
        return term
    value = term.value
    return term if value is None else value


def _conj(*terms: Flag) -> Flag:
    left = []
    for term in terms:
        t = _known(term)
        if t is False:
            return False
        if t is not True:
            left.append(t)
    if not left:
        return True
    return left[0] if len(left) == 1 else all_of(left)


def _disj(*terms: Flag) -> Flag:
    left = []
    for term in terms:
        t = _known(term)
        if t is True:
            return True
        if t is not False:
            left.append(t)
    if not left:
        return False
    return left[0] if len(left) == 1 else any_of(left)


def _neg(term: Flag) -> Flag:
    term = _known(term)
    return (not term) if isinstance(term, bool) else ~term


def _lit(term: Flag) -> Bool:
    term = _known(term)
    if isinstance(term, bool):
        yes, no = _constants()
        return yes if term else no
    return term


def _eq(left: Bool, right: Flag) -> Flag:
    """``left == right``, folded when both are known."""
    if left is right:
        return True
    a, b = _known(left), _known(right)
    if isinstance(a, bool) and isinstance(b, bool):
        return a == b
    return left.eq(_lit(right))


def _all(terms: Iterable[Flag]) -> Bool:
    return _lit(_conj(*terms))


def _any(terms: Iterable[Flag]) -> Bool:
    return _lit(_disj(*terms))


def known_places(layout: Layout, state: State) -> Places | None:
    """The engine's ``state`` as a card-level state of known facts (the constants of
    :func:`_constants`, which the steps fold in Python); ``None`` when the layout holds a face
    twice (which copy lies where is then left open: :func:`concrete`)."""
    cards = layout.cards
    if len(set(cards)) != len(cards):
        return None
    index = {card: c for c, card in enumerate(cards)}
    yes, no = _constants()
    at = [[no] * layout.places for _ in cards]
    for place, zone in _engine_zones(state):
        for card in zone:
            if card in index:
                at[index[card]][place] = yes
    pile = state.pile[-1] if state.pile else None
    stock = state.stock[-1] if state.stock else None
    return Places(
        at=tuple(tuple(row) for row in at),
        pile_top=tuple(yes if card == pile else no for card in cards),
        stock_top=tuple(yes if card == stock else no for card in cards),
    )


@dataclass(frozen=True, slots=True)
class StepArgs:
    """What a step may be told: the acting seat, another seat (fixed, or unknowns the solver
    chooses), a choice of cards (``chosen``), whether turned piles are set aside (``spare``),
    and whether to weaken the step."""

    seat: Int | int
    other: Int | int
    chosen: tuple[Bool, ...]
    spare: Flag
    weak: bool


Relation = Callable[[Layout, Places, Places, StepArgs], Bool]


@dataclass(frozen=True, slots=True)
class Step:
    """One card movement of the engine: ``name``, the engine functions it mirrors, the clause it
    rests on in each rulebook (``None``: the rulebook has no such rule; the step is reached only
    under the other rulebook's options), how it is weakened, and its relation."""

    name: str
    mirrors: str
    vvv8: str | None
    vandatta: str | None
    weakened: str
    relation: Relation
    touches: Callable[[Layout, int, int], frozenset[int]] | None = None
    """The places the step may change, for fixed seats (``None``: any place)."""


def _seat_place(layout: Layout, seat: Int | int, place: Callable[[int], int]) -> list[Flag]:
    """A per-place selector: true exactly at ``place(seat)``."""
    selector: list[Flag] = [False] * layout.places
    for s in range(layout.seats):
        selector[place(s)] = (seat == s) if isinstance(seat, int) else seat.eq(s)
    return selector


def _only(layout: Layout, *places: int) -> list[Flag]:
    return [z in places for z in range(layout.places)]


def _shift(  # noqa: PLR0917 (the two states, the cards, and where from and to)
    layout: Layout,
    before: Places,
    after: Places,
    moving: Sequence[Flag],
    source: Sequence[Flag],
    target: Sequence[Flag],
    *,
    keep_source: bool = False,
) -> Bool:
    """Cards ``moving`` are taken off the places ``source`` selects and added to ``target``
    (``keep_source``: the weakened step that adds them without taking them off)."""
    facts: list[Flag] = []
    for c, row in enumerate(before.at):
        move = _known(moving[c])
        if move is False:
            facts += [_eq(a, b) for a, b in zip(after.at[c], row, strict=True)]
            continue
        inside = _disj(*(_conj(row[z], source[z]) for z in range(layout.places)))
        facts.append(_disj(_neg(move), inside))
        for z in range(layout.places):
            if source[z] is False and target[z] is False:
                facts.append(_eq(after.at[c][z], row[z]))
                continue
            leaves = _conj(move, source[z])
            stays = row[z] if keep_source else _conj(row[z], _neg(leaves))
            facts.append(_eq(after.at[c][z], _disj(stays, _conj(move, target[z]))))
        if any(f is False for f in facts):
            return _lit(False)
    return _all(facts)


Place = Callable[[Layout, "Int | int"], list[Flag]]


def _same_tops(before: Places, after: Places, *, pile: bool = True, stock: bool = True) -> Bool:
    facts: list[Flag] = []
    if pile:
        facts += [_eq(a, b) for a, b in zip(after.pile_top, before.pile_top, strict=True)]
    if stock:
        facts += [_eq(a, b) for a, b in zip(after.stock_top, before.stock_top, strict=True)]
    return _all(facts)


def _to_hand(layout: Layout, seat: Int | int) -> list[Flag]:
    return _seat_place(layout, seat, layout.hand)


def _to_penalty(layout: Layout, seat: Int | int) -> list[Flag]:
    return _seat_place(layout, seat, layout.penalty)


def _to_pile(layout: Layout, seat: Int | int) -> list[Flag]:
    del seat
    return _only(layout, layout.zone("pile"))


def _take_top(destination: Place) -> Relation:
    """The top card of the stock goes to ``destination`` (``draw_one``: ``stock.pop()``)."""

    def relation(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
        stock = _only(layout, layout.zone("stock"))
        target = destination(layout, args.seat)
        return (
            _any(before.stock_top)
            & _shift(layout, before, after, before.stock_top, stock, target, keep_source=args.weak)
            & _same_tops(before, after, stock=False)
        )

    return relation


def _some_of(layout: Layout, before: Places, chosen: Sequence[Bool], place: list[Flag]) -> Bool:
    """The chosen cards all lie in the selected place, and there is at least one."""
    inside = [
        _lit(_disj(*(_conj(row[z], place[z]) for z in range(layout.places)))) for row in before.at
    ]
    return any_of(chosen) & _all(_disj(_neg(ch), i) for ch, i in zip(chosen, inside, strict=True))


def _choose(source: Place, target: Place, *, tops: str = "both") -> Relation:
    """A chosen non-empty set of cards moves from the seat's ``source`` to ``target`` (of the
    other seat, for a surplus handed to the dealer)."""

    def relation(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
        origin = source(layout, args.seat)
        goal = target(layout, args.other if tops == "dealer" else args.seat)
        facts = _some_of(layout, before, args.chosen, origin) & _shift(
            layout, before, after, args.chosen, origin, goal, keep_source=args.weak
        )
        if tops == "pile":
            laid_top = _all(
                _disj(_neg(t), ch) for t, ch in zip(after.pile_top, args.chosen, strict=True)
            )
            return facts & laid_top & _same_tops(before, after, pile=False)
        if tops == "stock":
            return facts & _same_tops(before, after, stock=False)
        if tops == "dealer":
            return facts & _lit(_differ(args.seat, args.other)) & _same_tops(before, after)
        return facts & _same_tops(before, after)

    return relation


def _differ(seat: Int | int, other: Int | int) -> Flag:
    if isinstance(seat, int) and isinstance(other, int):
        return seat != other
    left = Int.const(seat) if isinstance(seat, int) else seat
    return left.ne(other)


def _held(layout: Layout, seat: Int | int) -> list[Flag]:
    """A seat's hand and face-down cards together (a veto takes the cards from either)."""
    return [
        _disj(a, b) for a, b in zip(_to_hand(layout, seat), _to_penalty(layout, seat), strict=True)
    ]


def _to_stock(layout: Layout, seat: Int | int) -> list[Flag]:
    del seat
    return _only(layout, layout.zone("stock"))


def _to_early(layout: Layout, seat: Int | int) -> list[Flag]:
    del seat
    return _only(layout, layout.zone("early"))


def _early_back(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``resolve_early``: every early card goes back to förhand's hand (``table.early = ()``)."""
    z = layout.zone("early")
    moving = [row[z] for row in before.at]
    early = _only(layout, z)
    hand = _to_hand(layout, args.seat)
    return _shift(layout, before, after, moving, early, hand, keep_source=args.weak) & _same_tops(
        before, after
    )


def _rebuild(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``talon.rebuild``: every pile card but the top one, and the turned piles when they are
    set aside, go into a new stock; the top card stays to play on (weakened: the top card is
    taken into the stock as well, while the pile keeps it)."""
    pile, turned, stock = layout.zone("pile"), layout.zone("turned"), layout.zone("stock")
    facts: list[Flag] = []
    for c, row in enumerate(before.at):
        top = before.pile_top[c]
        from_pile = row[pile] if args.weak else _conj(row[pile], _neg(top))
        from_turned = _conj(args.spare, row[turned])
        for z in range(layout.places):
            if z == pile:
                value: Flag = _conj(row[pile], top)
            elif z == turned:
                value = _conj(row[turned], _neg(args.spare))
            elif z == stock:
                value = _disj(from_pile, from_turned)
            else:
                value = row[z]
            facts.append(_eq(after.at[c][z], value))
    return (
        _lit(_neg(_disj(*(row[stock] for row in before.at))))
        & _all(facts)
        & _same_tops(before, after, stock=False)
    )


def _turn_away(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``talon.turn_pile_away``: the whole pile, the eight on top, goes to the turned zone."""
    pile = layout.zone("pile")
    moving = [row[pile] for row in before.at]
    return (
        _shift(
            layout,
            before,
            after,
            moving,
            _only(layout, pile),
            _only(layout, layout.zone("turned")),
            keep_source=args.weak,
        )
        & _lit(_neg(_disj(*after.pile_top)))
        & _same_tops(before, after, pile=False)
    )


def _turn_under(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``talon.turn_pile_away`` under turned_pile = under-stock: the whole pile, the eight on
    top, goes face down under the stock (``stock[:0] = reversed(pile)``); the stock's top card
    stays where it was, unless the stock was empty (weakened: the pile keeps its cards)."""
    pile, stock = layout.zone("pile"), layout.zone("stock")
    moving = [row[pile] for row in before.at]
    had_stock = _disj(*(row[stock] for row in before.at))
    return (
        _shift(
            layout,
            before,
            after,
            moving,
            _only(layout, pile),
            _only(layout, stock),
            keep_source=args.weak,
        )
        & _lit(_neg(_disj(*after.pile_top)))
        & _lit(_disj(_neg(had_stock), _same_tops(before, after, pile=False)))
    )


def _start_card(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``turn_start_card``: the top of the stock becomes the pile (``pile = [stock.pop()]``);
    the engine's callers have emptied the pile first."""
    pile, stock = layout.zone("pile"), layout.zone("stock")
    return (
        _lit(_neg(_disj(*(row[pile] for row in before.at))))
        & _any(before.stock_top)
        & _shift(
            layout,
            before,
            after,
            before.stock_top,
            _only(layout, stock),
            _only(layout, pile),
            keep_source=args.weak,
        )
        & _all(_eq(t, s) for t, s in zip(after.pile_top, before.stock_top, strict=True))
    )


def _pile_top_back(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``return_start_eight`` and the misdeal's completion: the single start card goes back into
    the stock (``pile.pop()``)."""
    pile, stock = layout.zone("pile"), layout.zone("stock")
    return (
        sum_of(row[pile] for row in before.at).eq(1)
        & _shift(
            layout,
            before,
            after,
            before.pile_top,
            _only(layout, pile),
            _only(layout, stock),
            keep_source=args.weak,
        )
        & _lit(_neg(_disj(*after.pile_top)))
    )


def _gather(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``misdeal._redeal``: hands, penalty cards, stock, pile, turned piles and förhand's early
    cards are gathered and shuffled into the stock."""
    stock = layout.zone("stock")
    gathered: list[Flag] = [True for _ in range(layout.places)]
    moving = [_disj(*row) for row in before.at]
    return _shift(
        layout, before, after, moving, gathered, _only(layout, stock), keep_source=args.weak
    ) & _lit(_neg(_disj(*after.pile_top)))


def _new_pack(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``play_deal`` (second and later deals): a whole new pack, shuffled, is the stock; hands,
    penalty cards, pile, turned piles and the early zone are emptied (weakened: the turned
    piles are not emptied)."""
    stock, turned = layout.zone("stock"), layout.zone("turned")
    kept = (turned,) if args.weak else ()
    facts: list[Flag] = []
    for c, row in enumerate(before.at):
        for z in range(layout.places):
            value: Flag = True if z == stock else row[z] if z in kept else False
            facts.append(_eq(after.at[c][z], value))
    return _all(facts) & _lit(_neg(_disj(*after.pile_top)))


def _cut(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """``setup.cut``: the stock is cut (``stock[at:] + stock[:at]``); its cards stay in it."""
    same = [
        _eq(a, b)
        for ra, rb in zip(after.at, before.at, strict=True)
        for a, b in zip(ra, rb, strict=True)
    ]
    if args.weak:
        return _all(same)
    return _all(same) & _same_tops(before, after, stock=False)


def _no_move(layout: Layout, before: Places, after: Places, args: StepArgs) -> Bool:
    """Actions that move no card (absences, returns, naming a suit, remarks, calls, passes)."""
    del layout, args
    same = [
        _eq(a, b)
        for ra, rb in zip(after.at, before.at, strict=True)
        for a, b in zip(ra, rb, strict=True)
    ]
    return _all(same) & _same_tops(before, after)


def _touch(*names: str) -> Callable[[Layout, int, int], frozenset[int]]:
    """The places a step changes: ``hand``, ``penalty`` (the seat's), ``dealer`` (the other
    seat's hand) and the shared zones."""

    def places(layout: Layout, seat: int, other: int) -> frozenset[int]:
        found = set()
        for name in names:
            if name == "hand":
                found.add(layout.hand(seat))
            elif name == "penalty":
                found.add(layout.penalty(seat))
            elif name == "dealer":
                found.add(layout.hand(other))
            else:
                found.add(layout.zone(name))
        return frozenset(found)

    return places


STEPS: tuple[Step, ...] = (
    Step(
        "deal-card",
        "setup.deal_hands (stock.pop() into each hand, round by round)",
        "V8-DEAL-SEVEN-ROUNDS",
        "VA-DEAL-SEVEN-CARDS",
        "the dealt card is put in the hand but not taken off the stock",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "start-card",
        "setup.turn_start_card (pile = [stock.pop()])",
        "V8-START-CARD-FACE-UP",
        "VA-START-CARD-TURN",
        "the start card is turned up but stays in the stock as well",
        _start_card,
        _touch("stock", "pile"),
    ),
    Step(
        "start-eight-back",
        "setup.return_start_eight (a start eight goes back into the stock)",
        None,
        "VA-START-EIGHT-RETURNED",
        "the start eight is put back into the stock but stays on the pile as well",
        _pile_top_back,
        _touch("stock", "pile"),
    ),
    Step(
        "start-ace-draw",
        "setup.start_ace (every player draws one card for a start ace)",
        "V8-START-ACE-ALL-DRAW",
        "VA-START-ACE-ALL-DRAW",
        "the card drawn for the start ace is not taken off the stock",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "lay",
        "playing._play (take_from_hand, pile.extend); early.resolve_early's lay",
        "V8-PLAY-MATCH-SUIT",
        "VA-PLAY-MATCH-RANK-OR-SUIT",
        "the cards laid go on the pile but stay in the hand",
        _choose(_to_hand, _to_pile, tops="pile"),
        _touch("hand", "pile"),
    ),
    Step(
        "draw",
        "drawing._draw -> talon.draw_one (stock.pop() into the hand)",
        "V8-DRAW-WHEN-NOT-PLAYING",
        "VA-DRAW-WHEN-STUCK",
        "the drawn card is put in the hand but not taken off the talon",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "ace-draw",
        "talon.ace_draws -> talon.draw_one for each other seat, absent seats included",
        "V8-ACE-OTHERS-DRAW-ONE",
        "VA-ACE-OTHERS-DRAW",
        "the card drawn for an ace is not taken off the talon",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "rebuild",
        "talon.rebuild (new stock from pile[:-1], and the turned piles when set aside)",
        "V8-TALON-REBUILD-TOP-ASIDE",
        "VA-DRAW-STOCK-REBUILD",
        "the rebuild takes the top card into the new stock too, but the pile keeps it",
        _rebuild,
        _touch("stock", "pile", "turned"),
    ),
    Step(
        "turn-away",
        "talon.turn_pile_away (vandatta's eight: turned.extend(pile); pile = [])",
        None,
        "VA-EIGHT-TURNS-PILE",
        "the turned pile is set aside but the pile keeps its cards",
        _turn_away,
        _touch("pile", "turned"),
    ),
    Step(
        "turn-under",
        "talon.turn_pile_away under turned_pile = under-stock (stock[:0] = reversed(pile))",
        None,
        "VA-EIGHT-TURNS-PILE",
        "the pile is put under the stock but the pile keeps its cards",
        _turn_under,
        _touch("pile", "stock"),
    ),
    Step(
        "lappen-draw",
        "calling._lappen_penalty -> talon.draw_one",
        None,
        "VA-PENALTY-LAPPEN-FAILED",
        "the LAPPEN penalty card is not taken off the stock",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "penalty-draw",
        "penalty.penalise (draw_one, then the drawn cards leave the hand face down)",
        "V8-PEN-CARDS-FACE-DOWN-IN-FRONT",
        None,
        "the penalty card is laid face down but not taken off the talon",
        _take_top(_to_penalty),
        _touch("stock", "penalty"),
    ),
    Step(
        "penalty-usable",
        "penalty.penalise under penalty_cards_usable = at-next-turn-start for the spelförare",
        "V8-PEN-STANDARD-THREE-CARDS",
        None,
        "the penalty card joins the hand but is not taken off the talon",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "overdraw",
        "attempts._overdraw and attempts._extra_card (the card too many, face down)",
        "V8-PEN-OVERDRAW-KEEP-LOCKED",
        None,
        "the card drawn too many is locked away but not taken off the talon",
        _take_top(_to_penalty),
        _touch("stock", "penalty"),
    ),
    Step(
        "release",
        "turns._release_penalties and _release_at_turn_start",
        "V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE",
        None,
        "released penalty cards join the hand but stay face down as well",
        _choose(_to_penalty, _to_hand),
        _touch("penalty", "hand"),
    ),
    Step(
        "veto",
        "conduct._veto (vetoed penalty cards back on the talon)",
        "V8-PEN-VETO-RIGHT",
        None,
        "the vetoed cards go back on the talon but the offender keeps them",
        _choose(_held, _to_stock, tops="stock"),
        _touch("hand", "penalty", "stock"),
    ),
    Step(
        "lay-early",
        "early.early_play (förhand's cards wait on the start eight)",
        "V8-START-EIGHT-FORHAND-EARLY-PENALTY",
        None,
        "the early cards wait on the start eight but stay in the hand",
        _choose(_to_hand, _to_early),
        _touch("hand", "early"),
    ),
    Step(
        "early-back",
        "early.resolve_early (the early cards go back to förhand's hand)",
        "V8-START-EIGHT-EARLY-CARD-RETURNED",
        None,
        "the early cards go back to the hand but stay in the early zone",
        _early_back,
        _touch("early", "hand"),
    ),
    Step(
        "join-deal",
        "join._step_in -> talon.draw_one (the late joiner's cards from the talon)",
        "V8-JOIN-LATE-CARDS-FROM-TALON",
        None,
        "the late joiner's card is not taken off the talon",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "surplus",
        "misdeal._return_surplus (surplus cards to the dealer)",
        "V8-MISDEAL-TOO-MANY-RETURN",
        None,
        "the surplus goes to the dealer but stays with the player too",
        _choose(_to_hand, _to_hand, tops="dealer"),
        _touch("hand", "dealer"),
    ),
    Step(
        "top-up",
        "misdeal._top_up and misdeal._extra_rounds (stock.pop() into short hands)",
        "V8-MISDEAL-TOO-FEW-COMPLETE",
        None,
        "the card that completes a short hand is not taken off the talon",
        _take_top(_to_hand),
        _touch("stock", "hand"),
    ),
    Step(
        "unturn-start",
        "misdeal._complete (the start card goes back on the stock before play starts)",
        "V8-MISDEAL-TOO-FEW-COMPLETE",
        None,
        "the start card goes back on the stock but stays on the pile",
        _pile_top_back,
        _touch("stock", "pile"),
    ),
    Step(
        "redeal",
        "misdeal._redeal (every card gathered into the stock, the early cards too)",
        "V8-MISDEAL-TOO-FEW-REDEAL-RIGHT",
        None,
        "the cards are gathered into the stock but stay where they were",
        _gather,
        None,
    ),
    Step(
        "new-pack",
        "setup.play_deal for the second and later deals (a whole new pack as the stock)",
        "V8-DEAL-SEVEN-ROUNDS",
        "VA-DEAL-SHUFFLE",
        "the new pack is made but the turned piles are not emptied",
        _new_pack,
        None,
    ),
    Step(
        "cut",
        "setup.cut (the stock is cut: no card changes place, the top card changes)",
        "V8-DEALER-DRAW-RIGHT-CUTS",
        None,
        "the cut may change which card lies on top of the pile as well",
        _cut,
        _touch(),
    ),
    Step(
        "no-move",
        "StepAway, Back, NameSuit (no early cards), Remark, LookBack, Pass, StayOut, LeapDay",
        None,
        None,
        "",
        _no_move,
        _touch(),
    ),
)
"""Every card movement of the engine."""


def seat_in(small: Layout, large: Layout, before: Places, after: Places, at: int) -> Bool:
    """``join.seat_in``: a newcomer sits down at seat ``at``; the seats from there on move one
    up (their hands and penalty cards with them), and his own hand and penalty zone are
    empty."""
    facts = []
    for c, row in enumerate(before.at):
        for s in range(large.seats):
            was = s if s < at else s - 1 if s > at else None
            for place, old in ((large.hand(s), small.hand), (large.penalty(s), small.penalty)):
                value = false() if was is None else row[old(was)]
                facts.append(after.at[c][place].eq(value))
        for zone in ZONES:
            facts.append(after.at[c][large.zone(zone)].eq(row[small.zone(zone)]))
    return all_of(facts) & _same_tops(before, after)


STEP = {step.name: step for step in STEPS}
"""The steps by name."""


@dataclass(frozen=True, slots=True)
class Move:
    """A step by name, with its seat and other seat, and (for a step that moves chosen cards:
    a lay, a release, a veto, an early card, a surplus) the faces it moves, as a multiset;
    ``None`` leaves the choice open."""

    name: str
    seat: int = 0
    other: int = 0
    cards: tuple[Card, ...] | None = None


NO_MOVE = Move("no-move")
"""The step that moves nothing: a slot that lists it is optional."""


def _fixed(layout: Layout, chosen: Sequence[Bool], cards: Sequence[Card]) -> Bool:
    """The chosen physical cards are the faces ``cards`` (as a multiset; which copy of a face
    that two decks hold twice is left open)."""
    wanted = Counter(cards)
    copies: dict[Card, list[int]] = {}
    for index, card in enumerate(layout.cards):
        copies.setdefault(card, []).append(index)
    facts = []
    for face, indices in copies.items():
        if len(indices) == 1:
            facts.append(chosen[indices[0]].eq(wanted[face] == 1))
        else:
            facts.append(sum_of(chosen[c] for c in indices).eq(wanted[face]))
    if any(face not in copies for face in wanted):
        return false()
    return all_of(facts)


def follows(
    layout: Layout,
    before: Places,
    after: Places,
    slots: Sequence[Sequence[Move]],
    *,
    spare: bool,
    stock_order: Sequence[Card] | None = None,
    tag: str = "via",
) -> Bool:
    """``after`` is reached from ``before`` by one move of each slot in turn (a slot lists the
    moves that may happen there; ``no-move`` makes it optional). Between two slots lies a state
    of unknowns whose top markers mark cards of their zones.

    ``stock_order`` (one deck only): the stock before, bottom first. Taking cards off the top
    keeps the order of the rest, and cards put back are laid on top (a veto) or come from
    elsewhere (a rebuild), so in every state between, the top of the stock is the card of the
    stock that lay highest in it."""
    if not slots:
        return STEP["no-move"].relation(
            layout, before, after, StepArgs(0, 0, (), spare, weak=False)
        )
    states = [before]
    for i, slot in enumerate(slots[:-1]):
        states.append(_next(layout, states[-1], slot, f"{tag}.{i}"))
    states.append(after)
    middle = states[1:-1]
    facts = [tops(layout, state) for state in middle]
    if stock_order is not None:
        facts += [
            _highest_on_top(layout, state, stock_order, f"{tag}.{i}")
            for i, state in enumerate(middle)
        ]
    for i, slot in enumerate(slots):
        chosen = tuple(Bool.var(f"{tag}.{i}.chosen.{c}") for c in range(len(layout.cards)))
        choices = []
        for move in slot:
            args = StepArgs(move.seat, move.other, chosen, spare, weak=False)
            term = STEP[move.name].relation(layout, states[i], states[i + 1], args)
            if move.cards is not None:
                term = term & _fixed(layout, chosen, move.cards)
            choices.append(term)
        facts.append(any_of(choices))
    return all_of(facts)


def _next(layout: Layout, state: Places, slot: Sequence[Move], tag: str) -> Places:
    """The state after a slot: unknowns where a move of the slot may change a place, the very
    terms of ``state`` elsewhere (so the frame costs nothing)."""
    touched: set[int] = set()
    for move in slot:
        touches = STEP[move.name].touches
        if touches is None:
            return fresh(layout, tag)
        touched |= touches(layout, move.seat, move.other)
    cards = range(len(layout.cards))
    at = tuple(
        tuple(
            Bool.var(f"{tag}.at.{c}.{z}") if z in touched else row[z] for z in range(layout.places)
        )
        for c, row in enumerate(state.at)
    )
    pile, stock = Int.var(f"{tag}.pile_top"), Int.var(f"{tag}.stock_top")
    return Places(
        at=at,
        pile_top=tuple(pile.eq(c) for c in cards),
        stock_top=tuple(stock.eq(c) for c in cards),
    )


def _highest_on_top(layout: Layout, state: Places, order: Sequence[Card], tag: str) -> Bool:
    """The top of the stock is no lower in ``order`` than any other card of the stock."""
    assert layout.decks == 1
    stock = layout.zone("stock")
    index = {card: c for c, card in enumerate(layout.cards)}
    order = [card for card in order if card in index]
    height = {index[card]: h for h, card in enumerate(order)}
    ranked = [index[card] for card in order]
    above = [Bool.var(f"{tag}.above.{h}") for h in range(len(ranked) + 1)]
    facts = [~above[len(ranked)]]
    for h, c in enumerate(ranked):
        facts.append(above[h].eq(state.at[c][stock] | above[h + 1]))
    for c in range(len(layout.cards)):
        level = height.get(c, -1) + 1
        facts.append(implies(state.stock_top[c], ~above[level]))
    return all_of(facts)
