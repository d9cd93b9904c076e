// @ts-check
// The quick pairing's choices this browser made last (rules, time,
// rated or casual, bots after a wait), remembered so that Play on the home
// page seeks the same pool again.

/** The key of the remembered choices in localStorage. */
const choiceKey = 'chaturaji.lobby';

/**
 * @typedef {{rules: string, turn: string, rated: string, bots: string}} Choice
 *   rules: a preset; turn: a pool's time ("15s", "1d"); rated: "rated"
 *   or "casual"; bots: the seconds before bots fill the empty seats, "0"
 *   to wait for people only
 */

/** The choices of a browser that made none: a casual game of chaturaji at 15 s a move, bots after 20 s. */
export const defaultChoice = Object.freeze({ rules: 'chaturaji', turn: '15s', rated: 'casual', bots: '20' });

/** @returns {Choice} the choices this browser made last, or the defaults */
export function rememberedChoice() {
  try {
    const v = JSON.parse(localStorage.getItem(choiceKey) || '{}');
    return { ...defaultChoice, ...(v && typeof v === 'object' ? v : {}) };
  } catch {
    return { ...defaultChoice };
  }
}

/**
 * remember keeps the choices for next time.
 * @param {Choice} c
 */
export function remember(c) {
  try { localStorage.setItem(choiceKey, JSON.stringify(c)); } catch { /* private mode: this page only */ }
}
