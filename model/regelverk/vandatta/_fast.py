"""PRIVATE, UNCHECKED: random Vändåtta deals on integer-coded cards, for benchmarks only.

Nothing here is part of the API and nothing here is a referee: :func:`_random_deal_fast` checks
no action, builds no event, cites no clause, and trusts its own move generation completely. Use
:func:`regelverk.vandatta.GAME.apply <regelverk.vandatta.VandattaGame.apply>` for anything a
person relies on (python-chess users were burnt by a public unchecked ``push``; this is why the
only entry points have a leading underscore).

What it promises, and what ``tests/test_vandatta_fast.py`` asserts over many seeds, both presets
and three to five players: driven by a :class:`random.Random` in the same state, it ends the
deal in exactly the state (hands, pile, stock, turn, calls, winner, record, every field) that the
public API reaches when each step takes ``rng.choice(GAME.legal_actions(s))``. That holds
because it lists the legal moves in the public order, draws the same ``rng.choice`` over a list
of the same length, and hands the end of the deal (winner, loser, points, next dealer) to the
public :func:`~regelverk.vandatta.scoring.finish_deal`.

Only the two presets are served (``vvv8`` and ``vandatta`` exactly as
:data:`~regelverk.vandatta.options.PRESETS` define them); any other options raise
``ValueError``. The deal itself (shuffle, cut, start card) and vvv8's naming of a starting suit
go through the public, checked ``apply``; only the phase of play runs here.

A card is ``rank * 4 + suit`` with the rank's number (ace 14) and the suit's place in
:class:`~regelverk.cards.Suit` (clubs 0 … spades 3).
"""

from __future__ import annotations

import random
from itertools import combinations

from regelverk.cards import Card, Rank, Suit
from regelverk.vandatta.adjudication import apply, legal_actions
from regelverk.vandatta.options import VANDATTA, VVV8
from regelverk.vandatta.rules import Table
from regelverk.vandatta.scoring import finish_deal
from regelverk.vandatta.state import Deal, Phase, Restart, State

__all__: list[str] = []

_SUITS = tuple(Suit)
_SUIT_INDEX = {s: i for i, s in enumerate(_SUITS)}
_CARD: dict[int, Card] = {
    rank * 4 + suit: Card(Rank(rank), _SUITS[suit]) for rank in range(2, 15) for suit in range(4)
}
"""Code → card."""
_EIGHT, _ACE = 8, 14
_NONE, _ACE_AGAIN, _EIGHT_AGAIN = 0, 1, 2
_RESTART = (Restart.NONE, Restart.ACE, Restart.EIGHT)
_RESTART_CODE = {r: i for i, r in enumerate(_RESTART)}

# The moves that are not plays, in the list the random choice is drawn from.
_DRAW, _PASS, _PASS_CALL = -1, -2, -3
_Move = int | tuple[tuple[int, ...], int, bool]

_DRAWN_TEXT = "The talon has been gone through the limit number of times: the deal is drawn"
_DRAWN_CLAUSES = (
    "V8-TALON-DRAWN-ONE-DECK",
    "V8-TALON-DRAWN-TWO-DECKS",
    "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
)


def _code(card: Card) -> int:
    return int(card.rank) * 4 + _SUIT_INDEX[card.suit]


def _real_chance(cards: list[int]) -> bool:
    """vvv8's real-chance test (one-turn-playable), as ``rules.real_chance``."""
    if not cards:
        return False
    plain_rank = -1
    plain_suits = 0
    aces = 0
    for c in cards:
        r = c >> 2
        if r == _EIGHT:
            return False
        if r == _ACE:
            aces |= 1 << (c & 3)
            continue
        if plain_rank < 0:
            plain_rank = r
        elif r != plain_rank:
            return False
        plain_suits |= 1 << (c & 3)
    if plain_rank < 0:
        return False
    return not aces or bool(aces & plain_suits)


class _Deal:
    """The mutable scratch of one deal's play (never leaves :func:`_random_deal_fast`)."""

    __slots__ = (
        "active",
        "calls",
        "count",
        "deal_number",
        "decks",
        "drawn_deal",
        "draws",
        "following",
        "hands",
        "idle",
        "named",
        "out",
        "pile",
        "previous",
        "restart",
        "seed",
        "shuffles",
        "stock",
        "talon_passes",
        "turn",
        "turned",
        "utgang",
    )

    def __init__(self, state: State) -> None:
        self.utgang = state.options is VVV8 or state.options == VVV8
        self.count = len(state.players)
        self.out = state.record.out
        self.active = sum(1 for s in range(self.count) if s not in self.out)
        self.seed = state.seed
        self.decks = state.decks
        self.deal_number = state.deal_number
        self.hands = [[_code(c) for c in hand] for hand in state.hands]
        self.stock = [_code(c) for c in state.stock]
        self.pile = [_code(c) for c in state.pile]
        self.turned = [_code(c) for c in state.turned]
        self.named = -1 if state.named_suit is None else _SUIT_INDEX[state.named_suit]
        self.turn = state.turn
        self.draws = state.draws
        self.restart = _RESTART_CODE[state.restart]
        self.calls = set(state.calls)
        self.previous = state.previous
        self.talon_passes = state.talon_passes
        self.shuffles = state.shuffles
        self.idle = state.idle
        self.drawn_deal = False
        self.following = tuple(self.next_seat(seat) for seat in range(self.count))

    # --- judging ---

    def goes_out_barred(self, seat: int, last: int) -> bool:
        """A play ending on ``last`` that empties the hand is refused."""
        r = last >> 2
        if r in (_ACE, _EIGHT):
            return True
        return self.utgang and seat not in self.calls

    def moves(self) -> list[_Move]:  # noqa: PLR0912, PLR0915 - inlined on purpose
        """The legal actions in the order of ``adjudication.legal_actions``: a card code for a
        single non-eight card laid without a call, ``_DRAW``, ``_PASS``, ``_PASS_CALL``, or
        ``(cards, suit, call)`` for any other play."""
        hand = self.hands[self.turn]
        size = len(hand)
        utgang = self.utgang
        pile = self.pile
        named = self.named
        restart = self.restart
        # Every fit is "an eight, or the suit s, or the rank r" (rules.first_fits under the
        # presets: vvv8's aces match by rank on aces only, where rank and suit agree anyway).
        rank = -1
        if restart == _ACE_AGAIN:
            top = pile[-1]
            suit = top & 3
            if utgang:
                rank = top >> 2
        elif restart or named >= 0:
            suit = named
        elif pile:
            top = pile[-1]
            suit, rank = top & 3, top >> 2
            if rank == _ACE and not utgang:
                rank = -1
        else:
            suit = -2
        if suit == -2:
            fit = list(hand)
        else:
            fit = [c for c in hand if (c & 3) == suit or (c >> 2) in (8, rank)]  # 8: eights
        twice = self.decks > 1
        if twice:
            fit = list(dict.fromkeys(fit))
        if utgang:
            plain = [c >> 2 for c in hand if (c >> 2) != _EIGHT]
            groups = len(set(plain)) < len(plain)
        else:
            # vandatta: groups only on a top card of their rank, so every card of one fits.
            groups = (
                not restart
                and named < 0
                and rank not in (-1, _EIGHT)
                and len(fit) > 1
                and len([c for c in fit if (c >> 2) == rank]) > 1
            )
        found: list[_Move]
        if groups:
            found = self.plays(fit)
        else:
            found = []
            barred = size == 1
            for c in fit:
                r = c >> 2
                if r == _EIGHT:
                    if not barred:
                        found.extend(((c,), named_suit, False) for named_suit in range(4))
                elif not barred or not self.goes_out_barred(self.turn, c):
                    found.append(c)
        if utgang and found:
            eights = size - len(plain)
            if eights < 2 and len({r for r in plain if r != _ACE}) < 3:
                found = self.with_calls(found)
        stuck = utgang or not found
        if stuck:
            left = 3 - self.draws
            can_draw = bool(self.stock) or len(pile) > 1 or bool(self.turned)
            if left > 0 and can_draw:
                found.append(_DRAW)
            elif left <= 0 or not can_draw:
                found.append(_PASS)
                if utgang and _real_chance(hand):
                    found.append(_PASS_CALL)
        return found

    def plays(self, fit: list[int]) -> list[_Move]:  # noqa: PLR0912 - as adjudication._plays
        """Every play, groups of one rank included, in the order of ``adjudication._plays``."""
        seat = self.turn
        hand = self.hands[seat]
        size = len(hand)
        utgang = self.utgang
        plays: list[_Move] = []
        twice = self.decks > 1
        restart = self.restart
        for first in fit:
            fr = first >> 2
            if fr == _EIGHT:
                if size == 1:
                    continue  # nobody goes out on an eight
                for suit in range(4):
                    plays.append(((first,), suit, False))
                continue
            mates: list[int] = []
            if not (
                restart and not utgang  # vandatta: no group after one's own ace or eight
            ) and not (
                not utgang  # vandatta: groups only on a top card of the same rank
                and (not self.pile or self.named >= 0 or (self.pile[-1] >> 2) != fr)
            ):
                skipped = False
                for c in hand:
                    if c == first and not skipped:
                        skipped = True
                        continue
                    if (c >> 2) != fr:
                        continue
                    if fr == _ACE and (c & 3) != (first & 3) and not utgang:
                        continue
                    mates.append(c)
            if size != 1 or not self.goes_out_barred(seat, first):
                plays.append(first)
            for k in range(1, len(mates) + 1):
                groups = combinations(mates, k)
                whole = k + 1 == size
                for group in dict.fromkeys(groups) if twice else groups:
                    for top in dict.fromkeys(group) if twice else group:
                        middle = list(group)
                        middle.remove(top)
                        if whole and self.goes_out_barred(seat, top):
                            continue
                        plays.append(((first, *middle, top), -1, False))
        return list(dict.fromkeys(plays)) if twice else plays

    def with_calls(self, plays: list[_Move]) -> list[_Move]:
        """vvv8: each play that ends the turn without going out, followed by the same play with
        utgång where the cards left give a real chance (``adjudication._turn_actions``)."""
        hand = self.hands[self.turn]
        found: list[_Move] = []
        for play in plays:
            found.append(play)
            cards, suit = ((play,), -1) if isinstance(play, int) else (play[0], play[1])
            if len(cards) == len(hand):
                continue
            if (cards[0] >> 2) != _EIGHT and any((c >> 2) == _ACE for c in cards):
                continue
            after = list(hand)
            for c in cards:
                after.remove(c)
            if _real_chance(after):
                found.append((cards, suit, True))
        return found

    # --- acting ---

    def draw_one(self, seat: int) -> bool:
        """``Table.draw_one``: whether a card was drawn."""
        if not self.stock and not self.rebuild():
            return False
        self.hands[seat].append(self.stock.pop())
        if not self.stock:
            self.talon_passes += 1
            if self.utgang and self.talon_passes >= (3 if self.decks == 1 else 2):
                self.drawn_deal = True
        return True

    def rebuild(self) -> bool:
        """``Table.rebuild``."""
        cards = [*self.turned, *self.pile[:-1]]
        if not cards:
            return False
        self.turned = []
        self.pile = self.pile[-1:]
        if self.utgang:
            cards.reverse()
        else:
            self.shuffles += 1
            random.Random(f"{self.seed}:{self.deal_number}:reshuffle:{self.shuffles}").shuffle(
                cards
            )
        self.stock = cards
        return True

    def lappen_penalty(self, seat: int) -> None:
        """``adjudication._lappen_penalty``."""
        self.calls.discard(seat)
        for _ in range(3):
            if not self.draw_one(seat) or self.drawn_deal:
                break

    def next_seat(self, seat: int) -> int:
        """``rules.next_seat`` (nobody is away; nobody drops out during a deal)."""
        count, out = self.count, self.out
        for step in range(1, count + 1):
            candidate = (seat + step) % count
            if candidate not in out:
                return candidate
        return seat

    def end_turn(self, seat: int, *, call: bool) -> bool:
        """``adjudication._end_turn``; whether the deal is void."""
        if self.utgang:
            self.calls.discard(seat)
            if call:
                self.calls.add(seat)
        else:
            if seat in self.calls:
                self.lappen_penalty(seat)
            hand = self.hands[seat]
            if len(hand) == 1 and (hand[0] >> 2) not in (_ACE, _EIGHT):
                self.calls.add(seat)
        if self.drawn_deal:
            return False
        self.previous = seat
        self.turn = self.following[seat]
        self.draws = 0
        self.restart = _NONE
        return self.idle >= self.active

    def play(self, seat: int, cards: tuple[int, ...], suit: int, call: bool) -> int | None:
        """``adjudication._play``: the winner if the play goes out, -2 if the deal is void."""
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.pile.extend(cards)
        self.idle = 0
        if (cards[0] >> 2) == _EIGHT:
            self.named = suit
            if self.utgang:
                return -2 if self.end_turn(seat, call=call) else None
            self.turned.extend(self.pile)
            self.pile = []
            self.restart = _EIGHT_AGAIN
            self.draws = 0
            return None
        self.named = -1
        if not hand:
            return seat
        aces = sum(1 for c in cards if (c >> 2) == _ACE)
        if aces:
            self.aces(seat, aces)
            return None
        return -2 if self.end_turn(seat, call=call) else None

    def aces(self, seat: int, aces: int) -> None:
        """``adjudication._ace``: the others draw (per ace, in turn); the player goes again."""
        others = [
            (seat + k) % self.count
            for k in range(1, self.count)
            if (seat + k) % self.count not in self.out
        ]
        for _ in range(aces):
            for other in others:
                if not self.draw_one(other) or self.drawn_deal:
                    break
        if self.drawn_deal:
            return
        self.restart = _ACE_AGAIN
        self.draws = 0

    def draw(self, seat: int) -> bool:
        """``adjudication._draw``; whether the deal is void."""
        if not self.utgang and seat in self.calls and not self.restart and not self.draws:
            self.lappen_penalty(seat)
            return self.end_turn(seat, call=False)
        self.draw_one(seat)
        self.draws += 1
        self.idle = 0
        return False

    def pass_(self, seat: int, call: bool) -> bool:
        """``adjudication._pass``; whether the deal is void."""
        if not self.draws and not self.restart:
            self.idle += 1
        return self.end_turn(seat, call=call)

    def table(self, state: State) -> Table:
        """The public scratch table of the deal as it stands, to finish it with."""
        table = Table.of(state)
        table.hands = [tuple(_CARD[c] for c in hand) for hand in self.hands]
        table.stock = [_CARD[c] for c in self.stock]
        table.pile = [_CARD[c] for c in self.pile]
        table.turned = [_CARD[c] for c in self.turned]
        table.named_suit = None if self.named < 0 else _SUITS[self.named]
        table.turn = self.turn
        table.draws = self.draws
        table.restart = _RESTART[self.restart]
        table.calls = frozenset(self.calls)
        table.previous = self.previous
        table.talon_passes = self.talon_passes
        table.shuffles = self.shuffles
        table.idle = self.idle
        table.drawn_deal = self.drawn_deal
        return table


def _random_deal_fast(state: State, rng: random.Random) -> State:  # noqa: PLR0912, PLR0915 - one loop, inlined on purpose
    """PRIVATE, UNCHECKED: play the deal in progress in ``state`` to its end by random choice.

    ``state`` must be in the play phase under one of the two presets; each step draws
    ``rng.choice`` over the legal moves in the public order, as the public loop does. Returns
    the state at the end of the deal (deal over, or match over).
    """
    if state.phase is not Phase.PLAY:
        raise ValueError("the fast path plays only a deal in progress")
    if state.options not in (VVV8, VANDATTA):
        raise ValueError("the fast path serves only the vvv8 and vandatta presets")
    if state.away or state.benched or any(state.penalties):
        raise ValueError(
            "the fast path plays no absent players, no late joiners and no penalty cards"
        )
    deal = _Deal(state)
    winner: int | None = None
    if type(rng) is random.Random:
        getrandbits = rng.getrandbits
        choose = None
    else:
        choose = rng.choice
    hands = deal.hands
    utgang = deal.utgang
    while True:
        seat = deal.turn
        moves = deal.moves()
        if choose is None:
            # random.Random.choice, inlined: _randbelow_with_getrandbits(len(moves)).
            n = len(moves)
            k = n.bit_length()
            index = getrandbits(k)
            while index >= n:
                index = getrandbits(k)
            move = moves[index]
        else:
            move = choose(moves)
        if isinstance(move, tuple):
            cards, suit, call = move
        elif move >= 0:
            # A single non-eight card, no call: adjudication._play, inlined.
            hand = hands[seat]
            hand.remove(move)
            deal.pile.append(move)
            deal.idle = 0
            deal.named = -1
            if not hand:
                winner = seat
                break
            if (move >> 2) == _ACE:
                deal.aces(seat, 1)
                if deal.drawn_deal:
                    break
            elif deal.end_turn(seat, call=False):
                break
            continue
        elif move == _DRAW:
            if utgang or deal.draws or deal.restart or seat not in deal.calls:
                # adjudication._draw without vandatta's LAPPEN penalty, inlined.
                deal.draw_one(seat)
                deal.draws += 1
                deal.idle = 0
            elif deal.draw(seat):
                break
            if deal.drawn_deal:
                break
            continue
        else:
            if deal.pass_(seat, move == _PASS_CALL):
                break
            if deal.drawn_deal:
                break
            continue
        result = deal.play(seat, cards, suit, call)
        if result is not None:
            if result >= 0:
                winner = result
            break
        if deal.drawn_deal:
            break
    table = deal.table(state)
    if winner is not None:
        finish_deal(table, winner, "", ())
    elif deal.drawn_deal:
        finish_deal(table, None, _DRAWN_TEXT, _DRAWN_CLAUSES)
    else:
        finish_deal(table, None, "", ())
    return table.freeze()


def _random_deal_from_start(state: State, rng: random.Random) -> State:
    """PRIVATE: deal through the public ``apply`` (and vvv8's starting suit by random choice),
    then play the deal on the fast path; the same game as the public loop."""
    state = apply(state, Deal()).state
    while state.phase is Phase.START_SUIT:
        state = apply(state, rng.choice(legal_actions(state))).state
    if state.phase is Phase.PLAY:
        state = _random_deal_fast(state, rng)
    return state
