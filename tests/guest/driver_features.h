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
const char *kbt_feature_name(enum kbt_feature f);

/**
 * kbt_has_feature() - whether the driver under test implements @f (see
 * the top of this file). The probe's finding is logged.
 */
bool kbt_has_feature(enum kbt_feature f);

/** REQUIRE_FEATURE() - skip the test unless the driver implements @f. */
#define REQUIRE_FEATURE(f) do {						\
	if (!kbt_has_feature(f))					\
		SKIP("the %s driver has no %s", kbt_driver(),		\
		     kbt_feature_name(f));				\
} while (0)

/**
 * kbt_device_profile() - the device profile (docs/api-audit.md, "The aidl
 * profile") of binder device @dev (NULL: $BINDER_DEVICE), into @buf of
 * @len bytes: a kbinder misc device's /sys/class/misc/<name>/profile, a
 * binderfs device's line in its mount's binder_logs/profiles. A driver
 * without profiles (the reference) accepts the whole protocol: "full".
 */
void kbt_device_profile(const char *dev, char *buf, size_t len);

/** kbt_full_profile() - whether $BINDER_DEVICE has the full profile. */
bool kbt_full_profile(void);

/**
 * REQUIRE_FULL_PROFILE() - skip the test unless $BINDER_DEVICE takes the
 * whole protocol: for the tests that send @what, an item the aidl profile
 * refuses (`make check` runs the suite once more on aidl devices; profile.c
 * tests the refusals themselves).
 */
#define REQUIRE_FULL_PROFILE(what) do {					\
	if (!kbt_full_profile())					\
		SKIP("%s has the aidl profile, which refuses %s",	\
		     kbinder_proc_default_device(), (what));		\
} while (0)

#endif /* KBINDER_TEST_DRIVER_FEATURES_H */
