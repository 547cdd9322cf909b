#!/usr/bin/env node
// A local signalling relay for the online table: a BitTorrent WebSocket tracker on 127.0.0.1 only.
// For tests and development, never for players:
//   node tools/relay.mjs [--port 8001]        prints "relay ws://127.0.0.1:PORT/" when it listens
// Then serve the game with `python3 tools/serve.py --connect-src ws://127.0.0.1:PORT/` and open
// http://127.0.0.1:8000/?relay=ws://127.0.0.1:PORT/ (the page honours ?relay= only on loopback).
import http from "node:http";
import Tracker from "bittorrent-tracker/server";

const arg = process.argv.indexOf("--port");
const port = arg > 0 ? Number(process.argv[arg + 1]) : 0;
// interval: clients re-announce soon after a missed connection (the default, 10 minutes, is for
// public trackers; a test must not wait that long)
const tracker = new Tracker({ http: false, udp: false, stats: false, interval: 5000, ws: { noServer: true } });
tracker.on("error", (err) => console.error("relay error:", err.message));
tracker.on("warning", (err) => console.error("relay warning:", err.message));

const server = http.createServer((req, res) => {
  res.writeHead(404);
  res.end();
});
server.on("upgrade", (req, socket, head) => {
  tracker.ws.handleUpgrade(req, socket, head, (ws) => tracker.ws.emit("connection", ws, req));
});
server.listen(port, "127.0.0.1", () => {
  console.log(`relay ws://127.0.0.1:${server.address().port}/`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
