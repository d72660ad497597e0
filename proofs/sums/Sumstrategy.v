(** * Planning pending sums: the plan, its checker, the planner with a strategy.

    A problem is a source layout [S] whose values are pending sums over the
    mesh axes [ps] and a target layout [T] with pending axes [pt] ([pt = []]:
    plain values).  A plan ([sumplan]) is either

    - [SumByCollectives pre rf p post], on an even problem over one mesh
      placed at rank 0: the pending-sum steps [pre] (reduce-scatters and
      all-reduces) take [(src, ps)] to [(t1, kept)], the collective plan [p]
      (over the sub-axes [rf], as [Strategy.ByCollectives]) takes [t1] to the
      target type (with [kept] axes still pending only when [p] is empty and
      [t1] is the target type), and [post] (adding pending axes) reaches
      [(tgt, pt)];
    - [SumByExchange]: the reducing exchange to [(T, pt)] with the direct
      exchange's holder choice [spread_holder], on any layouts.

    [scheck] checks such a plan and reports, per step, the type, the local
    size and what a rank receives, with the peak and each rank's total.
    [plan_sums] is the planner: on an even problem it reduces first
    (reduce-scatter onto the dimension the target shards with that axis, or
    onto any dimension it divides; all-reduce where the target is replicated
    over the axis in one candidate), then runs the collective planner on the
    plain type; a third candidate keeps the axes the target keeps pending
    when reducing the others reaches the target type.  Every candidate is
    validated by [scheck] and the peak bound, the cheapest busiest rank (then
    fewer launches) wins.  Uneven and
    cross-mesh problems, and [StratExchange], use the reducing exchange.
    [Sumstrategyproof.v] proves what the reports and the plans mean. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Sums Sumexchange
  Sumplanbound.

Inductive sumplan : Type :=
| SumByCollectives (pre : list sum_step) (rf : refinement) (p : plan) (post : list sum_step)
| SumByExchange.

(** ** Checking pending-sum steps *)

Record sum_step_report : Type := {
  ss_step : sum_step;
  ss_type : pty;                  (** the type after the step *)
  ss_local_size : nat;            (** its local size *)
  ss_recv : nat                   (** elements each rank of the mesh receives *)
}.

Fixpoint sum_steps_check (m : mesh) (p : pty) (ks : list sum_step)
  : res sum_error (list sum_step_report * pty) :=
  match ks with
  | [] => OK ([], p)
  | k :: ks' =>
      match sum_step_type m p k with
      | Error e => Error e
      | OK p' =>
          match sum_steps_check m p' ks' with
          | Error e => Error e
          | OK (reps, final) =>
              OK ({| ss_step := k; ss_type := p'; ss_local_size := local_size m (fst p');
                     ss_recv := sum_recv_count m p' k |} :: reps, final)
          end
      end
  end.

Definition steps_recv (reps : list sum_step_report) : nat := list_sum (map ss_recv reps).

(** ** The checker *)

Definition is_empty {A} (xs : list A) : bool := match xs with [] => true | _ => false end.

(** Two sets of axes ([sholds] reads pending axes by membership only). *)
Definition same_axes (xs ys : list axis) : bool :=
  forallb (fun a => memb a ys) xs && forallb (fun a => memb a xs) ys.

Inductive scheck_error : Type :=
| SumNotOneEvenMesh                 (** collectives need an even problem on one mesh at rank 0 *)
| SumBadPending                     (** ill-formed layouts or pending axes, or different global shapes *)
| SumStepRejected (e : sum_error)
| SumStillPending (ps : list axis)  (** axes left pending while collectives run *)
| SumBadRefinement
| SumCollectivesRejected (e : check_error)
| SumWrongEnd (p : pty).            (** the last steps end here, not at the target *)

Record sum_report : Type := {
  sm_pre : list sum_step_report;         (** the reducing steps *)
  sm_collectives : option report;        (** the collective plan, per step *)
  sm_post : list sum_step_report;        (** the steps adding the target's pending axes *)
  sm_peak : nat;                         (** largest local array along the plan *)
  sm_recv : nat -> nat                   (** elements each world rank receives over the plan *)
}.

(** The size of world rank [w]'s box in a layout, 0 outside its mesh. *)
Definition box_size_at (L : layout) (w : nat) : nat :=
  match pl_box L w with Some b => box_size b | None => 0 end.

(** The size of each world rank's target box ([box_size_at]), as a function
    of the rank computed once per problem: on an even problem the local size,
    otherwise through the target mesh's rank table. *)
Definition target_box_size (S T : layout) : nat -> nat :=
  if even_problem S T then
    let m := ly_m S in
    let size := local_size m (ly_ty T) in
    fun r => if r <? mesh_size m then size else 0
  else
    let boxes := box_in T (rank_table_of (pm_ranks (ly_mesh T))) in
    fun r => match boxes r with Some b => box_size b | None => 0 end.

(** Whether world rank [r] is the member of its target group that receives
    the sum ([designated], computed once per problem as [target_box_size]). *)
Definition receives_sum (S T : layout) (pt : list axis) : nat -> bool :=
  if even_problem S T then
    let m := ly_m S in
    fun r => if r <? mesh_size m then forallb (fun a => device_of_rank m r a =? 0) pt else true
  else
    let table := rank_table_of (pm_ranks (ly_mesh T)) in
    fun r => match table_index table r with
             | Some k => forallb (fun a => device_of_rank (ly_m T) k a =? 0) pt
             | None => true
             end.

(** The lower bound the command prints for a target without pending axes
    (proven to be the number of [Sumlowerbound.sum_needy] elements): the
    elements of [r]'s target box missing from its source box when a group has
    one member, every element of its target box otherwise. *)
Definition sum_recv_bound (S : layout) (ps : list axis) (T : layout) : nat -> nat :=
  if group_size (ly_m S) ps =? 1 then exchange_recv S T else target_box_size S T.

(** What rank [r] receives in the reducing exchange to [(T, pt)]: one
    contribution from each other member of the holder's group per element of
    its target box, one more per element missing from its source box; only
    the designated member of a target group receives. *)
Definition sum_exchange_recv (S : layout) (ps : list axis) (T : layout) (pt : list axis) : nat -> nat :=
  let others := group_size (ly_m S) ps - 1 in
  let size := target_box_size S T in
  let recv := exchange_recv S T in
  let receives := receives_sum S T pt in
  fun r => if receives r then others * size r + recv r else 0.

Definition sum_exchange_ok (S : layout) (ps : list axis) (T : layout) (pt : list axis) : bool :=
  layouts_wf S T && pl_pending_wf S ps && pl_pending_wf T pt.

Definition scheck (S : layout) (ps : list axis) (T : layout) (pt : list axis) (sp : sumplan)
  : res scheck_error sum_report :=
  match sp with
  | SumByCollectives pre rf p post =>
      let m := ly_m S in
      if negb (even_problem S T) then Error SumNotOneEvenMesh
      else if negb (pty_wf m (ly_ty S, ps) && pty_wf m (ly_ty T, pt)) then Error SumBadPending
      else
        match sum_steps_check m (ly_ty S, ps) pre with
        | Error e => Error (SumStepRejected e)
        | OK (pre_reps, (t1, kept)) =>
            if negb (refine_ok m rf) then Error SumBadRefinement else
            match check (refine_mesh rf m) (refine_ty rf t1) (refine_ty rf (ly_ty T)) p with
            | Error e => Error (SumCollectivesRejected e)
            | OK rep =>
                if negb (is_empty kept || (is_empty p && ty_eqb t1 (ly_ty T)))
                then Error (SumStillPending kept) else
                match sum_steps_check m (ly_ty T, kept) post with
                | Error e => Error (SumStepRejected e)
                | OK (post_reps, (t2, pt2)) =>
                    if negb (ty_eqb t2 (ly_ty T) && same_axes pt2 pt) then Error (SumWrongEnd (t2, pt2))
                    else OK {|
                      sm_pre := pre_reps;
                      sm_collectives := Some rep;
                      sm_post := post_reps;
                      sm_peak := fold_left Nat.max
                                   (map ss_local_size pre_reps ++ rp_peak rep :: map ss_local_size post_reps)
                                   (local_size m (ly_ty S));
                      sm_recv := fun r =>
                        (if r <? mesh_size m then steps_recv pre_reps + steps_recv post_reps else 0)
                        + list_sum (map (fun s => sr_recv s r) (rp_steps rep)) |}
                end
            end
        end
  | SumByExchange =>
      if sum_exchange_ok S ps T pt
      then OK {| sm_pre := []; sm_collectives := None; sm_post := [];
                 sm_peak := Nat.max (fst (largest_boxes S T)) (snd (largest_boxes S T));
                 sm_recv := sum_exchange_recv S ps T pt |}
      else Error SumBadPending
  end.

(** ** What a plan does *)

(** The type the reducing steps reach (the source type if they do not type-check). *)
Definition reduced (m : mesh) (p : pty) (pre : list sum_step) : pty :=
  match sum_plan_type m p pre with OK p1 => p1 | Error _ => p end.

(** The reducing exchange leaves the identity on the other members of a
    target group whatever the fill ([Sumexchange.reducing_exchange_to]). *)
Definition sexec (M : cmonoid) (fl : fill) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (sp : sumplan) (st : state (carrier M)) : state (carrier M) :=
  match sp with
  | SumByCollectives pre rf p post =>
      let m := ly_m S in
      let p1 := reduced m (ly_ty S, ps) pre in
      exec_sum_plan M fl m (ly_ty T, snd p1) post
        (exec (refine_mesh rf m) (refine_ty rf (fst p1)) p (exec_sum_plan M fl m (ly_ty S, ps) pre st))
  | SumByExchange => reducing_exchange_to M S ps T pt (spread_holder S T) st
  end.

(** What rank [r] receives over the execution, counted from the data movement. *)
Definition sreceived (S : layout) (ps : list axis) (T : layout) (pt : list axis) (sp : sumplan)
    (r : nat) : nat :=
  match sp with
  | SumByCollectives pre rf p post =>
      let m := ly_m S in
      let p1 := reduced m (ly_ty S, ps) pre in
      sum_plan_received m (ly_ty S, ps) pre r
      + list_sum (received_trace (refine_mesh rf m) (refine_ty rf (fst p1)) p r)
      + sum_plan_received m (ly_ty T, snd p1) post r
  | SumByExchange => reducing_received_to S ps T pt (spread_holder S T) r
  end.

(** ** The planner *)

Fixpoint first_index {A} (f : A -> bool) (xs : list A) : option nat :=
  match xs with
  | [] => None
  | x :: xs' => if f x then Some 0 else option_map S (first_index f xs')
  end.

(** How to reduce the pending axis [a] of a value of type [t] headed for
    [tgt]: a reduce-scatter onto the dimension [tgt] shards with [a] when [|a|]
    divides its extent; where [tgt] is replicated over [a], an all-reduce
    ([replicated_all_reduce]) or a reduce-scatter onto the first dimension
    [|a|] divides (gathered back by the collective plan); else an all-reduce. *)
Definition reduce_choice (replicated_all_reduce : bool) (m : mesh) (tgt t : ty) (a : axis) : sum_step :=
  let divides d := extent m d mod axis_size m a =? 0 in
  match first_index (fun d => memb a (fst d)) tgt with
  | Some d => if divides (nth d t ([], 0)) then ReduceScatter d a else AllReduce a
  | None =>
      if replicated_all_reduce then AllReduce a
      else match first_index divides t with
           | Some d => ReduceScatter d a
           | None => AllReduce a
           end
  end.

(** One reducing step per pending axis, in the order of [ps]: the preferred
    one, or an all-reduce where it does not apply (the target has more
    dimensions than the source, or the axis is not pending). *)
Fixpoint reduce_steps (replicated_all_reduce : bool) (m : mesh) (tgt : ty) (p : pty) (axes : list axis)
  : list sum_step :=
  match axes with
  | [] => []
  | a :: rest =>
      let preferred := reduce_choice replicated_all_reduce m tgt (fst p) a in
      match sum_step_type m p preferred, sum_step_type m p (AllReduce a) with
      | OK p', _ => preferred :: reduce_steps replicated_all_reduce m tgt p' rest
      | Error _, OK p' => AllReduce a :: reduce_steps replicated_all_reduce m tgt p' rest
      | Error _, Error _ => []
      end
  end.

(** The target's pending axes, added one by one ([AddPending a] puts [a] first). *)
Definition add_steps (pt : list axis) : list sum_step := map AddPending (rev pt).

(** A candidate collective plan and its cost (busiest rank's traffic, launches). *)
Definition sum_candidate (replicated_all_reduce : bool) (S : layout) (ps : list axis) (T : layout)
    (pt : list axis) : option (sumplan * (nat * nat)) :=
  let m := ly_m S in
  let pre := reduce_steps replicated_all_reduce m (ly_ty T) (ly_ty S, ps) ps in
  match sum_steps_check m (ly_ty S, ps) pre with
  | OK (reps, (t1, [])) =>
      match planner_choice m t1 (ly_ty T) with
      | Some (rf, p, (traffic, launches)) =>
          Some (SumByCollectives pre rf p (add_steps pt),
                (steps_recv reps + traffic, length pre + launches + length pt))
      | None => None
      end
  | _ => None
  end.

(** Where the target keeps some of the source's pending axes and reducing
    the others reaches the target type, nothing else moves: the common axes
    stay pending, the target's other ones are added. *)
Definition keep_candidate (S : layout) (ps : list axis) (T : layout) (pt : list axis)
  : option (sumplan * (nat * nat)) :=
  let m := ly_m S in
  let pre := reduce_steps false m (ly_ty T) (ly_ty S, ps) (filter (fun a => negb (memb a pt)) ps) in
  let post := add_steps (filter (fun a => negb (memb a ps)) pt) in
  match sum_steps_check m (ly_ty S, ps) pre with
  | OK (reps, _) => Some (SumByCollectives pre [] [] post, (steps_recv reps, length pre + length post))
  | Error _ => None
  end.

(** A candidate qualifies when [scheck] accepts it within the memory bound. *)
Definition qualifies (S : layout) (ps : list axis) (T : layout) (pt : list axis) (sp : sumplan) : bool :=
  match scheck S ps T pt sp with
  | OK rep => sm_peak rep <=? Nat.max (fst (largest_boxes S T)) (snd (largest_boxes S T))
  | Error _ => false
  end.

Definition cheapest (cs : list (sumplan * (nat * nat))) : option (sumplan * (nat * nat)) :=
  fold_left (fun best c => match best with
                           | Some b => if cost_lt (snd c) (snd b) then Some c else best
                           | None => Some c
                           end) cs None.

Definition sum_collectives (S : layout) (ps : list axis) (T : layout) (pt : list axis)
  : option (sumplan * (nat * nat)) :=
  let options := [keep_candidate S ps T pt; sum_candidate false S ps T pt; sum_candidate true S ps T pt] in
  cheapest (filter (fun c => qualifies S ps T pt (fst c))
                   (flat_map (fun o => match o with Some c => [c] | None => [] end) options)).

(** The busiest rank's traffic in the reducing exchange. *)
Definition sum_exchange_busiest (S : layout) (ps : list axis) (T : layout) (pt : list axis) : nat :=
  let recv := sum_exchange_recv S ps T pt in
  fold_left (fun acc r => Nat.max acc (recv r)) (pm_ranks (ly_mesh T)) 0.

(** [None]: the strategy cannot express the problem (or it is ill-formed). *)
Definition plan_sums (s : strategy) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
  : option sumplan :=
  let exchange_plan := if sum_exchange_ok S ps T pt then Some SumByExchange else None in
  if even_problem S T then
    match s with
    | StratCollectives => option_map fst (sum_collectives S ps T pt)
    | StratExchange => exchange_plan
    | StratAuto =>
        match sum_collectives S ps T pt with
        | Some (sp, cost) =>
            if cost_lt (sum_exchange_busiest S ps T pt, 1) cost then exchange_plan else Some sp
        | None => exchange_plan
        end
    end
  else
    match s with
    | StratCollectives => None
    | _ => exchange_plan
    end.
