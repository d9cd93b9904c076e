package nn_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai/nn"
)

func marshal(t testing.TB, n *nn.Net) []byte {
	t.Helper()
	b, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWeightsRoundTrip(t *testing.T) {
	n := randomNet(16, 4, 9)
	n.Preset, n.Note, n.Residual = "chaturaji", "chaturaji train --seed 1", true
	b := marshal(t, n)
	m, err := nn.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Preset != n.Preset || m.Note != n.Note || m.Hidden1 != 16 || m.Hidden2 != 4 || m.Scale != n.Scale || !m.Residual {
		t.Fatalf("header: got %q %q %d %d %v", m.Preset, m.Note, m.Hidden1, m.Hidden2, m.Scale)
	}
	if !bytes.Equal(marshal(t, m), b) {
		t.Fatal("marshalling the parsed network gives other bytes")
	}
}

// reseal recomputes the checksum of a changed weights file.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

func TestParseRefuses(t *testing.T) {
	good := marshal(t, tinyNet(t))
	// The sizes start after the magic, the version, the flags and two
	// empty strings.
	sizes := len("chaturaji-nn") + 1 + 1 + 2 + 2
	weights := sizes + 16 + 4
	for _, c := range []struct {
		name string
		data func() []byte
		want string
	}{
		{"empty", func() []byte { return nil }, "not a weights file"},
		{"another magic", func() []byte { b := bytes.Clone(good); b[0] = 'x'; return b }, "not a weights file"},
		{"a later version", func() []byte { b := bytes.Clone(good); b[12] = 2; return b }, "version 2"},
		{"unknown flags", func() []byte { b := bytes.Clone(good); b[13] = 2; return reseal(b) }, "flags"},
		{"cut in the header", func() []byte { return good[:sizes+3] }, "cut short"},
		{"cut in the weights", func() []byte { return good[:len(good)-9] }, "want"},
		{"a byte too many", func() []byte { return append(bytes.Clone(good), 0) }, "want"},
		{"a flipped bit", func() []byte { b := bytes.Clone(good); b[weights+1] ^= 1; return b }, "checksum"},
		{"another encoding's inputs", func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[sizes:], uint32(nn.NumInputs+1))
			return reseal(b)
		}, "inputs"},
		{"a hidden layer too wide", func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[sizes+4:], nn.MaxHidden1+1)
			return reseal(b)
		}, "hidden"},
		{"a weight not a number", func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[weights:], math.Float32bits(float32(math.NaN())))
			return reseal(b)
		}, "finite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := nn.Parse(c.data())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// marshals back to the same bytes.
func FuzzParse(f *testing.F) {
	f.Add(marshal(f, tinyNet(f)))
	n := randomNet(3, 2, 1)
	n.Preset, n.Note = "chaturaji-teams", "a note"
	f.Add(marshal(f, n))
	f.Add([]byte("chaturaji-nn\x01"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := nn.Parse(data)
		if err != nil {
			return
		}
		b, err := n.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, data) {
			t.Fatal("round trip changed the bytes")
		}
	})
}
