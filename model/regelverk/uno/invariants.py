"""The invariants of an UNO state: what every state the engine makes must satisfy, in words.

:func:`problems` lists every invariant a state breaks (empty for a sound state). The engine's
``Game.problems`` and every position a question gives are checked with it; the state machine
tests check it after every step.
"""

from __future__ import annotations

import functools
from collections import Counter

from regelverk.cards import UnoCard, UnoValue, missing_and_extra, uno_card_keys
from regelverk.uno.options import FirstWildChooser, FirstWildPlay, UnoOptions
from regelverk.uno.rules import COLOUR_NAMES, deck_for
from regelverk.uno.state import Phase, UnoState

__all__ = ["problems"]


def _listing(counter: Counter[UnoCard]) -> str:
    return " ".join(sorted(c.code for c in counter.elements()))


def _wild_start_allowed(state: UnoState) -> bool:
    options = state.options
    return (
        len(state.discard) == 1
        and options.first_wild_play is FirstWildPlay.PLAY_WITHOUT_NAMING
        and options.first_wild_chooser is FirstWildChooser.FIRST_PLAYER
    )


@functools.cache
def _deck_keys(size: int) -> list[int]:
    return uno_card_keys([deck_for(UnoOptions(deck=size))])


@functools.lru_cache(maxsize=64)
def _seating_problems(players: tuple[str, ...]) -> tuple[str, ...]:
    """What is wrong with the seating (asked once per seating: it never changes in a game)."""
    found = []
    n = len(players)
    if not 2 <= n <= 10:
        found.append(f"UNO is for 2 to 10 players, not {n}")
    if len(set(players)) != n:
        found.append("two players have the same name")
    return tuple(found)


def problems(state: UnoState) -> tuple[str, ...]:
    """Every invariant ``state`` breaks, in words; empty for a sound state."""
    found = list(_seating_problems(state.players))
    n = len(state.players)
    if len(state.hands) != n or len(state.scores) != n:
        found.append("there must be one hand and one score for every player")
        return tuple(found)
    zones = [*state.hands, state.draw_pile, state.discard]
    if uno_card_keys(zones) != _deck_keys(state.options.deck):
        missing, extra = missing_and_extra(deck_for(state.options), zones)
        if missing:
            found.append(f"cards missing from the table: {_listing(missing)}")
        if extra:
            found.append(f"cards on the table that the pack has not (or twice): {_listing(extra)}")
    if not state.discard:
        found.append("the discard pile is empty: there is no top card")
        return tuple(found)
    for label, seat in (("dealer", state.dealer), ("turn", state.turn)):
        if not 0 <= seat < n:
            found.append(f"the {label} is seat {seat}, but the seats are 0 to {n - 1}")
    if not 0 <= state.turn < n:
        return tuple(found)
    found += _phase_problems(state)
    found += _colour_problems(state)
    found += _score_problems(state)
    if state.exposed is not None and (
        not 0 <= state.exposed < n or len(state.hands[state.exposed]) != 1
    ):
        found.append("a player can be caught without UNO only while he holds exactly one card")
    return tuple(found)


def _phase_problems(state: UnoState) -> list[str]:
    found: list[str] = []
    phase, top, n = state.phase, state.top, len(state.players)
    if (state.wild_draw_four is not None) != (phase is Phase.CHALLENGE):
        found.append("a Wild Draw Four waits for an answer exactly in the challenge phase")
    if (state.drawn is not None) != (phase is Phase.DRAWN):
        found.append("a drawn card is waiting exactly in the drawn phase")
    if (state.after is not None) != (phase is Phase.NAME_COLOUR):
        found.append("a next player after naming the colour is set exactly in that phase")
    if (state.pending_draw != 0) != (phase is Phase.STACK):
        found.append("cards are owed by stacking exactly in the stack phase")
    if phase is Phase.CHALLENGE and state.wild_draw_four is not None:
        if top.value is not UnoValue.WILD_DRAW_FOUR:
            found.append("a Wild Draw Four waits for an answer, but it is not the top card")
        if state.turn != (state.wild_draw_four.player + state.direction) % n:
            found.append("only the player next after the Wild Draw Four's player may answer it")
        if len(state.discard) < 2:
            found.append(
                "a Wild Draw Four waits for an answer but lies on no card: one turned up first "
                "goes back into the pack (UNO-FIRST-CARD-WD4-REDRAW)"
            )
    if phase is Phase.STACK and (
        not state.options.stack_draw_two
        or top.value is not UnoValue.DRAW_TWO
        or state.pending_draw % 2
    ):
        found.append("cards owed by stacking need the house rule and a Draw Two on top")
    if (
        phase is Phase.DRAWN
        and state.drawn is not None
        and state.drawn not in state.hands[state.turn]
    ):
        found.append(f"the drawn card {state.drawn} is not in the hand of the player in turn")
    if phase is Phase.NAME_COLOUR and top.colour is not None:
        found.append("a colour is to be named, but the top card is not a wild card")
    return found + _empty_hand_problems(state)


def _empty_hand_problems(state: UnoState) -> list[str]:
    found: list[str] = []
    if all(state.hands):  # nobody's hand is empty
        return found
    phase = state.phase
    empty = [s for s, h in enumerate(state.hands) if not h]
    allowed_empty = set()
    if phase is Phase.CHALLENGE and state.wild_draw_four is not None:
        allowed_empty.add(state.wild_draw_four.player)
    if phase is Phase.GAME_OVER and len(empty) == 1:
        allowed_empty.add(empty[0])
    if any(s not in allowed_empty for s in empty):
        found.append("a player holds no cards, yet the hand has not been scored")
    return found


def _colour_problems(state: UnoState) -> list[str]:
    top, colour = state.top, state.colour
    problem = None
    if state.phase is Phase.GAME_OVER:
        pass
    elif top.colour is not None:
        if colour is not top.colour:
            problem = f"the current colour must be {COLOUR_NAMES[top.colour]}, the top card's"
    elif state.phase is Phase.NAME_COLOUR:
        if colour is not None:
            problem = "a colour is in force though it has still to be named"
    elif colour is None and not _wild_start_allowed(state):
        problem = "a wild card is on top but no colour has been named"
    return [problem] if problem else []


def _score_problems(state: UnoState) -> list[str]:
    found: list[str] = []
    n, target = len(state.players), state.options.target_score
    if any(len(row) != n for row in state.results):
        found.append("every hand's result must give points for every player")
        return found
    sums = tuple(map(sum, zip(*state.results, strict=True))) if state.results else (0,) * n
    if sums != state.scores:
        found.append(f"the scores {list(state.scores)} are not the sums of the hands' points")
    if any(s < 0 for s in state.scores):
        found.append("a score is negative")
    over = state.phase is Phase.GAME_OVER
    if over and (not state.winners or max(state.scores) < target):
        found.append("the game is over, but nobody has reached the target or won")
    if not over and (state.winners or max(state.scores) >= target):
        found.append(f"a player has reached {target} points, but the game goes on")
    return found
