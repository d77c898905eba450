/* SPDX-License-Identifier: Apache-2.0 */
/* In-tree only: <kbinder/kbinder.h> with the old names of kbinder/legacy.h. */
#include_next <kbinder/kbinder.h>
#ifndef KBINDER_LIBRARY_SOURCE
#include <kbinder/legacy.h>
#endif
