// Legal commands as buttons, for any game. A kind of move with few choices
// gets a button per command (one click plays it); one with many is narrowed
// down field by field (which leader, then which square) and then confirmed;
// a renderer's ctx.choose() shows its commands as a list to pick from and
// confirm. Everything is a <button>: Tab reaches it, Enter or Space presses it.

import { button, h } from "./dom.js";
import { t } from "./i18n.js";
import { capital, valueWords, words } from "./words.js";

// More commands of one kind than this are chosen step by step.
const DIRECT = 8;

// A renderer's move sent through the page (ctx.submit): its answer, a failure
// to send it (a throw) answered as a refusal with the error's words.
export async function submitted(ctx, command) {
  try {
    return await ctx.submit(command);
  } catch (err) {
    return { ok: false, message: String(err?.message ? err.message : err) };
  }
}

function leaves(command, prefix = "") {
  const out = [];
  for (const [k, v] of Object.entries(command)) {
    if (!prefix && k === "type") continue;
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) out.push(...leaves(v, path));
    else out.push([path, v]);
  }
  return out;
}

function at(command, path) {
  return path.split(".").reduce((v, k) => (v === null || v === undefined ? v : v[k]), command);
}

// One canonical string per command (key order aside), to compare commands.
export function commandKey(command) {
  if (command === null || typeof command !== "object") return JSON.stringify(command);
  if (Array.isArray(command)) return `[${command.map(commandKey).join(",")}]`;
  const keys = Object.keys(command).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${commandKey(command[k])}`).join(",")}}`;
}

function groups(commands) {
  const byType = new Map();
  for (const c of commands) {
    const type = c?.type || "move";
    if (!byType.has(type)) byType.set(type, []);
    byType.get(type).push(c);
  }
  return byType;
}

// What is left of a narrowed kind, and the field to choose next (null: one command left).
function narrowed(commands, picks) {
  const left = commands.filter((c) =>
    picks.every(([path, key]) => JSON.stringify(at(c, path) ?? null) === key),
  );
  for (const [path] of leaves(left[0] || {})) {
    const values = new Set(left.map((c) => JSON.stringify(at(c, path) ?? null)));
    if (values.size > 1) return { left, path };
  }
  return { left, path: null };
}

// state: {narrow: {type, picks}|null, confirm: command|null, choosing: {title, commands}|null}
export function movesPanel({ commands, label, state, redraw, submit, busy }) {
  const box = h("div", { class: "move-list" });
  const play = (command) => {
    state.narrow = null;
    state.confirm = null;
    state.choosing = null;
    submit(command);
  };
  const back = () => {
    state.confirm = null;
    if (state.narrow?.picks.length) state.narrow.picks.pop();
    else {
      state.narrow = null;
      state.choosing = null;
    }
    redraw(true);
  };
  const disabled = busy ? { disabled: true } : {};
  const panel = { box, label, state, redraw, play, back, disabled };
  if (state.confirm) return confirmStep(panel);
  if (state.choosing) return choosingStep(panel);
  const byType = groups(commands);
  if (state.narrow && byType.has(state.narrow.type)) {
    const { type, picks } = state.narrow;
    const { left, path } = narrowed(byType.get(type), picks);
    if (!path) {
      state.confirm = left[0];
      return movesPanel({ commands, label, state, redraw, submit, busy });
    }
    return narrowStep(panel, type, picks, left, path);
  }
  state.narrow = null;
  return kindButtons(panel, byType);
}

// The move chosen, to confirm or go back from.
function confirmStep({ box, label, state, play, back, disabled }) {
  box.append(
    h("p", { class: "confirm-question" }, t("moves.confirm_question", { move: label(state.confirm) })),
    h(
      "div",
      { class: "row" },
      button(t("moves.confirm"), () => play(state.confirm), {
        class: "primary",
        "data-focus": "",
        ...disabled,
      }),
      button(t("moves.back"), back),
    ),
  );
  return box;
}

// A renderer's list of commands (ctx.choose()) to pick one from.
function choosingStep({ box, label, state, redraw, back, disabled }) {
  const { title, commands: offered } = state.choosing;
  box.append(h("p", { class: "step" }, title || t("moves.choose_one")));
  box.append(
    h(
      "div",
      { class: "choices" },
      offered.map((c, i) =>
        button(
          label(c),
          () => {
            state.confirm = c;
            redraw(true);
          },
          { "data-command": JSON.stringify(c), "data-focus": i === 0 ? "" : null, ...disabled },
        ),
      ),
    ),
    button(t("moves.cancel"), back),
  );
  return box;
}

// A kind of move narrowed down: the choices so far, and the next field's values.
function narrowStep({ box, redraw, back, disabled }, type, picks, left, path) {
  const chosen = picks.map(([p, key]) => `${words(p.split(".").pop())} ${valueWords(JSON.parse(key), 1)}`);
  box.append(
    h(
      "p",
      { class: "step" },
      chosen.length
        ? t("moves.choose_field_after", {
            move: capital(words(type)),
            chosen: chosen.join(", "),
            field: words(path.split(".").pop()),
          })
        : t("moves.choose_field", { move: capital(words(type)), field: words(path.split(".").pop()) }),
    ),
  );
  const values = new Map();
  for (const c of left) {
    const key = JSON.stringify(at(c, path) ?? null);
    values.set(key, (values.get(key) || 0) + 1);
  }
  box.append(
    h(
      "div",
      { class: "choices" },
      [...values].map(([key, n], i) =>
        button(
          `${valueWords(JSON.parse(key), 1)}${n > 1 ? ` (${n})` : ""}`,
          () => {
            picks.push([path, key]);
            redraw(true);
          },
          { "data-focus": i === 0 ? "" : null, ...disabled },
        ),
      ),
    ),
    button(t("moves.back"), back),
  );
  return box;
}

// Every kind of move: a button per command for a few, one to narrow down many.
function kindButtons({ box, label, state, redraw, play, disabled }, byType) {
  let first = true;
  for (const [type, group] of byType) {
    if (group.length <= DIRECT) {
      for (const c of group) {
        box.append(
          button(label(c), () => play(c), {
            "data-command": JSON.stringify(c),
            "data-focus": first ? "" : null,
            ...disabled,
          }),
        );
        first = false;
      }
    } else {
      box.append(
        button(
          t("moves.ways", { move: capital(words(type)), count: group.length }),
          () => {
            state.narrow = { type, picks: [] };
            redraw(true);
          },
          { "data-focus": first ? "" : null, ...disabled },
        ),
      );
      first = false;
    }
  }
  return box;
}
