// Age of Conan in words: names learnt from the last view, commands, events, scores.
// The content pack's names (provinces, kingdoms, cards) are its own; the game's
// words go through the catalogue (the Finnish summary's: kohtalonnoppa, lähettiläs,
// linnoitus, torni, seikkailumerkki, kruunaus, imperiumipisteet).

import { language, number, t } from "../../i18n.js";
import { capital, listWords, ordinal, seatName } from "../../words.js";

export const humanize = (id) =>
  String(id ?? "")
    .replace(/^(aq|tu|st|hy)_/, "")
    .split("_")
    .filter(Boolean)
    .map((w) => (["of", "the", "at", "in", "on", "and"].includes(w) ? w : capital(w)))
    .join(" ");

export const ROMAN = ["", "I", "II", "III", "IV", "V"];

// What the last drawn view taught us: province, kingdom and card names, for
// the sentences of events (which carry ids only) and for command labels.
export const memo = {
  provinces: new Map(),
  kingdoms: new Map(),
  cards: new Map(),
  seats: [],
  conanAt: "",
  view: null,
  seat: null,
};

// The content pack's words (the map's `words`: by language, then section, then
// the pack's id), in the page's language where the pack has them, else in the
// pack's English, else the id in words. The map is public and the same for every
// table of the pack: a page holds every card's words, and its view decides which
// cards it names.
const packWords = { mine: null, english: null };
// Where a card's words are, by the kind a view's `cards` gives it.
const SECTION = {
  strategy: "strategy_cards",
  kingdom: "kingdom_cards",
  artifact: "artifacts",
  adventure: "adventures",
  objective: "objectives",
};

function said(section, id) {
  return packWords.mine?.[section]?.[id] ?? packWords.english?.[section]?.[id];
}

export function learn(view, seat) {
  memo.view = view;
  memo.seat = seat;
  const board = view.board;
  if (board) {
    for (const p of board.provinces) memo.provinces.set(p.id, p);
    for (const k of board.kingdoms) memo.kingdoms.set(k.id, k);
    packWords.mine = board.words?.[language] ?? null;
    packWords.english = board.words?.en ?? null;
  }
  for (const c of view.cards || []) memo.cards.set(c.id, c);
  memo.seats = (view.seats || []).map((x) => x.kingdom);
  memo.conanAt = view.conan_at;
}

export const pname = (id) => (id ? (said("provinces", id) ?? humanize(id)) : t("conan.nowhere"));

// A card, artifact, adventure or objective: under the kind its view gives it, else
// wherever the pack has the id (a card the view no longer holds, named by the log).
function packCard(id) {
  const kind = memo.cards.get(id)?.kind;
  if (SECTION[kind]) return said(SECTION[kind], id);
  for (const section of Object.values(SECTION)) {
    const found = said(section, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function cname(id) {
  if (!id) return t("conan.no_card");
  const found = packCard(id);
  return (typeof found === "string" ? found : found?.name) ?? humanize(id);
}

export const kname = (id) => said("kingdoms", id) ?? humanize(id);

export const zoneName = (id) => said("zones", id) ?? humanize(id);

export const regionName = (id) => said("regions", id) ?? humanize(id);

// A map label's words: its English name is its key.
export const labelName = (name) => said("labels", name) ?? name;

// What a card does, worded from its facts (the view's `cards`) and, for a kingdom
// card, the pack's text; "" for an item the view does not describe.
export function ctext(id) {
  const info = memo.cards.get(id);
  if (!info) return "";
  switch (info.kind) {
    case "strategy":
      return strategyText(info);
    case "kingdom": {
      const text = packCard(id)?.text ?? "";
      if (info.type === "table") return t("conan.card_table", { cost: info.value ?? 0, text });
      if (info.type === "instant") return t("conan.card_instant", { text });
      if (info.type === "event") return t("conan.card_event", { text });
      return text;
    }
    case "artifact":
      return artifactText(info);
    case "adventure":
      return t("conan.card_adventure", { province: pname(info.destination), count: info.value ?? 0 });
    case "objective":
      return objectiveText(info);
    default:
      return "";
  }
}

function strategyText(info) {
  const never = t("conan.card_never");
  const terrains = info.terrains || [];
  const regions = info.regions || [];
  return t("conan.card_strategy", {
    faces: listWords((info.faces || []).map((f) => FACE[f] || humanize(f).toLowerCase())),
    military: terrains.length ? listWords(terrains.map(terrainName)) : never,
    intrigue: regions.length ? listWords(regions.map(regionName)) : never,
    value: info.value ?? 0,
  });
}

// An artifact's lasting effects, each in the catalogue's words.
const EFFECT = {
  win_ties: (e) =>
    e.contest === "military"
      ? t("conan.effect_win_ties_military")
      : e.contest === "intrigue"
        ? t("conan.effect_win_ties_intrigue")
        : t("conan.effect_win_ties"),
  add_dice: (e) =>
    e.contest === "military"
      ? t("conan.effect_add_dice_military", { count: e.n })
      : e.contest === "intrigue"
        ? t("conan.effect_add_dice_intrigue", { count: e.n })
        : t("conan.effect_add_dice", { count: e.n }),
  gold_bonus: (e) =>
    e.trigger === "alliance"
      ? t("conan.effect_gold_alliance", { count: e.n })
      : e.trigger === "collect"
        ? t("conan.effect_gold_collect", { count: e.n })
        : t("conan.effect_gold", { count: e.n }),
  cost_modifier: (e) => {
    const params = { delta: e.delta > 0 ? `+${number(e.delta)}` : number(e.delta), min: e.min };
    if (e.card_type === "instant") return t("conan.effect_cost_instant", params);
    if (e.card_type === "event") return t("conan.effect_cost_event", params);
    return t("conan.effect_cost_table", params);
  },
  bid_swap: () => t("conan.effect_bid_swap"),
};

function artifactText(info) {
  const parts = (info.effects || []).map((e) => (EFFECT[e.op] ? EFFECT[e.op](e) : humanize(e.op)));
  return parts.length ? t("conan.sentence", { text: capital(parts.join("; ")) }) : "";
}

// An objective's condition and its empire points.
const GOAL = {
  forts_at_least: (p) => t("conan.objective_forts", p),
  towers_at_least: (p) => t("conan.objective_towers", p),
  cities_at_least: (p) => t("conan.objective_cities", p),
  gold_at_least: (p) => t("conan.objective_gold", p),
  crom_at_least: (p) => t("conan.objective_crom", p),
  provinces_at_least: (p) => t("conan.objective_provinces", p),
  units_at_least: (p) => t("conan.objective_units", p),
  emissaries_at_least: (p) => t("conan.objective_emissaries", p),
  provinces_in_region_at_least: (p) => t("conan.objective_provinces_in_region", p),
  adventure_tokens_at_least: (p) => t("conan.objective_adventure_tokens", p),
  sorcery_at_least: (p) => t("conan.objective_sorcery", p),
};

function objectiveText(info) {
  const c = info.condition || {};
  const params = {
    count: c.n ?? 0,
    region: c.region ? regionName(c.region) : "",
    ep: t("conan.ep_n", { count: info.value ?? 0 }),
  };
  return GOAL[c.type] ? GOAL[c.type](params) : `${humanize(c.type)}: ${params.count}`;
}

// The language is fixed for a page's life (switching reloads): the names are read once.
export const FATE = {
  MILITARY: t("conan.fate_military"),
  INTRIGUE: t("conan.fate_intrigue"),
  MILITARY_INTRIGUE: t("conan.fate_military_intrigue"),
  COURT_CONAN: t("conan.fate_court_conan"),
  COURT: t("conan.fate_court"),
  WILD: t("conan.fate_wild"),
};

export const FACE = {
  HIT: t("conan.face_hit"),
  ATTACKER_HIT: t("conan.face_attacker_hit"),
  HIT_CONAN: t("conan.face_hit_conan"),
  SHIELD: t("conan.face_shield"),
  AXE: t("conan.face_axe"),
  BLANK: t("conan.face_blank"),
};

export const KIND = {
  campaign: t("conan.kind_campaign"),
  siege: t("conan.kind_siege"),
  battle: t("conan.kind_battle"),
  alliance: t("conan.kind_alliance"),
  break: t("conan.kind_break"),
};

export const CATEGORY = {
  monsters: t("conan.monsters"),
  treasures: t("conan.treasures"),
  women: t("conan.women"),
};

// A terrain's initial on a campaign track's space and in the legend.
export const terrainLetter = (terrain) =>
  ({
    plains: t("conan.terrain_letter_plains"),
    woods: t("conan.terrain_letter_woods"),
    hills: t("conan.terrain_letter_hills"),
    city: t("conan.terrain_letter_city"),
  })[terrain] || terrain.slice(0, 1).toUpperCase();

// A terrain a contest is fought in, as the content pack names it.
export const terrainName = (terrain) =>
  ({
    plains: t("conan.terrain_plains"),
    woods: t("conan.terrain_woods"),
    hills: t("conan.terrain_hills"),
    city: t("conan.terrain_city"),
  })[terrain] || humanize(terrain);

const ITEM = {
  emissary: () => t("conan.item_emissary"),
  unit: () => t("conan.item_unit"),
  kingdom_and_strategy: () => t("conan.item_kingdom_and_strategy"),
  strategy: () => t("conan.item_strategy"),
};

const AGE_STEP = {
  1: () => t("conan.age_step_1"),
  2: () => t("conan.age_step_2"),
  3: () => t("conan.age_step_3"),
  4: () => t("conan.age_step_4"),
  5: () => t("conan.age_step_5"),
  6: () => t("conan.age_step_6"),
  7: () => t("conan.age_step_7"),
};

const ageStep = (step) => (AGE_STEP[step] ? AGE_STEP[step]() : String(step));

// ---- commands in words ----

export const bare = (type) => String(type || "").replace(/^conan\./, "");

export function bidValueOf(card) {
  const info = memo.cards.get(card);
  return info && info.kind === "strategy" ? info.value : null;
}

export function label(command, ctx) {
  const c = command || {};
  const type = bare(c.type);
  return mapLabel(type, c, ctx) ?? turnLabel(type, c) ?? cardLabel(type, c) ?? capital(humanize(type));
}

function conanActLabel(c) {
  const raid = c.raider ? pname(c.raider) : "";
  if (c.to)
    return raid
      ? t("conan.do_conan_raid", { to: pname(c.to), raid })
      : t("conan.do_conan_no_raid", { to: pname(c.to) });
  return raid ? t("conan.do_conan_stays_raid", { raid }) : t("conan.do_conan_stays_no_raid");
}

function armyLabel(c) {
  const params = { count: c.units, from: pname(c.frm), to: pname(c.to) };
  return memo.view && targetAttacked(c.to) ? t("conan.do_army_attack", params) : t("conan.do_army", params);
}

// Moves on the map: Conan, armies, emissaries, fights and what follows them.
function mapLabel(type, c, ctx) {
  const province = c.province ? pname(c.province) : "";
  switch (type) {
    case "move_conan":
      return c.to
        ? t("conan.do_move_conan", { to: pname(c.to) })
        : t("conan.do_conan_stays", { at: pname(memo.view?.conan_at) });
    case "raise_troops":
      return t("conan.do_raise", { provinces: listWords((c.provinces || []).map(pname)) });
    case "move_army":
      return armyLabel(c);
    case "attack":
      return c.defender >= 0
        ? t("conan.do_fight_against", { province, name: seatName(ctx, c.defender) })
        : t("conan.do_fight", { province });
    case "move_emissary":
      return t("conan.do_move_emissary", { from: pname(c.frm), to: pname(c.to) });
    case "start_intrigue":
      return t("conan.do_intrigue", { province });
    case "collect_gold":
      return t("conan.do_collect", { province });
    case "build_emissary":
      return t("conan.do_build_emissary", { province });
    case "conan_act":
      return conanActLabel(c);
    default:
      return afterFightLabel(type, c, ctx, province);
  }
}

// What follows a fight: marching on, withdrawing; raids and garrisons.
function afterFightLabel(type, c, ctx, province) {
  switch (type) {
    case "forced_march":
      return c.defender >= 0
        ? t("conan.do_forced_march_against", { name: seatName(ctx, c.defender) })
        : t("conan.do_forced_march");
    case "withdraw":
      return c.frm
        ? t("conan.do_withdraw_from", { from: pname(c.frm), to: pname(c.to) })
        : t("conan.do_withdraw", { to: pname(c.to) });
    case "resolve_raids":
      return c.sacrifice_in?.length
        ? t("conan.do_sacrifice", { provinces: listWords(c.sacrifice_in.map(pname)) })
        : t("conan.do_keep_units");
    case "place_garrison":
      return c.city ? t("conan.do_city", { province }) : t("conan.do_garrison", { province });
    default:
      return undefined;
  }
}

function bidLabel(c) {
  if (!c.card) return t("conan.do_bid_no_card", { token: String(c.token) });
  const v = bidValueOf(c.card);
  const params = { token: String(c.token), card: cname(c.card) };
  return v === null ? t("conan.do_bid", params) : t("conan.do_bid_total", { ...params, total: c.token + v });
}

// Moves of the turn's steps: bids, tokens, dice and the Court.
function turnLabel(type, c) {
  switch (type) {
    case "place_bid":
      return bidLabel(c);
    case "swap_bid_card":
      return c.card ? t("conan.do_swap_bid", { card: cname(c.card) }) : t("conan.do_keep_bid");
    case "choose_token": {
      const words = {
        keep: () => t("conan.do_token_keep"),
        gold: () => t("conan.do_token_gold"),
        sorcery: () => t("conan.do_token_sorcery"),
      }[c.keep];
      return words ? words() : humanize(c.keep);
    }
    case "take_die": {
      const words = {
        military: () => t("conan.do_die_military"),
        intrigue: () => t("conan.do_die_intrigue"),
        court: () => t("conan.do_die_court"),
      }[c.action];
      return words ? words() : humanize(c.action);
    }
    case "end_action":
      return endWords();
    case "court_draw": {
      const words = {
        strategy_kingdom: () => t("conan.do_draw_strategy_kingdom"),
        two_strategy: () => t("conan.do_draw_two_strategy"),
      }[c.option];
      return words ? words() : humanize(c.option);
    }
    case "sorcery":
      return t("conan.do_sorcery");
    case "proceed":
      return proceedWords();
    default:
      return undefined;
  }
}

// Cards, the crown and purchases.
function cardLabel(type, c) {
  switch (type) {
    case "play_table_card":
      return t("conan.do_table_card", { card: cname(c.card) });
    case "refresh_table_card":
      return t("conan.do_refresh", { card: cname(c.card) });
    case "play_event":
      return t("conan.do_event", { card: cname(c.card) });
    case "commit_card":
      return c.cards?.length
        ? t("conan.do_commit", { cards: listWords(c.cards.map(cname)) })
        : t("conan.do_commit_none");
    case "use_card":
      return t("conan.do_use", { card: cname(c.card) });
    case "crown":
      return c.category
        ? t("conan.do_crown", { category: CATEGORY[c.category] || c.category })
        : t("conan.do_no_crown");
    case "buy": {
      const item = ITEM[c.item] ? ITEM[c.item]() : humanize(c.item);
      return c.province
        ? t("conan.do_buy_in", { item, province: pname(c.province) })
        : t("conan.do_buy", { item });
    }
    case "choose_category":
      return t("conan.do_category", { category: CATEGORY[c.category] || c.category });
    default:
      return undefined;
  }
}

// Whether a move goes into a province to attack it (else a redeploy), from the last view drawn.
function targetAttacked(to) {
  const view = memo.view;
  const seat = memo.seat;
  if (!view || seat === null || seat === undefined) return false;
  const p = provinceState(view, to);
  const info = memo.provinces.get(to);
  if (!p || !info) return false;
  return !(info.home_of === view.seats[seat]?.kingdom || p.owner === seat);
}

function endWords() {
  const top = topPhase(memo.view);
  if (top?.phase === "garrison" || top?.phase === "age_change") return t("conan.do_done");
  if (top?.phase === "military" && top.moved && top.moved.length) return t("conan.do_end_military");
  return top?.phase === "military" || top?.phase === "intrigue"
    ? t("conan.do_nothing_more")
    : t("conan.do_done");
}

function proceedWords() {
  const top = topPhase(memo.view);
  if (!top) return t("conan.do_go_on");
  if (top.phase === "contest") {
    if (top.step.startsWith("before")) return t("conan.do_roll");
    if (top.step.startsWith("after")) return t("conan.do_accept_roll");
    return t("conan.do_go_on");
  }
  if (top.phase === "after_contest") return t("conan.do_stop");
  if (top.phase === "retreat") return t("conan.do_stay");
  return t("conan.do_go_on");
}

export function topPhase(view) {
  const phases = view?.phases || [];
  return phases.length ? phases[phases.length - 1] : null;
}

export function provinceState(view, id) {
  const p = (view.provinces || []).find((x) => x.id === id);
  return p ? p.state : null;
}

// ---- events in words ----

const REASON = {
  setup: () => t("conan.why_setup"),
  token_exchange: () => t("conan.why_token_exchange"),
  crowned: () => t("conan.why_crowned"),
  raids: () => t("conan.why_raids"),
  purchase: () => t("conan.why_purchase"),
  table_card: () => t("conan.why_table_card"),
  refresh: () => t("conan.why_refresh"),
  event: () => t("conan.why_event"),
  sorcery_reroll: () => t("conan.why_sorcery_reroll"),
  collect: () => t("conan.why_collect"),
  subjugation: () => t("conan.why_subjugation"),
  alliance: () => t("conan.why_alliance"),
  income: () => t("conan.why_income"),
  objective: () => t("conan.why_objective"),
  richest: () => t("conan.why_richest"),
  crom: () => t("conan.why_crom"),
  final_markers: () => t("conan.why_final_markers"),
  majority_monsters: () => t("conan.why_majority_monsters"),
  majority_treasures: () => t("conan.why_majority_treasures"),
  majority_women: () => t("conan.why_majority_women"),
};

function amount(n, key) {
  const words = {
    gold: () => t("conan.gold_n", { count: n }),
    sorcery: () => t("conan.sorcery_n", { count: n }),
    ep: () => t("conan.ep_n", { count: n }),
    crom: () => t("conan.crom_n", { count: n }),
  }[key];
  return words ? words() : `${n} ${key}`;
}

const ACTION = {
  military: () => t("conan.action_military"),
  intrigue: () => t("conan.action_intrigue"),
  court: () => t("conan.action_court"),
};

const DECK = {
  strategy: () => t("conan.deck_strategy"),
  kingdom: () => t("conan.deck_kingdom"),
  table: () => t("conan.deck_table"),
  adventure: () => t("conan.deck_adventure"),
  objectives: () => t("conan.deck_objectives"),
};

const deckName = (deck) => (DECK[deck] ? DECK[deck]() : humanize(deck));

function resourcesSentence(e, who) {
  if (e.reason === "crom" && e.crom > 0 && !e.ep) return t("conan.log_crom", { name: who });
  const gains = [];
  const losses = [];
  for (const key of ["ep", "gold", "sorcery", "crom"]) {
    const n = e[key] || 0;
    if (n > 0) gains.push(amount(n, key));
    else if (n < 0) losses.push(amount(-n, key));
  }
  const why = REASON[e.reason] ? REASON[e.reason]() : e.reason ? humanize(e.reason).toLowerCase() : "";
  const spend = ["purchase", "table_card", "refresh", "sorcery_reroll"].includes(e.reason);
  const parts = [];
  if (gains.length) parts.push(t("conan.log_gains", { what: listWords(gains) }));
  if (losses.length)
    parts.push(
      spend
        ? t("conan.log_pays", { what: listWords(losses) })
        : t("conan.log_loses", { what: listWords(losses) }),
    );
  if (!parts.length)
    return why
      ? t("conan.log_treasury_same_why", { name: who, why })
      : t("conan.log_treasury_same", { name: who });
  const changes = listWords(parts);
  return why
    ? t("conan.log_resources_why", { name: who, changes, why })
    : t("conan.log_resources", { name: who, changes });
}

function faceCounts(faces, words) {
  const counts = new Map();
  for (const f of faces) counts.set(f, (counts.get(f) || 0) + 1);
  return listWords(
    [...counts].map(([f, n]) =>
      t("conan.face_count", { count: n, face: words[f] || humanize(f).toLowerCase() }),
    ),
  );
}

function militarySentence(p, who, pushed) {
  const name = who(p.seat);
  if (pushed) return t("conan.phase_military", { name });
  if (p.fought) return t("conan.phase_military_fought", { name });
  return p.target
    ? t("conan.phase_military_target", { name, province: pname(p.target), count: p.moves_left })
    : t("conan.phase_military_moves", { name, count: p.moves_left });
}

function openingSentence(p, who) {
  switch (p.phase) {
    case "bidding":
      if (p.step === "sealed") return t("conan.phase_bidding_sealed");
      if (p.step === "swap") return t("conan.phase_bidding_swap");
      return t("conan.phase_bidding_settled");
    case "token_choice":
      return t("conan.phase_token_choice", { name: who(p.seat) });
    case "coronation":
      return t("conan.phase_coronation", { name: who(p.seat) });
    case "adventure_end":
      return p.step === "reward"
        ? t("conan.phase_adventure_ends")
        : p.step === "coronation"
          ? t("conan.phase_may_crown")
          : t("conan.phase_next_adventure");
    case "turn":
      if (p.step === "conan") return t("conan.phase_turn", { name: who(p.seat) });
      if (p.step === "cards") return t("conan.phase_turn_cards", { name: who(p.seat) });
      return t("conan.phase_turn_die", { name: who(p.seat) });
    default:
      return undefined;
  }
}

export function phaseSentence(p, ctx, pushed) {
  const who = (seat) => seatName(ctx, seat);
  const opening = openingSentence(p, who);
  if (opening !== undefined) return opening;
  const name = p.seat !== undefined && p.seat !== null ? who(p.seat) : "";
  switch (p.phase) {
    case "military":
      return militarySentence(p, who, pushed);
    case "intrigue":
      return pushed ? t("conan.phase_intrigue", { name }) : t("conan.phase_intrigue_on", { name });
    case "conan_court":
      return t("conan.phase_conan_court", { name });
    case "court":
      return t("conan.phase_court", { name });
    case "contest":
      return contestSentence(p, who, pushed);
    case "after_contest":
      return t("conan.phase_after_contest", { name, province: pname(p.province) });
    case "retreat":
      return t("conan.phase_retreat", { name, province: pname(p.province) });
    case "age_change":
      return p.final
        ? t("conan.phase_final", { step: ageStep(p.step) })
        : t("conan.phase_age_change", { n: String(p.step), step: ageStep(p.step) });
    case "garrison":
      return t("conan.phase_garrison", { name });
    case "game_over":
      return t("conan.phase_over");
    default:
      return t("conan.sentence", { text: capital(humanize(p.phase)) });
  }
}

function contestStep(p, who) {
  const a = who(p.attacker.seat);
  const d = p.defender.seat >= 0 ? who(p.defender.seat) : "";
  const province = pname(p.province);
  switch (p.step) {
    case "attacker_card":
      return t("conan.step_card", { name: a });
    case "defender_card":
      return d ? t("conan.step_card", { name: d }) : t("conan.step_defender_card");
    case "before_attacker":
      return t("conan.step_about_to_roll", { name: a });
    case "after_attacker":
      return t("conan.step_looks", { name: a });
    case "before_defender":
      return t("conan.step_about_to_roll", { name: d || province });
    case "after_defender":
      return d ? t("conan.step_looks", { name: d }) : t("conan.step_defender_looks");
    case "resolve":
      return t("conan.step_resolve");
    default:
      return String(p.step);
  }
}

// A contest: who fights whom where (when it starts), or the step it is at.
function contestSentence(p, who, pushed) {
  const d = p.defender.seat;
  const what = t("conan.contest_what", {
    kind: KIND[p.kind] || capital(p.kind),
    province: pname(p.province),
    terrain: terrainName(p.terrain),
  });
  return pushed
    ? t("conan.contest_begins", {
        what,
        attacker: who(p.attacker.seat),
        defender: d >= 0 ? who(d) : pname(p.province),
      })
    : t("conan.contest_step", { what, step: contestStep(p, who) });
}

// The phases as the events describe them, in feed order, so that a phase's end
// can be named ("Anna's Military action ends"); reset by the game's start.
const shadow = { key: null, stack: [] };

function follow(e, ctx) {
  const key = ctx?.doc?.game_id || "";
  if (shadow.key !== key) {
    shadow.key = key;
    shadow.stack = [];
  }
  const type = bare(e.type);
  if (type === "started") shadow.stack = [];
  else if (type === "phase_pushed") shadow.stack.push(e.phase);
  else if (type === "phase_replaced") {
    if (shadow.stack.length) shadow.stack[shadow.stack.length - 1] = e.phase;
    else shadow.stack.push(e.phase);
  } else if (type === "phase_popped") return shadow.stack.pop() || null;
  return null;
}

function endSentence(p, ctx) {
  const name = p.seat !== undefined && p.seat !== null ? seatName(ctx, p.seat) : "";
  const province = p.province ? pname(p.province) : "";
  switch (p.phase) {
    case "bidding":
      return t("conan.end_bidding");
    case "token_choice":
      return t("conan.end_token_choice", { name });
    case "coronation":
      return t("conan.end_coronation");
    case "adventure_end":
      return t("conan.end_adventure");
    case "turn":
      return t("conan.end_turn", { name });
    case "military":
      return t("conan.end_military", { name });
    case "intrigue":
      return t("conan.end_intrigue", { name });
    case "conan_court":
      return t("conan.end_conan_court");
    case "court":
      return t("conan.end_court", { name });
    case "contest":
      return t("conan.end_contest", { kind: KIND[p.kind] || p.kind, province });
    case "after_contest":
      return t("conan.end_after_contest", { name, province });
    case "retreat":
      return t("conan.end_retreat", { name, province });
    case "age_change":
      return p.final ? t("conan.end_final") : t("conan.end_age_change");
    case "garrison":
      return t("conan.end_garrison", { name });
    default:
      return null;
  }
}

export function describe(event, ctx) {
  const e = event || {};
  const who = (seat) => seatName(ctx, seat);
  const type = bare(e.type);
  return (
    courseWords(type, e, who, ctx) ??
    ageWords(type, e, who) ??
    cardWords(type, e, who) ??
    mapWords(type, e, who) ??
    tokenWords(type, e, who) ??
    bidWords(type, e, who) ??
    contestWords(type, e, who) ??
    t("conan.sentence", { text: capital(humanize(type)) })
  );
}

// The game's course: its start, the players' roles and the phases.
function courseWords(type, e, who, ctx) {
  switch (type) {
    case "started": {
      follow(e, ctx);
      const rulers = (e.kingdoms || []).map((k, i) => t("conan.rules", { name: who(i), kingdom: kname(k) }));
      return t("conan.log_started", {
        rulers: listWords(rulers),
        zones: listWords((e.zones || []).map(zoneName)),
      });
    }
    case "conan_player_set":
      return e.seat >= 0
        ? t("conan.log_conan_player", { name: who(e.seat) })
        : t("conan.log_no_conan_player");
    case "first_player_set":
      return t("conan.log_first_player", { name: who(e.seat) });
    case "phase_pushed":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, true);
    case "phase_replaced":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, false);
    case "phase_popped": {
      const ended = follow(e, ctx);
      return (ended && endSentence(ended, ctx)) || t("conan.log_step_done");
    }
    default:
      return undefined;
  }
}

// Ages, objectives, the secret categories, the crown and the end.
function ageWords(type, e, who) {
  const category = e.category ? CATEGORY[e.category] || e.category : "";
  switch (type) {
    case "category_chosen":
      return t("conan.log_category", { name: who(e.seat), category });
    case "category_choice_made":
      return t("conan.log_category_secret", { name: who(e.seat) });
    case "tokens_revealed": {
      const values = e.values || [];
      const total = values.reduce((a, b) => a + b, 0);
      return values.length
        ? t("conan.log_tokens_shown", { name: who(e.seat), category, values: values.join(", "), total })
        : t("conan.log_tokens_none", { name: who(e.seat), category });
    }
    case "objective_drawn":
      return ctext(e.objective)
        ? t("conan.log_objective_text", { card: cname(e.objective), text: ctext(e.objective) })
        : t("conan.log_objective", { card: cname(e.objective) });
    case "objective_met":
      return (e.seats || []).length
        ? t("conan.log_objective_met", { names: listWords(e.seats.map(who)), card: cname(e.objective) })
        : t("conan.log_objective_nobody", { card: cname(e.objective) });
    case "age_started":
      return t("conan.log_age", { age: ROMAN[e.age] || String(e.age) });
    case "age_ending":
      return t("conan.log_age_ending");
    case "crowned":
      return e.success
        ? t("conan.log_crowned", { name: who(e.seat), category })
        : t("conan.log_crown_failed", { name: who(e.seat), category });
    case "game_ended": {
      const places = [...(e.standings || [])]
        .sort((a, b) => a.place - b.place)
        .map((st) => t("conan.place", { name: who(st.seat), place: ordinal(st.place), score: st.score }));
      return t("conan.log_ended", { places: listWords(places) });
    }
    default:
      return undefined;
  }
}

// Decks, cards, resources and artifacts.
function cardWords(type, e, who) {
  const name = e.seat !== undefined && e.seat >= 0 ? who(e.seat) : "";
  const cards = () => listWords((e.cards || []).map(cname));
  switch (type) {
    case "deck_shuffled":
      return e.deck === "kingdom" && e.seat >= 0
        ? t("conan.log_kingdom_deck_shuffled", { name })
        : t("conan.log_deck_shuffled", { deck: deckName(e.deck) });
    case "cards_drawn":
      return t("conan.log_cards_drawn", { name, cards: cards(), deck: deckName(e.deck) });
    case "cards_drawn_count":
      return t("conan.log_cards_drawn_count", { name, count: e.count, deck: deckName(e.deck) });
    case "cards_discarded":
      return e.deck === "table"
        ? t("conan.log_off_table", { name, cards: cards() })
        : t("conan.log_discards", { name, cards: cards() });
    case "table_card_played":
      return t("conan.log_table_card", { name, card: cname(e.card) });
    case "table_card_turned":
      return e.exhausted
        ? t("conan.log_card_used", { name, card: cname(e.card) })
        : t("conan.log_card_refreshed", { name, card: cname(e.card) });
    case "resources_changed":
      return resourcesSentence(e, name);
    case "artifacts_set": {
      const held = [...(e.artifacts || []).map(cname), ...(e.bonus ? [cname("conan_bonus")] : [])];
      return held.length
        ? t("conan.log_artifacts", { name, artifacts: listWords(held) })
        : t("conan.log_no_artifact", { name });
    }
    default:
      return undefined;
  }
}

function campaignWords(e, who) {
  const province = pname(e.province);
  if (e.owner < 0) return t("conan.log_campaign_ends", { province });
  const track = memo.provinces.get(e.province)?.track || [];
  const params = { name: who(e.owner), province, nth: ordinal(e.pos + 1), count: track.length };
  return track[e.pos]
    ? t("conan.log_campaign_terrain", { ...params, terrain: terrainName(track[e.pos]) })
    : t("conan.log_campaign", params);
}

function markerWords(e, who) {
  const province = pname(e.province);
  if (e.owner < 0 || !e.marker) return t("conan.log_neutral", { province });
  if (e.marker === "fort") return t("conan.log_fort", { name: who(e.owner), province });
  if (e.marker === "city") return t("conan.log_city", { name: who(e.owner), province });
  return t("conan.log_tower", { name: who(e.owner), province });
}

// The map: units, emissaries, markers, raiders, campaigns and Conan.
function mapWords(type, e, who) {
  const province = e.province ? pname(e.province) : "";
  const name = e.seat !== undefined && e.seat >= 0 ? who(e.seat) : "";
  switch (type) {
    case "units_changed":
      return e.delta > 0
        ? t("conan.log_units_in", { count: e.delta, name, province })
        : t("conan.log_units_out", { count: -e.delta, name, province });
    case "emissaries_changed":
      return e.delta > 0
        ? t("conan.log_emissaries_in", { count: e.delta, name, province })
        : t("conan.log_emissaries_out", { count: -e.delta, name, province });
    case "marker_set":
      return markerWords(e, who);
    case "raiders_changed":
      return e.delta > 0
        ? t("conan.log_raiders_in", { count: e.delta, province })
        : t("conan.log_raiders_out", { count: -e.delta, province });
    case "campaign_set":
      return campaignWords(e, who);
    case "conan_moved":
      return t("conan.log_conan_moved", { to: pname(e.to) });
    case "adventure_revealed":
      return t("conan.log_adventure", { card: cname(e.card), to: pname(e.destination) });
    default:
      return undefined;
  }
}

// Adventure tokens and the fate dice.
function tokenWords(type, e, who) {
  const name = e.seat !== undefined && e.seat >= 0 ? who(e.seat) : "";
  switch (type) {
    case "tokens_shuffled":
      return t("conan.log_tokens_mixed");
    case "fate_pool_rolled":
      return t("conan.log_fate_rolled", { faces: faceCounts(e.faces || [], FATE) });
    case "fate_die_taken":
      return t("conan.log_die_taken", {
        name,
        face: FATE[e.face] || humanize(e.face),
        action: ACTION[e.action] ? ACTION[e.action]() : humanize(e.action),
      });
    case "track_filled":
      return t("conan.log_track_filled", { count: e.count });
    case "token_taken":
    case "token_taken_count":
      return e.source === "container"
        ? t("conan.log_token_container", { name })
        : t("conan.log_token_track", { name });
    case "token_kept":
      return t("conan.log_token_kept", { name });
    case "token_exchanged":
      return t("conan.log_token_exchanged", {
        name,
        what: amount(e.amount, e.resource === "sorcery" ? "sorcery" : "gold"),
      });
    case "token_discarded":
      return t("conan.log_token_discarded");
    default:
      return undefined;
  }
}

// The bids for Conan.
function bidWords(type, e, who) {
  const name = e.seat !== undefined && e.seat >= 0 ? who(e.seat) : "";
  switch (type) {
    case "bid_sealed":
      return e.card
        ? t("conan.log_bid_sealed", { name, token: String(e.token), card: cname(e.card) })
        : t("conan.log_bid_sealed_no_card", { name, token: String(e.token) });
    case "bid_placed":
      return t("conan.log_bid_placed", { name });
    case "bids_revealed": {
      const bids = [...(e.bids || [])].sort((a, b) => b.value - a.value);
      const parts = bids.map((b) =>
        b.card
          ? t("conan.bid_line_card", {
              name: who(b.seat),
              token: String(b.token),
              card: cname(b.card),
              value: b.value,
            })
          : t("conan.bid_line", { name: who(b.seat), token: String(b.token), value: b.value }),
      );
      return t("conan.log_bids_revealed", { bids: parts.join("; ") });
    }
    case "bid_tokens_set": {
      const params = { name, tokens: (e.available || []).join(", ") || t("conan.none") };
      return e.spent?.length
        ? t("conan.log_bid_tokens_spent", { ...params, spent: e.spent.join(", ") })
        : t("conan.log_bid_tokens", params);
    }
    default:
      return undefined;
  }
}

// Contests: the cards committed, the dice and who wins.
function contestWords(type, e, who) {
  const name = e.seat !== undefined && e.seat >= 0 ? who(e.seat) : "";
  switch (type) {
    case "contest_card_committed":
      return e.cards?.length
        ? t("conan.log_committed", { name, cards: listWords(e.cards.map(cname)) })
        : t("conan.log_committed_none", { name });
    case "contest_card_declared":
      return e.count
        ? t("conan.log_committed_count", { name, count: e.count })
        : t("conan.log_committed_none", { name });
    case "contest_cards_revealed": {
      const parts = (e.seats || []).map((seat, i) =>
        t("conan.revealed_line", {
          name: who(seat),
          cards: (e.cards?.[i] || []).length ? listWords(e.cards[i].map(cname)) : t("conan.none"),
        }),
      );
      return t("conan.log_cards_revealed", { cards: parts.join("; ") });
    }
    case "contest_rolled": {
      const faces = e.faces || [];
      const params = {
        name: name || t("conan.the_province"),
        count: faces.length,
        faces: faceCounts(faces, FACE),
      };
      if (!faces.length) return t("conan.log_rolls_nothing", params);
      return e.reroll ? t("conan.log_rerolls", params) : t("conan.log_rolls", params);
    }
    case "contest_resolved": {
      const params = {
        kind: KIND[e.kind] || capital(e.kind),
        province: pname(e.province),
        a: e.attacker_successes,
        d: e.defender_successes,
      };
      return e.attacker_won ? t("conan.log_attacker_wins", params) : t("conan.log_defender_wins", params);
    }
    default:
      return undefined;
  }
}

// Public scores for the page's player list.
export function summary(doc) {
  const seats = doc?.view?.seats || [];
  return seats.map((x) =>
    x.dead ? t("conan.summary_dead", { count: x.ep }) : t("conan.ep_n", { count: x.ep }),
  );
}
