// Organising a tournament: the form that creates one, then (with the
// organiser token, kept in the URL fragment) registering players and bots,
// starting, pairing rounds and finishing.

import { api, games } from "../api.js";
import { button, fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { notice, reason, remember, remembered, uuid } from "../ui.js";
import { capital } from "../words.js";
import { tournamentSection } from "./tournament.js";

export default async function organiserPage(main, { id, token }, life) {
  if (!id) return createPage(main, life);
  if (!token) {
    fill(main, notice(t("organiser.needs_link"), "error"));
    return;
  }
  return managePage(main, id, token, life);
}

async function createPage(main, life) {
  const hosted = await games();
  const game = h(
    "select",
    { id: "t-game" },
    hosted.map((g) => h("option", { value: g.key }, g.title)),
  );
  const name = h("input", {
    id: "t-name",
    type: "text",
    maxlength: "200",
    value: t("organiser.default_name"),
  });
  const format = h(
    "select",
    { id: "t-format" },
    h("option", { value: "swiss" }, t("organiser.swiss")),
    h("option", { value: "round_robin" }, t("organiser.round_robin")),
    h("option", { value: "elimination" }, t("organiser.elimination")),
  );
  const seats = h("input", { id: "t-seats", type: "number", min: "2", max: "4", value: "2" });
  const rounds = h("input", { id: "t-rounds", type: "number", min: "0", max: "100", value: "3" });
  const minutes = h("input", { id: "t-minutes", type: "number", min: "0", step: "any", value: "0" });
  const delay = h("input", { id: "t-delay", type: "number", min: "0", value: "0" });
  const message = h("div", { "aria-live": "polite" });
  const fit = () => {
    const g = hosted.find((x) => x.key === game.value);
    seats.min = Math.max(2, g.min_seats);
    seats.max = Math.min(4, g.max_seats);
    seats.value = Math.max(Number(seats.min), Math.min(Number(seats.max), Number(seats.value)));
  };
  game.addEventListener("change", fit);
  fit();
  const form = h(
    "form",
    { class: "card", "data-testid": "create-tournament" },
    h("label", { for: "t-name" }, t("organiser.name"), " ", name),
    h("label", { for: "t-game" }, t("lobby.form_game"), " ", game),
    h("label", { for: "t-format" }, t("lobby.col_format"), " ", format),
    h("label", { for: "t-seats" }, t("organiser.seats"), " ", seats),
    h("label", { for: "t-rounds" }, t("organiser.rounds"), " ", rounds),
    h("label", { for: "t-minutes" }, t("organiser.minutes"), " ", minutes),
    h("label", { for: "t-delay" }, t("lobby.spectator_delay"), " ", delay),
    h("button", { type: "submit", class: "primary" }, t("organiser.create")),
    message,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      name: name.value,
      game: game.value,
      format: format.value,
      seats_per_table: Number(seats.value),
      rounds: format.value === "swiss" ? Number(rounds.value) : 0,
    };
    if (Number(minutes.value) > 0) body.clock = { initial_ms: Math.round(Number(minutes.value) * 60000) };
    if (Number(delay.value) > 0) body.delay = { moves: Number(delay.value) };
    message.replaceChildren(notice(t("organiser.creating")));
    try {
      const made = await api("/v1/tournaments", { method: "POST", body, key: uuid(), signal: life.signal });
      remember((all) => {
        all.organised = all.organised || {};
        all.organised[made.tournament_id] = { token: made.organiser_token, name: body.name, players: {} };
      });
      location.hash = `#/tournament/${made.tournament_id}/organise?token=${encodeURIComponent(made.organiser_token)}`;
    } catch (err) {
      if (!life.signal.aborted)
        fill(message, notice(t("organiser.not_created", { reason: reason(err) }), "error"));
    }
  });
  fill(main, h("h1", {}, t("nav.organise")), form);
  document.title = t("organiser.page_title");
}

function managePage(main, id, token, life) {
  remember((all) => {
    all.organised = all.organised || {};
    all.organised[id] = { players: {}, ...all.organised[id], token };
  });
  const message = h("div", { "aria-live": "polite", "data-testid": "organiser-message" });
  const people = h("div", { "data-testid": "player-links" });
  const drawPeople = () => drawPlayerLinks(people, id);
  const register = registerForm(id, token, life, message, drawPeople);
  const act = (label, path, done) => organiserAction(id, token, life, message, label, path, done);
  fill(
    main,
    h(
      "section",
      { class: "card", "aria-labelledby": "org-h" },
      h("h2", { id: "org-h" }, t("organiser.heading")),
      h("p", { class: "secret" }, t("organiser.secret")),
      h(
        "p",
        {},
        t("organiser.public_page"),
        " ",
        h("a", { href: `#/tournament/${id}` }, `#/tournament/${id}`),
      ),
      register,
      people,
      h(
        "div",
        { class: "row" },
        act(t("organiser.start"), "start", t("organiser.started")),
        act(t("organiser.pair"), "rounds", t("organiser.paired")),
        act(t("organiser.finish"), "finish", t("organiser.finished")),
      ),
      message,
    ),
    tournamentSection(id, life),
  );
  drawPeople();
}

// The players registered from this browser, each with the link that is their key.
function drawPlayerLinks(people, id) {
  const players = Object.entries(remembered().organised?.[id]?.players || {});
  fill(
    people,
    players.length
      ? h(
          "ul",
          {},
          players.map(([pid, p]) =>
            h(
              "li",
              {},
              t("organiser.player_line", { name: p.name }),
              " ",
              h(
                "a",
                {
                  href: `#/tournament/${id}/player?token=${encodeURIComponent(p.token)}`,
                  "data-player": pid,
                },
                t("organiser.player_link"),
              ),
              " ",
              h("span", { class: "muted" }, t("organiser.player_link_note")),
            ),
          ),
        )
      : null,
  );
}

// The form registering a person (whose link is kept here) or a bot.
function registerForm(id, token, life, message, drawPeople) {
  const playerName = h("input", { id: "p-name", type: "text", maxlength: "200", required: true });
  const kind = h(
    "select",
    { id: "p-kind" },
    h("option", { value: "human" }, t("organiser.person")),
    h("option", { value: "bot" }, t("lobby.role_bot")),
  );
  // A bot entrant's level (shared/kernel/levels.py), asked only of a bot.
  const level = h(
    "select",
    { id: "p-level" },
    h("option", { value: "easy" }, capital(t("level.easy_short"))),
    h("option", { value: "medium", selected: true }, capital(t("level.medium_short"))),
    h("option", { value: "hard" }, capital(t("level.hard_short"))),
  );
  const levelLabel = h("label", { for: "p-level" }, t("organiser.level"), " ", level);
  const showLevel = () => {
    levelLabel.hidden = kind.value !== "bot";
  };
  kind.addEventListener("change", showLevel);
  showLevel();
  const register = h(
    "form",
    { class: "row", "data-testid": "register" },
    h("label", { for: "p-name" }, t("organiser.name"), " ", playerName),
    h("label", { for: "p-kind" }, t("organiser.plays_as"), " ", kind),
    levelLabel,
    h("button", { type: "submit" }, t("organiser.register")),
  );
  register.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: playerName.value.trim(), kind: kind.value };
    if (body.kind === "bot") body.bot = level.value;
    if (!body.name) return;
    try {
      const added = await api(`/v1/tournaments/${id}/players`, {
        method: "POST",
        token,
        body,
        key: uuid(),
        signal: life.signal,
      });
      if (body.kind === "human") {
        remember((all) => {
          all.organised[id].players[added.player_id] = { name: body.name, token: added.player_token };
        });
      }
      fill(message, notice(t("organiser.registered", { name: body.name }), "good"));
      playerName.value = "";
      playerName.focus();
      drawPeople();
    } catch (err) {
      if (!life.signal.aborted)
        fill(message, notice(t("organiser.not_registered", { reason: reason(err) }), "error"));
    }
  });
  return register;
}

// A button for one of the organiser's steps (start, pair a round, finish).
function organiserAction(id, token, life, message, label, path, done) {
  return button(
    label,
    async () => {
      try {
        await api(`/v1/tournaments/${id}/${path}`, {
          method: "POST",
          token,
          key: uuid(),
          signal: life.signal,
        });
        fill(message, notice(done, "good"));
      } catch (err) {
        if (!life.signal.aborted)
          fill(
            message,
            notice(t("organiser.action_failed", { action: label, reason: reason(err) }), "error"),
          );
      }
    },
    { "data-testid": `organiser-${path}` },
  );
}
