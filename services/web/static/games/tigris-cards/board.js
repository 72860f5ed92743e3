// Euphrates & Tigris, the card game: the eight kingdoms' columns with their
// treasures, connectors, ships and leaders, as SVG; kingdoms as runs of columns.

import { s, title } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import { capital, seatName } from "../../words.js";
import {
  arrowKeys,
  COLOUR_OF,
  clickable,
  colourName,
  DYNASTIES,
  FILL,
  LEADER_OF,
  leaderName,
  leaderPiece,
  moveTargets,
  placeButton,
  placeGlyph,
  same,
  tileGlyph,
  togglePick,
} from "../tigris-common.js";
import { cardNoun, colourOf, findLeader, isShip, label, SHIP_OTHER, shipName, slotAt } from "./words.js";

export const COLUMNS = 8;

export const GAP = -1;

// ---- kingdoms: runs of columns joined by face-up connectors ----

function kingdomSpan(view, column) {
  let lo = column,
    hi = column;
  while (lo > 0 && view.gaps[lo - 1]) lo--;
  while (hi < view.gaps.length && view.gaps[hi]) hi++;
  return [lo, hi];
}

export function kingdomSpans(view) {
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
export function conflictMarks(view) {
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

export const CW = 86; // card width

export const CH = 60; // card height

export const STEP = 36; // a card's visible strip in a column

const GW = 52; // the gap between columns

export const KW = 42; // a connector card's width

const M = 22;

export const Y0 = 58;

export const colX = (c) => M + c * (CW + GW);

export const gapX = (g) => colX(g) + CW + (GW - KW) / 2;

export const rowY = (r) => Y0 + r * STEP;

export const BW = 2 * M + COLUMNS * CW + (COLUMNS - 1) * GW;

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
export function cardShape(x, y, card, w = CW, opts = {}) {
  const g = s("g", { class: "zt-card" });
  if (card === null) cardBack(g, x, y, w);
  else if (isShip(card)) shipFace(g, x, y, w, card);
  else {
    cardFace(g, x, y, w, card);
    if (opts.ghost) g.setAttribute("opacity", "0.8");
  }
  return g;
}

// A card face down.
function cardBack(g, x, y, w) {
  const r = 7;
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
}

// A ship: blue and its other colour, split on the diagonal.
function shipFace(g, x, y, w, card) {
  const r = 7;
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
  g.append(title(shipName(card)));
}

// A colour's card (or the treasure): its colour, glyph and name.
function cardFace(g, x, y, w, card) {
  const r = 7;
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
    g.append(title(tr("tcards.treasure_title")));
  } else {
    g.append(placeGlyph(tileGlyph(colour), gx, y + STEP / 2, 22));
    g.append(title(tr("tcards.card_title", { colour: capital(colourName(colour)), noun: cardNoun(colour) })));
  }
}

// ---- moves ----

export function boardMove(cmd) {
  const t = String(cmd.type).replace(/^tigris-cards\./, "");
  if (t === "play_card") return { sel: `card:${cmd.colour}`, target: `col${cmd.column}` };
  if (t === "play_connector") return { sel: `card:${cmd.colour}`, target: `g${cmd.gap}` };
  if (t === "place_leader") return { sel: `leader:${cmd.leader}`, target: spotKey(cmd.spot) };
  if (t === "play_catastrophe") return { sel: "catastrophe", target: spotKey(cmd.spot) };
  return null;
}

// Where a target is drawn: [x, y, w, h].
export function targetBox(view, key) {
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

// The table with everything on it, and the places a move can go to (which the
// panel lists too): after a pick, that card's or leader's places; before, any.
export function drawBoard(view, ctx, start) {
  const { p, moves } = start;
  const targets = moveTargets(moves, p);
  // As deep as the longest column (plus a card's room below it), never shallower than five cards.
  const longest = Math.max(5, ...view.columns.map((c) => c.length + 1));
  const BH = rowY(longest - 1) + CH + 18;
  const svg = s("svg", {
    class: `zt-board${p.sel ? "" : " zt-browse"}`,
    viewBox: `0 0 ${BW} ${BH}`,
    role: "img",
    preserveAspectRatio: "xMidYMid meet",
    "aria-label": tr("tcards.board_label"),
  });
  svg.append(s("rect", { x: 0, y: 0, width: BW, height: BH, rx: 10, fill: "#cdb98a" }));

  svg.append(
    traysLayer(view, BH),
    ...piecesLayers(view, ctx, start),
    overlayLayer(view, ctx, start, targets),
  );
  arrowKeys(svg);
  return { svg, targets };
}

// Kingdoms as trays: one tray per run of joined columns; the columns' headings.
function traysLayer(view, BH) {
  const svg = s("g");
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
        tr("tcards.column", { c: String(c + 1) }),
      ),
    );
    const n = view.columns[c].length - 1;
    svg.append(
      s(
        "text",
        { x: colX(c) + CW / 2, y: 44, "text-anchor": "middle", "font-size": 11, fill: "#5d4a28" },
        tr("tcards.below_head", { count: n }),
      ),
    );
  }
  return svg;
}

// The cards in their columns and the leaders on them; the seat's own leaders
// become pickable when they may move, the conflict's two are haloed.
function piecesLayers(view, ctx, { seat, p, draw, moves }) {
  const marks = conflictMarks(view);
  const cardsLayer = s("g");
  const leadersLayer = s("g");
  const pick = { seat, p, draw, mySels: new Set(moves.map((m) => m.sel)) };
  const drawLeader = (token, cx, cy) => leaderToken(leadersLayer, view.conflict, ctx, pick, token, cx, cy);
  const mark = (key, x, y) => supportMark(leadersLayer, marks, ctx, key, x, y);
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
  if (view.pending) pendingConnector(cardsLayer, view);
  return [cardsLayer, leadersLayer];
}

// A leader on the table: haloed when in the conflict, pickable when it is the
// seat's own and may move.
function leaderToken(leadersLayer, conflict, ctx, { seat, p, draw, mySels }, token, cx, cy) {
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
    clickable(
      g,
      (ev) => togglePick(p, sel, draw, ev),
      tr("tcards.choose_leader", { leader: leaderName(token.leader) }),
    );
    leadersLayer.append(g);
  } else leadersLayer.append(piece);
}

// A disc in the supported seat's colour on a card that counts in the conflict.
function supportMark(leadersLayer, marks, ctx, key, x, y) {
  if (!marks.has(key)) return;
  const owner = marks.get(key);
  leadersLayer.append(
    s(
      "g",
      {},
      title(tr("tigris.supports", { name: seatName(ctx, owner) })),
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
}

// The connector lying face down, its colour marked when the view holds it (its player's).
function pendingConnector(cardsLayer, view) {
  const x = gapX(view.pending.gap),
    y = rowY(0);
  const back = cardShape(x, y, null, KW);
  back.append(
    title(
      view.pending.colour
        ? tr("tcards.your_connector", { colour: colourName(view.pending.colour) })
        : tr("tcards.connector_war"),
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

// The move being confirmed (a ghost), the places a move can go to, and the
// columns an offer is about.
function overlayLayer(view, ctx, { seat, p, draw }, targets) {
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
    const text = one ? label(one, ctx) : tr("tcards.moves_here", { count: cmds.length });
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
    placeButton(g, key, one, text, p, ctx, draw);
    overlay.append(g);
  }
  overlay.append(...offerMarks(view));
  return overlay;
}

// The columns a treasure, ship or VP offer is about.
function offerMarks(view) {
  const marks = [];
  const phase = view.phase || {};
  if (phase.step === "treasure_offer") {
    for (const c of phase.columns)
      marks.push(
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
    marks.push(
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
    marks.push(
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
  return marks;
}
