// The fallback renderer for any game: the view document as a readable tree.
// Its legal moves are listed by the page itself, as buttons in the side panel.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { genericLabel, genericSentence, seatName, words } from "../words.js";

const COLLAPSE_AT = 24;

export function render(root, doc, ctx) {
  const parts = [h("h2", { class: "sr-only" }, t("generic.table"))];
  if (doc.view === null || doc.view === undefined) parts.push(h("p", {}, t("generic.nothing")));
  else parts.push(tree(doc.view, ctx, 0));
  root.replaceChildren(h("div", { class: "generic-view" }, parts));
}

export function describe(event, ctx) {
  return genericSentence(event, ctx);
}

export function label(command) {
  return genericLabel(command);
}

function scalar(value, key, ctx) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "hidden or none");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" && /^(seat|active|to_play|player|owner|turn_of|winner)$/.test(key || "")) {
    return `${seatName(ctx, value)} (${value})`;
  }
  if (typeof value === "string") return words(value) || "—";
  return String(value);
}

function tree(value, ctx, depth, key) {
  if (value === null || typeof value !== "object") return scalar(value, key, ctx);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) {
      const text = h(
        "span",
        {},
        value.map((v) => (v === null ? "—" : typeof v === "string" ? words(v) : String(v))).join(", "),
      );
      return value.length > COLLAPSE_AT ? fold(t("generic.items", { count: value.length }), text) : text;
    }
    const list = h(
      "ol",
      { start: 0 },
      value.map((v) => h("li", {}, tree(v, ctx, depth + 1))),
    );
    return value.length > COLLAPSE_AT || depth > 1
      ? fold(t("generic.items", { count: value.length }), list)
      : list;
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", { class: "muted" }, "none");
  return h(
    "dl",
    { class: "tree" },
    entries.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, tree(v, ctx, depth + 1, k))]),
  );
}

function fold(summary, body) {
  return h("details", {}, h("summary", {}, summary), body);
}
