"""Sections and paragraphs of the rule texts: how a locator finds its place in a seed file.

The texts are not shipped with regelverk (the project states every rule in its own words), but
the spec records, for every section, where it starts, whether its first line is a heading, and a
fingerprint of each paragraph. With a copy of the texts at hand, :func:`split` recomputes the
paragraphs and :func:`fingerprint` their fingerprints, so anyone can check that every locator in
``spec/`` still points at the paragraph it was written for.

The convention, applied the same way to all four texts:

* A section is a run of lines starting at a line the spec names. When that line is a heading
  (``heading = true``), it names the section and is not a paragraph. Some sections have no heading
  in the text (a text that changes subject without one); the spec marks them as unheaded.
* Inside a section, every non-blank line is one paragraph, numbered from 1, except that
  consecutive lines that start with ``|`` form one paragraph: a table. A table's data rows (those
  after its header row and ``|---|`` separator) are numbered from 1 and a locator may name one.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence

from regelverk.records import record

__all__ = [
    "ABBREVIATIONS",
    "Paragraph",
    "SectionStart",
    "fingerprint",
    "sentences",
    "split",
    "table_rows",
]


@record
class SectionStart:
    """Where a section begins in a text: its number, first line (1-based) and heading flag."""

    number: int
    first_line: int
    heading: bool


@record
class Paragraph:
    """One paragraph of a text: its section, its index inside it, and its lines (1-based)."""

    section: int
    index: int
    first_line: int
    lines: tuple[str, ...]

    @property
    def last_line(self) -> int:
        """The number of the paragraph's last line."""
        return self.first_line + len(self.lines) - 1

    @property
    def is_table(self) -> bool:
        """Whether the paragraph is a table (its lines start with ``|``)."""
        return self.lines[0].lstrip().startswith("|")


def fingerprint(lines: Sequence[str]) -> str:
    """A short, stable digest of a paragraph's text (white space folded).

    >>> fingerprint(["a  b", " c"]) == fingerprint(["a b c"])
    True
    """
    folded = " ".join(" ".join(lines).split())
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:12]


def _is_table_line(line: str) -> bool:
    return line.lstrip().startswith("|")


def split(text: str, sections: Sequence[SectionStart]) -> tuple[Paragraph, ...]:
    """Split ``text`` into paragraphs under the section starts given.

    Raises :class:`ValueError` when the section starts are not strictly increasing, when a start
    lies outside the text, or when a heading line is blank.
    """
    lines = text.splitlines()
    ordered = list(sections)
    for before, after in itertools.pairwise(ordered):
        if after.first_line <= before.first_line:
            raise ValueError(
                f"section {after.number} starts at line {after.first_line}, "
                f"not after section {before.number} (line {before.first_line})"
            )
    paragraphs: list[Paragraph] = []
    for position, section in enumerate(ordered):
        if not 1 <= section.first_line <= len(lines):
            raise ValueError(
                f"section {section.number} starts at line {section.first_line}, "
                f"outside the text's {len(lines)} lines"
            )
        end = ordered[position + 1].first_line - 1 if position + 1 < len(ordered) else len(lines)
        start = section.first_line
        if section.heading:
            if not lines[start - 1].strip():
                raise ValueError(f"section {section.number}'s heading line {start} is blank")
            start += 1
        paragraphs.extend(_paragraphs_of(section.number, lines, start, end))
    return tuple(paragraphs)


def _paragraphs_of(section: int, lines: list[str], start: int, end: int) -> list[Paragraph]:
    found: list[Paragraph] = []
    number = start
    while number <= end:
        line = lines[number - 1]
        if not line.strip():
            number += 1
            continue
        block = [line]
        if _is_table_line(line):
            while number + len(block) <= end and _is_table_line(lines[number + len(block) - 1]):
                block.append(lines[number + len(block) - 1])
        found.append(
            Paragraph(section=section, index=len(found) + 1, first_line=number, lines=tuple(block))
        )
        number += len(block)
    return found


def table_rows(paragraph: Paragraph) -> tuple[str, ...]:
    """The data rows of a table paragraph (header row and separator left out)."""
    if not paragraph.is_table:
        raise ValueError(
            f"section {paragraph.section} paragraph {paragraph.index} (line "
            f"{paragraph.first_line}) is not a table"
        )
    rows = paragraph.lines
    if len(rows) >= 2 and set(rows[1].replace("|", "").strip()) <= {"-", ":", " "}:
        return rows[2:]
    return rows


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, punctuation dropped (for the no-pasting check)."""
    cleaned = "".join(ch.lower() if ch.isalnum() else " " for ch in text)
    return cleaned.split()


def shared_runs(seed_text: str, other: str, length: int = 6) -> tuple[str, ...]:
    """Every run of ``length`` consecutive words that ``other`` shares with ``seed_text``.

    Used to show that the project states the rules in its own words: no sentence of a text is
    pasted into it. Runs made only of card notation and numbers are not counted.
    """
    seed_words = words(seed_text)
    seed_runs = {tuple(seed_words[i : i + length]) for i in range(len(seed_words) - length + 1)}
    other_words = words(other)
    found: dict[str, None] = {}
    for i in range(len(other_words) - length + 1):
        run = tuple(other_words[i : i + length])
        if run in seed_runs and not all(w.isdigit() or len(w) <= 2 for w in run):
            found[" ".join(run)] = None
    return tuple(found)


ABBREVIATIONS: frozenset[str] = frozenset(
    {
        "t.ex.",
        "p.g.a.",
        "m.h.a.",
        "bl.a.",
        "dvs.",
        "d.v.s.",
        "obs.",
        "obs!",
        "o.s.v.",
        "osv.",
        "s.k.",
        "m.fl.",
        "m.m.",
        "ca.",
        "e.d.",
        "jfr.",
        "resp.",
        "f.d.",
        "nr.",
        "kl.",
        "fr.o.m.",
        "t.o.m.",
        "f.ö.",
        "f.eks.",
    }
)
"""Swedish (and Norwegian) abbreviations whose full stop (or, for *Obs!*, whose exclamation
mark) does not end a sentence: ``t.ex.``, ``p.g.a.``, ``m.h.a.``, ``bl.a.``, ``dvs.``, ``obs``
and the like, compared in lower case."""

_END = re.compile(r"[.!?]+[)\]\"'”’»]*[.!?]*(?=\s)")
"""A run that may end a sentence: stops, then closing brackets or quotes, then stops again, with
white space after it."""

_NEXT = re.compile(r"\s+[(\[\"'“”‘’«]*[A-ZÀ-Þ0-9]")
"""What must follow a sentence's end: white space, any opening brackets or quotes, and a
capital letter or a digit."""


def sentences(paragraph_text: str) -> tuple[str, ...]:
    """The sentences of a paragraph of Swedish or Norwegian prose, in order, white space folded.

    A sentence ends at a full stop, exclamation or question mark (with any closing brackets or
    quotes after it) that is followed by white space and a capital letter or digit, possibly
    behind opening brackets or quotes. The stop of an abbreviation (:data:`ABBREVIATIONS`) ends
    no sentence, nor does a stop followed by a small letter. A stop inside brackets ends a
    sentence as one outside them does, so an opening bracket the text never closes cannot
    swallow the rest of the paragraph; a colon never ends one. Text after the last stop (a
    paragraph that breaks off with a comma) is a sentence of its own.

    >>> sentences('Ess räknas som 14. (Gäller t.ex. Viggo.) Obs! "Utgång" är ett ord.')
    ('Ess räknas som 14.', '(Gäller t.ex. Viggo.)', 'Obs! "Utgång" är ett ord.')
    >>> sentences("Fel: Något. Straff: Tre kort. Han tar p.g.a. detta tre kort,")
    ('Fel: Något.', 'Straff: Tre kort.', 'Han tar p.g.a. detta tre kort,')
    >>> sentences("  ")
    ()
    """
    text = " ".join(paragraph_text.split())
    found: list[str] = []
    start = 0
    for match in _END.finditer(text):
        end = match.end()
        if not _NEXT.match(text, end):
            continue
        word = text[:end].rsplit(" ", 1)[-1].lstrip("([\"'“”«").lower()
        stripped = word.rstrip(")]\"'”’»")
        if stripped in ABBREVIATIONS:
            continue
        found.append(text[start:end].strip())
        start = end
    rest = text[start:].strip()
    if rest:
        found.append(rest)
    return tuple(found)
