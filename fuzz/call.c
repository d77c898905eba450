// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz calls: the ioctls of an actor's operations go through here (the
 * few at a process's start, in actor.c, are direct). Each is marked for
 * the watchdog (which call, since when), counted, bounded when the fd
 * blocks, and a BINDER_WRITE_READ's returns are checked and queued on the
 * thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
void fz_record(struct fz_thread *t, int op, int sub, uint64_t arg)
{
	struct fz_thread_slot *ts = t->ts;
	uint32_t n = atomic_load_explicit(&ts->nops, memory_order_relaxed);
	struct fz_op_rec *r = &ts->ring[n % FZ_RING];

	r->seq = t->seq;
	r->op = (uint16_t)op;
	r->sub = (uint16_t)sub;
	r->arg = arg;
	atomic_store(&ts->nops, n + 1);
	if (fz_cfg.trace)
		fprintf(stderr, "op %d.%u.%d #%u %s/%d 0x%llx\n", t->p->slot,
			t->p->generation, t->idx, t->seq, fz_op_name(op), sub,
			(unsigned long long)arg);
}

void fz_call_begin(struct fz_thread *t, int call)
{
	atomic_store(&t->ts->call, call);
	atomic_store(&t->ts->call_start, fz_now_ns());
}

void fz_call_end(struct fz_thread *t)
{
	atomic_store(&t->ts->call_start, 0);
	atomic_store(&t->ts->call, CALL_NONE);
}

/*
 * On a blocking fd a call may wait in the driver (a read waits for work on
 * the driver's list of idle loopers, which is where a sync call lands on one
 * thread's own todo). A periodic timer signal to this thread, every 1-50 ms,
 * ends such a wait with EINTR: periodic, so a tick that comes just before
 * the call cannot leave it unbounded. The handler does nothing.
 */
static bool bound_begin(struct fz_thread *t, int call)
{
	static const long ms[] = { 1, 2, 5, 10, 20, 50 };
	struct itimerspec its = { 0 };

	if (!t->p->blocking || !t->has_timer ||
	    (call != CALL_WRITE_READ && call != CALL_IOCTL))
		return false;
	its.it_value.tv_nsec = ms[fz_below(&t->rng, 6)] * 1000000L;
	its.it_interval = its.it_value;
	return timer_settime(t->timer, 0, &its, NULL) == 0;
}

static void bound_end(struct fz_thread *t, bool armed)
{
	static const struct itimerspec off;

	if (armed)
		timer_settime(t->timer, 0, &off, NULL);
}

int fz_call_ioctl(struct fz_thread *t, int call, unsigned long cmd, void *arg)
{
	bool armed = bound_begin(t, call);
	int r, e;

	fz_call_begin(t, call);
	r = ioctl(t->p->fd, cmd, arg);
	e = errno;
	fz_call_end(t);
	bound_end(t, armed);
	fz_count(C_IOCTLS, 1);
	if (r < 0) {
		fz_count(C_ERRNO, 1);
		if (e == EINTR && armed)
			fz_count(C_EINTR, 1);
		return -e;
	}
	return r;
}

int fz_with_fd(struct fz_thread *t, int call, unsigned long cmd, void *arg)
{
	struct fz_proc *p = t->p;
	int r = -EBADF;

	pthread_rwlock_rdlock(&p->dev_lock);
	if (p->fd >= 0)
		r = fz_call_ioctl(t, call, cmd, arg);
	pthread_rwlock_unlock(&p->dev_lock);
	return r;
}

static void queue_push(struct fz_thread *t, const struct fz_event *ev)
{
	if (t->qtail - t->qhead >= FZ_QUEUE) {
		fprintf(stderr, "kbfuzz: slot %d thread %d: event queue full, dropping\n",
			t->p->slot, t->idx);
		return;
	}
	t->q[t->qtail++ % FZ_QUEUE] = *ev;
}

/*
 * How much to read: mostly 2 KiB, sometimes the whole 8 KiB; with the
 * thread's tiny_reads odds an edge size: none, too small for anything but
 * BR_NOOP, just under, at and just over what a transaction needs
 * (FZ_READ_MIN), or room for exactly one. A read under FZ_READ_MIN leaves
 * a call on the thread's todo while the thread goes on.
 */
static size_t pick_read_size(struct fz_thread *t)
{
	static const size_t edge[] = {
		0, 4, 8, 8, 12, 16, 24, 44, 48, 68, 72, FZ_READ_MIN - 4,
		FZ_READ_MIN - 1, FZ_READ_MIN, FZ_READ_MIN + 1, FZ_READ_MIN + 4,
		FZ_READ_MIN + 8, 128, 256,
	};
	size_t n = sizeof(edge) / sizeof(edge[0]);

	if (fz_chance(&t->rng, t->tiny_reads))
		/* two in three under FZ_READ_MIN */
		return edge[fz_chance(&t->rng, 667) ? fz_below(&t->rng, 13) :
			    13 + fz_below(&t->rng, (uint32_t)n - 13)];
	return fz_chance(&t->rng, 100) ? FZ_RBUF : 2048;
}

int fz_write_read(struct fz_thread *t, const void *wbuf, size_t wlen, bool read)
{
	struct fz_event ev[FZ_MAX_EVENTS];
	struct fz_proc *p = t->p;
	struct binder_write_read bwr = { 0 };
	int r = -EBADF, n;

	bwr.write_size = wlen;
	bwr.write_buffer = (uintptr_t)wbuf;
	if (read) {
		bwr.read_size = pick_read_size(t);
		bwr.read_buffer = (uintptr_t)t->rbuf;
		if (bwr.read_size && bwr.read_size < FZ_READ_MIN)
			fz_count(C_TINY_READS, 1);
	}
	pthread_rwlock_rdlock(&p->dev_lock);
	if (p->fd >= 0) {
		if (p->blocking && bwr.read_size)
			fz_count(C_BLOCKING_READS, 1);
		r = fz_call_ioctl(t, CALL_WRITE_READ, BINDER_WRITE_READ, &bwr);
		if (bwr.write_consumed > bwr.write_size && fz_cfg.allow_overread &&
		    bwr.read_consumed <= bwr.read_size)
			fz_count(C_OVERREAD, 1);
		else if (bwr.write_consumed > bwr.write_size ||
			 bwr.read_consumed > bwr.read_size)
			fz_finding(p->slot, t->idx,
				   "BINDER_WRITE_READ consumed more than it was given (write %llu of %llu, read %llu of %llu)",
				   (unsigned long long)bwr.write_consumed,
				   (unsigned long long)bwr.write_size,
				   (unsigned long long)bwr.read_consumed,
				   (unsigned long long)bwr.read_size);
		else if (r == 0 && bwr.read_size && bwr.read_size < FZ_READ_MIN &&
			 bwr.read_consumed <= 4)
			fz_count(C_WORK_LEFT, 1);	/* woken, nothing fit */
		if (bwr.read_consumed && bwr.read_consumed <= bwr.read_size) {
			n = fz_parse_returns(t, t->rbuf, bwr.read_consumed, ev,
					     FZ_MAX_EVENTS);
			for (int i = 0; i < n; i++) {
				ev[i].epoch = atomic_load(&p->epoch);
				queue_push(t, &ev[i]);
			}
		}
	}
	pthread_rwlock_unlock(&p->dev_lock);
	return r;
}

/* The timer that bounds this thread's blocking calls (see bound_begin). */
void fz_bound_timer_start(struct fz_thread *t)
{
	struct sigevent sev = { 0 };

	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = FZ_SIGNAL;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	t->has_timer = timer_create(CLOCK_MONOTONIC, &sev, &t->timer) == 0;
	if (!t->has_timer)
		fprintf(stderr, "kbfuzz: slot %d thread %d: timer_create: %s\n",
			t->p->slot, t->idx, strerror(errno));
}

void fz_bound_signal(int sig)
{
	(void)sig;
}
