// Package learn trains the value networks of package nn from self-play, as
// TD-Gammon taught itself backgammon: a search player plays games against
// itself from a seed, every decision's position is kept with the search's
// estimate of each seat's final score and, once the game is over, the
// scores it ended with; a network then learns to predict a blend of the
// two (Config.Lambda) from the position alone, by minibatch gradient
// descent with Adam.
//
// A run is reproducible: the same Config, seed included, makes the same
// weights, whether it runs through at once or is stopped and resumed. The
// samples go to a text file as the games finish (Samples) and the training
// state to a checkpoint after every epoch, so that Run with Resume picks
// up where a run stopped.
package learn
