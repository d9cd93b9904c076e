package server

import "testing"

// TestSlowSubscriberDropped checks that the loop never waits for a
// subscriber: one whose buffer is full is dropped, keeps what it had, and
// is told why.
func TestSlowSubscriberDropped(t *testing.T) {
	s := New(Config{Buffer: 2}, nil, nil)
	l := &live{srv: s, subs: make(map[*subscriber]struct{})}
	slow := newSubscriber(-1, s.cfg.Buffer)
	fast := newSubscriber(-1, 10)
	l.subs[slow], l.subs[fast] = struct{}{}, struct{}{}
	for _, e := range []string{"1", "2", "3"} {
		l.publish([]byte(e))
	}
	if _, ok := l.subs[slow]; ok {
		t.Fatal("the slow subscriber is still subscribed")
	}
	evs, ended, why := slow.take()
	if !ended || why != reasonSlow {
		t.Fatalf("ended %v for %v, want reasonSlow", ended, why)
	}
	var got []string
	for _, e := range evs {
		got = append(got, string(e))
	}
	if len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Fatalf("the slow subscriber kept %q, want 1 and 2", got)
	}
	if evs, ended, _ := fast.take(); len(evs) != 3 || ended {
		t.Fatalf("the fast subscriber has %d events, ended %v; want 3, not ended", len(evs), ended)
	}
}
