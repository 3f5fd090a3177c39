# lnet-grammar.awk: the networks= grammar of Lustre's lnet_parse_networks()
# (lnet/lnet/config.c), written from Lustre's source, not from cpt-plan's
# site.c.  Input: one `options lnet networks="..."` line; -v ncpts=N: the
# partitions of the table.  Output: "NET IF CPTS" per interface (CPTS: the
# partitions, expanded; "all" when no list applies; IF "-" for a network
# without an interface list), then "parser any" when every Lustre with
# CPU partitions (2.3 on) parses the value, "parser 2.10" when it needs
# the Multi-Rail parser (a list inside the parentheses, or several
# interfaces in one network); or "lnet: ..." on stderr and exit 1.
#
# The rules: networks separated by ','; a network is NAME, then an
# optional (IF,IF...) list, then an optional [LIST]; an interface is a
# name, then an optional [LIST] (Multi-Rail); a LIST is libcfs's
# expression list, comma-separated a, a-b or a-b/s with every value below
# the partition count; a network named twice or an interface twice in one
# network is refused ("Duplicate net", lnet_ni_unique_net()); the
# module parameter is at most 1024 bytes.
function bad(m) { print "lnet: " m > "/dev/stderr"; err = 1; exit 1 }
# expand "[a,b-c,d-e/s]" into " a b ..." checking 0 <= x < ncpts
function el(t,    n, it, i, a, lo, hi, st, out, x, seen) {
	if (t !~ /^\[[^][]+\]$/) bad("bad expression list " t)
	t = substr(t, 2, length(t) - 2)
	n = split(t, it, ",")
	for (i = 1; i <= n; i++) {
		if (it[i] ~ /^[0-9]+$/) { lo = hi = it[i] + 0; st = 1 }
		else if (it[i] ~ /^[0-9]+-[0-9]+$/) { split(it[i], a, "-"); lo = a[1] + 0; hi = a[2] + 0; st = 1 }
		else if (it[i] ~ /^[0-9]+-[0-9]+\/[0-9]+$/) { split(it[i], a, "[-/]"); lo = a[1] + 0; hi = a[2] + 0; st = a[3] + 0 }
		else bad("bad item '" it[i] "'")
		if (st < 1 || lo > hi || hi >= ncpts) bad("item '" it[i] "' out of 0-" ncpts - 1)
		for (x = lo; x <= hi; x += st) if (!(x in seen)) { seen[x] = 1; out = out " " x }
	}
	return substr(out, 2)
}
{
	if ($0 !~ /^options lnet networks="[^"]*"$/) bad("not an options lnet networks= line: " $0)
	v = $0; sub(/^options lnet networks="/, "", v); sub(/"$/, "", v)
	if (length(v) > 1024) bad("over 1024 bytes")
	while (v != "") {
		if (!match(v, /^[a-z][a-z0-9]*/)) bad("no network name at '" v "'")
		net = substr(v, 1, RLENGTH); v = substr(v, RLENGTH + 1)
		if (net in nets) bad("duplicate net " net)
		nets[net] = 1
		ifl = ""; netel = ""
		if (substr(v, 1, 1) == "(") {
			if (!match(v, /^\([^()]*\)/)) bad("unclosed ( at '" v "'")
			ifl = substr(v, 2, RLENGTH - 2); v = substr(v, RLENGTH + 1)
		}
		if (substr(v, 1, 1) == "[") {
			if (!match(v, /^\[[^][]*\]/)) bad("unclosed [ at '" v "'")
			netel = el(substr(v, 1, RLENGTH)); v = substr(v, RLENGTH + 1)
		}
		if (v != "" && substr(v, 1, 1) != ",") bad("junk after " net ": '" v "'")
		if (v != "") { v = substr(v, 2); if (v == "") bad("trailing comma") }
		if (ifl == "") { print net " - " (netel == "" ? "all" : netel); continue }
		nif = 0
		while (ifl != "") {
			if (!match(ifl, /^[^][, ]+/)) bad("no interface name at '" ifl "'")
			ifn = substr(ifl, 1, RLENGTH); ifl = substr(ifl, RLENGTH + 1)
			if ((net SUBSEP ifn) in ifs) bad("interface " ifn " twice in " net)
			ifs[net, ifn] = 1; nif++
			c = netel == "" ? "all" : netel
			if (substr(ifl, 1, 1) == "[") {
				if (!match(ifl, /^\[[^][]*\]/)) bad("unclosed [ in " net)
				# before Multi-Rail (2.10) a list inside ( ) is taken as part of the name
				c = el(substr(ifl, 1, RLENGTH)); ifl = substr(ifl, RLENGTH + 1); mr = 1
			}
			if (ifl != "" && substr(ifl, 1, 1) != ",") bad("junk after " ifn)
			if (ifl != "") { ifl = substr(ifl, 2); if (ifl == "") bad("trailing comma in " net) }
			print net " " ifn " " c
		}
		if (nif > 1) mr = 1
	}
	# which parser: "any" (2.3 on: NET(IF)[LIST]) or "2.10" (Multi-Rail)
	print "parser " (mr ? "2.10" : "any")
}
