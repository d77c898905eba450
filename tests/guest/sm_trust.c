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
		/* addService(name, handle h as plain bytes): nothing translated */
		ex = kbt_sm_add_handle(&sm, name, h, true);
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
