// SPDX-License-Identifier: Apache-2.0
/*
 * Android's parcel conventions, per API level: strings, the interface
 * token, strong binders with their stability field, the Status header.
 * The facts come from AOSP's libbinder (Parcel, IPCThreadState, Stability,
 * Status) and libgbinder's protocol presets; the code is our own.
 *
 * What changes with the API level:
 *   28     strict-mode word with PENALTY_GATHER = 0x40 << 16, descriptor
 *   29     PENALTY_GATHER = 1 << 31; a work-source uid (-1: unset) follows
 *   30     a 'SYST'/'VNDR' marker before the descriptor; an int32 stability
 *          level after every flat_binder_object of a binder
 *   31-32  the stability is a "category": version 1 in its low byte, the
 *          level in its high byte
 *   33+    back to the plain level
 * A level's quarterly platform releases (35-qpr1 ...) change nothing here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define KBINDER_PENALTY_GATHER_OLD	(0x40u << 16)
#define KBINDER_PENALTY_GATHER		(1u << 31)
#define KBINDER_WORK_SOURCE_UNSET	0xffffffffu
#define KBINDER_CATEGORY_VERSION	1u

/*
 * The releases a wire can name: every level, and the quarterly platform
 * releases of the levels whose service manager interface changed within
 * them (lib/src/servicemanager.c has what changed).
 */
static const struct kbinder_release {
	int api_level;
	uint32_t qpr;
	const char *name;
	const char *android;
} kbinder_releases[] = {
	{ 28, 0, "28", "9" },
	{ 29, 0, "29", "10" },
	{ 30, 0, "30", "11" },
	{ 31, 0, "31", "12" },
	{ 32, 0, "32", "12L" },
	{ 33, 0, "33", "13" },
	{ 34, 0, "34", "14" },
	{ 35, 0, "35", "15" },
	{ 35, 1, "35-qpr1", "15 QPR1" },
	{ 35, 2, "35-qpr2", "15 QPR2" },
	{ 36, 0, "36", "16" },
	{ 36, 1, "36-qpr1", "16 QPR1" },
	{ 36, 2, "36-qpr2", "16 QPR2" },
};

static const struct kbinder_release *kbinder_release_named(const char *name)
{
	for (size_t i = 0; i < KBINDER_ARRAY_SIZE(kbinder_releases); i++)
		if (!strcmp(kbinder_releases[i].name, name))
			return &kbinder_releases[i];
	return NULL;
}

static const struct kbinder_release *kbinder_release_of(const struct kbinder_wire *w)
{
	for (size_t i = 0; i < KBINDER_ARRAY_SIZE(kbinder_releases); i++)
		if (kbinder_releases[i].api_level == w->api_level &&
		    kbinder_releases[i].qpr == w->qpr)
			return &kbinder_releases[i];
	return NULL;
}

/* The release $KBINDER_API_LEVEL names, or the default level's. */
static const struct kbinder_release *kbinder_release_default(void)
{
	const char *s = getenv("KBINDER_API_LEVEL");
	const struct kbinder_release *r = s ? kbinder_release_named(s) : NULL;
	struct kbinder_wire w = { .api_level = KBINDER_API_LEVEL_DEFAULT };

	return r ? r : kbinder_release_of(&w);
}

int kbinder_wire_default_level(void)
{
	return kbinder_release_default()->api_level;
}

static void kbinder_wire_set(struct kbinder_wire *w, const struct kbinder_release *r)
{
	memset(w, 0, sizeof(*w));
	w->api_level = r->api_level;
	w->qpr = r->qpr;
	w->marker = KBINDER_MARKER_SYSTEM;
	w->stability = KBINDER_STABILITY_SYSTEM;
}

int kbinder_wire_init(struct kbinder_wire *w, int api_level)
{
	memset(w, 0, sizeof(*w));
	if (!api_level) {
		kbinder_wire_set(w, kbinder_release_default());
		return 0;
	}
	if (api_level < KBINDER_API_LEVEL_MIN || api_level > KBINDER_API_LEVEL_MAX)
		return -EINVAL;
	w->api_level = api_level;
	kbinder_wire_set(w, kbinder_release_of(w));
	return 0;
}

int kbinder_wire_init_name(struct kbinder_wire *w, const char *name)
{
	const struct kbinder_release *r;

	if (!name || !*name)
		return kbinder_wire_init(w, 0);
	memset(w, 0, sizeof(*w));
	r = kbinder_release_named(name);
	if (!r)
		return -EINVAL;
	kbinder_wire_set(w, r);
	return 0;
}

const char *kbinder_wire_android_version(int api_level)
{
	struct kbinder_wire w = { .api_level = api_level };
	const struct kbinder_release *r = kbinder_release_of(&w);

	return r ? r->android : "?";
}

const char *kbinder_wire_name(const struct kbinder_wire *w)
{
	const struct kbinder_release *r = kbinder_release_of(w);

	return r ? r->name : "?";
}

const char *kbinder_wire_release(const struct kbinder_wire *w)
{
	const struct kbinder_release *r = kbinder_release_of(w);

	return r ? r->android : "?";
}

/* ------------------------------------------------------------ cursor */

/* The next @n bytes at the cursor, or NULL if they are not all there. */
static const uint8_t *kbinder_view_peek(const struct kbinder_view *v,
					size_t n)
{
	if (v->pos > v->size || n > v->size - v->pos)
		return NULL;
	return v->data + v->pos;
}

/* Advance past @n bytes padded to 4; the bytes must be there. */
static int kbinder_view_skip(struct kbinder_view *v, size_t n)
{
	size_t padded;

	if (n > SIZE_MAX - 3)
		return -EBADMSG;
	padded = kbinder_align4(n);
	if (!kbinder_view_peek(v, padded))
		return -EBADMSG;
	v->pos += padded;
	return 0;
}

static int kbinder_view_i32(struct kbinder_view *v, int32_t *out)
{
	uint32_t u;

	if (kbinder_view_read_u32(v, &u))
		return -EBADMSG;
	*out = (int32_t)u;
	return 0;
}

/* ------------------------------------------------------------ UTF-8/16 */

/* Decode one UTF-8 sequence at @s; 0 at the end, -1 if invalid. */
static int kbinder_utf8_next(const unsigned char **s, uint32_t *cp)
{
	const unsigned char *p = *s;
	uint32_t c = p[0], min;
	int n, i;

	if (c < 0x80) {
		n = 0;
		min = 0;
	} else if ((c & 0xe0) == 0xc0) {
		n = 1;
		c &= 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		c &= 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		c &= 0x07;
		min = 0x10000;
	} else {
		return -1;
	}
	for (i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*cp = c;
	*s = p + n + 1;
	return 1;
}

/* UTF-16 units of @s (without a terminator), or -1 if @s is not UTF-8. */
static long kbinder_utf16_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	long n = 0;

	while (*p) {
		if (kbinder_utf8_next(&p, &cp) < 0)
			return -1;
		n += cp >= 0x10000 ? 2 : 1;
		if (n > INT32_MAX - 2)
			return -1;
	}
	return n;
}

/* Append code point @cp as UTF-8 to @out at *@len; -ENOBUFS if no room. */
static int kbinder_utf8_put(char *out, size_t size, size_t *len, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (n >= size - *len)
		return -ENOBUFS;
	memcpy(out + *len, b, n);
	*len += n;
	return 0;
}

/* ------------------------------------------------------------ strings */

int kbinder_parcel_write_string16(struct kbinder_parcel *p, const char *s)
{
	const unsigned char *q;
	uint16_t *units;
	long n;
	size_t i = 0;
	uint32_t cp;
	int err;

	if (!s)
		return kbinder_parcel_write_u32(p, 0xffffffffu);
	n = kbinder_utf16_len(s);
	if (n < 0)
		return -EINVAL;
	units = malloc(((size_t)n + 1) * sizeof(*units));
	if (!units)
		return p->err = -ENOMEM;
	for (q = (const unsigned char *)s; *q;) {
		kbinder_utf8_next(&q, &cp);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			units[i++] = (uint16_t)(0xd800 | cp >> 10);
			units[i++] = (uint16_t)(0xdc00 | (cp & 0x3ff));
		} else {
			units[i++] = (uint16_t)cp;
		}
	}
	units[i] = 0;
	kbinder_parcel_write_u32(p, (uint32_t)n);
	err = kbinder_parcel_write(p, units, ((size_t)n + 1) * sizeof(*units));
	free(units);
	return err;
}

int kbinder_parcel_write_string8(struct kbinder_parcel *p, const char *s)
{
	size_t n;

	if (!s)
		return kbinder_parcel_write_u32(p, 0xffffffffu);
	n = strlen(s);
	if (n > INT32_MAX - 1)
		return -EINVAL;
	kbinder_parcel_write_u32(p, (uint32_t)n);
	return kbinder_parcel_write(p, s, n + 1);
}

/*
 * Read the length word of a string of @unit-byte units; the units and the
 * terminating unit must all be in the data. Sets *@body to them.
 * Return: 0, KBINDER_NULL, -EBADMSG.
 */
static int kbinder_view_string_body(struct kbinder_view *v,
				    size_t unit, const uint8_t **body,
				    size_t *n)
{
	int32_t len;

	if (kbinder_view_i32(v, &len))
		return -EBADMSG;
	if (len == -1)
		return KBINDER_NULL;
	if (len < 0 || (size_t)len >= SIZE_MAX / unit - 4)
		return -EBADMSG;
	*body = kbinder_view_peek(v, ((size_t)len + 1) * unit);
	if (!*body)
		return -EBADMSG;
	*n = (size_t)len;
	return 0;
}

/* The @n UTF-16 units at @body (then a 0 unit) as UTF-8 into @out. */
static int kbinder_decode16(const uint8_t *body, size_t n, char *out, size_t size)
{
	size_t len = 0;
	uint16_t u, u2;
	uint32_t cp;
	int err;

	memcpy(&u, body + n * 2, 2);
	if (u != 0)
		return -EBADMSG;
	for (size_t i = 0; i < n; i++) {
		memcpy(&u, body + i * 2, 2);
		if (u == 0 || (u >= 0xdc00 && u <= 0xdfff))
			return -EBADMSG;
		cp = u;
		if (u >= 0xd800 && u <= 0xdbff) {
			if (i + 1 >= n)
				return -EBADMSG;
			memcpy(&u2, body + (i + 1) * 2, 2);
			if (u2 < 0xdc00 || u2 > 0xdfff)
				return -EBADMSG;
			cp = 0x10000 + ((uint32_t)(u - 0xd800) << 10) + (u2 - 0xdc00);
			i++;
		}
		err = kbinder_utf8_put(out, size, &len, cp);
		if (err)
			return err;
	}
	out[len] = '\0';
	return 0;
}

/* The @n bytes at @body (then a NUL, none inside) into @out. */
static int kbinder_decode8(const uint8_t *body, size_t n, char *out, size_t size)
{
	if (body[n] != 0 || memchr(body, 0, n))
		return -EBADMSG;
	if (n >= size)
		return -ENOBUFS;
	memcpy(out, body, n + 1);
	return 0;
}

/*
 * A string of @unit-byte units at the cursor, decoded into @out; the
 * cursor stays put on an error. Return: 0, KBINDER_NULL, -EBADMSG, -ENOBUFS.
 */
static int kbinder_view_read_string(struct kbinder_view *v, size_t unit,
				    int (*decode)(const uint8_t *body, size_t n,
						  char *out, size_t size),
				    char *out, size_t size)
{
	size_t save = v->pos, n;
	const uint8_t *body;
	int err;

	if (!size)
		return -ENOBUFS;
	out[0] = '\0';
	err = kbinder_view_string_body(v, unit, &body, &n);
	if (!err)
		err = decode(body, n, out, size);
	if (!err)
		err = kbinder_view_skip(v, (n + 1) * unit);
	if (err < 0) {
		v->pos = save;
		out[0] = '\0';
	}
	return err;
}

int kbinder_view_read_string16(struct kbinder_view *v, char *out, size_t size)
{
	return kbinder_view_read_string(v, 2, kbinder_decode16, out, size);
}

/* Step over a String16 without decoding it (its length must fit). */
static int kbinder_view_skip_string16(struct kbinder_view *v)
{
	size_t save = v->pos, n;
	const uint8_t *body;
	int err;

	err = kbinder_view_string_body(v, 2, &body, &n);
	if (!err)
		err = kbinder_view_skip(v, (n + 1) * 2);
	if (err < 0)
		v->pos = save;
	return err;
}

int kbinder_view_read_string8(struct kbinder_view *v, char *out, size_t size)
{
	return kbinder_view_read_string(v, 1, kbinder_decode8, out, size);
}

/* ------------------------------------------------------------ token */

int kbinder_parcel_write_token(struct kbinder_parcel *p,
			       const struct kbinder_wire *w,
			       const char *descriptor)
{
	kbinder_parcel_write_u32(p, w->api_level >= 29 ? KBINDER_PENALTY_GATHER :
				 KBINDER_PENALTY_GATHER_OLD);
	if (w->api_level >= 29)
		kbinder_parcel_write_u32(p, KBINDER_WORK_SOURCE_UNSET);
	if (w->api_level >= 30)
		kbinder_parcel_write_u32(p, w->marker);
	return kbinder_parcel_write_string16(p, descriptor);
}

int kbinder_view_read_token(struct kbinder_view *v,
			    const struct kbinder_wire *w, char *out,
			    size_t size)
{
	size_t save = v->pos;
	uint32_t policy, work_source, marker;
	int err = -EBADMSG;

	if (kbinder_view_read_u32(v, &policy))
		goto fail;
	if (w->api_level >= 29 && kbinder_view_read_u32(v, &work_source))
		goto fail;
	if (w->api_level >= 30 &&
	    (kbinder_view_read_u32(v, &marker) || marker != w->marker))
		goto fail;
	err = kbinder_view_read_string16(v, out, size);
	if (err == KBINDER_NULL)
		err = -EBADMSG;
	if (!err)
		return 0;
fail:
	v->pos = save;
	return err;
}

int kbinder_view_check_token(struct kbinder_view *v,
			     const struct kbinder_wire *w,
			     const char *descriptor)
{
	char token[256];
	int err;

	err = kbinder_view_read_token(v, w, token, sizeof(token));
	if (err == -ENOBUFS)
		return -EPERM;	/* longer than any descriptor we compare to */
	if (err)
		return err;
	return strcmp(token, descriptor) ? -EPERM : 0;
}

/* ------------------------------------------------------------ binders */

static bool kbinder_stability_level_ok(uint32_t level)
{
	return level == KBINDER_STABILITY_UNDECLARED ||
	       level == KBINDER_STABILITY_VENDOR ||
	       level == KBINDER_STABILITY_SYSTEM ||
	       level == KBINDER_STABILITY_VINTF;
}

static bool kbinder_wire_category(const struct kbinder_wire *w)
{
	return w->api_level == 31 || w->api_level == 32;
}

static int kbinder_parcel_write_stability(struct kbinder_parcel *p,
					  const struct kbinder_wire *w,
					  uint32_t level)
{
	if (w->api_level < 30)
		return p->err;
	if (kbinder_wire_category(w))
		return kbinder_parcel_write_u32(p, KBINDER_CATEGORY_VERSION |
						(level & 0xff) << 24);
	return kbinder_parcel_write_u32(p, level);
}

/* Decode a stability field; -EBADMSG if it is not one @w writes. */
static int kbinder_stability_decode(const struct kbinder_wire *w,
				    uint32_t repr, uint32_t *level)
{
	if (kbinder_wire_category(w)) {
		if ((repr & 0xff) != KBINDER_CATEGORY_VERSION ||
		    (repr & 0x00ffff00))
			return -EBADMSG;
		repr >>= 24;
	}
	if (!kbinder_stability_level_ok(repr))
		return -EBADMSG;
	*level = repr;
	return 0;
}

int kbinder_parcel_write_android_object(struct kbinder_parcel *p,
					const struct kbinder_wire *w,
					const struct flat_binder_object *obj,
					uint32_t stability)
{
	struct flat_binder_object null;

	if (!obj) {
		/* The null binder: bytes only, not in the offsets array. */
		memset(&null, 0, sizeof(null));
		null.hdr.type = BINDER_TYPE_BINDER;
		kbinder_parcel_write(p, &null, sizeof(null));
		return kbinder_parcel_write_stability(p, w,
						      KBINDER_STABILITY_UNDECLARED);
	}
	kbinder_parcel_write_object(p, obj, sizeof(*obj));
	return kbinder_parcel_write_stability(p, w, stability);
}

void kbinder_android_object(struct flat_binder_object *obj, uint32_t type,
			    binder_uintptr_t ptr_or_handle, binder_uintptr_t cookie)
{
	memset(obj, 0, sizeof(*obj));
	obj->hdr.type = type;
	obj->flags = KBINDER_OBJECT_FLAGS;
	if (type == BINDER_TYPE_HANDLE) {
		obj->handle = (uint32_t)ptr_or_handle;
	} else {
		obj->binder = ptr_or_handle;
		obj->cookie = cookie;
	}
}

int kbinder_parcel_write_strong_binder(struct kbinder_parcel *p,
				       const struct kbinder_wire *w,
				       binder_uintptr_t ptr,
				       binder_uintptr_t cookie)
{
	struct flat_binder_object obj;

	if (!ptr)
		return kbinder_parcel_write_android_object(p, w, NULL, 0);
	kbinder_android_object(&obj, BINDER_TYPE_BINDER, ptr, cookie);
	return kbinder_parcel_write_android_object(p, w, &obj, w->stability);
}

int kbinder_parcel_write_strong_handle(struct kbinder_parcel *p,
				       const struct kbinder_wire *w,
				       uint32_t handle, uint32_t stability)
{
	struct flat_binder_object obj;

	kbinder_android_object(&obj, BINDER_TYPE_HANDLE, handle, 0);
	return kbinder_parcel_write_android_object(p, w, &obj, stability);
}

/* Is there an object offset at the cursor? */
static bool kbinder_view_at_object(const struct kbinder_view *v)
{
	binder_size_t off;

	for (size_t i = 0; i < v->n_offsets; i++) {
		memcpy(&off, &v->offsets[i], sizeof(off));
		if (off == v->pos)
			return true;
	}
	return false;
}

int kbinder_view_read_strong_binder(struct kbinder_view *v,
				    const struct kbinder_wire *w,
				    struct flat_binder_object *out,
				    uint32_t *stability)
{
	size_t save = v->pos;
	uint32_t repr, level = 0;
	bool is_null;
	const uint8_t *at;

	at = kbinder_view_peek(v, sizeof(*out));
	if (!at)
		return -EBADMSG;
	memcpy(out, at, sizeof(*out));
	if (kbinder_view_at_object(v)) {
		if (out->hdr.type != BINDER_TYPE_BINDER &&
		    out->hdr.type != BINDER_TYPE_HANDLE)
			return -EBADMSG;
		is_null = false;
	} else {
		/*
		 * Bytes that are no object may only be the null binder, or
		 * handle 0, the context manager, which needs no translation:
		 * libbinder records an object's offset only when its
		 * binder/handle word is nonzero, so it sends handle 0 as bytes.
		 */
		if ((out->hdr.type != BINDER_TYPE_BINDER &&
		     out->hdr.type != BINDER_TYPE_HANDLE) || out->binder ||
		    out->cookie)
			return -EBADMSG;
		is_null = out->hdr.type == BINDER_TYPE_BINDER;
	}
	v->pos += sizeof(*out);
	if (w->api_level >= 30) {
		if (kbinder_view_read_u32(v, &repr) ||
		    kbinder_stability_decode(w, repr, &level)) {
			v->pos = save;
			return -EBADMSG;
		}
	}
	if (stability)
		*stability = level;
	return is_null ? KBINDER_NULL : 0;
}

int kbinder_view_read_fd(struct kbinder_view *v)
{
	struct flat_binder_object obj;
	const uint8_t *at = kbinder_view_peek(v, sizeof(obj));

	if (!at || !kbinder_view_at_object(v))
		return -EBADMSG;
	memcpy(&obj, at, sizeof(obj));
	if (obj.hdr.type != BINDER_TYPE_FD || obj.handle > INT32_MAX)
		return -EBADMSG;
	v->pos += sizeof(obj);
	return (int)obj.handle;
}

/* ------------------------------------------------------------ parcelables */

size_t kbinder_parcel_begin_parcelable(struct kbinder_parcel *p)
{
	size_t at;

	kbinder_parcel_write_u32(p, 1);
	at = p->size;
	kbinder_parcel_write_u32(p, 0);
	return at;
}

int kbinder_parcel_end_parcelable(struct kbinder_parcel *p, size_t at)
{
	uint32_t size;

	if (p->err)
		return p->err;
	if (at > p->size || p->size - at < 4 || p->size - at > INT32_MAX)
		return p->err = -EINVAL;
	size = (uint32_t)(p->size - at);
	memcpy(p->data + at, &size, sizeof(size));
	return 0;
}

int kbinder_view_begin_parcelable(struct kbinder_view *v, size_t *end)
{
	size_t save = v->pos, start;
	int32_t present, size;

	if (kbinder_view_i32(v, &present))
		return -EBADMSG;
	if (present == 0)
		return KBINDER_NULL;
	start = v->pos;
	if (present != 1 || kbinder_view_i32(v, &size) || size < 4 ||
	    (size_t)size > v->size - start) {
		v->pos = save;
		return -EBADMSG;
	}
	*end = start + (size_t)size;
	return 0;
}

int kbinder_view_end_parcelable(struct kbinder_view *v, size_t end)
{
	if (v->pos > end || end > v->size)
		return -EBADMSG;
	v->pos = end;
	return 0;
}

/* ------------------------------------------------------------ status */

int kbinder_parcel_write_status(struct kbinder_parcel *p, int32_t exception,
				const char *message, int32_t code)
{
	kbinder_parcel_write_u32(p, (uint32_t)exception);
	if (exception == KBINDER_EX_NONE)
		return p->err;
	kbinder_parcel_write_string16(p, message);
	kbinder_parcel_write_u32(p, 0);	/* no remote stack trace */
	if (exception == KBINDER_EX_SERVICE_SPECIFIC)
		kbinder_parcel_write_u32(p, (uint32_t)code);
	return p->err;
}

/* Skip a size-prefixed block whose size word counts itself. */
static int kbinder_view_skip_sized(struct kbinder_view *v)
{
	int32_t size;

	if (kbinder_view_i32(v, &size) || size < 4)
		return -EBADMSG;
	return kbinder_view_skip(v, (size_t)size - 4);
}

int kbinder_view_read_status(struct kbinder_view *v, int32_t *exception,
			     int32_t *code, char *message, size_t size)
{
	size_t save = v->pos;
	char scratch[128];
	int32_t ex, trace;
	int err = -EBADMSG;

	*code = 0;
	if (message && size)
		message[0] = '\0';
	if (kbinder_view_i32(v, &ex))
		goto fail;
	if (ex == KBINDER_EX_HAS_REPLY_HEADER) {
		if (kbinder_view_skip_sized(v))
			goto fail;
		ex = KBINDER_EX_NONE;
	}
	*exception = ex;
	if (ex == KBINDER_EX_NONE)
		return 0;
	if (!message || !size) {
		message = scratch;
		size = sizeof(scratch);
	}
	err = kbinder_view_read_string16(v, message, size);
	if (err == -ENOBUFS)
		err = kbinder_view_skip_string16(v);	/* too long: dropped */
	if (err < 0)
		goto fail;
	err = -EBADMSG;
	/* Writers before the remote stack trace simply end here. */
	if (v->pos == v->size && ex != KBINDER_EX_SERVICE_SPECIFIC)
		return 0;
	if (kbinder_view_i32(v, &trace) || trace < 0 ||
	    kbinder_view_skip(v, (size_t)trace))
		goto fail;
	if (ex == KBINDER_EX_SERVICE_SPECIFIC && kbinder_view_i32(v, code))
		goto fail;
	if (ex == KBINDER_EX_PARCELABLE && kbinder_view_skip_sized(v))
		goto fail;
	return 0;
fail:
	v->pos = save;
	return -EBADMSG;
}

int kbinder_status_errno(int32_t exception)
{
	switch (exception) {
	case KBINDER_EX_NONE:
		return 0;
	case KBINDER_EX_SECURITY:
		return -EPERM;
	case KBINDER_EX_ILLEGAL_ARGUMENT:
		return -EINVAL;
	case KBINDER_EX_NULL_POINTER:
		return -EFAULT;
	case KBINDER_EX_ILLEGAL_STATE:
		return -EBUSY;
	case KBINDER_EX_UNSUPPORTED_OPERATION:
		return -EOPNOTSUPP;
	default:
		return -EREMOTEIO;
	}
}
