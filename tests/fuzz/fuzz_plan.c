// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the portable core: cpu_pattern parser, planner,
 * formatter and hotplug update (cpt/core/cplan.h, doc/planner.md).
 *
 * Every input decodes into a machine, an npartitions value, a cpu_pattern
 * and a hotplug script.  The first FZ_HDR bytes are a fixed header (missing
 * bytes read as zero), the rest is the pattern, arbitrary bytes (a NUL ends
 * it as it would end a module parameter):
 *
 *   0-1  nr_cpus        1 + le16 % 300 when bit 7 of byte 1 is set,
 *                       else 1 + byte0 % 48
 *   2    nr_nodes       1 + v % 8
 *   3    core keys      v % 5: own core, thread-major SMT, core-major SMT,
 *                       random small keys (siblings anywhere), huge keys
 *   4    threads        1 + v % 8 (SMT width for modes 1 and 2)
 *   5    L3 keys        v % 5: unknown (CPLAN_NONE), per k cores, random small,
 *                       huge (INT_MAX - x), a mix of CPLAN_NONE/0/INT_MAX/random
 *   6    cores per L3   1 + v % 16
 *   7    nodes of CPUs  v % 4: blocks of cores, round robin, random per CPU,
 *                       all on the first CPU node
 *   8    memory-only    bit n: node n gets no CPU
 *   9    offline nodes  bit n: node n offline (its CPUs offline too)
 *   10   offline CPUs   each CPU offline with probability (v % 8) / 16;
 *                       bit 7: every CPU offline
 *   11   distances      v % 4: 10/20, symmetric random, asymmetric random,
 *                       asymmetric with 0 and INT_MAX
 *   12   flags          FZ_F_* below; FZ_F_NOMEM fails the k-th
 *                       allocation of cplan_make(), k random, or if it
 *                       makes fewer, one of the first cplan_table_update()
 *   13   npartitions    selector, see decode_np()
 *   14-17 npartitions   raw le32 for selector class 6
 *   18   pattern mode   v % 8: 0-4 as is, 5 NULL, 6 padded with whitespace
 *                       to a length L, 7 repeated up to L;
 *                       L = {4095, 4096, 4097, 5000}[(v >> 3) & 3]
 *   19   hotplug        rounds of cplan_table_update(), v % 6
 *   20-23 seed          for everything random above
 *
 * On success every table invariant is checked, both /proc files are
 * rendered into exact-size buffers (and truncated ones) and compared with a
 * rendering of our own, then CPUs go offline and online through
 * cplan_table_update().  On failure the errno, the NULL table and the message
 * are checked.  An invariant violation prints what broke and aborts, so the
 * fuzzer saves the input.
 *
 * Checks of documented behaviour beyond memory safety have ids: S1-S5
 * (hotplug, check_update()), S6 (what a pattern means) and S7 (-ENOMEM
 * fills the error message, check_error());
 * CPT_FUZZ_RELAX=S1,S2 turns them into no-ops, to keep fuzzing past a known
 * finding until the core is fixed.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "oracle.h"

#ifdef calloc
#undef calloc		/* fz_alloc.h is for the core, not for us */
#endif

#define FZ_HDR		24
#define FZ_MAX_CPUS	300
#define FZ_MAX_NODES	8

#define FZ_F_GARBAGE	0x01	/* offline CPUs hold garbage fields */
#define FZ_F_INCONSIST	0x02	/* online CPUs may sit on offline nodes */
#define FZ_F_HOTADD	0x04	/* CPUs coming online may get a new node/core */
#define FZ_F_MISMATCH	0x08	/* also update against a wrong topology */
#define FZ_F_BADCORE	0x10	/* one online CPU with a negative core key */
#define FZ_F_NOERR	0x20	/* call cplan_make() with err == NULL */
#define FZ_F_BADNODE	0x40	/* one online CPU with an out-of-range node */
#define FZ_F_NOMEM	0x80	/* fail one allocation of the core */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void *fz_calloc(size_t n, size_t size);

/* ---- failing --------------------------------------------------------------- */

static const char *fz_pattern_for_report;

static void __attribute__((noreturn, format(printf, 1, 2)))
fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\n*** cpt fuzz invariant violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	if (fz_pattern_for_report)
		fprintf(stderr, "*** pattern (first 200 bytes): \"%.200s\"\n",
			fz_pattern_for_report);
	abort();
}

#define FZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "\n*** %s:%d: failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			fz_fail(__VA_ARGS__);				\
		}							\
	} while (0)

/* The shared oracle (tests/unit/oracle.c) fails the same way. */
static void fz_oracle_report(const char *file, int line, const char *cond,
			     const char *msg)
{
	fprintf(stderr, "\n*** %s:%d: failed: %s\n", file, line, cond);
	fz_fail("%s", msg);
}

/* ---- allocation failures ------------------------------------------------- */

static int fz_fail_in = -1;	/* allocations before the one that fails */
static bool fz_failed;		/* one did */

void *fz_calloc(size_t n, size_t size)
{
	if (fz_fail_in >= 0 && fz_fail_in-- == 0) {
		fz_failed = true;
		return NULL;
	}
	return calloc(n, size);
}

static void nomem_arm(int k)
{
	fz_fail_in = k;
	fz_failed = false;
}

/* Disarm; whether the armed failure happened. */
static bool nomem_disarm(void)
{
	bool failed = fz_failed;

	fz_fail_in = -1;
	fz_failed = false;
	return failed;
}

/* Checks of documented behaviour that CPT_FUZZ_RELAX may switch off. */
static bool relaxed(const char *id)
{
	static const char *relax;
	static bool init;
	const char *s;
	size_t n = strlen(id);

	if (!init) {
		relax = getenv("CPT_FUZZ_RELAX");
		init = true;
	}
	for (s = relax; s && (s = strstr(s, id)); s += n)
		if ((s == relax || s[-1] == ',') && (!s[n] || s[n] == ','))
			return true;
	return false;
}

/* ---- input ----------------------------------------------------------------- */

struct rng {
	uint64_t s;
};

static uint64_t rnd64(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)(rnd64(r) % n) : 0;
}

struct hdr {
	uint8_t b[FZ_HDR];
};

static unsigned int le16(const uint8_t *b)
{
	return b[0] | (unsigned int)b[1] << 8;
}

static uint32_t le32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

/* ---- the machine ------------------------------------------------------------ */

/* What a CPU is when online; topo->cpu[] may hold garbage while offline. */
struct truth {
	int core, package, node, llc;
};

struct machine {
	struct cplan_topo *topo;
	struct truth *real;
	int nr_cpus, nr_nodes;
	unsigned int flags;
	int cpu_nodes[FZ_MAX_NODES];	/* nodes that may hold CPUs */
	int nr_cpu_nodes;
};

static void set_online(struct machine *m, int cpu, bool online, struct rng *r)
{
	struct cplan_cpu *c = &m->topo->cpu[cpu];

	c->online = online;
	if (online) {
		c->core = m->real[cpu].core;
		c->package = m->real[cpu].package;
		c->node = m->real[cpu].node;
		c->llc = m->real[cpu].llc;
		c->isolated = false;
		if (!(m->flags & FZ_F_INCONSIST))
			m->topo->node_online[c->node] = true;
	} else if (m->flags & FZ_F_GARBAGE) {
		static const int junk[] = { -1, -7, INT_MIN, INT_MAX, 1000, 8 };

		c->core = junk[rnd(r, 6)];
		c->package = junk[rnd(r, 6)];
		c->node = junk[rnd(r, 6)];
		c->llc = junk[rnd(r, 6)];
		/* ignored while offline, like the rest (cplan.h) */
		c->isolated = rnd(r, 2);
	}
}

static int core_key(int mode, int ord, struct rng *r, int nr_cpus)
{
	switch (mode) {
	case 3:
		return (int)rnd(r, (unsigned int)nr_cpus / 2 + 1);
	case 4:
		/* huge, decreasing, scattered */
		return INT_MAX - ord * 7919;
	default:
		return ord;
	}
}

static int llc_key(int mode, int core_ord, int per, struct rng *r)
{
	static const int mix[] = { CPLAN_NONE, 0, INT_MAX, INT_MAX - 1 };

	switch (mode) {
	case 0:
		return CPLAN_NONE;
	case 1:
		return 1000 - core_ord / per;	/* decreasing on purpose */
	case 2:
		return (int)rnd(r, 4);
	case 3:
		return INT_MAX - core_ord / per;
	default:
		return rnd(r, 3) ? mix[rnd(r, 4)] : (int)rnd(r, 1u << 20);
	}
}

static struct machine *build_machine(const struct hdr *h, struct rng *r)
{
	const uint8_t *b = h->b;
	struct machine *m = calloc(1, sizeof(*m));
	/* mostly small machines, where the interesting cases are dense */
	int nc = 1 + (int)(b[1] & 0x80 ? le16(b) % FZ_MAX_CPUS : b[0] % 48u);
	int nn = 1 + b[2] % FZ_MAX_NODES;
	int cmode = b[3] % 5, threads = 1 + b[4] % 8, lmode = b[5] % 5;
	int per_llc = 1 + b[6] % 16, nmode = b[7] % 4;
	unsigned int memonly = b[8], offnodes = b[9], offrate = b[10] % 8;
	int dmode = b[11] % 4, ncores, cpu, i, j;
	bool smt;

	if (!m)
		return NULL;
	m->flags = b[12];
	m->nr_cpus = nc;
	m->nr_nodes = nn;
	m->topo = cplan_topo_alloc(nc, nn);
	m->real = calloc((size_t)nc, sizeof(*m->real));
	if (!m->topo || !m->real)
		abort();

	for (i = 0; i < nn; i++)
		if (!(memonly & (1u << i)))
			m->cpu_nodes[m->nr_cpu_nodes++] = i;
	if (!m->nr_cpu_nodes)
		m->cpu_nodes[m->nr_cpu_nodes++] = nn - 1;

	/* SMT modes number ncores cores, the others one per CPU */
	smt = cmode == 1 || cmode == 2;
	ncores = smt ? (nc + threads - 1) / threads : nc;
	for (cpu = 0; cpu < nc; cpu++) {
		struct truth *t = &m->real[cpu];
		/* the core this CPU belongs to, 0..ncores-1 */
		int ord = cmode == 1 ? cpu % ncores : cmode == 2 ? cpu / threads :
			  cpu;

		t->core = core_key(cmode, ord, r, nc);
		t->package = ord / 4;
		switch (nmode) {
		case 0:
			t->node = m->cpu_nodes[ord * m->nr_cpu_nodes / ncores];
			break;
		case 1:
			t->node = m->cpu_nodes[ord % m->nr_cpu_nodes];
			break;
		case 2:
			t->node = m->cpu_nodes[rnd(r, (unsigned int)m->nr_cpu_nodes)];
			break;
		default:
			t->node = m->cpu_nodes[0];
			break;
		}
		t->llc = llc_key(lmode, ord, per_llc, r);
	}

	for (i = 0; i < nn; i++)
		m->topo->node_online[i] = !(offnodes & (1u << i));
	for (cpu = 0; cpu < nc; cpu++) {
		bool on = !(b[10] & 0x80) && rnd(r, 16) >= offrate;

		if (!(m->flags & FZ_F_INCONSIST) &&
		    !m->topo->node_online[m->real[cpu].node])
			on = false;
		set_online(m, cpu, on, r);
	}

	/* Broken topologies that cplan_make() must refuse, not index with. */
	if (m->flags & (FZ_F_BADCORE | FZ_F_BADNODE)) {
		cpu = (int)rnd(r, (unsigned int)nc);
		if (m->topo->cpu[cpu].online) {
			if (m->flags & FZ_F_BADCORE)
				m->topo->cpu[cpu].core = -1 - (int)rnd(r, 3);
			if (m->flags & FZ_F_BADNODE)
				m->topo->cpu[cpu].node = rnd(r, 2) ? nn : -1;
		}
	}

	for (i = 0; i < nn; i++) {
		for (j = 0; j < nn; j++) {
			int *d = &m->topo->distance[i * nn + j];

			switch (dmode) {
			case 0:
				break;
			case 1:
				if (j > i)
					*d = 11 + (int)rnd(r, 245);
				else if (j < i)
					*d = m->topo->distance[j * nn + i];
				break;
			case 2:
				*d = i == j ? 10 : 10 + (int)rnd(r, 246);
				break;
			default: {
				static const int odd[] = { 0, 1, 10, 255, INT_MAX };

				*d = rnd(r, 2) ? odd[rnd(r, 5)] :
						 (int)rnd(r, 1u << 16);
				break;
			}
			}
		}
	}
	return m;
}

static void free_machine(struct machine *m)
{
	if (!m)
		return;
	cplan_topo_free(m->topo);
	free(m->real);
	free(m);
}

/* What cplan_make() may index with (cplan.h): an online CPU, and every
 * online CPU on an existing node with a non-negative core key. */
static bool topo_valid(const struct cplan_topo *t)
{
	int cpu, online = 0, broken = 0;

	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cplan_cpu *c = &t->cpu[cpu];

		online += c->online;
		broken += c->online && (c->node < 0 || c->node >= t->nr_nodes ||
					c->core < 0);
	}
	return online && !broken;
}

/* ---- npartitions and pattern ------------------------------------------------ */

static int decode_np(const uint8_t *b, int nr_cpus)
{
	unsigned int sel = b[13], low = sel & 31;
	static const int special[] = { INT_MIN, INT_MAX, -1, 0, 1, 256, 257,
				       8192 };

	switch (sel >> 5) {
	case 0:
	case 1:
		return 0;
	case 2:
	case 3:
		return (int)low;
	case 4:
		return nr_cpus + (int)low - 16;
	case 5:
		return -1 - (int)low;
	case 6:
		return (int)le32(b + 14);
	default:
		if (low < 8)
			return special[low];
		return low < 20 ? nr_cpus + (int)(low & 1) : nr_cpus / 2;
	}
}

/* The pattern text, NUL-terminated, or NULL; *len is its strlen. */
static char *decode_pattern(const uint8_t *b, const uint8_t *rest, size_t n,
			    struct rng *r, size_t *len)
{
	static const size_t lens[] = { 4095, 4096, 4097, 5000 };
	static const char ws[] = " \t\n";
	unsigned int mode = b[18] % 8;
	size_t L = lens[(b[18] >> 3) & 3], plen, i;
	char *s;

	plen = strnlen((const char *)rest, n);
	if (mode == 5) {
		*len = 0;
		return NULL;
	}
	if (mode < 5 || (mode == 7 && !plen)) {
		s = malloc(plen + 1);
		if (!s)
			abort();
		memcpy(s, rest, plen);
		s[plen] = '\0';
		*len = plen;
		return s;
	}
	if (L < plen)
		L = plen;
	s = malloc(L + 1);
	if (!s)
		abort();
	if (mode == 6) {
		/* whitespace first, the pattern at the very end */
		for (i = 0; i < L - plen; i++)
			s[i] = ws[rnd(r, 3)];
		memcpy(s + L - plen, rest, plen);
	} else {
		for (i = 0; i < L; i++)
			s[i] = (char)rest[i % plen];
	}
	s[L] = '\0';
	*len = L;
	return s;
}

/* Only whitespace (the default layout). */
static bool blank(const char *p)
{
	if (!p)
		return true;
	for (; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n')
			return false;
	return true;
}

/* ---- table invariants -------------------------------------------------------- */

static size_t fz_format(const struct cplan_table *tb, bool distance, char *buf,
			size_t size)
{
	return distance ? cplan_format_distance(tb, buf, size) :
			  cplan_format_table(tb, buf, size);
}

/* Render one file into exact-size heap buffers (ASan catches one byte too
 * many), whole and truncated, and compare with our own rendering. */
static void check_file(const struct cplan_table *tb, bool dist, struct rng *r)
{
	size_t want, len = fz_format(tb, dist, NULL, 0), got, cut;
	char *ref = oracle_render(tb, dist ? ORACLE_DISTANCE : ORACLE_LISTED,
				  &want), *buf;
	const char *what = dist ? "distance" : "table";

	FZ_CHECK(len == want, "%s: length %zu, expected %zu", what, len, want);
	buf = malloc(len + 1);
	if (!buf)
		abort();
	got = fz_format(tb, dist, buf, len + 1);
	FZ_CHECK(got == len, "%s: second length %zu vs %zu", what, got, len);
	FZ_CHECK(strlen(buf) == len, "%s: strlen %zu vs %zu", what,
		 strlen(buf), len);
	FZ_CHECK(!memcmp(buf, ref, len + 1), "%s text differs from the reference",
		 what);
	free(buf);

	/* truncated: snprintf semantics */
	cut = 1 + rnd(r, (unsigned int)len + 1);
	buf = malloc(cut);
	if (!buf)
		abort();
	got = fz_format(tb, dist, buf, cut);
	FZ_CHECK(got == len, "%s: truncated length %zu vs %zu", what, got, len);
	FZ_CHECK(strlen(buf) == cut - 1 && !memcmp(buf, ref, cut - 1),
		 "%s truncated to %zu: not a prefix", what, cut);
	free(buf);
	free(ref);
}

/* The distance file grows with the square of the partitions and, with
 * coverage tracing, dominates the cost of an input: on big tables only one
 * time in 8. */
static void check_format(const struct cplan_table *tb, struct rng *r)
{
	check_file(tb, false, r);
	if (tb->nr_parts <= 48 || !rnd(r, 8))
		check_file(tb, true, r);
}

/*
 * S6: an accepted pattern means what doc/planner.md says.  A reference
 * reading of the (well-formed, since accepted) pattern gives, for every
 * online CPU, its partition with ID[LIST] items, or whether it is placed
 * at all without them: X[...] CPUs and the threads of the cores C[...]
 * names (C[k]: the k-th core of every node) never are, every other listed
 * CPU (or CPU of a listed node) is, in the partition its list names.
 */
struct ref {
	const struct cplan_topo *t;
	const char *p;
	bool by_node;
	int nr_parts;
	int *cpu_part;		/* [nr_cpus] from CPU lists */
	int *node_part;		/* [nr_nodes] from node lists */
	bool *excluded;		/* [nr_cpus] */
	bool *dropped;		/* [nr_cpus] by rank of the core in its node */
};

static void ref_space(struct ref *rf)
{
	while (*rf->p == ' ' || *rf->p == '\t' || *rf->p == '\n')
		rf->p++;
}

static long ref_number(struct ref *rf)
{
	long v = 0;

	ref_space(rf);
	while (*rf->p >= '0' && *rf->p <= '9')
		v = v * 10 + (*rf->p++ - '0');
	return v;
}

static void ref_mark(struct ref *rf, char kind, int id, long v)
{
	switch (kind) {
	case 'X':
		rf->excluded[v] = true;
		break;
	case 'C':
		rf->dropped[v] = true;
		break;
	default:
		if (rf->by_node)
			rf->node_part[v] = id;
		else
			rf->cpu_part[v] = id;
	}
}

static void ref_list(struct ref *rf, char kind, int id)
{
	const struct cplan_topo *t = rf->t;
	long lo, hi, stride, v;
	int c;

	ref_space(rf);
	rf->p++;			/* '[' */
	for (;;) {
		ref_space(rf);
		if (*rf->p == '*') {
			rf->p++;
			for (c = 0; c < t->nr_cpus; c++) {
				if (!t->cpu[c].online && kind != 'X')
					continue;
				if (kind == '0' && rf->by_node)
					ref_mark(rf, kind, id, t->cpu[c].node);
				else
					ref_mark(rf, kind, id, c);
			}
		} else {
			lo = hi = ref_number(rf);
			stride = 1;
			ref_space(rf);
			if (*rf->p == '-') {
				rf->p++;
				hi = ref_number(rf);
				ref_space(rf);
				if (*rf->p == '/') {
					rf->p++;
					stride = ref_number(rf);
				}
			}
			for (v = lo; v <= hi; v += stride)
				ref_mark(rf, kind, id, v);
		}
		ref_space(rf);
		if (*rf->p++ == ']')
			return;
	}
}

static void check_pattern_meaning(const struct cplan_topo *t,
				  const struct cplan_table *tb,
				  const char *pattern, int np)
{
	struct ref rf = { .t = t, .p = pattern };
	struct oracle_topo v;
	int cpu, want, n;

	if (!pattern || relaxed("S6"))
		return;
	rf.cpu_part = malloc(sizeof(int) * (size_t)t->nr_cpus);
	rf.node_part = malloc(sizeof(int) * (size_t)t->nr_nodes);
	rf.excluded = calloc((size_t)t->nr_cpus, sizeof(bool));
	rf.dropped = calloc((size_t)t->nr_cpus, sizeof(bool));
	if (!rf.cpu_part || !rf.node_part || !rf.excluded || !rf.dropped)
		abort();
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		rf.cpu_part[cpu] = CPLAN_NONE;
	for (n = 0; n < t->nr_nodes; n++)
		rf.node_part[n] = CPLAN_NONE;
	for (ref_space(&rf); *rf.p; ref_space(&rf)) {
		char c = *rf.p;

		if (c == 'N') {
			rf.by_node = true;
			rf.p++;
		} else if (c == 'X' || c == 'C') {
			rf.p++;
			ref_list(&rf, c, CPLAN_NONE);
		} else {
			int id = (int)ref_number(&rf);

			rf.nr_parts++;
			ref_list(&rf, '0', id);
		}
	}

	oracle_topo_init(&v, t);
	if (rf.nr_parts)
		FZ_CHECK(tb->nr_parts == rf.nr_parts,
			 "S6: %d partitions, the pattern has %d", tb->nr_parts,
			 rf.nr_parts);
	if (rf.nr_parts)
		FZ_CHECK(!!(tb->warnings & CPLAN_WARN_NPART_IGNORED) == (np != 0),
			 "S6: warnings %#x with npartitions %d", tb->warnings,
			 np);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cplan_cpu *c = &t->cpu[cpu];

		if (!c->online)
			continue;
		if (rf.excluded[cpu] || rf.dropped[v.node_ord[cpu]])
			want = CPLAN_NONE;
		else if (!rf.nr_parts)
			want = -2;	/* placed, somewhere */
		else if (rf.by_node)
			want = rf.node_part[c->node];
		else
			want = rf.cpu_part[cpu];
		if (want == -2)
			FZ_CHECK(tb->cpu_part[cpu] != CPLAN_NONE,
				 "S6: CPU %d (not excluded, core %d of node %d not dropped) left out",
				 cpu, v.node_ord[cpu], c->node);
		else
			FZ_CHECK(tb->cpu_part[cpu] == want,
				 "S6: CPU %d in partition %d, the pattern says %d",
				 cpu, tb->cpu_part[cpu], want);
	}
	oracle_topo_free(&v);
	free(rf.cpu_part);
	free(rf.node_part);
	free(rf.excluded);
	free(rf.dropped);
}

static void check_error(int ret, const struct cplan_table *tb,
			const struct cplan_err *err, size_t plen)
{
	size_t n;

	FZ_CHECK(ret == -EINVAL || ret == -ERANGE || ret == -ENODEV ||
		 ret == -E2BIG || ret == -ENOMEM, "errno %d", ret);
	FZ_CHECK(tb == NULL, "table left behind on error %d", ret);
	if (!err)
		return;
	n = strnlen(err->msg, sizeof(err->msg));
	/* S7: -ENOMEM fills @err like every other failure */
	if (ret == -ENOMEM && !n && relaxed("S7"))
		return;
	FZ_CHECK(n > 0 && n < sizeof(err->msg), "message length %zu (errno %d)",
		 n, ret);
	FZ_CHECK(err->offset == -1 ||
		 (err->offset >= 0 && (size_t)err->offset <= plen),
		 "offset %d of a %zu-byte pattern", err->offset, plen);
	if (err->offset >= 0) {
		char at[40];

		snprintf(at, sizeof(at), "at offset %d", err->offset);
		FZ_CHECK(strstr(err->msg, at) && !strncmp(err->msg,
							  "cpu_pattern: ", 13),
			 "message \"%s\" does not name offset %d", err->msg,
			 err->offset);
	}
}

/* ---- CPT_FUZZ_VERBOSE=1: what an input decodes to ------------------------- */

static bool verbose(void)
{
	static int v = -1;

	if (v < 0)
		v = getenv("CPT_FUZZ_VERBOSE") && *getenv("CPT_FUZZ_VERBOSE") &&
		    *getenv("CPT_FUZZ_VERBOSE") != '0';
	return v;
}

static void dump_topo(const char *what, const struct cplan_topo *t)
{
	int cpu, i, j;

	fprintf(stderr, "%s: nr_cpus %d nr_nodes %d\n", what, t->nr_cpus,
		t->nr_nodes);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cplan_cpu *c = &t->cpu[cpu];

		fprintf(stderr, "  cpu %3d %s node %d core %d llc %d pkg %d\n",
			cpu, c->online ? "on " : "off", c->node, c->core, c->llc,
			c->package);
	}
	for (i = 0; i < t->nr_nodes; i++) {
		fprintf(stderr, "  node %d %s dist", i,
			t->node_online[i] ? "on " : "off");
		for (j = 0; j < t->nr_nodes; j++)
			fprintf(stderr, " %d", t->distance[i * t->nr_nodes + j]);
		fprintf(stderr, "\n");
	}
}

static void dump_table(const char *what, const struct cplan_table *tb)
{
	size_t len = cplan_format_table(tb, NULL, 0);
	char *s = malloc(len + 1);
	int cpu;

	if (!s)
		abort();
	cplan_format_table(tb, s, len + 1);
	fprintf(stderr, "%s: %d partitions, warnings %#x\n%s", what,
		tb->nr_parts, tb->warnings, s);
	fprintf(stderr, "  barred:");
	for (cpu = 0; cpu < tb->nr_cpus; cpu++)
		if (tb->cpu_barred[cpu])
			fprintf(stderr, " %d", cpu);
	fprintf(stderr, "\n  offline members:");
	for (cpu = 0; cpu < tb->nr_cpus; cpu++)
		if (tb->cpu_part[cpu] != CPLAN_NONE && !tb->cpu_online[cpu])
			fprintf(stderr, " %d(%d)", cpu, tb->cpu_part[cpu]);
	fprintf(stderr, "\n");
	free(s);
}

/* ---- hotplug ------------------------------------------------------------- */

/* cplan_table_update() must refuse a topology of another shape. */
static void check_mismatch(const struct cplan_table *tb, struct machine *m,
			   struct rng *r)
{
	struct cplan_topo *other;
	struct cplan_table *nt = (struct cplan_table *)1;
	struct cplan_err err;
	int ret;

	other = cplan_topo_alloc(m->nr_cpus + (rnd(r, 2) ? 1 : 0),
			       m->nr_nodes + (rnd(r, 2) ? 1 : 0));
	if (!other)
		abort();
	if (other->nr_cpus == m->nr_cpus && other->nr_nodes == m->nr_nodes) {
		/* same shape, but an online CPU on a node that does not exist */
		other->cpu[0].online = true;
		other->cpu[0].node = rnd(r, 2) ? m->nr_nodes : -1;
	}
	memset(&err, 0x55, sizeof(err));
	ret = cplan_table_update(tb, other, &nt, &err);
	FZ_CHECK(ret == -EINVAL, "mismatched update returned %d", ret);
	FZ_CHECK(nt == NULL, "mismatched update left a table");
	FZ_CHECK(strnlen(err.msg, sizeof(err.msg)) > 0 &&
		 strnlen(err.msg, sizeof(err.msg)) < sizeof(err.msg),
		 "mismatched update message");
	cplan_topo_free(other);
}

/* What a pattern that cplan_make() accepted is made of. */
#define SHAPE_N		0x1
#define SHAPE_X		0x2
#define SHAPE_C		0x4
#define SHAPE_LISTS	0x8	/* ID[LIST] items */

static unsigned int pattern_shape(const char *p)
{
	unsigned int shape = 0;
	char item = 0;		/* what the next '[' belongs to */

	for (; p && *p; p++) {
		if (*p == 'N') {
			shape |= SHAPE_N;
		} else if (*p == 'X' || *p == 'C') {
			item = *p;
			shape |= *p == 'X' ? SHAPE_X : SHAPE_C;
		} else if (*p >= '0' && *p <= '9') {
			item = '0';
		} else if (*p == '[') {
			if (item == '0')
				shape |= SHAPE_LISTS;
			while (p[1] && p[1] != ']')
				p++;
		}
	}
	return shape;
}

/*
 * S5 for newcomer @cpu of @nt: the members it could see when it was placed
 * are the old ones, at the node where they are online now or were last
 * online, and the newcomers before it.  If some of them are on its node,
 * it must be in one of their partitions, unless an online SMT sibling that
 * is a member took it along (S1).
 */
static void check_home(const struct cplan_topo *t, const struct cplan_table *old,
		       const struct cplan_table *nt, int cpu)
{
	const struct cplan_cpu *me = &t->cpu[cpu];
	int s, p = nt->cpu_part[cpu];
	bool home = false, here = false;

	for (s = 0; s < t->nr_cpus; s++) {
		int node;

		if (s == cpu)
			continue;
		if (old->cpu_part[s] != CPLAN_NONE)
			node = t->cpu[s].online ? t->cpu[s].node :
						  old->cpu_node[s];
		else if (s < cpu && nt->cpu_part[s] != CPLAN_NONE)
			node = t->cpu[s].node;
		else
			continue;
		if (t->cpu[s].online && t->cpu[s].node == me->node &&
		    t->cpu[s].core == me->core)
			return;		/* a member sibling: S1 */
		if (node != me->node)
			continue;
		home = true;
		here |= nt->cpu_part[s] == p;
	}
	if (home && !here)
		fz_fail("S5: CPU %d of node %d joined partition %d, which has no member on node %d while another partition has",
			cpu, me->node, p, me->node);
}

/*
 * After cplan_table_update() of @old into @nt (@first: the table cplan_make()
 * made, @shape: its pattern): members never move, barred CPUs stay out,
 * every online CPU not barred is placed, and
 *  S1  a CPU that joins while an online sibling of it is a member joins
 *      that sibling's partition (include/cpt.h, cptab_of_cpu());
 *  S2  without ID[LIST] or C[...] items the barred CPUs are exactly the
 *      X[...] ones, for ever ("CPUs excluded by cpu_pattern never do");
 *  S3  with explicit CPU lists nobody ever joins: CPUs not listed belong
 *      to no partition;
 *  S4  with N and node lists a CPU joins only a partition that holds its
 *      node: CPUs of the nodes not listed belong to no partition;
 *  S5  a CPU joins a partition of its own node whenever one exists (one
 *      that holds the node through a member, online or offline): "else the
 *      partition of its node, else that of the nearest node".
 */
static void check_update(const struct cplan_topo *t, const struct cplan_table *old,
			 const struct cplan_table *nt, const struct cplan_table *first,
			 unsigned int shape)
{
	int nc = t->nr_cpus, cpu, s, p, i;

	oracle_check_update(t, old, nt);
	for (cpu = 0; cpu < nc; cpu++) {
		if (!(shape & (SHAPE_LISTS | SHAPE_C)) && !relaxed("S2") &&
		    nt->cpu_barred[cpu] != first->cpu_barred[cpu])
			fz_fail("S2: pattern without lists or C[...]: CPU %d barred %d, was %d when planned (online now: %d)",
				cpu, nt->cpu_barred[cpu],
				first->cpu_barred[cpu], t->cpu[cpu].online);
		if ((shape & SHAPE_LISTS) && !(shape & SHAPE_N) &&
		    !relaxed("S3") && nt->cpu_part[cpu] != first->cpu_part[cpu])
			fz_fail("S3: explicit CPU lists: CPU %d joined partition %d",
				cpu, nt->cpu_part[cpu]);
		if ((shape & SHAPE_LISTS) && (shape & SHAPE_N) &&
		    !relaxed("S4") && first->cpu_part[cpu] == CPLAN_NONE &&
		    nt->cpu_part[cpu] != CPLAN_NONE) {
			/*
			 * Its node is the one it joined on, which the table
			 * keeps (cpu_node): once it is offline again, the
			 * topology's node of it may be garbage.
			 */
			p = nt->cpu_part[cpu];
			for (i = first->part_node_first[p];
			     i < first->part_node_first[p + 1]; i++)
				if (first->part_node[i] == nt->cpu_node[cpu])
					break;
			if (i == first->part_node_first[p + 1])
				fz_fail("S4: N with node lists: CPU %d of node %d joined partition %d, which does not hold node %d",
					cpu, nt->cpu_node[cpu], p,
					nt->cpu_node[cpu]);
		}

		if (old->cpu_part[cpu] == CPLAN_NONE &&
		    nt->cpu_part[cpu] != CPLAN_NONE && !relaxed("S5"))
			check_home(t, old, nt, cpu);

		if (old->cpu_part[cpu] != CPLAN_NONE || old->cpu_barred[cpu] ||
		    !t->cpu[cpu].online || relaxed("S1"))
			continue;
		/*
		 * A newcomer.  The members it can see are the old online ones
		 * and the newcomers before it (ascending order).
		 */
		for (s = 0; s < nc; s++) {
			bool member;

			if (s == cpu || !t->cpu[s].online ||
			    t->cpu[s].node != t->cpu[cpu].node ||
			    t->cpu[s].core != t->cpu[cpu].core)
				continue;
			member = old->cpu_part[s] != CPLAN_NONE ||
				 (s < cpu && nt->cpu_part[s] != CPLAN_NONE);
			if (member && nt->cpu_part[cpu] == CPLAN_NONE)
				fz_fail("S1: CPU %d came online with online sibling %d in partition %d, but was left out",
					cpu, s, nt->cpu_part[s]);
		}
	}
}

/* Rounds of CPUs going offline and online; frees @first.  @nomem >= 0: the
 * first round fails that allocation. */
static void hotplug(struct machine *m, struct cplan_table *first, int rounds,
		    const char *pattern, int nomem, struct rng *r)
{
	struct cplan_table *tb = first;
	unsigned int shape = pattern_shape(pattern);
	struct cplan_topo *t = m->topo;
	int nc = m->nr_cpus, round, k, flips, cpu;
	bool injected;

	for (round = 0; round < rounds; round++) {
		struct cplan_table *nt = (struct cplan_table *)1;
		struct cplan_err err;
		int ret, how = (int)rnd(r, 8);

		if (how == 0) {
			for (cpu = 0; cpu < nc; cpu++)
				if (!t->cpu[cpu].online)
					set_online(m, cpu, true, r);
		} else if (how == 1) {
			int keep = (int)rnd(r, (unsigned int)nc);

			for (cpu = 0; cpu < nc; cpu++)
				if (cpu != keep && t->cpu[cpu].online)
					set_online(m, cpu, false, r);
		} else {
			flips = 1 + (int)rnd(r, (unsigned int)nc / 4 + 2);
			for (k = 0; k < flips; k++) {
				cpu = (int)rnd(r, (unsigned int)nc);
				if (!t->cpu[cpu].online &&
				    (m->flags & FZ_F_HOTADD) && rnd(r, 2)) {
					/* hot-added somewhere new */
					m->real[cpu].node = (int)rnd(r,
						(unsigned int)m->nr_nodes);
					m->real[cpu].core = (int)rnd(r,
						(unsigned int)nc);
				}
				set_online(m, cpu, !t->cpu[cpu].online, r);
			}
		}
		memset(&err, 0, sizeof(err));
		if (nomem >= 0 && !round)
			nomem_arm(nomem);
		ret = cplan_table_update(tb, t, &nt, &err);
		injected = nomem_disarm();
		if (verbose()) {
			fprintf(stderr, "-- hotplug round %d: cplan_table_update: %d%s\n",
				round, ret, injected ? " (allocation failed)" : "");
			dump_topo("topology", t);
			if (!ret)
				dump_table("table", nt);
		}
		if (injected) {
			/* nothing made, the old table still whole */
			FZ_CHECK(ret == -ENOMEM,
				 "update: %d after allocation %d failed", ret,
				 nomem);
			FZ_CHECK(nt == NULL, "update: table left on -ENOMEM");
			FZ_CHECK(err.msg[0], "update: no message on -ENOMEM");
			check_format(tb, r);	/* still readable */
			continue;
		}
		FZ_CHECK(ret == 0, "update failed: %d (%s)", ret, err.msg);
		FZ_CHECK(nt != NULL && nt != (struct cplan_table *)1,
			 "update: no table");
		check_update(t, tb, nt, first, shape);
		check_format(nt, r);
		if (tb != first)
			cplan_table_free(tb);
		tb = nt;
	}
	if (tb != first)
		cplan_table_free(tb);
	cplan_table_free(first);
}

/* ---- the target ------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hdr h;
	struct rng r;
	struct machine *m;
	struct cplan_table *tb = (struct cplan_table *)1;
	struct cplan_err err, *errp;
	size_t hl = size < FZ_HDR ? size : FZ_HDR, plen;
	char *pattern;
	int np, ret, rounds, nomem;
	bool valid, injected;

	oracle_report = fz_oracle_report;
	oracle_all_pairs_max = 16;	/* a sample above: keep inputs fast */
	memset(&h, 0, sizeof(h));
	memcpy(h.b, data, hl);
	r.s = le32(h.b + 20) ^ 0x5eed5eedull << 32;
	m = build_machine(&h, &r);
	if (!m)
		abort();
	np = decode_np(h.b, m->nr_cpus);
	pattern = decode_pattern(h.b, data + hl, size - hl, &r, &plen);
	fz_pattern_for_report = pattern;
	rounds = h.b[19] % 6;
	valid = topo_valid(m->topo);

	errp = (m->flags & FZ_F_NOERR) ? NULL : &err;
	memset(&err, 0x55, sizeof(err));	/* no stale NUL to lean on */
	if (verbose()) {
		dump_topo("topology", m->topo);
		fprintf(stderr, "npartitions %d, pattern (%zu bytes) %s%.300s%s, hotplug rounds %d, flags %#x\n",
			np, plen, pattern ? "\"" : "", pattern ? pattern : "NULL",
			pattern ? "\"" : "", rounds, m->flags);
	}
	nomem = m->flags & FZ_F_NOMEM ? (int)rnd(&r, 80) : -1;
	if (nomem >= 0)
		nomem_arm(nomem);
	ret = cplan_make(m->topo, np, pattern, &tb, errp);
	injected = nomem_disarm();
	if (verbose()) {
		fprintf(stderr, "cplan_make: %d %s%s\n", ret,
			ret && errp ? err.msg : "",
			injected ? " (allocation failed)" : "");
		if (!ret)
			dump_table("table", tb);
	}
	if (ret == -ENOMEM || injected) {
		/* a failed allocation is -ENOMEM, nothing else, and
		 * -ENOMEM is nothing but a failed allocation */
		FZ_CHECK(injected, "-ENOMEM without a failed allocation");
		FZ_CHECK(ret == -ENOMEM, "cplan_make() = %d after allocation %d failed",
			 ret, nomem);
		check_error(ret, tb, errp, plen);
		goto out;
	}
	if (nomem >= 0)
		nomem = (int)rnd(&r, 24);	/* for the first update */
	if (ret) {
		check_error(ret, tb, errp, plen);
		if (!valid)
			FZ_CHECK(ret == -EINVAL || ret == -ENODEV,
				 "broken topology gave %d", ret);
		else if (np < 0)
			FZ_CHECK(ret == -ERANGE, "npartitions %d gave %d", np,
				 ret);
		else if (plen > CPLAN_PATTERN_MAX)
			FZ_CHECK(ret == -E2BIG, "%zu bytes gave %d", plen, ret);
		if (plen <= CPLAN_PATTERN_MAX)
			FZ_CHECK(ret != -E2BIG, "E2BIG for %zu bytes", plen);
		if (valid && np >= 0 && blank(pattern) &&
		    plen <= CPLAN_PATTERN_MAX) {
			struct oracle_topo v;

			oracle_topo_init(&v, m->topo);
			FZ_CHECK(ret == -ERANGE &&
				 (np > v.nr_online || np > CPLAN_PARTS_MAX),
				 "default layout, npartitions %d, %d online: %d",
				 np, v.nr_online, ret);
			oracle_topo_free(&v);
		}
		goto out;
	}
	FZ_CHECK(valid, "a table for a broken topology");
	FZ_CHECK(np >= 0 && plen <= CPLAN_PATTERN_MAX,
		 "success with npartitions %d, %zu bytes", np, plen);
	FZ_CHECK(tb != NULL && tb != (struct cplan_table *)1, "no table");
	if (blank(pattern))
		oracle_check_default(m->topo, tb, np);	/* and the table's */
	else
		oracle_check_table(m->topo, tb, true);
	check_pattern_meaning(m->topo, tb, pattern, np);
	check_format(tb, &r);
	if (m->flags & FZ_F_MISMATCH)
		check_mismatch(tb, m, &r);
	hotplug(m, tb, rounds, pattern, nomem, &r);	/* frees tb */
out:
	fz_pattern_for_report = NULL;
	free(pattern);
	free_machine(m);
	return 0;
}
