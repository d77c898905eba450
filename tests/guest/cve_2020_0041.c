// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2020-0041: for BINDER_TYPE_FDA and BINDER_TYPE_PTR objects the
 * driver computed the number of already-validated objects with a multiply
 * where a divide was meant, so an object could name as its "parent" an
 * object that had not been validated (a later one, itself, or one past the
 * end of the offsets array); the fd array or pointer fix-up was then
 * written wherever that unchecked object pointed.
 *
 * The tests send scatter-gather transactions whose FDA or PTR parent is out
 * of range, later than the child, the child itself, or not a PTR at all;
 * fd arrays that do not fit in their parent, huge or misaligned ones;
 * pointer fix-ups outside the parent or out of order. Each must get
 * BR_FAILED_REPLY, leave no fd behind (the pipe whose write end was in the
 * array hangs up once we close it), and a valid tree of the same objects
 * must still arrive intact afterwards.
 */
#include "cve_common.h"
#include "driver_features.h"

struct fixture {
	struct cve_server r;
	struct kbinder_proc p;
	struct kbinder_thread t;
	int pfd[2];
	int fds[4];	/* all the pipe's write end */
	struct kbt_fd_snap table;	/* ours, with the pipe open */
};

static void up(struct fixture *f)
{
	int i;

	/* Every test here sends PTR and FDA objects with BC_TRANSACTION_SG. */
	REQUIRE_FULL_PROFILE("BC_TRANSACTION_SG, BINDER_TYPE_PTR and BINDER_TYPE_FDA");
	cve_registry_start(&f->r);
	kbt_client(&f->p, &f->t);
	ASSERT_EQ(pipe2(f->pfd, O_CLOEXEC), 0);
	for (i = 0; i < 4; i++)
		f->fds[i] = f->pfd[1];
	ASSERT_OK(kbt_fd_snapshot(&f->table));
}

/*
 * Sending fds, accepted or refused, changed nothing in our table; no file
 * reference stays behind; the registry still serves.
 */
static void down(struct fixture *f)
{
	ASSERT_FDS_UNCHANGED(&f->table);
	kbt_fd_snap_free(&f->table);
	cve_ping(&f->t, 0);
	close(f->pfd[1]);
	ASSERT_TRUE(cve_pipe_hangs_up(f->pfd[0], 3000));
	close(f->pfd[0]);
	cve_server_stop(&f->t, &f->r);
	kbinder_proc_close(&f->p);
}

static uint32_t send_sg(struct fixture *f, const uint8_t *data, size_t size,
			const binder_size_t *offs, size_t n, size_t sg_size)
{
	struct kbt_txn x = {
		.code = CVE_SG_SUM, .data = data, .size = size, .offs = offs,
		.offs_size = n * sizeof(binder_size_t), .sg = true,
		.sg_size = sg_size,
	};

	return cve_transact_hdr(&f->t, &x, NULL);
}

TEST(fda_parent_index_out_of_range_fails)
{
	static const size_t parents[] = { 2, 3, 1000, (size_t)1 << 40, (size_t)-1 };
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	struct fixture f;
	size_t i;

	up(&f);
	for (i = 0; i < sizeof(parents) / sizeof(parents[0]); i++) {
		cve_put_ptr(data, 0, f.fds, 8, false, 0, 0);
		cve_put_fda(data, CVE_PTR_SIZE, 2, parents[i], 0);
		ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8),
			      BR_FAILED_REPLY);
	}
	/* control: the right parent */
	cve_put_fda(data, CVE_PTR_SIZE, 2, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8), BR_REPLY);
	down(&f);
}

TEST(fda_parent_not_yet_validated_fails)
{
	uint8_t data[CVE_FDA_SIZE + CVE_PTR_SIZE];
	binder_size_t offs[2] = { 0, CVE_FDA_SIZE };
	struct fixture f;

	up(&f);
	/* the parent comes after the array */
	cve_put_fda(data, 0, 2, 1, 0);
	cve_put_ptr(data, CVE_FDA_SIZE, f.fds, 8, false, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8),
		      BR_FAILED_REPLY);
	/* the array names itself */
	cve_put_fda(data, 0, 2, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8),
		      BR_FAILED_REPLY);
	down(&f);
}

TEST(ptr_parent_not_earlier_fails)
{
	uint8_t data[2 * CVE_PTR_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	uint64_t slot[2] = { 0, 0 };
	uint64_t child = 0x1122334455667788ull;
	struct fixture f;

	up(&f);
	/* parent is the next object */
	cve_put_ptr(data, 0, &child, 8, true, 1, 0);
	cve_put_ptr(data, CVE_PTR_SIZE, slot, 16, false, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 24),
		      BR_FAILED_REPLY);
	/* parent is itself */
	cve_put_ptr(data, 0, &child, 8, true, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 24),
		      BR_FAILED_REPLY);
	/* parent past the offsets array */
	cve_put_ptr(data, 0, slot, 16, false, 0, 0);
	cve_put_ptr(data, CVE_PTR_SIZE, &child, 8, true, 7, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 24),
		      BR_FAILED_REPLY);
	down(&f);
}

TEST(parent_that_is_not_a_ptr_fails)
{
	uint8_t data[CVE_FLAT_SIZE + CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[3] = { 0, CVE_FLAT_SIZE, CVE_FLAT_SIZE + CVE_PTR_SIZE };
	uint64_t child = 1;
	struct fixture f;

	up(&f);
	memset(data, 0, sizeof(data));
	cve_put_fd(data, 0, f.pfd[1]);
	cve_put_fda(data, CVE_FLAT_SIZE, 1, 0, 0);	/* parent: the fd object */
	offs[1] = CVE_FLAT_SIZE;
	ASSERT_STATUS(send_sg(&f, data, CVE_FLAT_SIZE + CVE_FDA_SIZE, offs, 2, 0),
		      BR_FAILED_REPLY);
	cve_put_ptr(data, CVE_FLAT_SIZE, &child, 8, true, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, CVE_FLAT_SIZE + CVE_PTR_SIZE, offs, 2, 8),
		      BR_FAILED_REPLY);
	down(&f);
}

TEST(fda_outside_parent_fails)
{
	struct { size_t num, off; } cases[] = {
		{ 3, 0 },			/* 12 bytes in an 8-byte parent */
		{ 2, 4 },			/* runs 4 bytes past its end */
		{ 1, 8 },			/* starts at its end */
		{ (size_t)1 << 62, 0 },		/* size overflows */
		{ 1, (size_t)-4 },		/* offset wraps */
	};
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	struct fixture f;
	size_t i;

	up(&f);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cve_put_ptr(data, 0, f.fds, 8, false, 0, 0);
		cve_put_fda(data, CVE_PTR_SIZE, cases[i].num, 0, cases[i].off);
		if (send_sg(&f, data, sizeof(data), offs, 2, 8) != BR_FAILED_REPLY)
			kbt_fail(__FILE__, __LINE__, true,
				 "fda num_fds %zu at %zu in an 8-byte parent accepted",
				 cases[i].num, cases[i].off);
	}
	/* control: two fds fill the parent exactly */
	cve_put_fda(data, CVE_PTR_SIZE, 2, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8), BR_REPLY);
	down(&f);
}

TEST(fda_misaligned_fails)
{
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	uint8_t raw[24] __attribute__((aligned(8)));
	struct fixture f;

	up(&f);
	memcpy(raw + 2, f.fds, 8);
	/* the array starts 2 bytes into the parent */
	cve_put_ptr(data, 0, raw, 16, false, 0, 0);
	cve_put_fda(data, CVE_PTR_SIZE, 1, 0, 2);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 16),
		      BR_FAILED_REPLY);
	/* the parent itself is misaligned in the sender */
	cve_put_ptr(data, 0, raw + 2, 8, false, 0, 0);
	cve_put_fda(data, CVE_PTR_SIZE, 2, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8),
		      BR_FAILED_REPLY);
	/* control: aligned, the same array goes through */
	memcpy(raw + 8, f.fds, 8);
	cve_put_ptr(data, 0, raw + 8, 8, false, 0, 0);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 2, 8), BR_REPLY);
	down(&f);
}

TEST(ptr_fixup_outside_parent_or_out_of_order_fails)
{
	static const size_t bad_off[] = { 12, 16, 1 << 20, (size_t)-8 };
	uint8_t data[3 * CVE_PTR_SIZE];
	binder_size_t offs[3] = { 0, CVE_PTR_SIZE, 2 * CVE_PTR_SIZE };
	uint64_t parent[4] = { 0 }, c1 = 1, c2 = 2;
	struct fixture f;
	size_t i;

	up(&f);
	for (i = 0; i < sizeof(bad_off) / sizeof(bad_off[0]); i++) {
		cve_put_ptr(data, 0, parent, 16, false, 0, 0);
		cve_put_ptr(data, CVE_PTR_SIZE, &c1, 8, true, 0, bad_off[i]);
		ASSERT_STATUS(send_sg(&f, data, 2 * CVE_PTR_SIZE, offs, 2, 24),
			      BR_FAILED_REPLY);
	}
	/* fix-ups into one parent must go forwards */
	cve_put_ptr(data, 0, parent, 32, false, 0, 0);
	cve_put_ptr(data, CVE_PTR_SIZE, &c1, 8, true, 0, 16);
	cve_put_ptr(data, 2 * CVE_PTR_SIZE, &c2, 8, true, 0, 8);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 3, 48),
		      BR_FAILED_REPLY);
	/* in order, the same tree is fine */
	cve_put_ptr(data, CVE_PTR_SIZE, &c1, 8, true, 0, 8);
	cve_put_ptr(data, 2 * CVE_PTR_SIZE, &c2, 8, true, 0, 16);
	ASSERT_STATUS(send_sg(&f, data, sizeof(data), offs, 3, 48), BR_REPLY);
	down(&f);
}

/* A valid tree: parent { u64 child pointer; u32 fds[2] }, child, fd array. */
TEST(valid_pointer_tree_with_fd_array_arrives)
{
	uint8_t data[2 * CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[3] = { 0, CVE_PTR_SIZE, 2 * CVE_PTR_SIZE };
	struct { uint64_t child; int32_t fds[2]; } parent;
	uint8_t child[20];
	struct kbt_fd_snap before;
	struct kbinder_reply r;
	struct fixture f;
	struct kbt_txn x;
	int round;

	up(&f);
	kbt_fill(child, sizeof(child), 7);
	ASSERT_OK(kbt_fd_snapshot(&before));
	for (round = 0; round < 4; round++) {
		parent.child = (uint64_t)(uintptr_t)child;
		parent.fds[0] = f.pfd[1];
		parent.fds[1] = f.pfd[1];
		cve_put_ptr(data, 0, &parent, sizeof(parent), false, 0, 0);
		cve_put_ptr(data, CVE_PTR_SIZE, child, sizeof(child), true, 0, 0);
		cve_put_fda(data, 2 * CVE_PTR_SIZE, 2, 0, 8);
		memset(&x, 0, sizeof(x));
		x.code = CVE_SG_SUM;
		x.data = data;
		x.size = sizeof(data);
		x.offs = offs;
		x.offs_size = sizeof(offs);
		x.sg = true;
		x.sg_size = 16 + 24;
		ASSERT_STATUS(cve_transact_hdr(&f.t, &x, &r), BR_REPLY);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 3);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 1), BINDER_TYPE_PTR);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 2), sizeof(parent));
		ASSERT_EQ(kbt_txn_u32(&r.txn, 4), BINDER_TYPE_PTR);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 5), sizeof(child));
		ASSERT_EQ(kbt_txn_u32(&r.txn, 6), cve_sum(child, sizeof(child)));
		ASSERT_EQ(kbt_txn_u32(&r.txn, 7), BINDER_TYPE_FDA);
		ASSERT_EQ(kbt_txn_u32(&r.txn, 8), 2);
		/* the receiver holds exactly the array's two new fds ... */
		ASSERT_EQ(kbt_txn_u32(&r.txn, 10), 2);
		ASSERT_OK(kbinder_thread_free_buffer(&f.t, r.txn.data.ptr.buffer));
		/* ... and the sender neither lost nor gained one */
		ASSERT_FDS_UNCHANGED(&before);
	}
	kbt_fd_snap_free(&before);
	down(&f);
}
