// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live-object and reuse counters exported through debugfs; the debug ids
 * and the world ids.
 */
#include "internal.h"

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>

#include "stats.h"

DEFINE_PER_CPU(long [KB_OBJ_COUNT], kb_live);
DEFINE_PER_CPU(unsigned long, kb_reused);

static const char * const kb_obj_names[KB_OBJ_COUNT] = {
	[KB_OBJ_PROC] = "procs",
	[KB_OBJ_THREAD] = "threads",
	[KB_OBJ_NODE] = "nodes",
	[KB_OBJ_REF] = "refs",
	[KB_OBJ_TRANSACTION] = "transactions",
	[KB_OBJ_BUFFER] = "buffers",
	[KB_OBJ_WORK] = "work",
	[KB_OBJ_DEATH] = "deaths",
	[KB_OBJ_CONTEXT] = "contexts",
	[KB_OBJ_SPARE] = "spares",
};

static struct dentry *kb_debugfs_dir;
static atomic_t kb_last_debug_id;
/* The last world id given out (as a u64; U64_MAX: none is left). */
static atomic64_t kb_last_world_id;

/**
 * kb_new_debug_id() - a fresh id for debug output (never an address)
 *
 * Return: the id. One counter for nodes, refs and transactions; it wraps
 * after 2^32 ids, as upstream's does. Never for what must be unique:
 * kb_new_world_id().
 */
int kb_new_debug_id(void)
{
	return atomic_inc_return(&kb_last_debug_id);
}

/**
 * kb_new_world_id() - a fresh id for a world or a binderfs mount
 *
 * Return: the id, or 0 if none is left. Ids count up from 1 on a 64-bit
 * counter of their own, apart from the debug ids (which every transaction
 * takes, BINDER_GET_EXTENDED_ERROR shows, and which wrap): no world or
 * mount gets 0 (the mount id of the plain devices' worlds), and no two
 * get the same one, even after the one that had it is gone. The counter
 * does not wrap: once 2^64 - 1 ids are given out there is none for a new
 * world.
 */
u64 kb_new_world_id(void)
{
	s64 last = atomic64_fetch_add_unless(&kb_last_world_id, 1, -1);

	return last == -1 ? 0 : (u64)last + 1;
}

#ifdef KBINDER_SELFTEST
/*
 * Test builds only: where the debug ids and the world ids stand, so that
 * a test can take them to their ends (tests/guest/world_ids.c).
 * Write-only, root only.
 */
static int kb_set_debug_id_next(const char *val, const struct kernel_param *kp)
{
	u32 next;
	int ret = kstrtou32(val, 0, &next);

	if (ret)
		return ret;
	atomic_set(&kb_last_debug_id, (int)(next - 1));
	return 0;
}

static const struct kernel_param_ops kb_debug_id_next_ops = {
	.set = kb_set_debug_id_next,
};
module_param_cb(debug_id_next, &kb_debug_id_next_ops, NULL, 0200);
MODULE_PARM_DESC(debug_id_next, "the next debug id (test builds only)");

static int kb_set_world_id_next(const char *val, const struct kernel_param *kp)
{
	u64 next;
	int ret = kstrtou64(val, 0, &next);

	if (ret)
		return ret;
	if (!next)
		return -EINVAL;
	atomic64_set(&kb_last_world_id, (s64)(next - 1));
	return 0;
}

static const struct kernel_param_ops kb_world_id_next_ops = {
	.set = kb_set_world_id_next,
};
module_param_cb(world_id_next, &kb_world_id_next_ops, NULL, 0200);
MODULE_PARM_DESC(world_id_next, "the next world id, not 0 (test builds only)");
#endif

static int kb_live_show(struct seq_file *m, void *unused)
{
	int i, cpu;
	long n;

	for (i = 0; i < KB_OBJ_COUNT; i++) {
		n = 0;
		for_each_possible_cpu(cpu)
			n += per_cpu(kb_live, cpu)[i];
		seq_printf(m, "%s %ld\n", kb_obj_names[i], n);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_live);

static int kb_reuse_show(struct seq_file *m, void *unused)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(kb_reused, cpu);
	seq_printf(m, "reuse %s\nreused %lu\n",
		   kb_reuse_objects() ? "on" : "off", n);
	if (!KB_REUSE_OBJECTS)
		seq_puts(m, "because KASAN or kmemleak is built in\n");
	else if (!kb_reuse_objects())
		seq_puts(m, "because freed memory is cleared (init_on_free)\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_reuse);

/**
 * kb_stats_init() - create the debugfs directory kbinder and its files
 *
 * Cannot fail: a failure of debugfs is not fatal.
 */
void kb_stats_init(void)
{
	kb_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("live", 0444, kb_debugfs_dir, NULL, &kb_live_fops);
	debugfs_create_file("reuse", 0444, kb_debugfs_dir, NULL, &kb_reuse_fops);
}

/**
 * kb_stats_debugfs_dir() - the debugfs directory kbinder, for the files
 *	of higher layers (logs.c); removed with it at kb_stats_exit()
 *
 * Return: the directory (maybe an error pointer, which debugfs accepts).
 */
struct dentry *kb_stats_debugfs_dir(void)
{
	return kb_debugfs_dir;
}

/**
 * kb_stats_exit() - remove the debugfs directory
 */
void kb_stats_exit(void)
{
	debugfs_remove_recursive(kb_debugfs_dir);
	kb_debugfs_dir = NULL;
}
