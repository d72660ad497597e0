#!/usr/bin/env python3
"""One test per `Print Assumptions T.` of the given .v file, passed when
coqc's output for it (the given file) is "Closed under the global context";
a theorem whose output is missing (coqc stopped) fails.  Prints TAP
(tests/tap.py)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402

src, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
names = re.findall(r'^\s*Print Assumptions\s+([\w.]+)\s*\.', src, re.M)
if not names:
    tap.result(False, "Print Assumptions in " + sys.argv[1], "none found")
# Each Print Assumptions answers with one of these two, then its axioms if any.
answers = re.split(r'^(?=Closed under the global context|Axioms:)', out, flags=re.M)[1:]
for i, name in enumerate(names):
    answer = answers[i] if i < len(answers) else ""
    closed = answer.startswith("Closed under the global context")
    tap.result(closed, name + " is closed under the global context",
               "" if closed else answer.strip() or "no answer from coqc")
sys.exit(tap.end())
