# Print "FILE:LINE NAME LENGTH" for each function of a C file in kernel
# style: the definition starts at column 0 with the name and "(", the body
# ends at the first "}" in column 0.  The length counts from the line with
# the name to the closing brace.
/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !/^(static[[:space:]]+)?(const[[:space:]]+)?struct[[:space:]]+[A-Za-z_0-9]+[[:space:]]*=/ && start == 0 {
	name = $0
	sub(/\(.*/, "", name)
	n = split(name, w, /[[:space:]*]+/)
	name = w[n]
	start = FNR
	next
}
start && /^}/ {
	printf "%s:%d %s %d\n", FILENAME, start, name, FNR - start + 1
	start = 0
}
start && /^[A-Za-z#]/ && !/^[A-Za-z_].*[,)][[:space:]]*$/ && FNR > start + 0 && /;[[:space:]]*$/ {
	# a prototype spread over lines: not a definition
	start = 0
}
