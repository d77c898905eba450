// SPDX-License-Identifier: Apache-2.0
/*
 * How many file descriptors one transaction carries (docs/security.md):
 * what fits in its buffer, up to a quarter of the area, with no smaller
 * cap and nothing allocated per fd on the read path; an fd array that
 * claims more entries than its parent buffer holds is refused before any
 * fd is taken or installed.
 */
#include "cve_common.h"
#include "driver_features.h"
#include "live.h"

#include <sys/resource.h>
#include <sys/stat.h>

enum { CODE_FDS = 1 };

/* A quarter of the area, as u32 fd entries in one scatter-gather buffer. */
#define MANY_FDS (KBT_MAP_SIZE / 4 / sizeof(uint32_t))

struct expect {
	uint32_t num_fds;
	ino_t ino;		/* of the pipe every entry refers to */
};

/*
 * The receiver: an fd array of @e->num_fds entries, each a new fd of ours
 * for the sender's pipe; the driver closes them with the buffer. Anything
 * else, or any call when @e->num_fds is 0, fails the test.
 */
static int fds_handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	const struct expect *e = arg;
	struct binder_buffer_object parent;
	struct binder_fd_array_object fda;
	const uint8_t *data = kbt_txn_data(tr);
	const uint32_t *fds;
	uint32_t i, bad = 0;
	struct stat st;
	int before;

	(void)t;
	if (!e->num_fds)
		kbt_fail(__FILE__, __LINE__, false,
			 "a call that the driver should have refused arrived");
	memcpy(&parent, data + CVE_HDR, sizeof(parent));
	memcpy(&fda, data + CVE_HDR + CVE_PTR_SIZE, sizeof(fda));
	ASSERT_EQ(fda.hdr.type, BINDER_TYPE_FDA);
	ASSERT_EQ(fda.num_fds, e->num_fds);
	ASSERT_EQ(parent.length, e->num_fds * sizeof(uint32_t));
	fds = (const uint32_t *)(uintptr_t)parent.buffer;
	before = kbt_fd_count();
	/* every entry its own fd, for the pipe (every 64th: TCG is slow) */
	for (i = 0; i < fda.num_fds; i++) {
		if (i && fds[i] == fds[i - 1])
			bad++;
		if ((i % 64 == 0 || i == fda.num_fds - 1) &&
		    (fstat((int)fds[i], &st) || st.st_ino != e->ino))
			bad++;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_GE(before, (int)fda.num_fds);
	kbinder_parcel_write_u32(reply, fda.num_fds);
	return KBT_REPLY;
}

static const struct flat_binder_object accepts_fds = {
	.hdr.type = BINDER_TYPE_BINDER,
	.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
};

static void start_receiver(struct kbt_server *s, struct expect *e)
{
	memset(s, 0, sizeof(*s));
	s->fn = fds_handler;
	s->arg = e;
	s->ctxmgr = true;
	s->ext = &accepts_fds;
	kbt_start_child(s, kbt_server_main);
}

/*
 * Send an fd array of @num_fds entries in a parent buffer of @entries u32
 * (all the read end of @pipe_rd), after CVE_HDR bytes (see
 * cve_transact_hdr()). Return: the outcome, the reply in @r.
 */
static uint32_t send_fds(struct kbinder_thread *t, int pipe_rd, size_t entries,
			 size_t num_fds, struct kbinder_reply *r)
{
	uint8_t data[CVE_HDR + CVE_PTR_SIZE + CVE_FDA_SIZE] = { 0 };
	binder_size_t offs[2] = { CVE_HDR, CVE_HDR + CVE_PTR_SIZE };
	uint32_t *fds = calloc(entries, sizeof(uint32_t));
	struct kbt_txn x = {
		.code = CODE_FDS, .data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs), .sg = true,
		.sg_size = entries * sizeof(uint32_t),
	};
	int64_t start = kbt_now_ms();
	uint32_t st;

	ASSERT_TRUE(fds != NULL);
	for (size_t i = 0; i < entries; i++)
		fds[i] = (uint32_t)pipe_rd;
	cve_put_ptr(data, CVE_HDR, fds, entries * sizeof(uint32_t), false, 0, 0);
	cve_put_fda(data, CVE_HDR + CVE_PTR_SIZE, num_fds, 0, 0);
	kbt_write_txn(t->fd, &x);
	/* 65536 fds take tens of seconds under KASAN and TCG */
	st = kbt_outcome(t, false, r, 100000);
	kbt_log("%zu fds in a parent of %zu: %s after %lld ms", num_fds, entries,
		kbinder_return_name(st), (long long)(kbt_now_ms() - start));
	free(fds);
	return st;
}

TEST_TIMEOUT(a_transaction_carries_as_many_fds_as_a_quarter_of_the_area_holds, 120)
{
	/* The debug kernel takes a quarter of them: its KASAN watches the same path. */
	const uint32_t n = kbt_slow_kernel() ? MANY_FDS / 4 : MANY_FDS;
	struct rlimit lim = { MANY_FDS + 256, MANY_FDS + 256 };
	struct kbinder_thread t;
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct expect e;
	struct stat st;
	int pipe_fds[2];
	struct kbt_live base;
	bool counted = kbt_live_base(&base);	/* not on the reference */

	REQUIRE_FULL_PROFILE("BINDER_TYPE_FDA");

	if (setrlimit(RLIMIT_NOFILE, &lim))
		SKIP("cannot raise RLIMIT_NOFILE to %zu: %s", (size_t)MANY_FDS + 256,
		     strerror(errno));
	ASSERT_OK(pipe2(pipe_fds, O_CLOEXEC));
	ASSERT_OK(fstat(pipe_fds[0], &st));
	e.num_fds = n;
	e.ino = st.st_ino;
	start_receiver(&s, &e);
	kbt_client(&p, &t);
	ASSERT_STATUS(send_fds(&t, pipe_fds[0], n, n, &r), BR_REPLY);
	EXPECT_EQ(kbt_txn_u32(&r.txn, 0), n);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbt_stop_with_client(&t, &s, &p);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	/*
	 * The receiver's file goes asynchronously, with its 65536 fds: slow
	 * under KASAN. Let it go before the next test counts live objects.
	 * Back to at most what was live before: the previous test's
	 * processes may still have been going then.
	 */
	if (counted)
		EXPECT_LIVE_BACK(&base, 60000, "the receiver's objects left");
}

/* More entries than the parent holds, by one and by an overflowing count. */
TEST(an_fd_array_longer_than_its_parent_buffer_is_refused)
{
	static const size_t counts[] = { 17, 0x40000001u, 0x40000004u };
	struct kbt_fd_snap before;
	struct kbinder_thread t;
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct expect e = { 0 };
	int pipe_fds[2];

	REQUIRE_FULL_PROFILE("BINDER_TYPE_FDA");

	ASSERT_OK(pipe2(pipe_fds, O_CLOEXEC));
	start_receiver(&s, &e);
	kbt_client(&p, &t);
	ASSERT_OK(kbt_fd_snapshot(&before));
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint32_t st = send_fds(&t, pipe_fds[0], 16, counts[i], &r);

		if (st != BR_FAILED_REPLY)
			kbt_fail(__FILE__, __LINE__, false,
				 "an fd array of %zu entries in a parent of 16: %s, want BR_FAILED_REPLY",
				 counts[i], kbinder_return_name(st));
		if (st == BR_REPLY)
			ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	}
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	kbt_stop_with_client(&t, &s, &p);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}
