// @ts-check
// A finished game's rematch, on its game-over card: an offer its players
// see live (the game's WebSocket stays open for it) and accept or
// decline. Each player keeps their seat, or every player moves one seat
// on if the offer says so; the seats of players who do not accept are
// played by bots. Once the new game is made, each player who accepted
// asks the server for its own new token, with its own old one, and the
// page moves to the new game. Spectators see the offer, and cannot make
// or answer one.

import * as api from './api.js';
import { h, replace } from './dom.js';

/**
 * @typedef {import('./api.js').Rematch} Rematch
 * @typedef {import('./api.js').SeatInfo} SeatInfo
 */

export class RematchPanel {
  /**
   * @param {string} id the finished game
   * @param {Record<string,string>} tokens the seats this browser holds, by name
   * @param {(text: string, kind?: 'info'|'error') => void} say
   */
  constructor(id, tokens, say) {
    this.id = id;
    this.tokens = tokens;
    this.say = say;
    /** the panel, kept from one drawing of the card to the next */
    this.el = h('div', { class: 'rematch', id: 'rematch-panel', 'aria-live': 'polite' });
    /** @type {Rematch|null} */
    this.offer = null;
    /** @type {SeatInfo[]} */
    this.seats = [];
    this.busy = false;
    this.moving = false;
  }

  /**
   * players returns the seats this browser holds that people played to
   * the end: those that take part in a rematch.
   */
  players() {
    return this.seats.filter((s) => s.player === 'human' && this.tokens[s.seat]).map((s) => s.seat);
  }

  /**
   * show draws the panel for the game's seats at its end.
   * @param {SeatInfo[]} seats
   */
  show(seats) {
    this.seats = seats;
    this.render();
  }

  /**
   * take handles the offer as the server tells every follower.
   * @param {Rematch} r
   */
  take(r) {
    this.offer = r;
    this.render();
    if (r.status === 'created') this.land(r);
  }

  render() {
    const mine = this.players();
    const r = this.offer;
    const rows = [];
    if (!r || r.status === 'declined' || r.status === 'expired') {
      if (r) rows.push(h('p', { id: 'rematch-status' }, r.status === 'declined' ? 'The rematch was declined.' : 'The rematch offer lapsed.'));
      if (mine.length) {
        const rotate = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'rematch-rotate' }));
        rows.push(
          h('div', { class: 'button-row' },
            h('button', { type: 'button', id: 'rematch', class: 'primary', disabled: this.busy, onclick: () => this.answer('offer', rotate.checked) }, 'Rematch'),
            h('label', { class: 'check', for: 'rematch-rotate' }, rotate, ' Rotate seats')),
          h('p', { class: 'small muted' }, 'The other players are asked. Each keeps their seat (or, rotated, moves one seat on); bots play the seats of those who do not accept.'));
      } else if (!r && this.seats.some((s) => s.player === 'human')) {
        rows.push(h('p', { class: 'small muted', id: 'rematch-status' }, 'If the players agree on a rematch, it shows here.'));
      }
      replace(this.el, ...rows);
      return;
    }
    const how = r.rotate ? 'every player moves one seat on' : 'each keeps their seat';
    const answers = r.seats.map((s) => `${s.seat}: ${s.answer}${s.to && s.to !== s.seat ? ` (plays ${s.to})` : ''}`).join(' · ');
    if (r.status === 'created') {
      const mineIn = r.seats.some((s) => (s.answer === 'accepted' || s.answer === 'offered') && this.tokens[s.seat]);
      replace(this.el,
        h('p', { id: 'rematch-status' }, mineIn ? 'The rematch has begun: opening it...' : 'The rematch has begun.'),
        h('p', { class: 'small muted' }, answers),
        mineIn ? null : h('a', { class: 'button secondary', id: 'rematch-watch', href: `/game/${encodeURIComponent(r.new || '')}` }, 'Watch the rematch'));
      return;
    }
    const waiting = mine.filter((seat) => r.seats.some((s) => s.seat === seat && s.answer === 'waiting'));
    const offerer = !!this.tokens[r.by];
    const accepted = r.seats.some((s) => s.answer === 'accepted');
    replace(this.el,
      h('p', { id: 'rematch-status' }, h('strong', {}, `${r.by} offers a rematch`), `: ${how}.`),
      h('p', { class: 'small muted', id: 'rematch-answers' }, answers),
      waiting.length ? h('div', { class: 'button-row' },
        h('button', { type: 'button', id: 'rematch-accept', class: 'primary', disabled: this.busy, onclick: () => this.answer('accept') }, 'Accept'),
        h('button', { type: 'button', id: 'rematch-decline', class: 'secondary', disabled: this.busy, onclick: () => this.answer('decline') }, 'Decline')) : null,
      offerer && accepted ? h('button', { type: 'button', id: 'rematch-start', class: 'secondary', disabled: this.busy, onclick: () => this.answer('start') }, 'Start now with those who accepted') : null,
      offerer && !waiting.length ? h('p', { class: 'small muted' }, 'Waiting for the other players.') : null);
  }

  /**
   * answer sends this browser's answer for each seat it holds that has to
   * give one: an offer is made by the first and accepted by the others.
   * @param {'offer'|'accept'|'decline'|'start'} answer
   * @param {boolean} [rotate]
   */
  async answer(answer, rotate) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      const mine = this.players();
      /** @type {Rematch|null} */
      let last = null;
      if (answer === 'offer') {
        last = await api.rematch(this.id, this.tokens[mine[0]], 'offer', rotate);
        for (const seat of mine.slice(1)) {
          if (last.status !== 'open') break;
          last = await api.rematch(this.id, this.tokens[seat], 'accept');
        }
      } else if (answer === 'start') {
        const by = this.offer ? this.offer.by : mine[0];
        last = await api.rematch(this.id, this.tokens[by], 'start');
      } else {
        const waiting = mine.filter((seat) => this.offer && this.offer.seats.some((s) => s.seat === seat && s.answer === 'waiting'));
        for (const seat of waiting) {
          last = await api.rematch(this.id, this.tokens[seat], answer);
          if (last.status !== 'open') break;
        }
      }
      if (last) this.offer = { ...last, you: undefined, seat: undefined, token: undefined };
      if (last && last.status === 'created') this.land(last);
    } catch (e) {
      this.say(`No rematch: ${/** @type {Error} */ (e).message}`, 'error');
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * land moves this browser to the new game, with the new token of each
   * seat it held that accepted, asked for with that seat's own token.
   * @param {Rematch} r
   */
  async land(r) {
    if (this.moving || !r.new) return;
    const mine = r.seats.filter((s) => (s.answer === 'accepted' || s.answer === 'offered') && this.tokens[s.seat]);
    if (!mine.length) return;
    this.moving = true;
    try {
      for (const s of mine) {
        const own = await api.rematchOf(this.id, this.tokens[s.seat]);
        if (own.token && own.seat) api.saveToken(r.new, own.seat, own.token);
      }
      location.href = `/game/${encodeURIComponent(r.new)}`;
    } catch (e) {
      this.moving = false;
      this.say(`The rematch cannot be opened: ${/** @type {Error} */ (e).message}`, 'error');
    }
  }
}
