// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz actors: one process per slot, a few threads each. A thread draws
 * an operation from its PRNG, runs it, then serves whatever arrived. Every
 * wait is bounded: the device is non-blocking, waits are poll() with a
 * timeout, and a call that is not answered in time is given up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz.h"

static struct fz_proc proc;

/* ------------------------------------------------------------ nodes */
uint64_t fz_node_ptr(int slot, unsigned int i)
{
	return 0x10000000ull * (uint64_t)(slot + 1) + 0x100ull * (i + 1);
}

uint64_t fz_node_cookie(uint64_t ptr)
{
	return ptr ^ 0xc0ffee00ull;
}

bool fz_is_own_node(int slot, uint64_t ptr, uint64_t cookie)
{
	if (ptr == 0 && cookie == 0)	/* the context manager's node */
		return true;
	for (unsigned int i = 0; i < FZ_NODES; i++)
		if (ptr == fz_node_ptr(slot, i))
			return cookie == fz_node_cookie(ptr);
	return false;
}

/* Wait up to @ms for work (poll), then read whatever is there. */
static void poll_and_read(struct fz_thread *t, int ms)
{
	struct fz_proc *p = t->p;
	struct pollfd pfd = { .events = POLLIN };
	int r = 0;
	bool closed, direct;

	pthread_rwlock_rdlock(&p->dev_lock);
	/* like a libbinder looper: straight into a (bounded) blocking read */
	direct = p->blocking && fz_chance(&t->rng, 400);
	closed = p->fd < 0;
	if (!closed && !direct) {
		pfd.fd = p->fd;
		fz_call_begin(t, CALL_POLL);
		r = poll(&pfd, 1, ms);
		fz_call_end(t);
	}
	pthread_rwlock_unlock(&p->dev_lock);
	if (closed) {
		usleep((useconds_t)ms * 1000);
		return;
	}
	if (direct || r > 0 || fz_chance(&t->rng, 100))
		fz_write_read(t, NULL, 0, true);
}

/* ------------------------------------------------------------ buffers */
/* Append BC_ACQUIRE/BC_INCREFS for the new handles of a received buffer. */
static size_t keep_handles(uint8_t *w, size_t at, const struct fz_event *ev)
{
	for (unsigned int i = 0; i < ev->nkeep; i++) {
		at = fz_put_u32(w, at, ev->keep[i] >> 31 ? BC_ACQUIRE : BC_INCREFS);
		at = fz_put_u32(w, at, ev->keep[i] & 0x7fffffffu);
	}
	return at;
}

/* Append BC_FREE_BUFFER for @buffer, or keep it for later (held). */
static size_t free_or_hold(struct fz_thread *t, uint8_t *w, size_t at,
			   uint64_t buffer, uint32_t epoch)
{
	if (t->nheld < FZ_MAX_HELD && fz_chance(&t->rng, 120)) {
		t->held[t->nheld] = buffer;
		t->held_epoch[t->nheld++] = epoch;
		return at;
	}
	fz_count(C_FREES, 1);
	at = fz_put_u32(w, at, BC_FREE_BUFFER);
	return fz_put_u64(w, at, buffer);
}

static void op_free_held(struct fz_thread *t)
{
	_Alignas(8) uint8_t w[12 * (FZ_MAX_HELD + 2)];
	size_t at = 0;
	uint32_t epoch = atomic_load(&t->p->epoch);
	uint32_t sub = fz_below(&t->rng, 10);

	for (unsigned int i = 0; i < t->nheld; i++) {
		if (t->held_epoch[i] != epoch)
			continue;
		at = fz_put_u32(w, at, BC_FREE_BUFFER);
		at = fz_put_u64(w, at, t->held[i]);
		fz_count(C_FREES, 1);
	}
	if (sub == 0 && t->nheld && t->held_epoch[0] == epoch) {
		/* the same buffer twice in one stream */
		at = fz_put_u32(w, at, BC_FREE_BUFFER);
		at = fz_put_u64(w, at, t->held[0]);
		atomic_store(&t->p->tainted, true);
	} else if (sub == 1) {
		/* never a buffer start: outside the map, or misaligned */
		uint64_t base = (uintptr_t)t->p->map;

		at = fz_put_u32(w, at, BC_FREE_BUFFER);
		at = fz_put_u64(w, at, fz_chance(&t->rng, 500) ? base + 8 *
			     fz_below(&t->rng, 4096) + 1 + fz_below(&t->rng, 7) :
			     base - 4096);
	}
	fz_record(t, OP_FREE_HELD, sub, t->nheld);
	t->nheld = 0;
	if (at)
		fz_write_read(t, w, at, fz_chance(&t->rng, 300));
}

/* ------------------------------------------------------------ calls out */
enum { WAIT_REPLY, WAIT_COMPLETE };

static bool stopping(void)
{
	return atomic_load_explicit(&fz_sh->stop, memory_order_relaxed);
}

static void op_txn(struct fz_thread *t);
static void op_stray_reply(struct fz_thread *t);

/*
 * While its own call waits for a reply, a thread does something else: calls
 * again (drivers refuse a second call over one still waiting, but not over a
 * call the thread itself received), replies to nothing, sends a command
 * stream, drops references, or exits. Returns true if it exited.
 */
static bool meddle(struct fz_thread *t)
{
	uint32_t what = fz_below(&t->rng, 10);

	fz_count(C_WAIT_OPS, 1);
	switch (what) {
	case 0: case 1: case 2: case 3:
		if (t->depth < 3)
			op_txn(t);
		break;
	case 4: case 5:
		op_stray_reply(t);
		break;
	case 6:
		fz_thread_exit_now(t);
		return true;
	case 7:
		fz_op_bc_stream(t);
		break;
	default:
		fz_op_refs(t);
		break;
	}
	return false;
}

static bool wait_for(struct fz_thread *t, int what, unsigned int timeout_ms)
{
	uint64_t end = t->got_end, reply = t->got_reply, done = t->got_complete;
	uint64_t deadline = fz_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint64_t now;

		fz_drain(t);
		if (t->got_end != end)
			return true;
		if (what == WAIT_REPLY ? t->got_reply != reply :
		    t->got_complete != done)
			return true;
		if (t->meddle && fz_chance(&t->rng, t->meddle) && meddle(t))
			return false;	/* the thread exited: no reply will come */
		now = fz_now_ns();
		if (stopping() || t->p->exit_requested)
			return false;
		if (now >= deadline) {
			fz_count(C_REPLY_TIMEOUT, 1);
			return false;
		}
		poll_and_read(t, (int)((deadline - now) / 1000000 > 50 ? 50 :
				       (deadline - now) / 1000000 + 1));
	}
}

/*
 * Whether the command just written was refused by the device's profile
 * (kbinder's aidl refuses the _SG commands: EINVAL, and the extended error
 * -EOPNOTSUPP), so that no answer is to be waited for.
 */
static bool refused_by_profile(struct fz_thread *t)
{
	struct binder_extended_error ee = { 0 };

	return fz_with_fd(t, CALL_IOCTL, BINDER_GET_EXTENDED_ERROR, &ee) == 0 &&
	       ee.command == BR_FAILED_REPLY && ee.param == -EOPNOTSUPP;
}

static void op_txn(struct fz_thread *t)
{
	struct fz_txn_buf *b = malloc(sizeof(*b));
	_Alignas(8) uint8_t w[4 + sizeof(struct binder_transaction_data_sg)];
	uint32_t handle, flags = 0;
	bool oneway = fz_chance(&t->rng, 350);
	size_t len;

	if (!b)
		return;
	fz_pick_handle(t, &handle);
	if (handle == 0 && fz_is_ctx_mgr() && fz_chance(&t->rng, 950)) {
		free(b);	/* it would call itself: serve instead */
		poll_and_read(t, 5);
		return;
	}
	if (oneway)
		flags |= TF_ONE_WAY;
	if (fz_chance(&t->rng, 800))
		flags |= TF_ACCEPT_FDS;
	if (fz_chance(&t->rng, 50))
		flags |= TF_CLEAR_BUF;
	if (fz_chance(&t->rng, 30))
		flags |= TF_UPDATE_TXN;
	if (fz_chance(&t->rng, 10))
		flags |= 1u << fz_below(&t->rng, 32);
	fz_build_txn(t, b, false, handle, flags);
	if (handle == 0xfffffff0u && !b->must_reject) {
		b->must_reject = true;	/* no such handle: never delivered */
		fz_count(C_TXN_INVALID, 1);
	}
	fz_record(t, OP_TXN, (oneway ? 1 : 0) | (b->must_reject ? 2 : 0) |
		  (b->cmd == BC_TRANSACTION_SG ? 4 : 0),
		  ((uint64_t)handle << 32) | b->tr.transaction_data.flags);
	fz_put_u32(w, 0, b->cmd);
	len = b->cmd == BC_TRANSACTION_SG ? sizeof(b->tr) :
		sizeof(b->tr.transaction_data);
	memcpy(w + 4, &b->tr, len);
	fz_count(oneway ? C_TXN_ONEWAY : C_TXN_SYNC, 1);
	if (!oneway)
		t->sync_calls++;
	if (b->must_reject)
		fz_count(C_TXN_INVALID, 1);
	t->depth++;
	t->last_end = 0;
	if (fz_write_read(t, w, 4 + len, fz_chance(&t->rng, 500)) == -EINVAL &&
	    refused_by_profile(t))
		fz_count(C_PROFILE_REFUSED, 1);	/* no reply will come */
	else
		wait_for(t, oneway ? WAIT_COMPLETE : WAIT_REPLY,
			 oneway ? 1000 : 3000);
	t->depth--;
	if (t->last_end == BR_DEAD_REPLY && handle && fz_chance(&t->rng, 800))
		fz_drop_handle(t->p, handle);	/* mostly stop calling the dead */
	if (t->last_end == BR_FAILED_REPLY && !b->must_reject) {
		struct binder_extended_error ee = { 0 };
		int e = 0;

		if (fz_with_fd(t, CALL_IOCTL, BINDER_GET_EXTENDED_ERROR, &ee) == 0)
			e = -ee.param;
		atomic_fetch_add(&fz_sh->failed_errno[e > 0 && e < FZ_ERRNO_SLOTS ? e : 0], 1);
		if (getenv("KBFUZZ_DEBUG")) {
			char objs[128] = "";
			size_t n = b->tr.transaction_data.offsets_size / 8;

			for (size_t i = 0; i < n && i < 16; i++) {
				uint32_t type;

				memcpy(&type, b->data + b->offsets[i], 4);
				snprintf(objs + strlen(objs), sizeof(objs) - strlen(objs),
					 "%c%c%c,", (type >> 24) & 0xff,
					 (type >> 16) & 0xff, (type >> 8) & 0xff);
			}
			fprintf(stderr, "kbfuzz: debug: pid %d failed errno %d handle %u cm %d flags 0x%x cmd 0x%x data %llu sg %llu objs %s\n",
				getpid(), e, handle, fz_is_ctx_mgr(), b->tr.transaction_data.flags, b->cmd,
				(unsigned long long)b->tr.transaction_data.data_size,
				(unsigned long long)b->tr.buffers_size, objs);
		}
		if (handle && e == EINVAL && fz_chance(&t->rng, 300))
			fz_drop_handle(t->p, handle);	/* maybe it is gone */
	}
	free(b);
}

/* A reply, whether or not the thread has a call to answer. */
static void op_stray_reply(struct fz_thread *t)
{
	_Alignas(8) uint8_t w[4 + sizeof(struct binder_transaction_data_sg)];
	struct fz_txn_buf *b = malloc(sizeof(*b));
	size_t len;

	if (!b)
		return;
	fz_build_txn(t, b, true, 0, fz_chance(&t->rng, 200) ? TF_STATUS_CODE : 0);
	fz_record(t, OP_STRAY_REPLY, b->cmd == BC_REPLY_SG, t->depth);
	fz_put_u32(w, 0, b->cmd);
	len = b->cmd == BC_REPLY_SG ? sizeof(b->tr) : sizeof(b->tr.transaction_data);
	memcpy(w + 4, &b->tr, len);
	fz_count(C_STRAY_REPLIES, 1);
	fz_write_read(t, w, 4 + len, fz_chance(&t->rng, 500));
	free(b);
}

/* ------------------------------------------------------------ serving */
static void serve_call(struct fz_thread *t, const struct fz_event *ev)
{
	_Alignas(8) uint8_t w[80 + sizeof(struct binder_transaction_data_sg)];
	struct fz_txn_buf *b;
	size_t at = 0;

	if (ev->flags & TF_ONE_WAY) {
		at = keep_handles(w, 0, ev);
		at = free_or_hold(t, w, at, ev->buffer, ev->epoch);
		if (at)
			fz_write_read(t, w, at, false);
		return;
	}
	/* a slow server: the call stays on top of its stack a while, and
	 * whatever else the caller's side does goes on meanwhile */
	if (fz_chance(&t->rng, t->dawdle)) {
		uint32_t ms = 1 + fz_below(&t->rng, 40);

		fz_record(t, OP_SERVE, 1, ms);
		fz_count(C_DAWDLES, 1);
		usleep(ms * 1000);
	}
	/* a nested call before replying */
	if (t->depth < 2 && fz_chance(&t->rng, 80))
		op_txn(t);
	/* gone before replying: the caller gets BR_DEAD_REPLY, and the reply
	 * below comes from a fresh thread with nothing to answer */
	if (fz_chance(&t->rng, 10))
		fz_thread_exit_now(t);
	b = malloc(sizeof(*b));
	if (!b)
		return;
	fz_build_txn(t, b, true, 0,
		     fz_chance(&t->rng, 100) ? TF_STATUS_CODE :
		     fz_chance(&t->rng, 50) ? TF_CLEAR_BUF : 0);
	at = keep_handles(w, 0, ev);
	at = free_or_hold(t, w, at, ev->buffer, ev->epoch);
	at = fz_put_u32(w, at, b->cmd);
	if (b->cmd == BC_REPLY_SG) {
		memcpy(w + at, &b->tr, sizeof(b->tr));
		at += sizeof(b->tr);
	} else {
		memcpy(w + at, &b->tr.transaction_data, sizeof(b->tr.transaction_data));
		at += sizeof(b->tr.transaction_data);
	}
	fz_count(C_REPLIES, 1);
	fz_write_read(t, w, at, fz_chance(&t->rng, 500));
	free(b);
}

static void handle_event(struct fz_thread *t, const struct fz_event *ev)
{
	_Alignas(8) uint8_t w[96];
	size_t at = 0;
	bool current = ev->epoch == atomic_load(&t->p->epoch);

	switch (ev->kind) {
	case EV_TXN:
		if (current)
			serve_call(t, ev);
		return;
	case EV_REPLY:
		t->got_reply++;
		if (current) {
			at = keep_handles(w, 0, ev);
			at = free_or_hold(t, w, at, ev->buffer, ev->epoch);
		}
		break;
	case EV_END:
		t->got_end++;
		t->last_end = ev->cmd;
		return;
	case EV_COMPLETE:
		t->got_complete++;
		return;
	case EV_REF:
		if (!current || fz_chance(&t->rng, 30))
			return;
		if (ev->cmd == BR_INCREFS || ev->cmd == BR_ACQUIRE) {
			at = fz_put_u32(w, 0, ev->cmd == BR_INCREFS ?
				     BC_INCREFS_DONE : BC_ACQUIRE_DONE);
			at = fz_put_u64(w, at, ev->ptr);
			at = fz_put_u64(w, at, fz_chance(&t->rng, 20) ?
				     ev->cookie ^ 1 : ev->cookie);
		}
		break;
	case EV_DEAD_BINDER:
	case EV_FROZEN_BINDER:
		if (!current || fz_chance(&t->rng, 30))
			return;
		at = fz_put_u32(w, 0, ev->kind == EV_DEAD_BINDER ?
			     BC_DEAD_BINDER_DONE : BC_FREEZE_NOTIFICATION_DONE);
		at = fz_put_u64(w, at, ev->cookie);
		break;
	case EV_SPAWN:
		if (fz_chance(&t->rng, 700))
			atomic_fetch_add(&t->p->spawn_requests, 1);
		return;
	default:
		return;
	}
	if (at)
		fz_write_read(t, w, at, false);
}

void fz_drain(struct fz_thread *t)
{
	while (t->qhead != t->qtail) {
		struct fz_event ev = t->q[t->qhead++ % FZ_QUEUE];

		handle_event(t, &ev);
	}
}

/* ------------------------------------------------------------ threads */
struct op_weight {
	int op;
	unsigned int weight;
};

static const struct op_weight weights[] = {
	{ OP_TXN, 300 }, { OP_SERVE, 160 }, { OP_REFS, 50 }, { OP_DEATH, 45 },
	{ OP_FREEZE_NOTE, 10 }, { OP_FREE_HELD, 40 }, { OP_RAW_IOCTL, 60 },
	{ OP_BC_STREAM, 70 }, { OP_INFO, 40 }, { OP_FREEZE, 12 },
	{ OP_LOOPER, 12 }, { OP_THREAD_EXIT, 12 }, { OP_SPAWN_THREAD, 6 },
	{ OP_CLOSE_REOPEN, 3 }, { OP_MUNMAP, 1 }, { OP_PROC_EXIT, 1 },
	{ OP_CTX_MGR, 4 }, { OP_STRAY_REPLY, 8 },
};

static int pick_op(struct fz_thread *t)
{
	unsigned int total = 0, roll;

	for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
		total += weights[i].weight;
	roll = fz_below(&t->rng, total);
	for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) {
		if (roll < weights[i].weight)
			return weights[i].op;
		roll -= weights[i].weight;
	}
	return OP_SERVE;
}

static void run_op(struct fz_thread *t, int op)
{
	switch (op) {
	case OP_TXN: op_txn(t); break;
	case OP_SERVE:
		fz_record(t, OP_SERVE, 0, 0);
		poll_and_read(t, (int)fz_below(&t->rng, 30));
		break;
	case OP_REFS: fz_op_refs(t); break;
	case OP_DEATH:
	case OP_FREEZE_NOTE: fz_op_note(t, op); break;
	case OP_FREE_HELD: op_free_held(t); break;
	case OP_RAW_IOCTL: fz_op_raw_ioctl(t); break;
	case OP_BC_STREAM: fz_op_bc_stream(t); break;
	case OP_INFO: fz_op_info(t); break;
	case OP_FREEZE: fz_op_freeze(t); break;
	case OP_LOOPER: fz_op_looper(t); break;
	case OP_THREAD_EXIT: fz_op_thread_exit(t); break;
	case OP_SPAWN_THREAD:
		fz_record(t, OP_SPAWN_THREAD, 0, 0);
		atomic_fetch_add(&t->p->spawn_requests, 1);
		break;
	case OP_CLOSE_REOPEN: fz_op_close_reopen(t); break;
	case OP_MUNMAP: fz_op_munmap(t); break;
	case OP_PROC_EXIT: {
		uint32_t sub = fz_below(&t->rng, 2);

		fz_record(t, OP_PROC_EXIT, sub, 0);
		fz_count(C_EXITS, 1);
		if (sub)	/* abrupt: other threads may be mid-call */
			_exit(0);
		atomic_store(&t->p->exit_requested, true);
		break;
	}
	case OP_CTX_MGR: fz_op_ctx_mgr(t); break;
	case OP_STRAY_REPLY: op_stray_reply(t); break;
	default: break;
	}
}

static void *thread_main(void *arg)
{
	struct fz_thread *t = arg;
	struct fz_proc *p = t->p;
	uint32_t enter = BC_ENTER_LOOPER;

	atomic_store(&t->ts->nops, 0);
	atomic_store(&t->ts->progress, fz_now_ns());
	atomic_store(&t->ts->tid, (int)syscall(SYS_gettid));
	t->epoch = atomic_load(&p->epoch);
	fz_bound_timer_start(t);
	if (fz_cfg.trace)
		fprintf(stderr, "kbfuzz: thread %d.%u.%d is tid %d\n", p->slot,
			p->generation, t->idx, atomic_load(&t->ts->tid));
	/* its temperament (see struct fz_thread) */
	t->tiny_reads = (const unsigned int[]){ 20, 80, 300, 600 }[fz_below(&t->rng, 4)];
	t->dawdle = (const unsigned int[]){ 0, 50, 200, 500 }[fz_below(&t->rng, 4)];
	t->meddle = (const unsigned int[]){ 0, 0, 20, 100 }[fz_below(&t->rng, 4)];
	if (t->registered)
		enter = BC_REGISTER_LOOPER;
	if (t->registered || fz_chance(&t->rng, 850)) {
		fz_write_read(t, &enter, 4, false);
		t->looper = true;
	}
	while (!stopping() && !t->leave && !p->exit_requested) {
		uint32_t epoch = atomic_load(&p->epoch);
		int op;

		if (fz_cfg.ops && t->seq >= fz_cfg.ops)
			break;
		if (t->epoch != epoch) {	/* a new fd: join its pool */
			t->epoch = epoch;
			if (t->looper)
				fz_write_read(t, &enter, 4, false);
		}
		op = pick_op(t);
		run_op(t, op);
		t->seq++;
		fz_drain(t);
		poll_and_read(t, (int)fz_below(&t->rng, 4));
		fz_drain(t);
		fz_count(C_OPS, 1);
		atomic_store(&t->ts->progress, fz_now_ns());
	}
	if (t->nheld && !p->exit_requested && !stopping())
		op_free_held(t);
	/* like libbinder: a new thread with this tid must start afresh */
	if (!p->exit_requested) {
		int zero = 0;

		fz_with_fd(t, CALL_IOCTL, BINDER_THREAD_EXIT, &zero);
	}
	if (t->has_timer)
		timer_delete(t->timer);
	atomic_store(&t->ts->tid, 0);
	pthread_mutex_lock(&p->lock);
	p->thread_used[t->idx] = false;
	pthread_mutex_unlock(&p->lock);
	atomic_fetch_sub(&p->live_threads, 1);
	free(t);
	return NULL;
}

static void spawn_thread(struct fz_proc *p, bool registered)
{
	struct fz_thread *t;
	pthread_attr_t attr;
	pthread_t th;
	int idx = -1;

	pthread_mutex_lock(&p->lock);
	for (int i = 0; i < FZ_MAX_THREADS; i++) {
		if (!p->thread_used[i]) {
			idx = i;
			p->thread_used[i] = true;
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
	if (idx < 0)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail;
	t->p = p;
	t->idx = idx;
	t->registered = registered;
	t->ts = &fz_sh->procs[p->slot].threads[idx];
	t->ts->seed = fz_mix(p->seed, 1000 + p->thread_spawns++);
	fz_rng_seed(&t->rng, t->ts->seed);
	atomic_fetch_add(&p->live_threads, 1);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 1024 * 1024);
	if (pthread_create(&th, &attr, thread_main, t) != 0) {
		atomic_fetch_sub(&p->live_threads, 1);
		free(t);
		pthread_attr_destroy(&attr);
		goto fail;
	}
	pthread_attr_destroy(&attr);
	fz_count(C_THREADS, 1);
	return;
fail:
	pthread_mutex_lock(&p->lock);
	p->thread_used[idx] = false;
	pthread_mutex_unlock(&p->lock);
}

static void open_spares(struct fz_proc *p)
{
	int pfd[2] = { -1, -1 };

	if (pipe2(pfd, O_CLOEXEC) < 0)
		pfd[0] = pfd[1] = -1;
	p->spare_fds[0] = pfd[0];
	p->spare_fds[1] = pfd[1];
	p->spare_fds[2] = open("/dev/null", O_RDWR | O_CLOEXEC);
	p->spare_fds[3] = (int)syscall(SYS_memfd_create, "kbfuzz", 1u);
}

/* The context manager slot keeps trying: the last one's release is lazy. */
static void become_context_manager(struct fz_proc *p, struct fz_rng *r)
{
	for (int i = 0; i < 50 && !stopping(); i++) {
		int32_t zero = 0;
		struct flat_binder_object fbo = {
			.hdr.type = BINDER_TYPE_BINDER,
			.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
			.binder = fz_node_ptr(p->slot, 0),
			.cookie = fz_node_cookie(fz_node_ptr(p->slot, 0)),
		};
		int rc = fz_chance(r, 800) ?
			ioctl(p->fd, BINDER_SET_CONTEXT_MGR_EXT, &fbo) :
			ioctl(p->fd, BINDER_SET_CONTEXT_MGR, &zero);

		if (rc == 0)
			atomic_store(&fz_sh->ctx_mgr_pid, getpid());
		if (rc == 0 || errno != EBUSY)
			return;
		usleep(20 * 1000);
	}
}

void fz_actor_main(int slot, uint32_t generation, uint64_t seed)
{
	struct fz_proc *p = &proc;
	struct fz_thread_slot *ms = &fz_sh->procs[slot].threads[FZ_MAIN_THREAD];
	struct rlimit rl = { 512, 512 };
	pthread_rwlockattr_t ra;
	struct fz_rng r;
	uint32_t max_threads;
	uint64_t deadline;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* the bounding signal interrupts a call and does nothing else */
	sigaction(FZ_SIGNAL, &(struct sigaction){ .sa_handler = fz_bound_signal }, NULL);
	setrlimit(RLIMIT_NOFILE, &rl);
	memset(p, 0, sizeof(*p));
	p->slot = slot;
	p->generation = generation;
	p->seed = seed;
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&p->dev_lock, &ra);
	pthread_mutex_init(&p->lock, NULL);
	fz_rng_seed(&r, seed);
	atomic_store(&ms->tid, getpid());
	atomic_store(&ms->progress, fz_now_ns());
	open_spares(p);
	p->guard = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->guard == MAP_FAILED)
		_exit(4);
	p->guard += 4096;
	mprotect(p->guard, 4096, PROT_NONE);
	/* no timers (a kernel without POSIX_TIMERS): no blocking fd either */
	if (!fz_cfg.no_blocking) {
		struct sigevent sev = { .sigev_notify = SIGEV_NONE };
		timer_t probe;

		if (timer_create(CLOCK_MONOTONIC, &sev, &probe) == 0)
			timer_delete(probe);
		else
			fz_cfg.no_blocking = true;
	}
	if (fz_open_device(p, NULL, &r) < 0) {
		fprintf(stderr, "kbfuzz: slot %d: cannot open %s: %s\n", slot,
			fz_cfg.device, strerror(errno));
		_exit(3);
	}
	max_threads = fz_below(&r, 5);
	ioctl(p->fd, BINDER_SET_MAX_THREADS, &max_threads);
	if (slot == 0)
		become_context_manager(p, &r);
	for (unsigned int i = 0; i < fz_cfg.nthreads; i++)
		spawn_thread(p, false);
	while (!stopping() && !p->exit_requested) {
		int want = atomic_exchange(&p->spawn_requests, 0);

		if (fz_cfg.ops && atomic_load(&p->live_threads) == 0)
			break;	/* every thread ran its --ops */
		for (int i = 0; i < want; i++)
			spawn_thread(p, fz_chance(&r, 700));
		if (atomic_load(&p->live_threads) == 0)
			spawn_thread(p, false);
		atomic_store(&ms->progress, fz_now_ns());
		usleep(10 * 1000);
	}
	/* threads see the flag after their current op (bounded waits) */
	deadline = fz_now_ns() + 10ull * 1000000000ull;
	while (atomic_load(&p->live_threads) && fz_now_ns() < deadline) {
		atomic_store(&ms->progress, fz_now_ns());
		usleep(10 * 1000);
	}
	if (fz_chance(&r, 500)) {	/* else the exit closes it */
		pthread_rwlock_wrlock(&p->dev_lock);
		atomic_store(&ms->call, CALL_CLOSE);
		atomic_store(&ms->call_start, fz_now_ns());
		close(p->fd);
		atomic_store(&ms->call_start, 0);
		p->fd = -1;
		pthread_rwlock_unlock(&p->dev_lock);
	}
	_exit(0);
}
