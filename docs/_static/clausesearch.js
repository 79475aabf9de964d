// Clause search: on the search page, list the clauses and ambiguities found for the query above
// Sphinx's own page results. The finding is Pagefind's (its index of one record per clause is
// written into pagefind/ at build time by docs/_ext/clausesearch.py): it stems the words and
// ranks the records. This script only reads the query first: a typed clause id is searched as
// it is and its clause put first; a rulebook's name ("viggo deal") keeps the search to that
// rulebook, as the rulebook menu does; and the little words of a question ("how", "are", "in")
// are left out, since Pagefind finds only the records that hold every word searched.
// window.clauseSearchWords (the rulebooks' names, prefixes and words, the little words, the
// cards written with "+") comes from _static/clausesearch-words.js, written with the index.
"use strict";

(function () {
  const LIMIT = 12;
  const settings = window.clauseSearchWords || { rulebooks: {}, books: {}, stop: [], prefixes: [] };
  // The page's words in the edition's language (clausesearch.py, UI).
  const ui = settings.ui || {};
  const say = (key, n) => (ui[key] || key).replace("{n}", String(n));
  // A clause id, or its start: a rulebook's prefix, then words joined by "-" (UNO-WD4).
  const ID = new RegExp(`^(${settings.prefixes.join("|")})(-[a-z0-9+]+)+$`, "i");
  const root = new URL(document.documentElement.dataset.content_root || "./", window.location.href);

  function fold(word) {
    return word.normalize("NFD").replace(/\p{M}/gu, "").replace(/[øØ]/g, "o").toLowerCase();
  }

  const stop = new Set(settings.stop.map(fold));
  const typed = new Map(Object.entries(settings.typed || {}));
  // A rulebook's name as written ("vandatta", the common rules' id) before its folded form
  // ("vändåtta", the game of both Vändåtta texts, typed without accents).
  const bookWords = new Map(Object.entries(settings.rulebooks).map(([w, b]) => [fold(w), b]));
  for (const [word, books] of Object.entries(settings.rulebooks)) {
    bookWords.set(word.toLowerCase(), books);
  }

  // The query as the index is asked it: the words to search (a card written "+4" asked as
  // "wild draw four"), the rulebooks named, and the words that named them (searched as words
  // if no clause of those rulebooks holds the rest).
  function read(query) {
    const text = query.trim();
    if (ID.test(text)) return { terms: text, books: [], named: [], id: text.toUpperCase() };
    const books = new Set();
    const kept = [];
    const named = [];
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const bare = word.replace(/^[¿¡"'(]+|[?!.,;:"')]+$/gu, "").toLowerCase();
      const key = fold(bare);
      const book = bookWords.get(bare) || bookWords.get(key);
      if (typed.has(bare)) {
        kept.push(typed.get(bare).words);
        typed.get(bare).rulebooks.forEach((id) => books.add(id));
      } else if (book) {
        book.forEach((id) => books.add(id));
        named.push(word);
      } else if (!stop.has(key) && key.length > 0) {
        kept.push(word.replace(/-+/g, " ")); // "draw-two" is two words, as the index holds it
      }
    }
    if (kept.length === 0 && named.length === 0) kept.push(text);
    return { terms: kept.join(" "), books: [...books], named, id: null };
  }

  function filtersFor(books, chosen) {
    let keep = books;
    if (chosen) keep = books.includes(chosen) || books.length === 0 ? [chosen] : [];
    return keep.length ? { rulebook: { any: keep } } : {};
  }

  async function find(pagefind, query, chosen) {
    const asked = read(query);
    let books = asked.books;
    let found = await pagefind.search(asked.terms || null, { filters: filtersFor(books, chosen) });
    if (found.results.length === 0 && asked.named.length > 0) {
      // "viggo" is also a person in the vvv8 text: search the name as a word.
      const terms = [asked.terms, ...asked.named].filter(Boolean).join(" ");
      books = [];
      found = await pagefind.search(terms, { filters: filtersFor(books, chosen) });
    }
    const results = found.results.slice();
    results.books = chosen ? [] : books;
    if (asked.id) {
      const first = await Promise.all(results.slice(0, LIMIT).map((r) => r.data()));
      const at = first.findIndex((d) => d.meta.title === asked.id);
      if (at > 0) results.unshift(results.splice(at, 1)[0]);
    }
    return results;
  }

  function item(data) {
    const meta = data.meta;
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = new URL(meta.url, root).href;
    link.className = "clause-id";
    link.textContent = meta.title;
    const where = document.createElement("span");
    where.className = "clause-where";
    where.textContent = ` ${meta.book} · ${meta.where} · ${meta.kind}`;
    const text = document.createElement("div");
    text.textContent = meta.text;
    li.append(link, where, text);
    return li;
  }

  async function append(list, results) {
    const data = await Promise.all(results.map((r) => r.data()));
    data.forEach((d) => list.append(item(d)));
  }

  function chooser(chosen, onChange) {
    const label = document.createElement("label");
    label.className = "clause-rulebook";
    label.append(say("rulebook") + " ");
    const select = document.createElement("select");
    select.name = "rulebook";
    const all = new Option(say("all"), "");
    select.append(all);
    for (const [id, name] of Object.entries(settings.books || {})) {
      select.append(new Option(name, id, false, id === chosen));
    }
    select.addEventListener("change", () => onChange(select.value));
    label.append(select);
    return label;
  }

  async function show() {
    // The other edition's search page asks the same question.
    for (const link of document.querySelectorAll("nav.edition-switch a")) {
      link.search = window.location.search;
    }
    const params = new URLSearchParams(window.location.search);
    const query = params.get("q") || "";
    const anchor = document.getElementById("search-results");
    if (!anchor || !query.trim()) return;
    const box = document.createElement("section");
    box.id = "clause-results";
    const title = document.createElement("h2");
    const list = document.createElement("ul");
    let chosen = params.get("rulebook") || "";
    let pagefind;
    try {
      pagefind = await import(new URL(settings.index || "pagefind/", root).href + "pagefind.js");
      // A record's words count once more than they count again: a long entry of the register
      // that repeats "draw" and "card" should not outrank the short rule a question is about.
      await pagefind.options({ ranking: { termFrequency: 0.3 } });
    } catch (error) {
      title.textContent = say("clauses");
      const why = document.createElement("p");
      why.textContent = say("unloaded");
      box.append(title, why);
      anchor.parentNode.insertBefore(box, anchor);
      return;
    }
    async function run() {
      list.replaceChildren();
      box.querySelector("button.clause-more")?.remove();
      const results = await find(pagefind, query, chosen);
      const names = results.books.map((id) => (settings.books || {})[id] || id);
      title.textContent =
        say(results.length === 1 ? "one" : "many", results.length) +
        (names.length ? ` ${say("in")} ${names.join(` ${say("and")} `)}` : "");
      box.querySelector("p.clause-none")?.remove();
      if (results.length === 0) {
        const none = document.createElement("p");
        none.className = "clause-none";
        none.textContent = say("none");
        list.before(none);
      }
      await append(list, results.slice(0, LIMIT));
      if (results.length > LIMIT) {
        const more = document.createElement("button");
        more.type = "button";
        more.className = "clause-more";
        more.textContent = say("more", results.length);
        more.addEventListener("click", async () => {
          more.remove();
          await append(list, results.slice(LIMIT));
        });
        box.append(more);
      }
      box.dataset.done = "true";
    }
    const pick = chooser(chosen, (value) => {
      chosen = value;
      const url = new URL(window.location.href);
      if (value) url.searchParams.set("rulebook", value);
      else url.searchParams.delete("rulebook");
      window.history.replaceState(null, "", url);
      box.dataset.done = "false";
      run();
    });
    box.append(title, pick, list);
    anchor.parentNode.insertBefore(box, anchor);
    await run();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", show);
  } else {
    show();
  }
})();
