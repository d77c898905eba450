/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbbench_floor.h - what the core kernel alone costs a round trip of a
 * binder call's shape, beside the sync rows of make bench-insn:
 *
 *   futex    a ping-pong through one shared page: the client stores the
 *            call's number and wakes the server (FUTEX_WAKE), then waits
 *            (FUTEX_WAIT) until the server stored it back and woke it.
 *            Two context switches and four system calls per round trip,
 *            as the pipe's, but no file, no copy and no wait queue of a
 *            driver: the scheduler's share of any blocking round trip;
 *            (A shared futex between processes is found through the
 *            page it lies in: its key lookup is part of its count);
 *   eventfd  the same ping-pong through two eventfds, a write and a
 *            blocking read a side: the smallest file a round trip can go
 *            through;
 *   syscall  one system call that does next to nothing (getppid): what
 *            entering and leaving the kernel costs, to tell how much of a
 *            round trip its system calls are.
 *
 * (Header-only, see binder_io.h; included by kbbench.c, which starts the
 * servers with floor_futex_server() and floor_eventfd_server() and calls
 * floor_call().)
 */
#ifndef KBINDER_BENCH_KBBENCH_FLOOR_H
#define KBINDER_BENCH_KBBENCH_FLOOR_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "binder_io.h"

/** struct floor_page - the futex ping-pong's words, in a shared page. */
struct floor_page {
	uint32_t call;	/* the client's last call number */
	uint32_t answer;	/* the server's last answered call number */
};

/* floor_map: the shared page (MAP_SHARED: the server is a fork), or NULL. */
static inline struct floor_page *floor_map(void)
{
	void *p = mmap(NULL, sizeof(struct floor_page), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static inline long floor_futex(uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* floor_futex_server: answer every call number the client stores; never returns. */
static inline void floor_futex_server(struct floor_page *pg)
{
	uint32_t seen = 0, v;

	for (;;) {
		while ((v = __atomic_load_n(&pg->call, __ATOMIC_ACQUIRE)) == seen)
			floor_futex(&pg->call, FUTEX_WAIT, seen);
		seen = v;
		__atomic_store_n(&pg->answer, v, __ATOMIC_RELEASE);
		floor_futex(&pg->answer, FUTEX_WAKE, 1);
	}
}

/* floor_eventfd_server: read a call from @in, answer it on @out; never returns. */
static inline void floor_eventfd_server(int in, int out)
{
	uint64_t v;

	for (;;) {
		if (read(in, &v, sizeof(v)) != sizeof(v) ||
		    write(out, &v, sizeof(v)) != sizeof(v))
			_exit(1);
	}
}

enum floor_kind { FLOOR_FUTEX, FLOOR_EVENTFD, FLOOR_SYSCALL };

/*
 * floor_call: one round trip of @kind: futex with call number @seq (which
 * must differ from the last one) through @pg, eventfd through @out (to the
 * server) and @in (back), or the null system call. 0, -EIO, or -ETIMEDOUT
 * when bio_deadline()'s alarm ends a wait.
 */
static inline int floor_call(enum floor_kind kind, struct floor_page *pg,
			     int out, int in, uint32_t seq)
{
	uint64_t one = 1, got;
	uint32_t v;

	if (kind == FLOOR_SYSCALL) {
		syscall(SYS_getppid);
		return 0;
	}
	if (kind == FLOOR_EVENTFD) {
		if (write(out, &one, sizeof(one)) != sizeof(one))
			return -EIO;
		while (read(in, &got, sizeof(got)) != sizeof(got)) {
			if (errno != EINTR)
				return -EIO;
			if (bio_alarm_fired)
				return -ETIMEDOUT;
		}
		return 0;
	}
	__atomic_store_n(&pg->call, seq, __ATOMIC_RELEASE);
	floor_futex(&pg->call, FUTEX_WAKE, 1);
	while ((v = __atomic_load_n(&pg->answer, __ATOMIC_ACQUIRE)) != seq) {
		if (floor_futex(&pg->answer, FUTEX_WAIT, v) < 0 && errno == EINTR &&
		    bio_alarm_fired)
			return -ETIMEDOUT;
	}
	return 0;
}

#endif /* KBINDER_BENCH_KBBENCH_FLOOR_H */
