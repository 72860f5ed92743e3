// What the pages share besides the DOM (dom.js) and words (words.js): times,
// errors, notices, and the tokens this browser remembers.

import { h } from "./dom.js";
import { date, has, t } from "./i18n.js";

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

export function ago(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return t("ago.seconds", { n: seconds });
  if (seconds < 3600) return t("ago.minutes", { n: Math.round(seconds / 60) });
  if (seconds < 86400) return t("ago.hours", { n: Math.round(seconds / 3600) });
  return date(ms);
}

export function short(hex, n = 12) {
  return hex && hex.length > n ? `${hex.slice(0, n)}…` : hex || "";
}

// A message a person reads, from an API error (or a refusal's body) or anything
// thrown: the client's own sentence for a platform code (services/gateway/errors.py)
// or a game's rule code (the API's message stays English), else the message.
export function reason(err) {
  if (err?.code && has(`error.${err.code}`)) return t(`error.${err.code}`);
  // A game's rule (shared/kernel/rejection.py, shared/games/*/rejections.py): the client's words too.
  if (err?.code && has(`rule.${err.code}`)) return t(`rule.${err.code}`);
  return err?.message || err?.code || String(err);
}

export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID().replaceAll("-", "");
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

// Tokens this browser holds (the seats it opened, the tournaments it runs or
// plays in), so the lobby can lead back to them. They stay on this device.
const STORE = "ziggurat";

export function remembered() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

export function remember(update) {
  const all = remembered();
  update(all);
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    // Private mode or a full store: links still work, they are just not listed.
  }
}
