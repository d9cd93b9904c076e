// @ts-check
// Partners who come as a pair, on the lobby page. In a pool of team
// rules, "Play with a partner" asks the lobby for an invitation (pair) and
// shows its link, /play?partner=CODE, to give the partner; the partner's
// page, opened by the link, takes the code (partner) over its own lobby
// WebSocket, and the two then seek as one team (docs/api.md, "Partners
// who come as a pair"). The state is lobby.js's; this module makes the
// link and reads it back.

import { byId, toast, copyText } from './dom.js';

/** The address's parameter that carries a partner's code. */
const param = 'partner';

/**
 * partnerLink is the address a partner opens to join the invitation of
 * the code.
 * @param {string} code
 */
export function partnerLink(code) {
  return `${location.origin}/play?${param}=${encodeURIComponent(code)}`;
}

/**
 * takeCode returns the partner's code the address brings ('' if none)
 * and removes it from the address, so that a reload does not bring the
 * used code again.
 */
export function takeCode() {
  const q = new URLSearchParams(location.search);
  const code = (q.get(param) || '').trim();
  if (q.has(param)) {
    q.delete(param);
    const rest = q.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
  }
  return code;
}

/**
 * showInvite shows the invitation's link, to copy, or hides it ('').
 * @param {string} code
 */
export function showInvite(code) {
  const box = byId('pair-invite');
  box.hidden = !code;
  const link = /** @type {HTMLInputElement} */ (byId('pair-link'));
  link.value = code ? partnerLink(code) : '';
}

/** wireCopy makes the Copy button copy the link shown. */
export function wireCopy() {
  const link = /** @type {HTMLInputElement} */ (byId('pair-link'));
  link.addEventListener('focus', () => link.select());
  byId('pair-copy').addEventListener('click', async () => {
    toast(await copyText(link.value) ? 'Link copied: send it to your partner' : 'Copy failed: select the link and copy it');
  });
}

/**
 * whyWords says in a sentence why the server withdrew a pair's seek
 * ("your partner left the lobby").
 * @param {string} why
 */
export function whyWords(why) {
  const s = why.charAt(0).toUpperCase() + why.slice(1);
  return `${s}, so the seek you made together was withdrawn.`;
}
