// Euphrates & Tigris, the card game: the eight kingdoms' columns with their
// treasures, connectors, ships and leaders, the side panel, and words for
// every event and command. Drawn only from the view document the page holds.

import {
  arrowKeys,
  begin,
  button,
  COLOUR_OF,
  COLOURS,
  cap,
  clickable,
  confirmBox,
  DYNASTIES,
  dynastyBadge,
  FILL,
  h,
  handSection,
  LEADER_OF,
  LEADERS,
  leaderPiece,
  listWords,
  miniLeader,
  miniSvg,
  placeGlyph,
  plural,
  redraw,
  s,
  same,
  scoreRow,
  seatName,
  section,
  send,
  tileGlyph,
  title,
  togglePick,
} from "./tigris-common.js";

const COLUMNS = 8;
const GAP = -1;

// ---- cards ----

const SHIP_OTHER = { ship_blue_black: "black", ship_blue_green: "green", ship_blue_red: "red" };
const isShip = (card) => card in SHIP_OTHER;
// The colour a table card counts as: treasures are red, ships have none.
const colourOf = (card) => (card === "treasure" ? "red" : COLOURS.includes(card) ? card : null);
const NOUN = { red: "temple", blue: "farm", green: "market", black: "settlement" };

function cardWords(card) {
  if (card === "treasure") return "a treasure";
  if (isShip(card)) return `the blue–${SHIP_OTHER[card]} ship`;
  return `a ${card} card`;
}
const shipName = (card) => `blue–${SHIP_OTHER[card]} ship`;
const cards = (colour, n) => `${n === 1 ? "a" : n} ${colour} card${n === 1 ? "" : "s"}`;

function ordinal(n) {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

export function spotWords(spot) {
  const c = spot.column + 1;
  if (spot.row === GAP) return `the connector between columns ${c} and ${c + 1}`;
  if (spot.row === 0) return `the head of column ${c}`;
  return `the ${ordinal(spot.row)} card of column ${c}`;
}

// "column 5 (its 2nd card)": where a card was taken from.
function fromWords(spot) {
  if (spot.row === GAP || spot.row === 0) return spotWords(spot);
  return `column ${spot.column + 1} (its ${ordinal(spot.row)} card)`;
}

const gapWords = (gap) => `between columns ${gap + 1} and ${gap + 2}`;

// The view last drawn: labels read the hand's colours and the conflict on.
let current = null;

function findLeader(view, seat, leader) {
  if (!view) return null;
  for (let c = 0; c < view.columns.length; c++) {
    for (let r = 0; r < view.columns[c].length; r++) {
      const t = view.columns[c][r].leader;
      if (t && t.seat === seat && t.leader === leader) return { column: c, row: r };
    }
  }
  for (let g = 0; g < view.gaps.length; g++) {
    const t = view.gaps[g]?.leader;
    if (t && t.seat === seat && t.leader === leader) return { column: g, row: GAP };
  }
  return null;
}

function slotAt(view, spot) {
  if (!view) return null;
  if (spot.row === GAP) return view.gaps[spot.column] || null;
  const col = view.columns[spot.column];
  return col?.[spot.row] ? col[spot.row] : null;
}

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : doc?.seat;
  const t = String(command.type || "").replace(/^tigris-cards\./, "");
  switch (t) {
    case "place_leader": {
      const from = seat === null || seat === undefined ? null : findLeader(view, seat, command.leader);
      const slot = slotAt(view, command.spot);
      const on = `${spotWords(command.spot)}${slot && !isShip(slot.card) ? ` (${slot.card === "treasure" ? "treasure" : slot.card})` : ""}`;
      return from ? `Move your ${command.leader} to ${on}` : `Place your ${command.leader} on ${on}`;
    }
    case "withdraw_leader":
      return `Withdraw your ${command.leader}`;
    case "play_card":
      return `Play ${cards(command.colour, 1)} into column ${command.column + 1}`;
    case "play_connector":
      return `Lay ${cards(command.colour, 1)} face down as the connector ${gapWords(command.gap)}`;
    case "play_catastrophe": {
      const slot = slotAt(view, command.spot);
      return `Play your catastrophe on ${fromWords(command.spot)}${slot ? `, removing ${cardWords(slot.card)}` : ""}`;
    }
    case "pass":
      return "Pass this action";
    case "commit_support": {
      const colour = view?.conflict ? view.conflict.support : null;
      if (!command.count) return "Commit no cards";
      return colour ? `Commit ${cards(colour, command.count)}` : `Commit ${plural(command.count, "card")}`;
    }
    case "choose_conflict":
      return `Resolve the conflict of the ${LEADER_OF[command.colour]}s (${command.colour}) first`;
    case "score_card": {
      const phase = view?.phase;
      return phase && phase.step === "vp_offer"
        ? `Lay ${cards(phase.colour, 1)} on your VP pile (1 point)`
        : "Score the offered card";
    }
    case "build_ship":
      return `Build the ${shipName(command.ship)}`;
    case "take_treasure":
      return `Give a red card for the treasure of column ${command.column + 1}`;
    case "decline":
      return "Decline";
    default:
      return t.replace(/_/g, " ");
  }
}

const VP_REASON = {
  card: "for the card played",
  reward: "as the conflict's reward",
  income: "as ship income",
};
const END = {
  cards: "the draw pile cannot refill every hand",
  treasures: "only one treasure is left on the table",
  stalemate: "nobody lost a card for several turns",
};

function phaseWords(phase, who) {
  switch (phase.step) {
    case "act":
      return `${who(phase.seat)} to act.`;
    case "vp_offer":
      return `${who(phase.seat)} may lay ${cards(phase.colour, 1)} on the VP pile ${VP_REASON[phase.reason] || ""}.`.replace(
        " .",
        ".",
      );
    case "ship_offer":
      return `${who(phase.seat)} may build a ship in column ${phase.column + 1} from the ${phase.colour} series.`;
    case "treasure_offer":
      return `${who(phase.seat)} may exchange a red card for a treasure (column ${listWords(phase.columns.map((c) => String(c + 1)))}).`;
    case "support":
      return `${who(phase.seat)} to commit support.`;
    case "choose_conflict":
      return `${who(phase.seat)} ${who(phase.seat) === "You" ? "choose" : "chooses"} which conflict comes first: ${listWords(phase.colours)}.`;
    case "over":
      return `The game is over: ${END[phase.reason] || phase.reason}.`;
    default:
      return "";
  }
}

function colourCounts(list) {
  return listWords(
    COLOURS.map((c) => [c, list.filter((x) => x === c).length])
      .filter(([, n]) => n)
      .map(([c, n]) => `${n} ${c}`),
  );
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const t = String(event.type || "").replace(/^tigris-cards\./, "");
  switch (t) {
    case "game_started":
      return `The game begins with ${event.seats} players; eight treasures head the eight columns.`;
    case "deck_shuffled":
      return `The draw pile is shuffled (${plural(event.order.length, "card")}).`;
    case "cards_drawn":
      return `${who(event.seat)} draws ${colourCounts(event.cards)} (${plural(event.cards.length, "card")}).`;
    case "cards_drawn_count":
      return `${who(event.seat)} draws ${plural(event.count, "card")}.`;
    case "cards_set_aside":
      return `${plural(event.count, "card")} leave the game unseen.`;
    case "turn_started":
      return `${who(event.seat)}'s turn begins: ${plural(event.actions, "action")}.`;
    case "action_taken":
      return `${who(event.seat)} has ${plural(event.left, "action")} left.`;
    case "passed":
      return `${who(event.seat)} passes.`;
    case "leader_placed":
      return event.origin
        ? `${who(event.token.seat)} moves the ${event.token.leader} from ${spotWords(event.origin)} to ${spotWords(event.spot)}.`
        : `${who(event.token.seat)} places the ${event.token.leader} on ${spotWords(event.spot)}.`;
    case "leader_returned":
      return `${who(event.token.seat)}'s ${event.token.leader} leaves ${spotWords(event.spot)} and goes back to the supply.`;
    case "card_played":
      return `${who(event.seat)} plays ${cards(event.colour, 1)} into column ${event.column + 1}.`;
    case "connector_laid":
      return `${who(event.seat)} lays a connector face down ${gapWords(event.gap)}.`;
    case "connector_chosen":
      return `${who(event.seat)}'s face-down connector ${gapWords(event.gap)} is ${cards(event.colour, 1)}.`;
    case "connector_revealed":
      return `The connector ${gapWords(event.gap)} is turned face up: ${event.colour}. The kingdoms are united.`;
    case "catastrophe_struck":
      return `${who(event.seat)}'s catastrophe removes ${cardWords(event.card)} from ${fromWords(event.spot)}.`;
    case "vp_card_laid":
      return `${who(event.seat)} lays ${cards(event.colour, 1)} on the VP pile: 1 ${event.colour} point.`;
    case "offer_declined":
      return `${who(event.seat)} declines.`;
    case "ship_built":
      return `${who(event.seat)} builds the ${shipName(event.ship)} in column ${event.column + 1} from ${event.cards} ${event.colour} cards.`;
    case "conflict_begun": {
      const c = event.conflict;
      const kind = c.kind === "internal" ? "Internal conflict" : "External conflict";
      return `${kind} of the ${LEADER_OF[c.colour]}s: ${who(c.attacker)} (${c.attacker_base}) attacks ${who(c.defender)} (${c.defender_base}); support with ${c.support} cards.`;
    }
    case "support_committed":
      return event.count
        ? `${who(event.seat)} commits ${cards(event.colour, event.count)}.`
        : `${who(event.seat)} commits no cards.`;
    case "conflict_resolved":
      return `${who(event.winner)} wins the ${event.colour} conflict against ${who(event.loser)}${event.reward ? "; one committed card goes to the winner's VP pile" : ""}${event.discarded ? `; ${plural(event.discarded, "card")} discarded` : ""}.`;
    case "spoils_taken":
      return `${who(event.seat)} takes ${plural(event.spots.length, "card")} from the table as spoils onto the VP pile.`;
    case "treasure_exchanged":
      return `${who(event.seat)} gives a red card for the treasure of column ${event.column + 1}.`;
    case "awaiting":
      return phaseWords(event.phase, who);
    default:
      return "";
  }
}

// Public scores for the page's list of players: a VP pile shows only its top
// card until the game is over (or with open piles), then its count per colour.
export function summary(doc) {
  const view = doc?.view;
  if (!view?.players) return [];
  return view.players.map((pl) => {
    if (pl.vp_open)
      return `VP ${COLOURS.map((c, i) => `${pl.vp_open.points[i]} ${c}`).join(" · ")} · ${plural(pl.vp_open.treasures, "treasure")}`;
    return `${plural(pl.hand_size, "card")} in hand · VP pile top: ${pl.vp_top ? (pl.vp_top === "treasure" ? "treasure" : pl.vp_top) : "none"}`;
  });
}

// ---- kingdoms: runs of columns joined by face-up connectors ----

function kingdomSpan(view, column) {
  let lo = column,
    hi = column;
  while (lo > 0 && view.gaps[lo - 1]) lo--;
  while (hi < view.gaps.length && view.gaps[hi]) hi++;
  return [lo, hi];
}

function kingdomSpans(view) {
  const spans = [];
  for (let c = 0; c < view.columns.length; ) {
    const span = kingdomSpan(view, c);
    spans.push(span);
    c = span[1] + 1;
  }
  return spans;
}

function spotsIn(view, [lo, hi]) {
  const out = [];
  for (let c = lo; c <= hi; c++)
    view.columns[c].forEach((slot, r) => {
      out.push([{ column: c, row: r }, slot]);
    });
  for (let g = lo; g < hi; g++) if (view.gaps[g]) out.push([{ column: g, row: GAP }, view.gaps[g]]);
  return out;
}

const spotKey = (spot) => (spot.row === GAP ? `g${spot.column}` : `c${spot.column}r${spot.row}`);

// The supporters on the table of the conflict on now (public: cards on the table).
function conflictMarks(view) {
  const marks = new Map(); // spot key -> seat
  const c = view.conflict;
  if (!c) return marks;
  const leader = LEADER_OF[c.colour];
  for (const seat of [c.attacker, c.defender]) {
    const at = findLeader(view, seat, leader);
    if (!at) continue;
    if (c.kind === "internal") {
      const slot = slotAt(view, at);
      if (slot && colourOf(slot.card) === "red") marks.set(spotKey(at), seat);
    } else {
      for (const [spot, slot] of spotsIn(view, kingdomSpan(view, at.column))) {
        if (colourOf(slot.card) === c.colour) marks.set(spotKey(spot), seat);
      }
    }
  }
  return marks;
}

// ---- drawing ----

const CW = 86; // card width
const CH = 60; // card height
const STEP = 36; // a card's visible strip in a column
const GW = 52; // the gap between columns
const KW = 42; // a connector card's width
const M = 22;
const Y0 = 58;
const colX = (c) => M + c * (CW + GW);
const gapX = (g) => colX(g) + CW + (GW - KW) / 2;
const rowY = (r) => Y0 + r * STEP;
const BW = 2 * M + COLUMNS * CW + (COLUMNS - 1) * GW;

function shipGlyph(fg = "#fff") {
  return s(
    "g",
    { fill: fg },
    s("path", { d: "M2.5 12.5H17.5L14.5 16.5H5.5Z" }),
    s("path", { d: "M10 2.5V12.5", stroke: fg, "stroke-width": 1.4 }),
    s("path", { d: "M10.8 3.5L16 11H10.8Z" }),
    s("path", { d: "M9.2 5L5 11H9.2Z" }),
  );
}

function treasureGlyph() {
  return s(
    "g",
    {},
    s("path", { d: "M10 1.5L18 10L10 18.5L2 10Z", fill: "#ffd23f", stroke: "#6b4b00", "stroke-width": 1.4 }),
    s("path", { d: "M2 10H18M6.5 5.5L10 10L13.5 5.5", fill: "none", stroke: "#9a6e00", "stroke-width": 1 }),
  );
}

// One card at (x, y); `w` narrower for connectors.
function cardShape(x, y, card, w = CW, opts = {}) {
  const g = s("g", { class: "zt-card" });
  const r = 7;
  if (card === null) {
    // face down
    g.append(
      s("rect", {
        x,
        y,
        width: w,
        height: CH,
        rx: r,
        fill: "#6b4a2a",
        stroke: "#2a1a0a",
        "stroke-width": 1.5,
      }),
    );
    g.append(
      s("rect", {
        x: x + 4,
        y: y + 4,
        width: w - 8,
        height: CH - 8,
        rx: 4,
        fill: "none",
        stroke: "#c9a56a",
        "stroke-width": 1.2,
      }),
    );
    g.append(
      placeGlyph(
        s("path", { d: "M10 3L17 10L10 17L3 10Z", fill: "none", stroke: "#e0c58e", "stroke-width": 1.6 }),
        x + w / 2,
        y + CH / 2,
        22,
      ),
    );
    return g;
  }
  if (isShip(card)) {
    const other = SHIP_OTHER[card];
    g.append(
      s("rect", {
        x,
        y,
        width: w,
        height: CH,
        rx: r,
        fill: FILL.blue,
        stroke: "#101010",
        "stroke-width": 1.3,
      }),
    );
    g.append(
      s("path", {
        d: `M${x + w} ${y + r}V${y + CH - r}Q${x + w} ${y + CH} ${x + w - r} ${y + CH}H${x + w * 0.35}L${x + w * 0.65} ${y}H${x + w - r}Q${x + w} ${y} ${x + w} ${y + r}Z`,
        fill: FILL[other],
      }),
    );
    g.append(
      s("rect", {
        x: x + 2.5,
        y: y + 2.5,
        width: w - 5,
        height: CH - 5,
        rx: 5,
        fill: "none",
        stroke: "rgba(255,255,255,.7)",
        "stroke-width": 1.2,
      }),
    );
    g.append(placeGlyph(shipGlyph(), x + 18, y + STEP / 2, 24));
    g.append(title(`The blue–${other} ship`));
    return g;
  }
  const colour = colourOf(card);
  g.append(
    s("rect", {
      x,
      y,
      width: w,
      height: CH,
      rx: r,
      fill: FILL[colour],
      stroke: card === "treasure" ? "#e2b007" : "#101010",
      "stroke-width": card === "treasure" ? 3 : 1.3,
    }),
  );
  g.append(
    s("rect", {
      x: x + 3,
      y: y + 3,
      width: w - 6,
      height: CH - 6,
      rx: 5,
      fill: "none",
      stroke: "rgba(255,255,255,.55)",
      "stroke-width": 1.1,
    }),
  );
  const gx = w < CW ? x + w / 2 : x + 17;
  if (card === "treasure") {
    g.append(placeGlyph(treasureGlyph(), gx, y + STEP / 2, 24));
    if (w >= CW) g.append(placeGlyph(tileGlyph("red"), x + 40, y + STEP / 2, 16));
    g.append(title("Treasure (counts as red; a joker at the end)"));
  } else {
    g.append(placeGlyph(tileGlyph(colour), gx, y + STEP / 2, 22));
    g.append(title(`${cap(colour)} card (${NOUN[colour]})`));
  }
  if (opts.ghost) g.setAttribute("opacity", "0.8");
  return g;
}

// ---- moves ----

function boardMove(cmd) {
  const t = String(cmd.type).replace(/^tigris-cards\./, "");
  if (t === "play_card") return { sel: `card:${cmd.colour}`, target: `col${cmd.column}` };
  if (t === "play_connector") return { sel: `card:${cmd.colour}`, target: `g${cmd.gap}` };
  if (t === "place_leader") return { sel: `leader:${cmd.leader}`, target: spotKey(cmd.spot) };
  if (t === "play_catastrophe") return { sel: "catastrophe", target: spotKey(cmd.spot) };
  return null;
}

function selWords(sel) {
  if (sel === "catastrophe") return "your catastrophe";
  const [kind, what] = sel.split(":");
  return kind === "card" ? `a ${what} card` : `your ${what}`;
}

// Where a target is drawn: [x, y, w, h].
function targetBox(view, key) {
  let m = /^col(\d+)$/.exec(key);
  if (m) {
    const c = Number(m[1]);
    return [colX(c), rowY(view.columns[c].length), CW, CH];
  }
  m = /^g(\d+)$/.exec(key);
  if (m) return [gapX(Number(m[1])), rowY(0), KW, CH];
  m = /^c(\d+)r(\d+)$/.exec(key);
  const c = Number(m[1]),
    r = Number(m[2]);
  const lastRow = r === view.columns[c].length - 1;
  return [colX(c), rowY(r), CW, lastRow ? CH : STEP];
}

export function render(root, doc, ctx) {
  current = doc;
  const start = begin(root, doc, ctx, render, boardMove);
  if (!start) return;
  const { view, seat, legal, p, draw, moves, others } = start;

  // As deep as the longest column (plus a card's room below it), never shallower than five cards.
  const longest = Math.max(5, ...view.columns.map((c) => c.length + 1));
  const BH = rowY(longest - 1) + CH + 18;
  const svg = s("svg", {
    class: `zt-board${p.sel ? "" : " zt-browse"}`,
    viewBox: `0 0 ${BW} ${BH}`,
    role: "img",
    preserveAspectRatio: "xMidYMid meet",
    "aria-label": "The table: eight columns, each headed by a treasure, with connectors between the heads",
  });
  svg.append(s("rect", { x: 0, y: 0, width: BW, height: BH, rx: 10, fill: "#cdb98a" }));

  // Kingdoms as trays: one tray per run of joined columns.
  const spans = kingdomSpans(view);
  for (const [lo, hi] of spans) {
    const x0 = colX(lo) - 9,
      x1 = colX(hi) + CW + 9;
    svg.append(
      s("rect", {
        x: x0,
        y: Y0 - 12,
        width: x1 - x0,
        height: BH - Y0 - 4,
        rx: 12,
        fill: "#f7efd8",
        stroke: hi > lo ? "#7a4a12" : "#a88d5a",
        "stroke-width": hi > lo ? 3 : 1.5,
      }),
    );
  }
  for (let c = 0; c < COLUMNS; c++) {
    svg.append(
      s(
        "text",
        {
          x: colX(c) + CW / 2,
          y: 30,
          "text-anchor": "middle",
          "font-size": 15,
          "font-weight": 700,
          fill: "#3b2a12",
        },
        `Column ${c + 1}`,
      ),
    );
    const n = view.columns[c].length - 1;
    svg.append(
      s(
        "text",
        { x: colX(c) + CW / 2, y: 44, "text-anchor": "middle", "font-size": 11, fill: "#5d4a28" },
        `${n} below the head`,
      ),
    );
  }

  const marks = conflictMarks(view);
  const conflict = view.conflict;
  const cardsLayer = s("g");
  const leadersLayer = s("g");
  const mySels = new Set(moves.map((m) => m.sel));
  const drawLeader = (token, cx, cy) => {
    const piece = leaderPiece(cx, cy, 15, token.seat, token.leader, ctx);
    if (
      conflict &&
      COLOUR_OF[token.leader] === conflict.colour &&
      (token.seat === conflict.attacker || token.seat === conflict.defender)
    ) {
      leadersLayer.append(
        s("circle", {
          class: "zt-halo",
          cx,
          cy,
          r: 20,
          fill: "none",
          stroke: "#ff2d20",
          "stroke-width": 3.5,
          "stroke-dasharray": "6 3",
        }),
      );
    }
    const sel = `leader:${token.leader}`;
    if (token.seat === seat && mySels.has(sel)) {
      const g = s(
        "g",
        { class: `zt-pick${p.sel === sel ? " zt-picked" : ""}`, "data-key": `pick-${sel}`, "data-pick": sel },
        s("circle", { class: "zt-ring", cx, cy, r: 19, fill: "rgba(255,255,255,.01)", stroke: "none" }),
        piece,
      );
      clickable(g, (ev) => togglePick(p, sel, draw, ev), `Choose your ${token.leader}`);
      leadersLayer.append(g);
    } else leadersLayer.append(piece);
  };
  const mark = (key, x, y) => {
    if (!marks.has(key)) return;
    const owner = marks.get(key);
    leadersLayer.append(
      s(
        "g",
        {},
        title(`Supports ${seatName(ctx, owner)}`),
        s("circle", {
          cx: x,
          cy: y,
          r: 6.5,
          fill: DYNASTIES[owner % 4].ring,
          stroke: "#111",
          "stroke-width": 1.5,
        }),
      ),
    );
  };
  view.columns.forEach((column, c) => {
    column.forEach((slot, r) => {
      const x = colX(c),
        y = rowY(r);
      cardsLayer.append(cardShape(x, y, slot.card));
      if (slot.leader) drawLeader(slot.leader, x + CW - 20, y + STEP / 2);
      mark(`c${c}r${r}`, x + 40, y + STEP / 2);
    });
  });
  view.gaps.forEach((slot, g) => {
    const x = gapX(g),
      y = rowY(0);
    if (slot) {
      cardsLayer.append(cardShape(x, y, slot.card, KW));
      if (slot.leader) drawLeader(slot.leader, x + KW / 2, y + CH - 16);
      mark(`g${g}`, x + KW / 2, y + CH - 8);
    }
  });
  if (view.pending) {
    const x = gapX(view.pending.gap),
      y = rowY(0);
    const back = cardShape(x, y, null, KW);
    back.append(
      title(
        view.pending.colour
          ? `Your face-down connector (${view.pending.colour})`
          : "A face-down connector: the kingdoms are at war",
      ),
    );
    cardsLayer.append(back);
    if (view.pending.colour) {
      cardsLayer.append(
        s("circle", {
          cx: x + KW / 2,
          cy: y + CH + 9,
          r: 7,
          fill: FILL[view.pending.colour],
          stroke: "#fff",
          "stroke-width": 2,
        }),
      );
    }
  }
  svg.append(cardsLayer, leadersLayer);

  // Targets of legal moves.
  const targets = new Map();
  for (const m of moves) {
    if (p.sel && m.sel !== p.sel) continue;
    if (!targets.has(m.target)) targets.set(m.target, []);
    targets.get(m.target).push(m.cmd);
  }
  const overlay = s("g", { class: "zt-overlay" });
  const pm = p.pending ? boardMove(p.pending) : null;
  if (pm) {
    const [x, y, w] = targetBox(view, pm.target);
    if (p.pending.type.endsWith("play_card"))
      overlay.append(cardShape(x, y, p.pending.colour, CW, { ghost: true }));
    else if (p.pending.type.endsWith("play_connector"))
      overlay.append(cardShape(x, y, p.pending.colour, KW, { ghost: true }));
    else if (p.pending.type.endsWith("place_leader"))
      overlay.append(
        s(
          "g",
          { opacity: 0.85 },
          leaderPiece(
            w === KW ? x + KW / 2 : x + CW - 20,
            w === KW ? y + CH - 16 : y + STEP / 2,
            15,
            seat,
            p.pending.leader,
            ctx,
          ),
        ),
      );
  }
  for (const [key, cmds] of targets) {
    const [x, y, w, hh] = targetBox(view, key);
    const one = cmds.length === 1 ? cmds[0] : null;
    const empty = key.startsWith("col") || (key.startsWith("g") && !view.gaps[Number(key.slice(1))]);
    const text = one ? label(one, ctx) : `${cmds.length} possible moves here`;
    const g = s(
      "g",
      {
        class: `legal${one && same(one, p.pending) ? " zt-pending" : ""}`,
        "data-key": `t-${key}`,
        "data-target": key,
        "data-command": one ? JSON.stringify(one) : null,
        "data-choices": one ? null : String(cmds.length),
      },
      title(text),
      s("rect", {
        class: "zt-hl",
        x: x + 1,
        y: y + 1,
        width: w - 2,
        height: hh - 2,
        rx: 6,
        "stroke-dasharray": empty ? "6 3" : null,
      }),
    );
    clickable(
      g,
      () => {
        if (one) {
          if (same(one, p.pending)) {
            send(ctx, one, p, draw);
            return;
          }
          p.pending = one;
          p.target = null;
        } else {
          p.target = key;
          p.pending = null;
        }
        p.msg = "";
        redraw(draw);
      },
      text,
    );
    overlay.append(g);
  }
  const phase = view.phase || {};
  if (phase.step === "treasure_offer") {
    for (const c of phase.columns)
      overlay.append(
        s("rect", {
          class: "zt-halo",
          x: colX(c) - 3,
          y: rowY(0) - 3,
          width: CW + 6,
          height: STEP + 6,
          rx: 8,
          fill: "none",
          stroke: "#ffd400",
          "stroke-width": 3.5,
          "pointer-events": "none",
        }),
      );
  }
  if (phase.step === "ship_offer") {
    const n = view.columns[phase.column].length;
    overlay.append(
      s("rect", {
        class: "zt-halo",
        x: colX(phase.column) - 3,
        y: rowY(Math.max(0, n - 4)) - 3,
        width: CW + 6,
        height: rowY(n - 1) - rowY(Math.max(0, n - 4)) + CH + 6,
        rx: 8,
        fill: "none",
        stroke: "#ffd400",
        "stroke-width": 3.5,
        "pointer-events": "none",
      }),
    );
  }
  if (phase.step === "vp_offer" && phase.reason === "card" && phase.column >= 0) {
    const n = view.columns[phase.column].length;
    overlay.append(
      s("rect", {
        class: "zt-halo",
        x: colX(phase.column) - 3,
        y: rowY(n - 1) - 3,
        width: CW + 6,
        height: CH + 6,
        rx: 8,
        fill: "none",
        stroke: "#ffd400",
        "stroke-width": 3.5,
        "pointer-events": "none",
      }),
    );
  }
  svg.append(overlay);
  arrowKeys(svg);

  const panel = h("div", { class: "zt-panel" });
  panel.append(statusSection(doc, view, ctx, seat));
  if (conflict) panel.append(conflictSection(view, ctx));
  if (legal.length) panel.append(movesSection(view, ctx, seat, p, moves, others, targets, draw));
  if (seat !== null && view.hand)
    panel.append(
      handSection(view, p, moves, draw, legal.length > 0, {
        heading: "Your hand",
        kind: "card",
        mini: (c) => miniCard(c, 24),
        name: (c) => c,
        tip: (c) => `Play a ${c} card`,
      }),
    );
  panel.append(playersSection(doc, view, ctx, seat));
  panel.append(supplySection(view));
  panel.append(legendSection());
  root.append(
    h(
      "div",
      { class: "zt-host" },
      h(
        "div",
        { class: "zt-table zt-wide zt-tigris-cards" },
        h("div", { class: "zt-boardwrap" }, svg),
        panel,
      ),
    ),
  );
}

function statusSection(doc, view, ctx, seat) {
  const sec = section("Now");
  sec.setAttribute("data-zt", "status");
  const phase = view.phase || {};
  const who = (x) => (x === seat ? "You" : seatName(ctx, x));
  let text = phaseWords(phase, who);
  if (phase.step === "act")
    text = `${phase.seat === seat ? "Your turn" : `${seatName(ctx, phase.seat)}'s turn`} · ${plural(view.actions_left, "action")} left`;
  sec.append(h("div", { class: "zt-status" }, text));
  const result = doc.result || view.result;
  if (doc.over && result) {
    sec.append(
      ...result.standings.map((st) =>
        h(
          "div",
          {},
          `${st.place}. ${seatName(ctx, st.seat)} — ${st.score}`,
          st.tiebreak?.length ? h("span", { class: "zt-sub" }, ` (then ${st.tiebreak.join(", ")})`) : null,
        ),
      ),
    );
  } else {
    const treasures = view.columns.filter((c) => c[0].card === "treasure").length;
    sec.append(
      h(
        "div",
        { class: "zt-sub" },
        `${plural(view.deck_size, "card")} in the draw pile · ${plural(treasures, "treasure")} on the table`,
      ),
    );
  }
  return sec;
}

function conflictSection(view, ctx) {
  const c = view.conflict;
  const sec = section(
    `${c.kind === "internal" ? "Internal" : "External"} conflict of the ${LEADER_OF[c.colour]}s`,
  );
  sec.classList.add("zt-conflict");
  const side = (seat, base, played, role) =>
    h(
      "div",
      {},
      h(
        "div",
        { class: "zt-row", style: "justify-content:center" },
        miniLeader(seat, LEADER_OF[c.colour], ctx),
        h("b", {}, seatName(ctx, seat)),
      ),
      h("div", { class: "zt-sub" }, role),
      h("div", { class: "zt-big" }, String(base + (played ?? 0))),
      h(
        "div",
        { class: "zt-sub" },
        `${base} on the table${played === null || played === undefined ? "" : ` + ${played} played`}`,
      ),
    );
  sec.append(
    h(
      "div",
      { class: "zt-vs" },
      side(c.attacker, c.attacker_base, c.attacker_cards, "attacker"),
      h("div", { class: "zt-big" }, "vs"),
      side(c.defender, c.defender_base, c.defender_cards, "defender"),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-hint" },
      c.kind === "internal"
        ? "Support with red cards from hand; a leader on a red card gets +1. Ties go to the defender."
        : `Support with ${c.support} cards from hand, plus the ${c.colour} cards in each side's kingdom (marked with a dot). Ties go to the defender.`,
    ),
  );
  return sec;
}

function movesSection(view, ctx, seat, p, moves, others, targets, draw) {
  const sec = section("Your move");
  sec.setAttribute("data-zt", "moves");
  const box = h("div", { class: "zt-actions" });
  sec.append(box);
  const choose = (sel, ev) => togglePick(p, sel, draw, ev);
  if (moves.length) {
    box.append(
      h(
        "div",
        { class: "zt-hint" },
        p.sel
          ? `Now click a highlighted place for ${selWords(p.sel)} (Esc to cancel).`
          : "Choose a card from your hand, a leader or your catastrophe, then a highlighted place — or click a highlighted place first.",
      ),
    );
    const row = h("div", { class: "zt-row" });
    for (const leader of LEADERS) {
      const sel = `leader:${leader}`;
      if (!moves.some((m) => m.sel === sel)) continue;
      const onTable = findLeader(view, seat, leader);
      row.append(
        button(
          [miniLeader(seat, leader, ctx), ` ${cap(leader)}${onTable ? " (on the table)" : ""}`],
          (ev) => choose(sel, ev),
          {
            class: "zt-chip",
            "aria-pressed": String(p.sel === sel),
            "data-key": `sel-${sel}`,
            "data-pick": sel,
          },
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      row.append(
        button([catastropheMini(), " Catastrophe"], (ev) => choose("catastrophe", ev), {
          class: "zt-chip",
          "aria-pressed": String(p.sel === "catastrophe"),
          "data-key": "sel-catastrophe",
          "data-pick": "catastrophe",
        }),
      );
    }
    if (row.childNodes.length) box.append(row);
  }
  if (p.target && targets.has(p.target)) {
    box.append(h("div", { class: "zt-hint" }, "Here you may:"));
    for (const cmd of targets.get(p.target)) {
      box.append(
        button(
          label(cmd, ctx),
          () => {
            p.pending = cmd;
            p.target = null;
            redraw(draw);
          },
          { "data-key": `opt-${JSON.stringify(cmd)}`, "data-option": JSON.stringify(cmd) },
        ),
      );
    }
  }
  box.append(confirmBox(p, ctx, (cmd) => label(cmd, ctx), draw));
  for (const cmd of others) {
    box.append(
      button(label(cmd, ctx), () => send(ctx, cmd, p, draw), {
        "data-command": JSON.stringify(cmd),
        "data-key": `cmd-${JSON.stringify(cmd)}`,
      }),
    );
  }
  const phase = view.phase || {};
  if (phase.step === "treasure_offer")
    box.append(h("div", { class: "zt-hint" }, "The treasures you may take are outlined on the table."));
  if (phase.step === "ship_offer")
    box.append(
      h(
        "div",
        { class: "zt-hint" },
        `Building discards the bottom ${phase.colour} series of column ${phase.column + 1} (outlined).`,
      ),
    );
  return sec;
}

function catastropheMini() {
  return miniSvg(
    22,
    s("rect", { x: 4, y: 2, width: 32, height: 36, rx: 5, fill: "#3b312b" }),
    s("path", {
      d: "M11 9L19 19L15 22L22 32M30 9L24 16L27 20L19 31",
      fill: "none",
      stroke: "#ff8a3d",
      "stroke-width": 3,
    }),
  );
}

function miniCard(card, size = 24) {
  const k = 40 / CW;
  return miniSvg(
    size,
    s("g", { transform: `translate(0 ${(40 - CH * k) / 2}) scale(${k})` }, cardShape(0, 0, card)),
  );
}

function playersSection(doc, view, ctx, seat) {
  const sec = section("Players");
  const actors = new Set(doc.actors || []);
  for (const pl of view.players) {
    const row = h(
      "div",
      { class: `zt-player${actors.has(pl.seat) ? " zt-turn" : ""}`, "data-seat": String(pl.seat) },
      dynastyBadge(pl.seat, 24),
      h(
        "span",
        { class: "zt-name" },
        seatName(ctx, pl.seat),
        pl.seat === seat ? " (you)" : "",
        h("span", { class: "zt-sub" }, ` · ${DYNASTIES[pl.seat % 4].name}`),
      ),
      h("span", { class: "zt-sub" }, actors.has(pl.seat) ? "▶ to play" : ""),
      h(
        "div",
        { class: "zt-meta" },
        h("span", {}, `${plural(pl.hand_size, "card")} in hand`),
        h("span", {}, pl.catastrophe ? "catastrophe ready" : "catastrophe used"),
        pl.supply.length
          ? h(
              "span",
              { class: "zt-row", title: "leaders in the supply" },
              "supply:",
              ...pl.supply.map((ld) => miniLeader(pl.seat, ld, ctx)),
            )
          : null,
        pl.vp_open
          ? h(
              "span",
              { class: "zt-row" },
              "VP:",
              scoreRow(pl.vp_open.points, pl.vp_open.treasures, "VP pile per colour, and treasures (jokers)"),
            )
          : h(
              "span",
              { class: "zt-row", title: "only the top card of a VP pile is seen" },
              "VP pile top:",
              pl.vp_top ? miniCard(pl.vp_top, 22) : " empty",
            ),
      ),
    );
    sec.append(row);
  }
  return sec;
}

function supplySection(view) {
  const sec = section("Table");
  sec.append(
    h(
      "div",
      { class: "zt-row" },
      "Ships to build:",
      ...(view.ships.length
        ? view.ships.map((sh) =>
            h("span", { class: "zt-chip", title: shipName(sh) }, miniCard(sh, 24), ` blue–${SHIP_OTHER[sh]}`),
          )
        : ["none left"]),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-row", style: "margin-top:4px" },
      "Discarded:",
      scoreRow(view.discard, null, "cards out of play per colour"),
    ),
  );
  const extra = [`${plural(view.deck_size, "card")} in the draw pile`];
  if (view.set_aside) extra.push(`${plural(view.set_aside, "card")} set aside unseen`);
  sec.append(h("div", { class: "zt-sub", style: "margin-top:4px" }, extra.join(" · ")));
  return sec;
}

function legendSection() {
  const det = h("details", { class: "zt-sec", open: "" }, h("summary", { class: "zt-sub" }, "Legend"));
  const grid = h("div", { class: "zt-legend" });
  for (const c of COLOURS)
    grid.append(h("div", {}, miniCard(c, 22), `${cap(c)} ${NOUN[c]} · ${LEADER_OF[c]}`));
  grid.append(
    h("div", {}, miniCard("treasure", 22), "Treasure: red, a joker at the end"),
    h("div", {}, miniCard("ship_blue_black", 22), "Ship (blue + a colour)"),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("circle", { cx: 20, cy: 20, r: 17, fill: DYNASTIES[0].ring, stroke: "#111" }),
        s("circle", { cx: 20, cy: 20, r: 12, fill: FILL.black, stroke: "#fff" }),
      ),
      "Leader: fill = role, ring = player",
    ),
    h("div", {}, miniCard(null, 22), "Face-down connector"),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("rect", {
          x: 2,
          y: 6,
          width: 36,
          height: 28,
          rx: 6,
          fill: "#f7efd8",
          stroke: "#7a4a12",
          "stroke-width": 3,
        }),
      ),
      "Kingdom (joined columns)",
    ),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("rect", {
          x: 3,
          y: 3,
          width: 34,
          height: 34,
          rx: 6,
          fill: "rgba(255,230,90,.5)",
          stroke: "#ffd400",
          "stroke-width": 3,
        }),
      ),
      "Where you may play",
    ),
  );
  det.append(grid);
  return det;
}
