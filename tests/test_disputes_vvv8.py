"""The dispute table of 000 (vvv8): every sentence has its row, and every question is answered.

``spec/disputes/vvv8.toml`` reads the text sentence by sentence and poses, for each sentence, the
questions players argue about, each with a question file in ``examples/vvv8-disputes/`` whose
``expect`` states the ruling the text supports. Here the table is validated (form, ids, files;
against the text when the rule texts are at hand, found as ``regelverk check`` finds them), the
validator and the sentence splitter are shown to catch what they must, and every question file is
put to :func:`regelverk.referee.ask`: the ruling must match ``allowed``, cite every clause of
``expect.clauses`` and none of ``expect.not_clauses``, report no problem with the position, and,
for a question answered by the register, show that entry's readings. A dispute marked ``xfail``
in the table is one the engine does not yet answer as the text supports: it is expected to fail
(strictly, so that a fix is noticed and the mark removed).

All 183 rulings, each with the readings of its deciding ambiguities, take about a second.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from regelverk.cli import find_seeds
from regelverk.disputes import (
    Dispute,
    DisputeTable,
    DisputeTableError,
    SentenceRow,
    load,
    problems,
    problems_against_text,
    table_path,
)
from regelverk.paths import source_root
from regelverk.referee import ask, load_question
from regelverk.registry import default_registry
from regelverk.source import sentences

REGISTRY = default_registry()
BOOK = REGISTRY.rulebook("vvv8")
TABLE = load("vvv8")
CHECKOUT = source_root()
ROOT = CHECKOUT if CHECKOUT is not None and (CHECKOUT / "examples").is_dir() else None
"""The checkout, where it holds the question files (an sdist does not ship ``examples/``)."""
SEEDS = find_seeds(None)
TEXT = (SEEDS / BOOK.seed).read_text(encoding="utf-8") if SEEDS is not None else None
needs_text = pytest.mark.skipif(TEXT is None, reason="the rule texts are not at hand")
needs_checkout = pytest.mark.skipif(ROOT is None, reason="the question files are not at hand")


def test_the_table_validates_against_the_spec_and_its_files() -> None:
    assert problems(TABLE, REGISTRY, ROOT) == []
    assert TABLE.rows and all(row.disputes for row in TABLE.rows if row.kind == "rule")


@needs_text
def test_every_sentence_of_the_text_has_exactly_one_row() -> None:
    assert TEXT is not None
    assert problems_against_text(TABLE, BOOK, TEXT) == []
    paragraphs = {(r.section, r.paragraph) for r in TABLE.rows}
    assert len(paragraphs) == len(list(BOOK.paragraphs()))


@needs_text
def test_the_text_check_finds_a_wrong_fingerprint_a_missing_row_and_a_pasted_sentence() -> None:
    assert TEXT is not None
    first, second, *rest = TABLE.rows
    wrong = DisputeTable(
        rulebook="vvv8",
        title=TABLE.title,
        rows=(
            SentenceRow(
                section=first.section,
                paragraph=first.paragraph,
                sentence=first.sentence,
                fingerprint="000000000000",
                kind=first.kind,
                gist=" ".join(TEXT.split()[20:28]),  # eight words of the text, pasted
                disputes=first.disputes,
            ),
            *rest,
        ),
    )
    found = problems_against_text(wrong, BOOK, TEXT)
    assert any("the fingerprint is 000000000000" in p for p in found)
    assert any(f"§{second.section} ¶{second.paragraph} s{second.sentence}" in p for p in found)
    assert any("repeats the text's words" in p for p in found)


def _spoilt(tmp_path: Path, old: str, new: str) -> Path:
    text = table_path("vvv8").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "vvv8.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_dispute_with_two_answers_or_none_is_refused(tmp_path: Path) -> None:
    path = _spoilt(
        tmp_path, 'clauses = ["V8-SETUP-NO-JOKERS"]', 'ambiguity = "V8-AMB-X"\ngap = "y"'
    )
    with pytest.raises(DisputeTableError, match="exactly one of clauses, ambiguity or gap"):
        load("vvv8", path)
    path = _spoilt(tmp_path, 'clauses = ["V8-SETUP-NO-JOKERS"]\n', "")
    with pytest.raises(DisputeTableError, match="not none"):
        load("vvv8", path)


def test_a_rule_without_a_dispute_is_refused(tmp_path: Path) -> None:
    text = table_path("vvv8").read_text(encoding="utf-8")
    head, _, tail = text.partition('gist = "Jokers are taken out of the pack."\n')
    _, _, after = tail.partition("[[sentence]]")
    path = tmp_path / "vvv8.toml"
    path.write_text(head + 'gist = "Jokers go."\n\n[[sentence]]' + after, encoding="utf-8")
    with pytest.raises(DisputeTableError, match="a rule needs at least one dispute"):
        load("vvv8", path)


@needs_checkout
def test_unknown_ids_rows_out_of_order_and_missing_or_stray_files_are_found(
    tmp_path: Path,
) -> None:
    assert ROOT is not None
    spoilt = _spoilt(tmp_path, '"V8-SETUP-NO-JOKERS"', '"V8-SETUP-NO-JOKERZ"')
    spoilt.write_text(
        spoilt.read_text(encoding="utf-8")
        .replace('ambiguity = "V8-AMB-MANY-PLAYERS"', 'ambiguity = "V8-AMB-NONE-SUCH"', 1)
        .replace("1-1-1-no-jokers.json", "1-1-1-no-such-file.json", 1)
        .replace(
            "at = { section = 1, paragraph = 1, sentence = 3 }",
            "at = { section = 1, paragraph = 1, sentence = 1 }",
            1,
        ),
        encoding="utf-8",
    )
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / "examples" / "vvv8-disputes", root / "examples" / "vvv8-disputes")
    (root / "examples" / "vvv8-disputes" / "stray.json").write_text("{}", encoding="utf-8")
    found = problems(load("vvv8", spoilt), REGISTRY, root)
    assert any("'V8-SETUP-NO-JOKERZ' is not a clause" in p for p in found)
    assert any("'V8-AMB-NONE-SUCH' is not in vvv8's register" in p for p in found)
    assert any("rows must follow the text's order" in p for p in found)
    assert any("1-1-1-no-such-file.json: the file does not exist" in p for p in found)
    assert any("stray.json is named by no dispute" in p for p in found)
    assert any("1-1-1-no-jokers.json is named by no dispute" in p for p in found)


@needs_checkout
def test_a_question_file_without_a_sound_expect_is_found(tmp_path: Path) -> None:
    assert ROOT is not None
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / "examples" / "vvv8-disputes", root / "examples" / "vvv8-disputes")
    path = root / TABLE.rows[1].disputes[0].file
    data = json.loads(path.read_text(encoding="utf-8"))
    data["expect"] = {"allowed": "yes", "clauses": []}
    path.write_text(json.dumps(data), encoding="utf-8")
    other = root / TABLE.rows[2].disputes[0].file
    data = json.loads(other.read_text(encoding="utf-8"))
    data["expect"]["clauses"] = ["V8-AMB-MANY-PLAYERS"]
    other.write_text(json.dumps(data), encoding="utf-8")
    found = problems(TABLE, REGISTRY, root)
    assert any("'expect' must state 'allowed'" in p for p in found)
    assert any("names 'V8-AMB-MANY-PLAYERS', which is not a clause" in p for p in found)


@pytest.mark.parametrize(
    ("paragraph", "expected"),
    [
        ("Ess är högt. Två kort dras.", ("Ess är högt.", "Två kort dras.")),
        # abbreviations end no sentence, even before a capital
        (
            "Han tar t.ex. Viggo med. P.g.a. detta, dvs. Ann, ger.",
            ("Han tar t.ex. Viggo med.", "P.g.a. detta, dvs. Ann, ger."),
        ),
        ("Obs! Detta m.h.a. bl.a. Bo gäller.", ("Obs! Detta m.h.a. bl.a. Bo gäller.",)),
        # a sentence in brackets, and a stop inside a bracket the text never closes
        ("Alla drar. (Gäller bara Viggo).", ("Alla drar.", "(Gäller bara Viggo).")),
        (
            "(Om Bo går. Annat skäl finns. Han får återvända.",
            ("(Om Bo går.", "Annat skäl finns.", "Han får återvända."),
        ),
        ("(Borde vara klart!) Nästa.", ("(Borde vara klart!)", "Nästa.")),
        # quotes: a stop before a closing quote, a capital behind an opening one
        ('Han säger "utgång". "Lappen" går också.', ('Han säger "utgång".', '"Lappen" går också.')),
        ("Som ”Jaså, inga!” när han drar. Nästa.", ("Som ”Jaså, inga!” när han drar.", "Nästa.")),
        # a colon ends nothing, a small letter after a stop ends nothing, a trailing comma
        ("Fel: Kort läggs. Straff: Tre kort,", ("Fel: Kort läggs.", "Straff: Tre kort,")),
        (
            "Ess räknas som 14, och 2 är lägst. 4 kort.",
            ("Ess räknas som 14, och 2 är lägst.", "4 kort."),
        ),
        ("", ()),
    ],
)
def test_the_sentence_splitter(paragraph: str, expected: tuple[str, ...]) -> None:
    assert sentences(paragraph) == expected


def _params() -> list[Any]:
    params = []
    for row, dispute in TABLE.disputes():
        marks: list[Any] = []
        if dispute.xfail is not None:
            marks.append(pytest.mark.xfail(reason=dispute.xfail, strict=True))
        name = Path(dispute.file).stem
        params.append(pytest.param(row, dispute, id=name, marks=marks))
    return params


def _readings(answer: dict[str, Any]) -> set[str]:
    found = {r["ambiguity"] for r in answer.get("readings", [])}
    for step in answer.get("steps", []):
        found |= {r["ambiguity"] for r in step["readings"]}
    return found


@needs_checkout
@pytest.mark.parametrize(("row", "dispute"), _params())
def test_every_question_is_answered_as_the_text_supports(
    row: SentenceRow, dispute: Dispute
) -> None:
    assert ROOT is not None
    question = load_question(ROOT / dispute.file)
    expect = question["expect"]
    answer = ask(question)
    assert answer["problems"] == [], row.locator
    assert answer["allowed"] is expect["allowed"], answer["message"]
    cited = set(answer["clauses"])
    assert set(expect["clauses"]) <= cited, (
        sorted(set(expect["clauses"]) - cited),
        answer["message"],
    )
    assert not set(expect.get("not_clauses", [])) & cited, answer["message"]
    if dispute.ambiguity is not None:
        assert dispute.ambiguity in _readings(answer), sorted(_readings(answer))
