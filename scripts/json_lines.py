"""The JSON records of a file of `strata ... --json` output, one per line (other lines are skipped:
progress and messages that a run mixed in), and a matrix's short name. Shared by the report scripts."""
import json
import os


def json_lines(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                yield json.loads(line)


def short(matrix):
    """A matrix file's name without its folder and .mtx[.gz]; a generator's spec as it is."""
    name = os.path.basename(matrix)
    for suffix in (".mtx.gz", ".mtx"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return matrix
