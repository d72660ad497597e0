(** * Facts about the helpers of [Model.v]: boolean list tests, [upd]/[nth],
    [split_last], mixed-radix values, ranks and boxes.

    Other proof files import this one; lemma names are part of its interface. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model.

(** ** Boolean list tests *)

Lemma memb_In : forall x xs, memb x xs = true <-> In x xs.
Proof.
  intros x xs. unfold memb. rewrite existsb_exists. split.
  - intros [y [Hy Heq]]. apply Nat.eqb_eq in Heq. subst. exact Hy.
  - intros H. exists x. split; [exact H | apply Nat.eqb_refl].
Qed.

Lemma memb_false_notIn : forall x xs, memb x xs = false <-> ~ In x xs.
Proof.
  intros x xs. rewrite <- memb_In. destruct (memb x xs); split; congruence.
Qed.

Lemma nodupb_NoDup : forall xs, nodupb xs = true <-> NoDup xs.
Proof.
  induction xs as [|x xs IH]; simpl.
  - split; [constructor | reflexivity].
  - rewrite andb_true_iff, negb_true_iff, memb_false_notIn, IH. split.
    + intros [H1 H2]. constructor; assumption.
    + intros H. inversion H. split; assumption.
Qed.

Lemma list_eqb_eq : forall xs ys, list_eqb xs ys = true <-> xs = ys.
Proof.
  induction xs as [|x xs IH]; destruct ys as [|y ys]; simpl;
    try (split; congruence).
  rewrite andb_true_iff, Nat.eqb_eq, IH. split.
  - intros [-> ->]. reflexivity.
  - intros H. inversion H. split; reflexivity.
Qed.

(** ** [prod] *)

Lemma prod_app : forall xs ys, prod (xs ++ ys) = prod xs * prod ys.
Proof.
  induction xs as [|x xs IH]; intros ys; simpl; [lia | rewrite IH; lia].
Qed.

Lemma prod_pos : forall xs, (forall x, In x xs -> 1 <= x) -> 1 <= prod xs.
Proof.
  induction xs as [|x xs IH]; intros H; simpl; [lia |].
  assert (1 <= x) by (apply H; left; reflexivity).
  assert (1 <= prod xs) by (apply IH; intros y Hy; apply H; right; exact Hy).
  nia.
Qed.

(** ** [upd] and [nth] *)

Lemma length_upd : forall A (l : list A) i v, length (upd l i v) = length l.
Proof.
  induction l as [|a l IH]; intros [|i] v; simpl; auto.
Qed.

Lemma nth_upd_same : forall A (l : list A) i v d, i < length l -> nth i (upd l i v) d = v.
Proof.
  induction l as [|a l IH]; intros [|i] v d H; simpl in *; try lia; auto.
  apply IH; lia.
Qed.

Lemma nth_upd_other : forall A (l : list A) i j v d, i <> j -> nth j (upd l i v) d = nth j l d.
Proof.
  induction l as [|a l IH]; intros [|i] [|j] v d H; simpl; auto; try lia.
Qed.

Lemma nth_error_upd_other : forall A (l : list A) i j v,
  i <> j -> nth_error (upd l i v) j = nth_error l j.
Proof.
  induction l as [|a l IH]; intros [|i] [|j] v H; simpl; auto; try lia.
Qed.

(** [upd] at position [i] splits the list around [i]. *)
Lemma upd_split : forall A (l : list A) i v e, nth_error l i = Some e ->
  l = firstn i l ++ e :: skipn (S i) l /\ upd l i v = firstn i l ++ v :: skipn (S i) l.
Proof.
  induction l as [|a l IH]; intros [|i] v e H; simpl in *; try discriminate.
  - inversion H. subst. split; reflexivity.
  - destruct (IH i v e H) as [H1 H2]. rewrite <- H1, <- H2. split; reflexivity.
Qed.

Lemma map_upd : forall A B (f : A -> B) l i v, map f (upd l i v) = upd (map f l) i (f v).
Proof.
  induction l as [|a l IH]; intros [|i] v; simpl; auto. rewrite IH. reflexivity.
Qed.

(** Replacing an element by one with the same image leaves the image list alone. *)
Lemma map_upd_same_image : forall A B (f : A -> B) l i v e,
  nth_error l i = Some e -> f v = f e -> map f (upd l i v) = map f l.
Proof.
  induction l as [|a l IH]; intros [|i] v e H Hf; simpl in *; try discriminate.
  - inversion H. subst. rewrite Hf. reflexivity.
  - erewrite IH by eassumption. reflexivity.
Qed.

Lemma forallb_upd : forall A (f : A -> bool) l i v,
  forallb f l = true -> f v = true -> forallb f (upd l i v) = true.
Proof.
  induction l as [|a l IH]; intros [|i] v Hl Hv; simpl in *; auto;
    apply andb_true_iff in Hl; destruct Hl as [Ha Hl].
  - rewrite Hv, Hl. reflexivity.
  - rewrite Ha, IH; auto.
Qed.

(** ** [split_last] *)

Lemma split_last_snoc : forall ys a, split_last (ys ++ [a]) = Some (ys, a).
Proof.
  induction ys as [|y ys IH]; intros a; [reflexivity |].
  simpl. rewrite IH. destruct (ys ++ [a]) eqn:E; [destruct ys; discriminate | reflexivity].
Qed.

Lemma split_last_app : forall xs ys a, split_last xs = Some (ys, a) <-> xs = ys ++ [a].
Proof.
  intros xs ys a. split; [| intros ->; apply split_last_snoc].
  revert ys. induction xs as [|x xs IH]; intros ys H; simpl in H; [discriminate |].
  destruct xs as [|x' xs'].
  - inversion H. reflexivity.
  - destruct (split_last (x' :: xs')) as [[zs b]|]; [| discriminate].
    inversion H. subst. simpl. f_equal. apply IH. reflexivity.
Qed.

Lemma last_axis_app : forall ys a, last (ys ++ [a]) 0 = a.
Proof.
  intros ys a. induction ys as [|y ys IH]; [reflexivity |].
  simpl. rewrite IH. destruct (ys ++ [a]) eqn:E; [| reflexivity].
  destruct ys; discriminate.
Qed.

(** ** Mixed-radix values *)

Section Radix.
Variable m : mesh.


Lemma radix_acc : forall c xs a,
  fold_left (fun acc x => acc * axis_size m x + c x) xs a
  = a * prod (map (axis_size m) xs) + radix m c xs.
Proof.
  intros c xs. unfold radix. induction xs as [|x xs IH]; intros a; simpl; [lia |].
  rewrite (IH (a * axis_size m x + c x)), (IH (c x)). nia.
Qed.

Lemma radix_cons : forall c x xs,
  radix m c (x :: xs) = c x * prod (map (axis_size m) xs) + radix m c xs.
Proof.
  intros c x xs. unfold radix at 1. simpl. rewrite radix_acc. reflexivity.
Qed.

Lemma radix_app_gen : forall c xs ys,
  radix m c (xs ++ ys) = radix m c xs * prod (map (axis_size m) ys) + radix m c ys.
Proof.
  intros c xs ys. unfold radix at 1. rewrite fold_left_app. apply radix_acc.
Qed.

Lemma radix_app : forall c xs x,
  radix m c (xs ++ [x]) = radix m c xs * axis_size m x + c x.
Proof.
  intros c xs x. unfold radix. rewrite fold_left_app. reflexivity.
Qed.

(** The value depends only on the coordinates of [xs]. *)
Lemma radix_ext : forall c c' xs, (forall x, In x xs -> c x = c' x) ->
  radix m c xs = radix m c' xs.
Proof.
  intros c c' xs. induction xs as [|x xs IH]; intros H; [reflexivity |].
  rewrite !radix_cons, H by (left; reflexivity).
  rewrite IH by (intros y Hy; apply H; right; exact Hy). reflexivity.
Qed.

Lemma radix_set_coord_notin : forall c a v xs, ~ In a xs ->
  radix m (set_coord c a v) xs = radix m c xs.
Proof.
  intros c a v xs H. apply radix_ext. intros x Hx. unfold set_coord.
  destruct (Nat.eqb_spec x a); [subst; contradiction | reflexivity].
Qed.

Lemma radix_lt : forall c xs, (forall x, In x xs -> c x < axis_size m x) ->
  radix m c xs < prod (map (axis_size m) xs).
Proof.
  intros c xs. induction xs as [|x xs IH]; intros H; [unfold radix; simpl; lia |].
  rewrite radix_cons. simpl.
  assert (c x < axis_size m x) by (apply H; left; reflexivity).
  assert (radix m c xs < prod (map (axis_size m) xs))
    by (apply IH; intros y Hy; apply H; right; exact Hy).
  nia.
Qed.

Lemma set_coord_same : forall c a v, set_coord c a v a = v.
Proof. intros. unfold set_coord. rewrite Nat.eqb_refl. reflexivity. Qed.

Lemma set_coord_other : forall c a v y, y <> a -> set_coord c a v y = c y.
Proof.
  intros c a v y H. unfold set_coord. destruct (Nat.eqb_spec y a); [contradiction | reflexivity].
Qed.

Lemma set_radix_notin : forall xs q c y, ~ In y xs -> set_radix m xs q c y = c y.
Proof.
  induction xs as [|x xs IH]; intros q c y H; simpl; [reflexivity |].
  rewrite IH by (intros Hy; apply H; right; exact Hy).
  apply set_coord_other. intros E. apply H. left. symmetry. exact E.
Qed.

Lemma div_mod_bounds : forall q w s, q < s * w -> q / w < s /\ q mod w < w.
Proof.
  intros q w s H. assert (w <> 0) by (intros ->; lia). split.
  - apply Nat.div_lt_upper_bound; [assumption | lia].
  - apply Nat.mod_upper_bound. assumption.
Qed.

(** The coordinates that [set_radix] writes are in range. *)
Lemma set_radix_lt : forall xs q c, q < prod (map (axis_size m) xs) ->
  forall x, In x xs -> set_radix m xs q c x < axis_size m x.
Proof.
  induction xs as [|x xs IH]; intros q c Hq y Hy; simpl in *; [contradiction |].
  destruct (div_mod_bounds q (prod (map (axis_size m) xs)) (axis_size m x) Hq) as [H1 H2].
  destruct (in_dec Nat.eq_dec y xs) as [Hin | Hnin].
  - apply IH; assumption.
  - rewrite set_radix_notin by assumption.
    destruct Hy as [<- | Hy]; [| contradiction].
    rewrite set_coord_same. exact H1.
Qed.

Lemma radix_set_radix : forall xs q c, NoDup xs -> q < prod (map (axis_size m) xs) ->
  radix m (set_radix m xs q c) xs = q.
Proof.
  induction xs as [|x xs IH]; intros q c Hnd Hq; [unfold radix; simpl in *; lia |].
  simpl in Hq. simpl set_radix.
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  set (w := prod (map (axis_size m) xs)) in *.
  destruct (div_mod_bounds q w (axis_size m x) Hq) as [H1 H2].
  rewrite radix_cons, IH by assumption.
  rewrite set_radix_notin, set_coord_same by assumption.
  fold w. symmetry. rewrite Nat.mul_comm. apply Nat.div_mod_eq.
Qed.

(** Digits of an in-range value come back as the coordinates it was read from. *)
Lemma set_radix_radix : forall xs c c0, NoDup xs ->
  (forall x, In x xs -> c x < axis_size m x) ->
  forall x, In x xs -> set_radix m xs (radix m c xs) c0 x = c x.
Proof.
  induction xs as [|x xs IH]; intros c c0 Hnd Hc y Hy; [contradiction |].
  simpl set_radix. simpl in Hy.
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  set (w := prod (map (axis_size m) xs)).
  assert (Hlt : radix m c xs < w) by (apply radix_lt; intros z Hz; apply Hc; right; exact Hz).
  assert (Hdiv : radix m c (x :: xs) / w = c x /\ radix m c (x :: xs) mod w = radix m c xs).
  { rewrite radix_cons. fold w. split.
    - rewrite Nat.div_add_l by lia. rewrite Nat.div_small by assumption. lia.
    - rewrite Nat.add_comm, Nat.mod_add by lia. apply Nat.mod_small. assumption. }
  destruct Hdiv as [-> ->].
  destruct (in_dec Nat.eq_dec y xs) as [Hin | Hnin].
  - apply IH; [assumption | | assumption]. intros z Hz. apply Hc. right. exact Hz.
  - rewrite set_radix_notin by assumption.
    destruct Hy as [<- | Hy]; [| contradiction]. apply set_coord_same.
Qed.

End Radix.

(** ** Meshes, ranks and devices *)

Lemma mesh_wf_NoDup : forall m, mesh_wf m = true -> NoDup (mesh_axes m).
Proof.
  intros m H. unfold mesh_wf in H. apply andb_true_iff in H. apply nodupb_NoDup, H.
Qed.

Lemma mesh_wf_size_pos : forall m x, mesh_wf m = true -> In x (mesh_axes m) ->
  1 <= axis_size m x.
Proof.
  intros m x H Hx. unfold mesh_wf in H. apply andb_true_iff in H. destruct H as [_ H].
  induction m as [|[y s] m IH]; simpl in *; [contradiction |].
  apply andb_true_iff in H. destruct H as [Hs H].
  destruct (Nat.eqb_spec x y) as [-> | Hne].
  - apply Nat.leb_le. exact Hs.
  - destruct Hx as [Hx | Hx]; [simpl in Hx; congruence | auto].
Qed.

(** With distinct names, the sizes read by name are the sizes listed. *)
Lemma map_axis_size_mesh_axes : forall m, NoDup (mesh_axes m) ->
  map (axis_size m) (mesh_axes m) = map snd m.
Proof.
  induction m as [|[y s] m IH]; intros H; simpl in *; [reflexivity |].
  inversion H as [| ? ? Hy Hnd]. subst.
  rewrite Nat.eqb_refl. f_equal. rewrite <- IH by assumption.
  apply map_ext_in. intros x Hx. destruct (Nat.eqb_spec x y); [subst; contradiction | reflexivity].
Qed.

Lemma mesh_size_prod : forall m, mesh_wf m = true ->
  mesh_size m = prod (map (axis_size m) (mesh_axes m)).
Proof.
  intros m H. unfold mesh_size. rewrite map_axis_size_mesh_axes
    by (apply mesh_wf_NoDup; exact H). reflexivity.
Qed.

Lemma device_of_rank_in : forall m r, mesh_wf m = true -> r < mesh_size m ->
  device_in m (device_of_rank m r).
Proof.
  intros m r Hm Hr x Hx. unfold device_of_rank. apply set_radix_lt; [| exact Hx].
  rewrite <- mesh_size_prod; assumption.
Qed.

Lemma rank_device_of_rank : forall m r, mesh_wf m = true -> r < mesh_size m ->
  rank m (device_of_rank m r) = r.
Proof.
  intros m r Hm Hr. unfold rank, device_of_rank. apply radix_set_radix.
  - apply mesh_wf_NoDup. exact Hm.
  - rewrite <- mesh_size_prod; assumption.
Qed.

Lemma device_of_rank_rank : forall m c, mesh_wf m = true -> device_in m c ->
  forall x, In x (mesh_axes m) -> device_of_rank m (rank m c) x = c x.
Proof.
  intros m c Hm Hc x Hx. unfold device_of_rank, rank. apply set_radix_radix; auto.
  apply mesh_wf_NoDup. exact Hm.
Qed.

Lemma rank_lt : forall m c, mesh_wf m = true -> device_in m c -> rank m c < mesh_size m.
Proof.
  intros m c Hm Hc. rewrite mesh_size_prod by exact Hm. unfold rank.
  apply radix_lt. exact Hc.
Qed.

Lemma rank_ext : forall m c c', (forall x, In x (mesh_axes m) -> c x = c' x) ->
  rank m c = rank m c'.
Proof. intros m c c' H. unfold rank. apply radix_ext. exact H. Qed.

(** Two devices of the mesh have the same rank iff they agree on every mesh axis. *)
Lemma rank_inj : forall m c c', mesh_wf m = true -> device_in m c -> device_in m c' ->
  rank m c = rank m c' <-> (forall x, In x (mesh_axes m) -> c x = c' x).
Proof.
  intros m c c' Hm Hc Hc'. split.
  - intros Heq x Hx. rewrite <- (device_of_rank_rank m c Hm Hc x Hx), Heq.
    apply device_of_rank_rank; assumption.
  - apply rank_ext.
Qed.

Lemma device_in_set_coord : forall m c a v, device_in m c -> v < axis_size m a ->
  device_in m (set_coord c a v).
Proof.
  intros m c a v Hc Hv x Hx. unfold set_coord.
  destruct (Nat.eqb_spec x a) as [-> | _]; auto.
Qed.

Lemma device_in_set_radix : forall m xs q c, device_in m c ->
  q < prod (map (axis_size m) xs) -> device_in m (set_radix m xs q c).
Proof.
  intros m xs q c Hc Hq x Hx. destruct (in_dec Nat.eq_dec x xs) as [Hin | Hnin].
  - apply set_radix_lt; assumption.
  - rewrite set_radix_notin by assumption. auto.
Qed.

(** ** Types and boxes *)

Lemma ty_wf_dims : forall m t, ty_wf m t = true -> forall d, In d t -> dim_wf m d = true.
Proof.
  intros m t H d Hd. unfold ty_wf in H. apply andb_true_iff in H. destruct H as [H _].
  rewrite forallb_forall in H. auto.
Qed.

Lemma ty_wf_NoDup : forall m t, ty_wf m t = true -> NoDup (ty_axes t).
Proof.
  intros m t H. unfold ty_wf in H. apply andb_true_iff in H. apply nodupb_NoDup, H.
Qed.

Lemma ty_wf_axes_in_mesh : forall m t, ty_wf m t = true ->
  forall x, In x (ty_axes t) -> In x (mesh_axes m).
Proof.
  intros m t H x Hx. unfold ty_axes in Hx. apply in_flat_map in Hx. destruct Hx as [d [Hd Hx]].
  apply (ty_wf_dims m t H) in Hd. unfold dim_wf in Hd.
  apply andb_true_iff in Hd. destruct Hd as [Hd _]. apply andb_true_iff in Hd.
  destruct Hd as [Hd _]. rewrite forallb_forall in Hd. apply memb_In. auto.
Qed.

Lemma box_index_ext : forall m t c c' l, (forall x, In x (ty_axes t) -> c x = c' x) ->
  box_index m t c l = box_index m t c' l.
Proof.
  induction t as [|[xs n] t IH]; intros c c' l H; destruct l as [|i l]; simpl; auto.
  unfold offset. simpl. rewrite (radix_ext m c c' xs).
  - rewrite (IH c c'); [reflexivity |]. intros x Hx. apply H. simpl. apply in_or_app. auto.
  - intros x Hx. apply H. simpl. apply in_or_app. auto.
Qed.

(** A device of the mesh can be replaced by the device of its rank. *)
Lemma box_index_device_of_rank : forall m t c l, mesh_wf m = true -> ty_wf m t = true ->
  device_in m c -> box_index m t (device_of_rank m (rank m c)) l = box_index m t c l.
Proof.
  intros m t c l Hm Ht Hc. apply box_index_ext. intros x Hx.
  apply device_of_rank_rank; auto. eapply ty_wf_axes_in_mesh; eassumption.
Qed.

Lemma in_box_nth : forall shape l, in_box shape l <->
  length l = length shape /\ (forall i, i < length shape -> nth i l 0 < nth i shape 0).
Proof.
  induction shape as [|n shape IH]; intros [|i l]; simpl.
  - split; [intros _; split; [reflexivity | lia] | auto].
  - split; [contradiction | intros [H _]; discriminate].
  - split; [contradiction | intros [H _]; discriminate].
  - rewrite IH. split.
    + intros [Hi [Hl H]]. split; [lia |]. intros [|j] Hj; simpl; [exact Hi |]. apply H. lia.
    + intros [Hl H]. split; [apply (H 0); lia |]. split; [lia |].
      intros j Hj. apply (H (S j)). lia.
Qed.

Lemma nth_local_shape : forall m t i,
  nth i (local_shape m t) 0 = extent m (nth i t ([], 0)).
Proof.
  intros m t i. unfold local_shape.
  replace 0 with (extent m ([], 0)) at 1 by reflexivity. apply map_nth.
Qed.

Lemma length_local_shape : forall m t, length (local_shape m t) = length t.
Proof. intros. apply map_length. Qed.

(** Two boxes agree when, dimension by dimension, corner plus index agree. *)
Lemma box_index_pointwise : forall m (t t' : ty) c c' l l',
  length t' = length t -> length l = length t -> length l' = length t ->
  (forall i, i < length t ->
     offset m (nth i t ([], 0)) c + nth i l 0 = offset m (nth i t' ([], 0)) c' + nth i l' 0) ->
  box_index m t c l = box_index m t' c' l'.
Proof.
  induction t as [|d t IH]; intros [|d' t'] c c' [|i l] [|i' l'] Ht Hl Hl' H;
    simpl in *; try lia; auto.
  f_equal.
  - apply (H 0). lia.
  - apply IH; try lia. intros j Hj. apply (H (S j)). lia.
Qed.
