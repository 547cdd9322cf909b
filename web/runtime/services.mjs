// What only a page can do for the game's worker, by name (hearts_web.core.dom.call): the clipboard,
// sharing, fullscreen, a download, the lock of the tab that owns the game, asking the browser to keep the site's data, a picked file's
// text, the online table's transport (WebRTC exists on pages only). Each returns a value or a
// promise of one; a failure is the worker's exception.

import { makeDialogFocus } from "./dialog.mjs";

const LOCK = "hearts.game";
// Web Locks on this page (the page's facts tell the worker the same answer)
export const hasLocks = () => typeof navigator.locks?.request === "function";
const online = { module: null, links: new Map(), keys: new Map(), next: 1 };

async function transport() {
  online.module ||= await import(new URL("../web/online.js", import.meta.url).href);
  return online.module;
}

export function makeServices({ doc, post, nodeOf }) {
  const tell = (link, kind, args) => post({ t: "link", link, kind, args });
  const lock = (mode) => new Promise((resolve) => {
    const options = { try: { ifAvailable: true }, steal: { steal: true } }[mode] || {};
    navigator.locks.request(LOCK, options, (held) => {
      resolve(Boolean(held));
      return held ? new Promise(() => {}) : undefined; // held until the page goes
    }).catch(() => post({ t: "lock-lost" }));
  });
  // The game's first "try" is asked as the page starts (the worker's first question is this one,
  // once Python is up): its answer is there when the worker asks.
  let firstTry = hasLocks() ? lock("try") : null;
  return {
    clipboard: (text) => navigator.clipboard.writeText(text).then(() => true),
    share: (data) => navigator.share(data).then(() => true),
    canShare: () => typeof navigator.share === "function",
    fullscreen: async () => {
      if (doc.fullscreenElement) await doc.exitFullscreen();
      else await doc.documentElement.requestFullscreen();
      return Boolean(doc.fullscreenElement);
    },
    download: (name, text, type) => {
      const url = URL.createObjectURL(new Blob([text], { type }));
      const a = doc.createElement("a");
      a.href = url;
      a.download = name;
      a.hidden = true;
      doc.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      return true;
    },
    pick: (vid) => {
      const input = nodeOf(vid);
      if (!input) return null;
      input.value = "";
      input.click();
      return true;
    },
    picked: async (vid, maxBytes) => {
      const file = nodeOf(vid)?.files?.[0];
      return file ? { name: file.name, size: file.size, text: file.size <= maxBytes ? await file.text() : null } : null;
    },
    width: (vid) => nodeOf(vid)?.clientWidth ?? 0,
    dialogFocus: makeDialogFocus(doc),
    // the game's lock (one tab owns the game: hearts_web.tabs), held by the page, so that it goes
    // with the page the moment the tab closes or reloads: "try", "wait" or "steal"; true once held
    // (false: "try" found it taken). A lock another tab steals is told as {t: "lock-lost"}.
    lock: (mode) => {
      const early = mode === "try" ? firstTry : null;
      firstTry = null;
      return early || lock(mode);
    },
    persist: async () => (navigator.storage?.persist ? navigator.storage.persist() : null),
    persisted: async () => (navigator.storage?.persisted ? navigator.storage.persisted() : null),
    // the online table: web/online.js, loaded on first use (not precached); each room is the
    // number the worker gave it, its events and its state (polled: peers, an exchange under way,
    // whether a browser answered) told as {t: "link", link, kind, args}
    onlineLoad: async () => (await transport()).selfId,
    onlineConnect: async (link, config, room, maxLength) => {
      const module = await transport();
      const handlers = {
        message: (peer, text) => tell(link, "message", [peer, text]),
        join: (peer) => tell(link, "join", [peer]),
        leave: (peer) => tell(link, "leave", [peer]),
        relays: (open, total, trying, failed) => tell(link, "relays", [open, total, trying, failed]),
        noPath: (peer) => tell(link, "noPath", [peer]),
        halfOpen: (peer) => tell(link, "halfOpen", [peer]),
      };
      const connection = module.connect(config, room, handlers, maxLength);
      let said = "";
      const poll = setInterval(() => {
        const state = { peers: connection.peers(), exchanging: connection.exchanging(),
          answered: connection.answered() };
        const now = JSON.stringify(state);
        if (now !== said) {
          said = now;
          tell(link, "state", [state]);
        }
      }, 250);
      online.links.set(link, { connection, poll });
      return true;
    },
    onlineSend: (link, peer, text) => { online.links.get(link)?.connection.send(peer, text); return true; },
    onlineLeave: async (link) => {
      const room = online.links.get(link);
      online.links.delete(link);
      if (room) {
        clearInterval(room.poll);
        await room.connection.leave();
      }
      return true;
    },
    onlineQr: async (text) => (await transport()).qrSvg(text),
    onlineHostKey: async (stored) => {
      const key = await (await transport()).hostKey(stored);
      const id = online.next++;
      online.keys.set(id, key);
      return { key: id, privateJwk: key.privateJwk, publicKey: key.publicKey };
    },
    onlineSign: async (key, text) => online.keys.get(key).sign(text),
    onlineVerify: async (publicKey, text, signature) => (await transport()).verifyHost(publicKey, text, signature),
    onlineCounts: async () => (await transport()).peerConnectionCounts(),
  };
}
