package nn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unicode/utf8"
)

// The weights file, all numbers little-endian:
//
//	magic    "chaturaji-nn" and a version byte (1)
//	flags    a byte: 1 for a residual network, else 0
//	preset   uint16 length, then the name's bytes
//	note     uint16 length, then the note's bytes (UTF-8)
//	sizes    uint32 inputs, hidden1, hidden2, outputs
//	scale    float32
//	weights  float32 W1, B1, W2, B2, W3, B3, in the order of Net's fields
//	check    uint32 CRC-32 (IEEE) of everything before it
//
// The inputs and outputs must be this package's NumInputs and NumOutputs:
// a file written for another encoding is refused.
const (
	magic   = "chaturaji-nn"
	version = 1
	// maxName and maxNote bound the preset's name and the note.
	maxName = 64
	maxNote = 4096
)

// MarshalBinary returns the network as a weights file.
func (n *Net) MarshalBinary() ([]byte, error) {
	if len(n.Preset) > maxName || len(n.Note) > maxNote {
		return nil, errors.New("nn: preset name or note too long")
	}
	b := append([]byte(magic), version, 0)
	if n.Residual {
		b[len(b)-1] = 1
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(n.Preset)))
	b = append(b, n.Preset...)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(n.Note)))
	b = append(b, n.Note...)
	for _, x := range []int{NumInputs, n.Hidden1, n.Hidden2, NumOutputs} {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(n.Scale))
	for _, ps := range n.Params() {
		for _, x := range ps {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// Parse reads a weights file. It checks the magic, the version, the sizes
// against this package's encoding, the length, the checksum, and that
// every weight is finite.
func Parse(data []byte) (*Net, error) {
	r := reader{b: data}
	if string(r.next(len(magic))) != magic {
		return nil, errors.New("nn: not a weights file")
	}
	if v := r.next(1); len(v) == 1 && v[0] != version {
		return nil, fmt.Errorf("nn: weights file version %d, want %d", v[0], version)
	}
	flags := r.next(1)
	if len(flags) == 1 && flags[0] > 1 {
		return nil, fmt.Errorf("nn: unknown flags %#x", flags[0])
	}
	preset := string(r.next(int(r.u16())))
	note := string(r.next(int(r.u16())))
	inputs, h1, h2, outputs := r.u32(), r.u32(), r.u32(), r.u32()
	scale := math.Float32frombits(r.u32())
	if r.short {
		return nil, errors.New("nn: weights file cut short")
	}
	switch {
	case len(preset) > maxName || len(note) > maxNote || !utf8.ValidString(preset) || !utf8.ValidString(note):
		return nil, errors.New("nn: bad preset name or note")
	case int(inputs) != NumInputs || int(outputs) != NumOutputs:
		return nil, fmt.Errorf("nn: weights for %d inputs and %d outputs, want %d and %d", inputs, outputs, NumInputs, NumOutputs)
	case h1 < 1 || h1 > MaxHidden1 || h2 < 1 || h2 > MaxHidden2:
		return nil, fmt.Errorf("nn: hidden layers of %d and %d units: want 1..%d and 1..%d", h1, h2, MaxHidden1, MaxHidden2)
	}
	weights := NumInputs*int(h1) + int(h1) + int(h1*h2) + int(h2) + int(h2)*NumOutputs + NumOutputs
	if rest := len(data) - r.off; rest != 4*weights+4 {
		return nil, fmt.Errorf("nn: weights file of %d bytes, want %d", len(data), r.off+4*weights+4)
	}
	n, err := New(int(h1), int(h2))
	if err != nil {
		return nil, err
	}
	n.Preset, n.Note, n.Scale, n.Residual = preset, note, scale, flags[0] == 1
	for _, ps := range n.Params() {
		for i := range ps {
			ps[i] = math.Float32frombits(r.u32())
		}
	}
	sum := r.u32()
	switch {
	case sum != crc32.ChecksumIEEE(data[:r.off-4]):
		return nil, errors.New("nn: weights file checksum mismatch")
	case !n.finite():
		return nil, errors.New("nn: a weight is not a finite number")
	}
	return n, nil
}

// reader reads a weights file; short records that it ran out of bytes,
// after which it returns zeros.
type reader struct {
	b     []byte
	off   int
	short bool
}

func (r *reader) next(n int) []byte {
	if r.short || n > len(r.b)-r.off {
		r.short = true
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u16() uint16 {
	if s := r.next(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if s := r.next(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}
