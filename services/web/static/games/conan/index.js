// Age of Conan: the map (board.js) beside the side panel (panels.js), with words
// for every command and event (words.js). Drawn only from the view document the
// page holds (a spectator's or one seat's): which cards it names and their
// facts come from the view itself (view.cards), the map and the pack's words in
// every language from the content pack the view names (view.pack,
// view.board_digest; fetched once per pack, see ready()), and nothing hidden is
// ever inferred.
//
// Legal moves on the map: a highlighted province (class "legal", with the
// command in data-command) is a target; a dashed one is where a two-step move
// starts (move units or an emissary from it). Several moves to one province
// are chosen from a list, and every map move is confirmed. The rest (dice,
// cards, bids, contests) are buttons in the panel. Everything is focusable and
// Enter or Space activates it.

import { h } from "../../dom.js";
import { t as tr } from "../../i18n.js";
import { submitted } from "../../moves.js";
import { listWords, refusalWords } from "../../words.js";
import { analyse, drawMap, FROM, GOAL, offers, sourceExtras } from "./board.js";
import {
  biddingBox,
  contestBox,
  fateBox,
  handBox,
  legend,
  objectivesBox,
  playersBox,
  section,
  statusBox,
} from "./panels.js";
import { bare, bidValueOf, cname, ctext, humanize, label, learn, pname } from "./words.js";

// The renderer contract (docs/web-client.md): render here, the words beside it.
export { describe, label, summary } from "./words.js";

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
  army: () => tr("conan.what_army"),
  withdraw: () => tr("conan.what_withdraw"),
  emissary: () => tr("conan.what_emissary"),
  raise: () => tr("conan.what_raise"),
  conan_act: () => tr("conan.what_conan_act"),
  conan: () => tr("conan.what_conan"),
  attack: () => tr("conan.what_attack"),
  intrigue: () => tr("conan.what_intrigue"),
  gold: () => tr("conan.what_gold"),
  build: () => tr("conan.what_build"),
  garrison: () => tr("conan.what_garrison"),
  buy: () => tr("conan.what_buy"),
};

// What the map offers, as a hint above the panel's moves.
function onMapWords(kinds, moves) {
  const what = listWords(
    kinds.map((k) => (KIND_WORDS[k] ? KIND_WORDS[k]() : humanize(k))),
    "disjunction",
  );
  return moves.onMap.some((m) => m.src) ? tr("conan.on_map_dashed", { what }) : tr("conan.on_map", { what });
}

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
    h("div", { class: "zc-label" }, tr("conan.bid_step_token")),
    h("div", { class: "zc-row" }, bidTokenButtons(cmds, tokens, u, act)),
    h("div", { class: "zc-label" }, tr("conan.bid_step_card")),
    h("div", { class: "zc-row" }, bidCardButtons(cmds, cards, u, act)),
    match
      ? btn(`${label(match, ctx)}…`, () => act.pick(match, null), {
          class: "zc-btn zc-primary",
          "data-command": JSON.stringify(match),
          "data-key": "bid-go",
        })
      : h("div", { class: "zc-sub" }, tr("conan.bid_hint")),
  );
  return box;
}

// The bidding tokens: the one chosen pressed, those no bid with the chosen card uses disabled.
function bidTokenButtons(cmds, tokens, u, act) {
  return tokens.map((t) =>
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
  );
}

// The strategy cards (or none) with their bid values: the one chosen pressed, those no bid
// with the chosen token uses disabled.
function bidCardButtons(cmds, cards, u, act) {
  return cards.map((k) =>
    btn(
      k
        ? h("span", {}, cname(k), h("span", { class: "zc-bidv" }, String(bidValueOf(k) ?? "?")))
        : tr("conan.bid_no_card"),
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
  );
}

function movesBox(_view, _doc, ctx, moves, u, act) {
  const box = section(tr("table.your_move"), {
    "data-zc": "moves",
    class: "zc-sec zc-moves",
    "aria-live": "polite",
  });
  if (u.msg) put(box, h("p", { class: "zc-msg", role: "alert" }, u.msg));
  if (u.pending) return pendingMove(box, ctx, u, act);
  if (u.choose) return choiceAtProvince(box, ctx, u, act);
  if (u.src) return moveFromProvince(box, ctx, moves, u, act);
  const kinds = [...new Set(moves.onMap.map((m) => m.kind))];
  if (kinds.length) {
    put(box, h("p", { class: "zc-step" }, onMapWords(kinds, moves)));
  }
  const bids = moves.panel.filter((c) => bare(c.type) === "place_bid");
  if (bids.length) put(box, bidPicker(bids, u, act, ctx));
  const rest = moves.panel.filter((c) => bare(c.type) !== "place_bid");
  if (rest.length) put(box, panelMoves(rest, ctx, u, act));
  if (!kinds.length && !moves.panel.length) put(box, h("p", { class: "zc-sub" }, tr("conan.nothing_to_do")));
  return box;
}

// A move chosen, to confirm or cancel.
function pendingMove(box, ctx, u, act) {
  const disabled = u.busy ? true : null;
  put(
    box,
    h("p", { class: "zc-confirm-q" }, `${label(u.pending.cmd, ctx)}?`),
    h(
      "div",
      { class: "zc-row" },
      btn(tr("moves.confirm"), () => act.send(u.pending.cmd), {
        class: "zc-btn zc-primary",
        "data-confirm": "1",
        "data-key": "confirm",
        disabled,
      }),
      btn(tr("moves.cancel"), () => act.cancel(), { "data-key": "cancel" }),
    ),
    u.pending.province ? h("p", { class: "zc-hint" }, tr("conan.confirm_hint")) : null,
  );
  return box;
}

// Several things to do at the province clicked: one button each.
function choiceAtProvince(box, ctx, u, act) {
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
    btn(tr("moves.cancel"), () => act.cancel(), { "data-key": "cancel" }),
  );
  return box;
}

// A move started at a province: where it may go is on the map; what else it may be, here.
function moveFromProvince(box, ctx, moves, u, act) {
  const extras = sourceExtras(moves, u);
  put(
    box,
    h(
      "p",
      { class: "zc-step" },
      tr("conan.from_goal", { from: FROM[u.src.kind](pname(u.src.province)), goal: GOAL[u.src.kind]() }),
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
    btn(tr("conan.another_province"), () => act.cancel(), { "data-key": "cancel" }),
  );
  return box;
}

// The moves made in the panel, by kind (a long list folded away).
function panelMoves(rest, ctx, u, act) {
  const disabled = u.busy ? true : null;
  const byType = new Map();
  for (const c of rest) {
    const t = bare(c.type);
    if (!byType.has(t)) byType.set(t, []);
    byType.get(t).push(c);
  }
  const list = h("div", { class: "zc-actions" });
  for (const cs of byType.values()) {
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
          h("summary", {}, tr("conan.choices", { count: cs.length })),
          h("div", { class: "zc-actions" }, buttons),
        ),
      );
    else put(list, ...buttons);
  }
  return list;
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
        if (!r.ok) throw new Error(tr("conan.map_failed", { pack: view.pack, status: String(r.status) }));
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
    root.replaceChildren(h("p", {}, tr("tigris.setting_up")));
    return;
  }
  const view = withBoard(doc.view);
  if (!view) {
    waitForBoard(root, doc, ctx);
    return;
  }
  doc = view === doc.view ? doc : { ...doc, view };
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : (doc.seat ?? null);
  learn(view, seat);
  const legal = legalFor(doc, ctx, seat);
  const u = uiFor(doc, seat);
  last = { root, doc, ctx };
  const moves = analyse(legal, view);
  const act = actions(root, doc, ctx, moves, u);
  const map = drawMap(view, ctx, moves, u, act);
  drawTable(root, map, view, doc, ctx, () =>
    seat !== null && legal.length ? movesBox(view, doc, ctx, moves, u, act) : null,
  );
  for (const f of map.fixups || []) f();
}

// A map not fetched yet (a view naming another digest than the page started
// with): draw when it comes, unless a newer document came first.
function waitForBoard(root, doc, ctx) {
  root.replaceChildren(h("p", { class: "zc-sub" }, tr("conan.loading_map")));
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
}

// The moves this page may offer: the seat's, while the game goes on and it is awaited.
function legalFor(doc, ctx, seat) {
  return seat !== null && !doc.over
    ? ctx.legal?.length
      ? ctx.legal
      : (doc.actors || []).includes(seat)
        ? doc.legal || []
        : []
    : [];
}

// What the map and the panels do when a move is chosen, step by step.
function actions(root, doc, ctx, moves, u) {
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
    province: (id) => chooseProvince(id, moves, u, act, redraw),
    send: (cmd) => sendMove(cmd, ctx, u, redraw),
  };
  return act;
}

// A province clicked: confirm the move pending there, drop the start chosen
// there, or offer what may be done there (one move pending, one start taken,
// or a choice between them).
function chooseProvince(id, moves, u, act, redraw) {
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
}

// Send a move; a refusal is shown and the pending move dropped.
async function sendMove(cmd, ctx, u, redraw) {
  if (u.busy) return;
  u.busy = true;
  u.msg = "";
  const reply = await submitted(ctx, cmd);
  u.busy = false;
  if (!reply?.ok) {
    u.msg = refusalWords(reply);
    u.pending = null;
    if (ui === u) redraw(true);
  } else {
    u.src = null;
    u.choose = null;
    u.pending = null;
  }
}

// The map and its legend beside the panels: what is going on (with the seat's
// moves, when it has some), then hands, players, fate and objectives.
function drawTable(root, map, view, doc, ctx, movesPanel) {
  const top = h(
    "div",
    { class: "zc-panel zc-top" },
    statusBox(view, doc, ctx),
    movesPanel(),
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
