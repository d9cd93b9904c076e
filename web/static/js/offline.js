// @ts-check
// A move made while the connection is down: the page keeps it (one, the
// latest: a new move replaces it) with the number of the event it was made
// after, and sends it when the connection returns. The server plays it
// only if the game has not moved on since that event (its seq check), so
// a move made offline can never land on a turn it was not made for; the
// page then says it was not played, and why.

/**
 * @typedef {{seat: string, action: string, seq: number}} Waiting
 *   seq: the last event the page had shown when the move was made
 */

export class OfflineMove {
  constructor() {
    /** @type {Waiting|null} */
    this.waiting = null;
  }

  /**
   * keep holds a move until the connection returns, in place of any
   * other.
   * @param {string} seat
   * @param {string} action
   * @param {number} seq
   */
  keep(seat, action, seq) {
    this.waiting = { seat, action, seq };
  }

  /**
   * take returns the move kept, if any, and forgets it.
   * @returns {Waiting|null}
   */
  take() {
    const w = this.waiting;
    this.waiting = null;
    return w;
  }

  /**
   * banner says, for the turn banner of a player whose turn it is while
   * the connection is down, what becomes of a move.
   * @param {boolean} coarse the person points with a finger
   */
  banner(coarse) {
    if (this.waiting) return `Connection lost: your move ${this.waiting.action} waits, and is sent when the connection returns (another move replaces it).`;
    return `Connection lost: ${coarse ? 'tap' : 'click'} or drag your move, and it is sent when the connection returns.`;
  }
}
