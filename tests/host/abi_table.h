/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One row of an ABI table, and the macros that turn abi_items.h into rows.
 *
 * The system headers and ours share include guards and names, so each is
 * compiled in its own translation unit (abi_table_sys.c, abi_table_ours.c)
 * and exports a table; abi_check.c compares the tables.
 */
#ifndef KBINDER_ABI_TABLE_H
#define KBINDER_ABI_TABLE_H

#include <stddef.h>

/**
 * struct abi_entry - one checked fact
 * @group: check group the fact is reported under (ioctl, br, layout, ...)
 * @name: what was measured, e.g. "offsetof(struct binder_write_read, read_size)"
 * @value: the number (unused for strings)
 * @str: the value of a string constant, or NULL
 */
struct abi_entry {
	const char *group;
	const char *name;
	unsigned long long value;
	const char *str;
};

/**
 * struct abi_table - the facts one header set yields
 * @origin: "system" or "ours"
 * @rows: the facts
 * @count: number of @rows
 */
struct abi_table {
	const char *origin;
	const struct abi_entry *rows;
	size_t count;
};

extern const struct abi_table abi_table_sys;
extern const struct abi_table abi_table_ours;

#define ABI_FIELD_OF(tag, field) (((struct tag *)0)->field)
#define ABI_SIGNED(x) (!((__typeof__(x))-1 > (__typeof__(x))0))

#define ABI_ROW_C(g, n) { #g, #n, (unsigned long long)(n), NULL },
#define ABI_ROW_E(g, text, expr) { #g, text, (unsigned long long)(expr), NULL },
#define ABI_ROW_S(g, n) { #g, #n, 0, n },
#define ABI_ROW_T(g, t)							\
	{ #g, "sizeof(struct " #t ")", sizeof(struct t), NULL },	\
	{ #g, "alignof(struct " #t ")", _Alignof(struct t), NULL },
#define ABI_ROW_M(g, t, f)						\
	{ #g, "offsetof(struct " #t ", " #f ")", offsetof(struct t, f), NULL }, \
	{ #g, "sizeof(struct " #t "." #f ")", sizeof(ABI_FIELD_OF(t, f)), NULL },
#define ABI_ROW_F(g, t, f)						\
	ABI_ROW_M(g, t, f)						\
	{ #g, "signed(struct " #t "." #f ")", ABI_SIGNED(ABI_FIELD_OF(t, f)), NULL },

#define ABI_ROWS(list) list(ABI_ROW_C, ABI_ROW_E, ABI_ROW_S, ABI_ROW_T, ABI_ROW_F, ABI_ROW_M)

#endif /* KBINDER_ABI_TABLE_H */
