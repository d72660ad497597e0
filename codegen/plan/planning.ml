(* The verified planner's plan for a problem, checked and measured. *)

module C = Redist_core

(* Why the collectives cannot plan a problem (even_problem is false). *)
let why_not_collectives (p : Problem.t) =
  let uneven env ty = not (C.ty_wf (Front.core_mesh env) ty) in
  if uneven p.env p.src then "--from is uneven (a dimension not divisible by its axes)"
  else if uneven p.tgt_env p.tgt then "--to is uneven (a dimension not divisible by its axes)"
  else "the problem is not on one mesh placed at world rank 0"

let collectives_refusal (p : Problem.t) =
  Printf.sprintf "the collectives need an even problem on one mesh at world rank 0, but %s" (why_not_collectives p)

let collectives_apply (p : Problem.t) =
  C.even_problem (Problem.source_layout p) (Problem.target_layout p)

(* The report of [planner]'s plan and the theorems that cover it.  The plan
   is always run through [check] (plan_total says it is accepted, and
   plan_correct that it is correct).  planner_always_normal proves that the
   planner's plan is in normal form for every well-formed problem, so the
   peak, normal-form and traffic theorems cover every plan it prints. *)
(* Pending sums go through Sumplan, which plan, check, gen, run and the C
   ABI call; anything else refuses them rather than dropping the sums. *)
let refuse_pending (p : Problem.t) =
  if Problem.has_pending p then
    Front.bad "pending sums (sum{...}) are taken by plan, check, gen, run and the C ABI only"

let plan (p : Problem.t) =
  refuse_pending p;
  if not (collectives_apply p) then
    Front.bad "%s; redist run executes only collectives plans so far (plan and gen take --strategy exchange)"
      (collectives_refusal p);
  let m = Front.core_mesh p.env in
  let rf, plan = C.planner m p.src p.tgt in
  let env = Front.env_of_refinement p.env rf in
  match Report.of_check p env rf plan with
  | C.OK r -> (r, Guarantees.for_plan ~refined:(rf <> []))
  | C.Error _ -> failwith "the checker rejected the planner's plan (contradicts plan_total)"

(* The report of a plan the checker accepted ([choose_checked]); a hybrid's
   parts on their own problems ([Problem.through]). *)
let rec report_of (p : Problem.t) = function
  | C.ByCollectives (rf, plan) -> (
      let env = Front.env_of_refinement p.env rf in
      match Report.of_check p env rf plan with
      | C.OK r -> Xreport.Collectives r
      | C.Error _ -> failwith "the checker rejected a chosen plan (contradicts choose_checked)")
  | C.ByExchange -> (
      match Xreport.of_exchange p with
      | C.OK r -> Xreport.Exchange r
      | C.Error _ -> failwith "xcheck rejected a chosen exchange (contradicts choose_checked)")
  | C.ByThen (mid, a, b) -> (
      let first, second = Problem.through p mid in
      match Xreport.of_hybrid p mid (report_of first a) (report_of second b) with
      | C.OK h -> Xreport.Hybrid h
      | C.Error _ -> failwith "xcheck rejected a chosen hybrid (contradicts choose_checked)")

(* Under auto the plan is any verified candidate, covered by the checker's
   theorems; under the other strategies it is [plan_with]'s (never a hybrid). *)
let plan_with_guarantees = function
  | C.ByCollectives (rf, _) -> Guarantees.for_strategy_plan ~refined:(rf <> [])
  | C.ByExchange -> Guarantees.exchange_plan
  | C.ByThen _ -> Guarantees.hybrid

let guarantees_of strategy sp =
  match (strategy, sp) with
  | C.StratAuto, C.ByCollectives (rf, _) -> Guarantees.for_check ~refined:(rf <> [])
  | C.StratAuto, C.ByExchange -> Guarantees.exchange_checker
  | _, sp -> plan_with_guarantees sp

(* What [choose_costed] says about the cost model: its choice (without
   the hybrids, and why), or why it was not applied. *)
type costing =
  | Costed of C.splan C.choice
  | Costed_no_hybrids of C.splan C.choice * string
  | Not_costed of string
  | Costed_within of C.buffer_plan C.choice * string option
      (* [choose_within]'s: in place among the candidates, or why it was not weighed *)

(* What costing the candidates takes, in units of about 0.2 us of CPU,
   measured here: costing a collective candidate lowers it, and each
   all_permute's table (Lower.recv_from_table) has an entry per rank, read
   off the device's coordinates, one unit per entry and axis of the
   (refined) mesh; costing an exchange, or a hybrid's exchange part, finds
   every rank's boxes (from its digits, Strategy.rank_box) and runs, 8
   units per rank and one more per two mesh axes (measured: 0.08 s for
   65,536 ranks on one axis, 0.14 s on 16, about 2/3 of this estimate;
   bench/plan_time/costing_tiers.ml).  Without a cost
   option, the candidates are costed within [costing_work_limit] (about
   half a second): all of them, else all but the hybrids, else none
   ([plan_with]'s plan), and the output says which. *)
let costing_work_limit = 1 lsl 21
let exchange_units_per_rank axes = 8 + ((axes + 1) / 2)

type costing_work = { permute_entries : int; units : int }

let no_work = { permute_entries = 0; units = 0 }

(* The work of costing [p]'s candidates without the hybrids, and with them
   (the candidates found once). *)
let add_work a b = { permute_entries = a.permute_entries + b.permute_entries; units = a.units + b.units }

(* Lowering collectives [plan] on [mesh] refined by [rf]: its permutes' tables. *)
let collectives_work mesh rf plan =
  let permutes = List.length (List.filter (function C.AllPermute _ -> true | _ -> false) plan) in
  let n = C.mesh_size mesh * permutes in
  { permute_entries = n; units = n * List.length (C.refine_mesh rf mesh) }

let costing_work (p : Problem.t) src tgt =
  let mesh = src.C.ly_mesh.pm_mesh in
  let ranks = C.mesh_size mesh and axes = List.length mesh in
  let rec add w = function
    | C.ByCollectives (rf, plan) -> add_work w (collectives_work mesh rf plan)
    | C.ByExchange -> { w with units = w.units + (ranks * exchange_units_per_rank axes) }
    | C.ByThen (_, a, b) -> add (add w a) b
  in
  let plain = List.fold_left add no_work (C.strategy_candidates false p.strategy src tgt) in
  let hybrids = match p.strategy with C.StratAuto -> C.hybrid_candidates src tgt | _ -> [] in
  (plain, List.fold_left add plain hybrids)

let no_collectives (p : Problem.t) =
  Front.bad "--strategy collectives: %s; use --strategy exchange or auto" (collectives_refusal p)

let cost_option_hint = "give --profile, --ranks-per-host, --hosts or --memory-budget to cost them anyway"

(* The plan [choose] picks for [p.strategy] under [cost]'s profile, hosts
   and budget, with the theorems that cover it and the choice itself (the
   other candidates, for printing); without a cost option, within
   [costing_work_limit] (see there).  [no_hybrids], the reason, leaves the
   hybrids out whatever the costing work (a backend that cannot run them). *)
let choose_costed ?no_hybrids (cost : Profile.t) (p : Problem.t) =
  refuse_pending p;
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let choose hybrids =
    match C.choose hybrids cost.profile cost.hosts p.elem_bytes cost.budget p.strategy src tgt with
    | C.OK ch -> (report_of p ch.ch_best.cs_plan, Guarantees.choice ~hybrids @ guarantees_of p.strategy ch.ch_best.cs_plan, ch)
    | C.Error C.NoCandidate -> no_collectives p
    | C.Error (C.BelowMinimum least) ->
        Front.bad "--memory-budget: %d bytes per rank is below %d, the least bytes allocated per rank (source + destination + whole workspace) of any verified %s plan for this problem"
          (Option.get cost.budget) least (Problem.strategy_name p.strategy)
  in
  let plain, all = if cost.given then (no_work, no_work) else costing_work p src tgt in
  if no_hybrids = None && all.units <= costing_work_limit then
    let r, g, ch = choose true in
    (r, g, Costed ch)
  else if plain.units <= costing_work_limit then
    let r, g, ch = choose false in
    let why =
      match no_hybrids with
      | Some why -> why
      | None ->
          Printf.sprintf
            "hybrids not costed: with them costing would take about %d units of 0.2 us (the default costs at most %d, about half a second); %s"
            all.units costing_work_limit cost_option_hint
    in
    (r, g, Costed_no_hybrids (ch, why))
  else
    match C.plan_with p.strategy src tgt with
    | Some sp ->
        ( report_of p sp, plan_with_guarantees sp,
          Not_costed
            (Printf.sprintf
               "not applied: costing the candidates would take about %d units of 0.2 us (%d all_permute table entries to lower, one per rank per permute, and each exchange's ranks; the default costs at most %d, about half a second); planned by least busiest-rank traffic, then fewer launches; %s"
               plain.units plain.permute_entries costing_work_limit cost_option_hint) )
    | None -> no_collectives p

(* [auto] within a --memory-budget ([Costinplace.choose_within]): the
   cheapest plan that fits, out of place or in place at the most staging
   the budget allows ([inplace_staging_most]). *)
type within =
  | Out_of_place of Xreport.plan * (string * string) list * costing
  | In_place of int * C.schedule * C.buffer_plan C.choice  (* the staging, the schedule, the choice *)

(* Weighing in place costs generating and validating its schedule, whose
   validation checks every pair of a round's moves (proofs/README.md, "In
   place": 1.9 s of the 2 s for 2048 x 2048 with unbounded staging).  Where
   a plan out of place fits, in place is weighed only when the exchange has
   at most [in_place_weigh_rows] rows ([exchange_runs], listed only for at
   most [in_place_weigh_elems] global elements; a round's moves are about
   its rows, whose pairs the validation checks: 1024 x 1024 on 4 ranks,
   rows to columns, is 4096 rows, at the limit); where none fits, always. *)
let in_place_weigh_elems = 1 lsl 20
let in_place_weigh_rows = 1 lsl 12

let in_place_too_long (p : Problem.t) src tgt =
  let elems = List.fold_left ( * ) 1 (C.global_shape p.src) in
  if elems > in_place_weigh_elems then
    Some (Printf.sprintf "%d elements (weighed up to %d)" elems in_place_weigh_elems)
  else
    let rows = List.length (C.exchange_runs src tgt) in
    if rows > in_place_weigh_rows then
      Some (Printf.sprintf "%d rows of the exchange's messages (weighed up to %d)" rows in_place_weigh_rows)
    else None

let choose_within (cost : Profile.t) (p : Problem.t) budget =
  refuse_pending p;
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let choose in_place = C.choose_within true in_place cost.profile cost.hosts p.elem_bytes (Some budget) p.strategy src tgt in
  let too_long = in_place_too_long p src tgt in
  let answer, not_weighed =
    match too_long with
    | None -> (choose true, None)
    | Some size -> (
        match choose false with
        | C.Error (C.BelowMinimum _) -> (choose true, None)
        | answer ->
            ( answer,
              Some
                (Printf.sprintf
                   "in place not weighed: a plan out of place fits, and validating an in-place schedule of %s would take long; `plan --in-place --memory-budget %d` plans it"
                   size budget) ))
  in
  match answer with
  | C.OK ch -> (
      match ch.ch_best.cs_plan with
      | C.OutOfPlace sp ->
          Out_of_place (report_of p sp, Guarantees.within @ guarantees_of p.strategy sp, Costed_within (ch, not_weighed))
      | C.InPlace (staging, sc) -> In_place (staging, sc, ch))
  | C.Error C.NoCandidate -> no_collectives p
  | C.Error (C.BelowMinimum least) -> (
      let out_of_place =
        Printf.sprintf "--memory-budget: %d bytes per rank is below %d, the least bytes allocated per rank (source + destination + whole workspace) of any verified plan out of place"
          budget least
      in
      match C.inplace_staging p.elem_bytes src tgt (Some budget) with
      | None ->
          Front.bad "%s, and below %d, the least in place (the largest buffer, max(|src box|, |tgt box|), and one element of staging)"
            out_of_place (C.inplace_least_budget p.elem_bytes src tgt)
      | Some staging ->
          Front.bad "%s, and in place with a staging of %s the planner found no schedule within its limits (`plan --in-place --memory-budget %d` says why)"
            out_of_place (Report.plural staging "element") budget)

(* A plan the checker accepted, costed as the one candidate; [Rejected]
   above the budget. *)
let cost_checked (cost : Profile.t) r =
  let p = Xreport.problem r in
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  match C.cost_candidate cost.profile cost.hosts p.elem_bytes src tgt 0 (Xreport.splan r) with
  | None -> failwith "xcheck rejected a plan the checker accepted"
  | Some c ->
      if not (C.fits cost.budget c) then
        raise (Report.Rejected (Printf.sprintf "it allocates %d bytes per rank (source + destination + whole workspace), over --memory-budget %d"
                                  c.cs_alloc_bytes (Option.get cost.budget)));
      { C.ch_best = c; ch_slower = []; ch_over_budget = [] }

(* Under the built-in profile, all ranks on one host, no budget (the
   default of the command line). *)
let default_settings p = Profile.settings ~profile_file:None ~ranks_per_host:None ~host_list:None ~budget:None p

let choose (p : Problem.t) =
  let r, g, _ = choose_costed (default_settings p) p in
  (r, g)

