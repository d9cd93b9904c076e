//go:build !linux

package main

import "syscall"

// childAttr is nothing on systems without a parent's death signal: the
// load test stops its nodes itself.
func childAttr() *syscall.SysProcAttr { return nil }
