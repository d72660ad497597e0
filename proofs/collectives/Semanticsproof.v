(** * Soundness of the collectives.

    Each collective, run on a state where every device holds its box of the
    global array under the old type, yields a state where every device holds
    its box under the new type.  The data movement [wire] never mentions the
    new type's boxes, so this is the mixed-radix offset arithmetic of
    [docs/model.md] made precise. *)

From Coq Require Import List Arith Lia Bool Permutation.
Import ListNotations.
From Redist Require Import Model Semantics Radix.

(** ** Lists without duplicates *)

Lemma NoDup_app_inv : forall (xs ys : list nat), NoDup (xs ++ ys) ->
  NoDup xs /\ NoDup ys /\ (forall a, In a xs -> ~ In a ys).
Proof.
  induction xs as [|x xs IH]; intros ys H; simpl in *.
  - split; [constructor | split; [exact H | tauto]].
  - inversion H as [| ? ? Hx Hnd]. subst.
    destruct (IH ys Hnd) as [H1 [H2 H3]]. split; [| split].
    + constructor; [intros Hin; apply Hx, in_or_app; left; exact Hin | exact H1].
    + exact H2.
    + intros a [<- | Ha] Hay; [apply Hx, in_or_app; right; exact Hay | exact (H3 a Ha Hay)].
Qed.

Lemma NoDup_snoc_notin : forall (ys : list nat) a, NoDup (ys ++ [a]) -> ~ In a ys.
Proof.
  intros ys a H Ha. apply NoDup_app_inv in H. destruct H as [_ [_ H]].
  apply (H a Ha). left. reflexivity.
Qed.

Lemma In_ty_axes : forall t e a, In e t -> In a (fst e) -> In a (ty_axes t).
Proof. intros t e a He Ha. apply in_flat_map. exists e. split; assumption. Qed.

(** The axes of one dimension are distinct. *)
Lemma dim_axes_NoDup : forall t e, NoDup (ty_axes t) -> In e t -> NoDup (fst e).
Proof.
  induction t as [|e' t IH]; intros e Hnd He; [contradiction |].
  simpl in Hnd. apply NoDup_app_inv in Hnd. destruct Hnd as [H1 [H2 _]].
  destruct He as [<- | He]; [exact H1 | apply IH; assumption].
Qed.

(** Two distinct dimensions share no axis. *)
Lemma ty_axes_disjoint : forall (t : ty) i j a, NoDup (ty_axes t) ->
  i < length t -> j < length t -> i <> j ->
  In a (fst (nth i t ([], 0))) -> ~ In a (fst (nth j t ([], 0))).
Proof.
  induction t as [|e t IH]; intros i j a Hnd Hi Hj Hij Ha; simpl in *; [lia |].
  apply NoDup_app_inv in Hnd. destruct Hnd as [_ [Hnd Hdis]].
  destruct i as [|i], j as [|j]; try lia.
  - intros Hb. apply (Hdis a Ha). apply (In_ty_axes t (nth j t ([], 0)) a); [apply nth_In; lia | exact Hb].
  - intros Hb. apply (Hdis a Hb). apply (In_ty_axes t (nth i t ([], 0)) a); [apply nth_In; lia | exact Ha].
  - apply (IH i j); auto; lia.
Qed.

Lemma ty_axes_upd : forall t d e v, nth_error t d = Some e ->
  exists A B, ty_axes t = A ++ fst e ++ B /\ ty_axes (upd t d v) = A ++ fst v ++ B.
Proof.
  intros t d e v H. destruct (upd_split _ t d v e H) as [H1 H2].
  exists (ty_axes (firstn d t)), (ty_axes (skipn (S d) t)). unfold ty_axes.
  rewrite H2, H1 at 1. rewrite !flat_map_app. simpl. split; reflexivity.
Qed.

(** ** Well-formed dimensions *)

Lemma dim_wf_iff : forall m xs n, dim_wf m (xs, n) = true <->
  (forall x, In x xs -> In x (mesh_axes m)) /\ 1 <= n
  /\ n mod prod (map (axis_size m) xs) = 0.
Proof.
  intros m xs n. unfold dim_wf, shards.
  rewrite !andb_true_iff, forallb_forall, Nat.leb_le, Nat.eqb_eq. simpl.
  split.
  - intros [[H1 H2] H3]. split; [| split; assumption].
    intros x Hx. apply memb_In. auto.
  - intros [H1 [H2 H3]]. split; [split |]; try assumption.
    intros x Hx. apply memb_In. auto.
Qed.

Lemma ty_wf_iff : forall m t, ty_wf m t = true <->
  forallb (dim_wf m) t = true /\ NoDup (ty_axes t).
Proof.
  intros m t. unfold ty_wf. rewrite andb_true_iff, nodupb_NoDup. reflexivity.
Qed.

Lemma shards_pos : forall m xs, mesh_wf m = true ->
  (forall x, In x xs -> In x (mesh_axes m)) -> 1 <= prod (map (axis_size m) xs).
Proof.
  intros m xs Hm H. apply prod_pos. intros s Hs. apply in_map_iff in Hs.
  destruct Hs as [x [<- Hx]]. apply mesh_wf_size_pos; auto.
Qed.

(** A well-formed dimension is [shards * extent] long, with extent at least 1. *)
Lemma dim_extent : forall m xs n, mesh_wf m = true -> dim_wf m (xs, n) = true ->
  n = prod (map (axis_size m) xs) * extent m (xs, n) /\ 1 <= extent m (xs, n)
  /\ 1 <= prod (map (axis_size m) xs).
Proof.
  intros m xs n Hm Hd. apply dim_wf_iff in Hd. destruct Hd as [Hx [Hn Hmod]].
  pose proof (shards_pos m xs Hm Hx) as HP.
  unfold extent, shards. simpl.
  pose proof (Nat.div_mod_eq n (prod (map (axis_size m) xs))) as E.
  rewrite Hmod, Nat.add_0_r in E. split; [exact E |]. split; [| exact HP]. nia.
Qed.

Lemma extent_snoc : forall m xs n x,
  extent m (xs ++ [x], n) = extent m (xs, n) / axis_size m x.
Proof.
  intros m xs n x. unfold extent, shards. simpl.
  rewrite map_app, prod_app. simpl. rewrite Nat.mul_1_r.
  destruct (Nat.eq_dec (axis_size m x) 0) as [-> | Hx];
    [rewrite Nat.mul_0_r; reflexivity |].
  destruct (Nat.eq_dec (prod (map (axis_size m) xs)) 0) as [-> | HP].
  - simpl. rewrite Nat.div_0_l by exact Hx. reflexivity.
  - symmetry. apply Nat.div_div; assumption.
Qed.

(** Dropping the last axis of a well-formed dimension multiplies its extent by that axis' size. *)
Lemma dim_wf_snoc_inv : forall m ys a n, mesh_wf m = true ->
  dim_wf m (ys ++ [a], n) = true ->
  dim_wf m (ys, n) = true /\ In a (mesh_axes m)
  /\ extent m (ys, n) = extent m (ys ++ [a], n) * axis_size m a.
Proof.
  intros m ys a n Hm Hd.
  destruct (dim_extent m (ys ++ [a]) n Hm Hd) as [E [He HP]].
  apply dim_wf_iff in Hd. destruct Hd as [Hx [Hn _]].
  rewrite map_app, prod_app in E, HP. simpl in E, HP.
  set (P := prod (map (axis_size m) ys)) in *.
  set (e := extent m (ys ++ [a], n)) in *.
  assert (Ha : In a (mesh_axes m)) by (apply Hx, in_or_app; right; left; reflexivity).
  assert (Hext : extent m (ys, n) = e * axis_size m a).
  { unfold extent, shards. simpl. fold P. rewrite E.
    replace (P * (axis_size m a * 1) * e) with ((e * axis_size m a) * P) by lia.
    apply Nat.div_mul. lia. }
  split; [| split; [exact Ha | exact Hext]].
  apply dim_wf_iff. split; [intros x Hx'; apply Hx, in_or_app; left; exact Hx' |].
  split; [exact Hn |]. fold P. rewrite E.
  replace (P * (axis_size m a * 1) * e) with ((axis_size m a * e) * P) by lia.
  apply Nat.mod_mul. lia.
Qed.

(** Adding an axis whose size divides the extent keeps a dimension well-formed. *)
Lemma dim_wf_snoc : forall m xs x n, mesh_wf m = true -> dim_wf m (xs, n) = true ->
  In x (mesh_axes m) -> extent m (xs, n) mod axis_size m x = 0 ->
  dim_wf m (xs ++ [x], n) = true
  /\ extent m (xs, n) = extent m (xs ++ [x], n) * axis_size m x.
Proof.
  intros m xs x n Hm Hd Hx Hdiv.
  destruct (dim_extent m xs n Hm Hd) as [E [He HP]].
  assert (Hsx : 1 <= axis_size m x) by (apply mesh_wf_size_pos; assumption).
  pose proof (Nat.div_mod_eq (extent m (xs, n)) (axis_size m x)) as Ee.
  rewrite Hdiv, Nat.add_0_r, <- extent_snoc in Ee.
  set (k := extent m (xs ++ [x], n)) in *.
  split; [| lia].
  apply dim_wf_iff in Hd. destruct Hd as [Hax [Hn _]].
  apply dim_wf_iff. split; [| split; [exact Hn |]].
  - intros y Hy. apply in_app_or in Hy. destruct Hy as [Hy | [<- | []]]; auto.
  - rewrite map_app, prod_app. simpl. rewrite E, Ee.
    set (P := prod (map (axis_size m) xs)).
    replace (P * (axis_size m x * k)) with (k * (P * (axis_size m x * 1))) by lia.
    apply Nat.mod_mul. nia.
Qed.

Lemma dim_of_nth_error : forall t d e, nth_error t d = Some e -> dim_of t d = e.
Proof. intros t d e H. unfold dim_of. apply nth_error_nth. exact H. Qed.

(** ** Well-formedness of the types after a step *)

Lemma ty_wf_slice : forall m t d xs n x, mesh_wf m = true -> ty_wf m t = true ->
  nth_error t d = Some (xs, n) -> In x (mesh_axes m) -> ~ In x (ty_axes t) ->
  extent m (xs, n) mod axis_size m x = 0 ->
  ty_wf m (upd t d (xs ++ [x], n)) = true.
Proof.
  intros m t d xs n x Hm Ht Hd Hx Hxt Hdiv.
  apply ty_wf_iff in Ht. destruct Ht as [Hdims Hnd]. apply ty_wf_iff. split.
  - apply forallb_upd; [exact Hdims |]. apply dim_wf_snoc; auto.
    rewrite forallb_forall in Hdims. apply Hdims. eapply nth_error_In. exact Hd.
  - destruct (ty_axes_upd t d (xs, n) (xs ++ [x], n) Hd) as [A [B [E1 E2]]].
    rewrite E2. simpl. rewrite E1 in Hnd, Hxt. simpl in Hnd, Hxt.
    rewrite <- app_assoc. simpl. rewrite app_assoc.
    apply Permutation_NoDup with (l := x :: (A ++ xs) ++ B).
    + apply Permutation_middle.
    + constructor; [rewrite <- app_assoc; exact Hxt | rewrite <- app_assoc; exact Hnd].
Qed.

Lemma ty_wf_gather : forall m t d ys a n, mesh_wf m = true -> ty_wf m t = true ->
  nth_error t d = Some (ys ++ [a], n) ->
  ty_wf m (upd t d (ys, n)) = true /\ ~ In a (ty_axes (upd t d (ys, n))).
Proof.
  intros m t d ys a n Hm Ht Hd.
  apply ty_wf_iff in Ht. destruct Ht as [Hdims Hnd].
  destruct (ty_axes_upd t d (ys ++ [a], n) (ys, n) Hd) as [A [B [E1 E2]]].
  rewrite E1 in Hnd. simpl in Hnd. rewrite <- app_assoc, app_assoc in Hnd. simpl in Hnd.
  apply NoDup_remove in Hnd. destruct Hnd as [Hnd Ha].
  rewrite E2. simpl. rewrite app_assoc. split; [| exact Ha].
  apply ty_wf_iff. split; [| rewrite E2, app_assoc; exact Hnd].
  apply forallb_upd; [exact Hdims |]. apply (dim_wf_snoc_inv m ys a n Hm).
  rewrite forallb_forall in Hdims. apply Hdims. eapply nth_error_In. exact Hd.
Qed.

Theorem step_type_wf : forall m t k t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t k = OK t' -> ty_wf m t' = true /\ global_shape t' = global_shape t.
Proof.
  intros m t k t' Hm Ht Hk. destruct k as [d x | d | s u | t''].
  - simpl in Hk. destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (memb x (mesh_axes m)) eqn:Hx; simpl in Hk; [| discriminate].
    destruct (memb x (ty_axes t)) eqn:Hxt; [discriminate |].
    destruct (extent m (xs, n) mod axis_size m x =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
    inversion Hk. subst. clear Hk. split.
    + apply memb_In in Hx. apply memb_false_notIn in Hxt. apply Nat.eqb_eq in Hdiv.
      eapply ty_wf_slice; eassumption.
    + unfold global_shape, set_dim. eapply map_upd_same_image; [exact Hd | reflexivity].
  - simpl in Hk. destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (split_last xs) as [[ys a]|] eqn:Hs; [| discriminate].
    inversion Hk. subst. clear Hk. apply split_last_app in Hs. subst xs. split.
    + apply (ty_wf_gather m t d ys a n); assumption.
    + unfold global_shape, set_dim. eapply map_upd_same_image; [exact Hd | reflexivity].
  - simpl in Hk. destruct (Nat.eqb_spec s u) as [_ | Hsu]; [discriminate |].
    destruct (nth_error t s) as [[xs ns]|] eqn:Hs; [| discriminate].
    destruct (nth_error t u) as [[ys nu]|] eqn:Hu; [| discriminate].
    destruct (split_last xs) as [[xs' a]|] eqn:Hsl; [| discriminate].
    destruct (extent m (ys, nu) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
    inversion Hk. subst. clear Hk. apply split_last_app in Hsl. subst xs.
    apply Nat.eqb_eq in Hdiv. unfold set_dim.
    destruct (ty_wf_gather m t s xs' a ns Hm Ht Hs) as [Ht1 Ha1].
    assert (Hu1 : nth_error (upd t s (xs', ns)) u = Some (ys, nu))
      by (rewrite nth_error_upd_other by exact Hsu; exact Hu).
    assert (Ha : In a (mesh_axes m)).
    { apply (ty_wf_axes_in_mesh m t Ht). eapply In_ty_axes; [eapply nth_error_In; exact Hs |].
      simpl. apply in_or_app. right. left. reflexivity. }
    split.
    + eapply ty_wf_slice; eassumption.
    + unfold global_shape. erewrite map_upd_same_image; [| exact Hu1 | reflexivity].
      eapply map_upd_same_image; [exact Hs | reflexivity].
  - simpl in Hk. destruct (ty_wf m t'') eqn:Hw; simpl in Hk; [| discriminate].
    destruct (list_eqb (global_shape t'') (global_shape t)) eqn:Hg; simpl in Hk; [| discriminate].
    destruct (list_eqb (local_shape m t'') (local_shape m t)) eqn:Hl; simpl in Hk; [| discriminate].
    inversion Hk. subst. split; [exact Hw |]. apply list_eqb_eq. exact Hg.
Qed.

(** [axis] and [nat] are the same type, but tactics that match terms
    syntactically ([set], [fold], rewriting with a hypothesis) need one
    spelling; this unfolds the synonyms everywhere. *)
Ltac norm_axis := unfold ty, dimty, axis in *.

(** ** Reading the old state *)

(** A device of the mesh finds its box at its rank. *)
Lemma holds_at_device : forall m t A (g : list nat -> A) (st : state A) c l,
  mesh_wf m = true -> ty_wf m t = true -> holds m t g st -> device_in m c ->
  in_box (local_shape m t) l -> st (rank m c) l = g (box_index m t c l).
Proof.
  intros m t A g st c l Hm Ht Hst Hc Hl.
  rewrite Hst by (try apply rank_lt; assumption).
  rewrite box_index_device_of_rank by assumption. reflexivity.
Qed.

(** The local shape at position [i] of an index that is in the box of [local_shape m t]. *)
Lemma in_box_local : forall m (t : ty) l, in_box (local_shape m t) l ->
  length l = length t /\ forall i, i < length t -> nth i l 0 < extent m (nth i t ([], 0)).
Proof.
  intros m t l H. apply in_box_nth in H. rewrite length_local_shape in H.
  destruct H as [H1 H2]. split; [exact H1 |]. intros i Hi.
  rewrite <- nth_local_shape. auto.
Qed.

Lemma in_box_local_intro : forall m (t : ty) l, length l = length t ->
  (forall i, i < length t -> nth i l 0 < extent m (nth i t ([], 0))) ->
  in_box (local_shape m t) l.
Proof.
  intros m t l H1 H2. apply in_box_nth. rewrite length_local_shape.
  split; [exact H1 |]. intros i Hi. rewrite nth_local_shape. auto.
Qed.

Lemma offset_set_coord_notin : forall m e c a v, ~ In a (fst e) ->
  offset m e (set_coord c a v) = offset m e c.
Proof.
  intros m e c a v H. unfold offset. rewrite radix_set_coord_notin by exact H. reflexivity.
Qed.

(** ** The four collectives *)

Theorem dyn_slice_sound : forall m t d x t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> step_type m t (DynSlice d x) = OK t' ->
  holds m t g st -> holds m t' g (exec_step m t (DynSlice d x) st).
Proof.
  intros m t d x t' A g st Hm Ht Hk Hst.
  simpl in Hk. destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (memb x (mesh_axes m)) eqn:Hx; simpl in Hk; [| discriminate].
  destruct (memb x (ty_axes t)) eqn:Hxt; [discriminate |].
  destruct (extent m (xs, n) mod axis_size m x =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  inversion Hk. subst t'. clear Hk.
  apply memb_In in Hx. apply Nat.eqb_eq in Hdiv.
  assert (Hdw : dim_wf m (xs, n) = true)
    by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hd]).
  destruct (dim_wf_snoc m xs x n Hm Hdw Hx Hdiv) as [_ He].
  assert (Hdlt : d < length t) by (apply nth_error_Some; congruence).
  pose proof (nth_error_nth t d ([], 0) Hd) as Hnd.
  intros r Hr l Hl. unfold exec_step, wire, set_dim.
  rewrite (dim_of_nth_error t d (xs, n) Hd), <- extent_snoc.
  cbv beta iota zeta.
  set (c := device_of_rank m r).
  norm_axis.
  set (e' := extent m (xs ++ [x], n)) in *.
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hcx : c x < axis_size m x) by (apply Hc; exact Hx).
  apply in_box_local in Hl. rewrite length_upd in Hl. destruct Hl as [Hlen Hl].
  assert (Hld : nth d l 0 < e').
  { specialize (Hl d Hdlt). rewrite nth_upd_same in Hl by exact Hdlt. exact Hl. }
  rewrite (holds_at_device m t A g st c); auto.
  - f_equal. apply box_index_pointwise.
    + apply length_upd.
    + rewrite length_upd. exact Hlen.
    + exact Hlen.
    + intros i Hi. destruct (Nat.eq_dec i d) as [-> | Hne].
      * rewrite !nth_upd_same by lia. norm_axis; rewrite Hnd.
        unfold offset. simpl fst. rewrite radix_app. norm_axis; fold e'. rewrite He. nia.
      * rewrite !nth_upd_other by lia. reflexivity.
  - apply in_box_local_intro; [rewrite length_upd; exact Hlen |].
    intros i Hi. destruct (Nat.eq_dec i d) as [-> | Hne].
    + rewrite nth_upd_same by lia. norm_axis; rewrite Hnd, He. nia.
    + rewrite nth_upd_other by lia. specialize (Hl i Hi).
      rewrite nth_upd_other in Hl by lia. exact Hl.
Qed.

(** An all-gather that type-checks removes the last axis [a] of dimension [d]. *)
Lemma all_gather_type_inv : forall m t d t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (AllGather d) = OK t' ->
  exists ys a n, nth_error t d = Some (ys ++ [a], n) /\ t' = set_dim t d (ys, n)
    /\ In a (mesh_axes m) /\ extent m (ys, n) = extent m (ys ++ [a], n) * axis_size m a
    /\ 1 <= extent m (ys ++ [a], n).
Proof.
  intros m t d t' Hm Ht Hk.
  simpl in Hk. destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (split_last xs) as [[ys a]|] eqn:Hs; [| discriminate].
  inversion Hk. apply split_last_app in Hs. subst xs.
  assert (Hdw : dim_wf m (ys ++ [a], n) = true)
    by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hd]).
  destruct (dim_wf_snoc_inv m ys a n Hm Hdw) as [_ [Ha He]].
  destruct (dim_extent m (ys ++ [a]) n Hm Hdw) as [_ [Hepos _]].
  exists ys, a, n. auto.
Qed.

Theorem all_gather_sound : forall m t d t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> step_type m t (AllGather d) = OK t' ->
  holds m t g st -> holds m t' g (exec_step m t (AllGather d) st).
Proof.
  intros m t d t' A g st Hm Ht Hk Hst.
  destruct (all_gather_type_inv m t d t' Hm Ht Hk) as [ys [a [n [Hd [-> [Ha [He Hepos]]]]]]].
  assert (Hdlt : d < length t) by (apply nth_error_Some; congruence).
  pose proof (nth_error_nth t d ([], 0) Hd) as Hnd.
  assert (Hnd_a : NoDup (ys ++ [a])).
  { apply (dim_axes_NoDup t (ys ++ [a], n)); [apply (ty_wf_NoDup m); exact Ht |].
    eapply nth_error_In. exact Hd. }
  assert (Hays : ~ In a ys)
    by (apply NoDup_snoc_notin; exact Hnd_a).
  assert (Hother : forall i, i < length t -> i <> d -> ~ In a (fst (nth i t ([], 0)))).
  { intros i Hi Hne. apply (ty_axes_disjoint t d i a); auto.
    - apply (ty_wf_NoDup m). exact Ht.
    - norm_axis; rewrite Hnd. simpl. apply in_or_app. right. left. reflexivity. }
  intros r Hr l Hl. unfold exec_step, wire, set_dim, last_axis.
  rewrite (dim_of_nth_error t d _ Hd). simpl fst. rewrite last_axis_app.
  cbv beta iota zeta.
  set (c := device_of_rank m r).
  norm_axis.
  set (e := extent m (ys ++ [a], n)) in *.
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  apply in_box_local in Hl. rewrite length_upd in Hl. destruct Hl as [Hlen Hl].
  assert (Hld : nth d l 0 < e * axis_size m a).
  { specialize (Hl d Hdlt). rewrite nth_upd_same in Hl by exact Hdlt. rewrite <- He. exact Hl. }
  assert (Hq : nth d l 0 / e < axis_size m a) by (apply Nat.div_lt_upper_bound; lia).
  pose proof (Nat.div_mod_eq (nth d l 0) e) as Hdm.
  pose proof (Nat.mod_upper_bound (nth d l 0) e ltac:(lia)) as Hmod.
  rewrite (holds_at_device m t A g st); auto.
  - f_equal. apply box_index_pointwise.
    + apply length_upd.
    + rewrite length_upd. exact Hlen.
    + exact Hlen.
    + intros i Hi. destruct (Nat.eq_dec i d) as [-> | Hne].
      * rewrite !nth_upd_same by lia. norm_axis; rewrite Hnd.
        unfold offset. simpl fst. rewrite radix_app, set_coord_same.
        rewrite radix_set_coord_notin by exact Hays. norm_axis; fold e. rewrite He. nia.
      * rewrite !nth_upd_other by lia.
        rewrite offset_set_coord_notin by (apply Hother; assumption). reflexivity.
  - apply device_in_set_coord; assumption.
  - apply in_box_local_intro; [rewrite length_upd; exact Hlen |].
    intros i Hi. destruct (Nat.eq_dec i d) as [-> | Hne].
    + rewrite nth_upd_same by lia. norm_axis; rewrite Hnd. exact Hmod.
    + rewrite nth_upd_other by lia. specialize (Hl i Hi).
      rewrite nth_upd_other in Hl by lia. exact Hl.
Qed.

(** An all-to-all that type-checks moves the last axis [a] of dimension [s] to the end of [u]. *)
Lemma all_to_all_type_inv : forall m t s u t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (AllToAll s u) = OK t' ->
  exists xs' a ns ys nu, s <> u /\ nth_error t s = Some (xs' ++ [a], ns) /\ nth_error t u = Some (ys, nu)
    /\ extent m (ys, nu) mod axis_size m a = 0
    /\ t' = set_dim (set_dim t s (xs', ns)) u (ys ++ [a], nu)
    /\ In a (mesh_axes m) /\ extent m (xs', ns) = extent m (xs' ++ [a], ns) * axis_size m a
    /\ 1 <= extent m (xs' ++ [a], ns).
Proof.
  intros m t s u t' Hm Ht Hk.
  simpl in Hk. destruct (Nat.eqb_spec s u) as [_ | Hsu]; [discriminate |].
  destruct (nth_error t s) as [[xs ns]|] eqn:Hs; [| discriminate].
  destruct (nth_error t u) as [[ys nu]|] eqn:Hu; [| discriminate].
  destruct (split_last xs) as [[xs' a]|] eqn:Hsl; [| discriminate].
  destruct (extent m (ys, nu) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  inversion Hk. apply split_last_app in Hsl. subst xs. apply Nat.eqb_eq in Hdiv.
  assert (Hdws : dim_wf m (xs' ++ [a], ns) = true)
    by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hs]).
  destruct (dim_wf_snoc_inv m xs' a ns Hm Hdws) as [_ [Ha Hes]].
  destruct (dim_extent m (xs' ++ [a]) ns Hm Hdws) as [_ [Hespos _]].
  exists xs', a, ns, ys, nu. auto 10.
Qed.

Theorem all_to_all_sound : forall m t s u t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> step_type m t (AllToAll s u) = OK t' ->
  holds m t g st -> holds m t' g (exec_step m t (AllToAll s u) st).
Proof.
  intros m t s u t' A g st Hm Ht Hk Hst.
  destruct (all_to_all_type_inv m t s u t' Hm Ht Hk)
    as [xs' [a [ns [ys [nu [Hsu [Hs [Hu [Hdiv [-> [Ha [Hes Hespos]]]]]]]]]]]].
  assert (Hdwu : dim_wf m (ys, nu) = true)
    by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hu]).
  destruct (dim_wf_snoc m ys a nu Hm Hdwu Ha Hdiv) as [_ Heu].
  assert (Hslt : s < length t) by (apply nth_error_Some; congruence).
  assert (Hult : u < length t) by (apply nth_error_Some; congruence).
  pose proof (nth_error_nth t s ([], 0) Hs) as Hns.
  pose proof (nth_error_nth t u ([], 0) Hu) as Hnu.
  assert (Hnd : NoDup (ty_axes t)) by (apply (ty_wf_NoDup m); exact Ht).
  assert (Hnd_a : NoDup (xs' ++ [a])).
  { apply (dim_axes_NoDup t (xs' ++ [a], ns)); [exact Hnd |]. eapply nth_error_In. exact Hs. }
  assert (Haxs : ~ In a xs')
    by (apply NoDup_snoc_notin; exact Hnd_a).
  assert (Hother : forall i, i < length t -> i <> s -> ~ In a (fst (nth i t ([], 0)))).
  { intros i Hi Hne. apply (ty_axes_disjoint t s i a); auto.
    norm_axis; rewrite Hns. simpl. apply in_or_app. right. left. reflexivity. }
  assert (Hays : ~ In a ys) by (pose proof (Hother u Hult (not_eq_sym Hsu)) as H; norm_axis; rewrite Hnu in H; exact H).
  intros r Hr l Hl. unfold exec_step, wire, set_dim, last_axis.
  rewrite (dim_of_nth_error t s _ Hs), (dim_of_nth_error t u _ Hu). simpl fst.
  rewrite last_axis_app, <- extent_snoc.
  cbv beta iota zeta.
  set (c := device_of_rank m r).
  norm_axis.
  set (es := extent m (xs' ++ [a], ns)) in *.
  set (eu := extent m (ys ++ [a], nu)) in *.
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hca : c a < axis_size m a) by (apply Hc; exact Ha).
  apply in_box_local in Hl. rewrite !length_upd in Hl. destruct Hl as [Hlen Hl]. norm_axis.
  assert (Hlt' : forall i, i < length t -> nth i (upd (upd t s (xs', ns)) u (ys ++ [a], nu)) ([], 0)
     = if Nat.eq_dec i u then (ys ++ [a], nu) else if Nat.eq_dec i s then (xs', ns)
       else nth i t ([], 0)).
  { intros i Hi. destruct (Nat.eq_dec i u) as [-> | Hiu].
    - apply nth_upd_same. rewrite length_upd. exact Hult.
    - rewrite nth_upd_other by lia. destruct (Nat.eq_dec i s) as [-> | His].
      + apply nth_upd_same. exact Hslt.
      + apply nth_upd_other. lia. }
  assert (Hls : nth s l 0 < es * axis_size m a).
  { specialize (Hl s Hslt). rewrite Hlt' in Hl by exact Hslt.
    destruct (Nat.eq_dec s u); [lia |]. destruct (Nat.eq_dec s s); [| lia].
    rewrite <- Hes. exact Hl. }
  assert (Hlu : nth u l 0 < eu).
  { specialize (Hl u Hult). rewrite Hlt' in Hl by exact Hult.
    destruct (Nat.eq_dec u u); [exact Hl | lia]. }
  assert (Hq : nth s l 0 / es < axis_size m a) by (apply Nat.div_lt_upper_bound; lia).
  pose proof (Nat.div_mod_eq (nth s l 0) es) as Hdm.
  pose proof (Nat.mod_upper_bound (nth s l 0) es ltac:(lia)) as Hmod.
  assert (Hl' : forall i, i < length t ->
    nth i (upd (upd l s (nth s l 0 mod es)) u (c a * eu + nth u l 0)) 0
    = if Nat.eq_dec i u then c a * eu + nth u l 0
      else if Nat.eq_dec i s then nth s l 0 mod es else nth i l 0).
  { intros i Hi. destruct (Nat.eq_dec i u) as [-> | Hiu].
    - apply nth_upd_same. rewrite length_upd. lia.
    - rewrite nth_upd_other by lia. destruct (Nat.eq_dec i s) as [-> | His].
      + apply nth_upd_same. lia.
      + apply nth_upd_other. lia. }
  rewrite (holds_at_device m t A g st); auto.
  - f_equal. apply box_index_pointwise.
    + rewrite !length_upd. reflexivity.
    + rewrite !length_upd. exact Hlen.
    + exact Hlen.
    + intros i Hi. rewrite Hlt', Hl' by exact Hi.
      destruct (Nat.eq_dec i u) as [-> | Hiu]; [| destruct (Nat.eq_dec i s) as [-> | His]].
      * norm_axis; rewrite Hnu. unfold offset. simpl fst. rewrite radix_app.
        rewrite radix_set_coord_notin by exact Hays. norm_axis; fold eu. rewrite Heu. nia.
      * norm_axis; rewrite Hns. unfold offset. simpl fst. rewrite radix_app, set_coord_same.
        rewrite radix_set_coord_notin by exact Haxs. norm_axis; fold es. rewrite Hes. nia.
      * rewrite offset_set_coord_notin by (apply Hother; assumption). reflexivity.
  - apply device_in_set_coord; assumption.
  - apply in_box_local_intro; [rewrite !length_upd; exact Hlen |].
    intros i Hi. rewrite Hl' by exact Hi.
    destruct (Nat.eq_dec i u) as [-> | Hiu]; [| destruct (Nat.eq_dec i s) as [-> | His]].
    + norm_axis; rewrite Hnu, Heu. nia.
    + norm_axis; rewrite Hns. exact Hmod.
    + specialize (Hl i Hi). rewrite Hlt' in Hl by exact Hi.
      destruct (Nat.eq_dec i u); [lia |]. destruct (Nat.eq_dec i s); [lia |]. exact Hl.
Qed.

(** ** The permute: the holder of a box *)

Section Holder.
Variable m : mesh.

Lemma holder_from_notin : forall t t' c0 c y, ~ In y (ty_axes t) ->
  holder_from m t t' c0 c y = c y.
Proof.
  induction t as [|[xs n] r IH]; intros [|[ys n'] r'] c0 c y Hy; simpl; auto.
  simpl in Hy. rewrite IH by (intros H; apply Hy, in_or_app; right; exact H).
  apply set_radix_notin. intros H. apply Hy, in_or_app. left. exact H.
Qed.

(** The chunk index [c0] has under [t'] fits in the dimension of [t]. *)
Definition chunk_fits (c0 : device) (d d' : dimty) : Prop :=
  radix m c0 (fst d') < shards m d.

Lemma holder_from_in : forall t t' c0 c, Forall2 (chunk_fits c0) t t' ->
  device_in m c -> device_in m (holder_from m t t' c0 c).
Proof.
  intros t t' c0 c H. revert c. induction H as [| [xs n] [ys n'] r r' Hd Hr IH]; intros c Hc.
  - exact Hc.
  - simpl. apply IH. apply device_in_set_radix; [exact Hc | exact Hd].
Qed.

Lemma holder_from_radix : forall t t' c0 c, Forall2 (chunk_fits c0) t t' ->
  NoDup (ty_axes t) ->
  Forall2 (fun d d' => radix m (holder_from m t t' c0 c) (fst d) = radix m c0 (fst d')) t t'.
Proof.
  intros t t' c0 c H. revert c.
  induction H as [| [xs n] [ys n'] r r' Hd Hr IH]; intros c Hnd; constructor.
  - simpl in Hnd |- *. apply NoDup_app_inv in Hnd. destruct Hnd as [Hxs [_ Hdis]].
    rewrite (radix_ext m _ (set_radix m xs (radix m c0 ys) c)).
    + apply radix_set_radix; [exact Hxs | exact Hd].
    + intros x Hx. apply holder_from_notin. apply Hdis. exact Hx.
  - simpl in Hnd |- *. apply NoDup_app_inv in Hnd. apply IH. apply Hnd.
Qed.

End Holder.

Lemma Forall2_conj : forall A B (P Q : A -> B -> Prop) l l',
  Forall2 P l l' -> Forall2 Q l l' -> Forall2 (fun a b => P a b /\ Q a b) l l'.
Proof.
  intros A B P Q l l' H. induction H as [| a b l l' Hab Hl IH]; intros HQ; [constructor |].
  inversion HQ. subst. constructor; auto.
Qed.

Lemma Forall2_weaken : forall A B (P Q : A -> B -> Prop) l l',
  (forall a b, P a b -> Q a b) -> Forall2 P l l' -> Forall2 Q l l'.
Proof.
  intros A B P Q l l' HPQ H. induction H; constructor; auto.
Qed.

Lemma box_index_forall2 : forall m t t' c c' l,
  Forall2 (fun d d' => offset m d c = offset m d' c') t t' ->
  box_index m t c l = box_index m t' c' l.
Proof.
  intros m t t' c c' l H. revert l.
  induction H as [| d d' r r' Hd Hr IH]; intros [|i l]; simpl; auto.
  rewrite Hd, IH. reflexivity.
Qed.

(** Two well-formed types with the same global and local shapes have the same shard counts. *)
Lemma same_shapes_dims : forall m t t', mesh_wf m = true ->
  forallb (dim_wf m) t = true -> forallb (dim_wf m) t' = true ->
  global_shape t' = global_shape t -> local_shape m t' = local_shape m t ->
  Forall2 (fun d d' => extent m d = extent m d' /\ shards m d = shards m d'
                       /\ forall x, In x (fst d') -> In x (mesh_axes m)) t t'.
Proof.
  intros m t. induction t as [|[xs n] t IH]; intros [|[ys n'] t'] Hm Ht Ht' Hg Hl;
    simpl in *; try discriminate; [constructor |].
  apply andb_true_iff in Ht, Ht'. destruct Ht as [Hd Ht]. destruct Ht' as [Hd' Ht'].
  injection Hg as Hn Hg. injection Hl as Hext Hl. subst n'.
  constructor; [| apply IH; assumption].
  destruct (dim_extent m xs n Hm Hd) as [E [He _]].
  destruct (dim_extent m ys n Hm Hd') as [E' _].
  split; [symmetry; exact Hext |]. split.
  - unfold shards. simpl. apply (Nat.mul_cancel_r _ _ (extent m (xs, n))); [lia |].
    rewrite <- E. rewrite Hext in E'. exact E'.
  - apply dim_wf_iff in Hd'. apply Hd'.
Qed.

Theorem all_permute_sound : forall m t t'' t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> step_type m t (AllPermute t'') = OK t' ->
  holds m t g st -> holds m t' g (exec_step m t (AllPermute t'') st).
Proof.
  intros m t t'' t' A g st Hm Ht Hk Hst.
  simpl in Hk. destruct (ty_wf m t'') eqn:Hw; simpl in Hk; [| discriminate].
  destruct (list_eqb (global_shape t'') (global_shape t)) eqn:Hg; simpl in Hk; [| discriminate].
  destruct (list_eqb (local_shape m t'') (local_shape m t)) eqn:Hls; simpl in Hk; [| discriminate].
  inversion Hk. subst t'. clear Hk. apply list_eqb_eq in Hg, Hls.
  pose proof Ht as Ht0. pose proof Hw as Hw0.
  apply ty_wf_iff in Ht0, Hw0. destruct Ht0 as [Hdt Hnd]. destruct Hw0 as [Hdt' _].
  pose proof (same_shapes_dims m t t'' Hm Hdt Hdt' Hg Hls) as Hdims.
  intros r Hr l Hl. unfold exec_step, wire. cbv beta iota.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hfit : Forall2 (chunk_fits m c) t t'').
  { eapply Forall2_weaken; [| exact Hdims]. intros d d' [_ [Hsh Hax]].
    unfold chunk_fits. rewrite Hsh. apply radix_lt. intros x Hx. apply Hc, Hax, Hx. }
  unfold holder.
  rewrite (holds_at_device m t A g st); auto.
  - f_equal. apply box_index_forall2.
    pose proof (holder_from_radix m t t'' c c Hfit Hnd) as Hrad.
    eapply Forall2_weaken; [| exact (Forall2_conj _ _ _ _ _ _ Hdims Hrad)].
    intros d d' [[He _] Hra]. unfold offset. rewrite He, Hra. reflexivity.
  - apply holder_from_in; assumption.
  - rewrite <- Hls. exact Hl.
Qed.

Theorem step_sound : forall m t k t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> step_type m t k = OK t' ->
  holds m t g st -> holds m t' g (exec_step m t k st).
Proof.
  intros m t k t' A g st Hm Ht Hk Hst. destruct k.
  - eapply dyn_slice_sound; eassumption.
  - eapply all_gather_sound; eassumption.
  - eapply all_to_all_sound; eassumption.
  - eapply all_permute_sound; eassumption.
Qed.
