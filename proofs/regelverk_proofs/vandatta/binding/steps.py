"""Which encoded steps an action of the Vändåtta engine is made of, and whether the engine's
resulting state follows, card by card, from the state before by those steps.

The card theorems (:mod:`regelverk_proofs.vandatta.theorems.cards`) check that every *step* of
:data:`~regelverk_proofs.vandatta.encoding.zones.STEPS` keeps every card in one place. What ties
them to the engine is the claim that every engine *action* is a sequence of those steps. This
module writes that claim down per action, from the rules (the options, the state before, the
action), never from what the engine happened to do: a lay of exactly the cards named, then the
pile turned away (vandatta's eight) or one draw for each ace by every other seat in turn
(V8-ACE-OTHERS-DRAW-ONE, VA-ACE-OTHERS-DRAW), else the end of the turn with its LAPPEN penalty
(VA-PENALTY-LAPPEN-FAILED) and the penalty cards whose time has come
(V8-PEN-CARDS-LOCKED-UNTIL-TURN-DONE); a draw; the options' number of cards dealt
(V8-DEAL-SEVEN-ROUNDS, VA-DEAL-SEVEN-CARDS), drawn as a penalty (V8-PEN-STANDARD-THREE-CARDS)
or given to a late joiner (V8-JOIN-LATE-CARDS-MOST-PLUS-ONE). Every draw may be preceded by a
rebuild of the stock where the options allow one (V8-TALON-REBUILD-TOP-ASIDE,
VA-DRAW-STOCK-REBUILD), and draws may stop early only when nothing is left to draw or the deal
has been drawn; under rebuild_reference = fresh-start-card the rebuild is planned where it falls
on the stock of the state before, with the start ace's draws for the card it keeps
(V8-TALON-REBUILD-REFERENCE-CARD). Only chance is read off the engine: how many start eights
went back, which cards a penalty drew.

:func:`follows_engine` then asks Z3 whether the encoding of the engine's state after the action
follows from the encoding of the state before by the planned steps
(:func:`~regelverk_proofs.vandatta.encoding.zones.follows`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from regelverk.cards import Card, Rank, Suit
from regelverk.engine import Event
from regelverk.vandatta.options import (
    AceBatchDraws,
    AfterEight,
    AllShortCompletion,
    EmptyStock,
    GoOutCall,
    LappenFailure,
    LappenOmission,
    LappenPenalty,
    LateJoinerCount,
    LateJoinerFirstTurn,
    PenaltyCardsUsable,
    PenaltySetsTiming,
    PenaltyStacking,
    PlayAfterThirdDraw,
    RebuildReference,
    StartAce,
    StartAceDraw,
    StartEight,
    StartEightEarlyCard,
    StartEightNoChoice,
    StartEightOtherSuit,
    TalonEmptyMidDraw,
    TurnedPile,
    VandattaOptions,
    VarningOmission,
)
from regelverk.vandatta.state import (
    Draw,
    Pass,
    PenaltySet,
    Phase,
    Play,
    Restart,
    State,
)
from regelverk_proofs.vandatta.encoding.zones import (
    NO_MOVE,
    Move,
    concrete,
    follows,
    fresh,
    known_places,
    layout_of,
)
from regelverk_proofs.vandatta.text import EXTRA_CARDS, drawn_deal_clauses
from regelverk_proofs.z3api import Solver, Verdict

__all__ = ["Plan", "follows_engine", "others_after", "projection", "rebuildable"]

Slot = tuple[Move, ...]


def others_after(count: int, seat: int, skip: frozenset[int]) -> list[int]:
    """The other seats clockwise from ``seat``'s left, leaving out ``skip``."""
    return [(seat + k) % count for k in range(1, count) if (seat + k) % count not in skip]


def rebuildable(state: State) -> bool:
    """Whether a new stock could be made now (the top card stays; the turned piles join it
    when they are set aside)."""
    options = state.options
    if options.empty_stock is EmptyStock.NO_REBUILD:
        return False
    spare = state.turned if options.turned_pile is TurnedPile.SET_ASIDE else ()
    return len(state.pile) > 1 or bool(spare)


def _ace(card: Card) -> bool:
    return card.rank is Rank.ACE


def _eight(card: Card) -> bool:
    return card.rank is Rank.EIGHT


@dataclass(slots=True)
class Plan:
    """The steps of one action, slot by slot, and the step kinds it must take (every slot
    without ``no-move``); ``ordered``: draws take the stock's cards in its order;
    ``stock_left``: the cards left in the stock as the draws planned so far leave it, where
    they are planned one by one (rebuild_reference = fresh-start-card)."""

    before: State
    after: State
    events: tuple[Event, ...]
    slots: list[Slot] = field(default_factory=list)
    ordered: bool = True
    stock_left: int | None = None

    @property
    def options(self) -> VandattaOptions:
        """The table's options."""
        return self.before.options

    @property
    def drawn(self) -> bool:
        """The talon's limit drew the deal during the action (V8-TALON-DRAWN-ONE-DECK, a
        bookkeeping the coffee-break theorem binds; under endless_deal = drawn-after-passes
        the same limit anywhere): draws stop and the turn does not pass."""
        return any(
            "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK" in e.clauses
            or (e.kind == "deal-over" and e.clauses == drawn_deal_clauses(self.options))
            for e in self.events
        )

    @property
    def short(self) -> bool:
        """Draws may stop early: nothing is left to draw at the end (nor rebuilt, or not
        rebuilt by a draw that is not the spelförare's own under talon_empty_mid_draw =
        draw-what-is-there), or the deal was drawn."""
        after = self.after
        midway = self.options.talon_empty_mid_draw is TalonEmptyMidDraw.DRAW_WHAT_IS_THERE
        return (not after.stock and (midway or not rebuildable(after))) or self.drawn

    def kinds(self) -> tuple[str, ...]:
        """The step kinds the plan takes for sure, and a rebuild if the engine made one."""
        found = [s[0].name for s in self.slots if NO_MOVE not in s]
        if any(e.kind == "rebuild" for e in self.events):
            found.append("rebuild")
        return tuple(dict.fromkeys(found)) or ("no-move",)

    def must(self, move: Move) -> None:
        """A step that happens."""
        self.slots.append((move,))

    def may(self, move: Move) -> None:
        """A step that may happen."""
        self.slots.append((move, NO_MOVE))

    def draws(self, moves: Sequence[Move]) -> None:
        """Cards taken off the stock one by one, each perhaps after a rebuild (where the
        options allow one); the last ones may be missing when the stock ran out for good.
        Under rebuild_reference = fresh-start-card the rebuild is planned where it falls
        (:meth:`_fresh_draws`)."""
        rebuild = self.options.empty_stock is not EmptyStock.NO_REBUILD
        if rebuild and self.options.rebuild_reference is RebuildReference.FRESH_START_CARD:
            self._fresh_draws(moves)
            return
        short = self.short
        for move in moves:
            if rebuild:
                self.may(Move("rebuild"))
            if short:
                self.may(move)
            else:
                self.must(move)

    def _fresh_draws(self, moves: Sequence[Move]) -> None:
        """Draws under rebuild_reference = fresh-start-card (V8-TALON-REBUILD-REFERENCE-CARD):
        the stock's cards in turn, and when it is empty a rebuild whose kept card counts as a
        new start card; a start ace makes every player draw one card in turn from the
        spelförare, where start_ace_draw says so (V8-START-ACE-ALL-DRAW,
        V8-START-ACE-ONLY-WITH-VIGGO), before the draw in progress goes on. Planned where the
        rebuild falls is known: draws off the stock of the state before, the pile's top card
        unchanged (no card laid before them), the talon never running out for good (a rebuild
        for every draw, talon_empty_mid_draw = rebuild-and-continue) nor the deal drawn, and
        the kept card no eight (whose return or named suit is not encoded here)."""
        state, options = self.before, self.options
        other = {"lay", "turn-away", "turn-under", "early-back", "start-card", "redeal"}
        moved = [m.name for slot in self.slots for m in slot]
        maybe = any(NO_MOVE in slot for slot in self.slots)
        if any(name in other for name in moved) or maybe or self.drawn:
            raise ValueError(
                "draws under rebuild_reference = fresh-start-card after a card laid, a step "
                "that may not happen or with the deal drawn are not encoded in the steps of a "
                "draw"
            )
        if options.talon_empty_mid_draw is not TalonEmptyMidDraw.REBUILD_AND_CONTINUE:
            raise ValueError(
                "draws under rebuild_reference = fresh-start-card that may leave the talon "
                "empty (talon_empty_mid_draw) are not encoded in the steps of a draw"
            )
        if self.stock_left is None:
            self.stock_left = len(state.stock)
        for move in moves:
            if self.stock_left == 0:
                self.stock_left = self._fresh_rebuild(state)
            self.must(move)
            self.stock_left -= 1

    def _fresh_rebuild(self, state: State) -> int:
        """The rebuild and the draws for its kept card as a fresh start card; how many cards
        the new stock has left after them."""
        options = self.options
        kept = state.pile[-1] if state.pile else None
        spare = state.turned if options.turned_pile is TurnedPile.SET_ASIDE else ()
        new = len(state.pile) - 1 + len(spare)
        again = any(m.name == "rebuild" for slot in self.slots for m in slot)
        if kept is None or new <= 0 or _eight(kept) or again:
            raise ValueError(
                "a rebuild under rebuild_reference = fresh-start-card with no card to keep, "
                "nothing to rebuild from, an eight kept or a second rebuild in the action is not "
                "encoded in the steps of a draw"
            )
        self.must(Move("rebuild"))
        rule = options.start_ace_draw
        viggo = options.viggo_present or any(p.casefold() == "viggo" for p in state.players)
        if not _ace(kept) or rule is StartAceDraw.NEVER:
            return new
        if rule is StartAceDraw.ONLY_WITH_VIGGO and not viggo:
            return new
        skip = state.record.out | state.benched
        order = [state.turn, *others_after(len(state.players), state.turn, skip)]
        if len(order) >= new:
            raise ValueError(
                "a fresh start ace whose draws use the new stock up is not encoded in the "
                "steps of a draw"
            )
        for seat in order:
            self.must(Move("start-ace-draw", seat))
        return new - len(order)

    # --- moves of play (playing._play, _draw, _pass, _end_turn) ---

    def end_turn(
        self,
        state: State,
        seat: int,
        *,
        laid: bool,
        hand: int,
        calls: frozenset[int] | None = None,
    ) -> None:
        """The turn ends: the extra cards owed for a failed going out are taken (the standard
        penalty, as he hands the turn on); a standing LAPPEN not made good costs the penalty
        cards; penalty sets whose time has come join the hand; the next seat's sets due at its
        turn's start join his."""
        options = state.options
        if any(p.owed for p in state.penalties[seat]):
            self.penalty(state, seat, (1,))
            settled = tuple(
                tuple(p for p in sets if not p.owed) if s == seat else sets
                for s, sets in enumerate(state.penalties)
            )
            state = self.penalised(dataclasses.replace(state, penalties=settled), seat)
        if options.go_out_call is GoOutCall.LAPPEN and (
            options.varning_omission is VarningOmission.THREE_CARDS
            or options.lappen_omission is LappenOmission.NO_GO_OUT
        ):
            raise ValueError(
                "the penalty for a forgotten call (varning_omission = three-cards, "
                "lappen_omission = no-go-out) is not encoded in the end of a turn"
            )
        standing = state.calls if calls is None else calls
        if options.go_out_call is GoOutCall.LAPPEN and seat in standing:
            single = options.lappen_failure is LappenFailure.SINGLE_CARD_ONLY
            if not single or (not laid and hand == 1):
                self.draws([Move("lappen-draw", seat)] * options.penalty_cards)
        sets = state.penalties[seat]
        due = tuple(c for p in sets if p.release_after <= 1 for c in p.cards)
        if due:
            self.must(Move("release", seat, cards=due))
        following = self.after.turn
        if not self.drawn and following != seat:
            start = tuple(
                c for p in state.penalties[following] if p.release_after <= 0 for c in p.cards
            )
            if start:
                self.must(Move("release", following, cards=start))

    def play(self, state: State, play: Play) -> None:
        """A play (``playing._play``): the cards named go on the pile; then an eight turns
        the pile away or ends the turn, a player with nothing left is out, aces make every other
        seat draw, and any other play ends the turn."""
        seat, cards, options = play.player, play.cards, state.options
        self.must(Move("lay", seat, cards=cards))
        left = len(state.hands[seat]) - len(cards)
        if _eight(cards[0]):
            if options.after_eight is AfterEight.TURN_PASSES:
                self.end_turn(state, seat, laid=True, hand=left)
            elif options.turned_pile is TurnedPile.UNDER_STOCK:
                self.must(Move("turn-under"))
            else:
                self.must(Move("turn-away"))
            return
        if left == 0 and not state.penalties[seat]:
            return
        aces = sum(1 for c in cards if _ace(c))
        if aces:
            rounds = aces if options.ace_batch_draws is AceBatchDraws.PER_ACE else 1
            others = others_after(len(state.players), seat, state.record.out | state.benched)
            self.draws([Move("ace-draw", o) for _ in range(rounds) for o in others])
            return
        self.end_turn(state, seat, laid=True, hand=left)

    def draw(self, state: State, draw: Draw) -> None:
        """A draw (``drawing._draw``): one card, or (a LAPPEN caller's first draw under
        lappen_penalty = penalty-instead) the penalty cards instead and the turn ends (under
        penalty-then-play the turn goes on after them); the last
        draw ends the turn under play_after_third_draw = third-draw-ends-turn."""
        seat, options = draw.player, state.options
        hand = len(state.hands[seat])
        if (
            options.go_out_call is GoOutCall.LAPPEN
            and options.lappen_penalty is not LappenPenalty.DRAW_THEN_PENALTY
            and seat in state.calls
            and state.restart is Restart.NONE
            and state.draws == 0
        ):
            self.draws([Move("lappen-draw", seat)] * options.penalty_cards)
            if options.lappen_penalty is LappenPenalty.PENALTY_INSTEAD:
                self.end_turn(state, seat, laid=False, hand=hand, calls=state.calls - {seat})
            return
        self.draws([Move("draw", seat)])
        ends = (
            options.play_after_third_draw is PlayAfterThirdDraw.THIRD_DRAW_ENDS_TURN
            and options.max_draws - state.draws == 1
            and bool(state.stock)
        )
        if ends and not self.drawn:
            self.end_turn(state, seat, laid=False, hand=hand + 1)

    def pass_(self, state: State, action: Pass) -> None:
        """A pass (``drawing._pass``): the turn ends."""
        seat = action.player
        laid = state.restart is not Restart.NONE
        self.end_turn(state, seat, laid=laid, hand=len(state.hands[seat]))

    def move(self, state: State, action: Play | Draw | Pass) -> None:
        """A move of play."""
        if isinstance(action, Play):
            self.play(state, action)
        elif isinstance(action, Draw):
            self.draw(state, action)
        else:
            self.pass_(state, action)

    # --- vvv8's penalties (penalty.penalise, attempts._overdraw, _extra_card) ---

    def penalty(self, state: State, seat: int, offences: Sequence[int]) -> None:
        """The standard penalty: the options' number of cards per offence (one offence per act
        unless penalty_stacking = per-offence; ``offences``: the counts the act may have), face
        down, or into the hand of a spelförare under penalty_cards_usable =
        at-next-turn-start."""
        options = state.options
        per = options.penalty_stacking is PenaltyStacking.PER_OFFENCE
        counts = sorted({options.penalty_cards * (n if per else 1) for n in offences})
        usable = (
            options.penalty_cards_usable is PenaltyCardsUsable.AT_NEXT_TURN_START
            and state.phase is Phase.PLAY
            and state.turn == seat
        )
        move = Move("penalty-usable" if usable else "penalty-draw", seat)
        self.draws([move] * counts[0])
        rebuild = self.options.empty_stock is not EmptyStock.NO_REBUILD
        fresh = self.options.rebuild_reference is RebuildReference.FRESH_START_CARD
        if rebuild and fresh and counts[-1] > counts[0]:
            raise ValueError(
                "a penalty of either size under rebuild_reference = fresh-start-card is not "
                "encoded in the steps of a draw"
            )
        for _ in range(counts[-1] - counts[0]):
            if rebuild:
                self.may(Move("rebuild"))
            self.may(move)

    def penalised(self, state: State, seat: int) -> State:
        """``state`` after the standard penalty, with the cards the engine's penalty event
        names (which cards come up is chance): where the drawn cards lie and when they are
        released (penalty_cards_usable, penalty_sets_timing)."""
        options = state.options
        drawn = next(
            (tuple(Card.parse(c) for c in e.cards) for e in self.events if e.kind == "penalty"),
            (),
        )
        spelforare = state.phase is Phase.PLAY and state.turn == seat
        hands = list(state.hands)
        penalties = list(state.penalties)
        usable = options.penalty_cards_usable
        if usable is PenaltyCardsUsable.AT_NEXT_TURN_START and spelforare and drawn:
            hands[seat] = (*hands[seat], *drawn)
        else:
            release = 1 if usable is PenaltyCardsUsable.AFTER_EXHAUSTING_TURN else 0
            sets = (*penalties[seat], PenaltySet(cards=drawn, release_after=release))
            if options.penalty_sets_timing is PenaltySetsTiming.MERGED and len(sets) > 1:
                latest = max(p.release_after for p in sets)
                sets = tuple(PenaltySet(cards=p.cards, release_after=latest) for p in sets)
            penalties[seat] = sets
        return dataclasses.replace(state, hands=tuple(hands), penalties=tuple(penalties))

    # --- deals (setup.play_deal, turn_start_card, misdeal._complete, _redeal) ---

    def deal_cards(self, state: State, dealer: int) -> None:
        """The options' number of rounds, one card each, clockwise from förhand, the dealer
        last (``setup.deal_hands``)."""
        order = [*others_after(len(state.players), dealer, state.record.out), dealer]
        for _ in range(state.options.hand_size):
            for seat in order:
                self.must(Move("deal-card", seat))

    def start_card(self, state: State) -> None:
        """The start card is turned (``setup.turn_start_card``): under start_eight =
        back-into-stock each start eight goes back and another card is turned (how many came
        up is chance); a start ace makes every player draw one card in turn from the first
        player where start_ace_draw says so, or, under start_ace = as-dealers-ace, every
        player but the dealer in turn from the dealer's left."""
        options = state.options
        self.must(Move("start-card"))
        if options.start_eight is StartEight.BACK_INTO_STOCK:
            for _ in range(sum(1 for e in self.events if e.kind == "start-eight")):
                self.must(Move("start-eight-back"))
                self.must(Move("start-card"))
                self.ordered = False
        after = self.after
        top = after.pile[0] if after.pile else None
        if top is None or not _ace(top) or after.phase is not Phase.PLAY:
            return
        rule = options.start_ace_draw
        viggo = options.viggo_present or any(p.casefold() == "viggo" for p in state.players)
        if rule is StartAceDraw.NEVER or (rule is StartAceDraw.ONLY_WITH_VIGGO and not viggo):
            return
        if options.start_ace is StartAce.AS_DEALERS_ACE:
            assert after.dealer is not None
            order = others_after(len(state.players), after.dealer, state.record.out)
            self.draws([Move("start-ace-draw", s) for s in order])
            return
        first = after.turn
        order = [first, *others_after(len(state.players), first, state.record.out)]
        self.draws([Move("start-ace-draw", s) for s in order])

    def deal(self, state: State) -> None:
        """The Deal action: a new pack for every deal after the first, the cut after the draw
        for the deal, the cards dealt and the start card."""
        if state.deal_number >= 1:
            self.must(Move("new-pack"))
            self.ordered = False
        dealer = state.dealer
        if dealer is None:
            self.must(Move("cut"))
            self.ordered = False
            dealer = self.after.dealer
            assert dealer is not None
        self.deal_cards(state, dealer)
        self.start_card(state)

    def complete(self, state: State) -> None:
        """The dealer completes a short deal (``misdeal._complete``): short hands topped up from
        the talon (or, everyone short and no start card turned, further rounds, perhaps in full
        rounds), then the start card turned again."""
        options, dealer = state.options, state.dealer
        assert dealer is not None
        size = options.hand_size
        seats = [s for s in range(len(state.players)) if s not in state.record.out]
        held = {s: len(state.hands[s]) for s in seats}
        stock = len(state.stock)
        short = [s for s in seats if held[s] < size]
        if short and not state.pile and len(short) == len(seats):
            full = options.all_short_completion is AllShortCompletion.FULL_ROUNDS
            order = [*others_after(len(state.players), dealer, state.record.out), dealer]
            while any(held[s] < size for s in seats) and stock:
                for seat in order:
                    if (full or held[seat] < size) and stock:
                        self.must(Move("top-up", seat))
                        held[seat] += 1
                        stock -= 1
            over = [s for s in seats if held[s] > size and s != dealer]
            if over and full:
                return
        elif short:
            for seat in short:
                while held[seat] < size and stock:
                    self.must(Move("top-up", seat))
                    held[seat] += 1
                    stock -= 1
        if state.pile:
            self.must(Move("unturn-start"))
        self.start_card(state)

    def redeal(self, state: State) -> None:
        """A new deal demanded after a short deal (``misdeal._redeal``): every card gathered
        into the stock, förhand's early cards too, then dealt again."""
        dealer = state.dealer
        assert dealer is not None
        self.must(Move("redeal"))
        self.ordered = False
        self.deal_cards(state, dealer)
        self.start_card(state)

    # --- late joiners (join._step_in, _stay_out) ---

    def step_in(self, state: State, seat: int) -> None:
        """The late joiner is dealt the most any player in the deal holds (penalty cards
        counted under late_joiner_count = all-held) and the spec's extra card from the talon;
        under cards-then-next-round his turn then passes on."""
        options = state.options
        every = options.late_joiner_count is LateJoinerCount.ALL_HELD
        counts = [
            len(state.hands[s]) + (sum(len(p.cards) for p in state.penalties[s]) if every else 0)
            for s in range(len(state.players))
            if s not in state.benched
        ]
        self.draws([Move("join-deal", seat)] * (max(counts, default=0) + EXTRA_CARDS))
        if options.late_joiner_first_turn is LateJoinerFirstTurn.CARDS_THEN_NEXT_ROUND:
            self.end_turn(state, seat, laid=False, hand=0)

    # --- förhand's early card on a start eight (early.resolve_early) ---

    def resolve_early(
        self, state: State, suit: Suit | None, fits: Callable[[State, Play], bool]
    ) -> None:
        """The dealer names a suit (or none) and förhand's early cards come back to his hand;
        the suit that counts is the early card's (or the eight's, start_eight_other_suit): then
        they are laid again if they fit (``fits``: the encoding's verdict), as they are when no
        suit is named under start_eight_no_choice = any-suit; another suit: the
        penalty, and under start_eight_early_card = stands they are laid again all the same."""
        seat, cards = state.turn, state.early
        self.must(Move("early-back", seat))
        eight = state.pile[-1]
        named = suit or eight.suit
        options = state.options
        against = (
            cards[0].suit
            if options.start_eight_other_suit is StartEightOtherSuit.OTHER_THAN_FORHAND_CARD
            else eight.suit
        )
        back = dataclasses.replace(
            state,
            phase=Phase.PLAY,
            early=(),
            hands=tuple((*h, *cards) if s == seat else h for s, h in enumerate(state.hands)),
            named_suit=suit,
        )
        play = Play(player=seat, cards=cards)
        free = suit is None and options.start_eight_no_choice is StartEightNoChoice.ANY_SUIT
        if named == against or free:
            if fits(back, play):
                self.play(back, play)
            return
        self.penalty(back, seat, (1,))
        if options.start_eight_early_card is StartEightEarlyCard.STANDS:
            stands = dataclasses.replace(self.penalised(back, seat), named_suit=None)
            self.play(stands, play)


def _zones(state: State) -> list[tuple[Card, ...]]:
    return [
        *state.hands,
        *(tuple(c for p in sets for c in p.cards) for sets in state.penalties),
        state.stock,
        state.pile,
        state.early,
        state.turned,
    ]


def projection(p: Plan) -> tuple[Card, ...]:
    """The faces a plan is compared on: every face that changed place, the tops of the pile
    and of the stock before and after, the top of the stock as deep as the plan draws, and two
    cards of every place before and after (so that each place stays empty, holds one card or
    holds more, as every step's condition reads it). No step looks at the other cards: each of
    them lies in a place with two such cards and stays there, as they do. A plan that gathers
    every card (a redeal, a new pack) is compared on every card."""
    before, after = p.before, p.after
    twice = Counter(c for zone in _zones(before) for c in zone)
    if any(m.name in ("redeal", "new-pack") for slot in p.slots for m in slot):
        return tuple(c for c in sorted(twice, key=_order) for _ in range(twice[c]))
    keep: set[Card] = set()
    if len(before.players) == len(after.players):
        for old, new in zip(_zones(before), _zones(after), strict=True):
            a, b = Counter(old), Counter(new)
            if a != b:
                keep |= set((a - b) | (b - a))
    for state in (before, after):
        for zone in _zones(state):
            keep |= set(zone[-2:]) | set(zone[:2])
    depth = sum(len(slot) for slot in p.slots) + 2
    keep |= set(before.stock[-depth:])
    return tuple(c for c in sorted(keep, key=_order) for _ in range(twice[c]))


def _order(card: Card) -> tuple[int, str]:
    return int(card.rank), card.suit.value


def follows_engine(p: Plan, *, projected: bool = True) -> Verdict:
    """Whether the encoding of the engine's state after the action follows from that of the
    state before by the planned steps (on the :func:`projection`; draws in the stock's order
    where it is known: one deck, no shuffle on the way)."""
    before, after = p.before, p.after
    layout = layout_of(before)
    if layout_of(after) != layout:
        return Verdict.UNSAT
    if projected:
        layout = dataclasses.replace(layout, faces=projection(p))
    with Solver.scratch(timeout_ms=60_000) as solver:
        old, new = known_places(layout, before), known_places(layout, after)
        if old is None or new is None:
            old, new = fresh(layout, "old"), fresh(layout, "new")
            solver.add(concrete(layout, old, before) & concrete(layout, new, after))
        spare = before.options.turned_pile is TurnedPile.SET_ASIDE
        order = before.stock if p.ordered and layout.decks == 1 else None
        solver.add(follows(layout, old, new, p.slots, spare=spare, stock_order=order))
        return solver.check()
