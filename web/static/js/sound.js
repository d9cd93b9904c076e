// @ts-check
// The game's sounds, made with the Web Audio API (no sound files): a move,
// a capture, a king taken, your turn, the end of the game; and the mute
// switch, remembered in this browser. Each sound played is also announced
// to the page as a `chaturaji:sound` event (its detail the sound's name),
// which is how the browser tests hear it.

import { h } from './dom.js';

/** The key of the mute setting in localStorage. */
const mutedKey = 'chaturaji.muted';

/**
 * The notes of each sound: [frequency in Hz, start in s, length in s,
 * waveform, loudness 0..1].
 * @type {Record<string, [number, number, number, OscillatorType, number][]>}
 */
const notes = {
  move: [[520, 0, 0.07, 'triangle', 0.35]],
  capture: [[330, 0, 0.08, 'square', 0.18], [247, 0.07, 0.12, 'square', 0.16]],
  king: [[392, 0, 0.12, 'sawtooth', 0.16], [311, 0.11, 0.12, 'sawtooth', 0.15], [196, 0.22, 0.3, 'sawtooth', 0.14]],
  turn: [[660, 0, 0.09, 'sine', 0.35], [880, 0.1, 0.14, 'sine', 0.32]],
  end: [[523, 0, 0.14, 'triangle', 0.3], [659, 0.14, 0.14, 'triangle', 0.3], [784, 0.28, 0.32, 'triangle', 0.3]],
};

/** The names of the sounds. */
export const soundNames = Object.keys(notes);

export class Sounds {
  constructor() {
    /** @type {AudioContext|null} made at the first sound */
    this.ctx = null;
    this.muted = load();
    /** @type {HTMLButtonElement|null} */
    this.button = null;
  }

  /**
   * play plays a sound by name, unless muted.
   * @param {string} name
   */
  play(name) {
    const list = notes[name];
    if (!list || this.muted) return;
    document.dispatchEvent(new CustomEvent('chaturaji:sound', { detail: name }));
    try {
      // Before the person has clicked or pressed a key the browser allows
      // no sound, and warns of every AudioContext made: a spectator who
      // has not touched the page hears nothing, and warns of nothing.
      if (!this.ctx && navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
      if (!this.ctx) this.ctx = new AudioContext();
      const ctx = this.ctx;
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      const t0 = ctx.currentTime + 0.01;
      for (const [freq, start, len, type, gain] of list) {
        const osc = ctx.createOscillator();
        const amp = ctx.createGain();
        osc.type = type;
        osc.frequency.value = freq;
        // A quick attack and an exponential fall: no click at either end.
        amp.gain.setValueAtTime(0.0001, t0 + start);
        amp.gain.exponentialRampToValueAtTime(gain * 0.5, t0 + start + 0.01);
        amp.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
        osc.connect(amp).connect(ctx.destination);
        osc.start(t0 + start);
        osc.stop(t0 + start + len + 0.02);
      }
    } catch {
      // No audio here (no device, or none allowed): the game goes on silent.
    }
  }

  /**
   * setMuted mutes or unmutes, and remembers it.
   * @param {boolean} muted
   */
  setMuted(muted) {
    this.muted = muted;
    try { localStorage.setItem(mutedKey, muted ? '1' : '0'); } catch { /* private mode: for this page only */ }
    this.drawButton();
  }

  /**
   * switchButton makes the mute switch: a toggle button, pressed while the
   * sounds are off.
   * @returns {HTMLButtonElement}
   */
  switchButton() {
    const b = /** @type {HTMLButtonElement} */ (h('button', {
      type: 'button', id: 'mute', class: 'mute quiet',
      onclick: () => { this.setMuted(!this.muted); if (!this.muted) this.play('move'); },
    }));
    this.button = b;
    this.drawButton();
    return b;
  }

  drawButton() {
    const b = this.button;
    if (!b) return;
    // A toggle: its name stays "Mute", aria-pressed says whether it is on.
    b.setAttribute('aria-pressed', String(this.muted));
    b.title = this.muted ? 'Sounds are off: click to turn them on' : 'Sounds are on: click to mute them';
    b.replaceChildren(speaker(this.muted), h('span', { class: 'mute-word' }, 'Mute'));
  }
}

/** load reads the remembered mute setting. */
function load() {
  try { return localStorage.getItem(mutedKey) === '1'; } catch { return false; }
}

/**
 * speaker draws a loudspeaker, with waves or crossed out.
 * @param {boolean} muted
 */
function speaker(muted) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  const path = (/** @type {string} */ d, fill = 'none') => {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', fill);
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    p.setAttribute('stroke-linejoin', 'round');
    svg.append(p);
  };
  path('M4 9h4l5-4v14l-5-4H4z', 'currentColor');
  if (muted) path('M16 9l5 6M21 9l-5 6');
  else path('M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12');
  return svg;
}
