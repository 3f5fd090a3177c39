// SPDX-License-Identifier: GPL-2.0
/*
 * svc-bench: the metadata-server model of tests/modules/cpt_bench.c
 * (bench=svc) in userspace, on pthreads pinned by a cpt-plan table, for
 * real hosts.
 *
 *   scripts/cpt-plan [--npartitions N | --pattern P] > plan
 *   svc-bench [-d MS] [-w WINDOW] [-k WORK] [-t THREADS] [-l mutex|spin]
 *             [-c] PLAN|-
 *
 * PLAN is cpt-plan's output ("P\t: cpu cpu ...", one line per partition).
 * Per partition: one request queue and lock (a pthread mutex, or with
 * -l spin a pthread spinlock), THREADS service threads per CPU of the
 * partition, pinned to the partition's CPUs.  Per CPU of the table: one
 * submitter thread pinned to that CPU that keeps WINDOW requests in flight
 * to its partition's queue and sleeps, when the window is full, until half
 * of it has come back.  A request is one cache line, written by the
 * submitter and hashed WORK times (FNV-1a over 64 bytes) by a server.
 * Idle servers and full submitters sleep on futexes.
 *
 * After a 200 ms warm-up, runs MS milliseconds (default 2000) and prints
 *   parts=P cpus=C servers=S lock=L window=W work=K ms=T requests=R rps=X
 *   part_min=A part_max=B
 * or, with -c, the same values as one CSV line without names:
 *   parts,cpus,servers,lock,window,work,ms,requests,rps,part_min,part_max
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_WINDOW	32
#define CACHELINE	64

struct sub;

struct req {
	struct req *next;
	struct sub *sub;
	atomic_int busy;
	uint32_t key;
	uint32_t result;
	uint32_t payload[16];
} __attribute__((aligned(CACHELINE)));

struct part {
	pthread_mutex_t mutex;
	pthread_spinlock_t spin;
	struct req *head, *tail;
	atomic_int queued;
	unsigned long enqueued;		/* statistics, under the lock */
	atomic_int seq;			/* futex: bumped to wake servers */
	atomic_int idle;		/* servers about to sleep or asleep */
	cpu_set_t cpus;
	int ncpus;
} __attribute__((aligned(CACHELINE)));

struct sub {
	pthread_t thread;
	struct part *part;
	int cpu;
	uint32_t seq;
	atomic_int inflight;
	atomic_int wseq;		/* futex: bumped to wake the submitter */
	atomic_int waiting;
	struct req req[MAX_WINDOW];
} __attribute__((aligned(CACHELINE)));

struct srv {
	pthread_t thread;
	struct part *part;
	atomic_ulong served;
} __attribute__((aligned(CACHELINE)));

static int window = 8, work = 4, threads_per_cpu = 1, use_spin;
static atomic_int stop;
static pthread_barrier_t start;

static void futex_wait(atomic_int *addr, int val)
{
	(void)syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr, int n)
{
	(void)syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void part_lock(struct part *p)
{
	if (use_spin)
		pthread_spin_lock(&p->spin);
	else
		pthread_mutex_lock(&p->mutex);
}

static void part_unlock(struct part *p)
{
	if (use_spin)
		pthread_spin_unlock(&p->spin);
	else
		pthread_mutex_unlock(&p->mutex);
}

static uint32_t do_work(const struct req *r)
{
	uint32_t h = 2166136261u ^ r->key;
	const unsigned char *b = (const unsigned char *)r->payload;
	int i;
	size_t j;

	for (i = 0; i < work; i++)
		for (j = 0; j < sizeof(r->payload); j++)
			h = (h ^ b[j]) * 16777619u;
	return h;
}

static void *server(void *arg)
{
	struct srv *s = arg;
	struct part *p = s->part;
	struct req *r;

	pthread_barrier_wait(&start);
	while (!atomic_load(&stop)) {
		part_lock(p);
		r = p->head;
		if (r) {
			p->head = r->next;
			if (!p->head)
				p->tail = NULL;
			atomic_fetch_sub(&p->queued, 1);
		}
		part_unlock(p);
		if (!r) {
			int seq = atomic_load(&p->seq);

			atomic_fetch_add(&p->idle, 1);
			if (!atomic_load(&p->queued) && !atomic_load(&stop))
				futex_wait(&p->seq, seq);
			atomic_fetch_sub(&p->idle, 1);
			continue;
		}
		r->result = do_work(r);
		atomic_fetch_add_explicit(&s->served, 1, memory_order_relaxed);
		{
			struct sub *sb = r->sub;

			atomic_store_explicit(&r->busy, 0, memory_order_release);
			if (atomic_fetch_sub(&sb->inflight, 1) - 1 <= window / 2 &&
			    atomic_load(&sb->waiting)) {
				atomic_fetch_add(&sb->wseq, 1);
				futex_wake(&sb->wseq, 1);
			}
		}
	}
	return NULL;
}

static void *submitter(void *arg)
{
	struct sub *s = arg;
	struct part *p = s->part;
	struct req *r;
	int slot;
	size_t i;

	pthread_barrier_wait(&start);
	while (!atomic_load(&stop)) {
		if (atomic_load(&s->inflight) >= window) {
			int seq = atomic_load(&s->wseq);

			atomic_store(&s->waiting, 1);
			if (atomic_load(&s->inflight) > window / 2 &&
			    !atomic_load(&stop))
				futex_wait(&s->wseq, seq);
			atomic_store(&s->waiting, 0);
			continue;
		}
		for (slot = 0; slot < window; slot++)
			if (!atomic_load_explicit(&s->req[slot].busy,
						  memory_order_acquire))
				break;
		if (slot == window) {
			sched_yield();
			continue;
		}
		r = &s->req[slot];
		atomic_store_explicit(&r->busy, 1, memory_order_relaxed);
		r->key = ++s->seq;
		r->next = NULL;
		for (i = 0; i < sizeof(r->payload) / sizeof(r->payload[0]); i++)
			r->payload[i] = (r->key * (uint32_t)(i + 1)) ^ (uint32_t)s->cpu;
		atomic_fetch_add(&s->inflight, 1);

		part_lock(p);
		if (p->tail)
			p->tail->next = r;
		else
			p->head = r;
		p->tail = r;
		p->enqueued++;
		atomic_fetch_add(&p->queued, 1);
		part_unlock(p);
		if (atomic_load(&p->idle)) {
			atomic_fetch_add(&p->seq, 1);
			futex_wake(&p->seq, 1);
		}
	}
	return NULL;
}

/* Read cpt-plan's table: "P\t: c c c".  Returns the partition count. */
static int read_plan(FILE *f, struct part **partsp)
{
	struct part *parts = NULL;
	char line[65536];
	int n = 0;

	while (fgets(line, sizeof(line), f)) {
		char *s = line, *end;
		long id = strtol(s, &end, 10);
		struct part *p;

		if (end == s)
			continue;
		if (id != n) {
			fprintf(stderr, "svc-bench: partition %ld out of order\n", id);
			free(parts);
			return -1;
		}
		s = strchr(end, ':');
		if (!s) {
			free(parts);
			return -1;
		}
		s++;
		p = realloc(parts, (size_t)(n + 1) * sizeof(*parts));
		if (!p) {
			free(parts);
			return -1;
		}
		parts = p;
		p = &parts[n];
		memset(p, 0, sizeof(*p));
		CPU_ZERO(&p->cpus);
		for (;;) {
			long cpu = strtol(s, &end, 10);

			if (end == s)
				break;
			if (cpu < 0 || cpu >= CPU_SETSIZE) {
				fprintf(stderr, "svc-bench: CPU %ld out of range\n", cpu);
				free(parts);
				return -1;
			}
			CPU_SET((int)cpu, &p->cpus);
			p->ncpus++;
			s = end;
		}
		n++;
	}
	*partsp = parts;
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int start_thread(pthread_t *t, const cpu_set_t *cpus,
			void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int ret;

	pthread_attr_init(&attr);
	ret = pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus);
	if (!ret)
		ret = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

/* A decimal option value in [lo, hi]; -1 (an invalid value) otherwise. */
static int opt_int(const char *s, int lo, int hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end || v < lo || v > hi ? -1 : (int)v;
}

static int usage(void)
{
	fprintf(stderr, "usage: svc-bench [-d MS] [-w WINDOW] [-k WORK] [-t THREADS] [-l mutex|spin] [-c] PLAN|-\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct part *parts = NULL;
	struct srv *srvs;
	struct sub **subs;
	int nparts, nsrv = 0, nsub = 0, ms = 2000, csv = 0, opt, p, i, c, ret;
	unsigned long served = 0, pmin = ULONG_MAX, pmax = 0;
	double t0, t1;
	FILE *f;

	while ((opt = getopt(argc, argv, "d:w:k:t:l:c")) != -1) {
		switch (opt) {
		case 'd': ms = opt_int(optarg, 1, 3600000); break;
		case 'w': window = opt_int(optarg, 1, MAX_WINDOW); break;
		case 'k': work = opt_int(optarg, 0, 1000000); break;
		case 't': threads_per_cpu = opt_int(optarg, 1, 64); break;
		case 'l':
			if (strcmp(optarg, "spin") == 0)
				use_spin = 1;
			else if (strcmp(optarg, "mutex") != 0)
				return usage();
			break;
		case 'c': csv = 1; break;
		default: return usage();
		}
	}
	if (optind != argc - 1 || ms < 1 || window < 1 || window > MAX_WINDOW ||
	    work < 0 || threads_per_cpu < 1)
		return usage();
	f = strcmp(argv[optind], "-") ? fopen(argv[optind], "r") : stdin;
	if (!f) {
		perror(argv[optind]);
		return 1;
	}
	nparts = read_plan(f, &parts);
	if (f != stdin)
		(void)fclose(f);
	if (nparts < 1) {
		fprintf(stderr, "svc-bench: no partition table in %s\n", argv[optind]);
		if (nparts == 0)
			free(parts);
		return 1;
	}
	for (p = 0; p < nparts; p++) {
		pthread_mutex_init(&parts[p].mutex, NULL);
		pthread_spin_init(&parts[p].spin, PTHREAD_PROCESS_PRIVATE);
		nsrv += parts[p].ncpus * threads_per_cpu;
		nsub += parts[p].ncpus;
	}
	srvs = aligned_alloc(CACHELINE, sizeof(*srvs) * (size_t)nsrv);
	subs = calloc((size_t)nsub, sizeof(*subs));
	if (!srvs || !subs) {
		free(srvs);
		free(subs);
		free(parts);
		return 1;
	}
	memset(srvs, 0, sizeof(*srvs) * (size_t)nsrv);
	pthread_barrier_init(&start, NULL, (unsigned int)(nsrv + nsub + 1));

	for (i = 0, p = 0; p < nparts; p++) {
		int k;

		for (k = 0; k < parts[p].ncpus * threads_per_cpu; k++, i++) {
			srvs[i].part = &parts[p];
			ret = start_thread(&srvs[i].thread, &parts[p].cpus,
					   server, &srvs[i]);
			if (ret) {
				fprintf(stderr, "svc-bench: server thread: %s\n",
					strerror(ret));
				return 1;
			}
		}
	}
	for (i = 0, p = 0; p < nparts; p++) {
		for (c = 0; c < CPU_SETSIZE; c++) {
			cpu_set_t one;
			struct sub *s;

			if (!CPU_ISSET(c, &parts[p].cpus))
				continue;
			s = aligned_alloc(CACHELINE, sizeof(*s));
			if (!s)
				return 1;
			memset(s, 0, sizeof(*s));
			s->part = &parts[p];
			s->cpu = c;
			for (ret = 0; ret < MAX_WINDOW; ret++)
				s->req[ret].sub = s;
			subs[i++] = s;
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			ret = start_thread(&s->thread, &one, submitter, s);
			if (ret) {
				fprintf(stderr, "svc-bench: submitter on CPU %d: %s\n",
					c, strerror(ret));
				return 1;
			}
		}
	}
	usleep(200000);
	pthread_barrier_wait(&start);
	t0 = now_s();
	usleep((useconds_t)ms * 1000);
	t1 = now_s();
	for (i = 0, p = 0; p < nparts; p++) {
		unsigned long ps = 0;
		int k;

		for (k = 0; k < parts[p].ncpus * threads_per_cpu; k++, i++)
			ps += atomic_load(&srvs[i].served);
		served += ps;
		pmin = ps < pmin ? ps : pmin;
		pmax = ps > pmax ? ps : pmax;
	}
	atomic_store(&stop, 1);
	for (p = 0; p < nparts; p++) {
		atomic_fetch_add(&parts[p].seq, 1);
		futex_wake(&parts[p].seq, INT_MAX);
	}
	for (i = 0; i < nsub; i++) {
		atomic_fetch_add(&subs[i]->wseq, 1);
		futex_wake(&subs[i]->wseq, INT_MAX);
	}
	for (i = 0; i < nsrv; i++)
		pthread_join(srvs[i].thread, NULL);
	for (i = 0; i < nsub; i++)
		pthread_join(subs[i]->thread, NULL);

	if (csv)
		printf("%d,%d,%d,%s,%d,%d,%.0f,%lu,%.0f,%lu,%lu\n", nparts,
		       nsub, nsrv, use_spin ? "spin" : "mutex", window, work,
		       (t1 - t0) * 1000, served, (double)served / (t1 - t0), pmin, pmax);
	else
		printf("parts=%d cpus=%d servers=%d lock=%s window=%d work=%d ms=%.0f requests=%lu rps=%.0f part_min=%lu part_max=%lu\n",
		       nparts, nsub, nsrv, use_spin ? "spin" : "mutex", window,
		       work, (t1 - t0) * 1000, served, (double)served / (t1 - t0),
		       pmin, pmax);
	for (i = 0; i < nsub; i++)
		free(subs[i]);
	free(subs);
	free(srvs);
	free(parts);
	return 0;
}
