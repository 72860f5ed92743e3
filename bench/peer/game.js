// High card for boardgame.io: the same shape as Ziggurat's fixture game
// (tests/support/highcard.py). The server shuffles a numbered deck and deals
// secret hands; seats play one card each per trick in turn; the highest card
// takes the trick and leads the next one; most tricks wins. Hands live in
// G.players, which PlayerView.STRIP_SECRETS removes for every other seat, and
// the move runs on the server only (client: false), as ours do.
const { PlayerView, INVALID_MOVE } = require("boardgame.io/core");

// The fixture game's defaults; a match's setupData may change them, as
// Ziggurat's table options do.
const DECK_SIZE = 20;
const HAND_SIZE = 3;

function setup({ ctx, random }, setupData) {
  const { deck_size: deckSize = DECK_SIZE, hand_size: handSize = HAND_SIZE } = setupData || {};
  const deck = random.Shuffle(Array.from({ length: deckSize }, (_, i) => i + 1));
  const players = {};
  const handSizes = {};
  const tricks = {};
  for (let seat = 0; seat < ctx.numPlayers; seat++) {
    const hand = deck.slice(seat * handSize, (seat + 1) * handSize).sort((a, b) => a - b);
    players[seat] = { hand };
    handSizes[seat] = hand.length;
    tricks[seat] = 0;
  }
  return { secret: { deck: deck.slice(ctx.numPlayers * handSize) }, players, handSizes, tricks, trick: [] };
}

function play({ G, ctx, playerID, events }, card) {
  const hand = G.players[playerID].hand;
  const at = hand.indexOf(card);
  if (at < 0) return INVALID_MOVE;
  hand.splice(at, 1);
  G.handSizes[playerID] = hand.length;
  G.trick.push([Number(playerID), card]);
  if (G.trick.length === ctx.numPlayers) {
    const [winner] = G.trick.reduce((best, t) => (t[1] > best[1] ? t : best));
    G.tricks[winner] += 1;
    G.trick = [];
    events.endTurn({ next: String(winner) });
  } else {
    events.endTurn();
  }
}

function endIf({ G, ctx }) {
  if (G.trick.length || Object.values(G.handSizes).some((n) => n > 0)) return undefined;
  const best = Math.max(...Object.values(G.tricks));
  return { winners: Object.keys(G.tricks).filter((s) => G.tricks[s] === best) };
}

const HighCard = {
  name: "highcard",
  setup,
  moves: { play: { move: play, client: false } },
  endIf,
  playerView: PlayerView.STRIP_SECRETS,
  minPlayers: 2,
  maxPlayers: 4,
};

module.exports = { HighCard };
