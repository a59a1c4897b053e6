#!/usr/bin/env python3
"""The GitHub workflows in .github/workflows must be valid YAML with the shape GitHub
reads (a trigger, jobs with steps that each run or use something): GitHub rejects a file
that is not, silently for the push that carried it (a step name with ': ' in it once made
ci.yml unreadable). Needs PyYAML; says it skipped when it is missing.
Usage: python3 tests/check_workflows.py   (make test)"""
import glob
import os
import sys

try:
    import yaml
except ImportError:
    print("skipped: tests/check_workflows.py (python3-yaml is not installed)")
    sys.exit(0)

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
bad = []
files = sorted(glob.glob(".github/workflows/*.yml"))
for path in files:
    try:
        doc = yaml.safe_load(open(path))
    except yaml.YAMLError as e:
        bad.append(f"{path}: {e}")
        continue
    # PyYAML reads the key 'on' as True (YAML 1.1).
    if not isinstance(doc, dict) or not (doc.get("on") or doc.get(True)) or not isinstance(doc.get("jobs"), dict):
        bad.append(f"{path}: no 'on' trigger or no 'jobs'")
        continue
    for name, job in doc["jobs"].items():
        steps = job.get("steps") if isinstance(job, dict) else None
        if not steps or not all(isinstance(s, dict) and ("run" in s or "uses" in s) for s in steps):
            bad.append(f"{path}: job {name}: a step without run or uses")
for b in bad:
    print("FAILED:", b)
print(f"check_workflows: {len(files)} workflows, {len(bad)} bad")
sys.exit(1 if bad or not files else 0)
