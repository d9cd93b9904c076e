// @ts-check
// The home page: play at once against bots, set up a game, invite friends,
// and find live games to watch and finished ones to replay.

import * as api from './api.js';
import { h, byId, replace, toast, copyText, ago } from './dom.js';
import { armyBadge } from './pieces.js';
import { Board } from './board.js';
import { parsePosition } from './position.js';
import { rememberedChoice } from './choice.js';
import './session.js';

/**
 * The players a seat may have, for the seat menus, with how each plays:
 * the server's list (GET /web/players, web.seatPlayers), the one source.
 * @type {import('./api.js').PlayerChoice[]}
 */
let players = [];

/** @type {import('./api.js').Preset[]} */
let presets = [];

async function main() {
  byId('play-now').addEventListener('click', playNow);
  sayPool();
  byId('new-game').addEventListener('submit', (e) => { e.preventDefault(); create(); });
  byId('time').addEventListener('change', sayTime);
  sayTime();
  try {
    [presets, players] = await Promise.all([api.presets(), api.players()]);
  } catch (e) {
    byId('play-error').textContent = `The server cannot be reached: ${/** @type {Error} */ (e).message}`;
  }
  const sel = /** @type {HTMLSelectElement} */ (byId('preset'));
  // The menu names the presets; what the chosen one is, is said under it
  // (a description in the menu would be cut off).
  replace(sel, ...presets.map((p) => h('option', { value: p.name, title: p.title }, p.name)));
  sel.value = presets.some((p) => p.name === 'chaturaji') ? 'chaturaji' : (presets[0] || { name: '' }).name;
  const want = new URLSearchParams(location.search).get('rules');
  if (want && presets.some((p) => p.name === want)) sel.value = want;
  sel.addEventListener('change', seatRows);
  seatRows();
  heroBoard();
  refreshLists();
  window.setInterval(refreshLists, 5000);
}

/**
 * sayPool says under Play which pool it seeks: the one this browser
 * chose last on the lobby page, or the default.
 */
function sayPool() {
  const c = rememberedChoice();
  const turn = c.turn === '1d' ? 'a day a move (correspondence)' : `${c.turn.replace(/m0s$/, ' min').replace(/s$/, ' s')} a move`;
  const bots = c.bots === '0' ? 'waiting for people only' : `bots fill the empty seats after ${c.bots} s`;
  const pool = byId('play-pool');
  const link = pool.querySelector('a');
  pool.replaceChildren(`Seats you with players from anywhere: ${c.rated} ${c.rules}, ${turn}; ${bots}. `, ...(link ? [link] : []), '.');
}

/** heroBoard draws the start position beside the welcome. */
function heroBoard() {
  const pr = presets.find((p) => p.name === 'chaturaji');
  if (!pr) return;
  const b = new Board(byId('hero-board'), pr);
  b.render({ pos: parsePosition(pr.start) });
}

/** playNow starts a game against three bots and opens it. */
async function playNow() {
  const btn = /** @type {HTMLButtonElement} */ (byId('play-now'));
  btn.disabled = true;
  try {
    const c = await api.createGame({ rules: 'chaturaji', seats: ['human', 'bot:3', 'bot:3', 'bot:3'], host_seats: ['South'] });
    location.href = `/game/${encodeURIComponent(c.id)}`;
  } catch (e) {
    byId('play-error').textContent = `The game could not start: ${/** @type {Error} */ (e).message}`;
    btn.disabled = false;
  }
}

function currentPreset() {
  const name = /** @type {HTMLSelectElement} */ (byId('preset')).value;
  return presets.find((p) => p.name === name);
}

/** seatRows draws the chosen preset's description, house rules and seats. */
function seatRows() {
  const pr = currentPreset();
  if (!pr) return;
  byId('preset-about').textContent = pr.title;
  houseRules(pr);
  const rows = pr.seats.map((s, i) => {
    const sel = /** @type {HTMLSelectElement} */ (h('select', { id: `seat-${s.seat}`, name: `seat-${i}`, 'aria-label': `Player of ${s.seat}`, 'aria-describedby': `about-${s.seat}` },
      ...players.map((p) => h('option', { value: p.spec, title: p.about }, p.label))));
    sel.value = i === 0 ? 'human' : 'bot:3';
    const about = h('small', { class: 'seat-about', id: `about-${s.seat}` });
    const explain = () => { about.textContent = (players.find((p) => p.spec === sel.value) || { about: '' }).about; };
    sel.addEventListener('change', explain);
    sel.addEventListener('change', hostSeats);
    explain();
    return h('div', { class: 'seat-row' },
      h('span', { class: 'seat-label' }, armyBadge(s.letter, 20), s.seat),
      sel,
      h('input', { type: 'text', id: `name-${s.seat}`, placeholder: 'name (optional)', maxlength: 40, 'aria-label': `Name of ${s.seat}'s player` }),
      about);
  });
  replace(byId('seat-rows'), ...rows);
  hostSeats();
}

/** humanSeats lists the seats the form gives to people. */
function humanSeats() {
  const pr = currentPreset();
  if (!pr) return [];
  return pr.seats.map((s) => s.seat).filter((seat) => /** @type {HTMLSelectElement} */ (byId(`seat-${seat}`)).value === 'human');
}

/**
 * hostSeats offers the seats this browser may hold: one human seat, its
 * player's own (the others get invite links), or every human seat on
 * this device ("pass and play"), chosen, never the default.
 */
function hostSeats() {
  const sel = /** @type {HTMLSelectElement} */ (byId('host-seat'));
  const humans = humanSeats();
  const keep = sel.value;
  const options = humans.map((seat) => h('option', { value: seat }, seat));
  if (humans.length > 1) options.push(h('option', { value: 'all' }, 'Pass and play: this device plays all the human seats'));
  if (!humans.length) options.push(h('option', { value: '' }, 'none: only bots play'));
  replace(sel, ...options);
  sel.value = [...humans, humans.length > 1 ? 'all' : ''].includes(keep) && keep ? keep : (humans[0] || '');
  sel.disabled = humans.length === 0;
  const explain = () => {
    const others = humans.filter((s) => s !== sel.value);
    byId('host-seat-about').textContent = sel.value === 'all'
      ? 'This browser plays every human seat in turn: no invite links.'
      : others.length ? `${others.join(', ')} ${others.length > 1 ? 'get invite links' : 'gets an invite link'} to send: each opens its seat for one friend.` : '';
  };
  sel.onchange = explain;
  explain();
}

/** Words for the values of house rules that are not plain numbers or on/off. */
const valueWords = {
  long: 'one long die', cube: 'one cube die', 'cube-blank': 'one cube die with blank faces',
  '2long': 'two long dice', '2cube': 'two cube dice', '2cube-blank': 'two cube dice with blank faces',
};

/**
 * houseRules offers the chosen preset's house rules as choices people can
 * read: a box to tick for a rule that is on or off, a number for one that
 * takes a number, a menu for one with named values, each labelled with
 * what it changes. The rules' name (chaturaji+clock=40) is shown as they
 * are chosen.
 * @param {import('./api.js').Preset} pr
 */
function houseRules(pr) {
  const box = byId('house-options');
  byId('house-rules').hidden = pr.options.length === 0;
  const sentence = (/** @type {string} */ t) => t.charAt(0).toUpperCase() + t.slice(1);
  const rows = pr.options.map((o) => {
    const id = `house-${o.name}`;
    const values = o.values || [];
    /** @type {HTMLElement} */
    let control;
    if (values.length === 0) {
      control = h('input', { type: 'checkbox', id, 'data-option': o.name });
      return h('div', { class: 'house-row flag' }, control, h('label', { for: id }, sentence(o.help), ' ', h('code', {}, o.name)));
    }
    if (values.length === 1 && values[0] === 'N') {
      control = h('input', { type: 'number', id, min: 0, step: 1, inputmode: 'numeric', placeholder: 'as the rules say', 'data-option': o.name });
    } else {
      const yesNo = values.length === 2 && values.includes('on') && values.includes('off');
      control = h('select', { id, 'data-option': o.name },
        h('option', { value: '' }, 'as the rules say'),
        ...values.map((v) => h('option', { value: v }, yesNo ? (v === 'on' ? 'yes' : 'no') : valueWords[/** @type {keyof valueWords} */ (v)] || v)));
    }
    return h('div', { class: 'house-row' }, h('label', { for: id }, sentence(o.help), ' ', h('code', {}, o.name)), control);
  });
  replace(box, ...rows);
  box.oninput = showRules;
  box.onchange = showRules;
  showRules();
}

/** @returns {string[]} the house rules chosen, as the rules' name writes them */
function chosenHouseRules() {
  const out = [];
  for (const el of byId('house-options').querySelectorAll('[data-option]')) {
    const c = /** @type {HTMLInputElement} */ (el);
    const name = c.dataset.option;
    if (c.type === 'checkbox') {
      if (c.checked) out.push(name);
    } else if (c.value.trim() !== '') {
      out.push(`${name}=${c.value.trim()}`);
    }
  }
  return out;
}

/** rulesName is the rules the form describes: the preset and its house rules. */
function rulesName() {
  const pr = currentPreset();
  if (!pr) return '';
  return [pr.name, ...chosenHouseRules()].join('+');
}

/** showRules says which rules the game will play. */
function showRules() {
  const house = chosenHouseRules();
  byId('house-chosen').textContent = house.length ? house.join(', ') : 'none';
  byId('house-summary').textContent = house.length ? `The game will play ${rulesName()}.` : '';
}

/**
 * @typedef {object} TimeControl
 * @property {number} [turn_ms] a clock for each decision
 * @property {number} [bank_ms] a bank of time for the whole game
 * @property {number} [increment_ms] added to the bank after each decision
 * @property {number} [delay_ms] the part of each decision the bank does not pay
 */

/**
 * timeControl reads the time menu: a number of milliseconds a decision
 * ("0" for no clock), or "bank:BANK:INCREMENT:DELAY" in milliseconds.
 * @returns {TimeControl}
 */
function timeControl() {
  const v = /** @type {HTMLSelectElement} */ (byId('time')).value;
  if (v.startsWith('bank:')) {
    const [bank, inc, delay] = v.split(':').slice(1).map(Number);
    return { bank_ms: bank, increment_ms: inc || undefined, delay_ms: delay || undefined };
  }
  return { turn_ms: Number(v) || undefined };
}

/** seconds writes a time of the menu in words: "3 min", "5 s". */
function seconds(/** @type {number} */ ms) {
  return ms >= 60000 && ms % 60000 === 0 ? `${ms / 60000} min` : `${ms / 1000} s`;
}

/** sayTime explains the chosen time control under the menu. */
function sayTime() {
  const t = timeControl();
  let say = 'No clock: a player who goes away for long is replaced by a bot.';
  if (t.bank_ms) {
    say = `Each player has ${seconds(t.bank_ms)} for the whole game, shown as a running clock on their seat`;
    if (t.increment_ms) say += `, and gains ${seconds(t.increment_ms)} after each move`;
    if (t.delay_ms) say += `; the first ${seconds(t.delay_ms)} of each move cost nothing`;
    say += '. A roll of the dice costs no one time.';
  } else if (t.turn_ms) {
    say = `Each move has ${seconds(t.turn_ms)}, whatever the moves before took.`;
  }
  byId('time-about').textContent = say;
}

/** create starts the game the form describes and shows its invite links. */
async function create() {
  const pr = currentPreset();
  if (!pr) return;
  const rules = rulesName();
  const seats = pr.seats.map((s) => /** @type {HTMLSelectElement} */ (byId(`seat-${s.seat}`)).value);
  const names = pr.seats.map((s) => /** @type {HTMLInputElement} */ (byId(`name-${s.seat}`)).value.trim());
  const pace = /** @type {HTMLSelectElement} */ (byId('bot-pace')).value; // '': the server's bot delay
  const host = /** @type {HTMLSelectElement} */ (byId('host-seat')).value;
  const humans = humanSeats();
  const help = /** @type {HTMLInputElement} */ (byId('help')).checked;
  const btn = /** @type {HTMLButtonElement} */ (byId('create'));
  btn.disabled = true;
  const out = byId('created');
  try {
    const c = await api.createGame({
      rules, seats, names: names.some(Boolean) ? names : undefined,
      host_seats: host === 'all' ? humans : host ? [host] : [],
      ...timeControl(), on_timeout: /** @type {HTMLSelectElement} */ (byId('timeout')).value,
      chat: /** @type {HTMLInputElement} */ (byId('chat')).checked || undefined,
      bot_delay_ms: pace === '' ? undefined : Number(pace),
      help: help ? undefined : false,
    });
    showCreated(c);
  } catch (e) {
    out.hidden = false;
    replace(out, h('p', { class: 'error', role: 'alert' }, `The game could not start: ${/** @type {Error} */ (e).message}`));
  } finally {
    btn.disabled = false;
  }
}

/**
 * showCreated shows what a new game needs from its creator: the seats
 * this browser plays, with a button to play, and an invite link to send
 * for each friend's seat, with a button that copies it. The links are for
 * friends: this page never opens them itself.
 * @param {import('./api.js').Created} c
 */
function showCreated(c) {
  const out = byId('created');
  const pr = currentPreset();
  const letter = (/** @type {string} */ seat) => (pr && pr.seats.find((s) => s.seat === seat) || { letter: 'b' }).letter;
  const mine = c.seats.filter((s) => s.token);
  const invited = c.seats.filter((s) => s.invite);
  const game = `/game/${encodeURIComponent(c.id)}`;
  // Each friend's link written out, to read or select, with a button that
  // copies it.
  const items = invited.map((s) => {
    const link = api.inviteLink(c.id, s.seat, s.invite || '');
    const field = /** @type {HTMLInputElement} */ (h('input', {
      type: 'text', class: 'invite-link', readonly: true, value: link, id: `invite-${s.seat}`,
      'aria-label': `Invite link of ${s.seat}`, spellcheck: 'false',
      onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select(),
    }));
    return h('li', {},
      h('span', { class: 'invite-seat' }, armyBadge(letter(s.seat), 18), h('strong', {}, s.seat)),
      field,
      h('button', {
        type: 'button', class: 'secondary small', 'data-invite': s.seat, 'data-link': link,
        'aria-label': `Copy the invite link of ${s.seat}`,
        onclick: async () => toast(await copyText(link) ? `Invite link for ${s.seat} copied` : 'Copy failed: select the link and copy it'),
      }, 'Copy'));
  });
  const yours = mine.map((s) => s.seat).join(', ');
  let play = '▶ Watch';
  if (mine.length > 1) play = '▶ Play all your seats here';
  else if (mine.length === 1) play = `▶ Play ${yours}`;
  out.hidden = false;
  replace(out,
    h('h3', { class: 'created-title', tabindex: -1 }, 'Game created'),
    h('p', { id: 'your-seats' }, mine.length > 1
      ? `This browser plays ${yours}, in turn.`
      : mine.length === 1 ? `Your seat: ${yours}.` : invited.length ? 'You hold no seat: you will watch.' : 'Only bots: watch them play.'),
    invited.length ? h('p', {}, 'Send each friend the link of their seat: the first browser that opens it takes the seat, and no other can after it.') : null,
    invited.length ? h('ul', { class: 'invite-links' }, ...items) : null,
    h('p', {}, h('a', { class: 'button primary', href: game, id: 'open-game' }, play)));
  // The links come under the form, below the fold of most screens: bring
  // them into view, and the focus to them for keyboards and screen readers.
  out.scrollIntoView({ block: out.offsetHeight < innerHeight ? 'center' : 'start' });
  /** @type {HTMLElement} */ (out.querySelector('.created-title')).focus({ preventScroll: true });
}

/** refreshLists shows the live games and the recent finished ones. */
async function refreshLists() {
  try {
    const [live, done] = await Promise.all([api.games('live', 20), api.games('finished', 20)]);
    list(byId('live-games'), live, 'Watch', (g) => `/game/${encodeURIComponent(g.id)}`, 'No game is being played right now.');
    list(byId('recent-games'), done, 'Replay', (g) => `/replay/${encodeURIComponent(g.id)}`, 'No finished game yet.');
  } catch { /* try again at the next refresh */ }
}

/**
 * @param {HTMLElement} el
 * @param {import('./api.js').Summary[]} games
 * @param {string} verb
 * @param {(g: import('./api.js').Summary) => string} href
 * @param {string} empty
 */
function list(el, games, verb, href, empty) {
  if (!games.length) {
    replace(el, h('li', { class: 'empty' }, empty));
    return;
  }
  const letters = { South: 'b', West: 'y', North: 'g', East: 'r' };
  replace(el, ...games.map((g) => {
    const scores = g.scores || (g.result && /^-?\d+(,-?\d+)*$/.test(g.result) ? g.result.split(',').map(Number) : null);
    // A chip: the seat's army, its player ("Level 3 bot"), and its score
    // apart, so that "Level 3 bot" and 3 points are never one "level 3 3".
    const chip = (/** @type {import('./api.js').SeatInfo} */ s, /** @type {number} */ i) => {
      const who = s.name || api.playerLabel(s.player);
      return h('li', { class: ['chip', g.to_act === s.seat && 'to-act'], title: `${s.seat}: ${who}` },
        armyBadge(letters[/** @type {keyof letters} */ (s.seat)] || 'b', 16),
        h('span', { class: 'sr-only' }, `${s.seat}: `),
        h('span', { class: 'chip-who' }, who),
        scores ? h('span', { class: 'chip-score', title: 'score' }, h('span', { class: 'sr-only' }, ', score '), String(scores[i])) : null);
    };
    return h('li', { class: 'game-item', 'data-game': g.id },
      h('ul', { class: 'chips', 'aria-label': 'Players' }, ...g.seats.map(chip)),
      h('span', { class: 'game-meta muted small' }, `${g.rules} · ${ago(g.updated)}`),
      h('a', { class: 'button secondary small', href: href(g), 'aria-label': `${verb} game ${g.id}` }, verb));
  }));
}

main();
