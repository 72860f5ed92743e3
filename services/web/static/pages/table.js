// A table, watched (the spectator's view and feed) or played from a seat link
// (that seat's view and feed, with its token). The page holds nothing else:
// what it shows is what the audience's view document and feed contain.

import { api, follow, gameTitle, legalMoves } from "../api.js";
import { fill, h } from "../dom.js";
import { t as tr } from "../i18n.js";
import { movesPanel } from "../moves.js";
import { draw as drawBoard, generic, prepare, renderer } from "../renderers.js";
import { clockText, notice, reason, remembered, sleep, uuid } from "../ui.js";
import {
  commandLabel,
  listWords,
  ordinal,
  refusalWords,
  resultWords,
  seatName,
  seatNames,
  sentence,
} from "../words.js";

// Entries kept in the log on screen (the oldest drop off).
const LOG_LIMIT = 400;

export default async function tablePage(main, { id, seat = null, token = null }, life) {
  const playing = seat !== null;
  const t = {
    id,
    seat,
    token,
    life,
    playing,
    audience: playing ? { token } : {},
    st: {
      doc: null,
      about: null,
      mod: generic,
      drawnBy: generic,
      names: [],
      wanted: 0,
      loading: null,
      busy: false,
      message: null,
      ui: { narrow: null, confirm: null, choosing: null },
      skews: [],
      feed: "connecting",
      title: "",
    },
    el: tableElements(),
  };
  const { head, board, players, moves, log } = t.el;
  fill(
    main,
    h(
      "div",
      { class: "table-page" },
      head,
      h(
        "div",
        { class: "table-grid" },
        h("div", { class: "board-wrap" }, board),
        h("aside", { class: "side" }, players, moves, log),
      ),
    ),
  );
  if (!(await loadTable(t, main))) return;
  document.title = playing
    ? tr("table.page_title_seat", { game: t.st.title, seat: seatName(t.st, seat) })
    : tr("table.page_title_watch", { game: t.st.title });
  drawAll(t);
  const timer = setInterval(() => tick(t), 250);
  life.cleanup(() => clearInterval(timer));
  const feed = followFeed(t);
  life.cleanup(() => feed.close());
}

// The page's parts: the head, the board, the players, the moves and the log.
function tableElements() {
  const logList = h("ol", { class: "log-list" });
  return {
    head: h("header", { class: "table-head" }),
    board: h("div", { class: "board", "data-testid": "board" }),
    players: h("section", { class: "players", "aria-label": tr("table.players") }),
    moves: h("section", { class: "moves", "aria-label": tr("table.moves"), tabindex: "-1" }),
    logList,
    log: h("section", { class: "log", "aria-label": tr("table.log") }, h("h2", {}, tr("table.log")), logList),
  };
}

// The audience's view, the table's names and its game's renderer; false (and a
// notice in the page's place) when they cannot be read.
async function loadTable(t, main) {
  const { id, st, life } = t;
  try {
    const [doc, about] = await Promise.all([
      api(`/v1/tables/${id}/view`, { ...t.audience, signal: life.signal }),
      api(`/v1/tables/${id}/about`, { signal: life.signal }).catch(() => null),
    ]);
    st.doc = doc;
    st.about = about;
    st.names = seatNames(about, doc.seats);
    st.mod = await renderer(doc.game);
    await prepare(st.mod, doc);
    st.title = await gameTitle(doc.game);
    return true;
  } catch (err) {
    if (life.signal.aborted) return false;
    const text = err.code === "bad_token" ? tr("table.bad_seat_link") : reason(err);
    main.replaceChildren(notice(text, "error"), h("p", {}, h("a", { href: "#/" }, tr("table.back"))));
    return false;
  }
}

// What a renderer is given (docs/web-client.md): the seat, names, legal moves,
// the document, and the ways to move.
function context(t) {
  const { st, playing, seat } = t;
  const doc = st.doc;
  const ctx = {
    seat: playing ? seat : null,
    names: st.names,
    legal: playing && !doc.over && doc.actors.includes(seat) ? legalMoves(doc) : [],
    doc,
    game: doc.game,
    submit: (command) => submit(t, command),
    choose(commands, title) {
      if (!playing || !commands?.length) return;
      st.ui = { narrow: null, confirm: null, choosing: { title, commands } };
      drawMoves(t, true);
    },
  };
  ctx.label = (command) => commandLabel(st.mod, command, ctx);
  return ctx;
}

// Send a move from the seat; the answer says whether it was accepted.
async function submit(t, command) {
  const { id, st, token, life } = t;
  if (!t.playing) return { ok: false, code: "spectator", message: tr("table.spectator_move") };
  if (st.busy) return { ok: false, code: "on_its_way", message: tr("table.move_on_its_way") };
  st.busy = true;
  st.message = { kind: "info", text: tr("table.sending", { move: context(t).label(command) }) };
  drawMoves(t, false);
  try {
    const reply = await api(`/v1/tables/${id}/commands`, {
      method: "POST",
      token,
      key: uuid(),
      body: { command, expected_version: st.doc.version },
      signal: life.signal,
    });
    st.busy = false;
    st.message = null;
    st.ui = { narrow: null, confirm: null, choosing: null };
    await refresh(t, reply.version);
    drawMoves(t, false);
    return { ok: true, code: "accepted", message: "", version: reply.version };
  } catch (err) {
    st.busy = false;
    const message = reason(err);
    st.message = { kind: "error", text: refusalWords({ code: err.code, message }) };
    st.ui.confirm = null;
    drawMoves(t, true);
    if (err.code === "stale_version") refresh(t, st.doc.version + 1);
    return { ok: false, code: err.code || "error", message };
  }
}

// Read the view until it shows version `min` (the server waits for it).
function refresh(t, min = 0) {
  const { id, st, life } = t;
  st.wanted = Math.max(st.wanted, min);
  if (st.loading) return st.loading;
  // Nothing to wait for: also keeps the loop below from finishing before it is stored.
  if (st.doc.over || st.doc.version >= st.wanted) return Promise.resolve();
  st.loading = (async () => {
    try {
      while (!life.signal.aborted && !st.doc.over && st.doc.version < st.wanted) {
        const doc = await api(`/v1/tables/${id}/view?min_version=${st.wanted}`, {
          ...t.audience,
          signal: life.signal,
        });
        if (doc.version > st.doc.version || doc.over !== st.doc.over) {
          st.doc = doc;
          drawAll(t);
        } else {
          await sleep(1000, life.signal);
        }
      }
    } catch (err) {
      if (!life.signal.aborted) {
        st.message = { kind: "error", text: tr("table.read_failed", { reason: reason(err) }) };
        drawMoves(t, false);
      }
    } finally {
      st.loading = null;
    }
  })();
  return st.loading;
}

function drawAll(t) {
  const ctx = context(t);
  drawHead(t, ctx);
  drawPlayers(t, ctx);
  t.st.drawnBy = drawBoard(t.st.mod, t.el.board, t.st.doc, ctx);
  drawMoves(t, false, ctx);
}

// The title, where the game stands, the feed's state and the links.
function drawHead(t, ctx) {
  const { id, st, playing, seat } = t;
  const doc = st.doc;
  const waiting = doc.actors.map((s) => seatName(ctx, s));
  const status = doc.over
    ? tr("table.game_over")
    : moveStatus(doc, waiting, playing && doc.actors.includes(seat));
  const delay = doc.spectator_delay && !playing && !doc.over ? delayWords(doc.spectator_delay) : null;
  fill(
    t.el.head,
    h("h1", {}, st.title, " ", h("span", { class: "muted" }, tr("table.table_id", { id }))),
    h(
      "p",
      { class: "status" },
      h(
        "span",
        { "data-testid": "status" },
        playing
          ? tr("table.you_play", { seat: seatName(ctx, seat), status })
          : tr("table.watching", { status }),
      ),
      " ",
      h("span", { class: `feed-state ${st.feed}`, "data-testid": "feed-state" }, feedWords(st.feed)),
      " ",
      h(
        "span",
        { class: "muted", "data-testid": "version" },
        tr("table.version", { n: String(doc.version) }),
      ),
    ),
    delay ? h("p", { class: "muted" }, delay) : null,
    doc.over && doc.result
      ? h("p", { class: "result", "data-testid": "result" }, resultWords(doc.result, ctx))
      : null,
    h("nav", { class: "links" }, headLinks(t, ctx)),
  );
}

// Back to the lobby, and on to what this browser may also open: the spectator's
// page, the replay, the tournament and the other seats it holds links to.
function headLinks(t, ctx) {
  const { id, st, playing, seat } = t;
  const doc = st.doc;
  const links = [h("a", { href: "#/" }, tr("nav.lobby"))];
  if (playing) links.push(h("a", { href: `#/table/${id}` }, tr("table.watch_link")));
  if (doc.over)
    links.push(h("a", { href: `#/replay/${id}`, "data-testid": "replay-link" }, tr("table.replay_link")));
  if (st.about?.tournament_id) {
    const tid = st.about.tournament_id;
    links.push(h("a", { href: `#/tournament/${tid}` }, tr("table.tournament_link")));
    const mine = remembered().players?.[tid];
    if (mine)
      links.push(
        h(
          "a",
          { href: `#/tournament/${tid}/player?token=${encodeURIComponent(mine.token)}` },
          tr("table.your_tournament_page"),
        ),
      );
  }
  const mine = remembered().tables?.[id]?.seats || {};
  for (const [s, key] of Object.entries(mine)) {
    if (Number(s) !== seat)
      links.push(
        h("a", { href: seatLink(id, s, key) }, tr("table.play_seat", { seat: seatName(ctx, Number(s)) })),
      );
  }
  return links;
}

function drawPlayers(t, ctx) {
  t.el.players.replaceChildren(
    h("h2", {}, tr("table.players")),
    playersList(t.st.doc, ctx, { mod: t.st.mod, bots: t.st.about?.bots, you: t.seat }),
  );
  tick(t);
}

// The seat's moves (or why there are none) and the last move's message; the
// focus stays in the panel when it was there.
function drawMoves(t, focus, ctx = context(t)) {
  const { st, el } = t;
  const had = focus || el.moves.contains(document.activeElement);
  const parts = movesParts(t, ctx);
  if (st.message)
    parts.push(
      h(
        "p",
        {
          class: `notice ${st.message.kind}`,
          role: st.message.kind === "error" ? "alert" : "status",
          "data-testid": "move-message",
        },
        st.message.text,
      ),
    );
  el.moves.replaceChildren(...parts);
  if (had)
    (
      el.moves.querySelector("[data-focus]") ||
      el.moves.querySelector("button:not([disabled])") ||
      el.moves
    ).focus();
}

// Watching, over, waiting for others, or the seat's move: the legal moves as a
// list (folded away when the board offers them).
function movesParts(t, ctx) {
  const { st, playing, seat } = t;
  const doc = st.doc;
  const parts = [];
  if (!playing) {
    parts.push(h("p", { class: "muted" }, tr("table.watching_note")));
  } else if (doc.over) {
    parts.push(h("p", {}, tr("table.over")));
  } else if (!doc.actors.includes(seat)) {
    const waiting = doc.actors.map((s) => seatName(ctx, s));
    parts.push(
      h(
        "p",
        {},
        waiting.length ? tr("table.waiting_for", { names: listWords(waiting) }) : tr("table.waiting"),
      ),
    );
    if (st.ui.choosing) st.ui = { narrow: null, confirm: null, choosing: null };
  } else {
    parts.push(h("h2", {}, tr("table.your_move")));
    const panel = movesPanel({
      // Every legal command: a board may offer only some; for the generic renderer
      // this list is the only way to move.
      commands: ctx.legal,
      label: ctx.label,
      state: st.ui,
      redraw: (f) => drawMoves(t, f),
      submit: (command) => submit(t, command),
      busy: st.busy,
    });
    if (st.drawnBy === generic || st.ui.choosing || st.ui.confirm) parts.push(panel);
    else {
      const all = h(
        "details",
        { class: "all-moves", open: st.ui.narrow ? true : null },
        h("summary", {}, tr("table.all_moves", { count: ctx.legal.length })),
        panel,
      );
      parts.push(all);
    }
  }
  return parts;
}

function addLog(t, entry) {
  const { logList } = t.el;
  const text = sentence(t.st.mod, entry.event, context(t));
  if (!text) return;
  const atBottom = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 40;
  logList.append(h("li", { "data-version": entry.version }, text));
  while (logList.childElementCount > LOG_LIMIT) logList.firstElementChild.remove();
  if (atBottom) logList.scrollTop = logList.scrollHeight;
}

// Clocks count down between views from `remaining` and `clock_since`
// (server time; the offset to this browser's clock is learnt from the feed).
function tick(t) {
  const { st } = t;
  const doc = st.doc;
  const skew = st.skews.length ? Math.min(...st.skews) : 0;
  for (const el of t.el.players.querySelectorAll("[data-clock]")) {
    const s = Number(el.dataset.clock);
    let left = doc.remaining[s];
    if (!doc.over && doc.actors.includes(s)) left -= Date.now() - skew - doc.clock_since;
    el.textContent = clockText(left);
    el.classList.toggle("low", left < 30000);
  }
}

// The audience's feed: each event logged, the view read again when it is ahead.
function followFeed(t) {
  const { id, st } = t;
  return follow(`/v1/tables/${id}/feed`, {
    ...t.audience,
    onEvent(entry, version) {
      addLog(t, entry);
      if (version > st.doc.version) {
        st.skews = [...st.skews.slice(-9), Date.now() - entry.server_time];
        refresh(t, version);
      }
    },
    onEnd() {
      refresh(t, st.doc.version + 1);
    },
    onStatus(text) {
      st.feed = text;
      const el = t.el.head.querySelector("[data-testid=feed-state]");
      if (el) {
        el.textContent = feedWords(text);
        el.className = `feed-state ${text}`;
      }
    },
  });
}

export function seatLink(id, seat, token) {
  return `#/table/${id}/seat/${seat}?token=${encodeURIComponent(token)}`;
}

// "Move 12 · your move" / "Move 12 · waiting for Anna and Ben".
function moveStatus(doc, waiting, yours) {
  if (!waiting.length) return tr("table.move", { n: doc.moves });
  if (yours) return tr("table.move_yours", { n: doc.moves });
  return tr("table.move_waiting", { n: doc.moves, names: listWords(waiting) });
}

// The feed's state (api.js follow): connecting, live, reconnecting, refused, ended.
function feedWords(state) {
  const known = {
    connecting: tr("feed.connecting"),
    live: tr("feed.live"),
    reconnecting: tr("feed.reconnecting"),
    refused: tr("feed.refused"),
    ended: tr("feed.ended"),
  };
  return known[state] || state;
}

function delayWords(delay) {
  if (delay.moves && delay.seconds)
    return tr("table.delay_both", { moves: delay.moves, seconds: delay.seconds });
  if (delay.moves) return tr("table.delay_moves", { count: delay.moves });
  if (delay.seconds) return tr("table.delay_seconds", { count: delay.seconds });
  return null;
}

// Public scores per seat: the renderer's summary() if it has one, else what a
// view commonly calls scores. Only ever from the document the page was given.
export function scores(doc, ctx, mod) {
  if (mod && typeof mod.summary === "function") {
    try {
      const out = mod.summary(doc, ctx);
      if (Array.isArray(out)) return out.map((x) => (x === null || x === undefined ? "" : String(x)));
    } catch (err) {
      console.error("summary failed", err);
    }
  }
  const view = doc.view || {};
  const seats = doc.seats;
  for (const key of ["scores", "points", "victory_points", "score"]) {
    const v = view[key];
    if (Array.isArray(v) && v.length === seats && v.every((x) => typeof x === "number"))
      return v.map((x) => tr("table.points", { count: x }));
  }
  if (Array.isArray(view.players) && view.players.length === seats) {
    for (const key of ["points", "victory_points", "score", "vp"]) {
      if (view.players.every((p) => p && typeof p[key] === "number"))
        return view.players.map((p) => tr("table.points", { count: p[key] }));
    }
  }
  return [];
}

export function playersList(doc, ctx, { mod, bots = [], you = null, clocks = true } = {}) {
  const summary = scores(doc, ctx, mod);
  const places = new Map((doc.result?.standings || []).map((st) => [st.seat, st]));
  const hasClock = clocks && doc.clock && doc.remaining && doc.remaining.length === doc.seats;
  const rows = [];
  for (let s = 0; s < doc.seats; s++) {
    const toMove = !doc.over && doc.actors.includes(s);
    const placed = places.get(s);
    rows.push(
      h(
        "li",
        { class: `player${toMove ? " to-move" : ""}`, "data-seat": s },
        h("span", { class: "turn", "aria-hidden": "true" }, toMove ? "▶" : ""),
        h("span", { class: "name" }, seatName(ctx, s)),
        you === s ? h("span", { class: "badge you" }, tr("table.badge_you")) : null,
        bots?.includes(s) ? h("span", { class: "badge" }, tr("table.badge_bot")) : null,
        doc.forfeited?.includes(s) ? h("span", { class: "badge warn" }, tr("table.badge_forfeited")) : null,
        toMove ? h("span", { class: "sr-only" }, tr("table.to_move")) : null,
        placed
          ? h(
              "span",
              { class: "place" },
              tr("table.place", { place: ordinal(placed.place), score: placed.score }),
            )
          : null,
        summary[s] ? h("span", { class: "score" }, summary[s]) : null,
        hasClock ? h("span", { class: "clock", "data-clock": s }, clockText(doc.remaining[s])) : null,
      ),
    );
  }
  return h("ul", { class: "player-list" }, rows);
}
