// @ts-check
// The dice: the faces rolled this turn, drawn as dice with pips, each with
// the kind of piece it moves; a die already used is dimmed. A new roll
// tumbles for a moment (not for people who ask for reduced motion).

import { h, s } from './dom.js';
import { kindIcon } from './pieces.js';
import { splitRoll } from './decisions.js';

/** Pip positions of each face, in a 100 x 100 die. */
const pips = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

/**
 * dieFace draws one die showing a face.
 * @param {number} face
 * @param {boolean} long a long die (drawn as a stick seen from above)
 */
export function dieFace(face, long) {
  const p = pips[/** @type {keyof pips} */ (face)] || [];
  return s('svg', { viewBox: long ? '0 -10 100 120' : '0 0 100 100', class: long ? 'die long' : 'die', role: 'img', 'aria-label': `die: ${face}` },
    s('rect', { x: 4, y: long ? -6 : 4, width: 92, height: long ? 112 : 92, rx: 18, class: 'die-body' }),
    ...p.map(([x, y]) => s('circle', { cx: x, cy: y, r: 9, class: 'pip' })));
}

export class Dice {
  /**
   * @param {HTMLElement} host
   * @param {import('./api.js').Preset} preset
   */
  constructor(host, preset) {
    this.host = host;
    this.preset = preset;
    /** @type {Record<string, string>} role by letter */
    this.roles = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.role]));
    /** @type {Record<string, string>} name by letter */
    this.names = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.name]));
    this.timer = 0;
  }

  /**
   * show draws the roll of a seat: `rolled` the faces rolled ("25"; with
   * martian's second pair "13/24"), `left` the faces not used yet; animate
   * tumbles the dice first.
   * @param {{seat: string, rolled: string, left: string, animate: boolean, control?: string, note?: string}} r
   *   seat: the colour letter of the roller; control: that of the army the
   *   second pair moves; note: a roll that is no seat's dice (the roll-off)
   */
  show(r) {
    const d = this.preset.dice;
    clearInterval(this.timer);
    if (!d) {
      this.host.replaceChildren(h('p', { class: 'dice-note' }, 'No dice in this game: any piece may move.'));
      return;
    }
    if (r.note) {
      this.host.replaceChildren(h('p', { class: 'dice-note' }, r.note));
      return;
    }
    if (!r.rolled || r.rolled === '-') {
      this.host.replaceChildren(h('p', { class: 'dice-note' }, 'Waiting for the roll…'));
      return;
    }
    const long = d.die === 'long';
    const rolled = splitRoll(r.rolled), left = splitRoll(r.left);
    /** @type {number[]} */
    const faces = [];
    /**
     * @param {string} roll
     * @param {string} unused
     * @param {string} seat
     */
    const boxes = (roll, unused, seat) => {
      const rest = [...unused];
      return [...roll].map(Number).map((f) => {
        faces.push(f);
        const i = rest.indexOf(String(f));
        const used = i < 0;
        if (!used) rest.splice(i, 1);
        const word = d.words[String(f)] || '';
        const letters = d.kinds[String(f)] || '';
        return h('div', { class: ['die-box', used && 'used'], 'data-face': f, 'data-seat': seat },
          dieFace(f, long),
          h('div', { class: 'die-kinds' },
            ...[...letters].map((l) => kindIcon(seat, this.roles[l] || 'pawn', l, 28, this.names[l]))),
          h('div', { class: 'die-word' }, letters ? word : 'no piece'));
      });
    };
    const els = boxes(rolled.own, left.own, r.seat);
    if (rolled.control) {
      const ctrl = r.control || r.seat;
      els.push(h('div', { class: 'dice-pair-note' }, 'and for the army it controls:'), ...boxes(rolled.control, left.control, ctrl));
    }
    this.host.replaceChildren(...els);
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!r.animate || reduce) return;
    // Tumble: show random faces for a moment, then settle on the roll.
    const all = [...this.host.querySelectorAll('.die-box')];
    all.forEach((b) => b.classList.add('rolling'));
    let n = 0;
    this.timer = window.setInterval(() => {
      n++;
      all.forEach((b, i) => {
        const f = n >= 8 ? faces[i] : d.faces[Math.floor(Math.random() * d.faces.length)];
        const old = b.querySelector('svg.die');
        if (old) old.replaceWith(dieFace(f, long));
      });
      if (n >= 8) {
        clearInterval(this.timer);
        all.forEach((b) => b.classList.remove('rolling'));
      }
    }, 70);
  }
}
