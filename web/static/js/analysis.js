// @ts-check
// Analysis for learners: the strong bot's suggested move (a hint) and a bar
// of each seat's expected final score. Requests go to POST /web/analyze; a
// newer position cancels the request for an older one. Each analysis costs
// the server a search and draws on the client's small budget of costly
// requests, so positions that pass at once (bots playing in turn) are not
// asked about, and one refused for the budget is asked again a little
// later, while it is still the position shown.

import { h, replace } from './dom.js';
import { analyze, ApiError } from './api.js';
import { armies } from './pieces.js';

/** settleMS is how long a position must stay before it is analysed. */
const settleMS = 250;

/** retries is how often a position refused for the budget is asked again. */
const retries = 5;

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

/** @typedef {import('./api.js').Analysis} Result */

export class Analysis {
  /**
   * @param {HTMLElement} host where the bar is drawn
   * @param {import('./api.js').Preset} preset
   */
  constructor(host, preset) {
    this.host = host;
    this.preset = preset;
    this.rules = preset.name;
    this.on = false;
    /** @type {AbortController|null} */
    this.inflight = null;
    this.pos = '';
    /** asking is the position whose analysis is on its way, if any. */
    this.asking = '';
    /** @type {Map<string, Result>} */
    this.cache = new Map();
  }

  /**
   * ask analyzes a position, from the cache if it was asked before.
   * @param {string} pos
   * @param {number} ms
   * @returns {Promise<Result>}
   */
  async ask(pos, ms) {
    const hit = this.cache.get(pos);
    if (hit) return hit;
    if (this.inflight) this.inflight.abort();
    const ctl = new AbortController();
    this.inflight = ctl;
    try {
      const r = await analyze(this.rules, pos, ms, ctl.signal);
      this.cache.set(pos, r);
      return r;
    } finally {
      if (this.inflight === ctl) this.inflight = null;
    }
  }

  /**
   * show turns the bar on or off.
   * @param {boolean} on
   */
  show(on) {
    this.on = on;
    this.host.hidden = !on;
    if (on && this.pos) this.update(this.pos);
  }

  /**
   * update draws the bar for a position, if the bar is on. The page draws
   * itself often (each event, each change of a seat's presence) with the
   * same position: while that position's analysis is on its way, asking
   * again would cancel it and start over, so that a page drawn more often
   * than an analysis takes would never show one.
   * @param {string} pos
   */
  async update(pos) {
    this.pos = pos;
    if (!this.on || this.asking === pos) return;
    this.asking = pos;
    try {
      await this.fetchAndDraw(pos);
    } finally {
      if (this.asking === pos) this.asking = '';
    }
  }

  /**
   * fetchAndDraw analyses pos, after it has stayed a moment, and draws it
   * if it is still the position shown.
   * @param {string} pos
   */
  async fetchAndDraw(pos) {
    if (!this.cache.has(pos)) {
      this.host.classList.add('thinking');
      await sleep(settleMS);
      if (this.pos !== pos) return;
    }
    try {
      for (let tries = 0; ; tries++) {
        try {
          const r = await this.ask(pos, 800);
          if (this.pos === pos) this.draw(r);
          return;
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 'ETOOMANY' && tries < retries)) throw e;
          await sleep(1000 * (tries + 1));
          if (this.pos !== pos) return;
        }
      }
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return;
      if (this.pos === pos) replace(this.host, h('p', { class: 'muted' }, `Analysis unavailable: ${/** @type {Error} */ (e).message}`));
    } finally {
      if (this.pos === pos) this.host.classList.remove('thinking');
    }
  }

  /** @param {Result} r */
  draw(r) {
    const seats = this.preset.seats;
    const vals = r.expected.map((v) => Math.max(0, v));
    const total = vals.reduce((a, b) => a + b, 0) || 1;
    const segs = seats.map((s, i) => {
      const seg = h('div', { class: `eval-seg seat-${s.letter}`, title: `${s.seat}: ${r.expected[i].toFixed(1)}` },
        h('span', {}, r.expected[i].toFixed(1)));
      seg.style.flexGrow = String(vals[i] / total);
      seg.style.background = armies[s.letter].fill;
      return seg;
    });
    replace(this.host,
      h('h2', { class: 'panel-title' }, 'Expected final scores'),
      h('div', { class: 'eval-bar', role: 'img', 'aria-label': seats.map((s, i) => `${s.seat} ${r.expected[i].toFixed(1)}`).join(', ') }, ...segs),
      h('p', { class: 'muted small' }, r.best ? `Strong bot would play ${r.best}${r.line.length > 1 ? `, then ${r.line.slice(1, 4).join(' ')}` : ''}.` : 'Mean over the rolls to come.'));
  }
}
