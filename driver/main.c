// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder: module start-up and shut-down, in the order things depend on
 * each other: one list of steps, done in order and undone in reverse.
 */
#include "internal.h"

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "alloc.h"
#include "binderfs.h"
#include "context.h"
#include "file.h"
#include "logs.h"
#include "netlink.h"
#include "proc.h"
#include "stats.h"
#include "transaction.h"

static char *devices = "binder,hwbinder,vndbinder";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices, "comma-separated names of the binder misc devices to create, and of the devices every new binderfs mount starts with; each name may end in :full (the default) or :aidl, its device profile");

static char *binderfs_type = "binder";
module_param(binderfs_type, charp, 0444);
MODULE_PARM_DESC(binderfs_type, "name of the binderfs filesystem type (another one if the kernel's own binderfs holds \"binder\"; empty: no binderfs)");

static bool isolate_ipc_ns = true;
module_param(isolate_ipc_ns, bool, 0444);
MODULE_PARM_DESC(isolate_ipc_ns, "give every IPC namespace its own binder world behind each misc device (N: one world shared by all, as upstream)");

/*
 * Root only, like the upstream driver's devices: with a world-writable
 * device any user could become the context manager first or freeze other
 * processes' binder state. Other policies: this parameter, or a udev rule
 * (docs/security.md).
 */
static ushort mode = 0600;
module_param(mode, ushort, 0444);
MODULE_PARM_DESC(mode, "permissions of the binder devices (default 0600: root only)");

static int kb_processes_init(void)
{
	return kb_proc_module_init(&kb_file_fops, &kb_file_fs_fops);
}

static int kb_devices_init(void)
{
	return kb_devices_create(devices, &kb_file_fops, isolate_ipc_ns,
				 mode & 0777);
}

static int kb_fs_init(void)
{
	return kb_binderfs_init(binderfs_type, devices, &kb_file_fs_fops);
}

#ifdef KBINDER_SELFTEST
/* Test builds only (make ... KBINDER_SELFTEST=1): the default has none. */
static bool selftest;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the buffer allocator self-test at load and refuse to load if it fails (test builds only)");

static int kb_selftest(void)
{
	int ret;

	if (!selftest)
		return 0;
	ret = kb_alloc_selftest();
	if (ret) {
		pr_err("allocator self-test failed: %d\n", ret);
		return ret;
	}
	pr_info("allocator self-test passed\n");
	return 0;
}
#else
static int kb_selftest(void)
{
	return 0;
}
#endif

/**
 * struct kb_step - a step of start-up that can fail, undone at shut-down
 * @name: what it sets up (the test build's fail_step= names it)
 * @init: set it up; NULL if that takes nothing
 * @exit: undo it; NULL if there is nothing to undo
 */
struct kb_step {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

/*
 * The steps that can fail, in order: shut-down undoes them in the reverse
 * order, and a start-up that fails undoes the ones done so far the same
 * way. A failed start-up frees the module at once: it does not wait for
 * the module references that an open file or a mount holds
 * (kernel/module/main.c), so no step may let userspace hold anything of
 * ours until none can fail any more. The misc devices are therefore
 * registered closed (an open fails with -ENODEV until kb_devices_enable(),
 * below; misc_open() calls our open under misc_mtx, which
 * misc_deregister() takes, so an unwinding also waits for an open in
 * flight), and binderfs comes last, since a filesystem type can be mounted
 * the moment it is registered.
 */
static const struct kb_step kb_steps[] = {
	/* Every transaction and notice is freed before the caches go. */
	{ "transactions", kb_transaction_module_init, kb_transaction_module_exit },
	/* The allocator's global LRU of idle pages and its shrinker. */
	{ "shrinker", kb_alloc_shrinker_register, kb_alloc_shrinker_unregister },
	/* The allocator's self-test (test builds), on the LRU just set up. */
	{ "selftest", kb_selftest, NULL },
	{ "netlink", kb_netlink_init, kb_netlink_exit },
	/* The transaction logs hold pids until the teardowns are done. */
	{ "logs", NULL, kb_logs_exit },
	/* Closed; their host worlds outlive every process's teardown. */
	{ "devices", kb_devices_init, kb_devices_destroy },
	/* The teardown workqueue: going, it waits for every teardown. */
	{ "processes", kb_processes_init, kb_proc_module_exit },
	/* Last of what can fail: mountable once registered. */
	{ "binderfs", kb_fs_init, kb_binderfs_exit },
};

/**
 * struct kb_final_step - a step of start-up that cannot fail
 * @start: do it
 * @stop: undo it
 */
struct kb_final_step {
	void (*start)(void);
	void (*stop)(void);
};

/* After kb_steps[], in order; shut-down undoes them first, in reverse. */
static const struct kb_final_step kb_final_steps[] = {
	/* /sys/kernel/debug/kbinder: its files' code is ours as well. */
	{ kb_stats_init, kb_stats_exit },
	/* Its counts and profiles files (every world's). */
	{ kb_logs_debugfs_init, kb_logs_debugfs_exit },
	/* Only now may a misc device be opened. */
	{ kb_devices_enable, kb_devices_disable },
};

#ifdef KBINDER_SELFTEST
/*
 * Fault injection for the start-up's unwinding (tests/vm/guest/testbuild.sh):
 * the step named by fail_step= is not run; the load fails there instead,
 * after holding up to fail_hold_ms, so that a test can try to reach
 * whatever the steps before it made. The hold is writable: the test ends
 * it by writing 0 once it has tried.
 */
static char *fail_step = "";
module_param(fail_step, charp, 0444);
MODULE_PARM_DESC(fail_step, "fail the load at this start-up step instead of running it (test builds only)");
static uint fail_hold_ms;
module_param(fail_hold_ms, uint, 0644);
MODULE_PARM_DESC(fail_hold_ms, "wait up to this long before failing at fail_step; writing 0 ends the wait (test builds only)");

static int kb_test_fail_step(const struct kb_step *step)
{
	unsigned int waited = 0;

	if (strcmp(fail_step, step->name))
		return 0;
	pr_info("test build: holding before failing step %s\n", step->name);
	while (waited < READ_ONCE(fail_hold_ms)) {
		msleep(20);
		waited += 20;
	}
	pr_info("test build: failing step %s as asked\n", step->name);
	return -ECANCELED;
}

/* A fail_step= that names no step fails the load: no test passes by a typo. */
static int __init kb_test_fail_step_known(void)
{
	char names[ARRAY_SIZE(kb_steps) * 16] = "";
	size_t i;

	if (!*fail_step)
		return 0;
	for (i = 0; i < ARRAY_SIZE(kb_steps); i++) {
		if (!strcmp(fail_step, kb_steps[i].name))
			return 0;
		strlcat(names, " ", sizeof(names));
		strlcat(names, kb_steps[i].name, sizeof(names));
	}
	pr_err("test build: fail_step=%s names no step; the steps:%s\n",
	       fail_step, names);
	return -EINVAL;
}
#else
static int kb_test_fail_step(const struct kb_step *step)
{
	return 0;
}

static int __init kb_test_fail_step_known(void)
{
	return 0;
}
#endif

/* Undo the first @n steps of kb_steps[], the last one first. */
static void kb_undo_steps(size_t n)
{
	while (n--)
		if (kb_steps[n].exit)
			kb_steps[n].exit();
}

/*
 * Parameters the kernel would only refuse half-way, or with a BUG():
 * register_filesystem() BUG()s on a type name with a dot in it.
 */
static int kb_params_valid(void)
{
	if (binderfs_type && strchr(binderfs_type, '.')) {
		pr_err("binderfs_type \"%s\": a filesystem type has no '.'\n",
		       binderfs_type);
		return -EINVAL;
	}
	return 0;
}

static int __init kb_init(void)
{
	const struct kb_step *step;
	size_t i;
	int ret;

	ret = kb_params_valid();
	if (!ret)
		ret = kb_test_fail_step_known();
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(kb_steps); i++) {
		step = &kb_steps[i];
		ret = kb_test_fail_step(step);
		if (!ret && step->init)
			ret = step->init();
		if (ret) {
			kb_undo_steps(i);
			return ret;
		}
	}
	for (i = 0; i < ARRAY_SIZE(kb_final_steps); i++)
		kb_final_steps[i].start();
	return 0;
}

static void __exit kb_exit(void)
{
	size_t i = ARRAY_SIZE(kb_final_steps);

	/*
	 * Open files and binderfs superblocks pin the module, so none is
	 * left; no new one can appear once the module is going.
	 */
	while (i--)
		kb_final_steps[i].stop();
	kb_undo_steps(ARRAY_SIZE(kb_steps));
}

module_init(kb_init);
module_exit(kb_exit);

MODULE_DESCRIPTION("kbinder: Binder IPC driver");
MODULE_LICENSE("GPL");
