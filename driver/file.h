/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The binder file: the file operations of an open binder device, and the
 * order of a process's teardown (file.c).
 */
#ifndef _KB_FILE_H
#define _KB_FILE_H

#include <linux/fs.h>

/* The file operations of a misc device, then of a binderfs device. */
extern const struct file_operations kb_file_fops;
extern const struct file_operations kb_file_fs_fops;

#endif /* _KB_FILE_H */
