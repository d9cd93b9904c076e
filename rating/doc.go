// Package rating rates players from the final ranking of a game with
// Weng and Lin's Bayesian approximation (the OpenSkill family): each
// player's skill is a normal belief with mean Mu and deviation Sigma, and a
// game's ranking of its sides updates every belief through the
// Plackett-Luce model (Weng and Lin 2011, "A Bayesian Approximation Method
// for Online Ranking", Algorithm 4).
//
// A game has two or more teams; a free-for-all is a game of teams of one.
// Teams are rated as teams: a team's skill is the sum of its players'
// means, its variance the sum of their variances, and the team's update is
// shared out by each player's share of that variance. Ranks are lower for
// better, and equal ranks are a tie.
//
// The arithmetic is the reference's: npm's openskill (rate with the
// plackettLuce model, the defaults below, balance and margin off) gives the
// same updated Mu and Sigma to within 1e-9, which reference_test.go checks
// on hundreds of random games (scripts/openskill.sh installs it).
//
// The package is pure arithmetic: ratings in, ratings out. It keeps no
// state; one rating per player and ruleset is the caller's to store.
//
// For people, a rating is shown as one number on the familiar Elo scale,
// 1500 for a newcomer, with its uncertainty beside it (Model.Display), and
// is provisional while Sigma is above Model.ProvisionalSigma.
package rating
