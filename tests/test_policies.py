"""The players of simulated games (``regelverk.policies``): ``random``, ``keen`` and
``sensible``."""

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


def _states(
    name: str, seed: int, steps: int, policy: str = "keen"
) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """The states of a game of ``name`` at four seats played by ``policy``, with their legal
    actions."""
    game = game_for(name)
    state = opening(game, game.options(name), ("P1", "P2", "P3", "P4"), seed).state
    choose = policy_for(name, policy)
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
    with pytest.raises(PolicyError, match="one of random, keen, sensible, not 'clever'"):
        policy_for("uno", "clever")
    with pytest.raises(SimulationError, match="one of random, keen, sensible, not 'clever'"):
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
    assert text.splitlines()[0].endswith("policy=keen format=2")
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


def _sensible_choices(name: str, seed: int = 3, steps: int = 1_500) -> Iterator[tuple[Any, Any]]:
    """Each state of a sensible game with its legal actions and the sensible player's choice."""
    choose = policy_for(name, "sensible")
    for state, legal in _states(name, seed, steps, "sensible"):
        chosen = choose(state, legal, random.Random(seed))
        assert chosen in legal
        yield legal, chosen


def test_sensible_uno_calls_catches_and_keeps_its_wild_cards() -> None:
    from regelverk.uno.state import CallUno, Catch, Challenge, Draw, Play

    seen = set()
    for legal, chosen in _sensible_choices("uno"):
        kinds = {type(a) for a in legal}
        if CallUno in kinds or Catch in kinds:
            assert type(chosen) in (CallUno, Catch)
            seen.add("call")
        elif Play in kinds:
            assert type(chosen) is Play
            if any(a.uno for a in legal if type(a) is Play):
                assert chosen.uno  # "UNO" said with the next-to-last card: nobody to catch
                seen.add("call")
            if any(a.card.colour is not None for a in legal if type(a) is Play):
                assert chosen.card.colour is not None  # a coloured card before a wild one
                seen.add("coloured")
        if Challenge in kinds and Draw in kinds:
            assert type(chosen) is not Challenge
            seen.add("no challenge")
    assert seen == {"call", "coloured", "no challenge"}


@pytest.mark.parametrize("name", ["vvv8", "vandatta"])
def test_sensible_vandatta_lays_most_cards_and_keeps_its_eights(name: str) -> None:
    from regelverk.vandatta.rules import is_eight
    from regelverk.vandatta.state import Play

    plain_chosen = 0
    for legal, chosen in _sensible_choices(name):
        plays = [a for a in legal if type(a) is Play]
        if not plays:
            continue
        assert type(chosen) is Play and len(chosen.cards) == max(len(a.cards) for a in plays)
        longest = [a for a in plays if len(a.cards) == len(chosen.cards)]
        if any(not any(map(is_eight, a.cards)) for a in longest):
            assert not any(map(is_eight, chosen.cards))
            plain_chosen += 1
    assert plain_chosen > 10


def test_sensible_viggo_beats_a_trick_with_its_lowest_combination() -> None:
    from regelverk.viggo.combos import position
    from regelverk.viggo.state import Play

    replies = 0
    for legal, chosen in _sensible_choices("viggo"):
        plays = [a for a in legal if type(a) is Play]
        if plays:
            assert type(chosen) is Play  # never a pass where it may lay
            same = [a for a in plays if len(a.cards) == len(chosen.cards)]
            assert len(chosen.cards) == max(len(a.cards) for a in plays)
            top = max(position(c) for c in chosen.cards)
            assert top == min(max(position(c) for c in a.cards) for a in same)
            replies += 1
    assert replies > 100


def test_a_sensible_vvv8_session_lasts_about_ten_deals() -> None:
    """A leap day comes with chance 1/10 between deals: 200 sessions average 10 deals, give or
    take about 1.3 (three standard errors of a geometric mean of 200)."""
    table = simulate(("vvv8",), games=200, seed=1, jobs=0, policy="sensible", check="end")
    assert 8.5 < table.rows[0].mean_rounds < 11.5


def test_a_family_without_a_sensible_player_plays_keen(monkeypatch: pytest.MonkeyPatch) -> None:
    import regelverk.viggo.policies as own

    monkeypatch.setattr(own, "POLICIES", {"keen": own.keen})
    assert policy_for("viggo", "sensible") is own.keen
