// SPDX-License-Identifier: Apache-2.0
/*
 * Encoding and decoding of the service manager protocol's strings and
 * headers. Strings are UTF-16: a 32-bit length in code units, the units,
 * a NUL unit, padded to 4 bytes. Names here are ASCII.
 */
#include <errno.h>
#include <string.h>

#include "svcmgr_proto.h"

int put_string16(struct kbinder_parcel *p, const char *s)
{
	size_t n = strlen(s), i;
	uint16_t units[SVC_NAME_MAX + 1];

	if (n > SVC_NAME_MAX)
		return -ENAMETOOLONG;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] > 0x7f)
			return -EINVAL;
		units[i] = (unsigned char)s[i];
	}
	units[n] = 0;
	kbinder_parcel_write_u32(p, (uint32_t)n);
	return kbinder_parcel_write(p, units, (n + 1) * sizeof(uint16_t));
}

int get_string16(struct kbinder_parcel_view *v, char *out, size_t size)
{
	uint16_t units[SVC_NAME_MAX + 1];
	uint32_t n, i;
	int err;

	err = kbinder_view_read_u32(v, &n);
	if (err)
		return -EBADMSG;
	if (n >= size || n > SVC_NAME_MAX)
		return -ENAMETOOLONG;
	err = kbinder_view_read(v, units, (n + 1) * sizeof(uint16_t));
	if (err || units[n] != 0)
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		if (units[i] == 0 || units[i] > 0x7f)
			return -EBADMSG;
		out[i] = (char)units[i];
	}
	out[n] = '\0';
	return 0;
}

int put_header(struct kbinder_parcel *p, const char *interface)
{
	kbinder_parcel_write_u32(p, 0);	/* strict-mode policy */
	return put_string16(p, interface);
}

int check_header(struct kbinder_parcel_view *v, const char *interface)
{
	char token[SVC_NAME_MAX + 1];
	uint32_t policy;

	if (kbinder_view_read_u32(v, &policy))
		return -EBADMSG;
	if (get_string16(v, token, sizeof(token)))
		return -EBADMSG;
	return strcmp(token, interface) ? -EBADMSG : 0;
}

int view_next_object(struct kbinder_parcel_view *v, struct flat_binder_object *obj)
{
	for (size_t i = 0; i < v->n_offsets; i++) {
		if (v->offsets[i] != v->pos)
			continue;
		if (kbinder_view_object(v, i, obj))
			return -EBADMSG;
		v->pos += sizeof(*obj);
		return 0;
	}
	return -EBADMSG;
}
