// A game's rating ladder (GET /v1/ladders/{game}): rank, name, bot marker,
// rating, games, and the provisional players marked. Public data only.

import { api, games, gameTitle } from "../api.js";
import { fill, h } from "../dom.js";
import { notice, reason, sleep } from "../ui.js";

const REFRESH_MS = 5000;

export default async function ladderPage(main, { game }, life) {
  const title = await gameTitle(game);
  const board = h("div", { "data-testid": "ladder" }, h("p", { class: "muted" }, "Loading…"));
  fill(main, h("h1", {}, `${title}: leaderboard`), otherLadders(await games().catch(() => []), game), board);
  document.title = `${title} leaderboard · Ziggurat`;
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
    "Leaderboards: ",
    hosted.map((g, i) => [
      i ? " · " : "",
      g.key === game ? h("strong", {}, g.title) : h("a", { href: `#/ladder/${g.key}` }, g.title),
    ]),
    " · ",
    h("a", { href: "#/arenas" }, "Arenas"),
  );
}

export function ladderTable(ladder) {
  if (!ladder.lines.length) return h("p", { class: "muted" }, "Nobody has a rated game of this yet.");
  const rows = ladder.lines.map((line) =>
    h(
      "tr",
      { "data-player": line.player_id, class: line.provisional ? "provisional" : null },
      h("td", { class: "num" }, String(line.rank)),
      h(
        "td",
        {},
        h("a", { href: `#/players/${line.player_id}` }, line.name),
        line.bot ? h("span", { class: "muted", title: "a program plays this account" }, " (bot)") : null,
      ),
      h(
        "td",
        { class: "num", title: `μ ${line.mu.toFixed(2)}, σ ${line.sigma.toFixed(2)}` },
        line.rating.toFixed(2),
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
      `${ladder.tables} rated tables. The rating is μ − 3σ (OpenSkill); "?" marks a provisional rating (fewer than ${ladder.provisional_below} rated games).`,
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Rank", "Player", "Rating", "Games", "Wins"].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}
