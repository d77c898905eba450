// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz helpers: the PRNG (xoshiro256**, seeded through splitmix64), the
 * clock, shared counters and findings.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fz_mix(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ (b * 0xd6e8feb86659fd93ull);

	return splitmix(&x);
}

void fz_rng_seed(struct fz_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t fz_next(struct fz_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	if (n == 0)
		return 0;
	return (uint32_t)(((fz_next(r) >> 32) * n) >> 32);
}

bool fz_chance(struct fz_rng *r, unsigned int per_mille)
{
	return fz_below(r, 1000) < per_mille;
}

uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void fz_count(enum fz_counter c, uint64_t n)
{
	atomic_fetch_add_explicit(&fz_sh->counters[c], n, memory_order_relaxed);
}

static const char *const op_names[OP_NR] = {
	[OP_NONE] = "none", [OP_TXN] = "txn", [OP_SERVE] = "serve",
	[OP_REFS] = "refs", [OP_DEATH] = "death-note",
	[OP_FREEZE_NOTE] = "freeze-note", [OP_FREE_HELD] = "free-held",
	[OP_RAW_IOCTL] = "raw-ioctl", [OP_BC_STREAM] = "bc-stream",
	[OP_INFO] = "info", [OP_FREEZE] = "freeze", [OP_LOOPER] = "looper",
	[OP_THREAD_EXIT] = "thread-exit", [OP_SPAWN_THREAD] = "spawn-thread",
	[OP_CLOSE_REOPEN] = "close-reopen", [OP_MUNMAP] = "munmap",
	[OP_PROC_EXIT] = "proc-exit", [OP_CTX_MGR] = "ctx-mgr",
	[OP_STRAY_REPLY] = "stray-reply",
};

const char *fz_op_name(int op)
{
	return op > 0 && op < OP_NR && op_names[op] ? op_names[op] : "?";
}

static const char *const call_names[CALL_NR] = {
	[CALL_NONE] = "none", [CALL_WRITE_READ] = "BINDER_WRITE_READ",
	[CALL_IOCTL] = "ioctl", [CALL_CLOSE] = "close", [CALL_MMAP] = "mmap",
	[CALL_MUNMAP] = "munmap", [CALL_OPEN] = "open", [CALL_POLL] = "poll",
	[CALL_FREEZE] = "BINDER_FREEZE",
};

const char *fz_call_name(int call)
{
	return call >= 0 && call < CALL_NR ? call_names[call] : "?";
}

static const char *const counter_names[C_NR] = {
	[C_OPS] = "ops", [C_IOCTLS] = "ioctls", [C_TXN_SYNC] = "txn_sync",
	[C_TXN_ONEWAY] = "txn_oneway", [C_TXN_INVALID] = "txn_invalid",
	[C_REPLIES] = "replies", [C_RECV_TXN] = "recv_txn",
	[C_RECV_REPLY] = "recv_reply", [C_COMPLETE] = "complete",
	[C_DEAD_REPLY] = "dead_reply", [C_FAILED_REPLY] = "failed_reply",
	[C_FROZEN_REPLY] = "frozen_reply", [C_REPLY_TIMEOUT] = "reply_timeout",
	[C_PROFILE_REFUSED] = "profile_refused",
	[C_OBJECTS] = "objects", [C_OBJ_BINDER] = "obj_binder",
	[C_OBJ_WEAK_BINDER] = "obj_weak_binder", [C_OBJ_HANDLE] = "obj_handle",
	[C_OBJ_WEAK_HANDLE] = "obj_weak_handle", [C_OBJ_FD] = "obj_fd",
	[C_OBJ_FDA] = "obj_fda", [C_OBJ_PTR] = "obj_ptr",
	[C_OBJ_BOGUS] = "obj_bogus", [C_RECV_OBJECTS] = "recv_objects",
	[C_KILLS] = "kills", [C_EXITS] = "exits", [C_SPAWNS] = "spawns",
	[C_THREAD_EXITS] = "thread_exits", [C_THREADS] = "threads",
	[C_FREEZES] = "freezes", [C_THAWS] = "thaws", [C_CLOSES] = "closes",
	[C_MUNMAPS] = "munmaps", [C_RAW_IOCTLS] = "raw_ioctls",
	[C_BC_STREAMS] = "bc_streams", [C_BC_COMMANDS] = "bc_commands",
	[C_DEAD_BINDER] = "dead_binder", [C_FROZEN_BINDER] = "frozen_binder",
	[C_REF_OPS] = "ref_ops", [C_FREES] = "frees", [C_ERRNO] = "errors",
	[C_OVERREAD] = "write_overreads", [C_BLOCKING_READS] = "blocking_reads",
	[C_EINTR] = "reads_interrupted", [C_TINY_READS] = "tiny_reads",
	[C_WORK_LEFT] = "tiny_reads_leaving_work",
	[C_DAWDLES] = "dawdles", [C_WAIT_OPS] = "ops_while_waiting",
	[C_STRAY_REPLIES] = "stray_replies", [C_LOG_ERRORS] = "driver_error_logs",
};

const char *fz_counter_name(int c)
{
	return c >= 0 && c < C_NR && counter_names[c] ? counter_names[c] : "?";
}

void fz_dump_ring(int slot, int thread)
{
	struct fz_thread_slot *ts = &fz_sh->procs[slot].threads[thread];
	uint32_t n = atomic_load(&ts->nops);
	uint32_t first = n > FZ_RING ? n - FZ_RING : 0;

	fprintf(stderr, "  slot %d gen %u thread %d (tid %d, seed %llu), last ops:\n",
		slot, atomic_load(&fz_sh->procs[slot].generation), thread,
		atomic_load(&ts->tid), (unsigned long long)ts->seed);
	for (uint32_t i = first; i < n; i++) {
		const struct fz_op_rec *r = &ts->ring[i % FZ_RING];

		fprintf(stderr, "    #%u %s/%u arg 0x%llx\n", r->seq,
			fz_op_name(r->op), r->sub, (unsigned long long)r->arg);
	}
}

void fz_dump_slot(int slot)
{
	for (int i = 0; i <= FZ_MAX_THREADS; i++)
		if (atomic_load(&fz_sh->procs[slot].threads[i].tid))
			fz_dump_ring(slot, i);
}

void fz_finding(int slot, int thread, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	int expected = 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kbfuzz: FINDING (seed %llu, slot %d, thread %d, pid %d): %s\n",
		(unsigned long long)fz_sh->seed, slot, thread, getpid(), msg);
	if (atomic_compare_exchange_strong(&fz_sh->finding, &expected, 1)) {
		snprintf(fz_sh->finding_msg, sizeof(fz_sh->finding_msg),
			 "slot %d thread %d: %s", slot, thread, msg);
		atomic_store(&fz_sh->finding, 2);
	}
	if (slot >= 0 && thread >= 0)
		fz_dump_ring(slot, thread);
	else if (slot >= 0)
		fz_dump_slot(slot);
	else
		for (int s = 0; s < FZ_MAX_PROCS; s++)
			if (atomic_load(&fz_sh->procs[s].pid) > 0)
				fz_dump_slot(s);
	atomic_store(&fz_sh->stop, 1);
}
