(** * Plans of pending-sum collectives are adding steps, so the lower bound covers them.

    On one mesh placed at rank 0 with even types, each pending-sum step
    ([reduce_scatter], [all_reduce], [add_pending]) is a [sum_map] over
    ranks ([sum_step_map]), and a sequence of them is a sequence of such
    steps ([sum_plan_moves]) that executes as [exec_sum_plan] and receives,
    step by step, what [sum_received] counts.  [sum_plan_recv_ge_bound]: a
    plan that type-checks from [(t, S)] to [(t', {})] makes every rank
    receive at least [sum_needy], the pending-sum lower bound. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Trafficproof Layout Layoutproof
  Exchange Exchangeproof Sums Sumsproof Sumexchange Sumlowerbound.

Definition sum_step_map (m : mesh) (p : pty) (k : sum_step) : sum_map :=
  fun r l => map (fun src => (rank m (fst src), snd src)) (sum_wire m p k (device_of_rank m r) l).

Fixpoint sum_plan_moves (m : mesh) (p : pty) (ks : list sum_step) : sum_moves :=
  match ks with
  | [] => []
  | k :: ks' =>
      match sum_step_type m p k with
      | OK p' => (sum_step_map m p k, pl_shapes (even_layout m (fst p'))) :: sum_plan_moves m p' ks'
      | Error _ => []
      end
  end.

(** Elements rank [r] receives over a plan, counted from the data movement. *)
Fixpoint sum_plan_received (m : mesh) (p : pty) (ks : list sum_step) (r : nat) : nat :=
  match ks with
  | [] => 0
  | k :: ks' =>
      match sum_step_type m p k with
      | OK p' => sum_received m p k r + sum_plan_received m p' ks' r
      | Error _ => 0
      end
  end.

Lemma run_sum_moves_ext : forall M ms (st st' : state (carrier M)),
  (forall r l, st r l = st' r l) -> forall r l, run_sum_moves M ms st r l = run_sum_moves M ms st' r l.
Proof.
  induction ms as [|[sm sh] ms IH]; intros st st' H r l; simpl; [apply H |].
  apply IH. intros r' l'. unfold run_sum_map. f_equal. apply map_ext. intros src. apply H.
Qed.

Lemma run_sum_plan_moves : forall M m ks p (st : state (carrier M)) r l,
  run_sum_moves M (sum_plan_moves m p ks) st r l = exec_sum_plan M KeepOne m p ks st r l.
Proof.
  induction ks as [|k ks IH]; intros p st r l; simpl; [reflexivity |].
  destruct (sum_step_type m p k) as [p'|]; simpl; [| reflexivity].
  rewrite <- IH. apply run_sum_moves_ext. intros r' l'. unfold run_sum_map, sum_step_map, exec_sum_step.
  rewrite map_map. reflexivity.
Qed.

Lemma sum_final_plan_shapes : forall m ks p p' sh,
  sum_plan_type m p ks = OK p' -> sh = pl_shapes (even_layout m (fst p)) ->
  forall r, sum_final_shapes sh (sum_plan_moves m p ks) r = pl_shapes (even_layout m (fst p')) r.
Proof.
  induction ks as [|k ks IH]; intros p p' sh Hk Hsh r; simpl in *.
  - inversion Hk. subst. reflexivity.
  - destruct (sum_step_type m p k) as [p1|]; [| discriminate]. simpl. apply (IH p1); auto.
Qed.

Lemma flat_map_map_map : forall A B C (f : A -> list B) (g : B -> C) xs,
  flat_map (fun x => map g (f x)) xs = map g (flat_map f xs).
Proof.
  intros A B C f g xs. induction xs as [|x xs IH]; simpl; [reflexivity |].
  rewrite IH, map_app. reflexivity.
Qed.

Section Bound.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Lemma sum_plan_moves_received : forall ks p r, pty_wf m p = true -> r < mesh_size m ->
  sum_moves_received (sum_plan_moves m p ks) r = sum_plan_received m p ks r.
Proof.
  induction ks as [|k ks IH]; intros p r Hw Hr; simpl; [reflexivity |].
  destruct (sum_step_type m p k) as [p'|] eqn:Hk; simpl; [| reflexivity].
  f_equal; [| apply IH; [eapply sum_step_type_wf; eassumption | exact Hr]].
  unfold foreign_sources, positions, sum_received. rewrite Hk.
  assert (Hw' : pty_wf m p' = true) by (eapply sum_step_type_wf; eassumption).
  destruct p' as [t' ps']. destruct (pty_wf_elim m t' ps' Hw') as [Ht' _].
  rewrite pl_shapes_even by assumption. simpl.
  destruct (Nat.ltb_spec r (mesh_size m)); [| lia].
  unfold sum_step_map. rewrite flat_map_map_map, length_filter_map. reflexivity.
Qed.

Lemma sum_plan_type_wf : forall ks p p', pty_wf m p = true -> sum_plan_type m p ks = OK p' ->
  pty_wf m p' = true.
Proof.
  induction ks as [|k ks IH]; intros p p' Hw Hk; simpl in Hk; [inversion Hk; subst; exact Hw |].
  destruct (sum_step_type m p k) as [p1|] eqn:Hk1; [| discriminate].
  apply (IH p1); [eapply sum_step_type_wf; eassumption | exact Hk].
Qed.

Lemma pl_pending_value_even : forall M t ps (st : state (carrier M)) r l, r < mesh_size m ->
  pl_pending_value M (even_layout m t) ps st r l = pending_value M m ps st r l.
Proof.
  intros M t ps st r l Hr. unfold pl_pending_value, pending_value. simpl.
  rewrite index_of_seq0. destruct (Nat.ltb_spec r (mesh_size m)); [| lia].
  unfold ly_m. simpl. unfold group_sum.
  apply group_sum_in_group; [apply device_of_rank_in; assumption |].
  intros c' Hc' _. unfold world_rank. simpl. rewrite seq_nth by (apply rank_lt; assumption).
  reflexivity.
Qed.

Lemma pl_sholds_even : forall M t ps g (st : state (carrier M)), ty_wf m t = true ->
  (pl_sholds M (even_layout m t) ps g st <-> sholds M m (t, ps) g st).
Proof.
  intros M t ps g st Ht. unfold pl_sholds, sholds. simpl. rewrite pl_holds_even by assumption.
  split; apply holds_ext_state; intros r l Hr _; rewrite pl_pending_value_even by exact Hr; reflexivity.
Qed.

Lemma pl_pending_wf_even : forall t ps, pty_wf m (t, ps) = true -> pl_pending_wf (even_layout m t) ps = true.
Proof.
  intros t ps Hw. destruct (pty_wf_elim m t ps Hw) as [Ht _].
  unfold pl_pending_wf. rewrite layout_wf_even by assumption. simpl.
  unfold pty_wf in Hw. simpl in Hw. rewrite Ht in Hw. unfold ly_m. simpl. exact Hw.
Qed.

(** Each step reads only elements that exist. *)
Lemma sum_step_valid : forall p k p', pty_wf m p = true -> sum_step_type m p k = OK p' ->
  valid_sum_map (pl_shapes (even_layout m (fst p))) (pl_shapes (even_layout m (fst p')))
                (sum_step_map m p k).
Proof.
  intros [t ps] k p' Hw Hk r s' Hs' l Hl src Hsrc.
  assert (Hw' : pty_wf m p' = true) by (eapply sum_step_type_wf; eassumption).
  destruct p' as [t' ps']. destruct (pty_wf_elim m t ps Hw) as [Ht [_ Hps]].
  destruct (pty_wf_elim m t' ps' Hw') as [Ht' _]. simpl in *.
  rewrite pl_shapes_even in Hs' by assumption.
  destruct (Nat.ltb_spec r (mesh_size m)) as [Hr |]; [| discriminate]. injection Hs' as Hs'. subst s'.
  set (c := device_of_rank m r) in *.
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  unfold sum_step_map in Hsrc. fold c in Hsrc. apply in_map_iff in Hsrc.
  destruct Hsrc as [[c' l'] [<- Hsrc]]. simpl.
  exists (local_shape m t). rewrite pl_shapes_even by assumption.
  (* every source device is in the mesh *)
  assert (Hsrc_in : device_in m c' /\ in_box (local_shape m t) l'); [| destruct Hsrc_in as [Hc' Hl'];
    destruct (Nat.ltb_spec (rank m c') (mesh_size m)) as [_ | Hge];
      [split; [reflexivity | exact Hl'] | pose proof (rank_lt m c' Hm Hc'); lia]].
  destruct k as [d a | a | a]; simpl in Hk.
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
    destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (extent m (xs, n) mod axis_size m a =? 0) eqn:Hdiv; simpl in Hk; [| discriminate].
    inversion Hk. subst t' ps'. clear Hk.
    apply memb_In in Ha. destruct (Hps a Ha) as [Ham _]. apply Nat.eqb_eq in Hdiv.
    simpl in Hsrc. unfold along in Hsrc. rewrite map_map in Hsrc. apply in_map_iff in Hsrc.
    destruct Hsrc as [j [E Hj]]. injection E as <- <-. apply in_seq in Hj.
    split; [apply device_in_set_coord; [exact Hc | lia] |].
    assert (Hdw : dim_wf m (xs, n) = true)
      by (eapply ty_wf_dims; [exact Ht | eapply nth_error_In; exact Hd]).
    destruct (dim_wf_snoc m xs a n Hm Hdw Ham Hdiv) as [_ He].
    assert (Hdlt : d < length t) by (apply nth_error_Some; congruence).
    pose proof (nth_error_nth t d ([], 0) Hd) as Hnd.
    unfold wire, set_dim in *. rewrite (dim_of_nth_error t d (xs, n) Hd), <- extent_snoc. simpl snd.
    norm_axis.
    set (e' := extent m (xs ++ [a], n)) in *.
    apply in_box_local in Hl. rewrite length_upd in Hl. destruct Hl as [Hlen Hl].
    assert (Hld : nth d l 0 < e').
    { specialize (Hl d Hdlt). rewrite nth_upd_same in Hl by exact Hdlt. exact Hl. }
    assert (Hca : c a < axis_size m a) by (apply Hc; exact Ham).
    apply in_box_local_intro; [rewrite length_upd; exact Hlen |].
    intros i Hi. destruct (Nat.eq_dec i d) as [-> | Hne].
    + rewrite nth_upd_same by lia. norm_axis; rewrite Hnd, He. nia.
    + rewrite nth_upd_other by lia. specialize (Hl i Hi).
      rewrite nth_upd_other in Hl by lia. exact Hl.
  - destruct (memb a ps) eqn:Ha; simpl in Hk; [| discriminate].
    inversion Hk. subst t' ps'. clear Hk.
    apply memb_In in Ha. destruct (Hps a Ha) as [Ham _].
    simpl in Hsrc. unfold along in Hsrc. rewrite map_map in Hsrc. apply in_map_iff in Hsrc.
    destruct Hsrc as [j [E Hj]]. injection E as <- <-. apply in_seq in Hj.
    split; [apply device_in_set_coord; [exact Hc | lia] | exact Hl].
  - destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hk; [| discriminate].
    destruct (memb a (ty_axes t)); [discriminate |].
    destruct (memb a ps); [discriminate |]. inversion Hk. subst t' ps'. clear Hk.
    simpl in Hsrc. destruct (c a =? 0); [| destruct Hsrc].
    destruct Hsrc as [E | []]. injection E as <- <-. split; [exact Hc | exact Hl].
Qed.

Lemma sum_plan_moves_valid : forall ks p, pty_wf m p = true ->
  sum_moves_valid (pl_shapes (even_layout m (fst p))) (sum_plan_moves m p ks).
Proof.
  induction ks as [|k ks IH]; intros p Hw; simpl; [exact I |].
  destruct (sum_step_type m p k) as [p'|] eqn:Hk; simpl; [| exact I].
  split; [apply sum_step_valid; assumption |]. apply IH. eapply sum_step_type_wf; eassumption.
Qed.

(** A pending-sum plan that ends with no pending axis makes every rank
    receive at least the pending-sum lower bound. *)
Theorem sum_plan_recv_ge_bound : forall t ps ks t' r,
  pty_wf m (t, ps) = true -> sum_plan_type m (t, ps) ks = OK (t', []) ->
  length (sum_needy (even_layout m t) ps (even_layout m t') r) <= sum_plan_received m (t, ps) ks r.
Proof.
  intros t ps ks t' r Hw Hk.
  destruct (Nat.ltb_spec r (mesh_size m)) as [Hr | Hr].
  2: { unfold sum_needy. rewrite pl_box_even. destruct (Nat.ltb_spec r (mesh_size m)); [lia |]. simpl. lia. }
  assert (Hw' : pty_wf m (t', []) = true) by (eapply sum_plan_type_wf; eassumption).
  destruct (pty_wf_elim m t ps Hw) as [Ht _]. destruct (pty_wf_elim m t' [] Hw') as [Ht' _].
  rewrite <- sum_plan_moves_received by assumption.
  apply (sum_lower_bound _ _ _ (pl_shapes (even_layout m t))).
  - apply pl_pending_wf_even. exact Hw.
  - apply (sum_plan_moves_valid ks (t, ps)). exact Hw.
  - reflexivity.
  - apply (sum_final_plan_shapes m ks (t, ps) (t', [])); [exact Hk | reflexivity].
  - intros M g st Hst. apply pl_sholds_even in Hst; [| exact Ht].
    pose proof (sum_plan_sound M m Hm ks (t, ps) (t', []) g st Hw Hk Hst) as Hend.
    apply holds_sholds_empty in Hend; [| exact Hm].
    apply (pl_holds_even m t') in Hend; [| exact Hm | exact Ht'].
    intros w b Hb l Hl. rewrite run_sum_plan_moves. apply (Hend w b Hb l Hl).
Qed.

End Bound.
