// @ts-check
// The rules page: a preset's complete rules, as the engine itself writes
// them (Preset.Explain) and the server renders them in HTML, beside a
// diagram of its start position.

import * as api from './api.js';
import { h, byId, replace } from './dom.js';
import { Board } from './board.js';
import { armyBadge, armies, paint } from './pieces.js';
import { parsePosition } from './position.js';

async function main() {
  const name = decodeURIComponent(location.pathname.split('/')[2] || 'chaturaji');
  const [list, pr] = await Promise.all([api.presets().catch(() => []), api.preset(name).catch((e) => e)]);
  replace(byId('preset-nav'), ...list.map((p) => h('a', { href: `/rules/${encodeURIComponent(p.name)}`, class: p.name === name ? 'current' : '', title: p.title }, p.name)));
  if (pr instanceof Error) {
    // No board, no "Play this game": only what exists, to choose from.
    document.title = 'Rules not found · Chaturaji';
    byId('start-board').remove();
    byId('legend').remove();
    byId('play-preset').remove();
    replace(byId('rules-text'), h('h1', {}, 'Rules not found'),
      h('p', {}, `There are no rules called "${name}" here. The games this server plays are listed above; `, h('a', { href: '/rules' }, 'see the rules of Chaturaji'), '.'));
    document.body.dataset.missing = 'notfound';
    return;
  }
  document.title = `${pr.name} · Rules · Chaturaji`;
  paint(pr);
  // The server renders the engine's own text with goldmark, which leaves
  // out any raw HTML: the markup is the server's, never a user's.
  byId('rules-text').innerHTML = pr.html || '';
  const board = h('div', { class: 'board-host' });
  replace(byId('start-board'), h('h2', { class: 'panel-title' }, 'Start position'), board, h('p', { class: 'small muted' }, 'Dashed squares with a crown are the thrones, where the kings start.'));
  new Board(board, pr).render({ pos: parsePosition(pr.start) });
  replace(byId('legend'), ...pr.seats.map((s) => h('li', {}, armyBadge(s.letter, 20), `${s.seat}: ${armies[s.letter].name}`)),
    ...pr.pieces.map((p) => h('li', {}, h('strong', {}, p.letter), ` ${p.name}${pr.goal === 'points' ? ` (${p.points})` : ''}`)));
  /** @type {HTMLAnchorElement} */ (byId('play-preset')).href = `/?rules=${encodeURIComponent(pr.name)}#new-game`;
}

main();
