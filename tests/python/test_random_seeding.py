"""gpupy.random's seeding plumbing against NumPy's API: SeedSequence, default_rng's seed kinds,
Generator.spawn and bit_generator.state, RandomState.get_state(legacy=False)/set_state, and the
legacy samplers' NumPy signatures (Generator-only keywords refused with TypeError)."""

import inspect

import gpupy
import numpy
import pytest
from gpupy._random_legacy import _SAMPLERS


def test_seed_sequence_is_numpys_hash():
    mine, ref = gpupy.random.SeedSequence(5), numpy.random.SeedSequence(5)
    assert mine.entropy == 5 and mine.spawn_key == () and mine.pool_size == 4
    numpy.testing.assert_array_equal(mine.generate_state(4), ref.generate_state(4))
    kid = mine.spawn(2)[1]
    assert isinstance(kid, gpupy.random.SeedSequence) and kid.spawn_key == (1,)
    numpy.testing.assert_array_equal(kid.generate_state(2), ref.spawn(2)[1].generate_state(2))


def test_default_rng_seed_kinds():
    seq = numpy.random.SeedSequence(7)
    key = int(seq.generate_state(1, numpy.uint64)[0])
    a = gpupy.random.default_rng(seq).random(6).get()
    numpy.testing.assert_array_equal(a, gpupy.random.Generator(key).random(6).get())
    b = gpupy.random.default_rng(gpupy.random.SeedSequence(7)).random(6).get()
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, gpupy.random.default_rng(7).random(6).get())
    c = gpupy.random.default_rng([1, 2, 3]).random(4).get()
    numpy.testing.assert_array_equal(c, gpupy.random.default_rng([1, 2, 3]).random(4).get())
    g = gpupy.random.default_rng(1)
    assert gpupy.random.default_rng(g) is g
    # as numpy.random.default_rng(bit_generator): a new Generator drawing from the same state
    nbg = numpy.random.PCG64(1)
    assert numpy.random.default_rng(nbg).bit_generator is nbg
    wrapped = gpupy.random.default_rng(g.bit_generator)
    assert wrapped is not g and wrapped.bit_generator is g.bit_generator
    first = wrapped.random(3).get()
    numpy.testing.assert_array_equal(
        g.random(2).get(), gpupy.random.default_rng(1).random(5).get()[3:]
    )
    numpy.testing.assert_array_equal(first, gpupy.random.default_rng(1).random(3).get())
    with pytest.raises(TypeError, match=r"^\[default_rng\] PCG64: NumPy bit generators"):
        gpupy.random.default_rng(numpy.random.PCG64(1))
    with pytest.raises(ValueError, match=r"^\[default_rng\]"):
        gpupy.random.default_rng([1, -2])


def test_spawn_gives_independent_reproducible_children(device_name):
    parent = gpupy.random.default_rng(11)
    kids = parent.spawn(3)
    assert len(kids) == 3 and all(isinstance(k, gpupy.random.Generator) for k in kids)
    assert parent.bit_generator.seed_seq.n_children_spawned == 3
    assert [k.bit_generator.seed_seq.spawn_key for k in kids] == [(0,), (1,), (2,)]
    draws = [k.random(1000, device=device_name).get() for k in kids]
    draws.append(gpupy.random.default_rng(11).random(1000).get())
    for i in range(4):
        for j in range(i):
            assert abs(numpy.corrcoef(draws[i], draws[j])[0, 1]) < 0.15
            assert not numpy.array_equal(draws[i], draws[j])
    again = gpupy.random.default_rng(11).spawn(3)[2].random(1000, device="cpu").get()
    numpy.testing.assert_array_equal(draws[2], again)
    later = parent.spawn(1)[0]  # the next child, not a repeat
    assert later.bit_generator.seed_seq.spawn_key == (3,)
    assert len(parent.bit_generator.spawn(2)) == 2 and parent.spawn(0) == []


def test_generator_constructor_takes_philox_or_integers():
    assert gpupy.random.Generator(5, 2).bit_generator.state["state"] == {"key": 5, "counter": 2}
    bg = gpupy.random.default_rng(1).bit_generator
    assert gpupy.random.Generator(bg).bit_generator is bg
    with pytest.raises(TypeError, match=r"^\[Generator\] takes a gpupy.random.Philox"):
        gpupy.random.Generator(1.5)
    with pytest.raises(TypeError, match=r"^\[Generator\] PCG64 cannot drive"):
        gpupy.random.Generator(numpy.random.PCG64(1))
    with pytest.raises(TypeError, match=r"counter= goes to Philox"):
        gpupy.random.Generator(bg, 3)


def test_bit_generator_state_round_trip():
    g = gpupy.random.default_rng(3)
    bg = g.bit_generator
    assert "Philox4x32-10" in repr(bg)
    g.random(5)
    state = bg.state
    assert state == {"bit_generator": "Philox4x32-10", "state": {"key": 3, "counter": 5}}
    a = g.random(4).get()
    other = gpupy.random.default_rng(99)
    other.bit_generator.state = state
    numpy.testing.assert_array_equal(a, other.random(4).get())
    with pytest.raises(ValueError, match=r"^\[state\] state must be for Philox4x32-10"):
        bg.state = numpy.random.default_rng(0).bit_generator.state
    with pytest.raises(ValueError, match=r"^\[state\] state must be a dict"):
        bg.state = {"state": 1}
    with pytest.raises(ValueError, match=r"^\[state\] key and counter must be in"):
        bg.state = {"bit_generator": "Philox4x32-10", "state": {"key": -1, "counter": 0}}


def test_legacy_state_dict():
    rs = gpupy.random.RandomState(8)
    rs.rand(3)
    state = rs.get_state(legacy=False)
    assert state.keys() == numpy.random.RandomState(0).get_state(legacy=False).keys()
    assert state["state"] == {"key": 8, "counter": 3}
    a = rs.randn(5).get()
    rs.set_state(state)
    numpy.testing.assert_array_equal(a, rs.randn(5).get())
    assert rs.get_state() == ("Philox4x32-10", 8, 8)
    with pytest.raises(ValueError, match=r"^\[set_state\] state must be for Philox4x32-10"):
        rs.set_state(numpy.random.RandomState(0).get_state(legacy=False))


@pytest.mark.parametrize("name", [*_SAMPLERS, "hypergeometric", "tomaxint"])
def test_legacy_signatures_are_numpys(name):
    ref = inspect.signature(getattr(numpy.random.RandomState(0), name))
    assert inspect.signature(getattr(gpupy.random.RandomState(0), name)) == ref
    if hasattr(numpy.random, name):
        assert inspect.signature(getattr(gpupy.random, name)) == ref


@pytest.mark.parametrize(
    "name,args,kwargs",
    [
        ("standard_normal", (), {"dtype": numpy.float32}),
        ("standard_normal", (3, numpy.float32), {}),
        ("standard_exponential", (), {"method": "inv"}),
        ("standard_gamma", (2.0,), {"out": None}),
        ("normal", (0.0, 1.0, 3), {"device": "cpu"}),
        ("multivariate_normal", ([0.0], [[1.0]]), {"method": "svd"}),
    ],
)
def test_legacy_refuses_generator_keywords(name, args, kwargs):
    with pytest.raises(TypeError):
        getattr(numpy.random.RandomState(0), name)(*args, **kwargs)
    with pytest.raises(TypeError, match=rf"^\[{name}\] "):
        getattr(gpupy.random.RandomState(0), name)(*args, **kwargs)
    with pytest.raises(TypeError, match=rf"^\[{name}\] "):
        getattr(gpupy.random, name)(*args, **kwargs)


def test_legacy_keywords_still_work():
    rs = gpupy.random.RandomState(1)
    x = rs.normal(loc=2.0, scale=0.5, size=(2, 3))
    assert x.shape == (2, 3)
    dev = gpupy.asarray([1.0, 2.0])
    assert rs.gamma(dev, scale=2.0).device == dev.device
