// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the unit tests; see unit_helpers.h.  Nothing here calls the
 * core except cplan_make() in plan_ok() and expect_error(): the invariants
 * are oracle.c's, shared with the fuzzer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_helpers.h"

static char ctx_buf[256];

/* Counted by cplan_yield() (cpt/core/cplan_shim.h, CPLAN_COUNT_YIELDS). */
unsigned long cplan_yields;

/* The oracle's failures fail the running cmocka test, with the context. */
static void unit_oracle_report(const char *file, int line, const char *cond,
			       const char *msg)
{
	check_fail(file, line, cond, "%s", msg);
}

void unit_filter(void)
{
	const char *f = getenv("CMOCKA_TEST_FILTER");

	oracle_report = unit_oracle_report;
	if (f && *f)
		cmocka_set_test_filter(f);
}

int unit_exit(int failed)
{
	if (failed) {
		fflush(stdout);
		fflush(stderr);
		_exit(1);
	}
	return 0;
}

void ctx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx_buf, sizeof(ctx_buf), fmt, ap);
	va_end(ap);
}

void check_fail(const char *file, int line, const char *cond,
		const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_error("[%s] %s\n    (check '%s' failed)\n", ctx_buf, msg, cond);
	_fail(file, line);
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = sb->cap - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->s ? sb->s + sb->len : NULL, room, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < room) {
			sb->len += n;
			return;
		}
		sb->cap = (sb->cap + n + 1) * 2;
		sb->s = realloc(sb->s, sb->cap);
		assert_non_null(sb->s);
	}
}

/* " a ... b" then, with Intel numbering of @T cores, " a+T ... b+T". */
void sb_cores(struct sbuf *sb, int a, int b, int T)
{
	int i;

	for (i = a; i <= b; i++)
		sb_printf(sb, " %d", i);
	if (T)
		for (i = a; i <= b; i++)
			sb_printf(sb, " %d", i + T);
}

void sb_free(struct sbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

/* ---- rendering ---------------------------------------------------------- */

char *render_table(const struct cplan_table *tb)
{
	return oracle_render(tb, ORACLE_MEMBERS, NULL);
}

char *render_distance(const struct cplan_table *tb)
{
	return oracle_render(tb, ORACLE_DISTANCE, NULL);
}

/* ---- invariants --------------------------------------------------------- */

bool part_has_node(const struct cplan_table *tb, int p, int n)
{
	int i;

	for (i = tb->part_node_first[p]; i < tb->part_node_first[p + 1]; i++)
		if (tb->part_node[i] == n)
			return true;
	return false;
}

struct cplan_table *plan_ok(const struct cplan_topo *t, int np,
			  const char *pattern)
{
	struct cplan_table *tb = NULL;
	struct cplan_err err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = cplan_make(t, np, pattern, &tb, &err);
	CHECK(rc == 0, "cplan_make(np %d, \"%s\") = %d (%s)", np,
	      pattern ? pattern : "(null)", rc, err.msg);
	CHECK(tb != NULL, "cplan_make returned 0 but no table");
	oracle_check_table(t, tb, true);
	return tb;
}

/* Show where two texts differ: a few lines around the first difference. */
static void diff_fail(const char *what, const char *got, const char *exp)
{
	size_t i = 0, ls = 0;
	char a[240], b[240];

	while (got[i] && got[i] == exp[i]) {
		if (got[i] == '\n')
			ls = i + 1;
		i++;
	}
	snprintf(a, sizeof(a), "%.200s", got + ls);
	snprintf(b, sizeof(b), "%.200s", exp + ls);
	CHECK(0, "%s differs at byte %zu:\n  got:      \"%s\"\n  expected: "
	      "\"%s\"", what, i, a, b);
}

void assert_parts(const struct cplan_table *tb, const char *expected)
{
	char *got = render_table(tb);

	if (strcmp(got, expected)) {
		char *g = strdup(got);

		free(got);
		diff_fail("partitions", g, expected);
		free(g);
		return;
	}
	free(got);
}

enum match { M_EXACT, M_PREFIX, M_SUBSTR };

/*
 * Whether @s (@len bytes) matches one of the '|'-separated @alts: exactly,
 * as a prefix followed by a character that cannot continue a token (so "4"
 * matches "4]" but not "48]"), or as a case-insensitive substring.
 */
static bool token_in(const char *alts, const char *s, size_t len,
		     enum match how)
{
	const char *a = alts;

	while (*a) {
		const char *e = strchr(a, '|');
		size_t al = e ? (size_t)(e - a) : strlen(a);
		size_t i, j;

		switch (how) {
		case M_EXACT:
			if (al == len && !memcmp(a, s, len))
				return true;
			break;
		case M_PREFIX:
			if (al <= len && !memcmp(a, s, al) &&
			    (al == len || !al ||
			     !isalnum((unsigned char)a[al - 1]) ||
			     !isalnum((unsigned char)s[al])))
				return true;
			break;
		case M_SUBSTR:
			for (i = 0; i + al <= len; i++) {
				for (j = 0; j < al; j++)
					if (tolower((unsigned char)s[i + j]) !=
					    tolower((unsigned char)a[j]))
						break;
				if (j == al)
					return true;
			}
			break;
		}
		if (!e)
			break;
		a = e + 1;
	}
	return false;
}

/* The quoted token of a cpu_pattern message, or NULL. */
const char *err_token(const struct cplan_err *err, size_t *len)
{
	char at[64];
	const char *p;
	size_t mlen = strnlen(err->msg, sizeof(err->msg));

	snprintf(at, sizeof(at), " at offset %d ('", err->offset);
	p = strstr(err->msg, at);
	if (!p || mlen < 2 || strcmp(err->msg + mlen - 2, "')"))
		return NULL;
	p += strlen(at);
	*len = (size_t)(err->msg + mlen - 2 - p);
	return p;
}

const char *esc(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	if (!s)
		s = "(null)";
	for (; *s && n + 5 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\n')
			n += snprintf(buf + n, size - n, "\\n");
		else if (ch == '\t')
			n += snprintf(buf + n, size - n, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			n += snprintf(buf + n, size - n, "\\x%02x", ch);
		else
			buf[n++] = ch;
	}
	buf[n] = '\0';
	return buf;
}

void expect_error(const struct cplan_topo *t, const struct perr *e)
{
	struct cplan_table *tb = NULL;
	struct cplan_err err;
	char shown[80];
	size_t mlen;
	int rc;

	esc(e->pattern, shown, sizeof(shown));
	memset(&err, 0x5a, sizeof(err));
	rc = cplan_make(t, e->np, e->pattern, &tb, &err);
	CHECK(rc == e->err, "pattern \"%s\" np %d: returned %d, expected %d "
	      "(msg \"%.200s\")", shown, e->np, rc, e->err,
	      rc ? err.msg : "");
	CHECK(tb == NULL, "pattern \"%s\": failed but stored a table", shown);
	mlen = strnlen(err.msg, sizeof(err.msg));
	CHECK(mlen < sizeof(err.msg), "pattern \"%s\": msg not terminated",
	      shown);
	CHECK(mlen > 0, "pattern \"%s\": empty msg", shown);

	if (e->off_lo != OFF_ANY) {
		CHECK(err.offset >= e->off_lo && err.offset <= e->off_hi,
		      "pattern \"%s\": offset %d, expected %d..%d (msg "
		      "\"%s\")", shown, err.offset, e->off_lo, e->off_hi,
		      err.msg);
	}
	if (e->off_lo != OFF_ANY && e->off_lo >= 0) {
		/*
		 * cpu_pattern: <problem> at offset <o> ('<token>'), or, at
		 * the very end of the pattern where no token is left,
		 * cpu_pattern: <problem> at offset <len> (end of pattern)
		 */
		char at[64], atend[64];
		const char *p, *q;
		bool at_end = e->pattern &&
			      err.offset == (int)strlen(e->pattern);

		snprintf(at, sizeof(at), " at offset %d ('", err.offset);
		snprintf(atend, sizeof(atend), " at offset %d (end of pattern)",
			 err.offset);
		CHECK(!strncmp(err.msg, "cpu_pattern: ", 13),
		      "pattern \"%s\": msg \"%s\" lacks the cpu_pattern: "
		      "prefix", shown, err.msg);
		p = strstr(err.msg, at);
		if (!p && at_end) {
			p = strstr(err.msg, atend);
			CHECK(p != NULL && !strcmp(p, atend),
			      "pattern \"%s\": msg \"%s\" lacks \"%s\" or "
			      "\"%s\"", shown, err.msg, at, atend);
			q = NULL;
		} else {
			CHECK(p != NULL, "pattern \"%s\": msg \"%s\" lacks "
			      "\"%s\"", shown, err.msg, at);
			CHECK(mlen >= 2 && !strcmp(err.msg + mlen - 2, "')"),
			      "pattern \"%s\": msg \"%s\" does not end with "
			      "\"')\"", shown, err.msg);
			q = p + strlen(at);
		}
		/* the quoted text starts with the offending token (whether
		 * it holds only the token is test_error_token_exact's) */
		if (e->tokens && q)
			CHECK(token_in(e->tokens, q,
				       (size_t)(err.msg + mlen - 2 - q),
				       M_PREFIX),
			      "pattern \"%s\": token in \"%s\", expected one "
			      "of \"%s\"", shown, err.msg, e->tokens);
		if (e->problems)
			CHECK(token_in(e->problems, err.msg,
				       (size_t)(p - err.msg), M_SUBSTR),
			      "pattern \"%s\": msg \"%s\" does not name the "
			      "problem (one of \"%s\")", shown, err.msg,
			      e->problems);
	} else if (e->problems) {
		CHECK(token_in(e->problems, err.msg, mlen, M_SUBSTR),
		      "pattern \"%s\": msg \"%s\" does not name the problem "
		      "(one of \"%s\")", shown, err.msg, e->problems);
	}

	/* the same with a NULL err pointer */
	tb = NULL;
	rc = cplan_make(t, e->np, e->pattern, &tb, NULL);
	CHECK(rc == e->err, "pattern \"%s\" with NULL err: returned %d",
	      shown, rc);
	CHECK(tb == NULL, "pattern \"%s\" with NULL err: stored a table",
	      shown);
}
