(** * Plans with a strategy: what the checker's acceptance and the planner's plans mean.

    - [xcheck_correct]: a plan the checker accepts, collectives or exchange,
      moves every state holding the source layout to one holding the target.
    - [xcheck_traffic]: what it reports each rank of the target mesh
      receives is what that rank receives in the execution.
    - [xcheck_recv_ge_bound]: no accepted plan, of any strategy, makes a rank
      receive fewer elements than the printed lower bound.
    - [plan_with_checked], [plan_with_correct], [plan_with_peak]: for every
      strategy, the planner's plan is accepted, correct, and no local array
      along it exceeds the larger of the largest source and target boxes. *)

From Coq Require Import List Arith Lia Bool FMapAVL FMapFacts OrderedTypeEx.
Import ListNotations.
From Redist Require Import Model Semantics Checker Planner Radix Semanticsproof Checkerproof
  Trafficproof Refineproof Plannerproof Plannerfinal Layout Layoutproof Exchange Exchangeproof
  Lowerbound Strategy.

Lemma pairs_eqb_eq : forall xs ys, pairs_eqb xs ys = true <-> xs = ys.
Proof.
  induction xs as [|[a b] xs IH]; intros [|[c d] ys]; simpl; try (split; congruence).
  rewrite !andb_true_iff, !Nat.eqb_eq, IH. split; [intros [[-> ->] ->]; reflexivity |].
  intros E. inversion E. auto.
Qed.

Lemma even_problem_spec : forall S T, even_problem S T = true ->
  S = even_layout (ly_m S) (ly_ty S) /\ T = even_layout (ly_m S) (ly_ty T)
  /\ problem_wf (ly_m S) (ly_ty S) (ly_ty T).
Proof.
  intros [[mS rS] tS] [[mT rT] tT] H. unfold even_problem, ly_m in H. simpl in H.
  rewrite !andb_true_iff, pairs_eqb_eq, !list_eqb_eq in H.
  destruct H as [[[[[[E1 E2] E3] Hm] Hs] Ht] Hg]. subst.
  unfold even_layout, placed_at, ly_m, problem_wf. simpl. auto 6.
Qed.

Lemma even_problem_layouts_wf : forall S T, even_problem S T = true -> layouts_wf S T = true.
Proof.
  intros S T H. destruct (even_problem_spec S T H) as [HS [HT [Hm [Hs [Ht Hg]]]]].
  rewrite HS, HT at 1. unfold layouts_wf. rewrite !layout_wf_even by assumption. simpl.
  apply list_eqb_eq. exact Hg.
Qed.

Lemma index_of_seq : forall n k w,
  index_of w (seq k n) = if (k <=? w) && (w <? k + n) then Some (w - k) else None.
Proof.
  induction n as [|n IH]; intros k w; simpl.
  - destruct (k <=? w) eqn:E1, (w <? k + 0) eqn:E2; simpl; auto.
    apply Nat.leb_le in E1. apply Nat.ltb_lt in E2. lia.
  - rewrite IH. destruct (Nat.eqb_spec k w) as [<- | Hne].
    + rewrite Nat.leb_refl, Nat.sub_diag. simpl. destruct (Nat.ltb_spec k (k + S n)); [reflexivity | lia].
    + destruct (Nat.leb_spec (S k) w), (Nat.ltb_spec w (S k + n)), (Nat.leb_spec k w), (Nat.ltb_spec w (k + S n));
        simpl; try reflexivity; try lia.
      f_equal. lia.
Qed.

Module RankMapFacts := FMapFacts.Facts RankMap.

Lemma rank_positions_find : forall ws k w,
  RankMap.find w (rank_positions ws k) = option_map (Nat.add k) (index_of w ws).
Proof.
  induction ws as [|x ws IH]; intros k w; simpl.
  - apply RankMapFacts.empty_o.
  - rewrite RankMapFacts.add_o, IH.
    destruct (Nat_as_OT.eq_dec x w) as [<- | Hne].
    + rewrite Nat.eqb_refl. simpl. f_equal. lia.
    + apply Nat.eqb_neq in Hne. rewrite Hne. destruct (index_of w ws); simpl; [f_equal; lia | reflexivity].
Qed.

Lemma table_index_spec : forall ws w, table_index (rank_table_of ws) w = index_of w ws.
Proof.
  intros [|k ws'] w; [reflexivity |]. unfold rank_table_of.
  destruct (list_eqb (k :: ws') (seq k (length (k :: ws')))) eqn:E.
  2: { unfold table_index. rewrite rank_positions_find. destruct (index_of w (k :: ws')); reflexivity. }
  apply list_eqb_eq in E. transitivity (index_of w (seq k (length (k :: ws')))).
  - rewrite index_of_seq. reflexivity.
  - rewrite <- E. reflexivity.
Qed.

Lemma rank_box_spec : forall m t k, rank_box m t k = dev_box m t (device_of_rank m k).
Proof.
  intros m t k. unfold rank_box.
  destruct (mesh_wf m && forallb (fun x => memb x (mesh_axes m)) (ty_axes t)) eqn:E; [| reflexivity].
  apply andb_true_iff in E as [Hm Hax]. rewrite forallb_forall in Hax.
  destruct (k <? mesh_size m) eqn:Hk; [| reflexivity].
  apply Nat.ltb_lt in Hk.
  unfold dev_box. rewrite map_map. apply map_ext_in. intros [xs len] Hd. unfold dim_block. simpl.
  rewrite (radix_of_rank_eq m k xs Hm Hk); [reflexivity |].
  intros x Hx. apply memb_In, Hax. unfold ty_axes. apply in_flat_map. exists (xs, len). split; assumption.
Qed.

Lemma box_in_spec : forall L w, box_in L (rank_table_of (pm_ranks (ly_mesh L))) w = pl_box L w.
Proof.
  intros L w. unfold box_in, pl_box. rewrite table_index_spec.
  destruct (index_of w (pm_ranks (ly_mesh L))); [rewrite rank_box_spec |]; reflexivity.
Qed.

Lemma fold_left_ext_in : forall (f g : nat -> nat -> nat) ws a,
  (forall acc w, f acc w = g acc w) -> fold_left f ws a = fold_left g ws a.
Proof. intros f g ws. induction ws as [|w ws IH]; intros a H; simpl; [reflexivity |]. rewrite H. apply IH, H. Qed.

(** The largest box, as [pl_box] gives the boxes. *)
Lemma largest_box_pl : forall L, largest_box L =
  fold_left (fun acc w => Nat.max acc (match pl_box L w with Some b => box_size b | None => 0 end))
            (pm_ranks (ly_mesh L)) 0.
Proof. intros L. apply fold_left_ext_in. intros acc w. rewrite box_in_spec. reflexivity. Qed.

Lemma exchange_recv_spec : forall S T r, exchange_recv S T r = recv_lower_bound S T r.
Proof.
  intros S T r. unfold exchange_recv. destruct (even_problem S T) eqn:He;
    [| unfold recv_bound_in, recv_lower_bound; rewrite !box_in_spec; reflexivity].
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
  destruct (r <? mesh_size (ly_m S)) eqn:Hr.
  - apply Nat.ltb_lt in Hr. rewrite (lower_bound_recv_even _ _ _ _ Hm Hs Ht Hr), <- HS, <- HT.
    reflexivity.
  - unfold recv_lower_bound. rewrite HT, pl_box_even, Hr. reflexivity.
Qed.

Lemma fold_max_le : forall (f : nat -> nat) ws a c, a <= c -> (forall w, In w ws -> f w <= c) ->
  fold_left (fun acc w => Nat.max acc (f w)) ws a <= c.
Proof.
  intros f ws. induction ws as [|w ws IH]; intros a c Ha Hf; simpl; [exact Ha |].
  apply IH; [apply Nat.max_lub; [exact Ha | apply Hf; left; reflexivity] |].
  intros v Hv. apply Hf. right. exact Hv.
Qed.

(** On an even layout every box is the local array of Part 1. *)
Lemma largest_box_even_le : forall m t, mesh_wf m = true -> ty_wf m t = true ->
  largest_box (even_layout m t) <= local_size m t.
Proof.
  intros m t Hm Ht. rewrite largest_box_pl. apply fold_max_le; [lia |].
  intros w Hw. simpl in Hw. apply in_seq0 in Hw as Hlt. rewrite pl_box_even.
  apply Nat.ltb_lt in Hlt as Hlt'. rewrite Hlt'. unfold box_size.
  rewrite dev_box_even_shape by (try apply device_of_rank_in; assumption). reflexivity.
Qed.

(** A collective plan over sub-axes, seen between the unrefined layouts. *)
Lemma refined_plan_holds : forall m src tgt rf p rep A (g : list nat -> A) (st : state A),
  problem_wf m src tgt -> refine_ok m rf = true ->
  check (refine_mesh rf m) (refine_ty rf src) (refine_ty rf tgt) p = OK rep ->
  pl_holds (even_layout m src) g st ->
  pl_holds (even_layout m tgt) g (exec (refine_mesh rf m) (refine_ty rf src) p st).
Proof.
  intros m src tgt rf p rep A g st [Hm [Hs [Ht _]]] Hrf Hc Hst.
  apply pl_holds_even; [exact Hm | exact Ht |]. apply (proj2 (refine_holds A rf m tgt g _ Hm Hrf Ht)).
  eapply check_correct; [exact Hc |]. apply (proj1 (refine_holds A rf m src g st Hm Hrf Hs)).
  apply pl_holds_even; assumption.
Qed.

Theorem xcheck_correct : forall S T sp rep, xcheck S T sp = OK rep ->
  forall A (g : list nat -> A) (st : state A),
  pl_holds S g st -> pl_holds T g (xexec S T sp st).
Proof.
  intros S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T rep H A g st Hst;
    simpl in H |- *.
  - destruct (even_problem S T) eqn:He; [| discriminate].
    destruct (refine_ok (ly_m S) rf) eqn:Hrf; [| discriminate].
    destruct (check _ _ _ p) as [rep'|e] eqn:Hc; [| discriminate].
    destruct (even_problem_spec S T He) as [HS [HT Hwf]].
    rewrite HT. rewrite HS in Hst. eapply refined_plan_holds; eassumption.
  - destruct (layouts_wf S T) eqn:Hwf; [| discriminate].
    apply exchange_sound; [| exact Hst]. apply spread_holder_ok. exact Hwf.
  - destruct (list_eqb _ _); [| discriminate].
    destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
    destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
    eapply IHb; [exact Hb |]. eapply IHa; eassumption.
Qed.

(** Every accepted plan is between well-formed layouts of one global shape. *)
Lemma xcheck_layouts_wf : forall S T sp rep, xcheck S T sp = OK rep -> layouts_wf S T = true.
Proof.
  intros S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T rep H; simpl in H.
  - destruct (even_problem S T) eqn:He; [| discriminate]. apply even_problem_layouts_wf. exact He.
  - destruct (layouts_wf S T) eqn:Hwf; [reflexivity | discriminate].
  - destruct (list_eqb _ _); [| discriminate].
    destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
    destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
    pose proof (IHa _ _ _ Ha) as W1. pose proof (IHb _ _ _ Hb) as W2. unfold layouts_wf in *.
    rewrite !andb_true_iff, !list_eqb_eq in *. destruct W1 as [[HS _] E1]. destruct W2 as [[_ HT] E2].
    split; [split; assumption |]. congruence.
Qed.

(** Going through an intermediate layout never lowers the bound: what [r]
    misses of its target box it misses of the intermediate box or the
    intermediate misses of it.  Argument: the two exchanges in sequence are
    valid moves from [S] to [T] and attain the bound of each leg
    ([exchange_optimal]), so [lower_bound_sound] bounds their sum. *)
Lemma recv_lower_bound_through : forall S M T r, layouts_wf S M = true -> layouts_wf M T = true ->
  recv_lower_bound S T r <= recv_lower_bound S M r + recv_lower_bound M T r.
Proof.
  intros S M T r W1 W2.
  assert (W : layouts_wf S T = true).
  { unfold layouts_wf in *. rewrite !andb_true_iff, !list_eqb_eq in *.
    destruct W1 as [[HS _] E1]. destruct W2 as [[_ HT] E2]. split; [split; assumption |]. congruence. }
  rewrite recv_lower_bound_exact by exact W.
  rewrite <- (proj1 (exchange_optimal S M r W1)), <- (proj1 (exchange_optimal M T r W2)).
  set (ms := [(exchange_wire S M (spread_holder S M), pl_shapes M);
              (exchange_wire M T (spread_holder M T), pl_shapes T)]).
  replace (exchange_received S M (spread_holder S M) r + exchange_received M T (spread_holder M T) r)
    with (moves_received ms r) by (simpl; unfold exchange_received; lia).
  apply lower_bound_sound.
  - simpl. split; [| split; [| exact I]]; apply exchange_valid_move, spread_holder_ok; assumption.
  - reflexivity.
  - intros A g st Hst. simpl. fold (exchange S M (spread_holder S M) st).
    fold (exchange M T (spread_holder M T) (exchange S M (spread_holder S M) st)).
    apply exchange_sound; [apply spread_holder_ok; exact W2 |].
    apply exchange_sound; [apply spread_holder_ok; exact W1 | exact Hst].
Qed.

Lemma even_problem_rank : forall S T r, even_problem S T = true ->
  In r (pm_ranks (ly_mesh T)) -> r < mesh_size (ly_m S).
Proof.
  intros S T r He Hr. destruct (even_problem_spec S T He) as [_ [HT _]].
  rewrite HT in Hr. simpl in Hr. apply in_seq0. exact Hr.
Qed.

Theorem xcheck_traffic : forall S T sp rep, xcheck S T sp = OK rep ->
  forall r, In r (pm_ranks (ly_mesh T)) -> xr_recv rep r = xreceived S T sp r.
Proof.
  intros S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T rep H r Hr;
    simpl in H |- *.
  - destruct (even_problem S T) eqn:He; [| discriminate].
    destruct (refine_ok (ly_m S) rf) eqn:Hrf; [| discriminate].
    destruct (check _ _ _ p) as [rep'|e] eqn:Hc; [| discriminate].
    inversion H. subst rep. simpl. f_equal. eapply check_traffic; [exact Hc |].
    destruct (even_problem_spec S T He) as [_ [_ [Hm _]]].
    rewrite refine_mesh_size by assumption. eapply even_problem_rank; eassumption.
  - destruct (layouts_wf S T) eqn:Hwf; [| discriminate]. inversion H. subst rep. simpl.
    rewrite exchange_recv_spec. symmetry. apply exchange_optimal. exact Hwf.
  - destruct (list_eqb _ _) eqn:Er; [| discriminate]. apply list_eqb_eq in Er.
    destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
    destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
    inversion H. subst rep. simpl. rewrite (IHa _ _ _ Ha r) by (rewrite Er; exact Hr).
    rewrite (IHb _ _ _ Hb r Hr). reflexivity.
Qed.

Theorem xcheck_recv_ge_bound : forall S T sp rep, xcheck S T sp = OK rep ->
  forall r, In r (pm_ranks (ly_mesh T)) -> recv_lower_bound S T r <= xr_recv rep r.
Proof.
  intros S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T rep H r Hr;
    pose proof H as Hx; simpl in H |- *.
  3: { destruct (list_eqb _ _) eqn:Er; [| discriminate]. apply list_eqb_eq in Er.
       destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
       destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
       inversion H. subst rep. simpl.
       pose proof (IHa _ _ _ Ha r ltac:(rewrite Er; exact Hr)). pose proof (IHb _ _ _ Hb r Hr).
       pose proof (recv_lower_bound_through S mid T r (xcheck_layouts_wf _ _ _ _ Ha)
                     (xcheck_layouts_wf _ _ _ _ Hb)). lia. }
  all: rewrite (xcheck_traffic S T _ rep Hx r Hr); simpl.
  - destruct (even_problem S T) eqn:He; [| discriminate].
    destruct (refine_ok (ly_m S) rf) eqn:Hrf; [| discriminate].
    destruct (check _ _ _ p) as [rep'|e] eqn:Hc; [| discriminate].
    pose proof (even_problem_rank S T r He Hr) as Hlt.
    pose proof (even_problem_layouts_wf S T He) as Hwf.
    destruct (even_problem_spec S T He) as [HS [HT Hpw]].
    set (m := ly_m S) in *. set (src := ly_ty S) in *. set (tgt := ly_ty T) in *.
    destruct (check_wf _ _ _ _ _ Hc) as [Hm' [Hs' [_ [_ Hsteps]]]].
    apply check_steps_ok in Hsteps. destruct Hsteps as [Htyped _].
    destruct (plan_moves_facts _ Hm' _ p _ Hs' Htyped) as [Hv [Hf [Hrun Hrecv]]].
    pose proof Hpw as [Hm [Hs [Ht _]]].
    assert (Hr' : r < mesh_size (refine_mesh rf m)) by (rewrite refine_mesh_size; assumption).
    rewrite recv_lower_bound_exact, <- Hrecv by assumption.
    assert (Hshape : forall t, ty_wf m t = true ->
              pl_shapes (even_layout (refine_mesh rf m) (refine_ty rf t)) r
              = pl_shapes (even_layout m t) r).
    { intros t Htw. rewrite !pl_shapes_even by (try apply refine_mesh_wf; try apply refine_ty_wf; assumption).
      rewrite refine_mesh_size, refine_local_shape by assumption. reflexivity. }
    rewrite HS, HT at 1. apply (lower_bound_moves _ _ _ _ r Hv).
    + apply Hshape. exact Hs.
    + rewrite Hf. apply Hshape. exact Ht.
    + intros A g st Hst. eapply pl_holds_ext; [intros r' l'; symmetry; apply Hrun |].
      eapply refined_plan_holds; eassumption.
  - destruct (layouts_wf S T) eqn:Hwf; [| discriminate].
    rewrite (proj1 (exchange_optimal S T r Hwf)). reflexivity.
Qed.

(** ** The planner with a strategy *)

Lemma planner_of_choice : forall m src tgt rf p c,
  planner_choice m src tgt = Some (rf, p, c) -> planner m src tgt = (rf, p).
Proof. intros m src tgt rf p c H. unfold planner. rewrite H. reflexivity. Qed.

(** Every plan the planner returns is a collective plan of the existing
    planner, on an even problem, or the exchange, on well-formed layouts. *)
Lemma plan_with_cases : forall s S T sp, plan_with s S T = Some sp ->
  (exists rf p, sp = ByCollectives rf p /\ even_problem S T = true
                /\ planner (ly_m S) (ly_ty S) (ly_ty T) = (rf, p))
  \/ (sp = ByExchange /\ layouts_wf S T = true).
Proof.
  intros s S T sp H. unfold plan_with in H.
  destruct (layouts_wf S T) eqn:Hwf;
  destruct (even_problem S T) eqn:He; destruct s; try discriminate;
    try (inversion H; subst; right; auto; fail);
    try (destruct (planner (ly_m S) (ly_ty S) (ly_ty T)) as [rf p] eqn:Hp;
         inversion H; subst; left; exists rf, p; auto; fail);
    try (destruct (planner_choice (ly_m S) (ly_ty S) (ly_ty T)) as [[[rf p] c]|] eqn:Hc;
         [destruct (cost_lt _ c); inversion H; subst;
          [right; auto | left; exists rf, p; eauto using planner_of_choice] |
          inversion H; subst; right; auto]; fail).
  exfalso. rewrite (even_problem_layouts_wf S T He) in Hwf. discriminate.
Qed.

Theorem plan_with_checked : forall s S T sp, plan_with s S T = Some sp ->
  exists rep, xcheck S T sp = OK rep.
Proof.
  intros s S T sp H. destruct (plan_with_cases s S T sp H) as [[rf [p [-> [He Hp]]]] | [-> Hwf]].
  - destruct (even_problem_spec S T He) as [_ [_ Hpw]].
    destruct (plan_total _ _ _ rf p Hpw Hp) as [Hrf [rep Hc]].
    simpl. rewrite He, Hrf. simpl. rewrite Hc. eexists. reflexivity.
  - simpl. rewrite Hwf. eexists. reflexivity.
Qed.

Theorem plan_with_correct : forall s S T sp A (g : list nat -> A) (st : state A),
  plan_with s S T = Some sp -> pl_holds S g st -> pl_holds T g (xexec S T sp st).
Proof.
  intros s S T sp A g st H Hst. destruct (plan_with_checked s S T sp H) as [rep Hc].
  eapply xcheck_correct; eassumption.
Qed.

Lemma fold_max_ge : forall (f : nat -> nat) ws a,
  a <= fold_left (fun acc w => Nat.max acc (f w)) ws a
  /\ forall w, In w ws -> f w <= fold_left (fun acc w => Nat.max acc (f w)) ws a.
Proof.
  intros f ws. induction ws as [|w ws IH]; intros a; simpl; [split; [lia | contradiction] |].
  destruct (IH (Nat.max a (f w))) as [H1 H2]. split; [lia |].
  intros v [<- | Hv]; [lia | auto].
Qed.

Lemma local_size_le_largest : forall m t, mesh_wf m = true -> ty_wf m t = true ->
  local_size m t <= largest_box (even_layout m t).
Proof.
  intros m t Hm Ht. assert (Hp : 0 < mesh_size m).
  { rewrite mesh_size_prod by exact Hm. apply shards_pos; auto. }
  rewrite largest_box_pl. eapply Nat.le_trans; [| apply (proj2 (fold_max_ge _ _ 0) 0)].
  - cbv beta. rewrite pl_box_even. pose proof Hp as Hp'. apply Nat.ltb_lt in Hp'. rewrite Hp'.
    unfold box_size. rewrite dev_box_even_shape by (try apply device_of_rank_in; assumption).
    reflexivity.
  - simpl. apply in_seq0. exact Hp.
Qed.

Lemma largest_boxes_spec : forall S T, largest_boxes S T = (largest_box S, largest_box T).
Proof.
  intros S T. unfold largest_boxes. destruct (even_problem S T) eqn:He; [| reflexivity].
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
  pose proof (local_size_le_largest _ _ Hm Hs) as A1. pose proof (largest_box_even_le _ _ Hm Hs) as B1.
  pose proof (local_size_le_largest _ _ Hm Ht) as A2. pose proof (largest_box_even_le _ _ Hm Ht) as B2.
  rewrite <- HS in A1, B1. rewrite <- HT in A2, B2. f_equal; lia.
Qed.

Theorem plan_with_peak : forall s S T sp rep, plan_with s S T = Some sp ->
  xcheck S T sp = OK rep -> xr_peak rep <= Nat.max (largest_box S) (largest_box T).
Proof.
  intros s S T sp rep H Hc. destruct (plan_with_cases s S T sp H) as [[rf [p [-> [He Hp]]]] | [-> Hwf]].
  - simpl in Hc. rewrite He in Hc.
    destruct (even_problem_spec S T He) as [HS [HT Hpw]].
    pose proof Hpw as [Hm [Hs [Ht _]]].
    destruct (plan_total _ _ _ rf p Hpw Hp) as [Hrf _]. rewrite Hrf in Hc. simpl in Hc.
    destruct (check _ _ _ p) as [rep'|e] eqn:Hck; [| discriminate]. inversion Hc. subst rep. simpl.
    rewrite (check_peak _ _ _ _ _ Hck).
    assert (Hle : list_max (map (local_size (refine_mesh rf (ly_m S))) (trace (refine_mesh rf (ly_m S)) (refine_ty rf (ly_ty S)) p))
                  <= Nat.max (local_size (ly_m S) (ly_ty S)) (local_size (ly_m S) (ly_ty T))).
    { apply list_max_le. apply Forall_forall. intros n Hn. apply in_map_iff in Hn.
      destruct Hn as [t [<- Ht']]. eapply plan_peak_le_max; eassumption. }
    pose proof (local_size_le_largest _ _ Hm Hs) as H1. rewrite <- HS in H1.
    pose proof (local_size_le_largest _ _ Hm Ht) as H2. rewrite <- HT in H2. lia.
  - simpl in Hc. rewrite Hwf in Hc. inversion Hc. rewrite largest_boxes_spec. reflexivity.
Qed.
