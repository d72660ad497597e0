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

(* Without a cost option, auto costs its candidates unless that would take
   more than Planning.costing_work_limit: then all but the hybrids, else
   none (plan_with's plan), and says why. *)
let default_cost_model () =
  let module C = Redist_core in
  let module P = Redist_cli.Planning in
  let choose (q : Plan_time.problem) =
    let p =
      Redist_cli.Problem.make_placed ~meshes:(Redist_cli.Problem.One q.mesh) ~strategy:C.StratAuto ~from:q.from
        ~to_:q.to_ ~dtype:None
    in
    let settings = Redist_cli.Profile.settings ~profile_file:None ~ranks_per_host:None ~host_list:None ~budget:None p in
    let src = Redist_cli.Problem.source_layout p and tgt = Redist_cli.Problem.target_layout p in
    (p, src, tgt, P.choose_costed settings p)
  in
  let many_permutes, gather =
    match Plan_time.known_slow with [ a; _; c ] -> (a, c) | _ -> Alcotest.fail "three issue cases expected"
  in
  (match choose many_permutes with
   | p, src, tgt, (r, _, P.Not_costed why) ->
       let w, _ = P.costing_work p src tgt in
       if w.units <= P.costing_work_limit then Alcotest.failf "%d units, within the limit" w.units;
       if Some (Redist_cli.Xreport.splan r) <> C.plan_with p.strategy src tgt then
         Alcotest.fail "not plan_with's plan";
       let needle = string_of_int w.permute_entries in
       if not (contains why needle) then Alcotest.failf "the reason does not name %s: %s" needle why
   | _ -> Alcotest.fail "costed, above the limit");
  (match choose Plan_time.many_hybrids with
   | p, src, tgt, (r, _, P.Costed_no_hybrids (ch, why)) ->
       let plain, all = P.costing_work p src tgt in
       if all.units <= P.costing_work_limit || plain.units > P.costing_work_limit then
         Alcotest.failf "%d units with the hybrids, %d without: not the middle tier" all.units plain.units;
       if Redist_cli.Xreport.splan r <> ch.ch_best.cs_plan then Alcotest.fail "the report is not of the choice";
       if List.exists (fun (c : C.costed) -> match c.cs_plan with C.ByThen _ -> true | _ -> false) (ch.ch_best :: ch.ch_slower)
       then Alcotest.fail "a hybrid was costed";
       if not (contains why (string_of_int all.units)) then Alcotest.failf "the reason does not name %d: %s" all.units why
   | _ -> Alcotest.fail "the 13-axis 4,096-device problem: expected the candidates without the hybrids");
  match choose gather with
  | _, _, _, (_, _, (P.Costed ch | P.Costed_no_hybrids (ch, _))) ->
      if ch.ch_slower = [] then Alcotest.fail "the even gather: one candidate costed, expected the collectives and the exchange"
  | _, _, _, (_, _, P.Not_costed why) -> Alcotest.failf "the even gather not costed: %s" why

(* Pending sums: costed up to Sumplan.exchange_work_limit pairs of source
   and target ranks; above it, without a cost option, plan_sums's plan,
   within the time limit, and why. *)
let sums_default_cost_model () =
  let module C = Redist_core in
  let module S = Redist_cli.Sumplan in
  let problem (q : Plan_time.problem) =
    Redist_cli.Problem.make_placed ~meshes:(Redist_cli.Problem.One q.mesh) ~strategy:C.StratAuto ~from:q.from
      ~to_:q.to_ ~dtype:None
  in
  let choose p = S.choose_costed (Redist_cli.Planning.default_settings p) p in
  List.iter
    (fun (q : Plan_time.problem) ->
      let plan_s, check_s = Plan_time.plan_and_check_sums q in
      if plan_s >= limit_s || check_s >= limit_s then
        Alcotest.failf "plan %.2f s, check %.2f s (limit %.1f s of CPU): %s" plan_s check_s limit_s (Plan_time.show q);
      let p = problem q in
      match choose p with
      | r, S.Not_costed why ->
          let work = S.exchange_work p in
          if work <= S.exchange_work_limit then Alcotest.failf "%d pairs, within the limit" work;
          if Some r.plan <> C.plan_sums p.strategy (Redist_cli.Problem.source_layout p) p.src_pending
                              (Redist_cli.Problem.target_layout p) p.tgt_pending
          then Alcotest.failf "not plan_sums's plan: %s" (Plan_time.show q);
          if not (contains why (string_of_int work)) then Alcotest.failf "the reason does not name %d: %s" work why
      | _, S.Costed _ -> Alcotest.failf "costed, above the limit: %s" (Plan_time.show q))
    Plan_time.pending_large;
  match choose (problem { mesh = "{x:8, y:8, z:8}"; from = "[{x}48, {y}48] sum{z}"; to_ = "[{y}48, {z}48]" }) with
  | _, S.Costed c -> if List.length c.rows < 2 then Alcotest.fail "512 ranks: one candidate costed, expected two"
  | _, S.Not_costed why -> Alcotest.failf "512 ranks not costed: %s" why

let () =
  Alcotest.run "plan_time"
    [ ( "65,536 devices",
        [ Alcotest.test_case "issue 12 cases" `Quick issue_cases;
          Alcotest.test_case (Printf.sprintf "%d random problems" random_count) `Quick random_65536;
          Alcotest.test_case "uneven and cross-mesh (issue 13)" `Quick placed_cases;
          Alcotest.test_case "the default cost model, or why not (issue 16)" `Quick default_cost_model;
          Alcotest.test_case "pending sums at 4,096 and 65,536 devices: the default cost model, or why not" `Quick
            sums_default_cost_model ] ) ]
