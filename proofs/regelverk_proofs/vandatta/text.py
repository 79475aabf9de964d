"""Vändåtta's small tables as the encodings read them: derived from ``spec/`` and written from
the texts, never taken from the engine.

The Vändåtta encodings need a few rule functions the engine also has: how many talon passes
draw a coffee-break deal (``rules.drawn_deal_passes``), which clauses such a drawn deal cites
(``rules.drawn_deal_clauses``), which words count as the going-out call (``rules.call_heard``),
how many decks a table uses (``setup.deck_count``), what each card scores
(``scoring.card_points``) and how many cards a late joiner gets beyond the most anyone holds
(``join.EXTRA_CARDS``). Importing them would let a wrong engine function make its binding agree
with itself; so each is written here from the clause parameters, and the binding
``vandatta.text-tables`` (in :mod:`regelverk_proofs.vandatta.binding.end`) compares every one with
the engine's over every value of the options it reads.
"""

from __future__ import annotations

from typing import assert_never

from regelverk.cards import Rank
from regelverk.registry import parameter, registry_for
from regelverk.vandatta.options import (
    AcceptedCalls,
    DeckSetup,
    GoOutCall,
    MaxPlayersFreeTime,
    TalonPassCount,
    VandattaOptions,
)

__all__ = [
    "CALL_WORDS",
    "EXTRA_CARDS",
    "WINNER_POINTS",
    "call_heard",
    "card_points",
    "deck_count",
    "drawn_deal_clauses",
    "drawn_deal_passes",
    "rank_points",
]

EXTRA_CARDS = parameter("V8-JOIN-LATE-CARDS-MOST-PLUS-ONE", "extra_cards")
"""Cards a late joiner is dealt beyond the most anyone holds (V8-JOIN-LATE-CARDS-MOST-PLUS-ONE)."""
WINNER_POINTS = parameter("VA-SCORING-WINNER-ZERO", "winner_points")
"""What the winner of a deal scores (VA-SCORING-WINNER-ZERO)."""
_PASSES = {
    1: parameter("V8-TALON-DRAWN-ONE-DECK", "talon_passes"),
    2: parameter("V8-TALON-DRAWN-TWO-DECKS", "talon_passes"),
}
"""Talon passes that draw a coffee-break deal, by decks (V8-TALON-DRAWN-ONE-DECK, -TWO-DECKS)."""
_TWO_DECKS_FROM = parameter("V8-SETUP-TWO-DECKS-FOUR-PLUS", "min_players")
"""vvv8's table size from which two decks are used (V8-SETUP-TWO-DECKS-FOUR-PLUS)."""
_TWO_DECKS_FOR_MANY_FROM = 5
"""The two-decks-for-many reading of VA-AMB-PLAYERS-AND-DECKS: one deck up to four players,
two from five."""


def _words() -> tuple[str, ...]:
    clause = registry_for("V8-CALL-ALTERNATIVE-WORDS").clause("V8-CALL-ALTERNATIVE-WORDS")
    words = dict(clause.parameters)["accepted_calls"]
    assert isinstance(words, tuple)
    return tuple(str(w) for w in words)


CALL_WORDS = _words()
"""The going-out words the text names (V8-CALL-ALTERNATIVE-WORDS)."""
_ASCII = {"å": "a", "ä": "a", "ö": "o"}


def _plain(word: str) -> str:
    """A word as said: case, surrounding spaces and a closing ! or . do not matter."""
    return word.strip().strip("!.").strip().casefold()


def call_heard(options: VandattaOptions, word: str | None) -> bool:
    """Whether ``word`` counts as the going-out call (V8-CALL-ALTERNATIVE-WORDS, the reading of
    V8-AMB-CALL-WORDS): the call as the text writes it (``None``) always; under
    listed-and-agreed the text's words (also spelt without Swedish letters) and the words the
    table agreed; under any-clear-warning any word."""
    match options.accepted_calls:
        case AcceptedCalls.ANY_CLEAR_WARNING:
            return True
        case AcceptedCalls.LISTED_AND_AGREED:
            pass
        case _:
            assert_never(options.accepted_calls)
    if word is None:
        return True
    said = _plain(word)
    listed = {_plain(w) for w in CALL_WORDS}
    listed |= {"".join(_ASCII.get(ch, ch) for ch in w) for w in listed}
    return said in listed or said in {_plain(w) for w in options.agreed_calls}


def drawn_deal_passes(options: VandattaOptions, decks: int) -> int:
    """The talon passes that draw a coffee-break deal with ``decks`` decks; under
    talon_pass_count = rebuilds the first talon is not counted, so one pass more."""
    limit = _PASSES[1 if decks == 1 else 2]
    match options.talon_pass_count:
        case TalonPassCount.EXHAUSTIONS:
            return limit
        case TalonPassCount.REBUILDS:
            return limit + 1
        case _:
            assert_never(options.talon_pass_count)


def drawn_deal_clauses(options: VandattaOptions) -> tuple[str, ...]:
    """The clauses a deal drawn after talon passes cites: vvv8's coffee-break rule, or on a
    vandatta table (the LAPPEN call) the stock rebuild whose repetition the limit stops."""
    match options.go_out_call:
        case GoOutCall.LAPPEN:
            return ("VA-DRAW-STOCK-REBUILD", "VA-TURN-PLAY-UNTIL-OUT")
        case GoOutCall.UTGANG:
            return (
                "V8-TALON-DRAWN-ONE-DECK",
                "V8-TALON-DRAWN-TWO-DECKS",
                "V8-TALON-DRAWN-ONLY-IN-COFFEE-BREAK",
            )
        case _:
            assert_never(options.go_out_call)


def deck_count(options: VandattaOptions, players: int) -> int:
    """Decks for ``players`` (VA-AMB-PLAYERS-AND-DECKS, V8-SETUP-TWO-DECKS-FOUR-PLUS): one, or
    two from the table size the reading names; under max_players_free_time = add-decks
    (V8-AMB-MANY-PLAYERS) at least as many 52-card decks as every hand and the start card
    need."""
    match options.deck_setup:
        case DeckSetup.ONE_DECK:
            decks = 1
        case DeckSetup.TWO_FROM_FOUR:
            decks = 2 if players >= _TWO_DECKS_FROM else 1
        case DeckSetup.TWO_DECKS_FOR_MANY:
            decks = 2 if players >= _TWO_DECKS_FOR_MANY_FROM else 1
        case _:
            assert_never(options.deck_setup)
    match options.max_players_free_time:
        case MaxPlayersFreeTime.DECK_CAPACITY:
            return decks
        case MaxPlayersFreeTime.ADD_DECKS:
            return max(decks, -(-(options.hand_size * players + 1) // _PACK))
        case _:
            assert_never(options.max_players_free_time)


_PACK = parameter("V8-SETUP-NO-JOKERS", "cards_per_deck")
"""Cards in one deck, jokers out (V8-SETUP-NO-JOKERS)."""


_COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


def rank_points(rank: Rank) -> int:
    """What a card of ``rank`` left in hand scores (VA-SCORING-TEN, -ACE, -COURT, -EIGHT,
    -OTHER)."""
    if rank is Rank.TEN:
        return parameter("VA-SCORING-TEN", "ten_points")
    if rank is Rank.ACE:
        return parameter("VA-SCORING-ACE", "ace_points")
    if rank in _COURTS:
        return parameter("VA-SCORING-COURT", "court_points")
    if rank is Rank.EIGHT:
        return parameter("VA-SCORING-EIGHT", "eight_points")
    return parameter("VA-SCORING-OTHER", "other_points")


def card_points(ranks: tuple[Rank, ...]) -> int:
    """What cards of these ranks left in hand score together."""
    return sum(rank_points(r) for r in ranks)
