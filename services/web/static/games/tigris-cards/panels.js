// Euphrates & Tigris, the card game: the side panel (whose turn, the conflict,
// moves, the hand, players, the supply, the legend).

import { h, s } from "../../dom.js";
import { capital, plural, seatName } from "../../words.js";
import {
  commandButton,
  conflictPanel,
  LEADER_OF,
  LEADERS,
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
import { findLeader, label, NOUN, phaseWords, SHIP_OTHER, shipName } from "./words.js";

function selWords(sel) {
  if (sel === "catastrophe") return "your catastrophe";
  const [kind, what] = sel.split(":");
  return kind === "card" ? `a ${what} card` : `your ${what}`;
}

export function statusSection(doc, view, ctx, seat) {
  const sec = section("Now");
  sec.setAttribute("data-zt", "status");
  const phase = view.phase || {};
  const who = (x) => (x === seat ? "You" : seatName(ctx, x));
  let text = phaseWords(phase, who);
  if (phase.step === "act")
    text = `${phase.seat === seat ? "Your turn" : `${seatName(ctx, phase.seat)}'s turn`} · ${plural(view.actions_left, "action")} left`;
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
        `${plural(view.deck_size, "card")} in the draw pile · ${plural(treasures, "treasure")} on the table`,
      ),
    );
  }
  return sec;
}

export function conflictSection(view, ctx) {
  const c = view.conflict;
  return conflictPanel(
    `${c.kind === "internal" ? "Internal" : "External"} conflict of the ${LEADER_OF[c.colour]}s`,
    ctx,
    LEADER_OF[c.colour],
    [c.attacker, c.attacker_base, c.attacker_cards],
    [c.defender, c.defender_base, c.defender_cards],
    { place: "table", added: "played" },
    c.kind === "internal"
      ? "Support with red cards from hand; a leader on a red card gets +1. Ties go to the defender."
      : `Support with ${c.support} cards from hand, plus the ${c.colour} cards in each side's kingdom (marked with a dot). Ties go to the defender.`,
  );
}

function pickHint(p) {
  return p.sel
    ? `Now click a highlighted place for ${selWords(p.sel)} (Esc to cancel).`
    : "Choose a card from your hand, a leader or your catastrophe, then a highlighted place — or click a highlighted place first.";
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
          [miniLeader(seat, leader, ctx), ` ${capital(leader)}${onTable ? " (on the table)" : ""}`],
          sel,
          p,
          draw,
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      row.append(pickChip([catastropheMini(), " Catastrophe"], "catastrophe", p, draw));
    }
    if (row.childNodes.length) box.append(row);
  }
  const describe = (cmd) => label(cmd, ctx);
  placeOptions(box, p, ctx, targets, describe, () => "Here you may:", draw);
  for (const cmd of others) box.append(commandButton(cmd, ctx, p, describe, draw));
  const phase = view.phase || {};
  if (phase.step === "treasure_offer")
    box.append(h("div", { class: "zt-hint" }, "The treasures you may take are outlined on the table."));
  if (phase.step === "ship_offer")
    box.append(
      h(
        "div",
        { class: "zt-hint" },
        `Building discards the bottom ${phase.colour} series of column ${phase.column + 1} (outlined).`,
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
  const sec = section("Players");
  const actors = new Set(doc.actors || []);
  for (const pl of view.players) {
    const row = playerRow(
      pl.seat,
      seat,
      actors,
      ctx,
      h("span", {}, `${plural(pl.hand_size, "card")} in hand`),
      h("span", {}, pl.catastrophe ? "catastrophe ready" : "catastrophe used"),
      supplyChips(pl.seat, pl.supply, ctx),
      pl.vp_open
        ? h(
            "span",
            { class: "zt-row" },
            "VP:",
            scoreRow(pl.vp_open.points, pl.vp_open.treasures, "VP pile per colour, and treasures (jokers)"),
          )
        : h(
            "span",
            { class: "zt-row", title: "only the top card of a VP pile is seen" },
            "VP pile top:",
            pl.vp_top ? miniCard(pl.vp_top, 22) : " empty",
          ),
    );
    sec.append(row);
  }
  return sec;
}

export function supplySection(view) {
  const sec = section("Table");
  sec.append(
    h(
      "div",
      { class: "zt-row" },
      "Ships to build:",
      ...(view.ships.length
        ? view.ships.map((sh) =>
            h("span", { class: "zt-chip", title: shipName(sh) }, miniCard(sh, 24), ` blue–${SHIP_OTHER[sh]}`),
          )
        : ["none left"]),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-row", style: "margin-top:4px" },
      "Discarded:",
      scoreRow(view.discard, null, "cards out of play per colour"),
    ),
  );
  const extra = [`${plural(view.deck_size, "card")} in the draw pile`];
  if (view.set_aside) extra.push(`${plural(view.set_aside, "card")} set aside unseen`);
  sec.append(h("div", { class: "zt-sub", style: "margin-top:4px" }, extra.join(" · ")));
  return sec;
}

export function legendSection() {
  return legendDetails(
    (c) => h("div", {}, miniCard(c, 22), `${capital(c)} ${NOUN[c]} · ${LEADER_OF[c]}`),
    [
      h("div", {}, miniCard("treasure", 22), "Treasure: red, a joker at the end"),
      h("div", {}, miniCard("ship_blue_black", 22), "Ship (blue + a colour)"),
    ],
    [
      h("div", {}, miniCard(null, 22), "Face-down connector"),
      legendItem(
        "Kingdom (joined columns)",
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
