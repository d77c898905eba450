#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/cli_check.sh KBINDER README
#
# What README says of the kbinder tool, without a binder device (the host
# has none, and needs none: every device path here does not exist):
#   cli/every_command_takes_help  every command `kbinder --help` lists
#       answers `kbinder CMD --help` with its usage on stdout, status 0,
#       nothing on stderr
#   cli/readme_commands_are_the_tools  the commands of README's list are
#       the ones `kbinder --help` lists
#   cli/errors_are_one_line  an unknown command, and every command that
#       needs a device when there is none, fail with one line on stderr
#       that starts "kbinder: " (and nothing on stdout)
#   cli/demo_errors_are_one_line  the same for `kbinder demo`
#   cli/a_usage_error_starts_with_one_line  wrong arguments: status 2, the
#       first line "kbinder: wrong arguments for CMD", then the usage
set -uo pipefail
tool=${1:?usage: cli_check.sh KBINDER README}
readme=${2:?usage: cli_check.sh KBINDER README}
[ -x "$tool" ] || { echo "FAIL cli/(program): no tool at $tool"; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-cli.XXXXXX")
trap 'rm -rf "$out"' EXIT
nodev=/nonexistent/kbinder-cli-check/binder

# run ARGS...: the tool with ARGS, stdout and stderr into $out/o and $out/e.
run() {
	"$tool" "$@" >"$out/o" 2>"$out/e" </dev/null
}

# The commands of `kbinder --help`: the first word of each line of its
# "commands:" section that is indented by two spaces.
"$tool" --help >"$out/help" 2>&1
commands=$(sed -n '/^commands:/,/^$/p' "$out/help" | sed -n 's/^  \([a-z][a-z]*\).*/\1/p' | grep -vx help)
if [ -z "$commands" ]; then
	echo "FAIL cli/every_command_takes_help: kbinder --help lists no command"
else
	why=""
	for cmd in $commands; do
		run "$cmd" --help
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$out/e" ] || ! head -n 1 "$out/o" | grep -q "^usage: kbinder .*$cmd"; then
			why="$why $cmd (status $rc, stdout '$(head -n 1 "$out/o")', stderr '$(head -n 1 "$out/e")')"
		fi
	done
	if [ -z "$why" ]; then
		echo "PASS cli/every_command_takes_help"
	else
		echo "FAIL cli/every_command_takes_help:$why"
	fi
fi

# README's list: the lines "kbinder CMD ..." of the block after "## The
# `kbinder` tool"; "version | stats" names two.
readme_cmds=$(awk '/^## The `kbinder` tool/ { on = 1 } on && /^```/ { n++; if (n == 2) exit; next }
	on && n == 1 && /^kbinder / { print $2; if ($3 == "|") print $4 }' "$readme" | sort -u)
tool_cmds=$(echo "$commands" | sort -u)
if [ -z "$readme_cmds" ]; then
	echo "FAIL cli/readme_commands_are_the_tools: no command list found in $readme"
elif [ "$readme_cmds" = "$tool_cmds" ]; then
	echo "PASS cli/readme_commands_are_the_tools"
else
	echo "FAIL cli/readme_commands_are_the_tools: README: $(echo "$readme_cmds" | tr '\n' ' '); kbinder --help: $(echo "$tool_cmds" | tr '\n' ' ')"
fi

# Errors: one line on stderr, starting "kbinder: ", nothing on stdout, a
# non-zero status.
why=""
one_line_error() {
	local what=$1
	shift
	run "$@"
	local rc=$? lines
	lines=$(wc -l <"$out/e")
	if [ $rc -eq 0 ] || [ "$lines" -ne 1 ] || [ -s "$out/o" ] || ! grep -q '^kbinder: ' "$out/e"; then
		why="$why $what (status $rc, $lines lines: '$(tr '\n' '|' <"$out/e" | head -c 200)')"
	fi
}
one_line_error "unknown command" no-such-command
grep -qx "kbinder: unknown command 'no-such-command' (kbinder --help)" "$out/e" ||
	why="$why unknown-command-text('$(head -n 1 "$out/e")')"
for cmd in list version "ping kbt.x" "call kbt.x 1" "serve kbt.x" servicemanager; do
	# shellcheck disable=SC2086
	one_line_error "-d $nodev $cmd" -d "$nodev" $cmd
	grep -qx "kbinder: no binder device at $nodev (set -d or \$BINDER_DEVICE)" "$out/e" ||
		why="$why $cmd-text('$(head -n 1 "$out/e")')"
done
# the default device, from $BINDER_DEVICE
BINDER_DEVICE=$nodev one_line_error "BINDER_DEVICE=$nodev list" list
if [ -z "$why" ]; then
	echo "PASS cli/errors_are_one_line"
else
	echo "FAIL cli/errors_are_one_line:$why"
fi
# demo: the device is checked before the first step is printed
why=""
one_line_error "-d $nodev demo" -d "$nodev" demo
if [ -z "$why" ]; then
	echo "PASS cli/demo_errors_are_one_line"
else
	echo "FAIL cli/demo_errors_are_one_line:$why"
fi

why=""
for cmd in ping version list; do
	case $cmd in ping) args=() ;; *) args=(extra) ;; esac
	run "$cmd" "${args[@]}"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(head -n 1 "$out/e")" != "kbinder: wrong arguments for $cmd" ] ||
		! sed -n 2p "$out/e" | grep -q '^usage: kbinder'; then
		why="$why $cmd (status $rc: '$(tr '\n' '|' <"$out/e" | head -c 200)')"
	fi
done
if [ -z "$why" ]; then
	echo "PASS cli/a_usage_error_starts_with_one_line"
else
	echo "FAIL cli/a_usage_error_starts_with_one_line:$why"
fi
