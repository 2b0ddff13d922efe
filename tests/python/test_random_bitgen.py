"""gpupy.random's bit generators against NumPy's API: Philox (constructor, state, advance, spawn,
random_raw checked bit for bit against Random123's known answer and the host Philox4x32-10
reference), Generator(Philox), BitGenerator, the NumPy bit generators gpupy refuses, and the
legacy get_bit_generator/set_bit_generator."""

import inspect
import pickle

import gpupy
import numpy
import pytest
from gpupy.cunumpy import rng as ref

R = gpupy.random


def _raw_reference(key, counters):
    """(w0 << 32) | w1 of Philox4x32-10 at counter words {lo, hi, 0, 0} under key {lo, hi}."""
    counters = numpy.asarray(counters, dtype=numpy.uint64)
    ctr = numpy.zeros(counters.shape + (4,), numpy.uint32)
    ctr[..., 0] = counters & numpy.uint64(0xFFFFFFFF)
    ctr[..., 1] = counters >> numpy.uint64(32)
    w = ref.philox4x32_10(ctr, numpy.array([key & 0xFFFFFFFF, key >> 32], numpy.uint32))
    return (w[..., 0].astype(numpy.uint64) << numpy.uint64(32)) | w[..., 1]


def test_random_raw_is_random123_known_answer():
    # Random123's kat_vectors: philox4x32_10 of counter 0 under key 0 starts 6627e8d5 e169c58d.
    assert R.Philox(key=0).random_raw() == 0x6627E8D5_E169C58D


@pytest.mark.parametrize("key,counter", [(0, 0), (7, 2**32 - 3), (2**64 - 1, 2**64 - 2)])
def test_random_raw_matches_the_reference_on_the_device(device_name, key, counter):
    bg = R.Philox(key=key, counter=counter)
    raw = bg.random_raw((2, 3), device=device_name)
    assert raw.device == gpupy.Device(device_name) and raw.dtype == numpy.uint64
    counters = [(counter + i) % 2**64 for i in range(6)]  # the counter wraps at 2**64
    numpy.testing.assert_array_equal(raw.get().ravel(), _raw_reference(key, counters))
    assert bg.state["state"] == {"key": key, "counter": (counter + 6) % 2**64}
    assert (
        bg.random_raw(output=False) is None
        and bg.state["state"]["counter"] == (counter + 7) % 2**64
    )


def test_generator_of_philox_is_default_rng(device_name):
    for seed in (5, [1, 2], R.SeedSequence(9)):
        mine = R.Generator(R.Philox(seed)).random(50, device=device_name).get()
        numpy.testing.assert_array_equal(mine, R.default_rng(seed).random(50).get())
    numpy.testing.assert_array_equal(
        R.Generator(R.Philox(5)).random(4).get(), ref.philox_uniform(5, numpy.arange(4))
    )


def test_generator_shares_the_bit_generators_state_as_numpys():
    nbg = numpy.random.Philox(3)
    assert numpy.random.Generator(nbg).bit_generator is nbg
    bg = R.Philox(3)
    g = R.Generator(bg)
    assert g.bit_generator is bg
    g.standard_normal(7)
    assert bg.state["state"]["counter"] == 7
    numpy.testing.assert_array_equal(
        bg.random_raw(2).get(), _raw_reference(3, [7, 8])
    )  # the generator's draws advanced the bit generator


def test_constructor_arguments_are_numpys():
    assert inspect.signature(R.Philox) == inspect.signature(numpy.random.Philox)
    assert R.Philox(key=9, counter=4).state == {
        "bit_generator": "Philox4x32-10",
        "state": {"key": 9, "counter": 4},
    }
    seq = numpy.random.SeedSequence(4)
    bg = R.Philox(seq)
    assert bg.seed_seq is seq and bg.state["state"]["key"] == seq.generate_state(1, "u8")[0]
    assert R.Philox(12).seed_seq.entropy == 12
    assert R.Philox(key=12).seed_seq.entropy == 12  # keyed directly, children still reproducible
    for kwargs in ({"seed": 1, "key": 2}, {"counter": -1}):
        with pytest.raises(ValueError):
            numpy.random.Philox(**kwargs)
        with pytest.raises(ValueError, match=r"^\[Philox\] "):
            R.Philox(**kwargs)
    with pytest.raises(ValueError, match=r"^\[Philox\] key must be in \[0, 2\*\*64\)"):
        R.Philox(key=2**64)  # NumPy's Philox4x64 takes 128-bit keys; gpupy's key is 64 bits
    with pytest.raises(ValueError, match=r"^\[Philox\] Seed must be non-negative"):
        R.Philox(-1)
    with pytest.raises(TypeError, match=r"^\[Philox\] seed must be None, an integer"):
        R.Philox(1.5)
    with pytest.raises(TypeError, match=r"^\[Philox\] counter must be an integer"):
        R.Philox(counter=1.5)


def test_advance_is_drawing_that_many_elements(device_name):
    bg = R.Philox(21)
    assert bg.advance(1000) is bg  # NumPy's advance returns the bit generator too
    numpy.testing.assert_array_equal(
        R.Generator(bg).random(5, device=device_name).get(),
        ref.philox_uniform(21, numpy.arange(1000, 1005)),
    )
    assert R.Philox(key=1, counter=2**64 - 1).advance(3).state["state"]["counter"] == 2
    with pytest.raises(ValueError, match=r"^\[advance\] delta must be non-negative"):
        bg.advance(-1)
    with pytest.raises(NotImplementedError, match=r"^\[jumped\] .* use spawn"):
        bg.jumped()


def test_spawn_and_pickle():
    bg = R.Philox(11)
    kids = bg.spawn(2)
    assert all(type(k) is R.Philox for k in kids) and bg.seed_seq.n_children_spawned == 2
    expected = R.default_rng(11).spawn(2)[1].random(4).get()
    numpy.testing.assert_array_equal(R.Generator(kids[1]).random(4).get(), expected)
    bg.advance(5)
    again = pickle.loads(pickle.dumps(R.Generator(bg)))
    assert again.bit_generator.state == bg.state
    numpy.testing.assert_array_equal(again.random(3).get(), R.Generator(bg).random(3).get())


def test_numpys_philox_is_a_different_generator():
    # NumPy's Philox is Philox4x64-10: a 256-bit counter and a 128-bit key of 64-bit words, so
    # no NumPy key/counter reproduces gpupy's 32-bit-word stream; their states are refused.
    state = numpy.random.Philox(key=0, counter=0).state
    assert state["state"]["counter"].shape == (4,) and state["state"]["key"].dtype == numpy.uint64
    with pytest.raises(ValueError, match=r"^\[state\] state must be for Philox4x32-10"):
        R.Philox(0).state = state
    with pytest.raises(TypeError, match=r"^\[Generator\] Philox cannot drive"):
        R.Generator(numpy.random.Philox(0))


@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "MT19937", "SFC64"])
def test_numpy_bit_generators_gpupy_cannot_draw_say_what_to_write(name):
    numpy_bg = getattr(numpy.random, name)(1)  # exists and works in NumPy
    assert isinstance(numpy_bg, numpy.random.BitGenerator)
    cls = getattr(R, name)
    assert issubclass(cls, R.BitGenerator)
    with pytest.raises(NotImplementedError, match=rf"^\[{name}\] .*gpupy.random.Philox\(seed\)"):
        R.Generator(cls(1))
    with pytest.raises(TypeError, match=rf"^\[default_rng\] {name}: NumPy bit generators"):
        R.default_rng(numpy_bg)


def test_bit_generator_is_the_base_class():
    assert issubclass(R.Philox, R.BitGenerator)
    with pytest.raises(NotImplementedError):
        R.BitGenerator(1).random_raw()
    assert R.BitGenerator(3).seed_seq.entropy == numpy.random.PCG64(3).seed_seq.entropy


def test_legacy_bit_generator_functions():
    saved = R.get_bit_generator()
    assert isinstance(saved, R.Philox)
    try:
        R.set_bit_generator(R.Philox(5))
        numpy.testing.assert_array_equal(R.random(3).get(), ref.philox_uniform(5, [0, 1, 2]))
        assert R.get_bit_generator().state["state"] == {"key": 5, "counter": 3}
        with pytest.raises(TypeError, match=r"^\[set_bit_generator\] MT19937: gpupy's legacy"):
            R.set_bit_generator(numpy.random.MT19937(1))
    finally:
        R.set_bit_generator(saved)
    assert R.get_bit_generator() is saved
    rs = R.RandomState(R.Philox(8))
    numpy.testing.assert_array_equal(rs.random_sample(2).get(), ref.philox_uniform(8, [0, 1]))
    with pytest.raises(TypeError, match=r"^\[RandomState\] PCG64: gpupy's legacy"):
        R.RandomState(numpy.random.PCG64(1))
