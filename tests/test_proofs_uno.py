"""The UNO theorems and questions: each holds, each fails when a clause it cites is weakened,
the never-ending game is replayed in the engine, and the encodings agree with the engine on
generated positions and actions."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelverk.cards import Colour, UnoCard
from regelverk.engine import IllegalActionError, with_options
from regelverk.uno import (
    GAME,
    Action,
    CallUno,
    Catch,
    Challenge,
    Draw,
    NameColour,
    Pass,
    Phase,
    Play,
    UnoOptions,
    UnoState,
)
from regelverk.uno.rules import deck_for
from regelverk.uno.scenario import position
from regelverk_proofs.query import ask
from regelverk_proofs.theorem import Outcome, Theorem
from regelverk_proofs.uno import SCENARIOS, THEOREMS
from regelverk_proofs.uno_lasso import TOP, find_lasso, lasso_hands
from regelverk_proofs.uno_rules import challenge_fails, decide
from regelverk_proofs.uno_steps import moves_allow

_BY_NAME = {t.name: t for t in THEOREMS}
_WEAKENINGS = [(t, w.clause) for t in THEOREMS for w in t.weakenings]

# --- the theorems ----------------------------------------------------------------------------


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD", "UNO-WD4-CONDITION", "UNO-TWO-PLAYER-REVERSE")
@pytest.mark.parametrize(
    "name",
    [
        "uno.card-conservation",
        "uno.never-ending-game",
        "uno.must-play-never-repeats",
        "uno.challenge-matches-wild-draw-four-condition",
        "uno.two-player-reverse-is-skip",
    ],
)
def test_the_uno_theorem_holds(name: str) -> None:
    theorem = _BY_NAME[name]
    finding = theorem.check(frozenset())
    assert theorem.holds(finding), finding.detail
    assert finding.cases >= 1


@pytest.mark.clause("UNO-PLAY-MATCH", "UNO-SCORE-ACTION-20", "UNO-PILES-EXHAUSTED-NO-DRAW")
@pytest.mark.parametrize(
    ("theorem", "clause"), _WEAKENINGS, ids=[f"{t.name}-{c}" for t, c in _WEAKENINGS]
)
def test_each_uno_theorem_fails_when_a_clause_it_cites_is_weakened(
    theorem: Theorem, clause: str
) -> None:
    finding = theorem.check(frozenset({clause}))
    assert finding.outcome is theorem.failure, finding.detail
    assert finding.detail


@pytest.mark.clause("UNO-PLAY-MATCH")
def test_a_conservation_counterexample_names_the_card_and_its_places() -> None:
    finding = _BY_NAME["uno.card-conservation"].check(frozenset({"UNO-PLAY-MATCH"}))
    assert "R5" in finding.detail
    assert "discard pile" in finding.detail


@pytest.mark.clause("UNO-WIN-GAME-500")
def test_the_ending_counterexample_stops_at_exactly_500() -> None:
    finding = _BY_NAME["uno.legal-ending"].check(frozenset({"UNO-WIN-GAME-500"}))
    assert finding.outcome is Outcome.COUNTEREXAMPLE
    assert "ends the game" in finding.detail


# --- the never-ending game, replayed ---------------------------------------------------------


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-BY-CHOICE")
def test_the_lasso_z3_finds_comes_back_to_itself_in_the_engine() -> None:
    lasso = find_lasso()
    assert lasso is not None and not isinstance(lasso, str)
    assert lasso.draw_pile == 0 and lasso.discard_below_top == 0
    start = position(lasso_hands(lasso), discard=TOP.code, turn=lasso.actions[0][0], draw_pile=[])
    state = start
    for player, kind in lasso.actions:
        action: Action = Draw(player=player)
        if kind != "draw":  # pragma: no cover - Z3's loop only draws
            pytest.fail(f"the loop lays a card: {lasso.actions}")
        assert action in GAME.legal_actions(state)
        state = GAME.apply(state, action).state
        assert all(state.hands), "nobody goes out"
    assert state == start


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW")
def test_under_hand_void_the_same_loop_does_not_come_back() -> None:
    lasso = find_lasso()
    assert lasso is not None and not isinstance(lasso, str)
    options = with_options(UnoOptions(), {"empty_piles": "hand-void"})
    start = position(
        lasso_hands(lasso),
        discard=TOP.code,
        turn=lasso.actions[0][0],
        draw_pile=[],
        options=options,
    )
    after = GAME.apply(start, Draw(player=lasso.actions[0][0])).state
    assert after.hand_number == start.hand_number + 1
    assert find_lasso(frozenset({"UNO-PILES-EXHAUSTED-NO-DRAW"})) is None


def _wd4_loop_start(options: UnoOptions) -> UnoState:
    """Every card held but R3 on top; each player holds a red card and, last, two Wild Draw
    Fours (so one laid and taken back leaves the hand as it was)."""
    deck = list(deck_for(options))
    deck.remove(UnoCard.parse("R3"))
    anna = [c for c in deck if c.colour in (Colour.RED, Colour.YELLOW)]
    anna.remove(UnoCard.parse("R4"))
    bo = [c for c in deck if c.colour in (Colour.GREEN, Colour.BLUE)]
    bo += [UnoCard.parse("W")] * 4 + [UnoCard.parse("R4")]
    wd4 = ["W+4", "W+4"]
    hands = {
        "Anna": " ".join([*(c.code for c in anna), *wd4]),
        "Bo": " ".join([*(c.code for c in bo), *wd4]),
    }
    return position(hands, discard="R3", turn="Anna", draw_pile=[], options=options)


_WD4_LOOP = (
    Play(player="Anna", card=UnoCard.parse("W+4"), colour=Colour.BLUE),
    Challenge(player="Bo"),
    Play(player="Bo", card=UnoCard.parse("W+4"), colour=Colour.GREEN),
    Challenge(player="Anna"),
)


@pytest.mark.clause(
    "UNO-WD4-CHALLENGE-SUCCESS", "UNO-DRAW-BY-CHOICE", "UNO-PILES-EXHAUSTED-NO-DRAW"
)
def test_under_must_play_a_returned_wild_draw_four_loops_for_ever() -> None:
    """The weakening card-returns of uno.must-play-never-repeats, replayed: two bluffed Wild
    Draw Fours, each challenged and taken back, and the position is back."""
    changes = {"draw_when_able": "must-play", "challenge_success_card": "card-returns"}
    start = _wd4_loop_start(with_options(UnoOptions(), changes))
    state = start
    for action in _WD4_LOOP:
        state = GAME.apply(state, action).state
    assert state == start
    stays = _wd4_loop_start(with_options(UnoOptions(), {"draw_when_able": "must-play"}))
    for action in _WD4_LOOP[:2]:
        stays = GAME.apply(stays, action).state
    assert stays.top == UnoCard.parse("W+4")


@pytest.mark.clause("UNO-PILES-EXHAUSTED-NO-DRAW", "UNO-DRAW-BY-CHOICE")
def test_under_hand_void_drawing_alone_voids_hand_after_hand() -> None:
    """Not a loop (the hand number grows), but no game need end: everyone just draws."""
    options = with_options(UnoOptions(), {"empty_piles": "hand-void"})
    state = GAME.deal(options, _NAMES[:4], 11)
    for hand in (1, 2, 3):
        while state.hand_number == hand:
            action = next(a for a in GAME.legal_actions(state) if isinstance(a, Draw | Pass))
            state = GAME.apply(state, action).state
    assert state.hand_number == 4
    assert state.scores == (0, 0, 0, 0)


# --- the scenario ----------------------------------------------------------------------------

_WD4 = SCENARIOS[0]


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-EFFECT")
def test_a_bluffed_wild_draw_four_unchallenged_costs_nothing() -> None:
    answer = ask(_WD4, "holds-current-colour and not challenged and layer-draws = 0")
    assert answer.possible is True
    assert "does not challenge" in answer.witness


@pytest.mark.clause("UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-SUCCESS")
def test_a_bluffed_wild_draw_four_challenged_always_costs() -> None:
    answer = ask(_WD4, "holds-current-colour and challenged and layer-draws = 0")
    assert answer.possible is False
    assert answer.forbidding == ("UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CONDITION")


@pytest.mark.clause("UNO-WD4-CHALLENGE-FAILED-SIX")
def test_a_failed_challenge_costs_the_challenger_six() -> None:
    assert ask(_WD4, "challenged and not holds-current-colour and victim-draws = 6").possible
    answer = ask(_WD4, "challenged and not holds-current-colour and victim-draws < 6")
    assert answer.possible is False
    assert "UNO-WD4-CHALLENGE-FAILED-SIX" in answer.forbidding


# --- differential: the engine against the encodings ------------------------------------------

_OPTION_SETS: tuple[dict[str, object], ...] = (
    {},
    {"deck": 112},
    {"stack_draw_two": True},
    {"deck": 112, "shuffle_hands_deal": "keep-counts", "challenge_success_card": "card-returns"},
    {
        "draw_when_able": "must-play",
        "illegal_wd4": "refused",
        "current_colour": "printed-colour",
        "challenge_success_penalty": "guilty-draws-six",
    },
    {
        "uno_call_window": "with-the-card",
        "wd4_wild_counts": "wilds-count",
        "number_match": "colour-only",
        "action_symbol_match": "same-colour-only",
        "blank_wild": "dead-card",
        "deck": 112,
    },
)

_NAMES = ("Anna", "Bo", "Cia", "Dan", "Eva", "Filip", "Gun", "Hans", "Ida", "Jon")


def _keen(state: UnoState, rng: random.Random) -> Action:
    """A random legal action, preferring challenges, catches and laying over drawing."""
    actions = GAME.legal_actions(state)
    keen = [a for a in actions if isinstance(a, Challenge | Catch | Play)]
    if keen and rng.random() < 0.8:
        return rng.choice(keen)
    return rng.choice(actions)


def _game(seed: int, players: int, options: UnoOptions, steps: int) -> UnoState:
    rng = random.Random(seed)
    state = GAME.deal(options, _NAMES[:players], seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        state = GAME.apply(state, _keen(state, rng)).state
    return state


def _candidates(state: UnoState, rng: random.Random) -> list[Action]:
    """Legal actions and likely illegal ones: unfitting or unheld cards, a Wild Draw Four,
    catches, challenges, passes and colours at the wrong time."""
    legal = list(GAME.legal_actions(state))
    who = state.players[state.turn]
    other = state.players[(state.turn + 1) % len(state.players)]
    hand = state.hands[state.turn]
    found: list[Action] = rng.sample(legal, min(4, len(legal)))
    for card in rng.sample(list(hand), min(3, len(hand))):
        colour = Colour.RED if card.colour is None else None
        found.append(Play(player=who, card=card, colour=colour))
        found.append(Play(player=who, card=card, colour=colour, uno=True))
    found += [
        Play(player=who, card=UnoCard.parse("W+4"), colour=Colour.BLUE),
        Play(player=who, card=UnoCard.parse("W"), colour=None),
        Play(player=other, card=UnoCard.parse("R5")),
        Draw(player=who),
        Draw(player=other),
        Pass(player=who),
        Challenge(player=who),
        Challenge(player=other),
        NameColour(player=who, colour=Colour.GREEN),
        CallUno(player=who),
        Catch(player=who, target=other),
        Catch(player=other, target=who),
    ]
    return found


def _engine_allows(state: UnoState, action: Action) -> bool:
    try:
        GAME.check(state, action)
    except IllegalActionError:
        return False
    return True


@pytest.mark.clause(
    "UNO-PLAY-MATCH",
    "UNO-WD4-CONDITION",
    "UNO-DRAW-BY-CHOICE",
    "UNO-CALL-PENALTY",
    "UNO-WD4-CHALLENGE-ONLY-VICTIM",
    "UNO-VARIANT-STACKING",
)
@settings(max_examples=20, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    players=st.integers(min_value=2, max_value=10),
    which=st.integers(min_value=0, max_value=len(_OPTION_SETS) - 1),
    steps=st.integers(min_value=0, max_value=60),
)
def test_the_encoding_allows_exactly_what_the_engine_allows(
    seed: int, players: int, which: int, steps: int
) -> None:
    options = with_options(UnoOptions(), _OPTION_SETS[which])
    state = _game(seed, players, options, steps)
    if GAME.is_over(state):
        return
    for action in _candidates(state, random.Random(seed)):
        assert decide(options, state, action) is _engine_allows(state, action), (
            action,
            GAME.position_to_data(state),
        )


@pytest.mark.clause(
    "UNO-PLAY-MATCH",
    "UNO-DRAW-PILE-REBUILD",
    "UNO-WD4-CHALLENGE-SUCCESS",
    "UNO-SHUFFLE-HANDS-EFFECT",
    "UNO-CALL-PENALTY",
)
@settings(max_examples=5, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    players=st.integers(min_value=2, max_value=10),
    which=st.integers(min_value=0, max_value=len(_OPTION_SETS) - 1),
    steps=st.integers(min_value=0, max_value=80),
)
def test_the_engine_moves_cards_as_the_card_encoding_allows(
    seed: int, players: int, which: int, steps: int
) -> None:
    options = with_options(UnoOptions(), _OPTION_SETS[which])
    state = _game(seed, players, options, steps)
    if GAME.is_over(state):
        return
    action = _keen(state, random.Random(seed + 1))
    after = GAME.apply(state, action).state
    assert moves_allow(state, action, after) is True, (action, GAME.position_to_data(state))


@pytest.mark.clause("UNO-DRAW-PILE-REBUILD")
def test_the_card_encoding_refuses_a_step_the_engine_did_not_take() -> None:
    state = GAME.deal(UnoOptions(), _NAMES[:3], 7)
    while state.phase is not Phase.PLAY:
        state = GAME.apply(state, GAME.legal_actions(state)[0]).state
    draw = Draw(player=state.players[state.turn])
    after = GAME.apply(state, draw).state
    assert moves_allow(state, draw, after) is True
    other = state.players[(state.turn + 1) % 3]
    assert moves_allow(state, Catch(player=other, target=state.players[state.turn]), after) is False


@pytest.mark.clause(
    "UNO-WD4-CONDITION", "UNO-WD4-CHALLENGE-SUCCESS", "UNO-WD4-CHALLENGE-FAILED-SIX"
)
@settings(max_examples=8, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    players=st.integers(min_value=2, max_value=10),
    which=st.integers(min_value=0, max_value=len(_OPTION_SETS) - 1),
)
def test_the_engine_decides_challenges_by_the_encoded_condition(
    seed: int, players: int, which: int
) -> None:
    """Play on until Wild Draw Fours are laid; each challenge goes as the encoding says."""
    options = with_options(UnoOptions(), _OPTION_SETS[which])
    rng = random.Random(seed)
    state = GAME.deal(options, _NAMES[:players], seed)
    for _ in range(300):
        if GAME.is_over(state):
            break
        if state.phase is Phase.CHALLENGE:
            fails = challenge_fails(options, state)
            outcome = GAME.apply(state, Challenge(player=state.players[state.turn]))
            kinds = {event.kind for event in outcome.events}
            assert ("challenge-lost" in kinds) is fails
            assert ("challenge-won" in kinds) is (not fails)
            state = outcome.state
            continue
        state = GAME.apply(state, _keen(state, rng)).state


@pytest.mark.clause("UNO-TWO-PLAYER-REVERSE", "UNO-TWO-PLAYER-SKIP", "UNO-REVERSE-EFFECT")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_the_engine_a_reverse_is_a_skip_only_with_two_players(players: int) -> None:
    """Two players: the same next player and the same turns after. Three: the same next
    player, but the turns after run the other way. Four or more: another next player."""
    names = _NAMES[:players]
    hands = {name: f"B{k} G{k} Y{k}" for k, name in enumerate(names, 1)}
    hands["Anna"] = "RR RS R7"
    turns = []
    for card in ("RR", "RS"):
        state = position(hands, discard="R5", turn="Anna")
        after = GAME.apply(state, Play(player="Anna", card=UnoCard.parse(card))).state
        following = (after.turn + after.direction) % players
        turns.append((after.turn, following))
    assert (turns[0][0] == turns[1][0]) is (players <= 3)
    assert (turns[0] == turns[1]) is (players == 2)
