// Catan and Catan: Cities & Knights (`catan`, `catan-ck`): the board renderer.
//
// Draws the island from the view document (docs/web-client.md, "The game
// renderer contract"): hexes, number tokens, harbours, robber and merchant,
// roads, settlements, cities, walls, metropolises and knights on the map; the
// dice, the event die and the barbarian ship above it; players, public scores,
// card counts, improvements, the seat's own hand (a seat page only), whose turn
// and the pending decision beside it. Only what the document holds is shown:
// nothing here infers another seat's hidden cards.
//
// The geometry is rebuilt from shared/games/catan/board.py: pointy-top hexes
// numbered 0..18 in reading order (rows 3-4-5-4-3); a hex centre sits at
// (2q + r, 3r) on a grid whose corners are the intersections; intersections
// ("spots") and paths are numbered by their rank in sorted order.

const SVG = "http://www.w3.org/2000/svg";
const SQ3 = Math.sqrt(3);
const U = 24; // one grid unit in SVG units; a hex's radius is 2U

// ---------------------------------------------------------------- geometry

const ROW_QS = [
  [0, 3],
  [-1, 3],
  [-2, 3],
  [-2, 2],
  [-2, 1],
];
const AXIAL = [];
ROW_QS.forEach(([lo, hi], r) => {
  for (let q = lo; q < hi; q++) AXIAL.push([q, r - 2]);
});
const CORNER_OFFSETS = [
  [0, -2],
  [1, -1],
  [1, 1],
  [0, 2],
  [-1, 1],
  [-1, -1],
];
const SIDES = { ne: 0, e: 1, se: 2, sw: 3, w: 4, nw: 5 };

function cornerPoints(h) {
  const [q, r] = AXIAL[h];
  const x = 2 * q + r,
    y = 3 * r;
  return CORNER_OFFSETS.map(([dx, dy]) => [x + dx, y + dy]);
}

const POINTS = (() => {
  const seen = new Map();
  for (let h = 0; h < 19; h++) for (const p of cornerPoints(h)) seen.set(p.join(","), p);
  return [...seen.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
})();
const POINT_ID = new Map(POINTS.map((p, i) => [p.join(","), i]));
const HEX_CORNERS = AXIAL.map((_, h) => cornerPoints(h).map((p) => POINT_ID.get(p.join(","))));
const PATH_ENDS = (() => {
  const seen = new Map();
  for (const c of HEX_CORNERS) {
    for (let k = 0; k < 6; k++) {
      const a = Math.min(c[k], c[(k + 1) % 6]),
        b = Math.max(c[k], c[(k + 1) % 6]);
      seen.set(`${a},${b}`, [a, b]);
    }
  }
  return [...seen.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
})();
const PATH_ID = new Map(PATH_ENDS.map((e, i) => [e.join(","), i]));
const SPOT_HEXES = POINTS.map((_, s) =>
  HEX_CORNERS.map((c, h) => (c.includes(s) ? h : -1)).filter((h) => h >= 0),
);
const HARBOR_SPOTS = [
  [0, "nw"],
  [1, "ne"],
  [6, "ne"],
  [11, "e"],
  [15, "se"],
  [17, "se"],
  [16, "sw"],
  [12, "w"],
  [3, "w"],
];

function sidePath(h, side) {
  const c = HEX_CORNERS[h],
    k = SIDES[side];
  const a = c[k],
    b = c[(k + 1) % 6];
  return PATH_ID.get(`${Math.min(a, b)},${Math.max(a, b)}`);
}
const HARBOR_PATHS = HARBOR_SPOTS.map(([h, side]) => sidePath(h, side));

const spotXY = (s) => [POINTS[s][0] * SQ3 * U, POINTS[s][1] * U];
const hexXY = (h) => {
  const [q, r] = AXIAL[h];
  return [(2 * q + r) * SQ3 * U, 3 * r * U];
};

// Exposed for tests of the geometry (compared with board.py).
export const geometry = {
  HEX_CORNERS,
  PATH_ENDS,
  HARBOR_PATHS,
  N_SPOTS: POINTS.length,
  N_PATHS: PATH_ENDS.length,
};

// ---------------------------------------------------------------- names and colours

const TERRAIN = ["hills", "forest", "pasture", "fields", "mountains", "desert"];
const TERRAIN_FILL = ["#c8643b", "#2f6e37", "#9ccc65", "#eac54f", "#8d9399", "#e6d3a3"];
const TERRAIN_EDGE = ["#8e3f20", "#1b4521", "#5f8f35", "#b38d1f", "#5d6267", "#b59f6a"];
const TERRAIN_RESOURCE = [0, 1, 2, 3, 4, -1];
const KIND = ["brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin"];
const KIND_FILL = ["#c8643b", "#2f6e37", "#9ccc65", "#eac54f", "#8d9399", "#3f9d5a", "#d9a21b", "#3a6fc4"];
const RESOURCES = [0, 1, 2, 3, 4];
const COMMODITIES = [5, 6, 7];
const TRACKS = ["trade", "politics", "science"];
const TRACK_FILL = ["#d9a21b", "#3a6fc4", "#3f9d5a"];
const TRACK_COMMODITY = [6, 7, 5]; // cloth, coin, paper
const STRENGTH = ["", "basic", "strong", "mighty"];
const SEAT_FILL = ["#d7322b", "#2462c7", "#f08c1a", "#f6f3ec", "#3c9a4a", "#7b4a2a"];
const SEAT_INK = ["#fff", "#fff", "#1d1d1d", "#1d1d1d", "#fff", "#fff"];
const SEAT_COLOUR = ["red", "blue", "orange", "white", "green", "brown"];
const EVENT_FACE = {
  ship: "barbarian ship",
  trade: "trade gate (yellow)",
  politics: "politics gate (blue)",
  science: "science gate (green)",
};
const DEAL = 17;

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
const CARD_HINT = {
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
const cardTitle = (c) =>
  CARD_TITLE[c] || (c ? c[0].toUpperCase() + c.slice(1).replace(/_/g, " ") : "nothing");

function nameOf(ctx, seat) {
  const names = ctx?.names;
  const n = names && (names[seat] ?? names[String(seat)]);
  return n || `Player ${seat + 1}`;
}

function listing(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function handWords(hand) {
  const out = [];
  (hand || []).forEach((n, k) => {
    if (n) out.push(`${n} ${KIND[k]}`);
  });
  return out.length ? listing(out) : "nothing";
}

const total = (hand) => (hand || []).reduce((a, b) => a + b, 0);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;

// The view a label or sentence may consult for place names (the last one drawn).
let lastView = null;
const viewOf = (ctx) => ctx?.doc?.view || ctx?.view || lastView;

function hexName(h, view) {
  if (!view?.terrain || view.terrain[h] === undefined) return `hex ${h + 1}`;
  const t = view.terrain[h];
  const n = view.numbers ? view.numbers[h] : 0;
  return n ? `${n} ${TERRAIN[t]}` : `the ${TERRAIN[t]}`;
}

function spotName(s, view) {
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

function bankRate(view, kind) {
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
const CK = new WeakMap();
let lastOptions = null;
// A table's options, learnt from its first event (the view does not carry
// them): the barbarian track's length and the points to win.
const OPTIONS = new Map();

function isCK(view) {
  if (!view) return false;
  if (CK.has(view)) return CK.get(view);
  return (
    (view.decks || []).slice(1).some((n) => n > 0) ||
    (view.knights || []).length > 0 ||
    view.players.some((p) => p.levels.some((l) => l > 0) || p.commodities > 0) ||
    (view.dice && !!view.dice[2])
  );
}

function pendingKind(view) {
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
      return `Trade with ${nameOf(ctx, d[0])}: give ${handWords(d.slice(1, 9))}, get ${handWords(d.slice(9, 17))}`;
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
      return `Play ${t} on ${nameOf(ctx, c.a)}`;
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
      return `Move the robber to ${hexName(c.hex, view)}${c.victim >= 0 ? `, stealing from ${nameOf(ctx, c.victim)}` : ""}`;
    case "catan.select_cards":
      return selectLabel(c, ctx);
    case "catan.choose":
      return chooseLabel(c, ctx);
    case "catan.trade_bank": {
      const r = bankRate(view, c.give);
      return `Trade ${r ? `${r} ` : ""}${KIND[c.give]} for 1 ${KIND[c.get]} with the bank`;
    }
    case "catan.offer_trade":
      return `Offer ${handWords(c.give)} for ${handWords(c.get)} to ${c.to >= 0 ? nameOf(ctx, c.to) : "everyone"}`;
    case "catan.counter_trade":
      return `Counter: give ${handWords(c.give)} for ${handWords(c.get)}`;
    case "catan.buy_dev_card":
      return "Buy a development card";
    case "catan.play_dev_card":
      if (c.card === "monopoly") return `Play Monopoly on ${KIND[c.kinds[0]]}`;
      if (c.card === "year_of_plenty") return `Play Year of Plenty: ${listing(c.kinds.map((k) => KIND[k]))}`;
      return `Play ${cardTitle(c.card)}`;
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
      return `Chase the robber with the knight at ${spotName(c.spot, view)} to ${hexName(c.hex, view)}${c.victim >= 0 ? `, stealing from ${nameOf(ctx, c.victim)}` : ""}`;
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
      return `Discard ${listing(c.cards.map(cardTitle))}`;
    case "catan.take_card":
      return c.card ? `Take ${cardTitle(c.card)}` : "Take no card";
    case "catan.harbor_exchange":
      return `Commercial Harbor: give ${nameOf(ctx, c.seat)} 1 ${KIND[c.kind]} for a commodity`;
    default:
      return c.type;
  }
}

// ---------------------------------------------------------------- event sentences

const TASK_WORDS = {
  robber: (e, n) => `${n(e.task.owner)} moves the robber.`,
  free_roads: (e, n) => `${n(e.task.seats[0])} may build ${plural(e.task.amounts[0] || 0, "free road")}.`,
  trade_confirm: (e, n) => `${n(e.task.owner)} looks over the answers to the offer.`,
  aqueduct: (e, n) => `${n(e.task.seats[0])} produced nothing and may take a resource (Aqueduct).`,
  pillage: (e, n) => `${listing(e.task.seats.map(n))} must choose a city for the barbarians to pillage.`,
  defender_draw: (e, n) => `${n(e.task.seats[0])}, a tied defender, picks a progress deck to draw from.`,
  muster: (e, n) => `${listing(e.task.seats.map(n))} choose which active knights fight.`,
  retreat: (e, n) => `${n(e.task.seats[0])} moves the displaced knight along their roads.`,
  deserter: (e, n) => `${n(e.task.seats[0])} chooses which knight deserts to ${n(e.task.owner)}.`,
  deserter_strength: (e, n) => `${n(e.task.owner)} chooses how strong the deserting knight is.`,
  deserter_place: (e, n) => `${n(e.task.owner)} chooses where the deserting knight stands.`,
  diplomat: (e, n) => `${n(e.task.owner)} may place the removed road elsewhere.`,
  spy: (e, n) => `${n(e.task.owner)} chooses a progress card to take from ${n(e.task.data[0])}.`,
  gift: (e, n) => `${listing(e.task.seats.map(n))} must each give ${n(e.task.owner)} 2 cards (Wedding).`,
  master_merchant: (e, n) =>
    `${n(e.task.owner)} takes ${plural(e.task.amounts[0] || 0, "card")} of their choice from ${n(e.task.data[0])}.`,
  harbor: (e, n) =>
    `${n(e.task.seats[0])} chooses a commodity to give ${n(e.task.owner)} (Commercial Harbor).`,
};

function taskSentence(e, n) {
  const t = e.task;
  if (t.kind === "discard") {
    return `${listing(t.seats.map((s, i) => `${n(s)} (${t.amounts[i]})`))} must discard half their cards.`;
  }
  if (t.kind === "progress_discard") {
    return `${listing(t.seats.map((s, i) => `${n(s)} (${t.amounts[i]})`))} must discard progress cards down to the limit.`;
  }
  if (t.kind === "trade") {
    const to = t.seats.length === 1 ? n(t.seats[0]) : "everyone";
    return `${n(t.owner)} offers ${handWords(t.data.slice(0, 8))} for ${handWords(t.data.slice(8, 16))} to ${to}.`;
  }
  const words = TASK_WORDS[t.kind];
  return words ? words(e, n) : `${listing(t.seats.map(n))} must decide (${t.kind.replace(/_/g, " ")}).`;
}

function answerWords(a, kind, n, view) {
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
  const n = (s) => nameOf(ctx, s);
  const view = viewOf(ctx);
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
      return `Rolling for the first turn: ${listing(e.seats.map((s, i) => `${n(s)} ${e.dice[i][0] + e.dice[i][1]}`))}.`;
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
        parts.push(`${listing(f.fleet.map((k) => KIND[k]))} trade 2:1 this turn (Merchant Fleet)`);
      if (f.harbor_targets?.length)
        parts.push(
          `Commercial Harbor exchanges are open with ${listing([...new Set(f.harbor_targets)].map(n))}`,
        );
      if (f.errant) parts.push("a knight chased the robber before the roll");
      return parts.length ? `This turn: ${parts.join("; ")}.` : "The turn's special effects end.";
    }
    case "catan.todo_set":
      return e.todo.length
        ? `The rest of the roll (${listing(e.todo)}) waits for that decision.`
        : "The rest of the roll goes on.";
    case "catan.task_opened":
      return taskSentence(e, n);
    case "catan.harbor_offered":
      return `${n(e.owner)} hands ${n(e.seat)} 1 ${KIND[e.kind]} face down (Commercial Harbor).`;
    case "catan.answered": {
      const a = e.answer;
      const what = total(a.cards)
        ? `: ${handWords(a.cards)}${a.counter && total(a.counter) ? ` for ${handWords(a.counter)}` : ""}`
        : a.names?.length
          ? `: ${listing(a.names.map(cardTitle))}`
          : "";
      return `${n(a.seat)}'s answer is in${what} (the others see it only when everyone has answered).`;
    }
    case "catan.answered_shadow":
      return `${n(e.seat)} has answered.`;
    case "catan.task_closed": {
      const shown = (e.answers || []).filter((a) => !(e.kind === "discard" && !total(a.cards)));
      if (!shown.length || e.kind === "discard") return "Everyone concerned has decided.";
      return `${listing(shown.map((a) => answerWords(a, e.kind, n, view)))}.`;
    }
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
      return `${n(e.seat)} looks at ${n(e.target)}'s progress cards: ${e.cards.length ? listing(e.cards.map(cardTitle)) : "none"}.`;
    case "catan.dice_rolled": {
      const face = e.event ? `; the event die shows the ${EVENT_FACE[e.event] || e.event}` : "";
      return `The dice roll ${e.yellow + e.red} (${e.yellow} and ${e.red})${face}.`;
    }
    case "catan.robber_moved":
      return `The robber moves to ${hexName(e.hex, view)}.`;
    case "catan.merchant_moved":
      return `${n(e.seat)} places the merchant on ${hexName(e.hex, view)}: 1 point and 2:1 trade in its resource.`;
    case "catan.numbers_swapped":
      return view?.terrain
        ? `The number tokens on the ${TERRAIN[view.terrain[e.a]]} and the ${TERRAIN[view.terrain[e.b]]} swap places (Inventor).`
        : "Two number tokens swap places (Inventor).";
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
    case "catan.game_won": {
      const pts = e.points || [];
      return `${n(e.seat)} wins with ${pts[e.seat]} points! ${pts.map((p, s) => `${n(s)} ${p}`).join(", ")}.`;
    }
    default:
      return e.type ? e.type.replace(/^catan\./, "").replace(/_/g, " ") : "";
  }
}

function trackLength(view) {
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

// ---------------------------------------------------------------- board targets

// Where a command is clicked on the board: a sequence of spots ("s"), paths ("p")
// and hexes ("h"), or null when it is a side-panel button.
function steps(c, view) {
  switch (c.type) {
    case "catan.build_settlement":
    case "catan.build_city":
    case "catan.build_wall":
    case "catan.build_knight":
    case "catan.activate_knight":
    case "catan.promote_knight":
      return [`s${c.spot}`];
    case "catan.build_road":
      return [`p${c.path}`];
    case "catan.move_knight":
      return [`s${c.spot}`, `s${c.to}`];
    case "catan.chase_robber":
      return [`s${c.spot}`, `h${c.hex}`];
    case "catan.move_robber":
      return [`h${c.hex}`];
    case "catan.choose": {
      if (c.choice < 0) return null;
      const k = pendingKind(view);
      if (["pillage", "retreat", "deserter", "deserter_place"].includes(k)) return [`s${c.choice}`];
      if (k === "diplomat") return [`p${c.choice}`];
      return null;
    }
    case "catan.play_progress":
      switch (c.card) {
        case "bishop":
        case "merchant":
          return [`h${c.a}`];
        case "diplomat":
          return [`p${c.a}`];
        case "intrigue":
        case "engineer":
        case "medicine":
          return [`s${c.a}`];
        case "inventor":
          return [`h${c.a}`, `h${c.b}`];
        case "smith":
          return c.b >= 0 ? [`s${c.a}`, `s${c.b}`] : [`s${c.a}`];
        default:
          return null;
      }
    case "catan.buy_improvement":
      return c.spot >= 0 ? [`s${c.spot}`] : null;
    default:
      return null;
  }
}

// Commands that are picked in the panel first (a card, a track) before the board.
function filterKey(c) {
  if (c.type === "catan.play_progress") return `card:${c.card}`;
  if (c.type === "catan.play_dev_card") return `dev:${c.card}`;
  if (c.type === "catan.buy_improvement" && c.spot >= 0) return `track:${c.track}`;
  return null;
}

function filterTitle(key) {
  const [kind, what] = key.split(":");
  if (kind === "card" || kind === "dev") return `Play ${cardTitle(what)}`;
  return `Improve ${TRACKS[+what]} and place the metropolis`;
}

// ---------------------------------------------------------------- SVG helpers

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {}))
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function title(node, text) {
  el("title", {}, node).textContent = text;
  return node;
}

const hexPoints = (cx, cy, r) =>
  Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 90);
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");

const PIPS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

function terrainArt(g, t, cx, cy) {
  // A few strokes per terrain so the map reads without colour alone.
  const R = 2 * U;
  const ink = TERRAIN_EDGE[t];
  const art = el("g", { opacity: 0.55, "pointer-events": "none" }, g);
  const spots = [
    [-0.5, -0.55],
    [0.5, -0.55],
    [-0.62, 0.35],
    [0.62, 0.35],
    [0, 0.72],
  ];
  for (const [dx, dy] of spots) {
    const x = cx + dx * R,
      y = cy + dy * R;
    switch (t) {
      case 0: // hills: bricks
        el(
          "rect",
          { x: x - 7, y: y - 3, width: 14, height: 6, rx: 1, fill: "none", stroke: ink, "stroke-width": 1.4 },
          art,
        );
        break;
      case 1: // forest: trees
        el("path", { d: `M${x},${y - 9} L${x + 6},${y + 4} L${x - 6},${y + 4} Z`, fill: ink }, art);
        el("rect", { x: x - 1, y: y + 4, width: 2, height: 3, fill: ink }, art);
        break;
      case 2: // pasture: sheep tufts
        el("ellipse", { cx: x, cy: y, rx: 6, ry: 4, fill: "#f4f6ee", stroke: ink, "stroke-width": 1 }, art);
        break;
      case 3: // fields: grain stalks
        el(
          "path",
          {
            d: `M${x - 4},${y + 5} Q${x - 3},${y - 2} ${x - 5},${y - 7} M${x},${y + 5} L${x},${y - 8} M${x + 4},${y + 5} Q${x + 3},${y - 2} ${x + 5},${y - 7}`,
            fill: "none",
            stroke: ink,
            "stroke-width": 1.6,
          },
          art,
        );
        break;
      case 4: // mountains: peaks
        el(
          "path",
          {
            d: `M${x - 8},${y + 5} L${x - 2},${y - 6} L${x + 1},${y - 1} L${x + 3},${y - 4} L${x + 8},${y + 5} Z`,
            fill: ink,
          },
          art,
        );
        break;
      default: // desert: dunes
        el(
          "path",
          {
            d: `M${x - 8},${y + 2} Q${x - 2},${y - 5} ${x + 8},${y + 2}`,
            fill: "none",
            stroke: ink,
            "stroke-width": 1.4,
          },
          art,
        );
    }
  }
}

// ---------------------------------------------------------------- the board

function settlementPath(x, y, s) {
  return `M${x - 7 * s},${y + 6 * s} L${x - 7 * s},${y - 2 * s} L${x},${y - 9 * s} L${x + 7 * s},${y - 2 * s} L${x + 7 * s},${y + 6 * s} Z`;
}

function cityPath(x, y, s) {
  return `M${x - 11 * s},${y + 7 * s} L${x - 11 * s},${y - 3 * s} L${x - 5 * s},${y - 9 * s} L${x + 1 * s},${y - 3 * s} L${x + 1 * s},${y - 1 * s} L${x + 11 * s},${y - 1 * s} L${x + 11 * s},${y + 7 * s} Z`;
}

function drawBoard(svg, view, ui) {
  const seats = view.players.length;
  const ck = isCK(view);
  const defs = el("defs", {}, svg);
  const grad = el("radialGradient", { id: "catan-sea", cx: "50%", cy: "50%", r: "65%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#3f93c9" }, grad);
  el("stop", { offset: "100%", "stop-color": "#1d5f8f" }, grad);
  const shadow = el(
    "filter",
    { id: "catan-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
    defs,
  );
  el("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.2, "flood-opacity": 0.45 }, shadow);

  const halfW = (8 * U + 46) / 0.866 + 8,
    halfH = 8 * U + 56;
  const minX = -halfW,
    maxX = halfW,
    minY = -halfH,
    maxY = halfH;
  svg.setAttribute(
    "viewBox",
    `${minX.toFixed(0)} ${minY.toFixed(0)} ${(maxX - minX).toFixed(0)} ${(maxY - minY).toFixed(0)}`,
  );
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  el(
    "rect",
    { x: minX, y: minY, width: maxX - minX, height: maxY - minY, fill: "url(#catan-sea)", rx: 14 },
    svg,
  );
  // The frame: a flat-topped hexagon of sea around the island, harbours on it.
  const RF = 8 * U + 46;
  el(
    "polygon",
    {
      points: Array.from({ length: 6 }, (_, i) => {
        const a = (Math.PI / 3) * i;
        return `${((RF / 0.866) * Math.cos(a)).toFixed(1)},${((RF / 0.866) * Math.sin(a)).toFixed(1)}`;
      }).join(" "),
      fill: "#2b78ae",
      stroke: "#e2cf9f",
      "stroke-width": 7,
      "stroke-linejoin": "round",
    },
    svg,
  );

  const layers = {};
  for (const name of ["hexes", "harbors", "tokens", "roads", "pieces", "figures", "targets"])
    layers[name] = el("g", { class: `catan-${name}` }, svg);

  // Hexes.
  for (let h = 0; h < 19; h++) {
    const [cx, cy] = hexXY(h);
    const t = view.terrain[h];
    const g = el("g", { class: "catan-hex", "data-hex": h }, layers.hexes);
    title(
      el(
        "polygon",
        { points: hexPoints(cx, cy, 2 * U - 1), fill: TERRAIN_FILL[t], stroke: "#f1e4bd", "stroke-width": 3 },
        g,
      ),
      `${hexName(h, view)}${TERRAIN_RESOURCE[t] >= 0 ? ` (${KIND[TERRAIN_RESOURCE[t]]})` : ""}`,
    );
    terrainArt(g, t, cx, cy);
    const num = view.numbers[h];
    if (num) {
      const tg = el("g", { class: "catan-token", filter: "url(#catan-shadow)" }, layers.tokens);
      el("circle", { cx, cy, r: 15, fill: "#f7ecd0", stroke: "#8a7446", "stroke-width": 1 }, tg);
      const red = num === 6 || num === 8;
      el(
        "text",
        {
          x: cx,
          y: cy + 4.5,
          "text-anchor": "middle",
          "font-size": red ? 15 : 13.5,
          "font-weight": 700,
          fill: red ? "#c4161c" : "#222",
          "font-family": "Georgia, serif",
        },
        tg,
      ).textContent = num;
      const pips = PIPS[num] || 0;
      for (let i = 0; i < pips; i++)
        el(
          "circle",
          { cx: cx + (i - (pips - 1) / 2) * 3.2, cy: cy + 9.5, r: 1.15, fill: red ? "#c4161c" : "#222" },
          tg,
        );
    }
  }

  // Harbours: a token in the sea, piers to the two corners that use it.
  HARBOR_SPOTS.forEach(([h, _side], i) => {
    const kind = view.harbors[i];
    const [a, b] = PATH_ENDS[HARBOR_PATHS[i]];
    const [ax, ay] = spotXY(a),
      [bx, by] = spotXY(b);
    const [cx, cy] = hexXY(h);
    const mx = (ax + bx) / 2,
      my = (ay + by) / 2;
    const dx = mx - cx,
      dy = my - cy,
      d = Math.hypot(dx, dy);
    const tx = mx + (dx / d) * 24,
      ty = my + (dy / d) * 24;
    const g = el("g", { class: "catan-harbor" }, layers.harbors);
    for (const [px, py] of [
      [ax, ay],
      [bx, by],
    ]) {
      el(
        "line",
        {
          x1: px + (tx - px) * 0.18,
          y1: py + (ty - py) * 0.18,
          x2: tx,
          y2: ty,
          stroke: "#8a6a3d",
          "stroke-width": 4,
          "stroke-linecap": "round",
        },
        g,
      );
    }
    const generic = kind === 5;
    title(
      el(
        "circle",
        {
          cx: tx,
          cy: ty,
          r: 13,
          fill: generic ? "#f7ecd0" : KIND_FILL[kind],
          stroke: "#5b4526",
          "stroke-width": 1.5,
        },
        g,
      ),
      generic ? "Harbour: 3 of one kind for 1" : `Harbour: 2 ${KIND[kind]} for 1`,
    );
    el(
      "text",
      {
        x: tx,
        y: ty + (generic ? 4 : 1),
        "text-anchor": "middle",
        "font-size": generic ? 10 : 9,
        "font-weight": 700,
        fill: generic ? "#333" : "#fff",
        "font-family": "sans-serif",
        "paint-order": "stroke",
        stroke: generic ? "none" : "rgba(0,0,0,.45)",
        "stroke-width": 1.5,
      },
      g,
    ).textContent = generic ? "3:1" : "2:1";
    if (!generic)
      el(
        "text",
        {
          x: tx,
          y: ty + 9,
          "text-anchor": "middle",
          "font-size": 6.5,
          fill: "#fff",
          "font-family": "sans-serif",
          "paint-order": "stroke",
          stroke: "rgba(0,0,0,.45)",
          "stroke-width": 1.2,
        },
        g,
      ).textContent = KIND[kind];
  });

  // Roads.
  view.roads.forEach((owner, p) => {
    if (owner < 0) return;
    const [a, b] = PATH_ENDS[p];
    const [ax, ay] = spotXY(a),
      [bx, by] = spotXY(b);
    const sx = ax + (bx - ax) * 0.17,
      sy = ay + (by - ay) * 0.17,
      ex = bx - (bx - ax) * 0.17,
      ey = by - (by - ay) * 0.17;
    const g = el("g", { class: "catan-road", "data-path": p }, layers.roads);
    el(
      "line",
      { x1: sx, y1: sy, x2: ex, y2: ey, stroke: "#1b1b1b", "stroke-width": 8, "stroke-linecap": "round" },
      g,
    );
    title(
      el(
        "line",
        {
          x1: sx,
          y1: sy,
          x2: ex,
          y2: ey,
          stroke: SEAT_FILL[owner],
          "stroke-width": 5.5,
          "stroke-linecap": "round",
        },
        g,
      ),
      `${ui.name(owner)}'s road`,
    );
  });

  // Buildings.
  const metro = new Map();
  (view.metropolis || []).forEach((s, t) => {
    if (s >= 0) metro.set(s, t);
  });
  view.owner.forEach((owner, s) => {
    if (owner < 0) return;
    const [x, y] = spotXY(s);
    const lvl = view.level[s];
    const tipped = (view.tipped || []).includes(s);
    const g = el(
      "g",
      { class: "catan-building", "data-spot": s, filter: "url(#catan-shadow)" },
      layers.pieces,
    );
    const fill = SEAT_FILL[owner];
    let what = lvl === 2 ? "city" : "settlement";
    if ((view.walls || []).includes(s)) {
      el(
        "rect",
        {
          x: x - 15,
          y: y - 11,
          width: 30,
          height: 22,
          rx: 5,
          fill: "#6b645a",
          stroke: "#2b2722",
          "stroke-width": 1.2,
        },
        g,
      );
      el(
        "path",
        { d: `M${x - 15},${y - 4} h30 M${x - 15},${y + 4} h30`, stroke: "#9a9285", "stroke-width": 0.8 },
        g,
      );
      what += " with a wall";
    }
    if (lvl === 2 || tipped) {
      const body = el(
        "path",
        { d: cityPath(x, y, 1), fill, stroke: "#1b1b1b", "stroke-width": 1.3, "stroke-linejoin": "round" },
        g,
      );
      if (tipped) {
        body.setAttribute("transform", `rotate(-90 ${x} ${y})`);
        what = "pillaged city (on its side)";
      }
      if (metro.has(s)) {
        const t = metro.get(s);
        el(
          "path",
          {
            d: `M${x - 5},${y - 9} L${x - 5},${y - 19} L${x - 1},${y - 23} L${x + 3},${y - 19} L${x + 3},${y - 9} Z`,
            fill,
            stroke: "#1b1b1b",
            "stroke-width": 1.2,
          },
          g,
        );
        el(
          "path",
          {
            d: `M${x - 1},${y - 23} L${x - 1},${y - 30} L${x + 7},${y - 27} L${x - 1},${y - 24}`,
            fill: TRACK_FILL[t],
            stroke: "#1b1b1b",
            "stroke-width": 0.8,
          },
          g,
        );
        what = `${TRACKS[t]} metropolis`;
      }
    } else {
      el(
        "path",
        {
          d: settlementPath(x, y, 1),
          fill,
          stroke: "#1b1b1b",
          "stroke-width": 1.3,
          "stroke-linejoin": "round",
        },
        g,
      );
    }
    title(g, `${ui.name(owner)}'s ${what} at ${spotName(s, view)}`);
  });

  // Knights: a disc in the owner's colour, bright when active, with 1-3 rings for strength.
  for (const k of view.knights || []) {
    const [x, y] = spotXY(k.spot);
    const g = el(
      "g",
      {
        class: `catan-knight ${k.active ? "active" : "inactive"}`,
        "data-spot": k.spot,
        filter: "url(#catan-shadow)",
      },
      layers.pieces,
    );
    // Active: the owner's colour in a yellow halo. Inactive: the same disc, dimmed and dashed.
    if (k.active)
      el("circle", { cx: x, cy: y, r: 14.5, fill: "#ffe066", stroke: "#a07800", "stroke-width": 1 }, g);
    el("circle", { cx: x, cy: y, r: 11.5, fill: "#bdb8ae" }, g);
    el(
      "circle",
      {
        cx: x,
        cy: y,
        r: 11,
        fill: SEAT_FILL[k.owner],
        "fill-opacity": k.active ? 1 : 0.45,
        stroke: "#1b1b1b",
        "stroke-width": k.active ? 1.3 : 1.6,
        "stroke-dasharray": k.active ? null : "3 2",
      },
      g,
    );
    const ink = k.active ? SEAT_INK[k.owner] : "#2e2b27";
    // Helmet silhouette, and one bar per strength point.
    el(
      "path",
      {
        d: `M${x - 5},${y + 2} Q${x - 5},${y - 7} ${x},${y - 7} Q${x + 5},${y - 7} ${x + 5},${y + 2} Z`,
        fill: ink,
        opacity: k.active ? 0.95 : 0.7,
      },
      g,
    );
    el(
      "path",
      {
        d: `M${x - 5},${y - 1.5} h10`,
        stroke: k.active ? SEAT_FILL[k.owner] : "#bdb8ae",
        "stroke-width": 1.4,
      },
      g,
    );
    for (let i = 0; i < k.strength; i++)
      el("rect", { x: x - 5.5 + i * 4, y: y + 4, width: 3, height: 4, fill: ink }, g);
    title(
      g,
      `${ui.name(k.owner)}'s ${STRENGTH[k.strength]} knight (strength ${k.strength}), ${k.active ? "active" : "inactive"}`,
    );
  }

  // Robber and merchant.
  if (view.robber >= 0) {
    const [cx, cy] = hexXY(view.robber);
    const x = cx - 19,
      y = cy + 6;
    const g = el("g", { class: "catan-robber", filter: "url(#catan-shadow)" }, layers.figures);
    el(
      "path",
      {
        d: `M${x - 7},${y + 10} Q${x - 7},${y - 2} ${x - 3},${y - 5} Q${x},${y - 7} ${x + 3},${y - 5} Q${x + 7},${y - 2} ${x + 7},${y + 10} Z`,
        fill: "#3b3b3f",
        stroke: "#111",
        "stroke-width": 1,
      },
      g,
    );
    el("circle", { cx: x, cy: y - 9, r: 5, fill: "#3b3b3f", stroke: "#111", "stroke-width": 1 }, g);
    title(
      g,
      `The robber on ${hexName(view.robber, view)}${ck && !view.attacks ? " (waits until the first barbarian attack)" : ""}`,
    );
  }
  if (ck && view.merchant >= 0) {
    const [cx, cy] = hexXY(view.merchant);
    const x = cx + 20,
      y = cy + 6;
    const g = el("g", { class: "catan-merchant", filter: "url(#catan-shadow)" }, layers.figures);
    el(
      "path",
      {
        d: `M${x - 6},${y + 10} L${x},${y - 6} L${x + 6},${y + 10} Z`,
        fill: "#f2dfb0",
        stroke: "#5b4526",
        "stroke-width": 1.2,
      },
      g,
    );
    el("circle", { cx: x, cy: y - 8, r: 4.2, fill: "#f2dfb0", stroke: "#5b4526", "stroke-width": 1.2 }, g);
    if (view.merchant_owner >= 0)
      el(
        "rect",
        {
          x: x - 5,
          y: y + 2,
          width: 10,
          height: 3.5,
          fill: SEAT_FILL[view.merchant_owner],
          stroke: "#1b1b1b",
          "stroke-width": 0.5,
        },
        g,
      );
    title(
      g,
      `The merchant on ${hexName(view.merchant, view)}${view.merchant_owner >= 0 ? `, ${ui.name(view.merchant_owner)}'s` : ""}`,
    );
  }

  // The highlighted last step of a move being chosen.
  if (ui.picked.length) {
    const [first, second] = ui.picked;
    const at = (key) =>
      key[0] === "s" ? spotXY(+key.slice(1)) : key[0] === "h" ? hexXY(+key.slice(1)) : null;
    const a = at(first),
      b = second ? at(second) : null;
    if (a)
      el(
        "circle",
        { cx: a[0], cy: a[1], r: first[0] === "h" ? 2 * U - 6 : 17, class: "catan-picked" },
        layers.targets,
      );
    if (a && b) {
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "catan-picked-line" }, layers.targets);
      el(
        "circle",
        { cx: b[0], cy: b[1], r: second[0] === "h" ? 2 * U - 6 : 17, class: "catan-picked" },
        layers.targets,
      );
    }
  }

  // Clickable targets of the legal moves: hexes under edges under corners, so
  // a smaller target is never covered by a bigger one.
  const order = { h: 0, p: 1, s: 2 };
  const targets = [...ui.targets].sort((a, b) => order[a[0][0]] - order[b[0][0]]);
  for (const [key, t] of targets) {
    const kind = key[0],
      id = +key.slice(1);
    // data-command: the move this place plays, or the first of those it leads
    // to; data-commands: every move it leads to (a corner may take a settlement
    // or a knight; a knight may be activated, promoted or moved).
    const g = el(
      "g",
      {
        class: "legal",
        tabindex: 0,
        role: "button",
        "data-command": JSON.stringify(t.command),
        "data-commands": JSON.stringify(t.commands),
        "data-target": key,
        "data-key": `at:${key}`,
        "aria-label": t.text,
      },
      layers.targets,
    );
    if (kind === "s") {
      const [x, y] = spotXY(id);
      const occupied = view.owner[id] >= 0 || (view.knights || []).some((k) => k.spot === id);
      el("circle", { cx: x, cy: y, r: occupied ? 18 : 15, class: "catan-hit" }, g);
      // A free corner gets a dot; a piece to act on gets a ring around it.
      el(
        "circle",
        { cx: x, cy: y, r: occupied ? 17 : 6.5, class: occupied ? "catan-ring" : "catan-mark" },
        g,
      );
    } else if (kind === "p") {
      const [a, b] = PATH_ENDS[id];
      const [ax, ay] = spotXY(a),
        [bx, by] = spotXY(b);
      const cut = (f) => [ax + (bx - ax) * f, ay + (by - ay) * f];
      const [hx1, hy1] = cut(0.24),
        [hx2, hy2] = cut(0.76);
      // The hit area is a band with an area of its own, not a wide stroke: an
      // upright edge's line has no width, and a box of no width is "not visible"
      // to whatever finds targets by their box (accessibility tools, test drivers).
      const len = Math.hypot(bx - ax, by - ay),
        nx = (-(by - ay) / len) * 8,
        ny = ((bx - ax) / len) * 8;
      el(
        "polygon",
        {
          points: [
            [hx1 + nx, hy1 + ny],
            [hx2 + nx, hy2 + ny],
            [hx2 - nx, hy2 - ny],
            [hx1 - nx, hy1 - ny],
          ]
            .map((q) => q.join(","))
            .join(" "),
          class: "catan-hit",
        },
        g,
      );
      el(
        "line",
        {
          x1: ax + (bx - ax) * 0.22,
          y1: ay + (by - ay) * 0.22,
          x2: bx - (bx - ax) * 0.22,
          y2: by - (by - ay) * 0.22,
          class: "catan-mark-line",
        },
        g,
      );
    } else {
      const [cx, cy] = hexXY(id);
      el("polygon", { points: hexPoints(cx, cy, 2 * U - 5), class: "catan-mark-hex" }, g);
    }
    title(g, t.text);
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      t.activate();
    });
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        t.activate();
      }
    });
  }
  void seats;
}

// ---------------------------------------------------------------- dice, barbarians

function die(svg, x, y, value, fill, pip) {
  el("rect", { x, y, width: 34, height: 34, rx: 6, fill, stroke: "#333", "stroke-width": 1.2 }, svg);
  const at = {
    1: [[0, 0]],
    2: [
      [-1, -1],
      [1, 1],
    ],
    3: [
      [-1, -1],
      [0, 0],
      [1, 1],
    ],
    4: [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ],
    5: [
      [-1, -1],
      [1, -1],
      [0, 0],
      [-1, 1],
      [1, 1],
    ],
    6: [
      [-1, -1],
      [1, -1],
      [-1, 0],
      [1, 0],
      [-1, 1],
      [1, 1],
    ],
  };
  for (const [dx, dy] of at[value] || [])
    el("circle", { cx: x + 17 + dx * 9, cy: y + 17 + dy * 9, r: 3.2, fill: pip }, svg);
}

function eventDie(svg, x, y, face) {
  const g = el("g", {}, svg);
  el("rect", { x, y, width: 34, height: 34, rx: 6, fill: "#faf7ef", stroke: "#333", "stroke-width": 1.2 }, g);
  if (face === "ship") {
    el(
      "path",
      {
        d: `M${x + 6},${y + 21} L${x + 28},${y + 21} L${x + 24},${y + 27} L${x + 10},${y + 27} Z`,
        fill: "#222",
      },
      g,
    );
    el(
      "path",
      {
        d: `M${x + 17},${y + 6} L${x + 17},${y + 20} M${x + 17},${y + 7} L${x + 26},${y + 17} L${x + 17},${y + 17}`,
        fill: "#555",
        stroke: "#222",
        "stroke-width": 1.5,
      },
      g,
    );
  } else if (face) {
    const t = TRACKS.indexOf(face);
    el(
      "path",
      {
        d: `M${x + 8},${y + 28} L${x + 8},${y + 13} Q${x + 17},${y + 4} ${x + 26},${y + 13} L${x + 26},${y + 28} Z`,
        fill: TRACK_FILL[t],
        stroke: "#222",
        "stroke-width": 1.2,
      },
      g,
    );
    el(
      "path",
      {
        d: `M${x + 13},${y + 28} L${x + 13},${y + 18} Q${x + 17},${y + 13} ${x + 21},${y + 18} L${x + 21},${y + 28} Z`,
        fill: "#3a2a1a",
      },
      g,
    );
  }
  title(g, face ? `Event die: ${EVENT_FACE[face]}` : "Event die");
}

function drawStatus(host, view, ui) {
  const ck = isCK(view);
  const bar = html("div", { class: "catan-status" }, host);
  const dice = html(
    "div",
    {
      class: "catan-dice",
      "aria-label": view.dice[0] ? `Last roll ${view.dice[0] + view.dice[1]}` : "No roll yet",
    },
    bar,
  );
  const w = ck ? 126 : 84;
  const svg = el("svg", { viewBox: `0 0 ${w} 40`, width: w, height: 40, role: "img" }, dice);
  if (view.dice[0]) {
    die(svg, 2, 3, view.dice[0], "#f4d03f", "#222");
    die(svg, 44, 3, view.dice[1], "#c62828", "#fff");
  } else {
    die(svg, 2, 3, 0, "#eee", "#222");
    die(svg, 44, 3, 0, "#eee", "#222");
  }
  if (ck) eventDie(svg, 86, 3, view.dice[2]);
  html("span", { class: "catan-roll" }, dice, view.dice[0] ? `${view.dice[0] + view.dice[1]}` : "–");

  if (!ck) return;
  const len = trackLength(view);
  const cities = view.level.filter((l) => l === 2).length;
  const knights = (view.knights || []).filter((k) => k.active).reduce((a, k) => a + k.strength, 0);
  const track = html("div", { class: "catan-barbarians" }, bar);
  const tw = 30 + len * 26;
  const svg2 = el(
    "svg",
    { viewBox: `0 0 ${tw} 40`, role: "img", "aria-label": `Barbarian ship at ${view.barbarian} of ${len}` },
    track,
  );
  for (let i = 0; i <= len; i++) {
    const x = 14 + i * 26;
    el(
      "circle",
      {
        cx: x,
        cy: 20,
        r: i === len ? 11 : 8,
        fill: i === len ? "#7a1f1f" : i < view.barbarian ? "#6d8fa8" : "#cfe0ec",
        stroke: "#24445c",
        "stroke-width": 1,
      },
      svg2,
    );
    if (i < len)
      el(
        "line",
        {
          x1: x + 8,
          y1: 20,
          x2: x + 18,
          y2: 20,
          stroke: "#24445c",
          "stroke-width": 1.2,
          "stroke-dasharray": "2 2",
        },
        svg2,
      );
  }
  el(
    "text",
    { x: 14 + len * 26, y: 24, "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": 700 },
    svg2,
  ).textContent = "⚔";
  const sx = 14 + Math.min(view.barbarian, len) * 26;
  const ship = el("g", { class: "catan-ship" }, svg2);
  el("path", { d: `M${sx - 11},24 L${sx + 11},24 L${sx + 7},30 L${sx - 7},30 Z`, fill: "#2b2b2b" }, ship);
  el(
    "path",
    {
      d: `M${sx},8 L${sx},24 M${sx},9 L${sx + 9},21 L${sx},21 Z`,
      fill: "#b33",
      stroke: "#222",
      "stroke-width": 1,
    },
    ship,
  );
  title(ship, `Barbarian ship: ${view.barbarian} of ${len}`);
  const odds = html("div", { class: "catan-odds" }, track);
  html("span", { class: cities > knights ? "bad" : "" }, odds, `Barbarians ${cities}`);
  html("span", {}, odds, " vs ");
  html("span", { class: cities > knights ? "" : "good" }, odds, `knights ${knights}`);
  html(
    "span",
    { class: "catan-muted" },
    odds,
    ` · ${plural(view.attacks, "attack")} so far${view.attacks ? "" : " (robber waits)"}`,
  );
  void ui;
}

// ---------------------------------------------------------------- side panel

function chip(parent, kind, n, extra) {
  const c = html("span", { class: `catan-chip${extra ? ` ${extra}` : ""}`, title: KIND[kind] }, parent);
  html("i", { style: `background:${KIND_FILL[kind]}` }, c);
  html("b", {}, c, String(n));
  html("span", {}, c, KIND[kind]);
  return c;
}

function seatSwatch(parent, seat) {
  return html(
    "span",
    { class: "catan-swatch", style: `background:${SEAT_FILL[seat]}`, title: SEAT_COLOUR[seat] },
    parent,
  );
}

function drawPlayers(host, view, doc, ui) {
  const ck = isCK(view);
  const box = html("section", { class: "catan-box" }, host);
  const target = lastOptions && (lastOptions.points_to_win || (ck ? 13 : 10));
  html("h3", {}, box, target ? `Players · first to ${target} points` : "Players");
  const awaited = new Set(doc.actors || []);
  view.players.forEach((p, s) => {
    const card = html(
      "div",
      {
        class: `catan-player${s === view.active ? " active" : ""}${s === view.seat ? " me" : ""}`,
        "data-seat": s,
      },
      box,
    );
    const top = html("div", { class: "top" }, card);
    seatSwatch(top, s);
    html("span", { class: "name" }, top, ui.name(s) + (s === view.seat ? " (you)" : ""));
    if (awaited.has(s) && !doc.over)
      html(
        "span",
        { class: "catan-badge turn", title: "awaited now" },
        top,
        s === view.active && !view.pending ? "to play" : "to decide",
      );
    const pts = html("span", { class: "pts", title: "victory points on the table" }, top);
    html("b", {}, pts, String(p.points));
    html("span", {}, pts, " pts");
    if (
      s === view.seat &&
      view.my_points !== null &&
      view.my_points !== undefined &&
      view.my_points !== p.points
    ) {
      html(
        "small",
        { title: "counting your hidden Victory Point cards" },
        pts,
        ` (${view.my_points} with hidden)`,
      );
    }
    const line = html("div", { class: "line" }, card);
    html("span", { title: "resource cards in hand" }, line, plural(p.resources, "resource"));
    if (ck)
      html(
        "span",
        { title: "commodity cards in hand" },
        line,
        plural(p.commodities, "commodity", "commodities"),
      );
    html(
      "span",
      { title: ck ? "progress cards in hand" : "development cards in hand" },
      line,
      plural(p.progress, ck ? "progress card" : "development card"),
    );
    if (ck) {
      const mine = (view.knights || []).filter((k) => k.owner === s);
      const act = mine.filter((k) => k.active).reduce((a, k) => a + k.strength, 0);
      html(
        "span",
        { title: "active knight strength, knights on the board" },
        line,
        `knights ${act} active / ${mine.length}`,
      );
    } else {
      html("span", { title: "knights played" }, line, `${plural(p.knights_played, "knight")} played`);
    }
    html("span", { title: "longest road of this player" }, line, `road ${view.road_lengths[s] ?? 0}`);
    if (ck) {
      const imp = html("div", { class: "catan-imp" }, card);
      p.levels.forEach((lvl, t) => {
        const bar = html("span", { class: "track", title: `${TRACKS[t]}: level ${lvl} of 5` }, imp);
        html("span", { class: "tname" }, bar, TRACKS[t]);
        for (let i = 1; i <= 5; i++) html("i", { style: i <= lvl ? `background:${TRACK_FILL[t]}` : "" }, bar);
      });
    }
    const badges = [];
    if (view.winner === s) badges.push(["Winner", "reached the target first"]);
    if (view.longest === s) badges.push(["Longest road", `${view.road_lengths[s]} roads, 2 points`]);
    if (!ck && view.largest_army === s) badges.push(["Largest army", "2 points"]);
    if (ck && view.merchant_owner === s) badges.push(["Merchant", "1 point"]);
    if (p.defender)
      badges.push([`Defender of Catan ×${p.defender}`, `${p.defender} point${p.defender > 1 ? "s" : ""}`]);
    if (p.vp_cards)
      badges.push([
        `${p.vp_cards} point card${p.vp_cards > 1 ? "s" : ""}`,
        "revealed Printer or Constitution",
      ]);
    (view.metropolis || []).forEach((spot, t) => {
      if (spot >= 0 && view.owner[spot] === s) badges.push([`${TRACKS[t]} metropolis`, "2 points"]);
    });
    if (badges.length) {
      const row = html("div", { class: "badges" }, card);
      for (const [b, t] of badges) html("span", { class: "catan-badge", title: t }, row, b);
    }
  });
  const bank = html("p", { class: "catan-muted catan-bank" }, box);
  const kinds = ck ? [...RESOURCES, ...COMMODITIES] : RESOURCES;
  bank.textContent = `Bank: ${kinds.map((k) => `${view.bank[k]} ${KIND[k]}`).join(", ")}. Decks: ${ck ? TRACKS.map((t, i) => `${t} ${view.decks[i + 1]}`).join(", ") : `${view.decks[0]} development cards`}.`;
}

function drawHand(host, view) {
  if (view.seat === null || view.seat === undefined || !view.hand) return;
  const ck = isCK(view);
  const box = html("section", { class: "catan-box catan-hand", "data-hand": view.seat }, host);
  html("h3", {}, box, `Your hand (${plural(total(view.hand), "card")})`);
  const row = html("div", { class: "catan-chips" }, box);
  for (const k of ck ? [...RESOURCES, ...COMMODITIES] : RESOURCES)
    chip(row, k, view.hand[k], view.hand[k] ? "" : "zero");
  const cards = view.cards || [];
  if (cards.length) {
    const list = html("ul", { class: "catan-cards" }, box);
    for (const c of cards)
      html(
        "li",
        { title: CARD_HINT[c] || "" },
        list,
        `${cardTitle(c)}${CARD_HINT[c] ? ` — ${CARD_HINT[c]}` : ""}`,
      );
  } else {
    html("p", { class: "catan-muted" }, box, ck ? "No progress cards." : "No development cards.");
  }
}

function statusLine(view, doc, ui) {
  if (doc.over || view.phase === "over") {
    return view.winner >= 0
      ? `${ui.name(view.winner)} wins with ${view.players[view.winner].points} points.`
      : "The game is over.";
  }
  const who = ui.name(view.active);
  const p = view.pending;
  if (p) {
    const waiting = listing(p.awaiting.map((s) => (s === view.seat ? "you" : ui.name(s))));
    const what =
      {
        discard: "to discard half their cards",
        robber: "to move the robber",
        free_roads: "to build free roads",
        trade: "to answer the trade offer",
        trade_confirm: "to pick a deal",
        aqueduct: "to take a resource (Aqueduct)",
        pillage: "to choose a city to lose",
        defender_draw: "to pick a deck",
        muster: "to muster knights",
        retreat: "to move a displaced knight",
        deserter: "to give up a knight",
        deserter_strength: "to pick a strength",
        deserter_place: "to place the deserting knight",
        diplomat: "to place the road again",
        spy: "to take a progress card",
        gift: "to give 2 cards (Wedding)",
        master_merchant: "to take cards (Master Merchant)",
        harbor: "to give a commodity",
        progress_discard: "to discard progress cards",
      }[p.kind] || `to decide (${p.kind})`;
    return `${who}'s turn — waiting for ${waiting} ${what}.`;
  }
  if (view.phase === "setup") {
    return view.setup_spot >= 0
      ? `Set-up: ${who} places a road.`
      : `Set-up: ${who} places a ${view.setup_queue.length <= view.players.length && isCK(view) ? "city" : "settlement"}.`;
  }
  if (view.phase === "roll") return `Turn ${view.turn}: ${who} rolls the dice.`;
  return `Turn ${view.turn}: ${who} trades and builds.`;
}

// A card picker for discards, gifts and Master Merchant takes: the exact count
// is built with + and −, then sent as one SelectCards command.
function drawPicker(box, view, ui, source, need, verb) {
  const kinds = isCK(view) ? [...RESOURCES, ...COMMODITIES] : RESOURCES;
  const key = `pick:${view.pending.kind}:${view.pending.owner}:${need}`;
  let chosen = ui.local[key];
  // Kept across versions while the same decision waits; never more than the source holds.
  if (!chosen || chosen.some((n, k) => n > source[k]) || total(chosen) > need)
    chosen = ui.local[key] = Array(8).fill(0);
  const grid = html("div", { class: "catan-picker" }, box);
  for (const k of kinds) {
    if (!source[k]) continue;
    const row = html("div", { class: "row" }, grid);
    chip(row, k, source[k]);
    const minus = html(
      "button",
      { type: "button", "aria-label": `one ${KIND[k]} fewer`, "data-key": `pick:${k}:minus` },
      row,
      "−",
    );
    html("output", {}, row, String(chosen[k]));
    const plus = html(
      "button",
      { type: "button", "aria-label": `one ${KIND[k]} more`, "data-key": `pick:${k}:plus` },
      row,
      "+",
    );
    minus.disabled = chosen[k] === 0;
    plus.disabled = chosen[k] >= source[k] || total(chosen) >= need;
    minus.addEventListener("click", () => {
      chosen[k] -= 1;
      ui.redraw();
    });
    plus.addEventListener("click", () => {
      chosen[k] += 1;
      ui.redraw();
    });
  }
  const command = { type: "catan.select_cards", cards: chosen.slice() };
  const ok = total(chosen) === need;
  // "Fill for me" before the send button, so the keyboard reaches them in that order.
  const auto = html(
    "button",
    { type: "button", class: "catan-link", "data-key": "pick:fill" },
    box,
    "Fill for me",
  );
  const b = ui.button(box, ok ? label(command, ui.ctx) : `${verb} ${need - total(chosen)} more`, command, {
    primary: true,
    key: "pick:send",
  });
  b.disabled = !ok;
  auto.addEventListener("click", () => {
    // Most plentiful kinds first, one at a time.
    const left = source.slice();
    const pick = Array(8).fill(0);
    for (let i = 0; i < need; i++) {
      const k = kinds.reduce((best, x) => (left[x] > (best < 0 ? 0 : left[best]) ? x : best), -1);
      if (k < 0) break;
      pick[k] += 1;
      left[k] -= 1;
    }
    ui.local[key] = pick;
    ui.redraw();
  });
}

function drawTradeComposer(box, view, ui) {
  const kinds = isCK(view) ? [...RESOURCES, ...COMMODITIES] : RESOURCES;
  ui.local.offer ||= { give: Array(8).fill(0), get: Array(8).fill(0), to: -1 };
  const st = ui.local.offer;
  const hand = view.hand;
  st.give = st.give.map((n, k) => Math.min(n, hand[k]));
  const det = html("details", { class: "catan-compose" }, box);
  if (ui.local.offerOpen) det.open = true;
  det.addEventListener("toggle", () => {
    ui.local.offerOpen = det.open;
  });
  html("summary", { "data-key": "offer-open" }, det, "Offer a trade to the other players");
  const grid = html("div", { class: "catan-offer" }, det);
  html("span", {}, grid, "");
  html("b", {}, grid, "give");
  html("b", {}, grid, "get");
  for (const k of kinds) {
    chip(grid, k, hand[k]);
    for (const side of ["give", "get"]) {
      const cell = html("span", { class: "step" }, grid);
      const minus = html(
        "button",
        {
          type: "button",
          "aria-label": `${side} one ${KIND[k]} fewer`,
          "data-key": `offer:${side}:${k}:minus`,
        },
        cell,
        "−",
      );
      html("output", {}, cell, String(st[side][k]));
      const plus = html(
        "button",
        {
          type: "button",
          "aria-label": `${side} one ${KIND[k]} more`,
          "data-key": `offer:${side}:${k}:plus`,
        },
        cell,
        "+",
      );
      minus.disabled = !st[side][k];
      plus.disabled = side === "give" ? st.give[k] >= hand[k] : st.get[k] >= 19;
      minus.addEventListener("click", () => {
        st[side][k] -= 1;
        ui.redraw();
      });
      plus.addEventListener("click", () => {
        st[side][k] += 1;
        const other = side === "give" ? "get" : "give";
        st[other][k] = 0;
        ui.redraw();
      });
    }
  }
  const to = html("select", { "aria-label": "offer to", "data-key": "offer-to" }, det);
  html("option", { value: -1 }, to, "to everyone");
  view.players.forEach((_, s) => {
    if (s !== view.seat) html("option", { value: s }, to, `to ${ui.name(s)}`);
  });
  to.value = String(st.to);
  to.addEventListener("change", () => {
    st.to = +to.value;
    ui.redraw();
  });
  const command = { type: "catan.offer_trade", give: st.give.slice(), get: st.get.slice(), to: st.to };
  const valid = total(st.give) > 0 && total(st.get) > 0;
  const b = ui.button(det, valid ? label(command, ui.ctx) : "Choose cards to give and to get", command, {
    primary: true,
    key: "offer:send",
    live: () => ({ ...command, to: st.to }),
  });
  b.disabled = !valid;
}

function drawBankTrades(box, view, ui, trades) {
  const det = html("details", { class: "catan-compose" }, box);
  if (ui.local.bankOpen) det.open = true;
  det.addEventListener("toggle", () => {
    ui.local.bankOpen = det.open;
  });
  html("summary", { "data-key": "bank-open" }, det, "Trade with the bank");
  const byGive = new Map();
  for (const c of trades) {
    if (!byGive.has(c.give)) byGive.set(c.give, []);
    byGive.get(c.give).push(c);
  }
  for (const [give, list] of byGive) {
    const row = html("div", { class: "catan-bankrow" }, det);
    const r = bankRate(view, give);
    const lead = html("span", { class: "lead" }, row);
    chip(lead, give, r || "?");
    html("span", {}, lead, " for 1:");
    for (const c of list) {
      const b = ui.button(row, KIND[c.get], c, { small: true });
      b.style.setProperty("--kind", KIND_FILL[c.get]);
      b.classList.add("kind");
      b.title = label(c, ui.ctx);
      b.setAttribute("aria-label", label(c, ui.ctx));
    }
  }
}

function drawDecision(host, view, doc, ui) {
  const p = view.pending;
  const me = view.seat;
  const box = html("section", { class: "catan-box catan-decision", "aria-live": "polite" }, host);
  html("h3", {}, box, statusLine(view, doc, ui));
  if (!p) return box;
  const mine = me !== null && me !== undefined && p.awaiting.includes(me);
  const awaitedAmount = (s) => (p.amounts?.length ? p.amounts[p.seats.indexOf(s)] : 0);
  if (p.kind === "trade" || p.kind === "trade_confirm") {
    if (p.kind === "trade") {
      const offer = html("p", { class: "catan-offer-line" }, box);
      offer.textContent = `${ui.name(p.owner)} offers ${handWords(p.data.slice(0, 8))} and asks for ${handWords(p.data.slice(8, 16))}${p.seats.length === 1 ? ` (to ${ui.name(p.seats[0])})` : ""}.`;
    } else {
      const count = Math.floor(p.data.length / DEAL);
      html("p", {}, box, `${plural(count, "answer")} to ${ui.name(p.owner)}'s offer:`);
      const ul = html("ul", { class: "catan-deals" }, box);
      for (let i = 0; i < count; i++) {
        const d = p.data.slice(i * DEAL, (i + 1) * DEAL);
        html(
          "li",
          {},
          ul,
          `${ui.name(d[0])}: gives ${handWords(d.slice(9, 17))} for ${handWords(d.slice(1, 9))}`,
        );
      }
    }
  }
  if (p.mine)
    html(
      "p",
      { class: "catan-muted" },
      box,
      `Your answer is in: ${answerWords(p.mine, p.kind, ui.name, view)}.`,
    );
  if (p.peek_cards)
    html(
      "p",
      {},
      box,
      `${ui.name(p.data[0])}'s progress cards: ${p.peek_cards.length ? listing(p.peek_cards.map(cardTitle)) : "none"}.`,
    );
  if (p.peek_hand) html("p", {}, box, `${ui.name(p.data[0])}'s hand: ${handWords(p.peek_hand)}.`);
  if (mine && (p.kind === "discard" || p.kind === "gift")) {
    const need = awaitedAmount(me);
    html(
      "p",
      {},
      box,
      p.kind === "discard"
        ? `Discard ${plural(need, "card")} (half your hand).`
        : `Give ${ui.name(p.owner)} ${plural(need, "card")} (Wedding).`,
    );
    drawPicker(box, view, ui, view.hand, need, p.kind === "discard" ? "Discard" : "Give");
  } else if (mine && p.kind === "master_merchant" && p.peek_hand) {
    const need = p.amounts[0] || 0;
    html("p", {}, box, `Take ${plural(need, "card")} from ${ui.name(p.data[0])}.`);
    drawPicker(box, view, ui, p.peek_hand, need, "Take");
  }
  return box;
}

function groupOf(c) {
  switch (c.type) {
    case "catan.roll_dice":
    case "catan.end_turn":
      return "turn";
    case "catan.trade_bank":
      return "bank";
    case "catan.offer_trade":
      return "offer";
    case "catan.buy_improvement":
      return "improve";
    case "catan.play_progress":
    case "catan.play_dev_card":
    case "catan.buy_dev_card":
    case "catan.discard_progress":
    case "catan.take_card":
      return "cards";
    case "catan.harbor_exchange":
      return "harbor";
    default:
      return "other";
  }
}

function drawActions(host, view, _doc, ui) {
  const legal = ui.legal;
  if (!legal.length) return;
  const box = html("section", { class: "catan-box catan-actions" }, host);
  let heading = "Your moves";
  if (ui.filter) heading = filterTitle(ui.filter);
  else if (ui.picked.length) {
    const first = ui.picked[0];
    const k = first[0] === "s" && (view.knights || []).find((x) => x.spot === +first.slice(1));
    heading = k
      ? `Your ${STRENGTH[k.strength]} knight at ${spotName(k.spot, view)}`
      : first[0] === "h"
        ? `The robber to ${hexName(+first.slice(1), view)}`
        : "Choose";
  }
  html("h3", {}, box, heading);
  if (ui.error) html("p", { class: "catan-error", role: "alert" }, box, ui.error);

  if (ui.filter || ui.picked.length) {
    // A move in progress: the commands it can still become.
    const { complete, next } = ui.stage;
    if (next.size)
      html(
        "p",
        { class: "catan-hint" },
        box,
        `Pick a highlighted ${describeTargets(next)} on the board${complete.length ? ", or:" : "."}`,
      );
    const multi = ui.picked.length >= 2 || (ui.filter && ui.picked.length >= 1);
    for (const c of complete)
      ui.button(
        box,
        (multi && complete.length === 1 && !next.size ? "Confirm: " : "") + label(c, ui.ctx),
        c,
        { primary: true },
      );
    if (!next.size && !complete.length) html("p", {}, box, "Nothing left to choose.");
    const cancel = html(
      "button",
      { type: "button", class: "catan-cancel", "data-key": "cancel" },
      box,
      "Cancel",
    );
    cancel.addEventListener("click", () => ui.reset());
    return;
  }

  // Board moves, summarised so the board's highlights are explained.
  const onBoard = new Map();
  for (const c of legal)
    if (!filterKey(c) && steps(c, view)) onBoard.set(c.type, (onBoard.get(c.type) || 0) + 1);
  if (onBoard.size) {
    const ul = html("ul", { class: "catan-hint" }, box);
    const hints = view.phase === "setup" ? SETUP_HINT : BOARD_HINT;
    for (const [type, count] of onBoard)
      html(
        "li",
        {},
        ul,
        `${hints[type] || BOARD_HINT[type] || "Choose on the board"} (${count} highlighted)`,
      );
  }

  const groups = new Map();
  for (const c of legal) {
    if (steps(c, view) && !filterKey(c)) continue;
    if (c.type === "catan.select_cards" || c.type === "catan.offer_trade") {
      // The card picker above (and the offer composer) build these.
      if (c.type === "catan.offer_trade" && !groups.has("offer")) groups.set("offer", [c]);
      continue;
    }
    const g = groupOf(c);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(c);
  }
  const order = ["turn", "other", "cards", "improve", "harbor", "bank", "offer"];
  for (const g of order) {
    const list = groups.get(g);
    if (!list) continue;
    if (g === "bank") {
      drawBankTrades(box, view, ui, list);
      continue;
    }
    if (g === "offer") {
      drawTradeComposer(box, view, ui);
      continue;
    }
    const row = html("div", { class: `catan-buttons ${g}` }, box);
    const seen = new Map();
    for (const c of list) {
      const key = filterKey(c);
      if (!key) {
        ui.button(row, label(c, ui.ctx), c, { primary: c.type === "catan.roll_dice" });
        continue;
      }
      if (!seen.has(key)) seen.set(key, []);
      seen.get(key).push(c);
    }
    for (const [key, cs] of seen) {
      if (cs.length === 1 && !steps(cs[0], view)) {
        ui.button(row, label(cs[0], ui.ctx), cs[0]);
        continue;
      }
      const b = html(
        "button",
        {
          type: "button",
          "data-command": JSON.stringify(cs[0]),
          "data-filter": key,
          "data-key": `filter:${key}`,
        },
        row,
        `${filterTitle(key)}…`,
      );
      b.addEventListener("click", () => ui.enter(key));
    }
  }
}

const BOARD_HINT = {
  "catan.build_settlement": "Build a settlement: click a glowing corner",
  "catan.build_city": "Build a city: click one of your glowing settlements",
  "catan.build_road": "Build a road: click a glowing edge",
  "catan.build_wall": "Build a city wall (2 brick): click a glowing city",
  "catan.build_knight": "Recruit a knight (wool + ore): click a glowing corner",
  "catan.activate_knight": "Activate a knight (grain): click it",
  "catan.promote_knight": "Promote a knight (wool + ore): click it",
  "catan.move_knight": "Move or displace with a knight: click it, then where it goes",
  "catan.chase_robber": "Chase the robber: click your knight beside it, then a hex",
  "catan.move_robber": "Move the robber: click a glowing hex",
  "catan.choose": "Choose on the board",
};

const SETUP_HINT = {
  "catan.build_settlement": "Place your starting settlement: click a glowing corner",
  "catan.build_city": "Place your starting city: click a glowing corner",
  "catan.build_road": "Place its road: click a glowing edge",
};

function describeTargets(next) {
  const kinds = new Set([...next.keys()].map((k) => k[0]));
  const words = [];
  if (kinds.has("s")) words.push("corner");
  if (kinds.has("p")) words.push("edge");
  if (kinds.has("h")) words.push("hex");
  return words.join(" or ");
}

function legendIcon(parent, draw, text) {
  const li = html("li", {}, parent);
  const svg = el("svg", { viewBox: "-14 -16 28 28", width: 22, height: 22, "aria-hidden": "true" }, li);
  draw(svg);
  html("span", {}, li, text);
}

function drawLegend(host, view) {
  const ck = isCK(view);
  const box = html("div", { class: "catan-legend", "aria-label": "Legend" }, host);
  const ul = html("ul", {}, box);
  TERRAIN.forEach((t, i) => {
    const li = html("li", {}, ul);
    html("i", { style: `background:${TERRAIN_FILL[i]}` }, li);
    const extra = ck ? { 1: " + paper", 2: " + cloth", 4: " + coin" }[i] || "" : "";
    html(
      "span",
      {},
      li,
      `${t}${TERRAIN_RESOURCE[i] >= 0 ? `: ${KIND[TERRAIN_RESOURCE[i]]}${extra ? ` (city${extra})` : ""}` : ""}`,
    );
  });
  const pieces = html("ul", {}, box);
  const ink = "#777";
  legendIcon(
    pieces,
    (g) => el("path", { d: settlementPath(0, 0, 1), fill: ink, stroke: "#111" }, g),
    "settlement 1",
  );
  legendIcon(pieces, (g) => el("path", { d: cityPath(0, 0, 1), fill: ink, stroke: "#111" }, g), "city 2");
  if (ck) {
    legendIcon(
      pieces,
      (g) => {
        el("rect", { x: -13, y: -10, width: 26, height: 20, rx: 4, fill: "#6b645a" }, g);
        el("path", { d: cityPath(0, 0, 0.8), fill: ink, stroke: "#111" }, g);
      },
      "wall",
    );
    legendIcon(
      pieces,
      (g) => {
        el("path", { d: cityPath(0, 4, 0.8), fill: ink, stroke: "#111" }, g);
        el(
          "path",
          { d: "M-4,-3 L-4,-12 L4,-9 L-4,-7", fill: TRACK_FILL[0], stroke: "#111", "stroke-width": 0.8 },
          g,
        );
      },
      "metropolis 4",
    );
    legendIcon(
      pieces,
      (g) => {
        el("circle", { r: 12, fill: "#ffe066" }, g);
        el("circle", { r: 9, fill: ink, stroke: "#111" }, g);
        for (let i = 0; i < 2; i++)
          el("rect", { x: -4 + i * 3.6, y: 2, width: 2.6, height: 4, fill: "#fff" }, g);
      },
      "active knight (bars: strength)",
    );
    legendIcon(
      pieces,
      (g) =>
        el(
          "circle",
          {
            r: 9,
            fill: ink,
            "fill-opacity": 0.45,
            stroke: "#111",
            "stroke-width": 1.5,
            "stroke-dasharray": "3 2",
          },
          g,
        ),
      "inactive knight",
    );
  }
  legendIcon(
    pieces,
    (g) => {
      el("path", { d: "M-6,10 Q-6,-1 -2,-4 Q0,-6 2,-4 Q6,-1 6,10 Z", fill: "#3b3b3f" }, g);
      el("circle", { cy: -8, r: 4.5, fill: "#3b3b3f" }, g);
    },
    "robber",
  );
  if (ck) {
    legendIcon(
      pieces,
      (g) => {
        el("path", { d: "M-6,10 L0,-5 L6,10 Z", fill: "#f2dfb0", stroke: "#5b4526" }, g);
        el("circle", { cy: -8, r: 4, fill: "#f2dfb0", stroke: "#5b4526" }, g);
      },
      "merchant 1",
    );
  }
  legendIcon(
    pieces,
    (g) => {
      el("circle", { r: 11, fill: "#f7ecd0", stroke: "#8a7446" }, g);
      el(
        "text",
        { y: 3, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#c4161c" },
        g,
      ).textContent = "8";
    },
    "6 and 8 come up most; dots show the odds",
  );
}

// ---------------------------------------------------------------- render

const STYLE = `
.catan-root{container-type:inline-size;font:14px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f1d1a}
.catan-grid{display:grid;grid-template-columns:1fr;gap:14px;align-items:start}
@container (min-width:860px){.catan-grid{grid-template-columns:minmax(0,1fr) minmax(260px,320px)}}
.catan-main{min-width:0}
.catan-board{width:100%;height:auto;max-height:calc(100vh - 150px);display:block;border-radius:14px}
.catan-status{display:flex;flex-wrap:wrap;gap:12px 20px;align-items:center;margin:0 0 8px}
.catan-dice{display:flex;align-items:center;gap:8px}
.catan-roll{font-size:22px;font-weight:700;min-width:1.5em}
.catan-barbarians{display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.catan-barbarians svg{height:40px;width:auto;max-width:100%}
.catan-odds{font-size:13px}.catan-odds .bad{color:#a11;font-weight:700}.catan-odds .good{color:#176b2c;font-weight:700}
.catan-side{display:flex;flex-direction:column;gap:10px;min-width:0}
.catan-box{background:#fbf8f1;border:1px solid #ddd3bd;border-radius:10px;padding:8px 10px}
.catan-box h3{margin:0 0 6px;font-size:15px}
.catan-muted{color:#6b655b;font-size:12.5px;margin:4px 0}
.catan-player{padding:5px 6px;border-radius:8px;margin:0 -4px 2px;border:1px solid transparent}
.catan-player.active{background:#fff1c7;border-color:#eed68a}
.catan-player .top{display:flex;align-items:center;gap:4px}
.catan-player .name{font-weight:650}
.catan-player .pts{margin-left:auto;white-space:nowrap}.catan-player .pts b{font-size:19px}
.catan-player .line{display:flex;flex-wrap:wrap;gap:2px 10px;font-size:12px;color:#4e4a42;margin-top:1px}
.catan-player .badges{margin-top:2px}
.catan-swatch{display:inline-block;width:13px;height:13px;border-radius:3px;border:1px solid #333;margin-right:5px;vertical-align:-2px}
.catan-badge{display:inline-block;font-size:11px;border-radius:8px;padding:0 6px;margin:1px 3px 1px 0;background:#e9e1cd;border:1px solid #cdbf9e}
.catan-badge.turn{background:#ffd54a;border-color:#c9a000;margin-left:4px}
.catan-imp{display:flex;gap:10px;margin-top:2px;font-size:11px;color:#6b655b}
.catan-imp .track{display:inline-flex;gap:1px;align-items:center}
.catan-imp .tname{margin-right:3px}
.catan-imp i{display:inline-block;width:7px;height:10px;background:#e3dccb;border-radius:1px;border:1px solid rgba(0,0,0,.12)}
.catan-chips{display:flex;flex-wrap:wrap;gap:4px}
.catan-chip{display:inline-flex;align-items:center;gap:3px;border:1px solid #d4c9b0;background:#fff;border-radius:6px;padding:1px 5px 1px 2px;font-size:12px}
.catan-chip i{display:inline-block;width:12px;height:16px;border-radius:2px;border:1px solid rgba(0,0,0,.35)}
.catan-chip.zero{opacity:.45}
.catan-cards{margin:6px 0 0;padding-left:18px;font-size:13px}
.catan-actions button,.catan-decision button{font:inherit;font-size:13px;margin:3px 4px 3px 0;padding:5px 9px;border-radius:7px;border:1px solid #b9ab8a;background:#fff;cursor:pointer;text-align:left}
.catan-actions button:hover,.catan-decision button:hover{background:#f3ead2}
.catan-actions button.primary,.catan-decision button.primary{background:#2c6e49;border-color:#1e4d33;color:#fff;font-weight:600}
.catan-actions button:disabled,.catan-decision button:disabled{opacity:.5;cursor:default}
.catan-actions button.kind{border-left:8px solid var(--kind)}
.catan-actions button.small{padding:3px 7px;font-size:12px}
button.catan-link{border:none;background:none;color:#2c5f9e;text-decoration:underline;padding:2px}
.catan-hint{font-size:12.5px;color:#4e4a42;margin:4px 0;padding-left:18px}
p.catan-hint{padding-left:0}
.catan-error{color:#a11;font-weight:600;margin:4px 0}
.catan-compose{margin-top:6px}.catan-compose summary{cursor:pointer;font-weight:600;font-size:13px}
.catan-bankrow{display:flex;flex-wrap:wrap;align-items:center;gap:2px;margin:3px 0}
.catan-bankrow .lead{display:inline-flex;align-items:center;gap:3px;min-width:110px;font-size:12px}
.catan-offer{display:grid;grid-template-columns:auto auto auto;gap:2px 10px;align-items:center;margin:6px 0}
.catan-offer .step button,.catan-picker button{padding:0 7px;margin:0 2px}
.catan-offer output,.catan-picker output{display:inline-block;min-width:1.2em;text-align:center;font-weight:700}
.catan-picker .row{display:flex;align-items:center;gap:6px;margin:2px 0}
.catan-picker .row .catan-chip{min-width:96px}
.catan-deals{margin:4px 0;padding-left:18px;font-size:13px}
.catan-legend ul{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:3px 14px;font-size:12px;color:#4e4a42}
.catan-legend li{display:inline-flex;align-items:center;gap:4px}
.catan-legend li i{display:inline-block;width:14px;height:12px;border-radius:2px;border:1px solid rgba(0,0,0,.3)}
.catan-bank{margin-top:6px}
.catan-root .legal{cursor:pointer;outline:none}
.catan-root .legal .catan-hit{fill:transparent;stroke:transparent}
.catan-root .legal .catan-mark{fill:#fff36b;stroke:#1b1b1b;stroke-width:2;animation:catan-pulse 1.3s ease-in-out infinite}
.catan-root .legal .catan-mark-line{stroke:#fff36b;stroke-width:6;stroke-linecap:round;stroke-dasharray:5 4;animation:catan-pulse 1.3s ease-in-out infinite}
.catan-root .legal .catan-mark-hex{fill:rgba(255,243,107,.2);stroke:#fff36b;stroke-width:4;stroke-dasharray:8 5;animation:catan-pulse 1.3s ease-in-out infinite}
.catan-root .legal:hover .catan-mark,.catan-root .legal:focus .catan-mark{fill:#fff;r:9;animation:none}
.catan-root .legal:hover .catan-mark-line,.catan-root .legal:focus .catan-mark-line{stroke:#fff;stroke-dasharray:none;animation:none}
.catan-root .legal:hover .catan-mark-hex,.catan-root .legal:focus .catan-mark-hex{fill:rgba(255,255,255,.3);stroke:#fff;animation:none}
.catan-root .legal .catan-ring{fill:none;stroke:#fff36b;stroke-width:4;stroke-dasharray:6 3;animation:catan-pulse 1.3s ease-in-out infinite}
.catan-root .legal:hover .catan-ring,.catan-root .legal:focus .catan-ring{stroke:#fff;stroke-dasharray:none;animation:none}
.catan-root .legal:focus-visible .catan-hit{stroke:#fff;stroke-width:3}
.catan-picked{fill:none;stroke:#ffe066;stroke-width:4}
.catan-picked-line{stroke:#ffe066;stroke-width:3;stroke-dasharray:6 4}
@keyframes catan-pulse{50%{opacity:.55}}
@media (prefers-reduced-motion:reduce){.catan-root .legal *{animation:none!important}}
`;

function ensureStyle(root) {
  const doc = root.ownerDocument || document;
  if (doc.getElementById("catan-style")) return;
  const s = doc.createElement("style");
  s.id = "catan-style";
  s.textContent = STYLE;
  (doc.head || doc.documentElement).appendChild(s);
}

// Which of several moves at one place is named first (data-command, the tooltip).
const RANK = [
  "catan.build_city",
  "catan.build_settlement",
  "catan.build_road",
  "catan.build_wall",
  "catan.activate_knight",
  "catan.promote_knight",
  "catan.build_knight",
  "catan.move_knight",
  "catan.chase_robber",
];
const rank = (c) => (RANK.includes(c.type) ? RANK.indexOf(c.type) : RANK.length);

// Per-root interaction state: the move being built (a card or track picked,
// board targets clicked), reset whenever the document's version changes.
const roots = new WeakMap();

function stageOf(legal, view, filter, picked) {
  const candidates = legal.filter((c) => {
    const key = filterKey(c);
    if (filter ? key !== filter : key) return false;
    const st = steps(c, view);
    if (!picked.length) return filter ? true : !!st;
    return st && picked.every((p, i) => st[i] === p);
  });
  const complete = [];
  const next = new Map();
  for (const c of candidates) {
    const st = steps(c, view) || [];
    if (st.length === picked.length) complete.push(c);
    else {
      const k = st[picked.length];
      if (!next.has(k)) next.set(k, []);
      next.get(k).push(c);
    }
  }
  return { complete, next };
}

export function render(root, doc, ctx) {
  const view = doc.view;
  CK.set(view, doc.game !== "catan");
  lastOptions = ctx?.options || doc.options || OPTIONS.get(doc.game_id) || null;
  // A move being built survives new versions (other seats answering at the
  // same time) as long as this seat's legal moves stay the same; a shown
  // rejection stays until the table moves on.
  let st = roots.get(root);
  if (!st || st.table !== doc.game_id) {
    st = {
      table: doc.game_id,
      local: {},
      filter: null,
      picked: [],
      error: "",
      version: doc.version,
      moves: "",
    };
    roots.set(root, st);
  }
  const moves = JSON.stringify(ctx?.legal || doc.legal || []);
  if (st.moves !== moves) {
    st.moves = moves;
    st.filter = null;
    st.picked = [];
  }
  if (st.version !== doc.version) {
    st.version = doc.version;
    if (st.errorVersion !== doc.version) st.error = "";
  }
  st.doc = doc;
  st.ctx = ctx;
  draw(root, st);
}

function draw(root, st) {
  const { doc, ctx } = st;
  const view = doc.view;
  lastView = view;
  ensureStyle(root);
  const legal = ctx?.legal || doc.legal || [];
  const name = (s) => nameOf(ctx, s);
  const focusKey = root.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-key")
    : null;

  const ui = {
    ctx: { ...ctx, view },
    legal,
    name,
    local: st.local,
    error: st.error,
    filter: st.filter,
    picked: st.picked,
    redraw: () => draw(root, st),
    reset: () => {
      st.filter = null;
      st.picked = [];
      draw(root, st);
    },
    enter: (key) => {
      st.filter = key;
      st.picked = [];
      st.error = "";
      draw(root, st);
    },
  };
  ui.submit = async (command) => {
    if (!ctx?.submit) return;
    st.error = "";
    let res;
    try {
      res = await ctx.submit(command);
    } catch (err) {
      res = { ok: false, message: String(err?.message ? err.message : err) };
    }
    if (res && res.ok === false) {
      st.error = `Not accepted: ${res.message || res.code || "rejected"}`;
      st.errorVersion = st.doc.version;
      st.filter = null;
      st.picked = [];
      if (root.isConnected) draw(root, st);
    }
  };
  ui.button = (parent, text, command, opts = {}) => {
    const b = html(
      "button",
      {
        type: "button",
        class: [opts.primary ? "primary" : "", opts.small ? "small" : ""].join(" ").trim() || null,
        "data-command": JSON.stringify(command),
        "data-key": opts.key || `cmd:${JSON.stringify(command)}`,
      },
      parent,
      text,
    );
    b.addEventListener("click", () => {
      const c = opts.live ? opts.live() : command;
      b.disabled = true;
      ui.submit(c);
    });
    return b;
  };
  ui.stage = stageOf(legal, view, st.filter, st.picked);

  // Board targets: the next step of every move still possible.
  ui.targets = new Map();
  const multiStep = (cs) => cs.some((c) => (steps(c, view) || []).length > 1 || filterKey(c));
  for (const [key, unsorted] of ui.stage.next) {
    const cs = unsorted.slice().sort((a, b) => rank(a) - rank(b));
    const after = [...st.picked, key];
    const exact = cs.filter((c) => (steps(c, view) || []).length === after.length);
    const direct = exact.length === 1 && cs.length === 1 && !multiStep(cs);
    const text = direct
      ? label(cs[0], ui.ctx)
      : cs.length === 1
        ? `${label(cs[0], ui.ctx)} (then confirm)`
        : `${cs.length} moves here: ${listing([...new Set(cs.map((c) => label(c, ui.ctx).split(" at ")[0].split(" to ")[0]))])}`;
    ui.targets.set(key, {
      command: cs[0],
      commands: cs,
      text,
      activate: () => {
        if (direct) {
          ui.submit(cs[0]);
          return;
        }
        st.picked = after;
        st.error = "";
        draw(root, st);
      },
    });
  }

  root.replaceChildren();
  root.classList.add("catan-root");
  root.setAttribute("data-game", doc.game);
  const grid = html("div", { class: "catan-grid" }, root);
  const main = html("div", { class: "catan-main" }, grid);
  drawStatus(main, view, ui);
  const svg = el(
    "svg",
    { class: "catan-board", role: "img", "aria-label": `Catan board, turn ${view.turn}` },
    main,
  );
  drawBoard(svg, view, ui);
  drawLegend(main, view);
  const side = html("div", { class: "catan-side" }, grid);
  drawDecision(side, view, doc, ui);
  drawActions(side, view, doc, ui);
  drawHand(side, view);
  drawPlayers(side, view, doc, ui);

  if (focusKey) {
    const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && !again.disabled) again.focus();
    // The control used is gone (a step of a move taken, a card kind filled):
    // the keyboard goes on to what comes next, a place on the board first.
    else
      (
        root.querySelector(".legal") ||
        root.querySelector(".catan-actions button:not([disabled]), .catan-decision button:not([disabled])")
      )?.focus();
  }
}
