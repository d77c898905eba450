// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2026-23194 (Rust binder): a BINDER_TYPE_FDA with num_fds 0 has a
 * fix-up of length 0, and length 0 was also the marker of a pointer
 * fix-up; an empty array at the very end of its parent buffer was then
 * patched like a pointer, 8 bytes past the end. An empty fd array is valid
 * binder: it must be accepted wherever a non-empty one fits, change nothing
 * in the parent, and leave the transaction usable.
 *
 * The tests send empty fd arrays at the start, middle and end of their
 * parent (the end of the parent also being the end of the scatter-gather
 * area), next to real arrays, one-way and sync, and check that the call
 * succeeds, the receiver sees the parent byte for byte as sent (the
 * registry sums it) and num_fds 0, and real fds next to it arrive and are
 * released with the buffer (the pipe hangs up once we close our end).
 */
#include "cve_common.h"
#include "driver_features.h"

struct fixture {
	struct cve_server r;
	struct kbinder_proc p;
	struct kbinder_thread t;
	uint8_t buf[64] __attribute__((aligned(8)));	/* the parent's bytes */
};

static void up(struct fixture *f)
{
	/* Every test here sends FDA objects in BC_TRANSACTION_SG buffers. */
	REQUIRE_FULL_PROFILE("BC_TRANSACTION_SG, BINDER_TYPE_PTR and BINDER_TYPE_FDA");
	cve_registry_start(&f->r);
	kbt_client(&f->p, &f->t);
}

static void down(struct fixture *f)
{
	cve_ping(&f->t, 0);
	cve_server_stop(&f->t, &f->r);
	kbinder_proc_close(&f->p);
}

/*
 * Send [parent PTR @buf,len][empty FDA at @at] and check what the registry
 * saw. The scatter-gather area ends exactly where the parent does.
 */
static void empty_at(struct fixture *f, size_t len, size_t at, uint32_t flags)
{
	const uint8_t *buf = f->buf;
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	struct kbinder_reply r;
	struct kbt_txn x = {
		.code = CVE_SG_SUM, .flags = flags, .data = data,
		.size = sizeof(data), .offs = offs, .offs_size = sizeof(offs),
		.sg = true, .sg_size = (len + 7) & ~(size_t)7,
	};

	cve_put_ptr(data, 0, buf, len, false, 0, 0);
	cve_put_fda(data, CVE_PTR_SIZE, 0, 0, at);
	if (flags & TF_ONE_WAY) {
		ASSERT_STATUS(cve_transact_hdr(&f->t, &x, NULL),
			      BR_TRANSACTION_COMPLETE);
		return;
	}
	ASSERT_STATUS(cve_transact_hdr(&f->t, &x, &r), BR_REPLY);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 2);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 1), BINDER_TYPE_PTR);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 2), len);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 3), cve_sum(buf, len));
	ASSERT_EQ(kbt_txn_u32(&r.txn, 4), BINDER_TYPE_FDA);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 5), 0);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 6), at);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 7), 0);	/* no fd in the receiver */
	ASSERT_OK(kbinder_thread_free_buffer(&f->t, r.txn.data.ptr.buffer));
}

TEST(empty_fd_array_at_end_of_parent_is_accepted)
{
	struct fixture f;

	up(&f);
	for (size_t len = 8; len <= sizeof(f.buf); len += 8) {
		kbt_fill(f.buf, sizeof(f.buf), (uint32_t)len);
		empty_at(&f, len, len, 0);
	}
	down(&f);
}

TEST(empty_fd_array_at_start_and_middle_of_parent_is_accepted)
{
	struct fixture f;

	up(&f);
	kbt_fill(f.buf, 32, 3);
	for (size_t at = 0; at < 32; at += 4)
		empty_at(&f, 32, at, 0);
	down(&f);
}

TEST(empty_fd_array_in_oneway_transaction_is_accepted)
{
	struct fixture f;

	up(&f);
	kbt_fill(f.buf, 16, 5);
	for (int i = 0; i < 10; i++)
		empty_at(&f, 16, 16, TF_ONE_WAY);
	down(&f);
}

/* [parent { u32 fds[2]; u32 pad[2] }][FDA 0 @0][FDA 2 @0][FDA 0 @8][FDA 0 @16] */
TEST(empty_fd_arrays_next_to_real_ones_work)
{
	uint8_t data[CVE_PTR_SIZE + 4 * CVE_FDA_SIZE];
	binder_size_t offs[5];
	int32_t parent[4];
	struct kbt_fd_snap before;
	struct kbinder_reply r;
	struct fixture f;
	int pfd[2], i;
	struct kbt_txn x = {
		.code = CVE_SG_SUM, .data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs), .sg = true,
		.sg_size = sizeof(parent),
	};

	up(&f);
	ASSERT_EQ(pipe2(pfd, O_CLOEXEC), 0);
	ASSERT_OK(kbt_fd_snapshot(&before));
	for (i = 0; i < 5; i++)
		offs[i] = i ? CVE_PTR_SIZE + (i - 1) * CVE_FDA_SIZE : 0;
	for (i = 0; i < 3; i++) {
		parent[0] = pfd[1];
		parent[1] = pfd[1];
		parent[2] = 0x5a5a5a5a;
		parent[3] = 0x0f0f0f0f;
		cve_put_ptr(data, 0, parent, sizeof(parent), false, 0, 0);
		cve_put_fda(data, offs[1], 0, 0, 0);
		cve_put_fda(data, offs[2], 2, 0, 0);
		cve_put_fda(data, offs[3], 0, 0, 8);
		cve_put_fda(data, offs[4], 0, 0, 16);
		ASSERT_STATUS(cve_transact_hdr(&f.t, &x, &r), BR_REPLY);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 5);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 8), 2);	/* the real one */
		ASSERT_EQ(kbt_txn_u32(&r.txn, 11), 0);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 14), 0);
		/* the receiver got exactly the real array's two fds ... */
		ASSERT_EQ(kbt_txn_u32(&r.txn, 16), 2);
		ASSERT_OK(kbinder_thread_free_buffer(&f.t, r.txn.data.ptr.buffer));
		/* ... and the sender's table is as it was */
		ASSERT_FDS_UNCHANGED(&before);
	}
	kbt_fd_snap_free(&before);
	/* the received fds were closed with the buffers */
	close(pfd[1]);
	ASSERT_TRUE(cve_pipe_hangs_up(pfd[0], 3000));
	close(pfd[0]);
	down(&f);
}

/* The parent is the second buffer and ends the scatter-gather area. */
TEST(empty_fd_array_in_last_buffer_of_sg_area_is_accepted)
{
	uint8_t data[2 * CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[3] = { 0, CVE_PTR_SIZE, 2 * CVE_PTR_SIZE };
	uint64_t a = 0x1111111111111111ull, b = 0x2222222222222222ull;
	struct kbinder_reply r;
	struct fixture f;
	struct kbt_txn x = {
		.code = CVE_SG_SUM, .data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs), .sg = true,
		.sg_size = 16,
	};

	up(&f);
	cve_put_ptr(data, 0, &a, 8, false, 0, 0);
	cve_put_ptr(data, CVE_PTR_SIZE, &b, 8, false, 0, 0);
	cve_put_fda(data, 2 * CVE_PTR_SIZE, 0, 1, 8);
	ASSERT_STATUS(cve_transact_hdr(&f.t, &x, &r), BR_REPLY);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 3), cve_sum(&a, 8));
	ASSERT_EQ(kbt_txn_u32(&r.txn, 6), cve_sum(&b, 8));
	ASSERT_EQ(kbt_txn_u32(&r.txn, 8), 0);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 10), 0);	/* no fd in the receiver */
	ASSERT_OK(kbinder_thread_free_buffer(&f.t, r.txn.data.ptr.buffer));
	down(&f);
}
