// Euphrates & Tigris, the card game: the side panel (whose turn, the conflict,
// moves, the hand, players, the supply, the legend).

import { h, s } from "../../dom.js";
import { capital, plural, seatName } from "../../words.js";
import {
  COLOURS,
  confirmBox,
  DYNASTIES,
  dynastyBadge,
  FILL,
  LEADER_OF,
  LEADERS,
  miniLeader,
  miniSvg,
  redraw,
  scoreRow,
  section,
  send,
  togglePick,
  ztButton,
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
    sec.append(
      ...result.standings.map((st) =>
        h(
          "div",
          {},
          `${st.place}. ${seatName(ctx, st.seat)} — ${st.score}`,
          st.tiebreak?.length ? h("span", { class: "zt-sub" }, ` (then ${st.tiebreak.join(", ")})`) : null,
        ),
      ),
    );
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
  const sec = section(
    `${c.kind === "internal" ? "Internal" : "External"} conflict of the ${LEADER_OF[c.colour]}s`,
  );
  sec.classList.add("zt-conflict");
  const side = (seat, base, played, role) =>
    h(
      "div",
      {},
      h(
        "div",
        { class: "zt-row", style: "justify-content:center" },
        miniLeader(seat, LEADER_OF[c.colour], ctx),
        h("b", {}, seatName(ctx, seat)),
      ),
      h("div", { class: "zt-sub" }, role),
      h("div", { class: "zt-big" }, String(base + (played ?? 0))),
      h(
        "div",
        { class: "zt-sub" },
        `${base} on the table${played === null || played === undefined ? "" : ` + ${played} played`}`,
      ),
    );
  sec.append(
    h(
      "div",
      { class: "zt-vs" },
      side(c.attacker, c.attacker_base, c.attacker_cards, "attacker"),
      h("div", { class: "zt-big" }, "vs"),
      side(c.defender, c.defender_base, c.defender_cards, "defender"),
    ),
  );
  sec.append(
    h(
      "div",
      { class: "zt-hint" },
      c.kind === "internal"
        ? "Support with red cards from hand; a leader on a red card gets +1. Ties go to the defender."
        : `Support with ${c.support} cards from hand, plus the ${c.colour} cards in each side's kingdom (marked with a dot). Ties go to the defender.`,
    ),
  );
  return sec;
}

export function movesSection(view, ctx, seat, p, moves, others, targets, draw) {
  const sec = section("Your move");
  sec.setAttribute("data-zt", "moves");
  const box = h("div", { class: "zt-actions" });
  sec.append(box);
  const choose = (sel, ev) => togglePick(p, sel, draw, ev);
  if (moves.length) {
    box.append(
      h(
        "div",
        { class: "zt-hint" },
        p.sel
          ? `Now click a highlighted place for ${selWords(p.sel)} (Esc to cancel).`
          : "Choose a card from your hand, a leader or your catastrophe, then a highlighted place — or click a highlighted place first.",
      ),
    );
    const row = h("div", { class: "zt-row" });
    for (const leader of LEADERS) {
      const sel = `leader:${leader}`;
      if (!moves.some((m) => m.sel === sel)) continue;
      const onTable = findLeader(view, seat, leader);
      row.append(
        ztButton(
          [miniLeader(seat, leader, ctx), ` ${capital(leader)}${onTable ? " (on the table)" : ""}`],
          (ev) => choose(sel, ev),
          {
            class: "zt-chip",
            "aria-pressed": String(p.sel === sel),
            "data-key": `sel-${sel}`,
            "data-pick": sel,
          },
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      row.append(
        ztButton([catastropheMini(), " Catastrophe"], (ev) => choose("catastrophe", ev), {
          class: "zt-chip",
          "aria-pressed": String(p.sel === "catastrophe"),
          "data-key": "sel-catastrophe",
          "data-pick": "catastrophe",
        }),
      );
    }
    if (row.childNodes.length) box.append(row);
  }
  if (p.target && targets.has(p.target)) {
    box.append(h("div", { class: "zt-hint" }, "Here you may:"));
    for (const cmd of targets.get(p.target)) {
      box.append(
        ztButton(
          label(cmd, ctx),
          () => {
            p.pending = cmd;
            p.target = null;
            redraw(draw);
          },
          { "data-key": `opt-${JSON.stringify(cmd)}`, "data-option": JSON.stringify(cmd) },
        ),
      );
    }
  }
  box.append(confirmBox(p, ctx, (cmd) => label(cmd, ctx), draw));
  for (const cmd of others) {
    box.append(
      ztButton(label(cmd, ctx), () => send(ctx, cmd, p, draw), {
        "data-command": JSON.stringify(cmd),
        "data-key": `cmd-${JSON.stringify(cmd)}`,
      }),
    );
  }
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
    const row = h(
      "div",
      { class: `zt-player${actors.has(pl.seat) ? " zt-turn" : ""}`, "data-seat": String(pl.seat) },
      dynastyBadge(pl.seat, 24),
      h(
        "span",
        { class: "zt-name" },
        seatName(ctx, pl.seat),
        pl.seat === seat ? " (you)" : "",
        h("span", { class: "zt-sub" }, ` · ${DYNASTIES[pl.seat % 4].name}`),
      ),
      h("span", { class: "zt-sub" }, actors.has(pl.seat) ? "▶ to play" : ""),
      h(
        "div",
        { class: "zt-meta" },
        h("span", {}, `${plural(pl.hand_size, "card")} in hand`),
        h("span", {}, pl.catastrophe ? "catastrophe ready" : "catastrophe used"),
        pl.supply.length
          ? h(
              "span",
              { class: "zt-row", title: "leaders in the supply" },
              "supply:",
              ...pl.supply.map((ld) => miniLeader(pl.seat, ld, ctx)),
            )
          : null,
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
  const det = h("details", { class: "zt-sec", open: "" }, h("summary", { class: "zt-sub" }, "Legend"));
  const grid = h("div", { class: "zt-legend" });
  for (const c of COLOURS)
    grid.append(h("div", {}, miniCard(c, 22), `${capital(c)} ${NOUN[c]} · ${LEADER_OF[c]}`));
  grid.append(
    h("div", {}, miniCard("treasure", 22), "Treasure: red, a joker at the end"),
    h("div", {}, miniCard("ship_blue_black", 22), "Ship (blue + a colour)"),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("circle", { cx: 20, cy: 20, r: 17, fill: DYNASTIES[0].ring, stroke: "#111" }),
        s("circle", { cx: 20, cy: 20, r: 12, fill: FILL.black, stroke: "#fff" }),
      ),
      "Leader: fill = role, ring = player",
    ),
    h("div", {}, miniCard(null, 22), "Face-down connector"),
    h(
      "div",
      {},
      miniSvg(
        20,
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
      "Kingdom (joined columns)",
    ),
    h(
      "div",
      {},
      miniSvg(
        20,
        s("rect", {
          x: 3,
          y: 3,
          width: 34,
          height: 34,
          rx: 6,
          fill: "rgba(255,230,90,.5)",
          stroke: "#ffd400",
          "stroke-width": 3,
        }),
      ),
      "Where you may play",
    ),
  );
  det.append(grid);
  return det;
}
