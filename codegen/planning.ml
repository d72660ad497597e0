(* The verified planner's plan for a problem, checked and measured. *)

module C = Redist_core

(* The report of [planner]'s plan and the theorems that cover it.  The plan
   is always run through [check] (plan_total says it is accepted, and
   plan_correct that it is correct); the peak and normal-form theorems hold
   when the planner found a normal-form plan, which [planner_in_normal_form]
   tells. *)
let plan (p : Problem.t) =
  let m = Front.core_mesh p.env in
  let rf, plan = C.planner m p.src p.tgt in
  let env = Front.env_of_refinement p.env rf in
  match Report.of_check p env rf plan with
  | C.OK r ->
      let refined = rf <> [] in
      let planner =
        if C.planner_in_normal_form m p.src p.tgt then Guarantees.planner
        else List.filter (fun (n, _) -> n = "plan_total" || n = "plan_correct") Guarantees.planner
      in
      (r, planner @ Guarantees.for_check ~refined)
  | C.Error _ -> failwith "the checker rejected the planner's plan (contradicts plan_total)"
