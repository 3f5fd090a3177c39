#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of tests/fuzz/fuzz_plan.c into tests/fuzz/corpus/.

Each seed is the 24-byte header that fuzz_plan.c decodes into a machine,
an npartitions value and a hotplug script, followed by a cpu_pattern.  The
seeds cover the pattern syntax of doc/planner.md (lists, ranges, strides,
'*', N, node lists, X, C, whitespace, limits) and its error cases, on a few
machine shapes.  File names are "<machine>-<n>-<what>", stable, so that a
rerun rewrites the same files:

    tests/fuzz/gen-corpus.py [DIR]
"""
import os
import re
import struct
import sys

HDR = 24

# npartitions selectors (byte 13): see decode_np() in fuzz_plan.c
NP_ZERO = 0x00


def np_small(n):
    """npartitions = n for 0 <= n < 32."""
    return 0x40 | n


def np_neg(n):
    """npartitions = -n for 1 <= n <= 32."""
    return 0xa0 | (n - 1)


NP_RAW = 0xc0           # le32 at bytes 14-17
NP_INT_MIN = 0xe0
NP_INT_MAX = 0xe1
NP_CPUS_PLUS1 = 0xe9    # nr_cpus + 1


def header(cpus, nodes=1, cores=0, threads=1, llc=0, per_llc=4, placement=0,
           memonly=0, offline_nodes=0, offline_cpus=0, dist=0, flags=0,
           np=NP_ZERO, np_raw=0, pmode=0, rounds=0, seed=1):
    assert 1 <= cpus <= 300 and 1 <= nodes <= 8
    if cpus <= 48:
        raw = cpus - 1                      # small form: byte0 % 48
    else:
        raw = 0x8000                        # big form: le16 % 300
        raw += ((cpus - 1) - raw) % 300
    b = struct.pack('<H', raw)
    b += bytes([nodes - 1, cores, threads - 1, llc, per_llc - 1, placement,
                memonly, offline_nodes, offline_cpus, dist, flags, np])
    b += struct.pack('<i', np_raw)
    b += bytes([pmode, rounds])
    b += struct.pack('<I', seed)
    assert len(b) == HDR
    return b


# Machine shapes (keyword arguments of header()).
MACHINES = {
    # Xeon 8160: 24 cores x 2, CPU i and i+24 siblings, one node
    'xeon': dict(cpus=48, cores=1, threads=2),
    # 2 nodes, QEMU numbering (siblings 2k, 2k+1), L3 per 4 cores
    'qemu2': dict(cpus=32, nodes=2, cores=2, threads=2, llc=1, per_llc=4),
    # 4 nodes round robin, SMT4, L3 keys huge, asymmetric distances
    'quad': dict(cpus=40, nodes=4, cores=2, threads=4, llc=3, per_llc=2,
                 placement=1, dist=2),
    # holes: CPUs offline, garbage in their fields, hotplug
    'holes': dict(cpus=20, nodes=2, cores=2, threads=2, offline_cpus=4,
                  flags=0x01, rounds=3),
    # 8 nodes: node 1 memory only, node 3 offline, random distances
    'memonly': dict(cpus=24, nodes=8, cores=0, memonly=0x02,
                    offline_nodes=0x08, dist=1, rounds=2),
    # 300 CPUs, 8 nodes, Intel numbering, L3 per 8 cores
    'big': dict(cpus=300, nodes=8, cores=1, threads=2, llc=1, per_llc=8),
    # random core and L3 keys, random nodes, hot-add onto new nodes
    'chaos': dict(cpus=37, nodes=5, cores=3, llc=4, placement=2,
                  offline_cpus=3, dist=3, flags=0x05 | 0x08, rounds=4),
    # tiny: one CPU, one node
    'one': dict(cpus=1),
}

# (machine, pattern, extra header fields, what)
SEEDS = [
    # default layout and npartitions
    ('xeon', b'', {}, 'default'),
    ('xeon', b'', {'np': np_small(5)}, 'np5'),
    ('xeon', b'', {'np': np_small(30)}, 'np30-split'),
    ('xeon', b'', {'np': NP_CPUS_PLUS1}, 'np-too-many'),
    ('xeon', b'', {'np': np_neg(1)}, 'np-negative'),
    ('xeon', b'', {'np': NP_INT_MIN}, 'np-int-min'),
    ('xeon', b'', {'np': NP_INT_MAX}, 'np-int-max'),
    ('quad', b'', {'np': np_small(3)}, 'np3-group-nodes'),
    ('quad', b'', {'np': np_small(17)}, 'np17'),
    ('big', b'', {}, 'default'),
    ('big', b'', {'np': NP_RAW, 'np_raw': 256}, 'np256'),
    ('big', b'', {'np': NP_RAW, 'np_raw': 300, 'rounds': 2}, 'np300'),
    ('holes', b'', {}, 'default-hotplug'),
    ('memonly', b'', {'np': np_small(2)}, 'np2'),
    ('chaos', b'', {}, 'default'),
    ('one', b'', {}, 'default'),
    ('one', b'', {'np': np_small(2)}, 'np2'),
    ('xeon', b'', {'pmode': 5}, 'null-pattern'),
    ('xeon', b' \t\n', {}, 'blank'),
    ('xeon', b'', {'flags': 0x20}, 'no-err'),
    ('xeon', b'', {'flags': 0x10}, 'bad-core'),
    ('quad', b'', {'flags': 0x40}, 'bad-node'),
    ('quad', b'', {'flags': 0x02, 'offline_nodes': 0x02}, 'inconsistent'),
    # explicit lists
    ('xeon', b'0[0-3] 1[4-7]', {}, 'lists'),
    ('xeon', b'0[0,2,4] 1[1,3,5]', {}, 'commas'),
    ('xeon', b'0[0-47/2] 1[1-47/2]', {}, 'strides'),
    ('xeon', b'1[4-7] 0[0-3]', {}, 'any-order'),
    ('xeon', b'0[*]', {}, 'star'),
    ('xeon', b'0[0-3] 1[4-7]', {'np': np_small(4)}, 'np-ignored'),
    ('holes', b'0[*]', {}, 'star-hotplug'),
    ('qemu2', b'0[0-15] 1[16-31]', {'rounds': 3}, 'halves-hotplug'),
    ('xeon', b' \t\n0 [ 0 - 3 / 1 , 5 ]\n 1[\t6\t]\n', {}, 'whitespace'),
    ('big', b'0[0-149] 1[150-299]', {}, 'halves'),
    ('big', b'0[0-299/3] 1[1-299/3] 2[2-299/3]', {}, 'thirds'),
    # N and node lists
    ('qemu2', b'N', {}, 'N'),
    ('qemu2', b'N', {'np': np_small(4)}, 'N-np'),
    ('xeon', b'N', {'np': np_small(6)}, 'N-single-node'),
    ('qemu2', b'N 0[0] 1[1]', {}, 'N-lists'),
    ('qemu2', b'N 0[0,1]', {}, 'N-both'),
    ('quad', b'N 0[*]', {}, 'N-star'),
    ('quad', b'N 0[0-3/2] 1[1,3]', {'rounds': 2}, 'N-stride'),
    ('memonly', b'N', {}, 'N-memonly'),
    ('memonly', b'N 0[0] 1[2]', {}, 'N-lists'),
    ('quad', b'N X[0-3]', {}, 'N-X'),
    # X and C
    ('xeon', b'X[0]', {}, 'X'),
    ('xeon', b'X[0-3] C[1]', {}, 'X-C'),
    ('xeon', b'C[0,2]', {}, 'C'),
    ('xeon', b'X[24]', {'rounds': 2, 'offline_cpus': 2}, 'X-sibling'),
    ('holes', b'X[4,5]', {}, 'X-offline'),
    ('xeon', b'0[0-3]X[4]', {}, 'list-X'),
    ('xeon', b'0[0-7] C[0]', {}, 'list-C'),
    ('qemu2', b'C[0-15]', {}, 'C-all-but'),
    ('xeon', b'X[*]', {}, 'X-star'),
    ('xeon', b'X[0-46]', {}, 'X-all-but-one'),
    # long patterns
    ('xeon', b'0[0]', {'pmode': 6 | (1 << 3)}, 'padded-4096'),
    ('xeon', b'0[0]', {'pmode': 6 | (2 << 3)}, 'padded-4097'),
    ('xeon', b'X[0]', {'pmode': 7 | (0 << 3)}, 'repeated-4095'),
    ('xeon', b'0[0-47],', {'pmode': 7 | (3 << 3)}, 'repeated-5000'),
    ('xeon', b'', {'pmode': 6 | (1 << 3)}, 'blank-4096'),
    # errors
    ('xeon', b'0x1[0]', {}, 'hex'),
    ('xeon', b'0[01]', {}, 'octal'),
    ('xeon', b'0[0', {}, 'no-close'),
    ('xeon', b'0 0]', {}, 'no-open'),
    ('xeon', b'0[]', {}, 'empty-list'),
    ('xeon', b'0[5-3]', {}, 'reversed'),
    ('xeon', b'0[0-4/0]', {}, 'zero-stride'),
    ('xeon', b'0[0] 0[1]', {}, 'dup-id'),
    ('xeon', b'1[0]', {}, 'missing-id'),
    ('xeon', b'0[0] 1[0]', {}, 'cpu-twice'),
    ('xeon', b'0[0,0]', {}, 'cpu-listed-twice'),
    ('qemu2', b'N N', {}, 'N-twice'),
    ('qemu2', b'0[0] N', {}, 'N-late'),
    ('xeon', b'0[48]', {}, 'no-such-cpu'),
    ('xeon', b'0[99999]', {}, 'far-cpu'),
    ('xeon', b'0[2147483647]', {}, 'int-max'),
    ('xeon', b'0[2147483648]', {}, 'overflow'),
    ('xeon', b'0[0-2147483647]', {}, 'huge-range'),
    ('xeon', b'0[0-3/4294967296]', {}, 'huge-stride'),
    ('xeon', b'C[*]', {}, 'C-star'),
    ('xeon', b'C[48]', {}, 'C-no-core'),
    ('xeon', b'C[30]', {}, 'C-beyond-cores'),
    ('xeon', b'\r0[0]', {}, 'cr'),
    ('xeon', b'0[0]]', {}, 'trailing'),
    ('xeon', b'0[0],', {}, 'trailing-comma'),
    ('xeon', b'0[0,]', {}, 'dangling-comma'),
    ('xeon', b'0[-1]', {}, 'negative'),
    ('qemu2', b'N 0[7]', {}, 'N-no-node'),
    ('memonly', b'N 0[1]', {}, 'N-memonly-node'),
    ('memonly', b'N 0[3]', {}, 'N-offline-node'),
    ('holes', b'0[4]', {}, 'offline-cpu'),
    ('xeon', b'abc', {}, 'letters'),
    ('xeon', b'0[0]\xff\x80', {}, 'non-ascii'),
    ('xeon', b'0[0]\x00 1[1]', {}, 'embedded-nul'),
    ('xeon', b'0[0-3] 1[4-7] C[0-3]', {}, 'C-empties-part'),
    ('xeon', b'X[0-3] 0[0-3]', {}, 'X-empties-part'),
    ('xeon', b'48[0]', {}, 'id-beyond'),
    # allocation failures (flag 0x80): the seed picks which allocation
    ('xeon', b'', {'flags': 0x80, 'rounds': 2, 'seed': 1}, 'nomem'),
    ('xeon', b'', {'flags': 0x80, 'rounds': 2, 'seed': 2}, 'nomem'),
    ('xeon', b'', {'flags': 0x80, 'rounds': 2, 'seed': 3}, 'nomem'),
    ('quad', b'', {'flags': 0x80, 'np': np_small(3), 'seed': 4}, 'nomem-group'),
    ('qemu2', b'N 0[0] 1[1]', {'flags': 0x80, 'seed': 5}, 'nomem-N-lists'),
    ('xeon', b'X[0-3] C[1]', {'flags': 0x80, 'seed': 6}, 'nomem-X-C'),
    ('xeon', b'0[0-3] 1[4-7]', {'flags': 0x80, 'seed': 7}, 'nomem-lists'),
    ('chaos', b'', {'flags': 0x80 | 0x05, 'seed': 8}, 'nomem-hotplug'),
    ('holes', b'', {'flags': 0x80 | 0x01, 'seed': 9}, 'nomem-hotplug'),
    # C[k]: the k-th core of every node (new seeds last: stable names)
    ('qemu2', b'C[0]', {}, 'C-per-node'),
    ('qemu2', b'N C[1,3]', {}, 'N-C-per-node'),
    ('quad', b'N C[2]', {}, 'N-C-short-nodes'),
    ('quad', b'X[0] C[0]', {'rounds': 2}, 'X-C-per-node'),
    ('quad', b'C[3]', {}, 'C-no-node-has'),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus')
    os.makedirs(out, exist_ok=True)
    names = set()
    for i, (machine, pattern, extra, what) in enumerate(SEEDS):
        args = dict(MACHINES[machine])
        args.update(extra)
        name = '%s-%03d-%s' % (machine, i, re.sub(r'[^A-Za-z0-9-]', '-', what))
        assert name not in names
        names.add(name)
        with open(os.path.join(out, name), 'wb') as f:
            f.write(header(**args) + pattern)
    print('%d seeds in %s' % (len(SEEDS), out))


if __name__ == '__main__':
    main()
