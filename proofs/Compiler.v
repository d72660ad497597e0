(** * The end-to-end guarantees of the collectives strategy, in one place.

    For every well-formed problem (mesh [m], source type [src], target type
    [tgt], elements of [elem] bytes), the planner's plan lowered to runtime
    calls ([Lower.lower] on the refined mesh):
    - leaves every rank's target box in its destination, its source intact,
      both with the semantics' wire maps and with the runtime's rank-space
      arithmetic on the printed calls ([Lowerproof.lower_plan_correct],
      [Lowerproof.lower_rank_correct], [Plannerproof.plan_total]);
    - keeps, at every call, at most [live_bytes] bytes alive on a rank, and
      [live_bytes <= (|src| + |tgt| + 2 * max(|src|, |tgt|)) * elem + scratch]
      and [<= (|src| + |tgt| + 3 * max(|src|, |tgt|)) * elem]
      ([Lowerproof.live_bytes_le], [live_bytes_le_sizes], [Plannerfinal.plan_peak_le_max]);
    - asks for a workspace that is exactly the furthest byte some call uses
      ([Lowerproof.lower_workspace_exact]);
    - makes each rank receive at most [length p * L + (|tgt| - L)] elements,
      [L <= min(|src|, |tgt|)] the local size after the slices
      ([Plannerfinal.plan_traffic_bound]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Lower.
From Redist Require Import Checkerproof Refineproof Plannerproof Plannerfinal Strategyproof Lowerproof.

Theorem redist_collectives_correct : forall m src tgt rf p elem,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  let m' := refine_mesh rf m in
  let src' := refine_ty rf src in
  let cs := lower m' elem src' p in
  (forall A (g : list nat -> A) (st other : state A), holds m src g st ->
     let bs := interp m' cs (initial_buffers st other) in
     holds m tgt g (bs BDst) /\ bs BSrc = st
     /\ holds m tgt g (interp_rank cs (initial_buffers st other) BDst))
  /\ (forall c, In c cs ->
        call_live (local_size m src * elem) (local_size m tgt * elem) c
        <= live_bytes m' elem src' (refine_ty rf tgt) p)
  /\ live_bytes m' elem src' (refine_ty rf tgt) p
     <= (local_size m src + local_size m tgt + 2 * Nat.max (local_size m src) (local_size m tgt))
        * elem + scratch_bytes cs
  /\ live_bytes m' elem src' (refine_ty rf tgt) p
     <= (local_size m src + local_size m tgt + 3 * Nat.max (local_size m src) (local_size m tgt))
        * elem
  /\ workspace_bytes cs = list_max (map (call_extent cs) cs)
  /\ exists L, L <= local_size m src /\ L <= local_size m tgt
     /\ forall r, r < mesh_size m ->
        list_sum (received_trace m' src' p r) <= length p * L + (local_size m tgt - L).
Proof.
  intros m src tgt rf p elem Hwf Hp m' src' cs.
  destruct (plan_total m src tgt rf p Hwf Hp) as [Hrf [rep Hc]].
  pose proof Hwf as [Hm [Hs [Ht _]]].
  assert (Es : local_size m' src' = local_size m src) by (apply refine_local_size; assumption).
  assert (Et : local_size m' (refine_ty rf tgt) = local_size m tgt)
    by (apply refine_local_size; assumption).
  split; [| split; [| split; [| split; [| split]]]].
  - intros A g st other Hst bs.
    assert (Hst' : holds m' src' g st) by (apply refine_holds; assumption).
    destruct (lower_plan_correct m' src' (refine_ty rf tgt) p rep elem Hc A g st other Hst')
      as [Hd Hk].
    split; [apply (refine_holds A rf m tgt g); assumption | split; [exact Hk |]].
    apply (refine_holds A rf m tgt g); [assumption .. |].
    apply (lower_rank_correct m' src' (refine_ty rf tgt) p rep elem Hc A g st other Hst').
  - intros c Hin. rewrite <- Es, <- Et.
    apply (proj1 (lower_live_bytes m' src' (refine_ty rf tgt) p rep elem Hc)), Hin.
  - rewrite <- Es, <- Et at 1. apply live_bytes_le.
    intros t Htr. apply (plan_peak_le_max m src tgt rf p Hwf Hp t Htr).
  - rewrite <- Es, <- Et at 1. apply (live_bytes_le_sizes m' src' (refine_ty rf tgt) p rep elem _ Hc).
    intros t Htr. apply (plan_peak_le_max m src tgt rf p Hwf Hp t Htr).
  - apply lower_workspace_exact.
  - destruct (plan_traffic_bound m src tgt rf p Hwf Hp)
      as [sl [fl [ga [mid [-> [_ [_ [_ [_ [H1 [H2 H3]]]]]]]]]]].
    subst m' src' cs. exists (local_size (refine_mesh rf m) mid). split; [exact H1 | split; [exact H2 |]].
    intros r Hr. specialize (H3 r Hr). rewrite !app_length in *.
    assert (length fl * local_size (refine_mesh rf m) mid
            <= (length sl + (length fl + length ga)) * local_size (refine_mesh rf m) mid)
      by (apply Nat.mul_le_mono_r; lia).
    lia.
Qed.

(** Any strategy (collectives or the direct exchange, any placed meshes and
    layouts the planner accepts): the lowered program moves every rank's
    source box to its target box and keeps the source
    ([Lowerproof.lower_splan_correct], [Strategyproof.plan_with_checked]). *)
Theorem redist_correct : forall s S T sp elem, plan_with s S T = Some sp ->
  forall A (g : list nat -> A) (st other : state A), pl_holds S g st ->
  let bs := run_program (lower_splan elem S T sp) (initial_buffers st other) in
  pl_holds T g (bs BDst) /\ bs BSrc = st.
Proof.
  intros s S T sp elem H A g st other Hst.
  destruct (plan_with_checked s S T sp H) as [rep Hc].
  apply (lower_splan_correct S T sp rep elem Hc A g st other Hst).
Qed.
