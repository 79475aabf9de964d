"""Sphinx extension: the dispute table of a rulebook as a page for players.

At every build, ``spec/disputes/vvv8.toml`` (read by :mod:`regelverk.disputes`) becomes
``_generated/disputes-vvv8.rst``: the text sentence by sentence, each sentence with its place, its
gist, and the questions players argue about, each answered by clauses, by an entry of the
ambiguity register (with its readings) or by a stated gap, all linked to the rulebook, and with the
ruling its question file expects from ``regelverk ask``, in the words the referee begins it with.
Nothing on the page is typed by hand, and no sentence of the text is quoted: the table holds only
fingerprints of the sentences.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from players import open_in_referee
from sphinx.application import Sphinx

from regelverk.disputes import Dispute, DisputeTable, SentenceRow, load
from regelverk.paths import source_root
from regelverk.registry import Registry, Rulebook, default_registry

IDS = re.compile(r"\b(?:V8|VA|VG|UNO)-[A-Z0-9]+(?:-[A-Z0-9]+)+\b")

KIND_WORDS = {
    "rule": "a rule",
    "advice": "advice, with no sanction",
    "reason": "the reason for a rule",
    "aside": "an aside",
    "title": "the title",
}


def esc(text: str) -> str:
    """Escape reStructuredText markup in plain text."""
    return re.sub(r"([\\*`|_\[\]])", r"\\\1", text)


def linked(text: str, known: set[str]) -> str:
    """Plain text with every id of the spec in it turned into a link to its entry."""
    parts = IDS.split(text)
    out = [esc(parts[0])]
    for ident, rest in zip(IDS.findall(text), parts[1:], strict=True):
        out += [f":need:`{ident}`" if ident in known else esc(ident), esc(rest)]
    return "".join(out)


def needs(idents: list[str]) -> str:
    """Links to clauses, in words: ``A``, ``A and B``, ``A, B and C``."""
    links = [f":need:`{i}`" for i in idents]
    return links[0] if len(links) == 1 else ", ".join(links[:-1]) + " and " + links[-1]


def heading(text: str, mark: str) -> list[str]:
    """A section title underlined (and for '#' overlined too)."""
    line = mark * max(len(text), 3)
    return [line, text, line, ""] if mark == "#" else [text, line, ""]


def answer_lines(dispute: Dispute, registry: Registry, known: set[str]) -> list[str]:
    """How the question is answered, in words, with links."""
    if dispute.ambiguity is not None:
        entry = registry.ambiguity(dispute.ambiguity)
        readings = ", ".join(
            f"*{esc(r.name)}*" + (" (the model's default)" if r.name == entry.default else "")
            for r in entry.readings
        )
        return [
            f"The text can be read more than one way: see :need:`{entry.id}`, whose readings "
            f"are {readings}; a table chooses with the option ``{entry.option}``."
        ]
    if dispute.gap is not None:
        return [f"**A gap in the text.** {linked(dispute.gap, known)}"]
    return [f"Settled by {needs(list(dispute.clauses))}."]


def _verdict(path: Path | None, expect: dict[str, Any]) -> str:
    """The ruling's first words: the referee's verdict (:func:`regelverk.verdicts.first_words`)
    where the referee gives the ruling the file expects; else only what the file expects,
    allowed or not."""
    from regelverk.errors import RegelverkError
    from regelverk.referee import ask, load_question
    from regelverk.verdicts import Verdict, first_words

    expected = Verdict.ALLOWED.phrase if expect.get("allowed") else "Not allowed"
    if path is None:
        return expected
    try:
        answer = ask(load_question(path))
    except RegelverkError:
        return expected
    if answer["allowed"] is not expect.get("allowed"):
        return expected
    return first_words(answer)


def ruling_lines(dispute: Dispute, root: Path | None, known: set[str]) -> list[str]:
    """The ruling the question file expects, and, where the referee does not give it yet, why."""
    name = Path(dispute.file).stem
    lines: list[str] = []
    expect: dict[str, Any] = {}
    if root is not None and (root / dispute.file).is_file():
        expect = json.loads((root / dispute.file).read_text(encoding="utf-8")).get("expect", {})
    if expect:
        verdict = esc(_verdict(root / dispute.file if root is not None else None, expect))
        text = f"The ruling (question file {esc(name)}): **{verdict}**"
        cited = [str(c) for c in expect.get("clauses", [])]
        if cited:
            text += f", decided by {needs(cited)}"
        barred = [str(c) for c in expect.get("not_clauses", [])]
        if barred:
            text += f", and not by {needs(barred)}"
        lines.append(text + ".")
    else:
        lines.append(f"Question file {esc(name)}.")
    if dispute.xfail is not None:
        lines += ["", f"*Not yet so in the referee:* {linked(dispute.xfail, known)}"]
    if root is not None and (root / dispute.file).is_file():
        lines += ["", *open_in_referee(root / dispute.file, "../")]
    return lines


def sentence_block(
    row: SentenceRow,
    registry: Registry,
    root: Path | None,
    known: set[str],
    section_label: str | None = None,
) -> list[str]:
    """One sentence: its place (linked to the section of the rulebook's page labelled
    ``section_label``, where there is one) and kind, its gist, and its questions with their
    answers."""
    place = row.locator if section_label is None else f":ref:`{row.locator} <{section_label}>`"
    lines = [
        f".. rubric:: {place}: {KIND_WORDS.get(row.kind, row.kind)}",
        "",
        esc(row.gist),
        "",
    ]
    if not row.disputes:
        lines += ["Nothing here for players to argue about.", ""]
    for dispute in row.disputes:
        lines += [f"* **{esc(dispute.question)}**", ""]
        for part in (answer_lines(dispute, registry, known), ruling_lines(dispute, root, known)):
            lines += [f"  {line}" if line else "" for line in part] + [""]
    return lines


def disputes_page(
    table: DisputeTable, book: Rulebook, registry: Registry, root: Path | None
) -> str:
    """The whole page of one rulebook's dispute table."""
    known = {e.id for e in book.entries()}
    questions = [d for _, d in table.disputes()]
    pending = sum(1 for d in questions if d.xfail is not None)
    by_answer = {
        a: sum(1 for d in questions if d.answer == a) for a in ("clauses", "ambiguity", "gap")
    }
    lines = [
        f".. _disputes-{table.rulebook}:",
        "",
        *heading(f"{book.name}: every sentence, every dispute", "#"),
    ]
    lines += [
        f"The house rules of {esc(book.name)} read sentence by sentence, in the order of the text "
        f"({esc(book.seed)}). Under each sentence, its place (section, paragraph, sentence), what "
        "kind of sentence it is, its gist in our own words, and the questions players argue about "
        "at the table. Each question is settled by the rules (linked to their clauses), by the "
        ":ref:`register <register-vvv8>` where the text can be read more than one way (with the "
        "reading this rulebook takes unless the table chooses another), or, where the text says "
        "nothing, by a stated gap and what the referee does. Each comes with a question file "
        f"in the project's ``examples/{table.rulebook}-disputes/`` folder that ``regelverk ask`` "
        "rules on, and the ruling it should give.",
        "",
        f"{len(table.rows)} sentences and {len(questions)} questions: {by_answer['clauses']} "
        f"settled by the rules, {by_answer['ambiguity']} by the register and "
        f"{by_answer['gap']} by a stated gap. For {pending} of them the referee does not yet "
        "rule as the text supports; each says why.",
        "",
    ]
    titles = {s.number: s.title for s in book.sections}
    ruled = {c.at.section for c in book.clauses if c.at is not None}  # sections with a page
    section = None
    for row in table.rows:
        if row.section != section:
            section = row.section
            lines += heading(f"§{section} {titles.get(section, '')}".strip(), "=")
        label = f"rulebook-{table.rulebook}-{row.section}" if row.section in ruled else None
        lines += sentence_block(row, registry, root, known, label)
    return "\n".join(lines) + "\n"


def write_if_changed(path: Path, text: str) -> None:
    """Write a page only when it changed, so Sphinx reads it again only then."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    """Write ``_generated/disputes-vvv8.rst``."""
    out = Path(app.srcdir) / "_generated"
    out.mkdir(exist_ok=True)
    registry = default_registry()
    table = load("vvv8")
    page = disputes_page(table, registry.rulebook("vvv8"), registry, source_root())
    write_if_changed(out / "disputes-vvv8.rst", page)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the page generator."""
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
