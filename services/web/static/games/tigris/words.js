import { t } from "../../i18n.js";
import { listWords, seatName } from "../../words.js";
import { COLOUR_OF, COLOURS, colourName, LEADER_OF, LEADERS, leaderName } from "../tigris-common.js";
import { blockLabel, squareLabel } from "./board.js";

// ---- words ----
// The tiles by the rule documents' names (temppeli, maatila, kauppapaikka,
// asutus; templom, farm, piac, település): one sentence per colour and count.

// A tile's name alone ("temple"), as the hand and the legend show it.
export function tileName(colour, n = 1) {
  const names = {
    red: () => t("tigris.tile_red", { count: n }),
    blue: () => t("tigris.tile_blue", { count: n }),
    green: () => t("tigris.tile_green", { count: n }),
    black: () => t("tigris.tile_black", { count: n }),
  };
  return names[colour] ? names[colour]() : colour;
}

// "temples": the tiles of a colour as a kind, as supporters are named.
export function tilesName(colour) {
  const names = {
    red: () => t("tigris.kind_red"),
    blue: () => t("tigris.kind_blue"),
    green: () => t("tigris.kind_green"),
    black: () => t("tigris.kind_black"),
  };
  return names[colour] ? names[colour]() : colour;
}

// "a red temple", "3 red temples": a count of tiles of one colour.
export function tileWords(colour, n) {
  const words = {
    red: () => t("tigris.tiles_red", { count: n }),
    blue: () => t("tigris.tiles_blue", { count: n }),
    green: () => t("tigris.tiles_green", { count: n }),
    black: () => t("tigris.tiles_black", { count: n }),
  };
  return words[colour] ? words[colour]() : `${n} ${colour}`;
}

export const monumentColours = (m) => String(m).split("_");

export const monumentName = (m) => monumentColours(m).map(colourName).join("–");

export const supporterColour = (phase) => (phase.conflict === "revolt" ? "red" : phase.colour);

// "revolt" or "war", as the rule documents say it (sisäinen/ulkoinen konflikti; belső/külső).
export function conflictName(conflict) {
  return conflict === "revolt" ? t("tigris.revolt") : t("tigris.war");
}

// The view last drawn: labels read where leaders stand and which conflict is on.
let current = null;

// The document render is drawing: labels asked for without one read it.
export function drawing(doc) {
  current = doc;
}

export function leaderSquare(view, seat, leader) {
  const row = view?.leaders?.[seat];
  return row ? row[LEADERS.indexOf(leader)] : null;
}

const known = (x) => x !== null && x !== undefined;

function leaderLabel(kind, command, view, seat) {
  const from = view && known(seat) ? leaderSquare(view, seat, command.leader) : null;
  const leader = leaderName(command.leader);
  const square = squareLabel(command.square);
  if (kind === "position_leader")
    return known(from)
      ? t("tigris.do_move_leader", { leader, from: squareLabel(from), square })
      : t("tigris.do_position_leader", { leader, square });
  return known(from)
    ? t("tigris.do_withdraw_from", { leader, from: squareLabel(from) })
    : t("tigris.do_withdraw", { leader });
}

function swapLabel(command) {
  const parts = COLOURS.filter((c) => command[c] > 0).map((c) =>
    t("tigris.points_colour", { count: command[c], colour: colourName(c) }),
  );
  const n = COLOURS.reduce((a, c) => a + (command[c] || 0), 0);
  return n === 0 ? t("tigris.do_swap_none") : t("tigris.do_swap", { count: n, colours: listWords(parts) });
}

function supportLabel(command, view) {
  const phase = view?.phase && view.phase.kind === "support" ? view.phase : null;
  if (!command.count) return t("tigris.do_support_none");
  return phase
    ? t("tigris.do_support", { tiles: tileWords(supporterColour(phase), command.count) })
    : t("tigris.do_support_n", { count: command.count });
}

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = known(ctx?.seat) ? ctx.seat : doc?.seat;
  const kind = String(command.type || "").replace(/^tigris\./, "");
  const square = known(command.square) ? squareLabel(command.square) : "";
  switch (kind) {
    case "place_tile":
      return t("tigris.do_place_tile", { tile: tileWords(command.colour, 1), square });
    case "position_leader":
    case "withdraw_leader":
      return leaderLabel(kind, command, view, seat);
    case "place_catastrophe": {
      const there = view?.tiles ? view.tiles[command.square] : null;
      return there
        ? t("tigris.do_catastrophe_on", { square, tile: tileWords(there, 1) })
        : t("tigris.do_catastrophe", { square });
    }
    case "swap_tiles":
      return swapLabel(command);
    case "pass":
      return t("tigris.do_pass");
    case "commit_support":
      return supportLabel(command, view);
    case "choose_war_colour":
      return t("tigris.do_war_first", {
        leader: leaderName(LEADER_OF[command.colour]),
        colour: colourName(command.colour),
      });
    case "build_monument":
      return t("tigris.do_monument", {
        monument: monumentName(command.monument),
        block: blockLabel(command.top_left),
      });
    case "decline_monument":
      return t("tigris.do_no_monument");
    case "take_treasures":
      return t("tigris.do_take_treasures", {
        count: command.squares.length,
        squares: listWords(command.squares.map(squareLabel)),
      });
    default:
      return "";
  }
}

function pointsWords(event, who) {
  const params = { name: who(event.seat), count: event.amount, colour: colourName(event.colour) };
  switch (event.reason) {
    case "revolt":
      return t("tigris.log_points_revolt", params);
    case "war":
      return t("tigris.log_points_war", params);
    case "monument":
      return t("tigris.log_points_monument", params);
    default:
      return t("tigris.log_points", params);
  }
}

function returnWords(event, who) {
  const params = { name: who(event.seat), leader: leaderName(event.leader) };
  switch (event.reason) {
    case "withdrawn":
      return t("tigris.log_withdrawn", params);
    case "revolt":
      return t("tigris.log_lost_revolt", params);
    case "war":
      return t("tigris.log_lost_war", params);
    case "no_temple":
      return t("tigris.log_no_temple", params);
    default:
      return t("tigris.log_returned", params);
  }
}

export function gameEndWords(reason) {
  switch (reason) {
    case "treasures":
      return t("tigris.end_treasures");
    case "bag_empty":
      return t("tigris.end_bag_empty");
    case "stalemate":
      return t("tigris.end_stalemate");
    default:
      return String(reason);
  }
}

function colourList(colours) {
  const counts = COLOURS.map((c) => colours.filter((x) => x === c).length);
  return listWords(
    COLOURS.filter((_, i) => counts[i]).map((c) =>
      t("tigris.points_colour", { count: counts[COLOURS.indexOf(c)], colour: colourName(c) }),
    ),
  );
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const kind = String(event.type || "").replace(/^tigris\./, "");
  return (
    courseWords(kind, event, who) ??
    turnWords(kind, event, who) ??
    conflictWords(kind, event, who) ??
    rewardWords(kind, event, who) ??
    ""
  );
}

// The game's course: its start, the bag, drawing and discarding, turns, its end.
function courseWords(kind, event, who) {
  switch (kind) {
    case "game_started":
      return t("tigris.log_started", { count: event.seats, name: who(event.first) });
    case "bag_filled":
      return t("tigris.log_bag_filled", { count: event.order.length });
    case "tiles_drawn":
      return t("tigris.log_drawn", {
        name: who(event.seat),
        tiles: colourList(event.tiles),
        count: event.tiles.length,
      });
    case "tiles_drawn_count":
      return t("tigris.log_drawn_count", { name: who(event.seat), count: event.count });
    case "tiles_discarded":
      return t("tigris.log_discarded", {
        name: who(event.seat),
        tiles: colourList(event.tiles),
        count: event.tiles.length,
      });
    case "tiles_discarded_count":
      return t("tigris.log_discarded_count", { name: who(event.seat), count: event.count });
    case "turn_started":
      return t("tigris.log_turn", { name: who(event.seat) });
    case "action_passed":
      return t("tigris.log_passed", { name: who(event.seat) });
    case "action_ended":
      return t("tigris.log_action_ended", { name: who(event.seat), n: String(event.number) });
    case "game_ended":
      return t("tigris.log_ended", { why: gameEndWords(event.reason) });
    default:
      return undefined;
  }
}

// A turn's actions: leaders, tiles, catastrophes, points.
function turnWords(kind, event, who) {
  const name = known(event.seat) ? who(event.seat) : "";
  switch (kind) {
    case "leader_positioned":
      return known(event.origin)
        ? t("tigris.log_leader_moved", {
            name,
            leader: leaderName(event.leader),
            from: squareLabel(event.origin),
            square: squareLabel(event.square),
          })
        : t("tigris.log_leader_positioned", {
            name,
            leader: leaderName(event.leader),
            colour: colourName(COLOUR_OF[event.leader]),
            square: squareLabel(event.square),
          });
    case "leader_returned":
      return returnWords(event, who);
    case "tile_placed":
      return t("tigris.log_tile", {
        name,
        tile: tileWords(event.colour, 1),
        square: squareLabel(event.square),
      });
    case "points_scored":
      return pointsWords(event, who);
    case "catastrophe_placed":
      return event.destroyed
        ? t("tigris.log_catastrophe_on", {
            name,
            square: squareLabel(event.square),
            tile: tileWords(event.destroyed, 1),
          })
        : t("tigris.log_catastrophe", { name, square: squareLabel(event.square) });
    default:
      return undefined;
  }
}

function resolvedWords(event, who) {
  const hi = Math.max(event.attacker_total, event.defender_total);
  const lo = Math.min(event.attacker_total, event.defender_total);
  const params = {
    winner: who(event.winner),
    loser: who(event.loser),
    colour: colourName(event.colour),
    hi: String(hi),
    lo: String(lo),
  };
  return event.conflict === "revolt" ? t("tigris.log_revolt_won", params) : t("tigris.log_war_won", params);
}

// Revolts and wars: who fights whom, the support committed, who wins and what is lost.
function conflictWords(kind, event, who) {
  switch (kind) {
    case "marker_placed":
      return t("tigris.log_united", { square: squareLabel(event.square) });
    case "marker_removed":
      return t("tigris.log_peace", { square: squareLabel(event.square) });
    case "revolt_started":
      return t("tigris.log_revolt", {
        colour: colourName(event.colour),
        leader: leaderName(LEADER_OF[event.colour]),
        attacker: who(event.attacker),
        count: event.attacker_base,
        defender: who(event.defender),
        base: event.defender_base,
      });
    case "wars_pending":
      return t("tigris.log_wars_pending", { colours: listWords(event.colours.map(colourName)) });
    case "war_started":
      return t("tigris.log_war", {
        colour: colourName(event.colour),
        attacker: who(event.attacker),
        tiles: tileWords(event.colour, event.attacker_base),
        defender: who(event.defender),
        base: event.defender_base,
      });
    case "support_committed":
      return event.count
        ? t("tigris.log_support", { name: who(event.seat), tiles: tileWords(event.colour, event.count) })
        : t("tigris.log_support_none", { name: who(event.seat) });
    case "conflict_resolved":
      return resolvedWords(event, who);
    case "tiles_removed":
      return t("tigris.log_removed", {
        tiles: tileWords(event.colour, event.squares.length),
        squares: listWords(event.squares.map(squareLabel)),
      });
    default:
      return undefined;
  }
}

// Monuments and treasures: offered, built or declined, taken.
function rewardWords(kind, event, who) {
  const name = known(event.seat) ? who(event.seat) : "";
  switch (kind) {
    case "monument_offered": {
      const blocks = [...new Set(event.options.map((o) => o.top_left))].map(blockLabel);
      return t("tigris.log_monument_offered", { name, blocks: listWords(blocks) });
    }
    case "monument_built":
      return t("tigris.log_monument", {
        name,
        monument: monumentName(event.monument),
        block: blockLabel(event.top_left),
      });
    case "monument_declined":
      return event.top_lefts?.length
        ? t("tigris.log_no_monument_on", { name, blocks: listWords(event.top_lefts.map(blockLabel)) })
        : t("tigris.log_no_monument", { name });
    case "treasure_choice_offered":
      return t("tigris.log_treasure_offered", {
        name,
        count: event.count,
        squares: listWords(event.candidates.map(squareLabel)),
      });
    case "treasures_taken":
      return t("tigris.log_treasures", {
        name,
        count: event.squares.length,
        squares: listWords(event.squares.map(squareLabel)),
      });
    default:
      return undefined;
  }
}

// Public scores for the page's list of players: points per colour where the
// view shows them (a seat's own, or everyone's with open scoring), else hand sizes.
export function summary(doc) {
  const view = doc?.view;
  if (!view) return [];
  const shown = new Map((view.scores || []).map((sc) => [sc.seat, sc]));
  return Array.from({ length: view.seats }, (_, seat) => {
    const sc = shown.get(seat);
    if (!sc) return t("tigris.in_hand", { count: view.hand_counts[seat] });
    const points = COLOURS.map((c, i) =>
      t("tigris.points_colour", { count: sc.points[i], colour: colourName(c) }),
    );
    return [...points, t("tigris.treasure_count", { count: sc.treasures })].join(" · ");
  });
}
