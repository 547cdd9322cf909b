// The online table's transport: WebRTC data channels between the players' browsers, signalled over
// public BitTorrent WebSocket trackers through Trystero. Bundled by tools/build.py (esbuild) into
// web/online.js and loaded only when a player goes online. It moves text; all of the protocol
// (checks, seats, the game) is Python: web/hearts_web/online/.
import { joinRoom, selfId } from "@trystero-p2p/torrent";
import qrcode from "qrcode-generator";

// Join ``roomId``. Messages that are not text or longer than ``maxLength`` are dropped here, before
// they reach Python (a flood of big messages costs the host next to nothing).
export function connect(config, roomId, handlers, maxLength) {
  const room = joinRoom(
    { appId: config.appId, relayConfig: { urls: config.relays }, rtcConfig: { iceServers: config.iceServers } },
    roomId,
  );
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
    // tests only: send raw text to every peer, as a hostile guest would
    window.__heartsOnlineSend = (text) => channel.send(text).catch(() => {});
  }
  return {
    selfId,
    send(peerId, text) {
      return channel.send(text, peerId ? { target: peerId } : undefined).catch(() => {});
    },
    leave() {
      window.removeEventListener("pagehide", leave);
      return room.leave();
    },
    dropped: () => dropped,
    peers: () => Object.keys(room.getPeers()),
  };
}

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
