// @ts-check
// The sign-in page: by passkey (discoverable: the browser offers this
// site's passkeys, no name asked), by username and password, or by a
// recovery code that sets a new password.

import * as accounts from './accounts.js';
import { byId } from './dom.js';
import { nextPath } from './people.js';
import { supported } from './passkey.js';
import './session.js';

/**
 * busy runs an action with its button disabled, and shows its error.
 * @param {string} id the button
 * @param {() => Promise<void>} action
 */
async function busy(id, action) {
  const btn = /** @type {HTMLButtonElement} */ (byId(id));
  const out = byId('signin-error');
  btn.disabled = true;
  out.textContent = '';
  try {
    await action();
  } catch (e) {
    out.textContent = message(/** @type {Error} */ (e));
    btn.disabled = false;
  }
}

/**
 * message says why a sign-in failed.
 * @param {Error} e
 */
function message(e) {
  if (e.name === 'NotAllowedError') return 'The passkey was not used: the request was cancelled or timed out.';
  return `Not signed in: ${e.message}`;
}

function done() {
  location.href = nextPath('/play');
}

/** @param {string} id */
function value(id) {
  return /** @type {HTMLInputElement} */ (byId(id)).value;
}

function main() {
  if (!supported()) {
    /** @type {HTMLButtonElement} */ (byId('passkey-signin')).disabled = true;
    byId('signin-error').textContent = 'This browser cannot use passkeys here; sign in with your password.';
  }
  byId('passkey-signin').addEventListener('click', () => busy('passkey-signin', async () => {
    await accounts.signInWithPasskey();
    done();
  }));
  byId('password-form').addEventListener('submit', (e) => {
    e.preventDefault();
    busy('signin', async () => {
      await accounts.signIn(value('name').trim(), value('password'));
      done();
    });
  });
  byId('recover-form').addEventListener('submit', (e) => {
    e.preventDefault();
    busy('recover', async () => {
      await accounts.recover(value('recover-name').trim(), value('recover-code').trim(), value('recover-password'));
      location.href = '/account';
    });
  });
}

main();
