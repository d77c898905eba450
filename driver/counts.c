// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-world use counters (counts.h): the names of the items, the
 * counting of flags, and the printing of one world's counters (for the
 * files of logs.c).
 */
#include "internal.h"

#include <linux/seq_file.h>

#include "counts.h"

/* Every BC_ code, at its number (_IOC_NR(), the protocol's order). */
const struct kb_cnt_bc_entry kb_cnt_bc_codes[KB_CNT_BC_CODES] = {
	{ BC_TRANSACTION, "BC_TRANSACTION" },
	{ BC_REPLY, "BC_REPLY" },
	{ BC_ACQUIRE_RESULT, "BC_ACQUIRE_RESULT" },
	{ BC_FREE_BUFFER, "BC_FREE_BUFFER" },
	{ BC_INCREFS, "BC_INCREFS" },
	{ BC_ACQUIRE, "BC_ACQUIRE" },
	{ BC_RELEASE, "BC_RELEASE" },
	{ BC_DECREFS, "BC_DECREFS" },
	{ BC_INCREFS_DONE, "BC_INCREFS_DONE" },
	{ BC_ACQUIRE_DONE, "BC_ACQUIRE_DONE" },
	{ BC_ATTEMPT_ACQUIRE, "BC_ATTEMPT_ACQUIRE" },
	{ BC_REGISTER_LOOPER, "BC_REGISTER_LOOPER" },
	{ BC_ENTER_LOOPER, "BC_ENTER_LOOPER" },
	{ BC_EXIT_LOOPER, "BC_EXIT_LOOPER" },
	{ BC_REQUEST_DEATH_NOTIFICATION, "BC_REQUEST_DEATH_NOTIFICATION" },
	{ BC_CLEAR_DEATH_NOTIFICATION, "BC_CLEAR_DEATH_NOTIFICATION" },
	{ BC_DEAD_BINDER_DONE, "BC_DEAD_BINDER_DONE" },
	{ BC_TRANSACTION_SG, "BC_TRANSACTION_SG" },
	{ BC_REPLY_SG, "BC_REPLY_SG" },
	{ BC_REQUEST_FREEZE_NOTIFICATION, "BC_REQUEST_FREEZE_NOTIFICATION" },
	{ BC_CLEAR_FREEZE_NOTIFICATION, "BC_CLEAR_FREEZE_NOTIFICATION" },
	{ BC_FREEZE_NOTIFICATION_DONE, "BC_FREEZE_NOTIFICATION_DONE" },
};

/* The other items, in enum kb_cnt's order from KB_CNT_BC_UNKNOWN. */
static const char * const kb_cnt_names[KB_CNT_ITEMS - KB_CNT_BC_UNKNOWN] = {
	"BC_unknown",
	"BINDER_TYPE_BINDER",
	"BINDER_TYPE_WEAK_BINDER",
	"BINDER_TYPE_HANDLE",
	"BINDER_TYPE_WEAK_HANDLE",
	"BINDER_TYPE_FD",
	"BINDER_TYPE_FDA",
	"BINDER_TYPE_PTR",
	"TF_ONE_WAY",
	"TF_ROOT_OBJECT",
	"TF_STATUS_CODE",
	"TF_ACCEPT_FDS",
	"TF_CLEAR_BUF",
	"TF_UPDATE_TXN",
	"TF_other",
	"FLAT_BINDER_FLAG_PRIORITY_MASK",
	"FLAT_BINDER_FLAG_ACCEPTS_FDS",
	"FLAT_BINDER_FLAG_TXN_SECURITY_CTX",
	"FLAT_BINDER_FLAG_other",
	"BINDER_BUFFER_FLAG_HAS_PARENT",
};

/**
 * kb_cnt_object_flags_slow() - kb_cnt_object_flags() with flags set
 * @counts: the world's counters
 * @type: the object's BINDER_TYPE_*
 * @flags: its flags, not 0
 */
void kb_cnt_object_flags_slow(struct kb_counts __percpu *counts, u32 type,
			      u32 flags)
{
	if (type == BINDER_TYPE_PTR) {
		if (flags & BINDER_BUFFER_FLAG_HAS_PARENT)
			kb_cnt_used(counts, KB_CNT_HAS_PARENT);
		return;
	}
	if (type != BINDER_TYPE_BINDER && type != BINDER_TYPE_WEAK_BINDER)
		return;
	if (flags & FLAT_BINDER_FLAG_PRIORITY_MASK)
		kb_cnt_used(counts, KB_CNT_FBF_PRIORITY);
	if (flags & FLAT_BINDER_FLAG_ACCEPTS_FDS)
		kb_cnt_used(counts, KB_CNT_FBF_ACCEPTS_FDS);
	if (flags & FLAT_BINDER_FLAG_TXN_SECURITY_CTX)
		kb_cnt_used(counts, KB_CNT_FBF_TXN_SECURITY_CTX);
	if (flags & ~(FLAT_BINDER_FLAG_PRIORITY_MASK |
		      FLAT_BINDER_FLAG_ACCEPTS_FDS |
		      FLAT_BINDER_FLAG_TXN_SECURITY_CTX))
		kb_cnt_used(counts, KB_CNT_FBF_OTHER);
}

static const char *kb_cnt_name(int item)
{
	if (item < KB_CNT_BC_UNKNOWN)
		return kb_cnt_bc_codes[item - KB_CNT_BC].name;
	return kb_cnt_names[item - KB_CNT_BC_UNKNOWN];
}

/* What the worlds that are gone counted (kb_counts_retire()). */
static struct kb_counts kb_counts_retired;

/**
 * kb_counts_sum() - add a world's counters, over every CPU, to a sum
 * @sum: the sum
 * @counts: the world's counters
 */
void kb_counts_sum(struct kb_counts *sum, struct kb_counts __percpu *counts)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct kb_counts *c = per_cpu_ptr(counts, cpu);

		for (i = 0; i < KB_CNT_ITEMS; i++)
			sum->used[i] += c->used[i];
		for (i = 0; i < KB_CNT_REFUSABLE; i++) {
			sum->refused[i] += c->refused[i];
			sum->handled[i] += c->handled[i];
		}
	}
}

/**
 * kb_counts_retire() - keep what a world that goes counted, for the total
 * @counts: the world's counters, about to be freed
 *
 * The caller serialises it with kb_counts_add_retired() (context.c: the
 * list of worlds' lock).
 */
void kb_counts_retire(struct kb_counts __percpu *counts)
{
	kb_counts_sum(&kb_counts_retired, counts);
}

/**
 * kb_counts_add_retired() - add what the worlds that are gone counted
 * @sum: the sum
 *
 * Serialised with kb_counts_retire() by the caller.
 */
void kb_counts_add_retired(struct kb_counts *sum)
{
	int i;

	for (i = 0; i < KB_CNT_ITEMS; i++)
		sum->used[i] += kb_counts_retired.used[i];
	for (i = 0; i < KB_CNT_REFUSABLE; i++) {
		sum->refused[i] += kb_counts_retired.refused[i];
		sum->handled[i] += kb_counts_retired.handled[i];
	}
}

/**
 * kb_counts_show() - print counters summed by kb_counts_sum()
 * @m: where to
 * @sum: the counters
 *
 * One "<item> <count>" line per item, then one "refused <item> <count>"
 * line per item a profile can refuse, then one "handled <item> <count>"
 * line per such item: how often its handler ran.
 */
void kb_counts_show(struct seq_file *m, const struct kb_counts *sum)
{
	int i;

	for (i = 0; i < KB_CNT_ITEMS; i++)
		seq_printf(m, "%s %lu\n", kb_cnt_name(i), sum->used[i]);
	for (i = 0; i < KB_CNT_ITEMS; i++)
		if (kb_cnt_ref(i) >= 0)
			seq_printf(m, "refused %s %lu\n", kb_cnt_name(i),
				   sum->refused[kb_cnt_ref(i)]);
	for (i = 0; i < KB_CNT_ITEMS; i++)
		if (kb_cnt_ref(i) >= 0)
			seq_printf(m, "handled %s %lu\n", kb_cnt_name(i),
				   sum->handled[kb_cnt_ref(i)]);
}
