"""The Python side of tools/bench/bench-shim: the benchmark model in PyTorch.

Run by bench-shim with the interpreter whose torch is measured; prints one
JSON object. The model is wrapguard::DemoModel's twin: blocks of
x + Dropout(Linear(GELU(Linear(LayerNorm(x))))), then LayerNorm and a head.

Usage: bench_shim_python.py --mode variants|plain --device D --blocks N
       --seq N --width N --hidden N --batch N --steps N --threads N
       [--cpumem LIB] [--retain-freed-memory]

variants: plain, torch.utils.checkpoint reentrant and non-reentrant, one
          untimed step each, then --steps timed steps each, alternating.
plain:    the plain model alone, one untimed step then --steps timed steps,
          as wrapguard-verify --bench --plain-only times it.
On the CPU, memory is counted by the c10 allocator in --cpumem
(libwrapguard-cpumem.so), the same counter the C++ side uses; it is also
what --retain-freed-memory calls (wrapguard_cpu_memory_retain_freed).
"""
import argparse
import ctypes
import json
import statistics
import time
import warnings

import torch
import torch.utils.checkpoint as cp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["variants", "plain"], required=True)
    ap.add_argument("--device", default="cpu")
    for name in ["blocks", "seq", "width", "hidden", "batch", "steps", "threads"]:
        ap.add_argument("--" + name, type=int, required=True)
    ap.add_argument("--cpumem")
    ap.add_argument("--retain-freed-memory", action="store_true")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    dev = torch.device(a.device)

    if dev.type == "cpu":
        lib = ctypes.CDLL(a.cpumem)
        lib.wrapguard_cpu_memory_current.restype = ctypes.c_int64
        lib.wrapguard_cpu_memory_peak.restype = ctypes.c_int64
        if a.retain_freed_memory and lib.wrapguard_cpu_memory_retain_freed() != 1:
            raise SystemExit("bench_shim_python: cannot retain freed memory here")
        lib.wrapguard_cpu_memory_install()
        current, peak = lib.wrapguard_cpu_memory_current, lib.wrapguard_cpu_memory_peak
        reset_peak = lib.wrapguard_cpu_memory_reset_peak
        sync = lambda: None  # noqa: E731
    else:
        current = lambda: torch.cuda.memory_allocated(dev)  # noqa: E731
        peak = lambda: torch.cuda.max_memory_allocated(dev)  # noqa: E731
        reset_peak = lambda: torch.cuda.reset_peak_memory_stats(dev)  # noqa: E731
        sync = lambda: torch.cuda.synchronize(dev)  # noqa: E731

    class Block(torch.nn.Module):  # wrapguard::DemoBlock
        def __init__(self):
            super().__init__()
            self.norm = torch.nn.LayerNorm(a.width)
            self.fc1 = torch.nn.Linear(a.width, a.hidden)
            self.fc2 = torch.nn.Linear(a.hidden, a.width)
            self.drop = torch.nn.Dropout(0.1)

        def forward(self, x):
            return x + self.drop(self.fc2(torch.nn.functional.gelu(self.fc1(self.norm(x)))))

    class Model(torch.nn.Module):  # wrapguard::DemoModel
        def __init__(self, mode):
            super().__init__()
            self.mode = mode
            self.blocks = torch.nn.ModuleList(Block() for _ in range(a.blocks))
            self.norm = torch.nn.LayerNorm(a.width)
            self.head = torch.nn.Linear(a.width, a.width)

        def forward(self, x):
            for b in self.blocks:
                if self.mode == "plain":
                    x = b(x)
                else:
                    x = cp.checkpoint(b, x, use_reentrant=self.mode == "reentrant")
            return self.head(self.norm(x))

    torch.manual_seed(0)
    x = torch.randn(a.batch, a.seq, a.width, device=dev)
    # Reentrant checkpoint drops the grads of a block whose inputs need none,
    # so its input must require grad to compute the same thing.
    x_req = x.detach().clone().requires_grad_(True)
    names = ["plain"] if a.mode == "plain" else ["plain", "reentrant", "non_reentrant"]
    models = {m: Model(m).to(dev) for m in names}
    state = models["plain"].state_dict()
    for m in models.values():
        m.load_state_dict(state)

    def step(name):
        model = models[name]
        for p in model.parameters():
            p.grad = None
        inp = x_req if name == "reentrant" else x
        inp.grad = None
        torch.manual_seed(0)
        sync()
        reset_peak()
        base = current()
        t0 = time.perf_counter()
        loss = model(inp).square().mean()
        held = current() - base
        loss.backward()
        sync()
        return time.perf_counter() - t0, peak() - base, held

    result = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:  # also the warm-up
            _, pk, held = step(name)
            result[name] = {"peak_bytes": pk, "activation_bytes": held, "step_times": []}
        for _ in range(a.steps):
            for name in names:
                result[name]["step_times"].append(step(name)[0])
    for r in result.values():
        r["step_seconds"] = statistics.median(r["step_times"]) if r["step_times"] else 0
    result["torch"] = torch.__version__
    print(json.dumps(result))


if __name__ == "__main__":
    main()
