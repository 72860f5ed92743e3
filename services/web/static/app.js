// The app: one page, routed on location.hash. Seat, organiser and player
// tokens ride in the fragment (`#/table/<id>/seat/<n>?token=...`), which
// browsers never send to a server; the pages send them only as
// `Authorization: Bearer`.

import { h } from "./dom.js";
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
  main.replaceChildren(h("p", { class: "muted" }, "Loading…"));
  const found = ROUTES.map(([re, load, params]) => [path.match(re), load, params]).find(([m]) => m);
  if (!found) {
    main.replaceChildren(
      notice("There is no page at this address.", "error"),
      h("p", {}, h("a", { href: "#/" }, "Go to the lobby")),
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
    main.replaceChildren(notice(`This page failed: ${reason(err)}`, "error"));
  }
}

document.querySelector("[data-skip]")?.addEventListener("click", (e) => {
  e.preventDefault();
  main.focus();
});
window.addEventListener("hashchange", route);
route();
