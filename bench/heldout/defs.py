"""PyTorch definitions of the held-out kernels (bench/heldout/*.rk), for bench/torch_compare.py
--heldout: each takes the kernel's inputs by name in their storage types and its params as floats,
computes in f32 (in f64 when given f64 inputs, the reference) and returns the outputs by name."""
import torch


def up(t):
    return t if t.dtype == torch.float64 else t.float()


def l2norm(x, eps):
    xf = up(x)
    n = torch.sqrt((xf * xf).sum(-1, keepdim=True))
    return {"y": (xf / torch.clamp_min(n, eps)).to(x.dtype)}


def lse(x):
    return {"o": torch.logsumexp(up(x), -1)}


def argmax(x):
    xf = up(x)
    m = xf.amax(-1, keepdim=True)
    col = torch.arange(x.shape[-1], device=x.device, dtype=xf.dtype)
    first = torch.where(xf == m, col, float(x.shape[-1])).amin(-1)
    return {"i": first.to(torch.int32), "v": m.squeeze(-1).to(x.dtype)}


def mse(x, t):
    d = up(x) - up(t)
    n = x.shape[-1]
    return {"l": (d * d).sum(-1) / n, "g": (d * 2 / n).to(x.dtype)}


def var2(x, b, s, eps):
    xf = up(x)
    mu = xf.mean(-1, keepdim=True)
    d = xf - mu
    v = (d * d).mean(-1, keepdim=True)
    y = d * torch.rsqrt(v + eps) * up(s) + up(b)[:, None]
    return {"y": y.to(x.dtype), "var": v.squeeze(-1)}


def stats3(x):
    a = up(x).abs()
    return {"s": a.sum(-1), "hi": a.amax(-1), "lo": a.amin(-1).to(x.dtype)}


def dequant(q, sc, w):
    y = up(q) * up(sc)[:, None] * up(w)
    return {"y": y.to(w.dtype), "mu": y.mean(-1)}


def gelu_norm(x):
    xf = up(x)
    g = 0.5 * xf * (1 + torch.erf(xf * 0.70710678))
    m = g.abs().mean(-1, keepdim=True)
    return {"y": (g / (torch.pow(m, 0.5) + 1e-6)).to(x.dtype)}


def colonly(x, w):
    return {"cs": (up(x) * up(w)).sum(0), "mx": up(x).amax(-1).to(x.dtype)}


def softcap(x, cap):
    z = torch.tanh(up(x) / cap) * cap
    return {"y": torch.log_softmax(z, -1).to(x.dtype)}


def router(x):
    xf = up(x)
    ls = torch.logsumexp(xf, -1)
    return {"p": torch.softmax(xf, -1).to(x.dtype), "z": ls * ls}


def cosine(a, b, eps):
    af, bf = up(a), up(b)
    n = torch.sqrt((af * af).sum(-1)) * torch.sqrt((bf * bf).sum(-1))
    return {"c": ((af * bf).sum(-1) / torch.clamp_min(n, eps))}


def softmax_backward(y, dy):
    yf, gf = up(y), up(dy)
    return {"dx": (yf * (gf - (yf * gf).sum(-1, keepdim=True))).to(y.dtype)}


def log_softmax(x):
    return {"y": torch.log_softmax(up(x), -1).to(x.dtype)}


def log_softmax_backward(y, dy):
    yf, gf = up(y), up(dy)
    return {"dx": (gf - torch.exp(yf) * gf.sum(-1, keepdim=True)).to(y.dtype)}


def entropy(x):
    p = torch.softmax(up(x), -1)
    return {"h": -(p * torch.log_softmax(up(x), -1)).sum(-1)}


def swiglu_norm(a, b, w, eps):
    g = torch.nn.functional.silu(up(a)) * up(b)
    r = torch.rsqrt((g * g).mean(-1, keepdim=True) + eps)
    return {"y": (g * r * up(w)).to(a.dtype)}


def masked_mean(x, m):
    xf = up(x)
    s = torch.where(m, xf, torch.zeros_like(xf)).sum(-1)
    c = m.to(xf.dtype).sum(-1)
    return {"y": s / torch.clamp_min(c, 1)}


def bias_grad(dy):
    return {"db": up(dy).sum(0)}


def bias_gelu_back(x, b, dy):
    u = up(x) + up(b)
    u2 = u * u
    t = torch.tanh(0.7978845608 * u * (1 + 0.044715 * u2))
    gp = 0.5 * (1 + t) + 0.5 * u * (1 - t * t) * 0.7978845608 * (1 + 0.134145 * u2)
    g = gp * up(dy)
    return {"dx": g.to(x.dtype), "db": g.sum(0)}


def softcap_ce(x, t, cap):
    z = torch.tanh(up(x) / cap) * cap
    zt = z.gather(1, t.long()[:, None]).squeeze(1)
    return {"loss": torch.logsumexp(z, -1) - zt}


def rms_fp8(x, w, eps):
    xf = up(x)
    y = xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + eps) * up(w)
    s = torch.clamp_min(y.abs().amax(-1, keepdim=True), 1e-12) / 448
    q = y / s
    if q.dtype != torch.float64:
        q = q.clamp(-448, 448).to(torch.float8_e4m3fn)
    return {"q": q, "s": s.squeeze(-1)}


def minmax(x, eps):
    xf = up(x)
    lo = xf.amin(-1, keepdim=True)
    hi = xf.amax(-1, keepdim=True)
    return {"y": ((xf - lo) / (hi - lo + eps)).to(x.dtype)}


def bce(x, t):
    xf, tf = up(x), up(t)
    n = x.shape[-1]
    l = torch.clamp_min(xf, 0) - xf * tf + torch.log1p(torch.exp(-xf.abs()))
    return {"loss": l.sum(-1) / n, "g": ((torch.sigmoid(xf) - tf) / n).to(x.dtype)}


def l1norm(x, eps):
    xf = up(x)
    return {"y": (xf / torch.clamp_min(xf.abs().sum(-1, keepdim=True), eps)).to(x.dtype)}


def focal_ce(x, t, g):
    lp = torch.log_softmax(up(x), -1).gather(1, t.long()[:, None]).squeeze(1)
    return {"loss": -torch.pow(1 - torch.exp(lp), g) * lp}


def varlen_softmax(x, len):
    xf = up(x)
    col = torch.arange(x.shape[-1], device=x.device)
    xm = torch.where(col[None, :] <= len[:, None], xf, float("-inf"))
    return {"y": torch.softmax(xm, -1).to(x.dtype)}


def masked_bce(x, t, mk):
    xf, tf = up(x), up(t)
    l = torch.clamp_min(xf, 0) - xf * tf + torch.log1p(torch.exp(-xf.abs()))
    c = torch.clamp_min(mk.to(xf.dtype).sum(-1, keepdim=True), 1)
    z = torch.zeros_like(xf)
    g = torch.where(mk, (torch.sigmoid(xf) - tf) / c, z)
    return {"loss": torch.where(mk, l, z).sum(-1) / c.squeeze(-1), "g": g.to(x.dtype)}


def gelu_layernorm(x, w, b, eps):
    xf = up(x)
    h = 0.5 * xf * (1 + torch.erf(xf * 0.7071067811865476))
    mu = h.mean(-1, keepdim=True)
    d = h - mu
    r = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    return {"y": (d * r * up(w) + up(b)).to(x.dtype)}


def linf_norm(x, eps):
    a = x.abs().amax(-1, keepdim=True)
    y = x / torch.clamp_min(a, eps)
    return {"y": y if y.dtype == torch.float64 else y.to(torch.float16), "amax": a.squeeze(-1)}


def rms_colsum(x, s, eps):
    xf = up(x)
    r = torch.rsqrt((xf * xf).mean(-1) + eps)
    return {"dw": (xf * (r * up(s))[:, None]).sum(0), "r": r}


def asym_quant(x):
    xf = up(x)
    hi = xf.amax(-1, keepdim=True)
    lo = xf.amin(-1, keepdim=True)
    sc = torch.clamp_min(hi - lo, 1e-8) / 255
    q = torch.round((xf - lo) / sc).clamp(0, 255) - 128
    return {"q": q if q.dtype == torch.float64 else q.to(torch.int8), "sc": sc.squeeze(-1),
            "lo": lo.squeeze(-1)}


def ln_bwd_recompute(x, dy, w, eps):
    xf, gf = up(x), up(dy)
    mu = xf.mean(-1, keepdim=True)
    d = xf - mu
    r = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    xh = d * r
    g = gf * up(w)
    dx = r * (g - g.mean(-1, keepdim=True) - xh * (g * xh).mean(-1, keepdim=True))
    return {"dx": dx.to(x.dtype), "dw": (gf * xh).sum(0), "db": gf.sum(0)}


def ln_of_rms(x, w, eps):
    xf = up(x)
    h = xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + eps) * up(w)
    d = h - h.mean(-1, keepdim=True)
    return {"y": (d * torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)).to(x.dtype)}


def logit_stats(x):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    p = torch.softmax(xf, -1)
    return {"mx": xf.amax(-1), "lse": lse, "ent": lse - (p * xf).sum(-1),
            "mean": xf.mean(-1), "std": xf.std(-1, correction=0)}


def keep_mask(x, k):
    xf = up(x)
    th = xf.mean(-1, keepdim=True) + k * xf.std(-1, correction=0, keepdim=True)
    kp = xf > th
    return {"keep": kp, "y": torch.where(kp, xf, 0).to(x.dtype),
            "n": kp.sum(-1).to(torch.int32)}


def e5m2_quant(x):
    xf = up(x)
    m = torch.clamp_min(xf.abs().amax(-1, keepdim=True), 1e-12)
    q = xf * (57344 / m)
    if q.dtype != torch.float64:
        q = q.clamp(-57344, 57344).to(torch.float8_e5m2)
    return {"q": q, "s": (m / 57344).squeeze(-1)}


def fp8_in_rms(q, s, w, eps):
    x = up(q) * up(s)[:, None]
    y = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * up(w)
    return {"y": y.to(w.dtype)}


def row_masked_ce(x, t, keep):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    tl = t.long()
    loss = lse - xf.gather(-1, tl[:, None]).squeeze(-1)
    g = torch.softmax(xf, -1)
    g[torch.arange(x.shape[0], device=x.device), tl] -= 1
    return {"loss": torch.where(keep, loss, 0), "dx": torch.where(keep[:, None], g, 0).to(x.dtype)}


def moe_aux(x):
    xf = up(x)
    p = torch.softmax(xf, -1)
    lse = torch.logsumexp(xf, -1)
    return {"p": p.to(x.dtype), "psum": p.sum(0), "z": lse * lse}


def huber(x, t, delta):
    d = up(x) - up(t)
    a = d.abs()
    q = torch.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta))
    n = x.shape[-1]
    return {"loss": q.sum(-1) / n, "g": (d.clamp(-delta, delta) / n).to(x.dtype)}


def fp8_softmax(q, s, b):
    x = up(q) * up(s)[:, None] + up(b)
    return {"y": torch.softmax(x, -1).to(b.dtype), "lse": torch.logsumexp(x, -1)}


def i8_layernorm(q, s, w, b, eps):
    x = up(q) * up(s)[:, None]
    mu = x.mean(-1, keepdim=True)
    d = x - mu
    v = (d * d).mean(-1, keepdim=True)
    return {"y": (d * torch.rsqrt(v + eps) * up(w) + up(b)).to(w.dtype)}


def dropout_softmax_bwd(p, dy, keep, rate):
    pf = up(p)
    g = torch.where(keep, up(dy) / (1 - rate), 0)
    return {"dx": (pf * (g - (pf * g).sum(-1, keepdim=True))).to(p.dtype)}


def outlier_clip(x, k):
    xf = up(x)
    mu = xf.mean(-1, keepdim=True)
    w = xf.std(-1, correction=0, keepdim=True) * k
    y = torch.minimum(torch.maximum(xf, mu - w), mu + w)
    return {"y": y.to(x.dtype), "n": ((xf - mu).abs() > w).sum(-1).to(torch.int32)}


def wb_grad(dy, x, rstd):
    g = up(dy) * up(x) * up(rstd)[:, None]
    return {"dw": g.sum(0), "db": up(dy).sum(0)}


def pow_norm(x, p, eps):
    xf = up(x)
    n = torch.pow(torch.pow(xf.abs(), p).sum(-1, keepdim=True), 1 / p)
    return {"y": (xf / torch.clamp_min(n, eps)).to(x.dtype), "nrm": n.squeeze(-1)}


def swiglu_fp8(g, u):
    h = torch.nn.functional.silu(up(g)) * up(u)
    m = torch.clamp_min(h.abs().amax(-1, keepdim=True), 1e-12)
    q = h * (448 / m)
    if q.dtype != torch.float64:
        q = q.clamp(-448, 448).to(torch.float8_e4m3fn)
    return {"q": q, "s": (m / 448).squeeze(-1)}


def logit_margin(x, t):
    xf = up(x)
    tl = t.long()
    xt = xf.gather(-1, tl[:, None])
    oh = torch.zeros_like(xf, dtype=torch.bool).scatter_(-1, tl[:, None], True)
    mo = torch.where(oh, float("-inf"), xf).amax(-1, keepdim=True)
    gap = (xt - mo).squeeze(-1)
    return {"loss": torch.clamp_min(1 - gap, 0), "gap": gap}


def ce_bias_grad(x, t):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    oh = torch.zeros_like(xf, dtype=torch.bool).scatter_(-1, t.long()[:, None], True)
    g = torch.softmax(xf, -1) - oh.to(xf.dtype)
    return {"loss": lse - xf.gather(-1, t.long()[:, None]).squeeze(-1), "dx": g.to(x.dtype),
            "db": g.sum(0)}


def masked_pool(x, keep):
    xf = up(x)
    return {"s": torch.where(keep, xf, torch.zeros_like(xf)).sum(0),
            "cnt": keep.to(xf.dtype).sum(-1)}


def f32_residual_rms(x, r, w, eps):
    h = up(x) + up(r)
    y = h * torch.rsqrt((h * h).mean(-1, keepdim=True) + eps) * up(w)
    return {"h": h, "y": y.to(x.dtype)}


def upcast_log_softmax(x):
    xf = up(x)
    lse = torch.logsumexp(xf, -1)
    return {"y": xf - lse[:, None], "lse": lse}


def int_weighted_mean(x, w):
    xf = x.to(torch.float64) if w.dtype == torch.float64 else x.float()
    return {"mean": (xf * up(w)).sum(-1) / x.shape[-1], "mx": xf.amax(-1)}


def quant_err_cols(x):
    xf = up(x)
    sc = torch.clamp_min(xf.abs().amax(-1, keepdim=True), 1e-8) / 127
    xr = torch.round(xf / sc).clamp(-127, 127)
    d = xf - xr * sc
    return {"q": xr if xr.dtype == torch.float64 else xr.to(torch.int8), "sc": sc.squeeze(-1),
            "err": (d * d).sum(0)}


def kd_temp(s, t, tau):
    a, b = up(s) / tau, up(t) / tau
    la, lb = torch.log_softmax(a, -1), torch.log_softmax(b, -1)
    pb = lb.exp()
    return {"loss": tau * tau * (pb * (lb - la)).sum(-1), "ds": (tau * (la.exp() - pb)).to(s.dtype)}


def add_rms_bwd(h, dy, dres, w, rstd):
    hh = up(h) * up(rstd)[:, None]
    g = up(dy) * up(w)
    m = (g * hh).mean(-1, keepdim=True)
    dh = up(rstd)[:, None] * (g - hh * m) + up(dres)
    return {"dh": dh.to(h.dtype), "dw": (up(dy) * hh).sum(0)}


def cov_corr(x, y, eps):
    dx = up(x) - up(x).mean(-1, keepdim=True)
    dy = up(y) - up(y).mean(-1, keepdim=True)
    return {"r": (dx * dy).sum(-1) * torch.rsqrt((dx * dx).sum(-1) * (dy * dy).sum(-1) + eps)}


def logcosh(p, t):
    d = up(p) - up(t)
    return {"loss": torch.log((torch.exp(d) + torch.exp(-d)) * 0.5).mean(-1)}


def ln_dx(x, dy, w, mu, rstd):
    rs = up(rstd)[:, None]
    xh = (up(x) - up(mu)[:, None]) * rs
    g = up(dy) * up(w)
    dx = rs * (g - g.mean(-1, keepdim=True) - xh * (g * xh).mean(-1, keepdim=True))
    return {"dx": dx.to(x.dtype)}


def swiglu_bwd(a, b, dy):
    af, bf, gf = up(a), up(b), up(dy)
    s = torch.sigmoid(af)
    da = gf * bf * s * (1 + af * (1 - s))
    db = gf * af * s
    return {"da": da.to(a.dtype), "db": db.to(a.dtype), "gn": torch.sqrt((da * da + db * db).sum(-1))}


def softmax_colmass(x, t):
    p = torch.softmax(up(x) / up(t)[:, None], -1)
    return {"p": p.to(x.dtype), "mass": p.sum(0)}


def centroid(x):
    a = up(x).abs()
    col = torch.arange(x.shape[-1], device=x.device, dtype=a.dtype)
    return {"c": (a * col).sum(-1) / a.sum(-1), "w": a.amax(-1)}


def gelu_colsum(x):
    xf = up(x)
    y = 0.5 * xf * (1 + torch.erf(xf * 0.70710678))
    return {"y": y.to(x.dtype), "ys": y.sum(0), "r": torch.pow(xf.abs(), 1.5).amax(-1)}


DEFS = {f.__name__: f for f in [l2norm, lse, argmax, mse, var2, stats3, dequant, gelu_norm,
                                colonly, softcap, router, cosine, softmax_backward, log_softmax,
                                log_softmax_backward, entropy, swiglu_norm, masked_mean,
                                bias_grad, bias_gelu_back, softcap_ce, rms_fp8, minmax, bce,
                                l1norm, focal_ce, varlen_softmax, masked_bce, gelu_layernorm,
                                linf_norm, rms_colsum, asym_quant, ln_bwd_recompute,
                                ln_of_rms, logit_stats, keep_mask, e5m2_quant, fp8_in_rms,
                                row_masked_ce, moe_aux, huber, fp8_softmax, i8_layernorm,
                                dropout_softmax_bwd, outlier_clip, wb_grad, pow_norm,
                                swiglu_fp8, logit_margin, ce_bias_grad, masked_pool,
                                f32_residual_rms, upcast_log_softmax, int_weighted_mean,
                                quant_err_cols, kd_temp, add_rms_bwd, cov_corr, logcosh,
                                ln_dx, swiglu_bwd, softmax_colmass, centroid, gelu_colsum]}
