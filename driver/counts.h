/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-world use counters of the protocol: how often each BC_ command,
 * each object type, each transaction flag and each object flag reached
 * the driver's handler in a world, and how often a device profile refused
 * one (profile.h). Kept per CPU, so counting costs no atomic operation
 * and touches no cache line another CPU writes; a reader sums the CPUs
 * (exact once nothing is in flight).
 *
 * Read through /sys/kernel/debug/kbinder/counts (every world) and each
 * binderfs mount's binder_logs/counts (its own worlds), logs.c's files.
 */
#ifndef _KB_COUNTS_H
#define _KB_COUNTS_H

#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "internal.h"

struct seq_file;

/* BC_ codes are numbered 0 to KB_CNT_BC_CODES - 1 (_IOC_NR). */
#define KB_CNT_BC_CODES 22

/**
 * enum kb_cnt - the counted items
 * @KB_CNT_BC: first of the BC_ commands, by _IOC_NR()
 * @KB_CNT_BC_UNKNOWN: a code that is no BC_ command
 * @KB_CNT_OBJ: first of the object types (kb_cnt_obj())
 * @KB_CNT_TF: first of the transaction flags (kb_cnt_tf_names in counts.c)
 * @KB_CNT_TF_OTHER: a flag bit of a transaction that the protocol does
 *	not define (one count per such bit)
 * @KB_CNT_FBF_PRIORITY: a flat_binder_object of a local node with a
 *	minimum priority (FLAT_BINDER_FLAG_PRIORITY_MASK bits set)
 * @KB_CNT_FBF_ACCEPTS_FDS: FLAT_BINDER_FLAG_ACCEPTS_FDS
 * @KB_CNT_FBF_TXN_SECURITY_CTX: FLAT_BINDER_FLAG_TXN_SECURITY_CTX
 * @KB_CNT_FBF_OTHER: other flag bits of a local node's object
 * @KB_CNT_HAS_PARENT: BINDER_BUFFER_FLAG_HAS_PARENT of a BINDER_TYPE_PTR
 * @KB_CNT_ITEMS: number of items
 */
enum kb_cnt {
	KB_CNT_BC = 0,
	KB_CNT_BC_UNKNOWN = KB_CNT_BC + KB_CNT_BC_CODES,
	KB_CNT_OBJ,
	KB_CNT_TF = KB_CNT_OBJ + 7,
	KB_CNT_TF_OTHER = KB_CNT_TF + 6,
	KB_CNT_FBF_PRIORITY,
	KB_CNT_FBF_ACCEPTS_FDS,
	KB_CNT_FBF_TXN_SECURITY_CTX,
	KB_CNT_FBF_OTHER,
	KB_CNT_HAS_PARENT,
	KB_CNT_ITEMS
};

/**
 * enum kb_cnt_ref - the items a profile can refuse (profile.h), numbered
 *	for struct kb_counts.refused (kb_cnt_ref())
 * @KB_CNT_REF_TRANSACTION_SG: BC_TRANSACTION_SG
 * @KB_CNT_REF_REPLY_SG: BC_REPLY_SG
 * @KB_CNT_REF_ATTEMPT_ACQUIRE: BC_ATTEMPT_ACQUIRE
 * @KB_CNT_REF_ACQUIRE_RESULT: BC_ACQUIRE_RESULT
 * @KB_CNT_REF_FDA: BINDER_TYPE_FDA
 * @KB_CNT_REF_PTR: BINDER_TYPE_PTR
 * @KB_CNT_REFUSABLE: number of them
 */
enum kb_cnt_ref {
	KB_CNT_REF_TRANSACTION_SG,
	KB_CNT_REF_REPLY_SG,
	KB_CNT_REF_ATTEMPT_ACQUIRE,
	KB_CNT_REF_ACQUIRE_RESULT,
	KB_CNT_REF_FDA,
	KB_CNT_REF_PTR,
	KB_CNT_REFUSABLE
};

/**
 * struct kb_counts - one world's counters on one CPU
 * @used: how often each item reached the driver's dispatch (a refused
 *	one is not counted here)
 * @refused: how often the world's profile refused each refusable item
 * @handled: how often each refusable item reached the code that acts on
 *	it (kb_cnt_handled()): counted there, not beside the profile check,
 *	so that on an aidl world a nonzero count is a refusal that failed
 */
struct kb_counts {
	unsigned long used[KB_CNT_ITEMS];
	unsigned long refused[KB_CNT_REFUSABLE];
	unsigned long handled[KB_CNT_REFUSABLE];
};

/**
 * struct kb_cnt_bc_entry - a BC_ code and its name
 * @code: the code
 * @name: its name
 */
struct kb_cnt_bc_entry {
	u32 code;
	const char *name;
};

/* Every BC_ code, at its number (counts.c). */
extern const struct kb_cnt_bc_entry kb_cnt_bc_codes[KB_CNT_BC_CODES];

/**
 * kb_cnt_bc() - the item of a BC_ code
 * @cmd: the code read from the write buffer
 *
 * Inline: it runs for every command.
 *
 * Return: its item, or KB_CNT_BC_UNKNOWN.
 */
static inline int kb_cnt_bc(u32 cmd)
{
	u32 nr = _IOC_NR(cmd);

	if (likely(nr < KB_CNT_BC_CODES && kb_cnt_bc_codes[nr].code == cmd))
		return KB_CNT_BC + nr;
	return KB_CNT_BC_UNKNOWN;
}

/*
 * The object types are counted in this order from KB_CNT_OBJ: BINDER,
 * WEAK_BINDER, HANDLE, WEAK_HANDLE, FD, FDA, PTR (the order of objects.c's
 * table, which counts by its index).
 */
#define KB_CNT_OBJ_FDA (KB_CNT_OBJ + 5)
#define KB_CNT_OBJ_PTR (KB_CNT_OBJ + 6)

/**
 * kb_cnt_used() - count one use of an item in a world
 * @counts: the world's counters (struct kb_context.counts)
 * @item: the item
 */
static inline void kb_cnt_used(struct kb_counts __percpu *counts, int item)
{
	this_cpu_inc(counts->used[item]);
}

/**
 * kb_cnt_ref() - the refusable item's number of an item
 * @item: an item (enum kb_cnt)
 *
 * Return: its enum kb_cnt_ref, or -1 if no profile refuses it.
 */
static inline int kb_cnt_ref(int item)
{
	switch (item) {
	case KB_CNT_BC + _IOC_NR(BC_TRANSACTION_SG):
		return KB_CNT_REF_TRANSACTION_SG;
	case KB_CNT_BC + _IOC_NR(BC_REPLY_SG):
		return KB_CNT_REF_REPLY_SG;
	case KB_CNT_BC + _IOC_NR(BC_ATTEMPT_ACQUIRE):
		return KB_CNT_REF_ATTEMPT_ACQUIRE;
	case KB_CNT_BC + _IOC_NR(BC_ACQUIRE_RESULT):
		return KB_CNT_REF_ACQUIRE_RESULT;
	case KB_CNT_OBJ_FDA:
		return KB_CNT_REF_FDA;
	case KB_CNT_OBJ_PTR:
		return KB_CNT_REF_PTR;
	}
	return -1;
}

/**
 * kb_cnt_refused() - count one refusal of an item in a world
 * @counts: the world's counters
 * @item: the item, one a profile refuses (kb_cnt_ref())
 */
static inline void kb_cnt_refused(struct kb_counts __percpu *counts, int item)
{
	int ref = kb_cnt_ref(item);

	if (!WARN_ON_ONCE(ref < 0))
		this_cpu_inc(counts->refused[ref]);
}

/**
 * kb_cnt_handled() - count one refusable item at its handler
 * @counts: the world's counters
 * @ref: the item (enum kb_cnt_ref)
 *
 * Called where the driver acts on the item (objects.c's
 * kb_translate_ptr() and kb_translate_fda(), command.c's reading of the
 * _SG commands' extra size and its answer to the acquire commands), not
 * where the profile is checked.
 */
static inline void kb_cnt_handled(struct kb_counts __percpu *counts,
				  enum kb_cnt_ref ref)
{
	this_cpu_inc(counts->handled[ref]);
}

/**
 * kb_cnt_tf() - count the flags of a transaction
 * @counts: the world's counters
 * @flags: its TF_* flags
 *
 * Inline, one step per bit set: a transaction without flags costs a test.
 * TF_ONE_WAY is bit 0; TF_ROOT_OBJECT to TF_UPDATE_TXN are bits 2 to 6,
 * counted in that order from KB_CNT_TF + 1; any other bit is
 * KB_CNT_TF_OTHER.
 */
static inline void kb_cnt_tf(struct kb_counts __percpu *counts, u32 flags)
{
	unsigned int bit;

	while (flags) {
		bit = __ffs(flags);
		flags &= flags - 1;
		if (!bit)
			kb_cnt_used(counts, KB_CNT_TF);
		else if (bit >= 2 && bit <= 6)
			kb_cnt_used(counts, KB_CNT_TF + bit - 1);
		else
			kb_cnt_used(counts, KB_CNT_TF_OTHER);
	}
}

void kb_cnt_object_flags_slow(struct kb_counts __percpu *counts, u32 type,
			      u32 flags);

/**
 * kb_cnt_object_flags() - count the flags of an object
 * @counts: the world's counters
 * @type: its BINDER_TYPE_*
 * @flags: its flags (those of a local node's object or of a buffer
 *	object; other objects' are not counted)
 */
static inline void kb_cnt_object_flags(struct kb_counts __percpu *counts,
				       u32 type, u32 flags)
{
	if (flags)
		kb_cnt_object_flags_slow(counts, type, flags);
}

void kb_counts_sum(struct kb_counts *sum, struct kb_counts __percpu *counts);
void kb_counts_retire(struct kb_counts __percpu *counts);
void kb_counts_add_retired(struct kb_counts *sum);
void kb_counts_show(struct seq_file *m, const struct kb_counts *sum);

#endif /* _KB_COUNTS_H */
