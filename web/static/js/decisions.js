// @ts-check
// Words for the decisions a player may face besides moving a piece: pass,
// retire, the king exchange of the team presets, martian's monarch return,
// drops; what the position's extra field says is pending; and the rolls
// that are not one seat's plain dice (martian's roll-off and second pair).

import { parseExtra } from './position.js';

/** Button labels of the actions that are single words. */
export const labels = {
  pass: 'Pass',
  retire: 'Retire the king',
  propose: 'Propose a king exchange',
  waive: 'Waive the exchange',
  accept: 'Accept the exchange',
  decline: 'Decline the exchange',
  noreturn: 'Keep both monarchs off',
  'return=us': 'Return both, our monarch first',
  'return=them': 'Return both, theirs first',
  claim: 'Claim the win',
};

/**
 * label is the button text of an action that is not a move or a drop.
 * @param {string} action
 */
export function label(action) {
  return labels[/** @type {keyof labels} */ (action)] || action;
}

/**
 * pending explains the decision a position waits for, '' for an ordinary
 * turn. `you` words it for the player who decides, whose colour letter is
 * `decider`; the seat whose turn it is is named if it is another.
 * @param {import('./api.js').Preset} preset
 * @param {string} extra the position's extra field
 * @param {string[]} actions the legal actions of the decider
 * @param {boolean} you
 * @param {string} decider
 */
export function pending(preset, extra, actions, you, decider) {
  const x = parseExtra(extra);
  const royal = preset.pieces.find((p) => p.role === 'king');
  const king = royal ? royal.name : 'king';
  const drops = actions.some((a) => /^[A-Z]@/.test(a));
  const on = x.turn && x.turn !== decider ? ` (on ${seatName(preset, x.turn)}'s turn)` : '';
  switch (x.exchange || x.return || '') {
    case 'propose':
      return (you ? `You took a ${king}: propose a ${king} exchange, or waive it` : `A ${king} was taken: the capturer may propose a ${king} exchange`) + on + '.';
    case 'accept':
      return (you ? `Your ${king} was taken and an exchange is proposed: accept or decline` : `A ${king} exchange is proposed: its owner accepts or declines`) + on + '.';
    case 'drop':
      return (you ? `The exchange is on: drop your ${king} on a marked square` : `The exchange is on: a ${king} is being placed`) + on + '.';
    case 'decide':
      return (you ? `You took a ${king}: return both captured ${king}s (yours first or theirs first), or keep them off` : `The capturer decides whether the captured ${king}s return`) + on + '.';
    case 'place':
    case 'back':
      return (you ? `Place your ${king} on a marked square` : `A ${king} is being placed`) + on + '.';
  }
  if (drops) return you ? `You may drop a ${king} on a marked square${actions.includes('pass') ? ', or pass' : ''}.` : `A ${king} may be dropped.`;
  return '';
}

/**
 * seatName returns the name of the seat of a colour letter.
 * @param {import('./api.js').Preset} preset
 * @param {string} letter
 */
export function seatName(preset, letter) {
  const s = preset.seats.find((x) => x.letter === letter);
  return s ? s.seat : letter;
}

/**
 * splitRoll splits a roll or the dice left ("13/24") into the faces of the
 * seat's own dice and those of the second pair, for the army it controls
 * through a throne (martian).
 * @param {string} roll
 * @returns {{own: string, control: string}}
 */
export function splitRoll(roll) {
  if (!roll || roll === '-') return { own: '', control: '' };
  const [own, control] = roll.split('/');
  return { own: own === '-' ? '' : own, control: control || '' };
}

/**
 * rollOffText says who starts after a roll-off roll ("1": South's team,
 * "2": West's).
 * @param {import('./api.js').Preset} preset
 * @param {string} roll
 */
export function rollOffText(preset, roll) {
  const i = roll === '2' ? 1 : 0;
  const a = preset.seats[i], b = preset.seats[i + 2];
  return `Roll-off: ${a ? a.seat : ''}${b ? ` and ${b.seat}` : ''} start`;
}
