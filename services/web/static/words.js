// Commands and events in words, for any game: what a page falls back to when
// a game's own renderer has no words for something.

import { list, t } from "./i18n.js";
import { reason, short } from "./ui.js";

// "trick_taken" -> "trick taken"; "tigris.position_leader" -> "position leader".
export function words(text) {
  const raw = String(text ?? "");
  const last = raw.includes(".") ? raw.slice(raw.lastIndexOf(".") + 1) : raw;
  return last
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim();
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// "1st", "1.", "1.": the language's ordinal (its plural rules of type ordinal pick the form).
export function ordinal(n) {
  return t("ordinal", { count: n });
}

export function listWords(items) {
  return list(items);
}

// A refused move in words: the client's own sentence for a platform or a game's
// rule code, else the server's message (a code the client does not know), else its code.
export function refusalWords(reply, otherwise = t("refusal.refused")) {
  return t("refusal.not_accepted", { reason: (reply && reason(reply)) || otherwise });
}

// A seat's display name (a tournament's player), or "Seat 2" ("Player 2" for
// games that call them so).
export function seatName(ctx, seat, called = "Seat") {
  const names = ctx?.names;
  const n = names?.[seat];
  const number = Number(seat) + 1;
  return n || (called === "Player" ? t("seat.player", { n: number }) : t("seat.name", { n: number }));
}

// The seats' display names of a table as the lobby or /about lists it: a
// tournament's players by name; otherwise the API's "Seat 2" placeholders,
// which are English, said in the page's language instead.
export function seatNames(listed, seats) {
  if (listed?.tournament_id && listed.names?.length === seats) return listed.names;
  return Array.from({ length: seats }, (_, s) => seatName(null, s));
}

// A value in words: "priest", "column 0 row 3", "4, 5 and 12".
export function valueWords(value, depth = 0) {
  if (value === null || value === undefined) return t("value.none");
  if (typeof value === "boolean") return value ? t("value.yes") : t("value.no");
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return words(value);
  if (Array.isArray(value)) {
    if (!value.length) return t("value.none");
    const parts = value.map((v) => valueWords(v, depth + 1));
    return depth ? `(${parts.join(", ")})` : listWords(parts);
  }
  const parts = Object.entries(value)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)} ${valueWords(v, depth + 1)}`);
  return parts.join(depth ? " " : ", ");
}

function clip(text, n = 160) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

// "play card 4"; "position leader: leader priest, square 17".
export function genericLabel(command) {
  if (!command || typeof command !== "object") return String(command);
  const verb = words(command.type || "move");
  const fields = Object.entries(command).filter(([k]) => k !== "type");
  if (!fields.length) return capital(verb);
  if (fields.length === 1) return capital(`${verb} ${words(fields[0][0])} ${valueWords(fields[0][1], 1)}`);
  return capital(`${verb}: ${fields.map(([k, v]) => `${words(k)} ${valueWords(v, 1)}`).join(", ")}`);
}

// "Seat 1: played, card 4."
export function genericSentence(event, ctx) {
  const verb = words(event.type || "event");
  const fields = Object.entries(event).filter(([k]) => k !== "type" && k !== "seat");
  const rest = fields.map(([k, v]) => `${words(k)} ${valueWords(v, 1)}`).join(", ");
  const subject = Number.isInteger(event.seat) ? `${seatName(ctx, event.seat)}: ` : "";
  return clip(`${subject}${capital(verb)}${rest ? `, ${rest}` : ""}.`);
}

// The platform's own events (every game has them); "" for those not worth a line.
export function tableSentence(event, ctx) {
  switch (event.type) {
    case "table.opened":
      return t("event.opened", { count: event.seats, commitment: short(event.commitment, 16) });
    case "table.finished": {
      const places = [...(event.result?.standings || [])]
        .sort((a, b) => a.place - b.place)
        .map((st) =>
          t("event.place", { place: ordinal(st.place), name: seatName(ctx, st.seat), score: st.score }),
        );
      const params = { places: listWords(places), seed: short(event.seed, 16) };
      return event.result?.reason
        ? t("event.finished_why", { ...params, why: words(event.result.reason) })
        : t("event.finished", params);
    }
    case "table.timed_out":
      return event.policy === "forfeit"
        ? t("event.timed_out_forfeit", { name: seatName(ctx, event.seat) })
        : t("event.timed_out_bot", { name: seatName(ctx, event.seat) });
    case "table.forfeited":
      return t("event.forfeited", { name: seatName(ctx, event.seat) });
    case "table.clock":
    case "table.sealed":
      return "";
    default:
      return null;
  }
}

// The sentence for one event: the platform's, the game's own, or the generic one.
export function sentence(renderer, event, ctx) {
  const platform = tableSentence(event, ctx);
  if (platform !== null) return platform;
  if (renderer && typeof renderer.describe === "function") {
    try {
      const text = renderer.describe(event, ctx);
      if (text) return String(text);
    } catch (err) {
      console.error("describe failed", event, err);
    }
  }
  return genericSentence(event, ctx);
}

export function commandLabel(renderer, command, ctx) {
  if (renderer && typeof renderer.label === "function") {
    try {
      const text = renderer.label(command, ctx);
      if (text) return String(text);
    } catch (err) {
      console.error("label failed", command, err);
    }
  }
  return genericLabel(command);
}

// "Anna wins with 12; Ben 2nd with 9": a finished game's result.
export function resultWords(result, ctx) {
  if (!result) return "";
  const places = [...result.standings].sort((a, b) => a.place - b.place);
  const first = places.filter((st) => st.place === 1).map((st) => seatName(ctx, st.seat));
  const top = places.find((st) => st.place === 1);
  const score = top ? top.score : 0;
  const head =
    first.length > 1
      ? t("result.shared", { names: listWords(first), score })
      : t("result.wins", { name: first[0], score });
  const rest = places
    .filter((st) => st.place !== 1)
    .map((st) =>
      t("result.rest", { name: seatName(ctx, st.seat), place: ordinal(st.place), score: st.score }),
    );
  const parts = { head, rest: rest.join(", ") };
  const line = rest.length ? t("result.line_rest", parts) : t("result.line", parts);
  return result.reason ? t("result.why", { line, why: words(result.reason) }) : t("result.end", { line });
}
