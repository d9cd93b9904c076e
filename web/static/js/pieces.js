// @ts-check
// How armies and pieces look: each army has its colour AND its own token
// shape (circle, square, hexagon, diamond), so that players who do not tell
// the colours apart still tell the armies apart; each kind of piece has its
// own glyph and its letter in a badge.

import { s, h } from './dom.js';

/**
 * @typedef {{name: string, fill: string, stroke: string, ink: string, shape: string}} Army
 */

/** The colours an army may have, by name (web.SeatInfo's colour). */
const palette = {
  black: { fill: '#2a2c30', stroke: '#000000', ink: '#f6f1e4' },
  yellow: { fill: '#f2c230', stroke: '#4d3b00', ink: '#2b2200' }, // its outline, 3:1 or more on both squares
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
 * Glyphs of pieces that have their own names in a preset (martian), by
 * name: a paladin moves as no horse does, and a P on a horse would read as
 * a pawn; each such piece is drawn as itself. A path that starts with "!"
 * is filled even-odd (its inner shapes are holes).
 */
const namedGlyphs = {
  bishop: [
    // chess.com's bishop: a mitre with its slit, a collar and a foot
    '!M50 20 Q67 36 64 54 Q62 64 50 66 Q38 64 36 54 Q33 36 50 20 Z M54 31 L59 35 L49 48 L44 44 Z',
    'M45 15 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z',
    'M38 68 H62 V73 H38 Z',
    'M30 76 H70 V82 H30 Z',
  ],
  monarch: [
    'M27 66 L23 38 L37 50 L50 32 L63 50 L77 38 L73 66 Z',
    'M27 70 H73 V78 H27 Z',
    'M47 12 H53 V18 H59 V24 H53 V29 H47 V24 H41 V18 H47 Z',
  ],
  raven: [
    // a bird seen from the side: body and tail, head and beak
    'M22 62 Q26 44 46 42 Q52 30 64 30 Q72 30 76 36 L88 40 L76 44 Q74 56 64 62 L70 76 L60 70 Q50 74 40 72 L14 80 Z',
  ],
  paladin: [
    // a shield with a cross
    '!M28 22 H72 V48 Q72 70 50 82 Q28 70 28 48 Z M46 30 V44 H36 V52 H46 V72 H54 V52 H64 V44 H54 V30 Z',
  ],
  squire: [
    'M46 24 a9 9 0 1 0 0.1 0 Z',
    'M34 78 L58 78 L55 66 Q53 58 56 52 L36 52 Q39 58 37 66 Z',
    'M32 47 H60 V52 H32 Z',
    'M64 20 H68 V78 H64 Z',
    'M68 20 L84 27 L68 34 Z',
  ],
};

/**
 * glyphPaths returns the glyph of a piece: its own if its name has one,
 * else its role's.
 * @param {string} role
 * @param {string} [name]
 * @returns {string[]}
 */
function glyphPaths(role, name) {
  return namedGlyphs[/** @type {keyof namedGlyphs} */ (name || '')] || glyphs[/** @type {keyof glyphs} */ (role)] || glyphs.pawn;
}

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
 * @param {string} [name] the kind's name in its preset ("paladin"), whose own glyph it gets if there is one
 * @returns {SVGElement}
 */
export function pieceGroup(seat, letter, role, title, name) {
  const a = armies[seat] || armies.b;
  const paths = glyphPaths(role, name);
  const scale = a.shape === 'diamond' ? 0.82 : 0.92;
  const off = 50 * (1 - scale);
  return s('g', { class: 'piece-art' },
    s('title', {}, title),
    tokenShape(a),
    s('g', { transform: `translate(${off} ${off}) scale(${scale})`, fill: a.ink },
      ...paths.map((d) => d.startsWith('!') ? s('path', { d: d.slice(1), 'fill-rule': 'evenodd' }) : s('path', { d }))),
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
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'army-badge', 'data-army': seat, 'aria-hidden': 'true' }, tokenShape(a));
}

/**
 * pieceChip draws a piece small, as the move list and the captured-pieces
 * trays show it: its army's token with the piece's letter, readable at
 * sizes where a glyph is not.
 * @param {string} seat colour letter
 * @param {string} letter the piece's letter
 * @param {number} [size] pixels
 */
export function pieceChip(seat, letter, size = 18) {
  const a = armies[seat] || armies.b;
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'piece-chip', 'data-army': seat, 'aria-hidden': 'true' },
    tokenShape(a), s('text', { x: 50, y: 67, 'text-anchor': 'middle', fill: a.ink, class: 'chip-letter' }, letter));
}

/**
 * kindIcon draws a kind's glyph on an army's token, for the dice.
 * @param {string} seat
 * @param {string} role
 * @param {string} letter
 * @param {number} [size]
 * @param {string} [name] the kind's name in its preset
 */
export function kindIcon(seat, role, letter, size = 30, name = '') {
  return s('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'kind-icon', 'aria-hidden': 'true' },
    pieceGroup(seat, letter, role, '', name));
}

/**
 * pieceKey lists a preset's pieces by their letters and names ("M monarch",
 * with the points in points presets), so that no letter is left to guess.
 * @param {import('./api.js').Preset} preset
 * @returns {HTMLElement}
 */
export function pieceKey(preset) {
  const items = preset.pieces.map((p) => h('li', {},
    h('strong', { class: 'key-letter' }, p.letter), ` ${p.name}${preset.goal === 'points' ? ` (${p.points})` : ''}`));
  const list = h('ul', { class: 'piece-key', id: 'piece-key', 'aria-label': 'Pieces' }, ...items);
  const note = artNote(preset);
  return note ? h('div', {}, list, h('p', { class: 'small muted art-note', id: 'art-note' }, note)) : list;
}

/**
 * Presets shown in another site's colours, and the note that says whose
 * the artwork is: the colours are theirs, the drawings the project's own.
 */
const artNotes = {
  'chesscom-chaturaji': "In chess.com's colours: red, blue, yellow, green. The pieces' artwork is this project's own, not chess.com's.",
};

/**
 * artNote returns the note on a preset's artwork, '' if it needs none.
 * @param {{name: string}} preset
 */
export function artNote(preset) {
  return artNotes[/** @type {keyof artNotes} */ (preset.name.split('+')[0])] || '';
}
