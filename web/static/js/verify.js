// @ts-check
// Checking a game's dice in the page: every roll follows from the game's
// seed (docs/notation.md section 4), whose SHA-256 was published when the
// game started. WebCrypto does the hashing; where the page cannot use it
// (not a secure context) the server's POST /web/verify does the check.
// The rest of what a record proves (legal moves, its result, the server's
// signature: docs/security.md) the server checks, with the rules engine,
// by POST /web/verify (verifyRecord).

import { request, recordText, ApiError } from './api.js';

/**
 * @param {string} hex
 * @returns {Uint8Array}
 */
function fromHex(hex) {
  const b = new Uint8Array(hex.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return b;
}

/** @param {ArrayBuffer} buf */
function toHex(buf) {
  return [...new Uint8Array(buf)].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * seedFaces is rules' seedFaces: the faces of dice 0..count-1 of roll n
 * under a seed, in die order.
 * @param {Uint8Array} seed 32 bytes
 * @param {number[]} faces the die's faces, ascending
 * @param {number} count
 * @param {number} n
 */
async function seedFaces(seed, faces, count, n) {
  const k = BigInt(faces.length);
  const limit = (1n << 64n) - ((1n << 64n) % k);
  const out = [];
  for (let j = 0; j < count; j++) {
    const buf = new Uint8Array(45);
    buf.set(seed, 0);
    buf.set([0x72, 0x6f, 0x6c, 0x6c], 32); // "roll"
    new DataView(buf.buffer).setBigUint64(36, BigInt(n));
    buf[44] = j;
    const hv = new DataView(await crypto.subtle.digest('SHA-256', buf));
    let v = hv.getBigUint64(24);
    for (let i = 0; i < 4; i++) {
      const w = hv.getBigUint64(8 * i);
      if (w < limit) { v = w; break; }
    }
    out.push(faces[Number(v % k)]);
  }
  return out;
}

/** @param {number[]} f */
const sorted = (f) => [...f].sort((a, b) => a - b).join('');

/**
 * rollFromSeed is rules.RollFromSeed: roll number n of a preset's dice
 * under a seed, its faces ascending and unseparated ("25"); with pairs 2,
 * rules.RollFromSeedPairs (martian's second pair: "13/24").
 * @param {Uint8Array} seed 32 bytes
 * @param {number[]} faces the die's faces, ascending
 * @param {number} count dice a turn
 * @param {number} n
 * @param {number} [pairs]
 */
export async function rollFromSeed(seed, faces, count, n, pairs = 1) {
  const f = await seedFaces(seed, faces, count * pairs, n);
  return pairs === 2 ? `${sorted(f.slice(0, count))}/${sorted(f.slice(count))}` : sorted(f);
}

/**
 * rollOffFromSeed is rules.RollOffFromSeed: martian's roll-off, one d4 a
 * seat (South, West, North, East) a roll until one team's sum is higher.
 * It returns "1" if South's team starts, "2" if West's, and the number of
 * rolls it used.
 * @param {Uint8Array} seed
 * @returns {Promise<[string, number]>}
 */
export async function rollOffFromSeed(seed) {
  for (let n = 0; ; n++) {
    const f = await seedFaces(seed, [1, 2, 3, 4], 4, n);
    if (f[0] + f[2] > f[1] + f[3]) return ['1', n + 1];
    if (f[1] + f[3] > f[0] + f[2]) return ['2', n + 1];
  }
}

/**
 * @typedef {{ok: boolean, rolls: number, problem: string, where: 'page'|'server'}} Verdict
 */

/**
 * verifyDice checks the seed against its published hash and every
 * recorded roll against the seed, as record.VerifyDice does: after the
 * roll-off (its first roll, if rollOff), the rolls are numbered on.
 * @param {{gameId: string, seed: string, seedHash: string, faces: number[], count: number, rolls: string[], rollOff?: boolean}} g
 * @returns {Promise<Verdict>}
 */
export async function verifyDice(g) {
  if (!g.seed) return { ok: false, rolls: 0, problem: 'the seed is revealed only when the game is over', where: 'page' };
  if (!(globalThis.crypto && crypto.subtle)) {
    const r = await request('POST', '/web/verify', { record: await recordText(g.gameId) });
    return { ok: r.ok, rolls: r.rolls, problem: r.problem || '', where: 'server' };
  }
  const seed = fromHex(g.seed);
  const hash = toHex(await crypto.subtle.digest('SHA-256', seed));
  if (hash !== g.seedHash) {
    return { ok: false, rolls: 0, problem: `the seed's SHA-256 is ${hash}, not the hash published at the start`, where: 'page' };
  }
  let rolls = g.rolls, n = 0, checked = 0;
  if (g.rollOff && rolls.length > 0) {
    const [first, used] = await rollOffFromSeed(seed);
    if (first !== rolls[0]) {
      return { ok: false, rolls: 0, problem: `the roll-off says team ${rolls[0]} starts, the seed says team ${first}`, where: 'page' };
    }
    n = used;
    rolls = rolls.slice(1);
    checked++;
  }
  for (const roll of rolls) {
    if (!roll || roll === '-') continue;
    const want = await rollFromSeed(seed, g.faces, g.count, n, roll.includes('/') ? 2 : 1);
    if (want !== roll) {
      return { ok: false, rolls: checked, problem: `roll ${n + 1} was ${roll}, the seed gives ${want}`, where: 'page' };
    }
    n++;
    checked++;
  }
  return { ok: true, rolls: checked, problem: '', where: 'page' };
}

/**
 * @typedef {{ok: boolean, turns: number, result: string, signature: string, signer: string, key: string, problem: string}} RecordVerdict
 */

/**
 * serverKey returns the public key that signs this server's records (GET
 * /api/key), or '' if it signs none.
 * @returns {Promise<string>}
 */
export async function serverKey() {
  const resp = await fetch('/api/key');
  if (resp.status === 404) return '';
  if (!resp.ok) throw new ApiError(resp.status, String(resp.status), `the server's key cannot be read`);
  return (await resp.text()).trim();
}

/**
 * verifyRecord has the server check a game's whole record (POST
 * /web/verify, record.Verify): its dice, every move, its result, that the
 * game is over, and its signature against this server's key.
 * @param {string} gameId
 * @returns {Promise<RecordVerdict>}
 */
export async function verifyRecord(gameId) {
  const [text, key] = await Promise.all([recordText(gameId), serverKey()]);
  const r = await request('POST', '/web/verify', key ? { record: text, key } : { record: text });
  return {
    ok: r.ok, turns: r.turns, result: r.result || '', signature: r.signature,
    signer: r.signer || '', key, problem: r.problem || '',
  };
}
