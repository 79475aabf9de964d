"""Sphinx extension: the referee in the reader's browser (``.. referee-app::``).

The page ``players/referee`` runs the real engine in the browser: Pyodide (CPython compiled to
WebAssembly) and the project's own wheel, both served from the site itself. At the end of an
HTML build this extension puts into ``_referee/`` of the built site:

* the files of Pyodide :data:`PYODIDE` needs, from the npm registry's tarball of that pinned
  version, checked against its SHA-512 (downloaded once into the cache,
  :func:`regelverk.paths.cache_dir`; a build without network finds it there);
* the wheel of this checkout (``pip wheel``, cached under a digest of what goes into it);
* the question files of ``examples/`` and ``catalogue.json``: each rulebook with its readings
  (the ambiguity register's options, defaults first), each question file with its ``about``,
  and Z3's answers to the "can it ever happen?" files among them, asked at build time
  (:func:`answered_by_z3`), since the page carries no Z3;

and ``referee-sw.js`` at the edition's root: a service worker that keeps those files, so the
page answers offline once it has loaded. Nothing else on the site loads any of it: the
scripts are added to the referee page only.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rulebook_site
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from regelverk.paths import cache_dir
from regelverk.registry import default_registry

LOGGER = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent.parent
"""The checkout: the wheel is built from it, the examples read from it."""


@dataclass(frozen=True, slots=True)
class Pin:
    """A pinned npm package: its version, tarball and the registry's integrity string."""

    name: str
    version: str
    integrity: str

    @property
    def url(self) -> str:
        return f"https://registry.npmjs.org/{self.name}/-/{self.name}-{self.version}.tgz"


PYODIDE = Pin(
    "pyodide",
    "314.0.8",
    "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ==",
)
"""The Pyodide the page runs (CPython 3.14): ``npm view pyodide@VERSION dist.integrity``."""

RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files of the Pyodide package the page loads (no packages beyond the standard library:
the engine has no runtime dependencies)."""

FOLDER = "_referee"
"""The folder of the built site holding everything the referee page loads."""

EXAMPLES = ("uno", "vandatta", "viggo", "vvv8-disputes", "can")
"""The folders of ``examples/`` offered as questions to start from."""


def integrity_of(data: bytes) -> str:
    """The npm registry's integrity string of ``data`` (SHA-512, base64)."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def pyodide_tarball(pin: Pin = PYODIDE) -> bytes:
    """The pinned tarball: from the cache, else downloaded (and kept); checked either way."""
    kept = cache_dir()
    path = kept / f"{pin.name}-{pin.version}.tgz" if kept is not None else None
    if path is not None and path.is_file():
        data = path.read_bytes()
        if integrity_of(data) == pin.integrity:
            return data
    try:
        with urllib.request.urlopen(pin.url, timeout=120) as response:
            data = bytes(response.read())
    except OSError as error:
        raise ExtensionError(
            f"the referee page needs {pin.name} {pin.version}, which is neither in the cache "
            f"({path}) nor could be downloaded from {pin.url}: {error}"
        ) from error
    if integrity_of(data) != pin.integrity:
        raise ExtensionError(
            f"{pin.url} does not match its pinned integrity {pin.integrity}: not used"
        )
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            scratch = path.with_suffix(".part")
            scratch.write_bytes(data)
            scratch.replace(path)
        except OSError:
            pass  # a cache only saves time
    return data


def unpack_runtime(data: bytes, into: Path) -> None:
    """Write the files of :data:`RUNTIME` from the tarball ``data`` into ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        tarball = Path(scratch) / "package.tgz"
        tarball.write_bytes(data)
        with tarfile.open(tarball) as archive:
            for name in RUNTIME:
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise ExtensionError(f"the Pyodide package holds no {name}")
                (into / name).write_bytes(member.read())


WHEEL_SOURCES = ("model", "proofs", "spec", "tests", "pyproject.toml")
"""What goes into the wheel (the packages and the data it bundles)."""


def sources_digest() -> str:
    """A digest of every file the wheel is built from."""
    digest = hashlib.sha256()
    for name in WHEEL_SOURCES:
        top = ROOT / name
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            if path.is_file() and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT).as_posix()
                digest.update(
                    f"{relative}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode()
                )
    return digest.hexdigest()[:16]


def project_wheel() -> Path:
    """The wheel of this checkout, built once per set of its sources (kept in the cache)."""
    kept = cache_dir()
    folder = (kept / f"referee-wheel-{sources_digest()}") if kept is not None else None
    if folder is not None:
        found = sorted(folder.glob("regelverk-*.whl"))
        if found:
            return found[0]
    target = folder if folder is not None else Path(tempfile.mkdtemp(prefix="referee-wheel-"))
    scratch = Path(tempfile.mkdtemp(prefix="referee-wheel-"))
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    command += ["--no-build-isolation", "-w", str(scratch), str(ROOT)]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(scratch.glob("regelverk-*.whl"))
    if built.returncode != 0 or not wheels:
        raise ExtensionError(f"the referee page's wheel did not build: {built.stderr[-2000:]}")
    target.mkdir(parents=True, exist_ok=True)
    wheel = target / wheels[0].name
    shutil.move(str(wheels[0]), wheel)
    shutil.rmtree(scratch, ignore_errors=True)
    return wheel


def example_files(examples: Path) -> list[Path]:
    """The question files the page offers: those of :data:`EXAMPLES`, folder by folder."""
    return [path for folder in EXAMPLES for path in sorted((examples / folder).glob("*.json"))]


def catalogue(examples: Path) -> dict[str, Any]:
    """The rulebooks (name, readings) and the question files to start from."""
    registry = default_registry()
    books = []
    for book in registry.rulebooks:
        options = []
        for ambiguity in book.ambiguities:
            if not ambiguity.option:
                continue
            readings = [r.name for r in ambiguity.readings]
            default = ambiguity.default if ambiguity.default in readings else readings[0]
            options.append(
                {
                    "ambiguity": ambiguity.id,
                    "option": ambiguity.option,
                    "title": ambiguity.title,
                    "question": ambiguity.question,
                    "default": default,
                    "readings": [default, *(r for r in readings if r != default)],
                }
            )
        books.append({"id": book.id, "name": book.name, "options": options})
    questions = []
    for path in example_files(examples):
        data = json.loads(path.read_text(encoding="utf-8"))
        questions.append(
            {
                "file": path.relative_to(examples).as_posix(),
                "rulebook": data.get("rulebook", ""),
                "about": data.get("about", path.stem.replace("-", " ")),
            }
        )
    return {"rulebooks": books, "questions": questions}


def can_key(rulebook: str, condition: str, scenario: str | None) -> str:
    """What identifies a "can it ever happen?" question: its rulebook, its condition (spaces
    aside) and its scenario. The page's script computes the same key of the question it is
    asked (``referee.js``), to find the answer given here."""
    return json.dumps([rulebook, " ".join(condition.split()), scenario])


def answered_by_z3(examples: Path) -> dict[str, Any]:
    """Z3's answers to the "can it ever happen?" question files of ``examples/``, as ``regelverk
    ask`` gives them, each under :func:`can_key` of its question; the facts each rulebook's
    scenarios name; and the versions of regelverk and Z3 that answered. (A "yes" comes with
    the least instance, the same in this process as in a command of its own.)"""
    from importlib.metadata import version

    from regelverk import __version__
    from regelverk.extensions import required
    from regelverk.referee import ask, load_question

    answers = {}
    for path in example_files(examples):
        question = load_question(path)
        if "can" in question:
            key = can_key(question["rulebook"], question["can"], question.get("scenario"))
            answers[key] = ask(question)
    extension = required("the referee page's 'can' answers")
    facts = {book.id: extension.facts(book.id) for book in default_registry().rulebooks}
    return {
        "answers": answers,
        "facts": facts,
        "regelverk": __version__,
        "z3": version("z3-solver"),
    }


SERVICE_WORKER = """// The referee page's files, kept by the browser once loaded, so that the page
// answers offline (written by docs/_ext/referee_page.py; the version names the files).
// The page and what it loads are asked of the network first (a reader online gets the site as
// it is now) and kept; without a network, the kept copy answers. Other pages are left alone.
const CACHE = "regelverk-referee-%(version)s";
const FILES = %(files)s;
const PAGE = "players/referee.html";
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) =>
      Promise.all(keys.filter((k) => k.startsWith("regelverk-referee-") && k !== CACHE)
        .map((k) => caches.delete(k)))
    ).then(() => self.clients.claim())
  );
});
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const scope = self.registration.scope;
  const inside = request.url.startsWith(scope);
  const path = inside ? request.url.slice(scope.length).split(/[?#]/)[0] : null;
  const forThePage = path === PAGE || (request.referrer || "").startsWith(scope + PAGE);
  if (request.method !== "GET" || path === null || !(forThePage || FILES.includes(path))) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(request, { ignoreSearch: true });
      if (kept) return kept;
      throw error;
    }
  })());
});
"""


def write_assets(app: Sphinx, exception: BaseException | None) -> None:
    """Put Pyodide, the wheel, the examples and the catalogue into the built site."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    folder = out / FOLDER
    shutil.rmtree(folder, ignore_errors=True)
    runtime = folder / f"pyodide-{PYODIDE.version}"
    unpack_runtime(pyodide_tarball(), runtime)
    wheel = project_wheel()
    shutil.copy2(wheel, folder / wheel.name)
    examples = ROOT / "examples"
    for name in EXAMPLES:
        shutil.copytree(examples / name, folder / "examples" / name)
    data = catalogue(examples)
    data["clauses"] = {entry["id"]: entry["url"] for entry in rulebook_site.clause_table(app)}
    data["wheel"] = wheel.name
    data["pyodide"] = f"pyodide-{PYODIDE.version}/"
    data["z3"] = answered_by_z3(examples)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (folder / "catalogue.json").write_text(text, encoding="utf-8")
    files = [f"{FOLDER}/{p.relative_to(folder).as_posix()}" for p in sorted(runtime.iterdir())]
    files += [f"{FOLDER}/{wheel.name}", f"{FOLDER}/catalogue.json"]
    files += ["players/referee.html", "_static/referee.js", "_static/referee-builder.js"]
    files += ["_static/rulebook.css"]
    version = hashlib.sha256(json.dumps([files, wheel.name, text]).encode()).hexdigest()[:12]
    worker = SERVICE_WORKER % {"version": version, "files": json.dumps(files)}
    (out / "referee-sw.js").write_text(worker, encoding="utf-8")
    LOGGER.info("referee: Pyodide %s and %s in %s", PYODIDE.version, wheel.name, FOLDER)


WORDS: dict[str, dict[str, str]] = {
    "en": {"loading": "The referee is starting (Pyodide and the engine, once)…"},
    "sv": {"loading": "Domaren startar (Pyodide och motorn, en gång)…"},
}


class RefereeApp(SphinxDirective):
    """``.. referee-app::``: the place the page's script builds the question and the ruling."""

    def run(self) -> list[nodes.Node]:
        language = (self.config.language or "en").split("_", maxsplit=1)[0].lower()
        words = WORDS.get(language, WORDS["en"])
        markup = (
            f'<div id="referee-app" data-language="{language}">'
            f'<p class="referee-status" role="status">{html.escape(words["loading"])}</p>'
            '<progress class="referee-progress" max="4" value="0"></progress>'
            "</div>"
        )
        return [nodes.raw("", markup, format="html")]


def page_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Load the referee's script on its page only."""
    if pagename == "players/referee":
        app.add_js_file("referee.js", type="module")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("referee-app", RefereeApp)
    app.connect("html-page-context", page_scripts)
    app.connect("build-finished", write_assets)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
