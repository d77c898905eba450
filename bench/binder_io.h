/* SPDX-License-Identifier: Apache-2.0 */
/*
 * binder_io.h - the binder protocol spoken with raw ioctls, for benchmarks.
 *
 * The benchmarks measure the driver, so they talk to it the way libbinder
 * does and add nothing of their own: a client call is one BINDER_WRITE_READ
 * (the previous reply's BC_FREE_BUFFER plus BC_TRANSACTION, then read until
 * BR_REPLY); a server answers with BC_FREE_BUFFER plus BC_REPLY, then reads
 * its next call.
 *
 * Header-only (static inline): every bench/<name>.c is its own static
 * program and shares this file.
 *
 * Never hang: a blocking ioctl returns EINTR when SIGALRM arrives (the handler
 * is installed without SA_RESTART); bio_alarm_fired tells a deadline from an
 * ordinary signal, and the caller gives up with -ETIMEDOUT.
 */
#ifndef KBINDER_BENCH_BINDER_IO_H
#define KBINDER_BENCH_BINDER_IO_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/android/binder.h>

/* Room for the commands of one BINDER_WRITE_READ. */
#define BIO_CMD_MAX 4096
#define BIO_READ_MAX 1024

static volatile sig_atomic_t bio_alarm_fired;

static inline void bio_on_alarm(int sig)
{
	(void)sig;
	bio_alarm_fired = 1;
}

/* bio_install_alarm: SIGALRM interrupts blocking calls instead of restarting them. */
static inline void bio_install_alarm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bio_on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGALRM, &sa, NULL);
}

/* bio_deadline: arm (seconds > 0) or disarm (0) the watchdog of this process. */
static inline void bio_deadline(unsigned int seconds)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = seconds;
	bio_alarm_fired = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

static inline uint64_t bio_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/** struct bio_cmds - a write buffer of BC_* commands being built. */
struct bio_cmds {
	size_t len;
	int overflow;
	uint8_t data[BIO_CMD_MAX];
};

static inline void bio_put(struct bio_cmds *c, const void *p, size_t n)
{
	if (c->len + n > sizeof(c->data)) {
		c->overflow = 1;
		return;
	}
	memcpy(c->data + c->len, p, n);
	c->len += n;
}

static inline void bio_put_u32(struct bio_cmds *c, uint32_t v)
{
	bio_put(c, &v, sizeof(v));
}

static inline void bio_put_ptr(struct bio_cmds *c, binder_uintptr_t v)
{
	bio_put(c, &v, sizeof(v));
}

/* bio_put_txn: BC_TRANSACTION or BC_REPLY with the payload at @data. */
static inline void bio_put_txn(struct bio_cmds *c, uint32_t cmd, uint32_t handle,
			       uint32_t code, uint32_t flags, const void *data,
			       size_t size, const binder_size_t *offs, size_t noffs)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	tr.data_size = size;
	tr.offsets_size = noffs * sizeof(binder_size_t);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offs;
	bio_put_u32(c, cmd);
	bio_put(c, &tr, sizeof(tr));
}

/** struct bio - one open of a binder device, as one binder process. */
struct bio {
	int fd;
	void *map;
	size_t map_size;
	/* Reply buffer to free with the next write (0: none). */
	binder_uintptr_t pending_free;
	/* Commands owed to the driver (BC_*_DONE), sent with the next write. */
	struct bio_cmds owed;
};

/* bio_open: open @dev, check the protocol version, map @map_size bytes. */
static inline int bio_open(struct bio *b, const char *dev, size_t map_size,
			   char *why, size_t whylen)
{
	struct binder_version v = { 0 };

	memset(b, 0, sizeof(*b));
	b->map = MAP_FAILED;
	b->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (b->fd < 0) {
		snprintf(why, whylen, "open %s: %s", dev, strerror(errno));
		return -1;
	}
	if (ioctl(b->fd, BINDER_VERSION, &v) < 0 ||
	    v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		snprintf(why, whylen, "%s: BINDER_VERSION: %s (protocol %d)", dev,
			 strerror(errno), v.protocol_version);
		goto fail;
	}
	b->map = mmap(NULL, map_size, PROT_READ, MAP_PRIVATE, b->fd, 0);
	if (b->map == MAP_FAILED) {
		snprintf(why, whylen, "%s: mmap: %s", dev, strerror(errno));
		goto fail;
	}
	b->map_size = map_size;
	return 0;
fail:
	close(b->fd);
	b->fd = -1;
	return -1;
}

static inline void bio_close(struct bio *b)
{
	if (b->map != MAP_FAILED && b->map)
		munmap(b->map, b->map_size);
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
	b->map = MAP_FAILED;
}

/*
 * bio_ioctl_wr: one BINDER_WRITE_READ; all of @w is written (the driver may
 * stop early only on an error). Returns bytes read, or -errno; EINTR is
 * retried unless the watchdog fired (-ETIMEDOUT).
 */
static inline long bio_ioctl_wr(int fd, const void *w, size_t wlen, void *r,
				size_t rlen)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)w;
	bwr.write_size = wlen;
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)r;
	bwr.read_size = rlen;
	for (;;) {
		if (ioctl(fd, BINDER_WRITE_READ, &bwr) == 0)
			break;
		if (errno != EINTR)
			return -errno;
		if (bio_alarm_fired)
			return -ETIMEDOUT;
		/* Whatever was consumed stays consumed; go on from there. */
	}
	if (bwr.write_consumed != bwr.write_size)
		return -EPROTO;
	return (long)bwr.read_consumed;
}

/* Size of a BR_* return's payload: every BR_ code encodes it (_IOC_SIZE). */
static inline long bio_br_size(uint32_t br)
{
	return _IOC_SIZE(br);
}

/*
 * bio_owe_refs: answer the node reference returns every process must answer
 * (BR_INCREFS, BR_ACQUIRE) and skip the ones it need not (BR_RELEASE,
 * BR_DECREFS). Returns 1 if @br was one of these.
 */
static inline int bio_owe_refs(struct bio *b, uint32_t br, const void *payload)
{
	struct binder_ptr_cookie pc;

	switch (br) {
	case BR_INCREFS:
	case BR_ACQUIRE:
		memcpy(&pc, payload, sizeof(pc));
		bio_put_u32(&b->owed, br == BR_INCREFS ? BC_INCREFS_DONE : BC_ACQUIRE_DONE);
		bio_put(&b->owed, &pc, sizeof(pc));
		return 1;
	case BR_RELEASE:
	case BR_DECREFS:
		return 1;
	}
	return 0;
}

/** struct bio_reply - what a call got back. */
struct bio_reply {
	const uint8_t *data;
	size_t size;
	const binder_size_t *offs;
	size_t noffs;
};

/*
 * bio_call: a call on @handle. Synchronous calls return when BR_REPLY
 * arrives (@out then points into the mapped reply, valid until the next
 * call); one-way calls when BR_TRANSACTION_COMPLETE does.
 * Returns 0, or a negative errno (-EBADMSG for BR_FAILED_REPLY and friends).
 */
static inline int bio_call(struct bio *b, uint32_t handle, uint32_t code,
			   uint32_t flags, const void *data, size_t size,
			   const binder_size_t *offs, size_t noffs,
			   struct bio_reply *out)
{
	struct bio_cmds w;
	uint8_t rbuf[BIO_READ_MAX];
	int oneway = flags & TF_ONE_WAY;
	int sent = 0, done = 0, ret = 0;
	int guard;

	w.len = 0;
	w.overflow = 0;
	for (guard = 0; guard < 1000; guard++) {
		long n;
		size_t pos = 0;

		w.len = 0;
		if (b->owed.len) {
			bio_put(&w, b->owed.data, b->owed.len);
			b->owed.len = 0;
		}
		if (b->pending_free) {
			bio_put_u32(&w, BC_FREE_BUFFER);
			bio_put_ptr(&w, b->pending_free);
			b->pending_free = 0;
		}
		if (!sent) {
			bio_put_txn(&w, BC_TRANSACTION, handle, code, flags | TF_ACCEPT_FDS,
				    data, size, offs, noffs);
			sent = 1;
		}
		if (w.overflow)
			return -E2BIG;
		n = bio_ioctl_wr(b->fd, w.data, w.len, rbuf, sizeof(rbuf));
		if (n < 0)
			return (int)n;
		while (pos + 4 <= (size_t)n) {
			uint32_t br;
			long len;
			const uint8_t *p;

			memcpy(&br, rbuf + pos, 4);
			pos += 4;
			len = bio_br_size(br);
			if (pos + (size_t)len > (size_t)n)
				return -EPROTO;
			p = rbuf + pos;
			pos += (size_t)len;
			if (bio_owe_refs(b, br, p))
				continue;
			switch (br) {
			case BR_NOOP:
			case BR_SPAWN_LOOPER:
			case BR_ONEWAY_SPAM_SUSPECT:
				break;
			case BR_TRANSACTION_COMPLETE:
				if (oneway)
					done = 1;
				break;
			case BR_REPLY: {
				struct binder_transaction_data tr;

				memcpy(&tr, p, sizeof(tr));
				b->pending_free = tr.data.ptr.buffer;
				done = 1;
				if (tr.flags & TF_STATUS_CODE)
					ret = -EBADMSG;
				else if (out) {
					out->data = (const uint8_t *)(uintptr_t)tr.data.ptr.buffer;
					out->size = tr.data_size;
					out->offs = (const binder_size_t *)(uintptr_t)
						tr.data.ptr.offsets;
					out->noffs = tr.offsets_size / sizeof(binder_size_t);
				}
				break;
			}
			case BR_DEAD_REPLY:
			case BR_FAILED_REPLY:
			case BR_FROZEN_REPLY:
				done = 1;
				ret = -EBADMSG;
				break;
			case BR_ERROR:
				return -EIO;
			default:
				return -EPROTO;
			}
		}
		/* The rest of the read (node work after the reply) is handled. */
		if (done)
			return ret;
	}
	return -ELOOP;
}

/*
 * struct bio_server - how a server answers. @handle gets each incoming
 * call and fills @reply (data it owns) and may append commands to @pre
 * (sent before the BC_REPLY, e.g. BC_ACQUIRE for handles it keeps).
 * Returning nonzero ends the loop after the reply.
 * @keep_buffer: when the handler sets it, the buffer is not freed.
 */
struct bio_server {
	int (*handle)(struct bio_server *s, const struct binder_transaction_data *tr,
		      struct bio_reply *reply, struct bio_cmds *pre);
	void *ctx;
	int keep_buffer;
};

/*
 * bio_serve: the looper of one server thread: BC_ENTER_LOOPER, then answer
 * calls until the handler says stop or an error. No deadline: servers are
 * killed by whoever started them. Returns 0 or a negative errno.
 */
static inline int bio_serve(struct bio *b, struct bio_server *s)
{
	static __thread struct bio_cmds w;
	uint8_t rbuf[BIO_READ_MAX];
	int stop = 0;

	w.len = 0;
	w.overflow = 0;
	bio_put_u32(&w, BC_ENTER_LOOPER);
	while (!stop) {
		long n;
		size_t pos = 0;

		n = bio_ioctl_wr(b->fd, w.data, w.len, rbuf, sizeof(rbuf));
		w.len = 0;
		if (n == -ETIMEDOUT)
			continue;
		if (n < 0)
			return (int)n;
		while (pos + 4 <= (size_t)n) {
			uint32_t br;
			long len;
			const uint8_t *p;
			struct binder_transaction_data tr;
			struct bio_reply reply = { 0 };

			memcpy(&br, rbuf + pos, 4);
			pos += 4;
			len = bio_br_size(br);
			if (pos + (size_t)len > (size_t)n)
				return -EPROTO;
			p = rbuf + pos;
			pos += (size_t)len;
			if (bio_owe_refs(b, br, p)) {
				if (b->owed.len) {
					bio_put(&w, b->owed.data, b->owed.len);
					b->owed.len = 0;
				}
				continue;
			}
			switch (br) {
			case BR_NOOP:
			case BR_SPAWN_LOOPER:
			case BR_TRANSACTION_COMPLETE:
			case BR_FAILED_REPLY:
			case BR_DEAD_REPLY:
			case BR_ONEWAY_SPAM_SUSPECT:
				break;
			case BR_DEAD_BINDER: {
				binder_uintptr_t cookie;

				memcpy(&cookie, p, sizeof(cookie));
				bio_put_u32(&w, BC_DEAD_BINDER_DONE);
				bio_put_ptr(&w, cookie);
				break;
			}
			case BR_TRANSACTION_SEC_CTX:
			case BR_TRANSACTION:
				memcpy(&tr, p, sizeof(tr));
				s->keep_buffer = 0;
				stop = s->handle(s, &tr, &reply, &w);
				if (!s->keep_buffer) {
					bio_put_u32(&w, BC_FREE_BUFFER);
					bio_put_ptr(&w, tr.data.ptr.buffer);
				}
				if (!(tr.flags & TF_ONE_WAY))
					bio_put_txn(&w, BC_REPLY, 0, 0, 0, reply.data,
						    reply.size, reply.offs, reply.noffs);
				break;
			case BR_ERROR:
				return -EIO;
			default:
				return -EPROTO;
			}
		}
		if (w.overflow)
			return -E2BIG;
	}
	/* Send the last reply. */
	if (w.len) {
		long n = bio_ioctl_wr(b->fd, w.data, w.len, NULL, 0);

		if (n < 0)
			return (int)n;
	}
	return 0;
}

/* bio_become_manager: context manager with fds allowed; retries EBUSY while
 * the previous manager's release is still running (it is deferred). */
static inline int bio_become_manager(struct bio *b, char *why, size_t whylen)
{
	struct flat_binder_object obj;
	int tries;

	memset(&obj, 0, sizeof(obj));
	obj.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;
	for (tries = 0; tries < 300; tries++) {
		if (ioctl(b->fd, BINDER_SET_CONTEXT_MGR_EXT, &obj) == 0)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(10000);
	}
	snprintf(why, whylen, "BINDER_SET_CONTEXT_MGR_EXT: %s", strerror(errno));
	return -1;
}

#endif /* KBINDER_BENCH_BINDER_IO_H */
