#!/usr/bin/env python3
"""An independent model of dmtracedump's profile rules, used to derive the expected numbers in
the *.golden files next to it. It is not part of the build; run it to re-derive them:

    python3 model.py ../../../../../shared/corpus/jag-dmtrace.trace > jag-dmtrace.golden

The rules, read from Dalvik tools/dmtracedump/TraceDump.c (parseDataKeys, addInclusiveTime,
countRecursiveEntries) and written down here from that reading:
  * Times are the record's first time field (thread-CPU for dual traces), per thread.
  * Enter: the caller (top of the thread's stack, or "(toplevel)") gets now - lastEvent as
    exclusive time; the method is pushed with its entry time.
  * Exit or unroll (action 1 or 2): pop (dmtracedump aborts if the popped method differs; no
    corpus file does that). With an empty stack the entry time is 0. The method gets now - entry
    as inclusive time unless another frame of it is still on the stack (a recursive call), and
    one call, counted as recursive in that case; it gets now - lastEvent as exclusive time.
  * Ids missing from the key section are all one method, "(unknown)".
  * At the end, frames still open are closed at the thread's last event time, bottom up.
  * "(toplevel)" inclusive = sum over threads of last - first event time.
Output: one line per method with any time or call, sorted by id:
    id  exclusive  inclusive  calls  recursive-calls  name
"""
import collections
import gzip
import struct
import sys

TOP, UNK = '(toplevel)', '(unknown)'


def load(path):
    d = open(path, 'rb').read()
    if d[:2] == b'\x1f\x8b':
        d = gzip.decompress(d)
    i = d.index(b'\n*end\n') + 6
    names, sec = {}, None
    for ln in d[:i].decode('utf-8', 'replace').split('\n'):
        if ln.startswith('*'):
            sec = ln
        elif sec == '*methods' and ln:
            t = ln.split('\t')
            mid = int(t[0][2:] if t[0].lower().startswith('0x') else t[0], 16)
            names[mid] = '.'.join(t[1:3]) + (' ' + t[3] if len(t) > 3 else '')
    b = d[i:]
    _, ver, off, _ = struct.unpack('<IHHQ', b[:16])
    rs = {1: 9, 2: 10}.get(ver) or struct.unpack('<H', b[16:18])[0]
    recs = []
    for p in range(off, len(b) - rs + 1, rs):
        if ver == 1:
            tid = b[p]
            mv, t = struct.unpack('<II', b[p + 1:p + 9])
        else:
            tid, mv, t = struct.unpack('<HII', b[p:p + 10])
        recs.append((tid, mv, t))
    return names, recs


def profile(names, recs):
    excl, incl = collections.Counter(), collections.Counter()
    calls, rcalls = collections.Counter(), collections.Counter()
    stacks = {}

    def close(stack, m, elapsed):
        if any(f[0] == m for f in stack):
            rcalls[m] += 1
        else:
            calls[m] += 1
            incl[m] += elapsed

    for tid, mv, now in recs:
        action, mid = mv & 3, mv & ~3
        m = mid if mid in names else UNK
        s = stacks.setdefault(tid, {'stack': [], 'last': now, 'first': now})
        stack = s['stack']
        if action == 0:
            excl[stack[-1][0] if stack else TOP] += now - s['last']
            stack.append((m, now))
        else:
            entry = 0
            if stack:
                popped, entry = stack.pop()
                assert popped == m, 'dmtracedump stops here: exit does not match the stack'
            close(stack, m, now - entry)
            excl[m] += now - s['last']
        s['last'] = now
    total = 0
    for s in stacks.values():
        total += s['last'] - s['first']
        stack = s['stack']
        for ii, (m, entry) in enumerate(stack):
            close(stack[:ii], m, s['last'] - entry)
    incl[TOP] = total
    return excl, incl, calls, rcalls


def main():
    names, recs = load(sys.argv[1])
    excl, incl, calls, rcalls = profile(names, recs)
    keys = set(excl) | set(incl) | set(calls) | set(rcalls)

    def order(k):
        return (0, -2 if k == TOP else -1) if isinstance(k, str) else (1, k)

    for k in sorted(keys, key=order):
        ident = k if isinstance(k, str) else '%#x' % k
        name = k if isinstance(k, str) else names[k]
        print('%s\t%d\t%d\t%d\t%d\t%s' % (ident, excl[k], incl[k], calls[k], rcalls[k], name))


if __name__ == '__main__':
    main()
