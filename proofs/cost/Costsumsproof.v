(** * The choice of the fastest pending-sum plan: what it guarantees.

    - [choose_sums_checked], [choose_sums_correct]: the chosen plan is one
      of the strategy's candidates, a plan [plan_sums] returns for some
      strategy (so [Compiler.redist_sums_correct] applies to it), and
      [scheck] accepts it; lowered and run over any commutative monoid it
      leaves every rank's target values, pending sums included, in its
      destination and keeps its source.
    - [choose_sums_within_budget]: its live bytes per rank are within the budget.
    - [choose_sums_fastest]: no candidate that [scheck] accepts and that
      fits the budget has a smaller predicted time.
    - [choose_sums_below_minimum]: a refused budget is below the live bytes
      of every accepted candidate, and the figure named is the least of them. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Sums Sumexchange Sumstrategy
  Lower Lowersums Lowersumx Cost Costsums.
From Redist Require Import Costproof Lowersumxproof.

Lemma sum_candidates_planned : forall s S ps T pt sp, In sp (sum_candidates s S ps T pt) ->
  exists s', plan_sums s' S ps T pt = Some sp.
Proof.
  intros s S ps T pt sp H.
  assert (One : forall s', In sp (plan_list (plan_sums s' S ps T pt)) -> plan_sums s' S ps T pt = Some sp).
  { intros s' Hin. destruct (plan_sums s' S ps T pt); simpl in Hin; [| contradiction].
    destruct Hin as [<- | []]. reflexivity. }
  destruct s; unfold sum_candidates in H; try (apply in_app_or in H as [H | H]); eauto.
Qed.

Lemma scost_candidate_spec : forall pf h elem S ps T pt i sp c,
  scost_candidate pf h elem S ps T pt i sp = Some c ->
  sc_plan c = sp /\ (exists rep, scheck S ps T pt sp = OK rep)
  /\ sc_live_bytes c = sumplan_live_bytes elem S ps T pt sp
  /\ sc_time_ns c = sum_predicted_ns pf h elem S ps T pt sp.
Proof.
  intros pf h elem S ps T pt i sp c H. unfold scost_candidate in H.
  destruct (scheck S ps T pt sp) as [rep|e] eqn:Hx; [| discriminate].
  inversion H. subst c. simpl. split; [reflexivity | split; [eauto | split; reflexivity]].
Qed.

Lemma scost_all_sound : forall pf h elem S ps T pt sps i c, In c (scost_all pf h elem S ps T pt i sps) ->
  In (sc_plan c) sps /\ (exists rep, scheck S ps T pt (sc_plan c) = OK rep)
  /\ sc_live_bytes c = sumplan_live_bytes elem S ps T pt (sc_plan c)
  /\ sc_time_ns c = sum_predicted_ns pf h elem S ps T pt (sc_plan c).
Proof.
  intros pf h elem S ps T pt sps. induction sps as [|sp sps IH]; intros i c Hin; simpl in Hin; [contradiction |].
  destruct (scost_candidate pf h elem S ps T pt i sp) as [c'|] eqn:Hc.
  - destruct Hin as [<- | Hin].
    + destruct (scost_candidate_spec _ _ _ _ _ _ _ _ _ _ Hc) as [-> [Hx [Hl Ht]]]. simpl. auto.
    + destruct (IH _ _ Hin) as [Hsp Hrest]. split; [right; exact Hsp | exact Hrest].
  - destruct (IH _ _ Hin) as [Hsp Hrest]. split; [right; exact Hsp | exact Hrest].
Qed.

Lemma scost_all_complete : forall pf h elem S ps T pt sps i sp rep, In sp sps ->
  scheck S ps T pt sp = OK rep ->
  exists c, In c (scost_all pf h elem S ps T pt i sps) /\ sc_plan c = sp.
Proof.
  intros pf h elem S ps T pt sps. induction sps as [|sp0 sps IH]; intros i sp rep Hin Hx; [contradiction |].
  simpl. destruct Hin as [<- | Hin].
  - unfold scost_candidate at 1. rewrite Hx. eexists. split; [left; reflexivity | reflexivity].
  - destruct (IH (Nat.succ i) sp rep Hin Hx) as [c [Hc Hp]].
    destruct (scost_candidate pf h elem S ps T pt i sp0); eexists; split; try (right; exact Hc); try exact Hc;
      exact Hp.
Qed.

Lemma scheaper_time : forall a b, scheaper a b = true -> sc_time_ns a <= sc_time_ns b.
Proof.
  intros a b H. unfold scheaper in H. simpl in H.
  apply orb_true_iff in H as [H | H]; [apply Nat.ltb_lt in H; lia |].
  apply andb_true_iff in H as [H _]. apply Nat.eqb_eq in H. lia.
Qed.

Lemma not_scheaper_time : forall a b, scheaper a b = false -> sc_time_ns b <= sc_time_ns a.
Proof.
  intros a b H. unfold scheaper in H. simpl in H.
  apply orb_false_iff in H as [H _]. apply Nat.ltb_ge in H. exact H.
Qed.

Lemma sleast_spec : forall cs c,
  In (sleast c cs) (c :: cs) /\ forall x, In x (c :: cs) -> sc_time_ns (sleast c cs) <= sc_time_ns x.
Proof.
  unfold sleast. induction cs as [|c' cs IH]; intros c; simpl.
  - split; [left; reflexivity | intros x [<- | []]; lia].
  - destruct (scheaper c' c) eqn:Hch.
    + destruct (IH c') as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [right; left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- pose proof (scheaper_time _ _ Hch). specialize (Hle c' (or_introl eq_refl)). lia.
        -- apply Hle. left. reflexivity.
        -- apply Hle. right. exact Hx.
    + destruct (IH c) as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- apply Hle. left. reflexivity.
        -- pose proof (not_scheaper_time _ _ Hch). specialize (Hle c (or_introl eq_refl)). lia.
        -- apply Hle. right. exact Hx.
Qed.

Lemma choose_sums_best_in : forall pf h elem budget s S ps T pt ch,
  choose_sums pf h elem budget s S ps T pt = OK ch ->
  In (sh_best ch) (scost_all pf h elem S ps T pt 0 (sum_candidates s S ps T pt))
  /\ sfits budget (sh_best ch) = true
  /\ forall c, In c (scost_all pf h elem S ps T pt 0 (sum_candidates s S ps T pt)) -> sfits budget c = true ->
     sc_time_ns (sh_best ch) <= sc_time_ns c.
Proof.
  intros pf h elem budget s S ps T pt ch H. unfold choose_sums in H.
  set (all := scost_all pf h elem S ps T pt 0 (sum_candidates s S ps T pt)) in *.
  destruct (filter (sfits budget) all) as [|c cs] eqn:Hf; [destruct all; discriminate |].
  inversion H. subst ch. simpl. destruct (sleast_spec cs c) as [Hin Hle].
  assert (Hsub : forall x, In x (c :: cs) <-> In x all /\ sfits budget x = true)
    by (intros x; rewrite <- Hf; apply filter_In).
  split; [apply Hsub, Hin |]. split; [apply Hsub, Hin |].
  intros x Hx Hfx. apply Hle, Hsub. auto.
Qed.

Theorem choose_sums_checked : forall pf h elem budget s S ps T pt ch,
  choose_sums pf h elem budget s S ps T pt = OK ch ->
  In (sc_plan (sh_best ch)) (sum_candidates s S ps T pt)
  /\ (exists s', plan_sums s' S ps T pt = Some (sc_plan (sh_best ch)))
  /\ exists rep, scheck S ps T pt (sc_plan (sh_best ch)) = OK rep.
Proof.
  intros pf h elem budget s S ps T pt ch H. destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ H) as [Hin _].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ Hin) as [Hsp [Hx _]].
  split; [exact Hsp | split; [apply (sum_candidates_planned s) | exact Hx]]. exact Hsp.
Qed.

Theorem choose_sums_correct : forall pf h elem budget s S ps T pt ch,
  choose_sums pf h elem budget s S ps T pt = OK ch ->
  forall M (g : list nat -> carrier M) (st other : state (carrier M)), pl_sholds M S ps g st ->
  let bs := run_sumplan M (lower_sumplan elem S ps T pt (sc_plan (sh_best ch))) st other in
  pl_sholds M T pt g (bs SDst) /\ bs SSrc = st.
Proof.
  intros pf h elem budget s S ps T pt ch H M g st other Hst.
  destruct (choose_sums_checked _ _ _ _ _ _ _ _ _ _ H) as [_ [[s' Hp] _]].
  apply (lower_sumplan_correct s' S ps T pt _ elem Hp M g st other Hst).
Qed.

Theorem choose_sums_within_budget : forall pf h elem b s S ps T pt ch,
  choose_sums pf h elem (Some b) s S ps T pt = OK ch ->
  sumplan_live_bytes elem S ps T pt (sc_plan (sh_best ch)) <= b.
Proof.
  intros pf h elem b s S ps T pt ch H. destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ H) as [Hin [Hfit _]].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ Hin) as [_ [_ [Hl _]]].
  simpl in Hfit. apply Nat.leb_le in Hfit. lia.
Qed.

Theorem choose_sums_fastest : forall pf h elem budget s S ps T pt ch,
  choose_sums pf h elem budget s S ps T pt = OK ch ->
  sc_time_ns (sh_best ch) = sum_predicted_ns pf h elem S ps T pt (sc_plan (sh_best ch))
  /\ forall sp rep, In sp (sum_candidates s S ps T pt) -> scheck S ps T pt sp = OK rep ->
     (forall b, budget = Some b -> sumplan_live_bytes elem S ps T pt sp <= b) ->
     sc_time_ns (sh_best ch) <= sum_predicted_ns pf h elem S ps T pt sp.
Proof.
  intros pf h elem budget s S ps T pt ch H.
  destruct (choose_sums_best_in _ _ _ _ _ _ _ _ _ _ H) as [Hin [_ Hle]].
  split; [apply (scost_all_sound _ _ _ _ _ _ _ _ _ _ Hin) |].
  intros sp rep Hsp Hx Hb.
  destruct (scost_all_complete pf h elem S ps T pt _ 0 sp rep Hsp Hx) as [c [Hc <-]].
  destruct (scost_all_sound _ _ _ _ _ _ _ _ _ _ Hc) as [_ [_ [Hl Ht]]].
  rewrite <- Ht. apply Hle; [exact Hc |].
  destruct budget as [b|]; [simpl | reflexivity]. apply Nat.leb_le. rewrite Hl. apply Hb. reflexivity.
Qed.

Theorem choose_sums_below_minimum : forall pf h elem budget s S ps T pt least_live,
  choose_sums pf h elem budget s S ps T pt = Error (BelowMinimum least_live) ->
  (exists b, budget = Some b /\ b < least_live)
  /\ (forall sp rep, In sp (sum_candidates s S ps T pt) -> scheck S ps T pt sp = OK rep ->
      least_live <= sumplan_live_bytes elem S ps T pt sp)
  /\ exists sp rep, In sp (sum_candidates s S ps T pt) /\ scheck S ps T pt sp = OK rep
     /\ sumplan_live_bytes elem S ps T pt sp = least_live.
Proof.
  intros pf h elem budget s S ps T pt least_live H. unfold choose_sums in H.
  set (all := scost_all pf h elem S ps T pt 0 (sum_candidates s S ps T pt)) in *.
  destruct (filter (sfits budget) all) as [|c0 cs0] eqn:Hf; [| discriminate].
  destruct all as [|c cs] eqn:Ha; [discriminate |]. inversion H. subst least_live.
  assert (Hnofit : forall x, In x (c :: cs) -> sfits budget x = false).
  { intros x Hx. destruct (sfits budget x) eqn:Hfx; [| reflexivity].
    assert (In x (filter (sfits budget) (c :: cs))) by (apply filter_In; auto).
    rewrite Hf in H0. contradiction. }
  destruct (fold_min_spec (map sc_live_bytes cs) (sc_live_bytes c)) as [Hat [Hc Hx]].
  assert (Hmin : forall x, In x (c :: cs) -> fold_left Nat.min (map sc_live_bytes cs) (sc_live_bytes c)
                                             <= sc_live_bytes x).
  { intros x [<- | Hin]; [exact Hc | apply Hx, in_map, Hin]. }
  assert (Hsound : forall x, In x (c :: cs) -> _) by (intros x Hin; rewrite <- Ha in Hin;
    exact (scost_all_sound _ _ _ _ _ _ _ _ _ _ Hin)).
  split; [| split].
  - destruct budget as [b|]; [| specialize (Hnofit c (or_introl eq_refl)); discriminate].
    exists b. split; [reflexivity |].
    destruct Hat as [-> | Hin].
    + specialize (Hnofit c (or_introl eq_refl)). simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
    + apply in_map_iff in Hin as [x [<- Hin]]. specialize (Hnofit x (or_intror Hin)).
      simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
  - intros sp rep Hsp Hxc.
    destruct (scost_all_complete pf h elem S ps T pt _ 0 sp rep Hsp Hxc) as [x [Hin <-]].
    fold all in Hin. rewrite Ha in Hin.
    destruct (Hsound x Hin) as [_ [_ [Hl _]]]. rewrite <- Hl. apply Hmin, Hin.
  - assert (Hw : exists x, In x (c :: cs)
                 /\ sc_live_bytes x = fold_left Nat.min (map sc_live_bytes cs) (sc_live_bytes c)).
    { destruct Hat as [Heq | Hin]; [exists c; split; [left |]; auto |].
      apply in_map_iff in Hin as [x [Hx' Hin]]. exists x. split; [right; exact Hin | exact Hx']. }
    destruct Hw as [x [Hin Hl']]. destruct (Hsound x Hin) as [Hsp [[rep Hxc] [Hl _]]].
    exists (sc_plan x), rep. rewrite <- Hl. auto.
Qed.
