(* The cost model's choice for pending sums (proofs/cost/Costsums.v,
   through Sumplan.choose_costed) on random problems of
   tests/problems/sum_problem.ml (even on one mesh, uneven on one mesh,
   and between two placed meshes):
   - under a memory budget drawn between the candidates' least and largest
     allocated bytes, the chosen plan allocates at most the budget, its
     figure is the largest source box + the largest target box + the
     lowered plan's workspace, the generated header's kLiveBytes is the
     choice's live bytes, and a budget one byte below the least is refused
     naming that least figure;
   - the choice is deterministic (the same plan twice, whatever was chosen
     before);
   - where messages are free (no latency, unbounded bandwidth) every
     candidate predicts 0 ns and the one receiving least wins;
   - without a cost option the choice is the built-in profile's. *)
module C = Redist_core

let seed = 20261123
let count = 1000

let settings ?budget profile =
  { Profile.name = "test"; profile; hosts = C.RanksPerHost 1_000_000; hosts_text = "one host"; budget; given = true;
    machine_given = true }

let link latency_ns bytes_per_us = { C.lk_latency_ns = latency_ns; lk_bytes_per_us = bytes_per_us }
let unbounded = Profile.max_bytes_per_us
let free_messages = { C.pf_same_host = link 0 unbounded; pf_across_hosts = link 0 unbounded; pf_copy_bytes_per_us = unbounded; pf_single_copy = None }
let measured = snd (Profile.default ())

let costed_rows = function Sumplan.Costed c -> c.Sumplan.rows | Sumplan.Not_costed why -> failwith why
let rows s p = costed_rows (snd (Sumplan.choose_costed s p))
let best rows = List.find (fun (r : Costreport.row) -> r.verdict = Costreport.Chosen) rows

(* A collectives plan's header holds its collectives' header too: its own figures are the ones read. *)
let header_figure r name = Cxx.int_constant (Emit_sums.header ~command:[ "redist" ] ~name:"t" r) name

(* Even, uneven and two-mesh problems in turn, under --strategy auto. *)
let problem st i =
  let one mesh src tgt dtype = (Problem.One mesh, mesh, src, tgt, dtype) in
  let meshes, text, src, tgt, dtype =
    match i mod 3 with
    | 0 -> let mesh, _, src, tgt, dtype = Sum_problem.draw st in one mesh src tgt dtype
    | 1 -> let mesh, src, tgt, dtype = Sum_problem.draw_uneven st in one mesh src tgt dtype
    | _ ->
        let from_mesh, to_mesh, src, tgt, dtype = Sum_problem.draw_placed st in
        (Problem.Two (from_mesh, to_mesh), from_mesh ^ " -> " ^ to_mesh, src, tgt, dtype)
  in
  (Printf.sprintf "%s %s -> %s %s" text src tgt dtype,
   Problem.make_placed ~meshes ~strategy:C.StratAuto ~from:src ~to_:tgt ~dtype:(Some dtype))

let for_problems f =
  let st = Random.State.make [| seed |] in
  for i = 0 to count - 1 do
    let text, p = problem st i in
    f st (fun s : unit -> Alcotest.failf "problem %d (%s): %s" i text s) p
  done

let budget_kept () =
  let switched = ref 0 in
  for_problems (fun st failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let all = rows (settings measured) p in
      let allocs = List.map (fun (c : Costreport.row) -> c.alloc_bytes) all in
      let least = List.fold_left min max_int allocs and most = List.fold_left max 0 allocs in
      let budget = least + Random.State.int st (most - least + 1) in
      let r, costing = Sumplan.choose_costed (settings ~budget measured) p in
      let chosen = best (costed_rows costing) in
      if chosen.alloc_bytes > budget then fail "the choice allocates %d bytes > budget %d" chosen.alloc_bytes budget;
      let src = Problem.source_layout p and tgt = Problem.target_layout p in
      let expected = ((C.largest_box src + C.largest_box tgt) * p.elem_bytes) + r.workspace_bytes in
      if chosen.alloc_bytes <> expected then
        fail "the choice states %d allocated bytes, its source, destination and workspace are %d" chosen.alloc_bytes expected;
      let stated = header_figure r "kLiveBytes" in
      if stated <> chosen.live_bytes then fail "kLiveBytes %d, the choice's live bytes %d" stated chosen.live_bytes;
      if header_figure r "kAllocBytes" <> chosen.alloc_bytes then
        fail "kAllocBytes %d, the choice's allocated bytes %d" (header_figure r "kAllocBytes") chosen.alloc_bytes;
      if chosen.index <> (best all).index then incr switched;
      match Sumplan.choose_costed (settings ~budget:(least - 1) measured) p with
      | _ -> fail "budget %d (below the least, %d) accepted" (least - 1) least
      | exception Front.Bad_input msg ->
          let needle = Printf.sprintf "below %d," least in
          let rec has i = i + String.length needle <= String.length msg && (String.sub msg i (String.length needle) = needle || has (i + 1)) in
          if not (has 0) then fail "refusal without the least figure %d: %s" least msg);
  if !switched = 0 then Alcotest.fail "no problem where the budget changes the choice"

let deterministic () =
  let chosen p = (best (rows (settings measured) p)).plan in
  let st = Random.State.make [| seed |] in
  Choice_checks.same_choice_twice chosen (List.init 200 (fun i -> snd (problem st i)))

let least_traffic_when_free () =
  for_problems (fun _ failing p ->
      let all = rows (settings free_messages) p in
      let reading (r : Costreport.row) = (Printf.sprintf "candidate %d" r.index, r.time_ns, r.traffic) in
      Choice_checks.least_traffic_when_free ~fail:failing (List.map reading all) (reading (best all)))

let default_is_the_cost_model () =
  for_problems (fun _ failing p ->
      let r = Sumplan.choose p in
      let b = best (rows (settings measured) p) in
      if (best (rows (Planning.default_settings p) p)).index <> b.index || Sumplan.plan_file_lines p r.plan <> b.plan_file
      then failing "the default's plan is not the built-in profile's choice")

let () =
  Tap.run "cost-sums"
    [ ( "choice",
        [ Alcotest.test_case (Printf.sprintf "%d random pending-sum problems: the choice's allocated bytes (source + destination + workspace) within the budget, below the least refused" count) `Quick budget_kept;
          Alcotest.test_case "200 random pending-sum problems: the same plan twice" `Quick deterministic;
          Alcotest.test_case (Printf.sprintf "%d random pending-sum problems: free messages, least traffic" count) `Quick least_traffic_when_free;
          Alcotest.test_case (Printf.sprintf "%d random pending-sum problems: the default is the built-in profile's choice" count) `Quick default_is_the_cost_model ] ) ]
