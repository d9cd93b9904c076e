// @ts-check
// A player's profile (/players/NAME): their rating in each ruleset, with
// its uncertainty on hover and a graph over time (the replay's chart,
// chart.js), their first-place rate and mean score, and their recent
// games, each linking to its replay. GET /api/players/{name}.

import { request } from './api.js';
import { h, byId, replace, ago } from './dom.js';
import { ratingSpan } from './people.js';
import { ScoreChart } from './chart.js';
import './session.js';

/**
 * @typedef {{game: string, at: string, rating: number, deviation?: number, provisional?: boolean,
 *   change: number, rank?: number, score?: number}} RatingPoint
 *   the rating shown after a rated game; change: less the one before it
 * @typedef {{rules: string, rating: number, deviation?: number, provisional?: boolean, games: number,
 *   first_rate?: number, mean_score?: number, history?: RatingPoint[]}} RulesRating
 * @typedef {{id: string, rules: string, seat?: string, rank?: number, score?: number, change?: number,
 *   rated?: boolean, status?: string, created?: string, updated?: string}} RecentGame
 * @typedef {{name: string, ratings?: RulesRating[], games?: RecentGame[]}} Profile
 *   GET /api/players/{name}
 */

const name = decodeURIComponent(location.pathname.split('/')[2] || '');

/** @param {number|undefined} v */
function percent(v) {
  return typeof v === 'number' ? `${Math.round(v * 100)}%` : '—';
}

/** @param {number} n */
function ordinal(n) {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

/**
 * graph draws a ruleset's rating over time, one point a rated game.
 * @param {RulesRating} r
 */
function graph(r) {
  const hist = r.history || [];
  const points = hist.map((p, i) => ({ step: i + 1, scores: [Math.round(p.rating)] }));
  if (points.length === 0) {
    replace(byId('rating-chart'), h('p', { class: 'empty' }, 'No rated games yet.'));
    return;
  }
  // The line starts where the first game started from, if known.
  if (typeof hist[0].change === 'number') points.unshift({ step: 0, scores: [Math.round(hist[0].rating - hist[0].change)] });
  const chart = new ScoreChart(byId('rating-chart'), /** @type {any} */ ({ seats: [{ seat: 'Rating', letter: 'b' }], dice: null }), undefined, {
    expected: true, fit: true, badges: false, axis: 'rated games', label: `${name}'s rating in ${r.rules}, game by game`,
  });
  chart.render(points);
  byId('rating-chart').dataset.points = points.map((p) => p.scores[0]).join(' ');
}

async function main() {
  byId('player-name').textContent = name;
  document.title = `${name} · Chaturaji`;
  /** @type {Profile} */
  let p;
  try {
    p = await request('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    byId('profile-error').textContent = `${name}: ${/** @type {Error} */ (e).message}`;
    replace(byId('ratings').querySelector('tbody') || byId('ratings'));
    replace(byId('recent'));
    return;
  }
  const ratings = p.ratings || [];
  replace(/** @type {HTMLElement} */ (byId('ratings').querySelector('tbody')), ...(ratings.length ? ratings.map((r) => h('tr', { 'data-rules': r.rules },
    h('th', { scope: 'row' }, h('a', { href: `/leaderboard?rules=${encodeURIComponent(r.rules)}` }, r.rules)),
    h('td', { class: 'num' }, ratingSpan(r)),
    h('td', { class: 'num', 'data-games': r.games }, String(r.games)),
    h('td', { class: 'num' }, percent(r.first_rate)),
    h('td', { class: 'num' }, typeof r.mean_score === 'number' ? r.mean_score.toFixed(1) : '—')))
    : [h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No rated games yet.'))]));
  if (ratings.length) {
    const pick = /** @type {HTMLSelectElement} */ (byId('graph-rules'));
    replace(pick, ...ratings.map((r) => h('option', { value: r.rules }, r.rules)));
    pick.addEventListener('change', () => graph(ratings.find((r) => r.rules === pick.value) || ratings[0]));
    byId('graph-box').hidden = false;
    graph(ratings[0]);
  }
  const recent = p.games || [];
  replace(byId('recent'), ...(recent.length ? recent.map((g) => h('li', { class: 'lobby-item', 'data-game': g.id },
    h('span', {}, h('a', { href: `/replay/${encodeURIComponent(g.id)}` }, `${g.rules}${g.seat ? ` as ${g.seat}` : ''}`),
      g.rated ? h('span', { class: 'small muted' }, ' · rated') : null),
    h('span', { class: 'small muted' },
      g.status === 'live' ? 'live' : typeof g.rank === 'number' ? ordinal(g.rank) : '', typeof g.score === 'number' ? `, ${g.score} points` : '',
      typeof g.change === 'number' ? `, rating ${g.change >= 0 ? '+' : '-'}${Math.abs(g.change)}` : '',
      g.updated ? ` · ${ago(g.updated)}` : '')))
    : [h('li', { class: 'empty' }, 'No games yet.')]));
  document.body.dataset.loaded = 'yes';
}

main();
