"""The rkc package against the stand-in CUDA driver (tests/runtime/fakecuda.c), no GPU: compile,
the cache, launch arguments as the manifest says, errors as RkcError. The torch parts run only
where torch imports (`--torch`; CPU tensors stand in for device memory: RKC_TORCH_HOST_TENSORS=1);
elsewhere that run exits 77, which ctest reports as not run, never as passed.

Needs: the package installed; RKC_LIBCUDA the stand-in driver; RKC_FAKECUDA_LOG a file it appends
launches to; RKC_CACHE_DIR a scratch directory; RKC_SOURCE the source tree (for testdata/)."""
import ctypes
import json
import os
import shutil
import sys
import tempfile
import unittest

import rkc
from rkc import _cuda

SRC = os.environ.get("RKC_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
KERNELS = os.path.join(SRC, "testdata", "kernels")
LOG = os.environ.get("RKC_FAKECUDA_LOG", "")
try:
    import torch
except ImportError:
    torch = None


def kernel_path(name):
    return os.path.join(KERNELS, name + ".rk")


def last_launch():
    with open(LOG) as f:
        lines = f.read().splitlines()
    return lines[-1] if lines else ""


class Base(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(dir=os.environ["RKC_CACHE_DIR"])

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)


class Compile(Base):
    def test_version(self):
        self.assertEqual(rkc.__version__, rkc.version())
        c = rkc.load(kernel_path("sum"), cache_dir="").compile((8, 1024), "fp32", "sm_90")
        self.assertEqual(c.manifest["rkc_version"], rkc.__version__)

    def test_compile_manifest(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        self.assertEqual(k.name, "rms_norm")
        self.assertEqual([p["name"] for p in k.inputs], ["x", "w"])
        c = k.compile((64, 4096), "bf16", "sm_80")
        self.assertIn(".entry rms_norm(", c.ptx)
        self.assertIn(".target sm_80", c.ptx)
        m = c.manifest
        self.assertEqual(m["manifest_version"], 3)
        self.assertEqual((m["M"], m["N"], m["arch"], m["dtype"]), (64, 4096, "sm_80", "bf16"))
        self.assertEqual(m["valid"]["N"], {"exact": 4096})
        self.assertTrue(m["kernel_hash"].startswith("fnv1a64:"))
        self.assertEqual(c.grid(), m["grid"]["x"])
        self.assertIs(k.compile("64x4096", "bf16", "sm_80"), c)  # the object's own memory
        self.assertIs(k.compile((2, 32, 4096), "bf16", "sm_80"), c)  # BxLxN is M = B*L

    def test_cache_hit(self):
        a = rkc.load(kernel_path("softmax"), cache_dir=self.cache).compile((32, 8192), "fp16")
        self.assertFalse(a.hit)
        self.assertEqual(len([f for f in os.listdir(self.cache) if f.endswith(".rkc")]), 1)
        b = rkc.load(kernel_path("softmax"), cache_dir=self.cache).compile((32, 8192), "fp16")
        self.assertTrue(b.hit)
        self.assertEqual((a.ptx, a.manifest_text), (b.ptx, b.manifest_text))
        # another shape, dtype or forced knob is another entry
        rkc.load(kernel_path("softmax"), cache_dir=self.cache).compile((32, 8192), "fp32")
        rkc.load(kernel_path("softmax"), cache_dir=self.cache,
                 config="num_warps=4").compile((32, 8192), "fp16")
        self.assertEqual(len(os.listdir(self.cache)), 3)
        # cache=False writes nothing
        c = rkc.load(kernel_path("softmax"), cache=False).compile((16, 8192), "fp16")
        self.assertFalse(c.hit)
        self.assertEqual(len(os.listdir(self.cache)), 3)

    def test_cache_dir_from_environment(self):
        old = os.environ.get("RKC_CACHE_DIR")
        os.environ["RKC_CACHE_DIR"] = self.cache
        try:
            rkc.load(kernel_path("sum")).compile((8, 1024), "fp32")
        finally:
            os.environ["RKC_CACHE_DIR"] = old
        self.assertEqual(len(os.listdir(self.cache)), 1)

    def test_cubin(self):
        c = rkc.load(kernel_path("sum"), cache_dir=self.cache).compile((8, 1024), "fp32",
                                                                        cubin=True)
        self.assertEqual(c.cubin[:4], b"\x7fELF")

    def test_explain(self):
        e = rkc.explain(kernel_path("cross_entropy"), (4096, 151936), "bf16", "sm_90")
        self.assertEqual(e["kernel"], "cross_entropy")
        self.assertIsInstance(e["reasons"], list)
        self.assertTrue(e["reasons"])
        for key in ("config_short", "predicted_regs", "modelled_us", "persistent", "spills"):
            self.assertIn(key, e)
        k = rkc.load(kernel_path("cross_entropy"))
        self.assertEqual(k.explain("4096x151936", "bf16")["config_short"], e["config_short"])

    def test_archs(self):
        self.assertEqual(rkc.archs()[:4], ["sm_80", "sm_86", "sm_89", "sm_90"])

    def test_text(self):
        with open(kernel_path("sum")) as f:
            k = rkc.load(f.read())
        self.assertEqual(k.name, "sum")
        self.assertEqual(k.file, "<text>")


class Errors(Base):
    def check(self, text, fn, *args, **kwargs):
        with self.assertRaises(rkc.RkcError) as e:
            fn(*args, **kwargs)
        self.assertIn(text, str(e.exception))

    def test_bad_requests(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        self.check("unsupported dtype 'fp64' (expected bf16, fp16 or fp32)", k.compile,
                   (64, 4096), "fp64")
        self.check("unsupported arch 'sm_70' (expected sm_80, sm_86, sm_89, sm_90",
                   k.compile, (64, 4096), "bf16", "sm_70")
        self.check("bad shape '64x'", k.compile, "64x", "bf16")
        self.check("N is over 2^40", k.compile, (5, 1 << 61), "bf16")
        self.check("unknown policy 'best'", rkc.load(kernel_path("sum"), policy="best").compile,
                   (8, 64), "fp32")
        self.check("infeasible --config 'split=2'",
                   rkc.load(kernel_path("layer_norm"), config="split=2").compile, (64, 4096),
                   "bf16")
        self.check("bad --config 'warps=8': unknown key 'warps'",
                   rkc.load(kernel_path("sum"), config="warps=8").explain, (8, 64), "fp32")

    def test_bad_kernel(self):
        self.check("<text>:2:", rkc.load, "kernel k\nin x: Q[M,N]\n")
        path = os.path.join(self.cache, "bad.rk")
        with open(path, "w") as f:
            f.write("kernel k\nin x: T[M,N]\n%y = frobnicate %x\n")
        self.check(path + ":3:", rkc.load, path)

    def test_bad_launch(self):
        c = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache).compile((64, 4096), "bf16")
        d = _cuda.driver()
        x, w, y, r = (d.alloc(64 * 4096 * 2) for _ in range(4))
        self.check("no argument for 'rstd'", c.launch, {"x": x, "w": w, "y": y})
        self.check("is not aligned to 16 bytes", c.launch, {"x": x + 2, "w": w, "y": y, "rstd": r})
        self.check("M=0 is outside", c.launch, {"x": x, "w": w, "y": y, "rstd": r}, M=0)

    def test_no_driver(self):
        self.check("no CUDA driver: /nonexistent/libcuda.so.1", _cuda.Driver,
                   "/nonexistent/libcuda.so.1")


class Launch(Base):
    def test_arguments_as_the_manifest_says(self):
        d = _cuda.driver()
        self.assertEqual(d.arch(0), "sm_90")  # the stand-in says compute capability 9.0
        k = rkc.load(kernel_path("rms_norm"), config="m_block=2", cache_dir=self.cache)
        c = k.compile((64, 4096), "bf16", "sm_90")
        ptr = {n: d.alloc(64 * 4096 * 2) for n in ("x", "w", "y", "rstd")}
        plan = c.launch(ptr)
        m = c.manifest
        self.assertEqual(plan["grid"], 32)
        order = [p["name"] for p in m["params"]]
        self.assertEqual(order, ["x", "w", "y", "rstd", "eps", "M", "N", "x.stride", "y.stride"])
        args = ",".join(str(ptr[n]) for n in order[:4]) + ",9.99999997e-07,64,4096,4096,4096"
        self.assertEqual(last_launch(), f"launch rms_norm grid=32,1,1 block={m['block']['x']},1,1 "
                                        f"smem={m['dynamic_smem']} cluster=1 args={args}")
        c.launch(dict(ptr, eps=0.5), M=7)  # another M: the grid by its formula; a param given
        args = ",".join(str(ptr[n]) for n in order[:4]) + ",0.5,7,4096,4096,4096"
        self.assertIn(f"grid=4,1,1 block={m['block']['x']},1,1 smem=0 cluster=1 args={args}",
                      last_launch())

    def test_workspace_zeroed_once_and_when_m_grows(self):
        d = _cuda.driver()
        k = rkc.load(kernel_path("long_sum"), cache_dir=self.cache,
                     config="persistent=0,r_block=8192,num_warps=8,vec=4,split=16")
        c = k.compile((3, 1 << 20), "fp32", "sm_80")
        self.assertEqual(c.workspace_bytes(), c.manifest["workspace"]["bytes"])
        self.assertEqual(c.workspace_bytes(5), 32 + 5 * 16 * 4)
        x, s = d.alloc(5 << 22), d.alloc(64)
        plan = c.launch({"x": x, "s": s})
        ws = plan["args"][-1]
        self.assertEqual(plan["grid"], 48)
        self.assertTrue(last_launch().endswith(f",3,1048576,1048576,{ws}"))
        # the stand-in's device memory is host memory: the workspace is there, zeroed
        n = c.workspace_bytes()
        self.assertEqual(ctypes.string_at(ws, n), bytes(n))
        ctypes.memset(ws + 16, 7, 4)  # partials left behind where a larger M's counters go
        c.launch({"x": x, "s": s})  # the same M: not zeroed again
        self.assertEqual(ctypes.string_at(ws + 16, 4), b"\x07" * 4)
        plan = c.launch({"x": x, "s": s}, M=5)  # a larger M: zeroed again (or made anew)
        ws5 = plan["args"][-1]
        self.assertEqual(ctypes.string_at(ws5, c.workspace_bytes(5)), bytes(c.workspace_bytes(5)))
        self.assertEqual(plan["grid"], 80)

    def test_capped_dynamic_grid(self):
        d = _cuda.driver()
        c = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache,
                     config="grid=8,dynamic=1").compile((64, 4096), "bf16", "sm_90")
        self.assertEqual(c.manifest["grid"]["cap"], 8)
        self.assertEqual((c.grid(), c.grid(5), c.workspace_bytes()), (8, 5, 16))
        plan = c.launch({n: d.alloc(64 * 4096 * 2) for n in ("x", "w", "y", "rstd")}, M=5)
        self.assertEqual(plan["grid"], 5)
        ws = plan["args"][-1]
        self.assertEqual(ctypes.string_at(ws, 16), bytes(16))
        self.assertTrue(last_launch().endswith(f",5,4096,4096,4096,{ws}"))

    def test_row_strides(self):
        """A row stride per [M,N] array after N, dense by default; the manifest's stride rule
        and each array's own alignment checked before anything launches."""
        d = _cuda.driver()
        c = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache).compile((64, 4096), "bf16")
        m = c.manifest
        self.assertEqual(m["stride_rule"], {"modulus": 8, "residue": 0})
        self.assertEqual([(p["name"], p.get("align"), p.get("stride_param")) for p in
                          m["params"][:4]], [("x", 16, "x.stride"), ("w", 16, None),
                                             ("y", 16, "y.stride"), ("rstd", 4, None)])
        self.assertEqual([(p["kind"], p["of"]) for p in m["params"][-2:]],
                         [("stride", "x"), ("stride", "y")])
        ptr = {n: d.alloc(64 * 4200 * 2) for n in ("x", "w", "y", "rstd")}
        c.launch(ptr, strides={"x": 4096 + 64})
        self.assertTrue(last_launch().endswith(",64,4096,4160,4096"), last_launch())
        c.launch(ptr, strides={"x": 4104, "y": 4112})
        self.assertTrue(last_launch().endswith(",64,4096,4104,4112"), last_launch())
        n = len(open(LOG).read().splitlines())
        for strides, text in [
                ({"x": 4100}, "rms_norm: 'x': row stride 4100 breaks the manifest's stride rule: "
                              "at least N=4096 and stride % 8 == 0 (N plus a multiple of 8)"),
                ({"y": 4088}, "'y': row stride 4088 breaks the manifest's stride rule"),
                ({"rstd": 64}, "a row stride for 'rstd', which is not an [M,N] array (those "
                               "are: x, y)")]:
            with self.assertRaises(rkc.RkcError) as e:
                c.launch(ptr, strides=strides)
            self.assertIn(text, str(e.exception))
        self.assertEqual(len(open(LOG).read().splitlines()), n)  # refused before launching
        # [M] arrays need their element's alignment only: rstd (f32) at +4 launches
        c.launch(dict(ptr, rstd=ptr["rstd"] + 4))
        with self.assertRaises(rkc.RkcError) as e:
            c.launch(dict(ptr, rstd=ptr["rstd"] + 2))
        self.assertIn("'rstd' at 0x%x is not aligned to 4 bytes" % (ptr["rstd"] + 2),
                      str(e.exception))

    def test_shifted_rows_stride_rule(self):
        """N not a multiple of vec: rows start misaligned, and every stride is N plus a
        multiple of vec, so each array's row r starts as misaligned as r*N; an i64 [M] array
        needs 8-byte alignment, not 16."""
        d = _cuda.driver()
        c = rkc.load(kernel_path("cross_entropy"), cache_dir=self.cache,
                     config="vec=8").compile((4, 1001), "bf16")
        self.assertEqual(c.manifest["stride_rule"], {"modulus": 8, "residue": 1})
        self.assertEqual([c.align(n) for n in ("x", "t", "loss")], [16, 8, 4])
        ptr = {n: d.alloc(4 * 1024 * 2) for n in ("x", "t", "loss")}
        c.launch(dict(ptr, t=ptr["t"] + 8), strides={"x": 1009})
        self.assertTrue(last_launch().endswith(",4,1001,1009"), last_launch())
        with self.assertRaises(rkc.RkcError) as e:
            c.launch(ptr, strides={"x": 1008})
        self.assertIn("'x': row stride 1008 breaks the manifest's stride rule: at least N=1001 "
                      "and stride % 8 == 1 (N plus a multiple of 8)", str(e.exception))

    def test_cluster(self):
        d = _cuda.driver()
        k = rkc.load(kernel_path("softmax"), cache_dir=self.cache,
                     config="cluster=4,persistent=1,r_block=65536,num_warps=32")
        c = k.compile((4, 262144), "bf16", "sm_90")
        c.launch({n: d.alloc(4 * 262144 * 2) for n in ("x", "y")})
        self.assertIn("grid=16,1,1 block=1024,1,1 smem=0 cluster=4", last_launch())

    def test_cooperative(self):
        d = _cuda.driver()
        k = rkc.load(kernel_path("layer_norm"), cache_dir=self.cache,
                     config="persistent=0,r_block=2048,num_warps=4,vec=4,cluster=5,coop=1")
        c = k.compile((3, 50257), "f32", "sm_80")
        plan = c.launch({n: d.alloc(3 * 50257 * 4) for n in ("x", "w", "b", "y", "mean", "rstd")})
        self.assertTrue(plan["cooperative"])
        self.assertIn("grid=15,1,1 block=128,1,1 smem=0 cluster=1 cooperative", last_launch())

    def test_cluster_grid(self):
        # a grid of clusters with sums over rows: clustered and cooperative at once
        d = _cuda.driver()
        k = rkc.load(kernel_path("rms_norm_backward"), cache_dir=self.cache,
                     config="persistent=0,r_block=1024,num_warps=4,vec=4,grid=6,cluster=2,colpass=0")
        c = k.compile((7, 4096), "f32", "sm_90")
        plan = c.launch({p["name"]: d.alloc(7 * 4096 * 4) for p in c.manifest["params"]})
        self.assertTrue(plan["cooperative"])
        self.assertIn("grid=6,1,1 block=128,1,1 smem=8192 cluster=2 cooperative", last_launch())

    def test_columns_grid(self):
        # the whole kernel in the column pass: the config's grid at every M, not cooperative
        d = _cuda.driver()
        k = rkc.load(os.path.join(SRC, "tests", "codegen", "colpass_whole.rk"),
                     cache_dir=self.cache,
                     config="persistent=0,r_block=1024,num_warps=8,vec=4,grid=40,colpass=1")
        c = k.compile((8, 4096), "f32", "sm_90")
        self.assertTrue(c.manifest["grid"]["columns"])
        self.assertEqual((c.grid(), c.grid(2), c.grid(100000)), (40, 40, 40))
        plan = c.launch({p["name"]: d.alloc(8 * 4096 * 8) for p in c.manifest["params"]}, M=2)
        self.assertEqual(plan["grid"], 40)
        self.assertFalse(plan["cooperative"])


@unittest.skipIf(torch is None, "torch is not importable here")
class Torch(Base):
    """k(x, w, eps=...) on CPU tensors standing in for device memory."""

    def setUp(self):
        super().setUp()
        os.environ["RKC_TORCH_HOST_TENSORS"] = "1"

    def tensors(self, M, N):
        x = torch.randn(M, N).to(torch.bfloat16)
        return x, torch.randn(N).to(torch.bfloat16)

    def test_call(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        x, w = self.tensors(64, 4096)
        y, rstd = k(x, w, eps=1e-5)
        self.assertEqual((y.shape, y.dtype), (x.shape, torch.bfloat16))
        self.assertEqual((rstd.shape, rstd.dtype), ((64,), torch.float32))
        want = (f"args={x.data_ptr()},{w.data_ptr()},{y.data_ptr()},{rstd.data_ptr()},"
                "9.99999975e-06,64,4096,4096,4096")
        self.assertTrue(last_launch().endswith(want), last_launch())
        y3, _ = k(x.view(2, 32, 4096), w)  # leading dims are rows
        self.assertEqual(y3.shape, (2, 32, 4096))

    def test_errors(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        x, w = self.tensors(64, 4096)
        for args, text in [((x[:, ::2], w[:2048]), "input 'x' is not rows of contiguous elements"),
                           ((x, w.float()), "the kernel wants torch.bfloat16"),
                           ((x, w[:100]), "has shape (100,)"),
                           ((x,), "missing input(s): w"),
                           ((x.double(), w), "rkc kernels take bfloat16, float16 or float32")]:
            with self.assertRaises(rkc.RkcError) as e:
                k(*args)
            self.assertIn(text, str(e.exception))

    def test_strided_inputs(self):
        """A column slice of a wider tensor passes its row stride; a row slice its offset base;
        the outputs are dense. What breaks the stride rule or the alignment is refused, naming
        the input and the rule."""
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        full, w = self.tensors(64, 4096 + 64)
        x = full[:, :4096]
        y, rstd = k(x, w[:4096])
        self.assertTrue(y.is_contiguous())
        self.assertTrue(last_launch().endswith(
            f"{y.data_ptr()},{rstd.data_ptr()},9.99999997e-07,64,4096,4160,4096"), last_launch())
        rows = torch.randn(70, 4096).to(torch.bfloat16)[3:67]  # 3 rows in: 24576 bytes
        k(rows, w[:4096])
        self.assertIn(f"args={rows.data_ptr()},", last_launch())
        self.assertTrue(last_launch().endswith(",64,4096,4096,4096"), last_launch())
        # leading dims flattened: (2, 32, N) rows of a padded (2, 32, N+64)
        k(full.view(2, 32, 4096 + 64)[..., :4096], w[:4096])
        self.assertTrue(last_launch().endswith(",64,4096,4160,4096"), last_launch())
        wide, _ = self.tensors(64, 4100)
        flat = torch.randn(64 * 4096 + 1).to(torch.bfloat16)
        for args, text in [
                ((wide[:, :4096], w[:4096]),
                 "rms_norm: input 'x': row stride 4100 breaks the manifest's stride rule: at "
                 "least N=4096 and stride % 8 == 0 (N plus a multiple of 8); pass .contiguous()"),
                ((flat[1:].view(64, 4096), w[:4096]),
                 "input 'x' starts at 0x%x, not a multiple of 16 bytes" % flat[1:].data_ptr()),
                ((torch.randn(2, 40, 4096).to(torch.bfloat16)[:, :32], w[:4096]),
                 "input 'x' is not rows of contiguous elements (strides (163840, 4096, 1))"),
                ((x.t(), w[:64]), "input 'x' is not rows of contiguous elements")]:
            with self.assertRaises(rkc.RkcError) as e:
                k(*args)
            self.assertIn(text, str(e.exception))

    def test_labels_at_an_offset(self):
        """An [M] i64 input sliced by rows starts 8 bytes in: its accesses need 8, not 16."""
        k = rkc.load(kernel_path("cross_entropy"), cache_dir=self.cache)
        x = torch.randn(5, 512).to(torch.bfloat16)
        t = torch.randint(0, 512, (5,))
        loss = k(x[1:], t[1:])
        self.assertEqual(loss.shape, (4,))
        self.assertIn(f"args={x[1:].data_ptr()},{t.data_ptr() + 8},", last_launch())

    def test_compile_without_graph_break(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        x, w = self.tensors(16, 1024)

        def f(x, w):
            y, rstd = k(x * 2, w, eps=1e-6)
            return y.float().sum() + rstd.sum()
        torch._dynamo.reset()
        out = torch.compile(f, fullgraph=True, backend="eager")(x, w)  # fullgraph: no break
        self.assertEqual(out.shape, ())
        ex = torch._dynamo.explain(f)(x, w)
        self.assertEqual(ex.graph_break_count, 0)
        # symbolic sizes reach the fake implementation as they are
        g = torch.compile(f, fullgraph=True, backend="eager", dynamic=True)
        self.assertEqual(g(self.tensors(8, 1024)[0], w).shape, ())

    def test_opcheck(self):
        k = rkc.load(kernel_path("rms_norm"), cache_dir=self.cache)
        x, w = self.tensors(16, 1024)
        # the stand-in driver writes no output, so only the checks that compare no values
        r = torch.library.opcheck(k._op, (x, w, 1e-6), test_utils=("test_schema",
                                                                    "test_faketensor"))
        self.assertEqual(set(r.values()), {"SUCCESS"})

    def test_one_output_and_labels(self):
        k = rkc.load(kernel_path("cross_entropy"), cache_dir=self.cache)
        x = torch.randn(4, 512).to(torch.bfloat16)
        t = torch.randint(0, 512, (4,))
        loss = k(x, t)
        self.assertEqual((loss.shape, loss.dtype), ((4,), torch.float32))
        self.assertTrue(last_launch().startswith("launch cross_entropy "))
        self.assertTrue(last_launch().endswith(
            f"args={x.data_ptr()},{t.data_ptr()},{loss.data_ptr()},4,512,512"), last_launch())


SKIPPED = 77  # ctest's SKIP_RETURN_CODE: shown as not run, never as passed

if __name__ == "__main__":
    # test_rkc.py: all but the torch tests; test_rkc.py --torch: those alone, or exit 77 (not run)
    # where torch does not import
    only_torch = sys.argv[1:] == ["--torch"]
    if only_torch and torch is None:
        print("NOT RUN: the torch tests (torch is not importable here)")
        sys.exit(SKIPPED)
    loader = unittest.defaultTestLoader
    suite = unittest.TestSuite(
        loader.loadTestsFromTestCase(c) for c in (Compile, Errors, Launch, Torch)
        if (c is Torch) == only_torch)
    r = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(r.failures) + len(r.errors) + len(r.unexpectedSuccesses)
    skipped = len(r.skipped)
    for test, why in r.skipped:
        print(f"NOT RUN: {test.id()}: {why}")
    print(f"{r.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed or not r.wasSuccessful() else 0)
