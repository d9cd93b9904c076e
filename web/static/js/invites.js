// @ts-check
// Invites on the game page. A friend's invite link, opened, claims the
// seat for that browser alone (claimFromAddress); the creator's page shows
// the links of the seats nobody has claimed yet, to copy and send, and
// can make a new link for one (the old one then opens nothing). The
// creator's page never uses an invite itself: it plays only its own seats.

import * as api from './api.js';
import { h, replace, toast, copyText } from './dom.js';
import { armyBadge } from './pieces.js';

/**
 * claimFromAddress takes a seat given in the address: a token
 * (#seat=..&token=.., from a program that hands tokens out) is kept; an
 * invite (#seat=..&invite=..) is claimed from the server, which gives the
 * seat's token to the first browser that brings it. The fragment is then
 * removed. It resolves to what happened: '' if the address gave no seat,
 * 'taken' with the server's reason if the claim was refused.
 * @param {string} id
 * @returns {Promise<{seat: string, refused: string}>}
 */
export async function claimFromAddress(id) {
  const f = new URLSearchParams(location.hash.slice(1));
  const seat = f.get('seat') || '', token = f.get('token'), invite = f.get('invite');
  if (!seat || !(token || invite)) return { seat: '', refused: '' };
  history.replaceState(null, '', location.pathname);
  if (token) {
    api.saveToken(id, seat, token);
    return { seat, refused: '' };
  }
  try {
    await api.claim(id, seat, invite || '');
    return { seat, refused: '' };
  } catch (e) {
    return { seat, refused: /** @type {Error} */ (e).message };
  }
}

export class Invites {
  /**
   * @param {HTMLElement} host the panel
   * @param {string} id the game
   * @param {import('./api.js').Preset} preset
   * @param {Record<string,string>} tokens the seats this browser holds
   */
  constructor(host, id, preset, tokens) {
    this.host = host;
    this.id = id;
    this.preset = preset;
    this.tokens = tokens;
    this.key = '';
    /** @type {import('./api.js').SeatInfo[]} */
    this.seats = [];
    this.live = false;
  }

  /**
   * render lists the invites of the seats that wait for their player, if
   * this browser made them.
   * @param {import('./api.js').SeatInfo[]} seats
   * @param {boolean} live
   */
  render(seats, live) {
    this.seats = seats;
    this.live = live;
    const mine = api.invites(this.id);
    const open = live ? seats.filter((s) => s.invited && mine[s.seat]) : [];
    const key = open.map((s) => `${s.seat}=${mine[s.seat]}`).join(',');
    if (key === this.key) return;
    this.key = key;
    if (!open.length) {
      this.host.hidden = true;
      return;
    }
    const letter = (/** @type {string} */ seat) => (this.preset.seats.find((s) => s.seat === seat) || { letter: 'b' }).letter;
    const rows = open.map((s) => {
      const link = api.inviteLink(this.id, s.seat, mine[s.seat]);
      return h('li', { 'data-seat': s.seat },
        armyBadge(letter(s.seat), 18), h('strong', {}, s.seat),
        h('input', { type: 'text', class: 'invite-link', readonly: true, value: link, 'aria-label': `Invite link of ${s.seat}`, spellcheck: 'false' }),
        h('button', {
          type: 'button', class: 'secondary small', 'data-invite': s.seat, 'aria-label': `Copy the invite link of ${s.seat}`,
          onclick: async () => toast(await copyText(link) ? `Invite link for ${s.seat} copied` : 'Copy failed: select the link'),
        }, 'Copy'),
        h('button', {
          type: 'button', class: 'quiet small', 'data-reissue': s.seat, 'aria-label': `New link for ${s.seat}`,
          title: 'A new link for this seat: the old one stops working', onclick: () => this.reissue(s.seat),
        }, 'New link'));
    });
    replace(this.host,
      h('h2', { class: 'panel-title' }, 'Invite your friends'),
      h('p', { class: 'small muted' }, 'Send each friend the link of their seat: the first browser that opens it takes the seat, and no other can after it.'),
      h('ul', { class: 'invite-list' }, ...rows));
    this.host.hidden = false;
  }

  /**
   * reissue makes a new link for a seat nobody claimed, with a token of
   * this browser's: the server takes it only from the game's creator.
   * @param {string} seat
   */
  async reissue(seat) {
    const token = Object.values(this.tokens)[0];
    try {
      await api.newInvite(this.id, seat, token || '');
      this.key = '';
      this.render(this.seats, this.live);
      toast(`A new invite link for ${seat}: the old one no longer opens the seat`);
    } catch (e) {
      toast(`No new link: ${/** @type {Error} */ (e).message}`, 'error');
    }
  }
}
