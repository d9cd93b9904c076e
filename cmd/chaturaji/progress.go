package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws a progress bar on a terminal, redrawn in place at most ten
// times a second. When off, it draws nothing.
type progress struct {
	w     io.Writer
	on    bool
	what  string
	total int
	last  time.Time
}

const barWidth = 30

// update shows that done of the total are done.
func (p *progress) update(done int) {
	if !p.on || (done < p.total && time.Since(p.last) < 100*time.Millisecond) {
		return
	}
	p.last = time.Now()
	full := barWidth * done / max(p.total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s", strings.Repeat("#", full), strings.Repeat(".", barWidth-full), done, p.total, p.what)
}

// finish clears the bar's line.
func (p *progress) finish() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", barWidth+len(p.what)+30))
	}
}
