// SPDX-License-Identifier: Apache-2.0
/*
 * The service manager (`kbinder servicemanager`, exec'd) takes a service's
 * binder only from an object the driver translated (README): an addService
 * whose binder is bytes that look like an object, but that the offsets
 * array does not list, is refused and registers nothing. If the manager
 * read such bytes as a handle, any client could register, under a name of
 * its choosing, whatever node the manager's own handle N points at:
 * another process's service.
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */
#include "sm_util.h"

#include <stdio.h>
#include <string.h>

#include <kbinder/servicemanager.h>

#define LEVEL 33

static pid_t spawn_tool(const char *cmd, const char *arg)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		execl(kbt_tool_path(), "kbinder", "--api-level", "33", cmd, arg,
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Look @name up (with @wait, until it resolves, up to 5 s): as kbinder_sm_check(). */
static int check_service(struct kbinder_sm *sm, const char *name, bool wait)
{
	uint32_t h;
	int err = -ENOENT;

	for (int i = 0; i < (wait ? 100 : 1); i++) {
		err = kbinder_sm_check(sm, name, &h);
		if (!err) {
			kbinder_thread_ref(sm->thread, BC_RELEASE, h);
			break;
		}
		if (wait)
			kbt_msleep(50);
	}
	return err;
}

/*
 * addService(@name, @obj as plain bytes, no offset), as kbinder_sm_add()
 * writes it but with the offsets array emptied: the driver translates
 * nothing. Return: the reply's AIDL exception, or a negative status.
 */
static int32_t add_untranslated(struct kbinder_sm *sm, const char *name,
				uint32_t handle)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int32_t ex = 0, code;
	int err;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &sm->wire, KBINDER_SM_DESCRIPTOR);
	kbinder_parcel_write_string16(&data, name);
	kbinder_parcel_write_strong_handle(&data, &sm->wire, handle,
					   KBINDER_STABILITY_SYSTEM);
	kbinder_parcel_write_u32(&data, 0);	/* allowIsolated */
	kbinder_parcel_write_u32(&data, KBINDER_DUMP_FLAG_PRIORITY_DEFAULT);
	ASSERT_EQ(data.n_offsets, 1);
	data.n_offsets = 0;			/* the bytes stay; no object */
	ASSERT_OK(data.err);
	err = kbinder_thread_transact(sm->thread, 0 /* the manager */,
				      kbinder_sm_code(&sm->wire, KBINDER_SM_ADD_SERVICE),
				      &data, 0, &r, NULL, NULL, KBT_WAIT_MS);
	kbinder_parcel_fini(&data);
	ASSERT_OK(err);
	ASSERT_EQ(r.status, BR_REPLY);
	if (r.txn.flags & TF_STATUS_CODE) {
		memcpy(&code, (void *)(uintptr_t)r.txn.data.ptr.buffer, sizeof(code));
		ex = code < 0 ? code : -EIO;
	} else {
		kbinder_view_init(&v, &r.txn);
		ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	}
	kbinder_thread_free_buffer(sm->thread, r.txn.data.ptr.buffer);
	return ex;
}

TEST_TIMEOUT(the_manager_takes_a_binder_only_from_a_translated_object, 60)
{
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	pid_t smpid, svc;
	int32_t ex;

	smpid = kbt_sm_start(LEVEL);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, LEVEL));
	/* a real service: the manager holds a handle to it (its first, 1) */
	svc = spawn_tool("serve", "kbt.real");
	ASSERT_OK(check_service(&sm, "kbt.real", true));

	/* the manager's handles 1..3 as bytes: each refused, none registered */
	for (uint32_t h = 1; h <= 3; h++) {
		char name[32];

		snprintf(name, sizeof(name), "kbt.forged%u", h);
		ex = add_untranslated(&sm, name, h);
		if (ex == 0)
			kbt_fail(__FILE__, __LINE__, false,
				 "addService(%s, bytes of handle %u) was accepted", name, h);
		EXPECT_EQ(check_service(&sm, name, false), -ENOENT);
	}
	/* the control: the service registered with a translated object */
	EXPECT_OK(check_service(&sm, "kbt.real", false));

	kbinder_proc_close(&p);
	kbt_kill(svc);
	kbt_kill(smpid);
}
