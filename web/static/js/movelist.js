// @ts-check
// The move list: one line per turn, as the record groups them (a roll and
// the actions taken with it, whoever decided them), the seat's army, its
// roll and its actions, with what each took and scored and why the server
// played one itself; the newest at the bottom. The replay viewer makes the
// actions buttons that jump to a step.

import { h } from './dom.js';
import { armyBadge } from './pieces.js';
import { parseExtra } from './position.js';
import { Names, marks, moveText } from './effects.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {{text: string, step: number, event?: GameEvent, decider?: string}} ActionItem
 *   text: the action in notation; event: the action's event (its captures,
 *   gains, reason); decider: the colour letter of the seat that decided it,
 *   if not the line's
 * @typedef {{mark: string, cls: string, title: string}} MoveMark
 *   a review's judgement of an action: its mark ("??", "?", "?!"), its
 *   class ("blunder", "mistake", "inaccuracy") and what it lost, in words
 * @typedef {{seat: string, roll: string, actions: ActionItem[], step: number, note?: string}} TurnLine
 *   seat: colour letter; step: the replay step of the roll (or first action);
 *   note: a line that is no seat's turn (martian's roll-off, a bot taking
 *   a seat); only the other lines are numbered, as the record numbers them
 */

/**
 * addEvent puts a roll or an action in the lines, as the record groups a
 * game's turns (docs/notation.md, movetext): with dice a roll opens the
 * turn of the seat that rolled, and every action until the next roll is
 * that turn's, whoever decides it (a partner commanding through the
 * throne, the owner of a king answering an exchange): `y 2 d1b3` is one
 * line even when East moved for West. Without dice an action opens a turn,
 * of the seat whose turn it is, unless it answers a decision pending in
 * the turn before it. Other events are not lines (see addTakeover).
 * @param {TurnLine[]} turns
 * @param {GameEvent} e
 * @param {{letter: Record<string, string>, dice: boolean, before: import('./position.js').Position, step: number,
 *   rollOff: (roll: string) => string}} ctx
 *   letter: colour letters by seat name; before: the position before the
 *   event; step: the event's step; rollOff: the words of martian's roll-off
 */
export function addEvent(turns, e, ctx) {
  if (e.kind === 'roll') {
    if (!e.seat) turns.push({ seat: '', roll: '', actions: [], step: ctx.step, note: ctx.rollOff(e.roll || '') });
    else turns.push({ seat: ctx.letter[e.seat] || '', roll: e.roll || '', actions: [], step: ctx.step });
    return;
  }
  if (e.kind !== 'action') return;
  const decider = ctx.letter[e.seat || ''] || '';
  let line = null;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (!turns[i].note) { line = turns[i]; break; }
  }
  const pending = !!parseExtra(ctx.before.extra).turn;
  if (!line || (!ctx.dice && !pending)) {
    line = { seat: ctx.before.seat || decider, roll: ctx.dice ? '' : '-', actions: [], step: ctx.step };
    turns.push(line);
  }
  line.actions.push({ text: e.action || '', step: ctx.step, event: e, decider: decider !== line.seat ? decider : '' });
}

export class MoveList {
  /**
   * @param {HTMLElement} host an <ol>
   * @param {import('./api.js').Preset} preset
   * @param {(step: number) => void} [onPick] makes each action a button
   */
  constructor(host, preset, onPick) {
    this.host = host;
    this.preset = preset;
    this.onPick = onPick;
    /** @type {Record<string,string>} seat name by letter */
    this.names = Object.fromEntries(preset.seats.map((s) => [s.letter, s.seat]));
    this.words = new Names(preset);
    /** @type {Map<number, MoveMark>} */
    this.marks = new Map();
    /** @type {{key: string, el: HTMLElement}[]} the lines drawn, with what each shows */
    this.lines = [];
  }

  /**
   * render lists the turns; `current` is the step shown, -1 for the latest;
   * `marks` are a review's marks of the actions, by step.
   * @param {TurnLine[]} turns
   * @param {number} [current]
   * @param {Map<number, MoveMark>} [marks]
   */
  render(turns, current = -1, marks = new Map()) {
    this.marks = marks;
    let n = 0; // turns numbered as the record numbers its turn groups: notes aside
    /** @type {{key: string, el: HTMLElement}[]} */
    const lines = turns.map((t, i) => {
      if (!t.note) n++;
      // A line is drawn again only when what it shows changed: a page
      // drawn at each event of a long game would otherwise build every
      // line of it again and again.
      const key = this.key(t, n, current, marks);
      const had = this.lines[i];
      return had && had.key === key ? had : { key, el: this.line(t, n, current) };
    });
    const atEnd = this.host.scrollHeight - this.host.scrollTop - this.host.clientHeight < 40;
    lines.forEach((l, i) => {
      const at = this.host.children[i];
      if (at !== l.el) {
        if (at) this.host.replaceChild(l.el, at);
        else this.host.appendChild(l.el);
      }
    });
    while (this.host.children.length > lines.length) this.host.lastChild?.remove();
    this.lines = lines;
    if (this.onPick) {
      // Scroll the list alone to the current step: scrollIntoView would
      // scroll the page too, and take the board out of view.
      const cur = /** @type {HTMLElement|null} */ (this.host.querySelector('.current'));
      if (cur) {
        const top = cur.getBoundingClientRect().top - this.host.getBoundingClientRect().top + this.host.scrollTop;
        if (top < this.host.scrollTop) this.host.scrollTop = top;
        else if (top + cur.offsetHeight > this.host.scrollTop + this.host.clientHeight) this.host.scrollTop = top + cur.offsetHeight - this.host.clientHeight;
      }
    } else if (atEnd || current === -1) {
      this.host.scrollTop = this.host.scrollHeight;
    }
  }

  /**
   * key sums up what a line shows: it is drawn again when that changes.
   * @param {TurnLine} t
   * @param {number} n the line's number
   * @param {number} current
   * @param {Map<number, MoveMark>} marks
   * @returns {string}
   */
  key(t, n, current, marks) {
    const acts = t.actions.map((a) => {
      const m = marks.get(a.step);
      return `${a.step}:${a.text}:${a.decider || ''}:${a.step === current ? 'c' : ''}:${m ? `${m.cls}:${m.title}` : ''}:${a.event ? 'e' : ''}`;
    });
    return `${n}|${t.step}|${t.note || ''}|${t.step === current ? 'c' : ''}|${t.seat}|${t.roll}|${acts.join(',')}`;
  }

  /**
   * line makes the list item of one line.
   * @param {TurnLine} t
   * @param {number} n the line's number
   * @param {number} current
   * @returns {HTMLElement}
   */
  line(t, n, current) {
    if (t.note) {
      return h('li', { class: 'move-line note' },
        this.onPick
          ? h('button', { type: 'button', class: ['move-act', t.step === current && 'current'], onclick: () => this.onPick && this.onPick(t.step) }, t.note)
          : h('span', { class: 'move-act' }, t.note));
    }
    return h('li', { class: 'move-line', 'data-turn': n },
      h('span', { class: 'move-no' }, String(n)),
      armyBadge(t.seat, 16),
      h('span', { class: 'sr-only' }, this.names[t.seat] || t.seat),
      h('span', { class: 'move-roll', title: 'roll' }, t.roll && t.roll !== '-' ? t.roll : ''),
      h('span', { class: 'move-acts' }, ...t.actions.map((a) => this.action(a, current))));
  }

  /**
   * action makes one action of a line: the decider's token if it is not
   * the line's seat, the action (a capture marked with x), the pieces it
   * took and the points, other score changes with their causes, and why
   * the server played it.
   * @param {ActionItem} a
   * @param {number} current
   */
  action(a, current) {
    const e = a.event;
    const text = e ? moveText(e) : a.text;
    const cls = ['move-act', a.step === current && 'current', e && (e.captures || []).length > 0 && 'capture', e && (e.by === 'auto' || e.by === 'timeout') && 'auto'];
    const act = this.onPick
      ? h('button', { type: 'button', class: cls, 'data-action': a.text, 'data-step': a.step, onclick: () => this.onPick && this.onPick(a.step) }, text)
      : h('span', { class: cls, 'data-action': a.text }, text);
    const m = this.marks && this.marks.get(a.step);
    const judged = m ? h('span', { class: `move-mark ${m.cls}`, 'data-class': m.cls, 'data-step': a.step, title: m.title },
      m.mark, h('span', { class: 'sr-only' }, ` ${m.title}`)) : null;
    const by = a.decider
      ? h('span', { class: 'move-by', title: `decided by ${this.names[a.decider] || a.decider}` }, armyBadge(a.decider, 12), h('span', { class: 'sr-only' }, `${this.names[a.decider] || a.decider} decides: `))
      : null;
    return h('span', { class: 'move-item' }, by, act, judged, ...(e ? marks(this.words, e) : []));
  }
}

/**
 * addTakeover puts a seat event's note in the move list, just above the
 * turn in which the bot first plays, the turn the record's Takeover tag
 * names: with dice the seat has rolled, so its turn is the last line;
 * without, the bot's action opens the next line.
 * @param {TurnLine[]} turns
 * @param {{seat?: string, player?: string, reason?: string}} e the seat event
 * @param {string} letter the seat's colour letter
 * @param {boolean} dice the preset rolls dice
 * @param {number} step the note's step
 */
export function addTakeover(turns, e, letter, dice, step) {
  const why = takeoverWhy(e.reason);
  const note = { seat: '', roll: '', actions: [], step, note: `${e.seat}: ${e.player} takes over (${why})` };
  const last = turns[turns.length - 1];
  if (dice && last && !last.note && last.seat === letter) turns.splice(turns.length - 1, 0, note);
  else turns.push(note);
}

/**
 * takeoverWhy says why a bot took a seat, from a seat event's reason.
 * @param {string|undefined} reason "timeout", "idle", "resigned", "left", "expired" or "abandoned"
 * @returns {string}
 */
export function takeoverWhy(reason) {
  if (reason === 'timeout') return 'out of time';
  if (reason === 'idle') return 'the player did not act';
  if (reason === 'resigned') return 'the player resigned';
  if (reason === 'expired') return 'nobody was at the table';
  if (reason === 'left') return 'the player left the game';
  return 'the player left';
}
