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
      plan to a target without pending axes receives less. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Checker Checkerproof Trafficproof Refineproof Planner
  Plannerproof Layout Layoutproof Exchange Exchangeproof Lowerbound Strategy Strategyproof
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

Theorem scheck_correct : forall S ps T pt sp rep, scheck S ps T pt sp = OK rep ->
  forall M (g : list nat -> carrier M) (st : state (carrier M)),
  pl_sholds M S ps g st -> pl_sholds M T pt g (sexec M S ps T pt sp st).
Proof.
  intros S ps T pt [pre rf p post|] rep H M g st Hst.
  - destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
      as [pre_reps [t1 [kept [crep [post_reps
          [He [Hws [Hwt [Hpre [Hrf [Hc [Hkept [Hpost [Hsame [Hred _]]]]]]]]]]]]]]].
    destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
    set (m := ly_m S) in *.
    apply sum_steps_check_type in Hpre. apply sum_steps_check_type in Hpost.
    assert (Hw1 : pty_wf m (t1, kept) = true) by exact (sum_plan_type_wf m Hm pre _ _ Hws Hpre).
    destruct (pty_wf_elim m t1 kept Hw1) as [Ht1 _].
    rewrite HS in Hst. apply pl_sholds_even in Hst; [| exact Hm | exact Hs].
    pose proof (sum_plan_sound M m Hm pre _ _ g st Hws Hpre Hst) as H1.
    simpl. fold m. rewrite Hred. simpl.
    set (st1 := exec_sum_plan M m (ly_ty S, ps) pre st) in *.
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
    pose proof (sum_plan_sound M m Hm post _ _ g st2 Hwk Hpost H2) as H3.
    rewrite HT. apply pl_sholds_even; [exact Hm | exact Ht |].
    eapply sholds_same_axes; [exact Hsame | exact H3].
  - simpl in H. destruct (sum_exchange_ok S ps T pt) eqn:Hok; [| discriminate].
    unfold sum_exchange_ok in Hok. rewrite !andb_true_iff in Hok. destruct Hok as [[Hwf HwS] HwT].
    simpl. apply reducing_exchange_to_sound; try assumption.
    apply spread_holder_ok. exact Hwf.
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
  intros S T r. unfold target_box_size. destruct (even_problem S T) eqn:He; [| reflexivity].
  destruct (even_problem_spec S T He) as [_ [HT [Hm [_ [Ht _]]]]].
  unfold box_size_at. rewrite HT, pl_box_even.
  destruct (Nat.ltb_spec r (mesh_size (ly_m S))) as [Hr | Hr]; [| reflexivity].
  unfold box_size. rewrite dev_box_even_shape by (try apply device_of_rank_in; assumption). reflexivity.
Qed.

Lemma receives_sum_spec : forall S T pt r, receives_sum S T pt r = designated T pt r.
Proof.
  intros S T pt r. unfold receives_sum. destruct (even_problem S T) eqn:He; [| reflexivity].
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
  plan_sums s S ps T pt = Some sp -> pl_sholds M S ps g st -> pl_sholds M T pt g (sexec M S ps T pt sp st).
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
    { apply (sholds_ext _ _ _ _ (exec_sum_plan M m (tS, ps) pre st));
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
    { apply (sholds_ext _ _ _ _ (exec_sum_plan M m (tT, kept) post st2));
        [intros r' l'; symmetry; apply run_sum_plan_moves |].
      apply (sholds_same_axes _ _ _ pt2); [exact Hsame |].
      exact (sum_plan_sound M m Hm post _ _ g st2 Hwk Hpost H2). }
    rewrite HT. apply pl_holds_even; [exact Hm | exact Ht |].
    apply (proj2 (holds_sholds_empty M m Hm tT g _)). exact H3.
Qed.
