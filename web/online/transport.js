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

// Every RTCPeerConnection this page makes, counted: how many were made, how many are still open,
// and whether an exchange is under way (an offer or answer applied, not yet connected, failed or
// closed). A peer that found no path (ICE failed after the exchange) is reported at once.
const peerConnections = { made: 0, open: new Set() };
function trackedPeerConnection(onNoPath) {
  return class TrackedPeerConnection extends RTCPeerConnection {
    constructor(config) {
      super(config);
      peerConnections.made += 1;
      peerConnections.open.add(this);
      this.addEventListener("iceconnectionstatechange", () => {
        if (this.iceConnectionState === "failed" && this.remoteDescription) onNoPath();
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

// The relays' state, as a player understands it: how many of the room's relays are connected, and
// whether every one of them has failed since any last worked (then nothing can introduce anyone).
function watchRelays(urls, report) {
  const failed = new Set(urls); // not (yet) seen open since the last failure
  const watched = new WeakSet();
  let said = "";
  const look = () => {
    const sockets = getRelaySockets();
    let open = 0;
    for (const url of urls) {
      const socket = sockets[url];
      if (socket && !watched.has(socket)) {
        watched.add(socket);
        socket.addEventListener("open", () => failed.delete(url));
        socket.addEventListener("close", () => failed.add(url));
      }
      if (socket?.readyState === WebSocket.OPEN) {
        open += 1;
        failed.delete(url);
      } else if (!socket || socket.readyState >= WebSocket.CLOSING) {
        failed.add(url);
      }
    }
    const allFailed = open === 0 && urls.every((url) => failed.has(url));
    const now = `${open}/${urls.length}/${allFailed}`;
    if (now !== said) {
      said = now;
      report(open, urls.length, allFailed);
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
// relays(open, total, allFailed), noPath(peer or ""), halfOpen(peer).
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
  const stopWatching = watchRelays(config.relays, (open, total, allFailed) => handlers.relays(open, total, allFailed));
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
  };
}

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
