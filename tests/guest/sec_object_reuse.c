// SPDX-License-Identifier: Apache-2.0
/*
 * Reuse of freed objects, and memory debuggers (issue 21): on a normal
 * kernel kbinder keeps the last transaction and completion notice a thread
 * freed for its next call, two slab allocations fewer per call. On a
 * kernel with KASAN or kmemleak it must keep nothing: every freed object
 * is really freed there, so a use after free or a leak of the objects
 * binder's CVEs are about is still seen (driver/internal.h,
 * kb_reuse_objects()); nor where the kernel clears freed memory
 * (init_on_free=1). debugfs kbinder/reuse says which ("reuse on" or "reuse
 * off") and how many freed objects were taken again ("reused N").
 */
#include "binder_util.h"

#include <stdio.h>
#include <string.h>

#define REUSE_FILE "/sys/kernel/debug/kbinder/reuse"
#define CALLS 50

struct reuse {
	char state[8];
	unsigned long reused;
};

/* debugfs kbinder/reuse; false if it cannot be read or parsed. */
static bool read_reuse(struct reuse *r)
{
	FILE *f = fopen(REUSE_FILE, "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "reuse %7s reused %lu", r->state, &r->reused);
	fclose(f);
	return n == 2;
}

/* Whether a line of /proc/kallsyms names the function @name. */
static bool has_function(const char *name)
{
	char line[256], want[80];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), " %s\n", name);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

/* Why this kernel must see every free: a memory debugger, or init_on_free. */
static const char *no_reuse_reason(void)
{
	char cmdline[4096] = "";
	FILE *f;

	if (has_function("kasan_report"))
		return "KASAN";
	if (has_function("kmemleak_alloc"))
		return "kmemleak";
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	if (strstr(cmdline, "init_on_free=1"))
		return "init_on_free=1";
	return NULL;
}

static int echo(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)tr;
	(void)arg;
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY;
}

TEST(freed_objects_are_reused_only_where_no_memory_debugger_watches)
{
	const char *debugger = no_reuse_reason();
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct kbt_server s;
	struct reuse before, after;
	int i;

	REQUIRE_KBINDER("the upstream driver reuses nothing of its own");
	if (!read_reuse(&before))
		SKIP("cannot read %s (no debugfs?)", REUSE_FILE);
	kbt_start_ctxmgr(&s, echo, NULL);
	kbt_client(&p, &t);
	for (i = 0; i < CALLS; i++) {
		kbt_call(&t, 0, 1, NULL, &r);
		ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	}
	ASSERT_TRUE(read_reuse(&after));
	kbt_log("%s; reuse %s, %lu objects reused in %d calls (%lu in all)",
		debugger ? debugger : "no memory debugger, no init_on_free", after.state,
		after.reused - before.reused, CALLS, after.reused);
	if (debugger) {
		EXPECT_TRUE(!strcmp(after.state, "off"));
		EXPECT_EQ(after.reused, 0ul);
	} else {
		EXPECT_TRUE(!strcmp(after.state, "on"));
		/* about four per call: each side's transaction and notice */
		EXPECT_GE(after.reused - before.reused, (unsigned long)CALLS);
	}
	kbt_stop_with_client(&t, &s, &p);
}
