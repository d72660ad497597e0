(** * The choice of the fastest verified plan: what it guarantees.

    - [choose_checked], [choose_correct]: the chosen plan is one of the
      strategy's candidates and the verified checker accepts it, so its
      lowered program leaves every rank's target box in its destination
      and keeps its source.
    - [choose_within_budget]: its live bytes per rank are within the budget.
    - [choose_fastest]: no candidate that the checker accepts and that fits
      the budget has a smaller predicted time.
    - [choose_below_minimum]: a refused budget is below the live bytes of
      every accepted candidate, and the figure named is the least of them.
    - [choose_answers]: under [auto] every problem gets a plan or that
      refusal (totality). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Lower Cost.
From Redist Require Import Strategyproof Lowerproof.

Lemma cost_candidate_spec : forall pf h elem S T i sp c, cost_candidate pf h elem S T i sp = Some c ->
  cs_plan c = sp /\ (exists rep, xcheck S T sp = OK rep)
  /\ cs_live_bytes c = splan_live_bytes elem S T sp /\ cs_time_ns c = predicted_ns pf h elem S T sp.
Proof.
  intros pf h elem S T i sp c H. unfold cost_candidate in H.
  destruct (xcheck S T sp) as [rep|e] eqn:Hx; [| discriminate].
  inversion H. subst c. simpl. split; [reflexivity | split; [eauto | split; [| reflexivity]]].
  destruct sp; reflexivity.
Qed.

Lemma cost_all_sound : forall pf h elem S T sps i c, In c (cost_all pf h elem S T i sps) ->
  In (cs_plan c) sps /\ (exists rep, xcheck S T (cs_plan c) = OK rep)
  /\ cs_live_bytes c = splan_live_bytes elem S T (cs_plan c)
  /\ cs_time_ns c = predicted_ns pf h elem S T (cs_plan c).
Proof.
  intros pf h elem S T sps. induction sps as [|sp sps IH]; intros i c Hin; simpl in Hin; [contradiction |].
  destruct (cost_candidate pf h elem S T i sp) as [c'|] eqn:Hc.
  - destruct Hin as [<- | Hin].
    + destruct (cost_candidate_spec _ _ _ _ _ _ _ _ Hc) as [-> [Hx [Hl Ht]]]. simpl. auto.
    + destruct (IH _ _ Hin) as [Hsp Hrest]. split; [right; exact Hsp | exact Hrest].
  - destruct (IH _ _ Hin) as [Hsp Hrest]. split; [right; exact Hsp | exact Hrest].
Qed.

Lemma cost_all_complete : forall pf h elem S T sps i sp rep, In sp sps -> xcheck S T sp = OK rep ->
  exists c, In c (cost_all pf h elem S T i sps) /\ cs_plan c = sp.
Proof.
  intros pf h elem S T sps. induction sps as [|sp0 sps IH]; intros i sp rep Hin Hx; [contradiction |].
  simpl. destruct Hin as [<- | Hin].
  - unfold cost_candidate at 1. rewrite Hx. eexists. split; [left; reflexivity | reflexivity].
  - destruct (IH (Nat.succ i) sp rep Hin Hx) as [c [Hc Hp]].
    destruct (cost_candidate pf h elem S T i sp0); eexists; split; try (right; exact Hc); try exact Hc; exact Hp.
Qed.

Lemma cheaper_time : forall a b, cheaper a b = true -> cs_time_ns a <= cs_time_ns b.
Proof.
  intros a b H. unfold cheaper in H. simpl in H.
  apply orb_true_iff in H as [H | H]; [apply Nat.ltb_lt in H; lia |].
  apply andb_true_iff in H as [H _]. apply Nat.eqb_eq in H. lia.
Qed.

Lemma not_cheaper_time : forall a b, cheaper a b = false -> cs_time_ns b <= cs_time_ns a.
Proof.
  intros a b H. unfold cheaper in H. simpl in H.
  apply orb_false_iff in H as [H _]. apply Nat.ltb_ge in H. exact H.
Qed.

Lemma least_spec : forall cs c,
  In (least c cs) (c :: cs) /\ forall x, In x (c :: cs) -> cs_time_ns (least c cs) <= cs_time_ns x.
Proof.
  unfold least. induction cs as [|c' cs IH]; intros c; simpl.
  - split; [left; reflexivity | intros x [<- | []]; lia].
  - destruct (cheaper c' c) eqn:Hch.
    + destruct (IH c') as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [right; left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- pose proof (cheaper_time _ _ Hch). specialize (Hle c' (or_introl eq_refl)). lia.
        -- apply Hle. left. reflexivity.
        -- apply Hle. right. exact Hx.
    + destruct (IH c) as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- apply Hle. left. reflexivity.
        -- pose proof (not_cheaper_time _ _ Hch). specialize (Hle c (or_introl eq_refl)). lia.
        -- apply Hle. right. exact Hx.
Qed.

Lemma choose_best_in : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  In (ch_best ch) (cost_all pf h elem S T 0 (strategy_candidates hy s S T))
  /\ fits budget (ch_best ch) = true
  /\ forall c, In c (cost_all pf h elem S T 0 (strategy_candidates hy s S T)) -> fits budget c = true ->
     cs_time_ns (ch_best ch) <= cs_time_ns c.
Proof.
  intros hy pf h elem budget s S T ch H. unfold choose in H.
  set (all := cost_all pf h elem S T 0 (strategy_candidates hy s S T)) in *.
  destruct (filter (fits budget) all) as [|c cs] eqn:Hf; [destruct all; discriminate |].
  inversion H. subst ch. simpl. destruct (least_spec cs c) as [Hin Hle].
  assert (Hsub : forall x, In x (c :: cs) <-> In x all /\ fits budget x = true)
    by (intros x; rewrite <- Hf; apply filter_In).
  split; [apply Hsub, Hin |]. split; [apply Hsub, Hin |].
  intros x Hx Hfx. apply Hle, Hsub. auto.
Qed.

Theorem choose_checked : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  In (cs_plan (ch_best ch)) (strategy_candidates hy s S T)
  /\ exists rep, xcheck S T (cs_plan (ch_best ch)) = OK rep.
Proof.
  intros hy pf h elem budget s S T ch H. destruct (choose_best_in _ _ _ _ _ _ _ _ _ H) as [Hin _].
  destruct (cost_all_sound _ _ _ _ _ _ _ _ Hin) as [Hsp [Hx _]]. auto.
Qed.

Theorem choose_correct : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  forall A (g : list nat -> A) (st other : state A), pl_holds S g st ->
  let bs := run_program (lower_splan elem S T (cs_plan (ch_best ch))) (initial_buffers st other) in
  pl_holds T g (bs BDst) /\ bs BSrc = st.
Proof.
  intros hy pf h elem budget s S T ch H A g st other Hst.
  destruct (choose_checked _ _ _ _ _ _ _ _ _ H) as [_ [rep Hx]].
  apply (lower_splan_correct S T _ rep elem Hx A g st other Hst).
Qed.

Theorem choose_within_budget : forall hy pf h elem b s S T ch, choose hy pf h elem (Some b) s S T = OK ch ->
  splan_live_bytes elem S T (cs_plan (ch_best ch)) <= b.
Proof.
  intros hy pf h elem b s S T ch H. destruct (choose_best_in _ _ _ _ _ _ _ _ _ H) as [Hin [Hfit _]].
  destruct (cost_all_sound _ _ _ _ _ _ _ _ Hin) as [_ [_ [Hl _]]].
  simpl in Hfit. apply Nat.leb_le in Hfit. lia.
Qed.

Theorem choose_fastest : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  cs_time_ns (ch_best ch) = predicted_ns pf h elem S T (cs_plan (ch_best ch))
  /\ forall sp rep, In sp (strategy_candidates hy s S T) -> xcheck S T sp = OK rep ->
     (forall b, budget = Some b -> splan_live_bytes elem S T sp <= b) ->
     cs_time_ns (ch_best ch) <= predicted_ns pf h elem S T sp.
Proof.
  intros hy pf h elem budget s S T ch H. destruct (choose_best_in _ _ _ _ _ _ _ _ _ H) as [Hin [_ Hle]].
  split; [apply (cost_all_sound _ _ _ _ _ _ _ _ Hin) |].
  intros sp rep Hsp Hx Hb.
  destruct (cost_all_complete pf h elem S T _ 0 sp rep Hsp Hx) as [c [Hc <-]].
  destruct (cost_all_sound _ _ _ _ _ _ _ _ Hc) as [_ [_ [Hl Ht]]].
  rewrite <- Ht. apply Hle; [exact Hc |].
  destruct budget as [b|]; [simpl | reflexivity]. apply Nat.leb_le. rewrite Hl. apply Hb. reflexivity.
Qed.

Lemma fold_min_spec : forall l a,
  (fold_left Nat.min l a = a \/ In (fold_left Nat.min l a) l)
  /\ fold_left Nat.min l a <= a /\ forall x, In x l -> fold_left Nat.min l a <= x.
Proof.
  induction l as [|y l IH]; intros a; simpl; [split; [left |]; auto; split; [lia | contradiction] |].
  destruct (IH (Nat.min a y)) as [Hat [Ha Hx]]. split; [| split].
  - destruct Hat as [-> | Hin]; [| right; right; exact Hin].
    destruct (Nat.min_spec a y) as [[_ ->] | [_ ->]]; [left | right; left]; reflexivity.
  - lia.
  - intros x [<- | Hin]; [lia | apply Hx, Hin].
Qed.

Theorem choose_below_minimum : forall hy pf h elem budget s S T least_live,
  choose hy pf h elem budget s S T = Error (BelowMinimum least_live) ->
  (exists b, budget = Some b /\ b < least_live)
  /\ (forall sp rep, In sp (strategy_candidates hy s S T) -> xcheck S T sp = OK rep ->
      least_live <= splan_live_bytes elem S T sp)
  /\ exists sp rep, In sp (strategy_candidates hy s S T) /\ xcheck S T sp = OK rep
     /\ splan_live_bytes elem S T sp = least_live.
Proof.
  intros hy pf h elem budget s S T least_live H. unfold choose in H.
  set (all := cost_all pf h elem S T 0 (strategy_candidates hy s S T)) in *.
  destruct (filter (fits budget) all) as [|c0 cs0] eqn:Hf; [| discriminate].
  destruct all as [|c cs] eqn:Ha; [discriminate |]. inversion H. subst least_live.
  assert (Hnofit : forall x, In x (c :: cs) -> fits budget x = false).
  { intros x Hx. destruct (fits budget x) eqn:Hfx; [| reflexivity].
    assert (In x (filter (fits budget) (c :: cs))) by (apply filter_In; auto).
    rewrite Hf in H0. contradiction. }
  destruct (fold_min_spec (map cs_live_bytes cs) (cs_live_bytes c)) as [Hat [Hc Hx]].
  assert (Hmin : forall x, In x (c :: cs) -> fold_left Nat.min (map cs_live_bytes cs) (cs_live_bytes c)
                                             <= cs_live_bytes x).
  { intros x [<- | Hin]; [exact Hc | apply Hx, in_map, Hin]. }
  assert (Hsound : forall x, In x (c :: cs) -> _) by (intros x Hin; rewrite <- Ha in Hin;
    exact (cost_all_sound _ _ _ _ _ _ _ _ Hin)).
  split; [| split].
  - destruct budget as [b|]; [| specialize (Hnofit c (or_introl eq_refl)); discriminate].
    exists b. split; [reflexivity |].
    destruct Hat as [-> | Hin].
    + specialize (Hnofit c (or_introl eq_refl)). simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
    + apply in_map_iff in Hin as [x [<- Hin]]. specialize (Hnofit x (or_intror Hin)).
      simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
  - intros sp rep Hsp Hxc.
    destruct (cost_all_complete pf h elem S T _ 0 sp rep Hsp Hxc) as [x [Hin <-]].
    fold all in Hin. rewrite Ha in Hin.
    destruct (Hsound x Hin) as [_ [_ [Hl _]]]. rewrite <- Hl. apply Hmin, Hin.
  - assert (Hw : exists x, In x (c :: cs)
                 /\ cs_live_bytes x = fold_left Nat.min (map cs_live_bytes cs) (cs_live_bytes c)).
    { destruct Hat as [Heq | Hin]; [exists c; split; [left |]; auto |].
      apply in_map_iff in Hin as [x [Hx' Hin]]. exists x. split; [right; exact Hin | exact Hx']. }
    destruct Hw as [x [Hin Hl']]. destruct (Hsound x Hin) as [Hsp [[rep Hxc] [Hl _]]].
    exists (cs_plan x), rep. rewrite <- Hl. auto.
Qed.

(** Totality of [auto]: for every pair of layouts of one array (the front
    end's check), the choice is a plan, or a refusal because a budget was
    given and is below every candidate (whose least figure
    [choose_below_minimum] names); never "no candidate". *)
Theorem choose_answers : forall hy pf h elem budget S T, layouts_wf S T = true ->
  (exists ch, choose hy pf h elem budget StratAuto S T = OK ch)
  \/ exists b least_live, budget = Some b /\ choose hy pf h elem budget StratAuto S T = Error (BelowMinimum least_live).
Proof.
  intros hy pf h elem budget S T Hwf.
  assert (Hin : In ByExchange (strategy_candidates hy StratAuto S T)).
  { simpl. rewrite Hwf. apply in_or_app. right. apply in_or_app. left. left. reflexivity. }
  assert (Hx : exists rep, xcheck S T ByExchange = OK rep) by (simpl; rewrite Hwf; eexists; reflexivity).
  destruct Hx as [rep Hx].
  destruct (cost_all_complete pf h elem S T _ 0 ByExchange rep Hin Hx) as [c [Hc _]].
  unfold choose.
  set (all := cost_all pf h elem S T 0 (strategy_candidates hy StratAuto S T)) in *.
  destruct (filter (fits budget) all) as [|c0 cs0] eqn:Hf; [| left; eexists; reflexivity].
  right. destruct budget as [b|].
  - exists b. destruct all as [|c1 cs1]; [contradiction |]. eexists. split; reflexivity.
  - assert (Hc' : In c (filter (fits None) all)) by (apply filter_In; split; [exact Hc | reflexivity]).
    rewrite Hf in Hc'. contradiction.
Qed.
