#!/bin/bash
# call 3 (81st session): where the whole column pass loses at odd widths: ncu of bias_silu_back
# fp32 2000x20011 (the pick: 16 warps, elements one by one, one CTA an SM), of the same kernel at
# 2000x20000 (16-byte accesses), of colsum_only fp32 2000x20011 (no [M,N] stores) and of the first
# at 8 warps, 2 CTAs an SM.
set -u
xz -dc .carry/new.xz > /tmp/rkc && chmod +x /tmp/rkc
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv,noheader > $OUT/device.txt
T0=$(date +%s)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio
B=tests/heuristics/kernels/bias_silu_back.rk
one() { # tag kernel shape [config]
  local tag=$1 k=$2 s=$3; shift 3
  timeout 120 ncu --clock-control none --launch-count 1 --metrics $M --section WarpStateStats --section SpeedOfLight /tmp/rkc run $k --dtype fp32 --shape $s "$@" --check > $OUT/ncu-$tag.txt 2>&1
  timeout 60 /tmp/rkc run $k --dtype fp32 --shape $s "$@" --time --copy-gbps 3027 | grep -E "time|RESULT" | head -2 > $OUT/time-$tag.txt
  echo "$tag: $(grep -o 'time [0-9.]* us.*copy' $OUT/time-$tag.txt | head -1)"
}
one odd $B 2000x20011
one aligned $B 2000x20000
one colsum tests/heuristics/kernels/colsum_only.rk 2000x20011
one odd8 $B 2000x20011 --config persistent=1,r_block=20480,m_block=1,num_warps=8,vec=1,grid=264,colpass=1,min_ctas=2
for t in odd aligned colsum odd8; do echo "== $t"; grep -E "stalled|gpu__time|dram__bytes|lts__t_s|lts__t_r|l1tex__t_(req|sec)|hit_rate|warps_active|inst_exec|Stall|stall" $OUT/ncu-$t.txt | grep -v "^ *-" | sed 's/  */ /g' | head -30; done
echo "total: $(( $(date +%s) - T0 )) s"
