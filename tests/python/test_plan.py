"""redist.plan's arguments, checked in Python before they reach the C ABI
through ctypes (which would wrap a rank past the C int's range, end a string
at a NUL, or raise its own error naming no argument): each is a RedistError
of one line naming the argument and what is wrong with it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import redist  # noqa: E402
import checks  # noqa: E402
from checks import one_line_error, test  # noqa: E402

EXCHANGE = redist.plan("{x:2}", "[{x}8]", "[8]", "f32", strategy="exchange")


@test("ranks: 2^40 is refused, not wrapped to rank 0 (receives)")
def rank_past_c_int():
    return one_line_error(lambda: EXCHANGE.receives(2 ** 40), "receives", "rank 1099511627776", "ranks 0..1")


@test("ranks: 2^31 is refused, not wrapped to a negative rank (src_box)")
def rank_past_int32():
    return one_line_error(lambda: EXCHANGE.src_box(2 ** 31), "src_box", "rank 2147483648", "ranks 0..1")


@test("ranks: a rank past the plan's world is refused, not answered with an empty box (tgt_box)")
def rank_past_world():
    return one_line_error(lambda: EXCHANGE.tgt_box(2), "tgt_box", "rank 2", "ranks 0..1")


@test("ranks: a negative rank is refused")
def rank_negative():
    return one_line_error(lambda: EXCHANGE.src_box(-1), "src_box", "rank -1", "ranks 0..1")


@test("ranks: a float or a bool is refused naming its type; a NumPy integer is a rank")
def rank_types():
    passed, detail = one_line_error(lambda: EXCHANGE.receives(1.0), "receives", "rank 1.0", "float")
    flag, flag_detail = one_line_error(lambda: EXCHANGE.tgt_box(True), "tgt_box", "bool")
    same = EXCHANGE.receives(np.int64(1)) == EXCHANGE.receives(1)
    return passed and flag and same, "%s; %s; np.int64(1) answers as 1: %s" % (detail, flag_detail, same)


@test("strings: a NUL is refused naming the argument, not read as the end of the text")
def nul():
    return one_line_error(lambda: redist.plan("{x:2}\0{y:3}", "[{x}8]", "[8]"), "mesh", "NUL", "position 5")


@test("strings: a lone surrogate is refused naming the argument and UTF-8")
def surrogate():
    return one_line_error(lambda: redist.plan("{x:2}", "[{x}8]", "[8]", "f32\ud800"), "dtype", "UTF-8",
                          "position 3")


@test("strings: a value that is no string is refused naming the argument and its type")
def not_a_string():
    return one_line_error(lambda: redist.plan("{x:2}", "[{x}8]", "[8]", strategy=1), "strategy", "int")


@test("composed cuts: a plan's regions are the extracted lowering's lists, its local shapes the holdings'")
def regions():
    # [{b}{a}8, 4] on {a:2, b:2}: b cuts the rows first, so rank 1 (a=0, b=1) holds rows 4 and 5; to [8, 4] it
    # copies them to rows 4, 5 of its target and receives rows 2, 3 from rank 2, 6, 7 from rank 3, 0, 1 from rank 0.
    p = redist.plan("{a:2, b:2}", "[{b}{a}8, 4]", "[8, 4]", "f32")
    mine = p.regions(1)
    held = (((0, 0), (2, 4)),)
    expected = redist.RegionLists(sends=tuple((peer, held) for peer in (0, 2, 3)),
                                  recvs=((0, (((0, 0), (2, 4)),)), (2, (((2, 0), (2, 4)),)), (3, (((6, 0), (2, 4)),))),
                                  copies=((((0, 0), (2, 4)), ((4, 0), (2, 4))),))
    shapes = [p.src_shape(r) for r in range(4)] + [p.tgt_shape(1)]
    box, box_detail = one_line_error(lambda: p.src_box(1), "src_box", "composed")
    other, other_detail = one_line_error(lambda: EXCHANGE.regions(0), "not the region exchange")
    return (p.kind == "regions" and mine == expected and shapes == [(2, 4)] * 4 + [(8, 4)] and box and other,
            "kind %s; rank 1: %s; shapes %s; %s; %s" % (p.kind, mine, shapes, box_detail, other_detail))


@test("picture: a format other than svg or png is one line")
def picture_format():
    return one_line_error(lambda: EXCHANGE.picture("bogus"), "picture", "'bogus'", "svg", "png")


sys.exit(checks.end())
