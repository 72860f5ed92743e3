// A finished table, step by step: the public log with the spectator's view as
// it was at each step, and the fairness check (the seed's commitment, the
// revealed seed, and whether every shuffle and roll re-derives from it).

import { api, gameTitle } from "../api.js";
import { button, fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { draw as drawBoard, prepare, renderer } from "../renderers.js";
import { notice, reason } from "../ui.js";
import { resultWords, seatNames, sentence } from "../words.js";
import { playersList } from "./table.js";

const SPEEDS = () => [
  [t("replay.slow"), 1200],
  [t("replay.normal"), 500],
  [t("replay.fast"), 150],
];

export default async function replayPage(main, { id, step }, life) {
  const loaded = await loadLog(main, id, life);
  if (!loaded) return;
  const { log, about } = loaded;
  const final = log.view;
  const events = log.events;
  const names = seatNames(about, final.seats);
  const mod = await renderer(final.game);
  await prepare(mod, final);
  const title = await gameTitle(final.game);
  document.title = t("replay.page_title", { game: title });
  const ctx = { seat: null, names, legal: [], doc: final, game: final.game };
  ctx.label = (c) => String(c?.type);
  ctx.submit = async () => ({ ok: false, code: "replay", message: t("replay.no_moves") });
  ctx.choose = () => {};

  const st = {
    i: Math.min(Math.max(Number(step) || 0, 0), Math.max(events.length - 1, 0)),
    playing: null,
    shown: null,
  };
  const r = { id, life, events, mod, ctx, about, st, docs: new Map() };
  r.el = replayElements(r);
  const { board, players, logList, logBox, fairness } = r.el;
  fill(
    main,
    replayHeader(id, title, final, ctx, about),
    fairness,
    replayControls(r),
    h(
      "div",
      { class: "table-grid" },
      h("div", { class: "board-wrap" }, board),
      h("aside", { class: "side" }, players, logBox),
    ),
  );
  events.forEach((entry, i) => {
    const text = sentence(mod, entry.event, ctx) || `(${entry.event.type})`;
    logList.append(
      h(
        "li",
        { "data-step": i },
        button(text, () => go(r, i), { "aria-label": t("replay.go_to_step", { n: i + 1, text }) }),
      ),
    );
  });
  life.cleanup(() => clearTimeout(st.playing));
  r.el.slider.addEventListener("input", () => go(r, Number(r.el.slider.value)));

  drawFairness(fairness, id, final, life);
  await go(r, st.i);
}

// The table's log and its final view with the seats' names, or null (and a
// notice in their place) when the game is still on or the log cannot be read.
async function loadLog(main, id, life) {
  try {
    const [log, about] = await Promise.all([
      api(`/v1/tables/${id}/log`, { signal: life.signal }),
      api(`/v1/tables/${id}/about`, { signal: life.signal }).catch(() => null),
    ]);
    return { log, about };
  } catch (err) {
    if (life.signal.aborted) return null;
    const open = err.code === "game_not_over";
    fill(
      main,
      notice(open ? t("replay.still_playing") : reason(err), open ? "info" : "error"),
      open ? h("p", {}, h("a", { href: `#/table/${id}` }, t("replay.watch_live"))) : null,
    );
    return null;
  }
}

// The elements a step changes: the board, the players, the step's place in
// the log, the slider and the play button; and the fairness check's box.
function replayElements(r) {
  const { events, st } = r;
  const speed = h(
    "select",
    { "aria-label": t("replay.speed") },
    SPEEDS().map(([name, ms]) => h("option", { value: String(ms) }, name)),
  );
  speed.value = "500";
  const logList = h("ol", { class: "log-list" });
  return {
    board: h("div", { class: "board", "data-testid": "board" }),
    players: h("section", { class: "players", "aria-label": t("table.players") }),
    where: h("span", { "data-testid": "replay-step", "aria-live": "polite" }),
    slider: h("input", {
      type: "range",
      min: "0",
      max: String(Math.max(events.length - 1, 0)),
      value: String(st.i),
      "aria-label": t("replay.step"),
      "data-testid": "replay-slider",
    }),
    play: button(t("replay.play"), () => toggle(r), { "data-testid": "replay-play" }),
    speed,
    logList,
    logBox: h(
      "section",
      { class: "log", "aria-label": t("table.log") },
      h("h2", {}, t("table.log")),
      logList,
    ),
    fairness: h("section", {
      class: "card fairness",
      "aria-labelledby": "fair-h",
      "data-testid": "fairness",
    }),
  };
}

// The replay's title, the game's result and the links back.
function replayHeader(id, title, final, ctx, about) {
  return h(
    "header",
    { class: "table-head" },
    h(
      "h1",
      {},
      t("replay.heading", { game: title }),
      " ",
      h("span", { class: "muted" }, t("table.table_id", { id })),
    ),
    final.result ? h("p", { class: "result" }, resultWords(final.result, ctx)) : null,
    h(
      "nav",
      { class: "links" },
      h("a", { href: "#/" }, t("nav.lobby")),
      about?.tournament_id
        ? h("a", { href: `#/tournament/${about.tournament_id}` }, t("table.tournament_link"))
        : null,
    ),
  );
}

// First, back, play, forward, last, the slider and the speed.
function replayControls(r) {
  const { events, st } = r;
  const { play, slider, speed, where } = r.el;
  return h(
    "div",
    { class: "controls", role: "group", "aria-label": t("replay.controls") },
    button(t("replay.first"), () => go(r, 0), {
      "aria-label": t("replay.first_aria"),
      "data-testid": "replay-first",
    }),
    button(t("replay.back"), () => go(r, st.i - 1), {
      "aria-label": t("replay.back_aria"),
      "data-testid": "replay-back",
    }),
    play,
    button(t("replay.forward"), () => go(r, st.i + 1), {
      "aria-label": t("replay.forward_aria"),
      "data-testid": "replay-forward",
    }),
    button(t("replay.last"), () => go(r, events.length - 1), {
      "aria-label": t("replay.last_aria"),
      "data-testid": "replay-last",
    }),
    slider,
    speed,
    where,
  );
}

// The spectator's view at a version, fetched once (a failed fetch is forgotten).
function stepDoc(r, version) {
  const { docs, id, life } = r;
  if (!docs.has(version)) {
    const loading = api(`/v1/tables/${id}/replay?version=${version}`, { signal: life.signal });
    loading.catch(() => docs.delete(version));
    docs.set(version, loading);
  }
  return docs.get(version);
}

// Show step i: the log marked up to it, the address, then the board and the
// players as they were (the next step's view fetched ahead).
async function go(r, i) {
  const { events, st, id, life, mod, ctx, about } = r;
  const { slider, where, logList, board, players } = r.el;
  if (!events.length) return;
  st.i = Math.max(0, Math.min(events.length - 1, i));
  slider.value = String(st.i);
  const version = events[st.i].version;
  where.textContent = t("replay.where", { n: st.i + 1, of: events.length, version: String(version) });
  for (const li of logList.children) {
    const k = Number(li.dataset.step);
    li.className = k === st.i ? "current" : k > st.i ? "future" : "";
  }
  logList.children[st.i]?.scrollIntoView({ block: "nearest" });
  history.replaceState(null, "", `#/replay/${id}?step=${st.i}`);
  let shown;
  try {
    shown = await stepDoc(r, version);
  } catch (err) {
    if (!life.signal.aborted)
      where.textContent = t("replay.step_failed", { n: st.i + 1, reason: reason(err) });
    return;
  }
  if (life.signal.aborted || events[st.i].version !== version) return;
  if (st.i + 1 < events.length) stepDoc(r, events[st.i + 1].version);
  if (st.shown !== shown) {
    st.shown = shown;
    const view = { ...ctx, doc: shown };
    drawBoard(mod, board, shown, view);
    fill(
      players,
      h("h2", {}, t("table.players")),
      playersList(shown, view, { mod, bots: about?.bots, clocks: false }),
    );
    board.dataset.version = String(shown.version);
  }
}

// Play from the step shown (from the first when at the last), or pause.
function toggle(r) {
  const { events, st } = r;
  const { play, speed } = r.el;
  if (st.playing) {
    clearTimeout(st.playing);
    st.playing = null;
    play.textContent = t("replay.play");
    return;
  }
  if (st.i >= events.length - 1) go(r, 0);
  play.textContent = t("replay.pause");
  const next = async () => {
    if (st.i >= events.length - 1) {
      st.playing = null;
      play.textContent = t("replay.play");
      return;
    }
    await go(r, st.i + 1);
    if (st.playing) st.playing = setTimeout(next, Number(speed.value));
  };
  st.playing = setTimeout(next, Number(speed.value));
}

async function drawFairness(box, id, final, life) {
  const rows = (verdict) =>
    h(
      "dl",
      {},
      h("dt", {}, t("replay.commitment")),
      h("dd", { class: "mono", "data-testid": "commitment" }, final.commitment),
      h("dt", {}, t("replay.seed")),
      h("dd", { class: "mono", "data-testid": "seed" }, final.seed || t("replay.not_revealed")),
      verdict
        ? [
            h("dt", {}, t("replay.seed_matches")),
            h("dd", {}, verdict.seed_matches_commitment ? t("replay.yes") : t("replay.no")),
          ]
        : null,
      verdict
        ? [
            h("dt", {}, t("replay.rederives")),
            h(
              "dd",
              {},
              verdict.fair
                ? t("replay.rederived", { commands: verdict.commands, events: verdict.events })
                : t("replay.no"),
            ),
          ]
        : null,
    );
  const heading = h("h2", { id: "fair-h" }, t("replay.fairness"));
  fill(box, heading, rows(null), h("p", { class: "muted", "data-testid": "verdict" }, t("replay.checking")));
  try {
    const verdict = await api(`/v1/tables/${id}/verify`, { signal: life.signal });
    fill(
      box,
      heading,
      rows(verdict),
      h(
        "p",
        { class: `verdict ${verdict.fair ? "fair" : "unfair"}`, "data-testid": "verdict" },
        verdict.fair ? t("replay.fair") : t("replay.unfair"),
      ),
      verdict.problems.length
        ? h(
            "ul",
            {},
            verdict.problems.map((p) => h("li", {}, p)),
          )
        : null,
    );
  } catch (err) {
    if (!life.signal.aborted)
      fill(box, heading, rows(null), notice(t("replay.check_failed", { reason: reason(err) }), "error"));
  }
}
