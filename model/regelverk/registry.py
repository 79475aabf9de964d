"""The clause registry: loads ``spec/``, validates it, and answers for every id.

Every rule of the four texts is a :class:`Clause` with a stable id; ambiguities, notes and worked
examples have ids of their own. :func:`load` reads and checks the whole of ``spec/`` (unique ids,
well-formed locators, every paragraph of every text covered, every cross-reference resolving);
:func:`default_registry` returns the registry of the shipped spec, loaded once.

Run ``python -m regelverk.registry [FILE ...]`` to list every problem of the spec (or of the
files named) without a traceback.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from regelverk.books import RULEBOOKS
from regelverk.books import rulebook as described
from regelverk.cards import parse_card, parse_uno_card
from regelverk.errors import CardError, SpecError, UnknownClauseError, UnknownRulebookError
from regelverk.paths import cached_json, spec_dir
from regelverk.records import record
from regelverk.source import Paragraph, SectionStart, fingerprint, split, table_rows

__all__ = [
    "TAGS",
    "Ambiguity",
    "Clause",
    "ComparisonRow",
    "Example",
    "Locator",
    "Note",
    "Reading",
    "Registry",
    "Rulebook",
    "Section",
    "Step",
    "Term",
    "default_registry",
    "load",
    "parameter",
    "problems_against_text",
    "registry_for",
    "rulebook_of",
    "rulebook_registry",
]


TAGS: tuple[str, ...] = (
    "setup",
    "deal",
    "turn",
    "play",
    "special-card",
    "draw",
    "call",
    "win",
    "loss",
    "scoring",
    "penalty",
    "presence",
    "session",
    "variant",
    "parameter",
)
"""The tags a clause may carry."""

ORIGINS = ("text", "official", "model")
AMBIGUITY_KINDS = ("ambiguity", "contradiction", "example", "gap")
NOTE_KINDS = ("title", "heading", "aside", "summary", "question", "example-text", "advice")
STEP_ACTIONS = (
    "deal",
    "start-card",
    "play",
    "draw",
    "pass",
    "name-suit",
    "call",
    "go-out",
    "set-aside",
    "lead",
    "score",
    "draft",
)
VERDICTS = ("legal", "illegal", "per-register")
RESERVED_WORDS = ("AMB", "EX", "NOTE")

_WORDS = r"[A-Z0-9]+(?:-[A-Z0-9]+)*"
_READING_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_OPTION_NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
_ACTOR = re.compile(r"^(P[1-9][0-9]?|dealer|all)$")


@record
class Locator:
    """Where a rule stands: seed file, section, paragraph and, for a table, a row."""

    seed: str
    section: int
    paragraph: int
    row: int | None = None

    @property
    def text_number(self) -> str:
        """The seed's three-digit number, e.g. ``000``."""
        return self.seed.split("_", 1)[0]

    def __str__(self) -> str:
        row = f" row {self.row}" if self.row is not None else ""
        return f"{self.text_number} §{self.section} ¶{self.paragraph}{row}"


@record
class Section:
    """A section of a text: its number, English title, first line, and paragraph inventory."""

    number: int
    title: str
    first_line: int
    heading: bool
    paragraph_lines: tuple[int, ...]
    fingerprints: tuple[str, ...]


@record
class Clause:
    """One atomic rule of a text (or of the official UNO rules), in the project's own words."""

    id: str
    rulebook: str
    tag: str
    rule: str
    origin: str
    at: Locator | None
    also_at: tuple[Locator, ...]
    official: str | None
    parameters: tuple[tuple[str, Any], ...]
    refs: tuple[str, ...]
    ambiguities: tuple[str, ...]
    not_modelled: str | None

    @property
    def source(self) -> str:
        """Where the clause comes from, in words: a locator or the official rules."""
        if self.at is not None:
            return str(self.at)
        origin = "official UNO rules" if self.origin == "official" else "model decision"
        return f"{origin}: {self.official}" if self.official else origin


@record
class Note:
    """A paragraph that holds no rule (a title, an aside), and what it is."""

    id: str
    rulebook: str
    at: Locator
    kind: str
    what: str


@record
class Step:
    """One step of a worked example, with the model's verdict on it."""

    at: Locator
    actor: str
    action: str
    cards: tuple[str, ...]
    suit: str | None
    says: str
    verdict: str
    clauses: tuple[str, ...]
    ambiguity: str | None


@record
class Example:
    """A worked example of a text, step by step, for tests to replay."""

    id: str
    rulebook: str
    title: str
    at: tuple[Locator, ...]
    players: int | None
    setup: str
    steps: tuple[Step, ...]


@record
class Reading:
    """One reading of an ambiguous rule, and what it gives in the ambiguity's situation."""

    name: str
    reading: str
    outcome: str


@record
class Ambiguity:
    """An ambiguity, contradiction or gap: the readings, the default, and the option."""

    id: str
    rulebook: str
    kind: str
    title: str
    clauses: tuple[str, ...]
    question: str
    situation: str
    option: str
    default: str
    reason: str
    changes_winner: bool
    readings: tuple[Reading, ...]


@record
class Rulebook:
    """A rulebook: its text's metadata, sections and every entry of its spec file."""

    id: str
    prefix: str
    name: str
    family: str
    language: str
    seed: str
    summary: str
    sections: tuple[Section, ...]
    clauses: tuple[Clause, ...]
    notes: tuple[Note, ...]
    examples: tuple[Example, ...]
    ambiguities: tuple[Ambiguity, ...]

    def entries(self) -> tuple[Clause | Note | Example | Ambiguity, ...]:
        """Every clause, note, worked example and ambiguity of the rulebook."""
        return (*self.clauses, *self.notes, *self.examples, *self.ambiguities)

    def paragraphs(self) -> Iterator[Locator]:
        """Every paragraph of the text, in order."""
        for section in self.sections:
            for index in range(1, len(section.paragraph_lines) + 1):
                yield Locator(seed=self.seed, section=section.number, paragraph=index)


@record
class ComparisonRow:
    """One point of the vvv8/vandatta comparison."""

    topic: str
    vvv8: str
    vandatta: str
    vvv8_clauses: tuple[str, ...]
    vandatta_clauses: tuple[str, ...]
    option: str | None


@record
class Term:
    """A Swedish or Norwegian term of the texts, explained in English."""

    term: str
    language: str
    meaning: str
    rulebooks: tuple[str, ...]
    clauses: tuple[str, ...]


@record
class Registry:
    """Every rulebook of ``spec/`` with lookups by id. Built by :func:`load`."""

    rulebooks: tuple[Rulebook, ...]
    comparison: tuple[ComparisonRow, ...]
    glossary: tuple[Term, ...]

    _index: Mapping[str, Clause | Note | Example | Ambiguity] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        found: dict[str, Clause | Note | Example | Ambiguity] = {}
        for book in self.rulebooks:
            for entry in book.entries():
                found.setdefault(entry.id, entry)
        object.__setattr__(self, "_index", MappingProxyType(found))

    def rulebook(self, ident: str) -> Rulebook:
        """The rulebook with this id; :class:`UnknownRulebookError` otherwise."""
        for book in self.rulebooks:
            if book.id == ident:
                return book
        raise UnknownRulebookError(ident, tuple(b.id for b in self.rulebooks))

    def entry(self, ident: str) -> Clause | Note | Example | Ambiguity:
        """The clause, note, example or ambiguity with this id."""
        found = self._index.get(ident)
        if found is None:
            import difflib  # only for the message of an unknown id

            close = difflib.get_close_matches(ident.upper(), list(self._index), n=3)
            raise UnknownClauseError(ident, tuple(close))
        return found

    def clause(self, ident: str) -> Clause:
        """The clause with this id; :class:`UnknownClauseError` for any other id."""
        found = self.entry(ident)
        if not isinstance(found, Clause):
            raise UnknownClauseError(ident, ())
        return found

    def ambiguity(self, ident: str) -> Ambiguity:
        """The ambiguity with this id; :class:`UnknownClauseError` for any other id."""
        found = self.entry(ident)
        if not isinstance(found, Ambiguity):
            raise UnknownClauseError(ident, ())
        return found

    def clauses(self, rulebook: str | None = None) -> tuple[Clause, ...]:
        """All clauses, or those of one rulebook."""
        books = self.rulebooks if rulebook is None else (self.rulebook(rulebook),)
        return tuple(c for b in books for c in b.clauses)

    def ambiguities_of(self, clause_id: str) -> tuple[Ambiguity, ...]:
        """The ambiguities that name this clause (either side of the link)."""
        clause = self.clause(clause_id)
        book = self.rulebook(clause.rulebook)
        return tuple(
            a for a in book.ambiguities if clause_id in a.clauses or a.id in clause.ambiguities
        )

    def examples_of(self, clause_id: str) -> tuple[Example, ...]:
        """The worked examples with a step decided by this clause."""
        book = self.rulebook(self.clause(clause_id).rulebook)
        return tuple(e for e in book.examples if any(clause_id in s.clauses for s in e.steps))


class FieldChecker:
    """Collects the problems of one spec file (or other data file read the same way, such as a
    dispute table) while it is read: each field checked, each fault kept with where it is."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.problems: list[str] = []

    def fail(self, what: str) -> None:
        self.problems.append(f"{self.where}: {what}")

    def text(self, table: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
        value = table.get(key)
        if value is None:
            if required:
                self.fail(f"{where}: the field '{key}' is missing")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail(f"{where}: the field '{key}' must be a non-empty text, not {value!r}")
            return ""
        return value

    def choice(self, table: Mapping[str, Any], key: str, where: str, allowed: Sequence[str]) -> str:
        value = self.text(table, key, where)
        if value and value not in allowed:
            self.fail(f"{where}: '{key}' is {value!r}; it must be one of {', '.join(allowed)}")
        return value

    def ids(self, table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{where}: '{key}' must be a list of ids")
            return ()
        return tuple(value)


def _locator(
    check: FieldChecker, raw: object, seed: str, sections: Mapping[int, Section], where: str
) -> Locator | None:
    if not isinstance(raw, dict):
        check.fail(f"{where}: a locator must be a table such as {{ section = 1, paragraph = 2 }}")
        return None
    unknown = set(raw) - {"section", "paragraph", "row"}
    if unknown:
        check.fail(f"{where}: the locator has unknown fields {sorted(unknown)}")
    section, paragraph, row = raw.get("section"), raw.get("paragraph"), raw.get("row")
    if not isinstance(section, int) or section not in sections:
        check.fail(f"{where}: section {section!r} is not a section of {seed}")
        return None
    count = len(sections[section].paragraph_lines)
    if not isinstance(paragraph, int) or not 1 <= paragraph <= count:
        check.fail(f"{where}: §{section} has paragraphs 1 to {count}, not {paragraph!r}")
        return None
    if row is not None and (not isinstance(row, int) or row < 1):
        check.fail(f"{where}: a table row is a whole number from 1, not {row!r}")
        return None
    return Locator(seed=seed, section=section, paragraph=paragraph, row=row)


def _parameters(check: FieldChecker, raw: object, where: str) -> tuple[tuple[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        check.fail(f"{where}: 'parameters' must be a table of named values")
        return ()
    for key, value in raw.items():
        items = value if isinstance(value, list) else [value]
        if not _OPTION_NAME.match(key) or not all(
            isinstance(v, str | int | float | bool) for v in items
        ):
            check.fail(f"{where}: parameter {key!r} must be snake_case with scalar values")
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in raw.items()))


def _sections(check: FieldChecker, data: Mapping[str, Any]) -> dict[int, Section]:
    found: dict[int, Section] = {}
    for raw in data.get("section", []):
        number = raw.get("number")
        lines = tuple(raw.get("paragraph_lines", ()))
        prints = tuple(raw.get("fingerprints", ()))
        if not isinstance(number, int) or number in found:
            check.fail(f"section number {number!r} is missing or repeated")
            continue
        if len(lines) != len(prints):
            check.fail(f"§{number}: {len(lines)} paragraph lines but {len(prints)} fingerprints")
        if list(lines) != sorted(set(lines)):
            check.fail(f"§{number}: paragraph lines must be strictly increasing")
        found[number] = Section(
            number=number,
            title=check.text(raw, "title", f"§{number}"),
            first_line=int(raw.get("first_line", 0)),
            heading=bool(raw.get("heading", False)),
            paragraph_lines=lines,
            fingerprints=prints,
        )
    return found


_CACHE_FORMAT = 2
"""Bumped whenever what :func:`_parsed_toml` caches changes shape (2: the cache file holds its
name beside the value, :func:`~regelverk.paths.cached_json`), so that an older version sharing
the cache folder never reads a file of another form."""


def _parsed_toml(path: Path) -> dict[str, Any]:
    """A spec file parsed as TOML, from the cache when these very bytes were parsed before
    (parsing TOML is most of the time a one-rulebook command takes)."""
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()[:32]
    data: dict[str, Any] = cached_json(
        f"spec-{_CACHE_FORMAT}-{digest}.json", lambda: _toml(raw), dict
    )
    return data


def _toml(raw: bytes) -> dict[str, Any]:
    """``raw`` parsed as TOML; :class:`SpecError` names the fault when it is not TOML. The
    parser is imported here, on a cache miss, and not by every command that reads the spec."""
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise _NotTomlError(str(error)) from error


class _NotTomlError(ValueError):
    """A spec file that is not TOML (the parser's message)."""


def _read_rulebook(path: Path, problems: list[str]) -> Rulebook | None:
    check = FieldChecker(path.name)
    try:
        data = _parsed_toml(path)
    except (OSError, UnicodeDecodeError, _NotTomlError) as error:
        problems.append(f"{path.name}: cannot be read as TOML: {error}")
        return None
    meta = data.get("rulebook", {})
    ident = check.choice(meta, "id", "[rulebook]", RULEBOOKS)
    if not ident:
        problems.extend(check.problems)
        return None
    prefix = described(ident).prefix
    if meta.get("prefix") != prefix:
        check.fail(f"[rulebook]: the prefix of {ident} is {prefix!r}")
    seed = check.text(meta, "seed", "[rulebook]")
    sections = _sections(check, data)
    reader = _EntryReader(check, ident, prefix, seed, sections)
    clauses = tuple(reader.clause(raw) for raw in data.get("clause", []))
    notes = tuple(reader.note(raw) for raw in data.get("note", []))
    examples = tuple(reader.example(raw) for raw in data.get("example", []))
    ambiguities = tuple(reader.ambiguity(raw) for raw in data.get("ambiguity", []))
    unknown = set(data) - {"rulebook", "section", "clause", "note", "example", "ambiguity"}
    if unknown:
        check.fail(f"unknown top-level tables {sorted(unknown)}")
    book = Rulebook(
        id=ident,
        prefix=prefix,
        name=check.text(meta, "name", "[rulebook]"),
        family=check.text(meta, "family", "[rulebook]"),
        language=check.choice(meta, "language", "[rulebook]", ("sv", "no")),
        seed=seed,
        summary=check.text(meta, "summary", "[rulebook]"),
        sections=tuple(sections[n] for n in sorted(sections)),
        clauses=clauses,
        notes=notes,
        examples=examples,
        ambiguities=ambiguities,
    )
    _check_book(check, book)
    problems.extend(check.problems)
    return book


class _EntryReader:
    """Reads the entries of one rulebook file, reporting faults to its checker."""

    def __init__(
        self, check: FieldChecker, ident: str, prefix: str, seed: str, sections: dict[int, Section]
    ) -> None:
        self.check, self.ident, self.prefix = check, ident, prefix
        self.seed, self.sections = seed, sections

    def entry_id(self, raw: Mapping[str, Any], kind: str, word: str | None) -> str:
        ident = self.check.text(raw, "id", f"a {kind}")
        pattern = rf"^{self.prefix}-{word}-{_WORDS}$" if word else rf"^{self.prefix}-{_WORDS}$"
        if ident and not re.match(pattern, ident):
            shape = f"{self.prefix}-{word}-…" if word else f"{self.prefix}-WORDS-LIKE-THIS"
            self.check.fail(f"{kind} id {ident!r} must look like {shape}")
        if word is None and ident.split("-")[1:2] in ([w] for w in RESERVED_WORDS):
            self.check.fail(f"clause id {ident!r} starts with a word reserved for other entries")
        return ident

    def locator(self, raw: object, where: str) -> Locator | None:
        return _locator(self.check, raw, self.seed, self.sections, where)

    def clause(self, raw: Mapping[str, Any]) -> Clause:
        ident = self.entry_id(raw, "clause", None)
        origin = raw.get("origin", "text")
        if origin not in ORIGINS:
            self.check.fail(f"{ident}: origin {origin!r} is none of {', '.join(ORIGINS)}")
        official = raw.get("official")
        at = self.locator(raw["at"], ident) if "at" in raw else None
        if origin == "official":
            if self.ident != "uno" or not isinstance(official, str) or "at" in raw:
                self.check.fail(
                    f"{ident}: an official-rules clause belongs to uno, names its place in the "
                    "official rules in 'official' and has no 'at'"
                )
        elif at is None:
            self.check.fail(f"{ident}: a clause of origin {origin!r} needs a locator 'at'")
        also = raw.get("also_at", [])
        not_modelled = raw.get("not_modelled")
        if not_modelled is not None and (not isinstance(not_modelled, str) or not not_modelled):
            self.check.fail(f"{ident}: 'not_modelled' must be a reason in words")
        return Clause(
            id=ident,
            rulebook=self.ident,
            tag=self.check.choice(raw, "tag", ident, TAGS),
            rule=self.check.text(raw, "rule", ident),
            origin=str(origin),
            at=at,
            also_at=tuple(
                loc
                for loc in (self.locator(a, f"{ident} also_at") for a in also)
                if loc is not None
            ),
            official=official if isinstance(official, str) else None,
            parameters=_parameters(self.check, raw.get("parameters"), ident),
            refs=self.check.ids(raw, "refs", ident),
            ambiguities=self.check.ids(raw, "ambiguities", ident),
            not_modelled=not_modelled if isinstance(not_modelled, str) else None,
        )

    def note(self, raw: Mapping[str, Any]) -> Note:
        ident = self.entry_id(raw, "note", "NOTE")
        at = self.locator(raw.get("at"), ident)
        return Note(
            id=ident,
            rulebook=self.ident,
            at=at or Locator(seed=self.seed, section=-1, paragraph=-1),
            kind=self.check.choice(raw, "kind", ident, NOTE_KINDS),
            what=self.check.text(raw, "what", ident),
        )

    def step(self, raw: Mapping[str, Any], where: str) -> Step:
        at = self.locator(raw.get("at"), where)
        actor = self.check.text(raw, "actor", where)
        if actor and not _ACTOR.match(actor):
            self.check.fail(f"{where}: actor {actor!r} must be P1, P2, …, dealer or all")
        cards = self.check.ids(raw, "cards", where)
        parse = parse_uno_card if described(self.ident).cards == "uno" else parse_card
        for card in cards:
            try:
                parse(card)
            except CardError as error:
                self.check.fail(f"{where}: {error}")
        suit = raw.get("suit")
        return Step(
            at=at or Locator(seed=self.seed, section=-1, paragraph=-1),
            actor=actor,
            action=self.check.choice(raw, "action", where, STEP_ACTIONS),
            cards=cards,
            suit=suit if isinstance(suit, str) else None,
            says=self.check.text(raw, "says", where),
            verdict=self.check.choice(raw, "verdict", where, VERDICTS),
            clauses=self.check.ids(raw, "clauses", where),
            ambiguity=raw.get("ambiguity"),
        )

    def example(self, raw: Mapping[str, Any]) -> Example:
        ident = self.entry_id(raw, "example", "EX")
        spans = tuple(
            loc for loc in (self.locator(a, ident) for a in raw.get("at", [])) if loc is not None
        )
        steps = tuple(
            self.step(s, f"{ident} step {n}") for n, s in enumerate(raw.get("step", []), 1)
        )
        if not steps:
            self.check.fail(f"{ident}: an example needs at least one step")
        players = raw.get("players")
        return Example(
            id=ident,
            rulebook=self.ident,
            title=self.check.text(raw, "title", ident),
            at=spans,
            players=players if isinstance(players, int) else None,
            setup=self.check.text(raw, "setup", ident),
            steps=steps,
        )

    def ambiguity(self, raw: Mapping[str, Any]) -> Ambiguity:
        ident = self.entry_id(raw, "ambiguity", "AMB")
        readings = tuple(
            Reading(
                name=self.check.text(r, "name", f"{ident} reading"),
                reading=self.check.text(r, "reading", f"{ident} reading"),
                outcome=self.check.text(r, "outcome", f"{ident} reading"),
            )
            for r in raw.get("reading", [])
        )
        names = [r.name for r in readings]
        if len(readings) < 2 or len(set(names)) != len(names):
            self.check.fail(f"{ident}: needs two or more readings with distinct names")
        for name in names:
            if name and not _READING_NAME.match(name):
                self.check.fail(f"{ident}: reading name {name!r} must be kebab-case")
        default = self.check.text(raw, "default", ident)
        if default and default not in names:
            self.check.fail(f"{ident}: the default {default!r} is not one of its readings")
        option = self.check.text(raw, "option", ident)
        if option and not _OPTION_NAME.match(option):
            self.check.fail(f"{ident}: option {option!r} must be snake_case")
        changes = raw.get("changes_winner")
        if not isinstance(changes, bool):
            self.check.fail(f"{ident}: 'changes_winner' must be true or false")
        clauses = self.check.ids(raw, "clauses", ident)
        if not clauses:
            self.check.fail(f"{ident}: an ambiguity must name the clauses it bears on")
        return Ambiguity(
            id=ident,
            rulebook=self.ident,
            kind=self.check.choice(raw, "kind", ident, AMBIGUITY_KINDS),
            title=self.check.text(raw, "title", ident),
            clauses=clauses,
            question=self.check.text(raw, "question", ident),
            situation=self.check.text(raw, "situation", ident),
            option=option,
            default=default,
            reason=self.check.text(raw, "reason", ident),
            changes_winner=bool(changes),
            readings=readings,
        )


def _check_book(check: FieldChecker, book: Rulebook) -> None:
    """Unique ids, resolving references, and every paragraph covered."""
    ids: dict[str, str] = {}
    entries = book.entries()
    for entry in entries:
        if entry.id in ids:
            check.fail(f"the id {entry.id} is used twice")
        ids[entry.id] = type(entry).__name__
    clause_ids = {c.id for c in book.clauses}
    ambiguity_ids = {a.id for a in book.ambiguities}

    def expect(ident: str, pool: set[str], kind: str, where: str) -> None:
        if ident not in pool:
            import difflib  # only for the message of a fault

            close = difflib.get_close_matches(ident, list(pool), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            check.fail(f"{where} cites {kind} {ident!r}, which {book.id} does not define{hint}")

    for clause in book.clauses:
        for ref in clause.refs:
            expect(ref, clause_ids, "clause", clause.id)
        for amb in clause.ambiguities:
            expect(amb, ambiguity_ids, "ambiguity", clause.id)
        if clause.origin == "model" and not any(
            a.kind == "gap" for a in book.ambiguities if a.id in clause.ambiguities
        ):
            check.fail(f"{clause.id}: a model decision must cite the gap it fills")
    for ambiguity in book.ambiguities:
        for ident in ambiguity.clauses:
            expect(ident, clause_ids, "clause", ambiguity.id)
    _check_steps(check, book, expect)
    _check_coverage(check, book)


def _check_steps(
    check: FieldChecker, book: Rulebook, expect: Callable[[str, set[str], str, str], None]
) -> None:
    """Every worked-example step cites clauses and ambiguities that exist."""
    clause_ids = {c.id for c in book.clauses}
    ambiguity_ids = {a.id for a in book.ambiguities}
    for example in book.examples:
        for number, step in enumerate(example.steps, 1):
            where = f"{example.id} step {number}"
            for ident in step.clauses:
                expect(ident, clause_ids, "clause", where)
            if step.ambiguity is not None:
                expect(step.ambiguity, ambiguity_ids, "ambiguity", where)
            if step.verdict == "per-register" and step.ambiguity is None:
                check.fail(f"{where}: a per-register verdict must name its ambiguity")


def _check_coverage(check: FieldChecker, book: Rulebook) -> None:
    """Every paragraph of the text is covered by a clause, note or example step."""
    covered = {(loc.section, loc.paragraph) for loc in _covering_locators(book)}
    for loc in book.paragraphs():
        if (loc.section, loc.paragraph) not in covered:
            check.fail(f"{loc} is covered by no clause, note or example step")


def _covering_locators(book: Rulebook) -> Iterator[Locator]:
    for clause in book.clauses:
        if clause.at is not None:
            yield clause.at
        yield from clause.also_at
    for note in book.notes:
        yield note.at
    for example in book.examples:
        yield from example.at
        yield from (step.at for step in example.steps)


def _read_comparison(path: Path, problems: list[str]) -> tuple[ComparisonRow, ...]:
    if not path.exists():
        problems.append(f"{path.name} is missing")
        return ()
    check = FieldChecker(path.name)
    try:
        data = _parsed_toml(path)
    except (OSError, UnicodeDecodeError, _NotTomlError) as error:
        problems.append(f"{path.name}: cannot be read as TOML: {error}")
        return ()
    rows = tuple(
        ComparisonRow(
            topic=check.text(raw, "topic", f"row {n}"),
            vvv8=check.text(raw, "vvv8", f"row {n}"),
            vandatta=check.text(raw, "vandatta", f"row {n}"),
            vvv8_clauses=check.ids(raw, "vvv8_clauses", f"row {n}"),
            vandatta_clauses=check.ids(raw, "vandatta_clauses", f"row {n}"),
            option=raw.get("option"),
        )
        for n, raw in enumerate(data.get("row", []), 1)
    )
    problems.extend(check.problems)
    return rows


def _read_glossary(path: Path, problems: list[str]) -> tuple[Term, ...]:
    if not path.exists():
        problems.append(f"{path.name} is missing")
        return ()
    check = FieldChecker(path.name)
    try:
        data = _parsed_toml(path)
    except (OSError, UnicodeDecodeError, _NotTomlError) as error:
        problems.append(f"{path.name}: cannot be read as TOML: {error}")
        return ()
    terms = tuple(
        Term(
            term=check.text(raw, "term", f"term {n}"),
            language=check.choice(raw, "language", f"term {n}", ("sv", "no")),
            meaning=check.text(raw, "meaning", f"term {n}"),
            rulebooks=check.ids(raw, "rulebooks", f"term {n}"),
            clauses=check.ids(raw, "clauses", f"term {n}"),
        )
        for n, raw in enumerate(data.get("term", []), 1)
    )
    seen = [(t.term.lower(), t.language) for t in terms]
    for pair in sorted({p for p in seen if seen.count(p) > 1}):
        check.fail(f"the term {pair[0]!r} ({pair[1]}) is explained twice")
    problems.extend(check.problems)
    return terms


def _check_links(registry: Registry, problems: list[str]) -> None:
    known = registry._index
    books = {b.id for b in registry.rulebooks}
    for number, row in enumerate(registry.comparison, 1):
        for side, ids in (("vvv8", row.vvv8_clauses), ("vandatta", row.vandatta_clauses)):
            if not ids:
                problems.append(
                    f"comparison.toml row {number} ({row.topic}) cites no {side} clause"
                )
            for ident in ids:
                entry = known.get(ident)
                if not isinstance(entry, Clause) or entry.rulebook != side:
                    problems.append(
                        f"comparison.toml row {number} ({row.topic}) cites {ident!r}, "
                        f"which is not a {side} clause"
                    )
    for term in registry.glossary:
        for book in term.rulebooks:
            if book not in books:
                problems.append(f"glossary.toml: {term.term!r} names rulebook {book!r}")
        for ident in term.clauses:
            if not isinstance(known.get(ident), Clause):
                problems.append(f"glossary.toml: {term.term!r} cites {ident!r}, not a clause")


def load(directory: Path | None = None, *, rulebooks: Sequence[str] = RULEBOOKS) -> Registry:
    """Read and validate ``spec/`` (by default the shipped one).

    Raises :class:`~regelverk.errors.SpecError` listing every problem found, not just the first.
    """
    root = directory if directory is not None else spec_dir()
    problems: list[str] = []
    books = []
    for ident in rulebooks:
        path = root / f"{ident}.toml"
        if not path.exists():
            problems.append(f"{path.name} is missing from {root.name}/")
            continue
        book = _read_rulebook(path, problems)
        if book is not None:
            books.append(book)
    full = tuple(rulebooks) == RULEBOOKS
    registry = Registry(
        rulebooks=tuple(books),
        comparison=_read_comparison(root / "comparison.toml", problems) if full else (),
        glossary=_read_glossary(root / "glossary.toml", problems) if full else (),
    )
    seen: dict[str, str] = {}
    for book in registry.rulebooks:
        for entry in book.entries():
            if entry.id in seen and seen[entry.id] != book.id:
                problems.append(f"the id {entry.id} is defined in {seen[entry.id]} and {book.id}")
            seen[entry.id] = book.id
    if full:
        _check_links(registry, problems)
    if problems:
        raise SpecError(problems)
    return registry


@functools.cache
def default_registry() -> Registry:
    """The registry of the shipped ``spec/``, loaded and validated once."""
    return load()


def rulebook_of(ident: str) -> str | None:
    """The rulebook whose id prefix ``ident`` carries (``V8-…`` is vvv8), or None.

    >>> rulebook_of("UNO-WIN-GAME-500"), rulebook_of("VA-AMB-EXAMPLE-ACE-OFF-SUIT")
    ('uno', 'vandatta')
    >>> rulebook_of("X") is None
    True
    """
    head = ident.strip().upper().partition("-")[0]
    return next((name for name in RULEBOOKS if described(name).prefix == head), None)


@functools.cache
def rulebook_registry(rulebook: str) -> Registry:
    """A registry of one rulebook of the shipped ``spec/``, read on first use.

    A command about one rulebook (``ask``, ``clause``, an engine's constants) reads that
    rulebook's file alone instead of all six; the whole spec's cross-checks are
    :func:`default_registry`'s (``regelverk check``). When the whole spec is loaded already,
    its rulebook is reused.
    """
    if rulebook not in RULEBOOKS:
        raise UnknownRulebookError(rulebook, RULEBOOKS)
    if default_registry.cache_info().currsize:
        return Registry(
            rulebooks=(default_registry().rulebook(rulebook),), comparison=(), glossary=()
        )
    return load(rulebooks=(rulebook,))


def registry_for(ident: str) -> Registry:
    """The registry that holds ``ident``: its rulebook's alone (:func:`rulebook_registry`) when
    the id carries a rulebook's prefix, else the whole spec (whose error lists close ids)."""
    book = rulebook_of(ident)
    return rulebook_registry(book) if book is not None else default_registry()


def parameter(clause_id: str, name: str) -> int:
    """The whole number that clause ``clause_id`` of the shipped spec fixes as ``name``.

    The engines take their constants (hand sizes, draws, points, the score that ends a game)
    from here, and the proofs take them from the engines' options, so each constant is written
    once, in ``spec/``.

    >>> parameter("UNO-WIN-GAME-500", "target")
    500
    """
    clause = registry_for(clause_id).clause(clause_id)
    values = dict(clause.parameters)
    if name not in values:
        raise SpecError([f"{clause_id} fixes no parameter {name!r} (it has: {sorted(values)})"])
    value = values[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise SpecError([f"{clause_id}: parameter {name!r} is {value!r}, not a whole number"])
    return value


def _main(argv: Sequence[str]) -> int:
    """Validate the spec files named (or the whole spec) and print every problem."""
    try:
        if argv:
            for name in argv:
                path = Path(name)
                problems: list[str] = []
                book = _read_rulebook(path, problems)
                for problem in problems:
                    print(problem)
                if book is not None and not problems:
                    print(
                        f"{path.name}: no problems ({len(book.clauses)} clauses, "
                        f"{len(book.notes)} notes, {len(book.examples)} examples, "
                        f"{len(book.ambiguities)} ambiguities)"
                    )
                if problems:
                    return 1
        else:
            registry = load()
            print(f"spec: no problems ({sum(len(b.clauses) for b in registry.rulebooks)} clauses)")
    except SpecError as error:
        print(error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))


def text_paragraphs(book: Rulebook, text: str) -> tuple[Paragraph, ...]:
    """The paragraphs of ``book``'s text, split by its section inventory
    (:func:`regelverk.source.split`); ``ValueError`` if the text does not fit it."""
    starts = [
        SectionStart(number=s.number, first_line=s.first_line, heading=s.heading)
        for s in book.sections
    ]
    return split(text, starts)


def problems_against_text(book: Rulebook, text: str) -> list[str]:
    """Compare a rulebook's section inventory with its text: every paragraph where the spec says.

    Recomputes the paragraphs with :func:`regelverk.source.split` and checks each one's first
    line and fingerprint, and each table row a locator names. An empty list means every locator
    of the rulebook points at the paragraph it was written for.
    """
    try:
        paragraphs = text_paragraphs(book, text)
    except ValueError as error:
        return [f"{book.seed}: {error}"]
    problems: list[str] = []
    found = {(p.section, p.index): p for p in paragraphs}
    for section in book.sections:
        actual = [p for p in paragraphs if p.section == section.number]
        if len(actual) != len(section.paragraph_lines):
            problems.append(
                f"{book.seed} §{section.number}: the text has {len(actual)} paragraphs, "
                f"the spec {len(section.paragraph_lines)}"
            )
        for paragraph, line, digest in zip(
            actual, section.paragraph_lines, section.fingerprints, strict=False
        ):
            if paragraph.first_line != line or fingerprint(paragraph.lines) != digest:
                problems.append(
                    f"{book.seed} §{section.number} ¶{paragraph.index}: the spec expects line "
                    f"{line} with fingerprint {digest}; the text has line "
                    f"{paragraph.first_line} with {fingerprint(paragraph.lines)}"
                )
    for locator in (c.at for c in book.clauses):
        if locator is None or locator.row is None:
            continue
        table = found.get((locator.section, locator.paragraph))
        if table is None or not table.is_table:
            problems.append(f"{locator}: names a row of a paragraph that is not a table")
        elif locator.row > len(table_rows(table)):
            problems.append(f"{locator}: the table has {len(table_rows(table))} rows")
    return problems
