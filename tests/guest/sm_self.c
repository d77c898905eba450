// SPDX-License-Identifier: Apache-2.0
/*
 * The service manager (`kbinder servicemanager`, exec'd) registered under
 * a name to itself, as AOSP's binderLibTest AddManagerToManager does and
 * AOSP's servicemanager allows (it registers itself as "manager" when it
 * starts). A client sends its handle 0, in either of two forms: as an
 * object, which the driver hands the manager as BINDER_TYPE_BINDER of the
 * manager's own node, or as libbinder writes it, bytes with no offset
 * (libbinder records no offset for an object whose binder/handle word is
 * 0). The lookups, the list and the registration callbacks hand it back,
 * and the driver turns it into each client's handle 0: the manager
 * itself. Every AIDL release does this; the C servicemanager of Android 9
 * and 10 refused it (it takes only translated handles), and kbinder's at
 * 28 and 29 does the same.
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */
#include "sm_util.h"

#include <stdio.h>
#include <string.h>

#include <kbinder/servicemanager.h>

#define SELF_NAME	"kbt.manager"
#define SELF_NAME_BYTES	"kbt.manager.bytes"
#define CB_COOKIE	0xcb

/* @handle answers as the manager: its descriptor and its pid. */
static void expect_the_manager(struct kbinder_thread *t, uint32_t handle, pid_t smpid)
{
	struct kbinder_view v;
	struct kbinder_reply r;
	uint32_t pid;
	char s[64];

	ASSERT_OK(kbinder_thread_transact(t, handle, KBINDER_INTERFACE_TRANSACTION, NULL, 0,
					  &r, NULL, NULL, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_check_reply(t, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_string16(&v, s, sizeof(s)));
	ASSERT_EQ(strcmp(s, KBINDER_SM_DESCRIPTOR), 0);
	kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
	ASSERT_OK(kbinder_thread_transact(t, handle, KBINDER_DEBUG_PID_TRANSACTION, NULL, 0,
					  &r, NULL, NULL, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_check_reply(t, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_u32(&v, &pid));
	ASSERT_EQ((pid_t)pid, smpid);
	kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
}

struct names {
	int n;
	int seen;
};

static int collect(const char *name, void *arg)
{
	struct names *st = arg;

	st->n++;
	st->seen += !strcmp(name, SELF_NAME) || !strcmp(name, SELF_NAME_BYTES);
	return 0;
}

/*
 * Register the manager as @name with our handle 0, as an object the
 * driver translates (@as_bytes false) or as libbinder sends it (bytes),
 * a watcher of @name waiting; then every way of finding it gives our
 * handle 0, and that handle is the manager.
 */
static void register_and_find(struct kbinder_sm *sm, const char *release, pid_t smpid,
			      const char *name, bool as_bytes)
{
	struct flat_binder_object obj;
	uint32_t handle = 1;
	int32_t ex;

	ASSERT_OK(kbinder_sm_notify(sm, name, true, CB_COOKIE, CB_COOKIE));
	ex = kbt_sm_add_handle(sm, name, 0, as_bytes);
	if (ex)
		kbt_fail(__FILE__, __LINE__, true, "at %s, addService(%s, handle 0%s) answered %d",
			 release, name, as_bytes ? " as bytes" : "", (int)ex);
	kbt_sm_expect_registration(sm->thread, &sm->wire, name, CB_COOKIE, &obj);
	ASSERT_EQ(obj.handle, 0);
	ASSERT_OK(kbinder_sm_notify(sm, name, false, CB_COOKIE, CB_COOKIE));
	ASSERT_OK(kbinder_sm_check(sm, name, &handle));
	ASSERT_EQ(handle, 0);
	expect_the_manager(sm->thread, handle, smpid);
	ASSERT_OK(kbinder_thread_ref(sm->thread, BC_RELEASE, handle));
	handle = 1;
	ASSERT_OK(kbinder_sm_get(sm, name, &handle));
	ASSERT_EQ(handle, 0);
	ASSERT_OK(kbinder_thread_ref(sm->thread, BC_RELEASE, handle));
}

TEST_TIMEOUT(the_manager_registered_to_itself_is_found_as_handle_0, 150)
{
	for (size_t i = 0; i < kbt_sm_n_releases; i++) {
		const char *release = kbt_sm_releases[i];
		struct names st = { 0, 0 };
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		pid_t smpid;

		if (atoi(release) < 30)
			continue;
		kbt_log("release %s", release);
		smpid = kbt_sm_start_release(release);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, 0));
		ASSERT_OK(kbinder_wire_init_name(&sm.wire, release));
		/* Held, as libbinder's proxy of the manager holds it. */
		ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, 0));
		register_and_find(&sm, release, smpid, SELF_NAME, false);
		register_and_find(&sm, release, smpid, SELF_NAME_BYTES, true);
		ASSERT_OK(kbinder_sm_list(&sm, KBINDER_DUMP_FLAG_PRIORITY_ALL, collect, &st));
		ASSERT_EQ(st.n, 2);
		ASSERT_EQ(st.seen, 2);
		/* The manager still answers as it did. */
		ASSERT_OK(kbinder_sm_ping(&sm));
		ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, 0));
		kbinder_proc_close(&p);
		kbt_kill(smpid);
	}
}

TEST_TIMEOUT(the_c_servicemanagers_protocol_refuses_it_as_android_10_did, 60)
{
	static const char *const releases[] = { "28", "29" };

	for (size_t i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		uint32_t handle;
		pid_t smpid;

		smpid = kbt_sm_start_release(releases[i]);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, 0));
		ASSERT_OK(kbinder_wire_init_name(&sm.wire, releases[i]));
		ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, 0));
		EXPECT_NE(kbt_sm_add_handle(&sm, SELF_NAME, 0, false), 0);
		EXPECT_NE(kbt_sm_add_handle(&sm, SELF_NAME_BYTES, 0, true), 0);
		EXPECT_EQ(kbinder_sm_check(&sm, SELF_NAME, &handle), -ENOENT);
		EXPECT_EQ(kbinder_sm_check(&sm, SELF_NAME_BYTES, &handle), -ENOENT);
		kbinder_proc_close(&p);
		kbt_kill(smpid);
	}
}
