// Catan in words: names and colours, command labels, event sentences, scores.
// Names by the rule documents where they have them (the Finnish summary of
// Kaupungit ja ritarit: tiili, puu, villa, vilja, malmi; paperi, kangas, kolikko;
// the progress cards' names); Hungarian by the published Catan's names.

import { t } from "../../i18n.js";
import { listWords, seatName } from "../../words.js";
import { HARBOR_PATHS, PATH_ENDS, SPOT_HEXES } from "./board.js";

// ---------------------------------------------------------------- names and colours
// The language is fixed for a page's life (switching reloads), so the names are read once.

export const TERRAIN = [
  t("catan.hills"),
  t("catan.forest"),
  t("catan.pasture"),
  t("catan.fields"),
  t("catan.mountains"),
  t("catan.desert"),
];

export const TERRAIN_FILL = ["#c8643b", "#2f6e37", "#9ccc65", "#eac54f", "#8d9399", "#e6d3a3"];

export const TERRAIN_EDGE = ["#8e3f20", "#1b4521", "#5f8f35", "#b38d1f", "#5d6267", "#b59f6a"];

export const TERRAIN_RESOURCE = [0, 1, 2, 3, 4, -1];

export const KIND = [
  t("catan.brick"),
  t("catan.lumber"),
  t("catan.wool"),
  t("catan.grain"),
  t("catan.ore"),
  t("catan.paper"),
  t("catan.cloth"),
  t("catan.coin"),
];

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

// The tracks as the event die names them; TRACK_NAME says them.
export const TRACKS = ["trade", "politics", "science"];

export const TRACK_NAME = [t("catan.trade"), t("catan.politics"), t("catan.science")];

export const TRACK_FILL = ["#d9a21b", "#3a6fc4", "#3f9d5a"];

const TRACK_COMMODITY = [6, 7, 5]; // cloth, coin, paper

export const STRENGTH = ["", t("catan.basic"), t("catan.strong"), t("catan.mighty")];

export const SEAT_FILL = ["#d7322b", "#2462c7", "#f08c1a", "#f6f3ec", "#3c9a4a", "#7b4a2a"];

export const SEAT_INK = ["#fff", "#fff", "#1d1d1d", "#1d1d1d", "#fff", "#fff"];

export const SEAT_COLOUR = [
  t("catan.red"),
  t("catan.blue"),
  t("catan.orange"),
  t("catan.white"),
  t("catan.green"),
  t("catan.brown"),
];

export const EVENT_FACE = {
  ship: t("catan.face_ship"),
  trade: t("catan.face_trade"),
  politics: t("catan.face_politics"),
  science: t("catan.face_science"),
};

export const DEAL = 17;

const CARD_TITLE = {
  knight: t("catan.card_knight"),
  victory_point: t("catan.card_victory_point"),
  road_building: t("catan.card_road_building"),
  year_of_plenty: t("catan.card_year_of_plenty"),
  monopoly: t("catan.card_monopoly"),
  alchemist: t("catan.card_alchemist"),
  crane: t("catan.card_crane"),
  engineer: t("catan.card_engineer"),
  inventor: t("catan.card_inventor"),
  irrigation: t("catan.card_irrigation"),
  medicine: t("catan.card_medicine"),
  mining: t("catan.card_mining"),
  printer: t("catan.card_printer"),
  smith: t("catan.card_smith"),
  bishop: t("catan.card_bishop"),
  constitution: t("catan.card_constitution"),
  deserter: t("catan.card_deserter"),
  diplomat: t("catan.card_diplomat"),
  intrigue: t("catan.card_intrigue"),
  saboteur: t("catan.card_saboteur"),
  spy: t("catan.card_spy"),
  warlord: t("catan.card_warlord"),
  wedding: t("catan.card_wedding"),
  commercial_harbor: t("catan.card_commercial_harbor"),
  master_merchant: t("catan.card_master_merchant"),
  merchant: t("catan.card_merchant"),
  merchant_fleet: t("catan.card_merchant_fleet"),
  resource_monopoly: t("catan.card_resource_monopoly"),
  trade_monopoly: t("catan.card_trade_monopoly"),
};

export const CARD_HINT = {
  knight: t("catan.hint_knight"),
  victory_point: t("catan.hint_victory_point"),
  road_building: t("catan.hint_road_building"),
  year_of_plenty: t("catan.hint_year_of_plenty"),
  monopoly: t("catan.hint_monopoly"),
  alchemist: t("catan.hint_alchemist"),
  crane: t("catan.hint_crane"),
  engineer: t("catan.hint_engineer"),
  inventor: t("catan.hint_inventor"),
  irrigation: t("catan.hint_irrigation"),
  medicine: t("catan.hint_medicine"),
  mining: t("catan.hint_mining"),
  printer: t("catan.hint_point"),
  smith: t("catan.hint_smith"),
  bishop: t("catan.hint_bishop"),
  constitution: t("catan.hint_point"),
  deserter: t("catan.hint_deserter"),
  diplomat: t("catan.hint_diplomat"),
  intrigue: t("catan.hint_intrigue"),
  saboteur: t("catan.hint_saboteur"),
  spy: t("catan.hint_spy"),
  warlord: t("catan.hint_warlord"),
  wedding: t("catan.hint_wedding"),
  commercial_harbor: t("catan.hint_commercial_harbor"),
  master_merchant: t("catan.hint_master_merchant"),
  merchant: t("catan.hint_merchant"),
  merchant_fleet: t("catan.hint_merchant_fleet"),
  resource_monopoly: t("catan.hint_resource_monopoly"),
  trade_monopoly: t("catan.hint_trade_monopoly"),
};

export const cardTitle = (c) => CARD_TITLE[c] || (c ? c.replace(/_/g, " ") : t("catan.nothing"));

// "2 brick": a count of one kind.
export const kindCount = (n, k) => t("catan.kind_count", { count: n, kind: KIND[k] });

export function handWords(hand) {
  const out = [];
  (hand || []).forEach((n, k) => {
    if (n) out.push(kindCount(n, k));
  });
  return out.length ? listWords(out) : t("catan.nothing");
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
  if (!view?.terrain || view.terrain[h] === undefined) return t("catan.hex_n", { n: String(h + 1) });
  const terrain = TERRAIN[view.terrain[h]];
  const n = view.numbers ? view.numbers[h] : 0;
  return n ? t("catan.hex_numbered", { n: String(n), terrain }) : terrain;
}

export function spotName(s, view) {
  if (!view?.terrain) return t("catan.corner_n", { n: String(s + 1) });
  const hexes = SPOT_HEXES[s].map((h) => hexName(h, view));
  return hexes.length === 1 ? t("catan.coast_by", { hex: hexes[0] }) : hexes.join(" / ");
}

export function pathName(p, view) {
  if (!view?.terrain) return t("catan.edge_n", { n: String(p + 1) });
  const [a, b] = PATH_ENDS[p];
  const both = SPOT_HEXES[a].filter((h) => SPOT_HEXES[b].includes(h)).map((h) => hexName(h, view));
  if (both.length === 2) return t("catan.between", { a: both[0], b: both[1] });
  return both[0] ? t("catan.coast_of", { hex: both[0] }) : t("catan.coast_island");
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

const player = (ctx, s) => seatName(ctx, s, "Player");

function tradeChoice(v, p, ctx) {
  if (v < 0) return t("catan.do_decline_answers");
  const d = p.data.slice(v * DEAL, (v + 1) * DEAL);
  return t("catan.do_trade_with", {
    name: player(ctx, d[0]),
    give: handWords(d.slice(1, 9)),
    get: handWords(d.slice(9, 17)),
  });
}

function musterChoice(v, view) {
  const mine = view.knights.filter((k) => k.owner === view.seat && k.active);
  const fighting = mine.filter((_, i) => (v >> i) & 1);
  const strength = fighting.reduce((a, k) => a + k.strength, 0);
  return fighting.length
    ? t("catan.do_muster", { count: fighting.length, strength })
    : t("catan.do_muster_none");
}

function chooseLabel(c, ctx) {
  const view = viewOf(ctx);
  const p = view?.pending;
  const v = c.choice;
  switch (p ? p.kind : "") {
    case "trade":
      return v === 1
        ? t("catan.do_accept")
        : v === 0
          ? t("catan.do_decline_offer")
          : t("catan.do_answer", { n: String(v) });
    case "trade_confirm":
      return tradeChoice(v, p, ctx);
    case "aqueduct":
      return v < 0 ? t("catan.do_aqueduct_none") : t("catan.do_aqueduct", { kind: KIND[v] });
    case "pillage":
      return t("catan.do_pillage", { spot: spotName(v, view) });
    case "defender_draw":
      return t("catan.do_defender_draw", { track: TRACK_NAME[v] });
    case "muster":
      return musterChoice(v, view);
    case "retreat":
      return t("catan.do_retreat", { spot: spotName(v, view) });
    case "deserter":
      return t("catan.do_deserter", { spot: spotName(v, view) });
    case "deserter_strength":
      return t("catan.do_deserter_strength", { strength: STRENGTH[v] });
    case "deserter_place":
      return v < 0 ? t("catan.do_deserter_none") : t("catan.do_deserter_place", { spot: spotName(v, view) });
    case "diplomat":
      return v < 0 ? t("catan.do_diplomat_off") : t("catan.do_diplomat_again", { path: pathName(v, view) });
    case "harbor":
      return t("catan.do_harbor_give", { kind: KIND[v] });
    default:
      return v < 0 ? t("catan.do_decline") : t("catan.do_choose", { n: String(v) });
  }
}

// A progress card played on a place: its name and where.
function placedProgress(c, view, card) {
  switch (c.card) {
    case "alchemist":
      return t("catan.do_alchemist", { card, a: String(c.a), b: String(c.b) });
    case "bishop":
    case "merchant":
      return t("catan.do_card_hex", { card, hex: hexName(c.a, view) });
    case "diplomat":
      return t("catan.do_card_road", { card, path: pathName(c.a, view) });
    case "intrigue":
    case "engineer":
    case "medicine":
      return t("catan.do_card_spot", { card, spot: spotName(c.a, view) });
    case "inventor":
      return t("catan.do_inventor", { card, a: hexName(c.a, view), b: hexName(c.b, view) });
    case "smith":
      return c.b >= 0
        ? t("catan.do_smith_two", { card, a: spotName(c.a, view), b: spotName(c.b, view) })
        : t("catan.do_card_spot", { card, spot: spotName(c.a, view) });
    default:
      return undefined;
  }
}

function progressLabel(c, ctx) {
  const view = viewOf(ctx);
  const card = cardTitle(c.card);
  const placed = placedProgress(c, view, card);
  if (placed) return placed;
  switch (c.card) {
    case "deserter":
    case "spy":
    case "master_merchant":
      return t("catan.do_card_on", { card, name: player(ctx, c.a) });
    case "merchant_fleet":
    case "resource_monopoly":
    case "trade_monopoly":
      return t("catan.do_card_kind", { card, kind: KIND[c.a] });
    default:
      return t("catan.do_play_card", { card });
  }
}

function selectLabel(c, ctx) {
  const view = viewOf(ctx);
  const kind = pendingKind(view);
  const cards = handWords(c.cards);
  if (kind === "gift") return t("catan.do_give", { cards });
  if (kind === "master_merchant") return t("catan.do_take", { cards });
  return t("catan.do_discard", { cards });
}

export function label(c, ctx) {
  const view = viewOf(ctx);
  return turnLabel(c, ctx, view) ?? tradeLabel(c, ctx, view) ?? knightLabel(c, ctx, view) ?? c.type;
}

function robberLabel(c, ctx, view, knight = null) {
  const params = { hex: hexName(c.hex, view), name: c.victim >= 0 ? player(ctx, c.victim) : "" };
  if (knight !== null) {
    params.spot = spotName(knight, view);
    return c.victim >= 0 ? t("catan.do_chase_steal", params) : t("catan.do_chase", params);
  }
  return c.victim >= 0 ? t("catan.do_robber_steal", params) : t("catan.do_robber", params);
}

// The base game's moves: building, the dice, the robber and cards.
function turnLabel(c, ctx, view) {
  const setup = view && view.phase === "setup";
  switch (c.type) {
    case "catan.build_settlement":
      return setup
        ? t("catan.do_place_settlement", { spot: spotName(c.spot, view) })
        : t("catan.do_build_settlement", { spot: spotName(c.spot, view) });
    case "catan.build_city":
      return setup
        ? t("catan.do_place_city", { spot: spotName(c.spot, view) })
        : t("catan.do_build_city", { spot: spotName(c.spot, view) });
    case "catan.build_road":
      return setup
        ? t("catan.do_place_road", { path: pathName(c.path, view) })
        : t("catan.do_build_road", { path: pathName(c.path, view) });
    case "catan.roll_dice":
      return t("catan.do_roll");
    case "catan.end_turn":
      return t("catan.do_end_turn");
    case "catan.move_robber":
      return robberLabel(c, ctx, view);
    case "catan.select_cards":
      return selectLabel(c, ctx);
    case "catan.choose":
      return chooseLabel(c, ctx);
    case "catan.buy_dev_card":
      return t("catan.do_buy_dev");
    case "catan.play_dev_card":
      if (c.card === "monopoly")
        return t("catan.do_card_kind", { card: cardTitle("monopoly"), kind: KIND[c.kinds[0]] });
      if (c.card === "year_of_plenty")
        return t("catan.do_plenty", {
          card: cardTitle(c.card),
          kinds: listWords(c.kinds.map((k) => KIND[k])),
        });
      return t("catan.do_play_card", { card: cardTitle(c.card) });
    default:
      return undefined;
  }
}

// Trades with the bank and between players.
function tradeLabel(c, ctx, view) {
  switch (c.type) {
    case "catan.trade_bank": {
      const r = bankRate(view, c.give);
      const params = { give: KIND[c.give], get: KIND[c.get], rate: r ? String(r) : "" };
      return r ? t("catan.do_bank_rate", params) : t("catan.do_bank", params);
    }
    case "catan.offer_trade": {
      const params = { give: handWords(c.give), get: handWords(c.get) };
      return c.to >= 0
        ? t("catan.do_offer_to", { ...params, name: player(ctx, c.to) })
        : t("catan.do_offer_all", params);
    }
    case "catan.counter_trade":
      return t("catan.do_counter", { give: handWords(c.give), get: handWords(c.get) });
    case "catan.harbor_exchange":
      return t("catan.do_harbor_exchange", {
        card: cardTitle("commercial_harbor"),
        name: player(ctx, c.seat),
        kind: KIND[c.kind],
      });
    default:
      return undefined;
  }
}

function improveLabel(c, view) {
  const level =
    view && view.seat !== null && view.seat !== undefined ? view.players[view.seat].levels[c.track] + 1 : 0;
  const params = { track: TRACK_NAME[c.track] };
  const improve = level
    ? t("catan.do_improve_price", {
        ...params,
        level: String(level),
        price: kindCount(level - (view.effects?.cranes ? 1 : 0), TRACK_COMMODITY[c.track]),
      })
    : t("catan.do_improve", params);
  return c.spot >= 0 ? t("catan.do_improve_metropolis", { improve, spot: spotName(c.spot, view) }) : improve;
}

// Cities & Knights' moves: walls, knights, improvements and progress cards.
function knightLabel(c, ctx, view) {
  const spot = c.spot !== undefined && c.spot >= 0 ? spotName(c.spot, view) : "";
  switch (c.type) {
    case "catan.build_wall":
      return t("catan.do_wall", { spot });
    case "catan.build_knight":
      return t("catan.do_recruit", { spot });
    case "catan.activate_knight":
      return t("catan.do_activate", { spot });
    case "catan.promote_knight": {
      const k = view?.knights.find((x) => x.spot === c.spot);
      return k
        ? t("catan.do_promote_to", { spot, strength: STRENGTH[k.strength + 1] })
        : t("catan.do_promote", { spot });
    }
    case "catan.move_knight": {
      const other = view?.knights.find((x) => x.spot === c.to);
      const params = { spot, to: spotName(c.to, view) };
      return other ? t("catan.do_displace", params) : t("catan.do_move_knight", params);
    }
    case "catan.chase_robber":
      return robberLabel(c, ctx, view, c.spot);
    case "catan.buy_improvement":
      return improveLabel(c, view);
    case "catan.play_progress":
      return progressLabel(c, ctx);
    case "catan.discard_progress":
      return t("catan.do_discard", { cards: listWords(c.cards.map(cardTitle)) });
    case "catan.take_card":
      return c.card ? t("catan.do_take", { cards: cardTitle(c.card) }) : t("catan.do_take_none");
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- event sentences

const TASK_WORDS = {
  robber: (e, n) => t("catan.task_robber", { name: n(e.task.owner) }),
  free_roads: (e, n) =>
    t("catan.task_free_roads", { name: n(e.task.seats[0]), count: e.task.amounts[0] || 0 }),
  trade_confirm: (e, n) => t("catan.task_trade_confirm", { name: n(e.task.owner) }),
  aqueduct: (e, n) => t("catan.task_aqueduct", { name: n(e.task.seats[0]) }),
  pillage: (e, n) => t("catan.task_pillage", { names: listWords(e.task.seats.map(n)) }),
  defender_draw: (e, n) => t("catan.task_defender_draw", { name: n(e.task.seats[0]) }),
  muster: (e, n) => t("catan.task_muster", { names: listWords(e.task.seats.map(n)) }),
  retreat: (e, n) => t("catan.task_retreat", { name: n(e.task.seats[0]) }),
  deserter: (e, n) => t("catan.task_deserter", { name: n(e.task.seats[0]), owner: n(e.task.owner) }),
  deserter_strength: (e, n) => t("catan.task_deserter_strength", { name: n(e.task.owner) }),
  deserter_place: (e, n) => t("catan.task_deserter_place", { name: n(e.task.owner) }),
  diplomat: (e, n) => t("catan.task_diplomat", { name: n(e.task.owner) }),
  spy: (e, n) => t("catan.task_spy", { name: n(e.task.owner), other: n(e.task.data[0]) }),
  gift: (e, n) => t("catan.task_gift", { names: listWords(e.task.seats.map(n)), owner: n(e.task.owner) }),
  master_merchant: (e, n) =>
    t("catan.task_master_merchant", {
      name: n(e.task.owner),
      count: e.task.amounts[0] || 0,
      other: n(e.task.data[0]),
    }),
  harbor: (e, n) => t("catan.task_harbor", { name: n(e.task.seats[0]), owner: n(e.task.owner) }),
};

function taskSentence(e, n) {
  const task = e.task;
  const amounts = () =>
    listWords(task.seats.map((s, i) => t("catan.name_amount", { name: n(s), n: String(task.amounts[i]) })));
  if (task.kind === "discard") return t("catan.task_discard", { names: amounts() });
  if (task.kind === "progress_discard") return t("catan.task_progress_discard", { names: amounts() });
  if (task.kind === "trade") {
    const params = {
      name: n(task.owner),
      give: handWords(task.data.slice(0, 8)),
      get: handWords(task.data.slice(8, 16)),
    };
    return task.seats.length === 1
      ? t("catan.task_trade_to", { ...params, to: n(task.seats[0]) })
      : t("catan.task_trade_all", params);
  }
  const words = TASK_WORDS[task.kind];
  return words ? words(e, n) : t("catan.task_other", { names: listWords(task.seats.map(n)) });
}

function tradeAnswer(a, name) {
  if (a.choice === 1) return t("catan.answer_accepts", { name });
  if (a.choice === 2)
    return t("catan.answer_counters", { name, give: handWords(a.cards), get: handWords(a.counter) });
  return t("catan.answer_declines", { name });
}

export function answerWords(a, kind, n, view) {
  const name = n(a.seat);
  const spot = a.choice >= 0 ? spotName(a.choice, view) : "";
  switch (kind) {
    case "trade":
      return tradeAnswer(a, name);
    case "trade_confirm":
      return a.choice < 0
        ? t("catan.answer_no_deal", { name })
        : t("catan.answer_deal", { name, n: String(a.choice + 1) });
    case "discard":
      return t("catan.answer_discards", { name, cards: handWords(a.cards) });
    case "aqueduct":
      return a.choice < 0
        ? t("catan.answer_takes_nothing", { name })
        : t("catan.answer_takes", { name, cards: kindCount(1, a.choice) });
    case "pillage":
      return t("catan.answer_pillage", { name, spot });
    case "defender_draw":
      return t("catan.answer_draws", { name, track: TRACK_NAME[a.choice] });
    case "muster":
      return t("catan.answer_muster", { name, n: String(a.choice) });
    case "retreat":
    case "deserter_place":
      return a.choice < 0 ? t("catan.answer_no_knight", { name }) : t("catan.answer_picks", { name, spot });
    case "deserter":
      return t("catan.answer_deserter", { name, spot });
    case "deserter_strength":
      return t("catan.answer_strength", { name, strength: STRENGTH[a.choice] });
    case "diplomat":
      return a.choice < 0
        ? t("catan.answer_road_off", { name })
        : t("catan.answer_road", { name, path: pathName(a.choice, view) });
    default:
      return t("catan.answer_other", { name });
  }
}

export function describe(e, ctx) {
  const n = (s) => seatName(ctx, s, "Player");
  const view = viewOf(ctx);
  return (
    courseWords(e, n, view, ctx) ??
    decisionWords(e, n, view) ??
    pieceWords(e, n, view) ??
    knightWords(e, n, view) ??
    cardWords(e, n) ??
    scoreWords(e, n, view) ??
    ""
  );
}

function startedWords(e, n, ctx) {
  const o = e.options || {};
  const table = ctx?.doc?.game_id;
  if (table && !OPTIONS.has(table)) OPTIONS.set(table, o);
  const ck = o.expansion !== "none";
  const params = { count: e.seats, points: o.points_to_win || (ck ? 13 : 10), name: n(e.first) };
  return ck ? t("catan.log_started_ck", params) : t("catan.log_started", params);
}

function phaseWords(e, n, view) {
  const name = n(e.active);
  if (e.phase === "setup") {
    if (e.setup_spot >= 0) return t("catan.log_setup_road", { name });
    const second = view && e.setup_queue.length <= view.players.length;
    if (!second) return t("catan.log_setup_first", { name });
    return isCK(view) ? t("catan.log_setup_city", { name }) : t("catan.log_setup_second", { name });
  }
  if (e.phase === "roll") return t("catan.log_roll", { name, turn: String(e.turn) });
  if (e.phase === "main") return t("catan.log_main", { name });
  return t("catan.log_over");
}

function effectsWords(e, n) {
  const f = e.effects || {};
  const parts = [];
  if (f.cranes) parts.push(t("catan.effect_crane", { card: cardTitle("crane") }));
  if (f.fleet?.length)
    parts.push(
      t("catan.effect_fleet", {
        kinds: listWords(f.fleet.map((k) => KIND[k])),
        card: cardTitle("merchant_fleet"),
      }),
    );
  if (f.harbor_targets?.length)
    parts.push(
      t("catan.effect_harbor", {
        card: cardTitle("commercial_harbor"),
        names: listWords([...new Set(f.harbor_targets)].map(n)),
      }),
    );
  if (f.errant) parts.push(t("catan.effect_errant"));
  return parts.length ? t("catan.log_effects", { effects: parts.join("; ") }) : t("catan.log_effects_end");
}

// The game's course: its start, the island laid out, the phases and the turn's effects.
function courseWords(e, n, view, ctx) {
  switch (e.type) {
    case "catan.started":
      return startedWords(e, n, ctx);
    case "catan.start_rolled":
      return t("catan.log_start_rolled", {
        rolls: listWords(
          e.seats.map((s, i) =>
            t("catan.name_amount", { name: n(s), n: String(e.dice[i][0] + e.dice[i][1]) }),
          ),
        ),
      });
    case "catan.board_laid":
      return t("catan.log_board_laid");
    case "catan.decks_shuffled":
      return t("catan.log_shuffled");
    case "catan.phase_set":
      return phaseWords(e, n, view);
    case "catan.effects_set":
      return effectsWords(e, n);
    case "catan.todo_set":
      return e.todo.length ? t("catan.log_todo", { todo: listWords(e.todo) }) : t("catan.log_todo_on");
    default:
      return undefined;
  }
}

function answeredWords(e, n) {
  const a = e.answer;
  const name = n(a.seat);
  if (total(a.cards)) {
    const cards = handWords(a.cards);
    return a.counter && total(a.counter)
      ? t("catan.log_answer_counter", { name, cards, counter: handWords(a.counter) })
      : t("catan.log_answer_cards", { name, cards });
  }
  return a.names?.length
    ? t("catan.log_answer_cards", { name, cards: listWords(a.names.map(cardTitle)) })
    : t("catan.log_answer", { name });
}

// Decisions several players take at once: asked, answered, closed.
function decisionWords(e, n, view) {
  switch (e.type) {
    case "catan.task_opened":
      return taskSentence(e, n);
    case "catan.harbor_offered":
      return t("catan.log_harbor_offered", {
        owner: n(e.owner),
        name: n(e.seat),
        kind: KIND[e.kind],
        card: cardTitle("commercial_harbor"),
      });
    case "catan.answered":
      return answeredWords(e, n);
    case "catan.answered_shadow":
      return t("catan.log_answered", { name: n(e.seat) });
    case "catan.task_closed": {
      const shown = (e.answers || []).filter((a) => !(e.kind === "discard" && !total(a.cards)));
      if (!shown.length || e.kind === "discard") return t("catan.log_decided");
      return t("catan.sentence", { parts: listWords(shown.map((a) => answerWords(a, e.kind, n, view))) });
    }
    default:
      return undefined;
  }
}

// Pieces on the island: buildings, roads, the robber and the merchant.
function pieceWords(e, n, view) {
  const name = e.seat !== undefined ? n(e.seat) : "";
  switch (e.type) {
    case "catan.building_placed":
      return e.level === 2
        ? t("catan.log_city", { name, spot: spotName(e.spot, view) })
        : t("catan.log_settlement", { name, spot: spotName(e.spot, view) });
    case "catan.road_placed":
      return t("catan.log_road", { name, path: pathName(e.path, view) });
    case "catan.road_removed":
      return t("catan.log_road_removed", { path: pathName(e.path, view) });
    case "catan.robber_moved":
      return t("catan.log_robber", { hex: hexName(e.hex, view) });
    case "catan.merchant_moved":
      return t("catan.log_merchant", { name, hex: hexName(e.hex, view) });
    case "catan.numbers_swapped":
      return view?.terrain
        ? t("catan.log_swapped", {
            a: TERRAIN[view.terrain[e.a]],
            b: TERRAIN[view.terrain[e.b]],
            card: cardTitle("inventor"),
          })
        : t("catan.log_swapped_two", { card: cardTitle("inventor") });
    default:
      return undefined;
  }
}

// Cities & Knights' pieces: pillaged cities, walls and knights.
function knightWords(e, n, view) {
  switch (e.type) {
    case "catan.city_pillaged": {
      const params = { name: n(e.seat), spot: spotName(e.spot, view) };
      return e.tipped ? t("catan.log_pillaged_tipped", params) : t("catan.log_pillaged", params);
    }
    case "catan.wall_placed":
      return t("catan.log_wall", { name: n(e.seat), spot: spotName(e.spot, view) });
    case "catan.knight_set": {
      const k = e.knight;
      const params = { name: n(k.owner), strength: STRENGTH[k.strength], spot: spotName(k.spot, view) };
      return k.active ? t("catan.log_knight_active", params) : t("catan.log_knight_inactive", params);
    }
    case "catan.knight_removed":
      return t("catan.log_knight_removed", { spot: spotName(e.spot, view) });
    default:
      return undefined;
  }
}

// Cards changing hands: resources and commodities, development and progress cards.
function cardWords(e, n) {
  const name = e.seat !== undefined ? n(e.seat) : "";
  const card = e.card ? cardTitle(e.card) : "";
  switch (e.type) {
    case "catan.cards_paid":
      return t("catan.log_paid", { name, cards: handWords(e.cards) });
    case "catan.cards_gained":
      return t("catan.log_gained", { name, cards: handWords(e.cards) });
    case "catan.cards_passed":
      return t("catan.log_passed", { from: n(e.src), to: n(e.dst), cards: handWords(e.cards) });
    case "catan.cards_taken":
      return t("catan.log_taken", { from: n(e.src), to: n(e.dst), cards: handWords(e.cards) });
    case "catan.cards_taken_shadow":
      return t("catan.log_taken_count", { from: n(e.src), to: n(e.dst), count: e.count });
    case "catan.hand_shown":
      return t("catan.log_hand_shown", { name, other: n(e.target), cards: handWords(e.cards) });
    case "catan.progress_shown":
      return t("catan.log_progress_shown", {
        name,
        other: n(e.target),
        cards: e.cards.length ? listWords(e.cards.map(cardTitle)) : t("catan.none"),
      });
    default:
      return drawnWords(e, n, name, card);
  }
}

function drawnWords(e, n, name, card) {
  switch (e.type) {
    case "catan.card_drawn":
      return t("catan.log_drawn", { name, card });
    case "catan.card_drawn_shadow":
      return e.deck < 0
        ? t("catan.log_bought_dev", { name })
        : t("catan.log_drawn_track", { name, track: TRACK_NAME[e.deck] });
    case "catan.card_revealed":
      return t("catan.log_revealed", { name, card });
    case "catan.card_played":
      return t("catan.log_played", { name, card });
    case "catan.card_discarded":
      return t("catan.log_discarded", { name, card });
    case "catan.card_discarded_shadow":
      return e.deck >= 0
        ? t("catan.log_discarded_track", { name, track: TRACK_NAME[e.deck] })
        : t("catan.log_discarded_card", { name });
    case "catan.card_stolen":
      return t("catan.log_stolen", { to: n(e.dst), from: n(e.src), card });
    case "catan.card_stolen_shadow":
      return t("catan.log_stolen_progress", { to: n(e.dst), from: n(e.src) });
    default:
      return undefined;
  }
}

function attackWords(e, n) {
  const who = (e.contributions || [])
    .map((c, s) => (c ? t("catan.name_amount", { name: n(s), n: String(c) }) : ""))
    .filter(Boolean);
  const params = { barbarians: e.barbarians, knights: e.knights, who: who.join(", ") };
  const won = e.barbarians > e.knights;
  if (who.length)
    return won ? t("catan.log_attack_lost_who", params) : t("catan.log_attack_held_who", params);
  return won ? t("catan.log_attack_lost", params) : t("catan.log_attack_held", params);
}

// The dice, the barbarians, and what scores: improvements, titles and the win.
function scoreWords(e, n, view) {
  switch (e.type) {
    case "catan.dice_rolled": {
      const params = {
        total: e.yellow + e.red,
        yellow: e.yellow,
        red: e.red,
        face: EVENT_FACE[e.event] || e.event,
      };
      return e.event ? t("catan.log_dice_event", params) : t("catan.log_dice", params);
    }
    case "catan.barbarian_moved":
      return t("catan.log_barbarians", { at: e.position, of: trackLength(view) });
    case "catan.barbarians_attacked":
      return attackWords(e, n);
    case "catan.defender_awarded":
      return t("catan.log_defender", { name: n(e.seat) });
    case "catan.improvement_bought":
      return t("catan.log_improved", { name: n(e.seat), track: TRACK_NAME[e.track], level: String(e.level) });
    case "catan.metropolis_placed": {
      const owner = view?.owner ? view.owner[e.spot] : -1;
      const params = { spot: spotName(e.spot, view), track: TRACK_NAME[e.track] };
      return owner >= 0
        ? t("catan.log_metropolis_of", { ...params, name: n(owner) })
        : t("catan.log_metropolis", params);
    }
    case "catan.longest_road_set":
      return e.holder >= 0
        ? t("catan.log_longest_road", { name: n(e.holder), count: e.lengths[e.holder] })
        : t("catan.log_longest_road_none");
    case "catan.largest_army_set":
      return e.holder >= 0
        ? t("catan.log_largest_army", { name: n(e.holder) })
        : t("catan.log_largest_army_none");
    case "catan.game_won": {
      const pts = e.points || [];
      return t("catan.log_won", {
        name: n(e.seat),
        count: pts[e.seat],
        all: pts.map((p, s) => t("catan.name_amount", { name: n(s), n: String(p) })).join(", "),
      });
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
  return view.players.map((p) =>
    [
      t("catan.points_n", { count: p.points }),
      t("catan.cards_n", { count: p.resources + p.commodities }),
      ck ? t("catan.progress_n", { count: p.progress }) : t("catan.dev_n", { count: p.progress }),
    ].join(" · "),
  );
}
