(** * The cost of a pending-sum plan, and the choice of the fastest one.

    A pending-sum plan ([Sumstrategy.sumplan]) is costed from its lowering
    ([Lowersumx.lower_sumplan]) with the profiles and routes of [Cost.v]:

    - a reduction ([Lowersums.rcall]) over a group of [n] members: a
      reduce-scatter receives one block of its output from every member
      (its own a local copy), an all-reduce twice a block of [1/n] of its
      input (a reduce-scatter, then an all-gather), both through their
      scratch; adding a pending axis is a local pass over the destination;
    - the collectives between them: [Cost.program_steps_ns] of their calls;
    - the reducing exchange ([Lowersumx.sxcall]): on each rank, one message
      per sender of each of its pieces, of the piece's cell (a local copy
      from itself), then a local pass over its staging, which it adds up.

    With single copy on a host ([Cost.pf_single_copy]) the reducing
    exchange's same-host contributions are read out of the senders' shared
    sources at the single-copy link, and the collectives between the
    reductions are priced as [Cost.program_steps_ns] prices them; the
    reductions keep their MPI price.

    A step takes as long as its slowest rank, a plan the sum of its steps.

    The candidates of [choose_sums] are the plans [plan_sums] returns: for
    [StratAuto] the collective plan and the reducing exchange (each the
    plan of its own strategy, so [plan_sums StratAuto]'s plan is one of
    them), for the other strategies their plan.  Each is validated by
    [scheck]; its live bytes ([sumplan_live_bytes]) are stated, and those
    whose allocated bytes ([sumplan_alloc_bytes]: source, destination and
    the whole workspace) exceed the budget are set aside; the least predicted time wins, then the least
    traffic of the busiest rank, then the fewest launches, then the
    earliest.  [Costsumsproof.v] proves what [Costproof.v] proves of
    [Cost.choose]. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Sums Sumstrategy
  Lower Lowersums Lowersumx Choose Cost.

(** ** Predicted time *)

(** Rank [r]'s messages in a reduction or an addition of a pending axis. *)
Definition rcall_batches (h : hosts) (c : rcall) (r : nat) : list batch :=
  let g := rc_group c in
  match rc_step c with
  | ReduceScatter _ _ => group_batches h r g (rc_out_bytes c) ++ scratch_copy (rc_scratch c)
  | AllReduce _ =>
      let block := rc_in_bytes c / snd g in
      group_batches h r g block ++ group_batches h r g block ++ scratch_copy (rc_scratch c)
  | AddPending _ => [(Local, 1, rc_out_bytes c)]
  end.

Definition rcall_ns (pf : profile) (h : hosts) (m : mesh) (c : rcall) : nat :=
  max_along (fun r _ => rank_ns pf (rcall_batches h c r)) 0 (mesh_size m) [] 0.

(** Rank [r]'s messages in the reducing exchange, read off its pieces. *)
Definition sumx_batches (h : hosts) (elem : nat) (x : sxcall) (r : nat) : list batch :=
  flat_map (fun p => map (fun s => (route_between h r s, 1, box_size (xp_cell p) * elem)) (xp_senders p))
           (sx_pieces x r)
  ++ scratch_copy (sx_staging x r).

(** The predicted time of each step of a lowered pending-sum plan, in nanoseconds. *)
Definition sum_steps_ns (pf : profile) (h : hosts) (elem : nat) (lw : sum_lowered) : list nat :=
  match lw with
  | SumCalls pg =>
      map (rcall_ns pf h (sg_mesh pg)) (sg_pre pg)
      ++ program_steps_ns pf h elem (Calls (sg_coll_mesh pg) (sg_calls pg))
      ++ map (rcall_ns pf h (sg_mesh pg)) (sg_post pg)
  | SumExchangeCall x =>
      [max_over (pm_ranks (ly_mesh (sx_to x))) (fun r => rank_ns (single_copy_profile pf) (sumx_batches h elem x r))]
  end.

Definition sum_predicted_ns (pf : profile) (h : hosts) (elem : nat) (fl : fill) (S : layout) (ps : list axis)
    (T : layout) (pt : list axis) (sp : sumplan) : nat :=
  list_sum (sum_steps_ns pf h elem (lower_sumplan elem fl S ps T pt sp)).

(** ** Candidates *)

Definition plan_list (o : option sumplan) : list sumplan := match o with Some sp => [sp] | None => [] end.

Definition sum_candidates (s : strategy) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
  : list sumplan :=
  match s with
  | StratAuto => plan_list (plan_sums StratCollectives S ps T pt) ++ plan_list (plan_sums StratExchange S ps T pt)
  | _ => plan_list (plan_sums s S ps T pt)
  end.

Definition sum_launches (sp : sumplan) : nat :=
  match sp with
  | SumByCollectives pre rf p post => length pre + splan_launches (ByCollectives rf p) + length post
  | SumByExchange => 1
  end.

(** What the caller allocates on a rank for a pending-sum plan lowered to
    [lw]: the largest source and target boxes and the whole workspace
    ([sumplan_workspace_bytes]: the reductions' arrays and the
    collectives', or the reducing exchange's largest staging).  The
    budget bounds this figure. *)
Definition sum_lowered_alloc_bytes (elem : nat) (S T : layout) (lw : sum_lowered) : nat :=
  (fst (largest_boxes S T) + snd (largest_boxes S T)) * elem + sumplan_workspace_bytes lw.

Definition sumplan_alloc_bytes (elem : nat) (fl : fill) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (sp : sumplan) : nat :=
  sum_lowered_alloc_bytes elem S T (lower_sumplan elem fl S ps T pt sp).

Definition scost_candidate (pf : profile) (h : hosts) (elem : nat) (fl : fill) (S : layout) (ps : list axis)
    (T : layout) (pt : list axis) (i : nat) (sp : sumplan) : option (costed sumplan) :=
  match scheck S ps T pt sp with
  | Error _ => None
  | OK rep =>
      let lw := lower_sumplan elem fl S ps T pt sp in
      let steps := sum_steps_ns pf h elem lw in
      Some {| cs_index := i; cs_plan := sp;
              cs_steps_ns := steps;
              cs_time_ns := list_sum steps;
              cs_live_bytes := sumplan_live_bytes elem fl S ps T pt sp;
              cs_alloc_bytes := sum_lowered_alloc_bytes elem S T lw;
              cs_traffic := max_over (pm_ranks (ly_mesh S) ++ pm_ranks (ly_mesh T)) (sm_recv rep);
              cs_launches := sum_launches sp |}
  end.

Definition scost_all (pf : profile) (h : hosts) (elem : nat) (fl : fill) (S : layout) (ps : list axis) (T : layout)
    (pt : list axis) : nat -> list sumplan -> list (costed sumplan) :=
  cost_list (scost_candidate pf h elem fl S ps T pt).

(** ** The choice ([Choose.choose_among]) *)

Definition choose_sums (pf : profile) (h : hosts) (elem : nat) (fl : fill) (budget : option nat) (s : strategy)
    (S : layout) (ps : list axis) (T : layout) (pt : list axis) : res choose_error (choice sumplan) :=
  choose_among budget (scost_all pf h elem fl S ps T pt 0 (sum_candidates s S ps T pt)).
