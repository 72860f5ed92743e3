// Tigris & Euphrates: the 16x11 board, the side panel, and the words for
// every event and command. Drawn only from the view document the page holds
// (a spectator's or one seat's view); nothing hidden is ever inferred.

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
  miniTile,
  oneTabStop,
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

// ---- the board as data (shared/games/tigris/board.py) ----

const W = 16;
const H = 11;
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
const CORNERS = new Set(["B2", "P2", "B8", "O9"].map(parse));

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
const blockLabel = (tl) => `${squareLabel(tl)}–${squareLabel(tl + W + 1)}`;

// ---- words ----

const TILE = { red: "temple", blue: "farm", green: "market", black: "settlement" };
const TILES = { red: "temples", blue: "farms", green: "markets", black: "settlements" };
const tileWords = (colour, n) =>
  n === 1 ? `a ${colour} ${TILE[colour]}` : `${n} ${colour} ${TILES[colour]}`;
const monumentColours = (m) => String(m).split("_");
const monumentName = (m) => monumentColours(m).join("–");
const supporterColour = (phase) => (phase.conflict === "revolt" ? "red" : phase.colour);

// The view last drawn: labels read where leaders stand and which conflict is on.
let current = null;

function leaderSquare(view, seat, leader) {
  const row = view?.leaders?.[seat];
  return row ? row[LEADERS.indexOf(leader)] : null;
}

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : doc?.seat;
  const t = String(command.type || "").replace(/^tigris\./, "");
  switch (t) {
    case "place_tile":
      return `Place ${tileWords(command.colour, 1)} at ${squareLabel(command.square)}`;
    case "position_leader": {
      const from =
        view && seat !== null && seat !== undefined ? leaderSquare(view, seat, command.leader) : null;
      return from === null || from === undefined
        ? `Position your ${command.leader} at ${squareLabel(command.square)}`
        : `Move your ${command.leader} from ${squareLabel(from)} to ${squareLabel(command.square)}`;
    }
    case "withdraw_leader": {
      const from =
        view && seat !== null && seat !== undefined ? leaderSquare(view, seat, command.leader) : null;
      return `Withdraw your ${command.leader}${from === null || from === undefined ? "" : ` from ${squareLabel(from)}`}`;
    }
    case "place_catastrophe": {
      const there = view?.tiles ? view.tiles[command.square] : null;
      return `Place a catastrophe on ${squareLabel(command.square)}${there ? `, destroying ${tileWords(there, 1)}` : ""}`;
    }
    case "swap_tiles": {
      const parts = COLOURS.filter((c) => command[c] > 0).map((c) => `${command[c]} ${c}`);
      const n = COLOURS.reduce((a, c) => a + (command[c] || 0), 0);
      return n === 0
        ? "Swap no tiles (pass the action)"
        : `Swap ${plural(n, "tile")} (${listWords(parts)}) for new ones from the bag`;
    }
    case "pass":
      return "Pass this action";
    case "commit_support": {
      const phase = view?.phase && view.phase.kind === "support" ? view.phase : null;
      if (!command.count) return "Commit no support";
      return phase
        ? `Commit ${tileWords(supporterColour(phase), command.count)}`
        : `Commit ${plural(command.count, "tile")}`;
    }
    case "choose_war_colour":
      return `Fight the war of the ${LEADER_OF[command.colour]}s (${command.colour}) first`;
    case "build_monument":
      return `Build the ${monumentName(command.monument)} monument on ${blockLabel(command.top_left)}`;
    case "decline_monument":
      return "Build no monument";
    case "take_treasures":
      return command.squares.length === 1
        ? `Take the treasure at ${squareLabel(command.squares[0])}`
        : `Take the treasures at ${listWords(command.squares.map(squareLabel))}`;
    default:
      return t.replace(/_/g, " ");
  }
}

const POINT_REASON = {
  tile: "",
  revolt: " for winning the revolt",
  war: " from the war",
  monument: " from a monument",
};
const RETURN_REASON = {
  withdrawn: "is withdrawn to the supply",
  revolt: "loses the revolt and goes back to the supply",
  war: "loses the war and goes back to the supply",
  no_temple: "has no temple beside it any more and goes back to the supply",
};
const GAME_END = {
  treasures: "only two treasures are left on the board",
  bag_empty: "the bag is empty",
  stalemate: "nobody drew a tile or took a treasure for several rounds",
};

function colourList(colours) {
  const counts = COLOURS.map((c) => colours.filter((x) => x === c).length);
  return listWords(COLOURS.filter((_, i) => counts[i]).map((c, _i) => `${counts[COLOURS.indexOf(c)]} ${c}`));
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const t = String(event.type || "").replace(/^tigris\./, "");
  switch (t) {
    case "game_started":
      return `The game begins with ${event.seats} players; ${who(event.first)} starts. Ten temples stand on the board, each with a treasure.`;
    case "bag_filled":
      return `The bag is filled with ${plural(event.order.length, "tile")}.`;
    case "tiles_drawn":
      return `${who(event.seat)} draws ${colourList(event.tiles)} (${plural(event.tiles.length, "tile")}).`;
    case "tiles_drawn_count":
      return `${who(event.seat)} draws ${plural(event.count, "tile")} from the bag.`;
    case "tiles_discarded":
      return `${who(event.seat)} discards ${colourList(event.tiles)} (${plural(event.tiles.length, "tile")}).`;
    case "tiles_discarded_count":
      return `${who(event.seat)} discards ${plural(event.count, "tile")}.`;
    case "turn_started":
      return `${who(event.seat)}'s turn begins.`;
    case "leader_positioned":
      return event.origin === null || event.origin === undefined
        ? `${who(event.seat)} positions the ${event.leader} (${COLOUR_OF[event.leader]}) at ${squareLabel(event.square)}.`
        : `${who(event.seat)} moves the ${event.leader} from ${squareLabel(event.origin)} to ${squareLabel(event.square)}.`;
    case "leader_returned":
      return `${who(event.seat)}'s ${event.leader} ${RETURN_REASON[event.reason] || "goes back to the supply"}.`;
    case "tile_placed":
      return `${who(event.seat)} places ${tileWords(event.colour, 1)} at ${squareLabel(event.square)}.`;
    case "marker_placed":
      return `Two kingdoms are united at ${squareLabel(event.square)}: the unification tile marks it while wars are fought.`;
    case "marker_removed":
      return `Peace returns: the unification tile leaves ${squareLabel(event.square)}.`;
    case "points_scored":
      return `${who(event.seat)} scores ${plural(event.amount, `${event.colour} point`)}${POINT_REASON[event.reason] ?? ""}.`;
    case "catastrophe_placed":
      return `${who(event.seat)} places a catastrophe on ${squareLabel(event.square)}${event.destroyed ? `, destroying ${tileWords(event.destroyed, 1)}` : ""}.`;
    case "action_passed":
      return `${who(event.seat)} passes.`;
    case "revolt_started":
      return `Revolt of the ${event.colour} leaders! ${who(event.attacker)}'s ${LEADER_OF[event.colour]} (${plural(event.attacker_base, "temple")} beside it) challenges ${who(event.defender)}'s (${event.defender_base}).`;
    case "wars_pending":
      return `Wars break out over ${listWords(event.colours)}; the active player chooses which is fought first.`;
    case "war_started":
      return `War between the ${event.colour} leaders: ${who(event.attacker)} (${tileWords(event.colour, event.attacker_base)} in the kingdom) attacks ${who(event.defender)} (${event.defender_base}).`;
    case "support_committed":
      return event.count
        ? `${who(event.seat)} commits ${tileWords(event.colour, event.count)} in support.`
        : `${who(event.seat)} commits no support.`;
    case "conflict_resolved": {
      const hi = Math.max(event.attacker_total, event.defender_total),
        lo = Math.min(event.attacker_total, event.defender_total);
      return `${who(event.winner)} wins the ${event.colour} ${event.conflict} against ${who(event.loser)}, ${hi} to ${lo}.`;
    }
    case "tiles_removed":
      return `The war removes ${tileWords(event.colour, event.squares.length)} at ${listWords(event.squares.map(squareLabel))}.`;
    case "monument_offered": {
      const blocks = [...new Set(event.options.map((o) => o.top_left))].map(blockLabel);
      return `${who(event.seat)} may build a monument on ${listWords(blocks)}.`;
    }
    case "monument_built":
      return `${who(event.seat)} builds the ${monumentName(event.monument)} monument on ${blockLabel(event.top_left)}.`;
    case "monument_declined":
      return `${who(event.seat)} builds no monument${event.top_lefts?.length ? ` on ${listWords(event.top_lefts.map(blockLabel))}` : ""}.`;
    case "treasure_choice_offered":
      return `${who(event.seat)} may take ${plural(event.count, "treasure")} from ${listWords(event.candidates.map(squareLabel))}.`;
    case "treasures_taken":
      return event.squares.length === 1
        ? `${who(event.seat)} takes the treasure at ${squareLabel(event.squares[0])}.`
        : `${who(event.seat)} takes the treasures at ${listWords(event.squares.map(squareLabel))}.`;
    case "action_ended":
      return `${who(event.seat)} finishes action ${event.number} of 2.`;
    case "game_ended":
      return `The game ends: ${GAME_END[event.reason] || event.reason}.`;
    default:
      return "";
  }
}

// Public scores for the page's list of players: points per colour where the
// view shows them (a seat's own, or everyone's with open scoring), else hand sizes.
export function summary(doc) {
  const view = doc?.view;
  if (!view) return [];
  const shown = new Map((view.scores || []).map((sc) => [sc.seat, sc]));
  return Array.from({ length: view.seats }, (_, seat) => {
    const sc = shown.get(seat);
    const hand = `${plural(view.hand_counts[seat], "tile")} in hand`;
    if (!sc) return hand;
    return `${COLOURS.map((c, i) => `${sc.points[i]} ${c}`).join(" · ")} · ${plural(sc.treasures, "treasure")}`;
  });
}

// ---- kingdoms (a region with a leader), by flood fill; a square may be a gap ----

function regionsOf(view, gap) {
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

function flippedSquares(view) {
  const down = new Set();
  for (const m of view.monuments) for (const sq of blockOf(m.top_left)) down.add(sq);
  return down;
}

// Who supports whom in the conflict on now (public: tiles on the board).
function supporters(view) {
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

const S = 48; // one square
const OX = 30; // room for row numbers
const OY = 28; // room for column letters
const BW = OX + W * S + 12;
const BH = OY + H * S + 12;
const xy = (sq) => [OX + (sq % W) * S, OY + Math.floor(sq / W) * S];

function drawGround(g) {
  g.append(s("rect", { x: 0, y: 0, width: BW, height: BH, rx: 10, fill: "#4a3a28" }));
  g.append(s("rect", { x: OX - 3, y: OY - 3, width: W * S + 6, height: H * S + 6, fill: "#2c2216" }));
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

function tileShape(x, y, colour, opts = {}) {
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

function treasureShape(x, y, corner) {
  const cx = x + S - 12,
    cy = y + 12;
  return s(
    "g",
    {},
    title(corner ? "Treasure (corner: taken first)" : "Treasure"),
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

function catastropheShape(x, y, ghost) {
  return s(
    "g",
    { opacity: ghost ? 0.8 : null },
    title("Catastrophe"),
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

function monumentShape(m) {
  const [x, y] = xy(m.top_left);
  const [a, b] = monumentColours(m.monument);
  const size = 2 * S;
  const g = s(
    "g",
    { class: "zt-monument" },
    title(`The ${monumentName(m.monument)} monument (${a} and ${b})`),
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

function markerShape(x, y) {
  return s(
    "g",
    {},
    title("Unification tile: wars are being fought"),
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

function kingdomOutline(members) {
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

function boardMove(cmd) {
  const t = String(cmd.type).replace(/^tigris\./, "");
  if (t === "place_tile") return { sel: `tile:${cmd.colour}`, target: cmd.square };
  if (t === "position_leader") return { sel: `leader:${cmd.leader}`, target: cmd.square };
  if (t === "place_catastrophe") return { sel: "catastrophe", target: cmd.square };
  return null;
}

function selWords(sel) {
  if (!sel) return "";
  if (sel === "catastrophe") return "a catastrophe";
  const [kind, what] = sel.split(":");
  return kind === "tile" ? `a ${what} ${TILE[what]}` : `your ${what}`;
}

// ---- render ----

export function render(root, doc, ctx) {
  current = doc;
  const start = begin(root, doc, ctx, render, boardMove);
  if (!start) return;
  const { view, seat, legal, p, draw, moves, others } = start;

  const svg = s("svg", {
    class: `zt-board${p.sel ? "" : " zt-browse"}`,
    viewBox: `0 0 ${BW} ${BH}`,
    role: "img",
    "aria-label": "The Tigris & Euphrates board, columns A to P, rows 1 to 11",
    preserveAspectRatio: "xMidYMid meet",
  });
  const ground = s("g");
  drawGround(ground);
  svg.append(ground);

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
      t.prepend(title(`${cap(tileWords(tile, 1))} at ${squareLabel(sq)}`));
      pieces.append(t);
    }
  }
  for (const m of view.monuments) pieces.append(monumentShape(m));
  for (const sq of treasures) {
    const [x, y] = xy(sq);
    pieces.append(treasureShape(x, y, CORNERS.has(sq)));
  }
  if (view.marker !== null && view.marker !== undefined) pieces.append(markerShape(...xy(view.marker)));
  svg.append(pieces);

  // Kingdoms: outlined and numbered.
  const { regions } = regionsOf(view, view.marker);
  const kingdoms = regions.filter((r) => r.leaders.length);
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
  svg.append(outlines);

  // The conflict: its two leaders haloed, each side's supporters marked.
  const phase = view.phase || {};
  const support = supporters(view);
  const conflictLayer = s("g", { "pointer-events": "none" });
  for (const [sq, owners] of support) {
    const [x, y] = xy(sq);
    owners.forEach((owner, k) => {
      conflictLayer.append(
        s(
          "g",
          {},
          title(`Supports ${seatName(ctx, owner)}`),
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
  svg.append(conflictLayer);

  // Leaders; the seat's own become pickable when they may move.
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
        clickable(g, (ev) => togglePick(p, sel, draw, ev), `Choose your ${leader} at ${squareLabel(sq)}`);
        leaderLayer.append(g);
      } else {
        leaderLayer.append(piece);
      }
    });
  });
  svg.append(leaderLayer);

  // Squares where a move can go: after a pick, its squares; before, any.
  const targets = new Map();
  for (const m of moves) {
    if (p.sel && m.sel !== p.sel) continue;
    if (!targets.has(m.target)) targets.set(m.target, []);
    targets.get(m.target).push(m.cmd);
  }
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
    const text = one ? label(one, ctx) : `${squareLabel(sq)}: ${cmds.length} possible moves`;
    g.append(title(text));
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
          p.target = sq;
          p.pending = null;
        }
        p.msg = "";
        redraw(draw);
      },
      text,
    );
    overlay.append(g);
  }
  // Monument or treasure choices: show where they are.
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
  svg.append(overlay);
  arrowKeys(svg);
  oneTabStop(svg);

  const panel = h("div", { class: "zt-panel" });
  panel.append(statusSection(doc, view, ctx, seat));
  if (phase.kind === "support") panel.append(conflictSection(view, ctx));
  if (legal.length) panel.append(movesSection(doc, view, ctx, seat, p, moves, others, targets, draw));
  if (seat !== null && view.hand)
    panel.append(
      handSection(view, p, moves, draw, legal.length > 0, {
        heading: "Your tiles",
        kind: "tile",
        mini: (c) => miniTile(c, 24),
        name: (c, n) => (n === 1 ? TILE[c] : TILES[c]),
        tip: (c) => `Place a ${c} ${TILE[c]}`,
      }),
    );
  panel.append(playersSection(doc, view, ctx, seat));
  if (kingdoms.length) panel.append(kingdomsSection(kingdoms, view, ctx));
  panel.append(legendSection());

  root.append(
    h(
      "div",
      { class: "zt-host" },
      h("div", { class: "zt-table zt-tigris" }, h("div", { class: "zt-boardwrap" }, svg), panel),
    ),
  );
}

function awaitedWords(view, ctx, seat, actors) {
  const phase = view.phase || {};
  const you = (s2) => (s2 === seat ? "you" : seatName(ctx, s2));
  switch (phase.kind) {
    case "acting":
      return `${view.active === seat ? "Your turn" : `${seatName(ctx, view.active)}'s turn`} · action ${Math.min(view.actions_done + 1, 2)} of 2`;
    case "support": {
      const waiting =
        phase.attacker_commit === null || phase.attacker_commit === undefined
          ? phase.attacker
          : phase.defender;
      return `${cap(phase.conflict)} of the ${phase.colour} leaders · ${cap(you(waiting))} to commit ${TILES[supporterColour(phase)]}`;
    }
    case "choose_war":
      return `Wars over ${listWords(phase.colours)} · ${cap(you(view.active))} to choose which is fought first`;
    case "choose_monument":
      return `${cap(you(view.active))} may build a monument`;
    case "choose_treasures":
      return `${cap(you(phase.seat))} to take ${plural(phase.count, "treasure")}`;
    case "over":
      return "The game is over";
    default:
      return actors?.length ? `Waiting for ${listWords(actors.map((a) => seatName(ctx, a)))}` : "";
  }
}

function statusSection(doc, view, ctx, seat) {
  const sec = section("Now");
  sec.setAttribute("data-zt", "status");
  sec.append(h("div", { class: "zt-status" }, awaitedWords(view, ctx, seat, doc.actors)));
  if (doc.over && doc.result) {
    const rows = doc.result.standings.map((st) =>
      h(
        "div",
        {},
        `${st.place}. ${seatName(ctx, st.seat)} — ${st.score}`,
        st.tiebreak?.length ? h("span", { class: "zt-sub" }, ` (then ${st.tiebreak.join(", ")})`) : null,
      ),
    );
    sec.append(
      h("div", { class: "zt-sub" }, `Ended: ${GAME_END[doc.result.reason] || doc.result.reason}.`),
      ...rows,
    );
  } else {
    const left = view.treasures.length;
    sec.append(
      h(
        "div",
        { class: "zt-sub" },
        `${plural(view.bag_count, "tile")} in the bag · ${plural(left, "treasure")} on the board`,
      ),
    );
  }
  return sec;
}

function conflictSection(view, ctx) {
  const phase = view.phase;
  const sup = supporterColour(phase);
  const committed = phase.attacker_commit;
  const sec = section(`${cap(phase.conflict)} of the ${LEADER_OF[phase.colour]}s`);
  sec.classList.add("zt-conflict");
  const side = (seat, base, commit, role) =>
    h(
      "div",
      {},
      h(
        "div",
        { class: "zt-row", style: "justify-content:center" },
        miniLeader(seat, LEADER_OF[phase.colour], ctx),
        h("b", {}, seatName(ctx, seat)),
      ),
      h("div", { class: "zt-sub" }, role),
      h("div", { class: "zt-big" }, String(base + (commit ?? 0))),
      h(
        "div",
        { class: "zt-sub" },
        `${base} on the board${commit === null || commit === undefined ? "" : ` + ${commit} committed`}`,
      ),
    );
  sec.append(
    h(
      "div",
      { class: "zt-vs" },
      side(phase.attacker, phase.attacker_base, committed, "attacker"),
      h("div", { class: "zt-big" }, "vs"),
      side(phase.defender, phase.defender_base, null, "defender"),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-hint" },
      `Supporters are ${TILES[sup]} (${phase.conflict === "revolt" ? "beside each leader" : "in each leader's kingdom"}, marked with a dot in the player's colour). Ties go to the defender.`,
    ),
  );
  return sec;
}

function movesSection(_doc, view, ctx, seat, p, moves, others, targets, draw) {
  const phase = view.phase || {};
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
          ? `Now click a highlighted square for ${selWords(p.sel)} (or walk them with the arrow keys and press Enter; Esc to cancel).`
          : "Choose a tile from your hand, a leader or a catastrophe, then a highlighted square — or click a highlighted square first.",
      ),
    );
    // Leaders and the catastrophe (tiles are chosen in the hand below).
    const leaderRow = h("div", { class: "zt-row" });
    for (const leader of LEADERS) {
      const sel = `leader:${leader}`;
      if (!moves.some((m) => m.sel === sel)) continue;
      const at = leaderSquare(view, seat, leader);
      const b = button(
        [
          miniLeader(seat, leader, ctx),
          ` ${cap(leader)}${at === null || at === undefined ? "" : ` (${squareLabel(at)})`}`,
        ],
        (ev) => choose(sel, ev),
        {
          class: "zt-chip",
          "aria-pressed": String(p.sel === sel),
          "data-key": `sel-${sel}`,
          "data-pick": sel,
          title: `Position or move your ${leader}`,
        },
      );
      leaderRow.append(b);
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      const left = view.catastrophes_left[seat];
      leaderRow.append(
        button(
          [
            miniSvg(
              22,
              s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 5, fill: "#3b312b" }),
              s("path", {
                d: "M9 9L18 19L14 22L22 32M31 9L24 16L27 20L19 31",
                fill: "none",
                stroke: "#ff8a3d",
                "stroke-width": 3,
              }),
            ),
            ` Catastrophe (${left} left)`,
          ],
          (ev) => choose("catastrophe", ev),
          {
            class: "zt-chip",
            "aria-pressed": String(p.sel === "catastrophe"),
            "data-key": "sel-catastrophe",
            "data-pick": "catastrophe",
          },
        ),
      );
    }
    if (leaderRow.childNodes.length) box.append(leaderRow);
  }
  if (p.target !== null && p.target !== undefined && targets.has(p.target)) {
    box.append(h("div", { class: "zt-hint" }, `At ${squareLabel(p.target)} you may:`));
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

  // Everything that is not a square: buttons, worded by label().
  const swaps = others.filter((c) => c.type === "tigris.swap_tiles");
  for (const cmd of others) {
    if (cmd.type === "tigris.swap_tiles") continue;
    box.append(
      button(label(cmd, ctx), () => send(ctx, cmd, p, draw), {
        "data-command": JSON.stringify(cmd),
        "data-key": `cmd-${JSON.stringify(cmd)}`,
      }),
    );
  }
  if (swaps.length) box.append(swapBox(view, ctx, p, swaps, draw));
  if (phase.kind === "choose_treasures")
    box.append(h("div", { class: "zt-hint" }, "The treasures you may take are circled on the board."));
  if (phase.kind === "choose_monument")
    box.append(
      h("div", { class: "zt-hint" }, "The square where a monument may stand is outlined on the board."),
    );
  return sec;
}

// Swapping: choose how many of each colour to give back, then swap.
function swapBox(view, ctx, p, swaps, draw) {
  p.extra.swap ||= { red: 0, blue: 0, green: 0, black: 0 };
  const counts = p.extra.swap;
  const wrap = h("details", { class: "zt-swap", open: p.extra.swapOpen ? "" : null });
  wrap.addEventListener("toggle", () => {
    p.extra.swapOpen = wrap.open;
  });
  wrap.append(h("summary", { class: "zt-btn", "data-key": "swap-open" }, "Swap tiles…"));
  const row = h("div", { class: "zt-row", style: "margin:6px 0" });
  for (const [i, c] of COLOURS.entries()) {
    const held = view.hand ? view.hand[i] : 0;
    if (!held) continue;
    row.append(
      h(
        "span",
        { class: "zt-chip" },
        miniTile(c, 18),
        button(
          "−",
          () => {
            counts[c] = Math.max(0, counts[c] - 1);
            redraw(draw);
          },
          { "aria-label": `one ${c} fewer`, "data-key": `swap-${c}-minus`, style: "padding:0 6px" },
        ),
        h("span", {}, `${counts[c]}/${held}`),
        button(
          "+",
          () => {
            counts[c] = Math.min(held, counts[c] + 1);
            redraw(draw);
          },
          {
            "aria-label": `one ${c} more`,
            "data-key": `swap-${c}-plus`,
            "data-held": String(held),
            style: "padding:0 6px",
          },
        ),
      ),
    );
  }
  const cmd = swaps.find((x) => COLOURS.every((c) => (x[c] || 0) === counts[c]));
  wrap.append(
    row,
    button(cmd ? label(cmd, ctx) : "Choose tiles to swap", () => cmd && send(ctx, cmd, p, draw), {
      class: "zt-btn zt-primary",
      disabled: cmd ? null : "",
      "data-command": cmd ? JSON.stringify(cmd) : null,
      "data-key": "swap-go",
    }),
  );
  return wrap;
}

function playersSection(doc, view, ctx, seat) {
  const sec = section("Players");
  const scores = new Map((view.scores || []).map((sc) => [sc.seat, sc]));
  const actors = new Set(doc.actors || []);
  for (let pl = 0; pl < view.seats; pl++) {
    const supply = LEADERS.filter(
      (_, i) => view.leaders[pl][i] === null || view.leaders[pl][i] === undefined,
    );
    const sc = scores.get(pl);
    const row = h(
      "div",
      { class: `zt-player${actors.has(pl) ? " zt-turn" : ""}`, "data-seat": String(pl) },
      dynastyBadge(pl, 24),
      h(
        "span",
        { class: "zt-name" },
        seatName(ctx, pl),
        pl === seat ? " (you)" : "",
        h("span", { class: "zt-sub" }, ` · ${DYNASTIES[pl % 4].name}`),
      ),
      h("span", { class: "zt-sub" }, actors.has(pl) ? "▶ to play" : ""),
      h(
        "div",
        { class: "zt-meta" },
        h("span", {}, `${plural(view.hand_counts[pl], "tile")} in hand`),
        h("span", {}, `${plural(view.catastrophes_left[pl], "catastrophe")} left`),
        supply.length
          ? h(
              "span",
              { class: "zt-row", title: "leaders in the supply" },
              "supply:",
              ...supply.map((ld) => miniLeader(pl, ld, ctx)),
            )
          : null,
        sc
          ? scoreRow(sc.points, sc.treasures, `${seatName(ctx, pl)}'s points per colour and treasures`)
          : h("span", { title: "points are kept behind the player's screen" }, "points hidden"),
      ),
    );
    sec.append(row);
  }
  return sec;
}

function kingdomsSection(kingdoms, view, ctx) {
  const sec = section("Kingdoms");
  const list = h("div", { class: "zt-kingdoms" });
  const down = flippedSquares(view);
  kingdoms.forEach((k, i) => {
    const counts = COLOURS.map((c) => k.members.filter((m) => view.tiles[m] === c && !down.has(m)).length);
    list.append(
      h("span", { class: "zt-num" }, String(i + 1)),
      h("span", { class: "zt-lds" }, ...k.leaders.map(([, owner, leader]) => miniLeader(owner, leader, ctx))),
      scoreRow(
        counts,
        null,
        `tiles in kingdom ${i + 1}: ${COLOURS.map((c, j) => `${counts[j]} ${c}`).join(", ")}`,
      ),
    );
  });
  sec.append(list);
  return sec;
}

function legendSection() {
  const det = h("details", { class: "zt-sec", open: "" }, h("summary", { class: "zt-sub" }, "Legend"));
  const grid = h("div", { class: "zt-legend" });
  for (const c of COLOURS)
    grid.append(h("div", {}, miniTile(c, 20), `${cap(c)} ${TILE[c]} · ${LEADER_OF[c]}`));
  grid.append(
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
    h(
      "div",
      {},
      miniSvg(
        20,
        s("path", { d: "M20 4L34 20L20 36L6 20Z", fill: "#ffd23f", stroke: "#6b4b00", "stroke-width": 2 }),
      ),
      "Treasure (dashed gold: corner)",
    ),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 4, fill: "#3b312b" }),
        s("path", {
          d: "M9 9L18 19L14 22L22 32M31 9L24 16L27 20L19 31",
          fill: "none",
          stroke: "#ff8a3d",
          "stroke-width": 3,
        }),
      ),
      "Catastrophe",
    ),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("rect", { x: 2, y: 2, width: 36, height: 36, fill: "#86bde3" }),
        s("path", {
          d: "M6 15q5 -4 9 0t9 0t9 0M6 27q5 -4 9 0t9 0t9 0",
          fill: "none",
          stroke: "#e3f1fb",
          "stroke-width": 2,
        }),
      ),
      "River: farms only",
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
          rx: 3,
          fill: "#d9c9a2",
          stroke: "#3a2c1a",
          "stroke-width": 2,
        }),
        s("rect", { x: 9, y: 22, width: 22, height: 9, fill: FILL.red }),
        s("rect", { x: 13, y: 13, width: 14, height: 9, fill: FILL.blue }),
      ),
      "Monument (its two colours)",
    ),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("path", { d: "M4 4H36V36H4Z", fill: "none", stroke: "#6b3f0c", "stroke-width": 4 }),
        s("circle", { cx: 10, cy: 10, r: 6, fill: "#6b3f0c" }),
      ),
      "Kingdom (numbered)",
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
          rx: 5,
          fill: "#fff8e8",
          stroke: "#b22",
          "stroke-width": 3,
        }),
        s("path", { d: "M10 20H30M20 10V30", stroke: "#b22", "stroke-width": 3 }),
      ),
      "Unification tile (war)",
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
