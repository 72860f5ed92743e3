// The app: one page, routed on location.hash. Seat, organiser and player
// tokens ride in the fragment (`#/table/<id>/seat/<n>?token=...`), which
// browsers never send to a server; the pages send them only as
// `Authorization: Bearer`.

import { h } from "./dom.js";
import { LANGUAGES, language, NAMES, setLanguage, t } from "./i18n.js";
import { notice, reason } from "./ui.js";

const ID = "([A-Za-z0-9][A-Za-z0-9_-]*)";
const ROUTES = [
  [/^\/?$/, () => import("./pages/lobby.js"), () => ({})],
  [new RegExp(`^/table/${ID}$`), () => import("./pages/table.js"), (m) => ({ id: m[1] })],
  [
    new RegExp(`^/table/${ID}/seat/(\\d+)$`),
    () => import("./pages/table.js"),
    (m, q) => ({ id: m[1], seat: Number(m[2]), token: q.get("token") }),
  ],
  [
    new RegExp(`^/replay/${ID}$`),
    () => import("./pages/replay.js"),
    (m, q) => ({ id: m[1], step: q.get("step") }),
  ],
  [/^\/tournaments$/, () => import("./pages/tournaments.js"), () => ({})],
  [/^\/organise$/, () => import("./pages/organiser.js"), () => ({})],
  [new RegExp(`^/tournament/${ID}$`), () => import("./pages/tournament.js"), (m) => ({ id: m[1] })],
  [
    new RegExp(`^/tournament/${ID}/organise$`),
    () => import("./pages/organiser.js"),
    (m, q) => ({ id: m[1], token: q.get("token") }),
  ],
  // Players, ladders and arenas (public; an arena's page takes a player key in the fragment).
  [new RegExp(`^/ladder/${ID}$`), () => import("./pages/ladder.js"), (m) => ({ game: m[1] })],
  [new RegExp(`^/players/${ID}$`), () => import("./pages/account.js"), (m) => ({ id: m[1] })],
  [/^\/arenas$/, () => import("./pages/arenas.js"), () => ({})],
  [
    new RegExp(`^/arena/${ID}$`),
    () => import("./pages/arena.js"),
    (m, q) => ({ id: m[1], key: q.get("key") }),
  ],
  [
    new RegExp(`^/tournament/${ID}/player$`),
    () => import("./pages/player.js"),
    (m, q) => ({ id: m[1], token: q.get("token") }),
  ],
];

const main = document.getElementById("app");
let current = null;

// A page's life: aborted (fetches, feeds, timers) when the route changes.
function lifetime() {
  const controller = new AbortController();
  const cleanups = [];
  return {
    signal: controller.signal,
    cleanup(fn) {
      cleanups.push(fn);
    },
    end() {
      controller.abort();
      for (const fn of cleanups.splice(0)) {
        try {
          fn();
        } catch (err) {
          console.error(err);
        }
      }
    },
  };
}

async function route() {
  if (current) current.end();
  current = lifetime();
  const life = current;
  const raw = location.hash.replace(/^#/, "") || "/";
  const cut = raw.indexOf("?");
  const path = cut < 0 ? raw : raw.slice(0, cut);
  const query = new URLSearchParams(cut < 0 ? "" : raw.slice(cut + 1));
  for (const link of document.querySelectorAll("header.top nav a")) {
    const here =
      link.getAttribute("href") === `#${path}` || (path === "/" && link.getAttribute("href") === "#/");
    if (here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = "Ziggurat";
  main.replaceChildren(h("p", { class: "muted" }, t("app.loading")));
  const found = ROUTES.map(([re, load, params]) => [path.match(re), load, params]).find(([m]) => m);
  if (!found) {
    main.replaceChildren(
      notice(t("app.no_page"), "error"),
      h("p", {}, h("a", { href: "#/" }, t("app.to_lobby"))),
    );
    return;
  }
  const [match, load, params] = found;
  try {
    const page = await load();
    if (life.signal.aborted) return;
    await page.default(main, params(match, query), life);
  } catch (err) {
    if (life.signal.aborted) return;
    console.error(err);
    main.replaceChildren(notice(t("app.page_failed", { reason: reason(err) }), "error"));
  }
}

// The shell in the page's language, drawn once: the navigation and the language switcher.
function shell() {
  document.documentElement.lang = language;
  const skip = document.querySelector("[data-skip]");
  if (skip) skip.textContent = t("app.skip");
  const nav = document.querySelector("header.top nav");
  nav?.setAttribute("aria-label", t("nav.label"));
  nav?.replaceChildren(
    h("a", { href: "#/" }, t("nav.lobby")),
    h("a", { href: "#/tournaments" }, t("nav.tournaments")),
    h("a", { href: "#/arenas" }, t("nav.arenas")),
    h("a", { href: "#/organise" }, t("nav.organise")),
  );
  const pick = h(
    "select",
    { id: "language", "data-testid": "language", onchange: (e) => setLanguage(e.target.value) },
    LANGUAGES.map((code) => h("option", { value: code, lang: code }, NAMES[code])),
  );
  pick.value = language;
  document
    .querySelector("header.top")
    ?.append(
      h("label", { class: "language", for: "language" }, h("span", {}, t("language.label")), " ", pick),
    );
}

shell();
document.querySelector("[data-skip]")?.addEventListener("click", (e) => {
  e.preventDefault();
  main.focus();
});
window.addEventListener("hashchange", route);
route();
