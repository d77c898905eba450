/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A delay in the kernel, to widen a race window to where a test hits it
 * every time: a BPF program on a kprobe (or kretprobe) of a function makes
 * one chosen call of it spin for a while, up to 33 x 20 ms, before the
 * function runs on (or returns). Needs kprobes and BPF (KPROBES,
 * KPROBE_EVENTS, PERF_EVENTS, BPF_SYSCALL, BPF_EVENTS: every Debian kernel
 * has them, and so does the debug kernel, debug/kernel.config) and a
 * function that is not inlined: a static function of kbinder reached
 * through an ops table qualifies.
 *
 * A race test holds its window with kbt_kdelay_hold() and checks with
 * kbt_kdelay_expect_hit() that the delayed call came: on kbinder a delay
 * that cannot attach, or that never fired, fails the test (a race test
 * that lost its window would pass without testing the race). The
 * functions are kbinder's: on the reference driver nothing is attached,
 * and the test runs its scenario without the window (and says so).
 */
#ifndef KBINDER_TEST_KDELAY_H
#define KBINDER_TEST_KDELAY_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <stdbool.h>
#include <sys/types.h>

/* Events: one per CPU when no task is named. */
#define KBT_KDELAY_MAX_CPUS 64

struct kbt_kdelay {
	int counter, progs, spin, first, nth;
	int events[KBT_KDELAY_MAX_CPUS];
	int n_events;
};

/**
 * kbt_kdelay_attach() - make the @nth call of @func spin
 * @d: the delay's state
 * @func: the kernel function
 * @at_return: spin when it returns (a kretprobe), else when it is entered
 * @pid: count only this task's calls, or -1: every task's, on every CPU
 * @nth: the call that spins, counted from 1 from now on
 *
 * Return: 0, or -errno (nothing is left attached).
 */
int kbt_kdelay_attach(struct kbt_kdelay *d, const char *func, bool at_return,
		      pid_t pid, int nth);

/**
 * kbt_kdelay_hold() - kbt_kdelay_attach() for a test that needs the window
 *
 * On kbinder a delay that cannot attach fails the test, fatally, saying
 * why. On the reference driver, which has none of these functions,
 * nothing is attached (@d is left detached) and the log says the scenario
 * runs without its window.
 * Return: true if the delay is attached.
 */
bool kbt_kdelay_hold(struct kbt_kdelay *d, const char *func, bool at_return,
		     pid_t pid, int nth);

/** kbt_kdelay_calls() - how many calls of the function were counted. */
long kbt_kdelay_calls(const struct kbt_kdelay *d);

/**
 * kbt_kdelay_wait_held() - wait up to @ms for the delayed call (the nth)
 * to come: the window is held from then on.
 * Return: true if it came.
 */
bool kbt_kdelay_wait_held(const struct kbt_kdelay *d, int ms);

/**
 * kbt_kdelay_expect_hit() - fail the test (not fatally) unless the
 * delayed call, the nth, came: a delay that never fired held no window.
 * Call it before kbt_kdelay_detach().
 */
void kbt_kdelay_expect_hit(const struct kbt_kdelay *d);

/** kbt_kdelay_detach() - remove the delay; safe on a failed attach. */
void kbt_kdelay_detach(struct kbt_kdelay *d);

#endif /* KBINDER_TEST_KDELAY_H */
