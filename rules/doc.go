// Package rules is the Chaturaji rules engine: positions on bitboards, legal
// actions, make and unmake in place, dice from a per-game seed, scoring, the
// end of the game, the position and action notation, and perft.
//
// A ruleset is a Preset: a value that names the pieces, the dice, the scoring
// and the ends of the game, interpreted by one move generator. The default
// preset, "chaturaji", plays the rules decided in the project's docs/rules.md.
//
// The hot path (Actions, Make, Unmake, Perft) does not allocate: callers pass
// a buffer for actions and an Undo record for each Make.
package rules
