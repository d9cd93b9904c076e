// @ts-check
// The lobby page: quick pairing (a pool of rules, time and rated or
// casual; Play and Cancel; bots after a wait, or people only), the live
// list of waiting seekers and open tables with names and ratings, opening
// a table and starting it with bots, partners who come as a pair in team
// rules (pair.js), and, once seated, the game. It talks to the server over
// one WebSocket (GET /api/lobby/ws, docs/api.md "The lobby"); closing the
// page withdraws the seek, a pair's whole.

import * as api from './api.js';
import { me } from './accounts.js';
import { h, byId, replace, ago } from './dom.js';
import { ratingSpan, playerLink } from './people.js';
import { rememberedChoice, remember } from './choice.js';
import { showInvite, wireCopy, takeCode, whyWords } from './pair.js';
import './session.js';

/**
 * @typedef {{name: string, rating: number, guest?: boolean, since: string, bots?: boolean}} SeekerView
 * @typedef {{pool: string, rules: string, turn_ms: number, rated: boolean, seekers: SeekerView[]}} PoolView
 * @typedef {{seat: string, open: boolean, name?: string, rating?: number, guest?: boolean}} TableSeat
 * @typedef {{id: string, rules: string, turn_ms: number, rated: boolean, min_rating?: number, max_rating?: number,
 *   seats: TableSeat[], created: string}} TableView
 * @typedef {{kind: string, name?: string, rating?: number, guest?: boolean, pools?: PoolView[], tables?: TableView[],
 *   pool?: string, since?: string, game?: string, seat?: string, token?: string, table?: TableView,
 *   partner?: string, code?: string, why?: string, error?: {code: string, message: string}, echo?: string}} LobbyEvent
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
    /** a pair invitation asked for, and a partner's code to take, before the socket opened */
    this.wantPair = false;
    this.wantPartner = '';
    /** the code of the client's open pair invitation, while its partner has not come */
    this.invite = '';
    /** the partner's name while the client seeks as one of a pair, and whether it invited */
    this.partner = '';
    this.inviter = false;
    /** the pool of the pair's invitation or seek, as the server gave it */
    this.pairPool = '';
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
      if (this.invite || this.partner) this.lost(); // the server forgot them with the old socket
      else if (this.seeking) this.send(this.seekMessage()); // a seek is withdrawn when its socket closes: ask again
      else if (this.wantSeek) { this.wantSeek = false; this.seek(); }
      else if (this.wantPair) { this.wantPair = false; this.pair(); }
      else if (this.wantPartner) { const code = this.wantPartner; this.wantPartner = ''; this.join(code); }
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

  /**
   * mayPlay remembers the choices and says whether the client may play
   * in their pool, telling a guest who chose a rated one to sign in.
   * @param {import('./choice.js').Choice} c
   */
  mayPlay(c) {
    remember(c);
    if (c.rated === 'rated' && !this.signedIn) {
      byId('lobby-error').replaceChildren('Rated games are for signed-in players: ', h('a', { href: '/signin?next=/play' }, 'sign in'), ' or ', h('a', { href: '/signup?next=/play' }, 'make an account'), '.');
      return false;
    }
    byId('lobby-error').textContent = '';
    this.note('');
    return true;
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  seek() {
    if (!this.mayPlay(choice())) return;
    if (!this.open) {
      this.wantSeek = true;
      return;
    }
    this.seeking = true;
    this.send(this.seekMessage());
    this.showSeeking();
  }

  /** pair asks for an invitation to give a partner, in the pool chosen (of team rules). */
  pair() {
    if (!this.mayPlay(choice())) return;
    if (!this.open) {
      this.wantPair = true;
      return;
    }
    this.inviter = true;
    this.send({ ...this.seekMessage(), kind: 'pair' });
  }

  /**
   * join takes a partner's invitation, the code its link brought.
   * @param {string} code
   */
  join(code) {
    this.note('Joining your partner…');
    if (!this.open) {
      this.wantPartner = code;
      return;
    }
    this.inviter = false;
    this.send({ kind: 'partner', code });
  }

  cancel() {
    this.seeking = false;
    this.invite = '';
    this.partner = '';
    this.send({ kind: 'withdraw' });
    this.showSeeking();
  }

  /** lost says that the invitation or the pair's seek went with the socket that closed. */
  lost() {
    this.note(this.invite
      ? 'The connection to the lobby was lost, and your invitation with it: invite your partner again, with a new link.'
      : 'The connection to the lobby was lost, and the seek you made with your partner with it: start again together.');
    this.seeking = false;
    this.invite = '';
    this.partner = '';
    this.showSeeking();
  }

  /**
   * note says something of the pair that stays until the next choice ('' for nothing).
   * @param {string} text
   */
  note(text) {
    byId('pair-note').textContent = text;
  }

  /** teams says whether the rules chosen are played by partners. */
  teams() {
    const pr = presets.find((p) => p.name === sel('rules').value);
    return !!pr && pr.partners;
  }

  showSeeking() {
    const c = choice();
    const busy = this.seeking || !!this.invite;
    byId('seek').hidden = busy;
    byId('pair').hidden = busy || !this.teams();
    byId('cancel').hidden = !busy;
    for (const id of ['rules', 'turn', 'rated', 'bots']) sel(id).disabled = busy;
    const status = byId('seek-status');
    status.classList.toggle('waiting', busy);
    document.body.dataset.seeking = this.seeking ? 'yes' : 'no';
    document.body.dataset.pair = this.invite ? 'inviting' : this.partner && this.seeking ? 'paired' : '';
    showInvite(this.invite);
    const wait = Number(c.bots);
    const bots = wait > 0 ? `Bots fill the empty seats after ${wait} s.` : 'Waiting for people only.';
    if (this.invite) {
      status.textContent = `Waiting for your partner to open the link: ${poolWords(this.pairPool)}.`;
    } else if (this.seeking && this.partner) {
      status.textContent = `Looking for opponents with your partner ${this.partner}: ${poolWords(this.pairPool)}. ${this.inviter ? bots : 'Your partner chose whether bots fill the empty seats.'}`;
    } else if (this.seeking) {
      status.textContent = `Looking for players: ${poolWords(poolKey(c))}. ${bots}`;
    } else {
      status.textContent = '';
    }
  }

  /**
   * showPool sets the menus to a pool the client was put in (a partner's
   * invitation), where they offer it.
   * @param {string} key
   */
  showPool(key) {
    const [rules, turn, rated] = key.split('/');
    for (const [id, v] of [['rules', rules], ['turn', turn], ['rated', rated]]) {
      const s = sel(id);
      if ([...s.options].some((o) => o.value === v)) s.value = v;
    }
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
      case 'invited':
        this.invite = m.code || '';
        this.pairPool = m.pool || '';
        this.showSeeking();
        break;
      case 'seeking':
        this.seeking = true;
        this.partner = m.partner || '';
        if (this.partner) {
          this.invite = '';
          this.pairPool = m.pool || '';
          this.showPool(this.pairPool);
          this.note('');
        }
        this.showSeeking();
        break;
      case 'withdrawn':
        this.seeking = false;
        this.invite = '';
        this.partner = '';
        if (m.why) this.note(whyWords(m.why));
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
        if (m.echo === 'partner') {
          this.note('');
          byId('lobby-error').textContent = `Your partner's link did not work: ${m.error ? m.error.message : 'the lobby refused it'}.`;
        }
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
  for (const id of ['rules', 'turn', 'rated', 'bots']) sel(id).addEventListener('change', () => { remember(choice()); lobby.showSeeking(); });
  explain();
  byId('seek-form').addEventListener('submit', (e) => { e.preventDefault(); lobby.seek(); });
  byId('cancel').addEventListener('click', () => lobby.cancel());
  byId('pair').addEventListener('click', () => lobby.pair());
  wireCopy();
  byId('table-form').addEventListener('submit', (e) => { e.preventDefault(); lobby.openTable(); });
  window.addEventListener('pagehide', () => { lobby.closed = true; if (lobby.ws) lobby.ws.close(); });
  lobby.showSeeking();
  lobby.connect();
  // A partner's link brings its invitation's code; Play on the home page
  // comes here to seek at once.
  const code = takeCode();
  if (code) lobby.join(code);
  else if (new URLSearchParams(location.search).has('now')) lobby.seek();
  document.body.dataset.ready = 'yes';
}

main();
