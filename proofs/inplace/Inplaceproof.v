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

(** The plan the command runs is one [validate] accepted, so every theorem above holds of it. *)
Theorem inplace_plan_validated : forall S T B sc, inplace_plan S T B = Some sc -> validate S T B sc = true.
Proof.
  intros S T B sc H. unfold inplace_plan in H. destruct (inplace_schedule S T B) as [[sc'|] g]; [| discriminate].
  destruct (validate_blocks S T B g sc') eqn:E; [| discriminate]. inversion H. subst.
  exact (validate_blocks_validate S T B g sc E).
Qed.
