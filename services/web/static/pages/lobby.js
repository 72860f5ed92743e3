// The lobby: the hosted games, a form to open a table against bots, the live
// and finished tables, the tournaments, and the seats this browser holds.

import { api, games } from "../api.js";
import { fill, h } from "../dom.js";
import { language, NAMES, t } from "../i18n.js";
import { ago, clockText, notice, reason, remember, remembered, sleep, uuid } from "../ui.js";
import { resultWords, seatNames, words } from "../words.js";
import { seatLink } from "./table.js";

const REFRESH_MS = 3000;
const SLOW_EVERY = 3;
// The bots' levels, as the API names them (POST /v1/tables/{id}/bots).
// [value, in the form, in a table's seat list]
const BOT_LEVELS = () => [
  ["easy", t("level.easy"), t("level.easy_short")],
  ["medium", t("level.medium"), t("level.medium_short")],
  ["hard", t("level.hard"), t("level.hard_short")],
];

export default async function lobby(main, _params, life) {
  const hosted = await games();
  const loading = () => h("p", { class: "muted" }, t("app.loading"));
  const live = h("div", { "data-testid": "live-tables" }, loading());
  const finished = h("div", { "data-testid": "finished-tables" }, loading());
  const tournaments = h("div", { "data-testid": "tournaments" }, loading());
  fill(
    main,
    h("h1", {}, t("lobby.title")),
    h(
      "p",
      { class: "muted", "data-testid": "lobby-language" },
      t("lobby.language", { language: NAMES[language] }),
    ),
    yourSeats(),
    h(
      "div",
      { class: "columns" },
      h(
        "section",
        { class: "card", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, t("lobby.games")),
        gameList(hosted),
      ),
      h(
        "section",
        { class: "card", "aria-labelledby": "open-h" },
        h("h2", { id: "open-h" }, t("lobby.open_heading")),
        openForm(hosted, life),
      ),
    ),
    h("section", { "aria-labelledby": "live-h" }, h("h2", { id: "live-h" }, t("lobby.live")), live),
    h(
      "section",
      { "aria-labelledby": "tournaments-h" },
      h("h2", { id: "tournaments-h" }, t("lobby.tournaments")),
      tournaments,
    ),
    h("p", {}, h("a", { href: "#/arenas" }, t("lobby.arenas")), t("lobby.arenas_line")),
    h(
      "section",
      { "aria-labelledby": "finished-h" },
      h("h2", { id: "finished-h" }, t("lobby.finished")),
      finished,
    ),
  );
  document.title = t("lobby.page_title");
  // Live tables move every few seconds; finished ones and tournaments change less often.
  for (let round = 0; !life.signal.aborted; round++) {
    const reads = [
      api("/v1/tables?state=live&limit=50", { signal: life.signal }).then(
        (r) => live.replaceChildren(tableList(r.tables, false)),
        (e) => show(live, e, life),
      ),
    ];
    if (round % SLOW_EVERY === 0) {
      reads.push(
        api("/v1/tables?state=finished&limit=20", { signal: life.signal }).then(
          (r) => finished.replaceChildren(tableList(r.tables, true)),
          (e) => show(finished, e, life),
        ),
        api("/v1/tournaments?limit=20", { signal: life.signal }).then(
          (r) => tournaments.replaceChildren(tournamentList(r.tournaments)),
          (e) => show(tournaments, e, life),
        ),
      );
    }
    await Promise.all(reads);
    await sleep(REFRESH_MS, life.signal);
  }
}

function show(box, err, life) {
  if (!life.signal.aborted)
    box.replaceChildren(notice(t("lobby.list_failed", { reason: reason(err) }), "error"));
}

function gameList(hosted) {
  const pick = (key) => {
    const select = document.getElementById("open-game");
    select.value = key;
    select.dispatchEvent(new Event("change"));
    select.focus();
  };
  return h(
    "ul",
    { class: "games" },
    hosted.map((g) =>
      h(
        "li",
        { "data-game": g.key },
        h("strong", {}, g.title),
        " ",
        h(
          "span",
          { class: "muted" },
          g.min_seats === g.max_seats
            ? t("lobby.game_seats", { key: g.key, count: g.min_seats })
            : t("lobby.game_seat_range", { key: g.key, min: g.min_seats, max: g.max_seats }),
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "small",
            onclick: () => pick(g.key),
            "aria-label": t("lobby.open_game_aria", { game: g.title }),
          },
          t("lobby.open_game"),
        ),
        " ",
        h(
          "a",
          { href: `#/ladder/${g.key}`, "aria-label": t("lobby.leaderboard_aria", { game: g.title }) },
          t("lobby.leaderboard"),
        ),
      ),
    ),
  );
}

function yourSeats() {
  const tables = Object.entries(remembered().tables || {})
    .sort((a, b) => (b[1].opened || 0) - (a[1].opened || 0))
    .slice(0, 10);
  if (!tables.length) return null;
  return h(
    "section",
    { class: "card", "aria-labelledby": "yours-h" },
    h("h2", { id: "yours-h" }, t("lobby.your_seats")),
    h(
      "ul",
      {},
      tables.map(([id, mine]) =>
        h(
          "li",
          {},
          t("lobby.your_table", { game: mine.title || mine.game, ago: ago(mine.opened || 0) }),
          " ",
          Object.entries(mine.seats || {}).map(([s, token]) => [
            h("a", { href: seatLink(id, s, token) }, t("lobby.your_seat", { n: Number(s) + 1 })),
            " ",
          ]),
          h("a", { href: `#/table/${id}` }, t("lobby.watch")),
        ),
      ),
    ),
  );
}

function tableList(tables, over) {
  if (!tables.length) return h("p", { class: "muted" }, over ? t("lobby.no_finished") : t("lobby.no_live"));
  const rows = tables.map((row) => {
    const names = seatNames(row, row.seats);
    const ctx = { names };
    // A bot seat says so, and at which level it plays.
    const level = (s) => levelName(row.bot_levels?.[row.bots.indexOf(s)] || "medium");
    const who = names.map((n, s) =>
      row.bots.includes(s) ? t("lobby.bot", { name: n, level: level(s) }) : n,
    );
    const link = over
      ? h("a", { href: `#/replay/${row.table_id}` }, t("lobby.replay"))
      : h("a", { href: `#/table/${row.table_id}` }, t("lobby.watch"));
    return h(
      "tr",
      { "data-table": row.table_id, "data-game": row.game },
      h("td", {}, row.title),
      h("td", {}, link, " ", h("span", { class: "muted mono" }, row.table_id)),
      h("td", {}, t("lobby.seat_list", { count: row.seats, names: who.join(", ") })),
      h("td", { class: "num", "data-testid": "moves" }, String(row.moves)),
      over
        ? h("td", {}, resultWords(row.result, ctx))
        : h("td", {}, row.actors.map((s) => names[s]).join(", ") || "—", clocks(row)),
      h("td", { class: "muted" }, ago(row.opened_at)),
    );
  });
  const heads = [
    t("lobby.col_game"),
    t("lobby.col_table"),
    t("lobby.col_seats"),
    t("lobby.col_moves"),
    over ? t("lobby.col_result") : t("lobby.col_to_move"),
    t("lobby.col_opened"),
  ];
  return h(
    "table",
    { class: "list" },
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

// A bot level's name as the form lists it; a level this client does not know, as the API names it.
function levelName(code) {
  const known = BOT_LEVELS().find(([value]) => value === code);
  return known ? known[2] : code;
}

function clocks(row) {
  if (!row.clock || !row.remaining.length) return null;
  const left = row.actors.map((s) => clockText(row.remaining[s] - (Date.now() - row.clock_since)));
  return h("span", { class: "muted" }, " ", t("lobby.clocks_left", { clocks: left.join(", ") }));
}

// The closed lists of shared/tournaments (settings.py Format, state.py Status) in words.
const FORMATS = () => ({
  swiss: t("tournament.format_swiss"),
  round_robin: t("tournament.format_round_robin"),
  elimination: t("tournament.format_elimination"),
});
const STATUSES = () => ({
  registering: t("tournament.status_registering"),
  running: t("tournament.status_running"),
  finished: t("tournament.status_finished"),
});

export function formatName(format) {
  return FORMATS()[format] || words(format);
}

export function statusName(status) {
  return STATUSES()[status] || words(status);
}

export function tournamentList(list) {
  if (!list.length)
    return h(
      "p",
      { class: "muted" },
      t("lobby.no_tournaments"),
      " ",
      h("a", { href: "#/organise" }, t("lobby.organise_one")),
    );
  const rows = list.map((x) =>
    h(
      "tr",
      { "data-tournament": x.tournament_id },
      h("td", {}, h("a", { href: `#/tournament/${x.tournament_id}` }, x.name || x.tournament_id)),
      h("td", {}, x.title),
      h("td", {}, formatName(x.format)),
      h("td", {}, statusName(x.status)),
      h(
        "td",
        { class: "num" },
        x.planned_rounds ? t("lobby.round_of", { round: x.round, of: x.planned_rounds }) : String(x.round),
      ),
      h("td", { class: "num" }, String(x.players)),
    ),
  );
  const heads = [
    t("lobby.col_tournament"),
    t("lobby.col_game"),
    t("lobby.col_format"),
    t("lobby.col_status"),
    t("lobby.col_round"),
    t("lobby.col_players"),
  ];
  return h(
    "table",
    { class: "list" },
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

// -- opening a table -----------------------------------------------------------

function openForm(hosted, life) {
  const game = h(
    "select",
    { name: "game", id: "open-game" },
    hosted.map((g) => h("option", { value: g.key }, g.title)),
  );
  const seats = h("input", { type: "number", name: "seats", id: "open-seats" });
  const roles = h("fieldset", { class: "roles" });
  const options = h("div", { class: "options" });
  const clock = clockInputs();
  const message = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "primary" }, t("lobby.open_submit"));

  const chosen = () => hosted.find((g) => g.key === game.value) || hosted[0];
  const drawRoles = () => {
    const before = seatChoices(roles);
    roles.replaceChildren(h("legend", {}, t("lobby.who_plays")));
    for (let s = 0; s < Number(seats.value); s++) roles.append(seatRow(s, before[s]));
  };
  const drawGame = () => {
    const g = chosen();
    seats.min = g.min_seats;
    seats.max = g.max_seats;
    seats.value = Math.max(g.min_seats, Math.min(g.max_seats, Number(seats.value) || g.min_seats));
    drawRoles();
    options.replaceChildren(
      ...Object.entries(g.options || {}).map(([name, value]) => optionInput(name, value)),
    );
  };
  game.addEventListener("change", drawGame);
  seats.addEventListener("input", drawRoles);
  drawGame();

  const form = h(
    "form",
    { class: "open-table", "data-testid": "open-table" },
    h("label", { for: "open-game" }, t("lobby.form_game"), " ", game),
    h("label", { for: "open-seats" }, t("lobby.form_seats"), " ", seats),
    roles,
    h("details", {}, h("summary", {}, t("lobby.game_options")), options),
    clock.section,
    submit,
    message,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const g = chosen();
    const body = { game: g.key, seats: Number(seats.value), options: {} };
    try {
      body.options = changedOptions(options, g.options);
    } catch (err) {
      message.replaceChildren(notice(reason(err), "error"));
      return;
    }
    Object.assign(body, clock.read());
    submit.disabled = true;
    message.replaceChildren(notice(t("lobby.opening")));
    try {
      location.hash = await openTable(g, body, seatChoices(roles), life);
    } catch (err) {
      if (life.signal.aborted) return;
      submit.disabled = false;
      message.replaceChildren(notice(t("lobby.not_opened", { reason: reason(err) }), "error"));
    }
  });
  return form;
}

// Who plays each seat as the form says: [{ role, level }] in seat order.
function seatChoices(roles) {
  return [...roles.querySelectorAll("[data-seat-row]")].map((row) => ({
    role: row.querySelector("select[data-role]").value,
    level: row.querySelector("select[data-level]").value,
  }));
}

// One seat's row: who plays it and, for a bot, at which level (shared/kernel/levels.py).
function seatRow(s, before) {
  const pick = h(
    "select",
    { id: `open-role-${s}`, "data-role": "" },
    h("option", { value: "you" }, t("lobby.role_you")),
    h("option", { value: "bot" }, t("lobby.role_bot")),
    h("option", { value: "link" }, t("lobby.role_link")),
  );
  pick.value = before?.role || (s === 0 ? "you" : "bot");
  const level = h(
    "select",
    { id: `open-level-${s}`, "data-level": "" },
    ...BOT_LEVELS().map(([value, text]) => h("option", { value }, text)),
  );
  level.value = before?.level || "medium";
  const levelLabel = h(
    "label",
    { for: `open-level-${s}`, class: "level" },
    " ",
    t("lobby.at_level"),
    " ",
    level,
  );
  const showLevel = () => {
    levelLabel.hidden = pick.value !== "bot";
  };
  pick.addEventListener("change", showLevel);
  showLevel();
  return h(
    "div",
    { "data-seat-row": s },
    h("label", { for: `open-role-${s}` }, t("seat.name", { n: s + 1 }), " ", pick),
    levelLabel,
  );
}

// The clock and spectator inputs, and what they add to the opening's body.
function clockInputs() {
  const minutes = h("input", {
    type: "number",
    id: "open-minutes",
    min: "0",
    max: "1440",
    value: "0",
    step: "any",
  });
  const increment = h("input", { type: "number", id: "open-increment", min: "0", max: "3600", value: "0" });
  const delay = h("input", { type: "number", id: "open-delay", min: "0", max: "10000", value: "0" });
  const section = h(
    "details",
    {},
    h("summary", {}, t("lobby.clock")),
    h("label", { for: "open-minutes" }, t("lobby.clock_minutes"), " ", minutes),
    h("label", { for: "open-increment" }, t("lobby.clock_increment"), " ", increment),
    h("label", { for: "open-delay" }, t("lobby.spectator_delay"), " ", delay),
  );
  const read = () => {
    const out = {};
    if (Number(minutes.value) > 0)
      out.clock = {
        initial_ms: Math.round(Number(minutes.value) * 60000),
        increment_ms: Math.round(Number(increment.value) * 1000),
      };
    if (Number(delay.value) > 0) out.spectator_delay = { moves: Number(delay.value) };
    return out;
  };
  return { section, read };
}

// The game options that differ from the game's defaults.
function changedOptions(options, defaults) {
  const out = {};
  for (const input of options.querySelectorAll("[data-option]")) {
    const value = readOption(input, defaults[input.dataset.option]);
    if (JSON.stringify(value) !== JSON.stringify(defaults[input.dataset.option]))
      out[input.dataset.option] = value;
  }
  return out;
}

// Opens the table, hands the bots' seats to the bot runner at their levels,
// remembers the other seats' links, and answers where to go next.
async function openTable(g, body, choices, life) {
  const opened = await api("/v1/tables", { method: "POST", body, key: uuid(), signal: life.signal });
  const tokens = opened.tokens.map((t) => t.token);
  const botSeats = tokens.map((_, s) => s).filter((s) => choices[s].role === "bot");
  if (botSeats.length) {
    await api(`/v1/tables/${opened.table_id}/bots`, {
      method: "POST",
      body: { tokens: botSeats.map((s) => tokens[s]), levels: botSeats.map((s) => choices[s].level) },
      signal: life.signal,
    });
  }
  const people = Object.fromEntries(tokens.map((t, s) => [s, t]).filter(([s]) => choices[s].role !== "bot"));
  remember((all) => {
    all.tables = all.tables || {};
    all.tables[opened.table_id] = { game: g.key, title: g.title, seats: people, opened: Date.now() };
    // Keep the newest 50 tables.
    const keep = Object.entries(all.tables)
      .sort((a, b) => (b[1].opened || 0) - (a[1].opened || 0))
      .slice(0, 50);
    all.tables = Object.fromEntries(keep);
  });
  const mine = choices.findIndex((c) => c.role === "you");
  return mine >= 0 ? seatLink(opened.table_id, mine, tokens[mine]) : `#/table/${opened.table_id}`;
}

function optionInput(name, value) {
  const id = `option-${name}`;
  let input;
  if (typeof value === "boolean") {
    input = h("input", { type: "checkbox", id, "data-option": name, checked: value || null });
  } else if (typeof value === "number") {
    input = h("input", { type: "number", id, "data-option": name, value: String(value), step: "any" });
  } else if (typeof value === "string") {
    input = h("input", { type: "text", id, "data-option": name, value });
  } else {
    input = h("input", {
      type: "text",
      id,
      "data-option": name,
      value: JSON.stringify(value),
      "data-json": "",
    });
  }
  return h(
    "label",
    { for: id, class: typeof value === "boolean" ? "check" : null },
    `${words(name)} `,
    input,
  );
}

function readOption(input, original) {
  if (input.type === "checkbox") return input.checked;
  if (input.type === "number") return Number(input.value);
  if (input.hasAttribute("data-json")) {
    try {
      return JSON.parse(input.value);
    } catch {
      throw new Error(
        t("lobby.option_json", { option: words(input.dataset.option), example: JSON.stringify(original) }),
      );
    }
  }
  return input.value;
}
