// @ts-check
// Positions and actions in the notation of docs/notation.md.

/**
 * @typedef {{seat: string, letter: string}} Piece   seat: colour letter (b, y, g, r); letter: K, E, ...
 * @typedef {{board: (Piece|null)[], seat: string, dice: string, scores: number[], clock: number,
 *   extra: string}} Position   board: by square index, a1 = 0 .. h8 = 63
 * @typedef {{type: 'move', text: string, from: number, to: number, promo: string}
 *   | {type: 'other', text: string}} Action
 */

/** @param {number} sq */
export function squareName(sq) {
  return 'abcdefgh'[sq % 8] + String(Math.floor(sq / 8) + 1);
}

/** @param {string} name */
export function parseSquare(name) {
  const f = name.charCodeAt(0) - 97;
  const r = name.charCodeAt(1) - 49;
  if (name.length !== 2 || f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

/**
 * parsePosition reads a position; it trusts the server and checks little.
 * @param {string} text
 * @returns {Position}
 */
export function parsePosition(text) {
  const [board, seat, dice, scores, clock, extra] = text.split(' ');
  /** @type {(Piece|null)[]} */
  const squares = new Array(64).fill(null);
  const ranks = board.split('/');
  ranks.forEach((rank, i) => {
    const r = 7 - i;
    let f = 0;
    for (let j = 0; j < rank.length;) {
      const c = rank[j];
      if (c >= '1' && c <= '8') {
        f += Number(c);
        j++;
      } else {
        squares[r * 8 + f] = { seat: c, letter: rank[j + 1] };
        f++;
        j += 2;
      }
    }
  });
  return {
    board: squares, seat, dice,
    scores: (scores || '').split(',').map(Number),
    clock: Number(clock || 0), extra: extra || '',
  };
}

/**
 * parseAction reads an action: a move `d2d3`, `a7a8=H`, or anything else
 * (`pass`, `retire`, decisions, drops).
 * @param {string} text
 * @returns {Action}
 */
export function parseAction(text) {
  const m = text.match(/^([a-h][1-8])([a-h][1-8])(?:=([A-Z]))?$/);
  if (!m) return { type: 'other', text };
  return { type: 'move', text, from: parseSquare(m[1]), to: parseSquare(m[2]), promo: m[3] || '' };
}

/**
 * hasKing reports whether the army of a colour letter has a king (letter
 * `royal`) on the board: an army without one is frozen.
 * @param {Position} pos
 * @param {string} seat
 * @param {string} [royal]
 */
export function hasKing(pos, seat, royal = 'K') {
  return pos.board.some((p) => p !== null && p.seat === seat && p.letter === royal);
}

/**
 * ranks returns each seat's rank by score, 1 the best, equal scores
 * sharing a rank.
 * @param {number[]} scores
 */
export function ranksOf(scores) {
  return scores.map((s) => 1 + scores.filter((t) => t > s).length);
}

/**
 * ordinal writes a rank: 1st, 2nd, 3rd, 4th.
 * @param {number} n
 */
export function ordinal(n) {
  return n + (n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th');
}
