// @ts-check
// The board: an SVG drawing of a position, turned so that a chosen seat's
// army is at the bottom, with the thrones, the last move of every living
// army (a frozen or finished one's is left out), the pieces the roll
// allows, the legal destinations of the selected piece and a hint arrow;
// moves are made by click-click or by drag-and-drop, drops (`K@e4`) by a
// click on one of the squares marked for them.

import { s, h } from './dom.js';
import { armies, pieceGroup } from './pieces.js';
import { squareName, parseAction, seatStatus, stillWord } from './position.js';

/**
 * @typedef {import('./api.js').Preset} Preset
 * @typedef {import('./position.js').Position} Position
 * @typedef {{from: number, to: number}} Move
 * @typedef {{pos: Position, actions?: string[], canAct?: boolean,
 *   lastMoves?: Record<string, Move>, latest?: string, hint?: Move|null,
 *   animate?: Move|null}} BoardState
 *   actions: the legal actions of the seat to act; canAct: the viewer may
 *   play them; lastMoves: each seat's last move, by colour letter; latest:
 *   the colour letter of the last mover; animate: a move to slide in.
 */

const CELL = 100;

/**
 * screenXY returns where a square is drawn, in cells from the top left,
 * when seat `bottom` (a colour letter) sits at the bottom.
 * @param {number} sq
 * @param {string} bottom
 * @returns {[number, number]}
 */
export function screenXY(sq, bottom) {
  const f = sq % 8, r = Math.floor(sq / 8);
  switch (bottom) {
    case 'y': return [7 - r, 7 - f];
    case 'g': return [7 - f, r];
    case 'r': return [r, f];
    default: return [f, 7 - r];
  }
}

/**
 * squareAt is the inverse of screenXY.
 * @param {number} x
 * @param {number} y
 * @param {string} bottom
 */
export function squareAt(x, y, bottom) {
  if (x < 0 || x > 7 || y < 0 || y > 7) return -1;
  switch (bottom) {
    case 'y': return (7 - x) * 8 + (7 - y);
    case 'g': return y * 8 + (7 - x);
    case 'r': return x * 8 + y;
    default: return (7 - y) * 8 + x;
  }
}

export class Board {
  /**
   * @param {HTMLElement} host the element the board fills
   * @param {Preset} preset
   */
  constructor(host, preset) {
    this.host = host;
    this.preset = preset;
    /** colour letter of the seat at the bottom */
    this.bottom = 'b';
    /** @type {BoardState|null} */
    this.state = null;
    /** @type {number} the selected square, -1 if none */
    this.selected = -1;
    /** @type {(action: string) => void} called with the action the player chose */
    this.onAction = () => {};
    /** @type {(message: string) => void} called when a move is refused */
    this.onRefuse = () => {};
    /** @type {(letter: string) => void} a piece was clicked while the viewer may not act: its army's letter */
    this.onWait = () => {};
    /** @type {{from: number, id: number, x0: number, y0: number, moved: boolean, toggle: boolean, el: SVGElement|null}|null} */
    this.drag = null;
    this.pendingRender = false;
    /** an action was chosen: until the next position the board offers nothing */
    this.waiting = false;
    /** called after each drawing (the keyboard's grid names the squares again) */
    this.afterDraw = () => {};
    /** called to give the focus back to the board when the chooser closes */
    this.focusBack = () => {};

    /** @type {Record<string, string>} role by letter */
    this.roles = {};
    /** @type {Record<string, string>} name by letter */
    this.names = {};
    for (const p of preset.pieces) {
      this.roles[p.letter] = p.role;
      this.names[p.letter] = p.name;
    }
    /** @type {Record<string, string>} seat name by colour letter */
    this.seatNames = {};
    for (const st of preset.seats) this.seatNames[st.letter] = st.seat;

    this.svg = /** @type {SVGSVGElement} */ (s('svg', {
      viewBox: `0 0 ${8 * CELL} ${8 * CELL}`, class: 'board', role: 'img',
      'aria-label': 'Chaturaji board',
    }));
    this.layers = {
      squares: s('g', { class: 'squares' }),
      marks: s('g', { class: 'marks' }),
      pieces: s('g', { class: 'pieces' }),
      dots: s('g', { class: 'dots' }),
      arrows: s('g', { class: 'arrows' }),
      drag: s('g', { class: 'drag-layer' }),
    };
    this.svg.append(this.arrowDefs(), ...Object.values(this.layers));
    this.chooser = h('div', { class: 'chooser', hidden: true, role: 'dialog', 'aria-label': 'Choose a piece' });
    host.replaceChildren(this.svg, this.chooser);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('lostpointercapture', () => { if (this.drag) this.cancelDrag(); });
  }

  /** arrowDefs makes the arrowheads, one per army colour and one for hints. */
  arrowDefs() {
    const defs = s('defs');
    const colours = { ...Object.fromEntries(Object.entries(armies).map(([k, a]) => [k, a.fill])), hint: '#0b6bcb' };
    for (const [k, c] of Object.entries(colours)) {
      defs.append(s('marker', {
        id: `head-${k}`, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse',
      }, s('path', { d: 'M0 0 L10 5 L0 10 Z', fill: c })));
    }
    return defs;
  }

  /**
   * setBottom turns the board so that the seat with colour letter `letter`
   * is at the bottom.
   * @param {string} letter
   */
  setBottom(letter) {
    if (letter === this.bottom) return;
    this.bottom = letter;
    this.svg.dataset.bottom = letter;
    if (this.state) this.render(this.state);
  }

  /**
   * render draws a position. While a piece is being dragged the drawing
   * waits for the drop.
   * @param {BoardState} st
   */
  render(st) {
    const changed = !this.state || this.state.pos !== st.pos;
    this.state = st;
    if (changed || !st.canAct) this.waiting = false;
    if (changed && this.selected >= 0 && !this.sources().has(this.selected)) this.selected = -1;
    if (this.drag && this.drag.moved) {
      this.pendingRender = true;
      return;
    }
    this.draw();
  }

  /**
   * grouped returns the legal actions of one type, by a square of theirs.
   * @param {string[]} actions
   * @param {string} type 'move' or 'drop'
   * @param {'from' | 'to'} key the square to group by
   * @returns {Map<number, string[]>}
   */
  static grouped(actions, type, key) {
    /** @type {Map<number, string[]>} */
    const m = new Map();
    for (const text of actions) {
      const a = parseAction(text);
      if (a.type !== type) continue;
      const sq = /** @type {number} */ (a[key]);
      const list = m.get(sq) || [];
      list.push(text);
      m.set(sq, list);
    }
    return m;
  }

  /** @returns {Map<number, string[]>} the legal moves by from-square */
  movesBySource() {
    const st = this.state;
    return Board.grouped((st && st.actions) || [], 'move', 'from');
  }

  sources() {
    return new Set(this.movesBySource().keys());
  }

  /** @returns {Map<number, string[]>} the legal drops by square */
  drops() {
    const st = this.state;
    return Board.grouped((st && st.actions) || [], 'drop', 'to');
  }

  /**
   * targets returns the legal actions from a square, by destination.
   * @param {number} from
   * @returns {Map<number, string[]>}
   */
  targets(from) {
    return Board.grouped(this.movesBySource().get(from) || [], 'move', 'to');
  }

  draw() {
    const st = this.state;
    if (!st) return;
    const { squares, marks, pieces, dots, arrows } = this.layers;
    const pos = st.pos;
    const canAct = !!st.canAct && !this.waiting;
    const sources = canAct ? this.sources() : new Set();
    const drops = canAct ? this.drops() : new Map();
    const status = seatStatus(this.preset, pos);
    const frozen = status.frozen;
    // Only the living armies' last moves: a frozen or finished army's last
    // move is long past, and its arrow would stay on the board for good.
    const lastMoves = Object.fromEntries(Object.entries(st.lastMoves || {}).filter(([seat]) => !frozen.has(seat) && !status.out.has(seat)));
    this.svg.classList.toggle('can-act', canAct);

    // Squares, with coordinates along the bottom row and the left column.
    const sq = [];
    for (let i = 0; i < 64; i++) {
      const [x, y] = screenXY(i, this.bottom);
      const dark = (i % 8 + Math.floor(i / 8)) % 2 === 0;
      sq.push(s('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: dark ? 'sq dark' : 'sq light', 'data-square': squareName(i) }));
      const sideways = this.bottom === 'y' || this.bottom === 'r';
      if (y === 7) {
        sq.push(s('text', { x: x * CELL + 94, y: y * CELL + 93, class: `coord ${dark ? 'on-dark' : 'on-light'}`, 'text-anchor': 'end' },
          sideways ? squareName(i)[1] : squareName(i)[0]));
      }
      if (x === 0) {
        sq.push(s('text', { x: x * CELL + 6, y: y * CELL + 22, class: `coord ${dark ? 'on-dark' : 'on-light'}` },
          sideways ? squareName(i)[0] : squareName(i)[1]));
      }
    }
    squares.replaceChildren(...sq);

    // Thrones, last moves, the pieces the roll allows, the selection.
    const mk = [];
    for (const seat of this.preset.seats) {
      if (!seat.throne) continue;
      const t = squareIndex(seat.throne);
      const [x, y] = screenXY(t, this.bottom);
      const a = armies[seat.letter];
      mk.push(s('g', { class: 'throne', 'data-throne': seat.seat },
        s('title', {}, `${seat.seat}'s throne`),
        s('rect', { x: x * CELL + 5, y: y * CELL + 5, width: CELL - 10, height: CELL - 10, rx: 8, fill: 'none', stroke: a.fill, 'stroke-width': 5, 'stroke-dasharray': '14 8' }),
        s('path', { d: `M${x * CELL + 8} ${y * CELL + 24} l4 -14 l6 7 l5 -10 l5 10 l6 -7 l4 14 Z`, fill: a.fill, stroke: a.stroke, 'stroke-width': 1.5 }),
      ));
    }
    for (const [seat, m] of Object.entries(lastMoves)) {
      const a = armies[seat];
      if (!a) continue;
      const strong = seat === st.latest;
      for (const [i, end] of [[m.from, 'from'], [m.to, 'to']]) {
        const [x, y] = screenXY(i, this.bottom);
        mk.push(s('rect', {
          x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4,
          fill: a.fill, 'fill-opacity': strong ? 0.34 : 0.2, stroke: end === 'to' ? a.fill : 'none', 'stroke-width': 4,
          class: `last-move ${end}`, 'data-seat': seat, 'data-square': squareName(i),
        }));
      }
    }
    for (const i of sources) {
      const [x, y] = screenXY(i, this.bottom);
      mk.push(s('rect', { x: x * CELL + 3, y: y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 10, class: 'movable', 'data-square': squareName(i) }));
    }
    if (this.selected >= 0) {
      const [x, y] = screenXY(this.selected, this.bottom);
      mk.push(s('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: 'selected' }));
    }
    marks.replaceChildren(...mk);

    // Pieces.
    const pc = [];
    for (let i = 0; i < 64; i++) {
      const p = pos.board[i];
      if (!p) continue;
      const [x, y] = screenXY(i, this.bottom);
      const seatName = this.seatNames[p.seat] || p.seat;
      const name = this.names[p.letter] || p.letter;
      const g = s('g', {
        class: ['piece', frozen.has(p.seat) && 'frozen', sources.has(i) && 'movable-piece'],
        'data-square': squareName(i), 'data-piece': p.seat + p.letter,
      }, pieceGroup(p.seat, p.letter, this.roles[p.letter] || 'pawn',
        `${seatName}'s ${name} on ${squareName(i)}${frozen.has(p.seat) ? ` (${stillWord(this.preset)})` : ''}`, this.names[p.letter]));
      g.style.transform = `translate(${x * CELL}px, ${y * CELL}px)`;
      if (st.animate && st.animate.to === i) {
        const [fx, fy] = screenXY(st.animate.from, this.bottom);
        g.style.transform = `translate(${fx * CELL}px, ${fy * CELL}px)`;
        g.classList.add('sliding');
        requestAnimationFrame(() => requestAnimationFrame(() => {
          g.style.transform = `translate(${x * CELL}px, ${y * CELL}px)`;
        }));
      }
      pc.push(g);
    }
    pieces.replaceChildren(...pc);
    st.animate = null;

    // Destinations of the selected piece.
    const dt = [];
    if (this.selected >= 0) {
      for (const to of this.targets(this.selected).keys()) {
        const [x, y] = screenXY(to, this.bottom);
        const capture = pos.board[to] !== null;
        dt.push(capture
          ? s('circle', { cx: x * CELL + 50, cy: y * CELL + 50, r: 44, class: 'dest capture', 'data-square': squareName(to) })
          : s('circle', { cx: x * CELL + 50, cy: y * CELL + 50, r: 14, class: 'dest', 'data-square': squareName(to) }));
      }
    }
    for (const [to, list] of drops) {
      const [x, y] = screenXY(to, this.bottom);
      const letter = parseAction(list[0]).type === 'drop' ? list[0][0] : '';
      dt.push(s('g', { class: 'drop-target', 'data-square': squareName(to) },
        s('circle', { cx: x * CELL + 50, cy: y * CELL + 50, r: 30 }),
        s('text', { x: x * CELL + 50, y: y * CELL + 59, 'text-anchor': 'middle' }, letter)));
    }
    dots.replaceChildren(...dt);

    // Arrows: every seat's last move, and the hint.
    const ar = [];
    for (const [seat, m] of Object.entries(lastMoves)) {
      if (!armies[seat]) continue;
      ar.push(this.arrow(m, armies[seat].fill, `head-${seat}`, seat === st.latest ? 0.75 : 0.45, 'last-arrow'));
    }
    if (st.hint) ar.push(this.arrow(st.hint, '#0b6bcb', 'head-hint', 0.9, 'hint-arrow'));
    arrows.replaceChildren(...ar);
    this.afterDraw();
  }

  /**
   * @param {Move} m
   * @param {string} colour
   * @param {string} head
   * @param {number} opacity
   * @param {string} cls
   */
  arrow(m, colour, head, opacity, cls) {
    const [x1, y1] = screenXY(m.from, this.bottom);
    const [x2, y2] = screenXY(m.to, this.bottom);
    const cx1 = x1 * CELL + 50, cy1 = y1 * CELL + 50, cx2 = x2 * CELL + 50, cy2 = y2 * CELL + 50;
    const len = Math.hypot(cx2 - cx1, cy2 - cy1) || 1;
    const back = 30;
    return s('line', {
      x1: cx1, y1: cy1, x2: cx2 - (cx2 - cx1) * back / len, y2: cy2 - (cy2 - cy1) * back / len,
      stroke: colour, 'stroke-width': cls === 'hint-arrow' ? 14 : 9, 'stroke-linecap': 'round',
      'stroke-opacity': opacity, 'marker-end': `url(#${head})`, class: cls,
    });
  }

  /**
   * cellOf returns the square under a pointer event, -1 if none.
   * @param {PointerEvent} e
   */
  cellOf(e) {
    const [x, y] = this.svgPoint(e);
    return squareAt(Math.floor(x / CELL), Math.floor(y / CELL), this.bottom);
  }

  /**
   * @param {PointerEvent} e
   * @returns {[number, number]}
   */
  svgPoint(e) {
    const r = this.svg.getBoundingClientRect();
    return [(e.clientX - r.left) * 8 * CELL / r.width, (e.clientY - r.top) * 8 * CELL / r.height];
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.button !== 0 || !this.state) return;
    this.hideChooser();
    const sq = this.cellOf(e);
    if (sq < 0) return;
    if (this.state.canAct && this.sources().has(sq)) {
      e.preventDefault();
      this.svg.setPointerCapture(e.pointerId);
      this.drag = { from: sq, id: e.pointerId, x0: e.clientX, y0: e.clientY, moved: false, toggle: false, el: null };
      if (this.selected !== sq) {
        this.selected = sq;
        this.draw();
        this.drag.toggle = false;
      } else {
        this.drag.toggle = true;
      }
      return;
    }
    this.click(sq);
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moved && Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < 6) return;
    if (!d.moved) {
      d.moved = true;
      const src = this.layers.pieces.querySelector(`[data-square="${squareName(d.from)}"]`);
      if (src) {
        src.classList.add('lifted');
        const ghost = /** @type {SVGElement} */ (src.cloneNode(true));
        ghost.classList.remove('lifted', 'sliding');
        ghost.classList.add('ghost');
        this.layers.drag.replaceChildren(ghost);
        d.el = ghost;
      }
    }
    const [x, y] = this.svgPoint(e);
    if (d.el) d.el.style.transform = `translate(${x - 50}px, ${y - 58}px) scale(1.08)`;
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    this.layers.drag.replaceChildren();
    const sq = this.cellOf(e);
    if (!d.moved) {
      if (d.toggle) this.selected = -1;
      this.draw();
      return;
    }
    if (this.pendingRender) this.pendingRender = false;
    if (sq === d.from || sq < 0) {
      this.draw();
      return;
    }
    this.tryMove(d.from, sq);
  }

  cancelDrag() {
    this.drag = null;
    this.layers.drag.replaceChildren();
    this.draw();
  }

  /**
   * click handles a click on a square that is not a movable piece.
   * @param {number} sq
   */
  click(sq) {
    const st = this.state;
    if (!st) return;
    const drop = st.canAct ? this.drops().get(sq) : undefined;
    if (drop && !(this.selected >= 0 && this.targets(this.selected).has(sq))) {
      this.selected = -1;
      this.play(drop);
      return;
    }
    if (this.selected >= 0) {
      if (this.targets(this.selected).has(sq)) {
        this.tryMove(this.selected, sq);
        return;
      }
      const p = st.pos.board[sq];
      this.selected = -1;
      this.draw();
      if (st.canAct && p && p.seat === st.pos.seat) this.onRefuse(this.whyNot(sq));
      return;
    }
    const p = st.pos.board[sq];
    if (st.canAct && p && p.seat === st.pos.seat) this.onRefuse(this.whyNot(sq));
    else if (!st.canAct && p) this.onWait(p.seat);
  }

  /**
   * whyNot explains why the piece on a square cannot move now.
   * @param {number} sq
   */
  whyNot(sq) {
    const st = this.state;
    const p = st && st.pos.board[sq];
    if (!st || !p) return 'There is no piece there.';
    const name = this.names[p.letter] || p.letter;
    const allowed = [...this.sources()].map((i) => st.pos.board[i]).filter(Boolean)
      .map((q) => this.names[/** @type {any} */ (q).letter]);
    const kinds = [...new Set(allowed)];
    if (kinds.length === 0) return `Your ${name} cannot move now: no piece can move with this roll.`;
    return `Your ${name} on ${squareName(sq)} cannot move with this roll: move your ${kinds.join(' or ')}.`;
  }

  /**
   * tryMove plays the move from one square to another if it is legal (asking
   * which piece to promote to when the player chooses), and refuses it with
   * a message otherwise; a refused move leaves the board as it was.
   * @param {number} from
   * @param {number} to
   */
  async tryMove(from, to) {
    const st = this.state;
    const options = this.targets(from).get(to) || [];
    this.selected = -1;
    if (!st) return;
    if (options.length === 0) {
      this.draw();
      const p = st.pos.board[from];
      const name = p ? (this.names[p.letter] || p.letter) : 'piece';
      this.onRefuse(`Illegal move: the ${name} on ${squareName(from)} cannot go to ${squareName(to)}.`);
      return;
    }
    this.play(options);
  }

  /**
   * play plays one of the actions that reach a square, asking which if
   * there are several (promotions, drops of different pieces).
   * @param {string[]} options
   */
  async play(options) {
    let action = options[0];
    if (options.length > 1) {
      this.draw();
      const chosen = await this.choose(options);
      if (!chosen) return;
      action = chosen;
    }
    // Offer nothing more until the game answers with its next position:
    // the old one must not light up as playable meanwhile.
    this.waiting = true;
    this.draw();
    this.onAction(action);
  }

  /**
   * choose asks which promotion to play.
   * @param {string[]} options
   * @returns {Promise<string|null>}
   */
  choose(options) {
    return new Promise((resolve) => {
      const done = (/** @type {string|null} */ v) => { this.hideChooser(); resolve(v); };
      const drop = parseAction(options[0]).type === 'drop';
      const buttons = options.map((o) => {
        const letter = drop ? o[0] : o.split('=')[1] || '';
        return h('button', { type: 'button', onclick: () => done(o) }, `${this.names[letter] || letter} (${letter})`);
      });
      this.chooser.replaceChildren(h('p', {}, drop ? 'Drop which piece?' : 'Promote to:'), ...buttons, h('button', { type: 'button', class: 'quiet', onclick: () => done(null) }, 'Cancel'));
      this.chooser.onkeydown = (e) => { if (e.key === 'Escape') { e.preventDefault(); done(null); } };
      this.chooser.hidden = false;
      /** @type {HTMLElement} */ (buttons[0]).focus();
    });
  }

  hideChooser() {
    const focused = this.chooser.contains(document.activeElement);
    this.chooser.hidden = true;
    if (focused) this.focusBack();
  }
}

/** @param {string} name */
function squareIndex(name) {
  return (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
}
