#!/usr/bin/env python3
"""json_style.py FILE... -- every JSON document in the files is written in
isolde's one style: compact separators ("key":value, a,b), white space
outside strings only as layout (a newline and the indent after it). A file
is JSON lines, or one document spread over lines (isolde check --json).
Exits 1 naming the first stray space, 2 on a file that is not JSON."""
import json
import sys


def stray_space(text):
    """Offset of a space outside strings that is not a newline's indent."""
    in_str = esc = False
    indent = False
    for i, c in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
            continue
        if c == '"':
            in_str, indent = True, False
        elif c == "\n":
            indent = True
        elif c == " " and not indent:
            return i
        elif c != " ":
            indent = False
    return -1


def documents(text):
    """The file as one document, or as JSON lines."""
    try:
        json.loads(text)
        return [text]
    except ValueError:
        lines = [l for l in text.split("\n") if l.strip()]
        for l in lines:
            json.loads(l)
        return lines


def main():
    for path in sys.argv[1:]:
        text = open(path, encoding="utf-8").read()
        try:
            docs = documents(text)
        except ValueError as e:
            print(f"{path}: not JSON: {e}")
            return 2
        for doc in docs:
            at = stray_space(doc)
            if at >= 0:
                print(f"{path}: a space outside a string: ...{doc[max(0, at - 30):at + 30]}...")
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
