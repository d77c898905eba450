/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: Android's parcel conventions on top of struct kbinder_parcel,
 * as each Android release (API level 28 to 36) writes and expects them:
 *
 *   - the interface token that starts every call: a strict-mode policy
 *     word, a work-source uid (API 29+), a 'SYST'/'VNDR' marker (API 30+)
 *     and the interface descriptor as a UTF-16 string;
 *   - strings (UTF-16 "String16" and UTF-8 "String8", with null strings);
 *   - strong binders, with the stability field libbinder writes after each
 *     flat_binder_object since API 30 (an int32 level; a version+level
 *     "category" on API 31 and 32 only);
 *   - the binder::Status header that starts every AIDL reply;
 *   - the standard transactions every binder object answers (PING,
 *     INTERFACE, DUMP, DEBUG_PID) and a dispatcher for local objects.
 *
 * Readers check everything they read and refuse malformed input with
 * -EBADMSG; they never read outside the received data.
 */
#ifndef KBINDER_ANDROID_H
#define KBINDER_ANDROID_H

#include <kbinder/kbinder.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility push(default)
#endif

#define KBINDER_API_LEVEL_MIN		28
#define KBINDER_API_LEVEL_MAX		36
/** Used when neither the caller nor $KBINDER_API_LEVEL names a level. */
#define KBINDER_API_LEVEL_DEFAULT	33

#define KBINDER_FOURCC(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* The interface-token marker (API 30+): the partition of the writer. */
#define KBINDER_MARKER_SYSTEM	KBINDER_FOURCC('S', 'Y', 'S', 'T')
#define KBINDER_MARKER_VENDOR	KBINDER_FOURCC('V', 'N', 'D', 'R')

/* Stability levels (libbinder's Stability::Level). */
#define KBINDER_STABILITY_UNDECLARED	0x00
#define KBINDER_STABILITY_VENDOR	0x03
#define KBINDER_STABILITY_SYSTEM	0x0c
#define KBINDER_STABILITY_VINTF		0x3f

/* Transaction codes every binder object knows (IBinder.h). */
#define KBINDER_FIRST_CALL_TRANSACTION	0x00000001u
#define KBINDER_LAST_CALL_TRANSACTION	0x00ffffffu
#define KBINDER_PING_TRANSACTION	KBINDER_FOURCC('_', 'P', 'N', 'G')
#define KBINDER_DUMP_TRANSACTION	KBINDER_FOURCC('_', 'D', 'M', 'P')
#define KBINDER_SHELL_COMMAND_TRANSACTION KBINDER_FOURCC('_', 'C', 'M', 'D')
#define KBINDER_INTERFACE_TRANSACTION	KBINDER_FOURCC('_', 'N', 'T', 'F')
#define KBINDER_SYSPROPS_TRANSACTION	KBINDER_FOURCC('_', 'S', 'P', 'R')
#define KBINDER_EXTENSION_TRANSACTION	KBINDER_FOURCC('_', 'E', 'X', 'T')
#define KBINDER_DEBUG_PID_TRANSACTION	KBINDER_FOURCC('_', 'P', 'I', 'D')

/* status_t values that travel in TF_STATUS_CODE replies. */
#define KBINDER_STATUS_UNKNOWN_TRANSACTION	(-74)	/* -EBADMSG */
#define KBINDER_STATUS_PERMISSION_DENIED	(-1)	/* -EPERM */
#define KBINDER_STATUS_BAD_VALUE		(-22)	/* -EINVAL */
#define KBINDER_STATUS_BAD_TYPE			(INT32_MIN + 1)

/* binder::Status exception codes (Status.h). */
#define KBINDER_EX_NONE			0
#define KBINDER_EX_SECURITY		(-1)
#define KBINDER_EX_BAD_PARCELABLE	(-2)
#define KBINDER_EX_ILLEGAL_ARGUMENT	(-3)
#define KBINDER_EX_NULL_POINTER		(-4)
#define KBINDER_EX_ILLEGAL_STATE	(-5)
#define KBINDER_EX_NETWORK_MAIN_THREAD	(-6)
#define KBINDER_EX_UNSUPPORTED_OPERATION (-7)
#define KBINDER_EX_SERVICE_SPECIFIC	(-8)
#define KBINDER_EX_PARCELABLE		(-9)
#define KBINDER_EX_HAS_REPLY_HEADER	(-128)
#define KBINDER_EX_TRANSACTION_FAILED	(-129)

/** Returned by readers for a null string or a null binder. */
#define KBINDER_NULL 1

/**
 * struct kbinder_wire - the parcel conventions of one Android release.
 * @api_level: 28..36
 * @marker:    what this side writes in the token (API 30+), and expects:
 *             KBINDER_MARKER_SYSTEM (default) or KBINDER_MARKER_VENDOR
 * @stability: the level written after this side's own binders
 *             (default KBINDER_STABILITY_SYSTEM)
 * @reserved:  zero
 */
struct kbinder_wire {
	int api_level;
	uint32_t marker;
	uint32_t stability;
	uint32_t reserved[5];
};

/**
 * kbinder_wire_init() - the conventions of @api_level.
 * @api_level: 28..36, or 0 for kbinder_default_api_level()
 * Return: 0, or -EINVAL for a level outside 28..36.
 */
int kbinder_wire_init(struct kbinder_wire *w, int api_level);
/** kbinder_default_api_level() - $KBINDER_API_LEVEL if valid, else the default. */
int kbinder_default_api_level(void);
/** kbinder_wire_android_version() - the Android release of an API level ("11"). */
const char *kbinder_wire_android_version(int api_level);

/* -------------------------------------------------------------- strings */

/**
 * kbinder_parcel_write_string16() - a String16 from UTF-8 @s: int32 length
 * in UTF-16 units, the units, a 0 unit, padding. NULL writes the null
 * string (length -1). Return: 0, -EINVAL for invalid UTF-8, -ENOMEM.
 */
int kbinder_parcel_write_string16(struct kbinder_parcel *p, const char *s);
/** kbinder_parcel_write_string8() - int32 byte length, bytes, NUL, padding. */
int kbinder_parcel_write_string8(struct kbinder_parcel *p, const char *s);
/**
 * kbinder_view_read_string16() - a String16 as UTF-8 into @out (@size
 * bytes with the NUL). Return: 0; KBINDER_NULL for the null string (@out
 * is ""); -EBADMSG if malformed (length past the data, no 0 unit, an
 * unpaired surrogate, a 0 unit inside); -ENOBUFS if it does not fit.
 */
int kbinder_view_read_string16(struct kbinder_parcel_view *v, char *out,
			       size_t size);
/** kbinder_view_read_string8() - like kbinder_view_read_string16(). */
int kbinder_view_read_string8(struct kbinder_parcel_view *v, char *out,
			      size_t size);

/* ----------------------------------------------------- interface token */

/** kbinder_parcel_write_token() - the header of a call to @descriptor. */
int kbinder_parcel_write_token(struct kbinder_parcel *p,
			       const struct kbinder_wire *w,
			       const char *descriptor);
/**
 * kbinder_view_read_token() - read the header, the descriptor into @out.
 * Return: 0, -EBADMSG if malformed or the marker is not @w's, -ENOBUFS.
 */
int kbinder_view_read_token(struct kbinder_parcel_view *v,
			    const struct kbinder_wire *w, char *out,
			    size_t size);
/**
 * kbinder_view_check_token() - read the header and compare.
 * Return: 0, -EBADMSG if malformed, -EPERM if the descriptor differs
 * (libbinder's PERMISSION_DENIED).
 */
int kbinder_view_check_token(struct kbinder_parcel_view *v,
			     const struct kbinder_wire *w,
			     const char *descriptor);

/* ------------------------------------------------------------- binders */

/**
 * kbinder_parcel_write_strong_binder() - a local object (@ptr, @cookie),
 * or the null binder when @ptr is 0, and its stability field.
 */
int kbinder_parcel_write_strong_binder(struct kbinder_parcel *p,
				       const struct kbinder_wire *w,
				       binder_uintptr_t ptr,
				       binder_uintptr_t cookie);
/**
 * kbinder_parcel_write_strong_handle() - a remote object and its stability
 * field: @stability is the level it came with (what
 * kbinder_view_read_strong_binder() read), or @w->stability.
 */
int kbinder_parcel_write_strong_handle(struct kbinder_parcel *p,
				       const struct kbinder_wire *w,
				       uint32_t handle, uint32_t stability);
/**
 * kbinder_view_read_strong_binder() - the binder at the cursor: an object
 * the driver translated (its offset is in the offsets array), or the null
 * binder; then its stability field.
 * @out:       the object (BINDER_TYPE_HANDLE or BINDER_TYPE_BINDER)
 * @stability: if not NULL, the level read (0 before API 30)
 * Return: 0, KBINDER_NULL for the null binder, -EBADMSG if malformed.
 */
int kbinder_view_read_strong_binder(struct kbinder_parcel_view *v,
				    const struct kbinder_wire *w,
				    struct flat_binder_object *out,
				    uint32_t *stability);
/**
 * kbinder_view_read_fd() - a file descriptor object at the cursor (one the
 * driver translated). Return: the fd (>= 0), or -EBADMSG.
 */
int kbinder_view_read_fd(struct kbinder_parcel_view *v);

/* -------------------------------------------------------------- status */

/**
 * kbinder_parcel_write_status() - the binder::Status header of an AIDL
 * reply: KBINDER_EX_NONE alone, or the exception code, @message (NULL:
 * null string), an empty remote stack trace and, for
 * KBINDER_EX_SERVICE_SPECIFIC, @code.
 */
int kbinder_parcel_write_status(struct kbinder_parcel *p, int32_t exception,
				const char *message, int32_t code);
/**
 * kbinder_view_read_status() - read a binder::Status header (skipping a
 * reply header, EX_HAS_REPLY_HEADER). @message may be NULL.
 * Return: 0 with *@exception (and *@code for EX_SERVICE_SPECIFIC, else 0),
 * or -EBADMSG.
 */
int kbinder_view_read_status(struct kbinder_parcel_view *v, int32_t *exception,
			     int32_t *code, char *message, size_t size);

/* ------------------------------------------------------- local objects */

/**
 * struct kbinder_call - one incoming transaction, as a local object's
 * handler sees it.
 * @thread: the thread serving it (make nested calls on it)
 * @txn:    the transaction as the driver delivered it
 * @in:     a view over its data, after the interface token for user codes
 * @reply:  the reply payload to fill (sent after the handler returns)
 * @wire:   the conventions of the object
 */
struct kbinder_call {
	struct kbinder_thread *thread;
	const struct binder_transaction_data *txn;
	struct kbinder_parcel_view in;
	struct kbinder_parcel *reply;
	const struct kbinder_wire *wire;
	uint64_t reserved[4];
};

/**
 * struct kbinder_object - a local binder object with an interface.
 * @descriptor: its interface descriptor (INTERFACE_TRANSACTION answers it)
 * @wire:       the conventions its callers use
 * @handle:     user codes (FIRST..LAST_CALL_TRANSACTION) whose token
 *              matched; returns 0 to send @reply, a negative status_t to
 *              send a status-code reply (KBINDER_STATUS_UNKNOWN_TRANSACTION
 *              for codes it does not know). NULL: every user code is
 *              unknown.
 * @dump:       DUMP_TRANSACTION: write a description to @fd; NULL writes
 *              the descriptor and the pid
 * @arg:        for the callbacks
 * @n_codes:    the interface's user codes are 1..@n_codes: others are
 *              UNKNOWN_TRANSACTION before any token check, as AIDL stubs
 *              answer them (0: every user code reaches @handle)
 * @reserved:   zero
 */
struct kbinder_object {
	const char *descriptor;
	const struct kbinder_wire *wire;
	int (*handle)(struct kbinder_object *obj, uint32_t code,
		      struct kbinder_call *call);
	int (*dump)(struct kbinder_object *obj, int fd, int argc,
		    char **argv);
	void *arg;
	uint32_t n_codes;
	uint64_t reserved[4];
};

/**
 * kbinder_object_dispatch() - answer one BR_TRANSACTION for @obj the way
 * libbinder's BBinder does: PING (empty reply), INTERFACE (the
 * descriptor), DUMP (the fd and String16 arguments, then an empty reply),
 * DEBUG_PID (the pid), EXTENSION (the null binder), SYSPROPS (empty); a
 * user code after checking the interface token (BAD_TYPE on a mismatch,
 * as AIDL's generated code answers); any other code UNKNOWN_TRANSACTION. Sends the reply unless the call is one-way; does
 * not free the transaction's buffer.
 * Return: 0 or -errno from sending the reply.
 */
int kbinder_object_dispatch(struct kbinder_object *obj,
			    struct kbinder_thread *t,
			    const struct binder_transaction_data *tr);
/** kbinder_send_status() - a TF_STATUS_CODE reply carrying @status. */
int kbinder_send_status(struct kbinder_thread *t, int32_t status,
			int timeout_ms);

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* KBINDER_ANDROID_H */
