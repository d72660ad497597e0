(** * What the pending-sum checker and planner guarantee.

    - [scheck_correct]: a plan [scheck] accepts, of either kind, takes every
      state whose source ranks hold pending sums of [g] over [ps] to one
      whose target ranks hold pending sums of [g] over [pt], for every
      commutative monoid.
    - [scheck_traffic]: what [scheck] reports a rank receives is what it
      receives in the execution, counted from the data movement.
    - [plan_sums_checked], [plan_sums_correct], [plan_sums_peak]: the
      planner's plans are accepted, correct, and never hold a local array
      larger than the largest source or target box.
    - [sum_recv_bound_spec], [scheck_recv_ge_bound]: the printed bound is the
      number of elements [Sumlowerbound.sum_needy] counts, and no accepted
      plan to a target without pending axes receives less.
    - [plan_sums_collectives_total]: on every well-formed even problem the
      collective strategy finds a plan; [plan_sums_exchange_total]: the
      other strategies plan every problem with well-formed layouts. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Checker Checkerproof Trafficproof Refineproof Planner
  Plannerproof Plannerfinal Layout Layoutproof Exchange Exchangeproof Lowerbound Strategy Strategyproof
  Sums Sumsproof Sumexchange Sumlowerbound Sumplanbound Sumplan Sumstrategy.

(** ** Checking pending-sum steps *)

Lemma sum_steps_check_type : forall m ks p reps p',
  sum_steps_check m p ks = OK (reps, p') -> sum_plan_type m p ks = OK p'.
Proof.
  intros m ks. induction ks as [|k ks IH]; intros p reps p' H; simpl in *.
  - inversion H. reflexivity.
  - destruct (sum_step_type m p k) as [p1|]; [| discriminate].
    destruct (sum_steps_check m p1 ks) as [[reps' fin]|] eqn:E; [| discriminate].
    inversion H. subst. eapply IH. exact E.
Qed.

Lemma same_axes_memb : forall xs ys y, same_axes xs ys = true -> memb y xs = memb y ys.
Proof.
  intros xs ys y H. unfold same_axes in H. apply andb_true_iff in H. destruct H as [H1 H2].
  rewrite forallb_forall in H1, H2.
  destruct (memb y xs) eqn:Ex; destruct (memb y ys) eqn:Ey; try reflexivity.
  - rewrite (H1 y (proj1 (memb_In _ _) Ex)) in Ey. discriminate.
  - rewrite (H2 y (proj1 (memb_In _ _) Ey)) in Ex. discriminate.
Qed.

Lemma sholds_same_axes : forall M m t ps ps' g (st : state (carrier M)),
  same_axes ps ps' = true -> sholds M m (t, ps) g st -> sholds M m (t, ps') g st.
Proof.
  intros M m t ps ps' g st Hs H. unfold sholds in *. simpl in *.
  eapply holds_ext_state; [| exact H]. intros r l _ _. unfold pending_value, group_sum.
  apply group_sum_pending_ext. intros y _. symmetry. apply same_axes_memb. exact Hs.
Qed.

Lemma is_empty_nil : forall A (xs : list A), is_empty xs = true -> xs = [].
Proof. intros A [|x xs] H; [reflexivity | discriminate]. Qed.

(** The parts of an accepted collective plan. *)
Lemma scheck_collectives_parts : forall S ps T pt pre rf p post rep,
  scheck S ps T pt (SumByCollectives pre rf p post) = OK rep ->
  exists pre_reps t1 kept crep post_reps,
    even_problem S T = true /\ pty_wf (ly_m S) (ly_ty S, ps) = true /\ pty_wf (ly_m S) (ly_ty T, pt) = true
    /\ sum_steps_check (ly_m S) (ly_ty S, ps) pre = OK (pre_reps, (t1, kept))
    /\ refine_ok (ly_m S) rf = true
    /\ check (refine_mesh rf (ly_m S)) (refine_ty rf t1) (refine_ty rf (ly_ty T)) p = OK crep
    /\ (kept = [] \/ (p = [] /\ t1 = ly_ty T))
    /\ sum_steps_check (ly_m S) (ly_ty T, kept) post = OK (post_reps, (ly_ty T, snd (reduced (ly_m S) (ly_ty T, kept) post)))
    /\ same_axes (snd (reduced (ly_m S) (ly_ty T, kept) post)) pt = true
    /\ reduced (ly_m S) (ly_ty S, ps) pre = (t1, kept)
    /\ rep = {| sm_pre := pre_reps; sm_collectives := Some crep; sm_post := post_reps;
                sm_peak := fold_left Nat.max
                             (map ss_local_size pre_reps ++ rp_peak crep :: map ss_local_size post_reps)
                             (local_size (ly_m S) (ly_ty S));
                sm_recv := fun r =>
                  (if r <? mesh_size (ly_m S) then steps_recv pre_reps + steps_recv post_reps else 0)
                  + list_sum (map (fun s => sr_recv s r) (rp_steps crep)) |}.
Proof.
  intros S ps T pt pre rf p post rep H. simpl in H.
  destruct (even_problem S T) eqn:He; [| discriminate]. simpl in H.
  destruct (pty_wf (ly_m S) (ly_ty S, ps) && pty_wf (ly_m S) (ly_ty T, pt)) eqn:Hw; [| discriminate].
  apply andb_true_iff in Hw. destruct Hw as [Hws Hwt]. simpl in H.
  destruct (sum_steps_check (ly_m S) (ly_ty S, ps) pre) as [[pre_reps [t1 kept]]|] eqn:Hpre;
    [| discriminate].
  destruct (refine_ok (ly_m S) rf) eqn:Hrf; [| discriminate]. simpl in H.
  destruct (check _ _ _ p) as [crep|] eqn:Hc; [| discriminate].
  destruct (is_empty kept || (is_empty p && ty_eqb t1 (ly_ty T))) eqn:Hk; [| discriminate].
  simpl in H.
  destruct (sum_steps_check (ly_m S) (ly_ty T, kept) post) as [[post_reps [t2 pt2]]|] eqn:Hpost;
    [| discriminate].
  destruct (ty_eqb t2 (ly_ty T) && same_axes pt2 pt) eqn:Hend; [| discriminate].
  simpl in H. inversion H. subst rep. clear H.
  apply andb_true_iff in Hend. destruct Hend as [Ht2 Hsame]. apply ty_eqb_eq in Ht2. subst t2.
  assert (Hred : reduced (ly_m S) (ly_ty T, kept) post = (ly_ty T, pt2))
    by (unfold reduced; rewrite (sum_steps_check_type _ _ _ _ _ Hpost); reflexivity).
  exists pre_reps, t1, kept, crep, post_reps. rewrite Hred. simpl.
  repeat split; auto.
  - apply orb_true_iff in Hk. destruct Hk as [Hk | Hk]; [left; apply is_empty_nil; exact Hk |].
    right. apply andb_true_iff in Hk. destruct Hk as [Hp Ht]. split; [apply is_empty_nil; exact Hp |].
    apply ty_eqb_eq. exact Ht.
  - unfold reduced. rewrite (sum_steps_check_type _ _ _ _ _ Hpre). reflexivity.
Qed.

(** ** Correctness *)

(** For any sound fill ([Sumsproof.fill_sound]). *)
Theorem scheck_fill_correct : forall S ps T pt sp rep, scheck S ps T pt sp = OK rep ->
  forall M fl (g : list nat -> carrier M) (st : state (carrier M)), fill_sound M fl ->
  pl_sholds M S ps g st -> pl_sholds M T pt g (sexec M fl S ps T pt sp st).
Proof.
  intros S ps T pt [pre rf p post|] rep H M fl g st Hfl Hst.
  - destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
      as [pre_reps [t1 [kept [crep [post_reps
          [He [Hws [Hwt [Hpre [Hrf [Hc [Hkept [Hpost [Hsame [Hred _]]]]]]]]]]]]]]].
    destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
    set (m := ly_m S) in *.
    apply sum_steps_check_type in Hpre. apply sum_steps_check_type in Hpost.
    assert (Hw1 : pty_wf m (t1, kept) = true) by exact (sum_plan_type_wf m Hm pre _ _ Hws Hpre).
    destruct (pty_wf_elim m t1 kept Hw1) as [Ht1 _].
    rewrite HS in Hst. apply pl_sholds_even in Hst; [| exact Hm | exact Hs].
    pose proof (Hfl m pre _ _ g st Hm Hws Hpre Hst) as H1.
    simpl. fold m. rewrite Hred. simpl.
    set (st1 := exec_sum_plan M fl m (ly_ty S, ps) pre st) in *.
    set (st2 := exec (refine_mesh rf m) (refine_ty rf t1) p st1).
    assert (H2 : sholds M m (ly_ty T, kept) g st2).
    { destruct Hkept as [-> | [-> ->]]; [| exact H1].
      apply (proj1 (holds_sholds_empty M m Hm (ly_ty T) g st2)).
      apply (proj2 (refine_holds _ rf m (ly_ty T) g st2 Hm Hrf Ht)).
      eapply check_correct; [exact Hc |].
      apply (proj1 (refine_holds _ rf m t1 g st1 Hm Hrf Ht1)).
      exact (proj2 (holds_sholds_empty M m Hm t1 g st1) H1). }
    assert (Hwk : pty_wf m (ly_ty T, kept) = true).
    { destruct Hkept as [-> | [_ <-]]; [| exact Hw1].
      unfold pty_wf. simpl. rewrite Ht. reflexivity. }
    pose proof (Hfl m post _ _ g st2 Hm Hwk Hpost H2) as H3.
    rewrite HT. apply pl_sholds_even; [exact Hm | exact Ht |].
    eapply sholds_same_axes; [exact Hsame | exact H3].
  - simpl in H. destruct (sum_exchange_ok S ps T pt) eqn:Hok; [| discriminate].
    unfold sum_exchange_ok in Hok. rewrite !andb_true_iff in Hok. destruct Hok as [[Hwf HwS] HwT].
    simpl. apply reducing_exchange_to_sound; try assumption.
    apply spread_holder_ok. exact Hwf.
Qed.

Theorem scheck_correct : forall S ps T pt sp rep, scheck S ps T pt sp = OK rep ->
  forall M (g : list nat -> carrier M) (st : state (carrier M)),
  pl_sholds M S ps g st -> pl_sholds M T pt g (sexec M KeepOne S ps T pt sp st).
Proof.
  intros S ps T pt sp rep H M g st. apply (scheck_fill_correct S ps T pt sp rep H M KeepOne g st (keep_one_sound M)).
Qed.

(** ** Traffic *)

Lemma steps_recv_received : forall m, mesh_wf m = true -> forall ks p reps p' r,
  pty_wf m p = true -> r < mesh_size m -> sum_steps_check m p ks = OK (reps, p') ->
  steps_recv reps = sum_plan_received m p ks r.
Proof.
  intros m Hm ks. induction ks as [|k ks IH]; intros p reps p' r Hw Hr H; simpl in *.
  - inversion H. reflexivity.
  - destruct (sum_step_type m p k) as [p1|] eqn:Hk; [| discriminate].
    destruct (sum_steps_check m p1 ks) as [[reps' fin]|] eqn:E; [| discriminate].
    inversion H. subst. unfold steps_recv. simpl. fold (steps_recv reps').
    rewrite (sum_received_exact m Hm p k p1 r Hw Hr Hk).
    f_equal. eapply (IH p1 reps' _ r); [eapply sum_step_type_wf; eassumption | exact Hr | exact E].
Qed.

Lemma target_box_size_spec : forall S T r, target_box_size S T r = box_size_at T r.
Proof.
  intros S T r. unfold target_box_size.
  destruct (even_problem S T) eqn:He; [| unfold box_size_at; rewrite box_in_spec; reflexivity].
  destruct (even_problem_spec S T He) as [_ [HT [Hm [_ [Ht _]]]]].
  unfold box_size_at. rewrite HT, pl_box_even.
  destruct (Nat.ltb_spec r (mesh_size (ly_m S))) as [Hr | Hr]; [| reflexivity].
  unfold box_size. rewrite dev_box_even_shape by (try apply device_of_rank_in; assumption). reflexivity.
Qed.

Lemma receives_sum_spec : forall S T pt r, receives_sum S T pt r = designated T pt r.
Proof.
  intros S T pt r. unfold receives_sum.
  destruct (even_problem S T) eqn:He; [| unfold designated; rewrite table_index_spec; reflexivity].
  destruct (even_problem_spec S T He) as [_ [HT _]].
  unfold designated. rewrite HT. simpl. rewrite index_of_seq0. unfold ly_m. simpl.
  destruct (r <? mesh_size (pm_mesh (ly_mesh S))); reflexivity.
Qed.

(** What the reducing exchange to [(T, pt)] makes rank [r] receive. *)
Lemma sum_exchange_recv_spec : forall S ps T pt r, sum_exchange_ok S ps T pt = true ->
  sum_exchange_recv S ps T pt r = reducing_received_to S ps T pt (spread_holder S T) r.
Proof.
  intros S ps T pt r Hok. unfold sum_exchange_ok in Hok. rewrite !andb_true_iff in Hok.
  destruct Hok as [[Hwf HwS] HwT]. destruct (spread_holder_ok S T Hwf) as [Hh Hself].
  rewrite reducing_exchange_to_recv. unfold sum_exchange_recv.
  rewrite receives_sum_spec, target_box_size_spec.
  destruct (designated T pt r); [| reflexivity].
  rewrite exchange_recv_spec, (recv_lower_bound_exact S T r Hwf). unfold box_size_at.
  destruct (pl_box T r) as [b|] eqn:Hb.
  - rewrite (reducing_exchange_recv_exact S ps T _ r b HwS Hh Hself Hb). reflexivity.
  - unfold missing, reducing_received, positions, pl_shapes. rewrite Hb. simpl. lia.
Qed.

Theorem scheck_traffic : forall S ps T pt sp rep, scheck S ps T pt sp = OK rep ->
  forall r, In r (pm_ranks (ly_mesh T)) -> sm_recv rep r = sreceived S ps T pt sp r.
Proof.
  intros S ps T pt [pre rf p post|] rep H r Hr.
  - destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
      as [pre_reps [t1 [kept [crep [post_reps
          [He [Hws [Hwt [Hpre [Hrf [Hc [Hkept [Hpost [Hsame [Hred ->]]]]]]]]]]]]]]].
    destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
    pose proof (even_problem_rank S T r He Hr) as Hrm.
    set (m := ly_m S) in *. simpl. fold m. rewrite Hred. simpl.
    destruct (Nat.ltb_spec r (mesh_size m)) as [_ | Hn]; [| lia].
    assert (Hw1 : pty_wf m (t1, kept) = true)
      by exact (sum_plan_type_wf m Hm pre _ _ Hws (sum_steps_check_type _ _ _ _ _ Hpre)).
    assert (Hwk : pty_wf m (ly_ty T, kept) = true).
    { destruct Hkept as [-> | [_ <-]]; [| exact Hw1].
      unfold pty_wf. simpl. rewrite Ht. reflexivity. }
    rewrite (steps_recv_received m Hm pre _ _ _ r Hws Hrm Hpre).
    rewrite (steps_recv_received m Hm post _ _ _ r Hwk Hrm Hpost).
    rewrite (check_traffic _ _ _ _ _ Hc r) by (rewrite refine_mesh_size by assumption; exact Hrm).
    lia.
  - simpl in H. destruct (sum_exchange_ok S ps T pt) eqn:Hok; [| discriminate].
    inversion H. subst rep. simpl. apply sum_exchange_recv_spec. exact Hok.
Qed.

(** ** The planner *)

Lemma cheapest_in : forall cs c, cheapest cs = Some c -> In c cs.
Proof.
  unfold cheapest. intros cs c.
  assert (G : forall acc, fold_left (fun best c => match best with
                           | Some b => if cost_lt (snd c) (snd b) then Some c else best
                           | None => Some c
                           end) cs acc = Some c -> acc = Some c \/ In c cs).
  { induction cs as [|c' cs IH]; intros acc H; simpl in H; [left; exact H |].
    destruct (IH _ H) as [E | E]; [| right; right; exact E].
    destruct acc as [b|]; [destruct (cost_lt (snd c') (snd b)) |]; inversion E; subst; first [left; reflexivity | right; left; reflexivity]. }
  intros H. destruct (G None H) as [E | E]; [discriminate | exact E].
Qed.

Lemma cheapest_nonempty : forall cs, cs <> [] -> cheapest cs <> None.
Proof.
  unfold cheapest. intros [|c cs] H; [contradiction |]. clear H. simpl.
  assert (G : forall acc, acc <> None -> fold_left (fun best c => match best with
                           | Some b => if cost_lt (snd c) (snd b) then Some c else best
                           | None => Some c
                           end) cs acc <> None).
  { induction cs as [|c' cs IH]; intros acc Ha; simpl; [exact Ha |]. apply IH.
    destruct acc as [b|]; [destruct (cost_lt (snd c') (snd b)) |]; congruence. }
  apply G. discriminate.
Qed.

Lemma sum_collectives_qualifies : forall S ps T pt sp cost,
  sum_collectives S ps T pt = Some (sp, cost) -> qualifies S ps T pt sp = true.
Proof.
  intros S ps T pt sp cost H. apply cheapest_in, filter_In in H. apply H.
Qed.

(** Every plan the planner returns is a qualifying collective plan or the
    reducing exchange on well-formed layouts. *)
Lemma plan_sums_cases : forall s S ps T pt sp, plan_sums s S ps T pt = Some sp ->
  qualifies S ps T pt sp = true \/ (sp = SumByExchange /\ sum_exchange_ok S ps T pt = true).
Proof.
  intros s S ps T pt sp H. unfold plan_sums in H.
  assert (Hx : (if sum_exchange_ok S ps T pt then Some SumByExchange else None) = Some sp ->
               sp = SumByExchange /\ sum_exchange_ok S ps T pt = true).
  { destruct (sum_exchange_ok S ps T pt); intros E; inversion E; auto. }
  destruct (even_problem S T); destruct s; try discriminate; try (right; apply Hx; exact H).
  - destruct (sum_collectives S ps T pt) as [[sp' c]|] eqn:E; inversion H; subst.
    left. eapply sum_collectives_qualifies; eassumption.
  - destruct (sum_collectives S ps T pt) as [[sp' c]|] eqn:E; [| right; apply Hx; exact H].
    destruct (cost_lt _ c); [right; apply Hx; exact H |].
    inversion H; subst. left. eapply sum_collectives_qualifies; eassumption.
Qed.

Theorem plan_sums_checked : forall s S ps T pt sp, plan_sums s S ps T pt = Some sp ->
  exists rep, scheck S ps T pt sp = OK rep.
Proof.
  intros s S ps T pt sp H. destruct (plan_sums_cases s S ps T pt sp H) as [Hq | [-> Hok]].
  - unfold qualifies in Hq. destruct (scheck S ps T pt sp) as [rep|]; [eauto | discriminate].
  - simpl. rewrite Hok. eauto.
Qed.

(** For every strategy and every commutative monoid: after the plan, every
    target rank's group sums to its box of [g]. *)
Theorem plan_sums_correct : forall s S ps T pt sp M (g : list nat -> carrier M) (st : state (carrier M)),
  plan_sums s S ps T pt = Some sp -> pl_sholds M S ps g st -> pl_sholds M T pt g (sexec M KeepOne S ps T pt sp st).
Proof.
  intros s S ps T pt sp M g st H Hst. destruct (plan_sums_checked s S ps T pt sp H) as [rep Hc].
  eapply scheck_correct; eassumption.
Qed.

Theorem plan_sums_peak : forall s S ps T pt sp rep, plan_sums s S ps T pt = Some sp ->
  scheck S ps T pt sp = OK rep -> sm_peak rep <= Nat.max (largest_box S) (largest_box T).
Proof.
  intros s S ps T pt sp rep H Hc.
  replace (largest_box S) with (fst (largest_boxes S T)) by (rewrite largest_boxes_spec; reflexivity).
  replace (largest_box T) with (snd (largest_boxes S T)) by (rewrite largest_boxes_spec; reflexivity).
  destruct (plan_sums_cases s S ps T pt sp H) as [Hq | [-> Hok]].
  - unfold qualifies in Hq. rewrite Hc in Hq. apply Nat.leb_le. exact Hq.
  - simpl in Hc. rewrite Hok in Hc. inversion Hc. simpl. lia.
Qed.

(** ** The lower bound *)

(** The printed bound is the number of target elements the rank cannot form
    from what it holds ([sum_needy], the bound of [Sumlowerbound.sum_lower_bound]). *)
Theorem sum_recv_bound_spec : forall S ps T r, layouts_wf S T = true ->
  sum_recv_bound S ps T r = length (sum_needy S ps T r).
Proof.
  intros S ps T r Hwf. unfold sum_recv_bound, sum_needy.
  destruct (group_size (ly_m S) ps =? 1).
  - rewrite exchange_recv_spec, (recv_lower_bound_exact S T r Hwf). unfold missing.
    destruct (pl_box T r); reflexivity.
  - rewrite target_box_size_spec. unfold box_size_at.
    destruct (pl_box T r) as [b|]; [| reflexivity].
    rewrite map_length, length_box_indices. reflexivity.
Qed.

(** *** Plans as adding steps

    A collective plan with pending sums is, on world ranks, a sequence of
    adding steps ([Sumlowerbound.sum_moves]): the reducing steps, Part 1's
    collectives (each new position reads one old position), the steps
    adding pending axes.  The refined collectives have the same ranks and
    the same local shapes as the unrefined types. *)

Definition lift_moves (ms : moves) : sum_moves :=
  map (fun x => ((fun r l => [fst x r l]) : sum_map, snd x)) ms.

Lemma sum_moves_valid_app : forall ms1 ms2 sh, sum_moves_valid sh ms1 ->
  sum_moves_valid (sum_final_shapes sh ms1) ms2 -> sum_moves_valid sh (ms1 ++ ms2).
Proof.
  induction ms1 as [|[sm sh'] ms1 IH]; intros ms2 sh H1 H2; simpl in *; [exact H2 |].
  split; [apply H1 | apply IH; [apply H1 | exact H2]].
Qed.

Lemma sum_final_shapes_app : forall ms1 ms2 sh,
  sum_final_shapes sh (ms1 ++ ms2) = sum_final_shapes (sum_final_shapes sh ms1) ms2.
Proof. induction ms1 as [|[sm sh'] ms1 IH]; intros ms2 sh; simpl; [reflexivity | apply IH]. Qed.

Lemma run_sum_moves_app : forall M ms1 ms2 (st : state (carrier M)),
  run_sum_moves M (ms1 ++ ms2) st = run_sum_moves M ms2 (run_sum_moves M ms1 st).
Proof. intros M. induction ms1 as [|[sm sh'] ms1 IH]; intros ms2 st; simpl; [reflexivity | apply IH]. Qed.

Lemma sum_moves_received_app : forall ms1 ms2 r,
  sum_moves_received (ms1 ++ ms2) r = sum_moves_received ms1 r + sum_moves_received ms2 r.
Proof. induction ms1 as [|[sm sh'] ms1 IH]; intros ms2 r; simpl; [reflexivity | rewrite IH; lia]. Qed.

Lemma sum_moves_valid_ext : forall ms sh sh', (forall r, sh r = sh' r) ->
  sum_moves_valid sh ms -> sum_moves_valid sh' ms.
Proof.
  intros [|[sm sh''] ms] sh sh' E H; simpl in *; [exact I |]. destruct H as [H Hrest].
  split; [| exact Hrest]. intros r s' Hs' l Hl src Hsrc.
  destruct (H r s' Hs' l Hl src Hsrc) as [s [Hs Hin]]. exists s. rewrite <- E. auto.
Qed.

Lemma sum_final_shapes_ext : forall ms sh sh', (forall r, sh r = sh' r) ->
  forall r, sum_final_shapes sh ms r = sum_final_shapes sh' ms r.
Proof. intros [|[sm sh''] ms] sh sh' E r; simpl; [apply E | reflexivity]. Qed.

Lemma lift_valid : forall ms sh, moves_valid sh ms -> sum_moves_valid sh (lift_moves ms).
Proof.
  induction ms as [|[wr sh'] ms IH]; intros sh H; simpl in *; [exact I |]. destruct H as [H Hrest].
  split; [| apply IH; exact Hrest].
  intros r s' Hs' l Hl src [<- | []]. exact (H r s' Hs' l Hl).
Qed.

Lemma lift_final : forall ms sh, sum_final_shapes sh (lift_moves ms) = final_shapes sh ms.
Proof. induction ms as [|[wr sh'] ms IH]; intros sh; simpl; [reflexivity | apply IH]. Qed.

Lemma lift_run : forall M ms (st : state (carrier M)) r l,
  run_sum_moves M (lift_moves ms) st r l = run_moves ms st r l.
Proof.
  intros M. induction ms as [|[wr sh'] ms IH]; intros st r l; simpl; [reflexivity |].
  rewrite <- IH. apply run_sum_moves_ext. intros r' l'. unfold run_sum_map, run_wire. simpl.
  apply msum_single.
Qed.

Lemma lift_received : forall ms r, sum_moves_received (lift_moves ms) r = moves_received ms r.
Proof.
  induction ms as [|[wr sh'] ms IH]; intros r; simpl; [reflexivity |]. rewrite IH. f_equal.
  unfold foreign_sources, wire_received. simpl. rewrite flat_map_single, length_filter_map. reflexivity.
Qed.

Lemma sholds_ext : forall M m p g (st st' : state (carrier M)), (forall r l, st r l = st' r l) ->
  sholds M m p g st -> sholds M m p g st'.
Proof.
  intros M m [t ps] g st st' E H. unfold sholds in *. simpl in *.
  eapply holds_ext_state; [| exact H]. intros r l _ _. unfold pending_value, group_sum.
  apply group_sum_ext_in. intros c' _ _. symmetry. apply E.
Qed.

Lemma refined_shapes : forall rf m t, mesh_wf m = true -> refine_ok m rf = true -> ty_wf m t = true ->
  forall r, pl_shapes (even_layout (refine_mesh rf m) (refine_ty rf t)) r = pl_shapes (even_layout m t) r.
Proof.
  intros rf m t Hm Hrf Ht r.
  rewrite !pl_shapes_even by (try apply refine_mesh_wf; try apply refine_ty_wf; assumption).
  rewrite refine_mesh_size, refine_local_shape by assumption. reflexivity.
Qed.

(** No plan [scheck] accepts to a target without pending axes makes a rank
    receive fewer elements than the printed bound: one per target element
    it cannot form from what it holds. *)
Theorem scheck_recv_ge_bound : forall S ps T sp rep, scheck S ps T [] sp = OK rep ->
  forall r, In r (pm_ranks (ly_mesh T)) -> sum_recv_bound S ps T r <= sm_recv rep r.
Proof.
  intros S ps T sp rep H r Hr. rewrite (scheck_traffic S ps T [] sp rep H r Hr).
  destruct sp as [pre rf p post|].
  2: { simpl in H. destruct (sum_exchange_ok S ps T []) eqn:Hok; [| discriminate].
       unfold sum_exchange_ok in Hok. rewrite !andb_true_iff in Hok. destruct Hok as [[Hwf HwS] _].
       rewrite (sum_recv_bound_spec S ps T r Hwf). simpl. rewrite reducing_exchange_to_recv.
       assert (Hd : designated T [] r = true)
         by (unfold designated; destruct (index_of r (pm_ranks (ly_mesh T))); reflexivity).
       rewrite Hd. apply reducing_exchange_recv_ge; [exact HwS |]. apply spread_holder_ok. exact Hwf. }
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
    as [pre_reps [t1 [kept [crep [post_reps
        [He [Hws [Hwt [Hpre [Hrf [Hc [Hkept [Hpost [Hsame [Hred _]]]]]]]]]]]]]]].
  pose proof (even_problem_rank S T r He Hr) as Hrm.
  pose proof (even_problem_layouts_wf S T He) as Hwf.
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
  set (m := ly_m S) in *. set (tS := ly_ty S) in *. set (tT := ly_ty T) in *.
  set (pt2 := snd (reduced m (tT, kept) post)) in *.
  apply sum_steps_check_type in Hpre. apply sum_steps_check_type in Hpost.
  assert (Hw1 : pty_wf m (t1, kept) = true) by exact (sum_plan_type_wf m Hm pre _ _ Hws Hpre).
  destruct (pty_wf_elim m t1 kept Hw1) as [Ht1 _].
  assert (Hwk : pty_wf m (tT, kept) = true).
  { destruct Hkept as [-> | [_ <-]]; [| exact Hw1]. unfold pty_wf. simpl. rewrite Ht. reflexivity. }
  set (m' := refine_mesh rf m).
  destruct (check_wf _ _ _ _ _ Hc) as [Hm' [Ht1' [_ [_ Hsteps]]]].
  apply check_steps_ok in Hsteps. destruct Hsteps as [Htyped _].
  destruct (plan_moves_facts m' Hm' _ p _ Ht1' Htyped) as [Hv [Hf [Hrun Hrecv]]].
  set (ms1 := sum_plan_moves m (tS, ps) pre).
  set (ms2 := lift_moves (plan_moves m' (refine_ty rf t1) p)).
  set (ms3 := sum_plan_moves m (tT, kept) post).
  assert (Hf1 : forall w, sum_final_shapes (pl_shapes (even_layout m tS)) ms1 w = pl_shapes (even_layout m t1) w)
    by (intros w; exact (sum_final_plan_shapes m pre _ _ _ Hpre eq_refl w)).
  assert (Hf2 : forall w, sum_final_shapes (pl_shapes (even_layout m t1)) ms2 w = pl_shapes (even_layout m tT) w).
  { intros w. rewrite (sum_final_shapes_ext ms2 _ (pl_shapes (even_layout m' (refine_ty rf t1))))
      by (intros w'; symmetry; apply refined_shapes; assumption).
    unfold ms2. rewrite lift_final, Hf. apply refined_shapes; assumption. }
  assert (Hf3 : forall w, sum_final_shapes (pl_shapes (even_layout m tT)) ms3 w = pl_shapes (even_layout m tT) w)
    by (intros w; exact (sum_final_plan_shapes m post _ _ _ Hpost eq_refl w)).
  (* What the steps receive. *)
  assert (Hrm' : r < mesh_size m') by (unfold m'; rewrite refine_mesh_size; assumption).
  simpl. fold m tS tT. rewrite Hred. simpl.
  rewrite <- (sum_plan_moves_received m Hm pre _ r Hws Hrm), <- (sum_plan_moves_received m Hm post _ r Hwk Hrm).
  fold m'. rewrite <- (Hrecv r Hrm'), <- lift_received. fold ms1 ms2 ms3.
  rewrite <- !sum_moves_received_app.
  rewrite (sum_recv_bound_spec S ps T r Hwf).
  apply (sum_lower_bound S ps T (pl_shapes S) ((ms1 ++ ms2) ++ ms3) r).
  - rewrite HS. apply pl_pending_wf_even; assumption.
  - rewrite HS. fold m tS.
    apply sum_moves_valid_app; [apply sum_moves_valid_app |].
    + exact (sum_plan_moves_valid m Hm pre (tS, ps) Hws).
    + apply (sum_moves_valid_ext _ (pl_shapes (even_layout m' (refine_ty rf t1))));
        [intros w; rewrite Hf1; apply refined_shapes; assumption |].
      apply lift_valid. exact Hv.
    + apply (sum_moves_valid_ext _ (pl_shapes (even_layout m tT)));
        [intros w; rewrite sum_final_shapes_app, (sum_final_shapes_ext ms2 _ _ Hf1), Hf2; reflexivity |].
      exact (sum_plan_moves_valid m Hm post (tT, kept) Hwk).
  - reflexivity.
  - rewrite HS at 1. fold m tS. rewrite !sum_final_shapes_app.
    rewrite (sum_final_shapes_ext ms3 _ (pl_shapes (even_layout m tT))).
    + rewrite Hf3, HT. reflexivity.
    + intros w. rewrite (sum_final_shapes_ext ms2 _ _ Hf1). apply Hf2.
  - intros M g st Hst. rewrite !run_sum_moves_app.
    rewrite HS in Hst. apply pl_sholds_even in Hst; [| exact Hm | exact Hs].
    set (st1 := run_sum_moves M ms1 st).
    assert (H1 : sholds M m (t1, kept) g st1).
    { apply (sholds_ext _ _ _ _ (exec_sum_plan M KeepOne m (tS, ps) pre st));
        [intros r' l'; symmetry; apply run_sum_plan_moves |].
      exact (sum_plan_sound M m Hm pre _ _ g st Hws Hpre Hst). }
    set (st2 := run_sum_moves M ms2 st1).
    assert (H2 : sholds M m (tT, kept) g st2).
    { destruct Hkept as [-> | [-> ->]]; [| exact H1].
      apply (proj1 (holds_sholds_empty M m Hm tT g st2)).
      apply (holds_ext_state M m tT g (exec m' (refine_ty rf t1) p st1));
        [intros r' l' _ _; unfold st2, ms2; rewrite lift_run; apply Hrun |].
      apply (proj2 (refine_holds _ rf m tT g _ Hm Hrf Ht)).
      eapply check_correct; [exact Hc |].
      apply (proj1 (refine_holds _ rf m t1 g st1 Hm Hrf Ht1)).
      exact (proj2 (holds_sholds_empty M m Hm t1 g st1) H1). }
    assert (H3 : sholds M m (tT, []) g (run_sum_moves M ms3 st2)).
    { apply (sholds_ext _ _ _ _ (exec_sum_plan M KeepOne m (tT, kept) post st2));
        [intros r' l'; symmetry; apply run_sum_plan_moves |].
      apply (sholds_same_axes _ _ _ pt2); [exact Hsame |].
      exact (sum_plan_sound M m Hm post _ _ g st2 Hwk Hpost H2). }
    rewrite HT. apply pl_holds_even; [exact Hm | exact Ht |].
    apply (proj2 (holds_sholds_empty M m Hm tT g _)). exact H3.
Qed.

(** ** The collective planner always plans an even problem *)

Section Total.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Lemma reduce_choice_axis : forall ar tgt t a,
  (exists d, reduce_choice ar m tgt t a = ReduceScatter d a) \/ reduce_choice ar m tgt t a = AllReduce a.
Proof.
  intros ar tgt t a. unfold reduce_choice.
  destruct (first_index (fun d => memb a (fst d)) tgt) as [d|];
    [destruct (extent m (nth d t ([], 0)) mod axis_size m a =? 0); eauto |].
  destruct ar; [auto |].
  destruct (first_index (fun d => extent m d mod axis_size m a =? 0) t); eauto.
Qed.

(** A reduce-scatter or an all-reduce over [a] removes [a] from the pending
    axes, keeps the global shape and does not grow the local array. *)
Lemma reduce_step_facts : forall t cur k a p', pty_wf m (t, cur) = true ->
  (k = AllReduce a \/ exists d, k = ReduceScatter d a) ->
  sum_step_type m (t, cur) k = OK p' ->
  snd p' = remove_axis a cur /\ global_shape (fst p') = global_shape t
  /\ local_size m (fst p') <= local_size m t.
Proof.
  intros t cur k a p' Hw Hk Hs. destruct Hk as [-> | [d ->]].
  - simpl in Hs. destruct (memb a cur); simpl in Hs; [| discriminate]. inversion Hs. simpl. auto.
  - pose proof (reduce_scatter_local_size m Hm (t, cur) d a p' Hw Hs) as Hsize.
    simpl in Hs. destruct (memb a cur) eqn:Ha; simpl in Hs; [| discriminate].
    destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (_ =? 0); simpl in Hs; [| discriminate]. inversion Hs. subst p'. simpl in *.
    split; [reflexivity |]. split.
    + unfold global_shape, set_dim. eapply map_upd_same_image; [exact Hd | reflexivity].
    + destruct (pty_wf_elim m t cur Hw) as [_ [_ Hin]].
      pose proof (mesh_wf_size_pos m a Hm (proj1 (Hin a (proj1 (memb_In _ _) Ha)))). nia.
Qed.

Lemma memb_cons_axis : forall y a xs, memb y (a :: xs) = (y =? a) || memb y xs.
Proof. intros y a xs. unfold memb. simpl. rewrite Nat.eqb_sym. reflexivity. Qed.

(** The reducing steps type-check and leave pending exactly the axes not reduced. *)
Lemma reduce_steps_type : forall ar tgt axes t cur, NoDup axes -> pty_wf m (t, cur) = true ->
  (forall a, In a axes -> memb a cur = true) ->
  exists t' cur', sum_plan_type m (t, cur) (reduce_steps ar m tgt (t, cur) axes) = OK (t', cur')
  /\ (forall y, memb y cur' = memb y cur && negb (memb y axes))
  /\ global_shape t' = global_shape t.
Proof.
  intros ar tgt axes. induction axes as [|a rest IH]; intros t cur Hnd Hw Hin.
  - exists t, cur. simpl. split; [reflexivity |]. split; [| reflexivity]. intros y. rewrite andb_true_r. reflexivity.
  - inversion Hnd as [| ? ? Ha Hnd']. subst.
    assert (Hstep : exists k p', (k = AllReduce a \/ exists d, k = ReduceScatter d a)
              /\ sum_step_type m (t, cur) k = OK p'
              /\ reduce_steps ar m tgt (t, cur) (a :: rest) = k :: reduce_steps ar m tgt p' rest).
    { destruct (sum_step_type m (t, cur) (reduce_choice ar m tgt t a)) as [p'|] eqn:E.
      - exists (reduce_choice ar m tgt t a), p'.
        split; [destruct (reduce_choice_axis ar tgt t a) as [[d ->] | ->]; eauto |].
        split; [exact E |]. cbn [reduce_steps fst]. rewrite E. reflexivity.
      - assert (Ha' : memb a cur = true) by (apply Hin; left; reflexivity).
        exists (AllReduce a), (t, remove_axis a cur). split; [auto |].
        split; [simpl; rewrite Ha'; reflexivity |]. cbn [reduce_steps fst]. rewrite E. simpl. rewrite Ha'. reflexivity. }
    destruct Hstep as [k [[t2 cur2] [Hk [Hs Hsteps]]]]. rewrite Hsteps. cbn [sum_plan_type]. rewrite Hs.
    destruct (reduce_step_facts t cur k a (t2, cur2) Hw Hk Hs) as [Hcur [Hg _]]. simpl in Hcur, Hg. subst cur2.
    assert (Hw2 : pty_wf m (t2, remove_axis a cur) = true) by (eapply sum_step_type_wf; eassumption).
    destruct (IH t2 (remove_axis a cur) Hnd' Hw2) as [t' [cur' [Hp [Hmemb Hg']]]].
    { intros x Hx. rewrite memb_remove_axis, (Hin x (or_intror Hx)). simpl.
      destruct (Nat.eqb_spec x a); [subst; contradiction | reflexivity]. }
    exists t', cur'. split; [exact Hp |]. split; [| congruence].
    intros y. rewrite Hmemb, memb_remove_axis, memb_cons_axis.
    destruct (memb y cur), (y =? a), (memb y rest); reflexivity.
Qed.

Lemma sum_plan_type_check : forall ks p p', sum_plan_type m p ks = OK p' ->
  exists reps, sum_steps_check m p ks = OK (reps, p').
Proof.
  induction ks as [|k ks IH]; intros p p' H; simpl in *; [inversion H; eauto |].
  destruct (sum_step_type m p k) as [p1|]; [| discriminate].
  destruct (IH p1 p' H) as [reps E]. rewrite E. eauto.
Qed.

(** No pending-sum step grows the local array. *)
Lemma sum_step_size_le : forall t cur k p', pty_wf m (t, cur) = true ->
  sum_step_type m (t, cur) k = OK p' -> local_size m (fst p') <= local_size m t.
Proof.
  intros t cur k p' Hw Hs. destruct k as [d a | a | a].
  - exact (proj2 (proj2 (reduce_step_facts t cur _ a p' Hw (or_intror (ex_intro _ d eq_refl)) Hs))).
  - exact (proj2 (proj2 (reduce_step_facts t cur _ a p' Hw (or_introl eq_refl) Hs))).
  - simpl in Hs. destruct (memb a (mesh_axes m)); [| discriminate].
    destruct (memb a (ty_axes t)); [discriminate |]. destruct (memb a cur); [discriminate |].
    inversion Hs. simpl. lia.
Qed.

(** Every step of a checked list of pending-sum steps, and the type it
    ends at, has a local size at most the first type's. *)
Lemma sum_reports_le : forall ks t cur reps p', pty_wf m (t, cur) = true ->
  sum_steps_check m (t, cur) ks = OK (reps, p') ->
  Forall (fun n => n <= local_size m t) (map ss_local_size reps) /\ local_size m (fst p') <= local_size m t.
Proof.
  induction ks as [|k ks IH]; intros t cur reps p' Hw H; cbn [sum_steps_check] in H;
    [inversion H; simpl; split; [constructor | lia] |].
  destruct (sum_step_type m (t, cur) k) as [[t1 cur1]|] eqn:Hs; [| discriminate].
  destruct (sum_steps_check m (t1, cur1) ks) as [[reps' fin]|] eqn:E; [| discriminate].
  inversion H. subst. simpl.
  pose proof (sum_step_size_le t cur k (t1, cur1) Hw Hs) as Hle. simpl in Hle.
  assert (Hw1 : pty_wf m (t1, cur1) = true) by (eapply sum_step_type_wf; eassumption).
  destruct (IH t1 cur1 reps' p' Hw1 E) as [Hall Hend].
  split; [| lia]. constructor; [exact Hle |].
  eapply Forall_impl; [| exact Hall]. simpl. lia.
Qed.

Lemma sum_plan_type_app : forall ks1 ks2 p,
  sum_plan_type m p (ks1 ++ ks2)
  = match sum_plan_type m p ks1 with OK p' => sum_plan_type m p' ks2 | Error e => Error e end.
Proof.
  induction ks1 as [|k ks1 IH]; intros ks2 p; cbn [sum_plan_type app]; [reflexivity |].
  destruct (sum_step_type m p k); [apply IH | reflexivity].
Qed.

(** Adding the target's pending axes, one by one. *)
Lemma add_steps_type : forall l t acc, NoDup (l ++ acc) ->
  (forall a, In a l -> In a (mesh_axes m) /\ ~ In a (ty_axes t)) ->
  sum_plan_type m (t, acc) (map AddPending (rev l)) = OK (t, l ++ acc).
Proof.
  induction l as [|a l IH]; intros t acc Hnd Hin; [reflexivity |].
  simpl rev. rewrite map_app, sum_plan_type_app.
  inversion Hnd as [| ? ? Ha Hnd']. subst.
  rewrite IH by (auto; intros x Hx; apply Hin; right; exact Hx).
  destruct (Hin a (or_introl eq_refl)) as [Hm' Ht'].
  simpl. apply memb_In in Hm'. rewrite Hm'.
  destruct (memb a (ty_axes t)) eqn:E1; [apply memb_In in E1; contradiction |].
  destruct (memb a (l ++ acc)) eqn:E2; [apply memb_In in E2; contradiction |]. reflexivity.
Qed.

Lemma fold_max_bound : forall l a c, a <= c -> Forall (fun n => n <= c) l -> fold_left Nat.max l a <= c.
Proof.
  induction l as [|x l IH]; intros a c Ha Hl; simpl; [exact Ha |].
  inversion Hl. subst. apply IH; [lia | assumption].
Qed.

Lemma same_axes_refl : forall xs, same_axes xs xs = true.
Proof.
  intros xs. unfold same_axes. rewrite andb_diag. apply forallb_forall.
  intros x Hx. apply memb_In. exact Hx.
Qed.

End Total.

(** On an even problem with well-formed pending-sum types, the planner with
    [StratCollectives] always returns a plan (so the theorems above are not
    about an empty set of plans): reducing every axis and running the
    collective planner qualifies. *)
Theorem plan_sums_collectives_total : forall S ps T pt, even_problem S T = true ->
  pty_wf (ly_m S) (ly_ty S, ps) = true -> pty_wf (ly_m S) (ly_ty T, pt) = true ->
  exists sp, plan_sums StratCollectives S ps T pt = Some sp.
Proof.
  intros S ps T pt He Hws Hwt.
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht Hg]]]]].
  set (m := ly_m S) in *. set (tS := ly_ty S) in *. set (tT := ly_ty T) in *.
  destruct (pty_wf_elim m tS ps Hws) as [_ [Hnd _]].
  (* The reducing steps end with no pending axis. *)
  set (pre := reduce_steps false m tT (tS, ps) ps).
  destruct (reduce_steps_type m Hm false tT ps tS ps Hnd Hws) as [t1 [cur' [Hpre [Hmemb Hg1]]]].
  { intros a Ha. apply memb_In. exact Ha. }
  assert (Hcur : cur' = []).
  { destruct cur' as [|y cur']; [reflexivity |]. exfalso. specialize (Hmemb y).
    rewrite memb_cons_axis, Nat.eqb_refl in Hmemb. simpl in Hmemb.
    destruct (memb y ps); simpl in Hmemb; discriminate. }
  subst cur'. fold pre in Hpre.
  assert (Hw1 : pty_wf m (t1, []) = true) by exact (sum_plan_type_wf m Hm pre _ _ Hws Hpre).
  destruct (pty_wf_elim m t1 [] Hw1) as [Ht1 _].
  destruct (sum_plan_type_check m pre _ _ Hpre) as [pre_reps Hpre_c].
  (* The collective planner plans the plain problem. *)
  assert (Hpw : problem_wf m t1 tT) by (repeat split; try assumption; congruence).
  pose proof (planner_always_normal m t1 tT Hpw) as Hnf. unfold planner_in_normal_form in Hnf.
  destruct (planner_choice m t1 tT) as [[[rf p] [traffic launches]]|] eqn:Hch; [| discriminate].
  pose proof (planner_of_choice _ _ _ _ _ _ Hch) as Hplan.
  destruct (plan_total _ _ _ _ _ Hpw Hplan) as [Hrf [crep Hc]].
  (* The target's pending axes are added. *)
  destruct (pty_wf_elim m tT pt Hwt) as [_ [Hndt Hint]].
  assert (Hpost : sum_plan_type m (tT, []) (add_steps pt) = OK (tT, pt)).
  { unfold add_steps. rewrite <- (app_nil_r pt) at 2. apply add_steps_type; [rewrite app_nil_r; exact Hndt | exact Hint]. }
  destruct (sum_plan_type_check m (add_steps pt) _ _ Hpost) as [post_reps Hpost_c].
  (* So the candidate is checked, within the memory bound. *)
  set (sp := SumByCollectives pre rf p (add_steps pt)).
  assert (Hcand : sum_candidate false S ps T pt
                  = Some (sp, (steps_recv pre_reps + traffic, length pre + launches + length pt))).
  { unfold sum_candidate. fold m tS tT pre. rewrite Hpre_c, Hch. reflexivity. }
  assert (Hq : qualifies S ps T pt sp = true).
  { unfold qualifies, sp, scheck. rewrite He. fold m tS tT. rewrite Hws, Hwt. simpl.
    rewrite Hpre_c, Hrf. simpl. rewrite Hc. simpl. rewrite Hpost_c, ty_eqb_refl, same_axes_refl. simpl.
    rewrite largest_boxes_spec. simpl. apply Nat.leb_le.
    pose proof (local_size_le_largest m tS Hm Hs) as HlS. rewrite <- HS in HlS.
    pose proof (local_size_le_largest m tT Hm Ht) as HlT. rewrite <- HT in HlT.
    destruct (sum_reports_le m Hm pre tS ps pre_reps _ Hws Hpre_c) as [Hpre_le Ht1_le]. simpl in Ht1_le.
    assert (Hwt0 : pty_wf m (tT, []) = true) by (unfold pty_wf; simpl; rewrite Ht; reflexivity).
    destruct (sum_reports_le m Hm (add_steps pt) tT [] post_reps _ Hwt0 Hpost_c) as [Hpost_le _].
    assert (Hpeak : rp_peak crep <= Nat.max (local_size m tS) (local_size m tT)).
    { rewrite (check_peak _ _ _ _ _ Hc). apply list_max_le, Forall_forall.
      intros n Hn. apply in_map_iff in Hn. destruct Hn as [t' [<- Ht']].
      pose proof (plan_peak_le_max m t1 tT rf p Hpw Hplan t' Ht'). lia. }
    apply (Nat.le_trans _ (Nat.max (local_size m tS) (local_size m tT))); [| lia].
    apply fold_max_bound; [lia |]. apply Forall_app. split.
    - eapply Forall_impl; [| exact Hpre_le]. simpl. lia.
    - constructor; [exact Hpeak |]. eapply Forall_impl; [| exact Hpost_le]. simpl. lia. }
  (* The selection keeps a qualifying candidate. *)
  unfold plan_sums. rewrite He.
  assert (Hin : In (sp, (steps_recv pre_reps + traffic, length pre + launches + length pt))
                   (filter (fun c => qualifies S ps T pt (fst c))
                      (flat_map (fun o => match o with Some c => [c] | None => [] end)
                         [keep_candidate S ps T pt; sum_candidate false S ps T pt; sum_candidate true S ps T pt]))).
  { apply filter_In. split; [| exact Hq]. apply in_flat_map.
    exists (sum_candidate false S ps T pt). split; [right; left; reflexivity | rewrite Hcand; left; reflexivity]. }
  unfold sum_collectives.
  destruct (cheapest _) as [[sp' c']|] eqn:Hbest; [eexists; reflexivity |].
  exfalso. revert Hbest. apply cheapest_nonempty. intros E. rewrite E in Hin. exact Hin.
Qed.

(** The other strategies plan every problem with well-formed layouts and pending axes. *)
Theorem plan_sums_exchange_total : forall s S ps T pt, sum_exchange_ok S ps T pt = true ->
  s <> StratCollectives -> exists sp, plan_sums s S ps T pt = Some sp.
Proof.
  intros s S ps T pt Hok Hs. unfold plan_sums. rewrite Hok.
  destruct (even_problem S T); destruct s; try (exfalso; apply Hs; reflexivity); eauto.
  destruct (sum_collectives S ps T pt) as [[sp c]|]; [destruct (cost_lt _ c) |]; eauto.
Qed.
