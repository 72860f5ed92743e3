// The boardgame.io server for the peer benchmark: `node server.js PORT memory|flatfile DIR`.
const { Server, FlatFile } = require("boardgame.io/server");
const { HighCard } = require("./game");

const [port, storage, dir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const db = storage === "flatfile" ? new FlatFile({ dir, logging: false, ttl: false }) : undefined;
const server = Server({ games: [HighCard], db, origins: ["*"] });
server.run({ port, callback: () => process.stdout.write(`ready ${port}\n`) });
