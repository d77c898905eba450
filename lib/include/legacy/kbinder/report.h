/* SPDX-License-Identifier: Apache-2.0 */
/* In-tree only: <kbinder/report.h> with the old names of kbinder/legacy.h. */
#include_next <kbinder/report.h>
#ifndef KBINDER_LIBRARY_SOURCE
#include <kbinder/legacy.h>
#endif
