// @ts-check
// The captured pieces: each seat's tray of the pieces it took, as the
// action events tell them (the seat that decided an action scores its
// captures), with the points they brought.

import { h, replace } from './dom.js';
import { armyBadge, pieceChip } from './pieces.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./api.js').Capture} Capture
 * @typedef {Record<string, Capture[]>} Taken the pieces each seat took, by seat name
 */

/**
 * addCaptures adds what an action event took to the seat that decided it.
 * @param {Taken} taken
 * @param {GameEvent} e
 */
export function addCaptures(taken, e) {
  if (e.kind !== 'action' || !e.seat || !e.captures || e.captures.length === 0) return;
  (taken[e.seat] = taken[e.seat] || []).push(...e.captures);
}

export class Trays {
  /**
   * @param {HTMLElement} host
   * @param {import('./api.js').Preset} preset
   */
  constructor(host, preset) {
    this.host = host;
    this.preset = preset;
    /** @type {Record<string, string>} colour letter by seat name */
    this.letter = Object.fromEntries(preset.seats.map((s) => [s.seat, s.letter]));
    /** @type {Record<string, string>} piece name by letter */
    this.names = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.name]));
    this.key = '';
  }

  /**
   * render draws every seat's tray, in turn order.
   * @param {Taken} taken
   */
  render(taken) {
    const key = JSON.stringify(taken);
    if (key === this.key) return;
    this.key = key;
    const points = this.preset.goal === 'points';
    const rows = this.preset.order.map((seat) => {
      const list = taken[seat] || [];
      const sum = list.reduce((s, c) => s + c.points, 0);
      return h('li', { class: 'tray', 'data-seat': seat },
        armyBadge(this.letter[seat], 18),
        h('span', { class: 'tray-seat' }, seat),
        h('span', { class: 'tray-pieces', 'aria-label': list.length ? `${seat} took ${list.map((c) => `${c.seat}'s ${this.names[c.piece] || c.piece}`).join(', ')}` : `${seat} took nothing yet` },
          ...(list.length
            ? list.map((c) => h('span', { class: 'tray-piece', 'data-piece': this.letter[c.seat] + c.piece, title: `${c.seat}'s ${this.names[c.piece] || c.piece} (${c.square})` }, pieceChip(this.letter[c.seat] || 'b', c.piece, 20)))
            : [h('span', { class: 'muted small' }, 'nothing yet')])),
        points && sum ? h('span', { class: 'tray-points', title: 'points from captures' }, `+${sum}`) : null);
    });
    replace(this.host, h('h2', { class: 'panel-title' }, 'Captured'), h('ul', { class: 'trays' }, ...rows));
  }
}
