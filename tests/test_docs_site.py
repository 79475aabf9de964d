"""The published rulebook as a reader meets it: every link leads somewhere, no page is wider
than a phone, and each game's quick rules print on one sheet. (The search page is checked in
``test_search.py``, on the same site.)

The site is the one ``scripts/test.sh`` builds (it names it in ``REGELVERK_DOCS_HTML``); without
that, the first test to need it builds it once, shared by every worker, and keeps it in the
cache (:func:`regelverk.paths.cache_dir`) under a digest of everything the build reads (the
docs, the model, the proofs, the spec, the examples, the texts' folder and the settings that
change what it shows): a later run of the same sources uses it again instead of building the
site and running every theorem anew. With the cache off (``REGELVERK_CACHE=off``) each run
builds it in a temporary folder.
The checks in a browser run in a headless Chromium when one is installed (``scripts/setup.sh``
installs it where it can) and are skipped, saying so, when none is.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from regelverk.paths import cache_dir
from regelverk.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
PHONE_WIDTH = 390
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def build_site(into: Path) -> Path:
    """Build the rulebook into ``into`` (once: later calls find it built)."""
    html = into / "html"
    with (into / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (html / "index.html").exists():
            env = dict(os.environ)
            proofs = ROOT / "docs" / "_build" / "proofs.json"
            if "REGELVERK_PROOF_RESULTS" not in env and proofs.exists():
                env["REGELVERK_PROOF_RESULTS"] = str(proofs)
            scratch = into / "html.part"  # put in place whole: a broken-off build is no site
            shutil.rmtree(scratch, ignore_errors=True)
            command = [sys.executable, str(ROOT / "scripts" / "build_rulebook.py"), str(scratch)]
            command += ["--doctrees", str(into / "doctrees")]  # both editions, as test.sh
            subprocess.run(command, check=True, env=env, cwd=ROOT)
            shutil.rmtree(html, ignore_errors=True)
            scratch.rename(html)
    return html


SOURCES = ("docs", "model", "proofs", "spec", "examples", "scripts")
"""The folders whose files the build reads (``docs/_build`` and ``docs/_generated`` aside)."""

SETTINGS = ("REGELVERK_SEEDS", "REGELVERK_SPEC", "REGELVERK_BINDINGS", "REGELVERK_PROOF_RESULTS")
"""The environment that changes what the site shows."""


def sources_digest() -> str:
    """A digest of every file the build reads and the settings it reads them under: two runs
    with the same digest build the same site."""
    digest = hashlib.sha256(f"{sys.version}\n".encode())
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if (
                not path.is_file()
                or "__pycache__" in parts
                or parts[:2]
                in (
                    ("docs", "_build"),
                    ("docs", "_generated"),
                )
            ):
                continue
            name = path.relative_to(ROOT).as_posix()
            digest.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    for name in SETTINGS:
        digest.update(f"{name}={os.environ.get(name, '')}\n".encode())
    seeds = os.environ.get("REGELVERK_SEEDS") or str(ROOT.parent / "shared" / "seeds")
    for path in sorted(Path(seeds).glob("*")) if Path(seeds).is_dir() else ():
        if path.is_file():
            digest.update(
                f"{path.name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode()
            )
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built html of the rulebook."""
    named = os.environ.get("REGELVERK_DOCS_HTML")
    if named:
        html = Path(named)
        assert (html / "index.html").is_file(), f"REGELVERK_DOCS_HTML={named} holds no site"
        return html
    kept = cache_dir()
    if kept is not None:  # one build per set of sources, kept for the next run of the same
        shared = kept / f"site-{sources_digest()}"
        try:
            shared.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        else:
            return build_site(shared)
    # One build per test run, shared by the xdist workers of that run (a site left by an
    # earlier run would show the rulebook as it was then)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent / f"rulebook-site-{run}" if run else base / "rulebook-site"
    shared.mkdir(exist_ok=True)
    return build_site(shared)


def shared(tmp_path_factory: pytest.TempPathFactory, name: str, compute: Any) -> Any:
    """``compute()`` (JSON) once per test run, shared by its xdist workers: the first worker to
    ask computes it under a lock and keeps it in the run's temporary folder; the others read it.
    For the browser sessions a module's fixture runs (a worker may set a module's fixture up
    more than once, where the tests it is given are not all in a row)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    base = tmp_path_factory.getbasetemp()
    folder = base.parent if run else base
    kept = folder / f"{name}-{run or 'alone'}.json"
    with (folder / f"{name}-{run or 'alone'}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return json.loads(kept.read_text(encoding="utf-8"))
        found = compute()
        kept.write_text(json.dumps(found), encoding="utf-8")
        return found


class Page(HTMLParser):
    """The ids a page defines and the addresses it links to."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if found.get(key):
                self.ids.add(str(found[key]))
        address = found.get("href") if tag in ("a", "link") else found.get("src")
        if address and tag in ("a", "link", "script", "img"):
            self.links.append(address)


def read_page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def pages_of(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def checked_pages(site: Path) -> list[Path]:
    """The pages whose links are checked: every page of both editions, except that the source
    pages, which share one layout and link only to their own lines, are stood for by the
    longest."""
    pages = pages_of(site)
    sources = [p for p in pages if "_source" in p.relative_to(site).parts]
    longest = [max(sources, key=lambda p: p.stat().st_size)] if sources else []
    return [p for p in pages if p not in sources] + longest


def broken_links(site: Path) -> list[str]:
    """Every link from a checked page to a file the site lacks or an anchor its target lacks."""
    read: dict[Path, Page] = {}

    def page(path: Path) -> Page:
        if path not in read:
            read[path] = read_page(path)
        return read[path]

    broken: list[str] = []
    for path in (p.resolve() for p in checked_pages(site)):
        for address in page(path).links:
            parts = urlsplit(address)
            if parts.scheme or address.startswith("//"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            where = f"{path.relative_to(site.resolve())}: {address}"
            if not target.exists():
                broken.append(f"{where} (no such file)")
            elif target.is_dir():
                broken.append(f"{where} (a folder)")
            elif (
                parts.fragment
                and target.suffix == ".html"
                and unquote(parts.fragment) not in page(target).ids
                and not (target.name == "referee.html" and parts.fragment.startswith("q="))
            ):  # the referee page reads a question from its fragment (test_referee_page.py)
                broken.append(f"{where} (no anchor #{parts.fragment})")
    return broken


def test_every_internal_link_and_anchor_resolves(site: Path) -> None:
    pages = pages_of(site)
    assert len(pages) > 20, f"only {len(pages)} pages in {site}"
    broken = broken_links(site)
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:50])


def test_every_page_is_linked_from_another(site: Path) -> None:
    """No orphan page: a page nothing links to (sphinx-needs' permalink page, which waits for a
    needs.json this site does not build) is not in the site."""
    linked: set[Path] = set()
    pages = [p.resolve() for p in pages_of(site)]
    for path in pages:
        for address in read_page(path).links:
            parts = urlsplit(address)
            if not (parts.scheme or address.startswith("//")) and parts.path:
                linked.add((path.parent / unquote(parts.path)).resolve())
    orphans = [str(p.relative_to(site.resolve())) for p in pages if p not in linked]
    assert orphans == []
    assert not (site / "permalink.html").exists()


def test_every_page_shows_the_version_the_build_date_and_the_favicon(site: Path) -> None:
    import regelverk

    footer = re.compile(
        r"Last updated on \d{4}-\d{2}-\d{2}, regelverk " + re.escape(regelverk.__version__)
    )
    for path in pages_of(site):
        if "_source" in path.relative_to(site).parts:
            continue  # the highlighted sources are bare pages of code
        text = path.read_text(encoding="utf-8")
        assert footer.search(text), f"{path.relative_to(site)} names no version and build date"
        assert re.search(r'<link rel="(shortcut )?icon" href="[./]*_static/favicon\.svg"', text), (
            path
        )
    assert (site / "_static" / "favicon.svg").read_text(encoding="utf-8").startswith("<svg")


def test_links_from_clauses_lead_to_source_lines(site: Path) -> None:
    page = site / "_generated" / "vvv8" / "section-2.html"
    links = read_page(page).links
    code = [link for link in links if "_source/model/" in link]
    tests = [link for link in links if "_source/tests/" in link]
    assert code, "the clauses link to no code"
    assert tests, "the clauses link to no tests"
    assert all(re.search(r"\.py\.html#L-\d+$", link) for link in code + tests)


def test_a_long_rulebook_has_a_page_per_section_with_a_heading_per_paragraph(site: Path) -> None:
    sections = sorted((site / "_generated" / "vvv8").glob("section-*.html"))
    assert len(sections) == 3
    cards = {
        p.name: p.read_text(encoding="utf-8").count('<div class="clause-card') for p in sections
    }
    assert sum(cards.values()) == len(default_registry().clauses("vvv8")), cards
    # §2 (play, calls, the talon) is the text's longest section: its page holds about a third
    # of the rulebook's clauses, never the whole of it
    assert max(cards.values()) <= 72, cards
    for page in sections:
        headings = re.findall(r"<h2>¶(\d+) ", page.read_text(encoding="utf-8"))
        assert len(headings) >= 3, page.name
        assert [int(h) for h in headings] == sorted(int(h) for h in headings)


def test_a_clause_card_shows_its_rule_first_and_folds_its_links(site: Path) -> None:
    """Players first: the rule, then, folded away, the clause's id, its place in the text (linked
    to that section of the rulebook), its tag and status, and its code, tests and proofs."""
    text = (site / "_generated" / "vvv8" / "section-2.html").read_text(encoding="utf-8")
    card = text.partition('id="V8-EIGHT-ON-ANY-CARD"')[2].partition('<div class="clause-card')[0]
    rule, folded = card.index("An eight may be played on any card."), card.index("<details")
    assert rule < folded
    assert "V8-EIGHT-ON-ANY-CARD · 000 §2 ¶7" in card[folded : card.index("</summary>")]
    meta = card.index('class="clause-meta')
    assert folded < meta
    line = card[meta : card.index("</div>", meta)]
    assert re.search(r'href="#rulebook-vvv8-2"><span[^>]*>000 §2 ¶7</span>', line), line
    assert "special-card" in line
    assert 'class="status status-' in line
    assert card.count("status-") == 1, "the status is shown once"
    assert "_source/model/regelverk/" in card[folded:]
    # a rulebook on one page links its locators to the section's own heading on that page
    uno = (site / "_generated" / "uno.html").read_text(encoding="utf-8")
    assert 'id="rulebook-uno-2"' in uno and 'href="#rulebook-uno-2"' in uno


def test_a_dispute_s_place_leads_to_its_section_of_the_rulebook(site: Path) -> None:
    """Each sentence's place on the dispute page opens the section of the rulebook it is in,
    where that section holds a rule (the title, §0, holds none and is not linked)."""
    text = (site / "_generated" / "disputes-vvv8.html").read_text(encoding="utf-8")
    rubrics = re.findall(r'<p class="rubric">(.*?)</p>', text)
    assert len(rubrics) > 100
    linked = [r for r in rubrics if r.startswith("<a ")]
    assert len(linked) > 0.9 * len(rubrics)
    assert '<p class="rubric">§0 ¶1 s1: the title</p>' in text
    first = re.search(
        r'href="vvv8/section-(\d+)\.html#rulebook-vvv8-(\d+)"><span[^>]*>§(\d+) ', linked[0]
    )
    assert first is not None and len(set(first.groups())) == 1  # the sentence's own section


def test_a_rulebook_page_gives_the_rules_and_leads_to_the_theorems_on_their_own_page(
    site: Path,
) -> None:
    text = (site / "_generated" / "uno.html").read_text(encoding="utf-8")
    assert 'id="UNO-SKIP-EFFECT"' in text
    assert 'id="what-the-theorems-show' not in text  # the sidebar may name the page
    assert 'href="uno/theorems.html"' in text
    assert "cited-by-proof," not in text.partition('id="rulebook-uno-1"')[0]  # no tally on top
    for book in ("uno", "vvv8", "vandatta", "viggo"):
        theorems = (site / "_generated" / book / "theorems.html").read_text(encoding="utf-8")
        assert "What the theorems show about" in theorems
        assert f"{book}.card-conservation" in theorems


def test_the_site_holds_no_doctrees(site: Path) -> None:
    assert not (site / ".doctrees").exists()


def test_no_trace_title_shows_an_escape(site: Path) -> None:
    text = (site / "_generated" / "trace.html").read_text(encoding="utf-8")
    assert "test_V8" in text
    assert "\\_" not in text


def test_no_reference_to_a_clause_is_cut_short(site: Path) -> None:
    labels = [
        label
        for page in pages_of(site / "_generated")
        for label in re.findall(r'class="xref need">([^<]*)</', page.read_text(encoding="utf-8"))
    ]
    assert len(labels) > 100
    assert not [label for label in labels if "..." in label]
    assert "V8-SETUP-TWO-DECKS-FOUR-PLUS" in labels


# In a browser.


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(
        "no headless Chromium is installed (scripts/setup.sh installs the Debian package "
        "'chromium' when it runs as root with apt-get)"
    )


BROWSER_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars")

MEASURE = """<!doctype html><meta charset="utf-8"><title>widths</title>
<body>
<script>
const pages = %(pages)s;
const found = {};
let waiting = pages.length;
function measure(frame, page) {
  const win = frame.contentWindow;
  const doc = win.document;
  const width = doc.documentElement.scrollWidth;
  const wide = width <= win.innerWidth ? [] : [...doc.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > win.innerWidth + 1)
    .filter((e) => !e.closest(".sidebar-drawer, .toc-drawer"))
    .slice(0, 3)
    .map((e) => e.tagName.toLowerCase() + "." + [...e.classList].join("."));
  const toc = doc.querySelector(".toc-drawer");
  const box = toc ? toc.getBoundingClientRect() : null;
  const contents = Boolean(box) && getComputedStyle(toc).position !== "fixed"
    && box.width > 0 && box.left >= 0 && box.right <= win.innerWidth;
  found[page] = {width: width, screen: win.innerWidth, wide: wide, contents: contents};
  waiting -= 1;
  if (waiting === 0) {
    fetch("/__widths__", {method: "POST", body: JSON.stringify(found)});
  }
}
// A few frames side by side, each taking the next page when it has measured one.
let next = 0;
function take(frame) {
  if (next === pages.length) return;
  const page = pages[next++];
  frame.onload = () => { measure(frame, page); take(frame); };
  frame.src = page;
}
for (let i = 0; i < %(frames)d; i++) {
  const frame = document.createElement("iframe");
  frame.style = "width: %(width)dpx; height: 800px; border: 0";
  document.body.append(frame);
  take(frame);
}
</script>
"""


def run_in_browser(
    site: Path, driver: str, *, flags: tuple[str, ...] = (), timeout: int = 180, doing: str
) -> dict[str, Any]:
    """Open the page ``driver`` (HTML) in a headless Chromium, with the site served beside it on
    a local address, and return what the page posts back (a JSON object) once it is done;
    ``doing`` says what the page does, for the error when it does not finish in ``timeout``
    seconds. A post to ``/__offline__`` takes the site away, as a lost network would: every
    later request for it is closed unanswered, and ``__refused__`` in what is returned counts
    them (it is there only then)."""
    chromium = browser()
    received: dict[str, Any] = {"__refused__": 0}
    done = threading.Event()
    offline = threading.Event()
    body = driver.encode()

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path == "/__driver__.html":
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if offline.is_set():
                received["__refused__"] += 1
                self.close_connection = True  # no answer at all
                return
            super().do_GET()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            posted = json.loads(self.rfile.read(length))
            self.send_response(204)
            self.end_headers()
            if self.path == "/__offline__":
                offline.set()
                return
            received.update(posted)
            done.set()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/__driver__.html"
    command = [chromium, *BROWSER_FLAGS, *flags, address]
    try:
        with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as run:
            try:
                finished = done.wait(timeout=timeout)
            finally:
                run.terminate()
                try:
                    run.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    run.kill()
    finally:
        server.shutdown()
        server.server_close()
    assert finished, f"the browser did not {doing} within {timeout} s"
    if not offline.is_set():
        del received["__refused__"]
    return received


def measure_pages(site: Path, pages: list[str], width: int) -> dict[str, dict[str, Any]]:
    """Each page's scroll width (and what sticks out), the screen's width, and whether the
    page's contents column is in view, as a headless Chromium lays the page out in a frame
    ``width`` pixels wide. The site is served on a local address for it."""
    measure = MEASURE % {"width": width, "frames": 4, "pages": json.dumps(["/" + p for p in pages])}
    return run_in_browser(
        site, measure, flags=("--window-size=1400,900",), doing="measure the pages"
    )


def test_no_page_is_wider_than_a_phone(site: Path) -> None:
    # The source pages share one layout, their code scrolling in its own box: the longest
    # stands for all of them.
    pages = [p.relative_to(site).as_posix() for p in checked_pages(site)]
    found = measure_pages(site, pages, PHONE_WIDTH)
    assert len(found) == len(pages)
    assert all(f["screen"] == PHONE_WIDTH for f in found.values())
    wide = {page: f for page, f in found.items() if f["width"] > f["screen"]}
    assert not wide, "pages wider than a phone (scroll width, screen, what sticks out):\n" + (
        "\n".join(f"{page}: {f['width']} > {f['screen']}: {f['wide']}" for page, f in wide.items())
    )


@pytest.mark.parametrize("width", [1280, 1100])
def test_on_a_desktop_the_contents_stay_beside_the_text(site: Path, width: int) -> None:
    pages = ["_generated/vvv8/section-2.html", "_generated/options.html", "reading.html"]
    found = measure_pages(site, pages, width)
    assert all(f["contents"] for f in found.values()), found
    assert all(f["width"] <= f["screen"] for f in found.values()), found


A4_POINTS = (595, 842)
"""An A4 page in PDF points (1/72 inch), rounded."""


def printed_pages(page: Path, into: Path) -> list[tuple[int, int]]:
    """The sizes of the pages Chromium prints ``page`` on (its print stylesheet in force), in
    PDF points: read from the PDF it writes, one ``/Type /Page`` object per page."""
    pdf = into / (page.stem + ".pdf")
    command = [browser(), *BROWSER_FLAGS, "--no-pdf-header-footer", f"--print-to-pdf={pdf}"]
    subprocess.run(
        [*command, page.resolve().as_uri()], check=True, capture_output=True, timeout=120
    )
    data = pdf.read_bytes()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    pages = re.findall(rb"/Type\s*/Page(?!s)", data)
    assert len(boxes) >= len(pages), "a page of the PDF has no size"
    return [(round(float(w)), round(float(h))) for w, h in boxes[: len(pages)]]


@pytest.mark.parametrize("edition", ["", "sv"])
@pytest.mark.parametrize("game", ["vvv8", "vandatta", "viggo", "uno"])
def test_each_game_s_quick_rules_print_on_one_a4_sheet(
    site: Path, tmp_path: Path, game: str, edition: str
) -> None:
    """The print stylesheet leaves the rules alone on one A4 page (no site chrome, disputes or
    diagrams), in English and in Swedish; on screen the page is as long as it was (the
    disputes are still there)."""
    page = site / edition / "players" / f"{game}.html"
    assert printed_pages(page, tmp_path) == [A4_POINTS]
    assert 'id="disputes-at-the-table"' in page.read_text(encoding="utf-8")
