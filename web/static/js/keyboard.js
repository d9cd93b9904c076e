// @ts-check
// Keyboard play on the board itself, for people who do not use a mouse and
// for screen readers: a grid of 64 focusable squares laid over the drawing
// (one tab stop; the arrow keys move the focus as the board is seen, Home
// and End along a row), Enter or Space picks a piece that can move and
// drops it on one of its targets (or drops a piece on a marked square),
// Escape puts it back. What happens is said in a live region: the square
// focused and what is on it, the piece picked and its targets, and every
// move played, the other seats' included.

import { h } from './dom.js';
import { squareAt } from './board.js';
import { squareName, parseAction } from './position.js';
import { label as actionLabel } from './decisions.js';

/**
 * @typedef {import('./board.js').Board} Board
 * @typedef {import('./position.js').Position} Position
 */

/** How many announcements the log keeps: older ones are no use to anyone. */
const keep = 30;

export class BoardKeys {
  /**
   * @param {Board} board
   * @param {HTMLElement} log an element to announce in (role="log", aria-live)
   */
  constructor(board, log) {
    this.board = board;
    this.log = log;
    /** the focused square's place on the screen: column x, row y from the top */
    this.x = 0;
    this.y = 7;
    /** @type {HTMLElement[][]} the cells by row, then column */
    this.cells = [];
    const rows = [];
    for (let y = 0; y < 8; y++) {
      const row = [];
      for (let x = 0; x < 8; x++) {
        row.push(h('div', { role: 'gridcell', class: 'key-cell', tabindex: -1, 'data-x': x, 'data-y': y }));
      }
      this.cells.push(row);
      rows.push(h('div', { role: 'row', class: 'keys-row' }, ...row));
    }
    this.grid = h('div', {
      class: 'board-keys', role: 'grid', 'aria-label': 'Board: arrow keys move between squares, Enter picks a piece and plays it on a target, Escape puts it back',
    }, ...rows);
    board.host.append(this.grid);
    // The grid is what assistive technology reads of the board; the
    // drawing under it says nothing more.
    board.svg.removeAttribute('role');
    board.svg.setAttribute('aria-hidden', 'true');
    this.grid.addEventListener('keydown', (e) => this.key(e));
    // Enter and Space act when released: acting at the press would move
    // the focus (to the chooser of a promotion) before the key is done,
    // and the rest of the key press would land on the chooser's button.
    /** the key pressed on a square, waiting for its release */
    this.pressed = '';
    // A Space that gets to its key press would scroll the page.
    this.grid.addEventListener('keypress', (e) => { if (e.key === ' ' || e.key === 'Enter') e.preventDefault(); });
    this.grid.addEventListener('keyup', (e) => {
      if (e.key !== this.pressed) return;
      this.pressed = '';
      e.preventDefault();
      this.activate();
    });
    this.grid.addEventListener('focusin', (e) => {
      const t = /** @type {HTMLElement} */ (e.target);
      if (!t.dataset.x) return;
      this.x = Number(t.dataset.x);
      this.y = Number(t.dataset.y);
      this.update();
      this.say(this.describe(this.square()));
    });
    board.afterDraw = () => this.update();
    board.focusBack = () => this.focus();
    this.update();
  }

  /** square returns the square under the focus. */
  square() {
    return squareAt(this.x, this.y, this.board.bottom);
  }

  /** focus puts the focus on the grid's current square. */
  focus() {
    this.cells[this.y][this.x].focus();
  }

  /**
   * say announces a line.
   * @param {string} text
   */
  say(text) {
    if (!text) return;
    this.log.append(h('p', {}, text));
    while (this.log.childElementCount > keep) this.log.firstElementChild?.remove();
  }

  /** update names every square after a drawing, and keeps one tab stop. */
  update() {
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const cell = this.cells[y][x];
        const sq = squareAt(x, y, this.board.bottom);
        cell.dataset.square = squareName(sq);
        cell.setAttribute('aria-label', this.describe(sq));
        cell.setAttribute('aria-selected', String(sq === this.board.selected));
        cell.tabIndex = x === this.x && y === this.y ? 0 : -1;
      }
    }
  }

  /**
   * piece names the piece on a square, "South's horse", '' if none.
   * @param {number} sq
   */
  piece(sq) {
    const b = this.board;
    const p = b.state ? b.state.pos.board[sq] : null;
    if (!p) return '';
    return `${b.seatNames[p.seat] || p.seat}'s ${b.names[p.letter] || p.letter}`;
  }

  /** @returns {boolean} whether the viewer may act on the board now */
  canAct() {
    const b = this.board;
    return !!(b.state && b.state.canAct && !b.waiting);
  }

  /**
   * describe says what a square holds and what may be done with it.
   * @param {number} sq
   */
  describe(sq) {
    const b = this.board;
    const parts = [`${squareName(sq)}: ${this.piece(sq) || 'empty'}`];
    if (this.canAct()) {
      if (sq === b.selected) parts.push('picked');
      else if (b.selected >= 0 && b.targets(b.selected).has(sq)) parts.push(this.piece(sq) ? 'target, a capture' : 'target');
      else if (b.sources().has(sq)) parts.push('can move');
      if (b.drops().has(sq)) parts.push(`a ${this.dropNames(sq)} may be placed here`);
    }
    return parts.join(', ');
  }

  /**
   * dropNames names the pieces that may be dropped on a square.
   * @param {number} sq
   */
  dropNames(sq) {
    const list = this.board.drops().get(sq) || [];
    return [...new Set(list.map((a) => this.board.names[a[0]] || a[0]))].join(' or ');
  }

  /**
   * targetsText lists a piece's targets, with what each takes.
   * @param {number} from
   */
  targetsText(from) {
    const b = this.board;
    return [...b.targets(from)].map(([to, list]) => {
      const taken = this.piece(to);
      const promo = list.some((a) => a.includes('=')) ? ' (promotes)' : '';
      return `${squareName(to)}${taken ? `, taking ${taken}` : ''}${promo}`;
    }).join('; ');
  }

  /**
   * pick selects the piece on a square and says where it may go.
   * @param {number} sq
   */
  pick(sq) {
    this.board.selected = sq;
    this.board.draw();
    this.say(`Picked ${this.piece(sq)} on ${squareName(sq)}. Targets: ${this.targetsText(sq)}.`);
  }

  /** movable lists the squares of the pieces that can move. */
  movable() {
    return [...this.board.sources()].map(squareName).sort().join(', ');
  }

  /** activate is Enter or Space on the focused square. */
  activate() {
    const b = this.board;
    const sq = this.square();
    if (!this.canAct()) {
      this.say(`${this.describe(sq)}. Nothing to play now: it is not your turn.`);
      return;
    }
    if (b.selected >= 0) {
      const from = b.selected;
      if (sq === from) {
        b.selected = -1;
        b.draw();
        this.say(`Put back ${this.piece(sq)} on ${squareName(sq)}.`);
        return;
      }
      if (b.targets(from).has(sq)) {
        this.say(`Playing ${this.piece(from)} from ${squareName(from)} to ${squareName(sq)}.`);
        b.tryMove(from, sq);
        return;
      }
      if (b.sources().has(sq)) {
        this.pick(sq);
        return;
      }
      this.say(`${squareName(sq)} is not a target of ${this.piece(from)}. Its targets: ${this.targetsText(from)}.`);
      return;
    }
    const drop = b.drops().get(sq);
    if (drop) {
      this.say(`Placing a ${this.dropNames(sq)} on ${squareName(sq)}.`);
      b.play(drop);
      return;
    }
    if (b.sources().has(sq)) {
      this.pick(sq);
      return;
    }
    const p = b.state ? b.state.pos.board[sq] : null;
    if (p && b.state && p.seat === b.state.pos.seat) {
      this.say(b.whyNot(sq));
      return;
    }
    const movable = this.movable();
    this.say(`${this.describe(sq)}. ${movable ? `The pieces that can move are on ${movable}.` : 'No piece can move: see the buttons under the board.'}`);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    /** @type {Record<string, [number, number]>} */
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    let handled = true;
    if (e.key in steps) {
      const [dx, dy] = steps[e.key];
      this.x = Math.max(0, Math.min(7, this.x + dx));
      this.y = Math.max(0, Math.min(7, this.y + dy));
      this.update();
      this.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      this.x = e.key === 'Home' ? 0 : 7;
      this.update();
      this.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (!e.repeat) this.pressed = e.key;
    } else if (e.key === 'Escape' && this.board.selected >= 0) {
      const sq = this.board.selected;
      this.board.selected = -1;
      this.board.draw();
      this.say(`Put back ${this.piece(sq)} on ${squareName(sq)}.`);
    } else {
      handled = false;
    }
    if (handled) {
      // The keys belong to the board here: no scrolling, and no replay step.
      e.preventDefault();
      e.stopPropagation();
    }
  }
}

/**
 * describeAction says in words what a seat's action did, from the position
 * before it: "West moved the horse from b7 to c5, taking South's pawn".
 * @param {import('./api.js').Preset} preset
 * @param {Position} before
 * @param {string} seat the seat's name
 * @param {string} action
 */
export function describeAction(preset, before, seat, action) {
  const names = Object.fromEntries(preset.pieces.map((p) => [p.letter, p.name]));
  const seats = Object.fromEntries(preset.seats.map((s) => [s.letter, s.seat]));
  const a = parseAction(action);
  if (a.type === 'move') {
    const p = before.board[a.from];
    const taken = before.board[a.to];
    let text = `${seat} moved the ${p ? names[p.letter] || p.letter : 'piece'} from ${squareName(a.from)} to ${squareName(a.to)}`;
    if (taken) text += `, taking ${seats[taken.seat] || taken.seat}'s ${names[taken.letter] || taken.letter}`;
    if (a.promo) text += `, promoting it to ${names[a.promo] || a.promo}`;
    return `${text}.`;
  }
  if (a.type === 'drop') return `${seat} placed the ${names[a.letter] || a.letter} on ${squareName(a.to)}.`;
  if (action === 'pass') return `${seat} passed.`;
  return `${seat}: ${actionLabel(action)}.`;
}
