// @ts-check
// The lobby page: quick pairing (a pool of rules, time and rated or
// casual; Play and Cancel; bots after a wait, or people only), the live
// list of waiting seekers and open tables with names and ratings, opening
// a table and starting it with bots, and, once seated, the game. It
// talks to the server over one WebSocket (GET /api/lobby/ws, docs/api.md
// "The lobby"); closing the page withdraws the seek.

import * as api from './api.js';
import { me } from './accounts.js';
import { h, byId, replace, ago } from './dom.js';
import { ratingSpan, playerLink } from './people.js';
import { rememberedChoice, remember } from './choice.js';
import './session.js';

/**
 * @typedef {{name: string, rating: number, guest?: boolean, since: string, bots?: boolean}} SeekerView
 * @typedef {{pool: string, rules: string, turn_ms: number, rated: boolean, seekers: SeekerView[]}} PoolView
 * @typedef {{seat: string, open: boolean, name?: string, rating?: number, guest?: boolean}} TableSeat
 * @typedef {{id: string, rules: string, turn_ms: number, rated: boolean, min_rating?: number, max_rating?: number,
 *   seats: TableSeat[], created: string}} TableView
 * @typedef {{kind: string, name?: string, rating?: number, guest?: boolean, pools?: PoolView[], tables?: TableView[],
 *   pool?: string, since?: string, game?: string, seat?: string, token?: string, table?: TableView,
 *   error?: {code: string, message: string}, echo?: string}} LobbyEvent
 *   a message of the server on the lobby's WebSocket (docs/api.md, "The lobby")
 */

/** The time controls of the menu, in milliseconds, by a pool's TURN. */
const turnMS = { '15s': 15000, '30s': 30000, '1m0s': 60000, '5m0s': 300000, '1d': 86400000 };

/** @type {import('./api.js').Preset[]} */
let presets = [];

/** @param {string} id */
function sel(id) {
  return /** @type {HTMLSelectElement} */ (byId(id));
}

/** @returns {import('./choice.js').Choice} */
function choice() {
  return { rules: sel('rules').value, turn: sel('turn').value, rated: sel('rated').value, bots: sel('bots').value };
}

/** @param {import('./choice.js').Choice} c */
function poolKey(c) {
  return `${c.rules}/${c.turn}/${c.rated}`;
}

/**
 * poolWords says a pool's key in words: "chaturaji, 15 s a move, rated".
 * @param {string} key
 */
function poolWords(key) {
  const [rules, turn, kind] = key.split('/');
  const opt = [...sel('turn').options].find((o) => o.value === turn);
  return `${rules}, ${opt ? opt.text : turn}, ${kind}`;
}

class Lobby {
  constructor() {
    /** @type {WebSocket|null} */
    this.ws = null;
    this.seeking = false;
    this.signedIn = false;
    /** @type {string} */
    this.myName = '';
    /** the open table the client sits at, if any, and its seat there */
    this.table = '';
    this.tableSeat = '';
    /** whether the client opened its table (the view marks no opener), and asked to last */
    this.opener = false;
    this.opening = false;
    this.retry = 500;
    this.closed = false;
    /** a seek asked for before the socket opened */
    this.wantSeek = false;
    /** @type {PoolView[]} the lobby's pools as last shown */
    this.pools = [];
    /** @type {TableView[]} the open tables as last shown */
    this.tables = [];
  }

  connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retry = 500;
      document.body.dataset.lobby = 'open';
      if (this.seeking) this.send(this.seekMessage()); // a seek is withdrawn when its socket closes: ask again
      else if (this.wantSeek) { this.wantSeek = false; this.seek(); }
    });
    ws.addEventListener('message', (ev) => {
      /** @type {LobbyEvent} */
      let m;
      try { m = JSON.parse(String(ev.data)); } catch { return; }
      this.handle(m);
    });
    ws.addEventListener('close', () => {
      document.body.dataset.lobby = 'closed';
      if (this.closed) return;
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  /** @param {any} m */
  send(m) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  seekMessage() {
    const c = choice();
    const wait = Number(c.bots);
    return { kind: 'seek', pool: poolKey(c), bots: wait > 0, bot_wait_ms: wait > 0 ? wait * 1000 : 0 };
  }

  seek() {
    const c = choice();
    remember(c);
    if (c.rated === 'rated' && !this.signedIn) {
      byId('lobby-error').replaceChildren('Rated games are for signed-in players: ', h('a', { href: '/signin?next=/play' }, 'sign in'), ' or ', h('a', { href: '/signup?next=/play' }, 'make an account'), '.');
      return;
    }
    byId('lobby-error').textContent = '';
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.wantSeek = true;
      return;
    }
    this.seeking = true;
    this.send(this.seekMessage());
    this.showSeeking();
  }

  cancel() {
    this.seeking = false;
    this.send({ kind: 'withdraw' });
    this.showSeeking();
  }

  showSeeking() {
    const c = choice();
    byId('seek').hidden = this.seeking;
    byId('cancel').hidden = !this.seeking;
    for (const id of ['rules', 'turn', 'rated', 'bots']) sel(id).disabled = this.seeking;
    const status = byId('seek-status');
    status.classList.toggle('waiting', this.seeking);
    document.body.dataset.seeking = this.seeking ? 'yes' : 'no';
    if (!this.seeking) {
      status.textContent = '';
      return;
    }
    const wait = Number(c.bots);
    status.textContent = `Looking for players: ${poolWords(poolKey(c))}. ${wait > 0 ? `Bots fill the empty seats after ${wait} s.` : 'Waiting for people only.'}`;
  }

  /** @param {LobbyEvent} m */
  handle(m) {
    switch (m.kind) {
      case 'hello':
        this.myName = m.name || '';
        break;
      case 'lobby':
        this.render(m.pools || [], m.tables || []);
        break;
      case 'seeking':
        this.seeking = true;
        this.showSeeking();
        break;
      case 'withdrawn':
        this.seeking = false;
        this.showSeeking();
        break;
      case 'table':
        if (m.table && m.table.id !== this.table) this.opener = this.opening;
        this.table = m.table ? m.table.id : '';
        this.tableSeat = m.seat || '';
        if (m.table) this.render(this.pools, [m.table, ...this.tables.filter((t) => t.id !== this.table)]);
        break;
      case 'seated':
        this.seated(m);
        break;
      case 'error':
        byId('lobby-error').textContent = m.error ? m.error.message : 'The lobby refused that.';
        if (m.echo === 'seek' && this.seeking) { this.seeking = false; this.showSeeking(); }
        break;
    }
  }

  /**
   * seated keeps the seat's token and opens the game as that seat.
   * @param {LobbyEvent} m
   */
  seated(m) {
    if (!m.game) return;
    this.closed = true;
    this.seeking = false;
    if (m.seat && m.token) api.saveToken(m.game, m.seat, m.token);
    document.body.dataset.seated = m.game;
    // When and where this tab was seated, for the game page (and tests).
    try { sessionStorage.setItem('chaturaji.seated', JSON.stringify({ game: m.game, seat: m.seat, at: Date.now() })); } catch { /* private mode */ }
    location.href = `/game/${encodeURIComponent(m.game)}`;
  }

  /**
   * @param {PoolView[]} pools
   * @param {TableView[]} tables
   */
  render(pools, tables) {
    this.pools = pools;
    this.tables = tables;
    const waiting = pools.flatMap((p) => p.seekers.map((s) => h('li', { class: 'lobby-item', 'data-pool': p.pool },
      h('span', { class: 'who' }, who(s)),
      h('span', { class: 'small muted' }, poolWords(p.pool), s.bots ? ' · bots welcome' : '', ` · since ${ago(s.since)}`))));
    replace(byId('seekers'), ...(waiting.length ? waiting : [h('li', { class: 'empty' }, 'Nobody is waiting.')]));
    replace(byId('tables'), ...(tables.length ? tables.map((t) => this.tableItem(t))
      : [h('li', { class: 'empty' }, 'No open tables.')]));
    document.body.dataset.seekers = String(pools.reduce((n, p) => n + p.seekers.length, 0));
  }

  /** @param {TableView} t */
  tableItem(t) {
    const range = t.min_rating || t.max_rating ? ` · ratings ${t.min_rating || 'any'} to ${t.max_rating || 'any'}` : '';
    const open = t.seats.filter((s) => s.open && !s.name).length;
    const turn = Object.entries(turnMS).find(([, ms]) => ms === t.turn_ms);
    const pool = `${t.rules}/${turn ? turn[0] : `${t.turn_ms / 1000}s`}/${t.rated ? 'rated' : 'casual'}`;
    const mine = t.id === this.table;
    const button = mine && this.opener
      ? h('button', { type: 'button', class: 'primary small', 'data-start': t.id, onclick: () => this.send({ kind: 'start' }) }, 'Start with bots')
      : mine ? h('button', { type: 'button', class: 'secondary small', 'data-leave': t.id, onclick: () => this.send({ kind: 'leave' }) }, 'Leave')
      : open > 0 ? h('button', { type: 'button', class: 'primary small', 'data-join': t.id, onclick: () => { this.opening = false; this.send({ kind: 'join', table: t.id }); } }, 'Join') : null;
    return h('li', { class: 'lobby-item', 'data-table': t.id },
      h('span', { class: 'who' }, ...t.seats.filter((s) => s.name).map((s) => who(/** @type {any} */ (s)))),
      h('span', { class: 'small muted' }, `${poolWords(pool)} · ${open} open${range}`),
      button);
  }

  openTable() {
    const c = choice();
    const pr = presets.find((p) => p.name === c.rules);
    if (!pr) return;
    const num = (/** @type {string} */ id) => {
      const v = /** @type {HTMLInputElement} */ (byId(id)).value;
      return v === '' ? undefined : Number(v);
    };
    const seats = pr.seats.map((s) => s.seat);
    const open = seats.slice(1, 1 + Number(sel('table-open').value));
    this.opening = true;
    this.send({
      kind: 'open', rules: c.rules, turn_ms: turnMS[/** @type {keyof typeof turnMS} */ (c.turn)], rated: c.rated === 'rated',
      seat: seats[0], open, min_rating: num('table-min'), max_rating: num('table-max'),
    });
  }
}

/**
 * who shows a player of the lobby: a name (a link to the profile of a
 * signed-in player) and rating.
 * @param {{name: string, rating?: number, guest?: boolean}} p
 */
function who(p) {
  const name = p.guest ? h('span', {}, p.name) : playerLink(p.name);
  return h('span', { class: 'lobby-player', 'data-name': p.name }, name, ' ',
    p.guest || typeof p.rating !== 'number' ? null : ratingSpan({ rating: p.rating }));
}

async function main() {
  const lobby = new Lobby();
  try {
    presets = await api.presets();
  } catch (e) {
    byId('lobby-error').textContent = `The server cannot be reached: ${/** @type {Error} */ (e).message}`;
  }
  replace(sel('rules'), ...presets.map((p) => h('option', { value: p.name, title: p.title }, p.name)));
  const c = rememberedChoice();
  // A wait before bots chosen elsewhere (a link, a test) joins the menu.
  if (/^[0-9]{1,4}$/.test(c.bots) && ![...sel('bots').options].some((o) => o.value === c.bots)) {
    sel('bots').append(h('option', { value: c.bots }, `bots after ${c.bots} s`));
  }
  for (const [id, v] of Object.entries(c)) {
    const s = sel(id);
    if ([...s.options].some((o) => o.value === v)) s.value = v;
  }
  try {
    const who = await me();
    lobby.signedIn = !!who;
    lobby.myName = who ? who.name : '';
  } catch { /* a guest */ }
  const explain = () => {
    byId('rated-about').textContent = sel('rated').value === 'rated'
      ? (lobby.signedIn ? 'Your rating moves with the result.' : 'Rated games are for signed-in players.')
      : 'No rating changes: guests welcome.';
  };
  sel('rated').addEventListener('change', explain);
  for (const id of ['rules', 'turn', 'rated', 'bots']) sel(id).addEventListener('change', () => remember(choice()));
  explain();
  byId('seek-form').addEventListener('submit', (e) => { e.preventDefault(); lobby.seek(); });
  byId('cancel').addEventListener('click', () => lobby.cancel());
  byId('table-form').addEventListener('submit', (e) => { e.preventDefault(); lobby.openTable(); });
  window.addEventListener('pagehide', () => { lobby.closed = true; if (lobby.ws) lobby.ws.close(); });
  lobby.connect();
  // Play on the home page comes here to seek at once.
  if (new URLSearchParams(location.search).has('now')) lobby.seek();
  document.body.dataset.ready = 'yes';
}

main();
