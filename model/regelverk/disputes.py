"""Dispute tables: a rule text read sentence by sentence, with the questions players argue about.

A dispute table (``spec/disputes/<rulebook>.toml``; only ``vvv8`` has one) holds one row per
sentence of the rulebook's text, in text order. A row names its sentence by section, paragraph
(counted as the rulebook's spec counts them, :func:`regelverk.source.split`) and sentence (from 1
inside the paragraph, :func:`regelverk.source.sentences`), carries a fingerprint of the sentence
instead of its words, says what kind of sentence it is and gives its gist in the project's own
words. Under it, each dispute is a question players argue about, answered in exactly one way:

* ``clauses``: the clauses of the rulebook that settle it;
* ``ambiguity``: an entry of the ambiguity register, whose readings answer it;
* ``gap``: a statement of what the text does not settle, the readings a table might take, and
  what the model does;

and each names a question file (``examples/<rulebook>-disputes/*.json``) that ``regelverk ask``
rules on, with an ``expect`` block stating the ruling the text supports: ``allowed``, the
deciding ``clauses`` the ruling must cite, and optionally ``not_clauses`` it must not cite. A
dispute the engine does not yet answer as the text supports is marked ``xfail`` with the reason.

:func:`load` reads a table and checks its form; :func:`problems` checks it against the spec
(every id exists, rows in text order, locators inside the text's paragraphs) and, given the
checkout, its question files (each exists, parses, and is named by exactly one dispute);
:func:`problems_against_text` checks it against the text itself (every sentence of every
paragraph has exactly one row, with the right fingerprint, and no six words of the text are
repeated). :func:`check` runs all of these for ``regelverk check``, without ruling on a file.

>>> table = load("vvv8")
>>> table.rulebook, table.rows[0].locator
('vvv8', '§0 ¶1 s1')
>>> sum(1 for _ in table.disputes()) >= len(table.rows) > 100
True
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from regelverk.errors import SpecError
from regelverk.paths import source_root, spec_dir
from regelverk.records import record
from regelverk.registry import (
    Ambiguity,
    Clause,
    FieldChecker,
    Registry,
    Rulebook,
    text_paragraphs,
)
from regelverk.source import fingerprint, sentences, shared_runs

__all__ = [
    "KINDS",
    "TABLES",
    "Dispute",
    "DisputeTable",
    "DisputeTableError",
    "SentenceRow",
    "check",
    "load",
    "problems",
    "problems_against_text",
    "table_path",
]

TABLES: tuple[str, ...] = ("vvv8",)
"""The rulebooks that have a dispute table."""

KINDS: tuple[str, ...] = ("rule", "advice", "reason", "aside", "title")
"""What a sentence is: a rule, advice without a sanction, the reason for a rule, an aside, or a
title. Every rule has at least one dispute; the others have one only where players argue."""

ANSWERS: tuple[str, ...] = ("clauses", "ambiguity", "gap")
"""The ways a dispute is answered; a dispute gives exactly one."""


class DisputeTableError(SpecError):
    """A dispute table that cannot be read, or breaks its form; ``problems`` lists every fault."""


@record
class Dispute:
    """A question players argue about, its answer, and the question file that poses it."""

    question: str
    clauses: tuple[str, ...]
    ambiguity: str | None
    gap: str | None
    file: str
    xfail: str | None

    @property
    def answer(self) -> str:
        """How the dispute is answered: ``clauses``, ``ambiguity`` or ``gap``."""
        if self.ambiguity is not None:
            return "ambiguity"
        return "gap" if self.gap is not None else "clauses"


@record
class SentenceRow:
    """One sentence of the text: where it stands, its fingerprint, kind and gist, its disputes."""

    section: int
    paragraph: int
    sentence: int
    fingerprint: str
    kind: str
    gist: str
    disputes: tuple[Dispute, ...]

    @property
    def key(self) -> tuple[int, int, int]:
        """Section, paragraph and sentence, for ordering."""
        return self.section, self.paragraph, self.sentence

    @property
    def locator(self) -> str:
        """The sentence's place, e.g. ``§1 ¶2 s3``."""
        return f"§{self.section} ¶{self.paragraph} s{self.sentence}"


@record
class DisputeTable:
    """The dispute table of one rulebook."""

    rulebook: str
    title: str
    rows: tuple[SentenceRow, ...]

    def disputes(self) -> Iterator[tuple[SentenceRow, Dispute]]:
        """Every dispute with its row, in text order."""
        for row in self.rows:
            for dispute in row.disputes:
                yield row, dispute


def table_path(rulebook: str = "vvv8", spec: Path | None = None) -> Path:
    """Where a rulebook's dispute table lives: ``spec/disputes/<rulebook>.toml``."""
    return (spec if spec is not None else spec_dir()) / "disputes" / f"{rulebook}.toml"


class _Reader(FieldChecker):
    """Collects the faults of one table while it is read (the spec's field checks, and the
    table's own rows and disputes)."""

    def optional(self, raw: Mapping[str, Any], key: str, where: str) -> str | None:
        return self.text(raw, key, where) if key in raw else None

    def whole(self, raw: Mapping[str, Any], key: str, where: str) -> int:
        value = raw.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            self.fail(f"{where}: '{key}' must be a whole number, not {value!r}")
            return -1
        return value

    def dispute(self, raw: object, where: str) -> Dispute | None:
        if not isinstance(raw, dict):
            self.fail(f"{where}: a dispute must be a table")
            return None
        unknown = sorted(set(raw) - {"question", "file", "xfail", *ANSWERS})
        if unknown:
            self.fail(f"{where}: unknown fields {unknown}")
        given = [a for a in ANSWERS if a in raw]
        if len(given) != 1:
            self.fail(
                f"{where}: a dispute is answered by exactly one of clauses, ambiguity or gap, "
                f"not {given or 'none'}"
            )
        clauses = raw.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            self.fail(f"{where}: 'clauses' must be a list of clause ids")
            clauses = []
        if "clauses" in raw and not clauses:
            self.fail(f"{where}: 'clauses' names no clause")
        return Dispute(
            question=self.text(raw, "question", where),
            clauses=tuple(clauses),
            ambiguity=self.optional(raw, "ambiguity", where),
            gap=self.optional(raw, "gap", where),
            file=self.text(raw, "file", where),
            xfail=self.optional(raw, "xfail", where),
        )

    def row(self, raw: object, number: int) -> SentenceRow | None:
        where = f"sentence row {number}"
        if not isinstance(raw, dict):
            self.fail(f"{where}: a row must be a table")
            return None
        unknown = sorted(set(raw) - {"at", "fingerprint", "kind", "gist", "dispute"})
        if unknown:
            self.fail(f"{where}: unknown fields {unknown}")
        at = raw.get("at")
        if not isinstance(at, dict) or set(at) != {"section", "paragraph", "sentence"}:
            self.fail(f"{where}: 'at' must be {{ section = …, paragraph = …, sentence = … }}")
            at = {}
        kind = self.text(raw, "kind", where)
        if kind and kind not in KINDS:
            self.fail(f"{where}: kind {kind!r} is none of {', '.join(KINDS)}")
        found = raw.get("dispute", [])
        if not isinstance(found, list):
            self.fail(f"{where}: 'dispute' must be a list of tables ([[sentence.dispute]])")
            found = []
        disputes = tuple(
            d
            for d in (self.dispute(r, f"{where} dispute {n}") for n, r in enumerate(found, 1))
            if d is not None
        )
        if kind == "rule" and not disputes:
            self.fail(f"{where}: a rule needs at least one dispute")
        return SentenceRow(
            section=self.whole(at, "section", where),
            paragraph=self.whole(at, "paragraph", where),
            sentence=self.whole(at, "sentence", where),
            fingerprint=self.text(raw, "fingerprint", where),
            kind=kind,
            gist=self.text(raw, "gist", where),
            disputes=disputes,
        )


def load(rulebook: str = "vvv8", path: Path | None = None) -> DisputeTable:
    """Read a rulebook's dispute table (by default the shipped one) and check its form.

    Raises :class:`DisputeTableError` listing every fault of form; :func:`problems` checks the
    table against the spec and the question files.
    """
    where = path if path is not None else table_path(rulebook)
    reader = _Reader(where.name)
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise DisputeTableError([f"{where}: cannot be read as TOML: {error}"]) from None
    meta = data.get("table", {})
    if not isinstance(meta, dict) or meta.get("rulebook") != rulebook:
        reader.fail(f"[table]: 'rulebook' must be {rulebook!r}")
        meta = {}
    unknown = sorted(set(data) - {"table", "sentence"})
    if unknown:
        reader.fail(f"unknown top-level tables {unknown}")
    raw_rows = data.get("sentence", [])
    if not isinstance(raw_rows, list):
        reader.fail("'sentence' must be a list of tables ([[sentence]])")
        raw_rows = []
    rows = tuple(r for r in (reader.row(raw, n) for n, raw in enumerate(raw_rows, 1)) if r)
    table = DisputeTable(rulebook=rulebook, title=reader.text(meta, "title", "[table]"), rows=rows)
    if reader.problems:
        raise DisputeTableError(reader.problems)
    return table


def problems(table: DisputeTable, registry: Registry, root: Path | None = None) -> list[str]:
    """What is wrong with ``table`` against the spec: rows out of text order or outside the
    text's paragraphs, ids the rulebook does not define; and, with ``root`` (the checkout),
    question files that are missing, unreadable, shared, or named by no dispute. An empty list
    means none."""
    book = registry.rulebook(table.rulebook)
    where = f"disputes/{table.rulebook}.toml"
    found: list[str] = []
    counts = {s.number: len(s.paragraph_lines) for s in book.sections}
    previous: tuple[int, int, int] | None = None
    for row in table.rows:
        if previous is not None and row.key <= previous:
            found.append(f"{where} {row.locator}: rows must follow the text's order")
        previous = row.key
        if row.section not in counts or not 1 <= row.paragraph <= counts[row.section]:
            found.append(f"{where} {row.locator}: no such paragraph in {book.seed}")
        if row.sentence < 1:
            found.append(f"{where} {row.locator}: sentences are counted from 1")
    entries = {e.id: e for e in book.entries()}
    for row, dispute in table.disputes():
        at = f"{where} {row.locator}"
        for ident in dispute.clauses:
            if not isinstance(entries.get(ident), Clause):
                found.append(f"{at}: {ident!r} is not a clause of {table.rulebook}")
        if dispute.ambiguity is not None and not isinstance(
            entries.get(dispute.ambiguity), Ambiguity
        ):
            found.append(f"{at}: {dispute.ambiguity!r} is not in {table.rulebook}'s register")
    if root is not None:
        found += _file_problems(table, entries, root)
    return found


def _file_problems(table: DisputeTable, entries: Mapping[str, object], root: Path) -> list[str]:
    """Every question file exists, is named once, parses, and states a well-formed ``expect``;
    every file of the table's folder is named by a dispute."""
    found: list[str] = []
    named: dict[str, str] = {}
    for row, dispute in table.disputes():
        at = f"disputes/{table.rulebook}.toml {row.locator}"
        if dispute.file in named:
            found.append(f"{at}: {dispute.file} is already the file of {named[dispute.file]}")
        named[dispute.file] = row.locator
        found += [
            f"{at}: {dispute.file}: {p}"
            for p in _question_problems(root, dispute, table.rulebook, entries)
        ]
    folder = root / "examples" / f"{table.rulebook}-disputes"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        name = path.relative_to(root).as_posix()
        if name not in named:
            found.append(f"{name} is named by no dispute of disputes/{table.rulebook}.toml")
    return found


def _question_problems(
    root: Path, dispute: Dispute, rulebook: str, entries: Mapping[str, object]
) -> list[str]:
    path = root / dispute.file
    if not path.is_file():
        return ["the file does not exist"]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return [f"not a JSON question file: {error}"]
    if not isinstance(data, dict):
        return ["a question file is a JSON table"]
    found: list[str] = []
    if data.get("rulebook") != rulebook:
        found.append(f"'rulebook' is {data.get('rulebook')!r}, not {rulebook!r}")
    if not isinstance(data.get("position"), dict):
        found.append("it gives no 'position'")
    if not isinstance(data.get("action"), dict) and not (
        isinstance(data.get("actions"), list) and data["actions"]
    ):
        found.append("it gives neither an 'action' nor a list of 'actions'")
    expect = data.get("expect")
    if not isinstance(expect, dict) or not isinstance(expect.get("allowed"), bool):
        return [*found, "'expect' must state 'allowed' (true or false) and 'clauses'"]
    for key in ("clauses", "not_clauses"):
        ids = expect.get(key, [])
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            found.append(f"'expect.{key}' must be a list of clause ids")
            continue
        found += [
            f"'expect.{key}' names {i!r}, which is not a clause"
            for i in ids
            if not isinstance(entries.get(i), Clause)
        ]
    unknown = sorted(set(expect) - {"allowed", "clauses", "not_clauses"})
    if unknown:
        found.append(f"'expect' has unknown fields {unknown}")
    return found


def problems_against_text(table: DisputeTable, book: Rulebook, text: str) -> list[str]:
    """Check ``table`` against its text: every sentence of every paragraph has exactly one row,
    whose fingerprint matches the sentence, and the table repeats no six words of the text."""
    try:
        paragraphs = text_paragraphs(book, text)
    except ValueError as error:
        return [f"{book.seed}: {error}"]
    expected: dict[tuple[int, int, int], str] = {}
    for paragraph in paragraphs:
        if paragraph.is_table:
            continue  # a table's rows are located by the spec, not by sentence
        for number, sentence in enumerate(sentences(" ".join(paragraph.lines)), 1):
            expected[paragraph.section, paragraph.index, number] = fingerprint([sentence])
    where = f"disputes/{table.rulebook}.toml"
    found: list[str] = []
    seen: set[tuple[int, int, int]] = set()
    for row in table.rows:
        if row.key in seen:
            found.append(f"{where} {row.locator}: the sentence has two rows")
        seen.add(row.key)
        digest = expected.get(row.key)
        if digest is None:
            found.append(f"{where} {row.locator}: {book.seed} has no such sentence")
        elif digest != row.fingerprint:
            found.append(
                f"{where} {row.locator}: the fingerprint is {row.fingerprint}, the text's "
                f"sentence has {digest}"
            )
    found += [
        f"{where}: §{s} ¶{p} s{n} of {book.seed} has no row"
        for (s, p, n) in sorted(set(expected) - seen)
    ]
    own = "\n".join(
        part
        for row in table.rows
        for part in (row.gist, *(t for d in row.disputes for t in (d.question, d.gap or "")))
    )
    found += [f"{where} repeats the text's words: '{run}'" for run in shared_runs(text, own)]
    return found


def check(
    registry: Registry, texts: Mapping[str, str] | None = None, rulebooks: Sequence[str] = TABLES
) -> list[str]:
    """Every problem of the shipped dispute tables, for ``regelverk check``: their form, their
    ids, their question files when run from a checkout, and, where ``texts`` holds the text of
    a table's rulebook (by seed file name), the sentences. Nothing is ruled on. A spec without
    a ``disputes`` folder (an older one, named by ``REGELVERK_SPEC``) has nothing to check, and
    the question files are checked only where the checkout holds ``examples/``."""
    found: list[str] = []
    for rulebook in rulebooks:
        path = table_path(rulebook)
        if not path.parent.is_dir():
            continue
        try:
            table = load(rulebook, path)
        except DisputeTableError as error:
            found += list(error.problems)
            continue
        root = source_root()
        found += problems(table, registry, root if root and (root / "examples").is_dir() else None)
        book = registry.rulebook(rulebook)
        if texts is not None and book.seed in texts:
            found += problems_against_text(table, book, texts[book.seed])
    return found
