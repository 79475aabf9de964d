"""The listing binding of the Vändåtta card theorems: the engine's whole action space of moves of
play, in built positions, against the encoding of :mod:`regelverk_proofs.vandatta.encoding.play`.

The moves-of-play binding (:func:`~regelverk_proofs.vandatta.binding.cards.moves_binding`) decides
a spread of candidate moves in the positions of seeded games, and compares ``legal_actions`` for
single cards, draws and passes without a call only. This binding walks a small universe of
positions built where the rules of the listing are easy to get wrong (cards of one rank laid
together in every order, a chain, a last card onto an ace or an eight, a draw said with the
call, a lone ace or eight with penalty cards locked where only a draw is left, vandatta's calls
left to the player or made for him), each with a hand of at most
:data:`MOST_HELD` cards, and tries *every* move of play of the spelförare:

* every ordered choice of one or more different cards of the hand, an eight's play with each
  suit named and with none, each with and without the call;
* a draw and a pass, each with and without the call.

For each it compares the engine's ``check`` with the encoding's
:func:`~regelverk_proofs.vandatta.encoding.play.allowed`, and whether ``legal_actions`` lists it
with what the listing must show: every move ``check`` allows, except a vandatta call the engine
makes for the player (lappen_omission = enforce-no-penalty and varning_omission other than
three-cards, VA-CALL-LAPPEN-ENFORCED, VA-CALL-VARNING-ENFORCED), which is never listed, and a
chain of cards of more than one rank (multi_card_play = chain), which is checked, never
listed. And it compares the listing as a whole: every move of play it lists is one of the
candidates (the hands are small enough that the candidates are the whole action space of moves
of play).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from itertools import permutations
from typing import Any

from regelverk.cards import Rank, Suit
from regelverk.engine import is_allowed
from regelverk.vandatta import GAME
from regelverk.vandatta.options import (
    VANDATTA,
    VVV8,
    GoOutCall,
    GoOutOn,
    LappenOmission,
    LastHandCardLocked,
    MultiCard,
    MultiCardPlay,
    PlayAfterThirdDraw,
    VandattaOptions,
    VarningOmission,
    VarningTrigger,
    VoluntaryDraw,
)
from regelverk.vandatta.state import Draw, Pass, Play, State
from regelverk_proofs.binding import Binding, Comparison
from regelverk_proofs.vandatta.binding.cards import NO_ANSWER, encoding_allows
from regelverk_proofs.z3api import Verdict

__all__ = [
    "LISTING_KINDS",
    "MOST_HELD",
    "VANDATTA_LISTING",
    "VVV8_LISTING",
    "candidates",
    "listing_binding",
    "positions",
]

MOST_HELD = 4
"""The most cards a built position's spelförare holds, so that every ordered choice of his
cards is a candidate."""

LISTING_KINDS: tuple[str, ...] = (
    *(
        f"{what}-{verdict}"
        for what in ("single", "several", "call", "draw", "pass")
        for verdict in ("allowed", "refused")
    ),
    "listing",
)
"""The kinds of case compared: a move of play (a call, in this order of precedence, then a
draw, a pass, several cards, one card) with the engine's verdict; and a position's listing as a
whole."""

Move = Play | Draw | Pass


def candidates(state: State) -> list[Move]:
    """Every move of play of the spelförare (see the module's docstring)."""
    seat = state.turn
    hand = state.hands[seat]
    found: list[Move] = []
    for size in range(1, len(hand) + 1):
        for cards in dict.fromkeys(permutations(hand, size)):
            suits: tuple[Suit | None, ...] = (
                (None, *Suit) if cards[0].rank is Rank.EIGHT else (None,)
            )
            for suit in suits:
                for call in (False, True):
                    found.append(Play(player=seat, cards=cards, suit=suit, call=call))
    for call in (False, True):
        found += [Draw(player=seat, call=call), Pass(player=seat, call=call)]
    return found


def _player_calls(options: VandattaOptions) -> bool:
    """Whether a call is the player's own to say, so that the listing shows a move with and
    without it: always under utgång (V8-CALL-TIMING); under LAPPEN where a forgotten call is
    not made for him (lappen_omission other than enforce-no-penalty, or varning_omission =
    three-cards)."""
    return options.go_out_call is GoOutCall.UTGANG or (
        options.lappen_omission is not LappenOmission.ENFORCE_NO_PENALTY
        or options.varning_omission is VarningOmission.THREE_CARDS
    )


def _chain(state: State, action: Move) -> bool:
    """A play of cards of more than one rank under multi_card_play = chain, which ``check``
    judges and ``legal_actions`` does not list (it lists the plays of one rank only: a chain's
    orders are too many, V8-AMB-MULTI-CARD-CHAIN)."""
    return (
        isinstance(action, Play)
        and state.options.multi_card_play is MultiCardPlay.CHAIN
        and len({c.rank for c in action.cards}) > 1
    )


def _kind(action: Move, verdict: bool) -> str:
    what = "single"
    if action.call:
        what = "call"
    elif isinstance(action, Draw):
        what = "draw"
    elif isinstance(action, Pass):
        what = "pass"
    elif len(action.cards) > 1:
        what = "several"
    return f"{what}-{'allowed' if verdict else 'refused'}"


def compare_position(label: str, state: State) -> Iterator[Comparison]:
    """Every candidate move of ``state``: ``check``, the encoding and the listing; then the
    listing as a whole."""
    listed = frozenset(a for a in GAME.legal_actions(state) if isinstance(a, Play | Draw | Pass))
    moves = candidates(state)
    own = _player_calls(state.options)
    for action in moves:
        engine = is_allowed(GAME, state, action)
        verdict = encoding_allows(state, action)
        problems = []
        if verdict is Verdict.UNKNOWN:
            problems.append(NO_ANSWER)
        elif (verdict is Verdict.SAT) != engine:
            problems.append(f"the encoding {'allows' if verdict is Verdict.SAT else 'refuses'} it")
        listable = engine and (own or not action.call) and not _chain(state, action)
        if (action in listed) != listable:
            problems.append(
                "legal_actions lists it" if action in listed else "legal_actions leaves it out"
            )
        detail = (
            f"{label}: {action!r} ({'allowed' if engine else 'refused'} by check): "
            f"{'; '.join(problems)}"
        )
        yield Comparison(_kind(action, engine), not problems, detail)
    extra = listed - frozenset(moves)
    shown = ", ".join(repr(a) for a in sorted(extra, key=repr)[:3])
    yield Comparison("listing", not extra, f"{label}: legal_actions lists {shown}, no candidate")


def _position(options: VandattaOptions, hand: str, pile: str, **fields: Any) -> State:
    """Ann to play holding ``hand`` on ``pile`` (cards separated by spaces), Bo and Cy holding
    what no move of Ann's looks at."""
    data: dict[str, Any] = {
        "players": ["Ann", "Bo", "Cy"],
        "hands": {"Ann": hand.split(), "Bo": ["2D", "3D"], "Cy": ["2H", "3H", "4H"]},
        "pile": pile.split(),
        **fields,
    }
    return GAME.position_from_data(data, options)


def _v8(**changes: Any) -> VandattaOptions:
    return dataclasses.replace(VVV8, **changes)


def _va(**changes: Any) -> VandattaOptions:
    return dataclasses.replace(VANDATTA, **changes)


def vvv8_positions() -> Iterator[tuple[str, State]]:
    """vvv8: four cards of one rank (every order of the middle cards, V8-PLAY-RANK-THEN-SAME-
    RANK-FREE-ORDER); a chain; a last card laid onto an ace and onto an eight, with the call
    standing, under both readings of go_out_on (V8-WIN-LAST-CARD-NOT-ACE-OR-EIGHT); a draw
    that ends the turn, with a real chance after it (V8-CALL-TIMING), under both readings of
    play_after_third_draw; an eight and an ace among plain cards; the draws used up; the hand's
    last card (an ace, an eight, a plain card) with penalty cards locked under voluntary_draw =
    only-when-stuck and last_hand_card_locked = treated-as-going-out, where laying a lone ace or
    eight is a going out attempt, so the spelförare has no card to lay and may draw
    (V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS, VA-DRAW-WHEN-STUCK)."""
    # utgång called: the four go out together, so every order of them is a play
    yield "vvv8, four of one rank", _position(VVV8, "5C 5D 5H 5S", "9C 7C", calls=["Ann"])
    chain = _v8(multi_card_play=MultiCardPlay.CHAIN)
    yield "vvv8, a chain", _position(chain, "6C 6D 9D 9H", "9C 7C")
    for go_out_on in GoOutOn:
        o = _v8(go_out_on=go_out_on)
        on = go_out_on.value
        yield f"vvv8, out onto an ace ({on})", _position(o, "5C", "9C AC", calls=["Ann"])
        yield (
            f"vvv8, out onto an eight ({on})",
            _position(o, "5H", "9C 8S", calls=["Ann"], named_suit="H"),
        )
        yield f"vvv8, two left onto an ace ({on})", _position(o, "5C 5D", "9C AC", calls=["Ann"])
    for after in PlayAfterThirdDraw:
        o = _v8(play_after_third_draw=after, max_draws=2)
        yield (
            f"vvv8, last draw ({after.value})",
            _position(o, "5C 5D", "9S KS", draws=1, stock=["5H"]),
        )
    yield "vvv8, an eight and an ace", _position(VVV8, "8H AC 5C", "9D KC")
    yield "vvv8, draws used up", _position(VVV8, "5C 9H", "9S KS", draws=3, calls=["Ann"])
    # the hand's last card, with penalty cards locked, is a going out attempt: a lone ace or
    # eight is no card to lay, so the draw stays open (V8-PEN-LAST-HAND-CARD-WITH-LOCKED-CARDS,
    # VA-DRAW-WHEN-STUCK)
    stuck = _v8(
        voluntary_draw=VoluntaryDraw.ONLY_WHEN_STUCK,
        last_hand_card_locked=LastHandCardLocked.TREATED_AS_GOING_OUT,
    )
    for last in ("AC", "8S", "5C"):
        yield (
            f"vvv8, last hand card {last} with penalty cards locked",
            _position(stuck, last, "9D KC", penalties={"Ann": ["6S", "7S", "9S"]}),
        )
    # a failed going out earlier this turn: its three cards are owed until he hands the turn
    # on, so he cannot go out again (a lone ace is a plain ace) nor call (two fives)
    # (V8-PEN-OUT-ON-EIGHT-OR-ACE-NOT-OUT, V8-PEN-OUT-ON-EIGHT-OR-ACE-NO-CALL)
    owing = {"Ann": [{"cards": [], "owed": 3}]}
    for hand in ("AC", "5C 5D"):
        yield (
            f"vvv8, owing a failed going out's cards, holding {hand}",
            _position(VVV8, hand, "9C 7C", calls=["Ann"], penalties=owing),
        )


def vandatta_positions() -> Iterator[tuple[str, State]]:
    """vandatta: four cards of one rank (VA-PLAY-SEVERAL-SAME-RANK); LAPPEN made for the player
    and left to him (VA-CALL-LAPPEN); varning said by the player (varning_omission =
    three-cards) under every varning_trigger, with hands of four (but at-or-below), three and no
    cards (VA-CALL-VARNING)."""
    first_rank = _va(multi_card=MultiCard.FIRST_CARD_RANK)
    yield "vandatta, four of one rank", _position(first_rank, "5C 5D 5H 5S", "9C 7C")
    yield "vandatta, three on their rank", _position(VANDATTA, "5C 5D 5S 9D", "9C 5H")
    for omission in (LappenOmission.ENFORCE_NO_PENALTY, LappenOmission.NO_GO_OUT):
        o = _va(lappen_omission=omission)
        yield f"vandatta, LAPPEN ({omission.value})", _position(o, "5C 9C", "9D 7D")
    for trigger in VarningTrigger:
        o = _va(varning_omission=VarningOmission.THREE_CARDS, varning_trigger=trigger)
        on = trigger.value
        if trigger is not VarningTrigger.AT_OR_BELOW:  # its three and two: the hand of three
            yield f"vandatta, varning from four ({on})", _position(o, "5C 5D 9C 2C", "9D 7D")
        yield f"vandatta, varning from three ({on})", _position(o, "5C 6C 9H", "9D 7D")
        yield f"vandatta, no cards ({on})", _position(o, "", "9D 7D", draws=3)


def positions(rulebook: str) -> Iterator[tuple[str, State]]:
    """The built positions of ``rulebook``."""
    for label, state in vvv8_positions() if rulebook == "vvv8" else vandatta_positions():
        if len(state.hands[state.turn]) > MOST_HELD:
            raise ValueError(f"{label}: the spelförare holds more than {MOST_HELD} cards")
        yield label, state


def _compare(rulebook: str) -> Iterator[Comparison]:
    for label, state in positions(rulebook):
        try:
            yield from compare_position(label, state)
        except Exception as error:
            yield Comparison("listing", False, f"{label}: the engine raised {error!r}")


_LISTING_CLAIMED = {"vvv8": 483, "vandatta": 678}
"""The cases each rulebook's built positions give (fixed: the positions are built, and every
candidate is compared)."""


def listing_binding(rulebook: str) -> Binding:
    """The whole action space of moves of play of ``rulebook``'s built positions, engine
    (``check``, ``legal_actions``) against encoding."""
    return Binding(
        name=f"{rulebook}.cards.listing",
        statement=(
            f"In built {rulebook} positions where the listing is easy to get wrong (cards of "
            "one rank laid together, "
            + (
                "a chain, a last card onto an ace or an eight under both readings of go_out_on, "
                "a draw said with utgång as the last draw, an eight and an ace among plain cards, "
                "a lone ace, eight or plain card with penalty cards locked under voluntary_draw = "
                "only-when-stuck and last_hand_card_locked = treated-as-going-out, a lone ace and "
                "two fives of a player who owes the extra cards of a failed going out"
                if rulebook == "vvv8"
                else "LAPPEN made for the player and left to him, varning said by the player "
                "under every varning_trigger, down to an empty hand"
            )
            + f"), each hand of at most {MOST_HELD} cards: every move of play (every ordered "
            "choice of the hand's cards, an eight with each suit and none, a draw and a pass, "
            "each with and without the call) is allowed by the engine's check exactly when the "
            "encoding of vandatta_cards_play allows it, legal_actions lists exactly those "
            "allowed (a vandatta call the engine makes for the player never), and lists no "
            "other move of play."
        ),
        kinds=LISTING_KINDS,
        compare=lambda: _compare(rulebook),
        claims=_LISTING_CLAIMED[rulebook],
    )


VVV8_LISTING = listing_binding("vvv8")
"""vvv8's built positions, the whole listing against check and the encoding."""
VANDATTA_LISTING = listing_binding("vandatta")
"""vandatta's built positions, the whole listing against check and the encoding."""
