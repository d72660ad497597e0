"""Validates one JSON document (stdin) against docs/schema/redist-1.json.

Usage: validate_json.py SCHEMA EXIT_CODE.  Besides the schema, an error
object's exit_code must be the command's EXIT_CODE, a success (exit 0)
must not be an error object, and a run's result says verified exactly when
the command exited 0 (1: not verified).  Prints nothing on success, the reason
otherwise (exit 1).
"""
import json
import sys

import jsonschema


def main():
    schema_path, exit_code = sys.argv[1], int(sys.argv[2])
    with open(schema_path) as f:
        schema = json.load(f)
    try:
        doc = json.loads(sys.stdin.read())
        jsonschema.Draft202012Validator(schema).validate(doc)
    except (ValueError, jsonschema.ValidationError) as e:
        print(str(e).splitlines()[0])
        return 1
    if "error" in doc and doc["error"]["exit_code"] != exit_code:
        print(f"error object says exit {doc['error']['exit_code']}, the command exited {exit_code}")
        return 1
    if "verified" in doc and doc["verified"] != (exit_code == 0):
        print(f"verified is {doc['verified']}, the command exited {exit_code}")
        return 1
    if "error" not in doc and exit_code not in ((0, 1) if "verified" in doc else (0,)):
        print(f"no error object, but the command exited {exit_code}")
        return 1
    return 0


sys.exit(main())
