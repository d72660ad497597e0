(** * The choice within a budget, in place among the candidates: what it guarantees.

    - [inplace_staging_fits]: the staging a budget allows keeps the largest
      buffer and the staging within the budget, and is at least one
      element.
    - [inplace_staging_most]: no larger staging (up to the largest buffer,
      beyond which a rank never stages) fits the budget.
    - [inplace_staging_refused]: a budget refused in place is below the
      largest buffer and one element.
    - [choose_within_fits]: the chosen plan allocates at most the budget
      per rank.
    - [choose_within_verified]: the chosen plan is a candidate
      [Cost.choose] weighs that the checker accepts ([Costproof]), or the
      in-place plan at the staging the budget allows, accepted by
      [validate] (so [Inplaceproof.inplace_sound] and
      [inplace_live_bytes] cover it), with its predicted time and
      allocated bytes.
    - [choose_within_fastest]: no accepted out-of-place candidate that fits
      the budget, and not the in-place plan when it is weighed, has a
      smaller predicted time.
    - [inplace_ns_app]: the time of a schedule is the sum of its parts'. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Layout Exchange Strategy Lower Choose Cost Inplace Costinplace.
From Redist Require Import Chooseproof Costproof Inplaceproof.

Theorem inplace_ns_app : forall pf h elem sc sc',
  inplace_ns pf h elem (sc ++ sc') = inplace_ns pf h elem sc + inplace_ns pf h elem sc'.
Proof.
  intros. unfold inplace_ns, inplace_steps_ns. rewrite map_app. apply list_sum_app.
Qed.

Theorem inplace_staging_fits : forall elem S T b B, inplace_staging elem S T (Some b) = Some B ->
  (largest_buffer S T + B) * elem <= b /\ (0 < elem -> 1 <= B).
Proof.
  intros elem S T b B H. unfold inplace_staging, inplace_least_budget in H.
  destruct (b <? (largest_buffer S T + 1) * elem) eqn:Hb; [discriminate |].
  apply Nat.ltb_ge in Hb. injection H as <-. set (buf := largest_buffer S T) in *.
  destruct (Nat.eq_0_gt_0_cases elem) as [-> | He]; [split; [lia | intros; lia] |].
  pose proof (Nat.mul_div_le (b - buf * elem) elem) as Hd.
  assert (Hmin : Nat.min (Nat.max 1 buf) ((b - buf * elem) / elem) <= (b - buf * elem) / elem) by apply Nat.le_min_r.
  split.
  - apply Nat.mul_le_mono_r with (p := elem) in Hmin.
    assert (Hsub : buf * elem <= b) by nia.
    set (q := (b - buf * elem) / elem) in *. set (m := Nat.min (Nat.max 1 buf) q) in *.
    specialize (Hd ltac:(lia)). rewrite Nat.mul_add_distr_r.
    enough (buf * elem + m * elem <= b) by exact H. lia.
  - intros _. apply Nat.min_glb; [change (1 <= Nat.max 1 buf); apply Nat.le_max_l |].
    apply Nat.div_le_lower_bound; lia.
Qed.

Theorem inplace_staging_most : forall elem S T b B B', 0 < elem -> inplace_staging elem S T (Some b) = Some B ->
  B' <= Nat.max 1 (largest_buffer S T) -> (largest_buffer S T + B') * elem <= b -> B' <= B.
Proof.
  intros elem S T b B B' He H Hmost Hfit. unfold inplace_staging, inplace_least_budget in H.
  destruct (b <? (largest_buffer S T + 1) * elem); [discriminate |].
  injection H as <-. apply Nat.min_glb; [exact Hmost |].
  apply Nat.div_le_lower_bound; lia.
Qed.

Theorem inplace_staging_refused : forall elem S T b, inplace_staging elem S T (Some b) = None ->
  b < inplace_least_budget elem S T /\ forall B, 1 <= B -> b < (largest_buffer S T + B) * elem.
Proof.
  intros elem S T b H. unfold inplace_staging in H.
  destruct (b <? inplace_least_budget elem S T) eqn:Hb; [| discriminate].
  apply Nat.ltb_lt in Hb. split; [exact Hb |]. intros B HB. unfold inplace_least_budget in Hb. nia.
Qed.

Lemma cost_in_place_spec : forall pf h elem S T i B c, cost_in_place pf h elem S T i B = Some c ->
  exists sc, cs_plan c = InPlace B sc /\ inplace_plan S T B = Some sc
  /\ cs_alloc_bytes c = (largest_buffer S T + B) * elem /\ cs_time_ns c = inplace_ns pf h elem sc.
Proof.
  intros pf h elem S T i B c H. unfold cost_in_place in H.
  destruct (inplace_plan S T B) as [sc|]; [| discriminate]. injection H as <-. exists sc. auto.
Qed.

Lemma in_place_candidates_spec : forall pf h elem budget s S T i c, In c (in_place_candidates pf h elem budget s S T i) ->
  exists B sc, inplace_staging elem S T budget = Some B /\ cs_plan c = InPlace B sc /\ inplace_plan S T B = Some sc
  /\ cs_alloc_bytes c = (largest_buffer S T + B) * elem /\ cs_time_ns c = inplace_ns pf h elem sc.
Proof.
  intros pf h elem budget s S T i c H. unfold in_place_candidates in H.
  destruct s; try contradiction. destruct budget as [b|]; [| contradiction].
  destruct (inplace_staging elem S T (Some b)) as [B|] eqn:Hst; [| contradiction].
  destruct (layouts_wf S T); [| contradiction].
  destruct (cost_in_place pf h elem S T i B) as [c'|] eqn:Hc; [| contradiction].
  destruct H as [<- | []]. destruct (cost_in_place_spec _ _ _ _ _ _ _ _ Hc) as [sc Hsc].
  exists B, sc. auto.
Qed.

Lemma within_candidates_spec : forall hy ip pf h elem budget s S T c,
  In c (within_candidates hy ip pf h elem budget s S T) ->
  (exists sp, cs_plan c = OutOfPlace sp /\ In sp (strategy_candidates hy s S T) /\ (exists rep, xcheck S T sp = OK rep)
     /\ cs_alloc_bytes c = splan_alloc_bytes elem S T sp /\ cs_time_ns c = predicted_ns pf h elem S T sp)
  \/ exists B sc, cs_plan c = InPlace B sc /\ inplace_staging elem S T budget = Some B /\ inplace_plan S T B = Some sc
     /\ cs_alloc_bytes c = (largest_buffer S T + B) * elem /\ cs_time_ns c = inplace_ns pf h elem sc.
Proof.
  intros hy ip pf h elem budget s S T c H. unfold within_candidates in H.
  apply in_app_or in H as [H | H].
  - left. apply in_map_iff in H as [c0 [<- Hc0]].
    destruct (cost_all_sound _ _ _ _ _ _ _ _ Hc0) as [Hin [Hx [Ha Ht]]].
    exists (cs_plan c0). simpl. auto.
  - right. destruct ip; [| contradiction].
    destruct (in_place_candidates_spec _ _ _ _ _ _ _ _ _ H) as [B [sc [Hst [Hp Hrest]]]].
    exists B, sc. auto.
Qed.

Theorem choose_within_fits : forall hy ip pf h elem b s S T ch,
  choose_within hy ip pf h elem (Some b) s S T = OK ch -> cs_alloc_bytes (ch_best ch) <= b.
Proof. intros hy ip pf h elem b s S T ch H. exact (choose_among_within_budget _ _ _ H). Qed.

Theorem choose_within_verified : forall hy ip pf h elem budget s S T ch,
  choose_within hy ip pf h elem budget s S T = OK ch ->
  (exists sp, cs_plan (ch_best ch) = OutOfPlace sp /\ In sp (strategy_candidates hy s S T)
     /\ (exists rep, xcheck S T sp = OK rep)
     /\ cs_alloc_bytes (ch_best ch) = splan_alloc_bytes elem S T sp
     /\ cs_time_ns (ch_best ch) = predicted_ns pf h elem S T sp)
  \/ exists B sc, cs_plan (ch_best ch) = InPlace B sc /\ inplace_staging elem S T budget = Some B
     /\ validate S T B sc = true
     /\ cs_alloc_bytes (ch_best ch) = (largest_buffer S T + B) * elem
     /\ cs_time_ns (ch_best ch) = inplace_ns pf h elem sc.
Proof.
  intros hy ip pf h elem budget s S T ch H. destruct (choose_among_best_in _ _ _ H) as [Hin _].
  destruct (within_candidates_spec _ _ _ _ _ _ _ _ _ _ Hin) as [Hout | [B [sc [Hp [Hst [Hpl Hrest]]]]]];
    [left; exact Hout |].
  right. exists B, sc. split; [exact Hp | split; [exact Hst | split; [exact (inplace_plan_validated _ _ _ _ Hpl) | exact Hrest]]].
Qed.

Theorem choose_within_fastest : forall hy ip pf h elem budget s S T ch,
  choose_within hy ip pf h elem budget s S T = OK ch ->
  (forall sp rep, In sp (strategy_candidates hy s S T) -> xcheck S T sp = OK rep ->
     (forall b, budget = Some b -> splan_alloc_bytes elem S T sp <= b) ->
     cs_time_ns (ch_best ch) <= predicted_ns pf h elem S T sp)
  /\ (forall b B sc, ip = true -> s = StratAuto -> budget = Some b -> layouts_wf S T = true ->
     inplace_staging elem S T budget = Some B -> inplace_plan S T B = Some sc ->
     cs_time_ns (ch_best ch) <= inplace_ns pf h elem sc).
Proof.
  intros hy ip pf h elem budget s S T ch H. destruct (choose_among_best_in _ _ _ H) as [_ [_ Hle]].
  split.
  - intros sp rep Hsp Hx Hb.
    destruct (cost_all_complete pf h elem S T _ 0 sp rep Hsp Hx) as [c [Hc <-]].
    destruct (cost_all_sound _ _ _ _ _ _ _ _ Hc) as [_ [_ [Hl Ht]]].
    rewrite <- Ht. apply (Hle (out_of_place c)).
    + unfold within_candidates. apply in_or_app. left. apply in_map. exact Hc.
    + destruct budget as [b|]; [simpl | reflexivity]. apply Nat.leb_le. rewrite Hl. apply Hb. reflexivity.
  - intros b B sc -> -> -> Hwf Hst Hpl.
    set (i := length (strategy_candidates hy StratAuto S T)).
    assert (Hc : cost_in_place pf h elem S T i B
                 = Some {| cs_index := i; cs_plan := InPlace B sc; cs_steps_ns := inplace_steps_ns pf h elem sc;
                           cs_time_ns := inplace_ns pf h elem sc;
                           cs_live_bytes := (largest_buffer S T + B) * elem;
                           cs_alloc_bytes := (largest_buffer S T + B) * elem;
                           cs_traffic := max_over (ranks_of S T) (received sc); cs_launches := length sc |})
      by (unfold cost_in_place; rewrite Hpl; reflexivity).
    match type of Hc with _ = Some ?c => apply (Hle c) end.
    + unfold within_candidates. apply in_or_app. right. unfold in_place_candidates.
      rewrite Hst, Hwf. fold i. rewrite Hc. left. reflexivity.
    + simpl. apply Nat.leb_le. exact (proj1 (inplace_staging_fits _ _ _ _ _ Hst)).
Qed.
