// Tigris & Euphrates: the side panel (whose turn, the conflict, moves, tiles,
// players, kingdoms, the legend).

import { h, s } from "../../dom.js";
import { capital, listWords, plural, seatName } from "../../words.js";
import {
  COLOURS,
  commandButton,
  conflictPanel,
  FILL,
  LEADER_OF,
  LEADERS,
  legendDetails,
  legendItem,
  legendSquare,
  miniLeader,
  miniSvg,
  miniTile,
  movesPanel,
  pickChip,
  placeOptions,
  playerRow,
  redraw,
  scoreRow,
  section,
  send,
  standingRows,
  supplyChips,
  ztButton,
} from "../tigris-common.js";
import { flippedSquares, squareLabel } from "./board.js";
import { GAME_END, label, leaderSquare, supporterColour, TILE, TILES } from "./words.js";

function selWords(sel) {
  if (!sel) return "";
  if (sel === "catastrophe") return "a catastrophe";
  const [kind, what] = sel.split(":");
  return kind === "tile" ? `a ${what} ${TILE[what]}` : `your ${what}`;
}

function awaitedWords(view, ctx, seat, actors) {
  const phase = view.phase || {};
  const you = (s2) => (s2 === seat ? "you" : seatName(ctx, s2));
  switch (phase.kind) {
    case "acting":
      return `${view.active === seat ? "Your turn" : `${seatName(ctx, view.active)}'s turn`} · action ${Math.min(view.actions_done + 1, 2)} of 2`;
    case "support": {
      const waiting =
        phase.attacker_commit === null || phase.attacker_commit === undefined
          ? phase.attacker
          : phase.defender;
      return `${capital(phase.conflict)} of the ${phase.colour} leaders · ${capital(you(waiting))} to commit ${TILES[supporterColour(phase)]}`;
    }
    case "choose_war":
      return `Wars over ${listWords(phase.colours)} · ${capital(you(view.active))} to choose which is fought first`;
    case "choose_monument":
      return `${capital(you(view.active))} may build a monument`;
    case "choose_treasures":
      return `${capital(you(phase.seat))} to take ${plural(phase.count, "treasure")}`;
    case "over":
      return "The game is over";
    default:
      return actors?.length ? `Waiting for ${listWords(actors.map((a) => seatName(ctx, a)))}` : "";
  }
}

export function statusSection(doc, view, ctx, seat) {
  const sec = section("Now");
  sec.setAttribute("data-zt", "status");
  sec.append(h("div", { class: "zt-status" }, awaitedWords(view, ctx, seat, doc.actors)));
  if (doc.over && doc.result) {
    sec.append(
      h("div", { class: "zt-sub" }, `Ended: ${GAME_END[doc.result.reason] || doc.result.reason}.`),
      ...standingRows(doc.result, ctx),
    );
  } else {
    const left = view.treasures.length;
    sec.append(
      h(
        "div",
        { class: "zt-sub" },
        `${plural(view.bag_count, "tile")} in the bag · ${plural(left, "treasure")} on the board`,
      ),
    );
  }
  return sec;
}

export function conflictSection(view, ctx) {
  const phase = view.phase;
  return conflictPanel(
    `${capital(phase.conflict)} of the ${LEADER_OF[phase.colour]}s`,
    ctx,
    LEADER_OF[phase.colour],
    [phase.attacker, phase.attacker_base, phase.attacker_commit],
    [phase.defender, phase.defender_base, null],
    { place: "board", added: "committed" },
    `Supporters are ${TILES[supporterColour(phase)]} (${phase.conflict === "revolt" ? "beside each leader" : "in each leader's kingdom"}, marked with a dot in the player's colour). Ties go to the defender.`,
  );
}

function pickHint(p) {
  return p.sel
    ? `Now click a highlighted square for ${selWords(p.sel)} (or walk them with the arrow keys and press Enter; Esc to cancel).`
    : "Choose a tile from your hand, a leader or a catastrophe, then a highlighted square — or click a highlighted square first.";
}

export function movesSection(_doc, view, ctx, seat, p, moves, others, targets, draw) {
  const phase = view.phase || {};
  const [sec, box] = movesPanel(moves.length ? pickHint(p) : null);
  if (moves.length) {
    // Leaders and the catastrophe (tiles are chosen in the hand below).
    const leaderRow = h("div", { class: "zt-row" });
    for (const leader of LEADERS) {
      const sel = `leader:${leader}`;
      if (!moves.some((m) => m.sel === sel)) continue;
      const at = leaderSquare(view, seat, leader);
      leaderRow.append(
        pickChip(
          [
            miniLeader(seat, leader, ctx),
            ` ${capital(leader)}${at === null || at === undefined ? "" : ` (${squareLabel(at)})`}`,
          ],
          sel,
          p,
          draw,
          { title: `Position or move your ${leader}` },
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      const left = view.catastrophes_left[seat];
      leaderRow.append(
        pickChip([miniSvg(22, ...catastrophe(5)), ` Catastrophe (${left} left)`], "catastrophe", p, draw),
      );
    }
    if (leaderRow.childNodes.length) box.append(leaderRow);
  }
  const describe = (cmd) => label(cmd, ctx);
  placeOptions(box, p, ctx, targets, describe, (at) => `At ${squareLabel(at)} you may:`, draw);

  // Everything that is not a square: buttons, worded by label().
  const swaps = others.filter((c) => c.type === "tigris.swap_tiles");
  for (const cmd of others) {
    if (cmd.type !== "tigris.swap_tiles") box.append(commandButton(cmd, ctx, p, describe, draw));
  }
  if (swaps.length) box.append(swapBox(view, ctx, p, swaps, draw));
  if (phase.kind === "choose_treasures")
    box.append(h("div", { class: "zt-hint" }, "The treasures you may take are circled on the board."));
  if (phase.kind === "choose_monument")
    box.append(
      h("div", { class: "zt-hint" }, "The square where a monument may stand is outlined on the board."),
    );
  return sec;
}

// Swapping: choose how many of each colour to give back, then swap.
function swapBox(view, ctx, p, swaps, draw) {
  p.extra.swap ||= { red: 0, blue: 0, green: 0, black: 0 };
  const counts = p.extra.swap;
  const wrap = h("details", { class: "zt-swap", open: p.extra.swapOpen ? "" : null });
  wrap.addEventListener("toggle", () => {
    p.extra.swapOpen = wrap.open;
  });
  wrap.append(h("summary", { class: "zt-btn", "data-key": "swap-open" }, "Swap tiles…"));
  const row = h("div", { class: "zt-row", style: "margin:6px 0" });
  for (const [i, c] of COLOURS.entries()) {
    const held = view.hand ? view.hand[i] : 0;
    if (!held) continue;
    row.append(
      h(
        "span",
        { class: "zt-chip" },
        miniTile(c, 18),
        ztButton(
          "−",
          () => {
            counts[c] = Math.max(0, counts[c] - 1);
            redraw(draw);
          },
          { "aria-label": `one ${c} fewer`, "data-key": `swap-${c}-minus`, style: "padding:0 6px" },
        ),
        h("span", {}, `${counts[c]}/${held}`),
        ztButton(
          "+",
          () => {
            counts[c] = Math.min(held, counts[c] + 1);
            redraw(draw);
          },
          {
            "aria-label": `one ${c} more`,
            "data-key": `swap-${c}-plus`,
            "data-held": String(held),
            style: "padding:0 6px",
          },
        ),
      ),
    );
  }
  const cmd = swaps.find((x) => COLOURS.every((c) => (x[c] || 0) === counts[c]));
  wrap.append(
    row,
    ztButton(cmd ? label(cmd, ctx) : "Choose tiles to swap", () => cmd && send(ctx, cmd, p, draw), {
      class: "zt-btn zt-primary",
      disabled: cmd ? null : "",
      "data-command": cmd ? JSON.stringify(cmd) : null,
      "data-key": "swap-go",
    }),
  );
  return wrap;
}

export function playersSection(doc, view, ctx, seat) {
  const sec = section("Players");
  const scores = new Map((view.scores || []).map((sc) => [sc.seat, sc]));
  const actors = new Set(doc.actors || []);
  for (let pl = 0; pl < view.seats; pl++) {
    const supply = LEADERS.filter(
      (_, i) => view.leaders[pl][i] === null || view.leaders[pl][i] === undefined,
    );
    const sc = scores.get(pl);
    const row = playerRow(
      pl,
      seat,
      actors,
      ctx,
      h("span", {}, `${plural(view.hand_counts[pl], "tile")} in hand`),
      h("span", {}, `${plural(view.catastrophes_left[pl], "catastrophe")} left`),
      supplyChips(pl, supply, ctx),
      sc
        ? scoreRow(sc.points, sc.treasures, `${seatName(ctx, pl)}'s points per colour and treasures`)
        : h("span", { title: "points are kept behind the player's screen" }, "points hidden"),
    );
    sec.append(row);
  }
  return sec;
}

export function kingdomsSection(kingdoms, view, ctx) {
  const sec = section("Kingdoms");
  const list = h("div", { class: "zt-kingdoms" });
  const down = flippedSquares(view);
  kingdoms.forEach((k, i) => {
    const counts = COLOURS.map((c) => k.members.filter((m) => view.tiles[m] === c && !down.has(m)).length);
    list.append(
      h("span", { class: "zt-num" }, String(i + 1)),
      h("span", { class: "zt-lds" }, ...k.leaders.map(([, owner, leader]) => miniLeader(owner, leader, ctx))),
      scoreRow(
        counts,
        null,
        `tiles in kingdom ${i + 1}: ${COLOURS.map((c, j) => `${counts[j]} ${c}`).join(", ")}`,
      ),
    );
  });
  sec.append(list);
  return sec;
}

// The catastrophe tile's drawing (corners rounded by `rx`).
function catastrophe(rx) {
  return [
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx, fill: "#3b312b" }),
    s("path", {
      d: "M9 9L18 19L14 22L22 32M31 9L24 16L27 20L19 31",
      fill: "none",
      stroke: "#ff8a3d",
      "stroke-width": 3,
    }),
  ];
}

export function legendSection() {
  return legendDetails(
    (c) => h("div", {}, miniTile(c, 20), `${capital(c)} ${TILE[c]} · ${LEADER_OF[c]}`),
    [],
    [
      legendItem(
        "Treasure (dashed gold: corner)",
        s("path", { d: "M20 4L34 20L20 36L6 20Z", fill: "#ffd23f", stroke: "#6b4b00", "stroke-width": 2 }),
      ),
      legendItem("Catastrophe", ...catastrophe(4)),
      legendItem(
        "River: farms only",
        s("rect", { x: 2, y: 2, width: 36, height: 36, fill: "#86bde3" }),
        s("path", {
          d: "M6 15q5 -4 9 0t9 0t9 0M6 27q5 -4 9 0t9 0t9 0",
          fill: "none",
          stroke: "#e3f1fb",
          "stroke-width": 2,
        }),
      ),
      legendItem(
        "Monument (its two colours)",
        legendSquare(3, "#d9c9a2", "#3a2c1a", 2),
        s("rect", { x: 9, y: 22, width: 22, height: 9, fill: FILL.red }),
        s("rect", { x: 13, y: 13, width: 14, height: 9, fill: FILL.blue }),
      ),
      legendItem(
        "Kingdom (numbered)",
        s("path", { d: "M4 4H36V36H4Z", fill: "none", stroke: "#6b3f0c", "stroke-width": 4 }),
        s("circle", { cx: 10, cy: 10, r: 6, fill: "#6b3f0c" }),
      ),
      legendItem(
        "Unification tile (war)",
        legendSquare(5, "#fff8e8", "#b22", 3),
        s("path", { d: "M10 20H30M20 10V30", stroke: "#b22", "stroke-width": 3 }),
      ),
    ],
  );
}
