#!/usr/bin/env python3
"""Prints 'tests: N passed, M failed' from the real results of a meson test run.

Catch2 test cases are counted from their JUnit reports (the 'unit', 'examples'
and 'slow' runs of the test binary); every other meson test counts as one. A test binary that crashed before writing its report counts as
one failure, so a crash can never read as a pass.
"""
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

build = Path(sys.argv[1])
passed = failed = 0
testlog = build / "meson-logs" / "testlog.json"
entries = [json.loads(line) for line in testlog.read_text().splitlines() if line.strip()] if testlog.exists() else []
if not entries:
    print("no meson test results found", file=sys.stderr)
    failed += 1
reports = {"unit": "catch-results.xml", "examples": "catch-results-examples.xml", "slow": "catch-results-slow.xml"}
for entry in entries:
    ok = entry.get("result") in ("OK", "EXPECTEDFAIL", "SKIP")
    if entry.get("name") in reports:
        report = build / reports[entry["name"]]
        cases = list(ET.parse(report).getroot().iter("testcase")) if report.exists() else []
        bad = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
        passed += len(cases) - bad
        failed += bad
        if not cases or (not ok and bad == 0):
            failed += 1
    elif ok:
        passed += 1
    else:
        failed += 1
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
