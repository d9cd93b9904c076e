// Package ai holds the players of Chaturaji: random, greedy and search
// players behind one small interface, with strength levels for humans.
//
// New builds a player from a spec such as "strong", "mcts?c=1" or
// "level:3". There are two families of search players:
//
//   - Star (specs "brs" and "paranoid"): expectimax over the dice, with
//     Star1 pruning at the chance nodes, and Best-Reply Search or paranoid
//     search over the seats' decisions; iterative deepening, a
//     transposition table keyed by the Zobrist hash mixed with the scores,
//     move ordering by captures, the table's move, killers and history.
//   - MCTS (spec "mcts"): Monte Carlo tree search with a vector of rewards
//     per node (max^n: each seat picks by UCT on its own reward), explicit
//     chance nodes for the rolls, and short greedy-biased playouts finished
//     by the evaluation.
//
// Both value positions with one evaluation, a Utility: each seat's expected
// final score, from its points, its material, its chance of holding the
// last king (and so the raise to 54), the threats on the board (a king
// attacked by a piece that moves on some roll most of all), pawns near
// promotion and frozen armies; where captures score nothing (the presets
// won by taking kings), material is valued by how the pieces move and a win
// by taking the kings. An Objective turns a Utility into what a seat
// maximises: its side's utility against the best and the mean of the other
// sides, partners making one side in the team presets.
//
// A learned evaluation (package ai/nn, trained by package learn) can take
// the hand-written one's place at the leaves: Options.Eval, or the setting
// eval=nn, selects it for the presets that ship weights; LearnedByDefault
// lists the presets where it is the default, those where a match found it
// stronger (docs/strength.md, "The learned evaluation").
//
// A search's memory (a table, a tree) is lent for one decision by a Pool,
// which keeps the memory of all the players that share it within one
// byte budget; a decision whose Budget names no pool uses its player's own.
//
// "strong" is the family that won the comparison matches recorded in
// docs/strength.md, with the commands that measured them (chaturaji
// match); Levels lists the strength levels.
package ai
