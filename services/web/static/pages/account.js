// A player account's public page (GET /v1/players/{id}): its rating on each
// game's ladder with the history drawn as a small chart, its finished games
// with their results and replays, and the tables it plays now.

import { api, gameTitle } from "../api.js";
import { fill, h, s } from "../dom.js";
import { notice, reason, sleep } from "../ui.js";
import { ordinal, words } from "../words.js";

const REFRESH_MS = 5000;

export default async function accountPage(main, { id }, life) {
  const box = h("div", { "data-testid": "account" }, h("p", { class: "muted" }, "Loading…"));
  fill(main, box);
  while (!life.signal.aborted) {
    try {
      const doc = await api(`/v1/players/${encodeURIComponent(id)}`, { signal: life.signal });
      const titles = Object.fromEntries(
        await Promise.all(
          [...new Set([...doc.ladders, ...doc.games, ...doc.tables].map((x) => x.game))].map(async (g) => [
            g,
            await gameTitle(g),
          ]),
        ),
      );
      if (life.signal.aborted) return;
      draw(box, doc, titles);
      document.title = `${doc.name} · Ziggurat`;
    } catch (err) {
      if (life.signal.aborted) return;
      fill(box, notice(reason(err), "error"));
      if (err.status === 404) return;
    }
    await sleep(REFRESH_MS, life.signal);
  }
}

function draw(box, doc, titles) {
  // Each rated table's result, from the ladders' histories.
  const results = new Map(doc.ladders.flatMap((l) => l.history.map((p) => [p.table_id, p])));
  fill(
    box,
    h("h1", {}, doc.name, doc.bot ? h("span", { class: "muted" }, " (bot)") : null),
    h(
      "p",
      { class: "muted" },
      doc.bot && doc.operator ? `A bot run by ${doc.operator}. ` : "",
      `Registered ${new Date(doc.registered_at).toLocaleDateString()}.`,
    ),
    h("h2", {}, "Ratings"),
    doc.ladders.length
      ? h(
          "div",
          { class: "ratings" },
          doc.ladders.map((l) => ratingCard(l, titles[l.game])),
        )
      : h("p", { class: "muted" }, "No rated game yet."),
    h("h2", {}, "Playing now"),
    doc.tables.length
      ? h(
          "ul",
          { "data-testid": "current-tables" },
          doc.tables.map((t) =>
            h(
              "li",
              { "data-table": t.table_id },
              `${titles[t.game]}, seat ${t.seat + 1} (${source(t.source)}): `,
              h("a", { href: `#/table/${t.table_id}` }, "watch"),
            ),
          ),
        )
      : h("p", { class: "muted" }, "Not at a table now."),
    h("h2", {}, "Games"),
    doc.games.length
      ? gamesTable(doc.games, results, titles)
      : h("p", { class: "muted" }, "No finished game yet."),
  );
}

function source(text) {
  const cut = text.indexOf(":");
  return cut < 0 ? words(text) : `${words(text.slice(0, cut))} ${text.slice(cut + 1)}`;
}

function ratingCard(ladder, title) {
  return h(
    "section",
    { class: "card", "data-game": ladder.game },
    h("h3", {}, h("a", { href: `#/ladder/${ladder.game}` }, title)),
    h(
      "p",
      {},
      "Rating ",
      h("strong", { "data-testid": "rating" }, ladder.rating.toFixed(2)),
      ladder.provisional ? h("span", { class: "muted" }, " (provisional)") : null,
      ` · ${ladder.games} games · ${ladder.wins} wins`,
    ),
    chart(ladder.history),
  );
}

// The rating after each rated table, left to right, as a small line chart.
function chart(history) {
  const W = 240;
  const H = 60;
  const pad = 4;
  const values = history.map((p) => p.rating);
  const lo = Math.min(0, ...values);
  const hi = Math.max(lo + 1, ...values);
  const x = (i) => pad + (values.length < 2 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (values.length - 1));
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return s(
    "svg",
    {
      class: "rating-chart",
      viewBox: `0 0 ${W} ${H}`,
      width: W,
      height: H,
      role: "img",
      "aria-label": `Rating after each of ${values.length} rated games, from ${values[0]?.toFixed(2)} to ${values[values.length - 1]?.toFixed(2)}`,
    },
    s("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), stroke: "#ccc", "stroke-dasharray": "3 3" }),
    s("polyline", { points, fill: "none", stroke: "#7a4b1c", "stroke-width": 2 }),
    values.map((v, i) =>
      s(
        "circle",
        { cx: x(i), cy: y(v), r: 2.5, fill: "#7a4b1c" },
        s(
          "title",
          {},
          `${history[i].table_id}: ${ordinal(history[i].place)} of ${history[i].players}, rating ${v.toFixed(2)}`,
        ),
      ),
    ),
  );
}

function gamesTable(list, results, titles) {
  const rows = list.map((t) => {
    const r = results.get(t.table_id);
    return h(
      "tr",
      { "data-table": t.table_id },
      h("td", {}, titles[t.game]),
      h("td", {}, source(t.source)),
      h("td", { class: "num" }, String(t.seat + 1)),
      h("td", { "data-testid": "result" }, r ? `${ordinal(r.place)} of ${r.players}` : "not rated"),
      h("td", {}, h("a", { href: `#/replay/${t.table_id}` }, "replay")),
    );
  });
  return h(
    "table",
    { class: "list", "data-testid": "games" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Game", "Where", "Seat", "Result", ""].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}
