// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2023-21255: when a transaction failed on its very first object, the
 * cleanup was told "0 objects done", which it read as "release all of
 * them": every object in the target's buffer, none of them translated
 * (stale bytes of an earlier transaction, or the sender's raw values), was
 * released in the target's name, dropping references and nodes it held.
 * The fix made cleanup release exactly the objects translated so far.
 *
 * The tests first leave, in the registry's buffer, the bytes of a HANDLE
 * object naming the registry's own reference and a BINDER object naming its
 * own node, then send transactions whose first object is bad (unknown
 * handle, unknown type) followed by those same objects; and transactions
 * that fail on their last object after handles, a local node, an fd and an
 * fd array were translated. Every one must get BR_FAILED_REPLY; the node's
 * counts are unchanged, its owner is released exactly once at the end, no
 * stray node stays in the test process, and the file behind a translated fd
 * is not kept open by the driver (the pipe hangs up once we close it).
 */
#include "cve_common.h"
#include "driver_features.h"

#define A_NODE ((binder_uintptr_t)0xa2a2a000)
#define BOGUS_HANDLE 0x7777

/* Stale bytes: the registry's own handle and node at offsets 24 and 48. */
static void prime(struct cve_world *w, uint8_t *data, size_t size)
{
	struct kbt_txn x = { .code = CVE_NOP, .data = data, .size = size };

	memset(data, 0, size);
	cve_put_flat(data, CVE_FLAT_SIZE, BINDER_TYPE_HANDLE, w->rh, 0);
	cve_put_flat(data, 2 * CVE_FLAT_SIZE, BINDER_TYPE_BINDER, 0, 0);
	ASSERT_STATUS(kbt_transact(&w->t, &x, NULL), BR_REPLY);
}

TEST(first_object_failing_releases_nothing)
{
	struct binder_object_header bad_type = { .type = 0x12345678 };
	struct cve_flats f;
	struct cve_world w;
	int round;

	cve_world_up(&w);
	cve_flats_init(&f, 3);
	for (round = 0; round < 10; round++) {
		prime(&w, f.data, f.x.size);
		/* first object: a handle we do not have */
		cve_put_flat(f.data, 0, BINDER_TYPE_HANDLE, BOGUS_HANDLE, 0);
		f.x.flags = round & 1 ? TF_ONE_WAY : 0;
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		prime(&w, f.data, f.x.size);
		/* first object: an unknown type */
		memcpy(f.data, &bad_type, sizeof(bad_type));
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		prime(&w, f.data, f.x.size);
		/* first object: a weak handle we do not have */
		cve_put_flat(f.data, 0, BINDER_TYPE_WEAK_HANDLE, BOGUS_HANDLE, 0);
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
	}
	cve_world_check_down(&w);
}

TEST(failure_after_partial_translation_releases_exactly_that)
{
	struct kbt_fd_snap before;
	struct cve_flats f;
	struct cve_world w;
	int pfd[2], round;

	cve_world_up(&w);
	ASSERT_EQ(pipe2(pfd, O_CLOEXEC), 0);
	ASSERT_OK(kbt_fd_snapshot(&before));
	cve_flats_init(&f, 5);
	for (round = 0; round < 6; round++) {
		memset(f.data, 0, f.x.size);
		cve_put_flat(f.data, 0, BINDER_TYPE_HANDLE, w.h, 0);
		cve_put_flat(f.data, 24, BINDER_TYPE_BINDER, A_NODE, A_NODE);
		cve_put_fd(f.data, 48, pfd[1]);
		cve_put_flat(f.data, 72, BINDER_TYPE_WEAK_HANDLE, w.h, 0);
		/* the last one fails: a handle we do not have, or a bad fd */
		if (round % 3 == 0)
			cve_put_flat(f.data, 96, BINDER_TYPE_HANDLE, BOGUS_HANDLE, 0);
		else if (round % 3 == 1)
			cve_put_fd(f.data, 96, 9999);
		else
			cve_put_flat(f.data, 96, BINDER_TYPE_BINDER, 0, 0);
		f.x.flags = round & 1 ? TF_ONE_WAY : 0;
		if (round % 3 == 2) {
			/*
			 * A local object with ptr 0 is valid, so end with a
			 * wrong type instead.
			 */
			struct binder_object_header bad = { .type = 0x42 };

			memcpy(f.data + 96, &bad, sizeof(bad));
		}
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
	}
	/* the sender's table is as it was: no fd lost or gained */
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	cve_expect_no_nodes(&w.t);
	/* the driver holds no reference to the pipe's write end */
	close(pfd[1]);
	ASSERT_TRUE(cve_pipe_hangs_up(pfd[0], 3000));
	close(pfd[0]);
	cve_world_check_down(&w);
}

/* An fd array that was translated is released when a later object fails. */
TEST(failure_after_fd_array_releases_its_files)
{
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE + CVE_FLAT_SIZE];
	binder_size_t offs[3] = { 0, CVE_PTR_SIZE, CVE_PTR_SIZE + CVE_FDA_SIZE };
	struct cve_world w;
	struct kbt_txn x = { .code = CVE_NOP, .data = data, .size = sizeof(data),
			     .offs = offs, .offs_size = sizeof(offs),
			     .sg = true, .sg_size = 8 };
	int pfd[2], arr[2], round;

	REQUIRE_FULL_PROFILE("BINDER_TYPE_FDA");

	cve_world_up(&w);
	ASSERT_EQ(pipe2(pfd, O_CLOEXEC), 0);
	arr[0] = pfd[1];
	arr[1] = pfd[1];
	for (round = 0; round < 4; round++) {
		memset(data, 0, sizeof(data));
		cve_put_ptr(data, 0, arr, sizeof(arr), false, 0, 0);
		cve_put_fda(data, CVE_PTR_SIZE, 2, 0, 0);
		cve_put_flat(data, CVE_PTR_SIZE + CVE_FDA_SIZE,
			     BINDER_TYPE_HANDLE, BOGUS_HANDLE, 0);
		x.flags = round & 1 ? TF_ONE_WAY : 0;
		x.offs_size = sizeof(offs);
		ASSERT_STATUS(cve_transact_hdr(&w.t, &x, NULL), BR_FAILED_REPLY);
		/* control: without the bad handle the same array goes through */
		x.offs_size = 2 * sizeof(binder_size_t);
		x.size = CVE_PTR_SIZE + CVE_FDA_SIZE;
		ASSERT_STATUS(cve_transact_hdr(&w.t, &x, NULL),
			      x.flags ? BR_TRANSACTION_COMPLETE : BR_REPLY);
		x.size = sizeof(data);
	}
	cve_ping(&w.t, 0);	/* the one-way buffers are freed by now */
	close(pfd[1]);
	ASSERT_TRUE(cve_pipe_hangs_up(pfd[0], 3000));
	close(pfd[0]);
	cve_world_check_down(&w);
}

/*
 * The same in a reply: the registry answers with its handle to the node
 * and a handle it does not have, in both orders. The caller gets
 * BR_FAILED_REPLY and nothing the failed reply translated stays behind.
 */
TEST(failed_reply_releases_what_it_translated)
{
	struct cve_world w;
	struct kbinder_parcel d;
	int round;

	cve_world_up(&w);
	kbinder_parcel_init(&d);
	for (round = 0; round < 6; round++) {
		kbinder_parcel_reset(&d);
		kbinder_parcel_write_u32(&d, 0);
		kbinder_parcel_write_u32(&d, (uint32_t)(round & 1));
		ASSERT_STATUS(kbt_call_status(&w.t, 0, CVE_BAD_REPLY, &d, 0),
			      BR_FAILED_REPLY);
	}
	kbinder_parcel_fini(&d);
	cve_world_check_down(&w);
}
