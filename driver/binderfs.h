/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderfs: a filesystem whose every mount is a binder world of its own
 * (upstream's ABI: binder-control, BINDER_CTL_ADD, max=, stats=global,
 * features/).
 */
#ifndef _KB_BINDERFS_H
#define _KB_BINDERFS_H

#include <linux/fs.h>

int kb_binderfs_init(const char *type_name, const char *default_devices,
		     const struct file_operations *dev_fops);
void kb_binderfs_exit(void);

#endif /* _KB_BINDERFS_H */
