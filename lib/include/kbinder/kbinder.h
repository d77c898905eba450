/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a small C library that speaks the binder protocol (version 8)
 * to a binder device (/dev/binder, or a kbinder/binderfs device).
 *
 * Layers, from the bottom up:
 *   - device:  open + mmap + version check, thin ioctl wrappers
 *   - writer:  builds a BC_ command stream into a caller-provided buffer
 *   - reader:  parses a BR_ return stream, never reading past its end
 *   - parcel:  a data builder that records the offsets of binder objects,
 *              and a bounds-checked view over received transaction data
 *   - thread:  per-thread event queue and convenience calls (transact and
 *              wait for the reply, one-way, reply, free buffer, looper,
 *              reference counts, death notifications)
 *
 * Error convention: functions returning int return 0 (or a documented
 * positive value) on success and a negative errno on failure. They never
 * set or rely on errno for their result.
 */
#ifndef KBINDER_KBINDER_H
#define KBINDER_KBINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/android/binder.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Everything declared here is libkbinder's exported API; the library is
 * built with -fvisibility=hidden and a version script (lib/libkbinder.map),
 * so nothing else leaves the shared object.
 */
#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility push(default)
#endif

/*
 * ABI rule: every struct a caller allocates ends in reserved space that the
 * library's init functions zero and later versions may use, so the structs
 * can grow without changing their size. Initialise them with the library's
 * init/open functions, never by hand.
 */

/* ------------------------------------------------------------------ */
/* device                                                               */
/* ------------------------------------------------------------------ */

/** Default size of the receive mapping (what libbinder uses, ~1 MiB). */
#define KBINDER_DEFAULT_MAP_SIZE ((size_t)(1024 * 1024 - 2 * 4096))

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
 * kbinder_open() - open a binder device, check its protocol version, map it.

 * @p:        filled in on success; on failure p->fd is -1
 * @path:     device path; NULL means $BINDER_DEVICE or "/dev/binder"
 * @map_size: bytes to mmap read-only; 0 means no mapping
 *
 * Return: 0, or -errno (-EPROTO if the protocol version is not ours).
 */
int kbinder_open(struct kbinder_proc *p, const char *path, size_t map_size);

/** kbinder_close() - unmap and close; safe to call twice. */
void kbinder_close(struct kbinder_proc *p);

/** kbinder_default_device() - $BINDER_DEVICE or "/dev/binder". */
const char *kbinder_default_device(void);

int kbinder_version(int fd, int32_t *version);
int kbinder_set_max_threads(int fd, uint32_t max_threads);
int kbinder_set_context_mgr(int fd);
int kbinder_set_context_mgr_ext(int fd, const struct flat_binder_object *obj);
int kbinder_thread_exit(int fd);
int kbinder_get_node_debug_info(int fd, struct binder_node_debug_info *info);
int kbinder_get_node_info_for_ref(int fd, struct binder_node_info_for_ref *info);

/**
 * kbinder_write_read() - one BINDER_WRITE_READ ioctl.
 *
 * Retries on EINTR only when nothing was consumed. Return: 0 or -errno; the
 * consumed fields of @bwr are valid in both cases.
 */
int kbinder_write_read(int fd, struct binder_write_read *bwr);

/**
 * kbinder_write() - write a whole command stream, no read.
 * @consumed: if not NULL, receives write_consumed (also on error)
 */
int kbinder_write(int fd, const void *buf, size_t size, size_t *consumed);

/**
 * kbinder_read() - one read; waits (with poll()) until something was read, also
 * on a non-blocking fd.
 * @consumed: receives read_consumed
 */
int kbinder_read(int fd, void *buf, size_t size, size_t *consumed);

/* ------------------------------------------------------------------ */
/* writer: BC_ command streams                                          */
/* ------------------------------------------------------------------ */

/**
 * struct kbinder_writer - appends BC_ commands to a caller-owned buffer.
 * @buf: the buffer
 * @cap: its capacity in bytes
 * @len: bytes written so far
 * @err: first error (sticky): -ENOSPC when a command did not fit,
 *       -EINVAL for a command that is not a BC_ code of the right size
 *
 * A command that does not fit is not written at all (no partial command).
 */
struct kbinder_writer {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err;
	uint64_t reserved[2];
};

void kbinder_writer_init(struct kbinder_writer *w, void *buf, size_t cap);
/** kbinder_writer_put() - append @cmd and its @size-byte argument. */
int kbinder_writer_put(struct kbinder_writer *w, uint32_t cmd, const void *arg,
		  size_t size);
/** kbinder_put_txn() - BC_TRANSACTION or BC_REPLY. */
int kbinder_put_txn(struct kbinder_writer *w, uint32_t cmd,
	       const struct binder_transaction_data *tr);
/** kbinder_put_txn_sg() - BC_TRANSACTION_SG or BC_REPLY_SG. */
int kbinder_put_txn_sg(struct kbinder_writer *w, uint32_t cmd,
		  const struct binder_transaction_data_sg *tr);
int kbinder_put_free_buffer(struct kbinder_writer *w, binder_uintptr_t buffer);
/** kbinder_put_handle_cmd() - BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS. */
int kbinder_put_handle_cmd(struct kbinder_writer *w, uint32_t cmd, uint32_t handle);
/** kbinder_put_ptr_cookie() - BC_INCREFS_DONE, BC_ACQUIRE_DONE. */
int kbinder_put_ptr_cookie(struct kbinder_writer *w, uint32_t cmd,
		      binder_uintptr_t ptr, binder_uintptr_t cookie);
/** kbinder_put_death() - BC_REQUEST_DEATH_NOTIFICATION / CLEAR_DEATH_NOTIFICATION. */
int kbinder_put_death(struct kbinder_writer *w, uint32_t cmd, uint32_t handle,
		 binder_uintptr_t cookie);
int kbinder_put_dead_binder_done(struct kbinder_writer *w, binder_uintptr_t cookie);
/** kbinder_put_looper() - BC_REGISTER_LOOPER, BC_ENTER_LOOPER, BC_EXIT_LOOPER. */
int kbinder_put_looper(struct kbinder_writer *w, uint32_t cmd);

/** kbinder_command_size() - argument size of a BC_ code, or -EINVAL if unknown. */
int kbinder_command_size(uint32_t cmd);
/** kbinder_command_name() - "BC_TRANSACTION" etc, or "BC_?" if unknown. */
const char *kbinder_command_name(uint32_t cmd);

/* ------------------------------------------------------------------ */
/* reader: BR_ return streams                                           */
/* ------------------------------------------------------------------ */

/**
 * struct kbinder_frozen_state - the argument of BR_FROZEN_BINDER (mainline
 * 6.12's struct binder_frozen_state_info, same layout), declared here so the
 * header builds against older kernel headers (Debian 12's 6.1).
 * @cookie:    the cookie given with BC_REQUEST_FREEZE_NOTIFICATION
 * @is_frozen: 1 if the process is frozen
 * @reserved:  0
 */
struct kbinder_frozen_state {
	binder_uintptr_t cookie;
	uint32_t is_frozen;
	uint32_t reserved;
};

/**
 * struct kbinder_return - one parsed return command.
 * @cmd: the BR_ code
 * @u:   its argument; which member is valid depends on @cmd
 */
struct kbinder_return {
	uint32_t cmd;
	union {
		int32_t error;                            /* BR_ERROR */
		struct binder_transaction_data txn;       /* BR_TRANSACTION, BR_REPLY */
		struct binder_transaction_data_secctx txn_secctx; /* BR_TRANSACTION_SEC_CTX */
		struct binder_ptr_cookie ptr_cookie;      /* BR_INCREFS..BR_DECREFS */
		struct binder_pri_ptr_cookie pri_ptr_cookie; /* BR_ATTEMPT_ACQUIRE */
		binder_uintptr_t cookie;   /* BR_DEAD_BINDER, BR_CLEAR_DEATH_NOTIFICATION_DONE,
					      BR_CLEAR_FREEZE_NOTIFICATION_DONE */
		struct kbinder_frozen_state frozen;  /* BR_FROZEN_BINDER */
		uint64_t space[16];        /* room for larger arguments */
	} u;
};

/**
 * struct kbinder_reader - cursor over a BR_ stream.
 * @buf:  stream start
 * @size: valid bytes (read_consumed)
 * @pos:  offset of the next command
 */
struct kbinder_reader {
	const uint8_t *buf;
	size_t size;
	size_t pos;
	uint64_t reserved[2];
};

void kbinder_reader_init(struct kbinder_reader *r, const void *buf, size_t size);
/**
 * kbinder_reader_next() - parse the next command.
 *
 * Return: 1 and @ret filled, 0 at the end of the stream, -EPROTO for an
 * unknown command, -EBADMSG for a command truncated by the end of the
 * stream. On error @r->pos is left at the bad command.
 */
int kbinder_reader_next(struct kbinder_reader *r, struct kbinder_return *ret);
/** kbinder_return_size() - argument size of a BR_ code, or -EPROTO if unknown. */
int kbinder_return_size(uint32_t cmd);
/** kbinder_return_name() - "BR_REPLY" etc, or "BR_?" if unknown. */
const char *kbinder_return_name(uint32_t cmd);

/* ------------------------------------------------------------------ */
/* parcel: transaction data with object offsets                         */
/* ------------------------------------------------------------------ */

/**
 * struct kbinder_parcel - growable transaction payload.
 * @data:      payload bytes
 * @size:      payload size (always a multiple of 4)
 * @cap:       allocated bytes for @data
 * @offsets:   offsets of binder objects within @data
 * @n_offsets: number of entries in @offsets
 * @offsets_cap: allocated entries
 * @err:       first error (sticky), -ENOMEM
 */
struct kbinder_parcel {
	uint8_t *data;
	size_t size;
	size_t cap;
	binder_size_t *offsets;
	size_t n_offsets;
	size_t offsets_cap;
	int err;
	uint64_t reserved[4];
};

void kbinder_parcel_init(struct kbinder_parcel *p);
void kbinder_parcel_reset(struct kbinder_parcel *p);
void kbinder_parcel_fini(struct kbinder_parcel *p);
/** kbinder_parcel_write() - append bytes, zero-padded to a multiple of 4. */
int kbinder_parcel_write(struct kbinder_parcel *p, const void *data, size_t size);
int kbinder_parcel_write_u32(struct kbinder_parcel *p, uint32_t v);
int kbinder_parcel_write_u64(struct kbinder_parcel *p, uint64_t v);
/** kbinder_parcel_write_object() - append an object and record its offset. */
int kbinder_parcel_write_object(struct kbinder_parcel *p, const void *obj, size_t size);
/** kbinder_parcel_write_binder() - a local object (BINDER_TYPE_BINDER or WEAK_BINDER). */
int kbinder_parcel_write_binder(struct kbinder_parcel *p, binder_uintptr_t ptr,
			   binder_uintptr_t cookie, uint32_t flags, bool weak);
/** kbinder_parcel_write_handle() - a remote object (BINDER_TYPE_HANDLE or WEAK_HANDLE). */
int kbinder_parcel_write_handle(struct kbinder_parcel *p, uint32_t handle,
			   uint32_t flags, bool weak);
/** kbinder_parcel_write_fd() - a BINDER_TYPE_FD object. */
int kbinder_parcel_write_fd(struct kbinder_parcel *p, int fd, binder_uintptr_t cookie);
/** kbinder_parcel_to_txn() - point @tr's data/offsets (and sizes) at @p. */
void kbinder_parcel_to_txn(const struct kbinder_parcel *p,
		      struct binder_transaction_data *tr);

/**
 * struct kbinder_parcel_view - bounds-checked reader over received data.
 * @data, @size:         the payload
 * @offsets, @n_offsets: its object offsets
 * @pos:                 read cursor in @data
 */
struct kbinder_parcel_view {
	const uint8_t *data;
	size_t size;
	const binder_size_t *offsets;
	size_t n_offsets;
	size_t pos;
	uint64_t reserved[4];
};

void kbinder_view_init(struct kbinder_parcel_view *v,
		  const struct binder_transaction_data *tr);
/** kbinder_view_read() - copy @size bytes, advance by size rounded up to 4. */
int kbinder_view_read(struct kbinder_parcel_view *v, void *out, size_t size);
int kbinder_view_read_u32(struct kbinder_parcel_view *v, uint32_t *out);
int kbinder_view_read_u64(struct kbinder_parcel_view *v, uint64_t *out);
/**
 * kbinder_view_object() - copy the @index-th object (a flat_binder_object or
 * binder_fd_object, both 24 bytes). Return: 0, or -ERANGE if out of bounds.
 */
int kbinder_view_object(const struct kbinder_parcel_view *v, size_t index,
		   struct flat_binder_object *out);

/* ------------------------------------------------------------------ */
/* thread: event queue and convenience calls                            */
/* ------------------------------------------------------------------ */

#define KBINDER_THREAD_RBUF 512

/**
 * struct kbinder_thread - one binder thread (the calling OS thread) on one fd.
 * @fd:   binder fd
 * @len:  bytes in @buf (last read_consumed)
 * @pos:  next unparsed byte in @buf
 * @buf:  last read
 *
 * Keep one per OS thread per fd; the driver keys its thread state on the
 * calling task.
 */
struct kbinder_thread {
	int fd;
	size_t len;
	size_t pos;
	uint64_t reserved[4];
	uint8_t buf[KBINDER_THREAD_RBUF];
};

void kbinder_thread_init(struct kbinder_thread *t, int fd);
/**
 * kbinder_next() - the next return command, reading from the driver if needed.
 * @timeout_ms: -1 waits forever; otherwise -ETIMEDOUT after that long.
 *
 * A timed wait polls, then reads with the file briefly O_NONBLOCK (so it
 * cannot sleep in the driver past its deadline); blocking readers of the
 * same fd that meet -EAGAIN meanwhile simply wait again (kbinder_read()).
 *
 * BR_NOOP is returned like any other command. Return: 0 or -errno.
 */
int kbinder_next(struct kbinder_thread *t, struct kbinder_return *ret, int timeout_ms);
/** kbinder_pending() - true if parsed-but-unreturned commands are queued. */
bool kbinder_pending(const struct kbinder_thread *t);

/**
 * typedef kbinder_event_fn - called for every command a convenience call does not
 * consume itself. Return 0 to go on, a negative errno to abort the call.
 */
typedef int (*kbinder_event_fn)(struct kbinder_thread *t, const struct kbinder_return *ret,
			   void *arg);

/**
 * kbinder_handle_default() - default handling of an unexpected command: ack
 * BR_INCREFS/BR_ACQUIRE, ignore BR_RELEASE/DECREFS/NOOP/SPAWN_LOOPER,
 * BC_DEAD_BINDER_DONE a BR_DEAD_BINDER, BC_FREEZE_NOTIFICATION_DONE a
 * BR_FROZEN_BINDER, free the buffer of a BR_TRANSACTION
 * and reply empty to a synchronous one; -EPROTO for anything else.
 */
int kbinder_handle_default(struct kbinder_thread *t, const struct kbinder_return *ret,
		      void *arg);

/**
 * struct kbinder_reply - outcome of a transaction.
 * @status: BR_REPLY, BR_TRANSACTION_COMPLETE (one-way),
 *          BR_TRANSACTION_PENDING_FROZEN (one-way, target frozen: queued
 *          until it thaws; mainline 6.7+), BR_DEAD_REPLY, BR_FAILED_REPLY
 *          or BR_FROZEN_REPLY
 * @txn:    the reply when @status is BR_REPLY; free its buffer with
 *          kbinder_free_buffer()
 */
struct kbinder_reply {
	uint32_t status;
	struct binder_transaction_data txn;
	uint64_t reserved[2];
};

/**
 * kbinder_transact() - send a transaction and wait for its outcome.
 * @handle:  target handle
 * @code:    transaction code
 * @data:    payload (NULL for none)
 * @flags:   TF_* flags; with TF_ONE_WAY returns after BR_TRANSACTION_COMPLETE
 * @reply:   outcome
 * @other:   handler for other commands (NULL = kbinder_handle_default)
 * @arg:     passed to @other
 * @timeout_ms: bound on each wait for the driver (-1 = none)
 */
int kbinder_transact(struct kbinder_thread *t, uint32_t handle, uint32_t code,
		const struct kbinder_parcel *data, uint32_t flags,
		struct kbinder_reply *reply, kbinder_event_fn other, void *arg,
		int timeout_ms);
/**
 * kbinder_send_reply() - BC_REPLY and wait for BR_TRANSACTION_COMPLETE.
 * Return: 0, -EPIPE on BR_DEAD_REPLY, -EIO on BR_FAILED_REPLY, or -errno.
 */
int kbinder_send_reply(struct kbinder_thread *t, const struct kbinder_parcel *data,
		  uint32_t flags, int timeout_ms);
/**
 * kbinder_wait_for() - handle commands until one with code @cmd arrives.
 * Return: 0 with @ret filled, or -errno.
 */
int kbinder_wait_for(struct kbinder_thread *t, uint32_t cmd, struct kbinder_return *ret,
		kbinder_event_fn other, void *arg, int timeout_ms);

int kbinder_free_buffer(struct kbinder_thread *t, binder_uintptr_t buffer);
int kbinder_enter_looper(struct kbinder_thread *t);
int kbinder_register_looper(struct kbinder_thread *t);
int kbinder_exit_looper(struct kbinder_thread *t);
/** kbinder_ref() - BC_INCREFS / BC_ACQUIRE / BC_RELEASE / BC_DECREFS on @handle. */
int kbinder_ref(struct kbinder_thread *t, uint32_t cmd, uint32_t handle);
/** kbinder_ref_done() - BC_INCREFS_DONE / BC_ACQUIRE_DONE. */
int kbinder_ref_done(struct kbinder_thread *t, uint32_t cmd, binder_uintptr_t ptr,
		binder_uintptr_t cookie);
int kbinder_request_death(struct kbinder_thread *t, uint32_t handle,
		     binder_uintptr_t cookie);
int kbinder_clear_death(struct kbinder_thread *t, uint32_t handle,
		   binder_uintptr_t cookie);
int kbinder_dead_binder_done(struct kbinder_thread *t, binder_uintptr_t cookie);

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

/* In-tree only: the old kb_ names for the project's own test programs. */
#ifdef KBINDER_LEGACY_NAMES
#include <kbinder/legacy.h>
#endif

#endif /* KBINDER_KBINDER_H */
