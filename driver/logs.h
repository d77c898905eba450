/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binder_logs/: what a binderfs mount tells people about its own worlds.
 *
 * Every object is named by a small number: debug ids for nodes, refs and
 * transactions, handle numbers, and pids and tids as the reader's pid
 * namespace numbers them. No kernel address is ever printed, hashed or not.
 * A mount shows only its own worlds (the devices it holds); a mount made
 * with stats=global (the initial user namespace's admin only) shows all.
 */
#ifndef _KB_LOGS_H
#define _KB_LOGS_H

#include <linux/fs.h>
#include <linux/types.h>

#include "internal.h"

struct kb_node;
struct kb_proc;
struct kb_thread;

/**
 * struct kb_logs_scope - what one mount's binder_logs/ shows
 * @fs_id: the mount's id (kb_new_world_id()); worlds made by its
 *	binder-control carry it
 * @all: stats=global: every world, the plain devices' included
 */
struct kb_logs_scope {
	u64 fs_id;
	bool all;
};

extern const struct file_operations kb_logs_state_fops;
extern const struct file_operations kb_logs_stats_fops;
extern const struct file_operations kb_logs_transactions_fops;
extern const struct file_operations kb_logs_transaction_log_fops;
extern const struct file_operations kb_logs_failed_log_fops;
extern const struct file_operations kb_logs_counts_fops;
extern const struct file_operations kb_logs_profiles_fops;
extern const struct file_operations kb_logs_proc_dir_fops;
extern const struct inode_operations kb_logs_proc_dir_iops;

void kb_logs_record(int debug_id, struct kb_thread *from,
		    struct kb_proc *to_proc, struct kb_thread *to_thread,
		    int to_node_id,
		    const struct binder_transaction_data *tr, bool reply,
		    struct kb_status st);
void kb_logs_exit(void);
void kb_logs_debugfs_init(void);
void kb_logs_debugfs_exit(void);

#endif /* _KB_LOGS_H */
