// A tournament's public page: standings with tie-breaks and ratings, the
// pairings of every round with links to their tables, kept live by the
// tournament's feed.

import { api, follow, gameTitle } from "../api.js";
import { fill, h } from "../dom.js";
import { t as tr } from "../i18n.js";
import { notice, reason } from "../ui.js";
import { ordinal } from "../words.js";
import { formatName, statusName } from "./lobby.js";

export default async function tournamentPage(main, { id }, life) {
  const section = tournamentSection(id, life);
  fill(main, section);
}

// The public view of tournament `id`, live; `onChange(standings, pairings)` after each load.
export function tournamentSection(id, life, { onChange } = {}) {
  const box = h(
    "div",
    { class: "tournament", "data-testid": "tournament" },
    h("p", { class: "muted" }, tr("app.loading")),
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
    ? tr("tournament.round_of", { round: standings.round, of: standings.planned_rounds })
    : tr("tournament.round", { round: standings.round });
  fill(
    box,
    h("h1", {}, standings.name || standings.tournament_id),
    h(
      "p",
      { "data-testid": "tournament-status" },
      `${title} · ${formatName(standings.format)} · `,
      h("strong", {}, statusName(standings.status)),
      standings.status === "registering" ? "" : ` · ${rounds}`,
    ),
    h(
      "h2",
      {},
      standings.status === "finished" ? tr("tournament.final_standings") : tr("tournament.standings"),
    ),
    standingsTable(standings),
    h("h2", {}, tr("tournament.rounds")),
    pairings.rounds.length
      ? h(
          "div",
          { class: "rounds" },
          [...pairings.rounds].reverse().map((r) => roundCard(r, names)),
        )
      : h("p", { class: "muted" }, tr("tournament.no_rounds")),
  );
}

function standingsTable(standings) {
  if (!standings.lines.length) return h("p", { class: "muted" }, tr("tournament.nobody"));
  const elimination = standings.format === "elimination";
  const heads = [
    tr("tournament.col_rank"),
    tr("tournament.col_player"),
    tr("tournament.col_points"),
    tr("tournament.col_opponents_points"),
    tr("tournament.col_score"),
    tr("tournament.col_games"),
    tr("tournament.col_byes"),
    tr("tournament.col_rating"),
  ];
  if (elimination) heads.push(tr("tournament.col_reached"));
  const rows = standings.lines.map(({ line, rating, mu, sigma }) =>
    h(
      "tr",
      { class: line.withdrawn ? "withdrawn" : null, "data-player": line.player_id },
      h("td", { class: "num" }, String(line.rank)),
      h("td", {}, line.withdrawn ? tr("tournament.withdrawn", { name: line.name }) : line.name),
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
    h("caption", { class: "muted" }, tr("tournament.order")),
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
    const who = t.players.map((p, s) =>
      done ? tr("tournament.placed", { name: names[p] || p, place: ordinal(t.places[s]) }) : names[p] || p,
    );
    let link = h("span", { class: "muted" }, tr("tournament.opening"));
    if (t.game_id)
      link = h(
        "a",
        { href: done ? `#/replay/${t.game_id}` : `#/table/${t.game_id}` },
        done ? tr("lobby.replay") : tr("tournament.watch_live"),
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
      tr("tournament.round_heading", { n: round.number }),
      " ",
      h("span", { class: "muted" }, round.complete ? tr("tournament.complete") : tr("tournament.in_play")),
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
          [tr("lobby.col_table"), tr("lobby.col_players"), tr("lobby.col_game")].map((x) =>
            h("th", { scope: "col" }, x),
          ),
        ),
      ),
      h("tbody", {}, rows),
    ),
    round.byes.length
      ? h("p", {}, tr("tournament.byes", { names: round.byes.map((p) => names[p] || p).join(", ") }))
      : null,
  );
}
