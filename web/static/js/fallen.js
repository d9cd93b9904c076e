// @ts-check
// A player out of the game: every seat this browser holds is out of play
// (the server's out_of_play: its king fallen, its army dead or gone), and
// the game goes on without them. The banner says so plainly and offers to
// watch (the banner goes back to the game, Resign stays hidden: there is
// nothing left to resign) or to leave (a bot takes the seat, and the page
// goes home). Once no person is left playing the server plays the bots'
// turns at once, which the banner says too.

import { h } from './dom.js';

/**
 * @typedef {import('./api.js').SeatInfo} SeatInfo
 */

/**
 * outSeats returns the human seats this browser holds when every one of
 * them is out of play, else none: a player with one seat still in play is
 * not out of the game.
 * @param {SeatInfo[]} seats
 * @param {Set<string>} held
 * @param {string[]} outOfPlay
 * @returns {string[]}
 */
export function outSeats(seats, held, outOfPlay) {
  const mine = seats.filter((s) => s.player === 'human' && held.has(s.seat)).map((s) => s.seat);
  return mine.length > 0 && mine.every((s) => outOfPlay.includes(s)) ? mine : [];
}

/**
 * nobodyPlays reports whether no person is left playing: no human seat is
 * in play. The server then plays the bots' turns without their delay.
 * @param {SeatInfo[]} seats
 * @param {string[]} outOfPlay
 */
export function nobodyPlays(seats, outOfPlay) {
  return seats.every((s) => s.player !== 'human' || outOfPlay.includes(s.seat));
}

/**
 * fallenBanner is what the banner says to a player out of the game, with
 * its two answers.
 * @param {{nobody: boolean, dead?: boolean, onWatch: () => void, onLeave: () => void}} o
 *   nobody: no person is left playing; dead: the preset's armies die
 *   (chesscom-chaturaji: by a fallen king, a resignation or the clock)
 * @returns {(Node|string)[]}
 */
export function fallenBanner(o) {
  return [
    h('strong', { id: 'fallen-title' }, o.dead ? 'Your army is dead: you are out of this game.' : 'Your king has fallen: you are out of this game.'),
    h('span', { class: 'turn-detail' }, o.nobody
      ? 'Nobody is left playing: the bots play it out at full speed.'
      : 'The game goes on for the others.'),
    h('span', { class: 'fallen-choices' },
      h('button', { type: 'button', id: 'fallen-watch', class: 'secondary small', onclick: o.onWatch }, 'Watch'),
      h('button', { type: 'button', id: 'fallen-leave', class: 'small', onclick: o.onLeave, title: 'A bot takes your seat; the game goes on' }, 'Leave')),
  ];
}

/**
 * watchingNote is the banner's last line for a player out of the game who
 * chose to watch.
 * @param {boolean} nobody no person is left playing
 */
export function watchingNote(nobody) {
  return h('span', { class: 'turn-last', id: 'fallen-note' },
    nobody ? 'You are out of this game, watching; the bots play it out at full speed.' : 'You are out of this game, watching.');
}
