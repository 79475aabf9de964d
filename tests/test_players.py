"""The pages for players: cards drawn in their colours, turn diagrams, and FAQ answers that are
the referee's own rulings on question files the example tests check."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from regelverk.books import RULEBOOKS
from regelverk.cli import find_seeds
from regelverk.errors import RegelverkError
from regelverk.referee import ask, load_question
from regelverk.registry import registry_for
from regelverk.source import shared_runs
from regelverk.verdicts import first_words

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs" / "players").glob("*.rst"))
CHECKED_FOLDERS = {"vandatta", "viggo", "uno"}
"""The example folders whose files the example tests hold to their expected rulings."""


def extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location("players", ROOT / "docs" / "_ext" / "players.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["players"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


PLAYERS: Any = extension()


def test_french_cards_carry_their_suit_symbol_and_colour() -> None:
    heart = PLAYERS.card_html("10h")
    assert "pc-red" in heart and ">10<" in heart and "♥" in heart and "10 of hearts" in heart
    assert "pc-red" in PLAYERS.card_html("QD")
    spade = PLAYERS.card_html("A♠")
    assert "pc-black" in spade and "♠" in spade and "pc-red" not in spade
    assert "pc-black" in PLAYERS.card_html("7C")


def test_uno_cards_carry_their_colour_and_symbol() -> None:
    assert "uc-r" in PLAYERS.card_html("R+2") and "+2" in PLAYERS.card_html("R+2")
    assert "uc-y" in PLAYERS.card_html("Y7")
    assert "uc-g" in PLAYERS.card_html("GS") and "⊘" in PLAYERS.card_html("GS")
    assert "uc-b" in PLAYERS.card_html("BR") and "⇄" in PLAYERS.card_html("BR")
    assert "uc-w" in PLAYERS.card_html("W+4") and "Wild Draw Four" in PLAYERS.card_html("W+4")


def test_a_card_that_is_no_card_is_an_error() -> None:
    with pytest.raises(RegelverkError):
        PLAYERS.card_html("ZZ")


def test_a_row_of_cards_wraps_and_counts_the_rest() -> None:
    row = PLAYERS.cards_html(["9H", "9S"], more=41)
    assert row.startswith('<span class="pc-row">') and row.count('class="pc ') == 3
    assert "+41" in row


@pytest.mark.parametrize("book", RULEBOOKS)
def test_each_turn_diagram_is_an_svg_that_fits_a_phone(book: str) -> None:
    svg = PLAYERS.flow_svg(book)
    tree = ET.fromstring(svg)
    assert tree.tag.endswith("svg")
    width = float(tree.attrib["viewBox"].split()[2])
    assert width <= 400  # drawn at its width or smaller, the text stays legible on a phone
    texts = "".join(t.text or "" for t in tree.iter() if t.tag.endswith("text"))
    boxes, arrows, _ = PLAYERS.FLOWS[book]
    for box in boxes:  # every word of every box is drawn
        assert all(word in texts for word in box.text.split())
    keys = {box.key for box in boxes}
    assert all(a.start in keys and a.end in keys for a in arrows)
    paths = [t for t in tree.iter() if t.tag.endswith("path") and t.attrib.get("fill") == "none"]
    assert len(paths) == len(arrows)


def referenced_files() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for rel in re.findall(r"^\.\. referee:: (\S+)$", page.read_text(encoding="utf-8"), re.M):
            found.append((page.stem, rel))
    return found


def test_every_game_page_has_its_disputes() -> None:
    counts: dict[str, int] = dict.fromkeys(RULEBOOKS, 0)
    for page, _ in referenced_files():
        counts[page] += 1
    assert all(count >= 5 for count in counts.values()), counts


@pytest.mark.parametrize(("page", "rel"), referenced_files())
def test_every_faq_answer_is_a_checked_ruling_of_its_own_game(page: str, rel: str) -> None:
    path = ROOT / rel
    assert path.is_file(), rel
    assert path.parent.name in CHECKED_FOLDERS  # so the example tests check its expected ruling
    question = load_question(path)
    assert question["rulebook"] == page
    answer = ask(question)
    text = "\n".join(PLAYERS.referee_lines(path, rel))
    verdict = f"**{PLAYERS.esc(first_words(answer))}.**"
    assert verdict in text
    for ident in answer["clauses"]:
        assert f":need:`[[id]] <{ident}>`" in text
    assert f"regelverk ask {rel}" in text


def test_only_readings_that_rule_otherwise_are_shown() -> None:
    rel = "examples/viggo/run-past-the-three.json"
    text = "\n".join(PLAYERS.referee_lines(ROOT / rel, rel))
    assert "``sequence_wrap = wrap``" in text and "``sequence_wrap = no-wrap``" not in text


def test_every_clause_the_pages_cite_exists() -> None:
    cited = 0
    for page in PAGES:
        for ident in re.findall(
            r":need:`\[\[id\]\] <([A-Z0-9-]+)>`", page.read_text(encoding="utf-8")
        ):
            registry_for(ident).entry(ident)
            cited += 1
    assert cited >= 100


def test_the_pages_are_in_the_projects_own_words() -> None:
    seeds = find_seeds(None)  # where regelverk check looks for them
    if seeds is None:
        pytest.skip("the rule texts are not at hand")
    texts = [p.read_text(encoding="utf-8") for p in sorted(seeds.glob("*.txt"))]
    for page in PAGES:
        own = page.read_text(encoding="utf-8")
        for text in texts:
            assert shared_runs(text, own) == (), page.name


def test_clause_lists_the_ruling_names_anyway_are_not_repeated() -> None:
    said = "Bo may not go out (V8-A-B, V8-C-D); the turn passes (V8-E-F)"
    assert PLAYERS.unrepeated(said, ["V8-A-B", "V8-C-D"]) == (
        "Bo may not go out; the turn passes (V8-E-F)"
    )


def test_a_seat_given_by_number_is_named() -> None:
    position = {"players": ["Ann", "Bo"], "turn": "Ann"}
    said, cards = PLAYERS.action_text({"action": "play", "player": 1, "cards": ["5H"]}, position)
    assert said == "Bo lays" and cards == ["5H"]
    said, _ = PLAYERS.action_text({"action": "draw"}, position)
    assert said == "Ann draws a card"


def test_without_matplotlib_the_plots_ask_for_the_docs_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sphinx.errors import ExtensionError

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ExtensionError, match=r"pip install 'regelverk\[docs\]'"):
        PLAYERS._pyplot()


def test_the_plots_are_drawn_from_the_committed_table(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "players").mkdir()
    table = ROOT / "docs" / "players" / "simulation.csv"
    (tmp_path / "players" / "simulation.csv").write_text(table.read_text(encoding="utf-8"))

    class App:
        srcdir = str(tmp_path)

    PLAYERS.draw_plots(App())
    drawn = sorted(p.name for p in (tmp_path / "_generated" / "players").glob("*.svg"))
    assert drawn == [
        "length.svg",
        "readings-uno.svg",
        "readings-vandatta.svg",
        "readings-viggo.svg",
        "readings-vvv8.svg",
        "seats.svg",
    ]
    seats = (tmp_path / "_generated" / "players" / "seats.svg").read_text(encoding="utf-8")
    assert "viggo: loses" in seats and "uno: wins" in seats


def test_error_bars_reach_from_each_share_to_its_wilson_interval() -> None:
    from regelverk.simulate import wilson

    of = 4_999
    counts = [0, 1, 1_234, 2_500, 4_998, 4_999]
    below, above = PLAYERS.error_bars(counts, of)
    for count, down, up in zip(counts, below, above, strict=True):
        low, high = wilson(count, of)
        assert count / of - down == pytest.approx(low) and count / of + up == pytest.approx(high)
    assert PLAYERS.error_bars([0], 0) == [[0.0], [1.0]]  # nothing counted: anything from 0 to 1


def test_the_fair_line_is_the_untied_results_split_evenly() -> None:
    from regelverk.simulate import Row

    row = Row(
        rulebook="viggo",
        option="",
        reading="",
        games=10,
        finished=10,
        mean_actions=1.0,
        mean_rounds=1.0,
        diverged=0,
        changed=0,
        outcome="game",
        outcomes=10,
        wins=(0, 0, 0, 0),
        losses=(3, 2, 2, 1),
        tied_wins=0,
        tied_losses=2,
    )
    assert PLAYERS.fair_share(row, losses=True) == pytest.approx(0.2)  # 8 untied of 10, 4 seats
    assert sum(row.losses) / row.outcomes == pytest.approx(4 * PLAYERS.fair_share(row, True))
    assert PLAYERS.fair_share(row, losses=False) == pytest.approx(0.25)


def test_the_variants_page_names_the_command_that_wrote_its_table() -> None:
    page = (ROOT / "docs" / "players" / "variants.rst").read_text(encoding="utf-8")
    table = (ROOT / "docs" / "players" / "simulation.csv").read_text(encoding="utf-8")
    head = dict(part.split("=") for part in table.splitlines()[0][2:].split())
    assert f"--games {head['games']} --seed {head['seed']}" in page
    named = set(re.findall(r"--option (\w+)", page))
    rows = {line.split(",")[1] for line in table.splitlines()[2:]} - {""}
    assert named == rows
