// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: scatter-gather (BC_TRANSACTION_SG). BINDER_TYPE_PTR buffers
 * are copied into the receiver's buffer after the data and offsets, each
 * object's pointer is rewritten to the receiver's copy, and a child's
 * pointer inside its parent (BINDER_BUFFER_FLAG_HAS_PARENT) is fixed up to
 * the child's copy; a BINDER_TYPE_FDA inside a parent buffer has its fds
 * installed in the receiver, in place. Built as a 64-bit and as a 32-bit
 * program (compat32_sg), so the compat ioctl path is checked as well.
 */
#include "cve_common.h"
#include "driver_features.h"

enum { CODE_TREE = 1, CODE_FDS };

#define CHILD_LEN 100

/* The parent buffer of the tree: a pointer to the child and a value. */
struct tree_parent {
	uint64_t child;		/* binder_uintptr_t: 64-bit in both ABIs */
	uint32_t value;
	uint32_t pad;
};

static void child_pattern(uint8_t *buf)
{
	kbt_fill(buf, CHILD_LEN, 0x5c);
}

/*
 * The receiver checks what it got and replies 1; any mismatch fails the
 * server (and so the call).
 */
static int sg_handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		      struct kbinder_parcel *reply, void *arg)
{
	struct binder_buffer_object parent, child;
	struct binder_fd_array_object fda;
	const uint8_t *data = kbt_txn_data(tr);
	uint64_t start = tr->data.ptr.buffer;
	uint64_t sg_start = start + ((tr->data_size + 7) & ~7ull) +
			    ((tr->offsets_size + 7) & ~7ull);
	(void)t;
	(void)arg;

	if (tr->code == CODE_TREE) {
		const struct tree_parent *p;
		uint8_t want[CHILD_LEN];

		ASSERT_EQ(tr->offsets_size, 2 * sizeof(binder_size_t));
		memcpy(&parent, data + CVE_HDR, sizeof(parent));
		memcpy(&child, data + CVE_HDR + CVE_PTR_SIZE, sizeof(child));
		ASSERT_EQ(parent.hdr.type, BINDER_TYPE_PTR);
		ASSERT_EQ(child.hdr.type, BINDER_TYPE_PTR);
		/* both copies in our buffer, after data and offsets */
		ASSERT_GE(parent.buffer, sg_start);
		ASSERT_GE(child.buffer, parent.buffer + sizeof(struct tree_parent));
		ASSERT_EQ(parent.length, sizeof(struct tree_parent));
		ASSERT_EQ(child.length, CHILD_LEN);
		p = (const struct tree_parent *)(uintptr_t)parent.buffer;
		EXPECT_EQ(p->value, 0x7ee);
		/* the parent's pointer now points at our copy of the child */
		ASSERT_EQ(p->child, child.buffer);
		child_pattern(want);
		ASSERT_MEM_EQ((const void *)(uintptr_t)child.buffer, want, CHILD_LEN);
	} else if (tr->code == CODE_FDS) {
		const uint32_t *fds;
		char c;
		int i;

		memcpy(&parent, data + CVE_HDR, sizeof(parent));
		memcpy(&fda, data + CVE_HDR + CVE_PTR_SIZE, sizeof(fda));
		ASSERT_EQ(fda.hdr.type, BINDER_TYPE_FDA);
		ASSERT_EQ(fda.num_fds, 2);
		ASSERT_GE(parent.buffer, sg_start);
		fds = (const uint32_t *)(uintptr_t)parent.buffer;
		/* our own fds, which read what the sender wrote */
		for (i = 0; i < 2; i++) {
			ASSERT_EQ(read((int)fds[i], &c, 1), 1);
			EXPECT_EQ(c, 'A' + i);
		}
		/* the driver closes them with the buffer */
	}
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY;
}

TEST(sg_buffers_are_copied_and_the_parent_pointer_fixed_up)
{
	uint8_t data[2 * CVE_PTR_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	uint8_t child[CHILD_LEN] __attribute__((aligned(8)));
	struct tree_parent parent = { .value = 0x7ee };
	struct kbt_pair pair;
	struct kbinder_reply r;
	struct kbt_txn x = {
		.code = CODE_TREE, .data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs), .sg = true,
		.sg_size = sizeof(parent) + ((CHILD_LEN + 7) & ~7),
	};

	REQUIRE_FULL_PROFILE("BC_TRANSACTION_SG and BINDER_TYPE_PTR");

	child_pattern(child);
	parent.child = (uint64_t)(uintptr_t)child;
	cve_put_ptr(data, 0, &parent, sizeof(parent), false, 0, 0);
	/* the child: parent is object 0, its pointer at offset 0 in it */
	cve_put_ptr(data, CVE_PTR_SIZE, child, CHILD_LEN, true, 0,
		    offsetof(struct tree_parent, child));
	kbt_pair_start(&pair, sg_handler, NULL);
	ASSERT_STATUS(cve_transact_hdr(&pair.t, &x, &r), BR_REPLY);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 1);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	/* the sender's own buffers are untouched */
	ASSERT_EQ(parent.child, (uint64_t)(uintptr_t)child);
	kbt_pair_stop(&pair);
}

static const struct flat_binder_object accepts_fds = {
	.hdr.type = BINDER_TYPE_BINDER,
	.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
};

TEST(fd_array_in_an_sg_buffer_is_installed_in_the_receiver)
{
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	uint32_t fds[2] __attribute__((aligned(8)));
	int pipes[2][2], i;
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct kbt_txn x = {
		.code = CODE_FDS, .data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs), .sg = true,
		.sg_size = sizeof(fds),
	};

	REQUIRE_FULL_PROFILE("BC_TRANSACTION_SG and BINDER_TYPE_FDA");

	for (i = 0; i < 2; i++) {
		char c = (char)('A' + i);

		ASSERT_OK(pipe2(pipes[i], O_CLOEXEC));
		ASSERT_EQ(write(pipes[i][1], &c, 1), 1);
		fds[i] = (uint32_t)pipes[i][0];
	}
	cve_put_ptr(data, 0, fds, sizeof(fds), false, 0, 0);
	cve_put_fda(data, CVE_PTR_SIZE, 2, 0, 0);
	/* a context manager whose node accepts fds */
	memset(&s, 0, sizeof(s));
	s.fn = sg_handler;
	s.ctxmgr = true;
	s.ext = &accepts_fds;
	kbt_start_child(&s, kbt_server_main);
	kbt_client(&p, &t);
	ASSERT_STATUS(cve_transact_hdr(&t, &x, &r), BR_REPLY);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 1);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbt_stop_with_client(&t, &s, &p);
	for (i = 0; i < 2; i++) {
		close(pipes[i][0]);
		close(pipes[i][1]);
	}
}
