// Every arena, newest first (GET /v1/arenas): the game, its window, how many
// play, and a link to each arena's page.

import { api, games } from "../api.js";
import { fill, h } from "../dom.js";
import { notice, reason, sleep } from "../ui.js";

const REFRESH_MS = 5000;

export default async function arenasPage(main, _params, life) {
  const titles = Object.fromEntries((await games().catch(() => [])).map((g) => [g.key, g.title]));
  const list = h("div", { "data-testid": "arenas" }, h("p", { class: "muted" }, "Loading…"));
  fill(
    main,
    h("h1", {}, "Arenas"),
    h(
      "p",
      {},
      "A rated, continuous format: whoever waits is seated at a new table as soon as enough players are free, until the arena's window closes. Join one from its page with your player key.",
    ),
    list,
  );
  document.title = "Arenas · Ziggurat";
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
  if (a.status === "closed") return "closed";
  if (now < a.starts_at_ms) return `opens ${new Date(a.starts_at_ms).toLocaleTimeString()}`;
  return `open until ${new Date(a.ends_at_ms).toLocaleTimeString()}`;
}

function arenaList(arenas, titles) {
  if (!arenas.length) return h("p", { class: "muted" }, "No arena yet.");
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
      h("td", { class: "num" }, `${a.tables} (${a.live} live)`),
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
        ["Arena", "Seats", "Window", "Players", "Tables"].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}
