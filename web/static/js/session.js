// @ts-check
// The page header's account link: "Sign in" for a guest, the signed-in
// player's name (to their account page) otherwise. Every page that shows
// the header imports this module.

import { me } from './accounts.js';

/** showMe fills the header's #me link. */
export async function showMe() {
  const link = /** @type {HTMLAnchorElement|null} */ (document.getElementById('me'));
  if (!link) return;
  let who = null;
  try { who = await me(); } catch { /* the server cannot be reached: stay a guest */ }
  if (who) {
    link.textContent = who.name;
    link.href = '/account';
    link.dataset.name = who.name;
    link.setAttribute('aria-label', `Your account: ${who.name}`);
  } else {
    link.textContent = 'Sign in';
    link.href = '/signin';
    delete link.dataset.name;
    link.removeAttribute('aria-label');
  }
  document.body.dataset.signedIn = who ? 'yes' : 'no';
}

showMe();
