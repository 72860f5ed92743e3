// Tigris & Euphrates: the 16x11 board as data and as SVG, its kingdoms by flood
// fill, and the squares a move can go to.

import { s, title } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import { capital, listWords, seatName } from "../../words.js";
import {
  arrowKeys,
  COLOURS,
  clickable,
  colourName,
  DYNASTIES,
  FILL,
  LEADERS,
  leaderName,
  leaderPiece,
  moveTargets,
  oneTabStop,
  placeButton,
  placeGlyph,
  same,
  tileGlyph,
  togglePick,
} from "../tigris-common.js";
import { label, monumentColours, monumentName, tileWords } from "./words.js";

// ---- the board as data (shared/games/tigris/board.py) ----

export const W = 16;

export const H = 11;

const LETTERS = "ABCDEFGHIJKLMNOP";

const RIVER_BY_ROW = {
  0: [4, 5, 6, 7, 8, 12],
  1: [4, 12],
  2: [3, 4, 12, 13],
  3: [0, 1, 2, 3, 13, 14, 15],
  4: [14, 15],
  5: [14],
  6: [0, 1, 2, 3, 12, 13, 14],
  7: [3, 4, 5, 6, 12],
  8: [6, 7, 8, 9, 10, 11, 12],
};

const RIVER = new Set();

for (const [row, cols] of Object.entries(RIVER_BY_ROW)) for (const c of cols) RIVER.add(Number(row) * W + c);

const parse = (name) => (Number(name.slice(1)) - 1) * W + LETTERS.indexOf(name[0]);

export const CORNERS = new Set(["B2", "P2", "B8", "O9"].map(parse));

export const squareLabel = (sq) => `${LETTERS[sq % W]}${Math.floor(sq / W) + 1}`;

function neighbours(sq) {
  const c = sq % W,
    r = Math.floor(sq / W),
    out = [];
  if (r > 0) out.push(sq - W);
  if (c > 0) out.push(sq - 1);
  if (c < W - 1) out.push(sq + 1);
  if (r < H - 1) out.push(sq + W);
  return out;
}

const blockOf = (tl) => [tl, tl + 1, tl + W, tl + W + 1];

export const blockLabel = (tl) => `${squareLabel(tl)}–${squareLabel(tl + W + 1)}`;

// ---- kingdoms (a region with a leader), by flood fill; a square may be a gap ----

export function regionsOf(view, gap) {
  const occupied = view.tiles.map((t) => t !== null && t !== undefined);
  const pieces = new Map();
  view.leaders.forEach((row, seat) => {
    row.forEach((sq, i) => {
      if (sq !== null && sq !== undefined) {
        occupied[sq] = true;
        pieces.set(sq, [seat, LEADERS[i]]);
      }
    });
  });
  if (gap !== null && gap !== undefined) occupied[gap] = false;
  const label = new Array(W * H).fill(-1);
  const regions = [];
  for (let start = 0; start < W * H; start++) {
    if (!occupied[start] || label[start] >= 0) continue;
    const id = regions.length,
      members = [start];
    label[start] = id;
    for (let k = 0; k < members.length; k++) {
      for (const n of neighbours(members[k]))
        if (occupied[n] && label[n] < 0) {
          label[n] = id;
          members.push(n);
        }
    }
    regions.push({
      id,
      members,
      leaders: members.filter((m) => pieces.has(m)).map((m) => [m, ...pieces.get(m)]),
    });
  }
  return { label, regions };
}

export function flippedSquares(view) {
  const down = new Set();
  for (const m of view.monuments) for (const sq of blockOf(m.top_left)) down.add(sq);
  return down;
}

// Who supports whom in the conflict on now (public: tiles on the board).
export function supporters(view) {
  const phase = view.phase;
  const out = new Map(); // square -> the seats it supports (a temple may stand beside both leaders)
  const add = (sq, seat) => out.set(sq, [...(out.get(sq) || []), seat]);
  if (phase?.kind !== "support") return out;
  const index = COLOURS.indexOf(phase.colour);
  const down = flippedSquares(view);
  for (const seat of [phase.attacker, phase.defender]) {
    const sq = view.leaders[seat]?.[index];
    if (sq === null || sq === undefined) continue;
    if (phase.conflict === "revolt") {
      for (const n of neighbours(sq)) if (view.tiles[n] === "red" && !down.has(n)) add(n, seat);
    } else {
      const { label, regions } = regionsOf(view, view.marker);
      for (const m of regions[label[sq]].members)
        if (view.tiles[m] === phase.colour && !down.has(m)) add(m, seat);
    }
  }
  return out;
}

// ---- drawing ----

export const S = 48; // one square

const OX = 30; // room for row numbers

const OY = 28; // room for column letters

export const BW = OX + W * S + 12;

export const BH = OY + H * S + 12;

export const xy = (sq) => [OX + (sq % W) * S, OY + Math.floor(sq / W) * S];

export function drawGround(g) {
  g.append(s("rect", { x: 0, y: 0, width: BW, height: BH, rx: 10, fill: "#4a3a28" }));
  g.append(s("rect", { x: OX - 3, y: OY - 3, width: W * S + 6, height: H * S + 6, fill: "#2c2216" }));
  drawSquares(g);
  drawCoordinates(g);
}

// The squares: river and land, the river's waves and the marked corners.
function drawSquares(g) {
  const waves = [];
  for (let sq = 0; sq < W * H; sq++) {
    const [x, y] = xy(sq);
    const river = RIVER.has(sq);
    g.append(
      s("rect", {
        x,
        y,
        width: S,
        height: S,
        fill: river ? "#86bde3" : "#eadbab",
        stroke: river ? "#6aa6d1" : "#c8b47c",
        "stroke-width": 0.8,
      }),
    );
    if (river) {
      for (const dy of [16, 30]) waves.push(`M${x + 6} ${y + dy}q5 -4 9 0t9 0t9 0t9 0`);
    }
    if (CORNERS.has(sq)) {
      g.append(
        s("rect", {
          x: x + 1.5,
          y: y + 1.5,
          width: S - 3,
          height: S - 3,
          fill: "none",
          stroke: "#c48d09",
          "stroke-width": 2.5,
          "stroke-dasharray": "5 2.5",
        }),
      );
    }
  }
  g.append(
    s("path", {
      d: waves.join(""),
      fill: "none",
      stroke: "#e3f1fb",
      "stroke-width": 1.4,
      opacity: 0.75,
      "pointer-events": "none",
    }),
  );
}

// The column letters above the board and the row numbers beside it.
function drawCoordinates(g) {
  for (let c = 0; c < W; c++) {
    g.append(
      s(
        "text",
        {
          x: OX + c * S + S / 2,
          y: OY - 9,
          "text-anchor": "middle",
          "font-size": 14,
          "font-weight": 700,
          fill: "#f3e6c4",
        },
        LETTERS[c],
      ),
    );
  }
  for (let r = 0; r < H; r++) {
    g.append(
      s(
        "text",
        {
          x: OX - 9,
          y: OY + r * S + S / 2 + 5,
          "text-anchor": "end",
          "font-size": 14,
          "font-weight": 700,
          fill: "#f3e6c4",
        },
        String(r + 1),
      ),
    );
  }
}

export function tileShape(x, y, colour, opts = {}) {
  const g = s("g", { class: "zt-tile", opacity: opts.ghost ? 0.75 : null });
  g.append(
    s("rect", {
      x: x + 3,
      y: y + 3,
      width: S - 6,
      height: S - 6,
      rx: 6,
      fill: FILL[colour],
      stroke: opts.ghost ? "#1f8f1f" : "rgba(0,0,0,.55)",
      "stroke-width": opts.ghost ? 3 : 1.2,
      "stroke-dasharray": opts.ghost ? "5 3" : null,
    }),
  );
  g.append(
    s("path", {
      d: `M${x + 8} ${y + 6.5}H${x + S - 8}`,
      stroke: "rgba(255,255,255,.35)",
      "stroke-width": 2,
      "stroke-linecap": "round",
    }),
  );
  g.append(placeGlyph(tileGlyph(colour), x + S / 2, y + S / 2 + 1, 30));
  return g;
}

export function treasureShape(x, y, corner) {
  const cx = x + S - 12,
    cy = y + 12;
  return s(
    "g",
    {},
    title(corner ? tr("tigris.treasure_corner") : tr("tigris.treasure")),
    s("path", {
      d: `M${cx} ${cy - 9}L${cx + 8} ${cy}L${cx} ${cy + 9}L${cx - 8} ${cy}Z`,
      fill: "#ffd23f",
      stroke: corner ? "#7a2e00" : "#6b4b00",
      "stroke-width": corner ? 2.2 : 1.4,
    }),
    s("path", {
      d: `M${cx - 8} ${cy}H${cx + 8}M${cx - 3} ${cy - 5}L${cx} ${cy}L${cx + 3} ${cy - 5}`,
      fill: "none",
      stroke: "#9a6e00",
      "stroke-width": 1,
    }),
  );
}

export function catastropheShape(x, y, ghost) {
  return s(
    "g",
    { opacity: ghost ? 0.8 : null },
    title(tr("tigris.catastrophe")),
    s("rect", {
      x: x + 2,
      y: y + 2,
      width: S - 4,
      height: S - 4,
      rx: 4,
      fill: "#3b312b",
      stroke: ghost ? "#1f8f1f" : "#120d0a",
      "stroke-width": ghost ? 3 : 1.5,
      "stroke-dasharray": ghost ? "5 3" : null,
    }),
    s("path", {
      d: `M${x + 10} ${y + 10}L${x + 20} ${y + 22}L${x + 15} ${y + 25}L${x + 26} ${y + 38}M${x + 38} ${y + 10}L${x + 29} ${y + 19}L${x + 33} ${y + 24}L${x + 22} ${y + 38}`,
      fill: "none",
      stroke: "#ff8a3d",
      "stroke-width": 3,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    }),
  );
}

export function monumentShape(m) {
  const [x, y] = xy(m.top_left);
  const [a, b] = monumentColours(m.monument);
  const size = 2 * S;
  const g = s(
    "g",
    { class: "zt-monument" },
    title(
      tr("tigris.monument_title", {
        monument: monumentName(m.monument),
        colours: listWords([a, b].map(colourName)),
      }),
    ),
  );
  g.append(
    s("rect", {
      x: x + 3,
      y: y + 3,
      width: size - 6,
      height: size - 6,
      rx: 7,
      fill: "#d9c9a2",
      stroke: "#3a2c1a",
      "stroke-width": 2,
    }),
  );
  const tiers = [
    [a, 70, 18],
    [b, 50, 17],
    [a, 30, 16],
  ];
  let top = y + size - 12;
  for (const [c, w, th] of tiers) {
    top -= th;
    g.append(
      s("rect", {
        x: x + size / 2 - w / 2,
        y: top,
        width: w,
        height: th,
        fill: FILL[c],
        stroke: "#f7f0dc",
        "stroke-width": 1.5,
      }),
    );
  }
  g.append(
    s("rect", {
      x: x + size / 2 - 6,
      y: top - 9,
      width: 12,
      height: 9,
      fill: FILL[b],
      stroke: "#f7f0dc",
      "stroke-width": 1.5,
    }),
  );
  return g;
}

export function markerShape(x, y) {
  return s(
    "g",
    {},
    title(tr("tigris.unification_title")),
    s("rect", {
      x: x + 3,
      y: y + 3,
      width: S - 6,
      height: S - 6,
      rx: 6,
      fill: "#fff8e8",
      stroke: "#b22",
      "stroke-width": 2.5,
    }),
    s("circle", { cx: x + S / 2, cy: y + S / 2, r: 12, fill: "none", stroke: "#b22", "stroke-width": 3 }),
    s("path", {
      d: `M${x + S / 2 - 12} ${y + S / 2}H${x + S / 2 + 12}M${x + S / 2} ${y + S / 2 - 12}V${y + S / 2 + 12}`,
      stroke: "#b22",
      "stroke-width": 3,
    }),
  );
}

export function kingdomOutline(members) {
  const inside = new Set(members);
  const seg = [];
  for (const sq of members) {
    const [x, y] = xy(sq),
      c = sq % W,
      r = Math.floor(sq / W);
    if (r === 0 || !inside.has(sq - W)) seg.push(`M${x} ${y}H${x + S}`);
    if (r === H - 1 || !inside.has(sq + W)) seg.push(`M${x} ${y + S}H${x + S}`);
    if (c === 0 || !inside.has(sq - 1)) seg.push(`M${x} ${y}V${y + S}`);
    if (c === W - 1 || !inside.has(sq + 1)) seg.push(`M${x + S} ${y}V${y + S}`);
  }
  const d = seg.join("");
  return s(
    "g",
    { "pointer-events": "none" },
    s("path", { d, fill: "none", stroke: "#fff6d8", "stroke-width": 6, "stroke-linecap": "round" }),
    s("path", { d, fill: "none", stroke: "#6b3f0c", "stroke-width": 3, "stroke-linecap": "round" }),
  );
}

// ---- the moves this seat may make ----

export function boardMove(cmd) {
  const t = String(cmd.type).replace(/^tigris\./, "");
  if (t === "place_tile") return { sel: `tile:${cmd.colour}`, target: cmd.square };
  if (t === "position_leader") return { sel: `leader:${cmd.leader}`, target: cmd.square };
  if (t === "place_catastrophe") return { sel: "catastrophe", target: cmd.square };
  return null;
}

// The board with everything on it, and the squares a move can go to (which the
// panel lists too): after a pick, that piece's squares; before, any.
export function drawBoard(view, ctx, start) {
  const { p, moves } = start;
  const { regions } = regionsOf(view, view.marker);
  const kingdoms = regions.filter((r) => r.leaders.length);
  const targets = moveTargets(moves, p);
  const svg = s("svg", {
    class: `zt-board${p.sel ? "" : " zt-browse"}`,
    viewBox: `0 0 ${BW} ${BH}`,
    role: "img",
    "aria-label": tr("tigris.board_label"),
    preserveAspectRatio: "xMidYMid meet",
  });
  const ground = s("g");
  drawGround(ground);
  svg.append(
    ground,
    piecesLayer(view),
    kingdomsLayer(kingdoms),
    supportLayer(view, ctx),
    leadersLayer(view, ctx, start),
    overlayLayer(view, ctx, start, targets),
  );
  arrowKeys(svg);
  oneTabStop(svg);
  return { svg, kingdoms, targets };
}

// Tiles, catastrophes, monuments, treasures and the monument marker.
function piecesLayer(view) {
  const down = flippedSquares(view);
  const treasures = new Set(view.treasures);
  const catastrophes = new Set(view.catastrophes);
  const pieces = s("g");
  for (let sq = 0; sq < W * H; sq++) {
    const [x, y] = xy(sq);
    const tile = view.tiles[sq];
    if (catastrophes.has(sq)) pieces.append(catastropheShape(x, y));
    else if (tile && !down.has(sq)) {
      const t = tileShape(x, y, tile);
      t.prepend(title(tr("tigris.tile_at", { tile: capital(tileWords(tile, 1)), square: squareLabel(sq) })));
      pieces.append(t);
    }
  }
  for (const m of view.monuments) pieces.append(monumentShape(m));
  for (const sq of treasures) {
    const [x, y] = xy(sq);
    pieces.append(treasureShape(x, y, CORNERS.has(sq)));
  }
  if (view.marker !== null && view.marker !== undefined) pieces.append(markerShape(...xy(view.marker)));
  return pieces;
}

// Kingdoms: outlined and numbered.
function kingdomsLayer(kingdoms) {
  const outlines = s("g", { class: "zt-kingdoms-layer" });
  kingdoms.forEach((k, i) => {
    outlines.append(kingdomOutline(k.members));
    const first = Math.min(...k.members);
    const [x, y] = xy(first);
    outlines.append(
      s(
        "g",
        { "pointer-events": "none" },
        s("circle", {
          cx: x + 8,
          cy: y + 8,
          r: 7.5,
          fill: "#6b3f0c",
          stroke: "#fff6d8",
          "stroke-width": 1.5,
        }),
        s(
          "text",
          {
            x: x + 8,
            y: y + 11.5,
            "text-anchor": "middle",
            "font-size": 10,
            "font-weight": 700,
            fill: "#fff",
          },
          String(i + 1),
        ),
      ),
    );
  });
  return outlines;
}

// The conflict: each side's supporters marked.
function supportLayer(view, ctx) {
  const support = supporters(view);
  const conflictLayer = s("g", { "pointer-events": "none" });
  for (const [sq, owners] of support) {
    const [x, y] = xy(sq);
    owners.forEach((owner, k) => {
      conflictLayer.append(
        s(
          "g",
          {},
          title(tr("tigris.supports", { name: seatName(ctx, owner) })),
          s("circle", {
            cx: x + 10 + 13 * k,
            cy: y + S - 10,
            r: 6.5,
            fill: DYNASTIES[owner % 4].ring,
            stroke: "#111",
            "stroke-width": 1.5,
          }),
        ),
      );
    });
  }
  return conflictLayer;
}

// Leaders, the conflict's two haloed; the seat's own become pickable when they may move.
function leadersLayer(view, ctx, { seat, p, draw, moves }) {
  const phase = view.phase || {};
  const leaderLayer = s("g");
  const mySels = new Set(moves.map((m) => m.sel));
  view.leaders.forEach((row, owner) => {
    row.forEach((sq, i) => {
      if (sq === null || sq === undefined) return;
      const [x, y] = xy(sq);
      const leader = LEADERS[i];
      const piece = leaderPiece(x + S / 2, y + S / 2, 18, owner, leader, ctx);
      if (
        phase.kind === "support" &&
        COLOURS[i] === phase.colour &&
        (owner === phase.attacker || owner === phase.defender)
      ) {
        leaderLayer.append(
          s("circle", {
            class: "zt-halo",
            cx: x + S / 2,
            cy: y + S / 2,
            r: 23,
            fill: "none",
            stroke: "#ff2d20",
            "stroke-width": 3.5,
            "stroke-dasharray": "6 3",
          }),
        );
      }
      const sel = `leader:${leader}`;
      if (owner === seat && mySels.has(sel)) {
        const g = s(
          "g",
          {
            class: `zt-pick${p.sel === sel ? " zt-picked" : ""}`,
            "data-key": `pick-${sel}`,
            "data-pick": sel,
          },
          s("circle", {
            class: "zt-ring",
            cx: x + S / 2,
            cy: y + S / 2,
            r: 22,
            fill: "rgba(255,255,255,.01)",
            stroke: "none",
          }),
          piece,
        );
        clickable(
          g,
          (ev) => togglePick(p, sel, draw, ev),
          tr("tigris.choose_leader_at", { leader: leaderName(leader), square: squareLabel(sq) }),
        );
        leaderLayer.append(g);
      } else {
        leaderLayer.append(piece);
      }
    });
  });
  return leaderLayer;
}

// The move being confirmed (a ghost), the squares a move can go to, and the monument or treasure choices.
function overlayLayer(view, ctx, start, targets) {
  const phase = view.phase || {};
  const { seat, p, draw } = start;
  const pendingMove = p.pending ? boardMove(p.pending) : null;
  const overlay = s("g", { class: "zt-overlay" });
  if (pendingMove) {
    const [x, y] = xy(pendingMove.target);
    if (pendingMove.sel.startsWith("tile:"))
      overlay.append(tileShape(x, y, p.pending.colour, { ghost: true }));
    else if (pendingMove.sel === "catastrophe") overlay.append(catastropheShape(x, y, true));
    else
      overlay.append(
        s("g", { opacity: 0.85 }, leaderPiece(x + S / 2, y + S / 2, 18, seat, p.pending.leader, ctx)),
      );
  }
  for (const [sq, cmds] of targets) {
    const [x, y] = xy(sq);
    const one = cmds.length === 1 ? cmds[0] : null;
    const isPending = one && same(one, p.pending);
    const g = s(
      "g",
      {
        class: `legal${isPending ? " zt-pending" : ""}`,
        "data-key": `sq-${sq}`,
        "data-square": squareLabel(sq),
        "data-command": one ? JSON.stringify(one) : null,
        "data-choices": one ? null : String(cmds.length),
      },
      s("rect", { class: "zt-hl", x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 7 }),
    );
    const text = one
      ? label(one, ctx)
      : tr("tigris.square_moves", { square: squareLabel(sq), count: cmds.length });
    g.append(title(text));
    placeButton(g, sq, one, text, p, ctx, draw);
    overlay.append(g);
  }
  phaseMarks(overlay, phase);
  return overlay;
}

// The monument's possible places, or the treasures that may be taken.
function phaseMarks(overlay, phase) {
  if (phase.kind === "choose_monument") {
    for (const tl of new Set(phase.options.map((o) => o.top_left))) {
      const [x, y] = xy(tl);
      overlay.append(
        s("rect", {
          x: x + 1,
          y: y + 1,
          width: 2 * S - 2,
          height: 2 * S - 2,
          rx: 8,
          fill: "rgba(255,230,90,.25)",
          stroke: "#ffd400",
          "stroke-width": 3,
          "stroke-dasharray": "8 4",
          "pointer-events": "none",
        }),
      );
    }
  }
  if (phase.kind === "choose_treasures") {
    for (const sq of phase.candidates) {
      const [x, y] = xy(sq);
      overlay.append(
        s("circle", {
          cx: x + S - 12,
          cy: y + 12,
          r: 13,
          fill: "none",
          stroke: "#ffd400",
          "stroke-width": 3,
          class: "zt-halo",
          "pointer-events": "none",
        }),
      );
    }
  }
}
