package keyfile_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/keyfile"
)

const (
	signing = "signing-key ed25519 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
	seed    = "seed-key aes-256-gcm 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	cluster = "cluster-key hmac-sha256 202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
)

func TestParse(t *testing.T) {
	k, err := keyfile.Parse([]byte("# keys\n\n" + signing + "  # the server's\n" + seed + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	// RFC 8032's first test vector: this seed's public key.
	if got := hex.EncodeToString(k.Public()); got != "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a" {
		t.Errorf("public key %s", got)
	}
	if k.Seed[0] != 0 || k.Seed[31] != 0x1f {
		t.Errorf("seed key %x", k.Seed)
	}
	if k.Cluster != nil {
		t.Errorf("a file without a cluster key has cluster key %x", k.Cluster)
	}
	k, err = keyfile.Parse([]byte(cluster + "\n" + signing + "\n" + seed + "\n"))
	if err != nil || len(k.Cluster) != 32 || k.Cluster[0] != 0x20 || k.Cluster[31] != 0x3f {
		t.Errorf("a file with a cluster key: %v, cluster key %x", err, k.Cluster)
	}
	for _, tc := range []struct{ text, want string }{
		{"", "no signing-key line"},
		{signing, "no seed-key line"},
		{seed, "no signing-key line"},
		{signing + "\n" + signing + "\n" + seed, "line 2: a second signing-key"},
		{signing + "\n" + seed + "\n" + seed, "line 3: a second seed-key"},
		{signing + "\n" + seed + "\n" + cluster + "\n" + cluster, "line 4: a second cluster-key"},
		{signing + "\n" + seed + "\n" + strings.Replace(cluster, "hmac-sha256", "hmac-sha1", 1), "line 3: cluster-key hmac-sha1: want"},
		{signing + "\n" + seed + "\n" + cluster[:len(cluster)-2], "line 3: cluster-key: the key must be 64 lower-case hexadecimal digits"},
		{signing + "\n" + strings.Replace(seed, "aes-256-gcm", "aes-128-gcm", 1), "line 2: seed-key aes-128-gcm: want"},
		{signing + " extra\n" + seed, "line 1: want NAME ALGORITHM KEY"},
		{signing[:len(signing)-2] + "\n" + seed, "line 1: signing-key: the key must be 64 lower-case hexadecimal digits"},
		{strings.ToUpper(signing[:30]) + signing[30:] + "\n" + seed, "line 1: SIGNING-KEY"},
		{strings.Replace(signing, "9d61", "9D61", 1) + "\n" + seed, "lower-case"},
	} {
		if _, err := keyfile.Parse([]byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "keyfile: ") {
			t.Errorf("Parse(%q): %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

func TestCreateAndLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.key")
	k, created, err := keyfile.LoadOrCreate(path)
	if err != nil || !created {
		t.Fatalf("LoadOrCreate of a new file: %v, created %v", err, created)
	}
	if info, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Fatalf("the new file: %v, %v", info.Mode(), err)
	}
	if len(k.Cluster) != 32 {
		t.Fatalf("a new key file's cluster key: %x", k.Cluster)
	}
	again, created, err := keyfile.LoadOrCreate(path)
	if err != nil || created || !again.Signing.Equal(k.Signing) || again.Seed != k.Seed || !bytes.Equal(again.Cluster, k.Cluster) {
		t.Fatalf("LoadOrCreate of the file: %v, created %v, same keys %v", err, created, again != nil && again.Signing.Equal(k.Signing))
	}
	if _, err := keyfile.Create(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create over the file: %v, want it refused", err)
	}
	if other := keyfile.New(); other.Signing.Equal(k.Signing) || other.Seed == k.Seed || bytes.Equal(other.Cluster, k.Cluster) {
		t.Fatal("two new keys are the same")
	}
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o644)
		if _, err := keyfile.Load(path); !errors.Is(err, keyfile.ErrOpen) || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("Load of a file others may read: %v", err)
		}
	}
	if _, err := keyfile.Load(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of no file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	os.WriteFile(bad, []byte(signing+"\n"), 0o600)
	if _, err := keyfile.Load(bad); err == nil || !strings.Contains(err.Error(), bad+": keyfile: no seed-key line") {
		t.Errorf("Load of a file without the seed key: %v", err)
	}
}

// TestLoadNotAFile: what is not a regular file is refused as such, not
// taken for a key file open to others (/dev/zero's mode is 0666), nor read
// without end.
func TestLoadNotAFile(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	big := filepath.Join(dir, "big.key")
	if err := os.WriteFile(big, make([]byte, keyfile.MaxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{dir, dir + " is a directory, not a key file"},
		{"/dev/zero", "/dev/zero is a device, not a key file"},
		{"/dev/null", "/dev/null is a device, not a key file"},
		{big, big + " is larger than 16384 bytes, the most a key file holds"},
	} {
		if _, err := os.Stat(tc.path); err != nil {
			t.Fatal(err)
		}
		_, err := keyfile.Load(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "chmod") || errors.Is(err, keyfile.ErrOpen) {
			t.Errorf("Load(%s): %v, want an error saying %q", tc.path, err, tc.want)
		}
	}
}

// FuzzParse: any text is refused with a "keyfile:" error or holds keys
// that Marshal writes in a form Parse reads back the same.
func FuzzParse(f *testing.F) {
	f.Add(signing + "\n" + seed + "\n")
	f.Add(string(keyfile.New().Marshal()))
	f.Add(signing + "\n" + signing)
	f.Add("# only a comment")
	f.Add(seed + " # x\n\n" + signing)
	f.Add(signing + "\n" + seed + "\n" + cluster)
	f.Fuzz(func(t *testing.T, text string) {
		k, err := keyfile.Parse([]byte(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "keyfile: ") {
				t.Fatalf("%q: error %q lacks the package name", text, err)
			}
			return
		}
		back, err := keyfile.Parse(k.Marshal())
		if err != nil || !back.Signing.Equal(k.Signing) || back.Seed != k.Seed || !bytes.Equal(back.Cluster, k.Cluster) {
			t.Fatalf("%q: its keys written as %q read back as %v, %v", text, k.Marshal(), back, err)
		}
	})
}

// TestAddCluster checks that a key file made before the cluster key
// existed still loads, without one, and that AddCluster adds one at its
// end, once, keeping the other keys and the file's mode.
func TestAddCluster(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.key")
	if err := os.WriteFile(path, []byte("# an old key file\n"+signing+"\n"+seed), 0o600); err != nil { // no final newline
		t.Fatal(err)
	}
	old, err := keyfile.Load(path)
	if err != nil || old.Cluster != nil {
		t.Fatalf("Load of an old key file: %v, cluster key %x", err, old.Cluster)
	}
	k, added, err := keyfile.AddCluster(path)
	if err != nil || !added || len(k.Cluster) != 32 || !k.Signing.Equal(old.Signing) || k.Seed != old.Seed {
		t.Fatalf("AddCluster: %v, added %v, cluster key %x", err, added, k.Cluster)
	}
	back, err := keyfile.Load(path)
	if err != nil || !bytes.Equal(back.Cluster, k.Cluster) || !back.Signing.Equal(old.Signing) || back.Seed != old.Seed {
		t.Fatalf("Load after AddCluster: %v, cluster key %x, want %x", err, back.Cluster, k.Cluster)
	}
	again, added, err := keyfile.AddCluster(path)
	if err != nil || added || !bytes.Equal(again.Cluster, k.Cluster) {
		t.Fatalf("AddCluster of a file with a cluster key: %v, added %v, cluster key %x, want %x", err, added, again.Cluster, k.Cluster)
	}
	if info, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Fatalf("the file after AddCluster: %v, %v", info.Mode(), err)
	}
	if _, _, err := keyfile.AddCluster(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("AddCluster of no file: %v", err)
	}
}
