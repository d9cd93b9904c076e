// @ts-check
// A system notification when it becomes your turn while the game's tab is
// hidden (the Notifications API), for long games played in another tab.
// It is off until the player turns it on with its switch in the header:
// only then does the browser ask for the permission, and the choice is
// remembered in this browser. Each notification shown is also announced to
// the page as a `chaturaji:notify` event (its detail the text), which is
// how the browser tests see it.

import { h } from './dom.js';

/** The key of the setting in localStorage. */
const notifyKey = 'chaturaji.notify';

/** supported reports whether this browser has the Notifications API. */
function supported() {
  return typeof window.Notification === 'function';
}

export class Notifier {
  /**
   * @param {(text: string, kind?: 'info'|'error') => void} say shows why
   *   the switch could not be turned on
   */
  constructor(say) {
    this.say = say;
    this.on = supported() && Notification.permission === 'granted' && load();
    /** @type {HTMLButtonElement|null} */
    this.button = null;
  }

  /**
   * switchButton makes the switch: a toggle button, pressed while
   * notifications are on.
   * @returns {HTMLButtonElement}
   */
  switchButton() {
    const b = /** @type {HTMLButtonElement} */ (h('button', {
      type: 'button', id: 'notify', class: 'mute quiet', onclick: () => this.toggle(),
    }));
    this.button = b;
    this.draw();
    return b;
  }

  async toggle() {
    if (this.on) {
      this.set(false);
      return;
    }
    if (!supported()) {
      this.say('This browser cannot show notifications.', 'error');
      return;
    }
    let perm = Notification.permission;
    if (perm === 'default') perm = await Notification.requestPermission();
    if (perm !== 'granted') {
      this.say("Notifications are blocked for this site: allow them in the browser's settings for it, then turn them on here.", 'error');
      return;
    }
    this.set(true);
    this.say('You will be notified when it is your turn while this tab is in the background.');
  }

  /** @param {boolean} on */
  set(on) {
    this.on = on;
    try { localStorage.setItem(notifyKey, on ? '1' : '0'); } catch { /* private mode: for this page only */ }
    this.draw();
  }

  draw() {
    const b = this.button;
    if (!b) return;
    b.setAttribute('aria-pressed', String(this.on));
    b.title = this.on ? 'Notifications of your turn are on: click to turn them off' : 'Notify me when it is my turn and this tab is in the background';
    b.replaceChildren(bell(), h('span', { class: 'mute-word' }, 'Notify'));
  }

  /**
   * turn notifies the player that it is their turn, if the switch is on
   * and the tab is hidden (in sight, the page says it itself).
   * @param {string} text
   * @param {string} tag one per game: a newer notification replaces it
   */
  turn(text, tag) {
    if (!this.on || !document.hidden || !supported() || Notification.permission !== 'granted') return;
    document.dispatchEvent(new CustomEvent('chaturaji:notify', { detail: text }));
    try {
      const n = new Notification('Chaturaji: your turn', { body: text, tag });
      n.onclick = () => { window.focus(); n.close(); };
    } catch {
      // A browser that shows notifications only from a service worker.
    }
  }
}

/** load reads the remembered setting. */
function load() {
  try { return localStorage.getItem(notifyKey) === '1'; } catch { return false; }
}

/** bell draws a bell. */
function bell() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0');
  p.setAttribute('fill', 'none');
  p.setAttribute('stroke', 'currentColor');
  p.setAttribute('stroke-width', '2');
  p.setAttribute('stroke-linejoin', 'round');
  svg.append(p);
  return svg;
}
