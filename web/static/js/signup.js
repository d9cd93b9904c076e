// @ts-check
// The sign-up page: a username, then a passkey of this device (or a
// password), then the recovery codes, shown once, that the player must
// say they saved before going on.

import * as accounts from './accounts.js';
import { byId, h, replace, copyText, toast } from './dom.js';
import { nextPath } from './people.js';
import { supported } from './passkey.js';
import { showMe } from './session.js';

/** @param {string} id */
function input(id) {
  return /** @type {HTMLInputElement} */ (byId(id));
}

function how() {
  return input('how-password').checked ? 'password' : 'passkey';
}

function showHow() {
  byId('password-row').hidden = how() !== 'password';
  input('password').required = how() === 'password';
}

async function submit() {
  const btn = /** @type {HTMLButtonElement} */ (byId('signup'));
  const out = byId('signup-error');
  out.textContent = '';
  btn.disabled = true;
  const name = input('name').value.trim();
  /** @type {import('./accounts.js').Me} */
  let made;
  try {
    made = await accounts.signUp(name, how() === 'password' ? input('password').value : '');
  } catch (e) {
    out.textContent = `No account made: ${/** @type {Error} */ (e).message}`;
    btn.disabled = false;
    return;
  }
  showMe();
  let warning = '';
  if (how() === 'passkey') {
    try {
      await accounts.addPasskey(deviceName());
    } catch (e) {
      warning = `Your account is made, but the passkey was not: ${/** @type {Error} */ (e).message}. Add one, or a password, on your account page; until then your recovery codes are the way back in.`;
    }
  }
  showCodes(made.recovery_codes || [], warning);
}

/** deviceName is what a new passkey is called in the account's list. */
function deviceName() {
  const ua = navigator.userAgent;
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac/.test(ua) ? 'Mac' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : 'this device';
  return `Passkey on ${os}`;
}

/**
 * showCodes replaces the form with the recovery codes and the step that
 * asks the player to save them.
 * @param {string[]} codes
 * @param {string} warning
 */
function showCodes(codes, warning) {
  byId('signup-form').hidden = true;
  const step = byId('codes-step');
  step.hidden = false;
  replace(byId('codes'), ...codes.map((c) => h('li', {}, h('code', {}, c))));
  if (warning) step.prepend(h('p', { class: 'error', role: 'alert' }, warning));
  const text = `Chaturaji recovery codes for ${input('name').value.trim()} (each works once):\n${codes.join('\n')}\n`;
  /** @type {HTMLAnchorElement} */ (byId('download-codes')).href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  byId('copy-codes').addEventListener('click', async () => {
    toast(await copyText(text) ? 'The codes are copied.' : 'The codes could not be copied: select them instead.');
  });
  const saved = input('saved');
  const go = /** @type {HTMLButtonElement} */ (byId('codes-done'));
  saved.addEventListener('change', () => { go.disabled = !saved.checked; });
  go.addEventListener('click', () => { location.href = nextPath('/play'); });
  byId('codes-title').focus();
}

function main() {
  byId('codes-title').tabIndex = -1;
  if (!supported()) {
    input('how-password').checked = true;
    input('how-passkey').disabled = true;
  }
  for (const id of ['how-passkey', 'how-password']) byId(id).addEventListener('change', showHow);
  showHow();
  byId('signup-form').addEventListener('submit', (e) => { e.preventDefault(); submit(); });
}

main();
