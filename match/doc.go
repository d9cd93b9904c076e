// Package match plays matches between players of the ai package (or outside
// engines speaking the engine protocol) and measures them.
//
// A match is a number of deals. Each deal has one dice seed and is played in
// every seat rotation: with n seats, rotation r puts player j at seat
// (j+r) mod n, so every player sits at every seat once under the same dice,
// and the luck of the dice and the advantage of a seat cancel out. A
// two-player preset thus plays colour-swapped pairs.
//
// The results are pooled by spec: three greedy players are one row. Each
// spec's Elo is measured against a baseline spec from the pairwise
// comparisons of seats within games, with the deal as the independent sample
// (see stats.go: Wilson, EstimateElo and SPRT).
package match
