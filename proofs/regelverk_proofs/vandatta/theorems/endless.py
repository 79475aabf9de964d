"""A vandatta deal that never ends: a lasso found by Z3 and replayable in the engine.

Under the ``vandatta`` preset (every ambiguity at its register default) a deal need not end.
Two players hold cards that can never be laid on what they meet: Ann the clubs, diamonds and
spades of ranks 2 to 7, Bo those of ranks 9 to ace. The sixteen other cards (the hearts and the
eights) circulate: a stuck player draws (VA-DRAW-WHEN-STUCK), the card he draws fits and must be
laid (VA-DRAW-PLAY-DRAWN), an eight turns the pile away and its player names hearts and starts
again (VA-EIGHT-TURNS-PILE, VA-TURN-RESTART-FALLBACK), the heart ace makes the other draw one card
(VA-ACE-OTHERS-DRAW). Ann only ever lays hearts of ranks 2 to 7, which Bo's cards never fit, and
Bo only hearts of ranks 9 to king, which Ann's never fit. When the stock is used up it is made
again by shuffling (VA-DRAW-STOCK-REBUILD), and one order the shuffle can produce is the one
that deals the hearts out again in the same pattern: after two rebuilds the position is the one
it started from, and nobody is ever out.

The encoding (:mod:`regelverk_proofs.vandatta.encoding.endless`, whose names are importable from
here too) is card by card for the sixteen cards that move, every other card staying in the hand
it is in; the moves searched are single-card plays, draws and passes, each with the engine's own
guard, and the shuffles' outcomes are Z3's to choose. The binding
(:mod:`regelverk_proofs.vandatta.binding.endless`) holds its step relation to the engine and
replays the witness there.
"""

from __future__ import annotations

from collections.abc import Sequence

from regelverk.cards import Card
from regelverk_proofs.query import Scenario
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.vandatta.binding.endless import ENDLESS_KINDS, ENDLESS_STEPS
from regelverk_proofs.vandatta.encoding.endless import (
    ANN_DEAD,
    BO_DEAD,
    CARDS,
    DRAW,
    INDEX,
    LIVE,
    LOOP,
    LOOP_LAID,
    PASS,
    PILE,
    PLAY,
    PLAYERS,
    TURNED,
    Abstract,
    Lasso,
    Moment,
    Move,
    Setting,
    Step,
    abstract,
    deal_position,
    decide_step,
    find_lasso,
    first_drawn_unshuffled,
    one_step,
    stem,
    witness,
)
from regelverk_proofs.z3api import Verdict

__all__ = [
    "ANN_DEAD",
    "BO_DEAD",
    "CARDS",
    "DRAW",
    "ENDLESS_KINDS",
    "LIVE",
    "LOOP",
    "LOOP_LAID",
    "PASS",
    "PILE",
    "PLAY",
    "PLAYERS",
    "SCENARIOS",
    "THEOREMS",
    "TURNED",
    "Abstract",
    "Lasso",
    "Moment",
    "Move",
    "Setting",
    "Step",
    "abstract",
    "deal_position",
    "decide_step",
    "find_lasso",
    "first_drawn_unshuffled",
    "one_step",
    "render",
    "stem",
    "witness",
]


def _show(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _render_step(step: Step) -> str:
    name, other = PLAYERS[step.player], PLAYERS[1 - step.player]
    if step.kind == PASS:
        return f"{name} passes"
    if step.kind == DRAW:
        text = f"{name} draws {step.card}"
        if step.rebuild is not None:
            text = (
                f"the stock is used up and shuffled again, coming up {_show(step.rebuild)}; " + text
            )
        return text
    text = f"{name} lays {step.card}"
    if step.suit is not None:
        text += f", turns the pile away and names {step.suit.name.lower()}"
    if step.extra is not None:
        text += f"; {other} draws {step.extra} for the ace"
        if step.rebuild is not None:
            text += f" (the stock made again, coming up {_show(step.rebuild)})"
    return text


def render(lasso: Lasso) -> str:
    """The witness in words: the hands, where the loop starts, every action and shuffle."""
    pile = sorted(
        (c for c, z in lasso.zones.items() if z == PILE and c != lasso.top), key=INDEX.__getitem__
    )
    turned = sorted((c for c, z in lasso.zones.items() if z == TURNED), key=INDEX.__getitem__)
    lines = [
        f"Two players, {PLAYERS[0]} and {PLAYERS[1]}, one deck, the vandatta preset.",
        f"{PLAYERS[0]} holds {_show(ANN_DEAD)}; {PLAYERS[1]} holds {_show(BO_DEAD)}.",
        f"Loop start: the stock is used up; the pile holds {_show(pile)} under {lasso.top}; "
        f"turned away: {_show(turned)}; {PLAYERS[1]} is to play.",
    ]
    lines += [f"{k}. {_render_step(s)}" for k, s in enumerate(lasso.steps, 1)]
    lines.append(
        f"After these {len(lasso.steps)} actions the position is the one the loop started from "
        "(same hands, pile, turned-away cards, top card, spelförare, draws, restart, named "
        "suit, idle count), and nobody has gone out. The loop start is reached from a deal: "
        f"{len(stem())} actions from 7♥ turned, {PLAYERS[0]} holding 2♣ to 7♣ and 8♣, "
        f"{PLAYERS[1]} 9♣ to A♣ and 9♦."
    )
    return "\n".join(lines)


def _check(weaken: frozenset[str]) -> Finding:
    verdict, lasso, core, why = witness() if not weaken else find_lasso(weaken)
    if verdict is Verdict.SAT and lasso is not None:
        return Finding(Outcome.WITNESSED, render(lasso), cases=1)
    if verdict is Verdict.UNSAT:
        return Finding(
            Outcome.NO_WITNESS,
            f"no loop of {LOOP} actions in the template; the clauses that rule it out: "
            + ", ".join(core),
            cases=1,
        )
    return Finding(Outcome.UNKNOWN, f"no answer: {why}", cases=1)


NEVER_ENDING = Theorem(
    name="vandatta.never-ending-deal",
    states=(),
    rulebooks=("vandatta",),
    title="A vandatta deal can go on for ever",
    statement=(
        "Under the vandatta preset there is a deal, reached from a deal of seven cards each, in "
        "which a position comes back to itself after 58 actions with nobody out: two players "
        "hold only cards that never fit what they meet, and the hearts and the eights go round "
        "through two reshuffled stocks. Z3 chooses where the hearts and eights lie, every "
        "card the shuffles bring up and every suit named with an eight; the template fixes the "
        "two hands and the cards laid. The way from the deal to the loop is checked in the "
        "engine, not by Z3. The theorem is about the default reading of VA-AMB-ENDLESS-DEAL "
        "(play-on); under endless_deal = drawn-after-passes this loop is gone: each lap runs the "
        "stock out twice, and the engine, replaying the witness under that reading, draws the "
        "deal (nobody scoring) when the stock runs out for the third time (bound, not proved "
        "by Z3 for every loop)."
    ),
    clauses=(
        "VA-PLAY-MATCH-RANK-OR-SUIT",
        "VA-EIGHT-NAMES-SUIT",
        "VA-EIGHT-TURNS-PILE",
        "VA-ACE-OTHERS-DRAW",
        "VA-TURN-NEXT-PLAYER",
        "VA-DRAW-WHEN-STUCK",
        "VA-DRAW-MAX-THREE",
        "VA-DRAW-STOCK-REBUILD",
        "VA-DRAW-PASS-AFTER-THREE",
        "VA-WIN-BLOCKED-DEAL-VOID",
    ),
    check=_check,
    bindings=(ENDLESS_STEPS,),
    weakenings=(
        Weakening(
            "VA-DRAW-STOCK-REBUILD",
            "read the rebuild as unshuffled (the rebuild-unshuffled reading of "
            "VA-AMB-STOCK-EMPTY, vvv8's rule): the new stock comes up in the order its cards "
            "were laid, the oldest first, so the template's order of draws cannot be had and "
            "no loop with the same cards laid exists",
        ),
    ),
    kind=Kind.EXISTS,
)

THEOREMS: tuple[Theorem, ...] = (NEVER_ENDING,)


SCENARIOS: tuple[Scenario, ...] = ()
