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

Lemma last_split : forall (xs : list axis), xs <> [] -> xs = removelast xs ++ [last_axis xs].
Proof. intros xs H. unfold last_axis. apply app_removelast_last. exact H. Qed.

Lemma find_move_spec : forall t, flat_inv t ->
  list_eqb (local_shape m t) (local_shape m g) = false ->
  exists s u a perm, find_move false m t g = Some (s, u, a, perm)
    /\ s < length t /\ u < length t /\ In a (fst (dim_of t s))
    /\ move_ok m t g s u a = true
    /\ (perm = false -> fst (dim_of t s) = removelast (fst (dim_of t s)) ++ [a]).
Proof.
  intros t Hi Hne. unfold find_move. cbn iota.
  set (P := fun v : nat * nat * axis * bool => let '(s, u, a, _) := v in move_ok m t g s u a).
  set (dims := seq 0 (length t)).
  set (tries := flat_map (fun s => map (fun u => (s, u)) dims) dims).
  assert (Htries : forall s u, In (s, u) tries <-> s < length t /\ u < length t).
  { intros s u. unfold tries, dims. rewrite in_flat_map. split.
    - intros [s' [Hs' Hin]]. apply in_map_iff in Hin. destruct Hin as [u' [E Hu']].
      inversion E; subst. apply in_seq in Hs', Hu'. lia.
    - intros [Hs Hu]. exists s. split; [apply in_seq; lia |]. apply in_map_iff.
      exists u. split; [reflexivity | apply in_seq; lia]. }
  fold P.
  destruct (find P _) as [[[[s u] a] perm]|] eqn:E.
  - apply find_some in E. destruct E as [Hin HP]. simpl in HP.
    exists s, u, a, perm. split; [reflexivity |].
    apply in_app_or in Hin. destruct Hin as [Hin | Hin].
    + apply in_flat_map in Hin. destruct Hin as [[s0 u0] [Hsu Hin]].
      apply Htries in Hsu.
      destruct (fst (dim_of t s0)) as [|x xs] eqn:Hx; [destruct Hin |].
      destruct Hin as [Hin | []]. inversion Hin; subst.
      assert (Hsp : x :: xs = removelast (x :: xs) ++ [last_axis (x :: xs)])
        by (apply last_split; discriminate).
      repeat split; try lia; auto.
      * assert (H : In (last_axis (x :: xs)) (removelast (x :: xs) ++ [last_axis (x :: xs)]))
          by (apply in_or_app; right; left; reflexivity).
        rewrite <- Hsp in H. rewrite Hx. exact H.
      * intros _. rewrite Hx. exact Hsp.
    + apply in_flat_map in Hin. destruct Hin as [[s0 u0] [Hsu Hin]].
      apply Htries in Hsu. apply in_map_iff in Hin. destruct Hin as [a0 [Ea Ha0]].
      inversion Ea; subst. repeat split; try lia; auto; discriminate.
  - exfalso. destruct (exists_move t Hi Hne) as [s [u [a [Hs [Hu [Ha Hok]]]]]].
    assert (Hin : In (s, u, a, true)
      (flat_map (fun '(s, u) => map (fun a => (s, u, a, true)) (fst (dim_of t s))) tries)).
    { apply in_flat_map. exists (s, u). split; [apply Htries; auto |].
      apply in_map_iff. exists a. auto. }
    pose proof (find_none P _ E (s, u, a, true)) as Hf.
    simpl in Hf. rewrite Hf in Hok; [discriminate |]. apply in_or_app. right. exact Hin.
Qed.

(** The type the all-to-all starts from: [t] itself, or [t] with the moving
    axis brought to the end of its dimension. *)
Lemma pre_move_facts : forall t s a (perm : bool), flat_inv t -> s < length t ->
  In a (fst (dim_of t s)) ->
  (perm = false -> fst (dim_of t s) = removelast (fst (dim_of t s)) ++ [a]) ->
  let t1 := if perm then move_last t s a else t in
  exists xs1, flat_inv t1 /\ local_shape m t1 = local_shape m t /\ global_shape t1 = global_shape t
    /\ nth_error t1 s = Some (xs1 ++ [a], snd (dim_of t s))
    /\ (forall d, d <> s -> nth_error t1 d = nth_error t d).
Proof.
  intros t s a perm Hi Hs Ha Hlast t1. destruct Hi as [Ht [Hgs Hsz]]. unfold t1.
  destruct perm.
  - destruct (move_last_facts t s a Ht Hs Ha) as [Hw [Hls [Hgl [Hn Ho]]]].
    exists (filter (fun y => negb (Nat.eqb y a)) (fst (dim_of t s))).
    split; [| auto]. split; [exact Hw |]. split; [congruence |].
    unfold local_size. rewrite Hls. exact Hsz.
  - exists (removelast (fst (dim_of t s))). split; [split; auto |]. split; [reflexivity |].
    split; [reflexivity |]. split; [| auto].
    rewrite nth_dim_of by exact Hs. rewrite <- (Hlast eq_refl). destruct (dim_of t s). reflexivity.
Qed.

Lemma permute_step : forall t t1, flat_inv t -> ty_wf m t1 = true ->
  local_shape m t1 = local_shape m t -> global_shape t1 = global_shape t ->
  step_type m t (AllPermute t1) = OK t1.
Proof.
  intros t t1 _ Hw Hls Hgl. simpl. rewrite Hw, Hls, Hgl, !list_eqb_refl. reflexivity.
Qed.

Lemma move_step : forall t s u a t1 xs1, flat_inv t -> s < length t -> u < length t ->
  move_ok m t g s u a = true ->
  flat_inv t1 -> local_shape m t1 = local_shape m t ->
  nth_error t1 s = Some (xs1 ++ [a], snd (dim_of t s)) ->
  (forall d, d <> s -> nth_error t1 d = nth_error t d) ->
  exists t2, step_type m t1 (AllToAll s u) = OK t2 /\ flat_inv t2 /\ 2 * Psi t <= Psi t2.
Proof.
  intros t s u a t1 xs1 Hi Hs Hu Hok Hi1 Hls1 Hn1 Ho1.
  pose proof (flat_inv_length t Hi) as Hl.
  unfold move_ok in Hok. rewrite !andb_true_iff, negb_true_iff, Nat.eqb_neq, Nat.ltb_lt, !Nat.eqb_eq in Hok.
  destruct Hok as [[[Hsu Hq] Hqs] Hqu].
  set (q := axis_size m a) in *.
  apply Nat.mod_divide in Hqs; [| lia]. apply Nat.mod_divide in Hqu; [| lia].
  destruct Hi as [Ht [Hgs Hsz]]. destruct Hi1 as [Ht1 [Hgs1 Hsz1]].
  destruct (dim_of t u) as [ys Nu] eqn:Hdu.
  assert (Hnu : nth_error t1 u = Some (ys, Nu)) by (rewrite Ho1 by congruence; rewrite nth_dim_of, Hdu by exact Hu; reflexivity).
  assert (Hextu : ext m t u = extent m (ys, Nu)) by (unfold ext; rewrite Hdu; reflexivity).
  assert (Hdivu : extent m (ys, Nu) mod q = 0).
  { apply Nat.mod_divide; [lia |]. rewrite <- Hextu. eapply Nat.divide_trans; [exact Hqu |].
    unfold surplus. exists (Nat.gcd (ext m t u) (ext m g u)).
    destruct (gcd_parts (ext m t u) (ext m g u) (ext_pos m t u Hm Ht Hu)) as [E _]. lia. }
  set (t2 := set_dim (set_dim t1 s (xs1, snd (dim_of t s))) u (ys ++ [a], Nu)).
  assert (Hstep : step_type m t1 (AllToAll s u) = OK t2).
  { simpl. destruct (Nat.eqb_spec s u) as [E | _]; [congruence |].
    rewrite Hn1, Hnu, split_last_snoc. fold q. rewrite Hdivu. reflexivity. }
  exists t2. split; [exact Hstep |].
  destruct (step_type_wf m t1 _ t2 Hm Ht1 Hstep) as [Ht2 Hgs2].
  assert (Hsz2 : local_size m t2 = local_size m g)
    by (rewrite (all_to_all_size m t1 s u t2 Hm Ht1 Hstep); exact Hsz1).
  split; [split; [exact Ht2 | split; [congruence | exact Hsz2]] |].
  (* extents after the move *)
  assert (Hl1 : length t1 = length t) by (rewrite <- (length_local_shape m t1), <- (length_local_shape m t), Hls1; reflexivity).
  assert (Hl2 : length t2 = length t) by (unfold t2, set_dim; rewrite !length_upd; exact Hl1).
  assert (Hd2s : dim_of t2 s = (xs1, snd (dim_of t s))).
  { unfold t2, dim_of, set_dim. rewrite nth_upd_other by congruence.
    apply nth_upd_same. lia. }
  assert (Hd2u : dim_of t2 u = (ys ++ [a], Nu)).
  { unfold t2, dim_of, set_dim. apply nth_upd_same. rewrite length_upd. lia. }
  assert (Hd2o : forall d, d <> s -> d <> u -> dim_of t2 d = dim_of t1 d).
  { intros d H1 H2. unfold t2, dim_of, set_dim. rewrite !nth_upd_other by congruence. reflexivity. }
  pose proof (ext_local_shape m t1 t Hls1) as He1.
  assert (Hq1 : 1 <= q) by lia.
  assert (E2s : ext m t2 s = ext m t s * q).
  { unfold ext at 1. rewrite Hd2s.
    destruct (dim_wf_snoc_inv m xs1 a (snd (dim_of t s)) Hm (ty_wf_nth_error m t1 s _ Ht1 Hn1))
      as [_ [_ Hx]].
    rewrite Hx. f_equal. rewrite <- He1. unfold ext. rewrite (dim_of_nth_error _ _ _ Hn1). reflexivity. }
  assert (E2u : ext m t2 u = ext m t u / q).
  { unfold ext at 1. rewrite Hd2u, extent_snoc, Hextu. reflexivity. }
  assert (E2o : forall d, d <> s -> d <> u -> ext m t2 d = ext m t d).
  { intros d H1 H2. rewrite <- He1. unfold ext. rewrite Hd2o by assumption. reflexivity. }
  (* the gcd with the goal grows by [q] in [s] and stays in [u] *)
  set (G := fun d => Nat.gcd (ext m t d) (ext m g d)).
  set (G2 := fun d => Nat.gcd (ext m t2 d) (ext m g d)).
  assert (Hgl : length t = length g) by (apply global_length; exact Hgs).
  assert (G2s : G2 s = q * G s).
  { unfold G2, G. rewrite E2s. apply gcd_mul_excess; [apply ext_pos; auto | apply ext_pos; auto; lia |].
    exact Hqs. }
  assert (G2o : forall d, d <> s -> G2 d = G d).
  { intros d Hd. unfold G2, G. destruct (Nat.eq_dec d u) as [-> | Hdu'].
    - rewrite E2u. apply gcd_div_excess; [apply ext_pos; auto | lia | exact Hqu].
    - rewrite E2o by assumption. reflexivity. }
  pose proof (pseq_one G G2 (length t) s Hs G2o) as E.
  assert (HGs : 0 < G s) by (apply gcd_pos, ext_pos; auto).
  assert (HPsi : Psi t2 = pseq G2 (length t)) by (unfold Psi; rewrite Hl2; reflexivity).
  unfold Psi at 1. fold G. rewrite HPsi. rewrite G2s in E. nia.
Qed.

Theorem flat_steps_reach : forall f t, flat_inv t -> local_size m g - Psi t < f ->
  run_type m t (flat_steps false f m t g) = Some g
  /\ forallb is_flat (flat_steps false f m t g) = true.
Proof.
  induction f as [|f IH]; intros t Hi Hf.
  - pose proof (Psi_bounds t Hi). lia.
  - cbn [flat_steps]. destruct (list_eqb (local_shape m t) (local_shape m g)) eqn:Hsh.
    + apply list_eqb_eq in Hsh. destruct Hi as [Ht [Hgs _]].
      destruct (ty_eqb t g) eqn:Heq.
      * apply ty_eqb_eq in Heq. subst. split; reflexivity.
      * simpl. rewrite Hg, Hgs, <- Hsh, !list_eqb_refl. split; reflexivity.
    + destruct (find_move_spec t Hi Hsh) as [s [u [a [perm [Hfind [Hs [Hu [Ha [Hok Hlast]]]]]]]]].
      rewrite Hfind. cbv zeta.
      destruct (pre_move_facts t s a perm Hi Hs Ha Hlast) as [xs1 [Hi1 [Hls1 [Hgl1 [Hn1 Ho1]]]]].
      set (t1 := if perm then move_last t s a else t) in *.
      destruct (move_step t s u a t1 xs1 Hi Hs Hu Hok Hi1 Hls1 Hn1 Ho1) as [t2 [Hstep [Hi2 HPsi]]].
      rewrite Hstep.
      pose proof (Psi_bounds t Hi). pose proof (Psi_bounds t2 Hi2).
      destruct (IH t2 Hi2 ltac:(lia)) as [Hrun Hflat].
      rewrite run_type_app. destruct perm.
      * cbn [run_type app]. rewrite (permute_step t t1 Hi (proj1 Hi1) Hls1 Hgl1).
        rewrite Hstep. split; [exact Hrun | simpl; exact Hflat].
      * cbn [run_type app]. unfold t1 in Hstep. rewrite Hstep. split; [exact Hrun | simpl; exact Hflat].
Qed.

End Flat.
