// SPDX-License-Identifier: Apache-2.0
/*
 * The protocol's codes: every BC_ command the writer may put and every BR_
 * return the reader may parse, with their names. The argument size is the
 * code's own _IOC_SIZE.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sys/ioctl.h>

#include "internal.h"

/**
 * struct kbinder_code - one known protocol code.
 * @code: BC_ or BR_ value
 * @name: its name
 */
struct kbinder_code {
	uint32_t code;
	const char *name;
};

#define C(code) { code, #code }

static const struct kbinder_code kbinder_commands[] = {
	C(BC_TRANSACTION),
	C(BC_REPLY),
	C(BC_ACQUIRE_RESULT),
	C(BC_FREE_BUFFER),
	C(BC_INCREFS),
	C(BC_ACQUIRE),
	C(BC_RELEASE),
	C(BC_DECREFS),
	C(BC_INCREFS_DONE),
	C(BC_ACQUIRE_DONE),
	C(BC_ATTEMPT_ACQUIRE),
	C(BC_REGISTER_LOOPER),
	C(BC_ENTER_LOOPER),
	C(BC_EXIT_LOOPER),
	C(BC_REQUEST_DEATH_NOTIFICATION),
	C(BC_CLEAR_DEATH_NOTIFICATION),
	C(BC_DEAD_BINDER_DONE),
	C(BC_TRANSACTION_SG),
	C(BC_REPLY_SG),
	C(BC_REQUEST_FREEZE_NOTIFICATION),
	C(BC_CLEAR_FREEZE_NOTIFICATION),
	C(BC_FREEZE_NOTIFICATION_DONE),
};

static const struct kbinder_code kbinder_returns[] = {
	C(BR_ERROR),
	C(BR_OK),
	C(BR_TRANSACTION_SEC_CTX),
	C(BR_TRANSACTION),
	C(BR_REPLY),
	C(BR_ACQUIRE_RESULT),
	C(BR_DEAD_REPLY),
	C(BR_TRANSACTION_COMPLETE),
	C(BR_INCREFS),
	C(BR_ACQUIRE),
	C(BR_RELEASE),
	C(BR_DECREFS),
	C(BR_ATTEMPT_ACQUIRE),
	C(BR_NOOP),
	C(BR_SPAWN_LOOPER),
	C(BR_FINISHED),
	C(BR_DEAD_BINDER),
	C(BR_CLEAR_DEATH_NOTIFICATION_DONE),
	C(BR_FAILED_REPLY),
	C(BR_FROZEN_REPLY),
	C(BR_ONEWAY_SPAM_SUSPECT),
	C(BR_TRANSACTION_PENDING_FROZEN),
	C(BR_FROZEN_BINDER),
	C(BR_CLEAR_FREEZE_NOTIFICATION_DONE),
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
