// Clause search: on the search page, list the clauses and ambiguities matching the query above
// Sphinx's own results. A typed id comes first; then ids containing the query; then clauses
// whose id or words hold every word of the query, most matches first.
// The table of clauses (window.rulebookClauses) is written at build time to _static/clauses.js.
"use strict";

(function () {
  const LIMIT = 12;

  function words(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  }

  function score(entry, query, terms) {
    const id = entry.id.toLowerCase();
    const plainId = id.replace(/-/g, " ");
    const q = query.toLowerCase().trim();
    if (id === q || plainId === q.replace(/[-_\s]+/g, " ")) return 1000;
    if (q.length >= 3 && id.includes(q)) return 500 - id.length;
    const idWords = words(entry.id);
    const textWords = words(entry.text);
    let total = 0;
    for (const term of terms) {
      const inId = idWords.some((w) => w.startsWith(term));
      const inText = textWords.some((w) => w.startsWith(term));
      if (!inId && !inText) return 0;
      total += (inId ? 3 : 0) + (inText ? 2 : 0);
    }
    return total;
  }

  function find(query) {
    const terms = words(query);
    if (terms.length === 0) return [];
    return (window.rulebookClauses || [])
      .map((entry) => ({ entry, points: score(entry, query, terms) }))
      .filter((hit) => hit.points > 0)
      .sort((a, b) => b.points - a.points || a.entry.id.localeCompare(b.entry.id))
      .map((hit) => hit.entry);
  }

  function item(entry) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = entry.url;
    link.className = "clause-id";
    link.textContent = entry.id;
    const where = document.createElement("span");
    where.className = "clause-where";
    where.textContent = ` ${entry.book} · ${entry.where} · ${entry.kind}`;
    const text = document.createElement("div");
    text.textContent = entry.text;
    li.append(link, where, text);
    return li;
  }

  function show() {
    const query = new URLSearchParams(window.location.search).get("q") || "";
    const hits = find(query);
    const anchor = document.getElementById("search-results");
    if (!anchor || hits.length === 0) return;
    const box = document.createElement("section");
    box.id = "clause-results";
    const title = document.createElement("h2");
    title.textContent = hits.length === 1 ? "1 clause" : `${hits.length} clauses`;
    const list = document.createElement("ul");
    hits.slice(0, LIMIT).forEach((entry) => list.append(item(entry)));
    box.append(title, list);
    if (hits.length > LIMIT) {
      const more = document.createElement("button");
      more.type = "button";
      more.textContent = `Show all ${hits.length}`;
      more.addEventListener("click", () => {
        hits.slice(LIMIT).forEach((entry) => list.append(item(entry)));
        more.remove();
      });
      box.append(more);
    }
    anchor.parentNode.insertBefore(box, anchor);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", show);
  } else {
    show();
  }
})();
