// A tournament's public page: standings with tie-breaks and ratings, the
// pairings of every round with links to their tables, kept live by the
// tournament's feed.

import { api, follow, gameTitle } from "../api.js";
import { fill, h } from "../dom.js";
import { notice, reason } from "../ui.js";
import { ordinal, words } from "../words.js";

export default async function tournamentPage(main, { id }, life) {
  const section = tournamentSection(id, life);
  fill(main, section);
}

// The public view of tournament `id`, live; `onChange(standings, pairings)` after each load.
export function tournamentSection(id, life, { onChange } = {}) {
  const box = h(
    "div",
    { class: "tournament", "data-testid": "tournament" },
    h("p", { class: "muted" }, "Loading…"),
  );
  let timer = null;
  let loading = false;
  let again = false;
  const load = async () => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      const [standings, pairings] = await Promise.all([
        api(`/v1/tournaments/${id}/standings`, { signal: life.signal }),
        api(`/v1/tournaments/${id}/pairings`, { signal: life.signal }),
      ]);
      const title = await gameTitle(standings.game);
      if (life.signal.aborted) return;
      drawTournament(box, standings, pairings, title);
      document.title = `${standings.name || id} · Ziggurat`;
      onChange?.(standings, pairings);
    } catch (err) {
      if (!life.signal.aborted) fill(box, notice(reason(err), "error"));
    } finally {
      loading = false;
      if (again) {
        again = false;
        load();
      }
    }
  };
  // Events come in bursts (a round's results, its pairing): one read per burst.
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 150);
  };
  load();
  const feed = follow(`/v1/tournaments/${id}/feed`, { kind: "tournament-event", onEvent: soon, onEnd: soon });
  life.cleanup(() => {
    clearTimeout(timer);
    feed.close();
  });
  return box;
}

function drawTournament(box, standings, pairings, title) {
  const names = Object.fromEntries(standings.lines.map((l) => [l.line.player_id, l.line.name]));
  const rounds = standings.planned_rounds
    ? `round ${standings.round} of ${standings.planned_rounds}`
    : `round ${standings.round}`;
  fill(
    box,
    h("h1", {}, standings.name || standings.tournament_id),
    h(
      "p",
      { "data-testid": "tournament-status" },
      `${title} · ${words(standings.format)} · `,
      h("strong", {}, words(standings.status)),
      standings.status === "registering" ? "" : ` · ${rounds}`,
    ),
    h("h2", {}, standings.status === "finished" ? "Final standings" : "Standings"),
    standingsTable(standings),
    h("h2", {}, "Rounds"),
    pairings.rounds.length
      ? h(
          "div",
          { class: "rounds" },
          [...pairings.rounds].reverse().map((r) => roundCard(r, names)),
        )
      : h("p", { class: "muted" }, "No round has been paired yet."),
  );
}

function standingsTable(standings) {
  if (!standings.lines.length) return h("p", { class: "muted" }, "Nobody has registered yet.");
  const elimination = standings.format === "elimination";
  const heads = ["Rank", "Player", "Points", "Opponents' points", "Score", "Games", "Byes", "Rating"];
  if (elimination) heads.push("Reached round");
  const rows = standings.lines.map(({ line, rating, mu, sigma }) =>
    h(
      "tr",
      { class: line.withdrawn ? "withdrawn" : null, "data-player": line.player_id },
      h("td", { class: "num" }, String(line.rank)),
      h("td", {}, line.name, line.withdrawn ? " (withdrawn)" : ""),
      h("td", { class: "num" }, String(line.points)),
      h("td", { class: "num" }, String(line.opponents_points)),
      h("td", { class: "num" }, String(line.score)),
      h("td", { class: "num" }, String(line.games)),
      h("td", { class: "num" }, String(line.byes)),
      h("td", { class: "num", title: `μ ${mu.toFixed(2)}, σ ${sigma.toFixed(2)}` }, rating.toFixed(2)),
      elimination ? h("td", { class: "num" }, String(line.reached)) : null,
    ),
  );
  return h(
    "table",
    { class: "list standings", "data-testid": "standings" },
    h(
      "caption",
      { class: "muted" },
      "Order: points, then opponents' points, then the games' own scores, then head to head among those still tied, then registration order. The rating is μ − 3σ (OpenSkill).",
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        heads.map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}

function roundCard(round, names) {
  const rows = round.tables.map((t) => {
    const done = t.places !== null && t.places !== undefined;
    const who = t.players.map((p, s) => `${names[p] || p}${done ? ` (${ordinal(t.places[s])})` : ""}`);
    let link = h("span", { class: "muted" }, "opening…");
    if (t.game_id)
      link = h(
        "a",
        { href: done ? `#/replay/${t.game_id}` : `#/table/${t.game_id}` },
        done ? "replay" : "watch live",
      );
    return h(
      "tr",
      { "data-table": t.game_id || "" },
      h("td", { class: "num" }, String(t.table)),
      h("td", {}, who.join(", ")),
      h("td", {}, link),
    );
  });
  return h(
    "section",
    { class: "card", "data-round": round.number },
    h(
      "h3",
      {},
      `Round ${round.number} `,
      h("span", { class: "muted" }, round.complete ? "complete" : "in play"),
    ),
    h(
      "table",
      { class: "list" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Table", "Players", "Game"].map((x) => h("th", { scope: "col" }, x)),
        ),
      ),
      h("tbody", {}, rows),
    ),
    round.byes.length ? h("p", {}, `Byes: ${round.byes.map((p) => names[p] || p).join(", ")}`) : null,
  );
}
