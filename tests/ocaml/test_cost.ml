(* The cost model's choice (proofs/cost/Cost.v, through Planning.choose_costed)
   on random problems of tests/problems/placed_problem.ml (uneven,
   cross-mesh and even):
   - under a memory budget drawn between the candidates' least and largest
     allocated bytes, the chosen plan allocates at most the budget, its
     figure is the largest source box + the largest target box + the
     lowered program's workspace, the generated header's kLiveBytes is
     within it, and a budget one byte below the least is refused naming
     that least figure;
   - the choice is deterministic (the same plan twice, whatever was chosen
     before);
   - where messages are free (no latency, unbounded bandwidth) every
     candidate predicts 0 ns and the one receiving least wins;
   - where latency dominates (bandwidth unbounded, copies free) a plan's
     time is the latency times its messages, and the fewest win;
   - grouping ranks by [--ranks-per-host n] predicts what the equivalent
     explicit host list does (the constant-time count of group members on
     a host against the list's element-wise count);
   - without a cost option the command's choice is the cost model's under
     the built-in profile, on one host (the default of auto);
   - the exchange's time in closed form (runs of equal pieces per
     dimension) is, on every rank, its messages' time listed one by one on
     one host, and at least that across hosts (Costclosed.v);
   - single copy on a host (the profile's single_copy): no candidate's step
     costs more than by MPI (Costclosed.single_copy_no_slower), the
     exchange alone is priced as with the single-copy link for same-host
     messages, and some collective plans get cheaper; on a gather and a
     transpose on one host the collectives win with single copy too;
   - within a budget (Planning.choose_within) in place is weighed, taken
     below the least out of place, and refused below the least in place
     ([within_budget]). *)
module C = Redist_core

let seed = 20261123
let count = 1000

let settings ?budget ?(hosts = (C.RanksPerHost 1_000_000, "one host")) profile =
  { Profile.name = "test"; profile; hosts = fst hosts; hosts_text = snd hosts; budget; given = true; machine_given = true }

let link latency_ns bytes_per_us = { C.lk_latency_ns = latency_ns; lk_bytes_per_us = bytes_per_us }
let unbounded = Profile.max_bytes_per_us
let free_messages = { C.pf_same_host = link 0 unbounded; pf_across_hosts = link 0 unbounded; pf_copy_bytes_per_us = unbounded; pf_single_copy = None }
let latency_ns = 1_000_000
let latency_only =
  { C.pf_same_host = link latency_ns unbounded; pf_across_hosts = link latency_ns unbounded;
    pf_copy_bytes_per_us = unbounded; pf_single_copy = None }

let measured = snd (Profile.default ())

(* The settings below all count as given, so the core's choice is made. *)
let costed = function
  | Planning.Costed ch -> ch
  | Planning.Costed_no_hybrids (_, why) | Planning.Not_costed why -> Alcotest.failf "not costed: %s" why
  | Planning.Costed_within _ -> Alcotest.fail "choose_costed weighed in place, which only choose_within does"
let chosen s p = let _, _, ch = Planning.choose_costed s p in costed ch

let candidates (ch : C.splan C.choice) = (ch.ch_best :: ch.ch_slower) @ ch.ch_over_budget

(* A hybrid's header holds its parts' headers too: its own figures are the ones read. *)
let header_figure (r : Xreport.plan) guarantees name =
  Cxx.int_constant (Emit.plan_header ~command:[ "redist" ] ~name:"t" ~backend:Emit.Mpi ~guarantees r) name

let for_problems f =
  let st = Random.State.make [| seed |] in
  for i = 0 to count - 1 do
    let d = Placed_problem.draw st i in
    let failing s : unit = Alcotest.failf "problem %d (%s): %s" i (Placed_problem.describe d) s in
    f st failing (Placed_problem.problem d C.StratAuto)
  done

(* What a rank allocates for [sp]: the largest source and target boxes
   (each layout's, box by box) and the workspace of the lowered program. *)
let allocated (p : Problem.t) sp =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  ((C.largest_box src + C.largest_box tgt) * p.elem_bytes)
  + C.program_workspace_bytes (C.lower_splan p.elem_bytes src tgt sp)

let budget_kept () =
  for_problems (fun st failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let all = chosen (settings measured) p in
      let allocs = List.map (fun (c : C.splan C.costed) -> c.cs_alloc_bytes) (candidates all) in
      let least = List.fold_left min max_int allocs and most = List.fold_left max 0 allocs in
      let budget = least + Random.State.int st (most - least + 1) in
      let r, guarantees, ch = Planning.choose_costed (settings ~budget measured) p in
      let ch = costed ch in
      let best = ch.ch_best in
      if best.cs_alloc_bytes > budget then fail "the choice allocates %d bytes, over the budget %d" best.cs_alloc_bytes budget;
      let expected = allocated p best.cs_plan in
      if best.cs_alloc_bytes <> expected then
        fail "the choice states %d allocated bytes, its source, destination and workspace are %d" best.cs_alloc_bytes expected;
      let stated = header_figure r guarantees "kLiveBytes" in
      if header_figure r guarantees "kAllocBytes" <> best.cs_alloc_bytes then
        fail "the header states %d allocated bytes, the choice %d" (header_figure r guarantees "kAllocBytes") best.cs_alloc_bytes;
      if stated > best.cs_alloc_bytes then fail "the header states %d live bytes, above the %d allocated" stated best.cs_alloc_bytes;
      if stated <> best.cs_live_bytes then fail "the header states %d live bytes, the choice %d" stated best.cs_live_bytes;
      List.iter
        (fun (c : C.splan C.costed) ->
          if c.cs_alloc_bytes <> allocated p c.cs_plan then fail "candidate %d: allocated bytes not its source + destination + workspace" c.cs_index;
          if c.cs_alloc_bytes <= budget && c.cs_time_ns < ch.ch_best.cs_time_ns then
            fail "candidate %d fits and predicts %d ns, below the chosen %d" c.cs_index c.cs_time_ns ch.ch_best.cs_time_ns)
        (candidates ch);
      match Planning.choose_costed (settings ~budget:(least - 1) measured) p with
      | _ -> fail "a budget of %d, below the least allocated bytes %d, was accepted" (least - 1) least
      | exception Front.Bad_input msg ->
          let needle = Printf.sprintf "below %d," least in
          let rec has i = i + String.length needle <= String.length msg && (String.sub msg i (String.length needle) = needle || has (i + 1)) in
          if not (has 0) then fail "the refusal does not name the least figure %d: %s" least msg)

let deterministic () =
  let chosen p = let ch = chosen (settings measured) p in (ch.ch_best.cs_index, ch.ch_best.cs_plan) in
  let st = Random.State.make [| seed |] in
  Choice_checks.same_choice_twice chosen
    (List.init 200 (fun i -> Placed_problem.problem (Placed_problem.draw st i) C.StratAuto))

let least_traffic_when_free () =
  for_problems (fun _ failing p ->
      let ch = chosen (settings free_messages) p in
      let reading (c : C.splan C.costed) = (Printf.sprintf "candidate %d" c.cs_index, c.cs_time_ns, c.cs_traffic) in
      Choice_checks.least_traffic_when_free ~fail:failing (List.map reading (candidates ch)) (reading ch.ch_best))

let fewest_messages_when_latency_dominates () =
  let flips = ref 0 in
  for_problems (fun _ failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let ch = chosen (settings latency_only) p in
      let messages (c : C.splan C.costed) =
        if c.cs_time_ns mod latency_ns <> 0 then fail "candidate %d: %d ns is not a number of messages" c.cs_index c.cs_time_ns;
        c.cs_time_ns / latency_ns
      in
      let fewest = List.fold_left (fun acc c -> min acc (messages c)) max_int (candidates ch) in
      if messages ch.ch_best <> fewest then fail "chose %d messages, the fewest is %d" (messages ch.ch_best) fewest;
      let free = chosen (settings free_messages) p in
      if free.ch_best.cs_index <> ch.ch_best.cs_index then incr flips);
  (* The two profiles must disagree somewhere, or the test shows nothing. *)
  if !flips = 0 then Alcotest.fail "no problem where latency changes the choice"

let ranks_per_host_is_a_host_list () =
  for_problems (fun st failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let world = Problem.world p in
      let n = 1 + Random.State.int st 4 in
      let across = { measured with C.pf_across_hosts = link 7_000 300 } in
      let by_count = settings ~hosts:(C.RanksPerHost n, "") across in
      let by_list = settings ~hosts:(C.HostList (List.init world (fun r -> r / n)), "") across in
      let a = chosen by_count p and b = chosen by_list p in
      List.iter2
        (fun (x : C.splan C.costed) (y : C.splan C.costed) ->
          if x.cs_steps_ns <> y.cs_steps_ns then
            fail "%d ranks per host: candidate %d predicts %d ns, the host list %d" n x.cs_index x.cs_time_ns y.cs_time_ns)
        (candidates a) (candidates b))

let default_is_the_cost_model () =
  for_problems (fun _ failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let r, _, costing = Planning.choose_costed (Planning.default_settings p) p in
      let ch = chosen (settings measured) p in
      (match costing with
       | Planning.Costed d when d.ch_best.cs_index = ch.ch_best.cs_index -> ()
       | Planning.Costed d -> fail "the default chose candidate %d, the built-in profile %d" d.ch_best.cs_index ch.ch_best.cs_index
       | Planning.Costed_no_hybrids (_, why) | Planning.Not_costed why -> fail "not costed by default: %s" why
       | Planning.Costed_within _ -> fail "the default weighed in place, which only choose_within does");
      if Xreport.splan r <> ch.ch_best.cs_plan then fail "the default's report is of another plan")

(* One host, [n] ranks per host, or a host list drawn at random. *)
let draw_hosts st world =
  match Random.State.int st 3 with
  | 0 -> C.RanksPerHost (max 1 world)
  | 1 -> C.RanksPerHost (1 + Random.State.int st 4)
  | _ -> C.HostList (List.init world (fun _ -> Random.State.int st 3))

let closed_form_is_the_messages () =
  (* Odd bandwidths, so that the rounding of each message's transfer counts. *)
  let pf = { C.pf_same_host = link 97 4_099; pf_across_hosts = link 7_001 301; pf_copy_bytes_per_us = 1_999; pf_single_copy = None } in
  let spanned_cases = ref 0 in
  for_problems (fun st failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let src = Problem.source_layout p and tgt = Problem.target_layout p in
      let hosts = draw_hosts st (Problem.world p) in
      let ranks (l : C.layout) = l.ly_mesh.pm_ranks in
      let spanned = C.spans_hosts hosts (ranks src @ ranks tgt) in
      if spanned then incr spanned_cases;
      let t_src = C.rank_table_of (ranks src) and t_tgt = C.rank_table_of (ranks tgt) in
      let messages = C.lower_exchange src tgt in
      List.iter
        (fun r ->
          let closed = C.exchange_rank_ns pf spanned t_src t_tgt p.elem_bytes src tgt r in
          let listed = C.rank_ns pf (C.exchange_batches hosts spanned t_src t_tgt p.elem_bytes messages r) in
          if (spanned && closed < listed) || ((not spanned) && closed <> listed) then
            fail "rank %d: closed form %d ns, its messages %d ns (%s)" r closed listed
              (if spanned then "across hosts" else "one host"))
        (ranks tgt));
  if !spanned_cases = 0 then Alcotest.fail "no problem across hosts"

(* The measured profile with single copy four times as fast as its
   same-host link, and the same profile without it whose same-host link is
   that single copy (how Cost.single_copy_profile prices the exchange). *)
let single_copy_link = link 0 (4 * measured.pf_same_host.lk_bytes_per_us)
let with_single_copy = { measured with C.pf_single_copy = Some single_copy_link }
let same_host_single_copy = { measured with C.pf_same_host = single_copy_link }

let single_copy_no_dearer () =
  let exchanges = ref 0 and cheaper_collectives = ref 0 in
  for_problems (fun st failing p ->
      let fail fmt = Printf.ksprintf failing fmt in
      let hosts = draw_hosts st (Problem.world p) in
      let by pf = candidates (chosen (settings ~hosts:(hosts, "") pf) p) in
      let price pf (c : C.splan C.costed) =
        match List.find_opt (fun (d : C.splan C.costed) -> d.cs_index = c.cs_index) (by pf) with
        | Some d -> d.cs_steps_ns
        | None -> fail "candidate %d is not costed under every profile" c.cs_index; []
      in
      List.iter
        (fun (c : C.splan C.costed) ->
          let mpi = price measured c in
          if List.length mpi <> List.length c.cs_steps_ns || List.exists2 ( > ) c.cs_steps_ns mpi then
            fail "candidate %d: a step dearer with single copy (%d ns) than by MPI (%d ns)" c.cs_index c.cs_time_ns
              (List.fold_left ( + ) 0 mpi);
          match c.cs_plan with
          | C.ByExchange ->
              incr exchanges;
              if c.cs_steps_ns <> price same_host_single_copy c then
                fail "candidate %d: the exchange not priced with the single-copy link" c.cs_index
          | C.ByCollectives _ -> if c.cs_steps_ns <> mpi then incr cheaper_collectives
          | C.ByThen _ -> ())
        (by with_single_copy));
  if !exchanges = 0 then Alcotest.fail "no exchange among the candidates";
  if !cheaper_collectives = 0 then Alcotest.fail "no collective plan cheaper with single copy"

(* A gather on 4 ranks of one host: by MPI the collectives' all-gathers win;
   with single copy 4 times as fast the exchange and the all-gathers (one
   host, no scratch) are both priced by it, and the two all-gathers win
   again; a transpose's all-to-all ties with the exchange and wins on
   order. *)
let single_copy_changes_the_choice () =
  let gather =
    Problem.make_placed ~meshes:(Problem.One "{x:4}") ~strategy:C.StratAuto ~from:"[{x}4096]" ~to_:"[4096]" ~dtype:None
  in
  let transpose =
    Problem.make_placed ~meshes:(Problem.One "{x:4}") ~strategy:C.StratAuto ~from:"[{x}64, 64]" ~to_:"[64, {x}64]"
      ~dtype:None
  in
  let mpi = { C.pf_same_host = link 500 5_000; pf_across_hosts = link 1_500 5_000; pf_copy_bytes_per_us = 20_000;
              pf_single_copy = None } in
  let fast = { mpi with pf_single_copy = Some (link 500 20_000) } in
  let best pf p = (chosen (settings pf) p).ch_best in
  let cases =
    [ ("gather by MPI", mpi, gather, "collectives", None);
      ("gather, single copy 4 times as fast", fast, gather, "collectives", Some 2_226);
      ("gather, single copy as fast as MPI", { mpi with pf_single_copy = Some mpi.pf_same_host }, gather, "collectives", None);
      ("transpose, single copy 4 times as fast", fast, transpose, "collectives", Some 1_704) ]
  in
  List.iter
    (fun (what, pf, p, expected, ns) ->
      let b = best pf p in
      let strategy = Costreport.strategy_of b.cs_plan in
      if strategy <> expected then Alcotest.failf "%s: auto chose the %s, expected the %s" what strategy expected;
      Option.iter (fun ns -> if b.cs_time_ns <> ns then Alcotest.failf "%s: %d ns, expected %d ns" what b.cs_time_ns ns) ns)
    cases;
  (* With single copy, the transpose's exchange costs what its all-to-all does. *)
  let exchange = List.find (fun (c : C.splan C.costed) -> c.cs_plan = C.ByExchange) (candidates (chosen (settings fast) transpose)) in
  if exchange.cs_time_ns <> 1_704 then Alcotest.failf "transpose: the exchange %d ns, expected 1704 ns (as the all-to-all)" exchange.cs_time_ns

(* Planning.choose_within (Costinplace.choose_within) on the first
   [within_count] problems: at the least bytes any plan out of place
   allocates, the choice fits and no candidate that fits, in place among
   them, predicts less; one byte less, at least the least in place, the
   choice is in place within it, at the staging the budget allows, its
   schedule accepted by the validator, every plan out of place over it (or,
   uneven boxes past the generator's limits, refused saying so); below the
   least in place, refused naming both least figures. *)
let within_count = 200

let within_budget () =
  let st = Random.State.make [| seed |] in
  let in_place_chosen = ref 0 in
  for i = 0 to within_count - 1 do
    let d = Placed_problem.draw st i in
    let p = Placed_problem.problem d C.StratAuto in
    let fail fmt = Printf.ksprintf (fun s -> Alcotest.failf "problem %d (%s): %s" i (Placed_problem.describe d) s) fmt in
    let src = Problem.source_layout p and tgt = Problem.target_layout p in
    let least = List.fold_left (fun m (c : C.splan C.costed) -> min m c.cs_alloc_bytes) max_int (candidates (chosen (settings measured) p)) in
    let in_place_least = C.inplace_least_budget p.elem_bytes src tgt in
    let choose budget =
      let check (ch : C.buffer_plan C.choice) =
        if ch.ch_best.cs_alloc_bytes > budget then fail "within %d the choice allocates %d" budget ch.ch_best.cs_alloc_bytes;
        List.iter
          (fun (c : C.buffer_plan C.costed) ->
            if c.cs_alloc_bytes <= budget && c.cs_time_ns < ch.ch_best.cs_time_ns then
              fail "within %d candidate %d fits and predicts %d ns, below the chosen %d" budget c.cs_index c.cs_time_ns ch.ch_best.cs_time_ns)
          (ch.ch_slower @ ch.ch_over_budget)
      in
      match Planning.choose_within (settings ~budget measured) p budget with
      | Planning.Out_of_place (_, _, Planning.Costed_within (ch, _)) -> check ch; `Out_of_place
      | Planning.Out_of_place _ -> fail "within %d: an out-of-place choice without its candidates" budget
      | Planning.In_place (staging, sc, ch) ->
          check ch;
          if C.inplace_staging p.elem_bytes src tgt (Some budget) <> Some staging then
            fail "within %d: staging %d, not the most the budget allows" budget staging;
          if ch.ch_best.cs_alloc_bytes <> (C.largest_buffer src tgt + staging) * p.elem_bytes then
            fail "within %d: in place allocates %d, not the largest buffer and the staging" budget ch.ch_best.cs_alloc_bytes;
          if not (C.validate src tgt staging sc) then fail "within %d: the validator refuses the schedule" budget;
          `In_place
    in
    ignore (choose least);
    (if least - 1 >= in_place_least then
       match choose (least - 1) with
       | `In_place -> incr in_place_chosen
       | `Out_of_place -> fail "within %d, one byte below the least out of place: an out-of-place plan" (least - 1)
       | exception Front.Bad_input why ->
           if not (String.ends_with ~suffix:"says why)" why) then fail "within %d refused: %s" (least - 1) why);
    let below = min (least - 1) (in_place_least - 1) in
    match choose below with
    | _ -> fail "within %d, below the least out of place %d and in place %d: a plan" below least in_place_least
    | exception Front.Bad_input why ->
        if not (String.ends_with ~suffix:"one element of staging)" why) then fail "within %d refused: %s" below why
  done;
  if !in_place_chosen < within_count / 2 then
    Alcotest.failf "in place chosen below the least out of place in %d of %d problems" !in_place_chosen within_count

let () =
  Tap.run "cost"
    [ ( "choice",
        [ Alcotest.test_case (Printf.sprintf "%d random problems: the choice's allocated bytes (source + destination + workspace) within the budget, the header's live bytes within those, below the least refused" count) `Quick budget_kept;
          Alcotest.test_case "200 random problems: the same plan twice" `Quick deterministic;
          Alcotest.test_case (Printf.sprintf "%d random problems: free messages, least traffic" count) `Quick least_traffic_when_free;
          Alcotest.test_case (Printf.sprintf "%d random problems: latency dominates, fewest messages" count) `Quick fewest_messages_when_latency_dominates;
          Alcotest.test_case (Printf.sprintf "%d random problems: ranks per host = the host list" count) `Quick ranks_per_host_is_a_host_list;
          Alcotest.test_case (Printf.sprintf "%d random problems: the default is the built-in profile's choice" count) `Quick default_is_the_cost_model;
          Alcotest.test_case (Printf.sprintf "%d random problems: the exchange's closed form = its messages (one host), >= (across)" count) `Quick closed_form_is_the_messages;
          Alcotest.test_case (Printf.sprintf "%d random problems: single copy makes no step dearer, the exchange priced by its link, some collective plans cheaper" count) `Quick single_copy_no_dearer;
          Alcotest.test_case "a gather and a transpose on one host: with single copy the collectives still win (the all-gathers and the all-to-all priced by it)" `Quick single_copy_changes_the_choice;
          Alcotest.test_case (Printf.sprintf "%d random problems: within a budget in place weighed, taken one byte below the least out of place, refused below the least in place" within_count) `Quick within_budget ] ) ]
