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
      receives write the buffer directly.
    - [validate_runs_validate], [validate_blocks_validate]: the validators
      the command can run, on runs and on blocks, imply [validate]. *)

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

(** ** Blocks: [validate_blocks] implies [validate] *)

Lemma lin_lt : forall shape l, in_box shape l -> lin shape l < prod shape.
Proof.
  induction shape as [|n shape IH]; intros [|i l] Hl; simpl in *; try contradiction.
  - unfold prod. simpl. lia.
  - fold (prod shape). destruct Hl as [Hi Hl]. specialize (IH l Hl). nia.
Qed.

Lemma delin_lin : forall shape l, in_box shape l -> delin shape (lin shape l) = l.
Proof.
  induction shape as [|n shape IH]; intros [|i l] Hl; simpl in *; try contradiction; [reflexivity |].
  destruct Hl as [Hi Hl]. pose proof (lin_lt shape l Hl) as Hlt.
  assert (Hq : (i * prod shape + lin shape l) / prod shape = i).
  { symmetry. apply (Nat.div_unique _ _ _ (lin shape l)); [exact Hlt | lia]. }
  assert (Hr : (i * prod shape + lin shape l) mod prod shape = lin shape l).
  { symmetry. apply (Nat.mod_unique _ _ i); [exact Hlt | lia]. }
  rewrite Hq, Hr, IH by exact Hl. reflexivity.
Qed.

Lemma prod_rows : forall shape, prod shape = prod (removelast shape) * row_len shape.
Proof.
  unfold row_len. induction shape as [|n [|m shape] IH]; [reflexivity | unfold prod; simpl; lia |].
  change (prod (n :: m :: shape)) with (n * prod (m :: shape)). rewrite IH.
  change (removelast (n :: m :: shape)) with (n :: removelast (m :: shape)).
  change (last (n :: m :: shape) 1) with (last (m :: shape) 1).
  change (prod (n :: removelast (m :: shape))) with (n * prod (removelast (m :: shape))). lia.
Qed.

(** Within a row, [k] places on is [k] on in the last coordinate. *)
Fixpoint bump_last (l : list nat) (k : nat) : list nat :=
  match l with
  | [] => []
  | j :: l' => match l' with [] => [j + k] | _ => j :: bump_last l' k end
  end.

Lemma bump_last_cons : forall j l k, l <> [] -> bump_last (j :: l) k = j :: bump_last l k.
Proof. intros j [|i l] k H; [contradiction | reflexivity]. Qed.

Lemma row_fits : forall rl c q k, q < c * rl -> q mod rl + k < rl -> q + k < c * rl.
Proof.
  intros rl c q k Hq Hk. assert (Hrl : rl <> 0) by lia.
  pose proof (Nat.div_mod q rl Hrl) as Hd.
  assert (Hc : q / rl < c) by (apply Nat.div_lt_upper_bound; lia). nia.
Qed.

Lemma delin_length : forall shape q, length (delin shape q) = length shape.
Proof. induction shape as [|n shape IH]; intros q; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma delin_bump : forall shape q k, q mod row_len shape + k < row_len shape ->
  delin shape (q + k) = bump_last (delin shape q) k.
Proof.
  unfold row_len. induction shape as [|n [|m shape] IH]; intros q k Hk.
  - simpl in Hk. reflexivity.
  - change (delin [n] (q + k)) with [(q + k) / 1]. change (delin [n] q) with [q / 1].
    rewrite !Nat.div_1_r. reflexivity.
  - change (last (n :: m :: shape) 1) with (last (m :: shape) 1) in Hk.
    set (rl := last (m :: shape) 1) in *. set (P := prod (m :: shape)).
    assert (HP : P = prod (removelast (m :: shape)) * rl) by apply prod_rows.
    set (c := prod (removelast (m :: shape))) in HP.
    assert (Hrl : rl <> 0) by lia.
    assert (Hnil : forall x, delin (m :: shape) x <> []).
    { intros x E. pose proof (delin_length (m :: shape) x) as Hl. rewrite E in Hl. discriminate. }
    change (delin (n :: m :: shape) (q + k)) with ((q + k) / P :: delin (m :: shape) ((q + k) mod P)).
    change (delin (n :: m :: shape) q) with (q / P :: delin (m :: shape) (q mod P)).
    destruct (Nat.eq_dec P 0) as [E0 | HP0].
    { rewrite E0. change ((q + k) / 0) with 0. change (q / 0) with 0.
      change ((q + k) mod 0) with (q + k). change (q mod 0) with q. rewrite IH by exact Hk.
      rewrite bump_last_cons by apply Hnil. reflexivity. }
    assert (Hmm : (q mod P) mod rl = q mod rl).
    { rewrite (Nat.div_mod q P HP0) at 2. rewrite HP.
      replace (c * rl * (q / (c * rl)) + q mod (c * rl)) with (q mod (c * rl) + (c * (q / (c * rl))) * rl) by lia.
      rewrite Nat.mod_add by exact Hrl. rewrite <- HP. reflexivity. }
    assert (Hin : q mod P + k < P).
    { assert (Hlt : q mod P < c * rl) by (rewrite <- HP; apply Nat.mod_upper_bound; exact HP0).
      pose proof (row_fits rl c (q mod P) k Hlt) as H. rewrite Hmm, <- HP in H. exact (H Hk). }
    assert (Hq : (q + k) / P = q / P).
    { symmetry. apply (Nat.div_unique _ _ _ (q mod P + k)); [exact Hin |].
      pose proof (Nat.div_mod q P HP0). lia. }
    assert (Hr : (q + k) mod P = q mod P + k).
    { symmetry. apply (Nat.mod_unique _ _ (q / P)); [exact Hin |].
      pose proof (Nat.div_mod q P HP0). lia. }
    rewrite Hq, Hr, IH by (rewrite Hmm; exact Hk).
    rewrite bump_last_cons by apply Hnil. reflexivity.
Qed.

Lemma global_bump : forall b l k, length b = length l ->
  box_global b (bump_last l k) = bump_last (box_global b l) k.
Proof.
  induction b as [|[lo n] b IH]; intros [|i l] k Hlen; simpl in Hlen; try discriminate; [reflexivity |].
  injection Hlen as Hlen. destruct l as [|i' l].
  - destruct b; [| discriminate]. simpl. f_equal. lia.
  - destruct b as [|[lo' n'] b]; [discriminate |].
    change (bump_last (i :: i' :: l) k) with (i :: bump_last (i' :: l) k).
    change (box_global ((lo, n) :: (lo', n') :: b) (i :: i' :: l))
      with ((lo + i) :: box_global ((lo', n') :: b) (i' :: l)).
    change (box_global ((lo, n) :: (lo', n') :: b) (i :: bump_last (i' :: l) k))
      with ((lo + i) :: box_global ((lo', n') :: b) (bump_last (i' :: l) k)).
    rewrite IH by exact Hlen. rewrite bump_last_cons; [reflexivity | discriminate].
Qed.

Lemma box_shape_length : forall b, length (box_shape b) = length b.
Proof. intros b. unfold box_shape. apply map_length. Qed.

(** Runs at multiples of [g] move blocks of [g] places whole. *)
Definition aligned_at (g : nat) (x : place) : Prop := Nat.divide g (pl_off x).

Lemma aligned_parts : forall g mv, 0 < g -> aligned g mv = true ->
  Nat.divide g (pl_off (mv_from mv)) /\ Nat.divide g (pl_off (mv_to mv)) /\ Nat.divide g (mv_len mv).
Proof.
  intros g mv Hg H. unfold aligned in H. rewrite !andb_true_iff, !Nat.eqb_eq in H.
  destruct H as [[H1 H2] H3]. split; [| split]; apply Nat.mod_divide; lia.
Qed.

Lemma mul_le_within : forall g a b k, k < g -> (a * g <= b * g + k <-> a <= b).
Proof.
  intros g a b k Hk. split; intros H; [| nia].
  destruct (Nat.le_gt_cases a b) as [E | E]; [exact E |].
  assert (a * g >= (b + 1) * g) by (apply Nat.mul_le_mono_r; lia). nia.
Qed.

Lemma mul_lt_within : forall g a b k, k < g -> (b * g + k < a * g <-> b * g < a * g).
Proof.
  intros g a b k Hk. split; intros H; [lia |].
  assert (b < a) by (apply (Nat.mul_lt_mono_pos_r g); lia).
  assert ((b + 1) * g <= a * g) by (apply Nat.mul_le_mono_r; lia). nia.
Qed.

Lemma in_run_shift : forall g x n y k, k < g -> Nat.divide g (pl_off x) -> Nat.divide g n -> Nat.divide g (pl_off y) ->
  in_run x n (shift y k) = in_run x n y.
Proof.
  intros g x n y k Hk [a Ea] [c Ec] [b Eb]. unfold in_run, shift. simpl.
  f_equal; [f_equal |].
  - apply eq_iff_eq_true. rewrite !Nat.leb_le, Ea, Eb, (mul_le_within g a b k Hk).
    split; intros H; [apply Nat.mul_le_mono_r; exact H |].
    apply (Nat.mul_le_mono_pos_r _ _ g); lia.
  - apply eq_iff_eq_true. rewrite !Nat.ltb_lt, Ea, Eb, Ec, <- Nat.mul_add_distr_r. apply mul_lt_within. exact Hk.
Qed.

Lemma round_source_shift : forall g rd y k, 0 < g -> k < g ->
  (forall mv, In mv rd -> aligned g mv = true) -> aligned_at g y ->
  round_source rd (shift y k) = shift (round_source rd y) k /\ aligned_at g (round_source rd y).
Proof.
  intros g rd y k Hg Hk. induction rd as [|mv rd IH]; intros Hal Hy; simpl; [split; [reflexivity | exact Hy] |].
  destruct (aligned_parts g mv Hg (Hal mv (or_introl eq_refl))) as [Hf [Ht Hn]].
  rewrite (in_run_shift g _ _ _ _ Hk Ht Hn Hy).
  destruct (in_run (mv_to mv) (mv_len mv) y) eqn:E.
  - unfold in_run in E. rewrite !andb_true_iff, Nat.leb_le in E. destruct E as [[_ Hle] _].
    split.
    + unfold shift. simpl. f_equal. lia.
    + unfold aligned_at, shift. simpl. apply Nat.divide_add_r; [exact Hf |].
      apply Nat.divide_sub_r; [exact Hy | exact Ht].
  - apply IH; [intros mv' Hmv'; apply Hal; right; exact Hmv' | exact Hy].
Qed.

Lemma trace_shift : forall g sc y k, 0 < g -> k < g ->
  (forall rd mv, In rd sc -> In mv rd -> aligned g mv = true) -> aligned_at g y ->
  trace sc (shift y k) = shift (trace sc y) k /\ aligned_at g (trace sc y).
Proof.
  intros g sc y k Hg Hk. induction sc as [|rd sc IH]; intros Hal Hy; simpl; [split; [reflexivity | exact Hy] |].
  destruct IH as [E Ha]; [intros rd' mv Hrd Hmv; apply (Hal rd' mv); [right |]; assumption | exact Hy |].
  rewrite E. apply round_source_shift; [exact Hg | exact Hk | | exact Ha].
  intros mv Hmv. apply (Hal rd mv); [left; reflexivity | exact Hmv].
Qed.

Lemma source_run_has_shift : forall S x n i k, k < n -> source_run_has S x n i = true ->
  source_has S (shift x k) (bump_last i k) = true.
Proof.
  intros S x n i k Hk H. unfold source_run_has in H. unfold source_has, shift. simpl.
  destruct (pl_area x); [| discriminate]. destruct (pl_box S (pl_rank x)) as [sb|]; [| discriminate].
  rewrite !andb_true_iff, Nat.ltb_lt, Nat.leb_le, list_eqb_eq in H. destruct H as [[Hq Hrow] Eg].
  rewrite andb_true_iff, Nat.ltb_lt, list_eqb_eq. split.
  - unfold box_size in *. rewrite prod_rows in *. apply row_fits; [exact Hq | lia].
  - rewrite delin_bump by lia. rewrite global_bump by (rewrite delin_length, box_shape_length; reflexivity).
    rewrite Eg. reflexivity.
Qed.

Lemma round_source_rank : forall rd y,
  round_source (filter (fun mv => pl_rank (mv_to mv) =? pl_rank y) rd) y = round_source rd y.
Proof.
  induction rd as [|mv rd IH]; intros y; simpl; [reflexivity |].
  destruct (pl_rank (mv_to mv) =? pl_rank y) eqn:E; simpl.
  - rewrite IH. reflexivity.
  - assert (Hn : in_run (mv_to mv) (mv_len mv) y = false).
    { unfold in_run. rewrite E. reflexivity. }
    rewrite Hn, IH. reflexivity.
Qed.

Lemma moves_to_source : forall ranks rd y,
  round_source (moves_to (index_round ranks rd) (pl_rank y)) y = round_source rd y.
Proof.
  intros ranks rd y. unfold moves_to, index_round. simpl.
  destruct (find (fun p => fst p =? pl_rank y) _) as [[r rd']|] eqn:E; [| reflexivity].
  apply find_some in E. destruct E as [Hin Hr]. simpl in Hr. apply Nat.eqb_eq in Hr. subst r.
  apply in_map_iff in Hin. destruct Hin as [r [Er _]]. injection Er as Er1 Er2. subst.
  apply round_source_rank.
Qed.

Lemma trace_indexed_trace : forall ranks sc y, trace_indexed (map (index_round ranks) sc) y = trace sc y.
Proof.
  intros ranks. induction sc as [|rd sc IH]; intros y; simpl; [reflexivity |].
  rewrite IH. apply moves_to_source.
Qed.

Lemma target_blocks_target_ok : forall S T g sc w, 0 < g ->
  (forall rd mv, In rd sc -> In mv rd -> aligned g mv = true) ->
  target_blocks_ok S T g (map (index_round (ranks_of S T)) sc) w = true -> target_ok S T sc w = true.
Proof.
  intros S T g sc w Hg Hal H. unfold target_blocks_ok in H. unfold target_ok.
  destruct (pl_box T w) as [tb|]; [| reflexivity].
  rewrite forallb_forall in H |- *. intros l Hl. apply in_box_indices in Hl.
  set (shape := box_shape tb) in *. set (p := lin shape l).
  assert (Hp : p < box_size tb) by apply lin_lt, Hl.
  assert (Hg0 : g <> 0) by lia.
  specialize (H (p / g)). rewrite in_seq in H.
  assert (Hj : p / g < box_size tb / g + 1) by (pose proof (Nat.div_le_mono p (box_size tb) g Hg0); lia).
  assert (Hin : 0 <= p / g < 0 + Nat.succ (box_size tb / g)). { split; [apply Nat.le_0_l | simpl; rewrite Nat.add_1_r in Hj; exact Hj]. } specialize (H Hin).
  pose proof (Nat.div_mod p g Hg0) as Hpd. pose proof (Nat.mod_upper_bound p g Hg0) as Hk.
  set (q := p / g * g) in H. set (k := p mod g) in *.
  rewrite orb_true_iff, Nat.leb_le, andb_true_iff, Nat.leb_le in H.
  destruct H as [H | [Hrow Hsrc]]; [unfold q in H; lia |].
  rewrite trace_indexed_trace in Hsrc.
  assert (Ep : p = q + k) by (unfold q; lia).
  destruct (trace_shift g sc (buf_place w q) k Hg Hk Hal) as [Et _].
  { unfold aligned_at, buf_place. simpl. exists (p / g). reflexivity. }
  change {| pl_rank := w; pl_area := Buf; pl_off := p |} with (buf_place w p).
  replace (buf_place w p) with (shift (buf_place w q) k) by (unfold shift, buf_place; simpl; rewrite Ep; reflexivity).
  rewrite Et.
  assert (El : l = bump_last (delin shape q) k).
  { rewrite <- (delin_lin shape l Hl). fold p. rewrite Ep. apply delin_bump. lia. }
  rewrite El, global_bump by (unfold shape; rewrite delin_length, box_shape_length; reflexivity).
  apply (source_run_has_shift S _ g); [exact Hk | exact Hsrc].
Qed.

Theorem validate_blocks_validate : forall S T B g sc, validate_blocks S T B g sc = true -> validate S T B sc = true.
Proof.
  intros S T B g sc H. unfold validate_blocks in H. rewrite !andb_true_iff, Nat.ltb_lt in H.
  destruct H as [[[[Hg Hm] Ha] Ht] Hr]. rewrite forallb_forall in Hm, Ht.
  assert (Hal : forall rd mv, In rd sc -> In mv rd -> aligned g mv = true).
  { intros rd mv Hrd Hmv. specialize (Hm rd Hrd). rewrite forallb_forall in Hm.
    specialize (Hm mv Hmv). rewrite andb_true_iff in Hm. tauto. }
  unfold validate. rewrite !andb_true_iff. split; [split; [split |] |]; [| exact Ha | | exact Hr].
  - rewrite forallb_forall. intros rd Hrd. specialize (Hm rd Hrd). rewrite forallb_forall in Hm |- *.
    intros mv Hmv. specialize (Hm mv Hmv). rewrite andb_true_iff in Hm. tauto.
  - rewrite forallb_forall. intros w Hw. apply (target_blocks_target_ok S T g sc w Hg Hal). exact (Ht w Hw).
Qed.



(** ** Runs: [validate_runs] implies [validate] *)

Lemma map_tr_map : forall A B (f : A -> B) l, map_tr f l = map f l.
Proof.
  intros A B f l. unfold map_tr, rev'. rewrite <- rev_alt.
  assert (H : forall acc, fold_left (fun acc x => f x :: acc) l acc = rev (map f l) ++ acc).
  { induction l as [|x l IH]; intros acc; simpl; [reflexivity |]. rewrite IH, <- app_assoc. reflexivity. }
  rewrite H, app_nil_r, rev_involutive. reflexivity.
Qed.

Section SortKey.
Context {A : Type} (key : A -> nat).

Lemma merge_acc_In : forall l1 l2 acc x, In x (merge_acc key l1 l2 acc) <-> In x l1 \/ In x l2 \/ In x acc.
Proof.
  induction l1 as [|a l1 IH]; intros l2.
  - intros acc x. destruct l2; simpl; rewrite rev_append_rev, in_app_iff, <- in_rev; simpl; tauto.
  - induction l2 as [|b l2 IH2]; intros acc x; simpl.
    + rewrite rev_append_rev, in_app_iff, <- in_rev. simpl. tauto.
    + destruct (key a <=? key b).
      * rewrite IH. simpl. tauto.
      * specialize (IH2 (b :: acc) x). simpl in IH2. rewrite IH2. tauto.
Qed.

Lemma merge_pairs_In : forall n ls acc x, length ls <= n ->
  (In x (concat (merge_pairs key ls acc)) <-> In x (concat ls) \/ In x (concat acc)).
Proof.
  induction n as [|n IH]; intros ls acc x Hn.
  - destruct ls; [simpl; tauto | simpl in Hn; lia].
  - destruct ls as [|a [|b rest]]; simpl.
    + tauto.
    + rewrite !in_app_iff. simpl. tauto.
    + simpl in Hn. rewrite IH by lia. simpl. rewrite !in_app_iff, merge_acc_In. simpl. tauto.
Qed.

Lemma sort_passes_In : forall fuel ls x, In x (sort_passes key fuel ls) <-> In x (concat ls).
Proof.
  induction fuel as [|f IH]; intros ls x.
  - destruct ls as [|a [|b rest]]; simpl; [tauto | rewrite app_nil_r; tauto |].
    assert (H : forall ms acc, In x (fold_left (fun acc a => rev_append a acc) ms acc) <-> In x (concat ms) \/ In x acc).
    { induction ms as [|c ms IHl]; intros acc; simpl; [tauto |].
      rewrite IHl, rev_append_rev, !in_app_iff, <- in_rev. tauto. }
    rewrite H. simpl. rewrite ?rev_append_rev, !in_app_iff, <- ?in_rev. simpl. tauto.
  - destruct ls as [|a [|b rest]]; [simpl; tauto | simpl; rewrite app_nil_r; tauto |].
    change (In x (sort_passes key f (merge_pairs key (a :: b :: rest) []))
            <-> In x (concat (a :: b :: rest))).
    rewrite IH, (merge_pairs_In (length (a :: b :: rest))) by lia. simpl. tauto.
Qed.

Lemma In_sort_key : forall l x, In x (sort_key key l) <-> In x l.
Proof.
  intros l x. unfold sort_key. rewrite sort_passes_In.
  assert (H : forall ms acc, In x (concat (fold_left (fun acc y => [y] :: acc) ms acc)) <-> In x ms \/ In x (concat acc)).
  { induction ms as [|y ms IH]; intros acc; simpl; [tauto |]. rewrite IH. simpl. tauto. }
  rewrite H. simpl. tauto.
Qed.
End SortKey.

Lemma In_rev' : forall A (l : list A) x, In x (rev' l) <-> In x l.
Proof. intros A l x. unfold rev'. rewrite rev_append_rev, app_nil_r, <- in_rev. tauto. Qed.

(** *** A round apart, from its sorted spans *)

Lemma spans_apart_bounds : forall l hw ha, spans_apart hw ha l = true ->
  forall s, In s l -> (sp_write s = true -> ha <= sp_key s) /\ (sp_write s = false -> hw <= sp_key s).
Proof.
  induction l as [|s0 l IH]; intros hw ha H s Hs; [destruct Hs |].
  simpl in H. rewrite andb_true_iff in H. destruct H as [H0 H1].
  destruct Hs as [<- | Hs].
  - destruct (sp_write s0); rewrite Nat.leb_le in H0; split; intros E; try discriminate; lia.
  - destruct (sp_write s0); destruct (IH _ _ H1 s Hs) as [I1 I2]; split; intros E;
      [specialize (I1 E) | specialize (I2 E) | specialize (I1 E) | specialize (I2 E)]; lia.
Qed.

Lemma spans_apart_pairs : forall l1 a l2 b l3 hw ha, spans_apart hw ha (l1 ++ a :: l2 ++ b :: l3) = true ->
  sp_write a = true \/ sp_write b = true -> sp_key a + sp_len a <= sp_key b.
Proof.
  induction l1 as [|c l1 IH]; intros a l2 b l3 hw ha H Hw.
  - simpl in H. rewrite andb_true_iff in H. destruct H as [_ H].
    assert (Hb : In b (l2 ++ b :: l3)) by (apply in_or_app; right; left; reflexivity).
    destruct (spans_apart_bounds _ _ _ H b Hb) as [B1 B2].
    destruct (sp_write b) eqn:Eb; [specialize (B1 eq_refl); lia |].
    destruct Hw as [Ea | Ea]; [| discriminate]. rewrite Ea in B2. specialize (B2 eq_refl). lia.
  - simpl in H. rewrite andb_true_iff in H. destruct H as [_ H]. exact (IH _ _ _ _ _ _ H Hw).
Qed.

Lemma In_two : forall A (l : list A) a b, In a l -> In b l -> a <> b ->
  (exists l1 l2 l3, l = l1 ++ a :: l2 ++ b :: l3) \/ (exists l1 l2 l3, l = l1 ++ b :: l2 ++ a :: l3).
Proof.
  induction l as [|c l IH]; intros a b Ha Hb Hne; [destruct Ha |].
  destruct Ha as [<- | Ha].
  - destruct Hb as [<- | Hb]; [congruence |].
    destruct (in_split _ _ Hb) as [l2 [l3 E]]. left. exists [], l2, l3. rewrite E. reflexivity.
  - destruct Hb as [<- | Hb].
    + destruct (in_split _ _ Ha) as [l2 [l3 E]]. right. exists [], l2, l3. rewrite E. reflexivity.
    + destruct (IH a b Ha Hb Hne) as [[l1 [l2 [l3 E]]] | [l1 [l2 [l3 E]]]]; [left | right];
        exists (c :: l1), l2, l3; rewrite E; reflexivity.
Qed.

Lemma runs_meet_keys : forall K x n y k, runs_meet x n y k = true ->
  place_key K x < place_key K y + k /\ place_key K y < place_key K x + n.
Proof.
  intros K x n y k H. unfold runs_meet in H. rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, !Nat.ltb_lt in H.
  destruct H as [[[Er Ea] H1] H2]. unfold place_key. rewrite Er, Ea. lia.
Qed.

Lemma keys_apart : forall K x n y k, place_key K x + n <= place_key K y ->
  runs_meet x n y k = false /\ runs_meet y k x n = false.
Proof.
  intros K x n y k H. split; destruct (runs_meet _ _ _ _) eqn:E; try reflexivity;
    apply (runs_meet_keys K) in E; lia.
Qed.

Lemma In_combine_seq : forall A (l : list A) k x, In x l -> exists i, k <= i /\ In (i, x) (combine (seq k (length l)) l).
Proof.
  induction l as [|y l IH]; intros k x Hx; [destruct Hx |]. simpl.
  destruct Hx as [<- | Hx]; [exists k; split; [lia | left; reflexivity] |].
  destruct (IH (S k) x Hx) as [i [Hi Hin]]. exists i. split; [lia | right; exact Hin].
Qed.

Lemma spans_of_move : forall K rd i mv, In (i, mv) (combine (seq 0 (length rd)) rd) ->
  In {| sp_key := place_key K (mv_to mv); sp_len := mv_len mv; sp_write := true; sp_id := i |} (round_spans K rd)
  /\ In {| sp_key := place_key K (mv_from mv); sp_len := mv_len mv; sp_write := false; sp_id := i |} (round_spans K rd).
Proof.
  intros K rd i mv H. unfold round_spans. split; apply in_flat_map; exists (i, mv); split; try exact H; simpl; auto.
Qed.

Lemma writes_apart_numbered : forall ms k,
  (forall i j m1 m2, In (i, m1) (combine (seq k (length ms)) ms) -> In (j, m2) (combine (seq k (length ms)) ms) -> i <> j ->
     runs_meet (mv_to m1) (mv_len m1) (mv_to m2) (mv_len m2) = false) -> writes_apart ms = true.
Proof.
  induction ms as [|m ms IH]; intros k Hp; [reflexivity |].
  simpl. rewrite andb_true_iff, forallb_forall. split.
  - intros m2 Hm2. apply negb_true_iff. destruct (In_combine_seq _ ms (S k) m2 Hm2) as [j [Hj Hin]].
    apply (Hp k j); [left; reflexivity | right; exact Hin | lia].
  - apply (IH (S k)). intros i j m1 m2 H1 H2 Hij. apply (Hp i j); [right | right |]; assumption.
Qed.

Lemma round_apart_sorted_apart : forall K rd, round_apart_sorted K rd = true -> round_apart rd = true.
Proof.
  intros K rd H. unfold round_apart_sorted in H.
  assert (Hd : forall s1 s2, In s1 (round_spans K rd) -> In s2 (round_spans K rd) -> s1 <> s2 ->
            sp_write s1 = true \/ sp_write s2 = true ->
            sp_key s1 + sp_len s1 <= sp_key s2 \/ sp_key s2 + sp_len s2 <= sp_key s1).
  { intros s1 s2 H1 H2 Hne Hw. rewrite <- (In_sort_key sp_key) in H1, H2.
    destruct (In_two _ _ s1 s2 H1 H2 Hne) as [[l1 [l2 [l3 E]]] | [l1 [l2 [l3 E]]]]; rewrite E in H.
    - left. exact (spans_apart_pairs _ _ _ _ _ _ _ H Hw).
    - right. apply (spans_apart_pairs _ _ _ _ _ _ _ H). tauto. }
  unfold round_apart. rewrite andb_true_iff. split.
  - apply (writes_apart_numbered rd 0). intros i j m1 m2 H1 H2 Hij.
    destruct (spans_of_move K rd i m1 H1) as [W1 _]. destruct (spans_of_move K rd j m2 H2) as [W2 _].
    destruct (Hd _ _ W1 W2 ltac:(congruence) (or_introl eq_refl)) as [E | E]; simpl in E.
    + exact (proj1 (keys_apart K _ _ _ (mv_len m2) E)).
    + exact (proj2 (keys_apart K _ _ _ (mv_len m1) E)).
  - rewrite forallb_forall. intros m1 Hm1. rewrite forallb_forall. intros m2 Hm2. apply negb_true_iff.
    destruct (In_combine_seq _ rd 0 m1 Hm1) as [i [_ H1]]. destruct (In_combine_seq _ rd 0 m2 Hm2) as [j [_ H2]].
    destruct (spans_of_move K rd i m1 H1) as [_ R1]. destruct (spans_of_move K rd j m2 H2) as [W2 _].
    destruct (Hd _ _ R1 W2 ltac:(congruence) (or_intror eq_refl)) as [E | E]; simpl in E.
    + exact (proj1 (keys_apart K _ _ _ (mv_len m2) E)).
    + exact (proj2 (keys_apart K _ _ _ (mv_len m1) E)).
Qed.

(** *** Tracing runs *)

Lemma in_run_keys : forall K x n z, in_run x n z = true -> place_key K x <= place_key K z < place_key K x + n.
Proof.
  intros K x n z H. unfold in_run in H. rewrite !andb_true_iff, Nat.eqb_eq, area_eqb_eq, Nat.leb_le, Nat.ltb_lt in H.
  destruct H as [[[Er Ea] H1] H2]. unfold place_key. rewrite Er, Ea. lia.
Qed.

Lemma place_key_shift : forall K y k, place_key K (shift y k) = place_key K y + k.
Proof. intros K y k. unfold place_key, shift. simpl. lia. Qed.

Lemma run_gap_in_run : forall x len y n k, k < run_gap x len y n -> in_run x len (shift y k) = in_run x len y.
Proof.
  intros x len y n k Hk. unfold run_gap in Hk. unfold in_run in *. unfold shift. simpl.
  destruct (pl_rank x =? pl_rank y), (area_eqb (pl_area x) (pl_area y)); simpl in *; try reflexivity.
  destruct (Nat.leb_spec (pl_off x) (pl_off y)), (Nat.ltb_spec (pl_off y) (pl_off x + len)),
           (Nat.leb_spec (pl_off x) (pl_off y + k)), (Nat.ltb_spec (pl_off y + k) (pl_off x + len)),
           (Nat.ltb_spec (pl_off y) (pl_off x)); simpl in *; try reflexivity; lia.
Qed.

Lemma uniform_len_le : forall ms y n, uniform_len ms y n <= n.
Proof. induction ms as [|mv ms IH]; intros y n; simpl; [lia | specialize (IH y n); lia]. Qed.

Lemma uniform_shift : forall ms y n k, k < uniform_len ms y n ->
  round_source ms (shift y k) = shift (round_source ms y) k.
Proof.
  induction ms as [|mv ms IH]; intros y n k Hk; simpl in *; [reflexivity |].
  rewrite (run_gap_in_run (mv_to mv) (mv_len mv) y n k) by lia.
  destruct (in_run (mv_to mv) (mv_len mv) y) eqn:E.
  - unfold in_run in E. rewrite !andb_true_iff, Nat.leb_le in E. destruct E as [[_ Hle] _].
    unfold shift. simpl. f_equal. lia.
  - apply (IH y n). lia.
Qed.

Lemma writes_apart_unique : forall rd m1 m2 z, writes_apart rd = true -> In m1 rd -> In m2 rd ->
  in_run (mv_to m1) (mv_len m1) z = true -> in_run (mv_to m2) (mv_len m2) z = true -> m1 = m2.
Proof.
  induction rd as [|mv rd IH]; intros m1 m2 z Hw H1 H2 Z1 Z2; [destruct H1 |].
  simpl in Hw. rewrite andb_true_iff, forallb_forall in Hw. destruct Hw as [Hf Hw].
  destruct H1 as [E1 | H1], H2 as [E2 | H2]; [congruence | | | exact (IH m1 m2 z Hw H1 H2 Z1 Z2)].
  - subst m1. specialize (Hf m2 H2). rewrite (in_runs_meet _ _ _ _ _ Z1 Z2) in Hf. discriminate.
  - subst m2. specialize (Hf m1 H1). rewrite (in_runs_meet _ _ _ _ _ Z2 Z1) in Hf. discriminate.
Qed.

Lemma round_source_cover : forall l m z, (forall mv, In mv l -> in_run (mv_to mv) (mv_len mv) z = true -> mv = m) ->
  In m l -> in_run (mv_to m) (mv_len m) z = true ->
  round_source l z = shift (mv_from m) (pl_off z - pl_off (mv_to m)).
Proof.
  induction l as [|mv l IH]; intros m z Hu Hm Hz; [destruct Hm |]. simpl.
  destruct (in_run (mv_to mv) (mv_len mv) z) eqn:E.
  - rewrite (Hu mv (or_introl eq_refl) E). reflexivity.
  - destruct Hm as [Em | Hm]; [subst m; congruence |].
    apply IH; [intros mv' H1 H2; apply Hu; [right |]; assumption | exact Hm | exact Hz].
Qed.

(** A round's moves [ms] among which are all those writing [z]: [z] gets what it would from the round. *)
Lemma round_source_sub : forall rd ms z, writes_apart rd = true -> (forall mv, In mv ms -> In mv rd) ->
  (forall mv, In mv rd -> in_run (mv_to mv) (mv_len mv) z = true -> In mv ms) ->
  round_source rd z = round_source ms z.
Proof.
  intros rd ms z Hw Hsub Hcov.
  destruct (existsb (fun mv => in_run (mv_to mv) (mv_len mv) z) rd) eqn:E.
  - apply existsb_exists in E. destruct E as [m [Hm Hz]].
    rewrite (round_source_cover rd m z), (round_source_cover ms m z); try assumption; [reflexivity | | | ].
    + intros mv H1 H2. exact (writes_apart_unique rd mv m z Hw (Hsub mv H1) Hm H2 Hz).
    + apply Hcov; assumption.
    + intros mv H1 H2. exact (writes_apart_unique rd mv m z Hw H1 Hm H2 Hz).
  - assert (Hn : forall mv, In mv rd -> in_run (mv_to mv) (mv_len mv) z = false).
    { intros mv Hmv. destruct (in_run _ _ z) eqn:E'; [| reflexivity].
      assert (Hx : existsb (fun mv => in_run (mv_to mv) (mv_len mv) z) rd = true)
        by (apply existsb_exists; exists mv; auto).
      congruence. }
    rewrite (round_source_unwritten rd z), (round_source_unwritten ms z); [reflexivity | |];
      intros mv Hmv; apply Hn; auto.
Qed.

(** *** The trees of a round's writes *)

Fixpoint mt_sound (K : nat) (t : mtree) : Prop :=
  match t with
  | MLeaf _ => True
  | MNode lo hi l r =>
      (forall mv, In mv (mt_moves l ++ mt_moves r) -> lo <= place_key K (mv_to mv) /\ place_key K (mv_to mv) + mv_len mv <= hi)
      /\ mt_sound K l /\ mt_sound K r
  end.

Lemma mt_bounds : forall K t mv, mt_sound K t -> In mv (mt_moves t) ->
  mt_lo K t <= place_key K (mv_to mv) /\ place_key K (mv_to mv) + mv_len mv <= mt_hi K t.
Proof.
  intros K [m | lo hi l r] mv Hs Hin; simpl in *.
  - destruct Hin as [<- | []]. lia.
  - exact (proj1 Hs mv Hin).
Qed.

Lemma mt_node_sound : forall K l r, mt_sound K l -> mt_sound K r -> mt_sound K (mt_node K l r).
Proof.
  intros K l r Hl Hr. unfold mt_node. simpl. split; [| split; assumption].
  intros mv Hin. apply in_app_iff in Hin. destruct Hin as [H | H];
    [destruct (mt_bounds K l mv Hl H) | destruct (mt_bounds K r mv Hr H)]; lia.
Qed.

Lemma mt_meeting_sub : forall K s e t acc mv, In mv (mt_meeting K s e t acc) -> In mv (mt_moves t) \/ In mv acc.
Proof.
  induction t as [m | lo hi l IHl r IHr]; intros acc mv H; simpl in *.
  - destruct (_ && _); [destruct H as [<- | H]; [left; left; reflexivity | right; exact H] | right; exact H].
  - destruct (_ && _); [| right; exact H].
    destruct (IHl _ _ H) as [H1 | H1]; [left; apply in_or_app; left; exact H1 |].
    destruct (IHr _ _ H1) as [H2 | H2]; [left; apply in_or_app; right; exact H2 | right; exact H2].
Qed.

Lemma mt_meeting_keep : forall K s e t acc mv, In mv acc -> In mv (mt_meeting K s e t acc).
Proof.
  induction t as [m | lo hi l IHl r IHr]; intros acc mv H; simpl.
  - destruct (_ && _); [right |]; exact H.
  - destruct (_ && _); [apply IHl, IHr |]; exact H.
Qed.

Lemma mt_meeting_finds : forall K s e t acc mv, mt_sound K t -> In mv (mt_moves t) ->
  place_key K (mv_to mv) < e -> s < place_key K (mv_to mv) + mv_len mv -> In mv (mt_meeting K s e t acc).
Proof.
  induction t as [m | lo hi l IHl r IHr]; intros acc mv Hs Hin He Hs'; simpl in *.
  - destruct Hin as [E | []]. subst m.
    replace ((place_key K (mv_to mv) <? e) && (s <? place_key K (mv_to mv) + mv_len mv)) with true
      by (symmetry; rewrite andb_true_iff, !Nat.ltb_lt; lia).
    left. reflexivity.
  - destruct Hs as [Hb [Hl Hr]]. destruct (Hb mv Hin) as [B1 B2].
    replace ((lo <? e) && (s <? hi)) with true by (symmetry; rewrite andb_true_iff, !Nat.ltb_lt; lia).
    apply in_app_iff in Hin. destruct Hin as [H | H].
    + apply IHl; assumption.
    + apply mt_meeting_keep. apply IHr; assumption.
Qed.

Lemma fold_meeting_sub : forall K s e f acc mv, In mv (fold_left (fun acc t => mt_meeting K s e t acc) f acc) ->
  In mv acc \/ exists t, In t f /\ In mv (mt_moves t).
Proof.
  induction f as [|t f IH]; intros acc mv H; simpl in H; [left; exact H |].
  destruct (IH _ _ H) as [H1 | [t' [Ht' H1]]]; [| right; exists t'; split; [right |]; assumption].
  destruct (mt_meeting_sub K s e t acc mv H1) as [H2 | H2];
    [right; exists t; split; [left; reflexivity | exact H2] | left; exact H2].
Qed.

Lemma fold_meeting_keep : forall K s e f acc mv, In mv acc -> In mv (fold_left (fun acc t => mt_meeting K s e t acc) f acc).
Proof. induction f as [|t f IH]; intros acc mv H; simpl; [exact H | apply IH, mt_meeting_keep, H]. Qed.

Lemma fold_meeting_finds : forall K s e f acc mv t, In t f -> mt_sound K t -> In mv (mt_moves t) ->
  place_key K (mv_to mv) < e -> s < place_key K (mv_to mv) + mv_len mv ->
  In mv (fold_left (fun acc t => mt_meeting K s e t acc) f acc).
Proof.
  induction f as [|t' f IH]; intros acc mv t Ht Hs Hin He Hs'; [destruct Ht |]. simpl.
  destruct Ht as [Et | Ht]; [subst t'; apply fold_meeting_keep, mt_meeting_finds; assumption | apply (IH _ _ t); assumption].
Qed.

Lemma mt_pairs_moves : forall K n ts acc mv, length ts <= n ->
  (In mv (flat_map mt_moves (mt_pairs K ts acc)) <-> In mv (flat_map mt_moves ts) \/ In mv (flat_map mt_moves acc)).
Proof.
  induction n as [|n IH]; intros ts acc mv Hn.
  - destruct ts; [| simpl in Hn; lia]. cbn [mt_pairs]. rewrite !in_flat_map.
    split; [intros [t [Ht H]]; rewrite In_rev' in Ht; right; exists t; auto
           | intros [[t [[] _]] | [t [Ht H]]]; exists t; rewrite In_rev'; auto].
  - destruct ts as [|a [|b rest]]; cbn [mt_pairs].
    + rewrite !in_flat_map. split; [intros [t [Ht H]]; rewrite In_rev' in Ht; right; exists t; auto
                                   | intros [[t [[] _]] | [t [Ht H]]]; exists t; rewrite In_rev'; auto].
    + rewrite !in_flat_map. setoid_rewrite In_rev'. simpl. split.
      * intros [t [[Et | Ht] H]]; [left; exists t; split; [left; exact Et | exact H] | right; exists t; auto].
      * intros [[t [[Et | []] H]] | [t [Ht H]]]; exists t; split; auto.
    + simpl in Hn. rewrite IH by lia. cbn [flat_map]. unfold mt_node. cbn [mt_moves]. rewrite !in_app_iff. tauto.
Qed.

Lemma mt_pairs_sound : forall K n ts acc, length ts <= n -> (forall t, In t ts -> mt_sound K t) ->
  (forall t, In t acc -> mt_sound K t) -> forall t, In t (mt_pairs K ts acc) -> mt_sound K t.
Proof.
  induction n as [|n IH]; intros ts acc Hn Hts Hacc t Ht.
  - destruct ts; [| simpl in Hn; lia]. cbn [mt_pairs] in Ht. rewrite In_rev' in Ht. exact (Hacc t Ht).
  - destruct ts as [|a [|b rest]]; cbn [mt_pairs] in Ht.
    + rewrite In_rev' in Ht. exact (Hacc t Ht).
    + rewrite In_rev' in Ht. destruct Ht as [<- | Ht]; [apply Hts; left; reflexivity | exact (Hacc t Ht)].
    + simpl in Hn. apply (IH rest (mt_node K a b :: acc)); [lia | intros; apply Hts; simpl; auto | | exact Ht].
      intros t' [<- | Ht']; [apply mt_node_sound; apply Hts; simpl; auto | exact (Hacc t' Ht')].
Qed.

Lemma mt_forest_props : forall K fuel ts, (forall t, In t ts -> mt_sound K t) ->
  (forall t, In t (mt_forest fuel K ts) -> mt_sound K t)
  /\ (forall mv, In mv (flat_map mt_moves (mt_forest fuel K ts)) <-> In mv (flat_map mt_moves ts)).
Proof.
  induction fuel as [|f IH]; intros ts Hs; [split; [exact Hs | tauto] |].
  destruct ts as [|a [|b rest]]; [split; [exact Hs | tauto] | split; [exact Hs | tauto] |].
  cbn [mt_forest].
  destruct (IH (mt_pairs K (a :: b :: rest) [])) as [H1 H2].
  { apply (mt_pairs_sound K (length (a :: b :: rest))); [lia | exact Hs | intros t []]. }
  split; [exact H1 |]. intros mv. rewrite H2, (mt_pairs_moves K (length (a :: b :: rest))) by lia. simpl. tauto.
Qed.

Lemma round_forest_props : forall K rd,
  (forall t, In t (round_forest K rd) -> mt_sound K t) /\ (forall mv, In mv (flat_map mt_moves (round_forest K rd)) <-> In mv rd).
Proof.
  intros K rd. unfold round_forest. rewrite map_tr_map.
  destruct (mt_forest_props K 64 (map MLeaf (sort_key (fun mv => place_key K (mv_to mv)) rd))) as [H1 H2].
  { intros t Ht. apply in_map_iff in Ht. destruct Ht as [mv [<- _]]. exact I. }
  split; [exact H1 |]. intros mv. rewrite H2, in_flat_map. split.
  - intros [t [Ht Hmv]]. apply in_map_iff in Ht. destruct Ht as [m [<- Hm]]. destruct Hmv as [<- | []].
    rewrite In_sort_key in Hm. exact Hm.
  - intros Hmv. exists (MLeaf mv). split; [apply in_map; rewrite In_sort_key; exact Hmv | left; reflexivity].
Qed.

Lemma forest_meeting_round : forall K s e rd,
  (forall mv, In mv (forest_meeting K s e (round_forest K rd)) -> In mv rd)
  /\ (forall mv, In mv rd -> place_key K (mv_to mv) < e -> s < place_key K (mv_to mv) + mv_len mv ->
        In mv (forest_meeting K s e (round_forest K rd))).
Proof.
  intros K s e rd. destruct (round_forest_props K rd) as [Hs Hm]. unfold forest_meeting. split.
  - intros mv H. apply fold_meeting_sub in H. destruct H as [[] | [t [Ht Hmv]]].
    apply Hm, in_flat_map. exists t. split; assumption.
  - intros mv Hmv He Hs'. apply Hm, in_flat_map in Hmv. destruct Hmv as [t [Ht Hin]].
    exact (fold_meeting_finds K s e _ [] mv t Ht (Hs t Ht) Hin He Hs').
Qed.

Lemma trace_run_shift : forall K sc y n x n', (forall rd, In rd sc -> writes_apart rd = true) ->
  trace_run K (map (round_forest K) sc) y n = (x, n') ->
  n' <= n /\ forall k, k < n' -> trace sc (shift y k) = shift x k.
Proof.
  intros K. induction sc as [|rd sc IH]; intros y n x n' Hw Ht; simpl in Ht.
  - injection Ht as <- <-. split; [lia | intros k _; reflexivity].
  - destruct (trace_run K (map (round_forest K) sc) y n) as [y' n1] eqn:E.
    injection Ht as <- <-.
    destruct (IH y n y' n1 (fun rd' H => Hw rd' (or_intror H)) E) as [Hle Hsh].
    destruct (forest_meeting_round K (place_key K y') (place_key K y' + n1) rd) as [Hsub Hfind].
    set (ms := forest_meeting K (place_key K y') (place_key K y' + n1) (round_forest K rd)) in *.
    pose proof (uniform_len_le ms y' n1). split; [lia |].
    intros k Hk. simpl. rewrite (Hsh k) by lia.
    rewrite (round_source_sub rd ms (shift y' k) (Hw rd (or_introl eq_refl)) Hsub).
    + apply uniform_shift with (n := n1). exact Hk.
    + intros mv Hmv Hz. apply (in_run_keys K) in Hz. rewrite place_key_shift in Hz.
      apply Hfind; [exact Hmv | lia | lia].
Qed.

Lemma runs_cover_all : forall S K fs w tb fuel q, runs_cover S K fs w tb fuel q = true ->
  forall p, q <= p < box_size tb -> exists q' x n, q' <= p < q' + n
    /\ trace_run K fs (buf_place w q') (row_len (box_shape tb) - q' mod row_len (box_shape tb)) = (x, n)
    /\ q' mod row_len (box_shape tb) + n <= row_len (box_shape tb)
    /\ source_run_has S x n (box_global tb (delin (box_shape tb) q')) = true.
Proof.
  intros S K fs w tb. induction fuel as [|f IH]; intros q H p Hp; simpl in H; [discriminate |].
  rewrite orb_true_iff, Nat.leb_le in H. destruct H as [H | H]; [lia |].
  destruct (trace_run K fs (buf_place w q) _) as [x n] eqn:E.
  rewrite !andb_true_iff, Nat.ltb_lt, Nat.leb_le in H. destruct H as [[[Hn Hrow] Hsrc] Hrest].
  destruct (Nat.lt_ge_cases p (q + n)) as [Hlt | Hge].
  - exists q, x, n. repeat split; try lia; assumption.
  - exact (IH (q + n) Hrest p (conj Hge (proj2 Hp))).
Qed.

Lemma target_runs_target_ok : forall S T K sc w, (forall rd, In rd sc -> writes_apart rd = true) ->
  target_runs_ok S T K (map (round_forest K) sc) w = true -> target_ok S T sc w = true.
Proof.
  intros S T K sc w Hw H. unfold target_runs_ok in H. unfold target_ok.
  destruct (pl_box T w) as [tb|]; [| reflexivity].
  rewrite forallb_forall. intros l Hl. apply in_box_indices in Hl.
  set (shape := box_shape tb) in *. set (p := lin shape l).
  assert (Hp : p < box_size tb) by apply lin_lt, Hl.
  destruct (runs_cover_all S K _ w tb _ 0 H p (conj (Nat.le_0_l p) Hp)) as [q [x [n [Hq [Ht [Hrow Hsrc]]]]]].
  destruct (trace_run_shift K sc _ _ x n Hw Ht) as [_ Hsh].
  fold shape in Hrow, Hsrc.
  set (k := p - q).
  assert (Ep : p = q + k) by (unfold k; lia).
  change {| pl_rank := w; pl_area := Buf; pl_off := p |} with (buf_place w p).
  replace (buf_place w p) with (shift (buf_place w q) k) by (unfold shift, buf_place; simpl; rewrite Ep; reflexivity).
  rewrite (Hsh k) by lia.
  assert (El : l = bump_last (delin shape q) k).
  { rewrite <- (delin_lin shape l Hl). fold p. rewrite Ep. apply delin_bump. lia. }
  rewrite El, global_bump by (unfold shape; rewrite delin_length, box_shape_length; reflexivity).
  apply (source_run_has_shift S _ n); [lia | exact Hsrc].
Qed.

Theorem validate_runs_validate : forall S T B sc, validate_runs S T B sc = true -> validate S T B sc = true.
Proof.
  intros S T B sc H. unfold validate_runs in H. rewrite !andb_true_iff in H.
  destruct H as [[[Hm Ha] Ht] Hr].
  set (K := Datatypes.S _) in Ha, Ht.
  assert (Hap : forall rd, In rd sc -> round_apart rd = true).
  { intros rd Hrd. rewrite forallb_forall in Ha. apply (round_apart_sorted_apart K), Ha, Hrd. }
  assert (Hw : forall rd, In rd sc -> writes_apart rd = true).
  { intros rd Hrd. specialize (Hap rd Hrd). unfold round_apart in Hap. rewrite andb_true_iff in Hap. tauto. }
  unfold validate. rewrite !andb_true_iff. split; [split; [split |] |]; [exact Hm | | | exact Hr].
  - rewrite forallb_forall. exact Hap.
  - rewrite forallb_forall in Ht |- *. intros w Hw'. apply (target_runs_target_ok S T K sc w Hw), Ht, Hw'.
Qed.

(** The plan the command runs is one [validate] accepted, so every theorem above holds of it. *)
Theorem inplace_plan_validated : forall S T B sc, inplace_plan S T B = Some sc -> validate S T B sc = true.
Proof.
  intros S T B sc H. unfold inplace_plan in H. destruct (inplace_schedule S T B) as [sc'|]; [| discriminate].
  destruct (validate_runs S T B sc') eqn:E; [| discriminate]. injection H as <-.
  exact (validate_runs_validate S T B sc' E).
Qed.
