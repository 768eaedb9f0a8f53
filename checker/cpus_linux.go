//go:build linux

package checker

import (
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// cpuSlots spreads the sessions over the CPUs this process may run on: each session's init binds
// itself and every program it runs to one CPU, the one with the fewest live sessions when the session
// starts. Programs that run at the same time then each keep a CPU of their own (a program that spins,
// or starts many threads, cannot take another's), and a run does not migrate between CPUs: on the
// virtual machine measured in BENCHMARKS.md a run in sequence takes about a tenth less time, and two
// at once a fifth less. A program sees one CPU (its Go runtime sets GOMAXPROCS to 1); its goroutines
// still run concurrently. Sessions are not bound when the process may use fewer CPUs than it can run
// on (GOMAXPROCS below the affinity mask's count, as under a container's CPU limit).
type cpuSlots struct {
	mu   sync.Mutex
	cpus []int // the CPUs of this process's affinity mask
	live []int // live sessions per entry of cpus
}

// unbound turns the binding off, for the benchmark that measures what it gives.
var unbound bool

var sessionCPUs = sync.OnceValue(func() *cpuSlots {
	c := &cpuSlots{}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return c
	}
	for cpu := 0; cpu < len(set)*64 && len(c.cpus) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			c.cpus = append(c.cpus, cpu)
		}
	}
	if runtime.GOMAXPROCS(0) < len(c.cpus) {
		// The process is to use only part of the CPUs it can run on (a container's CPU limit, or
		// GOMAXPROCS set lower): which CPUs are free is then the scheduler's to know.
		c.cpus = nil
	}
	c.live = make([]int, len(c.cpus))
	return c
})

// take chooses the CPU for a new session and counts the session on it. It returns the slot to
// release when the session ends and the CPU, or -1 for both when there is no choice to make (one CPU,
// or the mask could not be read).
func (c *cpuSlots) take() (slot, cpu int) {
	if len(c.cpus) < 2 || unbound {
		return -1, -1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	best := 0
	for i, n := range c.live {
		if n < c.live[best] {
			best = i
		}
	}
	c.live[best]++
	return best, c.cpus[best]
}

// release uncounts a session that take placed in slot.
func (c *cpuSlots) release(slot int) {
	if slot < 0 {
		return
	}
	c.mu.Lock()
	c.live[slot]--
	c.mu.Unlock()
}
