// Tigris & Euphrates: the side panel (whose turn, the conflict, moves, tiles,
// players, kingdoms, the legend).

import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { capital, listWords, seatName } from "../../words.js";
import {
  COLOURS,
  colourName,
  commandButton,
  conflictPanel,
  FILL,
  LEADER_OF,
  LEADERS,
  leaderName,
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
import {
  conflictName,
  gameEndWords,
  label,
  leaderSquare,
  supporterColour,
  tileName,
  tilesName,
  tileWords,
} from "./words.js";

function selWords(sel) {
  if (!sel) return "";
  if (sel === "catastrophe") return t("tigris.sel_catastrophe");
  const [kind, what] = sel.split(":");
  return kind === "tile" ? tileWords(what, 1) : t("tigris.sel_leader", { leader: leaderName(what) });
}

function awaitedWords(view, ctx, seat, actors) {
  const phase = view.phase || {};
  // Whose decision it is: "you" and another player are sentences of their own.
  const mine = (s2) => s2 === seat;
  const name = (s2) => seatName(ctx, s2);
  switch (phase.kind) {
    case "acting": {
      const n = String(Math.min(view.actions_done + 1, 2));
      return mine(view.active)
        ? t("tigris.now_you_act", { n })
        : t("tigris.now_acts", { n, name: name(view.active) });
    }
    case "support": {
      const waiting =
        phase.attacker_commit === null || phase.attacker_commit === undefined
          ? phase.attacker
          : phase.defender;
      const params = {
        conflict: capital(conflictName(phase.conflict)),
        colour: colourName(phase.colour),
        tiles: tilesName(supporterColour(phase)),
      };
      return mine(waiting)
        ? t("tigris.now_you_support", params)
        : t("tigris.now_supports", { ...params, name: name(waiting) });
    }
    case "choose_war": {
      const colours = listWords(phase.colours.map(colourName));
      return mine(view.active)
        ? t("tigris.now_you_war", { colours })
        : t("tigris.now_war", { colours, name: name(view.active) });
    }
    case "choose_monument":
      return mine(view.active)
        ? t("tigris.now_you_monument")
        : t("tigris.now_monument", { name: name(view.active) });
    case "choose_treasures":
      return mine(phase.seat)
        ? t("tigris.now_you_treasures", { count: phase.count })
        : t("tigris.now_treasures", { count: phase.count, name: name(phase.seat) });
    case "over":
      return t("tigris.now_over");
    default:
      return actors?.length
        ? t("tigris.now_waiting", { names: listWords(actors.map((a) => seatName(ctx, a))) })
        : "";
  }
}

export function statusSection(doc, view, ctx, seat) {
  const sec = section(t("tigris.now"));
  sec.setAttribute("data-zt", "status");
  sec.append(h("div", { class: "zt-status" }, awaitedWords(view, ctx, seat, doc.actors)));
  if (doc.over && doc.result) {
    sec.append(
      h("div", { class: "zt-sub" }, t("tigris.ended", { why: gameEndWords(doc.result.reason) })),
      ...standingRows(doc.result, ctx),
    );
  } else {
    const left = view.treasures.length;
    sec.append(
      h(
        "div",
        { class: "zt-sub" },
        t("tigris.in_bag", { count: view.bag_count }),
        " · ",
        t("tigris.on_board", { count: left }),
      ),
    );
  }
  return sec;
}

export function conflictSection(view, ctx) {
  const phase = view.phase;
  return conflictPanel(
    t("tigris.conflict_of", {
      conflict: capital(conflictName(phase.conflict)),
      leader: leaderName(LEADER_OF[phase.colour]),
    }),
    ctx,
    LEADER_OF[phase.colour],
    [phase.attacker, phase.attacker_base, phase.attacker_commit],
    [phase.defender, phase.defender_base, null],
    (base, added) =>
      added === null
        ? t("tigris.side_board", { count: base })
        : t("tigris.side_board_committed", { count: base, added }),
    phase.conflict === "revolt"
      ? t("tigris.supporters_revolt", { tiles: tilesName(supporterColour(phase)) })
      : t("tigris.supporters_war", { tiles: tilesName(supporterColour(phase)) }),
  );
}

function pickHint(p) {
  return p.sel ? t("tigris.hint_square", { what: selWords(p.sel) }) : t("tigris.hint_pick");
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
            " ",
            at === null || at === undefined
              ? capital(leaderName(leader))
              : t("tigris.leader_at", { leader: capital(leaderName(leader)), square: squareLabel(at) }),
          ],
          sel,
          p,
          draw,
          { title: t("tigris.leader_tip", { leader: leaderName(leader) }) },
        ),
      );
    }
    if (moves.some((m) => m.sel === "catastrophe")) {
      const left = view.catastrophes_left[seat];
      leaderRow.append(
        pickChip(
          [miniSvg(22, ...catastrophe(5)), " ", t("tigris.catastrophe_left", { count: left })],
          "catastrophe",
          p,
          draw,
        ),
      );
    }
    if (leaderRow.childNodes.length) box.append(leaderRow);
  }
  const describe = (cmd) => label(cmd, ctx);
  placeOptions(
    box,
    p,
    ctx,
    targets,
    describe,
    (at) => t("tigris.at_square", { square: squareLabel(at) }),
    draw,
  );

  // Everything that is not a square: buttons, worded by label().
  const swaps = others.filter((c) => c.type === "tigris.swap_tiles");
  for (const cmd of others) {
    if (cmd.type !== "tigris.swap_tiles") box.append(commandButton(cmd, ctx, p, describe, draw));
  }
  if (swaps.length) box.append(swapBox(view, ctx, p, swaps, draw));
  if (phase.kind === "choose_treasures")
    box.append(h("div", { class: "zt-hint" }, t("tigris.hint_treasures")));
  if (phase.kind === "choose_monument") box.append(h("div", { class: "zt-hint" }, t("tigris.hint_monument")));
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
  wrap.append(h("summary", { class: "zt-btn", "data-key": "swap-open" }, t("tigris.swap_open")));
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
          {
            "aria-label": t("tigris.one_fewer", { colour: colourName(c) }),
            "data-key": `swap-${c}-minus`,
            style: "padding:0 6px",
          },
        ),
        h("span", {}, `${counts[c]}/${held}`),
        ztButton(
          "+",
          () => {
            counts[c] = Math.min(held, counts[c] + 1);
            redraw(draw);
          },
          {
            "aria-label": t("tigris.one_more", { colour: colourName(c) }),
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
    ztButton(cmd ? label(cmd, ctx) : t("tigris.swap_choose"), () => cmd && send(ctx, cmd, p, draw), {
      class: "zt-btn zt-primary",
      disabled: cmd ? null : "",
      "data-command": cmd ? JSON.stringify(cmd) : null,
      "data-key": "swap-go",
    }),
  );
  return wrap;
}

export function playersSection(doc, view, ctx, seat) {
  const sec = section(t("tigris.players"));
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
      h("span", {}, t("tigris.in_hand", { count: view.hand_counts[pl] })),
      h("span", {}, t("tigris.catastrophes_left", { count: view.catastrophes_left[pl] })),
      supplyChips(pl, supply, ctx),
      sc
        ? scoreRow(sc.points, sc.treasures, t("tigris.points_of", { name: seatName(ctx, pl) }))
        : h("span", { title: t("tigris.points_hidden_tip") }, t("tigris.points_hidden")),
    );
    sec.append(row);
  }
  return sec;
}

export function kingdomsSection(kingdoms, view, ctx) {
  const sec = section(t("tigris.kingdoms"));
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
        t("tigris.kingdom_tiles", {
          n: String(i + 1),
          tiles: COLOURS.map((c, j) =>
            t("tigris.points_colour", { count: counts[j], colour: colourName(c) }),
          ).join(", "),
        }),
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
    (c) =>
      h(
        "div",
        {},
        miniTile(c, 20),
        t("tigris.legend_colour", { tile: capital(tileName(c)), leader: leaderName(LEADER_OF[c]) }),
      ),
    [],
    [
      legendItem(
        t("tigris.legend_treasure"),
        s("path", { d: "M20 4L34 20L20 36L6 20Z", fill: "#ffd23f", stroke: "#6b4b00", "stroke-width": 2 }),
      ),
      legendItem(t("tigris.catastrophe"), ...catastrophe(4)),
      legendItem(
        t("tigris.legend_river"),
        s("rect", { x: 2, y: 2, width: 36, height: 36, fill: "#86bde3" }),
        s("path", {
          d: "M6 15q5 -4 9 0t9 0t9 0M6 27q5 -4 9 0t9 0t9 0",
          fill: "none",
          stroke: "#e3f1fb",
          "stroke-width": 2,
        }),
      ),
      legendItem(
        t("tigris.legend_monument"),
        legendSquare(3, "#d9c9a2", "#3a2c1a", 2),
        s("rect", { x: 9, y: 22, width: 22, height: 9, fill: FILL.red }),
        s("rect", { x: 13, y: 13, width: 14, height: 9, fill: FILL.blue }),
      ),
      legendItem(
        t("tigris.legend_kingdom"),
        s("path", { d: "M4 4H36V36H4Z", fill: "none", stroke: "#6b3f0c", "stroke-width": 4 }),
        s("circle", { cx: 10, cy: 10, r: 6, fill: "#6b3f0c" }),
      ),
      legendItem(
        t("tigris.legend_unification"),
        legendSquare(5, "#fff8e8", "#b22", 3),
        s("path", { d: "M10 20H30M20 10V30", stroke: "#b22", "stroke-width": 3 }),
      ),
    ],
  );
}
