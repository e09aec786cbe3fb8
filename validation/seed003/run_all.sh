#!/bin/sh
# Seed 003 without background traffic in ns-2.35 and ackclock, one simulation at a time
# (about 25 minutes); traces go to out/. Then: python analyze.py out/ns_pair_cubic-cubic 50
# ns-2 types: cubic scalable highspeed (Agent/TCP/Linux), hsnative (Agent/TCP/Sack1 windowOption_ 8).
set -e
cd "$(dirname "$0")"
PY=${PYTHON:-python}
mkdir -p out
# single flows, 100 s
for c in cubic scalable highspeed; do $PY seed003_ackclock.py $c none 50 100 out/ac_single_$c > out/ac_single_$c.log; done
for c in cubic scalable highspeed hsnative; do ns seed003_ns2.tcl $c none 50 100 out/ns_single_$c > out/ns_single_$c.log 2>&1; done
# pairs, 150 s, flow 2 at 50 s
$PY seed003_ackclock.py cubic cubic 50 150 out/ac_pair_cubic-cubic > out/ac_pair_cubic-cubic.log
$PY seed003_ackclock.py highspeed cubic 50 150 out/ac_pair_highspeed-cubic > out/ac_pair_highspeed-cubic.log
$PY seed003_ackclock.py scalable highspeed 50 150 out/ac_pair_scalable-highspeed > out/ac_pair_scalable-highspeed.log
for p in "cubic cubic" "hsnative cubic" "scalable hsnative"; do
  set -- $p; ns seed003_ns2.tcl $1 $2 50 150 out/ns_pair_$1-$2 > out/ns_pair_$1-$2.log 2>&1
done
