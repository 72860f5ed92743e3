// The lobby: the hosted games, a form to open a table against bots, the live
// and finished tables, the tournaments, and the seats this browser holds.

import { api, games } from "../api.js";
import { fill, h } from "../dom.js";
import { ago, clockText, notice, reason, remember, remembered, sleep, uuid } from "../ui.js";
import { resultWords, words } from "../words.js";
import { seatLink } from "./table.js";

const REFRESH_MS = 3000;
const SLOW_EVERY = 3;
// The bots' levels, as the API names them (POST /v1/tables/{id}/bots).
const BOT_LEVELS = [
  ["easy", "Easy (random moves)"],
  ["medium", "Medium (greedy)"],
  ["hard", "Hard (searches ahead)"],
];

export default async function lobby(main, _params, life) {
  const hosted = await games();
  const live = h("div", { "data-testid": "live-tables" }, h("p", { class: "muted" }, "Loading…"));
  const finished = h("div", { "data-testid": "finished-tables" }, h("p", { class: "muted" }, "Loading…"));
  const tournaments = h("div", { "data-testid": "tournaments" }, h("p", { class: "muted" }, "Loading…"));
  fill(
    main,
    h("h1", {}, "Lobby"),
    yourSeats(),
    h(
      "div",
      { class: "columns" },
      h(
        "section",
        { class: "card", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, "Games"),
        gameList(hosted),
      ),
      h(
        "section",
        { class: "card", "aria-labelledby": "open-h" },
        h("h2", { id: "open-h" }, "Open a table against bots"),
        openForm(hosted, life),
      ),
    ),
    h("section", { "aria-labelledby": "live-h" }, h("h2", { id: "live-h" }, "Live tables"), live),
    h(
      "section",
      { "aria-labelledby": "tournaments-h" },
      h("h2", { id: "tournaments-h" }, "Tournaments"),
      tournaments,
    ),
    h(
      "p",
      {},
      h("a", { href: "#/arenas" }, "Arenas"),
      ": rated tables, around the clock, for players and their bots.",
    ),
    h(
      "section",
      { "aria-labelledby": "finished-h" },
      h("h2", { id: "finished-h" }, "Finished tables"),
      finished,
    ),
  );
  document.title = "Lobby · Ziggurat";
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
  if (!life.signal.aborted) box.replaceChildren(notice(`Could not load this list: ${reason(err)}`, "error"));
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
          `${g.key} · ${g.min_seats === g.max_seats ? g.min_seats : `${g.min_seats}–${g.max_seats}`} seats`,
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "small",
            onclick: () => pick(g.key),
            "aria-label": `Open a table of ${g.title}`,
          },
          "Open a table",
        ),
        " ",
        h("a", { href: `#/ladder/${g.key}`, "aria-label": `${g.title} leaderboard` }, "Leaderboard"),
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
    h("h2", { id: "yours-h" }, "Your seats"),
    h(
      "ul",
      {},
      tables.map(([id, t]) =>
        h(
          "li",
          {},
          `${t.title || t.game} (${ago(t.opened || 0)}): `,
          Object.entries(t.seats || {}).map(([s, token]) => [
            h("a", { href: seatLink(id, s, token) }, `seat ${Number(s) + 1}`),
            " ",
          ]),
          h("a", { href: `#/table/${id}` }, "watch"),
        ),
      ),
    ),
  );
}

function tableList(tables, over) {
  if (!tables.length)
    return h(
      "p",
      { class: "muted" },
      over ? "No finished tables yet." : "No table is being played right now.",
    );
  const rows = tables.map((t) => {
    const ctx = { names: t.names };
    // A bot seat says so, and at which level it plays.
    const level = (s) => t.bot_levels?.[t.bots.indexOf(s)] || "medium";
    const who = t.names.map((n, s) => `${n}${t.bots.includes(s) ? ` (bot) · ${level(s)}` : ""}`);
    const link = over
      ? h("a", { href: `#/replay/${t.table_id}` }, "replay")
      : h("a", { href: `#/table/${t.table_id}` }, "watch");
    return h(
      "tr",
      { "data-table": t.table_id, "data-game": t.game },
      h("td", {}, t.title),
      h("td", {}, link, " ", h("span", { class: "muted mono" }, t.table_id)),
      h("td", {}, `${t.seats}: ${who.join(", ")}`),
      h("td", { class: "num", "data-testid": "moves" }, String(t.moves)),
      over
        ? h("td", {}, resultWords(t.result, ctx))
        : h("td", {}, t.actors.map((s) => t.names[s]).join(", ") || "—", clocks(t)),
      h("td", { class: "muted" }, ago(t.opened_at)),
    );
  });
  const heads = ["Game", "Table", "Seats", "Moves", over ? "Result" : "To move", "Opened"];
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

function clocks(t) {
  if (!t.clock || !t.remaining.length) return null;
  return h(
    "span",
    { class: "muted" },
    ` (${t.actors.map((s) => clockText(t.remaining[s] - (Date.now() - t.clock_since))).join(", ")} left)`,
  );
}

export function tournamentList(list) {
  if (!list.length)
    return h(
      "p",
      { class: "muted" },
      "No tournaments yet. ",
      h("a", { href: "#/organise" }, "Organise one"),
      ".",
    );
  const rows = list.map((t) =>
    h(
      "tr",
      { "data-tournament": t.tournament_id },
      h("td", {}, h("a", { href: `#/tournament/${t.tournament_id}` }, t.name || t.tournament_id)),
      h("td", {}, t.title),
      h("td", {}, words(t.format)),
      h("td", {}, words(t.status)),
      h("td", { class: "num" }, t.planned_rounds ? `${t.round} of ${t.planned_rounds}` : String(t.round)),
      h("td", { class: "num" }, String(t.players)),
    ),
  );
  const heads = ["Tournament", "Game", "Format", "Status", "Round", "Players"];
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
  const submit = h("button", { type: "submit", class: "primary" }, "Open the table");

  const chosen = () => hosted.find((g) => g.key === game.value) || hosted[0];
  const drawRoles = () => {
    const before = seatChoices(roles);
    roles.replaceChildren(h("legend", {}, "Who plays each seat"));
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
    h("label", { for: "open-game" }, "Game ", game),
    h("label", { for: "open-seats" }, "Seats ", seats),
    roles,
    h("details", {}, h("summary", {}, "Game options"), options),
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
    message.replaceChildren(notice("Opening the table…"));
    try {
      location.hash = await openTable(g, body, seatChoices(roles), life);
    } catch (err) {
      if (life.signal.aborted) return;
      submit.disabled = false;
      message.replaceChildren(notice(`The table was not opened: ${reason(err)}`, "error"));
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
    h("option", { value: "you" }, "You"),
    h("option", { value: "bot" }, "A bot"),
    h("option", { value: "link" }, "Someone with the seat link"),
  );
  pick.value = before?.role || (s === 0 ? "you" : "bot");
  const level = h(
    "select",
    { id: `open-level-${s}`, "data-level": "" },
    ...BOT_LEVELS.map(([value, text]) => h("option", { value }, text)),
  );
  level.value = before?.level || "medium";
  const levelLabel = h("label", { for: `open-level-${s}`, class: "level" }, " at level ", level);
  const showLevel = () => {
    levelLabel.hidden = pick.value !== "bot";
  };
  pick.addEventListener("change", showLevel);
  showLevel();
  return h(
    "div",
    { "data-seat-row": s },
    h("label", { for: `open-role-${s}` }, `Seat ${s + 1} `, pick),
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
    h("summary", {}, "Clock and spectators"),
    h("label", { for: "open-minutes" }, "Minutes per seat (0: no clock) ", minutes),
    h("label", { for: "open-increment" }, "Seconds added per move ", increment),
    h("label", { for: "open-delay" }, "Spectators trail by this many moves ", delay),
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
      throw new Error(`Option ${words(input.dataset.option)} must be JSON like ${JSON.stringify(original)}.`);
    }
  }
  return input.value;
}
