"""The time per step each speed goal allows, beside the least a checked, immutable step costs.

The goals of ``vandatta.py``, ``uno.py`` and ``viggo.py`` compare whole games per second with a
peer. This script asks what such a goal leaves per step. For each comparison it times, in one
interleaved run (``bench/interleave.py``), three figures in microseconds of CPU per step:

* ``peer``: the peer's own loop, as the benchmark drives it, per action applied (OpenSpiel's
  chance actions of the deal included, as they are part of each game it plays);
* ``public API``: regelverk's public loop, as the benchmark drives it, per ``apply``;
* ``floor``: the least that every step of the public API must do, and nothing else: the
  loop's ``random.choice`` among a real listing, one :class:`~regelverk.engine.Event` with a
  formatted text (every step says what happened and which clause decided it), and one new
  state of the engine's own record type, built by :func:`regelverk.records.builder`, the
  quickest way the engines have (states are immutable: a step makes a new one). No rule is
  judged and no move is listed in the floor.

The ratio ``floor / peer`` says how much of the peer's whole step that minimum takes already;
where it is near or above one, a goal of matching the peer is out of reach for any engine
written this way in this interpreter, whatever its rules code does, and only compiled code or
a looser API (no events, mutable state) could meet it.

Run: ``.venv/bin/python bench/budget.py [SECONDS] [ROUNDS]`` (defaults: 2 CPU seconds per
figure, 5 rounds). Needs the ``bench`` extra for the peers.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Sequence
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
"""Steps per call of the floor's work."""
NAMES = ("P1", "P2", "P3", "P4")


def floor(state: Any, actions: Sequence[Any]) -> Work:
    """``STEPS`` bare steps per call: a choice among ``actions``, one event, one new state."""
    chooser = random.Random(5)
    build_state: Callable[..., Any] = builder(type(state))
    values = {field.name: getattr(state, field.name) for field in dataclasses.fields(state)}
    build_event = builder(Event)
    listing = list(actions)

    def steps() -> int:
        for _ in range(STEPS):
            action = chooser.choice(listing)
            player = NAMES[0]
            build_event(
                kind="play",
                text=f"{player} plays {action}",
                clauses=("CLAUSE",),
                player=player,
                cards=(),
            )
            build_state(**values)
        return STEPS

    return steps


def vandatta_public() -> tuple[Work, Any, Sequence[Any]]:
    """The public vandatta loop of ``bench/vandatta.py`` (4 players), per step; and a state in
    play with its listing, for the floor."""
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
        return steps

    sample = VANDATTA.deal(options, NAMES, 7)
    sample = VANDATTA.apply(sample, VANDATTA.legal_actions(sample)[0]).state
    return deal, sample, VANDATTA.legal_actions(sample)


def uno_public() -> tuple[Work, Any, Sequence[Any]]:
    """The public UNO loop of ``bench/uno.py`` (4 players, its keen player), per step; and a
    state in play with its listing."""
    options = dataclasses.replace(UNO.options("uno"), target_score=1)
    chooser = random.Random(1)
    seeds = iter(range(1, 10**9))

    def hand() -> int:
        state = UNO.deal(options, NAMES, next(seeds))
        steps = 0
        while not UNO.is_over(state):
            state = UNO.apply(state, keen(state, chooser)).state
            steps += 1
        return steps

    sample = UNO.deal(options, NAMES, 7)
    return hand, sample, UNO.legal_actions(sample)


def viggo_public() -> tuple[Work, Any, Sequence[Any]]:
    """The public Viggo loop of ``bench/viggo.py`` (4 players), per step; and a state in play
    with its listing."""
    options = dataclasses.replace(VIGGO.options("viggo"), loss_points=1)
    chooser = random.Random(1)
    seeds = iter(range(10**9))

    def round_() -> int:
        state = VIGGO.deal(options, NAMES, next(seeds))
        steps = 0
        while not VIGGO.is_over(state):
            state = VIGGO.apply(state, chooser.choice(VIGGO.legal_actions(state))).state
            steps += 1
        return steps

    sample = VIGGO.deal(options, NAMES, 7)
    return round_, sample, VIGGO.legal_actions(sample)


def openspiel(name: str, params: dict[str, int]) -> Work | None:
    """One random OpenSpiel game per call, counted in actions applied, or None without it."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    chooser = random.Random(3)

    def play() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chooser.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def rlcard_uno() -> Work | None:
    """One random hand of RLCard's UnoGame driver per call, counted in steps, or None."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random.seed(1)
    chooser = random.Random(1)

    def hand() -> int:
        game.init_game()
        steps = 0
        while not game.is_over():
            game.step(chooser.choice(game.get_legal_actions()))
            steps += 1
        return steps

    return hand


def main() -> None:
    """Print the figures."""
    print(
        f"CPU microseconds per step, 4 players; interleaved, {SECONDS:g} s per figure over "
        f"{ROUNDS} rounds, medians"
    )
    comparisons = (
        (
            "vandatta / OpenSpiel crazy_eights",
            vandatta_public,
            openspiel("crazy_eights", {"players": 4}),
        ),
        ("UNO / RLCard UnoGame", uno_public, rlcard_uno()),
        ("Viggo / OpenSpiel dou_dizhu", viggo_public, openspiel("dou_dizhu", {})),
    )
    for label, ours, peer in comparisons:
        public, state, actions = ours()
        if peer is None:
            print(f"  {label}: the peer is not installed (pip install -e '.[bench]'); skipped")
            continue
        timings = interleaved(
            {"peer": peer, "public API": public, "floor": floor(state, actions)}, SECONDS, ROUNDS
        )
        per_step = {name: 1e6 / timings.median(name) for name in ("peer", "public API", "floor")}
        print(
            f"  {label}: peer {per_step['peer']:5.2f} µs, public API {per_step['public API']:5.2f}"
            f" µs, floor {per_step['floor']:5.2f} µs per step"
        )
        print(
            f"    floor / peer: {timings.ratio('peer', 'floor'):4.2f} of the peer's step "
            f"(a choice, one event, one {type(state).__name__} of "
            f"{len(dataclasses.fields(state))} fields)"
        )


if __name__ == "__main__":
    main()
