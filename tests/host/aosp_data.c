// SPDX-License-Identifier: Apache-2.0
/*
 * Reading tests/host/data/aosp/servicemanager.tab, and laying values out
 * (and reading them back) by its rules: see aosp_data.h, and the table's
 * own header for the rules.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aosp_data.h"

struct aosp_line aosp_lines[AOSP_MAX_LINES];
int aosp_n_lines;
char aosp_cols[AOSP_MAX_COLS][AOSP_WORD_LEN];
int aosp_n_cols;
static int failures;

/* ------------------------------------------------------------ the table */

int aosp_load(const char *path)
{
	char buf[1024];
	FILE *f = fopen(path, "r");
	int lineno = 0, err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(buf, sizeof(buf), f)) {
		struct aosp_line *l = &aosp_lines[aosp_n_lines];
		char *save, *tok, *hash = strchr(buf, '#');

		lineno++;
		if (hash)
			*hash = '\0';
		memset(l, 0, sizeof(*l));
		for (tok = strtok_r(buf, " \t\r\n", &save); tok && !err;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (l->n == AOSP_MAX_WORDS || strlen(tok) >= AOSP_WORD_LEN)
				err = -E2BIG;
			else
				snprintf(l->w[l->n++], AOSP_WORD_LEN, "%s", tok);
		}
		if (err || !l->n)
			continue;
		l->lineno = lineno;
		if (!strcmp(l->w[0], "columns"))
			for (int i = 1; i < l->n && aosp_n_cols < AOSP_MAX_COLS; i++)
				snprintf(aosp_cols[aosp_n_cols++], AOSP_WORD_LEN, "%s", l->w[i]);
		if (++aosp_n_lines == AOSP_MAX_LINES)
			err = -E2BIG;
	}
	fclose(f);
	return err;
}

bool aosp_load_args(const char *suite, int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : AOSP_DATA_DEFAULT;
	int err = aosp_load(path);

	if (err)
		printf("FAIL %s/data/load: %s: %s\n", suite, path, strerror(-err));
	return !err;
}

int aosp_col(const char *key)
{
	for (int i = 0; i < aosp_n_cols; i++)
		if (!strcmp(aosp_cols[i], key))
			return i;
	return -1;
}

int aosp_in_range(const char *range, int col)
{
	char first[AOSP_WORD_LEN];
	const char *dots = strstr(range, "..");
	int a, b;

	if (!dots)
		return aosp_col(range) < 0 ? -1 : aosp_col(range) == col;
	snprintf(first, sizeof(first), "%.*s", (int)(dots - range), range);
	a = aosp_col(first);
	b = aosp_col(dots + 2);
	if (a < 0 || b < a)
		return -1;
	return col >= a && col <= b;
}

const struct aosp_line *aosp_find(const char *kind, const char *const *keys,
				  int nkeys, int col)
{
	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		int k;

		if (strcmp(l->w[0], kind) || l->n < nkeys + 2)
			continue;
		for (k = 0; k < nkeys; k++)
			if (strcmp(l->w[k + 1], keys[k]))
				break;
		if (k == nkeys && aosp_in_range(l->w[l->n - 1], col) == 1)
			return l;
	}
	return NULL;
}

int aosp_code(const struct aosp_line *l, int col)
{
	const char *cell = l->w[3 + col];

	return strcmp(cell, "-") ? atoi(cell) : 0;
}

/* The first line of @kind for release @key with @n words. */
static const struct aosp_line *line_of(const char *kind, const char *key, int n)
{
	for (int i = 0; i < aosp_n_lines; i++)
		if (!strcmp(aosp_lines[i].w[0], kind) && aosp_lines[i].n == n &&
		    !strcmp(aosp_lines[i].w[1], key))
			return &aosp_lines[i];
	return NULL;
}

bool aosp_release(int col, struct aosp_release *r)
{
	const struct aosp_line *rel = line_of("release", aosp_cols[col], 4);

	memset(r, 0, sizeof(*r));
	r->key = aosp_cols[col];
	r->col = col;
	if (!rel)
		return false;
	r->sdk = atoi(rel->w[2]);
	r->level = rel->w[3];
	r->source = line_of("source", r->key, 5);
	return r->source != NULL;
}

const char *aosp_blob(const struct aosp_release *r, const char *file)
{
	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		const char *slash = strrchr(l->w[2], '/');

		if (!strcmp(l->w[0], "blob") && l->n == 4 && !strcmp(l->w[1], r->key) &&
		    !strcmp(slash ? slash + 1 : l->w[2], file))
			return l->w[3];
	}
	return NULL;
}

const char *aosp_where(const struct aosp_release *r, const char *file)
{
	static char buf[256];
	const char *blob = aosp_blob(r, file);

	snprintf(buf, sizeof(buf), "%s, %s %.8s", r->source ? r->source->w[3] : "?",
		 file, blob ? blob : "?");
	return buf;
}

const char *aosp_sm_file(const struct aosp_release *r)
{
	return aosp_blob(r, "IServiceManager.aidl") ? "IServiceManager.aidl" :
	       "IServiceManager.h";
}

int aosp_method(const char *name)
{
	for (int m = 0; m < KBINDER_SM_METHODS; m++)
		if (!strcmp(kbinder_sm_method_name(m), name))
			return m;
	return -1;
}

const char *aosp_kind(const char *type, int col)
{
	const char *keys[] = { type };
	const struct aosp_line *l = aosp_find("kind", keys, 1, col);

	return l ? l->w[2] : NULL;
}

const struct aosp_line *aosp_field(const char *type, int n, int col)
{
	char num[16];
	const char *keys[] = { type, num };

	snprintf(num, sizeof(num), "%d", n);
	return aosp_find("field", keys, 2, col);
}

int aosp_split(const char *cell, char out[][AOSP_WORD_LEN], int max)
{
	const char *p = cell;
	int n = 0;

	if (!strcmp(cell, "-"))
		return 0;
	while (*p && n < max) {
		size_t len = strcspn(p, ",");

		snprintf(out[n++], AOSP_WORD_LEN, "%.*s", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

/* ------------------------------------------------------------ values */

/* @type without its '?' into @base; whether it had one. */
static bool base_type(const char *type, char *base)
{
	size_t len = strlen(type);
	bool nullable = len && type[len - 1] == '?';

	snprintf(base, AOSP_WORD_LEN, "%.*s", (int)(nullable ? len - 1 : len), type);
	return nullable;
}

/* IBinder, or an interface (IServiceCallback): a binder on the wire. */
static bool is_binder(const char *base)
{
	return base[0] == 'I' && isupper((unsigned char)base[1]);
}

int aosp_encode(struct kbinder_parcel *p, const struct kbinder_wire *w,
		const char *type, int col, const struct aosp_sample *v)
{
	char base[AOSP_WORD_LEN];
	const char *kind;

	base_type(type, base);
	if (is_binder(base))
		return v->handle ? kbinder_parcel_write_strong_handle(p, w, v->handle,
								      KBINDER_STABILITY_SYSTEM) :
				   kbinder_parcel_write_strong_binder(p, w, 0, 0);
	if (!strcmp(base, "boolean"))
		return kbinder_parcel_write_u32(p, v->flag);
	if (!strcmp(base, "int"))
		return kbinder_parcel_write_u32(p, (uint32_t)v->num);
	if (!strcmp(base, "String"))
		return kbinder_parcel_write_string16(p, v->str ? v->str : AOSP_SAMPLE_STRING);
	kind = aosp_kind(base, col);
	if (kind && !strcmp(kind, "union")) {
		const struct aosp_line *m = aosp_field(base, (int)v->tag, col);

		if (!m)
			return -EINVAL;
		kbinder_parcel_write_u32(p, 1);
		kbinder_parcel_write_u32(p, v->tag);
		return aosp_encode(p, w, m->w[4], col, v);
	}
	if (kind && !strcmp(kind, "parcelable")) {
		size_t at = kbinder_parcel_begin_parcelable(p);
		const struct aosp_line *f;

		for (int n = 0; (f = aosp_field(base, n, col)); n++)
			if (aosp_encode(p, w, f->w[4], col, v))
				return -EINVAL;
		return kbinder_parcel_end_parcelable(p, at);
	}
	return -EINVAL;
}

/* Where aosp_decode() puts the first binder and string it meets. */
struct decode_out {
	uint32_t *binder;
	char *str;
	size_t str_size;
	bool got_binder, got_str;
};

static int decode(struct kbinder_view *v, const struct kbinder_wire *w,
		  const char *type, int col, struct decode_out *o)
{
	char base[AOSP_WORD_LEN], s[512];
	bool nullable = base_type(type, base);
	size_t len = strlen(base), end;
	const char *kind;
	uint32_t u, count;
	int err;

	if (!strcmp(base, "void"))
		return 0;
	if (len > 2 && !strcmp(base + len - 2, "[]")) {
		base[len - 2] = '\0';
		if (kbinder_view_read_u32(v, &count) || count > 4096)
			return -EBADMSG;
		for (uint32_t i = 0; i < count; i++)
			if (decode(v, w, base, col, o))
				return -EBADMSG;
		return 0;
	}
	if (is_binder(base)) {
		struct flat_binder_object obj;

		err = kbinder_view_read_strong_binder(v, w, &obj, NULL);
		if (err < 0 || (err == KBINDER_NULL && !nullable))
			return -EBADMSG;
		if (o->binder && !o->got_binder)
			*o->binder = err == KBINDER_NULL ? 0 : obj.handle;
		o->got_binder = true;
		return 0;
	}
	if (!strcmp(base, "boolean"))
		return kbinder_view_read_u32(v, &u) || u > 1 ? -EBADMSG : 0;
	if (!strcmp(base, "int"))
		return kbinder_view_read_u32(v, &u) ? -EBADMSG : 0;
	if (!strcmp(base, "String")) {
		err = kbinder_view_read_string16(v, s, sizeof(s));
		if (err < 0 || (err == KBINDER_NULL && !nullable))
			return -EBADMSG;
		if (o->str && !o->got_str)
			snprintf(o->str, o->str_size, "%s", s);
		o->got_str = true;
		return 0;
	}
	kind = aosp_kind(base, col);
	if (!kind)
		return -EBADMSG;
	if (!strcmp(kind, "union")) {
		const struct aosp_line *m;

		if (kbinder_view_read_u32(v, &u) || u != 1 ||
		    kbinder_view_read_u32(v, &u))
			return -EBADMSG;
		m = aosp_field(base, (int)u, col);
		return m ? decode(v, w, m->w[4], col, o) : -EBADMSG;
	}
	err = kbinder_view_begin_parcelable(v, &end);
	if (err == KBINDER_NULL)
		return nullable ? 0 : -EBADMSG;
	if (err)
		return -EBADMSG;
	for (int n = 0; aosp_field(base, n, col); n++)
		if (decode(v, w, aosp_field(base, n, col)->w[4], col, o))
			return -EBADMSG;
	/* AOSP writes exactly its fields: the size must say so. */
	return v->pos == end ? 0 : -EBADMSG;
}

int aosp_decode(struct kbinder_view *v, const struct kbinder_wire *w,
		const char *type, int col, uint32_t *binder, char *str,
		size_t str_size)
{
	struct decode_out o = { binder, str, str_size, false, false };

	if (binder)
		*binder = 0;
	if (str && str_size)
		str[0] = '\0';
	return decode(v, w, type, col, &o);
}

void aosp_view_of(struct kbinder_parcel *p, struct kbinder_view *v)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(p, &tr);
	kbinder_view_init(v, &tr);
}

bool aosp_same_parcel(const struct kbinder_parcel *a, const struct kbinder_parcel *b)
{
	return a->size == b->size && a->n_offsets == b->n_offsets &&
	       (!a->size || !memcmp(a->data, b->data, a->size)) &&
	       (!a->n_offsets ||
		!memcmp(a->offsets, b->offsets, a->n_offsets * sizeof(a->offsets[0])));
}

/* ------------------------------------------------------------ checks */

void aosp_fail(struct aosp_check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->n < AOSP_CHECK_REASONS) {
		va_start(ap, fmt);
		vsnprintf(c->why[c->n], sizeof(c->why[0]), fmt, ap);
		va_end(ap);
	}
	c->n++;
}

void aosp_report(const char *suite, const char *release, const char *name,
		 const struct aosp_check *c)
{
	if (!c->n) {
		printf("PASS %s/%s/%s\n", suite, release, name);
		return;
	}
	failures++;
	printf("FAIL %s/%s/%s: %s\n", suite, release, name, c->why[0]);
	for (int i = 1; i < c->n && i < AOSP_CHECK_REASONS; i++)
		printf("  also: %s\n", c->why[i]);
	if (c->n > AOSP_CHECK_REASONS)
		printf("  and %d more\n", c->n - AOSP_CHECK_REASONS);
}

int aosp_failures(void)
{
	return failures;
}
