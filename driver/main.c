// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder: module start-up and shut-down, in the order things depend on
 * each other.
 */
#include "internal.h"

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "alloc.h"
#include "context.h"
#include "netlink.h"
#include "proc.h"
#include "stats.h"

static char *devices = "binder,hwbinder,vndbinder";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices, "comma-separated names of the binder devices to create");

/*
 * Root only, like the upstream driver's devices: with a world-writable
 * device any user could become the context manager first or freeze other
 * processes' binder state. Other policies: this parameter, or a udev rule
 * (docs/security.md).
 */
static ushort mode = 0600;
module_param(mode, ushort, 0444);
MODULE_PARM_DESC(mode, "permissions of the binder devices (default 0600: root only)");

static bool selftest;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the buffer allocator self-test at load and refuse to load if it fails");

static int __init kb_init(void)
{
	int ret;

	if (selftest) {
		ret = kb_alloc_selftest();
		if (ret) {
			pr_err("allocator self-test failed: %d\n", ret);
			return ret;
		}
		pr_info("allocator self-test passed\n");
	}

	ret = kb_proc_module_init();
	if (ret)
		return ret;
	ret = kb_alloc_shrinker_register();
	if (ret)
		goto err_proc;
	kb_stats_init();
	/* Before the devices: a failed call may be reported at once. */
	ret = kb_netlink_init();
	if (ret)
		goto err_stats;
	/* Last: once a device exists, userspace can open it. */
	ret = kb_devices_create(devices, mode & 0777);
	if (ret)
		goto err_netlink;
	return 0;

err_netlink:
	kb_netlink_exit();
err_stats:
	kb_stats_exit();
	kb_alloc_shrinker_unregister();
err_proc:
	kb_proc_module_exit();
	return ret;
}

static void __exit kb_exit(void)
{
	/* First: no new opens. Open files pin the module, so none is left. */
	kb_devices_destroy();
	/* Waits for the deferred teardown of released processes. */
	kb_proc_module_exit();
	kb_netlink_exit();
	kb_stats_exit();
	kb_alloc_shrinker_unregister();
}

module_init(kb_init);
module_exit(kb_exit);

MODULE_DESCRIPTION("kbinder: Binder IPC driver");
MODULE_LICENSE("GPL");
