// @ts-check
// Leaving a game: resign (the rules' retire for a lone king where it may
// retire now; in a preset with dead armies the rules' resign, now or at the
// seat's next turn; else a bot plays the seat for the rest of the game) and
// abort (the game ends with no result, while some human seat has not yet
// moved). Both are asked again in a dialog first (confirm.js). A player
// out of the game (every seat of theirs out of play: fallen.js) has
// nothing to resign: they may leave, and a bot takes the seat, with no
// question asked. All are the server's to do (POST .../actions with kind
// resign, abort or leave).

import { h, replace, toast } from './dom.js';
import { confirmAction } from './confirm.js';

/**
 * @typedef {import('./api.js').SeatInfo} SeatInfo
 * @typedef {{status: string, seats: SeatInfo[], held: Set<string>, moved: Set<string>,
 *   toAct: string, actions: string[], out?: string[], dead?: boolean}} LeaveState
 *   moved: the seats that played an action of their own; out: this browser's
 *   seats when all of them are out of play; dead: the preset's armies die
 *   by resigning (chesscom-chaturaji)
 */

export class Leave {
  /**
   * @param {HTMLElement} host where the buttons go
   * @param {(seat: string, kind: 'resign'|'abort'|'leave') => Promise<any>} send
   * @param {(text: string, kind?: 'info'|'error') => void} say
   */
  constructor(host, send, say) {
    this.host = host;
    this.send = send;
    this.say = say;
    /** @type {LeaveState|null} */
    this.state = null;
    this.key = '';
    /** called once every seat left */
    this.onLeft = () => {};
  }

  /**
   * mine returns the seats this browser holds that people still play.
   * @param {LeaveState} st
   */
  mine(st) {
    return st.seats.filter((s) => s.player === 'human' && st.held.has(s.seat)).map((s) => s.seat);
  }

  /**
   * abortable reports whether the game is still in its first round: a
   * human seat has not played an action of its own.
   * @param {LeaveState} st
   */
  abortable(st) {
    return st.seats.some((s) => s.player === 'human' && !st.moved.has(s.seat));
  }

  /** @param {LeaveState} st */
  render(st) {
    this.state = st;
    const mine = st.status === 'live' ? this.mine(st) : [];
    const abort = mine.length > 0 && this.abortable(st);
    const out = st.out || [];
    const key = `${mine.join(',')}|${abort}|${out.join(',')}`;
    if (key === this.key) return;
    this.key = key;
    if (out.length > 0) {
      replace(this.host,
        h('span', { class: 'small muted', id: 'out-note' }, 'You are out of this game.'),
        h('button', { type: 'button', id: 'leave-game', class: 'small', onclick: () => this.leaveGame() }, 'Leave'));
      return;
    }
    replace(this.host,
      mine.length ? h('button', { type: 'button', id: 'resign', class: 'danger small', onclick: () => this.resign() }, 'Resign') : null,
      abort ? h('button', { type: 'button', id: 'abort', class: 'danger small', onclick: () => this.abort() }, 'Abort game') : null);
  }

  /** seat returns the seat a resign is for: the one to act, if it is this browser's, else its first. */
  seat() {
    const st = /** @type {LeaveState} */ (this.state);
    const mine = this.mine(st);
    return mine.includes(st.toAct) ? st.toAct : mine[0];
  }

  async resign() {
    const st = this.state;
    if (!st) return;
    const seat = this.seat();
    if (!seat) return;
    const retire = seat === st.toAct && st.actions.includes('retire');
    const yes = await confirmAction({
      id: 'confirm-resign', title: `Resign ${seat}?`, yes: 'Resign',
      text: retire
        ? 'Your lone king retires from the board, as the rules allow: your army leaves the game.'
        : st.dead
          ? `${seat}'s army dies ${seat === st.toAct ? 'now' : `at ${seat}'s next turn`}: its pieces stay on the board, worth nothing but the king. The game goes on for the others.`
          : `A bot plays ${seat} for the rest of the game, and you watch. The game goes on for the others.`,
    });
    if (!yes) return;
    try {
      await this.send(seat, 'resign');
      toast(`${seat} resigned`);
    } catch (e) {
      this.say(`Not resigned: ${/** @type {Error} */ (e).message}`, 'error');
    }
  }

  /**
   * leaveGame gives every seat of this browser that is out of play to a
   * bot, and then goes (onLeft); the game goes on without them.
   */
  async leaveGame() {
    const st = this.state;
    if (!st || !st.out || st.out.length === 0) return;
    try {
      for (const seat of st.out) await this.send(seat, 'leave');
    } catch (e) {
      this.say(`Not left: ${/** @type {Error} */ (e).message}`, 'error');
      return;
    }
    toast(`You left the game: a bot plays ${st.out.join(' and ')}.`);
    this.onLeft();
  }

  async abort() {
    const seat = this.seat();
    if (!seat) return;
    const yes = await confirmAction({
      id: 'confirm-abort', title: 'Abort the game?', yes: 'Abort',
      text: 'The game ends now, for everyone, with no result. A game can be aborted only until every player has moved once.',
    });
    if (!yes) return;
    try {
      await this.send(seat, 'abort');
    } catch (e) {
      this.say(`Not aborted: ${/** @type {Error} */ (e).message}`, 'error');
    }
  }
}
