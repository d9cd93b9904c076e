package record_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// testKey is the key that signs testdata/signed: anyone may sign with it.
var testKey = ed25519.NewKeyFromSeed(func() []byte { h := sha256.Sum256([]byte("chaturaji test signing key")); return h[:] }())

// testPublic is testKey's public key.
var testPublic = testKey.Public().(ed25519.PublicKey)

// mustOne parses a record file of one record.
func mustOne(t *testing.T, text string) *record.Record {
	t.Helper()
	recs, err := record.ParseString(text)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	return recs[0]
}

// genuine returns the finished self-played game of testdata/valid,
// signed with testKey.
func genuine(t *testing.T) *record.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "valid", "selfplay-1.cgn"))
	if err != nil {
		t.Fatal(err)
	}
	r := mustOne(t, string(data))
	r.Sign(testKey)
	return r
}

// clone copies a record deeply enough to change its tags and turns.
func clone(r *record.Record) *record.Record {
	c := &record.Record{Tags: slices.Clone(r.Tags)}
	for _, t := range r.Turns {
		t.Actions = slices.Clone(t.Actions)
		c.Turns = append(c.Turns, t)
	}
	return c
}

// moveChanged returns r with one action, as late in the game as possible,
// replaced by another legal one, such that the rest of the game is still
// legal with the same rolls and ends with the same result: a record
// whose dice, legality and result all check. It returns the turn (from 1).
func moveChanged(t *testing.T, r *record.Record) (*record.Record, int) {
	t.Helper()
	for i := len(r.Turns) - 1; i >= 0; i-- {
		if len(r.Turns[i].Actions) != 1 {
			continue
		}
		before := clone(r)
		before.Turns = before.Turns[:i]
		before.Tags.Delete("Result")
		bg, err := before.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if err := bg.PlayRoll(r.Turns[i].Roll); err != nil {
			t.Fatal(err)
		}
		var buf [rules.MaxActions]rules.Action
		for _, a := range bg.Position().Actions(buf[:]) {
			if a == r.Turns[i].Actions[0] {
				continue
			}
			c := clone(r)
			c.Turns[i].Actions[0] = a
			if _, err := c.Verify(nil); err == nil {
				return c, i + 1
			}
		}
	}
	t.Fatal("no action of the game can be replaced by another legal one with the same outcome")
	return nil, 0
}

// TestVerify checks what Verify proves of a record and how it names the
// first problem.
func TestVerify(t *testing.T) {
	signed := genuine(t)
	p, err := signed.Verify(testPublic)
	if err != nil {
		t.Fatalf("the genuine signed record: %v", err)
	}
	seed, _ := signed.Tags.Get("Seed")
	if p.Turns != len(signed.Turns) || p.Result != "2,54,13,10" || p.Rolls != len(signed.Turns) || p.Seed != seed || p.Signer != record.FormatPublicKey(testPublic) {
		t.Errorf("proof %+v", p)
	}
	changed, turn := moveChanged(t, signed)
	other := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	edit := func(f func(r *record.Record)) *record.Record {
		c := clone(signed)
		f(c)
		return c
	}
	for _, tc := range []struct {
		name  string
		rec   *record.Record
		key   ed25519.PublicKey
		proof bool   // Verify without a key proves it
		want  string // in the error with the key
	}{
		{"a legal move changed", changed, testPublic, true, `tag Signature`},
		{"a player's name changed", edit(func(r *record.Record) { r.Tags.Set("South", "mallory") }), testPublic, true, `the record was changed after it was signed`},
		{"a tag added", edit(func(r *record.Record) { r.Tags.Set("Event", "x") }), testPublic, true, `tag Signature`},
		{"the tags reordered", edit(func(r *record.Record) { r.Tags[1], r.Tags[2] = r.Tags[2], r.Tags[1] }), testPublic, true, `tag Signature`},
		{"another key", signed, other.Public().(ed25519.PublicKey), true, `tag Signer`},
		{"another key, no Signer tag", edit(func(r *record.Record) { r.Tags.Delete("Signer") }), other.Public().(ed25519.PublicKey), true, `another key signed it`},
		{"resigned by another key", edit(func(r *record.Record) { r.Sign(other) }), testPublic, true, `the record says this key signed it`},
		{"no signature", edit(func(r *record.Record) { r.Tags.Delete("Signature") }), testPublic, true, `no Signature tag`},
		{"a malformed signature", edit(func(r *record.Record) { r.Tags.Set("Signature", "00") }), testPublic, true, `128 lower-case hexadecimal digits`},
		{"truncated, no Result", edit(func(r *record.Record) { r.Turns = r.Turns[:8]; r.Tags.Delete("Result") }), nil, false, `tag Result: no Result tag after 8 turns`},
		{"truncated, Result *", edit(func(r *record.Record) { r.Turns = r.Turns[:8]; r.Tags.Set("Result", "*") }), nil, false, `tag Result "*": the game is not over after 8 turns`},
		{"truncated, the final Result kept", edit(func(r *record.Record) { r.Turns = r.Turns[:8] }), nil, false, `tag Result "2,54,13,10": the game's result is "*"`},
		{"a Result that is not the game's", edit(func(r *record.Record) { r.Tags.Set("Result", "54,2,13,10") }), nil, false, `tag Result "54,2,13,10": the game's result is "2,54,13,10"`},
		{"an illegal move", edit(func(r *record.Record) { r.Turns[3].Actions[0] = rules.MoveAction(7, 63) }), nil, false, `turn 4 "h1h8": illegal action`},
		{"a roll changed", edit(func(r *record.Record) { r.Turns[0].Roll, _ = rules.NewRoll(2); r.Turns[0].Actions = nil }), nil, false, `turn 1`},
		{"no Seed", edit(func(r *record.Record) { r.Tags.Delete("Seed") }), nil, false, `tag Seed: no Seed tag`},
		{"no SeedHash", edit(func(r *record.Record) { r.Tags.Delete("SeedHash") }), nil, false, `tag SeedHash: no SeedHash tag`},
		{"another seed's hash", edit(func(r *record.Record) { r.Tags.Set("SeedHash", rules.SeedFromInt(2).Commitment()) }), nil, false, `tag SeedHash`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.rec.Verify(nil)
			if tc.proof && err != nil {
				t.Fatalf("without a key: %v, want a proof (the dice cannot tell)", err)
			}
			if !tc.proof && err == nil {
				t.Fatal("without a key: proved")
			}
			_, err = tc.rec.Verify(tc.key)
			var re *record.Error
			if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Verify: %v, want a *record.Error with %q", err, tc.want)
			}
		})
	}
	t.Logf("turn %d of %d changed", turn, len(signed.Turns))
}

// TestSignatureSurvivesLayout checks that a signed record still verifies
// after its layout changes (line ends, comments, blanks), which the
// canonical form rebuilds, and after a round trip through its text.
func TestSignatureSurvivesLayout(t *testing.T) {
	text := genuine(t).String()
	loose := "; a comment\r\n" + strings.ReplaceAll(strings.ReplaceAll(text, "\n", "\r\n"), "  ", " \t ") + "\r\n\r\n"
	for name, s := range map[string]string{"canonical": text, "loose": loose} {
		r := mustOne(t, s)
		if err := r.CheckSignature(testPublic); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSignedBytes checks the bytes a signature signs against
// docs/notation.md: the prefix line, then the canonical record without the
// Signature tag, whatever its place.
func TestSignedBytes(t *testing.T) {
	r := mustOne(t, "[Rules \"chaturaji\"]\n[Signature \"ab\"]\n[Result \"*\"]\n\nb 5 d2d3  y 3 a7c6\n")
	want := "chaturaji record signature v1\n[Rules \"chaturaji\"]\n[Result \"*\"]\n\nb 5 d2d3  y 3 a7c6\n"
	if got := string(r.SignedBytes()); got != want {
		t.Fatalf("signed bytes\n%q\nwant\n%q", got, want)
	}
	r.Sign(testKey)
	if n := len(r.Tags); r.Tags[n-2].Name != "Signer" || r.Tags[n-1].Name != "Signature" {
		t.Fatalf("tags after Sign: %v", r.Tags)
	}
	sig, _ := r.Tags.Get("Signature")
	signed := "chaturaji record signature v1\n[Rules \"chaturaji\"]\n[Result \"*\"]\n[Signer \"" + record.FormatPublicKey(testPublic) + "\"]\n\nb 5 d2d3  y 3 a7c6\n"
	if !ed25519.Verify(testPublic, []byte(signed), mustHex(t, sig)) {
		t.Fatal("the signature does not sign the documented bytes")
	}
}

func TestParsePublicKey(t *testing.T) {
	s := record.FormatPublicKey(testPublic)
	if k, err := record.ParsePublicKey(s); err != nil || !k.Equal(testPublic) {
		t.Fatalf("ParsePublicKey(%s) = %x, %v", s, k, err)
	}
	for _, bad := range []string{"", s[:62], s + "00", strings.ToUpper(s), "x" + s[1:]} {
		if _, err := record.ParsePublicKey(bad); err == nil || !strings.HasPrefix(err.Error(), "record: ") {
			t.Errorf("ParsePublicKey(%q): %v", bad, err)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// signedFiles returns the records of testdata/signed, for the tests of
// `chaturaji verify` (cmd/chaturaji): the self-played game signed with
// testKey, and copies each changed in one way.
func signedFiles(t *testing.T) map[string]*record.Record {
	signed := genuine(t)
	changed, _ := moveChanged(t, signed)
	truncated := clone(signed)
	truncated.Turns = truncated.Turns[:8]
	truncated.Tags.Delete("Result")
	illegal := clone(signed)
	illegal.Turns[3].Actions[0] = rules.MoveAction(7, 63)
	result := clone(signed)
	result.Tags.Set("Result", "54,2,13,10")
	return map[string]*record.Record{
		"signed.cgn":       signed,
		"move-changed.cgn": changed,
		"truncated.cgn":    truncated,
		"illegal.cgn":      illegal,
		"result.cgn":       result,
	}
}

// TestSignedFiles keeps testdata/signed as signedFiles makes it (go test
// -update rewrites it), with the test key's public key in test-key.pub.
func TestSignedFiles(t *testing.T) {
	files := map[string]string{"test-key.pub": record.FormatPublicKey(testPublic) + "\n"}
	for name, r := range signedFiles(t) {
		files[name] = r.String()
	}
	for name, text := range files {
		path := filepath.Join("testdata", "signed", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want, err := os.ReadFile(path); err != nil || string(want) != text {
			t.Errorf("%s is not what the test makes (%v); run go test -update if that is intended", path, err)
		}
	}
}

// TestVerifyAborted checks the record of a game aborted in its first
// round: its dice, moves and signature are proved, and the proof says it
// has no result; a Termination tag cannot pass off a game the rules ended,
// nor a termination the notation does not know.
func TestVerifyAborted(t *testing.T) {
	signed := genuine(t)
	abort := func(term string, turns int) *record.Record {
		c := clone(signed)
		c.Turns = c.Turns[:turns]
		c.Tags.Set("Result", "*")
		c.Tags.Set(record.TerminationTag, term)
		c.Sign(testKey)
		return c
	}
	p, err := abort("aborted by West", 3).Verify(testPublic)
	if err != nil {
		t.Fatalf("an aborted game's record: %v", err)
	}
	if p.Termination != "aborted by West" || p.Result != "*" || p.Turns != 3 || p.Rolls != 3 || p.Signer == "" {
		t.Errorf("proof %+v: want 3 turns and rolls proved, aborted by West, no result, signed", p)
	}
	if _, err := abort("aborted", 1).Verify(nil); err != nil {
		t.Errorf("a game aborted after one turn: %v", err)
	}
	for _, tc := range []struct {
		name string
		rec  *record.Record
		want string
	}{
		{"a game the rules ended, said to be aborted", func() *record.Record {
			c := clone(signed)
			c.Tags.Set(record.TerminationTag, "aborted by South")
			return c
		}(), `tag Termination "aborted by South": the game is over after`},
		{"an unknown termination", abort("resigned by North", 3), `tag Termination "resigned by North": unknown termination`},
		{"an aborted game with a result", func() *record.Record {
			c := abort("aborted", 3)
			c.Tags.Set("Result", "0,0,0,0")
			return c
		}(), `tag Result "0,0,0,0"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.rec.Verify(nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Verify: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestCheckSignedText checks a signed record as text, byte for byte: the
// text Sign and String make passes, and so does the signed file of
// testdata; any change to it fails, each with an *Error naming what, even
// one the canonical form would rebuild (a comment, a line break), since
// the text is checked as it is, not parsed.
func TestCheckSignedText(t *testing.T) {
	text := genuine(t).String()
	data, err := os.ReadFile(filepath.Join("testdata", "signed", "signed.cgn"))
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"signed by Sign": text, "testdata/signed/signed.cgn": string(data)} {
		if err := record.CheckSignedText(s, testPublic); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	changed, err := os.ReadFile(filepath.Join("testdata", "signed", "move-changed.cgn"))
	if err != nil {
		t.Fatal(err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	unsigned := genuine(t)
	unsigned.Tags.Delete("Signature")
	signerLast := genuine(t)
	sig, _ := signerLast.Tags.Get("Signature")
	signerLast.Tags.Delete("Signature")
	signerLast.Tags = append(signerLast.Tags[:1], append(record.Tags{{Name: "Signature", Value: sig}}, signerLast.Tags[1:]...)...)
	tagsEnd := strings.Index(text, "\n\n") + 1
	for _, tc := range []struct {
		name, text string
		key        ed25519.PublicKey
		want       string
	}{
		{"a move changed", string(changed), testPublic, "tag Signature"},
		{"a tag changed", strings.Replace(text, `[Rules "chaturaji"]`, `[Rules "chaturaji+clock=100"]`, 1), testPublic, "tag Signature"},
		{"another key", text, other.Public().(ed25519.PublicKey), "tag Signer"},
		{"a comment added", text + "; a comment\n", testPublic, "tag Signature"},
		{"a line break added", text + "\n", testPublic, "tag Signature"},
		{"a blank added in movetext", strings.Replace(text, "  ", "   ", 1), testPublic, "tag Signature"},
		{"the last line break cut", strings.TrimSuffix(text, "\n"), testPublic, "tag Signature"},
		{"the header alone", text[:tagsEnd], testPublic, "tag Signature"},
		{"the Signature line without its line break", strings.TrimSuffix(text[:tagsEnd], "\n"), testPublic, "does not end with a line break"},
		{"not signed", unsigned.String(), testPublic, "no Signature tag"},
		{"the Signature not last", signerLast.String(), testPublic, "not the last tag"},
		{"a tag twice", `[Rules "chaturaji"]` + "\n" + text, testPublic, "line 2: tag Rules given twice"},
		{"a tag that does not read", "[Rules chaturaji]\n" + text, testPublic, "line 1: tag Rules"},
		{"nothing", "", testPublic, "no tag pairs"},
		{"movetext first", "b 5 d2d3\n\n" + text, testPublic, "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := record.CheckSignedText(tc.text, tc.key)
			var re *record.Error
			if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckSignedText: %v, want a *record.Error with %q", err, tc.want)
			}
		})
	}
}

// TestReadHeader checks that the header of a record is read as Parse reads
// it, and nothing after it.
func TestReadHeader(t *testing.T) {
	text := genuine(t).String()
	tags, err := record.ReadHeader(text + "this is no movetext\n")
	if err != nil || !slices.Equal(tags, mustOne(t, text).Tags) {
		t.Fatalf("ReadHeader: %v, %v", tags, err)
	}
}
