import { t } from "../../i18n.js";
import { listWords, ordinal, seatName } from "../../words.js";
import { COLOURS, colourName, LEADER_OF, leaderName } from "../tigris-common.js";
import { GAP } from "./board.js";

// ---- cards ----
// The cards by the rule documents' names (temppeli, maanviljelys, kauppapaikka,
// asutus, aarre, laiva; templom, mezőgazdaság, kereskedelem, népesség, kincs, hajó).

export const SHIP_OTHER = { ship_blue_black: "black", ship_blue_green: "green", ship_blue_red: "red" };

export const isShip = (card) => card in SHIP_OTHER;

// The colour a table card counts as: treasures are red, ships have none.
export const colourOf = (card) => (card === "treasure" ? "red" : COLOURS.includes(card) ? card : null);

// A colour's civilisation: "temple" (red), "farm" (blue) ...
export function cardNoun(colour) {
  const nouns = {
    red: () => t("tcards.noun_red"),
    blue: () => t("tcards.noun_blue"),
    green: () => t("tcards.noun_green"),
    black: () => t("tcards.noun_black"),
  };
  return nouns[colour] ? nouns[colour]() : colour;
}

// "a red card", "3 red cards".
export function cards(colour, n) {
  const words = {
    red: () => t("tcards.cards_red", { count: n }),
    blue: () => t("tcards.cards_blue", { count: n }),
    green: () => t("tcards.cards_green", { count: n }),
    black: () => t("tcards.cards_black", { count: n }),
  };
  return words[colour] ? words[colour]() : String(n);
}

// "red cards": the cards of a colour as a kind, as support is named.
export function cardsKind(colour) {
  const kinds = {
    red: () => t("tcards.kind_red"),
    blue: () => t("tcards.kind_blue"),
    green: () => t("tcards.kind_green"),
    black: () => t("tcards.kind_black"),
  };
  return kinds[colour] ? kinds[colour]() : colour;
}

function cardWords(card) {
  if (card === "treasure") return t("tcards.a_treasure");
  if (isShip(card)) return shipName(card);
  return cards(card, 1);
}

export const shipName = (card) => t("tcards.ship", { colour: colourName(SHIP_OTHER[card]) });

export function spotWords(spot) {
  const c = String(spot.column + 1);
  if (spot.row === GAP) return t("tcards.spot_connector", { c, d: String(spot.column + 2) });
  if (spot.row === 0) return t("tcards.spot_head", { c });
  return t("tcards.spot_card", { c, nth: ordinal(spot.row) });
}

// "column 5 (its 2nd card)": where a card was taken from.
function fromWords(spot) {
  if (spot.row === GAP || spot.row === 0) return spotWords(spot);
  return t("tcards.from_card", { c: String(spot.column + 1), nth: ordinal(spot.row) });
}

const gapWords = (gap) => t("tcards.gap", { c: String(gap + 1), d: String(gap + 2) });

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
      const token = view.columns[c][r].leader;
      if (token && token.seat === seat && token.leader === leader) return { column: c, row: r };
    }
  }
  for (let g = 0; g < view.gaps.length; g++) {
    const token = view.gaps[g]?.leader;
    if (token && token.seat === seat && token.leader === leader) return { column: g, row: GAP };
  }
  return null;
}

export function slotAt(view, spot) {
  if (!view) return null;
  if (spot.row === GAP) return view.gaps[spot.column] || null;
  const col = view.columns[spot.column];
  return col?.[spot.row] ? col[spot.row] : null;
}

const known = (x) => x !== null && x !== undefined;

function leaderLabel(command, view, seat) {
  const from = known(seat) ? findLeader(view, seat, command.leader) : null;
  const slot = slotAt(view, command.spot);
  const spot = spotWords(command.spot);
  const on =
    slot && !isShip(slot.card)
      ? t("tcards.spot_with", {
          spot,
          card: slot.card === "treasure" ? t("tcards.treasure") : colourName(slot.card),
        })
      : spot;
  const leader = leaderName(command.leader);
  return from
    ? t("tcards.do_move_leader", { leader, spot: on })
    : t("tcards.do_place_leader", { leader, spot: on });
}

function supportLabel(command, view) {
  const colour = view?.conflict ? view.conflict.support : null;
  if (!command.count) return t("tcards.do_support_none");
  return colour
    ? t("tcards.do_support", { cards: cards(colour, command.count) })
    : t("tcards.do_support_n", { count: command.count });
}

function catastropheLabel(command, view) {
  const slot = slotAt(view, command.spot);
  const spot = fromWords(command.spot);
  return slot
    ? t("tcards.do_catastrophe_on", { spot, card: cardWords(slot.card) })
    : t("tcards.do_catastrophe", { spot });
}

export function label(command, ctx) {
  const doc = ctx?.doc || current;
  const view = doc?.view;
  const seat = known(ctx?.seat) ? ctx.seat : doc?.seat;
  const kind = String(command.type || "").replace(/^tigris-cards\./, "");
  switch (kind) {
    case "place_leader":
      return leaderLabel(command, view, seat);
    case "withdraw_leader":
      return t("tcards.do_withdraw", { leader: leaderName(command.leader) });
    case "play_card":
      return t("tcards.do_play", { card: cards(command.colour, 1), c: String(command.column + 1) });
    case "play_connector":
      return t("tcards.do_connector", { card: cards(command.colour, 1), gap: gapWords(command.gap) });
    case "play_catastrophe":
      return catastropheLabel(command, view);
    case "pass":
      return t("tcards.do_pass");
    case "commit_support":
      return supportLabel(command, view);
    case "choose_conflict":
      return t("tcards.do_conflict_first", {
        leader: leaderName(LEADER_OF[command.colour]),
        colour: colourName(command.colour),
      });
    case "score_card": {
      const phase = view?.phase;
      return phase && phase.step === "vp_offer"
        ? t("tcards.do_vp", { card: cards(phase.colour, 1) })
        : t("tcards.do_score");
    }
    case "build_ship":
      return t("tcards.do_ship", { ship: shipName(command.ship) });
    case "take_treasure":
      return t("tcards.do_treasure", { c: String(command.column + 1) });
    case "decline":
      return t("tcards.do_decline");
    default:
      return "";
  }
}

function endWords(reason) {
  switch (reason) {
    case "cards":
      return t("tcards.end_cards");
    case "treasures":
      return t("tcards.end_treasures");
    case "stalemate":
      return t("tcards.end_stalemate");
    default:
      return String(reason);
  }
}

function vpOfferWords(phase, name) {
  const params = { name, card: cards(phase.colour, 1) };
  switch (phase.reason) {
    case "card":
      return t("tcards.vp_offer_card", params);
    case "reward":
      return t("tcards.vp_offer_reward", params);
    case "income":
      return t("tcards.vp_offer_income", params);
    default:
      return t("tcards.vp_offer", params);
  }
}

// What the table awaits, for the seat `me` (the viewer, whose sentences say "you").
export function phaseWords(phase, ctx, me = null) {
  const mine = known(phase.seat) && phase.seat === me;
  const name = known(phase.seat) ? seatName(ctx, phase.seat) : "";
  switch (phase.step) {
    case "act":
      return t("tcards.now_act", { name });
    case "vp_offer":
      return vpOfferWords(phase, name);
    case "ship_offer":
      return t("tcards.now_ship", { name, c: String(phase.column + 1), colour: colourName(phase.colour) });
    case "treasure_offer":
      return t("tcards.now_treasure", { name, columns: listWords(phase.columns.map((c) => String(c + 1))) });
    case "support":
      return mine ? t("tcards.now_you_support") : t("tcards.now_support", { name });
    case "choose_conflict": {
      const colours = listWords(phase.colours.map(colourName));
      return mine ? t("tcards.now_you_choose", { colours }) : t("tcards.now_choose", { name, colours });
    }
    case "over":
      return t("tcards.now_over", { why: endWords(phase.reason) });
    default:
      return "";
  }
}

function colourCounts(list) {
  return listWords(
    COLOURS.map((c) => [c, list.filter((x) => x === c).length])
      .filter(([, n]) => n)
      .map(([c, n]) => t("tigris.points_colour", { count: n, colour: colourName(c) })),
  );
}

export function describe(event, ctx) {
  const who = (seat) => seatName(ctx, seat);
  const kind = String(event.type || "").replace(/^tigris-cards\./, "");
  return (
    courseWords(kind, event, who) ??
    placeWords(kind, event, who) ??
    conflictWords(kind, event, who) ??
    (kind === "awaiting" ? phaseWords(event.phase, ctx) : "")
  );
}

// The game's course: the start, the draw pile, turns and actions.
function courseWords(kind, event, who) {
  const name = known(event.seat) ? who(event.seat) : "";
  switch (kind) {
    case "game_started":
      return t("tcards.log_started", { count: event.seats });
    case "deck_shuffled":
      return t("tcards.log_shuffled", { count: event.order.length });
    case "cards_drawn":
      return t("tcards.log_drawn", { name, cards: colourCounts(event.cards), count: event.cards.length });
    case "cards_drawn_count":
      return t("tcards.log_drawn_count", { name, count: event.count });
    case "cards_set_aside":
      return t("tcards.log_set_aside", { count: event.count });
    case "turn_started":
      return t("tcards.log_turn", { name, count: event.actions });
    case "action_taken":
      return t("tcards.log_actions_left", { name, count: event.left });
    case "passed":
      return t("tcards.log_passed", { name });
    case "offer_declined":
      return t("tcards.log_declined", { name });
    default:
      return undefined;
  }
}

// Leaders and cards put on the table, connectors, catastrophes, points and ships.
function placeWords(kind, event, who) {
  const name = known(event.seat) ? who(event.seat) : "";
  switch (kind) {
    case "leader_placed": {
      const params = {
        name: who(event.token.seat),
        leader: leaderName(event.token.leader),
        spot: spotWords(event.spot),
      };
      return event.origin
        ? t("tcards.log_leader_moved", { ...params, from: spotWords(event.origin) })
        : t("tcards.log_leader_placed", params);
    }
    case "leader_returned":
      return t("tcards.log_leader_returned", {
        name: who(event.token.seat),
        leader: leaderName(event.token.leader),
        spot: spotWords(event.spot),
      });
    case "card_played":
      return t("tcards.log_card", { name, card: cards(event.colour, 1), c: String(event.column + 1) });
    case "connector_laid":
      return t("tcards.log_connector", { name, gap: gapWords(event.gap) });
    case "connector_chosen":
      return t("tcards.log_connector_chosen", {
        name,
        gap: gapWords(event.gap),
        card: cards(event.colour, 1),
      });
    case "connector_revealed":
      return t("tcards.log_connector_revealed", {
        gap: gapWords(event.gap),
        colour: colourName(event.colour),
      });
    case "catastrophe_struck":
      return t("tcards.log_catastrophe", { name, card: cardWords(event.card), spot: fromWords(event.spot) });
    case "vp_card_laid":
      return t("tcards.log_vp", { name, card: cards(event.colour, 1), colour: colourName(event.colour) });
    case "ship_built":
      return t("tcards.log_ship", {
        name,
        ship: shipName(event.ship),
        c: String(event.column + 1),
        cards: cards(event.colour, event.cards),
      });
    case "treasure_exchanged":
      return t("tcards.log_treasure", { name, c: String(event.column + 1) });
    default:
      return undefined;
  }
}

function resolvedWords(event, who) {
  const params = { winner: who(event.winner), loser: who(event.loser), colour: colourName(event.colour) };
  const parts = [t("tcards.log_won", params)];
  if (event.reward) parts.push(t("tcards.log_reward"));
  if (event.discarded) parts.push(t("tcards.log_discarded", { count: event.discarded }));
  return t("tcards.sentence", { parts: parts.join("; ") });
}

// Conflicts: begun, supported, won; the spoils.
function conflictWords(kind, event, who) {
  const name = known(event.seat) ? who(event.seat) : "";
  switch (kind) {
    case "conflict_begun": {
      const c = event.conflict;
      const params = {
        leader: leaderName(LEADER_OF[c.colour]),
        attacker: who(c.attacker),
        a: c.attacker_base,
        defender: who(c.defender),
        d: c.defender_base,
        cards: cardsKind(c.support),
      };
      return c.kind === "internal" ? t("tcards.log_internal", params) : t("tcards.log_external", params);
    }
    case "support_committed":
      return event.count
        ? t("tcards.log_support", { name, cards: cards(event.colour, event.count) })
        : t("tcards.log_support_none", { name });
    case "conflict_resolved":
      return resolvedWords(event, who);
    case "spoils_taken":
      return t("tcards.log_spoils", { name, count: event.spots.length });
    default:
      return undefined;
  }
}

// Public scores for the page's list of players: a VP pile shows only its top
// card until the game is over (or with open piles), then its count per colour.
export function summary(doc) {
  const view = doc?.view;
  if (!view?.players) return [];
  return view.players.map((pl) => {
    if (pl.vp_open) {
      const points = COLOURS.map((c, i) =>
        t("tigris.points_colour", { count: pl.vp_open.points[i], colour: colourName(c) }),
      );
      return t("tcards.vp_line", {
        points: points.join(" · "),
        treasures: t("tigris.treasure_count", { count: pl.vp_open.treasures }),
      });
    }
    const top = pl.vp_top
      ? pl.vp_top === "treasure"
        ? t("tcards.treasure")
        : colourName(pl.vp_top)
      : t("tcards.none");
    return t("tcards.hand_and_top", { count: pl.hand_size, top });
  });
}
