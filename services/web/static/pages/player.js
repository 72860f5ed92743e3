// A player's page (with the player token, kept in the URL fragment): where
// they play now, and a way there as soon as their table opens.

import { api } from "../api.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { notice, reason, remember, sleep } from "../ui.js";
import { seatLink } from "./table.js";
import { tournamentSection } from "./tournament.js";

const POLL_MS = 2000;

export default async function playerPage(main, { id, token }, life) {
  if (!token) {
    fill(main, notice(t("player.needs_link"), "error"));
    return;
  }
  remember((all) => {
    all.players = all.players || {};
    all.players[id] = { ...all.players[id], token };
  });
  const status = h(
    "div",
    { "data-testid": "player-status", "aria-live": "polite" },
    h("p", { class: "muted" }, t("player.looking")),
  );
  let names = {};
  let wake = null;
  const section = tournamentSection(id, life, {
    onChange(standings) {
      names = Object.fromEntries(standings.lines.map((l) => [l.line.player_id, l.line.name]));
      wake?.();
    },
  });
  fill(
    main,
    h(
      "section",
      { class: "card", "aria-labelledby": "me-h" },
      h("h2", { id: "me-h" }, t("player.your_games")),
      status,
    ),
    section,
  );
  while (!life.signal.aborted) {
    try {
      const me = await api(`/v1/tournaments/${id}/me`, { token, signal: life.signal });
      if (life.signal.aborted) return;
      remember((all) => {
        all.players[id].player_id = me.player_id;
      });
      if (showWhere(status, me, names[me.player_id] || me.player_id)) return;
    } catch (err) {
      if (life.signal.aborted) return;
      fill(status, notice(err.code === "bad_token" ? t("player.bad_link") : reason(err), "error"));
      if (err.code === "bad_token") return;
    }
    await Promise.race([sleep(POLL_MS, life.signal), new Promise((resolve) => (wake = resolve))]);
  }
}

// Where the player stands, in words (with the way to their table when it is
// open); true when there is nothing more to wait for (the tournament is over,
// or the page went on to the table).
function showWhere(status, me, who) {
  if (me.status === "finished") {
    fill(status, h("p", {}, t("player.over", { name: who })));
    return true;
  }
  if (me.status === "registering") fill(status, h("p", {}, t("player.registered", { name: who })));
  else if (me.bye) fill(status, h("p", {}, t("player.bye", { name: who, round: me.round })));
  else if (me.table_id && me.seat_token && !me.over) {
    const link = seatLink(me.table_id, me.seat, me.seat_token);
    fill(
      status,
      h(
        "p",
        {},
        t("player.on", { name: who, round: me.round, table: me.table }),
        " ",
        h("a", { href: link, "data-testid": "my-table" }, t("player.go")),
      ),
    );
    // Once per table, so the back button returns here without bouncing.
    const seen = `ziggurat.went.${me.table_id}`;
    if (!sessionStorage.getItem(seen)) {
      sessionStorage.setItem(seen, "1");
      location.hash = link;
      return true;
    }
  } else if (me.table_id && me.over)
    fill(status, h("p", {}, t("player.game_over", { name: who, round: me.round })));
  else fill(status, h("p", {}, t("player.opening", { name: who, round: me.round })));
  return false;
}
