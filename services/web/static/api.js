// The gateway's HTTP API: JSON requests, and live feeds (server-sent events).
// Tokens only ever travel as `Authorization: Bearer`, never in a URL.

import { t } from "./i18n.js";
import { sleep } from "./ui.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || t("api.answered", { status: String(status) }));
    this.status = status;
    this.code = body?.code || String(status);
    this.details = body?.details || {};
  }
}

const RETRIES = 4;

// One request. Busy answers (429, 503, 504) and lost connections are retried
// with the same idempotency key, which returns the first outcome if it was applied.
export async function api(path, { method = "GET", body, token, key, signal } = {}) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers["idempotency-key"] = key;
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        cache: "no-store",
      });
    } catch (err) {
      if (signal?.aborted || attempt >= RETRIES) throw err;
      await sleep(300 * (attempt + 1), signal);
      continue;
    }
    const data = await response.json().catch(() => null);
    if (response.ok) return data;
    const busy = [429, 503, 504].includes(response.status);
    if (busy && attempt < RETRIES && !signal?.aborted) {
      const wait = Number(response.headers.get("retry-after")) * 1000 || 300 * (attempt + 1);
      await sleep(Math.min(wait, 5000), signal);
      continue;
    }
    throw new ApiError(response.status, data);
  }
}

// Follow a feed: `onEvent(entry, id)` for each event after `after`, in order,
// once each, across dropped connections (the server resumes after the last
// id it is given). Without a token a browser EventSource does it (it sends
// Last-Event-ID by itself); a seat's feed needs its token in a header, which
// EventSource cannot send, so it is read with fetch. Returns {close()}.
export function follow(path, { token, after = 0, kind = "game-event", onEvent, onEnd, onStatus }) {
  const feed = { last: after, closed: false };
  const status = (text) => onStatus?.(text);
  const deliver = (id, data) => {
    if (id <= feed.last) return; // a repeat after a reconnect
    feed.last = id;
    onEvent(JSON.parse(data), id);
  };
  const finish = () => {
    feed.closed = true;
    status("ended");
    onEnd?.();
  };
  if (!token) followWithEventSource(path, feed, kind, deliver, finish, status);
  else followWithFetch(path, token, feed, kind, deliver, finish, status);
  return {
    close() {
      feed.closed = true;
      feed.stop?.();
    },
  };
}

function followWithEventSource(path, feed, kind, deliver, finish, status) {
  let source = null;
  let timer = null;
  const open = () => {
    if (feed.closed) return;
    source = new EventSource(`${path}?after=${feed.last}`);
    source.onopen = () => status("live");
    source.addEventListener(kind, (e) => deliver(Number(e.lastEventId), e.data));
    // The server cut this stream (a slow reader): reopen at once, from the last id.
    source.addEventListener("reconnect", () => {
      source.close();
      status("reconnecting");
      timer = setTimeout(open, 100);
    });
    source.addEventListener("end", () => {
      source.close();
      finish();
    });
    source.onerror = () => {
      if (feed.closed) return;
      status("reconnecting");
      // The browser retries a dropped stream itself; after an HTTP error it gives up.
      if (source.readyState === EventSource.CLOSED) timer = setTimeout(open, 2000);
    };
  };
  feed.stop = () => {
    clearTimeout(timer);
    source?.close();
  };
  open();
}

function followWithFetch(path, token, feed, kind, deliver, finish, status) {
  let controller = null;
  feed.stop = () => controller?.abort();
  (async () => {
    let pause = 250;
    while (!feed.closed) {
      controller = new AbortController();
      let ended = false;
      try {
        const response = await fetch(`${path}?after=${feed.last}`, {
          headers: {
            authorization: `Bearer ${token}`,
            accept: "text/event-stream",
            "last-event-id": String(feed.last),
          },
          signal: controller.signal,
          cache: "no-store",
        });
        if (response.ok) {
          status("live");
          pause = 250;
          ended = await readFrames(response.body, (frame) => {
            if (frame.event === kind && frame.id !== null) deliver(frame.id, frame.data);
            else if (frame.event === "end") return "end";
            else if (frame.event === "reconnect") return "cut";
            return null;
          });
        } else if (response.status === 403 || response.status === 404 || response.status === 401) {
          status("refused");
          return;
        }
      } catch {
        // A dropped connection: resume below.
      }
      if (ended) {
        finish();
        return;
      }
      if (feed.closed) return;
      status("reconnecting");
      await sleep(pause);
      pause = Math.min(pause * 2, 5000);
    }
  })();
}

// Parse an SSE body; `handle(frame)` answers "end" or "cut" to stop reading.
async function readFrames(body, handle) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += value;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const frame = { id: null, event: "message", data: "" };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") frame.id = Number(value);
          else if (field === "event") frame.event = value;
          else if (field === "data") frame.data += (frame.data ? "\n" : "") + value;
        }
        const verdict = handle(frame);
        if (verdict === "end") return true;
        if (verdict === "cut") return false;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// A view document's legal moves, one by one, in the game's order. Documents
// list them in groups (the README's bot API; shared/kernel/legal_groups.py):
// {command} is one move, {command, each, values} is `command` with its field
// `each` added, set to each value in turn (a Tigris tile on each square it
// may go). Expanded once per document, so renderers keep a flat list.
const expanded = new WeakMap();

export function legalMoves(doc) {
  let moves = expanded.get(doc);
  if (!moves) {
    moves = [];
    for (const group of doc.legal || []) {
      if (group.each === undefined) moves.push(group.command);
      else for (const value of group.values) moves.push({ ...group.command, [group.each]: value });
    }
    expanded.set(doc, moves);
  }
  return moves;
}

let gamesPromise = null;

// A hosted game's title in the page's language: the name its players know it by
// in the rule documents (Kuninkaiden kamppailu, Kaupungit ja ritarit, Euphrat & Tigris);
// the API's English title for a game the client has no name for.
function localTitle(game) {
  const titles = {
    tigris: () => t("game.tigris"),
    "tigris-cards": () => t("game.tigris_cards"),
    catan: () => t("game.catan"),
    "catan-ck": () => t("game.catan_ck"),
    conan: () => t("game.conan"),
  };
  return Object.hasOwn(titles, game.key) ? { ...game, title: titles[game.key]() } : game;
}

// The hosted games (cached for the page's life), titled in the page's language.
export function games() {
  gamesPromise =
    gamesPromise ||
    api("/v1/games")
      .then((listed) => (Array.isArray(listed) ? listed.map(localTitle) : listed))
      .catch((err) => {
        gamesPromise = null;
        throw err;
      });
  return gamesPromise;
}

export async function gameTitle(key) {
  try {
    return (await games()).find((g) => g.key === key)?.title || key;
  } catch {
    return key;
  }
}
