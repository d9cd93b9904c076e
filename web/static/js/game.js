// @ts-check
// The game page: a live game for players and spectators.

import * as api from './api.js';
import { h, byId, replace, toast, copyText } from './dom.js';
import { Board } from './board.js';
import { Dice } from './dice.js';
import { Seats } from './seats.js';
import { MoveList, addEvent, addTakeover, takeoverWhy } from './movelist.js';
import { ScoreChart } from './chart.js';
import { Analysis } from './analysis.js';
import { Connection } from './connection.js';
import { armyBadge, paint, pieceKey } from './pieces.js';
import { parsePosition, parseAction, parseExtra, seatStatus, ordinal } from './position.js';
import { label, pending, rollOffText, splitRoll } from './decisions.js';
import { showMissing } from './notfound.js';
import { BoardKeys, describeAction } from './keyboard.js';
import { Pacer } from './animate.js';
import { Sounds } from './sound.js';
import { Trays, addCaptures } from './captures.js';
import { Names, causeText, notices, said, sound } from './effects.js';
import { Leave } from './leave.js';
import { confirmAction } from './confirm.js';
import { RematchPanel } from './rematch.js';
import { Invites, claimFromAddress } from './invites.js';
import { Notifier } from './notify.js';
import { outSeats, nobodyPlays, fallenBanner } from './fallen.js';
import { OfflineMove } from './offline.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./api.js').SeatInfo} SeatInfo
 * @typedef {import('./movelist.js').TurnLine} TurnLine
 */

const id = decodeURIComponent(location.pathname.split('/')[2] || '');

async function main() {
  // A seat given in the address: an invite to claim, or a token.
  const claimed = await claimFromAddress(id);
  /** @type {GamePage|null} */
  let page = null;
  // An invite link opened in a tab that shows this game already changes
  // only the fragment, which loads nothing: take its seat and start again
  // as that seat's player.
  window.addEventListener('hashchange', async () => {
    const c = await claimFromAddress(id);
    if (c.seat && !c.refused) location.reload();
    else if (c.refused && page) page.say(`You are watching: ${c.refused}`, 'error');
  });
  let st;
  try {
    st = await api.game(id);
  } catch (e) {
    showMissing(id, e);
    return;
  }
  const preset = await api.preset(st.rules);
  page = new GamePage(preset, st);
  if (claimed.refused) {
    document.body.dataset.claim = 'refused';
    page.say(`You are watching: ${claimed.refused}`, 'error');
  }
  page.start();
}

class GamePage {
  /**
   * @param {import('./api.js').Preset} preset
   * @param {import('./api.js').GameState} st
   */
  constructor(preset, st) {
    this.preset = preset;
    this.tokens = api.tokens(id);
    /** @type {Set<string>} seats held in this browser */
    this.held = new Set(Object.keys(this.tokens));
    /** @type {Record<string,string>} colour letter by seat name */
    this.letter = Object.fromEntries(preset.seats.map((s) => [s.seat, s.letter]));
    /** @type {Record<string,string>} seat name by colour letter */
    this.seatOf = Object.fromEntries(preset.seats.map((s) => [s.letter, s.seat]));

    // The game as the events tell it.
    /** @type {SeatInfo[]} */
    this.seats = st.seats;
    this.table = st.table;
    this.posText = st.position;
    this.pos = parsePosition(st.position);
    this.toAct = '';
    this.dice = '-';
    this.scores = this.pos.scores;
    /** @type {string[]} */
    this.actions = [];
    this.deadline = '';
    /** @type {Record<string, number>} when each seat's open decision began (ms), by seat name */
    this.opened = {};
    /** @type {Record<string, number>} how long each seat's last decision took (ms), by seat name */
    this.took = {};
    /** @type {number[]|undefined} at a bank table, each seat's bank (ms) as of the decision open */
    this.banks = undefined;
    this.status = st.status;
    /** @type {{seat: string, roll: string, note: string}} colour letter and faces of the last roll; note: a roll-off */
    this.lastRoll = { seat: '', roll: '', note: '' };
    /** @type {Record<string, {from: number, to: number}>} */
    this.lastMoves = {};
    this.latest = '';
    /** @type {TurnLine[]} */
    this.turns = [];
    /** @type {import('./chart.js').ScorePoint[]} the scores after each event, for the chart */
    this.scoreHistory = [];
    /** @type {GameEvent|null} */
    this.end = null;
    this.sending = false;
    /** the event that brings this browser's last accepted action: until it comes the page waits */
    this.awaitSeq = 0;
    /** @type {{from: number, to: number}|null} */
    this.hint = null;
    this.animateMove = /** @type {{from: number, to: number}|null} */ (null);
    this.animateDice = false;
    this.frame = 0;
    this.view = 'auto';
    this.lastView = this.held.size ? [...this.held][0] : preset.seats[0].seat;
    this.overDismissed = false;
    this.diceKey = '';
    this.sayTimer = 0;
    this.wasDown = false;
    /** @type {import('./captures.js').Taken} the pieces each seat took */
    this.taken = {};
    /** what the last event shown did, in words, for the banner */
    this.lastSaid = '';
    this.words = new Names(preset);
    /** the page may act: to hear when that begins */
    this.couldAct = false;
    /** an event has come since the page connected */
    this.liveSeen = false;
    /** @type {Set<string>} the seats that played an action of their own (abort) */
    this.moved = new Set();
    /** @type {string[]} the seats out of play (the server's out_of_play: a king fallen, an army dead or gone) */
    this.outOfPlay = st.out_of_play || [];
    /** the player out of the game chose to watch: the banner shows the game again */
    this.watching = false;
    /** a move made while the connection was down, sent when it returns */
    this.offline = new OfflineMove();

    this.baseTitle = `Chaturaji · ${preset.name} · ${id}`;
    document.title = this.baseTitle;
    replace(byId('game-title'), h('span', { class: 'sr-only' }, 'Game of '), h('a', { href: `/rules/${encodeURIComponent(preset.name)}`, title: 'the rules of this game' }, preset.name));
    paint(preset);
    this.board = new Board(byId('board'), preset);
    this.board.onAction = (a) => this.send(a);
    this.board.onRefuse = (m) => { this.say(m, 'error'); this.keys.say(m); };
    this.board.onWait = (seat) => this.notYet(seat);
    this.keys = new BoardKeys(this.board, byId('announce'));
    this.diceView = new Dice(byId('dice'), preset);
    replace(byId('piece-key-host'), pieceKey(preset));
    this.seatsView = new Seats(byId('seats'), preset);
    this.moveList = new MoveList(byId('moves'), preset);
    this.trays = new Trays(byId('captures'), preset);
    this.sounds = new Sounds();
    this.notifier = new Notifier((t, k) => this.say(t, k));
    byId('sound-host').replaceChildren(this.sounds.switchButton(), ...(this.held.size ? [this.notifier.switchButton()] : []));
    // Events are shown one after another, each given its animation's time.
    this.pacer = new Pacer((e, live) => this.take(e, live), () => this.schedule());
    this.analysis = new Analysis(byId('evalbar'), preset);
    this.buildControls();
    this.conn = new Connection(id, this.tokens, {
      onEvent: (e, live) => this.pacer.push(e, live),
      onStatus: (s, detail) => this.net(s, detail),
      onError: (e) => this.say(e.error ? e.error.message : 'refused', 'error'),
      onRematch: (r) => this.rematch.take(r),
    });
    const say = (/** @type {string} */ t, /** @type {'info'|'error'|undefined} */ k) => this.say(t, k);
    this.leave = new Leave(byId('leave'), (seat, kind) => this.conn.leave(seat, kind), say);
    this.leave.onLeft = () => location.assign('/');
    this.rematch = new RematchPanel(id, this.tokens, say);
    this.invites = new Invites(byId('invite'), id, preset, this.tokens);
    window.setInterval(() => this.refreshOnline(), 15000);
    // Hidden with a frame asked for: it would never come.
    document.addEventListener('visibilitychange', () => { if (document.hidden && this.frame > 0) this.schedule(); });
  }

  start() {
    this.conn.start();
  }

  buildControls() {
    const seatOptions = [h('option', { value: 'auto' }, this.held.size ? 'Auto (your seat)' : 'Auto'),
      ...this.preset.seats.map((s) => h('option', { value: s.seat }, s.seat))];
    const view = /** @type {HTMLSelectElement} */ (h('select', { id: 'view-select', 'aria-label': 'View the board from' }, ...seatOptions));
    view.addEventListener('change', () => { this.view = view.value; this.schedule(); });
    const analysisBox = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'analysis-toggle' }));
    analysisBox.addEventListener('change', () => {
      this.analysis.show(analysisBox.checked);
      if (analysisBox.checked) this.analysis.update(this.posText);
    });
    replace(byId('controls'),
      h('div', { class: 'action-row', id: 'actions' }),
      h('div', { class: 'action-row keyboard-move' },
        h('label', { for: 'move-select' }, 'Move'),
        h('select', { id: 'move-select', 'aria-label': 'Choose a legal move' }),
        h('button', { type: 'button', id: 'play-move', onclick: () => this.playSelected() }, 'Play')),
      h('div', { class: 'action-row tools' },
        h('button', { type: 'button', id: 'hint', class: 'secondary', onclick: () => this.askHint(), title: "Show the strong bot's suggested move" }, 'Hint'),
        h('label', { class: 'check', id: 'analysis-label' }, analysisBox, ' Expected scores'),
        h('label', { class: 'check view' }, 'View from ', view)),
      h('p', { id: 'help-off', class: 'small muted', hidden: true }, 'Engine help is off at this table: no hints or expected scores, for anyone.'),
      h('div', { class: 'action-row leave', id: 'leave' }));
  }

  /**
   * take handles one event of the game.
   * @param {GameEvent} e
   * @param {boolean} live
   */
  take(e, live) {
    if (live) this.liveSeen = true;
    switch (e.kind) {
      case 'start':
        // The seats as the game began; whether each is online or waits for
        // its invite is the state's, which the events do not say.
        if (e.seats) this.seats = e.seats.map((s, i) => ({ ...s, online: (this.seats[i] || {}).online, invited: (this.seats[i] || {}).invited }));
        if (e.table) this.table = e.table;
        break;
      case 'roll':
        this.addLine(e);
        if (!e.seat) { // martian's roll-off: which team starts
          this.lastRoll = { seat: '', roll: '', note: rollOffText(this.preset, e.roll || '') };
          break;
        }
        this.lastRoll = { seat: this.letter[e.seat] || '', roll: e.roll || '', note: '' };
        if (live && this.preset.dice) {
          const d = this.preset.dice;
          this.keys.say(`${e.seat} rolled ${[...splitRoll(e.roll || '').own].map((f) => `${f}: ${d.words[f] || 'no piece'}`).join(', ')}.`);
        }
        if (live) this.animateDice = true;
        break;
      case 'action': {
        const letter = this.letter[e.seat || ''] || '';
        this.addLine(e);
        addCaptures(this.taken, e);
        // Said before the position changes: it is read from the one before.
        this.lastSaid = said(this.words, e, this.pos, this.lastRoll.roll);
        if (live) this.keys.say(describeAction(this.preset, this.pos, e.seat || '', e.action || ''));
        if (live && (e.by === 'auto' || e.by === 'timeout')) this.keys.say(this.lastSaid);
        if (live) {
          for (const n of notices(this.words, e)) { toast(n); this.keys.say(n); }
          this.sounds.play(sound(this.words, e));
        }
        const a = parseAction(e.action || '');
        if (a.type === 'move') {
          this.lastMoves[letter] = { from: a.from, to: a.to };
          this.latest = letter;
          if (live) this.animateMove = { from: a.from, to: a.to };
        }
        if (e.by === 'player' && e.seat) this.moved.add(e.seat);
        const began = this.opened[e.seat || ''];
        if (e.used_ms !== undefined && e.seat) {
          // The time the server's clock counted, outages left out.
          this.took[e.seat] = e.used_ms;
          delete this.opened[e.seat];
        } else if (began !== undefined && e.at) {
          this.took[e.seat || ''] = Math.max(0, Date.parse(e.at) - began);
          delete this.opened[e.seat || ''];
        }
        this.hint = null;
        break;
      }
      case 'seat': {
        const s = this.seats.find((x) => x.seat === e.seat);
        if (s && e.player) s.player = e.player;
        addTakeover(this.turns, e, this.letter[e.seat || ''] || '', !!this.preset.dice, e.seq || 0);
        if (live) toast(`A bot (${e.player}) takes ${e.seat}'s seat: ${takeoverWhy(e.reason)}.`);
        break;
      }
      case 'clock': // the server could not run the game for a while: the decider gets the time back
        if (live) toast(`The game was held up; ${e.seat} gets the time back.`);
        break;
      case 'end':
        this.end = e;
        if (live) {
          this.keys.say(`Game over: ${e.end || 'the game has ended'}.`);
          this.sounds.play('end');
        }
        break;
    }
    if (e.position) {
      this.posText = e.position;
      this.pos = parsePosition(e.position);
      this.toAct = e.to_act || '';
      this.dice = e.dice || '-';
      this.scores = e.scores || this.scores;
      if (e.scores && e.seq) this.scoreHistory.push({ step: e.seq, scores: e.scores });
      this.actions = e.actions || [];
      this.outOfPlay = e.out_of_play || [];
      this.deadline = e.deadline || '';
      if (e.banks_ms) this.banks = e.banks_ms;
      this.status = e.status || this.status;
      // A decision with a deadline opened now: its time runs from the
      // deadline less the table's time for a decision.
      if (e.deadline && e.to_act && this.table.turn_ms) this.opened[e.to_act] = Date.parse(e.deadline) - this.table.turn_ms;
    }
    this.schedule();
  }

  /**
   * addLine puts a roll or an action in the move list's lines, from the
   * position before it.
   * @param {GameEvent} e
   */
  addLine(e) {
    addEvent(this.turns, e, {
      letter: this.letter, dice: !!this.preset.dice, before: this.pos, step: e.seq || 0,
      rollOff: (r) => rollOffText(this.preset, r),
    });
  }

  /**
   * schedule draws the page at the next frame: a burst of events draws
   * once. A hidden tab gets no frames, yet its title, its sounds and its
   * notification must keep up: there it draws once the event's task is
   * done, and a frame asked for before the tab was hidden is drawn then.
   */
  schedule() {
    if (document.hidden) {
      if (this.frame > 0) cancelAnimationFrame(this.frame);
      else if (this.frame) return;
      this.frame = -1;
      queueMicrotask(() => {
        this.frame = 0;
        this.render();
      });
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** canAct reports whether this browser may act for the seat to act. */
  canAct() {
    if (this.status !== 'live' || !this.toAct || !this.held.has(this.toAct) || this.sending) return false;
    // The server answers an action before its event may have come: the
    // decision shown until then is the one just taken.
    if (this.pacer.shown < this.awaitSeq || this.pacer.waiting()) return false;
    const s = this.seats.find((x) => x.seat === this.toAct);
    return !!s && s.player === 'human' && this.actions.length > 0;
  }

  /** bottomSeat returns the seat whose army the board shows at the bottom. */
  bottomSeat() {
    if (this.view !== 'auto') return this.view;
    if (this.toAct && this.held.has(this.toAct) && this.status === 'live') this.lastView = this.toAct;
    return this.lastView;
  }

  render() {
    const pr = this.preset;
    const canAct = this.canAct();
    this.board.setBottom(this.letter[this.bottomSeat()] || 'b');
    this.board.render({
      pos: this.pos, actions: this.actions, canAct,
      lastMoves: this.lastMoves, latest: this.latest, hint: this.hint, animate: this.animateMove,
    });
    this.animateMove = null;
    if (this.lastRoll.seat || this.lastRoll.note || !pr.dice) {
      const turn = this.pos.seat;
      const left = turn === this.lastRoll.seat ? this.dice : '-';
      const key = `${this.turns.length}:${left}`;
      if (key !== this.diceKey) {
        this.diceKey = key;
        this.diceView.show({
          seat: this.lastRoll.seat, rolled: this.lastRoll.roll, left, animate: this.animateDice,
          control: parseExtra(this.pos.extra).control, note: this.lastRoll.note,
        });
      }
      this.animateDice = false;
    }
    const status = seatStatus(pr, this.pos);
    this.seatsView.render({
      seats: this.seats, scores: this.scores, ranks: this.end ? this.end.ranks || null : null,
      toAct: this.toAct, frozen: status.frozen, out: status.out, held: this.held, deadline: this.deadline,
      over: this.status !== 'live', team: status.team, commands: status.commands,
      turnMS: this.table.turn_ms, took: this.took, banks: this.banks,
    });
    this.moveList.render(this.turns);
    this.trays.render(this.taken);
    // The tab says when it is this page's turn, and so does a sound (not
    // for the turn the page opens on).
    document.title = canAct ? `Your turn · ${this.baseTitle}` : this.baseTitle;
    if (canAct && !this.couldAct && this.liveSeen) {
      this.sounds.play('turn');
      this.notifier.turn(`${this.toAct} to move in ${this.preset.name} game ${id}.`, `chaturaji-${id}`);
    }
    this.couldAct = canAct;
    this.renderTurn(canAct);
    this.renderActions(canAct);
    this.renderOver();
    this.invites.render(this.seats, this.status === 'live');
    const out = this.status === 'live' ? outSeats(this.seats, this.held, this.outOfPlay) : [];
    this.leave.render({ status: this.status, seats: this.seats, held: this.held, moved: this.moved, toAct: this.toAct, actions: this.actions, out, dead: this.preset.frozen === 'dead' });
    document.body.dataset.out = out.join(' ');
    this.renderHelp();
    // Over, the sockets stay open for the rematch: say it is finished.
    const net = byId('net');
    if (this.status !== 'live' && net.dataset.state === 'open') net.textContent = 'Finished';
    if (this.analysis.on) this.analysis.update(this.posText);
    document.body.dataset.status = this.status;
    document.body.dataset.toAct = this.toAct;
    document.body.dataset.seq = String(this.pacer.shown);
    // What the page waits for, if anything: the answer to an action, or its event.
    document.body.dataset.busy = this.sending ? 'sending' : this.pacer.shown < this.awaitSeq ? `event ${this.awaitSeq}` : '';
  }

  /** @param {boolean} canAct */
  renderTurn(canAct) {
    const el = byId('turn');
    if (this.status !== 'live') {
      const aborted = !!this.end && this.end.end === 'aborted';
      const reason = aborted ? (this.end && this.end.seat ? `aborted by ${this.end.seat}, no result` : 'aborted by the server: everyone left, no result') : this.end && this.end.end ? this.end.end : 'the game is over';
      replace(el, h('strong', {}, aborted ? 'Game aborted' : 'Game over'), ` — ${reason}. `,
        this.lastSaid ? h('span', { class: 'turn-last', id: 'turn-last', title: this.lastSaid }, this.lastSaid) : null,
        this.overDismissed ? h('button', { type: 'button', class: 'link', onclick: () => { this.overDismissed = false; this.renderOver(); } }, 'Show the results') : null);
      el.className = 'turn-banner done';
      return;
    }
    if (!this.watching && outSeats(this.seats, this.held, this.outOfPlay).length > 0) {
      replace(el, ...fallenBanner({
        nobody: nobodyPlays(this.seats, this.outOfPlay),
        dead: this.preset.frozen === 'dead',
        onWatch: () => { this.watching = true; this.render(); byId('moves').focus(); },
        onLeave: () => this.leave.leaveGame(),
      }));
      el.className = 'turn-banner fallen';
      return;
    }
    if (!this.toAct) {
      replace(el, 'Waiting for the game to start…');
      el.className = 'turn-banner';
      return;
    }
    const letter = this.letter[this.toAct];
    const info = this.seats.find((s) => s.seat === this.toAct);
    const d = this.preset.dice;
    // The dice are those of the seat whose turn it is, which its partner may
    // decide (a commanded army, a kingless one in chaturaji-teams).
    const turn = this.pos.seat;
    const turnName = this.seatOf[turn] || '';
    const faces = this.dice !== '-' ? [...splitRoll(this.dice).own] : [];
    const words = d ? faces.map((f) => `${f}: ${d.words[f] || 'no piece'}`).join(', ') : '';
    const decision = pending(this.preset, this.pos.extra, this.actions, canAct, letter);
    const moves = this.actions.some((a) => parseAction(a).type === 'move');
    const onlyPass = this.actions.length === 1 && this.actions[0] === 'pass';
    let roll = '';
    if (words && !decision) {
      if (turn === letter) roll = canAct ? `you rolled ${words}. ` : `rolled ${words}. `;
      else roll = `${canAct ? 'you decide' : 'decides'} ${turnName}'s turn, who rolled ${words}. `;
    }
    let what;
    if (canAct && !this.connected()) {
      // Offline: the move waits for the connection, and the banner says so.
      what = [h('strong', {}, `Your turn, ${this.toAct}`),
        h('span', { class: 'turn-detail', id: 'offline-move' }, roll, this.offline.banner(coarse()))];
    } else if (canAct) {
      what = [h('strong', {}, `Your turn, ${this.toAct}`),
        h('span', { class: 'turn-detail' }, roll,
          decision || (onlyPass ? 'No piece of that kind can move: pass.' : moves ? `${coarse() ? 'Tap' : 'Click'} or drag a highlighted piece.` : 'Choose an action.'))];
    } else {
      const who = info ? (info.name || api.playerLabel(info.player)) : '';
      what = [h('strong', {}, `${this.toAct} to ${decision ? 'decide' : 'move'}`), ` (${who})`,
        h('span', { class: 'turn-detail' }, decision || roll)];
    }
    replace(el, armyBadge(letter, 22), ' ', ...what, this.lastSaid ? h('span', { class: 'turn-last', id: 'turn-last', title: this.lastSaid }, this.lastSaid) : null);
    el.className = `turn-banner${canAct ? ' mine' : ''}`;
  }

  /** @param {boolean} canAct */
  renderActions(canAct) {
    const box = byId('actions');
    const others = canAct ? this.actions.filter((a) => parseAction(a).type === 'other') : [];
    const buttons = [];
    for (const name of ['pass', 'retire', 'claim']) {
      if (!others.includes(name)) continue;
      buttons.push(h('button', {
        type: 'button', id: `act-${name}`, class: name === 'retire' ? 'danger' : name === 'claim' ? 'primary' : 'secondary',
        'data-action': name, onclick: () => this.confirmSend(name),
      }, label(name)));
    }
    for (const a of others) {
      if (a === 'pass' || a === 'retire' || a === 'claim') continue;
      buttons.push(h('button', { type: 'button', class: 'decision', 'data-action': a, onclick: () => this.send(a) }, label(a)));
    }
    replace(box, ...buttons);
    // Spectators and finished games need no move menu.
    byId('controls').dataset.mode = this.status === 'live' && this.held.size > 0 ? 'play' : 'watch';
    const sel = /** @type {HTMLSelectElement} */ (byId('move-select'));
    const moves = canAct ? this.actions.filter((a) => parseAction(a).type !== 'other') : [];
    const keep = sel.value;
    replace(sel, ...(moves.length ? moves.map((m) => h('option', { value: m }, m)) : [h('option', { value: '' }, canAct ? 'no move' : '—')]));
    if (moves.includes(keep)) sel.value = keep;
    sel.disabled = moves.length === 0;
    /** @type {HTMLButtonElement} */ (byId('play-move')).disabled = moves.length === 0;
    /** @type {HTMLButtonElement} */ (byId('hint')).disabled = this.status !== 'live' || this.actions.length === 0;
  }

  playSelected() {
    const sel = /** @type {HTMLSelectElement} */ (byId('move-select'));
    if (sel.value) this.send(sel.value);
  }

  /** @param {string} action */
  async confirmSend(action) {
    if (action === 'retire' && !await confirmAction({ id: 'confirm-retire', title: 'Retire your king?', text: 'Your army leaves the game.', yes: 'Retire' })) return;
    if (action === 'claim' && !await confirmAction({
      id: 'confirm-claim', title: 'Claim the win?', yes: 'Claim',
      text: 'The game ends now: the other army still alive dies, and you score 3 for every king still standing.',
    })) return;
    this.send(action);
  }

  /** connected reports whether the page hears the game live: a socket is open. */
  connected() {
    return this.conn.status === 'open';
  }

  /**
   * send plays an action for the seat to act. With the connection down it
   * is kept, and sent when the connection returns (offline.js).
   * @param {string} action
   */
  async send(action) {
    if (!this.canAct()) return;
    const seat = this.toAct;
    const seq = this.conn.lastSeq;
    if (!this.connected()) {
      this.keepOffline(seat, action, seq);
      return;
    }
    this.sending = true;
    this.say('');
    this.render();
    try {
      const after = await this.conn.act(seat, action, seq);
      this.awaitSeq = Math.max(this.awaitSeq, (after && after.seq) || 0);
    } catch (e) {
      if (/** @type {any} */ (e).code === 'ENETWORK') this.keepOffline(seat, action, seq);
      else this.say(`Refused: ${/** @type {Error} */ (e).message}`, 'error');
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  /**
   * keepOffline keeps a move made while the connection is down, in place
   * of any other, until the connection returns.
   * @param {string} seat
   * @param {string} action
   * @param {number} seq the last event the page had when it was made
   */
  keepOffline(seat, action, seq) {
    this.offline.keep(seat, action, seq);
    document.body.dataset.offlineMove = action;
    const m = `Your move ${action} waits for the connection: it is sent when the connection returns.`;
    this.say(m);
    this.keys.say(m);
    this.schedule();
  }

  /**
   * sendOffline sends the move kept while the connection was down, as made:
   * after the event it was made after. The server refuses it if the game
   * has moved on since (another device of the player moved, the clock ran
   * out), and the page says so.
   */
  async sendOffline() {
    const w = this.offline.take();
    delete document.body.dataset.offlineMove;
    if (!w) return;
    this.sending = true;
    this.render();
    try {
      const after = await this.conn.act(w.seat, w.action, w.seq);
      this.awaitSeq = Math.max(this.awaitSeq, (after && after.seq) || 0);
      this.say(`Your move ${w.action}, made while the connection was down, has been played.`);
    } catch (e) {
      const m = `Your move ${w.action}, made while the connection was down, was not played: ${/** @type {Error} */ (e).message}.`;
      this.say(m, 'error');
      this.keys.say(m);
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  /**
   * notYet says why a piece of this browser's army does not move: it is
   * not the army's turn, or the page waits for the server.
   * @param {string} letter the army of the piece clicked
   */
  notYet(letter) {
    const seat = this.seatOf[letter] || '';
    if (this.status !== 'live' || !this.held.has(seat)) return;
    let m;
    if (this.sending || this.pacer.shown < this.awaitSeq) m = 'Your move is on its way: wait for it to be played.';
    else if (this.toAct && this.toAct !== seat) {
      const info = this.seats.find((s) => s.seat === this.toAct);
      m = `Not your turn yet: ${this.toAct} (${info ? (info.name || api.playerLabel(info.player)) : ''}) is to move.`;
    } else return;
    this.say(m, 'error');
    this.keys.say(m);
  }

  async askHint() {
    const pos = this.posText;
    const btn = /** @type {HTMLButtonElement} */ (byId('hint'));
    btn.classList.add('busy');
    this.say('The strong bot is thinking…');
    try {
      const r = await this.analysis.ask(pos, 1000);
      if (pos !== this.posText) return;
      const a = parseAction(r.best);
      this.hint = a.type === 'move' ? { from: a.from, to: a.to } : null;
      this.say(`Hint: ${r.best}${r.line.length > 1 ? ` (then ${r.line.slice(1, 4).join(' ')})` : ''}. Expected scores: ${this.preset.seats.map((s, i) => `${s.seat} ${r.expected[i].toFixed(1)}`).join(', ')}.`, 'hint');
      this.schedule();
    } catch (e) {
      this.say(`No hint: ${/** @type {Error} */ (e).message}`, 'error');
    } finally {
      btn.classList.remove('busy');
    }
  }

  /**
   * say shows a message under the board ('' clears it).
   * @param {string} text
   * @param {'info'|'error'|'hint'} [kind]
   */
  say(text, kind = 'info') {
    if (kind === 'error') document.body.dataset.lastError = text;
    const el = byId('message');
    el.textContent = text;
    el.className = `message ${kind}`;
    clearTimeout(this.sayTimer);
    if (text && kind === 'error') this.sayTimer = window.setTimeout(() => { if (el.textContent === text) el.textContent = ''; }, 6000);
  }

  /**
   * net shows the connection's state.
   * @param {import('./connection.js').Status} s
   * @param {string} detail
   */
  net(s, detail) {
    const el = byId('net');
    el.dataset.state = s;
    switch (s) {
      case 'open':
        // This browser's own seats are connected now: say so without
        // waiting for the next look at the game's state.
        for (const info of this.seats) if (this.held.has(info.seat)) info.online = true;
        this.schedule();
        // Over, the sockets stay open for the rematch.
        el.textContent = this.status !== 'live' ? 'Finished' : this.wasDown ? 'Reconnected' : 'Live';
        if (this.wasDown) toast('Reconnected: the game is up to date.');
        this.wasDown = false;
        if (this.offline.waiting) this.sendOffline();
        break;
      case 'reconnecting':
        this.wasDown = true;
        el.textContent = `Connection lost — reconnecting${detail ? ` (${detail})` : '…'}`;
        this.schedule(); // the banner says that moves wait for the connection
        break;
      case 'over':
        el.textContent = 'Finished';
        break;
      default:
        el.textContent = 'Connecting…';
    }
  }

  async refreshOnline() {
    if (this.status !== 'live') return;
    try {
      const st = await api.game(id);
      st.seats.forEach((s, i) => { if (this.seats[i]) Object.assign(this.seats[i], { online: s.online, invited: s.invited }); });
      this.schedule();
    } catch { /* the socket reports trouble */ }
  }

  renderOver() {
    const box = byId('over');
    if (this.status === 'live' || !this.end || this.overDismissed) {
      box.hidden = true;
      return;
    }
    const e = this.end;
    // Drawn once for an end: the rematch panel within keeps its focus.
    const key = `${e.seq}|${this.seats.map((s) => s.player).join()}`;
    if (!box.hidden && box.dataset.key === key) return;
    box.dataset.key = key;
    const pr = this.preset;
    const aborted = e.end === 'aborted';
    const ranks = e.ranks || [];
    const order = pr.seats.map((s, i) => i).sort((a, b) => (ranks[a] || 9) - (ranks[b] || 9));
    const rows = order.map((i) => {
      const s = pr.seats[i];
      const info = this.seats[i];
      return h('tr', { class: ranks[i] === 1 ? 'winner' : '' },
        h('td', { class: 'rank' }, ranks[i] ? ordinal(ranks[i]) : ''),
        h('td', {}, armyBadge(s.letter, 20), ' ', s.seat, this.held.has(s.seat) ? h('span', { class: 'you-tag' }, 'you') : null),
        h('td', { class: 'muted' }, info ? (info.name || api.playerLabel(info.player)) : ''),
        h('td', { class: 'num' }, pr.goal === 'points' && !aborted ? String((e.scores || [])[i] ?? '') : ''));
    });
    let chart = null;
    if (pr.goal === 'points' && !aborted) {
      chart = h('div', { class: 'chart-host over-chart' });
      new ScoreChart(chart, pr).render(this.scoreHistory);
    }
    this.rematch.show(this.seats);
    replace(box,
      // The results scroll if they must; the rematch and the buttons
      // below them stay in sight.
      h('div', { class: 'over-card', role: 'dialog', 'aria-labelledby': 'over-title' },
        h('div', { class: 'over-body', tabindex: '0', 'aria-label': 'Results' },
          h('h2', { id: 'over-title' }, aborted ? 'Game aborted' : 'Game over'),
          h('p', { class: 'muted' }, aborted ? (e.seat ? `${e.seat} aborted the game in its first round: it has no result.` : 'Everyone left the game, and the server has no room for another game of bots alone: it was aborted, with no result.') : `${e.end || ''}`),
          ...this.overGains(e),
          h('table', { class: 'ranking' }, h('tbody', {}, ...rows)),
          chart),
        h('div', { class: 'over-foot' },
        this.rematch.el,
        h('div', { class: 'button-row' },
          h('a', { class: 'button', href: `/replay/${encodeURIComponent(id)}` }, 'Replay & verify dice'),
          h('a', { class: 'button secondary', href: `/api/games/${encodeURIComponent(id)}/record`, download: `chaturaji-${id}.txt` }, 'Download record'),
          h('button', { type: 'button', class: 'secondary', onclick: () => { this.overDismissed = true; this.render(); } }, 'Show the board')),
        h('p', { class: 'small muted seed' }, 'Dice seed revealed: ', h('code', {}, e.seed || '')))));
    box.hidden = false;
  }

  /**
   * overGains explains the scores the end itself changed: the raise to 54
   * of the last king's owner, the empire.
   * @param {GameEvent} e the end event
   */
  overGains(e) {
    return (e.gains || []).map((g) => {
      const i = this.preset.seats.findIndex((s) => s.seat === g.seat);
      const final = (e.scores || [])[i];
      const what = g.cause === 'raise'
        ? `${g.seat}'s score was raised from ${final - g.points} to ${final} (+${g.points}): ${causeText(g.cause)}.`
        : `${g.seat}: +${g.points}, ${causeText(g.cause)}.`;
      return h('p', { class: 'over-gain', 'data-cause': g.cause }, armyBadge(this.letter[g.seat], 16), ' ', what);
    });
  }

  /**
   * renderHelp hides the engine's help where the table turned it off: the
   * server refuses it there anyway, for everyone.
   */
  renderHelp() {
    const off = this.table.help === false;
    byId('help-off').hidden = !off;
    byId('hint').hidden = off;
    byId('analysis-label').hidden = off;
    if (off && this.analysis.on) {
      /** @type {HTMLInputElement} */ (byId('analysis-toggle')).checked = false;
      this.analysis.show(false);
    }
  }
}

/** coarse reports whether the person points with a finger (a phone's screen). */
function coarse() {
  return window.matchMedia('(pointer: coarse)').matches;
}

main();
