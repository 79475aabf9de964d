"""Sphinx extension: what the rulebook's pages need beyond reStructuredText.

* ``.. rb-card:: ID`` holds a clause as a reader sees it, anchored at its id.
* ``.. disclosure:: SUMMARY`` folds its content into an HTML ``<details>`` element, so a
  clause card shows its rule first and its code, tests and proofs on demand.
* ``:rb-status:`tested``` marks a clause's status with a class the stylesheet colours.
* ``:rb-source:`label <path:line>``` links to the highlighted source of a file of the project
  at a line. Each file it names gets a page under ``_source/`` (written by
  :func:`source_pages`), with an anchor ``L-<n>`` on every line.
* The page generator publishes the table of every clause and ambiguity (id, rulebook, words,
  page) here (:func:`publish`, :func:`clause_table`); the clause search (``clausesearch.py``)
  indexes it.
* sphinx-needs writes a ``permalink.html`` into every build, a page that looks a need up in a
  ``needs.json`` this site does not build: no page links to it, and opened it only waits. It is
  removed at the end of the build (:func:`remove_orphans`).
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.nodes import split_explicit_title
from sphinx.writers.html5 import HTML5Translator

from regelverk.paths import source_root

SOURCE_PREFIX = "_source"
LOGGER = logging.getLogger(__name__)


class disclosure(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes so)
    """A ``<details>`` element; its ``summary`` attribute is the line shown when folded."""


def visit_disclosure(translator: HTML5Translator, node: disclosure) -> None:
    summary = html.escape(node["summary"])
    translator.body.append(f'<details class="disclosure"><summary>{summary}</summary>\n')


def depart_disclosure(translator: HTML5Translator, node: disclosure) -> None:
    translator.body.append("</details>\n")


def pass_through(translator: Any, node: disclosure) -> None:
    """Other formats than HTML show the folded content as it is."""


class DisclosureDirective(SphinxDirective):
    """``.. disclosure:: SUMMARY`` with a body: folded content."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        node = disclosure(summary=self.arguments[0])
        node += self.parse_content_to_nodes()
        return [node]


class CardDirective(SphinxDirective):
    """``.. rb-card:: ID``: a clause card, a container whose anchor is the clause's id as it is
    written (the hidden need leaves no anchor of its own on the page)."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        node = nodes.container(classes=["clause-card"], ids=[self.arguments[0]])
        node += self.parse_content_to_nodes()
        return [node]


class StatusRole(SphinxRole):
    """``:rb-status:`tested```: the status word, classed ``status status-tested``."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        classes = ["status", f"status-{self.text}"]
        return [nodes.inline(self.rawtext, self.text, classes=classes)], []


def source_page(path: str) -> str:
    """The page name of a file's highlighted source."""
    return f"{SOURCE_PREFIX}/{path}"


class SourceRole(SphinxRole):
    """``:rb-source:`label <path:line>```: a link to a line of a file's source page. The link's
    address is filled in per page when the page is written (:func:`resolve_source_links`)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        _, title, target = split_explicit_title(self.text)
        path, _, line = target.rpartition(":")
        if not path or not line.isdigit():
            LOGGER.warning(
                "rb-source wants 'label <path:line>', not %r",
                self.text,
                location=self.get_location(),
            )
            return [nodes.literal(self.rawtext, self.text)], []
        node = nodes.reference(
            self.rawtext, "", classes=["source-link"], rb_source=(path, int(line))
        )
        node += nodes.literal(title, title)
        return [node], []


def resolve_source_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give every ``rb-source`` link its address relative to the page it stands on."""
    for node in doctree.findall(nodes.reference):
        if "rb_source" in node:
            path, line = node["rb_source"]
            uri = app.builder.get_relative_uri(docname, source_page(path))
            node["refuri"] = f"{uri}#L-{line}"
            del node["rb_source"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Published:
    """What the page generator tells this extension about the pages it wrote."""

    sources: list[str]
    """The files of the project the pages link to, relative to its root."""
    clauses: list[dict[str, str]]
    """Every clause and ambiguity: id, rulebook, kind, locator, words and page."""


PUBLISHED: weakref.WeakKeyDictionary[Sphinx, Published] = weakref.WeakKeyDictionary()


def publish(app: Sphinx, *, sources: list[str], clauses: list[dict[str, str]]) -> None:
    """Record the linked files and the clause table of this build."""
    PUBLISHED[app] = Published(sources=sources, clauses=clauses)


def linked_sources(app: Sphinx) -> list[str]:
    """The files the generated pages link to."""
    published = PUBLISHED.get(app)
    return published.sources if published else []


def source_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Yield one page per linked file: its source, highlighted, a ``L-<n>`` anchor per line."""
    if app.builder.format != "html":
        return
    root = source_root()
    if root is None:
        return
    highlighter = getattr(app.builder, "highlighter", None)
    if highlighter is None:
        return
    for path in linked_sources(app):
        file = root / path
        if not file.is_file():
            continue
        code = file.read_text(encoding="utf-8")
        language = "python" if file.suffix == ".py" else "text"
        highlighted = highlighter.highlight_block(code, language, linenos="inline", linespans="L")
        body = (
            f"<h1>{html.escape(path)}</h1>\n"
            f'<div class="source-file highlight-{language} notranslate">{highlighted}</div>\n'
        )
        context: dict[str, Any] = {"title": path, "body": body, "parents": []}
        yield (source_page(path), context, "page.html")


def clause_table(app: Sphinx) -> list[dict[str, str]]:
    """Every clause and ambiguity with its page."""
    published = PUBLISHED.get(app)
    return published.clauses if published else []


ORPHANS = ("permalink.html",)
"""Pages an extension writes that no page of the site links to, and that would not work."""


def remove_orphans(app: Sphinx, exception: BaseException | None) -> None:
    """Remove :data:`ORPHANS` from the built site."""
    if exception is not None or app.builder.format != "html":
        return
    for name in ORPHANS:
        (Path(app.outdir) / name).unlink(missing_ok=True)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive, roles and source pages."""
    passed = (pass_through, pass_through)
    app.add_node(
        disclosure,
        html=(visit_disclosure, depart_disclosure),
        latex=passed,
        text=passed,
        man=passed,
        texinfo=passed,
    )
    app.add_directive("disclosure", DisclosureDirective)
    app.add_directive("rb-card", CardDirective)
    app.add_role("rb-status", StatusRole())
    app.add_role("rb-source", SourceRole())
    app.connect("doctree-resolved", resolve_source_links)
    app.connect("html-collect-pages", source_pages)
    app.connect("build-finished", remove_orphans)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
