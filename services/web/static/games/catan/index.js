// Catan and Catan: Cities & Knights (`catan`, `catan-ck`): the board renderer.
//
// The island (board.js) beside the side panel (panels.js), with words for
// every command and event (words.js), drawn from the view document
// (docs/web-client.md, "The game renderer contract"). Only what the document
// holds is shown: nothing here infers another seat's hidden cards.

import { htmlInto, svgInto } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import { submitted } from "../../moves.js";
import { refusalWords, seatName } from "../../words.js";
import { drawBoard, drawStatus, filterKey, steps } from "./board.js";
import { drawActions, drawDecision, drawHand, drawLegend, drawPlayers } from "./panels.js";
import { CK, drawingOptions, drawingView, label, OPTIONS } from "./words.js";

// The renderer contract (docs/web-client.md): render here, the words beside it.
export { geometry } from "./board.js";
export { describe, label, summary } from "./words.js";

// ---------------------------------------------------------------- render

const STYLE = `

.catan-root{container-type:inline-size;font:14px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f1d1a}

.catan-grid{display:grid;grid-template-columns:1fr;gap:14px;align-items:start}

@container (min-width:860px){.catan-grid{grid-template-columns:minmax(0,1fr) minmax(260px,320px)}}

.catan-main{min-width:0}

.catan-board{width:100%;height:auto;max-height:calc(100vh - 150px);display:block;border-radius:14px}

.catan-status{display:flex;flex-wrap:wrap;gap:12px 20px;align-items:center;margin:0 0 8px}

.catan-dice{display:flex;align-items:center;gap:8px}

.catan-roll{font-size:22px;font-weight:700;min-width:1.5em}

.catan-barbarians{display:flex;align-items:center;gap:8px;flex-wrap:wrap}

.catan-barbarians svg{height:40px;width:auto;max-width:100%}

.catan-odds{font-size:13px}.catan-odds .bad{color:#a11;font-weight:700}.catan-odds .good{color:#176b2c;font-weight:700}

.catan-side{display:flex;flex-direction:column;gap:10px;min-width:0}

.catan-box{background:#fbf8f1;border:1px solid #ddd3bd;border-radius:10px;padding:8px 10px}

.catan-box h3{margin:0 0 6px;font-size:15px}

.catan-muted{color:#6b655b;font-size:12.5px;margin:4px 0}

.catan-player{padding:5px 6px;border-radius:8px;margin:0 -4px 2px;border:1px solid transparent}

.catan-player.active{background:#fff1c7;border-color:#eed68a}

.catan-player .top{display:flex;align-items:center;gap:4px}

.catan-player .name{font-weight:650}

.catan-player .pts{margin-left:auto;white-space:nowrap}.catan-player .pts b{font-size:19px}

.catan-player .line{display:flex;flex-wrap:wrap;gap:2px 10px;font-size:12px;color:#4e4a42;margin-top:1px}

.catan-player .badges{margin-top:2px}

.catan-swatch{display:inline-block;width:13px;height:13px;border-radius:3px;border:1px solid #333;margin-right:5px;vertical-align:-2px}

.catan-badge{display:inline-block;font-size:11px;border-radius:8px;padding:0 6px;margin:1px 3px 1px 0;background:#e9e1cd;border:1px solid #cdbf9e}

.catan-badge.turn{background:#ffd54a;border-color:#c9a000;margin-left:4px}

.catan-imp{display:flex;gap:10px;margin-top:2px;font-size:11px;color:#6b655b}

.catan-imp .track{display:inline-flex;gap:1px;align-items:center}

.catan-imp .tname{margin-right:3px}

.catan-imp i{display:inline-block;width:7px;height:10px;background:#e3dccb;border-radius:1px;border:1px solid rgba(0,0,0,.12)}

.catan-chips{display:flex;flex-wrap:wrap;gap:4px}

.catan-chip{display:inline-flex;align-items:center;gap:3px;border:1px solid #d4c9b0;background:#fff;border-radius:6px;padding:1px 5px 1px 2px;font-size:12px}

.catan-chip i{display:inline-block;width:12px;height:16px;border-radius:2px;border:1px solid rgba(0,0,0,.35)}

.catan-chip.zero{opacity:.45}

.catan-cards{margin:6px 0 0;padding-left:18px;font-size:13px}

.catan-actions button,.catan-decision button{font:inherit;font-size:13px;margin:3px 4px 3px 0;padding:5px 9px;border-radius:7px;border:1px solid #b9ab8a;background:#fff;cursor:pointer;text-align:left}

.catan-actions button:hover,.catan-decision button:hover{background:#f3ead2}

.catan-actions button.primary,.catan-decision button.primary{background:#2c6e49;border-color:#1e4d33;color:#fff;font-weight:600}

.catan-actions button:disabled,.catan-decision button:disabled{opacity:.5;cursor:default}

.catan-actions button.kind{border-left:8px solid var(--kind)}

.catan-actions button.small{padding:3px 7px;font-size:12px}

button.catan-link{border:none;background:none;color:#2c5f9e;text-decoration:underline;padding:2px}

.catan-hint{font-size:12.5px;color:#4e4a42;margin:4px 0;padding-left:18px}

p.catan-hint{padding-left:0}

.catan-error{color:#a11;font-weight:600;margin:4px 0}

.catan-compose{margin-top:6px}.catan-compose summary{cursor:pointer;font-weight:600;font-size:13px}

.catan-bankrow{display:flex;flex-wrap:wrap;align-items:center;gap:2px;margin:3px 0}

.catan-bankrow .lead{display:inline-flex;align-items:center;gap:3px;min-width:110px;font-size:12px}

.catan-offer{display:grid;grid-template-columns:auto auto auto;gap:2px 10px;align-items:center;margin:6px 0}

.catan-offer .step button,.catan-picker button{padding:0 7px;margin:0 2px}

.catan-offer output,.catan-picker output{display:inline-block;min-width:1.2em;text-align:center;font-weight:700}

.catan-picker .row{display:flex;align-items:center;gap:6px;margin:2px 0}

.catan-picker .row .catan-chip{min-width:96px}

.catan-deals{margin:4px 0;padding-left:18px;font-size:13px}

.catan-legend ul{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:3px 14px;font-size:12px;color:#4e4a42}

.catan-legend li{display:inline-flex;align-items:center;gap:4px}

.catan-legend li i{display:inline-block;width:14px;height:12px;border-radius:2px;border:1px solid rgba(0,0,0,.3)}

.catan-bank{margin-top:6px}

.catan-root .legal{cursor:pointer;outline:none}

.catan-root .legal .catan-hit{fill:transparent;stroke:transparent}

.catan-root .legal .catan-mark{fill:#fff36b;stroke:#1b1b1b;stroke-width:2;animation:catan-pulse 1.3s ease-in-out infinite}

.catan-root .legal .catan-mark-line{stroke:#fff36b;stroke-width:6;stroke-linecap:round;stroke-dasharray:5 4;animation:catan-pulse 1.3s ease-in-out infinite}

.catan-root .legal .catan-mark-hex{fill:rgba(255,243,107,.2);stroke:#fff36b;stroke-width:4;stroke-dasharray:8 5;animation:catan-pulse 1.3s ease-in-out infinite}

.catan-root .legal:hover .catan-mark,.catan-root .legal:focus .catan-mark{fill:#fff;r:9;animation:none}

.catan-root .legal:hover .catan-mark-line,.catan-root .legal:focus .catan-mark-line{stroke:#fff;stroke-dasharray:none;animation:none}

.catan-root .legal:hover .catan-mark-hex,.catan-root .legal:focus .catan-mark-hex{fill:rgba(255,255,255,.3);stroke:#fff;animation:none}

.catan-root .legal .catan-ring{fill:none;stroke:#fff36b;stroke-width:4;stroke-dasharray:6 3;animation:catan-pulse 1.3s ease-in-out infinite}

.catan-root .legal:hover .catan-ring,.catan-root .legal:focus .catan-ring{stroke:#fff;stroke-dasharray:none;animation:none}

.catan-root .legal:focus-visible .catan-hit{stroke:#fff;stroke-width:3}

.catan-picked{fill:none;stroke:#ffe066;stroke-width:4}

.catan-picked-line{stroke:#ffe066;stroke-width:3;stroke-dasharray:6 4}

@keyframes catan-pulse{50%{opacity:.55}}

@media (prefers-reduced-motion:reduce){.catan-root .legal *{animation:none!important}}

`;

function ensureStyle(root) {
  const doc = root.ownerDocument || document;
  if (doc.getElementById("catan-style")) return;
  const s = doc.createElement("style");
  s.id = "catan-style";
  s.textContent = STYLE;
  (doc.head || doc.documentElement).appendChild(s);
}

// Which of several moves at one place is named first (data-command, the tooltip).
const RANK = [
  "catan.build_city",
  "catan.build_settlement",
  "catan.build_road",
  "catan.build_wall",
  "catan.activate_knight",
  "catan.promote_knight",
  "catan.build_knight",
  "catan.move_knight",
  "catan.chase_robber",
];

const rank = (c) => (RANK.includes(c.type) ? RANK.indexOf(c.type) : RANK.length);

// Per-root interaction state: the move being built (a card or track picked,
// board targets clicked), reset whenever the document's version changes.
const roots = new WeakMap();

function stageOf(legal, view, filter, picked) {
  const candidates = legal.filter((c) => {
    const key = filterKey(c);
    if (filter ? key !== filter : key) return false;
    const st = steps(c, view);
    if (!picked.length) return filter ? true : !!st;
    return st && picked.every((p, i) => st[i] === p);
  });
  const complete = [];
  const next = new Map();
  for (const c of candidates) {
    const st = steps(c, view) || [];
    if (st.length === picked.length) complete.push(c);
    else {
      const k = st[picked.length];
      if (!next.has(k)) next.set(k, []);
      next.get(k).push(c);
    }
  }
  return { complete, next };
}

export function render(root, doc, ctx) {
  const view = doc.view;
  CK.set(view, doc.game !== "catan");
  drawingOptions(ctx?.options || doc.options || OPTIONS.get(doc.game_id) || null);
  // A move being built survives new versions (other seats answering at the
  // same time) as long as this seat's legal moves stay the same; a shown
  // rejection stays until the table moves on.
  let st = roots.get(root);
  if (!st || st.table !== doc.game_id) {
    st = {
      table: doc.game_id,
      local: {},
      filter: null,
      picked: [],
      error: "",
      version: doc.version,
      moves: "",
    };
    roots.set(root, st);
  }
  const moves = JSON.stringify(ctx?.legal || doc.legal || []);
  if (st.moves !== moves) {
    st.moves = moves;
    st.filter = null;
    st.picked = [];
  }
  if (st.version !== doc.version) {
    st.version = doc.version;
    if (st.errorVersion !== doc.version) st.error = "";
  }
  st.doc = doc;
  st.ctx = ctx;
  draw(root, st);
}

function draw(root, st) {
  const { doc } = st;
  const view = doc.view;
  drawingView(view);
  ensureStyle(root);
  const focusKey = root.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-key")
    : null;
  const ui = panelUi(root, st, view);
  ui.stage = stageOf(ui.legal, view, st.filter, st.picked);
  ui.targets = boardTargets(root, st, ui, view);
  drawPage(root, doc, view, ui);
  if (focusKey) refocus(root, focusKey);
}

// What the board and the panels draw from and act through: the moves, the
// names, the step being chosen, and the ways to move on (submit, a button).
function panelUi(root, st, view) {
  const { ctx } = st;
  const ui = {
    ctx: { ...ctx, view },
    legal: ctx?.legal || st.doc.legal || [],
    name: (s) => seatName(ctx, s, "Player"),
    local: st.local,
    error: st.error,
    filter: st.filter,
    picked: st.picked,
    redraw: () => draw(root, st),
    reset: () => {
      st.filter = null;
      st.picked = [];
      draw(root, st);
    },
    enter: (key) => {
      st.filter = key;
      st.picked = [];
      st.error = "";
      draw(root, st);
    },
  };
  ui.submit = (command) => submit(root, st, ctx, command);
  ui.button = (parent, text, command, opts = {}) => {
    const b = htmlInto(
      "button",
      {
        type: "button",
        class: [opts.primary ? "primary" : "", opts.small ? "small" : ""].join(" ").trim() || null,
        "data-command": JSON.stringify(command),
        "data-key": opts.key || `cmd:${JSON.stringify(command)}`,
      },
      parent,
      text,
    );
    b.addEventListener("click", () => {
      const c = opts.live ? opts.live() : command;
      b.disabled = true;
      ui.submit(c);
    });
    return b;
  };
  return ui;
}

// Send a move; a refusal is shown and the half-chosen move dropped.
async function submit(root, st, ctx, command) {
  if (!ctx?.submit) return;
  st.error = "";
  const res = await submitted(ctx, command);
  if (res && res.ok === false) {
    st.error = refusalWords(res);
    st.errorVersion = st.doc.version;
    st.filter = null;
    st.picked = [];
    if (root.isConnected) draw(root, st);
  }
}

// Board targets: the next step of every move still possible, each with its
// words and what choosing it does (play the move, or take the step).
function boardTargets(root, st, ui, view) {
  const targets = new Map();
  const multiStep = (cs) => cs.some((c) => (steps(c, view) || []).length > 1 || filterKey(c));
  for (const [key, unsorted] of ui.stage.next) {
    const cs = unsorted.slice().sort((a, b) => rank(a) - rank(b));
    const after = [...st.picked, key];
    const exact = cs.filter((c) => (steps(c, view) || []).length === after.length);
    const direct = exact.length === 1 && cs.length === 1 && !multiStep(cs);
    const text = direct
      ? label(cs[0], ui.ctx)
      : cs.length === 1
        ? tr("catan.then_confirm", { move: label(cs[0], ui.ctx) })
        : tr("catan.moves_here", { count: cs.length });
    targets.set(key, {
      command: cs[0],
      commands: cs,
      text,
      activate: () => {
        if (direct) {
          ui.submit(cs[0]);
          return;
        }
        st.picked = after;
        st.error = "";
        draw(root, st);
      },
    });
  }
  return targets;
}

// The page: the status, board and legend beside the side panel.
function drawPage(root, doc, view, ui) {
  root.replaceChildren();
  root.classList.add("catan-root");
  root.setAttribute("data-game", doc.game);
  const grid = htmlInto("div", { class: "catan-grid" }, root);
  const main = htmlInto("div", { class: "catan-main" }, grid);
  drawStatus(main, view, ui);
  const svg = svgInto(
    "svg",
    { class: "catan-board", role: "img", "aria-label": tr("catan.board_label", { turn: String(view.turn) }) },
    main,
  );
  drawBoard(svg, view, ui);
  drawLegend(main, view);
  const side = htmlInto("div", { class: "catan-side" }, grid);
  drawDecision(side, view, doc, ui);
  drawActions(side, view, doc, ui);
  drawHand(side, view);
  drawPlayers(side, view, doc, ui);
}

// The focus back on the control used; when it is gone (a step of a move
// taken, a card kind filled), the keyboard goes on to what comes next, a place
// on the board first.
function refocus(root, focusKey) {
  const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (again && !again.disabled) again.focus();
  else
    (
      root.querySelector(".legal") ||
      root.querySelector(".catan-actions button:not([disabled]), .catan-decision button:not([disabled])")
    )?.focus();
}
