#!/usr/bin/env python3
"""How many atomics each y entry receives in a HiSparse leaf-bins product on CUDA, by a model of the kernel.

Usage: scripts/hisparse_atomic_targets.py MATRIX.mtx[.gz] [--log2-block 7] [--top 5]

A model, computed on the host from the Matrix Market file; it mirrors, and must follow, the code:
- leaves are the d x d blocks (d = 2^log2_block, the conversion's default 7), entries row by row;
  a leaf whose COO node would be larger than a dense one is dense (hisparse_layout.hpp,
  choose_node_type) and is left out here;
- leaves of at most 8 entries (the thread bin) add every entry with its own atomic;
- warp- and block-bin leaves (cuda/hisparse_leaf_cuda.hpp) take lines of 32 entries; a line adds each
  run of one target with one atomic where the leaf's runs are long (hisparse_leaf_long_runs: rows for
  SpMV, columns for SpMV^T, or columns in column order for a leaf marked hisparse_columns_repeat),
  every entry otherwise.
Prints, for SpMV (targets: rows) and SpMV^T (targets: columns), the atomics in all, the most that one
y entry receives, and the same with one atomic per target and leaf (what a leaf summed whole would
send): atomics on one address are serialised in the L2, so the most on one entry bounds the kernel
from below however many warps run.
"""
import argparse
import collections
import gzip


def read_blocks(path, log2_block):
    d = 1 << log2_block
    blocks = collections.defaultdict(list)  # (block row, block col) -> [(local row, local col)]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = f.readline().lower()
        if "coordinate" not in header:
            raise SystemExit(f"{path}: not a coordinate Matrix Market file")
        mirrored = "symmetric" in header or "hermitian" in header or "skew" in header
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        rows, cols, _ = map(int, line.split())
        for line in f:
            p = line.split()
            if not p:
                continue
            r, c = int(p[0]) - 1, int(p[1]) - 1
            blocks[(r >> log2_block, c >> log2_block)].append((r & (d - 1), c & (d - 1)))
            if mirrored and r != c:
                blocks[(c >> log2_block, r >> log2_block)].append((c & (d - 1), r & (d - 1)))
    return rows, cols, blocks


def runs_of_lines(targets):
    """The targets that a line of 32 entries adds once each (one atomic per run within the line)."""
    for start in range(0, len(targets), 32):
        line = targets[start:start + 32]
        for k, t in enumerate(line):
            if k + 1 == len(line) or line[k + 1] != t:
                yield t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("matrix")
    parser.add_argument("--log2-block", type=int, default=7)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    d = 1 << args.log2_block
    dense_bytes = d * d * 8 + d * d // 8  # double values and the slot mask
    _, _, blocks = read_blocks(args.matrix, args.log2_block)
    atomics = {"N": collections.Counter(), "T": collections.Counter()}
    per_leaf = {"N": collections.Counter(), "T": collections.Counter()}
    marked = marked_entries = dense = 0
    for (block_row, block_col), entries in blocks.items():
        entries.sort()
        n = len(entries)
        if n * 10 > dense_bytes:  # two coordinate bytes and a double per entry against the dense node
            dense += 1
            continue
        rows = [block_row * d + r for r, _ in entries]
        cols = [block_col * d + c for _, c in entries]
        for t in set(rows):
            per_leaf["N"][t] += 1
        for t in set(cols):
            per_leaf["T"][t] += 1
        if n <= 8:
            atomics["N"].update(rows)
            atomics["T"].update(cols)
            continue
        row_runs = 1 + sum(rows[k] != rows[k - 1] for k in range(1, n))
        column_runs = 1 + sum(cols[k] != cols[k - 1] for k in range(1, n))
        columns_in_runs = n >= 4 * column_runs
        repeat = not columns_in_runs and n >= 4 * len(set(cols))
        atomics["N"].update(runs_of_lines(rows) if n >= 4 * row_runs else rows)
        if repeat:
            marked += 1
            marked_entries += n
            atomics["T"].update(runs_of_lines(sorted(cols)))
        else:
            atomics["T"].update(runs_of_lines(cols) if columns_in_runs else cols)
    print(f"{args.matrix}: d = {d}, {len(blocks)} leaves ({dense} dense, left out), "
          f"{marked} marked hisparse_columns_repeat holding {marked_entries} entries")
    for mode, name in (("N", "SpMV, rows"), ("T", "SpMV^T, columns")):
        counts = atomics[mode]
        print(f"{name}: {sum(counts.values())} atomics; most on one entry: "
              + ", ".join(f"{t}: {k}" for t, k in counts.most_common(args.top)))
        print(f"  one atomic per target and leaf: most on one entry: "
              + ", ".join(f"{t}: {k}" for t, k in per_leaf[mode].most_common(args.top)))


if __name__ == "__main__":
    main()
