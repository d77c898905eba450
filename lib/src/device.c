// SPDX-License-Identifier: Apache-2.0
/*
 * Opening a binder device, mapping its receive area, and the ioctls.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* How long kbinder_ioctl_read() polls a non-blocking fd before trying the read again. */
#define KBINDER_READ_POLL_SLICE_MS 100

const char *kbinder_proc_default_device(void)
{
	const char *dev = getenv("BINDER_DEVICE");

	return (dev && *dev) ? dev : "/dev/binder";
}

/* ioctl() as 0 / -errno. */
static int kbinder_ioctl(int fd, unsigned long req, void *arg)
{
	if (ioctl(fd, req, arg) < 0)
		return -errno;
	return 0;
}

int kbinder_ioctl_version(int fd, int32_t *version)
{
	struct binder_version v = { 0 };
	int ret = kbinder_ioctl(fd, BINDER_VERSION, &v);

	if (!ret)
		*version = v.protocol_version;
	return ret;
}

int kbinder_proc_open(struct kbinder_proc *p, const char *path,
		      size_t map_size, unsigned int flags)
{
	int32_t version;
	int ret;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (!path)
		path = kbinder_proc_default_device();
	if (flags & ~KBINDER_PROC_NONBLOCK)
		return -EINVAL;

	p->fd = open(path, O_RDWR | O_CLOEXEC |
		     (flags & KBINDER_PROC_NONBLOCK ? O_NONBLOCK : 0));
	if (p->fd < 0) {
		ret = -errno;
		p->fd = -1;
		return ret;
	}
	ret = kbinder_ioctl_version(p->fd, &version);
	if (!ret && version != BINDER_CURRENT_PROTOCOL_VERSION)
		ret = -EPROTO;
	if (!ret && map_size) {
		void *map = mmap(NULL, map_size, PROT_READ,
				 MAP_PRIVATE | MAP_NORESERVE, p->fd, 0);

		if (map == MAP_FAILED) {
			ret = -errno;
		} else {
			p->map = map;
			p->map_size = map_size;
		}
	}
	if (ret)
		kbinder_proc_close(p);
	return ret;
}

void kbinder_proc_close(struct kbinder_proc *p)
{
	if (p->map)
		munmap(p->map, p->map_size);
	if (p->fd >= 0)
		close(p->fd);
	p->map = NULL;
	p->map_size = 0;
	p->fd = -1;
}

int kbinder_ioctl_set_max_threads(int fd, uint32_t max_threads)
{
	return kbinder_ioctl(fd, BINDER_SET_MAX_THREADS, &max_threads);
}

int kbinder_ioctl_set_context_mgr(int fd)
{
	int32_t unused = 0;

	return kbinder_ioctl(fd, BINDER_SET_CONTEXT_MGR, &unused);
}

int kbinder_ioctl_set_context_mgr_ext(int fd, const struct flat_binder_object *obj)
{
	struct flat_binder_object copy = *obj;

	return kbinder_ioctl(fd, BINDER_SET_CONTEXT_MGR_EXT, &copy);
}

int kbinder_ioctl_thread_exit(int fd)
{
	int32_t unused = 0;

	return kbinder_ioctl(fd, BINDER_THREAD_EXIT, &unused);
}

int kbinder_ioctl_node_debug_info(int fd, struct binder_node_debug_info *info)
{
	return kbinder_ioctl(fd, BINDER_GET_NODE_DEBUG_INFO, info);
}

int kbinder_ioctl_node_info_for_ref(int fd, struct binder_node_info_for_ref *info)
{
	return kbinder_ioctl(fd, BINDER_GET_NODE_INFO_FOR_REF, info);
}

int kbinder_ioctl_write_read(int fd, struct binder_write_read *bwr)
{
	for (;;) {
		int ret = kbinder_ioctl(fd, BINDER_WRITE_READ, bwr);

		if (ret != -EINTR || bwr->write_consumed || bwr->read_consumed)
			return ret;
	}
}

int kbinder_ioctl_write(int fd, const void *buf, size_t size, size_t *consumed)
{
	struct binder_write_read bwr = {
		.write_size = size,
		.write_buffer = kbinder_ptr(buf),
	};
	int ret = kbinder_ioctl_write_read(fd, &bwr);

	if (consumed)
		*consumed = bwr.write_consumed;
	return ret;
}

int kbinder_ioctl_read(int fd, void *buf, size_t size, size_t *consumed)
{
	struct binder_write_read bwr;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	for (;;) {
		memset(&bwr, 0, sizeof(bwr));
		bwr.read_size = size;
		bwr.read_buffer = kbinder_ptr(buf);
		ret = kbinder_ioctl_write_read(fd, &bwr);
		*consumed = bwr.read_consumed;
		if (ret != -EAGAIN || bwr.read_consumed)
			return ret;
		/*
		 * A non-blocking file (KBINDER_PROC_NONBLOCK, or the caller's
		 * own): wait for work, in slices. A flush (a close of any
		 * copy of the fd) wakes threads blocked in a read but not
		 * those already in poll(), in kbinder as upstream: the next
		 * slice's read returns, or fails with EBADF if the fd is gone.
		 */
		if (poll(&pfd, 1, KBINDER_READ_POLL_SLICE_MS) < 0 && errno != EINTR)
			return -errno;
	}
}
