// Package keyfile keeps a game server's secret keys in a file of their own,
// apart from its database: the ed25519 key that signs finished games'
// records, the AES-256-GCM key that seals the dice seeds kept in the
// database, and the HMAC-SHA256 key with which the nodes of a cluster sign
// the requests they forward to each other (see docs/security.md). A copy
// of the database without this file shows no live game's seed, and only
// the holder of this file can sign as the server or as one of its nodes.
//
// The file is text, one key a line, comments after #:
//
//	# Chaturaji server keys: keep this file secret, and apart from the database.
//	signing-key ed25519 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60
//	seed-key aes-256-gcm 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
//	cluster-key hmac-sha256 202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
//
// the signing key as its 32-byte ed25519 seed (RFC 8032), each in lower-case
// hexadecimal. The cluster key may be missing (a file made before it
// existed): AddCluster adds one.
package keyfile

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
)

// Keys are a server's secret keys.
type Keys struct {
	// Signing signs the records of finished games; its public key is the
	// server's identity, which verifiers trust.
	Signing ed25519.PrivateKey
	// Seed is the AES-256-GCM key that seals the dice seeds in the
	// database (store.NewSeedKey).
	Seed [32]byte
	// Cluster is the HMAC-SHA256 key, 32 bytes, with which the nodes of a
	// cluster sign the requests they forward to each other
	// (server.Config.ClusterKey); every node has the same. Nil if the file
	// has none.
	Cluster []byte
}

// The names and algorithms of the file's lines.
const (
	signingName = "signing-key"
	signingAlg  = "ed25519"
	seedName    = "seed-key"
	seedAlg     = "aes-256-gcm"
	clusterName = "cluster-key"
	clusterAlg  = "hmac-sha256"
)

// header is the comment at the top of a file Create writes.
const header = `# Chaturaji server keys: keep this file secret (mode 0600), and apart from
# the database and its backups (docs/security.md). Without it the live
# games' seeds cannot be read, and the records cannot be signed as before.
# Every node of a cluster is given this same file.
`

// New returns new keys from the operating system's cryptographic source.
func New() *Keys {
	var k Keys
	seed := make([]byte, ed25519.SeedSize)
	rand.Read(seed) // never fails (crypto/rand: it crashes the program instead)
	k.Signing = ed25519.NewKeyFromSeed(seed)
	rand.Read(k.Seed[:])
	k.Cluster = newCluster()
	return &k
}

// newCluster returns a new cluster key.
func newCluster() []byte {
	key := make([]byte, 32)
	rand.Read(key)
	return key
}

// clusterLine is the line of a cluster key in the file.
func clusterLine(key []byte) string {
	return fmt.Sprintf("%s %s %s\n", clusterName, clusterAlg, hex.EncodeToString(key))
}

// Public returns the public key of the signing key.
func (k *Keys) Public() ed25519.PublicKey { return k.Signing.Public().(ed25519.PublicKey) }

// Marshal returns the keys as the file holds them.
func (k *Keys) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(header)
	fmt.Fprintf(&b, "%s %s %s\n", signingName, signingAlg, hex.EncodeToString(k.Signing.Seed()))
	fmt.Fprintf(&b, "%s %s %s\n", seedName, seedAlg, hex.EncodeToString(k.Seed[:]))
	if k.Cluster != nil {
		b.WriteString(clusterLine(k.Cluster))
	}
	return b.Bytes()
}

// Parse reads the keys of a key file: the signing key and the seed key,
// each once, the cluster key at most once, nothing else but blank lines
// and comments. An error names the line.
func Parse(data []byte) (*Keys, error) {
	var k Keys
	var haveSigning, haveSeed bool
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		lineErr := func(format string, args ...any) error {
			return fmt.Errorf("keyfile: line %d: %s", n, fmt.Sprintf(format, args...))
		}
		if len(f) != 3 {
			return nil, lineErr("want NAME ALGORITHM KEY, such as %s %s followed by 64 hexadecimal digits", signingName, signingAlg)
		}
		key, err := hex.DecodeString(f[2])
		if err != nil || len(key) != 32 || strings.ToLower(f[2]) != f[2] {
			return nil, lineErr("%s: the key must be 64 lower-case hexadecimal digits", f[0])
		}
		switch {
		case f[0] == signingName && f[1] == signingAlg:
			if haveSigning {
				return nil, lineErr("a second %s", signingName)
			}
			k.Signing, haveSigning = ed25519.NewKeyFromSeed(key), true
		case f[0] == seedName && f[1] == seedAlg:
			if haveSeed {
				return nil, lineErr("a second %s", seedName)
			}
			copy(k.Seed[:], key)
			haveSeed = true
		case f[0] == clusterName && f[1] == clusterAlg:
			if k.Cluster != nil {
				return nil, lineErr("a second %s", clusterName)
			}
			k.Cluster = key
		default:
			return nil, lineErr("%s %s: want %s %s, %s %s or %s %s", f[0], f[1], signingName, signingAlg, seedName, seedAlg, clusterName, clusterAlg)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	switch {
	case !haveSigning:
		return nil, fmt.Errorf("keyfile: no %s line", signingName)
	case !haveSeed:
		return nil, fmt.Errorf("keyfile: no %s line", seedName)
	}
	return &k, nil
}

// ErrOpen says a key file's permissions let others than its owner read or
// change it.
var ErrOpen = errors.New("keyfile: the key file is open to others than its owner")

// MaxSize is the most Load reads of a key file: one that Create writes
// holds some 330 bytes.
const MaxSize = 16 << 10

// Load reads the key file at path. It refuses what is not a regular file
// (a directory, a device such as /dev/zero), a file larger than MaxSize,
// and a file that others than its owner may read or write (ErrOpen),
// except on Windows, whose permissions Go does not show.
func Load(path string) (*Keys, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	if err := regular(path, info); err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s has mode %04o; chmod 600 %s", ErrOpen, path, info.Mode().Perm(), path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	if err := regular(path, info); err != nil { // replaced since os.Stat
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("keyfile: %s is larger than %d bytes, the most a key file holds: it is not a key file (chaturaji keygen makes one)", path, MaxSize)
	}
	k, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// regular returns an error if the file at path, described by info, is not
// a regular file: the key file is one, which chaturaji keygen makes.
func regular(path string, info fs.FileInfo) error {
	m := info.Mode()
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file (mode " + m.String() + ")"
	switch {
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("keyfile: %s is %s, not a key file: give the file chaturaji keygen wrote, or a new path for one", path, kind)
}

// Create writes new keys to a new file at path, readable by its owner
// only, synced to disk before it returns. It never overwrites a file.
func Create(path string) (*Keys, error) {
	k := New()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("keyfile: %w", err)
	}
	_, err = f.Write(k.Marshal())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("keyfile: writing %s: %w", path, err)
	}
	return k, nil
}

// LoadOrCreate loads the key file at path, or creates it if there is no
// file there, and reports whether it did.
func LoadOrCreate(path string) (k *Keys, created bool, err error) {
	k, err = Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err = Create(path)
		return k, err == nil, err
	}
	return k, false, err
}

// AddCluster loads the key file at path as Load does and, if it has no
// cluster key (it was made before there was one), adds a new one at its
// end, synced to disk before it returns; added says whether it did. The
// nodes of a cluster must share one key file: add the key once, then give
// the file to every node.
func AddCluster(path string) (k *Keys, added bool, err error) {
	k, err = Load(path)
	if err != nil || k.Cluster != nil {
		return k, false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("keyfile: %w", err)
	}
	key := newCluster()
	line := clusterLine(key)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		line = "\n" + line
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, false, fmt.Errorf("keyfile: adding a cluster key: %w", err)
	}
	_, err = f.WriteString(line)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, false, fmt.Errorf("keyfile: adding a cluster key to %s: %w", path, err)
	}
	k.Cluster = key
	return k, true, nil
}
