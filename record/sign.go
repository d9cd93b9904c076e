package record

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// The tags of a signed record.
const (
	// SignerTag holds the public key that signed the record, in hex.
	SignerTag = "Signer"
	// SignatureTag holds the ed25519 signature of SignedBytes, in hex; it
	// is the record's last tag.
	SignatureTag = "Signature"
)

// signedPrefix begins the bytes a record's signature signs, so that a
// signature of a record can never pass for a signature of anything else
// the key signs.
const signedPrefix = "chaturaji record signature v1\n"

// SignedBytes returns what a record's signature signs: signedPrefix, then
// the record in canonical form (String) without its Signature tag. Layout
// (blank lines, line ends, comments, the turns' line breaks) is not signed,
// since the canonical form rebuilds it; every tag but Signature, in its
// order and with its value, and every turn are.
func (r *Record) SignedBytes() []byte {
	c := *r
	c.Tags = append(Tags(nil), r.Tags...)
	c.Tags.Delete(SignatureTag)
	return []byte(signedPrefix + c.String())
}

// Sign signs the record with key: it sets the Signer tag to key's public
// key and then the Signature tag, last, to the signature of SignedBytes.
// Any earlier Signer and Signature tags are replaced.
func (r *Record) Sign(key ed25519.PrivateKey) {
	r.Tags.Delete(SignatureTag)
	r.Tags.Delete(SignerTag)
	r.Tags.Set(SignerTag, FormatPublicKey(key.Public().(ed25519.PublicKey)))
	sig := ed25519.Sign(key, r.SignedBytes())
	r.Tags.Set(SignatureTag, hex.EncodeToString(sig))
}

// CheckSignature checks that the Signature tag is key's signature of the
// record's SignedBytes, and that the Signer tag, if present, names key. An
// error is an *Error naming the tag.
func (r *Record) CheckSignature(key ed25519.PublicKey) error {
	return r.checkSignature(key, r.SignedBytes)
}

// checkSignature is CheckSignature of the bytes signed returns.
func (r *Record) checkSignature(key ed25519.PublicKey, signed func() []byte) error {
	want := FormatPublicKey(key)
	if signer, ok := r.Tags.Get(SignerTag); ok && signer != want {
		return r.tagError(SignerTag, signer, fmt.Errorf("the record says this key signed it, not %s", want))
	}
	s, ok := r.Tags.Get(SignatureTag)
	if !ok {
		return r.tagError(SignatureTag, "", errors.New("no Signature tag: the record is not signed"))
	}
	sig, err := hex.DecodeString(s)
	if err != nil || len(sig) != ed25519.SignatureSize || strings.ToLower(s) != s {
		return r.tagError(SignatureTag, s, fmt.Errorf("a signature is %d lower-case hexadecimal digits", 2*ed25519.SignatureSize))
	}
	if !ed25519.Verify(key, signed(), sig) {
		return r.tagError(SignatureTag, s, fmt.Errorf("not a signature of this record by %s: the record was changed after it was signed, or another key signed it", want))
	}
	return nil
}

// ReadHeader returns the tags of a record written as String writes it:
// the tag lines at the start of text, up to its first blank line or its
// end. It reads nothing after them, and so checks no movetext. An error is
// an *Error naming the line.
func ReadHeader(text string) (Tags, error) {
	r, _, err := readHeader(text)
	if err != nil {
		return nil, err
	}
	return r.Tags, nil
}

// readHeader is ReadHeader, with the lines of the tags, and the offset in
// text of the last tag's line.
func readHeader(text string) (r *Record, last int, err error) {
	r = &Record{src: source{game: 1, tags: map[string]int{}}}
	for n, at := 1, 0; at < len(text); n++ {
		line, _, _ := strings.Cut(text[at:], "\n")
		if line == "" {
			break
		}
		t, err := parseTag(line)
		if err != nil {
			return nil, 0, &Error{Game: 1, Line: n, Err: err}
		}
		if first, dup := r.src.tags[t.Name]; dup {
			return nil, 0, &Error{Game: 1, Line: n, Err: fmt.Errorf("tag %s given twice (first on line %d)", t.Name, first)}
		}
		r.Tags = append(r.Tags, t)
		r.src.tags[t.Name] = n
		last = at
		at += len(line) + 1
	}
	if len(r.Tags) == 0 {
		return nil, 0, &Error{Game: 1, Line: 1, Err: errors.New("no tag pairs: a record starts with its tags, such as [Rules \"chaturaji\"]")}
	}
	return r, last, nil
}

// CheckSignedText checks that text is, byte for byte, one record as
// String writes it once Sign has signed it with key: its Signature tag,
// the last of its header, is key's signature of the rest of the text
// (SignedBytes), and its Signer tag, if present, names key. It reads the
// header alone (ReadHeader): the signature covers every other byte, so a
// text that passes is one key signed, and it costs one signature check
// rather than a parse, for the holder of many signed records to check
// them as it serves them. An error is an *Error naming the line or tag.
func CheckSignedText(text string, key ed25519.PublicKey) error {
	r, last, err := readHeader(text)
	if err != nil {
		return err
	}
	if t := r.Tags[len(r.Tags)-1]; t.Name != SignatureTag {
		if _, ok := r.Tags.Get(SignatureTag); ok {
			return r.tagError(SignatureTag, "", errors.New("the Signature tag is not the last tag, where Sign puts it"))
		}
		return r.tagError(SignatureTag, "", errors.New("no Signature tag: the record is not signed"))
	}
	end := last + strings.IndexByte(text[last:], '\n') + 1
	if end == last {
		return r.tagError(SignatureTag, "", errors.New("the Signature line does not end with a line break, as String ends every line"))
	}
	return r.checkSignature(key, func() []byte { return []byte(signedPrefix + text[:last] + text[end:]) })
}

// FormatPublicKey returns a public key as records and the server write it:
// 64 lower-case hexadecimal digits.
func FormatPublicKey(key ed25519.PublicKey) string { return hex.EncodeToString(key) }

// ParsePublicKey reads a public key written as FormatPublicKey writes it.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize || strings.ToLower(s) != s {
		// Not s: what was given in a key's place may be a secret.
		return nil, fmt.Errorf("record: invalid public key (%d characters): want %d lower-case hexadecimal digits", len(s), 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}
