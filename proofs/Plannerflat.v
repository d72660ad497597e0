(** * The flat phase reaches its goal on a mesh of prime axes.

    From a well-formed type [t] to a well-formed goal [g] with the same
    global shape and local size, [flat_steps] finds an all-to-all whenever
    the local shapes differ, and each one multiplies
    [Psi t = prod_d gcd(n_d(t), n_d(g))] by a prime; [Psi] never exceeds the
    local size, so the local size is enough fuel.  When the shapes agree,
    one permute (or nothing) finishes. *)

From Coq Require Import List Arith Lia Bool Permutation.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner Plannerarith.
From Redist Require Import Semanticsproof Trafficproof Checkerproof Plannerproof.

(** Every axis has size 1 or a prime size. *)
Definition atoms_prime (m : mesh) : Prop :=
  forall x, In x (mesh_axes m) -> axis_size m x = 1 \/ prime (axis_size m x).

(** ** Small facts about types *)

Lemma nth_dim_of : forall t d, d < length t -> nth_error t d = Some (dim_of t d).
Proof.
  intros t d Hd. unfold dim_of. apply nth_error_nth'. exact Hd.
Qed.

Lemma ext_pos : forall m t d, mesh_wf m = true -> ty_wf m t = true -> d < length t ->
  0 < ext m t d.
Proof.
  intros m t d Hm Ht Hd. unfold ext.
  pose proof (extent_wf_pos m t d _ Hm Ht (nth_dim_of t d Hd)). lia.
Qed.

Lemma local_size_pseq : forall m t, local_size m t = pseq (ext m t) (length t).
Proof.
  intros m t. unfold local_size, local_shape. rewrite (prod_map_pseq _ (extent m) t ([], 0)).
  reflexivity.
Qed.

Lemma global_length : forall t u, global_shape t = global_shape u -> length t = length u.
Proof.
  intros t u H. apply (f_equal (@length nat)) in H. unfold global_shape in H.
  rewrite !map_length in H. exact H.
Qed.

Lemma global_nth : forall t u d, global_shape t = global_shape u ->
  snd (dim_of t d) = snd (dim_of u d).
Proof.
  intros t u d H. unfold dim_of. revert u d H.
  induction t as [|a t IH]; intros [|b u] [|d] H; simpl in *; try discriminate; auto.
  - inversion H. auto.
  - inversion H. apply IH. auto.
Qed.

Lemma local_shape_ext : forall m t u, length t = length u ->
  (forall d, d < length t -> ext m t d = ext m u d) -> local_shape m t = local_shape m u.
Proof.
  intros m t u Hl H. apply nth_ext with (d := 0) (d' := 0).
  - rewrite !length_local_shape. exact Hl.
  - intros d Hd. rewrite length_local_shape in Hd. rewrite !nth_local_shape. apply H, Hd.
Qed.

Lemma ext_local_shape : forall m t u, local_shape m t = local_shape m u ->
  forall d, ext m t d = ext m u d.
Proof.
  intros m t u H d. unfold ext, dim_of. rewrite <- !nth_local_shape, H. reflexivity.
Qed.

(** ** Moving an axis to the end of its dimension *)

Lemma prod_perm : forall l l', Permutation l l' -> prod l = prod l'.
Proof.
  intros l l' H. induction H; simpl; auto; lia.
Qed.

Lemma move_last_perm : forall (xs : list axis) a, NoDup xs -> In a xs ->
  Permutation xs (filter (fun y => negb (Nat.eqb y a)) xs ++ [a]).
Proof.
  intros xs a Hnd Ha. apply NoDup_Permutation; [exact Hnd | |].
  - eapply Permutation_NoDup; [apply Permutation_cons_append |].
    constructor; [| apply NoDup_filter, Hnd].
    intros Hy. apply filter_In in Hy. destruct Hy as [_ Hy].
    rewrite Nat.eqb_refl in Hy. discriminate.
  - intros y. rewrite in_app_iff, filter_In. simpl. split.
    + intros Hy. destruct (Nat.eqb_spec y a) as [-> | Hne]; [right; left; reflexivity |].
      left. split; [exact Hy | reflexivity].
    + intros [[Hy _] | [<- | []]]; assumption.
Qed.

Lemma nth_error_upd_same : forall A (l : list A) i v, i < length l -> nth_error (upd l i v) i = Some v.
Proof.
  intros A l. induction l as [|a l IH]; intros [|i] v H; simpl in *; try lia; auto.
  apply IH. lia.
Qed.

Section Flat.
Variable m : mesh.
Variable g : ty.
Hypothesis Hm : mesh_wf m = true.
Hypothesis Hatoms : atoms_prime m.
Hypothesis Hg : ty_wf m g = true.

(** What the flat phase keeps: well-formed, the goal's global shape and local size. *)
Definition flat_inv (t : ty) : Prop :=
  ty_wf m t = true /\ global_shape t = global_shape g /\ local_size m t = local_size m g.

Lemma move_last_facts : forall t s a, ty_wf m t = true -> s < length t ->
  In a (fst (dim_of t s)) ->
  let t1 := move_last t s a in
  ty_wf m t1 = true /\ local_shape m t1 = local_shape m t /\ global_shape t1 = global_shape t
  /\ nth_error t1 s = Some (filter (fun y => negb (Nat.eqb y a)) (fst (dim_of t s)) ++ [a],
                           snd (dim_of t s))
  /\ (forall d, d <> s -> nth_error t1 d = nth_error t d).
Proof.
  intros t s a Ht Hs Ha t1. unfold t1, move_last.
  destruct (dim_of t s) as [xs n] eqn:Hds. simpl in Ha |- *.
  set (xs' := filter (fun y => negb (Nat.eqb y a)) xs ++ [a]).
  pose proof (nth_dim_of t s Hs) as Hnth. rewrite Hds in Hnth.
  pose proof (ty_wf_NoDup m t Ht) as Hnd.
  destruct (ty_axes_upd t s (xs, n) (xs', n) Hnth) as [A [B [E1 E2]]].
  assert (Hndx : NoDup xs).
  { rewrite E1 in Hnd. simpl in Hnd. apply NoDup_app_inv in Hnd. destruct Hnd as [_ [Hnd _]].
    apply NoDup_app_inv in Hnd. tauto. }
  assert (Hp : Permutation xs xs') by (apply move_last_perm; assumption).
  assert (Hsh : shards m (xs', n) = shards m (xs, n)).
  { unfold shards. simpl. symmetry. apply prod_perm, Permutation_map, Hp. }
  assert (Hext : extent m (xs', n) = extent m (xs, n)) by (unfold extent; rewrite Hsh; reflexivity).
  assert (Hdw : dim_wf m (xs, n) = true) by (eapply ty_wf_nth_error; eassumption).
  repeat split.
  - apply ty_wf_iff. apply ty_wf_iff in Ht. destruct Ht as [Hall _]. split.
    + unfold set_dim. apply forallb_upd; [exact Hall |].
      unfold dim_wf in Hdw |- *. rewrite Hsh. simpl in Hdw |- *.
      rewrite !andb_true_iff in Hdw |- *. destruct Hdw as [[Hax H1] H2].
      split; [split; [| exact H1] | exact H2].
      rewrite forallb_forall in Hax |- *. intros x Hx. apply Hax.
      apply (Permutation_in x (Permutation_sym Hp) Hx).
    + unfold set_dim. rewrite E2. simpl. eapply Permutation_NoDup; [| exact Hnd].
      rewrite E1. simpl. apply Permutation_app_head, Permutation_app_tail, Hp.
  - unfold set_dim. rewrite local_shape_set_dim, Hext.
    apply nth_ext with (d := 0) (d' := 0).
    + rewrite length_upd. reflexivity.
    + intros d Hd. rewrite length_upd in Hd. destruct (Nat.eq_dec d s) as [-> | Hne].
      * rewrite nth_upd_same by exact Hd. rewrite nth_local_shape. fold (dim_of t s).
        rewrite Hds. reflexivity.
      * rewrite nth_upd_other by congruence. reflexivity.
  - unfold set_dim, global_shape. rewrite map_upd. simpl.
    apply nth_ext with (d := 0) (d' := 0).
    + rewrite length_upd. reflexivity.
    + intros d Hd. rewrite length_upd in Hd. destruct (Nat.eq_dec d s) as [-> | Hne].
      * rewrite nth_upd_same by exact Hd.
        assert (E : nth s (map snd t) 0 = snd (dim_of t s))
          by (unfold dim_of; apply (map_nth snd t ([], 0) s)).
        rewrite E, Hds. reflexivity.
      * rewrite nth_upd_other by congruence. reflexivity.
  - unfold set_dim. apply nth_error_upd_same. exact Hs.
  - intros d Hd. unfold set_dim. apply nth_error_upd_other. congruence.
Qed.

Definition Psi (t : ty) : nat := pseq (fun d => Nat.gcd (ext m t d) (ext m g d)) (length t).

Lemma flat_inv_length : forall t, flat_inv t -> length t = length g.
Proof. intros t [_ [H _]]. apply global_length, H. Qed.

Lemma gcd_pos : forall a b, 0 < a -> 0 < Nat.gcd a b.
Proof. intros a b Ha. destruct (Nat.gcd a b) eqn:E; [apply Nat.gcd_eq_0_l in E; lia | lia]. Qed.

Lemma gcd_le : forall a b, 0 < a -> Nat.gcd a b <= a.
Proof. intros a b Ha. apply Nat.divide_pos_le; [exact Ha | apply Nat.gcd_divide_l]. Qed.

Lemma Psi_bounds : forall t, flat_inv t -> 1 <= Psi t /\ Psi t <= local_size m g.
Proof.
  intros t Hi. pose proof (flat_inv_length t Hi) as Hl. destruct Hi as [Ht [_ Hs]].
  split.
  - apply pseq_pos. intros d Hd. apply gcd_pos, ext_pos; assumption.
  - rewrite <- Hs, local_size_pseq. apply pseq_le. intros d Hd. apply gcd_le, ext_pos; assumption.
Qed.

(** When the local shapes differ, some axis of a dimension that is short
    of the goal can move to a dimension that has too much. *)
Lemma exists_move : forall t, flat_inv t ->
  list_eqb (local_shape m t) (local_shape m g) = false ->
  exists s u a, s < length t /\ u < length t /\ In a (fst (dim_of t s))
    /\ move_ok m t g s u a = true.
Proof.
  intros t Hi Hne. pose proof (flat_inv_length t Hi) as Hl.
  destruct Hi as [Ht [Hgs Hsz]].
  set (r := length t) in *.
  set (n := ext m t). set (gg := ext m g).
  assert (Hn : forall d, d < r -> 0 < n d) by (intros; apply ext_pos; assumption).
  assert (Hgg : forall d, d < r -> 0 < gg d) by (intros; apply ext_pos; [assumption | assumption | lia]).
  assert (Hprod : pseq n r = pseq gg r).
  { unfold n, gg, r. rewrite <- local_size_pseq, Hsz, local_size_pseq. f_equal. fold r. auto. }
  (* a dimension whose extent does not divide the goal's *)
  destruct (existsb (fun d => negb (gg d mod n d =? 0)) (seq 0 r)) eqn:Eu.
  2:{ exfalso. assert (Hdiv : forall d, d < r -> Nat.divide (n d) (gg d)).
      { intros d Hd. apply Nat.mod_divide; [pose proof (Hn d Hd); lia |].
        destruct (gg d mod n d =? 0) eqn:E; [apply Nat.eqb_eq, E |].
        assert (existsb (fun d => negb (gg d mod n d =? 0)) (seq 0 r) = true)
          by (apply existsb_exists; exists d; rewrite in_seq, E; split; [lia | reflexivity]).
        congruence. }
      pose proof (pseq_divide_eq n gg r Hdiv Hgg Hprod) as Heq.
      assert (local_shape m t = local_shape m g)
        by (apply local_shape_ext; [exact Hl | intros d Hd; apply Heq, Hd]).
      rewrite H, list_eqb_refl in Hne. discriminate. }
  apply existsb_exists in Eu. destruct Eu as [u [Hu Hnu]]. apply in_seq in Hu.
  rewrite negb_true_iff, Nat.eqb_neq in Hnu.
  set (C := fun d => Nat.gcd (n d) (gg d)).
  set (A := fun d => n d / C d). set (B := fun d => gg d / C d).
  assert (Hparts : forall d, d < r -> n d = C d * A d /\ gg d = C d * B d
                               /\ Nat.gcd (A d) (B d) = 1 /\ 0 < C d)
    by (intros d Hd; apply gcd_parts, Hn, Hd).
  destruct (Hparts u ltac:(lia)) as [Enu [Egu [Hcop Hcu]]].
  assert (HA : 1 < A u).
  { pose proof (Hn u ltac:(lia)) as Hnu0.
    assert (A u <> 0) by (intros E; rewrite E in Enu; lia).
    assert (A u <> 1).
    { intros E. apply Hnu. rewrite Egu, Enu, E, Nat.mul_1_r, Nat.mul_comm.
      apply Nat.mod_mul. lia. }
    lia. }
  destruct (prime_divisor_exists (A u) HA) as [p [Hp Hpu]].
  assert (HAB : pseq A r = pseq B r).
  { assert (E1 : pseq n r = pseq C r * pseq A r).
    { rewrite <- pseq_mul. apply pseq_ext. intros d Hd. apply Hparts, Hd. }
    assert (E2 : pseq gg r = pseq C r * pseq B r).
    { rewrite <- pseq_mul. apply pseq_ext. intros d Hd. apply Hparts, Hd. }
    assert (0 < pseq C r) by (apply pseq_pos; intros d Hd; apply Hparts, Hd).
    apply (Nat.mul_cancel_l _ _ (pseq C r)); [lia | congruence]. }
  assert (HpB : Nat.divide p (pseq B r))
    by (rewrite <- HAB; eapply Nat.divide_trans; [exact Hpu | apply pseq_divide_one; lia]).
  destruct (pseq_prime p B r Hp HpB) as [s [Hs HpBs]].
  destruct (Hparts s Hs) as [Ens [Egs [Hcops Hcs]]].
  assert (Hsu : s <> u).
  { intros ->. destruct Hp as [Hp1 _].
    assert (Nat.divide p 1) by (rewrite <- Hcop; apply Nat.gcd_greatest; assumption).
    apply Nat.divide_1_r in H. lia. }
  (* the goal's extent of [s] divides the global extent, so [B s] divides the shards of [s] *)
  destruct (dim_of t s) as [xs N] eqn:Hds.
  pose proof (nth_dim_of t s Hs) as Hnth. rewrite Hds in Hnth.
  pose proof (ty_wf_nth_error m t s _ Ht Hnth) as Hdw.
  destruct (dim_extent m xs N Hm Hdw) as [EN [_ HP]].
  assert (Hgd : Nat.divide (gg s) N).
  { assert (Hsg : s < length g) by lia.
    pose proof (nth_dim_of g s Hsg) as Hgn.
    destruct (dim_of g s) as [ys N'] eqn:Hdg.
    pose proof (global_nth t g s Hgs) as HN. rewrite Hds, Hdg in HN. simpl in HN. subst N'.
    destruct (dim_extent m ys N Hm (ty_wf_nth_error m g s _ Hg Hgn)) as [EN' _].
    unfold gg, ext. rewrite Hdg. exists (prod (map (axis_size m) ys)). lia. }
  assert (HBP : Nat.divide (B s) (prod (map (axis_size m) xs))).
  { apply (Nat.gauss _ (A s)); [| rewrite Nat.gcd_comm; exact Hcops].
    destruct Hgd as [z Hz].
    assert (Hns : n s = extent m (xs, N)) by (unfold n, ext; rewrite Hds; reflexivity).
    rewrite Egs in Hz. rewrite Ens in Hns.
    exists z. apply (Nat.mul_cancel_l _ _ (C s)); [lia |].
    rewrite EN, <- Hns in Hz. nia. }
  destruct (prime_divide_prod p _ Hp (Nat.divide_trans _ _ _ HpBs HBP)) as [z [Hz Hpz]].
  apply in_map_iff in Hz. destruct Hz as [x [<- Hx]].
  apply dim_wf_iff in Hdw. destruct Hdw as [Hxs _].
  assert (Hpx : axis_size m x = p).
  { destruct Hp as [Hp1 Hpd]. destruct (Hatoms x (Hxs x Hx)) as [E | [_ Hq]].
    - rewrite E in Hpz. apply Nat.divide_1_r in Hpz. lia.
    - destruct (Hq p Hpz); [lia | auto]. }
  exists s, u, x. split; [exact Hs |]. split; [lia |]. split; [rewrite Hds; exact Hx |].
  unfold move_ok. rewrite Hpx. destruct Hp as [Hp1 _].
  apply andb_true_iff. split; [apply andb_true_iff; split; [apply andb_true_iff; split |] |].
  - rewrite negb_true_iff. apply Nat.eqb_neq. exact Hsu.
  - apply Nat.ltb_lt. exact Hp1.
  - apply Nat.eqb_eq, Nat.mod_divide; [lia |]. unfold surplus. rewrite Nat.gcd_comm.
    exact HpBs.
  - apply Nat.eqb_eq, Nat.mod_divide; [lia |]. exact Hpu.
Qed.

End Flat.
