// @ts-check
// The move list: one line per turn, the seat's army, its roll and its
// actions, the newest at the bottom. The replay viewer makes the lines
// buttons that jump to a step.

import { h, replace } from './dom.js';
import { armyBadge } from './pieces.js';

/**
 * @typedef {{seat: string, roll: string, actions: {text: string, step: number}[], step: number, note?: string}} TurnLine
 *   seat: colour letter; step: the replay step of the roll (or first action);
 *   note: a line that is no seat's turn (martian's roll-off)
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
    const items = turns.map((t, n) => {
      if (t.note) {
        return h('li', { class: 'move-line note', 'data-turn': n + 1 },
          this.onPick
            ? h('button', { type: 'button', class: ['move-act', t.step === current && 'current'], onclick: () => this.onPick && this.onPick(t.step) }, t.note)
            : h('span', { class: 'move-act' }, t.note));
      }
      const acts = t.actions.length ? t.actions : [];
      return h('li', { class: 'move-line', 'data-turn': n + 1 },
        h('span', { class: 'move-no' }, String(n + 1)),
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
      const cur = this.host.querySelector('.current');
      if (cur) cur.scrollIntoView({ block: 'nearest' });
    } else if (atEnd || current === -1) {
      this.host.scrollTop = this.host.scrollHeight;
    }
  }
}
