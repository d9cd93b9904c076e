// Command chaturaji plays, checks and measures games of Chaturaji, the
// four-player dice chess game, under the presets of the rules package.
//
// Usage:
//
//	chaturaji <command> [arguments]
//
// Run `chaturaji help` for the list of commands and `chaturaji <command> -h`
// for the usage of one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// command is one subcommand: its name, a one-line summary for the list, its
// help text and what it does.
type command struct {
	name    string
	summary string
	help    string
	run     func(env *env, args []string) error
}

// commands are the subcommands, in the order `chaturaji help` lists them.
var commands = []*command{
	movesCommand,
	perftCommand,
	applyCommand,
	selfplayCommand,
	replayCommand,
	rulesCommand,
	benchCommand,
	matchCommand,
	botRatingsCommand,
	trainCommand,
	tuneCommand,
	engineCommand,
	analyzeCommand,
	playersCommand,
	serveCommand,
	keygenCommand,
	exportCommand,
	verifyCommand,
	importCommand,
	loadtestCommand,
}

// env is what a command reads and writes.
type env struct {
	stdout, stderr   io.Writer
	stderrIsTerminal bool // show progress bars
}

func main() {
	fi, err := os.Stderr.Stat()
	e := &env{
		stdout:           os.Stdout,
		stderr:           os.Stderr,
		stderrIsTerminal: err == nil && fi.Mode()&os.ModeCharDevice != 0,
	}
	os.Exit(run(e, os.Args[1:]))
}

// run runs the command line args and returns the exit status: 0 on success,
// 2 for a usage error or invalid input, 1 for any other failure.
func run(e *env, args []string) int {
	if len(args) == 0 {
		listCommands(e.stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				fmt.Fprint(e.stdout, c.help)
				return 0
			}
			fmt.Fprintf(e.stderr, "chaturaji help: unknown command %q\n", args[1])
			return 2
		}
		listCommands(e.stdout)
		return 0
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(e.stderr, "chaturaji: unknown command %q; run 'chaturaji help' for the list\n", name)
		return 2
	}
	err := c.run(e, args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(e.stderr, "chaturaji %s: %v\n", c.name, err)
	var x *exitError
	if errors.As(err, &x) {
		if x.usage {
			fmt.Fprintf(e.stderr, "run 'chaturaji %s -h' for usage\n", c.name)
		}
		return x.code
	}
	return 1
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func listCommands(w io.Writer) {
	fmt.Fprint(w, "chaturaji plays, checks and measures games of Chaturaji, the four-player dice chess game.\n\nUsage:\n\n\tchaturaji <command> [arguments]\n\nThe commands are:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'chaturaji <command> -h' for more about a command.\n")
}

// exitError is an error with its own exit status.
type exitError struct {
	code  int
	usage bool // a mistake in the command line: point to the help
	err   error
}

func (e *exitError) Error() string { return e.err.Error() }

func (e *exitError) Unwrap() error { return e.err }

// usageError is a mistake in the command line: exit status 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, usage: true, err: fmt.Errorf(format, args...)}
}

// invalid marks an error in the input (a position, a token, a record): exit
// status 2.
func invalid(err error) error {
	return &exitError{code: 2, err: err}
}

// newFlagSet returns an empty flag set for the named command; parseFlags
// reports its errors.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("chaturaji "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args into fs: -h prints the command's help text on
// standard output (and the command stops with status 0); any other mistake
// is a usage error.
func parseFlags(e *env, fs *flag.FlagSet, help string, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, help)
		return err
	}
	if err != nil {
		return usageError("%v", err)
	}
	return nil
}
