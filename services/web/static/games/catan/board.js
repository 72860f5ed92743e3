// Catan: the island as SVG. Hexes, number tokens, harbours, robber and
// merchant, roads, settlements, cities, walls, metropolises and knights; the
// dice, the event die and the barbarian ship above it.
//
// The geometry is rebuilt from shared/games/catan/board.py: pointy-top hexes
// numbered 0..18 in reading order (rows 3-4-5-4-3); a hex centre sits at
// (2q + r, 3r) on a grid whose corners are the intersections; intersections
// ("spots") and paths are numbered by their rank in sorted order.

import { htmlInto, svgInto, titled } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import {
  cardTitle,
  EVENT_FACE,
  hexName,
  isCK,
  KIND,
  KIND_FILL,
  pendingKind,
  SEAT_FILL,
  SEAT_INK,
  STRENGTH,
  spotName,
  TERRAIN_EDGE,
  TERRAIN_FILL,
  TERRAIN_RESOURCE,
  TRACK_FILL,
  TRACK_NAME,
  TRACKS,
  trackLength,
} from "./words.js";

const SQ3 = Math.sqrt(3);

const U = 24; // one grid unit in SVG units; a hex's radius is 2U

// ---------------------------------------------------------------- geometry

const ROW_QS = [
  [0, 3],
  [-1, 3],
  [-2, 3],
  [-2, 2],
  [-2, 1],
];

const AXIAL = [];

ROW_QS.forEach(([lo, hi], r) => {
  for (let q = lo; q < hi; q++) AXIAL.push([q, r - 2]);
});

const CORNER_OFFSETS = [
  [0, -2],
  [1, -1],
  [1, 1],
  [0, 2],
  [-1, 1],
  [-1, -1],
];

const SIDES = { ne: 0, e: 1, se: 2, sw: 3, w: 4, nw: 5 };

function cornerPoints(h) {
  const [q, r] = AXIAL[h];
  const x = 2 * q + r,
    y = 3 * r;
  return CORNER_OFFSETS.map(([dx, dy]) => [x + dx, y + dy]);
}

const POINTS = (() => {
  const seen = new Map();
  for (let h = 0; h < 19; h++) for (const p of cornerPoints(h)) seen.set(p.join(","), p);
  return [...seen.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
})();

const POINT_ID = new Map(POINTS.map((p, i) => [p.join(","), i]));

const HEX_CORNERS = AXIAL.map((_, h) => cornerPoints(h).map((p) => POINT_ID.get(p.join(","))));

export const PATH_ENDS = (() => {
  const seen = new Map();
  for (const c of HEX_CORNERS) {
    for (let k = 0; k < 6; k++) {
      const a = Math.min(c[k], c[(k + 1) % 6]),
        b = Math.max(c[k], c[(k + 1) % 6]);
      seen.set(`${a},${b}`, [a, b]);
    }
  }
  return [...seen.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
})();

const PATH_ID = new Map(PATH_ENDS.map((e, i) => [e.join(","), i]));

export const SPOT_HEXES = POINTS.map((_, s) =>
  HEX_CORNERS.map((c, h) => (c.includes(s) ? h : -1)).filter((h) => h >= 0),
);

const HARBOR_SPOTS = [
  [0, "nw"],
  [1, "ne"],
  [6, "ne"],
  [11, "e"],
  [15, "se"],
  [17, "se"],
  [16, "sw"],
  [12, "w"],
  [3, "w"],
];

function sidePath(h, side) {
  const c = HEX_CORNERS[h],
    k = SIDES[side];
  const a = c[k],
    b = c[(k + 1) % 6];
  return PATH_ID.get(`${Math.min(a, b)},${Math.max(a, b)}`);
}

export const HARBOR_PATHS = HARBOR_SPOTS.map(([h, side]) => sidePath(h, side));

const spotXY = (s) => [POINTS[s][0] * SQ3 * U, POINTS[s][1] * U];

const hexXY = (h) => {
  const [q, r] = AXIAL[h];
  return [(2 * q + r) * SQ3 * U, 3 * r * U];
};

// Exposed for tests of the geometry (compared with board.py).
export const geometry = {
  HEX_CORNERS,
  PATH_ENDS,
  HARBOR_PATHS,
  N_SPOTS: POINTS.length,
  N_PATHS: PATH_ENDS.length,
};

// ---------------------------------------------------------------- board targets

// Where a command is clicked on the board: a sequence of spots ("s"), paths ("p")
// and hexes ("h"), or null when it is a side-panel button.
export function steps(c, view) {
  switch (c.type) {
    case "catan.build_settlement":
    case "catan.build_city":
    case "catan.build_wall":
    case "catan.build_knight":
    case "catan.activate_knight":
    case "catan.promote_knight":
      return [`s${c.spot}`];
    case "catan.build_road":
      return [`p${c.path}`];
    case "catan.move_knight":
      return [`s${c.spot}`, `s${c.to}`];
    case "catan.chase_robber":
      return [`s${c.spot}`, `h${c.hex}`];
    case "catan.move_robber":
      return [`h${c.hex}`];
    case "catan.choose": {
      if (c.choice < 0) return null;
      const k = pendingKind(view);
      if (["pillage", "retreat", "deserter", "deserter_place"].includes(k)) return [`s${c.choice}`];
      if (k === "diplomat") return [`p${c.choice}`];
      return null;
    }
    case "catan.play_progress":
      switch (c.card) {
        case "bishop":
        case "merchant":
          return [`h${c.a}`];
        case "diplomat":
          return [`p${c.a}`];
        case "intrigue":
        case "engineer":
        case "medicine":
          return [`s${c.a}`];
        case "inventor":
          return [`h${c.a}`, `h${c.b}`];
        case "smith":
          return c.b >= 0 ? [`s${c.a}`, `s${c.b}`] : [`s${c.a}`];
        default:
          return null;
      }
    case "catan.buy_improvement":
      return c.spot >= 0 ? [`s${c.spot}`] : null;
    default:
      return null;
  }
}

// Commands that are picked in the panel first (a card, a track) before the board.
export function filterKey(c) {
  if (c.type === "catan.play_progress") return `card:${c.card}`;
  if (c.type === "catan.play_dev_card") return `dev:${c.card}`;
  if (c.type === "catan.buy_improvement" && c.spot >= 0) return `track:${c.track}`;
  return null;
}

export function filterTitle(key) {
  const [kind, what] = key.split(":");
  if (kind === "card" || kind === "dev") return tr("catan.do_play_card", { card: cardTitle(what) });
  return tr("catan.improve_metropolis", { track: TRACK_NAME[+what] });
}

// ---------------------------------------------------------------- SVG helpers

const hexPoints = (cx, cy, r) =>
  Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 90);
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");

const PIPS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

function terrainArt(g, t, cx, cy) {
  // A few strokes per terrain so the map reads without colour alone.
  const R = 2 * U;
  const ink = TERRAIN_EDGE[t];
  const art = svgInto("g", { opacity: 0.55, "pointer-events": "none" }, g);
  const spots = [
    [-0.5, -0.55],
    [0.5, -0.55],
    [-0.62, 0.35],
    [0.62, 0.35],
    [0, 0.72],
  ];
  for (const [dx, dy] of spots) {
    const x = cx + dx * R,
      y = cy + dy * R;
    switch (t) {
      case 0: // hills: bricks
        svgInto(
          "rect",
          { x: x - 7, y: y - 3, width: 14, height: 6, rx: 1, fill: "none", stroke: ink, "stroke-width": 1.4 },
          art,
        );
        break;
      case 1: // forest: trees
        svgInto("path", { d: `M${x},${y - 9} L${x + 6},${y + 4} L${x - 6},${y + 4} Z`, fill: ink }, art);
        svgInto("rect", { x: x - 1, y: y + 4, width: 2, height: 3, fill: ink }, art);
        break;
      case 2: // pasture: sheep tufts
        svgInto(
          "ellipse",
          { cx: x, cy: y, rx: 6, ry: 4, fill: "#f4f6ee", stroke: ink, "stroke-width": 1 },
          art,
        );
        break;
      case 3: // fields: grain stalks
        svgInto(
          "path",
          {
            d: `M${x - 4},${y + 5} Q${x - 3},${y - 2} ${x - 5},${y - 7} M${x},${y + 5} L${x},${y - 8} M${x + 4},${y + 5} Q${x + 3},${y - 2} ${x + 5},${y - 7}`,
            fill: "none",
            stroke: ink,
            "stroke-width": 1.6,
          },
          art,
        );
        break;
      case 4: // mountains: peaks
        svgInto(
          "path",
          {
            d: `M${x - 8},${y + 5} L${x - 2},${y - 6} L${x + 1},${y - 1} L${x + 3},${y - 4} L${x + 8},${y + 5} Z`,
            fill: ink,
          },
          art,
        );
        break;
      default: // desert: dunes
        svgInto(
          "path",
          {
            d: `M${x - 8},${y + 2} Q${x - 2},${y - 5} ${x + 8},${y + 2}`,
            fill: "none",
            stroke: ink,
            "stroke-width": 1.4,
          },
          art,
        );
    }
  }
}

// ---------------------------------------------------------------- the board

export function settlementPath(x, y, s) {
  return `M${x - 7 * s},${y + 6 * s} L${x - 7 * s},${y - 2 * s} L${x},${y - 9 * s} L${x + 7 * s},${y - 2 * s} L${x + 7 * s},${y + 6 * s} Z`;
}

export function cityPath(x, y, s) {
  return `M${x - 11 * s},${y + 7 * s} L${x - 11 * s},${y - 3 * s} L${x - 5 * s},${y - 9 * s} L${x + 1 * s},${y - 3 * s} L${x + 1 * s},${y - 1 * s} L${x + 11 * s},${y - 1 * s} L${x + 11 * s},${y + 7 * s} Z`;
}

export function drawBoard(svg, view, ui) {
  const seats = view.players.length;
  const ck = isCK(view);
  const defs = svgInto("defs", {}, svg);
  const grad = svgInto("radialGradient", { id: "catan-sea", cx: "50%", cy: "50%", r: "65%" }, defs);
  svgInto("stop", { offset: "0%", "stop-color": "#3f93c9" }, grad);
  svgInto("stop", { offset: "100%", "stop-color": "#1d5f8f" }, grad);
  const shadow = svgInto(
    "filter",
    { id: "catan-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
    defs,
  );
  svgInto("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.2, "flood-opacity": 0.45 }, shadow);

  const halfW = (8 * U + 46) / 0.866 + 8,
    halfH = 8 * U + 56;
  const minX = -halfW,
    maxX = halfW,
    minY = -halfH,
    maxY = halfH;
  svg.setAttribute(
    "viewBox",
    `${minX.toFixed(0)} ${minY.toFixed(0)} ${(maxX - minX).toFixed(0)} ${(maxY - minY).toFixed(0)}`,
  );
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svgInto(
    "rect",
    { x: minX, y: minY, width: maxX - minX, height: maxY - minY, fill: "url(#catan-sea)", rx: 14 },
    svg,
  );
  // The frame: a flat-topped hexagon of sea around the island, harbours on it.
  const RF = 8 * U + 46;
  svgInto(
    "polygon",
    {
      points: Array.from({ length: 6 }, (_, i) => {
        const a = (Math.PI / 3) * i;
        return `${((RF / 0.866) * Math.cos(a)).toFixed(1)},${((RF / 0.866) * Math.sin(a)).toFixed(1)}`;
      }).join(" "),
      fill: "#2b78ae",
      stroke: "#e2cf9f",
      "stroke-width": 7,
      "stroke-linejoin": "round",
    },
    svg,
  );

  const layers = {};
  for (const name of ["hexes", "harbors", "tokens", "roads", "pieces", "figures", "targets"])
    layers[name] = svgInto("g", { class: `catan-${name}` }, svg);

  drawHexes(view, layers);
  drawHarbours(view, layers);
  drawRoads(view, ui, layers);
  drawBuildings(view, ui, layers);
  drawKnights(view, ui, layers);
  drawRobberAndMerchant(view, ui, ck, layers);
  drawPicked(view, ui, layers, seats);
}

// Hexes.
function drawHexes(view, layers) {
  for (let h = 0; h < 19; h++) {
    const [cx, cy] = hexXY(h);
    const t = view.terrain[h];
    const g = svgInto("g", { class: "catan-hex", "data-hex": h }, layers.hexes);
    titled(
      svgInto(
        "polygon",
        { points: hexPoints(cx, cy, 2 * U - 1), fill: TERRAIN_FILL[t], stroke: "#f1e4bd", "stroke-width": 3 },
        g,
      ),
      TERRAIN_RESOURCE[t] >= 0
        ? tr("catan.hex_kind", { hex: hexName(h, view), kind: KIND[TERRAIN_RESOURCE[t]] })
        : hexName(h, view),
    );
    terrainArt(g, t, cx, cy);
    const num = view.numbers[h];
    if (num) {
      const tg = svgInto("g", { class: "catan-token", filter: "url(#catan-shadow)" }, layers.tokens);
      svgInto("circle", { cx, cy, r: 15, fill: "#f7ecd0", stroke: "#8a7446", "stroke-width": 1 }, tg);
      const red = num === 6 || num === 8;
      svgInto(
        "text",
        {
          x: cx,
          y: cy + 4.5,
          "text-anchor": "middle",
          "font-size": red ? 15 : 13.5,
          "font-weight": 700,
          fill: red ? "#c4161c" : "#222",
          "font-family": "Georgia, serif",
        },
        tg,
      ).textContent = num;
      const pips = PIPS[num] || 0;
      for (let i = 0; i < pips; i++)
        svgInto(
          "circle",
          { cx: cx + (i - (pips - 1) / 2) * 3.2, cy: cy + 9.5, r: 1.15, fill: red ? "#c4161c" : "#222" },
          tg,
        );
    }
  }
}
// Harbours: a token in the sea, piers to the two corners that use it.
function drawHarbours(view, layers) {
  HARBOR_SPOTS.forEach(([h, _side], i) => {
    const kind = view.harbors[i];
    const [a, b] = PATH_ENDS[HARBOR_PATHS[i]];
    const [ax, ay] = spotXY(a),
      [bx, by] = spotXY(b);
    const [cx, cy] = hexXY(h);
    const mx = (ax + bx) / 2,
      my = (ay + by) / 2;
    const dx = mx - cx,
      dy = my - cy,
      d = Math.hypot(dx, dy);
    const tx = mx + (dx / d) * 24,
      ty = my + (dy / d) * 24;
    const g = svgInto("g", { class: "catan-harbor" }, layers.harbors);
    harbourPiers(
      g,
      [
        [ax, ay],
        [bx, by],
      ],
      tx,
      ty,
    );
    harbourToken(g, tx, ty, kind);
  });
}

// The piers from a harbour's two corners out to its token.
function harbourPiers(g, ends, tx, ty) {
  for (const [px, py] of ends) {
    svgInto(
      "line",
      {
        x1: px + (tx - px) * 0.18,
        y1: py + (ty - py) * 0.18,
        x2: tx,
        y2: ty,
        stroke: "#8a6a3d",
        "stroke-width": 4,
        "stroke-linecap": "round",
      },
      g,
    );
  }
}

// A harbour's token: its rate (2:1 or 3:1) and, for a 2:1 harbour, its resource.
function harbourToken(g, tx, ty, kind) {
  const generic = kind === 5;
  titled(
    svgInto(
      "circle",
      {
        cx: tx,
        cy: ty,
        r: 13,
        fill: generic ? "#f7ecd0" : KIND_FILL[kind],
        stroke: "#5b4526",
        "stroke-width": 1.5,
      },
      g,
    ),
    generic ? tr("catan.harbour_generic") : tr("catan.harbour", { kind: KIND[kind] }),
  );
  svgInto(
    "text",
    {
      x: tx,
      y: ty + (generic ? 4 : 1),
      "text-anchor": "middle",
      "font-size": generic ? 10 : 9,
      "font-weight": 700,
      fill: generic ? "#333" : "#fff",
      "font-family": "sans-serif",
      "paint-order": "stroke",
      stroke: generic ? "none" : "rgba(0,0,0,.45)",
      "stroke-width": 1.5,
    },
    g,
  ).textContent = generic ? "3:1" : "2:1";
  if (!generic)
    svgInto(
      "text",
      {
        x: tx,
        y: ty + 9,
        "text-anchor": "middle",
        "font-size": 6.5,
        fill: "#fff",
        "font-family": "sans-serif",
        "paint-order": "stroke",
        stroke: "rgba(0,0,0,.45)",
        "stroke-width": 1.2,
      },
      g,
    ).textContent = KIND[kind];
}
// Roads.
function drawRoads(view, ui, layers) {
  view.roads.forEach((owner, p) => {
    if (owner < 0) return;
    const [a, b] = PATH_ENDS[p];
    const [ax, ay] = spotXY(a),
      [bx, by] = spotXY(b);
    const sx = ax + (bx - ax) * 0.17,
      sy = ay + (by - ay) * 0.17,
      ex = bx - (bx - ax) * 0.17,
      ey = by - (by - ay) * 0.17;
    const g = svgInto("g", { class: "catan-road", "data-path": p }, layers.roads);
    svgInto(
      "line",
      { x1: sx, y1: sy, x2: ex, y2: ey, stroke: "#1b1b1b", "stroke-width": 8, "stroke-linecap": "round" },
      g,
    );
    titled(
      svgInto(
        "line",
        {
          x1: sx,
          y1: sy,
          x2: ex,
          y2: ey,
          stroke: SEAT_FILL[owner],
          "stroke-width": 5.5,
          "stroke-linecap": "round",
        },
        g,
      ),
      `${ui.name(owner)}'s road`,
    );
  });
}
// Buildings.
function drawBuildings(view, ui, layers) {
  const metro = new Map();
  (view.metropolis || []).forEach((s, t) => {
    if (s >= 0) metro.set(s, t);
  });
  view.owner.forEach((owner, s) => {
    if (owner < 0) return;
    const [x, y] = spotXY(s);
    const lvl = view.level[s];
    const tipped = (view.tipped || []).includes(s);
    const g = svgInto(
      "g",
      { class: "catan-building", "data-spot": s, filter: "url(#catan-shadow)" },
      layers.pieces,
    );
    const fill = SEAT_FILL[owner];
    const walled = (view.walls || []).includes(s);
    let what = lvl === 2 ? (walled ? tr("catan.city_walled") : tr("catan.city")) : tr("catan.settlement");
    if (walled) cityWall(g, x, y);
    if (lvl === 2 || tipped) {
      const body = svgInto(
        "path",
        { d: cityPath(x, y, 1), fill, stroke: "#1b1b1b", "stroke-width": 1.3, "stroke-linejoin": "round" },
        g,
      );
      if (tipped) {
        body.setAttribute("transform", `rotate(-90 ${x} ${y})`);
        what = tr("catan.pillaged_city");
      }
      if (metro.has(s)) {
        const k = metro.get(s);
        metropolisTower(g, x, y, fill, k);
        what = tr("catan.metropolis_of", { track: TRACK_NAME[k] });
      }
    } else {
      svgInto(
        "path",
        {
          d: settlementPath(x, y, 1),
          fill,
          stroke: "#1b1b1b",
          "stroke-width": 1.3,
          "stroke-linejoin": "round",
        },
        g,
      );
    }
    titled(g, tr("catan.building_title", { name: ui.name(owner), what, spot: spotName(s, view) }));
  });
}

// A city wall: a stone base under the building.
function cityWall(g, x, y) {
  svgInto(
    "rect",
    {
      x: x - 15,
      y: y - 11,
      width: 30,
      height: 22,
      rx: 5,
      fill: "#6b645a",
      stroke: "#2b2722",
      "stroke-width": 1.2,
    },
    g,
  );
  svgInto(
    "path",
    { d: `M${x - 15},${y - 4} h30 M${x - 15},${y + 4} h30`, stroke: "#9a9285", "stroke-width": 0.8 },
    g,
  );
}

// A metropolis: a tower on the city with its track's pennant.
function metropolisTower(g, x, y, fill, t) {
  svgInto(
    "path",
    {
      d: `M${x - 5},${y - 9} L${x - 5},${y - 19} L${x - 1},${y - 23} L${x + 3},${y - 19} L${x + 3},${y - 9} Z`,
      fill,
      stroke: "#1b1b1b",
      "stroke-width": 1.2,
    },
    g,
  );
  svgInto(
    "path",
    {
      d: `M${x - 1},${y - 23} L${x - 1},${y - 30} L${x + 7},${y - 27} L${x - 1},${y - 24}`,
      fill: TRACK_FILL[t],
      stroke: "#1b1b1b",
      "stroke-width": 0.8,
    },
    g,
  );
}
// Knights: a disc in the owner's colour, bright when active, with 1-3 rings for strength.
function drawKnights(view, ui, layers) {
  for (const k of view.knights || []) {
    const [x, y] = spotXY(k.spot);
    const g = svgInto(
      "g",
      {
        class: `catan-knight ${k.active ? "active" : "inactive"}`,
        "data-spot": k.spot,
        filter: "url(#catan-shadow)",
      },
      layers.pieces,
    );
    // Active: the owner's colour in a yellow halo. Inactive: the same disc, dimmed and dashed.
    if (k.active)
      svgInto("circle", { cx: x, cy: y, r: 14.5, fill: "#ffe066", stroke: "#a07800", "stroke-width": 1 }, g);
    svgInto("circle", { cx: x, cy: y, r: 11.5, fill: "#bdb8ae" }, g);
    svgInto(
      "circle",
      {
        cx: x,
        cy: y,
        r: 11,
        fill: SEAT_FILL[k.owner],
        "fill-opacity": k.active ? 1 : 0.45,
        stroke: "#1b1b1b",
        "stroke-width": k.active ? 1.3 : 1.6,
        "stroke-dasharray": k.active ? null : "3 2",
      },
      g,
    );
    const ink = k.active ? SEAT_INK[k.owner] : "#2e2b27";
    // Helmet silhouette, and one bar per strength point.
    svgInto(
      "path",
      {
        d: `M${x - 5},${y + 2} Q${x - 5},${y - 7} ${x},${y - 7} Q${x + 5},${y - 7} ${x + 5},${y + 2} Z`,
        fill: ink,
        opacity: k.active ? 0.95 : 0.7,
      },
      g,
    );
    svgInto(
      "path",
      {
        d: `M${x - 5},${y - 1.5} h10`,
        stroke: k.active ? SEAT_FILL[k.owner] : "#bdb8ae",
        "stroke-width": 1.4,
      },
      g,
    );
    for (let i = 0; i < k.strength; i++)
      svgInto("rect", { x: x - 5.5 + i * 4, y: y + 4, width: 3, height: 4, fill: ink }, g);
    titled(
      g,
      k.active
        ? tr("catan.knight_title_active", {
            name: ui.name(k.owner),
            strength: STRENGTH[k.strength],
            n: String(k.strength),
          })
        : tr("catan.knight_title_inactive", {
            name: ui.name(k.owner),
            strength: STRENGTH[k.strength],
            n: String(k.strength),
          }),
    );
  }
}
// Robber and merchant.
function drawRobberAndMerchant(view, ui, ck, layers) {
  if (view.robber >= 0) {
    const [cx, cy] = hexXY(view.robber);
    const x = cx - 19,
      y = cy + 6;
    const g = svgInto("g", { class: "catan-robber", filter: "url(#catan-shadow)" }, layers.figures);
    svgInto(
      "path",
      {
        d: `M${x - 7},${y + 10} Q${x - 7},${y - 2} ${x - 3},${y - 5} Q${x},${y - 7} ${x + 3},${y - 5} Q${x + 7},${y - 2} ${x + 7},${y + 10} Z`,
        fill: "#3b3b3f",
        stroke: "#111",
        "stroke-width": 1,
      },
      g,
    );
    svgInto("circle", { cx: x, cy: y - 9, r: 5, fill: "#3b3b3f", stroke: "#111", "stroke-width": 1 }, g);
    titled(
      g,
      ck && !view.attacks
        ? tr("catan.robber_waits", { hex: hexName(view.robber, view) })
        : tr("catan.robber_on", { hex: hexName(view.robber, view) }),
    );
  }
  if (ck && view.merchant >= 0) {
    const [cx, cy] = hexXY(view.merchant);
    const x = cx + 20,
      y = cy + 6;
    const g = svgInto("g", { class: "catan-merchant", filter: "url(#catan-shadow)" }, layers.figures);
    svgInto(
      "path",
      {
        d: `M${x - 6},${y + 10} L${x},${y - 6} L${x + 6},${y + 10} Z`,
        fill: "#f2dfb0",
        stroke: "#5b4526",
        "stroke-width": 1.2,
      },
      g,
    );
    svgInto(
      "circle",
      { cx: x, cy: y - 8, r: 4.2, fill: "#f2dfb0", stroke: "#5b4526", "stroke-width": 1.2 },
      g,
    );
    if (view.merchant_owner >= 0)
      svgInto(
        "rect",
        {
          x: x - 5,
          y: y + 2,
          width: 10,
          height: 3.5,
          fill: SEAT_FILL[view.merchant_owner],
          stroke: "#1b1b1b",
          "stroke-width": 0.5,
        },
        g,
      );
    titled(
      g,
      view.merchant_owner >= 0
        ? tr("catan.merchant_of", { hex: hexName(view.merchant, view), name: ui.name(view.merchant_owner) })
        : tr("catan.merchant_on", { hex: hexName(view.merchant, view) }),
    );
  }
}
// The highlighted last step of a move being chosen, then the clickable targets
// of the legal moves.
function drawPicked(view, ui, layers, seats) {
  if (ui.picked.length) drawPickedSteps(ui.picked, layers.targets);
  drawTargets(view, ui, layers.targets);
  void seats;
}

// The steps picked so far: a ring on the first, and on the second with a line to it.
function drawPickedSteps(picked, layer) {
  const [first, second] = picked;
  const at = (key) => (key[0] === "s" ? spotXY(+key.slice(1)) : key[0] === "h" ? hexXY(+key.slice(1)) : null);
  const a = at(first),
    b = second ? at(second) : null;
  if (a)
    svgInto(
      "circle",
      { cx: a[0], cy: a[1], r: first[0] === "h" ? 2 * U - 6 : 17, class: "catan-picked" },
      layer,
    );
  if (a && b) {
    svgInto("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "catan-picked-line" }, layer);
    svgInto(
      "circle",
      { cx: b[0], cy: b[1], r: second[0] === "h" ? 2 * U - 6 : 17, class: "catan-picked" },
      layer,
    );
  }
}

// Clickable targets of the legal moves: hexes under edges under corners, so
// a smaller target is never covered by a bigger one.
function drawTargets(view, ui, layer) {
  const order = { h: 0, p: 1, s: 2 };
  const targets = [...ui.targets].sort((a, b) => order[a[0][0]] - order[b[0][0]]);
  for (const [key, t] of targets) {
    const kind = key[0],
      id = +key.slice(1);
    // data-command: the move this place plays, or the first of those it leads
    // to; data-commands: every move it leads to (a corner may take a settlement
    // or a knight; a knight may be activated, promoted or moved).
    const g = svgInto(
      "g",
      {
        class: "legal",
        tabindex: 0,
        role: "button",
        "data-command": JSON.stringify(t.command),
        "data-commands": JSON.stringify(t.commands),
        "data-target": key,
        "data-key": `at:${key}`,
        "aria-label": t.text,
      },
      layer,
    );
    if (kind === "s") cornerTarget(view, id, g);
    else if (kind === "p") edgeTarget(id, g);
    else {
      const [cx, cy] = hexXY(id);
      svgInto("polygon", { points: hexPoints(cx, cy, 2 * U - 5), class: "catan-mark-hex" }, g);
    }
    titled(g, t.text);
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      t.activate();
    });
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        t.activate();
      }
    });
  }
}

// A corner's target: a free corner gets a dot; a piece to act on gets a ring around it.
function cornerTarget(view, id, g) {
  const [x, y] = spotXY(id);
  const occupied = view.owner[id] >= 0 || (view.knights || []).some((k) => k.spot === id);
  svgInto("circle", { cx: x, cy: y, r: occupied ? 18 : 15, class: "catan-hit" }, g);
  svgInto(
    "circle",
    { cx: x, cy: y, r: occupied ? 17 : 6.5, class: occupied ? "catan-ring" : "catan-mark" },
    g,
  );
}

// An edge's target: a band to hit and a line marking the edge.
function edgeTarget(id, g) {
  const [a, b] = PATH_ENDS[id];
  const [ax, ay] = spotXY(a),
    [bx, by] = spotXY(b);
  const cut = (f) => [ax + (bx - ax) * f, ay + (by - ay) * f];
  const [hx1, hy1] = cut(0.24),
    [hx2, hy2] = cut(0.76);
  // The hit area is a band with an area of its own, not a wide stroke: an
  // upright edge's line has no width, and a box of no width is "not visible"
  // to whatever finds targets by their box (accessibility tools, test drivers).
  const len = Math.hypot(bx - ax, by - ay),
    nx = (-(by - ay) / len) * 8,
    ny = ((bx - ax) / len) * 8;
  svgInto(
    "polygon",
    {
      points: [
        [hx1 + nx, hy1 + ny],
        [hx2 + nx, hy2 + ny],
        [hx2 - nx, hy2 - ny],
        [hx1 - nx, hy1 - ny],
      ]
        .map((q) => q.join(","))
        .join(" "),
      class: "catan-hit",
    },
    g,
  );
  svgInto(
    "line",
    {
      x1: ax + (bx - ax) * 0.22,
      y1: ay + (by - ay) * 0.22,
      x2: bx - (bx - ax) * 0.22,
      y2: by - (by - ay) * 0.22,
      class: "catan-mark-line",
    },
    g,
  );
}

// ---------------------------------------------------------------- dice, barbarians

function die(svg, x, y, value, fill, pip) {
  svgInto("rect", { x, y, width: 34, height: 34, rx: 6, fill, stroke: "#333", "stroke-width": 1.2 }, svg);
  const at = {
    1: [[0, 0]],
    2: [
      [-1, -1],
      [1, 1],
    ],
    3: [
      [-1, -1],
      [0, 0],
      [1, 1],
    ],
    4: [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ],
    5: [
      [-1, -1],
      [1, -1],
      [0, 0],
      [-1, 1],
      [1, 1],
    ],
    6: [
      [-1, -1],
      [1, -1],
      [-1, 0],
      [1, 0],
      [-1, 1],
      [1, 1],
    ],
  };
  for (const [dx, dy] of at[value] || [])
    svgInto("circle", { cx: x + 17 + dx * 9, cy: y + 17 + dy * 9, r: 3.2, fill: pip }, svg);
}

function eventDie(svg, x, y, face) {
  const g = svgInto("g", {}, svg);
  svgInto(
    "rect",
    { x, y, width: 34, height: 34, rx: 6, fill: "#faf7ef", stroke: "#333", "stroke-width": 1.2 },
    g,
  );
  if (face === "ship") {
    svgInto(
      "path",
      {
        d: `M${x + 6},${y + 21} L${x + 28},${y + 21} L${x + 24},${y + 27} L${x + 10},${y + 27} Z`,
        fill: "#222",
      },
      g,
    );
    svgInto(
      "path",
      {
        d: `M${x + 17},${y + 6} L${x + 17},${y + 20} M${x + 17},${y + 7} L${x + 26},${y + 17} L${x + 17},${y + 17}`,
        fill: "#555",
        stroke: "#222",
        "stroke-width": 1.5,
      },
      g,
    );
  } else if (face) {
    const t = TRACKS.indexOf(face);
    svgInto(
      "path",
      {
        d: `M${x + 8},${y + 28} L${x + 8},${y + 13} Q${x + 17},${y + 4} ${x + 26},${y + 13} L${x + 26},${y + 28} Z`,
        fill: TRACK_FILL[t],
        stroke: "#222",
        "stroke-width": 1.2,
      },
      g,
    );
    svgInto(
      "path",
      {
        d: `M${x + 13},${y + 28} L${x + 13},${y + 18} Q${x + 17},${y + 13} ${x + 21},${y + 18} L${x + 21},${y + 28} Z`,
        fill: "#3a2a1a",
      },
      g,
    );
  }
  titled(g, face ? tr("catan.event_die_face", { face: EVENT_FACE[face] }) : tr("catan.event_die"));
}

export function drawStatus(host, view, ui) {
  const ck = isCK(view);
  const bar = htmlInto("div", { class: "catan-status" }, host);
  const dice = htmlInto(
    "div",
    {
      class: "catan-dice",
      "aria-label": view.dice[0]
        ? tr("catan.last_roll", { n: view.dice[0] + view.dice[1] })
        : tr("catan.no_roll"),
    },
    bar,
  );
  const w = ck ? 126 : 84;
  const svg = svgInto("svg", { viewBox: `0 0 ${w} 40`, width: w, height: 40, role: "img" }, dice);
  if (view.dice[0]) {
    die(svg, 2, 3, view.dice[0], "#f4d03f", "#222");
    die(svg, 44, 3, view.dice[1], "#c62828", "#fff");
  } else {
    die(svg, 2, 3, 0, "#eee", "#222");
    die(svg, 44, 3, 0, "#eee", "#222");
  }
  if (ck) eventDie(svg, 86, 3, view.dice[2]);
  htmlInto("span", { class: "catan-roll" }, dice, view.dice[0] ? `${view.dice[0] + view.dice[1]}` : "–");

  if (ck) drawBarbarians(bar, view);
  void ui;
}

// Cities & Knights: the barbarian ship's track, the ship on it, and the odds of its attack.
function drawBarbarians(bar, view) {
  const len = trackLength(view);
  const cities = view.level.filter((l) => l === 2).length;
  const knights = (view.knights || []).filter((k) => k.active).reduce((a, k) => a + k.strength, 0);
  const track = htmlInto("div", { class: "catan-barbarians" }, bar);
  const tw = 30 + len * 26;
  const sea = svgInto(
    "svg",
    {
      viewBox: `0 0 ${tw} 40`,
      role: "img",
      "aria-label": tr("catan.ship_at", { at: view.barbarian, of: len }),
    },
    track,
  );
  drawShipTrack(sea, len, view.barbarian);
  const odds = htmlInto("div", { class: "catan-odds" }, track);
  htmlInto("span", { class: cities > knights ? "bad" : "" }, odds, tr("catan.barbarians_n", { n: cities }));
  htmlInto("span", {}, odds, ` ${tr("tigris.versus")} `);
  htmlInto("span", { class: cities > knights ? "" : "good" }, odds, tr("catan.knights_n", { n: knights }));
  htmlInto(
    "span",
    { class: "catan-muted" },
    odds,
    ` · ${view.attacks ? tr("catan.attacks_so_far", { count: view.attacks }) : tr("catan.no_attack_yet")}`,
  );
}

// The track's steps (those sailed darker) to the attack's mark, and the ship on it.
function drawShipTrack(sea, len, barbarian) {
  for (let i = 0; i <= len; i++) {
    const x = 14 + i * 26;
    svgInto(
      "circle",
      {
        cx: x,
        cy: 20,
        r: i === len ? 11 : 8,
        fill: i === len ? "#7a1f1f" : i < barbarian ? "#6d8fa8" : "#cfe0ec",
        stroke: "#24445c",
        "stroke-width": 1,
      },
      sea,
    );
    if (i < len)
      svgInto(
        "line",
        {
          x1: x + 8,
          y1: 20,
          x2: x + 18,
          y2: 20,
          stroke: "#24445c",
          "stroke-width": 1.2,
          "stroke-dasharray": "2 2",
        },
        sea,
      );
  }
  svgInto(
    "text",
    { x: 14 + len * 26, y: 24, "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": 700 },
    sea,
  ).textContent = "⚔";
  const sx = 14 + Math.min(barbarian, len) * 26;
  const ship = svgInto("g", { class: "catan-ship" }, sea);
  svgInto(
    "path",
    { d: `M${sx - 11},24 L${sx + 11},24 L${sx + 7},30 L${sx - 7},30 Z`, fill: "#2b2b2b" },
    ship,
  );
  svgInto(
    "path",
    {
      d: `M${sx},8 L${sx},24 M${sx},9 L${sx + 9},21 L${sx},21 Z`,
      fill: "#b33",
      stroke: "#222",
      "stroke-width": 1,
    },
    ship,
  );
  titled(ship, tr("catan.ship_title", { at: barbarian, of: len }));
}
