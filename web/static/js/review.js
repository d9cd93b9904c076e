// @ts-check
// A finished game's review, in the replay: the server judges every
// decision in one request (POST /web/review, which bounds its cost; see
// web/review.go), the move list marks the inaccuracies (?!), mistakes (?)
// and blunders (??) with what each lost, and a chart draws each seat's
// expected final score along the game, as its own decisions' searches see
// it, with the turning points below it.

import { h, replace } from './dom.js';
import { review, recordText, ApiError } from './api.js';
import { ScoreChart } from './chart.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./api.js').GameReview} GameReview
 * @typedef {import('./movelist.js').MoveMark} MoveMark
 */

/** retries is how often a review refused for the budget or a busy server is asked again. */
const retries = 3;

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

export class GameReview {
  /**
   * @param {HTMLElement} host the review's panel
   * @param {import('./api.js').Preset} preset
   * @param {string} id the game
   * @param {(step: number) => void} onPick jumps to a step
   */
  constructor(host, preset, id, onPick) {
    this.host = host;
    this.preset = preset;
    this.id = id;
    this.onPick = onPick;
    this.on = false;
    /** @type {Promise<void>|null} the review asked for, once */
    this.asked = null;
    /** @type {Map<number, MoveMark>} the marks of the actions, by replay step */
    this.marks = new Map();
    /** @type {import('./chart.js').ScorePoint[]} */
    this.points = [];
    /** @type {import('./chart.js').ChartMark[]} */
    this.dots = [];
    this.span = 0;
    this.chartHost = h('div', { id: 'review-chart', class: 'chart-host' });
    this.summary = h('div', { id: 'review-summary', class: 'small', 'aria-live': 'polite' });
    this.chart = new ScoreChart(this.chartHost, preset, onPick, { expected: true, label: 'Expected final scores along the game' });
    replace(host, h('h2', { class: 'panel-title' }, 'Review'), this.chartHost, this.summary);
  }

  /**
   * show turns the review on or off; on, it is asked for the first time.
   * @param {boolean} on
   * @param {GameEvent[]} steps the replay's steps
   * @param {() => void} redraw draws the replay again once the review is in
   */
  show(on, steps, redraw) {
    this.on = on;
    this.host.hidden = !on;
    if (on && !this.asked) this.asked = this.load(steps).then(redraw);
  }

  /**
   * load asks for the review and reads it against the replay's steps.
   * @param {GameEvent[]} steps
   */
  async load(steps) {
    const acts = steps.flatMap((e, i) => (e.kind === 'action' ? [i] : []));
    this.span = steps.length - 1;
    this.host.classList.add('thinking');
    replace(this.summary, h('p', { class: 'muted' }, `Reviewing the game's ${acts.length} decisions…`));
    try {
      const text = await recordText(this.id);
      /** @type {GameReview|null} */
      let r = null;
      for (let tries = 0; !r; tries++) {
        try {
          r = await review(text);
        } catch (e) {
          if (!(e instanceof ApiError && (e.code === 'ETOOMANY' || e.code === 'EUNAVAILABLE') && tries < retries)) throw e;
          await sleep(2000 * (tries + 1));
        }
      }
      this.read(r, steps, acts);
    } catch (e) {
      replace(this.summary, h('p', { class: 'muted' }, `Review unavailable: ${/** @type {Error} */ (e).message}`));
    } finally {
      this.host.classList.remove('thinking');
    }
  }

  /**
   * read puts the review's decisions on the replay's action steps, one
   * for one, in order.
   * @param {GameReview} r
   * @param {GameEvent[]} steps
   * @param {number[]} acts the steps of the actions
   */
  read(r, steps, acts) {
    const seat = Object.fromEntries(this.preset.seats.map((s, i) => [s.seat, i]));
    const wrong = r.decisions.findIndex((d, k) => !steps[acts[k]] || steps[acts[k]].action !== d.played);
    if (wrong >= 0) {
      replace(this.summary, h('p', { class: 'muted' }, `The review does not match the game's moves at decision ${wrong + 1}.`));
      return;
    }
    // Each seat's line goes through its own decisions only, before and
    // after each: a search sees the other seats play against the seat it
    // searches for, so their values in it are not their own view.
    const only = (/** @type {number} */ i, /** @type {number} */ v) => this.preset.seats.map((_, j) => (j === i ? v : null));
    r.decisions.forEach((d, k) => {
      const step = acts[k];
      if (d.withheld) return; // not searched: the live position of a game without engine help
      const i = seat[d.seat] ?? 0;
      if (step > 0) this.points.push({ step: step - 1, scores: only(i, d.before[i]) });
      this.points.push({ step, scores: only(i, d.after[i]) });
      if (d.class === 'good') return;
      const title = `${d.class}: ${d.seat} lost ${d.loss.toFixed(1)} points of expected final score`
        + ` (${d.before[i].toFixed(1)} → ${d.after[i].toFixed(1)}); best was ${d.best}`;
      this.marks.set(step, { mark: d.mark, cls: d.class, title });
      if (d.class !== 'inaccuracy') this.dots.push({ step, seat: i, value: d.after[i], cls: d.class, title });
    });
    /** @type {Record<string, number[]>} */
    const counts = {};
    for (const d of r.decisions) {
      const c = counts[d.seat] || (counts[d.seat] = [0, 0, 0]);
      if (d.class === 'blunder') c[0]++;
      if (d.class === 'mistake') c[1]++;
      if (d.class === 'inaccuracy') c[2]++;
    }
    const per = this.preset.seats.map((s) => {
      const c = counts[s.seat] || [0, 0, 0];
      return `${s.seat} ${c[0]} ??, ${c[1]} ?, ${c[2]} ?!`;
    }).join('; ');
    const turning = r.turning.map((t) => {
      const d = r.decisions[t.decision];
      const step = t.roll ? acts[t.decision] - 1 : acts[t.decision];
      const ev = steps[step];
      const what = t.roll ? `${d.seat}'s roll ${ev && ev.roll ? ev.roll : ''} and the play since its last move` : `${d.seat}'s ${d.played}`;
      const delta = `${t.delta > 0 ? '+' : '-'}${Math.abs(t.delta).toFixed(1)}`;
      return h('li', {}, h('button', { type: 'button', 'data-step': step, onclick: () => this.onPick(step) }, `Turn ${t.turn}: ${what}: ${t.seat} ${delta}`));
    });
    replace(this.summary,
      h('p', {}, `${r.complete ? 'All' : `The first ${r.decisions.length} of`} ${r.total} decisions judged by the strong bot. ${per}.`),
      h('p', { class: 'muted' }, 'A mark is what the move cost its seat in expected final score: ?! 1.5 points or more, ? 2.5 or more, ?? 4 or more.'),
      turning.length ? h('h3', { class: 'panel-title' }, 'Turning points') : null,
      turning.length ? h('ol', { class: 'review-turning' }, ...turning) : null);
  }

  /**
   * render draws the chart, marking the step shown.
   * @param {number} current
   */
  render(current) {
    if (this.on && this.points.length) this.chart.render(this.points, current, this.dots, this.span);
  }
}
