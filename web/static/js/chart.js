// @ts-check
// The score chart: every seat's score along the game, one line per army in
// its colour, ending in the army's token (its shape tells the armies apart
// without colour) and its final number. The replay marks the step it shows
// and jumps to the step under a click. The same chart, in its expected
// mode, draws a game's review: each seat's expected final score along the
// game as straight lines from point to point (the scores themselves move
// in steps), each line through its own points only, with a dot at each
// marked decision.

import { s, replace } from './dom.js';
import { armies, armyBadge } from './pieces.js';

/**
 * @typedef {{step: number, scores: (number|null)[]}} ScorePoint
 *   step: the replay step (or event number) after which the seats had
 *   these scores, in seat order; in the expected mode a seat's null is no
 *   point of its line
 * @typedef {{step: number, seat: number, value: number, cls: string, title: string}} ChartMark
 *   a dot on seat's line (its index in seat order) at step and value; cls
 *   names its kind ("blunder", ...), title says what it is
 * @typedef {{expected?: boolean, label?: string, fit?: boolean, axis?: string, badges?: boolean}} ChartOptions
 *   expected: lines from point to point, the values to one decimal;
 *   label: what the chart shows, for its accessible name; fit: the
 *   vertical axis spans the values (rounded out to fifties) rather than
 *   zero to the highest, its values whole, as a rating's graph wants; axis: the words
 *   under the horizontal axis; badges: false leaves out the armies'
 *   tokens at the lines' ends
 */

/** The drawing's size in SVG units, and its plot area. */
const W = 360, H = 170;
const plot = { left: 34, right: W - 40, top: 10, bottom: H - 22 };

export class ScoreChart {
  /**
   * @param {HTMLElement} host
   * @param {import('./api.js').Preset} preset
   * @param {(step: number) => void} [onPick] a click picks the step under it
   * @param {ChartOptions} [opts]
   */
  constructor(host, preset, onPick, opts = {}) {
    this.host = host;
    this.preset = preset;
    this.onPick = onPick;
    this.expected = !!opts.expected;
    this.label = opts.label || 'Scores along the game';
    this.fit = !!opts.fit;
    this.axisWords = opts.axis || '';
    this.badges = opts.badges !== false;
  }

  /**
   * render draws the scores; `current` is the step to mark, -1 for none.
   * Points come in step order; the chart spans steps 0 to the last point's
   * (or to `span`, if given and larger: a review still short of the end).
   * @param {ScorePoint[]} points
   * @param {number} [current]
   * @param {ChartMark[]} [marks]
   * @param {number} [span]
   */
  render(points, current = -1, marks = [], span = 0) {
    const seats = this.preset.seats;
    if (points.length === 0) {
      replace(this.host);
      return;
    }
    const last = points[points.length - 1];
    const top = Math.max(10, ...points.flatMap((p) => p.scores.filter((v) => typeof v === 'number')));
    /** @type {number[]} each seat's value at the end: its last point's */
    const end = seats.map((_, i) => {
      if (!this.expected) return last.scores[i] ?? 0;
      for (let j = points.length - 1; j >= 0; j--) {
        const v = points[j].scores[i];
        if (typeof v === 'number') return v;
      }
      return 0;
    });
    const values = points.flatMap((p) => p.scores.filter((v) => typeof v === 'number'));
    let max = Math.ceil(top / 10) * 10; // the top gridline, a round number
    let min = 0;
    if (this.fit) {
      min = Math.floor(Math.min(...values) / 50) * 50;
      max = Math.max(min + 100, Math.ceil(Math.max(...values) / 50) * 50);
    }
    span = Math.max(1, last.step, span);
    const num = (/** @type {number} */ v) => this.expected && !this.fit ? v.toFixed(1) : String(v);
    const x = (/** @type {number} */ step) => plot.left + (plot.right - plot.left) * step / span;
    const y = (/** @type {number} */ score) => plot.bottom - (plot.bottom - plot.top) * (score - min) / (max - min);

    const grid = [min, (min + max) / 2, max].map((v) => s('g', { class: 'chart-grid', 'data-value': v },
      s('line', { x1: plot.left, x2: plot.right, y1: y(v), y2: y(v) }),
      s('text', { x: plot.left - 5, y: y(v) + 4, 'text-anchor': 'end' }, String(v))));
    const axis = s('text', { class: 'chart-axis', x: (plot.left + plot.right) / 2, y: H - 6, 'text-anchor': 'middle' },
      this.axisWords || (this.preset.dice ? 'rolls and actions' : 'actions'));

    const lines = seats.map((seat, i) => {
      let d = `M${x(0)} ${y(min)}`;
      if (this.expected) {
        const own = points.filter((p) => typeof p.scores[i] === 'number');
        d = own.map((p, j) => `${j ? 'L' : 'M'}${x(p.step)} ${y(Math.max(min, p.scores[i] ?? 0))}`).join(' ');
      } else {
        let prev = 0;
        for (const p of points) {
          const v = p.scores[i] ?? prev;
          if (v !== prev) d += ` H${x(p.step)} V${y(v)}`;
          prev = v;
        }
        d += ` H${x(last.step)}`;
      }
      // The army's dark edge under its colour, so that yellow shows on cream.
      return s('g', { class: 'score-line', 'data-seat': seat.seat },
        s('path', { class: 'score-edge', d, stroke: armies[seat.letter].stroke }),
        s('path', { class: 'score-fill', d, stroke: armies[seat.letter].fill }));
    });
    // The ends: each army's token and its final score, placed from the
    // lowest score up and nudged up where they would touch, so that they
    // keep the order of the scores.
    const at = /** @type {number[]} */ ([]);
    let above = Infinity; // the y of the label placed last
    for (const i of seats.map((_, i) => i).sort((a, b) => end[a] - end[b])) {
      at[i] = Math.min(y(Math.max(min, end[i])), above - 12);
      above = at[i];
    }
    const ends = seats.map((seat, i) => {
      const badge = this.badges ? armyBadge(seat.letter, 12) : null;
      if (badge) {
        badge.setAttribute('x', String(plot.right + 3));
        badge.setAttribute('y', String(at[i] - 6));
      }
      return s('g', { class: 'chart-end', 'data-seat': seat.seat }, badge,
        s('text', { x: plot.right + (badge ? 17 : 3), y: at[i] + 4 }, num(end[i])));
    });
    const dots = marks.map((m) => s('circle', {
      class: ['chart-mark', m.cls], 'data-step': m.step, 'data-seat': seats[m.seat] ? seats[m.seat].seat : '',
      cx: x(m.step), cy: y(Math.max(min, m.value)), r: 3.5, fill: seats[m.seat] ? armies[seats[m.seat].letter].fill : 'currentColor',
    }, s('title', {}, m.title)));
    const mark = current >= 0
      ? s('line', { class: 'chart-current', x1: x(current), x2: x(current), y1: plot.top, y2: plot.bottom })
      : null;

    const words = seats.map((seat, i) => `${seat.seat} ${num(end[i])}`).join(', ');
    const svg = s('svg', {
      class: ['score-chart', this.onPick && 'pickable'], viewBox: `0 0 ${W} ${H}`, role: 'img',
      'aria-label': `${this.label}; at the end: ${words}`, 'data-steps': span,
    }, ...grid, axis, ...lines, ...dots, ...ends, mark);
    if (this.onPick) {
      const pick = this.onPick;
      svg.addEventListener('click', (ev) => {
        const box = svg.getBoundingClientRect();
        const ux = (ev.clientX - box.left) * W / box.width;
        const step = Math.round((ux - plot.left) / (plot.right - plot.left) * span);
        pick(Math.max(0, Math.min(span, step)));
      });
    }
    replace(this.host, svg);
  }
}
