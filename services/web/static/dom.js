// DOM helpers for the pages and every game's renderer. Text always goes in as
// text nodes (never innerHTML): player names and game data come from other people.

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
    else el.setAttribute(key, value === true ? presence(key) : String(value));
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

// `true` as an attribute's value: "true" where the attribute is a word
// (aria-pressed=true is what assistive technology and the styles read), the
// bare attribute where its presence is the meaning (disabled, hidden, open).
function presence(key) {
  return key.startsWith("aria-") || key === "draggable" || key === "contenteditable" ? "true" : "";
}

// An SVG <title>: the tooltip and accessible name of what it is put in.
export function title(text) {
  return s("title", {}, text);
}

// Put an SVG <title> in `node`; returns `node`.
export function titled(node, text) {
  node.append(title(text));
  return node;
}

// The drawing code's form: make an SVG element and append it to `parent` (when given).
export function svgInto(tag, attrs, parent) {
  const node = s(tag, attrs);
  if (parent) parent.append(node);
  return node;
}

// The same for HTML, with `text` as its text (when given).
export function htmlInto(tag, attrs, parent, text) {
  const node = h(tag, attrs);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}
