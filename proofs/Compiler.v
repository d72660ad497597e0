(** * The end-to-end guarantees of the collectives strategy, in one place.

    For every well-formed problem (mesh [m], source type [src], target type
    [tgt], elements of [elem] bytes), the planner's plan lowered to runtime
    calls ([Lower.lower] on the refined mesh):
    - leaves every rank's target box in its destination, its source intact,
      both with the semantics' wire maps and with the runtime's rank-space
      arithmetic on the printed calls ([Lowerproof.lower_plan_correct],
      [Lowerproof.lower_rank_correct], [Plannerproof.plan_total]);
    - keeps, at every call, at most [live_bytes] bytes alive on a rank, and
      [live_bytes <= (|src| + |tgt| + 2 * max(|src|, |tgt|)) * elem + scratch]
      and [<= (|src| + |tgt| + 3 * max(|src|, |tgt|)) * elem]
      ([Lowerproof.live_bytes_le], [live_bytes_le_sizes], [Plannerfinal.plan_peak_le_max]);
    - asks for a workspace that is exactly the furthest byte some call uses
      ([Lowerproof.lower_workspace_exact]);
    - makes each rank receive at most [length p * L + (|tgt| - L)] elements,
      [L <= min(|src|, |tgt|)] the local size after the slices
      ([Plannerfinal.plan_traffic_bound]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Layout Exchange Strategy Lower Sums Sumexchange Sumstrategy Lowersums
  Lowersumx.
From Redist Require Import Checkerproof Refineproof Plannerproof Plannerfinal Strategyproof Lowerproof Sumsproof Sumstrategyproof Lowersumsproof
  Lowersumxproof.
From Redist Require Import Choose Cost Costproof.

Theorem redist_collectives_correct : forall m src tgt rf p elem,
  problem_wf m src tgt -> planner m src tgt = (rf, p) ->
  let m' := refine_mesh rf m in
  let src' := refine_ty rf src in
  let cs := lower m' elem src' p in
  (forall A (g : list nat -> A) (st other : state A), holds m src g st ->
     let bs := interp m' cs (initial_buffers st other) in
     holds m tgt g (bs BDst) /\ bs BSrc = st
     /\ holds m tgt g (interp_rank cs (initial_buffers st other) BDst))
  /\ (forall c, In c cs ->
        call_live (local_size m src * elem) (local_size m tgt * elem) c
        <= live_bytes m' elem src' (refine_ty rf tgt) p)
  /\ live_bytes m' elem src' (refine_ty rf tgt) p
     <= (local_size m src + local_size m tgt + 2 * Nat.max (local_size m src) (local_size m tgt))
        * elem + scratch_bytes cs
  /\ live_bytes m' elem src' (refine_ty rf tgt) p
     <= (local_size m src + local_size m tgt + 3 * Nat.max (local_size m src) (local_size m tgt))
        * elem
  /\ workspace_bytes cs = list_max (map (call_extent cs) cs)
  /\ exists L, L <= local_size m src /\ L <= local_size m tgt
     /\ forall r, r < mesh_size m ->
        list_sum (received_trace m' src' p r) <= length p * L + (local_size m tgt - L).
Proof.
  intros m src tgt rf p elem Hwf Hp m' src' cs.
  destruct (plan_total m src tgt rf p Hwf Hp) as [Hrf [rep Hc]].
  pose proof Hwf as [Hm [Hs [Ht _]]].
  assert (Es : local_size m' src' = local_size m src) by (apply refine_local_size; assumption).
  assert (Et : local_size m' (refine_ty rf tgt) = local_size m tgt)
    by (apply refine_local_size; assumption).
  split; [| split; [| split; [| split; [| split]]]].
  - intros A g st other Hst bs.
    assert (Hst' : holds m' src' g st) by (apply refine_holds; assumption).
    destruct (lower_plan_correct m' src' (refine_ty rf tgt) p rep elem Hc A g st other Hst')
      as [Hd Hk].
    split; [apply (refine_holds A rf m tgt g); assumption | split; [exact Hk |]].
    apply (refine_holds A rf m tgt g); [assumption .. |].
    apply (lower_rank_correct m' src' (refine_ty rf tgt) p rep elem Hc A g st other Hst').
  - intros c Hin. rewrite <- Es, <- Et.
    apply (proj1 (lower_live_bytes m' src' (refine_ty rf tgt) p rep elem Hc)), Hin.
  - rewrite <- Es, <- Et at 1. apply live_bytes_le.
    intros t Htr. apply (plan_peak_le_max m src tgt rf p Hwf Hp t Htr).
  - rewrite <- Es, <- Et at 1. apply (live_bytes_le_sizes m' src' (refine_ty rf tgt) p rep elem _ Hc).
    intros t Htr. apply (plan_peak_le_max m src tgt rf p Hwf Hp t Htr).
  - apply lower_workspace_exact.
  - destruct (plan_traffic_bound m src tgt rf p Hwf Hp)
      as [sl [fl [ga [mid [-> [_ [_ [_ [_ [H1 [H2 H3]]]]]]]]]]].
    subst m' src' cs. exists (local_size (refine_mesh rf m) mid). split; [exact H1 | split; [exact H2 |]].
    intros r Hr. specialize (H3 r Hr). rewrite !app_length in *.
    assert (length fl * local_size (refine_mesh rf m) mid
            <= (length sl + (length fl + length ga)) * local_size (refine_mesh rf m) mid)
      by (apply Nat.mul_le_mono_r; lia).
    lia.
Qed.

(** Any strategy the planner returns (collectives or the direct exchange,
    any placed meshes and layouts it accepts), its program lowered:
    - moves every rank's source box to its target box and keeps the source
      ([Lowerproof.lower_splan_correct]; the exchange read as its messages,
      [Lowerproof.lower_exchange_wire]);
    - keeps at most [splan_live_bytes] bytes alive on a rank
      ([Lowerproof.live_covered]: at every call of the collectives, on
      every rank in the exchange, where the figure is exactly
      [(largest source box + largest target box) * elem]), and
      [splan_live_bytes <= (S + T + 3 * max(S, T)) * elem], [S] and [T] the
      largest source and target boxes ([Lowerproof.lower_splan_live_bytes],
      [redist_collectives_correct]);
    - asks for exactly the workspace its calls use, none for the exchange
      ([Lowerproof.lower_splan_workspace_exact]);
    - makes every rank of the target mesh receive exactly the traffic the
      checker reports, never less than the printed lower bound
      ([Strategyproof.xcheck_traffic], [xcheck_recv_ge_bound]). *)
Theorem redist_correct : forall s S T sp elem, plan_with s S T = Some sp ->
  (forall A (g : list nat -> A) (st other : state A), pl_holds S g st ->
     let bs := run_program (lower_splan elem S T sp) (initial_buffers st other) in
     pl_holds T g (bs BDst) /\ bs BSrc = st)
  /\ live_covered elem S T sp
  /\ splan_live_bytes elem S T sp
     <= (largest_box S + largest_box T + 3 * Nat.max (largest_box S) (largest_box T)) * elem
  /\ program_workspace_exact (lower_splan elem S T sp)
  /\ exists rep, xcheck S T sp = OK rep
     /\ forall r, In r (pm_ranks (ly_mesh T)) ->
        xreceived S T sp r = xr_recv rep r /\ recv_lower_bound S T r <= xr_recv rep r.
Proof.
  intros s S T sp elem H.
  destruct (plan_with_checked s S T sp H) as [rep Hc].
  pose proof (lower_splan_live_bytes elem S T sp) as Hlive.
  split; [| split; [exact Hlive | split; [| split; [apply lower_splan_workspace_exact |]]]].
  - intros A g st other Hst. apply (lower_splan_correct S T sp rep elem Hc A g st other Hst).
  - destruct (plan_with_cases s S T sp H) as [[rf [p [-> [He Hp]]]] | [-> _]].
    + destruct (even_problem_spec S T He) as [HS [HT Hpw]]. pose proof Hpw as [Hm [Hs [Ht _]]].
      assert (ES : largest_box S = local_size (ly_m S) (ly_ty S)).
      { rewrite HS at 1. pose proof (local_size_le_largest _ _ Hm Hs). pose proof (largest_box_even_le _ _ Hm Hs). lia. }
      assert (ET : largest_box T = local_size (ly_m S) (ly_ty T)).
      { rewrite HT at 1. pose proof (local_size_le_largest _ _ Hm Ht). pose proof (largest_box_even_le _ _ Hm Ht). lia. }
      rewrite ES, ET. cbn [splan_live_bytes].
      pose proof (redist_collectives_correct _ _ _ rf p elem Hpw Hp) as Hrc. cbv zeta in Hrc.
      destruct Hrc as [_ [_ [_ [H3 _]]]]. exact H3.
    + destruct Hlive as [-> _]. apply Nat.mul_le_mono_r. lia.
  - exists rep. split; [exact Hc |]. intros r Hr. split.
    + symmetry. apply (xcheck_traffic S T sp rep Hc r Hr).
    + apply (xcheck_recv_ge_bound S T sp rep Hc r Hr).
Qed.

(** Pending sums, any plan [plan_sums] returns (any strategy: reductions
    and collectives, or the reducing exchange), for every commutative
    monoid, lowered ([Lowersumx.lower_sumplan]) with a fill that is sound
    for it ([Sumsproof.fill_sound]: [KeepOne] for every monoid, [KeepAll]
    for max and min, [Reductionsproof.keep_all_sound]) and run:
    - every rank's destination holds its target box under the target's
      pending sums, and its source is kept
      ([Lowersumsproof.lower_sums_holds], [Lowersumxproof.lower_sumx_correct]);
    - by collectives ([Lowersums.lower_sums]: the reductions, the
      collectives, the additions of pending axes): at every call at most
      [sumplan_live_bytes] bytes are alive on a rank (source, destination,
      the reduction arrays the call reads and writes, during the
      collectives the array the reductions left, the call's ping, pong and
      scratch: [lower_sums_live_bytes]); the workspace is exactly the
      furthest byte some call uses ([lower_sums_workspace_exact]); each
      reduction and addition has its axis's group in rank space
      ([lower_sums_groups]);
    - by the reducing exchange ([Lowersumx.lower_sumx]): on every world
      rank its source box, target box and staging are at most
      [sumplan_live_bytes], which is
      [(largest source box + (1 + |G|) * largest target box) * elem]
      ([sumx_live_le]); the workspace is the largest staging of a target
      rank and every rank's staging fits in it ([sumx_workspace_exact]);
    - every rank of the target mesh receives exactly what the checker
      reports ([Sumstrategyproof.scheck_traffic]) and, for a plain target,
      never less than the printed bound ([scheck_recv_ge_bound]). *)
Theorem redist_sums_correct : forall s S ps T pt sp elem fl,
  plan_sums s S ps T pt = Some sp ->
  let lw := lower_sumplan elem fl S ps T pt sp in
  let live := sumplan_live_bytes elem fl S ps T pt sp in
  (forall M (g : list nat -> carrier M) (st other : state (carrier M)), fill_sound M fl -> pl_sholds M S ps g st ->
     let bs := run_sumplan M lw st other in
     pl_sholds M T pt g (bs SDst) /\ bs SSrc = st)
  /\ match lw with
     | SumCalls pg =>
         let sb := local_size (ly_m S) (ly_ty S) * elem in
         let tb := local_size (ly_m S) (ly_ty T) * elem in
         (forall c, In c (sg_pre pg ++ sg_post pg) -> rcall_live sb tb c <= live)
         /\ (forall c, In c (sg_calls pg) -> coll_live pg sb tb c <= live)
         /\ sumplan_workspace_bytes lw = sum_program_extent pg
         /\ (forall c w s, In c (sg_pre pg ++ sg_post pg) -> rc_group c = (w, s) ->
               let a := sum_step_axis (rc_step c) in
               s = axis_size (ly_m S) a /\ forall r, r < mesh_size (ly_m S) -> device_of_rank (ly_m S) r a = r / w mod s)
     | SumExchangeCall _ =>
         live = (largest_box S + (1 + group_size (ly_m S) ps) * largest_box T) * elem
         /\ (forall w, sumx_live elem S ps T pt w <= live)
         /\ sumplan_workspace_bytes lw = list_max (map (sumx_staging_bytes elem S ps T pt) (pm_ranks (ly_mesh T)))
         /\ (forall w, sumx_staging_bytes elem S ps T pt w <= sumplan_workspace_bytes lw)
     end
  /\ exists rep, scheck S ps T pt sp = OK rep
     /\ forall r, In r (pm_ranks (ly_mesh T)) ->
        sreceived S ps T pt sp r = sm_recv rep r /\ (pt = [] -> sum_recv_bound S ps T r <= sm_recv rep r).
Proof.
  intros s S ps T pt sp elem fl H lw live.
  destruct (plan_sums_checked s S ps T pt sp H) as [rep Hc].
  split; [| split].
  - intros M g st other Hfl Hst. apply (lower_sumplan_correct s S ps T pt sp elem fl H M g st other Hfl Hst).
  - unfold lw, live, sumplan_live_bytes. destruct sp as [pre rf p post|]; cbn [lower_sumplan sumplan_workspace_bytes].
    + split; [| split; [| split]].
      * apply (proj1 (lower_sums_live_bytes elem fl S ps T pre rf p post _ _)).
      * apply (proj2 (lower_sums_live_bytes elem fl S ps T pre rf p post _ _)).
      * apply lower_sums_workspace_exact.
      * exact (lower_sums_groups S ps T pt pre rf p post rep elem fl Hc).
    + destruct (sumx_live_le elem S ps T pt) as [E Hle].
      destruct (sumx_workspace_exact elem S ps T pt) as [W Hw].
      cbn [sx_workspace_bytes lower_sumx]. split; [exact E | split; [exact Hle | split; [exact W | exact Hw]]].
  - exists rep. split; [exact Hc |]. intros r Hr. split.
    + symmetry. apply (scheck_traffic S ps T pt sp rep Hc r Hr).
    + intros ->. apply (scheck_recv_ge_bound S ps T sp rep Hc r Hr).
Qed.

(** What the command runs: [Cost.choose] picks, among the candidates the
    verified checker accepts (collective plans, the exchange, hybrids of
    the two through an intermediate layout), the fastest under a machine
    profile within a budget of bytes per rank.  Its plan, lowered:
    - moves every rank's source box to its target box and keeps the source
      (a hybrid: its first part leaves the intermediate layout's boxes in
      the workspace, its second takes them to the target boxes);
    - keeps at most [splan_live_bytes] bytes alive on a rank
      ([Lowerproof.live_covered]: at every call of the collectives, on
      every rank in the exchange, in each part of a hybrid with the user's
      other array on top), and that figure is within what the caller
      allocates on a rank ([splan_alloc_bytes]: source, destination and the
      whole workspace), which is within the budget when one is given;
    - asks for exactly the workspace its calls use (a hybrid: the largest
      intermediate box, then the larger of its parts' workspaces);
    - makes every rank of the target mesh receive exactly the reported
      traffic (a hybrid: the sum over its parts), never less than the
      printed lower bound;
    - and no accepted candidate within the budget has a smaller predicted
      time ([Costproof.choose_fastest]). *)
Theorem redist_chosen_correct : forall hy pf h elem budget s S T ch,
  choose hy pf h elem budget s S T = OK ch ->
  let sp := cs_plan (ch_best ch) in
  (forall A (g : list nat -> A) (st other : state A), pl_holds S g st ->
     let bs := run_program (lower_splan elem S T sp) (initial_buffers st other) in
     pl_holds T g (bs BDst) /\ bs BSrc = st)
  /\ live_covered elem S T sp
  /\ splan_live_bytes elem S T sp <= splan_alloc_bytes elem S T sp
  /\ (forall b, budget = Some b -> splan_alloc_bytes elem S T sp <= b)
  /\ program_workspace_exact (lower_splan elem S T sp)
  /\ exists rep, xcheck S T sp = OK rep
     /\ forall r, In r (pm_ranks (ly_mesh T)) ->
        xreceived S T sp r = xr_recv rep r /\ recv_lower_bound S T r <= xr_recv rep r.
Proof.
  intros hy pf h elem budget s S T ch H sp.
  destruct (choose_checked _ _ _ _ _ _ _ _ _ H) as [_ [rep Hc]].
  split; [| split; [apply lower_splan_live_bytes | split; [| split; [| split; [apply lower_splan_workspace_exact |]]]]].
  - apply (choose_correct _ _ _ _ _ _ _ _ _ H).
  - exact (splan_live_le_alloc _ _ _ _ _ Hc).
  - intros b ->. apply (choose_within_budget _ _ _ _ _ _ _ _ _ H).
  - exists rep. split; [exact Hc |]. intros r Hr. split.
    + symmetry. apply (xcheck_traffic S T sp rep Hc r Hr).
    + apply (xcheck_recv_ge_bound S T sp rep Hc r Hr).
Qed.
