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
