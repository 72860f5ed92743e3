// Age of Conan: the content pack's map (outlines, kingdoms, armies, forts and
// cities, campaign tracks, Conan and his adventure), the fate pool, contests
// and bids in progress, and beside it the players, their public scores, the
// seat's own hand, whose turn it is and what they may do. Drawn only from the
// view document the page holds (a spectator's or one seat's): the words for
// cards come from the view itself (view.cards), the map from the content pack
// the view names (view.pack, view.board_digest; fetched once per pack, see
// ready()), and nothing hidden is ever inferred.
//
// Legal moves on the map: a highlighted province (class "legal", with the
// command in data-command) is a target; a dashed one is where a two-step move
// starts (move units or an emissary from it). Several moves to one province
// are chosen from a list, and every map move is confirmed. The rest (dice,
// cards, bids, contests) are buttons in the panel. Everything is focusable and
// Enter or Space activates it.

const SVG_NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v);
  for (const c of kids.flat(Infinity)) if (c !== undefined && c !== null && c !== false) el.append(c);
  return el;
}

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids.flat(Infinity)) if (c !== undefined && c !== null && c !== false) el.append(c);
  return el;
}

const tip = (text) => s("title", {}, text);

// ---- words ----

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
const humanize = (id) =>
  String(id ?? "")
    .replace(/^(aq|tu|st|hy)_/, "")
    .split("_")
    .filter(Boolean)
    .map((w) => (["of", "the", "at", "in", "on", "and"].includes(w) ? w : cap(w)))
    .join(" ");

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function seatName(ctx, seat) {
  const names = ctx?.names;
  const n = names && (names[seat] ?? names[String(seat)]);
  return n || `Seat ${Number(seat) + 1}`;
}

const ROMAN = ["", "I", "II", "III", "IV", "V"];
const ORD = ["first", "second", "third", "fourth", "fifth", "sixth"];

// What the last drawn view taught us: province, kingdom and card names, for
// the sentences of events (which carry ids only) and for command labels.
const memo = {
  provinces: new Map(),
  kingdoms: new Map(),
  cards: new Map(),
  seats: [],
  conanAt: "",
  view: null,
  seat: null,
};

function learn(view, seat) {
  memo.view = view;
  memo.seat = seat;
  const board = view.board;
  if (board) {
    for (const p of board.provinces) memo.provinces.set(p.id, p);
    for (const k of board.kingdoms) memo.kingdoms.set(k.id, k);
  }
  for (const c of view.cards || []) memo.cards.set(c.id, c);
  memo.seats = (view.seats || []).map((x) => x.kingdom);
  memo.conanAt = view.conan_at;
}

const pname = (id) => (id ? (memo.provinces.get(id)?.name ?? humanize(id)) : "nowhere");
const cname = (id) => (id ? (memo.cards.get(id)?.name ?? humanize(id)) : "no card");
const kname = (id) => memo.kingdoms.get(id)?.name ?? humanize(id);
const ctext = (id) => memo.cards.get(id)?.text ?? "";

const FATE = {
  MILITARY: "Military",
  INTRIGUE: "Intrigue",
  MILITARY_INTRIGUE: "Military or Intrigue",
  COURT_CONAN: "Court + Conan",
  COURT: "Court",
  WILD: "Wild",
};
const FACE = {
  HIT: "hit",
  ATTACKER_HIT: "attacker's hit",
  HIT_CONAN: "hit and sword",
  SHIELD: "shield",
  AXE: "axe",
  BLANK: "blank",
};
const FACES = {
  HIT: "hits",
  ATTACKER_HIT: "attacker's hits",
  HIT_CONAN: "hits and swords",
  SHIELD: "shields",
  AXE: "axes",
  BLANK: "blanks",
};
const KIND = {
  campaign: "Campaign",
  siege: "Siege",
  battle: "Battle",
  alliance: "Alliance",
  break: "Breaking an alliance",
};
const CATEGORY = { monsters: "monsters", treasures: "treasures", women: "women" };
const ITEM = {
  emissary: "an emissary",
  unit: "a unit",
  kingdom_and_strategy: "a kingdom card and a strategy card",
  strategy: "a strategy card",
};
const AGE_STEP = {
  1: "raids",
  2: "income and objectives",
  3: "troops and cities",
  4: "purchases",
  5: "artifacts (a secret token category)",
  6: "new adventures",
  7: "table cards refreshed",
};

// ---- colours ----

const KCOL = {
  red: { fill: "#b3261e", light: "#efc0b9", dark: "#5e120d", ink: "#fff" },
  yellow: { fill: "#d99a0b", light: "#f6dfa0", dark: "#6b4a00", ink: "#1d1a14" },
  green: { fill: "#23793f", light: "#bfe0c8", dark: "#0f3d1f", ink: "#fff" },
  purple: { fill: "#6a3fa6", light: "#d9c9f0", dark: "#331b57", ink: "#fff" },
  blue: { fill: "#1f5fbf", light: "#c6d8f3", dark: "#0d2f63", ink: "#fff" },
  black: { fill: "#2b2b2b", light: "#d2d2d2", dark: "#000", ink: "#fff" },
  white: { fill: "#f1efe8", light: "#fbfaf6", dark: "#6b6659", ink: "#1d1a14" },
  orange: { fill: "#d4621a", light: "#f6cfb3", dark: "#6b2c05", ink: "#fff" },
};
const SPARE = ["blue", "orange", "black", "white"];

function colourOf(seat) {
  const kingdom = memo.seats[seat];
  const name = memo.kingdoms.get(kingdom)?.colour;
  return KCOL[name] || KCOL[SPARE[seat % SPARE.length]];
}

const ZONE_FILL = { central: "#e9dbb3", north: "#dfe2d6", east: "#eed6a2", south: "#e6cb92" };
const TERRAIN = {
  plains: { letter: "P", fill: "#c9dc8f", ink: "#2d3a0c" },
  hills: { letter: "H", fill: "#c79d66", ink: "#3a2508" },
  woods: { letter: "W", fill: "#5f8f4e", ink: "#fff" },
  city: { letter: "C", fill: "#a8a39a", ink: "#1d1a14" },
};

// ---- small symbols, drawn in a 20x20 box around (10, 10) ----

function glyph(name, fg = "#1d1a14") {
  switch (name) {
    case "sword":
      return s("path", {
        d: "M10 1.5V13.5M6 13.5H14M10 13.5V18.5",
        stroke: fg,
        "stroke-width": 2.2,
        "stroke-linecap": "round",
        fill: "none",
      });
    case "swords":
      return s("path", {
        d: "M3 3L15 15M17 3L5 15M2.5 13.5L6.5 17.5M17.5 13.5L13.5 17.5",
        stroke: fg,
        "stroke-width": 2,
        "stroke-linecap": "round",
        fill: "none",
      });
    case "shield":
      return s("path", { d: "M10 2L17 4.5V10Q17 15.5 10 18.5Q3 15.5 3 10V4.5Z", fill: fg });
    case "axe":
      return s(
        "g",
        {},
        s("path", { d: "M7 18.5L13.5 3.5", stroke: fg, "stroke-width": 2.2, "stroke-linecap": "round" }),
        s("path", { d: "M11.3 4.5Q16.5 2.5 18.5 7.5Q15 7 12.6 9.6Z", fill: fg }),
      );
    case "splash":
      return s("path", {
        d: "M10 1.5L12 7L17.5 4.5L14 9.5L19 12L13 12.5L14.5 18.5L10 14L5.5 18.5L7 12.5L1 12L6 9.5L2.5 4.5L8 7Z",
        fill: fg,
      });
    case "crown":
      return s("path", {
        d: "M2.5 15.5H17.5L18.5 5.5L13.7 9.5L10 3L6.3 9.5L1.5 5.5ZM2.5 16.8H17.5V18.5H2.5Z",
        fill: fg,
      });
    case "eye":
      return s(
        "g",
        {},
        s("path", {
          d: "M1.5 10Q10 1.5 18.5 10Q10 18.5 1.5 10Z",
          fill: "none",
          stroke: fg,
          "stroke-width": 2,
        }),
        s("circle", { cx: 10, cy: 10, r: 3, fill: fg }),
      );
    case "star":
      return s("path", {
        d: "M10 1.5L12.5 7.3L18.8 7.8L14 12L15.5 18.2L10 14.8L4.5 18.2L6 12L1.2 7.8L7.5 7.3Z",
        fill: fg,
      });
    case "tower":
      return s("path", {
        d: "M6 18.5V7.5H4.5V2.5H7V4.5H8.8V2.5H11.2V4.5H13V2.5H15.5V7.5H14V18.5Z",
        fill: fg,
      });
    case "fort":
      return s("path", {
        d: "M1.5 18.5V8.5H4V6H6.5V8.5H8.7V6H11.3V8.5H13.5V6H16V8.5H18.5V18.5H12V14Q10 11.5 8 14V18.5Z",
        fill: fg,
      });
    case "city":
      return s("path", {
        d: "M1 18.5V9L4 6.5L7 9V11.5H8.5V4.5L10 1.5L11.5 4.5V11.5H13V9L16 6.5L19 9V18.5Z",
        fill: fg,
      });
    case "pawn":
      return s(
        "g",
        { fill: fg },
        s("circle", { cx: 10, cy: 5.2, r: 3.6 }),
        s("path", { d: "M5 18.5Q5 10 10 9.2Q15 10 15 18.5Z" }),
      );
    case "helm":
      return s(
        "g",
        {},
        s("path", { d: "M4 12Q4 4 10 4Q16 4 16 12V17H12.5V13H7.5V17H4Z", fill: fg }),
        s("path", {
          d: "M4.5 8Q0.5 6.5 1.5 1.5Q3.5 5 6 5.5M15.5 8Q19.5 6.5 18.5 1.5Q16.5 5 14 5.5",
          fill: fg,
          stroke: fg,
          "stroke-width": 0.8,
        }),
      );
    case "flag":
      return s(
        "g",
        {},
        s("path", { d: "M4 18.5V2", stroke: fg, "stroke-width": 2, "stroke-linecap": "round" }),
        s("path", { d: "M5 2.5H16.5L13.5 6.5L16.5 10.5H5Z", fill: fg }),
      );
    case "skull":
      return s(
        "g",
        {},
        s("path", { d: "M10 2Q17 2 17 9Q17 12 14.5 13V16.5H5.5V13Q3 12 3 9Q3 2 10 2Z", fill: fg }),
        s("circle", { cx: 7.2, cy: 8.8, r: 1.9, fill: "#fff" }),
        s("circle", { cx: 12.8, cy: 8.8, r: 1.9, fill: "#fff" }),
      );
    case "coin":
      return s(
        "g",
        {},
        s("circle", { cx: 10, cy: 10, r: 8, fill: "#e9b82c", stroke: "#7a5800", "stroke-width": 1.5 }),
        s("circle", { cx: 10, cy: 10, r: 4.5, fill: "none", stroke: "#7a5800", "stroke-width": 1.2 }),
      );
    case "flame":
      return s("path", {
        d: "M10 1.5Q15 7 15 12Q15 18.5 10 18.5Q5 18.5 5 12Q5 9 7.5 6.5Q7.5 10 9.5 11Q8.5 6 10 1.5Z",
        fill: fg,
      });
    case "scroll":
      return s("path", {
        d: "M4 3H15Q17.5 3 17.5 5.5V15Q17.5 17.5 15 17.5H5Q2.5 17.5 2.5 15V13H12.5V15Q12.5 16 13.5 16Q14.5 16 14.5 15V5.5Q14.5 4.5 15 4.5H6Q5 4.5 5 5.5V12H4Z",
        fill: fg,
      });
    default:
      return s("circle", { cx: 10, cy: 10, r: 5, fill: fg });
  }
}

// A 20x20 glyph placed at (cx, cy) with the given size.
function place(g, cx, cy, size) {
  const k = size / 20;
  return s(
    "g",
    {
      transform: `translate(${(cx - size / 2).toFixed(1)} ${(cy - size / 2).toFixed(1)}) scale(${k.toFixed(3)})`,
    },
    g,
  );
}

function mini(size, ...kids) {
  return s(
    "svg",
    { width: size, height: size, viewBox: "0 0 20 20", class: "zc-mini", "aria-hidden": "true" },
    ...kids,
  );
}

const FATE_GLYPH = {
  MILITARY: "swords",
  INTRIGUE: "eye",
  MILITARY_INTRIGUE: "swords",
  COURT_CONAN: "crown",
  COURT: "crown",
  WILD: "star",
};

function fateDie(face, size = 30) {
  const parts = [
    s("rect", {
      x: 0.8,
      y: 0.8,
      width: 18.4,
      height: 18.4,
      rx: 3.5,
      fill: "#1f4f9a",
      stroke: "#0b2552",
      "stroke-width": 1,
    }),
  ];
  if (face === "MILITARY_INTRIGUE")
    parts.push(place(glyph("swords", "#fff"), 6.5, 6.5, 9), place(glyph("eye", "#fff"), 13.5, 13.5, 9));
  else if (face === "COURT_CONAN")
    parts.push(place(glyph("crown", "#fff"), 6.5, 6.8, 9.5), place(glyph("helm", "#ffd76a"), 13.3, 13.3, 10));
  else parts.push(place(glyph(FATE_GLYPH[face] || "star", face === "WILD" ? "#ffd76a" : "#fff"), 10, 10, 13));
  return h("span", { class: "zc-die", title: `${FATE[face] || face} die` }, mini(size, ...parts));
}

function contestDie(face, size = 26) {
  const black = face === "ATTACKER_HIT";
  const parts = [
    s("rect", {
      x: 0.8,
      y: 0.8,
      width: 18.4,
      height: 18.4,
      rx: 3.5,
      fill: black ? "#1b1b1b" : "#b3261e",
      stroke: "#3b0805",
      "stroke-width": 1,
    }),
  ];
  if (face === "HIT") parts.push(place(glyph("splash", "#fff"), 10, 10, 14));
  else if (face === "ATTACKER_HIT") parts.push(place(glyph("splash", "#fff"), 10, 10, 14));
  else if (face === "HIT_CONAN")
    parts.push(place(glyph("splash", "#fff"), 7.5, 8, 10), place(glyph("sword", "#ffd76a"), 13.5, 11, 12));
  else if (face === "SHIELD") parts.push(place(glyph("shield", "#fff"), 10, 10, 12));
  else if (face === "AXE") parts.push(place(glyph("axe", "#fff"), 10, 10, 13));
  return h("span", { class: "zc-die", title: FACE[face] || face }, mini(size, ...parts));
}

// ---- commands in words ----

const bare = (type) => String(type || "").replace(/^conan\./, "");

function bidValueOf(card) {
  const info = memo.cards.get(card);
  return info && info.kind === "strategy" ? info.value : null;
}

export function label(command, ctx) {
  const c = command || {};
  const view = memo.view;
  switch (bare(c.type)) {
    case "place_bid": {
      if (!c.card) return `Bid the ${c.token} token without a card`;
      const v = bidValueOf(c.card);
      return `Bid the ${c.token} token with ${cname(c.card)}${v === null ? "" : ` (${c.token + v} in all)`}`;
    }
    case "swap_bid_card":
      return c.card ? `Swap your revealed card for ${cname(c.card)}` : "Keep the revealed card";
    case "choose_token":
      return (
        {
          keep: "Keep the adventure token face down",
          gold: "Exchange the token for gold",
          sorcery: "Exchange the token for sorcery",
        }[c.keep] || `Token: ${c.keep}`
      );
    case "move_conan":
      return c.to ? `Move Conan to ${pname(c.to)}` : `Conan stays in ${pname(view?.conan_at)}`;
    case "play_table_card":
      return `Put ${cname(c.card)} on the table`;
    case "refresh_table_card":
      return `Refresh ${cname(c.card)}`;
    case "take_die":
      return (
        {
          military: "Take a die for a Military action",
          intrigue: "Take a die for an Intrigue action",
          court: "Take a die for the Court",
        }[c.action] || `Take a die: ${c.action}`
      );
    case "raise_troops":
      return `Raise troops in ${listWords((c.provinces || []).map(pname))}`;
    case "move_army": {
      const into = memo.view ? targetWord(c.to) : "";
      return `Move ${plural(c.units, "unit")} from ${pname(c.frm)} ${into || "to"} ${pname(c.to)}`;
    }
    case "attack":
      return c.defender >= 0
        ? `Fight in ${pname(c.province)} against ${seatName(ctx, c.defender)}`
        : `Fight in ${pname(c.province)}`;
    case "end_action":
      return endWords();
    case "move_emissary":
      return `Move an emissary from ${pname(c.frm)} to ${pname(c.to)}`;
    case "start_intrigue":
      return `Intrigue in ${pname(c.province)}`;
    case "collect_gold":
      return `Collect gold in ${pname(c.province)}`;
    case "build_emissary":
      return `Build an emissary in ${pname(c.province)}`;
    case "conan_act": {
      const move = c.to ? `Move Conan to ${pname(c.to)}` : "Conan stays";
      return c.raider ? `${move}, raid ${pname(c.raider)}` : `${move}, no raid`;
    }
    case "court_draw":
      return (
        {
          strategy_kingdom: "Draw a strategy card and a kingdom card",
          two_strategy: "Draw two strategy cards",
        }[c.option] || `Draw: ${humanize(c.option)}`
      );
    case "play_event":
      return `Play the event ${cname(c.card)}`;
    case "commit_card":
      return c.cards?.length
        ? `Commit ${listWords(c.cards.map(cname))} face down`
        : "Commit no strategy card";
    case "use_card":
      return `Use ${cname(c.card)}`;
    case "sorcery":
      return "Spend a sorcery token to reroll all your dice";
    case "proceed":
      return proceedWords();
    case "forced_march":
      return c.defender >= 0
        ? `Forced march: give up a unit, fight ${seatName(ctx, c.defender)} again`
        : "Forced march: give up a unit and fight on";
    case "withdraw":
      return c.frm
        ? `Withdraw the army from ${pname(c.frm)} to ${pname(c.to)}`
        : `Withdraw to ${pname(c.to)}`;
    case "crown":
      return c.category
        ? `Try to crown Conan with your ${CATEGORY[c.category] || c.category}`
        : "Do not try to crown Conan";
    case "resolve_raids":
      return c.sacrifice_in?.length
        ? `Sacrifice a unit to clear the raiders in ${listWords(c.sacrifice_in.map(pname))}`
        : "Keep your units; pay EP for the raiders";
    case "place_garrison":
      return c.city
        ? `Turn the fort in ${pname(c.province)} into a city`
        : `Place a unit in ${pname(c.province)}`;
    case "buy":
      return `Buy ${ITEM[c.item] || humanize(c.item)}${c.province ? ` in ${pname(c.province)}` : ""}`;
    case "choose_category":
      return `Choose ${CATEGORY[c.category] || c.category} (secretly)`;
    default:
      return cap(humanize(bare(c.type)));
  }
}

// "into" for an attack, "to" for a redeploy, from the last view drawn.
function targetWord(to) {
  const view = memo.view;
  const seat = memo.seat;
  if (!view || seat === null || seat === undefined) return "";
  const p = provinceState(view, to);
  const info = memo.provinces.get(to);
  if (!p || !info) return "";
  const mine = info.home_of === view.seats[seat]?.kingdom || p.owner === seat;
  return mine ? "to" : "to attack";
}

function endWords() {
  const top = topPhase(memo.view);
  if (top?.phase === "garrison" || top?.phase === "age_change") return "Done";
  if (top?.phase === "military" && top.moved && top.moved.length) return "End the Military action";
  return top?.phase === "military" || top?.phase === "intrigue" ? "Do nothing more with this action" : "Done";
}

function proceedWords() {
  const top = topPhase(memo.view);
  if (!top) return "Go on";
  if (top.phase === "contest") {
    if (top.step.startsWith("before")) return "Roll the dice";
    if (top.step.startsWith("after")) return "Accept the roll";
    return "Go on";
  }
  if (top.phase === "after_contest") return "Stop fighting";
  if (top.phase === "retreat") return "Stay and fight on";
  return "Go on";
}

function topPhase(view) {
  const phases = view?.phases || [];
  return phases.length ? phases[phases.length - 1] : null;
}

function provinceState(view, id) {
  const p = (view.provinces || []).find((x) => x.id === id);
  return p ? p.state : null;
}

// ---- events in words ----

const REASON = {
  setup: "to start with",
  token_exchange: "for an adventure token",
  crowned: "for crowning Conan",
  raids: "for the raiders left in their provinces",
  purchase: "for a purchase",
  table_card: "for a table card",
  refresh: "to refresh a table card",
  event: "from an event card",
  sorcery_reroll: "to reroll",
  collect: "collecting gold with an emissary",
  subjugation: "for subjugating a province",
  alliance: "from an alliance",
  income: "in income",
  objective: "for an objective",
  richest: "as the richest",
  crom: "for the most Crom tokens",
  final_markers: "for their forts and cities",
  majority_monsters: "for the most monsters",
  majority_treasures: "for the most treasures",
  majority_women: "for the most women",
};
const RESOURCE = {
  gold: ["gold", "gold"],
  sorcery: ["sorcery token", "sorcery tokens"],
  ep: ["EP", "EP"],
  crom: ["Crom token", "Crom tokens"],
};
const ACTION = { military: "a Military action", intrigue: "an Intrigue action", court: "the Court" };
const DECK = {
  strategy: "strategy",
  kingdom: "kingdom",
  table: "table",
  adventure: "adventure",
  objectives: "objective",
};

function amount(n, key) {
  const [one, many] = RESOURCE[key];
  return `${n} ${n === 1 ? one : many}`;
}

function resourcesSentence(e, who) {
  if (e.reason === "crom" && e.crom > 0 && !e.ep) return `${who} takes a Crom! Count the dead! token.`;
  const gains = [];
  const losses = [];
  for (const key of ["ep", "gold", "sorcery", "crom"]) {
    const n = e[key] || 0;
    if (n > 0) gains.push(amount(n, key));
    else if (n < 0) losses.push(amount(-n, key));
  }
  const why = REASON[e.reason]
    ? ` ${REASON[e.reason]}`
    : e.reason
      ? ` (${humanize(e.reason).toLowerCase()})`
      : "";
  const spend = ["purchase", "table_card", "refresh", "sorcery_reroll"].includes(e.reason);
  const parts = [];
  if (gains.length)
    parts.push(`${gains.length === 1 && gains[0].endsWith("EP") ? "scores" : "gains"} ${listWords(gains)}`);
  if (losses.length) parts.push(`${spend ? "pays" : "loses"} ${listWords(losses)}`);
  if (!parts.length) return `${who}'s treasury is unchanged${why}.`;
  return `${who} ${parts.join(" and ")}${why}.`;
}

function faceCounts(faces, words, many = words) {
  const counts = new Map();
  for (const f of faces) counts.set(f, (counts.get(f) || 0) + 1);
  return listWords(
    [...counts].map(([f, n]) => `${n} ${(n === 1 ? words[f] : many[f]) || humanize(f).toLowerCase()}`),
  );
}

function phaseSentence(p, ctx, pushed) {
  const who = (seat) => seatName(ctx, seat);
  switch (p.phase) {
    case "bidding":
      if (p.step === "sealed")
        return "Everyone bids for Conan: a bidding token and a strategy card, face down.";
      if (p.step === "swap") return "The holder of Conan's Favour may swap the revealed card.";
      return "The bids for Conan are settled.";
    case "token_choice":
      return `${who(p.seat)} keeps the adventure token face down or exchanges it for gold or sorcery.`;
    case "coronation":
      return `${who(p.seat)} may try to crown Conan.`;
    case "adventure_end":
      return p.step === "reward"
        ? "The adventure ends."
        : p.step === "coronation"
          ? "Conan may be crowned."
          : "The next adventure is coming.";
    case "turn":
      if (p.step === "conan") return `${who(p.seat)}'s turn begins.`;
      if (p.step === "cards") return `${who(p.seat)} may play or refresh table cards.`;
      return `${who(p.seat)} acts with the die.`;
    case "military":
      if (pushed) return `${who(p.seat)} takes the Military action.`;
      if (p.fought) return `${who(p.seat)} has fought this action's contest.`;
      return p.target
        ? `${who(p.seat)} must fight in ${pname(p.target)}; ${plural(p.moves_left, "movement")} left.`
        : `${who(p.seat)} has ${plural(p.moves_left, "movement")} left.`;
    case "intrigue":
      return pushed
        ? `${who(p.seat)} takes the Intrigue action.`
        : `${who(p.seat)} goes on with the Intrigue action.`;
    case "conan_court":
      return `${who(p.seat)} moves Conan once more and may raid (Court + Conan).`;
    case "court":
      return `${who(p.seat)} holds Court: draws cards or plays an event.`;
    case "contest": {
      const a = p.attacker.seat;
      const d = p.defender.seat;
      const against = d >= 0 ? who(d) : pname(p.province);
      const what = `${KIND[p.kind] || cap(p.kind)} in ${pname(p.province)} (${p.terrain})`;
      const step =
        {
          attacker_card: `${who(a)} chooses a strategy card`,
          defender_card: `${d >= 0 ? who(d) : "the defender"} chooses a strategy card`,
          before_attacker: `${who(a)} is about to roll`,
          after_attacker: `${who(a)} looks at the roll`,
          before_defender: `${d >= 0 ? who(d) : pname(p.province)} is about to roll`,
          after_defender: `${d >= 0 ? who(d) : "the defender"} looks at the roll`,
          resolve: "the roll is settled",
        }[p.step] || p.step;
      return pushed ? `${what}: ${who(a)} against ${against}.` : `${what}: ${step}.`;
    }
    case "after_contest":
      return `${who(p.seat)} may march on, withdraw or stop in ${pname(p.province)}.`;
    case "retreat":
      return `${who(p.seat)} may fall back from ${pname(p.province)}.`;
    case "age_change":
      return p.final
        ? `Final scoring: ${AGE_STEP[p.step] || `step ${p.step}`}.`
        : `Change of age, step ${p.step}: ${AGE_STEP[p.step] || ""}.`;
    case "garrison":
      return `${who(p.seat)} places troops and raises cities.`;
    case "game_over":
      return "The game is over.";
    default:
      return `${cap(humanize(p.phase))}.`;
  }
}

// The phases as the events describe them, in feed order, so that a phase's end
// can be named ("Anna's Military action ends"); reset by the game's start.
const shadow = { key: null, stack: [] };

function follow(e, ctx) {
  const key = ctx?.doc?.game_id || "";
  if (shadow.key !== key) {
    shadow.key = key;
    shadow.stack = [];
  }
  const t = bare(e.type);
  if (t === "started") shadow.stack = [];
  else if (t === "phase_pushed") shadow.stack.push(e.phase);
  else if (t === "phase_replaced") {
    if (shadow.stack.length) shadow.stack[shadow.stack.length - 1] = e.phase;
    else shadow.stack.push(e.phase);
  } else if (t === "phase_popped") return shadow.stack.pop() || null;
  return null;
}

function endSentence(p, ctx) {
  const who = (seat) => seatName(ctx, seat);
  switch (p.phase) {
    case "bidding":
      return "The bidding for Conan is over.";
    case "token_choice":
      return `${who(p.seat)} has decided about the adventure token.`;
    case "coronation":
      return "The coronation is settled.";
    case "adventure_end":
      return "The end of the adventure is settled.";
    case "turn":
      return `${who(p.seat)}'s turn ends.`;
    case "military":
      return `${who(p.seat)}'s Military action ends.`;
    case "intrigue":
      return `${who(p.seat)}'s Intrigue action ends.`;
    case "conan_court":
      return "Conan's extra move and raid are done.";
    case "court":
      return `${who(p.seat)}'s Court is over.`;
    case "contest":
      return `The ${(KIND[p.kind] || p.kind).toLowerCase()} contest in ${pname(p.province)} is over.`;
    case "after_contest":
      return `${who(p.seat)} fights no more in ${pname(p.province)} this action.`;
    case "retreat":
      return `${who(p.seat)} has chosen whether to fall back from ${pname(p.province)}.`;
    case "age_change":
      return p.final ? "The final scoring is done." : "The change of age is complete.";
    case "garrison":
      return `${who(p.seat)} has placed troops and cities.`;
    default:
      return null;
  }
}

export function describe(event, ctx) {
  const e = event || {};
  const who = (seat) => seatName(ctx, seat);
  switch (bare(e.type)) {
    case "started": {
      follow(e, ctx);
      const rulers = (e.kingdoms || []).map((k, i) => `${who(i)} rules ${kname(k)}`);
      return `The game begins: ${listWords(rulers)}. In play: ${listWords((e.zones || []).map((z) => humanize(z).toLowerCase()))}.`;
    }
    case "deck_shuffled":
      return e.deck === "kingdom" && e.seat >= 0
        ? `${who(e.seat)}'s kingdom deck is shuffled.`
        : `The ${DECK[e.deck] || e.deck} deck is shuffled.`;
    case "tokens_shuffled":
      return "The adventure tokens are mixed face down.";
    case "cards_drawn":
      return `${who(e.seat)} draws ${listWords((e.cards || []).map(cname))} (${DECK[e.deck] || e.deck}).`;
    case "cards_drawn_count":
      return `${who(e.seat)} draws ${plural(e.count, `${DECK[e.deck] || e.deck} card`)}.`;
    case "cards_discarded":
      return e.deck === "table"
        ? `${who(e.seat)} takes ${listWords((e.cards || []).map(cname))} off the table.`
        : `${who(e.seat)} discards ${listWords((e.cards || []).map(cname))}.`;
    case "table_card_played":
      return `${who(e.seat)} puts ${cname(e.card)} on the table.`;
    case "table_card_turned":
      return e.exhausted
        ? `${who(e.seat)} uses ${cname(e.card)} (turned sideways).`
        : `${who(e.seat)} refreshes ${cname(e.card)}.`;
    case "resources_changed":
      return resourcesSentence(e, who(e.seat));
    case "units_changed":
      return e.delta > 0
        ? `${plural(e.delta, "unit")} of ${who(e.seat)} ${e.delta === 1 ? "enters" : "enter"} ${pname(e.province)}.`
        : `${who(e.seat)} has ${plural(-e.delta, "unit")} fewer in ${pname(e.province)}.`;
    case "emissaries_changed":
      return e.delta > 0
        ? `${e.delta === 1 ? "An emissary" : `${e.delta} emissaries`} of ${who(e.seat)} ${e.delta === 1 ? "arrives" : "arrive"} in ${pname(e.province)}.`
        : `${who(e.seat)} has ${plural(-e.delta, "emissary", "emissaries")} fewer in ${pname(e.province)}.`;
    case "marker_set":
      if (e.owner < 0 || !e.marker) return `${pname(e.province)} is neutral again.`;
      if (e.marker === "fort") return `${who(e.owner)} holds ${pname(e.province)} with a fort.`;
      if (e.marker === "city") return `${who(e.owner)} raises a city in ${pname(e.province)}.`;
      return `${who(e.owner)} places a tower in ${pname(e.province)}: an alliance.`;
    case "raiders_changed":
      return e.delta > 0
        ? `${e.delta === 1 ? "A raider token lands" : `${e.delta} raider tokens land`} in ${pname(e.province)}.`
        : `${e.delta === -1 ? "A raider token leaves" : `${-e.delta} raider tokens leave`} ${pname(e.province)}.`;
    case "campaign_set": {
      if (e.owner < 0) return `The campaign in ${pname(e.province)} ends.`;
      const track = memo.provinces.get(e.province)?.track || [];
      const terrain = track[e.pos] ? ` (${track[e.pos]})` : "";
      return `${who(e.owner)}'s campaign in ${pname(e.province)} stands on the ${ORD[e.pos] || `${e.pos + 1}th`} space of ${track.length || "its"}${terrain}.`;
    }
    case "conan_moved":
      return `Conan goes to ${pname(e.to)}.`;
    case "conan_player_set":
      return e.seat >= 0 ? `${who(e.seat)} is the Conan player.` : "Nobody is the Conan player.";
    case "first_player_set":
      return `${who(e.seat)} takes the first player token.`;
    case "fate_pool_rolled":
      return `The fate pool is rolled: ${faceCounts(e.faces || [], FATE)}.`;
    case "fate_die_taken":
      return `${who(e.seat)} takes ${article(FATE[e.face] || humanize(e.face))} die for ${ACTION[e.action] || humanize(e.action)}.`;
    case "adventure_revealed":
      return `A new adventure: ${cname(e.card)}. Conan heads for ${pname(e.destination)}.`;
    case "track_filled":
      return `${plural(e.count, "adventure token")} ${e.count === 1 ? "is" : "are"} laid on the track.`;
    case "token_taken":
    case "token_taken_count":
      return `${who(e.seat)} takes an adventure token from the ${e.source === "container" ? "container" : "track"}.`;
    case "token_kept":
      return `${who(e.seat)} keeps the adventure token face down.`;
    case "token_exchanged":
      return `${who(e.seat)} exchanges an adventure token for ${amount(e.amount, e.resource === "sorcery" ? "sorcery" : "gold")}.`;
    case "token_discarded":
      return "The leftmost adventure token is discarded.";
    case "bid_sealed":
      return `${who(e.seat)} seals a bid: the ${e.token} token${e.card ? ` with ${cname(e.card)}` : " without a card"}.`;
    case "bid_placed":
      return `${who(e.seat)} lays down a bid face down.`;
    case "bids_revealed": {
      const bids = [...(e.bids || [])].sort((a, b) => b.value - a.value);
      const parts = bids.map(
        (b) => `${who(b.seat)} ${b.token}${b.card ? ` + ${cname(b.card)}` : ""} = ${b.value}`,
      );
      return `The bids are revealed: ${parts.join("; ")}.`;
    }
    case "bid_tokens_set":
      return `${who(e.seat)}'s bidding tokens: ${(e.available || []).join(", ") || "none"} at hand${e.spent?.length ? `, ${e.spent.join(", ")} set aside` : ""}.`;
    case "contest_card_committed":
      return e.cards?.length
        ? `${who(e.seat)} commits ${listWords(e.cards.map(cname))} face down.`
        : `${who(e.seat)} commits no strategy card.`;
    case "contest_card_declared":
      return e.count
        ? `${who(e.seat)} commits ${plural(e.count, "strategy card")} face down.`
        : `${who(e.seat)} commits no strategy card.`;
    case "contest_cards_revealed": {
      const parts = (e.seats || []).map(
        (seat, i) =>
          `${who(seat)} ${(e.cards?.[i] || []).length ? listWords(e.cards[i].map(cname)) : "none"}`,
      );
      return `The contest cards are revealed: ${parts.join("; ")}.`;
    }
    case "contest_rolled": {
      const faces = e.faces || [];
      const side = e.seat >= 0 ? who(e.seat) : "The province";
      return `${side} ${e.reroll ? "rerolls" : "rolls"} ${plural(faces.length, "die", "dice")}: ${faces.length ? faceCounts(faces, FACE, FACES) : "nothing"}.`;
    }
    case "contest_resolved": {
      const what = `${KIND[e.kind] || cap(e.kind)} in ${pname(e.province)}`;
      return `${what}: ${e.attacker_successes} against ${e.defender_successes}; the ${e.attacker_won ? "attacker" : "defender"} wins.`;
    }
    case "phase_pushed":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, true);
    case "phase_replaced":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, false);
    case "phase_popped": {
      const ended = follow(e, ctx);
      return (ended && endSentence(ended, ctx)) || "That step is done.";
    }
    case "artifacts_set": {
      const held = [...(e.artifacts || []).map(cname), ...(e.bonus ? [cname("conan_bonus")] : [])];
      return held.length ? `${who(e.seat)} holds ${listWords(held)}.` : `${who(e.seat)} holds no artifact.`;
    }
    case "category_chosen":
      return `${who(e.seat)} secretly chooses ${CATEGORY[e.category] || e.category}.`;
    case "category_choice_made":
      return `${who(e.seat)} chooses a token category in secret.`;
    case "tokens_revealed": {
      const values = e.values || [];
      const total = values.reduce((a, b) => a + b, 0);
      return `${who(e.seat)} shows ${CATEGORY[e.category] || e.category}: ${values.length ? `${values.join(", ")} (${total} in all)` : "none"}.`;
    }
    case "objective_drawn":
      return `A new objective is turned up: ${cname(e.objective)}${ctext(e.objective) ? ` (${ctext(e.objective)})` : ""}.`;
    case "objective_met":
      return `${listWords((e.seats || []).map(who)) || "Nobody"} ${(e.seats || []).length === 1 ? "meets" : "meet"} the objective ${cname(e.objective)}.`;
    case "age_started":
      return `Age ${ROMAN[e.age] || e.age} begins.`;
    case "age_ending":
      return "The age comes to an end.";
    case "crowned":
      return e.success
        ? `${who(e.seat)} crowns Conan king with their ${CATEGORY[e.category] || e.category}, and scores 3 EP.`
        : `${who(e.seat)} fails to crown Conan with their ${CATEGORY[e.category] || e.category}: Conan kills them.`;
    case "game_ended": {
      const places = [...(e.standings || [])]
        .sort((a, b) => a.place - b.place)
        .map((st) => `${who(st.seat)} ${ordinal(st.place)} (${st.score} EP)`);
      return `The game ends after Age III: ${listWords(places)}.`;
    }
    default:
      return `${cap(humanize(bare(e.type)))}.`;
  }
}

function article(word) {
  return `${/^[AEIOU]/i.test(word) ? "an" : "a"} ${word}`;
}

function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

// Public scores for the page's player list.
export function summary(doc) {
  const seats = doc?.view?.seats || [];
  return seats.map((x) => `${x.ep} EP${x.dead ? " · killed by Conan" : ""}`);
}

// ---- the map's geometry (from view.board; computed once per pack) ----

const geoCache = new Map();
const ptKey = (p) => `${p[0]},${p[1]}`;

function hash(text) {
  let x = 2166136261;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 16777619);
  return x >>> 0;
}

function prng(seed) {
  let a = seed || 1;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Points strictly between a and b: a gently wiggling border, the same for
// both provinces that share the side (it is computed in one direction).
function wiggle(a, b, frame) {
  const ka = ptKey(a);
  const kb = ptKey(b);
  if (frame) return [];
  const [p, q] = ka < kb ? [a, b] : [b, a];
  const rand = prng(hash(`${Math.min(ka, kb)}|${Math.max(ka, kb)}`));
  const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
  let pts = [p, q];
  let amp = Math.min(len * 0.09, 16);
  for (let round = 0; round < 3 && len > 24; round++) {
    const next = [pts[0]];
    for (let i = 1; i < pts.length; i++) {
      const [x0, y0] = pts[i - 1];
      const [x1, y1] = pts[i];
      const dx = x1 - x0;
      const dy = y1 - y0;
      const d = Math.hypot(dx, dy) || 1;
      const off = (rand() * 2 - 1) * amp;
      next.push([(x0 + x1) / 2 + (-dy / d) * off, (y0 + y1) / 2 + (dx / d) * off], pts[i]);
    }
    pts = next;
    amp *= 0.5;
  }
  const inner = pts.slice(1, -1);
  return ka < kb ? inner : inner.reverse();
}

function geometry(view) {
  const board = view.board;
  const key = `${view.pack}|${board.width}x${board.height}|${board.provinces.length}`;
  if (geoCache.has(key)) return geoCache.get(key);
  const W = board.width;
  const H = board.height;
  const onFrame = (a, b) =>
    (a[0] === b[0] && (a[0] === 0 || a[0] === W)) || (a[1] === b[1] && (a[1] === 0 || a[1] === H));
  const owners = new Map();
  const shapes = [
    ...board.provinces.map((p) => ({ id: p.id, shape: p.shape || [] })),
    ...(board.features || []).map((f, i) => ({ id: `#${i}`, shape: f.shape || [] })),
  ];
  for (const { id, shape } of shapes) {
    for (let i = 0; i < shape.length; i++) {
      const a = shape[i];
      const b = shape[(i + 1) % shape.length];
      const k = [ptKey(a), ptKey(b)].sort().join("|");
      if (!owners.has(k)) owners.set(k, { a, b, ids: [] });
      owners.get(k).ids.push(id);
    }
  }
  const fmt = (p) => `${p[0].toFixed(1)} ${p[1].toFixed(1)}`;
  const outline = (shape) => {
    if (!shape.length) return "";
    const parts = [`M${fmt(shape[0])}`];
    for (let i = 0; i < shape.length; i++) {
      const a = shape[i];
      const b = shape[(i + 1) % shape.length];
      for (const m of wiggle(a, b, onFrame(a, b))) parts.push(`L${fmt(m)}`);
      parts.push(i === shape.length - 1 ? "Z" : `L${fmt(b)}`);
    }
    return parts.join("");
  };
  const side = ({ a, b }) =>
    `M${fmt(a)}${wiggle(a, b, onFrame(a, b))
      .map((m) => `L${fmt(m)}`)
      .join("")}L${fmt(b)}`;
  const paths = new Map(shapes.map(({ id, shape }) => [id, outline(shape)]));
  const borders = [];
  const coasts = [];
  for (const o of owners.values()) {
    if (o.ids.length >= 2 && o.ids.some((id) => !id.startsWith("#")))
      borders.push({ d: side(o), ids: o.ids });
    else if (o.ids.length === 1 && !onFrame(o.a, o.b)) coasts.push(side(o));
  }
  const geo = {
    W,
    H,
    paths,
    borders,
    coast: coasts.join(""),
    features: (board.features || []).map((f, i) => ({ kind: f.kind, d: paths.get(`#${i}`) })),
  };
  geoCache.set(key, geo);
  return geo;
}

function centroid(shape) {
  if (shape.length < 3) return null;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < shape.length; i++) {
    const [x0, y0] = shape[i];
    const [x1, y1] = shape[(i + 1) % shape.length];
    const f = x0 * y1 - x1 * y0;
    a += f;
    cx += (x0 + x1) * f;
    cy += (y0 + y1) * f;
  }
  return a ? [cx / (3 * a), cy / (3 * a)] : null;
}

// A map for a pack without layout data: provinces on a ring, routes as lines.
function ringLayout(view) {
  const provs = view.board.provinces;
  const n = provs.length || 1;
  const out = new Map();
  provs.forEach((p, i) => {
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    out.set(p.id, [500 + 360 * Math.cos(a), 450 + 340 * Math.sin(a)]);
  });
  return out;
}

// ---- legal moves: which are on the map, which in the panel ----

function classify(c, view) {
  switch (bare(c.type)) {
    case "move_army":
      return [{ kind: "army", src: c.frm, dst: c.to }];
    case "withdraw":
      return [{ kind: "withdraw", src: c.frm || null, dst: c.to }];
    case "move_emissary":
      return [{ kind: "emissary", src: c.frm, dst: c.to }];
    case "raise_troops": {
      const ps = c.provinces || [];
      if (ps.length === 1) return [{ kind: "raise", src: null, dst: ps[0] }];
      if (ps.length === 2)
        return [
          { kind: "raise", src: ps[0], dst: ps[1] },
          { kind: "raise", src: ps[1], dst: ps[0] },
        ];
      return [];
    }
    case "conan_act":
      return [{ kind: "conan_act", src: c.to || view.conan_at, dst: c.raider || null }];
    case "move_conan":
      return [{ kind: "conan", src: null, dst: c.to || view.conan_at }];
    case "attack":
      return [{ kind: "attack", src: null, dst: c.province }];
    case "start_intrigue":
      return [{ kind: "intrigue", src: null, dst: c.province }];
    case "collect_gold":
      return [{ kind: "gold", src: null, dst: c.province }];
    case "build_emissary":
      return [{ kind: "build", src: null, dst: c.province }];
    case "place_garrison":
      return [{ kind: "garrison", src: null, dst: c.province }];
    case "buy":
      return c.province ? [{ kind: "buy", src: null, dst: c.province }] : [];
    default:
      return [];
  }
}

function analyse(legal, view) {
  const onMap = [];
  const panel = [];
  for (const cmd of legal) {
    const places = classify(cmd, view);
    if (places.length) for (const p of places) onMap.push({ cmd, ...p });
    else panel.push(cmd);
  }
  return { onMap, panel };
}

const FROM = {
  army: (p) => `Move units from ${p}…`,
  withdraw: (p) => `Withdraw the army from ${p}…`,
  emissary: (p) => `Move an emissary from ${p}…`,
  raise: (p) => `Raise troops in ${p} and in one more province…`,
  conan_act: (p) =>
    p === pname(memo.conanAt) ? `Conan stays in ${p}, then the raid…` : `Conan goes to ${p}, then the raid…`,
};
const GOAL = {
  army: "where the units go",
  withdraw: "where the army withdraws",
  emissary: "where the emissary goes",
  raise: "the second province",
  conan_act: "where the raiders land",
};

// What the map offers now: targets (province -> commands) and sources
// (province -> kinds of two-step moves starting there).
function offers(moves, ui) {
  const targets = new Map();
  const sources = new Map();
  if (ui.src) {
    for (const m of moves.onMap) {
      if (m.kind !== ui.src.kind || m.src !== ui.src.province || !m.dst) continue;
      if (!targets.has(m.dst)) targets.set(m.dst, []);
      if (!targets.get(m.dst).includes(m.cmd)) targets.get(m.dst).push(m.cmd);
    }
    return { targets, sources };
  }
  for (const m of moves.onMap) {
    if (m.src === null) {
      if (!targets.has(m.dst)) targets.set(m.dst, []);
      if (!targets.get(m.dst).includes(m.cmd)) targets.get(m.dst).push(m.cmd);
    } else {
      if (!sources.has(m.src)) sources.set(m.src, new Set());
      sources.get(m.src).add(m.kind);
    }
  }
  return { targets, sources };
}

// Commands that only exist once a source is picked and need no second province (Conan's "no raid").
function sourceExtras(moves, ui) {
  if (!ui.src) return [];
  return moves.onMap
    .filter((m) => m.kind === ui.src.kind && m.src === ui.src.province && !m.dst)
    .map((m) => m.cmd);
}

// ---- the map ----

// Sieges and battles that stand from turn to turn: an army in another
// player's province (its home or under its marker), or armies of two players
// in one neutral province.
function standoffs(view) {
  const homes = new Map();
  for (const p of view.board?.provinces || []) if (p.home_of) homes.set(p.id, p.home_of);
  const seatOf = new Map((view.seats || []).map((x, i) => [x.kingdom, i]));
  const out = new Map();
  for (const p of view.provinces || []) {
    const st = p.state;
    const armies = (st.units || []).map((n, seat) => (n > 0 ? seat : -1)).filter((seat) => seat >= 0);
    const home = homes.has(p.id) ? seatOf.get(homes.get(p.id)) : undefined;
    const holder = st.owner >= 0 ? st.owner : home !== undefined ? home : -1;
    if (holder >= 0) {
      const besiegers = armies.filter((seat) => seat !== holder);
      if (besiegers.length) out.set(p.id, { kind: "siege", attackers: besiegers, defender: holder });
    } else if (armies.length >= 2) {
      out.set(p.id, { kind: "battle", armies, campaign: st.campaign_owner });
    }
  }
  return out;
}

function standoffWords(id, f, ctx) {
  const who = (seat) => seatName(ctx, seat);
  return f.kind === "siege"
    ? `Siege of ${pname(id)}: ${listWords(f.attackers.map(who))} against ${who(f.defender)}`
    : `Battle in ${pname(id)}: ${listWords(f.armies.map(who))}`;
}

function defs() {
  return s(
    "defs",
    {},
    s(
      "pattern",
      { id: "zc-waves", width: 36, height: 18, patternUnits: "userSpaceOnUse" },
      s("path", {
        d: "M2 10Q6.5 6 11 10T20 10",
        fill: "none",
        stroke: "#ffffff",
        "stroke-opacity": 0.16,
        "stroke-width": 1.4,
      }),
    ),
    s(
      "pattern",
      {
        id: "zc-hatch",
        width: 10,
        height: 10,
        patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)",
      },
      s("rect", { width: 10, height: 10, fill: "#b9b4a8" }),
      s("path", { d: "M0 0V10", stroke: "#9e998d", "stroke-width": 4 }),
    ),
    s(
      "pattern",
      { id: "zc-sand", width: 14, height: 14, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 14, height: 14, fill: "#dcc38c" }),
      s("circle", { cx: 3, cy: 4, r: 1, fill: "#b99a5b" }),
      s("circle", { cx: 10, cy: 10, r: 0.9, fill: "#b99a5b" }),
    ),
    s(
      "pattern",
      { id: "zc-peaks", width: 26, height: 20, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 26, height: 20, fill: "#a99a84" }),
      s("path", {
        d: "M2 16L8 6L14 16M12 12.5L17 5L24 16",
        fill: "none",
        stroke: "#6e604c",
        "stroke-width": 1.6,
        "stroke-linejoin": "round",
      }),
    ),
    s(
      "pattern",
      { id: "zc-wild", width: 12, height: 12, patternUnits: "userSpaceOnUse" },
      s("path", {
        d: "M2 9Q3.5 5 5 9M8 4Q9.5 0 11 4",
        fill: "none",
        stroke: "#5b6b3a",
        "stroke-opacity": 0.45,
        "stroke-width": 1.2,
      }),
    ),
    s(
      "radialGradient",
      { id: "zc-sea", cx: "50%", cy: "45%", r: "75%" },
      s("stop", { offset: "0%", "stop-color": "#4f86a8" }),
      s("stop", { offset: "100%", "stop-color": "#2c5573" }),
    ),
    s(
      "filter",
      { id: "zc-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
      s("feDropShadow", { dx: 1, dy: 1.6, stdDeviation: 1.2, "flood-color": "#000", "flood-opacity": 0.45 }),
    ),
  );
}

function shieldToken(x, y, col, n, label) {
  return s(
    "g",
    { class: "zc-piece", filter: "url(#zc-shadow)" },
    tip(label),
    s("path", {
      d: `M${x - 13} ${y - 14}H${x + 13}V${y + 1}Q${x + 13} ${y + 12} ${x} ${y + 17}Q${x - 13} ${y + 12} ${x - 13} ${y + 1}Z`,
      fill: col.fill,
      stroke: col.dark,
      "stroke-width": 1.8,
    }),
    s(
      "text",
      { x, y: y + 6, "text-anchor": "middle", "font-size": 19, "font-weight": 800, fill: col.ink },
      String(n),
    ),
  );
}

function pawnToken(x, y, col, n, label) {
  return s(
    "g",
    { class: "zc-piece", filter: "url(#zc-shadow)" },
    tip(label),
    s("circle", { cx: x, cy: y - 8, r: 5.5, fill: col.fill, stroke: col.dark, "stroke-width": 1.4 }),
    s("path", {
      d: `M${x - 8} ${y + 11}Q${x - 8} ${y - 1} ${x} ${y - 2.5}Q${x + 8} ${y - 1} ${x + 8} ${y + 11}Z`,
      fill: col.fill,
      stroke: col.dark,
      "stroke-width": 1.4,
    }),
    n > 1
      ? s(
          "text",
          { x: x + 11, y: y + 11, "font-size": 15, "font-weight": 800, fill: "#1d1a14", class: "zc-halo" },
          `×${n}`,
        )
      : null,
  );
}

function markerToken(x, y, col, marker, label) {
  return s(
    "g",
    { class: "zc-piece", filter: "url(#zc-shadow)" },
    tip(label),
    s("rect", {
      x: x - 17,
      y: y - 17,
      width: 34,
      height: 34,
      rx: 7,
      fill: "#fffaf0",
      stroke: col.dark,
      "stroke-width": 1.8,
    }),
    place(glyph(marker, col.fill), x, y, 27),
  );
}

function raiderToken(x, y, n) {
  return s(
    "g",
    { class: "zc-piece", filter: "url(#zc-shadow)" },
    tip(
      `${plural(n, "raider token")}: they help the province defend and cost its owner EP at the change of age`,
    ),
    s("circle", { cx: x, cy: y, r: 13, fill: "#2a1f1a", stroke: "#c7301f", "stroke-width": 2.4 }),
    place(glyph("axe", "#f1d3c8"), x, y, 17),
    n > 1
      ? s(
          "text",
          { x: x + 15, y: y + 6, "font-size": 15, "font-weight": 800, fill: "#5e120d", class: "zc-halo" },
          `×${n}`,
        )
      : null,
  );
}

function conanToken(x, y, player, ctx) {
  const who = player >= 0 ? `; ${seatName(ctx, player)} is the Conan player` : "";
  return s(
    "g",
    { class: "zc-piece zc-conan", filter: "url(#zc-shadow)" },
    tip(`Conan${who}`),
    s("circle", { cx: x, cy: y, r: 19, fill: "#3a2a14", stroke: "#e7b94a", "stroke-width": 3 }),
    place(glyph("helm", "#f3d27a"), x, y - 1, 27),
  );
}

function trackRow(x, y, p, st, ctx, live) {
  const n = p.track.length;
  const size = 17;
  const gap = 3;
  const x0 = x - (n * size + (n - 1) * gap) / 2;
  const g = s("g", { class: "zc-track" });
  const owner = st.campaign_owner;
  p.track.forEach((t, i) => {
    const terr = TERRAIN[t] || { letter: t[0].toUpperCase(), fill: "#ccc", ink: "#000" };
    const cx = x0 + i * (size + gap);
    const here = owner >= 0 && st.campaign_pos === i;
    g.append(
      s(
        "g",
        {},
        tip(
          `Campaign track, space ${i + 1} of ${n}: ${t}${here ? ` — ${seatName(ctx, owner)}'s campaign stands here` : ""}`,
        ),
        s("rect", {
          x: cx,
          y,
          width: size,
          height: size,
          rx: 3,
          fill: terr.fill,
          stroke: "#4b3a1e",
          "stroke-width": 1,
        }),
        s(
          "text",
          {
            x: cx + size / 2,
            y: y + 12.8,
            "text-anchor": "middle",
            "font-size": 12,
            "font-weight": 700,
            fill: terr.ink,
          },
          terr.letter,
        ),
      ),
    );
    if (here) {
      const col = colourOf(owner);
      g.append(
        s("circle", {
          cx: cx + size / 2,
          cy: y + size / 2,
          r: 11,
          fill: "none",
          stroke: col.fill,
          "stroke-width": 4,
          class: live ? "zc-pulse" : "",
        }),
      );
    }
  });
  return g;
}

function drawMap(view, ctx, moves, ui, act) {
  const board = view.board;
  const laid = board.width > 0 && board.provinces.every((p) => p.shape && p.shape.length >= 3);
  const W = laid ? board.width : 1000;
  const H = laid ? board.height : 900;
  const svg = s("svg", {
    class: `zc-board${ui.src ? " zc-picking" : ""}`,
    viewBox: `0 0 ${W} ${H}`,
    role: "group",
    "aria-label": "The map of Hyboria: provinces, armies, Conan and the campaigns",
    preserveAspectRatio: "xMidYMid meet",
  });
  svg.append(
    defs(),
    s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#zc-sea)" }),
    s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#zc-waves)" }),
  );

  const states = new Map((view.provinces || []).map((p) => [p.id, p.state]));
  const inPlay = new Set(view.zones || []);
  const seatOfKingdom = new Map((view.seats || []).map((x, i) => [x.kingdom, i]));
  const contest = [...(view.phases || [])]
    .reverse()
    .find((p) => p.phase === "contest" || p.phase === "after_contest" || p.phase === "retreat");
  const fight = contest ? contest.province : null;
  const target = [...(view.phases || [])].reverse().find((p) => p.phase === "military" && p.target);
  const centre = laid ? null : ringLayout(view);
  const fights = standoffs(view);
  const anchor = (p) => (laid ? [p.x, p.y] : centre.get(p.id));
  const { targets, sources } = offers(moves, ui);

  const land = s("g", { class: "zc-land" });
  const over = s("g", { class: "zc-overlays" });
  const pieces = s("g", { class: "zc-pieces" });
  const labels = s("g", { class: "zc-labels" });
  const fixups = [];
  svg.fixups = fixups;

  if (laid) {
    const geo = geometry(view);
    const halo = s("g", {
      fill: "#8fb7c9",
      stroke: "#8fb7c9",
      "stroke-width": 18,
      "stroke-linejoin": "round",
    });
    for (const d of geo.paths.values()) halo.append(s("path", { d }));
    svg.append(halo);
    for (const f of geo.features) {
      const fill = f.kind === "mountains" ? "url(#zc-peaks)" : "url(#zc-sand)";
      land.append(
        s(
          "path",
          { d: f.d, fill, stroke: "none" },
          tip(
            f.kind === "mountains"
              ? "Mountains: no province, nobody enters"
              : "Desert: no province, nobody enters",
          ),
        ),
      );
    }
    for (const p of board.provinces) {
      const st = states.get(p.id) || { units: [], emissaries: [], owner: -1 };
      const d = geo.paths.get(p.id);
      const playing = inPlay.has(p.zone);
      const home = p.home_of ? seatOfKingdom.get(p.home_of) : undefined;
      const holder = st.owner >= 0 ? st.owner : home;
      let fill = ZONE_FILL[p.zone] || "#e9dbb3";
      if (!playing) fill = "url(#zc-hatch)";
      else if (holder !== undefined && holder >= 0) fill = colourOf(holder).light;
      const g = s("g", { class: "zc-prov", "data-province": p.id });
      g.append(s("path", { d, fill, stroke: "none" }));
      if (playing && p.savage) g.append(s("path", { d, fill: "url(#zc-wild)" }));
      if (playing && holder !== undefined && holder >= 0) {
        const col = colourOf(holder);
        const clip = `zc-clip-${p.id}`;
        g.append(s("clipPath", { id: clip }, s("path", { d })));
        g.append(
          s("path", {
            d,
            fill: "none",
            stroke: col.fill,
            "stroke-width": home !== undefined ? 14 : 8,
            "stroke-opacity": home !== undefined ? 0.85 : 0.6,
            "clip-path": `url(#${clip})`,
          }),
        );
      }
      land.append(g);
    }
    const borders = s("g", {
      fill: "none",
      stroke: "#6b5330",
      "stroke-width": 1.6,
      "stroke-dasharray": "5 3",
      "stroke-linecap": "round",
    });
    for (const b of geo.borders) borders.append(s("path", { d: b.d }));
    land.append(
      borders,
      s("path", {
        d: geo.coast,
        fill: "none",
        stroke: "#3c2f1b",
        "stroke-width": 2.4,
        "stroke-linejoin": "round",
      }),
    );
    for (const lb of board.labels || []) {
      const sea = lb.kind === "sea";
      labels.append(
        s(
          "text",
          {
            x: lb.x,
            y: lb.y,
            "text-anchor": "middle",
            class: sea ? "zc-sea-label" : "zc-wild-label",
            transform: lb.angle ? `rotate(${lb.angle} ${lb.x} ${lb.y})` : null,
          },
          lb.name,
        ),
      );
    }
    for (const z of board.zones || []) {
      if (inPlay.has(z.id)) continue;
      labels.append(
        s(
          "text",
          { x: z.x, y: z.y, "text-anchor": "middle", class: "zc-zone-label" },
          `${humanize(z.id)}: out of play`,
        ),
      );
    }
  } else {
    const routes = s("g", { stroke: "#6b5330", "stroke-width": 3 });
    for (const [a, b] of board.routes || []) {
      const [x1, y1] = centre.get(a);
      const [x2, y2] = centre.get(b);
      routes.append(s("line", { x1, y1, x2, y2 }));
    }
    land.append(routes);
    for (const p of board.provinces) {
      const [x, y] = centre.get(p.id);
      const st = states.get(p.id) || { owner: -1 };
      const home = p.home_of ? seatOfKingdom.get(p.home_of) : undefined;
      const holder = st.owner >= 0 ? st.owner : home;
      const fill = !inPlay.has(p.zone)
        ? "url(#zc-hatch)"
        : holder !== undefined && holder >= 0
          ? colourOf(holder).light
          : ZONE_FILL[p.zone] || "#e9dbb3";
      const ring = holder !== undefined && holder >= 0 ? colourOf(holder).fill : "#6b5330";
      land.append(
        s(
          "g",
          { class: "zc-prov", "data-province": p.id },
          s("circle", {
            cx: x,
            cy: y,
            r: 70,
            fill,
            stroke: ring,
            "stroke-width": home !== undefined ? 8 : 3,
          }),
        ),
      );
    }
  }
  if (laid) {
    // Adjacent provinces without a common border: a mountain pass.
    const routes = s("g", { class: "zc-routes" });
    const byId = new Map(board.provinces.map((p) => [p.id, p]));
    for (const [a, b] of board.routes || []) {
      const pa = byId.get(a);
      const pb = byId.get(b);
      if (!pa || !pb) continue;
      // Through the land in between (a mountain pass) when some lies near the middle.
      const mx = (pa.x + pb.x) / 2;
      const my = (pa.y + pb.y) / 2;
      let via = null;
      for (const f of board.features || []) {
        const c = centroid(f.shape || []);
        if (
          c &&
          Math.hypot(c[0] - mx, c[1] - my) < 120 &&
          (!via || Math.hypot(c[0] - mx, c[1] - my) < Math.hypot(via[0] - mx, via[1] - my))
        )
          via = c;
      }
      const d = via
        ? `M${pa.x} ${pa.y}Q${(2 * via[0] - mx).toFixed(1)} ${(2 * via[1] - my).toFixed(1)} ${pb.x} ${pb.y}`
        : `M${pa.x} ${pa.y}L${pb.x} ${pb.y}`;
      routes.append(
        s(
          "g",
          {},
          tip(`${pname(a)} and ${pname(b)} are adjacent (a pass)`),
          s("path", {
            d,
            fill: "none",
            stroke: "#fff8e6",
            "stroke-width": 7,
            "stroke-linecap": "round",
            "stroke-opacity": 0.85,
          }),
          s("path", {
            d,
            fill: "none",
            stroke: "#6b5330",
            "stroke-width": 3,
            "stroke-dasharray": "2 7",
            "stroke-linecap": "round",
          }),
        ),
      );
    }
    land.append(routes);
  }
  svg.append(land);

  for (const p of board.provinces) {
    const st = states.get(p.id) || {
      units: [],
      emissaries: [],
      owner: -1,
      marker: "",
      raiders: 0,
      campaign_owner: -1,
      campaign_pos: 0,
    };
    const [x, y] = anchor(p);
    const playing = inPlay.has(p.zone);
    const home = p.home_of ? seatOfKingdom.get(p.home_of) : undefined;
    // name (one or two lines), value coin, home crown, savage skull, destination flag;
    // the coin and icons are moved beside the name once its width is known
    const name = p.name.toUpperCase();
    const lines =
      name.length > 12 && name.includes(" ")
        ? [name.slice(0, name.indexOf(" ")), name.slice(name.indexOf(" ") + 1)]
        : [name];
    const top = y - 30 - (lines.length - 1) * 19;
    const texts = lines.map((line, i) =>
      s(
        "text",
        { x, y: top + i * 19, "text-anchor": "middle", class: `zc-name${playing ? "" : " zc-off"}` },
        line,
      ),
    );
    labels.append(...texts);
    const mid = top - 6.5;
    const coin = s(
      "g",
      {},
      tip(`${p.name}: value ${p.value}`),
      s("circle", { cx: 0, cy: 0, r: 11.5, fill: "#f6e7b0", stroke: "#6b4f12", "stroke-width": 1.6 }),
      s(
        "text",
        { x: 0, y: 5.3, "text-anchor": "middle", "font-size": 15, "font-weight": 800, fill: "#4a3508" },
        String(p.value),
      ),
    );
    const icons = s("g", {});
    let right = 0;
    if (home !== undefined) {
      icons.append(
        s(
          "g",
          {},
          tip(`The home of ${kname(p.home_of)}`),
          place(glyph("crown", colourOf(home).dark), right + 9, 0, 19),
        ),
      );
      right += 21;
    }
    if (p.savage) {
      icons.append(s("g", {}, tip("A savage province"), place(glyph("skull", "#4b3a1e"), right + 8, 0, 17)));
      right += 20;
    }
    if (view.destination === p.id)
      icons.append(
        s(
          "g",
          { class: "zc-dest" },
          tip("Conan's destination"),
          place(glyph("flag", "#b3261e"), right + 12, -4, 25),
        ),
      );
    labels.append(coin, icons);
    const guess = lines[0].length * 14.2;
    const fit = (width) => {
      coin.setAttribute("transform", `translate(${(x - width / 2 - 15).toFixed(1)} ${mid.toFixed(1)})`);
      icons.setAttribute("transform", `translate(${(x + width / 2 + 5).toFixed(1)} ${mid.toFixed(1)})`);
    };
    fit(guess);
    fixups.push(() => {
      let width = 0;
      try {
        width = texts[0].getComputedTextLength();
      } catch {
        width = 0;
      }
      if (width > 0) fit(width);
    });
    // pieces (out of play, only Conan and raiders may stand there)
    const tokens = [];
    if (fight === p.id) {
      tokens.push({
        w: 34,
        draw: (cx, cy) =>
          s(
            "g",
            {},
            tip("A contest is being fought here"),
            s("circle", {
              cx,
              cy,
              r: 15,
              fill: "#b3261e",
              stroke: "#fff",
              "stroke-width": 2,
              class: "zc-pulse",
            }),
            place(glyph("swords", "#fff"), cx, cy, 19),
          ),
      });
    } else if (target && target.target === p.id) {
      tokens.push({
        w: 32,
        draw: (cx, cy) =>
          s(
            "g",
            {},
            tip("The Military action must fight here"),
            s("circle", { cx, cy, r: 13, fill: "#7a3b0c", stroke: "#fff", "stroke-width": 2 }),
            place(glyph("swords", "#fff"), cx, cy, 16),
          ),
      });
    } else if (fights.has(p.id)) {
      const f = fights.get(p.id);
      tokens.push({
        w: 32,
        draw: (cx, cy) =>
          s(
            "g",
            {},
            tip(`${standoffWords(p.id, f, ctx)} (goes on from turn to turn)`),
            s("rect", {
              x: cx - 13,
              y: cy - 13,
              width: 26,
              height: 26,
              rx: 5,
              fill: "#5a3a1a",
              stroke: "#f0c36a",
              "stroke-width": 2,
              transform: `rotate(45 ${cx} ${cy})`,
            }),
            place(glyph(f.kind === "siege" ? "fort" : "swords", "#f6e3b0"), cx, cy, 15),
          ),
      });
    }
    if (view.conan_at === p.id)
      tokens.push({ w: 44, draw: (cx, cy) => conanToken(cx, cy, view.conan_player, ctx) });
    if (st.marker && st.owner >= 0) {
      const col = colourOf(st.owner);
      tokens.push({
        w: 40,
        draw: (cx, cy) =>
          markerToken(cx, cy - 1, col, st.marker, `${seatName(ctx, st.owner)}'s ${st.marker}`),
      });
    }
    (st.units || []).forEach((n, seat) => {
      if (n > 0)
        tokens.push({
          w: 31,
          draw: (cx, cy) =>
            shieldToken(cx, cy, colourOf(seat), n, `${plural(n, "unit")} of ${seatName(ctx, seat)}`),
        });
    });
    const second = [];
    (st.emissaries || []).forEach((n, seat) => {
      if (n > 0)
        second.push({
          w: n > 1 ? 38 : 22,
          draw: (cx, cy) =>
            pawnToken(
              cx - (n > 1 ? 8 : 0),
              cy + 1,
              colourOf(seat),
              n,
              `${plural(n, "emissary", "emissaries")} of ${seatName(ctx, seat)}`,
            ),
        });
    });
    if (st.raiders > 0)
      second.push({
        w: st.raiders > 1 ? 44 : 30,
        draw: (cx, cy) => raiderToken(cx - (st.raiders > 1 ? 8 : 0), cy + 1, st.raiders),
      });
    const row = (items, cy) => {
      const total = items.reduce((a, t) => a + t.w, 0);
      let cx = x - total / 2;
      for (const t of items) {
        pieces.append(t.draw(cx + t.w / 2, cy));
        cx += t.w;
      }
    };
    const width = (items) => items.reduce((a, t) => a + t.w, 0);
    let trackY = y + 26;
    if (width(tokens) + width(second) <= 150) row([...tokens, ...second], y);
    else {
      row(tokens, y);
      row(second, y + 30);
      trackY = y + 52;
    }
    if (playing) pieces.append(trackRow(x, trackY, p, st, ctx, fight === p.id));
  }
  svg.append(pieces, labels);

  // Highlights of the contest and of the legal moves, on top.
  for (const p of board.provinces) {
    const d = laid
      ? geometry(view).paths.get(p.id)
      : (() => {
          const [x, y] = centre.get(p.id);
          return `M${x - 70} ${y}a70 70 0 1 0 140 0a70 70 0 1 0 -140 0`;
        })();
    if (fight === p.id)
      svg.append(s("path", { d, class: "zc-fight", fill: "none", "pointer-events": "none" }));
    const cmds = targets.get(p.id);
    const kinds = sources.get(p.id);
    const selected = ui.src && ui.src.province === p.id;
    if (!cmds && !kinds && !selected) continue;
    const pending = ui.pending && ui.pending.province === p.id;
    const cls = cmds ? `legal${pending ? " zc-pending" : ""}` : selected ? "zc-selected" : "zc-source";
    const text = cmds
      ? cmds.length === 1
        ? label(cmds[0], ctx)
        : `${pname(p.id)}: ${plural(cmds.length, "move")}`
      : selected
        ? `${pname(p.id)} (chosen; press to choose again)`
        : [...kinds].map((k) => FROM[k](pname(p.id))).join(" or ");
    const el = s(
      "path",
      {
        d,
        class: cls,
        tabindex: "0",
        role: "button",
        "aria-label": text,
        "data-province": p.id,
        "data-key": `prov:${p.id}`,
        "data-command": cmds ? JSON.stringify(pending ? ui.pending.cmd : cmds[0]) : null,
        "data-source": kinds ? [...kinds].join(" ") : null,
      },
      tip(text),
    );
    const go = (ev) => {
      ev.preventDefault();
      act.province(p.id);
    };
    el.addEventListener("click", go);
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") go(ev);
    });
    over.append(el);
  }
  svg.append(over);
  return svg;
}

// ---- the side panel ----

function section(heading, attrs, ...kids) {
  return h("section", { class: "zc-sec", ...attrs }, heading ? h("h3", {}, heading) : null, ...kids);
}

function chip(text, attrs = {}) {
  return h("span", { class: "zc-chip", ...attrs }, text);
}

function swatch(seat, size = 16) {
  const col = colourOf(seat);
  return mini(
    size,
    s("rect", {
      x: 1,
      y: 1,
      width: 18,
      height: 18,
      rx: 4,
      fill: col.fill,
      stroke: col.dark,
      "stroke-width": 1.5,
    }),
  );
}

function cardChip(id, extra = {}) {
  const info = memo.cards.get(id);
  const text = info ? info.text : "";
  const bid =
    info && info.kind === "strategy"
      ? h("span", { class: "zc-bidv", title: "bid value" }, String(info.value))
      : null;
  return h(
    "span",
    {
      class: `zc-card zc-${info ? info.kind : "card"}${extra.exhausted ? " zc-tapped" : ""}`,
      title: text || cname(id),
    },
    bid,
    cname(id),
    extra.count > 1 ? h("b", {}, ` ×${extra.count}`) : null,
    extra.exhausted ? h("span", { class: "zc-small" }, " (used)") : null,
  );
}

function nowWords(view, doc, ctx) {
  if (doc.over) return "The game is over.";
  const top = topPhase(view);
  const waiting = (doc.actors || []).map((x) => seatName(ctx, x));
  const you = ctx.seat !== null && ctx.seat !== undefined && (doc.actors || []).includes(ctx.seat);
  let text = top ? phaseSentence(top, ctx, false) : "";
  if (top && top.phase === "bidding" && top.step === "sealed")
    text = `Bidding for Conan: ${listWords(waiting) || "nobody"} still to bid.`;
  if (top && top.phase === "age_change" && waiting.length)
    text = `${phaseSentence(top, ctx, false)} Waiting for ${listWords(waiting)}.`;
  if (top && top.phase === "turn" && top.step === "conan")
    text = `${seatName(ctx, top.seat)}'s turn: Conan's free move.`;
  return you ? `${text} It is your move.` : text;
}

function statusBox(view, doc, ctx) {
  const adv = memo.cards.get(view.adventure);
  const track = [];
  for (let i = 0; i < view.track; i++)
    track.push(
      mini(
        16,
        s("circle", { cx: 10, cy: 10, r: 8, fill: "#6b4f12", stroke: "#e7b94a", "stroke-width": 2 }),
        s(
          "text",
          { x: 10, y: 14, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#f3d27a" },
          "?",
        ),
      ),
    );
  return section(
    null,
    { "data-zc": "status", class: "zc-sec zc-status-box" },
    h(
      "div",
      { class: "zc-age" },
      `Age ${ROMAN[view.age] || view.age}`,
      h("span", { class: "zc-sub" }, ` · ${plural(view.adventures_left_in_age, "more adventure")} this age`),
    ),
    view.adventure
      ? h(
          "div",
          { class: "zc-adv", title: adv ? adv.text : "" },
          mini(18, glyph("flag", "#b3261e")),
          " ",
          h("b", {}, adv ? adv.name : humanize(view.adventure)),
          ` → ${pname(view.destination)}`,
        )
      : h("div", { class: "zc-adv zc-sub" }, "No adventure under way."),
    h(
      "div",
      {
        class: "zc-row zc-sub",
        title: "Adventure tokens on the track, face down; Conan's moves take or discard the leftmost",
      },
      "Track: ",
      track.length ? track : "empty",
      ` · ${view.container} in the container`,
    ),
    h(
      "div",
      { class: "zc-sub" },
      view.conan_player >= 0
        ? `Conan player: ${seatName(ctx, view.conan_player)} · `
        : "No Conan player yet · ",
      `first player: ${seatName(ctx, view.first_player)}`,
      view.crowned >= 0 ? ` · Conan was crowned by ${seatName(ctx, view.crowned)}` : "",
    ),
    standing(view, ctx),
    h("p", { class: "zc-now", "aria-live": "polite" }, nowWords(view, doc, ctx)),
  );
}

function standing(view, ctx) {
  const fights = [...standoffs(view)];
  if (!fights.length) return null;
  return h(
    "div",
    { class: "zc-small", "data-zc": "standoffs" },
    h("b", {}, "Sieges and battles: "),
    fights.map(([id, f]) => standoffWords(id, f, ctx)).join("; "),
    ".",
  );
}

function fateBox(view) {
  const dice = (view.fate_pool || []).map((f) => fateDie(f, 30));
  return section(
    "Fate pool",
    { "data-zc": "fate" },
    h(
      "div",
      { class: "zc-row" },
      dice.length ? dice : h("span", { class: "zc-sub" }, "Empty: the next player rerolls all seven dice."),
    ),
    h("div", { class: "zc-sub" }, `${plural(dice.length, "die", "dice")} left this round`),
  );
}

function sideRow(side, _phase, _ctx, who) {
  const dice = (side.dice || []).map((f) => contestDie(f, 24));
  const bits = [];
  if (side.cards?.length)
    bits.push(
      h(
        "span",
        {},
        "cards: ",
        side.cards.map((c) => cardChip(c)),
      ),
    );
  if (side.extra_dice) bits.push(chip(`+${plural(side.extra_dice, "die", "dice")}`));
  if (side.conan)
    bits.push(
      chip("Conan helps", {
        class: "zc-chip zc-conan-chip",
        title: "one more die, and each hit-and-sword counts twice",
      }),
    );
  if (side.rerolled) bits.push(chip("rerolled"));
  return h(
    "div",
    { class: "zc-side" },
    h("div", { class: "zc-side-name" }, who),
    h(
      "div",
      { class: "zc-row" },
      dice.length ? dice : h("span", { class: "zc-sub" }, "not rolled yet"),
      bits,
    ),
  );
}

function contestBox(view, ctx) {
  const phases = view.phases || [];
  const c = [...phases].reverse().find((p) => p.phase === "contest");
  const after = [...phases].reverse().find((p) => p.phase === "after_contest" || p.phase === "retreat");
  if (!c && !after) return null;
  if (!c) {
    const text =
      after.phase === "retreat"
        ? `${seatName(ctx, after.seat)} may fall back from ${pname(after.province)} after the battle.`
        : `${seatName(ctx, after.seat)} ${after.won ? "won" : "lost"} the ${after.kind} in ${pname(after.province)}: a forced march, a withdrawal, or stop.`;
    return section(
      "After the contest",
      { "data-zc": "contest", class: "zc-sec zc-contest" },
      h("p", {}, text),
    );
  }
  const p = memo.provinces.get(c.province);
  const track = p ? p.track : [];
  const pos = track.indexOf(c.terrain);
  const defender =
    c.defender.seat >= 0
      ? seatName(ctx, c.defender.seat)
      : `${pname(c.province)} (value ${p ? p.value : "?"}${provinceState(view, c.province)?.raiders ? ", with raiders" : ""})`;
  const committed = (view.seats || [])
    .map((x, i) => (x.contest_card_committed ? seatName(ctx, i) : null))
    .filter(Boolean);
  return section(
    `${KIND[c.kind] || cap(c.kind)} in ${pname(c.province)}`,
    { "data-zc": "contest", class: "zc-sec zc-contest" },
    h(
      "div",
      { class: "zc-sub" },
      `Terrain: ${c.terrain}${pos >= 0 && track.length > 1 ? ` (campaign space ${pos + 1} of ${track.length})` : ""}${c.split ? " · split attack: no forced march" : ""}`,
    ),
    sideRow(c.attacker, c, ctx, `Attacker: ${seatName(ctx, c.attacker.seat)}`),
    sideRow(c.defender, c, ctx, `Defender: ${defender}`),
    committed.length && c.step.endsWith("_card")
      ? h("div", { class: "zc-sub" }, `Cards committed face down: ${listWords(committed)}`)
      : null,
    h("p", { class: "zc-now" }, phaseSentence(c, ctx, false)),
  );
}

function biddingBox(view, doc, ctx) {
  const b = [...(view.phases || [])].reverse().find((p) => p.phase === "bidding");
  if (!b) return null;
  const rows = (view.seats || []).map((x, i) => {
    const shown = (b.revealed || []).find((r) => r.seat === i);
    const state = shown
      ? h(
          "span",
          {},
          `${shown.token}`,
          shown.card ? [" + ", cardChip(shown.card)] : " + no card",
          h("b", {}, ` = ${shown.value}`),
        )
      : x.bid_placed
        ? h("span", { class: "zc-good" }, "bid laid face down")
        : (doc.actors || []).includes(i)
          ? h("span", { class: "zc-sub" }, "choosing…")
          : h("span", { class: "zc-sub" }, "—");
    return h(
      "div",
      { class: "zc-bidrow" },
      swatch(i),
      h("span", { class: "zc-pname" }, seatName(ctx, i)),
      state,
    );
  });
  return section(
    "Bidding for Conan",
    { "data-zc": "bidding" },
    rows,
    h(
      "div",
      { class: "zc-sub" },
      "Highest token + card value wins; ties go to fewer adventure tokens, then the kingdom closest to Conan.",
    ),
  );
}

function playersBox(view, doc, ctx) {
  const onMap = (key, seat) =>
    (view.provinces || []).reduce((a, p) => a + ((p.state[key] || [])[seat] || 0), 0);
  const rows = (view.seats || []).map((x, i) => {
    const toMove = !doc.over && (doc.actors || []).includes(i);
    const k = memo.kingdoms.get(x.kingdom);
    const badges = [];
    if (view.conan_player === i) badges.push(chip("Conan player", { class: "zc-chip zc-conan-chip" }));
    if (view.first_player === i) badges.push(chip("1st player"));
    if (x.dead) badges.push(chip("killed by Conan", { class: "zc-chip zc-bad" }));
    if (ctx.seat === i) badges.push(chip("you", { class: "zc-chip zc-you" }));
    const stats = h(
      "div",
      { class: "zc-stats" },
      h("span", { title: "gold" }, mini(14, glyph("coin")), ` ${x.gold}`),
      h("span", { title: "sorcery tokens" }, mini(14, glyph("flame", "#7b2fb3")), ` ${x.sorcery}`),
      h("span", { title: "Crom! Count the dead! tokens" }, mini(14, glyph("skull", "#3b3b3b")), ` ${x.crom}`),
      h(
        "span",
        { title: "units on the map" },
        mini(14, glyph("shield", colourOf(i).fill)),
        ` ${onMap("units", i)}`,
      ),
      h(
        "span",
        { title: "emissaries on the map" },
        mini(14, glyph("pawn", colourOf(i).fill)),
        ` ${onMap("emissaries", i)}`,
      ),
      h(
        "span",
        { title: "strategy cards / kingdom cards in hand" },
        mini(14, glyph("scroll", "#5b4a2a")),
        ` ${x.strategy_cards}/${x.kingdom_cards}`,
      ),
      h(
        "span",
        { title: "adventure tokens (face down)" },
        mini(14, glyph("star", "#b07d12")),
        ` ${x.adventure_tokens}${x.token_pending ? "+1" : ""}`,
      ),
    );
    const bids = h(
      "div",
      { class: "zc-row zc-small", title: "bidding tokens: at hand, and set aside" },
      "Bids: ",
      (x.bid_available || []).map((t) => h("span", { class: "zc-tok" }, String(t))),
      (x.bid_spent || []).map((t) => h("span", { class: "zc-tok zc-spent" }, String(t))),
    );
    const table = (x.table || []).length
      ? h(
          "div",
          { class: "zc-row zc-small" },
          "Table: ",
          x.table.map((t) => cardChip(t.card, { exhausted: t.exhausted })),
        )
      : null;
    const arts = [...(x.artifacts || []), ...(x.bonus ? ["conan_bonus"] : [])];
    const artifacts = arts.length
      ? h(
          "div",
          { class: "zc-row zc-small" },
          "Artifacts: ",
          arts.map((a) => cardChip(a)),
        )
      : null;
    const secret = [];
    if (x.bid_placed) secret.push("bid laid");
    if (x.contest_card_committed) secret.push("contest card committed");
    if (x.category_chosen) secret.push("category chosen");
    return h(
      "div",
      { class: `zc-player${toMove ? " zc-turn" : ""}`, "data-seat": i },
      h(
        "div",
        { class: "zc-phead" },
        swatch(i, 18),
        h("span", { class: "zc-pname" }, seatName(ctx, i)),
        h("span", { class: "zc-sub" }, ` ${k ? k.name : humanize(x.kingdom)}`),
        h("span", { class: "zc-ep", title: "empire points" }, `${x.ep} EP`),
      ),
      badges.length ? h("div", { class: "zc-row" }, badges) : null,
      stats,
      bids,
      table,
      artifacts,
      secret.length ? h("div", { class: "zc-small zc-sub" }, secret.join(" · ")) : null,
    );
  });
  return section("Players", { "data-zc": "players" }, rows);
}

// Copies of a card as one chip with a count.
function grouped(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts].map(([c, n]) => cardChip(c, { count: n }));
}

function handBox(view) {
  const me = view.me;
  if (!me) return null;
  const tokens = new Map();
  for (const [cat, value] of me.tokens || []) {
    if (!tokens.has(cat)) tokens.set(cat, []);
    tokens.get(cat).push(value);
  }
  const strategy = [...(me.strategy_hand || [])];
  const kingdom = [...(me.kingdom_hand || [])];
  return section(
    "Your hand",
    { "data-zc": "hand" },
    h("div", { class: "zc-label" }, `Strategy cards (${strategy.length})`),
    h(
      "div",
      { class: "zc-row" },
      strategy.length ? grouped(strategy) : h("span", { class: "zc-sub" }, "none"),
    ),
    h("div", { class: "zc-label" }, `Kingdom cards (${kingdom.length})`),
    h("div", { class: "zc-row" }, kingdom.length ? grouped(kingdom) : h("span", { class: "zc-sub" }, "none")),
    h("div", { class: "zc-label" }, "Adventure tokens"),
    h(
      "div",
      { class: "zc-row" },
      tokens.size
        ? [...tokens].map(([cat, vs]) =>
            chip(`${CATEGORY[cat] || cat}: ${vs.join(", ")} (${vs.reduce((a, b) => a + b, 0)})`),
          )
        : h("span", { class: "zc-sub" }, "none"),
    ),
    me.pending_token
      ? h(
          "div",
          { class: "zc-row" },
          chip(
            `just received: ${CATEGORY[me.pending_token[0]] || me.pending_token[0]} ${me.pending_token[1]}`,
            { class: "zc-chip zc-you" },
          ),
        )
      : null,
    me.sealed_bid
      ? h(
          "div",
          { class: "zc-small" },
          `Your sealed bid: the ${me.sealed_bid.token} token${me.sealed_bid.card ? ` with ${cname(me.sealed_bid.card)}` : ""}`,
        )
      : null,
    me.sealed_cards?.length
      ? h("div", { class: "zc-small" }, `Committed face down: ${listWords(me.sealed_cards.map(cname))}`)
      : null,
    me.sealed_category
      ? h(
          "div",
          { class: "zc-small" },
          `Your secret category: ${CATEGORY[me.sealed_category] || me.sealed_category}`,
        )
      : null,
  );
}

function objectivesBox(view) {
  const objs = (view.objectives || []).map((o) => {
    const info = memo.cards.get(o);
    return h(
      "li",
      { title: info ? info.text : "" },
      h("b", {}, info ? info.name : humanize(o)),
      info ? ` — ${info.text}` : "",
    );
  });
  return section(
    "Objectives",
    { "data-zc": "objectives" },
    objs.length ? h("ul", { class: "zc-list" }, objs) : h("span", { class: "zc-sub" }, "none"),
    h(
      "div",
      { class: "zc-sub zc-small" },
      `Strategy deck ${view.strategy_deck} · discards ${(view.strategy_discard || []).length}`,
    ),
  );
}

function legend() {
  const item = (icon, text) => h("div", {}, icon, h("span", {}, text));
  const col = KCOL.red;
  return h(
    "details",
    { class: "zc-legend", open: true, "data-zc": "legend" },
    h("summary", {}, "Legend"),
    h(
      "div",
      { class: "zc-legend-grid" },
      item(
        mini(
          20,
          s("path", { d: "M3 2H17V11Q17 16 10 18.5Q3 16 3 11Z", fill: col.fill, stroke: col.dark }),
          s(
            "text",
            { x: 10, y: 13, "text-anchor": "middle", "font-size": 9, "font-weight": 800, fill: "#fff" },
            "3",
          ),
        ),
        "army (units)",
      ),
      item(mini(20, glyph("pawn", col.fill)), "emissary"),
      item(mini(20, glyph("tower", col.fill)), "tower (alliance)"),
      item(mini(20, glyph("fort", col.fill)), "fort (subjugated)"),
      item(mini(20, glyph("city", col.fill)), "city"),
      item(
        mini(
          20,
          s("circle", { cx: 10, cy: 10, r: 9, fill: "#2a1f1a", stroke: "#c7301f", "stroke-width": 2 }),
          place(glyph("axe", "#f1d3c8"), 10, 10, 12),
        ),
        "raiders",
      ),
      item(
        mini(
          20,
          s("circle", { cx: 10, cy: 10, r: 9, fill: "#3a2a14", stroke: "#e7b94a", "stroke-width": 2 }),
          place(glyph("helm", "#f3d27a"), 10, 10, 13),
        ),
        "Conan",
      ),
      item(mini(20, glyph("flag", "#b3261e")), "his destination"),
      item(
        mini(
          20,
          s("circle", { cx: 10, cy: 10, r: 8.5, fill: "#f6e7b0", stroke: "#6b4f12", "stroke-width": 1.5 }),
          s(
            "text",
            { x: 10, y: 14, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: "#4a3508" },
            "3",
          ),
        ),
        "province value",
      ),
      item(mini(20, glyph("crown", "#5e120d")), "a kingdom's home"),
      item(mini(20, glyph("skull", "#4b3a1e")), "savage province"),
      item(
        h(
          "span",
          { class: "zc-terrains" },
          Object.values(TERRAIN).map((t) =>
            h("span", { style: `background:${t.fill};color:${t.ink}` }, t.letter),
          ),
        ),
        "campaign track: plains, hills, woods, city",
      ),
      item(
        mini(
          20,
          s("rect", { x: 2, y: 2, width: 16, height: 16, rx: 3, fill: "#c9dc8f", stroke: "#4b3a1e" }),
          s("circle", { cx: 10, cy: 10, r: 7.5, fill: "none", stroke: col.fill, "stroke-width": 3 }),
        ),
        "campaign marker",
      ),
      item(
        mini(
          20,
          s("circle", { cx: 10, cy: 10, r: 9, fill: "#b3261e" }),
          place(glyph("swords", "#fff"), 10, 10, 12),
        ),
        "contest being fought",
      ),
      item(
        mini(
          20,
          s("rect", {
            x: 4,
            y: 4,
            width: 12,
            height: 12,
            rx: 2,
            fill: "#5a3a1a",
            stroke: "#f0c36a",
            "stroke-width": 1.5,
            transform: "rotate(45 10 10)",
          }),
          place(glyph("fort", "#f6e3b0"), 10, 10, 8),
        ),
        "siege or battle going on",
      ),
      item(
        mini(
          20,
          s("rect", {
            x: 1,
            y: 1,
            width: 18,
            height: 18,
            rx: 3,
            fill: "rgba(255,225,80,.45)",
            stroke: "#ffcf00",
            "stroke-width": 3,
          }),
        ),
        "you may move here",
      ),
      item(
        mini(
          20,
          s("rect", {
            x: 2,
            y: 2,
            width: 16,
            height: 16,
            rx: 3,
            fill: "#d8e4ee",
            stroke: "#fff",
            "stroke-width": 2.5,
            "stroke-dasharray": "4 2",
          }),
        ),
        "a move may start here",
      ),
      item(
        mini(
          20,
          s("line", {
            x1: 2,
            y1: 10,
            x2: 18,
            y2: 10,
            stroke: "#6b5330",
            "stroke-width": 3,
            "stroke-dasharray": "2 4",
            "stroke-linecap": "round",
          }),
        ),
        "pass between adjacent provinces",
      ),
      item(
        mini(20, s("rect", { x: 1, y: 1, width: 18, height: 18, fill: "url(#zc-hatch)", stroke: "#888" })),
        "out of play",
      ),
    ),
  );
}

// ---- moves: state that survives redrawing one version of the view ----

let ui = {
  key: "",
  src: null,
  choose: null,
  pending: null,
  msg: "",
  busy: false,
  bid: { token: null, card: undefined },
};

function uiFor(doc, seat) {
  const key = `${doc.game_id || ""}|${doc.version}|${seat}`;
  if (ui.key !== key)
    ui = {
      key,
      src: null,
      choose: null,
      pending: null,
      msg: "",
      busy: false,
      bid: { token: null, card: undefined },
    };
  return ui;
}

const KIND_WORDS = {
  army: "move units",
  withdraw: "withdraw",
  emissary: "move an emissary",
  raise: "raise troops",
  conan_act: "move Conan and raid",
  conan: "move Conan",
  attack: "fight",
  intrigue: "start an intrigue",
  gold: "collect gold",
  build: "build an emissary",
  garrison: "place troops or a city",
  buy: "place what you buy",
};

// Append, skipping null and false (DOM append would write "null").
function put(el, ...kids) {
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) el.append(k);
  return el;
}

function btn(text, onClick, attrs = {}) {
  const b = h("button", { type: "button", class: "zc-btn", ...attrs }, text);
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    onClick(ev);
  });
  return b;
}

function bidPicker(cmds, u, act, ctx) {
  const tokens = [...new Set(cmds.map((c) => c.token))].sort((a, b) => a - b);
  const cards = [...new Set(cmds.map((c) => c.card ?? null))];
  if (u.bid.token === null && tokens.length === 1) u.bid.token = tokens[0];
  if (u.bid.card === undefined && cards.length === 1) u.bid.card = cards[0];
  const match = cmds.find((c) => c.token === u.bid.token && (c.card ?? null) === u.bid.card);
  const box = h(
    "div",
    { class: "zc-bid", "data-zc": "bid" },
    h("div", { class: "zc-label" }, "1. A bidding token"),
    h(
      "div",
      { class: "zc-row" },
      tokens.map((t) =>
        btn(
          String(t),
          () => {
            u.bid.token = t;
            act.redraw();
          },
          {
            class: "zc-btn zc-tokbtn",
            "aria-pressed": String(u.bid.token === t),
            "data-bid-token": t,
            "data-key": `bid-token-${t}`,
            disabled: cmds.some(
              (c) => c.token === t && (u.bid.card === undefined || (c.card ?? null) === u.bid.card),
            )
              ? null
              : true,
          },
        ),
      ),
    ),
    h("div", { class: "zc-label" }, "2. A strategy card"),
    h(
      "div",
      { class: "zc-row" },
      cards.map((k) =>
        btn(
          k
            ? h("span", {}, cname(k), h("span", { class: "zc-bidv" }, String(bidValueOf(k) ?? "?")))
            : "No card",
          () => {
            u.bid.card = k;
            act.redraw();
          },
          {
            class: "zc-btn zc-cardbtn",
            "aria-pressed": String(u.bid.card === k),
            "data-bid-card": k ?? "",
            "data-key": `bid-card-${k}`,
            title: k ? ctext(k) : "",
            disabled: cmds.some(
              (c) => (c.card ?? null) === k && (u.bid.token === null || c.token === u.bid.token),
            )
              ? null
              : true,
          },
        ),
      ),
    ),
    match
      ? btn(`${label(match, ctx)}…`, () => act.pick(match, null), {
          class: "zc-btn zc-primary",
          "data-command": JSON.stringify(match),
          "data-key": "bid-go",
        })
      : h(
          "div",
          { class: "zc-sub" },
          "Choose a token and a card; they stay face down until every bid is in.",
        ),
  );
  return box;
}

function movesBox(_view, _doc, ctx, moves, u, act) {
  const box = section("Your move", { "data-zc": "moves", class: "zc-sec zc-moves", "aria-live": "polite" });
  if (u.msg) put(box, h("p", { class: "zc-msg", role: "alert" }, u.msg));
  const disabled = u.busy ? true : null;
  if (u.pending) {
    put(
      box,
      h("p", { class: "zc-confirm-q" }, `${label(u.pending.cmd, ctx)}?`),
      h(
        "div",
        { class: "zc-row" },
        btn("Confirm", () => act.send(u.pending.cmd), {
          class: "zc-btn zc-primary",
          "data-confirm": "1",
          "data-key": "confirm",
          disabled,
        }),
        btn("Cancel", () => act.cancel(), { "data-key": "cancel" }),
      ),
      u.pending.province
        ? h("p", { class: "zc-hint" }, "Press the highlighted province again to confirm, Escape to cancel.")
        : null,
    );
    return box;
  }
  if (u.choose) {
    put(
      box,
      h("p", { class: "zc-step" }, `In ${pname(u.choose.province)}, choose:`),
      h(
        "div",
        { class: "zc-actions" },
        u.choose.options.map((o, i) =>
          o.cmd
            ? btn(label(o.cmd, ctx), () => act.pick(o.cmd, u.choose.province), {
                "data-command": JSON.stringify(o.cmd),
                "data-key": `opt:${i}`,
                "data-focus": i === 0 ? "1" : null,
              })
            : btn(FROM[o.kind](pname(u.choose.province)), () => act.from(u.choose.province, o.kind), {
                "data-key": `opt:${i}`,
                "data-from": o.kind,
                "data-focus": i === 0 ? "1" : null,
              }),
        ),
      ),
      btn("Cancel", () => act.cancel(), { "data-key": "cancel" }),
    );
    return box;
  }
  if (u.src) {
    const extras = sourceExtras(moves, u);
    put(
      box,
      h(
        "p",
        { class: "zc-step" },
        `${FROM[u.src.kind](pname(u.src.province))} Click ${GOAL[u.src.kind]} on the map.`,
      ),
      extras.length
        ? h(
            "div",
            { class: "zc-actions" },
            extras.map((c, i) =>
              btn(label(c, ctx), () => act.pick(c, null), {
                "data-command": JSON.stringify(c),
                "data-key": `extra:${i}`,
              }),
            ),
          )
        : null,
      btn("Choose another province", () => act.cancel(), { "data-key": "cancel" }),
    );
    return box;
  }
  const kinds = [...new Set(moves.onMap.map((m) => m.kind))];
  if (kinds.length) {
    put(
      box,
      h(
        "p",
        { class: "zc-step" },
        `On the map: click a highlighted province to ${listWords(kinds.map((k) => KIND_WORDS[k] || humanize(k)))}${moves.onMap.some((m) => m.src) ? " (a dashed one starts a move)" : ""}.`,
      ),
    );
  }
  const bids = moves.panel.filter((c) => bare(c.type) === "place_bid");
  if (bids.length) put(box, bidPicker(bids, u, act, ctx));
  const rest = moves.panel.filter((c) => bare(c.type) !== "place_bid");
  if (rest.length) {
    const byType = new Map();
    for (const c of rest) {
      const t = bare(c.type);
      if (!byType.has(t)) byType.set(t, []);
      byType.get(t).push(c);
    }
    const list = h("div", { class: "zc-actions" });
    for (const [t, cs] of byType) {
      const buttons = cs.map((c) =>
        btn(label(c, ctx), () => act.send(c), {
          "data-command": JSON.stringify(c),
          "data-key": `cmd:${JSON.stringify(c)}`,
          disabled,
          title: c.card ? ctext(c.card) : null,
        }),
      );
      if (cs.length > 10)
        put(
          list,
          h(
            "details",
            { class: "zc-more" },
            h("summary", {}, `${cap(humanize(t))}: ${cs.length} choices`),
            h("div", { class: "zc-actions" }, buttons),
          ),
        );
      else put(list, ...buttons);
    }
    put(box, list);
  }
  if (!kinds.length && !moves.panel.length) put(box, h("p", { class: "zc-sub" }, "Nothing to do."));
  return box;
}

// ---- drawing the whole table ----

let last = null;
let escBound = false;

function ensureEscape() {
  if (escBound) return;
  escBound = true;
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !last) return;
    if (!ui.src && !ui.choose && !ui.pending) return;
    ui.src = null;
    ui.choose = null;
    ui.pending = null;
    keepFocus(() => render(last.root, last.doc, last.ctx));
  });
}

function keepFocus(draw, focusPanel = false) {
  const active = document.activeElement;
  const key = active?.getAttribute?.("data-key");
  draw();
  const root = last?.root;
  if (!root) return;
  const first = root.querySelector("[data-zc=moves] [data-focus]");
  if (focusPanel && first) {
    first.focus();
    return;
  }
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) {
      again.focus();
      return;
    }
  }
  if (focusPanel) {
    const fallback = root.querySelector("[data-zc=moves] [data-confirm], [data-zc=moves] button");
    if (fallback) fallback.focus();
  }
}

// ---- the pack's map, fetched once per pack ----
//
// A view names its map by pack and digest (a hash of the map's bytes); the
// gateway serves it at /v1/games/conan/packs/{pack}/board, immutable when
// asked for with that digest, so the browser's cache keeps it across pages.

const boards = new Map(); // "pack|digest" -> the map, or the promise of it

const boardKey = (view) => `${view.pack}|${view.board_digest}`;

// The renderer contract's optional hook: resolves once the map a document
// names is at hand, so the first drawing (and the first sentences of the log)
// already have the provinces' names.
export function ready(doc) {
  const view = doc?.view;
  // (a view projected before the map was served once carries it inline)
  if (!view || view.board || !view.board_digest) return Promise.resolve();
  const key = boardKey(view);
  if (!boards.has(key)) {
    const url = `/v1/games/conan/packs/${encodeURIComponent(view.pack)}/board?digest=${encodeURIComponent(view.board_digest)}`;
    const loading = fetch(url, { headers: { accept: "application/json" } })
      .then((r) => {
        if (!r.ok) throw new Error(`The map of the ${view.pack} pack could not be read (${r.status}).`);
        return r.json();
      })
      .then(
        (board) => {
          boards.set(key, board);
          return board;
        },
        (err) => {
          boards.delete(key);
          throw err;
        },
      );
    boards.set(key, loading);
  }
  const got = boards.get(key);
  return got instanceof Promise ? got.then(() => undefined) : Promise.resolve();
}

// The view with its map, or null while the map is on its way.
function withBoard(view) {
  if (view.board) return view;
  const board = boards.get(boardKey(view));
  return board && !(board instanceof Promise) ? { ...view, board } : null;
}

export function render(root, doc, ctx) {
  ensureStyle();
  ensureEscape();
  if (!doc?.view) {
    root.replaceChildren(h("p", {}, "The table is being set up…"));
    return;
  }
  const view = withBoard(doc.view);
  if (!view) {
    // A map not fetched yet (a view naming another digest than the page
    // started with): draw when it comes, unless a newer document came first.
    root.replaceChildren(h("p", { class: "zc-sub" }, "Loading the map…"));
    last = { root, doc, ctx };
    ready(doc).then(
      () => {
        if (last && last.doc === doc && root.isConnected) render(root, doc, ctx);
      },
      (err) => {
        if (last && last.doc === doc && root.isConnected)
          root.replaceChildren(h("p", { class: "zc-msg", role: "alert" }, String(err.message || err)));
      },
    );
    return;
  }
  doc = view === doc.view ? doc : { ...doc, view };
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : (doc.seat ?? null);
  learn(view, seat);
  const legal =
    seat !== null && !doc.over
      ? ctx.legal?.length
        ? ctx.legal
        : (doc.actors || []).includes(seat)
          ? doc.legal || []
          : []
      : [];
  const u = uiFor(doc, seat);
  last = { root, doc, ctx };
  const moves = analyse(legal, view);
  const redraw = (focusPanel = false) => keepFocus(() => render(root, doc, ctx), focusPanel);
  const act = {
    redraw: () => redraw(false),
    cancel() {
      u.src = null;
      u.choose = null;
      u.pending = null;
      u.msg = "";
      redraw(false);
    },
    pick(cmd, province) {
      u.pending = { cmd, province };
      u.choose = null;
      redraw(true);
    },
    from(province, kind) {
      u.src = { province, kind };
      u.choose = null;
      u.pending = null;
      redraw(false);
    },
    province(id) {
      if (u.busy) return;
      if (u.pending && u.pending.province === id) {
        act.send(u.pending.cmd);
        return;
      }
      if (u.src && u.src.province === id) {
        u.src = null;
        u.choose = null;
        u.pending = null;
        redraw(false);
        return;
      }
      const { targets, sources } = offers(moves, u);
      const options = [
        ...(targets.get(id) || []).map((cmd) => ({ cmd })),
        ...[...(sources.get(id) || [])].map((kind) => ({ kind })),
      ];
      u.pending = null;
      u.choose = null;
      u.msg = "";
      if (options.length === 1 && options[0].cmd) {
        u.pending = { cmd: options[0].cmd, province: id };
        redraw(false);
      } else if (options.length === 1) {
        u.src = { province: id, kind: options[0].kind };
        redraw(false);
      } else if (options.length > 1) {
        u.choose = { province: id, options };
        redraw(true);
      }
    },
    async send(cmd) {
      if (u.busy) return;
      u.busy = true;
      u.msg = "";
      let reply;
      try {
        reply = await ctx.submit(cmd);
      } catch (err) {
        reply = { ok: false, message: String(err?.message ? err.message : err) };
      }
      u.busy = false;
      if (!reply?.ok) {
        u.msg = `Not accepted: ${(reply && (reply.message || reply.code)) || "the server refused the move"}`;
        u.pending = null;
        if (ui === u) redraw(true);
      } else {
        u.src = null;
        u.choose = null;
        u.pending = null;
      }
    },
  };

  const map = drawMap(view, ctx, moves, u, act);
  const top = h(
    "div",
    { class: "zc-panel zc-top" },
    statusBox(view, doc, ctx),
    seat !== null && legal.length ? movesBox(view, doc, ctx, moves, u, act) : null,
    contestBox(view, ctx),
    biddingBox(view, doc, ctx),
  );
  const rest = h(
    "div",
    { class: "zc-panel zc-rest" },
    handBox(view),
    playersBox(view, doc, ctx),
    fateBox(view),
    objectivesBox(view),
  );
  root.replaceChildren(
    h(
      "div",
      { class: "zc-host" },
      h(
        "div",
        { class: "zc-table" },
        h("div", { class: "zc-mapcol" }, h("div", { class: "zc-mapwrap" }, map), legend()),
        top,
        rest,
      ),
    ),
  );
  for (const f of map.fixups || []) f();
}

const CSS_TEXT = `
.zc-host{container-type:inline-size;font:14px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1a14}
.zc-table{display:grid;grid-template-columns:minmax(0,1fr);grid-template-areas:"top" "map" "rest";gap:12px;align-items:start}
.zc-mapcol{grid-area:map}.zc-top{grid-area:top}.zc-rest{grid-area:rest}
@container (min-width:860px){.zc-table{grid-template-columns:minmax(0,1fr) 290px;grid-template-rows:auto 1fr;grid-template-areas:"map top" "map rest"}}
@container (min-width:1200px){.zc-table{grid-template-columns:minmax(0,1fr) 330px}}
.zc-mapwrap{background:#2c4a5e;border-radius:10px;padding:6px;box-shadow:0 2px 10px rgba(0,0,0,.3)}
.zc-board{display:block;width:100%;height:auto;max-height:88vh}
.zc-board text{font-family:Georgia,"Times New Roman",serif}
.zc-name{font-size:18px;font-weight:700;letter-spacing:.02em;fill:#2b1d0c;paint-order:stroke;stroke:#fff8e6;stroke-width:3.5px;stroke-linejoin:round}
.zc-name.zc-off{fill:#55514a}
.zc-off-note{font-size:12px;font-style:italic;fill:#3d3a34;paint-order:stroke;stroke:#d8d4ca;stroke-width:3px}
.zc-halo{paint-order:stroke;stroke:#fff8e6;stroke-width:3px;stroke-linejoin:round}
.zc-sea-label{font-size:24px;font-style:italic;letter-spacing:.25em;fill:#e3f0f6;fill-opacity:.75}
.zc-wild-label{font-size:15px;font-style:italic;fill:#3e3020;fill-opacity:.8;paint-order:stroke;stroke:#e4d6b8;stroke-width:3px}
.zc-zone-label{font-size:19px;font-weight:700;letter-spacing:.12em;fill:#4a463e;text-transform:uppercase;paint-order:stroke;stroke:#d8d4ca;stroke-width:4px}
.zc-board .legal{fill:rgba(255,222,70,.30);stroke:#ffcc00;stroke-width:4;cursor:pointer}
.zc-board .legal:hover,.zc-board .legal:focus{fill:rgba(255,222,70,.52);stroke:#fff7c2}
.zc-board .legal:focus,.zc-board .zc-source:focus,.zc-board .zc-selected:focus{outline:none;stroke:#1f5fbf;stroke-width:6}
.zc-board .legal.zc-pending,.zc-board .legal.zc-pending:hover{fill:rgba(70,180,70,.38);stroke:#1f8f1f;stroke-width:6}
.zc-board .zc-source{fill:rgba(255,255,255,.10);stroke:#ffffff;stroke-width:3.5;stroke-dasharray:12 7;cursor:pointer}
.zc-board .zc-source:hover{fill:rgba(255,255,255,.3)}
.zc-board .zc-selected{fill:rgba(31,95,191,.20);stroke:#1f5fbf;stroke-width:5;cursor:pointer}
.zc-board.zc-picking .zc-prov{opacity:.9}
.zc-board .zc-fight{stroke:#d0201a;stroke-width:5;animation:zc-pulse 1.4s ease-in-out infinite}
.zc-board .zc-pulse{animation:zc-pulse 1.4s ease-in-out infinite}
@keyframes zc-pulse{0%,100%{opacity:1}50%{opacity:.35}}
@media (prefers-reduced-motion:reduce){.zc-board .zc-pulse,.zc-board .zc-fight{animation:none}}
.zc-panel{display:flex;flex-direction:column;gap:10px}
@container (max-width:859px){.zc-rest{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));align-items:start}}
.zc-sec{background:#fffdf7;border:1px solid #d8cdb4;border-radius:8px;padding:8px 10px}
.zc-sec h3{margin:0 0 6px;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#7a6a48}
.zc-status-box{background:#fbf3dc;border-color:#cdb27a}
.zc-age{font-size:18px;font-weight:700;font-family:Georgia,serif}
.zc-adv{margin:2px 0;display:flex;align-items:center;gap:2px;flex-wrap:wrap}
.zc-now{margin:6px 0 0;font-weight:600}
.zc-sub{color:#5d5442}
.zc-small{font-size:12px}
.zc-good{color:#1f7a3a;font-weight:600}
.zc-row{display:flex;flex-wrap:wrap;gap:4px;align-items:center}
.zc-mini{flex:none;vertical-align:middle}
.zc-die{display:inline-flex}
.zc-chip{display:inline-flex;align-items:center;padding:1px 7px;border-radius:12px;border:1px solid #bba97f;background:#fff;font-size:12px;font-weight:600}
.zc-conan-chip{background:#3a2a14;color:#f3d27a;border-color:#e7b94a}
.zc-chip.zc-bad{background:#fbe3e0;border-color:#b3261e;color:#8a1c15}
.zc-chip.zc-you{background:#e6f0ff;border-color:#1f5fbf;color:#0d2f63}
.zc-card{display:inline-flex;align-items:center;gap:4px;padding:2px 7px;border-radius:5px;border:1px solid #a89262;background:#fff8e6;font-size:12px;font-weight:600;cursor:help}
.zc-card.zc-kingdom{background:#f3eaff;border-color:#8b6fc0}
.zc-card.zc-artifact{background:#fff0c2;border-color:#c79a1b}
.zc-card.zc-tapped{opacity:.6;font-style:italic}
.zc-bidv{display:inline-grid;place-items:center;min-width:16px;height:16px;border-radius:50%;background:#6b4f12;color:#fff;font-size:10px;font-weight:700;padding:0 3px;margin-left:3px}
.zc-player{padding:6px 4px;border-radius:6px;border-bottom:1px solid #eee3cc}
.zc-player:last-child{border-bottom:none}
.zc-player.zc-turn{background:#fff1c7;box-shadow:inset 3px 0 0 #e0a800}
.zc-phead{display:flex;align-items:center;gap:6px}
.zc-pname{font-weight:700}
.zc-ep{margin-left:auto;font-weight:800;font-size:15px;font-family:Georgia,serif}
.zc-stats{display:flex;flex-wrap:wrap;gap:2px 10px;font-size:12px;margin:3px 0}
.zc-stats span{display:inline-flex;align-items:center}
.zc-tok{display:inline-grid;place-items:center;width:18px;height:18px;border-radius:50%;background:#e9d7a8;border:1px solid #8a6d2a;font-size:11px;font-weight:700}
.zc-tok.zc-spent{opacity:.35;text-decoration:line-through}
.zc-label{font-size:12px;font-weight:700;color:#7a6a48;margin-top:4px}
.zc-list{margin:0;padding-left:18px}
.zc-side{margin:4px 0}
.zc-side-name{font-weight:700;font-size:13px}
.zc-contest{background:#fff3f0;border-color:#e0a49c}
.zc-moves{background:#eef7ea;border-color:#8fbf86}
.zc-bidrow{display:flex;align-items:center;gap:6px;margin:2px 0}
.zc-actions{display:flex;flex-direction:column;gap:5px}
.zc-actions .zc-btn{text-align:left}
.zc-btn{font:inherit;font-size:13px;padding:5px 10px;border-radius:6px;border:1px solid #9d8b63;background:#fff8e6;cursor:pointer;color:#1d1a14}
.zc-btn:hover:not([disabled]){background:#ffefc2}
.zc-btn:focus-visible{outline:3px solid #1f5fbf;outline-offset:1px}
.zc-btn[disabled]{opacity:.45;cursor:default}
.zc-btn.zc-primary{background:#2f6b2f;border-color:#1f4d1f;color:#fff;font-weight:600}
.zc-btn[aria-pressed=true]{background:#ffd766;border-color:#a07800;box-shadow:inset 0 0 0 2px #a07800}
.zc-confirm-q{font-weight:700;margin:0 0 6px}
.zc-step{margin:0 0 6px}
.zc-hint{font-size:12px;color:#5d5442;margin:6px 0 0}
.zc-msg{color:#a21d1d;font-weight:700;margin:0 0 6px}
.zc-more summary{cursor:pointer;font-size:13px}
.zc-legend{margin-top:8px;background:#fffdf7;border:1px solid #d8cdb4;border-radius:8px;padding:4px 10px}
.zc-legend summary{cursor:pointer;font-size:12px;font-weight:700;letter-spacing:.06em;text-transform:uppercase;color:#7a6a48}
.zc-legend-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:4px 12px;font-size:12px;padding:4px 0}
.zc-legend-grid>div{display:flex;align-items:center;gap:6px}
.zc-terrains{display:inline-flex;gap:2px}
.zc-terrains span{display:inline-grid;place-items:center;width:14px;height:14px;border-radius:3px;font-size:9px;font-weight:700;border:1px solid #4b3a1e}
`;

function ensureStyle() {
  if (document.getElementById("zc-style")) return;
  const st = document.createElement("style");
  st.id = "zc-style";
  st.textContent = CSS_TEXT;
  document.head.append(st);
}
