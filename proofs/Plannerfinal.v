(** * The planner always finds a normal-form plan; the headline theorems
    without side conditions.

    Among its candidates is the construction on the full prime refinement,
    which [Plannerbuild.build_ok] shows is accepted, in normal form and
    within [max(|src|, |tgt|)]; so the choice among candidates never falls
    back to the easy plan. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner Plannerarith.
From Redist Require Import Semanticsproof Trafficproof Checkerproof Refineproof.
From Redist Require Import Plannerproof Plannerflat Plannerbuild Plannerrefine.

Lemma split_eqb_eq : forall a b, split_eqb a b = true -> a = b.
Proof.
  intros [x h l q r] [x' h' l' q' r'] H. unfold split_eqb in H.
  apply list_eqb_eq in H. simpl in H. inversion H. reflexivity.
Qed.

Lemma refinement_eqb_eq : forall a b, refinement_eqb a b = true -> a = b.
Proof.
  induction a as [|x a IH]; intros [|y b] H; simpl in H; try discriminate; [reflexivity |].
  apply andb_true_iff in H. destruct H as [H1 H2].
  rewrite (split_eqb_eq x y H1), (IH b H2). reflexivity.
Qed.

Lemma dedup_in : forall r rs, In r rs -> In r (dedup_refinements rs).
Proof.
  intros r rs. induction rs as [|r0 rs IH]; intros H; [destruct H |].
  simpl. destruct H as [<- | H]; [left; reflexivity |].
  destruct (refinement_eqb r0 r) eqn:E.
  - left. apply refinement_eqb_eq, E.
  - right. apply filter_In. split; [apply IH, H | rewrite E; reflexivity].
Qed.

Lemma full_in_candidates : forall m, In (full_refinement m) (candidate_refinements m).
Proof.
  intros m. unfold candidate_refinements. apply dedup_in. simpl. tauto.
Qed.

Lemma best_some : forall m src tgt cs rf p a, In (rf, p) cs -> assess m src tgt rf p = Some a ->
  exists x, best m src tgt cs = Some x.
Proof.
  intros m src tgt cs. induction cs as [|[rf0 p0] cs IH]; intros rf p a Hin Ha; [destruct Hin |].
  simpl. destruct (assess m src tgt rf0 p0) as [[[[lb len] m'] rep]|] eqn:E.
  - destruct (best m src tgt cs) as [[[rf1 q1] c1]|];
      [destruct (cost_lt c1 (lb, len)); [| destruct (cost_lt c1 (lb + permute_traffic m' rep, len))] |];
      eauto.
  - destruct Hin as [Heq | Hin]; [inversion Heq; subst; congruence |]. eapply IH; eassumption.
Qed.

(** The planner never needs its fallback. *)
Theorem planner_always_normal : forall m src tgt, problem_wf m src tgt ->
  planner_in_normal_form m src tgt = true.
Proof.
  intros m src tgt Hwf. pose proof Hwf as [Hm [Hs [Ht Hgs]]].
  set (rf := full_refinement m).
  destruct (full_refinement_ok m Hm) as [Hok Hat]. fold rf in Hok, Hat.
  set (m' := refine_mesh rf m) in *.
  set (src' := refine_ty rf src). set (tgt' := refine_ty rf tgt).
  assert (Hwf' : problem_wf m' src' tgt').
  { split; [apply refine_mesh_wf; assumption |].
    split; [apply refine_ty_wf; assumption |]. split; [apply refine_ty_wf; assumption |].
    unfold src', tgt'. rewrite !refine_global_shape. exact Hgs. }
  destruct (build_ok m' src' tgt' Hat Hwf') as [Hrun [Hnf Hpk]].
  set (p := build false m' src' tgt' (Nat.gcd (local_size m' src') (local_size m' tgt'))) in *.
  assert (Hin : In (rf, p) (candidates m src tgt)).
  { unfold candidates. apply in_flat_map. exists rf. split; [apply full_in_candidates |].
    apply in_map_iff. exists p. split; [reflexivity |].
    unfold plans_on. fold m' src' tgt'. left. reflexivity. }
  destruct (check_of_run_type m' src' tgt' p Hwf' Hrun) as [rep Hc].
  assert (Hsz : Nat.max (local_size m' src') (local_size m' tgt')
                = Nat.max (local_size m src) (local_size m tgt))
    by (unfold m', src', tgt'; rewrite !refine_local_size; auto).
  rewrite Hsz in Hpk.
  assert (Ha : assess m src tgt rf p = Some (fixed_traffic rep, length p, m', rep)).
  { unfold assess. rewrite Hok. cbn [negb]. fold m' src' tgt'. rewrite Hc, Hpk, Hnf. reflexivity. }
  destruct (best_some m src tgt _ rf p _ Hin Ha) as [x Hx].
  unfold planner_in_normal_form, planner_choice. rewrite Hx. reflexivity.
Qed.

(** ** The headline theorems without side conditions *)

(** Every local array along the plan holds at most [max(|src|, |tgt|)] elements. *)
Theorem plan_peak_le_max : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  forall t, In t (trace (refine_mesh rf m) (refine_ty rf src) p) ->
  local_size (refine_mesh rf m) t <= Nat.max (local_size m src) (local_size m tgt).
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_peak_le_max_nf m src tgt rf p); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.

(** The plan is slices, then all-to-alls and permutes, then gathers. *)
Theorem plan_normal_form : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  exists sl fl ga, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true.
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_normal_form_nf m src tgt rf p); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.

(** Per rank: nothing received in the slices, at most [L] per flat step
    ([L] the local size after the slices), [|tgt| - L] in the gathers. *)
Theorem plan_traffic_bound : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  exists sl fl ga mid, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true
    /\ run_type (refine_mesh rf m) (refine_ty rf src) sl = Some mid
    /\ local_size (refine_mesh rf m) mid <= local_size m src
    /\ local_size (refine_mesh rf m) mid <= local_size m tgt
    /\ forall r, r < mesh_size m ->
       list_sum (received_trace (refine_mesh rf m) (refine_ty rf src) p r)
       <= length fl * local_size (refine_mesh rf m) mid
          + (local_size m tgt - local_size (refine_mesh rf m) mid).
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_traffic_bound_nf m src tgt rf p Hwf); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.
