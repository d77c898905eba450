// SPDX-License-Identifier: Apache-2.0
/*
 * Bounded stress: several worker processes, each with serving and calling
 * threads, make random synchronous, one-way and nested calls to each other
 * with binder objects and payloads, while one worker is killed mid-flight.
 * Every call must get a valid answer: the right reply, or BR_DEAD_REPLY
 * only from the killed worker once it was killed; every survivor must hear
 * of the death exactly once.
 *
 * Seeded: $KBT_SEED or the time; the seed is printed. About 8 s of load
 * (it runs in every boot of `make check`; kbfuzz is the long-running one).
 */
#include "binder_util.h"

#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>

#define N_WORKERS	4
#define N_SERVERS	2	/* serving threads per worker */
#define N_CALLERS	2	/* calling threads per worker */
#define LOAD_MS		8000
#define KILL_AT_MS	3000
#define MAX_PAYLOAD	2048

enum {
	CODE_REGISTER = 1,	/* registry: u32 id + our node */
	CODE_LOOKUP,		/* registry: u32 id -> handle object (or none) */
	CODE_ECHO,		/* u32 caller, u32 len, bytes, [node] -> u32 sum */
	CODE_ONEWAY,		/* u32 caller, u32 len, bytes, u32 sum */
	CODE_NESTED,		/* u32 caller, u32 x, node -> x + 2 via PING */
	CODE_PING,		/* u32 x -> x + 1 */
};

/* Shared between all processes of the test. */
struct stress_stats {
	uint32_t seed;
	int victim;
	int64_t killed_at;	/* kbt_now_ms() just before the kill, or 0 */
	int ending;		/* set before the survivors are killed */
	struct {
		int sync_ok, oneway_ok, nested_ok, dead_replies;
		int served, deaths;
	} w[N_WORKERS];
};

static struct stress_stats *st;
static int my_id;
static uint32_t peer[N_WORKERS];	/* handles of the other workers */
static volatile int stop;

static uint32_t checksum(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void count(int *field)
{
	__atomic_add_fetch(field, 1, __ATOMIC_SEQ_CST);
}

/* ---- the registry (context manager) ---- */

static uint32_t registry[N_WORKERS];

static int registry_handler(struct kbinder_thread *t,
			    const struct binder_transaction_data *tr,
			    struct kbinder_parcel *reply, void *arg)
{
	struct flat_binder_object obj;
	uint32_t id = kbt_txn_u32(tr, 0);

	(void)arg;
	if (id >= N_WORKERS)
		return KBT_REPLY;
	if (tr->code == CODE_REGISTER) {
		kbt_txn_object(tr, 0, &obj);
		EXPECT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
		registry[id] = obj.handle;
	} else if (tr->code == CODE_LOOKUP && registry[id]) {
		kbinder_parcel_write_handle(reply, registry[id], 0, false);
	}
	return KBT_REPLY;
}

/* ---- workers ---- */

static bool dead_reply_ok(int target)
{
	return target == st->victim &&
	       __atomic_load_n(&st->killed_at, __ATOMIC_SEQ_CST) != 0;
}

static int on_event(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg);

static void serve_one(struct kbinder_thread *t, const struct binder_transaction_data *tr)
{
	struct kbinder_parcel reply, data;
	struct flat_binder_object obj;
	struct kbinder_reply r;
	uint32_t caller = kbt_txn_u32(tr, 0), len, x;
	const uint8_t *bytes = kbt_txn_data(tr) + 8;
	bool sync = !(tr->flags & TF_ONE_WAY);

	kbinder_parcel_init(&reply);
	count(&st->w[my_id].served);
	switch (tr->code) {
	case CODE_ECHO:
	case CODE_ONEWAY:
		len = kbt_txn_u32(tr, 1);
		if (len > MAX_PAYLOAD || tr->data_size < 8 + len) {
			kbt_fail(__FILE__, __LINE__, false, "seed %u: bad payload size %u/%llu",
				 st->seed, len, (unsigned long long)tr->data_size);
			break;
		}
		if (tr->code == CODE_ONEWAY) {
			uint32_t want;

			memcpy(&want, bytes + ((len + 3) & ~3u), 4);
			if (want != checksum(bytes, len))
				kbt_fail(__FILE__, __LINE__, false,
					 "seed %u: one-way payload corrupted", st->seed);
		}
		if (tr->offsets_size) {
			kbt_txn_object(tr, 0, &obj);
			if (obj.hdr.type != BINDER_TYPE_HANDLE)
				kbt_fail(__FILE__, __LINE__, false,
					 "seed %u: object type %#x", st->seed,
					 obj.hdr.type);
		}
		kbinder_parcel_write_u32(&reply, checksum(bytes, len));
		break;
	case CODE_NESTED:
		x = kbt_txn_u32(tr, 1);
		kbt_txn_object(tr, 0, &obj);
		kbinder_parcel_init(&data);
		kbinder_parcel_write_u32(&data, x);
		if (kbinder_thread_transact(t, obj.handle, CODE_PING, &data, 0, &r, on_event,
					    NULL, KBT_WAIT_MS))
			kbt_fail(__FILE__, __LINE__, false, "seed %u: nested call failed",
				 st->seed);
		else if (r.status == BR_REPLY) {
			kbinder_parcel_write_u32(&reply, kbt_txn_u32(&r.txn, 0) + 1);
			kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
		} else if (!(r.status == BR_DEAD_REPLY && dead_reply_ok((int)caller)))
			kbt_fail(__FILE__, __LINE__, false,
				 "seed %u: nested call to %u got %s", st->seed,
				 caller, kbinder_return_name(r.status));
		kbinder_parcel_fini(&data);
		break;
	case CODE_PING:
		kbinder_parcel_write_u32(&reply, kbt_txn_u32(tr, 0) + 1);
		break;
	}
	if (sync) {
		int err = kbinder_thread_reply(t, &reply, 0, KBT_WAIT_MS);

		if (err && err != (int)BR_DEAD_REPLY)
			kbt_fail(__FILE__, __LINE__, false, "seed %u: reply: %s",
				 st->seed, kbt_outcome_str(err));
	}
	kbinder_thread_free_buffer(t, tr->data.ptr.buffer);
	kbinder_parcel_fini(&reply);
}

static int on_event(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg)
{
	(void)arg;
	switch (ret->cmd) {
	case BR_TRANSACTION:
		serve_one(t, &ret->u.txn);
		return 0;
	case BR_DEAD_BINDER:
		if (__atomic_load_n(&st->ending, __ATOMIC_SEQ_CST))
			return kbinder_thread_dead_binder_done(t, ret->u.cookie);
		if (ret->u.cookie != (binder_uintptr_t)st->victim + 1)
			kbt_fail(__FILE__, __LINE__, false,
				 "seed %u: death of %llu, victim is %d", st->seed,
				 (unsigned long long)ret->u.cookie - 1, st->victim);
		count(&st->w[my_id].deaths);
		return kbinder_thread_dead_binder_done(t, ret->u.cookie);
	default:
		return kbt_default_event(t, ret, NULL);
	}
}

static void *server_thread(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;
	struct kbinder_return ret;

	kbinder_thread_init(&t, p->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	while (!kbinder_thread_next(&t, &ret, -1))
		on_event(&t, &ret, NULL);
	return NULL;
}

/* One random call from a caller thread. */
static void random_call(struct kbinder_thread *t, uint32_t *rs)
{
	static __thread uint8_t payload[MAX_PAYLOAD];
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int target, kind = (int)(rnd(rs) % 10);
	uint32_t len = rnd(rs) % MAX_PAYLOAD, code, flags = 0, want = 0;
	size_t i;

	do {
		target = (int)(rnd(rs) % N_WORKERS);
	} while (target == my_id);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, (uint32_t)my_id);
	if (kind < 5) {			/* sync echo, sometimes with our node */
		code = CODE_ECHO;
		for (i = 0; i < len; i++)
			payload[i] = (uint8_t)rnd(rs);
		kbinder_parcel_write_u32(&data, len);
		kbinder_parcel_write(&data, payload, len);
		if (kind & 1)
			kbinder_parcel_write_binder(&data, 0x1000 + my_id, my_id, 0, false);
		want = checksum(payload, len);
	} else if (kind < 7) {		/* one-way */
		code = CODE_ONEWAY;
		flags = TF_ONE_WAY;
		len %= 256;
		for (i = 0; i < len; i++)
			payload[i] = (uint8_t)rnd(rs);
		kbinder_parcel_write_u32(&data, len);
		kbinder_parcel_write(&data, payload, len);
		kbinder_parcel_write_u32(&data, checksum(payload, len));
	} else {			/* nested: the callee calls us back */
		code = CODE_NESTED;
		want = rnd(rs);
		kbinder_parcel_write_u32(&data, want);
		kbinder_parcel_write_binder(&data, 0x1000 + my_id, my_id, 0, false);
		want += 2;
	}
	if (kbinder_thread_transact(t, peer[target], code, &data, flags, &r, on_event, NULL,
				    KBT_WAIT_MS)) {
		kbt_fail(__FILE__, __LINE__, false, "seed %u: call %d->%d timed out",
			 st->seed, my_id, target);
		stop = 1;
	} else if (r.status == BR_DEAD_REPLY && dead_reply_ok(target)) {
		count(&st->w[my_id].dead_replies);
	} else if (flags & TF_ONE_WAY) {
		if (r.status == BR_TRANSACTION_COMPLETE)
			count(&st->w[my_id].oneway_ok);
		else
			kbt_fail(__FILE__, __LINE__, false, "seed %u: one-way %d->%d got %s",
				 st->seed, my_id, target, kbinder_return_name(r.status));
	} else if (r.status != BR_REPLY) {
		kbt_fail(__FILE__, __LINE__, false, "seed %u: call %d->%d got %s",
			 st->seed, my_id, target, kbinder_return_name(r.status));
	} else {
		if (kbt_txn_u32(&r.txn, 0) != want)
			kbt_fail(__FILE__, __LINE__, false,
				 "seed %u: call %d->%d code %u: answer %#x, want %#x",
				 st->seed, my_id, target, code,
				 kbt_txn_u32(&r.txn, 0), want);
		else
			count(code == CODE_NESTED ? &st->w[my_id].nested_ok :
			      &st->w[my_id].sync_ok);
		kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
	}
	kbinder_parcel_fini(&data);
}

struct caller_arg {
	struct kbinder_proc *p;
	int64_t deadline;
	uint32_t seed;
};

static void *caller_thread(void *arg)
{
	struct caller_arg *a = arg;
	struct kbinder_thread t;
	uint32_t rs = a->seed | 1;

	kbinder_thread_init(&t, a->p->fd);
	while (!stop && kbt_now_ms() < a->deadline && !kbt_failed())
		random_call(&t, &rs);
	return NULL;
}

static void worker_main(void *arg)
{
	int64_t deadline = *(int64_t *)arg;
	struct caller_arg ca[N_CALLERS];
	pthread_t srv[N_SERVERS], cl[N_CALLERS];
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct flat_binder_object obj;
	int i, missing;

	kbt_client(&p, &t);
	for (i = 0; i < N_SERVERS; i++)
		ASSERT_EQ(pthread_create(&srv[i], NULL, server_thread, &p), 0);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, (uint32_t)my_id);
	kbinder_parcel_write_binder(&data, 0x1000 + my_id, my_id, 0, false);
	kbt_call(&t, 0, CODE_REGISTER, &data, &r);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* look the others up until all have registered */
	do {
		missing = 0;
		for (i = 0; i < N_WORKERS; i++) {
			if (i == my_id || peer[i])
				continue;
			kbinder_parcel_reset(&data);
			kbinder_parcel_write_u32(&data, (uint32_t)i);
			kbt_call(&t, 0, CODE_LOOKUP, &data, &r);
			if (r.txn.offsets_size) {
				kbt_txn_object(&r.txn, 0, &obj);
				peer[i] = obj.handle;
				ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, obj.handle));
				ASSERT_OK(kbinder_thread_request_death(&t, obj.handle,
								       (binder_uintptr_t)i + 1));
			} else {
				missing++;
			}
			kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
		}
		if (missing)
			kbt_msleep(10);
	} while (missing && kbt_now_ms() < deadline);
	ASSERT_EQ(missing, 0);
	kbinder_parcel_fini(&data);
	for (i = 0; i < N_CALLERS; i++) {
		ca[i].p = &p;
		ca[i].deadline = deadline;
		ca[i].seed = st->seed ^ (uint32_t)(my_id * 7919 + i * 104729);
		ASSERT_EQ(pthread_create(&cl[i], NULL, caller_thread, &ca[i]), 0);
	}
	for (i = 0; i < N_CALLERS; i++)
		pthread_join(cl[i], NULL);
	/* the death notification may still be on its way */
	for (i = 0; i < 200 && my_id != st->victim &&
	     !__atomic_load_n(&st->w[my_id].deaths, __ATOMIC_SEQ_CST); i++)
		kbt_msleep(10);
	/* stay alive (serving) until everyone is done */
	for (;;)
		pause();
}

TEST_TIMEOUT(random_calls_with_a_killed_worker, 90)
{
	const char *env = getenv("KBT_SEED");
	struct kbt_server reg;
	pid_t w[N_WORKERS];
	int64_t start, deadline;
	int i, total = 0;

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(st != MAP_FAILED);
	memset(st, 0, sizeof(*st));
	st->seed = env && *env ? (uint32_t)strtoul(env, NULL, 0) :
		   (uint32_t)kbt_now_ms() ^ (uint32_t)getpid();
	st->victim = (int)(st->seed % N_WORKERS);
	printf("stress: seed %u (KBT_SEED=%u to repeat), victim worker %d\n",
	       st->seed, st->seed, st->victim);
	fflush(stdout);

	kbt_start_ctxmgr(&reg, registry_handler, NULL);
	start = kbt_now_ms();
	deadline = start + LOAD_MS;
	for (i = 0; i < N_WORKERS; i++) {
		my_id = i;
		w[i] = kbt_fork(worker_main, &deadline);
	}
	kbt_msleep(KILL_AT_MS);
	__atomic_store_n(&st->killed_at, kbt_now_ms(), __ATOMIC_SEQ_CST);
	kill(w[st->victim], SIGKILL);
	while (kbt_now_ms() < deadline + 2500)
		kbt_msleep(100);
	for (i = 0; i < N_WORKERS; i++) {
		kbt_log("worker %d: sync %d, one-way %d, nested %d, dead replies %d, served %d, deaths %d",
			i, st->w[i].sync_ok, st->w[i].oneway_ok, st->w[i].nested_ok,
			st->w[i].dead_replies, st->w[i].served, st->w[i].deaths);
		total += st->w[i].sync_ok + st->w[i].oneway_ok + st->w[i].nested_ok;
		if (i != st->victim)
			EXPECT_EQ(st->w[i].deaths, 1);
	}
	__atomic_store_n(&st->ending, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < N_WORKERS; i++) {
		kill(w[i], SIGKILL);
		kbt_reap(w[i], 5000);
	}
	ASSERT_GT(total, 50);
	{
		struct kbinder_proc p;
		struct kbinder_thread t;

		kbt_client(&p, &t);
		kbt_stop_with_client(&t, &reg, &p);
	}
}
