#!/usr/bin/env python3
"""Runs every command example of the given Markdown files and compares what
it prints with what the file shows: one test per example.

An example is an indented block whose first line is `$ redist ...` (a
trailing backslash continues the command), followed by the lines it prints,
up to a blank line, a line that is not indented as much, or the next `$ `.
In the shown output a line `...` (however indented) stands for any number
of lines, and `...` among other text for any text on that line (timings, counts that vary from run to run);
everything else must be printed exactly, in order, with nothing else.

Usage: doc_examples.py BIN_DIR FILE.md...   (run from the repository root;
BIN_DIR holds the `redist` the examples call).  Prints TAP (tests/tap.py)."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402

ELLIPSIS = "..."
TIMEOUT_S = 600


def examples(path):
    """(line number, command, shown output lines) of each example in path."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^( +)\$ (redist .*)$", lines[i])
        if not m:
            i += 1
            continue
        indent, start = m.group(1), i + 1
        command = m.group(2)
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        shown = []
        i += 1
        while i < len(lines) and lines[i].startswith(indent) and lines[i].strip() \
                and not lines[i][len(indent):].startswith("$ "):
            shown.append(lines[i][len(indent):].rstrip())
            i += 1
        yield start, command, shown


def pattern(shown):
    """The regular expression a printed output must match in full."""
    parts = []
    for line in shown:
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in line.split(ELLIPSIS)) + r"\n")
    return re.compile("".join(parts))


def first_difference(shown, printed):
    """The first shown line not printed in order, for the failure message."""
    at = 0
    for line in shown:
        if line.strip() == ELLIPSIS:
            continue
        regex = re.compile(".*".join(re.escape(p) for p in line.split(ELLIPSIS)) + "$")
        while at < len(printed) and not regex.match(printed[at]):
            at += 1
        if at == len(printed):
            return f"shown line not printed (in order): {line!r}"
        at += 1
    return "printed lines that the example does not show (add `...` where output is elided)"


def main():
    bin_dir, files = sys.argv[1], sys.argv[2:]
    env = dict(os.environ, PATH=os.path.abspath(bin_dir) + os.pathsep + os.environ["PATH"])
    for path in files:
        for line_no, command, shown in examples(path):
            where = f"{path}:{line_no}"
            try:
                run = subprocess.run(["bash", "-o", "pipefail", "-c", command], env=env, capture_output=True,
                                     text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
                printed = "\n".join(l.rstrip() for l in (run.stdout + run.stderr).split("\n")).rstrip("\n") + "\n"
                if run.returncode != 0:
                    why = f"exit code {run.returncode}: {(run.stderr or run.stdout).strip()[:300]}"
                elif pattern(shown).fullmatch(printed):
                    why = None
                else:
                    why = first_difference(shown, printed.rstrip("\n").split("\n"))
            except subprocess.TimeoutExpired:
                why = f"no answer within {TIMEOUT_S} s"
            tap.result(why is None, f"{where}: $ {command[:100]}", why or "")
    return tap.end()


if __name__ == "__main__":
    sys.exit(main())
