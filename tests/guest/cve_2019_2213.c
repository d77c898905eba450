// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2019-2213: BC_FREE_BUFFER and the driver's own end of a transaction
 * (binder_free_transaction(), on reply, delivery of a one-way call, a
 * failed reply or a thread exit) both cleared the buffer's link to its
 * transaction, without a common lock; run together they freed the buffer
 * while the other still used it. More generally a receiver can name any
 * address in BC_FREE_BUFFER: a buffer not delivered yet, one already
 * freed, one being freed by another thread, or none at all.
 *
 * The tests free a buffer that is queued but not yet delivered, free
 * buffers twice, free bogus addresses (0, ~0, unaligned, inside a buffer,
 * just outside the mapping), free one buffer from two threads at once, and
 * free a buffer while the receiving thread replies to it or exits with it
 * on its stack. The command must never hurt: the undelivered transaction
 * arrives intact, the sender gets BR_REPLY or (thread exit) BR_DEAD_REPLY,
 * and afterwards the whole mapping is still allocatable with payloads that
 * arrive byte for byte (the allocator was not corrupted).
 */
#include "cve_common.h"

enum {
	CODE_DATA = 1,		/* payload filled with kbt_fill(seed = size) */
	CODE_DOUBLE_FREE,	/* the server frees the buffer twice */
	CODE_BOGUS_FREES,	/* the server frees bogus addresses first */
	CODE_CHECK,		/* reply 1 if the payload is intact */
};

#define BIG ((size_t)900 * 1024)

static void *srv_map;
static size_t srv_map_size;

/* BC_FREE_BUFFER as a raw write; the driver may ignore or refuse it. */
static int free_raw(int fd, binder_uintptr_t addr)
{
	uint8_t buf[16];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_writer_put_free_buffer(&w, addr);
	return kbinder_ioctl_write(fd, buf, w.len, NULL);
}

#define EXPECT_HARMLESS(ret) do {					\
	int _r = (ret);							\
	if (_r && _r != -EINVAL && _r != -EPERM && _r != -ENOENT &&	\
	    _r != -EFAULT)						\
		kbt_fail(__FILE__, __LINE__, false, "%s: %s", #ret,	\
			 kbt_strerr(_r));				\
} while (0)

static bool payload_ok(const struct binder_transaction_data *tr)
{
	uint8_t *want;
	bool ok;

	if (tr->data_size == 0)
		return true;
	want = malloc(tr->data_size);
	if (!want)
		return false;
	kbt_fill(want, tr->data_size, (uint32_t)tr->data_size);
	ok = !memcmp(want, kbt_txn_data(tr), tr->data_size);
	free(want);
	return ok;
}

static int handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		   struct kbinder_parcel *reply, void *arg)
{
	binder_uintptr_t buf = tr->data.ptr.buffer;
	binder_uintptr_t map = (binder_uintptr_t)(uintptr_t)srv_map;
	uint64_t stack_addr = (uint64_t)(uintptr_t)&arg;

	switch (tr->code) {
	case CODE_CHECK:
		/* free before replying: the caller's next call may need it all */
		kbinder_parcel_write_u32(reply, payload_ok(tr));
		EXPECT_OK(kbinder_thread_free_buffer(t, buf));
		return KBT_REPLY | KBT_KEPT;
	case CODE_DOUBLE_FREE:
		kbinder_parcel_write_u32(reply, payload_ok(tr));
		EXPECT_OK(kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS));
		EXPECT_OK(free_raw(t->fd, buf));
		EXPECT_HARMLESS(free_raw(t->fd, buf));
		return KBT_REPLIED | KBT_KEPT;
	case CODE_BOGUS_FREES:
		EXPECT_HARMLESS(free_raw(t->fd, 0));
		EXPECT_HARMLESS(free_raw(t->fd, 1));
		EXPECT_HARMLESS(free_raw(t->fd, ~(binder_uintptr_t)0));
		EXPECT_HARMLESS(free_raw(t->fd, map - 8));
		EXPECT_HARMLESS(free_raw(t->fd, map + srv_map_size));
		EXPECT_HARMLESS(free_raw(t->fd, map + srv_map_size - 8));
		EXPECT_HARMLESS(free_raw(t->fd, buf + 1));
		EXPECT_HARMLESS(free_raw(t->fd, buf + 8));
		EXPECT_HARMLESS(free_raw(t->fd, buf + 4096));
		EXPECT_HARMLESS(free_raw(t->fd, stack_addr));
		kbinder_parcel_write_u32(reply, payload_ok(tr));
		return KBT_REPLY;
	default:
		return KBT_REPLY;
	}
}

/*
 * The servers' start: this process is the context manager (a 1 MiB
 * mapping, recorded in srv_map) and says 'R' to the test on @s's channel.
 */
static void become_server(struct kbt_server *s, struct kbinder_proc *p,
			  struct kbinder_thread *t)
{
	kbt_manager(p, t, NULL);
	srv_map = p->map;
	srv_map_size = p->map_size;
	ASSERT_SIGNAL(&s->chan, 'R');
}

/* A context manager serving @handler. */
static void server_main(void *arg)
{
	struct kbinder_thread t;
	struct kbinder_proc p;

	become_server(arg, &p, &t);
	ASSERT_OK(kbt_serve(&t, handler, NULL));
	kbinder_proc_close(&p);
}

static void start(struct kbt_pair *pair)
{
	memset(&pair->mgr, 0, sizeof(pair->mgr));
	kbt_start_child(&pair->mgr, server_main);
	kbt_client(&pair->p, &pair->t);
}

/* A call with a kbt_fill()ed payload of @size; returns the u32 reply. */
static uint32_t call_data(struct kbinder_thread *t, uint32_t code, size_t size)
{
	struct kbinder_reply r;
	struct kbinder_parcel d;
	uint32_t v;

	kbinder_parcel_init(&d);
	if (size) {
		uint8_t *buf = malloc(size);

		ASSERT_TRUE(buf != NULL);
		kbt_fill(buf, size, (uint32_t)size);
		kbinder_parcel_write(&d, buf, size);
		free(buf);
	}
	kbt_call(t, 0, code, &d, &r);
	kbinder_parcel_fini(&d);
	v = kbt_txn_u32(&r.txn, 0);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	return v;
}

/* The allocator is intact: the whole mapping, three times, byte for byte. */
static void mapping_still_whole(struct kbinder_thread *t)
{
	int i;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(call_data(t, CODE_CHECK, BIG), 1);
	for (i = 0; i < 20; i++)
		ASSERT_EQ(call_data(t, CODE_CHECK, 4096 * (size_t)(i + 1)), 1);
}

TEST(double_free_is_harmless)
{
	struct kbt_pair pair;
	int i;

	start(&pair);
	for (i = 0; i < 50; i++)
		ASSERT_EQ(call_data(&pair.t, CODE_DOUBLE_FREE, 64 + 8 * (size_t)i), 1);
	mapping_still_whole(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(free_of_bogus_addresses_is_harmless)
{
	struct kbt_pair pair;
	int i;

	start(&pair);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(call_data(&pair.t, CODE_BOGUS_FREES, 8192), 1);
	mapping_still_whole(&pair.t);
	kbt_pair_stop(&pair);
}

/* ---------------------------------------------------------------- */
/* a buffer queued but not delivered yet                            */
/* ---------------------------------------------------------------- */

static void undelivered_server(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_return ret;
	binder_uintptr_t x;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t ok;

	become_server(s, &p, &t);
	/* learn where a buffer of this size goes, and free it */
	kbt_expect(&t, BR_TRANSACTION, &ret);
	x = ret.u.txn.data.ptr.buffer;
	ASSERT_OK(kbinder_thread_free_buffer(&t, x));
	ASSERT_SIGNAL(&s->chan, 'A');
	/* the second one is queued (most likely at @x), not delivered */
	ASSERT_WAIT(&s->chan, 'B');
	EXPECT_HARMLESS(free_raw(p.fd, x));
	EXPECT_HARMLESS(free_raw(p.fd, (binder_uintptr_t)(uintptr_t)p.map));
	EXPECT_HARMLESS(free_raw(p.fd, x + 8));
	kbt_expect(&t, BR_TRANSACTION, &ret);
	ok = payload_ok(&ret.u.txn) && ret.u.txn.data_size == 256;
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_OK(kbt_send(&s->chan, &ok, sizeof(ok)));
	ASSERT_OK(kbt_serve(&t, handler, NULL));
	kbinder_proc_close(&p);
}

static void oneway_data(struct kbinder_thread *t, size_t size)
{
	uint8_t buf[256];
	struct kbt_txn x = { .code = CODE_DATA, .flags = TF_ONE_WAY,
			     .data = buf, .size = size };

	kbt_fill(buf, size, (uint32_t)size);
	ASSERT_STATUS(kbt_transact(t, &x, NULL), BR_TRANSACTION_COMPLETE);
}

TEST(free_of_undelivered_buffer_is_ignored)
{
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t ok = 0;
	int round;

	for (round = 0; round < 5; round++) {
		memset(&s, 0, sizeof(s));
		kbt_start_child(&s, undelivered_server);
		kbt_client(&p, &t);
		oneway_data(&t, 256);
		ASSERT_WAIT(&s.chan, 'A');
		oneway_data(&t, 256);
		ASSERT_SIGNAL(&s.chan, 'B');
		ASSERT_OK(kbt_recv(&s.chan, &ok, sizeof(ok), KBT_WAIT_MS));
		ASSERT_EQ(ok, 1);
		mapping_still_whole(&t);
		kbt_stop_with_client(&t, &s, &p);
	}
}

/* ---------------------------------------------------------------- */
/* frees racing each other, a reply, or a thread exit               */
/* ---------------------------------------------------------------- */

#define RACE_ROUNDS 200

enum race_mode { RACE_TWO_FREES, RACE_REPLY, RACE_THREAD_EXIT };

struct race {
	int fd;
	enum race_mode mode;
	pthread_barrier_t go, done;
	binder_uintptr_t buf;
	bool stop;
};

static void *freer(void *arg)
{
	struct race *r = arg;

	for (;;) {
		pthread_barrier_wait(&r->go);
		if (r->stop)
			return NULL;
		EXPECT_HARMLESS(free_raw(r->fd, r->buf));
		pthread_barrier_wait(&r->done);
	}
}

static void race_server(void *arg)
{
	struct kbt_server *s = arg;
	struct race *r = s->arg;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_parcel empty;
	struct kbinder_proc p;
	pthread_t f[2];
	int i, nf = r->mode == RACE_TWO_FREES ? 2 : 1;

	kbt_open(&p);
	r->fd = p.fd;
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	pthread_barrier_init(&r->go, NULL, (unsigned int)nf + 1);
	pthread_barrier_init(&r->done, NULL, (unsigned int)nf + 1);
	for (i = 0; i < nf; i++)
		ASSERT_EQ(pthread_create(&f[i], NULL, freer, r), 0);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	kbinder_parcel_init(&empty);
	ASSERT_SIGNAL(&s->chan, 'R');
	for (i = 0; i < RACE_ROUNDS; i++) {
		kbt_expect(&t, BR_TRANSACTION, &ret);
		r->buf = ret.u.txn.data.ptr.buffer;
		pthread_barrier_wait(&r->go);
		switch (r->mode) {
		case RACE_TWO_FREES:
			break;	/* both freers free it */
		case RACE_REPLY:
			EXPECT_OK(kbinder_thread_reply(&t, &empty, 0, KBT_WAIT_MS));
			break;
		case RACE_THREAD_EXIT:
			if (i & 1) {
				EXPECT_OK(kbinder_thread_reply(&t, &empty, 0, KBT_WAIT_MS));
				break;
			}
			/* leave with the transaction on this thread's stack */
			EXPECT_OK(kbinder_ioctl_thread_exit(p.fd));
			kbinder_thread_init(&t, p.fd);
			EXPECT_OK(kbinder_thread_enter_looper(&t));
			break;
		}
		pthread_barrier_wait(&r->done);
	}
	r->stop = true;
	pthread_barrier_wait(&r->go);
	for (i = 0; i < nf; i++)
		pthread_join(f[i], NULL);
	ASSERT_SIGNAL(&s->chan, 'D');
	ASSERT_OK(kbt_serve(&t, handler, NULL));
	kbinder_proc_close(&p);
}

static void race(enum race_mode mode)
{
	struct race r;
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int i;

	memset(&r, 0, sizeof(r));
	memset(&s, 0, sizeof(s));
	r.mode = mode;
	s.arg = &r;
	kbt_start_child(&s, race_server);
	kbt_client(&p, &t);
	for (i = 0; i < RACE_ROUNDS; i++) {
		uint8_t data[64];
		struct kbt_txn x = { .code = CODE_DATA, .data = data,
				     .size = sizeof(data) };
		uint32_t st, want = BR_REPLY;

		kbt_fill(data, sizeof(data), sizeof(data));
		if (mode == RACE_TWO_FREES)
			x.flags = TF_ONE_WAY;
		st = kbt_transact(&t, &x, NULL);
		if (mode == RACE_TWO_FREES)
			want = BR_TRANSACTION_COMPLETE;
		else if (mode == RACE_THREAD_EXIT && !(i & 1))
			want = BR_DEAD_REPLY;
		if (st != want)
			kbt_fail(__FILE__, __LINE__, true, "round %d: got %s, want %s",
				 i, kbinder_return_name(st), kbinder_return_name(want));
	}
	/* one-way calls may still be queued: let the server finish them */
	ASSERT_OK(kbt_wait(&s.chan, 'D', 60000));
	mapping_still_whole(&t);
	kbt_stop_with_client(&t, &s, &p);
}

TEST_TIMEOUT(concurrent_frees_of_one_buffer_from_two_threads, 90)
{
	race(RACE_TWO_FREES);
}

TEST_TIMEOUT(free_racing_the_reply, 90)
{
	race(RACE_REPLY);
}

TEST_TIMEOUT(free_racing_a_thread_exit_with_the_transaction, 90)
{
	race(RACE_THREAD_EXIT);
}
