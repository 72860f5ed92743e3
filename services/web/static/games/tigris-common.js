// What the two Tigris renderers share: colours, leaders and dynasties, small
// DOM/SVG builders, the side-panel pieces, and the two-step move picker
// (choose a tile/card/leader, then a place on the board, then confirm).
// Plain ES module, no dependencies.

import { h, s, title } from "../dom.js";
import { t } from "../i18n.js";
import { submitted } from "../moves.js";
import { refusalWords, seatName } from "../words.js";

export const COLOURS = ["red", "blue", "green", "black"];
export const LEADERS = ["priest", "farmer", "trader", "king"];
export const LEADER_OF = { red: "priest", blue: "farmer", green: "trader", black: "king" };
export const COLOUR_OF = { priest: "red", farmer: "blue", trader: "green", king: "black" };

// Civilisation colours: the four tile/card colours, readable on sand and river.
export const FILL = { red: "#c62f2f", blue: "#1f5fbf", green: "#23853c", black: "#262626" };
export const LIGHT = { red: "#f4c9c4", blue: "#c9dcf5", green: "#cbe8cf", black: "#d6d6d6" };

// Dynasties (one per seat): a ring colour that stands apart from the four
// civilisation colours, and a symbol, as on the box's leader pieces.
export const DYNASTIES = [{ ring: "#f2a900" }, { ring: "#a55fe8" }, { ring: "#00b7d6" }, { ring: "#f0509f" }];

// The dynasties' and leaders' names as the rule documents call them (the seeds:
// jousimies, härkä, leijona, ruukku; íjász, bika, oroszlán, váza; pappi, pap ...).
export function dynastyName(seat) {
  return [t("tigris.archer"), t("tigris.bull"), t("tigris.lion"), t("tigris.urn")][seat % 4];
}

export function leaderName(leader) {
  const names = {
    priest: t("tigris.priest"),
    farmer: t("tigris.farmer"),
    trader: t("tigris.trader"),
    king: t("tigris.king"),
  };
  return names[leader] || leader;
}

export function colourName(colour) {
  const names = {
    red: t("tigris.red"),
    blue: t("tigris.blue"),
    green: t("tigris.green"),
    black: t("tigris.black"),
  };
  return names[colour] || colour;
}

// ---- symbols, drawn in a 20x20 box centred on (10, 10) ----

// The tile of each colour: temple, farm, market, settlement.
export function tileGlyph(colour, fg = "#fff") {
  switch (colour) {
    case "red": // a stepped temple
      return s("path", { d: "M3 17H17V14H15V11H13V8H11.2V4H8.8V8H7V11H5V14H3Z", fill: fg });
    case "blue": // a sheaf of grain
      return s("path", {
        d: "M10 18V4M10 7.5L6.5 4.5M10 7.5L13.5 4.5M10 11.5L6 8.5M10 11.5L14 8.5M10 15.5L6 12.5M10 15.5L14 12.5",
        fill: "none",
        stroke: fg,
        "stroke-width": 1.9,
        "stroke-linecap": "round",
      });
    case "green": // market scales
      return s(
        "g",
        { fill: fg, stroke: fg, "stroke-width": 1.6, "stroke-linecap": "round" },
        s("path", { d: "M10 3.5V16.5M4.5 6.5H15.5M6.5 17H13.5", fill: "none" }),
        s("path", {
          d: "M4.5 6.5L2.3 11.5H6.7ZM15.5 6.5L13.3 11.5H17.7Z",
          "stroke-width": 1,
          "stroke-linejoin": "round",
        }),
      );
    case "black": // a settlement house
      return s(
        "g",
        {},
        s("path", { d: "M2.8 10.2L10 3.4L17.2 10.2H15.2V17H4.8V10.2Z", fill: fg }),
        s("rect", { x: 8.4, y: 12, width: 3.2, height: 5, fill: "#262626" }),
      );
    default:
      return s("g");
  }
}

// The symbol of each dynasty.
export function dynastyGlyph(seat, fg = "#fff") {
  switch (seat % 4) {
    case 0: // archer: a bow and arrow
      return s("path", {
        d: "M7 2.8Q17.5 10 7 17.2M7 2.8V17.2M2.5 10H16.5M13.6 7.2L16.5 10L13.6 12.8",
        fill: "none",
        stroke: fg,
        "stroke-width": 1.9,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      });
    case 1: // bull: horns and head
      return s(
        "g",
        { fill: fg },
        s("path", {
          d: "M2.5 4Q3 10.5 9 10.5M17.5 4Q17 10.5 11 10.5",
          fill: "none",
          stroke: fg,
          "stroke-width": 2,
          "stroke-linecap": "round",
        }),
        s("ellipse", { cx: 10, cy: 12.6, rx: 3.8, ry: 4.6 }),
      );
    case 2: {
      // lion: a maned head
      const rays = [];
      for (let i = 0; i < 10; i++) {
        const a = (i * Math.PI) / 5;
        rays.push(
          `M${(10 + 5 * Math.cos(a)).toFixed(2)} ${(10 + 5 * Math.sin(a)).toFixed(2)}L${(10 + 8.2 * Math.cos(a)).toFixed(2)} ${(10 + 8.2 * Math.sin(a)).toFixed(2)}`,
        );
      }
      return s(
        "g",
        {},
        s("path", { d: rays.join(""), stroke: fg, "stroke-width": 1.8, "stroke-linecap": "round" }),
        s("circle", { cx: 10, cy: 10, r: 4.4, fill: fg }),
      );
    }
    default: // urn
      return s("path", {
        d: "M6.6 2.8H13.4L12.2 5.2Q16.3 8 15.4 13Q14.6 17.3 10 17.3Q5.4 17.3 4.6 13Q3.7 8 7.8 5.2Z",
        fill: fg,
      });
  }
}

// Draw a 20x20 glyph at (cx, cy) scaled to `size`.
export function placeGlyph(glyph, cx, cy, size) {
  const k = size / 20;
  return s(
    "g",
    {
      transform: `translate(${(cx - size / 2).toFixed(2)} ${(cy - size / 2).toFixed(2)}) scale(${k.toFixed(4)})`,
    },
    glyph,
  );
}

// A leader: filled with its colour (priest red, farmer blue, trader green,
// king black), ringed with its dynasty's colour, the dynasty symbol inside.
export function leaderPiece(cx, cy, r, seat, leader, ctx, extra = {}) {
  const colour = COLOUR_OF[leader];
  const dyn = DYNASTIES[seat % 4];
  return s(
    "g",
    { class: "zt-leader", ...extra },
    title(
      t("tigris.leader_title", {
        seat: seatName(ctx, seat),
        leader: leaderName(leader),
        dynasty: dynastyName(seat),
      }),
    ),
    s("circle", { cx, cy, r: r + 0.6, fill: "rgba(0,0,0,.35)", transform: "translate(1 1.5)" }),
    s("circle", { cx, cy, r, fill: dyn.ring, stroke: "#1b1b1b", "stroke-width": 1 }),
    s("circle", { cx, cy, r: r * 0.72, fill: FILL[colour], stroke: "#fff", "stroke-width": 1.2 }),
    placeGlyph(dynastyGlyph(seat), cx, cy, r * 1.05),
  );
}

// A small standalone SVG (for the side panel): a leader, a tile, a dynasty badge.
export function miniSvg(size, ...children) {
  return s(
    "svg",
    { width: size, height: size, viewBox: "0 0 40 40", class: "zt-mini", "aria-hidden": "true" },
    ...children,
  );
}

export function miniLeader(seat, leader, ctx) {
  return miniSvg(26, leaderPiece(20, 20, 17, seat, leader, ctx));
}

export function miniTile(colour, size = 22) {
  return miniSvg(
    size,
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 6, fill: FILL[colour] }),
    placeGlyph(tileGlyph(colour), 20, 20, 28),
  );
}

export function dynastyBadge(seat, size = 22) {
  const dyn = DYNASTIES[seat % 4];
  return miniSvg(
    size,
    s("circle", { cx: 20, cy: 20, r: 18, fill: dyn.ring, stroke: "#1b1b1b", "stroke-width": 1.5 }),
    placeGlyph(dynastyGlyph(seat, "#1b1b1b"), 20, 20, 26),
  );
}

// ---- keyboard and clicks ----

// Make an SVG/HTML element a button: focusable, Enter/Space activate it.
export function clickable(el, handler, labelText) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  if (labelText) el.setAttribute("aria-label", labelText);
  el.addEventListener("click", (ev) => {
    ev.preventDefault();
    handler(ev);
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") {
      ev.preventDefault();
      handler(ev);
    }
  });
  return el;
}

export function ztButton(text, handler, attrs = {}) {
  const b = h("button", { type: "button", class: "zt-btn", ...attrs }, text);
  b.addEventListener("click", (ev) => {
    ev.preventDefault();
    handler(ev);
  });
  return b;
}

// ---- the move picker: state that survives re-rendering one version ----
//
// `sel` is what the player picked first (a tile colour, a leader, the
// catastrophe), `target` a place clicked before anything was picked,
// `pending` the command awaiting confirmation, `msg` a rejection in words.

let pick = { key: "", sel: null, target: null, pending: null, msg: "", busy: false, extra: {} };

// Kept while the seat's legal moves stay the same: a new version that changes
// nothing for this seat (another seat's answer, a feed catching up) leaves a
// half-made choice as it was.
export function picker(doc, legal) {
  const key = `${doc.game_id || ""}|${doc.seat}|${JSON.stringify(legal)}`;
  if (pick.key !== key)
    pick = { key, sel: null, target: null, pending: null, msg: "", busy: false, extra: {} };
  return pick;
}

export const same = (a, b) => a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);

// Re-draw after a local change, keeping the keyboard focus where it was.
export function redraw(draw) {
  const active = document.activeElement;
  const focusKey = active?.getAttribute?.("data-key");
  draw();
  if (focusKey) {
    const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again) {
      takeStop(again);
      again.focus();
    }
  }
}

// Pick (or drop) a tile/card colour, a leader or the catastrophe. Picked from
// the keyboard, the focus goes straight to the first place it may go.
export function togglePick(p, sel, draw, ev) {
  p.sel = p.sel === sel ? null : sel;
  p.pending = null;
  p.target = null;
  p.msg = "";
  redraw(draw);
  if (p.sel && ev && (ev.type === "keydown" || ev.detail === 0)) {
    const first = document.querySelector("svg.zt-board .legal");
    if (first) {
      takeStop(first);
      first.focus();
    }
  }
}

// The board's places as one Tab stop (a roving tabindex), so a keyboard user
// reaches the panel past a board of a hundred highlighted squares with one
// Tab: Tab enters the board at the pending place (or the first), the arrow
// keys walk its places, and Tab again leaves it.
export function oneTabStop(svg) {
  svg.setAttribute("data-roving", "1");
  const places = [...svg.querySelectorAll(".legal")];
  const stop = places.find((el) => el.classList.contains("zt-pending")) || places[0];
  for (const el of places) el.setAttribute("tabindex", el === stop ? "0" : "-1");
}

// Make this place the board's Tab stop (when the board has one).
function takeStop(el) {
  const svg = el.closest?.("svg[data-roving]");
  if (!svg || !el.classList.contains("legal")) return;
  for (const other of svg.querySelectorAll(".legal[tabindex='0']")) other.setAttribute("tabindex", "-1");
  el.setAttribute("tabindex", "0");
}

// Arrow keys move the focus between the board's clickable places.
export function arrowKeys(svg) {
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const centre = (el) => {
    const b = el.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  svg.addEventListener("keydown", (ev) => {
    const d = dirs[ev.key];
    const from = d && ev.target.closest?.(".legal");
    if (!from) return;
    const [x0, y0] = centre(from);
    let best = null,
      score = Infinity;
    for (const el of svg.querySelectorAll(".legal")) {
      if (el === from) continue;
      const [x, y] = centre(el);
      const along = (x - x0) * d[0] + (y - y0) * d[1];
      if (along <= 1) continue;
      const across = Math.abs((x - x0) * d[1]) + Math.abs((y - y0) * d[0]);
      if (along + 2 * across < score) {
        best = el;
        score = along + 2 * across;
      }
    }
    if (best) {
      ev.preventDefault();
      takeStop(best);
      best.focus();
    }
  });
}

// Send a command; a rejection is kept and shown in words.
export async function send(ctx, command, p, draw) {
  if (p.busy) return;
  p.busy = true;
  p.msg = "";
  const reply = await submitted(ctx, command);
  p.busy = false;
  if (!reply?.ok) {
    p.msg = refusalWords(reply);
    p.pending = null;
    redraw(draw);
  } else {
    p.sel = null;
    p.target = null;
    p.pending = null;
    p.extra = {};
  }
}

// The confirm / cancel box of a pending move (and any rejection message).
export function confirmBox(p, ctx, describeCmd, draw) {
  const box = h("div", { class: "zt-confirm", "aria-live": "polite" });
  if (p.pending) {
    box.append(
      h("div", { class: "zt-confirm-q" }, `${describeCmd(p.pending)}?`),
      h(
        "div",
        { class: "zt-row" },
        ztButton(t("moves.confirm"), () => send(ctx, p.pending, p, draw), {
          class: "zt-btn zt-primary",
          "data-key": "confirm",
          "data-confirm": "1",
        }),
        ztButton(
          t("moves.cancel"),
          () => {
            p.pending = null;
            redraw(draw);
          },
          { "data-key": "cancel" },
        ),
      ),
    );
  }
  if (p.msg) box.append(h("div", { class: "zt-msg", role: "alert" }, p.msg));
  return box;
}

// Escape cancels the current selection anywhere on the page.
let escBound = false;
let escHandler = null;
export function onEscape(handler) {
  escHandler = handler;
  if (escBound) return;
  escBound = true;
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && escHandler) escHandler();
  });
}

// ---- the start of every render ----

// A drawing of a new version by the page keeps the keyboard focus on the same
// control, once the render that is starting has finished (a redraw of this
// page's own making has already put it back by then).
function keepFocus(root) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.getAttribute("data-key") : null;
  if (!key) return;
  queueMicrotask(() => {
    if (root.contains(document.activeElement)) return;
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) {
      takeStop(again);
      again.focus();
    }
  });
}

// What both boards' `render` begins with: the style, an emptied root (a note
// while the table is being set up: then null), the seat, the legal commands
// split by `boardMove` (cmd -> {sel, target} | null) into board moves (pick,
// then place) and the side panel's, and this version's picker, with Escape
// dropping what is picked. `draw` redraws the same document.
export function begin(root, doc, ctx, render, boardMove) {
  ensureStyle();
  const draw = () => render(root, doc, ctx);
  keepFocus(root);
  root.replaceChildren();
  const view = doc.view;
  if (!view) {
    root.append(h("p", {}, t("tigris.setting_up")));
    return null;
  }
  const seat = doc.seat ?? ctx.seat ?? null;
  const legal = (Array.isArray(ctx.legal) ? ctx.legal : doc.legal) || [];
  const p = picker(doc, legal);
  onEscape(() => {
    if (!p.sel && !p.pending && p.target === null) return;
    p.sel = null;
    p.pending = null;
    p.target = null;
    redraw(draw);
  });
  const moves = legal.map((cmd) => ({ cmd, ...(boardMove(cmd) || {}) })).filter((m) => m.sel);
  const others = legal.filter((cmd) => !boardMove(cmd));
  if (p.sel && !moves.some((m) => m.sel === p.sel)) p.sel = null;
  return { view, seat, legal, p, draw, moves, others };
}

// ---- the board's places ----

// Where each move goes: place -> its commands (after a pick, only the picked
// piece's moves).
export function moveTargets(moves, p) {
  const targets = new Map();
  for (const m of moves) {
    if (p.sel && m.sel !== p.sel) continue;
    if (!targets.has(m.target)) targets.set(m.target, []);
    targets.get(m.target).push(m.cmd);
  }
  return targets;
}

// A place a move can go to, as a button: its one move waits for confirmation
// (a second click sends it); its several moves are listed in the panel.
export function placeButton(g, key, one, text, p, ctx, draw) {
  return clickable(
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
}

// ---- panel pieces ----

// The board beside the side panel of `sections` (null: left out), in `root`.
export function layout(root, tableClass, svg, ...sections) {
  root.append(
    h(
      "div",
      { class: "zt-host" },
      h(
        "div",
        { class: tableClass },
        h("div", { class: "zt-boardwrap" }, svg),
        h("div", { class: "zt-panel" }, ...sections),
      ),
    ),
  );
}

export function section(heading, ...children) {
  return h("section", { class: "zt-sec" }, h("h3", {}, heading), ...children);
}

// The seat's secret hand, a chip per colour; the colours it may play now are
// buttons that pick them (both games hold their hand as counts by colour).
export function handSection(view, p, moves, draw, myTurn, item) {
  const sec = section(item.heading);
  sec.setAttribute("data-zt", "hand");
  const row = h("div", { class: "zt-row" });
  COLOURS.forEach((c, i) => {
    const n = view.hand[i];
    const sel = `${item.kind}:${c}`;
    const can = myTurn && moves.some((m) => m.sel === sel);
    const content = [item.mini(c), " ", item.name(c, n)];
    if (can) {
      row.append(pickChip(content, sel, p, draw, { title: item.tip(c) }));
    } else {
      row.append(h("span", { class: "zt-chip", style: n ? null : "opacity:.45" }, ...content));
    }
  });
  sec.append(row, h("div", { class: "zt-sub" }, t("tigris.only_you")));
  return sec;
}

export function scoreRow(points, treasures, label) {
  return h(
    "div",
    { class: "zt-scores", title: label || t("tigris.points_per_colour") },
    COLOURS.map((c, i) =>
      h(
        "span",
        {
          class: `zt-pt zt-${c}`,
          title: t("tigris.points_colour", { count: points[i], colour: colourName(c) }),
        },
        String(points[i]),
      ),
    ),
    treasures !== undefined && treasures !== null
      ? h(
          "span",
          { class: "zt-pt zt-gold", title: t("tigris.treasures", { count: treasures }) },
          `◆${treasures}`,
        )
      : null,
  );
}

// The final standings, a line a seat (ties broken as the result says).
export function standingRows(result, ctx) {
  return result.standings.map((st) =>
    h(
      "div",
      {},
      t("tigris.standing", { place: st.place, name: seatName(ctx, st.seat), score: st.score }),
      st.tiebreak?.length
        ? h("span", { class: "zt-sub" }, " ", t("tigris.tiebreak", { order: st.tiebreak.join(", ") }))
        : null,
    ),
  );
}

// One side of a conflict: its leader, its role and its strength, and
// `strength(base, support)` saying it (support none yet: null).
function conflictSide(ctx, leader, seat, base, support, role, strength) {
  return h(
    "div",
    {},
    h(
      "div",
      { class: "zt-row", style: "justify-content:center" },
      miniLeader(seat, leader, ctx),
      h("b", {}, seatName(ctx, seat)),
    ),
    h("div", { class: "zt-sub" }, role),
    h("div", { class: "zt-big" }, String(base + (support ?? 0))),
    h("div", { class: "zt-sub" }, strength(base, support ?? null)),
  );
}

// A conflict: the sides face to face (each [seat, base, support]), then `hint`
// on how it is decided.
export function conflictPanel(heading, ctx, leader, attacker, defender, strength, hint) {
  const sec = section(heading);
  sec.classList.add("zt-conflict");
  const side = ([seat, base, support], role) =>
    conflictSide(ctx, leader, seat, base, support, role, strength);
  sec.append(
    h(
      "div",
      { class: "zt-vs" },
      side(attacker, t("tigris.attacker")),
      h("div", { class: "zt-big" }, t("tigris.versus")),
      side(defender, t("tigris.defender")),
    ),
  );
  sec.append(h("div", { class: "zt-hint" }, hint));
  return sec;
}

// The moves section and its box of actions, headed by how to pick (null: no hint).
export function movesPanel(hint) {
  const sec = section(t("table.your_move"));
  sec.setAttribute("data-zt", "moves");
  const box = h("div", { class: "zt-actions" });
  sec.append(box);
  if (hint) box.append(h("div", { class: "zt-hint" }, hint));
  return [sec, box];
}

// A chip that picks (or drops) a leader, the catastrophe or a colour of the hand.
export function pickChip(content, sel, p, draw, attrs = {}) {
  return ztButton(content, (ev) => togglePick(p, sel, draw, ev), {
    class: "zt-chip",
    "aria-pressed": String(p.sel === sel),
    "data-key": `sel-${sel}`,
    "data-pick": sel,
    ...attrs,
  });
}

// The moves open at the place clicked first (under `heading(place)`), each a
// button that makes it the move to confirm; then the confirm box.
export function placeOptions(box, p, ctx, targets, describe, heading, draw) {
  if (p.target !== null && p.target !== undefined && targets.has(p.target)) {
    box.append(h("div", { class: "zt-hint" }, heading(p.target)));
    for (const cmd of targets.get(p.target)) {
      box.append(
        ztButton(
          describe(cmd),
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
  box.append(confirmBox(p, ctx, describe, draw));
}

// A move that is not made on the board: one button that sends it.
export function commandButton(cmd, ctx, p, describe, draw) {
  return ztButton(describe(cmd), () => send(ctx, cmd, p, draw), {
    "data-command": JSON.stringify(cmd),
    "data-key": `cmd-${JSON.stringify(cmd)}`,
  });
}

// A player's row: dynasty, name, whether they are to play, then `meta`.
export function playerRow(seat, me, actors, ctx, ...meta) {
  return h(
    "div",
    { class: `zt-player${actors.has(seat) ? " zt-turn" : ""}`, "data-seat": String(seat) },
    dynastyBadge(seat, 24),
    h(
      "span",
      { class: "zt-name" },
      seatName(ctx, seat),
      seat === me ? [" ", t("tigris.you")] : "",
      h("span", { class: "zt-sub" }, ` · ${dynastyName(seat)}`),
    ),
    h("span", { class: "zt-sub" }, actors.has(seat) ? t("tigris.to_play") : ""),
    h("div", { class: "zt-meta" }, ...meta),
  );
}

// The leaders a player has in their supply (none: null).
export function supplyChips(seat, supply, ctx) {
  return supply.length
    ? h(
        "span",
        { class: "zt-row", title: t("tigris.supply_tip") },
        t("tigris.supply"),
        ...supply.map((ld) => miniLeader(seat, ld, ctx)),
      )
    : null;
}

// ---- the legend ----

// A legend line: a small drawing of `shapes`, then what it means.
export function legendItem(text, ...shapes) {
  return h("div", {}, miniSvg(20, ...shapes), text);
}

// A rounded square inset in the legend's 40x40 drawing.
export function legendSquare(rx, fill, stroke, strokeWidth) {
  return s("rect", { x: 3, y: 3, width: 34, height: 34, rx, fill, stroke, "stroke-width": strokeWidth });
}

// The legend of either game: its pieces by colour, then `items` between the
// leader's line and the line of the places a move may go to.
export function legendDetails(colourItem, before, after) {
  const det = h(
    "details",
    { class: "zt-sec", open: "" },
    h("summary", { class: "zt-sub" }, t("tigris.legend")),
  );
  const grid = h("div", { class: "zt-legend" });
  for (const c of COLOURS) grid.append(colourItem(c));
  grid.append(
    ...before,
    legendItem(
      t("tigris.legend_leader"),
      s("circle", { cx: 20, cy: 20, r: 17, fill: DYNASTIES[0].ring, stroke: "#111" }),
      s("circle", { cx: 20, cy: 20, r: 12, fill: FILL.black, stroke: "#fff" }),
    ),
    ...after,
    legendItem(t("tigris.legend_where"), legendSquare(6, "rgba(255,230,90,.5)", "#ffd400", 3)),
  );
  det.append(grid);
  return det;
}

// The stylesheet, added once; every class starts with "zt-".
const CSS_TEXT = `
.zt-host{container-type:inline-size}
.zt-table{display:grid;grid-template-columns:minmax(0,1fr);gap:12px;align-items:start;font:14px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1a14}
@container (min-width:880px){.zt-table{grid-template-columns:minmax(0,1fr) 280px}}
@container (min-width:1250px){.zt-table{grid-template-columns:minmax(0,1fr) 320px}}
@container (max-width:879px){.zt-panel{display:grid!important;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));align-items:start}}
@container (max-width:1399px){.zt-table.zt-wide{grid-template-columns:minmax(0,1fr)}.zt-wide .zt-panel{display:grid;grid-template-columns:repeat(auto-fill,minmax(235px,1fr));align-items:start}}
.zt-boardwrap{background:#3b2f22;border-radius:10px;padding:8px;box-shadow:0 2px 10px rgba(0,0,0,.25)}
.zt-board{display:block;width:100%;height:auto;max-height:82vh}
.zt-panel{display:flex;flex-direction:column;gap:10px}
.zt-sec{background:#fffdf7;border:1px solid #d8cdb4;border-radius:8px;padding:8px 10px}
.zt-sec h3{margin:0 0 6px;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#7a6a48}
.zt-status{font-size:16px;font-weight:600}
.zt-sub{color:#5d5442;font-size:13px}
.zt-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.zt-player{display:grid;grid-template-columns:24px 1fr auto;gap:2px 8px;align-items:center;padding:5px 4px;border-radius:6px}
.zt-player.zt-turn{background:#fff1c7;box-shadow:inset 3px 0 0 #e0a800}
.zt-player .zt-name{font-weight:600}
.zt-player .zt-meta{grid-column:2/4;color:#5d5442;font-size:12px;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
.zt-scores{display:inline-flex;gap:3px}
.zt-pt{display:inline-block;min-width:22px;text-align:center;border-radius:4px;padding:0 4px;font-weight:700;font-size:12px;color:#fff}
.zt-pt.zt-red{background:#c62f2f}.zt-pt.zt-blue{background:#1f5fbf}.zt-pt.zt-green{background:#23853c}.zt-pt.zt-black{background:#262626}
.zt-pt.zt-gold{background:#e7b416;color:#3a2a00}
.zt-btn{font:inherit;font-size:13px;padding:5px 10px;border-radius:6px;border:1px solid #9d8b63;background:#fff8e6;cursor:pointer;color:#1d1a14}
.zt-btn:hover{background:#ffefc2}
.zt-btn:focus-visible{outline:3px solid #1f5fbf;outline-offset:1px}
.zt-btn.zt-primary{background:#2f6b2f;border-color:#1f4d1f;color:#fff;font-weight:600}
.zt-btn.zt-primary:hover{background:#3a823a}
.zt-btn[aria-pressed=true]{background:#ffd766;border-color:#a07800;box-shadow:inset 0 0 0 2px #a07800}
.zt-btn:disabled{opacity:.45;cursor:default}
.zt-actions{display:flex;flex-direction:column;gap:6px}
.zt-actions .zt-btn{text-align:left}
.zt-chip{display:inline-flex;align-items:center;gap:4px;padding:3px 7px 3px 4px;border-radius:16px;border:1px solid #bba97f;background:#fff;font-weight:600;cursor:default}
button.zt-chip{cursor:pointer;font:inherit;font-weight:600}
button.zt-chip:hover{background:#fff3cf}
.zt-chip[aria-pressed=true]{background:#ffd766;border-color:#a07800;box-shadow:0 0 0 2px #a07800}
.zt-chip:disabled{opacity:.4;cursor:default}
.zt-confirm:empty{display:none}
.zt-confirm{display:flex;flex-direction:column;gap:6px;background:#eef7ea;border:1px solid #8fbf86;border-radius:8px;padding:8px}
.zt-confirm-q{font-weight:600}
.zt-msg{color:#a21d1d;font-weight:600}
.zt-hint{color:#5d5442;font-size:13px}
.zt-legend{display:grid;grid-template-columns:1fr 1fr;gap:4px 10px;font-size:12px}
.zt-legend>div{display:flex;align-items:center;gap:6px}
.zt-mini{flex:none;vertical-align:middle}
.zt-conflict{background:#fff0ee;border-color:#e0a49c}
.zt-vs{display:grid;grid-template-columns:1fr auto 1fr;gap:6px;align-items:center;text-align:center}
.zt-vs .zt-big{font-size:22px;font-weight:700}
.zt-board .legal{cursor:pointer}
.zt-board .legal .zt-hl{fill:rgba(255,230,90,.38);stroke:#ffd400;stroke-width:2.5}
.zt-board.zt-browse .legal .zt-hl{fill:transparent;stroke:none}
.zt-board .legal:hover .zt-hl,.zt-board .legal:focus .zt-hl{fill:rgba(255,230,90,.7);stroke:#fff}
.zt-board .legal:focus{outline:none}
.zt-board .legal:focus .zt-hl{stroke:#1f5fbf;stroke-width:4}
.zt-board .legal.zt-pending .zt-hl,.zt-board .legal.zt-pending:hover .zt-hl,.zt-board .legal.zt-pending:focus .zt-hl{fill:none;stroke:#1f8f1f;stroke-width:4.5}
.zt-board .zt-pick{cursor:pointer}
.zt-board .zt-pick:focus{outline:none}
.zt-board .zt-pick:focus .zt-ring,.zt-board .zt-pick:hover .zt-ring{stroke:#1f5fbf;stroke-width:4}
.zt-board .zt-picked .zt-ring{stroke:#ffd400;stroke-width:4}
.zt-board text{font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
.zt-kingdoms{display:grid;grid-template-columns:20px 1fr auto;gap:4px 6px;align-items:center;font-size:12px}
.zt-kingdoms .zt-lds{display:flex;flex-wrap:wrap;gap:2px}
.zt-num{display:inline-grid;place-items:center;width:18px;height:18px;border-radius:50%;background:#5b3a12;color:#fff;font-size:11px;font-weight:700}
@keyframes zt-pulse{0%,100%{stroke-opacity:1}50%{stroke-opacity:.25}}
.zt-board .zt-halo{animation:zt-pulse 1.4s ease-in-out infinite}
@media (prefers-reduced-motion:reduce){.zt-board .zt-halo{animation:none}}
`;

export function ensureStyle() {
  if (document.getElementById("zt-style")) return;
  const st = document.createElement("style");
  st.id = "zt-style";
  st.textContent = CSS_TEXT;
  document.head.append(st);
}
