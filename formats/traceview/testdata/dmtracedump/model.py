#!/usr/bin/env python3
"""An independent model of dmtracedump's profile rules, used to derive the expected numbers in
the *.golden files next to it. It is not part of the build; run it to re-derive them:

    python3 model.py ../../../../../shared/corpus/jag-dmtrace.trace > jag-dmtrace.golden
    python3 model.py --relatives ../../../../../shared/corpus/jag-dmtrace.trace > jag-dmtrace.relatives.golden

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

With --relatives it prints instead the parents and children of every method, as dmtracedump's
inclusive profile lists them (printInclusiveProfile, addInclusiveTime):
  * Each finished call is an edge caller -> method (the caller is the frame below it, or
    "(toplevel)"), adding one call and the call's inclusive time (now - entry, every call,
    recursive or not).
  * In the method's parent list the edge goes below the "+++++" line (recursive) when another
    frame of the method is still on the stack; in the caller's child list it goes below that
    line when the caller has a frame on the stack besides its own (the caller is "(toplevel)":
    never). The two choices are independent: one edge can be plain on one side and recursive on
    the other.
  * The calls column is "count/total": total is the method's calls (plain and recursive) in its
    parent list, the child's calls in a child list.
One line per row, sorted by method, kind, relative (ids as above):
    method  kind  relative  count  total  inclusive
where kind is parent, parent+ (recursive), child or child+ (recursive).
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
    rel = collections.defaultdict(lambda: [0, 0])  # (method, kind, relative) -> [count, inclusive]

    def close(stack, m, elapsed):
        if any(f[0] == m for f in stack):
            rcalls[m] += 1
        else:
            calls[m] += 1
            incl[m] += elapsed
        caller = stack[-1][0] if stack else TOP
        callee_rec = any(f[0] == m for f in stack)
        caller_rec = sum(1 for f in stack if f[0] == caller) > 1
        for key in ((m, 'parent+' if callee_rec else 'parent', caller),
                    (caller, 'child+' if caller_rec else 'child', m)):
            rel[key][0] += 1
            rel[key][1] += elapsed

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
    return excl, incl, calls, rcalls, rel


def order(k):
    return (0, -2 if k == TOP else -1) if isinstance(k, str) else (1, k)


def ident(k):
    return k if isinstance(k, str) else '%#x' % k


def print_relatives(calls, rcalls, rel):
    kinds = ['parent', 'parent+', 'child', 'child+']
    for (m, kind, r) in sorted(rel, key=lambda k: (order(k[0]), kinds.index(k[1]), order(k[2]))):
        count, inclusive = rel[(m, kind, r)]
        whose = m if kind.startswith('parent') else r
        print('%s\t%s\t%s\t%d\t%d\t%d' % (ident(m), kind, ident(r), count, calls[whose] + rcalls[whose], inclusive))


def main():
    names, recs = load(sys.argv[-1])
    excl, incl, calls, rcalls, rel = profile(names, recs)
    if '--relatives' in sys.argv:
        print_relatives(calls, rcalls, rel)
        return
    keys = set(excl) | set(incl) | set(calls) | set(rcalls)
    for k in sorted(keys, key=order):
        name = k if isinstance(k, str) else names[k]
        print('%s\t%d\t%d\t%d\t%d\t%s' % (ident(k), excl[k], incl[k], calls[k], rcalls[k], name))


if __name__ == '__main__':
    main()
