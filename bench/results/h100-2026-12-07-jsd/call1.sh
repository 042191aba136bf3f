#!/bin/bash
# Call 1 (95th session): where fused_linear_jsd loses its time, kept on chip at bf16 8192x128256
# (the transfer suite's point at 62% of copy): the policy's pick and three forced neighbours timed
# (stash=1: the apply pass reads g and q kept on chip; 8 warps; the vector fill), the pick's
# regions, and ncu's pipe use and warp stalls of the pick. Run from the repository root on the GPU
# host, carrying the build as .carry/rkc-t.xz; everything goes to $OUT/jsd.log.
python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open('.carry/rkc-t.xz').read())" >/tmp/rkc && chmod +x /tmp/rkc
L=$OUT/jsd.log
T0=$(date +%s)
K=testdata/kernels/fused_linear_jsd.rk
S=8192x128256
B=persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,evict=1,min_ctas=3,smem=2,cluster=8
for c in "" "--config $B,stash=1,min_ctas=1" "--config ${B/num_warps=4/num_warps=8},min_ctas=2" "--config ${B/smem=2/smem=1}"; do
	echo "== time $c" >>$L
	timeout 60 /tmp/rkc run $K --dtype bf16 --shape $S $c --copy-gbps 3027 >>$L 2>&1
done
echo "== regions" >>$L
timeout 60 /tmp/rkc run $K --dtype bf16 --shape $S --regions >>$L 2>&1
M=smsp__inst_executed.sum,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
for c in "" "--config $B,stash=1,min_ctas=1"; do
	echo "== ncu $c" >>$L
	timeout 150 ncu --clock-control none --launch-count 1 --metrics $M /tmp/rkc run $K --dtype bf16 --shape $S $c --check 2>&1 | grep -E 'stalled|pipe|issue|inst_exec|warps_active|dram__bytes|gpu__time|RESULT' | sed 's/  */ /g' >>$L
done
grep -E '^==|RESULT|time ' $L | cut -c1-200
echo "total $(($(date +%s) - T0)) s"
