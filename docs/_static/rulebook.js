// On a phone, Furo keeps the search box in the navigation drawer; a search button in the
// header opens the drawer with the cursor in the search box, so a rule is one tap away.
"use strict";

(function () {
  function addSearchButton() {
    const header = document.querySelector(".mobile-header .header-right");
    const toggle = document.getElementById("__navigation");
    const box = document.querySelector(".sidebar-drawer input[name='q']");
    if (!header || !toggle || !box) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rulebook-search-button";
    button.title = "Search the rulebook";
    button.setAttribute("aria-label", "Search the rulebook");
    button.innerHTML =
      '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" ' +
      'stroke="currentColor" stroke-width="2" stroke-linecap="round">' +
      '<circle cx="10.5" cy="10.5" r="6.5"/><line x1="15.5" y1="15.5" x2="21" y2="21"/></svg>';
    button.addEventListener("click", () => {
      toggle.checked = true;
      box.focus();
    });
    header.prepend(button);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", addSearchButton);
  } else {
    addSearchButton();
  }
})();
