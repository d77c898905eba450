/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the binder driver under test implements, for the tests of features
 * that came after Linux 6.1: they run wherever the feature is, and skip
 * where it is not, decided by what the driver does, never by its name.
 *
 *	REQUIRE_FEATURE(KBT_FEATURE_FREEZE_NOTIFICATION);
 *	want = kbt_has_feature(KBT_FEATURE_PENDING_FROZEN) ?
 *	       BR_TRANSACTION_PENDING_FROZEN : BR_TRANSACTION_COMPLETE;
 *
 * kbinder implements every feature here (docs/design.md), so on kbinder
 * kbt_has_feature() is true without asking: a kbinder that lost one fails
 * its tests instead of skipping them. Any other driver (the reference: the
 * kernel's own binder_linux) is probed, once per test process, the way a
 * user of the ABI can tell: a binderfs would have features/ files, but
 * Debian's kernels have no binderfs, so each feature is tried:
 *
 *	PENDING_FROZEN      (mainline 6.7) a one-way call to a frozen context
 *	                    manager is answered BR_TRANSACTION_PENDING_FROZEN
 *	FREEZE_NOTIFICATION (6.12) BC_REQUEST_FREEZE_NOTIFICATION on handle 0
 *	                    is accepted (an older driver: EINVAL, an unknown
 *	                    command)
 *	TRANSACTION_REPORT  (6.18) the generic netlink family "binder" exists
 *
 * The probes that need a context manager start one on $BINDER_DEVICE and
 * stop it again: call kbt_has_feature() (or REQUIRE_FEATURE()) before the
 * test starts its own, or it waits for the device's manager to go.
 */
#ifndef KBINDER_TEST_DRIVER_FEATURES_H
#define KBINDER_TEST_DRIVER_FEATURES_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */
#include "binder_util.h"

#include <kbinder/report.h>

/** enum kbt_feature - ABI features not every driver has. */
enum kbt_feature {
	KBT_FEATURE_PENDING_FROZEN,
	KBT_FEATURE_FREEZE_NOTIFICATION,
	KBT_FEATURE_TRANSACTION_REPORT,
	KBT_FEATURES
};

/** kbt_feature_name() - a feature's name, as the skip reason gives it. */
static inline const char *kbt_feature_name(enum kbt_feature f)
{
	static const char *const names[KBT_FEATURES] = {
		[KBT_FEATURE_PENDING_FROZEN] =
			"BR_TRANSACTION_PENDING_FROZEN (mainline 6.7)",
		[KBT_FEATURE_FREEZE_NOTIFICATION] =
			"freeze notifications (mainline 6.12)",
		[KBT_FEATURE_TRANSACTION_REPORT] =
			"netlink transaction reports (mainline 6.18)",
	};

	return f < KBT_FEATURES ? names[f] : "?";
}

/* BINDER_FREEZE of @pid through @fd: 0 or -errno. */
static inline int kbt_feature_freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = 1000,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

/* A one-way call to a frozen context manager: what the sender is told. */
static inline bool kbt_probe_pending_frozen(void)
{
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t status = 0;

	kbt_start_with_client(&s, NULL, NULL, &p, &t);
	if (!kbt_feature_freeze(p.fd, s.pid, true)) {
		status = kbt_call_status(&t, 0, 1, NULL, TF_ONE_WAY);
		ASSERT_OK(kbt_feature_freeze(p.fd, s.pid, false));
	}
	kbt_stop_with_client(&t, &s, &p);
	return status == BR_TRANSACTION_PENDING_FROZEN;
}

/* BC_REQUEST_FREEZE_NOTIFICATION on handle 0: accepted or unknown. */
static inline bool kbt_probe_freeze_notification(void)
{
	struct {
		uint32_t cmd;
		struct binder_handle_cookie hc;
	} __attribute__((packed)) req = {
		BC_REQUEST_FREEZE_NOTIFICATION, { 0, 0xfea7 },
	}, clr = {
		BC_CLEAR_FREEZE_NOTIFICATION, { 0, 0xfea7 },
	};
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int ret;

	kbt_start_with_client(&s, NULL, NULL, &p, &t);
	ASSERT_OK(kbinder_thread_ref(&t, BC_INCREFS, 0));
	ret = kbinder_ioctl_write(p.fd, &req, sizeof(req), NULL);
	if (ret != -EINVAL)
		ASSERT_OK(ret);
	/* What it queued is read (and acknowledged) during the quit. */
	if (!ret)
		ASSERT_OK(kbinder_ioctl_write(p.fd, &clr, sizeof(clr), NULL));
	kbt_stop_with_client(&t, &s, &p);
	return !ret;
}

static inline bool kbt_probe_transaction_report(void)
{
	struct kbinder_report_listener l;
	int ret = kbinder_report_open(&l);

	if (!ret)
		kbinder_report_close(&l);
	return !ret;
}

/**
 * kbt_has_feature() - whether the driver under test implements @f (see
 * the top of this file). The probe's finding is logged.
 */
static inline bool kbt_has_feature(enum kbt_feature f)
{
	static signed char known[KBT_FEATURES];	/* 0 unknown, 1 yes, -1 no */
	bool has;

	if (f >= KBT_FEATURES)
		return false;
	if (!strcmp(kbt_driver(), "kbinder"))
		return true;
	if (known[f])
		return known[f] > 0;
	switch (f) {
	case KBT_FEATURE_PENDING_FROZEN:
		has = kbt_probe_pending_frozen();
		break;
	case KBT_FEATURE_FREEZE_NOTIFICATION:
		has = kbt_probe_freeze_notification();
		break;
	case KBT_FEATURE_TRANSACTION_REPORT:
		has = kbt_probe_transaction_report();
		break;
	default:
		has = false;
		break;
	}
	known[f] = has ? 1 : -1;
	if (has)	/* (a skip says the opposite) */
		kbt_log("the %s driver has %s", kbt_driver(),
			kbt_feature_name(f));
	return has;
}

/** REQUIRE_FEATURE() - skip the test unless the driver implements @f. */
#define REQUIRE_FEATURE(f) do {						\
	if (!kbt_has_feature(f))					\
		SKIP("the %s driver has no %s", kbt_driver(),		\
		     kbt_feature_name(f));				\
} while (0)

#endif /* KBINDER_TEST_DRIVER_FEATURES_H */
