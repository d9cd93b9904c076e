// @ts-check
// How people are shown wherever they appear: a player's name linking to
// their profile, their rating as one number with its uncertainty on
// hover (a question mark while it is provisional), and the address a page
// may go back to after signing in.

import { h } from './dom.js';

/**
 * @typedef {{rating: number, deviation?: number, provisional?: boolean}} Shown
 *   a rating as people see it (rating.Show): the number, its uncertainty
 *   (one deviation, in the same points) and whether it is provisional
 */

/**
 * ratingSpan shows a rating: its number, and on hover (and for screen
 * readers) its uncertainty and whether it is provisional.
 * @param {Shown|null|undefined} r
 * @returns {HTMLElement|null}
 */
export function ratingSpan(r) {
  if (!r || typeof r.rating !== 'number') return null;
  const n = Math.round(r.rating);
  const dev = typeof r.deviation === 'number' ? Math.round(r.deviation) : null;
  const about = `rating ${n}${dev !== null ? ` ± ${dev}` : ''}${r.provisional ? ', provisional' : ''}`;
  return h('span', { class: ['rating', r.provisional && 'provisional'], title: about, 'aria-label': about, 'data-rating': n }, String(n));
}

/**
 * playerLink links a player's name to their profile.
 * @param {string} name
 * @returns {HTMLElement}
 */
export function playerLink(name) {
  return h('a', { class: 'player-link', href: `/players/${encodeURIComponent(name)}` }, name);
}

/**
 * nextPath returns the page to go to after signing in: the address's
 * ?next= if it is a path of this site, else fallback.
 * @param {string} fallback
 */
export function nextPath(fallback) {
  const next = new URLSearchParams(location.search).get('next') || '';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : fallback;
}
