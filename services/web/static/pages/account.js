// A player account's public page (GET /v1/players/{id}): its rating on each
// game's ladder with the history drawn as a small chart, its finished games
// with their results and replays, and the tables it plays now.

import { api, gameTitle } from "../api.js";
import { fill, h, s } from "../dom.js";
import { date, decimal, t } from "../i18n.js";
import { notice, reason, sleep } from "../ui.js";
import { ordinal, words } from "../words.js";

const REFRESH_MS = 5000;

export default async function accountPage(main, { id }, life) {
  const box = h("div", { "data-testid": "account" }, h("p", { class: "muted" }, t("app.loading")));
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
    h("h1", {}, doc.name, doc.bot ? h("span", { class: "muted" }, " ", t("ladder.bot")) : null),
    h(
      "p",
      { class: "muted" },
      doc.bot && doc.operator ? [t("account.operator", { operator: doc.operator }), " "] : "",
      t("account.registered", { date: date(doc.registered_at) }),
    ),
    h("h2", {}, t("account.ratings")),
    doc.ladders.length
      ? h(
          "div",
          { class: "ratings" },
          doc.ladders.map((l) => ratingCard(l, titles[l.game])),
        )
      : h("p", { class: "muted" }, t("account.no_rated")),
    h("h2", {}, t("account.playing_now")),
    doc.tables.length
      ? h(
          "ul",
          { "data-testid": "current-tables" },
          doc.tables.map((x) =>
            h(
              "li",
              { "data-table": x.table_id },
              t("account.at_table", { game: titles[x.game], n: x.seat + 1, source: source(x.source) }),
              " ",
              h("a", { href: `#/table/${x.table_id}` }, t("lobby.watch")),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("account.not_playing")),
    h("h2", {}, t("lobby.games")),
    doc.games.length
      ? gamesTable(doc.games, results, titles)
      : h("p", { class: "muted" }, t("account.no_games")),
  );
}

// Where a seat came from (shared/players/seats.py): "casual", "tournament:<id>", "arena:<id>".
function source(text) {
  const cut = text.indexOf(":");
  const kind = cut < 0 ? text : text.slice(0, cut);
  const id = cut < 0 ? "" : text.slice(cut + 1);
  if (kind === "casual") return t("account.casual");
  if (kind === "tournament") return t("account.from_tournament", { id });
  if (kind === "arena") return t("account.from_arena", { id });
  return cut < 0 ? words(text) : `${words(kind)} ${id}`;
}

function ratingCard(ladder, title) {
  return h(
    "section",
    { class: "card", "data-game": ladder.game },
    h("h3", {}, h("a", { href: `#/ladder/${ladder.game}` }, title)),
    h(
      "p",
      {},
      t("tournament.col_rating"),
      " ",
      h("strong", { "data-testid": "rating" }, decimal(ladder.rating)),
      ladder.provisional ? h("span", { class: "muted" }, " ", t("account.provisional")) : null,
      " · ",
      t("account.games_wins", { games: ladder.games, wins: ladder.wins }),
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
      "aria-label": t("account.chart", {
        count: values.length,
        from: values.length ? decimal(values[0]) : "",
        to: values.length ? decimal(values[values.length - 1]) : "",
      }),
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
          t("account.point", {
            table: history[i].table_id,
            place: ordinal(history[i].place),
            of: history[i].players,
            rating: decimal(v),
          }),
        ),
      ),
    ),
  );
}

function gamesTable(list, results, titles) {
  const rows = list.map((x) => {
    const r = results.get(x.table_id);
    return h(
      "tr",
      { "data-table": x.table_id },
      h("td", {}, titles[x.game]),
      h("td", {}, source(x.source)),
      h("td", { class: "num" }, String(x.seat + 1)),
      h(
        "td",
        { "data-testid": "result" },
        r ? t("account.place_of", { place: ordinal(r.place), of: r.players }) : t("account.not_rated"),
      ),
      h("td", {}, h("a", { href: `#/replay/${x.table_id}` }, t("lobby.replay"))),
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
        [t("lobby.col_game"), t("account.col_where"), t("account.col_seat"), t("lobby.col_result"), ""].map(
          (x) => h("th", { scope: "col" }, x),
        ),
      ),
    ),
    h("tbody", {}, rows),
  );
}
