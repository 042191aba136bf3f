#!/bin/bash
# call 3 (H100): a lone CTA of two rows (m_block=2, 16 warps, grid 132) against the policy's pick
# (two CTAs an SM of one row, grid 264) for the norm backward kernels with sums over rows, over
# rows and widths: the ring (ahead=2) and the next block in registers (ahead=1); every run
# checked against float64. Then the colsum tail's regions of the lone CTA at 4096x4096.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
mkdir -p /tmp/lone
for d in bf16 f32; do
  for k in layer_norm_backward rms_norm_backward; do
    for n in 2048 4096 5120; do
      [ $d = f32 ] && [ $n = 5120 ] && continue
      sh=(); for m in 1024 4096 16384; do sh+=(--shape ${m}x$n); done
      [ $d = f32 ] && sh=(--shape 1024x$n --shape 4096x$n)
      rb=$n; [ $n = 5120 ] && rb=6144
      for v in pick a2 a1; do
        cfg=(); case $v in
          a2) cfg=(--config persistent=1,r_block=$rb,m_block=2,num_warps=16,vec=8,grid=132,ahead=2);;
          a1) cfg=(--config persistent=1,r_block=$rb,m_block=2,num_warps=16,vec=8,grid=132,ahead=1);;
        esac
        timeout 90 $R run testdata/kernels/$k.rk --dtype $d "${sh[@]}" "${cfg[@]}" --check --time \
          --copy-gbps 3027 --json > /tmp/lone/$k.$d.$n.$v.jsonl 2>/tmp/lone/$k.$d.$n.$v.err
        echo "$k $d $n $v: exit $?"
      done
    done
  done
done
for k in layer_norm_backward rms_norm_backward; do
  timeout 60 $R run testdata/kernels/$k.rk --shape 4096x4096 --dtype bf16 --check --time --regions --regions-every 1 \
    --config persistent=1,r_block=4096,m_block=2,num_warps=16,vec=8,grid=132,ahead=2 --copy-gbps 3027 > /tmp/lone/regions.$k.a2.txt 2>&1
done
tar czf $OUT/lone.tgz -C /tmp lone
python3 - <<'PY'
import json, glob, os
rows = {}
for f in sorted(glob.glob('/tmp/lone/*.jsonl')):
    k, d, n, v = os.path.basename(f)[:-6].split('.')
    for line in open(f):
        try: j = json.loads(line)
        except Exception: continue
        key = (k, d, j.get('M'), j.get('N'))
        c = j.get('config', {})
        rows.setdefault(key, {})[v] = (j.get('us'), j.get('status'), j.get('regs'), j.get('local_bytes'), 'm%s w%s g%s a%s c%s' % (c.get('m_block'), c.get('num_warps'), c.get('grid'), c.get('ahead'), c.get('cluster')))
print(f"{'kernel':22} {'dt':4} {'shape':12} {'pick us':>8} {'a2 us':>8} {'a1 us':>8} {'a2/pick':>7} {'a1/pick':>7} status")
for key in sorted(k for k in rows if k[2]):
    r = rows[key]; p = r.get('pick', (None,))[0]
    def f(v):
        x = r.get(v, (None,))[0]; return f"{x:8.2f}" if x else "       -"
    def q(v):
        x = r.get(v, (None,))[0]; return f"{x/p:7.3f}" if x and p else "      -"
    st = ",".join(f"{v}:{r[v][1]}/{r[v][3]}" for v in r) + "  pick " + r.get('pick', [None]*5)[4]
    print(f"{key[0]:22} {key[1]:4} {str(key[2])+'x'+str(key[3]):12} {f('pick')} {f('a2')} {f('a1')} {q('a2')} {q('a1')} {st}")
PY
for k in layer_norm_backward rms_norm_backward; do grep -E "^  [a-z]|kernel [0-9.]+ us" /tmp/lone/regions.$k.a2.txt | cut -c1-150; done
