(** * What the lowered pending-sum calls do ([Lowersums.v]).

    - [lower_sums_correct]: interpreting the calls, each with the plan's
      fill, leaves in every rank's destination what [sexec] gives with
      that fill, and keeps the source; with [scheck_fill_correct],
      [lower_sums_holds]: for a sound fill every rank ends with its target
      box under the target's pending sums.
    - [lower_sums_live_bytes]: at every call the bytes alive on a rank are
      at most [sum_live_bytes].
    - [lower_sums_workspace_exact]: the workspace is exactly the furthest
      byte some call uses.
    - [lower_sums_groups]: a reduction's or addition's group
      [(stride, size)] is its axis's, as the runtime reads it. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Buffers Model Semantics Checker Layout Exchange Strategy Sums Sumexchange Sumstrategy Lower Lowersums.
From Redist Require Import Radix Trafficproof Plannerproof Lowerproof Sumsproof Sumplanbound Strategyproof
  Sumstrategyproof.

Definition sbuffer_beq_refl := beq_refl sbuffer_beq internal_sbuffer_dec_lb.
Definition sbuffer_beq_eq := beq_true_iff sbuffer_beq internal_sbuffer_dec_bl internal_sbuffer_dec_lb.

Lemma last_cons_default : forall A (l : list A) x d, last (x :: l) d = last l x.
Proof.
  intros A l. induction l as [|y l IH]; intros x d; [reflexivity |].
  change (last (x :: y :: l) d) with (last (y :: l) d). rewrite !IH. reflexivity.
Qed.

(** Calls that do not write [b] keep it. *)
Lemma fold_rcalls_keep : forall M m cs (bs : sbuffers (carrier M)) b,
  (forall c, In c cs -> rc_out c <> b) -> fold_left (run_rcall M m) cs bs b = bs b.
Proof.
  intros M m cs. induction cs as [|c cs IH]; intros bs b H; [reflexivity |].
  simpl. rewrite IH by (intros; apply H; right; assumption).
  unfold run_rcall, write_sbuffer. destruct (sbuffer_beq b (rc_out c)) eqn:E; [| reflexivity].
  apply sbuffer_beq_eq in E. exfalso. apply (H c); [left |]; auto.
Qed.

Lemma reductions_write_red : forall m elem fl ks p inb c,
  In c (lower_reductions m elem fl p ks inb) -> in_red (rc_out c) = true.
Proof.
  induction ks as [|k ks IH]; intros p inb c H; [destruct H |].
  simpl in H. destruct (sum_step_type m p k) as [p'|]; [| destruct H].
  destruct H as [<- | H]; [destruct inb; reflexivity | eapply IH; exact H].
Qed.

Lemma additions_write_dst : forall m elem fl ks p c, In c (lower_additions m elem fl p ks) -> rc_out c = SDst.
Proof.
  induction ks as [|k ks IH]; intros p c H; [destruct H |].
  simpl in H. destruct (sum_step_type m p k) as [p'|]; [| destruct H].
  destruct H as [<- | H]; [reflexivity | eapply IH; exact H].
Qed.

Lemma reductions_correct : forall M m elem fl ks p p' inb (bs : sbuffers (carrier M)),
  sum_plan_type m p ks = OK p' ->
  let cs := lower_reductions m elem fl p ks inb in
  fold_left (run_rcall M m) cs bs (last (map rc_out cs) inb) = exec_sum_plan M fl m p ks (bs inb).
Proof.
  intros M m elem fl ks. induction ks as [|k ks IH]; intros p p' inb bs H cs; [reflexivity |].
  simpl in H. subst cs. cbn [lower_reductions exec_sum_plan].
  destruct (sum_step_type m p k) as [p1|]; [| discriminate].
  cbn [map fold_left]. rewrite last_cons_default. rewrite (IH p1 p' (next_red inb) _ H).
  unfold run_rcall, write_sbuffer. simpl. rewrite sbuffer_beq_refl. reflexivity.
Qed.

Lemma additions_correct : forall M m elem fl ks p p' (bs : sbuffers (carrier M)),
  sum_plan_type m p ks = OK p' ->
  fold_left (run_rcall M m) (lower_additions m elem fl p ks) bs SDst = exec_sum_plan M fl m p ks (bs SDst).
Proof.
  intros M m elem fl ks. induction ks as [|k ks IH]; intros p p' bs H; [reflexivity |].
  simpl in H. simpl. destruct (sum_step_type m p k) as [p1|]; [| discriminate].
  simpl. rewrite (IH p1 p' _ H). unfold run_rcall, write_sbuffer. simpl. reflexivity.
Qed.

(** The headline: the calls compute what the plan's execution computes. *)
Theorem lower_sums_correct : forall S ps T pt pre rf p post rep elem fl,
  scheck S ps T pt (SumByCollectives pre rf p post) = OK rep ->
  forall M (st other : state (carrier M)),
  let bs := interp_sums M (lower_sums elem fl S ps T pre rf p post) st other in
  bs SDst = sexec M fl S ps T pt (SumByCollectives pre rf p post) st /\ bs SSrc = st.
Proof.
  intros S ps T pt pre rf p post rep elem fl H M st other bs.
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
    as [pre_reps [t1 [kept [crep [post_reps
        [_ [_ [_ [Hpre [_ [Hc [_ [Hpost [_ [Hred _]]]]]]]]]]]]]]].
  apply sum_steps_check_type in Hpre. apply sum_steps_check_type in Hpost.
  subst bs. unfold interp_sums, lower_sums. simpl. rewrite Hred. simpl.
  set (m := ly_m S) in *.
  set (pres := lower_reductions m elem fl (ly_ty S, ps) pre SSrc).
  set (bs1 := fold_left (run_rcall M m) pres (initial_sbuffers st other)).
  assert (H1 : bs1 (reductions_out pres) = exec_sum_plan M fl m (ly_ty S, ps) pre st)
    by exact (reductions_correct M m elem fl pre _ _ SSrc (initial_sbuffers st other) Hpre).
  split.
  - rewrite (additions_correct M m elem fl post _ _ _ Hpost).
    unfold write_sbuffer at 1. simpl. rewrite H1.
    rewrite (lower_correct _ elem _ _ p _ _ other (run_type_check _ _ _ _ _ Hc)). reflexivity.
  - rewrite fold_rcalls_keep
      by (intros c Hin; rewrite (additions_write_dst _ _ _ _ _ _ Hin); discriminate).
    unfold write_sbuffer. simpl. subst bs1.
    rewrite fold_rcalls_keep; [reflexivity |].
    intros c Hin E. pose proof (reductions_write_red _ _ _ _ _ _ _ Hin) as R. rewrite E in R. discriminate.
Qed.

(** In user terms: with a sound fill ([KeepOne] always, [KeepAll] for max
    and min), every rank's destination holds its target box under the
    target's pending sums. *)
Corollary lower_sums_holds : forall S ps T pt pre rf p post rep elem fl,
  scheck S ps T pt (SumByCollectives pre rf p post) = OK rep ->
  forall M (g : list nat -> carrier M) (st other : state (carrier M)), fill_sound M fl ->
  pl_sholds M S ps g st ->
  pl_sholds M T pt g (interp_sums M (lower_sums elem fl S ps T pre rf p post) st other SDst).
Proof.
  intros S ps T pt pre rf p post rep elem fl H M g st other Hfl Hst.
  rewrite (proj1 (lower_sums_correct S ps T pt pre rf p post rep elem fl H M st other)).
  exact (scheck_fill_correct S ps T pt _ rep H M fl g st Hfl Hst).
Qed.

(** ** Bytes alive *)

Theorem lower_sums_live_bytes : forall elem fl S ps T pre rf p post src_bytes tgt_bytes,
  let pg := lower_sums elem fl S ps T pre rf p post in
  (forall c, In c (sg_pre pg ++ sg_post pg) -> rcall_live src_bytes tgt_bytes c <= sum_live_bytes pg src_bytes tgt_bytes)
  /\ (forall c, In c (sg_calls pg) -> coll_live pg src_bytes tgt_bytes c <= sum_live_bytes pg src_bytes tgt_bytes).
Proof.
  intros elem fl S ps T pre rf p post sb tb pg. unfold sum_live_bytes.
  split; intros c Hin; apply in_list_max, in_or_app; [left | right]; apply in_map; exact Hin.
Qed.

(** ** The workspace *)

Lemma reductions_reads : forall m elem fl ks p inb,
  reads_chained rc_in rc_out rc_in_bytes rc_out_bytes inb (local_size m (fst p) * elem)
    (lower_reductions m elem fl p ks inb).
Proof.
  induction ks as [|k ks IH]; intros p inb; simpl; [apply reads_chained_nil |].
  destruct (sum_step_type m p k) as [p'|]; [| apply reads_chained_nil].
  apply reads_chained_cons; [reflexivity | reflexivity | apply IH].
Qed.

Lemma red_written_le : forall b cs c, In c cs -> rc_out c = b ->
  rc_out_bytes c <= list_max (map (red_written b) cs).
Proof. exact (written_at_le sbuffer_beq internal_sbuffer_dec_lb rc_out rc_out_bytes). Qed.

Lemma red_written_attained : forall b cs, list_max (map (red_written b) cs) = 0
  \/ exists c, In c cs /\ rc_out c = b /\ rc_out_bytes c = list_max (map (red_written b) cs).
Proof. exact (written_at_attained sbuffer_beq internal_sbuffer_dec_bl rc_out rc_out_bytes). Qed.

(** The reductions' part of the workspace is the furthest byte a reduction uses. *)
Lemma reductions_extent : forall elem fl S ps T pre rf p post,
  let pg := lower_sums elem fl S ps T pre rf p post in
  collectives_offset pg = list_max (map (rcall_extent pg) (sg_pre pg)).
Proof.
  intros elem fl S ps T pre rf p post pg.
  set (cs := sg_pre pg).
  assert (Hrw : forall c, In c cs -> in_red (rc_in c) = true ->
            exists c', In c' cs /\ rc_out c' = rc_in c /\ rc_out_bytes c' = rc_in_bytes c).
  { intros c Hin Hw. destruct (reductions_reads _ _ _ _ _ _ c Hin) as [[E _] | H]; [| exact H].
    rewrite E in Hw. discriminate. }
  unfold collectives_offset, red_scratch_offset.
  set (P := red0_bytes pg). set (Q := red1_bytes pg). set (R := red_scratch_bytes pg).
  assert (Htouch : forall b n, in_red b = true ->
            (exists c', In c' cs /\ rc_out c' = b /\ rc_out_bytes c' = n) -> red_offset pg b + n <= P + Q).
  { intros b n Hb [c' [Hc' [Eb En]]]. rewrite <- En.
    destruct b; try discriminate; simpl.
    - pose proof (red_written_le SRed0 cs c' Hc' Eb). unfold P, red0_bytes. fold cs. lia.
    - pose proof (red_written_le SRed1 cs c' Hc' Eb). unfold P, Q, red1_bytes. fold cs. lia. }
  apply Nat.le_antisymm.
  - destruct (Nat.eq_dec R 0) as [HR | HR].
    + destruct (red_written_attained SRed1 cs) as [HQ | [c [Hc [Eb En]]]].
      * destruct (red_written_attained SRed0 cs) as [HP | [c [Hc [Eb En]]]].
        -- unfold P, Q, red0_bytes, red1_bytes. fold cs. lia.
        -- transitivity (rcall_extent pg c); [| apply in_list_max, in_map, Hc].
           unfold rcall_extent. rewrite Eb. simpl.
           unfold P, Q, red0_bytes, red1_bytes. fold cs. lia.
      * transitivity (rcall_extent pg c); [| apply in_list_max, in_map, Hc].
        unfold rcall_extent. rewrite Eb. simpl.
        unfold P, Q, red0_bytes, red1_bytes. fold cs. lia.
    + destruct (list_max_attained (map rc_scratch cs)) as [E | Hin];
        [unfold R, red_scratch_bytes in HR; fold cs in HR; contradiction |].
      apply in_map_iff in Hin. destruct Hin as [c [Ec Hc]].
      transitivity (rcall_extent pg c); [| apply in_list_max, in_map, Hc].
      unfold rcall_extent, red_scratch_offset. fold P Q.
      unfold R, red_scratch_bytes in HR |- *. fold cs in HR |- *. rewrite Ec.
      destruct (list_max (map rc_scratch cs) =? 0) eqn:E; [apply Nat.eqb_eq in E; lia | lia].
  - apply list_max_le, Forall_forall. intros n Hn. apply in_map_iff in Hn.
    destruct Hn as [c [<- Hc]]. unfold rcall_extent, red_scratch_offset. fold P Q.
    assert (Hs : rc_scratch c <= R) by (apply in_list_max, in_map, Hc).
    assert (Hin : (if in_red (rc_in c) then red_offset pg (rc_in c) + rc_in_bytes c else 0) <= P + Q).
    { destruct (in_red (rc_in c)) eqn:W; [| lia]. apply Htouch; [exact W | apply Hrw; assumption]. }
    assert (Hout : (if in_red (rc_out c) then red_offset pg (rc_out c) + rc_out_bytes c else 0) <= P + Q).
    { destruct (in_red (rc_out c)) eqn:W; [| lia]. apply Htouch; [exact W | exists c; auto]. }
    destruct (rc_scratch c =? 0); lia.
Qed.

Lemma shifted_max : forall A (f : A -> nat) off l,
  list_max (map (fun c => if f c =? 0 then 0 else off + f c) l)
  = if list_max (map f l) =? 0 then 0 else off + list_max (map f l).
Proof.
  intros A f off l. unfold list_max. induction l as [|a l IH]; [reflexivity |].
  simpl. rewrite IH.
  destruct (Nat.eqb_spec (f a) 0); destruct (Nat.eqb_spec (fold_right Nat.max 0 (map f l)) 0);
    destruct (Nat.eqb_spec (Nat.max (f a) (fold_right Nat.max 0 (map f l))) 0); lia.
Qed.

(** The workspace the header asks for is the furthest byte of it some call uses. *)
Theorem lower_sums_workspace_exact : forall elem fl S ps T pre rf p post,
  let pg := lower_sums elem fl S ps T pre rf p post in
  sum_workspace_bytes pg = sum_program_extent pg.
Proof.
  intros elem fl S ps T pre rf p post pg.
  unfold sum_program_extent, sum_workspace_bytes. rewrite list_max_app.
  pose proof (reductions_extent elem fl S ps T pre rf p post) as Hr. cbv zeta in Hr. fold pg in Hr.
  rewrite <- Hr.
  unfold coll_extent. rewrite (shifted_max _ (call_extent (sg_calls pg))).
  assert (E : workspace_bytes (sg_calls pg) = list_max (map (call_extent (sg_calls pg)) (sg_calls pg)))
    by apply lower_workspace_exact.
  rewrite <- E. destruct (Nat.eqb_spec (workspace_bytes (sg_calls pg)) 0); lia.
Qed.

(** ** Groups in rank space *)

Lemma sum_step_axis_in_mesh : forall m p k p', pty_wf m p = true -> sum_step_type m p k = OK p' ->
  In (sum_step_axis k) (mesh_axes m).
Proof.
  intros m [t ps] k p' Hw Hk. destruct (pty_wf_elim m t ps Hw) as [_ [_ Hps]].
  destruct k as [d a | a | a]; simpl in Hk |- *.
  - destruct (memb a ps) eqn:E; simpl in Hk; [| discriminate]. apply (Hps a), memb_In, E.
  - destruct (memb a ps) eqn:E; simpl in Hk; [| discriminate]. apply (Hps a), memb_In, E.
  - destruct (memb a (mesh_axes m)) eqn:E; simpl in Hk; [apply memb_In, E | discriminate].
Qed.

Lemma reductions_groups : forall m elem fl inb ks p c, mesh_wf m = true -> pty_wf m p = true ->
  In c (lower_reductions m elem fl p ks inb) ->
  In (sum_step_axis (rc_step c)) (mesh_axes m) /\ rc_group c = axis_group m (sum_step_axis (rc_step c)).
Proof.
  intros m elem fl inb ks p c Hm Hw Hin. revert inb p c Hw Hin. induction ks as [|k ks IH]; intros inb p c Hw Hin;
    [destruct Hin |].
  simpl in Hin. destruct (sum_step_type m p k) as [p'|] eqn:Hs; [| destruct Hin].
  destruct Hin as [<- | Hin].
  - split; [exact (sum_step_axis_in_mesh m p k p' Hw Hs) | reflexivity].
  - apply (IH (next_red inb) p'); [exact (sum_step_type_wf m Hm p k p' Hw Hs) | exact Hin].
Qed.

Lemma additions_groups : forall m elem fl ks p c, mesh_wf m = true -> pty_wf m p = true ->
  In c (lower_additions m elem fl p ks) ->
  In (sum_step_axis (rc_step c)) (mesh_axes m) /\ rc_group c = axis_group m (sum_step_axis (rc_step c)).
Proof.
  intros m elem fl ks. induction ks as [|k ks IH]; intros p c Hm Hw Hin; [destruct Hin |].
  simpl in Hin. destruct (sum_step_type m p k) as [p'|] eqn:Hs; [| destruct Hin].
  destruct Hin as [<- | Hin].
  - split; [exact (sum_step_axis_in_mesh m p k p' Hw Hs) | reflexivity].
  - apply (IH p'); [exact Hm | exact (sum_step_type_wf m Hm p k p' Hw Hs) | exact Hin].
Qed.

(** A reduction's or addition's group [(stride, size)] is its axis's: the
    member index the runtime computes, [(r / stride) mod size], is the
    coordinate of rank [r]'s device on that axis. *)
Theorem lower_sums_groups : forall S ps T pt pre rf p post rep elem fl,
  scheck S ps T pt (SumByCollectives pre rf p post) = OK rep ->
  let pg := lower_sums elem fl S ps T pre rf p post in
  forall c w s, In c (sg_pre pg ++ sg_post pg) -> rc_group c = (w, s) ->
  let a := sum_step_axis (rc_step c) in
  s = axis_size (ly_m S) a /\ forall r, r < mesh_size (ly_m S) -> device_of_rank (ly_m S) r a = r / w mod s.
Proof.
  intros S ps T pt pre rf p post rep elem fl H pg c w s Hin Hg a.
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
    as [pre_reps [t1 [kept [crep [post_reps
        [He [Hws [Hwt [Hpre [_ [_ [Hkept [_ [_ [Hred _]]]]]]]]]]]]]]].
  destruct (even_problem_spec S T He) as [_ [_ [Hm [_ [Ht _]]]]].
  set (m := ly_m S) in *.
  assert (Hw1 : pty_wf m (t1, kept) = true)
    by exact (sum_plan_type_wf m Hm pre _ _ Hws (sum_steps_check_type _ _ _ _ _ Hpre)).
  assert (Hwk : pty_wf m (ly_ty T, kept) = true).
  { destruct Hkept as [-> | [_ <-]]; [| exact Hw1]. unfold pty_wf. simpl. rewrite Ht. reflexivity. }
  assert (Hx : In a (mesh_axes m) /\ rc_group c = axis_group m a).
  { apply in_app_or in Hin. unfold pg, lower_sums in Hin. cbn [sg_pre sg_post] in Hin. fold m in Hin.
    rewrite Hred in Hin. cbn [snd] in Hin.
    destruct Hin as [Hin | Hin].
    - exact (reductions_groups m elem fl SSrc pre _ c Hm Hws Hin).
    - exact (additions_groups m elem fl post _ c Hm Hwk Hin). }
  destruct Hx as [Hax Hgrp].
  destruct (rank_weights_spec m a Hm Hax) as [pre_axes [post_axes [Ea Ew]]].
  rewrite Hg in Hgrp. unfold axis_group in Hgrp. rewrite Ew in Hgrp. injection Hgrp as -> ->.
  split; [reflexivity |]. intros r Hr. apply (device_digit m r pre_axes a post_axes Hm Hr Ea).
Qed.
