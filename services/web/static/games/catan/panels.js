// Catan: the side panel (players, public scores, card counts, improvements,
// the seat's own hand, whose turn, the pending decision and the moves).

import { htmlInto, svgInto } from "../../dom.js";
import { t } from "../../i18n.js";
import { listWords } from "../../words.js";
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
  TRACK_NAME,
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
  htmlInto("h3", {}, box, target ? t("catan.players_to", { count: target }) : t("catan.players"));
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
  const decks = ck
    ? TRACK_NAME.map((name, i) => t("catan.deck_count", { track: name, count: view.decks[i + 1] })).join(", ")
    : t("catan.dev_cards_n", { count: view.decks[0] });
  bank.textContent = t("catan.bank", {
    cards: kinds.map((k) => t("catan.kind_count", { count: view.bank[k], kind: KIND[k] })).join(", "),
    decks,
  });
}

// A player's first line: colour, name, whether awaited, and points.
function drawPlayerTop(card, view, doc, ui, p, s, awaited) {
  const top = htmlInto("div", { class: "top" }, card);
  seatSwatch(top, s);
  htmlInto(
    "span",
    { class: "name" },
    top,
    s === view.seat ? t("catan.name_you", { name: ui.name(s) }) : ui.name(s),
  );
  if (awaited.has(s) && !doc.over)
    htmlInto(
      "span",
      { class: "catan-badge turn", title: t("catan.awaited_tip") },
      top,
      s === view.active && !view.pending ? t("catan.to_play") : t("catan.to_decide"),
    );
  const pts = htmlInto("span", { class: "pts", title: t("catan.points_tip") }, top);
  htmlInto("b", {}, pts, t("catan.points_n", { count: p.points }));
  if (
    s === view.seat &&
    view.my_points !== null &&
    view.my_points !== undefined &&
    view.my_points !== p.points
  ) {
    htmlInto(
      "small",
      { title: t("catan.hidden_tip") },
      pts,
      ` ${t("catan.with_hidden", { count: view.my_points })}`,
    );
  }
}

// A player's cards in hand (counts only), knights and longest road: each a
// figure with its explanation on hover.
function drawPlayerCounts(card, view, p, s, ck) {
  const line = htmlInto("div", { class: "line" }, card);
  const figure = (tip, text) => htmlInto("span", { title: tip }, line, text);
  figure(t("catan.resources_tip"), t("catan.resources_n", { count: p.resources }));
  if (ck) figure(t("catan.commodities_tip"), t("catan.commodities_n", { count: p.commodities }));
  if (ck) figure(t("catan.progress_tip"), t("catan.progress_n", { count: p.progress }));
  else figure(t("catan.dev_tip"), t("catan.dev_n", { count: p.progress }));
  if (ck) {
    const mine = (view.knights || []).filter((k) => k.owner === s);
    const act = mine.filter((k) => k.active).reduce((a, k) => a + k.strength, 0);
    figure(t("catan.knights_tip"), t("catan.knights_line", { active: act, count: mine.length }));
  } else {
    figure(t("catan.knights_played_tip"), t("catan.knights_played", { count: p.knights_played }));
  }
  figure(t("catan.road_tip"), t("catan.road_line", { count: view.road_lengths[s] ?? 0 }));
}

// Cities & Knights: a player's level on each city improvement track.
function drawImprovements(card, p) {
  const imp = htmlInto("div", { class: "catan-imp" }, card);
  p.levels.forEach((lvl, k) => {
    const bar = htmlInto(
      "span",
      { class: "track", title: t("catan.level_of", { track: TRACK_NAME[k], level: String(lvl) }) },
      imp,
    );
    htmlInto("span", { class: "tname" }, bar, TRACK_NAME[k]);
    for (let i = 1; i <= 5; i++) htmlInto("i", { style: i <= lvl ? `background:${TRACK_FILL[k]}` : "" }, bar);
  });
}

// What a player holds that scores: the winner, longest road, largest army and the like.
function drawPlayerBadges(card, view, p, s, ck) {
  const badges = [];
  const two = t("catan.points_n", { count: 2 });
  if (view.winner === s) badges.push([t("catan.badge_winner"), t("catan.badge_winner_tip")]);
  if (view.longest === s)
    badges.push([t("catan.badge_longest"), t("catan.badge_longest_tip", { count: view.road_lengths[s] })]);
  if (!ck && view.largest_army === s) badges.push([t("catan.badge_army"), two]);
  if (ck && view.merchant_owner === s)
    badges.push([t("catan.card_merchant"), t("catan.points_n", { count: 1 })]);
  if (p.defender)
    badges.push([
      t("catan.badge_defender", { n: String(p.defender) }),
      t("catan.points_n", { count: p.defender }),
    ]);
  if (p.vp_cards)
    badges.push([t("catan.badge_vp_cards", { count: p.vp_cards }), t("catan.badge_vp_cards_tip")]);
  (view.metropolis || []).forEach((spot, k) => {
    if (spot >= 0 && view.owner[spot] === s)
      badges.push([t("catan.metropolis_of", { track: TRACK_NAME[k] }), two]);
  });
  if (badges.length) {
    const row = htmlInto("div", { class: "badges" }, card);
    for (const [b, tip] of badges) htmlInto("span", { class: "catan-badge", title: tip }, row, b);
  }
}

export function drawHand(host, view) {
  if (view.seat === null || view.seat === undefined || !view.hand) return;
  const ck = isCK(view);
  const box = htmlInto("section", { class: "catan-box catan-hand", "data-hand": view.seat }, host);
  htmlInto("h3", {}, box, t("catan.your_hand", { count: total(view.hand) }));
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
        CARD_HINT[c] ? t("catan.card_with_hint", { card: cardTitle(c), hint: CARD_HINT[c] }) : cardTitle(c),
      );
  } else {
    htmlInto("p", { class: "catan-muted" }, box, ck ? t("catan.no_progress") : t("catan.no_dev"));
  }
}

function statusLine(view, doc, ui) {
  if (doc.over || view.phase === "over") {
    return view.winner >= 0
      ? t("catan.status_won", { name: ui.name(view.winner), count: view.players[view.winner].points })
      : t("catan.log_over");
  }
  const who = ui.name(view.active);
  const p = view.pending;
  if (p) {
    const mine = p.awaiting.includes(view.seat);
    const others = listWords(p.awaiting.filter((s) => s !== view.seat).map((s) => ui.name(s)));
    const what = waitingFor(p.kind);
    if (mine && others) return t("catan.status_waiting_you_and", { name: who, names: others, what });
    return mine
      ? t("catan.status_waiting_you", { name: who, what })
      : t("catan.status_waiting", { name: who, names: others, what });
  }
  if (view.phase === "setup") {
    if (view.setup_spot >= 0) return t("catan.status_setup_road", { name: who });
    return view.setup_queue.length <= view.players.length && isCK(view)
      ? t("catan.status_setup_city", { name: who })
      : t("catan.status_setup_settlement", { name: who });
  }
  if (view.phase === "roll") return t("catan.status_roll", { turn: String(view.turn), name: who });
  return t("catan.status_main", { turn: String(view.turn), name: who });
}

// What a decision awaits, as the end of "waiting for Anna to ...".
function waitingFor(kind) {
  const what = {
    discard: () => t("catan.wait_discard"),
    robber: () => t("catan.wait_robber"),
    free_roads: () => t("catan.wait_free_roads"),
    trade: () => t("catan.wait_trade"),
    trade_confirm: () => t("catan.wait_trade_confirm"),
    aqueduct: () => t("catan.wait_aqueduct"),
    pillage: () => t("catan.wait_pillage"),
    defender_draw: () => t("catan.wait_defender_draw"),
    muster: () => t("catan.wait_muster"),
    retreat: () => t("catan.wait_retreat"),
    deserter: () => t("catan.wait_deserter"),
    deserter_strength: () => t("catan.wait_deserter_strength"),
    deserter_place: () => t("catan.wait_deserter_place"),
    diplomat: () => t("catan.wait_diplomat"),
    spy: () => t("catan.wait_spy"),
    gift: () => t("catan.wait_gift"),
    master_merchant: () => t("catan.wait_master_merchant"),
    harbor: () => t("catan.wait_harbor"),
    progress_discard: () => t("catan.wait_progress_discard"),
  }[kind];
  return what ? what() : t("catan.wait_other");
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
      {
        type: "button",
        "aria-label": t("catan.one_fewer", { kind: KIND[k] }),
        "data-key": `pick:${k}:minus`,
      },
      row,
      "−",
    );
    htmlInto("output", {}, row, String(chosen[k]));
    const plus = htmlInto(
      "button",
      { type: "button", "aria-label": t("catan.one_more", { kind: KIND[k] }), "data-key": `pick:${k}:plus` },
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
    t("catan.fill_for_me"),
  );
  const b = ui.button(box, ok ? label(command, ui.ctx) : verb(need - total(chosen)), command, {
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
  htmlInto("summary", { "data-key": "offer-open" }, det, t("catan.offer_open"));
  const grid = htmlInto("div", { class: "catan-offer" }, det);
  htmlInto("span", {}, grid, "");
  htmlInto("b", {}, grid, t("catan.give"));
  htmlInto("b", {}, grid, t("catan.get"));
  for (const k of kinds) {
    chip(grid, k, hand[k]);
    for (const side of ["give", "get"]) {
      const cell = htmlInto("span", { class: "step" }, grid);
      const minus = htmlInto(
        "button",
        {
          type: "button",
          "aria-label":
            side === "give"
              ? t("catan.give_one_fewer", { kind: KIND[k] })
              : t("catan.get_one_fewer", { kind: KIND[k] }),
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
          "aria-label":
            side === "give"
              ? t("catan.give_one_more", { kind: KIND[k] })
              : t("catan.get_one_more", { kind: KIND[k] }),
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
  const to = htmlInto("select", { "aria-label": t("catan.offer_to_label"), "data-key": "offer-to" }, det);
  htmlInto("option", { value: -1 }, to, t("catan.offer_to_all"));
  view.players.forEach((_, s) => {
    if (s !== view.seat) htmlInto("option", { value: s }, to, t("catan.offer_to", { name: ui.name(s) }));
  });
  to.value = String(st.to);
  to.addEventListener("change", () => {
    st.to = +to.value;
    ui.redraw();
  });
  const command = { type: "catan.offer_trade", give: st.give.slice(), get: st.get.slice(), to: st.to };
  const valid = total(st.give) > 0 && total(st.get) > 0;
  const b = ui.button(det, valid ? label(command, ui.ctx) : t("catan.offer_choose"), command, {
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
  htmlInto("summary", { "data-key": "bank-open" }, det, t("catan.bank_open"));
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
      const params = {
        name: ui.name(p.owner),
        give: handWords(p.data.slice(0, 8)),
        get: handWords(p.data.slice(8, 16)),
      };
      offer.textContent =
        p.seats.length === 1
          ? t("catan.offer_line_to", { ...params, to: ui.name(p.seats[0]) })
          : t("catan.offer_line", params);
    } else {
      const count = Math.floor(p.data.length / DEAL);
      htmlInto("p", {}, box, t("catan.answers_to", { count, name: ui.name(p.owner) }));
      const ul = htmlInto("ul", { class: "catan-deals" }, box);
      for (let i = 0; i < count; i++) {
        const d = p.data.slice(i * DEAL, (i + 1) * DEAL);
        htmlInto(
          "li",
          {},
          ul,
          t("catan.deal_line", {
            name: ui.name(d[0]),
            give: handWords(d.slice(9, 17)),
            get: handWords(d.slice(1, 9)),
          }),
        );
      }
    }
  }
  if (p.mine)
    htmlInto(
      "p",
      { class: "catan-muted" },
      box,
      t("catan.your_answer", { answer: answerWords(p.mine, p.kind, ui.name, view) }),
    );
  if (p.peek_cards)
    htmlInto(
      "p",
      {},
      box,
      t("catan.peek_progress", {
        name: ui.name(p.data[0]),
        cards: p.peek_cards.length ? listWords(p.peek_cards.map(cardTitle)) : t("catan.none"),
      }),
    );
  if (p.peek_hand)
    htmlInto("p", {}, box, t("catan.peek_hand", { name: ui.name(p.data[0]), cards: handWords(p.peek_hand) }));
  if (mine && (p.kind === "discard" || p.kind === "gift")) {
    const need = awaitedAmount(me);
    htmlInto(
      "p",
      {},
      box,
      p.kind === "discard"
        ? t("catan.discard_half", { count: need })
        : t("catan.give_wedding", { count: need, name: ui.name(p.owner) }),
    );
    const more =
      p.kind === "discard"
        ? (n) => t("catan.discard_more", { count: n })
        : (n) => t("catan.give_more", { count: n });
    drawPicker(box, view, ui, view.hand, need, more);
  } else if (mine && p.kind === "master_merchant" && p.peek_hand) {
    const need = p.amounts[0] || 0;
    htmlInto("p", {}, box, t("catan.take_from", { count: need, name: ui.name(p.data[0]) }));
    drawPicker(box, view, ui, p.peek_hand, need, (n) => t("catan.take_more", { count: n }));
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
  if (!ui.picked.length) return t("catan.your_moves");
  const first = ui.picked[0];
  const k = first[0] === "s" && (view.knights || []).find((x) => x.spot === +first.slice(1));
  return k
    ? t("catan.your_knight_at", { strength: STRENGTH[k.strength], spot: spotName(k.spot, view) })
    : first[0] === "h"
      ? t("catan.robber_to", { hex: hexName(+first.slice(1), view) })
      : t("catan.choose");
}

// A move in progress: the commands it can still become, and a way out.
function drawMoveInProgress(box, ui) {
  const { complete, next } = ui.stage;
  if (next.size)
    htmlInto(
      "p",
      { class: "catan-hint" },
      box,
      complete.length
        ? t("catan.pick_or", { what: describeTargets(next) })
        : t("catan.pick", { what: describeTargets(next) }),
    );
  const multi = ui.picked.length >= 2 || (ui.filter && ui.picked.length >= 1);
  for (const c of complete)
    ui.button(
      box,
      multi && complete.length === 1 && !next.size
        ? t("catan.confirm", { move: label(c, ui.ctx) })
        : label(c, ui.ctx),
      c,
      {
        primary: true,
      },
    );
  if (!next.size && !complete.length) htmlInto("p", {}, box, t("catan.nothing_left"));
  const cancel = htmlInto(
    "button",
    { type: "button", class: "catan-cancel", "data-key": "cancel" },
    box,
    t("moves.cancel"),
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
      t("catan.hint_count", {
        hint: (hints[type] || BOARD_HINT[type] || (() => t("catan.hint_choose")))(),
        count,
      }),
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
  "catan.build_settlement": () => t("catan.hint_settlement"),
  "catan.build_city": () => t("catan.hint_city"),
  "catan.build_road": () => t("catan.hint_road"),
  "catan.build_wall": () => t("catan.hint_wall"),
  "catan.build_knight": () => t("catan.hint_recruit"),
  "catan.activate_knight": () => t("catan.hint_activate"),
  "catan.promote_knight": () => t("catan.hint_promote"),
  "catan.move_knight": () => t("catan.hint_move_knight"),
  "catan.chase_robber": () => t("catan.hint_chase"),
  "catan.move_robber": () => t("catan.hint_robber"),
  "catan.choose": () => t("catan.hint_choose"),
};

const SETUP_HINT = {
  "catan.build_settlement": () => t("catan.hint_setup_settlement"),
  "catan.build_city": () => t("catan.hint_setup_city"),
  "catan.build_road": () => t("catan.hint_setup_road"),
};

function describeTargets(next) {
  const kinds = new Set([...next.keys()].map((k) => k[0]));
  const words = [];
  if (kinds.has("s")) words.push(t("catan.target_corner"));
  if (kinds.has("p")) words.push(t("catan.target_edge"));
  if (kinds.has("h")) words.push(t("catan.target_hex"));
  return listWords(words, "disjunction");
}

function legendIcon(parent, draw, text) {
  const li = htmlInto("li", {}, parent);
  const svg = svgInto("svg", { viewBox: "-14 -16 28 28", width: 22, height: 22, "aria-hidden": "true" }, li);
  draw(svg);
  htmlInto("span", {}, li, text);
}

export function drawLegend(host, view) {
  const ck = isCK(view);
  const box = htmlInto("div", { class: "catan-legend", "aria-label": t("tigris.legend") }, host);
  const ul = htmlInto("ul", {}, box);
  TERRAIN.forEach((terrain, i) => {
    const li = htmlInto("li", {}, ul);
    htmlInto("i", { style: `background:${TERRAIN_FILL[i]}` }, li);
    const commodity = ck ? { 1: 5, 2: 6, 4: 7 }[i] : undefined;
    const kind = KIND[TERRAIN_RESOURCE[i]];
    const text =
      TERRAIN_RESOURCE[i] < 0
        ? terrain
        : commodity !== undefined
          ? t("catan.legend_terrain_city", { terrain, kind, commodity: KIND[commodity] })
          : t("catan.legend_terrain", { terrain, kind });
    htmlInto("span", {}, li, text);
  });
  const pieces = htmlInto("ul", {}, box);
  const ink = "#777";
  legendIcon(
    pieces,
    (g) => svgInto("path", { d: settlementPath(0, 0, 1), fill: ink, stroke: "#111" }, g),
    t("catan.legend_settlement"),
  );
  legendIcon(
    pieces,
    (g) => svgInto("path", { d: cityPath(0, 0, 1), fill: ink, stroke: "#111" }, g),
    t("catan.legend_city"),
  );
  if (ck) knightsLegend(pieces, ink);
  legendIcon(
    pieces,
    (g) => {
      svgInto("path", { d: "M-6,10 Q-6,-1 -2,-4 Q0,-6 2,-4 Q6,-1 6,10 Z", fill: "#3b3b3f" }, g);
      svgInto("circle", { cy: -8, r: 4.5, fill: "#3b3b3f" }, g);
    },
    t("catan.legend_robber"),
  );
  if (ck) {
    legendIcon(
      pieces,
      (g) => {
        svgInto("path", { d: "M-6,10 L0,-5 L6,10 Z", fill: "#f2dfb0", stroke: "#5b4526" }, g);
        svgInto("circle", { cy: -8, r: 4, fill: "#f2dfb0", stroke: "#5b4526" }, g);
      },
      t("catan.legend_merchant"),
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
    t("catan.legend_numbers"),
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
    t("catan.legend_wall"),
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
    t("catan.legend_metropolis"),
  );
  legendIcon(
    pieces,
    (g) => {
      svgInto("circle", { r: 12, fill: "#ffe066" }, g);
      svgInto("circle", { r: 9, fill: ink, stroke: "#111" }, g);
      for (let i = 0; i < 2; i++)
        svgInto("rect", { x: -4 + i * 3.6, y: 2, width: 2.6, height: 4, fill: "#fff" }, g);
    },
    t("catan.legend_active"),
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
    t("catan.legend_inactive"),
  );
}
