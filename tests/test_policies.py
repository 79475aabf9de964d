"""The players of simulated games (``regelverk.policies``): ``random`` and ``keen``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from regelverk.books import RULEBOOKS
from regelverk.cli import POLICY_CHOICES, main
from regelverk.console import EXIT_USAGE
from regelverk.engine import opening
from regelverk.games import game_for
from regelverk.policies import POLICIES, PolicyError, _keen_by_kind, policy_for
from regelverk.referee import ask, play
from regelverk.simulate import SimulationError, play_one, simulate, table_from_csv, table_to_csv


def _states(name: str, seed: int, steps: int) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """The states of a keen game of ``name`` at four seats, with their legal actions."""
    game = game_for(name)
    state = opening(game, game.options(name), ("P1", "P2", "P3", "P4"), seed).state
    choose = policy_for(name, "keen")
    chooser = random.Random(seed)
    for _ in range(steps):
        if game.is_over(state):
            return
        legal = game.legal_actions(state)
        if not legal:
            return
        yield state, legal
        state = game.apply(state, choose(state, legal, chooser)).state


@pytest.mark.parametrize("name", RULEBOOKS)
def test_keen_lays_a_card_whenever_one_may_be_laid(name: str) -> None:
    """Held to the definition by the actions' plain data: whenever an action of kind 'play' is
    legal, keen's choice is one; a position with no play lets it take anything legal."""
    game = game_for(name)
    choose = policy_for(name, "keen")
    seen_play = seen_other = False
    for number, (state, legal) in enumerate(_states(name, 3, 400)):
        kinds = {game.action_to_data(a)["action"] for a in legal}
        chosen = choose(state, legal, random.Random(number))
        assert chosen in legal
        if "play" in kinds:
            assert game.action_to_data(chosen)["action"] == "play", (name, number)
            seen_play = True
        else:
            seen_other = True
    assert seen_play and seen_other, name


@pytest.mark.parametrize("name", RULEBOOKS)
def test_a_family_s_own_keen_player_chooses_as_the_one_by_kinds(name: str) -> None:
    """The quick keen player of each family and the one that reads the actions' kinds make the
    same choice from the same chooser, so either may stand for the definition."""
    own = policy_for(name, "keen")
    by_kind = _keen_by_kind(name)
    assert own is not by_kind
    for number, (state, legal) in enumerate(_states(name, 5, 300)):
        assert own(state, legal, random.Random(number)) == by_kind(
            state, legal, random.Random(number)
        )


def test_random_is_the_chooser_s_own_choice() -> None:
    legal = tuple(range(10))
    chosen = [policy_for("uno", "random")(None, legal, random.Random(s)) for s in range(20)]
    assert chosen == [random.Random(s).choice(legal) for s in range(20)]


def test_an_unknown_player_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PolicyError, match="one of random, keen, not 'clever'"):
        policy_for("uno", "clever")
    with pytest.raises(SimulationError, match="one of random, keen, not 'clever'"):
        simulate(("uno",), games=1, seed=1, jobs=1, policy="clever")
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--rulebook", "uno", "--policy", "clever"])
    assert stopped.value.code == EXIT_USAGE
    assert "invalid choice: 'clever'" in capsys.readouterr().err


def test_the_command_line_offers_every_player() -> None:
    assert POLICY_CHOICES == POLICIES


def test_a_keen_uno_hand_takes_a_fraction_of_a_random_one_s_actions() -> None:
    """Random players draw when they could play: a hand takes hundreds of actions where keen
    players take tens, as people do."""
    keen = simulate(("uno",), games=6, seed=2, jobs=1, policy="keen").rows[0]
    dice = simulate(("uno",), games=6, seed=2, jobs=1).rows[0]
    per_hand = keen.mean_actions / keen.mean_rounds
    assert per_hand < 120
    assert dice.mean_actions / dice.mean_rounds > 5 * per_hand


def test_the_table_names_its_player_and_keeps_it_in_csv() -> None:
    table = simulate(("viggo",), games=2, seed=4, jobs=1, policy="keen")
    assert table.policy == "keen"
    text = table_to_csv(table)
    assert text.splitlines()[0].endswith("policy=keen")
    assert table_from_csv(text) == table
    assert simulate(("viggo",), games=2, seed=4, jobs=1).policy == "random"


def test_a_keen_game_is_the_game_play_plays_and_its_record_replays() -> None:
    played = play("uno", 3, 7, policy="keen")
    assert played.record["policy"] == "keen"
    assert len(played.record["actions"]) == play_one("uno", {}, 3, 7, policy="keen").actions
    answer = ask(played.record)
    assert all(step["allowed"] for step in answer["steps"])


def test_a_record_naming_an_unknown_player_is_refused() -> None:
    record = dict(play("viggo", 3, 2).record, policy="clever")
    with pytest.raises(Exception, match="'policy': the player who chose the moves is one of"):
        ask(record)
