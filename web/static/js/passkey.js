// @ts-check
// Passkeys in the browser: the server's WebAuthn options (JSON, binary
// fields in base64url, as go-webauthn writes them) turned into what
// navigator.credentials takes, and the credential the browser makes turned
// back into JSON (PublicKeyCredential.toJSON's shape) for the server.

/**
 * @param {string} s base64url, padded or not
 * @returns {ArrayBuffer}
 */
export function fromBase64url(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const bin = atob(b64 + '='.repeat((4 - b64.length % 4) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

/**
 * @param {ArrayBuffer|ArrayBufferView} buf
 * @returns {string} base64url without padding
 */
export function toBase64url(buf) {
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** supported reports whether this browser can use passkeys at all. */
export function supported() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials && window.isSecureContext;
}

/**
 * publicKey takes the options' publicKey member, whether the server sent
 * {publicKey: {...}} (go-webauthn's CredentialCreation and
 * CredentialAssertion) or the member alone.
 * @param {any} options
 */
function publicKey(options) {
  return options && options.publicKey ? options.publicKey : options;
}

/** @param {any[]|undefined} list */
function descriptors(list) {
  return (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));
}

/**
 * createCredential runs navigator.credentials.create with the server's
 * options and returns the new credential as JSON.
 * @param {any} options
 * @returns {Promise<any>}
 */
export async function createCredential(options) {
  const pk = publicKey(options);
  const opts = {
    ...pk,
    challenge: fromBase64url(pk.challenge),
    user: { ...pk.user, id: fromBase64url(pk.user.id) },
    excludeCredentials: descriptors(pk.excludeCredentials),
  };
  const cred = /** @type {PublicKeyCredential|null} */ (await navigator.credentials.create({ publicKey: opts }));
  if (!cred) throw new Error('the browser made no passkey');
  return credentialJSON(cred);
}

/**
 * getCredential runs navigator.credentials.get with the server's options
 * (no credentials listed: the browser offers this site's passkeys) and
 * returns the assertion as JSON.
 * @param {any} options
 * @returns {Promise<any>}
 */
export async function getCredential(options) {
  const pk = publicKey(options);
  const opts = { ...pk, challenge: fromBase64url(pk.challenge), allowCredentials: descriptors(pk.allowCredentials) };
  const cred = /** @type {PublicKeyCredential|null} */ (await navigator.credentials.get({ publicKey: opts, mediation: options.mediation || undefined }));
  if (!cred) throw new Error('the browser gave no passkey');
  return credentialJSON(cred);
}

/**
 * credentialJSON is a credential as JSON: the browser's own toJSON where
 * it has one, else the same shape built by hand.
 * @param {PublicKeyCredential} cred
 */
function credentialJSON(cred) {
  const c = /** @type {any} */ (cred);
  if (typeof c.toJSON === 'function') return c.toJSON();
  const r = /** @type {any} */ (cred.response);
  /** @type {Record<string, any>} */
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    if (typeof r.getTransports === 'function') response.transports = r.getTransports();
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
  }
  return {
    id: cred.id, rawId: toBase64url(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults(),
    authenticatorAttachment: c.authenticatorAttachment || undefined,
  };
}
