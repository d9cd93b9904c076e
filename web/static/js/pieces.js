// @ts-check
// How armies and pieces look: each army has its colour AND its own token
// shape (circle, square, hexagon, diamond), so that players who do not tell
// the colours apart still tell the armies apart; each kind of piece has its
// own glyph and its letter in a badge.

import { s } from './dom.js';

/**
 * @typedef {{name: string, fill: string, stroke: string, ink: string, shape: string}} Army
 */

/** The colours an army may have, by name (web.SeatInfo's colour). */
const palette = {
  black: { fill: '#2a2c30', stroke: '#000000', ink: '#f6f1e4' },
  yellow: { fill: '#f2c230', stroke: '#6b5200', ink: '#2b2200' },
  green: { fill: '#1f8a50', stroke: '#0a3b20', ink: '#f4fff7' },
  red: { fill: '#d43a30', stroke: '#5c0e09', ink: '#fff6f3' },
  blue: { fill: '#2f62c8', stroke: '#0d275e', ink: '#f2f6ff' },
};

/** Each seat's token shape, by colour letter: it never changes with the colours. */
const shapes = { b: 'circle', y: 'square', g: 'hexagon', r: 'diamond' };

/**
 * army makes the look of a seat's army in a colour.
 * @param {string} letter the seat's colour letter
 * @param {string} colour a colour of the palette
 * @returns {Army}
 */
function army(letter, colour) {
  const c = palette[/** @type {keyof palette} */ (colour)] || palette.black;
  return { name: colour[0].toUpperCase() + colour.slice(1), ...c, shape: shapes[/** @type {keyof shapes} */ (letter)] || 'circle' };
}

/** @type {Record<string, Army>} armies by colour letter */
export const armies = {
  b: army('b', 'black'), y: army('y', 'yellow'), g: army('g', 'green'), r: army('r', 'red'),
};

/**
 * paint gives the armies the colours a preset shows them in (martian's
 * South is blue); the shapes stay. A page calls it once, before drawing.
 * @param {{seats: {letter: string, colour: string}[]}} preset
 */
export function paint(preset) {
  for (const s of preset.seats) {
    if (palette[/** @type {keyof palette} */ (s.colour)]) armies[s.letter] = army(s.letter, s.colour);
  }
}

/** Glyphs of the kinds of piece, by role, in a 100 x 100 cell. */
const glyphs = {
  king: [
    'M29 64 L25 35 L39 47 L50 27 L61 47 L75 35 L71 64 Z',
    'M29 68 H71 V76 H29 Z',
    'M46 22 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 Z',
  ],
  elephant: [
    // a side view: body and legs, then the head with its trunk
    'M36 32 Q42 27 54 27 L64 27 Q81 27 81 45 L81 64 L74 64 L74 77 L65 77 L65 64 L52 64 L52 77 L43 77 L43 62 Q37 60 36 54 Z',
    'M40 29 Q22 25 18 42 Q16 52 15 62 Q14 73 22 75 L24 69 Q21 67 22 61 L26 51 Q31 58 41 55 Z',
  ],
  horse: [
    'M34 76 L68 76 L66 66 Q72 52 66 38 Q60 26 46 26 L42 19 L38 29 Q30 35 27 46 L25 54 L31 58 L39 52 Q45 51 46 56 Q41 64 34 70 Z',
  ],
  boat: [
    'M22 58 L78 58 L68 73 L32 73 Z',
    'M48 24 H52 V58 H48 Z',
    'M54 26 L72 54 L54 54 Z',
    'M46 32 L32 54 L46 54 Z',
  ],
  pawn: [
    'M50 24 a10 10 0 1 0 0.1 0 Z',
    'M38 76 L62 76 L59 66 Q57 56 60 50 L40 50 Q43 56 41 66 Z',
    'M36 46 H64 V51 H36 Z',
  ],
  vizir: [
    'M50 22 L66 48 L50 76 L34 48 Z',
  ],
};

/**
 * tokenShape draws an army's token in a 100 x 100 cell.
 * @param {Army} a
 */
function tokenShape(a) {
  const common = { fill: a.fill, stroke: a.stroke, 'stroke-width': 4, 'stroke-linejoin': 'round', class: 'token' };
  switch (a.shape) {
    case 'square':
      return s('rect', { ...common, x: 12, y: 12, width: 76, height: 76, rx: 14 });
    case 'hexagon':
      return s('polygon', { ...common, points: '93,50 71.5,87 28.5,87 7,50 28.5,13 71.5,13' });
    case 'diamond':
      return s('polygon', { ...common, points: '50,5 95,50 50,95 5,50' });
    default:
      return s('circle', { ...common, cx: 50, cy: 50, r: 42 });
  }
}

/**
 * pieceGroup draws a piece in a 100 x 100 cell: the army's token, the
 * kind's glyph and the piece's letter.
 * @param {string} seat colour letter
 * @param {string} letter the piece's letter
 * @param {string} role the kind's role (king, elephant, horse, boat, pawn, vizir)
 * @param {string} title the piece's name for people, such as "Green horse"
 * @returns {SVGElement}
 */
export function pieceGroup(seat, letter, role, title) {
  const a = armies[seat] || armies.b;
  const paths = glyphs[/** @type {keyof glyphs} */ (role)] || glyphs.pawn;
  const scale = a.shape === 'diamond' ? 0.82 : 0.92;
  const off = 50 * (1 - scale);
  return s('g', { class: 'piece-art' },
    s('title', {}, title),
    tokenShape(a),
    s('g', { transform: `translate(${off} ${off}) scale(${scale})`, fill: a.ink },
      ...paths.map((d) => s('path', { d }))),
    s('circle', { cx: 81, cy: 81, r: 14, fill: '#fffdf6', stroke: '#1c1c1c', 'stroke-width': 2.5, class: 'badge' }),
    s('text', { x: 81, y: 87.5, 'text-anchor': 'middle', class: 'piece-letter' }, letter),
  );
}

/**
 * armyBadge draws an army's token alone, for the seat lists.
 * @param {string} seat colour letter
 * @param {number} [size] pixels
 */
export function armyBadge(seat, size = 22) {
  const a = armies[seat] || armies.b;
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'army-badge', 'aria-hidden': 'true' }, tokenShape(a));
}

/**
 * kindIcon draws a kind's glyph on an army's token, for the dice.
 * @param {string} seat
 * @param {string} role
 * @param {string} letter
 * @param {number} [size]
 */
export function kindIcon(seat, role, letter, size = 30) {
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'kind-icon', 'aria-hidden': 'true' },
    pieceGroup(seat, letter, role, ''));
}
