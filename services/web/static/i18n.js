// The pages' languages: English, Finnish and Hungarian. One catalogue per
// language (locales/<code>.json), loaded before any page draws; t() looks a key
// up and fills its {named} placeholders. A value that is an object holds plural
// forms chosen by Intl.PluralRules on the `count` parameter. Numbers are
// formatted for the language (a number that names something, a version or an
// id, goes in as a string); whole sentences live in the catalogue, so each
// language keeps its own word order. A key missing from a catalogue falls back
// to English (tests/web/test_catalogues.py keeps every catalogue complete).

export const LANGUAGES = ["en", "fi", "hu"];
// Each language by its own name, as a switcher lists them whatever the page's language.
export const NAMES = { en: "English", fi: "Suomi", hu: "Magyar" };
const STORE = "ziggurat.language";
// Intl's locale per language: British English writes lists without the serial comma.
const LOCALE = { en: "en-GB", fi: "fi-FI", hu: "hu-HU" };

// The remembered choice, else the browser's first language we speak, else English.
function chosen() {
  try {
    const kept = localStorage.getItem(STORE);
    if (LANGUAGES.includes(kept)) return kept;
  } catch {
    // No storage (private mode): the browser's languages decide.
  }
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

async function fetchCatalogue(code) {
  const response = await fetch(new URL(`./locales/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`The ${code} catalogue did not load (${response.status}).`);
  return response.json();
}

export const language = chosen();
export const locale = LOCALE[language];
const english = await fetchCatalogue("en");
const catalogue = language === "en" ? english : await fetchCatalogue(language).catch(() => english);
const plurals = new Intl.PluralRules(locale);
const ordinals = new Intl.PluralRules(locale, { type: "ordinal" });
const numbers = new Intl.NumberFormat(locale);

export function setLanguage(code) {
  if (!LANGUAGES.includes(code)) return;
  try {
    localStorage.setItem(STORE, code);
  } catch {
    // Not remembered; this page still switches.
  }
  location.reload();
}

export function has(key) {
  return Object.hasOwn(english, key);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value ?? "");
  });
}

function form(entry, params, rules) {
  if (typeof entry === "string") return entry;
  const count = Number(params.count ?? params.n ?? 0);
  return entry[rules.select(count)] ?? entry.other;
}

// t(key, { count: 3 }): the sentence in the page's language.
export function t(key, params = {}) {
  const entry = Object.hasOwn(catalogue, key) ? catalogue[key] : english[key];
  if (entry === undefined) {
    console.warn("no catalogue key", key);
    return key;
  }
  return fill(form(entry, params, key.startsWith("ordinal") ? ordinals : plurals), params);
}

export function number(n, options) {
  return options ? new Intl.NumberFormat(locale, options).format(n) : numbers.format(n);
}

// A rating or a mean: a fixed number of decimals, in the language's notation.
export function decimal(n, digits = 2) {
  return number(n, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function date(ms, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(locale, options).format(new Date(ms));
}

// ["a", "b", "c"] -> "a, b and c" / "a, b ja c" / "a, b és c".
export function list(items, type = "conjunction") {
  return new Intl.ListFormat(locale, { type }).format(items.map(String));
}
