package store

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
)

// Seeds at rest. A live game's seed decides every roll to come: anyone who
// reads it (from a backup, a copy of the file, read access to the
// database) foresees the dice. So the store keeps seeds sealed with
// AES-256-GCM under a key that the server holds outside the database
// (package keyfile): a copy of the database without the key shows no seed.
// A finished game's seed is public (its record reveals it), but it stays
// sealed too, so that there is one form of seed at rest.
//
// A sealed seed is sealedLen bytes: the version byte sealVersion, the
// first 8 bytes of the SHA-256 of the key (its id, which names the key
// in errors), the 12-byte nonce, then the 32-byte seed encrypted and its
// 16-byte tag. The game's id is authenticated with it, so a sealed seed
// opens only as its own game's.

const (
	sealVersion = 1
	keyIDLen    = 8
	seedLen     = 32
	sealedLen   = 1 + keyIDLen + 12 + seedLen + 16
)

// ErrSeedKey says a sealed seed does not open with the key given: the key
// is not the one the seed was sealed with, or the seed was damaged.
var ErrSeedKey = errors.New("store: the seed key does not open the seed")

// ErrSeedDamaged says a sealed seed carries the id of the key given but
// does not open with it: its bytes were damaged or changed, or it is
// another game's. Such an error is an ErrSeedKey too. It concerns its game
// alone, where ErrSeedKey of another key concerns every game.
var ErrSeedDamaged = errors.New("store: the sealed seed was damaged")

// seedDamaged is the error of a damaged seed: ErrSeedDamaged and
// ErrSeedKey, naming the game and the key.
type seedDamaged struct {
	id, keyID string
}

func (e *seedDamaged) Error() string {
	return fmt.Sprintf("store: game %s: its sealed seed does not open with key %s: it was damaged or changed in the database", e.id, e.keyID)
}

func (e *seedDamaged) Is(target error) bool { return target == ErrSeedDamaged || target == ErrSeedKey }

// SeedKey seals seeds at rest and opens them again.
type SeedKey struct {
	aead cipher.AEAD
	id   [keyIDLen]byte
}

// NewSeedKey returns the seed key of a 32-byte AES-256 key.
func NewSeedKey(key [32]byte) *SeedKey {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic("store: AES-256 refused a 32-byte key: " + err.Error())
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("store: " + err.Error())
	}
	k := &SeedKey{aead: aead}
	sum := sha256.Sum256(key[:])
	copy(k.id[:], sum[:])
	return k
}

// ID returns the key's id in hexadecimal: the first 8 bytes of its
// SHA-256, which sealed seeds carry.
func (k *SeedKey) ID() string { return hex.EncodeToString(k.id[:]) }

// IsSealed reports whether stored seed bytes are a sealed seed rather than
// a plain one (32 bytes, as stores before sealing kept them).
func IsSealed(b []byte) bool { return len(b) == sealedLen && b[0] == sealVersion }

// SealedKeyID returns the id of the key a sealed seed was sealed with.
func SealedKeyID(b []byte) string {
	if !IsSealed(b) {
		return ""
	}
	return hex.EncodeToString(b[1 : 1+keyIDLen])
}

// additional is the data authenticated with a game's seed: its id.
func additional(id string) []byte { return []byte("chaturaji seed v1\x00" + id) }

// Seal returns game id's 32-byte seed sealed.
func (k *SeedKey) Seal(id string, seed []byte) ([]byte, error) {
	if len(seed) != seedLen {
		return nil, fmt.Errorf("store: game %s: a seed of %d bytes, not %d", id, len(seed), seedLen)
	}
	out := make([]byte, 1+keyIDLen+12, sealedLen)
	out[0] = sealVersion
	copy(out[1:], k.id[:])
	nonce := out[1+keyIDLen:]
	rand.Read(nonce) // never fails (crypto/rand crashes the program instead)
	return k.aead.Seal(out, nonce, seed, additional(id)), nil
}

// Open returns game id's seed from its stored bytes: a sealed seed opened,
// or a plain one as it is. ErrSeedKey if it was sealed with another key or
// does not open (the error says which).
func (k *SeedKey) Open(id string, stored []byte) ([]byte, error) {
	if !IsSealed(stored) {
		if len(stored) == seedLen {
			return stored, nil
		}
		return nil, fmt.Errorf("store: game %s: stored seed of %d bytes is neither a seed nor a sealed one", id, len(stored))
	}
	if !bytes.Equal(stored[1:1+keyIDLen], k.id[:]) {
		return nil, fmt.Errorf("%w: game %s: its seed is sealed with key %s, and the key file's seed key is %s: start with the key file the database was written with",
			ErrSeedKey, id, SealedKeyID(stored), k.ID())
	}
	nonce := stored[1+keyIDLen : 1+keyIDLen+12]
	seed, err := k.aead.Open(nil, nonce, stored[1+keyIDLen+12:], additional(id))
	if err != nil {
		return nil, &seedDamaged{id: id, keyID: k.ID()}
	}
	return seed, nil
}

// Sealed returns st with its seeds sealed by key: CreateGame stores the
// seed sealed; Game and Games return it opened (a plain seed, as older
// stores kept them, as it is: SealSeeds seals those). Every other method is
// st's own. Games lists a game whose seed is damaged (ErrSeedDamaged) with
// its seed as stored, still sealed, so that one damaged row does not hide
// the others; Game of that game says what is wrong.
func Sealed(st Store, key *SeedKey) Store { return &sealed{Store: st, key: key} }

// sealed is a Store whose seeds are sealed.
type sealed struct {
	Store
	key *SeedKey
}

// Unwrap returns the store sealed (ClusterOf and LobbyOf look through it).
func (s *sealed) Unwrap() Store { return s.Store }

func (s *sealed) CreateGame(ctx context.Context, g *Game) error {
	if g == nil || len(g.Seed) == 0 {
		return s.Store.CreateGame(ctx, g)
	}
	n := *g
	var err error
	if n.Seed, err = s.key.Seal(g.ID, g.Seed); err != nil {
		return err
	}
	if err := s.Store.CreateGame(ctx, &n); err != nil {
		return err
	}
	g.Status, g.Created, g.Updated = n.Status, n.Created, n.Updated
	return nil
}

func (s *sealed) Game(ctx context.Context, id string) (*Game, error) {
	g, err := s.Store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.open(g); err != nil {
		return nil, err
	}
	return g, nil
}

func (s *sealed) Games(ctx context.Context, f Filter) ([]*Game, error) {
	games, err := s.Store.Games(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if err := s.open(g); err != nil && !errors.Is(err, ErrSeedDamaged) {
			return nil, err
		}
	}
	return games, nil
}

// open replaces a game's stored seed with the seed.
func (s *sealed) open(g *Game) error {
	if len(g.Seed) == 0 {
		return nil
	}
	seed, err := s.key.Open(g.ID, g.Seed)
	if err != nil {
		return err
	}
	g.Seed = seed
	return nil
}

// Scrubber is a Store that can rid its files of what it no longer holds,
// such as the old row versions that replaced seeds leave: SQLite's
// write-ahead log, PostgreSQL's dead rows. SealSeeds scrubs a store that
// is one after sealing its seeds.
type Scrubber interface {
	Scrub(ctx context.Context) error
}

// SealSeeds seals every plain seed of st (the store itself, not Sealed's
// view of it) with key, and checks that every sealed one is key's: a
// database from before seeds were sealed is sealed once, at the server's
// start, and scrubbed (Scrubber) if anything was sealed. It returns how
// many seeds it sealed; ErrSeedKey, naming a game and both keys' ids, if a
// seed is sealed with another key. A damaged seed (ErrSeedDamaged) is left
// as it is: it concerns its own game, which cannot be read.
func SealSeeds(ctx context.Context, st Store, key *SeedKey) (int, error) {
	games, err := st.Games(ctx, Filter{Limit: math.MaxInt32})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range games {
		switch {
		case len(g.Seed) == 0:
		case IsSealed(g.Seed):
			if _, err := key.Open(g.ID, g.Seed); err != nil && !errors.Is(err, ErrSeedDamaged) {
				return n, err
			}
		default:
			s, err := key.Seal(g.ID, g.Seed)
			if err != nil {
				return n, err
			}
			if err := st.ReplaceSeed(ctx, g.ID, g.Seed, s); err != nil {
				return n, fmt.Errorf("store: sealing the seed of game %s: %w", g.ID, err)
			}
			n++
		}
	}
	if sc, ok := st.(Scrubber); ok && n > 0 {
		if err := sc.Scrub(ctx); err != nil {
			return n, err
		}
	}
	return n, nil
}
