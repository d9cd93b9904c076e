// Package record reads, writes and checks game records: the PGN-like text
// of docs/rules.md §7, specified in full in docs/notation.md.
//
// A record is a header of tag pairs, one a line, then a blank line and the
// movetext, one turn group per turn: the colour letter of the seat, the dice
// rolled (`-` in diceless presets) and the actions joined by commas.
//
//	[Rules "chaturaji"]
//	[Date "2025.01.02"]
//	[South "ann"]
//	[West "bob"]
//	[North "cy"]
//	[East "di"]
//	[Seed "1c999b443da88acf2997f16862008b4ff9ee62473fcbaec4ba395a7730465a41"]
//	[SeedHash "c3c83287867efc910d90d8d758b5f11a96774b19df8e9dea8e9432cb41a90277"]
//	[Result "*"]
//
//	b 5 d1e1  y 2 a8c6  g 4 pass  r 4 pass
//	b 5 a2a3
//
// A timed game's record has a TimeControl tag, and each turn group's
// actions are followed by the times its decisions took, in seconds:
// `b 5 d1e1 {3.2}` (Times; Banks replays the clocks from them).
//
// A file holds any number of records, a blank line between two. Lines whose
// first non-blank character is `;` are comments; they are skipped when read
// and never written.
//
// Parse checks the form; Replay checks the game against the rules and the
// Result tag; VerifyDice checks the dice against the Seed and SeedHash tags;
// Verify checks all a record can prove: legal actions, the result of a
// finished game, fair dice and, given a public key, the Signature tag that
// Sign writes (ed25519 over SignedBytes). CheckSignedText checks a signed
// record as text, byte for byte, without parsing its movetext: for a
// server that checks the records it keeps as it serves them.
package record
