// @ts-check
// The pace of a live game on the page: its events are shown one after
// another, each given the time its animation takes (a die tumbling, a piece
// sliding, a forced pass to read) before the next is shown, so that a burst
// of events (a bot's move, the next roll, a pass the server played) reads
// as a sequence and the board, the banner, the move list and the clocks
// always show the same event. Every event is shown, and drawn in its end
// state before the next: when events pile up the waits shorten, a move
// jumping to where it lands. Events that happened before the page
// connected, a hidden tab and people who ask for reduced motion get no
// waits at all.

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 */

/** How long each kind of event holds the stage, in ms, when nothing waits. */
export const holds = {
  roll: 420, // the dice tumble
  move: 380, // a piece slides, and is seen where it lands
  pass: 900, // a pass the server played: its reason is read
  action: 300, // another decision: pass, retire, an exchange
  seat: 600, // a bot takes a seat
  clock: 200,
};

/**
 * holdOf returns how long an event holds the stage when nothing waits.
 * @param {GameEvent} e
 */
export function holdOf(e) {
  switch (e.kind) {
    case 'roll': return holds.roll;
    case 'seat': return holds.seat;
    case 'clock': return holds.clock;
    case 'action':
      if (e.by === 'auto' || e.by === 'timeout') return holds.pass;
      return /^[a-h][1-8][a-h][1-8]|@/.test(e.action || '') ? holds.move : holds.action;
    default: return 0;
  }
}

/**
 * reducedMotion reports whether the person asks for reduced motion.
 */
export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Pacer {
  /**
   * @param {(e: GameEvent, live: boolean) => void} show shows one event
   * @param {() => void} idle called when the last event waiting is shown
   *   and has had its time
   */
  constructor(show, idle) {
    this.show = show;
    this.idle = idle;
    /** @type {{e: GameEvent, live: boolean}[]} the events waiting to be shown */
    this.queue = [];
    /** an event is holding the stage */
    this.busy = false;
    this.timer = 0;
    this.frame = 0;
    /** the number of the last event shown */
    this.shown = 0;
    // A hidden tab draws no frames and nobody watches it: what waits is
    // shown at once (the title and the sounds keep up).
    document.addEventListener('visibilitychange', () => { if (document.hidden) this.flush(); });
  }

  /**
   * push takes an event, in order; it is shown when the ones before it
   * have had their time.
   * @param {GameEvent} e
   * @param {boolean} live false for the events before the page connected
   */
  push(e, live) {
    this.queue.push({ e, live });
    this.pump();
  }

  /** waiting reports whether events wait to be shown. */
  waiting() {
    return this.queue.length > 0;
  }

  pump() {
    while (!this.busy) {
      const item = this.queue.shift();
      if (!item) {
        this.idle();
        return;
      }
      this.shown = item.e.seq || this.shown;
      this.show(item.e, item.live);
      const wait = this.wait(item.e, item.live);
      if (wait > 0) {
        // The hold starts once the event is drawn: the page draws at the
        // next frame (its callback comes before this one), which a busy
        // machine may put off past the hold; the next event must not be
        // drawn in its place.
        this.busy = true;
        this.frame = requestAnimationFrame(() => {
          this.frame = 0;
          this.timer = window.setTimeout(() => { this.busy = false; this.pump(); }, wait);
        });
      }
    }
  }

  /** flush ends the hold of the event shown, and shows what waits. */
  flush() {
    if (!this.busy) return;
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.busy = false;
    this.pump();
  }

  /**
   * wait returns how long an event just shown holds the stage: its hold,
   * shortened while others wait behind it (a half with three waiting, a
   * beat with six: the next drawing shows this event's end state); none
   * where no one watches it move.
   * @param {GameEvent} e
   * @param {boolean} live
   */
  wait(e, live) {
    if (!live || document.hidden || reducedMotion()) return 0;
    const base = holdOf(e);
    const behind = this.queue.length;
    if (behind >= 6) return Math.min(base, 60);
    if (behind >= 3) return base / 2;
    return base;
  }
}
