"""The time each speed goal allows per decision and per game, beside the least a checked,
immutable step costs.

The goals of ``vandatta.py``, ``uno.py`` and ``viggo.py`` compare whole games per second with a
peer. This script asks what such a goal leaves per decision. For each comparison it times, in
one interleaved run (``bench/interleave.py``), one game per call of each loop, and counts what
each game was made of:

* ``peer``: the peer's own loop, as the benchmark drives it. Its games contain chance steps
  (OpenSpiel deals card by card, one chance action per card: 39-45% of its steps) besides the
  players' decisions; both are counted and shown, and the time per decision is the whole game's
  time over its decisions, as ours is (our deal is no step, but its time is in the game's);
* ``public API``: regelverk's public loop, as the benchmark drives it, its decisions the
  ``apply`` calls;
* ``floor``: the least that every decision of the public API must do, and nothing else: the
  loop's random choice among a real listing, one :class:`~regelverk.engine.Event` whose text
  names the card by its code, as the engines' events do (the codes computed once, as the
  engines compute theirs), and one new state of the engine's own record type, built by
  :func:`regelverk.records.builder` (states are immutable: a step makes a new one). No rule is
  judged and no move is listed in the floor.

Per game compares like with like where the games are alike in length (UNO with RLCard, both
playing a card whenever one fits); per decision compares the work behind each choice a player
makes, whatever the game's length. The ratio ``floor / peer`` (per decision) says how much of
the peer's decision that minimum takes already; where it is near or above one, a goal of
matching the peer is out of reach for any engine written this way in this interpreter,
whatever its rules code does.

Run: ``.venv/bin/python bench/budget.py [SECONDS] [ROUNDS]`` (defaults: 2 CPU seconds per
figure, 5 rounds). Needs the ``bench`` extra for the peers.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from interleave import Work, interleaved
from uno import keen

from regelverk.engine import Event
from regelverk.records import builder
from regelverk.uno import GAME as UNO
from regelverk.vandatta import GAME as VANDATTA
from regelverk.vandatta.state import Phase
from regelverk.viggo import GAME as VIGGO

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
STEPS = 200
"""Decisions per call of the floor's work."""
NAMES = ("P1", "P2", "P3", "P4")


@dataclass
class Tally:
    """What the games of one loop were made of, over the whole run."""

    decisions: int = 0
    chance: int = 0


def floor(state: Any, actions: Sequence[Any], tally: Tally) -> Work:
    """``STEPS`` bare decisions per call: a choice among ``actions``, one event naming a card
    by a code computed once, one new state."""
    chooser = random.Random(5)
    build_state: Callable[..., Any] = builder(type(state))
    values = {field.name: getattr(state, field.name) for field in dataclasses.fields(state)}
    build_event = builder(Event)
    listing = list(actions)
    codes = tuple(f"{2 + n % 9}{'SHDC'[n % 4]}" for n in range(len(listing)))

    def steps() -> int:
        for _ in range(STEPS):
            index = chooser.randrange(len(listing))
            player = NAMES[0]
            build_event(
                kind="play",
                text=f"{player} plays {codes[index]}",
                clauses=("CLAUSE",),
                player=player,
                cards=(codes[index],),
            )
            build_state(**values)
        tally.decisions += STEPS
        return 1

    return steps


def vandatta_public(tally: Tally) -> tuple[Work, Any, Sequence[Any]]:
    """The public vandatta loop of ``bench/vandatta.py`` (4 players), one deal per call; and a
    state in play with its listing, for the floor."""
    options = VANDATTA.options("vandatta")
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def deal() -> int:
        state = VANDATTA.deal(options, NAMES, next(seeds))
        state = VANDATTA.apply(state, VANDATTA.legal_actions(state)[0]).state
        steps = 1
        while state.phase in (Phase.PLAY, Phase.START_SUIT):
            state = VANDATTA.apply(state, chooser.choice(VANDATTA.legal_actions(state))).state
            steps += 1
        tally.decisions += steps
        return 1

    sample = VANDATTA.deal(options, NAMES, 7)
    sample = VANDATTA.apply(sample, VANDATTA.legal_actions(sample)[0]).state
    return deal, sample, VANDATTA.legal_actions(sample)


def uno_public(tally: Tally) -> tuple[Work, Any, Sequence[Any]]:
    """The public UNO loop of ``bench/uno.py`` (4 players, its keen player), one hand per call;
    and a state in play with its listing."""
    options = dataclasses.replace(UNO.options("uno"), target_score=1)
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def hand() -> int:
        state = UNO.deal(options, NAMES, next(seeds))
        steps = 0
        while not UNO.is_over(state):
            state = UNO.apply(state, keen(state, chooser)).state
            steps += 1
        tally.decisions += steps
        return 1

    sample = UNO.deal(options, NAMES, 7)
    return hand, sample, UNO.legal_actions(sample)


def viggo_public(tally: Tally) -> tuple[Work, Any, Sequence[Any]]:
    """The public Viggo loop of ``bench/viggo.py`` (4 players), one round per call; and a state
    in play with its listing."""
    options = dataclasses.replace(VIGGO.options("viggo"), loss_points=1)
    chooser = random.Random(1)
    seeds = iter(range(10**9))

    def round_() -> int:
        state = VIGGO.deal(options, NAMES, next(seeds))
        steps = 0
        while not VIGGO.is_over(state):
            state = VIGGO.apply(state, chooser.choice(VIGGO.legal_actions(state))).state
            steps += 1
        tally.decisions += steps
        return 1

    sample = VIGGO.deal(options, NAMES, 7)
    return round_, sample, VIGGO.legal_actions(sample)


def openspiel(name: str, params: dict[str, int], tally: Tally) -> Work | None:
    """One random OpenSpiel game per call, its chance steps and decisions tallied apart, or
    None without it."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    chooser = random.Random(3)

    def play() -> int:
        state = game.new_initial_state()
        chance = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chooser.choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
                decisions += 1
        tally.chance += chance
        tally.decisions += decisions
        return 1

    return play


def rlcard_uno(tally: Tally) -> Work | None:
    """One random hand of RLCard's UnoGame driver per call, or None. The legal actions are read
    from the state each step returns (RLCard works them out there), not asked for again."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random.seed(1)
    chooser = random.Random(1)

    def hand() -> int:
        state, _ = game.init_game()
        steps = 0
        while not game.is_over():
            state, _ = game.step(chooser.choice(state["legal_actions"]))
            steps += 1
        tally.decisions += steps
        return 1

    return hand


Loop = Callable[[Tally], tuple[Work, Any, Sequence[Any]]]
Peer = Callable[[Tally], Work | None]


def compare(label: str, ours: Loop, peer: Peer) -> None:
    """Time the peer, the public API and the floor in one interleaved run; print the figures."""
    tallies = {name: Tally() for name in ("peer", "public API", "floor")}
    public, state, actions = ours(tallies["public API"])
    theirs = peer(tallies["peer"])
    if theirs is None:
        print(f"  {label}: the peer is not installed (pip install -e '.[bench]'); skipped")
        return
    work = {"peer": theirs, "public API": public, "floor": floor(state, actions, tallies["floor"])}
    timings = interleaved(work, SECONDS, ROUNDS)
    per_game = {name: 1e6 / timings.median(name) for name in work}
    decisions = {name: tallies[name].decisions / timings.done[name] for name in work}
    per_decision = {name: per_game[name] / decisions[name] for name in work}
    chance = tallies["peer"].chance / timings.done["peer"]
    print(f"  {label}")
    print(
        f"    peer        {per_game['peer']:9.1f} µs per game, {decisions['peer']:6.1f} "
        f"decisions and {chance:5.1f} chance steps per game, {per_decision['peer']:6.2f} µs "
        "per decision"
    )
    print(
        f"    public API  {per_game['public API']:9.1f} µs per game, "
        f"{decisions['public API']:6.1f} decisions per game, "
        f"{per_decision['public API']:6.2f} µs per decision"
    )
    print(f"    floor       {per_decision['floor']:6.2f} µs per decision")
    ours_over_peer = per_decision["public API"] / per_decision["peer"]
    print(
        f"    per decision: public API / peer {ours_over_peer:5.2f}, floor / peer "
        f"{per_decision['floor'] / per_decision['peer']:4.2f} (a choice, one event, one "
        f"{type(state).__name__} of {len(dataclasses.fields(state))} fields)"
    )
    print(
        f"    per game: a game of ours takes {per_game['public API'] / per_game['peer']:5.2f} "
        "times the peer's"
    )


def main() -> None:
    """Print the figures."""
    print(
        f"4 players; CPU time, interleaved, {SECONDS:g} s per figure over {ROUNDS} rounds, medians"
    )
    compare(
        "vandatta / OpenSpiel crazy_eights",
        vandatta_public,
        lambda tally: openspiel("crazy_eights", {"players": 4}, tally),
    )
    compare("UNO (keen) / RLCard UnoGame", uno_public, rlcard_uno)
    compare(
        "Viggo / OpenSpiel dou_dizhu", viggo_public, lambda tally: openspiel("dou_dizhu", {}, tally)
    )


if __name__ == "__main__":
    main()
