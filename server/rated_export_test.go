package server

import "context"

// CreateGame makes a game through the server's own create path, as the
// lobby does, with NewGame.Accounts set: for the tests of rated games.
func (s *Server) CreateGame(ctx context.Context, ng *NewGame) (*Created, error) {
	return s.create(ctx, ng, "127.0.0.1", nil)
}
