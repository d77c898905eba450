/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AOSP facts of tests/host/data/aosp/servicemanager.tab, for the host
 * tests that hold libkbinder and kbinder's service manager against them:
 * the table read into lines, the releases it describes, values laid out
 * and read back as AOSP does from the table's types alone, and the
 * PASS/FAIL lines of the checks.
 */
#ifndef KBINDER_AOSP_DATA_H
#define KBINDER_AOSP_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kbinder/servicemanager.h>

#define AOSP_DATA_DEFAULT	"tests/host/data/aosp/servicemanager.tab"
#define AOSP_MAX_WORDS		20
#define AOSP_MAX_LINES		512
#define AOSP_MAX_COLS		20
#define AOSP_WORD_LEN		96

/* One line of the data: its words, and where it was. */
struct aosp_line {
	char w[AOSP_MAX_WORDS][AOSP_WORD_LEN];
	int n;
	int lineno;
};

extern struct aosp_line aosp_lines[AOSP_MAX_LINES];
extern int aosp_n_lines;
extern char aosp_cols[AOSP_MAX_COLS][AOSP_WORD_LEN];
extern int aosp_n_cols;

/** aosp_load() - read the table at @path. 0 or -errno. */
int aosp_load(const char *path);
/**
 * aosp_load_args() - a check program's start: load the table its first
 * argument names (AOSP_DATA_DEFAULT without one); on failure print
 * "FAIL @suite/data/load: ..." and return false.
 */
bool aosp_load_args(const char *suite, int argc, char **argv);
/** aosp_col() - the column of release @key, or -1. */
int aosp_col(const char *key);
/** aosp_in_range() - does RANGE ("A..B" or "A") hold @col? -1: malformed. */
int aosp_in_range(const char *range, int col);
/**
 * aosp_find() - the first line of @kind whose words 1..@nkeys are @keys
 * and whose last word, a range, holds @col; NULL if none.
 */
const struct aosp_line *aosp_find(const char *kind, const char *const *keys,
				  int nkeys, int col);
/** aosp_code() - a code row's cell at @col (0: '-'). */
int aosp_code(const struct aosp_line *l, int col);

/**
 * struct aosp_release - one column: a release and where its facts are from.
 * @key:    its name in the table ("15-QPR1")
 * @col:    its column
 * @sdk:    its SDK level
 * @level:  kbinder's --api-level name for it
 * @source: its first source line
 */
struct aosp_release {
	const char *key;
	int col;
	int sdk;
	const char *level;
	const struct aosp_line *source;
};

/** aosp_release() - the release of column @col; false if its lines are missing. */
bool aosp_release(int col, struct aosp_release *r);
/** aosp_blob() - the blob id of @file (a base name) at @r, or NULL. */
const char *aosp_blob(const struct aosp_release *r, const char *file);
/** aosp_where() - "android-13.0.0_r1, IServiceManager.aidl 5880c0a1" (static). */
const char *aosp_where(const struct aosp_release *r, const char *file);
/** aosp_sm_file() - the file @r's IServiceManager facts are from. */
const char *aosp_sm_file(const struct aosp_release *r);
/** aosp_method() - libkbinder's method named @name, or -1. */
int aosp_method(const char *name);
/** aosp_kind() - "parcelable", "union" or NULL: what @type is at @col. */
const char *aosp_kind(const char *type, int col);
/** aosp_field() - the field (or member) line @n of @type at @col, or NULL. */
const struct aosp_line *aosp_field(const char *type, int n, int col);
/**
 * aosp_split() - the comma-separated types of an args cell into @out
 * (at most @max; "-" is none). Return: how many.
 */
int aosp_split(const char *cell, char out[][AOSP_WORD_LEN], int max);

/* ------------------------------------------------------------ values */

/**
 * struct aosp_sample - the values aosp_encode() writes.
 * @handle: an IBinder: this remote object, or 0 the null binder
 * @tag:    a union's member
 * @flag:   a boolean
 * @num:    an int
 * @str:    a String (NULL: "kbinder.sample")
 */
struct aosp_sample {
	uint32_t handle;
	uint32_t tag;
	bool flag;
	int32_t num;
	const char *str;
};

#define AOSP_SAMPLE_STRING	"kbinder.sample"

/**
 * aosp_encode() - write a value of @type as AOSP lays it out at @col, from
 * the table's rules alone. 0, or -EINVAL for a type it does not explain.
 */
int aosp_encode(struct kbinder_parcel *p, const struct kbinder_wire *w,
		const char *type, int col, const struct aosp_sample *v);
/**
 * aosp_decode() - read a value of @type at the cursor as AOSP lays it out
 * at @col, checking its shape: a non-null binder where @type is not
 * nullable, a parcelable's size matching its fields, a known union tag.
 * The first binder read goes to *@binder if not NULL (its handle, 0 for
 * null), the first String to @str. 0, or -EBADMSG with the cursor
 * anywhere.
 */
int aosp_decode(struct kbinder_view *v, const struct kbinder_wire *w,
		const char *type, int col, uint32_t *binder, char *str,
		size_t str_size);

/** aosp_view_of() - a view over @p as its receiver sees it. */
void aosp_view_of(struct kbinder_parcel *p, struct kbinder_view *v);
/** aosp_same_parcel() - the same bytes and object offsets. */
bool aosp_same_parcel(const struct kbinder_parcel *a, const struct kbinder_parcel *b);

/* ------------------------------------------------------------ checks */

#define AOSP_CHECK_REASONS	8

/* The outcome of one check: no reasons while it holds, the first few kept. */
struct aosp_check {
	char why[AOSP_CHECK_REASONS][256];
	int n;
};

void aosp_fail(struct aosp_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/**
 * aosp_report() - "PASS <suite>/<release>/<name>", or "FAIL ...: <first
 * reason>" and the others on the lines after it.
 */
void aosp_report(const char *suite, const char *release, const char *name,
		 const struct aosp_check *c);
/** aosp_failures() - how many checks aosp_report() failed. */
int aosp_failures(void);

#endif /* KBINDER_AOSP_DATA_H */
