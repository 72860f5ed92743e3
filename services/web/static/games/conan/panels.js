// Age of Conan: the side panel (the fate pool, contests and bids in progress, the
// players and their public scores, the seat's own hand, whose turn and the moves).

import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { capital, listWords, seatName } from "../../words.js";
import {
  colourOf,
  contestDie,
  fateDie,
  glyph,
  KCOL,
  mini,
  place,
  standoffs,
  standoffWords,
  TERRAIN,
} from "./board.js";
import {
  CATEGORY,
  cname,
  ctext,
  KIND,
  kname,
  memo,
  phaseSentence,
  pname,
  provinceState,
  ROMAN,
  terrainLetter,
  terrainName,
  topPhase,
} from "./words.js";

// ---- the side panel ----

export function section(heading, attrs, ...kids) {
  return h("section", { class: "zc-sec", ...attrs }, heading ? h("h3", {}, heading) : null, ...kids);
}

function chip(text, attrs = {}) {
  return h("span", { class: "zc-chip", ...attrs }, text);
}

function swatch(seat, size = 16) {
  const col = colourOf(seat);
  return mini(
    size,
    s("rect", {
      x: 1,
      y: 1,
      width: 18,
      height: 18,
      rx: 4,
      fill: col.fill,
      stroke: col.dark,
      "stroke-width": 1.5,
    }),
  );
}

function cardChip(id, extra = {}) {
  const info = memo.cards.get(id);
  const text = ctext(id);
  const bid =
    info && info.kind === "strategy"
      ? h("span", { class: "zc-bidv", title: t("conan.card_bid_value") }, String(info.value))
      : null;
  return h(
    "span",
    {
      class: `zc-card zc-${info ? info.kind : "card"}${extra.exhausted ? " zc-tapped" : ""}`,
      title: text || cname(id),
    },
    bid,
    cname(id),
    extra.count > 1 ? h("b", {}, ` ×${extra.count}`) : null,
    extra.exhausted ? h("span", { class: "zc-small" }, " ", t("conan.used")) : null,
  );
}

function nowWords(view, doc, ctx) {
  if (doc.over) return t("conan.phase_over");
  const top = topPhase(view);
  const waiting = (doc.actors || []).map((x) => seatName(ctx, x));
  const you = ctx.seat !== null && ctx.seat !== undefined && (doc.actors || []).includes(ctx.seat);
  let text = top ? phaseSentence(top, ctx, false) : "";
  if (top && top.phase === "bidding" && top.step === "sealed")
    text = waiting.length
      ? t("conan.now_bidding", { names: listWords(waiting) })
      : t("conan.now_bidding_done");
  if (top && top.phase === "age_change" && waiting.length)
    text = t("conan.now_waiting", { text: phaseSentence(top, ctx, false), names: listWords(waiting) });
  if (top && top.phase === "turn" && top.step === "conan")
    text = t("conan.now_free_move", { name: seatName(ctx, top.seat) });
  return you ? t("conan.now_yours", { text }) : text;
}

export function statusBox(view, doc, ctx) {
  const track = [];
  for (let i = 0; i < view.track; i++)
    track.push(
      mini(
        16,
        s("circle", { cx: 10, cy: 10, r: 8, fill: "#6b4f12", stroke: "#e7b94a", "stroke-width": 2 }),
        s(
          "text",
          { x: 10, y: 14, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#f3d27a" },
          "?",
        ),
      ),
    );
  return section(
    null,
    { "data-zc": "status", class: "zc-sec zc-status-box" },
    h(
      "div",
      { class: "zc-age" },
      t("conan.age", { age: ROMAN[view.age] || String(view.age) }),
      h(
        "span",
        { class: "zc-sub" },
        " · ",
        t("conan.adventures_left", { count: view.adventures_left_in_age }),
      ),
    ),
    view.adventure
      ? h(
          "div",
          { class: "zc-adv", title: ctext(view.adventure) },
          mini(18, glyph("flag", "#b3261e")),
          " ",
          h("b", {}, cname(view.adventure)),
          ` → ${pname(view.destination)}`,
        )
      : h("div", { class: "zc-adv zc-sub" }, t("conan.no_adventure")),
    h(
      "div",
      {
        class: "zc-row zc-sub",
        title: t("conan.track_tip"),
      },
      t("conan.track"),
      " ",
      track.length ? track : t("conan.empty"),
      " · ",
      t("conan.in_container", { count: view.container }),
    ),
    h(
      "div",
      { class: "zc-sub" },
      view.conan_player >= 0
        ? t("conan.conan_player", { name: seatName(ctx, view.conan_player) })
        : t("conan.no_conan_player"),
      " · ",
      t("conan.first_player", { name: seatName(ctx, view.first_player) }),
      view.crowned >= 0 ? ` · ${t("conan.crowned_by", { name: seatName(ctx, view.crowned) })}` : "",
    ),
    standing(view, ctx),
    h("p", { class: "zc-now", "aria-live": "polite" }, nowWords(view, doc, ctx)),
  );
}

function standing(view, ctx) {
  const fights = [...standoffs(view)];
  if (!fights.length) return null;
  return h(
    "div",
    { class: "zc-small", "data-zc": "standoffs" },
    h("b", {}, t("conan.standoffs")),
    " ",
    t("conan.sentence", { text: fights.map(([id, f]) => standoffWords(id, f, ctx)).join("; ") }),
  );
}

export function fateBox(view) {
  const dice = (view.fate_pool || []).map((f) => fateDie(f, 30));
  return section(
    t("conan.fate_pool"),
    { "data-zc": "fate" },
    h("div", { class: "zc-row" }, dice.length ? dice : h("span", { class: "zc-sub" }, t("conan.fate_empty"))),
    h("div", { class: "zc-sub" }, t("conan.dice_left", { count: dice.length })),
  );
}

function sideRow(side, _phase, _ctx, who) {
  const dice = (side.dice || []).map((f) => contestDie(f, 24));
  const bits = [];
  if (side.cards?.length)
    bits.push(
      h(
        "span",
        {},
        t("conan.cards_label"),
        " ",
        side.cards.map((c) => cardChip(c)),
      ),
    );
  if (side.extra_dice) bits.push(chip(t("conan.extra_dice", { count: side.extra_dice })));
  if (side.conan)
    bits.push(
      chip(t("conan.conan_helps"), {
        class: "zc-chip zc-conan-chip",
        title: t("conan.conan_helps_tip"),
      }),
    );
  if (side.rerolled) bits.push(chip(t("conan.rerolled")));
  return h(
    "div",
    { class: "zc-side" },
    h("div", { class: "zc-side-name" }, who),
    h(
      "div",
      { class: "zc-row" },
      dice.length ? dice : h("span", { class: "zc-sub" }, t("conan.not_rolled")),
      bits,
    ),
  );
}

// After a contest: its winner or loser may march on, withdraw or stop.
function afterWords(after, ctx) {
  const params = {
    name: seatName(ctx, after.seat),
    kind: (KIND[after.kind] || after.kind).toLowerCase(),
    province: pname(after.province),
  };
  return after.won ? t("conan.after_won", params) : t("conan.after_lost", params);
}

export function contestBox(view, ctx) {
  const phases = view.phases || [];
  const c = [...phases].reverse().find((p) => p.phase === "contest");
  const after = [...phases].reverse().find((p) => p.phase === "after_contest" || p.phase === "retreat");
  if (!c && !after) return null;
  if (!c) {
    const text =
      after.phase === "retreat"
        ? t("conan.after_retreat", { name: seatName(ctx, after.seat), province: pname(after.province) })
        : afterWords(after, ctx);
    return section(
      t("conan.after_contest"),
      { "data-zc": "contest", class: "zc-sec zc-contest" },
      h("p", {}, text),
    );
  }
  const p = memo.provinces.get(c.province);
  const track = p ? p.track : [];
  const pos = track.indexOf(c.terrain);
  const defender =
    c.defender.seat >= 0
      ? seatName(ctx, c.defender.seat)
      : provinceState(view, c.province)?.raiders
        ? t("conan.province_value_raiders", { province: pname(c.province), value: p ? String(p.value) : "?" })
        : t("conan.province_value", { province: pname(c.province), value: p ? String(p.value) : "?" });
  const committed = (view.seats || [])
    .map((x, i) => (x.contest_card_committed ? seatName(ctx, i) : null))
    .filter(Boolean);
  return section(
    t("conan.kind_in", { kind: KIND[c.kind] || capital(c.kind), province: pname(c.province) }),
    { "data-zc": "contest", class: "zc-sec zc-contest" },
    h(
      "div",
      { class: "zc-sub" },
      pos >= 0 && track.length > 1
        ? t("conan.terrain_space", {
            terrain: terrainName(c.terrain),
            n: String(pos + 1),
            count: track.length,
          })
        : t("conan.terrain", { terrain: terrainName(c.terrain) }),
      c.split ? ` · ${t("conan.split_attack")}` : "",
    ),
    sideRow(c.attacker, c, ctx, t("conan.attacker", { name: seatName(ctx, c.attacker.seat) })),
    sideRow(c.defender, c, ctx, t("conan.defender", { name: defender })),
    committed.length && c.step.endsWith("_card")
      ? h("div", { class: "zc-sub" }, t("conan.committed_by", { names: listWords(committed) }))
      : null,
    h("p", { class: "zc-now" }, phaseSentence(c, ctx, false)),
  );
}

export function biddingBox(view, doc, ctx) {
  const b = [...(view.phases || [])].reverse().find((p) => p.phase === "bidding");
  if (!b) return null;
  const rows = (view.seats || []).map((x, i) => {
    const shown = (b.revealed || []).find((r) => r.seat === i);
    const state = shown
      ? h(
          "span",
          {},
          `${shown.token}`,
          shown.card ? [" + ", cardChip(shown.card)] : ` + ${t("conan.no_card")}`,
          h("b", {}, ` = ${shown.value}`),
        )
      : x.bid_placed
        ? h("span", { class: "zc-good" }, t("conan.bid_laid_face_down"))
        : (doc.actors || []).includes(i)
          ? h("span", { class: "zc-sub" }, t("conan.choosing"))
          : h("span", { class: "zc-sub" }, "—");
    return h(
      "div",
      { class: "zc-bidrow" },
      swatch(i),
      h("span", { class: "zc-pname" }, seatName(ctx, i)),
      state,
    );
  });
  return section(
    t("conan.bidding"),
    { "data-zc": "bidding" },
    rows,
    h("div", { class: "zc-sub" }, t("conan.bidding_rule")),
  );
}

export function playersBox(view, doc, ctx) {
  const rows = (view.seats || []).map((x, i) => {
    const toMove = !doc.over && (doc.actors || []).includes(i);
    const badges = playerBadges(view, ctx, x, i);
    const secret = [];
    if (x.bid_placed) secret.push(t("conan.bid_laid"));
    if (x.contest_card_committed) secret.push(t("conan.card_committed"));
    if (x.category_chosen) secret.push(t("conan.category_chosen"));
    return h(
      "div",
      { class: `zc-player${toMove ? " zc-turn" : ""}`, "data-seat": i },
      h(
        "div",
        { class: "zc-phead" },
        swatch(i, 18),
        h("span", { class: "zc-pname" }, seatName(ctx, i)),
        h("span", { class: "zc-sub" }, ` ${kname(x.kingdom)}`),
        h("span", { class: "zc-ep", title: t("conan.ep_tip") }, t("conan.ep_n", { count: x.ep })),
      ),
      badges.length ? h("div", { class: "zc-row" }, badges) : null,
      playerStats(view, x, i),
      ...playerHoldings(x),
      secret.length ? h("div", { class: "zc-small zc-sub" }, secret.join(" · ")) : null,
    );
  });
  return section(t("tigris.players"), { "data-zc": "players" }, rows);
}

// A player's roles: the Conan player, the first player, killed by Conan, you.
function playerBadges(view, ctx, x, i) {
  const badges = [];
  if (view.conan_player === i)
    badges.push(chip(t("conan.badge_conan_player"), { class: "zc-chip zc-conan-chip" }));
  if (view.first_player === i) badges.push(chip(t("conan.badge_first_player")));
  if (x.dead) badges.push(chip(t("conan.badge_dead"), { class: "zc-chip zc-bad" }));
  if (ctx.seat === i) badges.push(chip(t("conan.badge_you"), { class: "zc-chip zc-you" }));
  return badges;
}

// A player's counts: gold, sorcery, Crom tokens, units and emissaries on the
// map, cards in hand and adventure tokens.
function playerStats(view, x, i) {
  const onMap = (key, seat) =>
    (view.provinces || []).reduce((a, p) => a + ((p.state[key] || [])[seat] || 0), 0);
  return h(
    "div",
    { class: "zc-stats" },
    h("span", { title: t("conan.gold_tip") }, mini(14, glyph("coin")), ` ${x.gold}`),
    h("span", { title: t("conan.sorcery_tip") }, mini(14, glyph("flame", "#7b2fb3")), ` ${x.sorcery}`),
    h("span", { title: t("conan.crom_tip") }, mini(14, glyph("skull", "#3b3b3b")), ` ${x.crom}`),
    h(
      "span",
      { title: t("conan.units_tip") },
      mini(14, glyph("shield", colourOf(i).fill)),
      ` ${onMap("units", i)}`,
    ),
    h(
      "span",
      { title: t("conan.emissaries_tip") },
      mini(14, glyph("pawn", colourOf(i).fill)),
      ` ${onMap("emissaries", i)}`,
    ),
    h(
      "span",
      { title: t("conan.cards_tip") },
      mini(14, glyph("scroll", "#5b4a2a")),
      ` ${x.strategy_cards}/${x.kingdom_cards}`,
    ),
    h(
      "span",
      { title: t("conan.adventure_tokens_tip") },
      mini(14, glyph("star", "#b07d12")),
      ` ${x.adventure_tokens}${x.token_pending ? "+1" : ""}`,
    ),
  );
}

// What a player has laid out: bidding tokens, table cards and artifacts.
function playerHoldings(x) {
  const bids = h(
    "div",
    { class: "zc-row zc-small", title: t("conan.bids_tip") },
    t("conan.bids"),
    " ",
    (x.bid_available || []).map((n) => h("span", { class: "zc-tok" }, String(n))),
    (x.bid_spent || []).map((n) => h("span", { class: "zc-tok zc-spent" }, String(n))),
  );
  const table = (x.table || []).length
    ? h(
        "div",
        { class: "zc-row zc-small" },
        t("conan.table"),
        " ",
        x.table.map((c) => cardChip(c.card, { exhausted: c.exhausted })),
      )
    : null;
  const arts = [...(x.artifacts || []), ...(x.bonus ? ["conan_bonus"] : [])];
  const artifacts = arts.length
    ? h(
        "div",
        { class: "zc-row zc-small" },
        t("conan.artifacts"),
        " ",
        arts.map((a) => cardChip(a)),
      )
    : null;
  return [bids, table, artifacts];
}

// Copies of a card as one chip with a count.
function grouped(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts].map(([c, n]) => cardChip(c, { count: n }));
}

export function handBox(view) {
  const me = view.me;
  if (!me) return null;
  const tokens = new Map();
  for (const [cat, value] of me.tokens || []) {
    if (!tokens.has(cat)) tokens.set(cat, []);
    tokens.get(cat).push(value);
  }
  const strategy = [...(me.strategy_hand || [])];
  const kingdom = [...(me.kingdom_hand || [])];
  return section(
    t("conan.your_hand"),
    { "data-zc": "hand" },
    h("div", { class: "zc-label" }, t("conan.strategy_cards", { n: strategy.length })),
    h(
      "div",
      { class: "zc-row" },
      strategy.length ? grouped(strategy) : h("span", { class: "zc-sub" }, t("conan.none")),
    ),
    h("div", { class: "zc-label" }, t("conan.kingdom_cards", { n: kingdom.length })),
    h(
      "div",
      { class: "zc-row" },
      kingdom.length ? grouped(kingdom) : h("span", { class: "zc-sub" }, t("conan.none")),
    ),
    h("div", { class: "zc-label" }, t("conan.adventure_tokens")),
    h(
      "div",
      { class: "zc-row" },
      tokens.size
        ? [...tokens].map(([cat, vs]) =>
            chip(
              t("conan.tokens_line", {
                category: CATEGORY[cat] || cat,
                values: vs.join(", "),
                total: vs.reduce((a, b) => a + b, 0),
              }),
            ),
          )
        : h("span", { class: "zc-sub" }, t("conan.none")),
    ),
    me.pending_token
      ? h(
          "div",
          { class: "zc-row" },
          chip(
            t("conan.just_received", {
              category: CATEGORY[me.pending_token[0]] || me.pending_token[0],
              value: String(me.pending_token[1]),
            }),
            { class: "zc-chip zc-you" },
          ),
        )
      : null,
    me.sealed_bid
      ? h(
          "div",
          { class: "zc-small" },
          me.sealed_bid.card
            ? t("conan.sealed_bid_card", {
                token: String(me.sealed_bid.token),
                card: cname(me.sealed_bid.card),
              })
            : t("conan.sealed_bid", { token: String(me.sealed_bid.token) }),
        )
      : null,
    me.sealed_cards?.length
      ? h(
          "div",
          { class: "zc-small" },
          t("conan.committed_face_down", { cards: listWords(me.sealed_cards.map(cname)) }),
        )
      : null,
    me.sealed_category
      ? h(
          "div",
          { class: "zc-small" },
          t("conan.secret_category", { category: CATEGORY[me.sealed_category] || me.sealed_category }),
        )
      : null,
  );
}

export function objectivesBox(view) {
  const objs = (view.objectives || []).map((o) => {
    const text = ctext(o);
    return h("li", { title: text }, h("b", {}, cname(o)), text ? ` — ${text}` : "");
  });
  return section(
    t("conan.objectives"),
    { "data-zc": "objectives" },
    objs.length ? h("ul", { class: "zc-list" }, objs) : h("span", { class: "zc-sub" }, t("conan.none")),
    h(
      "div",
      { class: "zc-sub zc-small" },
      t("conan.strategy_deck", { n: view.strategy_deck, discards: (view.strategy_discard || []).length }),
    ),
  );
}

export function legend() {
  const item = (icon, text) => h("div", {}, icon, h("span", {}, text));
  const col = KCOL.red;
  return h(
    "details",
    { class: "zc-legend", open: true, "data-zc": "legend" },
    h("summary", {}, t("tigris.legend")),
    h(
      "div",
      { class: "zc-legend-grid" },
      ...legendPieces(item, col),
      ...legendPlaces(item, col),
      ...legendFights(item),
      ...legendMarks(item),
    ),
  );
}

// The pieces: armies, emissaries, towers, forts, cities, Conan and his destination.
function legendPieces(item, col) {
  return [
    item(
      mini(
        20,
        s("path", { d: "M3 2H17V11Q17 16 10 18.5Q3 16 3 11Z", fill: col.fill, stroke: col.dark }),
        s(
          "text",
          { x: 10, y: 13, "text-anchor": "middle", "font-size": 9, "font-weight": 800, fill: "#fff" },
          "3",
        ),
      ),
      t("conan.legend_army"),
    ),
    item(mini(20, glyph("pawn", col.fill)), t("conan.legend_emissary")),
    item(mini(20, glyph("tower", col.fill)), t("conan.legend_tower")),
    item(mini(20, glyph("fort", col.fill)), t("conan.legend_fort")),
    item(mini(20, glyph("city", col.fill)), t("conan.terrain_city")),
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 9, fill: "#2a1f1a", stroke: "#c7301f", "stroke-width": 2 }),
        place(glyph("axe", "#f1d3c8"), 10, 10, 12),
      ),
      t("conan.legend_raiders"),
    ),
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 9, fill: "#3a2a14", stroke: "#e7b94a", "stroke-width": 2 }),
        place(glyph("helm", "#f3d27a"), 10, 10, 13),
      ),
      "Conan",
    ),
    item(mini(20, glyph("flag", "#b3261e")), t("conan.legend_destination")),
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 8.5, fill: "#f6e7b0", stroke: "#6b4f12", "stroke-width": 1.5 }),
        s(
          "text",
          { x: 10, y: 14, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: "#4a3508" },
          "3",
        ),
      ),
      t("conan.legend_value"),
    ),
  ];
}

// The map's places: homes, savage provinces, campaign tracks and markers.
function legendPlaces(item, col) {
  return [
    item(mini(20, glyph("crown", "#5e120d")), t("conan.legend_home")),
    item(mini(20, glyph("skull", "#4b3a1e")), t("conan.legend_savage")),
    item(
      h(
        "span",
        { class: "zc-terrains" },
        Object.entries(TERRAIN).map(([kind, t]) =>
          h("span", { style: `background:${t.fill};color:${t.ink}` }, terrainLetter(kind)),
        ),
      ),
      t("conan.legend_track", {
        terrains: listWords(["plains", "hills", "woods", "city"].map(terrainName)),
      }),
    ),
    item(
      mini(
        20,
        s("rect", { x: 2, y: 2, width: 16, height: 16, rx: 3, fill: "#c9dc8f", stroke: "#4b3a1e" }),
        s("circle", { cx: 10, cy: 10, r: 7.5, fill: "none", stroke: col.fill, "stroke-width": 3 }),
      ),
      t("conan.legend_campaign"),
    ),
  ];
}

// The map's fights: a contest being fought, a siege or battle going on.
function legendFights(item) {
  return [
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 9, fill: "#b3261e" }),
        place(glyph("swords", "#fff"), 10, 10, 12),
      ),
      t("conan.legend_contest"),
    ),
    item(
      mini(
        20,
        s("rect", {
          x: 4,
          y: 4,
          width: 12,
          height: 12,
          rx: 2,
          fill: "#5a3a1a",
          stroke: "#f0c36a",
          "stroke-width": 1.5,
          transform: "rotate(45 10 10)",
        }),
        place(glyph("fort", "#f6e3b0"), 10, 10, 8),
      ),
      t("conan.legend_standoff"),
    ),
  ];
}

// The map's other marks: where moves go and start, passes, out of play.
function legendMarks(item) {
  return [
    item(
      mini(
        20,
        s("rect", {
          x: 1,
          y: 1,
          width: 18,
          height: 18,
          rx: 3,
          fill: "rgba(255,225,80,.45)",
          stroke: "#ffcf00",
          "stroke-width": 3,
        }),
      ),
      t("conan.legend_target"),
    ),
    item(
      mini(
        20,
        s("rect", {
          x: 2,
          y: 2,
          width: 16,
          height: 16,
          rx: 3,
          fill: "#d8e4ee",
          stroke: "#fff",
          "stroke-width": 2.5,
          "stroke-dasharray": "4 2",
        }),
      ),
      t("conan.legend_source"),
    ),
    item(
      mini(
        20,
        s("line", {
          x1: 2,
          y1: 10,
          x2: 18,
          y2: 10,
          stroke: "#6b5330",
          "stroke-width": 3,
          "stroke-dasharray": "2 4",
          "stroke-linecap": "round",
        }),
      ),
      t("conan.legend_pass"),
    ),
    item(
      mini(20, s("rect", { x: 1, y: 1, width: 18, height: 18, fill: "url(#zc-hatch)", stroke: "#888" })),
      t("conan.legend_out"),
    ),
  ];
}
