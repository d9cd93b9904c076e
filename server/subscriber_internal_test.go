package server

import "testing"

// TestSlowSubscriberDropped checks that the loop never waits for a
// subscriber: one whose buffer is full is dropped, keeps what it had, and
// is told why.
func TestSlowSubscriberDropped(t *testing.T) {
	s := New(Config{Buffer: 2}, nil, nil)
	l := &live{srv: s, subs: make(map[*subscriber]struct{})}
	slow := &subscriber{seat: -1, ch: make(chan []byte, s.cfg.Buffer)}
	fast := &subscriber{seat: -1, ch: make(chan []byte, 10)}
	l.subs[slow], l.subs[fast] = struct{}{}, struct{}{}
	for _, e := range []string{"1", "2", "3"} {
		l.publish([]byte(e))
	}
	if _, ok := l.subs[slow]; ok {
		t.Fatal("the slow subscriber is still subscribed")
	}
	if slow.why != reasonSlow {
		t.Fatalf("dropped for %v, want reasonSlow", slow.why)
	}
	var got []string
	for e := range slow.ch {
		got = append(got, string(e))
	}
	if len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Fatalf("the slow subscriber kept %q, want 1 and 2", got)
	}
	if len(fast.ch) != 3 {
		t.Fatalf("the fast subscriber has %d events, want 3", len(fast.ch))
	}
}
