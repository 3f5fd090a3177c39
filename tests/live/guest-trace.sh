# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# cpt's tracepoints (cpt/linux/cpt_trace.h, cpt(4) TRACEPOINTS): not a
# guest script of its own but a section of guest-percpt.sh, which sources
# it with cpt_percpt_test loaded, npartitions=2 and CPUs 0-7 online on
# 2 nodes (cores 0-1, 2-3, 4-5, 6-7), so that it runs on every kernel the
# percpt test does.  With the events cpt:* enabled it:
#   - starts a pool of 2 threads per partition (cpt_pool_rebind);
#   - takes CPU 7 offline, writes npartitions=4 (planned without CPU 7),
#     brings CPU 7 back (it joins its sibling 6: rule "sibling"), takes CPU
#     5 offline and back (it kept its partition: "kept");
#   - calls cptab_bind_current() where it is refused, then from a binder
#     thread (cpt_bind);
# and compares the events, in order, with what those steps must make:
# every table's why, CPU, count and placed CPUs; generations and serials
# that follow on; each placement's partition (from /proc, not from the
# trace) and rule; each rebind's threads, unbound count and dying CPU, on
# the serial of the table before it; the binds' results against the
# binder's own count.

TR=/sys/kernel/tracing
# trace_events EVENT: the fields of each EVENT line in the buffer, in order.
trace_events() { sed -n "s/.* $1: //p" "$TR/trace"; }

# The merged event stream, serials and generations left out (checked apart).
trace_stream() {
	sed -n -e 's/.* cpt_table: .* parts=\([0-9-]*\) cpus=\([0-9-]*\) why=\([a-z]*\) cpu=\([0-9-]*\)$/table \3 \4 \1 \2/p' \
	       -e 's/.* cpt_cpu_place: cpu=\([0-9-]*\) cpt=\([0-9-]*\) rule=\([a-z0-9]*\) .*/place \1 \2 \3/p' \
	       -e 's/.* cpt_pool_rebind: name=\([^ ]*\) threads=\([0-9-]*\) unbound=\([0-9-]*\) serial=[0-9]* dying=\([0-9-]*\)$/rebind \1 \2 \3 \4/p' \
	       -e 's/.* cpt_bind: cpt=\([0-9-]*\) serial=[0-9]* ret=\([0-9-]*\)$/bind \1 \2/p' \
	       "$TR/trace"
}

# serials_follow: each place and rebind event after the first table event
# carries the serial of the table event before it; prints the first that
# does not.
serials_follow() {
	sed -n 's/.* \(cpt_[a-z_]*\): .* serial=\([0-9]*\).*/\1 \2/p' "$TR/trace" |
		awk '$1 == "cpt_table" { s = $2; next }
		     s != "" && $1 != "cpt_bind" && $2 != s { print "event " NR ": " $0 ", table serial " s; exit }'
}

# gens_follow: old_gen of each table event is new_gen of the one before,
# new_gen is old_gen + 1 (every table here changes the CPUs or the
# count), serial is the one before + 1; prints the first that does not.
gens_follow() {
	trace_events cpt_table |
		sed 's/old_gen=\([0-9]*\) new_gen=\([0-9]*\) serial=\([0-9]*\).*/\1 \2 \3/' |
		awk 'NR > 1 && ($1 != g || $3 != s + 1) { print "table " NR ": " $0 " after gen " g " serial " s; exit }
		     $2 != $1 + 1 { print "table " NR ": " $0 ": not a new generation"; exit }
		     { g = $2; s = $3 }'
}

trace_section() {
	section "tracepoints cpt:*"
	[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
	if [ ! -d "$TR/events/cpt" ]; then
		fail "the events cpt:* are in $TR/events"
		return
	fi
	pass "the events cpt:* are in $TR/events"
	same "4 events" "$(for e in "$TR"/events/cpt/cpt_*; do printf '%s ' "${e##*/}"; done)" \
		"cpt_bind cpt_cpu_place cpt_pool_rebind cpt_table "
	# One clock for all CPUs: the events of a CPU event and of the
	# notification run on different CPUs, and are compared in order.
	echo global >"$TR/trace_clock"
	echo >"$TR/trace"
	echo 1 >"$TR/events/cpt/enable"

	check "start 2 threads per partition" sh -c "echo 2 >$PT/pool"
	set_cpu 7 0
	same "npartitions=4 with CPU 7 offline: write" \
		"$(put "$P"/cpu_npartitions 4)" ok
	# The partition CPU 7 must join: its sibling's, read from /proc.
	p7=$(table | cpu_map | awk '$1 == 6 { print $2 }')
	set_cpu 7 1
	p5=$(table | cpu_map | awk '$1 == 5 { print $2 }')
	set_cpu 5 0
	set_cpu 5 1
	# The notification of the last CPU event runs after it: let it.
	pool_ok "the pool after the traced steps"
	cat "$PT"/bind_fixed >/dev/null
	check "one binder thread" sh -c "echo 1 >$PT/binders"
	sleep 1
	check "binder stopped" sh -c "echo 0 >$PT/binders"
	echo 0 >"$TR/events/cpt/enable"
	binds_ok=$(sed 's/.* ok=\([0-9]*\) .*/\1/' "$PT"/binders)

	same "the events, in order" "$(trace_stream | grep -v '^bind .* 0$')" \
		"rebind cpt_pt 4 0 -1
table offline 7 2 7
rebind cpt_pt 4 0 7
table sysctl -1 4 7
rebind cpt_pt 8 0 -1
table online 7 4 8
place 7 $p7 sibling
rebind cpt_pt 8 0 -1
table offline 5 4 7
rebind cpt_pt 8 0 5
table online 5 4 8
place 5 $p5 kept
rebind cpt_pt 8 0 -1
bind 0 -22
bind 0 -22"
	same "generations and serials follow on" "$(gens_follow)" ""
	same "places and rebinds on the serial of the table before" \
		"$(serials_follow)" ""
	# Only the binder's binds succeed here.
	same "a cpt_bind ret=0 for each bind the binder counted ($binds_ok)" \
		"$(trace_events cpt_bind | grep -c 'ret=0$')" "$binds_ok"
	check "the binder made binds" [ "${binds_ok:-0}" -gt 0 ]
	# cpt=N for the binder cycles through the partitions.
	same "its binds named each of the 4 partitions" \
		"$(trace_events cpt_bind | sed -n 's/^cpt=\([0-9]*\) .* ret=0$/\1/p' | sort -u | tr '\n' ' ')" \
		"0 1 2 3 "
	check "stop the pool" sh -c "echo 0 >$PT/pool"
	same "npartitions=2: write" "$(put "$P"/cpu_npartitions 2)" ok
	echo >"$TR/trace"
}
