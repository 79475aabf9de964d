"""The state of a Vändåtta match, and the actions a player takes.

Seats are numbered clockwise from 0: the player on a seat's left is the next seat. The stock
(talon, mitthögen) is a tuple whose *last* card is the top; the pile is a tuple whose last card is
the card on top. Every zone is a tuple, every state is frozen and hashable.

>>> from regelverk.vandatta.state import Play
>>> from regelverk.cards import parse_cards
>>> Play(player=0, cards=parse_cards("9S"))
Play(player=0, cards=(Card.parse('9S'),), suit=None, call=False)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from regelverk.cards import Card, Suit
from regelverk.vandatta.options import VandattaOptions

__all__ = [
    "Action",
    "AskCount",
    "Back",
    "Complete",
    "Deal",
    "Draw",
    "ExtraCard",
    "ForgetAbsentCard",
    "HideBundle",
    "Join",
    "LeapDay",
    "LookBack",
    "NameSuit",
    "Pass",
    "PenaltySet",
    "Phase",
    "Play",
    "Record",
    "Redeal",
    "Remark",
    "RemarkKind",
    "Restart",
    "ReturnSurplus",
    "RevealCall",
    "SayUtgang",
    "Stall",
    "State",
    "StayOut",
    "StepAway",
    "StepIn",
    "Veto",
    "Withdrawn",
]


class Phase(enum.Enum):
    """Where the match stands."""

    MISDEAL = "misdeal"
    """vvv8: the cards are dealt but some hands are not seven; the misdeal is being put right
    (V8-MISDEAL-TOO-MANY-RETURN, V8-MISDEAL-TOO-FEW-COMPLETE). The start card may be turned
    (the pile holds it) or not yet (the pile is empty)."""
    READY = "ready"
    """A deal is due: the next action deals it."""
    START_SUIT = "start-suit"
    """vvv8's start eight: the dealer names the starting suit (V8-START-EIGHT-DEALER-NAMES-SUIT)."""
    START_ACE = "start-ace"
    """A start ace under start_ace_take = may-decline (VA-AMB-START-ACE-TAKE): ``turn`` is the
    player who now takes his extra card (Draw) or declines it (Pass); after the last of them
    the first player plays."""
    PLAY = "play"
    """The deal is being played; ``turn`` is the spelförare."""
    DEAL_OVER = "deal-over"
    """The deal has ended; the next deal (or, in vvv8, the leap day) is due."""
    MATCH_OVER = "match-over"
    """The match has ended: nothing more happens."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Restart(enum.Enum):
    """Whether the spelförare is playing again in the same turn, and why."""

    NONE = "none"
    """An ordinary turn."""
    ACE = "ace"
    """He laid an ace and plays again on it (V8-ACE-SAME-PLAYER-AGAIN, VA-ACE-SAME-PLAYER-AGAIN)."""
    EIGHT = "eight"
    """vandatta: he laid an eight, turned the pile, named a suit and restarts on it."""

    def __repr__(self) -> str:
        return f"Restart.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltySet:
    """Face-down penalty cards in front of a player, unusable until released.

    vvv8's "Brott och straff" (V8-PEN-CARDS-FACE-DOWN-IN-FRONT) puts them here, and so do cards
    drawn too many by mistake (V8-PEN-OVERDRAW-KEEP-LOCKED). ``release_after`` is the number of
    the owner's own turns that must end before the cards join his hand; 0 means they join it as
    his next turn begins (penalty_cards_usable = at-next-turn-start).

    ``owed`` counts cards not yet taken: a failed going out (on an ace or an eight, or without
    a call) costs three extra cards taken as the player hands the turn on
    (V8-PEN-OUT-ON-EIGHT-OR-ACE-THREE), so until then his set has no cards and owes them. It
    keeps him from going out or calling for the rest of that turn.
    """

    cards: tuple[Card, ...]
    release_after: int = 1
    owed: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """The match record across deals: official wins and losses (vvv8), points (vandatta)."""

    deals: int = 0
    """Deals finished (won, drawn or void)."""
    official: int = 0
    """Deals with an official winner and loser."""
    wins: tuple[int, ...] = ()
    """Official wins per seat."""
    losses: tuple[int, ...] = ()
    """Official losses per seat."""
    points: tuple[int, ...] = ()
    """Running card points per seat."""
    out: frozenset[int] = frozenset()
    """Seats that have reached the points limit and dropped out (VA-AMB-OVER-100)."""
    champions: tuple[int, ...] = ()
    """The match's winners, once it has ended."""


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    """A position of a Vändåtta match, as the referee sees it (every card visible)."""

    options: VandattaOptions
    players: tuple[str, ...]
    seed: int
    decks: int
    phase: Phase
    deal_number: int
    """Deals begun so far (1 during the first deal)."""
    dealer: int | None
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[tuple[PenaltySet, ...], ...]
    """Each seat's face-down penalty cards (vvv8 §3), a zone of its own."""
    stock: tuple[Card, ...]
    """The face-down talon; the last card is the top."""
    pile: tuple[Card, ...]
    """The face-up pile; the last card is the one to play on."""
    early: tuple[Card, ...] = ()
    """vvv8: cards förhand laid on a start eight before the dealer named the suit, waiting for
    his choice (V8-START-EIGHT-FORHAND-EARLY-PENALTY); a zone of its own."""
    turned: tuple[Card, ...] = ()
    """vandatta: piles turned away by eights, set aside (VA-EIGHT-TURNS-PILE)."""
    named_suit: Suit | None = None
    turn: int = 0
    """The spelförare (or, in START_SUIT, förhand waiting for the dealer)."""
    draws: int = 0
    """Cards the spelförare has drawn in this turn (or since his last restart)."""
    restart: Restart = Restart.NONE
    free_lead: bool = False
    """VA-AMB-AFTER-THREE-DRAWS = pass-free-lead: the last player ended his turn after all his
    draws with nothing to lay, so the pile is dead and the spelförare may start with any card
    (a named suit no longer binds); cleared by the next card laid, or when his turn ends."""
    calls: frozenset[int] = frozenset()
    """Standing going-out calls: vvv8's utgång for the caller's next turn; vandatta's LAPPEN."""
    false_calls: frozenset[int] = frozenset()
    """vvv8 under false_call_detection = when-revealed: seats whose utgång was made without a
    real chance and has not been caught nor owned up to yet (V8-PEN-FALSE-CALL-CAUGHT); such a
    call is void (never in ``calls``) and lapses as the caller's next turn ends."""
    vetoed: frozenset[int] = frozenset()
    """vvv8 under veto_limit = once-per-offender-turn: offenders one of whose penalties has been
    vetoed in the current turn of play (V8-PEN-VETO-RIGHT); cleared as the turn passes."""
    away: frozenset[int] = frozenset()
    """Seats temporarily away (V8-PRESENCE-ABSENT-TURN-SKIPPED)."""
    benched: frozenset[int] = frozenset()
    """Seats outside the deal in progress: late joiners not yet dealt in, and those who let
    their turn go and wait for the next deal (V8-JOIN-LATE-MISSED-TURN-WAIT)."""
    short_deal: bool = False
    """vvv8: the deal was short and completed, so a new deal may still be demanded
    (V8-MISDEAL-TOO-FEW-REDEAL-RIGHT)."""
    joining: frozenset[int] = frozenset()
    """Benched late joiners still entitled to step in when the turn reaches them
    (V8-JOIN-LATE-TAKE-FREE-SEAT)."""
    previous: int | None = None
    """The last spelförare before the current one."""
    talon_passes: int = 0
    """Times the talon has run out in this deal (V8-TALON-DRAWN-ONE-DECK)."""
    shuffles: int = 0
    """Random operations in this deal, so that each takes its own seed."""
    idle: int = 0
    """Consecutive turns in which nobody could lay or draw (VA-WIN-BLOCKED-DEAL-VOID)."""
    active_at_start: int = 0
    """Active players when the deal began (V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    winner: int | None = None
    loser: int | None = None
    record: Record = Record()
    vetoable: tuple[int, tuple[Card, ...]] | None = None
    """The seat and the penalty cards it has just taken, which the utgång callers may still veto
    (V8-PEN-VETO-RIGHT); cleared by the next action."""
    may_veto: frozenset[int] = frozenset()
    """The callers who may still veto the penalty in ``vetoable`` (V8-PEN-VETO-CONDITION): set
    as it is taken, and under veto_callers = all-callers narrowed by each veto until the last
    (V8-AMB-VETO-SEVERAL-CALLERS); empty when nothing is open to a veto."""

    def seat(self, name: str) -> int:
        """The seat of a player by name; ``ValueError`` if nobody has that name."""
        return self.players.index(name)

    @property
    def top(self) -> Card | None:
        """The card to play on, if any."""
        return self.pile[-1] if self.pile else None

    @property
    def in_deal(self) -> tuple[int, ...]:
        """Seats taking part in the current deal (not dropped out of the match)."""
        return tuple(s for s in range(len(self.players)) if s not in self.record.out)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """Deal the next deal: the draw for the deal (vvv8, first deal), shuffle, cut, deal, start."""

    def __repr__(self) -> str:
        return "Deal()"


@dataclass(frozen=True, slots=True, kw_only=True)
class NameSuit:
    """vvv8: the dealer names the starting suit on a start eight (``None``: he names none)."""

    player: int
    suit: Suit | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """Lay one or more cards, bottom first; ``suit`` is named with an eight.

    ``call`` is the going-out call said with the play (vvv8's utgång, only on a play that ends
    the turn; vandatta's LAPPEN is made by the engine when due, and ``call`` may confirm it);
    ``word`` is the word said as the call, ``None`` for the text's own word (accepted_calls
    decides which words count, V8-CALL-ALTERNATIVE-WORDS). ``leave``: should the play be a
    wrong card, the offender leaves the cards on the pile instead of taking them back (only
    under wrong_card_take_back = may-leave; V8-PEN-WRONG-CARD-TAKE-BACK).
    """

    player: int
    cards: tuple[Card, ...]
    suit: Suit | None = None
    call: bool = False
    word: str | None = field(default=None, repr=False)
    leave: bool = field(default=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """Draw one card from the stock (``call`` only where the draw ends the turn; ``word`` as
    for :class:`Play`)."""

    player: int
    call: bool = False
    word: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """End the turn without laying a card, after the draws the rules require (``call`` and
    ``word`` as for :class:`Play`)."""

    player: int
    call: bool = False
    word: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeapDay:
    """vvv8: a leap day has come; the scoring closes and the champion is named."""

    def __repr__(self) -> str:
        return "LeapDay()"


@dataclass(frozen=True, slots=True, kw_only=True)
class StepAway:
    """vvv8: a player leaves the table for a while, a phone call or a head of department
    (V8-PRESENCE-ABSENT-NOT-COUNTED-FOR-LOSER); not while he is spelförare."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Back:
    """vvv8: an absent player comes back to the table (V8-PRESENCE-MAY-RETURN)."""

    player: int


class RemarkKind(enum.Enum):
    """What a remark at the table tells, by kind, not by words (000 §3 ¶9)."""

    NEUTRAL = "neutral"
    """Tells nothing about any hand or the cards gone."""
    OBVIOUS = "obvious"
    """The obvious, said during the turn it is about: "no hearts, then!" as the spelförare
    draws rather than lay a heart on a heart (V8-PEN-COMMENT-OBVIOUS-ALLOWED)."""
    OBVIOUS_LATE = "obvious-late"
    """The obvious, said once the turn has passed on (V8-PEN-COMMENT-AFTER-TURN-FORBIDDEN)."""
    OTHER_HAND = "other-hand"
    """Tells what another player holds or lacks (V8-PEN-COMMENT-OFFENCE)."""
    OWN_HAND = "own-hand"
    """Tells about the speaker's own hand (V8-AMB-COMMENT-OWN-HAND)."""
    HISTORY = "history"
    """Tells about the spelförare's past turns (V8-PEN-COMMENT-HISTORY-FORBIDDEN)."""
    CARDS_GONE = "cards-gone"
    """Tells which cards have gone, such as aces (V8-PEN-COMMENT-CARDS-GONE-FORBIDDEN)."""

    def __repr__(self) -> str:
        return f"RemarkKind.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Remark:
    """vvv8: a player remarks on the game; ``truthful`` does not matter to the ruling."""

    player: int
    kind: RemarkKind
    truthful: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class LookBack:
    """vvv8: a player leafs back through the face-up pile, ``cards`` cards below the top.

    The pile does not record how its cards were laid in plays, so the question says how many
    cards the latest play laid (``latest_play``) and whether the look checks a bundle laid with
    only its top card showing (``checking_bundle``).
    """

    player: int
    cards: int
    latest_play: int = 1
    checking_bundle: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ForgetAbsentCard:
    """vvv8: drawing for an ace, a player forgets to take the card of an absent player who comes
    before him in turn (V8-PEN-ABSENT-ACE-CARD-FORGOTTEN)."""

    player: int
    absent: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HideBundle:
    """vvv8: the spelförare has laid several cards showing only the top one
    (V8-PLAY-NO-HIDDEN-BUNDLE)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Veto:
    """vvv8: an utgång caller vetoes the penalty cards just taken (V8-PEN-VETO-RIGHT)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealCall:
    """vvv8 under false_call_detection = when-revealed: ``player`` catches ``caller``'s utgång
    made without a real chance, or (``player == caller``) the caller owns up to it
    (V8-PEN-FALSE-CALL-CAUGHT, V8-PEN-FALSE-CALL-SELF-REPORT)."""

    player: int
    caller: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AskCount:
    """vvv8: ``player`` asks ``caller``, whose utgång stands, how many cards he has left
    (V8-CALL-CARD-COUNT-ON-DEMAND; card_count_scope says what the count includes)."""

    player: int
    caller: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SayUtgang:
    """vvv8: ``player`` says utgång on its own, not with the play, draw or pass that ends his
    own turn as spelförare: while drawing a card for another player's ace, say. It is never a
    call (V8-CALL-TIMING, V8-CALL-ACE-DRAW-NOT-SPELFORARE)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Stall:
    """vvv8: the dealer has kept the table waiting ``seconds`` for his choice of the starting
    suit on a start eight (V8-START-EIGHT-NO-STALLING; the table's limit, if any:
    V8-AMB-STALLING-LIMIT)."""

    player: int
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Withdrawn:
    """vvv8: ``action`` made with an utgång call taken back in the same breath
    (V8-PEN-FALSE-CALL-SAME-BREATH)."""

    action: Play | Draw | Pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Join:
    """vvv8: a newcomer who missed the draw for the deal sits down in a free seat, numbered
    ``seat`` (the players from that seat on move one seat up) (V8-JOIN-LATE-TAKE-FREE-SEAT)."""

    name: str
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StepIn:
    """vvv8: the late joiner, his turn come, takes his cards (V8-JOIN-LATE-CARDS-MOST-PLUS-ONE)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StayOut:
    """vvv8: the late joiner lets his turn go and waits for the next deal
    (V8-JOIN-LATE-MISSED-TURN-WAIT)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnSurplus:
    """vvv8: a player dealt too many hands ``cards``, the surplus, to the dealer
    (V8-MISDEAL-TOO-MANY-RETURN)."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Complete:
    """vvv8: the dealer puts a misdeal right: tops up short hands, or deals further rounds, and
    play starts (V8-MISDEAL-TOO-FEW-COMPLETE, V8-MISDEAL-ALL-SHORT-EXTRA-ROUNDS)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Redeal:
    """vvv8: a player demands a new deal after a short deal (V8-MISDEAL-TOO-FEW-REDEAL-RIGHT)."""

    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraCard:
    """vvv8: drawing for an ace, as a penalty or at a rebuild, a player takes one card too many
    (V8-PEN-OVERDRAW-ANY-DRAW)."""

    player: int


Action = (
    Deal
    | NameSuit
    | Play
    | Draw
    | Pass
    | LeapDay
    | StepAway
    | Back
    | Remark
    | LookBack
    | ForgetAbsentCard
    | HideBundle
    | Veto
    | RevealCall
    | AskCount
    | SayUtgang
    | Stall
    | Withdrawn
    | Join
    | StepIn
    | StayOut
    | ReturnSurplus
    | Complete
    | Redeal
    | ExtraCard
)
"""Every action of the engine: the moves of play, and (vvv8) what else happens at a real table."""
