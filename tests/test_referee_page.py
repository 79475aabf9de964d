"""The referee in the browser (``players/referee``, ``docs/_ext/referee_page.py``): the site
serves Pyodide and the project's wheel itself, the page's script loads only there, and a
question in the page's address is ruled in a headless Chromium exactly as ``regelverk ask``
rules it: the same first words, the same deciding clauses, linked to their rules. The site is
the one :func:`test_docs_site.site` provides; the checks in a browser are skipped, saying so,
when no Chromium is installed.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from test_docs_site import pages_of, run_in_browser, shared, site

from regelverk.cli import main
from regelverk.referee import ask, load_question
from regelverk.verdicts import first_words

__all__ = ["site"]  # the fixture, shared with the site's other tests

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = (
    "examples/uno/wild-draw-four-bluff.json",
    "examples/uno/sequence-bluff-then-challenge.json",
    "examples/vandatta/ace-off-suit.json",
    "examples/vvv8-disputes/1-1-4-sixth-player-in-coffee-break.json",
)
"""Questions ruled in the browser: a single action, a sequence, a reading that changes the
ruling, a refusal."""
CAN = "examples/can/vvv8-win-on-an-eight.json"
"""A "can it ever happen?" question, changed in the test (its spacing, its condition)."""


def printed_by_ask(answer: dict[str, Any]) -> str:
    """What ``regelverk ask`` prints for ``answer``."""
    from regelverk.cli import _print_any_answer

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _print_any_answer(answer, False)
    return printed.getvalue()


def asked_afresh(path: Path) -> dict[str, Any]:
    """What ``regelverk ask --json`` answers for ``path``, run as a command of its own, as a
    reader runs it."""
    command = [sys.executable, "-m", "regelverk", "ask", "--json", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def fragment(question: dict[str, Any]) -> str:
    """The page's address fragment for ``question``: its JSON deflated (raw) and base64url."""
    packer = zlib.compressobj(level=9, wbits=-15)
    packed = packer.compress(json.dumps(question).encode()) + packer.flush()
    return "#q=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def question_of(fragment: str) -> dict[str, Any]:
    """The question a ``q=`` fragment carries (the inverse of :func:`fragment`)."""
    code = fragment.removeprefix("#").removeprefix("q=")
    packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    data: dict[str, Any] = json.loads(zlib.decompress(packed, wbits=-15))
    return data


OPENERS = ("players/uno.html", "_generated/disputes-vvv8.html")
"""Pages whose disputes open in the referee: the first such link of each is followed."""


def opener(site: Path, page: str) -> str:
    """The first link of ``page`` that opens a dispute in the referee, as a path from the
    site's root."""
    text = (site / page).read_text(encoding="utf-8")
    found = re.search(r'<p class="referee-open"><a href="([^"]+)"', text)
    assert found is not None, f"{page} opens no dispute in the referee"
    path, _, fragment = found.group(1).partition("#")
    target = (Path("/") / page).parent / path
    return f"{Path(*target.parts).resolve().as_posix()}#{fragment}"


def test_every_dispute_opens_in_the_referee(site: Path) -> None:
    for page in OPENERS:
        text = (site / page).read_text(encoding="utf-8")
        links = re.findall(r'<p class="referee-open"><a href="[^"]*referee\.html#(q=[^"]+)"', text)
        asked = (
            len(re.findall(r"regelverk ask examples/", text)) if page.startswith("players") else 0
        )
        assert links and len(links) >= asked
        assert all("rulebook" in question_of(link) for link in links)


def test_the_site_serves_pyodide_and_the_wheel_itself(site: Path) -> None:
    folder = site / "_referee"
    catalogue = json.loads((folder / "catalogue.json").read_text(encoding="utf-8"))
    runtime = folder / catalogue["pyodide"]
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (runtime / name).is_file(), name
    assert (folder / catalogue["wheel"]).is_file()
    assert {b["id"] for b in catalogue["rulebooks"]} == {"vvv8", "vandatta", "viggo", "uno"}
    assert all(q["rulebook"] for q in catalogue["questions"])
    worker = (site / "referee-sw.js").read_text(encoding="utf-8")
    assert f'"_referee/{catalogue["wheel"]}"' in worker
    script = (site / "_static" / "referee.js").read_text(encoding="utf-8")
    assert not re.findall(r"https?://", script), "the page fetches nothing from elsewhere"


def test_only_the_referee_page_loads_the_referee(site: Path) -> None:
    loading = [
        p.relative_to(site).as_posix()
        for p in pages_of(site)
        if re.search(r'<script[^>]+src="[^"]*referee\.js', p.read_text(encoding="utf-8"))
    ]
    assert sorted(loading) == ["players/referee.html", "sv/players/referee.html"]


DRIVER = """<!doctype html><meta charset="utf-8"><title>referee</title>
<body>
<script>
const asks = %(asks)s;
const found = {};
let next = 0;
const frame = document.createElement("iframe");
frame.style.width = "390px";
frame.style.height = "800px";
document.body.append(frame);
function take() {
  if (next === asks.length) {
    fetch("/__found__", {method: "POST", body: JSON.stringify(found)});
    return;
  }
  const ask = asks[next++];
  const started = Date.now();
  frame.onload = () => {
    const poll = setInterval(() => {
      const doc = frame.contentDocument;
      const app = doc && doc.getElementById("referee-app");
      const state = app && app.dataset.state;
      if (state !== "ruled" && state !== "failed" && Date.now() - started < 60000) return;
      clearInterval(poll);
      const verdict = doc.querySelector(".referee-verdict");
      found[ask.key] = {
        state,
        status: app ? app.querySelector(".referee-status").textContent : "",
        verdict: verdict ? verdict.textContent : null,
        error: (doc.querySelector(".referee-error") || {}).textContent || "",
        beside: [...doc.querySelectorAll(".referee-field-error")].map(
          (p) => p.closest("[data-field]").dataset.field),
        clauses: [...doc.querySelectorAll(".referee-clauses a")].map((a) => a.textContent),
        links: [...doc.querySelectorAll(".referee-clauses a")].map((a) => a.getAttribute("href")),
        printed: (doc.querySelector(".referee-ruling details pre") || {}).textContent || "",
        width: doc.documentElement.scrollWidth,
        message: (doc.querySelector(".referee-message") || {}).textContent || "",
        readingsShown: !(doc.querySelector(".referee-readings") || {hidden: true}).hidden,
      };
      take();
    }, 100);
  };
  frame.src = ask.page;
}
take();
</script>
"""


@pytest.fixture(scope="module")
def rulings(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What the page shows for each of :data:`QUESTIONS`, asked through its address, and for a
    position that cannot occur."""
    asks: list[dict[str, Any]] = []
    for n, name in enumerate(QUESTIONS):
        question = load_question(ROOT / name)
        asks.append({"key": name, "question": question, "edition": ""})
        if n == 0:  # the same in the Swedish edition
            asks.append({"key": f"sv:{name}", "question": question, "edition": "sv/"})
    broken = load_question(ROOT / QUESTIONS[0])
    broken["position"] = {**broken["position"], "turn": "Nobody"}
    asks.append({"key": "broken", "question": broken, "edition": ""})
    can = load_question(ROOT / CAN)
    spaced = {**can, "can": "  " + can["can"].replace(" ", "   ") + " "}
    asks.append({"key": "can-spaced", "question": spaced, "edition": ""})
    unasked = {**can, "can": can["can"] + " and last-rank = ace"}
    asks.append({"key": "can-unasked", "question": unasked, "edition": ""})
    asks.append({"key": "sv:can-unasked", "question": unasked, "edition": "sv/"})
    for page in OPENERS:  # a dispute's link, as a reader follows it
        path, _, code = opener(site, page).partition("#")
        assert path == "/players/referee.html", path
        asks.append({"key": page, "question": question_of(code), "edition": ""})
    for n, entry in enumerate(asks):  # a query of its own: a new fragment alone loads no page
        entry["page"] = (
            f"/{entry['edition']}players/referee.html?n={n}{fragment(entry['question'])}"
        )
    driver = DRIVER % {"asks": json.dumps(asks)}
    found: dict[str, dict[str, Any]] = shared(
        tmp_path_factory,
        "referee-rulings",
        lambda: run_in_browser(site, driver, timeout=600, doing="rule in the referee page"),
    )
    return found


@pytest.mark.parametrize("name", QUESTIONS)
def test_the_page_rules_as_regelverk_ask_does(
    rulings: dict[str, dict[str, Any]], name: str
) -> None:
    shown = rulings[name]
    assert shown["state"] == "ruled", shown
    answer = ask(load_question(ROOT / name))
    assert shown["verdict"] == first_words(answer)
    steps = answer.get("steps", [answer])
    expected = list(dict.fromkeys(c for step in steps for c in step.get("clauses", [])))
    assert shown["clauses"] == expected
    assert all(link.split("#")[1] == c for link, c in zip(shown["links"], expected, strict=True))
    assert first_words(answer) in shown["printed"] or answer["message"][:40] in shown["printed"]
    assert shown["width"] <= 390, "the page is wider than a phone"
    assert shown["readingsShown"]


def test_the_swedish_page_rules_too(rulings: dict[str, dict[str, Any]]) -> None:
    shown = rulings[f"sv:{QUESTIONS[0]}"]
    assert shown["state"] == "ruled", shown
    assert shown["status"] == "Klar."
    assert shown["clauses"] == rulings[QUESTIONS[0]]["clauses"]


def test_a_position_that_cannot_occur_gets_the_referee_s_reason(
    rulings: dict[str, dict[str, Any]],
) -> None:
    shown = rulings["broken"]
    assert shown["state"] == "ruled", shown
    assert shown["verdict"] is None
    assert "Nobody" in shown["error"]
    assert shown["beside"] == ["position.turn"]  # the reason beside the field at fault


def test_a_can_question_z3_answered_at_build_is_answered_however_spaced(
    rulings: dict[str, dict[str, Any]],
) -> None:
    """The condition of a 'can it ever happen?' example, spaced otherwise: the page gives the
    answer Z3 gave when the site was built, as ``regelverk ask`` prints it."""
    shown = rulings["can-spaced"]
    assert shown["state"] == "ruled", shown
    answer = asked_afresh(ROOT / CAN)
    assert answer["answer"] == "no"
    assert shown["verdict"] == "No: it can never happen."
    assert shown["clauses"] == answer["forbidding"]
    assert shown["printed"] == printed_by_ask(answer)
    assert shown["message"].startswith(f"Can it happen that {answer['question']}?")
    assert not shown["readingsShown"], "a scenario fixes the readings: the menu is hidden"


def test_a_can_question_z3_was_not_asked_needs_z3(rulings: dict[str, dict[str, Any]]) -> None:
    """A 'can it ever happen?' question that is none of the examples: the page has no Z3 and
    no answer recorded, and says so (in each edition's language); it answers nothing."""
    for key, words in (("can-unasked", "not among them"), ("sv:can-unasked", "inte bland dem")):
        shown = rulings[key]
        assert shown["state"] == "ruled", shown
        assert shown["verdict"] is None
        assert words in shown["error"], shown["error"]


@pytest.mark.parametrize("page", OPENERS)
def test_a_dispute_s_link_is_ruled_in_the_referee_page(
    site: Path, rulings: dict[str, dict[str, Any]], page: str
) -> None:
    shown = rulings[page]
    assert shown["state"] == "ruled", shown
    code = opener(site, page).partition("#")[2]
    assert shown["verdict"] == first_words(ask(question_of(code)))


READY = """const frame = document.createElement("iframe");
frame.style.width = "390px";
frame.style.height = "900px";
document.body.append(frame);
const found = {};
function finish() { fetch("/__found__", {method: "POST", body: JSON.stringify(found)}); }
// Open the referee page at phone width; once its engine has started, then(document, the app,
// set: a control given a value as a reader would); after a minute, "not ready" as the error.
function whenReady(then) {
  frame.onload = () => {
    const started = Date.now();
    const ready = setInterval(() => {
      const d = frame.contentDocument;
      const app = d.getElementById("referee-app");
      if (!app || app.dataset.state !== "ready") {
        if (Date.now() - started > 60000) {
          clearInterval(ready);
          found.error = "not ready";
          finish();
        }
        return;
      }
      clearInterval(ready);
      const set = (id, value) => {
        const control = d.getElementById(id);
        control.value = value;
        control.dispatchEvent(new Event("change"));
      };
      then(d, app, set);
    }, 100);
  };
  frame.src = "/players/referee.html";
}"""
"""The drivers' common start: the referee page in a frame, and a wait for its engine."""


BUILDER = """<!doctype html><meta charset="utf-8"><title>builder</title>
<body>
<script>
%(ready)s
whenReady(async (d, app, set) => {
  const tap = (label) => d.querySelector(`[aria-label="${label}"]`).click();
  const press = (words) =>
    [...d.querySelectorAll("button")].find((b) => b.textContent === words).click();
  const w = frame.contentWindow;
  let blob = null;
  w.URL.createObjectURL = (made) => { blob = made; return "blob:caught"; };
  w.HTMLAnchorElement.prototype.click = () => {};  // the download is caught, not saved
  try {
    for (const [verb, ...args] of %(steps)s) {
      if (verb === "set") set(...args);
      else if (verb === "tap") tap(...args);
      else if (verb === "press") press(...args);
      else if (verb === "file") found.file = d.getElementById("referee-question").value;
    }
  } catch (problem) {
    found.error = String(problem);
    finish();
    return;
  }
  found.downloaded = null;
  if (blob) blob.text().then((text) => { found.downloaded = text; });
  else found.downloaded = "";
  d.querySelector("button[type=submit]").click();
  const asked = setInterval(() => {
    if (app.dataset.state !== "ruled" || found.downloaded === null) return;
    clearInterval(asked);
    found.verdict = (d.querySelector(".referee-verdict") || {}).textContent || null;
    found.error = d.querySelector(".referee-error").textContent;
    finish();
  }, 100);
});
</script>
"""


def test_a_question_built_by_tapping_cards_is_ruled(site: Path, tmp_path: Path) -> None:
    """Players, hands, the pile, the turn and an action chosen with the builder's fields and
    card buttons, as a reader without a question file would, then a second action making a
    sequence: the page writes the question file, the file it downloads is one that
    ``regelverk ask`` reads, and the page rules it as the command line does."""
    steps = [
        ["set", "referee-rulebook", "uno"],
        ["set", "rb-players", "Anna, Bo"],
        ["set", "rb-into", "hand:Anna"],
        ["tap", "Add R5"],
        ["tap", "Add G7"],
        ["set", "rb-into", "hand:Bo"],
        ["tap", "Add B1"],
        ["tap", "Add B2"],
        ["set", "rb-into", "pile:discard"],
        ["tap", "Add R3"],
        ["set", "rb-turn", "Anna"],
        ["set", "rb-action", "play"],
        ["set", "rb-by", "Anna"],
        ["set", "rb-into", "action"],
        ["tap", "Add G7"],
        ["tap", "Remove G7 from the action"],
        ["tap", "Add R5"],
        ["file"],
        ["press", "Add an action after this one"],  # a sequence: then Bo draws
        ["set", "rb-action", "draw"],
        ["set", "rb-by", "Bo"],
        ["press", "Download the question file"],
    ]
    driver = BUILDER % {"steps": json.dumps(steps), "ready": READY}
    shown = run_in_browser(site, driver, timeout=180, doing="build and rule a question")
    assert not shown.get("error"), shown
    question = {"rulebook": "uno", **json.loads(shown["file"])}
    assert question["position"]["hands"] == {"Anna": ["R5", "G7"], "Bo": ["B1", "B2"]}
    assert question["position"]["discard"] == ["R3"]
    assert question["action"] == {"action": "play", "player": "Anna", "card": "R5"}
    assert first_words(ask(question)) == "Allowed"
    downloaded = json.loads(shown["downloaded"])
    assert downloaded["rulebook"] == "uno" and "action" not in downloaded
    assert downloaded["actions"] == [question["action"], {"action": "draw", "player": "Bo"}]
    path = tmp_path / "question.json"
    path.write_text(shown["downloaded"], encoding="utf-8")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main(["ask", str(path), "--json"])
    assert shown["verdict"] == first_words(json.loads(printed.getvalue()))


FORM = """<!doctype html><meta charset="utf-8"><title>built in the form</title>
<body>
<script>
const cases = %(cases)s;
%(ready)s
whenReady(async (d, app, set) => {
  const w = frame.contentWindow;
  let blob = null;
  w.URL.createObjectURL = (made) => { blob = made; return "blob:caught"; };
  w.HTMLAnchorElement.prototype.click = () => {};  // the download is caught, not saved
  const tap = (label) => {
    const button = d.querySelector(`[aria-label="${label}"]`);
    if (!button) throw new Error(`no button "${label}"`);
    button.click();
  };
  const press = (words) =>
    [...d.querySelectorAll("button")].find((b) => b.textContent === words).click();
  for (const [name, steps] of cases) {
    const shown = {};
    blob = null;
    try {
      for (const [verb, ...args] of steps) {
        if (verb === "set") set(...args);
        else if (verb === "tap") tap(...args);
        else if (verb === "press") press(...args);
      }
      press("Download the question file");
      shown.downloaded = blob ? await blob.text() : null;
      d.querySelector("button[type=submit]").click();  // rules at once: the engine is loaded
      shown.state = app.dataset.state;
      shown.verdict = (d.querySelector(".referee-verdict") || {}).textContent || null;
      shown.error = d.getElementById("referee-error").textContent;
    } catch (problem) {
      shown.problem = String(problem);
    }
    found[name] = shown;
  }
  finish();
});
</script>
"""


def _hands(*hands: tuple[str, list[str]]) -> list[list[str]]:
    """The builder's steps that deal each player's hand by tapping its cards."""
    steps = []
    for player, cards in hands:
        steps.append(["set", "rb-into", f"hand:{player}"])
        steps += [["tap", f"Add {card}"] for card in cards]
    return steps


def _trick(player_cards: list[str]) -> list[list[str]]:
    """Viggo: a first play laid to the trick (by the first player) with ``player_cards``."""
    return [["press", "Add a play to the trick"], *[["tap", f"Add {c}"] for c in player_cards]]


def _action(kind: str, by: str, cards: list[str], **choices: str) -> list[list[str]]:
    """The action attempted: its kind, player, cards (tapped) and named colour or suit."""
    steps = [["set", "rb-action", kind], ["set", "rb-by", by], ["set", "rb-into", "action"]]
    steps += [["tap", f"Add {card}"] for card in cards]
    steps += [["set", f"rb-action-{key}", value] for key, value in choices.items()]
    return steps


def _start(rulebook: str, players: str) -> list[list[str]]:
    return [["set", "referee-rulebook", rulebook], ["set", "rb-players", players]]


FORM_CASES: dict[str, tuple[str, list[list[str]]]] = {
    "uno: Wild Draw Four holding the colour": (
        "ruling",
        [
            *_start("uno", "Anna, Bo"),
            *_hands(("Anna", ["W+4", "R5"]), ("Bo", ["B1", "B2"])),
            ["set", "rb-into", "pile:discard"],
            ["tap", "Add R3"],
            ["set", "rb-turn", "Anna"],
            ["set", "rb-colour", "red"],
            *_action("play", "Anna", ["W+4"], colour="blue"),
        ],
    ),
    "uno: a play while Bo's hand is unseen": (
        "partial",
        [
            *_start("uno", "Anna, Bo"),
            *_hands(("Anna", ["R5", "G2"]), ("Bo", ["?", "?", "?"])),
            ["set", "rb-into", "pile:discard"],
            ["tap", "Add R3"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["R5"]),
        ],
    ),
    "uno: two red zeros": (
        "refused",
        [
            *_start("uno", "Anna, Bo"),
            *_hands(("Anna", ["R0", "G2"]), ("Bo", ["R0", "B2"])),
            ["set", "rb-into", "pile:discard"],
            ["tap", "Add R3"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["R0"]),
        ],
    ),
    "vandatta: an eight, naming hearts": (
        "ruling",
        [
            *_start("vandatta", "Anna, Bo, Cia"),
            *_hands(("Anna", ["8S", "5H"]), ("Bo", ["KD", "4C"]), ("Cia", ["2H", "9S"])),
            ["set", "rb-into", "pile:pile"],
            ["tap", "Add 3C"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["8S"], suit="H"),
        ],
    ),
    "vandatta: a play, then the next player's": (
        "ruling",
        [
            *_start("vandatta", "Anna, Bo, Cia"),
            *_hands(("Anna", ["5C", "9D"]), ("Bo", ["7C", "KH"]), ("Cia", ["2H", "9S"])),
            ["set", "rb-into", "pile:pile"],
            ["tap", "Add 3C"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["5C"]),
            ["press", "Add an action after this one"],
            *_action("play", "Bo", ["7C"]),
        ],
    ),
    "vandatta: the same ace in two hands": (
        "refused",
        [
            *_start("vandatta", "Anna, Bo, Cia"),
            *_hands(("Anna", ["AS", "5H"]), ("Bo", ["AS", "4C"]), ("Cia", ["2H", "9S"])),
            ["set", "rb-into", "pile:pile"],
            ["tap", "Add 3S"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["AS"]),
        ],
    ),
    "vvv8: going out on an eight": (
        "ruling",
        [
            *_start("vvv8", "Anna, Bo, Cia"),
            *_hands(("Anna", ["8H"]), ("Bo", ["5D", "6D"]), ("Cia", ["KS", "QS"])),
            ["set", "rb-into", "pile:pile"],
            ["tap", "Add 9H"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["8H"], suit="S"),
        ],
    ),
    "vvv8: a play while two hands are unseen": (
        "partial",
        [
            *_start("vvv8", "Anna, Bo, Cia"),
            *_hands(("Anna", ["9H", "3C"]), ("Bo", ["?", "?"]), ("Cia", ["?", "?"])),
            ["set", "rb-into", "pile:pile"],
            ["tap", "Add 9C"],
            ["set", "rb-turn", "Anna"],
            *_action("play", "Anna", ["9H"]),
        ],
    ),
    "viggo: a pass on a single": (
        "ruling",
        [
            *_start("viggo", "P1, P2, P3"),
            *_hands(("P1", ["6C"]), ("P2", ["7H", "4S"]), ("P3", ["9D"])),
            *_trick(["5C"]),
            ["set", "rb-turn", "P2"],
            *_action("pass", "P2", []),
        ],
    ),
    "viggo: a pair on a single": (
        "ruling",
        [
            *_start("viggo", "P1, P2, P3"),
            *_hands(("P1", ["6C"]), ("P2", ["7H", "7S"]), ("P3", ["9D"])),
            *_trick(["5C"]),
            ["set", "rb-turn", "P2"],
            *_action("play", "P2", ["7H", "7S"]),
        ],
    ),
}
"""Questions built in the form alone, as a reader without a question file builds them: every
rulebook, a sequence, positions partly unseen and positions that cannot occur."""


@pytest.fixture(scope="module")
def built(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What the page downloads and rules for each of :data:`FORM_CASES`."""
    cases = [[name, steps] for name, (_, steps) in FORM_CASES.items()]
    driver = FORM % {"cases": json.dumps(cases), "ready": READY}
    found: dict[str, dict[str, Any]] = shared(
        tmp_path_factory,
        "referee-form",
        lambda: run_in_browser(site, driver, timeout=300, doing="build questions in the form"),
    )
    return found


@pytest.mark.parametrize("name", FORM_CASES)
def test_a_question_built_in_the_form_is_ruled_as_its_downloaded_file(
    built: dict[str, dict[str, Any]], name: str, tmp_path: Path
) -> None:
    """The question file the page downloads is ruled by ``regelverk ask`` as the page ruled
    it: the same first words, or (a position that cannot occur) the same reason."""
    from regelverk.errors import RegelverkError

    kind = FORM_CASES[name][0]
    shown = built[name]
    assert "problem" not in shown and "error" not in built, (shown, built.get("error"))
    assert shown["state"] == "ruled", shown
    path = tmp_path / "question.json"
    path.write_text(shown["downloaded"], encoding="utf-8")
    if kind == "refused":
        with pytest.raises(RegelverkError) as refused:
            ask(load_question(path))
        assert (shown["verdict"], shown["error"]) == (None, str(refused.value))
        return
    answer = ask(load_question(path))
    assert bool(answer.get("partial")) == (kind == "partial"), answer
    assert (shown["verdict"], shown["error"]) == (first_words(answer), "")
    done = subprocess.run(
        [sys.executable, "-m", "regelverk", "ask", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert first_words(json.loads(done.stdout)) == shown["verdict"]


LABELS = """<!doctype html><meta charset="utf-8"><title>labels</title>
<body>
<script>
const files = %(files)s;
%(ready)s
whenReady(async (d, app, set) => {
  // every control of the form, for a question of each rulebook laid out in the builder
  const named = (control) => {
    const label = control.id && d.querySelector(`label[for="${control.id}"]`);
    const text = (label && label.textContent) || control.getAttribute("aria-label")
      || (control.tagName === "BUTTON" && control.textContent)
      || (control.closest("label") || {}).textContent;
    return (text || "").trim();
  };
  for (const [file, rulebook] of files) {
    set("referee-rulebook", rulebook);
    set("referee-example", file);
    while (app.dataset.loaded !== file) await new Promise((r) => setTimeout(r, 10));
    d.querySelector("button[type=submit]").click();
    const controls = [...d.querySelectorAll("#referee-app input, #referee-app select, "
      + "#referee-app textarea, #referee-app button, #referee-app summary")];
    const ids = [...d.querySelectorAll("[id]")].map((n) => n.id);
    const shown = (c) => c.outerHTML.slice(0, 120);
    const summary = (c) => c.tagName === "SUMMARY";
    found[file] = {
      controls: controls.length,
      unnamed: controls.filter((c) => !summary(c) && !named(c)).map(shown),
      summaries: controls.filter((c) => summary(c) && !c.textContent.trim()).length,
      untabbable: controls.filter((c) => c.tabIndex < 0 && !c.disabled).map(shown),
      twice: [...new Set(ids.filter((id, n) => ids.indexOf(id) !== n))],
    };
  }
  finish();
});
</script>
"""

LABELLED = (
    "uno/sequence-bluff-then-challenge.json",
    "vandatta/named-suit-binds.json",
    "vvv8-disputes/1-1-4-sixth-player-in-coffee-break.json",
    "viggo/pair-answered-by-a-run.json",
    "can/viggo-trick-forever.json",
)
"""Questions laid out to look at the form's controls: one of each rulebook and a 'can' one."""


def test_every_control_of_the_form_has_a_name_and_the_keyboard_reaches_it(site: Path) -> None:
    """For a question of each rulebook laid out in the builder and ruled: every field, menu,
    card button and button of the page has a name a screen reader says (its label, its
    aria-label or its words), none is kept from the keyboard, and no id is used twice (a
    label names the first control of its id only)."""
    catalogue = json.loads((site / "_referee" / "catalogue.json").read_text(encoding="utf-8"))
    books = {q["file"]: q["rulebook"] for q in catalogue["questions"]}
    files = [[file, books[file]] for file in LABELLED]
    driver = LABELS % {"files": json.dumps(files), "ready": READY}
    shown = run_in_browser(site, driver, timeout=300, doing="look at the form's controls")
    assert "error" not in shown, shown["error"]
    for file in LABELLED:
        page = shown[file]
        assert page["controls"] > 5, page
        assert (page["unnamed"], page["summaries"], page["untabbable"], page["twice"]) == (
            [],
            0,
            [],
            [],
        ), f"{file}: {page}"


OFFLINE = """<!doctype html><meta charset="utf-8"><title>offline</title>
<body>
<script>
const question = %(fragment)s;
const frame = document.createElement("iframe");
document.body.append(frame);
const found = {};
function finish() { fetch("/__found__", {method: "POST", body: JSON.stringify(found)}); }
function until(test, then, what) {
  const started = Date.now();
  const poll = setInterval(() => {
    let done = false;
    try { done = test(); } catch (problem) { done = false; }
    if (done) { clearInterval(poll); then(); }
    else if (Date.now() - started > 90000) { clearInterval(poll); found.error = what; finish(); }
  }, 100);
}
frame.onload = () => {
  const d = () => frame.contentDocument;
  until(
    () => d().getElementById("referee-app").dataset.state === "ready"
      && frame.contentWindow.navigator.serviceWorker.controller !== null,
    async () => {
      await fetch("/__offline__", {method: "POST", body: "{}"});
      frame.onload = () => until(
        () => ["ruled", "failed"].includes(d().getElementById("referee-app").dataset.state),
        () => {
          found.state = d().getElementById("referee-app").dataset.state;
          found.status = d().querySelector(".referee-status").textContent;
          found.verdict = (d().querySelector(".referee-verdict") || {}).textContent || null;
          found.refused = window.refusedWhileOffline;
          finish();
        },
        "no ruling offline",
      );
      frame.src = "/players/referee.html?offline=1" + question;
    },
    "the page was not ready under its service worker",
  );
};
frame.src = "/players/referee.html";
</script>
"""


def test_once_loaded_the_page_rules_without_a_network(site: Path) -> None:
    """The service worker keeps the page and its files: with the server gone (every request
    after the first visit closed unanswered), the page loads again and rules."""
    question = load_question(ROOT / QUESTIONS[0])
    driver = OFFLINE % {"fragment": json.dumps(fragment(question))}
    profile = Path(tempfile.mkdtemp(prefix="referee-profile-"))  # a service worker of its own
    try:
        received = run_in_browser(
            site,
            driver,
            flags=(f"--user-data-dir={profile}",),
            timeout=300,
            doing="rule offline",
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert not received.get("error"), received
    assert received["__refused__"] > 0, "nothing was asked of the server once it was gone"
    assert received["state"] == "ruled", received
    assert received["verdict"] == first_words(ask(question))


DARK = """<!doctype html><meta charset="utf-8"><title>dark</title>
<body>
<script>
localStorage.setItem("theme", "dark");  // Furo's choice of colours, kept for the site
const frame = document.createElement("iframe");
frame.style.width = "390px";
frame.style.height = "900px";
document.body.append(frame);
function rgb(text) {
  const m = text.match(/[\\d.]+/g).map(Number);
  return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1};
}
function luminance(c) {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
}
function background(w, node) {
  for (let n = node; n; n = n.parentElement) {
    const c = rgb(w.getComputedStyle(n).backgroundColor);
    if (c.a > 0.5) return c;
  }
  return {r: 255, g: 255, b: 255, a: 1};
}
frame.onload = () => {
  const started = Date.now();
  const poll = setInterval(() => {
    const d = frame.contentDocument;
    const app = d.getElementById("referee-app");
    if ((!app || app.dataset.state !== "ruled") && Date.now() - started < 60000) return;
    clearInterval(poll);
    const w = frame.contentWindow;
    const found = {theme: d.body.dataset.theme, contrast: {}};
    const picks = {
      verdict: ".referee-verdict", label: ".referee-field label", select: "#referee-rulebook",
      textarea: "#referee-question", ask: ".referee-buttons button[type=submit]",
      button: ".referee-buttons button[type=button]", help: ".referee-help",
      clause: ".referee-clauses a",
    };
    for (const [name, css] of Object.entries(picks)) {
      const node = d.querySelector(css);
      if (!node) { found.contrast[name] = null; continue; }
      const fore = luminance(rgb(w.getComputedStyle(node).color));
      const back = luminance(background(w, node));
      found.contrast[name] = (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05);
    }
    fetch("/__found__", {method: "POST", body: JSON.stringify(found)});
  }, 100);
};
frame.src = "/players/referee.html?dark=1" + %(fragment)s;
</script>
"""


def test_in_dark_mode_the_page_is_legible(site: Path) -> None:
    """With the site's dark colours, every kind of text on the page (the verdict, labels,
    menus, the question file, the buttons, the help and the clause links) stands out from
    what lies behind it by at least the 4.5:1 contrast that WCAG asks of body text."""
    question = load_question(ROOT / QUESTIONS[0])
    driver = DARK % {"fragment": json.dumps(fragment(question))}
    shown = run_in_browser(site, driver, timeout=180, doing="show the page in dark mode")
    assert shown["theme"] == "dark"
    low = {name: ratio for name, ratio in shown["contrast"].items() if not ratio or ratio < 4.5}
    assert not low, shown["contrast"]


def test_vvv8_penalty_cards_and_the_talon_are_built_apart_from_the_hand(site: Path) -> None:
    """vvv8's penalty cards (000 §3) lie in front of a player, apart from his hand, and the
    talon's top cards are a place of their own: the builder writes them where the question
    file has them, and the page rules the question."""
    steps = [
        ["set", "referee-rulebook", "vvv8"],
        ["set", "rb-players", "Anna, Bo, Cia"],
        ["set", "rb-into", "hand:Anna"],
        ["tap", "Add 9H"],
        ["tap", "Add 3C"],
        ["set", "rb-into", "hand:Bo"],
        ["tap", "Add 5D"],
        ["set", "rb-into", "hand:Cia"],
        ["tap", "Add KS"],
        ["set", "rb-into", "pile:pile"],
        ["tap", "Add 9C"],
        ["set", "rb-into", "pile:stock"],
        ["tap", "Add 2S"],
        ["set", "rb-into", "penalty:Anna"],
        ["tap", "Add 4D"],
        ["set", "rb-turn", "Anna"],
        ["set", "rb-action", "play"],
        ["set", "rb-into", "action"],
        ["tap", "Add 9H"],
        ["file"],
    ]
    driver = BUILDER % {"steps": json.dumps(steps), "ready": READY}
    shown = run_in_browser(site, driver, timeout=180, doing="build a vvv8 question")
    assert not shown.get("error"), shown
    question = {"rulebook": "vvv8", **json.loads(shown["file"])}
    assert question["position"]["penalties"] == {"Anna": ["4D"]}
    assert question["position"]["stock"] == ["2S"]
    assert question["position"]["hands"]["Anna"] == ["9H", "3C"]
    assert shown["verdict"] == first_words(ask(question))


def test_a_viggo_trick_is_built_play_by_play(site: Path) -> None:
    """Viggo's trick is the plays laid so far, each with its player: the builder adds them one
    by one (the next player laying each by default) and the page rules a reply to it."""
    steps = [
        ["set", "referee-rulebook", "viggo"],
        ["set", "rb-players", "P1, P2, P3"],
        ["set", "rb-into", "hand:P1"],
        ["tap", "Add 6C"],
        ["set", "rb-into", "hand:P2"],
        ["tap", "Add 7H"],
        ["tap", "Add 4S"],
        ["set", "rb-into", "hand:P3"],
        ["tap", "Add 9D"],
        ["press", "Add a play to the trick"],
        ["tap", "Add 5C"],
        ["set", "rb-turn", "P2"],
        ["set", "rb-action", "play"],
        ["set", "rb-into", "action"],
        ["tap", "Add 7H"],
        ["file"],
    ]
    driver = BUILDER % {"steps": json.dumps(steps), "ready": READY}
    shown = run_in_browser(site, driver, timeout=180, doing="build a Viggo question")
    assert not shown.get("error"), shown
    question = {"rulebook": "viggo", **json.loads(shown["file"])}
    assert question["position"]["trick"] == [{"player": "P1", "cards": ["5C"]}]
    assert question["action"] == {"action": "play", "cards": ["7H"]}
    assert shown["verdict"] == first_words(ask(question))


EVERY = """<!doctype html><meta charset="utf-8"><title>every example</title>
<body>
<script>
const files = %(files)s;
%(ready)s
whenReady(async (d, app, set) => {
  for (const [file, rulebook] of files) {
    set("referee-rulebook", rulebook);
    set("referee-example", file);  // the page fetches the file from the site and lays it out
    while (app.dataset.loaded !== file) await new Promise((r) => setTimeout(r, 10));
    d.querySelector("button[type=submit]").click();  // rules at once: the engine is loaded
    const verdict = d.querySelector(".referee-verdict");
    const printed = d.querySelector(".referee-ruling details pre");
    found[file] = {
      verdict: verdict ? verdict.textContent : null,
      answer: verdict ? verdict.dataset.answer || null : null,
      clauses: [...d.querySelectorAll(".referee-clauses a")].map((a) => a.textContent),
      printed: printed ? printed.textContent : null,
      error: d.getElementById("referee-error").textContent,
    };
  }
  finish();
});
</script>
"""


def test_the_page_answers_every_example_as_the_command_line_does(site: Path) -> None:
    """Every question file the site offers (``examples/``), chosen in the page's menu, laid
    out by the builder and asked: the same first words and deciding clauses as ``regelverk
    ask``, or the same reason where it refuses the position. A 'can it ever happen?' file
    gets the answer Z3 gave when the site was built: the same answer, forbidding clauses and
    printed text as ``regelverk ask`` gives now."""
    from regelverk.errors import RegelverkError

    catalogue = json.loads((site / "_referee" / "catalogue.json").read_text(encoding="utf-8"))
    files = [[q["file"], q["rulebook"]] for q in catalogue["questions"]]
    on_disk = {
        p.relative_to(ROOT / "examples").as_posix() for p in (ROOT / "examples").rglob("*.json")
    }
    assert {f for f, _ in files} == on_disk
    driver = EVERY % {"files": json.dumps(files), "ready": READY}
    shown = run_in_browser(site, driver, timeout=900, doing="ask every example")
    assert "error" not in shown, shown["error"]
    wrong = []
    for file, _ in files:
        page = shown[file]
        question = load_question(ROOT / "examples" / file)
        if "can" in question:
            answer = asked_afresh(ROOT / "examples" / file)
            expected = (answer["answer"], answer["forbidding"], printed_by_ask(answer))
            if (page["answer"], page["clauses"], page["printed"]) != expected:
                wrong.append(f"{file}: the page {page}, the CLI {expected}")
            continue
        try:
            answer = ask(question)
        except RegelverkError as error:
            if page["error"] != str(error):
                wrong.append(f"{file}: the page says {page['error']!r}, the CLI {error}")
            continue
        steps = answer.get("steps", [answer])
        clauses = list(dict.fromkeys(c for step in steps for c in step.get("clauses", [])))
        if (page["verdict"], page["clauses"]) != (first_words(answer), clauses):
            wrong.append(f"{file}: the page {page}, the CLI {first_words(answer)} {clauses}")
    assert not wrong, f"{len(wrong)} of {len(files)}:\n" + "\n".join(wrong[:10])
