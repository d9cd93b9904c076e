// @ts-check
// The leaderboard of a ruleset (/leaderboard?rules=NAME): the players
// with enough rated games who played lately, best first.
// GET /api/leaderboard?rules=NAME.

import * as api from './api.js';
import { h, byId, replace } from './dom.js';
import { ratingSpan, playerLink } from './people.js';
import { me } from './accounts.js';
import './session.js';

/**
 * @typedef {{place: number, name: string, rating: number, deviation?: number, provisional?: boolean, games: number,
 *   first_rate?: number, mean_score?: number}} Leader
 * @typedef {{rules: string, players: Leader[], min_games?: number, active_days?: number}} Board
 */

async function show() {
  const rules = /** @type {HTMLSelectElement} */ (byId('lb-rules')).value;
  history.replaceState(null, '', `/leaderboard?rules=${encodeURIComponent(rules)}`);
  const body = /** @type {HTMLElement} */ (byId('leaderboard').querySelector('tbody'));
  byId('lb-error').textContent = '';
  /** @type {Board} */
  let b;
  try {
    b = await api.request('GET', `/api/leaderboard?rules=${encodeURIComponent(rules)}`);
  } catch (e) {
    byId('lb-error').textContent = /** @type {Error} */ (e).message;
    replace(body);
    return;
  }
  const who = await me().catch(() => null);
  byId('lb-about').textContent = b.min_games
    ? `Players with at least ${b.min_games} rated games${b.active_days ? ` who played in the last ${b.active_days} days` : ''}.` : '';
  const players = b.players || [];
  replace(body, ...(players.length ? players.map((p, i) => h('tr', { class: who && who.name === p.name ? 'you' : null, 'data-name': p.name },
    h('td', { class: 'num' }, String(p.place || i + 1)),
    h('th', { scope: 'row' }, playerLink(p.name)),
    h('td', { class: 'num' }, ratingSpan(p)),
    h('td', { class: 'num' }, String(p.games))))
    : [h('tr', {}, h('td', { colspan: 4, class: 'empty' }, 'Nobody yet.'))]));
  document.body.dataset.loaded = rules;
}

async function main() {
  const sel = /** @type {HTMLSelectElement} */ (byId('lb-rules'));
  let presets = [];
  try {
    presets = await api.presets();
  } catch (e) {
    byId('lb-error').textContent = `The server cannot be reached: ${/** @type {Error} */ (e).message}`;
  }
  replace(sel, ...presets.map((p) => h('option', { value: p.name }, p.name)));
  const want = new URLSearchParams(location.search).get('rules');
  sel.value = want && presets.some((p) => p.name === want) ? want : 'chaturaji';
  sel.addEventListener('change', show);
  show();
}

main();
