#!/usr/bin/env python3
"""Fails unless every `Print Assumptions T.` in the given .v file printed
"Closed under the global context"."""
import re, sys

src, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
names = re.findall(r'^\s*Print Assumptions\s+([\w.]+)\s*\.', src, re.M)
closed = out.count('Closed under the global context')
if not names:
    sys.exit('check_assumptions: no Print Assumptions in ' + sys.argv[1])
if 'Axioms:' in out or closed != len(names):
    print(out)
    print(f'{closed} passed, {len(names) - closed} failed')
    sys.exit('check_assumptions: some headline theorems depend on axioms')
for n in names:
    print('closed:', n)
print(f'{len(names)} passed, 0 failed')
