"""Sphinx extension: write the rulebook's pages from ``spec/`` and the trace at every build.

Nothing on these pages is typed by hand: each clause, ambiguity, worked example, comparison row
and glossary term comes from ``spec/`` through :mod:`regelverk.registry`, and every link to code,
tests and proofs comes from :func:`regelverk.trace.trace`. The pages go to ``_generated/``.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import io
import itertools
import json
import os
import re
import textwrap
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import rulebook_site
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from regelverk.books import families
from regelverk.cli import build_parser
from regelverk.cli import main as cli_main
from regelverk.engine import option_values
from regelverk.games import EngineMissingError, game_for
from regelverk.paths import source_root
from regelverk.registry import (
    Ambiguity,
    Clause,
    Example,
    Registry,
    Rulebook,
    default_registry,
)
from regelverk.trace import ClauseTrace, Link, LinkKind, trace

LANGUAGES = {"sv": "Swedish", "no": "Norwegian"}


def plural(number: int, word: str) -> str:
    """``1 gap``, ``2 gaps``, ``3 ambiguities``."""
    if number == 1:
        return f"{number} {word}"
    return f"{number} {word[:-1]}ies" if word.endswith("y") else f"{number} {word}s"


def esc(text: str) -> str:
    """Escape reStructuredText markup in a plain-text value."""
    return re.sub(r"([\\*`|_\[\]])", r"\\\1", text)


def heading(text: str, mark: str) -> list[str]:
    """A section title underlined (and for '=' also overlined) with ``mark``."""
    line = mark * max(len(text), 3)
    return [line, text, line, ""] if mark == "#" else [text, line, ""]


def link_id(link: Link) -> str:
    """The need id of a code, test or proof link."""
    prefix = {LinkKind.CODE: "CODE", LinkKind.TEST: "TEST", LinkKind.PROOF: "PROOF"}[link.kind]
    body = re.sub(r"[^A-Z0-9]+", "-", link.target.upper()).strip("-")
    return f"{prefix}-{body}"


def plain(text: str) -> str:
    """A value for a need's title or field, which sphinx-needs shows as it is (no markup)."""
    return " ".join(text.split())


def gist(text: str, width: int = 60) -> str:
    """The start of a sentence, cut at a word and marked with an ellipsis when cut."""
    text = " ".join(text.split()).rstrip(".")
    if len(text) <= width:
        return text
    return text[:width].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def source_ref(label: str, link: Link) -> str:
    """A link to the line of the source that a trace link names."""
    return f":rb-source:`{label} <{link.path}:{link.line}>`"


def short_name(link: Link) -> str:
    """A function's dotted name without the package, a test's or theorem's own name."""
    return link.target.rpartition("::")[2].removeprefix("regelverk.")


def trace_lines(item: ClauseTrace, run: frozenset[str], meta: Sequence[str] = ()) -> list[str]:
    """The folded part of a clause card: the clause's id, place and status (``meta``), why it
    has its status, and its code, tests and proofs, each linked to its source (a theorem that
    was run links to its result). A player reads the rule; this is for whoever asks why."""
    code = item.of_kind(LinkKind.CODE)
    tests = item.of_kind(LinkKind.TEST)
    proofs = item.of_kind(LinkKind.PROOF)
    counts = [
        plural(len(own), word)
        for own, word in ((code, "function"), (tests, "test"), (proofs, "theorem"))
        if own
    ]
    found = "code, tests, proofs: " + ", ".join(counts) if counts else "why no code"
    summary = f"{item.clause.id} · {plain(item.clause.source)} · {found}"
    lines = [f"   .. disclosure:: {summary}", "", *meta]
    lines += [f"      {esc(item.reason[:1].upper() + item.reason[1:])}.", ""]
    if item.clause.also_at:
        lines += [f"      Also stated at {', '.join(str(a) for a in item.clause.also_at)}.", ""]
    for title, own in (("Code", code), ("Tests", tests)):
        first: dict[str, Link] = {}
        for link in own:
            first.setdefault(short_name(link), link)
        if first:
            refs = [source_ref(name, link) for name, link in first.items()]
            lines += [f"      {title}: " + ", ".join(refs) + ".", ""]
    if proofs:
        refs = []
        for link in proofs:
            name = short_name(link)
            result = f" (:ref:`result <theorem-{name}>`)" if name in run else ""
            refs.append(source_ref(name, link) + result)
        lines += ["      Proofs: " + ", ".join(dict.fromkeys(refs)) + ".", ""]
    return lines


def clause_block(
    item: ClauseTrace,
    run: frozenset[str] = frozenset(),
    unclear: dict[str, list[Ambiguity]] | None = None,
) -> list[str]:
    """One clause: a hidden ``clause`` need (its data and anchor for sphinx-needs) and the card
    a reader sees: the rule first, the parameters it fixes, the ambiguities that bear on it and
    the clauses it refers to, then, folded away, its id, locator (linked to its section), tag
    and status with its code, tests and proofs. ``run`` holds the theorems whose results are
    on the Proofs page."""
    clause = item.clause
    lines = [
        f".. clause:: {plain(clause.source)} · {clause.tag}",
        f"   :id: {clause.id}",
        f"   :tag: {clause.tag}",
        f"   :locator: {plain(clause.source)}",
        f"   :origin: {clause.origin}",
        f"   :status: {item.status.value}",
        f"   :rulebook: {clause.rulebook}",
        "   :hide:",
    ]
    if clause.refs:
        lines.append(f"   :refs: {', '.join(clause.refs)}")
    lines += ["", f"   {esc(clause.rule)}", "", f".. rb-card:: {clause.id}", ""]
    lines += [f"   {esc(clause.rule)}", ""]
    if clause.parameters:
        pairs = "; ".join(f"``{k} = {v!r}``" for k, v in clause.parameters)
        lines += [f"   Fixes: {pairs}.", ""]
    entries = (unclear or {}).get(clause.id, [])
    if entries:
        lines += ["   Unclear: " + "; ".join(f":need:`{e.id}`" for e in entries) + ".", ""]
    if clause.refs:
        lines += ["   See also: " + ", ".join(f":need:`{r}`" for r in clause.refs) + ".", ""]
    meta = [
        "      .. container:: clause-meta",
        "",
        f"         :need:`{clause.id} <{clause.id}>` · {locator_ref(clause)} · {clause.tag} · "
        f":rb-status:`{item.status.value}`",
        "",
    ]
    return lines + trace_lines(item, run, meta)


def locator_ref(clause: Clause) -> str:
    """A clause's place in its text, linked to that section of the rulebook's page (a clause
    from outside the text: its source, unlinked)."""
    section = section_of(clause)
    if section is None:
        return esc(clause.source)
    return f":ref:`{plain(clause.source)} <rulebook-{clause.rulebook}-{section}>`"


def ambiguity_block(entry: Ambiguity, mark: str = "-") -> list[str]:
    """One entry of the register under its own heading: a hidden ``ambiguity`` need (its data
    and anchor for sphinx-needs) and the card a reader sees: the question, the situation, the
    readings and why the default, then one line with its id, kind, option and clauses."""
    lines = [
        *heading(esc(entry.title), mark),
        f".. ambiguity:: {plain(entry.title)}",
        f"   :id: {entry.id}",
        f"   :kind: {entry.kind}",
        f"   :option: {entry.option}",
        f"   :default_reading: {entry.default}",
        f"   :rulebook: {entry.rulebook}",
        f"   :bears_on: {', '.join(entry.clauses)}",
        "   :hide:",
        "",
        f"   {esc(entry.question)}",
        "",
        f".. rb-card:: {entry.id}",
        "",
        f"   **Question.** {esc(entry.question)}",
        "",
        f"   **Situation.** {esc(entry.situation)}",
        "",
    ]
    for reading in entry.readings:
        default = " (the model's default)" if reading.name == entry.default else ""
        lines += [
            f"   * ``{entry.option} = {reading.name!r}``{default}: {esc(reading.reading)}",
            f"     In the situation: {esc(reading.outcome)}",
        ]
    winner = "can change who wins or loses" if entry.changes_winner else "does not change who wins"
    lines += ["", f"   **Why the default.** {esc(entry.reason)} The choice {winner}.", ""]
    clauses = ", ".join(f":need:`{c}`" for c in entry.clauses)
    lines += [
        "   .. container:: clause-meta",
        "",
        f"      :need:`{entry.id} <{entry.id}>` · {entry.kind} · option ``{entry.option}`` · "
        f"bears on {clauses}",
        "",
    ]
    return lines


def example_block(example: Example) -> list[str]:
    """A worked example as a table of steps with the model's verdict on each."""
    lines = [*heading(f"Worked example: {example.title} ({example.id})", "-")]
    lines += [f".. _{example.id}:", "", esc(example.setup), ""]
    lines += [".. list-table::", "   :header-rows: 1", "", "   * - #", "     - where"]
    lines += ["     - who", "     - does", "     - the text shows", "     - verdict", ""]
    for number, step in enumerate(example.steps, 1):
        cards = " ".join(step.cards) + (f" (names {step.suit})" if step.suit else "")
        decided = ", ".join(f":need:`{c}`" for c in step.clauses)
        if step.ambiguity:
            decided += f"; register :need:`{step.ambiguity}`"
        lines += [
            f"   * - {number}",
            f"     - {step.at}",
            f"     - {step.actor}",
            f"     - {step.action} {esc(cards)}",
            f"     - {esc(step.says)}",
            f"     - **{step.verdict}** ({decided})",
        ]
    return [*lines, ""]


def section_of(clause: Clause) -> int | None:
    """The section a clause stands in, or None for clauses from outside the text."""
    return clause.at.section if clause.at is not None else None


def paragraph_of(item: ClauseTrace) -> int:
    """The paragraph a clause stands in (0 for clauses from outside the text)."""
    return item.clause.at.paragraph if item.clause.at is not None else 0


def findings_page(book: Rulebook, proofs: dict[str, Any]) -> str | None:
    """What the theorems about a rulebook found, on a page of its own beside the rulebook's
    (players read the rules; this is for those who check them); what something that can
    happen (a never-ending game, say) looks like is shown in full. None without theorems."""
    own = [t for t in proofs["theorems"] if book.id in t["rulebooks"]]
    if not own:
        return None
    lines = [f".. _rulebook-{book.id}-theorems:", ""]
    lines += heading(f"What the theorems show about {book.name}", "#")
    lines += [
        f"The theorems about :ref:`{esc(book.name)} <rulebook-{book.id}>`, and what each "
        "found (all of them, with their clauses and bindings: :ref:`the proofs <proofs>`).",
        "",
    ]
    for entry in own:
        lines += [
            f"* :ref:`{entry['name']} <theorem-{entry['name']}>` ({entry['outcome']}): "
            f"{esc(entry['title'])}"
        ]
    lines.append("")
    for entry in own:
        if entry["kind"] == "exists" and entry["detail"]:
            lines += [f"{esc(entry['title'])}:", "", *literal(entry["detail"])]
    return "\n".join(lines) + "\n"


#: A rulebook with more clauses than this gets one page per section.
SPLIT_ABOVE = 80
#: A section with more clauses than this gets a heading per paragraph (or, outside the
#: text, per tag), so that the page's contents lead to every part of it.
HEADINGS_ABOVE = 10


def clause_groups(
    items: list[ClauseTrace], mark: str, run: frozenset[str], unclear: dict[str, list[Ambiguity]]
) -> list[str]:
    """A section's clauses in text order; in a long section under one heading per paragraph,
    titled with the start of its first rule (clauses from outside the text: one per tag)."""
    lines: list[str] = []
    if len(items) <= HEADINGS_ABOVE:
        for item in items:
            lines += clause_block(item, run, unclear)
        return lines
    groups: dict[str, list[ClauseTrace]] = {}
    for item in items:
        at = item.clause.at
        key = f"¶{at.paragraph}" if at is not None else item.clause.tag.capitalize()
        groups.setdefault(key, []).append(item)
    for key, own in groups.items():
        first = esc(gist(own[0].clause.rule))
        lines += heading(f"{key} {first}" if key.startswith("¶") else key, mark)
        for item in own:
            lines += clause_block(item, run, unclear)
    return lines


def section_lines(
    book: Rulebook,
    number: int,
    items: tuple[ClauseTrace, ...],
    *,
    marks: str,
    run: frozenset[str],
    unclear: dict[str, list[Ambiguity]],
    label: bool = False,
) -> list[str]:
    """One section of a text: its heading (``marks[0]``, labelled ``rulebook-ID-N`` with
    ``label``), its notes, and its clauses."""
    section = next(s for s in book.sections if s.number == number)
    own = sorted((i for i in items if section_of(i.clause) == number), key=paragraph_of)
    notes = [n for n in book.notes if n.at.section == number]
    lines = heading(f"§{section.number} {section.title}", marks[0])
    if label:
        lines = [f".. _rulebook-{book.id}-{number}:", "", *lines]
    shape = "A headed" if section.heading else "An unheaded"
    lines += [
        f"{shape} section starting at line {section.first_line}, with "
        f"{plural(len(section.paragraph_lines), 'paragraph')} and "
        f"{plural(len(own), 'clause')}.",
        "",
    ]
    for note in notes:
        lines += [f"* {note.at} (``{note.id}``, {note.kind}, no rule here): {esc(note.what)}"]
    if notes:
        lines.append("")
    return lines + clause_groups(own, marks[1], run, unclear)


def outside_lines(
    items: tuple[ClauseTrace, ...],
    marks: str,
    run: frozenset[str],
    unclear: dict[str, list[Ambiguity]],
) -> list[str]:
    """The clauses a text presupposes without stating them."""
    own = [i for i in items if section_of(i.clause) is None]
    lines = heading("Rules from outside the text", marks[0])
    lines += [
        "The text presupposes these rules without stating them; each says where it comes from.",
        "",
    ]
    return lines + clause_groups(own, marks[1], run, unclear)


def unclear_clauses(book: Rulebook) -> dict[str, list[Ambiguity]]:
    """For each clause, the entries of the register that bear on it."""
    found: dict[str, list[Ambiguity]] = {}
    for entry in book.ambiguities:
        for clause in entry.clauses:
            found.setdefault(clause, []).append(entry)
    return found


def rulebook_pages(
    book: Rulebook, items: tuple[ClauseTrace, ...], proofs: dict[str, Any]
) -> dict[str, str]:
    """The pages of one rulebook, by name under ``_generated/``: its own page (what the
    theorems found, every clause by section, notes, and worked examples) or, for a long text,
    its own page with a contents list and one page per section."""
    run = frozenset(t["name"] for t in proofs["theorems"])
    unclear = unclear_clauses(book)
    findings = findings_page(book, proofs)
    lines = [f".. _rulebook-{book.id}:", "", *heading(f"{book.name} ({book.id})", "#")]
    lines += [
        esc(book.summary),
        "",
        f":Text: ``{book.seed}`` ({LANGUAGES[book.language]})",
        f":Clauses: {len(book.clauses)} (how each is checked: :ref:`the trace <trace>`)",
        f":Ambiguities: {len(book.ambiguities)} (see :ref:`the register <register-{book.id}>`)",
        f":Clause id prefix: ``{book.prefix}-``",
    ]
    pages: dict[str, str] = {}
    if findings is not None:
        pages[f"{book.id}/theorems"] = findings
        lines += [f":Theorems: :doc:`what they show <{book.id}/theorems>`"]
        lines += ["", ".. toctree::", "   :hidden:", "", f"   {book.id}/theorems"]
    lines.append("")
    numbers = [s.number for s in book.sections]
    outside = any(section_of(i.clause) is None for i in items)
    if len(items) > SPLIT_ABOVE:
        entries: list[tuple[str, str, int]] = []
        for number in numbers:
            if not any(section_of(i.clause) == number for i in items):
                continue
            name = f"{book.id}/section-{number}"
            body = section_lines(book, number, items, marks="#=", run=run, unclear=unclear)
            pages[name] = "\n".join([f".. _rulebook-{book.id}-{number}:", "", *body]) + "\n"
            own = sum(1 for i in items if section_of(i.clause) == number)
            title = next(s.title for s in book.sections if s.number == number)
            entries.append((name, f"§{number} {esc(title)}", own))
        if outside:
            name = f"{book.id}/outside"
            pages[name] = "\n".join(outside_lines(items, "#=", run, unclear)) + "\n"
            own = sum(1 for i in items if section_of(i.clause) is None)
            entries.append((name, "Rules from outside the text", own))
        lines += heading("The sections", "=")
        lines += [".. toctree::", "   :hidden:", ""]
        lines += [f"   {name}" for name, _, _ in entries]
        lines.append("")
        lines += [f"* :doc:`{title} <{name}>`: {plural(n, 'clause')}" for name, title, n in entries]
        lines.append("")
        lines += [
            "Sections without a rule: "
            + (
                ", ".join(
                    f"§{s.number} {esc(s.title)}"
                    for s in book.sections
                    if f"{book.id}/section-{s.number}" not in pages
                )
                or "none"
            )
            + ".",
            "",
        ]
        for note in book.notes:
            if f"{book.id}/section-{note.at.section}" not in pages:
                lines += [f"* {note.at} (``{note.id}``, {note.kind}): {esc(note.what)}"]
        lines.append("")
    else:
        for number in numbers:
            lines += section_lines(
                book, number, items, marks="=-", run=run, unclear=unclear, label=True
            )
        if outside:
            lines += outside_lines(items, "=-", run, unclear)
    if book.examples:
        lines += heading("Worked examples", "=")
        for example in book.examples:
            lines += example_block(example)
    pages[book.id] = "\n".join(lines) + "\n"
    return pages


def register_pages(registry: Registry) -> dict[str, str]:
    """The ambiguity register of all four rulebooks: a page saying what it holds, and a page
    per rulebook with a heading per entry."""
    lines = [".. _register:", "", *heading("The ambiguity register", "#")]
    total = sum(len(b.ambiguities) for b in registry.rulebooks)
    lines += [
        f"{total} places where a text is ambiguous, contradicts itself or its own example, or "
        "leaves a gap that a referee must fill. Each entry gives the readings, a situation at the "
        "table where they differ, the reading the model takes by default and why, and the option "
        "that selects another reading.",
        "",
        ".. toctree::",
        "   :hidden:",
        "",
        *(f"   register/{book.id}" for book in registry.rulebooks),
        "",
    ]
    pages: dict[str, str] = {}
    for book in registry.rulebooks:
        kinds = Counter(a.kind for a in book.ambiguities)
        counted = ", ".join(plural(n, k) for k, n in sorted(kinds.items())) or "none"
        lines += [f"* :ref:`{book.name} ({book.id}) <register-{book.id}>`: {counted}"]
        page = [f".. _register-{book.id}:", "", *heading(f"Register: {book.name} ({book.id})", "#")]
        page += [f"{counted.capitalize()}.", ""]
        for entry in book.ambiguities:
            page += ambiguity_block(entry, "=")
        pages[f"register/{book.id}"] = "\n".join(page) + "\n"
    pages["register"] = "\n".join([*lines, ""]) + "\n"
    return pages


def comparison_page(registry: Registry) -> str:
    """vvv8 beside vandatta, point by point."""
    lines = [".. _comparison:", "", *heading("vvv8 beside vandatta", "#")]
    lines += [
        "The two Vändåtta texts compared point by point. Each difference is an option of the one "
        "Vändåtta engine, not a branch on the rulebook's name.",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 14 36 36 14",
        "",
        "   * - point",
        "     - vvv8 (000)",
        "     - vandatta (001)",
        "     - option",
    ]
    for row in registry.comparison:
        left = " ".join(f":need:`{c}`" for c in row.vvv8_clauses)
        right = " ".join(f":need:`{c}`" for c in row.vandatta_clauses)
        lines += [
            f"   * - {esc(row.topic)}",
            f"     - {esc(row.vvv8)} {left}",
            f"     - {esc(row.vandatta)} {right}",
            f"     - ``{row.option}``" if row.option else "     - (same rule)",
        ]
    return "\n".join(lines) + "\n"


def glossary_page(registry: Registry) -> str:
    """The Swedish and Norwegian terms of the texts."""
    lines = [".. _glossary-page:", "", *heading("Glossary", "#"), ".. glossary::", ""]
    shared = Counter(t.term.lower() for t in registry.glossary)
    for term in sorted(registry.glossary, key=lambda t: (t.term.lower(), t.language)):
        language = f" ({LANGUAGES[term.language]})" if shared[term.term.lower()] > 1 else ""
        lines.append(f"   {esc(term.term)}{language}")
        where = ", ".join(term.rulebooks)
        cited = " ".join(f":need:`{c}`" for c in term.clauses)
        lines += [
            f"      ({LANGUAGES[term.language]}; {where}) {esc(term.meaning)} {cited}".rstrip(),
            "",
        ]
    return "\n".join(lines) + "\n"


def link_blocks(links: Iterable[Link]) -> list[str]:
    """One entry per function, test or theorem, grouped by file: a hidden need (its data and
    anchor for sphinx-needs), the name linked to its source line, and the clauses it covers."""
    directive = {LinkKind.CODE: "codelink", LinkKind.TEST: "testlink", LinkKind.PROOF: "prooflink"}
    option = {LinkKind.CODE: "implements", LinkKind.TEST: "exercises", LinkKind.PROOF: "proves"}
    grouped: dict[str, list[Link]] = {}
    for link in links:
        grouped.setdefault(link_id(link), []).append(link)
    by_file: dict[str, list[str]] = {}
    for ident, group in sorted(grouped.items(), key=lambda kv: (kv[1][0].path, kv[1][0].line)):
        first = group[0]
        clauses = list(dict.fromkeys(link.clause for link in group))
        by_file.setdefault(first.path, []).extend(
            [
                f"* .. {directive[first.kind]}:: {plain(first.target)}",
                f"     :id: {ident}",
                f"     :where: {plain(first.path)}:{first.line}",
                f"     :{option[first.kind]}: {', '.join(clauses)}",
                "     :hide:",
                "",
                f"  {source_ref(short_name(first), first)} (line {first.line}): "
                + ", ".join(f":need:`{c}`" for c in clauses),
            ]
        )
    lines: list[str] = []
    for path, entries in by_file.items():
        lines += [*heading(f"``{path}``", "-"), *entries, ""]
    return lines


def trace_page(items: tuple[ClauseTrace, ...]) -> str:
    """The trace: status counts, and every piece of code, test and proof with its clauses."""
    lines = [".. _trace:", "", *heading("The trace", "#")]
    lines += [
        "Computed at build time: code cites clauses with ``@implements(...)``, tests with "
        "``@pytest.mark.clause(...)``, proofs in their theorems' ``clauses``. A clause with no "
        "code is *pending* until its engine lands.",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - rulebook",
        "     - clauses",
    ]
    statuses = ("pending", "implemented", "tested", "cited-by-proof", "proved", "not-modelled")
    lines += [f"     - {s}" for s in statuses]
    for book in sorted({i.clause.rulebook for i in items}):
        counts = Counter(i.status.value for i in items if i.clause.rulebook == book)
        lines += [f"   * - {book}", f"     - {sum(counts.values())}"]
        lines += [f"     - {counts.get(s, 0)}" for s in statuses]
    lines.append("")
    all_links = [link for item in items for link in item.links]
    for kind, title in (
        (LinkKind.CODE, "Code"),
        (LinkKind.TEST, "Tests"),
        (LinkKind.PROOF, "Proofs"),
    ):
        lines += heading(title, "=")
        own = [link for link in all_links if link.kind is kind]
        lines += link_blocks(own) if own else ["None yet.", ""]
    return "\n".join(lines) + "\n"


def cli_page() -> str:
    """Every command's ``--help``, taken from the parser itself."""
    parser = build_parser()
    lines = [".. _cli-reference:", "", *heading("Command reference", "#")]
    lines += ["The help of every command, as ``regelverk`` prints it.", ""]
    texts = [("regelverk", parser.format_help())]
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        choices: dict[str, Any] = getattr(action, "choices", {}) or {}
        for name, sub in choices.items():
            texts.append((f"regelverk {name}", sub.format_help()))
    for title, text in texts:
        lines += heading(title, "=")
        lines += [".. code-block:: text", ""]
        lines += [f"   {line}".rstrip() for line in text.splitlines()]
        lines.append("")
    return "\n".join(lines) + "\n"


def rulebooks_toctree(registry: Registry) -> str:
    """The toctree of the rulebooks' pages, one per rulebook of the registry (in the order of
    :data:`regelverk.books.RULEBOOKS`), included by ``index.rst``."""
    entries = "".join(f"   _generated/{book.id}\n" for book in registry.rulebooks)
    return f".. toctree::\n   :maxdepth: 1\n   :caption: The rulebooks\n\n{entries}"


def ask_pages(srcdir: Path) -> str:
    """A toctree of the engines' question-file pages (``docs/ask/*.rst``), as far as they exist."""
    pages = sorted(p.stem for p in (srcdir / "ask").glob("*.rst"))
    if not pages:
        return "No engine has landed yet, so no rulebook can be asked about.\n"
    entries = "".join(f"   ask/{name}\n" for name in pages)
    return f".. toctree::\n   :maxdepth: 1\n\n{entries}"


def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a dataclass's fields (read from its source)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    found: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[node.target.id] = " ".join(after.value.value.split())
    return found


def options_page(registry: Registry) -> str:
    """Every engine's options: each field, what it selects, and each rulebook's preset value."""
    lines = [".. _options:", "", *heading("Options and presets", "#")]
    lines += [
        "Each game family has one options type; a rulebook is a named preset of it. A field that "
        "selects a reading of an ambiguity has the ambiguity's option name and links to it.",
        "",
    ]
    landed = False
    for described in families().values():
        books = [b.name for b in described]
        try:
            game = game_for(books[0])
        except EngineMissingError:
            continue
        landed = True
        by_option = {
            a.option: a for b in registry.rulebooks if b.id in books for a in b.ambiguities
        }
        presets = {b: game.options(b) for b in books}
        first = presets[books[0]]
        docs = field_docs(type(first))
        lines += heading(f"{game.family} ({', '.join(books)})", "=")
        lines += [".. list-table::", "   :header-rows: 1", "   :widths: auto", ""]
        lines += ["   * - option"]
        lines += [f"     - {b}" for b in books] + ["     - what it is"]
        for field in dataclasses.fields(first):
            values = [option_values(presets[b])[field.name] for b in books]
            ambiguity = by_option.get(field.name)
            link = f" (:need:`{ambiguity.id}`)" if ambiguity else ""
            lines += [f"   * - ``{field.name}``"]
            lines += [f"     - ``{v!r}``" for v in values]
            lines += [f"     - {docs.get(field.name, '')}{link}"]
        lines.append("")
    if not landed:
        lines += ["No engine has landed yet.", ""]
    return "\n".join(lines) + "\n"


def proof_results() -> dict[str, Any]:
    """The results of ``regelverk prove --json``: read from the file ``REGELVERK_PROOF_RESULTS``
    names (the scripts run the suite once and pass it on), else computed now."""
    named = os.environ.get("REGELVERK_PROOF_RESULTS")
    if named:
        data: dict[str, Any] = json.loads(Path(named).read_text(encoding="utf-8"))
        return data
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        cli_main(["prove", "--json"])
    data = json.loads(buffer.getvalue())
    return data


def recorded_mutants() -> dict[str, Any] | None:
    """The recorded mutation run (``regelverk mutate --record``), or ``None``."""
    from regelverk_proofs.mutate import recorded

    return recorded()


def literal(text: str) -> list[str]:
    """A block of preformatted text."""
    return [".. code-block:: text", "", *(f"   {line}".rstrip() for line in text.splitlines()), ""]


def theorem_section(entry: dict[str, Any]) -> list[str]:
    """One theorem: its words, clauses, result and time, and the weakenings that break it."""
    lines = [f".. _theorem-{entry['name']}:", "", *heading(entry["name"], "=")]
    lines += [f"**{esc(entry['title'])}** ({', '.join(entry['rulebooks'])})", ""]
    lines += [esc(entry["statement"]), ""]
    lines += ["Rests on: " + ", ".join(f":need:`{c}`" for c in entry["clauses"]) + ".", ""]
    kind = "something can happen" if entry["kind"] == "exists" else "it always holds"
    lines += [
        f"*Result:* **{entry['outcome']}** ({kind}; {plural(entry['cases'], 'case')} "
        f"decided in {entry['seconds']:.2f} s).",
        "",
    ]
    if entry["detail"]:
        lines += literal(entry["detail"])
    lines += ["Bound to the engine by:", ""]
    for b in entry.get("bindings", []):
        counts = ", ".join(f"{kind} {n}" for kind, n in b["counts"].items())
        verdict = "agrees" if b["agrees"] else "**disagrees**"
        lines += [f"* ``{b['name']}``: {esc(b['statement'])} ({verdict}; {counts})"]
    lines += ["", "It would fail without:", ""]
    lines += [f"* :need:`{w['clause']}`: {esc(w['how'])}" for w in entry["weakenings"]]
    return [*lines, ""]


def mutants_page(data: dict[str, Any] | None) -> str:
    """The recorded mutation run: each engine mutant, its clauses, and what killed it."""
    lines = [".. _mutants:", "", *heading("Mutants", "#")]
    lines += [
        "A *mutant* is one meaningful change to the engine's rule code, made in a scratch copy "
        "of the source: an ace that no longer skips, a game that ends above its target. "
        "``regelverk mutate`` makes each change of the catalogue and runs the theorems of the "
        "mutant's engine family (bindings included) and the ordinary tests that can reach the "
        "changed code, scored apart; a kill is a failing assertion. A clause counts as "
        "*proved* only where a theorem stating it is broken both by a weakening of the clause "
        "and by one of these mutants, and as *tested* only where an ordinary test kills every "
        "mutant of it.",
        "",
    ]
    if data is None:
        return "\n".join([*lines, "No mutation run is recorded yet.", ""]) + "\n"
    lines += [
        f"The recorded run: {esc(data['score'])}, in {data['seconds']} s.",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 20 20 30 30",
        "",
        "   * - mutant",
        "     - clauses",
        "     - killed by theorems",
        "     - killed by tests",
    ]
    for row in data["mutants"]:
        theorems = ", ".join(f":ref:`{t} <theorem-{t}>`" for t in row["theorems"]) or "none"
        tests = ", ".join(f"``{t.rpartition('::')[2]}``" for t in row["tests"]) or "none"
        lines += [
            f"   * - ``{row['id']}``: {esc(row['what'])}",
            f"     - {', '.join(f':need:`{c}`' for c in row['clauses'])}",
            f"     - {theorems}",
            f"     - {tests}",
        ]
    idle = data.get("theorems_killing_no_mutant_of_their_clauses", [])
    lines += [
        "",
        "Theorems that no mutant of a clause they cite breaks: "
        + (", ".join(f"``{t}``" for t in idle) if idle else "none")
        + ".",
        "",
    ]
    return "\n".join(lines) + "\n"


def proofs_page(data: dict[str, Any]) -> str:
    """Every theorem with its result, from one run of the suite."""
    lines = [".. _proofs:", "", *heading("Proofs", "#")]
    held = sum(1 for t in data["theorems"] if t["holds"])
    lines += [
        f"{plural(len(data['theorems']), 'theorem')}, {held} holding, checked with Z3 "
        f"{data['z3']} in {data['seconds']:.1f} s when this page was built "
        "(``regelverk prove`` runs them again). :ref:`proving` says how they are built and "
        "kept honest.",
        "",
    ]
    if not data["theorems"]:
        return "\n".join([*lines, "No theorems are defined yet.", ""]) + "\n"
    lines += [
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - theorem",
        "     - rulebooks",
        "     - result",
        "     - cases",
        "     - seconds",
    ]
    for entry in data["theorems"]:
        lines += [
            f"   * - :ref:`{entry['name']} <theorem-{entry['name']}>`",
            f"     - {', '.join(entry['rulebooks'])}",
            f"     - {entry['outcome']}",
            f"     - {entry['cases']}",
            f"     - {entry['seconds']:.2f}",
        ]
    lines.append("")
    for entry in data["theorems"]:
        lines += theorem_section(entry)
    return "\n".join(lines) + "\n"


def questions_page(root: Path | None) -> str:
    """The scenarios questions may ask about, with their facts, and the example questions
    (``examples/can/*.json``) answered now."""
    from regelverk.referee import ask
    from regelverk_proofs import scenarios
    from regelverk_proofs.query import facts_of

    lines = [".. _questions:", "", *heading("Can it ever happen?", "#")]
    lines += ["The example questions, answered by Z3 when this page was built.", ""]
    for path in sorted((root / "examples" / "can").glob("*.json")) if root else ():
        question = json.loads(path.read_text(encoding="utf-8"))
        answer = ask(question)
        lines += heading(f"{question['rulebook']}: can it happen that {answer['question']}?", "=")
        lines += [f"``examples/can/{path.name}``, scenario ``{answer['scenario']}``.", ""]
        if answer["possible"]:
            lines += ["**Yes.** For instance:", "", *literal(answer["witness"])]
        else:
            lines += ["**No.** These clauses together forbid it:", ""]
            lines += [f"* :need:`{c}`" for c in answer["forbidding"]]
            lines.append("")
    lines += heading("Scenarios and their facts", "=")
    for scenario in scenarios():
        lines += heading(f"{scenario.rulebook}: {scenario.name}", "-")
        lines += [esc(scenario.description), ""]
        lines += [f"* ``{f.name}``: {esc(f.description)}" for f in facts_of(scenario)]
        if scenario.constants:
            named = ", ".join(f"``{k}`` = {v}" for k, v in scenario.constants.items())
            lines += [f"* values: {named}"]
        lines.append("")
    return "\n".join(lines) + "\n"


def write_if_changed(path: Path, text: str) -> bool:
    """Write a page only when it changed, so Sphinx rebuilds only what changed; say whether
    it did."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def clause_table(
    registry: Registry, pages: dict[str, str], items: tuple[ClauseTrace, ...]
) -> list[dict[str, str]]:
    """Every clause and ambiguity for the search page: id, rulebook, kind, words, and the page
    (relative to the site's root) that holds it."""
    page_of: dict[str, str] = {}
    for name, text in pages.items():
        for ident in re.findall(r"^\s*:id: (\S+)$", text, re.MULTILINE):
            page_of[ident] = f"_generated/{name}.html#{ident}"
    table = [
        {
            "id": i.clause.id,
            "book": i.clause.rulebook,
            "kind": i.clause.tag,
            "where": i.clause.source,
            "text": i.clause.rule,
            "url": page_of[i.clause.id],
        }
        for i in items
        if i.clause.id in page_of
    ]
    for book in registry.rulebooks:
        table += [
            {
                "id": a.id,
                "book": book.id,
                "kind": "ambiguity",
                "where": "register",
                "text": f"{a.title}{'' if a.title[-1:] in '.?!' else '.'} {a.question}",
                "url": page_of[a.id],
            }
            for a in book.ambiguities
        ]
    return table


#: Whether this build's generated pages differ from the last build's.
REWRITTEN: weakref.WeakKeyDictionary[Sphinx, bool] = weakref.WeakKeyDictionary()


def generate(app: Sphinx) -> None:
    """Write every generated page into ``_generated/``, and tell the site extension which
    source files the pages link to and where each clause stands."""
    out = Path(app.srcdir) / "_generated"
    out.mkdir(exist_ok=True)
    registry = default_registry()
    items = trace(registry)
    proofs = proof_results()
    pages: dict[str, str] = {}
    changed = False
    for book in registry.rulebooks:
        own = tuple(i for i in items if i.clause.rulebook == book.id)
        pages.update(rulebook_pages(book, own, proofs))
    pages.update(register_pages(registry))
    for name, text in pages.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        changed |= write_if_changed(out / f"{name}.rst", text)
    for stale in out.glob("*/*.rst"):
        if stale.relative_to(out).with_suffix("").as_posix() not in pages:
            stale.unlink()
            changed = True
    rulebook_site.publish(
        app,
        sources=sorted({link.path for i in items for link in i.links}),
        clauses=clause_table(registry, pages, items),
    )
    changed |= write_if_changed(out / "comparison.rst", comparison_page(registry))
    changed |= write_if_changed(out / "glossary.rst", glossary_page(registry))
    changed |= write_if_changed(out / "trace.rst", trace_page(items))
    changed |= write_if_changed(out / "ask_pages.rst.txt", ask_pages(Path(app.srcdir)))
    changed |= write_if_changed(out / "rulebooks.rst.txt", rulebooks_toctree(registry))
    changed |= write_if_changed(out / "options.rst", options_page(registry))
    with redirect_stdout(io.StringIO()):
        changed |= write_if_changed(out / "cli.rst", cli_page())
    changed |= write_if_changed(out / "proofs.rst", proofs_page(proofs))
    changed |= write_if_changed(out / "mutants.rst", mutants_page(recorded_mutants()))
    changed |= write_if_changed(out / "questions.rst", questions_page(source_root()))
    REWRITTEN[app] = changed


def outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """When a generated page changed, every page is read again: a clause or an entry of the
    register may have moved to another page, and the pages that refer to it must follow."""
    return sorted(env.found_docs) if REWRITTEN.get(app) else []


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the page generator."""
    app.connect("builder-inited", generate)
    app.connect("env-get-outdated", outdated)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
