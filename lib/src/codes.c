// SPDX-License-Identifier: Apache-2.0
/*
 * The protocol's codes: every BC_ command the writer may put and every BR_
 * return the reader may parse, with their names, as the project's one list
 * (include/kbinder/binder_cmds.h) gives them. The argument size is the
 * code's own _IOC_SIZE.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sys/ioctl.h>

#include "internal.h"

#include <kbinder/binder_cmds.h>

/**
 * struct kbinder_code - one known protocol code.
 * @code: BC_ or BR_ value
 * @name: its name
 */
struct kbinder_code {
	uint32_t code;
	const char *name;
};

#define KBINDER_CODE(arg, code, ...) { code, #code },

static const struct kbinder_code kbinder_commands[] = {
	KBINDER_BC_CODES(KBINDER_CODE, )
};

static const struct kbinder_code kbinder_returns[] = {
	KBINDER_BR_CODES(KBINDER_CODE, )
};

static const struct kbinder_code *kbinder_code_find(const struct kbinder_code *table,
						   size_t n, uint32_t code)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

#define KBINDER_FIND(table, code) \
	kbinder_code_find(table, KBINDER_ARRAY_SIZE(table), code)

int kbinder_command_size(uint32_t cmd)
{
	return KBINDER_FIND(kbinder_commands, cmd) ? (int)_IOC_SIZE(cmd) : -EINVAL;
}

const char *kbinder_command_name(uint32_t cmd)
{
	const struct kbinder_code *c = KBINDER_FIND(kbinder_commands, cmd);

	return c ? c->name : "BC_?";
}

int kbinder_return_size(uint32_t cmd)
{
	return KBINDER_FIND(kbinder_returns, cmd) ? (int)_IOC_SIZE(cmd) : -EPROTO;
}

const char *kbinder_return_name(uint32_t cmd)
{
	const struct kbinder_code *c = KBINDER_FIND(kbinder_returns, cmd);

	return c ? c->name : "BR_?";
}
