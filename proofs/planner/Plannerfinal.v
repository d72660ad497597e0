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
  problem_wf m src tgt -> planner m src tgt = (rf, p) -> peak_le_max m src tgt rf p.
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_peak_le_max_nf m src tgt rf p); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.

(** The plan is slices, then all-to-alls and permutes, then gathers. *)
Theorem plan_normal_form : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) -> normal_form_split_of p.
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_normal_form_nf m src tgt rf p); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.

(** Per rank: nothing received in the slices, at most [L] per flat step
    ([L] the local size after the slices), [|tgt| - L] in the gathers. *)
Theorem plan_traffic_bound : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) -> traffic_bounded m src tgt rf p.
Proof.
  intros m src tgt rf p Hwf Hp. apply (plan_traffic_bound_nf m src tgt rf p Hwf); [| exact Hp].
  apply planner_always_normal, Hwf.
Qed.

(** ** How many slices and gathers *)

Lemma slices_axes : forall m q t t', forallb is_slice q = true -> run_type m t q = Some t' ->
  length (ty_axes t') = length (ty_axes t) + length q.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk Hq].
    destruct (step_type m t k) as [u|] eqn:Hs; [| discriminate].
    rewrite (IH u t' Hq H). destruct k as [d x | | |]; try discriminate. simpl in Hs.
    destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (negb (memb x (mesh_axes m))); [discriminate |].
    destruct (memb x (ty_axes t)); [discriminate |].
    destruct (negb (extent m (xs, n) mod axis_size m x =? 0)); [discriminate |].
    injection Hs as <-. unfold set_dim.
    destruct (ty_axes_upd t d (xs, n) (xs ++ [x], n) Hd) as [A [B [E1 E2]]].
    rewrite E1, E2. simpl. rewrite !app_length. simpl. lia.
Qed.

Lemma gathers_axes : forall m q t t', forallb is_gather q = true -> run_type m t q = Some t' ->
  length (ty_axes t') + length q = length (ty_axes t).
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk Hq].
    destruct (step_type m t k) as [u|] eqn:Hs; [| discriminate].
    pose proof (IH u t' Hq H) as E. destruct k as [| d | |]; try discriminate. simpl in Hs.
    destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (split_last xs) as [[ys a]|] eqn:Hl; [| discriminate].
    injection Hs as <-. apply split_last_app in Hl. subst xs. unfold set_dim in E.
    destruct (ty_axes_upd t d (ys ++ [a], n) (ys, n) Hd) as [A [B [E1 E2]]].
    rewrite E2 in E. rewrite E1. simpl in *. rewrite !app_length in *. simpl in *. unfold axis in *. lia.
Qed.

Lemma ty_axes_le_mesh : forall m t, ty_wf m t = true ->
  length (ty_axes t) <= length (mesh_axes m).
Proof.
  intros m t Ht. apply NoDup_incl_length; [apply (ty_wf_NoDup m t Ht) |].
  intros x Hx. eapply ty_wf_axes_in_mesh; eassumption.
Qed.

(** Each slice takes a new axis and each gather gives one back, so there
    are at most as many of each as the refined mesh has axes. *)
Theorem plan_slices_gathers_bounded : forall m src tgt rf p,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  exists sl fl ga, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true
    /\ length sl <= length (mesh_axes (refine_mesh rf m))
    /\ length ga <= length (mesh_axes (refine_mesh rf m)).
Proof.
  intros m src tgt rf p Hwf Hp.
  destruct (planner_choice_spec m src tgt rf p (planner_always_normal m src tgt Hwf) Hp) as [c Ha].
  apply assess_spec in Ha. destruct Ha as [Hrf [[rep Hc] [_ Hnf]]].
  destruct (normal_form_split p Hnf) as [sl [fl [ga [-> [Hsl [Hfl Hga]]]]]].
  destruct Hwf as [Hm [Hs [Ht _]]].
  pose proof (refine_mesh_wf rf m Hm Hrf) as Hm'.
  pose proof (refine_ty_wf rf m src Hm Hrf Hs) as Hs'.
  pose proof (run_type_check _ _ _ _ _ Hc) as Hrun.
  set (m' := refine_mesh rf m) in *. set (src' := refine_ty rf src) in *.
  rewrite run_type_app in Hrun.
  destruct (run_type m' src' sl) as [mid|] eqn:H1; [| discriminate].
  rewrite run_type_app in Hrun.
  destruct (run_type m' mid fl) as [mid2|] eqn:H2; [| discriminate].
  pose proof (run_type_wf m' sl src' mid Hm' Hs' H1) as Hmid.
  pose proof (run_type_wf m' fl mid mid2 Hm' Hmid H2) as Hmid2.
  exists sl, fl, ga. repeat split; auto.
  - pose proof (slices_axes m' sl src' mid Hsl H1). pose proof (ty_axes_le_mesh m' mid Hmid). lia.
  - pose proof (gathers_axes m' ga mid2 _ Hga Hrun). pose proof (ty_axes_le_mesh m' mid2 Hmid2). lia.
Qed.
