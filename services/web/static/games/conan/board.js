// Age of Conan: the content pack's map as SVG (outlines, kingdoms, armies, forts
// and cities, campaign tracks, Conan and his adventure), its colours and symbols,
// and which legal moves are on the map.

import { h, s, title } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import { listWords, seatName } from "../../words.js";
import {
  bare,
  FACE,
  FATE,
  kname,
  label,
  labelName,
  memo,
  pname,
  terrainLetter,
  terrainName,
  zoneName,
} from "./words.js";

// ---- colours ----

export const KCOL = {
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

export function colourOf(seat) {
  const kingdom = memo.seats[seat];
  const name = memo.kingdoms.get(kingdom)?.colour;
  return KCOL[name] || KCOL[SPARE[seat % SPARE.length]];
}

const ZONE_FILL = { central: "#e9dbb3", north: "#dfe2d6", east: "#eed6a2", south: "#e6cb92" };

export const TERRAIN = {
  plains: { fill: "#c9dc8f", ink: "#2d3a0c" },
  hills: { fill: "#c79d66", ink: "#3a2508" },
  woods: { fill: "#5f8f4e", ink: "#fff" },
  city: { fill: "#a8a39a", ink: "#1d1a14" },
};

// ---- small symbols, drawn in a 20x20 box around (10, 10) ----

// What most glyphs are drawn with: a filled outline, and a round-capped line.
function solid(d, fg) {
  return s("path", { d, fill: fg });
}

function line(d, fg, width, extra = {}) {
  return s("path", { d, stroke: fg, "stroke-width": width, "stroke-linecap": "round", ...extra });
}

export function glyph(name, fg = "#1d1a14") {
  return (
    battleGlyph(name, fg) ??
    placeGlyph(name, fg) ??
    markGlyph(name, fg) ??
    s("circle", { cx: 10, cy: 10, r: 5, fill: fg })
  );
}

// Glyphs of war: weapons, armour and what battles leave.
function battleGlyph(name, fg) {
  switch (name) {
    case "sword":
      return line("M10 1.5V13.5M6 13.5H14M10 13.5V18.5", fg, 2.2, { fill: "none" });
    case "swords":
      return line("M3 3L15 15M17 3L5 15M2.5 13.5L6.5 17.5M17.5 13.5L13.5 17.5", fg, 2, { fill: "none" });
    case "shield":
      return solid("M10 2L17 4.5V10Q17 15.5 10 18.5Q3 15.5 3 10V4.5Z", fg);
    case "axe":
      return s(
        "g",
        {},
        line("M7 18.5L13.5 3.5", fg, 2.2),
        solid("M11.3 4.5Q16.5 2.5 18.5 7.5Q15 7 12.6 9.6Z", fg),
      );
    case "splash":
      return solid(
        "M10 1.5L12 7L17.5 4.5L14 9.5L19 12L13 12.5L14.5 18.5L10 14L5.5 18.5L7 12.5L1 12L6 9.5L2.5 4.5L8 7Z",
        fg,
      );
    case "helm":
      return s(
        "g",
        {},
        solid("M4 12Q4 4 10 4Q16 4 16 12V17H12.5V13H7.5V17H4Z", fg),
        s("path", {
          d: "M4.5 8Q0.5 6.5 1.5 1.5Q3.5 5 6 5.5M15.5 8Q19.5 6.5 18.5 1.5Q16.5 5 14 5.5",
          fill: fg,
          stroke: fg,
          "stroke-width": 0.8,
        }),
      );
    case "skull":
      return s(
        "g",
        {},
        solid("M10 2Q17 2 17 9Q17 12 14.5 13V16.5H5.5V13Q3 12 3 9Q3 2 10 2Z", fg),
        s("circle", { cx: 7.2, cy: 8.8, r: 1.9, fill: "#fff" }),
        s("circle", { cx: 12.8, cy: 8.8, r: 1.9, fill: "#fff" }),
      );
    case "flame":
      return solid(
        "M10 1.5Q15 7 15 12Q15 18.5 10 18.5Q5 18.5 5 12Q5 9 7.5 6.5Q7.5 10 9.5 11Q8.5 6 10 1.5Z",
        fg,
      );
    default:
      return undefined;
  }
}

// Glyphs of places and who holds them: towers, forts, cities, pawns, flags, crowns.
function placeGlyph(name, fg) {
  switch (name) {
    case "tower":
      return solid("M6 18.5V7.5H4.5V2.5H7V4.5H8.8V2.5H11.2V4.5H13V2.5H15.5V7.5H14V18.5Z", fg);
    case "fort":
      return solid(
        "M1.5 18.5V8.5H4V6H6.5V8.5H8.7V6H11.3V8.5H13.5V6H16V8.5H18.5V18.5H12V14Q10 11.5 8 14V18.5Z",
        fg,
      );
    case "city":
      return solid("M1 18.5V9L4 6.5L7 9V11.5H8.5V4.5L10 1.5L11.5 4.5V11.5H13V9L16 6.5L19 9V18.5Z", fg);
    case "pawn":
      return s(
        "g",
        { fill: fg },
        s("circle", { cx: 10, cy: 5.2, r: 3.6 }),
        s("path", { d: "M5 18.5Q5 10 10 9.2Q15 10 15 18.5Z" }),
      );
    case "flag":
      return s("g", {}, line("M4 18.5V2", fg, 2), solid("M5 2.5H16.5L13.5 6.5L16.5 10.5H5Z", fg));
    case "crown":
      return solid("M2.5 15.5H17.5L18.5 5.5L13.7 9.5L10 3L6.3 9.5L1.5 5.5ZM2.5 16.8H17.5V18.5H2.5Z", fg);
    default:
      return undefined;
  }
}

// Glyphs of marks: seeing, glory, treasure and writs.
function markGlyph(name, fg) {
  switch (name) {
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
      return solid("M10 1.5L12.5 7.3L18.8 7.8L14 12L15.5 18.2L10 14.8L4.5 18.2L6 12L1.2 7.8L7.5 7.3Z", fg);
    case "coin":
      return s(
        "g",
        {},
        s("circle", { cx: 10, cy: 10, r: 8, fill: "#e9b82c", stroke: "#7a5800", "stroke-width": 1.5 }),
        s("circle", { cx: 10, cy: 10, r: 4.5, fill: "none", stroke: "#7a5800", "stroke-width": 1.2 }),
      );
    case "scroll":
      return solid(
        "M4 3H15Q17.5 3 17.5 5.5V15Q17.5 17.5 15 17.5H5Q2.5 17.5 2.5 15V13H12.5V15Q12.5 16 13.5 16Q14.5 16 14.5 15V5.5Q14.5 4.5 15 4.5H6Q5 4.5 5 5.5V12H4Z",
        fg,
      );
    default:
      return undefined;
  }
}

// A 20x20 glyph placed at (cx, cy) with the given size.
export function place(g, cx, cy, size) {
  const k = size / 20;
  return s(
    "g",
    {
      transform: `translate(${(cx - size / 2).toFixed(1)} ${(cy - size / 2).toFixed(1)}) scale(${k.toFixed(3)})`,
    },
    g,
  );
}

export function mini(size, ...kids) {
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

// A die's face, the glyphs go on.
function dieFace(fill, stroke) {
  return s("rect", { x: 0.8, y: 0.8, width: 18.4, height: 18.4, rx: 3.5, fill, stroke, "stroke-width": 1 });
}

export function fateDie(face, size = 30) {
  const parts = [dieFace("#1f4f9a", "#0b2552")];
  if (face === "MILITARY_INTRIGUE")
    parts.push(place(glyph("swords", "#fff"), 6.5, 6.5, 9), place(glyph("eye", "#fff"), 13.5, 13.5, 9));
  else if (face === "COURT_CONAN")
    parts.push(place(glyph("crown", "#fff"), 6.5, 6.8, 9.5), place(glyph("helm", "#ffd76a"), 13.3, 13.3, 10));
  else parts.push(place(glyph(FATE_GLYPH[face] || "star", face === "WILD" ? "#ffd76a" : "#fff"), 10, 10, 13));
  return h(
    "span",
    { class: "zc-die", title: tr("conan.fate_die", { face: FATE[face] || face }) },
    mini(size, ...parts),
  );
}

export function contestDie(face, size = 26) {
  const black = face === "ATTACKER_HIT";
  const parts = [dieFace(black ? "#1b1b1b" : "#b3261e", "#3b0805")];
  if (face === "HIT") parts.push(place(glyph("splash", "#fff"), 10, 10, 14));
  else if (face === "ATTACKER_HIT") parts.push(place(glyph("splash", "#fff"), 10, 10, 14));
  else if (face === "HIT_CONAN")
    parts.push(place(glyph("splash", "#fff"), 7.5, 8, 10), place(glyph("sword", "#ffd76a"), 13.5, 11, 12));
  else if (face === "SHIELD") parts.push(place(glyph("shield", "#fff"), 10, 10, 12));
  else if (face === "AXE") parts.push(place(glyph("axe", "#fff"), 10, 10, 13));
  return h("span", { class: "zc-die", title: FACE[face] || face }, mini(size, ...parts));
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

export function analyse(legal, view) {
  const onMap = [];
  const panel = [];
  for (const cmd of legal) {
    const places = classify(cmd, view);
    if (places.length) for (const p of places) onMap.push({ cmd, ...p });
    else panel.push(cmd);
  }
  return { onMap, panel };
}

export const FROM = {
  army: (p) => tr("conan.from_army", { province: p }),
  withdraw: (p) => tr("conan.from_withdraw", { province: p }),
  emissary: (p) => tr("conan.from_emissary", { province: p }),
  raise: (p) => tr("conan.from_raise", { province: p }),
  conan_act: (p) =>
    p === pname(memo.conanAt)
      ? tr("conan.from_conan_stays", { province: p })
      : tr("conan.from_conan_goes", { province: p }),
};

export const GOAL = {
  army: () => tr("conan.goal_army"),
  withdraw: () => tr("conan.goal_withdraw"),
  emissary: () => tr("conan.goal_emissary"),
  raise: () => tr("conan.goal_raise"),
  conan_act: () => tr("conan.goal_conan_act"),
};

// What the map offers now: targets (province -> commands) and sources
// (province -> kinds of two-step moves starting there).
export function offers(moves, ui) {
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
export function sourceExtras(moves, ui) {
  if (!ui.src) return [];
  return moves.onMap
    .filter((m) => m.kind === ui.src.kind && m.src === ui.src.province && !m.dst)
    .map((m) => m.cmd);
}

// ---- the map ----

// Sieges and battles that stand from turn to turn: an army in another
// player's province (its home or under its marker), or armies of two players
// in one neutral province.
export function standoffs(view) {
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

export function standoffWords(id, f, ctx) {
  const who = (seat) => seatName(ctx, seat);
  return f.kind === "siege"
    ? tr("conan.siege_of", {
        province: pname(id),
        attackers: listWords(f.attackers.map(who)),
        defender: who(f.defender),
      })
    : tr("conan.battle_in", { province: pname(id), armies: listWords(f.armies.map(who)) });
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

// A piece on the map: shadowed, named by its title.
function token(label, ...parts) {
  return s("g", { class: "zc-piece", filter: "url(#zc-shadow)" }, title(label), ...parts);
}

// How many a piece stands for, beside it (one: nothing).
function countMark(x, y, fill, n) {
  return n > 1
    ? s("text", { x, y, "font-size": 15, "font-weight": 800, fill, class: "zc-halo" }, `×${n}`)
    : null;
}

function shieldToken(x, y, col, n, label) {
  return token(
    label,
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
  return token(
    label,
    s("circle", { cx: x, cy: y - 8, r: 5.5, fill: col.fill, stroke: col.dark, "stroke-width": 1.4 }),
    s("path", {
      d: `M${x - 8} ${y + 11}Q${x - 8} ${y - 1} ${x} ${y - 2.5}Q${x + 8} ${y - 1} ${x + 8} ${y + 11}Z`,
      fill: col.fill,
      stroke: col.dark,
      "stroke-width": 1.4,
    }),
    countMark(x + 11, y + 11, "#1d1a14", n),
  );
}

function markerToken(x, y, col, marker, label) {
  return token(
    label,
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
  return token(
    tr("conan.raiders_title", { count: n }),
    s("circle", { cx: x, cy: y, r: 13, fill: "#2a1f1a", stroke: "#c7301f", "stroke-width": 2.4 }),
    place(glyph("axe", "#f1d3c8"), x, y, 17),
    countMark(x + 15, y + 6, "#5e120d", n),
  );
}

function conanToken(x, y, player, ctx) {
  return s(
    "g",
    { class: "zc-piece zc-conan", filter: "url(#zc-shadow)" },
    title(player >= 0 ? tr("conan.conan_title_player", { name: seatName(ctx, player) }) : "Conan"),
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
    const terr = TERRAIN[t] || { fill: "#ccc", ink: "#000" };
    const cx = x0 + i * (size + gap);
    const here = owner >= 0 && st.campaign_pos === i;
    g.append(
      s(
        "g",
        {},
        title(
          here
            ? tr("conan.track_space_here", {
                n: String(i + 1),
                count: n,
                terrain: terrainName(t),
                name: seatName(ctx, owner),
              })
            : tr("conan.track_space", { n: String(i + 1), count: n, terrain: terrainName(t) }),
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
          terrainLetter(t),
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

export function drawMap(view, ctx, moves, ui, act) {
  const map = mapOf(view, ctx, moves, ui, act);
  const { board, svg, land, pieces, labels, over } = map;
  drawLand(map);
  svg.append(land);
  for (const p of board.provinces) drawProvince(map, p);
  svg.append(pieces, labels);
  // Highlights of the contest and of the legal moves, on top.
  for (const p of board.provinces) drawHighlight(map, p);
  svg.append(over);
  return svg;
}

// The sea the map is drawn on.
function mapSvg(W, H, ui) {
  const svg = s("svg", {
    class: `zc-board${ui.src ? " zc-picking" : ""}`,
    viewBox: `0 0 ${W} ${H}`,
    role: "group",
    "aria-label": tr("conan.map_label"),
    preserveAspectRatio: "xMidYMid meet",
  });
  svg.append(
    defs(),
    s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#zc-sea)" }),
    s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#zc-waves)" }),
  );
  return svg;
}

// What drawing the map needs: the board and the state on it, where each
// province is, the moves' targets and sources, and the layers drawn into.
function mapOf(view, ctx, moves, ui, act) {
  const board = view.board;
  const laid = board.width > 0 && board.provinces.every((p) => p.shape && p.shape.length >= 3);
  const W = laid ? board.width : 1000;
  const H = laid ? board.height : 900;
  const svg = mapSvg(W, H, ui);
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

  const map = {
    view,
    ctx,
    ui,
    act,
    board,
    laid,
    svg,
    states,
    inPlay,
    seatOfKingdom,
    fight,
    target,
    centre,
    fights,
    anchor,
    targets,
    sources,
    land,
    over,
    pieces,
    labels,
    fixups,
  };
  return map;
}

// The land: the pack's outlines, borders, labels and zones (or a ring of provinces
// when the pack has no shapes), and the mountain passes.
function drawLand(map) {
  if (map.laid) {
    const geo = geometry(map.view);
    drawTerrain(map, geo);
    for (const p of map.board.provinces) drawProvinceLand(map, geo, p);
    drawBorders(map.land, geo);
    drawLandLabels(map);
    drawPasses(map);
  } else drawRing(map);
}

// The sea's shallows round the coast, and the mountains and deserts no one enters.
function drawTerrain(map, geo) {
  const { svg, land } = map;
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
        title(f.kind === "mountains" ? tr("conan.mountains_title") : tr("conan.desert_title")),
      ),
    );
  }
}

// A province's ground: its zone's colour (hatched out of play), its holder's
// colour and border, and the savage lands' pattern.
function drawProvinceLand(map, geo, p) {
  const { states, inPlay, seatOfKingdom, land } = map;
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

// The borders between provinces (dashed) and the coast.
function drawBorders(land, geo) {
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
}

// The names of seas and wild lands, and the zones out of play.
function drawLandLabels(map) {
  const { board, inPlay, labels } = map;
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
        labelName(lb.name),
      ),
    );
  }
  for (const z of board.zones || []) {
    if (inPlay.has(z.id)) continue;
    labels.append(
      s(
        "text",
        { x: z.x, y: z.y, "text-anchor": "middle", class: "zc-zone-label" },
        tr("conan.zone_out", { zone: zoneName(z.id) }),
      ),
    );
  }
}

// A pack with no shapes: the provinces as a ring of circles, joined by their routes.
function drawRing(map) {
  const { board, states, inPlay, seatOfKingdom, centre, land } = map;
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

// Adjacent provinces without a common border: a mountain pass.
function drawPasses(map) {
  const { board, land } = map;
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
        title(tr("conan.pass_title", { a: pname(a), b: pname(b) })),
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

// One province: its name, value, home crown, savage skull and destination flag,
// the pieces on it, and its campaign track.
function drawProvince(map, p) {
  const { states, inPlay, seatOfKingdom, fight, anchor, pieces } = map;
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
  drawProvinceName(map, p, x, y, playing, home);
  // pieces (out of play, only Conan and raiders may stand there)
  const tokens = [...contestTokens(map, p), ...pieceTokens(map, p, st)];
  const trackY = drawTokenRows(pieces, x, y, tokens, secondTokens(map, st));
  if (playing) pieces.append(trackRow(x, trackY, p, st, map.ctx, fight === p.id));
}

// A province's name (one or two lines), value coin, home crown, savage skull
// and destination flag; the coin and icons are moved beside the name once its
// width is known.
function drawProvinceName(map, p, x, y, playing, home) {
  const { labels, fixups } = map;
  const name = pname(p.id).toUpperCase();
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
  const coin = provinceCoin(p);
  const icons = provinceIcons(map.view, p, home);
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
}

// A province's value on a coin.
function provinceCoin(p) {
  return s(
    "g",
    {},
    title(tr("conan.province_value", { province: pname(p.id), value: String(p.value) })),
    s("circle", { cx: 0, cy: 0, r: 11.5, fill: "#f6e7b0", stroke: "#6b4f12", "stroke-width": 1.6 }),
    s(
      "text",
      { x: 0, y: 5.3, "text-anchor": "middle", "font-size": 15, "font-weight": 800, fill: "#4a3508" },
      String(p.value),
    ),
  );
}

// The icons beside a province's name: home crown, savage skull, destination flag.
function provinceIcons(view, p, home) {
  const icons = s("g", {});
  let right = 0;
  if (home !== undefined) {
    icons.append(
      s(
        "g",
        {},
        title(tr("conan.home_title", { kingdom: kname(p.home_of) })),
        place(glyph("crown", colourOf(home).dark), right + 9, 0, 19),
      ),
    );
    right += 21;
  }
  if (p.savage) {
    icons.append(
      s("g", {}, title(tr("conan.savage_title")), place(glyph("skull", "#4b3a1e"), right + 8, 0, 17)),
    );
    right += 20;
  }
  if (view.destination === p.id)
    icons.append(
      s(
        "g",
        { class: "zc-dest" },
        title("Conan's destination"),
        place(glyph("flag", "#b3261e"), right + 12, -4, 25),
      ),
    );
  return icons;
}

// What is being fought over here: the contest, the Military action's target, or a standoff.
function contestTokens(map, p) {
  const { ctx, fight, target, fights } = map;
  const tokens = [];
  if (fight === p.id) {
    tokens.push({
      w: 34,
      draw: (cx, cy) =>
        s(
          "g",
          {},
          title(tr("conan.contest_title")),
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
          title(tr("conan.must_fight_title")),
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
          title(tr("conan.standoff_title", { standoff: standoffWords(p.id, f, ctx) })),
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
  return tokens;
}

// Conan, the holder's marker and each seat's units: the first row of pieces.
function pieceTokens(map, p, st) {
  const { view, ctx } = map;
  const tokens = [];
  if (view.conan_at === p.id)
    tokens.push({ w: 44, draw: (cx, cy) => conanToken(cx, cy, view.conan_player, ctx) });
  if (st.marker && st.owner >= 0) {
    const col = colourOf(st.owner);
    tokens.push({
      w: 40,
      draw: (cx, cy) => markerToken(cx, cy - 1, col, st.marker, `${seatName(ctx, st.owner)}'s ${st.marker}`),
    });
  }
  (st.units || []).forEach((n, seat) => {
    if (n > 0)
      tokens.push({
        w: 31,
        draw: (cx, cy) =>
          shieldToken(
            cx,
            cy,
            colourOf(seat),
            n,
            tr("conan.units_of", { count: n, name: seatName(ctx, seat) }),
          ),
      });
  });
  return tokens;
}

// Emissaries and raiders: the second row of pieces.
function secondTokens(map, st) {
  const { ctx } = map;
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
            tr("conan.emissaries_of", { count: n, name: seatName(ctx, seat) }),
          ),
      });
  });
  if (st.raiders > 0)
    second.push({
      w: st.raiders > 1 ? 44 : 30,
      draw: (cx, cy) => raiderToken(cx - (st.raiders > 1 ? 8 : 0), cy + 1, st.raiders),
    });
  return second;
}

// The pieces in one row when they fit, else two; returns where the track goes below them.
function drawTokenRows(pieces, x, y, tokens, second) {
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
  return trackY;
}

// A province's highlight: the contest, a legal move's target (a click or Enter
// chooses it), or where a two-step move starts.
function drawHighlight(map, p) {
  const { view, ctx, ui, act, laid, svg, fight, centre, targets, sources, over } = map;
  const d = laid
    ? geometry(view).paths.get(p.id)
    : (() => {
        const [x, y] = centre.get(p.id);
        return `M${x - 70} ${y}a70 70 0 1 0 140 0a70 70 0 1 0 -140 0`;
      })();
  if (fight === p.id) svg.append(s("path", { d, class: "zc-fight", fill: "none", "pointer-events": "none" }));
  const cmds = targets.get(p.id);
  const kinds = sources.get(p.id);
  const selected = ui.src && ui.src.province === p.id;
  if (!cmds && !kinds && !selected) return;
  const pending = ui.pending && ui.pending.province === p.id;
  const cls = cmds ? `legal${pending ? " zc-pending" : ""}` : selected ? "zc-selected" : "zc-source";
  const text = cmds
    ? cmds.length === 1
      ? label(cmds[0], ctx)
      : tr("conan.province_moves", { province: pname(p.id), count: cmds.length })
    : selected
      ? tr("conan.province_chosen", { province: pname(p.id) })
      : listWords(
          [...kinds].map((k) => FROM[k](pname(p.id))),
          "disjunction",
        );
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
    title(text),
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
