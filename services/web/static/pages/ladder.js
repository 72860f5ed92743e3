// A game's rating ladder (GET /v1/ladders/{game}): rank, name, bot marker,
// rating, games, and the provisional players marked. Public data only.

import { api, games, gameTitle } from "../api.js";
import { fill, h } from "../dom.js";
import { decimal, t } from "../i18n.js";
import { notice, reason, sleep } from "../ui.js";

const REFRESH_MS = 5000;

export default async function ladderPage(main, { game }, life) {
  const title = await gameTitle(game);
  const board = h("div", { "data-testid": "ladder" }, h("p", { class: "muted" }, t("app.loading")));
  fill(
    main,
    h("h1", {}, t("ladder.heading", { game: title })),
    otherLadders(await games().catch(() => []), game),
    board,
  );
  document.title = t("ladder.page_title", { game: title });
  while (!life.signal.aborted) {
    try {
      fill(board, ladderTable(await api(`/v1/ladders/${encodeURIComponent(game)}`, { signal: life.signal })));
    } catch (err) {
      if (!life.signal.aborted) fill(board, notice(reason(err), "error"));
    }
    await sleep(REFRESH_MS, life.signal);
  }
}

function otherLadders(hosted, game) {
  return h(
    "p",
    { class: "muted" },
    t("ladder.others"),
    " ",
    hosted.map((g, i) => [
      i ? " · " : "",
      g.key === game ? h("strong", {}, g.title) : h("a", { href: `#/ladder/${g.key}` }, g.title),
    ]),
    " · ",
    h("a", { href: "#/arenas" }, t("nav.arenas")),
  );
}

export function ladderTable(ladder) {
  if (!ladder.lines.length) return h("p", { class: "muted" }, t("ladder.empty"));
  const rows = ladder.lines.map((line) =>
    h(
      "tr",
      { "data-player": line.player_id, class: line.provisional ? "provisional" : null },
      h("td", { class: "num" }, String(line.rank)),
      h(
        "td",
        {},
        h("a", { href: `#/players/${line.player_id}` }, line.name),
        line.bot ? h("span", { class: "muted", title: t("ladder.bot_title") }, " ", t("ladder.bot")) : null,
      ),
      h(
        "td",
        { class: "num", title: `μ ${decimal(line.mu)}, σ ${decimal(line.sigma)}` },
        decimal(line.rating),
        line.provisional ? h("span", { class: "muted", "data-provisional": "" }, " ?") : null,
      ),
      h("td", { class: "num" }, String(line.games)),
      h("td", { class: "num" }, String(line.wins)),
    ),
  );
  return h(
    "table",
    { class: "list standings" },
    h(
      "caption",
      { class: "muted" },
      t("ladder.caption", { count: ladder.tables, below: ladder.provisional_below }),
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          t("tournament.col_rank"),
          t("tournament.col_player"),
          t("tournament.col_rating"),
          t("tournament.col_games"),
          t("ladder.col_wins"),
        ].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}
