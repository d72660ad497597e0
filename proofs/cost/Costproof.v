(** * The choice of the fastest verified plan: what it guarantees.

    - [choose_checked], [choose_correct]: the chosen plan is one of the
      strategy's candidates and the verified checker accepts it, so its
      lowered program leaves every rank's target box in its destination
      and keeps its source.
    - [choose_within_budget]: its allocated bytes per rank (source,
      destination and the whole workspace) are within the budget, and its
      live bytes within those ([splan_live_le_alloc]).
    - [choose_fastest]: no candidate that the checker accepts and that fits
      the budget has a smaller predicted time.
    - [choose_below_minimum]: a refused budget is below the allocated bytes
      of every accepted candidate, and the figure named is the least of them.
    - [choose_answers]: under [auto] every problem gets a plan or that
      refusal (totality). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Lower Choose Cost.
From Redist Require Import Refineproof Strategyproof Lowerproof Chooseproof.

Lemma cost_candidate_spec : forall pf h elem S T i sp c, cost_candidate pf h elem S T i sp = Some c ->
  cs_plan c = sp /\ (exists rep, xcheck S T sp = OK rep)
  /\ cs_alloc_bytes c = splan_alloc_bytes elem S T sp /\ cs_time_ns c = predicted_ns pf h elem S T sp.
Proof.
  intros pf h elem S T i sp c H. unfold cost_candidate in H.
  destruct (xcheck S T sp) as [rep|e] eqn:Hx; [| discriminate].
  inversion H. subst c. simpl. split; [reflexivity | split; [eauto | split; reflexivity]].
Qed.

Lemma cost_all_sound : forall pf h elem S T sps i c, In c (cost_all pf h elem S T i sps) ->
  In (cs_plan c) sps /\ (exists rep, xcheck S T (cs_plan c) = OK rep)
  /\ cs_alloc_bytes c = splan_alloc_bytes elem S T (cs_plan c)
  /\ cs_time_ns c = predicted_ns pf h elem S T (cs_plan c).
Proof.
  intros pf h elem S T.
  apply (cost_list_sound _ (fun sp c => (exists rep, xcheck S T sp = OK rep)
    /\ cs_alloc_bytes c = splan_alloc_bytes elem S T sp /\ cs_time_ns c = predicted_ns pf h elem S T sp)).
  intros i sp c Hc. exact (cost_candidate_spec _ _ _ _ _ _ _ _ Hc).
Qed.

Lemma cost_all_complete : forall pf h elem S T sps i sp rep, In sp sps -> xcheck S T sp = OK rep ->
  exists c, In c (cost_all pf h elem S T i sps) /\ cs_plan c = sp.
Proof.
  intros pf h elem S T sps i sp rep Hin Hx. apply cost_list_complete; [exact Hin |].
  intros j. unfold cost_candidate. rewrite Hx. eexists. split; reflexivity.
Qed.

Lemma choose_best_in : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  In (ch_best ch) (cost_all pf h elem S T 0 (strategy_candidates hy s S T))
  /\ fits budget (ch_best ch) = true
  /\ forall c, In c (cost_all pf h elem S T 0 (strategy_candidates hy s S T)) -> fits budget c = true ->
     cs_time_ns (ch_best ch) <= cs_time_ns c.
Proof. intros hy pf h elem budget s S T ch H. exact (choose_among_best_in _ _ _ H). Qed.

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

(** What a rank allocates is at least what is alive on it at once, so
    the live-bytes theorems ([Lowerproof.lower_splan_live_bytes]) bound
    what happens within the allocation. *)
Theorem splan_live_le_alloc : forall elem S T sp rep, xcheck S T sp = OK rep ->
  splan_live_bytes elem S T sp <= splan_alloc_bytes elem S T sp.
Proof.
  intros elem S T sp. revert S T. unfold splan_alloc_bytes, program_alloc_bytes.
  induction sp as [rf p| |mid a IHa b IHb]; intros S T rep Hx; simpl in Hx |- *.
  - destruct (even_problem S T) eqn:He; [| discriminate]. simpl in Hx.
    destruct (refine_ok (ly_m S) rf) eqn:Hrf; [| discriminate]. simpl in Hx.
    destruct (even_problem_spec S T He) as [_ [_ [Hm [Hs [Ht _]]]]].
    unfold largest_boxes. rewrite He. simpl.
    pose proof (live_bytes_le_allocated (refine_mesh rf (ly_m S)) elem (refine_ty rf (ly_ty S)) (refine_ty rf (ly_ty T)) p)
      as Hle.
    rewrite !refine_local_size in Hle by assumption. lia.
  - destruct (layouts_wf S T); [| discriminate]. unfold exchange_live_bytes. lia.
  - destruct (negb (list_eqb (pm_ranks (ly_mesh mid)) (pm_ranks (ly_mesh T)))); [discriminate |].
    destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
    destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
    specialize (IHa S mid ra Ha). specialize (IHb mid T rb Hb).
    rewrite !largest_boxes_spec in *. simpl in *. nia.
Qed.

Theorem choose_within_budget : forall hy pf h elem b s S T ch, choose hy pf h elem (Some b) s S T = OK ch ->
  splan_live_bytes elem S T (cs_plan (ch_best ch)) <= splan_alloc_bytes elem S T (cs_plan (ch_best ch)) <= b.
Proof.
  intros hy pf h elem b s S T ch H. destruct (choose_best_in _ _ _ _ _ _ _ _ _ H) as [Hin _].
  destruct (cost_all_sound _ _ _ _ _ _ _ _ Hin) as [_ [[rep Hx] [Hl _]]].
  split; [exact (splan_live_le_alloc _ _ _ _ _ Hx) |].
  rewrite <- Hl. exact (choose_among_within_budget _ _ _ H).
Qed.

Theorem choose_fastest : forall hy pf h elem budget s S T ch, choose hy pf h elem budget s S T = OK ch ->
  cs_time_ns (ch_best ch) = predicted_ns pf h elem S T (cs_plan (ch_best ch))
  /\ forall sp rep, In sp (strategy_candidates hy s S T) -> xcheck S T sp = OK rep ->
     (forall b, budget = Some b -> splan_alloc_bytes elem S T sp <= b) ->
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

Theorem choose_below_minimum : forall hy pf h elem budget s S T least_alloc,
  choose hy pf h elem budget s S T = Error (BelowMinimum least_alloc) ->
  (exists b, budget = Some b /\ b < least_alloc)
  /\ (forall sp rep, In sp (strategy_candidates hy s S T) -> xcheck S T sp = OK rep ->
      least_alloc <= splan_alloc_bytes elem S T sp)
  /\ exists sp rep, In sp (strategy_candidates hy s S T) /\ xcheck S T sp = OK rep
     /\ splan_alloc_bytes elem S T sp = least_alloc.
Proof.
  intros hy pf h elem budget s S T least_alloc H.
  destruct (choose_among_below_minimum _ _ _ H) as [Hb [Hle [c [Hc Hl]]]].
  split; [exact Hb | split].
  - intros sp rep Hsp Hx. destruct (cost_all_complete pf h elem S T _ 0 sp rep Hsp Hx) as [x [Hin <-]].
    destruct (cost_all_sound _ _ _ _ _ _ _ _ Hin) as [_ [_ [Hl' _]]]. rewrite <- Hl'. apply Hle, Hin.
  - destruct (cost_all_sound _ _ _ _ _ _ _ _ Hc) as [Hsp [[rep Hx] [Hl' _]]].
    exists (cs_plan c), rep. rewrite <- Hl'. auto.
Qed.

(** Totality of [auto]: for every pair of layouts of one array (the front
    end's check), the choice is a plan, or a refusal because a budget was
    given and is below every candidate (whose least figure
    [choose_below_minimum] names); never "no candidate". *)
Theorem choose_answers : forall hy pf h elem budget S T, layouts_wf S T = true ->
  (exists ch, choose hy pf h elem budget StratAuto S T = OK ch)
  \/ exists b least_alloc, budget = Some b /\ choose hy pf h elem budget StratAuto S T = Error (BelowMinimum least_alloc).
Proof.
  intros hy pf h elem budget S T Hwf.
  assert (Hin : In ByExchange (strategy_candidates hy StratAuto S T)).
  { simpl. rewrite Hwf. apply in_or_app. right. apply in_or_app. left. left. reflexivity. }
  assert (Hx : exists rep, xcheck S T ByExchange = OK rep) by (simpl; rewrite Hwf; eexists; reflexivity).
  destruct Hx as [rep Hx].
  destruct (cost_all_complete pf h elem S T _ 0 ByExchange rep Hin Hx) as [c [Hc _]].
  apply choose_among_answers. intros E. rewrite E in Hc. contradiction.
Qed.

(** ** Single copy

    A profile without single copy prices every plan by MPI: it is its own
    [without_single_copy] and [single_copy_profile]
    ([single_copy_absent]), so every step's price is the same
    ([single_copy_absent_steps]).  With it, no step costs more where the
    single-copy link is no slower ([Costclosed.single_copy_no_slower]). *)

Theorem single_copy_absent : forall pf, pf_single_copy pf = None ->
  single_copy_profile pf = pf /\ without_single_copy pf = pf.
Proof.
  intros [sh ah cp sc] H. simpl in H. subst sc. split; reflexivity.
Qed.

Theorem single_copy_absent_steps : forall pf h elem pg, pf_single_copy pf = None ->
  program_steps_ns (without_single_copy pf) h elem pg = program_steps_ns pf h elem pg.
Proof.
  intros pf h elem pg H. destruct (single_copy_absent pf H) as [_ ->]. reflexivity.
Qed.
