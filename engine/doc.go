// Package engine speaks the Chaturaji engine protocol of
// docs/engine-protocol.md: a line-based text protocol over standard input and
// output, in the spirit of chess's UCI, for four seats and dice.
//
// Serve is the engine side: it answers a host's commands with a player of
// the ai package. Client is the host side: it starts an engine as a
// subprocess and is itself an ai.Player (and ai.Analyzer), so an outside
// engine can sit at any seat where a built-in player can.
//
// The host always rolls the dice: every position sent to an engine is
// already rolled, and an engine never draws a roll.
package engine
