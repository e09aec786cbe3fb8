"""Rebuilds examples/ns2/seed000_topology{1,2}.tcl from seed 000's text (Appendix A).

The text extraction wrapped long lines (comments, strings, bracketed commands), split
strings at page breaks and repeated two closing braces; this joins the wraps back and fixes
those spots, nothing else. Usage: python repair_seed000.py SEED_TXT FIRST LAST OUT.tcl
(lines 296 876 for topology 1, 884 1469 for topology 2).
"""
import re
import sys

src, first, last, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def fix(s):
    s = s.replace('$snow', '$now').replace('$straceAll', '$traceAll')
    # The first script links the sinks to an undefined $switch1GbpsOut (ns-2 stops there); its
    # monitors and nam layout use $switch10GbpsOut, the node it creates.
    s = s.replace('$switch1GbpsOut', '$switch10GbpsOut')
    # A page break repeated the loop's closing brace: the loop holds both start lines (as in
    # the first script).
    s = re.sub(r'(\$ns at \[expr 0\.0 \+ \$i\] "\$ftp\(\$i\) start"\n)\}\n', r'\1', s)
    s = '\n'.join(x.rstrip() for x in s.split('\n'))
    # The first script's column header lost a `puts "` and its dashes line a quote; written
    # as in the second script.
    s = s.replace('  puts " Arrived Lost          Departed" Packets      Bytes      '
                  'Throughput(Mbps) Packets      Bytes      Packets      Bytes      '
                  'Throughput(Mbps)" puts "-----" "',
                  '  puts " Arrived Lost          Departed"\n'
                  '  puts " Packets      Bytes      Throughput(Mbps) Packets      Bytes      '
                  'Packets      Bytes      Throughput(Mbps)"\n'
                  '  puts "-----"')
    # Another page break repeated a closing brace, in the first script's average-queue loop.
    s = re.sub(r'(  set pktsInt\(\$i\) \[eval \$qmonSource\(\$i\) '
               r'get-pkts-integrator\]\n)\}\n\n',
               r'\1', s, count=1)
    return s


lines = open(src).read().split('\n')[first-1:last]
lines = [x for x in lines if x.strip() != '```']
CODE = re.compile(r'^ *(#|\$ns|set |for |\}|if |puts|proc |global|foreach|incr|\$tcp|\$ftp'
                  r'|close|exit|exec|\$defaultRNG)')

def open_state(text):
    """(in_quote, bracket_depth) at the end of a code line."""
    q, d, i = False, 0, 0
    while i < len(text):
        c = text[i]
        if c == '\\':
            i += 2
            continue
        if c == '"':
            q = not q
        elif c == '[':
            d += 1
        elif c == ']':
            d -= 1
        i += 1
    return q, d

res = []
def last_nonblank():
    for k in range(len(res) - 1, -1, -1):
        if res[k].strip():
            return k
    return -1

for line in lines:
    if not line.strip():
        res.append(line)
        continue
    k = last_nonblank()
    prev = res[k] if k >= 0 else ''
    prev_is_comment = prev.lstrip().startswith('#')
    incomplete = (not prev_is_comment) and prev and open_state(prev) != (False, 0)
    if line.strip() == '"' and not incomplete:
        continue  # a stray quote left by a page break
    join = incomplete or (k >= 0 and not CODE.match(line))
    if join:
        del res[k + 1:]
        sep = '' if prev.endswith('lost_') else ' '
        res[k] = prev.rstrip() + sep + line.strip()
    else:
        res.append(line)
text = '\n'.join(res)
text = re.sub(r'\n{3,}', '\n\n', text)
open(out, 'w').write(fix(text.rstrip() + '\n'))
