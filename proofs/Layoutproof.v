(** * Layouts over placed meshes: Part 1 is the special case, boxes cover
    the array, and the printed lower bound counts the missing elements.

    - [pl_holds_even]: on an even problem over one mesh placed at rank 0, a
      layout holds exactly when Part 1's [holds] does ([dim_block_even]: the
      ceil block is Part 1's [offset] and [extent]).
    - [covered]: every global index of a target box is in some source box.
    - [recv_lower_bound_exact]: the printed bound is the number of elements
      of the target box that are not in the source box. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Semanticsproof Trafficproof Layout.

(** ** Boxes *)

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
  rewrite (proj2 (nodupb_NoDup _) (seq_NoDup _ _)), (proj2 (nodupb_NoDup _) Hnd).
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
