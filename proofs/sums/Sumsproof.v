(** * Soundness of the collectives on pending sums, and their exact traffic.

    Over any commutative monoid: Part 1's [holds] is [sholds] with no pending
    axis; [reduce_scatter], [all_reduce] and [add_pending] take a state that
    holds the old pending-sum type to one that holds the new one; the
    elements each rank receives, counted from the data movement, are
    [(|a|-1)] per position of its new local array.  The one fact about sums
    they rest on is [group_sum_regroup]: summing over an [S]-group is summing,
    over the [(S - a)]-group, the sums along [a]. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Trafficproof Sums.

Section Sums.
Variable M : cmonoid.
Notation A := (carrier M).
Notation "x + y" := (add M x y).
Notation o := (zero M).

(** ** Sums of lists *)

Lemma add_zero_r : forall x : A, x + o = x.
Proof. intros x. rewrite add_comm. apply add_zero_l. Qed.

Lemma fold_add_acc : forall (xs : list A) a b,
  fold_left (add M) xs (a + b) = a + fold_left (add M) xs b.
Proof.
  induction xs as [|x xs IH]; intros a b; simpl; [reflexivity |].
  rewrite <- add_assoc. apply IH.
Qed.

Lemma msum_nil : msum M [] = o.
Proof. reflexivity. Qed.

Lemma msum_cons : forall x xs, msum M (x :: xs) = x + msum M xs.
Proof.
  intros x xs. unfold msum. simpl. rewrite add_zero_l, <- fold_add_acc, add_zero_r.
  reflexivity.
Qed.

Lemma msum_map_zero : forall B (ks : list B), msum M (map (fun _ => o) ks) = o.
Proof.
  intros B ks. induction ks as [|k ks IH]; [reflexivity |].
  simpl map. rewrite msum_cons, IH. apply add_zero_l.
Qed.

Lemma msum_map_add : forall B (f g : B -> A) ks,
  msum M (map (fun k => f k + g k) ks) = msum M (map f ks) + msum M (map g ks).
Proof.
  intros B f g ks. induction ks as [|k ks IH]; simpl map.
  - rewrite !msum_nil. symmetry. apply add_zero_l.
  - rewrite !msum_cons, IH.
    rewrite <- !add_assoc. f_equal. rewrite !add_assoc. f_equal. apply add_comm.
Qed.

Lemma msum_ext_in : forall B (f g : B -> A) ks, (forall k, In k ks -> f k = g k) ->
  msum M (map f ks) = msum M (map g ks).
Proof. intros B f g ks H. f_equal. apply map_ext_in. exact H. Qed.

Lemma msum_swap : forall B C (F : B -> C -> A) is js,
  msum M (map (fun i => msum M (map (fun j => F i j) js)) is)
  = msum M (map (fun j => msum M (map (fun i => F i j) is)) js).
Proof.
  intros B C F is js. induction is as [|i is IH]; simpl map.
  - rewrite msum_nil. symmetry. apply msum_map_zero.
  - rewrite msum_cons, IH.
    rewrite (msum_ext_in _ (fun j => msum M (F i j :: map (fun i0 => F i0 j) is))
                          (fun j => F i j + msum M (map (fun i0 => F i0 j) is)))
      by (intros j _; apply msum_cons).
    rewrite msum_map_add. reflexivity.
Qed.

(** A sum over [0 .. n-1] where only index [0] contributes. *)
Lemma msum_seq_first : forall (f : nat -> A) n, 1 <= n -> (forall k, 1 <= k < n -> f k = o) ->
  msum M (map f (seq 0 n)) = f 0.
Proof.
  intros f n Hn Hf. destruct n as [|n]; [lia |].
  rewrite <- cons_seq. simpl map. rewrite msum_cons, <- seq_shift, map_map.
  rewrite (msum_ext_in _ _ (fun _ => o))
    by (intros k Hk; apply in_seq in Hk; apply Hf; lia).
  rewrite msum_map_zero. apply add_zero_r.
Qed.

(** ** Group sums *)

Variable m : mesh.

(** [f] reads only the mesh coordinates of a device (as [rank] does). *)
Definition respects (f : device -> A) : Prop :=
  forall c c', (forall y, In y (mesh_axes m) -> c y = c' y) -> f c = f c'.

Lemma respects_set_coord : forall f a k, respects f -> respects (fun c => f (set_coord c a k)).
Proof.
  intros f a k Hf c c' H. apply Hf. intros y Hy. unfold set_coord.
  destruct (Nat.eqb y a); auto.
Qed.

Lemma respects_rank : forall (st : state A) l, respects (fun c => st (rank m c) l).
Proof. intros st l c c' H. rewrite (rank_ext m c c' H). reflexivity. Qed.

(** Only the pending axes listed in [xs] matter. *)
Lemma group_sum_pending_ext : forall ps ps' xs c f,
  (forall y, In y xs -> memb y ps = memb y ps') ->
  group_sum_along M m ps xs c f = group_sum_along M m ps' xs c f.
Proof.
  intros ps ps' xs. induction xs as [|x xs IH]; intros c f H; simpl; [reflexivity |].
  rewrite <- (H x (or_introl eq_refl)).
  assert (H' : forall y, In y xs -> memb y ps = memb y ps') by (intros y Hy; apply H; right; exact Hy).
  destruct (memb x ps); [apply msum_ext_in; intros k _ |]; apply IH; exact H'.
Qed.

(** The summand is only read at devices that agree with [c] outside the
    pending axes of [xs] and are within range on those. *)
Lemma group_sum_ext_in : forall ps xs c f f',
  (forall c', (forall y, ~ (In y xs /\ memb y ps = true) -> c' y = c y) ->
              (forall y, In y xs -> memb y ps = true -> c' y < axis_size m y) ->
              f c' = f' c') ->
  group_sum_along M m ps xs c f = group_sum_along M m ps xs c f'.
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c f f' H; simpl.
  - apply H; [intros y _; reflexivity | intros y []].
  - destruct (memb x ps) eqn:Hx.
    + apply msum_ext_in. intros k Hk. apply in_seq in Hk. apply IH.
      intros c' Hout Hin. apply H.
      * intros y Hy. destruct (Nat.eq_dec y x) as [-> | Hne].
        -- exfalso. apply Hy. split; [left; reflexivity | exact Hx].
        -- rewrite Hout by (intros [Hy1 Hy2]; apply Hy; split; [right; exact Hy1 | exact Hy2]).
           apply set_coord_other. exact Hne.
      * intros y [-> | Hy] Hyp.
        -- destruct (in_dec Nat.eq_dec y xs) as [Hyx | Hyx]; [apply Hin; assumption |].
           rewrite Hout by tauto. rewrite set_coord_same. lia.
        -- apply Hin; assumption.
    + apply IH. intros c' Hout Hin. apply H.
      * intros y Hy. apply Hout. intros [Hy1 Hy2]. apply Hy. split; [right; exact Hy1 | exact Hy2].
      * intros y [-> | Hy] Hyp; [congruence | apply Hin; assumption].
Qed.

(** Devices that agree on the mesh axes have the same group sums. *)
Lemma group_sum_device_ext : forall ps xs c c' f, respects f ->
  (forall y, In y (mesh_axes m) -> c y = c' y) ->
  group_sum_along M m ps xs c f = group_sum_along M m ps xs c' f.
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c c' f Hf H; simpl; [apply Hf; exact H |].
  destruct (memb x ps); [apply msum_ext_in; intros k _ |]; apply IH; auto.
  intros y Hy. unfold set_coord. destruct (Nat.eqb y x); auto.
Qed.

(** Moving the starting device along an axis that is not summed here. *)
Lemma group_sum_set_coord : forall ps xs c f a k, respects f ->
  (~ In a xs \/ memb a ps = false) ->
  group_sum_along M m ps xs (set_coord c a k) f
  = group_sum_along M m ps xs c (fun c' => f (set_coord c' a k)).
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c f a k Hf Ha; simpl; [reflexivity |].
  assert (Ha' : ~ In a xs \/ memb a ps = false) by (destruct Ha as [Ha | Ha]; [left; intros H; apply Ha; right; exact H | right; exact Ha]).
  destruct (memb x ps) eqn:Hx.
  - apply msum_ext_in. intros j _. rewrite <- IH by assumption.
    apply group_sum_device_ext; [exact Hf |].
    assert (Hne : x <> a).
    { intros ->. destruct Ha as [Ha | Ha]; [apply Ha; left; reflexivity | congruence]. }
    intros y _. unfold set_coord.
    destruct (Nat.eqb_spec y x); destruct (Nat.eqb_spec y a); congruence.
  - apply IH; assumption.
Qed.

(** A group sum of sums is the sum of the group sums. *)
Lemma group_sum_linear : forall B ps xs c (F : B -> device -> A) ks,
  group_sum_along M m ps xs c (fun c' => msum M (map (fun k => F k c') ks))
  = msum M (map (fun k => group_sum_along M m ps xs c (F k)) ks).
Proof.
  intros B ps xs. induction xs as [|x xs IH]; intros c F ks; simpl; [reflexivity |].
  destruct (memb x ps).
  - rewrite (msum_ext_in _ _ (fun j => msum M (map (fun k => group_sum_along M m ps xs
                                                      (set_coord c x j) (F k)) ks)))
      by (intros j _; apply IH).
    apply msum_swap.
  - apply IH.
Qed.

Lemma memb_remove_axis : forall a ps y,
  memb y (remove_axis a ps) = memb y ps && negb (y =? a).
Proof.
  intros a ps y. unfold remove_axis, memb. induction ps as [|x ps IH]; simpl; [reflexivity |].
  destruct (x =? a) eqn:Hxa; simpl; rewrite IH; destruct (y =? x) eqn:Hy; simpl; try reflexivity.
  - apply Nat.eqb_eq in Hxa, Hy. subst. rewrite Nat.eqb_refl, !andb_false_r. reflexivity.
  - apply Nat.eqb_eq in Hy. subst. rewrite Hxa. reflexivity.
Qed.

(** The sum over an [S]-group, [a] in [S], is the sum over the
    [(S - a)]-group of the sums along [a]. *)
Lemma group_sum_regroup : forall ps xs a c f, respects f ->
  memb a ps = true -> In a xs -> NoDup xs ->
  group_sum_along M m ps xs c f
  = group_sum_along M m (remove_axis a ps) xs c
      (fun c' => msum M (map (fun k => f (set_coord c' a k)) (seq 0 (axis_size m a)))).
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros a c f Hf Ha Hin Hnd; [destruct Hin |].
  inversion Hnd as [| ? ? Hx Hnd']. subst. simpl group_sum_along.
  rewrite memb_remove_axis.
  destruct (Nat.eqb_spec x a) as [-> | Hxa].
  - rewrite Ha. simpl.
    rewrite group_sum_linear. apply msum_ext_in. intros k _.
    rewrite (group_sum_set_coord ps xs c f a k Hf (or_introl Hx)).
    apply group_sum_pending_ext. intros y Hy. rewrite memb_remove_axis.
    destruct (Nat.eqb_spec y a) as [-> | _]; [contradiction | symmetry; apply andb_true_r].
  - simpl. rewrite andb_true_r.
    destruct Hin as [-> | Hin]; [congruence |].
    destruct (memb x ps).
    + apply msum_ext_in. intros k _. apply IH; assumption.
    + apply IH; assumption.
Qed.


Lemma msum_single : forall x, msum M [x] = x.
Proof. intros x. rewrite msum_cons. apply add_zero_r. Qed.

(** ** Pending sums over the whole mesh *)

Hypothesis Hm : mesh_wf m = true.

(** Over the mesh, the summand is only read at devices of the mesh that
    agree with [c] outside the pending axes. *)
Lemma group_sum_in_group : forall ps c f f', device_in m c ->
  (forall c', device_in m c' -> (forall y, memb y ps = false -> c' y = c y) -> f c' = f' c') ->
  group_sum_along M m ps (mesh_axes m) c f = group_sum_along M m ps (mesh_axes m) c f'.
Proof.
  intros ps c f f' Hc H. apply group_sum_ext_in. intros c' Hout Hin. apply H.
  - intros x Hx. destruct (memb x ps) eqn:Hxp; [apply Hin; assumption |].
    rewrite Hout by (intros [_ E]; congruence). apply Hc. exact Hx.
  - intros y Hy. apply Hout. intros [_ E]. congruence.
Qed.

Lemma group_sum_empty : forall xs c f, group_sum_along M m [] xs c f = f c.
Proof. induction xs as [|x xs IH]; intros c f; simpl; [reflexivity | apply IH]. Qed.

Lemma holds_ext_state : forall t g (st st' : state A),
  (forall r l, r < mesh_size m -> in_box (local_shape m t) l -> st' r l = st r l) ->
  holds m t g st -> holds m t g st'.
Proof. intros t g st st' E H r Hr l Hl. rewrite E by assumption. apply H; assumption. Qed.

(** A device's coordinate read back through its rank. *)
Lemma coord_through_rank : forall c y, device_in m c -> In y (mesh_axes m) ->
  device_of_rank m (rank m c) y = c y.
Proof. intros c y Hc Hy. apply device_of_rank_rank; assumption. Qed.

(** The members along [a], read at their ranks, are the members along [a]. *)
Lemma sum_along_rank : forall (st : state A) c a (L : list nat), device_in m c ->
  msum M (map (fun src => st (rank m (fst src)) (snd src))
              (map (fun c' => (c', L)) (along m (device_of_rank m (rank m c)) a)))
  = msum M (map (fun k => st (rank m (set_coord c a k)) L) (seq 0 (axis_size m a))).
Proof.
  intros st c a L Hc. unfold along. rewrite !map_map. apply msum_ext_in. intros k _.
  simpl. f_equal. apply rank_ext. intros y Hy. unfold set_coord.
  destruct (Nat.eqb y a); [reflexivity | apply coord_through_rank; assumption].
Qed.

(** All-reduce leaves the value of every [(S - a)]-group: the [S]-group sum. *)
Lemma pending_value_all_reduce : forall t ps a st r l, memb a ps = true -> In a (mesh_axes m) ->
  r < mesh_size m ->
  pending_value M m (remove_axis a ps) (exec_sum_step M m (t, ps) (AllReduce a) st) r l
  = pending_value M m ps st r l.
Proof.
  intros t ps a st r l Ha Ham Hr. unfold pending_value. symmetry.
  unfold group_sum at 1.
  rewrite (group_sum_regroup ps (mesh_axes m) a); auto;
    [| apply respects_rank | apply mesh_wf_NoDup; exact Hm].
  apply group_sum_in_group; [apply device_of_rank_in; assumption |].
  intros c' Hc' _. unfold exec_sum_step, sum_wire. symmetry. apply sum_along_rank. exact Hc'.
Qed.

(** Reduce-scatter is all-reduce followed by Part 1's [dyn_slice] on the sums. *)
Lemma pending_value_reduce_scatter : forall t ps d a st r l,
  memb a ps = true -> In a (mesh_axes m) -> r < mesh_size m ->
  pending_value M m (remove_axis a ps) (exec_sum_step M m (t, ps) (ReduceScatter d a) st) r l
  = exec_step m t (DynSlice d a) (pending_value M m ps st) r l.
Proof.
  intros t ps d a st r l Ha Ham Hr.
  set (c := device_of_rank m r).
  set (L := fun c0 => snd (wire m t (DynSlice d a) c0 l)).
  assert (Ewire : wire m t (DynSlice d a) c l = (c, L c)) by reflexivity.
  unfold exec_step. fold c. rewrite Ewire. unfold c at 1. rewrite rank_device_of_rank by assumption.
  unfold pending_value at 2, group_sum.
  rewrite (group_sum_regroup ps (mesh_axes m) a); auto;
    [| apply respects_rank | apply mesh_wf_NoDup; exact Hm].
  unfold pending_value. fold c.
  apply group_sum_in_group; [apply device_of_rank_in; assumption |].
  intros c' Hc' Hgroup. unfold exec_sum_step, sum_wire. simpl fst.
  assert (Ea : device_of_rank m (rank m c') a = c a).
  { rewrite coord_through_rank by assumption. apply Hgroup.
    rewrite memb_remove_axis, Nat.eqb_refl, andb_false_r. reflexivity. }
  assert (EL : snd (wire m t (DynSlice d a) (device_of_rank m (rank m c')) l) = L c).
  { unfold L. simpl. rewrite Ea. reflexivity. }
  rewrite EL. apply sum_along_rank. exact Hc'.
Qed.

Lemma pty_wf_pending : forall t ps a, pty_wf m (t, ps) = true -> memb a ps = true ->
  ty_wf m t = true /\ In a (mesh_axes m) /\ memb a (ty_axes t) = false.
Proof.
  intros t ps a H Ha. unfold pty_wf in H. simpl in H.
  apply andb_true_iff in H. destruct H as [H Hall]. apply andb_true_iff in H. destruct H as [Ht _].
  rewrite forallb_forall in Hall. apply memb_In in Ha. specialize (Hall a Ha).
  apply andb_true_iff in Hall. destruct Hall as [Hin Hnot].
  split; [exact Ht | split; [apply memb_In; exact Hin | apply negb_true_iff; exact Hnot]].
Qed.

(** ** The collectives are sound *)

(** Part 1's [holds] is [sholds] with no pending axis, for every monoid. *)
Theorem holds_sholds_empty : forall t g (st : state A),
  holds m t g st <-> sholds M m (t, []) g st.
Proof.
  intros t g st. unfold sholds, pending_value, group_sum. simpl.
  split; apply holds_ext_state; intros r l Hr _; rewrite group_sum_empty, rank_device_of_rank;
    auto.
Qed.

Theorem all_reduce_sound : forall p a p' g (st : state A),
  pty_wf m p = true -> sum_step_type m p (AllReduce a) = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_step M m p (AllReduce a) st).
Proof.
  intros [t ps] a p' g st Hw Hk Hst. simpl in Hk.
  destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate]. inversion Hk. subst p'. clear Hk.
  destruct (pty_wf_pending t ps a Hw Ha) as [_ [Ham _]].
  unfold sholds in *. simpl in *. revert Hst. apply holds_ext_state. intros r l Hr _.
  apply pending_value_all_reduce; assumption.
Qed.

Theorem reduce_scatter_sound : forall p d a p' g (st : state A),
  pty_wf m p = true -> sum_step_type m p (ReduceScatter d a) = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_step M m p (ReduceScatter d a) st).
Proof.
  intros [t ps] d a p' g st Hw Hk Hst. simpl in Hk.
  destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
  destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (extent m (xs, n) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  inversion Hk. subst p'. clear Hk.
  destruct (pty_wf_pending t ps a Hw Ha) as [Ht [Ham Hat]].
  assert (Hslice : step_type m t (DynSlice d a) = OK (set_dim t d (xs ++ [a], n))).
  { simpl. rewrite Hd. apply memb_In in Ham. rewrite Ham, Hat, Hdiv. reflexivity. }
  unfold sholds in *. simpl in *.
  apply (holds_ext_state _ _ (exec_step m t (DynSlice d a) (pending_value M m ps st))).
  - intros r l Hr _. apply pending_value_reduce_scatter; assumption.
  - eapply dyn_slice_sound; eassumption.
Qed.

Theorem add_pending_sound : forall p a p' g (st : state A),
  pty_wf m p = true -> sum_step_type m p (AddPending a) = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_step M m p (AddPending a) st).
Proof.
  intros [t ps] a p' g st Hw Hk Hst. simpl in Hk.
  destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hk; [| discriminate].
  destruct (memb a (ty_axes t)) eqn:Hat; [discriminate |].
  destruct (memb a ps) eqn:Ha; [discriminate |]. inversion Hk. subst p'. clear Hk.
  apply memb_In in Ham.
  assert (Ht : ty_wf m t = true)
    by (unfold pty_wf in Hw; simpl in Hw; apply andb_true_iff in Hw; destruct Hw as [Hw _];
        apply andb_true_iff in Hw; apply Hw).
  assert (Hsz : 1 <= axis_size m a) by (apply mesh_wf_size_pos; assumption).
  unfold sholds in *. simpl in *. intros r Hr l Hl.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  unfold pending_value, group_sum.
  rewrite (group_sum_regroup (a :: ps) (mesh_axes m) a); auto;
    [| apply respects_rank | simpl; rewrite Nat.eqb_refl; reflexivity
     | apply mesh_wf_NoDup; exact Hm].
  rewrite (group_sum_pending_ext _ ps)
    by (intros y _; rewrite memb_remove_axis; unfold memb; simpl;
        destruct (Nat.eqb_spec y a) as [-> | _];
        [simpl; symmetry; exact Ha | simpl; apply andb_true_r]).
  rewrite (group_sum_in_group ps c _ (fun c' => st (rank m (set_coord c' a 0)) l)); [| exact Hc |].
  2: { intros c' Hc' _. rewrite msum_seq_first; [| exact Hsz |].
       - unfold exec_sum_step, sum_wire.
         rewrite coord_through_rank by first [exact Ham | apply device_in_set_coord; [exact Hc' | lia]].
         rewrite set_coord_same. simpl. rewrite msum_single.
         f_equal. apply rank_ext. intros y Hy. apply coord_through_rank; auto.
         apply device_in_set_coord; [exact Hc' | lia].
       - intros k Hk. unfold exec_sum_step, sum_wire.
         rewrite coord_through_rank by first [exact Ham | apply device_in_set_coord; [exact Hc' | lia]].
         rewrite set_coord_same. destruct (Nat.eqb_spec k 0); [lia | reflexivity]. }
  unfold group_sum.
  rewrite <- (group_sum_set_coord ps (mesh_axes m) c (fun c' => st (rank m c') l) a 0)
    by (auto using respects_rank).
  set (c0 := set_coord c a 0).
  assert (Hc0 : device_in m c0) by (apply device_in_set_coord; [exact Hc | lia]).
  rewrite (group_sum_device_ext ps _ c0 (device_of_rank m (rank m c0)))
    by (auto using respects_rank; intros y Hy; symmetry; apply coord_through_rank; assumption).
  fold (group_sum M m ps (device_of_rank m (rank m c0)) (fun c' => st (rank m c') l)).
  fold (pending_value M m ps st (rank m c0) l).
  rewrite (holds_at_device m t _ g (pending_value M m ps st) c0 l Hm Ht Hst Hc0 Hl).
  f_equal. apply box_index_ext. intros x Hx. unfold c0, set_coord.
  destruct (Nat.eqb_spec x a) as [-> | _]; [| reflexivity].
  apply memb_false_notIn in Hat. contradiction.
Qed.

(** ** Sequences of steps *)

Lemma pty_wf_intro : forall t ps, ty_wf m t = true -> NoDup ps ->
  (forall a, In a ps -> In a (mesh_axes m) /\ ~ In a (ty_axes t)) -> pty_wf m (t, ps) = true.
Proof.
  intros t ps Ht Hnd H. unfold pty_wf. simpl. rewrite Ht, (proj2 (nodupb_NoDup ps) Hnd). simpl.
  apply forallb_forall. intros a Ha. destruct (H a Ha) as [H1 H2].
  apply memb_In in H1. apply memb_false_notIn in H2. rewrite H1, H2. reflexivity.
Qed.

Lemma pty_wf_elim : forall t ps, pty_wf m (t, ps) = true ->
  ty_wf m t = true /\ NoDup ps /\ (forall a, In a ps -> In a (mesh_axes m) /\ ~ In a (ty_axes t)).
Proof.
  intros t ps H. unfold pty_wf in H. simpl in H. rewrite !andb_true_iff in H.
  destruct H as [[Ht Hnd] Hall]. apply nodupb_NoDup in Hnd. rewrite forallb_forall in Hall.
  split; [exact Ht | split; [exact Hnd |]]. intros a Ha. specialize (Hall a Ha).
  apply andb_true_iff in Hall. destruct Hall as [H1 H2].
  apply negb_true_iff, memb_false_notIn in H2. apply memb_In in H1. auto.
Qed.

Lemma In_remove_axis : forall a ps y, In y (remove_axis a ps) <-> In y ps /\ y <> a.
Proof.
  intros a ps y. unfold remove_axis. rewrite filter_In, negb_true_iff, Nat.eqb_neq. tauto.
Qed.

(** A step that type-checks from a well-formed pending-sum type yields one. *)
Theorem sum_step_type_wf : forall p k p', pty_wf m p = true -> sum_step_type m p k = OK p' ->
  pty_wf m p' = true.
Proof.
  intros [t ps] k p' Hw Hk. destruct (pty_wf_elim t ps Hw) as [Ht [Hnd Hps]].
  destruct k as [d a | a | a]; simpl in Hk.
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
    destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (extent m (xs, n) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
    inversion Hk. subst p'. clear Hk. apply memb_In in Ha. destruct (Hps a Ha) as [Ham Hat].
    apply pty_wf_intro.
    + apply ty_wf_slice with (n := n); auto. apply Nat.eqb_eq. exact Hdiv.
    + apply NoDup_filter. exact Hnd.
    + intros b Hb. apply In_remove_axis in Hb. destruct Hb as [Hb Hba].
      destruct (Hps b Hb) as [Hbm Hbt]. split; [exact Hbm |].
      destruct (ty_axes_upd t d (xs, n) (xs ++ [a], n) Hd) as [P [Q [E1 E2]]].
      unfold set_dim. rewrite E2. rewrite E1 in Hbt. simpl in *.
      rewrite !in_app_iff in *. simpl. intuition.
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
    inversion Hk. subst p'. clear Hk. apply pty_wf_intro; [exact Ht | apply NoDup_filter; exact Hnd |].
    intros b Hb. apply In_remove_axis in Hb. apply Hps. apply Hb.
  - destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hk; [| discriminate].
    destruct (memb a (ty_axes t)) eqn:Hat; [discriminate |].
    destruct (memb a ps) eqn:Ha; [discriminate |]. inversion Hk. subst p'. clear Hk.
    apply memb_In in Ham. apply memb_false_notIn in Hat, Ha.
    apply pty_wf_intro; [exact Ht | constructor; assumption |].
    intros b [<- | Hb]; [auto | apply Hps; exact Hb].
Qed.

Theorem sum_step_sound : forall p k p' g (st : state A),
  pty_wf m p = true -> sum_step_type m p k = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_step M m p k st).
Proof.
  intros p [d a | a | a] p' g st Hw Hk Hst.
  - eapply reduce_scatter_sound; eassumption.
  - eapply all_reduce_sound; eassumption.
  - eapply add_pending_sound; eassumption.
Qed.

(** A sequence of steps that type-checks from a well-formed pending-sum
    type takes every state holding it to one holding the final type. *)
Theorem sum_plan_sound : forall ks p p' g (st : state A),
  pty_wf m p = true -> sum_plan_type m p ks = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_plan M KeepOne m p ks st).
Proof.
  induction ks as [|k ks IH]; intros p p' g st Hw Hk Hst; simpl in *.
  - inversion Hk. subst. exact Hst.
  - destruct (sum_step_type m p k) as [p1|] eqn:Hk1; [| discriminate].
    apply (IH p1); [eapply sum_step_type_wf; eassumption | exact Hk |].
    eapply sum_step_sound; eassumption.
Qed.

(** ** Traffic *)

(** One position of the new array: every member along [a] but the rank
    itself sends its contribution. *)
Lemma received_along : forall r a (L : list nat), r < mesh_size m -> In a (mesh_axes m) ->
  length (filter (fun src : device * list nat => negb (rank m (fst src) =? r))
                 (map (fun c' => (c', L)) (along m (device_of_rank m r) a)))
  = axis_size m a - 1.
Proof.
  intros r a L Hr Ha. unfold along. rewrite map_map, length_filter_map. simpl.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  rewrite (filter_ext_in _ (fun k => negb (k =? c a))).
  - apply count_seq_neq. apply Hc. exact Ha.
  - intros k Hk. apply in_seq in Hk. f_equal.
    assert (Er : rank m c = r) by (apply rank_device_of_rank; assumption).
    rewrite <- Er at 1. apply rank_set_coord_eqb; auto. lia.
Qed.

(** The elements each rank receives, counted from the data movement:
    [(|a|-1)] per position of its new local array for a reduce-scatter or an
    all-reduce over [a], none for adding a pending axis. *)
Theorem sum_received_exact : forall p k p' r, pty_wf m p = true -> r < mesh_size m ->
  sum_step_type m p k = OK p' -> sum_received m p k r = sum_recv_count m p' k.
Proof.
  intros [t ps] k p' r Hw Hr Hk. unfold sum_received. rewrite Hk.
  assert (Hcount : forall a, memb a ps = true -> forall L : list nat -> list nat,
    length (filter (fun src : device * list nat => negb (rank m (fst src) =? r))
      (flat_map (fun l => map (fun c' => (c', L l)) (along m (device_of_rank m r) a))
                (box_indices (local_shape m (fst p')))))
    = (axis_size m a - 1) * local_size m (fst p')).
  { intros a Ha L. destruct (pty_wf_pending t ps a Hw Ha) as [_ [Ham _]].
    rewrite (count_flat_map _ _ _ _ (fun _ => true) (axis_size m a - 1)).
    - rewrite length_filter_true, length_box_indices. reflexivity.
    - intros l. apply received_along; assumption. }
  destruct k as [d a | a | a]; simpl in Hk.
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
    apply (Hcount a Ha (fun l => snd (wire m t (DynSlice d a) (device_of_rank m r) l))).
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate]. apply (Hcount a Ha (fun l => l)).
  - simpl. rewrite (count_flat_map _ _ _ _ (fun _ => true) 0); [lia |].
    intros l. simpl. destruct (device_of_rank m r a =? 0); simpl; [| reflexivity].
    rewrite rank_device_of_rank, Nat.eqb_refl by assumption. reflexivity.
Qed.

(** In the old type's terms: a reduce-scatter over [a] leaves [1/|a|] of the
    local array, so a rank receives [(|a|-1)/|a|] of its old local size. *)
Lemma reduce_scatter_local_size : forall p d a p', pty_wf m p = true ->
  sum_step_type m p (ReduceScatter d a) = OK p' ->
  local_size m (fst p') * axis_size m a = local_size m (fst p).
Proof.
  intros [t ps] d a p' Hw Hk. simpl in Hk.
  destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
  destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (extent m (xs, n) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
  inversion Hk. subst p'. clear Hk. simpl fst.
  destruct (pty_wf_pending t ps a Hw Ha) as [Ht [Ham Hat]].
  apply Nat.eqb_eq in Hdiv.
  assert (Hdw : dim_wf m (xs, n) = true)
    by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hd]).
  destruct (dim_wf_snoc m xs a n Hm Hdw Ham Hdiv) as [_ He].
  assert (Hdlt : d < length t) by (apply nth_error_Some; congruence).
  unfold local_size. rewrite local_shape_set_dim.
  rewrite (prod_nth (local_shape m t) d) by (rewrite length_local_shape; exact Hdlt).
  rewrite prod_upd by (rewrite length_local_shape; exact Hdlt).
  rewrite nth_local_shape, (nth_error_nth t d ([], 0) Hd), He. lia.
Qed.

End Sums.

(** A fill is sound for [M] when every sequence of steps that type-checks,
    run with it, takes every state holding its source to one holding its
    target: [KeepOne] for every monoid ([keep_one_sound]), [KeepAll] for an
    idempotent one ([Reductionsproof.keep_all_sound]). *)
Definition fill_sound (M : cmonoid) (fl : fill) : Prop :=
  forall m ks p p' g (st : state (carrier M)),
  mesh_wf m = true -> pty_wf m p = true -> sum_plan_type m p ks = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_plan M fl m p ks st).

Theorem keep_one_sound : forall M, fill_sound M KeepOne.
Proof. intros M m ks p p' g st Hm. apply sum_plan_sound. exact Hm. Qed.
