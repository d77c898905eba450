#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The ownership checker's own tests (scripts/owners.py): an object's
# `inner` may be named only in its owner's files.  It must reject a
# foreign `->inner.` (and a foreign use of the inner type), accept the
# owner's, skip comments and strings, and refuse a name it cannot tell
# the type of.  Sources are tiny C files written here, checked against an
# owner map of our own.
set -u
cd "$(dirname "$0")/../.." || exit 1
dir=build/host/owners
rm -rf "$dir" && mkdir -p "$dir" || exit 1
printf 'kb_thread thread.c thread.h\nkb_proc proc.c proc.h\n' >"$dir/spec.txt"

failed=0
# case NAME: a fresh source directory with the owners' own files
case_dir() {
	local d=$dir/$1
	mkdir -p "$d" || exit 1
	cat >"$d/thread.h" <<'EOT'
struct kb_thread_inner { int looper; };
struct kb_thread { struct kb_proc *proc; struct kb_thread_inner inner; };
static inline int kb_thread_looper_locked(struct kb_thread *thread)
{
	return thread->inner.looper;
}
EOT
	cat >"$d/proc.h" <<'EOT'
struct kb_proc_inner { int todo; };
struct kb_proc { struct kb_proc_inner inner; };
EOT
	echo "$d"
}
# check NAME WANT(0|1) DIR PATTERN: exit status and a line of output
check() {
	local name=$1 want=$2 src=$3 pattern=$4 out rc
	out=$(python3 scripts/owners.py --spec="$dir/spec.txt" "$src" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL owners/$name: exit $rc, expected $want: $out"
		failed=1
	elif ! grep -q -- "$pattern" <<<"$out"; then
		echo "FAIL owners/$name: no '$pattern' in: $out"
		failed=1
	else
		echo "PASS owners/$name"
	fi
}

d=$(case_dir own)
cat >"$d/thread.c" <<'EOT'
void kb_thread_exit(struct kb_thread *thread) { thread->inner.looper = 0; }
EOT
cat >"$d/work.c" <<'EOT'
/* Only through the owner's helper; thread->inner.looper in a comment. */
int kb_work_looper(struct kb_thread *thread)
{
	const char *s = "thread->inner.looper";

	return kb_thread_looper_locked(thread) + !s;
}
EOT
check accepts_the_owners_accesses 0 "$d" '^PASS lint/owners'

d=$(case_dir foreign)
cat >"$d/work.c" <<'EOT'
void kb_work_wait(struct kb_thread *thread) { thread->inner.looper |= 1; }
EOT
check rejects_a_foreign_inner 1 "$d" 'work.c:1: thread->inner of kb_thread outside thread.c thread.h'

d=$(case_dir chain)
cat >"$d/read.c" <<'EOT'
int kb_read_todo(struct kb_thread *thread) { return thread->proc->inner.todo; }
EOT
check rejects_a_foreign_inner_through_a_field 1 "$d" 'read.c:1: proc->inner of kb_proc outside proc.c proc.h'

d=$(case_dir alias)
cat >"$d/node.c" <<'EOT'
void kb_node_peek(struct kb_proc *owner)
{
	struct kb_proc_inner *in = &owner->inner;

	in->todo = 0;
}
EOT
check rejects_a_foreign_alias 1 "$d" 'node.c:3: kb_proc_inner outside proc.c proc.h'

d=$(case_dir unknown)
cat >"$d/logs.c" <<'EOT'
int kb_logs_looper(void *p) { return ((struct kb_thread *)p)->inner.looper; }
EOT
check rejects_an_inner_it_cannot_type 1 "$d" "whose inner is ')->inner'"

d=$(case_dir ambiguous)
cat >"$d/send.c" <<'EOT'
int kb_send_a(struct kb_thread *x) { return 0; }
int kb_send_b(struct kb_proc *x) { return x->inner.todo; }
EOT
check rejects_a_name_of_two_types 1 "$d" 'declared as kb_proc and kb_thread'
exit $failed
