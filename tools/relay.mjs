#!/usr/bin/env node
// A local signalling relay for the online table: a small Nostr relay (NIP-01) that checks every
// event's id and signature like a public relay does, and forwards it to the subscriptions it
// matches. It keeps nothing: the table only sends ephemeral events (kinds 20000-29999).
// For tests and development, never for players:
//   node tools/relay.mjs [--port 8001] [--host 127.0.0.1]   prints "relay ws://HOST:PORT/" when it listens
// Then serve the game with `python3 tools/serve.py --connect-src ws://127.0.0.1:PORT/` and open
// http://127.0.0.1:8000/?relay=ws://127.0.0.1:PORT/ (the page honours ?relay= only on loopback).
import http from "node:http";
import { createHash } from "node:crypto";
import { etc, schnorr } from "@noble/secp256k1";
import { WebSocketServer } from "ws";

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const port = Number(option("--port", "0"));
const host = option("--host", "127.0.0.1");
const MAX_MESSAGE = 64 * 1024; // bytes: an offer with its candidates is a few KB
const MAX_SUBSCRIPTIONS = 50; // per connection
const RECENT = 10_000; // event ids remembered to answer a repeat with "duplicate:"

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const seen = new Set();

const send = (socket, message) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

// NIP-01: the id is the sha256 of [0, pubkey, created_at, kind, tags, content] as JSON.
async function checkEvent(event) {
  if (!event || typeof event !== "object") return "invalid: not an event";
  const { id, pubkey, created_at: createdAt, kind, tags, content, sig } = event;
  if (!HEX64.test(id ?? "") || !HEX64.test(pubkey ?? "") || !HEX128.test(sig ?? "")) return "invalid: bad id, pubkey or sig";
  if (!Number.isInteger(createdAt) || !Number.isInteger(kind) || typeof content !== "string") return "invalid: bad field";
  if (!Array.isArray(tags) || !tags.every((tag) => Array.isArray(tag) && tag.every((v) => typeof v === "string"))) {
    return "invalid: bad tags";
  }
  const digest = createHash("sha256").update(JSON.stringify([0, pubkey, createdAt, kind, tags, content])).digest("hex");
  if (digest !== id) return "invalid: event id does not match";
  try {
    const bytes = etc.hexToBytes;
    if (!(await schnorr.verifyAsync(bytes(sig), bytes(id), bytes(pubkey)))) return "invalid: bad signature";
  } catch {
    return "invalid: bad signature";
  }
  return null;
}

function matches(filter, event) {
  if (Array.isArray(filter.ids) && !filter.ids.includes(event.id)) return false;
  if (Array.isArray(filter.authors) && !filter.authors.includes(event.pubkey)) return false;
  if (Array.isArray(filter.kinds) && !filter.kinds.includes(event.kind)) return false;
  if (Number.isInteger(filter.since) && event.created_at < filter.since) return false;
  if (Number.isInteger(filter.until) && event.created_at > filter.until) return false;
  for (const [key, values] of Object.entries(filter)) {
    if (key.length === 2 && key[0] === "#" && Array.isArray(values)) {
      const name = key[1];
      if (!event.tags.some((tag) => tag[0] === name && values.includes(tag[1]))) return false;
    }
  }
  return true;
}

const server = http.createServer((req, res) => {
  res.writeHead(426, { "Content-Type": "text/plain" });
  res.end("a Nostr relay: connect with a WebSocket\n");
});
const relay = new WebSocketServer({ server, maxPayload: MAX_MESSAGE });

relay.on("connection", (socket) => {
  socket.subscriptions = new Map();
  socket.on("message", (data) => handle(socket, String(data)).catch((err) => send(socket, ["NOTICE", `error: ${err.message}`])));
  socket.on("error", () => {});
});

async function handle(socket, text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return send(socket, ["NOTICE", "invalid: not JSON"]);
  }
  if (!Array.isArray(message)) return send(socket, ["NOTICE", "invalid: not a message"]);
  const [type, ...rest] = message;
  if (type === "EVENT") return publish(socket, rest[0]);
  if (type === "REQ") {
    const [subId, ...filters] = rest;
    if (typeof subId !== "string" || !filters.every((f) => f && typeof f === "object")) {
      return send(socket, ["NOTICE", "invalid: bad REQ"]);
    }
    if (!socket.subscriptions.has(subId) && socket.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      return send(socket, ["CLOSED", subId, "error: too many subscriptions"]);
    }
    socket.subscriptions.set(subId, filters);
    return send(socket, ["EOSE", subId]); // nothing stored: the stored part ends at once
  }
  if (type === "CLOSE") return socket.subscriptions.delete(rest[0]);
  return send(socket, ["NOTICE", `invalid: unknown message type ${JSON.stringify(type)}`]);
}

async function publish(socket, event) {
  const problem = await checkEvent(event);
  if (problem) return send(socket, ["OK", event?.id ?? "", false, problem]);
  if (seen.has(event.id)) return send(socket, ["OK", event.id, true, "duplicate: already have this event"]);
  seen.add(event.id);
  if (seen.size > RECENT) seen.delete(seen.values().next().value);
  send(socket, ["OK", event.id, true, ""]);
  for (const client of relay.clients) {
    for (const [subId, filters] of client.subscriptions) {
      if (filters.some((filter) => matches(filter, event))) send(client, ["EVENT", subId, event]);
    }
  }
}

server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  console.log(`relay ws://${address}:${bound}/`);
});
const stop = () => {
  for (const client of relay.clients) client.terminate();
  server.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
