package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/secure/precis"
)

// The bounds of a password: at least MinPassword characters, at most
// MaxPassword bytes.
const (
	MinPassword = 8
	MaxPassword = 1024
)

// Params are argon2id's parameters.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes over the memory
	Threads uint8  // lanes
	SaltLen uint32 // bytes of random salt
	KeyLen  uint32 // bytes of hash
}

// OWASP is the parameters OWASP's Password Storage Cheat Sheet gives as
// the least for argon2id: 19 MiB, 2 passes, 1 lane; with a salt of 16
// bytes and a hash of 32.
var OWASP = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// The bounds ParseHash puts on a stored hash's parameters, so that a
// damaged or hostile one cannot make verifying it take gigabytes or
// minutes.
const (
	maxMemory  = 1 << 20 // KiB: 1 GiB
	maxTime    = 64
	minSaltLen = 8
	maxSaltLen = 64
	minKeyLen  = 16
	maxKeyLen  = 64
)

// Hash is a password's hash and the parameters that made it: what a PHC
// string holds.
type Hash struct {
	Params
	Salt []byte // random, per password
	Key  []byte // argon2id's output
}

// phcPrefix begins every hash: argon2id, version 0x13.
const phcPrefix = "$argon2id$v=19$"

// String returns the hash in the PHC string format:
// $argon2id$v=19$m=MEMORY,t=TIME,p=THREADS$SALT$KEY, salt and key in
// unpadded standard base64.
func (h Hash) String() string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("%sm=%d,t=%d,p=%d$%s$%s", phcPrefix, h.Memory, h.Time, h.Threads,
		b64.EncodeToString(h.Salt), b64.EncodeToString(h.Key))
}

// ParseHash parses a PHC string as String writes it, refusing parameters
// out of bounds.
func ParseHash(s string) (Hash, error) {
	var h Hash
	rest, ok := strings.CutPrefix(s, phcPrefix)
	if !ok {
		return h, fmt.Errorf("account: password hash does not begin %q", phcPrefix)
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return h, fmt.Errorf("account: password hash has %d fields after the version, want 3 (parameters, salt, hash)", len(parts))
	}
	params := strings.Split(parts[0], ",")
	if len(params) != 3 {
		return h, fmt.Errorf("account: password hash parameters %q: want m=N,t=N,p=N", parts[0])
	}
	var vals [3]uint64
	for i, key := range []string{"m", "t", "p"} {
		v, ok := strings.CutPrefix(params[i], key+"=")
		if !ok {
			return h, fmt.Errorf("account: password hash parameters %q: want m=N,t=N,p=N", parts[0])
		}
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || v != strconv.FormatUint(n, 10) {
			return h, fmt.Errorf("account: password hash parameter %s=%q: want a whole number", key, v)
		}
		vals[i] = n
	}
	h.Memory, h.Time = uint32(vals[0]), uint32(vals[1])
	switch {
	case vals[2] < 1 || vals[2] > 255:
		return h, fmt.Errorf("account: password hash parameter p=%d: want 1 to 255", vals[2])
	case h.Time < 1 || h.Time > maxTime:
		return h, fmt.Errorf("account: password hash parameter t=%d: want 1 to %d", h.Time, maxTime)
	case h.Memory < 8*uint32(vals[2]) || h.Memory > maxMemory:
		return h, fmt.Errorf("account: password hash parameter m=%d: want %d to %d KiB", h.Memory, 8*vals[2], maxMemory)
	}
	h.Threads = uint8(vals[2])
	var err error
	b64 := base64.RawStdEncoding.Strict()
	if h.Salt, err = b64.DecodeString(parts[1]); err != nil || !isBase64(parts[1]) || len(h.Salt) < minSaltLen || len(h.Salt) > maxSaltLen {
		return h, fmt.Errorf("account: password hash salt %q: want %d to %d bytes in unpadded base64", parts[1], minSaltLen, maxSaltLen)
	}
	if h.Key, err = b64.DecodeString(parts[2]); err != nil || !isBase64(parts[2]) || len(h.Key) < minKeyLen || len(h.Key) > maxKeyLen {
		return h, fmt.Errorf("account: password hash %q: want %d to %d bytes in unpadded base64", parts[2], minKeyLen, maxKeyLen)
	}
	h.SaltLen, h.KeyLen = uint32(len(h.Salt)), uint32(len(h.Key))
	return h, nil
}

// isBase64 reports whether s holds only characters of the standard base64
// alphabet: the decoder skips line breaks, which a stored hash never has.
func isBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// checkParams checks the parameters a Config gives for new hashes.
func checkParams(p Params) error {
	s := Hash{Params: p, Salt: make([]byte, p.SaltLen), Key: make([]byte, p.KeyLen)}.String()
	_, err := ParseHash(s)
	return err
}

// weaker reports whether h was made with less than p asks.
func (h Hash) weaker(p Params) bool {
	return h.Memory < p.Memory || h.Time < p.Time || h.Threads < p.Threads || h.SaltLen < p.SaltLen || h.KeyLen < p.KeyLen
}

// idKey is argon2id; a variable so that a test can count the hashes
// running at once.
var idKey = argon2.IDKey

// hasher hashes passwords with argon2id, at most cap(slots) at once and
// at most cap(queue) waiting for a slot.
type hasher struct {
	params Params
	slots  chan struct{}
	queue  chan struct{}
	dummy  Hash // hashed against for an unknown name
}

// newHasher returns a hasher of the given parameters and bounds.
func newHasher(p Params, concurrency, waiters int) (*hasher, error) {
	if err := checkParams(p); err != nil {
		return nil, err
	}
	h := &hasher{params: p, slots: make(chan struct{}, concurrency), queue: make(chan struct{}, concurrency+waiters)}
	var pw [32]byte
	rand.Read(pw[:])
	salt := make([]byte, p.SaltLen)
	rand.Read(salt)
	h.dummy = Hash{Params: p, Salt: salt, Key: argon2.IDKey(pw[:], salt, p.Time, p.Memory, p.Threads, p.KeyLen)}
	return h, nil
}

// key runs argon2id once a slot is free: EUNAVAILABLE at once if too many
// wait already, or when ctx ends first.
func (h *hasher) key(ctx context.Context, password []byte, p Hash) ([]byte, error) {
	select {
	case h.queue <- struct{}{}:
	default:
		return nil, Errorf(EUNAVAILABLE, "too many passwords are being checked at once; try again in a moment")
	}
	defer func() { <-h.queue }()
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, &Error{Code: EUNAVAILABLE, Message: "gave up waiting to check the password", err: ctx.Err()}
	}
	defer func() { <-h.slots }()
	return idKey(password, p.Salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

// hash returns the PHC string of a new hash of password.
func (h *hasher) hash(ctx context.Context, password []byte) (string, error) {
	n := Hash{Params: h.params, Salt: make([]byte, h.params.SaltLen)}
	rand.Read(n.Salt)
	key, err := h.key(ctx, password, n)
	if err != nil {
		return "", err
	}
	n.Key = key
	return n.String(), nil
}

// verify reports whether password matches the PHC string stored, and
// whether it should be hashed again with the current parameters. An
// empty stored hash (an unknown name, or an account without a password)
// is checked against the dummy hash all the same, and does not match.
func (h *hasher) verify(ctx context.Context, stored string, password []byte) (ok, rehash bool, err error) {
	want, real := h.dummy, false
	if stored != "" {
		if want, err = ParseHash(stored); err != nil {
			return false, false, err
		}
		real = true
	}
	got, err := h.key(ctx, password, want)
	if err != nil {
		return false, false, err
	}
	match := subtle.ConstantTimeCompare(got, want.Key) == 1
	return match && real, match && real && want.weaker(h.params), nil
}

// password checks a password's length and normalises it (PRECIS
// OpaqueString, RFC 8265): an EINVALID error that says what is wrong.
func password(s string) ([]byte, error) {
	if len(s) > MaxPassword {
		return nil, Errorf(EINVALID, "password of %d bytes: at most %d", len(s), MaxPassword)
	}
	if n := utf8.RuneCountInString(s); n < MinPassword {
		return nil, Errorf(EINVALID, "password of %d characters: at least %d", n, MinPassword)
	}
	if !utf8.ValidString(s) {
		return nil, Errorf(EINVALID, "password is not UTF-8")
	}
	b, err := precis.OpaqueString.Bytes([]byte(s))
	if err != nil {
		for _, r := range s {
			if _, err := precis.OpaqueString.String(string(r)); err != nil {
				return nil, Errorf(EINVALID, "password has U+%04X, which a password cannot have (a control or unassigned character)", r)
			}
		}
		return nil, Errorf(EINVALID, "password cannot be normalised (RFC 8265 OpaqueString)")
	}
	return b, nil
}

// HashLoad returns how many password hashes are running and how many
// wait for their turn (for the server's metrics).
func (s *Service) HashLoad() (running, waiting int) {
	running = len(s.hash.slots)
	return running, max(len(s.hash.queue)-running, 0)
}
