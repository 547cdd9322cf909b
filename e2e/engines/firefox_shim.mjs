#!/usr/bin/env node
// Debian's Firefox ESR for Playwright's WebDriver BiDi client (channel "moz-firefox").
//
// Playwright 1.65 speaks WebDriver BiDi to Firefox, but sends every new browser context
// `emulation.setMediaFeaturesOverride` (no colour scheme asked for: "no override"), which Firefox 153
// ESR does not know yet ("unknown command"), so no context could be made. Playwright starts this
// script as the browser: it starts firefox-esr with the same arguments, puts a WebSocket relay on
// loopback between the two, and answers that one command itself when it asks for no override (any
// other use of it goes on to Firefox and fails there, as it should). Everything else passes through.
//   HEARTS_FIREFOX: the browser to start (default: firefox-esr on the PATH)
import { spawn } from "node:child_process";
import WebSocket, { WebSocketServer } from "ws";

const browser = spawn(process.env.HEARTS_FIREFOX || "firefox-esr", process.argv.slice(2), {
  stdio: ["ignore", "inherit", "pipe"],
});
browser.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => browser.kill(signal));

// A no-op in Firefox's place: the command, asking for no override of any media feature.
const answeredHere = (message) =>
  message.method === "emulation.setMediaFeaturesOverride" &&
  Object.values(message.params?.features ?? {}).every((value) => value === null || value === undefined);

function relay(upstream, client, path) {
  const firefox = new WebSocket(upstream + path);
  const waiting = [];
  firefox.on("open", () => waiting.splice(0).forEach((text) => firefox.send(text)));
  firefox.on("message", (data) => client.send(data.toString()));
  firefox.on("close", () => client.close());
  firefox.on("error", () => client.close());
  client.on("close", () => firefox.close());
  client.on("message", (data) => {
    const text = data.toString();
    const message = JSON.parse(text);
    if (answeredHere(message)) {
      client.send(JSON.stringify({ type: "success", id: message.id, result: {} }));
    } else if (firefox.readyState === WebSocket.OPEN) {
      firefox.send(text);
    } else {
      waiting.push(text);
    }
  });
}

// Firefox says where it listens on stderr; Playwright reads the same line, with the relay's address.
let listening = false;
browser.stderr.on("data", (chunk) => {
  const text = chunk.toString();
  const found = !listening && text.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
  if (!found) return void process.stderr.write(chunk);
  listening = true;
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (client, request) => relay(found[1], client, request.url));
  server.on("listening", () =>
    process.stderr.write(text.replace(found[1], `ws://127.0.0.1:${server.address().port}`)));
});
