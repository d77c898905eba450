/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Live-object counters and the debugfs directory "kbinder".
 *
 * Every object kind the driver allocates is counted when created and when
 * destroyed; /sys/kernel/debug/kbinder/live prints "<name> <live count>" so a
 * test can check that everything was freed (an object kept for reuse is
 * counted as a spare, not as its kind). /sys/kernel/debug/kbinder/reuse
 * says whether freed objects are reused ("reuse on" or "reuse off") and
 * how often one was ("reused N").
 * No kernel address is printed. Also the two id counters: debug ids
 * (wrapping, for debug output) and world ids (unique).
 */
#ifndef _KB_STATS_H
#define _KB_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * enum kb_obj - the object kinds that are counted
 * @KB_OBJ_PROC: struct kb_proc, one per open file
 * @KB_OBJ_THREAD: struct kb_thread
 * @KB_OBJ_NODE: struct kb_node
 * @KB_OBJ_REF: struct kb_ref
 * @KB_OBJ_TRANSACTION: struct kb_transaction
 * @KB_OBJ_BUFFER: buffers allocated in a receive area and not yet freed
 * @KB_OBJ_WORK: work items allocated on their own rather than embedded in
 *	another counted object: BR_TRANSACTION_COMPLETE notices
 *	(transaction.c) and freeze notification requests (struct kb_notice,
 *	freeze_notify.c)
 * @KB_OBJ_DEATH: death notification requests (struct kb_notice, death.c)
 * @KB_OBJ_CONTEXT: struct kb_context made at run time (binderfs devices,
 *	the worlds of IPC namespaces other than the initial one)
 * @KB_OBJ_SPARE: freed transactions and completion notices that a thread
 *	keeps for its next send (transaction.c): counted until they are
 *	taken again or freed at the thread's exit, so a spare that an exit
 *	forgot shows at unload
 * @KB_OBJ_COUNT: number of kinds
 */
enum kb_obj {
	KB_OBJ_PROC,
	KB_OBJ_THREAD,
	KB_OBJ_NODE,
	KB_OBJ_REF,
	KB_OBJ_TRANSACTION,
	KB_OBJ_BUFFER,
	KB_OBJ_WORK,
	KB_OBJ_DEATH,
	KB_OBJ_CONTEXT,
	KB_OBJ_SPARE,
	KB_OBJ_COUNT
};

/*
 * Per-CPU counts: creating and destroying objects on the transaction path
 * costs no atomic operation on a shared cache line; the live count is the
 * sum over the CPUs (exact when nothing is in flight).
 */
DECLARE_PER_CPU(long [KB_OBJ_COUNT], kb_live);
DECLARE_PER_CPU(unsigned long, kb_reused);

/**
 * kb_stats_created() - count one more live object of a kind
 * @kind: the object kind
 */
static inline void kb_stats_created(enum kb_obj kind)
{
	this_cpu_inc(kb_live[kind]);
}

/**
 * kb_stats_destroyed() - count one live object of a kind less
 * @kind: the object kind
 */
static inline void kb_stats_destroyed(enum kb_obj kind)
{
	this_cpu_dec(kb_live[kind]);
}

/**
 * kb_stats_destroyed_n() - count @n live objects of a kind less
 * @kind: the object kind
 * @n: how many
 */
static inline void kb_stats_destroyed_n(enum kb_obj kind, long n)
{
	this_cpu_sub(kb_live[kind], n);
}

/**
 * kb_stats_reused() - count a freed object taken again (KB_REUSE_OBJECTS)
 *
 * /sys/kernel/debug/kbinder/reuse prints the sum: zero on a kernel with
 * KASAN or kmemleak, which a test checks.
 */
static inline void kb_stats_reused(void)
{
	this_cpu_inc(kb_reused);
}

int kb_new_debug_id(void);
u64 kb_new_world_id(void);
struct dentry;

void kb_stats_init(void);
struct dentry *kb_stats_debugfs_dir(void);
void kb_stats_exit(void);

#endif /* _KB_STATS_H */
