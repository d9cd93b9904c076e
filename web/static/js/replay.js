// @ts-check
// The replay viewer: a game step by step (buttons, slider, arrow keys),
// with the dice, the scores, the move list, analysis on request (the
// position's expected scores and best move, and a review of the whole
// game: marks on the moves and the expected scores along it), the
// revealed seed, a check of every roll against it, and the record.

import * as api from './api.js';
import { h, byId, replace } from './dom.js';
import { Board } from './board.js';
import { Dice } from './dice.js';
import { Seats } from './seats.js';
import { MoveList, addEvent, addTakeover } from './movelist.js';
import { Trays, addCaptures } from './captures.js';
import { Names, said } from './effects.js';
import { ScoreChart } from './chart.js';
import { Analysis } from './analysis.js';
import { GameReview } from './review.js';
import { armyBadge, paint, pieceKey } from './pieces.js';
import { parsePosition, parseAction, parseExtra, seatStatus } from './position.js';
import { rollOffText } from './decisions.js';
import { verifyDice, verifyRecord } from './verify.js';
import { showMissing } from './notfound.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./movelist.js').TurnLine} TurnLine
 */

const id = decodeURIComponent(location.pathname.split('/')[2] || '');

async function main() {
  let st, evs;
  try {
    if (!id) throw new api.ApiError(404, 'ENOTFOUND', 'no game named');
    [st, evs] = await Promise.all([api.game(id), api.events(id)]);
  } catch (e) {
    showMissing(id, e);
    return;
  }
  const preset = await api.preset(st.rules);
  new Replay(preset, st, evs);
}

class Replay {
  /**
   * @param {import('./api.js').Preset} preset
   * @param {import('./api.js').GameState} st
   * @param {GameEvent[]} evs
   */
  constructor(preset, st, evs) {
    this.preset = preset;
    this.st = st;
    this.letter = Object.fromEntries(preset.seats.map((s) => [s.seat, s.letter]));
    /** @type {GameEvent[]} the steps: the start, then every roll and action */
    this.steps = [];
    this.end = evs.find((e) => e.kind === 'end') || null;
    const start = evs.find((e) => e.kind === 'start');
    this.seats = (start && start.seats) || st.seats;
    /** @type {TurnLine[]} */
    this.turns = [];
    /** @type {{after: number, seat: string, player: string}[]} the seats bots took, after which step */
    this.takeovers = [];
    /** @type {import('./position.js').Position|null} the position before each event */
    let before = null;
    for (const e of evs) {
      const letter = this.letter[e.seat || ''] || '';
      if (e.kind === 'seat') {
        addTakeover(this.turns, e, letter, !!preset.dice, this.steps.length - 1);
        this.takeovers.push({ after: this.steps.length - 1, seat: e.seat || '', player: e.player || '' });
        continue;
      }
      if (!e.position || !(e.kind === 'start' || e.kind === 'roll' || e.kind === 'action')) continue;
      const i = this.steps.length;
      this.steps.push(e);
      if (before) {
        addEvent(this.turns, e, { letter: this.letter, dice: !!preset.dice, before, step: i, rollOff: (r) => rollOffText(preset, r) });
      }
      before = parsePosition(e.position);
    }
    this.step = this.steps.length - 1;
    this.timer = 0;
    // The board keeps still: seen from this browser's seat if it played
    // one, else from the first seat; turning it to each mover in turn is a
    // choice of the menu.
    const held = Object.keys(api.tokens(id)).find((s) => this.letter[s]);
    this.view = held || preset.seats[0].seat;

    document.title = `Replay ${id} · Chaturaji`;
    replace(byId('game-title'), h('span', { class: 'sr-only' }, 'Replay of a game of '), h('a', { href: `/rules/${encodeURIComponent(preset.name)}` }, preset.name));
    paint(preset);
    this.board = new Board(byId('board'), preset);
    this.dice = new Dice(byId('dice'), preset);
    replace(byId('piece-key-host'), pieceKey(preset));
    this.seatsView = new Seats(byId('seats'), preset);
    this.moves = new MoveList(byId('moves'), preset, (s) => this.go(s));
    this.trays = new Trays(byId('captures'), preset);
    this.words = new Names(preset);
    this.analysis = new Analysis(byId('evalbar'), preset);
    this.review = new GameReview(byId('review-panel'), preset, id, (s) => this.go(s));
    /** @type {ScoreChart|null} the scores along the game, in points presets */
    this.chart = null;
    if (preset.goal === 'points') {
      this.chart = new ScoreChart(byId('score-chart'), preset, (s) => this.go(s));
      byId('score-panel').hidden = false;
    }
    /** @type {import('./chart.js').ScorePoint[]} */
    this.points = this.steps.map((e, i) => ({ step: i, scores: e.scores || [] }));

    const slider = /** @type {HTMLInputElement} */ (byId('slider'));
    slider.max = String(Math.max(0, this.steps.length - 1));
    slider.addEventListener('input', () => this.go(Number(slider.value)));
    byId('first').addEventListener('click', () => this.go(0));
    byId('prev').addEventListener('click', () => this.go(this.step - 1));
    byId('next').addEventListener('click', () => this.go(this.step + 1));
    byId('last').addEventListener('click', () => this.go(this.steps.length - 1));
    byId('play').addEventListener('click', () => this.toggle());
    document.addEventListener('keydown', (e) => this.key(e));
    const view = /** @type {HTMLSelectElement} */ (byId('view-select'));
    replace(view, ...preset.seats.map((s) => h('option', { value: s.seat }, s.seat === held ? `${s.seat} (you)` : s.seat)),
      h('option', { value: 'auto' }, 'Each mover in turn'));
    view.value = this.view;
    view.addEventListener('change', () => { this.view = view.value; this.draw(); });
    const toggle = /** @type {HTMLInputElement} */ (byId('analysis-toggle'));
    toggle.addEventListener('change', () => {
      this.analysis.show(toggle.checked);
      this.review.show(toggle.checked, this.steps, () => this.draw());
      this.draw();
    });

    byId('seed-hash').textContent = st.seed_hash;
    byId('seed').textContent = st.seed || (st.status === 'live' ? '(secret until the game ends)' : '');
    const dl = /** @type {HTMLAnchorElement} */ (byId('download'));
    dl.href = `/api/games/${encodeURIComponent(id)}/record`;
    dl.download = `chaturaji-${id}.txt`;
    const vb = /** @type {HTMLButtonElement} */ (byId('verify'));
    vb.disabled = !st.seed || !preset.dice;
    vb.addEventListener('click', () => this.verify());
    this.draw();
  }

  /** @param {number} n */
  go(n) {
    this.step = Math.max(0, Math.min(this.steps.length - 1, n));
    this.draw();
  }

  toggle() {
    const btn = byId('play');
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = 0;
      btn.textContent = '▶ Play';
      btn.setAttribute('aria-label', 'Play');
      return;
    }
    if (this.step >= this.steps.length - 1) this.go(0);
    btn.textContent = '❚❚ Pause';
    btn.setAttribute('aria-label', 'Pause');
    this.timer = window.setInterval(() => {
      if (this.step >= this.steps.length - 1) { this.toggle(); return; }
      this.go(this.step + 1);
    }, 600);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const t = /** @type {HTMLElement} */ (e.target);
    if (t && (t.tagName === 'INPUT' && t.getAttribute('type') !== 'range' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (e.key in moves) {
      e.preventDefault();
      this.go(this.step + moves[/** @type {keyof moves} */ (e.key)]);
    } else if (e.key === 'Home') {
      e.preventDefault();
      this.go(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      this.go(this.steps.length - 1);
    } else if (e.key === ' ' && t.tagName !== 'BUTTON') {
      e.preventDefault();
      this.toggle();
    }
  }

  /**
   * banksAt returns, at a bank table, each seat's bank as of step n: the
   * banks of the last event up to it that says them.
   * @param {number} n
   * @returns {number[]|undefined}
   */
  banksAt(n) {
    for (let i = n; i >= 0; i--) {
      const b = this.steps[i] && this.steps[i].banks_ms;
      if (b) return b;
    }
    return undefined;
  }

  draw() {
    const pr = this.preset;
    const e = this.steps[this.step];
    if (!e || !e.position) return;
    const pos = parsePosition(e.position);
    /** @type {Record<string, {from: number, to: number}>} */
    const lastMoves = {};
    let latest = '';
    let roll = { seat: '', roll: '', note: '' };
    /** @type {import('./captures.js').Taken} */
    const taken = {};
    for (let i = 0; i <= this.step; i++) {
      const s = this.steps[i];
      addCaptures(taken, s);
      if (s.kind === 'roll') {
        roll = s.seat ? { seat: this.letter[s.seat], roll: s.roll || '', note: '' } : { seat: '', roll: '', note: rollOffText(pr, s.roll || '') };
      }
      if (s.kind === 'action') {
        const a = parseAction(s.action || '');
        if (a.type === 'move') {
          lastMoves[this.letter[s.seat || '']] = { from: a.from, to: a.to };
          latest = this.letter[s.seat || ''];
        }
      }
    }
    const mover = e.to_act || e.seat || pr.seats[0].seat;
    const bottom = this.view === 'auto' ? mover : this.view;
    this.board.setBottom(this.letter[bottom] || 'b');
    /** @type {{from: number, to: number}|null} */
    let hint = null;
    const cached = this.analysis.on ? this.analysis.cache.get(e.position) : undefined;
    if (cached && cached.best) {
      const a = parseAction(cached.best);
      if (a.type === 'move') hint = { from: a.from, to: a.to };
    }
    this.board.render({ pos, actions: e.actions || [], canAct: false, lastMoves, latest, hint });
    const left = pos.seat === roll.seat ? (e.dice || '-') : '-';
    this.dice.show({ seat: roll.seat, rolled: roll.roll, left, animate: false, control: parseExtra(pos.extra).control, note: roll.note });
    const status = seatStatus(pr, pos);
    const atEnd = this.step === this.steps.length - 1 && this.end;
    // The seats as they were at this step: bots take seats during a game.
    const seats = this.seats.map((s) => {
      const t = this.takeovers.filter((t) => t.seat === s.seat && t.after < this.step).pop();
      return t ? { ...s, player: t.player } : s;
    });
    this.seatsView.render({
      seats, scores: e.scores || pos.scores, ranks: atEnd && this.end ? this.end.ranks || null : null,
      toAct: e.to_act || '', frozen: status.frozen, out: status.out, held: new Set(), deadline: '', over: !!atEnd,
      team: status.team, commands: status.commands, banks: this.banksAt(this.step),
    });
    this.moves.render(this.turns, this.step, this.review.on ? this.review.marks : undefined);
    this.review.render(this.step);
    this.trays.render(taken);
    if (this.chart) this.chart.render(this.points, this.step);
    /** @type {HTMLInputElement} */ (byId('slider')).value = String(this.step);
    byId('step-label').textContent = `${this.step} / ${this.steps.length - 1}`;
    const what = e.kind === 'start' ? 'Start position'
      : e.kind === 'roll' ? (e.seat ? `${e.seat} rolled ${e.roll}` : roll.note) : `${e.seat} played ${e.action}`;
    const prev = this.step > 0 ? this.steps[this.step - 1] : null;
    const detail = e.kind === 'action' && prev && prev.position ? said(this.words, e, parsePosition(prev.position), roll.roll) : '';
    replace(byId('turn'), e.seat ? armyBadge(this.letter[e.seat], 22) : '', ' ', h('strong', {}, what),
      atEnd && this.end ? ` — game over: ${this.end.end}` : '',
      detail ? h('span', { class: 'turn-last', id: 'turn-last' }, detail) : null);
    document.body.dataset.step = String(this.step);
    // Drawn again once the analysis comes, for its hint: only if it was not
    // in yet, or a position without a move to hint (a pass, the game's
    // end) would draw itself again without end.
    if (this.analysis.on) this.analysis.update(e.position).then(() => {
      if (this.steps[this.step] === e && !cached && this.analysis.cache.get(e.position)) this.draw();
    });
  }

  async verify() {
    const out = byId('verify-result');
    out.className = 'verify-result small';
    out.textContent = 'Checking every roll…';
    const d = this.preset.dice;
    try {
      const v = await verifyDice({
        gameId: id, seed: this.st.seed || '', seedHash: this.st.seed_hash,
        faces: d ? d.faces : [], count: d ? d.count : 0,
        rolls: this.steps.filter((e) => e.kind === 'roll').map((e) => e.roll || ''),
        rollOff: this.preset.roll_off,
      });
      if (!v.ok) {
        out.className = 'verify-result small bad';
        out.textContent = `✗ ${v.problem}`;
        return;
      }
      const dice = `✓ The seed matches the hash published at the start, and all ${v.rolls} rolls follow from it (checked ${v.where === 'page' ? 'in this page' : 'by the server'}).`;
      out.textContent = `${dice} Checking the moves, the result and the signature…`;
      const r = await verifyRecord(id);
      out.className = `verify-result small ${r.ok ? 'ok' : 'bad'}`;
      out.textContent = r.ok
        ? `${dice} ✓ All ${r.turns} turns are legal and the result ${r.result} is the game's. ${signatureNote(r)}`
        : `${dice} ✗ ${r.problem}`;
    } catch (e) {
      out.className = 'verify-result small bad';
      out.textContent = `The check failed: ${/** @type {Error} */ (e).message}`;
    }
  }
}

/**
 * signatureNote says what the record's signature shows.
 * @param {import('./verify.js').RecordVerdict} r
 */
function signatureNote(r) {
  switch (r.signature) {
    case 'valid': return `✓ Signed by this server's key ${r.key.slice(0, 8)}…${r.key.slice(-8)} (GET /api/key): the record is the one it served.`;
    case 'unchecked': return `The record is signed by ${r.signer.slice(0, 8)}…, but this server shows no key to check it with.`;
    default: return 'The record is not signed: this server has no signing key.';
  }
}

main();
