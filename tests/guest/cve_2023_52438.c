// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2023-52438: the binder shrinker (called under memory pressure to
 * reclaim the pages of freed buffers) looked up the process's mapping and
 * used it after dropping the lock that kept it alive, racing munmap() and
 * process exit: a use-after-free of the vma.
 *
 * The tests make pages reclaimable (large transactions into a server, then
 * freed), then keep reclaim running (writes of 2 to
 * /proc/sys/vm/drop_caches, which runs every shrinker, plus allocating and
 * touching memory) while the server unmaps its receive area or is killed,
 * round after round. A call into an unmapped server must fail with a
 * protocol error, never crash; the kernel log must stay clean. A second
 * test keeps some buffers in use while the rest is reclaimed: the kept
 * buffers must keep their contents, and new transactions into reclaimed
 * pages must arrive byte for byte.
 */
#include "cve_common.h"

enum {
	CODE_DATA = 1,		/* reply 1 if the payload is intact */
	CODE_KEEP,		/* like DATA, but the server keeps the buffer */
	CODE_CHECK_KEPT,	/* reply 1 if every kept buffer is intact; free them */
	CODE_UNMAP,		/* the server unmaps its receive area */
};

#define CHUNK ((size_t)96 * 1024)
#define MAX_KEPT 16

static bool payload_ok(const uint8_t *data, size_t size, uint32_t seed)
{
	uint8_t *want = malloc(size);
	bool ok;

	if (!want)
		return false;
	kbt_fill(want, size, seed);
	ok = !memcmp(want, data, size);
	free(want);
	return ok;
}

/* ---------------------------------------------------------------- */
/* reclaim                                                           */
/* ---------------------------------------------------------------- */

struct reclaimer {
	pthread_t th;
	volatile bool stop;
	int drops;
};

static void *reclaim_loop(void *arg)
{
	struct reclaimer *r = arg;

	while (!r->stop) {
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		size_t n = (size_t)4 << 20;
		char *mem;

		if (fd >= 0) {
			if (write(fd, "2\n", 2) == 2)
				r->drops++;
			close(fd);
		}
		mem = mmap(NULL, n, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem != MAP_FAILED) {
			memset(mem, 0x5a, n);
			munmap(mem, n);
		}
	}
	return NULL;
}

static void reclaim_start(struct reclaimer *r)
{
	if (access("/proc/sys/vm/drop_caches", W_OK))
		SKIP("cannot write /proc/sys/vm/drop_caches: %s", strerror(errno));
	memset(r, 0, sizeof(*r));
	ASSERT_EQ(pthread_create(&r->th, NULL, reclaim_loop, r), 0);
}

static void reclaim_stop(struct reclaimer *r)
{
	r->stop = true;
	pthread_join(r->th, NULL);
}

/* ---------------------------------------------------------------- */
/* the server                                                        */
/* ---------------------------------------------------------------- */

struct server {
	struct kbt_server k;
	struct kbinder_proc p;
	binder_uintptr_t kept[MAX_KEPT];
	uint32_t kept_seed[MAX_KEPT];
	size_t kept_size[MAX_KEPT];
	int nkept;
};

static void server_main(void *arg)
{
	struct server *s = arg;
	struct kbinder_parcel reply;
	struct kbinder_return ret;
	struct kbinder_thread t;
	char cmd;

	kbt_manager(&s->p, &t, NULL);
	kbinder_parcel_init(&reply);
	ASSERT_SIGNAL(&s->k.chan, 'R');
	for (;;) {
		const struct binder_transaction_data *tr = &ret.u.txn;
		bool keep = false, ok = true;

		ASSERT_OK(kbinder_thread_next(&t, &ret, -1));
		if (ret.cmd != BR_TRANSACTION) {
			if (ret.cmd != BR_NOOP)
				kbt_default_event(&t, &ret, NULL);
			continue;
		}
		kbinder_parcel_reset(&reply);
		switch (tr->code) {
		case CODE_DATA:
		case CODE_KEEP:
			ok = payload_ok(kbt_txn_data(tr), tr->data_size,
					(uint32_t)tr->data_size);
			if (tr->code == CODE_KEEP && s->nkept < MAX_KEPT) {
				keep = true;
				s->kept[s->nkept] = tr->data.ptr.buffer;
				s->kept_seed[s->nkept] = (uint32_t)tr->data_size;
				s->kept_size[s->nkept++] = tr->data_size;
			}
			break;
		case CODE_CHECK_KEPT:
			for (int i = 0; i < s->nkept; i++) {
				ok &= payload_ok((const uint8_t *)(uintptr_t)s->kept[i],
						 s->kept_size[i], s->kept_seed[i]);
				EXPECT_OK(kbinder_thread_free_buffer(&t, s->kept[i]));
			}
			s->nkept = 0;
			break;
		case CODE_UNMAP:
			ASSERT_EQ(munmap(s->p.map, s->p.map_size), 0);
			break;
		default:	/* KBT_CODE_QUIT */
			break;
		}
		kbinder_parcel_write_u32(&reply, ok);
		if (!(tr->flags & TF_ONE_WAY))
			ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
		if (tr->code == CODE_UNMAP) {
			/* nothing can be delivered any more: wait to be told */
			kbt_recv(&s->k.chan, &cmd, 1, 60000);
			_exit(0);
		}
		if (!keep)
			ASSERT_OK(kbinder_thread_free_buffer(&t, tr->data.ptr.buffer));
		if (tr->code == KBT_CODE_QUIT)
			break;
	}
	kbinder_parcel_fini(&reply);
	kbinder_proc_close(&s->p);
}

static void server_start(struct server *s)
{
	memset(s, 0, sizeof(*s));
	kbt_chan_init(&s->k.chan);
	s->k.pid = kbt_fork(server_main, s);
	ASSERT_WAIT(&s->k.chan, 'R');
}

static uint32_t call_data(struct kbinder_thread *t, uint32_t code, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	struct kbinder_reply r;
	struct kbt_txn x = { .code = code, .data = buf, .size = size };
	uint32_t st, v;

	ASSERT_TRUE(buf != NULL);
	kbt_fill(buf, size, (uint32_t)size);
	st = kbt_transact(t, &x, &r);
	free(buf);
	if (st != BR_REPLY)
		return 0x80000000u | st;
	v = kbt_txn_u32(&r.txn, 0);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	return v;
}

/* Fill the server's area with payloads and free them: reclaimable pages. */
static void churn(struct kbinder_thread *t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ASSERT_EQ(call_data(t, CODE_DATA, CHUNK + (size_t)i * 4096), 1);
}

TEST_TIMEOUT(reclaim_racing_munmap_and_exit, 120)
{
	struct reclaimer rec;
	struct server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int round;

	reclaim_start(&rec);
	kbt_client(&p, &t);
	for (round = 0; round < 8; round++) {
		uint32_t v;

		server_start(&s);
		churn(&t, 8);
		if (round & 1) {
			/* the server kills its own mapping under reclaim */
			ASSERT_EQ(call_data(&t, CODE_UNMAP, 0), 1);
			v = call_data(&t, CODE_DATA, CHUNK);
			if (v != (0x80000000u | BR_FAILED_REPLY) &&
			    v != (0x80000000u | BR_DEAD_REPLY))
				kbt_fail(__FILE__, __LINE__, true,
					 "call into an unmapped server: %#x", v);
			ASSERT_SIGNAL(&s.k.chan, 'x');
			ASSERT_CHILD_OK(s.k.pid);
		} else {
			/* the server dies under reclaim */
			ASSERT_EQ(kbt_kill(s.k.pid), 128 + SIGKILL);
		}
		kbt_chan_close(&s.k.chan);
	}
	reclaim_stop(&rec);
	kbt_log("%d drop_caches writes", rec.drops);
	ASSERT_GT(rec.drops, 0);
	/* the driver still works, with reclaimed pages */
	server_start(&s);
	churn(&t, 4);
	kbt_stop_ctxmgr(&t, &s.k);
	kbinder_proc_close(&p);
}

TEST_TIMEOUT(reclaim_keeps_buffers_in_use_intact, 120)
{
	struct reclaimer rec;
	struct server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int round, i;

	server_start(&s);
	kbt_client(&p, &t);
	reclaim_start(&rec);
	for (round = 0; round < 6; round++) {
		for (i = 0; i < 3; i++)
			ASSERT_EQ(call_data(&t, CODE_KEEP,
					    20000 + (size_t)(round * 3 + i) * 1000), 1);
		churn(&t, 4);
		kbt_msleep(50);
		ASSERT_EQ(call_data(&t, CODE_CHECK_KEPT, 0), 1);
	}
	reclaim_stop(&rec);
	churn(&t, 6);
	kbt_stop_ctxmgr(&t, &s.k);
	kbinder_proc_close(&p);
}
