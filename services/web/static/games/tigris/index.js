// Tigris & Euphrates: the board (board.js) beside the side panel (panels.js),
// and the words for every event and command (words.js). Drawn only from the
// view document the page holds (a spectator's or one seat's view); nothing
// hidden is ever inferred.

import { t } from "../../i18n.js";
import { begin, handSection, layout, miniTile } from "../tigris-common.js";
import { boardMove, drawBoard } from "./board.js";
import {
  conflictSection,
  kingdomsSection,
  legendSection,
  movesSection,
  playersSection,
  statusSection,
} from "./panels.js";
import { drawing, tileName, tileWords } from "./words.js";

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

  layout(
    root,
    "zt-table zt-tigris",
    svg,
    statusSection(doc, view, ctx, seat),
    phase.kind === "support" ? conflictSection(view, ctx) : null,
    legal.length ? movesSection(doc, view, ctx, seat, p, moves, others, targets, draw) : null,
    seat !== null && view.hand
      ? handSection(view, p, moves, draw, legal.length > 0, {
          heading: t("tigris.your_tiles"),
          kind: "tile",
          mini: (c) => miniTile(c, 24),
          name: (c, n) => t("tigris.hand_tiles", { count: n, tile: tileName(c, n) }),
          tip: (c) => t("tigris.do_place_a", { tile: tileWords(c, 1) }),
        })
      : null,
    playersSection(doc, view, ctx, seat),
    kingdoms.length ? kingdomsSection(kingdoms, view, ctx) : null,
    legendSection(),
  );
}
