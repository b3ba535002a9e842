"""Golden files of every `--json` output of the CLI (see make_golden.py)."""
