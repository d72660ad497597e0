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
(* Pending sums go through Sumplan, which plan, check and gen call; the
   rest (run, the C ABI) refuses them rather than dropping the sums. *)
let refuse_pending (p : Problem.t) =
  if Problem.has_pending p then
    Front.bad "pending sums (sum{...}) are taken by plan, check and gen only so far; run and the C ABI do not take them yet"

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

(* The plan of [p.strategy] ([plan_with]), checked by [xcheck]
   (plan_with_checked says it is accepted). *)
let choose (p : Problem.t) =
  refuse_pending p;
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  match C.plan_with p.strategy src tgt with
  | Some (C.ByCollectives (rf, plan)) -> (
      let env = Front.env_of_refinement p.env rf in
      match Report.of_check p env rf plan with
      | C.OK r -> (Xreport.Collectives r, Guarantees.for_strategy_plan ~refined:(rf <> []))
      | C.Error _ -> failwith "the checker rejected the planner's plan (contradicts plan_with_checked)")
  | Some C.ByExchange -> (
      match Xreport.of_exchange p with
      | C.OK r -> (Xreport.Exchange r, Guarantees.exchange_plan)
      | C.Error _ -> failwith "xcheck rejected the exchange plan (contradicts plan_with_checked)")
  | None ->
      Front.bad "--strategy collectives: %s; use --strategy exchange or auto" (collectives_refusal p)
