"""Setting up: decks and players, the draw for the deal, the deal itself and the start card."""

from __future__ import annotations

import random
from collections.abc import Sequence

from regelverk.cards import Card, Suit, french_deck
from regelverk.engine import IllegalActionError
from regelverk.marks import implements
from regelverk.vandatta import talon
from regelverk.vandatta.options import (
    MOST_PLAYERS_ADDING_DECKS,
    DeckSetup,
    DrawTieScope,
    FirstPlayer,
    GoOutCall,
    MaxPlayersFreeTime,
    Session,
    StartAce,
    StartAceDraw,
    StartAceTake,
    StartEight,
    StartEightNoChoice,
    VandattaOptions,
)
from regelverk.vandatta.rules import (
    is_ace,
    is_eight,
    seats_after,
)
from regelverk.vandatta.state import Phase, Record, Restart, State
from regelverk.vandatta.table import Table

__all__ = [
    "added_decks",
    "deck_count",
    "full_pack",
    "most_decks",
    "new_match",
    "play_deal",
    "player_limit",
    "start_suit",
]

_SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


def suit_name(suit: Suit) -> str:
    """The suit in words."""
    return _SUIT_NAMES[suit]


@implements(
    "V8-SETUP-NO-JOKERS",
    "V8-SETUP-TWO-DECKS-FOUR-PLUS",
    "V8-SETUP-ONE-DECK-TWO-OR-THREE",
    "VA-SETUP-DECK-AND-PLAYERS",
)
def deck_count(options: VandattaOptions, players: int) -> int:
    """How many 52-card decks (no jokers) the players use.

    >>> from regelverk.vandatta.options import VVV8, VANDATTA
    >>> deck_count(VVV8, 3), deck_count(VVV8, 4), deck_count(VANDATTA, 6)
    (1, 2, 1)
    """
    decks = 1
    if options.deck_setup is DeckSetup.TWO_FROM_FOUR:
        decks = 2 if players >= 4 else 1
    elif options.deck_setup is DeckSetup.TWO_DECKS_FOR_MANY:
        decks = 2 if players >= 5 else 1
    if options.max_players_free_time is MaxPlayersFreeTime.ADD_DECKS:
        decks = max(decks, added_decks(options, players))
    return decks


def added_decks(options: VandattaOptions, players: int) -> int:
    """max_players_free_time = add-decks (V8-AMB-MANY-PLAYERS): the decks needed to deal every
    player his hand and turn a start card (a third deck from fifteen players of seven cards, a
    fourth from twenty-three, ...); the rules' own count applies where it is more.

    >>> from regelverk.engine import with_options
    >>> from regelverk.vandatta.options import VVV8
    >>> many = with_options(VVV8, {"max_players_free_time": "add-decks", "session": "free-time"})
    >>> deck_count(many, 14), deck_count(many, 15), deck_count(many, 23)
    (2, 3, 4)
    """
    return -(-(options.hand_size * players + 1) // len(_DECKS[1]))


def most_decks(options: VandattaOptions) -> int:
    """The most decks a table under these options can use: two, or under add-decks as many as
    the largest table allowed needs (:func:`player_limit`)."""
    return max(2, deck_count(options, player_limit(options)[0]))


@implements(
    "V8-SETUP-COFFEE-BREAK-MAX-FIVE",
    "V8-SETUP-FREE-TIME-NO-CAP",
    "V8-SETUP-FREE-TIME-PLAYER-LIMIT",
    "VA-SETUP-DECK-AND-PLAYERS",
)
def player_limit(options: VandattaOptions) -> tuple[int, tuple[str, ...]]:
    """The most players allowed, and the clauses that set the limit (under
    max_players_free_time = add-decks, outside a coffee break, the model's bound
    :data:`~regelverk.vandatta.options.MOST_PLAYERS_ADDING_DECKS`)."""
    if options.session is Session.COFFEE_BREAK and options.coffee_break_max_players is not None:
        return options.coffee_break_max_players, ("V8-SETUP-COFFEE-BREAK-MAX-FIVE",)
    if options.max_players_free_time is MaxPlayersFreeTime.ADD_DECKS:
        return MOST_PLAYERS_ADDING_DECKS, ("V8-SETUP-FREE-TIME-NO-CAP",)
    if options.go_out_call is GoOutCall.UTGANG:
        return options.max_players, ("V8-SETUP-FREE-TIME-NO-CAP", "V8-SETUP-FREE-TIME-PLAYER-LIMIT")
    return options.max_players, ("VA-SETUP-DECK-AND-PLAYERS",)


def _check_players(options: VandattaOptions, players: Sequence[str]) -> None:
    most, clauses = player_limit(options)
    if len(players) < 2:
        raise IllegalActionError(
            f"Vändåtta needs at least two players, not {len(players)}", clauses
        )
    if len(players) > most:
        where = " in a coffee break" if options.session is Session.COFFEE_BREAK else ""
        raise IllegalActionError(
            f"at most {most} players may take part{where}, not {len(players)}", clauses
        )
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise IllegalActionError("every player needs a name of his own", ())
    short = too_few_cards(options, len(players), deck_count(options, len(players)))
    if short is not None:
        raise IllegalActionError(short, (deal_clause(options),))


def deal_clause(options: VandattaOptions) -> str:
    """The clause that sets the size of a hand: vvv8's seven rounds, or vandatta's seven cards."""
    return (
        "V8-DEAL-SEVEN-ROUNDS" if options.go_out_call is GoOutCall.UTGANG else "VA-DEAL-SEVEN-CARDS"
    )


def too_few_cards(options: VandattaOptions, players: int, decks: int) -> str | None:
    """Why a pack of ``decks`` decks cannot deal ``players`` players a hand each (hand_size)
    and turn a start card, or ``None`` where it can."""
    pack = 52 * decks
    needed = options.hand_size * players + 1
    if needed <= pack:
        return None
    return (
        f"dealing {options.hand_size} cards to each of {players} players and turning a start "
        f"card needs {needed} cards, but the pack has {pack}"
    )


_DECKS = {1: french_deck(1), 2: french_deck(2)}
"""The unshuffled packs, built once: tuples of frozen cards, shared safely."""


def full_pack(decks: int) -> tuple[Card, ...]:
    """The unshuffled pack of ``decks`` 52-card decks: one or two
    (:func:`~regelverk.cards.french_deck`), or more under max_players_free_time = add-decks,
    every face then once per deck."""
    found = _DECKS.get(decks)
    return found if found is not None else _DECKS[1] * decks


def new_match(options: VandattaOptions, players: Sequence[str], seed: int) -> State:
    """A match ready for its first deal: the pack shuffled from ``seed`` lies face down."""
    _check_players(options, players)
    count = len(players)
    decks = deck_count(options, count)
    stock = list(full_pack(decks))
    random.Random(f"{seed}:shuffle:1").shuffle(stock)
    empty: tuple[tuple[Card, ...], ...] = ((),) * count
    dealer = None if options.dealer_draw else count - 1
    zeros = (0,) * count
    return State(
        options=options,
        players=tuple(players),
        seed=seed,
        decks=decks,
        phase=Phase.READY,
        deal_number=0,
        dealer=dealer,
        hands=empty,
        penalties=((),) * count,
        stock=tuple(stock),
        pile=(),
        record=Record(wins=zeros, losses=zeros, points=zeros),
    )


def _draw_key(card: Card) -> tuple[int, int]:
    """Ace high (14), then bridge suit order (V8-DEALER-DRAW-ACE-HIGH, -SUIT-ORDER)."""
    return int(card.rank), card.suit.bridge_order


@implements(
    "V8-DEALER-DRAW-HELD",
    "V8-DEALER-DRAW-SHUFFLE-CUT",
    "V8-DEALER-DRAW-ONE-CARD-EACH",
    "V8-DEALER-DRAW-ACE-HIGH",
    "V8-DEALER-DRAW-SUIT-ORDER",
    "V8-DEALER-DRAW-REDRAW-IDENTICAL",
    "V8-DEALER-DRAW-LOWEST-SHUFFLES",
    "V8-SESSION-DRAW-FIRST-DEAL-ONLY",
)
def draw_for_deal(table: Table) -> int:
    """Everyone draws a card from a shuffled, cut pack; the lowest deals. Identical cards (two
    decks or more) are drawn again, the lowest only or every pair (draw_tie_scope). Held for the
    first deal of a session, and after a deal without an official loser under
    dealer_without_loser = new-draw (V8-AMB-DEALER-AFTER-NO-LOSER)."""
    pack = list(full_pack(table.base.decks))
    table.rng("draw-for-deal").shuffle(pack)
    contenders = list(table.base.in_deal)
    drawn = {seat: pack.pop() for seat in contenders}
    shown = ", ".join(f"{table.name(s)} {drawn[s]}" for s in contenders)
    clauses: tuple[str, ...] = (
        "V8-DEALER-DRAW-HELD",
        "V8-DEALER-DRAW-SHUFFLE-CUT",
        "V8-DEALER-DRAW-ONE-CARD-EACH",
    )
    if table.deal_number <= 1:
        clauses += ("V8-SESSION-DRAW-FIRST-DEAL-ONLY",)
    else:
        clauses += ("V8-SESSION-LOSER-DEALS-NEXT", "V8-LOSS-OFFICIAL-NEEDS-THREE")
    table.say("draw-for-deal", f"Draw for the deal: {shown}", clauses)
    if table.options.draw_tie_scope is DrawTieScope.ANY_IDENTICAL:
        dealer, low = _redraw_every_pair(table, pack, drawn)
    else:
        dealer, low = _redraw_lowest(table, pack, drawn, contenders)
    table.say(
        "dealer",
        f"{table.name(dealer)} has the lowest card ({low}; ace high, clubs lowest) and shuffles",
        ("V8-DEALER-DRAW-LOWEST-SHUFFLES", "V8-DEALER-DRAW-ACE-HIGH", "V8-DEALER-DRAW-SUIT-ORDER"),
        dealer,
    )
    return dealer


def _redraw_lowest(
    table: Table, pack: list[Card], drawn: dict[int, Card], contenders: list[int]
) -> tuple[int, Card]:
    """draw_tie_scope = lowest-only: only players tied for the lowest card draw again, until
    one of them is lower (V8-DEALER-DRAW-REDRAW-IDENTICAL); returns the dealer and his card."""
    while True:
        low = min(_draw_key(drawn[s]) for s in contenders)
        lowest = [s for s in contenders if _draw_key(drawn[s]) == low]
        if len(lowest) == 1:
            break
        contenders = lowest
        drawn = {seat: pack.pop() for seat in contenders}
        shown = ", ".join(f"{table.name(s)} {drawn[s]}" for s in contenders)
        table.say(
            "redraw",
            f"Identical lowest cards: drawn again: {shown}",
            ("V8-DEALER-DRAW-REDRAW-IDENTICAL",),
        )
    return lowest[0], drawn[lowest[0]]


@implements("V8-DEALER-DRAW-REDRAW-IDENTICAL", "V8-DEALER-DRAW-LOWEST-SHUFFLES")
def _redraw_every_pair(table: Table, pack: list[Card], drawn: dict[int, Card]) -> tuple[int, Card]:
    """draw_tie_scope = any-identical: every player whose card another player also drew draws
    again, lowest or not, and the new cards take part in the comparison; this goes on until no
    two players hold the same card, and then the lowest card deals. Should the draw pack run
    out, the cards drawn before are shuffled into a new one (a model decision: the text never
    reaches that point). Returns the dealer and his card."""
    spent: list[Card] = []
    while True:
        seen: dict[Card, list[int]] = {}
        for seat, card in drawn.items():
            seen.setdefault(card, []).append(seat)
        again = sorted(s for seats in seen.values() if len(seats) > 1 for s in seats)
        if not again:
            break
        if len(pack) < len(again):
            pack.extend(spent)
            spent.clear()
            table.rng("draw-for-deal").shuffle(pack)
        for seat in again:
            spent.append(drawn[seat])
            drawn[seat] = pack.pop()
        shown = ", ".join(f"{table.name(s)} {drawn[s]}" for s in again)
        table.say(
            "redraw",
            f"Identical cards: drawn again: {shown}",
            ("V8-DEALER-DRAW-REDRAW-IDENTICAL",),
        )
    dealer = min(drawn, key=lambda s: _draw_key(drawn[s]))
    return dealer, drawn[dealer]


@implements("V8-DEALER-DRAW-RIGHT-CUTS", "V8-DEALER-DRAW-CUT-FOUR", "V8-DEALER-DRAW-SHUFFLER-DEALS")
def cut(table: Table, dealer: int) -> None:
    """The player on the dealer's right cuts, leaving at least four cards in each part."""
    count = len(table.players)
    cutter = next(
        (dealer - k) % count
        for k in range(1, count + 1)
        if (dealer - k) % count not in table.record.out
    )
    at = table.rng("cut").randint(4, len(table.stock) - 4)
    table.stock = table.stock[at:] + table.stock[:at]
    table.say(
        "cut",
        f"{table.name(cutter)}, on the dealer's right, cuts ({at} cards and "
        f"{len(table.stock) - at}); {table.name(dealer)}, who shuffled, deals",
        ("V8-DEALER-DRAW-RIGHT-CUTS", "V8-DEALER-DRAW-CUT-FOUR", "V8-DEALER-DRAW-SHUFFLER-DEALS"),
        cutter,
    )


@implements(
    "V8-DEAL-FORHAND",
    "V8-DEAL-ONE-AT-A-TIME-CLOCKWISE",
    "V8-DEAL-FACE-DOWN",
    "V8-DEAL-SEVEN-ROUNDS",
    "VA-DEAL-SHUFFLE",
    "VA-DEAL-CLOCKWISE",
    "VA-DEAL-SEVEN-CARDS",
    "VA-SETUP-STOCK",
    "V8-START-REST-IS-TALON",
)
def deal_hands(table: Table, dealer: int) -> None:
    """Seven cards each, one at a time, clockwise from förhand; the rest is the stock."""
    order = [*seats_after(len(table.players), dealer, table.record.out), dealer]
    stock = table.stock
    hands: list[list[Card]] = [[] for _ in table.players]
    for _ in range(table.options.hand_size):
        for seat in order:
            hands[seat].append(stock.pop())
    table.hands = [tuple(h) for h in hands]
    utgang = table.options.go_out_call is GoOutCall.UTGANG
    clauses = (
        (
            "V8-DEAL-FORHAND",
            "V8-DEAL-ONE-AT-A-TIME-CLOCKWISE",
            "V8-DEAL-FACE-DOWN",
            "V8-DEAL-SEVEN-ROUNDS",
            "V8-START-REST-IS-TALON",
        )
        if utgang
        else ("VA-DEAL-SHUFFLE", "VA-DEAL-CLOCKWISE", "VA-DEAL-SEVEN-CARDS", "VA-SETUP-STOCK")
    )
    table.say(
        "deal",
        f"{table.name(dealer)} deals {table.options.hand_size} cards to each player, "
        f"one at a time, clockwise from {table.name(order[0])}; {len(stock)} remain",
        clauses,
        dealer,
    )


@implements(
    "V8-START-ACE-ALL-DRAW",
    "V8-START-ACE-ONLY-WITH-VIGGO",
    "VA-START-ACE-ALL-DRAW",
    "VA-START-ACE-PLAY-ON",
)
def start_ace(table: Table, first: int, dealer: int) -> None:
    """A start ace: every player, dealer included, draws one card in turn from the first player
    (vvv8: only when Viggo plays, under start_ace_draw); under start_ace = as-dealers-ace the
    ace counts as the dealer's (:func:`start_ace_as_dealers`)."""
    rule = table.options.start_ace_draw
    utgang = table.options.go_out_call is GoOutCall.UTGANG
    if rule is StartAceDraw.NEVER or (
        rule is StartAceDraw.ONLY_WITH_VIGGO and not talon.viggo_plays(table)
    ):
        table.say(
            "start-ace",
            "The start card is an ace, but Viggo is not playing: nobody draws",
            ("V8-START-ACE-ONLY-WITH-VIGGO",),
        )
        return
    if table.options.start_ace is StartAce.AS_DEALERS_ACE:
        start_ace_as_dealers(table, dealer)
        return
    if table.options.start_ace_take is StartAceTake.MAY_DECLINE:
        table.phase = Phase.START_ACE
        table.turn = first
        table.say(
            "start-ace",
            "The start card is an ace: each player in turn, from "
            f"{table.name(first)}, takes his extra card or declines it",
            ("VA-START-ACE-ALL-DRAW",),
            first,
        )
        return
    order = [first, *seats_after(len(table.players), first, table.record.out)]
    for seat in order:
        talon.draw_one(table, seat)
    clauses = (
        ("V8-START-ACE-ALL-DRAW", "V8-START-ACE-ONLY-WITH-VIGGO")
        if utgang
        else ("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON")
    )
    table.say(
        "start-ace",
        f"The start card is an ace: every player draws one card, in turn from {table.name(first)}",
        clauses,
    )


@implements("VA-START-ACE-ALL-DRAW", "VA-START-ACE-PLAY-ON")
def start_ace_choice(table: Table, take: bool) -> None:
    """start_ace_take = may-decline (VA-AMB-START-ACE-TAKE): the player at ``turn`` takes his
    extra card for the start ace (``take``) or leaves it in the stock; after the last player
    in turn from the first player has chosen, the first player plays on the ace."""
    seat = table.turn
    count = len(table.players)
    dealer = table.dealer if table.dealer is not None else seat
    first = dealer
    if table.options.first_player is FirstPlayer.LEFT_OF_DEALER:
        first = seats_after(count, dealer, table.record.out | table.away)[0]
    if take:
        talon.draw_one(table, seat)
    table.say(
        "start-ace",
        f"{table.name(seat)} takes his extra card for the start ace"
        if take
        else f"{table.name(seat)} declines his extra card for the start ace",
        ("VA-START-ACE-ALL-DRAW",),
        seat,
    )
    following = seats_after(count, seat, table.record.out)
    if following and following[0] != first:
        table.turn = following[0]
        return
    table.turn = first
    table.phase = Phase.PLAY
    table.say(
        "first-turn",
        f"{table.name(first)} plays first",
        ("VA-TURN-FIRST-PLAYER", "VA-TURN-FIRST-PLAYS-ON-START", "VA-START-ACE-PLAY-ON"),
        first,
    )


@implements("VA-START-ACE-ALL-DRAW", "VA-ACE-OTHERS-DRAW", "VA-ACE-SAME-PLAYER-AGAIN")
def start_ace_as_dealers(table: Table, dealer: int) -> None:
    """start_ace = as-dealers-ace (VA-AMB-START-ACE): the start ace counts as laid by the
    dealer. Every other player draws one card, in turn from the dealer's left (absent players'
    cards taken as for any ace); the dealer draws none and then plays again on the ace as on
    his own ace (a card of its suit or an eight, per ace_follow and restart_fallback), after
    which the turn passes to his left. Where the start ace makes nobody draw (start_ace_draw)
    the ace has no effect and the first player plays on it as usual."""
    talon.ace_draws(table, dealer, 1)
    if table.drawn_deal:
        return
    table.turn = dealer
    table.restart = Restart.ACE
    table.draws = 0
    table.say(
        "start-ace",
        f"The start card is an ace and counts as {table.name(dealer)}'s: the others have drawn "
        "for it and the dealer plays again on it",
        ("VA-START-ACE-ALL-DRAW", "VA-ACE-OTHERS-DRAW", "VA-ACE-SAME-PLAYER-AGAIN"),
        dealer,
    )


@implements(
    "V8-START-CARD-FACE-UP",
    "VA-START-CARD-TURN",
    "V8-PLAY-FORHAND-FIRST",
    "VA-TURN-FIRST-PLAYER",
    "VA-TURN-FIRST-PLAYS-ON-START",
)
def turn_start_card(table: Table, dealer: int) -> None:
    """Turn the start card and give the first turn (förhand, or the dealer under first_player)."""
    options = table.options
    table.pile = [table.stock.pop()]
    utgang = options.go_out_call is GoOutCall.UTGANG
    table.say(
        "start-card",
        f"The start card is {table.pile[-1]}",
        ("V8-START-CARD-FACE-UP",)
        if utgang
        else ("VA-START-CARD-TURN", "VA-START-CARD-SETS-MATCH"),
        cards=(table.pile[-1],),
    )
    if options.start_eight is StartEight.BACK_INTO_STOCK:
        for _ in range(len(table.stock)):
            if not is_eight(table.pile[-1]):
                break
            talon.return_start_eight(table)
    first = dealer
    if options.first_player is FirstPlayer.LEFT_OF_DEALER:
        first = seats_after(len(table.players), dealer, table.record.out | table.away)[0]
    table.turn = first
    table.phase = Phase.PLAY
    if is_eight(table.pile[-1]) and options.start_eight is StartEight.DEALER_NAMES_SUIT:
        table.phase = Phase.START_SUIT
        table.say(
            "start-eight",
            f"The start card is an eight: {table.name(dealer)} may name the "
            "starting suit after looking at his hand",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
            dealer,
        )
        return
    if is_ace(table.pile[-1]):
        start_ace(table, first, dealer)
        if table.restart is Restart.ACE or table.phase is Phase.START_ACE:
            return  # the dealer plays again on his ace, or the players choose their extra card
    table.say(
        "first-turn",
        f"{table.name(first)} plays first",
        ("V8-PLAY-FORHAND-FIRST",)
        if utgang
        else ("VA-TURN-FIRST-PLAYER", "VA-TURN-FIRST-PLAYS-ON-START"),
        first,
    )


def play_deal(table: Table) -> None:
    """The Deal action: the draw for the deal if due, shuffle, cut, deal, start card."""
    table.deal_number += 1
    table.new_deal_fields()
    table.away = frozenset()  # a deal is dealt to the players at the table: all are back
    table.benched = table.joining = frozenset()  # late joiners are dealt in like everyone
    if table.deal_number > 1:
        cards = list(full_pack(table.base.decks))
        random.Random(f"{table.base.seed}:shuffle:{table.deal_number}").shuffle(cards)
        table.stock = cards
        table.hands = [() for _ in table.players]
        table.penalties = [() for _ in table.players]
        table.pile, table.turned, table.early = [], [], ()
    dealer = table.dealer
    if dealer is None:
        dealer = draw_for_deal(table)
        cut(table, dealer)
    table.dealer = dealer
    table.active_at_start = table.active()
    deal_hands(table, dealer)
    turn_start_card(table, dealer)


@implements("V8-START-EIGHT-DEALER-NAMES-SUIT", "V8-START-EIGHT-DEFAULT-SUIT")
def start_suit(table: Table, suit: Suit | None) -> None:
    """vvv8: the dealer names the starting suit on a start eight, or names none: then its own
    suit applies, or förhand may lay any card (start_eight_no_choice, V8-AMB-START-EIGHT-NO-CHOICE,
    :func:`~regelverk.vandatta.rules.open_start_eight`)."""
    table.phase = Phase.PLAY
    dealer = table.dealer if table.dealer is not None else table.turn
    if suit is None and table.options.start_eight_no_choice is StartEightNoChoice.ANY_SUIT:
        table.named_suit = None
        table.say(
            "start-suit",
            f"{table.name(dealer)} names no suit: the eight fits every card, and "
            f"{table.name(table.turn)} may lay any card on it",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
            dealer,
        )
    elif suit is None:
        table.named_suit = None
        table.say(
            "start-suit",
            f"{table.name(dealer)} names no suit: the eight's own suit, "
            f"{suit_name(table.pile[-1].suit)}, applies",
            ("V8-START-EIGHT-DEFAULT-SUIT",),
            dealer,
        )
    else:
        table.named_suit = suit
        table.say(
            "start-suit",
            f"{table.name(dealer)} names {suit_name(suit)} as the starting suit",
            ("V8-START-EIGHT-DEALER-NAMES-SUIT",),
            dealer,
        )
    if table.talon_passes:  # a kept card named anew after a rebuild (fresh-start-card)
        table.say(
            "turn",
            f"{table.name(table.turn)} plays on",
            ("V8-TALON-REBUILD-REFERENCE-CARD",),
            table.turn,
        )
        return
    table.say(
        "first-turn",
        f"{table.name(table.turn)} plays first",
        ("V8-PLAY-FORHAND-FIRST",),
        table.turn,
    )
