// Every arena, newest first (GET /v1/arenas): the game, its window, how many
// play, and a link to each arena's page.

import { api, games } from "../api.js";
import { fill, h } from "../dom.js";
import { date, t } from "../i18n.js";
import { notice, reason, sleep } from "../ui.js";

const REFRESH_MS = 5000;

export default async function arenasPage(main, _params, life) {
  const titles = Object.fromEntries((await games().catch(() => [])).map((g) => [g.key, g.title]));
  const list = h("div", { "data-testid": "arenas" }, h("p", { class: "muted" }, t("app.loading")));
  fill(main, h("h1", {}, t("nav.arenas")), h("p", {}, t("arenas.about")), list);
  document.title = t("arenas.page_title");
  while (!life.signal.aborted) {
    try {
      const found = await api("/v1/arenas?limit=50", { signal: life.signal });
      fill(list, arenaList(found.arenas, titles));
    } catch (err) {
      if (!life.signal.aborted) fill(list, notice(reason(err), "error"));
    }
    await sleep(REFRESH_MS, life.signal);
  }
}

export function windowWords(a) {
  const now = Date.now();
  const time = (ms) => date(ms, { timeStyle: "medium" });
  if (a.status === "closed") return t("arenas.closed");
  if (now < a.starts_at_ms) return t("arenas.opens", { time: time(a.starts_at_ms) });
  return t("arenas.open_until", { time: time(a.ends_at_ms) });
}

function arenaList(arenas, titles) {
  if (!arenas.length) return h("p", { class: "muted" }, t("arenas.none"));
  const rows = arenas.map((a) =>
    h(
      "tr",
      { "data-arena": a.arena_id },
      h(
        "td",
        {},
        h("a", { href: `#/arena/${a.arena_id}` }, titles[a.game] || a.game),
        " ",
        h("span", { class: "muted mono" }, a.arena_id),
      ),
      h("td", { class: "num" }, String(a.seats)),
      h("td", {}, windowWords(a)),
      h("td", { class: "num" }, String(a.players)),
      h("td", { class: "num" }, t("arenas.tables", { tables: a.tables, live: a.live })),
    ),
  );
  return h(
    "table",
    { class: "list" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          t("arenas.col_arena"),
          t("lobby.col_seats"),
          t("arenas.col_window"),
          t("lobby.col_players"),
          t("arenas.col_tables"),
        ].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}
