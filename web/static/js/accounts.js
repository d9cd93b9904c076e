// @ts-check
// The accounts' endpoints of the game server's API (docs/api.md,
// "Accounts"): sign up, sign in (by password or passkey), the signed-in
// account and what its holder may do with it. The session itself is a
// cookie no script reads (HttpOnly); pages learn who is signed in from
// GET /api/account.

import { request, ApiError } from './api.js';
import { createCredential, getCredential } from './passkey.js';

/**
 * @typedef {{id: string, name: string, created: string, last_used?: string, synced?: boolean}} PasskeyInfo
 * @typedef {{name: string, created?: string, has_password?: boolean, passkeys?: PasskeyInfo[],
 *   sessions?: number, recovery_codes_left?: number, recovery_codes?: string[]}} Me
 *   the signed-in account, as GET /api/account answers (recovery_codes:
 *   after a sign-up or new codes only, shown that once)
 */

/** @type {Promise<Me|null>|null} */
let mine = null;

/**
 * me returns the signed-in account, or null for a guest; the answer is
 * asked once per page.
 * @param {boolean} [fresh] ask again
 * @returns {Promise<Me|null>}
 */
export function me(fresh = false) {
  if (!mine || fresh) {
    mine = request('GET', '/api/account').catch((e) => {
      if (e instanceof ApiError && (e.status === 401 || e.status === 404)) return null;
      throw e;
    });
  }
  return mine;
}

/**
 * signUp makes an account and signs it in; password may be "" (the
 * account then signs in with a passkey, registered next). It returns
 * the recovery codes, to be shown once.
 * @param {string} name
 * @param {string} password
 * @returns {Promise<Me>}
 */
export async function signUp(name, password) {
  /** @type {Record<string,string>} */
  const body = { username: name };
  if (password) body.password = password;
  const r = await request('POST', '/api/account', body);
  mine = null;
  return r;
}

/**
 * signIn signs in by username and password.
 * @param {string} name
 * @param {string} password
 */
export async function signIn(name, password) {
  const r = await request('POST', '/api/account/signin', { username: name, password });
  mine = null;
  return r;
}

/**
 * recover signs in with a recovery code and sets a new password.
 * @param {string} name
 * @param {string} code
 * @param {string} password
 */
export async function recover(name, code, password) {
  const r = await request('POST', '/api/account/recover', { username: name, code, password });
  mine = null;
  return r;
}

/**
 * addPasskey registers a new passkey of this device to the signed-in
 * account: the server's options, the browser's ceremony, the server's
 * check.
 * @param {string} label what the passkey is called in the account's list
 */
export async function addPasskey(label) {
  const begin = await request('POST', '/api/account/passkeys/register', {});
  const credential = await createCredential(begin.options);
  return request('POST', '/api/account/passkeys/register/finish', { ceremony: begin.ceremony, credential, name: label });
}

/**
 * signInWithPasskey signs in with a passkey the browser offers
 * (discoverable: no username is asked).
 */
export async function signInWithPasskey() {
  const begin = await request('POST', '/api/account/passkeys/signin', {});
  const credential = await getCredential(begin.options);
  const r = await request('POST', '/api/account/passkeys/signin/finish', { ceremony: begin.ceremony, credential });
  mine = null;
  return r;
}

/**
 * removePasskey removes one of the account's passkeys.
 * @param {string} id
 */
export function removePasskey(id) {
  return request('POST', '/api/account/passkeys/remove', { id });
}

/**
 * changePassword sets a new password, given the current one ("" if
 * none); the account's other sessions end.
 * @param {string} current
 * @param {string} password
 */
export function changePassword(current, password) {
  /** @type {Record<string,string>} */
  const body = { password };
  if (current) body.current = current;
  return request('POST', '/api/account/password', body);
}

/**
 * newRecoveryCodes replaces the account's recovery codes.
 * @returns {Promise<{recovery_codes: string[]}>}
 */
export function newRecoveryCodes() {
  return request('POST', '/api/account/recovery-codes', {});
}

/** signOut ends this browser's session. */
export async function signOut() {
  await request('POST', '/api/account/signout', {});
  mine = null;
}

/** signOutEverywhere ends every session of the account, this one too. */
export async function signOutEverywhere() {
  await request('POST', '/api/account/signout-everywhere', {});
  mine = null;
}

/**
 * deleteAccount deletes the signed-in account; its games stay, under a
 * neutral name.
 * @param {string} name the account's name, typed again to confirm
 */
export async function deleteAccount(name) {
  await request('POST', '/api/account/delete', { confirm: name });
  mine = null;
}

/** The address of the account's data, as a JSON file to download. */
export const exportURL = '/api/account/export';
