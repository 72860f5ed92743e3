// Catan in words: names and colours, command labels, event sentences, scores.

import { listWords, plural, seatName } from "../../words.js";
import { HARBOR_PATHS, PATH_ENDS, SPOT_HEXES } from "./board.js";

// ---------------------------------------------------------------- names and colours

export const TERRAIN = ["hills", "forest", "pasture", "fields", "mountains", "desert"];

export const TERRAIN_FILL = ["#c8643b", "#2f6e37", "#9ccc65", "#eac54f", "#8d9399", "#e6d3a3"];

export const TERRAIN_EDGE = ["#8e3f20", "#1b4521", "#5f8f35", "#b38d1f", "#5d6267", "#b59f6a"];

export const TERRAIN_RESOURCE = [0, 1, 2, 3, 4, -1];

export const KIND = ["brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin"];

export const KIND_FILL = [
  "#c8643b",
  "#2f6e37",
  "#9ccc65",
  "#eac54f",
  "#8d9399",
  "#3f9d5a",
  "#d9a21b",
  "#3a6fc4",
];

export const RESOURCES = [0, 1, 2, 3, 4];

export const COMMODITIES = [5, 6, 7];

export const TRACKS = ["trade", "politics", "science"];

export const TRACK_FILL = ["#d9a21b", "#3a6fc4", "#3f9d5a"];

const TRACK_COMMODITY = [6, 7, 5]; // cloth, coin, paper

export const STRENGTH = ["", "basic", "strong", "mighty"];

export const SEAT_FILL = ["#d7322b", "#2462c7", "#f08c1a", "#f6f3ec", "#3c9a4a", "#7b4a2a"];

export const SEAT_INK = ["#fff", "#fff", "#1d1d1d", "#1d1d1d", "#fff", "#fff"];

export const SEAT_COLOUR = ["red", "blue", "orange", "white", "green", "brown"];

export const EVENT_FACE = {
  ship: "barbarian ship",
  trade: "trade gate (yellow)",
  politics: "politics gate (blue)",
  science: "science gate (green)",
};

export const DEAL = 17;

const CARD_TITLE = {
  victory_point: "Victory Point",
  road_building: "Road Building",
  year_of_plenty: "Year of Plenty",
  commercial_harbor: "Commercial Harbor",
  master_merchant: "Master Merchant",
  merchant_fleet: "Merchant Fleet",
  resource_monopoly: "Resource Monopoly",
  trade_monopoly: "Trade Monopoly",
};

export const CARD_HINT = {
  knight: "move the robber and steal",
  victory_point: "1 hidden point",
  road_building: "2 free roads",
  year_of_plenty: "take 2 resources",
  monopoly: "take every card of one resource",
  alchemist: "choose the dice",
  crane: "an improvement costs 1 less",
  engineer: "a free city wall",
  inventor: "swap two number tokens",
  irrigation: "2 grain per fields hex",
  medicine: "a cheaper city",
  mining: "2 ore per mountains hex",
  printer: "1 point",
  smith: "promote up to 2 knights",
  bishop: "move the robber, steal from each",
  constitution: "1 point",
  deserter: "take over a knight",
  diplomat: "remove an open road",
  intrigue: "displace a knight",
  saboteur: "others discard half",
  spy: "look at and take a progress card",
  warlord: "activate all knights",
  wedding: "richer players give 2",
  commercial_harbor: "resource for commodity swaps",
  master_merchant: "take 2 cards from a richer player",
  merchant: "place the merchant",
  merchant_fleet: "2:1 in one kind this turn",
  resource_monopoly: "2 of a resource from each",
  trade_monopoly: "1 of a commodity from each",
};

export const cardTitle = (c) =>
  CARD_TITLE[c] || (c ? c[0].toUpperCase() + c.slice(1).replace(/_/g, " ") : "nothing");

export function handWords(hand) {
  const out = [];
  (hand || []).forEach((n, k) => {
    if (n) out.push(`${n} ${KIND[k]}`);
  });
  return out.length ? listWords(out) : "nothing";
}

export const total = (hand) => (hand || []).reduce((a, b) => a + b, 0);

// The view a label or sentence may consult for place names (the last one drawn).
let lastView = null;

// The view being drawn: labels and sentences asked for without one read it.
export function drawingView(view) {
  lastView = view;
}

const viewOf = (ctx) => ctx?.doc?.view || ctx?.view || lastView;

export function hexName(h, view) {
  if (!view?.terrain || view.terrain[h] === undefined) return `hex ${h + 1}`;
  const t = view.terrain[h];
  const n = view.numbers ? view.numbers[h] : 0;
  return n ? `${n} ${TERRAIN[t]}` : `the ${TERRAIN[t]}`;
}

export function spotName(s, view) {
  if (!view?.terrain) return `corner ${s + 1}`;
  const hexes = SPOT_HEXES[s].map((h) => hexName(h, view).replace(/^the /, ""));
  return hexes.length === 1 ? `the coast by ${hexes[0]}` : `${hexes.join(" / ")}`;
}

function pathName(p, view) {
  if (!view?.terrain) return `on edge ${p + 1}`;
  const [a, b] = PATH_ENDS[p];
  const both = SPOT_HEXES[a]
    .filter((h) => SPOT_HEXES[b].includes(h))
    .map((h) => hexName(h, view).replace(/^the /, ""));
  return both.length === 2
    ? `between ${both[0]} and ${both[1]}`
    : `on the coast of ${both[0] || "the island"}`;
}

// ---------------------------------------------------------------- labels

export function bankRate(view, kind) {
  if (!view || view.seat === null || view.seat === undefined || !view.owner) return null;
  const seat = view.seat;
  const harbors = new Set();
  HARBOR_PATHS.forEach((p, i) => {
    if (PATH_ENDS[p].some((s) => view.owner[s] === seat)) harbors.add(view.harbors[i]);
  });
  let best = harbors.has(5) ? 3 : 4;
  if (kind < 5 && harbors.has(kind)) best = 2;
  if (!isCK(view)) return best;
  const me = view.players[seat];
  const mk = view.merchant >= 0 ? TERRAIN_RESOURCE[view.terrain[view.merchant]] : -1;
  if (kind >= 5 && me.levels[0] >= 3) best = 2;
  if (
    (view.merchant_owner === seat && kind === mk) ||
    (view.effects && (view.effects.fleet || []).includes(kind))
  )
    best = 2;
  return best;
}

// Whether a view is of Cities & Knights: known from the document's game key
// when it was drawn, else from what only C&K has (progress decks, knights).
export const CK = new WeakMap();

export let lastOptions = null;

// The table's options (its points to win), for the labels and the panel.
export function drawingOptions(options) {
  lastOptions = options;
}

// A table's options, learnt from its first event (the view does not carry
// them): the barbarian track's length and the points to win.
export const OPTIONS = new Map();

export function isCK(view) {
  if (!view) return false;
  if (CK.has(view)) return CK.get(view);
  return (
    (view.decks || []).slice(1).some((n) => n > 0) ||
    (view.knights || []).length > 0 ||
    view.players.some((p) => p.levels.some((l) => l > 0) || p.commodities > 0) ||
    (view.dice && !!view.dice[2])
  );
}

export function pendingKind(view) {
  return view?.pending ? view.pending.kind : "";
}

function chooseLabel(c, ctx) {
  const view = viewOf(ctx);
  const p = view?.pending;
  const v = c.choice;
  switch (p ? p.kind : "") {
    case "trade":
      return v === 1 ? "Accept the offer" : v === 0 ? "Decline the offer" : `Answer ${v}`;
    case "trade_confirm": {
      if (v < 0) return "Decline every answer";
      const d = p.data.slice(v * DEAL, (v + 1) * DEAL);
      return `Trade with ${seatName(ctx, d[0], "Player")}: give ${handWords(d.slice(1, 9))}, get ${handWords(d.slice(9, 17))}`;
    }
    case "aqueduct":
      return v < 0 ? "Take nothing (Aqueduct)" : `Take 1 ${KIND[v]} (Aqueduct)`;
    case "pillage":
      return `Let the barbarians pillage your city at ${spotName(v, view)}`;
    case "defender_draw":
      return `Draw from the ${TRACKS[v]} deck`;
    case "muster": {
      const mine = view.knights.filter((k) => k.owner === view.seat && k.active);
      const fighting = mine.filter((_, i) => (v >> i) & 1);
      return fighting.length
        ? `Send ${plural(fighting.length, "knight")} to fight (strength ${fighting.reduce((a, k) => a + k.strength, 0)})`
        : "Send no knight to fight";
    }
    case "retreat":
      return `Retreat the displaced knight to ${spotName(v, view)}`;
    case "deserter":
      return `Give up your knight at ${spotName(v, view)}`;
    case "deserter_strength":
      return `Place a ${STRENGTH[v]} knight`;
    case "deserter_place":
      return v < 0 ? "Place no knight" : `Place the deserting knight at ${spotName(v, view)}`;
    case "diplomat":
      return v < 0 ? "Leave the road off the board" : `Place the road again ${pathName(v, view)}`;
    case "harbor":
      return `Give 1 ${KIND[v]}`;
    default:
      return v < 0 ? "Decline" : `Choose ${v}`;
  }
}

function progressLabel(c, ctx) {
  const view = viewOf(ctx);
  const t = cardTitle(c.card);
  switch (c.card) {
    case "alchemist":
      return `Play Alchemist: yellow ${c.a}, red ${c.b}`;
    case "bishop":
      return `Play Bishop: robber to ${hexName(c.a, view)}`;
    case "merchant":
      return `Play Merchant: merchant to ${hexName(c.a, view)}`;
    case "diplomat":
      return `Play Diplomat on the road ${pathName(c.a, view)}`;
    case "intrigue":
      return `Play Intrigue: displace the knight at ${spotName(c.a, view)}`;
    case "engineer":
      return `Play Engineer: a wall at ${spotName(c.a, view)}`;
    case "medicine":
      return `Play Medicine: a city at ${spotName(c.a, view)}`;
    case "inventor":
      return `Play Inventor: swap ${hexName(c.a, view)} and ${hexName(c.b, view)}`;
    case "smith":
      return c.b >= 0
        ? `Play Smith: promote the knights at ${spotName(c.a, view)} and ${spotName(c.b, view)}`
        : `Play Smith: promote the knight at ${spotName(c.a, view)}`;
    case "deserter":
    case "spy":
    case "master_merchant":
      return `Play ${t} on ${seatName(ctx, c.a, "Player")}`;
    case "merchant_fleet":
      return `Play Merchant Fleet: 2:1 ${KIND[c.a]}`;
    case "resource_monopoly":
    case "trade_monopoly":
      return `Play ${t} on ${KIND[c.a]}`;
    default:
      return `Play ${t}`;
  }
}

function selectLabel(c, ctx) {
  const view = viewOf(ctx);
  const kind = pendingKind(view);
  const words = handWords(c.cards);
  if (kind === "gift") return `Give ${words}`;
  if (kind === "master_merchant") return `Take ${words}`;
  return `Discard ${words}`;
}

export function label(c, ctx) {
  const view = viewOf(ctx);
  return turnLabel(c, ctx, view) ?? knightLabel(c, ctx, view) ?? c.type;
}

// The base game's moves: building, the dice, the robber, trades and cards.
function turnLabel(c, ctx, view) {
  const setup = view && view.phase === "setup";
  switch (c.type) {
    case "catan.build_settlement":
      return `${setup ? "Place" : "Build"} a settlement at ${spotName(c.spot, view)}`;
    case "catan.build_city":
      return setup
        ? `Place a city at ${spotName(c.spot, view)}`
        : `Build a city at ${spotName(c.spot, view)}`;
    case "catan.build_road":
      return `${setup ? "Place" : "Build"} a road ${pathName(c.path, view)}`;
    case "catan.roll_dice":
      return "Roll the dice";
    case "catan.end_turn":
      return "End your turn";
    case "catan.move_robber":
      return `Move the robber to ${hexName(c.hex, view)}${c.victim >= 0 ? `, stealing from ${seatName(ctx, c.victim, "Player")}` : ""}`;
    case "catan.select_cards":
      return selectLabel(c, ctx);
    case "catan.choose":
      return chooseLabel(c, ctx);
    case "catan.trade_bank": {
      const r = bankRate(view, c.give);
      return `Trade ${r ? `${r} ` : ""}${KIND[c.give]} for 1 ${KIND[c.get]} with the bank`;
    }
    case "catan.offer_trade":
      return `Offer ${handWords(c.give)} for ${handWords(c.get)} to ${c.to >= 0 ? seatName(ctx, c.to, "Player") : "everyone"}`;
    case "catan.counter_trade":
      return `Counter: give ${handWords(c.give)} for ${handWords(c.get)}`;
    case "catan.buy_dev_card":
      return "Buy a development card";
    case "catan.play_dev_card":
      if (c.card === "monopoly") return `Play Monopoly on ${KIND[c.kinds[0]]}`;
      if (c.card === "year_of_plenty")
        return `Play Year of Plenty: ${listWords(c.kinds.map((k) => KIND[k]))}`;
      return `Play ${cardTitle(c.card)}`;
    default:
      return undefined;
  }
}

// Cities & Knights' moves: walls, knights, improvements, progress cards and harbours.
function knightLabel(c, ctx, view) {
  switch (c.type) {
    case "catan.build_wall":
      return `Build a city wall at ${spotName(c.spot, view)}`;
    case "catan.build_knight":
      return `Recruit a basic knight at ${spotName(c.spot, view)}`;
    case "catan.activate_knight":
      return `Activate the knight at ${spotName(c.spot, view)} (1 grain)`;
    case "catan.promote_knight": {
      const k = view?.knights.find((x) => x.spot === c.spot);
      return `Promote the knight at ${spotName(c.spot, view)}${k ? ` to ${STRENGTH[k.strength + 1]}` : ""}`;
    }
    case "catan.move_knight": {
      const other = view?.knights.find((x) => x.spot === c.to);
      return `${other ? "Displace the knight" : "Move the knight"} from ${spotName(c.spot, view)} to ${spotName(c.to, view)}`;
    }
    case "catan.chase_robber":
      return `Chase the robber with the knight at ${spotName(c.spot, view)} to ${hexName(c.hex, view)}${c.victim >= 0 ? `, stealing from ${seatName(ctx, c.victim, "Player")}` : ""}`;
    case "catan.buy_improvement": {
      const level =
        view && view.seat !== null && view.seat !== undefined
          ? view.players[view.seat].levels[c.track] + 1
          : 0;
      const price = level
        ? ` (level ${level}, ${level - (view.effects?.cranes ? 1 : 0)} ${KIND[TRACK_COMMODITY[c.track]]})`
        : "";
      return `Improve ${TRACKS[c.track]}${price}${c.spot >= 0 ? `: metropolis at ${spotName(c.spot, view)}` : ""}`;
    }
    case "catan.play_progress":
      return progressLabel(c, ctx);
    case "catan.discard_progress":
      return `Discard ${listWords(c.cards.map(cardTitle))}`;
    case "catan.take_card":
      return c.card ? `Take ${cardTitle(c.card)}` : "Take no card";
    case "catan.harbor_exchange":
      return `Commercial Harbor: give ${seatName(ctx, c.seat, "Player")} 1 ${KIND[c.kind]} for a commodity`;
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- event sentences

const TASK_WORDS = {
  robber: (e, n) => `${n(e.task.owner)} moves the robber.`,
  free_roads: (e, n) => `${n(e.task.seats[0])} may build ${plural(e.task.amounts[0] || 0, "free road")}.`,
  trade_confirm: (e, n) => `${n(e.task.owner)} looks over the answers to the offer.`,
  aqueduct: (e, n) => `${n(e.task.seats[0])} produced nothing and may take a resource (Aqueduct).`,
  pillage: (e, n) => `${listWords(e.task.seats.map(n))} must choose a city for the barbarians to pillage.`,
  defender_draw: (e, n) => `${n(e.task.seats[0])}, a tied defender, picks a progress deck to draw from.`,
  muster: (e, n) => `${listWords(e.task.seats.map(n))} choose which active knights fight.`,
  retreat: (e, n) => `${n(e.task.seats[0])} moves the displaced knight along their roads.`,
  deserter: (e, n) => `${n(e.task.seats[0])} chooses which knight deserts to ${n(e.task.owner)}.`,
  deserter_strength: (e, n) => `${n(e.task.owner)} chooses how strong the deserting knight is.`,
  deserter_place: (e, n) => `${n(e.task.owner)} chooses where the deserting knight stands.`,
  diplomat: (e, n) => `${n(e.task.owner)} may place the removed road elsewhere.`,
  spy: (e, n) => `${n(e.task.owner)} chooses a progress card to take from ${n(e.task.data[0])}.`,
  gift: (e, n) => `${listWords(e.task.seats.map(n))} must each give ${n(e.task.owner)} 2 cards (Wedding).`,
  master_merchant: (e, n) =>
    `${n(e.task.owner)} takes ${plural(e.task.amounts[0] || 0, "card")} of their choice from ${n(e.task.data[0])}.`,
  harbor: (e, n) =>
    `${n(e.task.seats[0])} chooses a commodity to give ${n(e.task.owner)} (Commercial Harbor).`,
};

function taskSentence(e, n) {
  const t = e.task;
  if (t.kind === "discard") {
    return `${listWords(t.seats.map((s, i) => `${n(s)} (${t.amounts[i]})`))} must discard half their cards.`;
  }
  if (t.kind === "progress_discard") {
    return `${listWords(t.seats.map((s, i) => `${n(s)} (${t.amounts[i]})`))} must discard progress cards down to the limit.`;
  }
  if (t.kind === "trade") {
    const to = t.seats.length === 1 ? n(t.seats[0]) : "everyone";
    return `${n(t.owner)} offers ${handWords(t.data.slice(0, 8))} for ${handWords(t.data.slice(8, 16))} to ${to}.`;
  }
  const words = TASK_WORDS[t.kind];
  return words ? words(e, n) : `${listWords(t.seats.map(n))} must decide (${t.kind.replace(/_/g, " ")}).`;
}

export function answerWords(a, kind, n, view) {
  switch (kind) {
    case "trade":
      if (a.choice === 1) return `${n(a.seat)} accepts`;
      if (a.choice === 2)
        return `${n(a.seat)} counters with ${handWords(a.cards)} for ${handWords(a.counter)}`;
      return `${n(a.seat)} declines`;
    case "trade_confirm":
      return a.choice < 0 ? `${n(a.seat)} makes no deal` : `${n(a.seat)} takes deal ${a.choice + 1}`;
    case "discard":
      return `${n(a.seat)} discards ${handWords(a.cards)}`;
    case "aqueduct":
      return a.choice < 0 ? `${n(a.seat)} takes nothing` : `${n(a.seat)} takes 1 ${KIND[a.choice]}`;
    case "pillage":
      return `${n(a.seat)} gives up the city at ${spotName(a.choice, view)}`;
    case "defender_draw":
      return `${n(a.seat)} draws from the ${TRACKS[a.choice]} deck`;
    case "muster":
      return `${n(a.seat)} sends knights (choice ${a.choice})`;
    case "retreat":
    case "deserter_place":
      return a.choice < 0
        ? `${n(a.seat)} places no knight`
        : `${n(a.seat)} picks ${spotName(a.choice, view)}`;
    case "deserter":
      return `${n(a.seat)} gives up the knight at ${spotName(a.choice, view)}`;
    case "deserter_strength":
      return `${n(a.seat)} picks a ${STRENGTH[a.choice]} knight`;
    case "diplomat":
      return a.choice < 0
        ? `${n(a.seat)} keeps the road off the board`
        : `${n(a.seat)} places it ${pathName(a.choice, view)}`;
    default:
      return `${n(a.seat)} answers`;
  }
}

export function describe(e, ctx) {
  const n = (s) => seatName(ctx, s, "Player");
  const view = viewOf(ctx);
  return (
    courseWords(e, n, view, ctx) ??
    decisionWords(e, n, view) ??
    pieceWords(e, n, view) ??
    cardWords(e, n) ??
    scoreWords(e, n, view) ??
    (e.type ? e.type.replace(/^catan\./, "").replace(/_/g, " ") : "")
  );
}

// The game's course: its start, the island laid out, the phases and the turn's effects.
function courseWords(e, n, view, ctx) {
  switch (e.type) {
    case "catan.started": {
      const o = e.options || {};
      const table = ctx?.doc?.game_id;
      if (table && !OPTIONS.has(table)) OPTIONS.set(table, o);
      const ck = o.expansion !== "none";
      const target = o.points_to_win || (ck ? 13 : 10);
      return `A game of ${ck ? "Catan: Cities & Knights" : "Catan"} for ${e.seats} begins: first to ${target} points wins. ${n(e.first)} goes first.`;
    }
    case "catan.start_rolled":
      return `Rolling for the first turn: ${listWords(e.seats.map((s, i) => `${n(s)} ${e.dice[i][0] + e.dice[i][1]}`))}.`;
    case "catan.board_laid":
      return "The island is laid out: 19 hexes, their number tokens and 9 harbours.";
    case "catan.decks_shuffled":
      return "The decks are shuffled.";
    case "catan.phase_set":
      if (e.phase === "setup") {
        if (e.setup_spot >= 0) return `${n(e.active)} places a road beside the new building.`;
        const second = view && e.setup_queue.length <= view.players.length;
        return `${n(e.active)} places a ${second ? "second" : "first"} starting ${second && isCK(view) ? "city" : "settlement"}.`;
      }
      if (e.phase === "roll") return `Turn ${e.turn}: ${n(e.active)} is up and rolls the dice.`;
      if (e.phase === "main") return `${n(e.active)} may trade and build.`;
      return "The game is over.";
    case "catan.effects_set": {
      const f = e.effects || {};
      const parts = [];
      if (f.cranes) parts.push(`the next improvement costs 1 commodity less (Crane)`);
      if (f.fleet?.length)
        parts.push(`${listWords(f.fleet.map((k) => KIND[k]))} trade 2:1 this turn (Merchant Fleet)`);
      if (f.harbor_targets?.length)
        parts.push(
          `Commercial Harbor exchanges are open with ${listWords([...new Set(f.harbor_targets)].map(n))}`,
        );
      if (f.errant) parts.push("a knight chased the robber before the roll");
      return parts.length ? `This turn: ${parts.join("; ")}.` : "The turn's special effects end.";
    }
    case "catan.todo_set":
      return e.todo.length
        ? `The rest of the roll (${listWords(e.todo)}) waits for that decision.`
        : "The rest of the roll goes on.";
    default:
      return undefined;
  }
}

// Decisions several players take at once: asked, answered, closed.
function decisionWords(e, n, view) {
  switch (e.type) {
    case "catan.task_opened":
      return taskSentence(e, n);
    case "catan.harbor_offered":
      return `${n(e.owner)} hands ${n(e.seat)} 1 ${KIND[e.kind]} face down (Commercial Harbor).`;
    case "catan.answered": {
      const a = e.answer;
      const what = total(a.cards)
        ? `: ${handWords(a.cards)}${a.counter && total(a.counter) ? ` for ${handWords(a.counter)}` : ""}`
        : a.names?.length
          ? `: ${listWords(a.names.map(cardTitle))}`
          : "";
      return `${n(a.seat)}'s answer is in${what} (the others see it only when everyone has answered).`;
    }
    case "catan.answered_shadow":
      return `${n(e.seat)} has answered.`;
    case "catan.task_closed": {
      const shown = (e.answers || []).filter((a) => !(e.kind === "discard" && !total(a.cards)));
      if (!shown.length || e.kind === "discard") return "Everyone concerned has decided.";
      return `${listWords(shown.map((a) => answerWords(a, e.kind, n, view)))}.`;
    }
    default:
      return undefined;
  }
}

// Pieces on the island: buildings, roads, walls, knights, the robber and the merchant.
function pieceWords(e, n, view) {
  switch (e.type) {
    case "catan.building_placed":
      return e.level === 2
        ? `${n(e.seat)} builds a city at ${spotName(e.spot, view)}.`
        : `${n(e.seat)} builds a settlement at ${spotName(e.spot, view)}.`;
    case "catan.city_pillaged":
      return `The barbarians pillage ${n(e.seat)}'s city at ${spotName(e.spot, view)}: it is a settlement again${e.tipped ? " (the city lies on its side)" : ""}.`;
    case "catan.road_placed":
      return `${n(e.seat)} builds a road ${pathName(e.path, view)}.`;
    case "catan.road_removed":
      return `The road ${pathName(e.path, view)} is removed.`;
    case "catan.wall_placed":
      return `${n(e.seat)} builds a city wall at ${spotName(e.spot, view)} (hand limit +2).`;
    case "catan.knight_set": {
      const k = e.knight;
      return `${n(k.owner)}'s ${STRENGTH[k.strength]} knight stands at ${spotName(k.spot, view)}, ${k.active ? "active" : "inactive"}.`;
    }
    case "catan.knight_removed":
      return `The knight at ${spotName(e.spot, view)} leaves it.`;
    case "catan.robber_moved":
      return `The robber moves to ${hexName(e.hex, view)}.`;
    case "catan.merchant_moved":
      return `${n(e.seat)} places the merchant on ${hexName(e.hex, view)}: 1 point and 2:1 trade in its resource.`;
    case "catan.numbers_swapped":
      return view?.terrain
        ? `The number tokens on the ${TERRAIN[view.terrain[e.a]]} and the ${TERRAIN[view.terrain[e.b]]} swap places (Inventor).`
        : "Two number tokens swap places (Inventor).";
    default:
      return undefined;
  }
}

// Cards changing hands: resources and commodities, development and progress cards.
function cardWords(e, n) {
  switch (e.type) {
    case "catan.cards_paid":
      return `${n(e.seat)} pays ${handWords(e.cards)} to the bank.`;
    case "catan.cards_gained":
      return `${n(e.seat)} receives ${handWords(e.cards)}.`;
    case "catan.cards_passed":
      return `${n(e.src)} gives ${n(e.dst)} ${handWords(e.cards)}.`;
    case "catan.cards_taken":
      return `${n(e.dst)} gets ${handWords(e.cards)} from ${n(e.src)} (only the two of them see which).`;
    case "catan.cards_taken_shadow":
      return `${n(e.dst)} takes ${plural(e.count, "card")} from ${n(e.src)}.`;
    case "catan.hand_shown":
      return `${n(e.seat)} looks at ${n(e.target)}'s cards: ${handWords(e.cards)}.`;
    case "catan.progress_shown":
      return `${n(e.seat)} looks at ${n(e.target)}'s progress cards: ${e.cards.length ? listWords(e.cards.map(cardTitle)) : "none"}.`;
    case "catan.card_drawn":
      return `${n(e.seat)} draws ${cardTitle(e.card)}.`;
    case "catan.card_drawn_shadow":
      return e.deck < 0
        ? `${n(e.seat)} buys a development card.`
        : `${n(e.seat)} draws a ${TRACKS[e.deck]} card.`;
    case "catan.card_revealed":
      return `${n(e.seat)} reveals ${cardTitle(e.card)}: 1 point.`;
    case "catan.card_played":
      return `${n(e.seat)} plays ${cardTitle(e.card)}.`;
    case "catan.card_discarded":
      return `${n(e.seat)} discards ${cardTitle(e.card)}.`;
    case "catan.card_discarded_shadow":
      return `${n(e.seat)} discards a ${e.deck >= 0 ? `${TRACKS[e.deck]} ` : ""}card.`;
    case "catan.card_stolen":
      return `${n(e.dst)} takes ${cardTitle(e.card)} from ${n(e.src)}.`;
    case "catan.card_stolen_shadow":
      return `${n(e.dst)} takes a progress card from ${n(e.src)}.`;
    default:
      return undefined;
  }
}

// The dice, the barbarians, and what scores: improvements, titles and the win.
function scoreWords(e, n, view) {
  switch (e.type) {
    case "catan.dice_rolled": {
      const face = e.event ? `; the event die shows the ${EVENT_FACE[e.event] || e.event}` : "";
      return `The dice roll ${e.yellow + e.red} (${e.yellow} and ${e.red})${face}.`;
    }
    case "catan.barbarian_moved":
      return `The barbarian ship sails on: ${e.position} of ${trackLength(view)} steps.`;
    case "catan.barbarians_attacked": {
      const outcome = e.barbarians > e.knights ? "the barbarians win" : "Catan holds";
      const who = (e.contributions || []).map((c, s) => (c ? `${n(s)} ${c}` : "")).filter(Boolean);
      return `The barbarians attack with strength ${e.barbarians} against knights of ${e.knights}${who.length ? ` (${who.join(", ")})` : ""}: ${outcome}.`;
    }
    case "catan.defender_awarded":
      return `${n(e.seat)} is named Defender of Catan: 1 point.`;
    case "catan.improvement_bought":
      return `${n(e.seat)} improves ${TRACKS[e.track]} to level ${e.level}.`;
    case "catan.metropolis_placed": {
      const owner = view?.owner ? view.owner[e.spot] : -1;
      return `${owner >= 0 ? `${n(owner)}'s` : "The"} city at ${spotName(e.spot, view)} becomes the ${TRACKS[e.track]} metropolis: 2 points.`;
    }
    case "catan.longest_road_set":
      return e.holder >= 0
        ? `${n(e.holder)} holds the longest road (${e.lengths[e.holder]} roads): 2 points.`
        : "Nobody holds the longest road now.";
    case "catan.largest_army_set":
      return e.holder >= 0
        ? `${n(e.holder)} holds the largest army: 2 points.`
        : "Nobody holds the largest army now.";
    case "catan.game_won": {
      const pts = e.points || [];
      return `${n(e.seat)} wins with ${pts[e.seat]} points! ${pts.map((p, s) => `${n(s)} ${p}`).join(", ")}.`;
    }
    default:
      return undefined;
  }
}

export function trackLength(view) {
  const opts = lastOptions;
  return opts?.barbarian_track || Math.max(7, view ? view.barbarian : 0);
}

// Public scores for the page's list of players: points and card counts.
export function summary(doc) {
  const view = doc?.view;
  if (!view?.players) return [];
  const ck = doc.game !== "catan";
  return view.players.map(
    (p) =>
      `${plural(p.points, "point")} · ${plural(p.resources + p.commodities, "card")} · ${p.progress} ${ck ? "progress" : "development"}`,
  );
}
