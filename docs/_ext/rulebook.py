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
from collections import Counter
from collections.abc import Iterable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from regelverk.cli import build_parser
from regelverk.cli import main as cli_main
from regelverk.engine import option_values
from regelverk.games import FAMILIES, EngineMissingError, game_for
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


def clause_block(item: ClauseTrace, run: frozenset[str] = frozenset()) -> list[str]:
    """A ``clause`` need for one clause; ``run`` holds the theorems whose results are on the
    Proofs page (the others are named without a link)."""
    clause = item.clause
    title = f"{clause.source} · {clause.tag}"
    lines = [
        f".. clause:: {esc(title)}",
        f"   :id: {clause.id}",
        f"   :tag: {clause.tag}",
        f"   :locator: {esc(clause.source)}",
        f"   :origin: {clause.origin}",
        f"   :status: {item.status.value}",
        f"   :rulebook: {clause.rulebook}",
    ]
    if clause.refs:
        lines.append(f"   :refs: {', '.join(clause.refs)}")
    lines += ["", f"   {esc(clause.rule)}", ""]
    if clause.also_at:
        lines += [f"   Also stated at {', '.join(str(a) for a in clause.also_at)}.", ""]
    if clause.parameters:
        pairs = "; ".join(f"``{k} = {v!r}``" for k, v in clause.parameters)
        lines += [f"   Fixes: {pairs}.", ""]
    lines += [f"   *Status:* {item.status.value}: {esc(item.reason)}.", ""]
    theorems = dict.fromkeys(
        link.target.rpartition("::")[2] for link in item.links if link.kind is LinkKind.PROOF
    )
    if theorems:
        refs = ", ".join(
            f":ref:`{name} <theorem-{name}>`" if name in run else f"``{name}``" for name in theorems
        )
        lines += [f"   *Theorems that rest on it:* {refs}.", ""]
    return lines


def ambiguity_block(entry: Ambiguity) -> list[str]:
    """An ``ambiguity`` need with its readings."""
    lines = [
        f".. ambiguity:: {esc(entry.title)}",
        f"   :id: {entry.id}",
        f"   :kind: {entry.kind}",
        f"   :option: {entry.option}",
        f"   :default_reading: {entry.default}",
        f"   :rulebook: {entry.rulebook}",
        f"   :bears_on: {', '.join(entry.clauses)}",
        "",
        f"   **Question.** {esc(entry.question)}",
        "",
        f"   **Situation.** {esc(entry.situation)}",
        "",
    ]
    for reading in entry.readings:
        mark = " (the model's default)" if reading.name == entry.default else ""
        lines += [
            f"   * ``{entry.option} = {reading.name!r}``{mark}: {esc(reading.reading)}",
            f"     In the situation: {esc(reading.outcome)}",
        ]
    winner = "can change who wins or loses" if entry.changes_winner else "does not change who wins"
    lines += ["", f"   **Why the default.** {esc(entry.reason)} The choice {winner}.", ""]
    return lines


def example_block(example: Example) -> list[str]:
    """A worked example as a table of steps with the model's verdict on each."""
    lines = [*heading(f"Worked example: {example.title} ({example.id})", "~")]
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


def findings_block(book: Rulebook, proofs: dict[str, Any]) -> list[str]:
    """What the theorems about a rulebook found, at the top of its page; what something that
    can happen (a never-ending game, say) looks like is shown in full."""
    own = [t for t in proofs["theorems"] if book.id in t["rulebooks"]]
    if not own:
        return []
    lines = heading("What the theorems show", "=")
    for entry in own:
        lines += [
            f"* :ref:`{entry['name']} <theorem-{entry['name']}>` ({entry['outcome']}): "
            f"{esc(entry['title'])}"
        ]
    lines.append("")
    for entry in own:
        if entry["kind"] == "exists" and entry["detail"]:
            lines += [f"{esc(entry['title'])}:", "", *literal(entry["detail"])]
    return lines


def rulebook_page(book: Rulebook, items: tuple[ClauseTrace, ...], proofs: dict[str, Any]) -> str:
    """The page of one rulebook: what the theorems found, every clause by section, notes, and
    worked examples."""
    run = frozenset(t["name"] for t in proofs["theorems"])
    counts = Counter(i.status.value for i in items)
    lines = [f".. _rulebook-{book.id}:", "", *heading(f"{book.name} ({book.id})", "#")]
    lines += [
        esc(book.summary),
        "",
        f":Text: ``{book.seed}`` ({LANGUAGES[book.language]})",
        f":Clauses: {len(book.clauses)} ("
        + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        + ")",
        f":Ambiguities: {len(book.ambiguities)} (see :ref:`the register <register-{book.id}>`)",
        f":Clause id prefix: ``{book.prefix}-``",
        "",
        *findings_block(book, proofs),
    ]
    for section in book.sections:
        own = [i for i in items if section_of(i.clause) == section.number]
        notes = [n for n in book.notes if n.at.section == section.number]
        lines += heading(f"§{section.number} {section.title}", "=")
        shape = "A headed" if section.heading else "An unheaded"
        lines += [
            f"{shape} section starting at line {section.first_line}, with "
            f"{plural(len(section.paragraph_lines), 'paragraph')}.",
            "",
        ]
        for note in notes:
            lines += [f"* {note.at} (``{note.id}``, {note.kind}, no rule here): {esc(note.what)}"]
        if notes:
            lines.append("")
        for item in sorted(own, key=paragraph_of):
            lines += clause_block(item, run)
    outside = [i for i in items if section_of(i.clause) is None]
    if outside:
        lines += heading("Rules from outside the text", "=")
        lines += [
            "The text presupposes these rules without stating them; each says where it comes from.",
            "",
        ]
        for item in outside:
            lines += clause_block(item, run)
    if book.examples:
        lines += heading("Worked examples", "=")
        for example in book.examples:
            lines += example_block(example)
    return "\n".join(lines) + "\n"


def register_page(registry: Registry) -> str:
    """The ambiguity register of all four rulebooks."""
    lines = [".. _register:", "", *heading("The ambiguity register", "#")]
    total = sum(len(b.ambiguities) for b in registry.rulebooks)
    lines += [
        f"{total} places where a text is ambiguous, contradicts itself or its own example, or "
        "leaves a gap that a referee must fill. Each entry gives the readings, a situation at the "
        "table where they differ, the reading the model takes by default and why, and the option "
        "that selects another reading.",
        "",
    ]
    for book in registry.rulebooks:
        kinds = Counter(a.kind for a in book.ambiguities)
        lines += [f".. _register-{book.id}:", "", *heading(f"{book.name} ({book.id})", "=")]
        lines += [", ".join(plural(n, k) for k, n in sorted(kinds.items())) or "None.", ""]
        for entry in book.ambiguities:
            lines += ambiguity_block(entry)
    return "\n".join(lines) + "\n"


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
    """One need per function, test or theorem, linking to the clauses it covers."""
    directive = {LinkKind.CODE: "codelink", LinkKind.TEST: "testlink", LinkKind.PROOF: "prooflink"}
    option = {LinkKind.CODE: "implements", LinkKind.TEST: "exercises", LinkKind.PROOF: "proves"}
    grouped: dict[str, list[Link]] = {}
    for link in links:
        grouped.setdefault(link_id(link), []).append(link)
    lines: list[str] = []
    for ident, group in sorted(grouped.items()):
        first = group[0]
        clauses = ", ".join(dict.fromkeys(link.clause for link in group))
        lines += [
            f".. {directive[first.kind]}:: {esc(first.target)}",
            f"   :id: {ident}",
            f"   :where: {esc(first.path)}:{first.line}",
            f"   :{option[first.kind]}: {clauses}",
            "",
        ]
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
    for family in dict.fromkeys(FAMILIES.values()):
        books = [b for b, f in FAMILIES.items() if f == family]
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
        lines += [".. list-table::", "   :header-rows: 1", "", "   * - option"]
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
        "mutant's rulebooks (bindings included) and its game family's tests. A clause counts as "
        "*proved* only where a theorem citing it is broken both by a weakening of the clause "
        "and by one of these mutants.",
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


def write_if_changed(path: Path, text: str) -> None:
    """Write a page only when it changed, so Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    """Write every generated page into ``_generated/``."""
    out = Path(app.srcdir) / "_generated"
    out.mkdir(exist_ok=True)
    registry = default_registry()
    items = trace(registry)
    proofs = proof_results()
    for book in registry.rulebooks:
        own = tuple(i for i in items if i.clause.rulebook == book.id)
        write_if_changed(out / f"{book.id}.rst", rulebook_page(book, own, proofs))
    write_if_changed(out / "register.rst", register_page(registry))
    write_if_changed(out / "comparison.rst", comparison_page(registry))
    write_if_changed(out / "glossary.rst", glossary_page(registry))
    write_if_changed(out / "trace.rst", trace_page(items))
    write_if_changed(out / "ask_pages.rst.txt", ask_pages(Path(app.srcdir)))
    write_if_changed(out / "options.rst", options_page(registry))
    with redirect_stdout(io.StringIO()):
        write_if_changed(out / "cli.rst", cli_page())
    write_if_changed(out / "proofs.rst", proofs_page(proofs))
    write_if_changed(out / "mutants.rst", mutants_page(recorded_mutants()))
    write_if_changed(out / "questions.rst", questions_page(source_root()))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the page generator."""
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
