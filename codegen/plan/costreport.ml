(* What `plan` prints about the cost model's choice ([Cost.choose]): the
   chosen plan's predicted time per step, its allocated and live bytes, and every other
   verified candidate with why it was not chosen.  Every number is a field
   of the core's [costed] records (of plans, or of pending-sum plans in
   Sumplan: one record, Choose.v); this module only formats. *)

module C = Redist_core
module F = Front

type verdict = Chosen | Slower | Over_budget

let verdict_name = function Chosen -> "chosen" | Slower -> "slower" | Over_budget -> "over_budget"

(* Every verified candidate with its verdict. *)
let candidates (ch : _ C.choice) =
  ((ch.ch_best, Chosen) :: List.map (fun c -> (c, Slower)) ch.ch_slower)
  @ List.map (fun c -> (c, Over_budget)) ch.ch_over_budget

let in_place_strategy = "in_place"

let strategy_of = function
  | C.ByCollectives _ -> "collectives"
  | C.ByExchange -> "exchange"
  | C.ByThen _ -> "hybrid"

(* A candidate as the lines of a plan file (`check --plan` and `gen --plan`
   read it back, so a candidate that was not chosen can still be generated
   and measured): its refine lines and collectives, [exchange], or a
   hybrid's first part, [via] its intermediate type, and its second part. *)
let rec plan_file_lines (p : Problem.t) = function
  | C.ByCollectives (rf, plan) ->
      let env = F.env_of_refinement p.env rf in
      F.refine_lines ~base:p.env env @ List.map (F.show_collective env) plan
  | C.ByExchange -> [ "exchange" ]
  | C.ByThen (mid, a, b) ->
      let first, second = Problem.through p mid in
      plan_file_lines first a @ [ "via " ^ F.show_ty first.tgt_env mid.ly_ty ] @ plan_file_lines second b

(* A candidate on one line. *)
let describe (p : Problem.t) sp =
  match (sp, plan_file_lines p sp) with
  | C.ByCollectives _, [] -> "collectives: (no steps, a copy)"
  | C.ByCollectives _, parts -> "collectives: " ^ String.concat "; " parts
  | C.ByExchange, _ -> "exchange"
  | C.ByThen _, parts -> "hybrid: " ^ String.concat "; " parts

(* Across hosts the exchange's predicted time is an upper bound
   (Costclosed.exchange_rank_ns_bound): each message a rank does not hold
   is charged the slower link, whichever replica sends it; so is a hybrid's
   with such an exchange part. *)
let rec bounded_plan (cost : Profile.t) (p : Problem.t) = function
  | C.ByCollectives _ -> false
  | C.ByExchange ->
      let ranks (l : C.layout) = l.ly_mesh.pm_ranks in
      C.spans_hosts cost.hosts (ranks (Problem.source_layout p) @ ranks (Problem.target_layout p))
  | C.ByThen (mid, a, b) ->
      let first, second = Problem.through p mid in
      bounded_plan cost first a || bounded_plan cost second b

let is_upper_bound (cost : Profile.t) (p : Problem.t) (c : C.splan C.costed) = bounded_plan cost p c.cs_plan

let upper_bound_note = "at most: the exchange across hosts charges each message the slower link"

(* How the prediction priced the chosen plan's same-host messages, part by
   part ([Cost.call_by_single_copy], [Cost.program_steps_ns],
   [Costsums.sum_steps_ns]): with the profile's single copy, the exchanges'
   and the reducing exchange's by one copy, a collective's where its group
   is on one host (a permute: its mesh), a hybrid's second part and the
   reductions by MPI. *)
let transport ~sums (cost : Profile.t) strategy =
  let in_place_collectives = "gathers, all-to-alls and permutes by single copy where their group is on one host" in
  match cost.profile.pf_single_copy with
  | _ when strategy = in_place_strategy -> ("mpi", "in-place messages by MPI")
  | None -> ("mpi", "same-host messages by MPI")
  | Some _ ->
      ( "single_copy",
        match (sums, strategy) with
        | false, "exchange" -> "same-host exchange messages by single copy"
        | true, "exchange" -> "same-host contributions to the reducing exchange by single copy"
        | false, "hybrid" -> "first part's same-host messages by single copy (a collective's: "
                             ^ in_place_collectives ^ "), second part's by MPI"
        | false, _ -> "collectives' same-host messages: " ^ in_place_collectives ^ ", the rest by MPI"
        | true, _ -> "collectives' same-host messages: " ^ in_place_collectives ^ ", reductions by MPI" )

let show_ns ns =
  if ns < 1_000_000 then Printf.sprintf "%.3f us" (float_of_int ns /. 1e3)
  else Printf.sprintf "%.3f ms" (float_of_int ns /. 1e6)

(* A costed candidate of either kind of problem ([C.splan C.costed] of [choose],
   [C.sumplan C.costed] of [choose_sums]), as printed. *)
type row = {
  index : int;
  verdict : verdict;
  strategy : string;
  plan : string;                (* on one line *)
  plan_file : string list;      (* as the lines of a plan file *)
  time_ns : int;
  steps_ns : int list;
  upper_bound : bool;           (* the predicted time is an upper bound *)
  live_bytes : int;             (* the most alive on a rank at once *)
  alloc_bytes : int;            (* what the caller allocates on a rank: what a budget bounds *)
  traffic : int;
  launches : int;
}

(* In the core's candidate order. *)
let sorted rows = List.sort (fun a b -> compare a.index b.index) rows

let row_of (cost : Profile.t) (p : Problem.t) verdict (c : C.splan C.costed) =
  { index = c.cs_index; verdict; strategy = strategy_of c.cs_plan; plan = describe p c.cs_plan;
    plan_file = plan_file_lines p c.cs_plan; time_ns = c.cs_time_ns; steps_ns = c.cs_steps_ns;
    upper_bound = is_upper_bound cost p c; live_bytes = c.cs_live_bytes; alloc_bytes = c.cs_alloc_bytes; traffic = c.cs_traffic;
    launches = c.cs_launches }

let rows_of_choice (cost : Profile.t) (p : Problem.t) (ch : C.splan C.choice) =
  List.map (fun (c, verdict) -> row_of cost p verdict c) (candidates ch)

(* The in-place candidate: its launches are its rounds, its time exact
   whatever the hosts (each message priced on its own link:
   [Costinplace.round_ns]); `check --in-place` reads its plan file. *)
let rows_of_within (cost : Profile.t) (p : Problem.t) (ch : C.buffer_plan C.choice) =
  List.map
    (fun ((c : C.buffer_plan C.costed), verdict) ->
      match c.cs_plan with
      | C.OutOfPlace sp -> row_of cost p verdict { c with cs_plan = sp }
      | C.InPlace (staging, _) ->
          { index = c.cs_index; verdict; strategy = in_place_strategy;
            plan = Printf.sprintf "exchange in place (%s, staging %s)" (Report.plural c.cs_launches "round")
                     (Report.plural staging "element");
            plan_file = [ "exchange" ]; time_ns = c.cs_time_ns; steps_ns = c.cs_steps_ns; upper_bound = false;
            live_bytes = c.cs_live_bytes; alloc_bytes = c.cs_alloc_bytes; traffic = c.cs_traffic;
            launches = c.cs_launches })
    (candidates ch)

let lines ~sums (cost : Profile.t) rows =
  let best = List.find (fun r -> r.verdict = Chosen) rows in
  let budget =
    match cost.budget with
    | Some b -> Printf.sprintf "; --memory-budget %d B bounds the allocated bytes" b
    | None -> ""
  in
  let bound r = if r.upper_bound then "; " ^ upper_bound_note else "" in
  [ Printf.sprintf "predicted time: %s (profile %s, %s, %s%s); per step: %s" (show_ns best.time_ns) cost.name
      cost.hosts_text (snd (transport ~sums cost best.strategy)) (bound best) (String.concat ", " (List.map show_ns best.steps_ns));
    Printf.sprintf "memory per rank: %d B allocated (%s), peak live %d B%s" best.alloc_bytes
      (if best.strategy = in_place_strategy then "buffer + staging" else "source + destination + whole workspace")
      best.live_bytes budget ]
  @ (match rows with
     | [ _ ] -> []
     | rs -> [ Printf.sprintf "verified candidates: %d; not chosen:" (List.length rs) ])
  @ List.filter_map
      (fun r ->
        let why =
          match (r.verdict, cost.budget) with
          | Chosen, _ -> None
          | Over_budget, Some b -> Some (Printf.sprintf "over budget (allocates %d B > %d B)" r.alloc_bytes b)
          | Over_budget, None -> failwith "a candidate over no budget"
          | Slower, _ ->
              (* At equal predicted time the choice went by traffic, launches, then order ([Cost.cheaper]). *)
              let tie = if r.time_ns = best.time_ns then "as fast, not chosen" else "slower" in
              let launches =
                if r.strategy = in_place_strategy then Report.plural r.launches "round"
                else if r.launches = 1 then "1 launch"
                else Printf.sprintf "%d launches" r.launches
              in
              Some
                (Printf.sprintf "%s (%s%s, busiest rank recv %d, %s, allocates %d B, live %d B)" tie (show_ns r.time_ns)
                   (bound r) r.traffic launches r.alloc_bytes r.live_bytes)
        in
        Option.map (fun w -> Printf.sprintf "  %s: %s" w r.plan) why)
      (sorted rows)

let json ~sums (cost : Profile.t) rows : Yojson.Safe.t =
  let best = List.find (fun r -> r.verdict = Chosen) rows in
  `Assoc
    [ ("profile", `String cost.name); ("hosts", `String cost.hosts_text);
      ("same_host_transport", `String (fst (transport ~sums cost best.strategy)));
      ("memory_budget", match cost.budget with Some b -> `Int b | None -> `Null);
      ("predicted_ns", `Int best.time_ns);
      ("step_ns", `List (List.map (fun n -> `Int n) best.steps_ns));
      ("live_bytes", `Int best.live_bytes);
      ("alloc_bytes", `Int best.alloc_bytes);
      ( "candidates",
        `List
          (List.map
             (fun r ->
               `Assoc
                 [ ("strategy", `String r.strategy); ("plan", `String r.plan);
                   ("plan_file", `List (List.map (fun l -> `String l) r.plan_file));
                   ("verdict", `String (verdict_name r.verdict)); ("predicted_ns", `Int r.time_ns);
                   ("predicted_is_upper_bound", `Bool r.upper_bound);
                   ("live_bytes", `Int r.live_bytes); ("alloc_bytes", `Int r.alloc_bytes);
                   ("recv_elems_max", `Int r.traffic);
                   ("launches", `Int r.launches) ])
             (sorted rows)) ) ]

let comment_lines ~sums cost rows = String.concat "" (List.map (fun l -> "# " ^ l ^ "\n") (lines ~sums cost rows))

(* What follows a plan's report about the cost model: its choice, or why
   it was not applied; as comment lines, and as fields of the JSON report. *)
let cost_model_line why = "# cost model: " ^ why ^ "\n"

(* Why [choose_within] took in place: only it fits the budget, or it is
   the fastest of those that do. *)
let in_place_why (cost : Profile.t) (ch : C.buffer_plan C.choice) =
  let out_of_place (c : C.buffer_plan C.costed) = match c.cs_plan with C.OutOfPlace _ -> true | C.InPlace _ -> false in
  let budget = Option.get cost.budget in
  match List.filter out_of_place ch.ch_over_budget with
  | over when List.exists out_of_place ch.ch_slower || over = [] ->
      Printf.sprintf "in place: the fastest plan within --memory-budget %d" budget
  | over ->
      Printf.sprintf "only in place fits: every plan out of place allocates more than --memory-budget %d (at least %d B)"
        budget (List.fold_left (fun m (c : C.buffer_plan C.costed) -> min m c.cs_alloc_bytes) max_int over)

let text (cost : Profile.t) (p : Problem.t) = function
  | Planning.Costed ch -> comment_lines ~sums:false cost (rows_of_choice cost p ch)
  | Planning.Costed_no_hybrids (ch, why) -> comment_lines ~sums:false cost (rows_of_choice cost p ch) ^ cost_model_line why
  | Planning.Not_costed why -> cost_model_line why
  | Planning.Costed_within (ch, not_weighed) ->
      comment_lines ~sums:false cost (rows_of_within cost p ch)
      ^ (match not_weighed with Some why -> cost_model_line why | None -> "")

let json_fields (cost : Profile.t) (p : Problem.t) = function
  | Planning.Costed ch -> [ ("cost", json ~sums:false cost (rows_of_choice cost p ch)) ]
  | Planning.Costed_no_hybrids (ch, why) -> [ ("cost", json ~sums:false cost (rows_of_choice cost p ch)); ("hybrids_not_costed", `String why) ]
  | Planning.Not_costed why -> [ ("cost_not_applied", `String why) ]
  | Planning.Costed_within (ch, not_weighed) ->
      ("cost", json ~sums:false cost (rows_of_within cost p ch))
      :: (match not_weighed with Some why -> [ ("in_place_not_weighed", `String why) ] | None -> [])
