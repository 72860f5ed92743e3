// DOM helpers shared by the pages. Text always goes in as text nodes (never
// innerHTML): player names and game data come from other people.

export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  add(el, kids);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function s(tag, props, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props);
  add(el, kids);
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

export function add(el, kids) {
  for (const kid of [kids].flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

// Replace an element's children (null and false are skipped, strings become text).
export function fill(el, ...kids) {
  el.replaceChildren();
  return add(el, kids);
}

export function button(label, onClick, props = {}) {
  return h("button", { type: "button", ...props, onclick: onClick }, label);
}

// "trick_taken" -> "trick taken"; "tigris.position_leader" -> "position leader".
export function words(text) {
  const raw = String(text ?? "");
  const last = raw.includes(".") ? raw.slice(raw.lastIndexOf(".") + 1) : raw;
  return last
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim();
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

export function ago(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

export function short(hex, n = 12) {
  return hex && hex.length > n ? `${hex.slice(0, n)}…` : hex || "";
}

// A message a person reads, from an API error or anything thrown.
export function reason(err) {
  return err?.message || String(err);
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
