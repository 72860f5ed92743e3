import { listWords, plural, seatName } from "../../words.js";
import { COLOUR_OF, COLOURS, LEADER_OF, LEADERS } from "../tigris-common.js";
import { blockLabel, squareLabel } from "./board.js";

// ---- words ----

export const TILE = { red: "temple", blue: "farm", green: "market", black: "settlement" };

export const TILES = { red: "temples", blue: "farms", green: "markets", black: "settlements" };

export const tileWords = (colour, n) =>
  n === 1 ? `a ${colour} ${TILE[colour]}` : `${n} ${colour} ${TILES[colour]}`;

export const monumentColours = (m) => String(m).split("_");

export const monumentName = (m) => monumentColours(m).join("–");

export const supporterColour = (phase) => (phase.conflict === "revolt" ? "red" : phase.colour);

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

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : doc?.seat;
  const t = String(command.type || "").replace(/^tigris\./, "");
  switch (t) {
    case "place_tile":
      return `Place ${tileWords(command.colour, 1)} at ${squareLabel(command.square)}`;
    case "position_leader": {
      const from =
        view && seat !== null && seat !== undefined ? leaderSquare(view, seat, command.leader) : null;
      return from === null || from === undefined
        ? `Position your ${command.leader} at ${squareLabel(command.square)}`
        : `Move your ${command.leader} from ${squareLabel(from)} to ${squareLabel(command.square)}`;
    }
    case "withdraw_leader": {
      const from =
        view && seat !== null && seat !== undefined ? leaderSquare(view, seat, command.leader) : null;
      return `Withdraw your ${command.leader}${from === null || from === undefined ? "" : ` from ${squareLabel(from)}`}`;
    }
    case "place_catastrophe": {
      const there = view?.tiles ? view.tiles[command.square] : null;
      return `Place a catastrophe on ${squareLabel(command.square)}${there ? `, destroying ${tileWords(there, 1)}` : ""}`;
    }
    case "swap_tiles": {
      const parts = COLOURS.filter((c) => command[c] > 0).map((c) => `${command[c]} ${c}`);
      const n = COLOURS.reduce((a, c) => a + (command[c] || 0), 0);
      return n === 0
        ? "Swap no tiles (pass the action)"
        : `Swap ${plural(n, "tile")} (${listWords(parts)}) for new ones from the bag`;
    }
    case "pass":
      return "Pass this action";
    case "commit_support": {
      const phase = view?.phase && view.phase.kind === "support" ? view.phase : null;
      if (!command.count) return "Commit no support";
      return phase
        ? `Commit ${tileWords(supporterColour(phase), command.count)}`
        : `Commit ${plural(command.count, "tile")}`;
    }
    case "choose_war_colour":
      return `Fight the war of the ${LEADER_OF[command.colour]}s (${command.colour}) first`;
    case "build_monument":
      return `Build the ${monumentName(command.monument)} monument on ${blockLabel(command.top_left)}`;
    case "decline_monument":
      return "Build no monument";
    case "take_treasures":
      return command.squares.length === 1
        ? `Take the treasure at ${squareLabel(command.squares[0])}`
        : `Take the treasures at ${listWords(command.squares.map(squareLabel))}`;
    default:
      return t.replace(/_/g, " ");
  }
}

const POINT_REASON = {
  tile: "",
  revolt: " for winning the revolt",
  war: " from the war",
  monument: " from a monument",
};

const RETURN_REASON = {
  withdrawn: "is withdrawn to the supply",
  revolt: "loses the revolt and goes back to the supply",
  war: "loses the war and goes back to the supply",
  no_temple: "has no temple beside it any more and goes back to the supply",
};

export const GAME_END = {
  treasures: "only two treasures are left on the board",
  bag_empty: "the bag is empty",
  stalemate: "nobody drew a tile or took a treasure for several rounds",
};

function colourList(colours) {
  const counts = COLOURS.map((c) => colours.filter((x) => x === c).length);
  return listWords(COLOURS.filter((_, i) => counts[i]).map((c, _i) => `${counts[COLOURS.indexOf(c)]} ${c}`));
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const t = String(event.type || "").replace(/^tigris\./, "");
  return turnWords(t, event, who) ?? conflictWords(t, event, who) ?? rewardWords(t, event, who) ?? "";
}

// The game's course and a turn's actions: tiles drawn and placed, leaders, catastrophes, points.
function turnWords(t, event, who) {
  switch (t) {
    case "game_started":
      return `The game begins with ${event.seats} players; ${who(event.first)} starts. Ten temples stand on the board, each with a treasure.`;
    case "bag_filled":
      return `The bag is filled with ${plural(event.order.length, "tile")}.`;
    case "tiles_drawn":
      return `${who(event.seat)} draws ${colourList(event.tiles)} (${plural(event.tiles.length, "tile")}).`;
    case "tiles_drawn_count":
      return `${who(event.seat)} draws ${plural(event.count, "tile")} from the bag.`;
    case "tiles_discarded":
      return `${who(event.seat)} discards ${colourList(event.tiles)} (${plural(event.tiles.length, "tile")}).`;
    case "tiles_discarded_count":
      return `${who(event.seat)} discards ${plural(event.count, "tile")}.`;
    case "turn_started":
      return `${who(event.seat)}'s turn begins.`;
    case "leader_positioned":
      return event.origin === null || event.origin === undefined
        ? `${who(event.seat)} positions the ${event.leader} (${COLOUR_OF[event.leader]}) at ${squareLabel(event.square)}.`
        : `${who(event.seat)} moves the ${event.leader} from ${squareLabel(event.origin)} to ${squareLabel(event.square)}.`;
    case "leader_returned":
      return `${who(event.seat)}'s ${event.leader} ${RETURN_REASON[event.reason] || "goes back to the supply"}.`;
    case "tile_placed":
      return `${who(event.seat)} places ${tileWords(event.colour, 1)} at ${squareLabel(event.square)}.`;
    case "points_scored":
      return `${who(event.seat)} scores ${plural(event.amount, `${event.colour} point`)}${POINT_REASON[event.reason] ?? ""}.`;
    case "catastrophe_placed":
      return `${who(event.seat)} places a catastrophe on ${squareLabel(event.square)}${event.destroyed ? `, destroying ${tileWords(event.destroyed, 1)}` : ""}.`;
    case "action_passed":
      return `${who(event.seat)} passes.`;
    case "action_ended":
      return `${who(event.seat)} finishes action ${event.number} of 2.`;
    case "game_ended":
      return `The game ends: ${GAME_END[event.reason] || event.reason}.`;
    default:
      return undefined;
  }
}

// Revolts and wars: who fights whom, the support committed, who wins and what is lost.
function conflictWords(t, event, who) {
  switch (t) {
    case "marker_placed":
      return `Two kingdoms are united at ${squareLabel(event.square)}: the unification tile marks it while wars are fought.`;
    case "marker_removed":
      return `Peace returns: the unification tile leaves ${squareLabel(event.square)}.`;
    case "revolt_started":
      return `Revolt of the ${event.colour} leaders! ${who(event.attacker)}'s ${LEADER_OF[event.colour]} (${plural(event.attacker_base, "temple")} beside it) challenges ${who(event.defender)}'s (${event.defender_base}).`;
    case "wars_pending":
      return `Wars break out over ${listWords(event.colours)}; the active player chooses which is fought first.`;
    case "war_started":
      return `War between the ${event.colour} leaders: ${who(event.attacker)} (${tileWords(event.colour, event.attacker_base)} in the kingdom) attacks ${who(event.defender)} (${event.defender_base}).`;
    case "support_committed":
      return event.count
        ? `${who(event.seat)} commits ${tileWords(event.colour, event.count)} in support.`
        : `${who(event.seat)} commits no support.`;
    case "conflict_resolved": {
      const hi = Math.max(event.attacker_total, event.defender_total),
        lo = Math.min(event.attacker_total, event.defender_total);
      return `${who(event.winner)} wins the ${event.colour} ${event.conflict} against ${who(event.loser)}, ${hi} to ${lo}.`;
    }
    case "tiles_removed":
      return `The war removes ${tileWords(event.colour, event.squares.length)} at ${listWords(event.squares.map(squareLabel))}.`;
    default:
      return undefined;
  }
}

// Monuments and treasures: offered, built or declined, taken.
function rewardWords(t, event, who) {
  switch (t) {
    case "monument_offered": {
      const blocks = [...new Set(event.options.map((o) => o.top_left))].map(blockLabel);
      return `${who(event.seat)} may build a monument on ${listWords(blocks)}.`;
    }
    case "monument_built":
      return `${who(event.seat)} builds the ${monumentName(event.monument)} monument on ${blockLabel(event.top_left)}.`;
    case "monument_declined":
      return `${who(event.seat)} builds no monument${event.top_lefts?.length ? ` on ${listWords(event.top_lefts.map(blockLabel))}` : ""}.`;
    case "treasure_choice_offered":
      return `${who(event.seat)} may take ${plural(event.count, "treasure")} from ${listWords(event.candidates.map(squareLabel))}.`;
    case "treasures_taken":
      return event.squares.length === 1
        ? `${who(event.seat)} takes the treasure at ${squareLabel(event.squares[0])}.`
        : `${who(event.seat)} takes the treasures at ${listWords(event.squares.map(squareLabel))}.`;
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
    const hand = `${plural(view.hand_counts[seat], "tile")} in hand`;
    if (!sc) return hand;
    return `${COLOURS.map((c, i) => `${sc.points[i]} ${c}`).join(" · ")} · ${plural(sc.treasures, "treasure")}`;
  });
}
