// @ts-check
// The move list: one line per turn, the seat's army, its roll and its
// actions, the newest at the bottom. The replay viewer makes the lines
// buttons that jump to a step.

import { h, replace } from './dom.js';
import { armyBadge } from './pieces.js';

/**
 * @typedef {{seat: string, roll: string, actions: {text: string, step: number}[], step: number, note?: string}} TurnLine
 *   seat: colour letter; step: the replay step of the roll (or first action);
 *   note: a line that is no seat's turn (martian's roll-off, a bot taking
 *   a seat); only the other lines are numbered, as the record numbers them
 */

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
  }

  /**
   * render lists the turns; `current` is the step shown, -1 for the latest.
   * @param {TurnLine[]} turns
   * @param {number} [current]
   */
  render(turns, current = -1) {
    let n = 0; // turns numbered as the record numbers its turn groups: notes aside
    const items = turns.map((t) => {
      if (t.note) {
        return h('li', { class: 'move-line note' },
          this.onPick
            ? h('button', { type: 'button', class: ['move-act', t.step === current && 'current'], onclick: () => this.onPick && this.onPick(t.step) }, t.note)
            : h('span', { class: 'move-act' }, t.note));
      }
      const acts = t.actions.length ? t.actions : [];
      n++;
      return h('li', { class: 'move-line', 'data-turn': n },
        h('span', { class: 'move-no' }, String(n)),
        armyBadge(t.seat, 16),
        h('span', { class: 'sr-only' }, this.names[t.seat] || t.seat),
        h('span', { class: 'move-roll', title: 'roll' }, t.roll && t.roll !== '-' ? t.roll : ''),
        ...acts.map((a) => this.onPick
          ? h('button', { type: 'button', class: ['move-act', a.step === current && 'current'], onclick: () => this.onPick && this.onPick(a.step) }, a.text)
          : h('span', { class: 'move-act' }, a.text)));
    });
    const atEnd = this.host.scrollHeight - this.host.scrollTop - this.host.clientHeight < 40;
    replace(this.host, ...items);
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
 * @param {string|undefined} reason "timeout", "idle" or "abandoned"
 * @returns {string}
 */
export function takeoverWhy(reason) {
  if (reason === 'timeout') return 'out of time';
  if (reason === 'idle') return 'the player did not act';
  return 'the player left';
}
