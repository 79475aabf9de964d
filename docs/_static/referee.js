// The referee in the browser: the real engine (the project's wheel) in Pyodide, both served
// from this site (_referee/, written by docs/_ext/referee_page.py). A question is a question
// file, as `regelverk ask` reads it: started from an example, opened from a file, or written
// by hand; the readings in force are chosen from the register. The ruling shows the verdict in
// the words of `regelverk ask`, the deciding clauses linked to their rules, the readings that
// change it, and what the command line prints. The question travels in the page's address
// (after "#q=", deflated and base64url-encoded), so a ruling can be sent to the table.
"use strict";

import { buildQuestion, element } from "./referee-builder.js";

const app = document.getElementById("referee-app");
const root = new URL(document.documentElement.dataset.content_root || "./", window.location.href);
const base = new URL("_referee/", root);

const WORDS = {
  en: {
    loading: "The referee is starting (Pyodide and the engine, once)…",
    steps: ["Loading Python (Pyodide)…", "Loading the engine…", "Unpacking the engine…", "Ready."],
    failed: "The referee could not start: ",
    rulebook: "Rulebook",
    example: "Start from a question",
    none: "(your own)",
    open: "Open a question file",
    download: "Download the question file",
    share: "Copy the link to this question",
    copied: "The link is in the clipboard (and in the address bar).",
    readings: "Readings in force",
    readingsNote: "Where the rules can be read more than one way; the model's default is chosen.",
    byDefault: "(the default)",
    builder: "The position and the action",
    question: "The question as a question file",
    questionHelp: "As regelverk ask reads it (the asking pages describe every field); an edit here is taken when you leave the field.",
    ask: "Ask the referee",
    decidedBy: "Decided by",
    otherReadings: "Where the rules are unclear, another reading rules otherwise:",
    cli: "What regelverk ask prints",
    badJson: "This is not a question file: ",
    needsZ3: "Whether something can ever happen is a question for Z3, which this page does not carry. Z3 answered the questions of this kind among the examples when the site was built; this one is not among them: ask it with regelverk ask.",
    canAsked: "Can it happen that {question}? (scenario {scenario}, where:)",
    canYes: "Yes: it can happen.",
    canNo: "No: it can never happen.",
    canUnknown: "Unknown: Z3 gave no answer.",
    answeredAtBuild: "Answered by Z3 {z3} with regelverk {regelverk} when this site was built (the page carries no Z3).",
    forInstance: "For instance:",
    forbiddenBy: "Forbidden together by",
    took: "ruled in {ms} ms",
  },
  sv: {
    loading: "Domaren startar (Pyodide och motorn, en gång)…",
    steps: ["Python (Pyodide) läses in…", "Motorn läses in…", "Motorn packas upp…", "Klar."],
    failed: "Domaren kunde inte starta: ",
    rulebook: "Regelbok",
    example: "Börja från en fråga",
    none: "(din egen)",
    open: "Öppna en frågefil",
    download: "Ladda ned frågefilen",
    share: "Kopiera länken till frågan",
    copied: "Länken ligger i urklipp (och i adressfältet).",
    readings: "Läsningar som gäller",
    readingsNote: "Där reglerna kan läsas på mer än ett sätt; modellens standard är vald.",
    byDefault: "(standard)",
    builder: "Ställningen och handlingen",
    question: "Frågan som frågefil",
    questionHelp: "Som regelverk ask läser den (sidorna om att fråga domaren beskriver varje fält); en ändring här gäller när du lämnar fältet.",
    ask: "Fråga domaren",
    decidedBy: "Avgörs av",
    otherReadings: "Där reglerna är oklara ger en annan läsning ett annat utslag:",
    cli: "Vad regelverk ask skriver ut",
    badJson: "Det här är ingen frågefil: ",
    needsZ3: "Om något någonsin kan hända är en fråga för Z3, som den här sidan inte har med sig. Z3 besvarade exemplens frågor av det slaget när webbplatsen byggdes; den här är inte bland dem: ställ den med regelverk ask.",
    canAsked: "Kan det hända att {question}? (scenario {scenario}, där:)",
    canYes: "Ja: det kan hända.",
    canNo: "Nej: det kan aldrig hända.",
    canUnknown: "Okänt: Z3 gav inget svar.",
    answeredAtBuild: "Besvarad av Z3 {z3} med regelverk {regelverk} när webbplatsen byggdes (sidan har inte Z3 med sig).",
    forInstance: "Till exempel:",
    forbiddenBy: "Förbjuds tillsammans av",
    took: "utslag på {ms} ms",
  },
};
const say = WORDS[app.dataset.language] || WORDS.en;


// --- the question in the address: deflate-raw, then base64url -----------------------------

async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function unpack(code) {
  const binary = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

// --- the engine -----------------------------------------------------------------------------

// "Can it ever happen?" questions are Z3's, which the page does not carry: the build asked Z3
// those of examples/ (docs/_ext/referee_page.py, answered_by_z3) and the page's one extension
// gives its answers, under the same key of the question; any other such question is refused.
const GLUE = `
import contextlib, io, json
from pathlib import Path
from regelverk import extensions
from regelverk.cli import _print_any_answer
from regelverk.errors import RegelverkError
from regelverk.referee import ask, load_question
from regelverk.verdicts import first_words

class NotAnsweredAtBuild(extensions.ExtensionMissingError):
    """A 'can it ever happen?' question Z3 was not asked when the site was built."""

def can_key(rulebook, condition, scenario):
    # as referee_page.can_key: the rulebook, the condition (spaces aside) and the scenario
    return json.dumps([rulebook, " ".join(condition.split()), scenario])

class AnsweredAtBuild:
    """The proofs as the page has them: Z3's answers, given when the site was built, to the
    'can it ever happen?' questions of examples/, and the facts their scenarios name."""

    def __init__(self, recorded):
        self.answers = recorded["answers"]
        self.known = recorded["facts"]

    def add_commands(self, add):
        """The page has no command line: no command to add."""

    def can(self, question):
        key = can_key(question["rulebook"], question["can"], question.get("scenario"))
        if key not in self.answers:
            raise NotAnsweredAtBuild(
                f"Z3 was not asked {question['can']!r} when this site was built; "
                "ask it with regelverk ask"
            )
        return self.answers[key]

    def facts(self, rulebook):
        return self.known.get(rulebook, [])

def answered_at_build(text):
    # the page's only extension, in place of the wheel's entry point (the proofs need Z3)
    answered = AnsweredAtBuild(json.loads(text))
    extensions.installed = lambda: (answered,)

def rule(text):
    path = Path("/tmp/question.json")
    path.write_text(text, encoding="utf-8")
    try:
        answer = ask(load_question(path))
    except NotAnsweredAtBuild as error:
        return json.dumps({"error": str(error), "needsZ3": True})
    except RegelverkError as error:
        return json.dumps({"error": str(error)})
    printed = io.StringIO()  # what regelverk ask prints, by its own formatter
    with contextlib.redirect_stdout(printed):
        _print_any_answer(answer, False)
    first = first_words(answer) if "verdict" in answer else ""
    return json.dumps(
        {"answer": answer, "first": first, "printed": printed.getvalue()},
        default=str, ensure_ascii=False,
    )
`;

async function startEngine(catalogue, progress, status) {
  const step = (n) => {
    progress.value = n + 1;
    status.textContent = say.steps[n];
  };
  step(0);
  const runtime = new URL(catalogue.pyodide, base);
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const pyodide = await loadPyodide({ indexURL: runtime.href });
  step(1);
  const wheel = await fetch(new URL(catalogue.wheel, base));
  if (!wheel.ok) throw new Error(`${catalogue.wheel}: ${wheel.status}`);
  const bytes = new Uint8Array(await wheel.arrayBuffer());
  step(2);
  const version = pyodide.runPython("import sys; f'{sys.version_info[0]}.{sys.version_info[1]}'");
  pyodide.unpackArchive(bytes, "wheel", { extractDir: `/lib/python${version}/site-packages` });
  pyodide.runPython(GLUE);
  pyodide.globals.get("answered_at_build")(JSON.stringify(catalogue.z3));
  step(3);
  return pyodide.globals.get("rule");
}

// --- the form -------------------------------------------------------------------------------

function readingsBox(book, chosen) {
  const box = element("details", { class: "referee-readings" });
  box.append(element("summary", { text: `${say.readings} (${book.options.length})` }));
  box.append(element("p", { text: say.readingsNote }));
  for (const option of book.options) {
    const id = `referee-option-${option.option}`;
    const select = element("select", { id, "data-option": option.option });
    for (const reading of option.readings) {
      const label = reading === option.default ? `${reading} ${say.byDefault}` : reading;
      select.append(new Option(label, reading, false, chosen[option.option] === reading));
    }
    const label = element("label", { for: id, text: option.title });
    const help = element("span", { class: "referee-help", text: option.question });
    box.append(element("div", { class: "referee-field" }, label, help, select));
  }
  return box;
}

function clauseLink(catalogue, ident) {
  const url = catalogue.clauses[ident];
  return url ? element("a", { href: new URL(url, root).href, text: ident }) : element("code", { text: ident });
}

function differing(readings) {
  const byDefault = Object.fromEntries(readings.filter((r) => r.default).map((r) => [r.ambiguity, r]));
  return readings.filter((r) => {
    const base = byDefault[r.ambiguity];
    return !r.default && base && (r.allowed !== base.allowed || r.summary !== base.summary);
  });
}

function rulingView(catalogue, result) {
  const box = element("div", { class: "referee-ruling", "aria-live": "polite" });
  const answer = result.answer;
  const first = result.first || answer.message || "";
  box.append(element("p", {}, element("strong", { class: "referee-verdict", text: first })));
  if (answer.message) box.append(element("p", { class: "referee-message", text: answer.message }));
  const steps = answer.steps || [answer];
  const clauses = [...new Set(steps.flatMap((s) => s.clauses || []))];
  if (clauses.length) {
    const line = element("p", { class: "referee-clauses" }, `${say.decidedBy}: `);
    clauses.forEach((ident, n) => line.append(...(n ? [", "] : []), clauseLink(catalogue, ident)));
    box.append(line);
  }
  const other = differing(answer.readings || []);
  if (other.length) {
    box.append(element("p", { text: say.otherReadings }));
    const list = element("ul");
    for (const r of other) {
      list.append(element("li", {}, element("code", { text: `${r.option} = ${r.reading}` }), ": ", r.summary));
    }
    box.append(list);
  }
  const printed = element("details", {}, element("summary", { text: say.cli }), element("pre", { text: result.printed }));
  box.append(printed);
  return box;
}

// A "can it ever happen?" answer: yes with an instance, or no with the clauses that forbid it,
// as Z3 gave it when the site was built.
function canView(catalogue, result) {
  const answer = result.answer;
  const box = element("div", { class: "referee-ruling", "aria-live": "polite" });
  const asked = say.canAsked.replace("{question}", answer.question).replace("{scenario}", answer.scenario);
  box.append(element("p", { class: "referee-message" }, asked));
  const facts = element("ul", { class: "referee-facts" });
  for (const [name, meaning] of Object.entries(answer.facts)) {
    facts.append(element("li", {}, element("code", { text: name }), `: ${meaning}`));
  }
  box.append(facts);
  const verdict = { yes: say.canYes, no: say.canNo }[answer.answer] || say.canUnknown;
  box.append(element("p", {}, element("strong", { class: "referee-verdict", "data-answer": answer.answer, text: verdict })));
  const recorded = say.answeredAtBuild.replace("{z3}", catalogue.z3.z3).replace("{regelverk}", catalogue.z3.regelverk);
  box.append(element("p", { class: "referee-help", text: recorded }));
  if (answer.possible === true) {
    box.append(element("p", { text: say.forInstance }), element("pre", { class: "referee-witness", text: answer.witness }));
  }
  if (answer.forbidding.length) {
    const line = element("p", { class: "referee-clauses" }, `${say.forbiddenBy}: `);
    answer.forbidding.forEach((ident, n) => line.append(...(n ? [", "] : []), clauseLink(catalogue, ident)));
    box.append(line);
  }
  box.append(element("details", {}, element("summary", { text: say.cli }), element("pre", { text: result.printed })));
  return box;
}

async function main() {
  const status = app.querySelector(".referee-status");
  const progress = app.querySelector(".referee-progress");
  if ("serviceWorker" in navigator && window.location.protocol !== "file:") {
    navigator.serviceWorker.register(new URL("referee-sw.js", root)).catch(() => {});
  }
  const catalogue = await (await fetch(new URL("catalogue.json", base))).json();
  const books = Object.fromEntries(catalogue.rulebooks.map((b) => [b.id, b]));

  const form = element("form", { class: "referee-form" });
  const bookSelect = element("select", { id: "referee-rulebook" });
  for (const book of catalogue.rulebooks) bookSelect.append(new Option(`${book.name} (${book.id})`, book.id));
  const exampleSelect = element("select", { id: "referee-example" });
  const opener = element("input", { id: "referee-open", type: "file", accept: ".json,application/json" });
  const editor = element("textarea", {
    id: "referee-question", rows: "14", spellcheck: "false", "aria-describedby": "referee-question-help referee-error",
  });
  const error = element("p", { id: "referee-error", class: "referee-error", role: "alert" });
  const askButton = element("button", { type: "submit", disabled: "", text: say.ask });
  const downloadButton = element("button", { type: "button", text: say.download });
  const shareButton = element("button", { type: "button", text: say.share });
  const shared = element("p", { class: "referee-shared", role: "status" });
  let readings = element("div");
  const builder = element("fieldset", { class: "referee-builder" });
  const output = element("div", { id: "referee-output" });
  form.append(
    element("div", { class: "referee-field" }, element("label", { for: "referee-rulebook", text: say.rulebook }), bookSelect),
    element("div", { class: "referee-field" }, element("label", { for: "referee-example", text: say.example }), exampleSelect),
    element("div", { class: "referee-field" }, element("label", { for: "referee-open", text: say.open }), opener),
    readings,
    builder,
    error,
    element("details", { class: "referee-file" },
      element("summary", { text: say.question }),
      element("div", { class: "referee-field" },
        element("label", { for: "referee-question", class: "referee-help", id: "referee-question-help", text: say.questionHelp }),
        editor)),
    element("div", { class: "referee-buttons" }, askButton, downloadButton, shareButton),
    shared,
  );
  // The question being built: the question file without its rulebook and options, which the
  // menus above give. The builder edits it; the editor shows it as a file.
  let current = {};
  function showFile() {
    editor.value = JSON.stringify(current, null, 2);
  }
  function showBuilder() {
    builder.replaceChildren(element("legend", { text: say.builder }));
    const fields = element("div", { class: "referee-fields" });
    builder.append(fields);
    buildQuestion(fields, bookSelect.value, current, app.dataset.language, showFile);
    readings.hidden = current.can !== undefined;  // a "can" question's scenario fixes its readings
  }
  editor.addEventListener("change", () => {
    try {
      current = JSON.parse(editor.value || "{}");
      error.textContent = "";
      showBuilder();
    } catch (problem) {
      error.textContent = say.badJson + problem.message;
    }
  });
  app.append(form, output);

  // The file's options that are no reading of the register (the deck, a target score, vvv8's
  // free time): kept as the file gives them, beside the readings chosen in the menu.
  let otherOptions = {};

  function chosenOptions() {
    const chosen = { ...otherOptions };
    if (current.can !== undefined) return chosen;  // the menu is hidden: nothing chosen in it
    const book = books[bookSelect.value];
    for (const select of readings.querySelectorAll("select[data-option]")) {
      const option = book.options.find((o) => o.option === select.dataset.option);
      if (option && select.value !== option.default) chosen[select.dataset.option] = select.value;
    }
    return chosen;
  }

  function showBook(id, options = {}) {
    bookSelect.value = id;
    exampleSelect.replaceChildren(new Option(say.none, ""));
    for (const q of catalogue.questions.filter((q) => q.rulebook === id)) {
      exampleSelect.append(new Option(q.about, q.file));
    }
    const fresh = readingsBox(books[id], options);
    readings.replaceWith(fresh);
    readings = fresh;
  }

  // The question as it stands, with the rulebook and the readings chosen.
  function question() {
    const data = JSON.parse(JSON.stringify(current));
    data.rulebook = bookSelect.value;
    const options = chosenOptions();
    if (Object.keys(options).length) data.options = options;
    else delete data.options;
    return data;
  }

  function load(data) {
    const id = books[data.rulebook] ? data.rulebook : catalogue.rulebooks[0].id;
    showBook(id, data.options || {});
    const menu = new Set(books[id].options.map((o) => o.option));
    otherOptions = Object.fromEntries(
      Object.entries(data.options || {}).filter(([key]) => !menu.has(key)),
    );
    current = { ...data };
    delete current.rulebook;
    delete current.options;
    error.textContent = "";
    showBuilder();
  }

  bookSelect.addEventListener("change", () => {
    showBook(bookSelect.value);
    otherOptions = {};
    current = {};  // another game's position is not this one's
    showBuilder();
  });
  exampleSelect.addEventListener("change", async () => {
    if (!exampleSelect.value) return;
    const data = await (await fetch(new URL(`examples/${exampleSelect.value}`, base))).json();
    const keep = exampleSelect.value;
    load(data);
    exampleSelect.value = keep;
    app.dataset.loaded = keep;
  });
  opener.addEventListener("change", async () => {
    const file = opener.files[0];
    if (!file) return;
    try {
      load(JSON.parse(await file.text()));
    } catch (problem) {
      error.textContent = say.badJson + problem.message;
    }
  });
  downloadButton.addEventListener("click", () => {
    try {
      const text = JSON.stringify(question(), null, 2) + "\n";
      const link = element("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: "question.json" });
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
  shareButton.addEventListener("click", async () => {
    try {
      const url = new URL(window.location.href);
      url.hash = `q=${await pack(JSON.stringify(question()))}`;
      window.history.replaceState(null, "", url);
      await navigator.clipboard?.writeText(url.href).catch(() => {});
      shared.textContent = say.copied;
    } catch (problem) {
      error.textContent = problem.message;
    }
  });

  const fromAddress = window.location.hash.match(/^#q=([A-Za-z0-9_-]+)$/);
  if (fromAddress) {
    try {
      load(JSON.parse(await unpack(fromAddress[1])));
    } catch (problem) {
      showBook(catalogue.rulebooks[0].id);
      showBuilder();
      error.textContent = say.badJson + problem.message;
    }
  } else {
    showBook(catalogue.rulebooks[0].id);
    showBuilder();
  }

  let rule;
  try {
    rule = await startEngine(catalogue, progress, status);
  } catch (problem) {
    status.textContent = say.failed + problem.message;
    app.dataset.state = "failed";
    return;
  }
  askButton.removeAttribute("disabled");
  app.dataset.state = "ready";

  // The referee names the field at fault ("position: 'turn' must name a player ..."): its
  // reason is shown beside that field of the builder too, and the field marked invalid.
  function atFault(message) {
    const named = message.match(/^(position|action)s?\b[^']*'([a-z_]+)'/);
    const place = named && builder.querySelector(`[data-field="${named[1]}.${named[2]}"]`);
    if (!place) return;
    place.append(element("p", { class: "referee-error referee-field-error", role: "alert", text: message }));
    place.querySelector("select, input")?.setAttribute("aria-invalid", "true");
  }

  async function run() {
    error.textContent = "";
    for (const old of builder.querySelectorAll(".referee-field-error")) old.remove();
    for (const old of builder.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
    output.replaceChildren();
    app.dataset.state = "asking";
    let text;
    try {
      text = JSON.stringify(question());
    } catch (problem) {
      error.textContent = problem.message;
      app.dataset.state = "ruled";
      return;
    }
    const started = performance.now();
    const result = JSON.parse(rule(text));
    const took = Math.round(performance.now() - started);
    if (result.needsZ3) {
      error.textContent = say.needsZ3;
    } else if (result.error) {
      error.textContent = result.error;
      atFault(result.error);
    } else {
      output.append(("possible" in result.answer ? canView : rulingView)(catalogue, result));
      output.append(element("p", { class: "referee-took", text: say.took.replace("{ms}", took) }));
    }
    app.dataset.state = "ruled";
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  if (fromAddress) await run();
}

main().catch((problem) => {
  const status = app.querySelector(".referee-status");
  status.textContent = (WORDS[app.dataset.language] || WORDS.en).failed + problem.message;
  app.dataset.state = "failed";
});
