/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpt: CPU partition table, the interface for other modules.
 *
 * The cpt module splits the online CPUs into partitions (by NUMA node, L3
 * domain and core; see doc/planner.md) and shows them in
 * /proc/sys/lnet/cpu_partition_table.  Partitions are numbered
 * 0 .. number - 1.  Each has a CPU mask and the mask of the NUMA nodes of
 * its CPUs.
 *
 * DOC: Tables and their lifetime
 *
 * One table is in force at a time.  It is replaced, never changed in place:
 *
 * - by a write to /proc/sys/lnet/cpu_npartitions or cpu_pattern, which plans
 *   a new layout from scratch (the number of partitions and the place of
 *   every CPU may change);
 * - when a CPU goes offline or comes online.  Such a replacement keeps the
 *   number of partitions and the partition of every CPU that had one: an
 *   offline CPU stays a member of its partition (it only stops counting in
 *   the weight and disappears from the /proc file), and a CPU that had no
 *   partition may get one (see cpt_of_cpu()).
 *
 * A table is a struct cptab.  cpt_get() returns the table in force with a
 * reference; the table and every mask it returns stay valid, and its
 * answers never change, until the matching cpt_put(), however many times
 * it has been replaced meanwhile.  Memory of a replaced table is freed once
 * its last holder has put it and no RCU reader can see it any more.
 *
 * The cpt_*() functions without a table argument answer from the table in
 * force at the moment of the call, lock-free (RCU): they never sleep and
 * may be called from any context, except cpt_bind_current(), which may
 * sleep.  Each is O(1), except cpt_distance() of two partitions, which
 * compares their nodes (O(nodes of one x nodes of the other); CPT_ANY is
 * precomputed).  Two such calls may answer from two different tables.  A module that keeps
 * per-partition arrays must therefore size and index them with one table it
 * holds (cptab_number(), cptab_current(), ...), and rebuild them when told
 * of a new table (cpt_register_notifier()).  Hotplug replacements keep the
 * number of partitions, so only a sysctl write can make cpt_current()
 * return an index beyond an array sized with an older table.
 *
 * CPU masks hold the members of a partition, online or offline: that is
 * what a thread bound to a partition should run on when its CPUs come back.
 * Weights count the members that are online (in the table's view, which
 * follows each CPU event before the event completes).
 *
 * A module that uses these functions keeps cpt loaded (rmmod cpt fails
 * while it is), so it must put every table it holds and unregister its
 * notifier before its own exit returns.
 *
 * CPT_ANY stands for the union of all partitions where a function takes a
 * partition; where a function returns a partition, CPT_ANY means "no
 * partition in particular".  It is no errno value (see its definition).
 */
#ifndef CPT_H
#define CPT_H

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/types.h>

/*
 * CPT_ANY: negative, so that a "cpt < 0" test still says "no partition in
 * particular or an error", but below -MAX_ERRNO, so that no -errno equals
 * it: a function that returns "a partition, CPT_ANY or -errno"
 * (cptab_of_cpu(), cpt_of_node(), ...) answers each unambiguously.  It was
 * -1, which is -EPERM.  Compare with CPT_ANY, never with -1; and loop over
 * partitions from 0, taking CPT_ANY on its own.
 */
#define CPT_ANY		(-MAX_ERRNO - 1)

/*
 * cpt's functions are exported in the symbol namespace "CPT": a module
 * that calls them says CPT_IMPORT_NS; once, at file scope, next to its
 * MODULE_LICENSE("GPL").  Without it modpost refuses to link the module
 * and the kernel refuses to load it.  (This is MODULE_IMPORT_NS(CPT) up
 * to 6.12 and MODULE_IMPORT_NS("CPT") from 6.13, written so that it is
 * the same on every kernel.)
 */
#define CPT_IMPORT_NS		MODULE_INFO(import_ns, "CPT")

/*
 * A partition table.  Opaque but for its head, struct cptab_lookup, which
 * the inline lookups cptab_current() and cptab_of_cpu() read so that they
 * cost a CPU number and an array load, not a call.  The head is no
 * interface of its own: read it only through those two functions.
 */
struct cptab;

/**
 * struct cptab_lookup - the first member of every struct cptab
 * @of_cpu: partition of each CPU, CPT_ANY for one in no partition
 *	(cptab_of_cpu())
 * @current_of_cpu: the same with every CPU in a partition, as
 *	cptab_current() answers (a CPU in no partition borrows one)
 * @nr_cpus: entries of both arrays, nr_cpu_ids
 *
 * Filled when the table is built and never changed, like the rest of it.
 */
struct cptab_lookup {
	const int *of_cpu;
	const int *current_of_cpu;
	unsigned int nr_cpus;
};

/**
 * cpt_get() - take a reference to the table in force
 *
 * Context: any context (RCU and an atomic increment).
 * Return: the table, to release with cpt_put(); never NULL while cpt is
 * loaded.
 */
struct cptab *cpt_get(void);

/**
 * cpt_hold() - take another reference to a table
 * @tab: a table the caller holds, or the table passed to a notifier
 *	 callback during that callback
 *
 * Return: @tab, to release with cpt_put().
 */
struct cptab *cpt_hold(struct cptab *tab);

/**
 * cpt_put() - release a reference
 * @tab: a table from cpt_get() or cpt_hold(), or NULL
 *
 * The caller must not use @tab, nor any mask it returned, afterwards.
 *
 * Context: any context; the memory is freed later, from a work item.
 */
void cpt_put(struct cptab *tab);

/**
 * cptab_generation() - sequence number of a table
 * @tab: a held table
 *
 * Starts at 1 at load time and grows by one each time a table with other
 * partitions is installed, so that a consumer can tell whether it has
 * already rebuilt for a table.  A table that only changes the values shown
 * in /proc (a cpu_npartitions that an explicit cpu_pattern overrides, "N"
 * on a single node) keeps the generation of the one it replaces, answers
 * every lookup as it does, and is not notified.
 *
 * Return: the generation of @tab.
 */
u64 cptab_generation(const struct cptab *tab);

/*
 * The lookups of one table.  Each takes a held table (or NULL, for which it
 * answers as for an invalid partition) and means what the function of the
 * same name without "tab" below says; but for cptab_current() and
 * cptab_of_cpu() further down, which are inline and take no NULL.
 */
int cptab_number(const struct cptab *tab);
int cptab_weight(const struct cptab *tab, int cpt);
bool cptab_online(const struct cptab *tab, int cpt);
const struct cpumask *cptab_cpumask(const struct cptab *tab, int cpt);
const nodemask_t *cptab_nodemask(const struct cptab *tab, int cpt);
int cptab_of_node(const struct cptab *tab, int node);
int cptab_distance(const struct cptab *tab, int cpt1, int cpt2);
int cptab_bind_current(const struct cptab *tab, int cpt);
int cptab_spread_node(struct cptab *tab, int cpt);

/**
 * cptab_current() - partition of the CPU the caller runs on, in a held table
 * @tab: a held table, not NULL
 *
 * As cpt_current(), but from @tab, which does not change while it is held:
 * the answer indexes an array sized with cptab_number(@tab), whatever
 * replacements happen meanwhile (during one, @tab answers as it did
 * before).  A raw CPU number and two loads, inline: unlike the cptab_*()
 * functions above, it does not check @tab for NULL.
 *
 * Context: any context.
 * Return: a partition of @tab, 0 .. cptab_number(@tab) - 1; never CPT_ANY.
 */
static inline int cptab_current(const struct cptab *tab)
{
	const struct cptab_lookup *lk = (const struct cptab_lookup *)tab;

	/* Any CPU will do if we migrate: the answer is advisory anyway. */
	return lk->current_of_cpu[(unsigned int)raw_smp_processor_id()];
}

/**
 * cptab_of_cpu() - partition of a CPU, in a held table
 * @tab: a held table, not NULL
 * @cpu: CPU id
 *
 * As cpt_of_cpu(), from @tab, which answers the same while it is held.
 * Inline, a bound check and two loads; @tab is not checked for NULL.
 *
 * Context: any context.
 * Return: the partition of @cpu in @tab, CPT_ANY when @cpu belongs to none,
 * or -EINVAL when @cpu is not below nr_cpu_ids.
 */
static inline int cptab_of_cpu(const struct cptab *tab, int cpu)
{
	const struct cptab_lookup *lk = (const struct cptab_lookup *)tab;

	if (unlikely((unsigned int)cpu >= lk->nr_cpus))
		return -EINVAL;
	return lk->of_cpu[cpu];
}

/* Notifier action: @data is the struct cptab now in force. */
#define CPT_TABLE_REPLACED	1

/**
 * cpt_register_notifier() - hear of table replacements
 * @nb: notifier block; @nb->notifier_call(nb, CPT_TABLE_REPLACED, tab)
 *
 * The callback runs in process context from cpt's workqueue, holding no
 * lock of cpt's nor the CPU hotplug lock: it may sleep, allocate, start and
 * stop threads, take cpus_read_lock() and call the functions of this file,
 * but for three, which fail there with a line in the kernel log:
 *
 * - cpt_register_notifier() and cpt_unregister_notifier() (-EDEADLK): the
 *   chain is locked while it calls back;
 * - cpt_bind_current() and cptab_bind_current() (-EPERM): current is cpt's
 *   worker, not a thread of the consumer; bind the consumer's threads from
 *   themselves (wake them to rebind, as after any replacement);
 * - and a cpt sysctl write fails with -EDEADLK, as it would wait for the
 *   notification that is running.
 *
 * @tab is valid during the callback; cpt_hold() it to keep it.  The table
 * the consumer used before stays valid until the consumer puts it.
 *
 * Notifications may be merged: after one or more replacements the callback
 * runs at least once, with a table at least as new as the last of them
 * (and may be the one in force already by the time it runs; compare
 * cptab_generation()).  A sysctl write returns once the callbacks for its
 * table have returned; a CPU event does not wait for them.
 *
 * Registering does not call back for the table in force: register first,
 * then cpt_get() the table to build from, so that no replacement is missed.
 *
 * Return: 0, -EDEADLK from a notifier callback, or what
 * blocking_notifier_chain_register() returns.
 */
int cpt_register_notifier(struct notifier_block *nb);

/**
 * cpt_unregister_notifier() - stop hearing of replacements
 * @nb: a registered notifier block
 *
 * Returns after any running callback of @nb has returned.
 *
 * Return: 0, -ENOENT when @nb was not registered, or -EDEADLK from a
 * notifier callback.
 */
int cpt_unregister_notifier(struct notifier_block *nb);

/**
 * cpt_number() - number of partitions
 *
 * Return: the number of partitions, at least 1.
 */
int cpt_number(void);

/**
 * cpt_weight() - number of online CPUs in a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Offline members are not counted.
 *
 * Return: the count (0 when every CPU of @cpt is offline), or -EINVAL when
 * @cpt is not a partition.
 */
int cpt_weight(int cpt);

/**
 * cpt_online() - whether a partition has an online CPU
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * A partition whose CPUs are all offline stays in the table (numbers do not
 * shift) and is reported offline here.
 *
 * Return: true when at least one CPU of @cpt is online; false when none is
 * or @cpt is not a partition.
 */
bool cpt_online(int cpt);

/**
 * cpt_cpumask() - CPUs of a partition, in the table in force
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * The mask holds every member of @cpt, online or offline.
 *
 * Context: the caller must hold rcu_read_lock(); the mask is valid until
 * rcu_read_unlock().  To keep a mask longer, hold a table and use
 * cptab_cpumask().
 * Return: the mask, or NULL when @cpt is not a partition.
 */
const struct cpumask *cpt_cpumask(int cpt);

/**
 * cpt_nodemask() - NUMA nodes of a partition, in the table in force
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * The nodes are those of the members, offline members counting with the
 * node they were last seen online on.
 *
 * Context: as cpt_cpumask().
 * Return: the mask, or NULL when @cpt is not a partition.
 */
const nodemask_t *cpt_nodemask(int cpt);

/**
 * struct cpt_percpu_id - cpt_cpu_partition, the partition of one CPU
 * @cpt: what cpt_current() answers on that CPU, const to consumers
 * @cptk_cpt: the same int, cpt's own: only cpt/linux/live.c writes it
 *
 * cpt_cpu_partition holds cptab_current() of the table in force, per
 * CPU; read it through cpt_current().  One type, declared here for every
 * file, cpt's own included.  @cpt is const, so that a module's
 * this_cpu_write() or per_cpu() = ... of it, or of the whole variable,
 * does not compile (make test-kbuild checks both); a const member, not a
 * const variable, since 7.x's per_cpu_ptr() strips the variable's own
 * qualifiers (TYPEOF_UNQUAL).  Its writer and cpt_current() use
 * @cptk_cpt, the same storage through a union, without a cast.
 *
 * ABI: exported with EXPORT_PER_CPU_SYMBOL_GPL(), which has no namespace
 * form, so its layout, one int at offset 0 read with one per-CPU load,
 * is part of the interface a consumer module is built against, as a
 * function's signature is: a change to it is an incompatible one.  A module
 * whose only call is cpt_current() links without CPT_IMPORT_NS; say it
 * anyway, as every function here needs it.
 */
struct cpt_percpu_id {
	union {
		const int cpt;
		int cptk_cpt;
	};
};

DECLARE_PER_CPU(struct cpt_percpu_id, cpt_cpu_partition);

/**
 * cpt_current() - partition of the CPU the caller runs on
 *
 * The answer may be stale as soon as it is returned, unless the caller
 * cannot migrate (preemption disabled, or bound with cpt_bind_current()).
 * It is one per-CPU read (this_cpu_read(), one mov from %gs on x86-64):
 * cpt keeps the partition of each CPU in the table in force in a per-CPU
 * variable.
 *
 * A CPU that belongs to no partition (excluded by cpu_pattern, or offline
 * since before the table was planned) is mapped to the partition that holds
 * its NUMA node, or, when there is none, to partition (cpu % number of
 * partitions), so that the result can always index a per-partition array
 * of the same table.  An offline CPU that had a partition keeps it.
 *
 * In a replacement, cpt publishes the new table, then writes the
 * per-CPU value of every possible CPU, one CPU at a time, then queues the
 * notification.  So between the publication and the notification,
 * cpt_current() may answer from the old table or from the new one (each
 * CPU switches once, and never back), and may disagree with cpt_number()
 * or cpt_of_cpu(), which answer from the new one.  Nothing orders the
 * per-CPU value against the table pointer for a reader: on a weakly
 * ordered CPU (arm64, POWER) a caller may also see cpt_current() answer
 * from the new table while cpt_number() still answers from the old one.
 * Only the notification orders them (queue_work() orders the writes
 * before the work): code that synchronizes with a callback of
 * cpt_register_notifier() for a table (takes a lock the callback took,
 * or reads with acquire what it published) then sees cpt_current()
 * answer from that table or a later one.  The callbacks of
 * cpt_register_notifier() run after every CPU has switched, and a sysctl
 * write returns after them.  Hotplug replacements keep the partition of
 * every placed CPU, so for them both answers agree.  A consumer whose
 * arrays are sized for one table uses cptab_current() of that table, or
 * checks the answer against its count.
 *
 * Context: any context.
 * Return: a partition, 0 .. cpt_number() - 1 (of the old or the new table
 * during a replacement, see above); never CPT_ANY.
 */
static inline int cpt_current(void)
{
	/*
	 * Through the writable member: up to 6.12, this_cpu_read() assigns
	 * to a temporary of typeof() its variable, which cannot be const.
	 */
	return this_cpu_read(cpt_cpu_partition.cptk_cpt);
}

/**
 * cpt_of_cpu() - partition of a CPU
 * @cpu: CPU id
 *
 * An offline CPU keeps its partition.  A CPU that has none (offline when
 * the table was planned, or excluded by cpu_pattern) may get one when it
 * comes online, in a new table: the partition of an online SMT sibling,
 * else the one with the fewest online CPUs in its L3 domain, else on its
 * node, else on the nearest node.  CPUs excluded by cpu_pattern never do.
 *
 * Return: the partition of @cpu, CPT_ANY when @cpu belongs to none, or
 * -EINVAL when @cpu is not below nr_cpu_ids.
 */
int cpt_of_cpu(int cpu);

/**
 * cpt_of_node() - partition of a NUMA node
 * @node: node id
 *
 * Return: the lowest partition whose node mask holds @node, CPT_ANY when
 * none does (a node without CPUs, or with none placed), or -EINVAL when
 * @node is negative or not below nr_node_ids.
 */
int cpt_of_node(int node);

/**
 * cpt_distance() - NUMA distance between two partitions
 * @cpt1: partition, or CPT_ANY
 * @cpt2: partition, or CPT_ANY
 *
 * The distance of two partitions is the largest node_distance() between
 * their nodes, as in /proc/sys/lnet/cpu_partition_distance; CPT_ANY takes
 * the largest over all partitions.  It is symmetric, and at least
 * LOCAL_DISTANCE (10).
 *
 * Return: the distance, or -EINVAL when an argument is not a partition.
 */
int cpt_distance(int cpt1, int cpt2);

/**
 * cpt_bind_current() - run the current task on the CPUs of a partition
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Sets the CPU affinity of current to the members of @cpt (offline ones
 * included: the task may use them again when they return); the task
 * migrates before this returns, onto an online CPU of @cpt: the change is
 * made under the CPU hotplug lock, so no CPU is on its way down
 * meanwhile.  When every member goes offline later, the
 * scheduler moves the task elsewhere and it stays unbound: bind it again
 * when told of the next table.  The memory policy is left alone: the
 * kernel exports no interface to change it, and the default (local) policy
 * already allocates from the node of the CPU the task runs on, which is one
 * of the partition's nodes (or its nearest node with memory).
 *
 * Context: process context, may sleep; not from a notifier callback.
 * Takes cpus_read_lock(): the caller must hold no lock that a CPU hotplug
 * callback of its own (or any hotplug callback) takes, or a CPU offline
 * deadlocks against it.  Not from the body of a pool's thread
 * (cpt_threads_start()): those carry PF_NO_SETAFFINITY, and a ported
 * service thread that binds itself gets -EINVAL; cpt binds them already.
 * Return: 0, -EINVAL when @cpt is not a partition or for a task whose
 * affinity is fixed (PF_NO_SETAFFINITY: a workqueue worker, such as a
 * work item of system_wq runs in, or a kthread bound to a CPU, such as
 * cpuhp/N; refused with a log line, the mask unchanged), -EPERM from a
 * notifier callback, or what set_cpus_allowed_ptr() returns (-EINVAL when
 * no member is online).
 */
int cpt_bind_current(int cpt);

/**
 * cpt_spread_node() - next node of a partition, round robin
 * @cpt: partition, or CPT_ANY for all partitions together
 *
 * Successive calls cycle through the nodes of the partition, for spreading
 * allocations (kmalloc_node() and friends) over them.  Each partition of
 * each table has its own rotor; concurrent callers may get the same node.
 *
 * Return: a node id of the partition's node mask (never MAX_NUMNODES), or
 * -EINVAL when @cpt is not a partition.  A partition always has a node;
 * were one found without (a cpt bug, with a WARN), the answer would be
 * NUMA_NO_NODE, which kmalloc_node() takes as any node.  So a caller that
 * checks for -EINVAL alone never hands an errno to the allocator.
 */
int cpt_spread_node(int cpt);

/**
 * DOC: Per-partition memory
 *
 * A service keeps one object per partition (a request queue, a counter, a
 * pool) and wants each on the memory of its partition.  cpt_percpt_alloc()
 * makes them for one held table: cptab_number(@tab) objects, object @cpt on
 * a node of partition @cpt.  The count is fixed by that table, for the
 * life of the array; the objects do not move.
 *
 * Index the array with a partition of that table: cptab_current() or
 * cptab_of_cpu() of the same table, or a loop over cpt_percpt_number().
 * cpt_current() answers from the table in force, which may have another
 * count after a sysctl write; cpt_percpt_obj() returns NULL for a
 * partition the array does not have, so check it, or look up in the table
 * the array was made for.
 *
 * When the notifier (cpt_register_notifier()) announces a table:
 *
 * - with the same count (always so for CPU hotplug): the array stays valid
 *   and may be kept.  A sysctl write that keeps the count may still move
 *   CPUs and nodes between partitions; allocate a new array for the new
 *   table when the placement of the memory matters;
 * - with another count: allocate a new array with cpt_percpt_alloc() of
 *   the new table, move or rebuild the contents, publish it to the users
 *   (RCU, or a lock of the consumer's), and cpt_percpt_free() the old one
 *   once no user can reach it.  Keep the table it was made for held as
 *   long as the array indexes with it.
 */

/**
 * struct cpt_percpt - an object per partition (cpt_percpt_alloc())
 * @count: number of objects: cptab_number() of the table it was made for
 * @generation: cptab_generation() of that table
 * @obj: the objects, @obj[cpt] on a node of partition @cpt
 *
 * Read-only for the consumer; use the accessors below.
 */
struct cpt_percpt {
	int count;
	u64 generation;
	void *obj[];
};

/**
 * cpt_percpt_alloc() - allocate one zeroed object per partition of a table
 * @tab: a held table; the array gets cptab_number(@tab) objects
 * @size: bytes of each object (kvmalloc(): a large one may be vmalloc'ed)
 *
 * Object @cpt is allocated on the first node of cptab_nodemask(@tab, @cpt)
 * that has memory (or its first node, from which the allocator falls back
 * to the nearest node with memory, when none has).  The array does not
 * hold @tab.
 *
 * Context: process context, may sleep (GFP_KERNEL).
 * Return: the array, to free with cpt_percpt_free(); ERR_PTR(-EINVAL)
 * when @tab is NULL or @size is 0, ERR_PTR(-ENOMEM) when out of memory
 * (nothing is left allocated).
 */
struct cpt_percpt *cpt_percpt_alloc(const struct cptab *tab, size_t size);

/**
 * cpt_percpt_free() - free an array and its objects
 * @pc: from cpt_percpt_alloc(), or NULL or an ERR_PTR (nothing is done)
 *
 * Context: process context (kvfree()).
 */
void cpt_percpt_free(struct cpt_percpt *pc);

/**
 * cpt_percpt_number() - number of objects of an array
 * @pc: an array
 *
 * Return: cptab_number() of the table @pc was made for.
 */
static inline int cpt_percpt_number(const struct cpt_percpt *pc)
{
	return pc->count;
}

/**
 * cpt_percpt_obj() - object of a partition
 * @pc: an array
 * @cpt: partition of the table @pc was made for
 *
 * Return: the object, or NULL when @cpt is not below cpt_percpt_number().
 */
static inline void *cpt_percpt_obj(const struct cpt_percpt *pc, int cpt)
{
	return (unsigned int)cpt < (unsigned int)pc->count ? pc->obj[cpt] :
							      NULL;
}

/**
 * cpt_percpt_for_each() - loop over the objects of an array
 * @ptr: a pointer variable, set to each object in turn
 * @cpt: an int variable, set to each partition in turn
 * @pc: the array
 */
#define cpt_percpt_for_each(ptr, cpt, pc)				\
	for ((cpt) = 0; (cpt) < (pc)->count &&				\
	     (((ptr) = (pc)->obj[(cpt)]), 1); (cpt)++)

/**
 * DOC: Per-partition locks
 *
 * A struct cpt_lock is one mutex per partition of a table, each alone in
 * its cache line on its partition's node (a struct cpt_percpt of them),
 * plus an exclusive mode that takes all of them.  cpt_lock(@lk, @cpt)
 * takes the lock of one partition: threads of different partitions never
 * touch a shared cache line.  cpt_lock(@lk, CPT_ANY) is the exclusive
 * mode: it takes every partition's lock, in ascending order, under an
 * outer mutex, and so waits for every holder and excludes everyone.
 *
 * Use it instead of one global lock when the data it protects is split by
 * partition (a queue or a list per partition, reached from the CPU that
 * serves it), the common path touches only its own partition, and the
 * paths that need everything (a reconfiguration, a walk of all queues)
 * are rare: the exclusive mode costs a lock per partition.  When most
 * paths need all the data, or the sections are rare anyway, a plain mutex
 * is cheaper and simpler.
 *
 * They are mutexes: process context only, sections may sleep, and they
 * are sleeping locks with priority inheritance on PREEMPT_RT as anywhere
 * else.  Each struct cpt_lock has two lockdep classes of its own, one for
 * its partition locks and one for its outer mutex, whatever the call site
 * that made it: two locks made by one helper can be held together (in
 * one order, as lockdep then checks), and what lockdep learnt of a freed
 * lock does not carry over to the next one.  The exclusive mode takes the
 * partition locks with mutex_lock_nest_lock() under the outer one, so
 * that lockdep counts them as one held lock whatever the count (up to
 * 256, beyond its 8 subclasses and 48 held locks).  A thread holds at most
 * one partition's lock of one struct cpt_lock at a time, or the exclusive
 * mode; never a partition's lock inside the exclusive mode of the same
 * struct cpt_lock.
 *
 * To lock the partition the caller runs on, use cpt_lock_current(), which
 * reads cpt_current() once and returns the index it locked, for
 * cpt_unlock().  Never write cpt_lock(@lk, cpt_current()) ...
 * cpt_unlock(@lk, cpt_current()): the task may migrate to a CPU of another
 * partition while it holds the lock, and the second cpt_current() then
 * names another partition's mutex, which the unlock would release while
 * the one taken stays held.
 *
 * The count is fixed by the table the lock was made for, as for
 * struct cpt_percpt.  A @cpt that the lock does not have (a cpt_current()
 * from a newer table with more partitions) takes the lock of partition
 * (@cpt modulo the count), so that mutual exclusion holds for any
 * non-negative int; pass the same @cpt to cpt_unlock().  A negative @cpt
 * other than CPT_ANY (libcfs's CFS_CPT_ANY is -1, which code ported from
 * libcfs passes for its exclusive mode) is a misuse: cpt_lock() takes the
 * exclusive mode for it, never less exclusion than the caller may have
 * meant, with a log line (rate-limited) naming the caller, and
 * cpt_unlock() with the same @cpt releases the exclusive mode.  When the notifier announces a table
 * with another count, make a lock for it, move the protected data under
 * the exclusive mode of both, and free the old lock once no one can reach
 * it.
 */

/**
 * struct cpt_lock - a lock per partition and an exclusive mode
 * @part: one struct cpt_lock_part per partition, on its node
 * @excl: the outer mutex of the exclusive mode
 * @part_key: lockdep class of the partition locks (empty without lockdep)
 * @excl_key: lockdep class of @excl
 * @node: on cpt's list of locks, for /proc/cpt/stats
 * @site: where cpt_lock_alloc() was called, which names the lock there
 * @excl_holds: exclusive holds so far (under @excl)
 * @excl_ns: their total time, in ns (under @excl)
 * @excl_since: when the exclusive hold in progress began (under @excl)
 *
 * Read-only for the consumer, through the functions below.
 */
struct cpt_lock {
	struct cpt_percpt *part;
	struct mutex excl;
	struct lock_class_key part_key;
	struct lock_class_key excl_key;
	struct list_head node;
	unsigned long site;
	u64 excl_holds;
	u64 excl_ns;
	u64 excl_since;
};

/**
 * struct cpt_lock_part - the lock of one partition
 * @mutex: the lock
 * @holds: how often it was taken for this partition alone (under @mutex,
 *	   in the cache line its holder has just written: no shared line)
 *
 * Each is its own allocation of a power of two of at least a cache line,
 * which kmalloc aligns to its size: nothing else shares its cache line.
 */
struct cpt_lock_part {
	struct mutex mutex;
	u64 holds;
};

/**
 * cpt_lock_alloc() - make a lock per partition of a table
 * @tab: a held table; the lock gets cptab_number(@tab) partitions
 *
 * Context: process context, may sleep.
 * Return: the lock, to free with cpt_lock_free(); ERR_PTR(-EINVAL) when
 * @tab is NULL, ERR_PTR(-ENOMEM).
 */
struct cpt_lock *cpt_lock_alloc(const struct cptab *tab);

/**
 * cpt_lock_free() - free a lock nobody holds
 * @lk: from cpt_lock_alloc(), or NULL or an ERR_PTR (nothing is done)
 *
 * Context: process context, may sleep (with lockdep, it waits for RCU
 * grace periods).
 */
void cpt_lock_free(struct cpt_lock *lk);

/**
 * cpt_lock_number() - number of partitions of a lock
 * @lk: a lock
 *
 * Return: cptab_number() of the table @lk was made for.
 */
static inline int cpt_lock_number(const struct cpt_lock *lk)
{
	return cpt_percpt_number(lk->part);
}

/**
 * cpt_lock() - take the lock of a partition, or all of them
 * @lk: the lock
 * @cpt: a partition (modulo the count, see above), or CPT_ANY for the
 *	 exclusive mode (any other negative value too, with a log line)
 *
 * For the partition of the CPU the caller runs on, use cpt_lock_current()
 * instead: cpt_lock(@lk, cpt_current()) invites a second cpt_current()
 * at unlock time, which may name another partition by then.
 *
 * Context: process context, may sleep.
 */
void cpt_lock(struct cpt_lock *lk, int cpt) __acquires(lk);

/**
 * cpt_lock_current() - take the lock of the caller's partition
 * @lk: the lock
 *
 * Takes the lock of cpt_current() (modulo the count, see above), reading
 * cpt_current() once.  The task may migrate anywhere while it holds the
 * lock; it releases with cpt_unlock(@lk, returned index), which releases
 * the mutex taken here, whatever cpt_current() says by then:
 *
 *	cpt = cpt_lock_current(lk);
 *	q = cpt_percpt_obj(queues, cpt);	(an array of the lock's table)
 *	...
 *	cpt_unlock(lk, cpt);
 *
 * Context: process context, may sleep.
 * Return: the index locked, 0 .. cpt_lock_number(@lk) - 1: cpt_current()
 * modulo the count, so that it also indexes a struct cpt_percpt of the
 * table @lk was made for; never CPT_ANY.
 */
int cpt_lock_current(struct cpt_lock *lk) __acquires(lk);

/**
 * cpt_unlock() - release what cpt_lock() or cpt_lock_current() took
 * @lk: the lock
 * @cpt: the @cpt given to cpt_lock(), or what cpt_lock_current() returned
 *
 * Context: the task that took it.
 */
void cpt_unlock(struct cpt_lock *lk, int cpt) __releases(lk);

/**
 * DOC: Per-partition thread pools
 *
 * cpt_threads_start() starts @per_cpt kthreads per partition of a table,
 * each bound to the online CPUs of its partition before it first runs,
 * each running @fn(@data, its partition), which must return when
 * kthread_should_stop() says so.  cpt_threads_stop() stops and frees them.
 * Their affinity is cpt's (PF_NO_SETAFFINITY, as for a workqueue's
 * workers: taskset cannot change it).  Their stacks come from any node:
 * newer kernels rebind a kthread created on a node to that node at every
 * CPU online, which would move the threads off their partition.
 *
 * The threads follow the table, and every binding is made under the CPU
 * hotplug lock, as the scheduler wants.  A CPU event rebinds them from
 * cpt's own hotplug callback: a CPU going down is left by its threads
 * before the scheduler empties it, and a CPU coming back gets them again.
 * A sysctl write that keeps the count rebinds them before the notifier
 * callbacks of the new table run.  Either way, every pool made for a table
 * with the same count moves to the new table's partitions;
 * cpt_threads_generation() then says the new table's generation, and
 * never goes back: a pool never moves to a table older than its own.  A
 * pool made for a table with another count stays bound to that table,
 * which it holds: the consumer, told by its notifier, starts a pool for
 * the new table and stops the old one (both may be called from a
 * notifier callback).  Until then, and when cpt could not plan the table
 * for a CPU event (no memory), a CPU going down is still left by every
 * pool's threads, for the other CPUs of the pool's own table: never an
 * isolated CPU, never one the table leaves out.
 *
 * A partition whose CPUs are all offline cannot hold its threads: when
 * the last one goes they move to the table's other CPUs, and they run
 * there, unbound, until a CPU of the partition comes back and rebinds
 * them.  cpt_threads_unbound() counts them, and the
 * first binding that leaves threads unbound says so in the kernel log.
 * Nothing is left unbound silently.
 *
 * cpt_threads_start_cpus() sizes each partition's share by its CPUs
 * instead: @per_cpu threads for each member CPU, as a service that runs a
 * thread per CPU does; they are bound to the whole partition, like the
 * others, so that a CPU going offline leaves its threads running on the
 * partition's other CPUs.  The shares are those of the table the pool
 * started on: a new table with the same count that gives a partition
 * more or fewer CPUs (a sysctl write; CPU events never move a placed CPU)
 * rebinds the threads with their old shares.  A consumer that wants the
 * new shares starts a pool for the new table from its notifier callback
 * and stops the old one.
 *
 * For a queue of work items per partition, see cpt_workers_start().
 */
struct cpt_threads;

/**
 * cpt_threads_start() - start threads per partition, bound to it
 * @tab: a held table; the pool has cptab_number(@tab) * @per_cpt threads
 * @per_cpt: threads per partition, 1 to 1024
 * @fn: the thread function, called with @data and the thread's partition
 * @data: passed to @fn
 * @name: the threads' name, "@name/CPT.I"
 *
 * When a newer table with the same count is in force already, the pool
 * binds to it.  The pool holds the table it is bound to.
 *
 * The threads carry PF_NO_SETAFFINITY: @fn must not change its own
 * affinity (cpt_bind_current() and set_cpus_allowed_ptr() return -EINVAL
 * there), as cpt binds and rebinds them.
 *
 * Context: process context, may sleep; also from a notifier callback.
 * Takes cpus_read_lock(): not with a lock held that a CPU hotplug
 * callback takes, or a CPU offline deadlocks against it.
 * Return: the pool, or ERR_PTR(-EINVAL) for a bad argument, or the errno
 * of a failed allocation or kthread creation (nothing is left running).
 */
struct cpt_threads *cpt_threads_start(struct cptab *tab, int per_cpt,
				      int (*fn)(void *data, int cpt),
				      void *data, const char *name);

/**
 * cpt_threads_start_cpus() - start threads per CPU of each partition
 * @tab: a held table
 * @per_cpu: threads per CPU, 1 to 64: partition @cpt gets @per_cpu times
 *	     the weight of cptab_cpumask(@tab, @cpt) (its members, online or
 *	     not when the pool starts: the count does not change with hotplug)
 * @fn: the thread function, called with @data and the thread's partition
 * @data: passed to @fn
 * @name: the threads' name, "@name/CPT.I"
 *
 * As cpt_threads_start() in every other way: each thread is bound to all
 * the CPUs of its partition, not to one CPU, and follows the table; its
 * threads carry PF_NO_SETAFFINITY too.
 *
 * Context: process context, may sleep; also from a notifier callback.
 * Takes cpus_read_lock(), as cpt_threads_start().
 * Return: the pool, or ERR_PTR(-EINVAL) for a bad argument, or the errno
 * of a failed allocation or kthread creation (nothing is left running).
 */
struct cpt_threads *cpt_threads_start_cpus(struct cptab *tab, int per_cpu,
					   int (*fn)(void *data, int cpt),
					   void *data, const char *name);

/**
 * cpt_threads_stop() - stop a pool's threads and free it
 * @ts: from cpt_threads_start(), or NULL or an ERR_PTR (nothing is done)
 *
 * Returns once every thread has returned from @fn.
 *
 * Context: process context, may sleep; also from a notifier callback.
 */
void cpt_threads_stop(struct cpt_threads *ts);

/**
 * cpt_threads_generation() - the generation a pool is bound to
 * @ts: a pool
 *
 * Return: cptab_generation() of the table its threads are bound to.
 */
u64 cpt_threads_generation(struct cpt_threads *ts);

/**
 * cpt_threads_unbound() - threads whose partition has no online CPU
 * @ts: a pool
 *
 * Return: how many threads could not be bound at the last binding.
 */
int cpt_threads_unbound(struct cpt_threads *ts);

/**
 * DOC: Per-partition work queues
 *
 * cpt_workers_start() makes one kthread_worker per partition of a table:
 * the struct kthread_worker on its partition's node, its thread a pool of
 * cpt_threads_start() with one thread per partition, so that it is bound
 * to the partition's CPUs and follows the table as every pool does
 * (rebound on CPU hotplug; unbound, and still running its works, while the
 * partition has no online CPU).  The works of one partition run one at a
 * time, in the order they were queued.
 *
 * cpt_queue_work() queues a kthread_work on a partition's worker;
 * cpt_worker_of() gives the worker itself, for the rest of the
 * kthread_worker interface (kthread_queue_delayed_work(),
 * kthread_cancel_work_sync(), ...).  As for cpt_lock(), any int names a
 * worker, modulo the count, so that a cpt_current() of a newer table with
 * more partitions still queues somewhere; the count is fixed by the table
 * the workers were made for, and when the notifier announces a table with
 * another count, start workers for it, queue new works there, and stop the
 * old ones.
 *
 * This is the per-partition workqueue that modules cannot make otherwise:
 * a workqueue's CPUs are set by apply_workqueue_attrs(), which is not
 * exported on 6.1 or 6.12.
 */
struct cpt_workers;
struct kthread_work;
struct kthread_worker;

/**
 * cpt_workers_start() - start a kthread_worker per partition of a table
 * @tab: a held table; one worker per partition, cptab_number(@tab)
 * @name: the threads' name, "@name/CPT.0"
 *
 * Context: process context, may sleep; also from a notifier callback.
 * Return: the workers, to stop with cpt_workers_stop(); ERR_PTR(-EINVAL)
 * when @tab or @name is NULL, or the errno of a failed allocation or
 * kthread creation (nothing is left running).
 */
struct cpt_workers *cpt_workers_start(struct cptab *tab, const char *name);

/**
 * cpt_workers_number() - number of workers
 * @w: the workers
 *
 * Return: cptab_number() of the table @w was made for.
 */
int cpt_workers_number(const struct cpt_workers *w);

/**
 * cpt_worker_of() - the kthread_worker of a partition
 * @w: the workers
 * @cpt: a partition (modulo the count, see above)
 *
 * @cpt may also be CPT_ANY: the worker of the caller's partition, as for
 * cpt_queue_work(); any other negative @cpt is refused, with a log line.
 *
 * Return: the worker, valid until cpt_workers_stop(@w); NULL for a
 * refused @cpt.
 */
struct kthread_worker *cpt_worker_of(struct cpt_workers *w, int cpt);

/**
 * cpt_queue_work() - queue a work on a partition's worker
 * @w: the workers
 * @cpt: a partition (modulo the count, see above)
 * @work: initialized with kthread_init_work()
 *
 * @cpt may also be CPT_ANY: the worker of the caller's partition,
 * cpt_current() modulo the count.  Any other negative @cpt (libcfs's -1)
 * is refused: nothing is queued, and a log line (rate-limited) names the
 * caller.
 *
 * Context: any context (kthread_queue_work()).
 * Return: true when queued, false when @work was pending already or @cpt
 * was refused.
 */
bool cpt_queue_work(struct cpt_workers *w, int cpt, struct kthread_work *work);

/**
 * cpt_workers_flush() - wait for the works queued so far
 * @w: the workers
 *
 * Returns once every work queued on any of the workers before the call has
 * run.
 *
 * Context: process context, may sleep.
 */
void cpt_workers_flush(struct cpt_workers *w);

/**
 * cpt_workers_stop() - run the pending works, stop the workers, free them
 * @w: from cpt_workers_start(), or NULL or an ERR_PTR (nothing is done)
 *
 * The works queued before the call run first.  A delayed work queued with
 * kthread_queue_delayed_work() on cpt_worker_of() whose timer has not
 * fired is cancelled, as kthread_cancel_delayed_work_sync() would; one
 * whose timer is firing runs.  No work of @w runs once this returns.  The
 * caller must queue no more (nor re-arm delayed works) once it calls
 * this; a cancelled or run work may be freed or queued elsewhere then.
 *
 * Context: process context, may sleep; also from a notifier callback.
 */
void cpt_workers_stop(struct cpt_workers *w);

#endif /* CPT_H */
