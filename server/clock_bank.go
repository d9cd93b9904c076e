package server

import (
	"slices"
	"time"

	"github.com/chaturaji/chaturaji/record"
)

// Banks. A table's clock is one of three: none; a time for each decision
// (turn_ms, from a second to a correspondence game's week); or a bank of
// time for each seat (bank_ms) with an increment or a simple delay, as
// chess players know it. record.TimeControl holds the arithmetic, which
// the records replay.
//
// A decision opens when its dice are rolled, so the roll costs nobody
// time. Its deadline, an absolute time in the event that opened it, is its
// opening plus what it may take (TimeControl.Allowed: the decider's bank
// and the delay). When it is taken, the time it used is what the clock
// counted: what it might take less what was left before the deadline, so
// that time given back for an outage (downtime.go), which moves the
// deadline on, costs nothing. The bank after it is TimeControl.Next of
// the one before. Each event of a bank table carries every seat's bank as
// of the decision it opens (Event.Banks), so a restart takes them up
// where they were; each action of a timed table carries the time its
// decision used (Event.UsedMS), which the record writes after it.

// timeControl returns the table's clock as records write it.
func (t Table) timeControl() record.TimeControl {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return record.TimeControl{Move: ms(t.TurnMS), Bank: ms(t.BankMS), Increment: ms(t.IncrementMS), Delay: ms(t.DelayMS)}
}

// timed reports whether the table has a clock.
func (t Table) timed() bool { return t.TurnMS > 0 || t.BankMS > 0 }

// checkBank checks a request's bank, increment and delay into t, whose
// TurnMS is set: a bank from minMS to a week, in place of a turn time,
// and an increment or a delay, up to a week, only with a bank.
func (ng *NewGame) checkBank(t *Table, minMS int64) error {
	switch {
	case ng.BankMS == 0 && (ng.IncrementMS != 0 || ng.DelayMS != 0):
		return Errorf(EINVALID, "increment_ms and delay_ms need a bank (bank_ms)")
	case ng.BankMS == 0:
		return nil
	case ng.BankMS < minMS || ng.BankMS > maxMS:
		return Errorf(EINVALID, "bank_ms %d: want 0 (no bank) or %d to %d", ng.BankMS, minMS, maxMS)
	case t.TurnMS != 0:
		return Errorf(EINVALID, "turn_ms and bank_ms both set: a table has a time for each decision or a bank, not both")
	case ng.IncrementMS < 0 || ng.IncrementMS > maxMS:
		return Errorf(EINVALID, "increment_ms %d: want 0 (none) to %d", ng.IncrementMS, maxMS)
	case ng.DelayMS < 0 || ng.DelayMS > maxMS:
		return Errorf(EINVALID, "delay_ms %d: want 0 (none) to %d", ng.DelayMS, maxMS)
	case ng.IncrementMS != 0 && ng.DelayMS != 0:
		return Errorf(EINVALID, "increment_ms and delay_ms both set: a bank has an increment or a delay, not both")
	}
	t.BankMS, t.IncrementMS, t.DelayMS = ng.BankMS, ng.IncrementMS, ng.DelayMS
	return nil
}

// startBanks returns every seat's bank at the start of a table's game, nil
// without a bank.
func startBanks(t Table, seats int) []int64 {
	if t.BankMS == 0 {
		return nil
	}
	b := make([]int64, seats)
	for i := range b {
		b[i] = t.BankMS
	}
	return b
}

// allowed returns how long a decision of seat i opening now may take.
func (l *live) allowed(i int) time.Duration {
	var bank time.Duration
	if i < len(l.banks) {
		bank = time.Duration(l.banks[i]) * time.Millisecond
	}
	return l.table.timeControl().Allowed(bank)
}

// used returns the time the open decision, of seat i, took until now: for
// a decision with a deadline, what its clock counted (outages given back
// left out); else the time since it opened.
func (l *live) used(i int, now time.Time) time.Duration {
	if l.deadline.IsZero() {
		return max(now.Sub(l.updated), 0)
	}
	return max(l.allowed(i)-max(l.deadline.Sub(now), 0), 0)
}

// charge counts the open decision of seat i, taken now, against the
// seat's bank, if it has a clock, and notes the time it used in its
// action event e.
func (l *live) charge(e *Event, i int, now time.Time) {
	if !l.table.timed() {
		return
	}
	used := l.used(i, now).Truncate(time.Millisecond) // as the event says it
	ms := used.Milliseconds()
	e.UsedMS = &ms
	if l.deadline.IsZero() || i >= len(l.banks) {
		return // a bot's, or one before the clocks started: no bank pays
	}
	tc := l.table.timeControl()
	l.banks[i] = tc.Next(time.Duration(l.banks[i])*time.Millisecond, used).Milliseconds()
}

// describeAt fills in the game after an event, with the deadline of the
// decision it opens and, at a bank table, every seat's bank.
func (l *live) describeAt(e *Event, deadline time.Time) {
	describe(e, l.game, deadline)
	if l.banks != nil {
		e.Banks = slices.Clone(l.banks)
	}
}

// recordTimes returns the time of each decision of a record's turns from
// times, the times of a game's actions in order (-1 where an action has
// none: a game stored before times were counted), nil if no action has
// one; a turn group with an action without a time has none.
func recordTimes(r *record.Record, times []int64) [][]time.Duration {
	if !slices.ContainsFunc(times, func(t int64) bool { return t >= 0 }) {
		return nil
	}
	out := make([][]time.Duration, len(r.Turns))
	k := 0
	for i, t := range r.Turns {
		if k+len(t.Actions) > len(times) {
			break
		}
		ts := make([]time.Duration, len(t.Actions))
		for j := range t.Actions {
			ts[j] = time.Duration(times[k+j]) * time.Millisecond
		}
		if !slices.ContainsFunc(times[k:k+len(t.Actions)], func(t int64) bool { return t < 0 }) {
			out[i] = ts // a group played before the server counted times has none
		}
		k += len(t.Actions)
	}
	return out
}
