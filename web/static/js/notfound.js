// @ts-check
// The page a game's address shows when the game cannot be shown: one that
// does not exist gets a plain "not found" with a link home, as the
// server's own 404 page has, instead of a board that waits for ever.

import { h, replace } from './dom.js';

/**
 * showMissing replaces the page's content with why a game cannot be shown.
 * @param {string} id the game's id, from the address
 * @param {unknown} err what the API answered
 */
export function showMissing(id, err) {
  const e = /** @type {{status?: number, message?: string}} */ (err || {});
  const missing = e.status === 404;
  const title = missing ? 'Game not found' : 'This game cannot be shown';
  document.title = `${title} · Chaturaji`;
  for (const el of document.querySelectorAll('header .net, header .game-title')) el.remove();
  const main = document.querySelector('main');
  if (!main) return;
  main.className = 'page';
  replace(main,
    h('h1', {}, title),
    h('p', {}, missing
      ? `There is no game "${id}" on this server: the link may be mistyped, or the game was never created here.`
      : `The server did not give the game: ${e.message || 'unknown error'}. Try again in a moment.`),
    h('p', {}, h('a', { href: '/' }, 'Go to the home page'), ' to start a game or find one to watch.'));
  document.body.dataset.missing = missing ? 'notfound' : 'error';
}
