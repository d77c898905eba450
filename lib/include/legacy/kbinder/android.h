/* SPDX-License-Identifier: Apache-2.0 */
/* In-tree only: <kbinder/android.h> with the old names of kbinder/legacy.h. */
#include_next <kbinder/android.h>
#ifndef KBINDER_LIBRARY_SOURCE
#include <kbinder/legacy.h>
#endif
