#!/usr/bin/env python3
"""Cuts a Scaladoc 3 page down to a small test fixture: the side menu, the table of contents,
the inheritance diagram, the documentation text and the inherited members are removed; the
signatures and the markup around them are kept byte for byte.

Usage: cut-scaladoc3-page.py PAGE.html > FIXTURE.html
"""
import re
import sys


def end_of(s, start, tag):
    """The index just past the element of `tag` opening at `start` (tags balanced)."""
    depth = 0
    pat = re.compile(r"<(/?)%s\b[^>]*>" % tag)
    for m in pat.finditer(s, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return m.end()
    return len(s)


def remove(s, opening, tag, keep=lambda body: False):
    out, pos = [], 0
    for m in re.finditer(opening, s):
        if m.start() < pos:
            continue
        end = end_of(s, m.start(), tag)
        body = s[m.start():end]
        if keep(body):
            continue
        out.append(s[pos:m.start()])
        pos = end
    out.append(s[pos:])
    return "".join(out)


def inherited(body):
    m = re.search(r'<div class="originInfo">(.*?)</div>', body, re.S)
    return m is not None and m.group(1).strip() != ""


s = open(sys.argv[1], encoding="utf-8").read()
s = remove(s, r'<nav id="api-nav"', "nav")
s = remove(s, r'<div id="toc"', "div")
s = remove(s, r'<div id="inheritance-diagram"', "div")
s = remove(s, r'<div class="documentableElement"', "div", keep=lambda b: not inherited(b))
s = remove(s, r'<div class="cover">', "div")
s = remove(s, r'<div class="documentableBrief', "div")
s = remove(s, r'<script\b', "script")
sys.stdout.write(s)
