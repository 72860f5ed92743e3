// Every tournament, newest first.

import { api } from "../api.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { notice, reason, sleep } from "../ui.js";
import { tournamentList } from "./lobby.js";

export default async function tournamentsPage(main, _params, life) {
  const list = h("div", { "data-testid": "tournaments" }, h("p", { class: "muted" }, t("app.loading")));
  fill(
    main,
    h("h1", {}, t("nav.tournaments")),
    h("p", {}, h("a", { href: "#/organise" }, t("nav.organise"))),
    list,
  );
  document.title = t("tournaments.page_title");
  while (!life.signal.aborted) {
    try {
      const found = await api("/v1/tournaments?limit=100", { signal: life.signal });
      fill(list, tournamentList(found.tournaments));
    } catch (err) {
      if (!life.signal.aborted) fill(list, notice(reason(err), "error"));
    }
    await sleep(5000, life.signal);
  }
}
