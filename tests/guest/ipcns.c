// SPDX-License-Identifier: Apache-2.0
/*
 * The plain devices (/dev/binder) per IPC namespace: a process in a new IPC
 * namespace that opens /dev/binder enters that namespace's own binder
 * world (its own context manager, nodes and handles), not the host's; the
 * world goes when its last process does. With isolate_ipc_ns=N kbinder
 * shares one world, as upstream does, and these tests check that instead.
 *
 * No upstream driver isolates IPC namespaces: on the reference driver the
 * tests skip.
 */
#include "binder_util.h"
#include "live.h"

#include <sched.h>
#include <stdio.h>

#define PARAM "/sys/module/kbinder/parameters/isolate_ipc_ns"

/* Whether kbinder isolates IPC namespaces (skips on the reference). */
static bool isolated(void)
{
	FILE *f;
	int c;

	REQUIRE_KBINDER("no upstream driver isolates IPC namespaces");
	f = fopen(PARAM, "r");
	if (!f)
		SKIP(PARAM " is missing (a kbinder without the parameter)");
	c = fgetc(f);
	fclose(f);
	return c == 'Y';
}

/* Call handle 0 of $BINDER_DEVICE: the status, the answer in @value. */
static uint32_t call_mgr(uint32_t *value)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbt_client(&p, &t);
	ASSERT_OK(kbinder_thread_transact(&t, 0, 1, NULL, 0, &r, kbt_default_event, NULL,
					  KBT_WAIT_MS));
	if (r.status == BR_REPLY) {
		*value = kbt_txn_u32(&r.txn, 0);
		ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	}
	kbinder_proc_close(&p);
	return r.status;
}

/*
 * In a new IPC namespace: the host's manager is out of reach, and this
 * namespace can have a manager of its own, which its processes reach.
 */
static void namespace_main(void *arg)
{
	struct kbt_server s;
	uint32_t v = 0;

	(void)arg;
	ASSERT_EQ(unshare(CLONE_NEWIPC), 0);
	ASSERT_NE(call_mgr(&v), BR_REPLY);
	kbt_start_ctxmgr(&s, kbt_reply_arg, (void *)0x1bc);
	ASSERT_EQ(call_mgr(&v), BR_REPLY);
	ASSERT_EQ(v, 0x1bc);
	kbt_quit_ctxmgr(&s);
}

/* The same, with worlds shared: the host's manager answers. */
static void shared_namespace_main(void *arg)
{
	uint32_t v = 0;

	(void)arg;
	ASSERT_EQ(unshare(CLONE_NEWIPC), 0);
	ASSERT_EQ(call_mgr(&v), BR_REPLY);
	ASSERT_EQ(v, 0x4057);
}

/*
 * Two IPC namespaces, one /dev/binder, two worlds: each has its own
 * context manager and neither sees the other's.
 */
TEST(ipc_namespaces_are_separate_worlds)
{
	bool iso = isolated();
	struct kbt_server host;
	uint32_t v = 0;

	kbt_start_ctxmgr(&host, kbt_reply_arg, (void *)0x4057);
	ASSERT_CHILD_OK(kbt_fork(iso ? namespace_main : shared_namespace_main,
				 NULL));
	/* the host's world still has its manager */
	ASSERT_EQ(call_mgr(&v), BR_REPLY);
	ASSERT_EQ(v, 0x4057);
	kbt_quit_ctxmgr(&host);
}

static void open_in_new_namespace(void *arg)
{
	long base = (long)(intptr_t)arg;
	struct kbinder_proc a, b;

	ASSERT_EQ(unshare(CLONE_NEWIPC), 0);
	kbt_open(&a);
	ASSERT_EQ(kbt_live("contexts"), base + 1);
	kbt_open(&b);				/* the same world */
	ASSERT_EQ(kbt_live("contexts"), base + 1);
	kbinder_proc_close(&a);
	kbinder_proc_close(&b);
}

/* A namespace's world is made on its first open and freed after its last. */
TEST(namespace_world_lives_as_long_as_its_processes)
{
	long base;

	if (!isolated())
		SKIP("isolate_ipc_ns=N: no world per namespace");
	/* Earlier tests' worlds are released asynchronously: let them go. */
	base = kbt_live_wait("contexts", 0, 5000);
	ASSERT_CHILD_OK(kbt_fork(open_in_new_namespace,
				 (void *)(intptr_t)base));
	ASSERT_EQ(kbt_live_wait("contexts", base, 5000), base);
}
