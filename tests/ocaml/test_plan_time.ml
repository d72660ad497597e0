(* Every problem within the documented bounds plans and checks in under a
   second (issue 12).  CPU time (Sys.time), so that other jobs on a shared
   machine do not count.  The slowest case measured takes about 0.2 s
   (bench/README.md); before the fix the first issue case took 79 s. *)

let limit_s = 1.0

let within_limit q =
  let plan_s, check_s = Plan_time.plan_and_check q in
  if plan_s >= limit_s || check_s >= limit_s then
    Alcotest.failf "plan %.2f s, check %.2f s (limit %.1f s of CPU): %s" plan_s check_s limit_s
      (Plan_time.show q)

let issue_cases () = List.iter within_limit Plan_time.known_slow

let placed_cases () =
  List.iter
    (fun q ->
      let plan_s, check_s = Plan_time.plan_and_check_placed q in
      if plan_s >= limit_s || check_s >= limit_s then
        Alcotest.failf "plan %.2f s, check %.2f s (limit %.1f s of CPU): %s" plan_s check_s limit_s
          (Plan_time.show_placed q))
    Plan_time.placed_65536

let random_count = 50

let random_65536 () =
  let rng = Random.State.make [| 65536 |] in
  for _ = 1 to random_count do
    within_limit (Plan_time.random_problem rng ~log2_devices:16)
  done

let contains text needle =
  let n = String.length needle in
  let rec at i = i + n <= String.length text && (String.sub text i n = needle || at (i + 1)) in
  at 0

(* Without a cost option, auto uses the cost model unless costing would
   lower too many permute table entries (times their meshes' axes); then
   plan_with's plan, and why. *)
let default_cost_model () =
  let module C = Redist_core in
  let module P = Redist_cli.Planning in
  let choose (q : Plan_time.problem) =
    let p =
      Redist_cli.Problem.make_placed ~meshes:(Redist_cli.Problem.One q.mesh) ~strategy:C.StratAuto ~from:q.from
        ~to_:q.to_ ~dtype:None
    in
    let settings = Redist_cli.Profile.settings ~profile_file:None ~ranks_per_host:None ~host_list:None ~budget:None p in
    (p, P.choose_costed settings p)
  in
  let many_permutes, gather =
    match Plan_time.known_slow with [ a; _; c ] -> (a, c) | _ -> Alcotest.fail "three issue cases expected"
  in
  (match choose many_permutes with
   | p, (r, _, P.Not_costed why) ->
       let src = Redist_cli.Problem.source_layout p and tgt = Redist_cli.Problem.target_layout p in
       let entries, work = P.permute_work p src tgt in
       if work <= P.permute_work_limit then Alcotest.failf "%d entry-axes, within the limit" work;
       if Some (Redist_cli.Xreport.splan r) <> C.plan_with p.strategy src tgt then
         Alcotest.fail "not plan_with's plan";
       let needle = string_of_int entries in
       if not (contains why needle) then Alcotest.failf "the reason does not name %s: %s" needle why
   | _, (_, _, P.Costed _) -> Alcotest.fail "costed, above the limit");
  match choose gather with
  | _, (_, _, P.Costed ch) ->
      if ch.ch_slower = [] then Alcotest.fail "the even gather: one candidate costed, expected the collectives and the exchange"
  | _, (_, _, P.Not_costed why) -> Alcotest.failf "the even gather not costed: %s" why

let () =
  Alcotest.run "plan_time"
    [ ( "65,536 devices",
        [ Alcotest.test_case "issue 12 cases" `Quick issue_cases;
          Alcotest.test_case (Printf.sprintf "%d random problems" random_count) `Quick random_65536;
          Alcotest.test_case "uneven and cross-mesh (issue 13)" `Quick placed_cases;
          Alcotest.test_case "the default cost model, or why not (issue 16)" `Quick default_cost_model ] ) ]
