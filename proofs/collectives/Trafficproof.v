(** * The traffic the checker reports is the traffic of the semantics.

    [received] counts, position by position, the elements of a rank's new
    local array whose source (by [wire]) is another rank; [recv_count] is the
    closed form the checker reports.  [received_closed_form] proves them
    equal for every well-typed step, and [check_traffic] lifts this to the
    per-step figures of an accepted plan's report. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Semanticsproof.

(** ** Counting filtered lists *)

Lemma length_filter_map : forall A B (p : B -> bool) (g : A -> B) l,
  length (filter p (map g l)) = length (filter (fun x => p (g x)) l).
Proof.
  induction l as [|x l IH]; simpl; [reflexivity |].
  destruct (p (g x)); simpl; rewrite IH; reflexivity.
Qed.

(** A predicate that is constant on a list keeps all of it or nothing. *)
Lemma length_filter_const : forall A (p : A -> bool) l b,
  (forall x, In x l -> p x = b) -> length (filter p l) = if b then length l else 0.
Proof.
  induction l as [|x l IH]; intros b H; simpl; [destruct b; reflexivity |].
  assert (IH' : length (filter p l) = if b then length l else 0)
    by (apply IH; intros y Hy; apply H; right; exact Hy).
  rewrite (H x (or_introl eq_refl)). destruct b; simpl; rewrite IH'; reflexivity.
Qed.

(** If every block [f x] contributes [k] or nothing, as [q x] says, the
    count over the concatenation is [k] times the number of [x] with [q x]. *)
Lemma count_flat_map : forall A B (p : B -> bool) (f : A -> list B) (q : A -> bool) k l,
  (forall x, length (filter p (f x)) = if q x then k else 0) ->
  length (filter p (flat_map f l)) = k * length (filter q l).
Proof.
  intros A B p f q k l H. induction l as [|x l IH]; simpl; [lia |].
  rewrite filter_app, app_length, IH, H. destruct (q x); simpl; lia.
Qed.

Lemma length_filter_true : forall A (l : list A), length (filter (fun _ => true) l) = length l.
Proof. intros A l. apply (length_filter_const A _ l true). reflexivity. Qed.

(** ** Local indices *)

Lemma length_box_indices : forall s, length (box_indices s) = prod s.
Proof.
  induction s as [|n s IH]; [reflexivity |]. simpl box_indices.
  rewrite <- (length_filter_true _ (flat_map _ _)).
  rewrite (count_flat_map _ _ _ _ (fun _ => true) (prod s)).
  - rewrite length_filter_true, seq_length. simpl. lia.
  - intros i. rewrite length_filter_true, map_length. exact IH.
Qed.

Lemma in_box_indices : forall s l, In l (box_indices s) <-> in_box s l.
Proof.
  induction s as [|n s IH]; intros l; simpl.
  - split; [intros [<- | []]; exact I | destruct l; [auto | contradiction]].
  - rewrite in_flat_map. split.
    + intros [i [Hi Hl]]. apply in_map_iff in Hl. destruct Hl as [l' [<- Hl']].
      apply in_seq in Hi. split; [lia | apply IH; exact Hl'].
    + destruct l as [|i l]; [contradiction |]. intros [Hi Hl]. exists i. split.
      * apply in_seq. lia.
      * apply in_map. apply IH. exact Hl.
Qed.

(** Counting the local indices whose coordinate [d] satisfies [f]: the other
    dimensions contribute the product of their extents. *)
Lemma count_box_dim : forall s d (f : nat -> bool), d < length s ->
  length (filter (fun l => f (nth d l 0)) (box_indices s))
  = prod (upd s d 1) * length (filter f (seq 0 (nth d s 0))).
Proof.
  induction s as [|n s IH]; intros d f Hd; simpl in Hd; [lia |].
  simpl box_indices. destruct d as [|d].
  - rewrite (count_flat_map _ _ _ _ f (prod s)).
    + simpl. lia.
    + intros i. rewrite length_filter_map. simpl.
      rewrite (length_filter_const _ _ _ (f i)) by reflexivity.
      rewrite length_box_indices. destruct (f i); reflexivity.
  - rewrite (count_flat_map _ _ _ _ (fun _ => true)
               (prod (upd s d 1) * length (filter f (seq 0 (nth d s 0))))).
    + rewrite length_filter_true, seq_length. simpl. lia.
    + intros i. rewrite length_filter_map. simpl. apply IH. lia.
Qed.

(** Counting [i < n * k] by [i / n]: each quotient stands for [n] values. *)
Lemma count_seq_div : forall (g : nat -> bool) n k,
  length (filter (fun i => g (i / n)) (seq 0 (n * k))) = n * length (filter g (seq 0 k)).
Proof.
  intros g n k. induction k as [|k IH]; [rewrite Nat.mul_0_r; simpl; lia |].
  replace (n * S k) with (n * k + n) by lia.
  rewrite seq_app, seq_S, !filter_app, !app_length, IH.
  rewrite (length_filter_const _ (fun i => g (i / n)) _ (g k)).
  - simpl. destruct (g k); simpl; rewrite ?seq_length; lia.
  - intros i Hi. apply in_seq in Hi. f_equal.
    replace i with (k * n + (i - n * k)) by lia.
    rewrite Nat.div_add_l by lia. rewrite Nat.div_small by lia. lia.
Qed.

Lemma count_seq_neq : forall j k, j < k ->
  length (filter (fun i => negb (i =? j)) (seq 0 k)) = k - 1.
Proof.
  intros j k. induction k as [|k IH]; intros Hj; [lia |].
  rewrite seq_S, filter_app, app_length. simpl.
  destruct (Nat.eqb_spec k j) as [-> | Hne].
  - rewrite (length_filter_const _ _ _ true); [rewrite seq_length; simpl; lia |].
    intros i Hi. apply in_seq in Hi. destruct (Nat.eqb_spec i j); [lia | reflexivity].
  - rewrite IH by lia. simpl. lia.
Qed.

(** ** Products of shapes with one entry replaced *)

Lemma prod_upd : forall l i v, i < length l -> prod (upd l i v) = prod (upd l i 1) * v.
Proof.
  induction l as [|x l IH]; intros [|i] v Hi; simpl in *; try lia.
  rewrite IH by lia. lia.
Qed.

Lemma prod_nth : forall l i, i < length l -> prod l = prod (upd l i 1) * nth i l 0.
Proof.
  induction l as [|x l IH]; intros [|i] Hi; simpl in *; try lia.
  rewrite (IH i) at 1 by lia. lia.
Qed.

Lemma upd_upd_same : forall A (l : list A) i v w, upd (upd l i v) i w = upd l i w.
Proof. induction l as [|x l IH]; intros [|i] v w; simpl; auto. rewrite IH. reflexivity. Qed.

Lemma upd_upd_comm : forall A (l : list A) i j v w, i <> j ->
  upd (upd l i v) j w = upd (upd l j w) i v.
Proof.
  induction l as [|x l IH]; intros [|i] [|j] v w H; simpl; auto; try lia.
  rewrite IH by lia. reflexivity.
Qed.

(** ** Dimensions of a well-formed type *)

Lemma ty_wf_nth_error : forall m t d dd, ty_wf m t = true -> nth_error t d = Some dd ->
  dim_wf m dd = true.
Proof. intros m t d dd H Hd. eapply ty_wf_dims; [exact H | eapply nth_error_In; exact Hd]. Qed.

Lemma nth_error_lt : forall A (l : list A) i e, nth_error l i = Some e -> i < length l.
Proof. intros A l i e H. apply nth_error_Some. congruence. Qed.

Lemma local_shape_set_dim : forall m t d dd,
  local_shape m (set_dim t d dd) = upd (local_shape m t) d (extent m dd).
Proof. intros. unfold local_shape, set_dim. apply map_upd. Qed.

(** ** Which positions come from another rank *)

(** Moving a device of the mesh along one axis, within range, changes its
    rank exactly when it changes the coordinate. *)
Lemma rank_set_coord_eqb : forall m c a v, mesh_wf m = true -> device_in m c ->
  In a (mesh_axes m) -> v < axis_size m a ->
  (rank m (set_coord c a v) =? rank m c) = (v =? c a).
Proof.
  intros m c a v Hm Hc Ha Hv. destruct (Nat.eqb_spec v (c a)) as [-> | Hne].
  - apply Nat.eqb_eq. apply rank_ext. intros x _. unfold set_coord.
    destruct (Nat.eqb_spec x a) as [-> |]; reflexivity.
  - apply Nat.eqb_neq. intros E. apply Hne.
    apply (rank_inj m _ _ Hm (device_in_set_coord m c a v Hc Hv) Hc) with (x := a) in E;
      [| exact Ha]. rewrite set_coord_same in E. exact E.
Qed.

(** The traffic of a gather or all-to-all over axis [a]: the new array has
    extent [n * |a|] in dimension [d], and position [l] comes from the group
    member [l_d / n], which is another rank unless it is [c[a]]. *)
Lemma count_moved : forall m c a s d n (p : list nat -> bool),
  mesh_wf m = true -> device_in m c -> In a (mesh_axes m) ->
  d < length s -> nth d s 0 = n * axis_size m a ->
  (forall l, p l = negb (rank m (set_coord c a (nth d l 0 / n)) =? rank m c)) ->
  length (filter p (box_indices s)) = prod (upd s d 1) * (n * (axis_size m a - 1)).
Proof.
  intros m c a s d n p Hm Hc Ha Hd Hn Hp.
  rewrite (filter_ext_in p (fun l => negb (nth d l 0 / n =? c a))).
  - etransitivity; [apply (count_box_dim s d (fun i => negb (i / n =? c a)) Hd) |].
    rewrite Hn. f_equal.
    etransitivity; [apply (count_seq_div (fun q => negb (q =? c a))) |].
    rewrite count_seq_neq by (apply Hc; exact Ha). reflexivity.
  - intros l Hl. rewrite Hp. apply in_box_indices, in_box_nth in Hl.
    destruct Hl as [_ Hl]. specialize (Hl d Hd). rewrite Hn in Hl.
    rewrite rank_set_coord_eqb; auto.
    apply Nat.div_lt_upper_bound; [intros ->; simpl in Hl; lia | exact Hl].
Qed.

(** ** The closed forms *)

Lemma received_dyn_slice : forall m t d x t' r, mesh_wf m = true -> r < mesh_size m ->
  step_type m t (DynSlice d x) = OK t' -> received m t (DynSlice d x) r = 0.
Proof.
  intros m t d x t' r Hm Hr Hk. unfold received. rewrite Hk.
  rewrite (length_filter_const _ _ _ false); [reflexivity |].
  intros l _. simpl. rewrite rank_device_of_rank, Nat.eqb_refl by assumption. reflexivity.
Qed.

Lemma received_all_gather : forall m t d t' r, mesh_wf m = true -> ty_wf m t = true ->
  r < mesh_size m -> step_type m t (AllGather d) = OK t' ->
  received m t (AllGather d) r
  = (axis_size m (last_axis (fst (dim_of t d))) - 1) * local_size m t.
Proof.
  intros m t d t' r Hm Ht Hr Hk. unfold received. rewrite Hk.
  destruct (all_gather_type_inv m t d t' Hm Ht Hk) as [ys [a [n [Hd [-> [Ha [Hext _]]]]]]].
  pose proof (nth_error_lt _ _ _ _ Hd) as Hlt.
  assert (Hdim : dim_of t d = (ys ++ [a], n)) by (apply nth_error_nth; exact Hd).
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hrc : rank m c = r) by (apply rank_device_of_rank; assumption).
  assert (HLS : length (local_shape m t) = length t) by apply length_local_shape.
  rewrite local_shape_set_dim.
  rewrite (count_moved m c a _ d (extent m (ys ++ [a], n))); auto.
  - rewrite upd_upd_same, Hdim. simpl fst. unfold last_axis. rewrite last_axis_app.
    unfold local_size. rewrite (prod_nth (local_shape m t) d) by lia.
    rewrite nth_local_shape. fold (dim_of t d). rewrite Hdim. ring.
  - rewrite length_upd. lia.
  - rewrite nth_upd_same by lia. exact Hext.
  - intros l. rewrite Hrc. unfold wire. rewrite Hdim. simpl fst. unfold last_axis.
    rewrite last_axis_app. reflexivity.
Qed.

Lemma received_all_to_all : forall m t s u t' r, mesh_wf m = true -> ty_wf m t = true ->
  r < mesh_size m -> step_type m t (AllToAll s u) = OK t' ->
  received m t (AllToAll s u) r
  = local_size m t / axis_size m (last_axis (fst (dim_of t s)))
    * (axis_size m (last_axis (fst (dim_of t s))) - 1).
Proof.
  intros m t s u t' r Hm Ht Hr Hk. unfold received. rewrite Hk. simpl in Hk.
  destruct (Nat.eqb_spec s u) as [| Hsu]; [discriminate |].
  destruct (nth_error t s) as [[xs ns]|] eqn:Hs; [| discriminate].
  destruct (nth_error t u) as [[ys nu]|] eqn:Hu; [| discriminate].
  destruct (split_last xs) as [[xs' a]|] eqn:Hl; [| discriminate].
  destruct (extent m (ys, nu) mod axis_size m a =? 0) eqn:Hdiv; [| discriminate].
  simpl in Hk. injection Hk as <-. apply split_last_app in Hl. subst xs.
  apply Nat.eqb_eq in Hdiv.
  pose proof (nth_error_lt _ _ _ _ Hs) as Hlts. pose proof (nth_error_lt _ _ _ _ Hu) as Hltu.
  assert (Hdims : dim_of t s = (xs' ++ [a], ns)) by (apply nth_error_nth; exact Hs).
  assert (Hdimu : dim_of t u = (ys, nu)) by (apply nth_error_nth; exact Hu).
  assert (Hws : dim_wf m (xs' ++ [a], ns) = true) by (eapply ty_wf_nth_error; eassumption).
  destruct (dim_wf_snoc_inv m xs' a ns Hm Hws) as [_ [Ha Hext]].
  pose proof (mesh_wf_size_pos m a Hm Ha) as HA.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  assert (Hrc : rank m c = r) by (apply rank_device_of_rank; assumption).
  assert (HLS : length (local_shape m t) = length t) by apply length_local_shape.
  rewrite !local_shape_set_dim.
  rewrite (count_moved m c a _ s (extent m (xs' ++ [a], ns))); auto.
  - rewrite Hdims. simpl fst. unfold last_axis. rewrite last_axis_app.
    set (LS := local_shape m t). set (A := axis_size m a).
    set (e2 := extent m (ys ++ [a], nu)). set (ns' := extent m (xs' ++ [a], ns)).
    rewrite (upd_upd_comm _ _ s u _ _ Hsu), upd_upd_same, upd_upd_comm by lia.
    assert (HLu : nth u LS 0 = e2 * A).
    { unfold LS. rewrite nth_local_shape. fold (dim_of t u). rewrite Hdimu.
      unfold e2. rewrite extent_snoc.
      apply Nat.mod_divides in Hdiv; [| lia]. destruct Hdiv as [k Hk]. rewrite Hk.
      fold A. rewrite (Nat.mul_comm A k), Nat.div_mul by lia. ring. }
    assert (HLs : nth s (upd LS u 1) 0 = ns').
    { rewrite nth_upd_other by lia. unfold LS. rewrite nth_local_shape. fold (dim_of t s).
      rewrite Hdims. reflexivity. }
    unfold local_size. fold LS.
    rewrite (prod_upd (upd LS s 1) u e2) by (unfold LS; rewrite length_upd; lia).
    rewrite (prod_nth LS u), (prod_nth (upd LS u 1) s), HLu, HLs by (unfold LS; rewrite ?length_upd; lia).
    rewrite upd_upd_comm by lia. set (Q := prod (upd (upd LS u 1) s 1)).
    replace (Q * ns' * (e2 * A)) with (Q * ns' * e2 * A) by ring.
    rewrite Nat.div_mul by lia. ring.
  - rewrite !length_upd. lia.
  - rewrite nth_upd_other, nth_upd_same by lia. exact Hext.
  - intros l. rewrite Hrc. unfold wire. rewrite Hdims. simpl fst. unfold last_axis.
    rewrite last_axis_app. reflexivity.
Qed.

Lemma received_all_permute : forall m t t0 t' r, step_type m t (AllPermute t0) = OK t' ->
  received m t (AllPermute t0) r
  = if rank m (holder m t t0 (device_of_rank m r)) =? r then 0 else local_size m t.
Proof.
  intros m t t0 t' r Hk. unfold received. rewrite Hk. simpl in Hk.
  destruct (ty_wf m t0); [| discriminate]. simpl in Hk.
  destruct (list_eqb (global_shape t0) (global_shape t)); [| discriminate]. simpl in Hk.
  destruct (list_eqb (local_shape m t0) (local_shape m t)) eqn:Hls; [| discriminate].
  injection Hk as <-. apply list_eqb_eq in Hls.
  rewrite (length_filter_const _ _ _ (negb (rank m (holder m t t0 (device_of_rank m r)) =? r)))
    by reflexivity.
  destruct (rank m (holder m t t0 (device_of_rank m r)) =? r); [reflexivity |].
  simpl. rewrite length_box_indices, Hls. reflexivity.
Qed.

Theorem received_closed_form : forall m t k t' r, mesh_wf m = true -> ty_wf m t = true ->
  step_type m t k = OK t' -> r < mesh_size m -> received m t k r = recv_count m t k r.
Proof.
  intros m t k t' r Hm Ht Hk Hr. destruct k as [d x | d | s u | t0]; simpl recv_count.
  - eapply received_dyn_slice; eassumption.
  - eapply received_all_gather; eassumption.
  - eapply received_all_to_all; eassumption.
  - eapply received_all_permute; eassumption.
Qed.

(** ** The checker's per-rank figures: [step_recv] is [recv_count] *)

Lemma mesh_wf_tail : forall y s m, mesh_wf ((y, s) :: m) = true -> mesh_wf m = true.
Proof.
  intros y s m H. unfold mesh_wf, mesh_axes in *. apply andb_true_iff in H as [H1 H2].
  cbn [map nodupb forallb] in H1, H2. apply andb_true_iff in H1 as [_ H1].
  apply andb_true_iff in H2 as [_ H2]. rewrite H1, H2. reflexivity.
Qed.

Lemma axis_size_cons_other : forall y s m z, z <> y -> axis_size ((y, s) :: m) z = axis_size m z.
Proof. intros y s m z H. simpl. destruct (Nat.eqb_spec z y); [contradiction | reflexivity]. Qed.

(** The weight [rank_weights] gives an axis is the product of the sizes of the axes after it. *)
Lemma rank_weights_spec : forall m x, mesh_wf m = true -> In x (mesh_axes m) ->
  exists pre post, mesh_axes m = pre ++ x :: post
  /\ weight_of (rank_weights m) x = (prod (map (axis_size m) post), axis_size m x).
Proof.
  induction m as [|[y s] m IH]; intros x Hm Hx; [contradiction |].
  pose proof (mesh_wf_NoDup _ Hm) as Hnd. simpl in Hnd, Hx.
  inversion Hnd as [| ? ? Hy Hnd']. subst.
  assert (Hsame : forall z, In z (mesh_axes m) -> axis_size ((y, s) :: m) z = axis_size m z).
  { intros z Hz. apply axis_size_cons_other. intros ->. contradiction. }
  unfold rank_weights, weight_of. fold rank_weights weight_of.
  destruct (Nat.eqb_spec x y) as [-> | Hne].
  - exists [], (mesh_axes m). split; [reflexivity |].
    rewrite (map_ext_in _ _ _ Hsame), map_axis_size_mesh_axes by assumption.
    simpl. rewrite Nat.eqb_refl. reflexivity.
  - destruct Hx as [Hx | Hx]; [congruence |].
    destruct (IH x (mesh_wf_tail _ _ _ Hm) Hx) as [pre [post [E W]]].
    exists (y :: pre), post. split; [simpl; rewrite E; reflexivity |].
    rewrite W, Hsame by exact Hx.
    rewrite (map_ext_in (axis_size ((y, s) :: m)) (axis_size m) post); [reflexivity |].
    intros z Hz. apply Hsame. rewrite E. apply in_or_app. right. right. exact Hz.
Qed.

(** A coordinate of the device of rank [r] is a digit of [r]. *)
Lemma device_digit : forall m r pre x post, mesh_wf m = true -> r < mesh_size m ->
  mesh_axes m = pre ++ x :: post ->
  device_of_rank m r x = r / prod (map (axis_size m) post) mod axis_size m x.
Proof.
  intros m r pre x post Hm Hr E.
  pose proof (rank_device_of_rank m r Hm Hr) as Hrk.
  pose proof (device_of_rank_in m r Hm Hr) as Hc.
  set (c := device_of_rank m r) in *.
  unfold rank in Hrk. rewrite E in Hrk.
  replace (pre ++ x :: post) with ((pre ++ [x]) ++ post) in Hrk by (rewrite <- app_assoc; reflexivity).
  rewrite radix_app_gen, radix_app in Hrk.
  assert (Hx : c x < axis_size m x).
  { apply Hc. rewrite E. apply in_or_app. right. left. reflexivity. }
  assert (Hp : radix m c post < prod (map (axis_size m) post)).
  { apply radix_lt. intros z Hz. apply Hc. rewrite E. apply in_or_app. right. right. exact Hz. }
  rewrite <- Hrk. set (w := prod (map (axis_size m) post)) in *.
  rewrite Nat.div_add_l by lia. rewrite (Nat.div_small _ _ Hp), Nat.add_0_r.
  rewrite Nat.add_comm, Nat.mod_add by lia. symmetry. apply Nat.mod_small. exact Hx.
Qed.

Lemma radix_of_rank_eq : forall m r xs, mesh_wf m = true -> r < mesh_size m ->
  (forall x, In x xs -> In x (mesh_axes m)) ->
  radix m (device_of_rank m r) xs = radix_of_rank (map (weight_of (rank_weights m)) xs) r.
Proof.
  intros m r xs Hm Hr Hxs. unfold radix, radix_of_rank. generalize 0.
  induction xs as [|x xs IH]; intros a; [reflexivity |]. simpl.
  rewrite IH by (intros z Hz; apply Hxs; right; exact Hz).
  destruct (rank_weights_spec m x Hm (Hxs x (or_introl eq_refl))) as [pre [post [E W]]].
  rewrite W, (device_digit m r pre x post Hm Hr E). reflexivity.
Qed.

Lemma moved_dims_spec : forall m r t t', mesh_wf m = true -> r < mesh_size m ->
  Forall2 (fun d d' => (forall x, In x (fst d) -> In x (mesh_axes m))
                       /\ (forall x, In x (fst d') -> In x (mesh_axes m))) t t' ->
  forallb (fun '(a, b) => radix_of_rank a r =? radix_of_rank b r) (moved_dims (rank_weights m) t t')
    = true
  <-> Forall2 (fun d d' => radix m (device_of_rank m r) (fst d) = radix m (device_of_rank m r) (fst d'))
             t t'.
Proof.
  intros m r t t' Hm Hr H.
  induction H as [| [xs n] [ys n'] u u' [Hx Hy] Hu IH]; simpl; [split; auto |].
  assert (Hcons : forall P : Prop, (P <-> Forall2 (fun d d' => radix m (device_of_rank m r) (fst d)
                                       = radix m (device_of_rank m r) (fst d')) u u') ->
            (radix m (device_of_rank m r) xs = radix m (device_of_rank m r) ys /\ P
             <-> Forall2 (fun d d' => radix m (device_of_rank m r) (fst d)
                           = radix m (device_of_rank m r) (fst d')) ((xs, n) :: u) ((ys, n') :: u'))).
  { intros P HP. rewrite HP. split.
    - intros [H1 H2]. constructor; assumption.
    - intros H1. inversion H1. subst. split; assumption. }
  destruct (list_eqb xs ys) eqn:E.
  - apply list_eqb_eq in E. subst ys. rewrite <- (Hcons _ IH). split; [auto | intros [_ H]; exact H].
  - simpl. rewrite andb_true_iff, Nat.eqb_eq, <- (Hcons _ IH).
    rewrite <- !radix_of_rank_eq by assumption. reflexivity.
Qed.

Lemma Forall2_with_left : forall A B (P : A -> B -> Prop) (Q : A -> Prop) l l',
  Forall2 P l l' -> (forall a, In a l -> Q a) -> Forall2 (fun a b => P a b /\ Q a) l l'.
Proof.
  intros A B P Q l l' H. induction H as [| a b l l' Hab Hl IH]; intros HQ; constructor.
  - split; [exact Hab | apply HQ; left; reflexivity].
  - apply IH. intros x Hx. apply HQ. right. exact Hx.
Qed.

(** Where every chunk index is the same under both types, the holder of
    every box is its own device. *)
Lemma holder_from_fixed : forall m t t' c0, NoDup (ty_axes t) ->
  (forall x, In x (ty_axes t) -> c0 x < axis_size m x) ->
  Forall2 (fun d d' => radix m c0 (fst d) = radix m c0 (fst d')) t t' ->
  forall c, (forall x, In x (ty_axes t) -> c x = c0 x) ->
  forall x, holder_from m t t' c0 c x = c x.
Proof.
  intros m t t' c0 Hnd Hin H.
  induction H as [| [xs n] [ys n'] u u' Hd Hu IH]; intros c Hc x; [reflexivity |].
  simpl in Hnd, Hin, Hc, Hd |- *. apply NoDup_app_inv in Hnd. destruct Hnd as [Hxs [Hnu Hdis]].
  rewrite IH.
  - destruct (in_dec Nat.eq_dec x xs) as [Hx | Hx].
    + rewrite <- Hd, set_radix_radix; [symmetry; apply Hc, in_or_app; left; exact Hx | exact Hxs | | exact Hx].
      intros z Hz. apply Hin, in_or_app. left. exact Hz.
    + apply set_radix_notin. exact Hx.
  - exact Hnu.
  - intros z Hz. apply Hin, in_or_app. right. exact Hz.
  - intros z Hz. rewrite set_radix_notin by (intros Hz'; exact (Hdis z Hz' Hz)).
    apply Hc, in_or_app. right. exact Hz.
Qed.

(** A rank keeps its data in a permute iff its chunk index is the same
    under both types in every dimension. *)
Lemma holder_rank_iff : forall m t t' r, mesh_wf m = true -> ty_wf m t = true -> ty_wf m t' = true ->
  global_shape t' = global_shape t -> local_shape m t' = local_shape m t -> r < mesh_size m ->
  rank m (holder m t t' (device_of_rank m r)) = r
  <-> Forall2 (fun d d' => radix m (device_of_rank m r) (fst d) = radix m (device_of_rank m r) (fst d'))
             t t'.
Proof.
  intros m t t' r Hm Ht Ht' Hg Hls Hr.
  pose proof Ht as Ht0. pose proof Ht' as Hw0.
  apply ty_wf_iff in Ht0, Hw0. destruct Ht0 as [Hdt Hnd]. destruct Hw0 as [Hdt' _].
  pose proof (same_shapes_dims m t t' Hm Hdt Hdt' Hg Hls) as Hdims.
  pose proof (rank_device_of_rank m r Hm Hr) as Hrk.
  pose proof (device_of_rank_in m r Hm Hr) as Hc.
  set (c := device_of_rank m r) in *.
  assert (Hfit : Forall2 (chunk_fits m c) t t').
  { eapply Forall2_weaken; [| exact Hdims]. intros d d' [_ [Hsh Hax]].
    unfold chunk_fits. rewrite Hsh. apply radix_lt. intros x Hx. apply Hc, Hax, Hx. }
  assert (Hmesh : forall x, In x (ty_axes t) -> In x (mesh_axes m)) by (apply ty_wf_axes_in_mesh; exact Ht).
  unfold holder. split.
  - intros E. rewrite <- Hrk in E.
    pose proof (proj1 (rank_inj m _ _ Hm (holder_from_in m t t' c c Hfit Hc) Hc) E) as Eq.
    clear E.
    pose proof (Forall2_with_left _ _ _ (fun d => forall x, In x (fst d) -> In x (mesh_axes m)) _ _
                  (holder_from_radix m t t' c c Hfit Hnd)) as Hrad.
    eapply Forall2_weaken; [| apply Hrad; intros d Hd x Hx; apply Hmesh; eapply In_ty_axes; eassumption].
    intros d d' [Hra Hax]. rewrite <- Hra. symmetry. apply radix_ext.
    intros x Hx. apply Eq, Hax, Hx.
  - intros H. rewrite <- Hrk. apply rank_ext. intros x _.
    apply (holder_from_fixed m t t' c Hnd); [| exact H | reflexivity].
    intros z Hz. apply Hc, Hmesh, Hz.
Qed.

Lemma step_recv_eq : forall m t k t' r, mesh_wf m = true -> ty_wf m t = true ->
  step_type m t k = OK t' -> r < mesh_size m -> step_recv m t k r = recv_count m t k r.
Proof.
  intros m t k t' r Hm Ht Hk Hr. destruct k as [d x | d | s u | t0]; try reflexivity.
  simpl in Hk. destruct (ty_wf m t0) eqn:Hw; simpl in Hk; [| discriminate].
  destruct (list_eqb (global_shape t0) (global_shape t)) eqn:Hg; simpl in Hk; [| discriminate].
  destruct (list_eqb (local_shape m t0) (local_shape m t)) eqn:Hls; simpl in Hk; [| discriminate].
  apply list_eqb_eq in Hg, Hls.
  assert (Hax : Forall2 (fun d d' => (forall x, In x (fst d) -> In x (mesh_axes m))
                                     /\ (forall x, In x (fst d') -> In x (mesh_axes m))) t t0).
  { apply ty_wf_iff in Hw. destruct Hw as [Hdt' _]. apply ty_wf_iff in Ht as Ht0.
    destruct Ht0 as [Hdt _].
    pose proof (same_shapes_dims m t t0 Hm Hdt Hdt' Hg Hls) as Hdims.
    eapply Forall2_weaken;
      [| apply (Forall2_with_left _ _ _ (fun d => forall x, In x (fst d) -> In x (mesh_axes m))
                                  _ _ Hdims)].
    - intros dd dd' [[_ [_ H1]] H2]. split; assumption.
    - intros dd Hd y Hy. apply (ty_wf_axes_in_mesh m t Ht). eapply In_ty_axes; eassumption. }
  pose proof (holder_rank_iff m t t0 r Hm Ht Hw Hg Hls Hr) as Hiff.
  rewrite <- (moved_dims_spec m r t t0 Hm Hr Hax) in Hiff.
  simpl step_recv. unfold permute_recv. simpl recv_count.
  destruct (rank m (holder m t t0 (device_of_rank m r)) =? r) eqn:E.
  - apply Nat.eqb_eq, Hiff in E. rewrite E. reflexivity.
  - destruct (forallb _ _) eqn:F; [| reflexivity].
    apply Nat.eqb_neq in E. exfalso. apply E, Hiff. reflexivity.
Qed.

(** ** The checker's report *)

Lemma check_steps_traffic : forall m p t i reps final r,
  mesh_wf m = true -> ty_wf m t = true -> r < mesh_size m ->
  check_steps m t p i = OK (reps, final) ->
  map (fun s => sr_recv s r) reps = received_trace m t p r.
Proof.
  intros m p. induction p as [|k p IH]; intros t i reps final r Hm Ht Hr H; simpl in H.
  - injection H as <- <-. reflexivity.
  - destruct (step_type m t k) as [t'|e] eqn:Hk; [| discriminate].
    destruct (check_steps m t' p (S i)) as [[reps' final']|e] eqn:Hc; [| discriminate].
    injection H as <- <-. simpl. rewrite Hk. f_equal.
    + rewrite (step_recv_eq m t k t' r Hm Ht Hk Hr).
      symmetry. eapply received_closed_form; eassumption.
    + eapply IH; [exact Hm | eapply (proj1 (step_type_wf m t k t' Hm Ht Hk)) | exact Hr | exact Hc].
Qed.

Theorem check_traffic : forall m src tgt p rep, check m src tgt p = OK rep ->
  forall r, r < mesh_size m -> map (fun s => sr_recv s r) (rp_steps rep) = received_trace m src p r.
Proof.
  intros m src tgt p rep H r Hr. unfold check in H.
  destruct (mesh_wf m) eqn:Hm; [| discriminate]. simpl in H.
  destruct (ty_wf m src) eqn:Hs; [| discriminate]. simpl in H.
  destruct (ty_wf m tgt); [| discriminate]. simpl in H.
  destruct (list_eqb (global_shape src) (global_shape tgt)); [| discriminate]. simpl in H.
  destruct (check_steps m src p 0) as [[reps final]|e] eqn:Hc; [| discriminate].
  destruct (ty_eqb final tgt); [| discriminate].
  injection H as <-. simpl. eapply check_steps_traffic; eassumption.
Qed.

(** The lower bound the command reports: the elements of the rank's target
    box that lie outside its source box. *)
Theorem lower_bound_recv_boxes : forall m src tgt r, mesh_wf m = true ->
  ty_wf m src = true -> ty_wf m tgt = true -> r < mesh_size m ->
  let c := device_of_rank m r in
  lower_bound_recv m src tgt r
  = local_size m tgt
    - prod (map (fun de => overlap (offset m (fst de) c) (extent m (fst de))
                                   (offset m (snd de) c) (extent m (snd de)))
                (combine src tgt)).
Proof.
  intros m src tgt r Hm Hs Ht Hr. cbv zeta. unfold lower_bound_recv. f_equal. f_equal.
  rewrite map_map. apply map_ext_in. intros [ds dt] Hin. simpl.
  apply in_combine_l in Hin as Hl. apply in_combine_r in Hin as Hr'.
  unfold offset. rewrite !radix_of_rank_eq; try assumption; [reflexivity | |];
    intros x Hx; [apply (ty_wf_axes_in_mesh m tgt Ht) | apply (ty_wf_axes_in_mesh m src Hs)];
    eapply In_ty_axes; eassumption.
Qed.
