# SPDX-License-Identifier: Apache-2.0
#
# Both ends of kbinder's userspace against Android 14's (sourced by
# aosp.sh): kbinder's tool, libkbinder's greeter and an echo service
# against AOSP's servicemanager; AOSP's `service` and a binderLibTest
# server against kbinder's service manager at --api-level 34. Each check
# is an AOSP-CASE line of phase aosp-interop (aosp_check).

# interop_servers: an echo service (kbinder), the greeter (libkbinder) and
# a binderLibTest server (libbinder), backgrounded; pids in srv_pids.
interop_servers() {
	kbinder -a 34 serve kbinder.echo &
	srv_pids=$!
	KBINDER_API_LEVEL=34 greeter-service &
	srv_pids="$srv_pids $!"
	binderLibTest --binderserver 0 3 0 interop 3>/dev/null &
	srv_pids="$srv_pids $!"
	wait_for sh -c "service list | grep -q test.binderLibinterop"
}

# interop_clients PHASE: what every client does against the manager.
interop_clients() {
	aosp_check "$1" kbinder-list '^3$' count_lines "kbinder -a 34 list" \
		kbinder.echo example.greeter test.binderLibinterop
	aosp_check "$1" kbinder-ping-kbinder 'alive' kbinder -a 34 ping kbinder.echo
	aosp_check "$1" kbinder-ping-libbinder 'alive' \
		kbinder -a 34 ping test.binderLibinterop
	aosp_check "$1" kbinder-call-echo 's16:"via-aosp"' \
		kbinder -a 34 call kbinder.echo 1 s16:via-aosp
	# binderLibTest's NOP (1) and GET_ID (11 in Android 14) through kbinder's tool
	aosp_check "$1" kbinder-call-libbinder 'reply: 0 bytes' \
		kbinder -a 34 call --raw test.binderLibinterop 1
	aosp_check "$1" kbinder-call-libbinder-id 'i32:0' \
		kbinder -a 34 call --raw test.binderLibinterop 11
	aosp_check "$1" greeter-client 'hello, world' env KBINDER_API_LEVEL=34 greeter-client
	aosp_check "$1" service-list '^3$' count_lines "service list" \
		kbinder.echo example.greeter test.binderLibinterop
	aosp_check "$1" service-check ': found' service check kbinder.echo
	aosp_check "$1" service-check-missing ': not found' service check nosuchservice
	# (the hex dump's text column, 16 bytes a line)
	aosp_check "$1" service-call-kbinder "f\\.r\\.o\\.m\\." \
		service call kbinder.echo 1 s16 from-aosp
	aosp_check "$1" service-call-greeter "h\\.e\\.l\\.l\\." \
		service call example.greeter 1 s16 from-aosp
}

# interop_death PHASE: the echo service dies; the manager forgets it.
interop_death() {
	set -- "$1" $srv_pids
	kill "$2"
	wait "$2" 2>/dev/null
	sleep 1
	aosp_check "$1" death-forgotten ': not found' service check kbinder.echo
	shift 2
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
}

# interop_with PHASE START: the servers and every client against the
# service manager START starts (aosp_sm_start or kbinder_sm_start).
interop_with() {
	if "$2"; then
		interop_servers
		interop_clients "$1"
		interop_death "$1"
	else
		aosp_case "$1" interop servicemanager "FAIL(no-answer)"
	fi
	sm_stop
}

aosp_interop() {
	echo "################ kbinder's tool and services against AOSP's servicemanager"
	interop_with aosp-interop-aospsm aosp_sm_start
	echo "################ AOSP's clients against kbinder servicemanager --api-level 34"
	interop_with aosp-interop-kbindersm kbinder_sm_start
}
