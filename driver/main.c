// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder: module start-up and shut-down, in the order things depend on
 * each other.
 */
#include "internal.h"

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

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
MODULE_PARM_DESC(devices, "comma-separated names of the binder misc devices to create, and of the devices every new binderfs mount starts with");

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

#ifdef KBINDER_SELFTEST
/* Test builds only (make ... KBINDER_SELFTEST=1): the default has neither. */
static bool selftest;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the buffer allocator self-test at load and refuse to load if it fails (test builds only)");

static int __init kb_selftest(void)
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

static int __init kb_test_fail_step(const char *step)
{
	unsigned int waited = 0;

	if (strcmp(fail_step, step))
		return 0;
	pr_info("test build: holding before failing step %s\n", step);
	while (waited < READ_ONCE(fail_hold_ms)) {
		msleep(10);
		waited += 10;
	}
	pr_info("test build: failing step %s as asked\n", step);
	return -ECANCELED;
}

/*
 * A fail_step= that names no step of @steps (space-separated) fails the
 * load at once: a test never passes by a typo.
 */
static int __init kb_test_fail_step_known(const char *steps)
{
	size_t len = strlen(fail_step);
	const char *at;

	if (!len)
		return 0;
	for (at = strstr(steps, fail_step); at; at = strstr(at + 1, fail_step))
		if ((at == steps || at[-1] == ' ') &&
		    (at[len] == ' ' || !at[len]))
			return 0;
	pr_err("test build: fail_step=%s names no step; the steps: %s\n",
	       fail_step, steps);
	return -EINVAL;
}
#else
static inline int kb_selftest(void)
{
	return 0;
}

static inline int kb_test_fail_step(const char *step)
{
	return 0;
}

static inline int kb_test_fail_step_known(const char *steps)
{
	return 0;
}
#endif

static int __init kb_init(void)
{
	int ret;

	ret = kb_test_fail_step_known("transactions processes shrinker selftest debugfs netlink devices binderfs") ?:
		kb_test_fail_step("transactions") ?: kb_transaction_module_init();
	if (ret)
		return ret;
	ret = kb_test_fail_step("processes") ?:
		kb_proc_module_init(&kb_file_fops, &kb_file_fs_fops);
	if (ret)
		goto err_txn;
	ret = kb_test_fail_step("shrinker") ?: kb_alloc_shrinker_register();
	if (ret)
		goto err_proc;
	/* The allocator's self-test (test builds), on the LRU just set up. */
	ret = kb_test_fail_step("selftest") ?: kb_selftest();
	if (ret)
		goto err_alloc;
	ret = kb_test_fail_step("debugfs");
	if (ret)
		goto err_alloc;
	kb_stats_init();
	/* Before the devices: a failed call may be reported at once. */
	ret = kb_test_fail_step("netlink") ?: kb_netlink_init();
	if (ret)
		goto err_stats;
	/* Last: once a device exists, userspace can open it. */
	ret = kb_test_fail_step("devices") ?:
		kb_devices_create(devices, &kb_file_fops, isolate_ipc_ns,
				  mode & 0777);
	if (ret)
		goto err_netlink;
	ret = kb_test_fail_step("binderfs") ?:
		kb_binderfs_init(binderfs_type, devices, &kb_file_fs_fops);
	if (ret)
		goto err_devices;
	return 0;

err_devices:
	kb_devices_destroy();
err_netlink:
	kb_netlink_exit();
err_stats:
	kb_stats_exit();
err_alloc:
	kb_alloc_shrinker_unregister();
err_proc:
	kb_proc_module_exit();
err_txn:
	kb_transaction_module_exit();
	return ret;
}

static void __exit kb_exit(void)
{
	/*
	 * Open files and binderfs superblocks pin the module, so none is
	 * left; no new one can appear once the module is going.
	 */
	kb_binderfs_exit();
	/*
	 * Waits for the deferred teardown of released processes, which drops
	 * their worlds: before the misc devices those worlds point to go.
	 */
	kb_proc_module_exit();
	kb_logs_exit();
	kb_devices_destroy();
	kb_netlink_exit();
	kb_stats_exit();
	kb_alloc_shrinker_unregister();
	/* Last: every transaction and notice was freed by the teardowns. */
	kb_transaction_module_exit();
}

module_init(kb_init);
module_exit(kb_exit);

MODULE_DESCRIPTION("kbinder: Binder IPC driver");
MODULE_LICENSE("GPL");
