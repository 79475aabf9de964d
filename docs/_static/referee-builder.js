// The question builder of the referee page: the position and the action as fields and card
// pickers, for people who never saw a question file. It edits a question object (the file's
// "position" and "action"; every other field is kept as it is) and calls back on each change;
// the page shows the same question as a question file beside it. Field names and values are
// those of the asking pages (docs/ask/*.rst); a card is written in the game's notation.
"use strict";

const UNO_CARDS = [
  ...["R", "Y", "G", "B"].flatMap((c) => ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"].map((v) => c + v)),
  "W", "W+4", "WSH", "WX", "?",
];
const FRENCH_CARDS = [
  ...["C", "D", "H", "S"].flatMap((s) => ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].map((r) => r + s)),
  "?",
];
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const COLOURS = ["red", "yellow", "green", "blue"];

// Each engine family: where the face-up cards lie, its cards, the position's simple fields and
// the actions with the fields each takes.
const FAMILIES = {
  uno: {
    pile: "discard",
    cards: UNO_CARDS,
    fields: [
      { key: "colour", values: COLOURS },
      { key: "direction", values: ["left", "right"] },
      { key: "phase", values: ["play", "drawn", "name-colour", "challenge", "stack", "game-over"] },
      { key: "exposed", values: (position) => position.players },
    ],
    actions: {
      play: ["card", "colour", "uno"],
      draw: [],
      pass: [],
      challenge: [],
      "name-colour": ["colour"],
      "call-uno": [],
      catch: ["target"],
    },
  },
  vandatta: {
    pile: "pile",
    more: ["stock"],
    cards: FRENCH_CARDS,
    fields: [
      { key: "named_suit", values: Object.keys(SUITS) },
      { key: "restart", values: ["none", "ace", "eight"] },
      { key: "calls", many: (position) => position.players },
    ],
    actions: { play: ["cards", "suit", "call"], draw: [], pass: [], "name-suit": ["suit"] },
  },
  viggo: {
    pile: null,
    trick: true,
    cards: FRENCH_CARDS,
    fields: [{ key: "phase", values: ["play", "draft", "over"] }],
    actions: { play: ["cards"], pass: [], keep: ["card"] },
  },
};
const FAMILY_OF = { uno: "uno", vvv8: "vandatta", vandatta: "vandatta", viggo: "viggo" };

const WORDS = {
  en: {
    players: "Players, in seat order (names, separated by commas)",
    hand: "{name}'s hand",
    pile: {
      discard: "The discard pile (its top card last)", pile: "The pile (its top card last)",
      stock: "The talon's top cards (the first on top; the rest are shuffled)",
    },
    penalty: "{name}'s penalty cards (face down, locked until his turn as spelförare is used up)",
    trickPlay: "The trick, play {n}",
    trickBy: "Laid by",
    addPlay: "Add a play to the trick",
    removePlay: "Take back the trick's last play",
    turn: "Whose turn it is",
    unset: "(not given)",
    action: "The action attempted",
    by: "By",
    actionCards: "The cards of the action",
    target: "Who is caught",
    call: "With a call (utgång, LAPPEN)",
    uno: "Calls UNO with it",
    colour: "The colour named",
    suit: "The suit named",
    into: "Tap cards to add them to",
    remove: "Remove {card} from {where}",
    from: {
      hand: "{name}'s hand", penalty: "{name}'s penalty cards", discard: "the discard pile",
      pile: "the pile", stock: "the talon", trick: "play {n} of the trick", action: "the action",
    },
    add: "Add {card}",
    unknown: "? is a card nobody at the table has seen.",
    sequence: "A sequence of {n} actions, tried one after another.",
    deal: "A question about the deal: the question file below says how the cards lie.",
    can: "A question whether something can ever happen, for Z3 (the examples' ones were answered when this site was built). Its scenario fixes the readings, so none is chosen here: see the question file below.",
    field: {
      colour: "The current colour", direction: "Direction of play", phase: "Phase",
      named_suit: "Suit named by an eight", restart: "Restart",
      exposed: "Who laid the next-to-last card without calling UNO, and can still be caught",
      calls: "Whose going-out call stands (utgång, LAPPEN)",
    },
    step: "The action to change",
    addStep: "Add an action after this one",
    removeStep: "Remove this action",
  },
  sv: {
    players: "Spelare, i sittordning (namn, åtskilda med kommatecken)",
    hand: "{name}s hand",
    pile: {
      discard: "Kasthögen (översta kortet sist)", pile: "Högen (översta kortet sist)",
      stock: "Talongens översta kort (det första överst; resten blandas)",
    },
    penalty: "{name}s straffkort (nedvända, låsta tills hans tur som spelförare är förbrukad)",
    trickPlay: "Sticket, utspel {n}",
    trickBy: "Lagt av",
    addPlay: "Lägg till ett utspel i sticket",
    removePlay: "Ta tillbaka stickets sista utspel",
    turn: "Vems tur det är",
    unset: "(inte angivet)",
    action: "Handlingen som prövas",
    by: "Av",
    actionCards: "Handlingens kort",
    target: "Vem som åker fast",
    call: "Med ett utrop (utgång, LAPPEN)",
    uno: "Säger UNO samtidigt",
    colour: "Vald färg",
    suit: "Vald färg",
    into: "Tryck på kort för att lägga dem i",
    remove: "Ta bort {card} från {where}",
    from: {
      hand: "{name}s hand", penalty: "{name}s straffkort", discard: "kasthögen",
      pile: "högen", stock: "talongen", trick: "utspel {n} i sticket", action: "handlingen",
    },
    add: "Lägg till {card}",
    unknown: "? är ett kort som ingen vid bordet har sett.",
    sequence: "En följd av {n} handlingar, som prövas en efter en.",
    deal: "En fråga om given: frågefilen nedan säger hur korten ligger.",
    can: "En fråga om något någonsin kan hända, för Z3 (exemplens besvarades när webbplatsen byggdes). Dess scenario bestämmer läsningarna, så ingen väljs här: se frågefilen nedan.",
    field: {
      colour: "Aktuell färg", direction: "Spelriktning", phase: "Fas",
      named_suit: "Färg vald med en åtta", restart: "Omstart",
      exposed: "Vem som lade sitt näst sista kort utan att säga UNO, och ännu kan åka fast",
      calls: "Vems utgångsrop som gäller (utgång, LAPPEN)",
    },
    step: "Handlingen att ändra",
    addStep: "Lägg till en handling efter den här",
    removeStep: "Ta bort den här handlingen",
  },
};

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function cardLabel(card) {
  const suit = SUITS[card.slice(-1)];
  return suit && card.length > 1 ? card.slice(0, -1) + suit : card;
}

function cardClass(card, family) {
  if (card === "?") return "pc pc-back";
  if (family === "uno") return `pc uc uc-${card.startsWith("W") ? "w" : card[0].toLowerCase()}`;
  return `pc ${"DH".includes(card.slice(-1)) ? "pc-red" : "pc-black"}`;
}

function select(id, values, chosen, unset) {
  const box = element("select", { id });
  if (unset !== null) box.append(new Option(unset, ""));
  for (const value of values) box.append(new Option(value, value, false, value === chosen));
  if (chosen !== undefined && chosen !== null && !values.includes(chosen)) box.append(new Option(String(chosen), String(chosen), false, true));
  return box;
}

// A labelled control; `name` is the question's field it edits ("position.turn"), where the
// page shows the referee's reason when that field is at fault.
function field(id, label, control, name = "") {
  return element("div", { class: "referee-field", "data-field": name }, element("label", { for: id, text: label }), control);
}

// Draw the builder for `question` (the question file without rulebook and options) of
// `rulebook` into `into`; `changed()` is called after every edit.
export function buildQuestion(into, rulebook, question, language, changed) {
  const say = WORDS[language] || WORDS.en;
  const familyName = FAMILY_OF[rulebook] || "vandatta";
  const family = FAMILIES[familyName];
  if (question.can !== undefined) {
    // whether something can ever happen: a question for Z3, not about one position
    into.replaceChildren(element("p", { class: "referee-help", text: say.can }));
    changed();
    return;
  }
  if (question.deal !== undefined && question.position === undefined) {
    // a question about the deal itself: the file says how the cards lie
    into.replaceChildren(element("p", { class: "referee-help", text: say.deal }));
    changed();
    return;
  }
  question.position ??= {};
  if (!Array.isArray(question.actions)) question.action ??= { action: Object.keys(family.actions)[0] };
  const position = question.position;
  // the actions attempted: one ("action"), or a sequence ("actions"); `step` is the one shown
  const steps = () => (Array.isArray(question.actions) ? question.actions : [question.action]);
  let step = 0;
  let action = steps()[0];
  position.players ??= ["Anna", "Bo", "Cia"];
  position.hands ??= {};
  let target = "hand:" + (position.turn || position.players[0]);

  function places() {
    const found = position.players.map((name) => [`hand:${name}`, say.hand.replace("{name}", name)]);
    if (family.pile) found.push([`pile:${family.pile}`, say.pile[family.pile]]);
    for (const key of family.more || []) found.push([`pile:${key}`, say.pile[key]]);
    (position.trick || []).forEach((play, n) => found.push([`trick:${n}`, say.trickPlay.replace("{n}", n + 1)]));
    if (rulebook === "vvv8") {  // penalty cards lie apart from the hand (000 §3)
      for (const name of position.players) {
        // a plain list of cards; sets with clocks of their own ({"cards", "release_after"})
        // are kept as the question file has them
        const held = (position.penalties || {})[name] || [];
        if (held.every((card) => typeof card === "string")) {
          found.push([`penalty:${name}`, say.penalty.replace("{name}", name)]);
        }
      }
    }
    const takes = family.actions[action.action] || [];
    if (takes.includes("cards") || takes.includes("card")) found.push(["action", say.actionCards]);
    return found;
  }

  function cardsAt(place) {
    // read only: a place the question leaves out stays out until a card is put there
    if (place.startsWith("hand:")) return position.hands[place.slice(5)] || [];
    if (place.startsWith("pile:")) return position[place.slice(5)] || [];
    if (place.startsWith("penalty:")) return (position.penalties || {})[place.slice(8)] || [];
    if (place.startsWith("trick:")) return position.trick[Number(place.slice(6))].cards || [];
    if ((family.actions[action.action] || []).includes("card")) return action.card ? [action.card] : [];
    return action.cards || [];
  }

  function setCards(place, cards) {
    if (place.startsWith("hand:")) position.hands[place.slice(5)] = cards;
    else if (place.startsWith("pile:")) {
      if (cards.length) position[place.slice(5)] = cards;
      else delete position[place.slice(5)];  // left out, as before a card was put there
    } else if (place.startsWith("trick:")) {
      position.trick[Number(place.slice(6))].cards = cards;
    } else if (place.startsWith("penalty:")) {
      const penalties = { ...(position.penalties || {}) };
      if (cards.length) penalties[place.slice(8)] = cards;
      else delete penalties[place.slice(8)];
      if (Object.keys(penalties).length) position.penalties = penalties;
      else delete position.penalties;
    } else if ((family.actions[action.action] || []).includes("card")) {
      if (cards.length) action.card = cards[cards.length - 1];
      else delete action.card;
    } else action.cards = cards;
  }

  // The place a card is taken from, as the chip's label says it ("Remove R5 from the action").
  function placeName(place) {
    const [kind, which] = place.split(":");
    if (kind === "hand" || kind === "penalty") return say.from[kind].replace("{name}", which);
    if (kind === "pile") return say.from[which];
    if (kind === "trick") return say.from.trick.replace("{n}", Number(which) + 1);
    return say.from.action;
  }

  function chips(place, label) {
    const row = element("div", { class: "pc-row referee-chips", role: "group", "aria-label": label });
    cardsAt(place).forEach((card, n) => {
      const chip = element("button", {
        type: "button",
        class: cardClass(card, familyName),
        "aria-label": say.remove.replace("{card}", card).replace("{where}", placeName(place)),
        text: cardLabel(card),
      });
      chip.addEventListener("click", () => {
        const cards = [...cardsAt(place)];
        cards.splice(n, 1);
        setCards(place, cards);
        render();
      });
      row.append(chip);
    });
    return row;
  }

  // A field of several players (each a checkbox): `key` holds the names ticked.
  function manyField(id, key, names) {
    const box = element("fieldset", { class: "referee-many", id, "data-field": `position.${key}` });
    box.append(element("legend", { text: say.field[key] || key }));
    names.forEach((name, n) => {
      const tick = element("input", { id: `${id}-${n}`, type: "checkbox" });
      tick.checked = (position[key] || []).includes(name);
      tick.addEventListener("change", () => {
        const now = new Set(position[key] || []);
        if (tick.checked) now.add(name);
        else now.delete(name);
        const chosen = names.filter((other) => now.has(other));
        if (chosen.length) position[key] = chosen;
        else delete position[key];
        render();
      });
      box.append(element("div", { class: "referee-check" }, tick, element("label", { for: `${id}-${n}`, text: name })));
    });
    return box;
  }

  // Viggo's trick: who laid each play (its cards are a place of the card buttons), and a play
  // added or taken back.
  function trickFields() {
    (position.trick || []).forEach((play, n) => {
      const id = `rb-trick-${n}`;
      const by = select(id, position.players, play.player, null);
      by.addEventListener("change", () => {
        play.player = by.value;
        render();
      });
      const label = say.trickPlay.replace("{n}", n + 1);
      into.append(field(id, `${label}: ${say.trickBy}`, by, "position.trick"));
      into.append(element("div", { class: "referee-field", "data-field": "position.trick" }, chips(`trick:${n}`, label)));
    });
    const add = element("button", { type: "button", class: "referee-step", text: say.addPlay });
    add.addEventListener("click", () => {
      const trick = position.trick || [];
      const last = trick.length ? position.players.indexOf(trick[trick.length - 1].player) : -1;
      trick.push({ player: position.players[(last + 1) % position.players.length], cards: [] });
      position.trick = trick;
      target = `trick:${trick.length - 1}`;
      render();
    });
    const buttons = element("div", { class: "referee-buttons" }, add);
    if ((position.trick || []).length) {
      const remove = element("button", { type: "button", class: "referee-step", text: say.removePlay });
      remove.addEventListener("click", () => {
        position.trick.pop();
        if (!position.trick.length) delete position.trick;
        render();
      });
      buttons.append(remove);
    }
    into.append(buttons);
  }

  // The sequence: which action is shown, and adding or removing one.
  function stepFields() {
    const all = steps();
    if (all.length > 1) {
      into.append(element("p", { class: "referee-help", text: say.sequence.replace("{n}", all.length) }));
      const labels = all.map((a, n) => `${n + 1}. ${a.action || "?"}`);
      const which = select("rb-step", labels, labels[step], null);
      which.addEventListener("change", () => {
        step = labels.indexOf(which.value);
        render();
      });
      into.append(field("rb-step", say.step, which));
    }
    const add = element("button", { type: "button", class: "referee-step", text: say.addStep });
    add.addEventListener("click", () => {
      if (!Array.isArray(question.actions)) {
        question.actions = [question.action];
        delete question.action;
      }
      question.actions.splice(step + 1, 0, { action: Object.keys(family.actions)[0] });
      step += 1;
      render();
    });
    const buttons = element("div", { class: "referee-buttons" }, add);
    if (all.length > 1) {
      const remove = element("button", { type: "button", class: "referee-step", text: say.removeStep });
      remove.addEventListener("click", () => {
        question.actions.splice(step, 1);
        if (question.actions.length === 1) {
          question.action = question.actions[0];
          delete question.actions;
        }
        step = Math.max(0, step - 1);
        render();
      });
      buttons.append(remove);
    }
    into.append(buttons);
  }

  function actionFields() {
    const kinds = Object.keys(family.actions);
    const kind = select("rb-action", kinds, action.action, null);
    kind.addEventListener("change", () => {
      const by = action.player;
      for (const key of Object.keys(action)) delete action[key];
      action.action = kind.value;
      if (by) action.player = by;
      render();
    });
    into.append(field("rb-action", say.action, kind, "action.action"));
    const by = select("rb-by", position.players, action.player, say.unset);
    by.addEventListener("change", () => {
      if (by.value) action.player = by.value;
      else delete action.player;
      render();
    });
    into.append(field("rb-by", say.by, by, "action.player"));
    const takes = family.actions[action.action] || [];
    if (takes.includes("cards") || takes.includes("card")) {
      const name = takes.includes("card") ? "action.card" : "action.cards";
      into.append(element("div", { class: "referee-field", "data-field": name }, element("span", { class: "referee-place", text: say.actionCards }), chips("action", say.actionCards)));
    }
    const choices = [
      ["colour", COLOURS, say.colour],
      ["suit", Object.keys(SUITS), say.suit],
      ["target", position.players, say.target],
    ];
    for (const [key, values, label] of choices.filter(([key]) => takes.includes(key))) {
      const control = select(`rb-action-${key}`, values, action[key], say.unset);
      control.addEventListener("change", () => {
        if (control.value) action[key] = control.value;
        else delete action[key];
        render();
      });
      into.append(field(`rb-action-${key}`, label, control, `action.${key}`));
    }
    for (const flag of ["uno", "call"].filter((f) => takes.includes(f))) {
      const box = element("input", { id: `rb-action-${flag}`, type: "checkbox" });
      box.checked = Boolean(action[flag]);
      box.addEventListener("change", () => {
        if (box.checked) action[flag] = true;
        else delete action[flag];
        render();
      });
      into.append(element("div", { class: "referee-check" }, box, element("label", { for: `rb-action-${flag}`, text: say[flag] })));
    }
  }

  function render() {
    // keep the keyboard where it was: the control with the same id or label gets the focus
    const focused = document.activeElement;
    const key = focused && into.contains(focused) ? focused.id || focused.getAttribute("aria-label") : null;
    into.replaceChildren();
    step = Math.min(step, steps().length - 1);
    action = steps()[step];
    const players = element("input", { id: "rb-players", type: "text", value: position.players.join(", ") });
    players.addEventListener("change", () => {
      const names = players.value.split(",").map((n) => n.trim()).filter(Boolean);
      const hands = {};
      for (const name of names) if (position.hands[name]) hands[name] = position.hands[name];
      position.players = names;
      position.hands = hands;
      if (position.turn && !names.includes(position.turn)) delete position.turn;
      render();
    });
    into.append(field("rb-players", say.players, players, "position.players"));

    for (const [place, label] of places()) {
      if (place === "action" || place.startsWith("trick:")) continue;  // the trick: trickFields
      const name = place.startsWith("pile:")
        ? `position.${place.slice(5)}`
        : place.startsWith("penalty:") ? "position.penalties"
        : place.startsWith("trick:") ? "position.trick" : "position.hands";
      into.append(element("div", { class: "referee-field", "data-field": name }, element("span", { class: "referee-place", text: label }), chips(place, label)));
    }

    if (family.trick) trickFields();

    const turn = select("rb-turn", position.players, position.turn, say.unset);
    turn.addEventListener("change", () => {
      if (turn.value) position.turn = turn.value;
      else delete position.turn;
      render();
    });
    into.append(field("rb-turn", say.turn, turn, "position.turn"));
    for (const extra of family.fields) {
      const id = `rb-${extra.key}`;
      if (extra.many) {
        into.append(manyField(id, extra.key, extra.many(position)));
        continue;
      }
      const values = typeof extra.values === "function" ? extra.values(position) : extra.values;
      const control = select(id, values, position[extra.key], say.unset);
      control.addEventListener("change", () => {
        if (control.value) position[extra.key] = control.value;
        else delete position[extra.key];
        render();
      });
      into.append(field(id, say.field[extra.key] || extra.key, control, `position.${extra.key}`));
    }

    stepFields();
    actionFields();

    const where = places();
    if (!where.some(([place]) => place === target)) target = where[0][0];
    const into_ = select("rb-into", where.map(([p]) => p), target, null);
    into_.querySelectorAll("option").forEach((option, n) => (option.textContent = where[n][1]));
    into_.addEventListener("change", () => {
      target = into_.value;
    });
    const grid = element("div", { class: "pc-row referee-grid", role: "group", "aria-label": say.into });
    for (const card of family.cards) {
      const button = element("button", {
        type: "button",
        class: cardClass(card, familyName),
        "aria-label": say.add.replace("{card}", card),
        text: cardLabel(card),
      });
      button.addEventListener("click", () => {
        setCards(target, [...cardsAt(target), card]);
        render();
      });
      grid.append(button);
    }
    into.append(field("rb-into", say.into, into_), grid, element("p", { class: "referee-help", text: say.unknown }));
    if (key) {
      const again = into.querySelector(`[id="${CSS.escape(key)}"], [aria-label="${CSS.escape(key)}"]`);
      again?.focus();
    }
    changed();
  }

  render();
}
