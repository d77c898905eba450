/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a test waits for instead of sleeping a fixed time, so that a loaded
 * host makes it slower, never wrong:
 *
 * - kbt_wait_asleep_in(): a thread is asleep in a given system call (it
 *   reached its wait in the kernel: a blocking binder read is in the
 *   driver, a timed one in poll()), read from /proc/<tid>/stat and
 *   /proc/<tid>/syscall;
 * - a control timer: a thread that sleeps in poll() for as long as a timed
 *   wait under test, started with it, so that how late the wait came back
 *   is judged against how late a plain timer of the same run came back,
 *   not against the wall clock of a shared host.
 */
#ifndef KBINDER_TEST_WAITS_H
#define KBINDER_TEST_WAITS_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

/** KBT_ANY_SYSCALL - kbt_wait_asleep_in(): asleep in whatever system call. */
#define KBT_ANY_SYSCALL (-1L)

/**
 * kbt_wait_asleep_in() - wait up to @ms for thread @tid (of any process)
 * to be asleep (state S or D) in system call @nr (SYS_ioctl, SYS_poll, ...,
 * or KBT_ANY_SYSCALL).
 * Return: 0, -ETIMEDOUT, or -errno if the thread cannot be read (it ended).
 */
int kbt_wait_asleep_in(pid_t tid, long nr, int ms);

/**
 * struct kbt_control_timer - a plain timed wait beside the one under test
 * @ms:    how long it sleeps
 * @late:  when joined: how much later than @ms it came back, in ms
 */
struct kbt_control_timer {
	pthread_t th;
	int ms;
	int64_t start, late;
};

/** kbt_control_start() - start a thread that sleeps @ms in poll(). */
void kbt_control_start(struct kbt_control_timer *c, int ms);

/** kbt_control_late() - join it; how late it came back (ms). */
int64_t kbt_control_late(struct kbt_control_timer *c);

#endif /* KBINDER_TEST_WAITS_H */
