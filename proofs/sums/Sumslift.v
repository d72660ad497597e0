(** * Part 1's collectives on pending-sum types.

    A collective that moves no pending axis acts on every member of a
    pending-sum group alike, so it commutes with the group sums: run on a
    state that holds pending sums of [g] under [(t, S)], it leaves pending
    sums of [g] under [(t', S)] ([collective_pending_sound], for every
    collective whose result type leaves the pending axes unused).  With this a plan may keep
    axes pending while it runs Part 1 collectives, and reduce them later. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Sums Sumsproof.

Section Lift.
Variable M : cmonoid.
Notation A := (carrier M).
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

(** Summing [F] over the group of [c] is summing [f] over the group of [c0]
    when [F] at a member is [f] at the member of [c0]'s group with the same
    pending coordinates. *)
Lemma group_sum_translate : forall ps xs c c0 (F f : device -> A),
  device_in m c -> device_in m c0 ->
  (forall y, In y (mesh_axes m) -> memb y ps = true -> c y = c0 y) ->
  (forall c' c'', device_in m c' -> device_in m c'' ->
                  (forall y, In y (mesh_axes m) -> memb y ps = true -> c' y = c'' y) ->
                  (forall y, In y (mesh_axes m) -> memb y ps = false -> c' y = c y) ->
                  (forall y, In y (mesh_axes m) -> memb y ps = false -> c'' y = c0 y) ->
                  F c' = f c'') ->
  group_sum_along M m ps xs c F = group_sum_along M m ps xs c0 f.
Proof.
  intros ps xs. induction xs as [|x xs IH]; intros c c0 F f Hc Hc0 Hps HF; simpl.
  - apply HF; auto.
  - destruct (memb x ps) eqn:Hx; [apply msum_ext_in; intros k Hk; apply in_seq in Hk |];
      apply IH; auto.
    + apply device_in_set_coord; [exact Hc | lia].
    + apply device_in_set_coord; [exact Hc0 | lia].
    + intros y Hy Hyp. unfold set_coord. destruct (Nat.eqb y x); auto.
    + intros c' c'' H0 H0' H1 H2 H3. apply HF; auto.
      * intros y Hy Hyp. rewrite H2 by assumption. apply set_coord_other. congruence.
      * intros y Hy Hyp. rewrite H3 by assumption. apply set_coord_other. congruence.
Qed.

(** What a collective must satisfy at device [dev r] and new local index [l]
    to commute with the sums over [ps]: it leaves pending coordinates alone,
    its source depends on pending coordinates only through them, and the
    source device is in the mesh. *)
Definition moves_no_pending (t : ty) (k : collective) (ps : list axis) (r : nat) (l : list nat) : Prop :=
  let c := device_of_rank m r in
  (forall c' y, memb y ps = true -> fst (wire m t k c' l) y = c' y)
  /\ (forall c', (forall y, In y (mesh_axes m) -> memb y ps = false -> c' y = c y) ->
      snd (wire m t k c' l) = snd (wire m t k c l)
      /\ forall y, In y (mesh_axes m) -> memb y ps = false -> fst (wire m t k c' l) y = fst (wire m t k c l) y)
  /\ device_in m (fst (wire m t k c l)).

Lemma pending_value_exec_step : forall t k ps (st : state A) r l, r < mesh_size m ->
  moves_no_pending t k ps r l ->
  pending_value M m ps (exec_step m t k st) r l = exec_step m t k (pending_value M m ps st) r l.
Proof.
  intros t k ps st r l Hr [P1 [P2 P3]].
  set (c := device_of_rank m r) in *.
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  unfold exec_step at 2. fold c.
  destruct (wire m t k c l) as [c0 l0] eqn:Hw. simpl in P3.
  assert (Hc0 : device_in m (device_of_rank m (rank m c0)))
    by (apply device_of_rank_in; [exact Hm | apply rank_lt; assumption]).
  unfold pending_value, exec_step, group_sum. fold c.
  apply group_sum_translate; [exact Hc | exact Hc0 | |].
  - intros y Hy Hyp. rewrite device_of_rank_rank by assumption.
    pose proof (P1 c y Hyp) as E. rewrite Hw in E. simpl in E. symmetry. exact E.
  - intros c' c'' Hc' Hc'' Hsame Hout Hout0.
    set (ch := device_of_rank m (rank m c')).
    assert (Hch : forall y, In y (mesh_axes m) -> ch y = c' y)
      by (intros y Hy; apply device_of_rank_rank; assumption).
    destruct (P2 ch) as [Esnd Efst].
    { intros y Hy Hyp. rewrite Hch by assumption. apply Hout; assumption. }
    simpl in Esnd, Efst.
    destruct (wire m t k ch l) as [c1 l1] eqn:Hw1. simpl in Esnd, Efst. subst l1.
    f_equal. apply rank_ext. intros y Hy. destruct (memb y ps) eqn:Hyp.
    + pose proof (P1 ch y Hyp) as E. rewrite Hw1 in E. simpl in E.
      rewrite E, Hch by assumption. apply Hsame; assumption.
    + rewrite Efst by assumption. rewrite Hout0 by assumption.
      symmetry. apply device_of_rank_rank; assumption.
Qed.

Lemma pending_not_ty : forall t ps a, pty_wf m (t, ps) = true -> In a (ty_axes t) ->
  memb a ps = false.
Proof.
  intros t ps a Hw Ha. destruct (memb a ps) eqn:E; [| reflexivity].
  apply memb_In in E. destruct (pty_wf_elim m t ps Hw) as [_ [_ H]].
  destruct (H a E) as [_ Hn]. contradiction.
Qed.

Lemma in_box_dim : forall t' l d dd, in_box (local_shape m t') l -> nth_error t' d = Some dd ->
  nth d l 0 < extent m dd.
Proof.
  intros t' l d dd Hl Hd. apply in_box_local in Hl. destruct Hl as [_ Hl].
  rewrite <- (nth_error_nth t' d ([], 0) Hd). apply Hl. apply nth_error_Some. congruence.
Qed.

Lemma nth_error_set_dim : forall t d e dd, nth_error t d = Some e -> nth_error (set_dim t d dd) d = Some dd.
Proof.
  intros t d e dd H. unfold set_dim.
  assert (Hlt : d < length (upd t d dd)) by (rewrite length_upd; apply nth_error_Some; congruence).
  rewrite (@nth_error_nth' _ (upd t d dd) d ([], 0) Hlt). rewrite nth_upd_same; [reflexivity |].
  rewrite length_upd in Hlt. exact Hlt.
Qed.

Lemma In_dim_axes : forall t d xs n a, nth_error t d = Some (xs, n) -> In a xs -> In a (ty_axes t).
Proof. intros t d xs n a Hd Ha. eapply In_ty_axes; [eapply nth_error_In; exact Hd | exact Ha]. Qed.

Lemma set_radix_in_ext : forall xs q c c' y, In y xs ->
  set_radix m xs q c y = set_radix m xs q c' y.
Proof.
  induction xs as [|x xs IH]; intros q c c' y Hy; simpl in *; [contradiction |].
  destruct (in_dec Nat.eq_dec y xs) as [Hin | Hnin]; [apply IH; exact Hin |].
  rewrite !set_radix_notin by exact Hnin. destruct Hy as [<- | Hy]; [| contradiction].
  rewrite !set_coord_same. reflexivity.
Qed.

(** The holder's coordinates on [t]'s axes come from the chunk indices
    alone; elsewhere they are the device's own. *)
Lemma holder_from_ext : forall t t' c0 c0' c c' y, length t = length t' ->
  (forall x, In x (ty_axes t') -> c0 x = c0' x) -> (In y (ty_axes t) \/ c y = c' y) ->
  holder_from m t t' c0 c y = holder_from m t t' c0' c' y.
Proof.
  induction t as [|[xs n] t IH]; intros [|[ys n'] t'] c0 c0' c c' y Hlen H0 Hy;
    simpl in *; try discriminate.
  - destruct Hy as [[] | Hy]. exact Hy.
  - injection Hlen as Hlen. apply IH; [exact Hlen | intros x Hx; apply H0, in_or_app; right; exact Hx |].
    rewrite (radix_ext m c0 c0' ys) by (intros x Hx; apply H0, in_or_app; left; exact Hx).
    destruct Hy as [Hy | Hy]; [apply in_app_or in Hy; destruct Hy as [Hy | Hy] |].
    + right. apply set_radix_in_ext. exact Hy.
    + left. exact Hy.
    + destruct (in_dec Nat.eq_dec y xs) as [Hin | Hnin].
      * right. apply set_radix_in_ext. exact Hin.
      * right. rewrite !set_radix_notin by exact Hnin. exact Hy.
Qed.

Lemma moves_no_pending_ok : forall t ps k t' r l,
  ty_wf m t = true -> pty_wf m (t, ps) = true -> pty_wf m (t', ps) = true ->
  step_type m t k = OK t' ->
  r < mesh_size m -> in_box (local_shape m t') l -> moves_no_pending t k ps r l.
Proof.
  intros t ps k t' r l Ht Hw Hw' Hk Hr Hl.
  assert (Hc : device_in m (device_of_rank m r)) by (apply device_of_rank_in; assumption).
  destruct k as [d x | d | s u | t''].
  - (* dyn_slice: the device stays; the chunk read depends on [c x], [x] not pending *)
    simpl in Hk. destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (memb x (mesh_axes m)) eqn:Hx; simpl in Hk; [| discriminate].
    destruct (memb x (ty_axes t)) eqn:Hxt; [discriminate |].
    destruct (extent m (xs, n) mod axis_size m x =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
    inversion Hk. subst t'. clear Hk. apply memb_In in Hx.
    assert (Hxp : memb x ps = false).
    { apply (pending_not_ty _ _ _ Hw'). eapply In_dim_axes; [apply nth_error_set_dim with (e := (xs, n)); exact Hd |].
      apply in_or_app. right. left. reflexivity. }
    split; [| split]; simpl.
    + reflexivity.
    + intros c' Hc'. rewrite (Hc' x Hx Hxp). split; [reflexivity | auto].
    + exact Hc.
  - (* all_gather *)
    destruct (all_gather_type_inv m t d t' Hm Ht Hk) as [ys [a [n [Hd [-> [Ha [He Hepos]]]]]]].
    assert (Hap : memb a ps = false).
    { apply (pending_not_ty _ _ _ Hw). eapply In_dim_axes; [exact Hd |].
      apply in_or_app. right. left. reflexivity. }
    unfold moves_no_pending, wire, last_axis. rewrite (dim_of_nth_error t d _ Hd). simpl fst.
    rewrite last_axis_app. split; [| split]; simpl.
    + intros c' y Hyp. apply set_coord_other. congruence.
    + intros c' Hc'. split; [reflexivity |]. intros y Hy Hyp. unfold set_coord.
      destruct (Nat.eqb y a); [reflexivity | auto].
    + apply device_in_set_coord; [exact Hc |].
      pose proof (in_box_dim _ l d _ Hl (nth_error_set_dim t d _ (ys, n) Hd)) as Hld.
      norm_axis. rewrite He in Hld. apply Nat.div_lt_upper_bound; lia.
  - (* all_to_all *)
    destruct (all_to_all_type_inv m t s u t' Hm Ht Hk)
      as [xs' [a [ns [ys [nu [Hsu [Hs [Hu [Hdiv [-> [Ha [Hes Hespos]]]]]]]]]]]].
    assert (Hap : memb a ps = false).
    { apply (pending_not_ty _ _ _ Hw). eapply In_dim_axes; [exact Hs |].
      apply in_or_app. right. left. reflexivity. }
    unfold moves_no_pending, wire, last_axis. rewrite (dim_of_nth_error t s _ Hs). simpl fst.
    rewrite last_axis_app. split; [| split]; simpl.
    + intros c' y Hyp. apply set_coord_other. congruence.
    + intros c' Hc'. rewrite (Hc' a Ha Hap). split; [reflexivity |]. intros y Hy Hyp.
      unfold set_coord. destruct (Nat.eqb y a); [reflexivity | auto].
    + apply device_in_set_coord; [exact Hc |].
      assert (Hs' : nth_error (set_dim (set_dim t s (xs', ns)) u (ys ++ [a], nu)) s = Some (xs', ns)).
      { unfold set_dim.
        assert (Hlt : s < length t) by (apply nth_error_Some; congruence).
        rewrite (@nth_error_nth' _ (upd (upd t s (xs', ns)) u (ys ++ [a], nu)) s ([], 0))
          by (rewrite !length_upd; exact Hlt).
        rewrite nth_upd_other by congruence. rewrite nth_upd_same by exact Hlt. reflexivity. }
      pose proof (in_box_dim _ l s _ Hl Hs') as Hld.
      norm_axis. rewrite Hes in Hld. apply Nat.div_lt_upper_bound; lia.
  - (* all_permute: the holder moves only [t]'s axes, read from [t'']'s *)
    simpl in Hk. destruct (ty_wf m t'') eqn:Hw''; simpl in Hk; [| discriminate].
    destruct (list_eqb (global_shape t'') (global_shape t)) eqn:Hg; simpl in Hk; [| discriminate].
    destruct (list_eqb (local_shape m t'') (local_shape m t)) eqn:Hls; simpl in Hk; [| discriminate].
    inversion Hk. subst t'. clear Hk. apply list_eqb_eq in Hg, Hls.
    pose proof Ht as Ht0. pose proof Hw'' as Hw0.
    apply ty_wf_iff in Ht0, Hw0. destruct Ht0 as [Hdt Hnd]. destruct Hw0 as [Hdt' _].
    pose proof (same_shapes_dims m t t'' Hm Hdt Hdt' Hg Hls) as Hdims.
    assert (Hlen : length t = length t'').
    { pose proof (f_equal (@length nat) Hg) as E. unfold global_shape in E.
      rewrite !map_length in E. symmetry. exact E. }
    assert (Hax'' : forall x, In x (ty_axes t'') -> In x (mesh_axes m)).
    { intros x Hx. unfold ty_axes in Hx. apply in_flat_map in Hx. destruct Hx as [d [Hd Hx]].
      apply ty_wf_dims with (d := d) in Hw''; [| exact Hd]. destruct d as [xs n].
      apply dim_wf_iff in Hw''. apply Hw''. exact Hx. }
    unfold moves_no_pending, wire, holder. split; [| split]; simpl.
    + intros c' y Hyp. apply holder_from_notin. intros Hy.
      rewrite (pending_not_ty _ _ _ Hw Hy) in Hyp. discriminate.
    + intros c' Hc'. split; [reflexivity |]. intros y Hy Hyp. apply holder_from_ext.
      * exact Hlen.
      * intros x Hx. apply Hc'; [apply Hax''; exact Hx | apply (pending_not_ty _ _ _ Hw' Hx)].
      * destruct (in_dec Nat.eq_dec y (ty_axes t)) as [Hin | Hnin]; [left; exact Hin |].
        right. apply Hc'; assumption.
    + set (c := device_of_rank m r) in *.
      assert (Hfit : Forall2 (chunk_fits m c) t t'').
      { eapply Forall2_weaken; [| exact Hdims]. intros d d' [_ [Hsh Hax]].
        unfold chunk_fits. rewrite Hsh. apply radix_lt. intros x Hx. apply Hc, Hax, Hx. }
      apply holder_from_in; assumption.
Qed.

(** Any Part 1 collective on a pending-sum type whose pending axes it
    leaves alone: pending sums of [g] stay pending sums of [g] under the new
    type. *)
Theorem collective_pending_sound : forall t ps k t' g (st : state A),
  pty_wf m (t, ps) = true -> pty_wf m (t', ps) = true ->
  step_type m t k = OK t' ->
  sholds M m (t, ps) g st -> sholds M m (t', ps) g (exec_step m t k st).
Proof.
  intros t ps k t' g st Hw Hw' Hk Hst.
  destruct (pty_wf_elim m t ps Hw) as [Ht _].
  unfold sholds in *. simpl in *.
  apply (holds_ext_state M m _ _ (exec_step m t k (pending_value M m ps st))).
  - intros r l Hr Hl. apply pending_value_exec_step; [exact Hr |].
    eapply moves_no_pending_ok; eassumption.
  - eapply step_sound; eassumption.
Qed.

End Lift.
