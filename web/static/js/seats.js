// @ts-check
// The seats in turn order: who plays each army, its score and rank, whose
// turn it is, who is frozen or out, and in timed games every human seat's
// clock: the one to act counting down, the others the time their next
// decision will have and how long their last one took.

import { h, replace } from './dom.js';
import { armyBadge, armies } from './pieces.js';
import { playerLabel } from './api.js';
import { ordinal, stillWord } from './position.js';
import { fillRating } from './people.js';

/**
 * @typedef {import('./api.js').Preset} Preset
 * @typedef {import('./api.js').SeatInfo} SeatInfo
 * @typedef {{seats: SeatInfo[], scores: number[], ranks: number[]|null, toAct: string,
 *   frozen: Set<string>, out: Set<string>, held: Set<string>, deadline: string,
 *   over: boolean, team?: Record<string, number>, commands?: Set<string>,
 *   turnMS?: number, took?: Record<string, number>, banks?: number[]}} SeatsState
 *   seats, scores and ranks in seat order; frozen, out, commands by colour
 *   letter; held by seat name; team: each seat's team score, by colour letter;
 *   turnMS: the time each human decision has (0: untimed); took: how long
 *   each seat's last decision took, in ms, by seat name; banks: at a bank table,
 *   each seat's bank in ms, in seat order, as of the decision open
 */

/**
 * clockText writes a time in ms as a clock does: 1:30, or 42s under a minute.
 * @param {number} ms
 */
export function clockText(ms) {
  const sec = Math.ceil(Math.max(0, ms) / 1000);
  return sec >= 60 ? `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}` : `${sec}s`;
}

export class Seats {
  /**
   * @param {HTMLElement} host
   * @param {Preset} preset
   */
  constructor(host, preset) {
    this.host = host;
    this.preset = preset;
    /** @type {SeatsState|null} */
    this.state = null;
    window.setInterval(() => this.tick(), 250);
  }

  /** @param {SeatsState} st */
  render(st) {
    this.state = st;
    const pr = this.preset;
    const rows = pr.order.map((name, turn) => {
      const i = pr.seats.findIndex((s) => s.seat === name);
      const def = pr.seats[i];
      const info = st.seats[i] || { seat: name, player: '' };
      const toAct = !st.over && st.toAct === name;
      const frozen = st.frozen.has(def.letter);
      const out = st.out.has(def.letter);
      const rank = st.ranks ? st.ranks[i] : 0;
      const you = st.held.has(name);
      // The name and the kind of player apart: a phone's strip shows the
      // name alone when there is one.
      const who = info.account && info.name
        ? [h('a', { class: 'player-name', href: `/players/${encodeURIComponent(info.name)}` }, info.name), this.rating(info.name)]
        : info.name
          ? [h('span', { class: 'player-name' }, info.name), h('span', { class: 'player-kind named' }, ` (${playerLabel(info.player)})`)]
          : [h('span', { class: 'player-name player-kind' }, playerLabel(info.player))];
      const commands = st.commands && st.commands.has(def.letter);
      return h('li', {
        class: ['seat', toAct && 'to-act', (frozen || out) && 'frozen', out && 'out', you && 'you'],
        'data-seat': name, 'aria-current': toAct ? 'true' : null,
      },
      h('span', { class: 'turn-mark', 'aria-hidden': 'true' }, toAct ? '▶' : String(turn + 1)),
      armyBadge(def.letter, 26),
      h('span', { class: 'seat-who' },
        h('span', { class: 'seat-name' }, `${name}`, h('span', { class: 'colour-name' }, ` · ${armies[def.letter].name}`)),
        h('span', { class: 'seat-player' }, you ? h('span', { class: 'you-tag' }, 'you') : null,
          info.online === true ? h('span', { class: 'online', title: 'connected' }, '● ') : info.online === false ? h('span', { class: 'offline', title: 'not connected' }, '○ ') : null,
          ...who, frozen ? ` · ${stillWord(pr)}` : out ? ' · out' : '', commands ? ' · commands both armies' : '',
          info.invited && !st.over ? ' · waiting for its player' : '')),
      st.banks ? this.bank(name, info, toAct, st, st.banks[i]) : this.clock(name, info, toAct, st),
      h('span', { class: 'seat-score', title: 'score' }, pr.goal === 'points' ? String(st.scores[i] ?? 0) : ''),
      h('span', { class: ['seat-rank', rank === 1 && 'first'], title: 'rank' }, rank ? ordinal(rank) : ''));
    });
    replace(this.host, h('h2', { class: 'panel-title' }, 'Turn order'), h('ol', { class: 'seat-list' }, ...rows), this.teams(st));
    this.tick();
  }

  /**
   * rating makes the place of a signed-in player's rating in this game's
   * rules, filled once their profile is read.
   * @param {string} name
   */
  rating(name) {
    const el = h('span', { class: 'seat-rating', 'data-player': name });
    fillRating(el, name, this.preset.name);
    return el;
  }

  /**
   * clock makes a seat's clock: running for the seat to act (its deadline
   * counted down by tick), waiting with a whole decision's time for the
   * others, with how long its last decision took; none for bots or in
   * untimed games.
   * @param {string} name
   * @param {SeatInfo} info
   * @param {boolean} toAct
   * @param {SeatsState} st
   */
  clock(name, info, toAct, st) {
    const turn = st.turnMS || 0;
    const running = toAct && !!st.deadline;
    if (!running && (!turn || info.player !== 'human' || st.over)) return h('span', { class: 'seat-clock' });
    const took = st.took ? st.took[name] : undefined;
    const last = took === undefined ? null : h('span', { class: 'clock-took' }, `took ${clockText(took)}`);
    return h('span', {
      class: ['seat-clock', running ? 'running' : 'waiting'],
      title: running ? 'time left for this decision' : 'the time its next decision will have',
    }, h('span', { class: 'clock-time', 'data-clock': running ? st.deadline : '' }, running ? '' : clockText(turn)), last);
  }

  /**
   * bank makes a seat's chess clock at a bank table: its bank, counted
   * down while it decides (its deadline less now, never more than the bank:
   * with a delay the bank stands still for the delay's first seconds),
   * standing still for the others; none for bots.
   * @param {string} name
   * @param {SeatInfo} info
   * @param {boolean} toAct
   * @param {SeatsState} st
   * @param {number|undefined} bank
   */
  bank(name, info, toAct, st, bank) {
    if (info.player !== 'human' || bank === undefined) return h('span', { class: 'seat-clock' });
    const running = toAct && !!st.deadline && !st.over;
    const took = st.took ? st.took[name] : undefined;
    const last = took === undefined || running ? null : h('span', { class: 'clock-took' }, `took ${clockText(took)}`);
    return h('span', {
      class: ['seat-clock', 'bank', running ? 'running' : 'waiting'],
      title: running ? 'time left in its bank' : 'its bank of time for the game',
    }, h('span', {
      class: 'clock-time', 'data-clock': running ? st.deadline : '', 'data-cap': running ? String(bank) : '',
    }, running ? '' : clockText(bank)), last);
  }

  /**
   * teams shows the two teams of a partnership preset, with their scores
   * in points presets.
   * @param {SeatsState} st
   */
  teams(st) {
    const pr = this.preset;
    if (!pr.partners || pr.seats.length !== 4) return null;
    const points = pr.goal === 'points';
    const team = (/** @type {number} */ i) => {
      const a = pr.seats[i], b = pr.seats[i + 2];
      return h('li', { class: 'team', 'data-team': a.letter + b.letter },
        armyBadge(a.letter, 18), armyBadge(b.letter, 18),
        h('span', { class: 'team-name' }, `${a.seat} & ${b.seat}`),
        points ? h('span', { class: 'team-score', title: 'team score' }, String(st.team ? st.team[a.letter] ?? 0 : 0)) : null);
    };
    return h('ul', { class: 'team-list', 'aria-label': 'Teams' }, team(0), team(1));
  }

  /** tick counts down the running clock. */
  tick() {
    for (const el of this.host.querySelectorAll('[data-clock]')) {
      const d = /** @type {HTMLElement} */ (el).dataset.clock;
      if (!d) continue;
      const cap = Number(/** @type {HTMLElement} */ (el).dataset.cap || Infinity);
      const left = Math.max(0, Math.min(cap, Date.parse(d) - Date.now()));
      el.textContent = clockText(left);
      el.classList.toggle('low', left <= 10000);
    }
  }
}
