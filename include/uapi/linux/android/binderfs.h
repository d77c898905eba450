/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kbinder: the binderfs control interface.
 *
 * Each binderfs mount has a "binder-control" device; BINDER_CTL_ADD on it
 * creates a new binder device in that mount.  The number and the layout
 * are ABI, checked by tests/host/abi_check.c.
 */

#ifndef _LINUX_BINDERFS_H
#define _LINUX_BINDERFS_H

#include <linux/android/binder.h>
#include <linux/types.h>
#include <linux/ioctl.h>

/* Longest device name, not counting the terminating NUL. */
#define BINDERFS_MAX_NAME 255

/**
 * struct binderfs_device - argument of BINDER_CTL_ADD
 * @name: in: NUL-terminated name of the device to create
 * @major: out: device major number of binderfs devices
 * @minor: out: device minor number given to the new device
 */
struct binderfs_device {
	char name[BINDERFS_MAX_NAME + 1];
	__u32 major;
	__u32 minor;
};

#define BINDER_CTL_ADD _IOWR('b', 1, struct binderfs_device)

#endif /* _LINUX_BINDERFS_H */
