(* The verified planner's plan for a problem, checked and measured. *)

module C = Redist_core

(* The report of [planner]'s plan and the theorems that cover it.  The plan
   is always run through [check] (plan_total says it is accepted, and
   plan_correct that it is correct).  planner_always_normal proves that the
   planner's plan is in normal form for every well-formed problem, so the
   peak, normal-form and traffic theorems cover every plan it prints. *)
let plan (p : Problem.t) =
  let m = Front.core_mesh p.env in
  let rf, plan = C.planner m p.src p.tgt in
  let env = Front.env_of_refinement p.env rf in
  match Report.of_check p env rf plan with
  | C.OK r -> (r, Guarantees.for_plan ~refined:(rf <> []))
  | C.Error _ -> failwith "the checker rejected the planner's plan (contradicts plan_total)"
