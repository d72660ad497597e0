(** * Layouts over placed meshes: Part 1 is the special case, boxes cover
    the array, and the printed lower bound counts the missing elements.

    - [pl_holds_even]: on an even problem over one mesh placed at rank 0, a
      layout holds exactly when Part 1's [holds] does ([dim_block_even]: the
      ceil block is Part 1's [offset] and [extent]).
    - [covered]: every global index of a target box is in some source box.
    - [recv_lower_bound_exact]: the printed bound is the number of elements
      of the target box that are not in the source box. *)

From Coq Require Import List Arith Lia Bool Mergesort Sorted Permutation.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Semanticsproof Trafficproof Layout.

(** ** Boxes *)

Lemma increasingb_head_lt : forall ws x, increasingb (x :: ws) = true -> forall y, In y ws -> x < y.
Proof.
  induction ws as [|z ws IH]; intros x H y Hy; [destruct Hy |].
  simpl in H. apply andb_true_iff in H as [Hxz Hz]. apply Nat.ltb_lt in Hxz.
  destruct Hy as [<- | Hy]; [lia |]. specialize (IH z Hz y Hy). lia.
Qed.

Lemma increasingb_NoDup : forall ws, increasingb ws = true -> NoDup ws.
Proof.
  induction ws as [|x ws IH]; intros H; constructor.
  - intros Hin. pose proof (increasingb_head_lt ws x H x Hin). lia.
  - apply IH. destruct ws as [|y ws']; [reflexivity |]. simpl in H. apply andb_true_iff in H. apply H.
Qed.

(** A sorted list without duplicates increases strictly. *)
Lemma sorted_NoDup_increasingb : forall ws,
  Sorted (fun x y => is_true (NatOrder.leb x y)) ws -> NoDup ws -> increasingb ws = true.
Proof.
  induction ws as [|x ws IH]; intros Hs Hnd; [reflexivity |].
  destruct ws as [|y ws']; [reflexivity |].
  apply Sorted_inv in Hs as [Hs Hhd]. apply HdRel_inv in Hhd.
  apply NoDup_cons_iff in Hnd as [Hx Hnd].
  simpl. apply andb_true_iff. split; [| apply IH; assumption].
  unfold is_true, NatOrder.leb in Hhd. apply Nat.leb_le in Hhd. apply Nat.ltb_lt.
  assert (x <> y) by (intros ->; apply Hx; left; reflexivity). lia.
Qed.

Lemma ranks_distinct_NoDup : forall ws, ranks_distinct ws = true <-> NoDup ws.
Proof.
  intros ws. unfold ranks_distinct. pose proof (NatSort.Permuted_sort ws) as Hp. split.
  - intros H. apply orb_true_iff in H as [H | H]; [apply increasingb_NoDup, H |].
    apply (Permutation_NoDup (Permutation_sym Hp)), increasingb_NoDup, H.
  - intros H. apply orb_true_iff. right. apply sorted_NoDup_increasingb; [apply NatSort.Sorted_sort |].
    apply (Permutation_NoDup Hp), H.
Qed.

Lemma box_has_local : forall b i, box_has b i = true ->
  in_box (box_shape b) (box_local b i) /\ box_global b (box_local b i) = i.
Proof.
  induction b as [|[lo n] b IH]; intros [|x i] H; simpl in *; try discriminate.
  - split; [exact I | reflexivity].
  - rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in H. destruct H as [[H1 H2] H3].
    destruct (IH i H3) as [IH1 IH2]. split; [split; [lia | exact IH1] |].
    rewrite IH2. f_equal. lia.
Qed.

Lemma box_global_has : forall b l, in_box (box_shape b) l -> box_has b (box_global b l) = true.
Proof.
  induction b as [|[lo n] b IH]; intros [|x l] H; simpl in *; try contradiction; auto.
  destruct H as [H1 H2]. rewrite IH by exact H2.
  apply andb_true_iff. split; [apply andb_true_iff; split |]; auto;
    [apply Nat.leb_le | apply Nat.ltb_lt]; lia.
Qed.

Lemma box_local_global : forall b l, in_box (box_shape b) l -> box_local b (box_global b l) = l.
Proof.
  induction b as [|[lo n] b IH]; intros [|x l] H; simpl in *; try contradiction; auto.
  destruct H as [_ H]. rewrite IH by exact H. f_equal. lia.
Qed.

(** Counting tools. *)

Lemma NoDup_app_intro : forall A (l1 l2 : list A), NoDup l1 -> NoDup l2 ->
  (forall x, In x l1 -> ~ In x l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; intros l2 H1 H2 Hdis; simpl; [exact H2 |].
  inversion H1 as [| ? ? Ha Hl1]. subst. constructor.
  - rewrite in_app_iff. intros [H | H]; [contradiction | exact (Hdis a (or_introl eq_refl) H)].
  - apply IH; auto. intros x Hx. apply Hdis. right. exact Hx.
Qed.

Lemma NoDup_box_indices : forall s, NoDup (box_indices s).
Proof.
  induction s as [|n s IH]; simpl; [repeat constructor; simpl; tauto |].
  generalize (seq_NoDup n 0). generalize (seq 0 n) as xs.
  induction xs as [|x xs IHx]; intros Hxs; simpl; [constructor |].
  inversion Hxs as [| ? ? Hx Hxs']. subst. apply NoDup_app_intro.
  - apply FinFun.Injective_map_NoDup; [intros a b H; inversion H; reflexivity | exact IH].
  - apply IHx. exact Hxs'.
  - intros l Hl Hl'. apply in_map_iff in Hl. destruct Hl as [l1 [<- _]].
    apply in_flat_map in Hl'. destruct Hl' as [y [Hy Hl']].
    apply in_map_iff in Hl'. destruct Hl' as [l2 [E _]]. inversion E. subst. contradiction.
Qed.

Lemma NoDup_map_in : forall A B (f : A -> B) l,
  (forall x y, In x l -> In y l -> f x = f y -> x = y) -> NoDup l -> NoDup (map f l).
Proof.
  induction l as [|a l IH]; intros Hf Hl; simpl; [constructor |].
  inversion Hl as [| ? ? Ha Hl']. subst. constructor.
  - intros H. apply in_map_iff in H. destruct H as [x [E Hx]].
    rewrite (Hf x a) in Hx by (simpl; auto). contradiction.
  - apply IH; [| exact Hl']. intros x y Hx Hy. apply Hf; right; assumption.
Qed.

(** The global indices of a box are distinct. *)
Lemma NoDup_box_globals : forall b, NoDup (map (box_global b) (box_indices (box_shape b))).
Proof.
  intros b. apply NoDup_map_in; [| apply NoDup_box_indices].
  intros x y Hx Hy E. apply in_box_indices in Hx, Hy.
  rewrite <- (box_local_global b x Hx), <- (box_local_global b y Hy), E. reflexivity.
Qed.

Lemma length_filter_le : forall A (p : A -> bool) l, length (filter p l) <= length l.
Proof. induction l as [|x l IH]; simpl; [lia |]. destruct (p x); simpl; lia. Qed.

Lemma length_filter_negb : forall A (p : A -> bool) l,
  length (filter (fun x => negb (p x)) l) = length l - length (filter p l).
Proof.
  induction l as [|x l IH]; [reflexivity |].
  pose proof (length_filter_le A p l) as Hle. cbn [filter length].
  destruct (p x); cbn [filter negb length]; rewrite IH; lia.
Qed.

(** ** Mesh ranks of world ranks *)

Lemma index_of_Some : forall w ws k, index_of w ws = Some k -> k < length ws /\ nth k ws 0 = w.
Proof.
  intros w ws. induction ws as [|x ws IH]; intros k H; simpl in H; [discriminate |].
  destruct (Nat.eqb_spec x w) as [-> | Hne].
  - inversion H. subst. simpl. split; [lia | reflexivity].
  - destruct (index_of w ws) as [k'|]; simpl in H; [| discriminate].
    inversion H. subst. destruct (IH k' eq_refl) as [H1 H2]. simpl. split; [lia | exact H2].
Qed.

Lemma index_of_nth : forall ws k, NoDup ws -> k < length ws -> index_of (nth k ws 0) ws = Some k.
Proof.
  induction ws as [|x ws IH]; intros k Hnd Hk; simpl in *; [lia |].
  inversion Hnd as [| ? ? Hx Hnd']. subst.
  destruct k as [|k]; [rewrite Nat.eqb_refl; reflexivity |].
  destruct (Nat.eqb_spec x (nth k ws 0)) as [E | _].
  - exfalso. apply Hx. rewrite E. apply nth_In. lia.
  - rewrite IH by (assumption || lia). reflexivity.
Qed.

Lemma in_seq0 : forall r n, In r (seq 0 n) <-> r < n.
Proof. intros r n. rewrite in_seq. lia. Qed.

Lemma index_of_seq0 : forall n w, index_of w (seq 0 n) = if w <? n then Some w else None.
Proof.
  intros n w. destruct (Nat.ltb_spec w n) as [Hw | Hw].
  - assert (E : nth w (seq 0 n) 0 = w) by (rewrite seq_nth by exact Hw; reflexivity).
    rewrite <- E at 1. rewrite index_of_nth by (rewrite ?seq_length; auto using seq_NoDup).
    reflexivity.
  - destruct (index_of w (seq 0 n)) as [k|] eqn:E; [| reflexivity].
    apply index_of_Some in E. rewrite seq_length in E. destruct E as [Hk E].
    rewrite seq_nth in E by exact Hk. lia.
Qed.

(** ** Ceil blocks *)

Lemma ceil_div_ge : forall n p, 1 <= p -> n <= p * ceil_div n p.
Proof.
  intros n p Hp. unfold ceil_div.
  pose proof (Nat.div_mod (n + p - 1) p ltac:(lia)) as E.
  pose proof (Nat.mod_upper_bound (n + p - 1) p ltac:(lia)). lia.
Qed.

Lemma ceil_div_exact : forall n p, 1 <= p -> ceil_div (p * n) p = n.
Proof.
  intros n p Hp. unfold ceil_div. symmetry. apply (Nat.div_unique _ _ _ (p - 1)); lia.
Qed.

(** On a dimension that divides evenly, the ceil block is Part 1's box. *)
Lemma dim_block_even : forall m d c, mesh_wf m = true -> dim_wf m d = true ->
  (forall x, In x (fst d) -> c x < axis_size m x) ->
  dim_block m d c = (offset m d c, extent m d).
Proof.
  intros m [xs n] c Hm Hd Hc. destruct (dim_extent m xs n Hm Hd) as [En [He Hp]].
  pose proof (radix_lt m c xs Hc) as Hj.
  unfold dim_block, block_size, offset, shards in *. simpl in *.
  set (P := prod (map (axis_size m) xs)) in *. set (e := extent m (xs, n)) in *.
  rewrite En, ceil_div_exact by exact Hp.
  assert (radix m c xs * e <= P * e) by nia. assert (S (radix m c xs) * e <= P * e) by nia.
  rewrite Nat.min_r, Nat.min_r by assumption. f_equal; [lia | simpl; lia].
Qed.

Lemma dev_box_even : forall m t c, mesh_wf m = true -> ty_wf m t = true -> device_in m c ->
  dev_box m t c = map (fun d => (offset m d c, extent m d)) t.
Proof.
  intros m t c Hm Ht Hc. apply map_ext_in. intros d Hd. apply dim_block_even; auto.
  - eapply ty_wf_dims; eassumption.
  - intros x Hx. apply Hc. eapply ty_wf_axes_in_mesh; [exact Ht |]. eapply In_ty_axes; eassumption.
Qed.

Lemma dev_box_even_shape : forall m t c, mesh_wf m = true -> ty_wf m t = true -> device_in m c ->
  box_shape (dev_box m t c) = local_shape m t.
Proof.
  intros m t c Hm Ht Hc. rewrite dev_box_even by assumption.
  unfold box_shape, local_shape. rewrite map_map. reflexivity.
Qed.

Lemma dev_box_even_global : forall m t c l, mesh_wf m = true -> ty_wf m t = true ->
  device_in m c -> box_global (dev_box m t c) l = box_index m t c l.
Proof.
  intros m t c l Hm Ht Hc. rewrite dev_box_even by assumption. clear.
  revert l. induction t as [|d t IH]; intros [|i l]; simpl; auto. rewrite IH. reflexivity.
Qed.

(** The layout of a Part 1 type: the mesh placed at rank 0. *)
Definition even_layout (m : mesh) (t : ty) : layout := {| ly_mesh := placed_at m 0; ly_ty := t |}.

Lemma pl_box_even : forall m t r,
  pl_box (even_layout m t) r
  = if r <? mesh_size m then Some (dev_box m t (device_of_rank m r)) else None.
Proof.
  intros m t r. unfold pl_box, even_layout, placed_at, ly_m. simpl.
  rewrite index_of_seq0. destruct (r <? mesh_size m); reflexivity.
Qed.

Lemma pl_shapes_even : forall m t r, mesh_wf m = true -> ty_wf m t = true ->
  pl_shapes (even_layout m t) r = if r <? mesh_size m then Some (local_shape m t) else None.
Proof.
  intros m t r Hm Ht. unfold pl_shapes. rewrite pl_box_even.
  destruct (Nat.ltb_spec r (mesh_size m)); [| reflexivity]. simpl.
  rewrite dev_box_even_shape by (try apply device_of_rank_in; assumption). reflexivity.
Qed.

Lemma layout_wf_even : forall m t, mesh_wf m = true -> ty_wf m t = true ->
  layout_wf (even_layout m t) = true.
Proof.
  intros m t Hm Ht. unfold layout_wf, pmesh_wf, lty_wf, even_layout, placed_at, ly_m. simpl.
  rewrite Hm, seq_length, Nat.eqb_refl. simpl.
  apply ty_wf_iff in Ht. destruct Ht as [Hd Hnd].
  rewrite (proj2 (ranks_distinct_NoDup _) (seq_NoDup _ _)), (proj2 (nodupb_NoDup _) Hnd).
  rewrite !andb_true_r. apply forallb_forall. intros d Hin.
  rewrite forallb_forall in Hd. specialize (Hd d Hin). destruct d as [xs n].
  apply dim_wf_iff in Hd. apply forallb_forall. intros x Hx. apply memb_In. apply Hd. exact Hx.
Qed.

(** Part 1 is the special case: on one mesh placed at rank 0 with an even
    type, a state holds the layout exactly when it holds the Part 1 type. *)
Theorem pl_holds_even : forall m t A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true ->
  (pl_holds (even_layout m t) g st <-> holds m t g st).
Proof.
  intros m t A g st Hm Ht. unfold pl_holds, holds. split.
  - intros H r Hr l Hl. assert (Hc := device_of_rank_in m r Hm Hr).
    rewrite <- dev_box_even_global by assumption. apply H.
    + rewrite pl_box_even. apply Nat.ltb_lt in Hr. rewrite Hr. reflexivity.
    + rewrite dev_box_even_shape by assumption. exact Hl.
  - intros H w b Hb l Hl. rewrite pl_box_even in Hb.
    destruct (Nat.ltb_spec w (mesh_size m)) as [Hw | _]; [| discriminate].
    inversion Hb. subst b. assert (Hc := device_of_rank_in m w Hm Hw).
    rewrite dev_box_even_global by assumption. apply H; [exact Hw |].
    rewrite <- (dev_box_even_shape m t (device_of_rank m w)) by assumption. exact Hl.
Qed.

(** ** Every index of the array is in some source box *)

Lemma lty_wf_iff : forall m t, lty_wf m t = true <->
  (forall x, In x (ty_axes t) -> In x (mesh_axes m)) /\ NoDup (ty_axes t).
Proof.
  intros m t. unfold lty_wf. rewrite andb_true_iff, nodupb_NoDup, forallb_forall.
  split; intros [H1 H2]; split; auto.
  - intros x Hx. unfold ty_axes in Hx. apply in_flat_map in Hx. destruct Hx as [d [Hd Hx]].
    specialize (H1 d Hd). rewrite forallb_forall in H1. apply memb_In. auto.
  - intros d Hd. apply forallb_forall. intros x Hx. apply memb_In. apply H1.
    eapply In_ty_axes; eassumption.
Qed.

(** Indices within the global shape. *)
Definition in_shape (i : list nat) (t : ty) : Prop := Forall2 (fun x d => x < snd d) i t.

Lemma dim_block_bounds : forall m d c,
  fst (dim_block m d c) + snd (dim_block m d c) <= snd d.
Proof. intros m d c. unfold dim_block. simpl. nia. Qed.

Lemma dev_box_in_shape : forall m t c i, box_has (dev_box m t c) i = true -> in_shape i t.
Proof.
  intros m t c. induction t as [|d t IH]; intros [|x i] H; simpl in H; try discriminate;
    constructor.
  - pose proof (dim_block_bounds m d c) as Hb. destruct (dim_block m d c) as [lo n].
    rewrite !andb_true_iff, Nat.ltb_lt in H. simpl in Hb. lia.
  - destruct (dim_block m d c) as [lo n]. rewrite !andb_true_iff in H. apply IH, H.
Qed.

Lemma in_shape_same_global : forall i t t', global_shape t = global_shape t' ->
  in_shape i t -> in_shape i t'.
Proof.
  intros i t t' E H. revert t' E.
  induction H as [| x d i t Hx Hi IH]; intros [|d' t'] E; simpl in E; try discriminate;
    constructor; inversion E; [congruence |]. apply IH. assumption.
Qed.

(** A device whose chunk index in every dimension is the block holding [i]. *)
Fixpoint cover_dev (m : mesh) (t : ty) (i : list nat) (c : device) : device :=
  match t, i with
  | d :: t', x :: i' => cover_dev m t' i' (set_radix m (fst d) (x / block_size m d) c)
  | _, _ => c
  end.

Section Cover.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Lemma cover_dev_notin : forall t i c y, ~ In y (ty_axes t) -> cover_dev m t i c y = c y.
Proof.
  induction t as [|d t IH]; intros [|x i] c y Hy; simpl; auto.
  simpl in Hy. rewrite IH by (intros H; apply Hy, in_or_app; right; exact H).
  apply set_radix_notin. intros H. apply Hy, in_or_app. left. exact H.
Qed.

Lemma block_index_lt : forall d x, (forall a, In a (fst d) -> In a (mesh_axes m)) ->
  x < snd d -> x / block_size m d < prod (map (axis_size m) (fst d)).
Proof.
  intros d x Hd Hx. pose proof (shards_pos m (fst d) Hm Hd) as HP.
  pose proof (ceil_div_ge (snd d) (shards m d) HP) as Hc. unfold block_size, shards in *.
  apply Nat.div_lt_upper_bound; nia.
Qed.

Lemma cover_dev_in : forall t i c, (forall x, In x (ty_axes t) -> In x (mesh_axes m)) ->
  in_shape i t -> device_in m c -> device_in m (cover_dev m t i c).
Proof.
  intros t i c Hax H. revert c.
  induction H as [| x d i t Hx Hi IH]; intros c Hc; simpl; [exact Hc |].
  apply IH.
  - intros y Hy. apply Hax. simpl. apply in_or_app. right. exact Hy.
  - apply device_in_set_radix; [exact Hc |]. apply block_index_lt; [| exact Hx].
    intros a Ha. apply Hax. simpl. apply in_or_app. left. exact Ha.
Qed.

Lemma cover_dev_radix : forall t i c, (forall x, In x (ty_axes t) -> In x (mesh_axes m)) ->
  NoDup (ty_axes t) -> in_shape i t ->
  Forall2 (fun x d => radix m (cover_dev m t i c) (fst d) = x / block_size m d) i t.
Proof.
  intros t i c Hax Hnd H. revert c Hax Hnd.
  induction H as [| x d i t Hx Hi IH]; intros c Hax Hnd; constructor.
  - simpl in Hnd |- *. apply NoDup_app_inv in Hnd. destruct Hnd as [Hxs [_ Hdis]].
    rewrite (radix_ext m _ (set_radix m (fst d) (x / block_size m d) c)).
    + apply radix_set_radix; [exact Hxs |]. apply block_index_lt; [| exact Hx].
      intros a Ha. apply Hax. simpl. apply in_or_app. left. exact Ha.
    + intros y Hy. apply cover_dev_notin. apply Hdis. exact Hy.
  - simpl in Hnd |- *. apply NoDup_app_inv in Hnd. apply IH; [| apply Hnd].
    intros y Hy. apply Hax. simpl. apply in_or_app. right. exact Hy.
Qed.

End Cover.

(** A device whose chunk index is the block of [x] holds [x]. *)
Lemma box_has_cover : forall m t c i, (forall d, In d t -> 1 <= shards m d) ->
  Forall2 (fun x d => radix m c (fst d) = x / block_size m d) i t -> in_shape i t ->
  box_has (dev_box m t c) i = true.
Proof.
  intros m t c i HP H. induction H as [| x d i t Hr Hi IH]; intros Hs; [reflexivity |].
  inversion Hs as [| ? ? ? ? Hx Hs']. subst. simpl.
  rewrite IH by (exact Hs' || (intros e He; apply HP; right; exact He)).
  pose proof (ceil_div_ge (snd d) (shards m d) (HP d (or_introl eq_refl))).
  unfold dim_block. rewrite Hr. unfold block_size in *. set (b := ceil_div (snd d) (shards m d)) in *.
  assert (Hb : b <> 0) by (intros E; rewrite E in *; lia).
  pose proof (Nat.div_mod x b Hb). pose proof (Nat.mod_upper_bound x b Hb).
  rewrite andb_true_r, andb_true_iff, Nat.leb_le, Nat.ltb_lt. simpl. nia.
Qed.

Lemma dev_box_ext : forall m t c c', (forall x, In x (ty_axes t) -> c x = c' x) ->
  dev_box m t c = dev_box m t c'.
Proof.
  intros m t c c' H. apply map_ext_in. intros d Hd. unfold dim_block.
  rewrite (radix_ext m c c'); [reflexivity |]. intros x Hx. apply H.
  eapply In_ty_axes; eassumption.
Qed.

(** Every global index in a target box is in the box of a rank of the source mesh. *)
Theorem covered : forall S T r b i, layouts_wf S T = true ->
  pl_box T r = Some b -> box_has b i = true ->
  exists s, In s (pm_ranks (ly_mesh S)) /\ has_opt (pl_box S s) i = true.
Proof.
  intros S T r b i Hwf Hb Hi. unfold layouts_wf, layout_wf, pmesh_wf in Hwf.
  rewrite !andb_true_iff, list_eqb_eq, Nat.eqb_eq, ranks_distinct_NoDup in Hwf.
  destruct Hwf as [[[[[Hm Hlen] Hnd] HtS] _] Hg]. apply lty_wf_iff in HtS. destruct HtS as [Hax Hax'].
  unfold pl_box in Hb. destruct (index_of r (pm_ranks (ly_mesh T))); [| discriminate].
  inversion Hb. subst b. apply dev_box_in_shape in Hi.
  apply (in_shape_same_global _ _ (ly_ty S)) in Hi; [| symmetry; exact Hg].
  set (m := ly_m S) in *. set (c := cover_dev m (ly_ty S) i (fun _ => 0)).
  assert (Hc : device_in m c) by (apply cover_dev_in; auto; intros x Hx; apply mesh_wf_size_pos; auto).
  assert (Hrk : rank m c < length (pm_ranks (ly_mesh S)))
    by (rewrite Hlen; exact (rank_lt m c Hm Hc)).
  exists (nth (rank m c) (pm_ranks (ly_mesh S)) 0). split; [apply nth_In; lia |].
  unfold pl_box. rewrite index_of_nth by (assumption || lia). simpl. fold m.
  rewrite (dev_box_ext m _ _ c).
  - apply box_has_cover; [| apply cover_dev_radix |]; auto.
    intros d Hd. apply shards_pos; [exact Hm |]. intros x Hx. apply Hax.
    eapply In_ty_axes; eassumption.
  - intros x Hx. apply device_of_rank_rank; auto.
Qed.

(** ** The printed bound counts the missing elements *)

Lemma count_seq_window : forall a e lo n,
  length (filter (fun i => (a <=? lo + i) && (lo + i <? a + e)) (seq 0 n))
  = Nat.min (a + e) (lo + n) - Nat.max a lo.
Proof.
  intros a e lo n. induction n as [|n IH]; [simpl; lia |].
  rewrite seq_S, filter_app, app_length, IH. simpl.
  destruct (Nat.leb_spec a (lo + n)); destruct (Nat.ltb_spec (lo + n) (a + e)); simpl; lia.
Qed.

(** The elements of [b] that [sb] also has, counted position by position. *)
Lemma count_overlap : forall b sb, length sb = length b ->
  length (filter (box_has sb) (map (box_global b) (box_indices (box_shape b))))
  = overlap_size sb b.
Proof.
  unfold overlap_size. induction b as [|[lo n] b IH]; intros [|[lo' n'] sb] E; simpl in E;
    try discriminate; [reflexivity |].
  rewrite length_filter_map. cbn [box_shape map box_indices combine].
  rewrite (count_flat_map _ _ _ _ (fun i => (lo' <=? lo + i) && (lo + i <? lo' + n'))
             (length (filter (box_has sb) (map (box_global b) (box_indices (box_shape b)))))).
  - rewrite count_seq_window, IH by lia. simpl. unfold overlap. simpl. lia.
  - intros i. rewrite length_filter_map. cbn [box_global box_has].
    destruct ((lo' <=? lo + i) && (lo + i <? lo' + n')); simpl.
    + rewrite length_filter_map. reflexivity.
    + apply (length_filter_const _ _ _ false). reflexivity.
Qed.

Lemma length_dev_box : forall m t c, length (dev_box m t c) = length t.
Proof. intros. apply map_length. Qed.

Lemma global_shape_length : forall t t', global_shape t = global_shape t' -> length t = length t'.
Proof.
  intros t t' E. apply (f_equal (@length nat)) in E. unfold global_shape in E.
  rewrite !map_length in E. exact E.
Qed.

Theorem recv_lower_bound_exact : forall S T r, layouts_wf S T = true ->
  recv_lower_bound S T r = length (missing S T r).
Proof.
  intros S T r Hwf. unfold layouts_wf in Hwf. rewrite !andb_true_iff, list_eqb_eq in Hwf.
  destruct Hwf as [_ Hlen]. apply global_shape_length in Hlen.
  unfold recv_lower_bound, missing. destruct (pl_box T r) as [b|] eqn:Hb; [| reflexivity].
  unfold box_size. rewrite <- length_box_indices, <- (map_length (box_global b)).
  destruct (pl_box S r) as [sb|] eqn:Hsb; simpl.
  - rewrite length_filter_negb, count_overlap; [reflexivity |].
    unfold pl_box in Hb, Hsb. destruct (index_of r (pm_ranks (ly_mesh T))); [| discriminate].
    destruct (index_of r (pm_ranks (ly_mesh S))); [| discriminate].
    inversion Hb. inversion Hsb. rewrite !length_dev_box. exact Hlen.
  - rewrite Nat.sub_0_r. symmetry. apply (length_filter_const _ _ _ true). reflexivity.
Qed.

(** The lower bound that the Part 1 command prints is the same number. *)
Theorem lower_bound_recv_even : forall m src tgt r, mesh_wf m = true ->
  ty_wf m src = true -> ty_wf m tgt = true -> r < mesh_size m ->
  lower_bound_recv m src tgt r = recv_lower_bound (even_layout m src) (even_layout m tgt) r.
Proof.
  intros m src tgt r Hm Hs Ht Hr. unfold recv_lower_bound. rewrite !pl_box_even.
  apply Nat.ltb_lt in Hr as Hr'. rewrite Hr'. assert (Hc := device_of_rank_in m r Hm Hr).
  rewrite lower_bound_recv_boxes by assumption. cbv zeta. unfold box_size, overlap_size.
  rewrite dev_box_even_shape by assumption. fold (local_size m tgt). f_equal.
  rewrite !dev_box_even by assumption. f_equal. clear.
  revert tgt. induction src as [|d src IH]; intros [|e tgt]; simpl; auto. rewrite IH. reflexivity.
Qed.
