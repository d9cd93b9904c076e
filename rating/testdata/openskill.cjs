// Rates games with npm's openskill, the reference for package rating:
// `node openskill.cjs DIR` with DIR the directory that holds
// node_modules/openskill (scripts/openskill.sh installs it). It reads a
// JSON array of games on standard input, each
//   {"teams": [[{"mu": m, "sigma": s}, ...], ...], "ranks": [r, ...],
//    "options": {"mu", "sigma", "beta", "kappa", "tau", "limitSigma"}}
// and writes a JSON array of the teams that openskill's rate, with the
// plackettLuce model and those options, returns for each game.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const dir = process.argv[2];
if (!dir) {
	console.error('usage: node openskill.cjs DIR (DIR holds node_modules/openskill)');
	process.exit(2);
}
const load = createRequire(path.join(path.resolve(dir), 'package.json'));
const { rate } = load('openskill');
const { plackettLuce } = load('openskill/models');
const version = JSON.parse(fs.readFileSync(
	path.join(path.resolve(dir), 'node_modules', 'openskill', 'package.json'), 'utf8')).version;

const games = JSON.parse(fs.readFileSync(0, 'utf8'));
const rated = games.map((g) =>
	rate(g.teams, { ...g.options, rank: g.ranks, model: plackettLuce }));
process.stdout.write(JSON.stringify({ version, rated }));
