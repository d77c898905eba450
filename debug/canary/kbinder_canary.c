// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder_canary: one deliberate bug per detector of the debug kernel.
 *
 * `make check-debug-canary` boots the debug kernel once per bug, loads this
 * module with bug=NAME and expects the run to FAIL, with the failure naming
 * the detector. If a run passes, that detector is blind in our setup.
 *
 *   none   no bug (the control run: it must pass)
 *   uaf    read a freed slab object (KASAN: slab-use-after-free)
 *   oob    read one byte past a slab object (KASAN: slab-out-of-bounds)
 *   leak   lose the only pointer to an allocation (kmemleak)
 *   abba   take two locks in both orders (lockdep: circular dependency)
 *   sleep  take a mutex under a spinlock (DEBUG_ATOMIC_SLEEP)
 *   ubsan  index an array out of bounds (UBSAN: array-index-out-of-bounds)
 *   list   add a list entry twice (DEBUG_LIST: list_add double add)
 *
 * Never load this into anything but a throw-away test VM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

static char *bug = "none";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "which bug to commit: none, uaf, oob, leak, abba, sleep, ubsan, list");

/* Kept global so that the leak canary's pointer is really gone once cleared. */
static void *canary_keep;

static DEFINE_MUTEX(canary_lock_a);
static DEFINE_MUTEX(canary_lock_b);
static DEFINE_SPINLOCK(canary_spin);

static noinline int canary_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);
	char c;

	if (!p)
		return -ENOMEM;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	c = READ_ONCE(p[8]);
	pr_info("uaf read %d\n", c);
	return 0;
}

static noinline int canary_oob(void)
{
	char *p = kmalloc(64, GFP_KERNEL);
	size_t i = 64;
	char c;

	if (!p)
		return -ENOMEM;
	OPTIMIZER_HIDE_VAR(i);
	c = READ_ONCE(p[i]);
	pr_info("oob read %d\n", c);
	kfree(p);
	return 0;
}

static noinline int canary_leak(void)
{
	canary_keep = kmalloc(128, GFP_KERNEL);
	if (!canary_keep)
		return -ENOMEM;
	/* The only reference is dropped: kmemleak must find the object. */
	WRITE_ONCE(canary_keep, NULL);
	return 0;
}

static noinline int canary_abba(void)
{
	mutex_lock(&canary_lock_a);
	mutex_lock(&canary_lock_b);
	mutex_unlock(&canary_lock_b);
	mutex_unlock(&canary_lock_a);

	/* The reverse order: no deadlock here, but lockdep sees the cycle. */
	mutex_lock(&canary_lock_b);
	mutex_lock(&canary_lock_a);
	mutex_unlock(&canary_lock_a);
	mutex_unlock(&canary_lock_b);
	return 0;
}

static noinline int canary_sleep(void)
{
	/*
	 * mutex_lock() may sleep; uncontended it does not, so only the
	 * might_sleep() check of DEBUG_ATOMIC_SLEEP can see this bug.
	 */
	spin_lock(&canary_spin);
	mutex_lock(&canary_lock_a);
	mutex_unlock(&canary_lock_a);
	spin_unlock(&canary_spin);
	return 0;
}

static noinline int canary_ubsan(void)
{
	int table[4] = { 1, 2, 3, 4 };
	int i = 4;

	OPTIMIZER_HIDE_VAR(i);
	pr_info("ubsan read %d\n", table[i]);
	return 0;
}

static noinline int canary_list(void)
{
	LIST_HEAD(head);
	struct list_head entry;

	list_add(&entry, &head);
	list_add(&entry, &head);
	INIT_LIST_HEAD(&head);
	return 0;
}

static const struct {
	const char *name;
	int (*commit)(void);
} canary_bugs[] = {
	{ "uaf", canary_uaf },
	{ "oob", canary_oob },
	{ "leak", canary_leak },
	{ "abba", canary_abba },
	{ "sleep", canary_sleep },
	{ "ubsan", canary_ubsan },
	{ "list", canary_list },
};

static int __init canary_init(void)
{
	size_t i;

	if (!strcmp(bug, "none")) {
		pr_info("loaded, no bug\n");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(canary_bugs); i++) {
		if (!strcmp(bug, canary_bugs[i].name)) {
			pr_info("committing bug %s\n", bug);
			return canary_bugs[i].commit();
		}
	}
	pr_err("unknown bug '%s'\n", bug);
	return -EINVAL;
}

static void __exit canary_exit(void)
{
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_DESCRIPTION("Deliberate bugs that prove kbinder's debug kernel detectors fire");
MODULE_LICENSE("GPL");
