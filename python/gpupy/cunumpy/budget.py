"""TransferBudget: transfer counts per named phase of a program (setup, step, output), with
limits that a test or a production run checks."""

import contextlib
import functools

from gpupy.cunumpy import profiling
from gpupy.cunumpy.profiling import KINDS, TransferCounter

LIMITS = ("max_nbytes", "max_count", "max_total_bytes", "blocking", "implicit")


class TransferBudget:
    """Counts transfers per phase; an event goes to the innermost active phase only."""

    def __init__(self, *, started=True):
        self.phases = {}  # name -> TransferCounter
        self.calls = {}  # name -> number of (outermost) entries
        self._stack = []
        self._rules = {}
        self._running = False
        if started:
            self.start()

    def start(self):
        if not self._running:
            profiling._active.append(self)
            self._running = True
        return self

    def stop(self):
        if self._running:
            profiling._active.remove(self)
            self._running = False
        return self

    def _add(self, event):
        if self._stack:
            self.phases[self._stack[-1]]._add(event)

    def __getitem__(self, name):
        return self.phases[name]

    @contextlib.contextmanager
    def phase(self, name):
        """Events inside the block count for `name`; re-entering a phase counts one call."""
        self.phases.setdefault(name, TransferCounter())
        self.calls.setdefault(name, 0)
        if name not in self._stack:
            self.calls[name] += 1
        self._stack.append(name)
        try:
            yield self.phases[name]
        finally:
            self._stack.pop()

    def count(self, name):
        """Decorator: every call of the function is the phase `name`."""

        def wrap(func):
            @functools.wraps(func)
            def inner(*args, **kwargs):
                with self.phase(name):
                    return func(*args, **kwargs)

            return inner

        return wrap

    def require(self, phase, allow=None, *, ignore=("device_copy", "sync"), calls=None):
        """Limits for a phase: allow maps kinds to an int (max_count) or a dict of LIMITS; kinds
        not allowed nor ignored must not occur; calls is the expected number of phase calls."""
        rules = {}
        for kind, limits in (allow or {}).items():
            _kind(kind)
            limits = {"max_count": limits} if isinstance(limits, int) else dict(limits)
            for key in limits:
                if key not in LIMITS:
                    raise ValueError(f"unknown limit {key!r}; expected one of {', '.join(LIMITS)}")
            rules[kind] = limits
        for kind in ignore:
            _kind(kind)
        self._rules[phase] = (rules, tuple(ignore), calls)
        return self

    def violations(self):
        """One line per broken limit."""
        out = []
        for phase, (rules, ignore, calls) in self._rules.items():
            counter = self.phases.get(phase, TransferCounter())
            if calls is not None and self.calls.get(phase, 0) != calls:
                out.append(f"{phase}: {self.calls.get(phase, 0)} call(s), expected {calls}")
            for kind in KINDS:
                events = [e for e in counter.events if e.kind == kind]
                if events and kind not in ignore:
                    out.extend(_check(phase, kind, events, rules.get(kind)))
        return out

    def report(self):
        lines = []
        for name, counter in self.phases.items():
            lines.append(f"phase {name!r} ({self.calls[name]} call(s)): {counter.report()}")
        return "\n".join(lines) if lines else "no phases"

    def check(self):
        bad = self.violations()
        if bad:
            raise AssertionError("transfer budget exceeded:\n  " + "\n  ".join(bad))


def _kind(kind):
    if kind not in KINDS:
        raise ValueError(f"unknown transfer kind {kind!r}; expected one of {', '.join(KINDS)}")


def _check(phase, kind, events, limits):
    if limits is None:
        return [f"{phase}: {len(events)} {kind} event(s), none allowed ({events[0]})"]
    out = []
    if "max_count" in limits and len(events) > limits["max_count"]:
        out.append(f"{phase}: {len(events)} {kind} event(s), at most {limits['max_count']}")
    if "max_nbytes" in limits:
        for e in events:
            if e.nbytes is None or e.nbytes > limits["max_nbytes"]:
                out.append(f"{phase}: {kind} of {e.nbytes} bytes > {limits['max_nbytes']} ({e})")
    total = sum(e.nbytes or 0 for e in events)
    if "max_total_bytes" in limits and total > limits["max_total_bytes"]:
        out.append(f"{phase}: {total} {kind} bytes, at most {limits['max_total_bytes']}")
    for flag in ("blocking", "implicit"):
        if limits.get(flag) is False and any(getattr(e, flag) for e in events):
            out.append(f"{phase}: {flag} {kind} events are not allowed")
    return out
