// The online table's transport: WebRTC data channels between the players' browsers, signalled over
// public Nostr relays through Trystero. Bundled by tools/build.py (esbuild) into web/online.js and
// loaded only when a player goes online. It moves text and says how the connection is doing; all
// of the protocol (checks, seats, the game) is Python: web/hearts_web/online/.
import { joinRoom, selfId, getRelaySockets } from "@trystero-p2p/nostr";
import qrcode from "qrcode-generator";

const RELAY_POLL_MS = 250;
// How long a new connection's handshake may take once its data channel is open (Trystero's default
// is 10 s). Each side only says "ready", which takes well under a second; the rest is room for a
// busy page. A handshake that fails is one whose "ready" was lost, and the sooner a guest hears of
// it, the sooner it joins the room afresh.
const HANDSHAKE_MS = 5000;

// Evidence that no network path joins this page and a peer once offer and answer went through,
// sooner than the browser's own verdict (ICE "failed": about 15 s into the checks in Chromium):
// - nothing to try: no candidate pair for NOTHING_TO_TRY_MS (neither side has a candidate the
//   other can reach: no STUN or TURN server answered, only private addresses);
// - every pair checked failed;
// - nothing heard: for QUIET_MS of checks the peer answered none and sent none, on every pair, and
//   no new pair came to try. A path that exists answers within a second (0.03-0.26 s on the
//   simulated networks, TURN included: docs/online.md).
const NOTHING_TO_TRY_MS = 3000;
const QUIET_MS = 8000;
const PATH_POLL_MS = 500;
function watchPath(pc, onNoPath) {
  let quietSince = null; // checks under way, nothing heard since
  let emptySince = null; // no pair to check since
  let pairsSeen = 0;
  const done = ["connected", "completed", "failed", "closed"];
  const timer = setInterval(async () => {
    if (done.includes(pc.iceConnectionState) || pc.signalingState === "closed") {
      clearInterval(timer);
      return;
    }
    let stats;
    try {
      stats = await pc.getStats();
    } catch {
      return;
    }
    const pairs = [];
    stats.forEach((r) => { if (r.type === "candidate-pair") pairs.push(r); });
    const now = performance.now();
    const heard = pairs.some((r) => r.state === "succeeded" || (r.requestsReceived || 0) + (r.responsesReceived || 0) > 0);
    emptySince = pairs.length ? null : (emptySince ?? now);
    if (heard || !pairs.length) quietSince = null;
    else if (quietSince === null || pairs.length > pairsSeen) quietSince = now; // a new pair: wait again
    pairsSeen = Math.max(pairsSeen, pairs.length);
    const failed = pairs.length > 0 && pairs.every((r) => r.state === "failed");
    if (failed || now - (emptySince ?? now) >= NOTHING_TO_TRY_MS || now - (quietSince ?? now) >= QUIET_MS) {
      clearInterval(timer);
      onNoPath();
    }
  }, PATH_POLL_MS);
}

// Every RTCPeerConnection this page makes, counted: how many were made, how many are still open,
// how many exchanges went through (offer and answer applied), and whether one is under way (not yet
// connected, failed or closed). A peer that found no path is reported once (see watchPath; ICE
// "failed" too).
const peerConnections = { made: 0, open: new Set(), exchanges: 0 };
function trackedPeerConnection(onNoPath) {
  return class TrackedPeerConnection extends RTCPeerConnection {
    constructor(config) {
      super(config);
      peerConnections.made += 1;
      peerConnections.open.add(this);
      let exchanged = false;
      let told = false;
      const noPath = () => {
        if (!told) onNoPath();
        told = true;
      };
      this.addEventListener("iceconnectionstatechange", () => {
        if (this.iceConnectionState === "failed" && this.remoteDescription) noPath();
      });
      this.addEventListener("signalingstatechange", () => {
        if (!exchanged && this.signalingState === "stable" && this.remoteDescription && this.localDescription) {
          exchanged = true;
          peerConnections.exchanges += 1;
          watchPath(this, noPath);
        }
      });
    }

    close() {
      peerConnections.open.delete(this);
      super.close();
    }
  };
}
const exchanging = () => [...peerConnections.open].some((pc) =>
  pc.remoteDescription && ["new", "checking"].includes(pc.iceConnectionState));

// The relays' state from what their sockets did: how many are connected, how many are still on
// their first try (neither open nor closed yet: nothing is known of them), and whether every one of
// them has failed since any last worked (then nothing can introduce anyone). A relay whose socket
// does not exist yet is still to be tried, never failed. Told when a watched socket opens or
// closes, and looked at every RELAY_POLL_MS for sockets made since.
function watchRelays(urls, report) {
  const failed = new Set(); // tried, and closed since it last worked
  const settled = new Set(); // its first try has ended (it opened or closed)
  const watched = new WeakSet();
  let said = "";
  const look = () => {
    const sockets = getRelaySockets();
    let open = 0;
    for (const url of urls) {
      const socket = sockets[url];
      if (socket && !watched.has(socket)) {
        watched.add(socket);
        socket.addEventListener("open", () => { settled.add(url); failed.delete(url); look(); });
        socket.addEventListener("close", () => { settled.add(url); failed.add(url); look(); });
      }
      if (socket?.readyState === WebSocket.OPEN) {
        open += 1;
        settled.add(url);
        failed.delete(url);
      } else if (socket && socket.readyState >= WebSocket.CLOSING) {
        settled.add(url);
        failed.add(url);
      }
    }
    const trying = urls.filter((url) => !settled.has(url)).length;
    const allFailed = open === 0 && urls.every((url) => failed.has(url));
    const now = `${open}/${urls.length}/${trying}/${allFailed}`;
    if (now !== said) {
      said = now;
      report(open, urls.length, trying, allFailed);
    }
  };
  const timer = setInterval(look, RELAY_POLL_MS);
  look();
  return () => clearInterval(timer);
}

// Trystero's words for the two failures of a join the table acts on (its onJoinError): the build
// stops when Trystero does not say each exactly once (tools/vendor_pins.py).
export const TRYSTERO_WORDS = {"noPath": "after exchanging SDP", "halfOpen": "handshake timed out"};

// Join ``roomId``. ``config``: {appId, relays, iceServers, relayOnly}. Messages that are not text or
// longer than ``maxLength`` are dropped here, before they reach Python (a flood of big messages
// costs the host next to nothing). ``handlers``: message(peer, text), join(peer), leave(peer),
// relays(open, total, trying, allFailed), noPath(peer or ""), halfOpen(peer).
export function connect(config, roomId, handlers, maxLength) {
  const rtcConfig = { iceServers: config.iceServers };
  if (config.relayOnly) rtcConfig.iceTransportPolicy = "relay";
  const noPath = (peerId) => handlers.noPath(peerId ?? "");
  // A peer that could not join, said in the console beside the table's log. Trystero's words tell
  // the two cases the table acts on: "offer and answer went through, the browsers found no path",
  // and a handshake that timed out (the peer may count this page as joined: half open).
  function onJoinError({ error, peerId }) {
    console.debug(`online: joining ${String(peerId).slice(0, 8)} failed: ${error}`);
    if (String(error).includes(TRYSTERO_WORDS.noPath)) noPath(peerId);
    else if (String(error).includes(TRYSTERO_WORDS.halfOpen)) handlers.halfOpen?.(peerId);
  }
  const room = joinRoom(
    {
      appId: config.appId,
      relayConfig: { urls: config.relays },
      rtcConfig,
      rtcPolyfill: trackedPeerConnection(() => noPath("")),
    },
    roomId,
    { handshakeTimeoutMs: HANDSHAKE_MS, onJoinError },
  );
  const exchangesBefore = peerConnections.exchanges;
  const stopWatching = watchRelays(config.relays, (open, total, trying, allFailed) =>
    handlers.relays(open, total, trying, allFailed));
  const channel = room.makeAction("m");
  let dropped = 0;
  const log = window.__heartsOnlineLog; // tests only: every message this page received
  channel.onMessage = (data, context) => {
    if (typeof data !== "string" || data.length > maxLength) {
      dropped += 1;
      return;
    }
    if (Array.isArray(log)) log.push(data);
    handlers.message(context.peerId, data);
  };
  const trace = Array.isArray(log) ? (window.__heartsOnlinePeers = []) : null; // tests: who came and went
  room.onPeerJoin = (peerId) => {
    if (trace) trace.push(`join ${peerId} ${performance.now() | 0}`);
    handlers.join(peerId);
  };
  room.onPeerLeave = (peerId) => {
    if (trace) trace.push(`leave ${peerId} ${performance.now() | 0}`);
    handlers.leave(peerId);
  };
  const leave = () => room.leave();
  window.addEventListener("pagehide", leave);
  if (Array.isArray(log)) {
    // tests only: send raw text to every peer, as a hostile guest would; the open peer connections
    window.__heartsOnlineSend = (text) => channel.send(text).catch(() => {});
    window.__heartsOnlinePCs = peerConnections;
    window.__heartsOnlineJoinError = onJoinError; // tests only: a join failing as Trystero says it
  }
  return {
    selfId,
    send(peerId, text) {
      return channel.send(text, peerId ? { target: peerId } : undefined).catch(() => {});
    },
    leave() {
      window.removeEventListener("pagehide", leave);
      stopWatching();
      return room.leave();
    },
    dropped: () => dropped,
    peers: () => Object.keys(room.getPeers()),
    exchanging,
    answered: () => peerConnections.exchanges > exchangesBefore,
  };
}

// This page's peer id (Trystero's: one per page load).
export { selfId };

// How many RTCPeerConnections this page has made and how many are open (the tests watch that a
// failing join does not pile them up).
export const peerConnectionCounts = () => ({ made: peerConnections.made, open: peerConnections.open.size });

// The invitation link as an SVG QR code (for the phone next to you).
export function qrSvg(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}

// ----- who is the host: ECDSA P-256 (WebCrypto). The host's public key rides in the invitation
// link; the host proves itself to each guest by signing "<room>:<host peer>:<guest peer>", so a
// guest never takes another guest's messages for the host's.
const ALGO = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64 = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

// A new key pair, or the stored one (JWK text): {privateJwk, publicKey (base64url raw)}.
export async function hostKey(storedJwk) {
  let privateKey;
  let jwk;
  if (storedJwk) {
    jwk = JSON.parse(storedJwk);
    privateKey = await crypto.subtle.importKey("jwk", jwk, ALGO, true, ["sign"]);
  } else {
    const pair = await crypto.subtle.generateKey(ALGO, true, ["sign", "verify"]);
    privateKey = pair.privateKey;
    jwk = await crypto.subtle.exportKey("jwk", privateKey);
  }
  const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, ext: true };
  const publicKey = await crypto.subtle.importKey("jwk", publicJwk, ALGO, true, ["verify"]);
  const raw = await crypto.subtle.exportKey("raw", publicKey);
  return {
    privateJwk: JSON.stringify(jwk),
    publicKey: b64(raw),
    sign: async (text) => b64(await crypto.subtle.sign(SIGN, privateKey, new TextEncoder().encode(text))),
  };
}

export async function verifyHost(publicKey, text, signature) {
  try {
    const key = await crypto.subtle.importKey("raw", unb64(publicKey), ALGO, false, ["verify"]);
    return await crypto.subtle.verify(SIGN, key, unb64(signature), new TextEncoder().encode(text));
  } catch (e) {
    return false;
  }
}
