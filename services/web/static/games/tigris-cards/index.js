// Euphrates & Tigris, the card game: the kingdoms' columns (board.js) beside the
// side panel (panels.js), and words for every event and command (words.js).
// Drawn only from the view document the page holds.

import { t } from "../../i18n.js";
import { begin, colourName, handSection, layout } from "../tigris-common.js";
import { boardMove, drawBoard } from "./board.js";
import {
  conflictSection,
  legendSection,
  miniCard,
  movesSection,
  playersSection,
  statusSection,
  supplySection,
} from "./panels.js";
import { cards, drawing } from "./words.js";

// The renderer contract (docs/web-client.md): render here, the words beside it.
export { describe, label, spotWords, summary } from "./words.js";

export function render(root, doc, ctx) {
  drawing(doc);
  const start = begin(root, doc, ctx, render, boardMove);
  if (!start) return;
  const { view, seat, legal, p, draw, moves, others } = start;

  const { svg, targets } = drawBoard(view, ctx, start);
  const conflict = view.conflict;

  layout(
    root,
    "zt-table zt-wide zt-tigris-cards",
    svg,
    statusSection(doc, view, ctx, seat),
    conflict ? conflictSection(view, ctx) : null,
    legal.length ? movesSection(view, ctx, seat, p, moves, others, targets, draw) : null,
    seat !== null && view.hand
      ? handSection(view, p, moves, draw, legal.length > 0, {
          heading: t("tcards.your_hand"),
          kind: "card",
          mini: (c) => miniCard(c, 24),
          name: (c, n) => t("tcards.hand_count", { count: n, colour: colourName(c) }),
          tip: (c) => t("tcards.do_play_a", { card: cards(c, 1) }),
        })
      : null,
    playersSection(doc, view, ctx, seat),
    supplySection(view),
    legendSection(),
  );
}
