(* The Coq theorems behind what the command prints, by name.  The test
   suite checks that each name is a Theorem or Lemma in proofs/. *)

let checker =
  [ ("check_correct", "an accepted plan moves every device's source box to its target box");
    ("check_types", "the printed types are those of the execution, ending at the target");
    ("check_peak", "the printed peak is the largest local size along the execution");
    ("check_traffic", "the printed per-rank traffic is what the execution's ranks receive") ]

let refinement =
  [ ("refine_holds", "a type on the refined mesh denotes the same boxes as on the user's mesh") ]

let planner =
  [ ("plan_total", "the planner's plan is accepted by the checker for every well-formed problem");
    ("plan_correct", "the planner's plan moves every device's source box to its target box");
    ("plan_peak_le_max", "no local array along the plan exceeds max(|src|, |tgt|)");
    ("plan_normal_form", "the plan is slices, then flat steps (all_to_all, all_permute), then gathers");
    ("plan_traffic_bound", "each rank receives at most (flat steps) * L + |tgt| - L elements, L the local size after the slices");
    ("planner_always_normal", "for every well-formed problem the planner finds a normal-form plan (no fallback)") ]

(* Checker facts hold for every accepted plan; refinement matters only when
   the plan uses sub-axes. *)
let for_check ~refined = checker @ (if refined then refinement else [])
let for_plan ~refined = planner @ for_check ~refined

let exchange_checker =
  [ ("xcheck_correct", "an accepted exchange moves every rank's source box to its target box (ranks outside the target mesh end with nothing)");
    ("exchange_recv_exact", "each rank receives exactly its target box less what its source box shares with it");
    ("xcheck_traffic", "the printed per-rank traffic is what the execution's ranks receive");
    ("lower_bound_sound", "no plan of any steps makes a rank receive fewer elements than the printed lower bound");
    ("exchange_optimal", "so the exchange's traffic is the lower bound on every rank") ]

let exchange_plan =
  [ ("plan_with_correct", "the planner's plan (any strategy) moves every source box to its target box");
    ("plan_with_peak", "no local array along the plan exceeds the largest source or target box") ]
  @ exchange_checker

(* The collectives chosen under --strategy auto or collectives: the
   strategy planner's theorems, then those of the collective planner. *)
let for_strategy_plan ~refined = ("plan_with_correct", "the planner's plan (any strategy) moves every source box to its target box") :: for_plan ~refined

(* A plan chosen by the cost model (any strategy, with or without a budget),
   among candidates with or without the hybrids ([Cost.choose]'s flag). *)
let choice ~hybrids =
  [ ("choose_correct", "the chosen plan is a candidate the verified checker accepts, and its program moves every source box to its target box");
    ("choose_within_budget", "the bytes it allocates per rank (source + destination + whole workspace) are within --memory-budget, and its live bytes within those");
    ( "choose_fastest",
      if hybrids then "no accepted candidate within the budget has a smaller predicted time"
      else "no accepted candidate within the budget, the hybrids left out, has a smaller predicted time" ) ]

(* [auto] within a --memory-budget, in place among the candidates
   ([Costinplace.choose_within]). *)
let within =
  [ ("choose_within_verified", "the chosen plan is a candidate out of place the verified checker accepts, or the in-place plan at the staging the budget allows, accepted by the validator");
    ("choose_within_fits", "the bytes it allocates per rank are within --memory-budget (out of place: source + destination + whole workspace; in place: buffer + staging)");
    ("choose_within_fastest", "no accepted candidate within the budget, out of place or in place, has a smaller predicted time");
    ("inplace_staging_most", "in place, the staging is the most the budget allows, up to the largest buffer") ]

(* A hybrid: the exchange and a collective through an intermediate layout. *)
let hybrid =
  [ ("xcheck_correct", "an accepted hybrid moves every rank's source box to the intermediate box, then to its target box");
    ("xcheck_traffic", "the printed per-rank traffic (the sum over the parts) is what the execution's ranks receive");
    ("xcheck_recv_ge_bound", "no rank receives fewer elements than the printed lower bound of the whole problem");
    ("recv_lower_bound_through", "through any intermediate layout the bound is at most the sum of the two legs' bounds");
    ("lower_splan_correct", "its lowered program leaves the intermediate in the workspace and every target box in the destination");
    ("lower_splan_workspace_exact", "its workspace is the largest intermediate box, then the larger of its parts' workspaces") ]

(* A pending-sum plan chosen by the cost model (Costsumsproof.v). *)
let sums_choice =
  [ ("choose_sums_correct", "the chosen plan is one plan_sums makes (so redist_sums_correct covers it), scheck accepts it, and its lowered program leaves every target group's sums in the destinations");
    ("choose_sums_within_budget", "the bytes it allocates per rank (source + destination + whole workspace) are within --memory-budget");
    ("choose_sums_fastest", "no accepted candidate within the budget has a smaller predicted time") ]

(* The exchange in place (--in-place): the validated schedule's theorems (Inplaceproof.v). *)
let in_place =
  [ ("inplace_plan_validated", "the schedule is one the validator accepts (validate_runs, which implies validate: validate_runs_validate)");
    ("inplace_sound", "run on one buffer per rank holding its source box, it leaves every target rank's buffer holding exactly its target box");
    ("inplace_live_bytes", "every run it reads or writes lies in its rank's buffer of max(|src box|, |tgt box|) elements or in the staging: live bytes per rank are at most buffer + staging");
    ("inplace_traffic_exact", "each rank receives from other ranks exactly its target box less what its source box shares with it");
    ("inplace_traffic_optimal", "which is the lower bound no plan of any steps beats");
    ("inplace_rounds_match", "in every round what a rank sends to another is, in order and length, what that rank receives from it");
    ("round_sequential", "a round run one move at a time is the round: sends read and receives write the buffer directly") ]

(* What covers a plan the checker accepted, by its kind. *)
let for_checked = function
  | Xreport.Collectives (r : Report.t) -> for_check ~refined:(r.env.axes <> r.problem.env.axes)
  | Xreport.Exchange _ -> exchange_checker
  | Xreport.Hybrid _ -> hybrid

(* What covers a pending operation other than sum (proofs/sums/Reductionsproof.v);
   an avg target keeps pending axes, which its own theorem covers. *)
let for_operation ~pending_target = function
  | Dtype.Sum -> []
  | Dtype.Prod ->
      [ ("redist_sums_correct_for_op", "the pending-sum theorems hold for prod on integers (multiplication wrapping modulo 2^width, identity 1)") ]
  | Dtype.Max | Dtype.Min ->
      [ ("redist_sums_correct_for_op", "the pending-sum theorems hold for max and min on integers (identities the lowest and highest value)");
        ("copies_sholds", "a group whose members all hold the value denotes it: why every member may keep it") ]
  | Dtype.Avg when pending_target ->
      [ ("redist_avg_pending_correct", "every member of an added axis keeping the value, the plan's sums divided once by the product of the reduced groups' sizes leave every target group averaging to its box of the array (exact arithmetic; floats are tested, not proven)") ]
  | Dtype.Avg ->
      [ ("redist_avg_correct", "dividing the plan's sums once by the group size gives every rank its box of the average (exact arithmetic; floats are tested, not proven)") ]
