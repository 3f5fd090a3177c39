/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the cmocka unit tests.  The model of a topology, the
 * renderings and the invariants of doc/planner.md are the oracle's
 * (oracle.h), shared with the fuzzer; here they fail the running cmocka
 * test with a message that names the context set by ctx().
 */
#ifndef UNIT_HELPERS_H
#define UNIT_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cplan.h"
#include "oracle.h"

/* Run only the tests matching $CMOCKA_TEST_FILTER (a glob), when set, and
 * make the oracle's failures cmocka failures.  First thing of every main(). */
void unit_filter(void);
/* Exit with cmocka's result.  After a failed test the objects it had not
 * freed yet would be reported as leaks and bury the failure, so a failed run
 * exits without the leak check; a passing run keeps it. */
int unit_exit(int failed);

/* Context printed with every failure ("fixture epyc_nps4 P=24"). */
void ctx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void check_fail(const char *file, int line, const char *cond,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			check_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

/* @s with control and non-ASCII bytes escaped, into @buf. */
const char *esc(const char *s, char *buf, size_t size);

/* A growing string. */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_cores(struct sbuf *sb, int a, int b, int T);
void sb_free(struct sbuf *sb);

/* The table as "%d\t:" " %d"... "\n", rendered by the test itself from
 * part_first/part_cpu (not by the formatter under test).  Free it. */
char *render_table(const struct cplan_table *tb);
char *render_distance(const struct cplan_table *tb);

/* Whether partition @p holds node @n (from part_node_first/part_node). */
bool part_has_node(const struct cplan_table *tb, int p, int n);

/* cplan_yield() calls so far (CPLAN_COUNT_YIELDS). */
extern unsigned long cplan_yields;

/* cplan_make() that must succeed; checks the table's invariants
 * (oracle_check_table()) and returns it. */
struct cplan_table *plan_ok(const struct cplan_topo *t, int np,
			  const char *pattern);

/* The partitions of @tb must be exactly @expected (table text format). */
void assert_parts(const struct cplan_table *tb, const char *expected);

/* One failing cplan_make() call. */
#define OFF_ANY	(-100)
struct perr {
	const char *pattern;
	int np;
	int err;		/* negative errno */
	int off_lo, off_hi;	/* offset range; OFF_ANY: not checked */
	const char *tokens;	/* '|'-separated exact tokens, or NULL */
	const char *problems;	/* '|'-separated substrings (any case), or NULL */
};
void expect_error(const struct cplan_topo *t, const struct perr *e);

/* The text quoted in "... at offset <o> ('<token>')", or NULL. */
const char *err_token(const struct cplan_err *err, size_t *len);

#endif /* UNIT_HELPERS_H */
