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
  const about = `rating ${n}${dev !== null ? `, give or take ${dev}` : ''}${r.provisional ? ', provisional' : ''}`;
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

/** @type {Map<string, Promise<any>>} each player's profile, asked once per page */
const profiles = new Map();

/**
 * ratingIn returns a player's rating in a ruleset (house rules count as
 * their preset's, unless rated apart), or null if they have none: from
 * their profile (GET /api/players/{name}), asked once per page.
 * @param {string} name
 * @param {string} rules
 * @returns {Promise<Shown|null>}
 */
export async function ratingIn(name, rules) {
  let p = profiles.get(name);
  if (!p) {
    p = fetch(`/api/players/${encodeURIComponent(name)}`, { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null)).catch(() => null);
    profiles.set(name, p);
  }
  const profile = await p;
  const list = profile && Array.isArray(profile.ratings) ? profile.ratings : [];
  return list.find((/** @type {any} */ r) => r.rules === rules) || list.find((/** @type {any} */ r) => r.rules === rules.split('+')[0]) || null;
}

/**
 * fillRating puts a player's rating in a ruleset into an element, once it
 * is known.
 * @param {HTMLElement} el
 * @param {string} name
 * @param {string} rules
 */
export async function fillRating(el, name, rules) {
  const r = await ratingIn(name, rules);
  const span = ratingSpan(r);
  if (span && el.isConnected) el.replaceChildren(' ', span);
}
