/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kbinder: the Android Binder IPC user/kernel interface (protocol 8).
 *
 * Every number and every structure layout here is the binder ABI that
 * Android userspace is built against: ioctl numbers, BC_* and BR_* codes,
 * object types and flags must never change.  New entries may only be added.
 * The layouts are checked against the system copy of this header and the
 * mainline values by tests/host/abi_check.c.
 *
 * A process talks to the driver with ioctl() on an open binder device.
 * BINDER_WRITE_READ carries two byte streams: a write stream of commands
 * (each a 32-bit BC_* code followed by its payload) and a read stream that
 * the driver fills with returns (each a 32-bit BR_* code followed by its
 * payload).  Payload types are encoded in the code itself, _IOC() style.
 *
 * Pointers and sizes crossing the boundary are binder_uintptr_t and
 * binder_size_t: 64 bits wide unless BINDER_IPC_32BIT selects the legacy
 * protocol 7 used by old 32-bit-only systems.
 */

#ifndef _LINUX_BINDER_H
#define _LINUX_BINDER_H

#include <linux/types.h>
#include <linux/ioctl.h>

/*
 * Object type tags are four characters packed big-end-first into a __u32;
 * the low byte of every tag is B_TYPE_LARGE.
 */
#define B_PACK_CHARS(c1, c2, c3, c4) \
	(((c1) << 24) | ((c2) << 16) | ((c3) << 8) | (c4))
#define B_TYPE_LARGE 0x85

/*
 * Values of binder_object_header.type: what kind of object sits at an
 * offset listed in a transaction's offsets array.
 *
 * BINDER_TYPE_BINDER, BINDER_TYPE_WEAK_BINDER: a strong or weak reference
 *	to a node owned by the sender (struct flat_binder_object, @binder set).
 * BINDER_TYPE_HANDLE, BINDER_TYPE_WEAK_HANDLE: a strong or weak reference
 *	through a handle the sender holds (struct flat_binder_object, @handle).
 * BINDER_TYPE_FD: one file descriptor (struct binder_fd_object).
 * BINDER_TYPE_FDA: an array of descriptors inside a buffer object
 *	(struct binder_fd_array_object).
 * BINDER_TYPE_PTR: a block of memory to copy (struct binder_buffer_object).
 */
enum {
	BINDER_TYPE_BINDER	= B_PACK_CHARS('s', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_BINDER	= B_PACK_CHARS('w', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_HANDLE	= B_PACK_CHARS('s', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_HANDLE	= B_PACK_CHARS('w', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_FD		= B_PACK_CHARS('f', 'd', '*', B_TYPE_LARGE),
	BINDER_TYPE_FDA		= B_PACK_CHARS('f', 'd', 'a', B_TYPE_LARGE),
	BINDER_TYPE_PTR		= B_PACK_CHARS('p', 't', '*', B_TYPE_LARGE),
};

/**
 * enum flat_binder_object_flags - flags of a node, set by its owner
 * @FLAT_BINDER_FLAG_PRIORITY_MASK: low bits: minimum scheduling priority
 *	for calls into the node
 * @FLAT_BINDER_FLAG_ACCEPTS_FDS: the node accepts file descriptors
 * @FLAT_BINDER_FLAG_TXN_SECURITY_CTX: transactions to the node carry the
 *	sender's security context (BR_TRANSACTION_SEC_CTX)
 */
enum flat_binder_object_flags {
	FLAT_BINDER_FLAG_PRIORITY_MASK = 0xff,
	FLAT_BINDER_FLAG_ACCEPTS_FDS = 0x100,
	FLAT_BINDER_FLAG_TXN_SECURITY_CTX = 0x1000,
};

#ifdef BINDER_IPC_32BIT
typedef __u32 binder_size_t;
typedef __u32 binder_uintptr_t;
#else
typedef __u64 binder_size_t;
typedef __u64 binder_uintptr_t;
#endif

/**
 * struct binder_object_header - first word of every embedded object
 * @type: one of the BINDER_TYPE_* tags
 */
struct binder_object_header {
	__u32 type;
};

/**
 * struct flat_binder_object - a node or a handle inside transaction data
 * @hdr: BINDER_TYPE_BINDER, _WEAK_BINDER, _HANDLE or _WEAK_HANDLE
 * @flags: FLAT_BINDER_FLAG_* bits (meaningful for local nodes)
 * @binder: the owner's own identifier of a local node
 * @handle: the sender's handle of a remote node
 * @cookie: owner-chosen value kept with a local node
 *
 * The driver rewrites the object as it crosses processes: a local node
 * becomes a handle in the receiver, and a handle to a node owned by the
 * receiver becomes that node's @binder and @cookie again.
 */
struct flat_binder_object {
	struct binder_object_header hdr;
	__u32 flags;
	union {
		binder_uintptr_t binder;
		__u32 handle;
	};
	binder_uintptr_t cookie;
};

/**
 * struct binder_fd_object - a file descriptor inside transaction data
 * @hdr: BINDER_TYPE_FD
 * @pad_flags: unused, kept for the layout of older userspace
 * @pad_binder: unused, kept for the layout of older userspace
 * @fd: the descriptor; the receiver sees its own new descriptor here
 * @cookie: opaque to the driver
 */
struct binder_fd_object {
	struct binder_object_header hdr;
	__u32 pad_flags;
	union {
		binder_uintptr_t pad_binder;
		__u32 fd;
	};
	binder_uintptr_t cookie;
};

/**
 * struct binder_buffer_object - a block of sender memory to copy
 * @hdr: BINDER_TYPE_PTR
 * @flags: BINDER_BUFFER_FLAG_* bits
 * @buffer: sender address of the block; the receiver sees its own copy
 * @length: size of the block in bytes
 * @parent: with BINDER_BUFFER_FLAG_HAS_PARENT, index in the offsets array
 *	of the buffer object that holds a pointer to this block
 * @parent_offset: where in the parent that pointer sits; the driver
 *	patches it to point at the receiver's copy
 *
 * The copies go into the extra buffers area sized by
 * binder_transaction_data_sg.buffers_size.
 */
struct binder_buffer_object {
	struct binder_object_header hdr;
	__u32 flags;
	binder_uintptr_t buffer;
	binder_size_t length;
	binder_size_t parent;
	binder_size_t parent_offset;
};

/* Values of binder_buffer_object.flags. */
enum {
	BINDER_BUFFER_FLAG_HAS_PARENT = 0x01,
};

/**
 * struct binder_fd_array_object - descriptors stored inside a buffer
 * @hdr: BINDER_TYPE_FDA
 * @pad: unused, aligns the following fields
 * @num_fds: how many __u32 descriptors the array holds
 * @parent: index in the offsets array of the buffer object holding them
 * @parent_offset: byte offset of the array within that buffer
 *
 * Every descriptor of the array is translated for the receiver in place.
 */
struct binder_fd_array_object {
	struct binder_object_header hdr;
	__u32 pad;
	binder_size_t num_fds;
	binder_size_t parent;
	binder_size_t parent_offset;
};

/**
 * struct binder_write_read - argument of BINDER_WRITE_READ
 * @write_size: bytes of commands at @write_buffer
 * @write_consumed: bytes of commands the driver processed (updated)
 * @write_buffer: address of the command stream
 * @read_size: room in bytes at @read_buffer
 * @read_consumed: bytes of returns the driver stored (updated)
 * @read_buffer: address of the return stream
 *
 * The driver first consumes commands, then, if @read_size is not zero,
 * fills the read buffer, waiting for work unless the file is non-blocking.
 */
struct binder_write_read {
	binder_size_t write_size;
	binder_size_t write_consumed;
	binder_uintptr_t write_buffer;
	binder_size_t read_size;
	binder_size_t read_consumed;
	binder_uintptr_t read_buffer;
};

/**
 * struct binder_version - argument of BINDER_VERSION
 * @protocol_version: set by the driver to BINDER_CURRENT_PROTOCOL_VERSION
 */
struct binder_version {
	__s32 protocol_version;
};

#ifdef BINDER_IPC_32BIT
#define BINDER_CURRENT_PROTOCOL_VERSION 7
#else
#define BINDER_CURRENT_PROTOCOL_VERSION 8
#endif

/**
 * struct binder_node_debug_info - argument of BINDER_GET_NODE_DEBUG_INFO
 * @ptr: in: 0 to start, or the @ptr returned by the previous call; out:
 *	the next node of the caller (by @ptr order), or 0 when none is left
 * @cookie: out: that node's cookie
 * @has_strong_ref: out: the node holds a strong reference
 * @has_weak_ref: out: the node holds a weak reference
 */
struct binder_node_debug_info {
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
	__u32 has_strong_ref;
	__u32 has_weak_ref;
};

/**
 * struct binder_node_info_for_ref - argument of BINDER_GET_NODE_INFO_FOR_REF
 * @handle: in: a handle of the caller (the context manager only)
 * @strong_count: out: strong references on the node behind @handle
 * @weak_count: out: weak references on that node
 * @reserved1: must be zero
 * @reserved2: must be zero
 * @reserved3: must be zero
 */
struct binder_node_info_for_ref {
	__u32 handle;
	__u32 strong_count;
	__u32 weak_count;
	__u32 reserved1;
	__u32 reserved2;
	__u32 reserved3;
};

/**
 * struct binder_freeze_info - argument of BINDER_FREEZE
 * @pid: process whose binder state is frozen or thawed
 * @enable: 1 to freeze, 0 to thaw
 * @timeout_ms: how long freezing may wait for pending transactions
 */
struct binder_freeze_info {
	__u32 pid;
	__u32 enable;
	__u32 timeout_ms;
};

/**
 * struct binder_frozen_status_info - argument of BINDER_GET_FROZEN_INFO
 * @pid: in: the process asked about
 * @sync_recv: out: bit 0: a synchronous transaction arrived while frozen;
 *	bit 1: a synchronous transaction is still pending
 * @async_recv: out: a one-way transaction arrived while frozen
 */
struct binder_frozen_status_info {
	__u32 pid;
	__u32 sync_recv;
	__u32 async_recv;
};

/**
 * struct binder_frozen_state_info - payload of BR_FROZEN_BINDER
 * @cookie: the cookie given to BC_REQUEST_FREEZE_NOTIFICATION
 * @is_frozen: 1 if the node's owner is now frozen, 0 if thawed
 * @reserved: always zero
 */
struct binder_frozen_state_info {
	binder_uintptr_t cookie;
	__u32 is_frozen;
	__u32 reserved;
};

/**
 * struct binder_extended_error - argument of BINDER_GET_EXTENDED_ERROR
 * @id: debug id of the failed transaction
 * @command: the BR_* code the failure was reported with
 * @param: a negative errno describing the cause
 *
 * Reading the record clears it (@id 0, @command BR_OK, @param 0).
 */
struct binder_extended_error {
	__u32 id;
	__u32 command;
	__s32 param;
};

#define BINDER_WRITE_READ		_IOWR('b', 1, struct binder_write_read)
#define BINDER_SET_IDLE_TIMEOUT		_IOW('b', 3, __s64)
#define BINDER_SET_MAX_THREADS		_IOW('b', 5, __u32)
#define BINDER_SET_IDLE_PRIORITY	_IOW('b', 6, __s32)
#define BINDER_SET_CONTEXT_MGR		_IOW('b', 7, __s32)
#define BINDER_THREAD_EXIT		_IOW('b', 8, __s32)
#define BINDER_VERSION			_IOWR('b', 9, struct binder_version)
#define BINDER_GET_NODE_DEBUG_INFO \
	_IOWR('b', 11, struct binder_node_debug_info)
#define BINDER_GET_NODE_INFO_FOR_REF \
	_IOWR('b', 12, struct binder_node_info_for_ref)
#define BINDER_SET_CONTEXT_MGR_EXT \
	_IOW('b', 13, struct flat_binder_object)
#define BINDER_FREEZE			_IOW('b', 14, struct binder_freeze_info)
#define BINDER_GET_FROZEN_INFO \
	_IOWR('b', 15, struct binder_frozen_status_info)
#define BINDER_ENABLE_ONEWAY_SPAM_DETECTION	_IOW('b', 16, __u32)
#define BINDER_GET_EXTENDED_ERROR \
	_IOWR('b', 17, struct binder_extended_error)

/*
 * Two errors from the ioctls need care: EINTR means a signal arrived and
 * the call should simply be made again; ECONNREFUSED means the process is
 * being torn down and every later call will fail the same way.
 */

/**
 * enum transaction_flags - binder_transaction_data.flags
 * @TF_ONE_WAY: asynchronous: no reply, the sender does not wait
 * @TF_ROOT_OBJECT: historical, unused
 * @TF_STATUS_CODE: the data is a 32-bit status code
 * @TF_ACCEPT_FDS: the reply may carry file descriptors
 * @TF_CLEAR_BUF: zero the receiver's copy of the data when it is freed
 * @TF_UPDATE_TXN: a one-way call to a frozen process replaces a still
 *	queued one-way call of the same sender, node and code
 */
enum transaction_flags {
	TF_ONE_WAY	= 0x01,
	TF_ROOT_OBJECT	= 0x04,
	TF_STATUS_CODE	= 0x08,
	TF_ACCEPT_FDS	= 0x10,
	TF_CLEAR_BUF	= 0x20,
	TF_UPDATE_TXN	= 0x40,
};

/**
 * struct binder_transaction_data - one call or reply
 * @target: for BC_TRANSACTION the handle called (@target.handle, 0 is the
 *	context manager); for BR_TRANSACTION the receiving node's
 *	@target.ptr
 * @target.handle: handle of the target node (commands)
 * @target.ptr: owner's identifier of the target node (returns)
 * @cookie: for BR_TRANSACTION the target node's cookie
 * @code: application-defined method code
 * @flags: TF_* bits
 * @sender_pid: thread-group id of the sender (0 for one-way calls),
 *	as seen from the receiver's PID namespace
 * @sender_euid: effective uid of the sender
 * @data_size: bytes of payload
 * @offsets_size: bytes of the offsets array (binder_size_t entries)
 * @data: where payload and offsets are
 * @data.ptr: for the address form
 * @data.ptr.buffer: address of the payload
 * @data.ptr.offsets: address of the offsets array, each entry the byte
 *	position of an object within the payload
 * @data.buf: inline form, unused by the driver
 */
struct binder_transaction_data {
	union {
		__u32 handle;
		binder_uintptr_t ptr;
	} target;
	binder_uintptr_t cookie;
	__u32 code;

	__u32 flags;
	__kernel_pid_t sender_pid;
	__kernel_uid32_t sender_euid;
	binder_size_t data_size;
	binder_size_t offsets_size;

	union {
		struct {
			binder_uintptr_t buffer;
			binder_uintptr_t offsets;
		} ptr;
		__u8 buf[8];
	} data;
};

/**
 * struct binder_transaction_data_secctx - payload of BR_TRANSACTION_SEC_CTX
 * @transaction_data: the transaction
 * @secctx: receiver address of the sender's security context string,
 *	stored in the transaction buffer
 */
struct binder_transaction_data_secctx {
	struct binder_transaction_data transaction_data;
	binder_uintptr_t secctx;
};

/**
 * struct binder_transaction_data_sg - payload of BC_TRANSACTION_SG and
 * BC_REPLY_SG
 * @transaction_data: the transaction
 * @buffers_size: room to reserve for the copies of BINDER_TYPE_PTR blocks
 */
struct binder_transaction_data_sg {
	struct binder_transaction_data transaction_data;
	binder_size_t buffers_size;
};

/**
 * struct binder_ptr_cookie - a local node, named by its owner
 * @ptr: the owner's identifier of the node
 * @cookie: the owner's cookie of the node
 */
struct binder_ptr_cookie {
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
};

/**
 * struct binder_handle_cookie - a handle and a notification cookie
 * @handle: a handle of the caller
 * @cookie: value returned with the notification
 *
 * Packed: the cookie directly follows the handle, 12 bytes in all.
 */
struct binder_handle_cookie {
	__u32 handle;
	binder_uintptr_t cookie;
} __attribute__((packed));

/**
 * struct binder_pri_desc - payload of the unsupported BC_ATTEMPT_ACQUIRE
 * @priority: scheduling priority
 * @desc: handle
 */
struct binder_pri_desc {
	__s32 priority;
	__u32 desc;
};

/**
 * struct binder_pri_ptr_cookie - payload of the unused BR_ATTEMPT_ACQUIRE
 * @priority: scheduling priority
 * @ptr: the owner's identifier of a node
 * @cookie: the owner's cookie of that node
 */
struct binder_pri_ptr_cookie {
	__s32 priority;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
};

/**
 * enum binder_driver_return_protocol - codes the driver writes to the
 * read stream; each is followed by the payload its code encodes
 * @BR_ERROR: __s32 error code
 * @BR_OK: no payload
 * @BR_TRANSACTION_SEC_CTX: an incoming call to a node that asked for
 *	the sender's security context
 * @BR_TRANSACTION: an incoming call
 * @BR_REPLY: the reply to the caller's last synchronous call
 * @BR_ACQUIRE_RESULT: unused
 * @BR_DEAD_REPLY: the target of the last call is dead; no payload
 * @BR_TRANSACTION_COMPLETE: the last BC_TRANSACTION or BC_REPLY was
 *	accepted (sent for one-way calls too); no payload
 * @BR_INCREFS: take a weak reference on a local node
 * @BR_ACQUIRE: take a strong reference on a local node
 * @BR_RELEASE: drop a strong reference on a local node
 * @BR_DECREFS: drop a weak reference on a local node
 * @BR_ATTEMPT_ACQUIRE: unused
 * @BR_NOOP: nothing to do; no payload
 * @BR_SPAWN_LOOPER: start another looper thread (BC_REGISTER_LOOPER)
 * @BR_FINISHED: unused
 * @BR_DEAD_BINDER: a node with a death notification died; cookie follows
 * @BR_CLEAR_DEATH_NOTIFICATION_DONE: a death notification is cleared;
 *	cookie follows
 * @BR_FAILED_REPLY: the last call failed (bad data, no memory, ...)
 * @BR_FROZEN_REPLY: the target of the last synchronous call is frozen
 * @BR_ONEWAY_SPAM_SUSPECT: the sender's one-way calls fill too much of
 *	the target's async space (with BINDER_ENABLE_ONEWAY_SPAM_DETECTION)
 * @BR_TRANSACTION_PENDING_FROZEN: the target of the last one-way call is
 *	frozen; the call stays queued
 * @BR_FROZEN_BINDER: the owner of a node with a freeze notification was
 *	frozen or thawed; answer with BC_FREEZE_NOTIFICATION_DONE
 * @BR_CLEAR_FREEZE_NOTIFICATION_DONE: a freeze notification is cleared;
 *	cookie follows
 */
enum binder_driver_return_protocol {
	BR_ERROR = _IOR('r', 0, __s32),
	BR_OK = _IO('r', 1),
	BR_TRANSACTION_SEC_CTX = _IOR('r', 2,
				      struct binder_transaction_data_secctx),
	BR_TRANSACTION = _IOR('r', 2, struct binder_transaction_data),
	BR_REPLY = _IOR('r', 3, struct binder_transaction_data),
	BR_ACQUIRE_RESULT = _IOR('r', 4, __s32),
	BR_DEAD_REPLY = _IO('r', 5),
	BR_TRANSACTION_COMPLETE = _IO('r', 6),
	BR_INCREFS = _IOR('r', 7, struct binder_ptr_cookie),
	BR_ACQUIRE = _IOR('r', 8, struct binder_ptr_cookie),
	BR_RELEASE = _IOR('r', 9, struct binder_ptr_cookie),
	BR_DECREFS = _IOR('r', 10, struct binder_ptr_cookie),
	BR_ATTEMPT_ACQUIRE = _IOR('r', 11, struct binder_pri_ptr_cookie),
	BR_NOOP = _IO('r', 12),
	BR_SPAWN_LOOPER = _IO('r', 13),
	BR_FINISHED = _IO('r', 14),
	BR_DEAD_BINDER = _IOR('r', 15, binder_uintptr_t),
	BR_CLEAR_DEATH_NOTIFICATION_DONE = _IOR('r', 16, binder_uintptr_t),
	BR_FAILED_REPLY = _IO('r', 17),
	BR_FROZEN_REPLY = _IO('r', 18),
	BR_ONEWAY_SPAM_SUSPECT = _IO('r', 19),
	BR_TRANSACTION_PENDING_FROZEN = _IO('r', 20),
	BR_FROZEN_BINDER = _IOR('r', 21, struct binder_frozen_state_info),
	BR_CLEAR_FREEZE_NOTIFICATION_DONE = _IOR('r', 22, binder_uintptr_t),
};

/**
 * enum binder_driver_command_protocol - codes a process writes to the
 * write stream; each is followed by the payload its code encodes
 * @BC_TRANSACTION: make a call
 * @BC_REPLY: answer the call being served
 * @BC_ACQUIRE_RESULT: unsupported
 * @BC_FREE_BUFFER: release a received buffer (its data address follows)
 * @BC_INCREFS: take a weak reference through a handle
 * @BC_ACQUIRE: take a strong reference through a handle
 * @BC_RELEASE: drop a strong reference through a handle
 * @BC_DECREFS: drop a weak reference through a handle
 * @BC_INCREFS_DONE: BR_INCREFS was handled
 * @BC_ACQUIRE_DONE: BR_ACQUIRE was handled
 * @BC_ATTEMPT_ACQUIRE: unsupported
 * @BC_REGISTER_LOOPER: a thread started for BR_SPAWN_LOOPER is ready
 * @BC_ENTER_LOOPER: the calling thread joins the thread pool
 * @BC_EXIT_LOOPER: the calling thread leaves the thread pool
 * @BC_REQUEST_DEATH_NOTIFICATION: report the death of a handle's node
 * @BC_CLEAR_DEATH_NOTIFICATION: cancel such a request
 * @BC_DEAD_BINDER_DONE: BR_DEAD_BINDER was handled (cookie follows)
 * @BC_TRANSACTION_SG: a call with BINDER_TYPE_PTR blocks
 * @BC_REPLY_SG: a reply with BINDER_TYPE_PTR blocks
 * @BC_REQUEST_FREEZE_NOTIFICATION: report freezing and thawing of the
 *	process owning a handle's node
 * @BC_CLEAR_FREEZE_NOTIFICATION: cancel such a request
 * @BC_FREEZE_NOTIFICATION_DONE: BR_FROZEN_BINDER was handled (cookie
 *	follows)
 */
enum binder_driver_command_protocol {
	BC_TRANSACTION = _IOW('c', 0, struct binder_transaction_data),
	BC_REPLY = _IOW('c', 1, struct binder_transaction_data),
	BC_ACQUIRE_RESULT = _IOW('c', 2, __s32),
	BC_FREE_BUFFER = _IOW('c', 3, binder_uintptr_t),
	BC_INCREFS = _IOW('c', 4, __u32),
	BC_ACQUIRE = _IOW('c', 5, __u32),
	BC_RELEASE = _IOW('c', 6, __u32),
	BC_DECREFS = _IOW('c', 7, __u32),
	BC_INCREFS_DONE = _IOW('c', 8, struct binder_ptr_cookie),
	BC_ACQUIRE_DONE = _IOW('c', 9, struct binder_ptr_cookie),
	BC_ATTEMPT_ACQUIRE = _IOW('c', 10, struct binder_pri_desc),
	BC_REGISTER_LOOPER = _IO('c', 11),
	BC_ENTER_LOOPER = _IO('c', 12),
	BC_EXIT_LOOPER = _IO('c', 13),
	BC_REQUEST_DEATH_NOTIFICATION = _IOW('c', 14,
					     struct binder_handle_cookie),
	BC_CLEAR_DEATH_NOTIFICATION = _IOW('c', 15,
					   struct binder_handle_cookie),
	BC_DEAD_BINDER_DONE = _IOW('c', 16, binder_uintptr_t),
	BC_TRANSACTION_SG = _IOW('c', 17, struct binder_transaction_data_sg),
	BC_REPLY_SG = _IOW('c', 18, struct binder_transaction_data_sg),
	BC_REQUEST_FREEZE_NOTIFICATION = _IOW('c', 19,
					      struct binder_handle_cookie),
	BC_CLEAR_FREEZE_NOTIFICATION = _IOW('c', 20,
					    struct binder_handle_cookie),
	BC_FREEZE_NOTIFICATION_DONE = _IOW('c', 21, binder_uintptr_t),
};

#endif /* _LINUX_BINDER_H */
