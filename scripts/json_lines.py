"""The JSON records of a file of `strata ... --json` output, one per line (other lines are skipped:
progress and messages that a run mixed in). Shared by the report scripts."""
import json


def json_lines(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                yield json.loads(line)
