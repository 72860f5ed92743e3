// Tigris & Euphrates: the board (board.js) beside the side panel (panels.js),
// and the words for every event and command (words.js). Drawn only from the
// view document the page holds (a spectator's or one seat's view); nothing
// hidden is ever inferred.

import { h } from "../../dom.js";
import { begin, handSection, miniTile } from "../tigris-common.js";
import { boardMove, drawBoard } from "./board.js";
import {
  conflictSection,
  kingdomsSection,
  legendSection,
  movesSection,
  playersSection,
  statusSection,
} from "./panels.js";
import { drawing, TILE, TILES } from "./words.js";

// The renderer contract (docs/web-client.md): render here, the words beside it.
export { squareLabel } from "./board.js";
export { describe, label, summary } from "./words.js";

// ---- render ----

export function render(root, doc, ctx) {
  drawing(doc);
  const start = begin(root, doc, ctx, render, boardMove);
  if (!start) return;
  const { view, seat, legal, p, draw, moves, others } = start;

  const { svg, kingdoms, targets } = drawBoard(view, ctx, start);
  const phase = view.phase || {};

  const panel = h("div", { class: "zt-panel" });
  panel.append(statusSection(doc, view, ctx, seat));
  if (phase.kind === "support") panel.append(conflictSection(view, ctx));
  if (legal.length) panel.append(movesSection(doc, view, ctx, seat, p, moves, others, targets, draw));
  if (seat !== null && view.hand)
    panel.append(
      handSection(view, p, moves, draw, legal.length > 0, {
        heading: "Your tiles",
        kind: "tile",
        mini: (c) => miniTile(c, 24),
        name: (c, n) => (n === 1 ? TILE[c] : TILES[c]),
        tip: (c) => `Place a ${c} ${TILE[c]}`,
      }),
    );
  panel.append(playersSection(doc, view, ctx, seat));
  if (kingdoms.length) panel.append(kingdomsSection(kingdoms, view, ctx));
  panel.append(legendSection());

  root.append(
    h(
      "div",
      { class: "zt-host" },
      h("div", { class: "zt-table zt-tigris" }, h("div", { class: "zt-boardwrap" }, svg), panel),
    ),
  );
}
