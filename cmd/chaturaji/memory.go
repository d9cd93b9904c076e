package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

// memoryPolicy sets how the Go runtime collects garbage in a process that
// serves games: with a soft memory limit of limit bytes, and without the
// collections GOGC paces by the live heap, so that the heap grows to the
// limit before the collector runs.
//
// By default the collector runs each time the heap has doubled what was
// live after the last collection. A server with a thousand live games
// keeps some 200 MB live and makes some 20 MB of garbage a second: it was
// collecting every ten seconds, each collection taking one of two cores
// for 0.2-0.3 s, and the moves broadcast meanwhile were late (in a load
// test, two thirds of those over 50 ms). The limit is the memory the
// operator gives the process anyway (serve's --bot-memory and
// --heap-headroom): collecting only near it uses that memory to collect
// seldom, and bounds the process as before, for once the live heap is
// over half the limit, the limit already decided when the collector ran.
//
// GOMEMLIMIT and GOGC in the environment, when set, win over it, each for
// its own part. It returns what it left to the environment, for the log:
// "" if nothing.
func memoryPolicy(limit int64) (left string) {
	switch {
	case os.Getenv("GOMEMLIMIT") != "" && os.Getenv("GOGC") != "":
		return "GOMEMLIMIT and GOGC"
	case os.Getenv("GOMEMLIMIT") != "":
		// Without a limit of ours, the collections GOGC paces are the only
		// bound on the heap: leave them.
		return "GOMEMLIMIT"
	}
	debug.SetMemoryLimit(limit)
	if os.Getenv("GOGC") != "" {
		return "GOGC"
	}
	debug.SetGCPercent(-1)
	return ""
}

// memoryPolicyNote says in a log line what memoryPolicy did.
func memoryPolicyNote(limit int64, left string) string {
	if left == "" {
		return fmt.Sprintf("the garbage collector runs as the process's memory nears %s", formatSize(limit))
	}
	return fmt.Sprintf("the garbage collector as %s set it (the default: run as the process's memory nears %s)", left, formatSize(limit))
}
