(** * The choice of the fastest pending-sum plan: what it guarantees.

    - [choose_sums_checked], [choose_sums_correct]: the chosen plan is one
      of the strategy's candidates, a plan [plan_sums] returns for some
      strategy (so [Compiler.redist_sums_correct] applies to it), and
      [scheck] accepts it; lowered and run over any commutative monoid it
      leaves every rank's target values, pending sums included, in its
      destination and keeps its source.
    - [choose_sums_within_budget]: its allocated bytes per rank (source,
      destination and the whole workspace) are within the budget; in the
      reducing exchange every rank's live bytes are within those
      ([sumx_live_le_alloc]).
    - [choose_sums_fastest]: no candidate that [scheck] accepts and that
      fits the budget has a smaller predicted time.
    - [choose_sums_below_minimum]: a refused budget is below the allocated bytes
      of every accepted candidate, and the figure named is the least of them. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Sums Sumexchange Sumstrategy
  Lower Lowersums Lowersumx Choose Cost Costsums.
From Redist Require Import Chooseproof Strategyproof Lowerproof Sumsproof Lowersumxproof Costclosed.

Lemma sum_candidates_planned : forall s S ps T pt sp, In sp (sum_candidates s S ps T pt) ->
  exists s', plan_sums s' S ps T pt = Some sp.
Proof.
  intros s S ps T pt sp H.
  assert (One : forall s', In sp (plan_list (plan_sums s' S ps T pt)) -> plan_sums s' S ps T pt = Some sp).
  { intros s' Hin. destruct (plan_sums s' S ps T pt); simpl in Hin; [| contradiction].
    destruct Hin as [<- | []]. reflexivity. }
  destruct s; unfold sum_candidates in H; try (apply in_app_or in H as [H | H]); eauto.
Qed.

Lemma scost_candidate_spec : forall pf h elem fl S ps T pt i sp c,
  scost_candidate pf h elem fl S ps T pt i sp = Some c ->
  cs_plan c = sp /\ (exists rep, scheck S ps T pt sp = OK rep)
  /\ cs_alloc_bytes c = sumplan_alloc_bytes elem fl S ps T pt sp
  /\ cs_time_ns c = sum_predicted_ns pf h elem fl S ps T pt sp.
Proof.
  intros pf h elem fl S ps T pt i sp c H. unfold scost_candidate in H.
  destruct (scheck S ps T pt sp) as [rep|e] eqn:Hx; [| discriminate].
  inversion H. subst c. simpl. split; [reflexivity | split; [eauto | split; reflexivity]].
Qed.

Lemma scost_all_sound : forall pf h elem fl S ps T pt sps i c, In c (scost_all pf h elem fl S ps T pt i sps) ->
  In (cs_plan c) sps /\ (exists rep, scheck S ps T pt (cs_plan c) = OK rep)
  /\ cs_alloc_bytes c = sumplan_alloc_bytes elem fl S ps T pt (cs_plan c)
  /\ cs_time_ns c = sum_predicted_ns pf h elem fl S ps T pt (cs_plan c).
Proof.
  intros pf h elem fl S ps T pt.
  apply (cost_list_sound _ (fun sp c => (exists rep, scheck S ps T pt sp = OK rep)
    /\ cs_alloc_bytes c = sumplan_alloc_bytes elem fl S ps T pt sp /\ cs_time_ns c = sum_predicted_ns pf h elem fl S ps T pt sp)).
  intros i sp c Hc. exact (scost_candidate_spec _ _ _ _ _ _ _ _ _ _ _ Hc).
Qed.

Lemma scost_all_complete : forall pf h elem fl S ps T pt sps i sp rep, In sp sps ->
  scheck S ps T pt sp = OK rep ->
  exists c, In c (scost_all pf h elem fl S ps T pt i sps) /\ cs_plan c = sp.
Proof.
  intros pf h elem fl S ps T pt sps i sp rep Hin Hx. apply cost_list_complete; [exact Hin |].
  intros j. unfold scost_candidate. rewrite Hx. eexists. split; reflexivity.
Qed.

Lemma choose_sums_best_in : forall pf h elem fl budget s S ps T pt ch,
  choose_sums pf h elem fl budget s S ps T pt = OK ch ->
  In (ch_best ch) (scost_all pf h elem fl S ps T pt 0 (sum_candidates s S ps T pt))
  /\ fits budget (ch_best ch) = true
  /\ forall c, In c (scost_all pf h elem fl S ps T pt 0 (sum_candidates s S ps T pt)) -> fits budget c = true ->
     cs_time_ns (ch_best ch) <= cs_time_ns c.
Proof. intros pf h elem fl budget s S ps T pt ch H. exact (choose_among_best_in _ _ _ H). Qed.

Theorem choose_sums_checked : forall pf h elem fl budget s S ps T pt ch,
  choose_sums pf h elem fl budget s S ps T pt = OK ch ->
  In (cs_plan (ch_best ch)) (sum_candidates s S ps T pt)
  /\ (exists s', plan_sums s' S ps T pt = Some (cs_plan (ch_best ch)))
  /\ exists rep, scheck S ps T pt (cs_plan (ch_best ch)) = OK rep.
Proof.
  intros pf h elem fl budget s S ps T pt ch H. destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ _ H) as [Hin _].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hin) as [Hsp [Hx _]].
  split; [exact Hsp | split; [apply (sum_candidates_planned s) | exact Hx]]. exact Hsp.
Qed.

Theorem choose_sums_correct : forall pf h elem fl budget s S ps T pt ch,
  choose_sums pf h elem fl budget s S ps T pt = OK ch ->
  forall M (g : list nat -> carrier M) (st other : state (carrier M)), fill_sound M fl -> pl_sholds M S ps g st ->
  let bs := run_sumplan M (lower_sumplan elem fl S ps T pt (cs_plan (ch_best ch))) st other in
  pl_sholds M T pt g (bs SDst) /\ bs SSrc = st.
Proof.
  intros pf h elem fl budget s S ps T pt ch H M g st other Hfl Hst.
  destruct (choose_sums_checked _ _ _ _ _ _ _ _ _ _ _ H) as [_ [[s' Hp] _]].
  apply (lower_sumplan_correct s' S ps T pt _ elem fl Hp M g st other Hfl Hst).
Qed.

(** In the reducing exchange what a rank has alive (its source box, its
    target box, its staging) is within what the caller allocates. *)
Theorem sumx_live_le_alloc : forall elem fl S ps T pt w,
  sumx_live elem S ps T pt w <= sumplan_alloc_bytes elem fl S ps T pt SumByExchange.
Proof.
  intros elem fl S ps T pt w. unfold sumplan_alloc_bytes, sum_lowered_alloc_bytes, sumx_live. simpl.
  rewrite largest_boxes_spec. simpl.
  pose proof (box_bytes_le S elem w). pose proof (box_bytes_le T elem w).
  pose proof (proj2 (sumx_workspace_exact elem S ps T pt) w). lia.
Qed.

Theorem choose_sums_within_budget : forall pf h elem fl b s S ps T pt ch,
  choose_sums pf h elem fl (Some b) s S ps T pt = OK ch ->
  sumplan_alloc_bytes elem fl S ps T pt (cs_plan (ch_best ch)) <= b.
Proof.
  intros pf h elem fl b s S ps T pt ch H. destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ _ H) as [Hin _].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hin) as [_ [_ [Hl _]]].
  rewrite <- Hl. exact (choose_among_within_budget _ _ _ H).
Qed.

Theorem choose_sums_fastest : forall pf h elem fl budget s S ps T pt ch,
  choose_sums pf h elem fl budget s S ps T pt = OK ch ->
  cs_time_ns (ch_best ch) = sum_predicted_ns pf h elem fl S ps T pt (cs_plan (ch_best ch))
  /\ forall sp rep, In sp (sum_candidates s S ps T pt) -> scheck S ps T pt sp = OK rep ->
     (forall b, budget = Some b -> sumplan_alloc_bytes elem fl S ps T pt sp <= b) ->
     cs_time_ns (ch_best ch) <= sum_predicted_ns pf h elem fl S ps T pt sp.
Proof.
  intros pf h elem fl budget s S ps T pt ch H.
  destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ _ H) as [Hin [_ Hle]].
  split; [apply (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hin) |].
  intros sp rep Hsp Hx Hb.
  destruct (scost_all_complete pf h elem fl S ps T pt _ 0 sp rep Hsp Hx) as [c [Hc <-]].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hc) as [_ [_ [Hl Ht]]].
  rewrite <- Ht. apply Hle; [exact Hc |].
  destruct budget as [b|]; [simpl | reflexivity]. apply Nat.leb_le. rewrite Hl. apply Hb. reflexivity.
Qed.

Theorem choose_sums_below_minimum : forall pf h elem fl budget s S ps T pt least_alloc,
  choose_sums pf h elem fl budget s S ps T pt = Error (BelowMinimum least_alloc) ->
  (exists b, budget = Some b /\ b < least_alloc)
  /\ (forall sp rep, In sp (sum_candidates s S ps T pt) -> scheck S ps T pt sp = OK rep ->
      least_alloc <= sumplan_alloc_bytes elem fl S ps T pt sp)
  /\ exists sp rep, In sp (sum_candidates s S ps T pt) /\ scheck S ps T pt sp = OK rep
     /\ sumplan_alloc_bytes elem fl S ps T pt sp = least_alloc.
Proof.
  intros pf h elem fl budget s S ps T pt least_alloc H.
  destruct (choose_among_below_minimum _ _ _ H) as [Hb [Hle [c [Hc Hl]]]].
  split; [exact Hb | split].
  - intros sp rep Hsp Hx. destruct (scost_all_complete pf h elem fl S ps T pt _ 0 sp rep Hsp Hx) as [x [Hin <-]].
    destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hin) as [_ [_ [Hl' _]]]. rewrite <- Hl'. apply Hle, Hin.
  - destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ _ Hc) as [Hsp [[rep Hx] [Hl' _]]].
    exists (cs_plan c), rep. rewrite <- Hl'. auto.
Qed.

(** With single copy the reducing exchange's same-host contributions and
    the collectives whose group is on one host are priced at the
    single-copy link, the reductions by MPI: where that link is no slower
    than the same-host link no step costs more than without single copy
    ([sum_steps_single_copy_no_slower]), and without it the prices are the
    MPI prices ([Costproof.single_copy_absent]). *)
Theorem sum_steps_single_copy_no_slower : forall pf h elem lw, single_copy_faster pf ->
  Forall2 le (sum_steps_ns pf h elem lw) (sum_steps_ns (without_single_copy pf) h elem lw).
Proof.
  intros pf h elem [pg | x] Hf; cbn [sum_steps_ns].
  - assert (Hrefl : forall l, Forall2 le l l) by (intros l; induction l; constructor; auto).
    assert (Hr : forall c, rcall_ns (without_single_copy pf) h (sg_mesh pg) c = rcall_ns pf h (sg_mesh pg) c).
    { intros c. unfold rcall_ns. apply Nat.le_antisymm; apply max_along_mono; try lia; intros; rewrite rank_ns_without; lia. }
    rewrite (map_ext _ _ Hr (sg_pre pg)), (map_ext _ _ Hr (sg_post pg)).
    apply Forall2_app; [| apply Forall2_app]; [apply Hrefl | apply single_copy_no_slower, Hf | apply Hrefl].
  - constructor; [| constructor]. apply max_over_mono. intros r _.
    unfold single_copy_profile at 2. cbn [without_single_copy pf_single_copy]. rewrite rank_ns_without.
    apply rank_ns_single_copy, Hf.
Qed.
