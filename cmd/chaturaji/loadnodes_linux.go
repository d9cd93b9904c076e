package main

import "syscall"

// childAttr has the kernel kill a load test's nodes if the load test dies
// before it stops them.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
