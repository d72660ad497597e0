(* Pending sums ([sum{...}] in --from or --to): the plan of the extracted
   [plan_sums], plan files of pending-sum steps, both checked by the
   extracted [scheck], and what `plan` and `check` print about them.  Every
   number comes from [scheck]'s report and [sum_recv_bound]; this module
   only names, adds up and formats. *)

module C = Redist_core
module F = Front
module S = Syntax

let reject = Planfile.reject

type step = {
  fields : string * int list * Yojson.Safe.t;  (* op, dims, axis: Json.step_object's *)
  text : string;          (* as in a plan file *)
  after : string;         (* the type after it, pending axes included *)
  local_elems : int;
  recv_max : int;         (* elements received by the busiest rank in this step *)
  communicates : bool;    (* false for dyn_slice and add_pending, which are local *)
}

type t = {
  problem : Problem.t;
  plan : C.sumplan;
  report : C.sum_report;  (* scheck's *)
  refined : F.env;        (* the mesh of the collectives: the user's, refined *)
  steps : step list;      (* in execution order *)
  peak : int;
  world : int;            (* world ranks 0 .. world - 1 take part *)
  recv_busiest : int;     (* max over world ranks of the rank's total *)
  recv_total : int;
  bound : (int * int) option;  (* sum_recv_bound, max and total over ranks; a target without pending axes *)
  live_bytes : int;       (* most bytes alive on a rank: sumplan_live_bytes (lower_sums_live_bytes, sumx_live_le) *)
  workspace_bytes : int;  (* the workspace the header asks for: sumplan_workspace_bytes *)
  alloc_bytes : int;      (* what the caller allocates on a rank, what a budget bounds: sumplan_alloc_bytes *)
}

let show_pty op env ((t, axes) : C.pty) = F.show_ty env t ^ F.show_pending env op axes

let show_sum_step env = function
  | C.ReduceScatter (d, a) -> Printf.sprintf "reduce_scatter(%d, %s)" d (F.axis_name env a)
  | C.AllReduce a -> Printf.sprintf "all_reduce(%s)" (F.axis_name env a)
  | C.AddPending a -> Printf.sprintf "add_pending(%s)" (F.axis_name env a)

(* "axis y is" / "axes y, z are", for messages. *)
let pending_names env axes =
  let names = String.concat ", " (List.map (F.axis_name env) axes) in
  if List.length axes = 1 then "axis " ^ names ^ " is" else "axes " ^ names ^ " are"

let src_layout p = Problem.source_layout p
let tgt_layout p = Problem.target_layout p

let sum_steps op env (reports : C.sum_step_report list) =
  List.map
    (fun (s : C.sum_step_report) ->
      { fields = Json.sum_step_fields env s.ss_step; text = show_sum_step env s.ss_step; after = show_pty op env s.ss_type; local_elems = s.ss_local_size;
        recv_max = s.ss_recv; communicates = (match s.ss_step with C.AddPending _ -> false | _ -> true) })
    reports

(* Where the Part 1 collectives start: the type after the reductions. *)
let collectives_source (p : Problem.t) (rep : C.sum_report) =
  match List.rev rep.sm_pre with (s : C.sum_step_report) :: _ -> fst s.ss_type | [] -> p.src

let of_report (p : Problem.t) plan (rep : C.sum_report) =
  let refined = match plan with C.SumByCollectives (_, rf, _, _) -> F.env_of_refinement p.env rf | C.SumByExchange -> p.env in
  let collectives =
    match rep.sm_collectives with
    | None -> []
    | Some r ->
        let m = F.core_mesh refined in
        let before = ref (C.refine_ty (match plan with C.SumByCollectives (_, rf, _, _) -> rf | C.SumByExchange -> []) (collectives_source p rep)) in
        List.map
          (fun (s : C.step_report) ->
            let fields = Json.collective_fields refined !before s.sr_collective in
            before := s.sr_type;
            { fields; text = F.show_collective refined s.sr_collective; after = F.show_ty refined s.sr_type;
              local_elems = s.sr_local_size; recv_max = C.max_over_ranks m s.sr_recv;
              communicates = (match s.sr_collective with C.DynSlice _ -> false | _ -> true) })
          r.rp_steps
  in
  let world = Problem.world p in
  let over f = List.init world f in
  let sum = List.fold_left Bounds.add 0 and max_of = List.fold_left max 0 in
  let recv = over rep.sm_recv in
  let steps =
    match plan with
    | C.SumByExchange ->
        [ { fields = ("exchange", [], `Null); text = "exchange"; after = show_pty p.op p.tgt_env (p.tgt, p.tgt_pending);
            local_elems = C.largest_box (tgt_layout p); recv_max = max_of recv; communicates = true } ]
    | C.SumByCollectives _ -> sum_steps p.op p.env rep.sm_pre @ collectives @ sum_steps p.op p.tgt_env rep.sm_post
  in
  let bound =
    if p.tgt_pending <> [] then None
    else
      let lb = over (C.sum_recv_bound (src_layout p) p.src_pending (tgt_layout p)) in
      Some (max_of lb, sum lb)
  in
  let elem = p.elem_bytes in
  let lowered = C.lower_sumplan elem (Problem.fill p) (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending plan in
  { problem = p; plan; report = rep; refined; steps; peak = rep.sm_peak; world; recv_busiest = max_of recv;
    recv_total = sum recv; bound;
    live_bytes = C.sumplan_live_bytes elem (Problem.fill p) (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending plan;
    workspace_bytes = C.sumplan_workspace_bytes lowered;
    alloc_bytes = C.sum_lowered_alloc_bytes elem (src_layout p) (tgt_layout p) lowered }

let explain_sum_error env = function
  | C.SumDimOutOfRange d -> Printf.sprintf "dim %d is out of range" d
  | C.NotPending a -> Printf.sprintf "axis %s is not pending" (F.axis_name env a)
  | C.ScatterNotDividing (d, a) ->
      Printf.sprintf "|%s| = %d does not divide the local size of dim %d" (F.axis_name env a) (F.axis_size env a) d
  | C.PendingNotInMesh a -> Printf.sprintf "axis %s is not in the mesh %s" (F.axis_name env a) (F.show_mesh env)
  | C.PendingInUse a -> Printf.sprintf "axis %s shards a dimension, so it cannot become pending" (F.axis_name env a)
  | C.AlreadyPending a -> Printf.sprintf "axis %s is already pending" (F.axis_name env a)

(* [scheck]'s verdict on a plan the planner made: it accepts them. *)
let checked p plan =
  match C.scheck (src_layout p) p.Problem.src_pending (tgt_layout p) p.tgt_pending plan with
  | C.OK rep -> of_report p plan rep
  | C.Error _ -> failwith "scheck rejected the planner's plan for pending sums"

let strategy_refusal (p : Problem.t) =
  match p.strategy with
  | C.StratCollectives -> Printf.sprintf "--strategy collectives: %s; use --strategy exchange or auto" (Planning.collectives_refusal p)
  | _ -> "the planner found no plan for these pending sums"

(* A pending-sum plan as the lines of a plan file ([check] reads it back). *)
let plan_file_lines (p : Problem.t) = function
  | C.SumByExchange -> [ "exchange" ]
  | C.SumByCollectives (pre, rf, plan, post) ->
      let env = F.env_of_refinement p.env rf in
      List.map (show_sum_step p.env) pre @ F.refine_lines ~base:p.env env
      @ List.map (F.show_collective env) plan @ List.map (show_sum_step p.tgt_env) post

let cost_row (p : Problem.t) verdict (c : C.sumplan C.costed) : Costreport.row =
  let lines = plan_file_lines p c.cs_plan in
  let strategy, plan =
    match (c.cs_plan, lines) with
    | C.SumByExchange, _ -> ("exchange", "reducing exchange")
    | C.SumByCollectives _, [] -> ("collectives", "collectives: (no steps, a copy)")
    | C.SumByCollectives _, _ -> ("collectives", "collectives: " ^ String.concat "; " lines)
  in
  { index = c.cs_index; verdict; strategy; plan; plan_file = lines; time_ns = c.cs_time_ns; steps_ns = c.cs_steps_ns;
    upper_bound = false; live_bytes = c.cs_live_bytes; alloc_bytes = c.cs_alloc_bytes; traffic = c.cs_traffic; launches = c.cs_launches }

(* The cost model's settings and every candidate it costed, for printing. *)
type costed = {
  settings : Profile.t;
  rows : Costreport.row list;
  chosen : bool;  (* by choose_sums, rather than a plan file costed alone *)
  exchange_not_costed : string option;  (* why the reducing exchange was left out of the choice *)
}

(* The cost model's verdict, or why it was not applied. *)
type costing = Costed of costed | Not_costed of string

(* What costing a candidate takes, in Planning's units (about 0.2 us of
   CPU).  Costing the reducing exchange finds every target rank's messages
   from both meshes' boxes: about 5 units per pair of source and target
   ranks (measured here: 1.0 s at 1,024 ranks, 3.8 s at 2,048, 19 s at
   4,096).  Costing a collectives plan lowers its Part 1 collectives as a
   plain problem's ([Planning.collectives_work]) and visits every rank
   once per reduction and add_pending, about 4 units each.  The exchange's
   work grows with the square of the ranks, so with or without a cost
   option the candidates are costed within [Planning.costing_work_limit]
   (about half a second): all of them, else under auto the collectives
   without the reducing exchange, else none ([uncosted]); the output says
   which. *)
let exchange_units_per_pair = 5
let reduction_units_per_rank = 4

let exchange_pairs (p : Problem.t) =
  List.length (src_layout p).C.ly_mesh.pm_ranks * List.length (tgt_layout p).C.ly_mesh.pm_ranks

let candidate_units (p : Problem.t) = function
  | C.SumByExchange -> exchange_pairs p * exchange_units_per_pair
  | C.SumByCollectives (pre, rf, plan, post) ->
      let mesh = (src_layout p).C.ly_mesh.pm_mesh in
      (Planning.collectives_work mesh rf plan).units
      + (C.mesh_size mesh * (List.length pre + List.length post) * reduction_units_per_rank)

let costing_units p candidates = List.fold_left (fun n sp -> n + candidate_units p sp) 0 candidates

let is_collectives = function C.SumByCollectives _ -> true | C.SumByExchange -> false

let below_minimum (cost : Profile.t) (p : Problem.t) least =
  F.bad "--memory-budget: %d bytes per rank is below %d, the least bytes allocated per rank (source + destination + whole workspace) of any verified %s plan for these pending sums"
    (Option.get cost.budget) least (Problem.strategy_name p.strategy)

(* Not costed: [plan_sums]'s plan (least busiest-rank traffic, then fewer
   launches), else, above --memory-budget, the first other candidate
   within it by [sumplan_alloc_bytes] (the figure choose_sums weighs
   against the budget); [why] says what was not costed. *)
let uncosted (cost : Profile.t) (p : Problem.t) candidates why =
  let alloc sp = C.sumplan_alloc_bytes p.elem_bytes (Problem.fill p) (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending sp in
  let preferred = C.plan_sums p.strategy (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending in
  let order = Option.to_list preferred @ List.filter (fun sp -> Some sp <> preferred) candidates in
  let planned = "planned by least busiest-rank traffic, then fewer launches" in
  match (order, cost.budget) with
  | [], _ -> F.bad "%s" (strategy_refusal p)
  | sp :: _, None -> (checked p sp, Not_costed (Printf.sprintf "not applied: %s; %s" why planned))
  | sp :: _, Some budget -> (
      match List.find_opt (fun sp -> alloc sp <= budget) order with
      | None -> below_minimum cost p (List.fold_left min max_int (List.map alloc order))
      | Some fit ->
          let how =
            if fit = sp then Printf.sprintf "%s; it allocates %d bytes per rank, within --memory-budget %d" planned (alloc fit) budget
            else
              Printf.sprintf "the plan of least busiest-rank traffic allocates %d bytes per rank, over --memory-budget %d; planned by the %s within it (%d)"
                (alloc sp) budget (Problem.strategy_name (if is_collectives fit then C.StratCollectives else C.StratExchange)) (alloc fit)
          in
          (checked p fit, Not_costed (Printf.sprintf "not applied: %s; %s" why how)))

let rows_of p (ch : C.sumplan C.choice) =
  (cost_row p Costreport.Chosen ch.ch_best :: List.map (cost_row p Costreport.Slower) ch.ch_slower)
  @ List.map (cost_row p Costreport.Over_budget) ch.ch_over_budget

(* The plan [choose_sums] picks for [p.strategy] under [cost]'s profile,
   hosts and budget, with every candidate it costed, within
   [Planning.costing_work_limit] (see [exchange_units_per_pair]). *)
let choose_costed (cost : Profile.t) (p : Problem.t) : t * costing =
  let src = src_layout p and tgt = tgt_layout p in
  let candidates = C.sum_candidates p.strategy src p.src_pending tgt p.tgt_pending in
  let choose strategy exchange_not_costed =
    match C.choose_sums cost.profile cost.hosts p.elem_bytes (Problem.fill p) cost.budget strategy src p.src_pending tgt p.tgt_pending with
    | C.OK ch -> Ok (checked p ch.ch_best.cs_plan, Costed { settings = cost; rows = rows_of p ch; chosen = true; exchange_not_costed })
    | C.Error C.NoCandidate -> F.bad "%s" (strategy_refusal p)
    | C.Error (C.BelowMinimum least) -> Error least
  in
  let all = costing_units p candidates and limit = Planning.costing_work_limit in
  let work what units =
    Printf.sprintf "%s would take about %d units of 0.2 us (%d pairs of source and target ranks for the reducing exchange; at most %d, about half a second)"
      what units (exchange_pairs p) limit
  in
  if all <= limit then
    match choose p.strategy None with Ok r -> r | Error least -> below_minimum cost p least
  else
    let collectives = List.filter is_collectives candidates in
    let none_costed () = uncosted cost p candidates (work "costing the candidates" all) in
    if p.strategy = C.StratAuto && collectives <> [] && costing_units p collectives <= limit then
      match choose C.StratCollectives (Some ("reducing exchange not costed: " ^ work "with it costing" all)) with
      | Ok r -> r
      | Error _ -> none_costed ()
    else none_costed ()

(* Under the built-in profile, all ranks on one host, no budget. *)
let choose (p : Problem.t) = fst (choose_costed (Planning.default_settings p) p)

(* A plan file's plan costed as the one candidate when a cost option is
   given (costing is not free on large meshes) and the work is within
   [Planning.costing_work_limit]; rejected above the budget either way. *)
let cost_checked (cost : Profile.t) (r : t) : costing option =
  if not cost.given then None
  else
    let p = r.problem in
    let within_budget alloc =
      match cost.budget with
      | Some b when alloc > b ->
          reject "it allocates %d bytes per rank (source + destination + whole workspace), over --memory-budget %d" alloc b
      | _ -> ()
    in
    let units = candidate_units p r.plan in
    if units > Planning.costing_work_limit then begin
      within_budget r.alloc_bytes;
      Some
        (Not_costed
           (Printf.sprintf "not applied: costing this plan would take about %d units of 0.2 us (%d pairs of source and target ranks for the reducing exchange; at most %d, about half a second)"
              units (exchange_pairs p) Planning.costing_work_limit))
    end
    else
      match
        C.scost_candidate cost.profile cost.hosts p.elem_bytes (Problem.fill p) (src_layout p) p.src_pending (tgt_layout p)
          p.tgt_pending 0 r.plan
      with
      | None -> failwith "scheck rejected a plan it accepted"
      | Some c ->
          within_budget c.cs_alloc_bytes;
          Some (Costed { settings = cost; rows = [ cost_row p Costreport.Chosen c ]; chosen = false; exchange_not_costed = None })

(* ---- plan files ---- *)

let sum_step_of env ~line (c : S.collective) =
  let axis (x : S.name) =
    match F.find_name env x.name with
    | Some a -> a.id
    | None -> reject "line %d: axis %s is not in the mesh %s" line x.name (F.show_mesh env)
  in
  match c with
  | S.Reduce_scatter (d, x) -> Some (C.ReduceScatter (d, axis x))
  | S.All_reduce x -> Some (C.AllReduce (axis x))
  | S.Add_pending x -> Some (C.AddPending (axis x))
  | _ -> None

(* The steps' list checked from [start]; the line of the first that fails
   and why. *)
let check_sum_steps env start lines_steps =
  let m = F.core_mesh env in
  let rec go prefix = function
    | [] -> ()
    | (line, k) :: rest -> (
        let prefix = prefix @ [ k ] in
        match C.sum_steps_check m start prefix with
        | C.OK _ -> go prefix rest
        | C.Error e -> reject "line %d: %s: %s" line (show_sum_step env k) (explain_sum_error env e))
  in
  go [] lines_steps

(* A plan file for pending sums: the one line [exchange], or reduce_scatter
   and all_reduce lines, then optional refine lines and Part 1 collectives,
   then add_pending lines, in that order. *)
let check (p : Problem.t) text =
  let items = Planfile.parse text in
  List.iter (function line, S.Via _ -> Planfile.refuse_sums_via line | _ -> ()) items;
  match items with
  | [ (_, S.Exchange) ] -> (
      match C.scheck (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending C.SumByExchange with
      | C.OK rep -> of_report p C.SumByExchange rep
      | C.Error _ -> reject "the reducing exchange does not take these layouts")
  | items ->
      if not (Planning.collectives_apply p) then
        reject "%s; plan it with the one line exchange" (Planning.collectives_refusal p);
      let is_sum = function _, S.Step (S.Reduce_scatter _ | S.All_reduce _) -> true | _ -> false in
      let is_post = function _, S.Step (S.Add_pending _) -> true | _ -> false in
      let rec split_while f acc = function x :: r when f x -> split_while f (x :: acc) r | r -> (List.rev acc, r) in
      let pre, rest = split_while is_sum [] items in
      let middle, post = split_while (fun x -> not (is_post x)) [] rest in
      List.iter
        (fun (line, it) ->
          if not (is_post (line, it)) then
            reject "line %d: after add_pending only add_pending lines may follow" line)
        post;
      List.iter
        (fun (line, it) ->
          if is_sum (line, it) then reject "line %d: reduce_scatter and all_reduce come before refine lines and collectives" line)
        middle;
      let resolve env = List.map (fun (line, it) -> match it with S.Step c -> (line, Option.get (sum_step_of env ~line c)) | _ -> assert false) in
      let pre = resolve p.env pre in
      check_sum_steps p.env (p.src, p.src_pending) pre;
      let after_pre =
        match C.sum_steps_check (F.core_mesh p.env) (p.src, p.src_pending) (List.map snd pre) with
        | C.OK (_, pty) -> pty
        | C.Error _ -> assert false
      in
      let t1, kept = after_pre in
      if kept <> [] && middle <> [] then
        reject "%s still pending after the reductions; Part 1 collectives move plain values only"
          (pending_names p.env kept);
      (* The collectives go from where the reductions end to the target. *)
      let plain = { p with src = t1; src_pending = [] } in
      ignore (Planfile.check_collectives plain middle);
      let _, rf, collectives = Planfile.load plain middle in
      let post = resolve p.tgt_env post in
      check_sum_steps p.tgt_env (p.tgt, kept) post;
      let plan = C.SumByCollectives (List.map snd pre, rf, Planfile.oks collectives, List.map snd post) in
      match C.scheck (src_layout p) p.src_pending (tgt_layout p) p.tgt_pending plan with
      | C.OK rep -> of_report p plan rep
      | C.Error (C.SumWrongEnd pty) ->
          reject "the plan ends at %s, not at the target %s" (show_pty p.op p.tgt_env pty)
            (show_pty p.op p.tgt_env (p.tgt, p.tgt_pending))
      | C.Error (C.SumStillPending axes) ->
          reject "%s still pending at the end of the plan" (pending_names p.env axes)
      | C.Error _ -> reject "the checker rejected the plan"

(* ---- output ---- *)

let bytes (r : t) elems = Bounds.mul_decimal elems r.problem.elem_bytes
let plural = Report.plural

let guarantees (r : t) =
  (match r.plan with
   | C.SumByExchange ->
       [ ("reducing_exchange_to_sound", "after the reducing exchange every target group sums to the rank's target box (the designated member holds the sum, the others zero)");
         ("reducing_exchange_recv_exact", "each rank receives one element per other group member for each target element, plus those missing from its source box");
         ("lower_sumx_correct", "the lowered exchange (per cell, the holder's group members in ascending order, staged and added in that order) gives every target group its box's sum") ]
   | C.SumByCollectives _ ->
       [ ("sum_step_sound", "each reduce_scatter, all_reduce and add_pending keeps the pending sums of the global array, over any commutative monoid");
         ("collective_pending_sound", "Part 1 collectives keep pending sums on axes they leave alone");
         ("pplan_sound", "a plan of such steps that type-checks takes the source's pending sums to the target's");
         ("sum_received_exact", "a reduction receives (|a| - 1) elements per element of its new local array");
         ("lower_sums_correct", "the lowered calls (reductions, collectives, add_pending) leave in every rank's destination what the plan's execution gives") ])
  @ Guarantees.for_operation ~pending_target:(r.problem.tgt_pending <> []) r.problem.op
  @
  match (r.bound, r.plan) with
  | None, _ -> []
  | Some _, C.SumByExchange ->
      [ ("reducing_exchange_recv_ge", "the reducing exchange receives at least the printed lower bound, exactly it when groups have one member") ]
  | Some _, C.SumByCollectives _ ->
      [ ("sum_plan_recv_ge_bound", "no plan of these steps makes a rank receive fewer elements than the printed lower bound") ]

let choice_guarantees = function Some (Costed { chosen = true; _ }) -> Guarantees.sums_choice | _ -> []

(* The theorem that bounds [live_bytes]. *)
let live_theorem (r : t) = match r.plan with C.SumByExchange -> "sumx_live_le" | C.SumByCollectives _ -> "lower_sums_live_bytes"

let launches (r : t) = List.length (List.filter (fun s -> s.communicates) r.steps)

let text ?cost ~title (r : t) =
  let p = r.problem in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "# %s: %s, %s -> %s, %s (%d bytes per element), strategy %s" title (Problem.show_meshes p)
    (show_pty p.op p.env (p.src, p.src_pending)) (show_pty p.op p.tgt_env (p.tgt, p.tgt_pending)) p.dtype.name p.elem_bytes
    (Problem.strategy_name p.strategy);
  let texts = List.map (fun s -> s.text) r.steps and afters = List.map (fun s -> s.after) r.steps in
  let width l = List.fold_left (fun acc s -> max acc (String.length s)) 0 l in
  let wc = width texts and wt = width afters in
  let refines = F.refine_lines ~base:p.env r.refined in
  let n_pre = match r.plan with C.SumByCollectives (pre, _, _, _) -> List.length pre | C.SumByExchange -> 0 in
  if r.steps = [] then line "# (no steps: the source type is the target type)";
  List.iteri
    (fun i s ->
      if i = n_pre then List.iter (line "%s") refines;
      line "%-*s  # -> %-*s  local %d  busiest rank recv %d (%s B)" wc s.text wt s.after s.local_elems s.recv_max
        (bytes r s.recv_max))
    r.steps;
  if n_pre = List.length r.steps && r.steps <> [] then List.iter (line "%s") refines;
  line "# peak local size: %s (%s B)" (plural r.peak "element") (bytes r r.peak);
  (match r.bound with
   | Some (lb_max, lb_total) ->
       line "# busiest rank receives: %s (%s B); lower bound %d (target elements whose sum needs a contribution the rank does not hold, max over ranks)"
         (plural r.recv_busiest "element") (bytes r r.recv_busiest) lb_max;
       line "# total received: %s (%s B); lower bound %d (summed over %d world ranks)" (plural r.recv_total "element")
         (bytes r r.recv_total) lb_total r.world
   | None ->
       line "# busiest rank receives: %s (%s B)" (plural r.recv_busiest "element") (bytes r r.recv_busiest);
       line "# total received: %s (%s B), summed over %d world ranks" (plural r.recv_total "element")
         (bytes r r.recv_total) r.world);
  let launches = launches r in
  line "# launches: %s (+ %d local steps)" (plural launches "collective") (List.length r.steps - launches);
  line "# live bytes per rank: %d (source + destination + workspace in use; proven: %s); workspace %d B" r.live_bytes
    (live_theorem r) r.workspace_bytes;
  let combines =
    match r.problem.op with
    | Dtype.Sum -> "adds its group"
    | Dtype.Avg -> "averages its group (adds, then divides once by the group size)"
    | op -> "combines its group with " ^ Dtype.op_name op
  in
  line "# sums: over a commutative monoid in the proofs; each reduction the runtime makes %s in ascending member order on MPI (integers exact)" combines;
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) (choice_guarantees cost @ guarantees r);
  (match cost with
   | Some (Costed c) ->
       Buffer.add_string b (Costreport.comment_lines ~sums:true c.settings c.rows);
       Option.iter (fun why -> Buffer.add_string b (Costreport.cost_model_line why)) c.exchange_not_costed
   | Some (Not_costed why) -> Buffer.add_string b (Costreport.cost_model_line why)
   | None -> ());
  Buffer.contents b

(* The problem and the plan, as `plan --json` prints them and `run --json`
   extends them. *)
let json_fields ?cost (r : t) =
  let p = r.problem in
  let step s = Json.step_object s.fields ~text:s.text ~after:s.after ~local_elems:s.local_elems ~recv_max:s.recv_max in
  let axes env l = `List (List.map (fun a -> `String (F.axis_name env a)) l) in
  let opt = function Some n -> `Int n | None -> `Null in
  let launches = launches r in
  Json.problem p
    @ [ ("reduction", `String (Dtype.op_name p.op)); ("source_pending", axes p.env p.src_pending); ("target_pending", axes p.tgt_env p.tgt_pending);
        ("refined_mesh", Json.mesh r.refined);
        ("refine", `List (List.map (fun l -> `String l) (F.refine_lines ~base:p.env r.refined)));
        ("steps", `List (List.map step r.steps)); ("peak_elems", `Int r.peak);
        ("src_elems", `Int (C.largest_box (src_layout p))); ("tgt_elems", `Int (C.largest_box (tgt_layout p)));
        ("global_elems", `Int (List.fold_left ( * ) 1 (C.global_shape p.src)));
        ("recv_elems_max", `Int r.recv_busiest); ("recv_elems_total", `Int r.recv_total);
        ("lower_bound_recv_max", opt (Option.map fst r.bound));
        ("lower_bound_recv_total", opt (Option.map snd r.bound));
        ("launches", `Int launches); ("slices", `Int (List.length r.steps - launches));
        ("live_bytes", `Int r.live_bytes); ("workspace_bytes", `Int r.workspace_bytes);
        ("proven", `List (List.map (fun (n, _) -> `String n) (choice_guarantees cost @ guarantees r))) ]
    @
    match cost with
    | Some (Costed c) ->
        ("cost", Costreport.json ~sums:true c.settings c.rows)
        :: Option.to_list (Option.map (fun why -> ("exchange_not_costed", `String why)) c.exchange_not_costed)
    | Some (Not_costed why) -> [ ("cost_not_applied", `String why) ]
    | None -> []

let json ?cost ~command r = Json.document ~command (json_fields ?cost r)
