// Age of Conan in words: names learnt from the last view, commands, events, scores.

import { article, capital, listWords, ordinal, plural, seatName } from "../../words.js";

export const humanize = (id) =>
  String(id ?? "")
    .replace(/^(aq|tu|st|hy)_/, "")
    .split("_")
    .filter(Boolean)
    .map((w) => (["of", "the", "at", "in", "on", "and"].includes(w) ? w : capital(w)))
    .join(" ");

export const ROMAN = ["", "I", "II", "III", "IV", "V"];

const ORD = ["first", "second", "third", "fourth", "fifth", "sixth"];

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

export function learn(view, seat) {
  memo.view = view;
  memo.seat = seat;
  const board = view.board;
  if (board) {
    for (const p of board.provinces) memo.provinces.set(p.id, p);
    for (const k of board.kingdoms) memo.kingdoms.set(k.id, k);
  }
  for (const c of view.cards || []) memo.cards.set(c.id, c);
  memo.seats = (view.seats || []).map((x) => x.kingdom);
  memo.conanAt = view.conan_at;
}

export const pname = (id) => (id ? (memo.provinces.get(id)?.name ?? humanize(id)) : "nowhere");

export const cname = (id) => (id ? (memo.cards.get(id)?.name ?? humanize(id)) : "no card");

export const kname = (id) => memo.kingdoms.get(id)?.name ?? humanize(id);

export const ctext = (id) => memo.cards.get(id)?.text ?? "";

export const FATE = {
  MILITARY: "Military",
  INTRIGUE: "Intrigue",
  MILITARY_INTRIGUE: "Military or Intrigue",
  COURT_CONAN: "Court + Conan",
  COURT: "Court",
  WILD: "Wild",
};

export const FACE = {
  HIT: "hit",
  ATTACKER_HIT: "attacker's hit",
  HIT_CONAN: "hit and sword",
  SHIELD: "shield",
  AXE: "axe",
  BLANK: "blank",
};

const FACES = {
  HIT: "hits",
  ATTACKER_HIT: "attacker's hits",
  HIT_CONAN: "hits and swords",
  SHIELD: "shields",
  AXE: "axes",
  BLANK: "blanks",
};

export const KIND = {
  campaign: "Campaign",
  siege: "Siege",
  battle: "Battle",
  alliance: "Alliance",
  break: "Breaking an alliance",
};

export const CATEGORY = { monsters: "monsters", treasures: "treasures", women: "women" };

const ITEM = {
  emissary: "an emissary",
  unit: "a unit",
  kingdom_and_strategy: "a kingdom card and a strategy card",
  strategy: "a strategy card",
};

const AGE_STEP = {
  1: "raids",
  2: "income and objectives",
  3: "troops and cities",
  4: "purchases",
  5: "artifacts (a secret token category)",
  6: "new adventures",
  7: "table cards refreshed",
};

// ---- commands in words ----

export const bare = (type) => String(type || "").replace(/^conan\./, "");

export function bidValueOf(card) {
  const info = memo.cards.get(card);
  return info && info.kind === "strategy" ? info.value : null;
}

export function label(command, ctx) {
  const c = command || {};
  const type = bare(c.type);
  return mapLabel(type, c, ctx) ?? turnLabel(type, c) ?? capital(humanize(type));
}

// Moves on the map: Conan, armies, emissaries, fights and what follows them.
function mapLabel(type, c, ctx) {
  switch (type) {
    case "move_conan":
      return c.to ? `Move Conan to ${pname(c.to)}` : `Conan stays in ${pname(memo.view?.conan_at)}`;
    case "raise_troops":
      return `Raise troops in ${listWords((c.provinces || []).map(pname))}`;
    case "move_army": {
      const into = memo.view ? targetWord(c.to) : "";
      return `Move ${plural(c.units, "unit")} from ${pname(c.frm)} ${into || "to"} ${pname(c.to)}`;
    }
    case "attack":
      return c.defender >= 0
        ? `Fight in ${pname(c.province)} against ${seatName(ctx, c.defender)}`
        : `Fight in ${pname(c.province)}`;
    case "move_emissary":
      return `Move an emissary from ${pname(c.frm)} to ${pname(c.to)}`;
    case "start_intrigue":
      return `Intrigue in ${pname(c.province)}`;
    case "collect_gold":
      return `Collect gold in ${pname(c.province)}`;
    case "build_emissary":
      return `Build an emissary in ${pname(c.province)}`;
    case "conan_act": {
      const move = c.to ? `Move Conan to ${pname(c.to)}` : "Conan stays";
      return c.raider ? `${move}, raid ${pname(c.raider)}` : `${move}, no raid`;
    }
    case "forced_march":
      return c.defender >= 0
        ? `Forced march: give up a unit, fight ${seatName(ctx, c.defender)} again`
        : "Forced march: give up a unit and fight on";
    case "withdraw":
      return c.frm
        ? `Withdraw the army from ${pname(c.frm)} to ${pname(c.to)}`
        : `Withdraw to ${pname(c.to)}`;
    case "resolve_raids":
      return c.sacrifice_in?.length
        ? `Sacrifice a unit to clear the raiders in ${listWords(c.sacrifice_in.map(pname))}`
        : "Keep your units; pay EP for the raiders";
    case "place_garrison":
      return c.city
        ? `Turn the fort in ${pname(c.province)} into a city`
        : `Place a unit in ${pname(c.province)}`;
    default:
      return undefined;
  }
}

// Moves of the turn's steps: bids, tokens, dice, cards, purchases and the crown.
function turnLabel(type, c) {
  switch (type) {
    case "place_bid": {
      if (!c.card) return `Bid the ${c.token} token without a card`;
      const v = bidValueOf(c.card);
      return `Bid the ${c.token} token with ${cname(c.card)}${v === null ? "" : ` (${c.token + v} in all)`}`;
    }
    case "swap_bid_card":
      return c.card ? `Swap your revealed card for ${cname(c.card)}` : "Keep the revealed card";
    case "choose_token":
      return (
        {
          keep: "Keep the adventure token face down",
          gold: "Exchange the token for gold",
          sorcery: "Exchange the token for sorcery",
        }[c.keep] || `Token: ${c.keep}`
      );
    case "play_table_card":
      return `Put ${cname(c.card)} on the table`;
    case "refresh_table_card":
      return `Refresh ${cname(c.card)}`;
    case "take_die":
      return (
        {
          military: "Take a die for a Military action",
          intrigue: "Take a die for an Intrigue action",
          court: "Take a die for the Court",
        }[c.action] || `Take a die: ${c.action}`
      );
    case "end_action":
      return endWords();
    case "court_draw":
      return (
        {
          strategy_kingdom: "Draw a strategy card and a kingdom card",
          two_strategy: "Draw two strategy cards",
        }[c.option] || `Draw: ${humanize(c.option)}`
      );
    case "play_event":
      return `Play the event ${cname(c.card)}`;
    case "commit_card":
      return c.cards?.length
        ? `Commit ${listWords(c.cards.map(cname))} face down`
        : "Commit no strategy card";
    case "use_card":
      return `Use ${cname(c.card)}`;
    case "sorcery":
      return "Spend a sorcery token to reroll all your dice";
    case "proceed":
      return proceedWords();
    case "crown":
      return c.category
        ? `Try to crown Conan with your ${CATEGORY[c.category] || c.category}`
        : "Do not try to crown Conan";
    case "buy":
      return `Buy ${ITEM[c.item] || humanize(c.item)}${c.province ? ` in ${pname(c.province)}` : ""}`;
    case "choose_category":
      return `Choose ${CATEGORY[c.category] || c.category} (secretly)`;
    default:
      return undefined;
  }
}

// "into" for an attack, "to" for a redeploy, from the last view drawn.
function targetWord(to) {
  const view = memo.view;
  const seat = memo.seat;
  if (!view || seat === null || seat === undefined) return "";
  const p = provinceState(view, to);
  const info = memo.provinces.get(to);
  if (!p || !info) return "";
  const mine = info.home_of === view.seats[seat]?.kingdom || p.owner === seat;
  return mine ? "to" : "to attack";
}

function endWords() {
  const top = topPhase(memo.view);
  if (top?.phase === "garrison" || top?.phase === "age_change") return "Done";
  if (top?.phase === "military" && top.moved && top.moved.length) return "End the Military action";
  return top?.phase === "military" || top?.phase === "intrigue" ? "Do nothing more with this action" : "Done";
}

function proceedWords() {
  const top = topPhase(memo.view);
  if (!top) return "Go on";
  if (top.phase === "contest") {
    if (top.step.startsWith("before")) return "Roll the dice";
    if (top.step.startsWith("after")) return "Accept the roll";
    return "Go on";
  }
  if (top.phase === "after_contest") return "Stop fighting";
  if (top.phase === "retreat") return "Stay and fight on";
  return "Go on";
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
  setup: "to start with",
  token_exchange: "for an adventure token",
  crowned: "for crowning Conan",
  raids: "for the raiders left in their provinces",
  purchase: "for a purchase",
  table_card: "for a table card",
  refresh: "to refresh a table card",
  event: "from an event card",
  sorcery_reroll: "to reroll",
  collect: "collecting gold with an emissary",
  subjugation: "for subjugating a province",
  alliance: "from an alliance",
  income: "in income",
  objective: "for an objective",
  richest: "as the richest",
  crom: "for the most Crom tokens",
  final_markers: "for their forts and cities",
  majority_monsters: "for the most monsters",
  majority_treasures: "for the most treasures",
  majority_women: "for the most women",
};

const RESOURCE = {
  gold: ["gold", "gold"],
  sorcery: ["sorcery token", "sorcery tokens"],
  ep: ["EP", "EP"],
  crom: ["Crom token", "Crom tokens"],
};

const ACTION = { military: "a Military action", intrigue: "an Intrigue action", court: "the Court" };

const DECK = {
  strategy: "strategy",
  kingdom: "kingdom",
  table: "table",
  adventure: "adventure",
  objectives: "objective",
};

function amount(n, key) {
  const [one, many] = RESOURCE[key];
  return `${n} ${n === 1 ? one : many}`;
}

function resourcesSentence(e, who) {
  if (e.reason === "crom" && e.crom > 0 && !e.ep) return `${who} takes a Crom! Count the dead! token.`;
  const gains = [];
  const losses = [];
  for (const key of ["ep", "gold", "sorcery", "crom"]) {
    const n = e[key] || 0;
    if (n > 0) gains.push(amount(n, key));
    else if (n < 0) losses.push(amount(-n, key));
  }
  const why = REASON[e.reason]
    ? ` ${REASON[e.reason]}`
    : e.reason
      ? ` (${humanize(e.reason).toLowerCase()})`
      : "";
  const spend = ["purchase", "table_card", "refresh", "sorcery_reroll"].includes(e.reason);
  const parts = [];
  if (gains.length)
    parts.push(`${gains.length === 1 && gains[0].endsWith("EP") ? "scores" : "gains"} ${listWords(gains)}`);
  if (losses.length) parts.push(`${spend ? "pays" : "loses"} ${listWords(losses)}`);
  if (!parts.length) return `${who}'s treasury is unchanged${why}.`;
  return `${who} ${parts.join(" and ")}${why}.`;
}

function faceCounts(faces, words, many = words) {
  const counts = new Map();
  for (const f of faces) counts.set(f, (counts.get(f) || 0) + 1);
  return listWords(
    [...counts].map(([f, n]) => `${n} ${(n === 1 ? words[f] : many[f]) || humanize(f).toLowerCase()}`),
  );
}

export function phaseSentence(p, ctx, pushed) {
  const who = (seat) => seatName(ctx, seat);
  switch (p.phase) {
    case "bidding":
      if (p.step === "sealed")
        return "Everyone bids for Conan: a bidding token and a strategy card, face down.";
      if (p.step === "swap") return "The holder of Conan's Favour may swap the revealed card.";
      return "The bids for Conan are settled.";
    case "token_choice":
      return `${who(p.seat)} keeps the adventure token face down or exchanges it for gold or sorcery.`;
    case "coronation":
      return `${who(p.seat)} may try to crown Conan.`;
    case "adventure_end":
      return p.step === "reward"
        ? "The adventure ends."
        : p.step === "coronation"
          ? "Conan may be crowned."
          : "The next adventure is coming.";
    case "turn":
      if (p.step === "conan") return `${who(p.seat)}'s turn begins.`;
      if (p.step === "cards") return `${who(p.seat)} may play or refresh table cards.`;
      return `${who(p.seat)} acts with the die.`;
    case "military":
      if (pushed) return `${who(p.seat)} takes the Military action.`;
      if (p.fought) return `${who(p.seat)} has fought this action's contest.`;
      return p.target
        ? `${who(p.seat)} must fight in ${pname(p.target)}; ${plural(p.moves_left, "movement")} left.`
        : `${who(p.seat)} has ${plural(p.moves_left, "movement")} left.`;
    case "intrigue":
      return pushed
        ? `${who(p.seat)} takes the Intrigue action.`
        : `${who(p.seat)} goes on with the Intrigue action.`;
    case "conan_court":
      return `${who(p.seat)} moves Conan once more and may raid (Court + Conan).`;
    case "court":
      return `${who(p.seat)} holds Court: draws cards or plays an event.`;
    case "contest":
      return contestSentence(p, who, pushed);
    case "after_contest":
      return `${who(p.seat)} may march on, withdraw or stop in ${pname(p.province)}.`;
    case "retreat":
      return `${who(p.seat)} may fall back from ${pname(p.province)}.`;
    case "age_change":
      return p.final
        ? `Final scoring: ${AGE_STEP[p.step] || `step ${p.step}`}.`
        : `Change of age, step ${p.step}: ${AGE_STEP[p.step] || ""}.`;
    case "garrison":
      return `${who(p.seat)} places troops and raises cities.`;
    case "game_over":
      return "The game is over.";
    default:
      return `${capital(humanize(p.phase))}.`;
  }
}

// A contest: who fights whom where (when it starts), or the step it is at.
function contestSentence(p, who, pushed) {
  const a = p.attacker.seat;
  const d = p.defender.seat;
  const against = d >= 0 ? who(d) : pname(p.province);
  const what = `${KIND[p.kind] || capital(p.kind)} in ${pname(p.province)} (${p.terrain})`;
  const step =
    {
      attacker_card: `${who(a)} chooses a strategy card`,
      defender_card: `${d >= 0 ? who(d) : "the defender"} chooses a strategy card`,
      before_attacker: `${who(a)} is about to roll`,
      after_attacker: `${who(a)} looks at the roll`,
      before_defender: `${d >= 0 ? who(d) : pname(p.province)} is about to roll`,
      after_defender: `${d >= 0 ? who(d) : "the defender"} looks at the roll`,
      resolve: "the roll is settled",
    }[p.step] || p.step;
  return pushed ? `${what}: ${who(a)} against ${against}.` : `${what}: ${step}.`;
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
  const t = bare(e.type);
  if (t === "started") shadow.stack = [];
  else if (t === "phase_pushed") shadow.stack.push(e.phase);
  else if (t === "phase_replaced") {
    if (shadow.stack.length) shadow.stack[shadow.stack.length - 1] = e.phase;
    else shadow.stack.push(e.phase);
  } else if (t === "phase_popped") return shadow.stack.pop() || null;
  return null;
}

function endSentence(p, ctx) {
  const who = (seat) => seatName(ctx, seat);
  switch (p.phase) {
    case "bidding":
      return "The bidding for Conan is over.";
    case "token_choice":
      return `${who(p.seat)} has decided about the adventure token.`;
    case "coronation":
      return "The coronation is settled.";
    case "adventure_end":
      return "The end of the adventure is settled.";
    case "turn":
      return `${who(p.seat)}'s turn ends.`;
    case "military":
      return `${who(p.seat)}'s Military action ends.`;
    case "intrigue":
      return `${who(p.seat)}'s Intrigue action ends.`;
    case "conan_court":
      return "Conan's extra move and raid are done.";
    case "court":
      return `${who(p.seat)}'s Court is over.`;
    case "contest":
      return `The ${(KIND[p.kind] || p.kind).toLowerCase()} contest in ${pname(p.province)} is over.`;
    case "after_contest":
      return `${who(p.seat)} fights no more in ${pname(p.province)} this action.`;
    case "retreat":
      return `${who(p.seat)} has chosen whether to fall back from ${pname(p.province)}.`;
    case "age_change":
      return p.final ? "The final scoring is done." : "The change of age is complete.";
    case "garrison":
      return `${who(p.seat)} has placed troops and cities.`;
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
    cardWords(type, e, who) ??
    mapWords(type, e, who) ??
    tokenWords(type, e, who) ??
    contestWords(type, e, who) ??
    `${capital(humanize(type))}.`
  );
}

// The game's course: its start, phases, ages, objectives, the crown and the end.
function courseWords(type, e, who, ctx) {
  switch (type) {
    case "started": {
      follow(e, ctx);
      const rulers = (e.kingdoms || []).map((k, i) => `${who(i)} rules ${kname(k)}`);
      return `The game begins: ${listWords(rulers)}. In play: ${listWords((e.zones || []).map((z) => humanize(z).toLowerCase()))}.`;
    }
    case "conan_player_set":
      return e.seat >= 0 ? `${who(e.seat)} is the Conan player.` : "Nobody is the Conan player.";
    case "first_player_set":
      return `${who(e.seat)} takes the first player token.`;
    case "phase_pushed":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, true);
    case "phase_replaced":
      follow(e, ctx);
      return phaseSentence(e.phase || {}, ctx, false);
    case "phase_popped": {
      const ended = follow(e, ctx);
      return (ended && endSentence(ended, ctx)) || "That step is done.";
    }
    case "category_chosen":
      return `${who(e.seat)} secretly chooses ${CATEGORY[e.category] || e.category}.`;
    case "category_choice_made":
      return `${who(e.seat)} chooses a token category in secret.`;
    case "tokens_revealed": {
      const values = e.values || [];
      const total = values.reduce((a, b) => a + b, 0);
      return `${who(e.seat)} shows ${CATEGORY[e.category] || e.category}: ${values.length ? `${values.join(", ")} (${total} in all)` : "none"}.`;
    }
    case "objective_drawn":
      return `A new objective is turned up: ${cname(e.objective)}${ctext(e.objective) ? ` (${ctext(e.objective)})` : ""}.`;
    case "objective_met":
      return `${listWords((e.seats || []).map(who)) || "Nobody"} ${(e.seats || []).length === 1 ? "meets" : "meet"} the objective ${cname(e.objective)}.`;
    case "age_started":
      return `Age ${ROMAN[e.age] || e.age} begins.`;
    case "age_ending":
      return "The age comes to an end.";
    case "crowned":
      return e.success
        ? `${who(e.seat)} crowns Conan king with their ${CATEGORY[e.category] || e.category}, and scores 3 EP.`
        : `${who(e.seat)} fails to crown Conan with their ${CATEGORY[e.category] || e.category}: Conan kills them.`;
    case "game_ended": {
      const places = [...(e.standings || [])]
        .sort((a, b) => a.place - b.place)
        .map((st) => `${who(st.seat)} ${ordinal(st.place)} (${st.score} EP)`);
      return `The game ends after Age III: ${listWords(places)}.`;
    }
    default:
      return undefined;
  }
}

// Decks, cards, resources and artifacts.
function cardWords(type, e, who) {
  switch (type) {
    case "deck_shuffled":
      return e.deck === "kingdom" && e.seat >= 0
        ? `${who(e.seat)}'s kingdom deck is shuffled.`
        : `The ${DECK[e.deck] || e.deck} deck is shuffled.`;
    case "cards_drawn":
      return `${who(e.seat)} draws ${listWords((e.cards || []).map(cname))} (${DECK[e.deck] || e.deck}).`;
    case "cards_drawn_count":
      return `${who(e.seat)} draws ${plural(e.count, `${DECK[e.deck] || e.deck} card`)}.`;
    case "cards_discarded":
      return e.deck === "table"
        ? `${who(e.seat)} takes ${listWords((e.cards || []).map(cname))} off the table.`
        : `${who(e.seat)} discards ${listWords((e.cards || []).map(cname))}.`;
    case "table_card_played":
      return `${who(e.seat)} puts ${cname(e.card)} on the table.`;
    case "table_card_turned":
      return e.exhausted
        ? `${who(e.seat)} uses ${cname(e.card)} (turned sideways).`
        : `${who(e.seat)} refreshes ${cname(e.card)}.`;
    case "resources_changed":
      return resourcesSentence(e, who(e.seat));
    case "artifacts_set": {
      const held = [...(e.artifacts || []).map(cname), ...(e.bonus ? [cname("conan_bonus")] : [])];
      return held.length ? `${who(e.seat)} holds ${listWords(held)}.` : `${who(e.seat)} holds no artifact.`;
    }
    default:
      return undefined;
  }
}

// The map: units, emissaries, markers, raiders, campaigns and Conan.
function mapWords(type, e, who) {
  switch (type) {
    case "units_changed":
      return e.delta > 0
        ? `${plural(e.delta, "unit")} of ${who(e.seat)} ${e.delta === 1 ? "enters" : "enter"} ${pname(e.province)}.`
        : `${who(e.seat)} has ${plural(-e.delta, "unit")} fewer in ${pname(e.province)}.`;
    case "emissaries_changed":
      return e.delta > 0
        ? `${e.delta === 1 ? "An emissary" : `${e.delta} emissaries`} of ${who(e.seat)} ${e.delta === 1 ? "arrives" : "arrive"} in ${pname(e.province)}.`
        : `${who(e.seat)} has ${plural(-e.delta, "emissary", "emissaries")} fewer in ${pname(e.province)}.`;
    case "marker_set":
      if (e.owner < 0 || !e.marker) return `${pname(e.province)} is neutral again.`;
      if (e.marker === "fort") return `${who(e.owner)} holds ${pname(e.province)} with a fort.`;
      if (e.marker === "city") return `${who(e.owner)} raises a city in ${pname(e.province)}.`;
      return `${who(e.owner)} places a tower in ${pname(e.province)}: an alliance.`;
    case "raiders_changed":
      return e.delta > 0
        ? `${e.delta === 1 ? "A raider token lands" : `${e.delta} raider tokens land`} in ${pname(e.province)}.`
        : `${e.delta === -1 ? "A raider token leaves" : `${-e.delta} raider tokens leave`} ${pname(e.province)}.`;
    case "campaign_set": {
      if (e.owner < 0) return `The campaign in ${pname(e.province)} ends.`;
      const track = memo.provinces.get(e.province)?.track || [];
      const terrain = track[e.pos] ? ` (${track[e.pos]})` : "";
      return `${who(e.owner)}'s campaign in ${pname(e.province)} stands on the ${ORD[e.pos] || `${e.pos + 1}th`} space of ${track.length || "its"}${terrain}.`;
    }
    case "conan_moved":
      return `Conan goes to ${pname(e.to)}.`;
    case "adventure_revealed":
      return `A new adventure: ${cname(e.card)}. Conan heads for ${pname(e.destination)}.`;
    default:
      return undefined;
  }
}

// Adventure tokens, the fate dice and the bids.
function tokenWords(type, e, who) {
  switch (type) {
    case "tokens_shuffled":
      return "The adventure tokens are mixed face down.";
    case "fate_pool_rolled":
      return `The fate pool is rolled: ${faceCounts(e.faces || [], FATE)}.`;
    case "fate_die_taken":
      return `${who(e.seat)} takes ${article(FATE[e.face] || humanize(e.face))} die for ${ACTION[e.action] || humanize(e.action)}.`;
    case "track_filled":
      return `${plural(e.count, "adventure token")} ${e.count === 1 ? "is" : "are"} laid on the track.`;
    case "token_taken":
    case "token_taken_count":
      return `${who(e.seat)} takes an adventure token from the ${e.source === "container" ? "container" : "track"}.`;
    case "token_kept":
      return `${who(e.seat)} keeps the adventure token face down.`;
    case "token_exchanged":
      return `${who(e.seat)} exchanges an adventure token for ${amount(e.amount, e.resource === "sorcery" ? "sorcery" : "gold")}.`;
    case "token_discarded":
      return "The leftmost adventure token is discarded.";
    case "bid_sealed":
      return `${who(e.seat)} seals a bid: the ${e.token} token${e.card ? ` with ${cname(e.card)}` : " without a card"}.`;
    case "bid_placed":
      return `${who(e.seat)} lays down a bid face down.`;
    case "bids_revealed": {
      const bids = [...(e.bids || [])].sort((a, b) => b.value - a.value);
      const parts = bids.map(
        (b) => `${who(b.seat)} ${b.token}${b.card ? ` + ${cname(b.card)}` : ""} = ${b.value}`,
      );
      return `The bids are revealed: ${parts.join("; ")}.`;
    }
    case "bid_tokens_set":
      return `${who(e.seat)}'s bidding tokens: ${(e.available || []).join(", ") || "none"} at hand${e.spent?.length ? `, ${e.spent.join(", ")} set aside` : ""}.`;
    default:
      return undefined;
  }
}

// Contests: the cards committed, the dice and who wins.
function contestWords(type, e, who) {
  switch (type) {
    case "contest_card_committed":
      return e.cards?.length
        ? `${who(e.seat)} commits ${listWords(e.cards.map(cname))} face down.`
        : `${who(e.seat)} commits no strategy card.`;
    case "contest_card_declared":
      return e.count
        ? `${who(e.seat)} commits ${plural(e.count, "strategy card")} face down.`
        : `${who(e.seat)} commits no strategy card.`;
    case "contest_cards_revealed": {
      const parts = (e.seats || []).map(
        (seat, i) =>
          `${who(seat)} ${(e.cards?.[i] || []).length ? listWords(e.cards[i].map(cname)) : "none"}`,
      );
      return `The contest cards are revealed: ${parts.join("; ")}.`;
    }
    case "contest_rolled": {
      const faces = e.faces || [];
      const side = e.seat >= 0 ? who(e.seat) : "The province";
      return `${side} ${e.reroll ? "rerolls" : "rolls"} ${plural(faces.length, "die", "dice")}: ${faces.length ? faceCounts(faces, FACE, FACES) : "nothing"}.`;
    }
    case "contest_resolved": {
      const what = `${KIND[e.kind] || capital(e.kind)} in ${pname(e.province)}`;
      return `${what}: ${e.attacker_successes} against ${e.defender_successes}; the ${e.attacker_won ? "attacker" : "defender"} wins.`;
    }
    default:
      return undefined;
  }
}

// Public scores for the page's player list.
export function summary(doc) {
  const seats = doc?.view?.seats || [];
  return seats.map((x) => `${x.ep} EP${x.dead ? " · killed by Conan" : ""}`);
}
