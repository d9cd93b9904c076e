// Package nn is the learned evaluation of Chaturaji: a small value network
// that reads a position and estimates each seat's final score, as the
// hand-written evaluation of package ai does.
//
// A position is encoded (Encode) as seen by the seat to act: the board is
// turned so that this seat sits South, every piece is a feature of its kind,
// its owner counted in turn order from the seat to act (0 the mover, 2 the
// seat opposite) and its square; a few more features say which armies are
// frozen or gone and what the dice show, and dense inputs give the scores
// and the clock. The network (Net) is three layers: the first is an
// accumulator, the sum of the weight columns of the active features
// (Accumulator: it can be updated feature by feature, or refreshed from
// scratch, which costs a few thousand additions), then two small layers
// with ReLU, and four outputs: each seat's expected gain in points from
// here to the end of the game, in the same relative order. Value adds the
// gains to the scores; a residual network's outputs are corrections that
// Value adds to another evaluation's estimate (the hand-written one).
//
// Weights are kept in a small binary file (Parse, Net.MarshalBinary) that
// names its preset and the command that trained it. The weights trained
// for the presets that have them are embedded in the package (ForPreset);
// the training itself is package learn's business, run by `chaturaji
// train`.
package nn
