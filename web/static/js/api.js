// @ts-check
// The game server's API (docs/api.md) and this client's own endpoints under
// /web/, and the seat tokens kept in this browser.

/**
 * @typedef {{seat: string, letter: string, colour: string, throne: string}} SeatDef
 * @typedef {{letter: string, name: string, role: string, points: number}} PieceDef
 * @typedef {{die: string, count: number, faces: number[], words: Record<string,string>, kinds: Record<string,string>}} DiceDef
 * @typedef {{name: string, values?: string[], help: string}} OptionDef
 * @typedef {{name: string, title: string, source: string, seats: SeatDef[], order: string[],
 *   pieces: PieceDef[], dice: DiceDef|null, goal: string, kingless: boolean, start: string,
 *   options: OptionDef[], text?: string, html?: string, partners: boolean, frozen: string, roll_off: boolean}} Preset
 *   text: the rules in Markdown; html: the same, rendered by the server;
 *   partners: two teams, each seat with the seat opposite; frozen: when an
 *   army is frozen ("kingless", "team", "throne", "never", see web.Preset);
 *   roll_off: the first roll, with no seat, says which team starts
 * @typedef {{seat: string, player: string, name?: string, account?: boolean, online?: boolean, invited?: boolean}} SeatInfo
 *   invited: a human seat that waits for its player to claim it with its invite;
 *   account: a signed-in player holds the seat, name is their username
 * @typedef {{spec: string, label: string, about: string}} PlayerChoice
 * @typedef {{turn_ms: number, on_timeout: string, help?: boolean, abandon_ms: number, takeover: string, auto_pass: boolean, bot_delay_ms?: number,
 *   bank_ms?: number, increment_ms?: number, delay_ms?: number, chat?: boolean}} Table
 *   help: false when the table turned engine help (hints, expected scores) off; bank_ms: each seat's bank of time
 *   for the game, with increment_ms or delay_ms
 * @typedef {{seq?: number, kind: string, at?: string, seat?: string, roll?: string, action?: string,
 *   by?: string, player?: string, reason?: string, rules?: string, seed_hash?: string,
 *   seats?: SeatInfo[], table?: Table, position?: string, to_act?: string, dice?: string,
 *   scores?: number[], actions?: string[], deadline?: string, status?: string, ranks?: number[],
 *   result?: string, end?: string, seed?: string, game?: string, last?: number,
 *   error?: {code: string, message: string}, echo?: string,
 *   captures?: Capture[], removed?: Capture[], gains?: Gain[], frozen?: string[], revived?: string[],
 *   out?: string[], out_of_play?: string[], banks_ms?: number[], used_ms?: number}} GameEvent
 *   reason: why a bot took a seat, or why the server played an action itself ("no-move", "timeout");
 *   out_of_play: the seats with no part left in the game after the event (a king fallen, an army dead or gone);
 *   banks_ms: at a bank table, each seat's bank as of the decision the event opens; used_ms: an action's time
 *   captures ... out: what an action did (docs/api.md, "What an action did")
 * @typedef {{seat: string, piece: string, square: string, points: number}} Capture
 *   a piece an action took: its owner, its letter, its square, the points it scored
 * @typedef {{seat: string, points: number, cause: string}} Gain
 *   a change of a seat's score: cause "capture", "throne", "throne-king", "stakes", "raise", "empire", "check", "kings" or "clock"
 * @typedef {{id: string, rules: string, status: string, seats: SeatInfo[], seed_hash: string,
 *   table: Table, seq: number, created: string, updated: string, position: string,
 *   to_act?: string, dice: string, scores: number[], actions: string[], deadline?: string,
 *   out_of_play?: string[], ranks?: number[], result?: string, end?: string, seed?: string, banks_ms?: number[]}} GameState
 * @typedef {{id: string, rules: string, status: string, seats: SeatInfo[], seq: number,
 *   to_act?: string, scores?: number[], result?: string, created: string, updated: string,
 *   seed_hash: string}} Summary
 * @typedef {{id: string, rules: string, seed_hash: string,
 *   seats: {seat: string, player: string, name?: string, token?: string, invite?: string}[], table: Table}} Created
 *   token: a seat this browser holds; invite: a seat for a friend to claim
 * @typedef {{seat: string, answer: string, to?: string}} RematchSeat
 * @typedef {{game: string, status: string, by: string, rotate: boolean, expires?: string,
 *   seats: RematchSeat[], new?: string, you?: string, seat?: string, token?: string}} Rematch
 * @typedef {{best: string, line: string[], expected: number[], depth: number, nodes: number,
 *   elapsed_ms: number}} Analysis
 * @typedef {{turn: number, seat: string, played: string, best: string, forced: boolean,
 *   before: number[], after: number[], loss: number, class: string, mark: string, withheld: boolean}} ReviewEntry
 *   one judged decision: before and after are the expected final scores in
 *   seat order with the best action and with the one played; loss is what
 *   the played action cost the seat that decided; withheld: not searched
 * @typedef {{decision: number, turn: number, roll: boolean, seat: string, delta: number}} TurningPoint
 * @typedef {{rules: string, seats: string[], decisions: ReviewEntry[], turning: TurningPoint[],
 *   complete: boolean, total: number, nodes: number, elapsed_ms: number}} GameReview
 */

/** ApiError is a refused request, with the server's code and message. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * request sends a request and returns its JSON answer, or throws an
 * ApiError with the server's message.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {{token?: string, signal?: AbortSignal}} [opts]
 * @returns {Promise<any>}
 */
export async function request(method, path, body, opts = {}) {
  /** @type {Record<string,string>} */
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, signal: opts.signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'ENETWORK', 'the server cannot be reached');
  }
  const text = await resp.text();
  /** @type {any} */
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!resp.ok) {
    const err = data && data.error ? data.error : { code: String(resp.status), message: text || resp.statusText };
    throw new ApiError(resp.status, err.code, err.message);
  }
  return data;
}

/** @type {Map<string, Promise<Preset>>} */
const presetCache = new Map();

/**
 * preset returns a preset (house rules allowed) with its rules text, in
 * Markdown and in HTML.
 * @param {string} name
 * @returns {Promise<Preset>}
 */
export function preset(name) {
  let p = presetCache.get(name);
  if (!p) {
    p = request('GET', `/web/rules/${encodeURIComponent(name)}`);
    presetCache.set(name, p);
    p.catch(() => presetCache.delete(name));
  }
  return p;
}

/** @returns {Promise<Preset[]>} */
export async function presets() {
  const r = await request('GET', '/web/presets');
  return r.presets;
}

/** @returns {Promise<PlayerChoice[]>} the seat menus' choices, with how each bot plays */
export async function players() {
  const r = await request('GET', '/web/players');
  return r.players;
}

/**
 * @param {string} id
 * @returns {Promise<GameState>}
 */
export function game(id) {
  return request('GET', `/api/games/${encodeURIComponent(id)}`);
}

/**
 * @param {string} id
 * @returns {Promise<GameEvent[]>}
 */
export async function events(id) {
  const r = await request('GET', `/api/games/${encodeURIComponent(id)}/events`);
  return r.events;
}

/**
 * @param {'live'|'finished'} status
 * @param {number} limit
 * @returns {Promise<Summary[]>}
 */
export async function games(status, limit) {
  const r = await request('GET', `/api/games?status=${status}&limit=${limit}`);
  return r.games;
}

/**
 * createGame starts a game and keeps in this browser the tokens of the
 * seats it holds (host_seats) and the invites of the others, which are
 * for friends and never act here.
 * @param {{rules: string, seats: string[], names?: string[], host_seats?: string[], turn_ms?: number,
 *   on_timeout?: string, takeover?: string, abandon_ms?: number, auto_pass?: boolean, help?: boolean, bot_delay_ms?: number,
 *   bank_ms?: number, increment_ms?: number, delay_ms?: number, chat?: boolean}} ng
 * @returns {Promise<Created>}
 */
export async function createGame(ng) {
  /** @type {Created} */
  const c = await request('POST', '/api/games', ng);
  for (const s of c.seats) {
    if (s.token) saveToken(c.id, s.seat, s.token);
    if (s.invite) saveInvite(c.id, s.seat, s.invite);
  }
  return c;
}

/**
 * claim takes a seat with the invite a friend sent, and keeps its token.
 * @param {string} id
 * @param {string} seat
 * @param {string} invite
 */
export async function claim(id, seat, invite) {
  /** @type {{game: string, seat: string, token: string}} */
  const c = await request('POST', `/api/games/${encodeURIComponent(id)}/claim`, { seat, invite });
  saveToken(id, c.seat, c.token);
  return c;
}

/**
 * newInvite asks for a new invite for a seat nobody claimed, with the
 * token of a seat the creator holds, and keeps it.
 * @param {string} id
 * @param {string} seat
 * @param {string} token
 * @returns {Promise<string>}
 */
export async function newInvite(id, seat, token) {
  /** @type {{invite: string}} */
  const r = await request('POST', `/api/games/${encodeURIComponent(id)}/invites`, { seat }, { token });
  saveInvite(id, seat, r.invite);
  return r.invite;
}

/**
 * rematch offers or answers a rematch for the seat token holds.
 * @param {string} id the finished game
 * @param {string} token
 * @param {'offer'|'accept'|'decline'|'start'} answer
 * @param {boolean} [rotate] an offer's: every player one seat on
 * @returns {Promise<Rematch>}
 */
export function rematch(id, token, answer, rotate) {
  return request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, rotate ? { answer, rotate } : { answer }, { token });
}

/**
 * rematchOf reads a finished game's rematch offer as the seat token holds
 * sees it: with its new seat and token once the new game is made.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<Rematch>}
 */
export function rematchOf(id, token) {
  return request('GET', `/api/games/${encodeURIComponent(id)}/rematch`, undefined, { token });
}

/**
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function recordText(id) {
  const resp = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
  if (!resp.ok) throw new ApiError(resp.status, String(resp.status), 'the record cannot be read');
  return resp.text();
}

/**
 * analyze asks the strong bot about a position.
 * @param {string} rules
 * @param {string} pos
 * @param {number} movetimeMS
 * @param {AbortSignal} [signal]
 * @returns {Promise<Analysis>}
 */
export function analyze(rules, pos, movetimeMS, signal) {
  return request('POST', '/web/analyze', { rules, pos, movetime_ms: movetimeMS }, { signal });
}

/**
 * review asks the server to judge every decision of a finished game.
 * @param {string} record the game's record
 * @param {AbortSignal} [signal]
 * @returns {Promise<GameReview>}
 */
export function review(record, signal) {
  return request('POST', '/web/review', { record }, { signal });
}

const tokenKey = (/** @type {string} */ id) => `chaturaji.tokens.${id}`;

/**
 * tokens returns the seat tokens this browser holds for a game, by seat.
 * @param {string} id
 * @returns {Record<string,string>}
 */
export function tokens(id) {
  try {
    const v = JSON.parse(localStorage.getItem(tokenKey(id)) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/**
 * saveToken remembers a seat's token for a game.
 * @param {string} id
 * @param {string} seat
 * @param {string} token
 */
export function saveToken(id, seat, token) {
  const t = tokens(id);
  t[seat] = token;
  try { localStorage.setItem(tokenKey(id), JSON.stringify(t)); } catch { /* private mode */ }
}

const inviteKey = (/** @type {string} */ id) => `chaturaji.invites.${id}`;

/**
 * invites returns the invites this browser's creator keeps for its
 * friends' seats of a game, by seat: shown to be sent, never used here.
 * @param {string} id
 * @returns {Record<string,string>}
 */
export function invites(id) {
  try {
    const v = JSON.parse(localStorage.getItem(inviteKey(id)) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/**
 * saveInvite remembers the invite of a friend's seat.
 * @param {string} id
 * @param {string} seat
 * @param {string} invite
 */
export function saveInvite(id, seat, invite) {
  const v = invites(id);
  v[seat] = invite;
  try { localStorage.setItem(inviteKey(id), JSON.stringify(v)); } catch { /* private mode */ }
}

/**
 * inviteLink is the address that lets a friend claim a seat of a game: the
 * first browser that opens it takes the seat, and no other after it. The
 * invite travels in the fragment, which browsers never send to a server.
 * @param {string} id
 * @param {string} seat
 * @param {string} invite
 */
export function inviteLink(id, seat, invite) {
  return `${location.origin}/game/${encodeURIComponent(id)}#seat=${encodeURIComponent(seat)}&invite=${encodeURIComponent(invite)}`;
}

/**
 * playerLabel names a seat's player in a few words that cannot be misread
 * beside a score: "Human", "Level 3 bot", "Greedy bot", "Strong bot
 * (nodes=5000)".
 * @param {string} player
 */
export function playerLabel(player) {
  if (player === 'human') return 'Human';
  const [spec, settings] = player.replace(/^bot:/, '').split('?');
  const lv = spec.match(/^(?:level:)?(\d+)$/);
  const kind = lv ? `Level ${lv[1]} bot` : `${spec.charAt(0).toUpperCase()}${spec.slice(1)} bot`;
  return settings ? `${kind} (${settings})` : kind;
}
