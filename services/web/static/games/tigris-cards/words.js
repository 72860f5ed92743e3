import { listWords, ordinal, plural, seatName } from "../../words.js";
import { COLOURS, LEADER_OF } from "../tigris-common.js";
import { GAP } from "./board.js";

// ---- cards ----

export const SHIP_OTHER = { ship_blue_black: "black", ship_blue_green: "green", ship_blue_red: "red" };

export const isShip = (card) => card in SHIP_OTHER;

// The colour a table card counts as: treasures are red, ships have none.
export const colourOf = (card) => (card === "treasure" ? "red" : COLOURS.includes(card) ? card : null);

export const NOUN = { red: "temple", blue: "farm", green: "market", black: "settlement" };

function cardWords(card) {
  if (card === "treasure") return "a treasure";
  if (isShip(card)) return `the blue–${SHIP_OTHER[card]} ship`;
  return `a ${card} card`;
}

export const shipName = (card) => `blue–${SHIP_OTHER[card]} ship`;

export const cards = (colour, n) => `${n === 1 ? "a" : n} ${colour} card${n === 1 ? "" : "s"}`;

export function spotWords(spot) {
  const c = spot.column + 1;
  if (spot.row === GAP) return `the connector between columns ${c} and ${c + 1}`;
  if (spot.row === 0) return `the head of column ${c}`;
  return `the ${ordinal(spot.row)} card of column ${c}`;
}

// "column 5 (its 2nd card)": where a card was taken from.
function fromWords(spot) {
  if (spot.row === GAP || spot.row === 0) return spotWords(spot);
  return `column ${spot.column + 1} (its ${ordinal(spot.row)} card)`;
}

const gapWords = (gap) => `between columns ${gap + 1} and ${gap + 2}`;

// The view last drawn: labels read the hand's colours and the conflict on.
let current = null;

// The document render is drawing: labels asked for without one read it.
export function drawing(doc) {
  current = doc;
}

export function findLeader(view, seat, leader) {
  if (!view) return null;
  for (let c = 0; c < view.columns.length; c++) {
    for (let r = 0; r < view.columns[c].length; r++) {
      const t = view.columns[c][r].leader;
      if (t && t.seat === seat && t.leader === leader) return { column: c, row: r };
    }
  }
  for (let g = 0; g < view.gaps.length; g++) {
    const t = view.gaps[g]?.leader;
    if (t && t.seat === seat && t.leader === leader) return { column: g, row: GAP };
  }
  return null;
}

export function slotAt(view, spot) {
  if (!view) return null;
  if (spot.row === GAP) return view.gaps[spot.column] || null;
  const col = view.columns[spot.column];
  return col?.[spot.row] ? col[spot.row] : null;
}

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? ctx.seat : doc?.seat;
  const t = String(command.type || "").replace(/^tigris-cards\./, "");
  switch (t) {
    case "place_leader": {
      const from = seat === null || seat === undefined ? null : findLeader(view, seat, command.leader);
      const slot = slotAt(view, command.spot);
      const on = `${spotWords(command.spot)}${slot && !isShip(slot.card) ? ` (${slot.card === "treasure" ? "treasure" : slot.card})` : ""}`;
      return from ? `Move your ${command.leader} to ${on}` : `Place your ${command.leader} on ${on}`;
    }
    case "withdraw_leader":
      return `Withdraw your ${command.leader}`;
    case "play_card":
      return `Play ${cards(command.colour, 1)} into column ${command.column + 1}`;
    case "play_connector":
      return `Lay ${cards(command.colour, 1)} face down as the connector ${gapWords(command.gap)}`;
    case "play_catastrophe": {
      const slot = slotAt(view, command.spot);
      return `Play your catastrophe on ${fromWords(command.spot)}${slot ? `, removing ${cardWords(slot.card)}` : ""}`;
    }
    case "pass":
      return "Pass this action";
    case "commit_support": {
      const colour = view?.conflict ? view.conflict.support : null;
      if (!command.count) return "Commit no cards";
      return colour ? `Commit ${cards(colour, command.count)}` : `Commit ${plural(command.count, "card")}`;
    }
    case "choose_conflict":
      return `Resolve the conflict of the ${LEADER_OF[command.colour]}s (${command.colour}) first`;
    case "score_card": {
      const phase = view?.phase;
      return phase && phase.step === "vp_offer"
        ? `Lay ${cards(phase.colour, 1)} on your VP pile (1 point)`
        : "Score the offered card";
    }
    case "build_ship":
      return `Build the ${shipName(command.ship)}`;
    case "take_treasure":
      return `Give a red card for the treasure of column ${command.column + 1}`;
    case "decline":
      return "Decline";
    default:
      return t.replace(/_/g, " ");
  }
}

const VP_REASON = {
  card: "for the card played",
  reward: "as the conflict's reward",
  income: "as ship income",
};

const END = {
  cards: "the draw pile cannot refill every hand",
  treasures: "only one treasure is left on the table",
  stalemate: "nobody lost a card for several turns",
};

export function phaseWords(phase, who) {
  switch (phase.step) {
    case "act":
      return `${who(phase.seat)} to act.`;
    case "vp_offer":
      return `${who(phase.seat)} may lay ${cards(phase.colour, 1)} on the VP pile ${VP_REASON[phase.reason] || ""}.`.replace(
        " .",
        ".",
      );
    case "ship_offer":
      return `${who(phase.seat)} may build a ship in column ${phase.column + 1} from the ${phase.colour} series.`;
    case "treasure_offer":
      return `${who(phase.seat)} may exchange a red card for a treasure (column ${listWords(phase.columns.map((c) => String(c + 1)))}).`;
    case "support":
      return `${who(phase.seat)} to commit support.`;
    case "choose_conflict":
      return `${who(phase.seat)} ${who(phase.seat) === "You" ? "choose" : "chooses"} which conflict comes first: ${listWords(phase.colours)}.`;
    case "over":
      return `The game is over: ${END[phase.reason] || phase.reason}.`;
    default:
      return "";
  }
}

function colourCounts(list) {
  return listWords(
    COLOURS.map((c) => [c, list.filter((x) => x === c).length])
      .filter(([, n]) => n)
      .map(([c, n]) => `${n} ${c}`),
  );
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const t = String(event.type || "").replace(/^tigris-cards\./, "");
  switch (t) {
    case "game_started":
      return `The game begins with ${event.seats} players; eight treasures head the eight columns.`;
    case "deck_shuffled":
      return `The draw pile is shuffled (${plural(event.order.length, "card")}).`;
    case "cards_drawn":
      return `${who(event.seat)} draws ${colourCounts(event.cards)} (${plural(event.cards.length, "card")}).`;
    case "cards_drawn_count":
      return `${who(event.seat)} draws ${plural(event.count, "card")}.`;
    case "cards_set_aside":
      return `${plural(event.count, "card")} leave the game unseen.`;
    case "turn_started":
      return `${who(event.seat)}'s turn begins: ${plural(event.actions, "action")}.`;
    case "action_taken":
      return `${who(event.seat)} has ${plural(event.left, "action")} left.`;
    case "passed":
      return `${who(event.seat)} passes.`;
    case "leader_placed":
      return event.origin
        ? `${who(event.token.seat)} moves the ${event.token.leader} from ${spotWords(event.origin)} to ${spotWords(event.spot)}.`
        : `${who(event.token.seat)} places the ${event.token.leader} on ${spotWords(event.spot)}.`;
    case "leader_returned":
      return `${who(event.token.seat)}'s ${event.token.leader} leaves ${spotWords(event.spot)} and goes back to the supply.`;
    case "card_played":
      return `${who(event.seat)} plays ${cards(event.colour, 1)} into column ${event.column + 1}.`;
    case "connector_laid":
      return `${who(event.seat)} lays a connector face down ${gapWords(event.gap)}.`;
    case "connector_chosen":
      return `${who(event.seat)}'s face-down connector ${gapWords(event.gap)} is ${cards(event.colour, 1)}.`;
    case "connector_revealed":
      return `The connector ${gapWords(event.gap)} is turned face up: ${event.colour}. The kingdoms are united.`;
    case "catastrophe_struck":
      return `${who(event.seat)}'s catastrophe removes ${cardWords(event.card)} from ${fromWords(event.spot)}.`;
    case "vp_card_laid":
      return `${who(event.seat)} lays ${cards(event.colour, 1)} on the VP pile: 1 ${event.colour} point.`;
    case "offer_declined":
      return `${who(event.seat)} declines.`;
    case "ship_built":
      return `${who(event.seat)} builds the ${shipName(event.ship)} in column ${event.column + 1} from ${event.cards} ${event.colour} cards.`;
    case "conflict_begun": {
      const c = event.conflict;
      const kind = c.kind === "internal" ? "Internal conflict" : "External conflict";
      return `${kind} of the ${LEADER_OF[c.colour]}s: ${who(c.attacker)} (${c.attacker_base}) attacks ${who(c.defender)} (${c.defender_base}); support with ${c.support} cards.`;
    }
    case "support_committed":
      return event.count
        ? `${who(event.seat)} commits ${cards(event.colour, event.count)}.`
        : `${who(event.seat)} commits no cards.`;
    case "conflict_resolved":
      return `${who(event.winner)} wins the ${event.colour} conflict against ${who(event.loser)}${event.reward ? "; one committed card goes to the winner's VP pile" : ""}${event.discarded ? `; ${plural(event.discarded, "card")} discarded` : ""}.`;
    case "spoils_taken":
      return `${who(event.seat)} takes ${plural(event.spots.length, "card")} from the table as spoils onto the VP pile.`;
    case "treasure_exchanged":
      return `${who(event.seat)} gives a red card for the treasure of column ${event.column + 1}.`;
    case "awaiting":
      return phaseWords(event.phase, who);
    default:
      return "";
  }
}

// Public scores for the page's list of players: a VP pile shows only its top
// card until the game is over (or with open piles), then its count per colour.
export function summary(doc) {
  const view = doc?.view;
  if (!view?.players) return [];
  return view.players.map((pl) => {
    if (pl.vp_open)
      return `VP ${COLOURS.map((c, i) => `${pl.vp_open.points[i]} ${c}`).join(" · ")} · ${plural(pl.vp_open.treasures, "treasure")}`;
    return `${plural(pl.hand_size, "card")} in hand · VP pile top: ${pl.vp_top ? (pl.vp_top === "treasure" ? "treasure" : pl.vp_top) : "none"}`;
  });
}
