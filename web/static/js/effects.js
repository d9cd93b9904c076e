// @ts-check
// What an event did, as the server tells it (docs/api.md, "What an action
// did"), in words and marks: the sentence of the turn banner ("South's boat
// took West's king: +5"), the marks of the move list (c3xa5, the piece taken,
// the points, why a score jumped), the notices of a king fallen or an army
// frozen, and why the server passed for a seat.

import { h } from './dom.js';
import { pieceChip } from './pieces.js';
import { parseAction, squareName } from './position.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./api.js').Preset} Preset
 * @typedef {import('./api.js').Capture} Capture
 * @typedef {import('./api.js').Gain} Gain
 * @typedef {import('./position.js').Position} Position
 */

/**
 * Words for the causes of a score change that is not a capture's points:
 * short ones for the move list, long ones for titles and the game-over card.
 */
const causes = {
  throne: { short: 'throne', long: 'a king entered an enemy throne for the first time: 1 point' },
  'throne-king': { short: 'on its throne', long: 'an enemy king taken on its own throne: 2 points more' },
  stakes: { short: 'stakes', long: 'stakes collected or paid' },
  raise: { short: 'raised to 54', long: 'the last king standing: its owner\'s score is raised to 54, the points of three whole armies' },
  empire: { short: 'empire', long: 'the empire: a commander of the winning team at the end' },
  check: { short: 'check bonus', long: 'two live enemy kings attacked anew: 1 point; three: 5 points' },
  kings: { short: 'standing kings', long: 'the last live army: 3 points for every other king still standing' },
  clock: { short: 'clock', long: 'the quiet turns ran out: 2 points for each live army' },
};

/**
 * causeText says why a score changed, in the long words of the game-over
 * card and the titles.
 * @param {string} cause
 */
export function causeText(cause) {
  const c = causes[/** @type {keyof causes} */ (cause)];
  return c ? c.long : cause;
}

/** @param {number} n */
function signed(n) {
  return n >= 0 ? `+${n}` : String(n);
}

/**
 * Names of things, from a preset.
 */
export class Names {
  /** @param {Preset} preset */
  constructor(preset) {
    this.preset = preset;
    /** @type {Record<string, string>} piece name by letter */
    this.pieces = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.name]));
    /** @type {Record<string, string>} piece role by letter */
    this.roles = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.role]));
    /** @type {Record<string, string>} colour letter by seat name */
    this.letter = Object.fromEntries(preset.seats.map((s) => [s.seat, s.letter]));
    /** @type {Record<string, string>} seat name by colour letter */
    this.seat = Object.fromEntries(preset.seats.map((s) => [s.letter, s.seat]));
    this.royal = (preset.pieces.find((p) => p.role === 'king') || { letter: 'K' }).letter;
  }

  /** @param {string} letter */
  piece(letter) {
    return this.pieces[letter] || letter;
  }
}

/**
 * moveText writes an action for the move list: a move that takes a piece
 * on its destination with an x between its squares (c3xa5).
 * @param {GameEvent} e
 */
export function moveText(e) {
  const text = e.action || '';
  const a = parseAction(text);
  if (a.type !== 'move' || !(e.captures || []).some((c) => c.square === squareName(a.to))) return text;
  return text.slice(0, 2) + 'x' + text.slice(2);
}

/**
 * marks makes the marks that follow an action in the move list: each piece
 * it took, drawn as that army's token with the kind's glyph, the points they
 * scored, every other score change with its cause, and why the server
 * played the action itself. Screen readers get the same in words.
 * @param {Names} n
 * @param {GameEvent} e
 * @returns {(Node|string)[]}
 */
export function marks(n, e) {
  /** @type {(Node|string)[]} */
  const out = [];
  const caps = e.captures || [];
  if (caps.length) {
    const pts = caps.reduce((s, c) => s + c.points, 0);
    out.push(h('span', { class: 'taken', title: `took ${caps.map((c) => `${c.seat}'s ${n.piece(c.piece)} on ${c.square}`).join(', ')}` },
      ...caps.map((c) => h('span', { class: 'taken-piece', 'data-piece': n.letter[c.seat] + c.piece }, pieceChip(n.letter[c.seat] || 'b', c.piece, 18))),
      h('span', { class: 'sr-only' }, ` takes ${caps.map((c) => `${c.seat}'s ${n.piece(c.piece)}`).join(' and ')}`),
      pts ? h('span', { class: 'gain', 'data-cause': 'capture' }, signed(pts)) : null));
  }
  for (const g of e.gains || []) {
    if (g.cause === 'capture') continue;
    const c = causes[/** @type {keyof causes} */ (g.cause)];
    const who = g.seat === e.seat ? '' : `${g.seat} `;
    const text = g.cause === 'raise' ? `${who}raised to 54 (${signed(g.points)})` : `${signed(g.points)} ${who}${c ? c.short : g.cause}`;
    out.push(h('span', { class: 'gain', 'data-cause': g.cause, title: c ? c.long : g.cause }, text));
  }
  const why = reasonShort(e);
  if (why) out.push(h('span', { class: 'act-why', 'data-reason': e.reason || '' }, why));
  return out;
}

/**
 * reasonShort says in a few words why the server played an action itself,
 * '' if it did not.
 * @param {GameEvent} e
 */
function reasonShort(e) {
  if (e.kind !== 'action') return '';
  if (e.by === 'auto' || e.reason === 'no-move') return 'no move';
  if (e.by === 'timeout' || e.reason === 'timeout') return 'out of time';
  return '';
}

/**
 * passWhy explains a pass the server played for a seat, '' for any other
 * action: "West passes: no piece can move with the 3 (horse)".
 * @param {Names} n
 * @param {GameEvent} e
 * @param {string} roll the faces the seat rolled, '' if none
 */
export function passWhy(n, e, roll) {
  const d = n.preset.dice;
  if (e.by === 'auto' || e.reason === 'no-move') {
    if (!d) return `${e.seat} passes: no piece can move`;
    const faces = [...roll].filter((f) => d.words[f] !== undefined);
    const words = faces.map((f) => `${f} (${d.words[f] || 'no piece'})`).join(', ');
    return `${e.seat} passes: no piece can move with ${words ? `the ${words}` : 'this roll'}`;
  }
  if (e.by === 'timeout' || e.reason === 'timeout') {
    if (e.action === 'timeout') return `${e.seat} ran out of time: its army is dead, its pieces stay on the board`;
    return e.action === 'pass' ? `${e.seat} ran out of time: the server passed for it` : `${e.seat} ran out of time: the server played ${e.action} for it`;
  }
  return '';
}

/**
 * said is the banner's sentence for an action: what it took and scored
 * ("South's boat took West's king: +5"), why the server passed for a seat,
 * or what moved ("West's horse b7-c5"); before is the position before it.
 * @param {Names} n
 * @param {GameEvent} e
 * @param {Position} before
 * @param {string} roll the faces the seat rolled this turn, '' if none
 */
export function said(n, e, before, roll) {
  const why = passWhy(n, e, roll);
  if (why) return `${why}.`;
  const a = parseAction(e.action || '');
  const caps = e.captures || [];
  const gains = (e.gains || []).filter((g) => g.seat === e.seat).reduce((s, g) => s + g.points, 0);
  if (a.type === 'move') {
    const p = before.board[a.from];
    const mover = p ? n.piece(p.letter) : 'piece';
    const owner = p && n.seat[p.seat] && n.seat[p.seat] !== e.seat ? `${n.seat[p.seat]}'s ${mover} (moved by ${e.seat})` : `${e.seat}'s ${mover}`;
    if (!caps.length) return `${owner} ${squareName(a.from)}-${squareName(a.to)}${a.promo ? `, promoted to ${n.piece(a.promo)}` : ''}${gains ? `: ${signed(gains)}` : ''}.`;
    const took = caps.map((c) => `${c.seat === e.seat ? 'its own' : `${c.seat}'s`} ${n.piece(c.piece)}`);
    const list = took.length > 1 ? `${took.slice(0, -1).join(', ')} and ${took[took.length - 1]}` : took[0];
    return `${owner} took ${list}${gains ? `: ${signed(gains)}` : ''}.`;
  }
  if (a.type === 'drop') return `${e.seat} placed a ${n.piece(a.letter)} on ${squareName(a.to)}.`;
  if (e.action === 'pass') return `${e.seat} passed.`;
  if (e.action === 'retire') return `${e.seat} retired the ${n.piece(n.royal)}.`;
  if (e.action === 'resign') return `${e.seat} resigned: its army is dead, its pieces stay on the board.`;
  if (e.action === 'claim') return `${e.seat} claimed the win.`;
  return `${e.seat}: ${e.action}.`;
}

/**
 * notices are the short notices an action calls for: a king fallen, an
 * army frozen, brought back or out of the game, a score raised.
 * @param {Names} n
 * @param {GameEvent} e
 * @returns {string[]}
 */
export function notices(n, e) {
  const king = n.piece(n.royal);
  /** @type {string[]} */
  const out = [];
  const fallen = (e.captures || []).filter((c) => c.piece === n.royal);
  const frozen = new Set(e.frozen || []);
  for (const c of fallen) {
    out.push(`${c.seat}'s ${king} has fallen${frozen.has(c.seat) ? `: ${c.seat}'s army is frozen` : ''}.`);
    frozen.delete(c.seat);
  }
  for (const s of frozen) out.push(`${s}'s army is frozen.`);
  for (const s of e.revived || []) out.push(`${s}'s army is back in play.`);
  for (const s of e.out || []) out.push(`${s} has no piece left on the board.`);
  for (const g of e.gains || []) {
    if (g.cause === 'raise') out.push(`${g.seat}'s score is raised to 54 (${signed(g.points)}): the last king standing.`);
    if (g.cause === 'empire') out.push(`${g.seat} wins the empire: ${signed(g.points)}.`);
  }
  return out;
}

/**
 * sound names the sound an event makes when it is shown: a king taken, a
 * capture, a move or the end; '' for none.
 * @param {Names} n
 * @param {GameEvent} e
 */
export function sound(n, e) {
  if (e.kind === 'end') return 'end';
  if (e.kind !== 'action') return '';
  const caps = e.captures || [];
  if (caps.some((c) => c.piece === n.royal)) return 'king';
  if (caps.length) return 'capture';
  return parseAction(e.action || '').type === 'other' ? '' : 'move';
}
