// A finished table, step by step: the public log with the spectator's view as
// it was at each step, and the fairness check (the seed's commitment, the
// revealed seed, and whether every shuffle and roll re-derives from it).

import { api, gameTitle } from "../api.js";
import { button, fill, h } from "../dom.js";
import { draw as drawBoard, prepare, renderer } from "../renderers.js";
import { notice, reason } from "../ui.js";
import { resultWords, sentence } from "../words.js";
import { playersList } from "./table.js";

const SPEEDS = [
  ["slow", 1200],
  ["normal", 500],
  ["fast", 150],
];

export default async function replayPage(main, { id, step }, life) {
  const loaded = await loadLog(main, id, life);
  if (!loaded) return;
  const { log, about } = loaded;
  const final = log.view;
  const events = log.events;
  const names = about?.names || Array.from({ length: final.seats }, (_, s) => `Seat ${s + 1}`);
  const mod = await renderer(final.game);
  await prepare(mod, final);
  const title = await gameTitle(final.game);
  document.title = `Replay · ${title} · Ziggurat`;
  const ctx = { seat: null, names, legal: [], doc: final, game: final.game };
  ctx.label = (c) => String(c?.type);
  ctx.submit = async () => ({ ok: false, code: "replay", message: "This is a replay." });
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
        button(text, () => go(r, i), { "aria-label": `Go to step ${i + 1}: ${text}` }),
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
      notice(
        open ? "This game is still being played: replays open when it is over." : reason(err),
        open ? "info" : "error",
      ),
      open ? h("p", {}, h("a", { href: `#/table/${id}` }, "Watch it live")) : null,
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
    { "aria-label": "Speed" },
    SPEEDS.map(([name, ms]) => h("option", { value: String(ms) }, name)),
  );
  speed.value = "500";
  const logList = h("ol", { class: "log-list" });
  return {
    board: h("div", { class: "board", "data-testid": "board" }),
    players: h("section", { class: "players", "aria-label": "Players" }),
    where: h("span", { "data-testid": "replay-step", "aria-live": "polite" }),
    slider: h("input", {
      type: "range",
      min: "0",
      max: String(Math.max(events.length - 1, 0)),
      value: String(st.i),
      "aria-label": "Step",
      "data-testid": "replay-slider",
    }),
    play: button("Play", () => toggle(r), { "data-testid": "replay-play" }),
    speed,
    logList,
    logBox: h(
      "section",
      { class: "log", "aria-label": "What happened" },
      h("h2", {}, "What happened"),
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
    h("h1", {}, `Replay: ${title} `, h("span", { class: "muted" }, `table ${id}`)),
    final.result ? h("p", { class: "result" }, resultWords(final.result, ctx)) : null,
    h(
      "nav",
      { class: "links" },
      h("a", { href: "#/" }, "Lobby"),
      about?.tournament_id ? h("a", { href: `#/tournament/${about.tournament_id}` }, "Tournament") : null,
    ),
  );
}

// First, back, play, forward, last, the slider and the speed.
function replayControls(r) {
  const { events, st } = r;
  const { play, slider, speed, where } = r.el;
  return h(
    "div",
    { class: "controls", role: "group", "aria-label": "Replay controls" },
    button("« First", () => go(r, 0), { "aria-label": "First step", "data-testid": "replay-first" }),
    button("◀ Back", () => go(r, st.i - 1), { "aria-label": "Step back", "data-testid": "replay-back" }),
    play,
    button("Forward ▶", () => go(r, st.i + 1), {
      "aria-label": "Step forward",
      "data-testid": "replay-forward",
    }),
    button("Last »", () => go(r, events.length - 1), {
      "aria-label": "Last step",
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
  where.textContent = `Step ${st.i + 1} of ${events.length} · version ${version}`;
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
    if (!life.signal.aborted) where.textContent = `Could not load step ${st.i + 1}: ${reason(err)}`;
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
      h("h2", {}, "Players"),
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
    play.textContent = "Play";
    return;
  }
  if (st.i >= events.length - 1) go(r, 0);
  play.textContent = "Pause";
  const next = async () => {
    if (st.i >= events.length - 1) {
      st.playing = null;
      play.textContent = "Play";
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
      h("dt", {}, "Seed commitment, published when the table opened"),
      h("dd", { class: "mono", "data-testid": "commitment" }, final.commitment),
      h("dt", {}, "Seed, revealed when the game ended"),
      h("dd", { class: "mono", "data-testid": "seed" }, final.seed || "not revealed"),
      verdict
        ? [
            h("dt", {}, "The seed matches its commitment"),
            h("dd", {}, verdict.seed_matches_commitment ? "yes" : "NO"),
          ]
        : null,
      verdict
        ? [
            h("dt", {}, "Every shuffle and roll re-derives from the seed"),
            h(
              "dd",
              {},
              verdict.fair
                ? `yes: ${verdict.commands} commands re-derive all ${verdict.events} events byte for byte`
                : "NO",
            ),
          ]
        : null,
    );
  const heading = h("h2", { id: "fair-h" }, "Fairness check");
  fill(
    box,
    heading,
    rows(null),
    h(
      "p",
      { class: "muted", "data-testid": "verdict" },
      "Checking: re-deciding the game from its revealed seed…",
    ),
  );
  try {
    const verdict = await api(`/v1/tables/${id}/verify`, { signal: life.signal });
    fill(
      box,
      heading,
      rows(verdict),
      h(
        "p",
        { class: `verdict ${verdict.fair ? "fair" : "unfair"}`, "data-testid": "verdict" },
        verdict.fair
          ? "Fair: every random outcome of this game follows from the seed committed to before play."
          : "NOT fair:",
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
      fill(box, heading, rows(null), notice(`The check could not run: ${reason(err)}`, "error"));
  }
}
