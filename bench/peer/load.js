// Load client for the boardgame.io peer:
// `node load.js PORT GAMES SEATS WARMUP_S DURATION_S OPTIONS_JSON`.
//
// Plays GAMES concurrent tables of high card flat out, each seat a
// boardgame.io Client on its own socket.io connection (the way boardgame.io's
// own clients talk to its server). A seat whose turn it is plays a random card
// of its hand; a move's latency runs from the call to the first state update
// that shows it. Finished tables are replaced by new ones. Prints
// "measuring" when the warm-up ends, then one JSON line of figures.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { HighCard } = require("./game");

const [port, games, seats, warmup, duration] = process.argv.slice(2, 7).map(Number);
const setupData = JSON.parse(process.argv[7] || "{}");
const server = `http://127.0.0.1:${port}`;
let measuring = false;
let stopping = false;
let moves = 0;
let finished = 0;
let errors = 0;
const latencies = [];

async function post(path, body) {
  const response = await fetch(`${server}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

async function table() {
  const { matchID } = await post("/games/highcard/create", { numPlayers: seats, setupData });
  const clients = [];
  for (let seat = 0; seat < seats; seat++) {
    const playerID = String(seat);
    const { playerCredentials } = await post(`/games/highcard/${matchID}/join`, { playerID, playerName: `p${seat}` });
    clients.push(Client({ game: HighCard, multiplayer: SocketIO({ server }), matchID, playerID, credentials: playerCredentials, debug: false }));
  }
  await new Promise((done) => {
    let open = seats;
    for (const client of clients) {
      let sent = null; // [stateID the move was made on, time]
      let over = false;
      client.subscribe((state) => {
        if (over || !state || !state.G || !state.G.players) return;
        if (sent && state._stateID > sent[0]) {
          if (measuring) {
            moves += 1;
            latencies.push(performance.now() - sent[1]);
          }
          sent = null;
        }
        if (state.ctx.gameover) {
          // Stopping notifies the subscribers again: leave the callback first.
          over = true;
          setImmediate(() => client.stop());
          if (--open === 0) done();
          return;
        }
        if (stopping || sent || state.ctx.currentPlayer !== client.playerID) return;
        const hand = state.G.players[client.playerID].hand;
        sent = [state._stateID, performance.now()];
        client.moves.play(hand[Math.floor(Math.random() * hand.length)]);
      });
      client.start();
    }
  });
  if (measuring) finished += 1;
}

async function seatRunner() {
  while (!stopping) {
    try {
      await table();
    } catch (error) {
      errors += 1;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function quantile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null;
}

async function main() {
  const runners = Array.from({ length: games }, seatRunner);
  await new Promise((r) => setTimeout(r, warmup * 1000));
  measuring = true;
  const start = performance.now();
  process.stdout.write("measuring\n");
  await new Promise((r) => setTimeout(r, duration * 1000));
  measuring = false;
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write("measured\n");
  latencies.sort((a, b) => a - b);
  const figures = {
    moves,
    seconds,
    moves_per_s: moves / seconds,
    games_finished: finished,
    errors,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
  };
  process.stdout.write(JSON.stringify(figures) + "\n");
  stopping = true;
  process.exit(0);
  return runners;
}

main();
