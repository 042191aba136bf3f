#!/usr/bin/env python3
"""Waits in a cubin's loops on loads the waiting instruction does not read.

ptxas waits for a load at its first reader through one of six scoreboards that loads share. This
lists, for each loop of the SASS (a backward branch and its target), the instructions that wait on
a scoreboard that a global load issued earlier in the same walk of the loop has set, where the
waiting instruction reads none of that load's registers: a wait that also waits for loads in
flight it does not need (docs/codegen.md, "The carried loads' wait"). Shared-memory loads,
shuffles and other variable-latency instructions set scoreboards too and are not tracked, so a
listed wait is a lead to read in the SASS, not a verdict.

usage: bench/sass_waits.py [--loads] CUBIN...   (needs nvdisasm on PATH; sm_90's encoding)
Prints a line a cubin, "N aliased waits", and the first four. --loads prints instead where in its
longest loop (a grid's loop of row blocks) each global load is issued, as a fraction of the loop's
instructions: where ptxas put the next block's loads.
"""
import re
import subprocess
import sys


def disasm(cubin, *flags):
    return subprocess.run(['nvdisasm', *flags, cubin], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def decode(cubin):
    """(address, instruction, write scoreboard, read scoreboard, wait mask) an instruction; the
    control bits are the top 23 bits of the second 64-bit word (7: no scoreboard)."""
    out, res = disasm(cubin, '-hex'), []
    for i, line in enumerate(out):
        m = re.search(r'/\*([0-9a-f]{4})\*/\s+(.*?);\s+/\* (0x[0-9a-f]{16}) \*/', line)
        m2 = re.search(r'/\* (0x[0-9a-f]{16}) \*/', out[i + 1]) if m and i + 1 < len(out) else None
        if not m2:
            continue
        ctrl = int(m2.group(1), 16) >> 41
        res.append((int(m.group(1), 16), m.group(2).strip(), (ctrl >> 5) & 7, (ctrl >> 8) & 7,
                    (ctrl >> 11) & 0x3f))
    return res


def loops(cubin):
    """(first address, backward branch's address) for each backward branch."""
    labels, branches, pending = {}, [], None
    for line in disasm(cubin, '-c'):
        m = re.match(r'(\.L_x_\d+):', line)
        if m:
            pending = m.group(1)
            continue
        m = re.search(r'/\*([0-9a-f]{4})\*/\s+(.*?);', line)
        if not m:
            continue
        a = int(m.group(1), 16)
        if pending:
            labels[pending], pending = a, None
        t = re.search(r'BRA\s+`\((\.L_x_\d+)\)', m.group(2))
        if t:
            branches.append((a, t.group(1)))
    return [(labels[t], a) for a, t in branches if t in labels and labels[t] < a]


def registers(ins):
    return {int(r) for r in re.findall(r'\bR(\d+)\b', ins)}


def load_dests(ins):
    m = re.search(r'LDG\S*\s+R(\d+)', ins)
    if not m:
        return set()
    width = 4 if '.128' in ins else 2 if '.64' in ins else 1
    return set(range(int(m.group(1)), int(m.group(1)) + width))


def aliased(cubin):
    code, found = decode(cubin), []
    for lo, hi in loops(cubin):
        pending = {}  # scoreboard -> registers of the loads issued on it in this walk
        for a, ins, wb, _, wait in (x for x in code if lo <= x[0] <= hi):
            for sb in range(6):
                if wait >> sb & 1 and sb in pending:
                    if not registers(ins) & pending[sb]:
                        found.append((lo, hi, a, ins, sb))
                    del pending[sb]
            if 'LDG' in ins and wb != 7:
                pending.setdefault(wb, set()).update(load_dests(ins))
    return found


def load_positions(cubin):
    """The longest loop's instruction count and where in it each global load is issued (0-1)."""
    code, spans = decode(cubin), loops(cubin)
    if not spans:
        return 0, []
    lo, hi = max(spans, key=lambda s: s[1] - s[0])
    body = [x for x in code if lo <= x[0] <= hi]
    return len(body), [i / len(body) for i, x in enumerate(body) if 'LDG' in x[1]]


def main():
    args = sys.argv[1:]
    loads = bool(args) and args[0] == '--loads'
    if loads:
        args = args[1:]
    if not args:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    for cubin in args:
        if loads:
            n, at = load_positions(cubin)
            print(f'{cubin}: loop of {n} instructions, loads at ' +
                  ' '.join(f'{a:.2f}' for a in at))
            continue
        found = aliased(cubin)
        print(f'{cubin}: {len(found)} aliased waits')
        for lo, hi, a, ins, sb in found[:4]:
            print(f'   loop {lo:04x}-{hi:04x}: {a:04x} waits on SB{sb}: {ins[:70]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
