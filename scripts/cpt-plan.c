// SPDX-License-Identifier: GPL-2.0
/*
 * cpt-plan: show the CPU partition table that the cpt module would build,
 * for this machine (sysfs) or for another one (a sysfs tree copy or the
 * output of `lscpu -p`), with the same planner code as the module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "emit.h"
#include "explain.h"
#include "check.h"
#include "fleet.h"
#include "lustre.h"
#include "site.h"
#include "out.h"
#include "topo_read.h"

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [--lscpu FILE|-] [--sysfs DIR] [--npartitions N] [--pattern STR]\n"
	      "                [--isolated LIST] [--include-isolated] [--format text|json]\n"
	      "                [--distance | --explain | --emit pattern|lustre]\n"
	      "                [--lustre VERSION]\n"
	      "       " PROG " ... --emit lnet --net NET:IF[,IF...]... [--nic IF=NODE]...\n"
	      "       " PROG " ... --emit irq|irqbalance --nic IF[=NODE]...\n"
	      "       " PROG " ... --check [--root DIR] [--lustre VERSION]\n"
	      "       " PROG " --fleet DIR [--npartitions N] [--pattern STR] [--format json]\n"
	      "\n"
	      "Print the CPU partition table that the cpt module would build, exactly as\n"
	      "/proc/sys/lnet/cpu_partition_table shows it.\n"
	      "\n"
	      "  -l, --lscpu FILE      read the topology from `lscpu -p` output (- = stdin);\n"
	      "                        node distances are then 10 local, 20 remote\n"
	      "  -s, --sysfs DIR       read the topology from a sysfs tree rooted at DIR\n"
	      "                        (DIR/devices/system/{cpu,node}, or DIR/sys/...);\n"
	      "                        default: / (the live /sys)\n"
	      "  -n, --npartitions N   number of partitions (0: automatic), as the module's\n"
	      "                        cpu_npartitions parameter\n"
	      "  -p, --pattern STR     cpu_pattern, as the module parameter\n"
	      "  -i, --isolated LIST   plan as if the kernel isolated the CPUs of LIST\n"
	      "                        (\"2-3,8\", \"\" for none) instead of those of\n"
	      "                        DIR/devices/system/cpu/{isolated,nohz_full}\n"
	      "  -I, --include-isolated  place isolated CPUs too, as the module's\n"
	      "                        include_isolated=1\n"
	      "  -d, --distance        print cpu_partition_distance instead of the table\n"
	      "  -e, --explain         describe the topology and each partition (CPUs,\n"
	      "                        cores, L3 domains, nodes, split cores, spans)\n"
	      "  -E, --emit pattern    print the table as a cpu_pattern of CPU lists,\n"
	      "                        which gives this table back in cpt and in Lustre\n"
	      "  -E, --emit lustre     print it as a modprobe.d line for Lustre's libcfs:\n"
	      "                        options libcfs cpu_pattern=\"...\" (1024 bytes at most)\n"
	      "  -E, --emit lnet       options lnet networks=\"...\": each interface of each\n"
	      "                        --net NET:IF[,IF...] with its NUMA node's partitions\n"
	      "  -E, --emit irq        \"IRQ CPULIST\" lines: the MSI IRQs of each --nic IF\n"
	      "                        round-robin over its node's partitions\n"
	      "  -E, --emit irqbalance the /etc/default/irqbalance lines that keep irqbalance\n"
	      "                        off those IRQs and off the isolated CPUs\n"
	      "      --net NET:IF[,IF...]  an LNet network and its interfaces (repeatable)\n"
	      "      --nic IF[=NODE]   an interface, and its NUMA node when given (repeatable)\n"
	      "      --check           compare the table in force and the loaded modules'\n"
	      "                        parameters with the plan and modprobe.d; exit 4 if not\n"
	      "      --root DIR        the root --check looks under (default: /)\n"
	      "      --fleet DIR       class the hosts of DIR/HOST.lscpu by plan\n"
	      "      --format json     one JSON document instead of text\n"
	      "      --lustre VERSION  with --explain, --check or --emit lustre: the table\n"
	      "                        Lustre VERSION (2.10.4 to 2.17) builds by default\n"
	      "                        here, beside cpt's; refuse what it cannot parse\n"
	      "  -h, --help            show this help\n"
	      "\n"
	      "Warnings go to stderr.  Exit status: 0 success, 1 invalid pattern or\n"
	      "parameter, 2 usage error, 3 unreadable or malformed input, 4 --check\n"
	      "found a difference.\n",
	      f);
}

static void print_warnings(unsigned int w)
{
	if (w & CPLAN_WARN_SPLIT_CORES)
		fprintf(stderr, PROG ": warning: more partitions than cores: SMT siblings are split across partitions\n");
	if (w & CPLAN_WARN_NPART_IGNORED)
		fprintf(stderr, PROG ": warning: npartitions is ignored: the pattern sets the partition count\n");
	w &= ~(unsigned int)(CPLAN_WARN_SPLIT_CORES | CPLAN_WARN_NPART_IGNORED);
	if (w)
		fprintf(stderr, PROG ": warning: planner warning flags 0x%x\n", w);
}

/* ------------------------------------------------------------------ */

static int write_formatted(FILE *out, const struct cplan_table *table,
			   bool distance)
{
	char dummy[1];
	size_t len, len2;
	char *buf;

	len = distance ? cplan_format_distance(table, dummy, 0) :
			 cplan_format_table(table, dummy, 0);
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	len2 = distance ? cplan_format_distance(table, buf, len + 1) :
			  cplan_format_table(table, buf, len + 1);
	if (len2 != len || strlen(buf) != len) {
		free(buf);
		return -EPROTO;
	}
	if (len && fwrite(buf, 1, len, out) != len) {
		free(buf);
		return -EIO;
	}
	free(buf);
	return 0;
}

/* Strict decimal int, optionally negative; false when malformed. */
static bool parse_int_arg(const char *s, int *out, bool *overflow)
{
	char *end;
	long v;

	*overflow = false;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
		*overflow = true;
		return false;
	}
	*out = (int)v;
	return true;
}
/* ------------------------------------------------------------------ */
/* The command line                                                    */
/* ------------------------------------------------------------------ */

struct options {
	const char *lscpu, *sysfs, *pattern;
	const char *npart_arg;	/* --npartitions as given */
	const char *emit;	/* --emit: pattern, lustre, lnet, irq, irqbalance */
	const char *isolated;	/* --isolated LIST, or NULL */
	const char *format;	/* --format: text or json */
	const char *root;	/* --root, for --check */
	const char *fleet;	/* --fleet DIR */
	const char *lustre;	/* --lustre VERSION */
	int lustre_v;		/* its number (lustre.h) */
	struct site_opts site;	/* --net, --nic */
	int npartitions;
	bool distance, explain, help, include_isolated, check, json;
};

/* Report a bad command line, show the usage; returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_USAGE;
}

/* The options that take an argument, and where each one stores it. */
#define ARG_OPTS	"lsnpEi"

static const char **option_arg(struct options *o, int opt)
{
	const char **args[] = { &o->lscpu, &o->sysfs, &o->npart_arg,
				&o->pattern, &o->emit, &o->isolated };
	const char *p = opt > 0 && opt < 256 ? strchr(ARG_OPTS, opt) : NULL;

	return p ? args[p - ARG_OPTS] : NULL;
}

/* The options without an argument, and the flag each one sets. */
#define FLAG_OPTS	"dehI"

static bool *option_flag(struct options *o, int opt)
{
	bool *flags[] = { &o->distance, &o->explain, &o->help,
			  &o->include_isolated };
	const char *p = opt > 0 && opt < 256 ? strchr(FLAG_OPTS, opt) : NULL;

	return p ? flags[p - FLAG_OPTS] : NULL;
}

/* The long options without a letter. */
enum { OPT_NET = 256, OPT_NIC, OPT_CHECK, OPT_ROOT, OPT_FLEET, OPT_FORMAT,
       OPT_LUSTRE };

/* A --net or --nic value, checked and kept. */
static int site_option(struct options *o, bool nic, const char *arg)
{
	const char **v = nic ? o->site.nic : o->site.net;
	int *n = nic ? &o->site.nr_nic : &o->site.nr_net;

	if (*n == SITE_ARGS_MAX)
		return usage_error("more than %d --%s options", SITE_ARGS_MAX,
				   nic ? "nic" : "net");
	if (!site_arg_ok(arg, nic))
		return usage_error("--%s takes %s, not '%s'", nic ? "nic" : "net",
				   nic ? "IF or IF=NODE" : "NET:IF[,IF...]", arg);
	v[(*n)++] = arg;
	return 0;
}

static int long_option(struct options *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_NET:
	case OPT_NIC:
		return site_option(o, opt == OPT_NIC, arg);
	case OPT_CHECK:
		o->check = true;
		return 0;
	case OPT_ROOT:
		o->root = arg;
		return 0;
	case OPT_FLEET:
		o->fleet = arg;
		return 0;
	case OPT_FORMAT:
		o->format = arg;
		return 0;
	case OPT_LUSTRE:
		o->lustre = arg;
		return 0;
	}
	return -1;
}

static const struct option long_opts[] = {
	{ "lscpu", required_argument, NULL, 'l' },
	{ "sysfs", required_argument, NULL, 's' },
	{ "npartitions", required_argument, NULL, 'n' },
	{ "pattern", required_argument, NULL, 'p' },
	{ "distance", no_argument, NULL, 'd' },
	{ "explain", no_argument, NULL, 'e' },
	{ "emit", required_argument, NULL, 'E' },
	{ "help", no_argument, NULL, 'h' },
	{ "isolated", required_argument, NULL, 'i' },
	{ "include-isolated", no_argument, NULL, 'I' },
	{ "net", required_argument, NULL, OPT_NET },
	{ "nic", required_argument, NULL, OPT_NIC },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "fleet", required_argument, NULL, OPT_FLEET },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "lustre", required_argument, NULL, OPT_LUSTRE },
	{ NULL, 0, NULL, 0 },
};

/* The options into @o; stops at --help.  Returns 0 or EXIT_USAGE. */
static int parse_options(int argc, char **argv, struct options *o)
{
	int opt, ret;

	opterr = 0;
	while (!o->help &&
	       (opt = getopt_long(argc, argv, ":l:s:n:p:E:i:dehI", long_opts, NULL)) != -1) {
		const char **arg = option_arg(o, opt);
		bool *flag = option_flag(o, opt);

		if (arg)
			*arg = optarg;
		else if (flag)
			*flag = true;
		else if ((ret = long_option(o, opt, optarg)) >= 0) {
			if (ret)
				return ret;
		} else if (opt == ':')
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		else if (optopt)
			return usage_error("unknown option '-%c'", optopt);
		else
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
	}
	return 0;
}

static bool is_one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return true;
	return false;
}

/* What --emit lnet, irq and irqbalance need, and --net and --nic go with. */
static int check_site_options(const struct options *o)
{
	bool lnet = o->emit && !strcmp(o->emit, "lnet");
	bool irq = o->emit && !strncmp(o->emit, "irq", 3);

	if (lnet && !o->site.nr_net)
		return usage_error("--emit lnet needs at least one --net NET:IF");
	if (o->site.nr_net && !lnet)
		return usage_error("--net goes with --emit lnet");
	if (irq && !o->site.nr_nic)
		return usage_error("--emit %s needs at least one --nic IF", o->emit);
	if (o->site.nr_nic && !lnet && !irq)
		return usage_error("--nic goes with --emit lnet, irq or irqbalance");
	return 0;
}

/* Which options go together.  Returns 0 or EXIT_USAGE. */
static int check_modes(const struct options *o)
{
	static const char *const emits[] = { "pattern", "lustre", "lnet", "irq",
					     "irqbalance", NULL };
	static const char *const formats[] = { "text", "json", NULL };

	if (o->lscpu && o->sysfs)
		return usage_error("--lscpu and --sysfs are exclusive");
	if (o->emit && !is_one_of(o->emit, emits))
		return usage_error("--emit takes 'pattern', 'lustre', 'lnet', 'irq' or 'irqbalance', not '%s'",
				   o->emit);
	if (o->format && !is_one_of(o->format, formats))
		return usage_error("--format takes 'text' or 'json', not '%s'",
				   o->format);
	if (o->emit && (o->explain || o->distance))
		return usage_error("--emit goes alone, without --explain or --distance");
	if (o->check && (o->emit || o->explain || o->distance))
		return usage_error("--check goes without --emit, --explain or --distance");
	if (o->root && !o->check)
		return usage_error("--root goes with --check");
	if (o->lustre && !o->explain && !o->check &&
	    !(o->emit && !strcmp(o->emit, "lustre")))
		return usage_error("--lustre goes with --explain, --check or --emit lustre");
	if (o->fleet && (o->lscpu || o->sysfs || o->emit || o->explain ||
			 o->distance || o->check))
		return usage_error("--fleet reads its hosts' lscpu files: without --lscpu, --sysfs, --emit, --explain, --distance or --check");
	return check_site_options(o);
}

/*
 * --lustre VERSION: a version whose defaults are known, and a pattern it
 * parses.  Returns 0, EXIT_USAGE or EXIT_PLAN, with one line printed.
 */
static int check_lustre(struct options *o)
{
	char err[200];
	const char *why;

	if (!o->lustre)
		return 0;
	if (lustre_version(o->lustre, &o->lustre_v, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_USAGE;
	}
	why = lustre_refuses(o->lustre_v, o->pattern);
	if (why) {
		fprintf(stderr, PROG ": --lustre %s: cpu_pattern '%s': %s\n",
			o->lustre, o->pattern, why);
		return EXIT_PLAN;
	}
	return 0;
}

/* Check what the options say together.  Returns 0 or an exit status. */
static int check_options(int argc, char **argv, struct options *o)
{
	bool overflow;
	int ret;

	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	ret = check_modes(o);
	if (ret)
		return ret;
	o->json = o->format && !strcmp(o->format, "json");
	ret = check_lustre(o);
	if (ret)
		return ret;
	o->site.json = o->json;
	if (o->check && !o->lscpu && !o->sysfs)
		o->sysfs = o->root ? o->root : "/";
	if (!o->npart_arg ||
	    parse_int_arg(o->npart_arg, &o->npartitions, &overflow))
		return 0;
	if (overflow) {
		fprintf(stderr, PROG ": npartitions %s is out of range\n",
			o->npart_arg);
		return EXIT_PLAN;
	}
	return usage_error("--npartitions needs a decimal number, not '%s'",
			   o->npart_arg);
}

/* ------------------------------------------------------------------ */
/* Reading, planning, printing                                         */
/* ------------------------------------------------------------------ */

/* Read `lscpu -p` output from @path ("-": stdin) into *@topo. */
static int read_lscpu(const char *path, struct cplan_topo **topo,
		      char *errbuf, size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	int ret;

	if (!f) {
		snprintf(errbuf, errlen, "%s: cannot open: %s", path,
			 strerror(errno));
		return -ENOENT;
	}
	ret = topo_read_lscpu(f, is_stdin ? "<stdin>" : path, topo, errbuf,
			      errlen);
	if (!is_stdin)
		(void)fclose(f);
	return ret;
}

/*
 * The topology the options name, and *source describing it for
 * --explain.  Returns 0 or an exit status, with the message printed.
 */
static int read_topology(const struct options *o, struct cplan_topo **topo,
			 char **source)
{
	const char *sysfs = o->sysfs ? o->sysfs : "/";
	char errbuf[512] = "";
	int ret, n;

	if (o->lscpu) {
		ret = read_lscpu(o->lscpu, topo, errbuf, sizeof(errbuf));
		n = asprintf(source, "lscpu %s; distances 10 local, 20 remote",
			     strcmp(o->lscpu, "-") ? o->lscpu : "<stdin>");
	} else {
		ret = topo_read_sysfs(sysfs, topo, errbuf, sizeof(errbuf));
		n = asprintf(source, "sysfs %s", sysfs);
	}
	if (n < 0)
		*source = NULL;
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -ENOMEM && !*errbuf ? "out of memory" : errbuf);
		free(*source);
		return ret == -ENOMEM ? EXIT_PLAN : EXIT_INPUT;
	}
	if (!*source) {
		fprintf(stderr, PROG ": out of memory\n");
		cplan_topo_free(*topo);
		*topo = NULL;
		return EXIT_PLAN;
	}
	return 0;
}

/*
 * --isolated and --include-isolated over what the topology reader found.
 * Returns 0 or EXIT_USAGE (a bad list), with the message printed.
 */
static int apply_isolation(struct cplan_topo *topo, const struct options *o)
{
	char errbuf[200] = "";

	if (o->isolated &&
	    topo_set_isolated(topo, o->isolated, errbuf, sizeof(errbuf))) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return EXIT_USAGE;
	}
	for (int c = 0; o->include_isolated && c < topo->nr_cpus; c++)
		topo->cpu[c].isolated = false;
	return 0;
}

/* The table for @topo and the options.  Returns 0 or EXIT_PLAN. */
static int make_plan(const struct cplan_topo *topo, const struct options *o,
		     struct cplan_table **table)
{
	struct cplan_err err = { -1, "" };
	int ret = cplan_make(topo, o->npartitions, o->pattern, table, &err);

	if (!ret)
		return 0;
	if (err.msg[0])
		fprintf(stderr, PROG ": %.*s\n", (int)sizeof(err.msg), err.msg);
	else
		fprintf(stderr, PROG ": planning failed: %s\n", strerror(-ret));
	return EXIT_PLAN;
}

/* The pattern or Lustre's line, printed as text or as JSON. */
static void put_emitted(FILE *out, const char *pattern, bool lustre,
			bool json)
{
	if (!json && lustre)
		fprintf(out, "options libcfs cpu_pattern=\"%s\"\n", pattern);
	else if (!json)
		fprintf(out, "%s\n", pattern);
	if (!json)
		return;
	fputs("{\"pattern\": ", out);
	json_str(out, pattern);
	if (lustre)
		fprintf(out, ", \"module\": \"libcfs\", \"options\": \"options libcfs cpu_pattern=\\\"%s\\\"\"",
			pattern);
	fputs("}\n", out);
}

/*
 * --emit: the table as a pattern, or as Lustre's modprobe.d line.  A line
 * Lustre would refuse (over 1024 bytes) is not printed: the message says
 * what would fit instead.  Returns 0 or EXIT_PLAN.
 */
static int print_emitted(FILE *out, const struct cplan_table *table,
			 bool lustre, bool json)
{
	char *buf = malloc(CPLAN_PATTERN_MAX + 1);
	size_t len;
	int ret = buf ? emit_pattern(table, buf, CPLAN_PATTERN_MAX + 1, &len) :
			-ENOMEM;

	if (ret == -EINVAL)
		fprintf(stderr, PROG ": a partition has no online CPU: no pattern can say so\n");
	else if (ret)
		fprintf(stderr, PROG ": out of memory\n");
	else if (len > CPLAN_PATTERN_MAX)
		fprintf(stderr, PROG ": the pattern would be %zu bytes, over the %d that cpu_pattern takes\n",
			len, CPLAN_PATTERN_MAX);
	else if (lustre && len > EMIT_LUSTRE_MAX)
		fprintf(stderr, PROG ": the pattern is %zu bytes, over the %d of Lustre's cpu_pattern; "
			"nearest choice: options libcfs cpu_npartitions=%d (Lustre then places the CPUs itself, "
			"without L3 alignment)\n", len, EMIT_LUSTRE_MAX, table->nr_parts);
	else
		put_emitted(out, buf, lustre, json);
	free(buf);
	return ret || len > (lustre ? EMIT_LUSTRE_MAX : CPLAN_PATTERN_MAX) ?
	       EXIT_PLAN : 0;
}

/* The table as JSON: each partition, with its distances if asked. */
static int print_table_json(FILE *out, const struct cplan_topo *topo,
			    const struct cplan_table *table, bool distance)
{
	int *ids = calloc((size_t)topo->nr_cpus + 1, sizeof(int));

	if (!ids)
		return -ENOMEM;
	fputs("{\"partitions\": [", out);
	for (int p = 0; p < table->nr_parts; p++) {
		fputs(p ? ",\n  " : "\n  ", out);
		json_partition(out, topo, table, p, ids, distance);
		fputc('}', out);
	}
	fputs("\n]}\n", out);
	free(ids);
	return 0;
}

/* The table, its distances or its explanation, then the warnings. */
static int print_main(FILE *out, const struct cplan_topo *topo,
		      const struct cplan_table *table, const char *source,
		      const struct options *o)
{
	int ret;

	if (o->emit && (!strcmp(o->emit, "pattern") || !strcmp(o->emit, "lustre")))
		return print_emitted(out, table, !strcmp(o->emit, "lustre"),
				     o->json);
	if (o->emit)
		return site_emit(out, o->emit, &o->site, topo, table);
	if (o->explain) {
		struct explain_req req = { source, o->npartitions, o->pattern,
					   o->json, o->distance };

		ret = explain(out, topo, table, &req);
		if (!ret && o->distance && !o->json) {
			fputs("\nDistances (cpu_partition_distance):\n", out);
			ret = write_formatted(out, table, true);
		}
	} else if (o->json) {
		ret = print_table_json(out, topo, table, o->distance);
	} else {
		ret = write_formatted(out, table, o->distance);
	}
	if (ret) {
		fprintf(stderr, PROG ": %s\n",
			ret == -EPROTO ? "formatter returned inconsistent lengths" :
					 strerror(-ret));
		return EXIT_PLAN;
	}
	print_warnings(table->warnings);
	return 0;
}

/* @doc, one JSON object, with a "lustre" member added at its end. */
static void put_with_lustre(FILE *out, const char *doc, size_t len,
			    const struct options *o,
			    const struct lustre_table *lt, bool same)
{
	while (len && doc[len - 1] != '}')
		len--;
	if (!len)
		return;
	fwrite(doc, 1, len - 1, out);
	fputs(",\n ", out);
	lustre_json(out, o->lustre, lt, same);
	fputs("}\n", out);
}

/*
 * What print_main() prints and, with --lustre, Lustre's default table
 * beside it: after the explanation, in the JSON document, or (for --emit
 * lustre) a warning when the line is what makes Lustre use cpt's table.
 */
static int print_output(FILE *out, const struct cplan_topo *topo,
			const struct cplan_table *table, const char *source,
			const struct options *o, const struct lustre_table *lt)
{
	bool same = lt && lustre_same(lt, topo, table);
	char *doc = NULL;
	size_t len = 0;
	FILE *f = lt && o->json ? open_memstream(&doc, &len) : out;
	int ret;

	if (!f) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_PLAN;
	}
	ret = print_main(f, topo, table, source, o);
	if (f != out) {
		if (fclose(f) && !ret) {
			fprintf(stderr, PROG ": out of memory\n");
			ret = EXIT_PLAN;
		}
		if (!ret)
			put_with_lustre(out, doc, len, o, lt, same);
		free(doc);
	} else if (!ret && lt && o->explain) {
		lustre_print(out, o->lustre, lt, same);
	}
	if (!ret && lt && o->emit && !same)
		fprintf(stderr, PROG ": warning: Lustre %s builds %d partition%s here by default (%s), not this table: keep this line\n",
			o->lustre, lt->nr_parts, lt->nr_parts == 1 ? "" : "s",
			lt->rule);
	return ret;
}

/* --fleet: every host of the directory, planned with the options. */
static int run_fleet(const struct options *o)
{
	struct fleet_opts fo = { o->fleet, o->npartitions, o->pattern,
				 o->isolated, o->include_isolated, o->json };

	return fleet_run(stdout, &fo);
}

/* One machine: read, plan, print (or check). */
static int run_one(struct options *o)
{
	struct cplan_topo *topo = NULL;
	struct cplan_table *table = NULL;
	struct lustre_table lt = { 0 };
	char *source = NULL;
	int status = read_topology(o, &topo, &source);

	if (status)
		return status;
	if (!o->lscpu) {
		o->site.sysdir = topo_sysfs_dir(o->sysfs);
		if (!o->site.sysdir)
			status = EXIT_PLAN;
	}
	if (!status)
		status = apply_isolation(topo, o);
	if (!status)
		status = make_plan(topo, o, &table);
	if (!status && o->lustre && lustre_default(topo, o->lustre_v, &lt)) {
		fprintf(stderr, PROG ": out of memory\n");
		status = EXIT_PLAN;
	}
	if (!status && o->check) {
		struct check_opts co = { o->root ? o->root : "/", o->json,
					 o->lustre, o->lustre ? &lt : NULL };

		status = check_run(stdout, &co, table);
	} else if (!status) {
		status = print_output(stdout, topo, table, source, o,
				      o->lustre ? &lt : NULL);
	}
	lustre_free(&lt);
	free((char *)o->site.sysdir);
	cplan_table_free(table);
	cplan_topo_free(topo);
	free(source);
	return status;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	int status;

	status = parse_options(argc, argv, &opt);
	if (!status && opt.help) {
		usage(stdout);
		return fclose(stdout) ? EXIT_PLAN : 0;
	}
	if (!status)
		status = check_options(argc, argv, &opt);
	if (status)
		return status;
	status = opt.fleet ? run_fleet(&opt) : run_one(&opt);
	if (fclose(stdout) && !status) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		status = EXIT_PLAN;
	}
	return status;
}
