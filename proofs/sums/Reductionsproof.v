(** * Reductions beyond sum: what each operation guarantees (Part 3).

    - max and min are idempotent: a group whose members all hold one value
      combines to that value ([group_sum_copies]), so a target whose pending
      groups' members all hold their box of the array holds the array
      ([copies_sholds]), and adding a pending axis may leave every member's
      value as it is ([add_pending_keep_sound]; for whole sequences of
      steps run by the one [Sums.exec_sum_plan] with [KeepAll],
      [keep_plan_sound], [keep_all_sound]): what the runtime does for max
      and min, where sum and prod keep the value on one member
      ([Reductions.fill_of], [fill_of_sound]).
    - max and min from a plain source: the lowered calls of the planner's
      collective plans leave every target rank holding its box of the array
      itself ([max_min_plain_keeps_value]; the plans reduce nothing and only
      add pending axes, [plan_sums_plain_additions]).
    - [redist_sums_correct_for_op], [choose_sums_correct_for_op]: the
      end-to-end pending-sum theorems, which hold for any commutative
      monoid and a fill sound for it, instantiated once over the
      operation: sum, prod (wrapping), max and min on every integer type
      of the runtime, the lowered calls' additions with the operation's
      fill ([fill_of]): every rank of the target ends with its box under
      the target's pending reductions.
    - avg, the sum over the group then one division by its size: members
      all holding one value are avg-denoting it ([copies_aholds]), and a
      plan's result to a plain target, added in every step and divided
      once by the source's group size, is every rank's box of the average of the contributions
      ([redist_avg_correct]).  To a target with pending avg axes, the
      collective plans' lowered calls with every member of an added axis
      keeping its value ([KeepAll]), then one division by the product of
      the sizes of the groups the lowered reductions add over
      ([avg_divisor], the runtime's), leave every target group averaging
      to its box of the average ([redist_avg_pending_correct]: axes kept,
      added, or both).  The rationals are an exact carrier for it
      ([Qc_avg]).  Everything is stated about the data every rank ends
      with. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Layout Layoutproof Sums Sumsproof
  Sumexchange Sumstrategy Sumstrategyproof Strategy Strategyproof Lowersums Lowersumx Lowersumxproof Choose Costsums
  Costsumsproof Compiler Reductions Refineproof Checkerproof Layoutproof Strategyproof Lowersumsproof Lower
  Trafficproof Sumplanbound Checker Plannerproof.

(** ** Groups of copies *)

Section Copies.
Variable M : cmonoid.
Notation A := (carrier M).

Lemma msum_repeat_add : forall (v : A) a b,
  msum M (repeat v (a + b)) = add M (msum M (repeat v a)) (msum M (repeat v b)).
Proof.
  intros v a b. induction a as [|a IH]; simpl.
  - rewrite msum_nil, add_zero_l. reflexivity.
  - rewrite !msum_cons, IH. apply add_assoc.
Qed.

Lemma map_const_repeat : forall B (v : A) (ks : list B), map (fun _ => v) ks = repeat v (length ks).
Proof. intros B v ks. induction ks as [|k ks IH]; simpl; [reflexivity | f_equal; exact IH]. Qed.

Lemma msum_repeat_repeat : forall (v : A) n s,
  msum M (repeat (msum M (repeat v n)) s) = msum M (repeat v (s * n)).
Proof.
  intros v n s. induction s as [|s IH]; simpl; [reflexivity |].
  rewrite msum_cons, IH, msum_repeat_add. reflexivity.
Qed.

(** A group sum of one value everywhere: that value once per member. *)
Lemma group_sum_const : forall m ps xs c (v : A),
  group_sum_along M m ps xs c (fun _ => v)
  = msum M (repeat v (prod (map (axis_size m) (filter (fun x => memb x ps) xs)))).
Proof.
  intros m ps xs. induction xs as [|x xs IH]; intros c v; simpl.
  - symmetry. apply msum_single.
  - destruct (memb x ps); [| apply IH]. simpl.
    rewrite (msum_ext_in M _ _ (fun _ => msum M (repeat v (prod (map (axis_size m)
                                  (filter (fun x => memb x ps) xs))))))
      by (intros k _; apply IH).
    rewrite map_const_repeat, seq_length. apply msum_repeat_repeat.
Qed.

Lemma group_size_pos : forall m ps, mesh_wf m = true -> 1 <= group_size m ps.
Proof.
  intros m ps Hm. apply shards_pos; [exact Hm |].
  intros x Hx. apply filter_In in Hx. apply Hx.
Qed.

(** What the pending value of a rank is when every member of its group
    holds the rank's box of [g]: [g] at the position, once per member. *)
Lemma pl_pending_value_copies : forall L ps g (st : state A) w b l,
  pl_pending_wf L ps = true -> pl_holds L g st -> pl_box L w = Some b -> in_box (box_shape b) l ->
  pl_pending_value M L ps st w l = msum M (repeat (g (box_global b l)) (group_size (ly_m L) ps)).
Proof.
  intros L ps g st w b l Hw Hst Hb Hl.
  destruct (pl_pending_wf_parts L ps Hw) as [HL Hps].
  destruct (layout_parts L HL) as [Hm [Hlen [Hnd Htm]]].
  unfold pl_pending_value. unfold pl_box in Hb.
  destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
  injection Hb as Hb. destruct (index_of_Some _ _ _ Hk) as [Hkl _].
  set (c := device_of_rank (ly_m L) k) in *.
  assert (Hc : device_in (ly_m L) c) by (apply device_of_rank_in; [exact Hm | rewrite <- Hlen; exact Hkl]).
  unfold group_sum.
  rewrite (group_sum_in_group M (ly_m L) ps c _ (fun _ => g (box_global b l))); [| exact Hc |].
  - apply group_sum_const.
  - intros c' Hc' Hgroup.
    assert (Hbox : dev_box (ly_m L) (ly_ty L) c' = b).
    { rewrite <- Hb. apply dev_box_ext. intros x Hx. apply Hgroup.
      destruct (memb x ps) eqn:Hxp; [| reflexivity]. exfalso. exact (Hps x Hxp Hx). }
    apply (Hst _ b); [rewrite pl_box_world_rank by assumption; f_equal; exact Hbox | exact Hl].
Qed.

(** Adding a pending axis [a] without moving any data: every member keeps
    its value, so each new group combines [|a|] old groups of [g], one per
    coordinate along [a] (the runtime's add_pending for max, min and avg). *)
Lemma add_pending_copies : forall m p a p' g (st : state A),
  mesh_wf m = true -> pty_wf m p = true -> sum_step_type m p (AddPending a) = OK p' ->
  sholds M m p g st -> sholds M m p' (fun i => msum M (repeat (g i) (axis_size m a))) st.
Proof.
  intros m [t ps] a p' g st Hm Hw Hk Hst. simpl in Hk.
  destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hk; [| discriminate].
  destruct (memb a (ty_axes t)) eqn:Hat; [discriminate |].
  destruct (memb a ps) eqn:Ha; [discriminate |]. inversion Hk. subst p'. clear Hk.
  apply memb_In in Ham.
  destruct (pty_wf_elim m t ps Hw) as [Ht _].
  unfold sholds in *. simpl in *. intros r Hr l Hl.
  set (c := device_of_rank m r).
  assert (Hc : device_in m c) by (apply device_of_rank_in; assumption).
  unfold pending_value, group_sum.
  rewrite (group_sum_regroup M m (a :: ps) (mesh_axes m) a); auto;
    [| apply respects_rank | simpl; rewrite Nat.eqb_refl; reflexivity
     | apply mesh_wf_NoDup; exact Hm].
  rewrite (group_sum_pending_ext M m _ ps)
    by (intros y _; rewrite memb_remove_axis; unfold memb; simpl;
        destruct (Nat.eqb_spec y a) as [-> | _];
        [simpl; symmetry; exact Ha | simpl; apply andb_true_r]).
  rewrite group_sum_linear.
  rewrite (msum_ext_in M _ _ (fun _ => g (box_index m t c l))).
  - rewrite map_const_repeat, seq_length. reflexivity.
  - intros k Hk. apply in_seq in Hk.
    fold c. rewrite <- (group_sum_set_coord M m ps (mesh_axes m) c (fun c' => st (rank m c') l) a k)
      by first [apply respects_rank | right; exact Ha].
    set (ck := set_coord c a k).
    assert (Hck : device_in m ck) by (apply device_in_set_coord; [exact Hc | lia]).
    rewrite (group_sum_device_ext M m ps _ ck (device_of_rank m (rank m ck)))
      by (auto using respects_rank; intros y Hy; symmetry; apply coord_through_rank; assumption).
    fold (group_sum M m ps (device_of_rank m (rank m ck)) (fun c' => st (rank m c') l)).
    fold (pending_value M m ps st (rank m ck) l).
    rewrite (holds_at_device m t _ g (pending_value M m ps st) ck l Hm Ht Hst Hck Hl).
    f_equal. apply box_index_ext. intros x Hx. unfold ck, set_coord.
    destruct (Nat.eqb_spec x a) as [-> | _]; [| reflexivity].
    apply memb_false_notIn in Hat. contradiction.
Qed.

(** ** Idempotent operations: max and min *)

Hypothesis Hidem : idempotent M.

Lemma msum_repeat_idempotent : forall (v : A) n, 1 <= n -> msum M (repeat v n) = v.
Proof.
  intros v n Hn. destruct n as [|n]; [lia |]. clear Hn. induction n as [|n IH].
  - apply msum_single.
  - change (repeat v (S (S n))) with (v :: repeat v (S n)).
    rewrite msum_cons, IH. apply Hidem.
Qed.

(** The sum over any group of copies of [v] is [v]. *)
Theorem group_sum_copies : forall m ps c (v : A), mesh_wf m = true ->
  group_sum M m ps c (fun _ => v) = v.
Proof.
  intros m ps c v Hm. unfold group_sum. rewrite group_sum_const.
  apply msum_repeat_idempotent. apply (group_size_pos m ps Hm).
Qed.

(** A target whose pending groups' members all hold their box of [g]
    (pending axes shard nothing: the members' boxes are one box) holds [g]:
    what a new max or min axis leaves on every member. *)
Theorem copies_sholds : forall L ps g (st : state A),
  pl_pending_wf L ps = true -> pl_holds L g st -> pl_sholds M L ps g st.
Proof.
  intros L ps g st Hw Hst w b Hb l Hl.
  rewrite (pl_pending_value_copies L ps g st w b l Hw Hst Hb Hl).
  apply msum_repeat_idempotent. apply group_size_pos, layout_mesh_wf, (pl_pending_wf_parts L ps Hw).
Qed.

(** Adding a pending axis without moving any data: every member keeps its
    value (the runtime's add_pending for max and min). *)
Theorem add_pending_keep_sound : forall m p a p' g (st : state A),
  mesh_wf m = true -> pty_wf m p = true -> sum_step_type m p (AddPending a) = OK p' ->
  sholds M m p g st -> sholds M m p' g st.
Proof.
  intros m p a p' g st Hm Hw Hk Hst r Hr l Hl.
  rewrite (add_pending_copies m p a p' g st Hm Hw Hk Hst r Hr l Hl).
  apply msum_repeat_idempotent, mesh_wf_size_pos; [exact Hm |].
  exact (sum_step_axis_in_mesh m p (AddPending a) p' Hw Hk).
Qed.

End Copies.

(** ** The one execution with every member keeping its value *)

(** For an idempotent operation, a sequence of steps that type-checks,
    run with every member keeping its value where an axis becomes pending
    ([KeepAll]), takes every state holding the source to one holding the
    target. *)
Theorem keep_plan_sound : forall M m ks p p' g (st : state (carrier M)),
  idempotent M -> mesh_wf m = true -> pty_wf m p = true -> sum_plan_type m p ks = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_sum_plan M KeepAll m p ks st).
Proof.
  intros M m ks. induction ks as [|k ks IH]; intros p p' g st Hid Hm Hw Hk Hst; simpl in *.
  - inversion Hk. subst. exact Hst.
  - destruct (sum_step_type m p k) as [p1|] eqn:Hk1; [| discriminate].
    apply (IH p1); [exact Hid | exact Hm | eapply sum_step_type_wf; eassumption | exact Hk |].
    destruct k as [d a | a | a]; simpl;
      [eapply sum_step_sound; eassumption | eapply sum_step_sound; eassumption
      | eapply add_pending_keep_sound; eassumption].
Qed.

Theorem keep_all_sound : forall M, idempotent M -> fill_sound M KeepAll.
Proof. intros M Hid m ks p p' g st. apply keep_plan_sound. exact Hid. Qed.

(** Each operation's fill is sound for it. *)
Theorem fill_of_sound : forall o t, fill_sound (monoid_of o t) (fill_of o).
Proof.
  intros [| | |] t; [apply keep_one_sound | apply keep_one_sound | |];
    apply keep_all_sound; intros x; apply ival_eq; simpl; rewrite proj_pick;
    destruct (Bool.eqb _ _); reflexivity.
Qed.

(** ** max and min from a plain source: every member keeps the value *)

(** A sequence of steps that only makes axes pending. *)
Definition only_additions (ks : list sum_step) : bool :=
  forallb (fun k => match k with AddPending _ => true | _ => false end) ks.

Lemma only_additions_add_steps : forall xs, only_additions (add_steps xs) = true.
Proof. intros xs. unfold add_steps. induction (rev xs) as [|a l IH]; simpl; [reflexivity | exact IH]. Qed.

(** With every member keeping its value, additions move no data. *)
Lemma exec_keep_additions : forall M m ks p (st : state (carrier M)),
  only_additions ks = true -> exec_sum_plan M KeepAll m p ks st = st.
Proof.
  intros M m ks. induction ks as [|k ks IH]; intros p st H; [reflexivity |].
  destruct k as [d a | a | a]; try discriminate. simpl in H |- *.
  destruct (sum_step_type m p (AddPending a)); [apply IH; exact H | reflexivity].
Qed.

(** A plan [scheck] accepts from a plain source with no reducing step and
    only additions after the collectives, run with [KeepAll], leaves every
    target rank holding its box of the array: the collectives move plain
    values, and the additions leave them on every member. *)
Theorem keep_all_plain_holds : forall S T pt rf p post rep,
  scheck S [] T pt (SumByCollectives [] rf p post) = OK rep -> only_additions post = true ->
  forall M g (st : state (carrier M)),
  pl_holds S g st -> pl_holds T g (sexec M KeepAll S [] T pt (SumByCollectives [] rf p post) st).
Proof.
  intros S T pt rf p post rep H Hadd M g st Hst.
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
    as [pre_reps [t1 [kept [crep [post_reps
        [He [_ [_ [Hpre [Hrf [Hc [_ [_ [_ [_ _]]]]]]]]]]]]]]].
  cbn [sum_steps_check] in Hpre. injection Hpre as _ E1 E2. subst t1 kept.
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
  set (m := ly_m S) in *.
  cbn [sexec reduced sum_plan_type exec_sum_plan fst snd]. fold m.
  rewrite exec_keep_additions by exact Hadd.
  rewrite HT. apply pl_holds_even; [exact Hm | exact Ht |].
  apply (proj2 (refine_holds _ rf m (ly_ty T) g _ Hm Hrf Ht)).
  eapply check_correct; [exact Hc |].
  apply (proj1 (refine_holds _ rf m (ly_ty S) g st Hm Hrf Hs)).
  rewrite HS in Hst. apply (pl_holds_even m (ly_ty S)) in Hst; assumption.
Qed.

(** A sequence of steps that only reduces pending axes. *)
Definition only_reductions (ks : list sum_step) : bool :=
  forallb (fun k => match k with AddPending _ => false | _ => true end) ks.

Lemma only_reductions_reduce_steps : forall ar m tgt axes p, only_reductions (reduce_steps ar m tgt p axes) = true.
Proof.
  intros ar m tgt axes. induction axes as [|a axes IH]; intros p; [reflexivity |]. simpl.
  destruct (sum_step_type m p (reduce_choice ar m tgt (fst p) a)) as [p'|].
  - destruct (reduce_choice_axis m ar tgt (fst p) a) as [[d ->] | ->]; apply IH.
  - destruct (sum_step_type m p (AllReduce a)); [apply IH | reflexivity].
Qed.

(** The collective strategy's candidates reduce, then run collectives, then
    only add pending axes. *)
Lemma sum_collectives_steps : forall S ps T pt sp c, sum_collectives S ps T pt = Some (sp, c) ->
  exists pre rf p post, sp = SumByCollectives pre rf p post
                        /\ only_reductions pre = true /\ only_additions post = true.
Proof.
  intros S ps T pt sp c Hc. unfold sum_collectives in Hc.
  apply cheapest_in, filter_In in Hc. destruct Hc as [Hin _].
  apply in_flat_map in Hin. destruct Hin as [o [Ho Hin]].
  destruct Ho as [<- | [<- | [<- | []]]].
  1: { unfold keep_candidate in Hin.
       destruct (sum_steps_check _ _ _) as [[reps p1]|]; [| destruct Hin].
       destruct Hin as [E | []]. injection E as <- _.
       do 4 eexists. split; [reflexivity |].
       split; [apply only_reductions_reduce_steps | apply only_additions_add_steps]. }
  (* The two sum candidates (all-reduce where the target is replicated, or not). *)
  all: unfold sum_candidate in Hin;
    destruct (sum_steps_check _ _ _) as [[reps [t1 [|a kept]]]|]; try destruct Hin;
    destruct (Planner.planner_choice _ _ _) as [[[rf' p'] [tr la]]|]; [| destruct Hin];
    destruct Hin as [E | []]; injection E as <- _;
    do 4 eexists; (split; [reflexivity |]);
    split; [apply only_reductions_reduce_steps | apply only_additions_add_steps].
Qed.

(** The collective strategy, which the command uses for an avg target with
    pending axes, plans by collectives. *)
Lemma plan_sums_collectives_kind : forall S ps T pt sp, plan_sums StratCollectives S ps T pt = Some sp ->
  exists pre rf p post, sp = SumByCollectives pre rf p post.
Proof.
  intros S ps T pt sp H. unfold plan_sums in H.
  destruct (even_problem S T); [| discriminate].
  destruct (sum_collectives S ps T pt) as [[sp' c]|] eqn:E; simpl in H; [| discriminate].
  injection H as <-. destruct (sum_collectives_steps S ps T pt sp' c E) as [pre [rf [p [post [-> _]]]]].
  eauto.
Qed.

(** So do the collective plans of every strategy. *)
Lemma plan_sums_collectives_steps : forall s S ps T pt pre rf p post,
  plan_sums s S ps T pt = Some (SumByCollectives pre rf p post) ->
  only_reductions pre = true /\ only_additions post = true.
Proof.
  intros s S ps T pt pre rf p post H.
  assert (Hc : exists c, sum_collectives S ps T pt = Some (SumByCollectives pre rf p post, c)).
  { unfold plan_sums in H.
    destruct (even_problem S T); destruct s; destruct (sum_exchange_ok S ps T pt);
      destruct (sum_collectives S ps T pt) as [[sp' c]|] eqn:E; simpl in H; try discriminate;
      try (destruct (Planner.cost_lt _ c); try discriminate); injection H as <-; eauto. }
  destruct Hc as [c Hc].
  destruct (sum_collectives_steps S ps T pt _ c Hc) as [pre' [rf' [p' [post' [E [Hr Ha]]]]]].
  injection E as -> _ _ ->. split; assumption.
Qed.

(** From a plain source they reduce nothing: there is no pending axis. *)
Lemma plan_sums_plain_additions : forall s S T pt pre rf p post,
  plan_sums s S [] T pt = Some (SumByCollectives pre rf p post) -> pre = [] /\ only_additions post = true.
Proof.
  intros s S T pt pre rf p post H.
  destruct (plan_sums_collectives_steps s S [] T pt pre rf p post H) as [Hr Hadd].
  split; [| exact Hadd].
  destruct (plan_sums_checked s S [] T pt _ H) as [rep Hc].
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ Hc) as [pre_reps [t1 [kept [crep [post_reps [_ [_ [_ [Hpre _]]]]]]]]].
  destruct pre as [|[d a | a | a] pre]; [reflexivity | discriminate | discriminate | discriminate].
Qed.

(** For max and min on any integer type, from a plain source: the lowered
    calls of any collective plan [plan_sums] returns (the command's
    [--strategy collectives], or [auto] when it picks the collectives)
    leave every target rank holding its box of the array itself, every
    member of a pending group keeping the value (DTensor's Replicate to
    Partial for max and min), not only the group combining to it.  The
    reducing exchange is not covered: it leaves the identity on all members
    of a target group but one, whatever the operation. *)
Theorem max_min_plain_keeps_value : forall (o : op) (t : int_ty) s S T pt pre rf p post elem,
  fill_of o = KeepAll ->
  plan_sums s S [] T pt = Some (SumByCollectives pre rf p post) ->
  forall (g : list nat -> carrier (monoid_of o t)) (st other : state (carrier (monoid_of o t))),
  pl_holds S g st ->
  let bs := run_sumplan (monoid_of o t) (lower_sumplan elem (fill_of o) S [] T pt (SumByCollectives pre rf p post))
              st other in
  pl_holds T g (bs SDst) /\ bs SSrc = st.
Proof.
  intros o t s S T pt pre rf p post elem Hfill H g st other Hst bs.
  destruct (plan_sums_plain_additions s S T pt pre rf p post H) as [-> Hadd].
  destruct (plan_sums_checked s S [] T pt _ H) as [rep Hc].
  pose proof (lower_sums_correct S [] T pt [] rf p post rep elem (fill_of o) Hc (monoid_of o t) st other) as [Hdst Hsrc].
  unfold bs. cbn [lower_sumplan run_sumplan]. split; [| exact Hsrc].
  rewrite Hdst, Hfill. exact (keep_all_plain_holds S T pt rf p post rep Hc Hadd _ g st Hst).
Qed.

(** ** Every headline pending-sum theorem, for every operation *)

Theorem redist_sums_correct_for_op : forall (o : op) (t : int_ty) s S ps T pt sp elem,
  plan_sums s S ps T pt = Some sp ->
  forall (g : list nat -> carrier (monoid_of o t)) (st other : state (carrier (monoid_of o t))),
  pl_sholds (monoid_of o t) S ps g st ->
  let bs := run_sumplan (monoid_of o t) (lower_sumplan elem (fill_of o) S ps T pt sp) st other in
  pl_sholds (monoid_of o t) T pt g (bs SDst) /\ bs SSrc = st.
Proof.
  intros o t s S ps T pt sp elem H g st other Hst.
  apply (proj1 (redist_sums_correct s S ps T pt sp elem (fill_of o) H) (monoid_of o t) g st other
           (fill_of_sound o t) Hst).
Qed.

(** The plan the command runs ([Costsums.choose_sums]). *)
Theorem choose_sums_correct_for_op : forall (o : op) (t : int_ty) pf h elem budget s S ps T pt ch,
  choose_sums pf h elem (fill_of o) budget s S ps T pt = OK ch ->
  forall (g : list nat -> carrier (monoid_of o t)) (st other : state (carrier (monoid_of o t))),
  pl_sholds (monoid_of o t) S ps g st ->
  let bs := run_sumplan (monoid_of o t) (lower_sumplan elem (fill_of o) S ps T pt (cs_plan (ch_best ch))) st other in
  pl_sholds (monoid_of o t) T pt g (bs SDst) /\ bs SSrc = st.
Proof.
  intros o t pf h elem budget s S ps T pt ch H g st other.
  apply (choose_sums_correct pf h elem (fill_of o) budget s S ps T pt ch H (monoid_of o t) g st other
           (fill_of_sound o t)).
Qed.

(** ** avg: the sum over the group, then one division by its size *)

(** Every plan [scheck] accepts is between well-formed layouts. *)
Lemma scheck_layouts_wf : forall S ps T pt sp rep, scheck S ps T pt sp = OK rep -> layouts_wf S T = true.
Proof.
  intros S ps T pt [pre rf p post|] rep H.
  - destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H) as [_ [_ [_ [_ [_ [He _]]]]]].
    apply even_problem_layouts_wf. exact He.
  - simpl in H. destruct (sum_exchange_ok S ps T pt) eqn:Hok; [| discriminate].
    apply (sum_exchange_ok_parts S ps T pt Hok).
Qed.

(** With no pending axis, a layout's pending value is what each rank holds. *)
Lemma pl_sholds_nil : forall M L g (st : state (carrier M)), layout_wf L = true ->
  pl_sholds M L [] g st -> pl_holds L g st.
Proof.
  intros M L g st HL H w b Hb l Hl. rewrite <- (H w b Hb l Hl).
  destruct (layout_parts L HL) as [Hm [Hlen _]].
  unfold pl_pending_value. unfold pl_box in Hb.
  destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
  destruct (index_of_Some _ _ _ Hk) as [Hkl Hnk].
  unfold group_sum. rewrite group_sum_empty. unfold world_rank.
  assert (Hk' : k < mesh_size (ly_m L)) by lia.
  pose proof (rank_device_of_rank _ k Hm Hk') as E. unfold ly_m in E at 1. rewrite E, Hnk. reflexivity.
Qed.

(** ** Group sizes along a plan *)

Lemma prod_cons : forall x xs, prod (x :: xs) = x * prod xs.
Proof. reflexivity. Qed.

(** The product of the sizes of the axes of steps. *)
Definition steps_size (m : mesh) (ks : list sum_step) : nat :=
  prod (map (fun k => axis_size m (sum_step_axis k)) ks).

Lemma group_size_ext : forall m q q', (forall x, memb x q = memb x q') -> group_size m q = group_size m q'.
Proof. intros m q q' H. unfold group_size. do 2 f_equal. apply filter_ext. exact H. Qed.

(** A group's size: its size along [a] times the size of the rest. *)
Lemma group_size_split : forall m q a, mesh_wf m = true -> In a (mesh_axes m) ->
  group_size m q = (if memb a q then axis_size m a else 1) * group_size m (remove_axis a q).
Proof.
  intros m q a Hm Ha. unfold group_size. pose proof (mesh_wf_NoDup m Hm) as Hnd.
  revert Ha Hnd. generalize (mesh_axes m) as xs. induction xs as [|x xs IH]; intros Ha Hnd; [destruct Ha |].
  inversion Hnd as [|? ? Hx Hnd']. subst. cbn [filter]. rewrite memb_remove_axis.
  destruct (Nat.eqb_spec x a) as [-> | Hxa].
  - rewrite andb_false_r.
    assert (E : filter (fun y => memb y q) xs = filter (fun y => memb y (remove_axis a q)) xs).
    { apply filter_ext_in. intros y Hy. rewrite memb_remove_axis.
      destruct (Nat.eqb_spec y a) as [-> | _]; [contradiction | rewrite andb_true_r; reflexivity]. }
    rewrite E. destruct (memb a q); simpl; lia.
  - destruct Ha as [-> | Ha]; [contradiction |]. rewrite andb_true_r.
    destruct (memb x q); cbn [map]; rewrite ?prod_cons, (IH Ha Hnd'); [ring | reflexivity].
Qed.

(** Reductions divide the group size by the sizes of the axes they reduce. *)
Lemma reductions_group_size : forall m ks t q p', mesh_wf m = true -> pty_wf m (t, q) = true ->
  only_reductions ks = true -> sum_plan_type m (t, q) ks = OK p' ->
  group_size m q = steps_size m ks * group_size m (snd p').
Proof.
  intros m ks. induction ks as [|k ks IH]; intros t q p' Hm Hw Hr Hk; cbn [sum_plan_type] in Hk.
  - injection Hk as <-. simpl. lia.
  - destruct (sum_step_type m (t, q) k) as [[t1 q1]|] eqn:Hs; [| discriminate].
    simpl in Hr. apply andb_true_iff in Hr. destruct Hr as [Hk1 Hr].
    pose proof (sum_step_axis_in_mesh m _ k _ Hw Hs) as Hax.
    assert (E : memb (sum_step_axis k) q = true /\ q1 = remove_axis (sum_step_axis k) q).
    { destruct k as [d a | a | a]; [| | discriminate]; simpl in Hs |- *;
        destruct (memb a q); simpl in Hs; try discriminate;
        [destruct (nth_error t d) as [[xs n]|]; [| discriminate];
         destruct (_ =? 0); simpl in Hs; [| discriminate] |];
        injection Hs as _ <-; auto. }
    destruct E as [Ha Hq1].
    rewrite (group_size_split m q (sum_step_axis k) Hm Hax), Ha, <- Hq1.
    rewrite (IH t1 q1 p' Hm (sum_step_type_wf m Hm _ k _ Hw Hs) Hr Hk).
    unfold steps_size. rewrite map_cons, prod_cons. ring.
Qed.

Lemma sholds_ext_fun : forall M m p (g g' : list nat -> carrier M) (st : state (carrier M)),
  (forall i, g i = g' i) -> sholds M m p g st -> sholds M m p g' st.
Proof. intros M m p g g' st E H r Hr l Hl. rewrite <- E. apply H; assumption. Qed.

(** Additions with every member keeping its value move no data: each
    addition of [a] multiplies the group size by [|a|], and the number of
    copies of [h] a group combines by the same. *)
Lemma additions_copies : forall M m ks t q p' h c (st : state (carrier M)), mesh_wf m = true ->
  pty_wf m (t, q) = true -> only_additions ks = true -> sum_plan_type m (t, q) ks = OK p' ->
  sholds M m (t, q) (fun i => msum M (repeat (h i) c)) st ->
  sholds M m p' (fun i => msum M (repeat (h i) (steps_size m ks * c))) st
  /\ group_size m (snd p') = steps_size m ks * group_size m q.
Proof.
  intros M m ks. induction ks as [|k ks IH]; intros t q p' h c st Hm Hw Ha Hk Hst; cbn [sum_plan_type] in Hk.
  - injection Hk as <-. split; [| simpl; lia].
    eapply sholds_ext_fun; [| exact Hst]. intros i. simpl. rewrite Nat.add_0_r. reflexivity.
  - destruct k as [d a | a | a]; [discriminate | discriminate |]. simpl in Ha.
    destruct (sum_step_type m (t, q) (AddPending a)) as [[t1 q1]|] eqn:Hs; [| discriminate].
    assert (E : t1 = t /\ q1 = a :: q /\ memb a q = false /\ In a (mesh_axes m)).
    { simpl in Hs. destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hs; [| discriminate].
      destruct (memb a (ty_axes t)); [discriminate |].
      destruct (memb a q) eqn:Haq; [discriminate |]. injection Hs as <- <-.
      repeat split; [apply memb_In, Ham]. }
    destruct E as [-> [-> [Haq Hax]]].
    pose proof (add_pending_copies M m (t, q) a (t, a :: q) _ st Hm Hw Hs Hst) as H1.
    apply (sholds_ext_fun M m _ _ (fun i => msum M (repeat (h i) (axis_size m a * c)))) in H1;
      [| intros i; apply msum_repeat_repeat].
    destruct (IH t (a :: q) p' h (axis_size m a * c) st Hm (sum_step_type_wf m Hm _ _ _ Hw Hs) Ha Hk H1)
      as [H2 E2].
    assert (Ea : group_size m (a :: q) = axis_size m a * group_size m q).
    { rewrite (group_size_split m (a :: q) a Hm Hax). simpl memb. rewrite Nat.eqb_refl. simpl orb.
      f_equal. apply group_size_ext. intros y. rewrite memb_remove_axis. simpl memb.
      destruct (Nat.eqb_spec y a) as [-> | _]; simpl; [symmetry; exact Haq | apply andb_true_r]. }
    unfold steps_size in *. rewrite map_cons, prod_cons. cbn [sum_step_axis]. split.
    + eapply sholds_ext_fun; [| exact H2]. intros i.
      apply (f_equal (fun n => msum M (repeat (h i) n))). ring.
    + rewrite E2, Ea. ring.
Qed.

(** ** What the runtime divides an avg by *)

(** [avg_divisor] (proofs/lower/Lowersums.v) is what the runtime divides by. *)

Lemma reductions_divisor : forall m elem fl ks p p' inb, mesh_wf m = true -> pty_wf m p = true ->
  sum_plan_type m p ks = OK p' ->
  prod (map (fun c => snd (rc_group c)) (lower_reductions m elem fl p ks inb)) = steps_size m ks.
Proof.
  intros m elem fl ks. induction ks as [|k ks IH]; intros p p' inb Hm Hw Hk; [reflexivity |].
  simpl in Hk |- *. destruct (sum_step_type m p k) as [p1|] eqn:Hs; [| discriminate].
  cbn [map prod fold_right]. fold (prod (map (fun c => snd (rc_group c)) (lower_reductions m elem fl p1 ks (next_red inb)))).
  rewrite (IH p1 p' (next_red inb) Hm (sum_step_type_wf m Hm p k p1 Hw Hs) Hk).
  unfold steps_size. cbn [map prod fold_right]. f_equal.
  unfold sum_call, axis_group. simpl rc_group.
  destruct (rank_weights_spec m (sum_step_axis k) Hm (sum_step_axis_in_mesh m p k p1 Hw Hs)) as [xs [ys [_ ->]]].
  reflexivity.
Qed.

(** Reductions read no fill. *)
Lemma exec_reductions_fill : forall M m ks p fl fl' (st : state (carrier M)),
  only_reductions ks = true -> exec_sum_plan M fl m p ks st = exec_sum_plan M fl' m p ks st.
Proof.
  intros M m ks. induction ks as [|k ks IH]; intros p fl fl' st H; [reflexivity |].
  destruct k as [d a | a | a]; [| | discriminate]; simpl in H |- *;
    (destruct (sum_step_type m p _); [destruct fl, fl'; apply IH; exact H | reflexivity]).
Qed.

(** An accepted collective plan without its additions is accepted to the
    axes its reductions keep pending. *)
Lemma scheck_without_additions : forall S ps T pt pre rf p post rep,
  scheck S ps T pt (SumByCollectives pre rf p post) = OK rep ->
  exists rep', scheck S ps T (snd (reduced (ly_m S) (ly_ty S, ps) pre)) (SumByCollectives pre rf p []) = OK rep'.
Proof.
  intros S ps T pt pre rf p post rep H.
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ H)
    as [pre_reps [t1 [kept [crep [post_reps
        [He [Hws [Hwt [Hpre [Hrf [Hc [Hkept [_ [_ [Hred _]]]]]]]]]]]]]]].
  destruct (even_problem_spec S T He) as [_ [_ [Hm [_ [Ht _]]]]].
  assert (Hwk : pty_wf (ly_m S) (ly_ty T, kept) = true).
  { destruct Hkept as [-> | [_ <-]]; [unfold pty_wf; simpl; rewrite Ht; reflexivity |].
    exact (sum_plan_type_wf _ Hm pre _ _ Hws (sum_steps_check_type _ _ _ _ _ Hpre)). }
  rewrite Hred. simpl. eexists. unfold scheck.
  rewrite He, Hws, Hwk, Hpre, Hrf, Hc. simpl.
  replace (is_empty kept || (is_empty p && ty_eqb t1 (ly_ty T))) with true
    by (destruct Hkept as [-> | [-> ->]]; [reflexivity | rewrite ty_eqb_refl, orb_true_r; reflexivity]).
  rewrite ty_eqb_refl, same_axes_refl. reflexivity.
Qed.

Section Avg.
Variable F : avg_carrier.
Notation M := (av_monoid F).
Notation A := (carrier (av_monoid F)).

(** What the [ps]-group of world rank [w] averages to at local index [l]. *)
Definition pl_avg_value (L : layout) (ps : list axis) (st : state A) : state A :=
  fun w l => av_div F (pl_pending_value M L ps st w l) (group_size (ly_m L) ps).

(** [pl_aholds L ps g st]: every rank's group averages to its box of [g]. *)
Definition pl_aholds (L : layout) (ps : list axis) (g : list nat -> A) (st : state A) : Prop :=
  pl_holds L g (pl_avg_value L ps st).

(** The average of group sums [g] over groups of [n] members. *)
Definition avg_of (n : nat) (g : list nat -> A) : list nat -> A := fun i => av_div F (g i) n.

(** A target whose pending groups' members all hold their box of [g] is
    avg-denoting [g]: what a new avg axis leaves on every member. *)
Theorem copies_aholds : forall L ps g (st : state A),
  pl_pending_wf L ps = true -> pl_holds L g st -> pl_aholds L ps g st.
Proof.
  intros L ps g st Hw Hst w b Hb l Hl. unfold pl_avg_value.
  rewrite (pl_pending_value_copies M L ps g st w b l Hw Hst Hb Hl).
  apply av_div_copies. apply group_size_pos, layout_mesh_wf, (pl_pending_wf_parts L ps Hw).
Qed.

(** Contributions summing over each group of [n] members to [g] are
    avg-denoting [avg_of n g]. *)
Lemma sholds_aholds : forall L ps g (st : state A),
  pl_sholds M L ps g st -> pl_aholds L ps (avg_of (group_size (ly_m L) ps) g) st.
Proof. intros L ps g st Hst w b Hb l Hl. unfold pl_avg_value, avg_of. f_equal. apply (Hst w b Hb l Hl). Qed.

(** avg by any plan [plan_sums] returns to a plain target, as the runtime
    runs it: every step adds (the sum's calls, lowered and run; a plain
    target has no axis to add, so no fill), and one division at the end,
    by [n], the product of the sizes of the axes the plan reduced (all of
    [ps]: [Sumexchange.group_size]).  If the source's contributions sum,
    over each group of [n] members, to [g], the source is avg-denoting
    [avg_of n g], and that one division leaves every target rank with its
    box of [avg_of n g]. *)
Theorem redist_avg_correct : forall s S ps T sp elem (g : list nat -> A) (st other : state A),
  plan_sums s S ps T [] = Some sp -> pl_sholds M S ps g st ->
  let n := group_size (ly_m S) ps in
  let bs := run_sumplan M (lower_sumplan elem KeepOne S ps T [] sp) st other in
  pl_aholds S ps (avg_of n g) st
  /\ pl_holds T (avg_of n g) (fun w l => av_div F (bs SDst w l) n).
Proof.
  intros s S ps T sp elem g st other H Hst n bs. split.
  - exact (sholds_aholds S ps g st Hst).
  - destruct (plan_sums_checked s S ps T [] sp H) as [rep Hc].
    pose proof (scheck_layouts_wf S ps T [] sp rep Hc) as Hwf.
    unfold layouts_wf in Hwf. rewrite !andb_true_iff in Hwf. destruct Hwf as [[_ HT] _].
    pose proof (pl_sholds_nil M T g _ HT (proj1 (proj1 (redist_sums_correct s S ps T [] sp elem KeepOne H) M g st other (keep_one_sound M) Hst)))
      as Hdst.
    intros w b Hb l Hl. unfold avg_of. f_equal. apply (Hdst w b Hb l Hl).
Qed.

(** ** avg to a target with pending axes *)

Lemma av_div_zero : forall n, 1 <= n -> av_div F (zero M) n = zero M.
Proof.
  intros n Hn. rewrite <- (av_div_copies F (zero M) n Hn) at 2.
  f_equal. induction n as [|n IH]; [reflexivity |].
  change (repeat (zero M) (S n)) with (zero M :: repeat (zero M) n).
  rewrite msum_cons. destruct n as [|n]; [rewrite msum_nil; symmetry; apply add_zero_l |].
  rewrite <- IH by lia. symmetry. apply add_zero_l.
Qed.

(** Dividing every term divides the sum. *)
Lemma msum_div : forall B (f : B -> A) ks n, 1 <= n ->
  msum M (map (fun k => av_div F (f k) n) ks) = av_div F (msum M (map f ks)) n.
Proof.
  intros B f ks n Hn. induction ks as [|k ks IH]; simpl map.
  - rewrite !msum_nil. symmetry. apply av_div_zero, Hn.
  - rewrite !msum_cons, IH, av_div_add by exact Hn. reflexivity.
Qed.

Lemma group_sum_div : forall m ps xs c (f : device -> A) n, 1 <= n ->
  group_sum_along M m ps xs c (fun d => av_div F (f d) n) = av_div F (group_sum_along M m ps xs c f) n.
Proof.
  intros m ps xs. induction xs as [|x xs IH]; intros c f n Hn; simpl; [reflexivity |].
  destruct (memb x ps); [| apply IH, Hn].
  rewrite (msum_ext_in M _ _ (fun k => av_div F (group_sum_along M m ps xs (set_coord c x k) f) n))
    by (intros k _; apply IH, Hn).
  apply msum_div, Hn.
Qed.

(** avg to a target with pending axes, by any collective plan [plan_sums]
    returns (the command plans such a target by the collectives), as the
    runtime runs it: the lowered calls with every member of an added axis
    keeping its value ([KeepAll], as for max and min; every reduction adds),
    then one division of every rank's destination by [avg_divisor], the
    product of the sizes of the groups of the lowered reductions (the axes
    the plan reduced: [ps] less those the target keeps pending, or all of
    [ps] when the plan reduces all and adds the target's axes back).  If
    the source's contributions sum, over each group of [n] members, to [g],
    the source is avg-denoting [avg_of n g], and every target rank's group
    over [pt] then averages to its box of [avg_of n g]: kept axes (avg{ps}
    to avg{pt}, [pt] within [ps]), added ones (a plain source, or axes not
    in [ps]) and both at once.  The source is kept. *)
Theorem redist_avg_pending_correct : forall s S ps T pt pre rf p post elem (g : list nat -> A)
    (st other : state A),
  plan_sums s S ps T pt = Some (SumByCollectives pre rf p post) -> pl_sholds M S ps g st ->
  let n := group_size (ly_m S) ps in
  let pg := lower_sums elem KeepAll S ps T pre rf p post in
  let bs := interp_sums M pg st other in
  pl_aholds S ps (avg_of n g) st
  /\ pl_aholds T pt (avg_of n g) (fun w l => av_div F (bs SDst w l) (avg_divisor pg))
  /\ bs SSrc = st.
Proof.
  intros s S ps T pt pre rf p post elem g st other H Hst n pg bs.
  destruct (plan_sums_collectives_steps s S ps T pt pre rf p post H) as [Hr Ha].
  destruct (plan_sums_checked s S ps T pt _ H) as [rep Hc].
  destruct (lower_sums_correct S ps T pt pre rf p post rep elem KeepAll Hc M st other) as [Hdst Hsrc].
  split; [exact (sholds_aholds S ps g st Hst) | split; [| exact Hsrc]].
  destruct (scheck_without_additions S ps T pt pre rf p post rep Hc) as [rep' Hc'].
  destruct (scheck_collectives_parts _ _ _ _ _ _ _ _ _ Hc)
    as [pre_reps [t1 [kept [crep [post_reps
        [He [Hws [Hwt [Hpre [Hrf [Hcc [Hkept [Hpost [Hsame [Hred _]]]]]]]]]]]]]]].
  destruct (even_problem_spec S T He) as [HS [HT [Hm [Hs [Ht _]]]]].
  set (m := ly_m S) in *.
  apply sum_steps_check_type in Hpre. apply sum_steps_check_type in Hpost.
  (* What the reductions and collectives leave, the additions keep. *)
  set (st2 := exec (refine_mesh rf m) (refine_ty rf t1) p (exec_sum_plan M KeepOne m (ly_ty S, ps) pre st)).
  assert (E2 : bs SDst = st2).
  { unfold bs, pg. rewrite Hdst. cbn [sexec]. fold m. rewrite Hred. cbn [fst snd].
    rewrite exec_keep_additions by exact Ha. unfold st2. f_equal. apply exec_reductions_fill, Hr. }
  assert (H2 : sholds M m (ly_ty T, kept) g st2).
  { pose proof (scheck_correct S ps T _ _ rep' Hc' M g st Hst) as H2.
    cbn [sexec] in H2. fold m in H2. rewrite Hred in H2. cbn [fst snd exec_sum_plan] in H2.
    rewrite HT in H2. apply (pl_sholds_even m Hm) in H2; [exact H2 | exact Ht]. }
  (* The divisor: the reduced axes; the group size: theirs times the kept ones'. *)
  assert (Hk : avg_divisor pg = steps_size m pre)
    by exact (reductions_divisor m elem KeepAll pre _ _ SSrc Hm Hws Hpre).
  assert (Hn : n = steps_size m pre * group_size m kept)
    by exact (reductions_group_size m pre _ _ _ Hm Hws Hr Hpre).
  set (k := avg_divisor pg) in *.
  set (K := group_size m kept) in *.
  assert (HK : 1 <= K) by apply group_size_pos, Hm.
  assert (Hn1 : 1 <= n) by apply group_size_pos, Hm.
  assert (Hk1 : 1 <= k) by (rewrite Hk; destruct (steps_size m pre); lia).
  (* The divided destination: over the kept axes, [g] divided by [k]. *)
  set (D := fun w l => av_div F (bs SDst w l) k).
  assert (H3 : sholds M m (ly_ty T, kept) (fun i => msum M (repeat (avg_of k g i) 1)) D).
  { intros r Hr' l Hl. pose proof (H2 r Hr' l Hl) as E. cbn [fst snd] in E |- *.
    unfold pending_value, group_sum, D. rewrite E2.
    rewrite group_sum_div by exact Hk1.
    fold (group_sum M m kept (device_of_rank m r) (fun c => st2 (rank m c) l)).
    fold (pending_value M m kept st2 r l). rewrite E. symmetry. apply msum_single. }
  (* The additions: [k]-th parts of [g], one per member of the added axes. *)
  assert (Hwk : pty_wf m (ly_ty T, kept) = true).
  { destruct Hkept as [-> | [_ <-]]; [unfold pty_wf; simpl; rewrite Ht; reflexivity |].
    exact (sum_plan_type_wf m Hm pre _ _ Hws Hpre). }
  destruct (additions_copies M m post _ _ _ (avg_of k g) 1 D Hm Hwk Ha Hpost H3) as [H4 Hsize].
  set (P := steps_size m post * 1) in *.
  apply (sholds_same_axes M m _ _ pt) in H4; [| exact Hsame].
  assert (Hpt : group_size m pt = P * K).
  { unfold P, K. rewrite Nat.mul_1_r, <- Hsize. apply group_size_ext. intros x. symmetry.
    apply same_axes_memb, Hsame. }
  assert (HP : 1 <= P) by (pose proof (group_size_pos m pt Hm); destruct P; lia).
  rewrite HT. apply pl_holds_even; [exact Hm | exact Ht |].
  intros r Hr' l Hl. unfold pl_avg_value. rewrite pl_pending_value_even by assumption.
  change (ly_m (even_layout m (ly_ty T))) with m. fold D.
  pose proof (H4 r Hr' l Hl) as E. cbn [fst snd] in E.
  rewrite E, Hpt, <- av_div_div, av_div_copies by assumption.
  unfold avg_of. rewrite av_div_div by assumption. f_equal. rewrite Hn, Hk. reflexivity.
Qed.

End Avg.

(** ** An exact avg carrier: the rationals *)

From Coq Require Import QArith Qcanon.

Section Rationals.
Local Open Scope Qc_scope.

Definition Qc_sum : cmonoid := {|
  carrier := Qc;
  zero := 0;
  add := Qcplus;
  add_assoc := Qcplus_assoc;
  add_comm := Qcplus_comm;
  add_zero_l := Qcplus_0_l
|}.

Fixpoint qc_of_nat (n : nat) : Qc := match n with O => 0 | S n => qc_of_nat n + 1 end.

Lemma qc_of_nat_nonneg : forall n, 0 <= qc_of_nat n.
Proof.
  induction n as [|n IH]; simpl; [apply Qcle_refl |].
  rewrite <- (Qcplus_0_r 0). apply Qcplus_le_compat; [exact IH | discriminate].
Qed.

Lemma qc_of_nat_nonzero : forall n, (1 <= n)%nat -> qc_of_nat n <> 0.
Proof.
  intros [|n] H; [inversion H |]. simpl. intros E.
  assert (Hlt : 0 < qc_of_nat n + 1).
  { apply Qclt_le_trans with (0 + 1); [reflexivity |].
    apply Qcplus_le_compat; [apply qc_of_nat_nonneg | apply Qcle_refl]. }
  rewrite E in Hlt. exact (Qclt_not_eq 0 0 Hlt eq_refl).
Qed.

Lemma msum_repeat_Qc : forall x n, msum Qc_sum (repeat x n) = x * qc_of_nat n.
Proof.
  intros x n. induction n as [|n IH].
  - simpl. rewrite Qcmult_0_r. reflexivity.
  - change (repeat x (S n)) with (x :: repeat x n). rewrite msum_cons, IH. simpl. ring.
Qed.

Lemma qc_of_nat_add : forall a b, qc_of_nat (a + b) = qc_of_nat a + qc_of_nat b.
Proof. intros a b. induction a as [|a IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma qc_of_nat_mul : forall a b, qc_of_nat (a * b) = qc_of_nat a * qc_of_nat b.
Proof. intros a b. induction a as [|a IH]; simpl; [ring | rewrite qc_of_nat_add, IH; ring]. Qed.

Definition qc_div_nat (x : Qc) (n : nat) : Qc := x / qc_of_nat n.

Lemma qc_div_copies : forall x n, (1 <= n)%nat -> qc_div_nat (msum Qc_sum (repeat x n)) n = x.
Proof.
  intros x n Hn. unfold qc_div_nat. rewrite msum_repeat_Qc.
  apply Qcdiv_mult_l, qc_of_nat_nonzero, Hn.
Qed.

Lemma qc_div_add : forall x y n, (1 <= n)%nat -> qc_div_nat (x + y) n = qc_div_nat x n + qc_div_nat y n.
Proof. intros x y n _. unfold qc_div_nat, Qcdiv. ring. Qed.

Lemma qc_div_div : forall x a b, (1 <= a)%nat -> (1 <= b)%nat ->
  qc_div_nat (qc_div_nat x a) b = qc_div_nat x (a * b).
Proof. intros x a b _ _. unfold qc_div_nat, Qcdiv. rewrite qc_of_nat_mul, Qcinv_mult_distr. ring. Qed.

(** The rationals with the exact division: [avg_carrier] is inhabited, and
    there avg is the value with no rounding. *)
Definition Qc_avg : avg_carrier := {|
  av_monoid := Qc_sum;
  av_div := qc_div_nat;
  av_div_copies := qc_div_copies;
  av_div_add := qc_div_add;
  av_div_div := qc_div_div
|}.

End Rationals.
