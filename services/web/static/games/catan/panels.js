// Catan: the side panel (players, public scores, card counts, improvements,
// the seat's own hand, whose turn, the pending decision and the moves).

import { htmlInto, svgInto } from "../../dom.js";
import { listWords, plural } from "../../words.js";
import { cityPath, filterKey, filterTitle, settlementPath, steps } from "./board.js";
import {
  answerWords,
  bankRate,
  CARD_HINT,
  COMMODITIES,
  cardTitle,
  DEAL,
  handWords,
  hexName,
  isCK,
  KIND,
  KIND_FILL,
  label,
  lastOptions,
  RESOURCES,
  SEAT_COLOUR,
  SEAT_FILL,
  STRENGTH,
  spotName,
  TERRAIN,
  TERRAIN_FILL,
  TERRAIN_RESOURCE,
  TRACK_FILL,
  TRACKS,
  total,
} from "./words.js";

// ---------------------------------------------------------------- side panel

function chip(parent, kind, n, extra) {
  const c = htmlInto("span", { class: `catan-chip${extra ? ` ${extra}` : ""}`, title: KIND[kind] }, parent);
  htmlInto("i", { style: `background:${KIND_FILL[kind]}` }, c);
  htmlInto("b", {}, c, String(n));
  htmlInto("span", {}, c, KIND[kind]);
  return c;
}

function seatSwatch(parent, seat) {
  return htmlInto(
    "span",
    { class: "catan-swatch", style: `background:${SEAT_FILL[seat]}`, title: SEAT_COLOUR[seat] },
    parent,
  );
}

export function drawPlayers(host, view, doc, ui) {
  const ck = isCK(view);
  const box = htmlInto("section", { class: "catan-box" }, host);
  const target = lastOptions && (lastOptions.points_to_win || (ck ? 13 : 10));
  htmlInto("h3", {}, box, target ? `Players · first to ${target} points` : "Players");
  const awaited = new Set(doc.actors || []);
  view.players.forEach((p, s) => {
    const card = htmlInto(
      "div",
      {
        class: `catan-player${s === view.active ? " active" : ""}${s === view.seat ? " me" : ""}`,
        "data-seat": s,
      },
      box,
    );
    drawPlayerTop(card, view, doc, ui, p, s, awaited);
    drawPlayerCounts(card, view, p, s, ck);
    if (ck) drawImprovements(card, p);
    drawPlayerBadges(card, view, p, s, ck);
  });
  const bank = htmlInto("p", { class: "catan-muted catan-bank" }, box);
  const kinds = ck ? [...RESOURCES, ...COMMODITIES] : RESOURCES;
  bank.textContent = `Bank: ${kinds.map((k) => `${view.bank[k]} ${KIND[k]}`).join(", ")}. Decks: ${ck ? TRACKS.map((t, i) => `${t} ${view.decks[i + 1]}`).join(", ") : `${view.decks[0]} development cards`}.`;
}

// A player's first line: colour, name, whether awaited, and points.
function drawPlayerTop(card, view, doc, ui, p, s, awaited) {
  const top = htmlInto("div", { class: "top" }, card);
  seatSwatch(top, s);
  htmlInto("span", { class: "name" }, top, ui.name(s) + (s === view.seat ? " (you)" : ""));
  if (awaited.has(s) && !doc.over)
    htmlInto(
      "span",
      { class: "catan-badge turn", title: "awaited now" },
      top,
      s === view.active && !view.pending ? "to play" : "to decide",
    );
  const pts = htmlInto("span", { class: "pts", title: "victory points on the table" }, top);
  htmlInto("b", {}, pts, String(p.points));
  htmlInto("span", {}, pts, " pts");
  if (
    s === view.seat &&
    view.my_points !== null &&
    view.my_points !== undefined &&
    view.my_points !== p.points
  ) {
    htmlInto(
      "small",
      { title: "counting your hidden Victory Point cards" },
      pts,
      ` (${view.my_points} with hidden)`,
    );
  }
}

// A player's cards in hand (counts only), knights and longest road.
function drawPlayerCounts(card, view, p, s, ck) {
  const line = htmlInto("div", { class: "line" }, card);
  htmlInto("span", { title: "resource cards in hand" }, line, plural(p.resources, "resource"));
  if (ck)
    htmlInto(
      "span",
      { title: "commodity cards in hand" },
      line,
      plural(p.commodities, "commodity", "commodities"),
    );
  htmlInto(
    "span",
    { title: ck ? "progress cards in hand" : "development cards in hand" },
    line,
    plural(p.progress, ck ? "progress card" : "development card"),
  );
  if (ck) {
    const mine = (view.knights || []).filter((k) => k.owner === s);
    const act = mine.filter((k) => k.active).reduce((a, k) => a + k.strength, 0);
    htmlInto(
      "span",
      { title: "active knight strength, knights on the board" },
      line,
      `knights ${act} active / ${mine.length}`,
    );
  } else {
    htmlInto("span", { title: "knights played" }, line, `${plural(p.knights_played, "knight")} played`);
  }
  htmlInto("span", { title: "longest road of this player" }, line, `road ${view.road_lengths[s] ?? 0}`);
}

// Cities & Knights: a player's level on each city improvement track.
function drawImprovements(card, p) {
  const imp = htmlInto("div", { class: "catan-imp" }, card);
  p.levels.forEach((lvl, t) => {
    const bar = htmlInto("span", { class: "track", title: `${TRACKS[t]}: level ${lvl} of 5` }, imp);
    htmlInto("span", { class: "tname" }, bar, TRACKS[t]);
    for (let i = 1; i <= 5; i++) htmlInto("i", { style: i <= lvl ? `background:${TRACK_FILL[t]}` : "" }, bar);
  });
}

// What a player holds that scores: the winner, longest road, largest army and the like.
function drawPlayerBadges(card, view, p, s, ck) {
  const badges = [];
  if (view.winner === s) badges.push(["Winner", "reached the target first"]);
  if (view.longest === s) badges.push(["Longest road", `${view.road_lengths[s]} roads, 2 points`]);
  if (!ck && view.largest_army === s) badges.push(["Largest army", "2 points"]);
  if (ck && view.merchant_owner === s) badges.push(["Merchant", "1 point"]);
  if (p.defender)
    badges.push([`Defender of Catan ×${p.defender}`, `${p.defender} point${p.defender > 1 ? "s" : ""}`]);
  if (p.vp_cards)
    badges.push([`${p.vp_cards} point card${p.vp_cards > 1 ? "s" : ""}`, "revealed Printer or Constitution"]);
  (view.metropolis || []).forEach((spot, t) => {
    if (spot >= 0 && view.owner[spot] === s) badges.push([`${TRACKS[t]} metropolis`, "2 points"]);
  });
  if (badges.length) {
    const row = htmlInto("div", { class: "badges" }, card);
    for (const [b, t] of badges) htmlInto("span", { class: "catan-badge", title: t }, row, b);
  }
}

export function drawHand(host, view) {
  if (view.seat === null || view.seat === undefined || !view.hand) return;
  const ck = isCK(view);
  const box = htmlInto("section", { class: "catan-box catan-hand", "data-hand": view.seat }, host);
  htmlInto("h3", {}, box, `Your hand (${plural(total(view.hand), "card")})`);
  const row = htmlInto("div", { class: "catan-chips" }, box);
  for (const k of ck ? [...RESOURCES, ...COMMODITIES] : RESOURCES)
    chip(row, k, view.hand[k], view.hand[k] ? "" : "zero");
  const cards = view.cards || [];
  if (cards.length) {
    const list = htmlInto("ul", { class: "catan-cards" }, box);
    for (const c of cards)
      htmlInto(
        "li",
        { title: CARD_HINT[c] || "" },
        list,
        `${cardTitle(c)}${CARD_HINT[c] ? ` — ${CARD_HINT[c]}` : ""}`,
      );
  } else {
    htmlInto("p", { class: "catan-muted" }, box, ck ? "No progress cards." : "No development cards.");
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
    const waiting = listWords(p.awaiting.map((s) => (s === view.seat ? "you" : ui.name(s))));
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
  const grid = htmlInto("div", { class: "catan-picker" }, box);
  for (const k of kinds) {
    if (!source[k]) continue;
    const row = htmlInto("div", { class: "row" }, grid);
    chip(row, k, source[k]);
    const minus = htmlInto(
      "button",
      { type: "button", "aria-label": `one ${KIND[k]} fewer`, "data-key": `pick:${k}:minus` },
      row,
      "−",
    );
    htmlInto("output", {}, row, String(chosen[k]));
    const plus = htmlInto(
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
  const auto = htmlInto(
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
  const det = htmlInto("details", { class: "catan-compose" }, box);
  if (ui.local.offerOpen) det.open = true;
  det.addEventListener("toggle", () => {
    ui.local.offerOpen = det.open;
  });
  htmlInto("summary", { "data-key": "offer-open" }, det, "Offer a trade to the other players");
  const grid = htmlInto("div", { class: "catan-offer" }, det);
  htmlInto("span", {}, grid, "");
  htmlInto("b", {}, grid, "give");
  htmlInto("b", {}, grid, "get");
  for (const k of kinds) {
    chip(grid, k, hand[k]);
    for (const side of ["give", "get"]) {
      const cell = htmlInto("span", { class: "step" }, grid);
      const minus = htmlInto(
        "button",
        {
          type: "button",
          "aria-label": `${side} one ${KIND[k]} fewer`,
          "data-key": `offer:${side}:${k}:minus`,
        },
        cell,
        "−",
      );
      htmlInto("output", {}, cell, String(st[side][k]));
      const plus = htmlInto(
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
  const to = htmlInto("select", { "aria-label": "offer to", "data-key": "offer-to" }, det);
  htmlInto("option", { value: -1 }, to, "to everyone");
  view.players.forEach((_, s) => {
    if (s !== view.seat) htmlInto("option", { value: s }, to, `to ${ui.name(s)}`);
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
  const det = htmlInto("details", { class: "catan-compose" }, box);
  if (ui.local.bankOpen) det.open = true;
  det.addEventListener("toggle", () => {
    ui.local.bankOpen = det.open;
  });
  htmlInto("summary", { "data-key": "bank-open" }, det, "Trade with the bank");
  const byGive = new Map();
  for (const c of trades) {
    if (!byGive.has(c.give)) byGive.set(c.give, []);
    byGive.get(c.give).push(c);
  }
  for (const [give, list] of byGive) {
    const row = htmlInto("div", { class: "catan-bankrow" }, det);
    const r = bankRate(view, give);
    const lead = htmlInto("span", { class: "lead" }, row);
    chip(lead, give, r || "?");
    htmlInto("span", {}, lead, " for 1:");
    for (const c of list) {
      const b = ui.button(row, KIND[c.get], c, { small: true });
      b.style.setProperty("--kind", KIND_FILL[c.get]);
      b.classList.add("kind");
      b.title = label(c, ui.ctx);
      b.setAttribute("aria-label", label(c, ui.ctx));
    }
  }
}

export function drawDecision(host, view, doc, ui) {
  const p = view.pending;
  const me = view.seat;
  const box = htmlInto("section", { class: "catan-box catan-decision", "aria-live": "polite" }, host);
  htmlInto("h3", {}, box, statusLine(view, doc, ui));
  if (!p) return box;
  const mine = me !== null && me !== undefined && p.awaiting.includes(me);
  const awaitedAmount = (s) => (p.amounts?.length ? p.amounts[p.seats.indexOf(s)] : 0);
  if (p.kind === "trade" || p.kind === "trade_confirm") {
    if (p.kind === "trade") {
      const offer = htmlInto("p", { class: "catan-offer-line" }, box);
      offer.textContent = `${ui.name(p.owner)} offers ${handWords(p.data.slice(0, 8))} and asks for ${handWords(p.data.slice(8, 16))}${p.seats.length === 1 ? ` (to ${ui.name(p.seats[0])})` : ""}.`;
    } else {
      const count = Math.floor(p.data.length / DEAL);
      htmlInto("p", {}, box, `${plural(count, "answer")} to ${ui.name(p.owner)}'s offer:`);
      const ul = htmlInto("ul", { class: "catan-deals" }, box);
      for (let i = 0; i < count; i++) {
        const d = p.data.slice(i * DEAL, (i + 1) * DEAL);
        htmlInto(
          "li",
          {},
          ul,
          `${ui.name(d[0])}: gives ${handWords(d.slice(9, 17))} for ${handWords(d.slice(1, 9))}`,
        );
      }
    }
  }
  if (p.mine)
    htmlInto(
      "p",
      { class: "catan-muted" },
      box,
      `Your answer is in: ${answerWords(p.mine, p.kind, ui.name, view)}.`,
    );
  if (p.peek_cards)
    htmlInto(
      "p",
      {},
      box,
      `${ui.name(p.data[0])}'s progress cards: ${p.peek_cards.length ? listWords(p.peek_cards.map(cardTitle)) : "none"}.`,
    );
  if (p.peek_hand) htmlInto("p", {}, box, `${ui.name(p.data[0])}'s hand: ${handWords(p.peek_hand)}.`);
  if (mine && (p.kind === "discard" || p.kind === "gift")) {
    const need = awaitedAmount(me);
    htmlInto(
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
    htmlInto("p", {}, box, `Take ${plural(need, "card")} from ${ui.name(p.data[0])}.`);
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

export function drawActions(host, view, _doc, ui) {
  const legal = ui.legal;
  if (!legal.length) return;
  const box = htmlInto("section", { class: "catan-box catan-actions" }, host);
  htmlInto("h3", {}, box, actionsHeading(view, ui));
  if (ui.error) htmlInto("p", { class: "catan-error", role: "alert" }, box, ui.error);
  if (ui.filter || ui.picked.length) {
    drawMoveInProgress(box, ui);
    return;
  }
  drawBoardHints(box, view, legal);
  const groups = actionGroups(view, legal);
  const order = ["turn", "other", "cards", "improve", "harbor", "bank", "offer"];
  for (const g of order) {
    const list = groups.get(g);
    if (!list) continue;
    if (g === "bank") drawBankTrades(box, view, ui, list);
    else if (g === "offer") drawTradeComposer(box, view, ui);
    else drawGroupButtons(box, view, ui, g, list);
  }
}

// The actions' heading: the moves, or the one being chosen.
function actionsHeading(view, ui) {
  if (ui.filter) return filterTitle(ui.filter);
  if (!ui.picked.length) return "Your moves";
  const first = ui.picked[0];
  const k = first[0] === "s" && (view.knights || []).find((x) => x.spot === +first.slice(1));
  return k
    ? `Your ${STRENGTH[k.strength]} knight at ${spotName(k.spot, view)}`
    : first[0] === "h"
      ? `The robber to ${hexName(+first.slice(1), view)}`
      : "Choose";
}

// A move in progress: the commands it can still become, and a way out.
function drawMoveInProgress(box, ui) {
  const { complete, next } = ui.stage;
  if (next.size)
    htmlInto(
      "p",
      { class: "catan-hint" },
      box,
      `Pick a highlighted ${describeTargets(next)} on the board${complete.length ? ", or:" : "."}`,
    );
  const multi = ui.picked.length >= 2 || (ui.filter && ui.picked.length >= 1);
  for (const c of complete)
    ui.button(box, (multi && complete.length === 1 && !next.size ? "Confirm: " : "") + label(c, ui.ctx), c, {
      primary: true,
    });
  if (!next.size && !complete.length) htmlInto("p", {}, box, "Nothing left to choose.");
  const cancel = htmlInto(
    "button",
    { type: "button", class: "catan-cancel", "data-key": "cancel" },
    box,
    "Cancel",
  );
  cancel.addEventListener("click", () => ui.reset());
}

// Board moves, summarised so the board's highlights are explained.
function drawBoardHints(box, view, legal) {
  const onBoard = new Map();
  for (const c of legal)
    if (!filterKey(c) && steps(c, view)) onBoard.set(c.type, (onBoard.get(c.type) || 0) + 1);
  if (!onBoard.size) return;
  const ul = htmlInto("ul", { class: "catan-hint" }, box);
  const hints = view.phase === "setup" ? SETUP_HINT : BOARD_HINT;
  for (const [type, count] of onBoard)
    htmlInto(
      "li",
      {},
      ul,
      `${hints[type] || BOARD_HINT[type] || "Choose on the board"} (${count} highlighted)`,
    );
}

// The panel's moves (those not chosen on the board) by group.
function actionGroups(view, legal) {
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
  return groups;
}

// One group's buttons: a move each, or one that leads into the moves sharing a filter.
function drawGroupButtons(box, view, ui, g, list) {
  const row = htmlInto("div", { class: `catan-buttons ${g}` }, box);
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
    const b = htmlInto(
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
  const li = htmlInto("li", {}, parent);
  const svg = svgInto("svg", { viewBox: "-14 -16 28 28", width: 22, height: 22, "aria-hidden": "true" }, li);
  draw(svg);
  htmlInto("span", {}, li, text);
}

export function drawLegend(host, view) {
  const ck = isCK(view);
  const box = htmlInto("div", { class: "catan-legend", "aria-label": "Legend" }, host);
  const ul = htmlInto("ul", {}, box);
  TERRAIN.forEach((t, i) => {
    const li = htmlInto("li", {}, ul);
    htmlInto("i", { style: `background:${TERRAIN_FILL[i]}` }, li);
    const extra = ck ? { 1: " + paper", 2: " + cloth", 4: " + coin" }[i] || "" : "";
    htmlInto(
      "span",
      {},
      li,
      `${t}${TERRAIN_RESOURCE[i] >= 0 ? `: ${KIND[TERRAIN_RESOURCE[i]]}${extra ? ` (city${extra})` : ""}` : ""}`,
    );
  });
  const pieces = htmlInto("ul", {}, box);
  const ink = "#777";
  legendIcon(
    pieces,
    (g) => svgInto("path", { d: settlementPath(0, 0, 1), fill: ink, stroke: "#111" }, g),
    "settlement 1",
  );
  legendIcon(
    pieces,
    (g) => svgInto("path", { d: cityPath(0, 0, 1), fill: ink, stroke: "#111" }, g),
    "city 2",
  );
  if (ck) knightsLegend(pieces, ink);
  legendIcon(
    pieces,
    (g) => {
      svgInto("path", { d: "M-6,10 Q-6,-1 -2,-4 Q0,-6 2,-4 Q6,-1 6,10 Z", fill: "#3b3b3f" }, g);
      svgInto("circle", { cy: -8, r: 4.5, fill: "#3b3b3f" }, g);
    },
    "robber",
  );
  if (ck) {
    legendIcon(
      pieces,
      (g) => {
        svgInto("path", { d: "M-6,10 L0,-5 L6,10 Z", fill: "#f2dfb0", stroke: "#5b4526" }, g);
        svgInto("circle", { cy: -8, r: 4, fill: "#f2dfb0", stroke: "#5b4526" }, g);
      },
      "merchant 1",
    );
  }
  legendIcon(
    pieces,
    (g) => {
      svgInto("circle", { r: 11, fill: "#f7ecd0", stroke: "#8a7446" }, g);
      svgInto(
        "text",
        { y: 3, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#c4161c" },
        g,
      ).textContent = "8";
    },
    "6 and 8 come up most; dots show the odds",
  );
}

// Cities & Knights' own pieces: walls, metropolises, knights active and not.
function knightsLegend(pieces, ink) {
  legendIcon(
    pieces,
    (g) => {
      svgInto("rect", { x: -13, y: -10, width: 26, height: 20, rx: 4, fill: "#6b645a" }, g);
      svgInto("path", { d: cityPath(0, 0, 0.8), fill: ink, stroke: "#111" }, g);
    },
    "wall",
  );
  legendIcon(
    pieces,
    (g) => {
      svgInto("path", { d: cityPath(0, 4, 0.8), fill: ink, stroke: "#111" }, g);
      svgInto(
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
      svgInto("circle", { r: 12, fill: "#ffe066" }, g);
      svgInto("circle", { r: 9, fill: ink, stroke: "#111" }, g);
      for (let i = 0; i < 2; i++)
        svgInto("rect", { x: -4 + i * 3.6, y: 2, width: 2.6, height: 4, fill: "#fff" }, g);
    },
    "active knight (bars: strength)",
  );
  legendIcon(
    pieces,
    (g) =>
      svgInto(
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
