// An arena's page (GET /v1/arenas/{id}): its leaderboard, who waits and who
// plays, its live tables (watch) and finished ones (replay); and joining or
// leaving it with a player key. The key rides in the URL fragment
// (`#/arena/<id>?key=...`, never sent to a server) and goes out only as
// `Authorization: Bearer`; the page never writes it into the document.

import { api, gameTitle } from "../api.js";
import { button, fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { notice, reason, sleep, uuid } from "../ui.js";
import { ordinal } from "../words.js";
import { windowWords } from "./arenas.js";

const REFRESH_MS = 2000;

export default async function arenaPage(main, { id, key }, life) {
  const head = h("div", {}, h("h1", {}, t("arena.title")));
  const me = h("section", { class: "card", "aria-labelledby": "arena-me-h", "data-testid": "arena-me" });
  const board = h("div", { "data-testid": "arena-board" }, h("p", { class: "muted" }, t("app.loading")));
  const tables = h("div", { "data-testid": "arena-tables" });
  fill(
    main,
    head,
    me,
    h("h2", {}, t("lobby.leaderboard")),
    board,
    h("h2", {}, t("arenas.col_tables")),
    tables,
  );
  const names = new Map();
  const state = { doc: null, mine: null, message: null };
  const drawMe = () =>
    fill(
      me,
      h("h2", { id: "arena-me-h" }, t("arena.play_here")),
      key ? keyPanel(id, key, state, life, drawMe) : keyForm(id),
      state.message,
    );
  drawMe();
  while (!life.signal.aborted) {
    try {
      const doc = await api(`/v1/arenas/${encodeURIComponent(id)}`, { signal: life.signal });
      await nameAll(doc, names, life);
      if (life.signal.aborted) return;
      state.doc = doc;
      const title = await gameTitle(doc.game);
      fill(
        head,
        h("h1", {}, t("arena.heading", { game: title })),
        h(
          "p",
          { "data-testid": "arena-status" },
          t("arena.seats", { count: doc.seats }),
          " · ",
          h("strong", {}, windowWords(doc)),
          " · ",
          h("a", { href: `#/ladder/${doc.game}` }, t("arena.leaderboard_link")),
        ),
      );
      document.title = t("arena.page_title", { game: title });
      fill(board, lines(doc, names));
      fill(tables, tableList(doc, names));
      drawMe();
    } catch (err) {
      if (life.signal.aborted) return;
      fill(board, notice(reason(err), "error"));
      if (err.status === 404) return;
    }
    await sleep(REFRESH_MS, life.signal);
  }
}

// Names of the players an arena lists (their public pages), fetched once each.
async function nameAll(doc, names, life) {
  const ids = new Set([...doc.lines.map((l) => l.player_id), ...doc.tables.flatMap((t) => t.players)]);
  await Promise.all(
    [...ids]
      .filter((pid) => !names.has(pid))
      .map(async (pid) => {
        try {
          names.set(pid, (await api(`/v1/players/${encodeURIComponent(pid)}`, { signal: life.signal })).name);
        } catch {
          // Shown by id until the next refresh.
        }
      }),
  );
}

function who(names, pid) {
  return h("a", { href: `#/players/${pid}` }, names.get(pid) || pid);
}

function lines(doc, names) {
  if (!doc.lines.length) return h("p", { class: "muted" }, t("arena.nobody"));
  const rows = doc.lines.map((l) =>
    h(
      "tr",
      { "data-player": l.player_id },
      h("td", { class: "num" }, String(l.rank)),
      h("td", {}, who(names, l.player_id)),
      h("td", { class: "num" }, String(l.points)),
      h("td", { class: "num" }, String(l.games)),
      h("td", { class: "num" }, String(l.wins)),
      h("td", {}, l.playing ? t("arena.playing") : l.waiting ? t("arena.waiting") : "—"),
    ),
  );
  return h(
    "table",
    { class: "list standings" },
    h("caption", { class: "muted" }, t("arena.order")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          t("tournament.col_rank"),
          t("tournament.col_player"),
          t("tournament.col_points"),
          t("arenas.col_tables"),
          t("ladder.col_wins"),
          t("arena.col_now"),
        ].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}

function tableList(doc, names) {
  if (!doc.tables.length) return h("p", { class: "muted" }, t("arena.no_tables"));
  const rows = [...doc.tables].reverse().map((x) => {
    const done = x.places !== null && x.places !== undefined;
    return h(
      "tr",
      { "data-table": x.table_id, "data-live": done ? null : "" },
      h("td", { class: "mono" }, x.table_id),
      h(
        "td",
        {},
        x.players.map((p, seat) => [
          seat ? ", " : "",
          who(names, p),
          done ? ` (${ordinal(x.places[seat])})` : "",
        ]),
      ),
      h(
        "td",
        {},
        done
          ? h("a", { href: `#/replay/${x.table_id}` }, t("lobby.replay"))
          : h("a", { href: `#/table/${x.table_id}` }, t("tournament.watch_live")),
      ),
    );
  });
  return h(
    "table",
    { class: "list" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [t("lobby.col_table"), t("lobby.col_players"), ""].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}

// Without a key: a form that puts it in the fragment (and nowhere else).
function keyForm(id) {
  const input = h("input", { type: "password", id: "arena-key", autocomplete: "off", spellcheck: "false" });
  const form = h(
    "form",
    { "data-testid": "arena-key-form" },
    h("label", { for: "arena-key" }, t("arena.your_key"), " ", input),
    " ",
    h("button", { type: "submit", class: "primary" }, t("arena.use_key")),
    h("p", { class: "muted" }, t("arena.key_note")),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const key = input.value.trim();
    input.value = "";
    if (key) location.hash = `#/arena/${id}?key=${encodeURIComponent(key)}`;
  });
  return form;
}

// With a key: join or leave, and where this player stands.
function keyPanel(id, key, state, life, redraw) {
  const act = (what) => async () => {
    state.message = notice(what === "join" ? t("arena.joining") : t("arena.leaving"));
    redraw();
    try {
      const done = await api(`/v1/arenas/${encodeURIComponent(id)}/${what}`, {
        method: "POST",
        token: key,
        key: uuid(),
        signal: life.signal,
      });
      state.mine = done.player_id;
      state.message = notice(what === "join" ? t("arena.joined") : t("arena.left"));
    } catch (err) {
      state.message = notice(reason(err), "error");
    }
    redraw();
  };
  const line = state.doc && state.mine ? state.doc.lines.find((l) => l.player_id === state.mine) : null;
  const table =
    state.doc && state.mine
      ? [...state.doc.tables].reverse().find((x) => x.places == null && x.players.includes(state.mine))
      : null;
  return [
    line
      ? h(
          "p",
          { "data-testid": "arena-mine" },
          line.playing
            ? t("arena.mine_playing", { place: ordinal(line.rank), count: line.points })
            : line.waiting
              ? t("arena.mine_waiting", { place: ordinal(line.rank), count: line.points })
              : t("arena.mine_idle", { place: ordinal(line.rank), count: line.points }),
        )
      : null,
    table
      ? h(
          "p",
          {},
          h(
            "a",
            { href: `#/table/${table.table_id}`, "data-testid": "arena-my-table" },
            t("arena.watch_mine"),
          ),
        )
      : null,
    h(
      "p",
      {},
      button(t("arena.join"), act("join"), { class: "primary", "data-testid": "arena-join" }),
      " ",
      button(t("arena.leave"), act("leave"), { "data-testid": "arena-leave" }),
    ),
  ];
}
