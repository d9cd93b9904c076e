// @ts-check
// Small helpers to build the page's elements without a framework.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * h makes an HTML element with attributes and children. Attributes whose
 * name starts with "on" are event listeners; `class` sets the class list;
 * other values are set as attributes (true as an empty attribute, false and
 * null leave it out).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * s makes an SVG element, like h.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Record<string, any>} attrs
 */
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'class') {
      el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : String(v));
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

/**
 * @param {Element} el
 * @param {Array<Node|string|number|null|undefined|false>} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
}

/**
 * clear removes every child of an element and appends the given ones.
 * @param {Element} el
 * @param {...(Node|string|null|undefined|false)} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * byId returns the element with the given id; the page must have it.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/**
 * toast shows a short message at the bottom of the page for a few seconds.
 * @param {string} text
 * @param {'info'|'error'} [kind]
 */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const t = h('div', { class: ['toast', kind] }, text);
  box.append(t);
  setTimeout(() => t.classList.add('gone'), 2600);
  setTimeout(() => t.remove(), 3200);
}

/**
 * copyText puts text on the clipboard, with a fallback for pages that are
 * not a secure context.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { readonly: true, class: 'offscreen' });
    /** @type {HTMLTextAreaElement} */ (ta).value = text;
    document.body.append(ta);
    /** @type {HTMLTextAreaElement} */ (ta).select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

/**
 * ago says how long ago a time was, in a few words.
 * @param {string} iso
 */
export function ago(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const sec = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (sec < 60) return 'just now';
  const min = Math.round(sec / 60);
  if (min < 60) return `${min} min ago`;
  const hr = Math.round(min / 60);
  if (hr < 48) return `${hr} h ago`;
  return `${Math.round(hr / 24)} days ago`;
}
