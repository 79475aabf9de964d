"""``problems(state)``: every invariant a Viggo state breaks, in words.

Checked: the players; every card of the pack in exactly one place; the seats named; the draft's
alternation; every hand non-empty while tricks are played; the trick (one type throughout, every
reply beating what it covers under the options, the turn with someone who may act); the scores
(the sums of the rounds' points, nobody past the losing total while the game goes on); the
result (losers and winners named only at the end, each once, nobody as both, winners only where
the lowest total wins).
"""

from __future__ import annotations

import itertools

from regelverk.cards import french_deck, missing_and_extra
from regelverk.marks import implements
from regelverk.viggo.combos import beats, classify, describe
from regelverk.viggo.options import DraftDiscards, GameWinner, PassIsFinal
from regelverk.viggo.rounds import HAND_SIZE, hand_sizes, losers, sort_hand
from regelverk.viggo.state import Phase, ViggoState

__all__ = ["problems"]

_DECK = french_deck()


def problems(state: ViggoState) -> tuple[str, ...]:
    """Every invariant ``state`` breaks; empty for a sound state."""
    count = state.count
    if not 2 <= count <= 4:
        return (f"Viggo is played by two to four players, not {count}",)
    found = _seat_problems(state)
    if found:
        return tuple(found)
    found += _card_problems(state)
    found += _score_problems(state)
    found += _result_problems(state)
    if state.phase is Phase.DRAFT:
        found += _draft_problems(state)
    elif state.phase is Phase.PLAY:
        found += _play_problems(state)
    else:
        found += _over_problems(state)
    return tuple(found)


def _seat_problems(state: ViggoState) -> list[str]:
    count = state.count
    found = []
    if len(set(state.players)) != count or not all(state.players):
        found.append(f"the players {list(state.players)} must be named, each once")
    for name, seat in (
        ("turn", state.turn),
        ("dealer", state.dealer),
        ("first hand", state.first_hand),
    ):
        if not 0 <= seat < count:
            found.append(f"the {name} is seat {seat}, but the seats are 0 to {count - 1}")
    if not -1 <= state.highest < count:
        found.append(f"the seat that laid highest is {state.highest}, which is no seat")
    if any(not 0 <= s < count for s in state.passed) or any(
        not 0 <= laid.seat < count for laid in state.trick
    ):
        found.append("the trick names a seat that does not exist")
    if len(state.hands) != count or len(state.scores) != count:
        found.append(f"there must be one hand and one score for each of the {count} players")
    return found


def _card_problems(state: ViggoState) -> list[str]:
    zones = [
        *state.hands,
        state.stock,
        state.put_away,
        state.set_aside,
        *(laid.cards for laid in state.trick),
    ]
    missing, extra = missing_and_extra(_DECK, zones)
    found = []
    if missing:
        found.append(f"cards missing from the game: {describe(sort_hand(list(missing)))}")
    if extra:
        found.append(
            f"cards in more than one place (or not of the pack): {describe(sort_hand(list(extra)))}"
        )
    return found


def _score_problems(state: ViggoState) -> list[str]:
    found = []
    if any(s < 0 for s in state.scores):
        found.append(f"a score is negative: {list(state.scores)}")
    if state.history:
        sums = tuple(sum(row[s] for row in state.history) for s in range(state.count))
        if any(len(row) != state.count for row in state.history) or sums != state.scores:
            found.append(f"the scores {list(state.scores)} are not the sums of the rounds' points")
    if state.phase is not Phase.OVER and losers(state.options, state.scores, state.turn):
        found.append("a player has reached the losing total, yet the game goes on")
    return found


def _draft_problems(state: ViggoState) -> list[str]:
    found = []
    if state.count != 2:
        found.append("only a two-player game drafts its hands")
        return found
    first, second = state.first_hand, 1 - state.first_hand
    ahead = len(state.hands[first]) - len(state.hands[second])
    if ahead != (0 if state.turn == first else 1):
        found.append(
            "the draft is out of step: first hand draws first, and then the players alternate"
        )
    if all(len(h) >= HAND_SIZE for h in state.hands) or any(
        len(h) > HAND_SIZE for h in state.hands
    ):
        found.append("the hands hold thirteen cards each, yet the draft goes on")
    if len(state.stock) < 2:
        found.append("the stock has fewer than two cards, yet the draft goes on")
    if state.trick or state.set_aside:
        found.append("no card is played before the draft is over")
    return found


def _play_problems(state: ViggoState) -> list[str]:
    found = []
    largest = HAND_SIZE if state.count == 2 else max(hand_sizes(state.options, state.count))
    for seat, hand in enumerate(state.hands):
        if not hand:
            found.append(f"{state.players[seat]} has no cards, yet the round goes on")
        if len(hand) > largest:
            found.append(f"{state.players[seat]} holds {len(hand)} cards, more than dealt")
    keeps_stock = state.count == 2 and state.options.draft_discards is DraftDiscards.UNDER_STOCK
    if state.stock and not keeps_stock:
        found.append("there is a stock, but the draft is over")
    return found + _trick_problems(state)


def _trick_problems(state: ViggoState) -> list[str]:
    found: list[str] = []
    if not state.trick:
        if state.passed or state.highest != -1:
            found.append("nobody has led, yet someone has passed or laid highest")
        return found
    o = state.options
    combos = [classify(laid.cards, o) for laid in state.trick]
    for laid, combo in zip(state.trick, combos, strict=True):
        if combo is None:
            found.append(f"{describe(laid.cards)} in the trick is no combination")
    if found:
        return found
    if len({c.kind for c in combos if c is not None}) > 1:
        found.append("the trick mixes types of combination")
        return found
    for (old, new), laid in zip(itertools.pairwise(combos), state.trick[1:], strict=True):
        assert old is not None and new is not None
        verdict = beats(new, old, o)
        if not verdict.allowed:
            found.append(f"{describe(laid.cards)} does not beat what it covers: {verdict.reason}")
    top = state.trick[-1].seat
    if state.highest not in {laid.seat for laid in state.trick}:
        found.append("the seat that laid highest has laid nothing in the trick")
    if top in state.passed:
        found.append("the player whose combination lies on top has passed")
    if state.turn == top:
        found.append("the turn is with the player whose combination lies on top")
    if state.turn in state.passed and o.pass_is_final is PassIsFinal.FINAL:
        found.append("the turn is with a player who has passed, and a pass is final")
    return found


def _over_problems(state: ViggoState) -> list[str]:
    if not state.losers:
        return ["the game is over, but nobody has lost"]
    limit = state.options.loss_points
    late = [state.players[s] for s in state.losers if state.scores[s] < limit]
    return [f"{', '.join(late)} lost with fewer than {limit} points"] if late else []


@implements("VG-WIN-GAME-LOSER-ONLY", "VG-LOSS-FIRST-TO-53")
def _result_problems(state: ViggoState) -> list[str]:
    """Losers and winners of the game are named only once it is over, each once, nobody as
    both; a winner only where the lowest total wins, and then every lowest total among those
    who did not lose, and no other (VG-WIN-GAME-LOSER-ONLY, VG-AMB-GAME-WINNER). Stated from
    the rules, not from the engine's own ``game_winners``."""
    found = []
    losers, winners = state.losers, state.winners
    if state.phase is not Phase.OVER and (losers or winners):
        found.append("a loser or winner of the game is named before the game is over")
    if len(set(losers)) != len(losers) or len(set(winners)) != len(winners):
        found.append("a player is named twice among the losers or the winners")
    both = sorted(set(losers) & set(winners))
    if both:
        names = ", ".join(state.players[s] for s in both if 0 <= s < state.count)
        found.append(f"{names} both won and lost the game")
    if state.phase is Phase.OVER:
        if state.options.game_winner is GameWinner.LOSER_ONLY and winners:
            found.append("a winner of the game is named, but the game names its loser only")
        if state.options.game_winner is GameWinner.LOWEST_TOTAL_WINS:
            rest = [t for s, t in enumerate(state.scores) if s not in losers] or [0]
            low = min(rest)
            lowest = {s for s, t in enumerate(state.scores) if t == low and s not in losers}
            if set(winners) != lowest:
                found.append(f"the winners of the game are not the lowest totals ({low} points)")
    return found
