// Package web is the browser client of Chaturaji: the pages (home, game,
// replay, rules), their ES modules and style sheet, embedded in the binary,
// and the few JSON endpoints the pages need that the game server's API does
// not have, under /web/:
//
//	GET  /web/presets        every preset: seats, pieces, dice, thrones, start
//	GET  /web/rules/{name}   one preset (house rules allowed) with its rules text,
//	                         in Markdown and in HTML (rendered by goldmark)
//	GET  /web/players        the seat menus' choices, each with how it plays
//	POST /web/analyze        the strong bot's best action, line and expected scores
//	                         (refused for the live position of a game without engine help)
//	POST /web/verify         check a game record: dice, moves, result and signature
//
// The pages talk to the game server's API (/api/..., docs/api.md) from the
// same origin; Handler serves everything else. Mount puts the two together
// as `chaturaji serve` does (the API, /healthz, /readyz and /metrics to the server,
// the rest to the client, all behind the server's limits and metrics):
//
//	http.ListenAndServe(addr, web.Mount(srv, web.Options{}))
//
// Bodies are read as the API reads them (package internal/strictjson), and
// a method a path does not take gets 405 with Allow and a JSON error.
//
// The JavaScript is plain ES modules checked by `// @ts-check` and JSDoc
// types: there is no build step. The pages follow the system's light or
// dark colour scheme (static/css/theme.css), and a game can be played with
// the keyboard alone, each square and move said in a live region
// (static/js/keyboard.js); the browser tests run axe-core's accessibility
// rules on every page (scripts/axe.sh installs them).
//
// A live game is shown at a pace people can follow: the server holds the
// bots' actions back by the table's bot delay, and the game page shows its
// events one after another, each given its animation's time
// (static/js/animate.js; none for people who ask for reduced motion). What
// each action did comes from the server's events and is said where people
// look (static/js/effects.js): captures marked in the move list (c3xa5, the
// piece taken, the points), the banner's sentence, each seat's
// captured-pieces tray (static/js/captures.js), notices of kings fallen and
// armies frozen, why the server passed for a seat, why a score jumped.
// chesscom-chaturaji is drawn in chess.com's four colours (red South, blue
// West, yellow North, green East) in the project's own artwork, which the
// piece key says (static/js/pieces.js: its bishop has a glyph of its own);
// its dead armies (a king taken, a resignation, the clock: the position's
// dead=...) are greyed with their pieces on the board and said dead
// (Preset.Frozen "dead", static/js/position.js); Claim is offered when the
// rules allow it, and Resign says that the army dies, now or at the seat's
// next turn (static/js/leave.js).
// Sounds are made with the Web Audio API, with a mute switch the browser
// remembers (static/js/sound.js), and the tab's title says when it is your
// turn.
//
// People (pages of their own, each a module): the home page leads with
// Play, which seeks a game in the lobby (/play, lobby.js: quick pairing in
// the pool this browser chose last, choice.js; the live list of seekers and
// open tables, over the lobby's WebSocket) and opens the game once seated.
// In team rules "Play with a partner" shows a link, /play?partner=CODE,
// which the partner opens to seek with the inviter as one team (pair.js);
// the page says why when a partner's leaving withdrew the pair's seek.
// Accounts are optional: /signup makes one with a passkey
// (navigator.credentials, passkey.js) or a password and shows its recovery
// codes once; /signin signs in by passkey, password or recovery code;
// /account keeps passkeys, password, recovery codes and sessions, exports
// the account's data and deletes it (accounts.js calls the API). Every
// header shows who is signed in (session.js). /players/{name} is a
// player's profile (ratings with their uncertainty, a graph over time
// drawn by the replay's chart, recent games) and /leaderboard the best
// players of a ruleset; people.js shows names and ratings alike everywhere.
//
// A creator's page holds only its own seats and shows its friends' invite links
// (invites.js); resign and abort are confirmed in a dialog (leave.js,
// confirm.js); the game-over card carries the rematch (rematch.js). A
// player whose king has fallen (the server's out_of_play) is told so in
// the banner, with Watch and Leave in place of Resign: leaving gives the
// seat to a bot and goes home (fallen.js); once nobody is left playing
// the server plays the bots out at once. While the connection is down the
// banner says that a move waits for it: the move made then is kept (the
// latest) and sent when the connection returns, after the event it was
// made after, so that the server refuses it if the turn has moved on, and
// the page says so (offline.js).
package web
