// Age of Conan: the side panel (the fate pool, contests and bids in progress, the
// players and their public scores, the seat's own hand, whose turn and the moves).

import { h, s } from "../../dom.js";
import { capital, listWords, plural, seatName } from "../../words.js";
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
  humanize,
  KIND,
  memo,
  phaseSentence,
  pname,
  provinceState,
  ROMAN,
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
  const text = info ? info.text : "";
  const bid =
    info && info.kind === "strategy"
      ? h("span", { class: "zc-bidv", title: "bid value" }, String(info.value))
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
    extra.exhausted ? h("span", { class: "zc-small" }, " (used)") : null,
  );
}

function nowWords(view, doc, ctx) {
  if (doc.over) return "The game is over.";
  const top = topPhase(view);
  const waiting = (doc.actors || []).map((x) => seatName(ctx, x));
  const you = ctx.seat !== null && ctx.seat !== undefined && (doc.actors || []).includes(ctx.seat);
  let text = top ? phaseSentence(top, ctx, false) : "";
  if (top && top.phase === "bidding" && top.step === "sealed")
    text = `Bidding for Conan: ${listWords(waiting) || "nobody"} still to bid.`;
  if (top && top.phase === "age_change" && waiting.length)
    text = `${phaseSentence(top, ctx, false)} Waiting for ${listWords(waiting)}.`;
  if (top && top.phase === "turn" && top.step === "conan")
    text = `${seatName(ctx, top.seat)}'s turn: Conan's free move.`;
  return you ? `${text} It is your move.` : text;
}

export function statusBox(view, doc, ctx) {
  const adv = memo.cards.get(view.adventure);
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
      `Age ${ROMAN[view.age] || view.age}`,
      h("span", { class: "zc-sub" }, ` · ${plural(view.adventures_left_in_age, "more adventure")} this age`),
    ),
    view.adventure
      ? h(
          "div",
          { class: "zc-adv", title: adv ? adv.text : "" },
          mini(18, glyph("flag", "#b3261e")),
          " ",
          h("b", {}, adv ? adv.name : humanize(view.adventure)),
          ` → ${pname(view.destination)}`,
        )
      : h("div", { class: "zc-adv zc-sub" }, "No adventure under way."),
    h(
      "div",
      {
        class: "zc-row zc-sub",
        title: "Adventure tokens on the track, face down; Conan's moves take or discard the leftmost",
      },
      "Track: ",
      track.length ? track : "empty",
      ` · ${view.container} in the container`,
    ),
    h(
      "div",
      { class: "zc-sub" },
      view.conan_player >= 0
        ? `Conan player: ${seatName(ctx, view.conan_player)} · `
        : "No Conan player yet · ",
      `first player: ${seatName(ctx, view.first_player)}`,
      view.crowned >= 0 ? ` · Conan was crowned by ${seatName(ctx, view.crowned)}` : "",
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
    h("b", {}, "Sieges and battles: "),
    fights.map(([id, f]) => standoffWords(id, f, ctx)).join("; "),
    ".",
  );
}

export function fateBox(view) {
  const dice = (view.fate_pool || []).map((f) => fateDie(f, 30));
  return section(
    "Fate pool",
    { "data-zc": "fate" },
    h(
      "div",
      { class: "zc-row" },
      dice.length ? dice : h("span", { class: "zc-sub" }, "Empty: the next player rerolls all seven dice."),
    ),
    h("div", { class: "zc-sub" }, `${plural(dice.length, "die", "dice")} left this round`),
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
        "cards: ",
        side.cards.map((c) => cardChip(c)),
      ),
    );
  if (side.extra_dice) bits.push(chip(`+${plural(side.extra_dice, "die", "dice")}`));
  if (side.conan)
    bits.push(
      chip("Conan helps", {
        class: "zc-chip zc-conan-chip",
        title: "one more die, and each hit-and-sword counts twice",
      }),
    );
  if (side.rerolled) bits.push(chip("rerolled"));
  return h(
    "div",
    { class: "zc-side" },
    h("div", { class: "zc-side-name" }, who),
    h(
      "div",
      { class: "zc-row" },
      dice.length ? dice : h("span", { class: "zc-sub" }, "not rolled yet"),
      bits,
    ),
  );
}

export function contestBox(view, ctx) {
  const phases = view.phases || [];
  const c = [...phases].reverse().find((p) => p.phase === "contest");
  const after = [...phases].reverse().find((p) => p.phase === "after_contest" || p.phase === "retreat");
  if (!c && !after) return null;
  if (!c) {
    const text =
      after.phase === "retreat"
        ? `${seatName(ctx, after.seat)} may fall back from ${pname(after.province)} after the battle.`
        : `${seatName(ctx, after.seat)} ${after.won ? "won" : "lost"} the ${after.kind} in ${pname(after.province)}: a forced march, a withdrawal, or stop.`;
    return section(
      "After the contest",
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
      : `${pname(c.province)} (value ${p ? p.value : "?"}${provinceState(view, c.province)?.raiders ? ", with raiders" : ""})`;
  const committed = (view.seats || [])
    .map((x, i) => (x.contest_card_committed ? seatName(ctx, i) : null))
    .filter(Boolean);
  return section(
    `${KIND[c.kind] || capital(c.kind)} in ${pname(c.province)}`,
    { "data-zc": "contest", class: "zc-sec zc-contest" },
    h(
      "div",
      { class: "zc-sub" },
      `Terrain: ${c.terrain}${pos >= 0 && track.length > 1 ? ` (campaign space ${pos + 1} of ${track.length})` : ""}${c.split ? " · split attack: no forced march" : ""}`,
    ),
    sideRow(c.attacker, c, ctx, `Attacker: ${seatName(ctx, c.attacker.seat)}`),
    sideRow(c.defender, c, ctx, `Defender: ${defender}`),
    committed.length && c.step.endsWith("_card")
      ? h("div", { class: "zc-sub" }, `Cards committed face down: ${listWords(committed)}`)
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
          shown.card ? [" + ", cardChip(shown.card)] : " + no card",
          h("b", {}, ` = ${shown.value}`),
        )
      : x.bid_placed
        ? h("span", { class: "zc-good" }, "bid laid face down")
        : (doc.actors || []).includes(i)
          ? h("span", { class: "zc-sub" }, "choosing…")
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
    "Bidding for Conan",
    { "data-zc": "bidding" },
    rows,
    h(
      "div",
      { class: "zc-sub" },
      "Highest token + card value wins; ties go to fewer adventure tokens, then the kingdom closest to Conan.",
    ),
  );
}

export function playersBox(view, doc, ctx) {
  const rows = (view.seats || []).map((x, i) => {
    const toMove = !doc.over && (doc.actors || []).includes(i);
    const k = memo.kingdoms.get(x.kingdom);
    const badges = playerBadges(view, ctx, x, i);
    const secret = [];
    if (x.bid_placed) secret.push("bid laid");
    if (x.contest_card_committed) secret.push("contest card committed");
    if (x.category_chosen) secret.push("category chosen");
    return h(
      "div",
      { class: `zc-player${toMove ? " zc-turn" : ""}`, "data-seat": i },
      h(
        "div",
        { class: "zc-phead" },
        swatch(i, 18),
        h("span", { class: "zc-pname" }, seatName(ctx, i)),
        h("span", { class: "zc-sub" }, ` ${k ? k.name : humanize(x.kingdom)}`),
        h("span", { class: "zc-ep", title: "empire points" }, `${x.ep} EP`),
      ),
      badges.length ? h("div", { class: "zc-row" }, badges) : null,
      playerStats(view, x, i),
      ...playerHoldings(x),
      secret.length ? h("div", { class: "zc-small zc-sub" }, secret.join(" · ")) : null,
    );
  });
  return section("Players", { "data-zc": "players" }, rows);
}

// A player's roles: the Conan player, the first player, killed by Conan, you.
function playerBadges(view, ctx, x, i) {
  const badges = [];
  if (view.conan_player === i) badges.push(chip("Conan player", { class: "zc-chip zc-conan-chip" }));
  if (view.first_player === i) badges.push(chip("1st player"));
  if (x.dead) badges.push(chip("killed by Conan", { class: "zc-chip zc-bad" }));
  if (ctx.seat === i) badges.push(chip("you", { class: "zc-chip zc-you" }));
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
    h("span", { title: "gold" }, mini(14, glyph("coin")), ` ${x.gold}`),
    h("span", { title: "sorcery tokens" }, mini(14, glyph("flame", "#7b2fb3")), ` ${x.sorcery}`),
    h("span", { title: "Crom! Count the dead! tokens" }, mini(14, glyph("skull", "#3b3b3b")), ` ${x.crom}`),
    h(
      "span",
      { title: "units on the map" },
      mini(14, glyph("shield", colourOf(i).fill)),
      ` ${onMap("units", i)}`,
    ),
    h(
      "span",
      { title: "emissaries on the map" },
      mini(14, glyph("pawn", colourOf(i).fill)),
      ` ${onMap("emissaries", i)}`,
    ),
    h(
      "span",
      { title: "strategy cards / kingdom cards in hand" },
      mini(14, glyph("scroll", "#5b4a2a")),
      ` ${x.strategy_cards}/${x.kingdom_cards}`,
    ),
    h(
      "span",
      { title: "adventure tokens (face down)" },
      mini(14, glyph("star", "#b07d12")),
      ` ${x.adventure_tokens}${x.token_pending ? "+1" : ""}`,
    ),
  );
}

// What a player has laid out: bidding tokens, table cards and artifacts.
function playerHoldings(x) {
  const bids = h(
    "div",
    { class: "zc-row zc-small", title: "bidding tokens: at hand, and set aside" },
    "Bids: ",
    (x.bid_available || []).map((t) => h("span", { class: "zc-tok" }, String(t))),
    (x.bid_spent || []).map((t) => h("span", { class: "zc-tok zc-spent" }, String(t))),
  );
  const table = (x.table || []).length
    ? h(
        "div",
        { class: "zc-row zc-small" },
        "Table: ",
        x.table.map((t) => cardChip(t.card, { exhausted: t.exhausted })),
      )
    : null;
  const arts = [...(x.artifacts || []), ...(x.bonus ? ["conan_bonus"] : [])];
  const artifacts = arts.length
    ? h(
        "div",
        { class: "zc-row zc-small" },
        "Artifacts: ",
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
    "Your hand",
    { "data-zc": "hand" },
    h("div", { class: "zc-label" }, `Strategy cards (${strategy.length})`),
    h(
      "div",
      { class: "zc-row" },
      strategy.length ? grouped(strategy) : h("span", { class: "zc-sub" }, "none"),
    ),
    h("div", { class: "zc-label" }, `Kingdom cards (${kingdom.length})`),
    h("div", { class: "zc-row" }, kingdom.length ? grouped(kingdom) : h("span", { class: "zc-sub" }, "none")),
    h("div", { class: "zc-label" }, "Adventure tokens"),
    h(
      "div",
      { class: "zc-row" },
      tokens.size
        ? [...tokens].map(([cat, vs]) =>
            chip(`${CATEGORY[cat] || cat}: ${vs.join(", ")} (${vs.reduce((a, b) => a + b, 0)})`),
          )
        : h("span", { class: "zc-sub" }, "none"),
    ),
    me.pending_token
      ? h(
          "div",
          { class: "zc-row" },
          chip(
            `just received: ${CATEGORY[me.pending_token[0]] || me.pending_token[0]} ${me.pending_token[1]}`,
            { class: "zc-chip zc-you" },
          ),
        )
      : null,
    me.sealed_bid
      ? h(
          "div",
          { class: "zc-small" },
          `Your sealed bid: the ${me.sealed_bid.token} token${me.sealed_bid.card ? ` with ${cname(me.sealed_bid.card)}` : ""}`,
        )
      : null,
    me.sealed_cards?.length
      ? h("div", { class: "zc-small" }, `Committed face down: ${listWords(me.sealed_cards.map(cname))}`)
      : null,
    me.sealed_category
      ? h(
          "div",
          { class: "zc-small" },
          `Your secret category: ${CATEGORY[me.sealed_category] || me.sealed_category}`,
        )
      : null,
  );
}

export function objectivesBox(view) {
  const objs = (view.objectives || []).map((o) => {
    const info = memo.cards.get(o);
    return h(
      "li",
      { title: info ? info.text : "" },
      h("b", {}, info ? info.name : humanize(o)),
      info ? ` — ${info.text}` : "",
    );
  });
  return section(
    "Objectives",
    { "data-zc": "objectives" },
    objs.length ? h("ul", { class: "zc-list" }, objs) : h("span", { class: "zc-sub" }, "none"),
    h(
      "div",
      { class: "zc-sub zc-small" },
      `Strategy deck ${view.strategy_deck} · discards ${(view.strategy_discard || []).length}`,
    ),
  );
}

export function legend() {
  const item = (icon, text) => h("div", {}, icon, h("span", {}, text));
  const col = KCOL.red;
  return h(
    "details",
    { class: "zc-legend", open: true, "data-zc": "legend" },
    h("summary", {}, "Legend"),
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
      "army (units)",
    ),
    item(mini(20, glyph("pawn", col.fill)), "emissary"),
    item(mini(20, glyph("tower", col.fill)), "tower (alliance)"),
    item(mini(20, glyph("fort", col.fill)), "fort (subjugated)"),
    item(mini(20, glyph("city", col.fill)), "city"),
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 9, fill: "#2a1f1a", stroke: "#c7301f", "stroke-width": 2 }),
        place(glyph("axe", "#f1d3c8"), 10, 10, 12),
      ),
      "raiders",
    ),
    item(
      mini(
        20,
        s("circle", { cx: 10, cy: 10, r: 9, fill: "#3a2a14", stroke: "#e7b94a", "stroke-width": 2 }),
        place(glyph("helm", "#f3d27a"), 10, 10, 13),
      ),
      "Conan",
    ),
    item(mini(20, glyph("flag", "#b3261e")), "his destination"),
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
      "province value",
    ),
  ];
}

// The map's places: homes, savage provinces, campaign tracks and markers.
function legendPlaces(item, col) {
  return [
    item(mini(20, glyph("crown", "#5e120d")), "a kingdom's home"),
    item(mini(20, glyph("skull", "#4b3a1e")), "savage province"),
    item(
      h(
        "span",
        { class: "zc-terrains" },
        Object.values(TERRAIN).map((t) =>
          h("span", { style: `background:${t.fill};color:${t.ink}` }, t.letter),
        ),
      ),
      "campaign track: plains, hills, woods, city",
    ),
    item(
      mini(
        20,
        s("rect", { x: 2, y: 2, width: 16, height: 16, rx: 3, fill: "#c9dc8f", stroke: "#4b3a1e" }),
        s("circle", { cx: 10, cy: 10, r: 7.5, fill: "none", stroke: col.fill, "stroke-width": 3 }),
      ),
      "campaign marker",
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
      "contest being fought",
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
      "siege or battle going on",
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
      "you may move here",
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
      "a move may start here",
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
      "pass between adjacent provinces",
    ),
    item(
      mini(20, s("rect", { x: 1, y: 1, width: 18, height: 18, fill: "url(#zc-hatch)", stroke: "#888" })),
      "out of play",
    ),
  ];
}
