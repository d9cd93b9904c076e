// @ts-check
// Positions and actions in the notation of docs/notation.md.

/**
 * @typedef {{seat: string, letter: string}} Piece   seat: colour letter (b, y, g, r); letter: K, E, ...
 * @typedef {{board: (Piece|null)[], seat: string, dice: string, scores: number[], clock: number,
 *   extra: string}} Position   board: by square index, a1 = 0 .. h8 = 63
 * @typedef {{type: 'move', text: string, from: number, to: number, promo: string}
 *   | {type: 'drop', text: string, letter: string, to: number}
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
 * parseAction reads an action: a move `d2d3`, `a7a8=H`, a drop `K@e4`, or
 * anything else (`pass`, `retire`, decisions such as `propose`).
 * @param {string} text
 * @returns {Action}
 */
export function parseAction(text) {
  const m = text.match(/^([a-h][1-8])([a-h][1-8])(?:=([A-Z]))?$/);
  if (m) return { type: 'move', text, from: parseSquare(m[1]), to: parseSquare(m[2]), promo: m[3] || '' };
  const d = text.match(/^([A-Z])@([a-h][1-8])$/);
  if (d) return { type: 'drop', text, letter: d[1], to: parseSquare(d[2]) };
  return { type: 'other', text };
}

/**
 * parseExtra reads a position's extra field (`command=b;turn=r`) into its
 * keys and values.
 * @param {string} extra
 * @returns {Record<string, string>}
 */
export function parseExtra(extra) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const pair of extra ? extra.split(';') : []) {
    const i = pair.indexOf('=');
    if (i > 0) out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/**
 * @typedef {{frozen: Set<string>, out: Set<string>, commands: Set<string>, team: Record<string, number>}} SeatStatus
 *   by colour letter: frozen armies, armies with no piece left, seats that
 *   command their partner's army; team: each seat's team score (points
 *   presets with partners)
 */

/**
 * seatStatus works out, from a position, which armies are frozen or out
 * under a preset's rules, who commands, and the team scores.
 * @param {import('./api.js').Preset} preset
 * @param {Position} pos
 * @returns {SeatStatus}
 */
export function seatStatus(preset, pos) {
  const royal = (preset.pieces.find((p) => p.role === 'king') || { letter: 'K' }).letter;
  const letters = preset.seats.map((s) => s.letter);
  const partner = (/** @type {string} */ l) => preset.partners && letters.length === 4 ? letters[(letters.indexOf(l) + 2) % 4] : '';
  const king = (/** @type {string} */ l) => hasKing(pos, l, royal);
  /** @type {SeatStatus} */
  const st = { frozen: new Set(), out: new Set(), commands: new Set(), team: {} };
  const dead = preset.frozen === 'dead' ? parseExtra(pos.extra).dead || '' : '';
  for (const s of preset.seats) {
    const l = s.letter;
    if (!pos.board.some((p) => p && p.seat === l)) {
      st.out.add(l);
      continue;
    }
    if (dead.includes(l)) {
      st.frozen.add(l); // resigned or out of time: its king stands, its army is dead
      continue;
    }
    if (king(l)) continue;
    const mate = partner(l);
    switch (preset.frozen) {
      case 'never':
        break;
      case 'team':
        if (!mate || !king(mate)) st.frozen.add(l);
        break;
      case 'throne': {
        const t = parseSquare(s.throne || '');
        const on = t >= 0 ? pos.board[t] : null;
        if (!(on && on.seat === mate && on.letter === royal)) st.frozen.add(l);
        break;
      }
      default:
        st.frozen.add(l);
    }
  }
  for (const l of parseExtra(pos.extra).command || '') st.commands.add(l);
  if (preset.partners) {
    preset.seats.forEach((s, i) => {
      const j = letters.indexOf(partner(s.letter));
      st.team[s.letter] = (pos.scores[i] || 0) + (j >= 0 ? pos.scores[j] || 0 : 0);
    });
  }
  return st;
}

/**
 * stillWord is how a preset calls an army that keeps its pieces but no
 * longer moves: "dead" in the presets with dead armies, else "frozen".
 * @param {import('./api.js').Preset} preset
 */
export function stillWord(preset) {
  return preset.frozen === 'dead' ? 'dead' : 'frozen';
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
