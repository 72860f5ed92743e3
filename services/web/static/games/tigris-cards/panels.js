// Euphrates & Tigris, the card game: the side panel (whose turn, the conflict,
// moves, the hand, players, the supply, the legend).

import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { capital, seatName } from "../../words.js";
import {
  colourName,
  commandButton,
  conflictPanel,
  LEADER_OF,
  LEADERS,
  leaderName,
  legendDetails,
  legendItem,
  miniLeader,
  miniSvg,
  movesPanel,
  pickChip,
  placeOptions,
  playerRow,
  scoreRow,
  section,
  standingRows,
  supplyChips,
} from "../tigris-common.js";
import { CH, CW, cardShape } from "./board.js";
import { cardNoun, cards, cardsKind, findLeader, label, phaseWords, shipName } from "./words.js";

function selWords(sel) {
  if (sel === "catastrophe") return t("tcards.sel_catastrophe");
  const [kind, what] = sel.split(":");
  return kind === "card" ? cards(what, 1) : t("tigris.sel_leader", { leader: leaderName(what) });
}

export function statusSection(doc, view, ctx, seat) {
  const sec = section(t("tigris.now"));
  sec.setAttribute("data-zt", "status");
  const phase = view.phase || {};
  let text = phaseWords(phase, ctx, seat);
  if (phase.step === "act")
    text =
      phase.seat === seat
        ? t("tcards.now_you_act", { count: view.actions_left })
        : t("tcards.now_acts", { name: seatName(ctx, phase.seat), count: view.actions_left });
  sec.append(h("div", { class: "zt-status" }, text));
  const result = doc.result || view.result;
  if (doc.over && result) {
    sec.append(...standingRows(result, ctx));
  } else {
    const treasures = view.columns.filter((c) => c[0].card === "treasure").length;
    sec.append(
      h(
        "div",
        { class: "zt-sub" },
        t("tcards.in_pile", { count: view.deck_size }),
        " · ",
        t("tcards.on_table", { count: treasures }),
      ),
    );
  }
  return sec;
}

export function conflictSection(view, ctx) {
  const c = view.conflict;
  return conflictPanel(
    c.kind === "internal"
      ? t("tcards.internal_of", { leader: leaderName(LEADER_OF[c.colour]) })
      : t("tcards.external_of", { leader: leaderName(LEADER_OF[c.colour]) }),
    ctx,
    LEADER_OF[c.colour],
    [c.attacker, c.attacker_base, c.attacker_cards],
    [c.defender, c.defender_base, c.defender_cards],
    (base, added) =>
      added === null
        ? t("tcards.side_table", { count: base })
        : t("tcards.side_table_played", { count: base, added }),
    c.kind === "internal"
      ? t("tcards.support_internal")
      : t("tcards.support_external", { support: cardsKind(c.support), colour: cardsKind(c.colour) }),
  );
}

function pickHint(p) {
  return p.sel ? t("tcards.hint_place", { what: selWords(p.sel) }) : t("tcards.hint_pick");
}

export function movesSection(view, ctx, seat, p, moves, others, targets, draw) {
  const [sec, box] = movesPanel(moves.length ? pickHint(p) : null);
  if (moves.length) {
    const row = h("div", { class: "zt-row" });
    for (const leader of LEADERS) {
      const sel = `leader:${leader}`;
      if (!moves.some((m) => m.sel === sel)) continue;
      const onTable = findLeader(view, seat, leader);
      row.append(
        pickChip(
          [
            miniLeader(seat, leader, ctx),
            " ",
            onTable
              ? t("tcards.leader_on_table", { leader: capital(leaderName(leader)) })
              : capital(leaderName(leader)),
          ],
          sel,
          p,
          draw,
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      row.append(pickChip([catastropheMini(), " ", t("tcards.catastrophe")], "catastrophe", p, draw));
    }
    if (row.childNodes.length) box.append(row);
  }
  const describe = (cmd) => label(cmd, ctx);
  placeOptions(box, p, ctx, targets, describe, () => t("tcards.here"), draw);
  for (const cmd of others) box.append(commandButton(cmd, ctx, p, describe, draw));
  const phase = view.phase || {};
  if (phase.step === "treasure_offer") box.append(h("div", { class: "zt-hint" }, t("tcards.hint_treasures")));
  if (phase.step === "ship_offer")
    box.append(
      h(
        "div",
        { class: "zt-hint" },
        t("tcards.hint_ship", { colour: colourName(phase.colour), c: String(phase.column + 1) }),
      ),
    );
  return sec;
}

function catastropheMini() {
  return miniSvg(
    22,
    s("rect", { x: 4, y: 2, width: 32, height: 36, rx: 5, fill: "#3b312b" }),
    s("path", {
      d: "M11 9L19 19L15 22L22 32M30 9L24 16L27 20L19 31",
      fill: "none",
      stroke: "#ff8a3d",
      "stroke-width": 3,
    }),
  );
}

export function miniCard(card, size = 24) {
  const k = 40 / CW;
  return miniSvg(
    size,
    s("g", { transform: `translate(0 ${(40 - CH * k) / 2}) scale(${k})` }, cardShape(0, 0, card)),
  );
}

export function playersSection(doc, view, ctx, seat) {
  const sec = section(t("tigris.players"));
  const actors = new Set(doc.actors || []);
  for (const pl of view.players) {
    const row = playerRow(
      pl.seat,
      seat,
      actors,
      ctx,
      h("span", {}, t("tcards.in_hand", { count: pl.hand_size })),
      h("span", {}, pl.catastrophe ? t("tcards.catastrophe_ready") : t("tcards.catastrophe_used")),
      supplyChips(pl.seat, pl.supply, ctx),
      pl.vp_open
        ? h(
            "span",
            { class: "zt-row" },
            t("tcards.vp"),
            scoreRow(pl.vp_open.points, pl.vp_open.treasures, t("tcards.vp_tip")),
          )
        : h(
            "span",
            { class: "zt-row", title: t("tcards.vp_top_tip") },
            t("tcards.vp_top"),
            pl.vp_top ? miniCard(pl.vp_top, 22) : [" ", t("tcards.empty")],
          ),
    );
    sec.append(row);
  }
  return sec;
}

export function supplySection(view) {
  const sec = section(t("tcards.table"));
  sec.append(
    h(
      "div",
      { class: "zt-row" },
      t("tcards.ships"),
      ...(view.ships.length
        ? view.ships.map((sh) =>
            h("span", { class: "zt-chip", title: shipName(sh) }, miniCard(sh, 24), " ", shipName(sh)),
          )
        : [t("tcards.none_left")]),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-row", style: "margin-top:4px" },
      t("tcards.discarded"),
      scoreRow(view.discard, null, t("tcards.discard_tip")),
    ),
  );
  const extra = [t("tcards.in_pile", { count: view.deck_size })];
  if (view.set_aside) extra.push(t("tcards.set_aside", { count: view.set_aside }));
  sec.append(h("div", { class: "zt-sub", style: "margin-top:4px" }, extra.join(" · ")));
  return sec;
}

export function legendSection() {
  return legendDetails(
    (c) =>
      h(
        "div",
        {},
        miniCard(c, 22),
        t("tcards.legend_colour", {
          colour: capital(colourName(c)),
          noun: cardNoun(c),
          leader: leaderName(LEADER_OF[c]),
        }),
      ),
    [
      h("div", {}, miniCard("treasure", 22), t("tcards.legend_treasure")),
      h("div", {}, miniCard("ship_blue_black", 22), t("tcards.legend_ship")),
    ],
    [
      h("div", {}, miniCard(null, 22), t("tcards.legend_connector")),
      legendItem(
        t("tcards.legend_kingdom"),
        s("rect", {
          x: 2,
          y: 6,
          width: 36,
          height: 28,
          rx: 6,
          fill: "#f7efd8",
          stroke: "#7a4a12",
          "stroke-width": 3,
        }),
      ),
    ],
  );
}
