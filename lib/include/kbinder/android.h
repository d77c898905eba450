/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: Android's parcel conventions on top of struct kbinder_parcel,
 * as each Android release (API level 28 to 36) writes and expects them:
 *
 *   - the interface token that starts every call: a strict-mode policy
 *     word, a work-source uid (API 29+), the header of the libbinder build
 *     that wrote it ('SYST', 'VNDR', 'RECO'; API 30+) and the interface
 *     descriptor as a UTF-16 string;
 *   - strings (UTF-16 "String16" and UTF-8 "String8", with null strings);
 *   - strong binders, with the stability field libbinder writes after each
 *     flat_binder_object since API 30 (an int32 level; a version+level
 *     "category" on API 31 and 32 only);
 *   - the binder::Status header that starts every AIDL reply;
 *   - AIDL's structured parcelables.
 * Local objects and the standard transactions are in kbinder/object.h.
 *
 * Readers check everything they read and refuse malformed input with
 * -EBADMSG; they never read outside the received data.
 */
#ifndef KBINDER_ANDROID_H
#define KBINDER_ANDROID_H

#include "common.h"
#include "parcel.h"

KBINDER_BEGIN_DECLS

#define KBINDER_API_LEVEL_MIN		28
#define KBINDER_API_LEVEL_MAX		36
/** Used when neither the caller nor $KBINDER_API_LEVEL names a level. */
#define KBINDER_API_LEVEL_DEFAULT	33

#define KBINDER_FOURCC(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/*
 * The interface-token marker (API 30+): the build of libbinder that wrote
 * the call, and the only one a reader of that build accepts (Parcel.cpp's
 * kHeader). The system image's; the vendor partition's (VNDK); the
 * recovery image's (Android 13 on: servicemanager.recovery and its
 * clients); and a libbinder built for another host that still uses
 * kernel binder (Android 14 QPR2 on).
 */
#define KBINDER_MARKER_SYSTEM	KBINDER_FOURCC('S', 'Y', 'S', 'T')
#define KBINDER_MARKER_VENDOR	KBINDER_FOURCC('V', 'N', 'D', 'R')
#define KBINDER_MARKER_RECOVERY	KBINDER_FOURCC('R', 'E', 'C', 'O')
#define KBINDER_MARKER_HOST	KBINDER_FOURCC('U', 'N', 'K', 'N')

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
 * struct kbinder_wire - the conventions of one Android release.
 * @api_level: 28..36
 * @marker:    what this side writes in the token (API 30+), and expects:
 *             KBINDER_MARKER_SYSTEM (default), _VENDOR, _RECOVERY or _HOST
 * @stability: the level written after this side's own binders
 *             (default KBINDER_STABILITY_SYSTEM)
 * @qpr:       which release of @api_level, where one level is more than
 *             one interface: 0 the release that introduced the level (the
 *             default), 1 or 2 its first or second quarterly platform
 *             release. Only 35 and 36 have any (the service manager's
 *             interface changed within them; kbinder/servicemanager.h);
 *             the parcel conventions never depend on it.
 * @reserved:  zero
 */
struct kbinder_wire {
	int api_level;
	uint32_t marker;
	uint32_t stability;
	uint32_t qpr;
	uint32_t reserved[4];
};

/**
 * kbinder_wire_init() - the conventions of @api_level's first release.
 * @api_level: 28..36, or 0 for $KBINDER_API_LEVEL (a level or a name, as
 *             kbinder_wire_init_name() takes it), else the default
 * Return: 0, or -EINVAL for a level outside 28..36.
 */
int kbinder_wire_init(struct kbinder_wire *w, int api_level);
/**
 * kbinder_wire_init_name() - the conventions of the release @name names:
 * a level ("33": the release that introduced it), or a level and its
 * quarterly platform release where they differ ("35-qpr1", "35-qpr2",
 * "36-qpr1", "36-qpr2"); NULL or "" as kbinder_wire_init(@w, 0).
 * Return: 0, or -EINVAL for any other name.
 */
int kbinder_wire_init_name(struct kbinder_wire *w, const char *name);
/** kbinder_wire_default_level() - $KBINDER_API_LEVEL's level if valid, else the default. */
int kbinder_wire_default_level(void);
/** kbinder_wire_android_version() - the Android release of an API level ("11"). */
const char *kbinder_wire_android_version(int api_level);
/** kbinder_wire_name() - @w's release as kbinder_wire_init_name() takes it ("35-qpr1"). */
const char *kbinder_wire_name(const struct kbinder_wire *w);
/** kbinder_wire_release() - @w's Android release ("15 QPR1"). */
const char *kbinder_wire_release(const struct kbinder_wire *w);

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
int kbinder_view_read_string16(struct kbinder_view *v, char *out,
			       size_t size);
/** kbinder_view_read_string8() - like kbinder_view_read_string16(). */
int kbinder_view_read_string8(struct kbinder_view *v, char *out,
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
int kbinder_view_read_token(struct kbinder_view *v,
			    const struct kbinder_wire *w, char *out,
			    size_t size);
/**
 * kbinder_view_check_token() - read the header and compare.
 * Return: 0, -EBADMSG if malformed, -EPERM if the descriptor differs
 * (libbinder's PERMISSION_DENIED).
 */
int kbinder_view_check_token(struct kbinder_view *v,
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
 * the driver translated (its offset is in the offsets array), the null
 * binder, or handle 0 written as bytes (libbinder writes the context
 * manager so: it needs no translation); then its stability field.
 * @out:       the object (BINDER_TYPE_HANDLE or BINDER_TYPE_BINDER)
 * @stability: if not NULL, the level read (0 before API 30)
 * Return: 0, KBINDER_NULL for the null binder, -EBADMSG if malformed.
 */
int kbinder_view_read_strong_binder(struct kbinder_view *v,
				    const struct kbinder_wire *w,
				    struct flat_binder_object *out,
				    uint32_t *stability);
/**
 * kbinder_view_read_fd() - a file descriptor object at the cursor (one the
 * driver translated). Return: the fd (>= 0), or -EBADMSG.
 */
int kbinder_view_read_fd(struct kbinder_view *v);

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
int kbinder_view_read_status(struct kbinder_view *v, int32_t *exception,
			     int32_t *code, char *message, size_t size);
/**
 * kbinder_status_errno() - the -errno an AIDL exception stands for:
 * EX_ILLEGAL_ARGUMENT -EINVAL, EX_SECURITY -EPERM, EX_NULL_POINTER
 * -EFAULT, EX_ILLEGAL_STATE -EBUSY, EX_UNSUPPORTED_OPERATION -EOPNOTSUPP,
 * any other -EREMOTEIO; EX_NONE 0.
 */
int kbinder_status_errno(int32_t exception);

/* ------------------------------------------------------- parcelables */

/*
 * AIDL's structured parcelables, as a method's argument or answer or a
 * field of another: int32 1 (non-null; a nullable one is int32 0 when
 * null), then an int32 size that counts itself and the fields after it.
 * A reader skips fields it does not know and defaults those it does not
 * get, so an older or newer writer's parcelable still reads.
 */

/**
 * kbinder_parcel_begin_parcelable() - write the non-null marker and a size
 * word to fill in later. Return: the size word's offset, for
 * kbinder_parcel_end_parcelable().
 */
size_t kbinder_parcel_begin_parcelable(struct kbinder_parcel *p);
/** kbinder_parcel_end_parcelable() - fill in the size word at @at. 0 or @p's error. */
int kbinder_parcel_end_parcelable(struct kbinder_parcel *p, size_t at);
/**
 * kbinder_view_begin_parcelable() - read the marker and the size word;
 * *@end is where the parcelable ends. Return: 0, KBINDER_NULL for a null
 * parcelable (nothing more to read), -EBADMSG if the size is under 4 or
 * runs past the data.
 */
int kbinder_view_begin_parcelable(struct kbinder_view *v, size_t *end);
/** kbinder_view_has_field() - is there a field left before @end? */
static inline bool kbinder_view_has_field(const struct kbinder_view *v, size_t end)
{
	return v->pos < end;
}
/**
 * kbinder_view_end_parcelable() - move to @end, past any fields not read.
 * Return: 0, or -EBADMSG if the cursor is already past @end.
 */
int kbinder_view_end_parcelable(struct kbinder_view *v, size_t end);

KBINDER_END_DECLS

#endif /* KBINDER_ANDROID_H */
