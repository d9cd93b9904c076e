// @ts-check
// The account page: the signed-in player's passkeys (add one of this
// device, remove one), password, recovery codes (new ones, shown once),
// sign out here or everywhere, download everything kept about them, and
// delete the account after a confirmation.

import * as accounts from './accounts.js';
import { byId, h, replace, toast, ago } from './dom.js';
import { confirmAction } from './confirm.js';
import { showMe } from './session.js';

/** @type {accounts.Me|null} */
let who = null;

/**
 * act runs an account action from a button, its error shown on the page.
 * @param {string} id the button
 * @param {() => Promise<void>} action
 */
async function act(id, action) {
  const btn = /** @type {HTMLButtonElement} */ (byId(id));
  const out = byId('account-error');
  out.textContent = '';
  btn.disabled = true;
  try {
    await action();
  } catch (e) {
    out.textContent = /** @type {Error} */ (e).message;
  } finally {
    btn.disabled = false;
  }
}

async function load() {
  try {
    who = await accounts.me(true);
  } catch (e) {
    byId('account-error').textContent = `The account cannot be read: ${/** @type {Error} */ (e).message}`;
    return;
  }
  if (!who) {
    location.replace('/signin?next=/account');
    return;
  }
  const me = who;
  byId('account-title').textContent = me.name;
  byId('account').hidden = false;
  /** @type {HTMLAnchorElement} */ (byId('profile-link')).href = `/players/${encodeURIComponent(me.name)}`;
  const keys = me.passkeys || [];
  replace(byId('passkeys'), ...(keys.length ? keys.map((k) => h('li', { 'data-passkey': k.id },
    h('span', {}, h('strong', {}, k.name || 'Passkey'), ' ', h('span', { class: 'small muted' }, `added ${ago(k.created)}${k.last_used ? `, used ${ago(k.last_used)}` : ''}`)),
    h('button', { type: 'button', class: 'danger small', 'aria-label': `Remove the passkey ${k.name || ''}`.trim(), onclick: () => removeKey(k) }, 'Remove')))
    : [h('li', { class: 'empty' }, 'No passkeys yet.')]));
  const hasPassword = me.has_password !== false;
  byId('current-label').hidden = !hasPassword;
  byId('current').hidden = !hasPassword;
  byId('change-password').textContent = hasPassword ? 'Change the password' : 'Set a password';
  byId('codes-left').textContent = typeof me.recovery_codes_left === 'number'
    ? `${me.recovery_codes_left} of your recovery codes are unused.` : '';
}

/** @param {accounts.PasskeyInfo} k */
async function removeKey(k) {
  const yes = await confirmAction({ id: 'confirm-passkey', title: 'Remove this passkey?', text: `${k.name || 'The passkey'} will no longer sign you in.`, yes: 'Remove it' });
  if (!yes) return;
  try {
    await accounts.removePasskey(k.id);
    toast('The passkey is removed.');
  } catch (e) {
    byId('account-error').textContent = /** @type {Error} */ (e).message;
  }
  load();
}

function main() {
  byId('add-passkey').addEventListener('click', () => act('add-passkey', async () => {
    await accounts.addPasskey('Passkey added from the account page');
    toast('The passkey is added.');
    await load();
  }));
  byId('password-form').addEventListener('submit', (e) => {
    e.preventDefault();
    act('change-password', async () => {
      const cur = /** @type {HTMLInputElement} */ (byId('current'));
      const pw = /** @type {HTMLInputElement} */ (byId('new-password'));
      await accounts.changePassword(cur.hidden ? '' : cur.value, pw.value);
      cur.value = '';
      pw.value = '';
      toast('The password is changed; your other sessions are signed out.');
      await load();
    });
  });
  byId('new-codes').addEventListener('click', () => act('new-codes', async () => {
    const yes = await confirmAction({ id: 'confirm-codes', title: 'Make new recovery codes?', text: 'Your old codes stop working; the new ones are shown once.', yes: 'Make new codes' });
    if (!yes) return;
    const r = await accounts.newRecoveryCodes();
    replace(byId('codes'), ...r.recovery_codes.map((c) => h('li', {}, h('code', {}, c))));
    byId('new-codes-box').hidden = false;
    await load();
  }));
  byId('signout').addEventListener('click', () => act('signout', async () => {
    await accounts.signOut();
    location.href = '/';
  }));
  byId('signout-everywhere').addEventListener('click', () => act('signout-everywhere', async () => {
    const yes = await confirmAction({ id: 'confirm-everywhere', title: 'Sign out everywhere?', text: 'Every device signed in to your account is signed out, this one too.', yes: 'Sign out everywhere' });
    if (!yes) return;
    await accounts.signOutEverywhere();
    location.href = '/signin';
  }));
  byId('delete').addEventListener('click', () => act('delete', async () => {
    if (!who) return;
    const yes = await confirmAction({
      id: 'confirm-delete', title: `Delete the account ${who.name}?`,
      text: 'Your name, passkeys, password and ratings are deleted for good; your games stay, under a neutral name.',
      yes: 'Delete my account',
    });
    if (!yes) return;
    await accounts.deleteAccount(who.name);
    await showMe();
    location.href = '/?deleted=1';
  }));
  load();
}

main();
