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
      ([redist_avg_correct]); the rationals are an exact carrier for it
      ([Qc_avg]).  Everything is stated about the data every rank ends
      with. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Layout Layoutproof Sums Sumsproof
  Sumexchange Sumstrategy Sumstrategyproof Strategy Strategyproof Lowersums Lowersumx Lowersumxproof Choose Costsums
  Costsumsproof Compiler Reductions Refineproof Checkerproof Layoutproof Strategyproof Lowersumsproof.

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
  intros m [t ps] a p' g st Hm Hw Hk Hst. simpl in Hk.
  destruct (memb a (mesh_axes m)) eqn:Ham; simpl in Hk; [| discriminate].
  destruct (memb a (ty_axes t)) eqn:Hat; [discriminate |].
  destruct (memb a ps) eqn:Ha; [discriminate |]. inversion Hk. subst p'. clear Hk.
  apply memb_In in Ham.
  destruct (pty_wf_elim m t ps Hw) as [Ht _].
  assert (Hsz : 1 <= axis_size m a) by (apply mesh_wf_size_pos; assumption).
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
  - rewrite map_const_repeat, seq_length. apply msum_repeat_idempotent. exact Hsz.
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

(** The collective plans the planner returns from a plain source reduce
    nothing and only add the target's pending axes. *)
Lemma plan_sums_plain_additions : forall s S T pt pre rf p post,
  plan_sums s S [] T pt = Some (SumByCollectives pre rf p post) -> pre = [] /\ only_additions post = true.
Proof.
  intros s S T pt pre rf p post H.
  assert (Hc : exists c, sum_collectives S [] T pt = Some (SumByCollectives pre rf p post, c)).
  { unfold plan_sums in H.
    destruct (even_problem S T); destruct s; destruct (sum_exchange_ok S [] T pt);
      destruct (sum_collectives S [] T pt) as [[sp' c]|] eqn:E; simpl in H; try discriminate;
      try (destruct (Planner.cost_lt _ c); try discriminate); injection H as <-; eauto. }
  destruct Hc as [c Hc]. unfold sum_collectives in Hc.
  apply cheapest_in, filter_In in Hc. destruct Hc as [Hin _].
  apply in_flat_map in Hin. destruct Hin as [o [Ho Hin]].
  destruct Ho as [<- | [<- | [<- | []]]].
  - unfold keep_candidate in Hin. cbn [filter reduce_steps sum_steps_check] in Hin.
    destruct Hin as [E | []]. injection E as <- _ _ <- _. split; [reflexivity | apply only_additions_add_steps].
  - unfold sum_candidate in Hin. cbn [reduce_steps sum_steps_check] in Hin.
    destruct (Planner.planner_choice _ _ _) as [[[rf' p'] [tr la]]|]; [| destruct Hin].
    destruct Hin as [E | []]. injection E as <- _ _ <- _. split; [reflexivity | apply only_additions_add_steps].
  - unfold sum_candidate in Hin. cbn [reduce_steps sum_steps_check] in Hin.
    destruct (Planner.planner_choice _ _ _) as [[[rf' p'] [tr la]]|]; [| destruct Hin].
    destruct Hin as [E | []]. injection E as <- _ _ <- _. split; [reflexivity | apply only_additions_add_steps].
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
  - intros w b Hb l Hl. unfold pl_avg_value, avg_of. f_equal. apply (Hst w b Hb l Hl).
  - destruct (plan_sums_checked s S ps T [] sp H) as [rep Hc].
    pose proof (scheck_layouts_wf S ps T [] sp rep Hc) as Hwf.
    unfold layouts_wf in Hwf. rewrite !andb_true_iff in Hwf. destruct Hwf as [[_ HT] _].
    pose proof (pl_sholds_nil M T g _ HT (proj1 (proj1 (redist_sums_correct s S ps T [] sp elem KeepOne H) M g st other (keep_one_sound M) Hst)))
      as Hdst.
    intros w b Hb l Hl. unfold avg_of. f_equal. apply (Hdst w b Hb l Hl).
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

(** The rationals with the exact division: [avg_carrier] is inhabited, and
    there avg of copies is the value with no rounding. *)
Definition Qc_avg : avg_carrier := {|
  av_monoid := Qc_sum;
  av_div := fun x n => x / qc_of_nat n;
  av_div_copies := fun x n Hn =>
    eq_trans (f_equal (fun y => y / qc_of_nat n) (msum_repeat_Qc x n))
             (Qcdiv_mult_l x (qc_of_nat n) (qc_of_nat_nonzero n Hn))
|}.

End Rationals.
