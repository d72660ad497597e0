(** * The exchange in place: what a validated schedule guarantees.

    - [inplace_sound]: from any memory whose buffers hold the source boxes
      of an array, a schedule [validate] accepts leaves every target rank's
      buffer holding exactly its target box, for any two layouts on any two
      placed meshes (a rank in one mesh only has a buffer of that mesh's box).
    - [inplace_live_bytes]: every run a schedule reads or writes lies in its
      rank's buffer of [max(|src box|, |tgt box|)] elements or in its staging
      of [B] elements.
    - [inplace_traffic_exact], [inplace_traffic_optimal]: each rank receives
      from other ranks exactly [recv_lower_bound], the elements of its target
      box missing from its source box, which no plan beats.
    - [inplace_rounds_match]: in every round, what rank [a] sends to rank
      [b] is, in order and length, what [b] receives from [a], on ranks of
      the two meshes.
    - [round_sequential]: a round [validate] accepts, run one move at a time
      in any order its list gives, is the round itself: sends may read and
      receives write the buffer directly. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Trafficproof Layout Layoutproof Exchange Exchangeproof Lowerbound Inplace.

(** ** Row-major offsets *)

Lemma lin_delin : forall shape q, q < prod shape ->
  in_box shape (delin shape q) /\ lin shape (delin shape q) = q.
Proof.
  induction shape as [|n shape IH]; intros q Hq; simpl in *.
  - unfold prod in Hq. simpl in Hq. split; [exact I | lia].
  - fold (prod shape) in *. assert (Hp : prod shape <> 0) by (intros E; rewrite E in Hq; lia).
    destruct (IH (q mod prod shape)) as [Hin Hlin]; [apply Nat.mod_upper_bound; exact Hp |].
    split; [split; [apply Nat.div_lt_upper_bound; lia | exact Hin] |].
    rewrite Hlin. rewrite Nat.mul_comm. symmetry. apply Nat.div_mod. exact Hp.
Qed.

(** ** Execution is a trace back to the start *)

Lemma run_schedule_trace : forall A sc (st : memory A) y, run_schedule sc st y = st (trace sc y).
Proof.
  induction sc as [|rd sc IH]; intros st y; simpl; [reflexivity |].
  rewrite IH. reflexivity.
Qed.

Lemma pl_box_in_ranks : forall L w b, pl_box L w = Some b -> In w (pm_ranks (ly_mesh L)).
Proof.
  intros L w b H. unfold pl_box in H. destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk;
    [| discriminate].
  apply index_of_Some in Hk. destruct Hk as [Hk Ew]. rewrite <- Ew. apply nth_In. exact Hk.
Qed.

Lemma validate_parts : forall S T B sc, validate S T B sc = true ->
  (forall rd mv, In rd sc -> In mv rd -> move_ok S T B mv = true)
  /\ (forall rd, In rd sc -> round_apart rd = true)
  /\ (forall w, In w (pm_ranks (ly_mesh T)) -> target_ok S T sc w = true)
  /\ (forall w, In w (ranks_of S T) -> received sc w = recv_lower_bound S T w).
Proof.
  intros S T B sc H. unfold validate in H. rewrite !andb_true_iff in H.
  destruct H as [[[Hm Ha] Ht] Hr]. rewrite forallb_forall in Hm, Ha, Ht, Hr.
  split; [| split; [| split]].
  - intros rd mv Hrd Hmv. specialize (Hm rd Hrd). rewrite forallb_forall in Hm. exact (Hm mv Hmv).
  - exact Ha.
  - exact Ht.
  - intros w Hw. apply Nat.eqb_eq. exact (Hr w Hw).
Qed.

(** ** Soundness *)

Theorem inplace_sound : forall S T B sc A (g : list nat -> A) (st : memory A),
  validate S T B sc = true -> buf_holds S g st -> buf_holds T g (run_schedule sc st).
Proof.
  intros S T B sc A g st Hv Hst w tb Htb l Hl.
  destruct (validate_parts S T B sc Hv) as [_ [_ [Ht _]]].
  specialize (Ht w (pl_box_in_ranks T w tb Htb)). unfold target_ok in Ht. rewrite Htb, forallb_forall in Ht.
  specialize (Ht l (proj2 (in_box_indices _ _) Hl)).
  rewrite run_schedule_trace.
  destruct (trace sc {| pl_rank := w; pl_area := Buf; pl_off := lin (box_shape tb) l |}) as [s a q].
  unfold source_has in Ht. simpl in Ht. destruct a; [| discriminate].
  destruct (pl_box S s) as [sb|] eqn:Hsb; [| discriminate].
  rewrite andb_true_iff, Nat.ltb_lt, list_eqb_eq in Ht. destruct Ht as [Hq Eg].
  destruct (lin_delin (box_shape sb) q Hq) as [Hin Hlin].
  rewrite <- Hlin, (Hst s sb Hsb _ Hin), Eg. reflexivity.
Qed.

(** ** Memory *)

Theorem inplace_live_bytes : forall S T B sc, validate S T B sc = true ->
  forall rd mv x, In rd sc -> In mv rd -> x = mv_from mv \/ x = mv_to mv ->
  pl_off x + mv_len mv <=
    match pl_area x with
    | Buf => Nat.max (held_size S (pl_rank x)) (held_size T (pl_rank x))
    | Stage => B
    end.
Proof.
  intros S T B sc Hv rd mv x Hrd Hmv Hx.
  destruct (validate_parts S T B sc Hv) as [Hm _]. specialize (Hm rd mv Hrd Hmv).
  unfold move_ok in Hm. rewrite !andb_true_iff, !Nat.leb_le in Hm.
  unfold area_size, buf_size in Hm. destruct Hx; subst x; tauto.
Qed.

(** ** Traffic *)

Lemma list_sum_zero : forall xs, (forall x, In x xs -> x = 0) -> list_sum xs = 0.
Proof.
  induction xs as [|x xs IH]; intros H; simpl; [reflexivity |].
  rewrite (H x (or_introl eq_refl)), IH; [reflexivity |]. intros y Hy. apply H. right. exact Hy.
Qed.

Theorem inplace_traffic_exact : forall S T B sc, validate S T B sc = true ->
  forall w, received sc w = recv_lower_bound S T w.
Proof.
  intros S T B sc Hv w. destruct (validate_parts S T B sc Hv) as [Hm [_ [_ Hr]]].
  destruct (in_dec Nat.eq_dec w (ranks_of S T)) as [Hw | Hw]; [exact (Hr w Hw) |].
  assert (HT : pl_box T w = None).
  { destruct (pl_box T w) as [tb|] eqn:E; [| reflexivity].
    exfalso. apply Hw. unfold ranks_of. apply in_or_app. right. exact (pl_box_in_ranks T w tb E). }
  unfold recv_lower_bound. rewrite HT. unfold received. apply list_sum_zero.
  intros n Hn. apply in_map_iff in Hn. destruct Hn as [rd [En Hrd]]. subst n.
  apply list_sum_zero. intros n Hn. apply in_map_iff in Hn. destruct Hn as [mv [En Hmv]]. subst n.
  unfold rank_recvs in Hmv. apply filter_In in Hmv. destruct Hmv as [Hmv Hc].
  exfalso. apply Hw. specialize (Hm rd mv Hrd Hmv). unfold move_ok in Hm. rewrite !andb_true_iff in Hm.
  rewrite andb_true_iff, Nat.eqb_eq in Hc. destruct Hc as [_ Ew]. rewrite <- Ew.
  unfold memb in Hm. destruct Hm as [[[_ Ht] _] _]. apply existsb_exists in Ht.
  destruct Ht as [v [Hv' Ev]]. apply Nat.eqb_eq in Ev. subst v. exact Hv'.
Qed.

(** Each rank receives exactly the elements of its target box missing from
    its source box: the lower bound no plan of any steps goes below
    ([Lowerbound.lower_bound_sound]). *)
Theorem inplace_traffic_optimal : forall S T B sc, layouts_wf S T = true -> validate S T B sc = true ->
  forall w, received sc w = length (missing S T w).
Proof.
  intros S T B sc Hwf Hv w. rewrite (inplace_traffic_exact S T B sc Hv w).
  apply recv_lower_bound_exact. exact Hwf.
Qed.

(** ** Rounds match *)

Lemma sends_are_recvs : forall rd a b,
  filter (fun mv => pl_rank (mv_to mv) =? b) (rank_sends rd a)
  = filter (fun mv => pl_rank (mv_from mv) =? a) (rank_recvs rd b).
Proof.
  unfold rank_sends, rank_recvs. induction rd as [|mv rd IH]; intros a b; [reflexivity |]. simpl.
  destruct (crosses mv); simpl; [| apply IH].
  destruct (pl_rank (mv_from mv) =? a) eqn:Ea, (pl_rank (mv_to mv) =? b) eqn:Eb; simpl;
    rewrite ?Ea, ?Eb; simpl; rewrite IH; reflexivity.
Qed.

Theorem inplace_rounds_match : forall S T B sc, validate S T B sc = true ->
  forall rd a b, In rd sc ->
  map mv_len (filter (fun mv => pl_rank (mv_to mv) =? b) (rank_sends rd a))
  = map mv_len (filter (fun mv => pl_rank (mv_from mv) =? a) (rank_recvs rd b))
  /\ (forall mv, In mv rd -> In (pl_rank (mv_from mv)) (ranks_of S T) /\ In (pl_rank (mv_to mv)) (ranks_of S T)).
Proof.
  intros S T B sc Hv rd a b Hrd. split; [rewrite sends_are_recvs; reflexivity |].
  intros mv Hmv. destruct (validate_parts S T B sc Hv) as [Hm _]. specialize (Hm rd mv Hrd Hmv).
  unfold move_ok, memb in Hm. rewrite !andb_true_iff, !existsb_exists in Hm.
  destruct Hm as [[[[v [Hv1 E1]] [u [Hu1 E2]]] _] _].
  apply Nat.eqb_eq in E1, E2. subst. split; assumption.
Qed.

(** ** A round, one move at a time *)

Lemma area_eqb_eq : forall a b, area_eqb a b = true <-> a = b.
Proof. intros [|] [|]; simpl; split; intros H; congruence. Qed.

Lemma in_runs_meet : forall x n y k z, in_run x n z = true -> in_run y k z = true -> runs_meet x n y k = true.
Proof.
  intros x n y k z Hx Hy. unfold in_run in Hx, Hy. unfold runs_meet.
  rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, Nat.leb_le, Nat.ltb_lt in Hx, Hy.
  rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, !Nat.ltb_lt.
  destruct Hx as [[[Hx1 Hx2] Hx3] Hx4], Hy as [[[Hy1 Hy2] Hy3] Hy4].
  split; [split; [split |] |]; [congruence | congruence | lia | lia].
Qed.

Lemma round_source_from : forall rd y,
  round_source rd y = y \/ exists mv, In mv rd /\ in_run (mv_from mv) (mv_len mv) (round_source rd y) = true.
Proof.
  induction rd as [|mv rd IH]; intros y; simpl; [left; reflexivity |].
  destruct (in_run (mv_to mv) (mv_len mv) y) eqn:E.
  - right. exists mv. split; [left; reflexivity |]. unfold in_run in *.
    rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, Nat.leb_le, Nat.ltb_lt in E.
    unfold shift. simpl. rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, Nat.leb_le, Nat.ltb_lt.
    split; [split; [split |] |]; [reflexivity | reflexivity | lia | lia].
  - destruct (IH y) as [Hy | [mv' [Hin Hr]]]; [left; exact Hy | right; exists mv'; split; [right |]; assumption].
Qed.

Lemma round_source_unwritten : forall rd y,
  (forall mv, In mv rd -> in_run (mv_to mv) (mv_len mv) y = false) -> round_source rd y = y.
Proof.
  induction rd as [|mv rd IH]; intros y H; simpl; [reflexivity |].
  rewrite (H mv (or_introl eq_refl)). apply IH. intros mv' Hmv'. apply H. right. exact Hmv'.
Qed.

Theorem round_sequential : forall A rd (st : memory A) y,
  round_apart rd = true -> run_moves rd st y = run_round rd st y.
Proof.
  intros A rd. induction rd as [|mv rd IH]; intros st y Hap; [reflexivity |].
  unfold round_apart in Hap. rewrite andb_true_iff in Hap. destruct Hap as [Hw Hrw].
  simpl in Hw. rewrite andb_true_iff, forallb_forall in Hw. destruct Hw as [Hw Hwr].
  rewrite forallb_forall in Hrw.
  assert (Hmeet : forall m1 m2, In m1 (mv :: rd) -> In m2 (mv :: rd) ->
            runs_meet (mv_from m1) (mv_len m1) (mv_to m2) (mv_len m2) = false).
  { intros m1 m2 H1 H2. specialize (Hrw m1 H1). rewrite forallb_forall in Hrw.
    apply negb_true_iff. exact (Hrw m2 H2). }
  assert (Hrd : round_apart rd = true).
  { unfold round_apart. rewrite andb_true_iff, forallb_forall. split; [exact Hwr |].
    intros m1 Hm1. rewrite forallb_forall. intros m2 Hm2. apply negb_true_iff.
    apply Hmeet; right; assumption. }
  simpl. rewrite (IH _ _ Hrd). unfold run_round, run_move. simpl.
  destruct (in_run (mv_to mv) (mv_len mv) y) eqn:Ey.
  - rewrite round_source_unwritten, Ey; [reflexivity |].
    intros mv' Hmv'. destruct (in_run (mv_to mv') (mv_len mv') y) eqn:E'; [| reflexivity].
    specialize (Hw mv' Hmv'). rewrite (in_runs_meet _ _ _ _ _ Ey E') in Hw. discriminate.
  - destruct (round_source_from rd y) as [Hy | [mv' [Hin Hr]]].
    + rewrite Hy, Ey. reflexivity.
    + destruct (in_run (mv_to mv) (mv_len mv) (round_source rd y)) eqn:E'; [| reflexivity].
      exfalso.
      specialize (Hmeet mv' mv (or_intror Hin) (or_introl eq_refl)).
      rewrite (in_runs_meet _ _ _ _ _ Hr E') in Hmeet. discriminate.
Qed.

(** The plan the command runs is one [validate] accepted, so every theorem above holds of it. *)
Theorem inplace_plan_validated : forall S T B sc, inplace_plan S T B = Some sc -> validate S T B sc = true.
Proof.
  intros S T B sc H. unfold inplace_plan in H. destruct (inplace_schedule S T B) as [sc'|]; [| discriminate].
  destruct (validate S T B sc') eqn:E; [| discriminate]. inversion H. subst. exact E.
Qed.
