(** Alcotest suites in the tests' one protocol (TAP 13, counted by
    tests/tap_count.sh): one result line per test case, "ok N - SUITE: GROUP:
    CASE" or "not ok N - ...", then the plan "1..N". *)

val run : string -> unit Alcotest.test list -> 'a
(** [run suite tests] runs every test case of [tests] in order, prints its
    result and what it printed as "# " comment lines (a failure's message
    too), then the plan, and exits 1 if any case failed, else 0.  It takes
    [Alcotest.run]'s arguments so that a suite changes only the call. *)
