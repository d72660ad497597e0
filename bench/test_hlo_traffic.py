"""Checks hlo_traffic.py on HLO lines in each of the forms XLA prints
(lines taken from programs XLA compiled for this benchmark, shortened).

    ~/.cache/redist/venv/bin/python bench/test_hlo_traffic.py
"""

import sys

from hlo_traffic import host_transfers, replica_groups, traffic

CASES = []


def case(f):
    CASES.append(f)
    return f


@case
def explicit_groups():
    assert replica_groups("x = f32[4] all-gather(y), replica_groups={{0,1},{2,3}}, dimensions={0}") == [[0, 1], [2, 3]]
    assert replica_groups("x = f32[4] all-gather(y), replica_groups={}, dimensions={0}") is None


@case
def iota_groups():
    assert replica_groups("replica_groups=[2,4]<=[8], dimensions={0}") == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert replica_groups("replica_groups=[4,2]<=[2,4]T(1,0), dimensions={0}") == [[0, 4], [1, 5], [2, 6], [3, 7]]


@case
def mesh_groups():
    line = "replica_groups=mesh['a'=2,'b'=4] {'%s'}, dimensions={0}"
    assert replica_groups(line % "b") == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert replica_groups(line % "a") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    # device ids listed in another order: [2,2]T(1,0) = 0 2 1 3
    assert replica_groups("replica_groups=mesh['a'=2,'b'=2], device_ids=([2,2]T(1,0)) {'b'}") == [[0, 2], [1, 3]]


@case
def mesh_sub_axis_groups():
    # 'a':(2)4 is the sub-axis of size 4 inside a (size 8) after its first 2
    groups = replica_groups("replica_groups=mesh['a'=8,'b'=2] {'a':(2)4}, dimensions={0}")
    assert groups == [[0, 2, 4, 6], [1, 3, 5, 7], [8, 10, 12, 14], [9, 11, 13, 15]], groups


@case
def unknown_groups_are_an_error():
    try:
        replica_groups("replica_groups=<something new>")
    except ValueError:
        return
    raise AssertionError("an unknown replica_groups form was accepted")


@case
def all_gather_traffic():
    hlo = ("  %ag = f32[64,256,128]{2,0,1} all-gather(%c), channel_id=3, "
           "replica_groups=mesh['axis_0'=2,'axis_1'=2,'axis_2'=4], device_ids=([4,4]T(1,0)) {'axis_1'}, dimensions={1}")
    recv, ops, largest = traffic(hlo, 16)
    assert ops == ["all-gather"] and largest == 64 * 256 * 128
    assert recv == [64 * 256 * 128 // 2] * 16


@case
def tuple_all_to_all_traffic():
    hlo = ("  %a = (f32[1,256,512]{2,1,0}, f32[1,256,512]{2,1,0}, f32[1,256,512]{2,1,0}, f32[1,256,512]{2,1,0}) "
           "all-to-all(%p, %q, %r, %s), channel_id=1, replica_groups=mesh['axis_0'=8,'axis_1'=2], "
           "device_ids=([2,2,4]T(0,2,1)) {'axis_0':(2)4}")
    recv, _, _ = traffic(hlo, 16)
    assert recv == [4 * 256 * 512 * 3 // 4] * 16


@case
def permute_traffic_skips_self_pairs():
    hlo = ("  ROOT %cp = f32[2,128,512]{2,1,0} collective-permute(%f), channel_id=1, "
           "source_target_pairs={{0,0},{2,2},{1,4},{3,6},{4,1},{6,3},{5,5},{7,7}}")
    recv, ops, _ = traffic(hlo, 8)
    n = 2 * 128 * 512
    assert ops == ["collective-permute"]
    assert recv == [0, n, 0, n, n, 0, n, 0], recv


@case
def non_collectives_are_ignored():
    hlo = ("  %f = f32[16,256,128]{2,1,0} fusion(%ag, %c, %pid), kind=kLoop, calls=%fc\n"
           "  %s = f32[4]{0} dynamic-slice(%x, %i), dynamic_slice_sizes={4}")
    assert traffic(hlo, 4) == ([0, 0, 0, 0], [], 0)
    assert host_transfers(hlo) == []


@case
def host_transfers_are_found():
    hlo = "  %r = (f32[4]{0}, u32[], token[]) recv(%t), channel_id=5, is_host_transfer=true"
    assert host_transfers(hlo) == ["recv"]


def main():
    passed = failed = 0
    for f in CASES:
        try:
            f()
            passed += 1
        except AssertionError as e:
            failed += 1
            print(f"FAILED: {f.__name__}: {e}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
