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
Lemma msum_seq_first : forall (f : nat -> A) n, 1 <= n -> (forall k, 1 <= k -> f k = o) ->
  msum M (map f (seq 0 n)) = f 0.
Proof.
  intros f n Hn Hf. destruct n as [|n]; [lia |].
  rewrite <- cons_seq. simpl map. rewrite msum_cons, <- seq_shift, map_map.
  rewrite (msum_ext_in _ _ (fun _ => o)) by (intros k _; apply Hf; lia).
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

End Sums.
