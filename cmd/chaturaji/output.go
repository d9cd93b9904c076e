package main

import (
	"bufio"
	"os"
)

// output is where a command writes a file it was asked for with --out: the
// named file, or standard output for "-", buffered.
type output struct {
	*bufio.Writer
	f *os.File // nil for standard output
}

// createOutput creates the file at path, or takes standard output for "-".
func createOutput(e *env, path string) (*output, error) {
	if path == "-" {
		return &output{Writer: bufio.NewWriter(e.stdout)}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &output{Writer: bufio.NewWriter(f), f: f}, nil
}

// Close flushes what is buffered and closes the file (not standard
// output), returning the first error: a file is whole only if Close
// returns nil.
func (o *output) Close() error {
	err := o.Flush()
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		o.f = nil
	}
	return err
}
