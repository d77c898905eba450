/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service manager's wire protocol: the one Android's C servicemanager
 * spoke before Android 11 (codes 1-4, a strict-mode word, a UTF-16
 * interface token, UTF-16 names), so existing clients of that protocol can
 * talk to ours.
 */
#ifndef KBINDER_TOOL_SVCMGR_PROTO_H
#define KBINDER_TOOL_SVCMGR_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <kbinder/kbinder.h>

#define SVCMGR_HANDLE		0
#define SVCMGR_INTERFACE	"android.os.IServiceManager"
#define SVCMGR_GET_SERVICE	1
#define SVCMGR_CHECK_SERVICE	2
#define SVCMGR_ADD_SERVICE	3
#define SVCMGR_LIST_SERVICES	4

/* The demo echo service: code 1 answers with the same bytes. */
#define ECHO_INTERFACE		"kbinder.IEcho"
#define ECHO_CODE		1

#define SVC_NAME_MAX		127

/** put_string16() - a UTF-16 string from ASCII/UTF-8 @s (ASCII only). */
int put_string16(struct kbinder_parcel *p, const char *s);
/**
 * get_string16() - read a UTF-16 string into @out as ASCII.
 * Return: 0, -EBADMSG if malformed or not ASCII, -ENAMETOOLONG if it does
 * not fit @size (which includes the NUL).
 */
int get_string16(struct kbinder_parcel_view *v, char *out, size_t size);
/** put_header() - the strict-mode word and the interface token. */
int put_header(struct kbinder_parcel *p, const char *interface);
/** check_header() - read them back; -EBADMSG if the token is not @interface. */
int check_header(struct kbinder_parcel_view *v, const char *interface);

/**
 * view_next_object() - read the object at the cursor, which must be one the
 * driver translated (its offset is in the transaction's offsets array).
 * Return: 0, or -EBADMSG.
 */
int view_next_object(struct kbinder_parcel_view *v, struct flat_binder_object *obj);

#endif
