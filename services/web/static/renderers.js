// Loads a game's renderer (games/<key>/index.js, beside its board.js, panels.js
// and words.js; the contract in docs/web-client.md), falling back to the
// generic one when a game has none or its renderer fails.

import { h } from "./dom.js";
import * as generic from "./games/generic.js";
import { t } from "./i18n.js";

// Games that share a renderer.
const FILES = { "catan-ck": "catan" };
const loaded = new Map();

export function renderer(game) {
  if (!loaded.has(game)) loaded.set(game, load(game));
  return loaded.get(game);
}

async function load(game) {
  const file = FILES[game] || game;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(file) || file === "generic") return generic;
  try {
    const mod = await import(`./games/${file}/index.js`);
    if (typeof mod.render !== "function") throw new Error(`games/${file}/index.js exports no render()`);
    return mod;
  } catch (err) {
    console.info(`no board renderer for ${game}; showing the view as a tree`, err);
    return generic;
  }
}

// Draw with `mod`; if it throws, draw with the generic renderer instead.
// Returns the renderer that drew.
export function draw(mod, root, doc, ctx) {
  if (mod !== generic) {
    try {
      mod.render(root, doc, ctx);
      return mod;
    } catch (err) {
      console.error(`the ${doc.game} renderer failed; showing the view as a tree`, err);
    }
  }
  root.replaceChildren();
  generic.render(root, doc, ctx);
  if (mod !== generic) {
    root.prepend(h("p", { class: "notice warn" }, t("generic.board_failed")));
  }
  return generic;
}

// Wait for what a renderer needs beyond the document before drawing it (its
// optional `ready(doc)`: Conan's map, fetched once per pack). A failure is
// logged and the drawing goes on (render shows what it can).
export async function prepare(mod, doc) {
  if (typeof mod.ready !== "function") return;
  try {
    await mod.ready(doc);
  } catch (err) {
    console.error(`the ${doc.game} renderer could not get ready`, err);
  }
}

export { generic };
