// @ts-check
// The live connection to a game: one WebSocket per seat this browser holds
// (so the server sees each of them online), or one for a spectator. Events
// are numbered; each is handled once, in order, whichever socket brings it.
// A socket that drops reconnects by itself, with growing waits, asking for
// the events after the last one handled. Once the game is over the sockets
// stay open (?rematch=1) and bring its rematch offer (rematch.js).

import { request } from './api.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {'connecting'|'open'|'reconnecting'|'over'} Status
 * @typedef {{onEvent: (e: GameEvent, live: boolean) => void,
 *   onStatus: (s: Status, detail: string) => void,
 *   onError?: (e: GameEvent) => void,
 *   onRematch?: (r: import('./api.js').Rematch) => void}} Handlers
 *   live: false for the events that happened before the page connected
 */

export class Connection {
  /**
   * @param {string} id the game
   * @param {Record<string, string>} tokens the seat tokens held, by seat name
   * @param {Handlers} handlers
   */
  constructor(id, tokens, handlers) {
    this.id = id;
    this.tokens = tokens;
    this.handlers = handlers;
    /** the number of the last event handled */
    this.lastSeq = 0;
    /** events up to this number happened before the page connected */
    this.history = -1;
    /** @type {Socket[]} */
    this.sockets = [];
    this.status = /** @type {Status} */ ('connecting');
    this.closed = false;
    const seats = Object.keys(tokens);
    const list = seats.length ? seats.map((s) => tokens[s]) : [''];
    for (const token of list) this.sockets.push(new Socket(this, token));
    window.addEventListener('offline', () => this.sockets.forEach((s) => s.drop()));
    window.addEventListener('online', () => this.sockets.forEach((s) => s.retryNow()));
  }

  start() {
    this.sockets.forEach((s) => s.open());
  }

  close() {
    this.closed = true;
    this.sockets.forEach((s) => s.close());
  }

  /**
   * take handles a message from one of the sockets.
   * @param {Socket} from
   * @param {GameEvent} e
   */
  take(from, e) {
    if (e.kind === 'hello') {
      if (this.history < 0) this.history = e.last || 0;
      return;
    }
    if (e.kind === 'error') {
      if (this.handlers.onError) this.handlers.onError(e);
      return;
    }
    if (e.kind === 'rematch') {
      const r = /** @type {any} */ (e).rematch;
      if (r && this.handlers.onRematch) this.handlers.onRematch(r);
      return;
    }
    const seq = e.seq || 0;
    if (seq <= this.lastSeq) return;
    if (seq !== this.lastSeq + 1) {
      from.resync();
      return;
    }
    this.lastSeq = seq;
    this.handlers.onEvent(e, seq > this.history);
  }

  /** update works out the connection's status from its sockets'. */
  update() {
    if (this.closed) return;
    /** @type {Status} */
    let st;
    if (this.sockets.every((s) => s.over)) st = 'over';
    else if (this.sockets.some((s) => s.ws && s.ws.readyState === WebSocket.OPEN)) st = 'open';
    else if (this.sockets.some((s) => s.attempts > 0)) st = 'reconnecting';
    else st = 'connecting';
    const waits = this.sockets.filter((s) => s.nextTry > 0).map((s) => s.nextTry);
    const detail = waits.length ? `next try in ${Math.max(1, Math.round((Math.min(...waits) - Date.now()) / 1000))} s` : '';
    if (st !== this.status || st === 'reconnecting') {
      this.status = st;
      this.handlers.onStatus(st, detail);
    }
  }

  /**
   * act sends an action for a seat this browser holds, made after event
   * seq (the last handled, unless told): the server refuses it if the game
   * has moved on since. It resolves once the server has accepted it, and
   * rejects with the server's reason.
   * @param {string} seat
   * @param {string} action
   * @param {number} [seq]
   */
  act(seat, action, seq = this.lastSeq) {
    const token = this.tokens[seat];
    return request('POST', `/api/games/${encodeURIComponent(this.id)}/actions`,
      { action, seq }, { token });
  }

  /**
   * leave resigns a seat this browser holds, aborts the game for it, or
   * gives it to a bot (leave).
   * @param {string} seat
   * @param {'resign'|'abort'|'leave'} kind
   */
  leave(seat, kind) {
    return request('POST', `/api/games/${encodeURIComponent(this.id)}/actions`, { kind }, { token: this.tokens[seat] });
  }
}

/** Socket is one WebSocket of a connection, with its reconnection. */
class Socket {
  /**
   * @param {Connection} conn
   * @param {string} token '' for a spectator
   */
  constructor(conn, token) {
    this.conn = conn;
    this.token = token;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempts = 0;
    this.nextTry = 0;
    this.timer = 0;
    this.over = false;
  }

  open() {
    if (this.conn.closed || this.over) return;
    clearTimeout(this.timer);
    this.nextTry = 0;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let url = `${proto}//${location.host}/api/games/${encodeURIComponent(this.conn.id)}/ws?after=${this.conn.lastSeq}&rematch=1`;
    if (this.token) url += `&token=${encodeURIComponent(this.token)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.conn.update();
    };
    ws.onmessage = (m) => {
      let e;
      try { e = JSON.parse(String(m.data)); } catch { return; }
      this.conn.take(this, e);
    };
    ws.onclose = (c) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (c.code === 1000 && /game over/.test(c.reason)) {
        this.over = true;
        this.conn.update();
        return;
      }
      this.schedule();
    };
  }

  /** schedule reconnects after a wait that grows with each failure. */
  schedule() {
    if (this.conn.closed || this.over) return;
    this.attempts++;
    const wait = Math.min(10000, 400 * 2 ** Math.min(this.attempts - 1, 5)) * (0.8 + Math.random() * 0.4);
    this.nextTry = Date.now() + wait;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.open(), wait);
    this.conn.update();
  }

  /** drop closes the socket as if the network had failed; it reconnects. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.close();
    this.schedule();
  }

  /** retryNow reconnects at once if the socket is waiting to. */
  retryNow() {
    if (!this.ws && !this.over) this.open();
  }

  /** resync reconnects at once, after the last event handled. */
  resync() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.open();
  }

  close() {
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
