// An arena's page (GET /v1/arenas/{id}): its leaderboard, who waits and who
// plays, its live tables (watch) and finished ones (replay); and joining or
// leaving it with a player key. The key rides in the URL fragment
// (`#/arena/<id>?key=...`, never sent to a server) and goes out only as
// `Authorization: Bearer`; the page never writes it into the document.

import { api, gameTitle } from "../api.js";
import { button, fill, h } from "../dom.js";
import { notice, reason, sleep, uuid } from "../ui.js";
import { ordinal } from "../words.js";
import { windowWords } from "./arenas.js";

const REFRESH_MS = 2000;

export default async function arenaPage(main, { id, key }, life) {
  const head = h("div", {}, h("h1", {}, "Arena"));
  const me = h("section", { class: "card", "aria-labelledby": "arena-me-h", "data-testid": "arena-me" });
  const board = h("div", { "data-testid": "arena-board" }, h("p", { class: "muted" }, "Loading…"));
  const tables = h("div", { "data-testid": "arena-tables" });
  fill(main, head, me, h("h2", {}, "Leaderboard"), board, h("h2", {}, "Tables"), tables);
  const names = new Map();
  const state = { doc: null, mine: null, message: null };
  const drawMe = () =>
    fill(
      me,
      h("h2", { id: "arena-me-h" }, "Play in this arena"),
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
        h("h1", {}, `${title} arena`),
        h(
          "p",
          { "data-testid": "arena-status" },
          `${doc.seats} seats a table · `,
          h("strong", {}, windowWords(doc)),
          " · ",
          h("a", { href: `#/ladder/${doc.game}` }, "the game's leaderboard"),
        ),
      );
      document.title = `${title} arena · Ziggurat`;
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
  if (!doc.lines.length) return h("p", { class: "muted" }, "Nobody has joined yet.");
  const rows = doc.lines.map((l) =>
    h(
      "tr",
      { "data-player": l.player_id },
      h("td", { class: "num" }, String(l.rank)),
      h("td", {}, who(names, l.player_id)),
      h("td", { class: "num" }, String(l.points)),
      h("td", { class: "num" }, String(l.games)),
      h("td", { class: "num" }, String(l.wins)),
      h("td", {}, l.playing ? "playing" : l.waiting ? "waiting" : "—"),
    ),
  );
  return h(
    "table",
    { class: "list standings" },
    h(
      "caption",
      { class: "muted" },
      "Points per table by place (as in tournaments), then wins, then fewer tables.",
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Rank", "Player", "Points", "Tables", "Wins", "Now"].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}

function tableList(doc, names) {
  if (!doc.tables.length)
    return h("p", { class: "muted" }, "No table yet: one opens as soon as enough players wait.");
  const rows = [...doc.tables].reverse().map((t) => {
    const done = t.places !== null && t.places !== undefined;
    return h(
      "tr",
      { "data-table": t.table_id, "data-live": done ? null : "" },
      h("td", { class: "mono" }, t.table_id),
      h(
        "td",
        {},
        t.players.map((p, seat) => [
          seat ? ", " : "",
          who(names, p),
          done ? ` (${ordinal(t.places[seat])})` : "",
        ]),
      ),
      h(
        "td",
        {},
        done
          ? h("a", { href: `#/replay/${t.table_id}` }, "replay")
          : h("a", { href: `#/table/${t.table_id}` }, "watch live"),
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
        ["Table", "Players", ""].map((x) => h("th", { scope: "col" }, x)),
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
    h("label", { for: "arena-key" }, "Your player key ", input),
    " ",
    h("button", { type: "submit", class: "primary" }, "Use this key"),
    h(
      "p",
      { class: "muted" },
      "The key stays in this page's address after the #, which the browser never sends; it goes to the server only to join or leave.",
    ),
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
    state.message = notice(what === "join" ? "Joining…" : "Leaving…");
    redraw();
    try {
      const done = await api(`/v1/arenas/${encodeURIComponent(id)}/${what}`, {
        method: "POST",
        token: key,
        key: uuid(),
        signal: life.signal,
      });
      state.mine = done.player_id;
      state.message = notice(
        what === "join"
          ? "You are in the queue: your bot's stream (or the table link below) seats you at the next table."
          : "You left the arena (after the table you are at, if any).",
      );
    } catch (err) {
      state.message = notice(reason(err), "error");
    }
    redraw();
  };
  const line = state.doc && state.mine ? state.doc.lines.find((l) => l.player_id === state.mine) : null;
  const table =
    state.doc && state.mine
      ? [...state.doc.tables].reverse().find((t) => t.places == null && t.players.includes(state.mine))
      : null;
  return [
    line
      ? h(
          "p",
          { "data-testid": "arena-mine" },
          `You are ${ordinal(line.rank)} with ${line.points} points; `,
          line.playing ? "playing now." : line.waiting ? "waiting for a table." : "not queued.",
        )
      : null,
    table
      ? h(
          "p",
          {},
          h("a", { href: `#/table/${table.table_id}`, "data-testid": "arena-my-table" }, "Watch your table"),
        )
      : null,
    h(
      "p",
      {},
      button("Join the arena", act("join"), { class: "primary", "data-testid": "arena-join" }),
      " ",
      button("Leave", act("leave"), { "data-testid": "arena-leave" }),
    ),
  ];
}
