(** * What the planner guarantees, given how it chooses.

    The planner returns either a candidate that its own validation accepted
    (checker, peak, normal form) or the easy plan on the unrefined mesh.  So
    the checker always accepts its result ([plan_total]; the easy plan is
    accepted for every well-formed problem: [easy_plan_run]), it is correct
    on the model's semantics ([plan_correct]), and when the planner reports
    a normal-form plan ([planner_in_normal_form]) its peak is at most
    [max(|src|, |tgt|)], it has the normal-form shape and its traffic is
    bounded ([plan_peak_le_max_nf], [plan_normal_form_nf],
    [plan_traffic_bound_nf]).  [Plannerfinal.v] proves that it always does
    and states the three without that condition. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner.
From Redist Require Import Semanticsproof Trafficproof Checkerproof Refineproof.

(** ** Running types and the checker *)

Lemma run_type_app : forall m t p1 p2,
  run_type m t (p1 ++ p2) =
  match run_type m t p1 with Some t' => run_type m t' p2 | None => None end.
Proof.
  intros m t p1. revert t. induction p1 as [|k p1 IH]; intros t p2; simpl; [reflexivity |].
  destruct (step_type m t k); [apply IH | reflexivity].
Qed.

Lemma check_steps_run_type : forall m p t t' i, run_type m t p = Some t' ->
  exists reps, check_steps m t p i = OK (reps, t').
Proof.
  intros m p. induction p as [|k p IH]; intros t t' i H; simpl in *.
  - inversion H; subst. eauto.
  - destruct (step_type m t k) as [u|]; [| discriminate].
    destruct (IH u t' (S i) H) as [reps Hr]. rewrite Hr. eauto.
Qed.

Lemma list_eqb_refl : forall xs, list_eqb xs xs = true.
Proof. intros xs. apply list_eqb_eq. reflexivity. Qed.

Lemma ty_eqb_refl : forall t, ty_eqb t t = true.
Proof.
  induction t as [|[xs n] t IH]; simpl; [reflexivity |].
  unfold dimty_eqb. simpl. rewrite list_eqb_refl, Nat.eqb_refl, IH. reflexivity.
Qed.

(** The well-formedness conditions of a redistribution problem. *)
Definition problem_wf (m : mesh) (src tgt : ty) : Prop :=
  mesh_wf m = true /\ ty_wf m src = true /\ ty_wf m tgt = true
  /\ global_shape src = global_shape tgt.

Lemma check_of_run_type : forall m src tgt p, problem_wf m src tgt ->
  run_type m src p = Some tgt -> exists rep, check m src tgt p = OK rep.
Proof.
  intros m src tgt p [Hm [Hs [Ht Hg]]] Hr. unfold check.
  rewrite Hm, Hs, Ht, Hg, list_eqb_refl. simpl.
  destruct (check_steps_run_type m p src tgt 0 Hr) as [reps ->].
  rewrite ty_eqb_refl. eauto.
Qed.

(** ** The easy plan type-checks *)

Lemma upd_middle : forall A (pre post : list A) x v,
  upd (pre ++ x :: post) (length pre) v = pre ++ v :: post.
Proof. intros A pre. induction pre as [|a pre IH]; intros; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma nth_error_middle : forall A (pre post : list A) x,
  nth_error (pre ++ x :: post) (length pre) = Some x.
Proof. intros A pre. induction pre; intros; simpl; auto. Qed.

Lemma run_gathers_dim : forall m (pre post : ty) (n : nat) (xs : list axis),
  run_type m (pre ++ (xs, n) :: post) (repeat (AllGather (length pre)) (length xs))
  = Some (pre ++ ([], n) :: post).
Proof.
  intros m pre post n xs. induction xs as [|a xs IH] using rev_ind; [reflexivity |].
  rewrite app_length, Nat.add_comm. simpl.
  rewrite nth_error_middle, split_last_snoc. unfold set_dim. rewrite upd_middle. exact IH.
Qed.

Definition unsharded (t : ty) : ty := map (fun d => ([], snd d)) t.

Lemma run_gather_all : forall m t pre,
  run_type m (pre ++ t) (gather_all_from (length pre) t) = Some (pre ++ unsharded t).
Proof.
  intros m t. induction t as [|[xs n] t IH]; intros pre; simpl; [reflexivity |].
  rewrite run_type_app, run_gathers_dim.
  replace (S (length pre)) with (length (pre ++ [([], n)])) by (rewrite app_length; simpl; lia).
  specialize (IH (pre ++ [([], n)])). rewrite <- !app_assoc in IH. exact IH.
Qed.

Lemma ty_axes_app : forall t u, ty_axes (t ++ u) = ty_axes t ++ ty_axes u.
Proof. intros. unfold ty_axes. apply flat_map_app. Qed.

Lemma ty_axes_unsharded : forall t, ty_axes (unsharded t) = [].
Proof. induction t; simpl; auto. Qed.

(** Slicing an unsharded dimension by its target axes, in order, is valid. *)
Lemma run_slices_dim : forall m (pre post : ty) (n : nat) (xs ys zs : list axis),
  mesh_wf m = true -> ty_wf m (pre ++ (xs, n) :: post) = true ->
  xs = ys ++ zs ->
  run_type m (pre ++ (ys, n) :: unsharded post) (map (DynSlice (length pre)) zs)
  = Some (pre ++ (xs, n) :: unsharded post).
Proof.
  intros m pre post n xs ys zs Hm Hw. revert ys.
  induction zs as [|z zs IH]; intros ys Hxs; simpl.
  - rewrite app_nil_r in Hxs. subst. reflexivity.
  - pose proof (ty_wf_NoDup _ _ Hw) as Hnd.
    pose proof (ty_wf_dims _ _ Hw (xs, n)) as Hd.
    assert (Hd' : dim_wf m (xs, n) = true) by (apply Hd, in_or_app; simpl; auto).
    unfold dim_wf in Hd'. simpl in Hd'. apply andb_true_iff in Hd'. destruct Hd' as [Hd' Hdiv].
    apply andb_true_iff in Hd'. destruct Hd' as [Hax _].
    rewrite forallb_forall in Hax.
    assert (Hin : forall x, In x xs -> In x (mesh_axes m)) by (intros x Hx; apply memb_In, Hax, Hx).
    rewrite nth_error_middle.
    assert (Hz : In z xs) by (subst; apply in_or_app; simpl; auto).
    rewrite (proj2 (memb_In _ _) (Hin z Hz)). simpl.
    assert (Hfree : memb z (ty_axes (pre ++ (ys, n) :: unsharded post)) = false).
    { apply memb_false_notIn. rewrite ty_axes_app. simpl.
      rewrite ty_axes_unsharded, app_nil_r. rewrite ty_axes_app in Hnd. simpl in Hnd.
      subst xs. rewrite <- app_assoc in Hnd. simpl in Hnd.
      rewrite app_assoc in Hnd. apply NoDup_remove_2 in Hnd.
      intros Hc. apply Hnd. apply in_or_app. left. exact Hc. }
    rewrite Hfree. simpl.
    assert (Hext : extent m (ys, n) mod axis_size m z = 0).
    { unfold extent, shards. simpl. apply Nat.eqb_eq in Hdiv. unfold shards in Hdiv. simpl in Hdiv.
      subst xs. rewrite map_app, prod_app in Hdiv. simpl in Hdiv.
      assert (Hy : 1 <= prod (map (axis_size m) ys))
        by (apply shards_pos; auto; intros x Hx; apply Hin, in_or_app; auto).
      apply Nat.mod_divide in Hdiv; [| pose proof (shards_pos m (z :: zs) Hm) as Hp;
        simpl in Hp; assert (1 <= axis_size m z * prod (map (axis_size m) zs)) by
        (apply Hp; intros x Hx; apply Hin, in_or_app; auto); nia].
      destruct Hdiv as [k Hk]. rewrite Hk.
      replace (k * (prod (map (axis_size m) ys) * (axis_size m z * prod (map (axis_size m) zs))))
        with ((k * axis_size m z * prod (map (axis_size m) zs)) * prod (map (axis_size m) ys)) by ring.
      rewrite Nat.div_mul by lia.
      replace (k * axis_size m z * prod (map (axis_size m) zs))
        with ((k * prod (map (axis_size m) zs)) * axis_size m z) by ring.
      apply Nat.mod_mul. pose proof (mesh_wf_size_pos m z Hm (Hin z Hz)). lia. }
    rewrite Hext. simpl. unfold set_dim. rewrite upd_middle.
    apply (IH (ys ++ [z])). rewrite Hxs, <- app_assoc. reflexivity.
Qed.

Lemma run_slice_all : forall m t pre, mesh_wf m = true -> ty_wf m (pre ++ t) = true ->
  run_type m (pre ++ unsharded t) (slice_all_from (length pre) t) = Some (pre ++ t).
Proof.
  intros m t. induction t as [|[xs n] t IH]; intros pre Hm Hw; [reflexivity |].
  change (unsharded ((xs, n) :: t)) with (([], n) :: unsharded t).
  cbn [slice_all_from fst]. rewrite run_type_app.
  rewrite (run_slices_dim m pre t n xs [] xs Hm Hw eq_refl).
  replace (S (length pre)) with (length (pre ++ [(xs, n)])) by (rewrite app_length; simpl; lia).
  specialize (IH (pre ++ [(xs, n)]) Hm). rewrite <- !app_assoc in IH. simpl in IH. auto.
Qed.

Lemma unsharded_global : forall s t, global_shape s = global_shape t -> unsharded s = unsharded t.
Proof.
  induction s as [|[xs n] s IH]; intros [|[ys k] t] H; simpl in *; try discriminate; auto.
  inversion H. f_equal. auto.
Qed.

Theorem easy_plan_run : forall m src tgt, problem_wf m src tgt ->
  run_type m src (easy_plan src tgt) = Some tgt.
Proof.
  intros m src tgt [Hm [Hs [Ht Hg]]]. unfold easy_plan. rewrite run_type_app.
  pose proof (run_gather_all m src []) as H1. simpl in H1. rewrite H1.
  rewrite (unsharded_global src tgt Hg).
  exact (run_slice_all m tgt [] Hm Ht).
Qed.

(** ** The choice among candidates *)

Lemma best_spec : forall m src tgt cs rf p c, best m src tgt cs = Some (rf, p, c) ->
  In (rf, p) cs /\ exists a, assess m src tgt rf p = Some a.
Proof.
  intros m src tgt cs. induction cs as [|[rf0 p0] cs IH]; intros rf p c H; simpl in H;
    [discriminate |].
  destruct (assess m src tgt rf0 p0) as [[[[lb len] m'] rep]|] eqn:Ha.
  - destruct (best m src tgt cs) as [[[rf1 p1] c1]|] eqn:Hb.
    + destruct (cost_lt c1 (lb, len)).
      * inversion H; subst. destruct (IH rf p c eq_refl). split; [right |]; auto.
      * destruct (cost_lt c1 (lb + permute_traffic m' rep, len)).
        -- inversion H; subst. destruct (IH rf p c eq_refl). split; [right |]; auto.
        -- inversion H; subst. split; [left |]; eauto.
    + inversion H; subst. split; [left |]; eauto.
  - destruct (IH rf p c H). split; [right |]; auto.
Qed.

Lemma assess_spec : forall m src tgt rf p a, assess m src tgt rf p = Some a ->
  refine_ok m rf = true
  /\ (exists rep, check (refine_mesh rf m) (refine_ty rf src) (refine_ty rf tgt) p = OK rep)
  /\ trace_peak_ok (refine_mesh rf m) (refine_ty rf src) p
       (Nat.max (local_size m src) (local_size m tgt)) = true
  /\ normal_form p = true.
Proof.
  intros m src tgt rf p a H. unfold assess in H.
  destruct (refine_ok m rf); [| discriminate].
  destruct (check _ _ _ p) as [rep|] eqn:Hc; [| discriminate].
  destruct (trace_peak_ok _ _ p _ && normal_form p) eqn:Hb; [| discriminate].
  apply andb_true_iff in Hb. destruct Hb. eauto.
Qed.

Lemma planner_choice_spec : forall m src tgt rf p,
  planner_in_normal_form m src tgt = true -> planner m src tgt = (rf, p) ->
  exists c, assess m src tgt rf p = Some c.
Proof.
  intros m src tgt rf p H Hp. unfold planner_in_normal_form, planner in *.
  destruct (planner_choice m src tgt) as [[[rf0 p0] c]|] eqn:Hc; [| discriminate].
  inversion Hp; subst. apply best_spec in Hc. destruct Hc as [_ Hc]. exact Hc.
Qed.

(** ** Headline theorems *)

(** The refinement is valid and the checker accepts the plan on the refined problem. *)
Theorem plan_total : forall m src tgt rf p, problem_wf m src tgt ->
  planner m src tgt = (rf, p) ->
  refine_ok m rf = true
  /\ exists rep, check (refine_mesh rf m) (refine_ty rf src) (refine_ty rf tgt) p = OK rep.
Proof.
  intros m src tgt rf p Hwf Hp. unfold planner in Hp.
  destruct (planner_choice m src tgt) as [[[rf0 p0] c]|] eqn:Hc.
  - inversion Hp; subst. unfold planner_choice in Hc. apply best_spec in Hc.
    destruct Hc as [_ [a Ha]]. apply assess_spec in Ha. tauto.
  - inversion Hp; subst. split; [reflexivity |].
    apply check_of_run_type; [exact Hwf |]. apply easy_plan_run, Hwf.
Qed.

(** A normal-form result never holds more than [max(|src|, |tgt|)] elements per device. *)
Definition peak_le_max (m : mesh) (src tgt : ty) (rf : list split) (p : plan) : Prop :=
  forall t, In t (trace (refine_mesh rf m) (refine_ty rf src) p) ->
  local_size (refine_mesh rf m) t <= Nat.max (local_size m src) (local_size m tgt).

Theorem plan_peak_le_max_nf : forall m src tgt rf p,
  planner_in_normal_form m src tgt = true -> planner m src tgt = (rf, p) -> peak_le_max m src tgt rf p.
Proof.
  intros m src tgt rf p Hn Hp t Ht.
  destruct (planner_choice_spec m src tgt rf p Hn Hp) as [c Ha].
  apply assess_spec in Ha. destruct Ha as [_ [_ [Hpk _]]].
  unfold trace_peak_ok in Hpk. rewrite forallb_forall in Hpk.
  apply Nat.leb_le, Hpk, Ht.
Qed.

Lemma take_while_spec : forall A (f : A -> bool) l a b, take_while f l = (a, b) ->
  l = a ++ b /\ forallb f a = true.
Proof.
  intros A f l. induction l as [|x l IH]; intros a b H; simpl in H.
  - inversion H; auto.
  - destruct (f x) eqn:Hf.
    + destruct (take_while f l) as [a' b'] eqn:Ht. inversion H; subst.
      destruct (IH a' b eq_refl) as [-> Hall]. simpl. rewrite Hf, Hall. auto.
    + inversion H; auto.
Qed.

Lemma normal_form_split : forall p, normal_form p = true ->
  exists sl fl ga, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true.
Proof.
  intros p H. unfold normal_form, nf_split in H.
  destruct (take_while is_slice p) as [sl r1] eqn:H1.
  destruct (take_while is_flat r1) as [fl r2] eqn:H2.
  destruct (take_while is_gather r2) as [ga r3] eqn:H3.
  destruct r3; [| discriminate].
  apply take_while_spec in H1, H2, H3.
  destruct H1 as [-> ?], H2 as [-> ?], H3 as [-> ?]. rewrite app_nil_r in *.
  exists sl, fl, ga. auto.
Qed.

(** A normal-form result is slices, then flat steps, then gathers. *)
Definition normal_form_split_of (p : plan) : Prop :=
  exists sl fl ga, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true.

Theorem plan_normal_form_nf : forall m src tgt rf p,
  planner_in_normal_form m src tgt = true -> planner m src tgt = (rf, p) -> normal_form_split_of p.
Proof.
  intros m src tgt rf p Hn Hp. unfold normal_form_split_of.
  destruct (planner_choice_spec m src tgt rf p Hn Hp) as [c Ha].
  apply assess_spec in Ha. apply normal_form_split. tauto.
Qed.

(** ** Correctness on the model's semantics *)

(** Every device ends with its target box: states are indexed by rank, and
    refinement changes neither ranks nor boxes. *)
Theorem plan_correct : forall m src tgt rf p A (g : list nat -> A) (st : state A),
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  holds m src g st ->
  holds m tgt g (exec (refine_mesh rf m) (refine_ty rf src) p st).
Proof.
  intros m src tgt rf p A g st Hwf Hp Hst.
  destruct (plan_total m src tgt rf p Hwf Hp) as [Hrf [rep Hc]].
  destruct Hwf as [Hm [Hs [Ht _]]].
  apply (refine_holds A rf m tgt g _ Hm Hrf Ht).
  eapply check_correct; [exact Hc |].
  apply (refine_holds A rf m src g st Hm Hrf Hs). exact Hst.
Qed.

(** ** Local sizes along the steps *)

Lemma prod_upd_mul : forall l i v, i < length l -> prod (upd l i v) * nth i l 0 = prod l * v.
Proof. intros l i v Hi. rewrite prod_upd by exact Hi. rewrite (prod_nth l i Hi). lia. Qed.

Lemma local_size_set_dim : forall m t d e, d < length t ->
  local_size m (set_dim t d e) * extent m (dim_of t d) = local_size m t * extent m e.
Proof.
  intros m t d e Hd. unfold local_size. rewrite local_shape_set_dim.
  unfold dim_of. rewrite <- nth_local_shape. apply prod_upd_mul.
  rewrite length_local_shape. exact Hd.
Qed.

Lemma extent_wf_pos : forall m t d e, mesh_wf m = true -> ty_wf m t = true ->
  nth_error t d = Some e -> 1 <= extent m e.
Proof.
  intros m t d [xs n] Hm Ht Hd. apply (dim_extent m xs n Hm). eapply ty_wf_nth_error; eassumption.
Qed.

Lemma gather_size : forall m t d t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (AllGather d) = OK t' ->
  exists a, 1 <= axis_size m a /\ local_size m t' = local_size m t * axis_size m a
  /\ recv_count m t (AllGather d) 0 = local_size m t' - local_size m t.
Proof.
  intros m t d t' Hm Ht Hk. simpl in Hk.
  destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (split_last xs) as [[ys a]|] eqn:Hs; [| discriminate].
  injection Hk as <-. apply split_last_app in Hs. subst xs.
  destruct (dim_wf_snoc_inv m ys a n Hm (ty_wf_nth_error m t d _ Ht Hd)) as [_ [Ha Hext]].
  pose proof (local_size_set_dim m t d (ys, n) (nth_error_lt _ _ _ _ Hd)) as E.
  rewrite (dim_of_nth_error t d _ Hd) in E. unfold dimty, axis in *. rewrite Hext in E.
  pose proof (extent_wf_pos m t d _ Hm Ht Hd) as Hpos.
  exists a. split; [apply mesh_wf_size_pos; assumption |].
  simpl. rewrite (dim_of_nth_error t d _ Hd). simpl. unfold last_axis.
  rewrite last_axis_app.
  assert (Hsz : local_size m (set_dim t d (ys, n)) = local_size m t * axis_size m a) by nia.
  split; [exact Hsz |]. rewrite Hsz. destruct (axis_size m a); simpl; lia.
Qed.

Lemma slice_size : forall m t d x t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (DynSlice d x) = OK t' -> local_size m t' <= local_size m t.
Proof.
  intros m t d x t' Hm Ht Hk. simpl in Hk.
  destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (memb x (mesh_axes m)) eqn:Hx; simpl in Hk; [| discriminate].
  destruct (memb x (ty_axes t)); simpl in Hk; [discriminate |].
  destruct (extent m (xs, n) mod axis_size m x =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  injection Hk as <-. apply Nat.eqb_eq in Hdiv. apply memb_In in Hx.
  destruct (dim_wf_snoc m xs x n Hm (ty_wf_nth_error m t d _ Ht Hd) Hx Hdiv) as [_ Hext].
  pose proof (local_size_set_dim m t d (xs ++ [x], n) (nth_error_lt _ _ _ _ Hd)) as E.
  rewrite (dim_of_nth_error t d _ Hd) in E. unfold dimty, axis in *. rewrite Hext in E.
  pose proof (extent_wf_pos m t d _ Hm Ht Hd) as Hpos. rewrite Hext in Hpos.
  pose proof (mesh_wf_size_pos m x Hm Hx). nia.
Qed.

Lemma all_to_all_size : forall m t s u t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (AllToAll s u) = OK t' -> local_size m t' = local_size m t.
Proof.
  intros m t s u t' Hm Ht Hk. simpl in Hk.
  destruct (Nat.eqb_spec s u) as [|Hsu]; [discriminate |].
  destruct (nth_error t s) as [[xs ns]|] eqn:Hs; [| discriminate].
  destruct (nth_error t u) as [[ys nu]|] eqn:Hu; [| discriminate].
  destruct (split_last xs) as [[xs' a]|] eqn:Hl; [| discriminate].
  destruct (extent m (ys, nu) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  injection Hk as <-. apply split_last_app in Hl. subst xs. apply Nat.eqb_eq in Hdiv.
  destruct (dim_wf_snoc_inv m xs' a ns Hm (ty_wf_nth_error m t s _ Ht Hs)) as [_ [Ha Hexs]].
  destruct (dim_wf_snoc m ys a nu Hm (ty_wf_nth_error m t u _ Ht Hu) Ha Hdiv) as [_ Hexu].
  pose proof (extent_wf_pos m t s _ Hm Ht Hs) as Hps.
  pose proof (extent_wf_pos m t u _ Hm Ht Hu) as Hpu.
  set (t1 := set_dim t s (xs', ns)).
  assert (Hu1 : u < length t1) by (unfold t1, set_dim; rewrite length_upd; eapply nth_error_lt; eauto).
  pose proof (local_size_set_dim m t1 u (ys ++ [a], nu) Hu1) as E2.
  pose proof (local_size_set_dim m t s (xs', ns) (nth_error_lt _ _ _ _ Hs)) as E1.
  assert (Hdu : dim_of t1 u = (ys, nu)).
  { unfold t1, dim_of, set_dim. rewrite nth_upd_other by congruence.
    apply dim_of_nth_error. exact Hu. }
  rewrite Hdu in E2. rewrite (dim_of_nth_error t s _ Hs) in E1. unfold dimty, axis in *. rewrite Hexs in E1. fold t1 in E1.
  rewrite Hexu in E2. nia.
Qed.

Lemma permute_size : forall m t t0 t', step_type m t (AllPermute t0) = OK t' ->
  local_size m t' = local_size m t.
Proof.
  intros m t t0 t' Hk. simpl in Hk.
  destruct (ty_wf m t0); simpl in Hk; [| discriminate].
  destruct (list_eqb (global_shape t0) (global_shape t)); simpl in Hk; [| discriminate].
  destruct (list_eqb (local_shape m t0) (local_shape m t)) eqn:Hl; simpl in Hk; [| discriminate].
  injection Hk as <-. apply list_eqb_eq in Hl. unfold local_size. rewrite Hl. reflexivity.
Qed.

Lemma div_mul_pred_le : forall x a, x / a * (a - 1) <= x.
Proof.
  intros x [|a]; [simpl; lia |].
  pose proof (Nat.mul_div_le x (S a)). replace (S a - 1) with a by lia. nia.
Qed.

Lemma flat_step_bound : forall m t k t' r, mesh_wf m = true -> ty_wf m t = true ->
  is_flat k = true -> step_type m t k = OK t' ->
  local_size m t' = local_size m t /\ recv_count m t k r <= local_size m t.
Proof.
  intros m t k t' r Hm Ht Hf Hk. destruct k as [d x | d | s u | t0]; try discriminate.
  - split; [eapply all_to_all_size; eassumption |]. apply div_mul_pred_le.
  - split; [eapply permute_size; eassumption |]. simpl.
    destruct (_ =? r); lia.
Qed.

(** ** Local sizes and traffic of the three phases *)

Lemma flats_keep_size : forall m q t t', mesh_wf m = true -> ty_wf m t = true ->
  forallb is_flat q = true -> run_type m t q = Some t' -> local_size m t' = local_size m t.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hm Ht Hq H; simpl in *.
  - congruence.
  - apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
    destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate].
    rewrite (IH u t' Hm (proj1 (step_type_wf m t k u Hm Ht Hk)) Hq H).
    exact (proj1 (flat_step_bound m t k u 0 Hm Ht Hk1 Hk)).
Qed.

Lemma slices_shrink : forall m q t t', mesh_wf m = true -> ty_wf m t = true ->
  forallb is_slice q = true -> run_type m t q = Some t' -> local_size m t' <= local_size m t.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hm Ht Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
    destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate].
    destruct k as [d x | | |]; try discriminate.
    pose proof (IH u t' Hm (proj1 (step_type_wf m t _ u Hm Ht Hk)) Hq H).
    pose proof (slice_size m t d x u Hm Ht Hk). lia.
Qed.

Lemma gathers_grow : forall m q t t', mesh_wf m = true -> ty_wf m t = true ->
  forallb is_gather q = true -> run_type m t q = Some t' -> local_size m t <= local_size m t'.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hm Ht Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
    destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate].
    destruct k as [| d | |]; try discriminate.
    destruct (gather_size m t d u Hm Ht Hk) as [a [Ha [Hsz _]]].
    pose proof (IH u t' Hm (proj1 (step_type_wf m t _ u Hm Ht Hk)) Hq H). nia.
Qed.


Lemma received_trace_app : forall m t q1 q2 t1 r, run_type m t q1 = Some t1 ->
  received_trace m t (q1 ++ q2) r = received_trace m t q1 r ++ received_trace m t1 q2 r.
Proof.
  intros m t q1. revert t. induction q1 as [|k q1 IH]; intros t q2 t1 r H; simpl in *.
  - congruence.
  - destruct (step_type m t k); [| discriminate]. simpl. f_equal. apply IH, H.
Qed.

Lemma run_type_wf : forall m q t t', mesh_wf m = true -> ty_wf m t = true ->
  run_type m t q = Some t' -> ty_wf m t' = true.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' Hm Ht H; simpl in H.
  - congruence.
  - destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate].
    eapply IH; [exact Hm | | exact H]. apply (step_type_wf m t k u Hm Ht Hk).
Qed.

Lemma slices_receive_nothing : forall m q t t' r, mesh_wf m = true -> ty_wf m t = true ->
  r < mesh_size m -> forallb is_slice q = true -> run_type m t q = Some t' ->
  list_sum (received_trace m t q r) = 0.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' r Hm Ht Hr Hq H; simpl in *; [reflexivity |].
  apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
  destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate]. simpl.
  rewrite (received_closed_form m t k u r Hm Ht Hk Hr).
  destruct k; try discriminate. simpl.
  eapply IH; [exact Hm | apply (step_type_wf m t _ u Hm Ht Hk) | exact Hr | exact Hq | exact H].
Qed.

Lemma flats_receive_at_most : forall m q t t' r, mesh_wf m = true -> ty_wf m t = true ->
  r < mesh_size m -> forallb is_flat q = true -> run_type m t q = Some t' ->
  local_size m t' = local_size m t
  /\ list_sum (received_trace m t q r) <= length q * local_size m t.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' r Hm Ht Hr Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
    destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate]. simpl.
    rewrite (received_closed_form m t k u r Hm Ht Hk Hr).
    destruct (flat_step_bound m t k u r Hm Ht Hk1 Hk) as [Hsz Hrc].
    destruct (IH u t' r Hm (proj1 (step_type_wf m t k u Hm Ht Hk)) Hr Hq H) as [Hs Hsum].
    rewrite Hsz in Hs, Hsum. split; [exact Hs | lia].
Qed.

Lemma gathers_receive : forall m q t t' r, mesh_wf m = true -> ty_wf m t = true ->
  r < mesh_size m -> forallb is_gather q = true -> run_type m t q = Some t' ->
  local_size m t <= local_size m t'
  /\ list_sum (received_trace m t q r) = local_size m t' - local_size m t.
Proof.
  intros m q. induction q as [|k q IH]; intros t t' r Hm Ht Hr Hq H; simpl in *.
  - injection H as <-. lia.
  - apply andb_true_iff in Hq. destruct Hq as [Hk1 Hq].
    destruct (step_type m t k) as [u|] eqn:Hk; [| discriminate]. simpl.
    rewrite (received_closed_form m t k u r Hm Ht Hk Hr).
    destruct k as [| d | |]; try discriminate.
    destruct (gather_size m t d u Hm Ht Hk) as [a [Ha [Hsz Hrc]]].
    simpl in Hrc |- *. rewrite Hrc.
    destruct (IH u t' r Hm (proj1 (step_type_wf m t _ u Hm Ht Hk)) Hr Hq H) as [Hle Hsum].
    assert (local_size m t <= local_size m u) by (rewrite Hsz; nia).
    rewrite Hsum. lia.
Qed.

Lemma run_type_check_steps : forall m p t i reps final,
  check_steps m t p i = OK (reps, final) -> run_type m t p = Some final.
Proof.
  intros m p. induction p as [|k p IH]; intros t i reps final H; simpl in *.
  - congruence.
  - destruct (step_type m t k) as [u|]; [| discriminate].
    destruct (check_steps m u p (S i)) as [[reps' final']|] eqn:Hc; [| discriminate].
    injection H as _ <-. eapply IH; exact Hc.
Qed.

Lemma run_type_check : forall m src tgt p rep, check m src tgt p = OK rep ->
  run_type m src p = Some tgt.
Proof.
  intros m src tgt p rep H. destruct (check_wf m src tgt p rep H) as [_ [_ [_ [_ Hc]]]].
  eapply run_type_check_steps; exact Hc.
Qed.

(** Per rank, a normal-form result receives at most [L] elements per flat
    step, where [L] is the local size after the slices, plus
    [|tgt| - L] in its gathers (which is exactly what they receive), and
    nothing in its slices. *)
Definition traffic_bounded (m : mesh) (src tgt : ty) (rf : list split) (p : plan) : Prop :=
  exists sl fl ga mid, p = sl ++ fl ++ ga
    /\ forallb is_slice sl = true /\ forallb is_flat fl = true /\ forallb is_gather ga = true
    /\ run_type (refine_mesh rf m) (refine_ty rf src) sl = Some mid
    /\ local_size (refine_mesh rf m) mid <= local_size m src
    /\ local_size (refine_mesh rf m) mid <= local_size m tgt
    /\ forall r, r < mesh_size m ->
       list_sum (received_trace (refine_mesh rf m) (refine_ty rf src) p r)
       <= length fl * local_size (refine_mesh rf m) mid
          + (local_size m tgt - local_size (refine_mesh rf m) mid).

Theorem plan_traffic_bound_nf : forall m src tgt rf p,
  problem_wf m src tgt -> planner_in_normal_form m src tgt = true ->
  planner m src tgt = (rf, p) -> traffic_bounded m src tgt rf p.
Proof.
  intros m src tgt rf p Hwf Hn Hp. unfold traffic_bounded.
  destruct (planner_choice_spec m src tgt rf p Hn Hp) as [c Ha].
  apply assess_spec in Ha. destruct Ha as [Hrf [[rep Hc] [_ Hnf]]].
  destruct (normal_form_split p Hnf) as [sl [fl [ga [-> [Hsl [Hfl Hga]]]]]].
  destruct Hwf as [Hm [Hs [Ht _]]].
  pose proof (refine_mesh_wf rf m Hm Hrf) as Hm'.
  pose proof (refine_ty_wf rf m src Hm Hrf Hs) as Hs'.
  pose proof (run_type_check _ _ _ _ _ Hc) as Hrun.
  rewrite !run_type_app in Hrun.
  rewrite <- (refine_local_size rf m tgt Hm Hrf Ht), <- (refine_local_size rf m src Hm Hrf Hs).
  set (m' := refine_mesh rf m) in *. set (src' := refine_ty rf src) in *.
  destruct (run_type m' src' sl) as [mid|] eqn:H1; [| discriminate].
  rewrite run_type_app in Hrun.
  destruct (run_type m' mid fl) as [mid2|] eqn:H2; [| discriminate].
  pose proof (run_type_wf m' sl src' mid Hm' Hs' H1) as Hmid.
  pose proof (run_type_wf m' fl mid mid2 Hm' Hmid H2) as Hmid2.
  exists sl, fl, ga, mid. repeat split; auto.
  - exact (slices_shrink m' sl src' mid Hm' Hs' Hsl H1).
  - rewrite <- (flats_keep_size m' fl mid mid2 Hm' Hmid Hfl H2).
    exact (gathers_grow m' ga mid2 _ Hm' Hmid2 Hga Hrun).
  - intros r Hr. rewrite <- (refine_mesh_size rf m Hm Hrf) in Hr.
    rewrite (received_trace_app m' src' sl (fl ++ ga) mid r H1).
    rewrite (received_trace_app m' mid fl ga mid2 r H2).
    rewrite !list_sum_app.
    rewrite (slices_receive_nothing m' sl src' mid r Hm' Hs' Hr Hsl H1).
    destruct (flats_receive_at_most m' fl mid mid2 r Hm' Hmid Hr Hfl H2) as [Hsz Hf].
    destruct (gathers_receive m' ga mid2 _ r Hm' Hmid2 Hr Hga Hrun) as [Hle Hg].
    rewrite Hg, Hsz. lia.
Qed.

(** ** The busiest rank's permute traffic: stopping at the bound changes nothing *)

Lemma max_from_ge_acc : forall f r n acc, acc <= max_from f r n acc.
Proof.
  intros f r n. revert r. induction n as [|n IH]; intros r acc; simpl; [lia |].
  specialize (IH (S r) (Nat.max acc (f r))). lia.
Qed.

Lemma max_from_bounded : forall f r n acc, (forall i, f i <= acc) -> max_from f r n acc = acc.
Proof.
  intros f r n. revert r. induction n as [|n IH]; intros r acc H; simpl; [reflexivity |].
  replace (Nat.max acc (f r)) with acc by (specialize (H r); lia). apply IH. exact H.
Qed.

Lemma max_upto_max_from : forall cap f r n acc, (forall i, f i <= cap) -> acc <= cap ->
  max_upto cap f r n acc = max_from f r n acc.
Proof.
  intros cap f r n. revert r. induction n as [|n IH]; intros r acc Hf Hacc; simpl; [reflexivity |].
  destruct (Nat.leb_spec cap acc).
  - replace acc with cap by lia. replace (Nat.max cap (f r)) with cap by (specialize (Hf r); lia).
    symmetry. apply max_from_bounded.
    intros i. specialize (Hf i). lia.
  - apply IH; [exact Hf |]. specialize (Hf r). lia.
Qed.

Lemma fold_left_add_acc : forall l a, fold_left Nat.add l a = a + fold_left Nat.add l 0.
Proof.
  induction l as [|x l IH]; intros a; simpl; [lia |]. rewrite (IH (a + x)), (IH x). lia.
Qed.

Lemma check_steps_permute_bound : forall m p t i reps final s r,
  check_steps m t p i = OK (reps, final) -> In s reps -> is_permute (sr_collective s) = true ->
  sr_recv s r <= sr_local_size s.
Proof.
  intros m p. induction p as [|k p IH]; intros t i reps final s r H Hin Hp; simpl in H.
  - injection H as <- <-. contradiction.
  - destruct (step_type m t k) as [t'|e] eqn:Hk; [| discriminate].
    destruct (check_steps m t' p (S i)) as [[reps' final']|e] eqn:Hc; [| discriminate].
    injection H as <- <-. destruct Hin as [<- | Hin]; [| eapply IH; eassumption].
    simpl in Hp |- *. destruct k as [| | | t0]; try discriminate.
    simpl in Hk. destruct (ty_wf m t0); [| discriminate].
    destruct (list_eqb (global_shape t0) (global_shape t)); [| discriminate].
    destruct (list_eqb (local_shape m t0) (local_shape m t)) eqn:Hls; [| discriminate].
    injection Hk as <-. apply list_eqb_eq in Hls. cbn [sr_recv sr_local_size step_recv].
    unfold permute_recv. cbv zeta.
    match goal with |- context [if ?b then _ else _] => destruct b end; [lia |].
    unfold local_size. rewrite Hls. lia.
Qed.

(** The planner's permute traffic is the largest, over the ranks, of the
    elements a rank receives in the plan's permutes. *)
Theorem permute_traffic_max : forall m src tgt p rep, check m src tgt p = OK rep ->
  let perms := filter (fun s => is_permute (sr_collective s)) (rp_steps rep) in
  2 <= length perms ->
  permute_traffic m rep
  = max_from (fun r => fold_left Nat.add (map (fun s => sr_recv s r) perms) 0) 0 (mesh_size m) 0.
Proof.
  intros m src tgt p rep H perms Hlen.
  assert (Hb : forall s r, In s perms -> sr_recv s r <= sr_local_size s).
  { intros s r Hs. unfold perms in Hs. apply filter_In in Hs. destruct Hs as [Hs Hp].
    unfold check in H.
    destruct (negb (mesh_wf m)); [discriminate |]. destruct (negb (ty_wf m src)); [discriminate |].
    destruct (negb (ty_wf m tgt)); [discriminate |].
    destruct (negb (list_eqb (global_shape src) (global_shape tgt))); [discriminate |].
    destruct (check_steps m src p 0) as [[reps final]|e] eqn:Hc; [| discriminate].
    destruct (ty_eqb final tgt); [| discriminate]. injection H as <-.
    eapply check_steps_permute_bound; eassumption. }
  unfold permute_traffic. fold perms.
  destruct perms as [|s1 [|s2 ps]] eqn:E; simpl in Hlen; try lia.
  rewrite <- E in Hb |- *. apply max_upto_max_from; [| lia].
  intros r. clear E Hlen. induction perms as [|s qs IH]; [simpl; lia |].
  simpl. rewrite (fold_left_add_acc _ (sr_recv s r)), (fold_left_add_acc _ (sr_local_size s)).
  assert (sr_recv s r <= sr_local_size s) by (apply Hb; left; reflexivity).
  assert (fold_left Nat.add (map (fun s => sr_recv s r) qs) 0
          <= fold_left Nat.add (map sr_local_size qs) 0) by (apply IH; intros s' r' Hs'; apply Hb; right; exact Hs').
  lia.
Qed.
