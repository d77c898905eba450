// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2023-20938: a transaction whose offsets_size is not a multiple of
 * 8 (or otherwise bogus) was rejected only after its data had been copied
 * into the target's buffer, and the error path then "released" the objects
 * found there as if they had been translated: it dropped references the
 * target held (BINDER_TYPE_HANDLE) and nodes it owned (BINDER_TYPE_BINDER),
 * freeing them while still in use.
 *
 * The tests send exactly that: the registry (the target) holds a reference
 * to a node of another process; the payload carries the registry's own
 * handle number, a BINDER object naming the registry's own node (ptr 0) and
 * a real handle, with offsets_size 4, 12, 20, 28, or an offsets array the
 * driver cannot read, or offsets that go bad after some objects were
 * translated. Every one must get BR_FAILED_REPLY; afterwards the node's
 * counts (GET_NODE_INFO_FOR_REF in the registry) are what they were, its
 * owner was never told BR_RELEASE, the test process owns no stray node, and
 * when everyone lets go the owner gets BR_RELEASE/BR_DECREFS exactly once.
 */
#include "cve_common.h"
#include "driver_features.h"

#define A_NODE ((binder_uintptr_t)0xa1a1a000)

/* [handle h][binder ptr 0: the target's own node][handle rh raw] */
static void bad_payload(const struct cve_world *w, uint8_t *data)
{
	memset(data, 0, 3 * CVE_FLAT_SIZE);
	cve_put_flat(data, 0, BINDER_TYPE_HANDLE, w->h, 0);
	cve_put_flat(data, CVE_FLAT_SIZE, BINDER_TYPE_BINDER, 0, 0);
	cve_put_flat(data, 2 * CVE_FLAT_SIZE, BINDER_TYPE_HANDLE, w->rh, 0);
}

TEST(unaligned_offsets_size_fails_and_releases_nothing)
{
	static const size_t sizes[] = { 4, 12, 20, 28 };
	uint8_t data[3 * CVE_FLAT_SIZE];
	binder_size_t offs[4] = { 0, CVE_FLAT_SIZE, 2 * CVE_FLAT_SIZE, 0 };
	struct cve_world w;
	struct kbt_txn x = { .code = CVE_NOP, .data = data, .size = sizeof(data),
			     .offs = offs };
	bool sg = kbt_full_profile();	/* an aidl device refuses _SG */
	size_t i;
	int round;

	cve_world_up(&w);
	bad_payload(&w, data);
	for (round = 0; round < 5; round++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			x.offs_size = sizes[i];
			x.flags = 0;
			ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
			x.flags = TF_ONE_WAY;
			ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
			if (!sg)
				continue;
			x.sg = true;	/* the same through BC_TRANSACTION_SG */
			x.flags = 0;
			ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
			x.sg = false;
		}
	}
	/* the same objects with a correct offsets_size are fine */
	x.offs_size = 2 * sizeof(binder_size_t);
	x.flags = 0;
	ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_REPLY);
	cve_world_check_down(&w);
}

TEST(unreadable_or_huge_offsets_array_fails_and_releases_nothing)
{
	uint8_t data[3 * CVE_FLAT_SIZE];
	struct cve_world w;
	struct kbt_txn x = { .code = CVE_NOP, .data = data, .size = sizeof(data) };
	void *gone;

	cve_world_up(&w);
	bad_payload(&w, data);
	gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(gone != MAP_FAILED);
	munmap(gone, 4096);
	x.offs = gone;
	x.offs_size = 3 * sizeof(binder_size_t);
	ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
	x.offs = data;
	x.offs_size = (size_t)1 << 30;
	ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
	x.offs_size = (size_t)-8;
	ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
	/* offsets half readable: the array runs off the end of a mapping */
	{
		uint8_t *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		binder_size_t *o;

		ASSERT_TRUE(pg != MAP_FAILED);
		munmap(pg + 4096, 4096);
		o = (binder_size_t *)(pg + 4096 - 16);
		o[0] = 0;
		o[1] = CVE_FLAT_SIZE;
		x.offs = o;
		x.offs_size = 3 * sizeof(binder_size_t);
		ASSERT_STATUS(kbt_transact(&w.t, &x, NULL), BR_FAILED_REPLY);
		munmap(pg, 4096);
	}
	cve_world_check_down(&w);
}

/* Objects translated before a bad offset are released, exactly once. */
TEST(bad_offset_after_translated_objects_releases_them)
{
	struct cve_flats f;
	struct cve_world w;
	int round;

	cve_world_up(&w);
	cve_flats_init(&f, 3);
	cve_put_flat(f.data, 0, BINDER_TYPE_HANDLE, w.h, 0);
	cve_put_flat(f.data, CVE_FLAT_SIZE, BINDER_TYPE_BINDER, A_NODE, A_NODE);
	cve_put_flat(f.data, 2 * CVE_FLAT_SIZE, BINDER_TYPE_WEAK_HANDLE, w.h, 0);
	for (round = 0; round < 5; round++) {
		/* past the end of the data */
		f.offs[2] = f.x.size;
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		/* going backwards, into an already translated object */
		f.offs[2] = 8;
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		/* the same object twice */
		f.offs[2] = CVE_FLAT_SIZE;
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		/* not 4-byte aligned */
		f.offs[2] = 2 * CVE_FLAT_SIZE - 2;
		ASSERT_STATUS(kbt_transact(&w.t, &f.x, NULL), BR_FAILED_REPLY);
		f.x.flags ^= TF_ONE_WAY;
	}
	cve_expect_no_nodes(&w.t);
	cve_world_check_down(&w);
}
