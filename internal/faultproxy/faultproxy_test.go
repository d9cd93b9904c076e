package faultproxy_test

import (
	"bufio"
	"net"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/internal/faultproxy"
)

// echo starts a server that answers each line with the same line, and
// counts the lines it heard.
func echo(t *testing.T) (addr string, heard chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	heard = make(chan string, 100)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					heard <- line
					c.Write([]byte(line))
				}
			}()
		}
	}()
	return ln.Addr().String(), heard
}

// TestDropReplies checks the proxy's one fault: while it drops, the
// server still hears the client but the client hears nothing; at Restore
// the connection that lost an answer is cut, and a new one works.
func TestDropReplies(t *testing.T) {
	addr, heard := echo(t)
	p, err := faultproxy.New(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	say := func(line string) {
		t.Helper()
		if _, err := c.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	say("one")
	if got, err := r.ReadString('\n'); err != nil || got != "one\n" {
		t.Fatalf("before the fault: %q, %v", got, err)
	}
	<-heard

	p.DropReplies()
	say("two")
	if got := <-heard; got != "two\n" {
		t.Fatalf("the server heard %q during the fault, want two", got)
	}
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if got, err := r.ReadString('\n'); err == nil {
		t.Fatalf("the client heard %q during the fault", got)
	}
	if cut := p.Restore(); cut != 1 {
		t.Fatalf("Restore cut %d connections, want 1", cut)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadString('\n'); err == nil {
		t.Fatal("the connection that lost an answer still reads after Restore")
	}

	c2, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	c2.Write([]byte("three\n"))
	if got, err := bufio.NewReader(c2).ReadString('\n'); err != nil || got != "three\n" {
		t.Fatalf("after Restore: %q, %v", got, err)
	}
	if cut := p.Restore(); cut != 0 {
		t.Fatalf("a second Restore cut %d connections, want 0", cut)
	}
}
