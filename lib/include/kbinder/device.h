/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, device: a binder "process" (an open binder file and its
 * receive mapping), kbinder_proc_*, and the ioctls on its fd,
 * kbinder_ioctl_*.
 */
#ifndef KBINDER_DEVICE_H
#define KBINDER_DEVICE_H

#include "common.h"

KBINDER_BEGIN_DECLS

/** Default size of the receive mapping (what libbinder uses, ~1 MiB). */
#define KBINDER_DEFAULT_MAP_SIZE ((size_t)(1024 * 1024 - 2 * 4096))

/*
 * kbinder_proc_open() flag: open the file O_NONBLOCK. Every read of the
 * library then waits in poll() (blocking ones too), which keeps a timed
 * read's deadline even when several threads wait with deadlines for the
 * same process work; the driver then sees no thread blocked in a read
 * (process work wakes every idle thread, BR_SPAWN_LOOPER comes sooner).
 * Without it the file blocks, as libbinder's does.
 */
#define KBINDER_PROC_NONBLOCK	(1u << 0)

/**
 * struct kbinder_proc - one binder "process": an open binder fd and its mapping.
 * @fd:       the binder file descriptor, -1 when closed
 * @map:      start of the read-only receive mapping, NULL if not mapped
 * @map_size: size of @map in bytes
 */
struct kbinder_proc {
	int fd;
	void *map;
	size_t map_size;
	uint64_t reserved[4];
};

/**
 * kbinder_proc_open() - open a binder device, check its protocol version, map it.
 * @p:        filled in on success; on failure p->fd is -1
 * @path:     device path; NULL means kbinder_proc_default_device()
 * @map_size: bytes to mmap read-only; 0 means no mapping
 * @flags:    0 or KBINDER_PROC_NONBLOCK
 *
 * Each open is a separate binder process to the driver.
 * Return: 0, or -errno (-EPROTO if the protocol version is not 8).
 */
int kbinder_proc_open(struct kbinder_proc *p, const char *path,
		      size_t map_size, unsigned int flags);
/** kbinder_proc_close() - unmap and close; safe to call twice. */
void kbinder_proc_close(struct kbinder_proc *p);
/** kbinder_proc_default_device() - $BINDER_DEVICE or "/dev/binder". */
const char *kbinder_proc_default_device(void);

/*
 * The ioctls, each 0 / -errno on a binder fd.
 */
int kbinder_ioctl_version(int fd, int32_t *version);
int kbinder_ioctl_set_max_threads(int fd, uint32_t max_threads);
int kbinder_ioctl_set_context_mgr(int fd);
int kbinder_ioctl_set_context_mgr_ext(int fd, const struct flat_binder_object *obj);
int kbinder_ioctl_thread_exit(int fd);
int kbinder_ioctl_node_debug_info(int fd, struct binder_node_debug_info *info);
int kbinder_ioctl_node_info_for_ref(int fd, struct binder_node_info_for_ref *info);
/**
 * kbinder_ioctl_write_read() - one BINDER_WRITE_READ, as the file blocks or
 * not. Retries on EINTR only when nothing was consumed. The consumed fields
 * of @bwr are valid on error too.
 */
int kbinder_ioctl_write_read(int fd, struct binder_write_read *bwr);
/**
 * kbinder_ioctl_write() - write a whole command stream, no read.
 * @consumed: if not NULL, receives write_consumed (also on error)
 */
int kbinder_ioctl_write(int fd, const void *buf, size_t size, size_t *consumed);
/**
 * kbinder_ioctl_read() - one read that returns something: blocks in the
 * driver on a blocking file; on a non-blocking one waits in poll().
 * @consumed: receives read_consumed
 */
int kbinder_ioctl_read(int fd, void *buf, size_t size, size_t *consumed);

KBINDER_END_DECLS

#endif /* KBINDER_DEVICE_H */
