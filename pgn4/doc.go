// Package pgn4 reads and writes chess.com's notation for four-player games,
// PGN4 and FEN4, for the preset chesscom-chaturaji (docs/rules.md §6.12),
// and replays what it reads under the rules. docs/pgn4.md describes the
// format as we found it and where from.
//
// # The board
//
// chess.com plays Chaturaji on an 8x8 board drawn inside the 14x14 grid of
// its four-player chess, whose files are a to n and ranks 1 to 14 as Red
// sees it; the Chaturaji board is the box from d4 to k11. The engine's
// squares map by a fixed shift: file a..h is chess.com's d..k, rank 1..8 is
// its 4..11, so the engine's a1 is d4, d1 (South's throne) g4, h8 k11.
// chess.com's colours are the engine's seats: Red is South, Blue West,
// Yellow North and Green East, in that turn order; its piece letters are
// K (king), N (knight, the engine's H), B (bishop, the engine's E) and R
// (sailboat, the engine's B); a pawn has no letter in moves and P in FEN4.
//
// # PGN4
//
// A game is tag pairs, [Name "value"], then movetext. chess.com's tags
// include Variant (FFA), RuleVariants, StartFen4 (the start, in FEN4, which
// chess.com breaks over lines), Red, Blue, Yellow and Green (the players),
// their ratings (RedElo, ...), TimeControl, Date, Site, Result (each
// player's points, "name: points - ..."), Termination, CurrentMove and
// GameNr. The movetext is the moves in turn order, a move number before
// each round ("1."), two periods between two players' moves
// ("1. g5-g6 .. e9-f9 .. h10-h9 .. j6-i6"); an eliminated player's turns are
// left out. A move is long algebraic: the piece's letter (none for a pawn),
// the from square, - or x (with the letter of the piece captured, none for
// a pawn), the to square, =R for a promotion, and + marks for checks
// (Nf6xe8, Kh9xBg10, e10-d10=R). A player who resigns or runs out of time
// has R or T in place of a move; # (checkmate) and S (stalemate) belong to
// four-player chess and are refused here. Comments {...} and variations
// (...) are skipped.
//
// Two actions of the preset have no token we could find in chess.com's
// files: the claim and the pass. This package writes and reads them as the
// words claim and pass, which no chess.com token can be taken for.
//
// # FEN4
//
// A FEN4 is fields joined by '-': the colour to move (R, B, Y, G); who is
// eliminated, four 0/1 flags red first; kingside and queenside castling,
// four flags each (always 0 here); the points, four numbers; the halfmove
// clock; for Chaturaji an options field, {'dim':'8x8','boxOffset':1}; and
// the placement, 14 ranks from the 14th down joined by '/', each a
// comma-separated list of cells: a count of empty squares, x for a square
// off the board, or a piece as colour letter and piece letter (rK), after
// d if its army is dead (dyB). An eliminated army with its king on the
// board resigned or timed out: the engine's dead= (docs/notation.md).
//
// # Sources
//
// The Four-Player Chess wikibook's Notation page (Wikibooks) defines PGN4's
// tags and movetext, R, T and #, long algebraic notation with the captured
// piece's letter, and FEN4's fields; chess.com's Chaturaji files, as the
// open engines of docs/rules.md §9 (manfredmirsch/chaturaji-engine,
// Anurag-Baundwal's 4pc-ffa-chaturaji-mcts) read them in their tests and
// importers, give the d4-k11 box, the options field, x and the d prefix,
// R and T on Chaturaji's turns, and =R. What no source shows (how chess.com
// writes a claim, its Variant for Chaturaji) is this package's choice, said
// where it is made.
package pgn4
