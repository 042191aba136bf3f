import itertools, random
ks="softmax layer_norm rms_norm welford dynamic_quant fused_add_rmsnorm fused_add_layernorm gated_rmsnorm scaled_masked_softmax fused_linear_jsd jsd cross_entropy cross_entropy_backward kl_div grpo cross_entropy_ls_zloss".split()
Ms=[24,48,300,768,1536,3000]
Ns=[100000,140000,180001,230000,300000,520000]
for k,M,N,d in itertools.product(ks,Ms,Ns,["bf16","fp32"]):
    print(k,d,f"{M}x{N}")
