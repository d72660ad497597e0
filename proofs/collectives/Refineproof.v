(** * Mesh refinement: an axis [x] of size [q * r] seen as [hi] (size [q])
    followed by [lo] (size [r]).

    The refined mesh is well-formed and has the same number of devices; every
    device keeps its rank; a type over the refined axes is well-formed and
    has the same local shape, and denotes the same boxes, so a distributed
    state holds an array under a type iff it holds it under the refined type.
    The same facts follow for a sequence of splits ([refinement]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix.

(** ** What a valid split guarantees *)

Lemma split_ok_parts : forall m sp, split_ok m sp = true ->
  In (sp_axis sp) (mesh_axes m) /\ axis_size m (sp_axis sp) = sp_q sp * sp_r sp
  /\ 1 <= sp_q sp /\ 1 <= sp_r sp
  /\ ~ In (sp_hi sp) (mesh_axes m) /\ ~ In (sp_lo sp) (mesh_axes m) /\ sp_hi sp <> sp_lo sp.
Proof.
  intros m sp H. unfold split_ok in H. rewrite !andb_true_iff in H.
  destruct H as [[[[[[H1 H2] H3] H4] H5] H6] H7].
  apply negb_true_iff in H5, H6, H7.
  rewrite memb_In in H1. rewrite memb_false_notIn in H5, H6.
  apply Nat.eqb_eq in H2. apply Nat.leb_le in H3, H4. apply Nat.eqb_neq in H7.
  repeat split; assumption.
Qed.

(** ** Refined axis lists *)

Lemma split_axes_cons : forall sp y xs, split_axes sp (y :: xs)
  = (if y =? sp_axis sp then [sp_hi sp; sp_lo sp] else [y]) ++ split_axes sp xs.
Proof. reflexivity. Qed.

Lemma split_axes_app : forall sp xs ys,
  split_axes sp (xs ++ ys) = split_axes sp xs ++ split_axes sp ys.
Proof. intros. unfold split_axes. apply flat_map_app. Qed.

Lemma in_split_axes : forall sp xs z, In z (split_axes sp xs) <->
  (In z xs /\ z <> sp_axis sp) \/ ((z = sp_hi sp \/ z = sp_lo sp) /\ In (sp_axis sp) xs).
Proof.
  intros sp xs z. unfold split_axes. rewrite in_flat_map. split.
  - intros [y [Hy Hz]]. destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hne].
    + right. split; [| exact Hy]. destruct Hz as [<- | [<- | []]]; auto.
    + left. destruct Hz as [<- | []]. auto.
  - intros [[Hz Hne] | [Hz Hx]].
    + exists z. split; [exact Hz |]. apply Nat.eqb_neq in Hne. rewrite Hne. left. reflexivity.
    + exists (sp_axis sp). split; [exact Hx |]. rewrite Nat.eqb_refl.
      destruct Hz as [-> | ->]; simpl; auto.
Qed.

Lemma NoDup_split_axes : forall sp xs, NoDup xs -> ~ In (sp_hi sp) xs -> ~ In (sp_lo sp) xs ->
  sp_hi sp <> sp_lo sp -> NoDup (split_axes sp xs).
Proof.
  intros sp xs Hnd Hhi Hlo Hne. induction xs as [|y xs IH]; [constructor |].
  inversion Hnd as [| ? ? Hy Hnd']. subst.
  assert (IH' : NoDup (split_axes sp xs)) by (apply IH; simpl in *; tauto).
  rewrite split_axes_cons. destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hyx].
  - simpl. constructor; [| constructor]; [| | exact IH'].
    + intros [E | H]; [exact (Hne (eq_sym E)) |]. apply in_split_axes in H. simpl in Hhi. tauto.
    + intros H. apply in_split_axes in H. simpl in Hlo. tauto.
  - simpl. constructor; [| exact IH']. intros H. apply in_split_axes in H.
    destruct H as [[H _] | [[E | E] _]]; [tauto | |]; subst; simpl in *; tauto.
Qed.

Lemma mesh_axes_split : forall sp m, mesh_axes (split_mesh sp m) = split_axes sp (mesh_axes m).
Proof.
  intros sp m. induction m as [|[y s] m IH]; [reflexivity |].
  unfold split_mesh, mesh_axes in *. simpl. rewrite <- IH.
  destruct (y =? sp_axis sp); reflexivity.
Qed.

(** ** Axis sizes and coordinates on the refined mesh *)

Lemma axis_size_split_hi : forall sp m, In (sp_axis sp) (mesh_axes m) ->
  ~ In (sp_hi sp) (mesh_axes m) -> axis_size (split_mesh sp m) (sp_hi sp) = sp_q sp.
Proof.
  intros sp m. induction m as [|[y s] m IH]; intros Hx Hhi; simpl in *; [contradiction |].
  destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hne]; simpl.
  - rewrite Nat.eqb_refl. reflexivity.
  - destruct (Nat.eqb_spec (sp_hi sp) y) as [E | _]; [exfalso; apply Hhi; left; congruence |].
    apply IH; [destruct Hx; [congruence | assumption] | tauto].
Qed.

Lemma axis_size_split_lo : forall sp m, In (sp_axis sp) (mesh_axes m) ->
  ~ In (sp_lo sp) (mesh_axes m) -> sp_hi sp <> sp_lo sp ->
  axis_size (split_mesh sp m) (sp_lo sp) = sp_r sp.
Proof.
  intros sp m Hx Hlo Hne. induction m as [|[y s] m IH]; simpl in *; [contradiction |].
  destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hyx]; simpl.
  - destruct (Nat.eqb_spec (sp_lo sp) (sp_hi sp)) as [E | _]; [congruence |].
    rewrite Nat.eqb_refl. reflexivity.
  - destruct (Nat.eqb_spec (sp_lo sp) y) as [E | _]; [exfalso; apply Hlo; left; congruence |].
    apply IH; [destruct Hx; [congruence | assumption] | tauto].
Qed.

Lemma axis_size_split_other : forall sp m y, y <> sp_axis sp -> y <> sp_hi sp -> y <> sp_lo sp ->
  axis_size (split_mesh sp m) y = axis_size m y.
Proof.
  intros sp m y Hx Hhi Hlo. induction m as [|[z s] m IH]; [reflexivity |]. simpl.
  destruct (Nat.eqb_spec z (sp_axis sp)) as [-> | Hzx]; simpl.
  - apply Nat.eqb_neq in Hx, Hhi, Hlo. rewrite Hx, Hhi, Hlo. exact IH.
  - rewrite IH. reflexivity.
Qed.

Lemma split_device_hi : forall sp c, split_device sp c (sp_hi sp) = c (sp_axis sp) / sp_r sp.
Proof. intros. unfold split_device. rewrite Nat.eqb_refl. reflexivity. Qed.

Lemma split_device_lo : forall sp c, sp_hi sp <> sp_lo sp ->
  split_device sp c (sp_lo sp) = c (sp_axis sp) mod sp_r sp.
Proof.
  intros sp c Hne. unfold split_device.
  destruct (Nat.eqb_spec (sp_lo sp) (sp_hi sp)); [congruence |]. rewrite Nat.eqb_refl.
  reflexivity.
Qed.

Lemma split_device_other : forall sp c y, y <> sp_hi sp -> y <> sp_lo sp ->
  split_device sp c y = c y.
Proof.
  intros sp c y Hhi Hlo. unfold split_device. apply Nat.eqb_neq in Hhi, Hlo.
  rewrite Hhi, Hlo. reflexivity.
Qed.

(** ** Mixed-radix values and products survive the split

    The axes [xs] avoid the new names; [c[x] = c[hi] * r + c[lo]] and
    [|x| = q * r] make [x] and [hi, lo] contribute the same. *)

Section Split.
Context (m : mesh) (sp : split).
Hypothesis Hok : split_ok m sp = true.

Let m' := split_mesh sp m.

Definition avoids_new (xs : list axis) : Prop :=
  forall y, In y xs -> y <> sp_hi sp /\ y <> sp_lo sp.

Lemma mesh_axes_avoid_new : avoids_new (mesh_axes m).
Proof.
  destruct (split_ok_parts m sp Hok) as [_ [_ [_ [_ [Hhi [Hlo _]]]]]].
  intros y Hy. split; intros ->; contradiction.
Qed.

Lemma avoids_new_sub : forall xs, (forall y, In y xs -> In y (mesh_axes m)) -> avoids_new xs.
Proof. intros xs H y Hy. apply mesh_axes_avoid_new, H, Hy. Qed.

Lemma radix_split_acc : forall c xs acc, avoids_new xs ->
  fold_left (fun a y => a * axis_size m' y + split_device sp c y) (split_axes sp xs) acc
  = fold_left (fun a y => a * axis_size m y + c y) xs acc.
Proof.
  destruct (split_ok_parts m sp Hok) as [Hx [Hsz [Hq [Hr [Hhi [Hlo Hne]]]]]].
  intros c xs. induction xs as [|y xs IH]; intros acc Hav; [reflexivity |].
  rewrite split_axes_cons, fold_left_app. simpl.
  destruct (Hav y (or_introl eq_refl)) as [Hyhi Hylo].
  assert (Hav' : avoids_new xs) by (intros z Hz; apply Hav; right; exact Hz).
  destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hyx]; simpl; rewrite IH by exact Hav'; f_equal.
  - unfold m'. rewrite axis_size_split_hi, axis_size_split_lo, split_device_hi, split_device_lo,
      Hsz by assumption.
    pose proof (Nat.div_mod_eq (c (sp_axis sp)) (sp_r sp)). nia.
  - unfold m'. rewrite axis_size_split_other, split_device_other by assumption. reflexivity.
Qed.

Lemma radix_split : forall c xs, avoids_new xs ->
  radix m' (split_device sp c) (split_axes sp xs) = radix m c xs.
Proof. intros c xs H. unfold radix. apply radix_split_acc. exact H. Qed.

Lemma prod_split : forall xs, avoids_new xs ->
  prod (map (axis_size m') (split_axes sp xs)) = prod (map (axis_size m) xs).
Proof.
  destruct (split_ok_parts m sp Hok) as [Hx [Hsz [Hq [Hr [Hhi [Hlo Hne]]]]]].
  intros xs. induction xs as [|y xs IH]; intros Hav; [reflexivity |].
  rewrite split_axes_cons, map_app, prod_app, IH by (intros z Hz; apply Hav; right; exact Hz).
  destruct (Hav y (or_introl eq_refl)) as [Hyhi Hylo]. simpl.
  destruct (Nat.eqb_spec y (sp_axis sp)) as [-> | Hyx]; simpl; unfold m'.
  - rewrite axis_size_split_hi, axis_size_split_lo, Hsz by assumption. ring.
  - rewrite axis_size_split_other by assumption. ring.
Qed.

End Split.

(** ** The refined mesh *)

Theorem split_mesh_wf : forall m sp, mesh_wf m = true -> split_ok m sp = true ->
  mesh_wf (split_mesh sp m) = true.
Proof.
  intros m sp Hm Hok. destruct (split_ok_parts m sp Hok) as [_ [_ [Hq [Hr [Hhi [Hlo Hne]]]]]].
  unfold mesh_wf in *. apply andb_true_iff in Hm. destruct Hm as [Hnd Hpos].
  apply andb_true_iff. split.
  - rewrite mesh_axes_split. apply nodupb_NoDup. apply nodupb_NoDup in Hnd.
    apply NoDup_split_axes; assumption.
  - rewrite forallb_forall in *. intros p Hp. unfold split_mesh in Hp.
    apply in_flat_map in Hp. destruct Hp as [p0 [Hp0 Hp]].
    destruct (fst p0 =? sp_axis sp).
    + apply Nat.leb_le. destruct Hp as [<- | [<- | []]]; simpl; assumption.
    + destruct Hp as [<- | []]. auto.
Qed.

Theorem split_mesh_size : forall m sp, mesh_wf m = true -> split_ok m sp = true ->
  mesh_size (split_mesh sp m) = mesh_size m.
Proof.
  intros m sp Hm Hok. rewrite !mesh_size_prod by (auto using split_mesh_wf).
  rewrite mesh_axes_split. apply prod_split; [exact Hok | apply mesh_axes_avoid_new, Hok].
Qed.

Theorem split_device_in : forall m sp c, mesh_wf m = true -> split_ok m sp = true ->
  device_in m c -> device_in (split_mesh sp m) (split_device sp c).
Proof.
  intros m sp c Hm Hok Hc y Hy.
  destruct (split_ok_parts m sp Hok) as [Hx [Hsz [Hq [Hr [Hhi [Hlo Hne]]]]]].
  rewrite mesh_axes_split, in_split_axes in Hy.
  destruct Hy as [[Hy Hyx] | [[-> | ->] _]].
  - assert (y <> sp_hi sp) by (intros ->; contradiction).
    assert (y <> sp_lo sp) by (intros ->; contradiction).
    rewrite split_device_other, axis_size_split_other by assumption. auto.
  - rewrite split_device_hi, axis_size_split_hi by assumption.
    apply Nat.div_lt_upper_bound; [lia |]. specialize (Hc _ Hx). nia.
  - rewrite split_device_lo, axis_size_split_lo by assumption. apply Nat.mod_upper_bound. lia.
Qed.

(** Stated for devices of [m], the ones that have a rank; the equation itself
    holds for every [c] ([radix_split]). *)
Theorem split_rank : forall m sp c, mesh_wf m = true -> split_ok m sp = true ->
  device_in m c -> rank (split_mesh sp m) (split_device sp c) = rank m c.
Proof.
  intros m sp c _ Hok _. unfold rank. rewrite mesh_axes_split.
  apply radix_split; [exact Hok | apply mesh_axes_avoid_new, Hok].
Qed.

(** ** Refined types *)

Lemma ty_axes_split : forall sp t, ty_axes (split_ty sp t) = split_axes sp (ty_axes t).
Proof.
  intros sp t. induction t as [|d t IH]; [reflexivity |].
  unfold ty_axes in *. simpl. rewrite IH, split_axes_app. reflexivity.
Qed.

Lemma dim_axes_in_mesh : forall m t xs n, ty_wf m t = true -> In (xs, n) t ->
  forall y, In y xs -> In y (mesh_axes m).
Proof.
  intros m t xs n Ht Hd y Hy. apply (ty_wf_axes_in_mesh m t Ht). unfold ty_axes.
  apply in_flat_map. exists (xs, n). auto.
Qed.

Lemma split_shards : forall m sp xs n, split_ok m sp = true ->
  (forall y, In y xs -> In y (mesh_axes m)) ->
  shards (split_mesh sp m) (split_axes sp xs, n) = shards m (xs, n).
Proof.
  intros m sp xs n Hok H. unfold shards. simpl. apply prod_split; [exact Hok |].
  apply (avoids_new_sub m sp Hok). exact H.
Qed.

Lemma split_extent : forall m sp xs n, split_ok m sp = true ->
  (forall y, In y xs -> In y (mesh_axes m)) ->
  extent (split_mesh sp m) (split_axes sp xs, n) = extent m (xs, n).
Proof. intros. unfold extent. rewrite split_shards by assumption. reflexivity. Qed.

Theorem split_ty_wf : forall m sp t, mesh_wf m = true -> split_ok m sp = true ->
  ty_wf m t = true -> ty_wf (split_mesh sp m) (split_ty sp t) = true.
Proof.
  intros m sp t Hm Hok Ht. destruct (split_ok_parts m sp Hok) as [_ [_ [_ [_ [Hhi [Hlo Hne]]]]]].
  unfold ty_wf. apply andb_true_iff. split.
  - apply forallb_forall. intros d' Hd'. unfold split_ty in Hd'. apply in_map_iff in Hd'.
    destruct Hd' as [[xs n] [<- Hd]]. simpl.
    pose proof (dim_axes_in_mesh m t xs n Ht Hd) as Hxs.
    pose proof (ty_wf_dims m t Ht _ Hd) as Hw. unfold dim_wf in *. simpl in *.
    rewrite split_shards by assumption.
    apply andb_true_iff in Hw. destruct Hw as [Hw H3]. apply andb_true_iff in Hw.
    destruct Hw as [_ H2]. rewrite H2, H3, andb_true_r, andb_true_r.
    apply forallb_forall. intros y Hy. apply memb_In. rewrite mesh_axes_split.
    apply in_split_axes. apply in_split_axes in Hy.
    destruct Hy as [[Hy Hyx] | [Hy Hx]]; [left | right]; auto.
  - rewrite ty_axes_split. apply nodupb_NoDup. apply NoDup_split_axes; auto.
    + apply ty_wf_NoDup with m. exact Ht.
    + intros H. apply Hhi. apply (ty_wf_axes_in_mesh m t Ht). exact H.
    + intros H. apply Hlo. apply (ty_wf_axes_in_mesh m t Ht). exact H.
Qed.

Theorem split_local_shape : forall m sp t, mesh_wf m = true -> split_ok m sp = true ->
  ty_wf m t = true -> local_shape (split_mesh sp m) (split_ty sp t) = local_shape m t.
Proof.
  intros m sp t Hm Hok Ht. unfold local_shape, split_ty. rewrite map_map.
  apply map_ext_in. intros [xs n] Hd. apply split_extent; [exact Hok |].
  eapply dim_axes_in_mesh; eassumption.
Qed.

Lemma split_box_index_gen : forall m sp t c l, split_ok m sp = true ->
  (forall xs n, In (xs, n) t -> forall y, In y xs -> In y (mesh_axes m)) ->
  box_index (split_mesh sp m) (split_ty sp t) (split_device sp c) l = box_index m t c l.
Proof.
  intros m sp t c l Hok. revert l. induction t as [|[xs n] t IH]; intros [|i l] H; auto.
  simpl. f_equal.
  - unfold offset. simpl. rewrite split_extent, radix_split by
      (first [exact Hok | apply (avoids_new_sub m sp Hok) | idtac];
       apply (H xs n); left; reflexivity).
    reflexivity.
  - apply IH. intros xs' n' Hd. apply (H xs' n'). right. exact Hd.
Qed.

Theorem split_box_index : forall m sp t c l, mesh_wf m = true -> split_ok m sp = true ->
  ty_wf m t = true -> device_in m c ->
  box_index (split_mesh sp m) (split_ty sp t) (split_device sp c) l = box_index m t c l.
Proof.
  intros m sp t c l _ Hok Ht _. apply split_box_index_gen; [exact Hok |].
  intros xs n Hd. eapply dim_axes_in_mesh; eassumption.
Qed.

(** The device of rank [r] on the refined mesh holds the box that the device
    of rank [r] holds on [m]. *)
Lemma split_box_index_of_rank : forall m sp t r l, mesh_wf m = true -> split_ok m sp = true ->
  ty_wf m t = true -> r < mesh_size m ->
  box_index (split_mesh sp m) (split_ty sp t) (device_of_rank (split_mesh sp m) r) l
  = box_index m t (device_of_rank m r) l.
Proof.
  intros m sp t r l Hm Hok Ht Hr.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hm' : mesh_wf (split_mesh sp m) = true) by (apply split_mesh_wf; assumption).
  assert (Hc' : device_in (split_mesh sp m) (split_device sp c))
    by (apply split_device_in; assumption).
  assert (Hrank : rank (split_mesh sp m) (split_device sp c) = r).
  { rewrite split_rank by assumption. apply rank_device_of_rank; assumption. }
  rewrite <- (split_box_index m sp t c l Hm Hok Ht Hc).
  rewrite <- Hrank at 1. apply box_index_device_of_rank; auto. apply split_ty_wf; assumption.
Qed.

Theorem split_holds : forall A m sp t (g : list nat -> A) (st : state A),
  mesh_wf m = true -> split_ok m sp = true -> ty_wf m t = true ->
  (holds m t g st <-> holds (split_mesh sp m) (split_ty sp t) g st).
Proof.
  intros A m sp t g st Hm Hok Ht. unfold holds.
  rewrite split_mesh_size, split_local_shape by assumption. split.
  - intros H r Hr l Hl. rewrite split_box_index_of_rank by assumption. auto.
  - intros H r Hr l Hl. rewrite <- split_box_index_of_rank with (sp := sp) by assumption. auto.
Qed.

(** ** Refinements: sequences of splits *)

Theorem refine_mesh_wf : forall rf m, mesh_wf m = true -> refine_ok m rf = true ->
  mesh_wf (refine_mesh rf m) = true.
Proof.
  induction rf as [|sp rf IH]; intros m Hm Hok; [exact Hm |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  apply IH; [apply split_mesh_wf |]; assumption.
Qed.

Theorem refine_mesh_size : forall rf m, mesh_wf m = true -> refine_ok m rf = true ->
  mesh_size (refine_mesh rf m) = mesh_size m.
Proof.
  induction rf as [|sp rf IH]; intros m Hm Hok; [reflexivity |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  simpl. rewrite IH by (auto using split_mesh_wf). apply split_mesh_size; assumption.
Qed.

Theorem refine_device_in : forall rf m c, mesh_wf m = true -> refine_ok m rf = true ->
  device_in m c -> device_in (refine_mesh rf m) (refine_device rf c).
Proof.
  induction rf as [|sp rf IH]; intros m c Hm Hok Hc; [exact Hc |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  apply IH; auto using split_mesh_wf, split_device_in.
Qed.

Theorem refine_rank : forall rf m c, mesh_wf m = true -> refine_ok m rf = true ->
  device_in m c -> rank (refine_mesh rf m) (refine_device rf c) = rank m c.
Proof.
  induction rf as [|sp rf IH]; intros m c Hm Hok Hc; [reflexivity |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  simpl. rewrite IH by (auto using split_mesh_wf, split_device_in).
  apply split_rank; assumption.
Qed.

Theorem refine_ty_wf : forall rf m t, mesh_wf m = true -> refine_ok m rf = true ->
  ty_wf m t = true -> ty_wf (refine_mesh rf m) (refine_ty rf t) = true.
Proof.
  induction rf as [|sp rf IH]; intros m t Hm Hok Ht; [exact Ht |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  apply IH; auto using split_mesh_wf, split_ty_wf.
Qed.

Theorem refine_local_shape : forall rf m t, mesh_wf m = true -> refine_ok m rf = true ->
  ty_wf m t = true -> local_shape (refine_mesh rf m) (refine_ty rf t) = local_shape m t.
Proof.
  induction rf as [|sp rf IH]; intros m t Hm Hok Ht; [reflexivity |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  simpl. rewrite IH by (auto using split_mesh_wf, split_ty_wf).
  apply split_local_shape; assumption.
Qed.

Theorem refine_local_size : forall rf m t, mesh_wf m = true -> refine_ok m rf = true ->
  ty_wf m t = true -> local_size (refine_mesh rf m) (refine_ty rf t) = local_size m t.
Proof. intros. unfold local_size. f_equal. apply refine_local_shape; assumption. Qed.

Theorem refine_global_shape : forall rf t, global_shape (refine_ty rf t) = global_shape t.
Proof.
  induction rf as [|sp rf IH]; intros t; [reflexivity |]. simpl. rewrite IH.
  unfold global_shape, split_ty. rewrite map_map. reflexivity.
Qed.

Theorem refine_holds : forall A rf m t (g : list nat -> A) (st : state A),
  mesh_wf m = true -> refine_ok m rf = true -> ty_wf m t = true ->
  (holds m t g st <-> holds (refine_mesh rf m) (refine_ty rf t) g st).
Proof.
  intros A rf. induction rf as [|sp rf IH]; intros m t g st Hm Hok Ht; [reflexivity |].
  simpl in Hok. apply andb_true_iff in Hok. destruct Hok as [Hsp Hrf].
  simpl. rewrite (split_holds A m sp t g st Hm Hsp Ht).
  apply IH; auto using split_mesh_wf, split_ty_wf.
Qed.
