/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbinder's per-world use counters and device profiles, for the tests of
 * issue 32 (counts.c, profile.c): one world's block of a counts file
 * (debugfs kbinder/counts, a binderfs mount's binder_logs/counts), and
 * the binderfs mounts those tests make their worlds in. Both are
 * kbinder-only: the reference driver has no counters and no binderfs.
 *
 * A block is "world <id> <device> profile <profile>", then one
 * "<item> <count>" line per item, and "refused <item> <count>" and
 * "handled <item> <count>" (its handler ran) per item a profile can
 * refuse.
 */
#ifndef KBINDER_TEST_COUNTS_H
#define KBINDER_TEST_COUNTS_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KBT_COUNTS_DEBUGFS "/sys/kernel/debug/kbinder/counts"
#define KBT_COUNTS_MAX 96
#define KBT_FSTYPE "binder"

/* One world's counters, in the file's order ("refused X" is one name). */
struct kbt_counts {
	uint64_t world;
	char profile[16];
	int n;
	char item[KBT_COUNTS_MAX][80];
	long value[KBT_COUNTS_MAX];
};

/*
 * Read the block of the world of device @dev from @file (the first one
 * with that name): 0, -errno if the file cannot be read, -ENOENT if no
 * world of that name is in it.
 */
int kbt_counts_read(const char *file, const char *dev, struct kbt_counts *c);

/* The same for the block of world id @world: 0, -errno or -ENOENT. */
int kbt_counts_read_world(const char *file, uint64_t world,
			  struct kbt_counts *c);

/*
 * The count of @item ("BC_TRANSACTION", "refused BINDER_TYPE_PTR",
 * "handled BINDER_TYPE_PTR"), or -1.
 */
long kbt_count(const struct kbt_counts *c, const char *item);

/*
 * Every item of @c holds exactly what @want says ("ITEM=N" strings, NULL
 * at the end), and every item @want does not name holds 0; each mismatch
 * is logged. Return: the number of mismatches (an item of @want missing
 * from @c counts as one).
 */
int kbt_counts_mismatches(const struct kbt_counts *c, const char *const *want);

/* A private mount namespace: the test's mounts go away with it. */
void kbt_private_mounts(void);

/*
 * Mount a new binderfs with @opts on a new directory @dir (PATH_MAX); skip
 * on the reference driver; fail on kbinder if there is no binderfs (the
 * guest loads it with its default binderfs_type=binder).
 */
void kbt_fs_mount(char *dir, const char *opts);

/* Unmount it and remove the directory. */
void kbt_fs_umount(const char *dir);

/*
 * BINDER_CTL_ADD @name in the mount at @dir with @major as the input's
 * major field (0: as every upstream caller). Return: 0 or -errno.
 */
int kbt_fs_add(const char *dir, const char *name, uint32_t major);

/* @dir/@name into @path (PATH_MAX). */
void kbt_fs_path(char *path, const char *dir, const char *name);

#endif /* KBINDER_TEST_COUNTS_H */
